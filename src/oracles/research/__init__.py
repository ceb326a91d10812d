"""Research interfaces: OpenSpiel, PettingZoo and Gymnasium (the ``research`` extra).

============================  ====================================================
module                        content
============================  ====================================================
:mod:`.encoding`              fixed-size observation and information-state tensors
                              per game (layouts documented there), utility bounds
:mod:`.openspiel`             every game as a pyspiel Python game,
                              ``python_oracles_<id>``, registered on import
:mod:`.pettingzoo`            an AEC environment per game with action masks
:mod:`.gymnasium`             a single-agent environment per game against bots
============================  ====================================================

Everything is built on the game API (:mod:`oracles.core.game`); observations
are encoded from ``view(seat)``, the one source of what a seat may know, so
the tensors cannot carry more than the views. See ``docs/research.md``.
"""
