"""Heuristic bots: one hand-written policy per game, one bot name.

A policy is a function ``policy(world, seat, rng) -> action`` that decides
for ``seat`` reading only what that seat may know (its hand, the table, the
public history). The bot hands it a *world* resampled from the seat's
information state, never the true state, so even a policy that looked at
another seat's cards would see invented ones: peeking is impossible by
construction. ISMCTS rollouts call the same policies on their own worlds.

Policies live in ``oracles.bots.policies.<game>`` and are registered by
dotted path in ``POLICIES``; a game without one falls back to random play.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

from oracles.bots.base import Bot, SeatInfo
from oracles.core.game import State

Policy = Callable[[State, int, random.Random], int]

#: game id -> "module:function" of its heuristic policy
POLICIES: dict[str, str] = {
    "oracle": "oracles.bots.policies.oracle:choose",
    "inrah": "oracles.bots.policies.inrah:choose",
    "codename": "oracles.bots.policies.codename:choose",
}

#: game id -> "module:function" of a pruning function ``(world, seat) ->
#: actions``: the few legal actions worth searching (policy's choice first),
#: for games whose legal moves are too many for a search tree (Codename has
#: 3,125 guesses a turn). Like policies, it reads only what ``seat`` may know.
CANDIDATES: dict[str, str] = {
    "codename": "oracles.bots.policies.codename:candidates",
}

#: game id -> module of a position evaluator for search bots that stop their
#: rollouts early: ``win_chances(world) -> list[float]`` (each seat's chance
#: of winning from ``world``) and ``turn(world) -> int`` (the turn being
#: played, so that a rollout can stop a given number of turns on).
EVALUATORS: dict[str, str] = {
    "codename": "oracles.bots.policies.codename_value",
}

Pruner = Callable[[State, int], list[int]]


class Evaluator(NamedTuple):
    win_chances: Callable[[State], list[float]]
    turn: Callable[[State], int]


def _load(path: str) -> Any:
    """The object named by ``"module:name"``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def random_policy(world: State, seat: int, rng: random.Random) -> int:
    return rng.choice(world.legal_actions())


@functools.cache
def policy_for(game_id: str) -> Policy:
    """The heuristic policy of ``game_id`` (random play if it has none)."""
    path = POLICIES.get(game_id)
    return _load(path) if path is not None else random_policy


@functools.cache
def candidates_for(game_id: str) -> Pruner | None:
    """The pruning function of ``game_id``, or None (search every action)."""
    path = CANDIDATES.get(game_id)
    return _load(path) if path is not None else None


@functools.cache
def evaluator_for(game_id: str) -> Evaluator | None:
    """The position evaluator of ``game_id``, or None if it has none."""
    path = EVALUATORS.get(game_id)
    if path is None:
        return None
    return Evaluator(_load(f"{path}:win_chances"), _load(f"{path}:turn"))


class HeuristicBot(Bot):
    """Plays the game's heuristic policy on a world resampled from its
    seat's information."""

    name: ClassVar[str] = "heuristic"

    def choose(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = info.sample_world(self.rng)
        action = policy_for(info.game.id)(world, self.seat, self.rng)
        return action if action in legal else self.rng.choice(legal)
