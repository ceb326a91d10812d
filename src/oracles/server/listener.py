"""PostgreSQL's notices, heard by every server process.

Each commit of a move, a chat line or a seat change sends ``NOTIFY``; the
:class:`Listener` of every process hears it, and the hub reads the new rows
back and tells its own sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from oracles.server import db, logs

if TYPE_CHECKING:
    from oracles.server.hub import Hub


#: The listening connection's ``application_name`` (seen in ``pg_stat_activity``).
LISTENER_NAME = "oracles-listener"


class Listener:
    """One dedicated asyncpg connection doing ``LISTEN oracles_moves``;
    reconnects when it drops, and then catches every loaded table up."""

    #: Seconds between checks that the connection is alive.
    CHECK = 2.0

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.dsn = hub.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        #: Whether the ``LISTEN`` is in place now (a move reads the database
        #: before it is played while it is not: a notice may be missed).
        self.hearing = False

    async def start(self) -> None:
        self.task = asyncio.create_task(self._run())
        # Wait (a little) for the first LISTEN, so that no move is missed.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def _on_notify(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        parts = payload.split(":")
        if len(parts) == 2 and parts[1].isdigit():
            self.hub.notified(parts[0], int(parts[1]))
        elif len(parts) == 3 and parts[1] == "chat" and parts[2].isdigit():
            self.hub.notified_chat(parts[0], int(parts[2]))
        elif len(parts) == 2 and parts[1] == "seats":
            self.hub.notified_seats(parts[0])

    async def _run(self) -> None:
        import asyncpg

        first = True
        while not self.hub.closing:
            conn = None
            try:
                conn = await asyncpg.connect(
                    self.dsn, timeout=10, server_settings={"application_name": LISTENER_NAME}
                )
                await conn.add_listener(db.CHANNEL, self._on_notify)
                logs.event("listening", channel=db.CHANNEL)
                self.hearing = True
                self.ready.set()
                if not first:
                    await self.hub.refresh_all()
                first = False
                while not conn.is_closed():
                    await asyncio.sleep(self.CHECK)
                    await asyncio.wait_for(conn.execute("SELECT 1"), self.CHECK * 2)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logs.event("listener lost", logging.WARNING, error=repr(error))
            finally:
                self.hearing = False
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 2)
            await asyncio.sleep(1.0)
