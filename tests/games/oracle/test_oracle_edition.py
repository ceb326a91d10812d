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
    changed: dict[int, list[str]] = {n: [] for n in PLAYER_COUNTS}
    for old, card in zip(classic.cards, balanced.cards, strict=True):
        for players in PLAYER_COUNTS:
            new = balanced.for_players(players).card(card.id)
            assert new.points >= 1
            if new.condition == old.condition:
                assert (new.text_en, new.text_de) == (old.text_en, old.text_de)
            else:
                changed[players].append(new.id)
                assert new.text_en != old.text_en and new.text_de != old.text_de
                assert new.id in description
    assert 0 < len(changed[4]) <= 8
    assert "O22" in changed[4]  # the Hydra Loser chip held in no round where it was kept
    # With five players (three Pegasus chips in play) O08 *exactly three Pegasus chips* held in none of its deals.
    assert "O08" in changed[5] and "O08" not in changed[4]


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
        ({"3": 0, "4": 5, "5": 6}, "O12: its points at 3 players must be an integer from 1 to 1000, got 0"),
        ({"3": 4, "4": "five", "5": 6}, "O12: its points at 4 players must be an integer from 1 to 1000"),
        ({"3": 4, "4": 10**30, "5": 6}, "O12: its points at 4 players must be an integer from 1 to 1000"),
        ({"3": 4, "4": 5}, "O12: per-count points must be keyed by the player counts 3, 4, 5"),
        ({"3": 4, "4": 5, "5": 6, "6": 7}, "keyed by the player counts 3, 4, 5 .each once., got 3, 4, 5, 6"),
        ("lots", "O12: points must be an integer from 1 to 1000 or an object keyed by player count"),
        ([4, 5, 6], "O12: points must be an integer from 1 to 1000 or an object keyed by player count"),
        # Regression: each was taken (the string and the float as 7, the rest as they came).
        ("7", "O12: points must be an integer from 1 to 1000"),
        (7.5, "O12: points must be an integer from 1 to 1000"),
        (0, "O12: points must be an integer from 1 to 1000"),
        (-50, "O12: points must be an integer from 1 to 1000"),
        (10**30, "O12: points must be an integer from 1 to 1000"),
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


# ------------------------------------------------------------ conditions by player count
#: A card that holds for every seat at a table of five and for none at three or four.
FIVE_ONLY = {
    "condition": {"3": "chips < 0", "4": "chips < 0", "5": "chips >= 0"},
    "text_en": {"3": "never", "4": "never", "5": "always at five"},
    "text_de": {"3": "nie", "4": "nie", "5": "immer zu fünft"},
}


def worded_file(tmp_path: Path, fields: dict[str, object], cards: Any = None, name: str = "worded") -> Path:
    """Classic with ``fields`` replaced in the given cards (default: every card)."""
    data = json.loads(edition_json(default_edition()))
    for row in data["cards"]:
        if cards is None or row["id"] in cards:
            row.update(fields)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def finished_game(players: int, path: Path, seed: int = 3) -> Any:
    state = load_game("oracle", players=players, rounds=1, edition=str(path)).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_per_count_condition_resolves_and_compiles(tmp_path: Path) -> None:
    edition = load_edition(worded_file(tmp_path, FIVE_ONLY, ["O12"]))
    card = edition.card("O12")
    assert card.condition == "chips < 0" and card.text_en == "never"  # the default count's (4)
    assert card.wording_at(5) == ("chips >= 0", "always at five", "immer zu fünft")
    five = edition.for_players(5).card("O12")
    assert (five.condition, five.text_en, five.text_de) == ("chips >= 0", "always at five", "immer zu fünft")
    assert not five.per_count and five.text("de") == "immer zu fünft"
    nobody = [chip_quantities()] * 5
    assert five.holds(nobody, 0) and not edition.for_players(3).card("O12").holds(nobody[:3], 0)
    assert edition.for_players(5) is edition.for_players(5)  # resolved once
    assert edition.for_players(5).card("O13") == default_edition().card("O13")


def test_a_five_player_condition_holds_in_a_scored_round_and_fails_at_three(tmp_path: Path) -> None:
    """Every card asks ``chips >= 0`` with five players and ``chips < 0`` with
    three: in a scored round every kept card holds at five and none at three,
    the scores say so, and the records replay to the same scores."""
    path = worded_file(tmp_path, FIVE_ONLY)
    for players, holds in ((5, True), (3, False)):
        state = finished_game(players, path)
        score = next(event for event in state.log(None) if event["kind"] == "score")
        assert score["holds"] == [[holds, holds]] * players
        stars = score["stars"]
        worth = [sum(pair) if holds else 0 for pair in score["worth"]]
        assert state.scores() == [float(s + w) for s, w in zip(stars, worth, strict=True)]
        record = state.record()
        assert replay_record(record).scores() == state.scores()


