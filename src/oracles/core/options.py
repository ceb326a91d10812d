"""Typed, validated game options.

A game declares its options as a tuple of :class:`Option`; ``resolve`` turns
what a user gave (Python values from ``load_game``, JSON values from a record,
or strings from the command line) into a complete dict of typed values, or
raises :class:`~oracles.core.errors.OptionError` naming the option and why.

>>> players = Option("players", int, 4, "number of seats", minimum=3, maximum=5)
>>> rounds = Option("rounds", int, lambda o: o["players"], "rounds to play", minimum=1)
>>> resolve_options("demo", (players, rounds), {"players": "3"})
{'players': 3, 'rounds': 3}
>>> resolve_options("demo", (players, rounds), {"player": 3})
Traceback (most recent call last):
...
oracles.core.errors.OptionError: unknown option 'player' for game 'demo' (options: players, rounds)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oracles.core.errors import OptionError
from oracles.core.text import printable, shown

OptionValue = bool | int | str
Default = OptionValue | Callable[[dict[str, Any]], OptionValue]

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}

#: An integer as text: ASCII digits only (``int`` would also take ``٣``, and
#: ``isdigit`` says yes to ``³``, which ``int`` refuses), with an optional
#: sign and few enough digits that no option could need more.
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}", re.ASCII)


def parse_integer(text: str) -> int | None:
    """``text`` as an integer, or ``None`` if it is not one (written in
    ASCII digits, at most 18 of them).

    >>> parse_integer(" -3 "), parse_integer("--3"), parse_integer("³"), parse_integer("9" * 5000)
    (-3, None, None, None)
    """
    stripped = text.strip()
    return int(stripped) if _INTEGER.fullmatch(stripped) else None


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``default`` may be a function of the options resolved before this one
    (options are resolved in declaration order), which is how a default can
    depend on the number of players. ``check`` is a cross-option rule: it gets
    the value and all options resolved so far and returns an error text or
    ``None``.
    """

    name: str
    kind: type
    default: Default
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    check: Callable[[Any, dict[str, Any]], str | None] | None = None
    #: Bounds for values that come from another machine (the game server):
    #: the largest integer, and the only texts accepted. A local user may
    #: ask for a thousand rounds or an edition file; a stranger may not
    #: make the server work without end or read its disk.
    remote_maximum: int | None = None
    remote_choices: tuple[str, ...] | None = None

    def describe_domain(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        if self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                return f"an integer from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"an integer of at least {self.minimum}"
            return "an integer"
        return "a string"

    def coerce(self, game_id: str, value: Any, resolved: dict[str, Any]) -> OptionValue:
        """Return ``value`` as this option's type, or raise OptionError."""
        bad = OptionError(
            f"option '{self.name}' of game '{game_id}' must be {self.describe_domain()}, got {shown(value)}"
        )
        result: OptionValue
        if self.kind is bool:
            if isinstance(value, bool):
                result = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                result = value.strip().lower() in _TRUE
            else:
                raise bad
        elif self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                result = value
            elif isinstance(value, str) and (parsed := parse_integer(value)) is not None:
                result = parsed
            else:
                raise bad
            if self.minimum is not None and result < self.minimum:
                raise bad
            if self.maximum is not None and result > self.maximum:
                raise bad
        else:
            if not isinstance(value, str):
                raise bad
            result = value.strip().lower() if self.choices is not None else value
            if self.choices is not None and result not in self.choices:
                raise bad
        if self.check is not None:
            problem = self.check(result, resolved)
            if problem is not None:
                # A game's rule may quote the value: keep the line bounded.
                raise OptionError(f"option '{self.name}' of game '{game_id}': {printable(problem, 300)}")
        return result


def resolve_options(game_id: str, schema: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``given`` against ``schema`` and fill in defaults."""
    known = {option.name for option in schema}
    for name in given:
        if not isinstance(name, str) or name not in known:
            what = f"'{printable(name)}'" if isinstance(name, str) else shown(name)
            raise OptionError(
                f"unknown option {what} for game '{game_id}' (options: {', '.join(o.name for o in schema)})"
            )
    resolved: dict[str, Any] = {}
    for option in schema:
        if option.name in given:
            resolved[option.name] = option.coerce(game_id, given[option.name], resolved)
        else:
            default = option.default(resolved) if callable(option.default) else option.default
            resolved[option.name] = option.coerce(game_id, default, resolved)
    return resolved


def check_remote_options(game_id: str, schema: Sequence[Option], given: Mapping[str, Any]) -> None:
    """Refuse values of ``given`` beyond the options' remote bounds (an
    :class:`OptionError` naming the option), before anything reads them.

    >>> rounds = Option("rounds", int, 3, "rounds to play", minimum=1, remote_maximum=12)
    >>> check_remote_options("demo", (rounds,), {"rounds": 13})
    Traceback (most recent call last):
    ...
    oracles.core.errors.OptionError: option 'rounds' of game 'demo': at most 12 on a server, got 13
    """
    by_name = {option.name: option for option in schema}
    for name, value in given.items():
        option = by_name.get(name) if isinstance(name, str) else None
        if option is None:
            continue  # resolve_options names the unknown option
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str):
            number = parse_integer(value)
        if option.remote_maximum is not None and number is not None and number > option.remote_maximum:
            raise OptionError(
                f"option '{name}' of game '{game_id}': at most {option.remote_maximum} on a server, "
                f"got {shown(value)}"
            )
        choices = option.remote_choices
        if choices is not None and (not isinstance(value, str) or value.strip().lower() not in choices):
            raise OptionError(
                f"option '{name}' of game '{game_id}' must be one of {', '.join(choices)} on a server, "
                f"got {shown(value)}"
            )


def parse_option_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """Read command-line ``K=V`` pairs into a dict of strings.

    >>> parse_option_assignments(["draft=true", "rounds=2"])
    {'draft': 'true', 'rounds': '2'}
    """
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {shown(pair)} must be written as NAME=VALUE")
        result[name.strip()] = value.strip()
    return result
