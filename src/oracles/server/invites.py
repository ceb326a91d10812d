"""Invites that last, and the waiting room (``docs/server.md``, "Invites").

Every human seat has a link. A seat is *claimed* once a person holds it:
through ``POST /api/tables/<id>/join`` (which mints the seat's token then,
and stores only its hash), or by coming with the token of the create
answer. An unclaimed seat can be claimed by anyone with its link; a
claimed one answers 409. Claims are single ``UPDATE`` statements on the
database (``db.claim_seat``), so they hold after a restart and on every
process sharing a PostgreSQL database: of two claims on one seat exactly
one wins, wherever they land.

A table created with ``"wait": true`` (the lobby's tables for friends)
waits while it has unclaimed human seats: nobody moves, no bot, no clock,
no stand-in. It starts when the last seat is claimed, or when its creator
starts it (``POST /api/tables/<id>/start``), and then bots take the empty
seats. A stand-in's grace therefore counts from the start, never from the
table's creation. Other processes hear of claims and starts by a
``<table>:seats`` notice and read the seats back (:meth:`Invites.reload`).

Tokens never reach the logs: only tables and seat numbers are logged.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from oracles.server import db, logs
from oracles.server.hub import Hub
from oracles.server.limits import TableError
from oracles.server.protocol import RematchMessage, SeatsMessage, StartedMessage, read_name
from oracles.server.runtime import TableRuntime
from oracles.server.tokens import hash_token, new_token

#: The keys of a create request that this module reads (beside ``game``).
BODY_KEYS = ("listed", "wait", "turn_hours", "spectator_chat")
#: The longest time a turn-based table gives a move: thirty days.
MAX_TURN_HOURS = 720
SPECTATOR_CHATS = ("own", "none")


@dataclass(frozen=True)
class TableFlags:
    """What a create request says about invites and the table's pace."""

    #: Shown in the lobby; a private table is reached only by its links.
    listed: bool = True
    #: Wait for every human seat to be claimed (or for the creator's start).
    wait: bool = False
    #: Turn-based: hours per move, and no stand-in unless this clock runs out.
    turn_hours: int | None = None
    #: ``own``: spectators chat among themselves; ``none``: they do not chat.
    spectator_chat: str = "own"

    def create_args(self, clock: int | None) -> dict[str, Any]:
        """The keyword arguments of :meth:`Hub.create` (``clock``: the
        request's per-move seconds)."""
        turn_based = self.turn_hours is not None
        return {
            "clock": self.turn_hours * 3600 if self.turn_hours is not None else clock,
            "listed": self.listed,
            "waiting": self.wait,
            "turn_based": turn_based,
            "spectator_chat": self.spectator_chat,
        }


def read_flags(body: Any) -> TableFlags:
    """The invite flags of a parsed create request, a JSON object or the
    decoded request (its attributes); :class:`TableError` if bad."""

    def get(key: str, default: Any = None) -> Any:
        if isinstance(body, dict):
            return body.get(key, default)
        return getattr(body, key, default)

    values: dict[str, Any] = {}
    for key in ("listed", "wait"):
        value = get(key, getattr(TableFlags, key))
        if not isinstance(value, bool):
            raise TableError(f"'{key}' must be true or false")
        values[key] = value
    hours = get("turn_hours")
    if hours is not None and (
        not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= MAX_TURN_HOURS
    ):
        raise TableError(f"'turn_hours' must be whole hours from 1 to {MAX_TURN_HOURS}")
    if hours is not None and get("clock") is not None:
        raise TableError("a turn-based table's clock is its 'turn_hours'")
    chat = get("spectator_chat", "own")
    if chat not in SPECTATOR_CHATS:
        raise TableError('\'spectator_chat\' must be "own" or "none"')
    return TableFlags(turn_hours=hours, spectator_chat=chat, **values)


