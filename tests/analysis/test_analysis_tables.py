"""The figures of each game's report tables, on hand-made facts: what each
column counts, and that a figure that cannot be read is not shown as one."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from oracles.analysis.collect import Played
from oracles.core.registry import game_part


def played(index: int, facts: dict[str, Any], scores: list[float], winners: list[int]) -> Played:
    return Played(index=index, scores=scores, winners=winners, length=40, facts=facts)


# --------------------------------------------------------------- Codename
def test_codename_counts_per_game_have_no_interval_below_zero() -> None:
    """An effect fired once in 30 games: its fires-per-game interval read
    -0.032 to 0.099 (normal approximation); a count is never negative."""
    analysis = game_part("codename", "analysis")
    games = []
    for index in range(30):
        actions = [["peek", 0], ["reveal", 1]] + ([["name", 0]] if index == 0 else [])
        games.append(played(index, {"first": index % 2, "turns": 5, "actions": actions}, [1, 0], [index % 2]))
    rows = {row["effect"]: row for row in analysis.effect_rows(games)}
    for row in rows.values():
        assert 0.0 <= row["per_game_low"] <= row["per_game"] <= row["per_game_high"], row
    assert rows["name"]["per_game"] == 1 / 30
    assert rows["name"]["warning"].startswith("too few to conclude")
    assert rows["peek"]["per_game_low"] == rows["peek"]["per_game_high"] == 1.0
    for row in analysis.length_rows(games):
        assert row["mean_low"] >= 0.0


# ------------------------------------------------------------------ Inrah
def inrah_game(index: int, round_scores: list[list[float]], bids: bool = True) -> Played:
    n = len(round_scores[0])
    rounds = [
        {
            "round": number + 1,
            "dealer": number % n,
            "bids": [1] * n if bids else [None] * n,
            "tricks": [1, 0] * (n // 2) + [0] * (n % 2),
            "scores": scores,
        }
        for number, scores in enumerate(round_scores)
    ]
    totals = [sum(column) for column in zip(*round_scores, strict=True)]
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    return played(index, {"players": n, "rounds": rounds}, totals, winners)


def test_purpurberg_lead_changes_are_counted_between_teams() -> None:
    """Partners (opposite seats) share every score, so no seat ever led alone
    and the table read 0.0 lead changes, with an interval of 0 to 0, in every
    Purpurberg game. The teams' lead is what changes hands."""
    analysis = game_part("inrah", "analysis")
    # Seats 0 and 2 against 1 and 3: the lead goes 0+2, 1+3, 0+2.
    scores = [[30, -10, 30, -10], [-20, 40, -20, 40], [40, 0, 40, 0]]
    games = [inrah_game(index, scores) for index in range(3)]
    row = analysis.variant_row("purpurberg", {"variant": "purpurberg", "players": 4}, games)
    assert row["lead_changes"] == 2.0
    assert analysis.game_lead_changes(games[0], "standard") == 0.0  # what seats alone gave


def test_altaia_has_no_bids_so_its_bid_accuracy_reads_n_a(tmp_path: Path) -> None:
    """Altaïa's rows showed bid_met 0.0 (interval 0 to 1) though nobody bids there."""
    from oracles.analysis.report import write_csv

    analysis = game_part("inrah", "analysis")
    games = [inrah_game(index, [[20, -10, 0], [0, 30, -10]], bids=False) for index in range(3)]
    row = analysis.variant_row("altaia", {"variant": "altaia", "players": 3}, games)
    assert row["bid_met"] is None and row["bid_met_low"] is None and row["bid_met_high"] is None
    tables = {table.name: table for table in analysis.report_tables(games, {"variant": "altaia"}, [])}
    assert "bids_by_round" not in tables and "bids_by_position" not in tables  # nothing to count
    with (write_csv(tables["variants"], tmp_path)).open(encoding="utf-8") as file:
        written = next(csv.DictReader(file))
    assert (written["bid_met"], written["bid_met_low"], written["bid_met_high"]) == ("n/a", "n/a", "n/a")
    assert float(written["lead_changes"]) >= 0


