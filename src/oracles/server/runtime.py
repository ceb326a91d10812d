"""A table at run time: one authoritative state, one writer at a time.

A :class:`TableRuntime` holds the table's state, rebuilt from its move log,
and the sockets watching it. Every change goes through
:meth:`TableRuntime.submit` under the table's lock: the move is checked, the
chance actions that follow are drawn (from the OS's random source), all of
them are committed to the move log, and only then is the cached state
replaced and a ``state`` message queued to every socket, each built from
that socket's own view.

Bots, stand-ins for absent people and the per-move clock are tasks that end
in the same :meth:`TableRuntime.submit`, with the version they saw: if anyone
moved meanwhile, their move is stale and dropped.

On PostgreSQL several server processes may serve the same tables. The move
log's unique ``(table, version)`` key decides who wins each version: before
a move the runtime reads the rows other processes added
(:meth:`TableRuntime.catch_up`), and a move whose insert loses is answered
``stale``. Each commit sends ``NOTIFY oracles_moves, '<table>:<version>'``
(heard by :mod:`oracles.server.listener`).
"""

from __future__ import annotations

import asyncio
import hmac
import html
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import Connection as SyncConnection
from sqlalchemy.exc import IntegrityError

from oracles.core.errors import IllegalActionError, NotationError
from oracles.core.game import State
from oracles.core.records import PlannedChance, chance_actions
from oracles.i18n import move_label
from oracles.server import db, logs
from oracles.server.bots import ATTENDED, UNATTENDED
from oracles.server.connection import Connection
from oracles.server.limits import LimitError, RateLimiter, checked_bot
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
    StateMessage,
    encode,
)
from oracles.server.tokens import hash_token

if TYPE_CHECKING:
    from oracles.server.hub import Hub


#: Chat lines sent to a socket on connecting.
CHAT_HISTORY = 50
#: How many chat ids a table remembers as sent (far more than its chat
#: rate lets arrive while a notice is in flight).
CHAT_SENT = 200
#: A move lost to another writer (another process took its version first).
DUPLICATE_ERRORS = (IntegrityError,)

#: The operating system's random source, which deals every table's cards:
#: it keeps no state, so all tables share the one object.
SYSTEM_RANDOM = random.SystemRandom()

#: Seconds over which changes of names and presence make one ``seats`` message.
SEATS_DELAY = 0.05

#: ``(table, seat, language, state message) -> board HTML or None``: see
#: :attr:`Hub.board_renderer`.
BoardRenderer = Callable[["TableRuntime", "int | None", str, StateMessage], "str | None"]


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
    #: When the running grace ends (``time.monotonic()``): the others are
    #: told how long until a bot plays for the person who left.
    grace_ends: float = 0.0
    #: A person holds this seat (see ``invites.py``); an unclaimed human
    #: seat can be taken by its invite link.
    claimed: bool = True


#: One string for each short notation, shared by every table's move list:
#: the same few hundred moves ("play R7", "keep O03 O17") recur at every
#: table, where a deal's text is its own (and long). Bounded, so that no
#: client can grow it without end.
_SHARED_TEXTS: dict[str, str] = {}
SHARED_TEXTS_MAX = 50_000
SHARED_TEXT_LEN = 40


