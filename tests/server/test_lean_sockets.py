"""A quiet socket holds little (issue 38: at most 48 KiB of server memory an
idle socket at 5,000 sockets): no writer task or queue of its own while
nothing is to be sent, no middleware frames, no handshake kept, and the
notations and log pieces every table repeats held once.

Each test fails if its part of the saving is undone; the figure itself is
the server benchmark's (``benchmarks/server.py``, KiB/idle socket)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http
from websockets.exceptions import InvalidStatus

from oracles.core.registry import load_game
from oracles.server import runtime
from oracles.server.connection import MAX_QUEUE, Connection
from oracles.server.sockets import EventQueue, LeanWebSocketProtocol


class Sink:
    """A socket's ``send_text`` that waits for a go before each write."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.go = asyncio.Event()
        self.fail = False

    async def __call__(self, text: str) -> None:
        await self.go.wait()
        if self.fail:
            raise RuntimeError("the socket is gone")
        self.written.append(text)


def three_people(server: ThreadServer) -> dict[str, Any]:
    """A new Oracle table of three human seats."""
    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "options": {"players": 3}, "seats": ["human"] * 3},
    )
    assert status == 201, table
    return table  # type: ignore[no-any-return]


async def settle(conn: Connection) -> None:
    while conn.writer is not None:
        await asyncio.sleep(0)


def test_an_idle_connection_holds_no_task_and_keeps_the_order() -> None:
    async def scenario() -> None:
        sink = Sink()
        conn = Connection(sink, seat=0)
        assert conn.writer is None
        conn.send("a")
        writer = conn.writer
        assert writer is not None
        await asyncio.sleep(0)
        # Queued while "a" is being written: the same writer takes them, in order.
        conn.send("b")
        conn.send({"type": "pong"})
        assert conn.writer is writer
        sink.go.set()
        await settle(conn)
        assert sink.written == ["a", "b", '{"type":"pong"}']
        # Quiet again: nothing running; the next message starts a new writer.
        conn.send("c")
        await settle(conn)
        assert sink.written[-1] == "c" and conn.writer is None

    asyncio.run(scenario())


def test_closing_still_writes_what_was_queued_and_a_failed_write_closes() -> None:
    async def scenario() -> None:
        sink = Sink()
        conn = Connection(sink, seat=None)
        conn.send("last words")
        conn.close()
        conn.send("too late")
        sink.go.set()
        await settle(conn)
        assert sink.written == ["last words"]

        broken = Sink()
        broken.fail = True
        broken.go.set()
        conn = Connection(broken, seat=1)
        conn.send("x")
        conn.send("y")
        await settle(conn)
        assert conn.closed and broken.written == []

    asyncio.run(scenario())


def test_a_reader_too_slow_is_closed() -> None:
    async def scenario() -> None:
        sink = Sink()  # never let go: nothing is written
        conn = Connection(sink, seat=0)
        for index in range(MAX_QUEUE + 2):
            conn.send(str(index))
        assert conn.closed
        assert conn.writer is not None
        conn.writer.cancel()

    asyncio.run(scenario())


def test_event_queue_wakes_its_reader_in_order() -> None:
    async def scenario() -> None:
        queue = EventQueue()
        assert queue.empty()
        reader = asyncio.ensure_future(queue.get())
        await asyncio.sleep(0)
        assert not reader.done()
        queue.put_nowait({"n": 1})
        queue.put_nowait({"n": 2})
        assert await reader == {"n": 1}
        assert queue.qsize() == 1 and await queue.get() == {"n": 2} and queue.empty()

    asyncio.run(scenario())


def test_the_real_server_lets_the_handshake_go_and_idles_without_tasks(start_server: Any) -> None:
    server: ThreadServer = start_server()
    table = three_people(server)
    url = f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][0]['token']}"

    async def scenario() -> None:
        async with Client(url) as client:
            await client.recv_type("state")
            sockets = [
                p for p in server.server.server_state.connections if isinstance(p, LeanWebSocketProtocol)
            ]
            assert len(sockets) == 1
            protocol = sockets[0]
            assert isinstance(protocol.queue, EventQueue)
            assert protocol.request is None and protocol.response is None
            live = server.app.state.hub.tables[table["id"]]
            deadline = time.monotonic() + 10
            while any(c.writer is not None for c in live.connections) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert [c.writer for c in live.connections] == [None]
            # Still a working socket: it answers.
            await client.send({"type": "ping"})
            await client.recv_type("pong")

    asyncio.run(scenario())


def test_game_sockets_skip_the_middleware_and_other_sockets_do_not(start_server: Any) -> None:
    server: ThreadServer = start_server()
    app = server.app
    stack = app.middleware_stack  # built when the server started (its lifespan)
    assert stack is not None
    seen: list[str] = []

    async def recording(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            seen.append(f"{scope['type']} {scope['path']}")
        await stack(scope, receive, send)

    app.middleware_stack = recording
    table = three_people(server)

    async def scenario() -> None:
        async with Client(f"{server.ws_base}/ws/tables/{table['id']}") as client:
            assert (await client.recv_type("state"))["seat"] is None
        with pytest.raises(InvalidStatus):
            async with Client(f"{server.ws_base}/ws/elsewhere"):
                pass

    asyncio.run(scenario())
    assert seen == ["http /api/tables", "websocket /ws/elsewhere"]
    assert app.url_path_for("game_socket", table_id="abc") == "/ws/tables/abc"


def test_notations_and_log_pieces_are_held_once_across_tables() -> None:
    # The same move at two tables: one string.
    first, second = runtime.shared_text("play " + "R7"), runtime.shared_text("".join(["play ", "R7"]))
    assert first == second and first is second
    deal = "deal " + " ".join(["R1"] * 40)
    assert runtime.shared_text(deal) is deal and deal not in runtime._SHARED_TEXTS

    # Two games played the same way share their logs' plays and card texts.
    game = load_game("oracle", players=4)
    states = []
    for _ in range(2):
        state, rng = game.new_initial_state(), random.Random(5)
        while len(state.log(0)) < 80 and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    logs = [s._logs[0] for s in states]  # the memo the views are copied from
    tricks = [[e for e in log if e["kind"] == "trick"] for log in logs]
    assert tricks[0] and tricks[0][0]["cards"][0] is tricks[1][0]["cards"][0]
    texts = [[e for e in log if "texts" in e] for log in logs]
    assert texts[0] and texts[0][0]["texts"][0] is texts[1][0]["texts"][0]
    deals = [[e for e in log if e["kind"] == "deal"] for log in logs]
    assert deals[0][0]["hand"] is deals[1][0]["hand"]


def test_shared_notations_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "_SHARED_TEXTS", {})
    monkeypatch.setattr(runtime, "SHARED_TEXTS_MAX", 3)
    for index in range(10):
        runtime.shared_text(f"play X{index}")
    assert len(runtime._SHARED_TEXTS) == 3
