"""Codename: Oracle, the two-player Zener duel (game id ``codename``)."""

from oracles.core.parts import GameParts
from oracles.games.codename.rules import CodenameGame, CodenameState

#: The game's parts, loaded on demand through :mod:`oracles.core.registry`.
PARTS = GameParts(
    game="rules:CodenameGame",
    policy="policy:choose",
    candidates="policy:candidates",
    evaluator="evaluator",
    renderer="render:CodenameRenderer",
    encoder="encoding:CodenameEncoder",
    analysis="analysis",
    faces="faces",
    narrate="narrate",
    templates="templates",
)

__all__ = ["PARTS", "CodenameGame", "CodenameState"]
