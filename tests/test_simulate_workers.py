"""A simulation's games depend on the seed only: not on how many worker
processes play them nor on how they are cut into tasks."""

from __future__ import annotations

import pytest

from oracles.simulate import SPAN_GAMES, _play_indexed, run_games, simulate, spans

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
    assert len(spans(37, workers)) > 1
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


@pytest.mark.parametrize(("n", "workers"), [(1, 1), (1, 8), (37, 2), (4000, 2), (100_000, 32)])
def test_spans_cover_the_games_once_in_order(n: int, workers: int) -> None:
    tasks = spans(n, workers)
    assert [start for start, _ in tasks] == [0] + [stop for _, stop in tasks[:-1]]
    assert tasks[-1][1] == n
    sizes = [stop - start for start, stop in tasks]
    assert all(1 <= size <= SPAN_GAMES for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # shorter towards the end
