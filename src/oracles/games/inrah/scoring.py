"""Scoring Inrah-Orakel: the points of one round (bids, Purpurberg teams and
Altaïa oracles); a game's score is the sum of its rounds' points.

>>> bid_points(4, 1), bid_points(4, 7), bid_points(4, 4)
(-30, -30, 60)
>>> team_points(2, 1, 3, 4)
0
>>> [misses_points(4, t) for t in (2, 3, 4)]
[-20, -10, -80]
"""

from __future__ import annotations

from collections.abc import Sequence

from oracles.games.inrah.constants import ALTAIA, EFFERD_MAKES, HESINDE_KIND, PURPURBERG


def partner(seat: int, players: int) -> int:
    """Purpurberg: the partner of ``seat``, who sits opposite.

    >>> partner(1, 4), partner(4, 6)
    (3, 1)
    """
    return (seat + players // 2) % players


def team(seat: int, players: int) -> int:
    """Purpurberg: the team of ``seat``, 0 to ``players / 2 - 1`` (partners
    share it).

    >>> [team(s, 6) for s in range(6)]
    [0, 1, 2, 0, 1, 2]
    """
    return seat % (players // 2)


def bid_points(bid: int, tricks: int) -> int:
    """Exact: 20 plus 10 per trick; otherwise minus 10 per trick of difference."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


def team_points(bid1: int, tricks1: int, bid2: int, tricks2: int) -> int:
    """Purpurberg: both exact gains both usual gains; otherwise the team loses
    10 per trick between the summed bids and the summed tricks."""
    if bid1 == tricks1 and bid2 == tricks2:
        return bid_points(bid1, tricks1) + bid_points(bid2, tricks2)
    return -10 * abs((bid1 + bid2) - (tricks1 + tricks2))


def makes_points(k: int, tricks: int) -> int:
    """Hesinde, or Efferd *makes*: the named seat takes exactly ``k`` tricks."""
    return bid_points(k, tricks)


def misses_points(k: int, tricks: int) -> int:
    """Phex, or Efferd *misses*: the named seat does not take ``k`` tricks.
    Never a gain: right costs 10 per trick of difference, wrong costs 20·k."""
    if tricks != k:
        return -10 * abs(k - tricks)
    return -20 * k


def round_points(
    variant: str,
    bids: Sequence[int],
    oracles: Sequence[Sequence[tuple[int, int, int]]],
    taken: Sequence[int],
) -> list[int]:
    """Each seat's points for a round with these tricks ``taken``: its bid
    (``standard``), its team's bids (``purpurberg``, opposite seats), or the
    sum of its oracles ``(kind, seat named, k)`` (``altaia``)."""
    n = len(taken)
    if variant == ALTAIA:
        points = []
        for seat in range(n):
            total = 0
            for kind, target, k in oracles[seat]:
                if kind in (HESINDE_KIND, EFFERD_MAKES):
                    total += makes_points(k, taken[target])
                else:
                    total += misses_points(k, taken[target])
            points.append(total)
        return points
    if variant == PURPURBERG:
        return [team_points(bids[s], taken[s], bids[partner(s, n)], taken[partner(s, n)]) for s in range(n)]
    return [bid_points(bids[s], taken[s]) for s in range(n)]
