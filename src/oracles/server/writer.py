"""Group commit of moves on SQLite: one connection in its own thread.

Every move is committed before anyone is told of it (``docs/server.md``,
*Durability*), and on SQLite each commit waits for the disk (``synchronous=FULL``).
Committing each move in its own transaction through the async engine costs a
disk flush and several hops between threads per move, and the tables' writers
queue for SQLite's one write lock. :class:`MoveWriter` instead takes the moves
of every table as they come, writes all that are waiting in one transaction
(one flush) and then wakes each waiting move. A move's future is resolved only
once the transaction holding it is committed, so an acknowledged move is never
lost; if a batch fails, its moves are written again one at a time, so that one
bad move (a duplicate version) fails alone with its own error.

The writer's connection does no automatic checkpoint (which would copy the
WAL into the database, with a flush of its own, in the middle of a commit
every thousand pages): a second thread makes a passive checkpoint every
second that saw a commit, beside the writer, and one more when it stops.

Only for SQLite files: PostgreSQL keeps one transaction per move, which
carries the ``NOTIFY`` that other processes wait for.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from oracles.server.db import MoveRow

#: Most moves written in one transaction.
MAX_BATCH = 256
#: Seconds between checkpoints of the WAL (when something was written).
CHECKPOINT_EVERY = 1.0

INSERT_MOVE = (
    "INSERT INTO moves (table_id, version, seat, action, move_id, created_at) VALUES (?, ?, ?, ?, ?, ?)"
)
MARK_FINISHED = "UPDATE tables SET status = 'finished', finished_at = ? WHERE id = ?"


def stamp() -> str:
    """The time as SQLAlchemy stores a ``DateTime`` in SQLite."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


@dataclass
class Job:
    table_id: str
    rows: list[MoveRow]
    finished: bool
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None] = field(repr=False)


class MoveWriter:
    """The group-commit writer of one SQLite file (see the module docstring)."""

    def __init__(self, path: str, busy_timeout: float = 30.0) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        #: Transactions committed and moves written (for tests and logs).
        self.batches = 0
        self.written = 0

    def start(self) -> None:
        # Opened here, so that a file that cannot be opened fails the start.
        connection = self._connect()
        # Checkpoints (copying the WAL into the database, a second flush) are
        # made by a thread of their own, not in the middle of a commit.
        connection.execute("PRAGMA wal_autocheckpoint=0")
        self._thread = threading.Thread(
            target=self._run, args=(connection,), name="oracles-writer", daemon=True
        )
        self._thread.start()
        self._checkpointer = threading.Thread(
            target=self._checkpoints, args=(self._connect(),), name="oracles-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        return connection

    async def write(self, table_id: str, rows: list[MoveRow], finished: bool) -> None:
        """Commit ``rows`` of ``table_id`` (and mark it finished); returns once
        they are on disk, or raises the database's error (nothing of this
        call was stored then)."""
        if self._closed or self._thread is None:
            raise RuntimeError("the move writer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put(Job(table_id, rows, finished, loop, future))
        # Shielded: the caller (a submit) is shielded too; the write goes on.
        await asyncio.shield(future)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        if self._thread is None or self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join()
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()

    # ------------------------------------------------------- the threads
    def _checkpoints(self, connection: sqlite3.Connection) -> None:
        """Every second that saw a commit, a passive checkpoint: it copies
        what it can of the WAL into the database without holding up the
        writer (which goes on appending to the WAL meanwhile)."""
        done = 0
        try:
            while not self._stop.wait(CHECKPOINT_EVERY):
                if self.batches != done:
                    done = self.batches
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            with contextlib.suppress(sqlite3.Error):
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            connection.close()

    def _run(self, connection: sqlite3.Connection) -> None:
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

    def _write_batch(self, connection: sqlite3.Connection, batch: list[Job]) -> None:
        try:
            self._transaction(connection, batch)
        except Exception as error:
            _rollback(connection)
            if len(batch) == 1:
                self._fail(batch[0], error)
                return
            # One of them failed the batch: each alone, each with its own answer.
            for job in batch:
                try:
                    self._transaction(connection, [job])
                except Exception as alone:
                    _rollback(connection)
                    self._fail(job, alone)
                else:
                    self._done([job])
            return
        self._done(batch)

    def _transaction(self, connection: sqlite3.Connection, batch: list[Job]) -> None:
        now = stamp()
        connection.execute("BEGIN IMMEDIATE")
        for job in batch:
            connection.executemany(
                INSERT_MOVE,
                [(job.table_id, r.version, r.seat, r.action, r.move_id, now) for r in job.rows],
            )
            if job.finished:
                connection.execute(MARK_FINISHED, (now, job.table_id))
        connection.execute("COMMIT")
        self.batches += 1
        self.written += len(batch)

    def _done(self, batch: list[Job]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        for job in batch:
            by_loop.setdefault(job.loop, []).append(job.future)
        for loop, futures in by_loop.items():
            _call(loop, _resolve, futures)

    def _fail(self, job: Job, error: BaseException) -> None:
        _call(job.loop, _reject, job.future, error)


def _rollback(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def _call(loop: asyncio.AbstractEventLoop, callback: Any, *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(callback, *args)


def _resolve(futures: list[asyncio.Future[None]]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(None)


def _reject(future: asyncio.Future[None], error: BaseException) -> None:
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
