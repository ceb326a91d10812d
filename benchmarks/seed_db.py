"""Fill a game server's database as if it had lived: N finished tables with
their seats, move logs and a little chat, and a few tables still being played.

The games are real: a few dozen are played by random bots (Oracle, Inrah and
Codename at several player counts), then replayed under new table ids, times
and names, straight into the move log through the schema of
``oracles.server.db`` (no server runs meanwhile). The schema is made by the
server's own migrations first, indexes included.

    .venv/bin/python benchmarks/seed_db.py /tmp/lived.sqlite3                 # 100,000 tables
    .venv/bin/python benchmarks/seed_db.py /tmp/small.sqlite3 --tables 2000
    .venv/bin/python benchmarks/seed_db.py postgresql://u:p@host/db --tables 100000

Finished tables are created uniformly over the past year and end 10 to 40
minutes later; the moves of a table carry its end time. The tables still
being played (``--playing``) have people in every seat and were created in
the last hour, part-way through their game; run the server with a long
``--grace`` so that no stand-in bot plays them while measuring.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import random
import sqlite3
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from oracles.core.registry import load_game
from oracles.server import db
from oracles.server.config import database_url

#: The games replayed, each at these player counts (one record per pair and seed).
LINEUPS: list[tuple[str, dict[str, Any], int]] = [
    # game, options, share of the tables (weights)
    ("oracle", {"players": 4}, 30),
    ("oracle", {"players": 3}, 8),
    ("oracle", {"players": 5}, 8),
    ("inrah", {"players": 4}, 16),
    ("inrah", {"players": 3}, 6),
    ("inrah", {"players": 6}, 6),
    ("codename", {}, 26),
]

#: How SQLAlchemy writes a time into SQLite (so the server compares like with like).
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"


@dataclass(frozen=True)
class Game:
    """One game played by random bots: its options and its move log as
    ``(version, seat, action)`` rows (``seat`` is ``None`` for chance)."""

    game: str
    options: str
    players: int
    moves: list[tuple[int, int | None, str]]


def play_games(per_lineup: int, seed: int) -> list[tuple[Game, int]]:
    """``per_lineup`` games of each lineup, with the lineup's weight."""
    import json

    out = []
    for index, (game_id, options, weight) in enumerate(LINEUPS):
        game = load_game(game_id, **options)
        for k in range(per_lineup):
            rng = random.Random(seed * 1000 + index * 100 + k)
            state = game.new_initial_state()
            rows: list[tuple[int, int | None, str]] = []
            while not state.is_terminal():
                if state.is_chance_node():
                    action, seat = state.sample_chance(rng), None
                else:
                    action, seat = rng.choice(state.legal_actions()), state.current_player()
                rows.append((len(rows) + 1, seat, state.action_to_string(action)))
                state.apply_action(action)
            out.append((Game(game.id, json.dumps(dict(game.options)), game.num_players, rows), weight))
    return out


def new_ids(rng: random.Random, count: int) -> list[str]:
    """Ids of the server's shape (``secrets.token_urlsafe(9)``), sorted: the
    rows are written in key order, which is what makes seeding fast."""
    ids = {base64.urlsafe_b64encode(rng.randbytes(9)).decode() for _ in range(count)}
    while len(ids) < count:
        ids.add(base64.urlsafe_b64encode(rng.randbytes(9)).decode())
    return sorted(ids)


@dataclass
class Batch:
    tables: list[tuple[Any, ...]]
    seats: list[tuple[Any, ...]]
    #: One entry a table: its id, the index of its game, how many seats are
    #: people (their moves carry a move id), the moves' time and how many of
    #: the game's moves it has. The rows are made from these by the database
    #: (SQLite) or here (:func:`move_rows`).
    logs: list[tuple[str, int, int, Any, int]]
    chat: list[tuple[Any, ...]]


def move_rows(batch: Batch, games: list[Game]) -> list[tuple[Any, ...]]:
    """The move log rows of ``batch``, in ``COLUMNS["moves"]``'s order."""
    return [
        (
            table_id,
            version,
            seat,
            action,
            f"m{version}" if seat is not None and seat < people else None,
            moved,
        )
        for table_id, index, people, moved, upto in batch.logs
        for version, seat, action in games[index].moves[:upto]
    ]


def make_batch(
    rng: random.Random,
    ids: list[str],
    games: list[Game],
    weights: list[int],
    now: datetime,
    finished: bool,
    stamp: Any,
) -> Batch:
    """The rows of the tables ``ids``, each a game drawn from ``games``;
    ``stamp`` turns a time into what the database takes."""
    batch = Batch([], [], [], [])
    picks = rng.choices(range(len(games)), weights, k=len(ids))
    for table_id, index in zip(ids, picks, strict=True):
        game = games[index]
        if finished:
            created = now - timedelta(seconds=rng.uniform(3600, 365 * 86400))
            ended = created + timedelta(seconds=rng.uniform(600, 2400))
            upto = len(game.moves)
            status, end = "finished", stamp(ended)
            people = rng.randint(1, game.players)
        else:
            created = now - timedelta(seconds=rng.uniform(60, 3600))
            ended = created
            # Part-way: never the last move (the table is not over).
            upto = rng.randrange(1, max(2, len(game.moves) - 1))
            status, end = "playing", None
            people = game.players
        batch.tables.append(
            (table_id, game.game, game.options, None, None, None, status, stamp(created), end)
        )
        for seat in range(game.players):
            human = seat < people
            batch.seats.append(
                (
                    table_id,
                    seat,
                    "human" if human else "bot",
                    None if human else "random",
                    f"Player {seat + 1}" if human else f"Bot {seat + 1}",
                    hashlib.sha256(f"{table_id}:{seat}".encode()).hexdigest() if human else None,
                )
            )
        moved = stamp(ended)
        batch.logs.append((table_id, index, people, moved, upto))
        if rng.random() < 0.3:
            batch.chat.append((table_id, 0, "good game", moved))
    return batch


