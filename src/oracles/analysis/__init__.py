"""Balance analysis for designers: ``oracles analyze`` and ``oracles balance``.

==============  ===============================================================
module          job
==============  ===============================================================
``collect``     plays games (through :mod:`oracles.simulate`) or reads records,
                and turns each finished game into JSON-ready facts
``stats``       Wilson intervals, mean intervals and small-sample warnings
``report``      tables as CSV, plots as PNG (matplotlib) and ``report.html``
``cli``         the ``analyze`` and ``balance`` commands
==============  ===============================================================

This package is the game-independent half. Each game keeps its own
statistics beside its rules, declared as the ``analysis`` part of its
``PARTS`` (``oracles.games.<id>.analysis``: Oracle's prophecies, creatures and
seats; Inrah's bids, dealer, variants and trump; Codename's first player,
length and effects), and Oracle also a ``balancer`` part
(``oracles.games.oracle.balance``, the re-pointing loop of ``oracles
balance``). The commands reach both through the registry only. A game's
analysis takes its facts from the public API (views, scores, history) in one
function (``game_facts``), so a change of the views is adapted in one place.
"""
