"""The lived-database benchmark (``benchmarks/seed_db.py`` and
``benchmarks/db_latency.py``) on a small database: the seeded tables are
games the server can load (finished ones at their end, the others part-way),
and the latency run measures every request against a real ``oracles serve``.
No timing is asserted: the figures depend on the machine."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from oracles.core.records import replay_record
from oracles.server import db

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def test_seeded_tables_are_real_games_and_the_latency_run_reports(tmp_path: Path) -> None:
    path = tmp_path / "lived.sqlite3"
    seeded = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "seed_db.py"),
            str(path),
            "--tables",
            "60",
            "--playing",
            "5",
            "--records",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    assert "seeded 65 tables (5 still playing)" in seeded.stdout

    async def check() -> dict[str, int]:
        engine = db.make_engine(f"sqlite+aiosqlite:///{path}")
        statuses: dict[str, int] = {}
        try:
            async with engine.connect() as conn:
                ids = [r.id for r in await conn.execute(select(db.tables.c.id))]
                for table_id in ids:
                    found = await db.load_table(conn, table_id)
                    assert found is not None
                    row, seats, moves = found
                    state = replay_record(
                        {"game": row.game, "options": row.options, "actions": [m.action for m in moves]}
                    )
                    assert [m.version for m in moves] == list(range(1, len(moves) + 1))
                    assert len(seats) == state.num_players
                    assert state.is_terminal() == (row.status == "finished")
                    statuses[row.status] = statuses.get(row.status, 0) + 1
        finally:
            await engine.dispose()
        return statuses

    assert asyncio.run(check()) == {"finished": 60, "playing": 5}
    out = tmp_path / "db.md"
    measured = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "db_latency.py"),
            str(path),
            "--requests",
            "10",
            "--warmup",
            "2",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert measured.returncode == 0, measured.stderr[-3000:]
    report = out.read_text()
    for kind in ("/api/tables`", "/api/tables/<id>`", "/replay/<id>`", "database only"):
        assert kind in report
    assert "65 tables (5 in the lobby)" in report
