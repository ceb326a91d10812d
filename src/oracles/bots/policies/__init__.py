"""Heuristic policies, one module per game (see ``oracles.bots.heuristic``)."""
