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
    default_edition,
    edition_json,
    edition_named,
    edition_points,
    load_edition,
    repointed,
)

CLASSIC_POINTS = [4, 5, 5, 7, 9, 10, 10, 14, 3, 3, 2, 6, 7, 6, 8, 8, 2, 6, 15, 7]
CLASSIC_POINTS += [8, 9, 10, 6, 5, 5, 6, 7, 5, 5, 4, 4, 6, 12, 9, 7, 8, 1, 12, 4]


def edition_of(**options: Any) -> Any:
    return load_game("oracle", **options).edition  # type: ignore[attr-defined]


def test_the_default_is_the_classic_edition() -> None:
    """SPEC §3 fixes the classic points as the game's table and §2 replays a
    record's left-out options with their defaults, so ``classic`` stays the
    default (records without the option replay with it) and ``balanced``
    is offered by name (docs/analysis.md)."""
    assert load_game("oracle").options["edition"] == "classic"
    assert edition_of() is edition_named("classic")
    assert edition_of(edition="balanced") is edition_named("balanced")


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
        assert isinstance(new.points, int) and new.points >= 1
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
