"""Scoring a round of Oracle: the Loser forfeit, the prophecies, the points.

Chips are counted in flat lists: ``held[seat * 3 + creature]`` victory point
chips, ``middle[creature]`` left in the middle, ``loser_holder[creature]``
the seat holding that creature's Loser chip (:data:`NOBODY`: the middle).
"""

from __future__ import annotations

from collections.abc import Sequence

from oracles.games.oracle.cards import STARS
from oracles.games.oracle.prophecies import Edition

#: No seat: a Loser chip lying in the middle, no dealer yet, nobody to act.
NOBODY = -1


def forfeit_loser_chips(held: list[int], middle: list[int], loser_holder: Sequence[int]) -> None:
    """End of round: each Loser chip holder puts back its victory point chips
    of that creature (``held[seat * 3 + creature]``, in place)."""
    for creature, holder in enumerate(loser_holder):
        if holder != NOBODY:
            middle[creature] += held[holder * 3 + creature]
            held[holder * 3 + creature] = 0


def seat_quantities(held: Sequence[int], loser_holder: Sequence[int], players: int) -> list[list[int]]:
    """Every seat's quantity vector (:data:`.prophecies.QUANTITIES`) from the
    victory point chips held (``held[seat * 3 + creature]``) and the holder of
    each Loser chip (-1: the middle)."""
    result = []
    for seat in range(players):
        victory = held[seat * 3 : seat * 3 + 3]
        losers = [1 if holder == seat else 0 for holder in loser_holder]
        count = sum(victory)
        stars = victory[0] * STARS[0] + victory[1] * STARS[1] + victory[2] * STARS[2]
        result.append([*victory, *losers, sum(losers), count, count + sum(losers), stars])
    return result


def prophecies_hold(
    quantities: Sequence[Sequence[int]], kept: Sequence[Sequence[int]], edition: Edition
) -> list[list[bool]]:
    """For each seat, whether each of its kept Oracle cards holds."""
    cards = edition.cards
    return [[cards[card].holds(quantities, seat) for card in pair] for seat, pair in enumerate(kept)]


def round_points(
    quantities: Sequence[Sequence[int]],
    kept: Sequence[Sequence[int]],
    edition: Edition,
    holds: Sequence[Sequence[bool]] | None = None,
) -> list[int]:
    """Each seat's points for a round: the stars it keeps plus the points of
    each kept Oracle card whose prophecy holds (after the forfeit). ``holds``:
    :func:`prophecies_hold` of the same, if the caller has it already.

    The rulebook's example: 2 Pegasus, 1 Phoenix and 1 Hydra chip with the
    Hydra Loser chip, keeping O05 and O12, scores 8 + 9 = 17.

    >>> from oracles.games.oracle.prophecies import default_edition
    >>> held = [1, 2, 1, 0, 0, 0, 0, 0, 0]
    >>> middle = [0, 0, 0]
    >>> forfeit_loser_chips(held, middle, [0, -1, -1])
    >>> round_points(seat_quantities(held, [0, -1, -1], 3), [(4, 11), (0, 1), (2, 3)], default_edition())
    [17, 0, 0]
    """
    cards = edition.cards
    points = []
    if holds is None:
        holds = prophecies_hold(quantities, kept, edition)
    for seat, (pair, held_by_card) in enumerate(zip(kept, holds, strict=True)):
        total = quantities[seat][9]
        for card, held in zip(pair, held_by_card, strict=True):
            if held:
                total += cards[card].points
        points.append(total)
    return points
