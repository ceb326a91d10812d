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


def fields(state: OracleState) -> dict[str, Any]:
    """Every field of ``state`` but its caches (what the rules know)."""
    return {k: v for k, v in vars(state).items() if k not in ("_logs", "_resample_memo")}


@pytest.mark.parametrize("options", CASES)
def test_a_world_is_the_state_its_history_replays_to(options: dict[str, Any]) -> None:
    """The world is patched on a clone, not replayed: every field (hands,
    Oracle cards, keeps, the event log) must still be what replaying its
    history gives, for every seat's resample, and every seat's view too."""
    for state in decision_states(options, 12, seed=5):
        for seat in range(state.num_players):
            world = state.resample_from_infostate(seat, random.Random(seat))
            again = replayed(world)
            assert fields(world) == fields(again)
            for viewer in (None, *range(state.num_players)):
                assert world.view(viewer) == again.view(viewer)
            assert world.legal_actions() == again.legal_actions()


@pytest.mark.parametrize("options", CASES)
def test_a_worlds_views_are_made_from_its_own_events(options: dict[str, Any]) -> None:
    """Regression: a clone keeps the views' log entries made so far (the
    server clones before every move), and the world is patched on a clone.
    Once the true state's views were made, a world kept them: another seat's
    view of the world showed the true hidden cards of the log."""
    for state in decision_states(options, 8, seed=9):
        for viewer in (None, *range(state.num_players)):
            state.view(viewer)  # the true state's log entries, made and kept
        for seat in range(state.num_players):
            world = state.resample_from_infostate(seat, random.Random(seat))
            again = replayed(world)
            for viewer in (None, *range(state.num_players)):
                assert world.view(viewer) == again.view(viewer)


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


def _state_with_voids(options: dict[str, Any], seed: int) -> OracleState:
    """A position in play where the seat to act has seen some other seat
    lack a colour, with at least two other seats still holding cards."""
    rng = random.Random(seed)
    game = load_game("oracle", **options)
    while True:
        state = game.new_initial_state()
        assert isinstance(state, OracleState)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if state.phase == PLAY and not state.trick and 4 <= len(state.tricks) <= 8:
                shown = any(
                    card // NUM_VALUES != cards[0] // NUM_VALUES
                    for _, cards, _ in state.tricks
                    for card in cards
                )
                if shown:
                    return state
            state.apply_action(rng.choice(state.legal_actions()))


def test_hidden_cards_land_in_every_hand_that_may_hold_them() -> None:
    """Each unseen playing card lands, over many worlds, in every other
    seat that may hold it (about as often as its share of the room) and
    never in a seat that has shown it lacks the colour; each unseen Oracle
    card lands in every other seat's hand and keep."""
    state = _state_with_voids({"players": 4}, seed=2)
    seat = state.current_player()
    n = state.num_players
    void = [0] * n
    for leader, cards, _ in state.tricks:
        for i, card in enumerate(cards):
            if card // NUM_VALUES != cards[0] // NUM_VALUES:
                void[(leader + i) % n] |= 1 << cards[0] // NUM_VALUES
    assert any(void[other] for other in range(n) if other != seat)
    others = [other for other in range(n) if other != seat]
    sizes = {other: state.hands[other].bit_count() for other in others}
    pool = [card for card in range(60) if state.unseen_cards(seat) >> card & 1]
    owners: dict[int, dict[int, int]] = {card: {} for card in pool}
    oracle_owners: dict[int, set[int]] = {}
    keepers: dict[int, set[int]] = {}
    worlds = 600
    for k in range(worlds):
        world = state.resample_from_infostate(seat, random.Random(k))
        assert world.hands[seat] == state.hands[seat]
        for other in others:
            assert world.hands[other].bit_count() == sizes[other]
            for card in pool:
                if world.hands[other] >> card & 1:
                    owners[card][other] = owners[card].get(other, 0) + 1
            for card in world.oracle_cards[other]:
                oracle_owners.setdefault(card, set()).add(other)
            kept = world.kept[other]
            assert kept is not None
            for card in kept:
                keepers.setdefault(card, set()).add(other)
    for card in pool:
        may = [other for other in others if not void[other] >> card // NUM_VALUES & 1]
        assert set(owners[card]) == set(may), (card, owners[card], may)
        assert sum(owners[card].values()) == worlds
        if len(may) == len(others):  # no constraint on this colour: about its share
            room = sum(sizes.values())
            for other in may:
                assert owners[card][other] > 0.4 * worlds * sizes[other] / room
    unseen_oracles = set(range(40)) - set(state.oracle_cards[seat])
    for card in unseen_oracles:
        assert oracle_owners[card] == set(others)
        assert keepers[card] == set(others)
    assert not set(oracle_owners) - unseen_oracles


@pytest.mark.parametrize("options", CASES)
def test_resample_at_every_step_of_random_games(options: dict[str, Any]) -> None:
    """At every step of a few random games: a world for the seat to act
    or another (a fresh rng state each time)
    shows that seat the same view, is the state its history replays to, and
    plays on to the end."""
    game = load_game("oracle", **options)
    rng = random.Random(8)
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert isinstance(state, OracleState)
            # The seat to act at every other decision, else a seat that varies.
            step = len(state.history())
            seat = (
                state.current_player()
                if state.current_player() >= 0 and step % 2
                else step % game.num_players
            )
            world = state.resample_from_infostate(seat, random.Random(rng.random()))
            assert world.view(seat) == state.view(seat)
            assert fields(world) == fields(replayed(world))
            if state.is_terminal():
                break
            while not world.is_terminal():
                world.apply_action(
                    world.sample_chance(rng) if world.is_chance_node() else rng.choice(world.legal_actions())
                )
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )
