"""Codename: Oracle, the two-player Zener duel (game id ``codename``).

=============  ================================================================
module         holds
=============  ================================================================
``actions``    the names (symbols, cells, slots, set shapes) and action ranges
``tasks``      the task stack: what is pending, as typed records
``table``      the position: piles, what each seat has seen, the event log
``effects``    what revealed sets, guesses and discarded shields do
``rules``      ``CodenameGame`` and ``CodenameState``: options, legal actions,
               applying them
``notation``   actions as text and back
``views``      the keys of a view and its events, and building a view
``knowledge``  the bots' integer snapshot of what a seat knows
``resample``   a state a seat cannot tell from the true one (unseen cards
               relabelled)
``scoring``    why a game ends, who wins, the returns
=============  ================================================================
"""

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
