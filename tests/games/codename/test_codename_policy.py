"""The Codename: Oracle heuristic policy: legal, blind to hidden cards, stronger
than random, and sensible in hand-made scenarios."""

from __future__ import annotations

import random

import codename_scenarios as scenarios
from codename_scenarios import play

from oracles.bots.base import SeatInfo
from oracles.bots.heuristic import HeuristicBot
from oracles.bots.hooks import policy_for
from oracles.core.registry import load_game
from oracles.games.codename.policy import candidates, choose
from oracles.games.codename.rules import CodenameState
from oracles.simulate import play_game

CODE = "wave wave circle circle square"


def new_state(**options: int) -> CodenameState:
    state = load_game("codename", **options).new_initial_state()
    assert isinstance(state, CodenameState)
    return state


def start(
    fields: tuple[dict[str, str], dict[str, str]] = ({}, {}),
    hands: tuple[str, str] = ("SQWOX", "SQWOX"),
    codes: tuple[str, str] = (CODE, CODE),
) -> CodenameState:
    return scenarios.start(fields, hands, codes)


def decide(state: CodenameState) -> str:
    return state.action_to_string(choose(state, state.current_player(), random.Random(0)))


def decision_states(seed: int, count: int) -> list[CodenameState]:
    """States where a seat decides, from games of the policy with a dash of
    random moves (guesses left out, so that games last)."""
    rng = random.Random(seed)
    found: list[CodenameState] = []
    while len(found) < count:
        state = new_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if state.view(0)["turn"] and rng.random() < 0.25:
                found.append(state.clone())
            seat = state.current_player()
            if rng.random() < 0.15:
                legal = state.legal_actions()
                state.apply_action(rng.choice([a for a in legal if not 3125 <= a < 6250] or legal))
            else:
                state.apply_action(choose(state.resample_from_infostate(seat, rng), seat, rng))
    return found


STATES = decision_states(seed=1, count=300)


# ------------------------------------------------------------- legality
def test_registered_as_the_codename_policy() -> None:
    assert policy_for("codename") is choose


def test_only_legal_actions_on_true_and_resampled_states() -> None:
    rng = random.Random(2)
    kinds: set[str] = set()
    for state in STATES:
        seat = state.current_player()
        legal = state.legal_actions()
        kinds.add(state.view(seat)["decision"]["kind"])
        assert choose(state, seat, rng) in legal
        assert choose(state.resample_from_infostate(seat, rng), seat, rng) in legal
    assert {"turn", "respond"} <= kinds


def test_whole_games_between_heuristic_bots() -> None:
    game = load_game("codename")
    for seed in range(4):
        state, decisions = play_game(game, ["heuristic", "heuristic"], seed=seed)
        assert state.is_terminal() and decisions > 0


# ------------------------------------------------- reads only what it may
def test_choice_does_not_depend_on_hidden_cards() -> None:
    rng = random.Random(5)
    differing = 0
    for index, state in enumerate(STATES):
        seat = state.current_player()
        first = state.resample_from_infostate(seat, rng)
        second = state.resample_from_infostate(seat, rng)
        assert first.knowledge(seat) == second.knowledge(seat) == state.knowledge(seat)
        if first.view(1 - seat) != second.view(1 - seat):
            differing += 1
        assert choose(first, seat, random.Random(index)) == choose(second, seat, random.Random(index))
    assert differing > len(STATES) // 2  # the worlds really did differ in hidden cards


def test_reveals_unseen_cards_only_as_the_last_action_of_a_turn() -> None:
    """A set with an unseen card is revealed only to scout, after the peek
    (or with nothing left to peek at); never a set it knows to be invalid."""
    known_sets = scouting = 0
    for index, state in enumerate(STATES):
        seat = state.current_player()
        text = state.action_to_string(choose(state, seat, random.Random(index)))
        if not text.startswith("reveal "):
            continue
        view = state.view(seat)
        symbols = {view["sides"][seat]["field"][cell] for cell in text.split()[1:]}
        if len(symbols) == 1 and None not in symbols:
            known_sets += 1
            continue
        scouting += 1
        unseen = [c for c, s in view["sides"][seat]["field"].items() if s is None]
        assert view["used"]["peek"] or not unseen, (text, view["used"])
        if None not in symbols:  # only seen cards: then it knows the set is valid
            raise AssertionError(f"revealed a set it knows to be invalid: {text}")
    assert known_sets > 0 and scouting > 0


# ------------------------------------------------------------ strength
def test_beats_random_clearly() -> None:
    game = load_game("codename")
    wins = 0
    for index in range(40):
        seat = index % 2
        specs = ["random", "random"]
        specs[seat] = "heuristic"
        state, _ = play_game(game, specs, seed=f"strength:{index}")
        wins += seat in state.winners()
    assert wins >= 34


