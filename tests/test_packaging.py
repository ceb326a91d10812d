"""The lock file pins every dependency the project declares, and a seeded
game is the same game in another process (no hidden dependence on hash
seeds, dict order of a run or anything else that varies between processes)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_lock_file_pins_every_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        declared |= {_name(r) for r in extra if not r.startswith("oracles")}
    pinned = {
        line.split("==")[0].lower().replace("_", "-")
        for line in (ROOT / "requirements" / "dev.lock").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    assert declared - pinned == set(), "run `make lock` after changing pyproject.toml"


PLAY = """
import json, random, sys
from oracles import load_game
from oracles.bots import SeatInfo, make_bot
game = load_game(sys.argv[1])
state = game.new_initial_state()
rng = random.Random(11)
bots = [make_bot("heuristic", seat, seed=11) for seat in range(game.num_players)]
while not state.is_terminal() and len(state.history()) < 400:
    if state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    else:
        seat = state.current_player()
        state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
print(json.dumps(state.record()))
"""


@pytest.mark.parametrize("game_id", ["oracle", "inrah", "codename"])
def test_same_seed_same_game_in_two_processes(game_id: str) -> None:
    records = []
    for hash_seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", PLAY, game_id],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
            env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"},
        )
        records.append(json.loads(result.stdout))
    assert records[0] == records[1]
    assert len(records[0]["actions"]) > 10


LAZY = """
import random, sys
from oracles import load_game
from oracles.bots import SeatInfo, make_bot
for game_id in ("oracle", "inrah", "codename"):
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(1)
    bots = [make_bot("ismcts:iterations=5:rollout=heuristic", seat) for seat in range(game.num_players)]
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
print(" ".join(name for name in ("rich", "numpy", "babel") if name in sys.modules))
"""


def test_rules_and_bots_import_no_front_end_library() -> None:
    """Playing with bots loads each game's rules, policy and evaluator, never
    the terminal renderer (rich), the research encoder (numpy) or Babel."""
    result = subprocess.run(
        [sys.executable, "-c", LAZY], capture_output=True, text=True, check=True, timeout=300
    )
    assert result.stdout.strip() == ""
