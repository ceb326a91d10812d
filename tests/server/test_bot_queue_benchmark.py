"""The bot queue benchmark (``benchmarks/bot_queue.py``) in its quick mode:
real bot processes behind the server's fair queue answer every table's bot
turns, and the report carries every column. No timing is asserted: the
figures depend on the machine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "bot_queue.py"


def test_quick_run_answers_the_bots_and_reports_every_column(tmp_path: Path) -> None:
    out = tmp_path / "bots.md"
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--quick", "--workers", "1", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    text = out.read_text()
    assert (
        "| tables | workers | bot turns | p50 s | p95 s | max s | bound s | over the bound | demand |" in text
    )
    row = next(line for line in text.splitlines() if line.startswith("| 4 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == "1" and int(cells[2]) > 0  # one worker; some bot turns answered
    assert "nan" not in row
