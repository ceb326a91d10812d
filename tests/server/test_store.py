"""One writer, one schema (``oracles.server.writer``): on SQLite every write
of a running server goes through the store's writer thread, never through
the async engine beside it; and the times every write stores read back in
one form, through ``db.py``, whichever path wrote them."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from serverkit import Client, ProcessServer, ThreadServer, http
from sqlalchemy import event, select, text

from oracles.server import db
from oracles.server.config import Settings, database_url
from oracles.server.migrate import upgrade
from oracles.server.writer import SQLiteWriter, Store, sqlite_path

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def writes_of(engine: Any) -> list[str]:
    """Every INSERT, UPDATE or DELETE that goes through ``engine`` from now
    on (a sync engine, or an async one's ``sync_engine``), as sent."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in WRITES:
            seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", note)
    return seen


async def play_to_end(client: Client, tag: str) -> None:
    """The first legal move each turn until the game is over."""
    count = 0
    while True:
        state = client.state or await client.recv_type("state")
        if state["status"] == "finished":
            return
        if state["legal"]:
            count += 1
            move = {
                "type": "move",
                "action": state["legal"][0],
                "version": state["version"],
                "id": f"{tag}{count}",
            }
            await client.send(move)
            await client.state_at_least(state["version"] + 1)
        else:
            await client.recv_type("state")


SERVER = Path(db.__file__).parent


def test_no_server_module_opens_a_transaction_beside_the_store() -> None:
    """The behavioural checks here play on SQLite; this one holds for
    PostgreSQL's paths too: only the store (and the migrations) begin a
    transaction, and no module writes raw SQL."""
    opened: list[str] = []
    raw: list[str] = []
    for source in sorted(SERVER.glob("*.py")):
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{source.name}:{number}: {line.strip()}"
            if re.search(r"\.begin(_nested)?\(", line) and source.name not in ("writer.py", "migrate.py"):
                opened.append(where)
            if re.search(r"[\"'](INSERT|UPDATE|DELETE)\s", line):
                raw.append(where)
    assert opened == [] and raw == []


def test_every_write_of_a_game_goes_through_the_writer_thread(tmp_path: Path, monkeypatch: Any) -> None:
    """A waiting table with hints, an invite claimed, both people come, a
    chat line, a rename, a hint, a game to its end and a rematch: all of it
    is written by the writer thread's connection, and not one INSERT,
    UPDATE or DELETE goes through the async engine the reads use."""
    settings = Settings(
        db_url=database_url(str(tmp_path / "db.sqlite3")), bot_pause=0.0, bot_mode="thread", grace=60.0
    )
    moved_from: dict[str, int] = {}
    insert_moves = db.insert_moves

    def noted(conn: Any, table_id: str, rows: list[Any]) -> None:
        name = threading.current_thread().name
        moved_from[name] = moved_from.get(name, 0) + len(rows)
        insert_moves(conn, table_id, rows)

    monkeypatch.setattr(db, "insert_moves", noted)
    with ThreadServer(settings) as server:
        hub = server.app.state.hub
        assert hub.writer is not None
        beside = writes_of(hub.engine.sync_engine)
        written = writes_of(hub.writer.engine)
        body = {
            "game": "codename",
            "options": {"max_turns": 2},
            "seats": ["human", "human"],
            "wait": True,
            "hints": True,
        }
        status, table, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 201, table
        tid, ann = table["id"], table["seats"][0]["token"]
        status, claim, _ = http(server.base, "POST", f"/api/tables/{tid}/join", {"seat": 1, "name": "Bob"})
        assert status == 200, claim

        async def scenario() -> int:
            base = f"{server.ws_base}/ws/tables/{tid}"
            async with (
                Client(f"{base}?token={ann}") as first,
                Client(f"{base}?token={claim['token']}") as second,
            ):
                states = [await first.recv_type("state"), await second.recv_type("state")]
                while any(state.get("waiting") for state in states):
                    states = [await first.recv_type("state"), await second.recv_type("state")]
                await first.send({"type": "chat", "text": "good luck"})
                assert (await second.recv_type("chat"))["text"] == "good luck"
                await second.send({"type": "name", "name": "Robert"})
                await first.recv_type("seats")
                to_act, client = next(
                    (seat, c) for seat, c in enumerate([first, second]) if c.state and c.state["legal"]
                )
                await client.send({"type": "hint", "version": client.state["version"], "id": "h"})
                assert (await client.recv_type("hint"))["seat"] == to_act
                await asyncio.gather(play_to_end(first, "a"), play_to_end(second, "b"))
            status, again, _ = http(server.base, "POST", f"/api/tables/{tid}/rematch?token={ann}")
            assert status == 201, again
            return to_act

        to_act = asyncio.run(scenario())
        summary = http(server.base, "GET", f"/api/tables/{tid}")[1]
        assert summary["status"] == "finished"
        assert summary["hints"]["taken"][to_act] == 1
        assert [s["name"] for s in summary["seats"]] == ["Seat 1", "Robert"]
    assert beside == []
    # Moves go to the writer's driver connection as one statement compiled
    # from the table (db.insert_moves), beneath the engine's events: each
    # was written from the writer thread, and they are all stored.
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        stored = conn.execute("SELECT count(*) FROM moves WHERE table_id = ?", (tid,)).fetchone()[0]
    assert stored == summary["version"] == sum(moved_from.values()), (stored, moved_from)
    assert set(moved_from) == {"oracles-writer"}, moved_from
    kinds = {" ".join(statement.split()[:3]) for statement in written}
    assert {
        "INSERT INTO tables",
        "INSERT INTO seats",
        "INSERT INTO chat",
        "INSERT INTO table_hints",
        "INSERT INTO hints_taken",
        "UPDATE seats SET",
        "UPDATE tables SET",
    } <= kinds, kinds


def test_the_abandoned_sweep_and_a_return_write_through_the_writer_too(tmp_path: Path) -> None:
    """A table nobody touches is marked abandoned by the hub's sweep, and
    played again when someone asks for it: both through the writer thread."""
    path = tmp_path / "db.sqlite3"
    settings = Settings(db_url=database_url(str(path)), bot_mode="thread", abandon_after=1.0)
    with ThreadServer(settings) as server:
        hub = server.app.state.hub
        beside = writes_of(hub.engine.sync_engine)
        written = writes_of(hub.writer.engine)
        body = {"game": "codename", "seats": ["human", "human"]}
        status, table, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 201, table
        for _ in range(300):
            with sqlite3.connect(path) as conn:
                (found,) = conn.execute("SELECT status FROM tables WHERE id = ?", (table["id"],)).fetchone()
            if found == "abandoned":
                break
            time.sleep(0.05)
        assert found == "abandoned"
        status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert status == 200 and summary["status"] == "playing", summary
    assert beside == []
    assert sum(statement.startswith("UPDATE tables SET status=?") for statement in written) >= 2, written


def test_a_chat_line_and_a_game_end_once_told_survive_sigkill(new_db: Callable[[], str]) -> None:
    """What the store acknowledged is on disk: the chat line its sender
    heard back and the end of the game a ``state`` told are there after a
    SIGKILL and a restart on the same database."""
    server = ProcessServer(new_db(), "--bot-pause", "0", "--bot-mode", "thread", "--grace", "600")
    server.start()
    try:
        body = {"game": "codename", "options": {"max_turns": 2}, "seats": ["human", "bot:random"]}
        status, table, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 201, table
        url = f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][0]['token']}"

        async def say_and_finish() -> None:
            async with Client(url) as person:
                await person.recv_type("state")
                await person.send({"type": "chat", "text": "still here"})
                assert (await person.recv_type("chat"))["text"] == "still here"
                await play_to_end(person, "p")

        asyncio.run(say_and_finish())
        server.kill()
        server.start()
        status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert status == 200 and summary["status"] == "finished", summary

        async def come_back() -> list[str]:
            async with Client(url) as person:
                await person.recv_type("state")
                await person.drain(0.3)
                return [m["text"] for m in person.received if m.get("type") == "chat"]

        assert asyncio.run(come_back()) == ["still here"]
    except BaseException:
        print(server.output()[-3000:])
        raise
    finally:
        server.close()


