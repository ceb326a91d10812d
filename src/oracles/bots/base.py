"""The one bot interface used everywhere (simulation, tournaments, terminal).

A bot never touches the true state. It is handed a :class:`SeatInfo`, which
exposes only what its seat may know: the seat's view, its legal actions, the
notation, and *worlds*: full states resampled from the seat's information
state (``resample_from_infostate``), which search bots may explore freely.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from oracles.core.errors import OptionError
from oracles.core.game import Game, State


class SeatInfo:
    """A seat's window on a state: everything that seat may know, nothing more."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    def view(self) -> dict[str, Any]:
        return self._state.view(self.seat)

    def information_state_string(self) -> str:
        return self._state.information_state_string(self.seat)

    def legal_actions(self) -> list[int]:
        if self._state.current_player() != self.seat:
            return []
        return self._state.legal_actions()

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self._state.string_to_action(text)

    def sample_world(self, rng: random.Random) -> State:
        """A full state consistent with this seat's information (a fresh
        object the caller owns)."""
        return self._state.resample_from_infostate(self.seat, rng)


class Bot(ABC):
    """A player program for one seat. ``params`` come from the bot spec
    (``ismcts:iterations=2000``); unknown ones are an error."""

    #: Name used in bot specs.
    name: ClassVar[str] = "bot"
    #: Accepted parameters and their types.
    params: ClassVar[dict[str, type]] = {}

    def __init__(self, seat: int, seed: int | str = 0, **params: Any) -> None:
        self.seat = seat
        self.rng = random.Random(f"{self.name}:{seat}:{seed}")
        for key, value in params.items():
            if key not in self.params:
                raise OptionError(
                    f"bot '{self.name}' has no parameter '{key}'"
                    + (f" (parameters: {', '.join(self.params)})" if self.params else "")
                )
            setattr(self, key, value)

    @abstractmethod
    def choose(self, info: SeatInfo) -> int:
        """The action to take; ``info.legal_actions()`` is not empty."""

    def __repr__(self) -> str:
        return f"{self.name}@{self.seat}"


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, info: SeatInfo) -> int:
        return self.rng.choice(info.legal_actions())
