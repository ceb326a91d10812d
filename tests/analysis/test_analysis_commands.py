"""``oracles analyze`` and ``oracles balance`` on tiny budgets."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from oracles.cli import main


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_analyze_oracle_writes_report_and_tidy_data(tmp_path: Path) -> None:
    out = tmp_path / "report"
    args = ["analyze", "oracle", "-n", "4", "--option", "rounds=1", "--variant-games", "1", "--quiet"]
    assert main([*args, "--out", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    for name in ("prophecies", "creatures", "seats", "dealer", "variants"):
        assert (out / f"{name}.csv").is_file()
        assert f'id="{name}"' in html
    assert '<img src="prophecies-expected_when_kept.png"' in html
    assert (out / "prophecies-expected_when_kept.png").stat().st_size > 1000
    prophecies = rows(out / "prophecies.csv")
    assert [row["id"] for row in prophecies] == [f"O{i:02d}" for i in range(1, 41)]
    # 4 games x 4 seats x 10 cards are dealt, 2 kept per seat.
    assert sum(int(row["dealt"]) for row in prophecies) == 160
    assert sum(int(row["kept"]) for row in prophecies) == 32
    assert all(row["warning"].startswith("too few") for row in prophecies)
    variants = [row["variant"] for row in rows(out / "variants.csv")]
    assert variants == ["plain, 4 players (main)", "draft", "3 players", "5 players"]


def test_analyze_inrah_and_codename(tmp_path: Path) -> None:
    inrah = tmp_path / "inrah"
    args = ["analyze", "inrah", "-n", "4", "--option", "rounds=3", "--bots", "random", "--quiet"]
    assert main([*args, "--variant-games", "2", "--out", str(inrah)]) == 0
    assert [row["round"] for row in rows(inrah / "bids_by_round.csv")] == ["1", "2", "3"]
    labels = {row["variant"] for row in rows(inrah / "variants.csv")}
    assert {"main", "forbid_exact_sum on", "trump off", "purpurberg", "altaia"} <= labels
    assert {row["configuration"].split(" (")[0] for row in rows(inrah / "dealer.csv")} == {
        "main",
        "forbid_exact_sum on",
    }
    codename = tmp_path / "codename"
    assert (
        main(["analyze", "codename", "-n", "4", "--bots", "random", "--quiet", "--out", str(codename)]) == 0
    )
    first = rows(codename / "first_player.csv")
    assert sum(float(row["rate"]) for row in first) == pytest.approx(1.0)
    assert "reveal" in {row["effect"] for row in rows(codename / "effects.csv")}


def test_analyze_reads_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    assert (
        main(["simulate", "oracle", "-n", "3", "--option", "rounds=1", "--records", str(records), "--quiet"])
        == 0
    )
    out = tmp_path / "report"
    assert main(["analyze", "oracle", "--records", str(records), "--out", str(out), "--quiet"]) == 0
    seats = rows(out / "seats.csv")
    assert [int(row["games"]) for row in seats] == [3, 3, 3, 3]


def test_analyze_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "oracle", "--records", str(tmp_path / "none"), "--quiet"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["analyze", "chess", "--quiet"]) == 1
    capsys.readouterr()
    # A bad option without --quiet: the progress bar had left an empty line first.
    assert main(["analyze", "oracle", "-n", "2", "--option", "players=abc"]) == 1
    assert capsys.readouterr().err.startswith("option 'players' of game 'oracle'")


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["analyze", "oracle", "--out", "{file}"], "cannot write the report into"),
        (["analyze", "oracle", "--out", "/proc/no/such"], "cannot write the report into"),
        (["balance", "oracle", "--out", "/proc/no/such/e.json"], "cannot write the edition into"),
        (["balance", "oracle", "--out", "{dir}"], "is a folder"),
        (["balance", "oracle", "--tolerance", "nan"], "--tolerance is a share of the median from 0 to 1"),
        (["balance", "oracle", "--tolerance", "-1"], "--tolerance"),
        # An edition that is not one says so (was Python's "[Errno 2] ..." and
        # "Expecting value: line 1 column 1 (char 0)").
        (["balance", "oracle", "--start", "nosuch"], "unknown edition 'nosuch': classic, balanced or"),
        (["balance", "oracle", "--start", "{file}"], "is not an edition file: not JSON"),
        (["analyze", "oracle", "--option", "edition={file}"], "is not an edition file: not JSON"),
    ],
)
def test_a_bad_out_or_tolerance_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], said: str
) -> None:
    """These failed with an internal error once every game had been played."""
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    filled = [a.format(file=tmp_path / "a-file", dir=tmp_path) for a in command]
    budget = (
        ["-n", "2", "--option", "rounds=1"]
        if filled[0] == "analyze"
        else ["-n", "2", "--check-games", "2", "--steps", "1"]
    )
    assert main([*filled, *budget, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_analyze_without_matplotlib(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["analyze", "oracle", "-n", "1", "--quiet"]) == 1
    assert capsys.readouterr().err.strip() == "the analysis needs matplotlib: pip install 'oracles[analysis]'"


def test_balance_writes_a_loadable_edition(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from oracles.core.registry import load_game

    out = tmp_path / "edition.json"
    args = ["balance", "oracle", "-n", "3", "--check-games", "3", "--steps", "2", "--quiet"]
    status = main([*args, "--out", str(out)])
    assert status in (0, 2)  # 2: the goal is not met on so few games
    result = json.loads(capsys.readouterr().out)
    assert result["edition"] == str(out)
    game = load_game("oracle", edition=str(out))
    edition = game.edition  # type: ignore[attr-defined]
    assert edition.name == "balanced"
    assert all(card.points >= 1 for card in edition.cards)
    history = rows(tmp_path / "edition-history.csv")
    assert len(history) == 40 * 2


def test_balance_at_one_player_count_keeps_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--players 3`` re-points the 3-player points of the start edition;
    its 4- and 5-player points and every condition stay (``--points-only``)."""
    from oracles.games.oracle.prophecies import PLAYER_COUNTS, edition_named, load_edition

    out = tmp_path / "three.json"
    args = ["balance", "oracle", "--start", "balanced", "--players", "3", "-n", "3", "--check-games", "3"]
    status = main([*args, "--steps", "2", "--points-only", "--quiet", "--out", str(out)])
    assert status in (0, 2)
    capsys.readouterr()
    start, written = edition_named("balanced"), load_edition(out)
    for old, new in zip(start.cards, written.cards, strict=True):
        assert new.condition == old.condition
        assert [new.points_at(n) for n in PLAYER_COUNTS if n != 3] == [old.points_at(4), old.points_at(5)]
    step0 = [row for row in rows(tmp_path / "three-history.csv") if row["step"] == "0"]
    assert {row["id"]: int(row["points"]) for row in step0} == {
        card.id: card.points_at(3) for card in start.cards
    }  # the loop started from the 3-player points


