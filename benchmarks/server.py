"""Server load: WebSocket players at Oracle tables of 4, against ``oracles serve``.

``python benchmarks/server.py`` (about 3 minutes) starts ``oracles serve`` as a
child process on a free port with a fresh SQLite file (no bots; a grace of a
day, so that no stand-in ever plays) and creates tables of four human seats
through the HTTP API. Unless ``--fresh`` is given, it then stops the server
and plays each table on, by random legal moves written straight into the move
log, to a point drawn uniformly over a whole game (never its end), and starts
the server again on the same file: the tables are at every stage of their
games, as on a server that has run for a while, and the views (and so the
messages, which carry the game's log) have every size from 2 to 30 KB. It
connects one asyncio WebSocket client per seat and measures, for each
``--sockets`` count in turn:

* **idle memory**: the server's RSS with every socket connected and quiet,
  minus its RSS before any socket, divided by the sockets; and its two
  parts, measured by connecting first one socket a table (so that each
  table comes into memory) and then the rest: what a table in memory costs,
  and what each further socket alone costs;
* **play**: each client, when a ``state`` gives its seat legal moves, waits
  1–3 s (uniform) and sends one of them at random. The *move-to-state
  latency* is the time from sending the move to receiving the first ``state``
  of a later version on that socket (the state that the move produced). After
  a warm-up, over ``--seconds``: latency p50/p95/p99, moves and messages a
  second, errors (an ``error`` message, a socket closed, a move unanswered
  for 10 s), the server's CPU (``/proc/<pid>/stat``) and the client's.

The clients run in a process of their own (uvloop when installed), at
``--client-nice`` priority; the server keeps the caller's priority. A client
reads of each ``state`` only its version, legal moves and status (the view
before them is skipped unread), so that the load client stays light. The results are printed as
a markdown table and appended, with the date, the commit, the machine's load
and ``--note``, to ``benchmarks/results/server.md`` (``--out``).
``--servers`` names what is measured at each count, in turn, under the same
clients: ``sqlite`` (``oracles serve`` on its SQLite default), ``peer``
(``benchmarks/peer_server.py``, a naive Starlette server kept as the
reference) and ``postgres`` (two ``oracles serve`` processes on one
PostgreSQL database, the tables shared out between them as a proxy routing
by table id would; ``--split-seats`` splits each table's seats between them
instead, so that every move crosses processes; the cluster is started here
from Debian's binaries).
``--quick`` is a small run (40 sockets, 10 s) for tests; it writes nothing
unless ``--out`` is given. ``--profile PREFIX`` records the server with
py-spy during the measured window: ``PREFIX-<sockets>.svg`` (a flame graph)
and ``PREFIX-<sockets>.txt`` (the collapsed stacks).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from queue import Empty
from typing import Any

import orjson
from reporting import commit, percentile
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

RESULTS = Path(__file__).parent / "results" / "server.md"
#: The naive reference server measured beside ours (``--servers peer``).
PEER = Path(__file__).parent / "peer_server.py"
#: What ``--servers`` may name (and how the table names them): our server on
#: SQLite, the peer, our server as two processes on one PostgreSQL database
#: (the tables shared out between them, or with ``--split-seats`` each
#: table's seats).
SERVERS = {
    "sqlite": "oracles serve, SQLite",
    "peer": "peer (naive)",
    "postgres": "oracles serve ×2, PostgreSQL",
}
#: A move unanswered for this long counts as an error.
MOVE_TIMEOUT = 10.0
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# ----------------------------------------------------------- the server
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Server:
    """``oracles serve`` in a child process with its own SQLite file; it
    can be stopped and started again on the same file."""

    def __init__(self, log_level: str, kind: str = "oracles", db_url: str | None = None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="oracles-bench-"))
        #: The SQLite file (``None``: the database at ``db_url``).
        self.db: Path | None = self.dir / "bench.sqlite3" if db_url is None else None
        self.db_url = db_url
        self.kind = kind
        self.log_level = log_level
        self.log = (self.dir / "server.log").open("wb")
        self.start()

    def start(self) -> None:
        self.port = free_port()
        if self.kind == "peer":
            assert self.db is not None
            command = [sys.executable, str(PEER), "--port", str(self.port), "--db", str(self.db)]
        else:
            command = [sys.executable, "-m", "oracles.cli", "serve", "--port", str(self.port)]
            command += ["--db", str(self.db) if self.db is not None else str(self.db_url)]
            command += ["--grace", "86400", "--rate", "20", "--log-level", self.log_level]
            # One load client stands for thousands of people: lift the per-client limits.
            for limit in UNLIMITED:
                command += ["--limit", limit]
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=self.log, start_new_session=True)
        self.base = f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.tail()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base + "/healthz", timeout=5) as answer,
            ):
                if answer.status == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /healthz")

    def tail(self) -> str:
        self.log.flush()
        return (self.dir / "server.log").read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def close(self) -> None:
        self.stop()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


#: The per-address limits lifted for the load client (``docs/server.md``, limits).
UNLIMITED = (
    "create_rate=100000",
    "create_burst=100000",
    "connect_rate=100000",
    "connect_burst=100000",
    "max_sockets_per_client=100000",
    "max_unattended=100000",
)


def create_tables(base: str, tables: int) -> list[tuple[str, list[str]]]:
    """``tables`` tables of four human seats: each id and its seats' tokens."""

    def create(_: int) -> tuple[str, list[str]]:
        body = json.dumps({"game": "oracle", "options": {"players": 4}, "seats": ["human"] * 4}).encode()
        request = urllib.request.Request(base + "/api/tables", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=60) as answer:
            created = json.loads(answer.read())
        return created["id"], [seat["token"] for seat in created["seats"]]

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(create, range(tables)))


