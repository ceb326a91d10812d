"""Where a benchmark's figures come from: the checkout's commit, for the
results files (imported by the scripts in this folder when run as scripts)."""

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
