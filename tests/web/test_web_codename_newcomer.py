"""Codename's table as a new player meets it (audit 33): the status says
what to do now and the last thing that happened, in agreement with the
Action Reference Board; the board is drawn without a browser (see
test_web_codename_pieces.draw)."""

from __future__ import annotations

import html as htmllib
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_web_codename_pieces import decisions, draw  # noqa: F401 (a fixture)


def status_of(html: str) -> str:
    found = re.search(r'<p class="status[^"]*" id="status"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip())


def whose_of(html: str) -> str:
    found = re.search(r'<span class="cn-action cn-whose">(.*?)</span>', html, re.S)
    return htmllib.unescape(found.group(1).strip()) if found else ""


@pytest.mark.parametrize(
    ("lang", "answer", "turn"),
    [
        ("en", "Answer {name}'s strike", "{name}'s turn: you answer"),
        ("de", "Antworte auf den Schlag von {name}", "{name} ist am Zug: du antwortest"),
    ],
)
def test_answering_a_strike_says_so_in_the_status_and_the_action_board(
    decisions: dict[str, tuple[Any, int]],  # noqa: F811 (the fixture imported above)
    lang: str,
    answer: str,
    turn: str,
) -> None:
    """The status said "Your turn" while the Action Reference Board said
    "Casual Bot's turn", when the player had to answer the bot's strike."""
    state, seat = decisions["respond"]
    name = ["Ann", "Bea"][1 - seat]
    html = draw(state, seat, lang)
    status = status_of(html)
    assert answer.format(name=name) in status
    assert ("Your turn" if lang == "en" else "Du bist dran") not in status
    assert whose_of(html) == turn.format(name=name)


def test_the_last_line_tells_what_the_other_player_did_not_the_turn_marker() -> None:
    """When the turn came back, the status said only "Last: Turn 4: Seat 1
    plays.": the line passes over the turn's marks to what happened."""
    from test_web_codename_pieces import bots_play_until

    from oracles.web import present

    state, seat = bots_play_until(
        3, lambda view, seat: view["decision"]["kind"] == "turn" and (view.get("turn") or 0) >= 3
    )
    view = state.view(seat)
    assert view["log"][-1]["kind"] == "turn"
    status = status_of(draw(state, seat, "en"))
    assert "plays." not in status and "ends the turn" not in status
    meaningful = [e for e in view["log"] if e["kind"] not in ("turn", "end", "draw", "reshuffle", "first")]
    told = present.event_line("codename", meaningful[-1], seat, ["Ann", "Bea"], "en")
    assert f"Last: {told}" in status


def test_no_story_is_shown_before_there_is_one(decisions: dict[str, tuple[Any, int]]) -> None:  # noqa: F811
    """At the code's choice the page showed an empty "The story so far (up to
    action 0, newest first)"."""
    state, seat = decisions["code"]
    assert not state.view(seat)["log"]
    assert 'class="log"' not in draw(state, seat, "en")
    later, seat = decisions["turn"]
    assert 'class="log"' in draw(later, seat, "en")


def test_the_phone_action_tiles_hold_their_words_and_picks_move_nothing(server: Any, browser: Any) -> None:
    """On a German phone "Aufdecken" filled its tile to the edges, and the
    picks bar pushed the board down as it came."""
    from test_web_codename_pieces import my_turn

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    from webkit import new_table

    new_table(page, server.base, "codename", {"max_turns": 10})
    my_turn(page)
    # Each word's widest line keeps some room to its tile's edges.
    tight = page.evaluate(
        "() => [...document.querySelectorAll('#board .cn-action-short')].filter(e => {"
        " const r = document.createRange(); r.selectNodeContents(e);"
        " const widest = Math.max(...[...r.getClientRects()].map(b => b.width));"
        " return widest > e.parentElement.getBoundingClientRect().width - 6; }).map(e => e.textContent)"
    )
    assert tight == []
    # The picks come in a bar at the screen's foot: the board stays where it was.
    field = page.locator("#board .cn-me .cn-field")
    top = field.bounding_box()["y"]
    page.locator('#board [data-verb="peek"]').tap()
    page.locator('#board .cn-me [data-pick="c2"]').tap()
    page.locator("#board [data-confirm]").wait_for()
    assert abs(field.bounding_box()["y"] - top) < 1
    bar = page.locator("#board .cn-compose").bounding_box()
    assert bar["y"] + bar["height"] <= 844
    context.close()


def test_the_code_fills_its_slots_as_it_is_picked_and_the_last_pick_can_be_undone(
    server: Any, browser: Any
) -> None:
    """The symbols picked for the code went to a loose row while "Your code"
    kept showing "?"; only Cancel took them back, all at once."""
    from webkit import new_table, wait_turn_or_end

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    wait_turn_or_end(page)

    def slots() -> list[str]:
        return list(
            page.evaluate(
                "() => [...document.querySelectorAll('#board .cn-me .cn-slot')].map(e => e.getAttribute('aria-label'))"
            )
        )

    for symbol in ("star", "star", "square"):
        page.locator(f'#board .cn-picker [data-pick="{symbol}"]').click()
    assert slots() == ["slot a, star", "slot b, star", "slot c, square", "slot d, unknown", "slot e, unknown"]
    assert page.locator("#board .cn-me .cn-slot.filled svg").count() == 3
    assert page.locator("#board .composed-pick").count() == 0  # not again in a loose row
    page.locator("#board [data-undo]").click()
    assert slots()[1:3] == ["slot b, star", "slot c, unknown"]
    for symbol in ("wave", "circle", "cross"):
        page.locator(f'#board .cn-picker [data-pick="{symbol}"]').click()
    # The fifth pick completes the code, which is played at once.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#board .cn-me .cn-slot')].map(e => e.getAttribute('aria-label'))"
        ".join('|') === 'slot a, star|slot b, star|slot c, wave|slot d, circle|slot e, cross'"
    )
    context.close()


