"""The tensors: fixed sizes, bounded values, and information-state tensors
that tell apart the information states met in random play."""

from __future__ import annotations

import random

import pytest

from oracles.core.registry import load_game

np = pytest.importorskip("numpy")

import oracles  # noqa: E402
from oracles.research.encoding import encoder_for  # noqa: E402

CASES = [
    ("oracle", {"players": 3, "rounds": 2}),
    ("oracle", {"players": 4, "draft": True, "rounds": 1}),
    ("inrah", {"players": 3, "rounds": 3}),
    ("inrah", {"players": 4, "variant": "altaia", "rounds": 2}),
    ("codename", {"max_turns": 20}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=lambda x: str(x))
def test_tensors_are_fixed_bounded_and_separate_information_states(game_id: str, options: dict) -> None:
    game = oracles.load_game(game_id, **options)
    encoder = encoder_for(game)
    bound = encoder.value_bound()
    strings_of: dict[bytes, set[str]] = {}
    for seed in range(4):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.current_player()
            info = encoder.information_state(state, seat)
            observation = encoder.observation(state, seat)
            assert info.shape == (encoder.information_layout.size,)
            assert observation.shape == (encoder.observation_layout.size,)
            assert np.all(np.abs(info) <= bound) and np.all(np.abs(observation) <= bound)
            # The information-state tensor begins with the observation tensor.
            np.testing.assert_array_equal(info[: observation.size], observation)
            strings_of.setdefault(info.tobytes(), set()).add(state.information_state_string(seat))
            state.apply_action(rng.choice(state.legal_actions()))
    assert all(len(strings) == 1 for strings in strings_of.values())


def test_a_game_without_an_encoder_part_has_none(toy_registered: str) -> None:
    with pytest.raises(ValueError, match="no research encoder"):
        encoder_for(load_game(toy_registered))
