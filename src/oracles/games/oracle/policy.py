"""Heuristic policy for ``oracle``: keep the prophecies the hand can make
come true, then steer the tricks towards them.

The policy reads only what its seat may know: its own hand, its dealt and kept
Oracle cards, the current trick, the chips on the table, the number of cards
each seat holds and :meth:`OracleState.unseen_cards` (the cards it has not
seen, together: the same in every resampled world). It never looks at another
seat's hand or Oracle cards, and it never builds a view.

**Card strength.** ``_strengths`` estimates for each value the chance that a
card of that value wins the trick it is played to, from the unseen cards: a
card loses when an unseen higher card (or, for a 12, an unseen 1) turns up in
its trick, and each unseen card turns up with chance about one in the number
of cards per hand, higher cards weighing more (``_ALPHA``: opponents play
them to win). The chances are scaled so that all remaining cards together win
as many tricks as are left. A 1 wins only by catching a 12. (Calibrated on
self-play: the expected wins per creature match the wins taken.)

**Reach.** Summed by creature over the seat's hand (1–5 Hydra, 6–9 Pegasus,
10–12 Phoenix) they give, per creature, ``hi``: how many more victory point
chips the seat could take with that creature if it tried, and ``lo``: how many
it will take even if it tries not to (a strong card may find no trick to lose
in; a card's chance counts squared). Both are scaled by the share of that
creature's remaining wins that still find a chip in the middle.

**Value of a position.** ``_value`` is the best end of round the seat can
aim at: over every count of further victory point chips per creature between
about ``lo`` and ``hi`` (and no more than the middle still holds), the stars
it would keep after the Loser forfeit plus the points of its kept prophecies
that would hold, weighted by how reachable that count is; an aim that fails
ends where the cards go by themselves. While several tricks are left, a count
may also end one higher than aimed (``_KERNEL``). A Loser chip the seat holds
is forfeit unless it can win that creature again and return it. In the play,
prophecies about other seats compare with their chips now plus an even share
of the tricks the seat does not expect to take (the fewest and the most of
several seats spread further).
Values are cached by (kept pair, chips, reach in quarters, middle, others).

**Decisions.** *Keep* (and the draft's pass and discard): the pair of Oracle
cards that would pay most in quick play-outs of the round (:mod:`.playout`):
the hidden cards redealt from the unseen ones a few times, the seat playing
each of a few plain styles (win all it can, lose all it can, at random)
against opponents in drawn styles; a pair is worth its points times how
often each prophecy holds, in the style where the pair pays best. So every
card is valued on one scale, whatever it is about (its own chips, a Loser
chip, the other seats), and a card's points always count.

*Play*: each legal card either wins the trick (for sure when the seat plays last; else with the chance that
no later seat beats it) and takes the next chip of its creature, the Loser
chip when the middle has none, or loses; the card is worth the expected value
of what follows, its own strength taken out of the hand. So the seat wins
tricks with the creature it wants, avoids a Loser chip it cannot return,
throws its dangerous high cards on tricks that are lost anyway, and keeps
the Loser chip only when a prophecy pays for it (*Loser decision*).
"""

from __future__ import annotations

import random
import re
from array import array
from collections.abc import Callable, Sequence
from operator import add, mul
from typing import Any

from oracles.core.game import State
from oracles.games.oracle.cards import NUM_VALUES, VALUE_CREATURE
from oracles.games.oracle.notation import (
    DISCARD_BASE,
    KEEP_BASE,
    LOSER_KEEP,
    LOSER_RETURN,
    PAIR_INDEX,
    PASS_BASE,
)
from oracles.games.oracle.phases import DRAFT, KEEP, LOSER, PLAY
from oracles.games.oracle.playout import STYLES, hold_chances_by_style
from oracles.games.oracle.prophecies import QUANTITIES, Edition
from oracles.games.oracle.rules import OracleState

#: Cards of each value (index value - 1), every colour.
_VALUE_MASKS: tuple[int, ...] = tuple(
    sum(1 << (colour * NUM_VALUES + value) for colour in range(5)) for value in range(NUM_VALUES)
)
#: A 1 only wins by catching a 12; it cannot force that.
_ONE_CATCH = 0.4
#: Chance that a card which loses now wins after all (a 1 when a 12 follows).
_LATE_ONE = 0.15
#: Weight of each unseen higher card against a card (opponents play their
#: high cards to win).
_ALPHA = 1.5

