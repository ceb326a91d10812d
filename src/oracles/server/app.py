"""The ASGI application: JSON API, table page and game WebSocket (``SPEC.md`` §7).

:func:`create_app` builds it from :class:`~oracles.server.config.Settings`,
so tests run a server on a database of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from oracles.bots.specs import parse_bot_spec
from oracles.core.errors import OraclesError
from oracles.server import branching, logs, protocol
from oracles.server.bots import BotRunner
from oracles.server.config import Settings, redact_url
from oracles.server.db import make_engine
from oracles.server.hints import Hints
from oracles.server.migrate import upgrade
from oracles.server.tables import Connection, Hub, SeatSpec, TableError, TableRuntime
from oracles.server.writer import MoveWriter, sqlite_path

MAX_BODY = 64 * 1024
MAX_CLOCK = 24 * 3600


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def parse_seats(value: Any, names: Any) -> list[SeatSpec]:
    """The ``seats`` list of a create request: ``"human"`` or ``"bot:<spec>"``."""
    if not isinstance(value, list) or not value:
        raise TableError('\'seats\' must be a non-empty list of "human" or "bot:<spec>"')
    if names is not None and (not isinstance(names, list) or len(names) != len(value)):
        raise TableError("'names' must be a list with one name per seat")
    specs = []
    for index, seat in enumerate(value):
        if not isinstance(seat, str):
            raise TableError(f'seat {index}: must be "human" or "bot:<spec>"')
        name = names[index] if names is not None else None
        if name is not None and (
            not isinstance(name, str) or not name.strip() or len(name) > protocol.MAX_NAME
        ):
            raise TableError(f"seat {index}: a name is 1 to {protocol.MAX_NAME} characters")
        if seat.strip().lower() == "human":
            specs.append(SeatSpec("human", None, name.strip() if name else f"Seat {index + 1}"))
        elif seat.startswith("bot:"):
            spec = seat[4:].strip()
            try:
                parse_bot_spec(spec)
            except OraclesError as error:
                raise TableError(f"seat {index}: {error}") from None
            specs.append(SeatSpec("bot", spec, name.strip() if name else f"Bot ({spec.split(':')[0]})"))
        else:
            raise TableError(f'seat {index}: {seat[:40]!r} is neither "human" nor "bot:<spec>"')
    return specs


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise TableError("the request is too large")
    try:
        return json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise TableError("the request body is not valid JSON") from None


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1
        return self.tokens >= 0


class NoReferrer:
    """Every HTTP answer says ``Referrer-Policy: no-referrer``: a table's
    link holds the seat's token, which must not leak to other sites. Also
    logs each request by its path alone (never its query: the token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Any) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"referrer-policy", b"no-referrer")]
                logs.event("request", method=scope["method"], path=scope["path"], status=message["status"])
            await send(message)

        await self.app(scope, receive, send_with_header)


TABLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>oracles table {id}</title></head>
<body><main id="table" data-table="{id}" data-version="">
<p>Table {id}. The web page comes with the next release; play over the WebSocket
<code>/ws/tables/{id}</code> (see docs/server.md).</p></main></body></html>
"""


def create_app(settings: Settings | None = None) -> Starlette:
    """The server's ASGI application for ``settings``."""
    settings = settings or Settings()
    engine = make_engine(settings.db_url)
    bots = BotRunner(settings.bot_mode, settings.bot_workers)
    path = sqlite_path(engine.url)
    writer = MoveWriter(path) if path is not None else None
    hub = Hub(settings, engine, bots, writer)
    hint_desk = Hints(engine, bots)
    hub.on_release.append(hint_desk.forget)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.migrate:
            await upgrade(engine)
        logs.event("database ready", db=redact_url(settings.db_url))
        if writer is not None:
            writer.start()
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            if writer is not None:
                # The moves in flight are written before the thread stops.
                await asyncio.to_thread(writer.close)
            await hint_desk.aclose()
            await bots.aclose()
            await engine.dispose()
            logs.event("stopped")

    async def create_table(request: Request) -> Response:
        try:
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise TableError("the request must be a JSON object")
            branch = branching.read_branch(body)
            origin = (
                await branching.resolve(hub, branch, body.get("game"), body.get("options"))
                if branch
                else None
            )
            game = origin.game if origin else body.get("game")
            if not isinstance(game, str):
                raise TableError("'game' must be a game id")
            options = origin.options if origin else body.get("options")
            options = {} if options is None else options
            if not isinstance(options, dict):
                raise TableError("'options' must be a JSON object")
            clock = body.get("clock")
            if clock is not None and (
                not isinstance(clock, int) or isinstance(clock, bool) or not 1 <= clock <= MAX_CLOCK
            ):
                raise TableError(f"'clock' must be whole seconds from 1 to {MAX_CLOCK}")
            seats = parse_seats(body.get("seats"), body.get("names"))
            hints_on = body.get("hints", False)
            if not isinstance(hints_on, bool):
                raise TableError("'hints' must be true or false")
            table, tokens = await hub.create(game, options, seats, clock=clock, origin=origin)
            if hints_on:
                await hint_desk.enable(table.id)
        except TableError as error:
            return _error(422, str(error))
        out = []
        for seat, token in zip(table.seats, tokens, strict=True):
            entry: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind}
            if token is not None:
                entry["token"] = token
                entry["url"] = f"/t/{table.id}?token={token}"
            else:
                entry["bot"] = seat.bot
            out.append(entry)
        return JSONResponse({"id": table.id, "seats": out, "watch": f"/t/{table.id}"}, status_code=201)

    async def lobby(request: Request) -> Response:
        return JSONResponse({"tables": await hub.lobby()})

    async def _table(request: Request) -> TableRuntime | None:
        return await hub.read(request.path_params["table_id"])

    async def show_table(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        summary = table.summary()
        if await hint_desk.enabled(table.id):
            # Beyond the SPEC: the hints each seat took.
            summary["hints"] = {"taken": await hint_desk.taken(table.id, len(table.seats))}
        return JSONResponse(summary)

    async def compare_tables(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        status, body = await branching.compare(hub, table)
        return JSONResponse(body, status_code=status)

    async def table_record(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        if not table.finished:
            return _error(409, "the game is still being played; its record is public once it ends")
        return JSONResponse(table.record())

    async def rematch(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        token = request.query_params.get("token") or request.headers.get("x-oracles-token") or ""
        if not token or table.seat_for_token(token) is None:
            return _error(403, "only a seat of this table may ask for a rematch")
        if not table.finished:
            return _error(409, "the game is not over yet")
        new = await hub.rematch(table)
        if await hint_desk.enabled(table.id):
            await hint_desk.enable(new.id)  # the next game keeps the table's hints
        return JSONResponse(
            {"id": new.id, "watch": f"/t/{new.id}", "url": f"/t/{new.id}?token={token}"}, status_code=201
        )

    async def table_page(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return HTMLResponse("<!doctype html><title>no such table</title><p>No such table.</p>", 404)
        return HTMLResponse(TABLE_PAGE.format(id=table.id))

    async def healthz(request: Request) -> Response:
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception:
            logs.failure("health check failed")
            return JSONResponse({"ok": False}, status_code=503)
        return JSONResponse({"ok": True, "tables": len(hub.tables)})

    def origin_allowed(websocket: WebSocket) -> bool:
        origin = websocket.headers.get("origin")
        if origin is None:
            return True  # not a browser: the token is the credential
        if origin in settings.allowed_origins:
            return True
        host = websocket.headers.get("host", "")
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc == host

    async def game_socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        token = websocket.query_params.get("token")
        if not origin_allowed(websocket):
            logs.event("refused", table=table_id, why="origin")
            await websocket.close(code=1008)
            return
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        seat = None
        if table is not None and token is not None:
            seat = table.seat_for_token(token)
        if table is None or (token is not None and seat is None) or hub.closing:
            logs.event("refused", table=table_id, why="table or token")
            await websocket.close(code=1008)
            return
        await websocket.accept()
        conn = Connection(websocket.send_text, seat)
        logs.event("connected", table=table.id, seat=seat)
        bucket = TokenBucket(settings.rate, settings.burst)
        await table.attach(conn)
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None and message.get("bytes") is not None:
                    raw = message["bytes"]
                if raw is not None and len(raw) > protocol.MAX_MESSAGE:
                    await websocket.close(code=1009)
                    break
                if not bucket.take():
                    if bucket.tokens < -settings.burst:
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    # Name the move refused, so that its sender can resend it.
                    refused = protocol.move_id_of(raw)
                    conn.send(protocol.error(protocol.BAD_MESSAGE, "too many messages: slow down", refused))
                    continue
                await handle(table, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            await table.detach(conn)
            logs.event("disconnected", table=table.id, seat=seat)

    async def handle(table: TableRuntime, conn: Connection, raw: str | bytes | None) -> None:
        try:
            msg = protocol.parse_client_message(raw, settings.chat_max)
        except protocol.ProtocolError as error:
            conn.send(protocol.error(error.code, error.message))
            return
        if isinstance(msg, protocol.Move):
            if conn.seat is None:
                conn.send(protocol.error(protocol.NOT_YOUR_TURN, "spectators do not move", msg.id))
                return
            try:
                conn.send(await table.submit(conn.seat, msg.action, msg.version, msg.id))
            except protocol.ProtocolError as error:
                conn.send(protocol.error(error.code, error.message, msg.id))
                if error.code == protocol.STALE:
                    table.send_state(conn)
            except Exception:
                # The database failed: nothing was applied, the move may be resent.
                logs.failure("move not stored", table=table.id, seat=conn.seat)
                conn.send(
                    protocol.error("unavailable", "the move could not be stored; send it again", msg.id)
                )
        elif isinstance(msg, protocol.Hello):
            table.send_state(conn)
        elif isinstance(msg, protocol.Chat):
            await table.chat(conn.seat, msg.text)
        elif isinstance(msg, protocol.Name):
            if conn.seat is None:
                conn.send(protocol.error(protocol.BAD_MESSAGE, "spectators have no seat to name"))
            else:
                await table.rename(conn.seat, msg.name)
        elif isinstance(msg, protocol.Ping):
            conn.send({"type": "pong"})
        elif isinstance(msg, protocol.Hint):
            hint_desk.request(table, conn.seat, msg.version, msg.id, conn.send)

    routes = [
        Route("/healthz", healthz),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables/{table_id}", show_table),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/compare", compare_tables),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/t/{table_id}", table_page),
        WebSocketRoute("/ws/tables/{table_id}", game_socket),
    ]
    # The web pages (lobby, table, replay, rules) come first: their /t/<id>
    # replaces the placeholder table page above.
    from oracles.web.branches import branch_routes
    from oracles.web.routes import OPEN_SEATS, language, render, web_routes

    pages = branch_routes(
        hub,
        branching.resolve,
        branching.read_branch,
        parse_seats,
        TableError,
        protocol.ProtocolError,
        render,
        language,
        OPEN_SEATS,
    )
    routes = [*web_routes(hub, parse_seats, TableError, hint_desk), *pages, *routes]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(NoReferrer)
    app.state.hub = hub
    app.state.hints = hint_desk
    app.state.settings = settings
    return app