#: Decisions in a game of Oracle for 4 (4 rounds of 4 keeps and 60 cards, and
#: a few Loser choices), roughly.
GAME_DECISIONS = 260


def spread_rows(game: Any, table_id: str, actions: list[str], rng: random.Random) -> list[tuple[Any, ...]]:
    """The moves that play ``table_id`` on from ``actions`` to a point drawn
    uniformly over a whole game (never its end): (table, version, seat, action)."""
    state = game.new_initial_state()
    for text in actions:
        state.apply_string(text)
    rows: list[tuple[Any, ...]] = []
    decisions = rng.randrange(GAME_DECISIONS)
    while decisions > 0:
        if state.is_chance_node():
            action, seat = state.sample_chance(rng), None
        else:
            action, seat = rng.choice(state.legal_actions()), state.current_player()
            decisions -= 1
        trial = state.clone()
        trial.apply_action(action)
        if trial.is_terminal():
            break
        rows.append((table_id, len(actions) + len(rows) + 1, seat, state.action_to_string(action)))
        state = trial
    return rows


def spread_progress(db: Path, table_ids: list[str], seed: int) -> int:
    """With the server stopped: play each table on, by random legal moves,
    to a point drawn uniformly over a whole game (never its end), straight
    into the move log, as a steady stream of games would have them. The
    server rebuilds them from the log when it starts. The actions added."""
    from oracles.core.registry import load_game

    rng = random.Random(seed)
    game = load_game("oracle", players=4)
    added = 0
    with sqlite3.connect(db) as conn:
        for table_id in table_ids:
            actions = [
                r[0]
                for r in conn.execute(
                    "SELECT action FROM moves WHERE table_id = ? ORDER BY version", (table_id,)
                )
            ]
            rows = spread_rows(game, table_id, actions, rng)
            conn.executemany(
                "INSERT INTO moves (table_id, version, seat, action, move_id, created_at)"
                " VALUES (?, ?, ?, ?, NULL, '2026-01-01 00:00:00.000000')",
                rows,
            )
            added += len(rows)
    return added


