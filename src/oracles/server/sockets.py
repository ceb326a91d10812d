"""uvicorn's sans-I/O WebSocket protocol, with less held by a quiet socket.

A game socket lives for hours and mostly waits. uvicorn's
``WebSocketsSansIOProtocol`` keeps, for each one, an ``asyncio.Queue`` of
incoming events (four deques: about 3 KiB even when empty) and the
handshake's request and response with their headers (about 4 KiB) after
they are needed. :class:`LeanWebSocketProtocol` is the same protocol with
a one-reader queue (:class:`EventQueue`) and the handshake let go once the
socket is accepted; everything else is uvicorn's. ``oracles serve`` uses it
(``serve`` in ``oracles.server.cli``); the server's benchmark measures the
memory of an idle socket (``benchmarks/server.py``, docs/server.md).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class EventQueue:
    """The incoming events of one socket, for its one reader (the ASGI
    app's ``receive``): what uvicorn's protocol asks of an ``asyncio.Queue``
    (``put_nowait``, ``get``, ``empty``, ``qsize``), without its deques."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Any:
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with :class:`EventQueue` and
    the handshake let go once it is sent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = EventQueue()  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # A handshake websockets refuses while reading it (a request line or
        # headers past its limits, no valid HTTP) yields no event: its answer
        # (414, 431) or end of stream waits in the output, which uvicorn
        # writes only for events. Unsent, the connection stayed open (a
        # client could hold sockets so): send it and close.
        if (
            not self.handshake_complete
            and self.conn.handshake_exc is not None
            and not self.transport.is_closing()
        ):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message.get("type") == "websocket.http.response.body" and not message.get("more_body", False):
            # A handshake refused with an HTTP answer (403, 409, 429) is
            # over once its body is sent; uvicorn's sans-I/O protocol never
            # marks it so and logged an error for every refusal.
            self.handshake_complete = True
        # uvicorn reads the request and response only until the handshake
        # is sent (or refused); after that they only hold memory.
        if self.handshake_complete and getattr(self, "response", None) is not None:
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]
