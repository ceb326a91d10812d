"""The ``oracles`` command, driven in-process on the toy game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracles.cli import main
from oracles.core.records import load_record_file, replay_record


def _write(tmp_path: Path, record: object, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


def test_replay_json_of_a_finished_game(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {"format": "oracles/1", "game": "toy", "actions": ["deal 4 / 2", "bet", "bet"]})
    assert main(["replay", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["terminal"] is True and out["scores"] == [2, -2] and out["winners"] == [0]


def test_replay_json_of_an_unfinished_game(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {"game": "toy", "actions": ["deal 4 / 2", "bet"]})
    assert main(["replay", path, "--json", "--seat", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["terminal"] is False and out["winners"] == [] and out["current_player"] == 1
    assert out["view"]["hand"] == [2] and out["view"]["to_act"] == 1
    assert [event["kind"] for event in out["view"]["log"]] == ["deal", "bet"]


def test_replay_human_summary(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {"game": "toy", "actions": ["deal 4 / 2", "bet"]})
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "seat 1 to act" in out and "bet, fold" in out


@pytest.mark.parametrize(
    ("content", "line"),
    [
        ("{oops", "not valid JSON"),
        (
            {"game": "toy", "actions": ["deal 4 / 2", "bet", "raise"]},
            "action 2 'raise': expected bet or fold",
        ),
        (
            {"game": "toy", "options": {"colour": "R"}, "actions": []},
            "unknown option 'colour' for game 'toy'",
        ),
        ({"game": "chess", "actions": []}, "unknown game 'chess'"),
    ],
)
def test_replay_errors_are_one_line_and_exit_non_zero(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, line: str
) -> None:
    path = _write(tmp_path, content)
    assert main(["replay", path, "--json"]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and line in captured.err and "Traceback" not in captured.err


def test_a_record_saved_with_a_byte_order_mark_replays(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An editor that writes UTF-8 with a BOM: refused before with Python's
    own advice ("decode using utf-8-sig")."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"game": "toy", "actions": ["deal 4 / 2", "bet"]}).encode())
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["terminal"] is False


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "none.json")]) != 0
    assert "cannot read" in capsys.readouterr().err


def test_simulate_is_reproducible_and_worker_independent(
    toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for workers, folder in ((1, "a"), (2, "b")):
        assert (
            main(
                [
                    "simulate",
                    "toy",
                    "-n",
                    "40",
                    "--seed",
                    "5",
                    "--workers",
                    str(workers),
                    "--records",
                    str(tmp_path / folder),
                    "--json",
                ]
            )
            == 0
        )
        runs.append(json.loads(capsys.readouterr().out))
    strip = [{k: v for k, v in r.items() if k not in ("seconds", "games_per_second")} for r in runs]
    assert strip[0] == strip[1]
    assert sum(row["win_rate"] for row in runs[0]["seats"]) >= 1.0
    files_a = sorted((tmp_path / "a").iterdir())
    files_b = sorted((tmp_path / "b").iterdir())
    assert len(files_a) == 40
    assert [f.read_text() for f in files_a] == [f.read_text() for f in files_b]
    assert replay_record(load_record_file(files_a[0])).is_terminal()


def test_simulate_prints_a_table(toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "toy", "-n", "10", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "games/s" in out


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["simulate", "toy", "-n", "3", "--bots", "random,random,random"],
            "--bots names 3 bots but the game has 2 seats",
        ),
        (["simulate", "toy", "-n", "3", "--bots", "genius"], "unknown bot 'genius'"),
        (
            ["simulate", "toy", "-n", "3", "--option", "top=11"],
            "option 'top' of game 'toy' must be an integer from 2 to 9",
        ),
        (["simulate", "toy", "-n", "0"], "-n must be at least 1"),
        (["simulate", "toy", "--players", "3"], "option 'players' of game 'toy'"),
        (
            ["simulate", "oracle", "-n", "1", "--option", "players=3", "--players", "4"],
            "--players 4 and --option players=3 disagree",
        ),
    ],
)
def test_simulate_bad_input(
    toy_registered: str, capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert line in err and err.count("\n") == 1


def test_games_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for gid in ("oracle", "inrah", "codename"):
        assert gid in out
    # A default that follows other options says so (a 3-player Oracle plays
    # three rounds, not the 4 listed).
    assert out.count("(at the defaults") == 3 and "max_turns = 200:" in out


def test_tournament_duplicate_deals_and_ratings(
    toy_registered: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "toy", "--bots", "ismcts:iterations=60,random", "-n", "30", "--seed", "2", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 60 and data["lineups"] == [
        ["ismcts:iterations=60", "random"],
        ["random", "ismcts:iterations=60"],
    ]
    rows = {row["bot"]: row for row in data["bots"]}
    assert rows["random"]["seat_games"] == rows["ismcts:iterations=60"]["seat_games"] == 60
    # Duplicate deals: the search bot wins more often than the random one on the same cards.
    assert rows["ismcts:iterations=60"]["win_rate"] > rows["random"]["win_rate"]
    assert rows["ismcts:iterations=60"]["rating_mu"] > rows["random"]["rating_mu"]
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert [r["wins"] for r in again["bots"]] == [r["wins"] for r in data["bots"]]


def test_tournament_table_and_errors(toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "toy", "--bots", "random", "-n", "3", "--quiet"]) == 0
    assert "rating" in capsys.readouterr().out
    assert main(["tournament", "toy", "--bots", "random,wizard", "-n", "3"]) != 0
    assert "unknown bot 'wizard'" in capsys.readouterr().err
