"""Pieces the command-line front ends share: argument types that read only
what they should, and the progress bar."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from oracles.core.errors import OptionError
from oracles.core.options import parse_integer
from oracles.core.text import shown

#: The most games ``simulate -n``, ``analyze -n`` and deals ``tournament -n`` accept.
MAX_GAMES = 1_000_000
#: The largest ``--seed`` (any 18-digit integer).
MAX_SEED = 10**18 - 1


def integer_type(high: int, shown_low: int | None = None) -> Callable[[str], int]:
    """An argparse type: an ASCII integer of absolute value at most ``high``
    (``int`` would take ``٣`` and thousands of digits). The exact lower bound
    is checked by the command, with a message naming the flag."""

    def read(text: str) -> int:
        value = parse_integer(text)
        if value is None or abs(value) > high:
            domain = (
                f"from {shown_low} to {high}"
                if shown_low is not None
                else f"of at most {len(str(high))} digits"
            )
            raise argparse.ArgumentTypeError(f"must be an integer {domain}, got {shown(text)}")
        return value

    return read


COUNT = integer_type(MAX_GAMES, shown_low=1)
SEED = integer_type(MAX_SEED)
SMALL = integer_type(1000, shown_low=0)  # seats, players, people: checked exactly later
WORKERS = integer_type(1000, shown_low=1)  # capped per machine by oracles.workers


def progress_bar(quiet: bool) -> Any:
    """A rich progress bar on stderr (disabled when ``quiet``)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    )


def with_players(options: dict[str, Any], players: int | None) -> dict[str, Any]:
    """``options`` with ``--players`` in them; the two may not disagree
    (``--option players=3 --players 4`` was read as 4, silently).

    >>> with_players({"rounds": "2"}, 3)
    {'rounds': '2', 'players': 3}
    """
    if players is None:
        return options
    given = options.get("players")
    if given is not None and str(given).strip() != str(players):
        raise OptionError(f"--players {players} and --option players={given} disagree: give the count once")
    return {**options, "players": players}
