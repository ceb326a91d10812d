"""Codename's table as a new player meets it (audit 33): the status says
what to do now and the last thing that happened, in agreement with the
Action Reference Board; the board is drawn without a browser (see
test_web_codename_pieces.draw)."""

from __future__ import annotations

import html as htmllib
import random
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
    from oracles.core.registry import game_part, load_game
    from oracles.web import present

    policy = game_part("codename", "policy")
    state = load_game("codename").new_initial_state()
    rng = random.Random(3)
    while True:
        assert not state.is_terminal(), "no second turn came: pick another seed"
        seat = state.current_player()
        if seat < 0:
            state.apply_action(state.sample_chance(rng))
            continue
        view = state.view(seat)
        if view["decision"]["kind"] == "turn" and (view.get("turn") or 0) >= 3:
            break
        state.apply_action(policy(state, seat, rng))
    assert view["log"][-1]["kind"] == "turn"
    status = status_of(draw(state, seat, "en"))
    assert "plays." not in status and "ends the turn" not in status
    meaningful = [e for e in view["log"] if e["kind"] not in ("turn", "end", "draw", "reshuffle", "first")]
    told = present.event_line("codename", meaningful[-1], seat, ["Ann", "Bea"], "en")
    assert f"Last: {told}" in status
