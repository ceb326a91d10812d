"""The web pages over plain HTTP (no browser): what each page holds."""

from __future__ import annotations

import re
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any
from unittest.mock import ANY

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))

from serverkit import http


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post_form(base: str, path: str, fields: dict[str, str]) -> tuple[int, str]:
    opener = urllib.request.build_opener(NoRedirect)
    data = urllib.parse.urlencode(fields).encode()
    try:
        with opener.open(base + path, data=data, timeout=20) as response:
            return response.status, response.headers.get("location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("location", "")


def test_lobby_lists_games_options_and_bots(server: Any) -> None:
    status, page, headers = http(server.base, "GET", "/")
    assert status == 200
    assert '<html lang="en">' in page
    for game in ("oracle", "inrah", "codename"):
        assert f'data-quick="{game}"' in page
        assert f'name="{game}.players"' in page
    assert "bot:ismcts:iterations=1000:seconds=1.5" in page  # Oracle's Master, from the ladder
    assert headers.get("referrer-policy") == "no-referrer"


def test_quick_table_and_its_board_hold_only_the_seat(server: Any) -> None:
    status, location = post_form(server.base, "/new", {"game": "oracle", "quick": "1"})
    assert status == 303 and location.startswith("/t/") and "token=" in location
    status, page, _ = http(server.base, "GET", location)
    assert status == 200
    assert 'data-version="' in page and 'name="move"' in page
    table_id = location.split("/")[2].split("?")[0]
    token = location.split("token=")[1]
    status, board, _ = http(server.base, "GET", f"/t/{table_id}/board?token={token}")
    assert status == 200
    # Seat 1 keeps its prophecies before any card is played: the board
    # holds its 15 cards and no other.
    assert 'class="hand"' in board
    assert len(re.findall(r'class="card [a-z]+( legal)?"', board)) == 15
    # A wrong token is refused; no token is a spectator.
    assert http(server.base, "GET", f"/t/{table_id}?token=nope")[0] == 404
    status, watch, _ = http(server.base, "GET", f"/t/{table_id}")
    assert status == 200 and 'class="hand"' not in watch


def test_bad_requests(server: Any) -> None:
    assert http(server.base, "GET", "/t/nosuchtable")[0] == 404
    assert http(server.base, "GET", "/rules/chess")[0] == 404
    # A game's name as a person types it leads to its rules' own address.
    assert http(server.base, "GET", "/rules/Oracle")[0] == 200
    assert post_form(server.base, "/new", {"game": "chess"}) == (303, "/?error=game")
    assert post_form(server.base, "/join/none/1", {})[1] == "/?error=gone"  # no such table
    status, _, _ = http(server.base, "GET", "/t/" + "x" * 40)
    assert status == 404


def test_an_address_no_page_answers(server: Any) -> None:
    """Regression (session 30): a mistyped address ("/lobby", "/t/") got
    the framework's bare "Not Found" text; now the site's error page in the
    reader's language with the way back to the lobby, and under /api/ the
    API's JSON error."""
    status, page, headers = http(server.base, "GET", "/lobby", headers={"Accept-Language": "de"})
    assert status == 404 and headers["content-type"].startswith("text/html")
    assert '<html lang="de">' in page and "Unter dieser Adresse gibt es keine Seite." in page
    assert '<a href="/">Zurück zur Lobby</a>' in page
    assert "keine Seite" in http(server.base, "GET", "/t/", headers={"Accept-Language": "de"})[1]
    status, page, headers = http(server.base, "GET", "/new")
    assert status == 405 and headers["allow"] == "POST" and "There is no page at this address." in page
    assert http(server.base, "GET", "/api/nope") == (404, {"error": "no such address: /api/nope"}, ANY)
    status, body, headers = http(server.base, "DELETE", "/api/tables")
    assert status == 405 and body == {"error": "DELETE is not allowed here: /api/tables"}


def test_rules_and_language(server: Any) -> None:
    for game in ("oracle", "inrah", "codename"):
        status, page, _ = http(server.base, "GET", f"/rules/{game}", headers={"Accept-Language": "de"})
        assert status == 200 and '<html lang="de">' in page and "Regeln" in page
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(server.base + "/lang/de?next=//evil.example/", timeout=10)
    except urllib.error.HTTPError as error:
        assert error.code == 303
        assert error.headers["location"] == "/"
        assert "oracles_lang=de" in error.headers["set-cookie"]


def test_the_rules_pages_picture_the_pieces(server: Any) -> None:
    """The rules show the pieces as the table draws them (they were words
    alone): Oracle's cards of each creature, chips and a prophecy; Inrah's
    fire suit, a Seer, a Mage and one card of each element; Codename's five
    symbols, each named for a screen reader."""
    expected = {
        "oracle": ('class="card ', 6, ('class="chip hydra', 'class="chip loser hydra', 'class="oracle-card')),
        "inrah": ('class="card ', 18, ('aria-label="water seer"', 'aria-label="ice mage"')),
        "codename": ('class="cn-card ', 5, ('aria-label="star"', 'aria-label="cross"')),
    }
    for game, (piece, count, marks) in expected.items():
        status, page, _ = http(server.base, "GET", f"/rules/{game}")
        figure = re.search(r'<figure class="rules-pieces.*?</figure>', page, re.S)
        assert status == 200 and figure is not None, game
        assert figure.group(0).count(piece) == count, (game, figure.group(0).count(piece))
        assert all(mark in figure.group(0) for mark in marks), game
        assert "<figcaption>" in figure.group(0)
    status, page, _ = http(server.base, "GET", "/rules/inrah", headers={"Accept-Language": "de"})
    assert 'aria-label="Wasser Weissagerin"' in page or "Weissagerin" in page


def test_a_lobby_form_that_fails_says_what_was_wrong(server: Any) -> None:
    """Regression: every refused lobby form came back to one sentence ("the
    seat is taken or a value is wrong"), whatever it was."""
    status, location = post_form(server.base, "/new", {"game": "nope"})
    assert status == 303 and location == "/?error=game"
    status, location = post_form(server.base, "/new", {"game": "oracle", "oracle.rounds": "two"})
    assert status == 303 and location == "/?error=rounds"
    status, location = post_form(server.base, "/join/nosuchtable/0", {"name": "Ann"})
    assert status == 303 and location == "/?error=gone"
    for code, words in (
        ("game", "there is no such game"),
        ("rounds", "“rounds” must be a whole number"),
        ("gone", "the table is gone"),
        ("<b>", "the seat is taken or a value is wrong"),
    ):
        status, page, _ = http(server.base, "GET", f"/?error={code}")
        assert status == 200 and words in page, code
    status, page, _ = http(server.base, "GET", "/?error=taken", headers={"Accept-Language": "de"})
    assert "jemand hat diesen Platz gerade genommen" in page


def test_the_lobby_offers_a_move_clock_and_the_board_counts_it_down(server: Any) -> None:
    status, page, _ = http(server.base, "GET", "/")
    assert 'name="clock"' in page
    status, location = post_form(server.base, "/new", {"game": "inrah", "quick": "1", "clock": "20"})
    assert status == 303
    table_id = location.split("/")[2].split("?")[0]
    token = location.split("token=")[1]
    assert http(server.base, "GET", f"/api/tables/{table_id}")[1]["clock"] == 20
    for _ in range(100):
        status, board, _ = http(server.base, "GET", f"/t/{table_id}/board?token={token}")
        if 'data-my-turn="1"' in board:
            break
    found = re.search(r'data-clock-left="([0-9.]+)" data-clock-mine="1"', board)
    assert found and 0 < float(found.group(1)) <= 20


def test_each_state_brings_the_seats_board_in_the_pages_language(server: Any) -> None:
    """A socket that asks for its board (``board=1``, as the page does) gets
    it drawn into every ``state`` in its language, the same board the page
    would fetch; the last one (which lists the hints taken) is fetched, and
    a socket that does not ask gets the bare state."""
    import asyncio
    import random

    from serverkit import Client, play_randomly

    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "oracle", "options": {"rounds": 1}, "seats": ["human"] + ["bot:random"] * 3},
    )
    assert status == 201
    token = table["seats"][0]["token"]
    url = f"{server.ws_base}/ws/tables/{table['id']}?token={token}"
    german = {"Cookie": "oracles_lang=de"}

    async def scenario() -> tuple[Client, Client, str, int]:
        async with Client(url + "&board=1", headers=german) as drawn, Client(url) as bare:
            first = await drawn.recv_type("state")
            # The board the page would fetch now, for the same version.
            _, fetched, _ = http(server.base, "GET", f"/t/{table['id']}/board?token={token}", headers=german)
            await play_randomly(drawn, random.Random(3))
            await bare.drain(0.2)
            return drawn, bare, fetched, first["version"]

    drawn, bare, fetched, first_version = asyncio.run(scenario())
    states = [m for m in drawn.received if m["type"] == "state"]
    assert len(states) > 5
    for message in states:
        if message["status"] == "finished":
            assert "board" not in message
            continue
        board = message["board"]
        assert re.search(r'class="board[^"]*" data-version="(\d+)"', board)[1] == str(message["version"])  # type: ignore[index]
        assert ('data-my-turn="1"' in board) == bool(message["legal"])
        if message["legal"]:
            assert "Du bist dran" in board and "Your turn" not in board
    if f'data-version="{first_version}"' in fetched:
        assert states[0]["board"] == fetched
    assert all("board" not in m for m in bare.received if m["type"] == "state")


