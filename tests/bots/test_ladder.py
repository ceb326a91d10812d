"""The bot ladder (``benchmarks/ladder.py``) and the file the lobby reads."""

from __future__ import annotations

import doctest
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from oracles.web import present

ROOT = Path(__file__).resolve().parents[2]


def ladder_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_schedule_puts_every_level_at_the_table() -> None:
    ladder = ladder_module()
    assert doctest.testmod(ladder).failed == 0
    keys = ["a", "b", "c", "d"]
    seen = [lineup for lineup in ladder.schedule(4, keys, 8)]
    assert all(sorted(lineup) == keys for lineup in seen)
    assert {lineup.index("a") for lineup in seen} == {0, 1, 2, 3}
    strong = list(ladder.schedule(2, [*keys, "x"], 6, must="x"))
    assert all("x" in lineup for lineup in strong)


def test_quick_run_writes_the_table_and_the_lobby_file(tmp_path: Path) -> None:
    ladder = ladder_module()
    assert ladder.main(["--quick", "--workers", "1", "--only", "inrah", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "ladder.json").read_text())
    keys = [level["key"] for level in data["levels"]]
    ratings = data["games"]["inrah"]["ratings"]
    assert sorted(ratings) == sorted(keys)
    assert sum(r["games"] for r in ratings.values()) == 3 * (4 + 2)  # seats × games
    for rating in ratings.values():
        assert abs(rating["ordinal"] - (rating["mu"] - 3 * rating["sigma"])) < 1e-2
    table = (tmp_path / "ladder.md").read_text()
    assert "| Master | ISMCTS 5 s |" in table


def test_the_lobby_file_matches_the_ladder_and_the_catalog() -> None:
    ladder = ladder_module()
    data = json.loads(present.LADDER.read_text())
    assert [level["spec"] for level in data["levels"]] == [level.spec for level in ladder.LEVELS]
    for level in data["levels"]:
        assert level["name"] in present.LEVEL_NAMES  # so the catalog translates it
    for game in ("oracle", "inrah", "codename"):
        levels = present.bot_levels(game)
        assert [lv.spec for lv in levels] == [spec for spec in data["games"][game]["specs"].values()]
        assert all(lv.rating is not None for lv in levels)
    assert "rollout=heuristic" in present.bot_levels("codename")[3].spec
