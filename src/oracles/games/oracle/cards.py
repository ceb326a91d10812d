"""Playing cards, creatures, chips and the trick winner of Oracle.

A playing card is an ``int`` from 0 to 59: ``colour * 12 + (value - 1)``, the
colours in the order ``R B G Y P``. That order is also the canonical order in
which hands are written.

================  =======  =========================  ==========
creature          values   victory point chips        stars each
================  =======  =========================  ==========
Hydra (0)         1–5      3 (2 with 5 players)       5
Pegasus (1)       6–9      4 (3 with 5 players)       3
Phoenix (2)       10–12    6 (5 with 5 players)       2
================  =======  =========================  ==========

Each creature also has one Loser chip.

>>> card_name(parse_card("b7"))
'B7'
>>> CREATURE_NAMES[creature_of(parse_card("R11"))]
'phoenix'
>>> trick_winner([parse_card(c) for c in ("B7", "B10", "R11")])
(2, 'highest value')
"""

from __future__ import annotations

from collections.abc import Sequence

COLOURS = "RBGYP"
NUM_COLOURS = 5
NUM_VALUES = 12
NUM_CARDS = NUM_COLOURS * NUM_VALUES

#: English names of the colours, by colour letter, for the rules' own
#: messages (what people read comes from the catalog).
COLOUR_NAMES: dict[str, str] = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "purple"}

HYDRA, PEGASUS, PHOENIX = 0, 1, 2
CREATURES = (HYDRA, PEGASUS, PHOENIX)
#: Machine names of the creatures (used in views and prophecy conditions).
CREATURE_NAMES = ("hydra", "pegasus", "phoenix")
#: Stars on one victory point chip of each creature.
STARS = (5, 3, 2)
#: Victory point chips of each creature in play, by number of players.
VICTORY_CHIPS = {3: (3, 4, 6), 4: (3, 4, 6), 5: (2, 3, 5)}

#: Cards in each hand, by number of players.
HAND_SIZE = {3: 16, 4: 15, 5: 12}

#: Creature of each value index (value - 1).
VALUE_CREATURE = (HYDRA,) * 5 + (PEGASUS,) * 4 + (PHOENIX,) * 3
#: Lowest and highest value of each creature, by machine name.
CREATURE_RANGES: dict[str, tuple[int, int]] = {
    name: (VALUE_CREATURE.index(creature) + 1, NUM_VALUES - VALUE_CREATURE[::-1].index(creature))
    for creature, name in enumerate(CREATURE_NAMES)
}
#: Creature of each card int.
CARD_CREATURE = tuple(VALUE_CREATURE[card % NUM_VALUES] for card in range(NUM_CARDS))
#: Bit mask of the cards of each colour.
COLOUR_MASK = tuple(((1 << NUM_VALUES) - 1) << (colour * NUM_VALUES) for colour in range(NUM_COLOURS))


def card_colour(card: int) -> int:
    """Colour index (0..4) of ``card``."""
    return card // NUM_VALUES


def card_value(card: int) -> int:
    """Value (1..12) of ``card``."""
    return card % NUM_VALUES + 1


def creature_of(card: int) -> int:
    """Creature pictured on ``card`` (``HYDRA``, ``PEGASUS`` or ``PHOENIX``)."""
    return CARD_CREATURE[card]


def card_name(card: int) -> str:
    """Upper-case name such as ``R12`` or ``B7``."""
    return f"{COLOURS[card // NUM_VALUES]}{card % NUM_VALUES + 1}"


CARD_NAMES = tuple(card_name(card) for card in range(NUM_CARDS))


def parse_card(token: str) -> int:
    """Read a card name, any case (``r12``, ``B07``); ``ValueError`` if it is none."""
    text = token.strip().upper()
    if len(text) < 2 or text[0] not in COLOURS or not text[1:].isdigit():
        raise ValueError(f"{token!r} is not a card (colour R, B, G, Y or P and a value 1-12)")
    value = int(text[1:])
    if not 1 <= value <= NUM_VALUES:
        raise ValueError(f"{token!r} is not a card (values run from 1 to 12)")
    return COLOURS.index(text[0]) * NUM_VALUES + value - 1


