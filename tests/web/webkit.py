"""Helpers of the browser tests: drive a table page until its game ends."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

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


def click_a_move(page: Any, rng: random.Random) -> None:
    """One move by clicking: a one-click move when there is one, else a move
    of several parts through the composer (kind, parts, confirm)."""
    moves = page.locator("#board [data-move]")
    count = moves.count()
    if count:
        moves.nth(rng.randrange(count)).click()
        return
    for _ in range(12):
        confirm = page.locator('#composer [data-compose="confirm"]')
        if confirm.count() and confirm.is_enabled():
            confirm.click()
            return
        tokens = page.locator("#composer .tokens [data-token]")
        count = tokens.count()
        if count:
            tokens.nth(rng.randrange(count)).click()
        else:
            # Nothing being composed: at the start, or after a state
            # message redrew the board (it resets the composer).
            page.locator("#composer [data-verb]").first.click()
    raise AssertionError("the composer never made a legal move")


def play_to_end(
    page: Any, seed: int = 1, limit: float = 120.0, after: Callable[[int], None] | None = None
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
        click_a_move(page, rng)
        wait_version_change(page, before)
        made += 1
    return made


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
            text = page.evaluate("JSON.parse(document.getElementById('multi-moves').textContent)[0]")
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
