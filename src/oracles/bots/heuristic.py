"""The heuristic bot: the game's hand-written policy on a resampled world.

The policy (declared by the game, see :mod:`oracles.bots.hooks`) decides on a
*world* resampled from the seat's information state, never the true state,
so peeking is impossible by construction. ISMCTS rollouts call the same
policies on their own worlds.
"""

from __future__ import annotations

from typing import ClassVar

from oracles.bots.base import Bot, SeatInfo
from oracles.bots.hooks import policy_for
from oracles.core.errors import OraclesError


class PolicyError(OraclesError):
    """A game's policy chose an action that is not legal: a bug in the
    policy, reported rather than papered over with a random move."""


class HeuristicBot(Bot):
    """Plays the game's heuristic policy on a world resampled from its
    seat's information.

    ``noise`` (default 0): the chance, at each choice, of a uniformly random
    legal move instead of the policy's: a careless player, for the ladder's
    levels between random play and the heuristic (``docs/bots.md``)."""

    name: ClassVar[str] = "heuristic"
    quick: ClassVar[bool] = True
    params: ClassVar[dict[str, type]] = {"noise": float}
    param_ranges: ClassVar[dict[str, tuple[float, float]]] = {"noise": (0.0, 1.0)}

    noise: float = 0.0

    def choose(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # Drawn only when asked for: a plain heuristic bot's rng stream (and
        # so every seeded game it played) stays as it was.
        if self.noise > 0 and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        world = info.sample_world(self.rng)
        action = policy_for(info.game.id)(world, self.seat, self.rng)
        if action not in legal:
            raise PolicyError(
                f"the {info.game.id} policy chose {action!r}, which is not legal for seat {self.seat}"
            )
        return action
