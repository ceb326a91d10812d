"""Intervals and small-sample warnings of the analysis."""

from __future__ import annotations

import pytest

from oracles.analysis.stats import MIN_TRIALS, mean, rate, small_sample_warning


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Known Wilson 95% intervals (z = 1.96).
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 20, 0.0089, 0.2361),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_known_figures(successes: int, trials: int, low: float, high: float) -> None:
    r = rate(successes, trials)
    assert r.low == pytest.approx(low, abs=1e-4)
    assert r.high == pytest.approx(high, abs=1e-4)


def test_rate_columns_carry_the_interval() -> None:
    columns = rate(50, 100).columns("kept")
    assert columns["kept"] == 0.5
    assert columns["kept_low"] < 0.5 < columns["kept_high"]


def test_small_samples_are_flagged() -> None:
    assert small_sample_warning(2, 10) == "too few to conclude (2 of 10)"
    assert small_sample_warning(3, 1000) != ""  # too few successes
    assert small_sample_warning(998, 1000) != ""  # too few failures
    assert small_sample_warning(500, 1000) == ""
    assert rate(0, 0).warning != ""


def test_a_mean_of_few_values_is_flagged() -> None:
    assert mean([1.0] * (MIN_TRIALS - 1)).warning != ""
    assert mean([1.0, 3.0] * MIN_TRIALS).warning == ""
    assert mean([1.0, 3.0] * MIN_TRIALS).value == 2.0


def test_a_mean_that_cannot_be_negative_keeps_its_interval_at_or_above_zero() -> None:
    """A count seen in one game of 30: the normal interval reaches -0.03,
    which no count can be; cut at the floor, and flagged as too few."""
    counts = [0.0] * 29 + [1.0]
    plain = mean(counts)
    assert plain.value - plain.half_width < 0  # what the table showed
    floored = mean(counts, floor=0.0)
    columns = floored.columns("per_game")
    assert columns["per_game_low"] == 0.0
    assert columns["per_game"] == pytest.approx(1 / 30)
    assert columns["per_game_high"] == pytest.approx(plain.value + plain.half_width)
    assert floored.warning == "too few to conclude (1 of 30 values above 0)"
    # Enough values above the floor: no warning, and an interval above it is not touched.
    many = mean([0.0, 1.0, 2.0] * 20, floor=0.0)
    assert many.warning == ""
    assert many.low == pytest.approx(many.value - many.half_width)
