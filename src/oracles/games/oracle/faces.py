"""Oracle's pieces as front ends draw them: a card's colour, the shape that
stands for the colour (so that colour-blind players read it too), its value
and the creature it wins (Hydra 1-5, Pegasus 6-9, Phoenix 10-12); an Oracle
card's text in the viewer's language. Names come from the catalog.

>>> face("R12", "en")["title"]
'red 12 (Phoenix)'
>>> face("b3", "de")["creature"], face("b3", "de")["title"]
('hydra', 'Blau 3 (Hydra)')
>>> sorted(["Y2", "R10", "R2"], key=sort_key)
['R2', 'R10', 'Y2']
"""

from __future__ import annotations

from typing import Any

from oracles.games.oracle.cards import COLOURS, CREATURE_NAMES, NUM_VALUES, STARS, VALUE_CREATURE
from oracles.games.oracle.prophecies import default_edition, oracle_index
from oracles.i18n import N_, translate

#: Per colour letter: its name (for the catalog), CSS colour word and shape.
COLOUR_FACES = {
    "R": (N_("red"), "red", "circle"),
    "B": (N_("blue"), "blue", "square"),
    "G": (N_("green"), "green", "triangle"),
    "Y": (N_("yellow"), "yellow", "star"),
    "P": (N_("purple"), "purple", "diamond"),
}
#: The creatures as the catalog names them, in chip order.
CREATURE_TITLES = {"hydra": N_("Hydra"), "pegasus": N_("Pegasus"), "phoenix": N_("Phoenix")}
#: The stars each creature's victory point chip shows.
CREATURE_STARS = dict(zip(CREATURE_NAMES, STARS, strict=True))


def face(code: str, lang: str) -> dict[str, Any]:
    """The drawing data of a hand card (``R7``) or an Oracle card (``O05``)."""
    code = code.strip()
    if code[:1].upper() == "O" and code[1:].isdigit():
        return oracle_face(code, lang)
    letter, digits = code[:1].upper(), code[1:]
    name, colour, shape = COLOUR_FACES.get(letter, (letter, "grey", "circle"))
    value = int(digits) if digits.isdigit() else 0
    creature = CREATURE_NAMES[VALUE_CREATURE[value - 1]] if 1 <= value <= NUM_VALUES else ""
    creature_title = translate(lang, CREATURE_TITLES[creature]) if creature else ""
    title = f"{translate(lang, name)} {digits}"
    return {
        "kind": "card",
        "code": f"{letter}{digits}",
        "token": f"{letter}{digits}".lower(),
        "colour": colour,
        "colour_name": translate(lang, name),
        "symbol": shape,
        "rank": digits,
        "creature": creature,
        "creature_name": creature_title,
        "stars": CREATURE_STARS.get(creature, 0),
        "title": f"{title} ({creature_title})" if creature else title,
    }


def oracle_face(code: str, lang: str) -> dict[str, Any]:
    """An Oracle card: its id, text in ``lang`` and printed points (the
    view's points win where an edition was re-pointed)."""
    try:
        prophecy = default_edition().cards[oracle_index(code)]
    except (ValueError, IndexError):
        return {
            "kind": "oracle",
            "code": code.upper(),
            "token": code.lower(),
            "text": "",
            "points": 0,
            "title": code,
        }
    return {
        "kind": "oracle",
        "code": prophecy.id,
        "token": prophecy.id.lower(),
        "text": prophecy.text(lang),
        "points": prophecy.points,
        "title": f"{prophecy.id}: {prophecy.text(lang)}",
    }


def sort_key(code: str) -> tuple[int, int]:
    """A sorted hand's order: by colour (red, blue, green, yellow, purple),
    then value."""
    digits = code[1:]
    letter = code[:1].upper()
    return (COLOURS.find(letter) if letter in COLOURS else 99, int(digits) if digits.isdigit() else 0)


#: The lobby's words for each option: its label, one line of help and the
#: labels of its choices (value, words), all to translate.
OPTION_WORDS: dict[str, dict[str, Any]] = {
    "players": {"label": N_("Players"), "help": N_("How many seats the table has.")},
    "rounds": {"label": N_("Rounds"), "help": N_("How many rounds are dealt before the game ends.")},
    "draft": {
        "label": N_("Pass the Oracle cards (draft variant)"),
        "help": N_("Oracle cards are drafted instead of dealt."),
    },
    "removed_colour": {
        "label": N_("Colour left out with three players"),
        "help": N_("With three players, this colour leaves the deck."),
        "choices": (
            ("R", N_("Red")),
            ("B", N_("Blue")),
            ("G", N_("Green")),
            ("Y", N_("Yellow")),
            ("P", N_("Purple")),
        ),
    },
    "edition": {
        "label": N_("Edition of the Oracle cards"),
        "help": N_(
            "Classic: the printed points. Balanced: points re-weighed by simulation so that every Oracle card pays about the same when kept (each player count has its own); the cards no points could balance ask something new, some only with three or five players."
        ),
        "choices": (("classic", N_("classic (the printed points)")), ("balanced", N_("balanced"))),
    },
}
