"""Oracle: the rulebook's worked examples and the rules of play, as scenarios."""

from __future__ import annotations

import pytest

from oracles import load_game
from oracles.core.errors import ChanceNotEnumerableError, IllegalActionError, NotationError, OptionError
from oracles.games.oracle.cards import HYDRA, PEGASUS, PHOENIX, parse_card, trick_winner
from oracles.games.oracle.prophecies import chip_quantities, default_edition
from oracles.games.oracle.rules import (
    LOSER_KEEP,
    LOSER_RETURN,
    OracleState,
    forfeit_loser_chips,
    round_points,
    seat_quantities,
)

# Three players, purple removed. Seat 0 "Stefan", seat 1 "Uwe", seat 2 "Beate".
EXAMPLE_DEAL = (
    "deal R1 R2 R3 R4 R5 R6 R7 R8 B1 B3 B4 B5 B6 B7 B8 B9"
    " / B2 B10 B11 B12 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12"
    " / R9 R10 R11 R12 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12"
)
ORACLES_3 = (
    "oracles O17 O35 O02 O03 O04 O05 O06 O07 O08 O09"
    " / O23 O34 O10 O11 O12 O13 O14 O15 O16 O18"
    " / O21 O01 O19 O20 O22 O24 O25 O26 O27 O28"
)
KEEPS_3 = ("keep O17 O35", "keep O34 O23", "keep O21 O01")


def texts(*ids: str) -> list[list[str]]:
    """The printed cards' words, English and German, as an event carries them."""
    return [[default_edition().card(i).text_en, default_edition().card(i).text_de] for i in ids]


def cards(*names: str) -> list[int]:
    return [parse_card(name) for name in names]


def started(deal: str, players: int = 3, dealer: int | None = None, **options: object) -> OracleState:
    """A state at the first trick of round 1 after ``deal`` (seat 0 leads)."""
    state = load_game("oracle", players=players, **options).new_initial_state()
    assert isinstance(state, OracleState)
    state.apply_string(f"dealer {players - 1 if dealer is None else dealer}")
    state.apply_string(deal)
    if players == 3:
        state.apply_string(ORACLES_3)
        for keep in KEEPS_3:
            state.apply_string(keep)
    return state


def play(state: OracleState, *moves: str) -> None:
    for move in moves:
        state.apply_string(move if " " in move else f"play {move}")


def chips_of(state: OracleState, seat: int) -> dict[str, object]:
    chips: dict[str, object] = state.view(seat)["chips"]["seats"][seat]
    return chips


# ------------------------------------------------------------ trick winner
@pytest.mark.parametrize(
    ("played", "winner", "reason"),
    [
        (("B7", "B10", "R11"), 2, "highest value"),  # rulebook: Beate's Red 11 wins
        (("R12", "R1", "B2"), 1, "1 beats 12"),  # rulebook: Stefan's Red 1 wins
        (("R1", "R12", "B2"), 0, "1 beats 12"),  # ... also when the 12 comes after the 1
        (("B7", "R10", "B10"), 2, "led colour wins the tie"),  # rulebook tie example 1
        (("B12", "G1", "R1"), 1, "first played wins the tie"),  # rulebook tie example 2
        (("R1", "B2", "G3"), 2, "highest value"),  # a 1 without a 12 is the lowest card
        (("R12", "B12", "G11"), 0, "led colour wins the tie"),
        (("G5", "R12", "B12", "Y1", "P1"), 3, "first played wins the tie"),
        (("Y9", "Y12", "R1", "G12"), 2, "1 beats 12"),
    ],
)
def test_trick_winner(played: tuple[str, ...], winner: int, reason: str) -> None:
    assert trick_winner(cards(*played)) == (winner, reason)


def test_rulebook_tricks_in_play_give_the_creature_chip() -> None:
    state = started(EXAMPLE_DEAL)
    assert state.current_player() == 0
    play(state, "B7", "B10", "R11")  # Stefan, Uwe, Beate
    assert chips_of(state, 2)["phoenix"] == 1
    assert state.current_player() == 2  # Beate leads next
    play(state, "R12", "R1", "B2")  # Beate, Stefan, Uwe
    assert chips_of(state, 0)["hydra"] == 1
    assert state.view(0)["tricks"][-1]["reason"] == "1 beats 12"
    assert state.current_player() == 0
    assert state.view(1)["chips"]["middle"] == {"hydra": 2, "pegasus": 4, "phoenix": 5, "losers": [
        "hydra", "pegasus", "phoenix"]}  # fmt: skip


