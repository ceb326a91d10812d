"""Bots: programs that play a seat knowing only what the seat may know.

============================  ====================================================
module                        content
============================  ====================================================
:mod:`.base`                  the :class:`Bot` interface, :class:`SeatInfo` (a
                              seat's window on a state) and the random bot
:mod:`.hooks`                 each game's policy, pruner and evaluator, read
                              from the game's declared parts
:mod:`.heuristic`             the heuristic bot (the game's policy)
:mod:`.ismcts`                Information Set Monte Carlo Tree Search
:mod:`.specs`                 bot specs ``name[:key=value...]`` -> bots
============================  ====================================================
"""

from oracles.bots.base import Bot, RandomBot, SeatInfo
from oracles.bots.specs import make_bot, parse_bot_spec

__all__ = ["Bot", "RandomBot", "SeatInfo", "make_bot", "parse_bot_spec"]