def spread_progress_postgres(url: str, table_ids: list[str], seed: int) -> int:
    """:func:`spread_progress` on a PostgreSQL database (the same draws)."""
    import asyncpg

    from oracles.core.registry import load_game

    rng = random.Random(seed)
    game = load_game("oracle", players=4)
    when = datetime(2026, 1, 1, tzinfo=UTC)

    async def run() -> int:
        conn = await asyncpg.connect(url)
        added = 0
        try:
            for table_id in table_ids:
                found = await conn.fetch(
                    "SELECT action FROM moves WHERE table_id = $1 ORDER BY version", table_id
                )
                rows = spread_rows(game, table_id, [r["action"] for r in found], rng)
                await conn.executemany(
                    "INSERT INTO moves (table_id, version, seat, action, move_id, created_at)"
                    " VALUES ($1, $2, $3, $4, NULL, $5)",
                    [(*row, when) for row in rows],
                )
                added += len(rows)
        finally:
            await conn.close()
        return added

    return asyncio.run(run())


# ----------------------------------------------------------- the clients
@dataclass
class Counters:
    measuring: bool = False
    received: int = 0
    sent: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    #: When each timed move was sent (perf_counter), for --trace.
    sent_at: list[float] = field(default_factory=list)
    #: How late the clients' event loop woke from 50 ms sleeps, in seconds:
    #: what the latencies owe to the load client itself.
    lags: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Player:
    """One seat's socket: answers each turn with a random legal move after
    1–3 s and times the move until the state it produced arrives."""

    def __init__(self, bench: Bench, url: str, seed: int) -> None:
        self.bench = bench
        self.url = url
        self.rng = random.Random(seed)
        #: Move ids are unique per table: each socket numbers its own.
        self.tag = f"s{seed}"
        self.ws: ClientConnection | None = None
        self.version = -1
        self.legal: list[str] = []
        self.finished = False
        self.first_state = asyncio.Event()
        self.timer: asyncio.TimerHandle | None = None
        #: The version a move was sent at, and when (perf_counter).
        self.pending: tuple[int, float] | None = None
        self.count = 0
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.ws = await connect(
            self.url, compression=None, max_size=2**22, open_timeout=60, ping_interval=None
        )
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.ws is not None
        bench = self.bench
        try:
            while True:
                message = read_message(await self.ws.recv(decode=False))
                counters = bench.counters
                if counters.measuring:
                    counters.received += 1
                kind = message.get("type")
                if kind == "state":
                    self.on_state(message)
                elif kind == "error":
                    counters.error(f"error {message.get('code')}")
                elif kind == "ack" and message.get("duplicate"):
                    counters.error("duplicate ack")
        except ConnectionClosed:
            pass
        if not bench.stopping:
            bench.counters.error("socket closed")

    def on_state(self, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        version = message["version"]
        counters = self.bench.counters
        if self.pending is not None and version > self.pending[0]:
            if counters.measuring:
                counters.latencies.append(now - self.pending[1])
                counters.sent_at.append(self.pending[1])
                counters.moves += 1
            self.pending = None
        self.version = version
        self.legal = message["legal"]
        self.finished = message.get("status") == "finished"
        self.first_state.set()
        self.plan()

    def plan(self) -> None:
        """If this seat is to act and nothing is planned, move in 1–3 s."""
        if self.bench.playing and self.legal and self.timer is None and self.pending is None:
            self.timer = asyncio.get_running_loop().call_later(
                self.rng.uniform(1.0, 3.0), self.fire, self.version
            )

    def fire(self, version: int) -> None:
        self.timer = None
        if self.bench.stopping or version != self.version or not self.legal or self.ws is None:
            return
        self.count += 1
        move = {
            "type": "move",
            "action": self.rng.choice(self.legal),
            "version": version,
            "id": f"{self.tag}-{self.count}",
        }
        self.pending = (version, time.perf_counter())
        if self.bench.counters.measuring:
            self.bench.counters.sent += 1
        task = asyncio.ensure_future(self.send(json.dumps(move)))
        self.bench.tasks.add(task)
        task.add_done_callback(self.bench.tasks.discard)

    async def send(self, text: str) -> None:
        assert self.ws is not None
        try:
            await self.ws.send(text)
        except Exception as error:
            self.bench.counters.error(f"send failed: {type(error).__name__}")

    def overdue(self, now: float) -> bool:
        return self.pending is not None and now - self.pending[1] > MOVE_TIMEOUT


STATE_HEAD = re.compile(rb'\{"type":"state","version":(\d+),')


def read_message(raw: bytes) -> dict[str, Any]:
    """A server message, but of a ``state`` only what a player needs: its
    version, legal moves and status. The view before them (up to 30 KB of
    the game's log) is skipped unread, so that the load client, on the same
    cores, spends little on it; any other shape is read whole."""
    head = STATE_HEAD.match(raw)
    if head is not None:
        cut = raw.rfind(b',"legal":')
        if cut > 0:
            with contextlib.suppress(orjson.JSONDecodeError):
                tail = orjson.loads(b"{" + raw[cut + 1 :])
                return {"type": "state", "version": int(head.group(1)), **tail}
    message: dict[str, Any] = orjson.loads(raw)
    return message


class Bench:
    def __init__(self) -> None:
        self.counters = Counters()
        self.playing = False
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()


@dataclass
class Result:
    server: str
    sockets: int
    tables: int
    seconds: float
    moves: int
    moves_per_s: float
    received_per_s: float
    sent_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    client_lag_p99_ms: float
    client_lag_max_ms: float
    errors: int
    error_kinds: dict[str, int]
    server_cpu_pct: float
    cpu_ms_per_move: float
    client_cpu_pct: float
    rss_base_mib: float
    rss_idle_mib: float
    kib_per_idle_socket: float
    #: Of that, a table in memory (its state, views, with its first socket)
    #: and each further socket alone.
    kib_per_table: float
    kib_per_socket_alone: float
    rss_end_mib: float
    load_before: str
    load_after: str


async def probe_lag(bench: Bench) -> None:
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.05)
        bench.counters.lags.append(time.perf_counter() - start - 0.05)


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(coro: Any) -> Any:
        async with gate:
            return await coro

    return await asyncio.gather(*(one(c) for c in coros))


