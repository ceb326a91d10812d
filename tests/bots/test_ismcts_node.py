"""The search tree's node counts availability lazily (a node often sees the
same legal actions again): what it reports must be what counting every
visit would give."""

from __future__ import annotations

import random
from collections import Counter

from oracles.bots.ismcts import _Node


def test_lazy_availability_and_untried_actions_match_eager_counting() -> None:
    rng = random.Random(5)
    node = _Node()
    counted: Counter[int] = Counter()
    pools = [list(range(10)), list(range(10)), [3, 5, 7], list(range(4, 12))]
    for step in range(400):
        legal = list(rng.choice(pools))  # equal lists, new objects: as legal_actions() gives
        counted.update(legal)
        untried = node.visit(legal)
        assert untried == [a for a in legal if a not in node.children_n]
        if untried and rng.random() < 0.3:  # the iteration expands an action and backs it up
            node.children_n[rng.choice(untried)] = 1
        elif node.children_n and rng.random() < 0.5:  # or backs up a known one
            action = rng.choice(list(node.children_n))
            node.children_n[action] += 1
        if step % 37 == 0:
            assert node.available() == counted
    assert node.available() == counted
    assert set(node.children_n) == set(range(12))
