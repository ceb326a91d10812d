"""Resampling in Codename: the world drawn for a seat depends on the seat's
information and the random generator only (so a seeded search bot decides
the same on two truths the seat cannot tell apart), and honours every
'this card is not X' the seat knows."""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest
from codename_scenarios import cells_of, play, start

from oracles.core.errors import IllegalActionError
from oracles.core.registry import load_game
from oracles.games.codename.actions import GUESS_ACTIONS, symbol_of
from oracles.games.codename.policy import choose
from oracles.games.codename.resample import _matching, _places, _plan
from oracles.games.codename.rules import CodenameState
from oracles.testing import decision_positions


def decision_states(count: int, seed: int) -> list[CodenameState]:
    states = decision_positions(load_game("codename"), count, seed)
    assert all(isinstance(state, CodenameState) for state in states)
    return cast(list[CodenameState], states)


def situation(world: CodenameState) -> tuple[object, ...]:
    """Everything about ``world`` now: every pile's symbols in order, who
    knows what, lives and the pending tasks (not how it came about: the
    opponent's hidden choices may have moved other cards in the past)."""
    piles = tuple(
        tuple(symbol_of(c) if c >= 0 else -1 for c in pile[owner])
        for pile in (world._code, world._field, world._deck, world._discard, world._aside)
        for owner in range(2)
    )
    # A hand is a set of cards: its order means nothing.
    hands = tuple(tuple(sorted(symbol_of(c) for c in world._hand[owner])) for owner in range(2))
    return (piles, hands, world._fknow, world._cknow, world._cnot, world._up, world._life, world._tasks)


def test_two_truths_the_seat_cannot_tell_apart_give_the_same_worlds() -> None:
    differing = 0
    states = decision_states(40, seed=3)
    for index, state in enumerate(states):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, random.Random(f"other:{index}"))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        differing += other.information_state_string(1 - seat) != state.information_state_string(1 - seat)
        for k in range(3):
            mine = state.resample_from_infostate(seat, random.Random(k))
            theirs = other.resample_from_infostate(seat, random.Random(k))
            assert situation(mine) == situation(theirs)
    assert differing > len(states) // 2


def test_worlds_still_vary_with_the_generator() -> None:
    state = decision_states(1, seed=4)[0]
    seat = state.current_player()
    worlds = {tuple(state.resample_from_infostate(seat, random.Random(k)).history()) for k in range(10)}
    assert len(worlds) > 5


def test_matching_honours_what_cards_are_not() -> None:
    # Cards 10, 11, 12 get symbols {0, 1, 2}; 10 is not 0 or 1, 11 is not 0:
    # the only consistent labelling is 10->2, 11->1, 12->0.
    forbidden = {10: 0b011, 11: 0b001}
    for seed in range(10):
        assert _matching([10, 11, 12], [0, 1, 2], forbidden, random.Random(seed)) == [2, 1, 0]


def test_matching_refuses_contradictions() -> None:
    with pytest.raises(AssertionError, match="contradicts"):
        _matching([1, 2], [0, 0], {1: 0b1}, random.Random(0))


GUESSES = frozenset(GUESS_ACTIONS)
#: The fields that hold card ids (compared by symbol and place) and the caches.
ID_FIELDS = (
    "_field",
    "_code",
    "_hand",
    "_deck",
    "_discard",
    "_aside",
    "_seen",
    "_seen_at",
    "_nots",
    "_recipes",
    "_logs",
)