def test_following_colour_is_enforced() -> None:
    state = started(EXAMPLE_DEAL)
    play(state, "B7")
    with pytest.raises(IllegalActionError, match="must follow blue"):
        play(state, "G1")
    assert state.legal_actions() == cards("B2", "B10", "B11", "B12")
    play(state, "B10")
    # Beate holds no blue: anything goes.
    assert len(state.legal_actions()) == 16
    with pytest.raises(IllegalActionError, match="seat 2 holds no B1"):
        play(state, "B1")


# ----------------------------------------------------------- Loser chips
LOSER_DEAL = (
    "deal R2 R3 R4 R5 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12"
    " / R6 R7 R8 R12 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12"
    " / R1 R9 R10 R11 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12"
)


def loser_example(decision: str) -> OracleState:
    """Rulebook: Thomas (seat 0) must take the Phoenix Loser chip, Marc
    (seat 1) takes it from him, later wins a Phoenix trick again and decides."""
    state = started(LOSER_DEAL)
    state._middle[PHOENIX] = 0  # arranged: every Phoenix victory point chip is taken
    play(state, "B11", "G2", "Y2")
    assert state.loser_holder[PHOENIX] == 0
    assert chips_of(state, 0)["losers"] == ["phoenix"]
    play(state, "R2", "R12", "R9")
    assert state.loser_holder[PHOENIX] == 1  # passed from Thomas to Marc
    assert chips_of(state, 0)["losers"] == []
    play(state, "G10", "Y3", "B1")
    assert state.current_player() == 1
    assert state.legal_actions() == [LOSER_KEEP, LOSER_RETURN]
    assert state.view(0)["pending_loser"] == "phoenix"
    with pytest.raises(IllegalActionError, match="must decide on the phoenix Loser chip"):
        play(state, "G11")
    state.apply_string(decision)
    assert state.current_player() == 1  # the winner leads next
    return state


def test_loser_chip_passes_and_goes_back_to_the_middle() -> None:
    state = loser_example("loser return")
    assert state.loser_holder[PHOENIX] == -1
    assert "phoenix" in state.view(2)["chips"]["middle"]["losers"]


def test_loser_chip_can_be_kept() -> None:
    state = loser_example("LOSER KEEP")
    assert state.loser_holder[PHOENIX] == 1


# ---------------------------------------------------------------- scoring
def test_pegasus_prophecy_example() -> None:
    o02 = default_edition().card("O02")
    assert o02.holds([chip_quantities(pegasus=1)], 0)
    assert o02.holds([chip_quantities(pegasus=1, hydra=2, phoenix=3, losers=[HYDRA])], 0)
    assert not o02.holds([chip_quantities(pegasus=0)], 0)
    assert not o02.holds([chip_quantities(pegasus=2)], 0)
    # The Pegasus Loser chip is not a Pegasus chip.
    assert not o02.holds([chip_quantities(pegasus=0, losers=[PEGASUS])], 0)


@pytest.mark.parametrize(("hydra_loser", "expected"), [(True, 17), (False, 28)])
def test_end_of_round_example(hydra_loser: bool, expected: int) -> None:
    # Chrisly (seat 0): 2 Pegasus, 1 Phoenix, 1 Hydra and maybe the Hydra Loser chip; keeps O05, O12.
    held = [1, 2, 1, 0, 0, 0, 0, 0, 0]
    middle = [0, 0, 0]
    loser_holder = [0 if hydra_loser else 1, -1, -1]
    forfeit_loser_chips(held, middle, loser_holder)
    assert middle[HYDRA] == (1 if hydra_loser else 0)
    quantities = seat_quantities(held, loser_holder, 3)
    assert quantities[0][9] == (8 if hydra_loser else 13)
    kept = [(4, 11), (22, 33), (22, 33)]  # O05 + O12; the others hold O23 + O34
    assert round_points(quantities, kept, default_edition())[0] == expected


