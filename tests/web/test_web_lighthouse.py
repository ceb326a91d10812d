"""Lighthouse's accessibility score is at least 98 on the lobby, the tables,
the replay and the rules (tools/lighthouse.py; docs/web.md, "Tests").

Needs Node and Lighthouse installed by ``npm ci --prefix tools/lighthouse``
(``.ci/run`` does when npm is there); skipped otherwise."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "lighthouse.py"


def skip_reason() -> str | None:
    if shutil.which("node") is None:
        return "no node on the PATH"
    if not (ROOT / "tools" / "lighthouse" / "node_modules" / "lighthouse").is_dir():
        return "Lighthouse is not installed (npm ci --prefix tools/lighthouse)"
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not Path(chrome).exists():
        return f"no Chromium at {chrome}"
    return None


def test_lighthouse_accessibility_is_at_least_98() -> None:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(TOOL), "--min", "98"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Every page was measured: the lobby, four tables, the replay, two rules pages.
    scored = [line for line in done.stdout.splitlines()[1:] if line and not line.startswith(" ")]
    assert len(scored) == 8, done.stdout
