"""Inrah-Orakel: the rules engine (see :mod:`oracles.games.inrah.rules`)."""
