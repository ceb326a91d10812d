"""Codename on a 1366 × 768 desktop, in a real Chromium: the whole table
fits the screen without scrolling (both sides, the actions, the move being
composed)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_web_codename_pieces import Clicker, decision, legal_moves
from webkit import TIMEOUT, new_table, wait_turn_or_end

DESKTOP = {"width": 1366, "height": 768}


def my_turn(page: Any) -> None:
    """Choose the code, then answer what comes until a turn of one's own."""
    wait_turn_or_end(page)
    clicker = Clicker(page, False)
    clicker.play("code star square wave circle cross", cells_first=False)
    deadline = time.monotonic() + TIMEOUT
    while wait_turn_or_end(page) == "turn" and decision(page) != "turn":
        assert time.monotonic() < deadline
        clicker.play(legal_moves(page)[-1], cells_first=False)
    if decision(page) != "turn":
        pytest.skip("the game ended before a turn of my own")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_table_fits_a_desktop_screen(server: Any, browser: Any, lang: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale={"en": "en-US", "de": "de-DE"}[lang])
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    my_turn(page)
    # A peek of one cell: complete, but it could take a second, so the
    # Confirm shows under the actions.
    page.locator('#board [data-verb="peek"]').click()
    page.locator('#board [data-pick="e4"]').click()
    page.locator("#board [data-confirm]").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    parts = {
        "the status": "#status",
        "their life": "#board .cn-them .cn-life",
        "their code": "#board .cn-them .cn-code",
        "their field": "#board .cn-them .cn-field",
        "the actions": "#board .cn-actions",
        "the confirm": "#board [data-confirm]",
        "my field": "#board .cn-me .cn-field",
        "my code": "#board .cn-me .cn-code",
        "my hand": "#board .cn-me .cn-hand",
        "my life": "#board .cn-me .cn-life",
    }
    for what, selector in parts.items():
        box = page.locator(selector).first.bounding_box()
        assert box is not None, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], (
            f"{what} is off the screen: {box}"
        )
        assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"], (
            f"{what} is off the screen: {box}"
        )
    context.close()
