"""Heuristic policy for ``inrah``: bid your expected winners, then play to hit the bid.

The policy reads only :meth:`InrahState.knowledge` of its seat (own hand, trump,
bids or oracles, the trick, cards played, tricks taken), never another hand.

**Card strength.** ``_Table.strengths`` estimates the chance that a card
takes a trick later in the round, from the cards the seat has not seen: a seer
is (almost) sure, a mage never wins, a normal card loses a little for every
unseen higher card of its element and every unseen seer, and an off-trump card
also for the chance that an opponent void in its element trumps it. In a
round without a trump (the option ``trump=false``, or a deal of the whole
deck) a normal card wins only in a trick its element leads: its chance is
scaled so that the normal cards' chances, this hand's and the opponents'
expected ones, add up to the tricks the seers leave.
Opponents' cards are a random share of the unseen cards; the constants were
fitted to which cards took tricks in self-play.

**Predictions.** The trick count is modelled as a sum of independent
Bernoulli variables, one per card, and the policy picks the legal bid (or
Altaïa oracle) with the best expected points under that distribution (so the
hook rule is respected by choosing among legal bids only). Altaïa: Hesinde on
the seat itself; Efferd and Phex on the (seat, kind, count) with the best
expected points, other seats' counts coming from their own Hesinde when they
made one, else from a binomial share of the tricks the seat does not expect to
take itself. (A "misses" oracle costs 10 per trick of difference when right,
so a far-off count is not free: Phex usually names 0 for a seat expected to
take few tricks, or a count just beside a likely one.)

**Play.** The seat has a *target* (its bid; Purpurberg: adjusted when the
partner's bid is out of reach; Altaïa: its oracles on itself) and, per seat, a
*desire* (+1: that seat should take more tricks, -1: fewer). Each legal card
``c`` gets ``w(c)``, the chance that it wins this trick (exact for the last
player; 0 when it does not beat the cards so far), and the policy picks the
card whose play leaves ``taken + w(c) + strength of the rest of the hand``
closest to the target, so it wins cheaply while it needs tricks (the lowest
card that wins, keeping strong cards that would win later anyway) and ducks
with its most dangerous losing card when it has enough. Mages are kept for
ducking and shed when tricks are still needed.
"""

from __future__ import annotations

import random
from math import comb

from oracles.core.game import State
from oracles.games.inrah.cards import (
    CARDS_PER_ELEMENT,
    ELEMENT_OF,
    FULL_DECK,
    MAGE,
    MAX_ELEMENTS,
    PRINCE,
    RANK_OF,
    SEER,
)
from oracles.games.inrah.constants import ALTAIA, PURPURBERG
from oracles.games.inrah.rules import InrahState, SeatKnowledge
from oracles.games.inrah.scoring import partner
from oracles.games.inrah.tricks import NO_LED, next_led, trick_winner

_BIT: tuple[int, ...] = tuple(1 << c for c in range(FULL_DECK))
#: The bits of one element's cards in a set of cards.
_ELEMENT_MASK = (1 << CARDS_PER_ELEMENT) - 1
#: Rank bits of the normal cards (ace..knight = bits 0..8, prince = bit 11).
_NORMAL = 0x1FF | (1 << PRINCE)
#: ``_HIGHER[rank]``: rank bits of the normal cards that beat ``rank`` in its element.
_HIGHER: tuple[int, ...] = tuple(
    0 if r == PRINCE else (((0x1FF >> (r + 1)) << (r + 1)) | (1 << PRINCE)) if r < SEER else 0
    for r in range(CARDS_PER_ELEMENT)
)
#: Order of the normal ranks by strength (ace 0 .. knight 8, prince 9).
_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, 9)
_SEERS = sum(1 << (CARDS_PER_ELEMENT * e + SEER) for e in range(MAX_ELEMENTS))
# The three constants below were fitted (least squares, two rounds) to which
# cards took tricks in heuristic self-play; duplicate games against the first
# fit gained about 25 points per 4-player game.
#: How much an off-trump card's chance is discounted: it wins only when its
#: element is led.
_SIDE = 0.7
#: A higher card in an opponent's hand is often spent elsewhere, so each
#: unseen beater counts for much less than "an opponent holds it" suggests.
_SHARE = 0.2
_HIGH_WEIGHT = 1.0
#: The share of opponents able to beat a card who actually do.
_BEAT = 0.85


