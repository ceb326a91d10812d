"""The search's inner workings: the tree's node counts availability lazily
(a node often sees the same legal actions again), and what it reports must
be what counting every visit would give; the fast random rollout plays as
the general one; guided rollouts hand over to random play on time."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from oracles.bots.hooks import Policy
from oracles.bots.ismcts import _Node, seat_rewards
from oracles.core.game import State


def test_lazy_availability_and_untried_actions_match_eager_counting() -> None:
    rng = random.Random(5)
    node = _Node()
    counted: Counter[int] = Counter()
    pools = [list(range(10)), list(range(10)), [3, 5, 7], list(range(4, 12))]
    for step in range(400):
        legal = list(rng.choice(pools))  # equal lists, new objects: as legal_actions() gives
        counted.update(legal)
        untried = node.visit(legal)
        assert untried == [a for a in legal if a not in node.children_n]
        if untried and rng.random() < 0.3:  # the iteration expands an action and backs it up
            node.children_n[rng.choice(untried)] = 1
        elif node.children_n and rng.random() < 0.5:  # or backs up a known one
            action = rng.choice(list(node.children_n))
            node.children_n[action] += 1
        if step % 37 == 0:
            assert node.available() == counted
    assert node.available() == counted
    assert set(node.children_n) == set(range(12))


def test_expanding_takes_the_action_out_of_the_untried_ones() -> None:
    """The search expands an untried action by its index (a constant-time
    removal); the next visit, once that action is backed up as a child,
    gives the others, whether the legal list is the same object or equal."""
    node = _Node()
    legal = list(range(6))
    untried = node.visit(legal)
    action = node.expand(1)
    assert action == 1 and sorted(untried) == [0, 2, 3, 4, 5]
    node.children_n[action] = 1
    assert sorted(node.visit(legal)) == [0, 2, 3, 4, 5]
    second = node.expand(4)
    node.children_n[second] = 1
    assert sorted(node.visit(list(legal))) == sorted(set(legal) - {1, second})
    assert node.available() == Counter(dict.fromkeys(legal, 3))


def test_the_fast_random_rollout_plays_as_the_general_one() -> None:
    """Without a clock a random rollout to the end of the game runs a tight
    loop; with a clock (one that never runs out) it runs the general loop:
    the same seed must give the same choices."""
    from oracles.bots.base import SeatInfo
    from oracles.bots.ismcts import ISMCTSBot
    from oracles.core.registry import load_game
    from oracles.testing import decision_positions

    choices = []
    for game_id, options in (("oracle", {"players": 4, "rounds": 1}), ("inrah", {"players": 4, "rounds": 2})):
        for state in decision_positions(load_game(game_id, **options), 4, seed=3):
            seat = state.current_player()
            fast = ISMCTSBot(seat, 5, iterations=40, horizon="game", prune=False)
            timed = ISMCTSBot(seat, 5, iterations=40, seconds=3600.0, horizon="game", prune=False)
            choice = fast.choose(SeatInfo(state, seat))
            assert timed.choose(SeatInfo(state, seat)) == choice
            assert fast.searched == timed.searched
            choices.append(choice)
    assert len(set(choices)) > 1


def _recording_policy(calls: list[int]) -> Policy:
    """A policy that plays at random and records the seat of every call."""

    def policy(world: State, seat: int, rng: random.Random) -> int:
        calls.append(seat)
        return rng.choice(world.legal_actions())

    return policy


def test_guided_rollouts_follow_the_policy_only_for_their_first_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``guided=K``: at most K policy moves a rollout, random play after;
    ``guided=0``: the policy plays the whole rollout (tens of moves)."""
    import oracles.bots.ismcts as ismcts
    from oracles.bots.base import SeatInfo
    from oracles.core.registry import load_game

    calls: list[int] = []
    monkeypatch.setattr(ismcts, "policy_for", lambda game_id: _recording_policy(calls))
    state = load_game("inrah", players=4, rounds=3).new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():  # the first bid: 36 moves to the end of the game
        state.apply_trusted(state.sample_chance(rng))
    seat = state.current_player()
    for guided, low, high in ((3, 30, 3 * 30), (0, 20 * 30, 36 * 30)):
        calls.clear()
        bot = ismcts.ISMCTSBot(
            seat, 1, iterations=30, rollout="heuristic", guided=guided, horizon="game", prune=False
        )
        bot.choose(SeatInfo(state, seat))
        assert bot.searched == [30]
        assert low <= len(calls) <= high, (guided, len(calls))


class _SteppingClock:
    """A clock that moves 10 µs at every reading: a search under a time
    budget runs the same way on any machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1e-5
        return self.now


def test_a_time_budget_stops_once_the_move_is_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``seconds`` the search stops when no other move can overtake
    the most visited one in the iterations the clock leaves: in some
    positions long before the budget is out, never after it."""
    import oracles.bots.ismcts as ismcts
    from oracles.bots.base import SeatInfo
    from oracles.core.registry import load_game
    from oracles.testing import decision_positions

    clock = _SteppingClock()
    monkeypatch.setattr(ismcts, "time", clock)
    used = []
    for state in decision_positions(load_game("inrah", players=3, rounds=2), 12, seed=2):
        if len(state.legal_actions()) < 2:
            continue
        clock.now = 0.0
        bot = ismcts.ISMCTSBot(state.current_player(), 1, seconds=0.1)
        assert bot.choose(SeatInfo(state, state.current_player())) in state.legal_actions()
        used.append(clock.now)
    assert used and max(used) <= 0.1 + 1e-3
    assert min(used) < 0.06, used


def test_seat_rewards_share_the_win_and_add_a_tenth_for_the_lead() -> None:
    class Finished:
        def scores(self) -> list[float]:
            return [10, 4, 10, 7]

        def winners(self) -> list[int]:
            return [0, 2]

    assert seat_rewards(Finished()) == pytest.approx([0.55, 0.0, 0.55, 0.05])  # type: ignore[arg-type]
