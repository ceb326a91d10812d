"""Several ``oracles serve`` processes on one PostgreSQL database (issue 18):
a move made through one process reaches the sockets of the others (LISTEN/
NOTIFY), the unique ``(table, version)`` key makes exactly one writer win,
and the game carries on when one process dies. PostgreSQL only."""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import time
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from serverkit import Client, PostgresCluster, ProcessServer, http, postgres_bin

from oracles.core.records import replay_record

if TYPE_CHECKING:
    from oracles.server.hub import Hub
    from oracles.server.runtime import TableRuntime

pytestmark = pytest.mark.skipif(
    postgres_bin() is None,
    reason="PostgreSQL binaries not installed: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql)",
)

SERVE = ("--bot-pause", "0.02", "--bot-mode", "thread", "--grace", "600", "--log-level", "warning")
#: Two people (one on each process) and two bots.
SEATS = ["human", "bot:random", "human", "bot:heuristic"]
OPTIONS = {"rounds": 1}
#: Most states must reach the other process's socket within this (seconds).
LATENCY = 0.2


def assert_quiet(*servers: ProcessServer) -> None:
    """Bots race in both processes and one loses each time: that is no error."""
    for server in servers:
        output = server.output()
        assert '"level": "error"' not in output and "Traceback" not in output, output[-3000:]


def start_pair(cluster: PostgresCluster) -> tuple[ProcessServer, ProcessServer]:
    db = cluster.new_database()
    first = ProcessServer(db, *SERVE)
    first.start()  # migrates the database once, before the second starts
    second = ProcessServer(db, *SERVE)
    second.start()
    return first, second


@pytest.fixture
def pair(pg_cluster: PostgresCluster | None) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    assert pg_cluster is not None
    servers = start_pair(pg_cluster)
    try:
        yield servers
    finally:
        for server in servers:
            server.close()


async def create(server: ProcessServer, seats: list[str]) -> dict[str, Any]:
    body = {"game": "oracle", "options": OPTIONS, "seats": seats}
    status, table, _ = await asyncio.to_thread(http, server.base, "POST", "/api/tables", body)
    assert status == 201, table
    return table  # type: ignore[no-any-return]


def seat_url(server: ProcessServer, table: dict[str, Any], seat: int) -> str:
    return f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][seat]['token']}"


class Player:
    """A person at one seat: plays random legal moves and notes when each
    ``state`` version arrived and when each of its moves was acknowledged."""

    def __init__(self, client: Client, seat: int, rng: random.Random) -> None:
        self.client = client
        self.seat = seat
        self.rng = rng
        self.seen: dict[int, float] = {}  # version -> first time a state showed it
        self.acks: dict[int, float] = {}  # version -> when our move there was acknowledged
        self.count = 0

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        message = await self.client.recv(timeout)
        if message.get("type") == "state":
            self.seen.setdefault(message["version"], time.monotonic())
        return message

    async def play(self, until: float) -> dict[str, Any]:
        """Until the game ends; returns the final state."""
        if self.client.state is None:
            while (await self.recv())["type"] != "state":
                pass
        while True:
            state = self.client.state
            assert state is not None
            if state["status"] == "finished":
                return state
            if time.monotonic() > until:
                raise TimeoutError("the game did not end in time")
            if not state["legal"]:
                await self.recv(max(0.01, until - time.monotonic()))
                continue
            self.count += 1
            move_id = f"s{self.seat}-{self.count}"
            await self.client.send(
                {
                    "type": "move",
                    "action": self.rng.choice(state["legal"]),
                    "version": state["version"],
                    "id": move_id,
                }
            )
            while True:
                reply = await self.recv(max(0.01, until - time.monotonic()))
                if reply.get("id") == move_id and reply["type"] in ("ack", "error"):
                    break
            if reply["type"] == "ack":
                self.acks[reply["version"]] = time.monotonic()
                while self.client.state is None or self.client.state["version"] < reply["version"]:
                    await self.recv(max(0.01, until - time.monotonic()))
            else:  # a state newer than ours came from the other process first
                assert reply["code"] == "stale", reply
                # That state may have come before the error: wait only if not
                # (waiting for yet another could wait on our own move).
                while self.client.state is None or self.client.state["version"] <= state["version"]:
                    await self.recv(max(0.01, until - time.monotonic()))


