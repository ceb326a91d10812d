"""The table played by its pieces alone (docs/web.md, "Playing by the
pieces") in a real Chromium: whole Oracle and Inrah games at a desktop's size
in English and on a 390×844 phone by touch in German, by keyboard, and
axe-core's accessibility check on the lobby, table, replay and rules pages."""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webkit import play_to_end, settle, version, wait_turn_or_end, wait_version_change

AXE = Path(__file__).parent / "fixtures" / "axe.min.js"
SMALL = {"oracle": {"rounds": 1}, "inrah": {"rounds": 3}, "codename": {"max_turns": 10}}
SEATS = {
    "oracle": ["human", "bot:heuristic", "bot:random", "bot:heuristic"],
    "inrah": ["human", "bot:heuristic", "bot:random"],
    "codename": ["human", "bot:heuristic"],
}
NAMES = ["Ada", "Bot (heuristic) Bertram Longname", "Cleo", "Dmitri"]


def create(server: Any, game: str, **more: Any) -> dict[str, Any]:
    body = {
        "game": game,
        "options": SMALL[game],
        "seats": SEATS[game],
        "names": NAMES[: len(SEATS[game])],
        **more,
    }
    request = urllib.request.Request(
        server.base + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def open_seat(browser: Any, server: Any, game: str, phone: bool, locale: str, **more: Any) -> tuple[Any, Any]:
    size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, locale=locale)
    context.add_init_script("localStorage.setItem('oraclesTrickPause', '0')")
    page = context.new_page()
    table = create(server, game, **more)
    page.goto(server.base + table["seats"][0]["url"])
    page.wait_for_selector("#board .board")
    return context, page


def check_phone_screen(page: Any) -> None:
    """At 390×844 the status, the trick and the hand are on one screen, and
    every piece to touch is at least 44 px each way."""
    # Measured in one go in the page: a state message may redraw the board.
    boxes = page.evaluate(
        """() => {
        window.scrollTo(0, 0);
        const box = (n) => { const r = n.getBoundingClientRect(); return {y: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
        const cards = document.querySelectorAll('#board .hand .card');
        return {
            status: box(document.getElementById('status')),
            centre: box(document.querySelector('#board .felt .centre')),
            last: cards.length ? box(cards[cards.length - 1]) : null,
            pieces: Array.from(document.querySelectorAll('#board [data-pick][data-legal]')).map(box),
        };
    }"""
    )
    status, centre, last = boxes["status"], boxes["centre"], boxes["last"]
    assert last is not None
    assert status["y"] >= 0 and centre["bottom"] <= 844 and last["bottom"] <= 844, boxes
    for box in boxes["pieces"]:
        assert box["width"] >= 44 and box["height"] >= 44, box


