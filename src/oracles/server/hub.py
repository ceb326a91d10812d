"""The hub: every table of this server process, loaded from the database
on demand.

The :class:`Hub` keeps the tables being played and the finished ones
someone watches; it lets the others go (:meth:`Hub.release`) and loads a
table again when asked. A socket, a claim, a start or a rematch holds its
table (:meth:`Hub.hold`) so that it is never let go, and loaded a second
time, while still in use. It creates tables (and rematches) and answers the
lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from oracles.core.errors import OraclesError
from oracles.core.records import chance_actions, replay_record
from oracles.core.registry import game_class, load_game
from oracles.server import db, logs
from oracles.server.bots import BotRunner
from oracles.server.config import Settings
from oracles.server.limits import LimitError, RateLimiter, TableError, checked_options
from oracles.server.listener import Listener
from oracles.server.runtime import CHAT_HISTORY, BoardRenderer, TableRuntime
from oracles.server.tokens import hash_token, new_token
from oracles.server.writer import SQLiteWriter, Store

if TYPE_CHECKING:
    from oracles.server.branching import Origin
    from oracles.server.invites import Invites


#: How far up a chain of tables on the same deals is followed, and how many
#: tables of one family of deals are looked at (``Hub.deals_in_play``).
MAX_DEAL_CHAIN = 64
MAX_DEAL_FAMILY = 200


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    bot: str | None
    name: str


class Hub:
    """All tables of this server, loaded from the database on demand."""

    def __init__(
        self, settings: Settings, engine: AsyncEngine, bots: BotRunner, writer: SQLiteWriter | None = None
    ) -> None:
        self.settings = settings
        #: Reads go to the engine; every write goes through the store.
        self.engine = engine
        self.bots = bots
        #: SQLite's group-commit writer (``None``: the store writes through the engine).
        self.writer = writer
        self.store = Store(engine, writer)
        self.tables: dict[str, TableRuntime] = {}
        self.closing = False
        self._loading = asyncio.Lock()
        #: Other processes may write the same tables (PostgreSQL).
        self.shared = db.is_shared(engine)
        self.listener: Listener | None = Listener(self) if self.shared else None
        #: Chat lines said through this process, whose notices are to be skipped.
        self.own_chat: set[int] = set()
        self._relays: set[asyncio.Task[None]] = set()
        #: Called with a table's id when it leaves memory, so that what other
        #: parts keep per table (the hint desk's memo) goes with it.
        self.on_release: list[Callable[[str], None]] = []
        #: The invite desk (``invites.Invites``), set by the app.
        self.invites: Invites | None = None
        #: Draws a seat's board for a ``state`` message (the web page's,
        #: set by the app; ``None`` when there is no web page): ``(table,
        #: seat, language, message) -> HTML``, or ``None`` for no board.
        self.board_renderer: BoardRenderer | None = None
        #: Tables each client address may create (``docs/server.md``, limits).
        self.create_limiter = RateLimiter("new tables", settings.create_rate, settings.create_burst)
        #: Seat claims each client address may make.
        self.join_limiter = RateLimiter("seat claims", settings.join_rate, settings.join_burst)
        self._background: set[asyncio.Task[None]] = set()

    def release(self, runtime: TableRuntime) -> None:
        """Let ``runtime`` go from memory if nothing happens there until
        someone comes: it is finished, or it waits for a person who is away
        (:attr:`TableRuntime.idle`), and nobody watches it. Everything about
        it is in the database, and :meth:`get` loads it again when someone
        asks. Called after each move, when a socket leaves and by
        :meth:`read`; a long-running server (or a flood of tables nobody
        plays) would otherwise hold every table ever made."""
        if (
            runtime.connections
            or runtime.admitted
            or runtime.holders
            or self.tables.get(runtime.id) is not runtime
        ):
            return
        if runtime.finished or runtime.idle:
            del self.tables[runtime.id]
            for forget in self.on_release:
                forget(runtime.id)

    def unattended(self) -> int:
        """Unfinished tables in memory that nobody has a socket on: their
        bots play, or a stand-in waits for its grace."""
        return sum(1 for t in self.tables.values() if not t.connections and not t.finished)

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` beside the requests (kept until it ends)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def read(self, table_id: str) -> TableRuntime | None:
        """The table, for a request that only reads it (a page, the API):
        as :meth:`get`, but a finished table is not kept loaded for it."""
        if len(table_id) > 32:
            return None
        runtime = await self.get(table_id)
        if runtime is not None:
            self.release(runtime)
        return runtime

    async def start(self) -> None:
        """Listen for other processes' moves (PostgreSQL), then resume the
        unfinished tables in the background (the server answers meanwhile),
        and look now and then for abandoned ones."""
        if self.listener is not None:
            await self.listener.start()
        self.spawn(self.resume_all())
        self.spawn(self._sweep_abandoned())

    async def _sweep_abandoned(self) -> None:
        """Every few minutes: unfinished tables nobody touched for
        ``abandon_after`` seconds are marked abandoned (out of the lobby,
        not resumed on start; their links still load them)."""
        every = min(600.0, max(1.0, self.settings.abandon_after / 10))
        while not self.closing:
            try:
                cut = db.now() - timedelta(seconds=self.settings.abandon_after)
                keep = [t.id for t in self.tables.values() if t.connections]
                count = await self.store.write(partial(db.mark_abandoned, before=cut, keep=keep))
                if count:
                    logs.event("abandoned", tables=count)
                for runtime in list(self.tables.values()):
                    if (
                        not runtime.connections
                        and not runtime.finished
                        and runtime.touched < (time.monotonic() - self.settings.abandon_after)
                    ):
                        await runtime.stop()
                        self.tables.pop(runtime.id, None)
            except Exception:
                logs.failure("abandoned tables not swept")
            await asyncio.sleep(every)

    async def refresh_all(self) -> None:
        """Catch every loaded table up with the database (a notice may
        have been missed while the listener was away)."""
        for runtime in list(self.tables.values()):
            try:
                await runtime.refresh()
            except Exception:
                logs.failure("cannot refresh table", table=runtime.id)

    def notified(self, table_id: str, version: int) -> None:
        """A notice: ``table_id`` reached ``version`` in some process."""
        runtime = self.tables.get(table_id)
        if runtime is None or runtime.version >= version or self.closing:
            return  # not ours, or our own write
        runtime.noticed = max(runtime.noticed, version)
        if runtime.refreshing is None or runtime.refreshing.done():
            runtime.refreshing = asyncio.create_task(self._refresh(runtime))

    def notified_seats(self, table_id: str) -> None:
        """A notice: a seat of ``table_id`` was claimed, or the table started,
        through some process (``invites.py``)."""
        runtime = self.tables.get(table_id)
        if runtime is not None and self.invites is not None and not self.closing:
            task = asyncio.create_task(self.invites.reload(runtime))
            self._relays.add(task)
            task.add_done_callback(self._relays.discard)

    def notified_chat(self, table_id: str, chat_id: int) -> None:
        """A notice: a chat line was said at ``table_id`` through some process."""
        if chat_id in self.own_chat:
            self.own_chat.discard(chat_id)  # already sent to our sockets
            return
        runtime = self.tables.get(table_id)
        if runtime is not None and runtime.connections and not self.closing:
            task = asyncio.create_task(self._relay_chat(runtime, chat_id))
            self._relays.add(task)
            task.add_done_callback(self._relays.discard)

    async def _relay_chat(self, runtime: TableRuntime, chat_id: int) -> None:
        try:
            async with self.engine.connect() as conn:
                found = await db.chat_line(conn, chat_id)
            if found is not None and found[0] == runtime.id:
                runtime.broadcast_chat(chat_id, found[1], found[2])
        except Exception:
            logs.failure("cannot relay chat", table=runtime.id)

    async def _refresh(self, runtime: TableRuntime) -> None:
        try:
            await runtime.refresh()
        except Exception:
            logs.failure("cannot refresh table", table=runtime.id)

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[TableRuntime | None]:
        """The table (``None``: no such table), kept in memory while the
        block runs. Whoever awaits between finding a table and acting on
        it holds it so: a move elsewhere may otherwise let the runtime go
        (:meth:`release`) and the next request load a second one, and two
        runtimes of one table each play on their own."""
        while True:
            runtime = await self.get(table_id) if len(table_id) <= 32 else None
            if runtime is None:
                yield None
                return
            runtime.holders += 1
            if self.tables.get(table_id) is runtime:
                break
            runtime.holders -= 1  # let go between its load and now: load it again
        try:
            yield runtime
        finally:
            runtime.holders -= 1
            self.release(runtime)

    async def get(self, table_id: str) -> TableRuntime | None:
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        async with self._loading:
            runtime = self.tables.get(table_id)
            if runtime is not None:
                return runtime
            async with self.engine.connect() as conn:
                found = await db.load_table(conn, table_id)
                # The only writer keeps the chat in memory from now on.
                chat = (
                    None
                    if found is None or self.shared
                    else await db.recent_chat(conn, table_id, CHAT_HISTORY)
                )
                # (A finished table holds no choice: its pages read nothing more.)
                playing = found is not None and found[0].status != "finished"
                held = await db.load_held(conn, table_id) if playing else []
            if found is None:
                return None
            row, seat_rows, moves = found
            if row.status == "abandoned":
                await self.store.write(lambda conn: db.mark_playing(conn, table_id))
                row = replace(row, status="playing")
            state = replay_record(
                {"game": row.game, "options": row.options, "actions": [m.action for m in moves]}
            )
            runtime = TableRuntime(self, row, seat_rows, moves, state)
            for seat in runtime.restore_held(held):
                await self.store.write(partial(db.drop_held, table_id=table_id, seat=seat))
            runtime.planned = await self._plan_of(row) if row.deals_from or row.branch_of else None
            if chat is not None:
                runtime.chat_lines = list(chat)[-CHAT_HISTORY:]
            self.tables[table_id] = runtime
        if not self.closing:
            await runtime.resume()
        return runtime

    async def _plan_of(self, row: db.TableRow) -> list[str]:
        """The chance a stored branch plans: its origin's, from the start
        (same deals) or after the version it branched at."""
        origin_id = row.deals_from or row.branch_of or ""
        origin = self.tables.get(origin_id)
        if origin is None:
            async with self.engine.connect() as conn:
                found = await db.load_table(conn, origin_id)
            if found is None:
                return []
            origin_row, _, origin_moves = found
            record = {
                "game": origin_row.game,
                "options": origin_row.options,
                "actions": [m.action for m in origin_moves],
            }
        else:
            record = origin.record()
        start = 0 if row.deals_from is not None else row.branch_version or 0
        return chance_actions(record, start=start)

    async def resume_all(self) -> None:
        """On start: load each unfinished table, one after the other beside
        the requests, so that its bots play on; a table that waits for a
        person who is away leaves memory again at once (it is loaded when
        someone comes)."""
        async with self.engine.connect() as conn:
            ids = await db.table_ids(conn, "playing")
        resumed = 0
        for table_id in ids:
            if self.closing:
                return
            try:
                runtime = await self.get(table_id)
            except Exception:
                logs.failure("cannot resume table", table=table_id)
                continue
            if runtime is not None:
                resumed += 1
                self.release(runtime)
            await asyncio.sleep(0)
        logs.event("resumed", tables=resumed, held=len(self.tables))

    async def deals_in_play(self, table: TableRuntime) -> bool:
        """Whether a game on ``table``'s deals is being played at another
        table: one made on its deals (``deals_from``) or played on from it
        (``branch_of``, whose later chance follows the record), or on those
        of the table it was itself made from, and so on. Until that game
        ends, ``table``'s record, replay, spectator view, comparisons and
        series stay closed: its players would otherwise find the finished
        table whose first deal is their own hand and read every later deal
        before it is dealt (docs/server.md, Branches). A table still
        waiting for its players has dealt nothing yet and does not count."""
        if not type(table.state.game).replayable_chance:
            return False  # Codename: its shuffles follow the players' codes
        found = False
        async with self.engine.connect() as conn:
            root = table.id
            for _ in range(MAX_DEAL_CHAIN):  # up to the first table of these deals
                up = (
                    await conn.execute(
                        select(db.tables.c.deals_from, db.tables.c.branch_of).where(db.tables.c.id == root)
                    )
                ).first()
                parent = (up.deals_from or up.branch_of) if up is not None else None
                if parent is None:
                    break
                root = parent
            seen = {root}
            frontier = [root]
            while frontier and len(seen) <= MAX_DEAL_FAMILY and not found:
                rows = (
                    await conn.execute(
                        select(db.tables.c.id, db.tables.c.status, db.tables.c.waiting).where(
                            or_(db.tables.c.deals_from.in_(frontier), db.tables.c.branch_of.in_(frontier))
                        )
                    )
                ).all()
                frontier = []
                for row in rows:
                    if row.id in seen:
                        continue
                    seen.add(row.id)
                    frontier.append(row.id)
                    loaded = self.tables.get(row.id)
                    finished = loaded.finished if loaded is not None else row.status == "finished"
                    waiting = loaded.waiting if loaded is not None else bool(row.waiting)
                    if not finished and not waiting and row.id != table.id:
                        found = True
        return found

    async def lobby(self, limit: int = 200) -> list[dict[str, Any]]:
        """The unfinished tables, newest first, read from the database (a
        table in memory gives its live presence); none is loaded for it."""
        async with self.engine.connect() as conn:
            rows = await db.lobby_rows(conn, limit)
        out = []
        for row, seat_rows, version in rows:
            runtime = self.tables.get(row.id)
            if runtime is not None:
                if not runtime.finished and runtime.listed:
                    out.append(runtime.summary())
                continue
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": row.options,
                    "status": "playing",
                    "version": version,
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "name": s.name,
                            "connected": s.kind == "bot",
                            **({"bot": s.bot} if s.kind == "bot" else {}),
                            **(
                                {"open": True}
                                if s.kind == "human" and not s.claimed and row.rematch_of is None
                                else {}
                            ),
                        }
                        for s in seat_rows
                    ],
                    **({"clock": row.clock} if row.clock else {}),
                    **({"waiting": True} if row.waiting else {}),
                    **({"turn_based": True} if row.turn_based else {}),
                }
            )
        return out

    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seat_specs: list[SeatSpec],
        clock: int | None = None,
        first_seat: int | None = None,
        token_hashes: list[str | None] | None = None,
        rematch_of: str | None = None,
        listed: bool = True,
        waiting: bool = False,
        creator_seat: int | None = None,
        claimed: list[bool] | None = None,
        turn_based: bool = False,
        spectator_chat: str = "own",
        client: str | None = None,
        origin: Origin | None = None,
    ) -> tuple[TableRuntime, list[str | None]]:
        """A new table, its chance drawn up to the first decision and
        committed. Returns it and each seat's token (``None`` for bots and
        for seats whose hash is given). ``creator_seat`` is the human seat
        its creator takes (claimed at once); without it the creator is the
        first human seat's token, and no seat is claimed before its person
        comes (``claimed`` gives the flags of a rematch's seats). A table
        asked for by ``client`` (an address) counts against its rate, and
        waits (503) while too many tables play with nobody watching; every
        option is held to the server's bounds (:class:`TableError` or
        :class:`LimitError`)."""
        if client is not None:
            self.create_limiter.hit(client)
            if self.unattended() >= self.settings.max_unattended:
                raise LimitError(503, "too many tables are being played with nobody there: try later", 30)
        try:
            checked_options(game_id, options)
            if "players" not in options and any(
                o.name == "players" for o in game_class(game_id).option_schema
            ):
                # The seat list says how many play.
                options = {**options, "players": len(seat_specs)}
            game = load_game(game_id, **options)
        except OraclesError as error:
            raise TableError(str(error)) from None
        if game.num_players != len(seat_specs):
            raise TableError(
                f"{game.id} with these options has {game.num_players} seats, not {len(seat_specs)}"
            )
        tokens: list[str | None] = []
        seat_rows = []
        for index, spec in enumerate(seat_specs):
            token = None
            digest = token_hashes[index] if token_hashes is not None else None
            if spec.kind == "human" and digest is None:
                token = new_token()
                digest = hash_token(token)
            tokens.append(token)
            held = spec.kind != "human" or index == creator_seat or (claimed is not None and claimed[index])
            seat_rows.append(db.SeatRow(index, spec.kind, spec.bot, spec.name, digest, held))
        humans = [r for r in seat_rows if r.kind == "human"]
        creator = seat_rows[creator_seat] if creator_seat is not None else (humans[0] if humans else None)
        row = db.TableRow(
            id=secrets.token_urlsafe(9),
            game=game.id,
            options=dict(game.options),
            clock=clock,
            first_seat=first_seat,
            status="playing",
            rematch_of=rematch_of,
            listed=listed,
            creator_hash=creator.token_hash if creator is not None else None,
            waiting=waiting and any(not r.claimed for r in seat_rows),
            turn_based=turn_based,
            spectator_chat=spectator_chat,
            deals_from=origin.branch.deals_from if origin else None,
            branch_of=origin.branch.branch_of if origin else None,
            branch_version=origin.branch.branch_version if origin else None,
        )
        texts: list[str] = []
        moves: list[db.MoveRow] = []
        if origin is not None:
            # A branch starts at its origin's position: its actions copied.
            state = game.new_initial_state()
            for action in origin.state.history():
                actor = state.current_player()
                texts.append(state.action_to_string(action))
                state.apply_action(action)
                moves.append(db.MoveRow(len(texts), actor if actor >= 0 else None, texts[-1], None))
        else:
            state = game.new_initial_state()
        runtime = TableRuntime(self, row, seat_rows, [], state)
        runtime.planned = origin.planned if origin is not None else None
        if not self.shared:
            runtime.chat_lines = []
        moves += runtime.play_chance(state, texts)
        runtime.texts = texts
        row = replace(row, status="finished" if state.is_terminal() else "playing")
        await self.store.write(lambda conn: db.insert_table(conn, row, seat_rows, moves))
        self.tables[row.id] = runtime
        logs.event("table created", table=row.id, game=game.id, seats=[s.kind for s in seat_specs])
        async with runtime.lock:
            runtime.schedule()
            self.release(runtime)
        return runtime, tokens

    async def rematch(self, table: TableRuntime, asker: int | None = None) -> TableRuntime:
        """The next game at ``table``: same seats (same tokens), same
        options, the next seat deals or starts. It waits for its people:
        ``asker`` holds a seat at once, each other person when they ask too
        or come (``invites.py``); the asker may start it with bots."""
        async with table.lock:
            async with self.engine.connect() as conn:
                existing = await db.rematch_of(conn, table.id)
            if existing is not None:
                found = await self.get(existing)
                assert found is not None
                return found
            starter = table.state.starter()
            first = None if starter is None else (starter + 1) % len(table.seats)
            specs = [SeatSpec(s.kind, s.bot, s.name) for s in table.seats]
            runtime, _ = await self.create(
                table.game_id,
                table.options,
                specs,
                clock=table.clock,
                first_seat=first,
                token_hashes=[s.token_hash for s in table.seats],
                rematch_of=table.id,
                listed=table.listed,
                waiting=True,
                creator_seat=asker,
                turn_based=table.turn_based,
                spectator_chat=table.spectator_chat,
                claimed=[s.kind != "human" for s in table.seats],
            )
            # Who asks is told to the table by ``invites.Invites.rematch``.
            return runtime

    async def close(self) -> None:
        """Graceful stop: no new writes, wait for those in flight."""
        self.closing = True
        if self.listener is not None:
            await self.listener.stop()
        for runtime in list(self.tables.values()):
            await runtime.stop()