def test_analyze_inrah_at_an_odd_count_compares_what_can_be_played(tmp_path: Path) -> None:
    """Three seats: Purpurberg (teams of opposite seats) cannot be played,
    and comparing it ended the run with an error after the main games."""
    out = tmp_path / "three"
    args = ["analyze", "inrah", "--players", "3", "-n", "2", "--option", "rounds=2", "--bots", "random"]
    assert main([*args, "--variant-games", "1", "--quiet", "--out", str(out)]) == 0
    labels = [row["variant"] for row in rows(out / "variants.csv")]
    assert labels == ["main", "forbid_exact_sum on", "trump off", "altaia"]


def test_the_compared_configurations_follow_the_options_as_the_game_reads_them(tmp_path: Path) -> None:
    """'--option trump=false' was read as true ("false" is a non-empty text),
    so the run compared "trump off", the main games again, and never trump
    on; 'variant=ALTAIA' was compared with altaia and with forbid_exact_sum."""
    out = tmp_path / "inrah"
    args = ["analyze", "inrah", "-n", "2", "--option", "rounds=2", "--bots", "random", "--quiet"]
    options = ["--option", "trump=false", "--option", "variant=ALTAIA", "--variant-games", "1"]
    assert main([*args, *options, "--out", str(out)]) == 0
    assert [row["variant"] for row in rows(out / "variants.csv")] == [
        "main",
        "trump on",
        "standard",
        "purpurberg",
    ]