def delays(mover: Player, watcher: Player) -> list[float]:
    """From each of ``mover``'s acks to the first state at that version (or
    later) on ``watcher``'s socket, on the other process."""
    out = []
    for version, acked in mover.acks.items():
        seen = [t for v, t in watcher.seen.items() if v >= version]
        assert seen, f"the other process never showed version {version}"
        out.append(max(0.0, min(seen) - acked))
    return out


def test_two_processes_one_table(pair: tuple[ProcessServer, ProcessServer]) -> None:
    a, b = pair

    async def scenario() -> tuple[list[float], dict[str, Any], dict[str, Any]]:
        table = await create(a, SEATS)
        async with Client(seat_url(a, table, 0)) as on_a, Client(seat_url(b, table, 2)) as on_b:
            p0, p2 = Player(on_a, 0, random.Random(0)), Player(on_b, 2, random.Random(2))
            until = time.monotonic() + 40
            end0, end2 = await asyncio.gather(p0.play(until), p2.play(until))
            assert end0["version"] == end2["version"]
            # Every version either socket saw, the other saw too (no gaps in
            # what matters: both reached the end and agree on it).
            assert p0.acks and p2.acks
            lags = delays(p0, p2) + delays(p2, p0)
            # Bots' moves too: the same version on both sockets.
            both = set(p0.seen) & set(p2.seen)
            lags += [abs(p0.seen[v] - p2.seen[v]) for v in both]
            status, record, _ = await asyncio.to_thread(
                http, b.base, "GET", f"/api/tables/{table['id']}/record"
            )
            assert status == 200
            return lags, record, end0

    lags, record, end = asyncio.run(scenario())
    state = replay_record(record)
    assert state.is_terminal() and len(record["actions"]) == end["version"]
    lags.sort()
    p90 = lags[int(0.9 * (len(lags) - 1))]
    print(
        f"cross-process delivery: median {statistics.median(lags) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
        f"max {lags[-1] * 1000:.1f} ms over {len(lags)}"
    )
    assert p90 <= LATENCY, f"p90 {p90:.3f}s"
    assert_quiet(a, b)


def test_same_version_through_two_processes(pair: tuple[ProcessServer, ProcessServer]) -> None:
    a, b = pair

    async def scenario() -> None:
        table = await create(a, ["human"] * 4)
        for _round in range(3):
            # Who is to move: the seat whose state has legal moves.
            async with Client(f"{a.ws_base}/ws/tables/{table['id']}") as watcher:
                seen = await watcher.recv_type("state")
            version = seen["version"]
            mover = None
            for seat in range(4):
                async with Client(seat_url(a, table, seat)) as probe:
                    if (await probe.recv_type("state"))["legal"]:
                        mover = seat
                        break
            assert mover is not None
            async with Client(seat_url(a, table, mover)) as on_a, Client(seat_url(b, table, mover)) as on_b:
                sa, sb = await on_a.recv_type("state"), await on_b.recv_type("state")
                assert sa["version"] == sb["version"] == version
                await asyncio.gather(
                    on_a.send(
                        {"type": "move", "action": sa["legal"][0], "version": version, "id": f"a{version}"}
                    ),
                    on_b.send(
                        {"type": "move", "action": sb["legal"][-1], "version": version, "id": f"b{version}"}
                    ),
                )

                async def answer(client: Client, move_id: str) -> dict[str, Any]:
                    while True:
                        reply = await client.recv(20)
                        if reply.get("id") == move_id and reply["type"] in ("ack", "error"):
                            return reply

                ra, rb = await asyncio.gather(answer(on_a, f"a{version}"), answer(on_b, f"b{version}"))
                kinds = sorted([ra["type"], rb["type"]])
                assert kinds == ["ack", "error"], (ra, rb)
                loser, lost = (on_a, ra) if ra["type"] == "error" else (on_b, rb)
                assert lost["code"] == "stale", lost
                fresh = await loser.recv_type("state")
                assert fresh["version"] > version
            # Exactly one move was stored at that version.
            status, info, _ = await asyncio.to_thread(http, b.base, "GET", f"/api/tables/{table['id']}")
            assert status == 200 and info["version"] == fresh["version"]

    asyncio.run(scenario())
    assert_quiet(a, b)


