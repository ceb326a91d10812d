"""The chips in the middle of an Oracle table stay put, turn after turn, in
a real Chromium: the eye finds each creature's chips where it left them."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webkit import click_a_move, settle, version, wait_turn_or_end

SLOTS = """() => {
  const felt = document.querySelector('#board .felt').getBoundingClientRect();
  return [...document.querySelectorAll('#board [data-middle-slot]')].map(slot => {
    const box = slot.getBoundingClientRect();
    return [slot.dataset.middleSlot, Math.round(box.left - felt.left), Math.round(box.top - felt.bottom),
            Math.round(box.width)];
  });
}"""


@pytest.mark.parametrize("viewport", [(1366, 768), (390, 844)])
def test_the_middles_chips_do_not_move_between_turns(
    server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(server.base + "/")
    page.click("[data-quick='oracle']")
    page.wait_for_selector("#board .board")
    rng = random.Random(3)
    seen: list[Any] = []
    phases: set[str] = set()
    for _ in range(8):
        if wait_turn_or_end(page) == "end":
            break
        phases.add(str(page.get_attribute("#board .board", "data-phase")))
        seen.append(page.evaluate(SLOTS))
        before = version(page)
        click_a_move(page, rng)
        settle(page, before, lambda: click_a_move(page, rng))
    assert {"keep", "play"} <= phases, phases
    first = seen[0]
    assert [slot[0] for slot in first] == [
        "hydra",
        "pegasus",
        "phoenix",
        "hydra-loser",
        "pegasus-loser",
        "phoenix-loser",
    ]
    for later in seen[1:]:
        assert later == first, "a chip of the middle moved between turns"
    context.close()
