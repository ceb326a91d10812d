"""One socket of a table: its outgoing queue, written by one task.

Messages leave in the order the table made them, and a reader too slow to
keep up is closed rather than let hold the table's lock (``MAX_QUEUE``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from oracles.server.protocol import ServerMessage, encode

#: A socket whose outgoing queue grows past this is too slow and is closed.
MAX_QUEUE = 500


class Connection:
    """One socket: messages are queued and written by one task, so they
    leave in the order the table produced them and a slow reader never
    holds a table's lock."""

    def __init__(
        self, send_text: Callable[[str], Awaitable[None]], seat: int | None, board_lang: str | None = None
    ) -> None:
        self.seat = seat
        #: The language of the board drawn into each ``state`` for this
        #: socket (the web page's), or ``None``: the bare state (docs/server.md).
        self.board_lang = board_lang
        self._send_text = send_text
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        #: Chat lines said while this socket's history is being read (id,
        #: message): sent after the history, those it did not hold.
        self.chat_held: list[tuple[int, str]] | None = None
        #: The ids of the chat lines this socket was sent as its history:
        #: a line still on its way when the history was read is not sent again.
        self.chat_had: frozenset[int] = frozenset()
        self.closed = False
        self.writer = asyncio.create_task(self._write())

    def send(self, message: ServerMessage | dict[str, Any] | str) -> None:
        """Queue ``message``: a dict, or its text already encoded (a message
        sent to many sockets is encoded once)."""
        if self.closed:
            return
        if self._queue.qsize() > MAX_QUEUE:
            self.close()
            return
        self._queue.put_nowait(message if isinstance(message, str) else encode(message))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    return
                await self._send_text(text)
        except Exception:
            self.closed = True