def test_one_process_killed(pg_cluster: PostgresCluster | None) -> None:
    assert pg_cluster is not None
    a, b = start_pair(pg_cluster)
    try:

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            table = await create(b, SEATS)
            on_a, on_b = Client(seat_url(a, table, 0)), Client(seat_url(b, table, 2))
            await on_a.connect()
            await on_b.connect()
            p0, p2 = Player(on_a, 0, random.Random(10)), Player(on_b, 2, random.Random(12))
            until = time.monotonic() + 40
            # Play a while on both processes, then kill A mid-game.
            game_b = asyncio.create_task(p2.play(until))
            game_a = asyncio.create_task(p0.play(until))
            while len(p0.acks) < 2 and not game_a.done():
                await asyncio.sleep(0.01)
            assert not game_a.done() and not game_b.done()
            a.kill()
            game_a.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await game_a
            await on_a.close()
            # Seat 0 comes back through the surviving process.
            back = Client(seat_url(b, table, 0))
            await back.connect()
            p0.client = back
            end0 = await p0.play(until)
            end2 = await game_b
            await back.close()
            await on_b.close()
            assert end0["version"] == end2["version"]
            status, record, _ = await asyncio.to_thread(
                http, b.base, "GET", f"/api/tables/{table['id']}/record"
            )
            assert status == 200, record
            return record, end0

        record, end = asyncio.run(scenario())
        state = replay_record(record)
        assert state.is_terminal() and len(record["actions"]) == end["version"]
        assert state.view(0) == end["view"]
    finally:
        a.close()
        b.close()


@contextlib.asynccontextmanager
async def two_hubs(url: str) -> AsyncIterator[tuple[list[Hub], tuple[TableRuntime, TableRuntime]]]:
    """Two hubs on the fresh PostgreSQL database ``url``, as two processes would
    have them (their listeners not started), and a table of four people
    made through the first: ``(hubs, (first, second))``, the table's
    runtime in each."""
    from oracles.server.bots import BotRunner
    from oracles.server.config import Settings
    from oracles.server.db import make_engine
    from oracles.server.hub import Hub, SeatSpec
    from oracles.server.migrate import upgrade

    settings = Settings(db_url=url, bot_mode="thread", bot_pause=0.0)
    hubs = [Hub(settings, make_engine(url), BotRunner("thread", 1)) for _ in range(2)]
    await upgrade(hubs[0].engine)
    try:
        first, _ = await hubs[0].create("oracle", OPTIONS, [SeatSpec("human", None, "p")] * 4)
        second = await hubs[1].get(first.id)
        assert second is not None and second.version == first.version
        yield hubs, (first, second)
    finally:
        for hub in hubs:
            await hub.close()
            await hub.bots.aclose()
            await hub.engine.dispose()


def test_losing_insert_rolls_back_and_answers_stale(pg_cluster: PostgresCluster | None) -> None:
    """The unique key itself decides: a process that has not seen the other's
    move (the race between its read and its insert) loses on insert, reads
    the winner's rows and answers ``stale``; a move id the other process
    stored is acknowledged as a duplicate."""
    assert pg_cluster is not None
    from oracles.server.config import database_url
    from oracles.server.protocol import ProtocolError

    url = database_url(pg_cluster.new_database())

    async def scenario() -> None:
        async with two_hubs(url) as (_hubs, (first, second)):
            assert second is not None and second.version == first.version
            version, seat = first.version, first.state.current_player()
            legal = [first.state.action_to_string(a) for a in first.state.legal_actions()]
            real_catch_up = second.catch_up
            calls = 0

            async def late_catch_up() -> bool:
                nonlocal calls
                calls += 1
                return False if calls == 1 else await real_catch_up()

            second.catch_up = late_catch_up  # type: ignore[method-assign]
            ack = await first.submit(seat, legal[0], version, "won")
            assert ack.version == version + 1 and not ack.duplicate
            with pytest.raises(ProtocolError) as lost:
                await second.submit(seat, legal[-1], version, "lost")
            assert lost.value.code == "stale"
            assert second.version == first.version and second.texts == first.texts
            # The winner's id, resent through the other process: a duplicate.
            again = await second.submit(seat, legal[0], version, "won")
            assert again.duplicate and again.version == version + 1

    asyncio.run(scenario())


