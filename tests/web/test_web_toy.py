"""A fourth game shows on the web page with one package and one registry
line: the toy high-card game of the core tests, with its own faces, story
and board (``tests/web/toyweb``), is listed in the lobby, created, played by
clicking its pieces in Chromium, and its story told, while the shared
pages, ``present.py`` and ``table.js`` name no game."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer, http

from oracles.core import registry
from oracles.server.config import Settings, database_url
from oracles.web import routes

from .webkit import play_to_end

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[ThreadServer]:
    registry.GAMES["toyweb"] = "toyweb"
    routes.environment.cache_clear()
    try:
        settings = Settings(
            db_url=database_url(str(tmp_path / "toy.sqlite3")), bot_pause=0.0, bot_mode="thread"
        )
        with ThreadServer(settings) as running:
            yield running
    finally:
        registry.GAMES.pop("toyweb", None)
        routes.environment.cache_clear()


def test_a_registered_toy_game_is_played_through_the_page(toy_server: ThreadServer, browser: Any) -> None:
    status, lobby, _ = http(toy_server.base, "GET", "/")
    assert status == 200 and 'data-quick="toyweb"' in lobby
    status, table, _ = http(
        toy_server.base, "POST", "/api/tables", {"game": "toyweb", "seats": ["bot:random", "human"]}
    )
    assert status == 201, table
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(toy_server.base + table["seats"][1]["url"])
        page.wait_for_selector("#board .board")
        play_to_end(page, seed=3)
        board = page.inner_text("#board")
        assert "Game over" in board
        # The story comes from the toy's own narrate part.
        assert "The cards are dealt" in board and ("bets." in board or "folds." in board)
    finally:
        context.close()
    status, record, _ = http(toy_server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200 and record["game"] == "toyweb"
