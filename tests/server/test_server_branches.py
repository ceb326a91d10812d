"""Branches over the real server: a table on another's deals
(``deals_from``), its comparison, and a table played on from a position of a
finished one (``from``)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http, play_randomly
from test_server_leaks import check_seat_messages, states_by_version
from test_server_protocol import create, seat_url

from oracles.core.records import chance_actions, replay_record, round_points

#: (game, options, seats of the tables): several option sets of both games
OPTION_SETS = [
    ("oracle", {"rounds": 1}, ["bot:random"] * 4),
    ("oracle", {"players": 3, "rounds": 2}, ["bot:random"] * 3),
    ("inrah", {"players": 3, "rounds": 4}, ["bot:random"] * 3),
    ("inrah", {"players": 4, "rounds": 3, "variant": "altaia"}, ["bot:random"] * 4),
]


def finished(server: ThreadServer, table_id: str, timeout: float = 120) -> dict[str, Any]:
    """Wait for a table of bots to end; its record."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, body, _ = http(server.base, "GET", f"/api/tables/{table_id}/record")
        if status == 200:
            return body  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise TimeoutError(f"table {table_id} did not end")


def origin_table(
    server: ThreadServer, game: str, options: dict[str, Any], seats: list[str]
) -> dict[str, Any]:
    table = create(server, game, options, seats)
    return {"id": table["id"], "record": finished(server, table["id"])}


@pytest.mark.parametrize(("game", "options", "seats"), OPTION_SETS)
def test_same_deals_table_plays_the_origin_chance(
    start_server: Any, game: str, options: dict[str, Any], seats: list[str]
) -> None:
    server = start_server()
    origin = origin_table(server, game, options, seats)
    table = create(server, game, {}, ["bot:heuristic"] * len(seats), deals_from=origin["id"])
    record = finished(server, table["id"])
    assert record["options"] == origin["record"]["options"]
    assert chance_actions(record) == chance_actions(origin["record"])
    assert record["actions"] != origin["record"]["actions"]  # other bots, other play
    status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
    assert status == 200 and summary["deals_from"] == origin["id"]


def test_same_deals_players_learn_nothing_in_advance(start_server: Any) -> None:
    server = start_server()
    origin = origin_table(server, "inrah", {"players": 3, "rounds": 4}, ["bot:random"] * 3)
    seats = ["human", "human", "bot:random"]
    table = create(server, "inrah", {}, seats, deals_from=origin["id"])
    assert origin["id"] not in json.dumps(table)
    status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
    assert status == 200 and origin["id"] not in json.dumps(summary)
    _, lobby, _ = http(server.base, "GET", "/api/tables")
    assert table["id"] in json.dumps(lobby) and origin["id"] not in json.dumps(lobby)
    status, body, _ = http(server.base, "GET", f"/api/tables/{table['id']}/compare")
    assert status == 409 and origin["id"] not in json.dumps(body)

    async def scenario() -> list[Client]:
        clients = [Client(seat_url(server, table, seat)) for seat in (0, 1)]
        try:
            for client in clients:
                await client.connect()
            await asyncio.gather(
                *(play_randomly(c, random.Random(f"same{i}"), tag=f"s{i}-") for i, c in enumerate(clients))
            )
            for client in clients:
                await client.drain(0.1)
        finally:
            for client in clients:
                await client.close()
        return clients

    clients = asyncio.run(scenario())
    record = finished(server, table["id"])
    assert chance_actions(record) == chance_actions(origin["record"])
    states = states_by_version(record)
    # Every state a seat got is exactly its view then: nothing of a later deal.
    for seat, client in enumerate(clients):
        assert check_seat_messages("inrah", seat, client.received, states, record) > 3
        assert not any(origin["id"] in json.dumps(message) for message in client.received)


