"""One socket of a table: its outgoing messages, written in order.

Messages leave in the order the table made them, and a reader too slow to
keep up is closed rather than let hold the table's lock (``MAX_QUEUE``).

An idle socket holds no task and no queue: a writer task is started when a
message is queued and none is running, and it ends when the list is empty.
A server with thousands of quiet sockets keeps only their lists (an
``asyncio.Queue`` and a task waiting on it cost about 4 KiB a socket).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from oracles.server.protocol import ServerMessage, encode

#: A socket whose outgoing queue grows past this is too slow and is closed.
MAX_QUEUE = 500


class Connection:
    """One socket: messages are queued and written by one task at a time,
    so they leave in the order the table produced them and a slow reader
    never holds a table's lock."""

    __slots__ = ("_pending", "_send_text", "board_lang", "chat_had", "chat_held", "closed", "seat", "writer")

    def __init__(
        self, send_text: Callable[[str], Awaitable[None]], seat: int | None, board_lang: str | None = None
    ) -> None:
        self.seat = seat
        #: The language of the board drawn into each ``state`` for this
        #: socket (the web page's), or ``None``: the bare state (docs/server.md).
        self.board_lang = board_lang
        self._send_text = send_text
        #: Texts queued and not yet handed to the socket, oldest first.
        self._pending: list[str] = []
        #: Chat lines said while this socket's history is being read (id,
        #: message): sent after the history, those it did not hold.
        self.chat_held: list[tuple[int, str]] | None = None
        #: The ids of the chat lines this socket was sent as its history:
        #: a line still on its way when the history was read is not sent again.
        self.chat_had: frozenset[int] = frozenset()
        self.closed = False
        #: The task writing ``_pending`` out, while there is something to write.
        self.writer: asyncio.Task[None] | None = None

    def send(self, message: ServerMessage | dict[str, Any] | str) -> None:
        """Queue ``message``: a dict, or its text already encoded (a message
        sent to many sockets is encoded once)."""
        if self.closed:
            return
        if len(self._pending) > MAX_QUEUE:
            self.close()
            return
        self._pending.append(message if isinstance(message, str) else encode(message))
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())

    def close(self) -> None:
        """Stop queueing; what is queued already is still written."""
        self.closed = True

    async def _write(self) -> None:
        pending = self._pending
        try:
            # Read in place: a text queued while one is being written joins
            # this same loop, so order holds and no second writer starts.
            while pending:
                text = pending[0]
                await self._send_text(text)
                del pending[0]
        except Exception:
            self.closed = True
            pending.clear()
        finally:
            self.writer = None
