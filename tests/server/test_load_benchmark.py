"""The server load benchmark (``benchmarks/server.py``) in its quick mode:
it runs end to end against a real ``oracles serve``, its clients play legal
moves without a single error, and the report carries every figure. No timing
is asserted: the figures depend on the machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from serverkit import postgres_bin

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "server.py"

FIELDS = {
    "server",
    "sockets",
    "tables",
    "moves",
    "moves_per_s",
    "received_per_s",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "errors",
    "server_cpu_pct",
    "cpu_ms_per_move",
    "client_cpu_pct",
    "kib_per_idle_socket",
    "kib_per_table",
    "kib_per_socket_alone",
}


def test_quick_run_plays_without_errors_and_reports_every_figure(tmp_path: Path) -> None:
    """Our server on SQLite, the naive peer and our server as two processes
    on one PostgreSQL database, each in turn under the same load client."""
    out, data = tmp_path / "server.md", tmp_path / "server.json"
    servers = ["sqlite", "peer"] + (["postgres"] if postgres_bin() is not None else [])
    command = [sys.executable, str(BENCHMARK), "--quick", "--servers", *servers]
    done = subprocess.run(
        [*command, "--out", str(out), "--json", str(data), "--note", "test"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(data.read_text())
    assert [r["server"] for r in results] == servers
    for result in results:
        assert result.keys() >= FIELDS
        assert result["sockets"] == 40 and result["tables"] == 10
        assert result["errors"] == 0, (result["server"], result["error_kinds"])
        # The clients did play: moves were answered by states, and timed.
        assert result["moves"] > 0, result["server"]
        assert result["received_per_s"] > 0
        assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    report = out.read_text()
    assert report.startswith("# Server load")
    assert "test" in report
    assert "| oracles serve, SQLite | 40 |" in report and "| peer (naive) | 40 |" in report
    if "postgres" in servers:
        assert "| oracles serve ×2, PostgreSQL | 40 |" in report
    assert "| p50 ms | p95 ms | p99 ms |" in report
