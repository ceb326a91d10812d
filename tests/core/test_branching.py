"""Branching a finished record: its chance actions, a position after V
actions, chance that follows a plan where still legal, per-round points."""

from __future__ import annotations

import random

import pytest

from oracles.core.errors import RecordError
from oracles.core.records import (
    PlannedChance,
    chance_actions,
    position_after,
    replay_record,
    round_points,
)
from oracles.core.registry import load_game

OPTION_SETS = [
    ("oracle", {}),
    ("oracle", {"players": 3}),
    ("inrah", {"players": 4}),
    ("inrah", {"players": 3, "variant": "altaia"}),
]


def random_game(game_id, options, seed, chance=None):
    state = load_game(game_id, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance.draw(state, rng) if chance else state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return state


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS)
def test_same_deals_other_play_gives_the_origin_chance(game_id, options):
    origin = random_game(game_id, options, seed=1).record()
    planned = chance_actions(origin)
    assert planned and planned[0].startswith("dealer")
    copy = random_game(game_id, options, seed=2, chance=PlannedChance(planned)).record()
    assert chance_actions(copy) == planned
    assert copy["actions"] != origin["actions"]  # other play, same deals
    rows = round_points(copy)
    assert len(rows) == len(round_points(origin))
    totals = [sum(column) for column in zip(*rows, strict=True)]
    assert totals == replay_record(copy).scores()


def test_a_plan_that_no_longer_fits_draws_fresh():
    state = load_game("inrah", players=4).new_initial_state()
    chance = PlannedChance(["dealer 9", "trump fire-2"])  # no seat 9; a trump where a deal is due
    rng = random.Random(3)
    state.apply_action(chance.draw(state, rng))
    assert state.history()[0] in range(4)
    state.apply_action(chance.draw(state, rng))
    assert chance.used == 2
    assert state.record()["actions"][1].startswith("deal")


def test_position_after_and_the_chance_after_it():
    origin = random_game("oracle", {}, seed=4).record()
    at = position_after(origin, 12)
    assert at.record()["actions"] == origin["actions"][:12]
    later = chance_actions(origin, start=12)
    assert (
        later == chance_actions(origin)[len(chance_actions({**origin, "actions": origin["actions"][:12]})) :]
    )
    with pytest.raises(RecordError):
        position_after(origin, len(origin["actions"]) + 1)
    with pytest.raises(RecordError):
        position_after(origin, -1)


def test_round_points_one_row_per_deal():
    origin = random_game("inrah", {"players": 4}, seed=5).record()
    rows = round_points(origin)
    game = load_game("inrah", players=4)
    dealt = [text for text in chance_actions(origin) if text.startswith("deal ")]
    assert len(rows) == len(dealt)
    assert all(len(row) == game.num_players for row in rows)
