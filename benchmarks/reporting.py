"""What the benchmarks' reports share: the checkout's commit their figures
come from, and percentiles (imported by the scripts in this folder when
they run as scripts)."""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path


def commit() -> str:
    """The short commit of this checkout, marked when ``src`` has changes
    not committed (``unknown`` outside a git checkout)."""
    here = Path(__file__).parent
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True, cwd=here
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"], capture_output=True, text=True, cwd=here
        )
        return out.stdout.strip() + (" (+ uncommitted changes in src)" if dirty.stdout.strip() else "")
    return "unknown"


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile of ``sorted_values`` (the nearest rank; NaN when empty)."""
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]
