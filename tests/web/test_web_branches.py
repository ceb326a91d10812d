"""Branches in a real Chromium: a game, a challenge on its deals played to
the end by clicking, the comparison page, a series of three tables begun
from the table pages' end-of-game panel, and "play on from here" at the
twelfth move of the replay."""

from __future__ import annotations

import json
import re
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
        # Table A is the one whose deals were played, as on the series page
        # (the API answers for the asked table first).
        assert points == [compared["rounds"][0]["scores"][1][seat], compared["rounds"][0]["scores"][0][seat]]
        assert row.locator("td.hand .card").count() > 0
        # Each seat's keep in words, the cards by their texts (the page shows
        # no Oracle cards to read ids from), its notation as the title.
        keep = row.locator("td.points .move-words").first
        assert (keep.get_attribute("title") or "").startswith("keep O")
        # Told as done ("Kept …"): the button's "Keep …" read as an order.
        assert keep.inner_text().startswith("Kept “") and "” and “" in keep.inner_text()
        assert not re.search(r"\bO\d\d\b", keep.inner_text())
        better = row.locator("td.better").inner_text()
        if points[0] == points[1]:
            assert better == "neither: the same points"
        else:
            assert ("Table A" if points[0] > points[1] else "Table B") in better
    # Only Oracle and Inrah come here: no word of Codename (a new player read it under Inrah).
    assert "Codename" not in page.locator("main").inner_text()
    # Two bots of one level, the same name at both tables: named once.
    for seat in range(1, 4):
        assert (
            "(at both tables)" in page.locator(f"tr[data-round='1'][data-seat='{seat}'] td.seat").inner_text()
        )
    # Each table by its players, table A the one whose deals were played.
    table_a = page.locator(f"#compare-tables li[data-table='{first}']")
    assert table_a.inner_text().startswith("Table A (the original deals): ")
    assert table_a.locator("a").get_attribute("href") == f"/replay/{first}"
    # On a phone each seat's row is a block: nothing wider than the screen,
    # each table's cell says which table it is.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.base}/lang/de?next=/compare/{first}/{second}")
    page.wait_for_selector("#compare-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    label = page.locator("#compare-table td.points").first.evaluate(
        "td => getComputedStyle(td, '::before').content"
    )
    assert label == '"Tisch A: "'
    assert page.locator("#compare-table .move-words").first.inner_text().startswith("Behalten: „")
    # A phone held sideways, a small tablet: the table was some 890 px
    # wide there, and the phone zoomed the whole page out to show it.
    for width, height in ((844, 390), (700, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        page.wait_for_selector("#compare-table")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
        assert page.locator("#compare-table th.round").first.inner_text().startswith("Runde")
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


def test_a_series_of_three_tables_from_the_table_page(server: Any, browser: Any) -> None:
    page = browser.new_page()
    # No pause after each trick: a loaded machine's bots outrun the animation.
    page.add_init_script("localStorage.setItem('oraclesTrickPause', '0')")
    new_table(page, server.base, "oracle", {"rounds": 1})
    first = table_id(page)
    play_to_end(page, seed=5)
    # The end-of-game panel of the table page offers the challenge.
    page.click("#board #same-deals")
    page.wait_for_selector("#board .board")
    second = table_id(page)
    assert second != first and first not in page.content()
    play_to_end(page, seed=6)
    page.click("#board #same-deals")  # a third group
    page.wait_for_selector("#board .board")
    third = table_id(page)
    assert third not in (first, second)
    # While it is played, the finished games on its deals are closed to all
    # but their own seats (their first deal would give the rest away).
    other = browser.new_page()
    other.goto(f"{server.base}/t/{second}")
    assert "being played at another table" in other.locator("main").inner_text()
    other.close()
    play_to_end(page, seed=7)
    page.goto(f"{server.base}/t/{second}")
    page.click("#board #series-link")
    page.wait_for_selector("#series-table")
    series = api(server, f"/api/tables/{first}/series")
    assert page.get_attribute("#series", "data-origin") == first == series["origin"]
    listed = page.locator("#series-tables li")
    assert listed.count() == 3
    assert [listed.nth(i).get_attribute("data-status") for i in range(3)] == ["finished"] * 3
    assert page.locator("#series-table tbody tr").count() == 4  # one round, four seats
    scores = series["rounds"][0]["scores"]
    for seat in range(4):
        row = page.locator(f"#series-table tr[data-round='1'][data-seat='{seat}']")
        cells = row.locator("td.points")
        assert cells.count() == 3
        shown = [float(p) for p in cells.evaluate_all("cells => cells.map(c => c.dataset.points)")]
        assert shown == [scores[0][seat], scores[1][seat], scores[2][seat]]
        assert row.locator("td.hand .card").count() > 0
        assert row.locator("td.best").get_attribute("data-best") == ",".join(
            str(i) for i in series["rounds"][0]["best"][seat]
        )
    page.goto(f"{server.base}/lang/de?next=/series/{first}")
    page.wait_for_selector("#series-table")
    assert page.get_attribute("html", "lang") == "de"
    assert "Tisch A" in page.content() and "Tisch C" in page.content()
    assert page.locator("#series-table .move-words").first.inner_text().endswith(" behalten")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.wait_for_selector("#series-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{server.base}/lang/en?next=/")
    page.close()
