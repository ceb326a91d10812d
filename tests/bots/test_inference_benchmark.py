"""``benchmarks/inference.py``: every line's games pair one by one with the
floor's, on the same deals and seats, so that its paired difference is the
difference of the two shares over the same games."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def inference():
    pytest.importorskip("pyspiel", reason="OpenSpiel (the research extra) plays the opponents")
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("inference_benchmark", BENCHMARKS / "inference.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.peeking.register()
        yield module
    finally:
        sys.path.remove(str(BENCHMARKS))


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
