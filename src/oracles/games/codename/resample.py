"""Resampling Codename: Oracle: a full state a seat cannot tell from the true one.

:func:`resample` is :meth:`CodenameState.resample_from_infostate`. It
relabels every card whose place the seat does not know, directly on a clone,
by renaming card ids (the physical course of the game is kept); reshuffles
and scrambles that sent a card the seat saw where it no longer follows it are
drawn again. What does not depend on the rng (the unseen cards by place, the
shuffles to redraw, the records to rename) is worked out once per state and
seat (:func:`_plan`) and kept on the state until it moves on.

What each seat has seen, and what it knows a card is not, is tracked by the
position itself (:mod:`.table`) as the game is played; the seat's views and
integer snapshot are in :mod:`.views` and :mod:`.knowledge`.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple, cast

from oracles.core.rand import shuffle
from oracles.games.codename.actions import DECK_SIZE, symbol_of
from oracles.games.codename.table import LogEntry, listing, seat_bit

if TYPE_CHECKING:
    from oracles.games.codename.rules import CodenameState


def resample(state: CodenameState, seat: int, rng: random.Random) -> CodenameState:
    """Relabel every card whose place ``seat`` does not know (a random
    permutation of their symbols within each deck, honouring what it
    learnt a card is not), directly on a clone.

    The physical course of the game is kept, so every observation of the
    seat is unchanged, while codes, decks, unknown field cards and the
    opponent's hidden choices vary. Relabelling is done by renaming card
    ids: each unseen card takes the id of an unseen card of its new
    symbol, in every pile, in the seats' knowledge, in the recipes of the
    history (whose action ints are packed anew) and in the secrets of the
    log the seat did not see. The world is the state its history replays
    to, up to which id of a symbol is where (immaterial to the rules).

    A card the seat saw keeps its id, but once a reshuffle or a scramble
    sent it where the seat no longer follows it, that chance outcome is
    drawn again among the places the seat did not watch afterwards: from
    that shuffle on, the cards sent there are renamed by a random
    permutation (so the seen card lies at any of them, whatever the truth).
    """
    plan = _plan(state, seat)
    world = state.clone()
    other = 1 - seat
    # truth id -> world id before the relabelling, per shuffle redrawn.
    moved: list[int] | None = None
    steps: list[list[int]] = []
    other_at = state._seen_at[other]
    if plan.shuffles:
        moved = list(range(2 * DECK_SIZE))
        other_at = list(other_at)
        for index, cards, positions in plan.shuffles:
            olds = [moved[cards[k]] for k in positions]
            news = sorted(olds)
            shuffle(news, rng)
            # The opponent's sightings after the shuffle follow the place.
            after = [other_at[old] if other_at[old] >= index else -1 for old in olds]
            before = [other_at[new] if other_at[new] < index else -1 for new in news]
            for new, seen_after, seen_before in zip(news, after, before, strict=True):
                other_at[new] = seen_after if seen_after >= 0 else seen_before
            for k, new in zip(positions, news, strict=True):
                moved[cards[k]] = new
            steps.append(list(moved))
    rename = list(range(2 * DECK_SIZE + 1))
    rename[-1] = -1  # an empty field cell stays empty
    seen = state._seen[seat]
    for deck, (pool, ids, forbidden) in enumerate(plan.decks):
        if moved is not None:
            pool = [moved[card] for card in plan.movable[deck]]
            pool = [card for card in pool if not seen >> card & 1]
            forbidden = [plan.forbidden.get(card, 0) for card in pool]
            if not any(forbidden):
                forbidden = []
        drawn = ids[:]
        shuffle(drawn, rng)
        if forbidden:
            drawn = _respect(drawn, forbidden, rng)
        for card, new in zip(pool, drawn, strict=True):
            rename[card] = new
    if moved is None:
        final = rename
    else:
        final = [rename[moved[card]] for card in range(2 * DECK_SIZE)]
        final.append(-1)
    new_id = final.__getitem__
    world._field = [list(map(new_id, cards)) for cards in state._field]
    world._code = [list(map(new_id, cards)) for cards in state._code]
    world._hand = [list(map(new_id, cards)) for cards in state._hand]
    world._deck = [list(map(new_id, cards)) for cards in state._deck]
    world._discard = [list(map(new_id, cards)) for cards in state._discard]
    world._aside = [list(map(new_id, cards)) for cards in state._aside]
    world._nots = [[(rename[card], symbol) for card, symbol in facts] for facts in state._nots]
    # The seat's own sightings keep their ids; the opponent's are renamed.
    world_at = world._seen_at[other]
    redraw = plan.redraw
    if moved is None or redraw is None:
        # Only the cards the seat never saw are renamed (among themselves).
        kept, hidden = plan.other_seen
        for card in hidden:
            world_at[card] = -1
        for card in hidden:
            world_at[rename[card]] = other_at[card]
        world._seen[other] = kept + sum(map(_BITS.__getitem__, map(new_id, hidden)))
        _rename_records(world, plan.recipes, plan.logs, rename)
        return world
    for card in redraw.touched:
        world_at[card] = -1
    for card in redraw.touched:
        world_at[rename[card]] = other_at[card]
    world._seen[other] = (state._seen[other] & ~redraw.touched_mask) + sum(
        _BITS[card] for card in redraw.touched if world_at[card] >= 0
    )
    _rename_records(world, redraw.recipes, redraw.logs, rename)
    maps = [[rename[card] for card in step] for step in steps]
    for index, step in redraw.late_recipes:
        _rename_recipe(world, index, maps[step])
    for index, step in redraw.late_logs:
        _rename_log(world, index, maps[step])
    return world


def _rename_records(world: CodenameState, recipes: list[int], logs: list[int], rename: list[int]) -> None:
    """Rename the ids of these history recipes and log secrets of ``world``."""
    for index in recipes:
        _rename_recipe(world, index, rename)
    for index in logs:
        _rename_log(world, index, rename)


def _rename_recipe(world: CodenameState, index: int, rename: list[int]) -> None:
    """Rename the ids of history entry ``index``'s recipe, and pack its action anew."""
    recipe = world._recipes[index]
    assert recipe is not None
    offset, cards = recipe
    cards = tuple(map(rename.__getitem__, cards))
    world._recipes[index] = (offset, cards)
    world._history[index] = offset + _packed_symbols(cards)


