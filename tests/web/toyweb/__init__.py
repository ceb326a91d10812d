"""A toy game with the presentation parts a game needs to show on the web
page (faces, narrate, templates), registered by ``test_web_toy.py``: adding
a game is one package and one registry line, its page included."""

from oracles.core.parts import GameParts

PARTS = GameParts(game="game:WebToyGame", faces="faces", narrate="narrate", templates="templates")
