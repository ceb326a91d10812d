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


def _convert(bot: str, key: str, value: str, kind: type) -> Any:
    try:
        if kind is bool:
            return value.lower() in {"1", "true", "yes", "on"}
        return kind(value)
    except ValueError:
        raise OptionError(f"bot '{bot}' parameter '{key}' must be {kind.__name__}, got {value!r}") from None


def bot_classes() -> dict[str, type[Bot]]:
    """The bots that can be named in a spec."""
    from oracles.bots.heuristic import HeuristicBot
    from oracles.bots.ismcts import ISMCTSBot

    return {cls.name: cls for cls in (RandomBot, HeuristicBot, ISMCTSBot)}


def parse_bot_spec(spec: str) -> tuple[type[Bot], dict[str, Any]]:
    """Read ``name[:key=value[:key=value...]]``.

    >>> parse_bot_spec("random")
    (<class 'oracles.bots.base.RandomBot'>, {})
    """
    name, *pairs = [part.strip() for part in spec.strip().split(":")]
    classes = bot_classes()
    if name.lower() not in classes:
        raise OptionError(f"unknown bot {name!r} (bots: {', '.join(sorted(classes))})")
    cls = classes[name.lower()]
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"bot parameter {pair!r} must be written as key=value")
        if key not in cls.params:
            raise OptionError(f"bot '{cls.name}' has no parameter '{key}'")
        params[key] = _convert(cls.name, key, value, cls.params[key])
    return cls, params


def make_bot(spec: str, seat: int, seed: int | str = 0) -> Bot:
    """The bot named by ``spec`` for ``seat``."""
    cls, params = parse_bot_spec(spec)
    return cls(seat, seed, **params)
