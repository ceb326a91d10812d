"""What Oracle offers a search: the keeps worth searching at the root."""

from __future__ import annotations

import random

from oracle_scenarios import start

from oracles.bots.base import SeatInfo
from oracles.bots.hooks import root_candidates_for
from oracles.bots.ismcts import ISMCTSBot
from oracles.games.oracle.notation import KEEP_BASE, PAIR_INDEX
from oracles.games.oracle.policy import choose, pair_values
from oracles.games.oracle.rules import KEEP, PLAY, OracleState
from oracles.games.oracle.search import KEEPS_SEARCHED, keeps_rng, root_candidates

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
