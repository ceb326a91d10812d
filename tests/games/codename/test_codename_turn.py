"""Codename: Oracle: setup, notation, the turn's actions and their limits, guesses, the end."""

from __future__ import annotations

import random

import pytest
from codename_scenarios import FULL_CODE, cells_of, play, start

from oracles import CHANCE, IllegalActionError, NotationError, load_game
from oracles.games.codename.actions import END, GUESS_BASE
from oracles.games.codename.rules import CodenameState


def test_setup_order_codes_then_shuffles_then_first_player() -> None:
    state = load_game("codename").new_initial_state()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 3125
    state.apply_string("code star star star star star")
    assert state.current_player() == 1
    state.apply_string("CODE cross cross cross cross cross")
    assert state.current_player() == CHANCE
    state.apply_action(state.sample_chance(random.Random(1)))
    state.apply_action(state.sample_chance(random.Random(2)))
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_string("first 1")
    assert state.current_player() == 1
    view = state.view(0)
    assert view["life"] == [9, 9]
    assert view["sides"][0]["code"] == ["star"] * 5
    assert view["sides"][1]["code"] == [None] * 5
    assert (
        len(view["sides"][0]["hand"]) == 5
        and view["sides"][0]["deck"] == 20
        and view["sides"][0]["discard"] == 0
    )
    assert all(symbol is None for symbol in view["sides"][0]["field"].values())
    assert all(symbol is None for symbol in view["sides"][1]["field"].values())
    assert view["log"][-1] == {"seq": 4, "seat": None, "kind": "first", "player": 1}
    assert view["sides"][1]["hand_count"] == 5


def test_a_shuffle_must_deal_the_cards_left_after_the_code() -> None:
    state = load_game("codename").new_initial_state()
    play(state, "code star star star star star", f"code {FULL_CODE}")
    text = (
        "shuffle 0 "
        + " ".join(["star"] * 20)
        + " / "
        + " ".join(["wave"] * 5)
        + " / "
        + " ".join(["cross"] * 20)
    )
    with pytest.raises(IllegalActionError, match="not the cards being shuffled"):
        state.apply_string(text)
    with pytest.raises(NotationError, match="seat 0"):
        state.apply_string("shuffle 1 star")
    with pytest.raises(NotationError, match="expected 20 symbols"):
        state.apply_string("shuffle 0 star / star / star")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("fly a1", "unknown action"),
        ("peek f1", "not a cell"),
        ("peek", "takes one or two cells"),
        ("peek a1 b1 c1", "takes one or two cells"),
        ("peek a1 a1", "two different cells"),
        ("replace a1 moon", "not a symbol"),
        ("reveal a1 b2 c3", "not a set shape"),
        ("reveal a1 a1 a2", "not a set shape"),
        ("guess star star", "expected 5 symbols"),
        ("codeswap a z", "not a code slot"),
        ("place a1 star", "no 'place' is due"),
    ],
)
def test_unreadable_actions_are_refused_with_a_reason(text: str, reason: str) -> None:
    state = start()
    with pytest.raises(NotationError, match=reason):
        state.string_to_action(text)


@pytest.mark.parametrize(
    ("moves", "refused", "reason"),
    [
        (["peek a1"], "peek c1", "already peeked this turn"),
        (["peek a1 b1"], "peek c1 d1", "already peeked this turn"),
        (["swap a1 b1"], "swap c1 d1", "already swapped"),
        (["replace a1 star"], "replace b1 wave", "already replaced"),
        (["guess star star star star star"], "guess cross cross cross cross cross", "already guessed"),
        ([], "swap a1 a1", "cannot swap a cell with itself"),
        ([], "replace a1 star", None),
        (["replace a1 star"], "peek a1", None),
    ],
)
def test_once_per_turn_limits(moves: list[str], refused: str, reason: str | None) -> None:
    state = play(start(), *moves)
    if reason is None:
        state.apply_string(refused)
        return
    before = state.view(0)
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_string(refused)
    assert state.view(0) == before


def test_limits_reset_on_the_next_turn() -> None:
    state = play(start(), "peek a1 b1", "swap a1 b1", "end", "end")
    assert state.current_player() == 0
    assert state.view(0)["used"] == {
        "peek": False,
        "swap": False,
        "replace": False,
        "guess": False,
        "reveals": 0,
    }
    play(state, "peek c1")


