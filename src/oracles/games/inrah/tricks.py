"""Following and trick winning: pure functions over card ints.

``NO_LED`` means no element has been set yet (no card, or only mages, so far);
``FREE`` means a seer came before any normal card, so the trick has nothing
to follow at all. Otherwise the led element is an element index.

>>> from oracles.games.inrah.cards import parse_card
>>> cards = [parse_card(t) for t in ("water-mage", "fire-ace", "fire-2", "water-prince")]
>>> trick_winner(cards, trump=0)
(2, 'highest trump')
>>> trick_winner(cards, trump=-1)
(2, 'highest of the led element')
"""

from __future__ import annotations

from collections.abc import Sequence

from oracles.games.inrah.cards import ELEMENT_OF, IS_SPECIAL, RANK_OF, SEER

NO_LED = -1
FREE = -2

FIRST_SEER = "first seer"
HIGHEST_TRUMP = "highest trump"
HIGHEST_LED = "highest of the led element"
ONLY_MAGES = "only mages: first mage"


def _led_by(played: int) -> int:
    if RANK_OF[played] == SEER:
        return FREE
    if IS_SPECIAL[played]:
        return NO_LED
    return ELEMENT_OF[played]


#: For each card, the led state it sets in a trick that has none yet: one
#: lookup for each card played in a playout.
LED_BY: tuple[int, ...] = tuple(_led_by(c) for c in range(len(ELEMENT_OF)))


def next_led(led: int, played: int) -> int:
    """The led state after ``played`` joins a trick whose led state is ``led``."""
    return LED_BY[played] if led == NO_LED else led


def led_element(cards: Sequence[int]) -> int:
    """The led state of a trick holding ``cards`` in play order: an element,
    ``NO_LED`` or ``FREE``."""
    led = NO_LED
    for c in cards:
        led = next_led(led, c)
    return led


#: Per element: for each card, whether it is a normal card of that element
#: (one that must be followed); one lookup per card on the search hot path.
FOLLOWS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(ELEMENT_OF[c] == element and not IS_SPECIAL[c] for c in range(len(ELEMENT_OF)))
    for element in range(max(ELEMENT_OF) + 1)
)


def must_follow(hand: Sequence[int], led: int) -> bool:
    """True when ``hand`` holds a normal card of the led element ``led``."""
    if led < 0:
        return False
    follows = FOLLOWS[led]
    # A plain loop: any() over a generator is slower on this hot path.
    for c in hand:  # noqa: SIM110
        if follows[c]:
            return True
    return False


def legal_plays(hand: Sequence[int], led: int) -> list[int]:
    """The cards of ``hand`` (kept in its order) that may be played when the
    trick's led state is ``led``: a player holding a normal card of the led
    element plays one of those, or a seer or a mage.

    >>> legal_plays([2, 14, 6, 21], 0)  # two of element 0, a seer of element 1
    [2, 6, 21]
    >>> legal_plays([14, 21], 0)  # nothing of element 0 to follow
    [14, 21]
    """
    if led < 0:
        return list(hand)
    follows = FOLLOWS[led]
    for c in hand:
        if follows[c]:
            return [c for c in hand if follows[c] or IS_SPECIAL[c]]
    return list(hand)


def trick_winner(cards: Sequence[int], trump: int) -> tuple[int, str]:
    """Who wins a complete trick: ``(position in play order, why)``.

    ``trump`` is the trump element, or a negative number when there is none.
    The first seer wins; else the highest normal trump card; else the
    highest normal card of the led element; if only mages were played, the
    first mage.
    """
    best = -1
    best_rank = -1
    led = NO_LED
    for position, c in enumerate(cards):
        rank = RANK_OF[c]
        if rank == SEER:
            return position, FIRST_SEER
        if led == NO_LED and not IS_SPECIAL[c]:
            led = ELEMENT_OF[c]
    if trump >= 0:
        for position, c in enumerate(cards):
            if ELEMENT_OF[c] == trump and not IS_SPECIAL[c] and RANK_OF[c] > best_rank:
                best, best_rank = position, RANK_OF[c]
        if best >= 0:
            return best, HIGHEST_TRUMP
    if led == NO_LED:
        return 0, ONLY_MAGES
    for position, c in enumerate(cards):
        if ELEMENT_OF[c] == led and not IS_SPECIAL[c] and RANK_OF[c] > best_rank:
            best, best_rank = position, RANK_OF[c]
    return best, HIGHEST_LED
