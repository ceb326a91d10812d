"""Resampling Inrah-Orakel: a full state a seat cannot tell from the true one.

:func:`resample` is :meth:`InrahState.resample_from_infostate`. Earlier
rounds were shown in full by their tricks, so only the current round hides
anything: the cards the seat has not seen are dealt anew among the other
seats, keeping every card they played, the turned-up trump card and every
known void. Only the hidden hands, the round's deal in the log and its action
in the history change, on a clone. What does not depend on the rng (the pool,
the voids, where each hidden hand lies in the packed deal) is worked out once
per state and seat (:func:`_plan`) and kept on the state until it moves on.

The pool of hidden cards is in ascending order before the rng touches it, so
two truths the seat cannot tell apart give the same world from the same rng
state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from operator import mul
from typing import TYPE_CHECKING, NamedTuple, cast

from oracles.core.rand import shuffle
from oracles.games.inrah.cards import ELEMENT_OF, IS_SPECIAL
from oracles.games.inrah.constants import DEAL, DEALER, OVER, PLAY

if TYPE_CHECKING:
    from oracles.games.inrah.rules import InrahState


def resample(state: InrahState, seat: int, rng: random.Random) -> InrahState:
    """A state ``seat`` cannot tell from ``state``: the cards it has not seen
    dealt at random among the other seats, keeping every card they played,
    the turned-up trump card, and every known void."""
    world = state.clone()
    plan = _plan(state, seat)
    if plan is None:
        return world
    hidden = _draw_hidden(plan.pool, plan.need, plan.voids, rng, allowed=plan.allowed)
    if hidden is None:
        hidden = _shuffle_from(plan.pool, {s: list(state._hands[s]) for s in plan.need}, plan.voids, rng)
    hands = list(plan.dealt)
    action = plan.base
    weights = plan.weights
    for s, start in plan.starts.items():
        world._hands[s] = sorted(hidden[s])
        hand = sorted(plan.played_by[s] + hidden[s])
        hands[s] = tuple(hand)
        action += sum(map(mul, hand, weights[start : start + len(hand)]))
    world._log[state._deal_index] = (DEAL, -1, tuple(hands))
    world._history[state._deal_index] = action
    return world


def _plan(state: InrahState, seat: int) -> _Plan | None:
    """The rng-free part of resampling for ``seat`` (None: nothing is
    hidden), kept on the state until it moves on (its history only grows)."""
    key = (seat, len(state._history))
    memo = state._resample_memo
    if memo is not None and memo[0] == key:
        return cast("_Plan | None", memo[1])
    plan = None
    if state._phase not in (DEALER, DEAL, OVER) and state._deal_index >= 0:
        n = state.num_players
        dealt: tuple[tuple[int, ...], ...] = state._log[state._deal_index][2]
        played_by: list[list[int]] = [[] for _ in range(n)]
        for phase, actor, c in state._log[state._deal_index + 1 :]:
            if phase == PLAY:
                played_by[actor].append(c)
        seen = set(dealt[seat])
        for cards in played_by:
            seen.update(cards)
        if state._trump_card >= 0:
            seen.add(state._trump_card)
        size = state.game.deck_size
        pool = [c for c in range(size) if c not in seen]
        others = [s for s in range(n) if s != seat and state._hands[s]]
        weights = [size**i for i in range(sum(len(hand) for hand in dealt))]
        starts = {}
        base = 0
        position = 0
        for s, hand in enumerate(dealt):
            if s in others:
                starts[s] = position
            else:
                base += sum(map(mul, hand, weights[position : position + len(hand)]))
            position += len(hand)
        voids = state.known_voids()
        plan = _Plan(
            pool,
            {s: len(state._hands[s]) for s in others},
            voids,
            _allowed(pool, others, voids),
            dealt,
            played_by,
            starts,
            base,
            weights,
        )
    state._resample_memo = (key, plan)
    return plan


class _Plan(NamedTuple):
    """The rng-free part of resampling Inrah for one seat."""

    #: The cards the seat has not seen, ascending, and how many each other seat holds.
    pool: list[int]
    need: dict[int, int]
    voids: list[int]
    #: The cards of the pool each of those seats may hold (its voids kept).
    allowed: dict[int, list[int]]
    #: The round's deal (every seat's hand) and the cards each seat has played since.
    dealt: tuple[tuple[int, ...], ...]
    played_by: list[list[int]]
    #: Where each hidden hand starts in the packed deal, the deal packed
    #: without those hands, and the digit weights.
    starts: dict[int, int]
    base: int
    weights: list[int]


def _allowed(pool: list[int], seats: Iterable[int], voids: list[int]) -> dict[int, list[int]]:
    """For each of ``seats``, the cards of ``pool`` its known voids leave it."""
    return {s: [c for c in pool if IS_SPECIAL[c] or not voids[s] >> ELEMENT_OF[c] & 1] for s in seats}


def _draw_hidden(
    pool: list[int],
    need: dict[int, int],
    voids: list[int],
    rng: random.Random,
    attempts: int = 30,
    allowed: dict[int, list[int]] | None = None,
) -> dict[int, list[int]] | None:
    """Give each seat in ``need`` that many cards from ``pool`` at random,
    never a normal card of an element in its void mask; ``None`` if random
    greedy draws keep failing (rare: then see :func:`_shuffle_from`).
    ``allowed``: :func:`_allowed` of the same, if the caller has it."""
    if allowed is None:
        allowed = _allowed(pool, need, voids)
    order = sorted(need, key=lambda s: len(allowed[s]) - need[s])
    if all(len(allowed[s]) == len(pool) for s in need):
        # No void narrows any hand: one uniform ordered sample of the pool.
        cards = pool[:]
        shuffle(cards, rng, sum(need.values()))
        result = {}
        start = 0
        for s in order:
            result[s] = cards[start : start + need[s]]
            start += need[s]
        return result
    for _ in range(attempts):
        taken: set[int] = set()
        result = {}
        for s in order:
            free = [c for c in allowed[s] if c not in taken]
            if len(free) < need[s]:
                break
            shuffle(free, rng, need[s])
            result[s] = free[: need[s]]
            taken.update(result[s])
        else:
            return result
    return None


def _shuffle_from(
    pool: list[int], hands: dict[int, list[int]], voids: list[int], rng: random.Random
) -> dict[int, list[int]]:
    """Random swaps that keep every void, starting from a known solution
    (the true hands), so that a failed greedy draw does not hand the truth
    to a search bot."""
    owner_of: dict[int, int] = dict.fromkeys(pool, -1)
    for s, hand in hands.items():
        for c in hand:
            owner_of[c] = s
    cards = list(owner_of)

    def fits(c: int, s: int) -> bool:
        return s < 0 or IS_SPECIAL[c] or not voids[s] >> ELEMENT_OF[c] & 1

    for _ in range(40 * len(cards)):
        a, b = rng.choice(cards), rng.choice(cards)
        sa, sb = owner_of[a], owner_of[b]
        if sa != sb and fits(a, sb) and fits(b, sa):
            owner_of[a], owner_of[b] = sb, sa
    result: dict[int, list[int]] = {s: [] for s in hands}
    for c, s in owner_of.items():
        if s >= 0:
            result[s].append(c)
    return result
