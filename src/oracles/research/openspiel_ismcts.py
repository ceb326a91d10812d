"""OpenSpiel's ISMCTS as a bot of this package: the baseline of the
head-to-head rows of ``benchmarks/strength.py``.

``openspiel_ismcts:simulations=N`` plays with
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (UCT selection, one random
rollout per leaf: ``mcts.RandomRolloutEvaluator``), searching the position
through the ``python_oracles_*`` adapter of :mod:`oracles.research.openspiel`.
Like every bot it never sees the true state: it is handed a world drawn from
its seat's information state, which OpenSpiel's search then resamples again
at every simulation (``resample_from_infostate``), so the hidden cards of
that world never count. Rewards are the adapter's returns, the game's scores.

Needs the ``research`` extra (``pip install 'oracles[research]'``); naming the
bot without it is a one-line error from :func:`oracles.bots.specs.make_bot`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from oracles.bots.base import Bot, SeatInfo
from oracles.core.game import State
from oracles.research.openspiel import short_name


def to_openspiel(state: State) -> Any:
    """The same position as a state of the pyspiel adapter (its history
    replayed, a deal drawn step by step)."""
    game_id = state.game.id
    # A game for a fixed number of players takes no "players" parameter there.
    fixed = state.game.min_players == state.game.max_players
    params = {k: v for k, v in state.game.options.items() if not (k == "players" and fixed)}
    result = pyspiel.load_game(short_name(game_id), params).new_initial_state()
    for action in state.history():
        inner = result.core_state
        if inner.is_chance_node() and inner.chance_draws() is not None:
            for item in inner.chance_draws_of(action):
                result.apply_action(item)
        else:
            result.apply_action(action)
    return result


class OpenSpielISMCTSBot(Bot):
    """OpenSpiel's Python ISMCTS with a fixed number of simulations a move.

    Parameters: ``simulations`` (default 100; the benchmark calibrates it to
    a time per move), ``c`` (UCT exploration, default 2.0 as in OpenSpiel's
    examples), ``rollouts`` (random rollouts per leaf, default 1).
    """

    name: ClassVar[str] = "openspiel_ismcts"
    params: ClassVar[dict[str, type]] = {"simulations": int, "c": float, "rollouts": int}
    param_ranges: ClassVar[dict[str, tuple[float, float]]] = {
        "simulations": (1, 10_000_000),
        "c": (0.0, 100.0),
        "rollouts": (1, 1000),
    }

    simulations: int = 100
    c: float = 2.0
    rollouts: int = 1

    def __init__(self, seat: int, seed: int | str = 0, **params: Any) -> None:
        super().__init__(seat, seed, **params)
        self._random = np.random.RandomState(self.rng.getrandbits(32))

    def choose(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        position = to_openspiel(info.sample_world(self.rng))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=self._random)
        bot = ismcts.ISMCTSBot(
            position.get_game(), evaluator, self.c, self.simulations, random_state=self._random
        )
        # OpenSpiel resamples each simulation's world with a fresh
        # pyspiel.UniformProbabilitySampler, seeded from the clock, so that
        # one deal replayed gave another game: the bot's own random source
        # makes it reproducible, as every bot of this package is.
        uniform = self._random.uniform
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, uniform))
        action = int(bot.step(position))
        if action not in legal:  # the world shares the seat's legal moves; guard anyway
            raise RuntimeError(f"OpenSpiel ISMCTS chose {action}, not a legal move of seat {self.seat}")
        return action
