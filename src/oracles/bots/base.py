"""The one bot interface used everywhere (simulation, tournaments, terminal).

A bot never touches the true state. It is handed a :class:`SeatInfo`, which
exposes only what its seat may know: the seat's view, its legal actions, the
notation, and *worlds*: full states resampled from the seat's information
state (``resample_from_infostate``), which search bots may explore freely.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from oracles.core.errors import OptionError
from oracles.core.game import Game, State
from oracles.core.text import shown


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


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
    #: The inclusive range of each numeric parameter (every one needs one:
    #: an unbounded budget would let a search run forever).
    param_ranges: ClassVar[dict[str, tuple[float, float]]] = {}
    #: The accepted values of each text parameter.
    param_choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: The parameter that bounds a move's thinking time in seconds, if any:
    #: a game server caps it, and sets it where a spec leaves it out
    #: (:func:`oracles.bots.specs.bounded_spec`).
    time_param: ClassVar[str | None] = None
    #: Whether the bot answers at once in any position (no search budget).
    quick: ClassVar[bool] = False

    def __init__(self, seat: int, seed: int | str = 0, **params: Any) -> None:
        self.seat = seat
        self.rng = random.Random(f"{self.name}:{seat}:{seed}")
        for key, value in params.items():
            setattr(self, key, self.check_param(key, value))

    @classmethod
    def check_param(cls, key: str, value: Any) -> Any:
        """``value`` if parameter ``key`` accepts it (the right type, finite,
        in range, one of the choices), else an :class:`OptionError`. Every
        bot checks here, whether its parameters come from a spec or a program."""
        if key not in cls.params:
            raise OptionError(
                f"bot '{cls.name}' has no parameter {shown(key)}"
                + (f" (parameters: {', '.join(cls.params)})" if cls.params else "")
            )
        kind = cls.params[key]
        bad = f"bot '{cls.name}' parameter '{key}' must be {cls.describe_param(key)}, got {shown(value)}"
        if kind is bool:
            if not isinstance(value, bool):
                raise OptionError(bad)
            return value
        if kind in (int, float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise OptionError(bad)
            if kind is int and not isinstance(value, int):
                raise OptionError(bad)
            if not math.isfinite(value):
                raise OptionError(bad)
            low, high = cls.param_ranges.get(key, (-math.inf, math.inf))
            if low == 0 and value < 0:
                raise OptionError(
                    f"bot '{cls.name}' parameter '{key}' must not be negative, got {shown(value)}"
                )
            if not low <= value <= high:
                raise OptionError(bad)
            return float(value) if kind is float else value
        if not isinstance(value, str):
            raise OptionError(bad)
        choices = cls.param_choices.get(key)
        if choices is not None and value not in choices:
            raise OptionError(bad)
        return value

    @classmethod
    def describe_param(cls, key: str) -> str:
        """What parameter ``key`` accepts, for messages."""
        kind = cls.params[key]
        if kind is bool:
            return "true or false"
        if kind in (int, float):
            what = "an integer" if kind is int else "a number"
            if key in cls.param_ranges:
                low, high = cls.param_ranges[key]
                return f"{what} from {_number(low)} to {_number(high)}"
            return what
        if key in cls.param_choices:
            *first, last = cls.param_choices[key]
            return f"{', '.join(first)} or {last}" if first else last
        return "a text"

    @abstractmethod
    def choose(self, info: SeatInfo) -> int:
        """The action to take; ``info.legal_actions()`` is not empty."""

    def __repr__(self) -> str:
        return f"{self.name}@{self.seat}"


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"
    quick = True

    def choose(self, info: SeatInfo) -> int:
        return self.rng.choice(info.legal_actions())