# A compiled prophecy: (test(self, left, right, others_min, others_max), points, about others?)
Vector = Sequence[int]
Test = Callable[[Vector, Vector, Vector, Vector, Vector], bool]
Compiled = tuple[Test, int, bool]

_SCOPE_VARS = {"": "s", "left": "l", "right": "r", "others_min": "mn", "others_max": "mx"}
_TERM = re.compile(r"^(?:(left|right|others_min|others_max)\.)?([a-z_]+)$")
_compiled: dict[int, tuple[Edition, list[Compiled]]] = {}


def _compile_term(text: str) -> tuple[str, bool]:
    if text.lstrip("-").isdigit():
        return str(int(text)), False
    match = _TERM.match(text)
    if not match or match.group(2) not in QUANTITIES:
        raise ValueError(f"cannot compile the term {text!r}")
    scope = match.group(1) or ""
    return f"{_SCOPE_VARS[scope]}[{QUANTITIES.index(match.group(2))}]", bool(scope)


def compile_edition(edition: Edition) -> list[Compiled]:
    """Each card of ``edition`` as a fast test over quantity vectors (the
    conditions were checked when the edition was loaded; only known terms and
    operators are turned into code)."""
    entry = _compiled.get(id(edition))
    if entry is not None and entry[0] is edition:
        return entry[1]
    result: list[Compiled] = []
    for card in edition.cards:
        parts = []
        relational = False
        for clause in card.condition.split(" and "):
            left, op, right = clause.split()
            if op not in ("==", "!=", "<", "<=", ">", ">="):
                raise ValueError(f"{card.id}: unknown operator {op!r}")
            a, rel_a = _compile_term(left)
            b, rel_b = _compile_term(right)
            relational = relational or rel_a or rel_b
            parts.append(f"{a} {op} {b}")
        test: Test = eval("lambda s, l, r, mn, mx: " + " and ".join(parts))
        result.append((test, card.points, relational))
    _compiled[id(edition)] = (edition, result)
    return result


def _final(v0: int, v1: int, v2: int, l0: int, l1: int, l2: int) -> tuple[int, ...]:
    """A seat's quantity vector at the end of the round (Loser forfeit applied)."""
    if l0:
        v0 = 0
    if l1:
        v1 = 0
    if l2:
        v2 = 0
    victory = v0 + v1 + v2
    losers = l0 + l1 + l2
    return (v0, v1, v2, l0, l1, l2, losers, victory, victory + losers, 5 * v0 + 3 * v1 + 2 * v2)


#: Victory point chips per creature a seat can hold at most (table sizes).
_DIMS = (4, 5, 7)
#: The end vector of every holding, by index ``((v0 * 5 + v1) * 7 + v2) * 8 + loser bits``.
_FINALS: tuple[tuple[int, ...], ...] = tuple(
    _final(v0, v1, v2, bits & 1, bits >> 1 & 1, bits >> 2)
    for v0 in range(_DIMS[0])
    for v1 in range(_DIMS[1])
    for v2 in range(_DIMS[2])
    for bits in range(8)
)

Quarters = tuple[int, int, int]
Chips = tuple[int, int, int, int, int, int]
Others = tuple[Vector, Vector, Vector, Vector]

_cache: dict[tuple[Any, ...], float] = {}
_steps_cache: dict[tuple[int, int, int], list[tuple[int, float]]] = {}
_tables: dict[tuple[Any, ...], array[float]] = {}
_parts: dict[tuple[Any, ...], list[float]] = {}
#: How an aimed-at count of chips of one creature ends up: as aimed, one more
#: or two more (tricks that could not be lost). Chips are never lost in play,
#: so a count does not miss downwards; failing to win is what ``lo``/``hi``
#: weigh. Tuned against random opponents (paired deals, 400 one-round games
#: on two seed sets: the mean margin rose from 2.8 / 2.9 to 3.8 / 3.6 points
#: a round over the narrower ``(0.8, 0.2)``).
_KERNEL: tuple[float, ...] = (0.6, 0.3, 0.1)
#: Aims may miss while at least this many tricks are left.
_SMOOTH_FROM = 4
_STRIDES = ((_DIMS[1] * _DIMS[2] * 8, _DIMS[0]), (_DIMS[2] * 8, _DIMS[1]), (8, _DIMS[2]))


