"""Codename: Oracle: strikes, shields, foci, their fifteen effects, responses and blocking.

Fields are the base pattern of ``codename_scenarios`` (no set anywhere) with
the cells a test needs overridden; both codes are ``star square wave circle
cross`` unless a test says otherwise.
"""

from __future__ import annotations

import random
from collections import Counter

import codename_scenarios as scenarios
from codename_scenarios import cells_of, play, start

from oracles import CHANCE
from oracles.games.codename.actions import CELL_INDEX, symbol_of
from oracles.games.codename.rules import CodenameState


def decision(state: CodenameState) -> str | None:
    found = state.view(0)["decision"]
    return None if found is None else str(found["kind"])


def texts(state: CodenameState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# ------------------------------------------------------------------ strikes
def test_star_strike_deals_two_and_shows_the_code_card_to_the_striker_only() -> None:
    state = play(start(fields=(cells_of("S", "a1", "a2", "a3"), {})), "reveal a1 a2 a3")
    assert decision(state) == "respond" and state.current_player() == 1
    play(state, "respond pass")
    mine, theirs = state.view(0), state.view(1)
    assert mine["life"] == [9, 7]
    assert mine["sides"][1]["code"] == ["star", None, None, None, None]
    assert theirs["sides"][0]["code"] == [None] * 5
    assert [mine["sides"][0]["field"][c] for c in ("a1", "a2", "a3")] == [None, None, None]  # dealt unseen
    assert mine["sides"][0]["discard_known"] == {"star": 3} and theirs["sides"][0]["discard_known"] == {
        "star": 3
    }
    assert mine["sides"][0]["deck"] == 17
    assert state.current_player() == 0 and decision(state) == "turn"


def test_star_strike_ignores_a_shield_that_is_not_star() -> None:
    state = start(fields=(cells_of("S", "b1", "b2", "b3"), cells_of("Q", "a1", "b1", "c1")), first=1)
    play(state, "reveal a1 b1 c1", "end", "reveal b1 b2 b3", "respond pass")
    assert state.view(0)["life"] == [9, 7]
    assert state.view(1)["sides"][1]["face_up"] == ["a1", "b1", "c1"]


def test_star_shield_blocks_a_star_strike_and_hurts_the_striker_when_discarded() -> None:
    state = start(fields=(cells_of("S", "a1", "a2", "a3"), cells_of("S", "a1", "b1", "c1")), first=1)
    play(state, "reveal a1 b1 c1", "end", "reveal a1 a2 a3", "respond pass")
    view = state.view(1)
    assert view["life"] == [8, 9]
    assert view["sides"][1]["face_up"] == []
    assert [view["sides"][1]["field"][c] for c in ("a1", "b1", "c1")] == [None, None, None]
    assert view["sides"][1]["discard_known"] == {"star": 3}
    # A blocked strike still shows the struck column's code card (see test_codename_rulebook).
    assert state.view(0)["sides"][1]["code"] == ["star", None, None, None, None]
    assert state.current_player() == 0


def test_square_strike_makes_the_opponent_discard_his_hand() -> None:
    state = play(start(fields=(cells_of("Q", "a1", "a2", "a3"), {})), "reveal a1 a2 a3", "respond pass")
    theirs = state.view(1)
    assert theirs["life"] == [9, 8] and theirs["sides"][1]["hand"] == []
    assert theirs["sides"][1]["discard"] == 5 and sum(theirs["sides"][1]["discard_known"].values()) == 5
    assert state.view(0)["sides"][1]["discard_known"] == {}
    play(state, "end")
    assert len(state.view(1)["sides"][1]["hand"]) == 0  # he draws back at the end of his own turn
    play(state, "end")
    assert len(state.view(1)["sides"][1]["hand"]) == 5


def test_wave_strike_reshuffles_the_column_and_a_chosen_card_erasing_knowledge() -> None:
    state = start(fields=(cells_of("W", "a1", "a2", "a3"), {}), first=1)
    play(state, "peek a1 c3", "end", "reveal a1 a2 a3", "respond pass")
    assert decision(state) == "pick" and state.current_player() == 0
    assert "pick a2" not in texts(state) and "pick c3" in texts(state)
    before = Counter(symbol_of(state._field[1][CELL_INDEX[c]]) for c in ("a1", "a2", "a3", "a4", "c3"))
    play(state, "pick c3")
    assert state.current_player() == CHANCE
    action = state.sample_chance(random.Random(3))
    assert len(state.action_to_string(action).split()) == 6
    state.apply_action(action)
    after = Counter(symbol_of(state._field[1][CELL_INDEX[c]]) for c in ("a1", "a2", "a3", "a4", "c3"))
    assert after == before
    theirs = state.view(1)
    assert theirs["sides"][1]["field"]["a1"] is None and theirs["sides"][1]["field"]["c3"] is None
    assert theirs["life"] == [9, 8]
    assert state.current_player() == 0


def test_circle_strike_swaps_a_chosen_card_for_one_from_his_discard_pile() -> None:
    state = start(fields=(cells_of("O", "a1", "a2", "a3"), {}), first=1)
    play(state, "replace e4 cross", "end", "reveal a1 a2 a3", "respond pass")
    assert decision(state) == "target"
    assert texts(state) == ["target a1", "target a2", "target a3", "target a4"]
    play(state, "target a2")  # a wave; his pile already holds the star of e4
    assert state.view(0)["sides"][1]["discard_known"] == {"star": 1, "wave": 1}
    assert texts(state) == ["take star", "take wave"]
    play(state, "take star")
    assert state.view(0)["sides"][1]["field"]["a2"] == "star"
    assert state.view(1)["sides"][1]["field"]["a2"] == "star"
    assert state.view(1)["sides"][1]["discard_known"] == {}
    assert state.view(0)["life"] == [9, 8]


def test_cross_strike_gains_a_life() -> None:
    state = play(start(fields=(cells_of("X", "b1", "b2", "b3"), {})), "reveal b1 b2 b3", "respond pass")
    assert state.view(0)["life"] == [10, 8]
    assert state.view(0)["sides"][1]["code"][1] == "square"


# ------------------------------------------------------------------ shields
def test_a_shield_spanning_the_column_blocks_and_square_shield_swaps_code_cards() -> None:
    state = start(fields=(cells_of("X", "b1", "b2", "b3"), cells_of("Q", "a2", "b2", "c2")), first=1)
    play(state, "reveal a2 b2 c2", "end", "reveal b1 b2 b3", "respond pass")
    assert decision(state) == "codeswap" and state.current_player() == 1
    assert state.view(0)["life"] == [9, 9]
    play(state, "codeswap a e")
    assert state.view(1)["sides"][1]["code"] == ["cross", "square", "wave", "circle", "star"]
    assert state.view(1)["sides"][1]["face_up"] == []
    assert state.current_player() == 0


def test_a_shield_not_spanning_the_column_does_not_block() -> None:
    state = start(fields=(cells_of("X", "e1", "e2", "e3"), cells_of("Q", "a2", "b2", "c2")), first=1)
    play(state, "reveal a2 b2 c2", "end", "reveal e1 e2 e3", "respond pass")
    assert state.view(0)["life"] == [10, 8]
    assert state.view(1)["sides"][1]["face_up"] == ["a2", "b2", "c2"]


def test_a_response_shield_blocks_and_wave_shield_arranges_its_replacements() -> None:
    fields = (cells_of("X", "c1", "c2", "c3"), cells_of("W", "b2", "c2", "d2"))
    state = start(fields=fields, decks=("", "SQO"))
    play(state, "reveal c1 c2 c3")
    assert "respond b2 c2 d2" in texts(state) and "respond pass" in texts(state)
    play(state, "respond b2 c2 d2")
    assert decision(state) == "place" and state.current_player() == 1
    assert state.view(1)["sides"][1]["aside"] == ["star", "square", "circle"]
    assert state.view(0)["sides"][1]["aside_count"] == 3
    assert texts(state) == ["place b2 star", "place b2 square", "place b2 circle"]
    play(state, "place b2 circle", "place c2 star")
    theirs = state.view(1)
    assert [theirs["sides"][1]["field"][c] for c in ("b2", "c2", "d2")] == ["circle", "star", "square"]
    assert [state.view(0)["sides"][1]["field"][c] for c in ("b2", "c2", "d2")] == [None, None, None]
    assert theirs["life"] == [9, 9] and theirs["sides"][1]["aside"] == []
    assert state.current_player() == 0


def test_an_invalid_response_goes_back_face_down_and_the_strike_hits() -> None:
    state = play(start(fields=(cells_of("X", "c1", "c2", "c3"), {})), "reveal c1 c2 c3", "respond a1 b1 c1")
    assert state.view(1)["sides"][1]["face_up"] == []
    assert state.view(0)["sides"][1]["field"]["a1"] == "star"
    assert state.view(0)["life"] == [10, 8]
    assert state.current_player() == 0


def test_the_defender_chooses_which_of_two_shields_blocks() -> None:
    fields = (
        cells_of("X", "c1", "c2", "c3"),
        {**cells_of("Q", "a1", "b1", "c1"), **cells_of("Q", "d3", "e3")},
    )
    state = start(fields=fields, first=1)
    play(state, "reveal a1 b1 c1", "reveal c3 d3 e3", "end", "reveal c1 c2 c3", "respond pass")
    assert decision(state) == "block"
    assert texts(state) == ["block a1 b1 c1", "block c3 d3 e3"]
    play(state, "block c3 d3 e3", "codeswap pass")
    assert state.view(1)["sides"][1]["face_up"] == ["a1", "b1", "c1"]
    assert state.view(0)["life"] == [9, 9]


def test_circle_shield_shows_the_striking_column_code_card_to_its_owner() -> None:
    state = start(fields=(cells_of("W", "d1", "d2", "d3"), cells_of("O", "d4", "e4")), first=1)
    play(state, "reveal c4 d4 e4", "end", "reveal d1 d2 d3", "respond pass")
    assert state.view(1)["sides"][0]["code"] == [None, None, None, "circle", None]
    assert state.view(0)["sides"][1]["code"] == [None, None, None, "circle", None]  # the blocked strike
    assert state.view(0)["life"] == [9, 9]


def test_cross_shield_refills_from_the_hand_or_the_deck() -> None:
    fields = (cells_of("Q", "a1", "a2", "a3"), cells_of("X", "b3", "c3"))
    state = start(fields=fields, first=1, decks=("", "O"))
    play(state, "reveal a3 b3 c3", "end", "reveal a1 a2 a3", "respond pass")
    assert decision(state) == "fill"
    assert texts(state) == [f"fill a3 {s}" for s in ("star", "square", "wave", "circle", "cross")] + [
        "fill a3 deck"
    ]
    play(state, "fill a3 wave", "fill b3 deck", "fill c3 star")
    theirs = state.view(1)
    assert [theirs["sides"][1]["field"][c] for c in ("a3", "b3", "c3")] == ["wave", None, "star"]
    assert theirs["sides"][1]["hand"] == ["square", "circle", "cross"]
    assert theirs["sides"][1]["hand"] and theirs["life"] == [9, 9]  # the square strike was prevented
    assert state._field[1][CELL_INDEX["b3"]] // 10 % 5 == 3  # the deck's top card, a circle


# ------------------------------------------------------------------- foci
def test_star_focus_deals_three() -> None:
    state = play(start(fields=(cells_of("S", "a1", "a2", "b1", "b2"), {})), "reveal a1 a2 b1 b2")
    assert state.view(0)["life"] == [9, 6]
    assert state.view(0)["sides"][0]["discard_known"] == {"star": 4}
    assert state.current_player() == 0


def test_cross_focus_gains_three() -> None:
    state = play(start(fields=(cells_of("X", "d3", "d4", "e3", "e4"), {})), "reveal d3 d4 e3 e4")
    assert state.view(0)["life"] == [12, 9]


def test_square_focus_replaces_a_code_card_from_the_hand() -> None:
    state = play(start(fields=(cells_of("Q", "a1", "a2", "b1", "b2"), {})), "reveal a1 a2 b1 b2")
    assert decision(state) == "recode"
    play(state, "recode a cross")
    mine = state.view(0)
    assert mine["sides"][0]["code"] == ["cross", "square", "wave", "circle", "cross"]
    assert mine["sides"][0]["hand"] == ["star", "square", "wave", "circle"]
    assert mine["sides"][0]["discard_known"] == {"star": 1, "square": 4}
    assert state.view(1)["sides"][0]["discard_known"] == {"square": 4}
    assert scenarios.events(state.view(1), "recode")[-1] == {"kind": "recode", "player": 0, "slot": "a"}


def test_circle_focus_names_a_symbol_and_the_opponent_shows_those_code_cards() -> None:
    state = start(
        fields=(cells_of("O", "a1", "a2", "b1", "b2"), {}), codes=("star square wave circle cross",) * 2
    )
    state = play(state, "reveal a1 a2 b1 b2")
    assert decision(state) == "name"
    play(state, "name star")
    opponent = state.view(0)["sides"][1]
    assert opponent["code"] == ["star", None, None, None, None]
    assert opponent["code_excluded"] == [[], ["star"], ["star"], ["star"], ["star"]]
    # SPEC 5: "shown to the opponent only". A spectator hears the symbol
    # named, not which slots hold it (the public view showed them).
    public = state.view(None)
    assert public["sides"][1]["code"] == [None] * 5 and public["sides"][1]["code_shown"] == []
    assert public["sides"][1]["code_excluded"] == [[]] * 5
    named = scenarios.events(public, "name")[0]
    assert named["symbol"] == "star" and "slots" not in named
    assert scenarios.events(state.view(0), "name")[0]["slots"] == ["a"]


def test_wave_focus_claims_the_sets_in_the_opponents_columns() -> None:
    fields = (cells_of("W", "a1", "a2", "b1", "b2"), cells_of("X", "a1", "a2", "a3"))
    state = play(start(fields=fields), "reveal a1 a2 b1 b2")
    assert decision(state) == "respond"  # answered like any strike
    play(state, "respond pass")
    mine = state.view(0)
    assert mine["life"] == [10, 8]  # a cross strike in his column a, as if revealed by p0
    assert mine["sides"][1]["code"][0] == "star"
    assert mine["sides"][1]["discard"] == 8 and sum(mine["sides"][1]["discard_known"].values()) == 8
    assert all(mine["sides"][1]["field"][f"{c}{r}"] is None for c in "ab" for r in "1234")
    assert state.current_player() == 0 and decision(state) == "turn"


def test_wave_focus_finding_no_set_ends_the_turn() -> None:
    state = play(start(fields=(cells_of("W", "a1", "a2", "b1", "b2"), {})), "reveal a1 a2 b1 b2")
    assert state.current_player() == 1
    assert state.view(1)["sides"][1]["discard"] == 8 and state.view(0)["life"] == [9, 9]


def test_a_wave_focus_uncovered_by_a_wave_focus_is_not_a_set() -> None:
    fields = (cells_of("W", "a1", "a2", "b1", "b2"), {**cells_of("W", "a1", "a2", "b1", "b2"), "b4": "S"})
    state = play(start(fields=fields), "reveal a1 a2 b1 b2")
    assert scenarios.events(state.view(0), "open") == [
        {
            "kind": "open",
            "player": 1,
            "cells": ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"],
            "symbols": ["wave", "wave", "cross", "square", "wave", "wave", "star", "star"],
        }
    ]
    assert state.current_player() == 1


def test_wave_focus_claims_a_focus_in_the_opponents_columns() -> None:
    fields = (cells_of("W", "a1", "a2", "b1", "b2"), {**cells_of("S", "a3", "a4", "b3", "b4"), "a1": "X"})
    state = play(start(fields=fields), "reveal a1 a2 b1 b2")
    assert state.view(0)["life"] == [9, 6]
    assert state.view(0)["sides"][1]["code"] == [None] * 5  # a focus shows no code card
    assert state.current_player() == 0


def test_a_square_focus_claimed_by_a_wave_focus_recodes_the_claimer() -> None:
    fields = (
        cells_of("W", "a1", "a2", "b1", "b2"),
        {**cells_of("Q", "a2", "a3", "b2", "b3"), "a4": "S", "b1": "X"},
    )
    state = play(start(fields=fields), "reveal a1 a2 b1 b2")
    assert decision(state) == "recode" and state.current_player() == 0
    play(state, "recode e star")
    assert state.view(0)["sides"][0]["code"][4] == "star"


def test_a_four_card_strike() -> None:
    state = play(
        start(fields=(cells_of("X", "a1", "a2", "a3", "a4"), {})), "reveal a1 a2 a3 a4", "respond pass"
    )
    assert state.view(0)["life"] == [10, 8]
    assert (
        state.view(0)["sides"][0]["discard_known"] == {"cross": 4} and state.view(0)["sides"][0]["deck"] == 16
    )


def test_no_response_is_asked_when_the_defender_has_no_shield_shape_left() -> None:
    shields = {
        **cells_of("S", "a1", "b1", "c1"),
        **cells_of("Q", "a2", "b2", "c2"),
        **cells_of("O", "a3", "b3", "c3"),
        **cells_of("X", "a4", "b4", "c4"),
    }
    state = start(fields=(cells_of("X", "e2", "e3"), shields), first=1)
    play(state, "reveal a1 b1 c1", "reveal a2 b2 c2", "reveal a3 b3 c3", "reveal a4 b4 c4", "end")
    play(state, "reveal e1 e2 e3")
    assert decision(state) == "turn"
    assert state.view(0)["life"] == [10, 8]
