"""Tables at run time: one authoritative state per table, one writer at a time.

A :class:`TableRuntime` holds the table's state, rebuilt from its move log,
and the sockets watching it. The :class:`Hub` keeps the tables being played
and the finished ones someone watches; it lets the others go
(:meth:`Hub.release`) and loads a table again when asked. Every change goes
through :meth:`TableRuntime.submit` under the table's lock: the move is checked, the chance actions that follow
are drawn (from the OS's random source), all of them are committed to the
move log, and only then is the cached state replaced and a ``state`` message
queued to every socket, each built from that socket's own view.

Bots, stand-ins for absent people and the per-move clock are tasks that end
in the same :meth:`TableRuntime.submit`, with the version they saw: if anyone
moved meanwhile, their move is stale and dropped.

On PostgreSQL several server processes may serve the same tables. The move
log's unique ``(table, version)`` key decides who wins each version: before
a move the runtime reads the rows other processes added (:meth:`TableRuntime.catch_up`),
and a move whose insert loses is answered ``stale``. Each commit sends
``NOTIFY oracles_moves, '<table>:<version>'``; every process listens
(:class:`Listener`), reads the new rows back and sends ``state`` to its own
sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import logging
import random
import secrets
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from oracles.core.errors import IllegalActionError, NotationError, OraclesError
from oracles.core.game import State
from oracles.core.records import PlannedChance, chance_actions, replay_record
from oracles.core.registry import game_class, load_game
from oracles.server import db, logs
from oracles.server.bots import ATTENDED, UNATTENDED, BotRunner
from oracles.server.config import Settings
from oracles.server.limits import LimitError, RateLimiter, TableError, checked_bot, checked_options
from oracles.server.protocol import (
    BAD_MESSAGE,
    ILLEGAL,
    NOT_YOUR_TURN,
    STALE,
    UNAVAILABLE,
    AckMessage,
    ChatLine,
    ErrorMessage,
    ProtocolError,
    SeatsMessage,
    ServerMessage,
    encode,
)
from oracles.server.writer import MoveWriter

if TYPE_CHECKING:
    from oracles.server.branching import Origin
    from oracles.server.invites import Invites

#: Chat lines sent to a socket on connecting.
CHAT_HISTORY = 50
#: A move lost to another writer: SQLAlchemy's error (PostgreSQL, or SQLite
#: through the engine) or sqlite3's (the group-commit writer).
DUPLICATE_ERRORS = (IntegrityError, sqlite3.IntegrityError)

#: A socket whose outgoing queue grows past this is too slow and is closed.
MAX_QUEUE = 500
#: Seconds over which changes of names and presence make one ``seats`` message.
SEATS_DELAY = 0.05

#: ``(table, seat, language, state message) -> board HTML or None``: see
#: :attr:`Hub.board_renderer`.
BoardRenderer = Callable[["TableRuntime", "int | None", str, "dict[str, Any]"], "str | None"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A seat's secret: 256 bits from the OS."""
    return secrets.token_urlsafe(32)


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


@dataclass
class Seat:
    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    #: Open sockets of this seat.
    present: int = 0
    #: A stand-in bot plays this (human) seat while its owner is away.
    standin: bool = False
    #: The person has come to the table (a socket of this seat, or a move
    #: of theirs in the log): a stand-in's grace counts only from then, so
    #: a table whose people never come costs no bot work.
    arrived: bool = False
    grace_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: A person holds this seat (see ``invites.py``); an unclaimed human
    #: seat can be taken by its invite link.
    claimed: bool = True


