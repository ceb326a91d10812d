"""Bots: programs that play a seat knowing only what the seat may know."""

from oracles.bots.base import Bot, RandomBot, SeatInfo, make_bot, parse_bot_spec

__all__ = ["Bot", "RandomBot", "SeatInfo", "make_bot", "parse_bot_spec"]
