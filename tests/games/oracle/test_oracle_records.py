"""Oracle: records written by hand in SPEC notation replay to known scores."""

from __future__ import annotations

from typing import Any

import pytest

from oracles.core.errors import RecordError
from oracles.core.records import replay_record, summary
from oracles.games.oracle.prophecies import default_edition


def texts(*ids: str) -> list[list[str]]:
    """The printed cards' words, English and German, as an event carries them."""
    return [[default_edition().card(i).text_en, default_edition().card(i).text_de] for i in ids]


def ladder(seats: str, values: range = range(1, 13)) -> list[str]:
    """One trick per value: each seat plays that value of its own colour, in
    seat order from seat 0 (led colour wins the tie, so seat 0 wins)."""
    return [f"play {colour}{value}" for value in values for colour in seats]


def record(players: int, actions: list[str], **options: Any) -> dict[str, Any]:
    return {
        "format": "oracles/1",
        "game": "oracle",
        "options": {"players": players, **options},
        "actions": actions,
    }


# ----------------------------------------------------------------- 3 players
DEAL_3 = (
    "deal R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 Y1 Y2 Y3 Y4"
    " / B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 Y5 Y6 Y7 Y8"
    " / G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 Y9 Y10 Y11 Y12"
)
ORACLES_3 = (
    "oracles O17 O35 O02 O03 O04 O05 O06 O07 O08 O09"
    " / O23 O34 O10 O11 O12 O13 O14 O15 O16 O18"
    " / O21 O01 O19 O20 O22 O24 O25 O26 O27 O28"
)
GAME_3 = [
    "dealer 2",
    DEAL_3,
    ORACLES_3,
    "keep O17 O35",
    "keep O23 O34",
    "keep O01 O21",
    *ladder("RBG", range(1, 6)),
    "loser return",  # seat 0 won a Hydra trick while holding the Hydra Loser chip
    *ladder("RBG", range(6, 13)),
    *["play Y1", "play Y5", "play Y9"],  # seat 2: Pegasus Loser chip
    *["play Y10", "play Y2", "play Y6", "play Y11", "play Y3", "play Y7", "play Y12", "play Y4", "play Y8"],
]


def test_three_player_game_replays_to_its_scores() -> None:
    state = replay_record(record(3, GAME_3, rounds=1))
    result = summary(state)
    assert result["terminal"] is True
    assert result["scores"] == [44.0, 22.0, 14.0]
    assert result["winners"] == [0]


def test_three_player_game_unfinished() -> None:
    state = replay_record(record(3, GAME_3[:20]))
    assert not state.is_terminal()
    assert state.scores() == [0.0, 0.0, 0.0]
    assert state.winners() == []
    assert state.current_player() == 2  # two cards of the fifth trick are down


def test_three_player_game_keep_variant() -> None:
    actions = [*GAME_3]
    actions[actions.index("loser return")] = "loser keep"
    state = replay_record(record(3, actions, rounds=1))
    # Seat 0 forfeits its 3 Hydra chips: 12 + 6 = 18 stars, O17 fails, O35 (8 > 4) holds.
    assert state.scores() == [27.0, 22.0, 14.0]


# ----------------------------------------------------------------- 4 players
DEAL_4 = (
    "deal R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 P1 P2 P3"
    " / B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 P4 P5 P6"
    " / G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 P7 P8 P9"
    " / Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 P10 P11 P12"
)
ORACLES_4 = (
    "oracles O22 O08 O01 O02 O03 O04 O05 O06 O09 O10"
    " / O23 O33 O11 O12 O13 O14 O15 O16 O17 O18"
    " / O29 O30 O19 O20 O21 O24 O25 O26 O27 O28"
    " / O07 O31 O32 O34 O35 O36 O37 O38 O39 O40"
)
ROUND_4 = [
    DEAL_4,
    ORACLES_4,
    "keep O08 O22",
    "keep O23 O33",
    "keep O29 O30",
    "keep O07 O31",
    *ladder("RBGY", range(1, 6)),
    "loser keep",
    *ladder("RBGY", range(6, 13)),
    *["play P1", "play P4", "play P7", "play P10"],  # seat 3 wins the 4th Phoenix chip
    *["play P11", "play P2", "play P5", "play P8"],
    *["play P12", "play P3", "play P6", "play P9"],
]


def test_four_player_game_replays_to_its_scores() -> None:
    # Seat 0: Hydra Loser chip, so its 3 Hydra chips go back: 4 Pegasus + 3 Phoenix = 18
    # stars, + O22 (9); O08 fails (4 Pegasus chips). Seat 1: no chips, O23 (10) and O33
    # (6, as many as seat 2). Seat 2: O30 (5, fewer than seat 3), O29 fails (seat 1 has
    # none). Seat 3: 3 Phoenix (6) + O07 (10) + O31 (4, more than seat 2).
    state = replay_record(record(4, ["dealer 3", *ROUND_4], rounds=1))
    assert summary(state)["scores"] == [27.0, 16.0, 5.0, 20.0]
    assert state.winners() == [0]
    assert state.is_terminal()


