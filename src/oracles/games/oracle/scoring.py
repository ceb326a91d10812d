"""Scoring a round of Oracle: the Loser forfeit, the prophecies, the points.

Chips are counted in flat lists: ``held[seat * 3 + creature]`` victory point
chips, ``middle[creature]`` left in the middle, ``loser_holder[creature]``
the seat holding that creature's Loser chip (:data:`NOBODY`: the middle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from oracles.games.oracle.cards import STARS
from oracles.games.oracle.prophecies import Edition, Prophecy, Term

#: A prophecy's test: whether it holds for ``seat`` given every seat's
#: quantity vector and the number of seats (see :func:`compiled_tests`).
ProphecyTest = Callable[[Sequence[Sequence[int]], int, int], bool]

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
    # Written out: every rollout of a search ends by scoring a round.
    first, second, third = STARS
    hydra, pegasus, phoenix = loser_holder
    result = []
    for seat in range(players):
        at = seat * 3
        a, b, c = held[at], held[at + 1], held[at + 2]
        x, y, z = int(hydra == seat), int(pegasus == seat), int(phoenix == seat)
        losers = x + y + z
        count = a + b + c
        result.append([a, b, c, x, y, z, losers, count, count + losers, a * first + b * second + c * third])
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
    if holds is None:
        holds = prophecies_hold(quantities, kept, edition)
    return points_of(quantities, kept, edition, holds)


def points_of(
    quantities: Sequence[Sequence[int]],
    kept: Sequence[Sequence[int]],
    edition: Edition,
    holds: Sequence[Sequence[bool]],
) -> list[int]:
    """:func:`round_points` given :func:`prophecies_hold` already worked out."""
    cards = edition.cards
    points = []
    for seat, (pair, held_pair) in enumerate(zip(kept, holds, strict=True)):
        total = quantities[seat][9]
        for card, held in zip(pair, held_pair, strict=True):
            if held:
                total += cards[card].points
        points.append(total)
    return points


def _term_reader(term: Term) -> Callable[[Sequence[Sequence[int]], int, int], int]:
    scope, index = term
    if scope == "int":
        return lambda quantities, seat, n: index
    if scope == "self":
        return lambda quantities, seat, n: quantities[seat][index]
    if scope == "left":
        return lambda quantities, seat, n: quantities[(seat + 1) % n][index]
    if scope == "right":
        return lambda quantities, seat, n: quantities[(seat - 1) % n][index]
    pick = min if scope == "others_min" else max
    return lambda quantities, seat, n: pick([quantities[other][index] for other in range(n) if other != seat])


def _compiled_clause(compare: Callable[[int, int], bool], left: Term, right: Term) -> ProphecyTest:
    # Nearly every clause of the shipped editions compares one of the seat's
    # own quantities with a number or a quantity of its own or of a
    # neighbour: those read it in one function (a round's end in every
    # rollout scores with these); the rest (the others' least or most, a
    # number on the left) go through a reader for each side.
    scope, index = left
    other_scope, other = right
    if scope == "self":
        if other_scope == "int":
            return lambda quantities, seat, n: compare(quantities[seat][index], other)
        if other_scope == "self":
            return lambda quantities, seat, n: compare(quantities[seat][index], quantities[seat][other])
        if other_scope == "left":
            return lambda quantities, seat, n: compare(
                quantities[seat][index], quantities[(seat + 1) % n][other]
            )
        if other_scope == "right":
            return lambda quantities, seat, n: compare(
                quantities[seat][index], quantities[(seat - 1) % n][other]
            )
    read_left, read_right = _term_reader(left), _term_reader(right)
    return lambda quantities, seat, n: compare(
        read_left(quantities, seat, n), read_right(quantities, seat, n)
    )


def _compiled_test(card: Prophecy) -> ProphecyTest:
    clauses = [_compiled_clause(compare, left, right) for compare, left, right in card.clauses]
    if len(clauses) == 1:
        return clauses[0]
    if len(clauses) == 2:
        first, second = clauses
        return lambda quantities, seat, n: first(quantities, seat, n) and second(quantities, seat, n)

    def holds(quantities: Sequence[Sequence[int]], seat: int, n: int) -> bool:
        return all(clause(quantities, seat, n) for clause in clauses)

    return holds


def compiled_tests(edition: Edition) -> tuple[ProphecyTest, ...]:
    """Each card's :meth:`Prophecy.holds` as one function of ``(quantities,
    seat, n)``, its terms read without interpreting the clauses each time
    (the rules build them once per game and check every round with them).

    >>> from oracles.games.oracle.prophecies import chip_quantities, default_edition
    >>> edition = default_edition()
    >>> tests = compiled_tests(edition)
    >>> quantities = [chip_quantities(hydra=1, pegasus=2, phoenix=1), chip_quantities()]
    >>> [tests[card](quantities, 0, 2) for card in range(40)] == [c.holds(quantities, 0) for c in edition.cards]
    True
    """
    tests = edition.derived.get("compiled_tests")
    if tests is None:
        # Once per edition: a table in the server's memory would otherwise
        # carry its own 40 sets of closures (about 30 KiB).
        tests = edition.derived["compiled_tests"] = tuple(_compiled_test(card) for card in edition.cards)
    return cast(tuple[ProphecyTest, ...], tests)


def card_points(edition: Edition) -> tuple[int, ...]:
    """Each card's points in ``edition`` (``card_points(edition)[card]``),
    made once per edition like :func:`compiled_tests`.

    >>> from oracles.games.oracle.prophecies import default_edition
    >>> card_points(default_edition())[4]  # O05
    9
    """
    points = edition.derived.get("card_points")
    if points is None:
        points = edition.derived["card_points"] = tuple(card.points for card in edition.cards)
    return cast(tuple[int, ...], points)


def prophecies_hold_by(
    tests: Sequence[ProphecyTest], quantities: Sequence[Sequence[int]], kept: Sequence[Sequence[int]]
) -> list[list[bool]]:
    """:func:`prophecies_hold` with the edition's :func:`compiled_tests`."""
    n = len(quantities)
    return [[tests[card](quantities, seat, n) for card in pair] for seat, pair in enumerate(kept)]


def score_kept(
    tests: Sequence[ProphecyTest],
    card_points: Sequence[int],
    quantities: Sequence[Sequence[int]],
    kept: Sequence[Sequence[int]],
) -> tuple[list[list[bool]], list[int]]:
    """:func:`prophecies_hold_by` and :func:`points_of` in one pass, given
    each card's points (``card_points[card]``, the edition's at this player
    count): every seat's holds and its points for the round.

    The rulebook's example of :func:`round_points`:

    >>> from oracles.games.oracle.prophecies import default_edition
    >>> edition = default_edition()
    >>> quantities = seat_quantities([0, 2, 1, 0, 0, 0, 0, 0, 0], [0, -1, -1], 3)  # after the forfeit
    >>> score_kept(compiled_tests(edition), card_points(edition), quantities, [(4, 11), (0, 1), (2, 3)])
    ([[True, False], [False, False], [False, False]], [17, 0, 0])
    """
    n = len(quantities)
    holds = []
    totals = []
    for seat, pair in enumerate(kept):
        total = quantities[seat][9]
        held_pair = []
        for card in pair:
            held = tests[card](quantities, seat, n)
            held_pair.append(held)
            if held:
                total += card_points[card]
        holds.append(held_pair)
        totals.append(total)
    return holds, totals
