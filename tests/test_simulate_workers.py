"""A simulation's games depend on the seed only: not on how many worker
processes play them nor on how they are cut into tasks."""

from __future__ import annotations

import pytest

from oracles.simulate import _play_indexed, run_games, simulate, span_size

GAME = ("oracle", {"players": 3, "rounds": 1})
SPECS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def one_by_one() -> list[object]:
    """Each game played as a job of its own, in this process."""
    game_id, options = GAME
    return [_play_indexed((game_id, options, SPECS, 11, index, False)) for index in range(37)]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_run_games_is_the_same_for_any_number_of_workers(workers: int, one_by_one: list[object]) -> None:
    game_id, options = GAME
    assert span_size(37, workers) < 37  # several tasks, the last one shorter
    assert list(run_games(game_id, options, SPECS, 37, seed=11, workers=workers)) == one_by_one


def test_simulate_summary_does_not_depend_on_the_workers() -> None:
    game_id, options = GAME
    summaries = []
    for workers in (1, 2):
        summary = simulate(game_id, 30, options, SPECS, seed=4, workers=workers).as_dict()
        summary.pop("seconds"), summary.pop("games_per_second")
        summaries.append(summary)
    assert summaries[0] == summaries[1]
    assert summaries[0]["games"] == 30


def test_span_sizes() -> None:
    assert span_size(100_000, 2) == 64  # capped, so the workers finish together
    assert span_size(40, 2) == 5  # four tasks a worker on a short run
    assert span_size(1, 8) == 1