def test_four_player_game_unfinished_after_one_round() -> None:
    state = replay_record(record(4, ["dealer 3", *ROUND_4], rounds=2))
    assert not state.is_terminal()
    assert state.scores() == [27.0, 16.0, 5.0, 20.0]
    assert state.winners() == []
    assert state.view(2)["dealer"] == 0  # the dealer moved left
    assert state.view(2)["revealed"][0][3] == ["O07", "O31"]


# ----------------------------------------------------------------- 5 players
DEAL_5 = "deal " + " / ".join(" ".join(f"{colour}{value}" for value in range(1, 13)) for colour in "RBGYP")
ORACLES_5 = (
    "oracles O21 O28 O01 O02 O03 O04 O05 O06 / O23 O29 O07 O08 O10 O11 O12 O13"
    " / O09 O30 O14 O15 O16 O18 O19 O20 / O33 O17 O22 O24 O25 O26 O27 O34"
    " / O32 O31 O35 O36 O37 O38 O39 O40"
)
GAME_5 = [
    "dealer 4",
    DEAL_5,
    ORACLES_5,
    "keep O21 O28",
    "keep O23 O29",
    "keep O09 O30",
    "keep O17 O33",
    "keep O31 O32",
    *ladder("RBGYP", range(1, 5)),  # 2 Hydra chips (5 players), then the Hydra Loser chip
    "loser keep",
    *ladder("RBGYP", range(5, 6)),
    "loser return",
    *ladder("RBGYP", range(6, 13)),  # 3 Pegasus chips, the Pegasus Loser chip, 3 Phoenix
]


def test_five_player_game_replays_to_its_scores() -> None:
    # Seat 0: 2 Hydra (10) + 3 Phoenix (6); its 3 Pegasus chips go back with the Pegasus
    # Loser chip; O21 (8) and O28 (6 chips, 7) hold. Seat 1: O23 (10) + O29 (5). Seat 2:
    # O09 (3); O30 fails. Seat 3: O33 (6) + O17 (2). Seat 4: O31 and O32 fail.
    state = replay_record(record(5, GAME_5, rounds=1))
    assert state.scores() == [31.0, 15.0, 3.0, 8.0, 0.0]
    assert state.winners() == [0]


def test_five_player_game_unfinished() -> None:
    state = replay_record(record(5, GAME_5[:-5]))
    assert not state.is_terminal()
    assert state.view(1)["chips"]["seats"][0]["losers"] == ["pegasus"]
    assert state.view(1)["chips"]["seats"][0]["phoenix"] == 2
    assert state.view(1)["trick"] == {"leader": 0, "cards": []}
    assert state.current_player() == 0


