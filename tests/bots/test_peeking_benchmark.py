"""``benchmarks/peeking.py``: the searches that cheat see what they say they
see, and the worlds they draw are states their own history replays to."""

from __future__ import annotations

import random

import pytest

from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.records import replay_record
from oracles.core.registry import load_game
from oracles.games.oracle.phases import PLAY
from oracles.games.oracle.rules import OracleState
from oracles.testing import random_playout


@pytest.fixture(scope="module")
def peeking(load_benchmark):
    return load_benchmark("peeking")


def _mid_round(seed: int) -> OracleState:
    """An Oracle round of four a few tricks in, played at random."""
    state = random_playout(load_game("oracle", players=4, rounds=1), random.Random(seed), stop_after=31)
    assert isinstance(state, OracleState) and state.phase == PLAY
    return state


@pytest.mark.parametrize("seed", range(4))
def test_each_cheat_sees_what_it_says(peeking, seed: int) -> None:
    state = _mid_round(seed)
    seat = state.current_player()
    others = [other for other in range(4) if other != seat]
    hands_differ = keeps_differ = 0
    for index in range(8):
        rng = random.Random(index)
        true_hands = peeking._TrueHands(state, seat).sample_world(rng)
        true_keeps = peeking._TrueKeeps(state, seat).sample_world(rng)
        true_state = peeking._TrueState(state, seat).sample_world(rng)
        assert true_state.history() == state.history()
        assert [true_hands.hands[o] for o in others] == [state.hands[o] for o in others]
        assert [true_keeps.kept[o] for o in others] == [state.kept[o] for o in others]
        assert [true_keeps.oracle_cards[o] for o in others] == [state.oracle_cards[o] for o in others]
        hands_differ += any(true_keeps.hands[o] != state.hands[o] for o in others)
        keeps_differ += any(true_hands.kept[o] != state.kept[o] for o in others)
        for world in (true_hands, true_keeps):
            # The seat's own cards stay its own, and the world is the state
            # its history replays to.
            assert world.hands[seat] == state.hands[seat]
            again = replay_record(world.record())
            assert isinstance(again, OracleState)
            assert again.hands == world.hands and again.kept == world.kept
            assert again.oracle_cards == world.oracle_cards
    # What is not given is drawn, not copied.
    assert hands_differ and keeps_differ


def test_register_lets_specs_name_them(peeking) -> None:
    peeking.register()
    peeking.register()  # twice changes nothing
    state = _mid_round(9)
    seat = state.current_player()
    for name in ("true_hands", "true_keeps", "true_state"):
        bot = make_bot(f"{name}:iterations=16", seat, 1)
        assert bot.choose(SeatInfo(state, seat)) in state.legal_actions()
