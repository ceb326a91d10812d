"""Every game as a PettingZoo AEC environment (``pip install 'oracles[research]'``).

::

    from oracles.research.pettingzoo import env

    environment = env("oracle", players=3, rounds=1)   # or oracle_env(...), inrah_env(...), codename_env(...)
    environment.reset(seed=1)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        action = None if termination or truncation else environment.action_space(agent).sample(
            observation["action_mask"])
        environment.step(action)

- Agents are ``player_0`` .. ``player_{n-1}`` (the seats); the agent selected
  is the seat to act. Chance (dealing, shuffling) happens inside the
  environment, drawn with ``random.Random`` seeded by ``reset(seed=...)``
  (a reset without a seed goes on with the same generator).
- Observations are dicts: ``"observation"`` is a float32 vector of fixed size
  (the information-state tensor of :mod:`oracles.research.encoding` by
  default, or the observation tensor with ``observation="observation"``),
  ``"action_mask"`` an int8 vector over ``Discrete(num_distinct_actions())``,
  all zero for a seat that is not to act.
- Rewards are the changes of each seat's score (``State.scores()``), so an
  agent's rewards add up to its final score. The game ends with every agent
  terminated; none is ever truncated (every game has a bounded length).
- ``render()`` (``render_mode="ansi"``) returns the last five events of the
  public view as sentences (what any spectator sees: no hand, no hidden
  choice); ``step`` prints nothing.
- ``step(action)`` takes an integer the action mask allows (a Python or
  NumPy integer); anything else raises
  :class:`oracles.core.errors.IllegalActionError`.
- ``environment.game_state`` is the underlying :class:`oracles.core.game.State`
  (``state()`` stays PettingZoo's method, which this environment leaves
  unimplemented).
"""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from oracles.core.errors import IllegalActionError
from oracles.core.game import State
from oracles.core.registry import DEFAULT_GAME, game_ids, game_part, load_game
from oracles.research.encoding import encoder_for

__all__ = ["OraclesAECEnv", "env"]


class OraclesAECEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment for one game with its options fixed."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "oracles_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        *,
        observation: str = "information_state",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if observation not in ("information_state", "observation"):
            raise ValueError("observation must be 'information_state' or 'observation'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = load_game(game, **options)
        self.render_mode = render_mode
        self._encoder = encoder_for(self.game)
        self._perfect_recall = observation == "information_state"
        layout = (
            self._encoder.information_layout if self._perfect_recall else self._encoder.observation_layout
        )
        self._layout = layout
        self._num_actions = self.game.num_distinct_actions()
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.agents = list(self.possible_agents)
        bound = self._encoder.value_bound()
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-bound, bound, shape=(layout.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
            }
        )
        self._observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.game_state: State = self.game.new_initial_state()
        self._reset_bookkeeping()

    # ----------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # ----------------------------------------------------------- running
    def _reset_bookkeeping(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = [0.0] * self.game.num_players
        self.agent_selection = self.agents[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds chance (``options`` is accepted
        and ignored: a game's options are fixed when the environment is made)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        self._reset_bookkeeping()
        self._advance()

    def _advance(self) -> None:
        """Play chance, hand out score changes, select the next agent."""
        state = self.game_state
        while state.is_chance_node():
            state.apply_trusted(state.sample_chance(self._rng))
        scores = [float(x) for x in state.scores()]
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                self.rewards[agent] = scores[seat] - self._scores[seat]
        self._scores = scores
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool | float) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"an action is an integer the action mask allows, not {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game_state.apply_action(int(action))
        self._advance()
        self._accumulate_rewards()

    # -------------------------------------------------------- observing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        tensor, views = self._layout.new()
        self._encoder.encode(self.game_state, seat, self._perfect_recall, views)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": tensor, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        # The public view's story: a render is watched, and hands stay hidden.
        narrate = game_part(self.game.id, "narrate")
        log = self.game_state.view(None)["log"][-5:]
        return "\n".join(str(narrate.narrate(event, None, self.possible_agents, "en")) for event in log)

    def close(self) -> None:
        pass


def env(game: str = DEFAULT_GAME, **kwargs: Any) -> OraclesAECEnv:
    """The AEC environment of ``game`` with its options (and ``observation``, ``render_mode``)."""
    return OraclesAECEnv(game, **kwargs)


def __getattr__(name: str) -> Any:
    """``<game id>_env``: a shortcut for ``env("<game id>", ...)`` for every
    registered game (``oracle_env``, ``inrah_env``, ``codename_env``...)."""
    game_id = name.removesuffix("_env")
    if name.endswith("_env") and game_id in game_ids():
        return functools.partial(OraclesAECEnv, game_id)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
