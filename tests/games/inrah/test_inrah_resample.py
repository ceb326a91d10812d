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


def fields(state: Any) -> dict[str, Any]:
    """Every field of ``state`` but its cache (what the rules know)."""
    return {k: v for k, v in vars(state).items() if k != "_resample_memo"}


@pytest.mark.parametrize("options", CASES)
def test_resample_at_every_step_is_the_state_its_history_replays_to(options: dict[str, Any]) -> None:
    """At every step of a few random games, a world for one seat or another
    (drawn on a clone, the plan kept from one call to the next) shows that
    seat the same view and is exactly the state its history replays to."""
    game = load_game("inrah", **options)
    rng = random.Random(4)
    changed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            seat = len(state.history()) % game.num_players
            for _ in range(2):  # the second call reuses the plan
                world = state.resample_from_infostate(seat, random.Random(rng.random()))
                assert world.view(seat) == state.view(seat)
                again = game.new_initial_state()
                for action in world.history():
                    again.apply_action(action)
                assert fields(world) == fields(again)
                changed += world.history() != state.history()
            if state.is_terminal():
                break
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )
    assert changed > 0
