"""Codename on a 1366 × 768 desktop and by the keyboard, in a real Chromium:
the whole table fits the screen without scrolling (both sides, the actions,
the move being composed), and a move the keyboard completes has its Confirm
as the next thing to press; the arrow keys move between the cells."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_web_codename_pieces import my_turn
from webkit import new_table, version, wait_version_change

DESKTOP = {"width": 1366, "height": 768}


def focused(page: Any) -> str:
    return str(
        page.evaluate(
            "() => { const e = document.activeElement;"
            " return e.dataset.pick || (e.hasAttribute('data-confirm') ? 'confirm' : e.dataset.verb || e.tagName); }"
        )
    )


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


def test_the_keyboard_finds_the_confirm_right_after_its_pick(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    my_turn(page)
    # The arrow keys move between the cells of one's Mind-field; Tab still
    # stops at each (SPEC 8: every piece is reachable with Tab).
    page.locator('#board [data-pick="a1"]').focus()
    page.keyboard.press("ArrowRight")
    assert focused(page) == "b1"
    page.keyboard.press("ArrowDown")
    assert focused(page) == "b2"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # the field's edge: it stays
    assert focused(page) == "a2"
    page.keyboard.press("ArrowUp")
    assert focused(page) == "a1"
    page.keyboard.press("Tab")
    assert focused(page) == "b1"
    # The action first, then a cell: a peek of one cell is complete but
    # could take a second. The focus goes to its Confirm.
    page.locator('#board [data-verb="peek"]').focus()
    page.keyboard.press("Enter")
    page.locator('#board [data-pick="e4"]').focus()
    page.keyboard.press("Enter")
    assert focused(page) == "confirm"
    # Shift+Tab goes back to the board's pieces, Tab to the Confirm again.
    page.keyboard.press("Shift+Tab")
    assert focused(page) != "confirm" and page.evaluate("() => !!document.activeElement.closest('#board')")
    page.keyboard.press("Tab")
    assert focused(page) == "confirm"
    assert page.locator("#board [data-confirm]").get_attribute("data-composing") == "peek e4"
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    context.close()


def test_the_keyboard_is_kept_from_end_turn_and_comes_home_after_a_move(server: Any, browser: Any) -> None:
    """Shift+Tab from the Confirm the keyboard was sent to landed on End turn
    (Enter there ended the turn without the peek); after a move the focus
    went to the first Guess symbol, across the table from one's own field;
    and the focus ring on a cell was a thin line over its yellow ring."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    my_turn(page)
    page.locator('#board [data-verb="peek"]').focus()
    page.keyboard.press("Enter")
    page.locator('#board [data-pick="e4"]').focus()
    page.keyboard.press("Enter")
    assert focused(page) == "confirm"
    page.keyboard.press("Shift+Tab")
    # Back to Undo last pick, then Cancel: both keep the turn going.
    assert page.evaluate("() => document.activeElement.hasAttribute('data-undo')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.hasAttribute('data-cancel')")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page) == "confirm"
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#board')")
    assert page.evaluate("() => !!document.activeElement.closest('.cn-me .cn-field')"), focused(page)
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }"
    )
    assert ring[0] == "solid" and ring[1] >= 4 and ring[2] == "rgb(17, 17, 17)", ring
    context.close()


def test_the_picks_are_cells_in_words_and_the_board_stays_in_place(server: Any, browser: Any) -> None:
    """The picks showed "c2, face down, unknown" in a monospace box, and the
    picks bar (or a refusal) pushed the board down some 45 px."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    my_turn(page)
    field = page.locator("#board .cn-me .cn-field")
    top = field.bounding_box()["y"]
    page.locator('#board [data-verb="peek"]').click()
    page.locator('#board [data-pick="c2"]').click()
    page.locator("#board [data-confirm]").wait_for()
    pick = page.locator("#board .composed-pick").first
    assert pick.inner_text().strip() == "c2"
    assert "mono" not in pick.evaluate("e => getComputedStyle(e).fontFamily")
    assert abs(field.bounding_box()["y"] - top) < 1
    context.close()
