"""Hints at the table: the bot's advice for the seat to act, on request.

Hints are off unless the table's creator turns them on (``"hints": true`` in
``POST /api/tables``, or the lobby's checkbox). Then the seat to act may send
``{"type": "hint", "version": V, "id": "..."}``; the advice
(:func:`oracles.bots.advice.advise`) is computed in the server's bot pool from
the record's actions and the seat alone, through a
:class:`~oracles.bots.base.SeatInfo`, exactly as a bot's choice is, so it
knows no more than the seat does. The answer goes only to the socket that
asked. Each move carries ``why``, a sentence on what the move does for the
seat (the prophecy it keeps alive, the Loser chip it avoids, the bid it
makes) from the same worlds as its value, in the socket's language: the
worker words it in every language, so the advice kept for a second request
serves a socket of any language. Each seat asks for one hint at a time, and
a hint for a version the table has left is refused (``stale``).

Every decision a seat took a hint for is stored (``hints_taken``, one row
per seat and version), so the end-of-game summary can say how many hints
each seat took, also after a restart. Both tables here are created by the
migration ``0002_hints``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from oracles.bots.advice import DEFAULT_WORLDS, advise, reasons, review
from oracles.bots.base import SeatInfo
from oracles.core.game import State
from oracles.core.records import replay_record
from oracles.i18n import LANGUAGES, move_label
from oracles.server import logs, protocol
from oracles.server.bots import BACKGROUND
from oracles.server.db import hints_taken, now, table_hints
from oracles.server.protocol import NOT_YOUR_TURN, STALE, ProtocolError
from oracles.server.writer import Store

if TYPE_CHECKING:
    from oracles.server.bots import BotRunner
    from oracles.server.runtime import TableRuntime

#: Error codes beyond the contract's (documented in ``docs/server.md``).
HINTS_OFF = "hints_off"
HINT_BUSY = "hint_busy"

#: Seconds of thinking a hint may take (the worlds sampled stop then).
HINT_SECONDS = 1.0
#: How long the server waits for the pool before giving up on a hint (the
#: pool may be busy with bots' moves).
HINT_WAIT = 20.0
#: Candidates sent at most (best first).
MAX_SHOWN = 12
#: A replay page's review of one seat: seconds of thinking in all (shared
#: out over the seat's decisions) and worlds per decision.
REVIEW_SECONDS = 30.0
REVIEW_WORLDS = 12
#: Seconds of a review done in one go in the pool (bots' moves queue behind it).
REVIEW_PART_SECONDS = 2.0
#: Reviews kept in memory (each is a few marks).
MAX_REVIEWS = 500


def compute(
    game_id: str,
    options: dict[str, Any],
    actions: list[str],
    seat: int,
    seed: str,
    seconds: float,
    worlds: int = DEFAULT_WORLDS,
    names: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The advice for ``seat`` at the end of ``actions`` (runs in a worker
    process: plain data in and out). The record is rebuilt whole, but the
    advice sees it only through the seat's :class:`SeatInfo`. Each move's
    ``why`` maps every language to its sentence (or None): see
    :func:`answer_for`. ``names``: per language, the seats as the table
    page calls them (an Altaïa oracle names a seat); "Seat n" without."""
    names = names or {}
    state = replay_record({"game": game_id, "options": options, "actions": actions})
    advice = advise(SeatInfo(state, seat), seed=seed, worlds=worlds, seconds=seconds)
    shown = advice.moves[:MAX_SHOWN]
    said = {
        lang: reasons(advice, game_id, lang, state.game, names.get(lang, ()))[:MAX_SHOWN]
        for lang in LANGUAGES
    }

    def words(move: str, lang: str) -> str:
        return move_label(game_id, move, lang, names.get(lang, ()))

    return {
        "unit": advice.unit,
        "best": advice.best.notation,
        "worlds": advice.worlds,
        "moves": [
            {
                "action": m.notation,
                "value": round(m.value, 4),
                "margin": round(m.margin, 4),
                "why": {lang: said[lang][index] for lang in LANGUAGES},
                "label": {lang: words(m.notation, lang) for lang in LANGUAGES},
            }
            for index, m in enumerate(shown)
        ],
    }


