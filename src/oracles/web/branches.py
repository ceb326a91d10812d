"""Pages of branches (``docs/web.md``, Branches): ``POST /branch/<id>``
makes a table on a finished one's deals (``kind=deals``) or played on from a
step of its replay (``kind=from&version=V``, with ``seat=K`` the person's
seat, by default the seat to act there, and ``move=M`` a first move made for
it: the bot's move of a review mark); ``/compare/<a>/<b>`` sets two
games on the same deals side by side, round by round and seat by seat;
``/series/<id>`` sets every table on the same deals as ``<id>`` side by side
(the server's ``series`` answer, drawn).

The server's checks of a branch are passed in (``resolve``, ``series``), so
the web package does not import the server's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from oracles.core.game import State
from oracles.core.records import replay_record
from oracles.core.registry import game_class, load_game
from oracles.i18n import N_, translate
from oracles.web.seam import T, TableHub


def rounds_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per round: each seat's hand when its play began, its first decision
    (Oracle's keep, Inrah's bid), its points, and the round's trump card
    where the game turns one up (Inrah; None otherwise). Rounds end as
    ``core.records.round_points`` counts them."""
    final = replay_record(record)
    state: State = final.game.new_initial_state()
    players = state.num_players
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    before = list(state.scores())
    for action in final.history():
        seat = state.current_player()
        if not state.is_chance_node():
            if current is None:
                current = {"hands": [list(state.view(s).get("hand") or []) for s in range(players)]}
                current["trump"] = state.view(None).get("trump_card")
                current["first"] = [None] * players
            if current["first"][seat] is None:
                current["first"][seat] = state.action_to_string(action)
        state.apply_trusted(action)
        if current is not None and (state.is_chance_node() or state.is_terminal()):
            after = list(state.scores())
            current["points"] = [a - b for a, b in zip(after, before, strict=True)]
            before = after
            rounds.append(current)
            current = None
    return rounds


def _to_act(record: dict[str, Any], version: int) -> int:
    """The seat to act after the first ``version`` actions (negative at a
    chance node or past the end)."""
    actions = record["actions"]
    if not 0 <= version <= len(actions):
        return -1
    return replay_record({**record, "actions": actions[:version]}).current_player()


#: A finished game whose deals are being played at another table is closed
#: to all but its seats until that game ends (``Hub.deals_in_play``).
DEALS_IN_PLAY = N_("These deals are being played at another table: this game is shown once that one ends.")