def test_a_seat_at_five_sees_the_five_player_words_in_both_languages(tmp_path: Path) -> None:
    path = worded_file(tmp_path, FIVE_ONLY)
    for players, english, german in ((5, "always at five", "immer zu fünft"), (4, "never", "nie")):
        state = load_game("oracle", players=players, rounds=1, edition=str(path)).new_initial_state()
        rng = random.Random(0)
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        view = build_view(state, 0)  # type: ignore[arg-type]
        assert {(card["text"], card["text_de"]) for card in view["oracle_cards"]} == {(english, german)}
        # The other seats' cards stay hidden: the public view names none.
        assert build_view(state, None)["oracle_cards"] == []  # type: ignore[arg-type]


def test_a_per_count_condition_round_trips_through_the_edition_file(tmp_path: Path) -> None:
    edition = load_edition(worded_file(tmp_path, FIVE_ONLY, ["O12"]))
    text = edition_json(edition)
    row = json.loads(text)["cards"][11]
    assert row["condition"] == FIVE_ONLY["condition"] and row["text_de"] == FIVE_ONLY["text_de"]
    assert json.loads(text)["cards"][12]["condition"] == default_edition().card("O13").condition  # plain
    again = tmp_path / "again.json"
    again.write_text(text, encoding="utf-8")
    assert load_edition(again).cards == edition.cards
    same = {key: dict.fromkeys(("3", "4", "5"), "no Loser chip") for key in ("text_en", "text_de")}
    plain = load_edition(worded_file(tmp_path, {**same, "condition": "losers == 0"}, ["O12"], "plain"))
    assert plain.card("O12").wording_by_players == () and not plain.per_count


def test_balancing_one_count_writes_its_condition_only(tmp_path: Path) -> None:
    start = default_edition()
    five = start.for_players(5)
    cards = list(five.cards)
    cards[11] = load_edition(worded_file(tmp_path, FIVE_ONLY, ["O12"])).for_players(5).card("O12")
    played = type(five)(name="x", cards=tuple(cards))
    written = with_points_at(start, 5, played, "x")
    assert written.card("O12").wording_at(5).condition == "chips >= 0"
    assert written.card("O12").wording_at(3) == start.card("O12").wording
    assert written.for_players(4).card("O12") == start.card("O12")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"condition": {"3": "hydra == 1", "5": "hydra >= 2"}},
            r"O12: a per-count condition must be keyed by the player counts 3, 4, 5 .each once., got 3, 5",
        ),
        (
            {**FIVE_ONLY, "condition": {"3": "hydra == 1", "4": "hydra == 1", "5": "hydra is two"}},
            r"O12 \(at 5 players\): cannot read 'hydra is two'",
        ),
        (
            {**FIVE_ONLY, "condition": {"3": "hydra == 1", "4": "hydra == 1", "5": 2}},
            "O12: its condition at 5 players must be a non-empty text, got 2",
        ),
        (
            {"condition": {"3": "hydra == 1", "4": "hydra == 1", "5": "hydra >= 2"}},
            "O12: its condition at 5 players differs from that at 3, so its text_en must too",
        ),
        (
            {**FIVE_ONLY, "text_de": "nie"},
            "O12: its condition at 5 players differs from that at 3, so its text_de must too",
        ),
    ],
)
def test_a_bad_per_count_condition_is_one_clear_error(
    tmp_path: Path, fields: dict[str, object], message: str
) -> None:
    path = worded_file(tmp_path, fields, ["O12"])
    with pytest.raises(ValueError, match=message) as caught:
        load_edition(path)
    assert "\n" not in str(caught.value)
    with pytest.raises(OptionError, match="O12"):
        load_game("oracle", edition=str(path))


def test_a_record_made_with_an_edition_file_refuses_to_replay_once_it_changed(tmp_path: Path) -> None:
    """Regression (a designer's find): a record named its edition file by
    path alone; after the file was edited, the record replayed silently to
    other scores ([8, 2, 5, 4] became [28, 2, 5, 24]). It now keeps the
    cards' digest, and a changed file is refused in one line. Shipped
    editions, which cannot change under a record, add nothing."""
    from oracles.core.errors import RecordError
    from oracles.games.oracle import prophecies

    path = per_count_file(tmp_path, 9)
    state = load_game("oracle", edition=str(path), rounds=1).new_initial_state()
    state.play_out_at_random(random.Random(3))
    record = state.record()
    assert len(record["edition_digest"]) == 16
    assert replay_record(record).scores() == state.scores()
    # The file edited (O12 now pays 30), read afresh as a new process would.
    path.write_text(path.read_text(encoding="utf-8").replace('"points": 9', '"points": 30'), encoding="utf-8")
    prophecies._NAMED.pop(str(path), None)
    with pytest.raises(RecordError, match="has changed since this game was played"):
        replay_record(record)
    classic = load_game("oracle", rounds=1).new_initial_state()
    assert "edition_digest" not in classic.record()
    # A file that is not there is named as a missing file, with where it was looked for.
    with pytest.raises(OptionError, match=r"no edition file 'nowhere\.json' \(looked for it from"):
        load_game("oracle", edition="nowhere.json")
