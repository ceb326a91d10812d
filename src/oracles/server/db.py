"""The database: schema (SQLAlchemy Core) and the few queries the server makes.

What is stored (see ``docs/server.md``):

``tables``
    one row per table: its game, options, per-move clock, status and, for a
    rematch, the seat that must deal first; whether the lobby lists it, the
    SHA-256 of its creator's token, whether it still waits for its people,
    whether it is turn-based and what its spectators' chat is.
``seats``
    one row per seat: human or bot, the bot spec, a display name and the
    SHA-256 of the seat's token (never the token), and whether a person has
    claimed it (an unclaimed human seat can be taken by its invite link).
``moves``
    the append-only move log: one row per action of the record, chance
    included, keyed uniquely by ``(table_id, version)`` where ``version`` is
    the number of actions once this one is applied; a client's move id is
    unique per table, which makes a resent move harmless.
``chat``
    chat lines, as typed (escaped when sent).
``table_hints``, ``hints_taken``
    the tables with hints on, and each hint a seat took (one per seat and
    version), for the summary at the end.

The schema itself is created by the Alembic migrations in ``migrations/``;
``metadata`` here mirrors every table of them for the queries (the hint desk
and the prune command included), and a test checks that the two agree.

The writes here (``insert_table``, ``record_moves``, ``insert_chat``...) are
plain functions over a sync ``Connection``, for the store to run in its
transaction (``writer.py``: SQLite's writer thread, or ``run_sync`` on the
async engine); the reads are coroutines over the async engine. Every time
is a :class:`UTCDateTime`: bound as a timezone-aware ``datetime`` and read
back as one, in UTC, on SQLite (which keeps no zone) as on PostgreSQL.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
    bindparam,
    delete,
    event,
    false,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine


class UTCDateTime(TypeDecorator[datetime]):
    """A ``DateTime(timezone=True)`` column whose values are always aware
    and in UTC. SQLite stores no zone and gives naive times back; they were
    written in UTC, so they are read as UTC; a naive time bound in a query
    is taken as UTC too. The schema is the plain ``DateTime`` one."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("clock", Integer, nullable=True),
    Column("first_seat", Integer, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    # A table on another's deals (``deals_from``) or played on from a
    # position of another (``branch_of`` after ``branch_version`` actions):
    # migration 0004.
    Column("deals_from", String(32), nullable=True),
    Column("branch_of", String(32), nullable=True),
    Column("branch_version", Integer, nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("finished_at", UTCDateTime(), nullable=True),
    # When play began: at creation, or when a waiting table started (the
    # move clock of a restarted server counts from here or the last move).
    Column("started_at", UTCDateTime(), nullable=True),
    Column("listed", Boolean, nullable=False, server_default=true()),
    Column("creator_hash", String(64), nullable=True),
    Column("waiting", Boolean, nullable=False, server_default=false()),
    Column("turn_based", Boolean, nullable=False, server_default=false()),
    Column("spectator_chat", String(8), nullable=False, server_default="own"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False, server_default=true()),
)

moves = Table(
    "moves",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", Text, nullable=False),
    Column("move_id", String(128), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("table_id", "version", name="uq_moves_table_version"),
    # A client's move id is its seat's own: two seats may use the same one.
    UniqueConstraint("table_id", "seat", "move_id", name="uq_moves_table_seat_move_id"),
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("text", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
)

#: Tables with hints on (migration 0002).
table_hints = Table(
    "table_hints",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("enabled", Boolean, nullable=False),
)
#: Each hint a seat took (migration 0002): one per seat and version.
hints_taken = Table(
    "hints_taken",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("table_id", "seat", "version", name="uq_hints_taken"),
)

#: A choice a seat made ahead of its turn (``State.early_choices``), kept
#: until the turn comes and it is played (migration 0009): one per seat.
held_choices = Table(
    "held_choices",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("move_id", String(128), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
)


# The indexes (migrations 0001, 0006 and 0007): the lobby, resuming, rematches,
# pruning and a table's chat read only their rows.
Index("ix_tables_status_created", tables.c.status, tables.c.created_at)
Index("ix_tables_status_finished", tables.c.status, tables.c.finished_at)
Index("ix_tables_rematch_of", tables.c.rematch_of)
Index("ix_tables_deals_from", tables.c.deals_from)
Index("ix_tables_branch_of", tables.c.branch_of)
Index("ix_chat_table", chat.c.table_id)


def now() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str) -> AsyncEngine:
    """The async engine. SQLite gets WAL, full sync and a long busy timeout:
    a commit is on disk before the server acknowledges it, and the tables'
    writers wait for each other rather than fail."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_async_engine(url, pool_pre_ping=True)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    claimed: bool = True


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    clock: int | None
    first_seat: int | None
    status: str
    rematch_of: str | None = None
    listed: bool = True
    creator_hash: str | None = None
    waiting: bool = False
    turn_based: bool = False
    spectator_chat: str = "own"
    deals_from: str | None = None
    branch_of: str | None = None
    branch_version: int | None = None
    #: When play began (``None``: still waiting, or stored before 0008).
    started_at: datetime | None = None


@dataclass(frozen=True)
class MoveRow:
    version: int
    seat: int | None
    action: str
    move_id: str | None
    #: When it was stored (read back from the database; ``None`` when new).
    at: datetime | None = None


def insert_table(conn: Connection, row: TableRow, seat_rows: list[SeatRow], actions: list[MoveRow]) -> None:
    """A new table with its seats and its first (chance) actions."""
    created = now()
    conn.execute(
        insert(tables).values(
            id=row.id,
            game=row.game,
            options=json.dumps(row.options),
            clock=row.clock,
            first_seat=row.first_seat,
            rematch_of=row.rematch_of,
            deals_from=row.deals_from,
            branch_of=row.branch_of,
            branch_version=row.branch_version,
            status=row.status,
            listed=row.listed,
            creator_hash=row.creator_hash,
            waiting=row.waiting,
            turn_based=row.turn_based,
            spectator_chat=row.spectator_chat,
            created_at=created,
            started_at=None if row.waiting else created,
        )
    )
    conn.execute(
        insert(seats),
        [
            {
                "table_id": row.id,
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "token_hash": s.token_hash,
                "claimed": s.claimed,
            }
            for s in seat_rows
        ],
    )
    if actions:
        insert_moves(conn, row.id, actions)


#: The columns a move is written with, in the order of the statement below.
MOVE_COLUMNS = ("table_id", "version", "seat", "action", "move_id", "created_at")


@functools.cache
def _move_insert(dialect: Any) -> tuple[str, tuple[Any, ...]]:
    """The INSERT of one move compiled once from the ``moves`` table for
    ``dialect`` (positional parameters), and each column's bind processor:
    the values go to the driver in the form SQLAlchemy itself would give."""
    compiled = insert(moves).values({name: bindparam(name) for name in MOVE_COLUMNS}).compile(dialect=dialect)
    assert compiled.positiontup is not None and tuple(compiled.positiontup) == MOVE_COLUMNS
    return compiled.string, tuple(moves.c[name].type.bind_processor(dialect) for name in MOVE_COLUMNS)


def insert_moves(conn: Connection, table_id: str, rows: list[MoveRow]) -> None:
    moved_at = now()
    driver = conn.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):
        # Every move comes here, in SQLite's writer thread (the plain
        # sqlite3 driver; aiosqlite's adapter takes the general way): the statement,
        # made once from the table, goes to the driver's executemany (C
        # code that lets go of the interpreter), not through SQLAlchemy's
        # execution of a statement per call, which held the interpreter
        # against the event loop: 2.9 against 2.3 ms of CPU a move at
        # 2,500 sockets (benchmarks/results/server.md, session 12).
        sql, processors = _move_insert(conn.dialect)
        values = [(table_id, m.version, m.seat, m.action, m.move_id, moved_at) for m in rows]
        bound = [
            tuple(value if bind is None else bind(value) for value, bind in zip(row, processors, strict=True))
            for row in values
        ]
        cursor = driver.cursor()
        try:
            cursor.executemany(sql, bound)
        except conn.dialect.loaded_dbapi.IntegrityError as error:
            # The same error as through SQLAlchemy: a version or move id taken.
            raise IntegrityError(sql, bound, error) from error
        finally:
            cursor.close()
        return
    conn.execute(
        insert(moves),
        [
            dict(zip(MOVE_COLUMNS, (table_id, m.version, m.seat, m.action, m.move_id, moved_at), strict=True))
            for m in rows
        ],
    )


def mark_finished(conn: Connection, table_id: str) -> None:
    conn.execute(update(tables).where(tables.c.id == table_id).values(status="finished", finished_at=now()))


def record_moves(
    conn: Connection, table_id: str, rows: list[MoveRow], finished: bool, held_played: int | None = None
) -> None:
    """A table's next moves, and the end of its game if they end it, with
    the notice of them to the other processes (PostgreSQL). ``held_played``:
    the seat whose held choice the first move is, kept no longer."""
    insert_moves(conn, table_id, rows)
    if held_played is not None:
        drop_held(conn, table_id, held_played)
    if finished:
        mark_finished(conn, table_id)
    notify_moves(conn, table_id, rows[-1].version)


def store_held(conn: Connection, table_id: str, seat: int, action: str, move_id: str | None) -> None:
    """Keep ``seat``'s choice made ahead of its turn (in place of any older one)."""
    drop_held(conn, table_id, seat)
    conn.execute(
        insert(held_choices).values(
            table_id=table_id, seat=seat, action=action, move_id=move_id, created_at=now()
        )
    )


def drop_held(conn: Connection, table_id: str, seat: int) -> None:
    conn.execute(delete(held_choices).where(held_choices.c.table_id == table_id, held_choices.c.seat == seat))


async def load_held(conn: AsyncConnection, table_id: str) -> list[tuple[int, str, str | None]]:
    """The choices held ahead at a table: (seat, action, move id)."""
    found = await conn.execute(select(held_choices).where(held_choices.c.table_id == table_id))
    return [(int(r.seat), str(r.action), r.move_id) for r in found]


def rename_seat(conn: Connection, table_id: str, seat: int, name: str) -> None:
    conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat).values(name=name))


def insert_chat(conn: Connection, table_id: str, seat: int | None, text: str) -> int:
    """Store a chat line; its id."""
    result = conn.execute(insert(chat).values(table_id=table_id, seat=seat, text=text, created_at=now()))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


async def load_table(
    conn: AsyncConnection, table_id: str
) -> tuple[TableRow, list[SeatRow], list[MoveRow]] | None:
    """A table, its seats and its move log in order; ``None`` if unknown."""
    found = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
    if found is None:
        return None
    row = TableRow(
        id=found.id,
        game=found.game,
        options=json.loads(found.options),
        clock=found.clock,
        first_seat=found.first_seat,
        status=found.status,
        rematch_of=found.rematch_of,
        listed=bool(found.listed),
        creator_hash=found.creator_hash,
        waiting=bool(found.waiting),
        turn_based=bool(found.turn_based),
        spectator_chat=str(found.spectator_chat),
        deals_from=found.deals_from,
        branch_of=found.branch_of,
        branch_version=found.branch_version,
        started_at=found.started_at,
    )
    seat_rows = await load_seats(conn, table_id)
    move_rows = [
        MoveRow(r.version, r.seat, r.action, r.move_id, r.created_at)
        for r in await conn.execute(
            select(moves).where(moves.c.table_id == table_id).order_by(moves.c.version)
        )
    ]
    return row, seat_rows, move_rows


async def load_seats(conn: AsyncConnection, table_id: str) -> list[SeatRow]:
    """A table's seats in order."""
    return [
        SeatRow(r.seat, r.kind, r.bot, r.name, r.token_hash, bool(r.claimed))
        for r in await conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
    ]


def claim_seat(conn: Connection, table_id: str, seat: int, token_hash: str, name: str) -> bool:
    """Give the unclaimed human seat ``seat`` its person: the new token's
    hash and a name. One statement, so that of two claims on any number of
    processes exactly one wins; whether this one did."""
    result = conn.execute(
        update(seats)
        .where(
            seats.c.table_id == table_id,
            seats.c.seat == seat,
            seats.c.kind == "human",
            seats.c.claimed == false(),
        )
        .values(claimed=True, token_hash=token_hash, name=name)
    )
    return bool(result.rowcount == 1)


def mark_claimed(conn: Connection, table_id: str, seat: int) -> None:
    """The seat's person came with the token of the create answer."""
    conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat).values(claimed=True))