@pytest.mark.parametrize("game", ["oracle", "inrah"])
@pytest.mark.parametrize("device", ["desktop-en", "phone-de"])
def test_a_whole_game_by_the_pieces_alone(server: Any, browser: Any, game: str, device: str) -> None:
    phone = device.startswith("phone")
    context, page = open_seat(browser, server, game, phone, "de-DE" if phone else "en-US")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    checked: list[str] = []

    def look(made: int) -> None:
        board = page.locator("#board .board").first
        phase = board.get_attribute("data-phase")
        # Every seat's full name is on the table, never cut.
        if not checked:
            assert "Bot (heuristic) Bertram Longname" in page.locator("#board .felt").inner_text()
            checked.append("names")
        if (
            phone
            and phase == "play"
            and "phone" not in checked
            and page.locator("#board .hand .card").count()
        ):
            check_phone_screen(page)
            checked.append("phone")
        # A piece that cannot be played says why: its name, then the reason
        # (the board's "name · why", or "name: why" once the composer marks it).
        for piece in page.locator("#board .hand [data-pick][aria-disabled='true']").all()[:1]:
            title = piece.get_attribute("title") or ""
            name = piece.get_attribute("data-name") or ""
            assert name and title.startswith(name), title
            assert title[len(name) :].startswith((" · ", ": ")) and len(title) > len(name) + 3, title

    made = play_to_end(page, seed=11, after=look, touch=phone, limit=240)
    assert made > 0
    assert page.locator("#board .board").first.get_attribute("data-finished") == "1"
    assert page.locator("#board [data-rematch]").count() == 1
    assert ("Spielende" if phone else "Game over") in page.locator("#status").inner_text()
    if phone:
        assert "phone" in checked
        # The score pad (a column per seat) stacks its columns on a phone:
        # the page itself never grows wider than the phone.
        assert page.locator("#board .scorepad").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if game == "inrah":
            # With bids, a seat's round is one line ("Ada: Ansage 0, Stiche 0, +20 …"):
            # a round is its heading and a line a seat (two for a long name), not three a seat.
            row = page.locator("#board .pad tbody tr[data-round]").first
            seats = row.locator("td.seat-end").count()
            line = float(row.evaluate("tr => parseFloat(getComputedStyle(tr).lineHeight)"))
            assert row.bounding_box()["height"] < (seats + 3) * line, (row.bounding_box(), line)
            assert seats >= 3 and row.inner_text().count("Stiche") == seats
    else:
        # One click asks for the same seats again and opens the new table.
        old = page.url
        page.locator("#board [data-rematch]").click()
        page.wait_for_url(lambda url: url != old and "/t/" in url)
        page.wait_for_selector("#board .board[data-finished='0']")
    assert not errors, errors
    context.close()