def _rename_log(world: CodenameState, index: int, rename: list[int]) -> None:
    entry = world._logs[index]
    cards = tuple(map(rename.__getitem__, entry.cards))
    (key,) = entry.secret
    world._logs[index] = LogEntry(
        entry.public, {key: listing(cards, entry.form)}, entry.knowers, cards, entry.form
    )


def _plan(state: CodenameState, seat: int) -> _Plan:
    """What resampling for ``seat`` needs that does not depend on the rng,
    kept on the state until it moves on (its history only grows).

    Per deck, the cards ``seat`` never saw in the order of where they lie
    now, and their ids sorted (so their symbols sorted) before the
    shuffle: so the world depends on what ``seat`` knows and on the rng
    only, never on which unseen card is which (two truths ``seat``
    cannot tell apart give the same world).

    And the reshuffles and scrambles to draw again: those that sent a
    card the seat had seen (or knew not to be some symbol) where it did
    not watch it again. For each, the
    places of its outcome (positions in its recipe) that the seat did not
    watch afterwards (no sighting, no 'not X' fact about the card sent
    there): the same places whatever the truth.
    """
    key = (seat, len(state._history))
    memo = state._resample_memo
    if memo is not None and memo[0] == key:
        return cast(_Plan, memo[1])
    seen = state._seen[seat]
    forbidden: dict[int, int] = {}
    watched = list(state._seen_at[seat])
    for (card, symbol), when in zip(state._nots[seat], state._nots_at[seat], strict=True):
        forbidden[card] = forbidden.get(card, 0) | 1 << symbol
        watched[card] = max(watched[card], when)
    for owner in range(2):  # face up: everyone watches it (safety)
        for card, up in zip(state._field[owner], state._up[owner], strict=True):
            if up and card >= 0:
                watched[card] = len(state._history)
    shuffles: list[tuple[int, tuple[int, ...], list[int]]] = []
    candidates = 0
    for entry in state._logs:
        if entry.public["kind"] not in _SHUFFLES:
            continue
        index = entry.public["seq"]
        recipe = state._recipes[index]
        assert recipe is not None
        cards = recipe[1]
        positions = [k for k, card in enumerate(cards) if watched[card] < index]
        if any(watched[cards[k]] >= 0 for k in positions):
            shuffles.append((index, cards, positions))
            for k in positions:
                candidates |= 1 << cards[k]
    place = _places(state)
    decks = []
    movable = []
    unseen = 0
    for deck in range(2):
        cards = range(deck * DECK_SIZE, (deck + 1) * DECK_SIZE)
        pool = sorted((c for c in cards if not seen >> c & 1), key=place.__getitem__)
        for card in pool:
            unseen |= 1 << card
        masks = [forbidden.get(card, 0) for card in pool]
        decks.append((pool, sorted(pool), masks if any(masks) else []))
        if shuffles:
            movable.append(sorted((c for c in cards if (candidates | ~seen) >> c & 1), key=place.__getitem__))
    recipes = [
        index
        for index, recipe in enumerate(state._recipes)
        if recipe is not None and any(unseen >> card & 1 for card in recipe[1])
    ]
    bit = seat_bit(seat)
    logs = [
        index
        for index, entry in enumerate(state._logs)
        if not entry.knowers & bit and any(unseen >> card & 1 for card in entry.cards)
    ]
    other = state._seen[1 - seat]
    hidden = other & unseen
    other_seen = (other & ~unseen, [c for c in range(2 * DECK_SIZE) if hidden >> c & 1])
    redraw = None
    if shuffles:
        # The records from the first shuffle redrawn on are renamed by
        # the permutations drawn so far (step: how many, less one).
        first = shuffles[0][0]
        starts = [index for index, _, _ in shuffles]
        touched = candidates | unseen
        redraw = _Redraw(
            [index for index in recipes if index < first],
            [index for index in logs if state._logs[index].public["seq"] < first],
            [
                (index, bisect_right(starts, index) - 1)
                for index in range(first, len(state._recipes))
                if (recipe := state._recipes[index]) is not None
                and any(touched >> card & 1 for card in recipe[1])
            ],
            [
                (index, bisect_right(starts, entry.public["seq"]) - 1)
                for index, entry in enumerate(state._logs)
                if entry.public["seq"] >= first
                and not entry.knowers & bit
                and any(touched >> card & 1 for card in entry.cards)
            ],
            [c for c in range(2 * DECK_SIZE) if touched >> c & 1],
            touched,
        )
    plan = _Plan(decks, recipes, logs, shuffles, movable, forbidden, other_seen, redraw)
    state._resample_memo = (key, plan)
    return plan