def test_a_board_that_cannot_be_drawn_leaves_the_state_whole(server: Any) -> None:
    """A failure drawing the board costs the page its pushed board, never
    the state (the page then fetches the board)."""
    import asyncio

    from serverkit import Client

    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "inrah", "options": {"rounds": 1}, "seats": ["human"] * 3},
    )
    assert status == 201
    url = f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][0]['token']}&board=1"
    hub = server.app.state.hub
    drawn = hub.board_renderer

    def broken(*_: Any) -> str:
        raise RuntimeError("no board today")

    async def first_state() -> dict[str, Any]:
        async with Client(url) as client:
            return await client.recv_type("state")

    hub.board_renderer = broken
    try:
        state = asyncio.run(first_state())
    finally:
        hub.board_renderer = drawn
    assert state["seat"] == 0 and state["view"] and "board" not in state
    assert "board" in asyncio.run(first_state())


def test_the_pushed_board_is_the_fetched_board(server: Any) -> None:
    """At a table where nobody else moves, the board in the first ``state``
    is exactly the one ``/t/<id>/board`` answers for the same seat and language."""
    import asyncio

    from serverkit import Client

    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "inrah", "options": {"rounds": 1}, "seats": ["human"] * 3},
    )
    assert status == 201
    token = table["seats"][1]["token"]
    german = {"Cookie": "oracles_lang=de"}

    async def both() -> tuple[str, str]:
        url = f"{server.ws_base}/ws/tables/{table['id']}?token={token}&board=1"
        async with Client(url, headers=german) as client:
            state = await client.recv_type("state")
            # Fetched while the socket is open: the seat shows as present in
            # both (regression: fetched after it closed, it raced the seat's
            # going away).
            path = f"/t/{table['id']}/board?token={token}"
            _, fetched, _ = await asyncio.to_thread(http, server.base, "GET", path, None, german)
            return state["board"], fetched

    pushed, fetched = asyncio.run(both())
    assert pushed == fetched