async def play(
    bases: list[str],
    pids: list[int],
    created: list[tuple[str, list[str]]],
    seconds: float,
    warmup: float,
    profile: str | None,
    trace: str | None = None,
    server: str = "sqlite",
    split_seats: bool = False,
) -> Result:
    """Connect to the tables made, measure idle memory, then play and measure.
    With several servers (one database), table ``t`` is played on server
    ``t mod n``, or with ``split_seats`` seat ``i`` of every table on server
    ``i mod n`` (every move then crosses processes)."""
    tables = len(created)
    sockets = 4 * tables
    load_before = loadavg()
    bench = Bench()
    players: list[Player] = []
    spy: subprocess.Popen[bytes] | None = None
    pid = pids[0]
    try:
        await asyncio.sleep(1.0)
        rss_base = sum(rss_bytes(p) for p in pids)
        for index, (table_id, tokens) in enumerate(created):
            for seat, token in enumerate(tokens):
                # Each table on one server (as a proxy routing by table id
                # would have it), or its seats split between them.
                place = seat if split_seats else index
                ws_base = bases[place % len(bases)].replace("http://", "ws://")
                url = f"{ws_base}/ws/tables/{table_id}?token={token}"
                players.append(Player(bench, url, seed=len(players)))
        # First one socket a table (each table comes into memory), then the
        # rest: what a table costs, and what a socket alone costs.
        firsts = players[0::4]
        others = [p for index, p in enumerate(players) if index % 4]
        await gather_limited([p.connect() for p in firsts], 50)
        await asyncio.wait_for(asyncio.gather(*(p.first_state.wait() for p in firsts)), 120)
        await asyncio.sleep(2.0)
        rss_tables = sum(rss_bytes(p) for p in pids)
        await gather_limited([p.connect() for p in others], 50)
        await asyncio.wait_for(asyncio.gather(*(p.first_state.wait() for p in others)), 120)
        await asyncio.sleep(2.0)
        rss_idle = sum(rss_bytes(p) for p in pids)

        # Play: everyone whose turn it is plans a move; warm up, then measure.
        bench.playing = True
        for player in players:
            player.plan()
        await asyncio.sleep(warmup)
        if profile is not None:
            spy = start_profiler(pid, seconds, f"{profile}-{server}-{sockets}")
        bench.counters = Counters(measuring=True)
        lag_probe = asyncio.create_task(probe_lag(bench))
        cpu0, client0, t0 = sum(cpu_seconds(p) for p in pids), sum(os.times()[:2]), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu1, client1, t1 = sum(cpu_seconds(p) for p in pids), sum(os.times()[:2]), time.perf_counter()
        counters = bench.counters
        counters.measuring = False
        lag_probe.cancel()
        for player in players:
            if player.overdue(t1):
                counters.error("move unanswered for 10 s")
        rss_end = sum(rss_bytes(p) for p in pids)
        if spy is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                spy.wait(timeout=60)
        bench.stopping = True
        for player in players:
            if player.timer is not None:
                player.timer.cancel()
        await gather_limited([p.ws.close() for p in players if p.ws is not None], 200)
        readers = [p.reader for p in players if p.reader is not None]
        await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), 60)
    finally:
        bench.stopping = True
        if spy is not None and spy.poll() is None:
            spy.terminate()
    elapsed = t1 - t0
    if trace is not None:
        # Each timed move: seconds since the window opened, and its latency.
        pairs = [
            [round(at - t0, 4), round(lat, 5)]
            for at, lat in zip(counters.sent_at, counters.latencies, strict=True)
        ]
        Path(f"{trace}-{sockets}.json").write_text(json.dumps(pairs))
    latencies = sorted(counters.latencies)
    lags = sorted(counters.lags)
    per_socket = (rss_idle - rss_tables) / max(1, len(players) - tables)
    return Result(
        server=server,
        sockets=sockets,
        tables=tables,
        seconds=round(elapsed, 1),
        moves=counters.moves,
        moves_per_s=counters.moves / elapsed,
        received_per_s=counters.received / elapsed,
        sent_per_s=counters.sent / elapsed,
        p50_ms=percentile(latencies, 0.50) * 1000,
        p95_ms=percentile(latencies, 0.95) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        max_ms=(latencies[-1] if latencies else float("nan")) * 1000,
        client_lag_p99_ms=percentile(lags, 0.99) * 1000,
        client_lag_max_ms=(lags[-1] if lags else float("nan")) * 1000,
        errors=sum(counters.errors.values()),
        error_kinds=dict(counters.errors),
        server_cpu_pct=(cpu1 - cpu0) / elapsed * 100,
        cpu_ms_per_move=(cpu1 - cpu0) / counters.moves * 1000 if counters.moves else float("nan"),
        client_cpu_pct=(client1 - client0) / elapsed * 100,
        rss_base_mib=rss_base / 2**20,
        rss_idle_mib=rss_idle / 2**20,
        kib_per_idle_socket=(rss_idle - rss_base) / sockets / 1024,
        kib_per_table=(rss_tables - rss_base - tables * per_socket) / tables / 1024,
        kib_per_socket_alone=per_socket / 1024,
        rss_end_mib=rss_end / 2**20,
        load_before=load_before,
        load_after=loadavg(),
    )


