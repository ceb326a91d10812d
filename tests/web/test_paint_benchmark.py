"""``benchmarks/paint.py`` runs in one go and measures both ways of getting
the board (pushed in the state, fetched after it), in Chromium."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from oracles.web.browser import CHROMIUM

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "paint.py"


def test_the_paint_benchmark_measures_both_ways(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (dev extra)")
    spec = importlib.util.spec_from_file_location("paint_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    paint = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paint)
    out = tmp_path / "paint.md"
    assert paint.main(["--games", "1", "--out", str(out)]) == 0
    text = out.read_text()
    for way in ("pushed", "fetched"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {way} |"))
        assert int(row.split("|")[2]) > 10, row  # states measured in one game
    assert "fetched ÷ pushed, p95" in text