def test_peek_shows_the_card_to_its_owner_only_and_a_swap_moves_the_knowledge() -> None:
    state = play(start(), "peek a1")
    assert state.view(0)["sides"][0]["field"]["a1"] == "star"
    assert state.view(1)["sides"][0]["field"]["a1"] is None
    assert state.view(1)["log"][-1] == {"seq": 5, "seat": 0, "kind": "peek", "player": 0, "cells": ["a1"]}
    assert state.view(0)["log"][-1]["symbols"] == ["star"]
    assert state.view(None)["log"][-1] == state.view(1)["log"][-1]
    play(state, "swap a1 c4")
    assert state.view(0)["sides"][0]["field"]["a1"] is None
    assert state.view(0)["sides"][0]["field"]["c4"] == "star"


def test_replace_discards_unseen_and_the_placed_card_is_known_to_its_owner() -> None:
    state = play(start(decks=("O", "")), "replace b1 cross")
    view = state.view(0)
    assert view["sides"][0]["field"]["b1"] == "cross"
    assert view["sides"][0]["hand"] == ["star", "square", "wave", "circle"]
    assert view["sides"][0]["discard"] == 1 and view["sides"][0]["discard_known"] == {}
    assert state.view(1)["sides"][0]["field"]["b1"] is None
    assert state.view(1)["log"][-1] == {"seq": 5, "seat": 0, "kind": "replace", "player": 0, "cell": "b1"}
    play(state, "end")
    assert state.view(0)["sides"][0]["hand"] == [
        "star",
        "square",
        "wave",
        "circle",
        "circle",
    ]  # the deck's top card
    assert state.view(0)["sides"][0]["deck"] == 19


def test_an_invalid_reveal_ends_the_turn_and_both_players_saw_the_cards() -> None:
    state = play(start(), "reveal a1 a2 a3")
    assert state.current_player() == 1
    for seat in (0, 1):
        cells = state.view(seat)["sides"][0]["field"]
        assert [cells["a1"], cells["a2"], cells["a3"]] == ["star", "wave", "cross"]
    assert state.view(0)["sides"][0]["face_up"] == []
    # Knowledge of both moves with the cards when they are swapped.
    play(state, "end", "swap a1 e4")
    assert state.view(1)["sides"][0]["field"]["e4"] == "star"
    assert state.view(1)["sides"][0]["field"]["a1"] is None


def test_chained_reveals_continue_the_turn() -> None:
    field = {**cells_of("S", "a1", "b1", "c1"), **cells_of("X", "e2", "e3", "e4")}
    state = play(start(fields=(field, {})), "reveal a1 b1 c1", "reveal e2 e3 e4", "respond pass")
    assert state.current_player() == 0
    view = state.view(0)
    assert view["used"]["reveals"] == 2
    assert view["sides"][0]["face_up"] == ["a1", "b1", "c1"]
    assert view["life"] == [10, 8]  # cross strike: 1 damage and 1 life
    assert state.view(1)["sides"][0]["face_up"] == ["a1", "b1", "c1"]


def test_reveals_per_turn_are_capped() -> None:
    field = {**cells_of("S", "a1", "b1", "c1"), **cells_of("Q", "a2", "b2", "c2")}
    state = play(start(fields=(field, {}), max_reveals=1), "reveal a1 b1 c1")
    assert not any(a for a in state.legal_actions() if state.action_to_string(a).startswith("reveal"))
    with pytest.raises(IllegalActionError, match="at most 1 reveals"):
        state.apply_string("reveal a2 b2 c2")


def test_a_partly_right_guess_costs_two_life_per_wrong_slot_and_shows_the_right_slots() -> None:
    state = play(start(), "guess star square wave wave wave")
    view = state.view(0)
    assert view["life"] == [5, 9]
    assert view["sides"][1]["code"] == ["star", "square", "wave", None, None]
    assert view["sides"][1]["code_excluded"] == [[], [], [], ["wave"], ["wave"]]
    assert state.current_player() == 0 and not state.is_terminal()
    assert all(not GUESS_BASE <= a < GUESS_BASE + 3125 for a in state.legal_actions())