def _places(state: CodenameState) -> list[tuple[int, ...]]:
    """Per card id, where it lies now (owner, pile, position): a key that
    names a place, not a card."""
    place: list[tuple[int, ...]] = [(9, card) for card in range(2 * DECK_SIZE)]
    for owner in range(2):
        piles = (state._code[owner], state._field[owner], state._hand[owner], state._deck[owner])
        for pile, cards in enumerate((*piles, state._discard[owner], state._aside[owner])):
            for position, card in enumerate(cards):
                if card >= 0:
                    place[card] = (owner, pile, position)
    return place


#: The chance events after which a seat may lose track of cards it saw.
_SHUFFLES = frozenset(("reshuffle", "scramble"))


class _Plan(NamedTuple):
    """The rng-free part of resampling for one seat (see :func:`_plan`)."""

    #: Per deck: the unseen cards by place, their ids sorted, and per place
    #: the symbols the seat knows its card is not (bitmask; empty if none).
    decks: list[tuple[list[int], list[int], list[int]]]
    #: Indices of the history entries whose recipe names an unseen card.
    recipes: list[int]
    #: Indices of the log entries whose secret, unseen by the seat, names an unseen card.
    logs: list[int]
    #: The shuffles drawn again: (history index, its recipe's ids, the
    #: positions in it the seat did not watch afterwards), oldest first.
    shuffles: list[tuple[int, tuple[int, ...], list[int]]]
    #: Per deck (when there are shuffles to redraw): the cards that may move
    #: (unseen, or sent by a redrawn shuffle), by place.
    movable: list[list[int]]
    #: Per card, the symbols the seat knows it is not (bitmask).
    forbidden: dict[int, int]
    #: What the opponent has seen: the cards the seat has seen too (they
    #: keep their ids; bitmask) and the others (renamed; used without shuffles to redraw).
    other_seen: tuple[int, list[int]]
    #: What renaming needs when shuffles are redrawn (else None).
    redraw: _Redraw | None