class _Table:
    """The unseen cards from one seat's point of view."""

    __slots__ = (
        "deal_share",
        "led_share",
        "nopp",
        "opp_cards",
        "q",
        "seers",
        "tricks_left",
        "trump",
        "unseen",
        "unseen_n",
    )

    def __init__(self, k: SeatKnowledge, deck_size: int) -> None:
        seen = sum(map(_BIT.__getitem__, k.hand)) + sum(map(_BIT.__getitem__, k.played))
        seen += sum(map(_BIT.__getitem__, k.trick))
        if k.trump_card >= 0:
            seen |= _BIT[k.trump_card]
        unseen = ((1 << deck_size) - 1) & ~seen
        self.unseen = unseen
        self.unseen_n = unseen.bit_count()
        self.opp_cards = sum(k.hand_sizes) - len(k.hand)
        self.nopp = len(k.hand_sizes) - 1
        self.q = min(self.opp_cards / self.unseen_n, 1.0) if self.unseen_n else 0.0
        self.deal_share = self.opp_cards / self.nopp if self.nopp else 0.0
        self.seers = (unseen & _SEERS).bit_count()
        self.trump = k.trump
        self.tricks_left = len(k.hand)
        self.led_share: float | None = None

    def _plain(self, c: int) -> float:
        """A normal card's chance before its element's share of the leads:
        each unseen card above it (and each unseen seer) may beat it."""
        em = (self.unseen >> (CARDS_PER_ELEMENT * ELEMENT_OF[c])) & _ELEMENT_MASK
        beaters = _HIGH_WEIGHT * (em & _HIGHER[RANK_OF[c]]).bit_count() + self.seers
        return float((1.0 - _SHARE * self.q) ** beaters)

    def _led_share(self, hand: tuple[int, ...]) -> float:
        """Without a trump a normal card wins only in a trick its element
        leads, and every trick is won by one card: the share is what makes
        the normal cards' chances, this hand's and the opponents' expected
        ones, add up to the tricks that the seers leave them. (The trump
        games' fixed ``_SIDE`` overrated them about twofold, more so in short
        rounds: bids summed to well over the cards dealt.)"""
        share = self.led_share
        if share is None:
            normal = [c for c in hand if RANK_OF[c] not in (SEER, MAGE)]
            own = sum(map(self._plain, normal))
            others = 0.0
            unseen = self.unseen
            while unseen:
                low = unseen & -unseen
                c = low.bit_length() - 1
                unseen ^= low
                if RANK_OF[c] not in (SEER, MAGE):
                    others += self._plain(c)
            seers = sum(RANK_OF[c] == SEER for c in hand) + self.q * self.seers
            weight = own + self.q * others
            left = max(self.tricks_left - seers, 0.0)
            share = self.led_share = min(left / weight, 1.0) if weight > 0 else 1.0
        return share

    def strengths(self, hand: tuple[int, ...]) -> list[float]:
        """For each card of ``hand``, the chance that it takes a trick later
        in this round."""
        q = self.q
        seers = self.seers
        base = 1.0 - _SHARE * q
        unseen = self.unseen
        trump = self.trump
        side: dict[int, float] = {}
        out: list[float] = []
        for c in hand:
            r = RANK_OF[c]
            if r == SEER:
                out.append(1.0 - 0.1 * (1.0 - (1.0 - q) ** seers))
                continue
            if r == MAGE:
                out.append(0.0)
                continue
            e = ELEMENT_OF[c]
            em = (unseen >> (CARDS_PER_ELEMENT * e)) & _ELEMENT_MASK
            p = base ** (_HIGH_WEIGHT * (em & _HIGHER[r]).bit_count() + seers)
            if trump < 0:
                p *= self._led_share(hand)
            elif trump != e:
                f = side.get(e)
                if f is None:
                    f = _SIDE
                    t = ((unseen >> (CARDS_PER_ELEMENT * trump)) & _NORMAL).bit_count()
                    if t:
                        u, h = self.unseen_n, self.deal_share
                        void = (1.0 - (em & _NORMAL).bit_count() / u) ** h
                        f *= (1.0 - void * (1.0 - (1.0 - t / u) ** h)) ** self.nopp
                    side[e] = f
                p *= f
            out.append(p)
        return out

    def hold(self, c: int, led_before: int, h: int, later: int) -> float:
        """The chance that ``c``, now winning the trick, stays the winner when
        ``later`` seats with ``h`` cards each play after it."""
        r = RANK_OF[c]
        if r == SEER:
            return 1.0
        u = self.unseen_n
        if r == MAGE:
            return 0.05
        if not u:
            return 1.0
        e = ELEMENT_OF[c]
        led = next_led(led_before, c)
        trump = self.trump
        led_mask = (self.unseen >> (CARDS_PER_ELEMENT * led)) & _ELEMENT_MASK
        if e == led:
            direct = self.seers + (led_mask & _HIGHER[r]).bit_count()
            over = (
                ((self.unseen >> (CARDS_PER_ELEMENT * trump)) & _NORMAL).bit_count() if 0 <= trump != e else 0
            )
        else:  # a trump on another element
            direct = self.seers
            over = ((self.unseen >> (CARDS_PER_ELEMENT * trump)) & _HIGHER[r]).bit_count()
        keep = (1.0 - direct / u) ** h
        if over:
            m = (led_mask & _NORMAL).bit_count()
            keep *= 1.0 - (1.0 - m / u) ** h * (1.0 - (1.0 - over / u) ** h)
        return (1.0 - _BEAT * (1.0 - keep)) ** later


