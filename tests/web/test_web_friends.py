"""Friends at one table in a real Chromium (issue 33): the creator sends an
invite link, a friend opens it in a browser of their own, names themselves
and sits down; they play, the friend leaves and finds the table again under
"your tables", and both click rematch to play the next game."""

from __future__ import annotations

import json
import random
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from webkit import TIMEOUT, board_flag, new_table, version, wait_version_change

from oracles.web.present import default_bot


def api(server: Any, path: str) -> Any:
    with urllib.request.urlopen(server.base + path, timeout=10) as response:
        return json.loads(response.read())


def type_a_move(page: Any, rng: random.Random) -> None:
    """One legal move typed in notation (the page's fallback box): the
    pieces themselves are the board tests' business."""
    legal = page.evaluate(
        "() => { const n = document.querySelector('#board #legal-moves');"
        " const listed = n ? JSON.parse(n.textContent) : [];"
        " const one = [...document.querySelectorAll('#board [data-move]')].map(e => e.dataset.move);"
        " return [...one, ...listed]; }"
    )
    assert legal, "no legal move on the page"
    page.evaluate("() => { document.getElementById('notation-box').open = true; }")  # folded by default
    box = page.locator('input[name="move"]')
    box.fill(rng.choice(legal))
    box.press("Enter")