def test_the_end_sheet_and_the_replay_draw_the_symbols_as_the_board_does(
    decisions: dict[str, tuple[Any, int]],  # noqa: F811 (the fixture imported above)
) -> None:
    """The end sheet and the replay's "All hands" drew a green filled cross,
    a filled circle and square (the page's sprites), the board purple and
    outlined ones."""
    from oracles.i18n import translate
    from oracles.web import present
    from oracles.web.routes import environment

    state, seat = decisions["over"]
    html = draw(state, seat, "en")
    pad = html[html.index('class="scorepad"') :]
    hand = str(
        environment()
        .get_template("codename/hand.html")
        .render(
            s={"view": state.view(seat), "seat": seat}, lang="en", tr=lambda m, **f: translate("en", m, **f)
        )
    )
    for part in (pad, hand):
        assert "#sym-" not in part
        symbols = set(re.findall(r'class="zener z-(\w+)"', part))
        assert symbols
        for symbol in symbols:
            face = present.face("codename", symbol, "en")
            assert f'<path d="{face["path"]}" fill="none" stroke="{face["colour"]}"' in part, symbol


def test_the_replay_of_a_finished_game_shows_both_codes_and_hands(
    server: Any,
    decisions: dict[str, tuple[Any, int]],  # noqa: F811 (the fixture imported above)
) -> None:
    """The replay of a finished game still showed the bot's code and hand as
    "?" on its board; a live seat's board never shows them."""
    import time

    from serverkit import http

    status, table, _ = http(
        server.base,
        "POST",
        "/api/tables",
        {"game": "codename", "options": {"max_turns": 6}, "seats": ["bot:random"] * 2},
    )
    assert status == 201
    deadline = time.monotonic() + 60
    while http(server.base, "GET", f"/api/tables/{table['id']}")[1]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    total = len(http(server.base, "GET", f"/api/tables/{table['id']}/record")[1]["actions"])
    status, page, _ = http(server.base, "GET", f"/replay/{table['id']}?step={total // 2}")
    assert status == 200
    them = page[page.index('class="cn-side cn-them"') : page.index('class="cn-middle"')]
    assert "slot a, unknown" not in them and re.search(
        r'aria-label="slot a, (star|square|wave|circle|cross)"', them
    )
    assert 'class="cn-hand-line"' in them
    # A live seat's board: the other's code and hand stay hidden.
    for kind, (state, seat) in decisions.items():
        if kind == "over":
            continue
        live = draw(state, seat, "en")
        across = live[live.index('class="cn-side cn-them"') : live.index('class="cn-middle"')]
        assert 'class="cn-hand-line"' not in across, kind


def test_german_calls_a_set_a_set_throughout(server: Any) -> None:
    """German said both "Set" (the Action Reference Board, "Regeln und
    Wirkungen der Sets") and "Formation" (the rules page, the story) for the
    same thing. There is no German rulebook of Codename: the board's "Set"
    stays, the rulebook's own word."""
    from serverkit import http

    from oracles.i18n import translate

    status, page, _ = http(server.base, "GET", "/rules/codename", headers={"Accept-Language": "de"})
    assert status == 200 and '<html lang="de">' in page
    assert "Formation" not in page and "Ein Set eigener verdeckter Karten aufdecken" in page
    catalog = (Path(__file__).parents[2] / "src/oracles/locale/de/LC_MESSAGES/oracles.po").read_text(
        encoding="utf-8"
    )
    assert "Formation" not in catalog
    assert translate("de", "Sets") == "Sets"
    assert "Set" in translate("de", "Reveal a set")
