"""The web pages over plain HTTP (no browser): what each page holds."""

from __future__ import annotations

import re
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

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
    assert "bot:ismcts:seconds=1" in page
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
    assert post_form(server.base, "/new", {"game": "chess"}) == (303, "/?error=game")
    assert post_form(server.base, "/join/none/1", {})[1] == "/?error=taken"
    status, _, _ = http(server.base, "GET", "/t/" + "x" * 40)
    assert status == 404


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


def test_the_rematch_form_of_a_finished_board_creates_the_same_table(server: Any) -> None:
    from .test_web_words import finished, render

    state = finished("inrah", 2, players=3, rounds=2, trump=False)
    view = state.view(0)
    html = render(
        "board.html",
        view,
        ["Ann", "Bot 2", "Bot 3"],
        board_extra={
            "options": dict(state.game.options),
            "seats_info": [
                {"kind": "human"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "random"},
            ],
        },
    )
    form = re.search(r'<form method="post" action="/new" class="rematch">(.*?)</form>', html, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(1)))
    assert fields["game"] == "inrah" and fields["inrah.rounds"] == "2" and "inrah.trump" not in fields
    assert fields["inrah.seat0"] == "human" and fields["inrah.seat2"] == "bot:random"
    status, location = post_form(server.base, "/new", fields)
    assert status == 303 and location.startswith("/t/") and "token=" in location