def start_waiting(conn: Connection, table_id: str, bot: str) -> list[int]:
    """End the table's wait: its unclaimed human seats become ``bot``
    seats. The seats turned; none if the table was not waiting (another
    process started it)."""
    result = conn.execute(
        update(tables)
        .where(tables.c.id == table_id, tables.c.waiting == true())
        .values(waiting=False, started_at=now())
    )
    if result.rowcount != 1:
        return []
    found = conn.execute(
        select(seats.c.seat).where(
            seats.c.table_id == table_id, seats.c.kind == "human", seats.c.claimed == false()
        )
    )
    empty = [int(r.seat) for r in found]
    if empty:
        conn.execute(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.seat.in_(empty))
            .values(kind="bot", bot=bot, name=f"Bot ({bot.split(':')[0]})", token_hash=None, claimed=True)
        )
    return empty


#: The move id of a move a stand-in or the clock made for a person.
STANDIN_PREFIX = "standin:"


async def standin_moves(conn: AsyncConnection, table_id: str, seat: int) -> list[tuple[int, str]]:
    """The moves made for ``seat`` by a stand-in or the clock since the
    seat's own last move, as ``(version, notation)``."""
    result = await conn.execute(
        select(moves.c.version, moves.c.action, moves.c.move_id)
        .where(moves.c.table_id == table_id, moves.c.seat == seat)
        .order_by(moves.c.version)
    )
    played: list[tuple[int, str]] = []
    for row in result:
        if row.move_id is not None and row.move_id.startswith(STANDIN_PREFIX):
            played.append((int(row.version), str(row.action)))
        else:
            played = []
    return played


