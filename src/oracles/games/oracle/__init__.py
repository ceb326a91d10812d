"""Oracle (Stefan Dorra): cards and chips (:mod:`.cards`), the Oracle deck as
data (:mod:`.prophecies`) and the rules engine (:mod:`.rules`)."""

from oracles.core.parts import GameParts

#: The game's parts, loaded on demand through :mod:`oracles.core.registry`.
PARTS = GameParts(
    game="rules:OracleGame",
    faces="faces",
    templates="templates",
    policy="policy:choose",
    root_candidates="search:root_candidates",
    steering="search:steering",
    inference="inference:weigher",
    exploration="search:EXPLORATION",
    renderer="render:OracleRenderer",
    encoder="encoding:OracleEncoder",
    analysis="analysis",
    narrate="narrate",
    balancer="balance",
)
