"""``benchmarks/inference.py``: every line's games pair one by one with the
floor's, on the same deals and seats, so that its paired difference is the
difference of the two shares over the same games."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def inference(load_benchmark):
    pytest.importorskip("pyspiel", reason="OpenSpiel (the research extra) plays the opponents")
    module = load_benchmark("inference")
    module.peeking.register()
    return module


def test_each_line_pairs_with_the_floor_game_by_game(inference) -> None:
    rows = inference.measure("oracle", 1, 1, 5, (8, 8, 3), ("floor", "ceiling"))
    floor, ceiling = rows
    assert floor["paired"] is None
    assert floor["games"] == ceiling["games"] == 4  # one deal, our search in each of four seats
    paired = ceiling["paired"]
    assert paired["games"] == 4
    assert paired["b"] == pytest.approx(floor["share"])
    assert paired["a"] == pytest.approx(ceiling["share"])
    assert paired["diff"] == pytest.approx(ceiling["share"] - floor["share"])