def test_heuristic_bot_uses_the_policy() -> None:
    state = start(hands=("SSSSS", "SQWOX"))
    play(state, "peek a1 a2")
    bot = HeuristicBot(0, seed=1)
    assert state.action_to_string(bot.choose(SeatInfo(state, 0))).startswith(("replace", "swap"))


# ------------------------------------------------------------ scenarios
def test_completes_and_reveals_a_known_strike() -> None:
    state = start(fields=({"a1": "S", "a2": "S"}, {}), hands=("SQWOX", "SQWOX"))
    play(state, "peek a1 a2")
    assert decide(state) in ("replace a3 star", "replace a4 star")
    state.apply_string(decide(state))
    move = decide(state)
    assert move.startswith("reveal a1 a2 a")
    state.apply_string(move)
    state.apply_string("respond pass")  # seat 1 has shield shapes, but none it knows
    assert scenarios.events(state.view(0), "hit") == [{"kind": "hit", "player": 0, "column": "a"}]
    assert state.view(0)["life"][1] == 7


def test_peeks_before_it_scouts_and_reveals_a_set_it_has_seen() -> None:
    # Column a is a star strike, but seat 0 has not looked at it.
    state = start(fields=({"a1": "S", "a2": "S", "a3": "S", "a4": "S"}, {}), hands=("QQWWO", "SQWOX"))
    moves: list[str] = []
    while state.current_player() == 0 and len(moves) < 12:
        move = decide(state)
        moves.append(move)
        if move.startswith("reveal"):
            field = state.view(0)["sides"][0]["field"]
            if any(field[c] is None for c in move.split()[1:]):
                assert sum(m.startswith("peek") for m in moves) == 1, moves
        state.apply_string(move)
        if state.current_player() == 1 and state.view(1)["decision"]["kind"] == "respond":
            state.apply_string("respond pass")
    assert moves[0].startswith("peek a") and all(c[0] == "a" for c in moves[0].split()[1:]), moves


def test_peeks_where_a_set_could_be_completed() -> None:
    state = start(fields=({"c1": "X", "c2": "X"}, {}), hands=("SQWWO", "SQWOX"))
    play(state, "peek c1", "end", "end")
    move = decide(state).split()
    assert move[0] == "peek" and len(move) == 3, move
    assert set(move[1:]) <= {"c2", "c3", "c4", "b1", "d1", "b2", "d2"}, move


def test_responds_with_a_known_shield() -> None:
    state = start(
        fields=({"c1": "O", "c2": "O"}, {"b1": "O", "c1": "O", "d1": "S"}),
        hands=("OQWWX", "OSQWX"),
    )
    play(state, "peek c1 c2", "replace c3 circle", "end")
    play(state, "peek b1 c1", "replace d1 circle", "end")
    play(state, "reveal c1 c2 c3")
    assert state.current_player() == 1
    assert decide(state) == "respond b1 c1 d1"
    play(state, decide(state))
    assert {
        "kind": "block",
        "player": 1,
        "cells": ["b1", "c1", "d1"],
        "symbol": "circle",
    } in scenarios.events(state.view(0), "block")


def test_guesses_when_the_code_is_fully_known() -> None:
    state = start(
        fields=({"a1": "O", "a2": "O", "b1": "O"}, {}),
        hands=("OQWWX", "SQWOX"),
        codes=(CODE, "star star star star star"),
    )
    play(state, "peek a1 a2", "replace b2 circle", "end")
    play(state, "end")
    play(state, "peek b1", "reveal a1 a2 b1 b2")
    assert state.current_player() == 0 and state.view(0)["decision"]["kind"] == "name"
    play(state, "name star")
    assert decide(state) == "guess star star star star star"


def test_does_not_guess_blindly() -> None:
    for state in STATES:
        seat = state.current_player()
        text = state.action_to_string(choose(state, seat, random.Random(0)))
        if text.startswith("guess"):
            unknown = sum(1 for s in state.view(seat)["sides"][1 - seat]["code"] if s is None)
            assert unknown <= 2


# ------------------------------------------------------ search support
def test_candidates_are_few_legal_and_blind_to_hidden_cards() -> None:
    rng = random.Random(9)
    for state in STATES[::3]:
        seat = state.current_player()
        legal = set(state.legal_actions())
        found = candidates(state, seat)
        assert found and set(found) <= legal and len(found) == len(set(found))
        assert found[0] == choose(state, seat, random.Random(0))
        if state.view(seat)["decision"]["kind"] == "turn":
            assert len(found) < 60
        world = state.resample_from_infostate(seat, rng)
        assert candidates(world, seat) == found
