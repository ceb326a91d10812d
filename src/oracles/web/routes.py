"""The web pages, added to the server's app by ``create_app``.

``/`` the lobby, ``/new`` creates a table from its form, ``/join/<id>/<seat>``
takes an open seat (a claim stored in the database: see
``oracles.server.invites``), ``/t/<id>`` the table page (a seat with ``?token=``, a
spectator without), ``/t/<id>/board`` the board fragment (the same that
``board_html`` draws into each ``state`` for the page's socket), ``/replay/<id>`` a finished game step
by step, ``/rules/<game>`` and ``/lang/<code>`` the language switch.

Pages are rendered here with Jinja2 from the seat's own view (or the public
view, or, for a finished game, its public record), so the browser never
receives more than its seat may know.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PackageLoader,
    PrefixLoader,
    select_autoescape,
)
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from oracles.core.errors import OraclesError
from oracles.core.options import check_remote_options
from oracles.core.registry import game_class, game_ids, game_part, load_game
from oracles.i18n import LANGUAGES, N_, best_language, ntranslate, translate
from oracles.web import present
from oracles.web.branches import DEALS_IN_PLAY
from oracles.web.friends import table_friends
from oracles.web.seam import HintDesk, LiveTable, StateShape, T, TableHub

STATIC = Path(__file__).parent / "static"
#: How many of the tables a browser holds the lobby lists ("Your tables").
YOUR_TABLES = 20
LANG_COOKIE = "oracles_lang"


def game_templates() -> dict[str, BaseLoader]:
    """Each game's own web templates (its ``templates`` part), reached as
    ``<game id>/<name>``: the shared pages name no game."""
    found: dict[str, BaseLoader] = {}
    for game_id in game_ids():
        folder = game_part(game_id, "templates")
        if folder is not None:
            found[game_id] = FileSystemLoader(str(folder))
    return found


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=ChoiceLoader([PackageLoader("oracles.web", "templates"), PrefixLoader(game_templates())]),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["present"] = present
    return env


def language(request: HTTPConnection) -> str:
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return best_language(request.headers.get("accept-language"))


def render_text(name: str, lang: str, path: str = "/", **context: Any) -> str:
    """Template ``name`` rendered in ``lang`` (``path``: the page's own path,
    for the language switch)."""

    def tr(message: str, **fields: Any) -> str:
        return translate(lang, message, **fields)

    def ntr(singular: str, plural: str, count: int, **fields: Any) -> str:
        return ntranslate(lang, singular, plural, count, **fields)

    return (
        environment()
        .get_template(name)
        .render(lang=lang, tr=tr, ntr=ntr, languages=LANGUAGES, path=path, **context)
    )


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = render_text(name, language(request), _here(request), **context)
    return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})


def missing_page(request: Request, status: int = 404) -> HTMLResponse:
    """The error page for an address no page answers (404), or that answers
    no such request (405): the site's page, with the way back to the lobby,
    rather than the framework's bare "Not Found"."""
    return render(
        request,
        "error.html",
        status,
        message=translate(language(request), "There is no page at this address."),
    )


def board_context(
    table: LiveTable, seat: int | None, lang: str, message: StateShape | None = None
) -> dict[str, Any]:
    """What ``board.html`` draws for ``seat`` of ``table``: only that seat's
    ``state`` message (``message``, or built here) and the seats' names."""
    if message is None:
        try:
            message = table.state_message(seat)
        except Exception:
            message = None
    if message is None or (seat is None and table.finished is False and not _public_ok(table)):
        return {"unavailable": True, "version": table.version, "game": table.game_id}
    view = message.view
    legal = message.legal
    seats_info = table.seats_info()
    names = present.seat_names(seats_info, lang, table.game_id)
    return {
        "unavailable": False,
        "game": table.game_id,
        "view": view,
        "legal": legal,
        "clicks": present.one_click(legal),
        "verbs": present.composed_verbs(legal),
        # What this seat may choose now: its legal moves, or a choice
        # made ahead of its turn (held by the server until it comes).
        "moves": legal or message.ahead or [],
        "ahead": bool(message.ahead) and not legal,
        "held": message.held,
        # Waiting for its players: nobody is "to play" yet.
        "waiting": bool(getattr(table, "waiting", False)),
        "deadline": message.deadline,
        "own_templates": game_part(table.game_id, "templates") is not None,
        "version": message.version,
        "seat": seat,
        "names": names,
        "seats_info": seats_info,
        "finished": table.finished,
        "table_id": table.id,
        # For the rematch form at the end: the same game, options and seats.
        "options": dict(getattr(table, "options", {}) or {}),
    }