def test_times_read_back_through_db_in_one_form(new_db: Callable[[], str]) -> None:
    """A table, a move and a chat line written through the store (and, on
    SQLite, a move in the text SQLite's writer used to store): each time
    reads back through ``db.py`` as an aware datetime in UTC, so they
    compare with each other and with the clock (SQLite keeps no zone;
    PostgreSQL does)."""
    url = database_url(new_db())

    async def scenario() -> list[datetime | None]:
        engine = db.make_engine(url)
        await upgrade(engine)
        path = sqlite_path(engine.url)
        writer = SQLiteWriter(path) if path is not None else None
        if writer is not None:
            writer.start()
        store = Store(engine, writer)
        try:
            before = datetime.now(UTC)
            row = db.TableRow("t", "codename", {}, None, None, "playing")
            seats = [db.SeatRow(0, "human", None, "Ada", None), db.SeatRow(1, "human", None, "Bo", None)]
            await store.write(partial(db.insert_table, row=row, seat_rows=seats, actions=[]))
            await store.write(
                partial(db.record_moves, table_id="t", rows=[db.MoveRow(1, 0, "x", None)], finished=True)
            )
            chat_id = await store.write(partial(db.insert_chat, table_id="t", seat=0, text="gg"))
            if writer is not None:
                # A row as SQLite's writer stored it before SQLAlchemy bound
                # its times: read back in the same form as the others.
                async with engine.begin() as conn:
                    await conn.execute(
                        text(
                            "INSERT INTO moves (table_id, version, seat, action, created_at)"
                            " VALUES ('t', 2, 1, 'y', '2026-01-01 12:00:00.000000')"
                        )
                    )
            async with engine.connect() as conn:
                made, ended = (
                    await conn.execute(select(db.tables.c.created_at, db.tables.c.finished_at))
                ).one()
                moved = (await conn.scalars(select(db.moves.c.created_at).order_by(db.moves.c.version))).all()
                said = await conn.scalar(select(db.chat.c.created_at).where(db.chat.c.id == chat_id))
            return [before, made, moved[0], ended, said, moved[1] if len(moved) > 1 else None]
        finally:
            if writer is not None:
                await asyncio.to_thread(writer.close)
            await engine.dispose()

    before, made, moved, ended, said, old = asyncio.run(scenario())
    for moment in (made, moved, ended, said) if old is None else (made, moved, ended, said, old):
        assert isinstance(moment, datetime)
        offset = moment.utcoffset()
        assert offset is not None and offset.total_seconds() == 0
    assert before is not None and made is not None and moved is not None
    assert ended is not None and said is not None
    assert before <= made <= moved <= ended <= said
    if old is not None:
        assert old == datetime(2026, 1, 1, 12, tzinfo=UTC)
