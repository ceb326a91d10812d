"""``benchmarks/paired.py`` pairs each game of one spec with the other's on
the same deal and seat: two specs that play alike differ by exactly nothing."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest


@pytest.fixture
def paired(load_benchmark):
    return load_benchmark("paired")


def test_two_specs_that_play_alike_differ_by_nothing(
    paired, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.md"
    # c=0.7 is the default: the same bot under two spellings.
    argv = [
        "--game",
        "oracle",
        "--rounds",
        "1",
        "--a",
        "ismcts:iterations=8:c=0.7",
        "--b",
        "ismcts:iterations=8",
    ]
    assert paired.main([*argv, "--deals", "2", "--workers", "1", "--out", str(out)]) == 0
    row = out.read_text().strip()
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[4] == "8", row  # two deals in four seatings
    assert cells[7] == "+0.0 ± 0.0", row
    assert cells[5] == cells[6], row


def test_each_line_plays_every_deal_from_every_seat(paired) -> None:
    a = paired.play_line("oracle", "ismcts:iterations=8", "random", {"rounds": 1}, 3, 11, 1)
    b = paired.play_line("oracle", "heuristic", "random", {"rounds": 1}, 3, 11, 1)
    assert sorted(a) == sorted(b) == [(deal, seat) for deal in range(3) for seat in range(4)]


def test_the_benchmark_refuses_a_bad_spec_in_one_line(paired, capsys: pytest.CaptureFixture[str]) -> None:
    assert paired.main(["--a", "ismcts:iterations=x", "--b", "random", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "iterations" in err and "Traceback" not in err


def test_its_examples_hold(paired) -> None:
    failures, _ = doctest.testmod(paired)
    assert failures == 0