def canonical(state: CodenameState) -> tuple[object, ...]:
    """Everything about ``state`` but which id of a symbol is where: every
    field, with card ids replaced by their symbols (piles, recipes, the
    log's secrets) or by where the card lies (what each seat knows a card
    is not), and every view and knowledge snapshot. A hand is a set: its
    order means nothing (a replay may take another card of the same symbol
    from it), so a card in hand lies at its symbol; so is a discard pile. Which cards each seat
    has seen is left out: where equal cards were shuffled together or one
    was taken from a hand, a replay (taking the first card of each symbol)
    follows other ids than the truth did."""
    place = _places(state)
    for owner in range(2):
        for card in state._hand[owner]:
            place[card] = (owner, 2, -1, symbol_of(card))
    rest = {k: v for k, v in vars(state).items() if k not in (*ID_FIELDS, "_resample_memo")}

    def symbols(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        return tuple(symbol_of(c) if c >= 0 else -1 for c in cards)

    piles = [symbols(getattr(state, name)[owner]) for name in ID_FIELDS[:6] for owner in range(2)]
    piles[4:6] = [tuple(sorted(pile)) for pile in piles[4:6]]
    # A discard pile's order means nothing to the rules either (a reshuffle
    # lists its new order, a take names a symbol), and a hand thrown on it
    # (a square strike) lies there in the hand's order.
    piles[8:10] = [tuple(sorted(pile)) for pile in piles[8:10]]
    nots = [[(place[c], s) for c, s in facts] for facts in state._nots]
    recipes = [None if r is None else (r[0], symbols(r[1])) for r in state._recipes]
    logs = [(e.public, e.secret, e.knowers, e.form, symbols(e.cards)) for e in state._logs]
    views = [state.view(viewer) for viewer in (None, 0, 1)]
    known = [state.knowledge(seat) for seat in (0, 1)]
    return (
        state.history(),
        rest,
        piles,
        nots,
        recipes,
        logs,
        views,
        known,
        state.legal_actions(),
        state.current_player(),
    )


def replayed(world: CodenameState) -> CodenameState:
    state = world.game.new_initial_state()
    for action in world.history():
        state.apply_action(action)
    assert isinstance(state, CodenameState)
    return state


def test_a_world_is_the_state_its_history_replays_to() -> None:
    """The world is renamed on a clone, not replayed: it must still be what
    replaying its history gives (up to which id of a symbol is where), for
    either seat's resample, and it must honour every 'this card is not X'
    the seat knows."""
    honoured = 0
    for index, state in enumerate(decision_states(30, seed=6)):
        for seat in (0, 1):
            world = state.resample_from_infostate(seat, random.Random(index))
            assert canonical(world) == canonical(replayed(world))
            for card, symbol in world._nots[seat]:
                assert symbol_of(card) != symbol
                honoured += 1
    assert honoured > 0


def test_resample_at_every_step_of_heuristic_games() -> None:
    """At every step of a few games (the heuristic policy against itself,
    which plays long games, unlike random guesses): a world for one seat or
    the other (a fresh rng state each time) shows it the same view, is the
    state its history replays to, and plays on to the end, also where a
    shuffle that sent seen cards away was drawn again."""
    game = load_game("codename", max_turns=40)
    rng = random.Random(9)
    steps = 0
    redraws: Counter[str] = Counter()
    for _ in range(2):
        state = game.new_initial_state()
        assert isinstance(state, CodenameState)
        while True:
            seat = len(state.history()) % 2
            world = state.resample_from_infostate(seat, random.Random(rng.random()))
            assert world.view(seat) == state.view(seat)
            assert world._seen[seat] == state._seen[seat]  # what the seat saw keeps its ids
            redrawn = _plan(state, seat).shuffles
            kinds = {e.public["seq"]: e.public["kind"] for e in state._logs}
            redraws.update(kinds[index] for index, _, _ in redrawn)
            if not redrawn:
                # (A redrawn shuffle may give the opponent's sightings before
                # and after it to one card: the count may then drop.)
                assert world._seen[1 - seat].bit_count() == state._seen[1 - seat].bit_count()
            assert canonical(world) == canonical(replayed(world))
            if state.is_terminal():
                break
            while not world.is_terminal():
                if world.is_chance_node():
                    world.apply_action(world.sample_chance(rng))
                else:
                    legal = world.legal_actions()
                    world.apply_action(rng.choice([a for a in legal if a not in GUESSES] or legal))
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(choose(state, state.current_player(), rng))
            steps += 1
    assert steps > 100
    # Seen cards were sent away by both kinds of shuffle, so both were drawn again.
    assert redraws["scramble"] > 0 and redraws["reshuffle"] > 0


def test_an_unknown_code_slot_takes_every_symbol_it_may_hold() -> None:
    """Over many worlds, each of the opponent's code slots the seat has not
    seen shows every symbol it may hold (one left unseen in that deck, not
    excluded), and never one it is known not to be."""
    checked = 0
    for state in decision_states(12, seed=11):
        seat = state.current_player()
        opp = 1 - seat
        if len(state._code[opp]) < 5:
            continue
        unseen_symbols = {
            symbol_of(c) for c in range(opp * 50, opp * 50 + 50) if not state._seen[seat] >> c & 1
        }
        slots = [slot for slot in range(5) if not state._cknow[opp][slot] & (1 << seat)]
        shown: dict[int, set[int]] = {slot: set() for slot in slots}
        for k in range(150):
            world = state.resample_from_infostate(seat, random.Random(k))
            for slot in slots:
                shown[slot].add(symbol_of(world._code[opp][slot]))
        for slot in slots:
            excluded = {s for s in range(5) if state._cnot[opp][slot] >> s & 1}
            assert shown[slot] == unseen_symbols - excluded
            checked += 1
    assert checked > 0


def scrambled(order: str) -> CodenameState:
    """Seat 1 peeks its a1 (a star) and c3 (a square); seat 0's wave strike
    on column a picks c3 and the five cards are scrambled into ``order``
    (a1 a2 a3 a4 c3): seat 1 knows which symbols lie there, not where."""
    state = start(fields=(cells_of("W", "a1", "a2", "a3"), {}), first=1)
    play(state, "peek a1 c3", "end", "reveal a1 a2 a3", "respond pass", "pick c3")
    state.apply_string(f"scramble {order}")
    return state


def test_a_seen_card_scrambled_away_is_redrawn_like_an_unseen_one() -> None:
    """Two truths that differ only in where the scramble sent the star seat 1
    had peeked look the same to seat 1, so they give the same worlds."""
    first = scrambled("star wave cross square square")
    second = scrambled("wave star cross square square")
    assert first.information_state_string(1) == second.information_state_string(1)
    assert symbol_of(first._field[1][0]) != symbol_of(second._field[1][0])
    for k in range(5):
        mine = first.resample_from_infostate(1, random.Random(k))
        theirs = second.resample_from_infostate(1, random.Random(k))
        assert situation(mine) == situation(theirs)
        assert canonical(mine) == canonical(replayed(mine))


def test_seen_cards_scrambled_away_take_every_symbol_their_cells_may_hold() -> None:
    """The cells seat 1 had peeked (a1, c3) no longer keep their cards in its
    worlds: after the scramble each of them may hold any of the symbols."""
    state = scrambled("star wave cross square square")
    shown: dict[int, set[int]] = {0: set(), 10: set()}  # a1, c3
    for k in range(60):
        world = state.resample_from_infostate(1, random.Random(k))
        assert world.view(1) == state.view(1)
        for cell, symbols in shown.items():
            symbols.add(symbol_of(world._field[1][cell]))
    assert shown[0] == shown[10] == set(range(5))


def test_truths_differing_in_where_a_reshuffle_sent_seen_cards_give_the_same_worlds() -> None:
    """In heuristic games, wherever a reshuffle sent cards a seat had seen
    where it did not see them again: the truth with two of those places
    exchanged (the rest of the game replayed) looks the same to the seat
    and gives the same worlds."""
    game = load_game("codename", max_turns=40)
    rng = random.Random(5)
    compared = 0
    for _ in range(2):
        state = game.new_initial_state()
        assert isinstance(state, CodenameState)
        while not state.is_terminal() and compared < 6:
            seat = len(state.history()) % 2
            for index, cards, positions in _plan(state, seat).shuffles:
                if not any(e.public["seq"] == index and e.public["kind"] == "reshuffle" for e in state._logs):
                    continue
                decks = {card for deck in state._deck for card in deck}
                positions = [k for k in positions if cards[k] in decks]  # still in the deck
                symbols = [symbol_of(cards[k]) for k in positions]
                pair = next(
                    ((a, b) for a in range(len(symbols)) for b in range(a) if symbols[a] != symbols[b]), None
                )
                if pair is None:
                    continue
                other = exchanged(state, index, positions[pair[0]], positions[pair[1]])
                if other is None or other.information_state_string(seat) != state.information_state_string(
                    seat
                ):
                    continue
                for k in range(2):
                    mine = state.resample_from_infostate(seat, random.Random(k))
                    theirs = other.resample_from_infostate(seat, random.Random(k))
                    assert situation(mine) == situation(theirs)
                compared += 1
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(choose(state, state.current_player(), rng))
    assert compared > 0


def exchanged(state: CodenameState, index: int, a: int, b: int) -> CodenameState | None:
    """``state``'s game with positions ``a`` and ``b`` of the chance outcome
    at ``index`` exchanged (None if the rest of the game is then illegal)."""
    other = state.game.new_initial_state()
    assert isinstance(other, CodenameState)
    for at, action in enumerate(state.history()):
        if at == index:
            text = other.action_to_string(action).split()
            head = 2  # "reshuffle <seat>"
            text[head + a], text[head + b] = text[head + b], text[head + a]
            action = other.string_to_action(" ".join(text))
        try:
            other.apply_action(action)
        except IllegalActionError:
            return None
    swapped = [symbol_of(card) for card in state._recipes[index][1]]  # type: ignore[index]
    swapped[a], swapped[b] = swapped[b], swapped[a]
    assert [symbol_of(card) for card in other._recipes[index][1]] == swapped  # type: ignore[index]
    return other