#: Per creature axis and overshoot 0, 1, 2...: the holding that many chips
#: higher (clamped at the top), for every holding index.
_SHIFTED: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(index + min(shift, size - 1 - index // stride % size) * stride for index in range(len(_FINALS)))
        for shift in range(3)
    )
    for stride, size in _STRIDES
)


def _smooth(table: list[float], axes: int) -> list[float]:
    """``table`` blurred by :data:`_KERNEL` along each creature's count in
    ``axes`` (a bit per creature; clamped at the top): the expected worth
    when aiming at each holding."""
    for axis in range(3):
        if axes >> axis & 1:
            shifted = _SHIFTED[axis]
            out = [0.0] * len(table)
            for k, targets in zip(_KERNEL, shifted, strict=False):
                out = [o + k * table[t] for o, t in zip(out, targets, strict=True)]
            table = out
    return table


def _part(key: tuple[Any, ...], compiled: Sequence[Compiled], smooth: int) -> list[float]:
    """Per holding in :data:`_FINALS`: the stars kept (no ``compiled`` cards)
    or the points of the one card in ``compiled`` if it holds (for cards
    about the seat alone); ``smooth``: as aimed at (:func:`_smooth`), a bit
    per creature whose count may overshoot."""
    found = _parts.get((*key, smooth))
    if found is not None:
        return found
    if smooth:
        table = _smooth(_part(key, compiled, 0), smooth)
    elif compiled:
        test, points, _ = compiled[0]
        table = [float(points) if test(f, f, f, f, f) else 0.0 for f in _FINALS]
    else:
        table = [float(f[9]) for f in _FINALS]
    _parts[(*key, smooth)] = table
    return table


def _table(kid: tuple[int, ...], kept: Sequence[Compiled], smooth: int = 0) -> Sequence[float]:
    """End-of-round worth (stars after the forfeit plus the points of the
    kept prophecies that hold) of every holding in :data:`_FINALS`, for
    prophecies about the seat alone: the sum of the parts (:func:`_part`).
    ``kid`` is the edition's id and the kept card ints."""
    key = (*kid, smooth)
    table = _tables.get(key)
    if table is None:
        if len(_tables) > 2000:  # about 9 kB each
            _tables.clear()
        eid = kid[0]
        total: Sequence[float] = _part((eid,), (), smooth)
        for card, compiled in zip(kid[1:], kept, strict=True):
            total = list(map(add, total, _part((eid, card), (compiled,), smooth)))
        table = _tables[key] = array("d", total)
    return table


def _steps(lo4: int, hi4: int, cap: int) -> list[tuple[int, float]]:
    """Further victory point chips of one creature the seat may end with, and
    how reachable each count is (1 between ``lo`` and ``hi``, less outside);
    ``lo4``, ``hi4`` are in quarters."""
    key = (lo4, hi4, cap)
    found = _steps_cache.get(key)
    if found is not None:
        return found
    lo, hi = lo4 / 4, hi4 / 4
    first = int(lo)
    last = min(int(hi + 0.999), cap)
    if first > last:
        first = last
    out = []
    for x in range(first, last + 1):
        if x < lo:
            reach = 1.0 - (lo - x)
        elif x > hi:
            reach = 1.0 - (x - hi)
        else:
            reach = 1.0
        if reach > 0.0:
            out.append((x, reach))
    _steps_cache[key] = out = out or [(first, 0.1)]
    return out


def _value(
    kid: tuple[int, ...],
    kept: tuple[Compiled, ...],
    q: Chips,
    lo4: Quarters,
    hi4: Quarters,
    middle: tuple[int, int, int],
    others: Others | None,
    smooth: bool,
    okey: int = 0,
) -> float:
    """The best end of round the seat can steer to from chips ``q`` (victory
    chips per creature, then Loser chip flags), with between ``lo4`` and
    ``hi4`` quarters of further wins per creature within reach (see the
    module docstring). ``kid`` names the kept pair ``kept``; ``smooth``: many
    tricks are left, so an aim may miss by one. ``okey`` stands for
    ``others`` in the cache key (their hash, made once per decision)."""
    key = (kid, q, lo4, hi4, middle, okey, smooth)
    found = _cache.get(key)
    if found is not None:
        return found
    if len(_cache) > 100_000:
        _cache.clear()
    # A count may overshoot the aim only for creatures the hand can still win.
    axes = (hi4[0] > 0) | (hi4[1] > 0) << 1 | (hi4[2] > 0) << 2 if smooth else 0
    best = _best(kid, kept, q, lo4, hi4, middle, others, axes)
    # A Loser chip held can still be returned by winning that creature again
    # once the middle has none of it left.
    for creature in range(3):
        if q[3 + creature]:
            spare = hi4[creature] / 4 - middle[creature]
            if spare > 0.0:
                chance = min(1.0, 0.8 * spare)
                alt = _best(kid, kept, _with(q, 3 + creature, 0), lo4, hi4, middle, others, axes)
                if alt > best:
                    best = chance * alt + (1.0 - chance) * best
    _cache[key] = best
    return best


