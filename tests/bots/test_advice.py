"""Hints and reviews: values per candidate from the seat's information only."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from oracles.bots.advice import advise, review
from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.cli import main
from oracles.core.game import State
from oracles.core.registry import load_game
from oracles.play.render import renderer_for
from oracles.play.session import PlaySession
from oracles.testing import decision_positions


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("oracle", {"players": 3, "rounds": 1}), ("inrah", {"rounds": 3}), ("codename", {})],
)
def test_advice_is_the_same_on_worlds_the_seat_cannot_tell_apart(game_id: str, options: dict) -> None:
    for state in decision_positions(load_game(game_id, **options), 2, seed=5, keep=0.3):
        seat = state.current_player()
        world = state.resample_from_infostate(seat, random.Random(9))
        assert world.history() != state.history() or game_id == "codename"
        first = advise(SeatInfo(state, seat), seed=1, worlds=4)
        second = advise(SeatInfo(world, seat), seed=1, worlds=4)
        assert first == second
        legal = set(state.legal_actions())
        assert all(move.action in legal for move in first.moves)
        values = [move.value for move in first.moves]
        assert values == sorted(values, reverse=True)
        assert first.unit == ("win chance" if game_id == "codename" else "points")


def _inrah_game(seat_bot: str) -> State:
    game = load_game("inrah", players=3, rounds=4)
    bots = [make_bot(seat_bot if seat == 0 else "heuristic", seat, 3) for seat in range(3)]
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
    return state


def _state_at(final: State):  # type: ignore[no-untyped-def]
    def at(index: int) -> State:
        state = final.game.new_initial_state()
        for action in final.history()[:index]:
            state.apply_trusted(action)
        return state

    return at


def test_review_marks_bad_play_and_not_good_play() -> None:
    bad = _inrah_game("random")
    marks = review(_state_at(bad), bad.history(), 0, worlds=8)
    assert marks and all(mark.cost > 2.0 and mark.unit == "points" for mark in marks)
    assert review(_state_at(bad), bad.history(), 0, margin=1000, worlds=4) == []


def test_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_inrah_game("random").record()))
    assert main(["review", str(path), "--seat", "0", "--worlds", "4", "--json"]) == 0
    marks = json.loads(capsys.readouterr().out)
    assert all({"index", "played", "best", "cost", "unit"} <= set(mark) for mark in marks)
    assert main(["review", str(path), "--seat", "7"]) == 1
    assert capsys.readouterr().err.strip() == "--seat must be from 0 to 2, got 7"


def test_review_command_speaks_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review's table in German: the seat counted from 1 as the terminal
    calls it (with the ``--seat`` it was asked by), each move in words above
    its notation, the cost with a decimal comma."""
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_inrah_game("random").record()))
    assert main(["review", str(path), "--seat", "0", "--worlds", "4", "--quiet", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Platz 1 (--seat 0): Entscheidungen, die der Bot anders träfe" in out
    assert "gespielt" in out and "Kosten" in out and "warum" in out
    assert re.search(r"\d,\d Punkte", out), out
    # A move in German words, its notation beneath it.
    assert re.search(r"│ [^│]*(ansagen|spielen) *│", out), out
    assert re.search(r"│ (play|bid) \S+", out), out


def test_the_reviews_reason_keeps_its_width_beside_a_keeps_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Oracle keep names two cards' texts in each move column; the reason
    beside them was squeezed to a letter a line at 140 columns."""
    monkeypatch.setenv("COLUMNS", "140")
    records = tmp_path / "records"
    argv = ["simulate", "oracle", "-n", "1", "--option", "rounds=1", "--seed", "5", "--quiet"]
    assert main([*argv, "--bots", "random,heuristic,heuristic,heuristic", "--records", str(records)]) == 0
    capsys.readouterr()
    (path,) = records.glob("*.json")
    assert main(["review", str(path), "--seat", "0", "--worlds", "4", "--margin", "0", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "keep O" in out, out  # the keep is among the marks
    why = [line.rsplit("│", 2)[-2] for line in out.splitlines() if line.count("│") == 6]
    assert why and min(len(cell) for cell in why) >= 40, out


def _terminal_session(tmp_path: Path, typed: list[str], **options: Any) -> tuple[PlaySession, str]:
    """Inrah in the terminal for seat 0 against two heuristic bots, the
    ``typed`` lines as its input; the session and everything it printed."""
    out = io.StringIO()
    lines = iter(typed)
    session = PlaySession(
        load_game("inrah", players=3, **options).new_initial_state(),
        [0],
        {seat: make_bot("heuristic", seat, 1) for seat in (1, 2)},
        renderer_for("inrah", "en"),
        Console(file=out, width=120, color_system=None),
        seed=2,
        save_path=tmp_path / "game.json",  # "quit" saves the game: not into the checkout
        fast=True,
        read=lambda prompt: next(lines),
    )
    session.run()
    return session, out.getvalue()


def test_terminal_hint_and_menu_count_seats_as_its_story_does(tmp_path: Path) -> None:
    """An Altaïa oracle names a seat: the terminal's hint reason, its menu
    and its story all count seats from 1 and call the player's own "(you)"
    (the notation's P0 is the first seat)."""
    _, text = _terminal_session(tmp_path, ["hint", "1", "quit"], rounds=2, variant="altaia")
    reason = next(line for line in text.splitlines() if "of the games the bot played out" in line)
    named = re.findall(r"Seat (\d)( \(you\))?", reason)
    assert named and all((number == "1") == bool(you) for number, you in named), reason
    assert "(seat 2 takes exactly" in text and "(seat 0 " not in text
    assert "Seat 2 foretells" in text


def test_hint_in_the_terminal_is_shown_and_counted(tmp_path: Path) -> None:
    session, text = _terminal_session(tmp_path, ["hint", "1", "1", "quit"], rounds=1)
    assert "Hint: the bot's estimate" in text
    assert "points this round" in text
    assert session.hints == {0: 1}
