"""What Oracle offers a search bot: the keeps worth searching.

A keep is a choice of two Oracle cards out of eight to ten: 28 to 45 moves,
far too many for a search of a few hundred iterations, whose random
play-outs tell good keeps from bad ones only after many visits each. The
heuristic policy's pair values (:func:`.policy.pair_values`) rank the keeps
well; the search then decides among the best few, where its play-outs can
tell them apart. Only the seat's own information enters the ranking (its
hand, its Oracle cards, the chips in the middle), so every world the search
draws gives the same list, computed once per decision.
"""

from __future__ import annotations

import random

from oracles.core.game import State
from oracles.games.oracle.notation import KEEP_BASE, PAIR_INDEX
from oracles.games.oracle.phases import KEEP
from oracles.games.oracle.policy import pair_values
from oracles.games.oracle.rules import OracleState

#: The keeps a search decides among. Six rather than three: with the
#: iterations of 0.2 s a move the search tells six pairs apart, and the
#: policy's ranking misses the best pair often enough that the wider choice
#: won more in each of four 100- to 200-game trials (``docs/bots.md``).
KEEPS_SEARCHED = 6

_MEMO: dict[tuple[object, ...], list[int]] = {}
_MEMO_SIZE = 256


def keeps_rng(seat: int, hand: int, cards: tuple[int, ...]) -> random.Random:
    """The random source of the keep values of ``seat`` holding ``hand`` and
    the Oracle ``cards``."""
    return random.Random(f"keeps:{seat}:{hand}:{cards}")


def root_candidates(world: State, seat: int) -> list[int]:
    """The moves of ``seat`` worth a search at the root: at a keep the
    :data:`KEEPS_SEARCHED` best pairs by the policy's values, best first,
    elsewhere every legal move. The play-outs behind some values draw from
    :func:`keeps_rng`, seeded by the seat's own cards, so that every world
    gives the same list."""
    assert isinstance(world, OracleState)
    legal = world.legal_actions()
    if world.phase != KEEP or len(legal) <= KEEPS_SEARCHED:
        return legal
    cards = tuple(world.oracle_cards[seat])
    hand = world.hands[seat]
    key = (id(world.game.edition), world.num_players, seat, hand, cards, tuple(world.middle))
    found = _MEMO.get(key)
    if found is None:
        values = pair_values(world, seat, cards, keeps_rng(seat, hand, cards))
        ranked = sorted(values, key=lambda pair: (-values[pair], pair[0], pair[1]))[:KEEPS_SEARCHED]
        found = [KEEP_BASE + PAIR_INDEX[a][b] for a, b in ranked]
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = found
    return [action for action in found if action in legal]
