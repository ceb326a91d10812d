"""Quick play-outs of an Oracle round, for the heuristic policy's keep rule.

How often would each prophecy hold if the seat played the round in one of a
few plain styles (:data:`STYLES`)?

* ``win``: take every trick it can (lead its highest card; play its highest
  card when that wins the trick as it stands, else its lowest), and keep a
  Loser chip it wins again;
* ``win_return``: the same, but put such a Loser chip back;
* ``lose``: lose every trick it can (lead its lowest card; play its highest
  card that does not win, else its lowest);
* ``random``: any legal card.

Each other seat plays a style drawn from :data:`OTHERS` for the play-out and
puts back any Loser chip it wins twice. The hidden cards are dealt afresh for every
sample from what the seat has not seen (:meth:`OracleState.unseen_cards` and
the other seats' hand sizes), the same deals for every style, so a play-out
reads nothing the seat may not know. Prophecies are judged after the Loser
forfeit, as in the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from oracles.games.oracle.cards import CARD_CREATURE, NUM_VALUES, cards_of_mask
from oracles.games.oracle.phases import PLAY
from oracles.games.oracle.rules import OracleState
from oracles.games.oracle.scoring import NOBODY

STYLES = ("win", "win_return", "lose", "random")
#: Play-outs per style.
SAMPLES = 8
#: Styles the other seats play in, one drawn for each seat and play-out.
OTHERS = ("win", "lose", "random")

Vector = Sequence[int]
Test = Callable[[Vector, Vector, Vector, Vector, Vector], bool]

_COLOUR_OF = tuple(card // NUM_VALUES for card in range(60))
_VALUE_OF = tuple(card % NUM_VALUES for card in range(60))
_TOP = NUM_VALUES - 1


def _winner(trick: list[int]) -> int:
    """Index in ``trick`` of the winning card (see :func:`.cards.trick_winner`)."""
    values = [_VALUE_OF[card] for card in trick]
    best = 0 if (_TOP in values and 0 in values) else max(values)
    first = -1
    led = _COLOUR_OF[trick[0]]
    for index, value in enumerate(values):
        if value == best:
            if _COLOUR_OF[trick[index]] == led:
                return index
            if first < 0:
                first = index
    return first


def _beats(trick: Sequence[int], card: int) -> bool:
    """Whether ``card`` would win ``trick`` (cards already played) as it stands."""
    return _winner([*trick, card]) == len(trick)


def _legal(hand: list[int], trick: list[int]) -> list[int]:
    if not trick:
        return hand
    led = _COLOUR_OF[trick[0]]
    follow = [card for card in hand if _COLOUR_OF[card] == led]
    return follow or hand


def _strength(card: int) -> int:
    """Order of cards by how surely they win: value, 12 highest."""
    return _VALUE_OF[card]


def pick(style: str, legal: list[int], trick: Sequence[int], rng: random.Random) -> int:
    """The card ``style`` plays from ``legal`` (card ints) to ``trick``."""
    if style == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
    if style in ("win", "win_return"):
        if not trick:
            return max(legal, key=_strength)
        winning = [card for card in legal if _beats(trick, card)]
        if winning:
            return max(winning, key=_strength)
        return min(legal, key=_strength)
    # lose
    if not trick:
        return min(legal, key=_strength)
    losing = [card for card in legal if not _beats(trick, card)]
    if losing:
        return max(losing, key=_strength)
    return min(legal, key=_strength)


def _final(held: list[int], holder: list[int], seat: int) -> tuple[int, ...]:
    v = [0 if holder[c] == seat else held[3 * seat + c] for c in range(3)]
    losers = [1 if holder[c] == seat else 0 for c in range(3)]
    victory = v[0] + v[1] + v[2]
    count = sum(losers)
    return (*v, *losers, count, victory, victory + count, 5 * v[0] + 3 * v[1] + 2 * v[2])


def play_out(
    hands: list[list[int]],
    leader: int,
    middle: list[int],
    held: list[int],
    holder: list[int],
    seat: int,
    style: str,
    rng: random.Random,
    trick: Sequence[int] = (),
) -> list[tuple[int, ...]]:
    """Play the rest of a round (every seat's cards in ``hands``, tricks led
    by ``leader``, the first one already holding ``trick``), ``seat`` in
    ``style``, the others in drawn styles; every seat's quantity vector at
    the end (after the Loser forfeit)."""
    n = len(hands)
    hands = [hand[:] for hand in hands]
    middle, held, holder = middle[:], held[:], holder[:]
    styles = [OTHERS[rng.randrange(len(OTHERS))] for _ in range(n)]
    started = list(trick)
    while started or hands[leader]:
        trick, started = started, []
        for offset in range(len(trick), n):
            player = (leader + offset) % n
            legal = _legal(hands[player], trick)
            if player == seat:
                card = pick(style, legal, trick, rng)
            else:
                card = pick(styles[player], legal, trick, rng)
            hands[player].remove(card)
            trick.append(card)
        index = _winner(trick)
        winner = (leader + index) % n
        creature = CARD_CREATURE[trick[index]]
        if middle[creature]:
            middle[creature] -= 1
            held[3 * winner + creature] += 1
        elif holder[creature] == winner:
            if not (winner == seat and (style == "win" or (style == "random" and rng.random() < 0.5))):
                holder[creature] = NOBODY
        else:
            holder[creature] = winner
        leader = winner
    return [_final(held, holder, player) for player in range(n)]


def hold_chances_by_style(
    world: OracleState, seat: int, tests: Sequence[Test], rng: random.Random, samples: int = SAMPLES
) -> list[list[float]]:
    """Per style of :data:`STYLES`, for each prophecy test (compiled, see
    :func:`.policy.compile_edition`): the share of play-outs in which it
    holds for ``seat``, from ``world`` on: before the first trick (the keep
    or the draft) or during the play; the same deals serve every style."""
    n = world.num_players
    own = cards_of_mask(world.hands[seat])
    unseen = cards_of_mask(world.unseen_cards(seat))
    sizes = [world.hands[other].bit_count() for other in range(n)]
    if world.phase == PLAY:
        leader, trick = world.leader, world.trick
    else:
        leader, trick = (world.dealer + 1) % n, ()  # the play has not started
    middle = list(world.middle)
    held = list(world.held)
    holder = list(world.loser_holder)
    counts = [[0] * len(tests) for _ in STYLES]
    for _ in range(samples):
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        start = 0
        for other in range(n):
            if other == seat:
                hands.append(own)
            else:
                hands.append(unseen[start : start + sizes[other]])
                start += sizes[other]
        for tally, style in zip(counts, STYLES, strict=True):
            finals = play_out(hands, leader, middle, held, holder, seat, style, rng, trick)
            mine = finals[seat]
            rest = [finals[o] for o in range(n) if o != seat]
            low = tuple(map(min, zip(*rest, strict=True)))
            high = tuple(map(max, zip(*rest, strict=True)))
            left, right = finals[(seat + 1) % n], finals[(seat - 1) % n]
            for index, test in enumerate(tests):
                if test(mine, left, right, low, high):
                    tally[index] += 1
    return [[count / samples for count in tally] for tally in counts]


def hold_chances(
    world: OracleState, seat: int, tests: Sequence[Test], rng: random.Random, samples: int = SAMPLES
) -> list[float]:
    """For each prophecy test, its hold chance in the style where it is
    highest (:func:`hold_chances_by_style`)."""
    by_style = hold_chances_by_style(world, seat, tests, rng, samples)
    return [max(rates[index] for rates in by_style) for index in range(len(tests))]
