"""Tables that branch off a finished one (``docs/server.md``, Branches).

*Same deals* (``"deals_from": "<id>"`` in a create request): the new table
has the finished table's game and options, and its chance actions are the
finished record's, in order. The planned actions stay on the server: each is
applied (and so sent) only when the game reaches it, and the new table's
summary names its origin only once it is over, since the origin's record is
public and would give the deals away.

*Play on from here* (``"from": {"table": "<id>", "version": V}``): the new
table starts at the position after the first V actions of a finished record
(public, the game being over) and its later chance follows the record where
the record's next chance action is still legal (:class:`PlannedChance`).

``GET /api/tables/<id>/compare`` sets a same-deals table beside its origin,
round by round (:func:`compare`); ``GET /api/tables/<id>/series`` sets every
table on the same deals side by side, however many (:func:`series`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from oracles.core.errors import OraclesError
from oracles.core.records import chance_actions, position_after, round_points, same_deals_plan
from oracles.server import db
from oracles.server.limits import TableError

if TYPE_CHECKING:
    from oracles.core.game import State
    from oracles.server.hub import Hub
    from oracles.server.runtime import TableRuntime

MAX_ID = 32


@dataclass(frozen=True)
class Branch:
    """What a create request asks of an origin table."""

    deals_from: str | None = None
    branch_of: str | None = None
    branch_version: int | None = None


@dataclass(frozen=True)
class Origin:
    """A checked origin: the new table's game, options, starting position
    and the chance it plans (``planned`` from version ``plan_start`` on)."""

    branch: Branch
    game: str
    options: dict[str, Any]
    state: State
    planned: list[str]


def read_branch(body: dict[str, Any]) -> Branch | None:
    """The ``deals_from`` / ``from`` keys of a create request (``None`` when
    neither is there); a :class:`TableError` for a bad shape."""
    deals_from = body.get("deals_from")
    start = body.get("from")
    if deals_from is None and start is None:
        return None
    if deals_from is not None and start is not None:
        raise TableError("a table comes either 'deals_from' one table or 'from' a position, not both")
    if deals_from is not None:
        if not isinstance(deals_from, str) or not 0 < len(deals_from) <= MAX_ID:
            raise TableError("'deals_from' must be the id of a finished table")
        return Branch(deals_from=deals_from)
    if not isinstance(start, dict) or set(start) != {"table", "version"}:
        raise TableError('\'from\' must be {"table": "<id of a finished table>", "version": V}')
    table, version = start["table"], start["version"]
    if not isinstance(table, str) or not 0 < len(table) <= MAX_ID:
        raise TableError("'from.table' must be the id of a finished table")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise TableError("'from.version' must be a whole number of actions")
    return Branch(branch_of=table, branch_version=version)


async def _finished_origin(hub: Hub, table_id: str) -> TableRuntime:
    origin = await hub.read(table_id)
    if origin is None:
        raise TableError(f"no table {table_id[:MAX_ID]!r} to branch from")
    if not origin.finished:
        raise TableError("the table to branch from is still being played")
    return origin


def _same_game(origin: TableRuntime, game: Any, options: Any) -> None:
    if game is not None and game != origin.game_id:
        raise TableError(f"the table to branch from plays {origin.game_id}, not {str(game)[:40]!r}")
    for name, value in (options or {}).items() if isinstance(options, dict) else ():
        if origin.options.get(name) != value:
            raise TableError(
                f"a branch keeps its origin's options: {str(name)[:40]} is {origin.options.get(name)!r}"
            )


#: The answer (409) for a finished table whose deals are being played at
#: another table (``Hub.deals_in_play``).
DEALS_IN_PLAY = "these deals are being played at another table; this game is shown once that one ends"


async def resolve(hub: Hub, branch: Branch, game: Any, options: Any) -> Origin:
    """Check ``branch`` against its origin table; what ``Hub.create`` needs."""
    table_id = branch.deals_from if branch.deals_from is not None else branch.branch_of
    assert table_id is not None
    origin = await _finished_origin(hub, table_id)
    _same_game(origin, game, options)
    if branch.branch_of is not None and await hub.deals_in_play(origin):
        # Its first position would show a hand of deals someone is playing.
        raise TableError(DEALS_IN_PLAY)
    record = origin.record()
    try:
        if branch.deals_from is not None:
            planned = same_deals_plan(record)
            state = origin.state.game.new_initial_state()
        else:
            version = branch.branch_version
            assert version is not None
            state = position_after(record, version)
            if state.is_terminal():
                raise TableError(f"the game is over after {version} actions: nothing to play on")
            planned = chance_actions(record, start=version)
    except OraclesError as error:
        raise TableError(str(error)) from None
    return Origin(branch, origin.game_id, dict(origin.options), state, planned)


async def plan_of(hub: Hub, deals_from: str | None, branch_of: str | None, version: int | None) -> list[str]:
    """The chance a stored branch plans (reloading a table after a restart)."""
    origin = await hub.get(deals_from if deals_from is not None else branch_of or "")
    if origin is None:
        return []
    return chance_actions(origin.record(), start=0 if deals_from is not None else version or 0)


async def compare(hub: Hub, table: TableRuntime) -> tuple[int, dict[str, Any]]:
    """The status and body of ``GET /api/tables/<id>/compare``: ``table``'s
    and its origin's points per round and seat, once both are over."""
    deals_from = table.deals_from
    if deals_from is None:
        return 404, {"error": "this table was not played on the deals of another"}
    if not table.finished:
        return 409, {"error": "the game is still being played; the comparison is shown once it ends"}
    origin = await hub.read(deals_from)
    if origin is None:
        return 404, {"error": "the table whose deals were played is gone"}
    if not origin.finished:
        return 409, {"error": "the other table is still being played"}
    if await hub.deals_in_play(origin):
        return 409, {"error": DEALS_IN_PLAY}
    mine, theirs = round_points(table.record()), round_points(origin.record())
    rounds = [
        {"round": index + 1, "scores": [a, b]} for index, (a, b) in enumerate(zip(mine, theirs, strict=False))
    ]
    return 200, {"tables": [table.id, origin.id], "rounds": rounds}


