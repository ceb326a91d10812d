"""``OracleState.early_choices``: in the keep phase every seat may choose its
pair at once; what it may choose ahead is exactly its legal keep when its
turn comes, whatever the seats before it keep."""

from __future__ import annotations

import random

from oracles.core.registry import load_game


def test_early_choices_are_the_keeps_a_seat_will_have() -> None:
    for seed in range(5):
        rng = random.Random(seed)
        state = load_game("oracle").new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        assert state.view(state.current_player())["phase"] == "keep"
        ahead = {seat: state.early_choices(seat) for seat in range(state.num_players)}
        assert ahead[state.current_player()] == []
        kept: set[int] = set()
        for _ in range(state.num_players):
            seat = state.current_player()
            waiting = [s for s, acts in ahead.items() if acts and s != seat and s not in kept]
            for other in waiting:
                assert state.early_choices(other) == ahead[other]
            if ahead[seat]:
                assert state.legal_actions() == ahead[seat]
            state.apply_action(rng.choice(state.legal_actions()))
            kept.add(seat)
            assert state.early_choices(seat) == []
        assert state.view(state.current_player())["phase"] == "play"
        assert all(state.early_choices(s) == [] for s in range(state.num_players))