def board_html(table: LiveTable, seat: int | None, lang: str, message: StateShape) -> str | None:
    """The board fragment pushed with ``message`` (the ``state`` of ``seat``)
    to a page that asked for it, so that a move costs the page no fetch.
    ``None`` once the game is over: the last board also lists the hints each
    seat took, which the page fetches (``/t/<id>/board``) then."""
    if table.finished:
        return None
    return render_text("board.html", lang, board=board_context(table, seat, lang, message))


#: What went wrong with a lobby form, by the ``error`` the lobby is sent
#: back with (an option's name says its value was no whole number).
LOBBY_ERRORS = {
    "game": N_("That did not work: there is no such game."),
    "taken": N_("That did not work: someone has just taken that seat."),
    "gone": N_("That did not work: the table is gone."),
    "name": N_("That did not work: a name is 1 to 40 letters, without control characters."),
}


def lobby_error(code: str | None, lang: str) -> str | None:
    """The lobby's error line for ``code``, in ``lang`` (None without one).

    >>> lobby_error("taken", "en")
    'That did not work: someone has just taken that seat.'
    >>> lobby_error("rounds", "de")
    'Das hat nicht geklappt: „rounds“ muss eine ganze Zahl sein.'
    """
    if not code:
        return None
    if code in LOBBY_ERRORS:
        return translate(lang, LOBBY_ERRORS[code])
    if re.fullmatch(r"[a-z_]{1,40}", code):
        return translate(lang, "That did not work: “{option}” must be a whole number.", option=code)
    return translate(lang, "That did not work: the seat is taken or a value is wrong.")


def _public_ok(table: LiveTable) -> bool:
    try:
        table.state.view(None)
    except Exception:
        return False
    return True


def _here(request: Request) -> str:
    """The page's own path without its query (the query may hold a token)."""
    return request.url.path


def _safe_next(value: str | None) -> str:
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/"
    return value


def _game_order(game_id: str) -> tuple[int, str]:
    """Oracle first, then Inrah and Codename, then any other game."""
    order = present.games_in_order()
    return (order.index(game_id) if game_id in order else len(order), game_id)


async def _form(request: Request) -> dict[str, str]:
    """A small urlencoded form (no multipart: the pages send none)."""
    body = await request.body()
    if len(body) > 16 * 1024:
        return {}
    pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    return dict(pairs)


def option_fields(game_id: str) -> list[dict[str, Any]]:
    """The lobby's inputs for the options of ``game_id``."""
    defaults = load_game(game_id).options
    schema = game_class(game_id).option_schema
    players = next((option for option in schema if option.name == "players"), None)
    counts = (
        range(players.minimum, players.maximum + 1)
        if players is not None and players.minimum is not None and players.maximum is not None
        else range(0)
    )
    fields = []
    for option in schema:
        kind = "bool" if option.kind is bool else "int" if option.kind is int else "str"
        # A number whose default follows the player count (Inrah's elements
        # and rounds, Oracle's rounds) is left empty, its default a
        # placeholder the page keeps in step: a value filled in for four
        # players was sent for six, and the table could not be made.
        per_players: dict[int, Any] = {}
        if kind == "int" and callable(option.default) and option.name != "players":
            for count in counts:
                with contextlib.suppress(OraclesError):
                    per_players[count] = load_game(game_id, players=count).options[option.name]
        words = present.option_words(game_id, option.name)
        choices = words["choices"]
        if choices is None and option.choices:
            choices = tuple((value, value) for value in option.choices)
        fields.append(
            {
                "name": option.name,
                "kind": kind,
                "default": defaults.get(option.name),
                "minimum": option.minimum,
                "maximum": option.maximum,
                # (value, label) pairs, the labels to translate.
                "choices": choices,
                "label": words["label"],
                "help": words["help"],
                "per_players": per_players,
            }
        )
    return fields