def play_together(pages: list[Any], rng: random.Random, limit: int = 400) -> None:
    """Each page moves when it is its turn, until the game is over."""
    for _ in range(limit):
        for page in pages:
            page.wait_for_selector("#board .board")
        if all(board_flag(page, "finished") for page in pages):
            return
        moved = False
        for page in pages:
            if board_flag(page, "my-turn") and not board_flag(page, "finished"):
                before = version(page)
                type_a_move(page, rng)
                wait_version_change(page, before)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_two_friends_invite_play_leave_return_and_rematch(server: Any, browser: Any) -> None:
    rng = random.Random(33)
    errors: list[str] = []
    ann_context = browser.new_context(locale="en-US")
    bob_context = browser.new_context(locale="en-US")
    ann = ann_context.new_page()
    ann.on("pageerror", lambda error: errors.append(str(error)))
    # Ann makes a table for two people, under the name her browser kept
    # from last time.
    ann.goto(server.base + "/")
    ann.evaluate("localStorage.setItem('oracles.name', JSON.stringify('Ann'))")
    new_table(ann, server.base, "codename", {"max_turns": 2}, seats=["human", "human"])
    tid = str(ann.get_attribute("#table", "data-table"))
    # It waits for Bob; Ann sees his seat's link and its QR code.
    assert ann.locator("#friends-waiting").is_visible()
    link = ann.locator('[data-invite="1"]')
    invite = str(link.get_attribute("href"))
    assert invite.endswith(f"/t/{tid}/seat/1") and "token" not in invite
    assert ann.locator('[data-invite-seat="1"] .qr svg').count() == 1
    assert ann.locator("[data-table-link]").count() == 1
    # The invites come before the board (after it, a phone showed them past
    # the whole story).
    invites, board = ann.locator("#friends").bounding_box(), ann.locator("#board").bounding_box()
    assert invites and board and invites["y"] < board["y"]

    # Bob opens the link in his own browser, names himself and sits down.
    bob = bob_context.new_page()
    bob.on("pageerror", lambda error: errors.append(str(error)))
    bob.goto(invite)
    bob.locator("#name").fill("Bob <3")
    bob.locator("[data-sit]").click()
    bob.wait_for_selector("#board .board")
    assert bob.get_attribute("#table", "data-seat") == "1"
    ann.wait_for_selector("#friends-waiting", state="hidden", timeout=TIMEOUT * 1000)
    # Every seat taken: Ann's invite panel goes (it would tell her to send
    # seat links she no longer has); the table's link for watchers stays.
    ann.wait_for_selector("details.invites", state="detached", timeout=TIMEOUT * 1000)
    assert ann.locator("[data-table-link]").count() == 1
    info = api(server, f"/api/tables/{tid}")
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob <3"] and "waiting" not in info
    # The link is used up: a third person finds the seat taken.
    third = browser.new_context().new_page()
    third.goto(invite)
    assert third.locator("[data-sit]").count() == 0
    third.context.close()

    # They play a little; Bob leaves, and comes back from "your tables".
    for _ in range(3):
        for page in (ann, bob):
            if board_flag(page, "my-turn"):
                before = version(page)
                type_a_move(page, rng)
                wait_version_change(page, before)
    bob.close()
    bob = bob_context.new_page()
    bob.on("pageerror", lambda error: errors.append(str(error)))
    bob.goto(server.base + "/")
    mine = bob.locator(f'[data-your-table="{tid}"] a')
    mine.wait_for(timeout=TIMEOUT * 1000)
    mine.click()
    bob.wait_for_selector("#board .board")
    assert bob.get_attribute("#table", "data-seat") == "1"
    play_together([ann, bob], rng)

    # Both click rematch: Bob sees that Ann wants one, and the new game has
    # the same people in the same seats.
    ann.locator("#board [data-rematch]").click()
    ann.wait_for_function(
        f"() => (document.getElementById('table') || {{dataset: {{}}}}).dataset.table !== '{tid}'",
        timeout=TIMEOUT * 1000,
    )
    ann.wait_for_selector("#board .board")
    again = str(ann.get_attribute("#table", "data-table"))
    assert again != tid
    bob.wait_for_function(
        "() => (document.getElementById('rematch-wants') || {}).textContent.includes('Ann')",
        timeout=TIMEOUT * 1000,
    )
    assert api(server, f"/api/tables/{again}")["waiting"] is True
    # Told above the board, with a button that joins (at the panel's foot,
    # under the whole story, it went unseen).
    assert bob.evaluate(
        "document.getElementById('rematch-box').compareDocumentPosition(document.getElementById('board'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    box = bob.locator("#rematch-box").bounding_box()  # in sight, wherever the page is scrolled to
    assert box and 0 <= box["y"] < bob.viewport_size["height"], box
    assert bob.locator("#rematch-wants").inner_text() == "Wants a rematch: Ann"
    bob.locator("#rematch-box [data-rematch]").click()
    # Across a page load: no #table for a moment, which must not throw.
    bob.wait_for_function(f"() => document.getElementById('table')?.dataset.table === '{again}'")
    bob.wait_for_selector("#board .board")
    info = api(server, f"/api/tables/{again}")
    assert "waiting" not in info and [s["name"] for s in info["seats"]] == ["Ann", "Bob <3"]
    assert bob.get_attribute("#table", "data-seat") == "1"
    ann.wait_for_selector("#friends-waiting", state="hidden", timeout=TIMEOUT * 1000)
    assert "Bob &lt;3" in bob.content() or "Bob <3" in bob.locator("body").inner_text()
    assert not errors, errors
    ann_context.close()
    bob_context.close()


def test_a_name_saved_while_the_socket_is_down_is_sent_on_the_next(server: Any, browser: Any) -> None:
    """Regression: the name box sent over the page's socket and dropped the
    name when that socket was down (reconnecting), with nothing to say so.
    Here every socket is refused while Ann saves her name; once they pass
    again, the table must have her name."""
    context = browser.new_context(locale="en-US")
    sockets: list[Any] = []
    refused: list[bool] = [False]

    def route(ws: Any) -> None:
        if refused[0]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    context.route_web_socket(re.compile(r"/ws/tables/"), route)
    ann = context.new_page()
    new_table(ann, server.base, "codename", {"max_turns": 2}, seats=["human", "human"])
    table = ann.evaluate("document.getElementById('table').dataset.table")
    assert api(server, f"/api/tables/{table}")["seats"][0]["name"] != "Ann"
    # The board is drawn by the server; its socket may open a moment later.
    for _ in range(int(TIMEOUT / 0.1)):
        if sockets:
            break
        ann.wait_for_timeout(100)
    refused[0] = True
    sockets[-1].close()
    ann.wait_for_function("() => document.querySelector('.banner.lost') !== null")
    ann.locator("#my-name").fill("Ann")
    ann.locator("[data-name]").click()
    refused[0] = False
    for _ in range(int(TIMEOUT / 0.1)):
        if api(server, f"/api/tables/{table}")["seats"][0]["name"] == "Ann":
            break
        ann.wait_for_timeout(100)
    assert api(server, f"/api/tables/{table}")["seats"][0]["name"] == "Ann"
    assert len(sockets) >= 2  # the name came over a new socket
    context.close()


def test_start_now_seats_the_level_the_lobby_names(server: Any, browser: Any) -> None:
    """Regression: "Start now" seated the server's stand-in spec, which is
    no lobby level in Inrah, so the seat read "Bot (heuristic)" beside
    "Bot (Casual)" (now "Heuristic Bot" beside "Casual Bot"). The page now
    asks for the lobby's default level; the
    waiting notice no longer sticks over the invite list on a phone."""
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    new_table(page, server.base, "inrah", {"rounds": 1, "players": 3}, seats=["human", "human"])
    table = page.evaluate("document.getElementById('table').dataset.table")
    waiting = page.locator("#friends-waiting")
    assert waiting.evaluate("e => getComputedStyle(e).position") == "static"
    page.locator("[data-start]").click()
    waiting.wait_for(state="hidden", timeout=TIMEOUT * 1000)
    seats = api(server, f"/api/tables/{table}")["seats"]
    casual = default_bot("inrah").removeprefix("bot:")
    assert casual != "heuristic"  # else this test proves nothing
    assert seats[1]["kind"] == "bot" and seats[1]["bot"] == casual
    page.wait_for_function("() => document.querySelector('#board .felt').innerText.includes('Casual Bot')")
    assert "Heuristic Bot" not in page.locator("#board").inner_text()
    context.close()
