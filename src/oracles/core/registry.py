"""The registry of games: ``load_game(id, **options)``.

Games are named here by the dotted path of their :class:`~oracles.core.game.Game`
class and imported on first use, so the core never imports a game module and a
command that needs one game does not pay for the others. A new game joins the
project (and the shared consistency suite) by adding one line to ``GAMES``.
"""

from __future__ import annotations

import importlib
from typing import Any

from oracles.core.errors import UnknownGameError
from oracles.core.game import Game

#: game id -> "module:ClassName"
GAMES: dict[str, str] = {
    "oracle": "oracles.games.oracle.rules:OracleGame",
    "inrah": "oracles.games.inrah.rules:InrahGame",
    "codename": "oracles.games.codename.rules:CodenameGame",
}


def game_ids() -> list[str]:
    """The registered game ids, sorted."""
    return sorted(GAMES)


def game_class(game_id: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``game_id``."""
    key = game_id.strip().lower() if isinstance(game_id, str) else game_id
    if key not in GAMES:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(game_ids())})")
    module_name, _, class_name = GAMES[key].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` validated (``OptionError`` if not).

    >>> game = load_game("oracle", players=3)
    >>> game.options["rounds"]
    3
    """
    return game_class(game_id)(**options)
