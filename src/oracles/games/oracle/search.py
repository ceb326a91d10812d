"""What Oracle offers a search bot: the keeps worth searching, and how the
searching seat plays in its rollouts.

A keep is a choice of two Oracle cards out of eight to ten: 28 to 45 moves,
far too many for a search of a few hundred iterations, whose random
play-outs tell good keeps from bad ones only after many visits each. The
heuristic policy's pair values (:func:`.policy.pair_values`) rank the keeps
well; the search then decides among the best few, where its play-outs can
tell them apart. Only the seat's own information enters the ranking (its
hand, its Oracle cards, the chips in the middle), so every world the search
draws gives the same list, computed once per decision.

Random rollouts judge a keep by how its prophecies fare when the seat plays
at random, and so undervalue every prophecy that needs the seat to steer
(win many tricks, or none). In the search's rollouts the searching seat
therefore plays the plain style of :mod:`.playout` in which its kept pair
pays best (:func:`steering`); the other seats play at random.
"""

from __future__ import annotations

import random

from oracles.core.game import State
from oracles.core.rand import pick as random_pick
from oracles.games.oracle.cards import NUM_CARDS
from oracles.games.oracle.notation import KEEP_BASE, LOSER_KEEP, LOSER_RETURN, PAIR_INDEX
from oracles.games.oracle.phases import KEEP, LOSER, PLAY
from oracles.games.oracle.playout import pick
from oracles.games.oracle.policy import pair_worth
from oracles.games.oracle.rules import OracleState

#: The keeps a search decides among. Six rather than three: with the
#: iterations of 0.2 s a move the search tells six pairs apart, and the
#: policy's ranking misses the best pair often enough that the wider choice
#: won more in each of four 100- to 200-game trials (``docs/bots.md``).
KEEPS_SEARCHED = 6

#: The search's UCB exploration constant in Oracle (the ``exploration``
#: part), above the shared 0.7. At 0.7 more iterations did not help, which
#: points at a search that settles too soon on noisy estimates (a round's
#: win rests on a few tricks); at 1.2 it won 7.2 and 8.5 points of share
#: more against three of OpenSpiel's ISMCTS on two sets of deals at the
#: same budget; 2.0 looked worse (``docs/bots.md``).
EXPLORATION = 1.2

_MEMO: dict[tuple[object, ...], tuple[list[int], dict[tuple[int, int], str]]] = {}
_MEMO_SIZE = 256


def keeps_rng(seat: int, hand: int, cards: tuple[int, ...]) -> random.Random:
    """The random source of the keep values of ``seat`` holding ``hand`` and
    the Oracle ``cards``."""
    return random.Random(f"keeps:{seat}:{hand}:{cards}")


def _keep_table(world: OracleState, seat: int) -> tuple[list[int], dict[tuple[int, int], str]]:
    """At ``seat``'s keep: the :data:`KEEPS_SEARCHED` best keeps by the
    policy's values, best first, and the style each pair pays best in. The
    play-outs behind them draw from :func:`keeps_rng`, seeded by the seat's
    own cards, so every world gives the same."""
    cards = tuple(world.oracle_cards[seat])
    hand = world.hands[seat]
    key = (id(world.game.edition), world.num_players, seat, hand, cards, tuple(world.middle))
    found = _MEMO.get(key)
    if found is None:
        worth = pair_worth(world, seat, cards, keeps_rng(seat, hand, cards))
        ranked = sorted(worth, key=lambda pair: (-worth[pair][0], pair[0], pair[1]))[:KEEPS_SEARCHED]
        found = (
            [KEEP_BASE + PAIR_INDEX[a][b] for a, b in ranked],
            {order: style for (a, b), (_, style) in worth.items() for order in ((a, b), (b, a))},
        )
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = found
    return found


def root_candidates(world: State, seat: int) -> list[int]:
    """The moves of ``seat`` worth a search at the root: at a keep the
    :data:`KEEPS_SEARCHED` best pairs by the policy's values, best first,
    elsewhere every legal move (the same list in every world)."""
    assert isinstance(world, OracleState)
    legal = world.legal_actions()
    if world.phase != KEEP or len(legal) <= KEEPS_SEARCHED:
        return legal
    return [action for action in _keep_table(world, seat)[0] if action in legal]


class SteeredRollout:
    """A rollout policy: ``seat`` plays a plain style (:data:`.playout.STYLES`),
    given or looked up by the pair it kept; every other seat, and ``seat``
    where it has no style, plays at random."""

    __slots__ = ("seat", "style", "styles")

    def __init__(
        self, seat: int, style: str | None, styles: dict[tuple[int, int], str] | None = None
    ) -> None:
        self.seat = seat
        self.style = style
        self.styles = styles

    def __call__(self, world: State, player: int, rng: random.Random) -> int:
        legal = world.legal_actions()
        if player != self.seat or len(legal) == 1:
            return random_pick(legal, rng)
        assert isinstance(world, OracleState)
        style = self.style
        if style is None and self.styles is not None:
            kept = world.kept[player]
            style = self.styles.get(kept) if kept is not None else None
        if style is None or style == "random":
            return random_pick(legal, rng)
        if legal[0] == LOSER_KEEP:
            # A Loser chip won back: of the plain styles only ``win`` keeps it.
            return LOSER_KEEP if style == "win" else LOSER_RETURN
        if legal[0] >= NUM_CARDS:
            return random_pick(legal, rng)
        return pick(style, legal, world.trick, rng)


def _round_start(world: OracleState, seat: int) -> OracleState:
    """Where ``seat`` fixed its aims this round: its keep, or (the draft)
    the first trick's start, replayed from ``world``'s history. What the
    steering reads there is the seat's own information, so every world
    gives the same."""
    state = world.game.new_initial_state()
    assert isinstance(state, OracleState)
    target = world.round_number
    for action in world.history():
        if state.round_number == target and (
            state.phase == PLAY or (state.phase == KEEP and state.current_player() == seat)
        ):
            break
        state.apply_trusted(action)
    return state


def steering(world: State, seat: int) -> SteeredRollout | None:
    """The rollout policy of a search deciding for ``seat`` at ``world``
    (:class:`SteeredRollout`), from the seat's own information only. The
    style is chosen once a round, when the seat keeps its pair: each pair's
    best style at the keep (decided in the tree, so the rollout looks it up
    by the pair kept), and in the play the one its kept pair was chosen
    with, so the rollouts follow one plan through the round (re-choosing
    the style at every decision, from fewer play-outs, played worse in
    trials). None where the seat has nothing to steer by (the draft's
    passes) and once the round is over."""
    assert isinstance(world, OracleState)
    if world.phase == KEEP:
        return SteeredRollout(seat, None, _keep_table(world, seat)[1])
    kept = world.kept[seat]
    if kept is None or world.phase not in (PLAY, LOSER):
        return None
    start = _round_start(world, seat)
    if start.phase == KEEP:
        return SteeredRollout(seat, _keep_table(start, seat)[1].get(kept))
    rng = random.Random(f"steer:{seat}:{start.hands[seat]}:{kept}")
    return SteeredRollout(seat, pair_worth(start, seat, kept, rng)[kept][1])