class InviteError(Exception):
    """A claim or start that cannot be met, with its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def clean_name(value: Any) -> str | None:
    """A display name as typed: 1 to ``MAX_NAME`` printable characters,
    inner runs of spaces made one (escaped when shown, never here)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InviteError(422, "'name' must be a string")
    name, problem = read_name(value)
    if problem:
        raise InviteError(422, problem)
    return name


@dataclass(frozen=True)
class Claim:
    seat: int
    token: str

    def answer(self, table_id: str) -> dict[str, Any]:
        return {"seat": self.seat, "token": self.token, "url": f"/t/{table_id}?token={self.token}"}


def notify_seats(conn: Connection, table_id: str) -> None:
    """Announce, on commit, that ``table_id``'s seats or wait changed."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_notify(db.CHANNEL, f"{table_id}:seats")))


def store_claim(conn: Connection, table_id: str, seat: int, token_hash: str, name: str) -> bool:
    """The write of a claim (:func:`db.claim_seat`): whether it won."""
    won = db.claim_seat(conn, table_id, seat, token_hash, name)
    if won:
        notify_seats(conn, table_id)
    return won


def store_arrival(conn: Connection, table_id: str, seat: int) -> None:
    """The write of a seat's person arriving with the create answer's token."""
    db.mark_claimed(conn, table_id, seat)
    notify_seats(conn, table_id)


def store_start(conn: Connection, table_id: str, bot: str) -> list[int]:
    """The write of a waiting table's start: the seats bots took."""
    empty = db.start_waiting(conn, table_id, bot)
    notify_seats(conn, table_id)
    return empty


