"""How fast a database that has lived answers: p50/p95/p99 of the lobby
(``GET /api/tables``), a table's API answer (``GET /api/tables/<id>``) and a
replay page (``/replay/<id>``) from ``oracles serve`` on a database filled by
``benchmarks/seed_db.py``; the table goes to ``benchmarks/results/db.md``
with the machine's load.

    .venv/bin/python benchmarks/seed_db.py /tmp/lived.sqlite3
    .venv/bin/python benchmarks/db_latency.py /tmp/lived.sqlite3
    .venv/bin/python benchmarks/db_latency.py postgresql://u:p@host/db --out /tmp/db-pg.md

Every table asked for is a different finished one, drawn at random, so each
answer loads its table from the database and replays its move log (a
finished table leaves the server's memory after a request that only reads
it): the slow case. Requests are sent one after the other on one kept-alive
connection, after a warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import platform
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from oracles.server.config import database_url, redact_url

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _pg_facts(url: str, sample: int) -> tuple[dict[str, int], list[str]]:
    import asyncpg

    conn = await asyncpg.connect("postgresql://" + url.split("://", 1)[1])
    try:
        counts = {
            name: int(await conn.fetchval(f"SELECT count(*) FROM {name}")) for name in ("tables", "moves")
        }
        ids = [
            r["id"]
            for r in await conn.fetch(
                "SELECT id FROM tables WHERE status = 'finished' ORDER BY random() LIMIT $1", sample
            )
        ]
    finally:
        await conn.close()
    return counts, ids


def facts(url: str, sample: int) -> tuple[dict[str, int], list[str]]:
    """Row counts, and ``sample`` finished tables' ids drawn at random."""
    if url.startswith("postgresql"):
        return asyncio.run(_pg_facts(url, sample))
    with contextlib.closing(sqlite3.connect(url.split(":///", 1)[1])) as conn:
        counts = {
            name: conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in ("tables", "moves")
        }
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM tables WHERE status = 'finished' ORDER BY random() LIMIT ?", (sample,)
            )
        ]
    return counts, ids


class Server:
    def __init__(self, db: str) -> None:
        self.port = free_port()
        # Open as long as the server runs; closed with the process object.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
        command = [sys.executable, "-m", "oracles.cli", "serve", "--port", str(self.port), "--db", db]
        # No stand-in plays the seeded tables still waiting for their people.
        command += ["--grace", "86400", "--bot-workers", "1", "--log-level", "warning"]
        self.proc = subprocess.Popen(
            command, stdout=self.log, stderr=self.log, env=env, start_new_session=True
        )

    def wait_ready(self, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise SystemExit(f"the server exited: {self.log.read()[-2000:].decode(errors='replace')}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return
            time.sleep(0.2)
        raise SystemExit("the server did not answer /healthz")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def query_times(url: str, ids: list[str]) -> dict[str, list[float]]:
    """Milliseconds of the database work alone, in this process: the
    lobby's queries, and a table's load (row, seats, move log, chat) as the
    table and replay requests make them."""
    from oracles.server import db

    engine = db.make_engine(url)
    out: dict[str, list[float]] = {"lobby": [], "table": []}
    try:
        async with engine.connect() as conn:
            for table_id in ids:
                started = time.perf_counter()
                await db.lobby_rows(conn, 200)
                out["lobby"].append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                await db.load_table(conn, table_id)
                await db.recent_chat(conn, table_id, 50)
                out["table"].append((time.perf_counter() - started) * 1000)
    finally:
        await engine.dispose()
    return out


def timed(conn: http.client.HTTPConnection, path: str) -> float:
    """Milliseconds from sending ``GET path`` to the end of its answer."""
    started = time.perf_counter()
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    took = (time.perf_counter() - started) * 1000
    if answer.status != 200:
        raise SystemExit(f"GET {path}: status {answer.status}")
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("db", help="the seeded database (an SQLite file or a postgresql:// URL)")
    parser.add_argument("--requests", type=int, default=300, help="requests per kind (default 300)")
    parser.add_argument(
        "--warmup", type=int, default=20, help="requests per kind first, not counted (default 20)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "db.md")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    url = database_url(args.db)
    counts, ids = facts(url, args.requests + args.warmup)
    if len(ids) < args.requests + args.warmup:
        raise SystemExit(f"only {len(ids)} finished tables: seed more (benchmarks/seed_db.py)")
    random.Random(args.seed).shuffle(ids)
    load_before = loadavg()
    server = Server(args.db)
    try:
        begun = time.perf_counter()
        server.wait_ready()
        ready = time.perf_counter() - begun
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        kinds = {
            "lobby `GET /api/tables`": lambda _: "/api/tables",
            "table `GET /api/tables/<id>`": lambda table_id: f"/api/tables/{table_id}",
            "replay page `GET /replay/<id>`": lambda table_id: f"/replay/{table_id}",
        }
        times: dict[str, list[float]] = {kind: [] for kind in kinds}
        for index, table_id in enumerate(ids):
            for kind, path in kinds.items():
                took = timed(conn, path(table_id))
                if index >= args.warmup:
                    times[kind].append(took)
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn.request("GET", "/api/tables")
            lobby_size = len(json.loads(conn.getresponse().read())["tables"])
    finally:
        server.stop()
    queries = asyncio.run(query_times(url, ids[args.warmup :]))
    load_after = loadavg()
    size = ""
    if not url.startswith("postgresql"):
        size = f", {Path(url.split(':///', 1)[1]).stat().st_size / 2**30:.1f} GiB"
    backend = "PostgreSQL" if url.startswith("postgresql") else "SQLite"

    def row(kind: str, values: list[float]) -> str:
        return (
            f"| {kind} | {len(values)} | {percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f}"
            f" | {percentile(values, 0.99):.1f} | {max(values):.1f} |"
        )

    rows = [row(kind, values) for kind, values in times.items()]
    rows.append(row("database only: the lobby's queries", queries["lobby"]))
    rows.append(row("database only: loading a table (row, seats, moves, chat)", queries["table"]))
    report = "\n".join(
        [
            "# A database that has lived: request latency",
            "",
            f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {backend} ({redact_url(url)}{size}):"
            f" {counts['tables']:,} tables ({lobby_size} in the lobby), {counts['moves']:,} moves,"
            f" seeded by `benchmarks/seed_db.py`; {os.cpu_count()} cores, Python {platform.python_version()},"
            f" load average {load_before} before and {load_after} after."
            f" The server answered /healthz {ready:.1f} s after it started.",
            "",
            "Each table and replay request asks for another finished table, drawn at random, which the"
            " server loads from the database and replays; one request at a time, on one connection."
            " The last two rows time the same queries alone, in the measuring process, after the server stopped.",
            "",
            "```sh",
            f"python benchmarks/db_latency.py {args.db if not url.startswith('postgresql') else 'postgresql://…'}"
            f" --requests {args.requests}",
            "```",
            "",
            "| request | n | p50 ms | p95 ms | p99 ms | max ms |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
        ]
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