async def is_waiting(conn: AsyncConnection, table_id: str) -> bool:
    found = (await conn.execute(select(tables.c.waiting).where(tables.c.id == table_id))).first()
    return bool(found is not None and found.waiting)


async def lobby_rows(conn: AsyncConnection, limit: int) -> list[tuple[TableRow, list[SeatRow], int]]:
    """The newest ``limit`` unfinished tables with their seats and versions."""
    found = (
        await conn.execute(
            select(tables)
            .where(tables.c.status == "playing", tables.c.listed == true())
            .order_by(tables.c.created_at.desc())
            .limit(limit)
        )
    ).all()
    ids = [r.id for r in found]
    if not ids:
        return []
    by_table: dict[str, list[SeatRow]] = {}
    for r in await conn.execute(select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)):
        by_table.setdefault(r.table_id, []).append(
            SeatRow(r.seat, r.kind, r.bot, r.name, r.token_hash, bool(r.claimed))
        )
    versions = {
        r.table_id: int(r.version or 0)
        for r in await conn.execute(
            select(moves.c.table_id, func.max(moves.c.version).label("version"))
            .where(moves.c.table_id.in_(ids))
            .group_by(moves.c.table_id)
        )
    }
    return [
        (
            TableRow(
                r.id,
                r.game,
                json.loads(r.options),
                r.clock,
                r.first_seat,
                r.status,
                r.rematch_of,
                listed=bool(r.listed),
                creator_hash=r.creator_hash,
                waiting=bool(r.waiting),
                turn_based=bool(r.turn_based),
                spectator_chat=str(r.spectator_chat),
            ),
            by_table.get(r.id, []),
            versions.get(r.id, 0),
        )
        for r in found
    ]


