"""The Codename position evaluator: symmetric, exact at the end, and
pointing the right way on what players value."""

from __future__ import annotations

import math
import random
from typing import cast

from oracles.core.game import State
from oracles.core.registry import load_game
from oracles.games.codename.actions import GUESS_BASE
from oracles.games.codename.evaluator import FEATURES, WEIGHTS, difference, features, win_chances
from oracles.games.codename.rules import CodenameState
from oracles.testing import decision_positions


def positions(count: int, seed: int = 0) -> list[CodenameState]:
    """Positions from random games that do not guess (guesses end games early)."""

    def no_guess(state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        return rng.choice([a for a in legal if not GUESS_BASE <= a < GUESS_BASE + 3125] or legal)

    states = decision_positions(load_game("codename"), count, seed, move=no_guess)
    return cast(list[CodenameState], states)


def chance(diff: list[float]) -> float:
    return 1 / (1 + math.exp(-sum(w * f for w, f in zip(WEIGHTS, diff, strict=True))))


def test_one_weight_per_feature() -> None:
    assert len(WEIGHTS) == len(FEATURES)


def test_the_two_seats_see_the_same_position_from_both_sides() -> None:
    for state in positions(30):
        assert features(state, 0) == [-x for x in features(state, 1)]
        p0, p1 = win_chances(state)
        assert p0 + p1 == 1.0


def test_finished_games_score_exactly() -> None:
    rng = random.Random(3)
    state = load_game("codename", max_turns=30).new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    winners = state.winners()
    expected = [1.0 / len(winners) if s in winners else 0.0 for s in range(2)] if winners else [0.5, 0.5]
    assert win_chances(state) == expected


def test_more_life_and_more_of_the_code_known_are_better() -> None:
    state = positions(1, seed=5)[0]
    mine, theirs = state.knowledge(0), state.knowledge(1)
    base = chance(difference(mine, theirs, True))
    hurt = theirs._replace(life=(mine.life[0], max(1, theirs.life[1] - 3)))
    assert chance(difference(mine, hurt, True)) > base
    # Knowing every slot of the opponent's code (and being to move) nearly wins.
    solved = mine._replace(opp_code=tuple(range(5)))
    assert chance(difference(solved, theirs, True)) > max(base, 0.75)