def _best(
    kid: tuple[int, ...],
    kept: tuple[Compiled, ...],
    q: Chips,
    lo4: Quarters,
    hi4: Quarters,
    middle: tuple[int, int, int],
    others: Others | None,
    smooth: int,
) -> float:
    q0, q1, q2 = q[0], q[1], q[2]
    bits = q[3] | q[4] << 1 | q[5] << 2
    caps = (
        min(middle[0], _DIMS[0] - 1 - q0),
        min(middle[1], _DIMS[1] - 1 - q1),
        min(middle[2], _DIMS[2] - 1 - q2),
    )
    steps0 = _steps(lo4[0], hi4[0], caps[0])
    steps1 = _steps(lo4[1], hi4[1], caps[1])
    steps2 = _steps(lo4[2], hi4[2], caps[2])
    # An aim that fails ends about where the cards go by themselves.
    n0 = q0 + min(int((lo4[0] + hi4[0]) / 8 + 0.5), caps[0])
    n1 = q1 + min(int((lo4[1] + hi4[1]) / 8 + 0.5), caps[1])
    n2 = q2 + min(int((lo4[2] + hi4[2]) / 8 + 0.5), caps[2])
    fallback = ((n0 * 5 + n1) * 7 + n2) * 8 + bits
    if others is None:
        table = _table(kid, kept, smooth)
        best = base = table[fallback]
        for x0, r0 in steps0:
            row0 = (q0 + x0) * 5 + q1
            for x1, r1 in steps1:
                r01 = r0 * r1
                row1 = (row0 + x1) * 7 + q2
                for x2, r2 in steps2:
                    reach = r01 * r2
                    value = reach * table[(row1 + x2) * 8 + bits] + (1.0 - reach) * base
                    if value > best:
                        best = value
        return best
    left, right, low, high = others
    f = _FINALS[fallback]
    best = base = f[9] + sum(points for test, points, _ in kept if test(f, left, right, low, high))
    for x0, r0 in steps0:
        row0 = (q0 + x0) * 5 + q1
        for x1, r1 in steps1:
            r01 = r0 * r1
            row1 = (row0 + x1) * 7 + q2
            for x2, r2 in steps2:
                reach = r01 * r2
                f = _FINALS[(row1 + x2) * 8 + bits]
                total = f[9]
                for test, points, _ in kept:
                    if test(f, left, right, low, high):
                        total += points
                value = reach * total + (1.0 - reach) * base
                if value > best:
                    best = value
    return best


# ------------------------------------------------------------ strengths
#: A 12-bit colour block spread out to one nibble per value (counting by adding).
_SPREAD: tuple[int, ...] = tuple(
    sum(1 << (4 * v) for v in range(NUM_VALUES) if block >> v & 1) for block in range(1 << NUM_VALUES)
)


def _counts(mask: int) -> list[int]:
    """Cards of ``mask`` per value index."""
    packed = (
        _SPREAD[mask & 0xFFF]
        + _SPREAD[mask >> 12 & 0xFFF]
        + _SPREAD[mask >> 24 & 0xFFF]
        + _SPREAD[mask >> 36 & 0xFFF]
        + _SPREAD[mask >> 48 & 0xFFF]
    )
    return [packed >> shift & 15 for shift in range(0, 48, 4)]


