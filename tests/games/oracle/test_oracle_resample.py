"""Resampling Oracle worlds (``resample_from_infostate``) is canonical: with
the same rng seed, two truths a seat cannot tell apart give the same world,
and the worlds still vary with the seed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracles.core.registry import game_class, load_game
from oracles.games.oracle.cards import NUM_VALUES
from oracles.games.oracle.resample import _assign_cards, _assign_cards_checked
from oracles.games.oracle.rules import DRAFT, KEEP, PLAY, OracleState

OPTION_SETS = game_class("oracle").test_option_sets
CASES = [
    pytest.param(options, id="-".join(f"{k}={v}" for k, v in options.items())) for options in OPTION_SETS
]


def decision_states(options: dict[str, Any], count: int, seed: int = 0) -> list[OracleState]:
    """``count`` positions with a real choice from random games, spread over
    the whole game (every phase, every round) by keeping each candidate with
    a small probability."""
    rng = random.Random(seed)
    game = load_game("oracle", **options)
    found: list[OracleState] = []
    while len(found) < count:
        state = game.new_initial_state()
        assert isinstance(state, OracleState)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            # Keeps are few, passes fewer than plays: take them more often.
            chance = 0.5 if state.phase == KEEP else 0.15 if state.phase == DRAFT else 0.05
            if len(legal) > 1 and rng.random() < chance:
                clone = state.clone()
                assert isinstance(clone, OracleState)
                found.append(clone)
            state.apply_action(rng.choice(legal))
    return found


def replayed(world: OracleState) -> OracleState:
    """``world``'s history replayed with every action checked."""
    state = world.game.new_initial_state()
    for action in world.history():
        state.apply_action(action)
    assert isinstance(state, OracleState)
    return state


@pytest.mark.parametrize("options", CASES)
def test_same_information_same_world(options: dict[str, Any]) -> None:
    states = decision_states(options, 30)
    phases = {state.phase for state in states}
    assert phases >= ({DRAFT, PLAY} if options.get("draft") else {KEEP, PLAY})
    if options.get("rounds", options["players"]) > 1:
        assert max(state.round_number for state in states) > 1  # finished rounds are covered
    differing = 0
    for state in states:
        seat = state.current_player()
        other = state.resample_from_infostate(seat, random.Random(99))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        if any(
            other.information_state_string(s) != state.information_state_string(s)
            for s in range(state.num_players)
            if s != seat
        ):
            differing += 1
        for k in (0, 1, 7, 12345):
            first = state.resample_from_infostate(seat, random.Random(k))
            second = other.resample_from_infostate(seat, random.Random(k))
            assert first.history() == second.history(), (k, state.phase, state.round_number)
    assert differing > len(states) * 3 // 4  # the truths really were different


@pytest.mark.parametrize("options", CASES)
def test_worlds_vary_and_agree_with_the_seat(options: dict[str, Any]) -> None:
    for state in decision_states(options, 8, seed=4):
        seat = state.current_player()
        seen = state.information_state_string(seat)
        histories = set()
        for k in range(8):
            world = state.resample_from_infostate(seat, random.Random(k))
            assert world.information_state_string(seat) == seen
            assert replayed(world).history() == world.history()  # a legal game
            histories.add(tuple(world.history()))
        assert len(histories) >= 6


@pytest.mark.parametrize("options", [options for options in OPTION_SETS if options.get("draft")])
def test_finished_draft_rounds_are_redrawn(options: dict[str, Any]) -> None:
    """After a draft round is scored every card dealt in it has been seen,
    but not the way it went: the hidden passes are redrawn too."""
    game = load_game("oracle", **options)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    assert isinstance(state, OracleState)
    for seat in range(game.num_players):
        seen = state.information_state_string(seat)
        worlds = [state.resample_from_infostate(seat, random.Random(k)) for k in range(10)]
        for world in worlds:
            assert world.information_state_string(seat) == seen
            assert replayed(world).history() == world.history()
        assert len({tuple(world.history()) for world in worlds}) > 1
        other = state.resample_from_infostate(seat, random.Random(99))
        for k in range(3):
            again = other.resample_from_infostate(seat, random.Random(k))
            assert again.history() == worlds[k].history()


def test_a_tight_deal_of_playing_cards_never_fails() -> None:
    """Seat 0 has shown it lacks every colour but green, seat 1 lacks green:
    the random tries often fail here, the checked deal never does."""
    red, blue, green = [0, 1, 2, 3, 4], [12, 13, 14, 15, 16], [24, 25, 26, 27, 28]
    pool = sorted(red + blue + green)
    void = [0b11011, 0b00100, 0]
    eligible = [[i for i in range(3) if not void[i] >> colour & 1] for colour in range(5)]
    rng = random.Random(1)
    deals = set()
    for _ in range(60):
        checked = _assign_cards_checked(pool, [5, 5, 5], eligible, rng)
        assert checked is not None
        for hands in (checked, _assign_cards(pool, [0, 1, 2], [5, 5, 5], void, rng)):
            assert hands is not None
            assert sorted(card for hand in hands for card in hand) == pool
            assert [len(hand) for hand in hands] == [5, 5, 5]
            assert all(not void[i] >> card // NUM_VALUES & 1 for i, hand in enumerate(hands) for card in hand)
        deals.add(tuple(tuple(sorted(hand)) for hand in checked))
    assert len(deals) > 20
    assert _assign_cards_checked(pool, [6, 4, 5], eligible, rng) is None  # seat 0 cannot take six