def web_routes(
    hub: TableHub[T],
    parse_seats: Callable[[Any, Any], Any],
    table_error: type[Exception],
    hints: HintDesk[T] | None = None,
) -> list[BaseRoute]:
    """The page routes. ``hub`` is the server's table hub, ``parse_seats``
    its reader of seat lists, ``table_error`` the error it raises for a
    table that cannot be made and ``hints`` its hint desk
    (``oracles.server.hints.Hints``; passed in, so the web package does not
    import the server's)."""
    invites = hub.invites
    if invites is None:
        raise ValueError("the hub has no invite desk: create_app sets one before the pages")
    # Compile every template now, once: not later in the server's thread.
    env = environment()
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)

    async def lobby(request: Request) -> Response:
        games = [
            {
                "id": gid,
                "title": present.game_title(gid),
                "blurb": present.game_blurb(gid),
                "options": option_fields(gid),
                "max_players": getattr(game_class(gid), "max_players", 6),
            }
            for gid in sorted(game_ids(), key=_game_order)
        ]
        tables = []
        for summary in await hub.lobby():
            tables.append({**summary, "open": [s["seat"] for s in summary["seats"] if s.get("open")]})
        tables.sort(key=lambda t: (not t["open"], t["id"]))
        return render(
            request,
            "lobby.html",
            games=games,
            tables=tables[:50],
            bots={gid: present.bot_levels(gid) for gid in game_ids()},
            error=lobby_error(request.query_params.get("error"), language(request)),
        )

    async def new_table(request: Request) -> Response:
        form = await _form(request)
        game_id = str(form.get("game", ""))
        if game_id not in game_ids():
            return RedirectResponse("/?error=game", status_code=303)
        options: dict[str, Any] = {}
        seats: list[str] = []
        if form.get("quick"):
            count = load_game(game_id).num_players
            seats = ["human"] + [present.default_bot(game_id)] * (count - 1)
        else:
            for option in game_class(game_id).option_schema:
                raw = form.get(f"{game_id}.{option.name}")
                if option.kind is bool:
                    options[option.name] = raw is not None
                elif raw is None or str(raw).strip() == "":
                    continue
                elif option.kind is int:
                    try:
                        options[option.name] = int(str(raw))
                    except ValueError:
                        return RedirectResponse(f"/?error={option.name}", status_code=303)
                else:
                    options[option.name] = str(raw)
            try:
                # Held to the server's bounds before the game reads them (an
                # edition is a shipped name here, never a file to open).
                check_remote_options(game_id, game_class(game_id).option_schema, options)
                count = load_game(game_id, **options).num_players
            except OraclesError as error:
                return render(request, "error.html", 422, message=str(error))
            for index in range(count):
                kind = str(
                    form.get(
                        f"{game_id}.seat{index}", "human" if index == 0 else present.default_bot(game_id)
                    )
                )
                seats.append(kind)
        # The creator takes the first person's seat; the others wait for
        # their people, who come by their invite links.
        humans = [index for index, kind in enumerate(seats) if kind.strip().lower() == "human"]
        names: list[str | None] | None = None
        if humans and str(form.get("name", "")).strip():
            names = [str(form["name"]) if index == humans[0] else None for index in range(len(seats))]
        hours = str(form.get("turn_hours", "")).strip()
        turn_based = hours.isdigit() and 1 <= int(hours) <= 720
        raw_clock = str(form.get("clock", "")).strip()
        clock = int(raw_clock) if raw_clock.isdigit() and 1 <= int(raw_clock) <= 3600 else None
        try:
            client = request.client.host if request.client else "unknown"
            table, tokens = await hub.create(
                game_id,
                options,
                parse_seats(seats, names),
                client=client,
                creator_seat=humans[0] if humans else None,
                waiting=len(humans) > 1,
                listed=not form.get("private"),
                clock=int(hours) * 3600 if turn_based else clock,
                turn_based=turn_based,
                spectator_chat="none" if form.get("spectator_chat") == "none" else "own",
            )
        except table_error as error:
            return render(request, "error.html", getattr(error, "status", 422), message=str(error))
        if form.get("hints") and hints is not None:
            await hints.enable(table.id)
        # The other seats' tokens are dropped: their people get their own
        # when they claim the seats.
        mine = tokens[humans[0]] if humans else None
        if mine is None:
            return RedirectResponse(f"/t/{table.id}", status_code=303)
        return RedirectResponse(f"/t/{table.id}?token={mine}", status_code=303)

    async def join(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        try:
            hub.join_limiter.hit(request.client.host if request.client else "unknown")
        except table_error as error:
            return render(request, "error.html", getattr(error, "status", 429), message=str(error))
        form = await _form(request)
        status, answer = await invites.join(table_id, {"seat": seat, "name": form.get("name") or None})
        if status != 200:
            why = {404: "gone", 409: "taken"}.get(status, "name")
            return RedirectResponse(f"/?error={why}", status_code=303)
        return RedirectResponse(str(answer["url"]), status_code=303)

    async def _find(request: Request) -> tuple[T, int | None, str | None] | None:
        table = await hub.read(request.path_params["table_id"])
        if table is None:
            return None
        token = request.query_params.get("token")
        seat = await invites.seat_of(table, token) if token else None
        if token and seat is None:
            return None
        return table, seat, token

    async def hint_facts(table: LiveTable) -> dict[str, Any]:
        """Whether hints are on at ``table`` and, once the game is over, the
        hints each seat took (for the summary)."""
        if hints is None or not await hints.enabled(table.id):
            return {"hints_on": False}
        taken = await hints.taken(table.id, len(table.seats)) if table.finished else None
        return {"hints_on": True, "hints_taken": taken}

    async def closed_deals(request: Request, table: T) -> Response | None:
        """The refusal of a finished game whose deals are being played at
        another table (``Hub.deals_in_play``), for all but its own seats."""
        if table.finished and await hub.deals_in_play(table):
            message = translate(language(request), DEALS_IN_PLAY)
            return render(request, "error.html", 409, message=message)
        return None

    async def table_page(request: Request) -> Response:
        found = await _find(request)
        if found is None:
            return render(request, "error.html", 404, message=translate(language(request), "No such table."))
        table, seat, token = found
        if seat is None and (closed := await closed_deals(request, table)) is not None:
            return closed
        board = board_context(table, seat, language(request))
        board.update(await hint_facts(table))
        return render(
            request,
            "table.html",
            table=table,
            seat=seat,
            token=token or "",
            board=board,
            title=present.game_title(table.game_id),
            friends=table_friends(table, seat, token, str(request.base_url)),
        )

    async def your_tables(request: Request) -> Response:
        """The lobby's "Your tables": a line for each table this browser
        holds a seat at (``?t=<id>:<seat>``, repeated, newest first, from
        its localStorage), each table once, its players named in the page's
        language. Tokens stay in the browser: friends.js adds them to the
        links. The ids of tables that are gone are answered apart, so the
        browser forgets them."""
        lang = language(request)
        entries: list[dict[str, Any]] = []
        gone: list[str] = []
        seen: set[str] = set()
        for held in request.query_params.getlist("t")[:YOUR_TABLES]:
            table_id, _, seat_text = held.partition(":")
            if table_id in seen or not seat_text.isdigit():
                continue
            seen.add(table_id)
            table = await hub.read(table_id)
            seat = int(seat_text)
            if table is None or seat >= len(table.seats):
                gone.append(table_id)
                continue
            names = present.seat_names(table.seats_info(), lang, table.game_id)
            to_move = None if table.finished else table.state.current_player()
            entries.append(
                {
                    "id": table.id,
                    "title": present.game_title(table.game_id),
                    "others": [name for index, name in enumerate(names) if index != seat],
                    "finished": table.finished,
                    "waiting": bool(table.waiting),
                    "your_turn": to_move == seat,
                    "to_move": names[to_move] if to_move is not None and 0 <= to_move < len(names) else None,
                    "version": table.version,
                }
            )
        html = render_text("your_tables.html", lang, _here(request), entries=entries)
        return JSONResponse({"html": html, "gone": gone}, headers={"cache-control": "no-store"})

    async def invite_page(request: Request) -> Response:
        """A seat's invite link: pick a name and sit down (``/join``)."""
        table = await hub.read(request.path_params["table_id"])
        seat = request.path_params["seat"]
        if table is None or not 0 <= seat < len(table.seats):
            return render(request, "error.html", 404, message=translate(language(request), "No such table."))
        place = table.seats[seat]
        free = place.kind == "human" and not place.claimed and not table.finished and table.rematch_of is None
        return render(
            request,
            "invite.html",
            409 if not free else 200,
            table=table,
            seat=seat,
            open=free,
            title=present.game_title(table.game_id),
        )

    async def board(request: Request) -> Response:
        found = await _find(request)
        if found is None:
            return HTMLResponse("", status_code=404)
        table, seat, _ = found
        if seat is None and table.finished and await hub.deals_in_play(table):
            return HTMLResponse("", status_code=409)
        board = board_context(table, seat, language(request))
        board.update(await hint_facts(table))
        return render(request, "board.html", board=board)

    async def replay(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = await hub.read(table_id)
        if table is None:
            return render(request, "error.html", 404, message=translate(language(request), "No such table."))
        if not table.finished:
            return render(
                request,
                "error.html",
                409,
                message=translate(language(request), "The replay opens when the game is over."),
            )
        if (closed := await closed_deals(request, table)) is not None:
            return closed
        record = table.record()
        actions = record["actions"]
        try:
            step = int(request.query_params.get("step", len(actions)))
        except ValueError:
            step = len(actions)
        step = max(0, min(step, len(actions)))
        state = load_game(record["game"], **record["options"]).new_initial_state()
        for text in actions[:step]:
            state.apply_string(text)
        seats = []
        views: list[dict[str, Any]] = []
        players = state.num_players
        for index in range(players):
            view = state.view(index)
            views.append(view)
            seats.append({"seat": index, "view": view})
        names = present.seat_names(table.seats_info(), language(request), table.game_id)
        review_seat = None
        raw_review = request.query_params.get("review", "")
        if raw_review.isdigit() and int(raw_review) < players:
            review_seat = int(raw_review)
        review_state, marks = "off", None
        if review_seat is not None and hints is not None:
            review_state, marks = hints.review(table, review_seat)
        return render(
            request,
            "replay.html",
            review_seat=review_seat,
            review_state=review_state,
            marks=marks or [],
            mark_here=next((m for m in marks or [] if m["index"] + 1 == step), None),
            query_review="" if review_seat is None else f"&review={review_seat}",
            table=table,
            record=record,
            step=step,
            total=len(actions),
            action=actions[step - 1] if step else None,
            actions=actions,
            seats=seats,
            names=names,
            played=state.game,
            board={
                "unavailable": False,
                "game": table.game_id,
                # The game is over (above): each seat's own things may show.
                "view": present.replay_view(table.game_id, views),
                "legal": [],
                "clicks": [],
                "verbs": [],
                "moves": [],
                "own_templates": game_part(table.game_id, "templates") is not None,
                "version": step,
                "seat": 0,
                "names": names,
                "seats_info": table.seats_info(),
                "finished": step == len(actions),
                "table_id": table.id,
                "replay": True,
            },
            title=present.game_title(table.game_id),
        )

    async def rules(request: Request) -> Response:
        game_id = request.path_params["game"]
        if game_id not in game_ids():
            # "/rules/Oracle", as a person types it: the page's own address.
            if game_id.lower() in game_ids():
                return RedirectResponse(f"/rules/{game_id.lower()}", status_code=308)
            return render(request, "error.html", 404, message=translate(language(request), "No such game."))
        return render(request, "rules.html", game=game_id, title=present.game_title(game_id))

    async def set_language(request: Request) -> Response:
        lang = request.path_params["lang"]
        target = _safe_next(request.query_params.get("next"))
        response = RedirectResponse(target, status_code=303)
        if lang in LANGUAGES:
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    return [
        Route("/", lobby),
        Route("/new", new_table, methods=["POST"]),
        Route("/join/{table_id}/{seat:int}", join, methods=["POST"]),
        Route("/your-tables", your_tables),
        Route("/t/{table_id}", table_page),
        Route("/t/{table_id}/board", board),
        Route("/t/{table_id}/seat/{seat:int}", invite_page),
        Route("/replay/{table_id}", replay),
        Route("/rules/{game}", rules),
        Route("/lang/{lang}", set_language),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
