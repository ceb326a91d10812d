"""The SQLite group-commit writer (``oracles.server.writer``): writes that
wait together are committed in one transaction, a bad move in a batch fails
alone, nothing is answered before it is committed, and a write's result
(a chat line's id) comes back to its caller."""

from __future__ import annotations

import asyncio
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy.exc import IntegrityError

from oracles.server import db
from oracles.server.db import MoveRow
from oracles.server.writer import SQLiteWriter, Write, sqlite_path


def make_db(path: Path) -> None:
    engine = create_engine(f"sqlite:///{path}")
    db.metadata.create_all(engine)
    engine.dispose()
    with sqlite3.connect(path) as conn:
        for table_id in ("a", "b", "c"):
            conn.execute(
                "INSERT INTO tables (id, game, options, status, created_at) VALUES (?, 'oracle', '{}', 'playing', '2026-01-01')",
                (table_id,),
            )


def stored(path: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT table_id, version, action FROM moves ORDER BY table_id, version"
        ).fetchall()


def move(version: int, action: str = "play R1") -> MoveRow:
    return MoveRow(version, 0, action, f"id{version}-{action}")


async def write_moves(writer: SQLiteWriter, table_id: str, rows: list[MoveRow], finished: bool) -> None:
    await writer.write(partial(db.record_moves, table_id=table_id, rows=rows, finished=finished))


async def blocked_then_queued(
    path: Path, writer: SQLiteWriter, later: list[tuple[str, MoveRow] | Write[Any]]
) -> list[object]:
    """Hold SQLite's write lock while a first move waits for it and ``later``
    moves (or other writes) queue up behind; release it; the answers of the
    later ones."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        first = asyncio.create_task(write_moves(writer, "a", [move(1)], False))
        await asyncio.sleep(0)  # the first move is queued
        for _ in range(1000):  # until the writer holds the first move, waiting for the lock
            if writer._jobs.empty():
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # and has looked for more to batch with it
        rest = [
            asyncio.create_task(
                write_moves(writer, job[0], [job[1]], False) if isinstance(job, tuple) else writer.write(job)
            )
            for job in later
        ]
        await asyncio.sleep(0)  # every later move is queued
        assert not first.done() and not any(task.done() for task in rest)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    await first
    answers: list[object] = await asyncio.gather(*rest, return_exceptions=True)
    return answers


def test_moves_waiting_together_are_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_db(path)
    writer = SQLiteWriter(str(path), busy_timeout=20)
    writer.start()
    try:
        answers = asyncio.run(
            blocked_then_queued(path, writer, [("b", move(1)), ("c", move(1)), ("a", move(2))])
        )
    finally:
        writer.close()
    assert answers == [None, None, None]
    assert writer.written == 4 and writer.batches == 2
    assert stored(path) == [
        ("a", 1, "play R1"),
        ("a", 2, "play R1"),
        ("b", 1, "play R1"),
        ("c", 1, "play R1"),
    ]


def test_a_bad_move_fails_alone_and_the_rest_of_its_batch_is_stored(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_db(path)
    writer = SQLiteWriter(str(path), busy_timeout=20)
    writer.start()
    try:
        # Table a's version 1 is taken by the first move: the second one is a duplicate.
        answers = asyncio.run(
            blocked_then_queued(path, writer, [("b", move(1)), ("a", move(1, "play R2")), ("c", move(1))])
        )
    finally:
        writer.close()
    assert answers[0] is None and answers[2] is None
    assert isinstance(answers[1], IntegrityError)
    assert stored(path) == [("a", 1, "play R1"), ("b", 1, "play R1"), ("c", 1, "play R1")]


def test_other_writes_share_the_batch_and_their_results_come_back(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_db(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO seats (table_id, seat, kind, name) VALUES ('b', 0, 'human', 'Ada')")
    writer = SQLiteWriter(str(path), busy_timeout=20)
    writer.start()
    try:
        answers = asyncio.run(
            blocked_then_queued(
                path,
                writer,
                [
                    partial(db.insert_chat, table_id="b", seat=0, text="hello"),
                    partial(db.rename_seat, table_id="b", seat=0, name="Ada L."),
                    ("c", move(1)),
                    partial(db.insert_chat, table_id="c", seat=None, text="hi"),
                ],
            )
        )
    finally:
        writer.close()
    # The first move alone, then the four others in one transaction; each
    # chat line's id comes back to its own caller.
    assert writer.batches == 2 and writer.written == 5
    assert answers == [1, None, None, 2]
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT id, table_id, text FROM chat ORDER BY id").fetchall() == [
            (1, "b", "hello"),
            (2, "c", "hi"),
        ]
        assert conn.execute("SELECT name FROM seats").fetchall() == [("Ada L.",)]


def test_finished_marks_the_table_and_close_writes_what_is_queued(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_db(path)
    writer = SQLiteWriter(str(path))
    writer.start()

    async def write_and_close() -> None:
        task = asyncio.create_task(write_moves(writer, "b", [move(1), move(2, "chance")], True))
        await asyncio.sleep(0)
        await asyncio.to_thread(writer.close)
        await task

    asyncio.run(write_and_close())
    assert stored(path) == [("b", 1, "play R1"), ("b", 2, "chance")]
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT status FROM tables WHERE id = 'b'").fetchone() == ("finished",)
        assert conn.execute("SELECT finished_at IS NOT NULL FROM tables WHERE id = 'b'").fetchone() == (1,)
    # Once closed, everything is in the database file itself (not only its WAL).
    with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone() == (2,)
    with pytest.raises(RuntimeError):
        asyncio.run(write_moves(writer, "c", [move(1)], False))


def test_only_sqlite_files_get_a_writer() -> None:
    from sqlalchemy.engine import make_url

    assert sqlite_path(make_url("sqlite+aiosqlite:////tmp/x.sqlite3")) == "/tmp/x.sqlite3"
    assert sqlite_path(make_url("sqlite+aiosqlite://")) is None
    assert sqlite_path(make_url("sqlite+aiosqlite:///:memory:")) is None
    assert sqlite_path(make_url("postgresql+asyncpg://u@h/d")) is None
