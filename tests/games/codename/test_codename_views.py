"""Codename views: the public view (what a spectator sees), events masked per
viewer, and the knowledge fields a front end reads instead of the log."""

from __future__ import annotations

import codename_scenarios as scenarios
from codename_scenarios import FULL_CODE, play, start


def cells_of(letter: str, *cells: str) -> dict[str, str]:
    return dict.fromkeys(cells, letter)


def test_the_public_view_shows_no_hand_code_or_unseen_card() -> None:
    state = play(start(), "peek a1 b1", "replace c1 star")
    public = state.view(None)
    assert public["seat"] is None and public["phase"] == "play" and public["to_act"] == 0
    for side in public["sides"]:
        assert (
            side["hand"] is None
            and side["aside"] is None
            and side["hand_count"] == 5 - (side is public["sides"][0])
        )
        assert side["code"] == [None] * 5
        assert all(symbol is None for symbol in side["field"].values())
    assert state.view(0)["sides"][0]["hand"] is not None and state.view(1)["sides"][0]["hand"] is None
    kinds = {event["kind"]: event for event in public["log"]}
    assert "code" not in kinds["code"] and "hand" not in kinds["shuffle"]
    assert kinds["peek"] == {"seq": 5, "seat": 0, "kind": "peek", "player": 0, "cells": ["a1", "b1"]}
    assert kinds["replace"] == {"seq": 6, "seat": 0, "kind": "replace", "player": 0, "cell": "c1"}
    assert scenarios.events(state.view(0), "replace")[0]["symbol"] == "star"


def test_what_everyone_saw_is_public_and_a_guess_is_the_players() -> None:
    """SPEC 5: "a correct guess reveals those slots to the guesser". The
    public sees the guess and how many were right (the damage tells it),
    not which slots, their symbols or what the guess ruled out; it did."""
    codes = (FULL_CODE, "wave wave circle star star")
    state = play(start(codes=codes), "guess wave wave circle circle circle")
    public = state.view(None)
    assert public["sides"][1]["code"] == [None] * 5
    assert public["sides"][1]["code_shown"] == []
    assert public["sides"][1]["code_excluded"] == [[]] * 5
    guessed = scenarios.events(public, "guess")[0]
    assert "right" not in guessed and guessed["count"] == 3
    mine = state.view(0)
    assert mine["sides"][1]["code"] == ["wave", "wave", "circle", None, None]
    assert mine["sides"][1]["code_shown"] == ["a", "b", "c"]
    assert mine["sides"][1]["code_excluded"] == [[], [], [], ["circle"], ["circle"]]
    assert scenarios.events(mine, "guess")[0]["right"] == ["a", "b", "c"]
    # The code's owner knows what the guesser learnt.
    assert state.view(1)["sides"][1]["code_shown"] == ["a", "b", "c"]
    assert scenarios.events(state.view(1), "guess")[0]["right"] == ["a", "b", "c"]
    play(state, "reveal a1 a2 a3")  # star wave cross: not a set, both players see them
    public = state.view(None)
    assert [public["sides"][0]["field"][c] for c in ("a1", "a2", "a3")] == ["star", "wave", "cross"]
    assert public["sides"][0]["field_shown"] == ["a1", "a2", "a3"]


def test_code_shown_is_kept_by_the_rules_and_the_symbol_is_secret() -> None:
    """The seat's own code slots its opponent has seen, kept by the rules."""
    fields = (cells_of("X", "a1", "a2", "a3"), {})
    state = play(start(fields=fields), "reveal a1 a2 a3", "respond pass")
    assert state.view(1)["sides"][1]["code_shown"] == ["a"]
    assert state.view(0)["sides"][1]["code"] == ["star", None, None, None, None]
    events = scenarios.events(state.view(0), "code_shown")
    assert events == [{"kind": "code_shown", "player": 1, "slot": "a", "symbol": "star"}]
    assert scenarios.events(state.view(None), "code_shown") == [
        {"kind": "code_shown", "player": 1, "slot": "a"}
    ]


def test_code_shown_moves_with_a_code_swap() -> None:
    fields = (cells_of("X", "a2", "a3", "a4"), cells_of("Q", "a1", "b1", "c1"))
    state = play(start(fields=fields, first=1), "reveal a1 b1 c1", "end", "reveal a2 a3 a4", "respond pass")
    assert state.view(1)["sides"][1]["code_shown"] == ["a"]  # the blocked strike showed slot a
    play(state, "codeswap a c")  # the square shield's discard effect
    assert state.view(1)["sides"][1]["code_shown"] == ["c"]
    assert state.view(0)["sides"][1]["code"] == [None, None, "star", None, None]
