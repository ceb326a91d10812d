"""Helpers of the browser tests: drive a table page until its game ends."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

TIMEOUT = 20.0


def version(page: Any) -> int:
    return int(page.get_attribute("#table", "data-version") or -1)


def board_flag(page: Any, name: str) -> bool:
    value = page.locator("#board .board").first.get_attribute(f"data-{name}")
    return value == "1"


def wait_turn_or_end(page: Any, timeout: float = TIMEOUT) -> str:
    """Wait until it is this seat's turn ("turn") or the game is over ("end")."""
    page.wait_for_function(
        "() => { const b = document.querySelector('#board .board');"
        " return b && (b.dataset.myTurn === '1' || b.dataset.finished === '1'); }",
        timeout=timeout * 1000,
    )
    return "end" if board_flag(page, "finished") else "turn"


def wait_version_change(page: Any, before: int, timeout: float = TIMEOUT) -> None:
    page.wait_for_function(
        f"() => parseInt(document.getElementById('table').dataset.version, 10) !== {before}",
        timeout=timeout * 1000,
    )


def board_busy(page: Any) -> bool:
    """Whether picks are under way (a piece picked, a confirm offered)."""
    return bool(page.locator("#board .picked, #board [data-confirm], #board [data-cancel]").count())


def click_a_move(page: Any, rng: random.Random, touch: bool = False) -> None:
    """One move by the table's pieces alone (docs/web.md, "Playing by the
    pieces"): a legal piece or verb at random, again until the move is made
    (a confirm is taken when offered, half the time while more could follow).
    ``touch``: tap instead of clicking."""

    def press(locator: Any) -> None:
        if touch:
            locator.tap()
        else:
            locator.click()

    for _ in range(16):
        confirm = page.locator("#board [data-confirm]")
        pieces = page.locator(
            "#board [data-pick][data-legal]:not(.picked), #board [data-verb][data-legal]:not(.picked)"
        )
        count = pieces.count()
        if confirm.count() and (not count or rng.random() < 0.5):
            press(confirm.first)
            return
        if not count:
            # A state message redrew the board meanwhile: start again.
            page.wait_for_timeout(50)
            continue
        press(pieces.nth(rng.randrange(count)))
        if not board_busy(page):
            return  # the picks made a move: it was played
    raise AssertionError("the pieces never made a legal move")


def play_to_end(
    page: Any,
    seed: int = 1,
    limit: float = 120.0,
    after: Callable[[int], None] | None = None,
    touch: bool = False,
) -> int:
    """Click moves until the game is over; returns the number of moves made.
    ``after(n)`` is called on this seat's turn after its n-th move."""
    rng = random.Random(seed)
    start = time.monotonic()
    made = 0
    while wait_turn_or_end(page) == "turn":
        assert time.monotonic() - start < limit, "the game took too long"
        if after is not None:
            after(made)
        before = version(page)
        click_a_move(page, rng, touch)
        settle(page, before, lambda: click_a_move(page, rng, touch))
        made += 1
    return made


def settle(page: Any, before: int, again: Callable[[], None], timeout: float = TIMEOUT) -> None:
    """Wait for the move just made to change the table's version. A click
    that landed while a state message redrew the board made no move (the
    picks went with the old board): when the seat is still to move, with
    nothing picked, after a few seconds, the move is made again."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            wait_version_change(page, before, timeout=3.0)
            return
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise
        if board_flag(page, "my-turn") and not board_busy(page) and version(page) == before:
            again()


def type_to_end(page: Any, limit: float = 120.0) -> int:
    """Type the first legal move in notation (Enter) until the game is over."""
    start = time.monotonic()
    made = 0
    while wait_turn_or_end(page) == "turn":
        assert time.monotonic() - start < limit, "the game took too long"
        before = version(page)
        moves = page.locator("#board [data-move]")
        if moves.count():
            text = moves.first.get_attribute("data-move")
        else:
            text = page.evaluate("JSON.parse(document.getElementById('legal-moves').textContent)[0]")
        # The notation box is folded until opened (the browser remembers).
        page.evaluate("() => { const d = document.getElementById('notation-box'); if (d) d.open = true; }")
        box = page.locator('input[name="move"]')
        box.fill(text)
        box.press("Enter")
        wait_version_change(page, before)
        made += 1
    return made


def new_table(
    page: Any,
    base: str,
    game: str,
    options: dict[str, Any],
    seats: list[str] | None = None,
    hints: bool = False,
) -> None:
    """Create a table from the lobby's form (``hints``: tick the hint
    checkbox); the page lands on seat 1."""
    page.goto(base + "/")
    page.locator(f"details.new-game:has(form[data-game='{game}'])").evaluate("d => { d.open = true; }")
    form = page.locator(f"form[data-game='{game}']")
    for name, value in options.items():
        field = form.locator(f"[name='{game}.{name}']")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    for index, kind in enumerate(seats or []):
        form.locator(f"[name='{game}.seat{index}']").select_option(kind)
    if hints:
        form.locator(f"[data-hints='{game}']").check()
    form.locator(f"[data-create='{game}']").click()
    page.wait_for_selector("#board .board")
