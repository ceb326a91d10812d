"""The Inrah deck: card encoding, card notation (German spellings read too).

A card is one small int, ``element * 12 + rank``, so the cards of the first
``k`` elements are exactly ``range(12 * k)`` and sorting ints sorts a hand by
element, then rank (the canonical order of hands in the notation).

=====  ===========  ==========  =============================================
rank   notation     German      role
=====  ===========  ==========  =============================================
0      ``ace``      As          normal, counts 1: the lowest
1..6   ``2``..``7`` 2..7        normal
7      ``squire``   Knappin     normal
8      ``knight``   Ritter      normal
9      ``seer``     Weissagerin special: the first seer wins the trick
10     ``mage``     Magier      special: loses, unless only mages are played
11     ``prince``   Fürst       normal, the highest
=====  ===========  ==========  =============================================

Elements, in the order the ``elements`` option takes them: fire (Feuer),
water (Wasser), air (Luft), ore (Erz), humus (Humus), ice (Eis).

>>> card_text(0), card_text(9), card_text(71)
('fire-ace', 'fire-seer', 'ice-prince')
>>> parse_card("Eis-Weissagerin") == parse_card("ICE-SEER") == 5 * 12 + SEER
True
"""

from __future__ import annotations

ELEMENTS: tuple[str, ...] = ("fire", "water", "air", "ore", "humus", "ice")
#: The German spellings accepted on input (``Eis-Weissagerin``); the names a
#: person reads come from the catalog (``oracles.i18n``), not from here.
ELEMENTS_DE: tuple[str, ...] = ("Feuer", "Wasser", "Luft", "Erz", "Humus", "Eis")
RANKS: tuple[str, ...] = ("ace", "2", "3", "4", "5", "6", "7", "squire", "knight", "seer", "mage", "prince")
RANKS_DE: tuple[str, ...] = (
    "As",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "Knappin",
    "Ritter",
    "Weissagerin",
    "Magier",
    "Fürst",
)


CARDS_PER_ELEMENT = 12
MAX_ELEMENTS = len(ELEMENTS)
FULL_DECK = CARDS_PER_ELEMENT * MAX_ELEMENTS

ACE, SQUIRE, KNIGHT, SEER, MAGE, PRINCE = 0, 7, 8, 9, 10, 11

#: ``ELEMENT_OF[card]`` and ``RANK_OF[card]``: table look-ups for hot paths.
ELEMENT_OF: tuple[int, ...] = tuple(c // CARDS_PER_ELEMENT for c in range(FULL_DECK))
RANK_OF: tuple[int, ...] = tuple(c % CARDS_PER_ELEMENT for c in range(FULL_DECK))
#: Seer and mage: always playable, never of an element for following.
IS_SPECIAL: tuple[bool, ...] = tuple(RANK_OF[c] in (SEER, MAGE) for c in range(FULL_DECK))

CARD_TEXT: tuple[str, ...] = tuple(f"{ELEMENTS[ELEMENT_OF[c]]}-{RANKS[RANK_OF[c]]}" for c in range(FULL_DECK))


def _spellings() -> dict[str, int]:
    # German words and "1" for the ace are accepted on input only.
    element_words: dict[str, int] = {}
    for index, (en, de) in enumerate(zip(ELEMENTS, ELEMENTS_DE, strict=True)):
        element_words[en] = element_words[de.lower()] = index
    rank_words: dict[str, int] = {"1": ACE, "fuerst": PRINCE}
    for index, (en, de) in enumerate(zip(RANKS, RANKS_DE, strict=True)):
        rank_words[en] = rank_words[de.lower()] = index
    return {
        f"{e}-{r}": element * CARDS_PER_ELEMENT + rank
        for e, element in element_words.items()
        for r, rank in rank_words.items()
    }


_CARD_BY_TEXT: dict[str, int] = _spellings()


def card(element: int, rank: int) -> int:
    """The card of ``element`` (0 = fire) and ``rank`` (0 = ace)."""
    return element * CARDS_PER_ELEMENT + rank


def card_text(c: int) -> str:
    """The notation of card ``c``, e.g. ``fire-7``."""
    return CARD_TEXT[c]


def parse_card(text: str) -> int | None:
    """Read one card (case-insensitive; German words accepted); ``None`` if
    the text names no card."""
    return _CARD_BY_TEXT.get(text.strip().lower())


def is_normal(c: int) -> bool:
    """True for the cards that follow an element and rank by value."""
    return not IS_SPECIAL[c]