def test_altaias_oracles_by_the_pieces_on_a_phone_in_german(server: Any, browser: Any) -> None:
    """An Altaïa oracle is a seat's name, (Efferd) a way and a number, each a
    piece with words: no notation word is offered, and the seats on the felt
    show what was foretold. The phone's score pad names every cell."""
    context, page = open_seat(
        browser, server, "inrah", True, "de-DE", options={"variant": "altaia", "rounds": 2}
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked: set[str] = set()
    refusals: list[str] = []

    def look(made: int) -> None:
        pick = page.locator("#board .oracle-pick")
        if not pick.count():
            return
        heading = pick.locator("h2").inner_text()
        asked.add(heading.split(":")[0])
        assert "Stiche?" in heading, heading
        seats = pick.locator(".seat-pick")
        assert seats.count() == 3
        assert [seats.nth(i).inner_text() for i in range(3)] == [NAMES[0], NAMES[1], "Cleo"]
        assert pick.locator(".seat-pick[data-legal]").count() > 0
        if heading.startswith("Efferd"):
            assert pick.locator(".way-pick").all_inner_texts() == ["macht genau", "macht nicht genau"]
        # Nothing is left to the notation composer: no verb, no loose word.
        assert page.locator("#composer button:visible").count() == 0
        if not heading.startswith("Hesinde"):  # every seat has foretold once by now
            # A seat named already says so where a phone shows it, when tapped.
            named = pick.locator(".seat-pick:not([data-legal])")
            if named.count() and not refusals:
                named.first.tap(force=True)  # aria-disabled, yet a finger can tap it
                refused = page.locator("#board [data-refused]")
                assert refused.is_visible()
                refusals.append(refused.inner_text())
            said = page.locator("#board .felt .seat-oracles li")
            assert said.count() > 0
            assert any(t in said.first.inner_text() for t in ("=", "≠"))
            assert "macht" in (said.first.get_attribute("title") or "")

    made = play_to_end(page, seed=7, after=look, touch=True, limit=240)
    assert made > 0 and asked == {"Hesinde", "Efferd", "Phex"}
    assert refusals and "diesen Platz hast du in dieser Runde schon genannt" in refusals[0], refusals
    # A row a seat, headed by its name; on the phone each cell says its column.
    cells = page.locator("#board .scorepad td")
    labels = cells.evaluate_all("cells => cells.map(c => c.dataset.label || '')")
    assert labels and set(labels) == {"Orakel", "Stiche", "Punkte"}, labels
    first_round = page.locator("#board .scorepad tbody[data-round='1'] th.who").all_inner_texts()
    assert first_round == NAMES[:3], first_round
    assert "Runde 1" in page.locator("#board .scorepad").inner_text()
    # The seat's three oracles are a list as wide as the phone allows, not a word a line.
    oracle_list = page.locator("#board .scorepad ul.oracles").first.bounding_box()
    assert oracle_list is not None and oracle_list["width"] > 250, oracle_list
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    context.close()


def test_altaias_score_pad_fits_a_desktop_board(server: Any, browser: Any) -> None:
    """Three oracles a seat in a column each made a pad of twelve columns,
    wider than the board and a word a line: now a row a seat, as wide as
    the board, with nothing for axe to object to."""
    table = create(
        server, "inrah", options={"variant": "altaia", "rounds": 2}, seats=["bot:random"] * 4, names=NAMES
    )
    for _ in range(600):
        with urllib.request.urlopen(f"{server.base}/api/tables/{table['id']}", timeout=10) as response:
            if json.loads(response.read())["status"] == "finished":
                break
        time.sleep(0.1)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = context.new_page()
    page.goto(server.base + table["watch"])
    page.wait_for_selector("#board .scorepad tbody[data-round='2']")
    pad = page.locator("#board .scorepad")
    assert pad.evaluate("box => box.scrollWidth <= box.clientWidth"), "the pad scrolls sideways"
    rows = page.locator("#board .scorepad tbody[data-round='1'] tr")
    assert rows.count() == 4
    assert rows.first.locator("th.who").inner_text() == NAMES[0]
    line = float(rows.first.evaluate("tr => parseFloat(getComputedStyle(tr).lineHeight)"))
    assert rows.first.locator("ul.oracles li").first.bounding_box()["height"] < 2.5 * line
    assert not axe_problems(page), axe_problems(page)
    context.close()


def test_a_board_the_server_cannot_draw_is_asked_for_ever_more_slowly(server: Any, browser: Any) -> None:
    """A fetched board that failed was asked for again every 50 ms, twenty
    times a second for as long as the server failed (seen with a server
    whose templates were newer than its code). Now each try waits twice as
    long as the last, the banner says so, and the board comes back once
    the server draws it again."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    # The old way of drawing: a board fetched after every state (table.js).
    context.add_init_script("localStorage.setItem('oraclesFetchBoard', '1')")
    page = context.new_page()
    table = create(server, "inrah")
    page.goto(server.base + table["seats"][0]["url"])
    page.wait_for_selector("#board .board")
    assert wait_turn_or_end(page) == "turn"
    asked: list[float] = []

    def fail(route: Any) -> None:
        asked.append(time.monotonic())
        route.fulfill(status=500, body="broken")

    page.route("**/t/*/board*", fail)
    before = version(page)
    page.locator("#board [data-move][data-legal], #board [data-pick][data-legal]").first.click()
    page.wait_for_timeout(3000)
    assert 2 <= len(asked) <= 6, len(asked)
    assert "could not be drawn" in page.locator("#banner").inner_text()
    page.unroute("**/t/*/board*")
    page.wait_for_function(
        f"() => parseInt(document.querySelector('#board .board').dataset.version) > {before}"
    )
    page.wait_for_selector("#banner", state="hidden")
    context.close()


def test_news_while_a_board_retry_waits_waits_with_it(server: Any, browser: Any) -> None:
    """News that comes while a failed board's retry waits out its backoff
    (here a friend renaming their seat, four times a second) waits with it:
    each piece of news was fetched at once, and a failing server was asked
    as often as anything happened at the table."""
    from websockets.sync.client import connect

    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    context.add_init_script("localStorage.setItem('oraclesFetchBoard', '1')")
    page = context.new_page()
    table = create(server, "inrah", seats=["human", "human", "bot:random"])
    page.goto(server.base + table["seats"][0]["url"])
    page.wait_for_selector("#board .board")
    asked: list[float] = []

    def fail(route: Any) -> None:
        asked.append(time.monotonic())
        route.fulfill(status=500, body="broken")

    friend_url = server.ws_base + f"/ws/tables/{table['id']}?token={table['seats'][1]['token']}"
    with connect(friend_url, origin=server.base) as friend:
        friend.recv(timeout=10)
        page.route("**/t/*/board*", fail)
        for index in range(12):
            friend.send(json.dumps({"type": "name", "name": f"Friend {index}"}))
            page.wait_for_timeout(250)
    # Three seconds of backoff: tries at about 0, 0.25, 0.75 and 1.75 s.
    assert 1 <= len(asked) <= 5, [round(t - asked[0], 2) for t in asked]
    page.unroute("**/t/*/board*")
    context.close()


def tab_to_a_legal_piece_and_enter(page: Any) -> None:
    """Tab (the keyboard alone) to a piece that can be played, and press Enter."""
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => { const a = document.activeElement; return !!(a && a.closest('#board') && a.matches('[data-pick][data-legal]')); }"
        ):
            break
    else:
        raise AssertionError("Tab never reached a legal piece")
    page.keyboard.press("Enter")


def test_keyboard_alone_plays_a_card_or_a_bid(server: Any, browser: Any) -> None:
    context, page = open_seat(browser, server, "inrah", False, "en-US")
    page.evaluate(
        """() => { window.saidAloud = []; const live = document.getElementById('announce');
        new MutationObserver(() => window.saidAloud.push(live.textContent))
            .observe(live, {childList: true, characterData: true, subtree: true}); }"""
    )

    for _ in range(3):
        assert wait_turn_or_end(page) == "turn"
        before = version(page)
        tab_to_a_legal_piece_and_enter(page)
        # (Focus lost to a redraw between the Tab and the Enter: again.)
        settle(page, before, lambda: tab_to_a_legal_piece_and_enter(page))
    # Moves are told in the live region as they come, each sentence with one
    # full stop (the story's own and another made "…ersten Runde.. Warte").
    assert page.locator("#announce[aria-live]").count() == 1
    said = page.evaluate("window.saidAloud")
    assert said and not [line for line in said if ".." in line], said
    # The newest event is told (the oldest was, the first deal, again and again).
    assert [line for line in said if " plays " in line or " bids " in line], said
    context.close()


def test_the_keyboard_keeps_its_place_when_the_board_is_drawn_again(server: Any, browser: Any) -> None:
    """After a move made by keyboard, the board drawn anew (the move, the
    others' moves, the turn back) keeps the focus on the board: it fell to
    the page's start, and the player tabbed through the page again."""
    context, page = open_seat(browser, server, "inrah", False, "en-US")
    on_board = "() => !!(document.activeElement && document.activeElement.closest('#board'))"
    for _ in range(2):
        assert wait_turn_or_end(page) == "turn"
        before = version(page)
        tab_to_a_legal_piece_and_enter(page)
        wait_version_change(page, before)
        assert wait_turn_or_end(page) in ("turn", "end")
        assert page.evaluate(on_board), page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
    context.close()


def test_a_keyboard_and_screen_reader_player_follows_a_whole_game(server: Any, browser: Any) -> None:
    """Regressions from playing by keyboard with the live region alone:
    the focus fell to the page after every move of one's own (the hand is
    pictures while the others play); the live region said only the newest
    story line, so a trick's last card before its winner, or a round's score
    before the next deal, was never heard; the end said "Game over." and not
    who won."""
    context, page = open_seat(browser, server, "inrah", False, "en-US")
    page.evaluate(
        """() => { window.saidAloud = []; const live = document.getElementById('announce');
        new MutationObserver(() => { if (live.textContent) window.saidAloud.push(live.textContent); })
            .observe(live, {childList: true, characterData: true, subtree: true}); }"""
    )
    seen_lines: set[str] = set()

    def story() -> list[str]:
        return page.locator("#board .log li").all_inner_texts()

    while wait_turn_or_end(page) == "turn":
        seen_lines.update(story())
        before = version(page)
        tab_to_a_legal_piece_and_enter(page)
        wait_version_change(page, before)
        # While the others play, the focus waits on the board's status line.
        focused = page.evaluate(
            "() => document.activeElement && document.activeElement.closest('#board') ? 'board' : document.activeElement.tagName"
        )
        assert focused == "board", focused
    page.wait_for_timeout(500)
    said = " ".join(page.evaluate("window.saidAloud"))
    lines = story()
    # Every story line that came while this page was open was said, not only the newest.
    unsaid = [line for line in lines if line not in seen_lines and line.rstrip(".") not in said]
    assert not unsaid, unsaid[:5]
    # The end names the winner and the standings.
    winner = page.locator("#status").inner_text()
    # (A lone winner's own page says "You won!", the others' "<name> won.".)
    assert re.search(r"You won!| (won|share the win)\.", said) and "1." in said, said[-300:]
    assert winner
    context.close()


def test_a_finished_trick_stays_its_moment_before_the_next_lead(server: Any, browser: Any) -> None:
    """Regression (a new player's first complaint): a finished trick was on
    screen about half a second, the bots' next lead replacing it before its
    pause, so its last cards were never seen. Each finished trick now stays
    its pause (1.6 s) before a newer board replaces it."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = context.new_page()  # the page's own trick pause: no override
    table = create(server, "inrah", options={"rounds": 3})
    page.goto(server.base + table["seats"][0]["url"])
    page.wait_for_selector("#board .board")
    page.evaluate(
        """() => { window.trickSeen = []; let since = null;
        new MutationObserver(() => {
            const on = !!document.querySelector('#board [data-finished-trick]');
            if (on && since === null) since = performance.now();
            if (!on && since !== null) { window.trickSeen.push(performance.now() - since); since = null; }
        }).observe(document.getElementById('board'), {childList: true, subtree: true}); }"""
    )
    while wait_turn_or_end(page) == "turn":
        before = version(page)
        page.locator("#board [data-pick][data-legal]").first.click()
        wait_version_change(page, before)
    page.wait_for_timeout(2500)
    seen = page.evaluate("window.trickSeen")
    # Rounds of 1, 2 and 3 cards: six tricks, most replaced by a newer board
    # (a board the page fetched rather than was sent may skip one).
    assert seen, "no finished trick was seen replaced"
    assert min(seen) >= 1500, seen
    context.close()


def test_a_first_prophecy_picked_asks_for_the_second(server: Any, browser: Any) -> None:
    """A new player picked one prophecy and saw nothing say a second was
    wanted: the picks now say to keep picking until the move is whole."""
    context, page = open_seat(browser, server, "oracle", False, "en-US")
    assert wait_turn_or_end(page) == "turn"
    cards = page.locator("#board .oracle-card[data-pick][data-legal]")
    cards.first.click()
    page.wait_for_selector("#board .compose-more")
    assert page.locator("#board .compose-more").inner_text() == "Keep picking to complete the move"
    before = version(page)
    page.locator("#board .oracle-card[data-pick][data-legal]:not(.picked)").first.click()
    wait_version_change(page, before)
    assert page.locator("#board .compose-more").count() == 0
    context.close()


def axe_problems(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def codename_decision(page: Any) -> str:
    """The kind of decision the Codename board asks (its cn-k-<kind> class)."""
    classes = str(page.locator("#board .cn-table").get_attribute("class") or "")
    return next((c[5:] for c in classes.split() if c.startswith("cn-k-")), "")


def codename_axe_problems(server: Any, page: Any) -> dict[str, list[str]]:
    """axe on a Codename table while the code is chosen, then on a turn of
    one's own (the Mind-fields, the Action Reference Board, the hand)."""
    problems: dict[str, list[str]] = {}
    table = create(server, "codename")
    page.goto(server.base + table["seats"][0]["url"])
    page.wait_for_selector("#board .cn-table")
    assert wait_turn_or_end(page) == "turn" and codename_decision(page) == "code"
    problems["table codename (code)"] = axe_problems(page)
    # The code, then whatever the bot's strikes ask, by notation, until a turn.
    for _ in range(20):
        if codename_decision(page) == "turn":
            break
        before = version(page)
        move = page.evaluate("JSON.parse(document.getElementById('legal-moves').textContent).pop()")
        page.evaluate("() => { document.getElementById('notation-box').open = true; }")  # folded by default
        page.locator('input[name="move"]').fill(move)
        page.locator('input[name="move"]').press("Enter")
        wait_version_change(page, before)
        if wait_turn_or_end(page) == "end":
            break
    if codename_decision(page) == "turn":
        problems["table codename (turn)"] = axe_problems(page)
    else:
        problems["table codename (turn)"] = ["no turn of one's own came before the end"]
    return problems


def test_axe_finds_nothing_serious(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    page.goto(server.base + "/")
    problems["lobby"] = axe_problems(page)
    for game in ("oracle", "inrah", "codename"):  # each with its pictures of the pieces
        page.goto(server.base + f"/rules/{game}")
        problems[f"rules {game}"] = axe_problems(page)
    altaia = {"options": {"variant": "altaia", "rounds": 2}}
    for name, game, more in (("oracle", "oracle", {}), ("inrah", "inrah", {}), ("altaia", "inrah", altaia)):
        table = create(server, game, **more)
        page.goto(server.base + table["seats"][0]["url"])
        page.wait_for_selector("#board .board")
        wait_turn_or_end(page)
        problems[f"table {name}"] = axe_problems(page)
    problems.update(codename_axe_problems(server, page))
    # The replay of a finished game (played by bots alone).
    finished = create(server, "oracle", seats=["bot:random"] * 4)
    for _ in range(600):
        with urllib.request.urlopen(f"{server.base}/api/tables/{finished['id']}", timeout=10) as response:
            if json.loads(response.read())["status"] == "finished":
                break
        page.wait_for_timeout(100)
    page.goto(server.base + f"/replay/{finished['id']}?step=20")
    page.wait_for_selector(".replay-nav")
    problems["replay"] = axe_problems(page)
    assert not any(problems.values()), problems
    context.close()


def test_the_last_trick_names_each_card_in_full_on_a_phone(server: Any, browser: Any) -> None:
    """Under "Last trick" every card says whose it was, the whole name
    wrapped under it; it was cut ("Bot (heuri…") as on the felt."""
    context, page = open_seat(browser, server, "inrah", True, "en-GB")
    seen: list[list[str]] = []

    def look(made: int) -> None:
        box = page.locator("#board details.last-trick-box")
        if seen or not box.count():
            return
        box.evaluate("d => { d.open = true; }")
        captions = box.locator("figcaption")
        cut = captions.evaluate_all(
            "cs => cs.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)"
        )
        assert not cut, cut
        seen.append(captions.all_inner_texts())

    play_to_end(page, seed=3, after=look, touch=True)
    assert seen and set(seen[0]) <= set(NAMES[:3]) and len(seen[0]) == 3, seen
    context.close()


def test_a_watchers_chat_line_is_named_in_the_pages_language(server: Any, browser: Any) -> None:
    """Watchers chat among themselves; a line of theirs was headed
    "spectator" on a German page too."""
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    table = create(server, "inrah")
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(server.base + table["watch"])
        page.wait_for_selector("#board .board")
    first.locator("#chat-text").fill("Hallo")
    first.locator("#chat-form button").click()
    second.wait_for_selector("#chat-lines li")
    assert second.locator("#chat-lines li").first.inner_text() == "Zuschauer: Hallo"
    context.close()