# ------------------------------------------------------------------ series
#: The tables a series shows beside its origin (the first made); a series
#: larger than this is cut, and its answer says so (``"truncated": true``).
MAX_SERIES = 40
#: How far back a chain of same-deals tables is followed to its origin.
MAX_CHAIN = 64


async def _series_origin(hub: Hub, table: TableRuntime) -> TableRuntime:
    """The first table of ``table``'s chain of same-deals tables: a table
    made on the deals of one that was itself made on another's shares
    their deals."""
    origin = table
    for _ in range(MAX_CHAIN):
        if origin.deals_from is None:
            break
        parent = await hub.read(origin.deals_from)
        if parent is None:  # the origin was pruned: the series starts here
            break
        origin = parent
    return origin


async def _series_members(hub: Hub, origin_id: str) -> tuple[list[tuple[str, bool]], bool]:
    """The tables made on ``origin_id``'s deals, directly or through one
    another, in the order they were made: (id, finished) each, and whether
    the list was cut at :data:`MAX_SERIES`. Read from the database, so a
    table still playing is not loaded (that would wake its bots)."""
    found: dict[str, tuple[Any, str]] = {}
    frontier = [origin_id]
    async with hub.engine.connect() as conn:
        while frontier and len(found) <= MAX_SERIES:
            rows = (
                await conn.execute(
                    select(db.tables.c.id, db.tables.c.status, db.tables.c.created_at).where(
                        db.tables.c.deals_from.in_(frontier)
                    )
                )
            ).all()
            frontier = [row.id for row in rows if row.id not in found and row.id != origin_id]
            for row in rows:
                found.setdefault(row.id, (row.created_at, row.status))
    ordered = sorted(found, key=lambda table_id: (found[table_id][0], table_id))
    members = []
    for table_id in ordered[:MAX_SERIES]:
        loaded = hub.tables.get(table_id)
        finished = loaded.finished if loaded is not None else found[table_id][1] == "finished"
        members.append((table_id, finished))
    return members, len(ordered) > MAX_SERIES


async def series(hub: Hub, table_id: str) -> tuple[int, dict[str, Any]]:
    """The status and body of ``GET /api/tables/<id>/series``: every table
    played on the same deals as ``table_id`` (its origin and all tables made
    on them), round by round and seat by seat (``docs/server.md``, Series).

    A table still being played is listed as ``{"status": "playing"}`` and
    nothing else: neither its id nor its players, since naming it beside the
    origin would tell its players where to read their deals. Nothing of its
    play is counted either."""
    from oracles.web.branches import rounds_of

    table = await hub.read(table_id)
    if table is None:
        return 404, {"error": "no such table"}
    if not table.finished:
        return 409, {"error": "the game is still being played; its series is shown once it ends"}
    if not type(table.state.game).replayable_chance:
        return 422, {
            "error": f"{table.state.game.title} has no series on the same deals: its chance follows the players' choices"
        }
    if await hub.deals_in_play(table):
        return 409, {"error": DEALS_IN_PLAY}
    origin = await _series_origin(hub, table)
    members, truncated = await _series_members(hub, origin.id)
    runtimes: list[TableRuntime | None] = [origin]
    for member_id, member_finished in members:
        runtimes.append(await hub.read(member_id) if member_finished else None)
    entries: list[dict[str, Any]] = []
    rows: list[list[dict[str, Any]] | None] = []
    for runtime in runtimes:
        if runtime is None or not runtime.finished:
            entries.append({"status": "playing"})
            rows.append(None)
            continue
        record = runtime.record()
        entries.append(
            {
                "id": runtime.id,
                "status": "finished",
                "seats": runtime.seats_info(),
                "totals": list(runtime.state.scores()),
            }
        )
        rows.append(rounds_of(record))
    origin_rows = rows[0]
    assert origin_rows is not None
    rounds = []
    for index, origin_round in enumerate(origin_rows):
        scores = [None if r is None or index >= len(r) else r[index]["points"] for r in rows]
        firsts = [None if r is None or index >= len(r) else r[index]["first"] for r in rows]
        seats = len(origin_round["points"])
        rounds.append(
            {
                "round": index + 1,
                "hands": origin_round["hands"],
                # Beyond the contract: the card turned up for trump (Inrah), the same at every table.
                **({"trump": origin_round["trump"]} if origin_round.get("trump") else {}),
                "scores": scores,
                "first": firsts,
                "best": [_best([None if s is None else s[seat] for s in scores]) for seat in range(seats)],
            }
        )
    body: dict[str, Any] = {
        "origin": origin.id,
        "game": origin.game_id,
        "options": dict(origin.options),
        "tables": entries,
        "rounds": rounds,
        "best_total": [
            _best([e["totals"][seat] if "totals" in e else None for e in entries])
            for seat in range(len(origin.seats))
        ],
    }
    if truncated:
        body["truncated"] = True
    return 200, body


def _best(points: list[float | None]) -> list[int]:
    """The indexes of the tables where a seat scored the most; none when
    fewer than two tables are over or every one scored the same."""
    scored = [(index, p) for index, p in enumerate(points) if p is not None]
    if len(scored) < 2:
        return []
    top = max(p for _, p in scored)
    best = [index for index, p in scored if p == top]
    return [] if len(best) == len(scored) else best
