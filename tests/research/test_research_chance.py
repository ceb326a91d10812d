"""The step-by-step chance hook draws with the same odds as ``sample_chance``.

For each kind of chance node that cannot be listed, chance actions are made
both ways (uniform draws without replacement packed by ``chance_from_draws``,
and ``sample_chance``) and the marginal distribution of the item in several
slots of their canonical drawing order (``chance_draws_of``) is compared.
Needs no research framework.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

import oracles
from oracles.core.game import State

SAMPLES = 1500


def node(game_id: str, options: dict, phase_steps: int) -> State:
    """The state after ``phase_steps`` chance actions (player turns played at random)."""
    state = oracles.load_game(game_id, **options).new_initial_state()
    rng = random.Random(1)
    chance = 0
    while True:
        if state.is_chance_node():
            if chance == phase_steps:
                return state
            chance += 1
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


CASES = [
    ("oracle deal", "oracle", {"players": 3, "rounds": 1}, 1),
    ("oracle oracles", "oracle", {"players": 3, "rounds": 1}, 2),
    ("oracle draft", "oracle", {"players": 5, "rounds": 1, "draft": True}, 2),
    ("inrah deal", "inrah", {"players": 3, "rounds": 2}, 3),
    ("codename shuffle", "codename", {}, 0),
]


@pytest.mark.parametrize(("name", "game_id", "options", "steps"), CASES, ids=[c[0] for c in CASES])
def test_draws_match_sample_chance(name: str, game_id: str, options: dict, steps: int) -> None:
    state = node(game_id, options, steps)
    draws = state.chance_draws()
    assert draws is not None, name
    items, slots = draws
    rng = random.Random(f"draws:{name}")
    by_draws = [
        state.chance_draws_of(state.chance_from_draws(rng.sample(items, slots))) for _ in range(SAMPLES)
    ]
    by_sample = [state.chance_draws_of(state.sample_chance(rng)) for _ in range(SAMPLES)]
    for slot in sorted({0, 1, slots // 2, slots - 1}):
        for item in sorted(set(items)):
            p1 = sum(seq[slot] == item for seq in by_draws) / SAMPLES
            p2 = sum(seq[slot] == item for seq in by_sample) / SAMPLES
            p = (p1 + p2) / 2
            sigma = math.sqrt(max(2 * p * (1 - p) / SAMPLES, 1e-9))
            assert abs(p1 - p2) <= 5 * sigma + 1e-9, f"{name} slot {slot} item {item}: {p1:.3f} vs {p2:.3f}"


def test_listed_nodes_have_no_draws() -> None:
    state = oracles.load_game("inrah", players=3, rounds=2).new_initial_state()
    assert state.chance_draws() is None and len(state.chance_outcomes()) == 3  # dealer
    rng = random.Random(0)
    state.apply_action(state.sample_chance(rng))
    state.apply_action(state.sample_chance(rng))  # the deal of round 1
    assert state.chance_draws() is None  # trump: listed
    assert len(state.chance_outcomes()) == 36 - 3


def test_consistency_suite_catches_a_broken_hook() -> None:
    from oracles.core.codec import pack
    from oracles.games.inrah.rules import InrahGame, InrahState
    from oracles.testing import check_game

    class UnsortedState(InrahState):
        def chance_from_draws(self, drawn: Sequence[int]) -> int:
            return pack(drawn, self.game.deck_size)  # hands left unsorted: not a legal deal

    class NoInverseState(InrahState):
        def chance_draws_of(self, action: int) -> list[int]:
            return sorted(super().chance_draws_of(action), reverse=True)

    for state_cls, message in ((UnsortedState, "refused"), (NoInverseState, "does not invert")):

        class Broken(InrahGame):
            def new_initial_state(self) -> InrahState:
                return state_cls(self)  # noqa: B023

        with pytest.raises(AssertionError, match=message):
            check_game(Broken(players=3, rounds=3), playouts=1, schema=False)
