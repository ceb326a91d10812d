"""Codename: Oracle, the two-player Zener duel (game id ``codename``)."""

from oracles.games.codename.rules import CodenameGame, CodenameState

__all__ = ["CodenameGame", "CodenameState"]