COLUMNS = {
    "tables": (
        "id",
        "game",
        "options",
        "clock",
        "first_seat",
        "rematch_of",
        "status",
        "created_at",
        "finished_at",
    ),
    "seats": ("table_id", "seat", "kind", "bot", "name", "token_hash"),
    "moves": ("table_id", "version", "seat", "action", "move_id", "created_at"),
    "chat": ("table_id", "seat", "text", "created_at"),
}


def _check_columns() -> None:
    """The rows above fit ``oracles.server.db``'s metadata: every column
    they fill exists, and every column they leave out may be left out."""
    for name, columns in COLUMNS.items():
        table = db.metadata.tables[name]
        unknown = set(columns) - set(table.c.keys())
        required = {
            c.name
            for c in table.columns
            if c.name not in columns
            and c.autoincrement is not True
            and not c.nullable
            and c.default is None
            and c.server_default is None
        }
        if unknown or required:
            raise SystemExit(
                f"seed_db: the schema of {name!r} changed ({sorted(unknown | required)}): update COLUMNS"
            )


async def migrate(url: str) -> None:
    from oracles.server.migrate import upgrade

    engine = db.make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


def seed_sqlite(path: Path, games: list[Game], batches: Any) -> None:
    conn = sqlite3.connect(path)
    # Seeding only: a crash means seeding again, so no journal waits on the disk.
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-262144")
    statements = {
        name: f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        for name, columns in COLUMNS.items()
    }
    # The games' moves once, in a temporary table: each table's log is then
    # copied from it by SQLite itself, one statement a table.
    conn.execute(
        "CREATE TEMP TABLE seed_log (game INTEGER, version INTEGER, seat INTEGER, action TEXT, PRIMARY KEY (game, version))"
    )
    conn.executemany(
        "INSERT INTO seed_log VALUES (?, ?, ?, ?)",
        [
            (index, version, seat, action)
            for index, game in enumerate(games)
            for version, seat, action in game.moves
        ],
    )
    copy_log = (
        f"INSERT INTO moves ({', '.join(COLUMNS['moves'])})"
        " SELECT ?1, version, seat, action, CASE WHEN seat IS NOT NULL AND seat < ?3 THEN 'm' || version END, ?4"
        " FROM seed_log WHERE game = ?2 AND version <= ?5 ORDER BY version"
    )
    for batch in batches:
        with conn:
            conn.executemany(statements["tables"], batch.tables)
            conn.executemany(statements["seats"], batch.seats)
            conn.executemany(copy_log, batch.logs)
            conn.executemany(statements["chat"], batch.chat)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("ANALYZE")
    conn.close()


async def seed_postgres(url: str, games: list[Game], batches: Any) -> None:
    import asyncpg

    dsn = "postgresql://" + url.split("://", 1)[1]
    conn = await asyncpg.connect(dsn)
    try:
        for batch in batches:
            async with conn.transaction():
                for name, columns in COLUMNS.items():
                    rows = move_rows(batch, games) if name == "moves" else getattr(batch, name)
                    if rows:
                        await conn.copy_records_to_table(name, records=rows, columns=list(columns))
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("db", help="an SQLite file (made if missing) or a postgresql:// URL")
    parser.add_argument("--tables", type=int, default=100_000, help="finished tables (default 100,000)")
    parser.add_argument("--playing", type=int, default=100, help="tables still being played (default 100)")
    parser.add_argument("--records", type=int, default=5, help="distinct games per lineup (default 5)")
    parser.add_argument("--batch", type=int, default=2000, help="tables a transaction (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    _check_columns()
    url = database_url(args.db)
    postgres = url.startswith("postgresql")
    started = time.perf_counter()
    played = play_games(args.records, args.seed)
    games = [g for g, _ in played]
    weights = [w for _, w in played]
    print(f"played {len(games)} games in {time.perf_counter() - started:.1f} s", flush=True)
    asyncio.run(migrate(url))
    rng = random.Random(args.seed)
    ids = new_ids(rng, args.tables + args.playing)
    playing = set(rng.sample(ids, args.playing))
    now = datetime.now(UTC)

    def stamp(moment: datetime) -> Any:
        return moment if postgres else moment.astimezone(UTC).strftime(SQLITE_TIME)

    counts = {"tables": 0, "moves": 0}

    def batches() -> Any:
        for start in range(0, len(ids), args.batch):
            chunk = ids[start : start + args.batch]
            done = [i for i in chunk if i not in playing]
            live = [i for i in chunk if i in playing]
            for part, finished in ((done, True), (live, False)):
                if part:
                    batch = make_batch(rng, part, games, weights, now, finished, stamp)
                    counts["tables"] += len(part)
                    counts["moves"] += sum(log[4] for log in batch.logs)
                    yield batch
            if start // args.batch % 10 == 9:
                print(f"  {counts['tables']:,} tables, {counts['moves']:,} moves", flush=True)

    begun = time.perf_counter()
    if postgres:
        asyncio.run(seed_postgres(url, games, batches()))
    else:
        seed_sqlite(Path(url.split(":///", 1)[1]), games, batches())
    seconds = time.perf_counter() - begun
    print(
        f"seeded {counts['tables']:,} tables ({args.playing:,} still playing) and {counts['moves']:,} moves"
        f" in {seconds:.1f} s ({counts['tables'] / seconds:,.0f} tables a second)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
