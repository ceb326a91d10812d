"""Heuristic policy for ``inrah`` (placeholder: random play until written)."""

from __future__ import annotations

import random

from oracles.core.game import State


def choose(world: State, seat: int, rng: random.Random) -> int:
    """The action for ``seat`` in ``world``, reading only what ``seat`` may know."""
    return rng.choice(world.legal_actions())
