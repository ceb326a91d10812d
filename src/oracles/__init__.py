"""oracles: three card games called *Oracle*, with one game API.

>>> import oracles
>>> game = oracles.load_game("oracle", players=4)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from oracles.core import (
    CHANCE,
    TERMINAL,
    ChanceNotEnumerableError,
    Game,
    IllegalActionError,
    NotationError,
    Option,
    OptionError,
    OraclesError,
    RecordError,
    State,
    UnknownGameError,
    game_ids,
    load_game,
    replay_record,
)

__version__ = "0.1.0"

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
    "__version__",
    "game_ids",
    "load_game",
    "replay_record",
]
