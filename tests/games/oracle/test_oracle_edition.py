"""The ``edition`` option: classic by default, the balanced edition on request, and
records written before the option existed replay with the classic points."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from oracles.core.errors import OptionError
from oracles.core.records import replay_record
from oracles.core.registry import load_game
from oracles.games.oracle.prophecies import (
    EDITION_PATHS,
    PLAYER_COUNTS,
    chip_quantities,
    default_edition,
    edition_json,
    edition_named,
    edition_points,
    load_edition,
    repointed,
    with_points_at,
)
from oracles.games.oracle.rules import OracleGame
from oracles.games.oracle.scoring import round_points
from oracles.games.oracle.views import build_view

CLASSIC_POINTS = [4, 5, 5, 7, 9, 10, 10, 14, 3, 3, 2, 6, 7, 6, 8, 8, 2, 6, 15, 7]
CLASSIC_POINTS += [8, 9, 10, 6, 5, 5, 6, 7, 5, 5, 4, 4, 6, 12, 9, 7, 8, 1, 12, 4]


def edition_of(**options: Any) -> Any:
    return load_game("oracle", **options).edition  # type: ignore[attr-defined]


def test_the_default_is_the_classic_edition() -> None:
    """The contract fixes the classic points as the game's table and §2 replays a
    record's left-out options with their defaults, so ``classic`` stays the
    default (records without the option replay with it) and ``balanced``
    is offered by name (docs/analysis.md)."""
    assert load_game("oracle").options["edition"] == "classic"
    assert edition_of() is edition_named("classic")
    assert edition_of(edition="balanced") is edition_named("balanced").for_players(4)


def test_classic_loads_the_points_of_the_spec() -> None:
    assert [card.points for card in edition_of(edition="classic").cards] == CLASSIC_POINTS
    assert edition_of(edition="classic") is default_edition()


def test_the_balanced_edition_changes_points_and_a_few_conditions() -> None:
    """Points everywhere; a condition only where no points could balance the
    card (``oracles balance``), and then the card's texts say the new one."""
    classic, balanced = edition_named("classic"), edition_named("balanced")
    assert [c.id for c in balanced.cards] == [c.id for c in classic.cards]
    description = json.loads(EDITION_PATHS["balanced"].read_text(encoding="utf-8"))["description"]
    changed = []
    for old, new in zip(classic.cards, balanced.cards, strict=True):
        assert all(new.points_at(n) >= 1 for n in PLAYER_COUNTS)
        if new.condition == old.condition:
            assert (new.text_en, new.text_de) == (old.text_en, old.text_de)
        else:
            changed.append(new.id)
            assert new.text_en != old.text_en and new.text_de != old.text_de
            assert new.id in description
    assert 0 < len(changed) <= 8
    assert "O22" in changed  # the Hydra Loser chip held in no round where it was kept


def test_an_edition_file_can_be_named_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(edition_json(repointed(default_edition(), {"O01": 11}, "mine")), encoding="utf-8")
    assert edition_of(edition=str(path)).card("O01").points == 11
    assert load_edition(path).name == "mine"


def test_an_unknown_edition_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="unknown edition 'fancy'"):
        load_game("oracle", edition="fancy")


def test_repointing_keeps_points_positive() -> None:
    with pytest.raises(ValueError, match="positive integer"):
        repointed(default_edition(), {"O01": 0}, "bad")
    assert edition_points(repointed(default_edition(), {"O02": 7}, "x"))["O02"] == 7


def played_record(**options: Any) -> dict[str, Any]:
    """A finished one-round game of random moves."""
    state = load_game("oracle", rounds=1, **options).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    record = state.record()
    record["scores"] = state.scores()
    return record


def test_records_write_their_edition_and_replay_to_the_same_scores() -> None:
    record = played_record(edition="balanced")
    assert record["options"]["edition"] == "balanced"
    assert replay_record(record).scores() == record["scores"]


def test_a_record_without_edition_replays_with_classic_points() -> None:
    record = played_record(edition="classic")
    del record["options"]["edition"]  # as written before the option existed
    state = replay_record(record)
    assert state.game.options["edition"] == "classic"
    assert state.scores() == record["scores"]


def test_the_shipped_edition_files_are_package_data() -> None:
    for path in EDITION_PATHS.values():
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["cards"]) == 40


# ------------------------------------------------------------ points by player count
def per_count_file(tmp_path: Path, points: object, card: str = "O12") -> Path:
    """Classic with one card's ``points`` field replaced by ``points``."""
    data = json.loads(edition_json(default_edition()))
    data["cards"][int(card[1:]) - 1]["points"] = points
    path = tmp_path / "per-count.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_player_counts_are_the_games() -> None:
    assert tuple(range(OracleGame.min_players, OracleGame.max_players + 1)) == PLAYER_COUNTS