def test_inrah_compares_only_configurations_that_differ_and_exist() -> None:
    """forbid_exact_sum changes nothing without bids (Altaïa): comparing it
    showed the main games again as if they were other figures; Purpurberg
    at an odd number of seats stopped the whole run after the main games."""
    analysis = game_part("inrah", "analysis")
    altaia = [label for label, _ in analysis.variants({"variant": "altaia", "players": 4})]
    assert altaia == ["trump off", "standard", "purpurberg"]
    three = [label for label, _ in analysis.variants({"players": 3})]
    assert three == ["forbid_exact_sum on", "trump off", "altaia"]
    assert "purpurberg" in [label for label, _ in analysis.variants({"players": 6})]


# ----------------------------------------------------------------- reports
def test_a_figure_that_does_not_apply_reads_n_a_in_the_html_and_draws(tmp_path: Path) -> None:
    from oracles.analysis.report import Plot, Table, write_report

    table = Table(
        "variants",
        "Variants",
        "about",
        [
            {"variant": "standard", "bid_met": 0.5, "bid_met_low": 0.4, "bid_met_high": 0.6},
            {"variant": "altaia", "bid_met": None, "bid_met_low": None, "bid_met_high": None},
        ],
        [Plot("bid_met", "variant")],
    )
    html = write_report(tmp_path, "t", {}, [table]).read_text(encoding="utf-8")
    assert "<td>n/a</td>" in html
    assert (tmp_path / "variants-bid_met.png").stat().st_size > 1000


# ----------------------------------------------------------------- Oracle
def test_an_oracle_card_never_kept_has_no_hold_rate_when_kept() -> None:
    """A card dealt but never kept read holds_when_kept 0.0 (interval 0 to 1),
    expected points 0 and -100% against the median: figures of nothing."""
    from oracles.games.oracle.prophecies import edition_named

    analysis = game_part("oracle", "analysis")
    edition = edition_named("classic")
    seat = {
        "seat": 0,
        "position": 0,
        "score": 5,
        "stars": 5,
        "dealt": [["O01", 4, True], ["O02", 5, False], ["O03", 4, True]],
        "kept": [["O01", 4, True], ["O03", 4, True]],
    }
    games = [played(0, {"rounds": [{"players": 1, "dealer": 0, "seats": [seat]}]}, [5.0], [0])]
    rows = {row["id"]: row for row in analysis.prophecy_rows(games, edition)}
    assert rows["O01"]["holds_when_kept"] == 1.0
    never_kept = rows["O02"]
    assert never_kept["kept_rate"] == 0.0 and never_kept["dead"] is True
    for column in ("holds_when_kept", "expected_when_kept", "expected_when_kept_low", "vs_median"):
        assert never_kept[column] is None, column
    assert never_kept["holds_when_dealt"] == 0.0
    never_dealt = rows["O40"]
    assert never_dealt["kept_rate"] is None and never_dealt["dead"] is None


def test_oracle_chips_taken_count_chips_not_tricks() -> None:
    """A trick won earns a chip: a victory point chip while any is left, then
    the creature's Loser chip, and nothing when the Loser chip's holder wins
    it again. "chips taken" counted the tricks (Phoenix: 9.45 a round, with 6
    Phoenix victory point chips in play)."""
    from oracles.analysis.collect import play_games

    analysis = game_part("oracle", "analysis")
    games = play_games("oracle", {"players": 4, "rounds": 1}, ["random"], 8, 5)
    supply = {"hydra": 3, "pegasus": 4, "phoenix": 6}  # victory point chips at four players
    for round_ in analysis.rounds_of(games):
        creatures = round_["creatures"]
        assert sum(f["tricks"] for f in creatures.values()) == 15
        for name, f in creatures.items():
            # Victory point chips never go back during the play: each trick takes one until none is left.
            assert f["victory"] == min(supply[name], f["tricks"])
            assert f["forfeited"] <= f["victory"] <= f["chips"] <= f["tricks"]
    rows = {row["creature"]: row for row in analysis.creature_rows(games)}
    phoenix = rows["phoenix"]
    assert phoenix["victory_chips_taken"] <= 6
    assert phoenix["victory_chips_taken"] <= phoenix["chips_taken"] < phoenix["tricks_won"]