def test_a_right_guess_wins_at_once() -> None:
    state = play(start(codes=(FULL_CODE, "wave wave circle star star")), "guess wave wave circle star star")
    assert state.is_terminal()
    assert state.winners() == [0] and state.scores() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_guessing_oneself_to_death_loses() -> None:
    state = play(start(), "guess star star star star star", "end", "end")
    assert state.view(0)["life"] == [1, 9]
    play(state, "guess star square wave circle circle")
    assert state.is_terminal() and state.winners() == [1] and state.scores() == [-1.0, 1.0]


def test_the_turn_limit_draws() -> None:
    state = play(start(max_turns=3), "end", "end")
    assert not state.is_terminal()
    play(state, "end")
    assert state.is_terminal() and state.winners() == [] and state.scores() == [0.0, 0.0]


def test_both_players_reaching_zero_in_one_turn_is_a_draw() -> None:
    # p1 raises a star shield over a4-c4 and guesses itself down to 1 life; p0
    # does the same, then a wave focus opens p1's columns a and b: the cross
    # strike in column a is blocked by the star shield (1 damage to p0), the
    # square strike in column b then hits (1 damage to p1). p1 lets both pass.
    fields = (
        cells_of("W", "a1", "a2", "b1", "b2"),
        {
            **cells_of("S", "a4", "b4", "c4"),
            **cells_of("X", "a1", "a2", "a3"),
            **cells_of("Q", "b1", "b2", "b3"),
        },
    )
    state = start(fields=fields, first=1)
    play(state, "reveal a4 b4 c4", "guess star star star star star", "end")
    play(state, "guess star star star star star")
    assert state.view(0)["life"] == [1, 1]
    play(state, "reveal a1 a2 b1 b2", "respond pass")
    assert not state.is_terminal()  # the wave focus has not resolved yet
    play(state, "respond pass")
    assert state.is_terminal()
    assert state.view(0)["life"] == [0, 0]
    assert state.winners() == [] and state.scores() == [0.0, 0.0]


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    state = start()
    rng = random.Random(5)
    reshuffles = 0
    while reshuffles == 0:
        if state.is_chance_node():
            assert state.view(0)["sides"][0]["deck"] == 0
            discard = state.view(0)["sides"][0]["discard"]
            held = len(state.view(0)["sides"][0]["hand"])
            assert discard > 0
            action = state.sample_chance(rng)
            assert state.action_to_string(action).startswith("reshuffle 0 ")
            state.apply_action(action)
            reshuffles += 1
            view = state.view(0)
            assert (
                view["sides"][0]["discard"] == 0
                and view["sides"][0]["hand"]
                and len(view["sides"][0]["hand"]) == 5
            )
            # The drawing goes on from the new deck up to five cards.
            assert view["sides"][0]["deck"] == discard - (5 - held)
            continue
        seat = state.current_player()
        if seat == 0:
            hand = state.view(0)["sides"][0]["hand"]
            play(state, f"replace a1 {hand[0]}")
        play(state, "end")
    assert isinstance(state, CodenameState)


def test_a_deck_exhausted_by_the_end_of_turn_draw_is_reshuffled_at_once() -> None:
    """Rulebook: "If, at the end of your turn, your Zener card deck becomes
    exhausted, shuffle your discard pile and place it face down to create a
    new draw deck". The deck emptied by that draw is made again at once,
    from the pile as it is then (it waited until a card was next needed, and
    took in the cards discarded meanwhile)."""
    rng = random.Random(7)
    found = 0
    for seed in range(40):
        state = start()
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.current_player()
            before = state.view(seat)["sides"][seat]
            hand = before["hand"]
            if hand and f"replace a1 {hand[0]}" in [state.action_to_string(a) for a in state.legal_actions()]:
                play(state, f"replace a1 {hand[0]}")
            play(state, "end")
            side = state.view(seat)["sides"][seat]
            if side["deck"] == 0 and side["discard"] > 0 and len(side["hand"] or []) == 5:
                # Drawn to five with the deck's last card: the reshuffle is next.
                assert state.is_chance_node()
                assert state.action_to_string(state.sample_chance(rng)).startswith(f"reshuffle {seat} ")
                found += 1
        if found >= 3:
            break
    assert found, "no end-of-turn draw emptied a deck in these games"


def test_end_is_always_legal_at_the_turn() -> None:
    assert END in start().legal_actions()
