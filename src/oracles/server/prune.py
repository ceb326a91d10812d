"""``oracles db prune``: old finished games leave the database.

A finished table is deleted with everything that hangs on it, children
first so that no foreign key points at a missing row: the hints taken, the
hints flag, the chat, the move log, the seats, then the table itself. With
an archive folder each game's record is written there first
(``<table id>.json``, the record format ``oracles replay`` reads, plus a
``table`` entry with its seats' names and its times), and a table is only
deleted once its file is on disk. Tables are taken a batch at a time, the
rows of each batch deleted in one short transaction (see :func:`prune`),
so that a running server's writers wait for short moments only. Unfinished and abandoned tables are never touched.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Connection, Table, delete, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from oracles.core.game import RECORD_FORMAT
from oracles.server.db import chat, held_choices, hints_taken, moves, seats, table_hints, tables
from oracles.server.writer import Store

#: Tables pruned in one transaction.
BATCH = 500

#: The rows of a table that are deleted before it, in this order.
CHILDREN: list[tuple[str, Table]] = [
    ("hints", hints_taken),
    ("hints", table_hints),
    ("chat", chat),
    # A choice held ahead of a turn is a move not yet played: counted with them.
    ("moves", held_choices),
    ("moves", moves),
    ("seats", seats),
]


@dataclass
class PruneCounts:
    """What was (or, on a dry run, would be) deleted, and the files written."""

    tables: int = 0
    seats: int = 0
    moves: int = 0
    chat: int = 0
    hints: int = 0
    archived: int = 0

    def add(self, name: str, count: int) -> None:
        setattr(self, name, getattr(self, name) + count)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def parse_before(text: str, today: Callable[[], datetime] = lambda: datetime.now(UTC)) -> datetime:
    """The moment ``--finished-before`` names, in UTC: an ISO date
    (midnight UTC), an ISO date and time (UTC unless it says otherwise), or
    ``N`` days ago as ``Nd``; ``ValueError`` with the reason otherwise.

    >>> parse_before("2026-01-31")
    datetime.datetime(2026, 1, 31, 0, 0, tzinfo=datetime.timezone.utc)
    >>> parse_before("2026-01-31T12:30+01:00")
    datetime.datetime(2026, 1, 31, 11, 30, tzinfo=datetime.timezone.utc)
    >>> parse_before("30d", lambda: datetime(2026, 3, 1, tzinfo=UTC))
    datetime.datetime(2026, 1, 30, 0, 0, tzinfo=datetime.timezone.utc)
    """
    text = text.strip()
    days = re.fullmatch(r"([0-9]{1,6})d", text)
    if days:
        return today() - timedelta(days=int(days.group(1)))
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        day = date.fromisoformat(text)
        return datetime(day.year, day.month, day.day, tzinfo=UTC)
    if not text.isascii() or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.+\-Z]+", text):
        raise ValueError(
            f"expected a date such as 2026-01-31, a date and time or a number of days such as 90d, got {text!r}"
        )
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _old_finished(before: datetime) -> ColumnElement[bool]:
    return (tables.c.status == "finished") & (tables.c.finished_at < before.astimezone(UTC))


async def count(engine: AsyncEngine, before: datetime) -> PruneCounts:
    """What :func:`prune` would delete (nothing is changed)."""
    counts = PruneCounts()
    doomed = select(tables.c.id).where(_old_finished(before))
    async with engine.connect() as conn:
        counts.tables = int(
            (
                await conn.execute(select(func.count()).select_from(tables).where(_old_finished(before)))
            ).scalar_one()
        )
        for name, child in CHILDREN:
            found = await conn.execute(
                select(func.count()).select_from(child).where(child.c.table_id.in_(doomed))
            )
            counts.add(name, int(found.scalar_one()))
    return counts


async def prune(
    engine: AsyncEngine,
    before: datetime,
    archive: Path | None = None,
    batch: int = BATCH,
    progress: Callable[[PruneCounts], None] | None = None,
) -> PruneCounts:
    """Delete the tables finished before ``before`` and their rows, oldest
    first, ``batch`` tables a transaction; with ``archive``, write each
    game's record there before its rows go. Returns what was deleted."""
    counts = PruneCounts()
    if archive is not None:
        archive.mkdir(parents=True, exist_ok=True)
    # This command is a process of its own, beside any running server, so
    # it cannot hand its writes to the server's writer thread: it has a
    # store of its own, which runs each batch's deletes in one short
    # transaction on the engine. On SQLite the file's write lock puts the
    # two processes' transactions one after the other (each waits its turn,
    # for the busy timeout); the batch is read and archived before that
    # transaction, so the server's moves never wait for the files' flushes.
    store = Store(engine)
    while True:
        async with engine.connect() as conn:
            found = (
                await conn.execute(
                    select(tables)
                    .where(_old_finished(before))
                    .order_by(tables.c.finished_at, tables.c.id)
                    .limit(batch)
                )
            ).all()
            if not found:
                return counts
            if archive is not None:
                counts.archived += await _archive(conn, found, archive)
        deleted = await store.write(partial(delete_tables, ids=[row.id for row in found]))
        for name, number in deleted.items():
            counts.add(name, number)
        if progress is not None:
            progress(counts)


