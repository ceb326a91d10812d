"""What Oracle offers a search: the keeps worth searching at the root, and
the searching seat's plan in its rollouts."""

from __future__ import annotations

import random

from oracle_scenarios import play, start

from oracles.bots.base import SeatInfo
from oracles.bots.hooks import random_policy, root_candidates_for, steering_for
from oracles.bots.ismcts import ISMCTSBot
from oracles.core.registry import load_game
from oracles.games.oracle.notation import KEEP_BASE, PAIR_INDEX
from oracles.games.oracle.playout import STYLES
from oracles.games.oracle.policy import choose, pair_values, pair_worth
from oracles.games.oracle.rules import KEEP, PLAY, OracleState
from oracles.games.oracle.search import KEEPS_SEARCHED, SteeredRollout, keeps_rng, root_candidates, steering

HAND = ["R12", "R11", "R10", "B12", "B11", "G12", "G10", "Y11", "R2", "B3", "G4", "Y2", "P3", "P4", "P5"]
DEALT = ["O09", "O13", "O23", "O34", "O10", "O11", "O17", "O24", "O36", "O03"]


def at_keep() -> OracleState:
    state = start(players=4, dealer=3, hands={0: HAND}, oracles={0: DEALT}, keep=False)
    assert state.phase == KEEP and state.current_player() == 0
    return state


def test_declared_as_the_oracle_root_candidates() -> None:
    assert root_candidates_for("oracle") is root_candidates


def test_the_best_keeps_by_the_policys_values_best_first() -> None:
    state = at_keep()
    found = root_candidates(state, 0)
    assert len(found) == KEEPS_SEARCHED
    assert set(found) <= set(state.legal_actions())
    cards = tuple(state.oracle_cards[0])
    values = pair_values(state, 0, cards, keeps_rng(0, state.hands[0], cards))
    by_action = {KEEP_BASE + PAIR_INDEX[a][b]: v for (a, b), v in values.items()}
    listed = [by_action[a] for a in found]
    assert listed == sorted(listed, reverse=True)
    assert min(listed) >= max(v for a, v in by_action.items() if a not in found)
    # The policy, valuing with other play-outs, keeps one of them.
    assert choose(state, 0, random.Random(1)) in found


def test_the_same_list_in_every_world_the_seat_may_imagine() -> None:
    state = at_keep()
    info = SeatInfo(state, 0)
    rng = random.Random(4)
    lists = {tuple(root_candidates(info.sample_world(rng), 0)) for _ in range(6)}
    assert len(lists) == 1


def test_every_legal_move_away_from_a_keep() -> None:
    state = at_keep()
    while state.phase == KEEP:
        state.apply_action(root_candidates(state, state.current_player())[0])
    assert state.phase == PLAY
    assert root_candidates(state, state.current_player()) == state.legal_actions()


def test_the_search_decides_among_the_listed_keeps_only() -> None:
    state = at_keep()
    bot = ISMCTSBot(0, 1, iterations=60)
    action = bot.choose(SeatInfo(state, 0))
    assert action in root_candidates(state, 0)
    unpruned = ISMCTSBot(0, 1, iterations=60, prune=False)
    unpruned.choose(SeatInfo(state, 0))
    assert unpruned.searched == [60]  # 45 keeps: no early stop in 60 iterations


# ---------------------------------------------------------------- steering
def test_declared_as_the_oracle_steering() -> None:
    assert steering_for("oracle") is steering


def test_at_the_keep_each_pair_brings_its_best_style() -> None:
    state = at_keep()
    rollout = steering(state, 0)
    assert rollout is not None and rollout.style is None and rollout.styles is not None
    cards = tuple(state.oracle_cards[0])
    worth = pair_worth(state, 0, cards, keeps_rng(0, state.hands[0], cards))
    for (a, b), (_, style) in worth.items():
        assert rollout.styles[a, b] == rollout.styles[b, a] == style
    # Every world the seat may imagine gives the same styles.
    info = SeatInfo(state, 0)
    rng = random.Random(5)
    assert all(steering(info.sample_world(rng), 0).styles == rollout.styles for _ in range(4))  # type: ignore[union-attr]


def test_in_the_play_the_style_the_kept_pair_was_chosen_with() -> None:
    state = start(players=4, dealer=0, hands={0: HAND}, oracles={0: DEALT})
    kept = state.kept[0]
    assert kept is not None
    at_its_keep = start(players=4, dealer=0, hands={0: HAND}, oracles={0: DEALT}, keep=False)
    while at_its_keep.current_player() != 0:
        at_its_keep.apply_action(at_its_keep.legal_actions()[0])
    chosen = steering(at_its_keep, 0).styles[kept]  # type: ignore[union-attr]
    play(state, "R9", "G1", "P1")  # seat 1 led: seat 0 plays last
    rollout = steering(state, 0)
    assert rollout is not None and rollout.styles is None and rollout.style == chosen
    info = SeatInfo(state, 0)
    rng = random.Random(6)
    styles = {steering(info.sample_world(rng), 0).style for _ in range(4)}  # type: ignore[union-attr]
    assert styles == {chosen}


def test_a_steered_seat_plays_its_style_and_the_others_at_random() -> None:
    state = start(players=4, dealer=0, hands={0: HAND}, oracles={0: DEALT})
    play(state, "R9", "G1", "P1")
    rng = random.Random(7)
    win, lose = SteeredRollout(0, "win"), SteeredRollout(0, "lose")
    # Its highest winner: R11, as the P1 on the table would catch an R12.
    assert state.action_to_string(win(state, 0, rng)) == "play R11"
    # Its highest loser: the R12 itself, caught by the P1.
    assert state.action_to_string(lose(state, 0, rng)) == "play R12"
    other = start(players=4, dealer=0, hands={0: HAND}, oracles={0: DEALT})
    assert other.current_player() == 1
    picks = {win(other, 1, rng) for _ in range(60)}
    assert len(picks) > 3  # seat 1 is not steered


def test_in_the_draft_steering_starts_with_the_play() -> None:
    state = load_game("oracle", players=4, draft=True).new_initial_state()
    rng = random.Random(8)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    assert steering(state, state.current_player()) is None  # passing: no pair kept yet
    while state.phase != PLAY:
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    rollout = steering(state, state.current_player())
    assert rollout is not None and rollout.style in STYLES  # from the first trick's start


def test_the_default_search_rolls_out_with_the_steering() -> None:
    state = start(players=4, dealer=0, hands={0: HAND}, oracles={0: DEALT})
    play(state, "R9", "G1", "P1")
    bot = ISMCTSBot(0, 1, iterations=30)
    bot.choose(SeatInfo(state, 0))
    assert isinstance(bot._rollout_for("oracle")[0], SteeredRollout)
    plain = ISMCTSBot(0, 1, iterations=30, rollout="random")
    plain.choose(SeatInfo(state, 0))
    assert plain._rollout_for("oracle")[0] is random_policy
