"""The registry of games: ``load_game(id, **options)`` and each game's parts.

A game is one package, named here by its dotted path; the package declares
its parts (:class:`~oracles.core.parts.GameParts`: the ``Game`` class, the
heuristic policy, the terminal renderer, the research encoder...) in a
module-level ``PARTS``. Everything is imported on first use, so the core never
imports a game module statically and a command that needs one game does not
pay for the others. A new game joins the project (the CLI, the bots, the
terminal, the research adapters and the shared consistency suite) by adding
its package and one line to ``GAMES``.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Any

from oracles.core.errors import UnknownGameError
from oracles.core.game import Game
from oracles.core.parts import PART_NAMES, GameParts

#: game id -> its package
GAMES: dict[str, str] = {
    "oracle": "oracles.games.oracle",
    "inrah": "oracles.games.inrah",
    "codename": "oracles.games.codename",
}


#: The game a front end starts with when none is named (the first listed).
DEFAULT_GAME = next(iter(GAMES))


def game_ids() -> list[str]:
    """The registered game ids, sorted."""
    return sorted(GAMES)


def _key(game_id: object) -> str:
    key = game_id.strip().lower() if isinstance(game_id, str) else game_id
    if not isinstance(key, str) or key not in GAMES:
        shown = game_id if isinstance(game_id, str) else type(game_id).__name__
        raise UnknownGameError(f"unknown game {shown!r} (games: {', '.join(game_ids())})")
    return key


@functools.cache
def game_parts(game_id: str) -> GameParts:
    """The parts declared by the package of ``game_id``."""
    package = GAMES[_key(game_id)]
    parts = getattr(importlib.import_module(package), "PARTS", None)
    if not isinstance(parts, GameParts):
        raise TypeError(f"{package} declares no PARTS = GameParts(...)")
    return parts


def game_part(game_id: str, name: str) -> Any:
    """The part ``name`` (one of :data:`~oracles.core.parts.PART_NAMES`) of
    ``game_id``, imported now; ``None`` if the game has none.

    >>> game_part("oracle", "game").__name__
    'OracleGame'
    """
    if name not in PART_NAMES:
        raise ValueError(f"unknown game part {name!r} (parts: {', '.join(PART_NAMES)})")
    return _load_part(_key(game_id), name)


@functools.cache
def _load_part(game_id: str, name: str) -> Any:
    target = getattr(game_parts(game_id), name)
    if target is None:
        return None
    package = GAMES[game_id]
    if name == "templates":
        # A folder, not a module: its path inside the installed package.
        return Path(importlib.import_module(package).__file__ or ".").parent / target
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(f"{package}.{module_name}" if module_name else package)
    return getattr(module, attribute) if attribute else module


def game_class(game_id: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``game_id``."""
    cls: type[Game] = game_part(game_id, "game")
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` validated (``OptionError`` if not).

    >>> game = load_game("oracle", players=3)
    >>> game.options["rounds"]
    3
    """
    return game_class(game_id)(**options)