def test_listener_reconnects_and_catches_up(pair: tuple[ProcessServer, ProcessServer]) -> None:
    """The listening connections are cut (as by a database restart); a move
    made while they are down still reaches the other process's socket once
    its listener is back."""
    import asyncpg

    a, b = pair

    async def scenario() -> None:
        table = await create(a, ["human"] * 4)
        async with Client(seat_url(a, table, 0)) as probe:
            first = await probe.recv_type("state")
        version = first["version"]
        # Find the seat to move, connected to A; a spectator on B.
        mover = None
        for seat in range(4):
            async with Client(seat_url(a, table, seat)) as candidate:
                if (await candidate.recv_type("state"))["legal"]:
                    mover = seat
                    break
        assert mover is not None
        async with (
            Client(seat_url(a, table, mover)) as on_a,
            Client(f"{b.ws_base}/ws/tables/{table['id']}") as on_b,
        ):
            state = await on_a.recv_type("state")
            await on_b.recv_type("state")
            db_url = a.db.replace("postgresql://", "postgres://")
            conn = await asyncpg.connect(db_url)
            try:
                cut = await conn.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
                    "oracles-listener",
                )
            finally:
                await conn.close()
            assert cut == 2
            await on_a.send({"type": "move", "action": state["legal"][0], "version": version, "id": "m"})
            assert (await on_b.state_at_least(version + 1, timeout=15))["version"] >= version + 1

    asyncio.run(scenario())
    assert_quiet(a, b)


def test_chat_reaches_the_other_process(pair: tuple[ProcessServer, ProcessServer]) -> None:
    a, b = pair

    async def scenario() -> None:
        table = await create(a, ["human"] * 4)
        async with Client(seat_url(a, table, 0)) as on_a, Client(seat_url(b, table, 1)) as on_b:
            await on_a.recv_type("state")
            await on_b.recv_type("state")
            await on_a.send({"type": "chat", "text": "hello <b>"})
            heard = await on_b.recv_type("chat", timeout=5)
            assert heard["seat"] == 0 and heard["text"] == "hello &lt;b&gt;"
            await on_b.send({"type": "chat", "text": "hi"})
            assert (await on_a.recv_type("chat", timeout=5))["text"] == "hello &lt;b&gt;"
            assert (await on_a.recv_type("chat", timeout=5))["text"] == "hi"
            # Each line once on each socket.
            await on_a.drain(0.3)
            await on_b.drain(0.3)
            for client in (on_a, on_b):
                assert [m["text"] for m in client.received if m["type"] == "chat"] == [
                    "hello &lt;b&gt;",
                    "hi",
                ]

    asyncio.run(scenario())
    assert_quiet(a, b)


def test_move_without_a_read_first_still_loses_to_the_other_process(
    pg_cluster: PostgresCluster | None,
) -> None:
    """While the listener hears notices and none said the table moved on, a
    move is played without reading the database first (session 16: the
    read cost a round trip a move). If the other process did store that
    version (its notice still on its way), the unique key refuses the row:
    the move answers ``stale`` and the table takes the other's move; a
    notice of a newer version makes the next move read first."""
    assert pg_cluster is not None
    from oracles.server.config import database_url
    from oracles.server.protocol import ProtocolError

    url = database_url(pg_cluster.new_database())

    async def scenario() -> None:
        async with two_hubs(url) as (hubs, (first, second)):
            assert second is not None and hubs[1].listener is not None
            second.holders += 1  # kept in memory, as a socket there would keep it
            hubs[1].listener.hearing = True  # as if listening, but no notice comes
            real_catch_up, real_commit = second.catch_up, second.commit
            steps: list[str] = []

            async def counted_catch_up() -> bool:
                steps.append("read")
                return await real_catch_up()

            async def counted_commit(rows: list[Any], finished: bool, held_played: int | None = None) -> None:
                steps.append("insert")
                await real_commit(rows, finished, held_played)

            second.catch_up = counted_catch_up  # type: ignore[method-assign]
            second.commit = counted_commit  # type: ignore[method-assign]
            version, seat = first.version, first.state.current_player()
            legal = [first.state.action_to_string(a) for a in first.state.legal_actions()]
            assert (await first.submit(seat, legal[0], version, "won")).version == version + 1
            with pytest.raises(ProtocolError) as lost:
                await second.submit(seat, legal[-1], version, "lost")
            assert lost.value.code == "stale"
            assert steps == ["insert", "read"]  # no read before the move, one after its refusal
            assert second.version == first.version and second.texts == first.texts
            # Now the other process moves again and its notice arrives.
            version, seat = first.version, first.state.current_player()
            legal = [first.state.action_to_string(a) for a in first.state.legal_actions()]
            await first.submit(seat, legal[0], version, "next")
            hubs[1].notified(first.id, first.version)
            steps.clear()
            again = await second.submit(seat, legal[0], version, "next")
            assert again.duplicate and again.version == version + 1
            assert steps[0] == "read" and "insert" not in steps  # read first: nothing refused

    asyncio.run(scenario())
