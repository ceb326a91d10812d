"""``oracles play`` driven end to end through a pseudo-terminal."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from oracles.core.records import load_record_file, replay_record

ORACLES = str(Path(sys.executable).parent / "oracles")
PROMPT_EN = "move \\(number"
PROMPT_DE = "Zug \\(Nummer"


def spawn(args: str, cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(
        f"{ORACLES} {args}",
        cwd=str(cwd),
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 160),
        env={"TERM": "xterm", "COLUMNS": "160", "PATH": "/usr/bin:/bin"},
    )
    return child


def play_out(child: pexpect.spawn, prompt: str) -> None:
    """Answer every prompt with the first legal move until the game ends."""
    while True:
        index = child.expect([prompt, "Game over|Spielende", pexpect.EOF])
        if index == 0:
            child.sendline("1")
        else:
            return


GAMES = [
    pytest.param("inrah", "--players 3 --option rounds=2", [], id="inrah"),
    pytest.param("oracle", "--players 3 --option rounds=1", [], id="oracle"),
    # Codename starts by choosing a code, which is typed, not picked from a menu.
    pytest.param("codename", "--option max_turns=12", ["code s q w c x"], id="codename"),
]


@pytest.mark.parametrize(("game", "options", "opening"), GAMES)
def test_wrong_input_then_save_quit_resume_and_finish(
    tmp_path: Path, game: str, options: str, opening: list[str]
) -> None:
    save = tmp_path / "game.json"
    child = spawn(f"play {game} {options} --seed 3 --fast --save {save}", tmp_path)
    child.expect(PROMPT_EN)
    child.sendline("no-such-move")
    child.expect("matches no legal move|cannot read|Not a legal move")
    child.expect(PROMPT_EN)
    child.sendline("999")
    child.expect("matches no legal move|cannot read|Not a legal move")
    for line in opening:
        child.expect(PROMPT_EN)
        child.sendline(line)
    child.expect(PROMPT_EN)
    child.sendline("1")
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    saved = load_record_file(save)
    played = len(saved["actions"])
    assert played > 3 and not replay_record(saved).is_terminal()

    child = spawn(f"play --resume {save} --fast", tmp_path)
    child.expect(f"resumed a game of {played} actions")
    play_out(child, PROMPT_EN)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    final = replay_record(load_record_file(save))
    assert final.is_terminal()
    assert json.loads(save.read_text())["actions"][:played] == saved["actions"]
    # Saved at its end, the game says how to see it, not how to resume it;
    # resumed when over, its file is left as it is.
    transcript = child.before or ""
    assert "resume with" not in transcript and "oracles replay" in transcript, transcript[-300:]
    before = save.read_bytes()
    child = spawn(f"play --resume {save} --fast", tmp_path)
    child.expect(pexpect.EOF)
    assert save.read_bytes() == before
    assert "Game saved" not in (child.before or "")


def test_hot_seat_clears_the_screen_between_players(tmp_path: Path) -> None:
    child = spawn("play inrah --players 3 --option rounds=1 --humans 2 --seed 5 --fast", tmp_path)
    child.expect("Pass the screen to")
    child.sendline("")
    seen_handover = 1
    while True:
        index = child.expect([PROMPT_EN, "Pass the screen to", "Game over", pexpect.EOF])
        if index == 0:
            child.sendline("1")
        elif index == 1:
            # The screen was cleared just before the handover message.
            assert "\x1b[2J" in (child.before or "") or "\x1b[H" in (child.before or "")
            seen_handover += 1
            child.sendline("")
        else:
            break
    assert seen_handover >= 2


@pytest.mark.parametrize(("game", "options", "opening"), GAMES)
def test_german_output(tmp_path: Path, game: str, options: str, opening: list[str]) -> None:
    child = spawn(f"play {game} {options} --seed 2 --fast --lang de", tmp_path)
    child.logfile_read = io.StringIO()
    child.expect("Du bist am Zug")
    child.sendline("hilfe")
    child.expect("Nummer eines Zuges")
    for line in opening:
        child.expect(PROMPT_DE)
        child.sendline(line)
    play_out(child, PROMPT_DE)
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    for english in ("Your move", "Legal moves", "Game over", "wins the trick", "Winner"):
        assert english not in transcript


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    child = spawn("play oracle --players 9", tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "option 'players' of game 'oracle'" in (child.before or "")
    assert "Traceback" not in (child.before or "")


def test_a_hint_says_why_in_words(tmp_path: Path) -> None:
    """The terminal's hint prints the best move's reason under its table,
    from the same worlds as the values (here: how often each kept card holds)."""
    child = spawn("play oracle --players 3 --option rounds=1 --seed 3 --fast", tmp_path)
    child.expect(PROMPT_EN)
    child.sendline("hint")
    child.expect("the bot's estimate of your best moves", timeout=120)
    child.expect(r"holds in \d+% of the games the bot played out", timeout=120)
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_code_typed_wrong_is_answered_with_how_to_type_it(tmp_path: Path) -> None:
    """Codename's code has no numbered menu: a "1" matches nothing, and the
    terminal says again how a code is typed, then takes one."""
    child = spawn("play codename --seed 2 --fast --lang de", tmp_path)
    child.expect("tippe: code <5 Symbole>")
    child.expect(PROMPT_DE)
    child.sendline("1")
    child.expect("'1' passt zu keinem erlaubten Zug")
    child.expect("tippe: code <5 Symbole>")
    child.expect(PROMPT_DE)
    child.sendline("code s q w k x")
    child.expect("Du bist am Zug|Warte|Bot")
    child.sendline("ende")
    child.expect(pexpect.EOF)


def test_a_german_hint_writes_numbers_as_german_does(tmp_path: Path) -> None:
    """The hint's values in German have a decimal comma, and the end counts
    the hints taken in good German ("Genommene Tipps (du): 1", was "von du")."""
    child = spawn("play inrah --players 3 --option rounds=1 --seed 3 --fast --lang de", tmp_path)
    child.logfile_read = io.StringIO()
    child.expect(PROMPT_DE)
    child.sendline("tipp")
    child.expect(r"[+-]\d+,\d\b", timeout=120)
    play_out(child, PROMPT_DE)
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    assert "Genommene Tipps (du): 1" in transcript
    assert not re.search(r"[+-]\d+\.\d\b", transcript)


def test_a_refused_move_is_explained_in_the_players_language(tmp_path: Path) -> None:
    """The rules' reason for refusing a move reaches a German player in
    German, and speaks to them ("bid 2 is more than the 1 trick of round
    1" and "seat 0 is to bid now" were English, counting seats from 0)."""
    child = spawn("play inrah --players 3 --option rounds=2 --seed 3 --fast --lang de", tmp_path)
    child.logfile_read = io.StringIO()
    child.expect(PROMPT_DE)
    child.sendline("bid 2")
    child.expect("Hier nicht erlaubt: in Runde 1 darfst du höchstens 1 ansagen")
    child.expect(PROMPT_DE)
    child.sendline("play water-3")
    child.expect("Hier nicht erlaubt: du musst jetzt ansagen")
    child.expect(PROMPT_DE)
    # A save that fails says why in German too (was the system's English).
    child.sendline(f"speichern {tmp_path / 'no' / 'such.json'}")
    child.expect("diesen Ordner gibt es nicht")
    child.expect(PROMPT_DE)
    child.sendline("ende")
    child.expect(pexpect.EOF)
    assert "seat 0" not in child.logfile_read.getvalue()


def test_a_long_menu_of_short_moves_is_laid_out_in_columns(tmp_path: Path) -> None:
    """An Oracle keep offers 45 pairs: a line each pushed the board's card
    texts off a 40-line screen; in columns they take 15 lines at 160."""
    child = spawn("play oracle --players 3 --seed 3 --fast", tmp_path)
    child.expect(PROMPT_EN)
    screen = re.sub(r"\x1b\[[0-9;]*m", "", child.before or "")
    # The first line of the menu holds several pairs, the last pair is 45.
    assert re.search(r"(?m)^ *1 keep O\d\d O\d\d .* \d+ keep O\d\d O\d\d", screen), screen[-2000:]
    assert re.search(r"45 keep O\d\d O\d\d", screen)
    child.sendline("quit")
    child.expect(pexpect.EOF)
