"""The lobby's "Your tables" in a real Chromium: each table the browser
holds a seat at is one line, told apart from the others by its players
and when it was last opened; a table that is gone is forgotten."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from webkit import TIMEOUT

HOUR_MS = 3600 * 1000


def quick_table(page: Any, base: str, game: str) -> str:
    page.goto(base + "/")
    page.click(f"[data-quick='{game}']")
    page.wait_for_selector("#board .board")
    return str(page.get_attribute("#table", "data-table"))


def test_each_table_is_one_line_told_apart(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    ids = [quick_table(page, server.base, "oracle") for _ in range(2)]
    ids.append(quick_table(page, server.base, "codename"))
    # Opened an hour apart each (a player comes back to older tables), and
    # one table the server does not know.
    page.evaluate(
        """([ids, hour]) => {
            const seats = JSON.parse(localStorage.getItem('oracles.seats'));
            ids.forEach((id, i) => { seats[id].at = Date.now() - (i + 1) * hour; });
            seats['nosuchtable'] = {token: 'x', seat: 0, at: Date.now()};
            localStorage.setItem('oracles.seats', JSON.stringify(seats));
        }""",
        [ids, HOUR_MS],
    )
    page.goto(server.base + "/")
    page.wait_for_selector("#your-tables:not([hidden]) [data-your-table]", timeout=TIMEOUT * 1000)
    lines = page.locator("#your-tables-list > li")
    found = [lines.nth(i).get_attribute("data-your-table") for i in range(lines.count())]
    assert found == ids, "each table once, newest first"
    texts = [" ".join(lines.nth(i).inner_text().split()) for i in range(lines.count())]
    assert len(set(texts)) == len(texts), f"two lines read the same: {texts}"
    # The players are named as the table names them, and the seat's link
    # carries its token.
    with urllib.request.urlopen(f"{server.base}/api/tables/{ids[0]}", timeout=10) as answer:
        seats = json.loads(answer.read())["seats"]
    assert all(s["kind"] == "bot" for s in seats[1:])
    assert "with " in texts[0] and "Bot" in texts[0]
    assert "1 hour ago" in texts[0] and "3 hours ago" in texts[2]
    href = lines.nth(0).locator("a").get_attribute("href") or ""
    assert href.startswith(f"/t/{ids[0]}?token=")
    # The unknown table is forgotten.
    held = page.evaluate("() => Object.keys(JSON.parse(localStorage.getItem('oracles.seats')))")
    assert "nosuchtable" not in held and set(ids) <= set(held)
    assert not errors
    context.close()


def test_the_server_lists_a_table_once_however_often_asked(server: Any) -> None:
    body = json.dumps({"game": "codename", "seats": ["human", "bot:random"]}).encode()
    request = urllib.request.Request(
        server.base + "/api/tables", data=body, method="POST", headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        tid = json.loads(answer.read())["id"]
    query = f"t={tid}:0&t={tid}:0&t={tid}:1&t=gone:0"
    with urllib.request.urlopen(f"{server.base}/your-tables?{query}", timeout=10) as answer:
        listed = json.loads(answer.read())
    assert listed["html"].count(f'data-your-table="{tid}"') == 1
    assert listed["gone"] == ["gone"]
    assert "token" not in listed["html"]
