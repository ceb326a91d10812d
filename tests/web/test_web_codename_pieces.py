"""Codename at the web table, played by clicking its pieces (issue 31): the
cells of the Mind-field, the actions of the Action Reference Board, the code
slots, the hand and the symbols, through the page's hooks only (data-pick,
data-verb, data-confirm; never the notation box nor a data-move button).

Whole games against a bot at a desktop's size and on a 390 × 844 phone with
touch, in English and in German; with ``ORACLES_SCREENSHOTS=1`` the phases
(code choice, a turn, a strike answered with a shield, the end) are saved in
docs/images."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webkit import TIMEOUT, new_table, version, wait_turn_or_end, wait_version_change

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}
#: At most this many clicks for a peek, a swap or a reveal of three cards.
MOST_CLICKS = 4


def legal_moves(page: Any) -> list[str]:
    text = page.evaluate(
        "() => { const n = document.querySelector('#board #legal-moves'); return n ? n.textContent : '[]'; }"
    )
    return list(json.loads(text))


def decision(page: Any) -> str:
    """The kind of decision asked of this seat (the board's cn-k-<kind> class)."""
    classes = str(page.locator("#board .cn-table").get_attribute("class") or "")
    kinds = [c[5:] for c in classes.split() if c.startswith("cn-k-")]
    return kinds[0] if kinds else ""


def has_verb(page: Any, word: str) -> bool:
    return page.locator(f'#board [data-verb="{word}"]').count() > 0


def box_of(page: Any, selector: str) -> Any:
    """The piece's bounding box; the table's script may have just put the
    same board in again (it fetches once more when asked while fetching)."""
    for _ in range(30):
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return box
        time.sleep(0.1)
    return None


class Clicker:
    """Clicks one move's pieces (taps on a touch screen), counting the clicks."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.clicks = 0

    def press(self, selector: str) -> None:
        target = self.page.locator(selector).first
        assert target.count(), f"nothing to click at {selector}"
        assert target.get_attribute("data-legal") is not None, f"{selector} is not marked legal"
        box = box_of(self.page, selector)
        assert box and box["width"] >= 44 - 0.5 and box["height"] >= 44 - 0.5, (
            f"{selector} is {box}: too small to touch"
        )
        if self.touch:
            target.tap()
        else:
            target.click()
        self.clicks += 1

    def pick(self, token: str, used: dict[str, str]) -> None:
        """Click the piece for ``token``: the same piece again for a repeated
        token (a guess's star star), else the first legal one."""
        if token in used:
            selector = used[token]
            if self.page.locator(selector).first.get_attribute("data-legal") is not None:
                self.press(selector)
                return
        selector = f'#board [data-pick="{token}"][data-legal]'
        used[token] = selector
        self.press(selector)

    def sent(self, before: int) -> bool:
        """The move went out (the composer waits for the next board) or was played."""
        busy = self.page.evaluate("() => document.getElementById('board').getAttribute('aria-busy')")
        return busy == "true" or version(self.page) != before

    def play(self, move: str, cells_first: bool, halfway: Any = None) -> int:
        """Compose ``move`` from its pieces and play it; returns the clicks.
        ``halfway()`` is called when the pieces are picked, before a confirm."""
        self.clicks = 0
        before = version(self.page)
        words = move.split()
        verb = words[0] if has_verb(self.page, words[0]) else None
        args = words[1:] if verb or len(words) > 1 else words
        used: dict[str, str] = {}
        if verb and not cells_first:
            self.press(f'#board [data-verb="{verb}"]')
        for word in args:
            assert not self.sent(before), f"{move}: played before its last piece"
            self.pick(word, used)
        if halfway is not None and not self.sent(before):
            halfway()
        if verb and cells_first and not self.sent(before):
            self.press(f'#board [data-verb="{verb}"]')
        # A complete move that could go on waits for the confirm.
        deadline = time.monotonic() + 2
        while not self.sent(before) and time.monotonic() < deadline:
            confirm = self.page.locator("#board [data-confirm]")
            if (
                confirm.is_visible()
                and confirm.is_enabled()
                and self.page.locator("#board [data-composed]").count()
            ):
                pending = self.page.locator("#board [data-confirm]").get_attribute("data-composing")
                if pending == move:
                    if self.touch:
                        confirm.tap()
                    else:
                        confirm.click()
                    self.clicks += 1
                    break
            time.sleep(0.05)
        wait_version_change(self.page, before)
        return self.clicks


def choose(moves: list[str], kind: str, rng: random.Random, late: bool) -> str:
    """A move a curious player might make: look, move and reveal cards more
    than guess (a guess is a gamble of 2 life a wrong slot)."""
    if kind != "turn":
        answers = (
            [m for m in moves if m != "respond pass"] if kind == "respond" and rng.random() < 0.7 else moves
        )
        return rng.choice(answers or moves)
    by_verb: dict[str, list[str]] = {}
    for move in moves:
        by_verb.setdefault(move.split()[0], []).append(move)
    order = ["peek", "reveal", "swap", "replace", "reveal"]
    rng.shuffle(order)
    if late and "guess" in by_verb:
        order.insert(0, "guess")
    for word in order:
        if word in by_verb and rng.random() < 0.6:
            return rng.choice(by_verb[word])
    return "end" if "end" in by_verb else rng.choice(moves)


def play_by_pieces(
    page: Any, touch: bool, seed: int, shots: Any = None, limit: float = 240.0
) -> dict[str, int]:
    """Play this seat's moves by clicking pieces until the game is over; returns
    the most clicks seen per verb."""
    rng = random.Random(seed)
    clicker = Clicker(page, touch)
    most: dict[str, int] = {}
    start = time.monotonic()
    turns = 0
    while wait_turn_or_end(page) == "turn":
        assert time.monotonic() - start < limit, "the game took too long"
        kind = decision(page)
        moves = legal_moves(page)
        assert moves, "my turn with no legal move on the board"
        if shots is not None:
            shots(kind, page)
        move = choose(moves, kind, rng, late=turns > 6)
        word = move.split()[0]
        cells_first = word in ("peek", "swap", "reveal", "replace") and rng.random() < 0.7
        halfway = None
        if shots is not None and kind == "respond" and move != "respond pass":
            halfway = lambda: shots("shield", page)  # noqa: E731
        clicks = clicker.play(move, cells_first, halfway)
        short = word in ("peek", "swap") or (word == "reveal" and len(move.split()) == 4)
        if short and cells_first:
            assert clicks <= MOST_CLICKS, f"{move}: {clicks} clicks"
        if word == "code":
            assert clicks == 5, f"{move}: {clicks} clicks"
        most[word] = max(most.get(word, 0), clicks)
        if word == "end":
            turns += 1
    return most


@pytest.mark.parametrize(
    ("size", "locale"),
    [("desktop", "en-US"), ("phone", "de-DE"), ("phone", "en-US"), ("desktop", "de-DE")],
)
def test_a_whole_codename_game_by_clicking_pieces(
    server: Any, browser: Any, shot: Any, size: str, locale: str
) -> None:
    phone = size == "phone"
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP, locale=locale, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    new_table(page, server.base, "codename", {"max_turns": 10})
    assert wait_turn_or_end(page) == "turn"
    german = locale.startswith("de")
    prompt = page.locator("#board .cn-prompt").inner_text()
    assert ("Geheimcode" in prompt) if german else ("secret code" in prompt)
    taken: set[str] = set()
    tag = f"{size}-{locale[:2]}"

    def shots(kind: str, page: Any) -> None:
        name = {"code": "code", "turn": "turn", "respond": "respond", "shield": "shield"}.get(kind)
        if name and name not in taken:
            taken.add(name)
            if phone:  # the table from its top: what the phone shows
                page.evaluate(
                    "() => { const t = document.querySelector('#board .cn-table'); if (t) window.scrollTo(0, t.offsetTop - 4); }"
                )
            shot(page, f"codename-{name}-{tag}", full_page=not phone)
            if name == "turn" and tag == "desktop-en":
                shot(page, "table-codename")

    most = play_by_pieces(page, phone, seed=len(tag) + (3 if german else 0), shots=shots)
    assert "code" in most and len(most) >= 3, most
    status = page.locator("#status").inner_text()
    assert ("Spielende" in status) if german else ("Game over" in status)
    if phone:  # the end from the status line down
        page.evaluate(
            "() => window.scrollTo(0, document.getElementById('status').getBoundingClientRect().top + window.scrollY - 4)"
        )
    shot(page, f"codename-over-{tag}", full_page=not phone)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= (PHONE if phone else DESKTOP)["width"]
    # The replay draws the same table, with nothing to click.
    page.locator("#status a.replay-now").click()
    page.wait_for_selector(".replay-nav")
    assert page.locator("#board .cn-table").count() == 1
    assert page.locator("#board [data-pick], #board [data-verb]").count() == 0
    assert not errors
    context.close()


def test_the_phone_shows_both_fields_life_and_actions_at_once(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    wait_turn_or_end(page)
    clicker = Clicker(page, True)
    clicker.play("code star square wave circle cross", cells_first=False)
    assert wait_turn_or_end(page) == "turn"
    # Wait for a turn of my own (not an answer to a strike).
    deadline = time.monotonic() + TIMEOUT
    while decision(page) != "turn":
        assert time.monotonic() < deadline
        moves = legal_moves(page)
        clicker.play(moves[-1], cells_first=False)
        wait_turn_or_end(page)
    page.evaluate("window.scrollTo(0, document.querySelector('#board .cn-table').offsetTop - 4)")
    parts = {
        "their field": "#board .cn-them .cn-field",
        "my field": "#board .cn-me .cn-field",
        "actions": "#board .cn-actions",
        "my life": "#board .cn-me .cn-life",
        "their life": "#board .cn-them .cn-life",
    }
    for what, selector in parts.items():
        box = box_of(page, selector)
        assert box is not None, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            f"{what} is off the screen: {box}"
        )
    context.close()


def my_turn(page: Any, code: str = "code star square wave circle cross") -> int:
    """Choose ``code``, then answer what comes until a turn of one's own;
    the clicks the code took."""
    wait_turn_or_end(page)
    clicker = Clicker(page, False)
    clicks = clicker.play(code, cells_first=False)
    deadline = time.monotonic() + TIMEOUT
    while wait_turn_or_end(page) == "turn" and decision(page) != "turn":
        assert time.monotonic() < deadline
        clicker.play(legal_moves(page)[-1], cells_first=False)
    if decision(page) != "turn":
        pytest.skip("the game ended before a turn of my own")
    return clicks


def test_clicks_compose_moves_in_any_order(server: Any, browser: Any) -> None:
    """Cells first then the verb, the verb first, cells in another order than
    the notation's; a non-legal piece says why; Escape and Cancel clear."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    new_table(page, server.base, "codename", {"max_turns": 10})
    # The code: five symbol clicks, played at once.
    assert my_turn(page, "code wave wave star cross circle") == 5
    # Two cells in the "wrong" order, then what to do: a swap in three clicks.
    before = version(page)
    page.locator('#board [data-pick="c3"]').click()
    page.locator('#board [data-pick="a1"]').click()
    assert page.locator('#board [data-verb="swap"]').get_attribute("data-legal") is not None
    # No move is complete yet: nothing carries data-confirm (a hook present
    # only while it plays one), though the picks can be cleared.
    assert page.locator("#board [data-confirm]").count() == 0
    assert page.locator("#board [data-cancel]").count() == 1
    # Cancel clears the picks.
    page.locator("#board [data-cancel]").click()
    assert page.locator('#board [aria-pressed="true"]').count() == 0
    # Escape too.
    page.locator('#board [data-pick="b2"]').click()
    page.keyboard.press("Escape")
    assert page.locator('#board [aria-pressed="true"]').count() == 0
    # By keyboard: focus a cell, Enter picks it; Space picks the next.
    page.locator('#board [data-pick="c3"]').focus()
    page.keyboard.press("Enter")
    page.locator('#board [data-pick="a1"]').focus()
    page.keyboard.press(" ")
    page.locator('#board [data-verb="swap"]').click()
    wait_version_change(page, before)
    record = json.loads(
        page.evaluate(
            "() => fetch('/api/tables/' + document.getElementById('table').dataset.table).then(r => r.text())"
        )
    )
    assert record["version"] > before
    # A used action is no longer legal and says why.
    wait_turn_or_end(page)
    if decision(page) == "turn":
        swap = page.locator('#board [data-verb="swap"]')
        assert swap.get_attribute("data-legal") is None
        assert swap.get_attribute("aria-disabled") == "true"
        assert "used" in str(swap.get_attribute("title")).lower()
        # One peek: the verb, a cell, then confirm (a peek could take two).
        before = version(page)
        page.locator('#board [data-verb="peek"]').click()
        page.locator('#board [data-pick="e4"]').click()
        assert version(page) == before
        confirm = page.locator("#board [data-confirm]")
        assert confirm.is_enabled() and confirm.get_attribute("data-composing") == "peek e4"
        confirm.click()
        wait_version_change(page, before)
    context.close()


# ------------------------------------------------------------ the board as drawn (no browser)

#: Which pieces each decision offers: (selector fragment, how many at least).
OFFERED = {
    "code": ['data-pick="star"'],
    "turn": ['data-verb="peek"', 'data-verb="end"', 'data-pick="a1"'],
    "respond": ['data-pick="pass"', 'data-pick="a1"'],
    "block": ['data-pick="a1"'],
    "pick": ['data-pick="a1"'],
    "target": ['data-pick="a1"'],
    "take": ['data-pick="star"'],
    "codeswap": ['data-pick="pass"', 'data-pick="a"'],
    "recode": ['data-pick="a"'],
    "name": ['data-pick="star"'],
    "place": ['data-pick="a1"'],
    "fill": ['data-pick="deck"'],
}


@pytest.fixture(scope="module")
def decisions() -> dict[str, tuple[Any, int]]:
    """A position of each kind of decision, from games of the heuristic bot."""
    from oracles.core.registry import game_part, load_game

    policy = game_part("codename", "policy")
    found: dict[str, tuple[Any, int]] = {}
    for seed in range(300):
        state = load_game("codename").new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if seat < 0:
                state.apply_action(state.sample_chance(rng))
                continue
            kind = state.view(seat)["decision"]["kind"]
            found.setdefault(kind, (state.clone(), seat))
            state.apply_action(policy(state, seat, rng))
        found.setdefault("over", (state, 0))
        if len(found) == len(OFFERED) + 1:
            return found
    raise AssertionError(f"only these decisions came up: {sorted(found)}")


def draw(state: Any, seat: int | None, lang: str) -> str:
    from oracles.i18n import ntranslate, translate
    from oracles.web import present
    from oracles.web.routes import environment

    legal = (
        [state.action_to_string(a) for a in state.legal_actions()] if state.current_player() == seat else []
    )
    board = {
        "unavailable": False,
        "game": "codename",
        "view": state.view(seat),
        "legal": legal,
        "clicks": present.one_click(legal),
        "verbs": present.composed_verbs(legal),
        "version": len(state.history()) if hasattr(state, "history") else 0,
        "seat": seat,
        "names": ["Ann", "Bea"],
        "seats_info": [],
        "finished": state.is_terminal(),
        "table_id": "t",
    }
    html = str(
        environment()
        .get_template("board.html")
        .render(
            board=board,
            lang=lang,
            tr=lambda m, **f: translate(lang, m, **f),
            ntr=lambda one, many, count, **f: ntranslate(lang, one, many, count, **f),
        )
    )
    # The board without its style sheet.
    before, _, rest = html.partition("<style>")
    return before + rest.partition("</style>")[2]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_decision_offers_its_pieces(decisions: dict[str, tuple[Any, int]], lang: str) -> None:
    for kind, (state, seat) in decisions.items():
        html = draw(state, seat, lang)
        assert "cn-table" in html and "{" not in html, kind
        for hook in OFFERED.get(kind, []):
            assert hook in html, f"{kind}: no {hook}"
        if kind != "over":
            assert f"cn-k-{kind}" in html and 'id="legal-moves"' in html, kind
            assert "data-confirm" in html and "data-cancel" in html
        # The other seat and a spectator get the table, and nothing to click.
        for other in (1 - seat, None):
            quiet = draw(state, other, lang)
            assert "data-pick" not in quiet and "data-verb" not in quiet and "legal-moves" not in quiet
    if lang == "de":
        assert "Wähle deinen Geheimcode" in draw(*decisions["code"], lang)


def test_the_board_holds_only_what_the_seat_knows(decisions: dict[str, tuple[Any, int]]) -> None:
    """Two positions the seat cannot tell apart give the same board, byte for
    byte: nothing on it comes from a card the seat has not seen."""
    for kind, (state, seat) in decisions.items():
        for viewer in (seat, 1 - seat):
            world = state.resample_from_infostate(viewer, random.Random(5))
            assert draw(world, viewer, "en") == draw(state, viewer, "en"), (kind, viewer)


def bots_play_until(seed: int, stop: Any) -> tuple[Any, int]:
    """A Codename game played by the heuristic policy from ``seed`` until
    ``stop(view, seat)`` holds for the seat to act: that state and seat."""
    from oracles.core.registry import game_part, load_game

    policy = game_part("codename", "policy")
    state = load_game("codename").new_initial_state()
    rng = random.Random(seed)
    while True:
        assert not state.is_terminal(), f"seed {seed} never came there: pick another"
        seat = state.current_player()
        if seat < 0:
            state.apply_action(state.sample_chance(rng))
        elif stop(state.view(seat), seat):
            return state, seat
        else:
            state.apply_action(policy(state, seat, rng))


@pytest.mark.parametrize(
    ("lang", "why", "note"),
    [("en", "Your hand is empty", "hand empty"), ("de", "Deine Hand ist leer", "Hand leer")],
)
def test_replace_says_why_it_cannot_be_used_with_an_empty_hand(lang: str, why: str, note: str) -> None:
    """Replace from hand was greyed out with no word, and a click on it said
    only "not possible now", when the player's hand was empty."""
    state, seat = bots_play_until(
        0, lambda view, seat: view["decision"]["kind"] == "turn" and view["sides"][seat]["hand"] == []
    )
    html = draw(state, seat, lang)
    replace = re.search(r'<button type="button" data-verb="replace"[^>]*>.*?</button>', html, re.S)
    assert replace is not None
    assert f'data-why="{why}"' in replace.group(0) and note in replace.group(0)
