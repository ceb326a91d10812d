"""Inrah's pieces as front ends draw them: a card's element (colour and
shape), its rank, and the court cards by their rulebook names (Knappin,
Ritter, Weissagerin, Magier, Fürst; squire, knight, seer, mage, prince in
English), every name from the catalog.

>>> face("fire-seer", "de")["title"]
'Feuer Weissagerin'
>>> face("water-ace", "en")["rank"], face("ice-prince", "en")["court"]
('A', True)
>>> sorted(["air-4", "fire-prince", "fire-2"], key=sort_key)
['fire-2', 'fire-prince', 'air-4']
"""

from __future__ import annotations

from typing import Any

from oracles.games.inrah.cards import CARDS_PER_ELEMENT, ELEMENTS, RANKS, parse_card
from oracles.i18n import N_, translate

#: Element names, marked for the catalog (the symbol id is the element word).
ELEMENT_TITLES = {
    "fire": N_("fire"),
    "water": N_("water"),
    "air": N_("air"),
    "ore": N_("ore"),
    "humus": N_("humus"),
    "ice": N_("ice"),
}
#: Rank words of the ace and the court, marked for the catalog.
RANK_TITLES = {
    "ace": N_("ace"),
    "squire": N_("squire"),
    "knight": N_("knight"),
    "seer": N_("seer"),
    "mage": N_("mage"),
    "prince": N_("prince"),
}
#: The short mark in a card's corner (the ace's "A"; court cards by initial).
CORNER = {"ace": "A"}
#: Seer and mage: always playable, beside the elements' order.
SPECIAL = ("seer", "mage")


def face(code: str, lang: str) -> dict[str, Any]:
    """The drawing data of one card in notation (``fire-7``, ``ice-mage``)."""
    index = parse_card(code)
    if index is None:
        return {
            "kind": "card",
            "code": code,
            "token": code.lower(),
            "colour": "grey",
            "symbol": "circle",
            "rank": "?",
            "title": code,
            "court": False,
            "court_name": "",
            "element_name": code,
        }
    element = ELEMENTS[index // CARDS_PER_ELEMENT]
    rank = RANKS[index % CARDS_PER_ELEMENT]
    element_name = translate(lang, ELEMENT_TITLES[element])
    rank_name = translate(lang, RANK_TITLES[rank]) if rank in RANK_TITLES else rank
    court = rank in RANK_TITLES and rank != "ace"
    return {
        "kind": "card",
        "code": f"{element}-{rank}",
        "token": f"{element}-{rank}",
        "colour": element,
        "element": element,
        "element_name": element_name,
        "symbol": element,
        "rank": CORNER.get(rank, rank_name[:2].capitalize() if court else rank),
        "court": court,
        "court_name": rank_name if court else "",
        "special": rank in SPECIAL,
        "title": f"{element_name} {rank_name}",
    }


def element_name(element: str, lang: str) -> str:
    """An element word (``fire``) in ``lang``."""
    return translate(lang, ELEMENT_TITLES[element]) if element in ELEMENT_TITLES else element


def sort_key(code: str) -> tuple[int, int]:
    """A sorted hand's order: by element in deck order, then rank."""
    index = parse_card(code)
    if index is None:
        return (99, 99)
    return (index // CARDS_PER_ELEMENT, index % CARDS_PER_ELEMENT)


#: The lobby's words for each option: its label, one line of help and the
#: labels of its choices (value, words), all to translate.
OPTION_WORDS: dict[str, dict[str, Any]] = {
    "players": {"label": N_("Players"), "help": N_("How many seats the table has.")},
    "elements": {
        "label": N_("Elements in the deck"),
        "help": N_("How many elements the deck has (fire, water, air, ore, humus, ice)."),
    },
    "trump": {"label": N_("Trump card"), "help": N_("Turn up a trump card while cards remain undealt.")},
    "forbid_exact_sum": {
        "label": N_("The bids may not add up to the tricks"),
        "help": N_("The dealer may not make the bids add up to the tricks."),
    },
    "variant": {
        "label": N_("Variant"),
        "help": N_("Standard, Purpurberg (teams of opposite seats) or Altaïa (three oracles each)."),
        "choices": (
            ("standard", N_("Standard")),
            ("purpurberg", N_("Purpurberg (teams)")),
            ("altaia", N_("Altaïa (three oracles)")),
        ),
    },
    "rounds": {"label": N_("Rounds"), "help": N_("How many rounds are dealt before the game ends.")},
}
