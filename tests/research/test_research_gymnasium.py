"""The single-agent Gymnasium environments pass Gymnasium's check_env."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
import gymnasium
import numpy as np  # the frameworks depend on numpy
from gymnasium.utils.env_checker import check_env

from oracles.core.errors import OptionError
from oracles.research.gymnasium import OraclesEnv

CASES = [
    ("oracle", "random", {"players": 3, "rounds": 1}),
    ("oracle", "heuristic", {"players": 4, "rounds": 1, "draft": True}),
    ("inrah", "heuristic", {"players": 4, "rounds": 3}),
    ("inrah", "random", {"players": 3, "rounds": 2, "variant": "altaia"}),
    ("codename", "random", {"max_turns": 20}),
    ("codename", "heuristic", {"max_turns": 20}),
]


@pytest.mark.parametrize(("game", "opponents", "options"), CASES, ids=lambda x: str(x))
def test_check_env(game: str, opponents: str, options: dict) -> None:
    check_env(OraclesEnv(game, opponents=opponents, **options), skip_render_check=True)


@pytest.mark.parametrize(("game", "opponents", "options"), CASES, ids=lambda x: str(x))
def test_episode_rewards_add_up(game: str, opponents: str, options: dict) -> None:
    env = OraclesEnv(game, seat=1, opponents=opponents, **options)
    observation, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total == info["scores"][1]


def test_illegal_action_changes_nothing() -> None:
    env = OraclesEnv("inrah", players=3, rounds=1)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.history()
    _, reward, terminated, _, info = env.step(illegal)
    assert env.state.history() == before and reward == -1.0 and not terminated and info["illegal_action"]


def test_registered_ids_and_opponent_lists() -> None:
    env = gymnasium.make("oracles/Oracle-v0", players=3, rounds=1, opponents=["random", "heuristic"])
    observation, _ = env.reset(seed=0)
    assert observation.shape == env.observation_space.shape
    with pytest.raises(ValueError):
        OraclesEnv("oracle", players=3, opponents=["random"])
    with pytest.raises(OptionError):
        OraclesEnv("oracle", players=3, opponents="nobody")