def shared_text(text: str) -> str:
    """``text``, or the equal string already held for another table."""
    if len(text) > SHARED_TEXT_LEN:
        return text
    held = _SHARED_TEXTS.get(text)
    if held is not None:
        return held
    if len(_SHARED_TEXTS) < SHARED_TEXTS_MAX:
        _SHARED_TEXTS[text] = text
    return text


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
        self.texts = [shared_text(m.action) for m in moves]
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
        #: The highest version another process announced for this table
        #: (PostgreSQL's notices): a move reads the database first only when
        #: it is ahead of ours (see :meth:`_submit`).
        self.noticed = 0
        self.rng = SYSTEM_RANDOM
        #: The last chat lines, kept in memory when this process is the
        #: table's only writer (SQLite); ``None``: read them from the database.
        #: (A list, trimmed by hand: an empty deque costs a 64-slot block.)
        self.chat_lines: list[tuple[int, int | None, str]] | None = None
        #: The ids of the chat lines lately sent to this table's sockets: a
        #: line reaches a socket once, even when its notice from another
        #: process comes twice or crosses this process's own sending.
        self.chat_sent: list[int] = []
        #: Choices made ahead of a seat's turn (``State.early_choices``):
        #: seat -> (notation, move id), played when the turn comes. Stored
        #: (``db.held_choices``) before they are acknowledged, so that a
        #: restart or a table let go from memory keeps them; shown to
        #: nobody but the seat.
        self.held: dict[int, tuple[str, str | None]] = {}
        #: seat -> (version, notations): the choices offered ahead, and the
        #: first version they were offered at, so that one sent just as the
        #: seat's turn came is not refused stale.
        self.ahead_offered: dict[int, tuple[int, frozenset[str]]] = {}
        #: (version, time.time() when that version began): the move clock's
        #: start for the seat to act. A table loaded again (after a restart)
        #: counts from when its last move was stored, or its play began.
        self.clock_start: tuple[int, float] = (-1, 0.0)
        self._clock_from_rows(moves, row.started_at)
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
                # Seconds until a stand-in plays for a person who left.
                **(
                    {"standin_in": max(0, round(s.grace_ends - time.monotonic()))}
                    if s.grace_task is not None
                    else {}
                ),
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

    def state_message(self, seat: int | None) -> StateMessage:
        """The ``state`` message for ``seat`` (``None``: a spectator), built
        only from that seat's view or the public view."""
        state = self.state
        view = state.view(seat) if seat is not None else state.view(None)
        legal: list[str] = []
        if seat is not None and state.current_player() == seat and seat not in self.held and not self.waiting:
            # (A held choice is being played for this seat: nothing to choose.)
            legal = [state.action_to_string(a) for a in state.legal_actions()]
        # Beyond the contract (docs/server.md): a choice this seat may make
        # before its turn, and the one it made, held until the turn comes.
        held: str | None = None
        ahead: list[str] | None = None
        # A table waiting for its players offers nothing ahead either: the
        # move would be refused until the game begins.
        if seat is not None and not legal and not state.is_terminal() and not self.waiting:
            if seat in self.held:
                held = self.held[seat][0]
            else:
                ahead = [state.action_to_string(a) for a in state.early_choices(seat)] or None
                if ahead:
                    offered = frozenset(ahead)
                    if self.ahead_offered.get(seat, (0, None))[1] != offered:
                        self.ahead_offered[seat] = (self.version, offered)
        return StateMessage(
            version=self.version,
            seat=seat,
            view=view,
            legal=legal,
            # Beyond the contract: lets a client stop without reading the view.
            status="finished" if state.is_terminal() else "playing",
            ahead=ahead,
            held=held,
            deadline=self.deadline(),
            waiting=self.waiting,
        )

    def restore_held(self, stored: list[tuple[int, str, str | None]]) -> list[int]:
        """Take back the choices held ahead as stored (``db.load_held``);
        the seats whose stored choice no longer holds (their turn passed
        meanwhile), to be dropped from the database."""
        stale: list[int] = []
        for seat, notation, move_id in stored:
            try:
                action = self.state.string_to_action(notation)
            except NotationError:
                action = -1
            turn = self.state.current_player() == seat and action in self.state.legal_actions()
            if 0 <= seat < len(self.seats) and (turn or action in self.state.early_choices(seat)):
                self.held[seat] = (notation, move_id)
            else:
                stale.append(seat)
        return stale

    def _clock_from_rows(self, rows: list[db.MoveRow], started_at: datetime | None) -> None:
        """Start the move clock of the current version when it began, as the
        database says (``rows``: the moves read back, the last one current).
        A table stored before its start was recorded (or still waiting)
        keeps counting from now."""
        if not self.clock or started_at is None or not rows:
            return
        began = max(started_at, rows[-1].at) if rows[-1].at is not None else started_at
        self.clock_start = (self.version, began.timestamp())

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
    def _state_text(
        self, seat: int | None, board_lang: str | None, plain: dict[int | None, StateMessage]
    ) -> str:
        """The encoded ``state`` for ``seat``, with its board drawn in
        ``board_lang`` when the socket asked for one. ``plain`` keeps each
        seat's message across the sockets of one fan-out (it has side
        effects: the move clock's start, the choices offered ahead)."""
        if seat not in plain:
            plain[seat] = self.state_message(seat)
        message = plain[seat]
        drawn = self.hub.board_renderer
        if board_lang is not None and drawn is not None:
            try:
                board = drawn(self, seat, board_lang, message)
            except Exception as error:
                # The state goes out without its board: the page fetches it.
                logs.event("board failed", logging.ERROR, table=self.id, seat=seat, error=repr(error))
                board = None
            if board is not None:
                message = msgspec.structs.replace(message, board=board)
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
        plain: dict[int | None, StateMessage] = {}
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

    def broadcast(self, message: ServerMessage) -> None:
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
            texts.append(shared_text(text))
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
            if self.hub.shared and self._maybe_behind(version):
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
                held = await self._hold(seat, text, move_id)
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
                raise ProtocolError(ILLEGAL, f"{text!r}: {error.reason}", why=error.reason) from None
            texts = [*self.texts, shared_text(notation)]
            rows = [db.MoveRow(len(texts), seat, notation, move_id)]
            rows += self.play_chance(trial, texts)
            held_played = seat if seat in self.held else None
            try:
                await self.commit(rows, finished=trial.is_terminal(), held_played=held_played)
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

    def _maybe_behind(self, version: int) -> bool:
        """Whether another process may have stored moves we have not
        applied: a notice said so, the mover saw a version we do not have,
        or the listener is not hearing notices. Otherwise the move is
        played without reading the database first: if another process did
        store this version meanwhile (its notice still on its way), the
        database refuses our row as a duplicate and :meth:`_submit` catches
        up then, so nothing is played twice."""
        listener = self.hub.listener
        return (
            self.noticed > self.version or version != self.version or listener is None or not listener.hearing
        )

    async def _hold(self, seat: int, text: str, move_id: str | None) -> AckMessage | None:
        """Under the lock: keep ``seat``'s choice made ahead of its turn
        (any version: the choice does not depend on the others'), or
        ``None`` when ``text`` is no such choice. The answer is an ``ack``
        with ``held``, once the choice is stored; only this seat's sockets
        get a fresh ``state``."""
        try:
            action = self.state.string_to_action(text)
        except NotationError:
            return None
        if seat in self.held or action not in self.state.early_choices(seat):
            return None
        notation = self.state.action_to_string(action)
        await self.hub.store.write(lambda conn: db.store_held(conn, self.id, seat, notation, move_id))
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
        played = False
        try:
            await self.submit(seat, notation, version, move_id)
            played = True  # (its row left the database with the move)
        except ProtocolError:
            pass  # the table moved on first: nothing was held for this turn
        finally:
            gone = self.version != version or self.state.current_player() != seat
            if gone:
                self.held.pop(seat, None)
        if gone and not played:
            await self.hub.store.write(lambda conn: db.drop_held(conn, self.id, seat))

    async def commit(self, rows: list[db.MoveRow], finished: bool, held_played: int | None = None) -> None:
        """Store ``rows`` (and the end of the game; ``held_played``: the
        seat whose held choice the first row plays) through the store:
        returns once they are committed."""
        await self.hub.store.write(lambda conn: db.record_moves(conn, self.id, rows, finished, held_played))

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
        last_at: datetime | None = None
        for row in rows:
            if row.version != len(texts) + 1:
                break  # not yet visible whole; the next notice brings the rest
            state.apply_string(row.action)
            texts.append(shared_text(row.action))
            last_at = row.at
            if row.move_id is not None:
                self.move_ids[(row.seat, row.move_id)] = row.version
        if len(texts) == len(self.texts):
            return False
        self.state, self.texts = state, texts
        if last_at is not None:
            # Another process stored the move: the clock began then.
            self.clock_start = (self.version, last_at.timestamp())
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
                await self.hub.store.write(lambda conn: db.mark_finished(conn, self.id))
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
            seat.grace_ends = time.monotonic() + self.hub.settings.grace
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
        # A line said while the history was read is sent once: in it, or after
        # (held meanwhile, or its sending still on its way: ``chat_had``).
        conn.chat_had = frozenset(line[0] for line in lines)
        held, conn.chat_held = conn.chat_held or [], None
        for chat_id, message in held:
            if chat_id not in conn.chat_had:
                conn.send(message)
        if conn.seat is not None and self.seats[conn.seat].kind == "human":
            # Tell the person who comes back what was played for them since
            # their own last move.
            async with self.hub.engine.connect() as db_conn:
                played = await db.standin_moves(db_conn, self.id, conn.seat)
            if played:
                moves: list[dict[str, object]] = [{"version": v, "action": a} for v, a in played]
                if conn.board_lang is not None:
                    # A page tells the moves in words ("Play Red 1"), not notation.
                    names = [s.name for s in self.seats]
                    for move in moves:
                        move["label"] = move_label(
                            self.game_id, str(move["action"]), conn.board_lang, names, self.state.game
                        )
                conn.send({"type": "standin", "moves": moves})

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
        if chat_id in self.chat_sent:
            return
        self.chat_sent.append(chat_id)
        if len(self.chat_sent) > CHAT_SENT:
            del self.chat_sent[0]
        message = encode(self.chat_message(seat, text))
        for conn in list(self.connections):
            if (conn.seat is None) == (seat is None) and chat_id not in conn.chat_had:
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

        def store_line(conn: SyncConnection) -> int:
            chat_id = db.insert_chat(conn, self.id, seat, text)
            if self.hub.shared:
                # Noted before the commit, which sends the notice.
                self.hub.own_chat.add(chat_id)
                db.notify_chat(conn, self.id, chat_id)
            return chat_id

        chat_id = await self.hub.store.write(store_line)
        if self.chat_lines is not None:
            self.chat_lines.append((chat_id, seat, text))
            if len(self.chat_lines) > CHAT_HISTORY:
                del self.chat_lines[0]
        self.broadcast_chat(chat_id, seat, text)
        return None

    async def rename(self, seat: int, name: str) -> None:
        async with self.lock:
            await self.hub.store.write(lambda conn: db.rename_seat(conn, self.id, seat, name))
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