# ------------------------------------------------------------ illegal records
@pytest.mark.parametrize(
    ("players", "actions", "message"),
    [
        (4, ["dealer 3", *ROUND_4[:6], "play P1", "play B1"], "action 8 'play B1': must follow purple"),
        (4, ["dealer 3", *ROUND_4[:26], "play R6"], "action 27 'play R6': seat 0 must decide on the hydra"),
        (4, ["dealer 3", *ROUND_4[:2], "keep O01 O23"], "action 3 'keep O01 O23': seat 0 was not dealt O23"),
        (4, ["dealer 3", DEAL_4.replace("P3", "P4")], "action 1 'deal"),
        (3, ["dealer 3"], "action 0 'dealer 3': there is no seat 3 to deal"),
        (3, [*GAME_3, "play R1"], "action 55 'play R1': the game is over"),
        (5, [*GAME_5[:8], "play B1"], "action 8 'play B1': seat 0 holds no B1"),
    ],
)
def test_illegal_actions_name_their_index(players: int, actions: list[str], message: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay_record(record(players, actions, rounds=1))
    assert str(caught.value).startswith(message)
    assert caught.value.index == int(message.split()[1])


# ------------------------------------------------------------------- draft
DRAFT_ORACLES = "oracles O01 O02 / O03 O04 / O05 O06 ; stack " + " ".join(f"O{i:02d}" for i in range(7, 25))


def draft_cycles() -> list[str]:
    """Each seat passes on the two cards it just received; the dealer discards them."""
    actions = []
    for first in range(7, 25, 2):
        pair = f"O{first:02d} O{first + 1:02d}"
        actions += [f"pass {pair}", f"pass {pair}", f"discard {pair}"]
    return actions


def test_draft_game_replays() -> None:
    actions = ["dealer 2", DEAL_3, DRAFT_ORACLES, *draft_cycles(), *GAME_3[6:]]
    state = replay_record(record(3, actions, rounds=1, draft=True))
    # Kept: seat 0 O01 O02, seat 1 O03 O04, seat 2 O05 O06 -- none holds (seat 0 has
    # 3 Phoenix and 4 Pegasus chips, seat 1 none, seat 2 three Phoenix).
    assert state.scores() == [33.0, 0.0, 6.0]
    assert state.view(0)["draft"]["discards"] == [f"O{i:02d}" for i in range(7, 25)]
    assert state.view(1)["revealed"] == [[["O01", "O02"], ["O03", "O04"], ["O05", "O06"]]]


def test_draft_views_and_refusals() -> None:
    state = replay_record(record(3, ["dealer 2", DEAL_3, DRAFT_ORACLES], draft=True))
    assert state.current_player() == 0
    assert [card["id"] for card in state.view(0)["oracle_cards"]] == ["O01", "O02", "O07", "O08"]
    # The draw follows the chance action that dealt the Oracle cards: no seat
    # acted (SPEC section 6), and ``drawer`` says who draws.
    assert state.view(0)["log"][-1] == {
        "seq": 2,
        "seat": None,
        "kind": "draw",
        "drawer": 0,
        "cards": ["O07", "O08"],
        "texts": texts("O07", "O08"),
    }
    assert state.view(1)["log"][-1] == {"seq": 2, "seat": None, "kind": "draw", "drawer": 0}
    assert state.view(1)["log"][-2] == {
        "seq": 2,
        "seat": None,
        "kind": "oracles",
        "cards": ["O03", "O04"],
        "texts": texts("O03", "O04"),
        "stack": 18,
    }
    assert state.view(None)["log"][-2] == {"seq": 2, "seat": None, "kind": "oracles", "stack": 18}
    assert state.view(2)["draft"]["stack"] == 16
    assert len(state.legal_actions()) == 6
    for text, reason in [
        ("discard O07 O08", "seat 0 must pass two Oracle cards now"),
        ("pass O03 O04", "seat 0 does not hold O03"),
        ("keep O01 O02", "seat 0 must pass two Oracle cards now"),
    ]:
        with pytest.raises(RecordError, match=reason):
            replay_record(record(3, ["dealer 2", DEAL_3, DRAFT_ORACLES, text], draft=True))
    state.apply_string("pass O02 O07")
    assert state.view(1)["log"][-1] == {
        "seq": 3,
        "seat": 0,
        "kind": "pass",
        "to": 1,
        "cards": ["O02", "O07"],
        "texts": texts("O02", "O07"),
    }
    assert state.view(2)["log"][-1] == {"seq": 3, "seat": 0, "kind": "pass", "to": 1}
    assert state.view(None)["log"][-1] == {"seq": 3, "seat": 0, "kind": "pass", "to": 1}
    state.apply_string("pass O03 O04")
    state.apply_string("discard O03 O06")  # the dealer's discard is face up
    assert state.view(0)["log"][-2:] == [
        {"seq": 5, "seat": 2, "kind": "discard", "cards": ["O03", "O06"], "texts": texts("O03", "O06")},
        # The dealer's discard sets off the next draw: its seat is the dealer's.
        {
            "seq": 5,
            "seat": 2,
            "kind": "draw",
            "drawer": 0,
            "cards": ["O09", "O10"],
            "texts": texts("O09", "O10"),
        },
    ]
    assert state.view(1)["log"][-1] == {"seq": 5, "seat": 2, "kind": "draw", "drawer": 0}
    assert [card["id"] for card in state.view(1)["oracle_cards"]] == ["O02", "O07"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (DRAFT_ORACLES.replace(" ; stack", ""), "'; stack'"),
        (DRAFT_ORACLES.replace("O24", ""), "the stack holds 18 cards, not 17"),
        (DRAFT_ORACLES.replace("O24", "O01"), "O01 is dealt twice"),
        (DRAFT_ORACLES.replace("O05 O06", "O05"), "seat 2 gets 1 Oracle cards, not 2"),
    ],
)
def test_bad_draft_deals_are_refused(text: str, why: str) -> None:
    with pytest.raises(RecordError, match=why):
        replay_record(record(3, ["dealer 2", DEAL_3, text], draft=True))


def descending_ladder(decision_on_last_trick: str) -> list[str]:
    """Five players, seat 0 wins every trick from the 12s down to the 1s: 3
    Phoenix, 3 Pegasus then the Pegasus Loser chip, 2 Hydra then the Hydra
    Loser chip, and a Loser decision on the 2s and on the very last trick."""
    actions = ["dealer 4", DEAL_5, ORACLES_5, *GAME_5[3:8]]
    for value in range(12, 0, -1):
        actions += [f"play {colour}{value}" for colour in "RBGYP"]
        if value == 2:
            actions.append("loser keep")
        if value == 1:
            actions.append(decision_on_last_trick)
    return actions


@pytest.mark.parametrize(("decision", "seat0"), [("loser return", 31.0), ("loser keep", 21.0)])
def test_loser_decision_on_the_last_trick_comes_before_scoring(decision: str, seat0: float) -> None:
    # Returned: seat 0 keeps its 2 Hydra chips (10) + 3 Phoenix (6) = 16 stars, O21 (8),
    # O28 (6 chips, 7). Kept: the Hydra chips go back: 6 stars, O21, O28 (5 chips).
    state = replay_record(record(5, descending_ladder(decision), rounds=1))
    assert state.is_terminal()
    assert state.scores() == [seat0, 15.0, 3.0, 8.0, 0.0]