def test_compare_answers_409_then_the_points_per_round(start_server: Any) -> None:
    server = start_server()
    origin = origin_table(server, "oracle", {"rounds": 2}, ["bot:random"] * 4)
    table = create(
        server, "oracle", {}, ["human", "bot:random", "bot:random", "bot:random"], deals_from=origin["id"]
    )
    status, body, _ = http(server.base, "GET", f"/api/tables/{table['id']}/compare")
    assert status == 409 and "error" in body

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await play_randomly(client, random.Random(7))

    asyncio.run(scenario())
    record = finished(server, table["id"])
    status, body, _ = http(server.base, "GET", f"/api/tables/{table['id']}/compare")
    assert status == 200, body
    assert body["tables"] == [table["id"], origin["id"]]
    mine, theirs = round_points(record), round_points(origin["record"])
    assert len(mine) == 2
    assert body["rounds"] == [{"round": r + 1, "scores": [mine[r], theirs[r]]} for r in range(2)]
    status, body, _ = http(server.base, "GET", f"/api/tables/{origin['id']}/compare")
    assert status == 404 and "error" in body


def test_bad_branch_requests_answer_422(start_server: Any) -> None:
    server = start_server()
    duel = create(server, "codename", {"max_turns": 20}, ["bot:random", "bot:random"])
    finished(server, duel["id"])
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "codename", "seats": ["human", "human"], "deals_from": duel["id"]},
    )
    assert status == 422 and "same deals" in body["error"]
    playing = create(server, "inrah", {"players": 3}, ["human", "bot:random", "bot:random"])
    origin = origin_table(server, "inrah", {"players": 3, "rounds": 2}, ["bot:random"] * 3)
    bad: list[dict[str, Any]] = [
        {"game": "inrah", "seats": ["human"] * 3, "deals_from": playing["id"]},
        {"game": "inrah", "seats": ["human"] * 3, "deals_from": "nosuchtable"},
        {"game": "oracle", "seats": ["human"] * 3, "deals_from": origin["id"]},
        {"game": "inrah", "seats": ["human"] * 4, "deals_from": origin["id"]},
        {"game": "inrah", "options": {"rounds": 3}, "seats": ["human"] * 3, "deals_from": origin["id"]},
        {"game": "inrah", "seats": ["human"] * 3, "deals_from": 7},
        {"game": "inrah", "seats": ["human"] * 3, "from": {"table": origin["id"]}},
        {"game": "inrah", "seats": ["human"] * 3, "from": {"table": origin["id"], "version": 10**6}},
        {"game": "inrah", "seats": ["human"] * 3, "from": {"table": origin["id"], "version": True}},
        {
            "game": "inrah",
            "seats": ["human"] * 3,
            "deals_from": origin["id"],
            "from": {"table": origin["id"], "version": 3},
        },
    ]
    for request in bad:
        status, body, _ = http(server.base, "POST", "/api/tables", request)
        assert status == 422 and isinstance(body.get("error"), str), (request, body)


@pytest.mark.parametrize(
    ("game", "options"), [("oracle", {"rounds": 2}), ("inrah", {"players": 4, "rounds": 3})]
)
def test_from_starts_at_the_version_and_its_record_replays(
    start_server: Any, game: str, options: dict[str, Any]
) -> None:
    server = start_server()
    origin = origin_table(server, game, options, ["bot:random"] * 4)
    actions = origin["record"]["actions"]
    version = 12  # the twelfth move; on to the next decision if chance is due there
    while replay_record({**origin["record"], "actions": actions[:version]}).is_chance_node():
        version += 1
    start = {"from": {"table": origin["id"], "version": version}}
    table = create(server, game, {}, ["human", "bot:random", "bot:random", "bot:random"], **start)

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            first = await client.recv_type("state")
            assert first["version"] >= version
            await play_randomly(client, random.Random(3))

    asyncio.run(scenario())
    record = finished(server, table["id"])
    assert record["actions"][:version] == origin["record"]["actions"][:version]
    assert replay_record(record).is_terminal()
    # Neither game's deals depend on the play: every later deal follows the origin.
    assert chance_actions(record) == chance_actions(origin["record"])
    # (Made last: while a game on the origin's deals is played, no other
    # can start from its record, see the test of closed games below.)
    waiting = create(server, game, {}, ["human"] * 4, **start)  # nobody moves: it stays where it starts
    status, summary, _ = http(server.base, "GET", f"/api/tables/{waiting['id']}")
    assert status == 200 and summary["version"] == version and summary["status"] == "playing"
    assert summary["from"] == {"table": origin["id"], "version": version}