def test_per_count_points_score_by_the_games_player_count(tmp_path: Path) -> None:
    """O12 (a chip of every creature) worth 2 at three players, 5 at four and
    9 at five: the game, its scoring and its views use their own count's."""
    path = per_count_file(tmp_path, {"3": 2, "4": 5, "5": 9})
    edition = load_edition(path)
    assert [edition.points_for("O12", n) for n in (3, 4, 5)] == [2, 5, 9]
    totals = {}
    for players, worth in ((3, 2), (4, 5), (5, 9)):
        game = load_game("oracle", players=players, edition=str(path))
        assert game.edition.card("O12").points == worth  # type: ignore[attr-defined]
        assert game.edition.card("O13").points == default_edition().card("O13").points  # type: ignore[attr-defined]
        seats = [chip_quantities(hydra=1, pegasus=2, phoenix=1)] + [chip_quantities()] * (players - 1)
        kept = [(11, 37)] * players  # O12 and O38 (no Hydra chip: fails for seat 0)
        totals[players] = round_points(seats, kept, game.edition)[0]  # type: ignore[attr-defined]
        for seed in range(50):  # a deal (fixed seeds) that hands O12 to some seat
            state = game.new_initial_state()
            rng = random.Random(seed)
            while state.is_chance_node():  # the deal and the Oracle cards
                state.apply_action(state.sample_chance(rng))
            holders = [s for s, hand in enumerate(state.oracle_cards) if 11 in hand]  # type: ignore[attr-defined]
            if holders:
                break
        view = build_view(state, holders[0])  # type: ignore[arg-type]
        assert {card["id"]: card["points"] for card in view["oracle_cards"]}["O12"] == worth
    assert totals[5] - totals[3] == 9 - 2
    assert totals[4] - totals[3] == 5 - 2


def test_per_count_points_round_trip_and_equal_tables_read_as_integers(tmp_path: Path) -> None:
    edition = load_edition(per_count_file(tmp_path, {"3": 2, "4": 5, "5": 9}))
    again = tmp_path / "again.json"
    again.write_text(edition_json(edition), encoding="utf-8")
    assert json.loads(again.read_text(encoding="utf-8"))["cards"][11]["points"] == {"3": 2, "4": 5, "5": 9}
    assert load_edition(again).card("O12").points_by_players == ((3, 2), (4, 5), (5, 9))
    same = load_edition(per_count_file(tmp_path, {"3": 6, "4": 6, "5": 6}))
    assert same.card("O12").points_by_players == () and same.card("O12").points == 6
    assert not same.per_count and same.for_players(3) is same


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"3": 0, "4": 5, "5": 6}, "O12: its points at 3 players must be a positive integer, got 0"),
        ({"3": 4, "4": "five", "5": 6}, "O12: its points at 4 players must be a positive integer"),
        ({"3": 4, "4": 5}, "O12: per-count points must be keyed by the player counts 3, 4, 5"),
        ({"3": 4, "4": 5, "5": 6, "6": 7}, "keyed by the player counts 3, 4, 5 .each once., got 3, 4, 5, 6"),
        ("lots", "O12: points must be an integer or an object keyed by player count"),
        ([4, 5, 6], "O12: points must be an integer or an object keyed by player count"),
    ],
)
def test_a_bad_points_value_is_one_clear_error(tmp_path: Path, points: object, message: str) -> None:
    path = per_count_file(tmp_path, points)
    with pytest.raises(ValueError, match=message):
        load_edition(path)
    with pytest.raises(OptionError, match="O12"):
        load_game("oracle", edition=str(path))


def test_classic_is_the_same_at_every_player_count() -> None:
    classic = default_edition()
    assert not classic.per_count
    for players in PLAYER_COUNTS:
        edition = edition_of(players=players)
        assert edition is classic
        assert [card.points for card in edition.cards] == CLASSIC_POINTS
    text = json.loads(edition_json(classic))
    assert all(isinstance(row["points"], int) for row in text["cards"])


def test_balancing_one_count_keeps_the_others(tmp_path: Path) -> None:
    """``oracles balance --players 3`` writes the 3-player points only."""
    start = load_edition(per_count_file(tmp_path, {"3": 2, "4": 5, "5": 9}))
    played = repointed(start.for_players(3), {"O12": 4, "O01": 8}, "x")
    written = with_points_at(start, 3, played, "x")
    assert written.card("O12").points_by_players == ((3, 4), (4, 5), (5, 9))
    assert written.card("O01").points_by_players == ((3, 8), (4, 4), (5, 4))
    assert written.card("O02") == start.card("O02")
    back = with_points_at(written, 3, repointed(written.for_players(3), {"O01": 4}, "x"), "x")
    assert back.card("O01").points_by_players == () and back.card("O01").points == 4
