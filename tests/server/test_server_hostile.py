"""A hostile client against a real listening server (``docs/server.md``, *Limits*).

Each test reproduces one class of attack that a probe found: a file path as
an option, a body streamed past the limit, huge numbers and lone surrogates,
unknown keys, bots and games without end, a flood of tables, a crowd of
spectators, tokens spelt so that a log mask misses them, move ids shared by
two seats, and processes left behind by a killed server. Each asserts the
clear refusal and, where the attack costs the server work, that another
table's bot still moves on time meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, ProcessServer, ThreadServer, http
from test_server_protocol import create, seat_url, watch_url

#: How long a canary table's bot may take to answer a person's move.
CANARY_SECONDS = 10.0


def post_raw(server: Any, path: str, body: bytes) -> tuple[int, Any, dict[str, str]]:
    return http(server.base, "POST", path, body, {"content-type": "application/json"})


async def canary_moves(server: Any) -> float:
    """A person moves at a fresh table of bots; the seconds until the bots
    have answered (the table's version passed theirs)."""
    table = create(server, "inrah", {"rounds": 2}, ["human", "bot:random", "bot:random"])
    async with Client(seat_url(server, table, 0)) as person:
        state = await person.recv_type("state")
        while not state["legal"]:
            state = await person.recv_type("state")
        started = time.monotonic()
        await person.send(
            {"type": "move", "action": state["legal"][0], "version": state["version"], "id": "canary"}
        )
        await person.state_at_least(state["version"] + 2, timeout=CANARY_SECONDS)
        return time.monotonic() - started


def assert_canary(server: Any) -> None:
    waited = asyncio.run(canary_moves(server))
    assert waited < CANARY_SECONDS


# ----------------------------------------------------- 1. options and files
@pytest.mark.parametrize("edition", ["/etc/shadow", "/nonexistent", "../../../etc/passwd", "classic.json"])
def test_an_edition_is_a_name_never_a_path(start_server: Any, tmp_path: Path, edition: str) -> None:
    server: ThreadServer = start_server()
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "options": {"edition": edition}, "seats": ["human", "human", "human", "human"]},
    )
    assert status == 422
    # The same answer whatever the path: nothing of the disk comes back.
    assert body["error"].endswith(f"must be one of classic, balanced on a server, got {edition!r}")
    assert_canary(server)


def test_an_edition_file_on_the_server_is_not_read(start_server: Any, tmp_path: Path) -> None:
    server: ThreadServer = start_server()
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"name": "private", "cards": [{"id": "SECRET-KEY-123"}]}))
    for value in (str(secret), 7):
        status, body, _ = http(
            server.base,
            "POST",
            "/api/tables",
            {"game": "oracle", "options": {"edition": value}, "seats": ["human"] * 4},
        )
        assert status == 422, body
        assert "SECRET" not in body["error"] and "private" not in body["error"]
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "options": {"edition": "Balanced"}, "seats": ["human"] * 4},
    )
    assert status == 201, body


def test_the_lobby_form_refuses_a_path_too(start_server: Any) -> None:
    server: ThreadServer = start_server()
    form = "game=oracle&oracle.players=4&oracle.edition=%2Fetc%2Fshadow&oracle.seat0=human"
    status, body, _ = http(
        server.base, "POST", "/new", form.encode(), {"content-type": "application/x-www-form-urlencoded"}
    )
    assert status == 422
    assert "on a server" in body and "root:" not in body


# ------------------------------------------------------------ 2. big bodies
def test_a_declared_oversize_body_is_refused_unread(start_server: Any) -> None:
    server: ThreadServer = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n{"
        )
        answer = sock.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 413"), answer
    assert "referrer-policy: no-referrer" in answer.lower()


def test_a_socket_handshake_too_long_to_read_is_answered_and_closed(start_server: Any) -> None:
    """Regression: a WebSocket handshake whose URL passed the parser's limit
    was logged as refused (414) but the answer never left and the
    connection stayed open, so a client could hold sockets by the dozen."""
    server: ThreadServer = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"GET /ws/tables/x?token=" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        answer = b""
        while chunk := sock.recv(4096):  # to the close: a hang fails on the timeout
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 4"), answer[:80]