def test_one_click_play_seats_the_casual_level_named_so(server: Any) -> None:
    """Inrah's Casual level is a careless heuristic: the quick table seats
    it (not the plain heuristic, which is no level of Inrah's), and the
    table page names those seats by the level, in the viewer's language."""
    from oracles.web import present

    casual = next(level for level in present.bot_levels("inrah") if level.name == "Casual")
    assert casual.spec != "heuristic"
    status, location = post_form(server.base, "/new", {"game": "inrah", "quick": "1"})
    assert status == 303
    table_id = location.split("/")[2].split("?")[0]
    seats = http(server.base, "GET", f"/api/tables/{table_id}")[1]["seats"]
    assert [seat.get("bot") for seat in seats[1:]] == [casual.spec] * 3
    status, page, _ = http(server.base, "GET", location, headers={"Accept-Language": "de"})
    assert status == 200
    assert "Mittel-Bot 2" in page and "heuristisch" not in page.split("<main", 1)[1].split("</main>")[0]
    # The seat's own name box: no raw "Seat 1", its name in German as the placeholder
    # ("Spieler 1": "Platz 1" read as a rank in the standings).
    assert 'id="my-name" type="text" maxlength="40" value="" placeholder="Spieler 1"' in page


def test_the_headers_rules_link_leads_to_the_game_at_hand(server: Any) -> None:
    """On an Inrah table and on Codename's rules the header's "Rules" led to
    Oracle's; in the lobby it still does."""
    status, location = post_form(server.base, "/new", {"game": "inrah", "quick": "1"})
    assert status == 303
    rules = re.compile(r'<nav>.*?<a href="(/rules/[a-z]+)">', re.S)
    for path, wanted in [
        (location, "/rules/inrah"),
        ("/rules/codename", "/rules/codename"),
        ("/", "/rules/oracle"),
    ]:
        found = rules.search(http(server.base, "GET", path)[1])
        assert found and found.group(1) == wanted, (path, found and found.group(1))


def test_the_replay_and_its_story_count_the_same_actions(server: Any) -> None:
    """A new player read "Action 12 of 300" above a story whose lines were
    counted otherwise (a trick's card and its winner were two lines): each
    story line now bears the number of the action it tells."""
    import time

    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "inrah", "options": {"players": 3, "rounds": 1}, "seats": ["bot:random"] * 3},
    )
    assert status == 201
    deadline = time.monotonic() + 60
    while http(server.base, "GET", f"/api/tables/{table['id']}")[1]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    record = http(server.base, "GET", f"/api/tables/{table['id']}/record")[1]
    total = len(record["actions"])
    for step in (total // 2, total):
        status, page, _ = http(server.base, "GET", f"/replay/{table['id']}?step={step}")
        assert status == 200
        assert f"Action {step} of {total}" in page
        story = re.search(r'<ol class="story" reversed[^>]*>(.*?)</ol>', page, re.S)
        assert story, page
        numbers = [int(n) for n in re.findall(r'<li data-n="\d+" value="(\d+)"', story.group(1))]
        assert numbers and numbers[0] == step, (step, numbers[:5])
        assert numbers == sorted(numbers, reverse=True)
        assert f"(up to action {step}, newest first)" in page
