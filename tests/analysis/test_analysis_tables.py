"""The figures of each game's report tables, on hand-made facts: what each
column counts, and that a figure that cannot be read is not shown as one."""

from __future__ import annotations

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
