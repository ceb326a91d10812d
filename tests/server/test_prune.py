"""``oracles db prune``: old finished tables leave with all their rows, the
others stay; ``--archive`` keeps each game as a replayable record first;
``--dry-run`` only counts. On SQLite and PostgreSQL (``new_db``)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select, update

from oracles.cli import main
from oracles.core.records import load_record_file, replay_record
from oracles.core.registry import load_game
from oracles.server import db, hints
from oracles.server.config import database_url
from oracles.server.migrate import upgrade
from oracles.server.prune import count, parse_before, prune

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def random_game(seed: int) -> tuple[str, list[tuple[int | None, str]]]:
    """A finished Codename game of random moves: its options and (seat, action) log."""
    game = load_game("codename")
    state = game.new_initial_state()
    rng = random.Random(seed)
    log: list[tuple[int | None, str]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action, seat = state.sample_chance(rng), None
        else:
            action, seat = rng.choice(state.legal_actions()), state.current_player()
        log.append((seat, state.action_to_string(action)))
        state.apply_action(action)
    return json.dumps(dict(game.options)), log


async def add_table(
    engine: Any, table_id: str, status: str, finished_at: datetime | None, seed: int = 0
) -> list[str]:
    """A table of two seats with its game's moves, a chat line and a hint
    taken; its actions."""
    options, log = random_game(seed)
    row = db.TableRow(table_id, "codename", json.loads(options), None, None, status)
    seat_rows = [db.SeatRow(0, "human", None, "Ada", "0" * 64), db.SeatRow(1, "bot", "random", "Bot", None)]
    moves = [db.MoveRow(v + 1, seat, action, None) for v, (seat, action) in enumerate(log)]
    async with engine.begin() as conn:
        await conn.run_sync(db.insert_table, row, seat_rows, moves)
        await conn.execute(
            update(db.tables).where(db.tables.c.id == table_id).values(finished_at=finished_at)
        )
        await conn.run_sync(db.insert_chat, table_id, 0, "good game")
        await conn.execute(insert(hints.table_hints).values(table_id=table_id, enabled=True))
        await conn.execute(
            insert(hints.hints_taken).values(table_id=table_id, seat=0, version=3, created_at=db.now())
        )
    return [action for _, action in log]


async def rows_of(engine: Any, table_id: str) -> dict[str, int]:
    out = {}
    async with engine.connect() as conn:
        for name, table in [
            ("tables", db.tables),
            ("seats", db.seats),
            ("moves", db.moves),
            ("chat", db.chat),
            ("table_hints", hints.table_hints),
            ("hints_taken", hints.hints_taken),
        ]:
            column = table.c.id if name == "tables" else table.c.table_id
            out[name] = int(
                (
                    await conn.execute(select(func.count()).select_from(table).where(column == table_id))
                ).scalar_one()
            )
    return out


async def seeded(url: str) -> tuple[Any, dict[str, list[str]]]:
    """Two old finished tables, a recent finished one, an old playing one
    and an old abandoned one."""
    engine = db.make_engine(database_url(url))
    await upgrade(engine)
    old = NOW - timedelta(days=100)
    actions = {
        "old1": await add_table(engine, "old1", "finished", old, seed=1),
        "old2": await add_table(engine, "old2", "finished", old + timedelta(days=1), seed=2),
        "recent": await add_table(engine, "recent", "finished", NOW - timedelta(days=1), seed=3),
        "playing": await add_table(engine, "playing", "playing", None, seed=4),
        "abandoned": await add_table(engine, "abandoned", "abandoned", None, seed=5),
    }
    return engine, actions


def test_prune_deletes_old_finished_tables_with_their_rows_and_keeps_the_rest(
    new_db: Callable[[], str], tmp_path: Path
) -> None:
    url = new_db()

    async def scenario() -> None:
        engine, actions = await seeded(url)
        try:
            before = NOW - timedelta(days=30)
            planned = await count(engine, before)
            assert (await rows_of(engine, "old1"))["tables"] == 1  # a dry run changes nothing
            done = await prune(engine, before, archive=tmp_path / "archive", batch=1)
            moves = len(actions["old1"]) + len(actions["old2"])
            assert done.as_dict() == {
                "tables": 2,
                "seats": 4,
                "moves": moves,
                "chat": 2,
                "hints": 4,
                "archived": 2,
            }
            assert planned.as_dict() == {**done.as_dict(), "archived": 0}
            for gone in ("old1", "old2"):
                assert set((await rows_of(engine, gone)).values()) == {0}
            for kept in ("recent", "playing", "abandoned"):
                assert await rows_of(engine, kept) == {
                    "tables": 1,
                    "seats": 2,
                    "moves": len(actions[kept]),
                    "chat": 1,
                    "table_hints": 1,
                    "hints_taken": 1,
                }
            # Nothing more is old enough: a second run deletes nothing.
            assert (await prune(engine, before)).tables == 0
        finally:
            await engine.dispose()
        for table_id in ("old1", "old2"):
            record = load_record_file(tmp_path / "archive" / f"{table_id}.json")
            assert record["actions"] == actions[table_id]
            assert replay_record(record).is_terminal()
            assert record["table"]["seats"][0] == {"seat": 0, "kind": "human", "name": "Ada"}
            assert "token_hash" not in json.dumps(record)
        assert sorted(p.name for p in (tmp_path / "archive").iterdir()) == ["old1.json", "old2.json"]

    asyncio.run(scenario())


def test_the_command_counts_prunes_archives_and_the_archive_replays(
    new_db: Callable[[], str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = new_db()

    async def setup() -> dict[str, list[str]]:
        engine, actions = await seeded(url)
        await engine.dispose()
        return actions

    actions = asyncio.run(setup())
    old = len(actions["old1"]) + len(actions["old2"])
    assert main(["db", "prune", "--db", url, "--finished-before", "2026-05-01", "--dry-run"]) == 0
    assert capsys.readouterr().out.startswith(
        f"would prune 2 tables finished before 2026-05-01 00:00 UTC (4 seats, {old:,} moves, 2 chat lines, 4 hint rows)"
    )
    archive = tmp_path / "kept"
    assert (
        main(["db", "prune", "--db", url, "--finished-before", "2026-05-01", "--archive", str(archive)]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("pruned 2 tables") and f"2 records written to {archive}" in out
    assert main(["replay", str(archive / "old1.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["terminal"] is True
    assert main(["db", "prune", "--db", url, "--finished-before", "2026-05-01"]) == 0
    assert capsys.readouterr().out.startswith("pruned 0 tables")


def test_bad_arguments_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "prune", "--finished-before", "last tuesday"]) == 2
    assert "--finished-before: expected a date" in capsys.readouterr().err
    missing = tmp_path / "none.sqlite3"
    assert main(["db", "prune", "--db", str(missing), "--finished-before", "2026-01-01"]) == 1
    assert capsys.readouterr().err == f"oracles db prune: no database at {missing}\n"
    assert not missing.exists()
    assert (
        main(
            ["db", "prune", "--finished-before", "2026-01-01", "--db", "postgresql://u:secret@127.0.0.1:1/x"]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err.startswith("oracles db prune: ") and "secret" not in err and len(err.splitlines()) == 1


def test_dates() -> None:
    assert parse_before("2026-01-31 23:00") == datetime(2026, 1, 31, 23, tzinfo=UTC)
    assert parse_before("2026-01-31T23:00:00Z") == datetime(2026, 1, 31, 23, tzinfo=UTC)
    for bad in ("2026-13-01", "yesterday", "-5d", "2026-01-01T", "２０２６-01-01"):
        with pytest.raises(ValueError):
            parse_before(bad)
