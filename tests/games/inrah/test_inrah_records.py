"""Records written by hand in SPEC notation, replayed to their scores and
winners; illegal actions are refused with their index and a reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oracles.core.errors import RecordError
from oracles.core.records import replay_record, summary


def record(options: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    return {"format": "oracles/1", "game": "inrah", "options": options, "actions": actions}


# 3 players, trump on, two rounds (dealer 0 then 1).
THREE_TRUMP = [
    "dealer 0",
    "deal fire-7 / water-2 / fire-prince",
    "trump water-ace",  # water is trump
    "bid 1",  # seat 1
    "bid 0",  # seat 2
    "bid 0",  # seat 0, the dealer
    "play water-2",  # trump: wins over the fire prince
    "play fire-prince",
    "play fire-7",
    "deal AIR-SEER fire-ace / water-7 air-mage / Fire-2 air-3",  # any order and case
    "trump fire-knight",
    "bid 1",  # seat 2
    "bid 1",  # seat 0
    "bid 0",  # seat 1, the dealer
    "play air-3",  # seat 2 leads
    "play fire-ace",  # seat 0 holds no normal air card: trumps
    "play water-7",
    "play air-seer",  # seat 0 leads a seer: it wins
    "play air-mage",
    "play fire-2",
]

# 3 players, no trump: no trump action at all.
THREE_NO_TRUMP = [
    "dealer 2",
    "deal water-5 / fire-mage / fire-4",
    "bid 1",
    "bid 0",
    "bid 0",
    "play water-5",
    "play fire-mage",
    "play fire-4",
    "deal air-prince water-mage / air-2 air-seer / water-ace fire-squire",
    "bid 2",  # seat 1
    "bid 0",  # seat 2
    "bid 1",  # seat 0, dealer
    "play air-2",
    "play water-ace",
    "play air-prince",  # must follow air
    "play water-mage",  # mage led, then a seer: the seer wins
    "play air-seer",
    "play fire-squire",
]

# 4 players with the hook rule: the dealer may not bid 1 after 0, 0, 0.
FOUR_HOOK = [
    "dealer 3",
    "deal fire-2 / water-3 / air-7 / ore-knight",
    "trump ore-ace",
    "bid 0",
    "bid 0",
    "bid 0",
    "bid 0",
    "play fire-2",
    "play water-3",
    "play air-7",
    "play ore-knight",
]

# Purpurberg: teams 0+2 and 1+3.
PURPURBERG = [
    "dealer 0",
    "deal water-knight / fire-squire / water-prince / air-seer",
    "trump fire-7",
    "bid 1",  # seat 1
    "bid 0",  # seat 2
    "bid 0",  # seat 3
    "bid 0",  # seat 0
    "play fire-squire",
    "play water-prince",
    "play air-seer",
    "play water-knight",  # seat 3 wins: team 1+3 bid 1, took 1, but neither was exact
    "deal ore-2 ore-3 / fire-ace air-ace / ore-prince water-mage / ore-4 air-5",
    "trump ore-7",
    "bid 2",  # seat 2
    "bid 0",  # seat 3
    "bid 0",  # seat 0
    "bid 1",  # seat 1
    "play ore-prince",
    "play ore-4",
    "play ore-2",
    "play fire-ace",
    "play water-mage",
    "play air-5",  # first normal card after a mage: air is led
    "play ore-3",  # trump
    "play air-ace",
]

# Altaïa with 3 players: three oracles each, naming three different seats.
ALTAIA = [
    "dealer 1",
    "deal fire-5 / fire-6 / water-seer",
    "trump air-2",
    "hesinde P2 1",
    "hesinde p1 0",
    "hesinde P0 0",
    "efferd P0 makes 0",
    "efferd P0 misses 1",
    "efferd P2 misses 0",
    "phex P1 1",
    "phex P2 0",
    "phex P1 0",
    "play water-seer",
    "play fire-5",
    "play fire-6",
    "deal fire-ace fire-2 / water-7 fire-3 / air-knight water-ace",
    "trump water-2",
    "hesinde P0 2",
    "hesinde P1 0",
    "hesinde P0 1",
    "efferd P1 makes 1",
    "efferd P2 makes 0",
    "efferd P1 misses 2",
    "phex P2 1",
    "phex P0 2",
    "phex P2 2",
    "play fire-2",
    "play fire-3",
    "play water-ace",
    "play air-knight",
    "play fire-ace",
    "play water-7",
]

FIVE = [
    "dealer 4",
    "deal humus-7 / humus-mage / fire-prince / humus-ace / water-seer",
    "trump humus-2",
    "bid 1",
    "bid 0",
    "bid 0",
    "bid 0",
    "bid 1",
    "play humus-7",
    "play humus-mage",
    "play fire-prince",
    "play humus-ace",
    "play water-seer",
]

SIX = [
    "dealer 5",
    "deal ore-3 / ore-5 / ore-mage / fire-7 / ore-seer / humus-prince",
    "trump fire-ace",
    "bid 0",
    "bid 0",
    "bid 0",
    "bid 1",
    "bid 0",
    "bid 0",
    "play ore-3",
    "play ore-5",
    "play ore-mage",
    "play fire-7",
    "play ore-seer",
    "play humus-prince",
]

GAMES = [
    # options, actions, expected scores, winners
    ({"players": 3, "rounds": 2}, THREE_TRUMP, [10, 50, 10], [1]),
    ({"players": 3, "rounds": 2, "trump": False}, THREE_NO_TRUMP, [60, 10, 40], [0]),
    ({"players": 4, "rounds": 1, "forbid_exact_sum": True}, FOUR_HOOK, [20, 20, 20, -10], [0, 1, 2]),
    ({"players": 4, "rounds": 2, "variant": "purpurberg"}, PURPURBERG, [40, -10, 40, -10], [0, 2]),
    ({"players": 3, "rounds": 2, "variant": "altaia"}, ALTAIA, [-10, -30, 10], [2]),
    ({"players": 5, "rounds": 1}, FIVE, [-10, 20, 20, 20, 30], [4]),
    ({"players": 6, "elements": 5, "rounds": 1}, SIX, [20, 20, 20, -10, -10, 20], [0, 1, 2, 5]),
]


@pytest.mark.parametrize(("options", "actions", "scores", "winners"), GAMES)
def test_hand_written_records_replay(
    options: dict[str, Any], actions: list[str], scores: list[int], winners: list[int]
) -> None:
    state = replay_record(json.loads(json.dumps(record(options, actions))))
    result = summary(state)
    assert result["terminal"] is True
    assert result["scores"] == scores
    assert result["winners"] == winners
    # Writing the record back gives canonical lower-case notation that replays again.
    again = state.record()
    assert replay_record(again).history() == state.history()
    assert all(text == text.lower() or " P" in text for text in again["actions"])


def test_round_points_of_the_altaia_record() -> None:
    state = replay_record(record({"players": 3, "rounds": 2, "variant": "altaia"}, ALTAIA))
    assert state.view(0)["round_scores"] == [[0, 10, 40], [-10, -40, -30]]


def test_purpurberg_partners_share_their_team_score() -> None:
    state = replay_record(record({"players": 4, "rounds": 2, "variant": "purpurberg"}, PURPURBERG))
    assert state.view(1)["round_scores"] == [[40, 0, 40, 0], [0, -10, 0, -10]]


def test_canonical_deal_text() -> None:
    state = replay_record(record({"players": 3, "rounds": 2}, THREE_TRUMP))
    assert state.record()["actions"][9] == "deal fire-ace air-seer / water-7 air-mage / fire-2 air-3"


def test_unfinished_record_is_not_terminal() -> None:
    state = replay_record(record({"players": 3, "rounds": 2}, THREE_TRUMP[:12]))
    result = summary(state)
    assert result["terminal"] is False and result["winners"] == []
    assert result["scores"] == [20, 30, 20]
    assert state.current_player() == 0


ILLEGAL = [
    # options, actions (the last one fails), message
    (
        {"players": 3, "rounds": 2},
        [
            *THREE_TRUMP[:9],
            "deal air-7 fire-ace / water-7 air-mage / fire-2 air-3",
            *THREE_TRUMP[10:15],
            "play fire-ace",
        ],
        "action 15 'play fire-ace': must follow air",
    ),
    (
        {"players": 3, "rounds": 2},
        [*THREE_TRUMP[:14], "play air-4"],
        "action 14 'play air-4': seat 2 holds no air-4",
    ),
    (
        {"players": 4, "rounds": 1, "forbid_exact_sum": True},
        [*FOUR_HOOK[:6], "bid 1"],
        "action 6 'bid 1': bids may not add up to 1 trick: the dealer may not bid 1",
    ),
    (
        {"players": 3, "rounds": 2},
        [*THREE_TRUMP[:3], "bid 2"],
        "action 3 'bid 2': bid 2 is more than the 1 trick of round 1",
    ),
    (
        {"players": 3, "rounds": 2},
        [*THREE_TRUMP[:3], "play water-2"],
        "action 3 'play water-2': seat 1 is to bid now",
    ),
    (
        {"players": 3, "rounds": 2},
        ["dealer 0", "deal fire-2 / fire-2 / water-3"],
        "action 1 'deal fire-2 / fire-2 / water-3': fire-2 is dealt twice",
    ),
    (
        {"players": 3, "rounds": 2},
        ["dealer 0", "deal fire-2 fire-3 / fire-4 / water-3"],
        "round 1 deals 1 card to each seat; seat 0 gets 2",
    ),
    (
        {"players": 4, "rounds": 2},
        ["dealer 0", "deal fire-2 / ice-2 / water-3 / air-4"],
        "ice is not in this deck",
    ),
    (
        {"players": 3, "rounds": 2},
        ["dealer 3"],
        "a dealer is written 'dealer K' with K from 0 to 2",
    ),
    (
        {"players": 3, "rounds": 2},
        ["dealer 0", "deal fire-2 / fire-3 / water-3", "trump fire-3"],
        "action 2 'trump fire-3': fire-3 was dealt, it cannot be turned up",
    ),
    (
        {"players": 3, "rounds": 2, "trump": False},
        ["dealer 0", "deal fire-2 / fire-3 / water-3", "trump fire-4"],
        "action 2 'trump fire-4': no trump card is turned up now",
    ),
    (
        {"players": 3, "rounds": 2, "variant": "altaia"},
        [*ALTAIA[:4], "hesinde P1 2"],
        "more than the 1 of round 1",
    ),
    (
        {"players": 3, "rounds": 2, "variant": "altaia"},
        [*ALTAIA[:6], "efferd P2 makes 1"],
        "action 6 'efferd P2 makes 1': P2 was already named in an oracle of seat 2",
    ),
    (
        {"players": 3, "rounds": 2, "variant": "altaia"},
        [*ALTAIA[:9], "phex P0 0"],
        "action 9 'phex P0 0': P0 was already named in an oracle of seat 2",
    ),
    (
        {"players": 3, "rounds": 2, "variant": "altaia"},
        [*ALTAIA[:3], "bid 1"],
        "seat 2 is to make a hesinde oracle now",
    ),
    (
        {"players": 3, "rounds": 2},
        [*THREE_TRUMP[:3], "hesinde P1 1"],
        "hesinde oracles belong to the altaia variant",
    ),
]


@pytest.mark.parametrize(("options", "actions", "message"), ILLEGAL)
def test_illegal_actions_are_refused_with_their_index(
    options: dict[str, Any], actions: list[str], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay_record(record(options, actions))
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"action {len(actions) - 1} ")
    assert caught.value.index == len(actions) - 1


def test_unknown_option_and_bad_values_are_refused() -> None:
    for options, words in [
        ({"players": 3, "variant": "purpurberg"}, "even number of players"),
        ({"players": 5, "variant": "purpurberg"}, "even number of players"),
        ({"players": 4, "rounds": 13}, "from 1 to 12"),
        ({"players": 4, "rounds": 0}, "from 1 to 12"),
        ({"players": 6, "elements": 3, "rounds": 7}, "from 1 to 6"),
        ({"players": 7}, "players"),
        ({"elements": 2}, "elements"),
        ({"variant": "wizard"}, "standard, purpurberg, altaia"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ]:
        with pytest.raises(RecordError) as caught:
            replay_record(record(options, []))
        assert words in str(caught.value), (options, str(caught.value))


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["full_6p_3el", "full_4p_purpurberg_hook"])
def test_full_game_records_replay(name: str) -> None:
    # Whole games kept as regression records; their expected results were
    # cross-checked against the independent reference scorer of test_inrah_state.
    saved = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    state = replay_record(saved)
    assert state.is_terminal()
    assert state.scores() == saved["expected"]["scores"]
    assert state.winners() == saved["expected"]["winners"]
    assert state.record()["actions"] == saved["actions"]
    actions = saved["actions"]
    last_deal = max(i for i, text in enumerate(actions) if text.startswith("deal "))
    assert actions[last_deal + 1].startswith("bid "), "a full deck leaves no trump card in the last round"
