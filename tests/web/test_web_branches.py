"""Branches in a real Chromium: a game, a challenge on its deals played to
the end by clicking, the comparison page, and "play on from here" at the
twelfth move of the replay."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from webkit import new_table, play_to_end


def api(server: Any, path: str) -> Any:
    with urllib.request.urlopen(server.base + path, timeout=10) as response:
        return json.loads(response.read())


def table_id(page: Any) -> str:
    return str(page.get_attribute("#table", "data-table"))


def test_a_challenge_on_the_same_deals_and_its_comparison(server: Any, browser: Any) -> None:
    page = browser.new_page()
    # No pause after each trick: a loaded machine's bots outrun the animation.
    page.add_init_script("localStorage.setItem('oraclesTrickPause', '0')")
    new_table(page, server.base, "oracle", {"rounds": 1})
    first = table_id(page)
    play_to_end(page, seed=1)
    page.goto(f"{server.base}/replay/{first}")
    page.click("#same-deals")  # the second group: the same seats, the same deals
    page.wait_for_selector("#board .board")
    second = table_id(page)
    assert second != first
    assert first not in page.content()  # the challenge does not name the table whose deals it plays
    play_to_end(page, seed=2)
    assert api(server, f"/api/tables/{second}")["deals_from"] == first
    page.goto(f"{server.base}/replay/{second}")
    page.click("#compare-link")
    page.wait_for_selector("#compare-table")
    rows = page.locator("#compare-table tbody tr")
    assert rows.count() == 4  # one round, four seats
    compared = api(server, f"/api/tables/{second}/compare")
    for seat in range(4):
        row = page.locator(f"tr[data-round='1'][data-seat='{seat}']")
        points = [
            float(p)
            for p in row.locator("td.points").evaluate_all("cells => cells.map(c => c.dataset.points)")
        ]
        assert points == [compared["rounds"][0]["scores"][0][seat], compared["rounds"][0]["scores"][1][seat]]
        assert row.locator("td.hand .card").count() > 0
        better = row.locator("td.better").inner_text()
        if points[0] == points[1]:
            assert better == "Even"
        else:
            assert ("Table A" if points[0] > points[1] else "Table B") in better
    assert "Codename cannot be compared" in page.content()
    page.close()


def test_play_on_from_the_twelfth_move(server: Any, browser: Any) -> None:
    page = browser.new_page()
    # No pause after each trick: a loaded machine's bots outrun the animation.
    page.add_init_script("localStorage.setItem('oraclesTrickPause', '0')")
    new_table(page, server.base, "oracle", {"rounds": 1})
    origin = table_id(page)
    play_to_end(page, seed=3)
    page.goto(f"{server.base}/replay/{origin}?step=12")
    page.click("#play-on")  # one click: the twelfth move on, against bots
    page.wait_for_selector("#board .board")
    branch = table_id(page)
    summary = api(server, f"/api/tables/{branch}")
    assert summary["from"] == {"table": origin, "version": 12}
    assert summary["version"] >= 12
    play_to_end(page, seed=4)
    record = api(server, f"/api/tables/{branch}/record")
    assert record["actions"][:12] == api(server, f"/api/tables/{origin}/record")["actions"][:12]
    page.goto(f"{server.base}/replay/{branch}")
    assert page.locator("#branch-origin").get_attribute("href") == f"/replay/{origin}?step=12"
    page.close()
