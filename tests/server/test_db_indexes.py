"""The indexes of migration 0006 are those of ``oracles.server.db``'s
metadata, and the server's queries on a large database use them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.dialects import sqlite

from oracles.server import db
from oracles.server.config import database_url
from oracles.server.migrate import upgrade


def test_the_migrations_make_the_metadatas_indexes(new_db: Callable[[], str]) -> None:
    url = database_url(new_db())

    async def indexes() -> dict[str, set[tuple[str, tuple[str, ...]]]]:
        engine = db.make_engine(url)
        try:
            await upgrade(engine)
            async with engine.connect() as conn:

                def read(sync: Any) -> dict[str, set[tuple[str, tuple[str, ...]]]]:
                    found = inspect(sync)
                    return {
                        # (PostgreSQL lists the indexes of unique keys too.)
                        name: {
                            (i["name"], tuple(i["column_names"]))
                            for i in found.get_indexes(name)
                            if not i.get("duplicates_constraint")
                        }
                        for name in db.metadata.tables
                    }

                return await conn.run_sync(read)
        finally:
            await engine.dispose()

    expected = {
        name: {(i.name, tuple(c.name for c in i.columns)) for i in table.indexes}
        for name, table in db.metadata.tables.items()
    }
    made = asyncio.run(indexes())
    assert made == expected
    assert ("ix_tables_status_created", ("status", "created_at")) in made["tables"]


def test_the_migrations_make_the_metadatas_tables_and_columns(new_db: Callable[[], str]) -> None:
    """One schema: the tables and columns the migrations make are those of
    ``db.metadata``, which every query of the server is built from."""
    url = database_url(new_db())

    async def columns() -> dict[str, dict[str, bool]]:
        engine = db.make_engine(url)
        try:
            await upgrade(engine)
            async with engine.connect() as conn:

                def read(sync: Any) -> dict[str, dict[str, bool]]:
                    found = inspect(sync)
                    return {
                        name: {c["name"]: bool(c["nullable"]) for c in found.get_columns(name)}
                        for name in found.get_table_names()
                        if name != "alembic_version"
                    }

                return await conn.run_sync(read)
        finally:
            await engine.dispose()

    expected = {
        name: {c.name: bool(c.nullable) for c in table.columns} for name, table in db.metadata.tables.items()
    }
    made = asyncio.run(columns())
    assert made == expected
    assert {"table_hints", "hints_taken"} <= set(made)


def _plan(conn: sqlite3.Connection, statement: Any) -> str:
    compiled = statement.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True})
    return " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {compiled}"))


def test_the_lobby_chat_rematch_and_prune_queries_search_an_index(tmp_path: Path) -> None:
    """No full scan of the tables or the chat: each reads through an index."""
    from datetime import UTC, datetime

    from sqlalchemy import or_, select

    from oracles.server.prune import _old_finished

    path = tmp_path / "plan.sqlite3"
    asyncio.run(_migrate(database_url(str(path))))
    t, chat = db.tables, db.chat
    queries = {
        "lobby": select(t).where(t.c.status == "playing").order_by(t.c.created_at.desc()).limit(200),
        "rematch": select(t.c.id).where(t.c.rematch_of == "abc"),
        "chat": select(chat.c.seat, chat.c.text)
        .where(chat.c.table_id == "abc")
        .order_by(chat.c.id.desc())
        .limit(50),
        "prune": select(t.c.id).where(_old_finished(datetime(2026, 1, 1, tzinfo=UTC))),
        # Hub.deals_in_play and a series' members: the tables on these deals.
        "deals": select(t.c.id, t.c.status).where(
            or_(t.c.deals_from.in_(["abc"]), t.c.branch_of.in_(["abc"]))
        ),
    }
    with sqlite3.connect(path) as conn:
        for name, statement in queries.items():
            plan = _plan(conn, statement)
            assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, (name, plan)
            assert "TEMP B-TREE" not in plan, (name, plan)


async def _migrate(url: str) -> None:
    engine = db.make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()
