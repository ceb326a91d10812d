"""Rates and means with 95% intervals, and when a sample is too small.

A rate comes with its Wilson score interval (:func:`oracles.simulate.wilson_interval`);
a mean with its normal-approximation interval (:func:`oracles.simulate.mean_interval`).
A sample is *too small to conclude* when a rate has fewer than
:data:`MIN_TRIALS` trials or fewer than :data:`MIN_EVENTS` successes or
failures (the usual condition for the normal approximation), or a mean
fewer than :data:`MIN_TRIALS` values.

A mean of a quantity that cannot go below some value (a count, a score
that is never negative) is given that ``floor``: its interval is cut there.
The true mean is never below the floor, so cutting the interval there
drops no value it could take: the interval still holds the true mean
whenever the uncut one did (its 95% coverage is kept), and it no longer
shows impossible values such as -0.03 effects per game. A normal interval
that reaches below the floor is the mark of a skewed sample (mostly values
at the floor, a few above it), too skewed for the normal approximation to
be trusted: such a mean is flagged too small to conclude when fewer than
:data:`MIN_EVENTS` of its values lie above the floor, as a rate is with
fewer than :data:`MIN_EVENTS` successes.

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
    """A mean with the half-width of its 95% interval; ``floor``: the lowest
    value the quantity can take (None: no such bound), where the interval is
    cut; ``above_floor``: how many values lie above it."""

    value: float
    half_width: float
    count: int
    floor: float | None = None
    above_floor: int = 0

    @property
    def low(self) -> float:
        low = self.value - self.half_width
        return low if self.floor is None else max(self.floor, low)

    @property
    def high(self) -> float:
        return self.value + self.half_width

    @property
    def warning(self) -> str:
        if self.count < MIN_TRIALS:
            return f"too few to conclude ({self.count} values)"
        if self.floor is not None and self.above_floor < MIN_EVENTS:
            return f"too few to conclude ({self.above_floor} of {self.count} values above {self.floor:g})"
        return ""

    def columns(self, name: str) -> dict[str, Any]:
        """Table columns ``name``, ``name_low``, ``name_high``."""
        return {name: self.value, f"{name}_low": self.low, f"{name}_high": self.high}


def mean(values: Sequence[float], floor: float | None = None) -> Mean:
    """The mean of ``values`` with its 95% interval, cut at ``floor`` when
    the quantity cannot go below it (see the module docstring).

    >>> m = mean([1.0, 2.0, 3.0])
    >>> m.value, round(m.half_width, 3), m.warning
    (2.0, 1.132, 'too few to conclude (3 values)')
    >>> m = mean([0.0] * 59 + [2.0], floor=0.0)
    >>> round(m.value - m.half_width, 3), m.low, m.warning
    (-0.032, 0.0, 'too few to conclude (1 of 60 values above 0)')
    """
    value, half = mean_interval(values)
    above = sum(v > floor for v in values) if floor is not None else 0
    return Mean(value, half, len(values), floor, above)


def spread(scores: Sequence[float]) -> float:
    """The gap between the best and the worst score of one game."""
    return max(scores) - min(scores) if scores else 0.0


def stdev(values: Sequence[float]) -> float:
    return statistics.pstdev(values) if len(values) > 1 else 0.0


def warnings_of(*items: Rate | Mean) -> str:
    """The first warning among ``items`` (``""`` when all may conclude)."""
    return next((item.warning for item in items if item.warning), "")
