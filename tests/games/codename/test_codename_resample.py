"""Resampling in Codename: the world drawn for a seat depends on the seat's
information and the random generator only (so a seeded search bot decides
the same on two truths the seat cannot tell apart), and honours every
'this card is not X' the seat knows."""

from __future__ import annotations

import random
from typing import cast

import pytest

from oracles.core.registry import load_game
from oracles.games.codename.actions import symbol_of
from oracles.games.codename.knowledge import _matching
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
