"""Resampling Oracle: a full state a seat cannot tell from the true one.

:func:`resample` is :meth:`OracleState.resample_from_infostate`. Without the
draft it redraws only what the seat cannot know, directly on a clone of the
state: the other seats' unplayed cards of the current round are dealt anew
among them, and in every round the Oracle cards the seat never saw are
relabelled; the history's actions that name hidden cards (the round's
``deal``, each ``oracles`` action and the keeps) and their log entries are
rewritten to match, so the world is the state its history replays to. What
does not depend on the rng (the pools, the constraints, where each action
lies) is worked out once per state and seat and kept on the state
(:func:`_plan`), since a search resamples many times from one position. In
the draft the hidden passes are redrawn too and the history is rebuilt and
replayed (:func:`_replayed_world`).

Every pool of hidden cards is put in a canonical order before the rng
touches it, so two truths the seat cannot tell apart give the same world
from the same rng state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, cast

from oracles.core.codec import pack
from oracles.core.rand import shuffle
from oracles.games.oracle.cards import NUM_CARDS, NUM_VALUES, cards_of_mask
from oracles.games.oracle.notation import (
    DISCARD_BASE,
    KEEP_BASE,
    LOSER_KEEP,
    PAIR_INDEX,
    PAIRS,
    PASS_BASE,
    oracle_layout,
)
from oracles.games.oracle.phases import DEAL, E_DEAL, E_DEALER, E_ORACLES, E_PLAYER, OVER
from oracles.games.oracle.prophecies import NUM_ORACLE_CARDS

if TYPE_CHECKING:
    from oracles.games.oracle.rules import LoggedEvent, OracleState


def resample(state: OracleState, seat: int, rng: random.Random) -> OracleState:
    """A state ``seat`` cannot tell from this one, hidden parts redrawn.

    Playing cards: the other seats' unplayed cards of the current round
    are dealt anew among them, respecting how many each holds and the
    colours each has shown it lacks (earlier rounds' hands were played out,
    so they are known). Oracle cards without the draft: in every round,
    the cards ``seat`` never saw are dealt at random over the places they
    took (other seats' hands and keeps, the cards set aside); the cards it
    saw stay where it saw them. In the draft every round is drawn anew as
    the seat could imagine it (:meth:`_redrawn_draft`), so that the cards
    it passed on may have gone anywhere they could; a finished round ends
    with the keeps that were revealed.

    The world depends only on what ``seat`` knows and on ``rng``: two
    states with the same information state for ``seat`` give the same
    world from the same rng state. Every pool of hidden cards is put in a
    canonical (sorted) order before ``rng`` touches it, and hidden cards
    are drawn for places listed in an order the seat knows, never mapped
    from the true cards.
    """
    plan = _plan(state, seat)
    if state.game.draft:
        return _replayed_world(state, seat, plan.deal, rng)
    world = state.clone()
    # The clone carries the views' log entries of the true events; the world's
    # events are rewritten below, so its views must be made from them anew
    # (a kept entry would show another seat the true hidden cards).
    world._logs = {}
    history = world._history
    events = world._events
    if plan.deal is not None:
        deal = plan.deal
        hands, action = _redeal(deal, rng)
        for other, mask in zip(deal.others, hands, strict=True):
            world._hands[other] = mask
        history[deal.at] = action
        events[deal.event] = _with_action(events[deal.event], action)
    n = state.num_players
    weights = _oracle_weights(n).__getitem__
    for part in plan.rounds:
        drawn = part.drawn[:]
        shuffle(drawn, rng, part.draws)
        action = part.base
        for owner, start, end in part.spans:
            if owner < n:
                action += (owner - n) * sum(map(weights, drawn[start:end]))
        history[part.at] = action
        events[part.event] = _with_action(events[part.event], action)
        for at, event, actor, start in part.keeps:
            a, b = drawn[start], drawn[start + 1]
            if a > b:
                a, b = b, a
            history[at] = keep = KEEP_BASE + PAIR_INDEX[a][b]
            events[event] = _with_action(events[event], keep)
            world._kept[actor] = (a, b)
        if part.stays is not None:
            oracle_cards = world._oracle_cards
            for owner, start, end in part.spans:
                if owner < n:
                    oracle_cards[owner] = sorted(part.stays[owner] + drawn[start:end])
    return world


def _with_action(event: LoggedEvent, action: int) -> LoggedEvent:
    """``event`` naming ``action`` instead."""
    kind, actor, _, seq, facts = event
    return tuple.__new__(type(event), (kind, actor, action, seq, facts))


class _DealPlan(NamedTuple):
    """The current round's deal as far as ``seat`` cannot know it."""

    #: Indices of the round's ``deal`` in the history and in the event log.
    at: int
    event: int
    #: The other seats that hold cards and how many each holds.
    others: tuple[int, ...]
    capacity: tuple[int, ...]
    #: The unseen cards any of them may hold, ascending; and those of a
    #: colour some of them lack, ascending.
    free: list[int]
    constrained: list[int]
    #: Per colour, the indices in ``others`` of the seats that may hold it.
    eligible: list[list[int]]
    #: The ``deal`` action with every unseen card dealt to the last of
    #: ``others`` (a redeal then prices only the other seats' hands), and
    #: each card's digit weight (0 for a card not in play).
    base: int
    weights: tuple[int, ...]
    #: The unseen cards as a bit mask.
    unseen: int


class _RoundPlan(NamedTuple):
    """One round's ``oracles`` action (and keeps) as far as ``seat`` cannot know it."""

    at: int
    event: int
    #: The Oracle cards the seat never saw this round, sorted: the pool the
    #: rng lays over their places.
    drawn: list[int]
    #: The places, in an order the seat knows: ``(owner, start, end)`` for a
    #: run of places in the drawn order (owner ``n``: set aside).
    spans: list[tuple[int, int, int]]
    #: How many places to draw (the last run's cards are what is left, in
    #: any order, unless a keep starts it).
    draws: int
    #: The action with the cards the seat never saw all set aside (their
    #: digits at ``n``): a resample then prices only the places in the
    #: other seats' hands, not the larger pile set aside.
    base: int
    #: The keeps the seat has not seen: (history index, event index, actor,
    #: start of the two places of the keep in the drawn order).
    keeps: list[tuple[int, int, int, int]]
    #: If the round's dealt cards are in the state (its last round): per
    #: seat, those that stay (a revealed keep); else None.
    stays: list[list[int]] | None


class _Plan(NamedTuple):
    deal: _DealPlan | None
    rounds: list[_RoundPlan]


def _plan(state: OracleState, seat: int) -> _Plan:
    """What resampling for ``seat`` needs that does not depend on the rng,
    kept on the state until it moves on (the state's history only grows)."""
    key = (seat, len(state._history))
    memo = state._resample_memo
    if memo is not None and memo[0] == key:
        return cast(_Plan, memo[1])
    plan = _Plan(_deal_plan(state, seat), [] if state.game.draft else _round_plans(state, seat))
    state._resample_memo = (key, plan)
    return plan


@cache
def _oracle_weights(n: int) -> tuple[int, ...]:
    """The digit weight of each Oracle card in a (non-draft) ``oracles`` action."""
    return tuple((n + 1) ** card for card in range(NUM_ORACLE_CARDS))


@cache
def _deal_weights(n: int, cards_in_play: tuple[int, ...]) -> tuple[int, ...]:
    """The digit weight of each playing card in a ``deal`` action (0: not in play)."""
    weights = [0] * (max(cards_in_play) + 1)
    for index, card in enumerate(cards_in_play):
        weights[card] = n**index
    return tuple(weights)


def _deal_plan(state: OracleState, seat: int) -> _DealPlan | None:
    """The current round's deal to redraw, or None if no round is under way."""
    if state.round_number == 0 or state.phase in (OVER, DEAL):
        return None
    n = state.num_players
    void = [0] * n  # bit per colour the seat has shown it lacks
    tricks = [(leader, cards) for leader, cards, _ in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick)))
    for leader, cards in tricks:
        led = cards[0] // NUM_VALUES
        for i, card in enumerate(cards):
            if card // NUM_VALUES != led:
                void[(leader + i) % n] |= 1 << led
    hands = state._hands
    others = tuple(other for other in range(n) if other != seat and hands[other])
    eligible = [[i for i, other in enumerate(others) if not void[other] >> colour & 1] for colour in range(5)]
    unseen = state.unseen_cards(seat)
    pool = cards_of_mask(unseen)  # ascending: the same whatever the truth
    free = [card for card in pool if len(eligible[card // NUM_VALUES]) == len(others)]
    constrained = [card for card in pool if len(eligible[card // NUM_VALUES]) < len(others)]
    weights = _deal_weights(n, state.game.cards_in_play)
    at = event = -1
    for index, logged in enumerate(state._events):
        if logged.kind == E_DEAL:
            at, event = logged.seq, index
    base = state._history[at]
    last = others[-1] if others else 0
    for owner in others:
        for card in cards_of_mask(hands[owner]):
            base -= (owner - last) * weights[card]
    return _DealPlan(
        at,
        event,
        others,
        tuple(hands[other].bit_count() for other in others),
        free,
        constrained,
        eligible,
        base,
        weights,
        unseen,
    )


def _deal_hands(
    free: list[int],
    constrained: list[int],
    capacity: Sequence[int],
    eligible: list[list[int]],
    rng: random.Random,
) -> list[list[int]] | None:
    """Deal ``free`` and ``constrained`` (see :class:`_DealPlan`) to seats
    with room ``capacity`` so that each card goes to a seat eligible for
    its colour; None if no deal can. The constrained cards go first, one by
    one, each to a seat that may hold it (weighted by its room), the most
    constrained colours first; the free cards are shuffled into the room
    left. Random tries first; if they all fail, card by card with a check
    (:func:`_assign_cards_checked`). The result depends only on the cards
    (their order too), the constraints and ``rng``."""
    if not constrained:  # the common case: no seat has shown a void in these colours
        rest = free[:]
        shuffle(rest, rng, len(rest) - capacity[-1] if capacity else 0)  # the last seat takes what is left
        hands = []
        start = 0
        for room in capacity:
            hands.append(rest[start : start + room])
            start += room
        return hands if start == len(rest) else None
    draw = rng.random
    for _ in range(30):
        left = list(capacity)
        dealt: list[list[int]] = [[] for _ in capacity]
        order = constrained[:]
        if order:
            shuffle(order, rng)
            order.sort(key=lambda card: len(eligible[card // NUM_VALUES]))
        for card in order:
            seats = eligible[card // NUM_VALUES]
            room = 0
            for i in seats:
                room += left[i]
            if not room:
                break
            pick = int(draw() * room)
            for i in seats:
                if pick < left[i]:
                    break
                pick -= left[i]
            left[i] -= 1
            dealt[i].append(card)
        else:
            if sum(left) != len(free):
                return None
            rest = free[:]
            shuffle(rest, rng, len(rest) - left[-1] if left else 0)  # the last seat takes what is left
            start = 0
            for i, room in enumerate(left):
                dealt[i] += rest[start : start + room]
                start += room
            return dealt
    return _assign_cards_checked(sorted(free + constrained), list(capacity), eligible, rng)


def _redeal(plan: _DealPlan, rng: random.Random) -> tuple[list[int], int]:
    """New hands (bit masks, for ``plan.others``) and the ``deal`` action they make."""
    dealt = _deal_hands(plan.free, plan.constrained, plan.capacity, plan.eligible, rng)
    assert dealt is not None, "no deal fits what the seat knows"
    if not dealt:
        return [], plan.base
    weights = plan.weights.__getitem__
    bit = _BITS.__getitem__
    others = plan.others
    last = others[-1]
    action = plan.base
    masks = []
    taken = 0
    # The last seat holds what the others do not: its cards need no sums.
    for index in range(len(others) - 1):
        cards = dealt[index]
        action += (others[index] - last) * sum(map(weights, cards))
        mask = sum(map(bit, cards))
        masks.append(mask)
        taken |= mask
    masks.append(plan.unseen & ~taken)
    return masks, action


_BITS = tuple(1 << card for card in range(NUM_CARDS))


def _assign_cards(
    pool: list[int], seats: list[int], capacity: list[int], void: list[int], rng: random.Random
) -> list[list[int]] | None:
    """Deal ``pool`` (ascending) to ``seats`` (``capacity[i]`` cards each) so
    that no seat gets a colour it is void in, as :func:`resample` deals;
    None if no deal can."""
    eligible = [[i for i, seat in enumerate(seats) if not void[seat] >> colour & 1] for colour in range(5)]
    free = [card for card in pool if len(eligible[card // NUM_VALUES]) == len(seats)]
    constrained = [card for card in pool if len(eligible[card // NUM_VALUES]) < len(seats)]
    return _deal_hands(free, constrained, capacity, eligible, rng)


def _round_plans(state: OracleState, seat: int) -> list[_RoundPlan]:
    """Without the draft: per round, the places of the Oracle cards ``seat``
    never saw in that round, to deal them anew over.

    The places are listed in an order the seat knows: the other seats in
    seat order, each with its keep first (if it has kept and the keeps are
    not revealed yet: its two hidden cards of one role) and then the rest
    of its hand, then the cards set aside. A random order of the unseen
    cards (sorted first) is laid over them. So the world does not depend
    on which card the truth put where."""
    n = state.num_players
    found: list[tuple[int, int, list[list[int]], list[tuple[int, int, int] | None]]] = []
    for index, logged in enumerate(state._events):
        kind = logged.kind
        if kind == E_ORACLES:
            layout = oracle_layout(state.game, logged.action)
            assert layout is not None
            found.append((logged.seq, index, layout[0], [None] * n))
        elif kind == E_PLAYER and KEEP_BASE <= logged.action < LOSER_KEEP:
            found[-1][3][logged.actor] = (logged.seq, index, logged.action - KEEP_BASE)
    finished = len(state.revealed)
    weights = _oracle_weights(n)
    plans = []
    for round_index, (at, event, hands, keeps) in enumerate(found):
        hidden = round_index >= finished
        places: list[int] = []
        spans: list[tuple[int, int, int]] = []
        hidden_keeps: list[tuple[int, int, int, int]] = []
        stays: list[list[int]] = [[] for _ in range(n)]
        for other in range(n):
            if other == seat:
                continue
            hand = hands[other]
            keep = keeps[other]
            start = len(places)
            if keep is None:
                places += hand
            else:
                pair = PAIRS[keep[2]]
                if hidden:  # the keep comes first
                    hidden_keeps.append((keep[0], keep[1], other, start))
                    places += pair
                else:
                    stays[other] = list(pair)
                places += [card for card in hand if card not in pair]
            spans.append((other, start, len(places)))
        dealt = 0
        for hand in hands:
            for card in hand:
                dealt |= 1 << card
        start = len(places)
        places += [card for card in range(NUM_ORACLE_CARDS) if not dealt >> card & 1]
        spans.append((n, start, len(places)))
        base = state._history[at]
        for owner, start, end in spans:
            base -= (owner - n) * sum(weights[card] for card in places[start:end])
        last = max((start for _, start, end in spans if end > start), default=0)
        draws = last + 2 if any(start == last for _, _, _, start in hidden_keeps) else last
        in_state = round_index == state.round_number - 1
        plans.append(
            _RoundPlan(
                at, event, sorted(places), spans, draws, base, hidden_keeps, stays if in_state else None
            )
        )
    return plans


def _replayed_world(state: OracleState, seat: int, deal: _DealPlan | None, rng: random.Random) -> OracleState:
    """The draft: the history rebuilt with the current round's deal redrawn
    and every round's draft drawn anew (:func:`_redrawn_draft`), and replayed."""
    n = state.num_players
    history = state.history()
    world_history = history[:]
    if deal is not None:
        world_history[deal.at] = _redeal(deal, rng)[1]
    first_dealer = 0
    # Per round: the index of its ``oracles`` action and those of its passes and discards.
    drafts: list[tuple[int, list[int]]] = []
    for at, (kind, _actor, action) in enumerate(state.action_events()):
        if kind == E_DEALER:
            first_dealer = action
        elif kind == E_ORACLES:
            drafts.append((at, []))
        elif kind == E_PLAYER and action >= PASS_BASE:  # a pass or a discard
            drafts[-1][1].append(at)
    revealed = state.revealed
    for index, (oracles_at, draft_at) in enumerate(drafts):
        oracles, passes = _redrawn_draft(
            state,
            seat,
            rng,
            (first_dealer + index) % n,
            history[oracles_at],
            [history[i] for i in draft_at],
            revealed[index] if index < len(revealed) else None,
        )
        world_history[oracles_at] = oracles
        for at, action in zip(draft_at, passes, strict=True):
            world_history[at] = action
    return state.replayed(world_history)


def _redrawn_draft(
    state: OracleState,
    seat: int,
    rng: random.Random,
    dealer: int,
    oracles: int,
    draft: list[int],
    kept: Sequence[tuple[int, int]] | None,
) -> tuple[int, list[int]]:
    """A draft round (its ``oracles`` action and the passes and discards
    ``draft`` so far, dealt by ``dealer``) drawn anew as ``seat`` could
    imagine it. ``kept``: every seat's keep, revealed at the end of the
    round, or None while the round is under way.

    Positions count from the dealer's left neighbour (0) to the dealer
    (n - 1); ``seat`` sits at ``p``. Cards only ever move to higher
    positions, so the seats before ``p`` can be taken to pass on what
    they just received (what reached ``seat`` came off the stack) and so
    to keep the two cards they were dealt; the discards that ``seat``
    never held must have been dealt to the seats after it, and so must
    the cards those seats kept and ``seat`` never held (each to its
    keeper or a seat before it). Those seats pass at random, except that
    each passes on any card the dealer is known to discard in that cycle,
    never passes a card it is known to keep, and passes everything else
    in the last cycle. Every card ``seat`` never saw goes to a random free
    place; the order within a pair on the stack (never seen) is random.

    Only what ``seat`` knows goes in: its own cards, draws and passes,
    what it received, the discards and the revealed keeps, each pool in
    a canonical order before ``rng`` touches it.
    """
    game = state.game
    n = state.num_players
    p = (seat - dealer - 1) % n
    layout = oracle_layout(state.game, oracles)
    assert layout is not None
    dealt, true_stack = layout
    cycles = game.stack_size // 2
    own: dict[int, tuple[int, int]] = {}
    received: dict[int, tuple[int, int]] = {}
    discarded: dict[int, tuple[int, int]] = {}
    for index, action in enumerate(draft):
        cycle, position = divmod(index, n)
        pair = PAIRS[action - (DISCARD_BASE if position == n - 1 else PASS_BASE)]
        if position == p:
            own[cycle] = pair
        if position == n - 1:
            discarded[cycle] = pair
        elif position == p - 1:
            received[cycle] = pair
    if p == 0:  # the seat drew each pair: it knows them, not their order on the stack
        drawn = min(cycles, len(draft) // n + 1)
        for cycle in range(drawn):
            a, b = true_stack[2 * cycle], true_stack[2 * cycle + 1]
            received[cycle] = (a, b) if a < b else (b, a)
    stack: list[int | None] = [None] * game.stack_size
    for cycle, (a, b) in received.items():
        if rng.random() < 0.5:
            a, b = b, a
        stack[2 * cycle], stack[2 * cycle + 1] = a, b
    held_by_seat = set(dealt[seat]) | {card for card in stack if card is not None}
    discards = {card for pair in discarded.values() for card in pair}
    start: list[list[int]] = [[] for _ in range(n)]
    start[p] = list(dealt[seat])
    keeps: list[tuple[int, int]] | None = None
    if kept is None:
        later_slots = [position for position in range(p + 1, n) for _ in (0, 1)]
        rng.shuffle(later_slots)
        never_held = sorted(discards - held_by_seat)
        for card, position in zip(never_held, later_slots, strict=False):
            start[position].append(card)
        seen = held_by_seat | discards
        unseen = [card for card in range(NUM_ORACLE_CARDS) if card not in seen]
        rng.shuffle(unseen)
        fill = iter(unseen)
        for slots in start:
            while len(slots) < 2:
                slots.append(next(fill))
        for index in range(game.stack_size):
            if stack[index] is None:
                stack[index] = next(fill)
    else:
        keeps = [kept[(dealer + 1 + position) % n] for position in range(n)]
        for position in range(p):
            start[position] = list(keeps[position])
        # Free places of the seats after ``seat``, by position; each card
        # goes to a random one at its last possible position or before,
        # the most constrained first (so every placement is as likely).
        free = [position for position in range(p + 1, n) for _ in (0, 1)]
        placed = [
            (position, card)
            for position in range(p + 1, n)
            for card in keeps[position]
            if card not in held_by_seat
        ]
        placed += [(n - 1, card) for card in sorted(discards - held_by_seat)]
        for last, card in placed:
            choices = 0
            while choices < len(free) and free[choices] <= last:
                choices += 1
            start[free.pop(rng.randrange(choices))].append(card)
        assert not free
    full_stack = [card for card in stack if card is not None]
    assert len(full_stack) == game.stack_size
    holding = [list(hand) for hand in start]
    passes = []
    last_pair: tuple[int, int] = (0, 0)
    for index in range(len(draft)):
        cycle, position = divmod(index, n)
        if position == 0:
            last_pair = (full_stack[2 * cycle], full_stack[2 * cycle + 1])
            holding[0] += last_pair
        hand = holding[position]
        if position == p:
            pair = own[cycle]
        elif position < p:
            pair = last_pair
        elif position == n - 1:
            pair = discarded[cycle]
        else:
            keep = keeps[position] if keeps is not None else ()
            if keeps is not None and cycle == cycles - 1:
                forced = [card for card in hand if card not in keep]
            else:
                forced = [card for card in hand if card in discarded.get(cycle, ())]
            rest = [card for card in hand if card not in forced and card not in keep]
            rng.shuffle(rest)
            chosen = forced + rest[: 2 - len(forced)]
            pair = (min(chosen), max(chosen))
        holding[position] = [card for card in hand if card not in pair]
        if position < n - 1:
            holding[position + 1] += pair
            last_pair = pair
        base = DISCARD_BASE if position == n - 1 else PASS_BASE
        passes.append(base + PAIR_INDEX[pair[0]][pair[1]])
    by_seat = [sorted(start[(s - dealer - 1) % n]) for s in range(n)]
    values = [card for hand in by_seat for card in hand] + full_stack
    return pack(values, NUM_ORACLE_CARDS), passes


def _assign_cards_checked(
    pool: list[int], capacity: list[int], eligible: list[list[int]], rng: random.Random
) -> list[list[int]] | None:
    """As :func:`_assign_cards` (``eligible[colour]``: the indices of the
    seats that may take it), card by card in random order, each to a random
    seat (weighted by its room) that leaves the rest dealable by Hall's
    condition: no set of seats is the only one able to take more cards than
    it has room for. Slower, but it never fails when a deal exists."""
    k = len(capacity)
    masks = [sum(1 << i for i in seats) for seats in eligible]
    need = [0] * (1 << k)  # cards left, by the set of seats that may take them
    for card in pool:
        need[masks[card // NUM_VALUES]] += 1
    left = capacity[:]
    sets = range(1 << k)

    def dealable() -> bool:
        for subset in sets:
            room = sum(left[i] for i in range(k) if subset >> i & 1)
            if sum(need[m] for m in sets if not m & ~subset) > room:
                return False
        return True

    if not dealable():
        return None
    order = pool[:]
    rng.shuffle(order)
    result: list[list[int]] = [[] for _ in range(k)]
    for card in order:
        mask = masks[card // NUM_VALUES]
        need[mask] -= 1
        choices = [i for i in range(k) if mask >> i & 1 and left[i]]
        while True:  # some choice keeps the rest dealable, since all was
            i = rng.choices(choices, weights=[left[c] for c in choices])[0]
            left[i] -= 1
            if dealable():
                break
            left[i] += 1
            choices.remove(i)
        result[i].append(card)
    return result
