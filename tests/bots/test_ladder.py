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


def test_schedule_puts_every_level_in_every_seat_of_a_deal() -> None:
    ladder = ladder_module()
    assert doctest.testmod(ladder).failed == 0
    keys = ["a", "b", "c", "d"]
    seen = list(ladder.schedule(4, keys, 8))
    assert len(seen) == 8
    assert all(sorted(lineup) == keys for lineup in seen)
    # One deal is a block of four games: there each level sits in each seat.
    for block in (seen[:4], seen[4:]):
        assert {lineup.index("a") for lineup in block} == {0, 1, 2, 3}
    pairs = list(ladder.schedule(2, keys, 12))
    assert all(pairs[i] == pairs[i + 1][::-1] for i in range(0, 12, 2))
    assert len({frozenset(p) for p in pairs}) == 6  # every pair meets
    assert len(list(ladder.schedule(2, keys, 3))) == 4  # whole blocks only


def test_separated_wants_each_interval_above_the_weaker_ones() -> None:
    ladder = ladder_module()
    keys = [level.key for level in ladder.LEVELS]
    apart = {k: {"mu": 10.0 * i, "sigma": 2.0} for i, k in enumerate(keys)}
    assert ladder.separated(apart) == [True, True, True]
    touching = dict(apart)
    touching[keys[2]] = {"mu": 14.0, "sigma": 2.0}  # 10 + 2 is not below 14 - 2
    assert ladder.separated(touching) == [True, False, True]


def test_quick_run_writes_the_table_and_the_lobby_file(tmp_path: Path) -> None:
    ladder = ladder_module()
    assert ladder.main(["--quick", "--workers", "1", "--only", "inrah", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "ladder.json").read_text())
    keys = [level["key"] for level in data["levels"]]
    ratings = data["games"]["inrah"]["ratings"]
    assert sorted(ratings) == sorted(keys)
    # Three seats, four levels: each choice of three in three rotations on
    # one deal; four games asked for are two whole blocks, six games.
    assert sum(r["games"] for r in ratings.values()) == 3 * 6
    assert data["games"]["inrah"]["run"]["games"] == 6
    for rating in ratings.values():
        assert abs(rating["ordinal"] - (rating["mu"] - 3 * rating["sigma"])) < 1e-2
    assert data["games"]["inrah"]["run"]["bots"] == ladder.bots_digest("inrah")
    table = (tmp_path / "ladder.md").read_text()
    assert "| Master | deep search |" in table


def test_the_lobby_file_matches_the_ladder_and_the_catalog() -> None:
    ladder = ladder_module()
    data = json.loads(present.LADDER.read_text())
    assert [level["key"] for level in data["levels"]] == [level.key for level in ladder.LEVELS]
    for level in data["levels"]:
        assert level["name"] in present.LEVEL_NAMES  # so the catalog translates it
        assert level["what"] in present.LEVEL_WHAT
    for game in ("oracle", "inrah", "codename"):
        levels = present.bot_levels(game)
        assert [lv.spec for lv in levels] == list(ladder.specs_for(game, quick=False).values())
        assert [lv.what for lv in levels] == list(ladder.what_for(game).values())
        assert all(lv.what in present.LEVEL_WHAT for lv in levels)
        assert all(lv.rating is not None for lv in levels)
    assert "rollout=heuristic" in present.bot_levels("codename")[3].spec


def test_the_stored_ladder_measured_the_bots_of_today() -> None:
    """Fails when a bot's code or a level's parameters changed after the
    stored run: run ``benchmarks/ladder.py`` again (see docs/bots.md)."""
    ladder = ladder_module()
    data = json.loads(present.LADDER.read_text())
    for game in ("oracle", "inrah", "codename"):
        run = data["games"][game]["run"]
        assert run["bots"] == ladder.bots_digest(game), (
            f"{game}'s ladder predates its bots' code (run of {run['date']})"
        )


def test_a_change_to_one_game_s_bots_stales_that_game_alone(tmp_path: Path) -> None:
    """The digest reads the shared bots and the game's own package: a new
    Codename search stales Codename's ladder and leaves the others'; a
    change to the shared search stales every game's."""
    ladder = ladder_module()
    for pattern in ladder.BOT_SOURCES:
        for game in ("oracle", "inrah", "codename"):
            path = tmp_path / pattern.format(game=game)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# {path.name}\n")
    before = {game: ladder.bots_digest(game, tmp_path) for game in ("oracle", "inrah", "codename")}
    assert len(set(before.values())) == 3  # each game's own budgets and files
    (tmp_path / "src/oracles/games/codename/search.py").write_text("# a new search\n")
    after = {game: ladder.bots_digest(game, tmp_path) for game in ("oracle", "inrah", "codename")}
    assert after["codename"] != before["codename"]
    assert after["oracle"] == before["oracle"] and after["inrah"] == before["inrah"]
    (tmp_path / "src/oracles/bots/ismcts.py").write_text("# a new shared search\n")
    shared = {game: ladder.bots_digest(game, tmp_path) for game in ("oracle", "inrah", "codename")}
    assert all(shared[game] != after[game] for game in shared)


def test_the_stored_ladder_orders_the_levels_and_keeps_the_promised_time() -> None:
    """The lobby names the levels weakest first: the stored run must rate
    them in that order (mu and the ordinal it shows), each level's interval
    wholly above the one below (issue 35), and Master's slowest move must
    be within the 2 s the lobby promises."""
    ladder = ladder_module()
    data = json.loads(present.LADDER.read_text())
    keys = [level.key for level in ladder.LEVELS]
    for game in ("oracle", "inrah", "codename"):
        ratings = data["games"][game]["ratings"]
        for figure in ("mu", "ordinal"):
            values = [ratings[key][figure] for key in keys]
            assert values == sorted(values), f"{game}: levels out of order by {figure}: {values}"
        assert all(ladder.separated(ratings)), f"{game}: neighbouring intervals overlap"
        assert ratings["master"]["slowest"] <= ladder.MASTER_SECONDS


def test_a_run_drops_the_stored_games_of_other_levels(tmp_path: Path) -> None:
    """An older ladder's games (other level keys) are not carried into the
    new file: they would name levels the lobby no longer has."""
    ladder = ladder_module()
    old = {"levels": [], "games": {"oracle": {"ratings": {"ismcts-5": {"mu": 1.0, "sigma": 1.0}}}}}
    (tmp_path / "ladder.json").write_text(json.dumps(old))
    assert ladder.main(["--quick", "--workers", "1", "--only", "codename", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert list(data["games"]) == ["codename"]