def _strengths(unseen: int, hand: int, cards_each: int) -> tuple[list[float], list[int], list[int]]:
    """Per value index: the chance that a card of that value wins its trick,
    the unseen cards and the seat's own cards of that value."""
    cnt = _counts(unseen)
    mine = _counts(hand)
    stay = 1.0 - 1.0 / cards_each if cards_each > 1 else 0.0
    raw = [0.0] * NUM_VALUES
    top = NUM_VALUES - 1
    raw[top] = stay ** (cnt[0] + 0.5 * cnt[top])
    higher = cnt[top]
    total = (cnt[top] + mine[top]) * raw[top]
    for v in range(top - 1, 0, -1):
        c = cnt[v]
        pv = raw[v] = stay ** (_ALPHA * higher + 0.5 * c)
        higher += c
        total += (c + mine[v]) * pv
    raw[0] = pv = _ONE_CATCH * (1.0 - stay ** cnt[top])
    total += (cnt[0] + mine[0]) * pv
    if total > 0.0:
        scale = cards_each / total
        raw = [p * scale if p * scale < 1.0 else 1.0 for p in raw]
    return raw, cnt, mine


def _reach(
    p: list[float], mine: list[int], cnt: list[int], middle: Sequence[int]
) -> tuple[list[float], list[float], list[float]]:
    """Per creature: further victory point chips the seat takes even when it
    tries not to (``lo``), and at most (``hi``), and the share of its wins of
    that creature that can still bring a victory point chip (the others win
    that creature too, and the middle runs out)."""
    mine_p = list(map(mul, mine, p))
    all_p = list(map(mul, map(add, mine, cnt), p))
    hi = [sum(mine_p[0:5]), sum(mine_p[5:9]), sum(mine_p[9:12])]
    total = [sum(all_p[0:5]), sum(all_p[5:9]), sum(all_p[9:12])]
    # A card's chance counts squared for the wins it cannot avoid; a 12 is
    # hardly ever beaten, so it counts nearly in full.
    squares = list(map(mul, mine_p, p))
    lo = [sum(squares[0:5]), sum(squares[5:9]), squares[9] + squares[10] + 0.9 * mine_p[11]]
    share = [min(1.0, middle[c] / total[c]) if total[c] > 0.0 else 1.0 for c in range(3)]
    return [lo[c] * share[c] for c in range(3)], [hi[c] * share[c] for c in range(3)], share


def _others(world: OracleState, seat: int, share: float) -> tuple[Vector, Vector, Vector, Vector]:
    """The neighbours' and the extreme other seats' expected quantity vectors
    at the end: their chips now, after the forfeit, plus ``share`` more
    victory point chips each (rounded; worth 2.5 stars each)."""
    n = world.num_players
    held = world.held
    holder = world.loser_holder
    extra = int(share + 0.5)
    star_extra = int(2.5 * extra + 0.5)
    vectors = []
    for other in range(n):
        f = _final(
            held[3 * other],
            held[3 * other + 1],
            held[3 * other + 2],
            int(holder[0] == other),
            int(holder[1] == other),
            int(holder[2] == other),
        )
        vectors.append((*f[:7], f[7] + extra, f[8] + extra, f[9] + star_extra))
    rest = [vectors[o] for o in range(n) if o != seat]
    low = list(map(min, zip(*rest, strict=True)))
    high = list(map(max, zip(*rest, strict=True)))
    # The fewest and the most of several seats stray further from the share.
    spread = int(0.9 * share**0.5 + 0.5) if n > 3 else int(0.6 * share**0.5 + 0.5)
    if spread:
        for index, stars in ((7, 1), (8, 1), (9, 2.5)):
            low[index] = max(0, low[index] - int(stars * spread + 0.5))
            high[index] += int(stars * spread + 0.5)
    return vectors[(seat + 1) % n], vectors[(seat - 1) % n], tuple(low), tuple(high)


def _my_chips(world: OracleState, seat: int) -> Chips:
    held = world.held
    holder = world.loser_holder
    return (
        held[3 * seat],
        held[3 * seat + 1],
        held[3 * seat + 2],
        int(holder[0] == seat),
        int(holder[1] == seat),
        int(holder[2] == seat),
    )


def _with(q: Chips, index: int, value: int) -> Chips:
    """``q`` with one entry replaced."""
    out = list(q)
    out[index] = value
    return (out[0], out[1], out[2], out[3], out[4], out[5])


def _quarters(values: Sequence[float]) -> Quarters:
    return (int(values[0] * 4 + 0.5), int(values[1] * 4 + 0.5), int(values[2] * 4 + 0.5))


# ---------------------------------------------------------------- choose
def choose(world: State, seat: int, rng: random.Random) -> int:
    """The action for ``seat`` in ``world``, reading only what ``seat`` may know."""
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    assert isinstance(world, OracleState)
    phase = world.phase
    if phase == PLAY:
        return _play(world, seat, legal)
    if phase == LOSER:
        return _loser(world, seat)
    if phase in (KEEP, DRAFT):
        return _choose_oracles(world, seat, legal, rng)
    return legal[0]