def _distribution(ps: list[float]) -> list[float]:
    """Poisson-binomial: the chance of each number of successes."""
    dist = [1.0]
    for p in ps:
        q = 1.0 - p
        dist = [a * q + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    return dist


def _deviations(dist: list[float]) -> list[float]:
    """``E|k - T|`` for every ``k`` in ``0 .. len(dist) - 1``, in O(r)."""
    mean = 0.0
    for t, p in enumerate(dist):
        mean += t * p
    below = 0.0  # P(T <= k)
    below_t = 0.0  # E[T; T <= k]
    out: list[float] = []
    for k, p in enumerate(dist):
        below += p
        below_t += k * p
        out.append(k * below - below_t + (mean - below_t) - k * (1.0 - below))
    return out


def _makes_values(dist: list[float]) -> list[float]:
    """Expected points of "exactly k" (a bid, Hesinde, Efferd makes) for every k."""
    return [
        p * (20 + 10 * k) - 10.0 * off for k, (p, off) in enumerate(zip(dist, _deviations(dist), strict=True))
    ]


def _misses_values(dist: list[float]) -> list[float]:
    """Expected points of "not k" (Phex, Efferd misses) for every k."""
    return [
        -20.0 * k * p - 10.0 * off for k, (p, off) in enumerate(zip(dist, _deviations(dist), strict=True))
    ]


def _best_bid(legal: list[int], base: int, dist: list[float]) -> int:
    """The legal bid with the highest expected points: exact pays 20 + 10·b,
    a miss costs 10 per trick of difference."""
    value = _makes_values(dist)
    return max(legal, key=lambda a: value[a - base])


def _binomial(r: int, mean: float) -> list[float]:
    if not r:
        return [1.0]
    p = min(max(mean / r, 0.03), 0.97)
    return [comb(r, t) * p**t * (1.0 - p) ** (r - t) for t in range(r + 1)]


def _peaked(r: int, k: int, mean: float) -> list[float]:
    """A seat that predicted ``k`` for itself: half the mass on ``k``."""
    dist = [0.5 * x for x in _binomial(r, mean)]
    dist[k] += 0.5
    return dist


def choose(world: State, seat: int, rng: random.Random) -> int:
    """The action for ``seat`` in ``world``, reading only what ``seat`` may know."""
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    assert isinstance(world, InrahState)
    k = world.knowledge(seat)
    game = world.game
    if k.phase == "play":
        return _play(k, legal, game.deck_size, game.variant)
    table = _Table(k, game.deck_size)
    mine = _distribution(table.strengths(k.hand))
    if k.phase == "bid":
        return _best_bid(legal, game.bid_base, mine)
    return _oracle(k, legal, game.oracle_base, game.oracle_block, game.rounds, mine)


# ------------------------------------------------------------------ Altaïa
def _oracle(k: SeatKnowledge, legal: list[int], base: int, block: int, rounds: int, mine: list[float]) -> int:
    n = len(k.hand_sizes)
    r = k.round
    me = k.seat
    my_mean = sum(t * p for t, p in enumerate(mine))
    other_mean = max(r - my_mean, 0.0) / (n - 1)
    dists: dict[int, list[float]] = {me: mine}

    def dist_of(x: int) -> list[float]:
        if x not in dists:
            own = [kk for kind, target, kk in k.oracles[x] if kind == 0 and target == x]
            dists[x] = _peaked(r, own[0], other_mean) if own else _binomial(r, other_mean)
        return dists[x]

    decoded = [(a, *divmod(a - base, block)) for a in legal]
    # Hesinde goes on the seat itself: it steers its own tricks best.
    self_only = k.phase == "hesinde" and any(rest // (rounds + 1) == me for _, _, rest in decoded)
    values: dict[tuple[int, bool], list[float]] = {}
    best, best_value = legal[0], -1e9
    for a, kind, rest in decoded:
        target, kk = divmod(rest, rounds + 1)
        if self_only and target != me:
            continue
        makes = kind in (0, 1)
        table = values.get((target, makes))
        if table is None:
            dist = dist_of(target)
            table = values[target, makes] = _makes_values(dist) if makes else _misses_values(dist)
        if table[kk] > best_value:
            best, best_value = a, table[kk]
    return best


# -------------------------------------------------------------------- play
def _aims(k: SeatKnowledge, variant: str, table: _Table) -> tuple[float | None, list[float]]:
    """The seat's target tricks this round (``None``: no preference) and its
    desire per seat (+ more tricks for that seat, - fewer)."""
    n = len(k.hand_sizes)
    me = k.seat
    desire = [0.0] * n
    if variant == ALTAIA:
        target: float | None = None
        for kind, x, kk in k.oracles[me]:
            taken = k.taken[x]
            if x == me:
                if kind in (0, 1):
                    target = kk
                elif target is None:
                    projected = taken + sum(table.strengths(k.hand))
                    if round(projected) == kk:
                        target = kk + 1 if kk + 1 <= taken + len(k.hand) else kk - 1
            elif kind in (0, 1):
                desire[x] += 1.0 if taken < kk else -1.0
            elif taken == kk:
                desire[x] += 0.5
            elif taken == kk - 1:
                desire[x] -= 0.5
        return target, desire
    target = k.bids[me]
    if variant == PURPURBERG:
        mate = partner(me, n)
        pbid, ptaken = k.bids[mate], k.taken[mate]
        prest = k.hand_sizes[mate]
        desire[mate] = 1.0 if ptaken < pbid else -1.0
        if not ptaken <= pbid <= ptaken + prest:
            final = min(max(pbid, ptaken), ptaken + prest)
            target = min(max(target + pbid - final, k.taken[me]), k.taken[me] + len(k.hand))
    return target, desire


def _play(k: SeatKnowledge, legal: list[int], deck_size: int, variant: str) -> int:
    table = _Table(k, deck_size)
    target, desire = _aims(k, variant, table)
    me = k.seat
    n = len(k.hand_sizes)
    trick = k.trick
    pos = len(trick)
    trump = k.trump
    hand = k.hand
    strength = dict(zip(hand, table.strengths(hand), strict=True))
    total = sum(strength.values())
    need = None if target is None else target - k.taken[me]
    if pos:
        leader = k.leader
        current = (leader + trick_winner(trick, trump)[0]) % n
    else:
        current = -1
    # Everybody after this seat in the trick holds as many cards as it does.
    later = n - 1 - pos
    h = len(hand)
    led = k.led if pos else NO_LED
    best, best_value = legal[0], -1e9
    for c in legal:
        position, _ = trick_winner((*trick, c), trump)
        if position != pos:
            w = 0.0
        elif not later:
            w = 1.0
        else:
            w = table.hold(c, led, h, later)
        s = strength[c]
        value = 0.0
        if need is not None:
            left = need - w
            value = -abs(left - (total - s))
            rank = RANK_OF[c]
            if rank == MAGE:
                value += 0.08 if left > 0.5 else -0.08
            elif rank == SEER:
                if w > 0.5:
                    value -= 0.01  # a seer wins any time: keep it while cheaper wins are as good
            else:
                # Ties: shed the higher card when ducking, spend the lower one when winning.
                value += 0.0001 * _VALUE[rank] * (1.0 if left <= 0.5 else -1.0)
        if current >= 0 and desire[current]:
            value += 0.3 * desire[current] * (1.0 - w)
        if value > best_value:
            best, best_value = c, value
    return best