class TableRuntime:
    """A table in memory (see the module docstring)."""

    def __init__(
        self, hub: Hub, row: db.TableRow, seat_rows: list[db.SeatRow], moves: list[db.MoveRow], state: State
    ) -> None:
        self.hub = hub
        self.id = row.id
        self.game_id = row.game
        self.options = dict(state.game.options)
        self.clock = row.clock
        self.first_seat = row.first_seat
        self.stored_status = row.status
        self.state = state
        self.texts = [m.action for m in moves]
        #: (seat, client's move id) -> the version it made: ids are each seat's own.
        self.move_ids = {(m.seat, m.move_id): m.version for m in moves if m.move_id is not None}
        movers = {m.seat for m in moves if m.seat is not None}
        self.seats = [
            Seat(
                s.seat,
                s.kind,
                self._bounded(s.bot),
                s.name,
                s.token_hash,
                arrived=s.seat in movers,
                claimed=s.claimed,
            )
            for s in seat_rows
        ]
        #: When this table last changed or was visited (monotonic seconds).
        self.touched = time.monotonic()
        #: The ``seats`` info last broadcast, and whether a broadcast is due.
        self._seats_sent: list[dict[str, Any]] | None = None
        self._seats_due = False
        self.chat_limiter = RateLimiter(
            "chat lines at this table", hub.settings.chat_rate, hub.settings.chat_burst, max_keys=1
        )
        #: Shown in the lobby (else reached only by its links).
        self.listed = row.listed
        #: The SHA-256 of the creator's token: who may start a waiting table.
        self.creator_hash = row.creator_hash
        #: Waiting for its people: nobody moves, no bot, no clock, no stand-in.
        self.waiting = row.waiting
        #: The table this one is the rematch of: its seats are kept for their people.
        self.rematch_of = row.rematch_of
        #: Played over hours or days: no stand-in, only the per-move clock.
        self.turn_based = row.turn_based
        #: ``own``: spectators chat among themselves; ``none``: not at all.
        self.spectator_chat = row.spectator_chat
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        #: Sockets let in and not yet gone (counted before their handshake
        #: ends, so that a burst of them cannot pass the cap together).
        self.admitted = 0
        #: Requests and sockets holding this runtime across awaits
        #: (:meth:`Hub.hold`): it is not let go from memory meanwhile.
        self.holders = 0
        self.bot_task: asyncio.Task[None] | None = None
        self.refreshing: asyncio.Task[None] | None = None
        self.rng = random.SystemRandom()
        #: The last chat lines, kept in memory when this process is the
        #: table's only writer (SQLite); ``None``: read them from the database.
        self.chat_lines: deque[tuple[int, int | None, str]] | None = None
        #: Choices made ahead of a seat's turn (``State.early_choices``):
        #: seat -> (notation, move id), played when the turn comes. In
        #: memory only, shown to nobody but the seat (after a restart the
        #: person chooses again).
        self.held: dict[int, tuple[str, str | None]] = {}
        #: seat -> (version, notations): the choices offered ahead, and the
        #: first version they were offered at, so that one sent just as the
        #: seat's turn came is not refused stale.
        self.ahead_offered: dict[int, tuple[int, frozenset[str]]] = {}
        #: (version, time.time() when that version began): the move clock's
        #: start for the seat to act.
        self.clock_start: tuple[int, float] = (-1, 0.0)
        #: A branch of a finished table (``oracles.server.branching``): its
        #: origin, and the chance it plans from version ``plan_start`` on
        #: (kept here, never sent: each is applied when the game reaches it).
        self.deals_from = row.deals_from
        self.branch_of = row.branch_of
        self.branch_version = row.branch_version
        self.planned: list[str] | None = None
        self.plan_start = 0 if row.deals_from is not None else (row.branch_version or 0)

    def _bounded(self, spec: str | None) -> str | None:
        """A stored bot spec as this server runs it: a table stored before
        the limits (or under larger ones) is not allowed to pin the bots'
        worker again; its bot then plays as the stand-in does."""
        if spec is None:
            return None
        try:
            return checked_bot(spec, self.hub.settings.max_bot_seconds)
        except LimitError as error:
            logs.event("bot bounded", logging.WARNING, table=self.id, spec=spec[:60], why=error.message)
            return self.hub.settings.standin

    # ---------------------------------------------------------------- facts
    @property
    def attended(self) -> bool:
        """Someone has a socket open on this table."""
        return bool(self.connections)

    @property
    def idle(self) -> bool:
        """Nothing will happen here until a person comes back: the game
        waits for a person who is away (no stand-in, no clock, no bot or
        grace timer running) and nobody watches."""
        if self.connections or self.finished or self.bot_task is not None:
            return False
        if any(seat.grace_task is not None for seat in self.seats):
            return False
        player = self.state.current_player()
        if player < 0:
            return False
        seat = self.seats[player]
        return seat.kind == "human" and not seat.standin and not self.clock

    @property
    def version(self) -> int:
        return len(self.texts)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found = seat.seat
        return found

    def seats_info(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "connected": s.kind == "bot" or s.present > 0,
                **({"bot": s.bot} if s.kind == "bot" else {}),
                **({"standin": True} if s.standin else {}),
                **({"open": True} if s.kind == "human" and not s.claimed and self.rematch_of is None else {}),
            }
            for s in self.seats
        ]

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game_id,
            "options": self.options,
            "status": "finished" if self.finished else "playing",
            "version": self.version,
            "seats": self.seats_info(),
            **({"clock": self.clock} if self.clock else {}),
            **({"waiting": True} if self.waiting else {}),
            **({"listed": False} if not self.listed else {}),
            **({"turn_based": True} if self.turn_based else {}),
            # Beyond the SPEC: whose turn it is (public), for "your tables".
            "to_move": self.state.current_player()
            if not self.finished and self.state.current_player() >= 0
            else None,
            "spectator_chat": self.spectator_chat,
            # The origin of a same-deals table is named only once it is
            # over: the origin's public record holds every deal.
            **({"deals_from": self.deals_from} if self.deals_from and self.finished else {}),
            **({"from": {"table": self.branch_of, "version": self.branch_version}} if self.branch_of else {}),
        }

    def record(self) -> dict[str, Any]:
        # Beyond the SPEC's keys: who sat where (a replay ignores it).
        return {**self.state.record(), "players": [s.name for s in self.seats]}

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator), built
        only from that seat's view or the public view."""
        state = self.state
        view = state.view(seat) if seat is not None else state.view(None)
        legal: list[str] = []
        if seat is not None and state.current_player() == seat and seat not in self.held and not self.waiting:
            # (A held choice is being played for this seat: nothing to choose.)
            legal = [state.action_to_string(a) for a in state.legal_actions()]
        message: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "seat": seat,
            "view": view,
            "legal": legal,
            # Beyond the contract: lets a client stop without reading the view.
            "status": "finished" if state.is_terminal() else "playing",
            **({"waiting": True} if self.waiting else {}),
        }
        # Beyond the contract (docs/server.md): a choice this seat may make
        # before its turn, and the one it made, held until the turn comes.
        if seat is not None and not legal and not state.is_terminal():
            if seat in self.held:
                message["held"] = self.held[seat][0]
            else:
                ahead = [state.action_to_string(a) for a in state.early_choices(seat)]
                if ahead:
                    message["ahead"] = ahead
                    offered = frozenset(ahead)
                    if self.ahead_offered.get(seat, (0, None))[1] != offered:
                        self.ahead_offered[seat] = (self.version, offered)
        deadline = self.deadline()
        if deadline is not None:
            message["deadline"] = deadline
        return message

    def deadline(self) -> dict[str, Any] | None:
        """The move clock of the person to act (beyond the contract): ``seat``,
        ``seconds`` (the table's clock) and ``left`` (seconds, now)."""
        if not self.clock or self.finished:
            return None
        player = self.state.current_player()
        if (
            player < 0
            or self.seats[player].kind != "human"
            or self.seats[player].standin
            or player in self.held
        ):
            return None
        if self.clock_start[0] != self.version:
            self.clock_start = (self.version, time.time())
        left = max(0.0, self.clock_start[1] + self.clock - time.time())
        return {"seat": player, "seconds": self.clock, "left": round(left, 1)}

    # ------------------------------------------------------------ fan-out
    def _state_text(self, seat: int | None, board_lang: str | None, plain: dict[int | None, Any]) -> str:
        """The encoded ``state`` for ``seat``, with its board drawn in
        ``board_lang`` when the socket asked for one. ``plain`` keeps each
        seat's message across the sockets of one fan-out (it has side
        effects: the move clock's start, the choices offered ahead)."""
        if seat not in plain:
            plain[seat] = self.state_message(seat)
        message = plain[seat]
        drawn = self.hub.board_renderer
        if board_lang is not None and drawn is not None:
            board = drawn(self, seat, board_lang, message)
            if board is not None:
                message = {**message, "board": board}
        return encode(message)

    def send_state(self, conn: Connection) -> None:
        try:
            conn.send(self._state_text(conn.seat, conn.board_lang, {}))
        except Exception as error:
            # Logged without a traceback: formatting one here races with the
            # tests' own (CPython 3.11's ast recursion counter is not per thread).
            logs.event("view failed", logging.ERROR, table=self.id, seat=conn.seat, error=repr(error))
            conn.send(ErrorMessage(code=UNAVAILABLE, message="this view cannot be shown"))

    def broadcast_state(self) -> None:
        """Send ``state`` to every socket: each seat's message (and the
        spectators') is built once, and encoded (with its board drawn) once
        per language asked for."""
        plain: dict[int | None, Any] = {}
        cache: dict[tuple[int | None, str | None], str | None] = {}
        for conn in list(self.connections):
            key = (conn.seat, conn.board_lang)
            if key not in cache:
                try:
                    cache[key] = self._state_text(conn.seat, conn.board_lang, plain)
                except Exception as error:
                    logs.event("view failed", logging.ERROR, table=self.id, seat=conn.seat, error=repr(error))
                    cache[key] = None
            text = cache[key]
            if text is not None:
                conn.send(text)

    def announce_seats(self) -> None:
        """Send ``seats`` to every socket if names or presence changed: at
        most one message a moment however many sockets come and go (a
        crowd of spectators arriving costs one message each, not one to
        every socket per arrival)."""
        if self._seats_due:
            return
        self._seats_due = True
        asyncio.get_running_loop().call_later(SEATS_DELAY, self._send_seats)

    def _send_seats(self) -> None:
        self._seats_due = False
        info = self.seats_info()
        if info != self._seats_sent:
            self._seats_sent = info
            self.broadcast(SeatsMessage(seats=info))

    def broadcast(self, message: ServerMessage | dict[str, Any]) -> None:
        if not self.connections:
            return
        text = encode(message)
        for conn in list(self.connections):
            conn.send(text)

    # -------------------------------------------------------------- chance
    def draw_chance(self, state: State, texts: list[str]) -> int:
        """A chance action from the OS's random source; a branch plays its
        planned chance where it is still legal; the chance that picks who
        starts is forced to ``first_seat`` at a rematch (the game says which
        chance that is: :meth:`State.starter_chance`)."""
        if self.planned is not None:
            # Which planned action is due: one per chance node since the plan began.
            done = {"game": self.game_id, "options": self.options, "actions": texts}
            plan = PlannedChance(self.planned)
            plan.used = len(chance_actions(done, start=self.plan_start))
            return plan.draw(state, self.rng)
        if self.first_seat is not None:
            forced = state.starter_chance(self.first_seat)
            if forced is not None:
                return forced
        return state.sample_chance(self.rng)

    def play_chance(self, state: State, texts: list[str]) -> list[db.MoveRow]:
        """Apply the chance actions due at ``state`` (in place)."""
        rows = []
        while state.is_chance_node():
            action = self.draw_chance(state, texts)
            text = state.action_to_string(action)
            state.apply_action(action)
            texts.append(text)
            rows.append(db.MoveRow(len(texts), None, text, None))
        return rows

    # --------------------------------------------------------------- moves
    async def submit(
        self,
        seat: int,
        text: str,
        version: int,
        move_id: str | None,
        reply: Callable[[AckMessage], None] | None = None,
    ) -> AckMessage:
        """Apply ``seat``'s move made at ``version``; the answer is an
        ``ack`` (also for a move id already applied), or a
        :class:`ProtocolError`. ``reply`` gets the ``ack`` of an applied
        move before anyone is sent the new ``state`` (the mover's socket
        hears ``ack`` then ``state``). Shielded: once begun, a commit
        finishes even if the caller goes away, and the lock is never left
        mid-write."""
        task = asyncio.ensure_future(self._submit(seat, text, version, move_id, reply))
        # A caller cancelled meanwhile (a bot whose version passed) never
        # reads the answer: retrieve it here, so that nothing is logged.
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        return await asyncio.shield(task)

    async def _submit(
        self,
        seat: int,
        text: str,
        version: int,
        move_id: str | None,
        reply: Callable[[AckMessage], None] | None,
    ) -> AckMessage:
        async with self.lock:
            if self.hub.shared:
                await self.catch_up()
            if move_id is not None and (seat, move_id) in self.move_ids:
                return AckMessage(id=move_id, version=self.move_ids[(seat, move_id)], duplicate=True)
            if self.hub.closing:
                raise ProtocolError("unavailable", "the server is shutting down")
            if self.finished:
                raise ProtocolError(ILLEGAL, "the game is over")
            if self.waiting:
                raise ProtocolError(NOT_YOUR_TURN, "the table is waiting for its players")
            if self.state.current_player() != seat:
                held = self._hold(seat, text, move_id)
                if held is not None:
                    return held
            if version != self.version and not self._offered_ahead(seat, text, version):
                raise ProtocolError(STALE, f"the table is at version {self.version}, not {version}")
            if self.state.current_player() != seat:
                raise ProtocolError(NOT_YOUR_TURN, f"it is not seat {seat}'s turn")
            trial = self.state.clone()
            try:
                action = trial.string_to_action(text)
                notation = trial.action_to_string(action)
                trial.apply_action(action)
            except NotationError as error:
                raise ProtocolError(ILLEGAL, str(error)) from None
            except IllegalActionError as error:
                raise ProtocolError(ILLEGAL, f"{text!r}: {error.reason}") from None
            texts = [*self.texts, notation]
            rows = [db.MoveRow(len(texts), seat, notation, move_id)]
            rows += self.play_chance(trial, texts)
            try:
                await self.commit(rows, finished=trial.is_terminal())
            except DUPLICATE_ERRORS:
                # Another process stored this version first: take its moves.
                await self.catch_up()
                if move_id is not None and (seat, move_id) in self.move_ids:
                    return AckMessage(id=move_id, version=self.move_ids[(seat, move_id)], duplicate=True)
                raise ProtocolError(STALE, f"the table is at version {self.version}, not {version}") from None
            self.state = trial
            self.texts = texts
            self.touched = time.monotonic()
            if move_id is not None:
                self.move_ids[(seat, move_id)] = rows[0].version
            if logs.logger.isEnabledFor(logging.DEBUG):
                logs.event(
                    "move",
                    logging.DEBUG,
                    table=self.id,
                    seat=seat,
                    version=rows[0].version,
                    chance=len(rows) - 1,
                )
            if trial.is_terminal():
                logs.event("finished", table=self.id, version=self.version, scores=trial.scores())
            ack = AckMessage(id=move_id, version=rows[0].version)
            if reply is not None:
                reply(ack)
            self.broadcast_state()
            self.schedule()
            self.hub.release(self)
            return ack

    def _hold(self, seat: int, text: str, move_id: str | None) -> AckMessage | None:
        """Under the lock: keep ``seat``'s choice made ahead of its turn
        (any version: the choice does not depend on the others'), or
        ``None`` when ``text`` is no such choice. The answer is an ``ack``
        with ``held``; only this seat's sockets get a fresh ``state``."""
        try:
            action = self.state.string_to_action(text)
        except NotationError:
            return None
        if seat in self.held or action not in self.state.early_choices(seat):
            return None
        notation = self.state.action_to_string(action)
        self.held[seat] = (notation, move_id)
        logs.event("held", logging.DEBUG, table=self.id, seat=seat)
        for conn in list(self.connections):
            if conn.seat == seat:
                self.send_state(conn)
        return AckMessage(id=move_id, version=self.version, held=True)

    def _offered_ahead(self, seat: int, text: str, version: int) -> bool:
        """Whether ``text``, sent at an older ``version``, was a choice
        offered ahead to ``seat`` then, and is its legal move now (its turn
        came while it chose): such a choice does not go stale."""
        offered = self.ahead_offered.get(seat)
        if (
            offered is None
            or not offered[0] <= version <= self.version
            or self.state.current_player() != seat
        ):
            return False
        try:
            action = self.state.string_to_action(text)
        except NotationError:
            return False
        return self.state.action_to_string(action) in offered[1] and action in self.state.legal_actions()

    async def _play_held(self, version: int, seat: int) -> None:
        notation, move_id = self.held[seat]
        try:
            await self.submit(seat, notation, version, move_id)
        except ProtocolError:
            pass  # the table moved on first: nothing was held for this turn
        finally:
            if self.version != version or self.state.current_player() != seat:
                self.held.pop(seat, None)

    async def commit(self, rows: list[db.MoveRow], finished: bool) -> None:
        """Store ``rows`` (and the end of the game): through the SQLite
        group-commit writer, or in a transaction of their own."""
        if self.hub.writer is not None:
            await self.hub.writer.write(self.id, rows, finished)
            return
        async with self.hub.engine.begin() as conn:
            await db.insert_moves(conn, self.id, rows)
            if finished:
                await db.mark_finished(conn, self.id)
            await db.notify_moves(conn, self.id, rows[-1].version)

    async def catch_up(self) -> bool:
        """Under the lock: apply the moves other processes stored since
        our version, then send ``state`` to our sockets and let whatever
        acts next go on. Whether anything was new."""
        async with self.hub.engine.connect() as conn:
            rows = await db.moves_after(conn, self.id, self.version)
        if not rows:
            return False
        state = self.state.clone()
        texts = list(self.texts)
        for row in rows:
            if row.version != len(texts) + 1:
                break  # not yet visible whole; the next notice brings the rest
            state.apply_string(row.action)
            texts.append(row.action)
            if row.move_id is not None:
                self.move_ids[(row.seat, row.move_id)] = row.version
        if len(texts) == len(self.texts):
            return False
        self.state, self.texts = state, texts
        if state.is_terminal():
            self.stored_status = "finished"
        logs.event("caught up", table=self.id, version=self.version)
        self.broadcast_state()
        self.schedule()
        self.hub.release(self)
        return True

    async def refresh(self) -> None:
        """:meth:`catch_up` under the lock (a notice, or a reconnect)."""
        async with self.lock:
            await self.catch_up()

    async def resume(self) -> None:
        """After a restart: draw any chance left undrawn (the process died
        between a move and its deal), then let the bots go on."""
        async with self.lock:
            if self.hub.shared:
                await self.catch_up()
            if self.state.is_chance_node():
                texts = list(self.texts)
                trial = self.state.clone()
                rows = self.play_chance(trial, texts)
                try:
                    await self.commit(rows, finished=trial.is_terminal())
                    self.state, self.texts = trial, texts
                except DUPLICATE_ERRORS:
                    await self.catch_up()  # another process dealt first
            if self.state.is_terminal() and self.stored_status != "finished":
                async with self.hub.engine.begin() as conn:
                    await db.mark_finished(conn, self.id)
                self.stored_status = "finished"
            if not self.hub.shared:
                # Shared database: the person may be on another process;
                # a stand-in starts only when a socket of ours goes away.
                for seat in self.seats:
                    if seat.kind == "human" and seat.present == 0:
                        self.start_grace(seat)
            self.schedule()

    # ------------------------------------------------- bots and stand-ins
    def schedule(self) -> None:
        """Start whatever must act next on its own: a bot, a stand-in, or
        the clock of a person to move. Called under the lock after each
        change; a task started for an older version is cancelled."""
        current = asyncio.current_task()
        if self.bot_task is not None and self.bot_task is not current:
            self.bot_task.cancel()
        self.bot_task = None
        if self.finished or self.hub.closing or self.waiting:
            return
        if self.hub.tables.get(self.id) is not self:
            # Let go of (:meth:`Hub.release`): the table's live runtime,
            # if any, is another object, and only that one may play.
            return
        player = self.state.current_player()
        if player < 0:
            return
        if player in self.held:
            # A choice made ahead of this turn: played now, as it was made.
            self.bot_task = asyncio.create_task(self._play_held(self.version, player))
            return
        seat = self.seats[player]
        settings = self.hub.settings
        if seat.kind == "bot" and seat.bot is not None:
            spec, pause = seat.bot, settings.bot_pause
        elif seat.standin:
            spec, pause = settings.standin, settings.bot_pause
        elif self.clock:
            deadline = self.deadline()
            spec, pause = settings.standin, float(deadline["left"] if deadline else self.clock)
        else:
            return
        self.bot_task = asyncio.create_task(self._bot_move(self.version, player, spec, pause))

    async def _bot_move(self, version: int, seat: int, spec: str, pause: float) -> None:
        try:
            if pause > 0:
                await asyncio.sleep(pause)
            # A table someone watches goes first: the bots of a crowd of
            # unwatched tables cannot hold up a person's game.
            priority = ATTENDED if self.connections else UNATTENDED
            text = await self.hub.bots.choose(
                self.game_id, self.options, self.texts[:version], seat, spec, priority
            )
            # A move made for a person (a stand-in, the clock) is marked in
            # the move log, so that the person is told of it on return.
            move_id = f"{db.STANDIN_PREFIX}{version}" if self.seats[seat].kind == "human" else None
            await self.submit(seat, text, version, move_id)
        except ProtocolError:
            pass  # someone moved first: this choice is stale
        except asyncio.CancelledError:
            raise
        except Exception:
            logs.failure("bot failed", table=self.id, seat=seat, version=version)
            # Try again later (a database hiccup must not leave the table stuck).
            await asyncio.sleep(1.0)
            async with self.lock:
                if self.version == version and self.bot_task is asyncio.current_task():
                    self.schedule()

    def start_grace(self, seat: Seat) -> None:
        # A waiting table has no stand-ins: the grace counts from its start.
        # A turn-based table has none at all: only its clock moves for a person.
        if self.turn_based:
            return
        if (
            seat.grace_task is None
            and seat.arrived
            and not seat.standin
            and not self.finished
            and not self.waiting
        ):
            seat.grace_task = asyncio.create_task(self._grace(seat))

    async def _grace(self, seat: Seat) -> None:
        await asyncio.sleep(self.hub.settings.grace)
        async with self.lock:
            seat.grace_task = None
            if seat.present == 0 and not self.finished:
                seat.standin = True
                logs.event("stand-in", table=self.id, seat=seat.seat)
                self.announce_seats()
                self.schedule()

    # ------------------------------------------------------------ sockets
    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            conn.chat_held = []
            self.connections.add(conn)
            self.touched = time.monotonic()
            # Released between loading and this socket? Held again while watched.
            self.hub.tables.setdefault(self.id, self)
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.present += 1
                seat.arrived = True
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
                    seat.grace_task = None
                if seat.standin:
                    seat.standin = False
                    self.schedule()
            self.send_state(conn)
            # The newcomer hears who sits where; the others only if that changed.
            conn.send(SeatsMessage(seats=self.seats_info()))
            self.announce_seats()
        if self.chat_lines is not None:
            lines = list(self.chat_lines)
        else:
            async with self.hub.engine.connect() as db_conn:
                lines = await db.recent_chat(db_conn, self.id, CHAT_HISTORY)
        for _, seat_no, text in lines:
            if (seat_no is None) == (conn.seat is None):
                conn.send(self.chat_message(seat_no, text))
        # A line said while the history was read is sent once: in it, or after.
        newest = lines[-1][0] if lines else 0
        held, conn.chat_held = conn.chat_held or [], None
        for chat_id, message in held:
            if chat_id > newest:
                conn.send(message)
        if conn.seat is not None and self.seats[conn.seat].kind == "human":
            # Tell the person who comes back what was played for them since
            # their own last move.
            async with self.hub.engine.connect() as db_conn:
                played = await db.standin_moves(db_conn, self.id, conn.seat)
            if played:
                conn.send({"type": "standin", "moves": [{"version": v, "action": a} for v, a in played]})

    async def detach(self, conn: Connection) -> None:
        conn.close()
        async with self.lock:
            self.connections.discard(conn)
            self.touched = time.monotonic()
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.present -= 1
                if seat.present == 0:
                    self.start_grace(seat)
            self.announce_seats()
            self.hub.release(self)

    def chat_message(self, seat: int | None, text: str) -> ChatLine:
        name = self.seats[seat].name if seat is not None else "spectator"
        return ChatLine(seat=seat, name=html.escape(name), text=html.escape(text))

    def broadcast_chat(self, chat_id: int, seat: int | None, text: str) -> None:
        """A chat line to its audience: the players' lines to the players,
        the spectators' to the spectators (never across)."""
        message = encode(self.chat_message(seat, text))
        for conn in list(self.connections):
            if (conn.seat is None) == (seat is None):
                if conn.chat_held is not None:
                    conn.chat_held.append((chat_id, message))
                else:
                    conn.send(message)

    async def chat(self, seat: int | None, text: str) -> None:
        """Store and send a chat line; :class:`ProtocolError` past the
        table's chat rate (all its sockets together), or from a spectator
        of a table whose spectators do not chat."""
        if seat is None and self.spectator_chat == "none":
            raise ProtocolError(BAD_MESSAGE, "spectators have no chat at this table")
        try:
            self.chat_limiter.hit(self.id)
        except LimitError as error:
            raise ProtocolError(BAD_MESSAGE, error.message) from None
        async with self.hub.engine.begin() as conn:
            chat_id = await db.insert_chat(conn, self.id, seat, text)
            if self.hub.shared:
                self.hub.own_chat.add(chat_id)  # before the notice can arrive
                await db.notify_chat(conn, self.id, chat_id)
        if self.chat_lines is not None:
            self.chat_lines.append((chat_id, seat, text))
        self.broadcast_chat(chat_id, seat, text)
        return None

    async def rename(self, seat: int, name: str) -> None:
        async with self.lock:
            async with self.hub.engine.begin() as conn:
                await db.rename_seat(conn, self.id, seat, name)
            self.seats[seat].name = name
            self.announce_seats()

    async def stop(self) -> None:
        """Wait for a write in progress, then stop this table's tasks."""
        async with self.lock:
            if self.bot_task is not None:
                self.bot_task.cancel()
            for seat in self.seats:
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
            for conn in list(self.connections):
                conn.close()


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    bot: str | None
    name: str