def client_process(
    results: Any,
    bases: list[str],
    pids: list[int],
    args: argparse.Namespace,
    created: list[tuple[str, list[str]]],
    server: str,
) -> None:
    """The clients' process: niced, so that the server keeps its priority."""
    os.nice(args.client_nice)
    coro = play(
        bases, pids, created, args.seconds, args.warmup, args.profile, args.trace, server, args.split_seats
    )
    try:
        import uvloop
    except ImportError:
        result = asyncio.run(coro)
    else:
        result = uvloop.run(coro)
    results.put(asdict(result))


def run_one(sockets: int, args: argparse.Namespace, kind: str = "sqlite", cluster: Any = None) -> Result:
    """One server (or two on PostgreSQL), one client process, one measurement."""
    if kind == "postgres":
        url = cluster.new_database()
        servers = [Server(args.log_level, db_url=url)]
        servers[0].wait_ready()  # (the first one migrates the database)
        servers.append(Server(args.log_level, db_url=url))
    else:
        servers = [Server(args.log_level, kind="peer" if kind == "peer" else "oracles")]
    try:
        for server in servers:
            server.wait_ready()
        created = create_tables(servers[0].base, sockets // 4)
        if args.spread:
            for server in servers:
                server.stop()
            ids = [table_id for table_id, _ in created]
            if kind == "postgres":
                added = spread_progress_postgres(url, ids, seed=sockets)
            else:
                assert servers[0].db is not None
                added = spread_progress(servers[0].db, ids, seed=sockets)
            print(f"{len(created)} tables played on by {added} actions in all", flush=True)
            for server in servers:
                server.start()
                server.wait_ready(timeout=600)
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        worker = context.Process(
            target=client_process,
            args=(
                queue,
                [s.base for s in servers],
                [s.proc.pid for s in servers],
                args,
                created,
                "postgres-split" if kind == "postgres" and args.split_seats else kind,
            ),
        )
        worker.start()
        try:
            result = Result(**queue.get(timeout=args.seconds + args.warmup + 600))
        except Empty:
            raise RuntimeError(f"the clients did not finish: {servers[0].tail()}") from None
        worker.join(timeout=60)
        for server in servers:
            if server.proc.poll() is not None:
                raise RuntimeError(f"the server died: {server.tail()}")
        return result
    finally:
        for server in servers:
            server.close()


@contextlib.contextmanager
def postgres_cluster() -> Any:
    """A throwaway PostgreSQL cluster (the tests' own: initdb and pg_ctl in a
    temporary folder, as an unprivileged user)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
    from serverkit import PostgresCluster, postgres_bin

    bindir = postgres_bin()
    if bindir is None:
        raise SystemExit("--servers postgres needs Debian's postgresql package (initdb, pg_ctl)")
    cluster = PostgresCluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def start_profiler(pid: int, seconds: float, base: str) -> subprocess.Popen[bytes]:
    """py-spy recording ``pid`` for ``seconds``, its collapsed stacks to ``base.txt``."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy (pip install py-spy)")
    command = [spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "50", "--gil"]
    command += ["--format", "raw", "--output", base + ".txt", "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# ------------------------------------------------------------- the report
HEADER = """# Server load (`benchmarks/server.py`)

Asyncio WebSocket clients at Oracle tables of 4 (every seat a client, no
bots), each moving 1–3 s after its turn comes; *latency* is from sending a
move to receiving the `state` it produced. Unless the run says `--fresh`,
the tables were first played on (straight into the move log) to points
spread uniformly over a whole game, so that views and messages have every
size a game gives them (2 to 30 KB); `--fresh` tables are all at their first
moves (messages of about 2.5 KB). Server CPU is the `oracles serve`
process (100% = one core; both processes summed for PostgreSQL), from
`/proc/<pid>/stat`; *KiB/idle socket* is (RSS with every socket connected
and quiet − RSS before any socket) ÷ sockets, everything included; since
tables leave memory when nobody is there, that includes the tables
themselves. Runs from 2026-12-03 split it: *KiB/table* (a table in memory)
and *KiB/socket alone* (each socket beyond a table's first). The *peer* is
`benchmarks/peer_server.py`, a naive server measured under the same
clients in the same run. Targets (issue 20): at 2,500 sockets p95 ≤ 100 ms with no errors;
at 1,000 sockets p95 ≤ 25 ms; at most 64 KiB per idle socket. The load
client runs on the same 2 cores as the server, and so does whatever else
the machine is doing (see the load averages). *Client lag* is how late the
clients' event loop woke from 50 ms sleeps (p99/max): the part of the
latency that the load client's own delays may explain. This machine's
kernel groups processes by session (`sched_autogroup_enabled`): a busy
session of another job takes its share of the cores whatever its `nice`,
so a loaded machine slows the server (its own session) as much as the
clients.

Each run below is appended by `python benchmarks/server.py`, newest last.
"""

COLUMNS = (
    "| server | sockets | moves/s | msgs/s in | p50 ms | p95 ms | p99 ms | max ms | errors "
    "| server CPU % | CPU ms/move | client CPU % | client lag p99/max ms | KiB/idle socket "
    "| KiB/table · KiB/socket alone | load before → after |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
)


def table(results: list[Result]) -> str:
    rows = [
        f"| {SERVERS.get(r.server, r.server)} | {r.sockets:,} | {r.moves_per_s:.0f} | {r.received_per_s:.0f} "
        f"| {r.p50_ms:.1f} | {r.p95_ms:.1f} "
        f"| {r.p99_ms:.1f} | {r.max_ms:.0f} | {r.errors} | {r.server_cpu_pct:.0f} | {r.cpu_ms_per_move:.2f} "
        f"| {r.client_cpu_pct:.0f} | {r.client_lag_p99_ms:.0f}/{r.client_lag_max_ms:.0f} | {r.kib_per_idle_socket:.1f} "
        f"| {r.kib_per_table:.0f} · {r.kib_per_socket_alone:.1f} | {r.load_before} → {r.load_after} |"
        for r in results
    ]
    return COLUMNS + "\n".join(rows) + "\n"


def section(results: list[Result], args: argparse.Namespace) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    errors = "; ".join(
        f"{r.sockets:,} sockets: " + ", ".join(f"{k} × {v}" for k, v in r.error_kinds.items())
        for r in results
        if r.error_kinds
    )
    lines = [
        f"## {when}, commit {commit()}",
        "",
        f"`{shlex.join(['python', *command_line()])}`; {'tables spread over a whole game' if args.spread else 'fresh tables'}; {args.seconds:g} s measured after {args.warmup:g} s of warm-up; "
        f"client nice {args.client_nice}; server log level {args.log_level}; "
        f"{os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
    ]
    if args.note:
        lines += [args.note, ""]
    lines += [table(results)]
    if errors:
        lines += [f"Errors: {errors}.", ""]
    return "\n".join(lines)


def command_line() -> list[str]:
    """This run's arguments, without the note (printed on its own)."""
    out, skip = [], False
    for arg in sys.argv:
        if skip:
            skip = False
        elif arg == "--note":
            skip = True
        elif not arg.startswith("--note="):
            out.append(arg)
    return out


def write(results: list[Result], args: argparse.Namespace, out: Path) -> None:
    text = out.read_text() if out.exists() else HEADER
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text.rstrip("\n") + "\n\n" + section(results, args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, nargs="+", default=[1000, 2500], help="socket counts to run")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per run (default 60)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of play before measuring")
    parser.add_argument(
        "--quick", action="store_true", help="40 sockets, 10 s (for tests); writes only --out"
    )
    parser.add_argument("--out", type=Path, help=f"the markdown file to append to (default {RESULTS})")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--note", default="", help="a line for the report: what changed, the machine's state")
    parser.add_argument("--client-nice", type=int, default=0, help="niceness of the clients (not the server)")
    parser.add_argument("--log-level", default="info", help="the server's --log-level (default info)")
    parser.add_argument("--profile", metavar="PREFIX", help="record the server with py-spy (see above)")
    parser.add_argument(
        "--fresh",
        dest="spread",
        action="store_false",
        help="every table starts at its first move (default: spread over a whole game, see above)",
    )
    parser.add_argument(
        "--servers",
        nargs="+",
        choices=["sqlite", "peer", "postgres"],
        default=["sqlite"],
        help="which servers to measure at each count, in turn: sqlite (oracles serve), peer "
        "(benchmarks/peer_server.py, the naive reference), postgres (two oracles serve processes "
        "on one PostgreSQL database, started here from Debian's binaries)",
    )
    parser.add_argument(
        "--split-seats",
        action="store_true",
        help="with postgres: split each table's seats between the two processes (every move crosses "
        "processes) instead of playing each table on one of them",
    )
    parser.add_argument(
        "--trace", metavar="PREFIX", help="write each move's send time and latency to PREFIX-<sockets>.json"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sockets, args.seconds, args.warmup = [40], 10.0, 2.0
    out = args.out if args.out is not None or args.quick else RESULTS
    args.sockets = [max(4, count // 4 * 4) for count in args.sockets]

    # Enough descriptors for every socket, on both sides (inherited by both).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results = []
    with contextlib.ExitStack() as stack:
        cluster = stack.enter_context(postgres_cluster()) if "postgres" in args.servers else None
        for count in args.sockets:
            for kind in args.servers:
                results.append(run_one(count, args, kind, cluster))
                print(table(results[-1:]), flush=True)
                if args.profile is not None:
                    flame_graph(f"{args.profile}-{kind}-{count}")
    print(table(results))
    if out is not None:
        write(results, args, out)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0


# ---------------------------------------------------------- flame graphs
def flame_graph(base: str) -> None:
    """``base.svg`` from py-spy's collapsed stacks in ``base.txt``, and the
    functions with the most samples (own and total) printed."""
    raw = Path(base + ".txt")
    if not raw.exists():
        print(f"no profile was recorded at {raw}", file=sys.stderr)
        return
    root: dict[str, Any] = {"n": 0, "kids": {}}
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        node = root
        node["n"] += n
        for frame in frames:
            node = node["kids"].setdefault(frame, {"n": 0, "kids": {}})
            node["n"] += n
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for frame in set(frames):
            total[frame] = total.get(frame, 0) + n
    samples = root["n"] or 1
    width, row = 1600.0, 16
    boxes: list[str] = []
    depth_max = 0

    def draw(node: dict[str, Any], name: str, x: float, depth: int) -> None:
        nonlocal depth_max
        w = node["n"] / samples * width
        if w < 0.3:
            return
        depth_max = max(depth_max, depth)
        label = html.escape(name)
        hue = 20 + (hash(name.split(" ")[0]) % 40)
        boxes.append(
            f"<g><title>{label} ({node['n']} samples, {node['n'] / samples:.1%})</title>"
            f'<rect x="{x:.1f}" y="{{y{depth}}}" width="{w:.1f}" height="{row - 1}" '
            f'fill="hsl({hue},80%,60%)"/>'
            + (f'<text x="{x + 2:.1f}" y="{{t{depth}}}">{label[: int(w / 7)]}</text>' if w > 30 else "")
            + "</g>"
        )
        for kid_name, kid in sorted(node["kids"].items()):
            draw(kid, kid_name, x, depth + 1)
            x += kid["n"] / samples * width

    draw(root, "all", 0.0, 0)
    height = (depth_max + 2) * row
    body = "\n".join(boxes)
    for depth in range(depth_max + 1):
        y = height - (depth + 1) * row
        body = body.replace(f"{{y{depth}}}", str(y)).replace(f"{{t{depth}}}", str(y + row - 4))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'font-family="monospace" font-size="11">\n<text x="4" y="12">{html.escape(raw.name)}: '
        f"{samples} samples (hover a box for its share)</text>\n{body}\n</svg>\n"
    )
    Path(base + ".svg").write_text(svg)
    print(f"flame graph: {base}.svg ({samples} samples)")
    for title, counts in (("own", own), ("total", total)):
        print(f"top functions by {title} samples:")
        for frame, n in sorted(counts.items(), key=lambda kv: -kv[1])[:25]:
            print(f"  {n / samples:6.1%}  {frame}")


if __name__ == "__main__":
    sys.exit(main())
