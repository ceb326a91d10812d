"""map_in_order's worker processes: results in order, errors brought back,
and no process left behind whatever happens."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from oracles import workers as workers_module
from oracles.workers import WorkerError, map_in_order


def _square(x: int) -> int:
    return x * x


def _fails_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven")
    return x


def _dies_on_five(x: int) -> int:
    if x == 5:
        os._exit(3)
    return x


def _pid(_: int) -> int:
    return os.getpid()


@pytest.mark.parametrize(("workers", "chunksize"), [(2, 1), (3, 4), (2, 50)])
def test_results_come_in_order(workers: int, chunksize: int) -> None:
    assert list(map_in_order(_square, range(103), workers, chunksize)) == [x * x for x in range(103)]
    assert multiprocessing.active_children() == []


def test_the_work_is_shared_between_the_workers() -> None:
    pids = set(map_in_order(_pid, range(200), 2, 1))
    assert len(pids) == 2 and os.getpid() not in pids


def test_a_job_error_is_raised_in_the_parent() -> None:
    with pytest.raises(ValueError, match="seven") as raised:
        list(map_in_order(_fails_on_seven, range(20), 2, 2))
    assert any("worker process" in note for note in getattr(raised.value, "__notes__", []))
    assert multiprocessing.active_children() == []


def test_a_dead_worker_is_an_error_not_a_hang() -> None:
    with pytest.raises(WorkerError, match="died"):
        list(map_in_order(_dies_on_five, range(20), 2, 1))
    assert multiprocessing.active_children() == []


def test_closing_the_results_early_stops_the_workers() -> None:
    results = map_in_order(_square, range(10_000), 2, 1)
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    assert multiprocessing.active_children()
    results.close()
    assert multiprocessing.active_children() == []


def test_one_worker_runs_here() -> None:
    assert set(map_in_order(_pid, range(5), 1)) == {os.getpid()}


def test_the_pool_used_where_fork_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers_module, "FORK_WORKERS", False)
    assert list(map_in_order(_square, range(50), 2, 3)) == [x * x for x in range(50)]
    with pytest.raises(ValueError, match="seven"):
        list(map_in_order(_fails_on_seven, range(20), 2, 2))
    assert multiprocessing.active_children() == []