def answer_for(
    advice: dict[str, Any], version: int, seat: int, lang: str | None, hint_id: str | None = None
) -> protocol.HintAnswer:
    """The ``hint`` message of :func:`compute`'s ``advice`` for a socket in
    ``lang`` (None: a socket that asked for no board, English): each move's
    ``why`` and ``label`` (its words) in that language alone."""
    lang = lang if lang in LANGUAGES else "en"
    moves = [
        {**move, "why": (move.get("why") or {}).get(lang), "label": (move.get("label") or {}).get(lang)}
        for move in advice["moves"]
    ]
    return protocol.HintAnswer(version=version, seat=seat, id=hint_id, **{**advice, "moves": moves})


def review_plan(game_id: str, options: dict[str, Any], actions: list[str], seat: int) -> list[int]:
    """The indices of ``seat``'s decisions with a choice (runs in a worker)."""
    state = replay_record({"game": game_id, "options": options, "actions": []})
    found = []
    for index, text in enumerate(actions):
        if state.current_player() == seat and len(state.legal_actions()) > 1:
            found.append(index)
        state.apply_string(text)
    return found


def review_part(
    game_id: str,
    options: dict[str, Any],
    actions: list[str],
    seat: int,
    indices: list[int],
    seconds_each: float,
    worlds: int = REVIEW_WORLDS,
    names: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """``oracles review``'s marks for ``seat`` among the decisions at
    ``indices`` (runs in a worker; a review is done in parts so that the
    bots' moves queued behind it wait for one part only). ``index`` is the
    action's place in the record: the replay's step ``index`` is the
    decision and ``index + 1`` the move."""
    final = replay_record({"game": game_id, "options": options, "actions": actions})
    history = final.history()
    replay = final.game.new_initial_state()

    def state_at(index: int) -> State:
        while len(replay.history()) < index:
            replay.apply_trusted(history[len(replay.history())])
        return replay

    marks = review(
        state_at,
        history[: max(indices) + 1] if indices else [],
        seat,
        worlds=worlds,
        seconds=seconds_each,
        only=set(indices),
        langs=LANGUAGES,
        names=names,
    )
    return [
        {
            "index": m.index,
            "played": m.played,
            "best": m.best,
            "cost": round(m.cost, 4),
            "unit": m.unit,
            "why": m.why_in,
        }
        for m in marks
    ]


def review_marks(
    game_id: str,
    options: dict[str, Any],
    actions: list[str],
    seat: int,
    seconds: float = REVIEW_SECONDS,
    worlds: int = REVIEW_WORLDS,
) -> list[dict[str, Any]]:
    """A whole review in one call (what the server does in parts)."""
    indices = review_plan(game_id, options, actions, seat)
    return review_part(game_id, options, actions, seat, indices, seconds / max(1, len(indices)), worlds)


def enable_hints(conn: Connection, table_id: str) -> None:
    """The write that turns hints on for a table (again: no change)."""
    found = conn.scalar(select(table_hints.c.table_id).where(table_hints.c.table_id == table_id))
    if found is None:
        conn.execute(insert(table_hints).values(table_id=table_id, enabled=True))


def note_hint(conn: Connection, table_id: str, seat: int, version: int) -> None:
    """The write of a hint taken by ``seat`` at ``version`` (once: a second
    one for the same decision is no second hint)."""
    found = conn.scalar(
        select(hints_taken.c.id).where(
            hints_taken.c.table_id == table_id, hints_taken.c.seat == seat, hints_taken.c.version == version
        )
    )
    if found is None:
        conn.execute(
            insert(hints_taken).values(table_id=table_id, seat=seat, version=version, created_at=now())
        )


@dataclass
class _Seen:
    enabled: bool
    #: (seat, version) -> the advice given, in every language (a second
    #: request is not a second hint).
    answers: dict[tuple[int, int], dict[str, Any]]


class Hints:
    """The server's hint desk: which tables have hints on, the hints in
    progress, and the counts of hints taken."""

    def __init__(
        self, engine: AsyncEngine, bots: BotRunner, seconds: float = HINT_SECONDS, store: Store | None = None
    ) -> None:
        #: Reads go to the engine, writes to the store (the server's: ``hub.store``).
        self.engine = engine
        self.store = store if store is not None else Store(engine)
        self.bots = bots
        self.seconds = seconds
        self.review_seconds = REVIEW_SECONDS
        self._tables: dict[str, _Seen] = {}
        self._busy: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._reviews: dict[tuple[str, int], asyncio.Task[list[dict[str, Any]]]] = {}
        #: The seats' names as the pages show them, ``(seats_info, lang,
        #: game_id) -> names``: set by ``create_app`` (the web pages' own
        #: naming, which this module may not import); None: "Seat n".
        self.namer: Callable[[list[dict[str, Any]], str, str | None], list[str]] | None = None

    async def enable(self, table_id: str) -> None:
        """Turn hints on for a new table (again: no change)."""
        if self._tables.get(table_id, _Seen(False, {})).enabled:
            return
        with contextlib.suppress(IntegrityError):  # another process did it first
            await self.store.write(lambda conn: enable_hints(conn, table_id))
        # Not noted here: a table of bots may already be over and released,
        # and a note now would never be forgotten; enabled() reads it back.
        self._tables.pop(table_id, None)

    async def enabled(self, table_id: str) -> bool:
        seen = self._tables.get(table_id)
        if seen is None:
            async with self.engine.connect() as conn:
                found = await conn.scalar(
                    select(table_hints.c.enabled).where(table_hints.c.table_id == table_id)
                )
            seen = self._tables.setdefault(table_id, _Seen(bool(found), {}))
        return seen.enabled

    def forget(self, table_id: str) -> None:
        """Drop what the desk keeps about a table that left memory (read
        again from the database if it is asked about later)."""
        self._tables.pop(table_id, None)

    async def taken(self, table_id: str, seats: int) -> list[int]:
        """Hints taken per seat (decisions a hint was given for)."""
        counts = [0] * seats
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(hints_taken.c.seat).where(hints_taken.c.table_id == table_id))
            for (seat,) in rows:
                if 0 <= seat < seats:
                    counts[seat] += 1
        return counts

    def request(
        self,
        table: TableRuntime,
        seat: int | None,
        version: int,
        hint_id: str | None,
        send: Any,
        lang: str | None = None,
    ) -> None:
        """Answer a hint request later, through ``send`` (the asking
        socket's, in ``lang``): the socket goes on reading meanwhile."""
        task = asyncio.create_task(self._answer(table, seat, version, hint_id, send, lang))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(
        self,
        table: TableRuntime,
        seat: int | None,
        version: int,
        hint_id: str | None,
        send: Any,
        lang: str | None,
    ) -> None:
        try:
            send(await self.ask(table, seat, version, hint_id, lang))
        except ProtocolError as error:
            send(protocol.error(error.code, error.message, hint_id))
        except Exception:
            logs.failure("hint failed", table=table.id, seat=seat)
            send(protocol.error(protocol.UNAVAILABLE, "no hint could be given; try again", hint_id))

    async def ask(
        self,
        table: TableRuntime,
        seat: int | None,
        version: int,
        hint_id: str | None,
        lang: str | None = None,
    ) -> protocol.HintAnswer:
        """The ``hint`` message for ``seat`` at ``version`` (its reasons in
        ``lang``, English if None), or a :class:`ProtocolError`."""
        if not await self.enabled(table.id):
            raise ProtocolError(HINTS_OFF, "hints are off at this table")
        if seat is None:
            raise ProtocolError(NOT_YOUR_TURN, "spectators get no hints")
        if table.finished:
            raise ProtocolError(NOT_YOUR_TURN, "the game is over")
        if version != table.version:
            raise ProtocolError(STALE, f"the table is at version {table.version}, not {version}")
        if table.state.current_player() != seat:
            raise ProtocolError(NOT_YOUR_TURN, f"it is not seat {seat}'s turn")
        seen = self._tables[table.id]
        answer = seen.answers.get((seat, version))
        if answer is None:
            key = (table.id, seat)
            if key in self._busy:
                raise ProtocolError(HINT_BUSY, "a hint for this seat is being worked out")
            self._busy.add(key)
            try:
                started = time.monotonic()
                advice = await asyncio.wait_for(
                    self.bots.call(
                        compute,
                        table.game_id,
                        dict(table.options),
                        list(table.texts),
                        seat,
                        f"{table.id}:{version}:{seat}",
                        self.seconds,
                        DEFAULT_WORLDS,
                        self.names_of(table),
                    ),
                    HINT_WAIT,
                )
            except TimeoutError:
                raise ProtocolError("unavailable", "the server is busy: no hint now") from None
            finally:
                self._busy.discard(key)
            if table.version != version:
                raise ProtocolError(STALE, f"the table moved on to version {table.version}")
            answer = advice
            seen.answers = {k: v for k, v in seen.answers.items() if k[1] >= version}
            seen.answers[(seat, version)] = answer
            with contextlib.suppress(IntegrityError):  # another process noted it first
                await self.store.write(lambda conn: note_hint(conn, table.id, seat, version))
            logs.event(
                "hint",
                table=table.id,
                seat=seat,
                version=version,
                ms=round(1000 * (time.monotonic() - started)),
            )
        return answer_for(answer, version, seat, lang, hint_id)

    def names_of(self, table: TableRuntime) -> dict[str, list[str]] | None:
        """Per language, ``table``'s seats as its pages call them (None
        without a :attr:`namer`)."""
        if self.namer is None:
            return None
        info = table.seats_info()
        return {lang: self.namer(info, lang, table.game_id) for lang in LANGUAGES}

    def review(self, table: TableRuntime, seat: int) -> tuple[str, list[dict[str, Any]] | None]:
        """The replay page's marks for ``seat`` of a finished ``table``:
        ``("ready", marks)``, ``("working", None)`` while the pool works on
        them (the first call starts it), or ``("failed", None)``. Cached per
        table and seat: a finished record never changes. The marks' reasons
        call the seats as the pages do (:meth:`names_of`)."""
        table_id = table.id
        key = (table_id, seat)
        task = self._reviews.get(key)
        if task is None:
            if len(self._reviews) >= MAX_REVIEWS:
                oldest = next(iter(self._reviews))
                self._reviews.pop(oldest).cancel()
            task = asyncio.ensure_future(self._review(table.record(), seat, self.names_of(table)))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._reviews[key] = task
        if not task.done():
            return "working", None
        if task.cancelled() or task.exception() is not None:
            if not task.cancelled():
                logs.event("review failed", table=table_id, seat=seat, error=repr(task.exception()))
            self._reviews.pop(key, None)
            return "failed", None
        return "ready", task.result()

    async def _review(
        self, record: dict[str, Any], seat: int, names: Mapping[str, Sequence[str]] | None = None
    ) -> list[dict[str, Any]]:
        game, options, actions = record["game"], dict(record["options"]), list(record["actions"])
        indices = await self.bots.call(review_plan, game, options, actions, seat, priority=BACKGROUND)
        each = self.review_seconds / max(1, len(indices))
        size = max(1, int(REVIEW_PART_SECONDS / each))
        marks: list[dict[str, Any]] = []
        for start in range(0, len(indices), size):
            part = indices[start : start + size]
            marks += await self.bots.call(
                review_part,
                game,
                options,
                actions,
                seat,
                part,
                each,
                REVIEW_WORLDS,
                names,
                priority=BACKGROUND,
            )
        return marks

    async def aclose(self) -> None:
        for review_task in list(self._reviews.values()):
            review_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
