"""Rates and means with 95% intervals, and when a sample is too small.

A rate comes with its Wilson score interval (:func:`oracles.simulate.wilson_interval`);
a mean with its normal-approximation interval (:func:`oracles.simulate.mean_interval`).
A sample is *too small to conclude* when a rate has fewer than
:data:`MIN_TRIALS` trials or fewer than :data:`MIN_EVENTS` successes or
failures (the usual condition for the normal approximation), or a mean
fewer than :data:`MIN_TRIALS` values.

>>> r = rate(50, 100)
>>> round(r.low, 3), round(r.high, 3), r.warning
(0.404, 0.596, '')
>>> rate(2, 10).warning
'too few to conclude (2 of 10)'
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from oracles.simulate import mean_interval, wilson_interval

MIN_TRIALS = 30
MIN_EVENTS = 5


def small_sample_warning(successes: int, trials: int) -> str:
    """A warning text when ``successes`` of ``trials`` is too few to conclude, else ``""``."""
    if trials < MIN_TRIALS or min(successes, trials - successes) < MIN_EVENTS:
        return f"too few to conclude ({successes} of {trials})"
    return ""


@dataclass(frozen=True)
class Rate:
    """``successes`` of ``trials`` with its 95% Wilson interval."""

    successes: int
    trials: int

    @property
    def value(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.trials)

    @property
    def low(self) -> float:
        return self.interval[0]

    @property
    def high(self) -> float:
        return self.interval[1]

    @property
    def warning(self) -> str:
        return small_sample_warning(self.successes, self.trials)

    def columns(self, name: str) -> dict[str, Any]:
        """Table columns ``name``, ``name_low``, ``name_high``."""
        low, high = self.interval
        return {name: self.value, f"{name}_low": low, f"{name}_high": high}


def rate(successes: int, trials: int) -> Rate:
    return Rate(successes, trials)


@dataclass(frozen=True)
class Mean:
    """A mean with the half-width of its 95% interval."""

    value: float
    half_width: float
    count: int

    @property
    def warning(self) -> str:
        if self.count < MIN_TRIALS:
            return f"too few to conclude ({self.count} values)"
        return ""

    def columns(self, name: str) -> dict[str, Any]:
        """Table columns ``name``, ``name_low``, ``name_high``."""
        return {
            name: self.value,
            f"{name}_low": self.value - self.half_width,
            f"{name}_high": self.value + self.half_width,
        }


def mean(values: Sequence[float]) -> Mean:
    """
    >>> m = mean([1.0, 2.0, 3.0])
    >>> m.value, round(m.half_width, 3), m.warning
    (2.0, 1.132, 'too few to conclude (3 values)')
    """
    value, half = mean_interval(values)
    return Mean(value, half, len(values))


def spread(scores: Sequence[float]) -> float:
    """The gap between the best and the worst score of one game."""
    return max(scores) - min(scores) if scores else 0.0


def stdev(values: Sequence[float]) -> float:
    return statistics.pstdev(values) if len(values) > 1 else 0.0


def warnings_of(*items: Rate | Mean) -> str:
    """The first warning among ``items`` (``""`` when all may conclude)."""
    return next((item.warning for item in items if item.warning), "")