def branch_routes(
    hub: TableHub[T],
    resolve: Callable[..., Awaitable[Any]],
    read_branch: Callable[[dict[str, Any]], Any],
    parse_seats: Callable[[Any, Any], Any],
    table_error: type[Exception],
    move_error: type[Exception],
    render: Callable[..., Response],
    language: Callable[[HTTPConnection], str],
    series: Callable[[Any, str], Awaitable[tuple[int, dict[str, Any]]]] | None = None,
) -> list[BaseRoute]:
    """The branch pages, given the server's pieces (see the module docstring)."""

    def refuse(request: Request, status: int, message: str) -> Response:
        return render(request, "error.html", status, message=message)

    async def branch(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        body_bytes = await request.body()
        # A small urlencoded form, as the replay page sends (no multipart).
        form = dict(parse_qsl(body_bytes[:4096].decode("utf-8", "replace"), keep_blank_values=True))
        kind = form.get("kind")
        origin_table = await hub.read(table_id)
        if origin_table is None:
            return refuse(request, 404, translate(language(request), "No such table."))
        if kind == "deals":
            body: dict[str, Any] = {"deals_from": table_id}
            # The same people and bots, each a new seat of the new table.
            seats = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in origin_table.seats]
        else:
            try:
                version = int(str(form.get("version", "")))
            except ValueError:
                return refuse(request, 422, translate(language(request), "No such step."))
            body = {"from": {"table": table_id, "version": version}}
            count = len(origin_table.seats)
            raw_seat = str(form.get("seat", ""))
            if raw_seat.isdigit() and int(raw_seat) < count:
                mine_seat = int(raw_seat)
            else:  # the seat to act there (the first seat at a chance node)
                mine_seat = max(0, _to_act(origin_table.record(), version))
            seats = ["human" if seat == mine_seat else "bot:heuristic" for seat in range(count)]
        try:
            origin = await resolve(hub, read_branch(body), None, None)
            table, tokens = await hub.create(
                origin.game, origin.options, parse_seats(seats, None), origin=origin
            )
            move = form.get("move")
            if kind != "deals" and move:
                await table.submit(mine_seat, str(move)[:200], table.version, None)
        except (table_error, move_error) as error:
            return refuse(request, 422, str(error))
        # The other people's seats are taken by their invite links.
        mine = next((t for t in tokens if t is not None), None)
        target = f"/t/{table.id}" + (f"?token={mine}" if mine else "")
        return RedirectResponse(target, status_code=303)

    async def compare(request: Request) -> Response:
        lang = language(request)
        ids = [request.path_params["a"], request.path_params["b"]]
        found = [await hub.read(table_id) for table_id in ids]
        tables = [table for table in found if table is not None]
        if len(tables) != len(found):
            return refuse(request, 404, translate(lang, "No such table."))
        if not all(table.finished for table in tables):
            return refuse(request, 409, translate(lang, "The comparison opens when both games are over."))
        if await hub.deals_in_play(tables[0]):
            return refuse(request, 409, translate(lang, DEALS_IN_PLAY))
        # The table whose deals were played is table A, as on the series
        # page, whichever order the address names them in.
        if getattr(tables[0], "deals_from", None) == ids[1]:
            ids, tables = ids[::-1], tables[::-1]
        origin_first = getattr(tables[1], "deals_from", None) == ids[0]
        records = [table.record() for table in tables]
        if not all(game_class(r["game"]).replayable_chance for r in records):
            return refuse(
                request,
                422,
                translate(
                    lang, "Codename cannot be compared: its shuffles follow the codes the players choose."
                ),
            )
        if records[0]["game"] != records[1]["game"] or records[0]["options"] != records[1]["options"]:
            return refuse(request, 422, translate(lang, "These two games are not on the same deals."))
        both = [rounds_of(record) for record in records]
        if [r["hands"] for r in both[0]] != [r["hands"] for r in both[1]]:
            return refuse(request, 422, translate(lang, "These two games are not on the same deals."))
        from oracles.web import present

        finals = [replay_record(record) for record in records]
        names = [present.seat_names(table.seats_info(), lang, table.game_id) for table in tables]
        rows = []
        for number, (mine, theirs) in enumerate(zip(*both, strict=True), start=1):
            seats = []
            for seat in range(len(mine["points"])):
                a, b = mine["points"][seat], theirs["points"][seat]
                better = 0 if a > b else 1 if b > a else None
                seats.append(
                    {
                        "seat": seat,
                        "hand": mine["hands"][seat],
                        "first": [mine["first"][seat], theirs["first"][seat]],
                        "points": [a, b],
                        "better": better,
                    }
                )
            rows.append({"round": number, "seats": seats, "trump": mine.get("trump")})
        return render(
            request,
            "compare.html",
            ids=ids,
            origin_first=origin_first,
            game=records[0]["game"],
            played=finals[0].game,
            names=names,
            rows=rows,
            totals=[list(final.scores()) for final in finals],
            players=[", ".join(seat_names) for seat_names in names],
            title=present.game_title(records[0]["game"]),
        )

    async def series_page(request: Request) -> Response:
        lang = language(request)
        assert series is not None
        asked = await hub.read(request.path_params["table_id"])
        if asked is not None and asked.finished and await hub.deals_in_play(asked):
            return refuse(request, 409, translate(lang, DEALS_IN_PLAY))
        status, body = await series(hub, request.path_params["table_id"])
        if status != 200:
            message = {
                404: N_("No such table."),
                409: N_("The tables on these deals are compared once this game is over."),
                422: N_("Codename cannot be compared: its shuffles follow the codes the players choose."),
            }.get(status, N_("No such table."))
            return refuse(request, status, translate(lang, message))
        from oracles.web import present

        tables = body["tables"]
        labels = [series_label(index) for index in range(len(tables))]
        names = [
            present.seat_names(t["seats"], lang, body["game"]) if t["status"] == "finished" else []
            for t in tables
        ]
        done = [index for index, t in enumerate(tables) if t["status"] == "finished"]
        return render(
            request,
            "series.html",
            body=body,
            game=body["game"],
            played=load_game(body["game"], **body["options"]),
            labels=labels,
            names=names,
            done=done,
            playing=[index for index, t in enumerate(tables) if t["status"] != "finished"],
            seats=range(len(names[0])),
            title=present.game_title(body["game"]),
        )

    routes: list[BaseRoute] = [
        Route("/branch/{table_id}", branch, methods=["POST"]),
        Route("/compare/{a}/{b}", compare),
    ]
    if series is not None:
        routes.append(Route("/series/{table_id}", series_page))
    return routes


def series_label(index: int) -> str:
    """A table's letter in a series, in the order the tables were made:
    A to Z, then AA, AB ...

    >>> [series_label(i) for i in (0, 1, 25, 26, 27)]
    ['A', 'B', 'Z', 'AA', 'AB']
    """
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[index] if index < 26 else letters[index // 26 - 1] + letters[index % 26]