class _Aims:
    """What a seat steers for in the play: its kept prophecies and chips."""

    __slots__ = ("kept", "kid", "middle", "okey", "others", "q", "smooth")

    def __init__(self, world: OracleState, seat: int, expected: float) -> None:
        pair = world.kept[seat]
        edition = world.game.edition
        table = compile_edition(edition)
        if pair is None:  # not reached in play; keeps the policy total
            self.kept: tuple[Compiled, ...] = ()
            self.kid: tuple[int, ...] = (id(edition),)
        else:
            self.kept = (table[pair[0]], table[pair[1]])
            self.kid = (id(edition), pair[0], pair[1])
        self.q = _my_chips(world, seat)
        self.smooth = world.hands[seat].bit_count() >= _SMOOTH_FROM
        middle = world.middle
        self.middle = (middle[0], middle[1], middle[2])
        self.others: Others | None = None
        self.okey = 0
        if any(relational for _, _, relational in self.kept):
            n = world.num_players
            share = max(0.0, world.hands[seat].bit_count() - expected) / (n - 1)
            self.others = _others(world, seat, share)
            self.okey = hash(self.others) | 1

    def value(
        self, q: Chips, lo4: Quarters, hi4: Quarters, middle: tuple[int, int, int] | None = None
    ) -> float:
        return _value(
            self.kid, self.kept, q, lo4, hi4, middle or self.middle, self.others, self.smooth, self.okey
        )


def _play(world: OracleState, seat: int, legal: list[int]) -> int:
    n = world.num_players
    hand = world.hands[seat]
    cards_each = hand.bit_count()
    p, cnt, mine = _strengths(world.unseen_cards(seat), hand, cards_each)
    lo, hi, share = _reach(p, mine, cnt, world.middle)
    aims = _Aims(world, seat, (sum(lo) + sum(hi)) / 2)
    q = aims.q
    middle = aims.middle
    holder = world.loser_holder
    trick = world.trick
    pos = len(trick)
    later = n - 1 - pos
    stay = 1.0 - 1.0 / cards_each if cards_each > 1 else 0.0
    top = NUM_VALUES - 1
    values = [card % NUM_VALUES for card in trick]
    has_twelve = top in values
    lo4, hi4 = _quarters(lo), _quarters(hi)
    # Per value: the value of losing the trick and of winning it, given that
    # the card has left the hand.
    outcomes: dict[int, tuple[float, float]] = {}
    best, best_value = legal[0], -1e9
    for card in legal:
        v = card % NUM_VALUES
        wins_now = True if pos == 0 else _wins(trick, values, card)
        if not wins_now:
            w = 0.0
            if v == 0 and not has_twelve and later and cnt[top]:
                w = _LATE_ONE * (1.0 - stay ** (cnt[top] * later / (n - 1)))
        elif not later:
            w = 1.0
        else:
            if v == top:
                threat = cnt[0] + 0.5 * cnt[v]
            elif v == 0:
                threat = 0.3 * cnt[0]
            else:
                threat = sum(cnt[v + 1 :]) + 0.5 * cnt[v] + (cnt[0] if has_twelve else 0)
            w = stay ** (threat * later / (n - 1)) if threat else 1.0
        found = outcomes.get(v)
        if found is None:
            creature = VALUE_CREATURE[v]
            pv = p[v]
            lo_c = lo[creature] - (0.9 * pv if v == top else pv * pv) * share[creature]
            hi_c = hi[creature] - pv * share[creature]
            after_lo = list(lo4)
            after_hi = list(hi4)
            after_lo[creature] = int(lo_c * 4 + 0.5) if lo_c > 0.0 else 0
            after_hi[creature] = int(hi_c * 4 + 0.5) if hi_c > 0.0 else 0
            lo_t = (after_lo[0], after_lo[1], after_lo[2])
            hi_t = (after_hi[0], after_hi[1], after_hi[2])
            lose_value = aims.value(q, lo_t, hi_t)
            if middle[creature]:
                taken = list(middle)
                taken[creature] -= 1
                gained = _with(q, creature, q[creature] + 1)
                win_value = aims.value(gained, lo_t, hi_t, (taken[0], taken[1], taken[2]))
            elif holder[creature] == seat:
                win_value = max(lose_value, aims.value(_with(q, 3 + creature, 0), lo_t, hi_t))
            else:
                win_value = aims.value(_with(q, 3 + creature, 1), lo_t, hi_t)
            found = outcomes[v] = (lose_value, win_value)
        value = found[0] + w * (found[1] - found[0])
        if value > best_value + 1e-9:
            best, best_value = card, value
    return best


