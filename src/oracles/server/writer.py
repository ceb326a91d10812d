"""Every write of the server: the :class:`Store`, and SQLite's writer thread.

**A write** is a plain function over a SQLAlchemy (sync) ``Connection``,
built from ``db.py``'s tables (``db.record_moves``, ``db.insert_chat``,
``hints.note_hint``...), that returns what its caller needs (a chat line's
id, whether a claim won). It opens no transaction of its own: whoever runs
it does. The server runs every write through one entry point,
``await hub.store.write(fn)``, which returns once the write is committed
and raises the database's error otherwise (nothing of it is stored then):

- on an SQLite file, :class:`SQLiteWriter` runs it in its own thread, in
  the transaction of whatever else waits at that moment (group commit);
- elsewhere (PostgreSQL, SQLite in memory) it runs in a transaction of its
  own on the async engine (``run_sync``); on PostgreSQL a move's write
  carries the ``NOTIFY`` that the other processes wait for
  (``listener.py``).

Reads stay on the async engine.

**Group commit.** Every move is committed before anyone is told of it
(``docs/server.md``, *Durability*), and on SQLite each commit waits for the
disk (``synchronous=FULL``). Committing each write in a transaction of its
own costs a disk flush and several hops between threads per write, and the
writers queue for SQLite's one write lock. :class:`SQLiteWriter` instead
takes the writes of every table as they come, runs all that are waiting in
one transaction (one flush) and then wakes each caller with its function's
result. A future is resolved only once the transaction holding its write is
committed, so an acknowledged move (or chat line, or game end) is never
lost; if a batch fails, its writes are run again one at a time, so that one
bad write (a duplicate version) fails alone with its own error. A write
function may therefore run twice: it must do nothing but its statements.

The writer's connection does no automatic checkpoint (which would copy the
WAL into the database, with a flush of its own, in the middle of a commit
every thousand pages): a second thread makes a passive checkpoint every
second that saw a commit, beside the writer, and one more when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import NullPool

T = TypeVar("T")

#: A write: statements over a sync connection, in a transaction the store opens.
Write = Callable[[Connection], T]

#: Most writes run in one transaction.
MAX_BATCH = 256
#: Seconds between checkpoints of the WAL (when something was written).
CHECKPOINT_EVERY = 1.0


class Store:
    """Where every write of one server process goes (see the module
    docstring): SQLite's writer thread, or a transaction of its own on the
    async engine."""

    def __init__(self, engine: AsyncEngine, writer: SQLiteWriter | None = None) -> None:
        self.engine = engine
        self.writer = writer

    async def write(self, fn: Write[T]) -> T:
        """Run ``fn`` in a transaction; its result once that is committed."""
        if self.writer is not None:
            return await self.writer.write(fn)
        async with self.engine.begin() as conn:
            return await conn.run_sync(fn)


@dataclass
class Job:
    write: Write[Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any] = field(repr=False)


def writer_engine(path: str, busy_timeout: float = 30.0) -> Engine:
    """A sync engine on the SQLite file ``path`` whose transactions take
    the write lock when they begin (``BEGIN IMMEDIATE``): a transaction
    that first read and then wrote could otherwise find another process's
    commit in between and fail at once, rather than wait its turn."""
    engine = create_engine(
        URL.create("sqlite", database=path),
        poolclass=NullPool,
        connect_args={"timeout": busy_timeout, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # sqlite3 opens no transaction on its own: SQLAlchemy's begin does.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # Checkpoints are made by a thread of their own, not inside a commit.
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class SQLiteWriter:
    """The group-commit writer of one SQLite file (see the module docstring)."""

    def __init__(self, path: str, busy_timeout: float = 30.0) -> None:
        self.path = path
        self.engine = writer_engine(path, busy_timeout)
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        #: Transactions committed and writes run in them (for tests and logs).
        self.batches = 0
        self.written = 0

    def start(self) -> None:
        # Opened here, so that a file that cannot be opened fails the start.
        connection = self.engine.connect()
        self._thread = threading.Thread(
            target=self._run, args=(connection,), name="oracles-writer", daemon=True
        )
        self._thread.start()
        self._checkpointer = threading.Thread(
            target=self._checkpoints,
            args=(self.engine.raw_connection(),),
            name="oracles-checkpoint",
            daemon=True,
        )
        self._checkpointer.start()

    async def write(self, fn: Write[T]) -> T:
        """Run ``fn`` in the writer's next transaction; its result once that
        is on disk, or the database's error (nothing of this call was stored
        then)."""
        if self._closed or self._thread is None:
            raise RuntimeError("the database writer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put(Job(fn, loop, future))
        # Shielded: the caller (a submit) is shielded too; the write goes on.
        return cast(T, await asyncio.shield(future))

    def close(self) -> None:
        """Write what is queued, then stop the threads."""
        if self._thread is None or self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join()
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        self.engine.dispose()

    # ------------------------------------------------------- the threads
    def _checkpoints(self, connection: Any) -> None:
        """Every second that saw a commit, a passive checkpoint: it copies
        what it can of the WAL into the database without holding up the
        writer (which goes on appending to the WAL meanwhile)."""
        done = 0
        try:
            while not self._stop.wait(CHECKPOINT_EVERY):
                if self.batches != done:
                    done = self.batches
                    _checkpoint(connection)
            _checkpoint(connection)
        finally:
            connection.close()

    def _run(self, connection: Connection) -> None:
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                batch = [job]
                stop = False
                while len(batch) < MAX_BATCH:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch.append(more)
                self._write_batch(connection, batch)
                if stop:
                    return
        finally:
            connection.close()

    def _write_batch(self, connection: Connection, batch: list[Job]) -> None:
        try:
            results = self._transaction(connection, batch)
        except Exception as error:
            _rollback(connection)
            if len(batch) == 1:
                self._fail(batch[0], error)
                return
            # One of them failed the batch: each alone, each with its own answer.
            for job in batch:
                try:
                    alone = self._transaction(connection, [job])
                except Exception as failure:
                    _rollback(connection)
                    self._fail(job, failure)
                else:
                    self._done([job], alone)
            return
        self._done(batch, results)

    def _transaction(self, connection: Connection, batch: list[Job]) -> list[Any]:
        with connection.begin():
            results = [job.write(connection) for job in batch]
        self.batches += 1
        self.written += len(batch)
        return results

    def _done(self, batch: list[Job], results: list[Any]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for job, result in zip(batch, results, strict=True):
            by_loop.setdefault(job.loop, []).append((job.future, result))
        for loop, answers in by_loop.items():
            _call(loop, _resolve, answers)

    def _fail(self, job: Job, error: BaseException) -> None:
        _call(job.loop, _reject, job.future, error)


def _checkpoint(connection: Any) -> None:
    with contextlib.suppress(Exception):  # busy or closing: the next one copies it
        cursor = connection.cursor()
        try:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            cursor.close()


def _rollback(connection: Connection) -> None:
    if connection.in_transaction():
        with contextlib.suppress(SQLAlchemyError):
            connection.rollback()


def _call(loop: asyncio.AbstractEventLoop, callback: Any, *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(callback, *args)


def _resolve(answers: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, result in answers:
        if not future.done():
            future.set_result(result)


def _reject(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def sqlite_path(url: Any) -> str | None:
    """The file of an SQLite engine URL, or ``None`` (another database, or
    SQLite in memory or with URL options: those keep the async engine)."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:") or url.query:
        return None
    return str(database)