def test_full_round_scores_stars_and_prophecies() -> None:
    """A hand-checked round (3 players) where seat 0 wins the twelve
    colour-ladder tricks (led colour wins each tie of equal values)."""
    ladder = (
        "deal R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 Y1 Y2 Y3 Y4"
        " / B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 Y5 Y6 Y7 Y8"
        " / G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 Y9 Y10 Y11 Y12"
    )
    state = started(ladder, rounds=1, edition="classic")  # SPEC 3's points
    for value in range(1, 13):
        play(state, f"R{value}", f"B{value}", f"G{value}")
        if value == 5:
            # Hydra chips are gone (3), trick 4 gave the Loser chip; now seat 0 decides.
            assert state.current_player() == 0 and state.phase == 6
            state.apply_string("loser return")
    # Y1 Y5 Y9: seat 2 wins a 9 with no Pegasus chip left and takes the Loser chip.
    play(state, "Y1", "Y5", "Y9", "Y10", "Y2", "Y6", "Y11", "Y3", "Y7", "Y12", "Y4", "Y8")
    assert state.is_terminal()
    # Seat 0: 3 Hydra (15) + 4 Pegasus (12) + 3 Phoenix (6) = 33, no Loser chip (O17 +2),
    # 10 chips > 0 and 4 (O35 +9). Seat 1: no chips (O23 +10), fewest (O34 +12).
    # Seat 2: 3 Phoenix (6) + Pegasus Loser (O21 +8), not exactly one Phoenix (O01 +0).
    assert state.round_scores == ((44, 22, 14),)
    assert state.scores() == [44.0, 22.0, 14.0]
    assert state.winners() == [0]
    assert state.view(1)["revealed"] == [[["O17", "O35"], ["O23", "O34"], ["O01", "O21"]]]


def test_tricks_per_round_and_rotating_dealer() -> None:
    import random

    state = load_game("oracle", players=4, rounds=2).new_initial_state()
    rng = random.Random(5)
    state.apply_string("dealer 3")
    dealers = []
    while not state.is_terminal():
        if state.is_chance_node():
            if state.phase == 1:
                dealers.append(state.dealer)
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert dealers == [3, 0]
    assert len(state.round_scores) == 2


# ------------------------------------------------------------------ options
def test_options() -> None:
    assert load_game("oracle").options == {
        "players": 4,
        "rounds": 4,
        "draft": False,
        "removed_colour": "P",
        "edition": "classic",
    }
    assert load_game("oracle", players=3, removed_colour="g").removed_colour == 2
    assert load_game("oracle", players=5).options["rounds"] == 5
    with pytest.raises(OptionError, match="3 players only"):
        load_game("oracle", players=4, removed_colour="R")
    with pytest.raises(OptionError, match="removed_colour"):
        load_game("oracle", players=3, removed_colour="X")
    with pytest.raises(OptionError):
        load_game("oracle", players=6)


def test_five_players_use_fewer_chips() -> None:
    state = load_game("oracle", players=5).new_initial_state()
    state.apply_string("dealer 0")
    deal = " / ".join(" ".join(f"{c}{v}" for v in range(1, 13)) for c in "RBGYP")
    state.apply_string("deal " + deal)
    assert state.view(0)["chips"]["middle"] == {"hydra": 2, "pegasus": 3, "phoenix": 5, "losers": [
        "hydra", "pegasus", "phoenix"]}  # fmt: skip


def test_removed_colour_is_out_of_play() -> None:
    state = load_game("oracle", players=3, removed_colour="R").new_initial_state()
    state.apply_string("dealer 0")
    with pytest.raises(NotationError, match="R1 is out of play"):
        state.apply_string(EXAMPLE_DEAL)
    deal = EXAMPLE_DEAL.replace("R", "P")
    state.apply_string(deal)
    assert state.record()["actions"][-1].startswith("deal B1 B3 B4 B5 B6 B7 B8 B9 P1 P2")


# ----------------------------------------------------------------- notation
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("deal R1", "3 hands"),
        (EXAMPLE_DEAL.replace("B3", "B2", 1), "B2 is dealt twice"),
        (EXAMPLE_DEAL.replace("R8", "R8 X9"), "'X9' is not a card"),
        (EXAMPLE_DEAL.replace(" R8", ""), "seat 0 gets 15 cards, not 16"),
        (EXAMPLE_DEAL.replace("R1 ", "R13 "), "values run from 1 to 12"),
        ("play R1", "a 'deal' chance action is expected"),
    ],
)
def test_bad_deals_are_refused(text: str, why: str) -> None:
    state = load_game("oracle", players=3).new_initial_state()
    state.apply_string("dealer 2")
    with pytest.raises(NotationError, match=why):
        state.apply_string(text)
    assert state.history() == [2]


