"""How Codename's pieces look: the five Zener symbols as drawings.

Front ends (the web board, through ``game_part("codename", "faces")``) draw
a symbol from :func:`face`: an SVG path on a 40 × 40 grid, stroked in the
symbol's colour. Each symbol differs in shape *and* in colour (the colours
are from the Okabe-Ito palette, told apart by colour-blind players too, and
dark enough to stand out on the light card), so neither alone is needed.

>>> face("wave", "de")["name"]
'Welle'
>>> sorted(["cross", "star", "wave"], key=sort_key)
['star', 'wave', 'cross']
"""

from __future__ import annotations

from typing import Any

from oracles.games.codename.actions import SYMBOL_INDEX, SYMBOLS
from oracles.i18n import N_, translate

#: The drawings' coordinate grid.
VIEWBOX = "0 0 40 40"

#: symbol -> (English name, colour, SVG path on the 40 × 40 grid, a
#: one-letter mark for text-only places).
DRAWINGS: dict[str, tuple[str, str, str, str]] = {
    "star": (
        N_("star"),
        "#9a6200",
        "M20 6.5L23.6 16.5L34.3 16.9L25.9 23.4L28.8 33.6L20 27.7L11.2 33.6L14.1 23.4L5.7 16.9L16.4 16.5Z",
        "★",
    ),
    "square": (N_("square"), "#0060a0", "M8 8H32V32H8Z", "■"),
    "wave": (
        N_("wave"),
        "#00795a",
        "M5 11q3.75-5 7.5 0t7.5 0 7.5 0 7.5 0M5 20q3.75-5 7.5 0t7.5 0 7.5 0 7.5 0M5 29q3.75-5 7.5 0t7.5 0 7.5 0 7.5 0",
        "≈",
    ),
    "circle": (N_("circle"), "#c0392b", "M7 20a13 13 0 1 0 26 0a13 13 0 1 0-26 0Z", "●"),
    "cross": (N_("cross"), "#8e3b8e", "M20 6V34M6 20H34", "✚"),
}


def face(code: str, lang: str) -> dict[str, Any]:
    """The drawing of the symbol ``code`` (``star`` ... ``cross``): its
    ``symbol``, translated ``name``, ``colour``, SVG ``path`` and
    ``viewbox``, and a one-letter ``mark``. An unknown code (a face-down
    card nobody here has seen) gets a face with an empty path.

    >>> face("star", "en")["colour"]
    '#9a6200'
    >>> face("?", "en")["path"]
    ''
    """
    drawing = DRAWINGS.get(code)
    if drawing is None:
        return {
            "code": code,
            "symbol": None,
            "name": translate(lang, "unknown"),
            "colour": "#5c5c66",
            "path": "",
            "viewbox": VIEWBOX,
            "mark": "?",
        }
    name, colour, path, mark = drawing
    return {
        "code": code,
        "symbol": code,
        "name": translate(lang, name),
        "colour": colour,
        "path": path,
        "viewbox": VIEWBOX,
        "mark": mark,
    }


def sort_key(code: str) -> int:
    """Symbols in the deck's order (star, square, wave, circle, cross)."""
    return SYMBOL_INDEX.get(code, len(SYMBOLS))


#: The lobby's words for each option: its label and one line of help, to
#: translate.
OPTION_WORDS: dict[str, dict[str, Any]] = {
    "players": {"label": N_("Players"), "help": N_("How many seats the table has.")},
    "max_turns": {"label": N_("Turn limit"), "help": N_("Turns in all before the game is drawn.")},
    "max_reveals": {
        "label": N_("Reveals per turn"),
        "help": N_("How many reveals a player may make in one turn."),
    },
    "blocked_strike_shows_code": {
        "label": N_("A blocked strike still shows the code card"),
        "help": N_(
            "When a shield stops a strike, the defender still shows the code card of the struck column."
        ),
    },
}
