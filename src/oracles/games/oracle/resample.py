"""Resampling Oracle: a full state a seat cannot tell from the true one.

:func:`resample` is :meth:`OracleState.resample_from_infostate`. It rebuilds
the history with the hidden parts drawn anew (the deal of the cards not yet
seen, the Oracle cards the seat never saw, the draft's hidden passes) and
replays it, so the world is a legal game. Every pool of hidden cards is put
in a canonical order before the rng touches it, so two truths the seat cannot
tell apart give the same world from the same rng state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from oracles.core.codec import pack
from oracles.games.oracle.cards import NUM_CARDS, NUM_VALUES, cards_of_mask
from oracles.games.oracle.notation import (
    DISCARD_BASE,
    KEEP_BASE,
    LOSER_KEEP,
    PAIR_INDEX,
    PAIRS,
    PASS_BASE,
    oracle_layout,
    pack_oracle_owners,
)
from oracles.games.oracle.phases import DEAL, E_DEAL, E_DEALER, E_ORACLES, E_PLAYER, OVER
from oracles.games.oracle.prophecies import NUM_ORACLE_CARDS

if TYPE_CHECKING:
    from oracles.games.oracle.rules import OracleGame, OracleState


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
    game = state.game
    n = state.num_players
    history = state.history()
    unseen_maps = None if game.draft else _oracle_relabelling(state, seat, rng)
    new_deal = _resampled_deal(state, seat, rng)
    world_history: list[int] = []
    round_index = -1
    first_dealer = 0
    # Draft: per round, the index of its ``oracles`` action and those of its passes and discards.
    drafts: list[tuple[int, list[int]]] = []
    for kind, _actor, action in state.action_events():
        if kind == E_DEALER:
            first_dealer = action
        elif kind == E_DEAL:
            round_index += 1
            if new_deal is not None and round_index == state.round_number - 1:
                action = new_deal
        elif kind == E_ORACLES:
            if unseen_maps is None:
                drafts.append((len(world_history), []))
            else:
                action = _relabel_oracles(game, action, unseen_maps[round_index])
        elif kind == E_PLAYER and action >= PASS_BASE:  # draft: a pass or a discard
            drafts[-1][1].append(len(world_history))
        elif kind == E_PLAYER and KEEP_BASE <= action < LOSER_KEEP:
            assert unseen_maps is not None  # keeps only without the draft
            mapping = unseen_maps[round_index]
            a, b = PAIRS[action - KEEP_BASE]
            action = KEEP_BASE + PAIR_INDEX[mapping[a]][mapping[b]]
        world_history.append(action)
    assert len(world_history) == len(history)
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


def _oracle_relabelling(state: OracleState, seat: int, rng: random.Random) -> list[list[int]]:
    """Without the draft: per round, a permutation of the Oracle cards
    that deals the cards ``seat`` never saw in that round anew over the
    places they took and leaves the cards it saw where they are.

    The places are listed in an order the seat knows: the other seats in
    seat order, each with its keep first (if it has kept and the keeps are
    not revealed yet: its two hidden cards of one role) and then the rest
    of its hand, then the cards set aside. A random order of the unseen
    cards (sorted first) is laid over them; the permutation maps the true
    card at each place to the card drawn for it. So the world does not
    depend on which card the truth put where."""
    n = state.num_players
    rounds: list[tuple[list[list[int]], list[tuple[int, int] | None]]] = []
    for kind, actor, action in state.action_events():
        if kind == E_ORACLES:
            layout = oracle_layout(state.game, action)
            assert layout is not None
            rounds.append((layout[0], [None] * n))
        elif kind == E_PLAYER and KEEP_BASE <= action < LOSER_KEEP:
            rounds[-1][1][actor] = PAIRS[action - KEEP_BASE]
    finished = len(state.revealed)
    maps = []
    for round_index, (hands, keeps) in enumerate(rounds):
        places: list[int] = []
        for other in range(n):
            if other == seat:
                continue
            hand = hands[other]
            keep = keeps[other]
            if keep is None:
                places += hand
            else:
                if round_index >= finished:  # hidden: the keep comes first
                    places += keep
                places += [card for card in hand if card not in keep]
        dealt = 0
        for hand in hands:
            for card in hand:
                dealt |= 1 << card
        places += [card for card in range(NUM_ORACLE_CARDS) if not dealt >> card & 1]
        drawn = sorted(places)
        rng.shuffle(drawn)
        mapping = list(range(NUM_ORACLE_CARDS))
        for old, new in zip(places, drawn, strict=True):
            mapping[old] = new
        maps.append(mapping)
    return maps


def _relabel_oracles(game: OracleGame, action: int, mapping: list[int]) -> int:
    """A (non-draft) ``oracles`` action with every card renamed by ``mapping``."""
    layout = oracle_layout(game, action)
    assert layout is not None
    return pack_oracle_owners(game, [[mapping[card] for card in hand] for hand in layout[0]])


def _resampled_deal(state: OracleState, seat: int, rng: random.Random) -> int | None:
    """The current round's deal with the other seats' unplayed cards
    redrawn (from their pool in card order), or None if no round is under way."""
    if state.round_number == 0 or state.phase in (OVER, DEAL):
        return None
    n = state.num_players
    played = [0] * n
    void = [0] * n  # bit per colour the seat has shown it lacks
    tricks = [(leader, cards) for leader, cards, _ in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick)))
    for leader, cards in tricks:
        led = cards[0] // NUM_VALUES
        for i, card in enumerate(cards):
            player = (leader + i) % n
            played[player] |= 1 << card
            if card // NUM_VALUES != led:
                void[player] |= 1 << led
    others = [other for other in range(n) if other != seat]
    pool = cards_of_mask(state.unseen_cards(seat))  # ascending: the same whatever the truth
    assignment = _assign_cards(pool, others, [state.hands[o].bit_count() for o in others], void, rng)
    if assignment is None:
        return None
    hands = list(state.hands)
    for other, dealt in zip(others, assignment, strict=True):
        mask = 0
        for card in dealt:
            mask |= 1 << card
        hands[other] = mask
    owner = [0] * NUM_CARDS
    for player in range(n):
        for card in cards_of_mask(hands[player] | played[player]):
            owner[card] = player
    return pack((owner[card] for card in state.game.cards_in_play), n)


def _assign_cards(
    pool: list[int], seats: list[int], capacity: list[int], void: list[int], rng: random.Random
) -> list[list[int]] | None:
    """Deal ``pool`` to ``seats`` (``capacity[i]`` cards each) so that no seat
    gets a colour it is void in; None if no deal can. Random tries first;
    if they all fail, card by card with a check (:func:`_assign_cards_checked`).
    The result depends only on ``pool`` (its order too), the constraints and
    ``rng``."""
    eligible = [[i for i, seat in enumerate(seats) if not void[seat] >> colour & 1] for colour in range(5)]
    for _ in range(30):
        order = pool[:]
        rng.shuffle(order)
        # Place the most constrained colours first so that few tries fail.
        order.sort(key=lambda card: len(eligible[card // NUM_VALUES]))
        left = capacity[:]
        result: list[list[int]] = [[] for _ in seats]
        for card in order:
            choices = [i for i in eligible[card // NUM_VALUES] if left[i]]
            if not choices:
                break
            i = rng.choices(choices, weights=[left[c] for c in choices])[0]
            left[i] -= 1
            result[i].append(card)
        else:
            return result
    return _assign_cards_checked(pool, capacity, eligible, rng)


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
