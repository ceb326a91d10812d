"""The result of a game of Codename: Oracle: why it ends, who wins, and what
it is worth to each seat (``docs/rules/codename.md``).

A game ends in one of three ways, each named by its ``over`` event:

=========  ==========================================================
reason     when, and who wins
=========  ==========================================================
``code``   a guess names the opponent's whole code: the guesser wins
``life``   a life reached zero while an action was resolved: the seats
           not dealt lethal damage win (both dealt it: no winner)
``turns``  the last turn ended: drawn
=========  ==========================================================

A win is worth +1, a loss -1, a draw (no winner) 0 to both seats.

>>> life_winners(0b10), life_winners(0b11)
([0], [])
>>> returns(True, [1]), returns(True, []), returns(False, [])
([-1.0, 1.0], [0.0, 0.0], [0.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Sequence

#: The reasons a game ends, as its ``over`` event names them.
CODE, LIFE, TURNS = "code", "life", "turns"
END_REASONS = (CODE, LIFE, TURNS)

#: What a game is worth to a seat that wins it, loses it, or neither.
WIN, LOSS, DRAW = 1.0, -1.0, 0.0


def life_winners(lethal: int) -> list[int]:
    """The winners when a life reached zero: the seats not in ``lethal``
    (the bitmask of the seats dealt lethal damage by the action just
    resolved). Lethal damage counts when it is dealt, even if life is gained
    back afterwards."""
    return [seat for seat in range(2) if not lethal >> seat & 1]


def returns(over: bool, winners: Sequence[int]) -> list[float]:
    """Each seat's return: :data:`WIN` or :data:`LOSS` once the game is over
    with a winner, else :data:`DRAW` for both."""
    if not over or not winners:
        return [DRAW, DRAW]
    return [WIN if seat in winners else LOSS for seat in range(2)]
