"""Bot specs: ``name[:key=value...]`` read into a bot.

The names are the bots of this package; parameters are checked against each
bot's declared ``params``.
"""

from __future__ import annotations

from typing import Any

from oracles.bots.base import Bot, RandomBot
from oracles.bots.heuristic import HeuristicBot
from oracles.bots.ismcts import ISMCTSBot
from oracles.core.errors import OptionError


def _convert(bot: str, key: str, value: str, kind: type) -> Any:
    try:
        if kind is bool:
            return value.lower() in {"1", "true", "yes", "on"}
        return kind(value)
    except ValueError:
        raise OptionError(f"bot '{bot}' parameter '{key}' must be {kind.__name__}, got {value!r}") from None


def bot_classes() -> dict[str, type[Bot]]:
    """The bots that can be named in a spec."""
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