class _Redraw(NamedTuple):
    """The records to rename when shuffles are redrawn (see :func:`resample`)."""

    #: Before the first shuffle redrawn: the recipes and log entries naming an unseen card.
    recipes: list[int]
    logs: list[int]
    #: From it on: (index, how many shuffles redrawn by then, less one) of the
    #: recipes and of the log entries unseen by the seat that name a card that may move.
    late_recipes: list[tuple[int, int]]
    late_logs: list[tuple[int, int]]
    #: The cards that may be renamed (unseen, or sent by a shuffle redrawn), as a list and a bitmask.
    touched: list[int]
    touched_mask: int


_BITS = tuple(1 << card for card in range(2 * DECK_SIZE))
_SYMBOL_DIGIT = tuple(str(symbol_of(card)) for card in range(2 * DECK_SIZE))


def _packed_symbols(cards: tuple[int, ...]) -> int:
    """``pack`` of the cards' symbols in radix 5 (first card least significant)."""
    if not cards:
        return 0
    return int("".join(map(_SYMBOL_DIGIT.__getitem__, reversed(cards))), 5)


def _respect(drawn: list[int], forbidden: list[int], rng: random.Random) -> list[int]:
    """``drawn`` (the ids laid over a pool's places) with swaps so that no
    place gets a symbol the seat knows its card is not (``forbidden``, per
    place): each place that breaks one swaps with a place drawn uniformly
    among those it can swap with (random probes, then a scan in random
    order); a full matching if none can (:func:`_matching`)."""
    size = len(drawn)
    draw = rng.random
    for i, mask in enumerate(forbidden):
        if not mask >> symbol_of(drawn[i]) & 1:
            continue
        mine = symbol_of(drawn[i])
        for _ in range(2 * size):
            j = int(draw() * size)
            if not mask >> symbol_of(drawn[j]) & 1 and not forbidden[j] >> mine & 1:
                break
        else:
            order = list(range(size))
            shuffle(order, rng)
            for j in order:
                if not mask >> symbol_of(drawn[j]) & 1 and not forbidden[j] >> mine & 1:
                    break
            else:
                ids = sorted(drawn)
                symbols = _matching(
                    list(range(size)), [symbol_of(card) for card in ids], dict(enumerate(forbidden)), rng
                )
                by_symbol: dict[int, list[int]] = {}
                for card in reversed(ids):
                    by_symbol.setdefault(symbol_of(card), []).append(card)
                return [by_symbol[symbol].pop() for symbol in symbols]
        drawn[i], drawn[j] = drawn[j], drawn[i]
    return drawn


def _matching(
    pool: list[int], symbols: list[int], forbidden: dict[int, int], rng: random.Random
) -> list[int]:
    """Symbols for the cards of ``pool`` (one each, from the multiset
    ``symbols``) that no card is known not to be: a bipartite matching by
    augmenting paths, cards in random order. The true labels are one such
    matching, so there always is one; this is the rare fallback when the
    swap repair of a random draw gets stuck."""
    owner: list[int] = [-1] * len(symbols)  # symbol slot -> index in pool

    def place(i: int, visited: set[int]) -> bool:
        for slot in range(len(symbols)):
            if slot in visited or forbidden.get(pool[i], 0) >> symbols[slot] & 1:
                continue
            visited.add(slot)
            if owner[slot] < 0 or place(owner[slot], visited):
                owner[slot] = i
                return True
        return False

    order = list(range(len(pool)))
    rng.shuffle(order)
    for i in order:
        if not place(i, set()):
            raise AssertionError("no consistent labelling: the seat's knowledge contradicts itself")
    drawn = [0] * len(pool)
    for slot, i in enumerate(owner):
        drawn[i] = symbols[slot]
    return drawn