def cards_of_mask(mask: int) -> list[int]:
    """The cards of a bit mask, ascending."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def _colour_cards() -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for colour in range(NUM_COLOURS):
        row: list[tuple[int, ...]] = [()]
        for value in range(NUM_VALUES):
            card = colour * NUM_VALUES + value
            row += [(*cards, card) for cards in row]  # bit ``value`` set: the rows so far plus ``card``
        table.append(tuple(row))
    return tuple(table)


#: ``COLOUR_CARDS[colour][bits]``: the cards of ``colour``, ascending, whose
#: value bits (``1 << (value - 1)``) are set in the 12-bit ``bits``; a hand's
#: cards without looping over its bits (the hot path of random play).
COLOUR_CARDS = _colour_cards()
#: The 12 bits of one colour.
COLOUR_BITS = (1 << NUM_VALUES) - 1


def legal_play_list(hand: int, first_card: int | None) -> list[int]:
    """``cards_of_mask(legal_plays(hand, first_card))``, by table lookups.

    >>> hand = (1 << parse_card("B3")) | (1 << parse_card("R5")) | (1 << parse_card("P12"))
    >>> [card_name(c) for c in legal_play_list(hand, parse_card("R12"))]
    ['R5']
    >>> [card_name(c) for c in legal_play_list(hand, parse_card("G1"))]
    ['R5', 'B3', 'P12']
    """
    if first_card is not None:
        colour = first_card // NUM_VALUES
        follow = COLOUR_CARDS[colour][hand >> (colour * NUM_VALUES) & COLOUR_BITS]
        if follow:
            return list(follow)
    r, b, g, y, p = COLOUR_CARDS
    return [
        *r[hand & 4095],
        *b[hand >> 12 & 4095],
        *g[hand >> 24 & 4095],
        *y[hand >> 36 & 4095],
        *p[hand >> 48],
    ]


def legal_plays(hand: int, first_card: int | None) -> int:
    """The cards of ``hand`` (a bit mask) that may be played to a trick led
    with ``first_card`` (``None``: leading): the led colour if the hand holds
    any, otherwise every card.

    >>> hand = (1 << parse_card("B3")) | (1 << parse_card("R5"))
    >>> [card_name(c) for c in cards_of_mask(legal_plays(hand, parse_card("R12")))]
    ['R5']
    >>> [card_name(c) for c in cards_of_mask(legal_plays(hand, parse_card("G1")))]
    ['R5', 'B3']
    """
    if first_card is None:
        return hand
    follow = hand & COLOUR_MASK[first_card // NUM_VALUES]
    return follow or hand


def trick_winner(cards: Sequence[int], led: int | None = None) -> tuple[int, str]:
    """Index in ``cards`` (in play order) of the card that wins, and why.

    ``led`` is the led colour; by default the colour of the first card. The
    reason is one of ``"highest value"``, ``"1 beats 12"``, ``"led colour wins
    the tie"`` and ``"first played wins the tie"``.

    >>> names = lambda *texts: [parse_card(t) for t in texts]
    >>> trick_winner(names("R12", "R1", "B2"))
    (1, '1 beats 12')
    >>> trick_winner(names("B7", "R10", "B10"))
    (2, 'led colour wins the tie')
    >>> trick_winner(names("B12", "G1", "R1"))
    (1, 'first played wins the tie')
    """
    if led is None:
        led = cards[0] // NUM_VALUES
    values = [card % NUM_VALUES for card in cards]  # value - 1
    if NUM_VALUES - 1 in values and 0 in values:
        best, alone = 0, "1 beats 12"
    else:
        best, alone = max(values), "highest value"
    first = values.index(best)
    if values.count(best) == 1:
        return first, alone
    for index in range(first, len(cards)):
        if values[index] == best and cards[index] // NUM_VALUES == led:
            return index, "led colour wins the tie"
    return first, "first played wins the tie"
