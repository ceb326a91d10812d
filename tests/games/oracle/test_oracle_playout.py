"""The quick play-outs behind the heuristic keep rule: the rules they play
by, and hold chances that read only what the seat may know."""

from __future__ import annotations

import random

from oracle_scenarios import start

from oracles.core.registry import load_game
from oracles.games.oracle.cards import cards_of_mask, trick_winner
from oracles.games.oracle.notation import LOSER_RETURN
from oracles.games.oracle.phases import LOSER, PLAY
from oracles.games.oracle.playout import _winner, hold_chances, play_out
from oracles.games.oracle.policy import compile_edition
from oracles.games.oracle.prophecies import oracle_index
from oracles.games.oracle.rules import OracleState
from oracles.games.oracle.scoring import NOBODY

LOW = ["R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3", "Y1", "Y2", "Y3", "P2", "P3", "P4"]
HIGH = [
    "R12",
    "R11",
    "R10",
    "B12",
    "B11",
    "B10",
    "G12",
    "G11",
    "G10",
    "Y12",
    "Y11",
    "Y10",
    "P12",
    "P11",
    "P10",
]


def test_trick_winner_agrees_with_the_rules() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        trick = rng.sample(range(60), rng.randint(3, 5))
        assert _winner(trick) == trick_winner(trick)[0]


def test_a_play_out_hands_out_the_chips_as_the_rules_do() -> None:
    rng = random.Random(4)
    for game in range(40):
        cards = list(range(60))
        rng.shuffle(cards)
        hands = [cards[15 * seat : 15 * seat + 15] for seat in range(4)]
        style = ("win", "win_return", "lose", "random")[game % 4]
        finals = play_out(hands, game % 4, [3, 4, 6], [0] * 12, [NOBODY] * 3, 0, style, rng)
        for creature, total in enumerate((3, 4, 6)):
            assert sum(f[3 + creature] for f in finals) <= 1  # one Loser chip
            assert sum(f[creature] for f in finals) <= total
            for f in finals:
                assert not (f[3 + creature] and f[creature])  # forfeit applied
        for f in finals:
            assert f[7] == f[0] + f[1] + f[2] and f[8] == f[7] + f[6]
            assert f[9] == 5 * f[0] + 3 * f[1] + 2 * f[2]


def chance_of(card: str, hand: list[str]) -> float:
    state = start(players=4, dealer=3, hands={0: hand}, keep=False)
    test = compile_edition(state.game.edition)[oracle_index(card)][0]
    return hold_chances(state, 0, [test], random.Random(1), samples=40)[0]


def test_no_chip_at_all_is_likely_with_low_cards_and_hopeless_with_high_ones() -> None:
    assert chance_of("O23", LOW) > 0.2  # its 1s may still catch a 12
    assert chance_of("O23", HIGH) == 0.0
    assert chance_of("O35", HIGH) > 0.5  # more chips than every other player
    assert chance_of("O35", LOW) < 0.1


def test_hold_chances_do_not_depend_on_hidden_cards() -> None:
    state = start(players=4, dealer=3, hands={0: LOW[:8] + HIGH[:7]}, keep=False)
    tests = [test for test, _, _ in compile_edition(state.game.edition)]
    rng = random.Random(8)
    first = state.resample_from_infostate(0, rng)
    second = state.resample_from_infostate(0, rng)
    assert first.hands[1:] != second.hands[1:]
    assert hold_chances(first, 0, tests, random.Random(2)) == hold_chances(second, 0, tests, random.Random(2))


def test_a_play_out_from_inside_the_last_trick_ends_as_the_rules_do() -> None:
    """Started inside a trick (the position a search decides at), the
    play-out finishes that trick first; in the last trick every card is
    forced, so its chips must end exactly where the rules put them."""
    rng = random.Random(9)
    for game in range(60):
        state = load_game("oracle", players=4, rounds=1).new_initial_state()
        assert isinstance(state, OracleState)
        played_in_last = game % 4
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            elif state.phase == LOSER:
                state.apply_action(LOSER_RETURN)
            elif state.phase == PLAY and max(h.bit_count() for h in state.hands) == 1:
                if len(state.trick) == played_in_last:
                    break
                state.apply_action(state.legal_actions()[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        hands = [cards_of_mask(hand) for hand in state.hands]
        args = (list(state.middle), list(state.held), list(state.loser_holder))
        finals = play_out(hands, state.leader, *args, 0, "lose", rng, state.trick)
        while not state.is_terminal():
            state.apply_action(LOSER_RETURN if state.phase == LOSER else state.legal_actions()[0])
        assert [tuple(q) for q in state.chip_quantities()] == finals