class Hub:
    """All tables of this server, loaded from the database on demand."""

    def __init__(
        self, settings: Settings, engine: AsyncEngine, bots: BotRunner, writer: MoveWriter | None = None
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.bots = bots
        #: SQLite's group-commit writer of moves (``None``: the engine writes them).
        self.writer = writer
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
                async with self.engine.begin() as conn:
                    count = await db.mark_abandoned(conn, cut, keep)
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
            if found is None:
                return None
            row, seat_rows, moves = found
            if row.status == "abandoned":
                async with self.engine.begin() as conn:
                    await db.mark_playing(conn, table_id)
                row = replace(row, status="playing")
            state = replay_record(
                {"game": row.game, "options": row.options, "actions": [m.action for m in moves]}
            )
            runtime = TableRuntime(self, row, seat_rows, moves, state)
            runtime.planned = await self._plan_of(row) if row.deals_from or row.branch_of else None
            if chat is not None:
                runtime.chat_lines = deque(chat, maxlen=CHAT_HISTORY)
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
            runtime.chat_lines = deque(maxlen=CHAT_HISTORY)
        moves += runtime.play_chance(state, texts)
        runtime.texts = texts
        row = replace(row, status="finished" if state.is_terminal() else "playing")
        async with self.engine.begin() as conn:
            await db.insert_table(conn, row, seat_rows, moves)
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
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 2)
            await asyncio.sleep(1.0)