@pytest.mark.parametrize("path", ["/api/tables", "/new"])
def test_a_streamed_oversize_body_is_cut_off(path: str, tmp_path: Path) -> None:
    """Chunked, with no length announced: the server answers 413 once the
    body passes the limit, and its memory does not grow with the body."""
    server = ProcessServer(str(tmp_path / "db.sqlite3"), "--bot-mode", "thread")
    server.start()
    try:
        assert server.proc is not None
        before = rss_kib(server.proc.pid)
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n".encode()
            )
            chunk = b"x" * 65536
            sent = 0
            with contextlib.suppress(OSError):  # the server stops reading and closes
                while sent < 200 * 2**20:
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
        assert sent < 200 * 2**20, "the server read the whole stream"
        # A smaller stream, sent whole: the answer is 413, with the connection closed.
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
            head = f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
            body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(3)) + b"0\r\n\r\n"
            with contextlib.suppress(OSError):
                sock.sendall(head + body)
            answer = sock.recv(4096).decode(errors="replace")
        assert answer.startswith("HTTP/1.1 413"), answer[:200]
        assert "connection: close" in answer.lower()
        assert rss_kib(server.proc.pid) - before < 30 * 1024  # KiB
        assert http(server.base, "GET", "/healthz")[0] == 200
        assert_canary(server)
    finally:
        server.close()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


# ------------------------------------------- 3. huge numbers, lone surrogates
HUGE = "9" * 10_000
#: Nesting that overflowed the decoder's recursion (a RecursionError, a 500),
#: in about 6 KB, far under the body limit.
DEEP = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a": ' * 5000 + "1" + "}" * 5000


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('{"game": "oracle", "options": {"players": ' + HUGE + '}, "seats": ["human"]}', "'options.players'"),
        ('{"game": "oracle", "options": {"' + "k" * 50 + '": 1}, "seats": ["human"]}', "'options'"),
        ('{"game": "oracle", "clock": ' + HUGE + ', "seats": ["human"]}', "'clock'"),
        ('{"game": "oracle", "seats": ["human"], "names": ["\\ud800"]}', "UTF-8"),
        ('{"game": "oracle", "seats": ["\\udfff"]}', "UTF-8"),
        ('{"game": "inrah", "seats": ["human", "human", "human"], "colour": "red"}', "unknown key 'colour'"),
        (
            '{"game": "inrah", "seats": ["human", "human", "human"], "options": {"x": {"y": 1}}}',
            "'options.x'",
        ),
        ("[1, 2]", "expected object"),
        ('{"game": "oracle", "options": {"players": ' + DEEP + '}, "seats": ["human"]}', "nested too deeply"),
        (
            '{"game": "oracle", "options": {"draft": ' + DEEP_OBJECT + '}, "seats": ["human"]}',
            "nested too deeply",
        ),
    ],
)
def test_bodies_that_crashed_a_handler_get_a_422_naming_the_field(
    start_server: Any, body: str, named: str
) -> None:
    server: ThreadServer = start_server()
    status, answer, headers = post_raw(server, "/api/tables", body.encode())
    assert status == 422, answer
    assert named in answer["error"], answer
    assert headers.get("referrer-policy") == "no-referrer"
    assert_canary(server)


