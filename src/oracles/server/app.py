"""The ASGI application: JSON API, table page and game WebSocket (``docs/server.md``).

:func:`create_app` builds it from :class:`~oracles.server.config.Settings`,
so tests run a server on a database of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

import msgspec
from sqlalchemy import text
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match, Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from oracles.core.errors import OraclesError
from oracles.core.registry import game_class
from oracles.i18n import reason_words
from oracles.server import branching, logs, protocol
from oracles.server.bots import BotRunner
from oracles.server.config import Settings, redact_url
from oracles.server.connection import Connection
from oracles.server.db import make_engine
from oracles.server.hints import Hints
from oracles.server.hub import Hub, SeatSpec
from oracles.server.invites import Invites, read_flags
from oracles.server.limits import (
    LimitError,
    RateLimiter,
    TableError,
    TokenBucket,
    checked_bot,
    client_address,
)
from oracles.server.migrate import upgrade
from oracles.server.runtime import TableRuntime
from oracles.server.writer import SQLiteWriter, sqlite_path

MAX_CLOCK = 24 * 3600
#: Most seats a table may list (no game has more than six).
MAX_SEATS = 12


def _error(status: int, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"retry-after": str(round(retry_after))} if retry_after is not None else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def parse_seats(value: Any, names: Any, max_bot_seconds: float = 5.0) -> list[SeatSpec]:
    """The ``seats`` list of a create request: ``"human"`` or ``"bot:<spec>"``,
    each bot's time budget bounded by ``max_bot_seconds`` a move."""
    if not isinstance(value, list) or not value or len(value) > MAX_SEATS:
        raise TableError(f'\'seats\' must be a list of 1 to {MAX_SEATS} "human" or "bot:<spec>"')
    if names is not None and (not isinstance(names, list) or len(names) != len(value)):
        raise TableError("'names' must be a list with one name per seat")
    specs = []
    for index, seat in enumerate(value):
        if not isinstance(seat, str):
            raise TableError(f'seat {index}: must be "human" or "bot:<spec>"')
        name = names[index] if names is not None else None
        if name is not None:
            if not isinstance(name, str):
                raise TableError(f"seat {index}: a name is 1 to {protocol.MAX_NAME} characters")
            name, problem = protocol.read_name(name)
            if problem:
                raise TableError(f"seat {index}: {problem}")
        if seat.strip().lower() == "human":
            specs.append(SeatSpec("human", None, name or f"Seat {index + 1}"))
        elif seat.startswith("bot:"):
            try:
                spec = checked_bot(seat[4:].strip(), max_bot_seconds)
            except LimitError as error:
                raise TableError(f"seat {index}: {error.message}") from None
            specs.append(SeatSpec("bot", spec, name or f"Bot ({spec.split(':')[0]})"))
        else:
            raise TableError(f'seat {index}: {seat[:40]!r} is neither "human" nor "bot:<spec>"')
    return specs


Text = Annotated[str, msgspec.Meta(max_length=200)]
OptionValue = bool | int | Annotated[str, msgspec.Meta(max_length=200)]
OptionName = Annotated[str, msgspec.Meta(max_length=40)]


class CreateRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables`` (``docs/server.md``): every key
    named here, no other; integers within 64 bits, text strict UTF-8."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    seats: Annotated[list[Text], msgspec.Meta(max_length=MAX_SEATS)]
    #: Each value is read on its own (:func:`option_values`), so that an
    #: error names its option.
    options: Annotated[dict[OptionName, msgspec.Raw], msgspec.Meta(max_length=20)] = {}
    names: Annotated[list[Text | None], msgspec.Meta(max_length=MAX_SEATS)] | None = None
    clock: int | None = None
    hints: bool = False
    #: Invites and pace (``invites.read_flags``).
    listed: bool = True
    wait: bool = False
    turn_hours: int | None = None
    spectator_chat: Annotated[str, msgspec.Meta(max_length=8)] = "own"
    #: The same deals as a finished table, or play on from its position
    #: (``branching.read_branch`` checks their shape).
    deals_from: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    from_: dict[str, Any] | None = msgspec.field(default=None, name="from")


class JoinRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables/<id>/join``."""

    seat: int
    name: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class StartRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables/<id>/start``, which may be empty: the
    bot spec that takes the empty seats (the lobby's default level), else
    the server's stand-in."""

    bot: Text | None = None


def read_json(body: bytes, kind: type[Any]) -> Any:
    """``body`` decoded as ``kind``, or a :class:`TableError` (422) naming
    the key at fault."""
    if not body.strip():
        raise TableError("the body is empty: send a JSON object")
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.DecodeError as error:
        if protocol.has_lone_surrogate(body):
            raise TableError(protocol.LONE_SURROGATE) from None
        raise TableError(protocol.explain(error)) from None
    except msgspec.MsgspecError as error:
        raise TableError(protocol.explain(error)) from None
    except RecursionError:
        raise TableError(protocol.TOO_DEEP) from None


#: The JSON type each kind of option takes in a request.
JSON_KINDS: dict[type, tuple[str, Callable[[Any], bool]]] = {
    bool: ("true or false", lambda v: isinstance(v, bool)),
    int: ("a JSON integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    str: ("a JSON string", lambda v: isinstance(v, str)),
}


def option_values(options: dict[str, msgspec.Raw], game_id: str | None = None) -> dict[str, Any]:
    """The ``options`` of a create request, each value a boolean, a 64-bit
    integer or a short text; a :class:`TableError` names the option at fault.

    Given the game, each known option must be of its own JSON type: the
    command line's texts (``players=4``, ``draft=yes``) are not JSON's, and
    ``"players": "4"`` is a bad option here."""
    schema = {}
    if game_id is not None:
        with contextlib.suppress(OraclesError):
            schema = {option.name: option for option in game_class(game_id).option_schema}
    out: dict[str, Any] = {}
    for name, raw in options.items():
        try:
            out[name] = msgspec.json.decode(raw, type=OptionValue)
        except msgspec.MsgspecError as error:
            raise TableError(f"'options.{name[:40]}': {protocol.explain(error)}") from None
        except RecursionError:
            raise TableError(f"'options.{name[:40]}': {protocol.TOO_DEEP}") from None
        option = schema.get(name)
        if option is not None:
            kind, fits = JSON_KINDS[option.kind]
            if not fits(out[name]):
                shown = bytes(raw)[:40].decode("utf-8", "replace")  # a cut may split a letter
                raise TableError(f"'options.{name}' must be {kind}, not {shown}")
    return out


class BodyTooLarge(Exception):
    """A request body went past the server's limit while being read."""


def _json_answer(status: int, payload: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> list[Any]:
    body = protocol.encode(payload).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return [
        {"type": "http.response.start", "status": status, "headers": [*head, *headers]},
        {"type": "http.response.body", "body": body},
    ]


class Guard:
    """The HTTP boundary, around every route: each answer says
    ``Referrer-Policy: no-referrer`` (a table's link holds the seat's token,
    which must not leak to other sites) and is logged by its path alone
    (never its query: the token); a body past ``max_body`` bytes is refused
    with 413 as soon as it is announced or read that far, never held whole;
    an unexpected failure is logged with its traceback and answered 500,
    with the same header."""

    def __init__(
        self, app: ASGIApp, max_body: int = 64 * 1024, allowed_origins: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed_origins = allowed_origins

    def foreign(self, scope: Scope) -> str | None:
        """The ``Origin`` of a request that changes something (POST …) sent
        by a page of another site, else None. Browsers name the page's
        origin; programs usually send none, and their requests stand. A
        page elsewhere cannot so create tables or take seats in the name of
        whoever opens it (a form may post JSON as text/plain)."""
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None
        headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
        origin = headers.get(b"origin", b"").decode("latin-1")
        if origin in self.allowed_origins:
            return None
        # The browser says where the request comes from: the site's own
        # pages post with "Origin: null" (their Referrer-Policy is
        # no-referrer), so its Sec-Fetch-Site decides where it is sent.
        fetched_from = headers.get(b"sec-fetch-site", b"").decode("latin-1")
        if fetched_from in ("cross-site", "same-site"):
            return origin or fetched_from
        own = f"{scope.get('scheme', 'http')}://{headers.get(b'host', b'').decode('latin-1')}"
        return None if origin in ("", "null", own) else origin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        policy = (b"referrer-policy", b"no-referrer")

        async def guarded_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], policy]
                logs.event("request", method=scope["method"], path=scope["path"], status=message["status"])
            await send(message)

        async def refuse(status: int, message: str) -> None:
            # After a refused body the connection closes: the rest is not read.
            closing = [(b"connection", b"close")] if status == 413 else []
            for part in _json_answer(status, {"error": message}, [policy, *closing]):
                if part["type"] == "http.response.start":
                    logs.event("request", method=scope["method"], path=scope["path"], status=status)
                await send(part)

        other = self.foreign(scope)
        if other is not None:
            await refuse(403, f"requests from another site are refused ({other[:80]})")
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await refuse(413, f"the request body is larger than {self.max_body} bytes")
            return
        seen = 0

        async def counted_receive() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, counted_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await refuse(413, f"the request body is larger than {self.max_body} bytes")
        except Exception:
            logs.failure("request failed", method=scope["method"], path=scope["path"])
            if not started:
                await refuse(500, "the server failed on this request; it has been logged")


class OraclesApp(Starlette):
    """Starlette, with the game socket's route called straight from here.

    Every other request and socket goes through the middleware and the
    router as usual. A game socket lives for hours, and through that stack
    each one would hold a coroutine frame per layer (about 6 KiB a socket,
    a tenth of a quiet socket's memory): the layers do nothing for a socket
    (:class:`Guard` passes them through, the error pages are HTTP's). The
    route still matches the path (and reads the table id), as the router
    would."""

    #: The game socket's route (``create_app`` sets it).
    socket_route: WebSocketRoute | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.socket_route
        if route is not None and scope["type"] == "websocket":
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope["app"] = self
                scope.update(child)
                await route.endpoint(WebSocket(scope, receive, send))
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> Starlette:
    """The server's ASGI application for ``settings``."""
    settings = settings or Settings()
    engine = make_engine(settings.db_url)
    bots = BotRunner(settings.bot_mode, settings.bot_workers)
    path = sqlite_path(engine.url)
    writer = SQLiteWriter(path) if path is not None else None
    hub = Hub(settings, engine, bots, writer)
    hint_desk = Hints(engine, bots, store=hub.store)
    invites = Invites(hub)
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
            await hint_desk.aclose()
            if writer is not None:
                # The writes in flight are committed before the thread stops.
                await asyncio.to_thread(writer.close)
            await bots.aclose()
            await engine.dispose()
            logs.event("stopped")

    async def create_table(request: Request) -> Response:
        try:
            body: CreateRequest = read_json(await request.body(), CreateRequest)
            branch = branching.read_branch(
                {"deals_from": body.deals_from, **({"from": body.from_} if body.from_ is not None else {})}
            )
            options = option_values(body.options, body.game)
            origin = await branching.resolve(hub, branch, body.game, options) if branch else None
            clock = body.clock
            if clock is not None and not 1 <= clock <= MAX_CLOCK:
                raise TableError(f"'clock' must be whole seconds from 1 to {MAX_CLOCK}")
            seats = parse_seats(body.seats, body.names, settings.max_bot_seconds)
            flags = read_flags(body)
            table, tokens = await hub.create(
                origin.game if origin else body.game,
                origin.options if origin else options,
                seats,
                client=client_address(request.scope),
                origin=origin,
                **flags.create_args(clock),
            )
            if body.hints:
                await hint_desk.enable(table.id)
        except TableError as error:
            return _error(error.status, error.message, error.retry_after)
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
            # Beyond the contract: the hints each seat took.
            summary["hints"] = {"taken": await hint_desk.taken(table.id, len(table.seats))}
        return JSONResponse(summary)

    async def compare_tables(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        status, body = await branching.compare(hub, table)
        return JSONResponse(body, status_code=status)

    async def series_of_tables(request: Request) -> Response:
        status, body = await branching.series(hub, request.path_params["table_id"])
        return JSONResponse(body, status_code=status)

    async def table_record(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        if not table.finished:
            return _error(409, "the game is still being played; its record is public once it ends")
        if await hub.deals_in_play(table):
            return _error(409, branching.DEALS_IN_PLAY)
        return JSONResponse(table.record())

    async def rematch(request: Request) -> Response:
        table = await _table(request)
        if table is None:
            return _error(404, "no such table")
        token = request.query_params.get("token") or request.headers.get("x-oracles-token") or ""
        seat = await invites.seat_of(table, token) if token else None
        if seat is None:
            return _error(403, "only a seat of this table may ask for a rematch")
        if not table.finished:
            return _error(409, "the game is not over yet")
        new = await invites.rematch(table, seat, token)
        if await hint_desk.enabled(table.id):
            await hint_desk.enable(new.id)  # the next game keeps the table's hints
        return JSONResponse(
            {"id": new.id, "watch": f"/t/{new.id}", "url": f"/t/{new.id}?token={token}"}, status_code=201
        )

    async def join_seat(request: Request) -> Response:
        try:
            # A claim is a guess at a free seat: as many as the web's joins.
            hub.join_limiter.hit(client_address(request.scope))
            body: JoinRequest = read_json(await request.body(), JoinRequest)
        except TableError as error:
            return _error(error.status, error.message, error.retry_after)
        status, answer = await invites.join(
            request.path_params["table_id"], {"seat": body.seat, "name": body.name}
        )
        return JSONResponse(answer, status_code=status)

    async def start_table(request: Request) -> Response:
        token = request.query_params.get("token") or request.headers.get("x-oracles-token") or ""
        bot = None
        raw = await request.body()
        if raw.strip():
            try:
                body: StartRequest = read_json(raw, StartRequest)
                if body.bot is not None:
                    bot = checked_bot(body.bot.strip(), settings.max_bot_seconds)
            except TableError as error:
                return _error(error.status, error.message, error.retry_after)
            except LimitError as error:
                return _error(422, f"bot: {error.message}")
        status, answer = await invites.start(request.path_params["table_id"], token, bot)
        return JSONResponse(answer, status_code=status)

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
        # The page's own origin: its scheme too (an https page for a wss
        # socket); behind a TLS proxy the scheme comes from its
        # X-Forwarded-Proto, which uvicorn trusts from this machine.
        scheme = "https" if websocket.url.scheme == "wss" else "http"
        return parts.scheme == scheme and parts.netloc == host

    connect_limiter = RateLimiter("connections", settings.connect_rate, settings.connect_burst)
    #: Open sockets per client address.
    open_sockets: dict[str, int] = {}

    async def deny(websocket: WebSocket, status: int, message: str, retry_after: float | None = None) -> None:
        """Refuse a handshake with an HTTP answer (403, 429, 503)."""
        headers = {"retry-after": str(round(retry_after))} if retry_after is not None else None
        try:
            await websocket.send_denial_response(JSONResponse({"error": message}, status, headers=headers))
        except RuntimeError:  # the ASGI server cannot send one: close, which answers 403
            await websocket.close(code=1008)

    async def game_socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        token = websocket.query_params.get("token")
        address = client_address(websocket.scope)
        if not origin_allowed(websocket):
            logs.event("refused", table=table_id, why="origin")
            await websocket.close(code=1008)
            return
        try:
            connect_limiter.hit(address)
        except LimitError as error:
            logs.event("refused", table=table_id[:40], why="rate")
            await deny(websocket, error.status, error.message, error.retry_after)
            return
        # Held from here to the socket's end: never let go of in between.
        async with hub.hold(table_id) as table:
            seat = None
            if table is not None and token is not None:
                seat = await invites.seat_of(table, token)
            if table is None or (token is not None and seat is None) or hub.closing:
                logs.event("refused", table=table_id[:40], why="table or token")
                await websocket.close(code=1008)
                return
            if open_sockets.get(address, 0) >= settings.max_sockets_per_client:
                logs.event("refused", table=table.id, why="client's sockets")
                await deny(websocket, 429, "too many open connections from this address", 10)
                return
            if seat is None and table.finished and await hub.deals_in_play(table):
                # A spectator of the finished game would read its every card.
                logs.event("refused", table=table.id, why="deals in play")
                await deny(websocket, 409, branching.DEALS_IN_PLAY)
                return
            if table.admitted >= settings.max_sockets_per_table:
                logs.event("refused", table=table.id, why="table full")
                await deny(websocket, 503, "this table has as many connections as it can take", 30)
                return
            table.admitted += 1
            open_sockets[address] = open_sockets.get(address, 0) + 1
            # The web page asks for its board in each state (``board=1``),
            # drawn in its language: then a move costs it no fetch.
            board_lang = language(websocket) if websocket.query_params.get("board") == "1" else None
            conn = Connection(websocket.send_text, seat, board_lang)
            try:
                await websocket.accept()
                logs.event("connected", table=table.id, seat=seat)
                bucket = TokenBucket(settings.rate, settings.burst)
                await table.attach(conn)
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
                        conn.send(
                            protocol.error(protocol.BAD_MESSAGE, "too many messages: slow down", refused)
                        )
                        continue
                    try:
                        await handle(table, conn, raw)
                    except Exception:
                        # Whatever a message does, the socket goes on (and is logged).
                        logs.failure("message failed", table=table.id, seat=seat)
                        conn.send(protocol.error(protocol.UNAVAILABLE, "the server failed on this message"))
            except WebSocketDisconnect:
                pass
            finally:
                left = open_sockets.get(address, 1) - 1
                if left > 0:
                    open_sockets[address] = left
                else:
                    open_sockets.pop(address, None)
                table.admitted -= 1
                await table.detach(conn)
                logs.event("disconnected", table=table.id, seat=seat)

    # One handler per client message class (``protocol.ClientMessage``).
    async def on_move(table: TableRuntime, conn: Connection, msg: protocol.Move) -> None:
        if conn.seat is None:
            conn.send(protocol.error(protocol.NOT_YOUR_TURN, "spectators do not move", msg.id))
            return
        acked: list[protocol.AckMessage] = []

        def reply(ack: protocol.AckMessage) -> None:
            acked.append(ack)
            conn.send(ack)

        try:
            answer = await table.submit(conn.seat, msg.action, msg.version, msg.id, reply)
            if not acked:  # a move already applied: nothing was broadcast
                conn.send(answer)
        except protocol.ProtocolError as error:
            message = error.message
            if error.why is not None and conn.board_lang is not None:
                # A page says why to its player, in the page's language
                # ("'play B7': du musst Rot bedienen").
                names = [s.name for s in table.seats]
                message = f"{msg.action[:40]!r}: {reason_words(error.why, conn.board_lang, names)}"
            conn.send(protocol.error(error.code, message, msg.id))
            if error.code == protocol.STALE:
                table.send_state(conn)
        except Exception:
            # The database failed: nothing was applied, the move may be resent.
            logs.failure("move not stored", table=table.id, seat=conn.seat)
            conn.send(
                protocol.error(protocol.UNAVAILABLE, "the move could not be stored; send it again", msg.id)
            )

    async def on_hello(table: TableRuntime, conn: Connection, msg: protocol.Hello) -> None:
        table.send_state(conn)

    async def on_chat(table: TableRuntime, conn: Connection, msg: protocol.Chat) -> None:
        try:
            await table.chat(conn.seat, msg.text)
        except protocol.ProtocolError as error:
            conn.send(protocol.error(error.code, error.message))

    async def on_name(table: TableRuntime, conn: Connection, msg: protocol.Name) -> None:
        if conn.seat is None:
            conn.send(protocol.error(protocol.BAD_MESSAGE, "spectators have no seat to name"))
        else:
            await table.rename(conn.seat, msg.name)

    async def on_ping(table: TableRuntime, conn: Connection, msg: protocol.Ping) -> None:
        conn.send(protocol.PongMessage())

    async def on_hint(table: TableRuntime, conn: Connection, msg: protocol.Hint) -> None:
        hint_desk.request(table, conn.seat, msg.version, msg.id, conn.send, conn.board_lang)

    handlers: dict[type[Any], Callable[[TableRuntime, Connection, Any], Awaitable[None]]] = {
        protocol.Move: on_move,
        protocol.Hello: on_hello,
        protocol.Chat: on_chat,
        protocol.Name: on_name,
        protocol.Ping: on_ping,
        protocol.Hint: on_hint,
    }
    missing = set(protocol.CLIENT_MESSAGES) - set(handlers)
    if missing:
        raise RuntimeError(f"no handler for {sorted(cls.__name__ for cls in missing)}")

    async def handle(table: TableRuntime, conn: Connection, raw: str | bytes | None) -> None:
        try:
            msg = protocol.parse_client_message(raw, settings.chat_max)
        except protocol.ProtocolError as error:
            conn.send(protocol.error(error.code, error.message))
            return
        await handlers[type(msg)](table, conn, msg)

    socket_route = WebSocketRoute("/ws/tables/{table_id}", game_socket)
    routes = [
        Route("/healthz", healthz),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables/{table_id}", show_table),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/compare", compare_tables),
        Route("/api/tables/{table_id}/series", series_of_tables),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/join", join_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start_table, methods=["POST"]),
        # Called from OraclesApp.__call__ (listed too, for url_path_for).
        socket_route,
    ]
    # The web pages: the lobby, the table page /t/<id>, replay, rules, branches.
    from oracles.web.branches import branch_routes
    from oracles.web.present import seat_names
    from oracles.web.routes import board_html, language, missing_page, render, web_routes

    hub.board_renderer = board_html
    hint_desk.namer = seat_names  # hints and reviews call the seats as the pages do

    def web_seats(value: Any, names: Any) -> list[SeatSpec]:
        return parse_seats(value, names, settings.max_bot_seconds)

    pages = branch_routes(
        hub,
        branching.resolve,
        branching.read_branch,
        web_seats,
        TableError,
        protocol.ProtocolError,
        render,
        language,
        series=branching.series,
    )
    routes = [*web_routes(hub, web_seats, TableError, hint_desk), *pages, *routes]

    async def no_route(request: Request, exc: Exception) -> Response:
        """An address no route answers (404) or answers with another method
        (405): JSON under /api/ as every API error, the site's error page
        elsewhere."""
        assert isinstance(exc, HTTPException)  # the only exception it is registered for
        status, headers = exc.status_code, exc.headers
        if request.url.path.startswith("/api/"):
            reason = "no such address" if status == 404 else f"{request.method} is not allowed here"
            return JSONResponse(
                {"error": f"{reason}: {request.url.path}"}, status_code=status, headers=headers
            )
        page = missing_page(request, status)
        page.headers.update(headers or {})
        return page

    app = OraclesApp(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: no_route})
    app.add_middleware(Guard, max_body=settings.max_body, allowed_origins=tuple(settings.allowed_origins))
    app.socket_route = socket_route
    app.state.hub = hub
    app.state.hints = hint_desk
    app.state.settings = settings
    return app