def test_bad_oracle_deals_are_refused() -> None:
    state = load_game("oracle", players=3).new_initial_state()
    state.apply_string("dealer 2")
    state.apply_string(EXAMPLE_DEAL)
    for text, why in [
        (ORACLES_3.replace("O09", "O17"), "O17 is dealt twice"),
        (ORACLES_3.replace(" O09", ""), "seat 0 gets 9 Oracle cards, not 10"),
        (ORACLES_3.replace("O09", "O41"), "not an Oracle card"),
        (ORACLES_3 + " ; stack O30", "no stack"),
    ]:
        with pytest.raises(NotationError, match=why):
            state.apply_string(text)
    # A packed int with wrong counts is refused too.
    from oracles.core.codec import pack

    with pytest.raises(IllegalActionError, match="seat 0 is dealt 40 Oracle cards"):
        state.apply_action(pack([0] * 40, 4))


def test_deal_is_written_in_canonical_order_and_read_in_any() -> None:
    state = load_game("oracle", players=3).new_initial_state()
    state.apply_string("dealer 1")
    shuffled = EXAMPLE_DEAL.replace("deal R1 R2", "DEAL B9 r2 R1").replace("B8 B9", "B8").lower()
    action = state.string_to_action(shuffled)
    assert state.action_to_string(action) == EXAMPLE_DEAL
    with pytest.raises(ChanceNotEnumerableError):
        state.chance_outcomes()
    state.apply_action(action)
    state.apply_string(ORACLES_3.lower())
    assert state.current_player() == 2  # dealer 1: seat 2 keeps first
    keep = state.string_to_action("KEEP o28 O01")
    assert state.action_to_string(keep) == "keep O01 O28"
    with pytest.raises(IllegalActionError, match="seat 2 was not dealt O02"):
        state.apply_string("keep O02 O01")
    with pytest.raises(NotationError, match="names O01 twice"):
        state.apply_string("keep O01 O01")
    with pytest.raises(IllegalActionError, match="must keep two Oracle cards"):
        state.apply_string("play Y1")


def test_dealer_chance_is_enumerable_and_uniform() -> None:
    state = load_game("oracle", players=5).new_initial_state()
    assert state.chance_outcomes() == [(seat, 0.2) for seat in range(5)]
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()][:2] == ["dealer 0", "dealer 1"]
    with pytest.raises(IllegalActionError, match="no seat 5"):
        state.apply_action(5)


@pytest.mark.parametrize(
    "text", ["", "fly away", "play", "play Q3", "loser maybe", "keep O01", "pass O1 O99"]
)
def test_unreadable_player_actions(text: str) -> None:
    state = started(EXAMPLE_DEAL)
    with pytest.raises(NotationError):
        state.string_to_action(text)


# ------------------------------------------------------------------- views
def test_views_hide_other_hands_and_keeps() -> None:
    state = load_game("oracle", players=3, edition="classic").new_initial_state()
    state.apply_string("dealer 2")
    state.apply_string(EXAMPLE_DEAL)
    state.apply_string(ORACLES_3)
    state.apply_string("keep O17 O35")
    view = state.view(1)
    assert view["hand"][:3] == ["B2", "B10", "B11"]
    assert [card["id"] for card in view["oracle_cards"]][:2] == ["O10", "O11"]
    assert view["log"][1]["kind"] == "deal" and view["log"][1]["hand"][:2] == ["B2", "B10"]
    assert "hand" not in state.view(None)["log"][1]
    assert view["log"][-1] == {"seq": 3, "seat": 0, "kind": "keep"}
    assert state.view(0)["log"][-1] == {
        "seq": 3,
        "seat": 0,
        "kind": "keep",
        "cards": ["O17", "O35"],
        "texts": texts("O17", "O35"),
    }
    assert state.view(None)["hand"] is None and state.view(None)["kept"] == []
    assert state.view(0)["kept"][0] == {
        "id": "O17",
        "text": "no Loser chip",
        "text_de": "kein Verliererchip",
        "points": 2,
    }
    text = str(view)
    for hidden in ("O17", "O35", "'R1'", "Y12"):
        assert hidden not in text
    assert view["to_act"] == 1 and view["phase"] == "keep"


def test_prophecy_status_for_the_current_chips() -> None:
    state = started(EXAMPLE_DEAL)
    play(state, "B7", "B10", "R11")
    # Seat 2 keeps O01 (exactly one Phoenix) and O21 (Pegasus Loser chip).
    assert state.prophecy_status(2) == [("O01", True), ("O21", False)]
    assert state.view(2)["prophecies"] == [["O01", True], ["O21", False]]
