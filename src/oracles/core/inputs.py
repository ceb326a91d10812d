"""Games built from options that came from outside (a record, a command line).

``load_game(id, **options)`` is the API for programs: its options arrive as
keyword arguments, so an option named ``game_id`` or ``self`` would collide
with a parameter and raise ``TypeError``, and a key that is not a string
could not be passed at all. Everything from a file or a person goes through
:func:`load_game_checked` instead: the names are checked against the game's
schema before any call, so every mistake is an :class:`OptionError` or an
:class:`UnknownGameError` with a one-line message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oracles.core.errors import OptionError, UnknownGameError
from oracles.core.game import Game
from oracles.core.options import resolve_options
from oracles.core.registry import game_class, game_ids
from oracles.core.text import shown


def load_game_checked(game_id: object, options: Mapping[Any, Any] | None = None) -> Game:
    """The game ``game_id`` with ``options`` validated, whatever their names.

    >>> load_game_checked("oracle", {"self": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    oracles.core.errors.OptionError: unknown option 'self' for game 'oracle' (options: ...)
    """
    if not isinstance(game_id, str) or game_id.strip().lower() not in game_ids():
        raise UnknownGameError(f"unknown game {shown(game_id)} (games: {', '.join(game_ids())})")
    cls = game_class(game_id)
    given = dict(options or {})
    if not all(isinstance(name, str) for name in given):
        raise OptionError(f"option names of game '{cls.id}' must be strings")
    resolve_options(cls.id, cls.option_schema, given)  # unknown names, bad values
    return cls(**given)
