"""``oracles replay FILE --from N`` and ``oracles simulate --deals-from``:
branching a finished record from the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from oracles.cli import main
from oracles.core.records import chance_actions, load_record_file, replay_record
from oracles.core.registry import load_game
from oracles.simulate import play_game


def finished_record(tmp_path: Path, game_id: str, **options: object) -> Path:
    state, _ = play_game(load_game(game_id, **options), ["random"] * 4, seed="origin")
    path = tmp_path / f"{game_id}.json"
    path.write_text(json.dumps(state.record()))
    return path


@pytest.mark.parametrize(("game_id", "options"), [("oracle", {}), ("inrah", {"players": 4})])
def test_simulate_on_the_deals_of_a_record_rotates_the_bots(
    game_id: str, options: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin = finished_record(tmp_path, game_id, **options)
    out_dir = tmp_path / "dup"
    argv = ["simulate", "--deals-from", str(origin), "--bots", "heuristic,random,random,random", "--json"]
    assert main([*argv, "--records", str(out_dir), "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4  # one per seat by default
    assert [row["bot"] for row in data["bots"]] == ["heuristic", "random", "random", "random"]
    assert all(len(row["scores"]) == 4 for row in data["bots"])
    assert [game["seating"][0] for game in data["results"]] == [0, 1, 2, 3]
    planned = chance_actions(load_record_file(origin))
    records = sorted(out_dir.glob("*.json"))
    assert len(records) == 4
    for path in records:
        assert chance_actions(load_record_file(path)) == planned
    assert all(len(game["rounds"]) == len(data["origin"]["rounds"]) for game in data["results"])


def test_simulate_deals_from_refuses_what_the_record_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin = str(finished_record(tmp_path, "oracle"))
    assert main(["simulate", "--deals-from", origin, "--players", "3"]) == 1
    assert "--players" in capsys.readouterr().err
    assert main(["simulate", "inrah", "--deals-from", origin]) == 1
    assert "is a game of oracle" in capsys.readouterr().err
    assert main(["simulate", "--deals-from", origin, "--workers", "2"]) == 1
    assert "--workers" in capsys.readouterr().err
    assert main(["simulate"]) == 1
    assert "--deals-from" in capsys.readouterr().err


def test_simulate_deals_from_refuses_codename(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, _ = play_game(load_game("codename", max_turns=10), ["random"] * 2, seed="origin")
    path = tmp_path / "codename.json"
    path.write_text(json.dumps(state.record()))
    assert main(["simulate", "--deals-from", str(path)]) == 1
    err = capsys.readouterr().err
    assert "same deals" in err and err.count("\n") == 1


def test_replay_from_plays_on_against_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin = finished_record(tmp_path, "oracle")
    saved = tmp_path / "branch.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    assert main(["replay", str(origin), "--from", "12", "--fast", "--save", str(saved)]) == 0
    assert "playing on from action 12" in capsys.readouterr().out
    branch, record = load_record_file(saved), load_record_file(origin)
    assert branch["actions"][:12] == record["actions"][:12]
    assert replay_record(branch).is_terminal()
    assert chance_actions(branch) == chance_actions(record)  # Oracle's deals never depend on play


def test_replay_from_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    origin = str(finished_record(tmp_path, "inrah", players=4))
    length = len(load_record_file(origin)["actions"])
    assert main(["replay", origin, "--from", str(length + 1)]) == 1
    said = f"--from N plays on after the record's first N actions: N is from 0 to {length - 1} here"
    assert said in capsys.readouterr().err
    assert main(["replay", origin, "--from", str(length)]) == 1
    assert f"after {length} the game is over" in capsys.readouterr().err
    # What belongs to playing on is refused without --from (was ignored).
    assert main(["replay", origin, "--lang", "de"]) == 1
    assert "--lang go with --from N" in capsys.readouterr().err
    assert main(["replay", origin, "--from", "3", "--json"]) == 1
    assert "--json" in capsys.readouterr().err
    assert main(["replay", origin, "--from", "3", "--seat", "7"]) == 1
    assert "--seat" in capsys.readouterr().err
