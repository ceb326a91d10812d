"""Resampling in Inrah-Orakel depends on the seat's information and the
random generator only: two truths the seat cannot tell apart, resampled with
the same seed, give the same world."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracles.core.registry import game_class, load_game
from oracles.testing import decision_positions

CASES = [
    pytest.param(options, id="-".join(f"{k}={v}" for k, v in options.items()))
    for options in game_class("inrah").test_option_sets
]


@pytest.mark.parametrize("options", CASES)
def test_two_truths_the_seat_cannot_tell_apart_give_the_same_worlds(options: dict[str, Any]) -> None:
    states = decision_positions(load_game("inrah", **options), 20, seed=2)
    differing = 0
    for index, state in enumerate(states):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, random.Random(f"other:{index}"))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        differing += any(
            other.information_state_string(s) != state.information_state_string(s)
            for s in range(state.game.num_players)
            if s != seat
        )
        for k in range(3):
            mine = state.resample_from_infostate(seat, random.Random(k))
            theirs = other.resample_from_infostate(seat, random.Random(k))
            assert mine.history() == theirs.history()
    assert differing > len(states) // 2
