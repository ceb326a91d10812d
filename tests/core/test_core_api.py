"""The core API on the toy game: options, codec, records, consistency checks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from toygame import ToyGame

from oracles import IllegalActionError, NotationError, OptionError, RecordError, UnknownGameError, load_game
from oracles.core.codec import pack, unpack
from oracles.core.options import Option, parse_option_assignments, resolve_options
from oracles.core.records import parse_record, replay_record
from oracles.testing import check_game, random_playout


@given(st.integers(2, 70).flatmap(lambda r: st.tuples(st.just(r), st.lists(st.integers(0, r - 1)))))
def test_pack_unpack_round_trip(case: tuple[int, list[int]]) -> None:
    radix, values = case
    assert unpack(pack(values, radix), radix, len(values)) == values


def test_unpack_refuses_codes_that_are_too_long_or_negative() -> None:
    with pytest.raises(ValueError):
        unpack(pack([1, 2, 3], 10), 10, 2)
    with pytest.raises(ValueError):
        unpack(-1, 10, 2)


SCHEMA = (
    Option("players", int, 4, "seats", minimum=3, maximum=5),
    Option("rounds", int, lambda o: o["players"], "rounds", minimum=1),
    Option("draft", bool, False, "draft variant"),
    Option("variant", str, "standard", "variant", choices=("standard", "team")),
    Option(
        "colour",
        str,
        "P",
        "removed colour",
        check=lambda v, o: None if o["players"] == 3 or v == "P" else "only with 3 players",
    ),
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, {"players": 4, "rounds": 4, "draft": False, "variant": "standard", "colour": "P"}),
        ({"players": 3}, {"players": 3, "rounds": 3, "draft": False, "variant": "standard", "colour": "P"}),
        (
            {"players": "5", "draft": "yes"},
            {"players": 5, "rounds": 5, "draft": True, "variant": "standard", "colour": "P"},
        ),
        ({"variant": "TEAM"}, {"players": 4, "rounds": 4, "draft": False, "variant": "team", "colour": "P"}),
        (
            {"players": 3, "colour": "R"},
            {"players": 3, "rounds": 3, "draft": False, "variant": "standard", "colour": "R"},
        ),
    ],
)
def test_options_resolve_with_defaults(given: dict[str, object], expected: dict[str, object]) -> None:
    assert resolve_options("demo", SCHEMA, given) == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"player": 3}, "unknown option 'player'"),
        ({"players": 6}, "option 'players' of game 'demo' must be an integer from 3 to 5, got 6"),
        ({"players": True}, "must be an integer from 3 to 5"),
        ({"players": "four"}, "must be an integer from 3 to 5"),
        ({"draft": "maybe"}, "option 'draft' of game 'demo' must be true or false"),
        ({"draft": 1}, "must be true or false"),
        ({"variant": "solo"}, "must be one of standard, team"),
        ({"rounds": 0}, "option 'rounds' of game 'demo' must be an integer of at least 1"),
        ({"colour": "R"}, "option 'colour' of game 'demo': only with 3 players"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(given: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        resolve_options("demo", SCHEMA, given)


def test_option_assignments_from_the_command_line() -> None:
    assert parse_option_assignments(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_option_assignments(["novalue"])


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'") as info:
        load_game("chess")
    assert "oracle" in str(info.value)


def test_toy_game_passes_the_consistency_suite(toy_registered: str) -> None:
    stats = check_game(load_game(toy_registered), playouts=30, seed=3, resample_every=1)
    assert stats["resample_changed"], "resampling never changed the hidden card"


def test_apply_action_refuses_and_keeps_state(toy_registered: str) -> None:
    state = load_game(toy_registered).new_initial_state()
    with pytest.raises(IllegalActionError, match="two different cards"):
        state.apply_string("deal 3 / 3")
    assert state.history() == []
    state.apply_string("DEAL 3 / 5")
    with pytest.raises(NotationError, match="expected bet or fold"):
        state.apply_string("raise")
    with pytest.raises(IllegalActionError, match="integer"):
        state.apply_action("bet")  # type: ignore[arg-type]
    state.apply_string("bet")
    state.apply_string("bet")
    assert state.is_terminal() and state.scores() == [-2, 2] and state.winners() == [1]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)


def test_record_round_trip(toy_registered: str) -> None:
    import random

    state = random_playout(ToyGame(), random.Random(1))
    record = state.record()
    assert record["format"] == "oracles/1" and record["game"] == "toy"
    assert replay_record(json.loads(json.dumps(record))).history() == state.history()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "a record must be a JSON object"),
        ('{"game": "toy"}', "a record needs an 'actions' list"),
        ('{"actions": []}', "a record needs a 'game' string"),
        ('{"format": "pgn", "game": "toy", "actions": []}', "unknown record format 'pgn'"),
        ('{"game": "toy", "options": [], "actions": []}', "'options' must be a JSON object"),
    ],
)
def test_malformed_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(text)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"game": "nope", "actions": []}, "unknown game 'nope'"),
        ({"game": "toy", "options": {"top": 1}, "actions": []}, "option 'top' of game 'toy'"),
        ({"game": "toy", "actions": ["deal 1 / 2", "bet", "sing"]}, "action 2 'sing': expected bet or fold"),
        ({"game": "toy", "actions": ["deal 1 / 1"]}, "action 0 'deal 1 / 1': a deal is two different"),
        ({"game": "toy", "actions": ["deal 1 / 2", "fold", "bet"]}, "action 2 'bet': the game is over"),
        ({"game": "toy", "actions": ["deal 1 / 2", 7]}, "action 1 7: an action must be a string"),
    ],
)
def test_replay_names_the_offending_action(
    toy_registered: str, record: dict[str, object], message: str
) -> None:
    with pytest.raises(RecordError, match=message) as info:
        replay_record(record)
    assert "\n" not in str(info.value)


def test_ismcts_prefers_the_winning_decision(toy_registered: str) -> None:
    """Holding the top card, betting always wins; ISMCTS must find it."""
    from oracles.bots import SeatInfo, make_bot

    for seed in range(3):
        state = load_game(toy_registered).new_initial_state()
        state.apply_string("deal 5 / 2")
        bot = make_bot("ismcts:iterations=200", 0, seed)
        assert state.action_to_string(bot.choose(SeatInfo(state, 0))) == "bet"
        state.apply_string("bet")
        # Seat 1 cannot see the 5: with a 2 it wins only against the 1, yet
        # folding is a sure loss, so betting is the better chance of a win.
        assert (
            state.action_to_string(make_bot("ismcts:iterations=300", 1, seed).choose(SeatInfo(state, 1)))
            == "bet"
        )


def test_seat_info_hides_the_state(toy_registered: str) -> None:
    from oracles.bots import SeatInfo

    state = load_game(toy_registered).new_initial_state()
    state.apply_string("deal 5 / 2")
    info = SeatInfo(state, 1)
    assert info.legal_actions() == []  # not seat 1's turn
    view = info.view()
    assert view["hand"] == [2] and view["showdown"] is None
    assert view["log"] == [{"seq": 0, "seat": None, "kind": "deal", "card": 2}]
    assert not any(name for name in dir(info) if name == "state")


@pytest.mark.parametrize("game_id", ["oracle", "inrah", "codename"])
def test_the_api_answers_misuse_with_its_own_errors(game_id: str) -> None:
    """Each game: a chance drawn where there is none, a world or chance
    drawn with no random source, the public view asked as an information
    state; one documented error each (were a plain ValueError, IndexError,
    AttributeError, or action 0 drawn at a decision). A NumPy integer is an
    action like any integer."""
    import random

    import numpy as np

    from oracles import load_game
    from oracles.core.errors import IllegalActionError, SeatError

    state = load_game(game_id).new_initial_state()
    rng = random.Random(1)
    with pytest.raises(IllegalActionError):
        state.sample_chance(None)  # type: ignore[arg-type]
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    with pytest.raises(IllegalActionError, match="no chance to draw here"):
        state.sample_chance(rng)
    with pytest.raises(IllegalActionError, match=r"random\.Random"):
        state.resample_from_infostate(state.current_player(), None)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        state.information_state_string(None)  # type: ignore[arg-type]
    state.apply_action(np.int64(state.legal_actions()[0]))
    state.play_out_at_random(rng)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.sample_chance(rng)
