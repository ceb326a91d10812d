"""The Codename: Oracle terminal renderer: boards in every phase, what the
seat may and may not see, announcements, German labels, the move menu, short forms."""

from __future__ import annotations

import random
import re

import codename_scenarios as scenarios
import pytest
from rich.console import Console, RenderableType

from oracles.core.registry import load_game
from oracles.games.codename.policy import choose
from oracles.games.codename.render import GLYPHS, CodenameRenderer
from oracles.games.codename.rules import CodenameState
from oracles.play.render import renderer_for

CODE = "wave wave circle circle square"


def render(renderable: RenderableType) -> str:
    console = Console(record=True, width=120, force_terminal=False)
    console.print(renderable)
    return console.export_text()


def new_state() -> CodenameState:
    state = load_game("codename").new_initial_state()
    assert isinstance(state, CodenameState)
    return state


def start(fields: tuple[dict[str, str], dict[str, str]] = ({}, {}), hands: str = "SQWOX") -> CodenameState:
    """Both seats dealt a field without sets except ``fields`` (letters); seat 0 starts."""
    return scenarios.start(fields, (hands, hands), (CODE, CODE))


def legal_map(state: CodenameState) -> dict[str, int]:
    return {state.action_to_string(a): a for a in state.legal_actions()}


def grid_rows(text: str) -> list[list[str]]:
    """The four rows of both grids: 5 own cells then 5 of the opponent's."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")]
        numbered = [i for i, c in enumerate(cells) if re.fullmatch(r"[1-4]", c)]
        if len(numbered) == 2:
            a, b = numbered
            rows.append(cells[a + 1 : a + 6] + cells[b + 1 : b + 6])
    return rows


def positions() -> list[tuple[CodenameState, int]]:
    """Positions of a policy game for both seats: setup, turns, responses, the end."""
    rng = random.Random(4)
    state = new_state()
    found = [(state.clone(), 0)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(choose(state.resample_from_infostate(seat, rng), seat, rng))
        if rng.random() < 0.2:
            found.append((state.clone(), rng.randrange(2)))
    found.append((state, 0))
    found.append((state, 1))
    return found


POSITIONS = positions()


def test_registered_for_codename() -> None:
    assert isinstance(renderer_for("codename", "de"), CodenameRenderer)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_board_shows_what_the_seat_knows_and_nothing_else(lang: str) -> None:
    renderer = CodenameRenderer(lang)
    glyph_of: dict[str | None, str] = {None: "?", "-": "-"}
    glyph_of.update(GLYPHS)
    checked = 0
    for state, seat in POSITIONS:
        view = state.view(seat)
        text = render(renderer.board(view, seat))
        assert "Codename: Oracle" in text
        rows = grid_rows(text)
        if all(v == "-" for v in view["sides"][seat]["field"].values()):
            assert rows == []  # setup: nothing dealt yet
            continue
        checked += 1
        assert len(rows) == 4
        for r in range(4):
            for c, col in enumerate("abcde"):
                cell = f"{col}{r + 1}"
                assert rows[r][c] == glyph_of[view["sides"][seat]["field"][cell]]
                assert rows[r][5 + c] == glyph_of[view["sides"][1 - seat]["field"][cell]]
        # The opponent's hidden cards: exactly the cells the seat does not know are "?".
        hidden = [c for c, s in view["sides"][1 - seat]["field"].items() if s is None]
        assert sum(row[5:].count("?") for row in rows) == len(hidden)
        for symbol in view["sides"][seat]["hand"]:
            assert renderer.sym_name(symbol) in text
    assert checked > 5


def test_board_mid_turn_shows_peeks_budget_and_code() -> None:
    state = start(fields=({"a1": "S"}, {}))
    state.apply_string("peek a1")
    state.apply_string("swap b1 b2")
    text = render(CodenameRenderer("en").board(state.view(0), 0))
    assert "peek used" in text and "swap used" in text and "replace free" in text
    assert grid_rows(text)[0][0] == "★"
    assert "Your code: a ≈  b ≈  c ●  d ●  e ■" in text
    assert "Your turn" in text
    other = render(CodenameRenderer("en").board(state.view(1), 1))
    assert grid_rows(other)[0][5] == "?"  # seat 1 did not see seat 0's peek
    assert "The opponent's turn." in other


def test_face_up_shields_and_known_opponent_code() -> None:
    state = start(fields=({"c1": "S", "c2": "S"}, {"b1": "O", "c1": "O", "d1": "S"}), hands="OSQWX")
    for move in ("peek c1 c2", "replace c3 star", "end", "peek b1 c1", "replace d1 circle"):
        state.apply_string(move)
    state.apply_string("end")
    state.apply_string("reveal c1 c2 c3")  # a star strike: a circle shield cannot block it
    state.apply_string("respond b1 c1 d1")
    view = state.view(0)
    assert view["sides"][1]["face_up"] == ["b1", "c1", "d1"]
    assert view["sides"][1]["code"][2] == "circle"
    text = render(CodenameRenderer("en").board(view, 0))
    assert grid_rows(text)[0][6:9] == ["●", "●", "●"]
    assert "c ●" in text.split("Opponent's code:")[1]
    assert state.view(1)["sides"][1]["code_shown"] == ["c"]
    assert "c ●◆" in render(CodenameRenderer("en").board(state.view(1), 1))


def test_announcements_tell_the_strike_the_response_and_the_damage() -> None:
    state = start(fields=({"c1": "S", "c2": "S"}, {"b1": "O", "c1": "O", "d1": "S"}), hands="OSQWX")
    for move in ("peek c1 c2", "replace c3 star", "end", "peek b1 c1", "replace d1 circle"):
        state.apply_string(move)
    state.apply_string("end")
    renderer = CodenameRenderer("en")
    before = state.view(1)
    state.apply_string("reveal c1 c2 c3")
    state.apply_string("respond b1 c1 d1")
    lines = renderer.announcements(before, state.view(1))
    text = "\n".join(lines)
    assert "Seat 1 reveals c1 c2 c3 (star, star, star): a strike on column c." in text
    assert (
        "Seat 2 (you) answers the strike with b1 c1 d1 (circle, circle, circle): a shield, which stays up."
        in text
    )
    assert "Seat 1's strike on column c is not blocked: it hits." in text
    assert "Seat 2 (you)'s code card in slot c is shown to the opponent: circle." in text
    assert "Seat 2 (you) loses 2 life (7 left)." in text
    german = "\n".join(CodenameRenderer("de").announcements(before, state.view(1)))
    assert "Platz 1 deckt c1 c2 c3 auf (Stern, Stern, Stern): ein Schlag auf Spalte c." in german
    assert "Platz 2 (du) antwortet auf den Schlag mit b1 c1 d1" in german
    assert "Platz 2 (du) verliert 2 Leben (noch 7)." in german
    seat0 = CodenameRenderer("en").announcements(state.view(0) | {"log": before["log"]}, state.view(0))
    assert "Seat 2's code card in slot c is shown to you: circle." in seat0


def test_announcements_of_a_guess_and_the_end() -> None:
    state = start()
    before = state.view(1)
    state.apply_string("guess wave wave circle circle star")
    lines = CodenameRenderer("en").announcements(before, state.view(1))
    assert "Seat 1 guesses the code wave, wave, circle, circle, star: 4 of 5 right (slots a b c d)." in lines
    assert "Seat 1 loses 2 life (7 left)." in lines
    state.apply_string("end")
    state.apply_string("end")
    before = state.view(0)
    state.apply_string("guess wave wave circle circle square")
    lines = CodenameRenderer("de").announcements(before, state.view(0))
    assert lines[-1] == "Platz 1 (du) hat den ganzen gegnerischen Code genannt: Platz 1 (du) gewinnt."
    assert render(CodenameRenderer("de").final(state.view(0)))


def test_german_labels() -> None:
    renderer = CodenameRenderer("de")
    assert renderer.action_label("peek a1") == "ansehen a1"
    assert renderer.action_label("swap a1 c3") == "tauschen a1 c3"
    assert renderer.action_label("replace b2 circle") == "ersetzen b2 durch ●Kreis"
    assert renderer.action_label("reveal a1 a2 a3") == "aufdecken a1 a2 a3 (Schlag)"
    assert renderer.action_label("reveal a1 b1 c1") == "aufdecken a1 b1 c1 (Schild)"
    assert renderer.action_label("reveal a1 a2 b1 b2") == "aufdecken a1 a2 b1 b2 (Fokus)"
    assert renderer.action_label("guess star square wave circle cross") == (
        "raten ★Stern ■Quadrat ≈Welle ●Kreis ✚Kreuz"
    )
    assert renderer.action_label("end") == "Zug beenden (auf fünf nachziehen)"
    assert renderer.action_label("respond pass") == "nicht antworten"
    assert renderer.action_label("fill c2 deck") == "c2 vom Stapel füllen"
    assert renderer.action_label("name cross") == "✚Kreuz nennen"
    english = CodenameRenderer("en")
    assert english.action_label("replace b2 circle") == "replace b2 by ●circle"


@pytest.mark.parametrize("lang", ["de"])
def test_german_board_has_no_english_words(lang: str) -> None:
    renderer = CodenameRenderer(lang)
    for state, seat in POSITIONS[::3]:
        text = render(renderer.board(state.view(seat), seat))
        for word in ("Your", "opponent", "Opponent", "turn", "peek", "hand", "deck", "Life", "known"):
            assert not re.search(rf"\b{word}\b", text), (word, text)


def test_move_menu_summarises_guesses_and_the_code() -> None:
    renderer = CodenameRenderer("en")
    setup = new_state()
    numbered, hints = renderer.legal_menu(legal_map(setup), setup.view(0))
    assert numbered == [] and any("code" in h for h in hints)
    state = start(fields=({"a1": "S", "a2": "S", "a3": "S"}, {}))
    for move in ("peek a1 a2",):
        state.apply_string(move)
    legal = legal_map(state)
    assert len(legal) > 3000
    numbered, hints = renderer.legal_menu(legal, state.view(0))
    assert all(text in legal for text in numbered)
    assert "end" in numbered and not any(t.startswith(("guess", "swap", "peek")) for t in numbered)
    assert any(h.startswith("guess") for h in hints) and any(h.startswith("swap") for h in hints)
    state.apply_string("replace a4 star")
    numbered, _ = renderer.legal_menu(legal_map(state), state.view(0))
    assert "reveal a1 a2 a4" in numbered and "reveal a1 a2 a3" not in numbered


def test_short_forms() -> None:
    renderer = CodenameRenderer("en")
    state = start()
    view = state.view(0)
    legal = legal_map(state)

    def means(text: str) -> list[str]:
        return [state.action_to_string(a) for a in renderer.shortcut(text, legal, view)]

    assert means("p a1") == ["peek a1"]
    assert means("ansehen a1") == ["peek a1"]
    assert means("a1") == ["peek a1"]
    assert means("p c3 a1") == ["peek a1 c3"]
    assert means("s c3 a1") == ["swap a1 c3"]
    assert means("t a1 c3") == ["swap a1 c3"]
    assert means("a1 c3") == ["swap a1 c3"]
    assert means("r b2 c") == ["replace b2 circle"]
    assert means("ersetzen b2 kreis") == ["replace b2 circle"]
    assert means("b2 x") == ["replace b2 cross"]
    assert means("v a1 a2 a3") == ["reveal a1 a2 a3"]
    assert means("a3 a1 a2") == ["reveal a1 a2 a3"]
    # A typed verb is never read as another move: two cells are no set to
    # reveal (was: swapped them), three are not a swap or a peek.
    assert means("reveal a1 a2") == means("v a1 a2") == means("auf a1 a2") == []
    assert means("s a1 a2 a3") == means("p a1 a2 a3") == []
    assert means("g s q w c x") == ["guess star square wave circle cross"]
    assert means("g sqwcx") == ["guess star square wave circle cross"]
    assert means("raten stern quadrat welle kreis kreuz") == ["guess star square wave circle cross"]
    assert means("e") == ["end"]
    assert means("fertig") == ["end"]
    assert means("zz") == []
    setup = new_state()
    setup_legal = legal_map(setup)
    assert [setup.action_to_string(a) for a in renderer.shortcut("sqwcx", setup_legal, setup.view(0))] == [
        "code star square wave circle cross"
    ]
    assert [
        setup.action_to_string(a) for a in renderer.shortcut("s q w k x", setup_legal, setup.view(0))
    ] == ["code star square wave circle cross"]


def test_short_forms_in_other_decisions() -> None:
    renderer = CodenameRenderer("de")
    state = start(fields=({"c1": "S", "c2": "S"}, {"b1": "O", "c1": "O", "d1": "S"}), hands="OSQWX")
    for move in ("peek c1 c2", "replace c3 star", "end", "peek b1 c1", "replace d1 circle"):
        state.apply_string(move)
    state.apply_string("end")
    state.apply_string("reveal c1 c2 c3")
    legal = legal_map(state)
    view = state.view(1)
    assert [state.action_to_string(a) for a in renderer.shortcut("passen", legal, view)] == ["respond pass"]
    assert [state.action_to_string(a) for a in renderer.shortcut("d1 b1 c1", legal, view)] == [
        "respond b1 c1 d1"
    ]
    numbered, hints = renderer.legal_menu(legal, view)
    assert numbered[:2] == ["respond pass", "respond b1 c1 d1"]  # then the known shield over column c
    assert all(t in legal and "c" in {c[0] for c in t.split()[1:]} for t in numbered[1:])
    assert "Spalte c" in hints[0]
