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
round by round (:func:`compare`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oracles.core.errors import OraclesError
from oracles.core.records import chance_actions, position_after, round_points, same_deals_plan
from oracles.server.limits import TableError

if TYPE_CHECKING:
    from oracles.core.game import State
    from oracles.server.tables import Hub, TableRuntime

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


async def resolve(hub: Hub, branch: Branch, game: Any, options: Any) -> Origin:
    """Check ``branch`` against its origin table; what ``Hub.create`` needs."""
    table_id = branch.deals_from if branch.deals_from is not None else branch.branch_of
    assert table_id is not None
    origin = await _finished_origin(hub, table_id)
    _same_game(origin, game, options)
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
    mine, theirs = round_points(table.record()), round_points(origin.record())
    rounds = [
        {"round": index + 1, "scores": [a, b]} for index, (a, b) in enumerate(zip(mine, theirs, strict=False))
    ]
    return 200, {"tables": [table.id, origin.id], "rounds": rounds}
