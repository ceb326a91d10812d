"""Bot specs: ``name[:key=value...]`` read into a bot.

The names are the bots of this package; parameters are checked against each
bot's declared ``params`` (type, finiteness, range, choices).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from oracles.bots.base import Bot, RandomBot
from oracles.bots.heuristic import HeuristicBot
from oracles.bots.ismcts import ISMCTSBot
from oracles.core.errors import OptionError
from oracles.core.options import parse_integer
from oracles.core.text import printable, shown

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})
#: A decimal number in ASCII (no ``inf``, ``nan``, ``1_000`` or other
#: spellings ``float`` would take), with a short exponent.
_DECIMAL = re.compile(r"[+-]?([0-9]{1,18}(\.[0-9]{0,18})?|\.[0-9]{1,18})([eE][+-]?[0-9]{1,3})?", re.ASCII)
#: The longest text value a bot parameter takes.
_MAX_TEXT = 40


def _convert(cls: type[Bot], key: str, value: str) -> Any:
    """The text of a spec parameter as its declared type, checked.

    Only real booleans (``true/false/1/0/yes/no/on/off``), ASCII integers and
    finite decimal numbers are read; anything else is an error, never a
    silent ``False`` or ``nan``.
    """
    kind = cls.params[key]
    text = value.strip()
    converted: Any = None
    if kind is bool:
        lowered = text.lower()
        converted = True if lowered in _TRUE else False if lowered in _FALSE else None
    elif kind is int:
        converted = parse_integer(text)
    elif kind is float:
        converted = float(text) if _DECIMAL.fullmatch(text) else None
    elif len(text) <= _MAX_TEXT:
        converted = text.lower() if key in cls.param_choices else text
    if converted is None:
        raise OptionError(
            f"bot '{cls.name}' parameter '{key}' must be {cls.describe_param(key)}, got {shown(value)}"
        )
    return cls.check_param(key, converted)


#: The longest bot spec read.
MAX_SPEC = 200


#: Bots that live outside this package and need an optional extra: their
#: name, module, class and the extra that brings what they import. Loaded
#: only when named, so that the package runs without them.
OPTIONAL_BOTS: dict[str, tuple[str, str, str]] = {
    "openspiel_ismcts": ("oracles.research.openspiel_ismcts", "OpenSpielISMCTSBot", "research"),
}


def bot_classes() -> dict[str, type[Bot]]:
    """The bots that can be named in a spec (the optional ones are listed
    by name and loaded by :func:`parse_bot_spec` when named)."""
    return {cls.name: cls for cls in (RandomBot, HeuristicBot, ISMCTSBot)}


def _optional_bot(name: str) -> type[Bot]:
    module_name, class_name, extra = OPTIONAL_BOTS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise OptionError(
            f"bot '{name}' needs the '{extra}' extra (pip install 'oracles[{extra}]'): {error}"
        ) from None
    cls: type[Bot] = getattr(module, class_name)
    return cls


def parse_bot_spec(spec: str) -> tuple[type[Bot], dict[str, Any]]:
    """Read ``name[:key=value[:key=value...]]``.

    >>> parse_bot_spec("random")
    (<class 'oracles.bots.base.RandomBot'>, {})
    """
    if not isinstance(spec, str) or len(spec) > MAX_SPEC:
        raise OptionError(f"a bot spec is a text of at most {MAX_SPEC} characters, got {shown(spec)}")
    name, *pairs = [part.strip() for part in spec.strip().split(":")]
    classes = bot_classes()
    if name.lower() in OPTIONAL_BOTS:
        cls = _optional_bot(name.lower())
    elif name.lower() in classes:
        cls = classes[name.lower()]
    else:
        names = sorted([*classes, *OPTIONAL_BOTS])
        raise OptionError(f"unknown bot '{printable(name)}' (bots: {', '.join(names)})")
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise OptionError(f"bot parameter {shown(pair)} must be written as key=value")
        if key not in cls.params:
            raise OptionError(f"bot '{cls.name}' has no parameter {shown(key)}")
        if key in params:
            raise OptionError(f"bot '{cls.name}' parameter '{key}' is given twice")
        params[key] = _convert(cls, key, value)
    return cls, params


def bounded_spec(spec: str, max_seconds: float) -> str:
    """``spec`` as a game server runs it: a quick bot as it is; a searching
    bot with its time budget (``time_param``) at most ``max_seconds`` a
    move, and set to that where the spec leaves it out (so that an
    iteration budget cannot run for hours); any other bot refused. An
    :class:`OptionError` says why.

    >>> bounded_spec("ismcts:iterations=500", 5)
    'ismcts:iterations=500:seconds=5'
    >>> bounded_spec("ismcts:seconds=3600", 5)
    Traceback (most recent call last):
    ...
    oracles.core.errors.OptionError: bot 'ismcts': at most 5 seconds a move on this server, got 3600
    """
    cls, params = parse_bot_spec(spec)
    if cls.quick:
        return spec.strip()
    key = cls.time_param
    if key is None:
        raise OptionError(f"bot '{cls.name}' is not offered on this server (it has no time budget)")
    limit = f"{max_seconds:g}"
    given = params.get(key)
    if given is not None and given > max_seconds:
        raise OptionError(f"bot '{cls.name}': at most {limit} seconds a move on this server, got {given:g}")
    if given:
        return spec.strip()
    kept = [part for part in spec.strip().split(":") if part.partition("=")[0].strip() != key]
    return ":".join([*kept, f"{key}={limit}"])


def shared_spec(spec: str, share: float) -> str:
    """``spec`` with its time budget (``time_param``) cut to ``share`` of
    it: how a busy server shares its workers' time among the bots waiting
    for them. A spec without a time budget is returned as it is.

    >>> shared_spec("ismcts:seconds=0.2", 0.5)
    'ismcts:seconds=0.1'
    >>> shared_spec("heuristic", 0.5)
    'heuristic'
    """
    cls, params = parse_bot_spec(spec)
    key = cls.time_param
    given = params.get(key) if key is not None else None
    if not given or share >= 1.0:
        return spec.strip()
    kept = [part for part in spec.strip().split(":") if part.partition("=")[0].strip() != key]
    return ":".join([*kept, f"{key}={given * share:.6g}"])


def make_bot(spec: str, seat: int, seed: int | str = 0) -> Bot:
    """The bot named by ``spec`` for ``seat``."""
    cls, params = parse_bot_spec(spec)
    return cls(seat, seed, **params)
