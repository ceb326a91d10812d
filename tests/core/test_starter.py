"""The starter API: which seat dealt (or began), and the chance that picks it
(the server's rematch lets the next seat start through it)."""

from __future__ import annotations

import random

import pytest

from oracles import load_game
from oracles.core.registry import game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_each_seat_can_be_made_the_starter(game_id: str) -> None:
    game = load_game(game_id)
    for seat in range(game.num_players):
        state = game.new_initial_state()
        rng = random.Random(seat)
        forced = 0
        for _ in range(200):
            if state.starter() is not None:
                break
            if state.is_chance_node():
                action = state.starter_chance(seat)
                if action is not None:
                    forced += 1
                    assert action in [a for a, _ in state.chance_outcomes()]
                state.apply_action(action if action is not None else state.sample_chance(rng))
            else:
                assert state.starter_chance(seat) is None
                state.apply_action(rng.choice(state.legal_actions()))
        assert forced == 1 and state.starter() == seat
        # Later chance (the deals) is never the starter's.
        while not state.is_terminal() and len(state.history()) < 60:
            if state.is_chance_node():
                assert state.starter_chance(seat) is None
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.starter() == seat