def test_invalid_utf8_bytes_get_a_422(start_server: Any) -> None:
    server: ThreadServer = start_server()
    status, answer, _ = post_raw(server, "/api/tables", b'{"game": "oracle\xff", "seats": ["human"]}')
    assert status == 422 and "UTF-8" in answer["error"]


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "move", "action": "bid 0", "version": ' + HUGE + ', "id": "h1"}',
        '{"type": "move", "action": "bid 0", "version": ' + str(2**70) + ', "id": "h2"}',
        '{"type": "chat", "text": "\\ud800"}',
        '{"type": "name", "name": "\\ud800x"}',
        '{"type": "move", "action": "bid 0", "version": 3, "id": "\\udc00"}',
        '{"type": "move", "action": "bid 0", "version": 3, "id": "m1", "colour": 2}',
        '{"type": "hint", "version": -1}',
        DEEP_OBJECT,
        '{"x": ' + DEEP + ', "type": "ping"}',
    ],
)
def test_socket_messages_that_crashed_the_handler_get_bad_message(start_server: Any, raw: str) -> None:
    server: ThreadServer = start_server()
    table = create(server, "inrah", {"rounds": 2}, ["human", "human", "human"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            state = await client.recv_type("state")
            await client.send(raw)
            error = await client.recv_type("error")
            assert error["code"] == "bad_message", error
            # The socket is alive, the table unchanged, the sender still heard.
            await client.send({"type": "ping"})
            await client.recv_type("pong")
            _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
            assert info["version"] == state["version"]

    asyncio.run(scenario())
    assert_canary(server)


# ------------------------------------------------------ 4. work without end
@pytest.mark.parametrize(
    ("game", "options", "seats", "named"),
    [
        ("oracle", {"rounds": 10**9}, ["human"] * 4, "at most 20 on a server"),
        ("codename", {"max_turns": 10**9}, ["human", "human"], "at most 1000 on a server"),
        ("codename", {"max_reveals": 10**6}, ["human", "human"], "at most 20 on a server"),
        ("inrah", {}, ["human", "human", "bot:ismcts:seconds=3600"], "at most 5 seconds a move"),
        ("inrah", {}, ["human", "human", "bot:ismcts:iterations=10000000:seconds=9"], "at most 5 seconds"),
    ],
)
def test_unbounded_work_is_refused(
    start_server: Any, game: str, options: dict[str, Any], seats: list[str], named: str
) -> None:
    server: ThreadServer = start_server()
    status, body, _ = http(
        server.base, "POST", "/api/tables", {"game": game, "options": options, "seats": seats}
    )
    assert status == 422 and named in body["error"], body
    assert_canary(server)


def test_an_iteration_budget_gets_a_time_budget(start_server: Any) -> None:
    server: ThreadServer = start_server(max_bot_seconds=1.0)
    table = create(server, "inrah", {"rounds": 1}, ["human", "human", "bot:ismcts:iterations=10000000"])
    assert table["seats"][2]["bot"] == "ismcts:iterations=10000000:seconds=1"


def test_searching_bots_of_unwatched_tables_do_not_starve_a_watched_one(start_server: Any) -> None:
    """Four tables of the slowest bots allowed, nobody watching, on one
    worker: a person's table still gets its bots' moves at once."""
    server: ThreadServer = start_server(bot_workers=1, max_bot_seconds=2.0)
    for _ in range(4):
        create(server, "inrah", {"rounds": 3}, ["bot:ismcts:seconds=2"] * 3)
    time.sleep(0.5)
    assert_canary(server)


def test_a_stored_endless_bot_is_bounded_when_resumed(tmp_path: Path) -> None:
    """A table stored with a bot beyond the limits (an older server, or a
    larger limit then) does not pin the worker after a restart."""
    db = str(tmp_path / "db.sqlite3")
    first = ProcessServer(db, "--bot-mode", "thread", "--limit", "max_bot_seconds=3600")
    first.start()
    try:
        table = create(first, "inrah", {"rounds": 2}, ["human", "bot:ismcts:seconds=3600", "bot:random"])
    finally:
        first.close()
    second = ProcessServer(db, "--bot-mode", "thread", "--bot-pause", "0")
    second.start()
    try:

        async def scenario() -> None:
            async with Client(seat_url(second, table, 0)) as person:
                state = await person.recv_type("state")
                while not state["legal"]:
                    state = await person.recv_type("state")
                await person.send(
                    {"type": "move", "action": state["legal"][0], "version": state["version"], "id": "p1"}
                )
                await person.state_at_least(state["version"] + 2, timeout=CANARY_SECONDS)

        asyncio.run(scenario())
        assert "bot bounded" in second.output()
    finally:
        second.close()


# --------------------------------------------------------- 5. floods
def test_a_creation_flood_is_rate_limited(start_server: Any) -> None:
    server: ThreadServer = start_server(create_burst=10, create_rate=0.5)
    answers = [
        http(server.base, "POST", "/api/tables", {"game": "inrah", "seats": ["human"] * 3}) for _ in range(25)
    ]
    statuses = [status for status, _, _ in answers]
    assert statuses.count(201) <= 12 and statuses[:10] == [201] * 10
    refused = next(a for a in answers if a[0] == 429)
    assert int(refused[2]["retry-after"]) >= 1 and "too many new tables" in refused[1]["error"]
    _, health, _ = http(server.base, "GET", "/healthz")
    assert health["tables"] == 0  # tables that wait for people are not held in memory
    time.sleep(2.5)  # the bucket refills: the flood's address may create again
    assert_canary(server)


def test_unwatched_bot_tables_are_capped(start_server: Any) -> None:
    server: ThreadServer = start_server(max_unattended=3, bot_pause=5.0)
    statuses = [
        http(server.base, "POST", "/api/tables", {"game": "inrah", "seats": ["bot:random"] * 3})[0]
        for _ in range(6)
    ]
    assert statuses[:3] == [201] * 3 and set(statuses[3:]) == {503}
    assert_canary_when_full(server)


def assert_canary_when_full(server: Any) -> None:
    """A person's table while the cap is reached: refused (503) with a
    time to come back, the server answering meanwhile."""
    status, body, headers = http(
        server.base, "POST", "/api/tables", {"game": "inrah", "seats": ["human", "bot:random", "bot:random"]}
    )
    assert status == 503 and int(headers["retry-after"]) > 0, body
    assert http(server.base, "GET", "/healthz")[0] == 200


def test_a_spectator_crowd_costs_a_seat_few_messages(start_server: Any) -> None:
    server: ThreadServer = start_server(connect_burst=200)
    table = create(server, "oracle", {"rounds": 1}, ["human", "bot:random", "bot:random", "bot:random"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as person:
            await person.recv_type("state")
            await person.drain(0.3)
            before = len(person.received)
            crowd = [Client(watch_url(server, table)) for _ in range(80)]
            await asyncio.gather(*(c.connect() for c in crowd))
            await asyncio.gather(*(c.recv_type("state") for c in crowd))
            await asyncio.gather(*(c.close() for c in crowd))
            await person.drain(0.5)
            extra = [m for m in person.received[before:] if m["type"] == "seats"]
            assert len(extra) <= 2, len(extra)  # spectators change no seat

    asyncio.run(scenario())
    assert_canary(server)


def test_sockets_per_table_are_capped(start_server: Any) -> None:
    server: ThreadServer = start_server(max_sockets_per_table=5)
    table = create(server, "inrah", {"rounds": 1}, ["human", "human", "human"])

    async def scenario() -> None:
        crowd = [Client(watch_url(server, table)) for _ in range(5)]
        await asyncio.gather(*(c.connect() for c in crowd))
        with pytest.raises(Exception, match="503"):
            await Client(watch_url(server, table)).connect()
        await asyncio.gather(*(c.close() for c in crowd))

    asyncio.run(scenario())


def test_chat_is_rate_limited_per_table(start_server: Any) -> None:
    server: ThreadServer = start_server(chat_burst=3, chat_rate=0.1)
    table = create(server, "inrah", {"rounds": 1}, ["human", "human", "human"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as one, Client(seat_url(server, table, 1)) as two:
            for client in (one, two):
                await client.recv_type("state")
            for i in range(3):
                await (one if i % 2 else two).send({"type": "chat", "text": f"line {i}"})
            await two.send({"type": "chat", "text": "one too many"})
            error = await two.recv_type("error")
            assert "too many chat lines" in error["message"]

    asyncio.run(scenario())


# ---------------------------------------------------------- 6. tokens in logs
def test_no_spelling_of_a_token_reaches_the_log(tmp_path: Path) -> None:
    server = ProcessServer(str(tmp_path / "db.sqlite3"), "--bot-mode", "thread", "--log-level", "debug")
    server.start()
    try:
        table = create(server, "inrah", {"rounds": 1}, ["human", "human", "human"])
        token = table["seats"][0]["token"]

        async def scenario() -> None:
            for query in (f"tok%65n={token}", f"%74oken={token}", f"TOKEN={token}", f"token={token}"):
                url = f"{server.ws_base}/ws/tables/{table['id']}?{query}"
                try:
                    async with Client(url) as client:
                        await client.recv_type("state")
                except Exception:
                    pass  # refused (TOKEN= is no credential): logged all the same
            http(server.base, "GET", f"/t/{table['id']}?tok%65n={token}")

        asyncio.run(scenario())
        time.sleep(0.3)
        log = server.output()
        assert "WebSocket" in log or "connected" in log
        assert token not in log
        assert token[:12] not in log
    finally:
        server.close()


# ----------------------------------------------------- 7. move ids per seat
def test_two_seats_may_use_the_same_move_id(start_server: Any) -> None:
    server: ThreadServer = start_server()
    table = create(server, "inrah", {"rounds": 2}, ["human", "human", "human"])

    async def scenario() -> None:
        clients = [Client(seat_url(server, table, seat)) for seat in range(3)]
        for client in clients:
            await client.connect()
            await client.recv_type("state")
        applied = 0
        for _ in range(2):
            await asyncio.sleep(0.1)
            for client in clients:
                await client.drain(0.05)
            mover = next(c for c in clients if c.state and c.state["legal"])
            state = mover.state
            assert state is not None
            await mover.send(
                {"type": "move", "action": state["legal"][0], "version": state["version"], "id": "same"}
            )
            ack = await mover.recv_type("ack")
            assert "duplicate" not in ack
            applied += 1
        # ...and an id resent by the same seat is still a resend.
        for client in clients:
            await client.close()
        assert applied == 2

    asyncio.run(scenario())


def test_ack_comes_before_state(start_server: Any) -> None:
    server: ThreadServer = start_server()
    table = create(server, "inrah", {"rounds": 1}, ["bot:random", "human", "bot:random"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 1)) as client:
            state = await client.recv_type("state")
            while not state["legal"]:
                state = await client.recv_type("state")
            await client.drain(0.1)
            start = len(client.received)
            await client.send(
                {"type": "move", "action": state["legal"][0], "version": state["version"], "id": "o1"}
            )
            await client.state_at_least(state["version"] + 1)
            kinds = [m["type"] for m in client.received[start:]]
            assert kinds.index("ack") < kinds.index("state"), kinds

    asyncio.run(scenario())


# ------------------------------------------------- 8. errors and processes
def test_a_failing_route_answers_500_with_the_policy_and_a_log_line(
    start_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from starlette.routing import Route

    server: ThreadServer = start_server()

    async def broken(request: Any) -> Any:
        raise RuntimeError("boom")

    server.app.router.routes.insert(0, Route("/broken", broken))
    with caplog.at_level("ERROR", logger="oracles.server"):
        status, body, headers = http(server.base, "GET", "/broken?token=abc")
    assert status == 500 and "logged" in body["error"]
    assert headers.get("referrer-policy") == "no-referrer"
    assert any(r.getMessage() == "request failed" for r in caplog.records)


def children_of_session(sid: int) -> list[int]:
    """Processes still in the session the server was started in (the
    server itself, its bot workers, their resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def wait_for_no_children(sid: int, seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = children_of_session(sid)
        if not left:
            return []
        time.sleep(0.2)
    return children_of_session(sid)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_no_process_outlives_the_server(tmp_path: Path, how: signal.Signals) -> None:
    """A server whose bot worker is in the middle of a search is killed
    (or told to stop): its worker and the worker's helpers end with it."""
    server = ProcessServer(str(tmp_path / "db.sqlite3"), "--bot-pause", "0")
    server.start()
    assert server.proc is not None
    sid = os.getsid(server.proc.pid)
    try:
        create(server, "inrah", {"rounds": 5}, ["bot:ismcts:seconds=5"] * 3)
        deadline = time.monotonic() + 30
        while len(children_of_session(sid)) < 2:  # the worker has started
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.1)
        time.sleep(1.0)  # well inside a five-second search
        os.kill(server.proc.pid, how)
        server.proc.wait(timeout=20)
        assert wait_for_no_children(sid) == []
    finally:
        for pid in children_of_session(sid):
            os.kill(pid, signal.SIGKILL)
        server.close()


def test_every_limit_is_documented() -> None:
    from oracles.server.config import LIMIT_FIELDS, Settings

    docs = (Path(__file__).parents[2] / "docs" / "server.md").read_text()
    table = docs[docs.index("## Limits") : docs.index("## Secrecy")]
    for name in LIMIT_FIELDS:
        assert f"`{name}`" in table, name
        assert hasattr(Settings(db_url="sqlite+aiosqlite:///x"), name)


def test_a_restart_after_a_flood_answers_at_once_and_holds_little(tmp_path: Path) -> None:
    """Tables waiting for people who never came cost no memory after a
    restart: the server answers at once, resumes them in the background
    and lets them go again."""
    db = str(tmp_path / "db.sqlite3")
    first = ProcessServer(db, "--bot-mode", "thread", "--limit", "create_burst=1000")
    first.start()
    try:
        for _ in range(60):
            create(first, "oracle", {"rounds": 1}, ["human", "bot:random", "bot:random", "bot:random"])
    finally:
        first.kill()
        first.log.close()
    second = ProcessServer(db, "--bot-mode", "thread")
    started = time.monotonic()
    second.start()
    try:
        assert time.monotonic() - started < 15
        deadline = time.monotonic() + 30
        while "resumed" not in second.output():
            assert time.monotonic() < deadline, second.output()[-2000:]
            time.sleep(0.1)
        # Bots whose turn it was play on; then each table waits for its person, out of memory.
        while http(second.base, "GET", "/healthz")[1]["tables"] > 0:
            assert time.monotonic() < deadline + 30, "tables waiting for people stay in memory"
            time.sleep(0.2)
        _, lobby, _ = http(second.base, "GET", "/api/tables")
        assert len(lobby["tables"]) == 60  # listed all the same, from the database
        assert_canary(second)
    finally:
        second.close()


def test_the_message_table_in_the_docs_is_the_protocols_own() -> None:
    from oracles.server.protocol import message_table

    docs = (Path(__file__).parents[2] / "docs" / "server.md").read_text()
    start = docs.index("<!-- messages:")
    block = docs[docs.index("\n", start) + 1 : docs.index("<!-- /messages -->")]
    assert block.strip() == message_table().strip(), "run message_table() and paste it into docs/server.md"


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ('{"players": "4"}', "'options.players' must be a JSON integer"),
        ('{"players": 4.0}', "'options.players'"),
        ('{"draft": "yes"}', "'options.draft' must be true or false"),
        ('{"draft": 1}', "'options.draft'"),
        ('{"removed_colour": 3, "players": 3}', "'options.removed_colour' must be a JSON string"),
        # The value quoted is cut to 40 bytes: inside a letter of two bytes too.
        ('{"players": "' + "é" * 30 + '"}', "'options.players' must be a JSON integer"),
    ],
)
def test_options_of_another_json_type_get_a_422(start_server: Any, options: str, named: str) -> None:
    """The command line's texts ("players=4", "draft=yes") are read as their
    values; over JSON a value has its own type, and "4" is not a number."""
    server: ThreadServer = start_server()
    body = '{"game": "oracle", "options": ' + options + ', "seats": ["human", "human", "human"]}'
    status, answer, _ = post_raw(server, "/api/tables", body.encode())
    assert status == 422, answer
    assert named in answer["error"], answer
    good = '{"game": "oracle", "options": {"players": 3, "draft": true, "removed_colour": "g"}, '
    status, answer, _ = post_raw(
        server, "/api/tables", (good + '"seats": ["human", "human", "human"]}').encode()
    )
    assert status == 201, answer


def test_a_page_of_another_site_cannot_create_tables_or_take_seats(start_server: Any) -> None:
    """A browser names the page that sends a request (Origin, Sec-Fetch-Site):
    one of another site (a form can post JSON as text/plain) is refused 403;
    the server's own pages and programs, which send neither, go through."""
    server: ThreadServer = start_server()
    body = json.dumps({"game": "codename", "seats": ["human", "human"]}).encode()
    plain = {"content-type": "text/plain"}
    status, answer, _ = http(
        server.base, "POST", "/api/tables", body, {**plain, "origin": "https://evil.example"}
    )
    assert status == 403 and "another site" in answer["error"], answer
    # A page without a referrer says "Origin: null": where it was sent from decides.
    cross = {**plain, "origin": "null", "sec-fetch-site": "cross-site"}
    assert http(server.base, "POST", "/api/tables", body, cross)[0] == 403
    own = {**plain, "origin": "null", "sec-fetch-site": "same-origin"}
    assert http(server.base, "POST", "/api/tables", body, own)[0] == 201
    status, table, _ = http(server.base, "POST", "/api/tables", body, {**plain, "origin": server.base})
    assert status == 201, table
    status, _, _ = http(
        server.base,
        "POST",
        f"/api/tables/{table['id']}/join",
        b'{"seat": 1}',
        {"origin": "http://evil.example"},
    )
    assert status == 403
    status, joined, _ = http(server.base, "POST", f"/api/tables/{table['id']}/join", b'{"seat": 1}')
    assert status == 200, joined


@pytest.mark.parametrize("name", ["a\u0000b", "\u200b", "\u202eevil", "bell\u0007"])
def test_a_name_with_control_characters_is_refused_everywhere(start_server: Any, name: str) -> None:
    """Regression: ``POST /api/tables`` and the socket's ``name`` message
    stored a NUL, a bell, a zero-width space or a right-to-left override in
    a seat's name (shown to every seat); only ``join`` refused them."""
    server = start_server()
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "seats": ["human"] * 4, "names": [name, None, None, None]},
    )
    assert status == 422 and body["error"] == "seat 0: a name has no control characters", body
    table = create(server, "oracle", {}, ["human", "bot:random", "bot:random", "bot:random"])

    async def rename() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await client.recv_type("state")
            await client.send({"type": "name", "name": name})
            error = await client.recv_type("error")
            assert error["code"] == "bad_message" and "control characters" in error["message"], error

    asyncio.run(rename())
    _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
    assert info["seats"][0]["name"] == "Seat 1"
    # Spaces are folded as a name sent later is.
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "seats": ["human"] * 4, "names": ["  Ann   Lee ", None, None, None]},
    )
    assert status == 201
    _, info, _ = http(server.base, "GET", f"/api/tables/{body['id']}")
    assert info["seats"][0]["name"] == "Ann Lee"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"", "the body is empty: send a JSON object"),
        (b"  \n", "the body is empty: send a JSON object"),
        (b'{"game": "oracle", "seats": ["human"], "names": ["\\ud800"]}', "without its pair is no character"),
    ],
)
def test_an_empty_body_or_a_lone_surrogate_is_named_as_such(
    start_server: Any, body: bytes, said: str
) -> None:
    """Regression: an empty body was refused as "expected object, got null",
    and half a UTF-16 pair at a string's end as "Input data was truncated";
    over the socket too."""
    server = start_server()
    status, answer, _ = post_raw(server, "/api/tables", body)
    assert status == 422 and said in answer["error"], answer
    table = create(server, "oracle", {}, ["human", "bot:random", "bot:random", "bot:random"])

    async def chat() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await client.recv_type("state")
            await client.send('{"type": "chat", "text": "\\ud800"}')
            error = await client.recv_type("error")
            assert "without its pair is no character" in error["message"], error

    asyncio.run(chat())
