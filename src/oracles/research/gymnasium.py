"""Every game as a single-agent Gymnasium environment (``pip install 'oracles[research]'``).

The learner plays one seat; the other seats are bots named by spec as
everywhere in the project (``random``, ``heuristic``, ``ismcts:iterations=200``;
see :func:`oracles.bots.specs.make_bot`)::

    import numpy as np
    from oracles.research.gymnasium import OraclesEnv

    env = OraclesEnv("inrah", seat=0, opponents="heuristic", players=3, rounds=2)
    observation, info = env.reset(seed=1)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated

- ``opponents`` is one spec for every other seat or a list, one per other
  seat in seat order. Bots and chance are seeded from ``reset(seed=...)``.
- The action space is ``Discrete(num_distinct_actions())``;
  ``info["action_mask"]`` (int8) marks the legal actions. An illegal action
  changes nothing, gives ``illegal_reward`` (default -1) and
  ``info["illegal_action"] = True``.
- The observation is a float32 vector of fixed size: the information-state
  tensor of :mod:`oracles.research.encoding` (or the observation tensor with
  ``observation="observation"``).
- The reward is the change of the learner's score since its previous step
  (so the rewards add up to its final score); the episode terminates when
  the game ends. ``info["scores"]`` holds every seat's score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from oracles.bots.base import Bot, SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.game import State
from oracles.core.registry import DEFAULT_GAME, game_ids, load_game
from oracles.research.encoding import encoder_for

__all__ = ["OraclesEnv", "make_env"]


class OraclesEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        observation: str = "information_state",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if observation not in ("information_state", "observation"):
            raise ValueError("observation must be 'information_state' or 'observation'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = load_game(game, **options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"give one opponent spec, or {len(others)} (one per other seat)")
        self._specs = dict(zip(others, specs, strict=True))
        for other, spec in self._specs.items():
            make_bot(spec, other)  # fail early on a bad spec
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._encoder = encoder_for(self.game)
        self._perfect_recall = observation == "information_state"
        self._layout = (
            self._encoder.information_layout if self._perfect_recall else self._encoder.observation_layout
        )
        self._num_actions = self.game.num_distinct_actions()
        bound = self._encoder.value_bound()
        self.observation_space = spaces.Box(-bound, bound, shape=(self._layout.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self._num_actions)
        self._rng = random.Random()
        self._bots: dict[int, Bot] = {}
        self.state: State = self.game.new_initial_state()
        self._score = 0.0

    def _observation(self) -> np.ndarray:
        tensor, views = self._layout.new()
        self._encoder.encode(self.state, self.seat, self._perfect_recall, views)
        return tensor

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = 1
        info: dict[str, Any] = {"action_mask": mask, "scores": [float(x) for x in self.state.scores()]}
        if illegal:
            info["illegal_action"] = True
        return info

    def _play_others(self) -> None:
        """Chance and the bots, until the learner is to act or the game ends."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            if state.is_chance_node():
                state.apply_trusted(state.sample_chance(self._rng))
            else:
                player = state.current_player()
                state.apply_action(self._bots[player].choose(SeatInfo(state, player)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        base = int(self.np_random.integers(2**62))
        self._rng = random.Random(base)
        self._bots = {other: make_bot(spec, other, seed=base) for other, spec in self._specs.items()}
        self.state = self.game.new_initial_state()
        self._play_others()
        self._score = float(self.state.scores()[self.seat])
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if action not in self.state.legal_actions():
            return self._observation(), self.illegal_reward, False, False, self._info(illegal=True)
        self.state.apply_action(action)
        self._play_others()
        score = float(self.state.scores()[self.seat])
        reward, self._score = score - self._score, score
        return self._observation(), reward, self.state.is_terminal(), False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return " ; ".join(self.state.record()["actions"][-5:])

    def close(self) -> None:
        pass


def make_env(game: str = DEFAULT_GAME, **kwargs: Any) -> OraclesEnv:
    """``OraclesEnv(game, **kwargs)``."""
    return OraclesEnv(game, **kwargs)


#: Gymnasium ids registered on import: ``gymnasium.make("oracles/Inrah-v0", players=3)``.
ENV_IDS = {game_id: f"oracles/{game_id.capitalize()}-v0" for game_id in game_ids()}

for _game, _env_id in ENV_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(_env_id, entry_point=OraclesEnv, kwargs={"game": _game})
