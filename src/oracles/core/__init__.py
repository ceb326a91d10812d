"""The game-agnostic core: API, options, records. Imports no game, bot, CLI
or rendering code."""

from oracles.core.errors import (
    ChanceNotEnumerableError,
    IllegalActionError,
    NotationError,
    OptionError,
    OraclesError,
    RecordError,
    UnknownGameError,
)
from oracles.core.game import CHANCE, TERMINAL, Game, State
from oracles.core.options import Option
from oracles.core.records import replay_record
from oracles.core.registry import game_ids, load_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ChanceNotEnumerableError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "Option",
    "OptionError",
    "OraclesError",
    "RecordError",
    "State",
    "UnknownGameError",
    "game_ids",
    "load_game",
    "replay_record",
]
