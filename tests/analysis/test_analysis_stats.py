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