class Invites:
    """Claims of seats and starts of waiting tables, for one :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        hub.invites = self

    # ------------------------------------------------------------ claims
    async def claim(self, table_id: str, seat: Any, name: Any = None) -> Claim:
        """Give the unclaimed human seat ``seat`` of ``table_id`` to a person."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InviteError(422, "'seat' must be a seat number")
        clean = clean_name(name)
        async with self.hub.hold(table_id) as table:
            if table is None:
                raise InviteError(404, "no such table")
            if not 0 <= seat < len(table.seats):
                raise InviteError(422, f"this table has seats 0 to {len(table.seats) - 1}")
            if table.seats[seat].kind != "human":
                raise InviteError(409, f"seat {seat} is played by a bot")
            if table.finished:
                raise InviteError(409, "the game is over")
            if table.rematch_of is not None:
                raise InviteError(409, f"seat {seat} is kept for its player of the last game")
            token = new_token()
            digest = hash_token(token)
            async with table.lock:
                chosen = clean or table.seats[seat].name
                won = await self.hub.store.write(
                    lambda conn: store_claim(conn, table.id, seat, digest, chosen)
                )
                if not won:
                    table.seats[seat].claimed = True  # another process's claim
                    raise InviteError(409, f"seat {seat} is taken")
                place = table.seats[seat]
                place.token_hash, place.claimed, place.name = digest, True, chosen
                logs.event("seat claimed", table=table.id, seat=seat)
                table.broadcast(SeatsMessage(seats=table.seats_info()))
                await self._start_if_full(table)
        return Claim(seat, token)

    async def join(self, table_id: str, body: Any) -> tuple[int, dict[str, Any]]:
        """``POST /api/tables/<id>/join`` with a parsed body: status and answer."""
        if not isinstance(body, dict):
            return 422, {"error": 'the request must be a JSON object {"seat": n, "name": "..."}'}
        try:
            claim = await self.claim(table_id, body.get("seat"), body.get("name"))
        except InviteError as error:
            return error.status, {"error": error.message}
        return 200, claim.answer(table_id)

    async def seat_of(self, table: TableRuntime, token: str) -> int | None:
        """The seat whose token this is (``None``: none). On a shared
        database a token claimed through another process may be newer than
        this process's seats: they are read again once (and always while the
        table waits). A seat's first token is its person's arrival: the
        seat is claimed then."""
        seat = table.seat_for_token(token)
        # A waiting table is read again too: its start may have been
        # committed by another process whose notice has not arrived yet.
        if self.hub.shared and (seat is None or table.waiting):
            async with table.lock:
                await self._reload_locked(table)
            seat = table.seat_for_token(token)
        if seat is not None and not table.seats[seat].claimed:
            async with table.lock:
                if not table.seats[seat].claimed:
                    await self.hub.store.write(lambda conn: store_arrival(conn, table.id, seat))
                    table.seats[seat].claimed = True
                    table.broadcast(SeatsMessage(seats=table.seats_info()))
                    await self._start_if_full(table)
        return seat

    def open_seats(self, table: TableRuntime) -> list[int]:
        """The human seats nobody holds yet."""
        return [s.seat for s in table.seats if s.kind == "human" and not s.claimed]

    # ----------------------------------------------------------- rematch
    async def rematch(self, table: TableRuntime, seat: int, token: str) -> TableRuntime:
        """``seat`` of the finished ``table`` asks for the next game: the
        rematch is made by the first to ask, and holds the seat of each
        person who asks (it starts when all have). Everyone at the old
        table is told who wants it."""
        made = await self.hub.rematch(table, seat)
        async with self.hub.hold(made.id) as held:
            new = held or made
            await self.seat_of(new, token)
        wants = [s.seat for s in new.seats if s.kind == "human" and s.claimed]
        table.broadcast(RematchMessage(id=new.id, watch=f"/t/{new.id}", wants=wants))
        return new

    # ------------------------------------------------------------ starts
    def is_creator(self, table: TableRuntime, token: str) -> bool:
        return table.creator_hash is not None and hmac.compare_digest(hash_token(token), table.creator_hash)

    async def start(self, table_id: str, token: str, bot: str | None = None) -> tuple[int, dict[str, Any]]:
        """``POST /api/tables/<id>/start``: the creator starts a waiting
        table; bots take its empty seats (``bot``'s spec, checked by the
        caller, else the stand-in's). Status and answer."""
        async with self.hub.hold(table_id) as table:
            if table is None:
                return 404, {"error": "no such table"}
            if not token or not self.is_creator(table, token):
                return 403, {"error": "only the table's creator may start it"}
            async with table.lock:
                if self.hub.shared:
                    await self._reload_locked(table)
                if table.waiting:
                    await self._start(table, bot)
            return 200, table.summary()

    async def _start_if_full(self, table: TableRuntime) -> None:
        """Under the lock: start a waiting table whose seats are all held."""
        if table.waiting and not self.open_seats(table):
            await self._start(table)

    async def _start(self, table: TableRuntime, bot: str | None = None) -> None:
        """Under the lock: end the wait in the database, then here; ``bot``
        (else the stand-in's spec) takes the seats nobody claimed."""
        bot = bot or self.hub.settings.standin
        empty = await self.hub.store.write(lambda conn: store_start(conn, table.id, bot))
        if empty:
            logs.event("bots seated", table=table.id, seats=empty)
        await self._reload_locked(table)

    async def reload(self, table: TableRuntime) -> None:
        """A ``seats`` notice from another process: read the seats again."""
        async with table.lock:
            await self._reload_locked(table)

    async def _reload_locked(self, table: TableRuntime) -> None:
        async with self.hub.engine.connect() as conn:
            rows = await db.load_seats(conn, table.id)
            waiting = await db.is_waiting(conn, table.id)
        for row in rows:
            place = table.seats[row.seat]
            place.kind, place.bot, place.name = row.kind, row.bot, row.name
            place.token_hash, place.claimed = row.token_hash, row.claimed
        began = table.waiting and not waiting
        table.waiting = waiting
        if began:
            logs.event("table started", table=table.id)
            if not self.hub.shared:
                # As on resume: on a shared database the person may be on
                # another process, and a stand-in waits for a socket to leave.
                for place in table.seats:
                    if place.kind == "human" and place.present == 0:
                        table.start_grace(place)
            table.broadcast(StartedMessage())
            table.broadcast_state()
            table.schedule()
        table.broadcast(SeatsMessage(seats=table.seats_info()))