def test_a_restarted_server_keeps_following_the_deals(start_server: Any, new_db: Any) -> None:
    database = new_db()
    first = start_server(db=database)
    origin = origin_table(first, "inrah", {"players": 3, "rounds": 3}, ["bot:random"] * 3)
    table = create(first, "inrah", {}, ["human", "bot:random", "bot:random"], deals_from=origin["id"])
    first.__exit__(None, None, None)  # the process goes away mid-game
    second = start_server(db=database)

    async def scenario() -> None:
        async with Client(seat_url(second, table, 0)) as client:
            await play_randomly(client, random.Random(11))

    asyncio.run(scenario())
    record = finished(second, table["id"])
    assert chance_actions(record) == chance_actions(origin["record"])


def post_form(server: ThreadServer, path: str, fields: dict[str, str]) -> tuple[int, str]:
    """A form POST whose redirect is not followed: status and Location."""
    import urllib.error
    import urllib.parse
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    request = urllib.request.Request(
        server.base + path,
        data=urllib.parse.urlencode(fields).encode(),
        method="POST",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=20) as response:
            return response.status, response.headers.get("location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("location", "")


def test_pages_challenge_compare_and_play_on(start_server: Any) -> None:
    server = start_server()
    origin = origin_table(server, "oracle", {"rounds": 2}, ["bot:random"] * 4)
    status, page, _ = http(server.base, "GET", f"/replay/{origin['id']}?step=12")
    assert status == 200 and 'id="play-on"' in page and 'id="same-deals"' in page
    status, location = post_form(server, f"/branch/{origin['id']}", {"kind": "deals"})
    assert status == 303 and location.startswith("/t/")
    new_id = location.split("/t/")[1].split("?")[0]
    status, page, _ = http(server.base, "GET", f"/compare/{new_id}/{origin['id']}")
    assert status in (200, 409)  # the bots may already be done
    record = finished(server, new_id)
    assert chance_actions(record) == chance_actions(origin["record"])
    status, page, _ = http(server.base, "GET", f"/compare/{new_id}/{origin['id']}")
    assert status == 200
    mine, theirs = round_points(record), round_points(origin["record"])
    for number in (1, 2):
        for seat in range(4):
            assert f'data-round="{number}" data-seat="{seat}"' in page
    assert page.count('data-points="') == 2 * 4 * 2
    shown = [float(chunk.split('"')[0]) for chunk in page.split('data-points="')[1:]]
    # Row by row: round 1 seat 0 at A and B, round 1 seat 1 ...; table A is
    # the one whose deals were played, as on the series page.
    assert shown == [
        float(p) for r in range(2) for seat in range(4) for p in (theirs[r][seat], mine[r][seat])
    ]
    # No word of Codename under Oracle's or Inrah's comparison: a new player read
    # "Codename cannot be compared" there as about the game at hand.
    assert "Codename cannot be compared" not in page
    status, page, _ = http(server.base, "GET", f"/replay/{new_id}")
    assert f'href="/compare/{new_id}/{origin["id"]}"' in page
    status, location = post_form(server, f"/branch/{origin['id']}", {"kind": "from", "version": "12"})
    assert status == 303 and "?token=" in location
    branch_id = location.split("/t/")[1].split("?")[0]
    status, summary, _ = http(server.base, "GET", f"/api/tables/{branch_id}")
    assert summary["from"] == {"table": origin["id"], "version": 12}
    status, _ = post_form(server, f"/branch/{origin['id']}", {"kind": "from", "version": "x"})
    assert status == 422


def test_play_on_with_a_given_first_move(start_server: Any) -> None:
    """A review mark's "play on from here with the bot's move": the person
    takes the reviewed seat and the move is made for it at once."""
    server = start_server()
    origin = origin_table(server, "inrah", {"players": 3, "rounds": 2}, ["bot:random"] * 3)
    actions = origin["record"]["actions"]
    version = next(
        v
        for v in range(5, len(actions))
        if not replay_record({**origin["record"], "actions": actions[:v]}).is_chance_node()
    )
    seat = replay_record({**origin["record"], "actions": actions[:version]}).current_player()
    move = actions[version]
    fields = {"kind": "from", "version": str(version), "seat": str(seat), "move": move}
    status, location = post_form(server, f"/branch/{origin['id']}", fields)
    assert status == 303 and "?token=" in location
    branch_id = location.split("/t/")[1].split("?")[0]
    status, summary, _ = http(server.base, "GET", f"/api/tables/{branch_id}")
    assert [s["kind"] for s in summary["seats"]] == ["human" if s == seat else "bot" for s in range(3)]
    assert summary["version"] > version
    status, _ = post_form(server, f"/branch/{origin['id']}", {**fields, "move": "bid 99"})
    assert status == 422


def test_a_series_of_three_tables_on_the_same_deals(start_server: Any) -> None:
    """An origin, a table on its deals and a table on that one's (one chain):
    the series sets the two finished ones side by side and lists the third,
    still played, as playing and nothing more."""
    server = start_server()
    origin = origin_table(server, "oracle", {"rounds": 2}, ["bot:random"] * 4)
    second = create(server, "oracle", {}, ["bot:heuristic"] * 4, deals_from=origin["id"])
    second_record = finished(server, second["id"])
    # Seat 0 is a person nobody plays: the third table waits for them.
    third = create(
        server, "oracle", {}, ["human", "bot:random", "bot:random", "bot:random"], deals_from=second["id"]
    )
    # While the third plays, the finished tables on its deals are closed:
    # its player would find them by their first deal and read the rest.
    status, refused, _ = http(server.base, "GET", f"/api/tables/{origin['id']}/series")
    assert status == 409 and third["id"] not in json.dumps(refused), refused
    status, page, _ = http(server.base, "GET", f"/series/{origin['id']}")
    assert status == 409 and third["id"] not in page

    async def play_third() -> None:
        async with Client(seat_url(server, third, 0)) as client:
            await play_randomly(client, random.Random(3))

    asyncio.run(play_third())
    third_record = finished(server, third["id"])
    status, body, _ = http(server.base, "GET", f"/api/tables/{origin['id']}/series")
    assert status == 200, body
    assert body["origin"] == origin["id"] and body["game"] == "oracle"
    assert [t["status"] for t in body["tables"]] == ["finished"] * 3
    assert [t.get("id") for t in body["tables"]] == [origin["id"], second["id"], third["id"]]
    records = [origin["record"], second_record, third_record]
    points = [round_points(record) for record in records]
    assert [r["round"] for r in body["rounds"]] == [1, 2]
    for index, row in enumerate(body["rounds"]):
        assert row["scores"] == [p[index] for p in points]
        assert all(len(f) == 4 for f in row["first"])
        assert len(row["hands"]) == 4 and all(row["hands"])
        for seat in range(4):
            got = [p[index][seat] for p in points]
            assert row["best"][seat] == (
                [] if len(set(got)) == 1 else [i for i, g in enumerate(got) if g == max(got)]
            )
    totals = [replay_record(record).scores() for record in records]
    assert [t["totals"] for t in body["tables"]] == [list(t) for t in totals]
    # Any finished table of the series answers the same series.
    status, again, _ = http(server.base, "GET", f"/api/tables/{second['id']}/series")
    assert status == 200 and again == body
    status, page, _ = http(server.base, "GET", f"/series/{origin['id']}")
    assert status == 200 and page.count('data-status="finished"') == 3
    assert page.count('data-points="') == 2 * 4 * 3  # two rounds, four seats, three finished tables
    # The two-table comparison is as it was.
    status, compared, _ = http(server.base, "GET", f"/api/tables/{second['id']}/compare")
    assert status == 200 and compared["tables"] == [second["id"], origin["id"]]
    status, page, _ = http(server.base, "GET", f"/compare/{second['id']}/{origin['id']}")
    assert status == 200 and f'href="/series/{origin["id"]}"' in page  # table A, the origin
    # A fourth table on the deals, being played: its series answers 409 and
    # names none of the others; theirs close again.
    fourth = create(
        server, "oracle", {}, ["human", "bot:random", "bot:random", "bot:random"], deals_from=origin["id"]
    )
    status, refused, _ = http(server.base, "GET", f"/api/tables/{fourth['id']}/series")
    assert status == 409 and not any(
        t in json.dumps(refused) for t in (origin["id"], second["id"], third["id"])
    )
    status, page, _ = http(server.base, "GET", f"/series/{fourth['id']}")
    assert status == 409 and origin["id"] not in page and second["id"] not in page
    for path in (f"/api/tables/{second['id']}/series", f"/api/tables/{second['id']}/compare"):
        assert http(server.base, "GET", path)[0] == 409, path


def test_a_finished_game_is_closed_while_its_deals_are_played_elsewhere(
    start_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression (a hostile client's find): a player at a same-deals table
    read the public record of every finished table, found the one whose
    first deal was their own hand, and so knew every later deal before it
    was dealt. While a game on those deals is played, the finished tables
    on them show nothing of their play to anyone but their own seats."""
    server = start_server()
    origin = origin_table(server, "inrah", {"players": 3, "rounds": 3}, ["bot:random"] * 3)
    challenge = create(server, "inrah", {}, ["human", "bot:random", "bot:random"], deals_from=origin["id"])
    oid = origin["id"]
    for path in (f"/api/tables/{oid}/record", f"/api/tables/{oid}/series"):
        status, body, _ = http(server.base, "GET", path)
        assert status == 409 and "being played at another table" in body["error"], (path, body)
    for path in (f"/replay/{oid}", f"/t/{oid}", f"/t/{oid}/board", f"/series/{oid}"):
        status, page, _ = http(server.base, "GET", path)
        assert status == 409, path
        assert "plays" not in page and "fire-" not in page and "water-" not in page, path
    status, page, _ = http(server.base, "GET", f"/replay/{oid}", headers={"Accept-Language": "de"})
    assert "an einem anderen Tisch gespielt" in page
    # Nor a spectator's socket, nor a game played on from the record.

    async def spectate() -> None:
        watcher = Client(f"{server.ws_base}/ws/tables/{oid}")
        with pytest.raises(Exception):  # noqa: B017 - the handshake is denied (409)
            await watcher.connect()

    asyncio.run(spectate())
    # A refusal is no server error (uvicorn logged one for each, at ERROR).
    assert not [r for r in caplog.records if "without completing handshake" in r.getMessage()]
    status, body, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "inrah", "seats": ["human"] * 3, "from": {"table": oid, "version": 8}},
    )
    assert status == 422 and "being played at another table" in body["error"], body
    # Its play over, everything opens again.

    async def play_challenge() -> None:
        async with Client(seat_url(server, challenge, 0)) as client:
            await play_randomly(client, random.Random(5))

    asyncio.run(play_challenge())
    finished(server, challenge["id"])
    assert http(server.base, "GET", f"/api/tables/{oid}/record")[0] == 200
    for path in (f"/replay/{oid}", f"/t/{oid}", f"/series/{oid}"):
        assert http(server.base, "GET", path)[0] == 200, path


def test_compare_and_series_pages_show_trumps_players_and_named_totals(start_server: Any) -> None:
    """Regression: the comparison named its tables by id alone, its total
    row listed the scores with no seat to them ("12 / 5 / 3"), and neither
    page showed Inrah's trump card, which decides what a hand is worth."""
    server = start_server()
    origin = origin_table(server, "inrah", {"players": 3, "rounds": 2}, ["bot:random"] * 3)
    second = create(server, "inrah", {}, ["bot:heuristic"] * 3, deals_from=origin["id"])
    second_record = finished(server, second["id"])
    final = replay_record(origin["record"])
    state = final.game.new_initial_state()
    trumps = []  # each round's trump card, as turned up
    for action in final.history():
        before = state.view(None).get("trump_card")
        state.apply_action(action)
        after = state.view(None).get("trump_card")
        if after and after != before:
            trumps.append(after)
    assert len(trumps) == 2
    for path in (f"/compare/{second['id']}/{origin['id']}", f"/series/{origin['id']}"):
        status, page, _ = http(server.base, "GET", path)
        assert status == 200, path
        shown = re.findall(r'<span class="round-trump" data-trump="([^"]+)">', page)
        assert shown == trumps, (path, shown)
    status, page, _ = http(server.base, "GET", f"/compare/{second['id']}/{origin['id']}")
    # Each table by its players, linked to its replay.
    assert re.search(
        rf'<li data-table="{origin["id"]}">[^<]*<a href="/replay/{origin["id"]}">[^<]*Bot\b', page
    )
    # A total per seat, with the seat's names and who did better.
    totals = [replay_record(origin["record"]).scores(), replay_record(second_record).scores()]
    for seat in range(3):
        row = re.search(rf'<tr data-total-seat="{seat}">(.*?)</tr>', page, re.S)
        assert row is not None
        assert re.findall(r'data-total="([^"]+)"', row.group(1)) == [
            str(totals[0][seat]),
            str(totals[1][seat]),
        ]
        assert re.search(r'class="seat">\w+ Bot', row.group(1))


def test_series_answers_for_a_lone_table_and_refuses_codename(start_server: Any) -> None:
    server = start_server()
    lone = origin_table(server, "inrah", {"players": 3, "rounds": 2}, ["bot:random"] * 3)
    status, body, _ = http(server.base, "GET", f"/api/tables/{lone['id']}/series")
    assert status == 200 and [t["id"] for t in body["tables"]] == [lone["id"]]
    assert all(row["best"] == [[], [], []] for row in body["rounds"])
    status, page, _ = http(server.base, "GET", f"/series/{lone['id']}")
    assert status == 200 and 'id="series-alone"' in page
    duel = create(server, "codename", {"max_turns": 20}, ["bot:random", "bot:random"])
    finished(server, duel["id"])
    status, body, _ = http(server.base, "GET", f"/api/tables/{duel['id']}/series")
    assert status == 422 and "error" in body
    status, page, _ = http(server.base, "GET", f"/series/{duel['id']}")
    assert status == 422 and "Codename cannot be compared" in page
    status, body, _ = http(server.base, "GET", "/api/tables/nosuchtable/series")
    assert status == 404
    status, page, _ = http(server.base, "GET", f"/replay/{duel['id']}")
    assert 'id="same-deals-none"' in page and 'id="same-deals"' not in page
    status, page, _ = http(server.base, "GET", f"/t/{duel['id']}")  # the end-of-game panel says why
    assert status == 200 and 'id="same-deals-none"' in page and 'id="same-deals"' not in page
    status, page, _ = http(server.base, "GET", f"/t/{lone['id']}")
    assert status == 200 and 'id="same-deals"' in page and f'href="/series/{lone["id"]}"' in page
