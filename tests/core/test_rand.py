"""The fast shuffle of the resamplers: every order (or every ordered
sample, with ``count``) comes about as often, and it is deterministic."""

from __future__ import annotations

import random
from collections import Counter

from oracles.core.rand import shuffle


def test_every_order_is_about_as_likely() -> None:
    orders: Counter[tuple[int, ...]] = Counter()
    rng = random.Random(1)
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        shuffle(items, rng)
        orders[tuple(items)] += 1
    assert len(orders) == 24
    assert min(orders.values()) > 850 and max(orders.values()) < 1150  # 1000 expected


def test_a_prefix_is_a_uniform_ordered_sample() -> None:
    fronts: Counter[tuple[int, ...]] = Counter()
    rng = random.Random(2)
    for _ in range(20_000):
        items = list(range(5))
        shuffle(items, rng, 2)
        assert sorted(items) == list(range(5))
        fronts[tuple(items[:2])] += 1
    assert len(fronts) == 20
    assert min(fronts.values()) > 850 and max(fronts.values()) < 1150  # 1000 expected


def test_the_same_rng_state_gives_the_same_order() -> None:
    first, second = list(range(30)), list(range(30))
    shuffle(first, random.Random(7))
    shuffle(second, random.Random(7))
    assert first == second
    assert first != list(range(30))
    short = [4]
    shuffle(short, random.Random(7), 3)
    assert short == [4]