def mark_abandoned(conn: Connection, before: datetime, keep: list[str]) -> int:
    """Mark abandoned the unfinished tables made before ``before`` with no
    move since (but those in ``keep``); how many."""
    recent = select(moves.c.id).where(moves.c.table_id == tables.c.id, moves.c.created_at >= before).exists()
    query = update(tables).where(tables.c.status == "playing", tables.c.created_at < before, ~recent)
    if keep:
        query = query.where(tables.c.id.not_in(keep))
    result = conn.execute(query.values(status="abandoned"))
    return int(result.rowcount or 0)


def mark_playing(conn: Connection, table_id: str) -> None:
    """An abandoned table someone came back to is played again."""
    conn.execute(
        update(tables).where(tables.c.id == table_id, tables.c.status == "abandoned").values(status="playing")
    )


async def table_ids(conn: AsyncConnection, status: str) -> list[str]:
    result = await conn.execute(
        select(tables.c.id).where(tables.c.status == status).order_by(tables.c.created_at)
    )
    return [r.id for r in result]


async def recent_chat(
    conn: AsyncConnection, table_id: str, limit: int = 50
) -> list[tuple[int, int | None, str]]:
    """The last ``limit`` chat lines of ``table_id``, oldest first: id, seat, text."""
    result = await conn.execute(
        select(chat.c.id, chat.c.seat, chat.c.text)
        .where(chat.c.table_id == table_id)
        .order_by(chat.c.id.desc())
        .limit(limit)
    )
    return [(r.id, r.seat, r.text) for r in result][::-1]


