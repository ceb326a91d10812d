"""``oracles play`` under hostile typing, driven through a pseudo-terminal.

Each test is one crash of issue 15: text echoed through rich markup, digits
``int`` refuses, numbers of thousands of digits, an unwritable ``--save``, a
``--resume`` path with markup, the hot-seat scrollback and ``--players``
against a resumed record. None may print a traceback or lose the game.
"""

from __future__ import annotations

import io
from pathlib import Path

import pexpect
import pytest
from test_play_terminal import PROMPT_EN, spawn

from oracles.core.records import load_record_file, replay_record

REFUSED = "matches no legal move|cannot read|Not a legal move"
INRAH = "play inrah --players 3 --option rounds=1 --seed 3 --fast"


def _transcript(child: pexpect.spawn) -> io.StringIO:
    log = io.StringIO()
    child.logfile_read = log
    return log


def _finish(child: pexpect.spawn, log: io.StringIO) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in log.getvalue()


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param("[/]", id="markup-close"),
        pytest.param("[/bold]", id="markup-close-tag"),
        pytest.param("²", id="superscript-digit"),
        pytest.param("bid ¹¹", id="superscript-in-a-move"),
        pytest.param("1" * 4000, id="thousands-of-digits"),
        pytest.param("play ٣٣", id="arabic-digits"),
        pytest.param("\u202e\u200bbid", id="invisible-characters"),
    ],
)
def test_hostile_typing_is_refused_in_one_line(tmp_path: Path, typed: str) -> None:
    save = tmp_path / "game.json"
    child = spawn(f"{INRAH} --save {save}", tmp_path)
    log = _transcript(child)
    child.expect(PROMPT_EN)
    child.sendline(typed)
    child.expect(REFUSED)
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0
    assert not replay_record(load_record_file(save)).is_terminal()


def test_escape_sequences_typed_do_not_end_the_game(tmp_path: Path) -> None:
    child = spawn(INRAH, tmp_path)
    log = _transcript(child)
    child.expect(PROMPT_EN)
    child.sendline("\x1b[2J\x1b]0;title\x07")
    child.expect(PROMPT_EN)
    child.sendline("1")
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0


def test_a_unicode_digit_that_reads_as_a_move_plays_it(tmp_path: Path) -> None:
    """``bid ¹`` is ``bid 1`` (compatibility forms folded), not a crash."""
    save = tmp_path / "game.json"
    child = spawn(f"{INRAH} --save {save}", tmp_path)
    log = _transcript(child)
    child.expect(PROMPT_EN)
    child.sendline("bid ¹")
    index = child.expect([PROMPT_EN, REFUSED])
    if index == 1:
        child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0


def test_unwritable_save_is_reported_and_the_game_is_kept(tmp_path: Path) -> None:
    child = spawn(f"{INRAH} --save /proc/no-such-dir/game.json", tmp_path)
    log = _transcript(child)
    child.expect(PROMPT_EN)
    child.sendline("1")
    child.expect(PROMPT_EN)
    child.sendline("save")
    child.expect("Could not save to /proc/no-such-dir/game.json")
    child.expect(PROMPT_EN)
    child.sendline(f"save {tmp_path / 'elsewhere.json'}")
    child.expect("Game saved to")
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0
    kept = load_record_file(tmp_path / "elsewhere.json")
    assert len(kept["actions"]) > 1


def test_quit_with_an_unwritable_save_falls_back_to_a_fresh_file(tmp_path: Path) -> None:
    child = spawn(f"{INRAH} --save /proc/no-such-dir/game.json", tmp_path)
    log = _transcript(child)
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Could not save to")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0
    # Leaving, the next place is tried at once: no advice to type 'save FILE'.
    assert "save FILE" not in log.getvalue()
    (saved,) = tmp_path.glob("oracles-inrah-*.json")
    assert load_record_file(saved)["game"] == "inrah"


def test_resume_path_with_markup(tmp_path: Path) -> None:
    folder = tmp_path / "["
    folder.mkdir()
    save = folder / "bold].json"  # the path reads "[/bold].json" from tmp_path
    child = spawn(f"{INRAH} --save {save}", tmp_path)
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("play --resume [/bold].json --fast", tmp_path)
    log = _transcript(child)
    child.expect("resumed a game of \\d+ actions from \\[/bold\\].json")
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
    assert child.exitstatus == 0


def test_resume_refuses_another_player_count(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn(f"{INRAH} --save {save}", tmp_path)
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn(f"play --resume {save} --players 4", tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    out = child.before or ""
    assert child.exitstatus == 1
    assert "was saved with players=3; --players cannot change it on --resume" in out
    assert "Traceback" not in out and out.strip().count("\n") == 0


def test_hot_seat_clears_the_scrollback(tmp_path: Path) -> None:
    child = spawn("play inrah --players 3 --option rounds=1 --humans 2 --seed 5 --fast", tmp_path)
    log = _transcript(child)
    child.expect("Pass the screen to")
    assert "\x1b[3J" in log.getvalue()
    child.sendline("")
    child.expect(PROMPT_EN)
    child.sendline("quit")
    child.expect("Game saved to")
    _finish(child, log)
