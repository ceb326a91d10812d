"""A position evaluator for ``codename``: each seat's chance of winning.

Search bots that stop their rollouts early (ISMCTS ``horizon=turn``) score the
position they reach with :func:`win_chances`. It is a logistic model over a
few features that players weigh (lives, how close each seat is to guessing the
other's code, how much of its own face-down field each seat knows, cards in
hand, how close its field is to valuable sets by the heuristic policy's
measure, whose turn it is), fitted to the outcomes of heuristic self-play by
``tools/fit_codename_value.py``, which prints the ``WEIGHTS`` below.

The features of a seat read only :meth:`CodenameState.knowledge` of the two
seats of the *world* it is given: a search bot hands it worlds resampled from
its own information, so it never sees a card its seat has not seen.
"""

from __future__ import annotations

import math

from oracles.core.game import State
from oracles.games.codename.knowledge import CodenameKnowledge
from oracles.games.codename.policy import _Seat
from oracles.games.codename.rules import CodenameState

#: Names of the features, in the order of :func:`side` and ``WEIGHTS`` (the
#: last, ``to_act``, is +1 when the seat is to act, -1 when its opponent is).
FEATURES = (
    "life",
    "life_up_to_3",
    "life_at_most_2",
    "code_bits_to_find",
    "sure_guess",
    "code_slots_unknown",
    "field_known",
    "hand",
    "set_potential",
    "to_act",
)

#: Logistic weights of the feature differences (seat minus opponent), from
#: ``tools/fit_codename_value.py --games 1500``: 25,894 positions; held-out
#: log loss 0.610 (a coin's is 0.693), the winner called right 66% of the time.
#: Checked again after the rulebook rulings of issue 14 (one peek of two cards,
#: answered wave-focus strikes...): on 1,000 new games (20,154 positions) these
#: weights score 0.603 held out (67.1% right), a fresh fit 0.604, so they stay.
WEIGHTS = (0.2110, -0.2052, -0.3370, -0.0077, 2.0483, -0.4589, 0.8404, 0.0508, 0.1997, 0.5787)


def _code_to_find(code: tuple[int, ...], excluded: tuple[int, ...]) -> float:
    """Bits of the opponent's code still unknown: log2 of the codes left."""
    bits = 0.0
    for slot, mask in enumerate(excluded):
        # Before the codes are laid, every slot is still to find.
        if slot >= len(code) or code[slot] < 0:
            bits += math.log2(max(1, 5 - mask.bit_count()))
    return bits


def side(k: CodenameKnowledge) -> list[float]:
    """One seat's features from its knowledge (all but ``to_act``)."""
    life = k.life[k.seat]
    seat = _Seat(k)
    to_find = _code_to_find(k.opp_code, k.opp_excluded)
    down = known = 0
    for cell, symbol in enumerate(k.field):
        if symbol == -2 or k.up >> cell & 1:
            continue
        down += 1
        known += symbol >= 0
    unknown = sum(1 for symbol in k.opp_code if symbol < 0) + 5 - len(k.opp_code)
    return [
        float(life),
        float(min(life, 3)),
        1.0 if life <= 2 else 0.0,
        to_find,
        2.0**-to_find,
        float(unknown),
        known / down if down else 1.0,
        float(len(k.hand)),
        min(5.0, seat.potential(seat.known)),
    ]


def difference(mine: CodenameKnowledge, theirs: CodenameKnowledge, to_act: bool) -> list[float]:
    """The features of the seat of ``mine`` over the seat of ``theirs``."""
    diff = [a - b for a, b in zip(side(mine), side(theirs), strict=True)]
    diff.append(1.0 if to_act else -1.0)
    return diff


def features(world: State, seat: int) -> list[float]:
    """The feature differences of ``seat`` over its opponent in ``world``."""
    assert isinstance(world, CodenameState)
    return difference(world.knowledge(seat), world.knowledge(1 - seat), world.current_player() == seat)


def win_chances(world: State) -> list[float]:
    """Seat 0's and seat 1's chance of winning from ``world`` (they sum to 1)."""
    if world.is_terminal():
        winners = world.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(2)] if winners else [0.5, 0.5]
    z = sum(w * f for w, f in zip(WEIGHTS, features(world, 0), strict=True))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return [p, 1.0 - p]


def turn(world: State) -> int:
    """The number of the turn being played in ``world``."""
    assert isinstance(world, CodenameState)
    return world.turn_number
