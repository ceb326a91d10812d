"""Inrah-Orakel: the rules engine (game id ``inrah``).

================  ===========================================================
module            holds
================  ===========================================================
``cards``         the deck as ints, card notation (German spellings read too)
``tricks``        following (``legal_plays``) and ``trick_winner``
``scoring``       points of bids, Purpurberg teams and Altaïa oracles, a round's
                  points per seat
``constants``     variants, phases of a round, kinds of Altaïa oracle
``notation``      actions as text and back
``rules``         ``InrahGame`` and ``InrahState``: options, rounds, action
                  integers, the turn flow
``views``         the keys of a view and the fields of each log event, and
                  building a view from a state
``resample``      a state a seat cannot tell from the true one (the other
                  seats' unseen cards dealt anew)
``inference``     how likely the other seats' bids and plays were in such a
                  state (models of play, for search bots)
================  ===========================================================
"""

from oracles.core.parts import GameParts
from oracles.games.inrah.cards import card_text, parse_card
from oracles.games.inrah.rules import InrahGame, InrahState, SeatKnowledge
from oracles.games.inrah.scoring import bid_points, makes_points, misses_points, team_points
from oracles.games.inrah.tricks import legal_plays, trick_winner

#: The game's parts, loaded on demand through :mod:`oracles.core.registry`.
PARTS = GameParts(
    game="rules:InrahGame",
    faces="faces",
    templates="templates",
    policy="policy:choose",
    inference="inference:weigher",
    renderer="render:InrahRenderer",
    encoder="encoding:InrahEncoder",
    analysis="analysis",
    narrate="narrate",
)

__all__ = [
    "PARTS",
    "InrahGame",
    "InrahState",
    "SeatKnowledge",
    "bid_points",
    "card_text",
    "legal_plays",
    "makes_points",
    "misses_points",
    "parse_card",
    "team_points",
    "trick_winner",
]
