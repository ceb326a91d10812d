"""Balance analysis for designers: ``oracles analyze`` and ``oracles balance``.

==============  ===============================================================
module          job
==============  ===============================================================
``collect``     plays games (through :mod:`oracles.simulate`) or reads records,
                and turns each finished game into JSON-ready facts
``stats``       Wilson intervals, mean intervals and small-sample warnings
``oracle``      Oracle's facts and tables (prophecies, creatures, seats, ...)
``inrah``       Inrah's facts and tables (bids, dealer, variants, trump)
``codename``    Codename's facts and tables (first player, length, effects)
``report``      tables as CSV, plots as PNG (matplotlib) and ``report.html``
``balance``     the re-pointing loop that writes a balanced Oracle edition
``cli``         the ``analyze`` and ``balance`` commands
==============  ===============================================================

The per-game modules take the facts they need from the public API only
(views, scores, history), each in one function (``round_facts`` /
``game_facts``), so a change of the views is adapted in one place.
"""