def _wins(trick: Sequence[int], values: list[int], card: int) -> bool:
    """Whether ``card`` added to ``trick`` (whose value indices are
    ``values``) would win it as things stand."""
    top = NUM_VALUES - 1
    v = card % NUM_VALUES
    if (v == top or top in values) and (v == 0 or 0 in values):
        best = 0
    else:
        best = max(values)
        if v > best:
            return True
    if v != best:
        return False
    same = [c for c in trick if c % NUM_VALUES == best]
    if not same:
        return True
    # A tie: the led colour wins, else the first played.
    led = trick[0] // NUM_VALUES
    return card // NUM_VALUES == led and all(c // NUM_VALUES != led for c in same)


def _loser(world: OracleState, seat: int) -> int:
    """Keep the Loser chip only if the end of round looks better with it."""
    hand = world.hands[seat]
    if hand:
        p, cnt, mine = _strengths(world.unseen_cards(seat), hand, hand.bit_count())
        lo, hi, _ = _reach(p, mine, cnt, world.middle)
    else:
        lo, hi = [0.0] * 3, [0.0] * 3
    aims = _Aims(world, seat, (sum(lo) + sum(hi)) / 2)
    lo4, hi4 = _quarters(lo), _quarters(hi)
    keep = aims.value(aims.q, lo4, hi4)
    back = aims.value(_with(aims.q, 3 + world.pending_loser, 0), lo4, hi4)
    return LOSER_KEEP if keep > back + 1e-9 else LOSER_RETURN


# --------------------------------------------------------------- oracles
def _choose_oracles(world: OracleState, seat: int, legal: list[int], rng: random.Random) -> int:
    """Keep (or, in the draft, hold on to) the pair with the best reachable
    end of round; pass or discard the others."""
    cards = world.oracle_cards[seat]
    pair = best_pair(world, seat, cards, rng)
    if world.phase == KEEP:
        return KEEP_BASE + PAIR_INDEX[pair[0]][pair[1]]
    rest = [card for card in cards if card not in pair]
    base = DISCARD_BASE if legal[0] >= DISCARD_BASE else PASS_BASE
    return base + PAIR_INDEX[rest[0]][rest[1]]


def pair_values(
    world: OracleState, seat: int, cards: Sequence[int], rng: random.Random | None = None
) -> dict[tuple[int, int], float]:
    """For each pair of ``cards`` (Oracle card ints), what its prophecies
    would pay in quick play-outs of the round (:mod:`.playout`): the points
    of each times how often it holds there, in the plain style in which the
    pair pays best."""
    return {pair: value for pair, (value, _) in pair_worth(world, seat, cards, rng).items()}


def pair_worth(
    world: OracleState, seat: int, cards: Sequence[int], rng: random.Random | None = None
) -> dict[tuple[int, int], tuple[float, str]]:
    """For each pair of ``cards``, its value (:func:`pair_values`) and the
    style of :data:`.playout.STYLES` in which it pays that much (the first
    such), from ``world`` on: before the play or during it."""
    table = compile_edition(world.game.edition)
    compiled = [table[card] for card in cards]
    by_style = hold_chances_by_style(
        world, seat, [test for test, _, _ in compiled], rng if rng is not None else random.Random(seat)
    )
    worth = [
        [points * chance for (_, points, _), chance in zip(compiled, rates, strict=True)]
        for rates in by_style
    ]
    k = len(cards)
    result = {}
    for i in range(k):
        for j in range(i + 1, k):
            sums = [row[i] + row[j] for row in worth]
            best = max(range(len(sums)), key=sums.__getitem__)
            result[cards[i], cards[j]] = (sums[best], STYLES[best])
    return result


def best_pair(
    world: OracleState, seat: int, cards: Sequence[int], rng: random.Random | None = None
) -> tuple[int, int]:
    values = pair_values(world, seat, cards, rng)
    return max(values, key=lambda pair: (values[pair], -pair[0], -pair[1]))