async def rematch_of(conn: AsyncConnection, table_id: str) -> str | None:
    """The id of the rematch already made of ``table_id``, if any."""
    found = (await conn.execute(select(tables.c.id).where(tables.c.rematch_of == table_id))).first()
    return None if found is None else str(found.id)


#: The PostgreSQL channel on which committed moves are announced, as
#: ``<table_id>:<version>`` (ids only: the moves are read back from the table).
CHANNEL = "oracles_moves"


def is_shared(engine: AsyncEngine) -> bool:
    """Whether several server processes may share this database (PostgreSQL)."""
    return engine.dialect.name == "postgresql"


def notify_moves(conn: Connection, table_id: str, version: int) -> None:
    """Announce, on commit of ``conn``'s transaction, that ``table_id`` reached
    ``version`` (PostgreSQL only; a no-op elsewhere)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_notify(CHANNEL, f"{table_id}:{version}")))


async def moves_after(conn: AsyncConnection, table_id: str, version: int) -> list[MoveRow]:
    """The moves of ``table_id`` after ``version``, in order."""
    result = await conn.execute(
        select(moves).where(moves.c.table_id == table_id, moves.c.version > version).order_by(moves.c.version)
    )
    return [MoveRow(r.version, r.seat, r.action, r.move_id, r.created_at) for r in result]


def notify_chat(conn: Connection, table_id: str, chat_id: int) -> None:
    """Announce, on commit, the chat line ``chat_id`` as ``<table_id>:chat:<id>``."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_notify(CHANNEL, f"{table_id}:chat:{chat_id}")))


async def chat_line(conn: AsyncConnection, chat_id: int) -> tuple[str, int | None, str] | None:
    """A chat line's table, seat and text."""
    found = (await conn.execute(select(chat).where(chat.c.id == chat_id))).first()
    return None if found is None else (str(found.table_id), found.seat, str(found.text))
