"""The PettingZoo AEC environments pass PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
import numpy as np  # the frameworks depend on numpy
from pettingzoo.test import api_test, seed_test

from oracles.research.pettingzoo import codename_env, env, inrah_env, oracle_env

OPTION_SETS = [
    ("oracle", {"players": 3, "rounds": 1}),
    ("oracle", {"players": 4, "draft": True, "rounds": 1, "observation": "observation"}),
    ("inrah", {"players": 4, "rounds": 3}),
    ("inrah", {"players": 5, "variant": "altaia", "rounds": 2}),
    ("codename", {"max_turns": 20}),
]


@pytest.mark.parametrize(("game", "options"), OPTION_SETS, ids=lambda x: str(x))
def test_api_test(game: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Observation is not a NumPy array": it is a dict with a mask
        api_test(env(game, **options), num_cycles=1000)


@pytest.mark.parametrize(("game", "options"), OPTION_SETS, ids=lambda x: str(x))
def test_seed_test(game: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(game, **options), num_cycles=200)


def test_rewards_add_up_to_scores() -> None:
    environment = inrah_env(players=3, rounds=2)
    environment.reset(seed=5)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert environment.game_state.is_terminal()
    assert list(totals.values()) == environment.game_state.scores()


def test_per_game_constructors() -> None:
    assert oracle_env(players=3).game.id == "oracle"
    assert codename_env().possible_agents == ["player_0", "player_1"]


def test_render_tells_the_public_story_and_step_takes_integers_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``render()`` told the last actions in notation, the deal with every
    hand among them, and ``step`` printed it; ``step(None)`` at a live turn
    and ``step(36.9)`` were a TypeError and action 36."""
    from oracles.core.errors import IllegalActionError

    environment = inrah_env(players=3, rounds=2, render_mode="ansi")
    environment.reset(seed=3)
    hands = [environment.game_state.view(seat)["hand"] for seat in range(3)]
    told = environment.render()
    assert told and "deals" in told.lower()
    assert not any(card in told for hand in hands for card in hand), told
    agent = environment.agent_selection
    legal = np.flatnonzero(environment.observe(agent)["action_mask"])
    for bad in (None, float(legal[0]) + 0.9, True, "bid 0"):
        with pytest.raises(IllegalActionError):
            environment.step(bad)
    environment.step(np.int64(legal[0]))  # a NumPy integer is an integer
    assert environment.agent_selection != agent and capsys.readouterr().out == ""
    # PettingZoo's state() is a method of the environment, not the game.
    assert callable(environment.state)