def delete_tables(conn: Connection, ids: list[str]) -> dict[str, int]:
    """The write that deletes the tables ``ids`` with every row hanging on
    them, children first; how many rows of each kind."""
    deleted = {"tables": 0}
    for name, child in CHILDREN:
        result = conn.execute(delete(child).where(child.c.table_id.in_(ids)))
        deleted[name] = deleted.get(name, 0) + int(result.rowcount or 0)
    result = conn.execute(delete(tables).where(tables.c.id.in_(ids)))
    deleted["tables"] += int(result.rowcount or 0)
    return deleted


def archive_name(table_id: str) -> str:
    """The archive file of a table: its id where that is a safe file name
    (the server's ids always are), else a readable stand-in.

    >>> archive_name("Ab-3_x"), archive_name("../etc")
    ('Ab-3_x.json', 'table-2e2e2f657463.json')
    """
    if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", table_id):
        return f"{table_id}.json"
    return f"table-{table_id.encode().hex()[:64]}.json"


def _stamp(moment: datetime | None) -> str | None:
    # db.UTCDateTime reads every time back aware, in UTC, on either database.
    return None if moment is None else moment.isoformat()


async def _archive(conn: AsyncConnection, found: Sequence[Any], folder: Path) -> int:
    """Write the records of the tables ``found`` into ``folder``; how many."""
    ids = [row.id for row in found]
    actions: dict[str, list[str]] = {table_id: [] for table_id in ids}
    for move in await conn.execute(
        select(moves.c.table_id, moves.c.action)
        .where(moves.c.table_id.in_(ids))
        .order_by(moves.c.table_id, moves.c.version)
    ):
        actions[move.table_id].append(move.action)
    people: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in ids}
    for row in await conn.execute(
        select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.bot, seats.c.name)
        .where(seats.c.table_id.in_(ids))
        .order_by(seats.c.table_id, seats.c.seat)
    ):
        entry = {"seat": row.seat, "kind": row.kind, "name": row.name}
        if row.bot is not None:
            entry["bot"] = row.bot
        people[row.table_id].append(entry)
    for row in found:
        record = {
            "format": RECORD_FORMAT,
            "game": row.game,
            "options": json.loads(row.options),
            "actions": actions[row.id],
            # Beyond the record format (``oracles replay`` reads past it):
            # where the game was played.
            "table": {
                "id": row.id,
                "created_at": _stamp(row.created_at),
                "finished_at": _stamp(row.finished_at),
                "seats": people[row.id],
            },
        }
        target = folder / archive_name(row.id)
        partial = target.with_name(target.name + ".part")
        with partial.open("w", encoding="utf-8") as out:
            json.dump(record, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(target)
    return len(found)
