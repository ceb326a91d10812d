"""The server's garbage-collection policy: freeze the survivors of each full
collection, thaw them once a period so cyclic garbage is still found."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from oracles.server.collector import FreezeAfterFullCollections, install


@pytest.fixture
def thawed() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_full_collection_freezes_its_survivors(thawed: None) -> None:
    now = [0.0]
    policy = FreezeAfterFullCollections(full_every=100.0, clock=lambda: now[0])
    survivors = [[i] for i in range(1000)]  # tracked containers
    policy("stop", {"generation": 1, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() == 0  # a young collection changes nothing
    policy("start", {"generation": 2})
    assert gc.get_freeze_count() == 0
    policy("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() >= len(survivors)
    assert policy.frozen == 1 and policy.thawed == 0


def test_once_a_period_the_whole_heap_is_walked_again(thawed: None) -> None:
    now = [0.0]
    policy = FreezeAfterFullCollections(full_every=100.0, clock=lambda: now[0])
    policy("stop", {"generation": 2})
    assert gc.get_freeze_count() > 0
    now[0] = 150.0
    policy("stop", {"generation": 2})
    assert gc.get_freeze_count() == 0 and policy.thawed == 1
    # Cyclic garbage made while frozen is found by the next full collection.
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1
    now[0] = 160.0
    policy("stop", {"generation": 2})
    assert gc.get_freeze_count() > 0 and policy.frozen == 2


def test_installed_once(thawed: None) -> None:
    first = install()
    try:
        assert install() is first
        assert sum(isinstance(c, FreezeAfterFullCollections) for c in gc.callbacks) == 1
    finally:
        gc.callbacks.remove(first)
