"""The Oracle heuristic policy: legal, blind to hidden cards, stronger than
random, and sensible in chosen positions reached by real actions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from oracle_scenarios import holds, play, start

from oracles.bots.hooks import policy_for
from oracles.core.registry import load_game
from oracles.games.oracle.policy import choose, pair_values
from oracles.games.oracle.prophecies import oracle_index
from oracles.games.oracle.rules import KEEP, LOSER, OracleState
from oracles.simulate import play_game

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 3, "rounds": 2},
    {"players": 4, "rounds": 2},
    {"players": 5, "rounds": 2},
    {"players": 4, "draft": True, "rounds": 1},
    {"players": 3, "draft": True, "rounds": 1, "removed_colour": "G"},
    {"players": 5, "draft": True, "rounds": 1},
]


def option_id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items())


def new_state(**options: Any) -> OracleState:
    state = load_game("oracle", **options).new_initial_state()
    assert isinstance(state, OracleState)
    return state


def decision_states(options: dict[str, Any], seed: int, count: int) -> list[OracleState]:
    """Seat-to-act states from games where the seats mostly play the policy
    (with some random moves so that odd positions come up too)."""
    rng = random.Random(seed)
    found: list[OracleState] = []
    while len(found) < count:
        state = new_state(**options)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if (
                rng.random() < 0.25
                or state.phase in (KEEP, LOSER)
                or (state.game.draft and rng.random() < 0.5)
            ):
                found.append(state.clone())
            seat = state.current_player()
            if rng.random() < 0.3:
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(choose(state, seat, rng))
    return found


# ------------------------------------------------------------- legality
def test_registered_as_the_oracle_policy() -> None:
    assert policy_for("oracle") is choose


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_only_legal_actions_on_resampled_worlds(options: dict[str, Any]) -> None:
    rng = random.Random(11)
    for state in decision_states(options, seed=len(option_id(options)), count=80):
        seat = state.current_player()
        legal = state.legal_actions()
        assert choose(state, seat, rng) in legal
        world = state.resample_from_infostate(seat, rng)
        assert choose(world, seat, rng) in legal


def test_whole_games_with_heuristic_bots() -> None:
    for index, options in enumerate(OPTION_SETS):
        game = load_game("oracle", **{**options, "rounds": 1})
        state, decisions = play_game(game, ["heuristic"] * game.num_players, seed=index)
        assert state.is_terminal() and decisions > 0


# ------------------------------------------------- reads only what it may
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_choice_does_not_depend_on_hidden_cards(options: dict[str, Any]) -> None:
    rng = random.Random(5)
    differing = 0
    for index, state in enumerate(decision_states(options, seed=100 + len(option_id(options)), count=60)):
        seat = state.current_player()
        first = state.resample_from_infostate(seat, rng)
        second = state.resample_from_infostate(seat, rng)
        assert first.view(seat) == second.view(seat)
        others = [s for s in range(state.num_players) if s != seat]
        if any(
            first.hands[s] != second.hands[s] or first.oracle_cards[s] != second.oracle_cards[s]
            for s in others
        ):
            differing += 1
        assert choose(first, seat, random.Random(index)) == choose(second, seat, random.Random(index))
    assert differing > 20  # the worlds really did differ in the hidden cards


# ------------------------------------------------------------ strength
def test_beats_random_clearly() -> None:
    game = load_game("oracle", players=4, rounds=2)
    wins = 0.0
    margin = 0.0
    games = 40
    for index in range(games):
        seat = index % 4
        specs = ["random"] * 4
        specs[seat] = "heuristic"
        state, _ = play_game(game, specs, seed=f"strength:{index}")
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
        scores = state.scores()
        margin += scores[seat] - sum(scores[s] for s in range(4) if s != seat) / 3
    assert wins / games >= 0.4  # an even share is 0.25
    assert margin / games >= 5


# ------------------------------------------------------------ scenarios
# Positions come from real games (oracle_scenarios): three players, seat 2
# deals, so seat 0 leads the first trick and seat 2 plays last in it.
def decide(state: OracleState) -> str:
    seat = state.current_player()
    return state.action_to_string(choose(state, seat, random.Random(0)))


def test_last_to_play_avoids_the_loser_chip_it_cannot_return() -> None:
    # Six Phoenix tricks empty the middle of Phoenix chips, two of them won by
    # seat 2; its R12 would now take the Phoenix Loser chip and cost both.
    state = start(
        hands={
            0: ["G12", "Y12", "B2", "Y4", "G11", "B11", "R5"],
            1: ["G2", "Y5", "B3", "Y6", "G5", "B4", "R7"],
            2: [
                "G3",
                "Y3",
                "B12",
                "Y11",
                "G4",
                "B5",
                "R12",
                "R3",
                "B6",
                "G6",
                "Y9",
                "Y2",
                "B7",
                "G7",
                "Y7",
                "B8",
            ],
        },
        keeps={2: ("O38", "O17")},
        oracles={2: ["O38", "O17"]},
    )
    play(state, "G12", "G2", "G3", "Y12", "Y5", "Y3", "B2", "B3", "B12")
    play(state, "Y11", "Y4", "Y6", "G4", "G11", "G5", "B11", "B4", "B5", "R5", "R7")
    assert state.current_player() == 2 and state.held[6:9] == (0, 0, 2) and state.middle == (3, 4, 0)
    assert state.loser_holder[2] == -1 and holds(state, 2, "R12")
    assert decide(state) == "play R3"


#: Seat 2's hand in the Pegasus scenarios: B9 and B2 in blue, else low cards
#: and G8 (its only Pegasus card besides B9).
PEGASUS_HAND = [
    "B9",
    "B2",
    "G8",
    "Y2",
    "R2",
    "R3",
    "R4",
    "G2",
    "G3",
    "G4",
    "Y5",
    "Y1",
    "R5",
    "G5",
    "R1",
    "G1",
]


def pegasus_trick(*earlier: str) -> OracleState:
    """Seat 0 leads B5, seat 1 follows B7; seat 2, keeping O02 (exactly one
    Pegasus chip) and O38, holds B9 and B2 in blue."""
    state = start(
        hands={0: ["B5", "G6", "Y4"], 1: ["B7", "G7", "Y3"], 2: PEGASUS_HAND},
        oracles={2: ["O02", "O38"]},
        keeps={2: ("O02", "O38")},
    )
    play(state, *earlier)
    return state


def test_last_to_play_takes_the_chip_its_prophecy_wants() -> None:
    state = pegasus_trick("B5", "B7")
    assert state.held[6:9] == (0, 0, 0)
    assert decide(state) == "play B9"  # exactly one Pegasus chip: take one


def test_last_to_play_ducks_when_its_prophecy_has_enough() -> None:
    # Seat 2 wins a Pegasus chip with G8, then seat 0 a Hydra chip with Y4.
    state = pegasus_trick("G6", "G7", "G8", "Y2", "Y4", "Y3", "B5", "B7")
    assert state.current_player() == 2 and state.held[6:9] == (0, 1, 0)
    assert decide(state) == "play B2"  # one Pegasus chip already: a second spoils it


#: Seat 2's other cards in the Loser scenarios: low, and no green one.
LOSER_REST = ["R1", "R2", "R5", "B5", "B6", "Y1", "Y2", "Y7", "R6"]
#: The end of both Loser scenarios: seat 2 holds the Pegasus Loser chip, R4
#: loses to seat 0's R10, seat 0 leads G6, seat 1 follows G5 and seat 2 must
#: win with G8, its only green card.
LOSER_END = ("R4", "R10", "R3", "G6", "G5", "G8")


def test_returns_a_loser_chip_that_would_cost_its_chips() -> None:
    # Seat 2 keeps O05 (exactly two Pegasus chips) and wins two, then the
    # Pegasus Loser chip with Y8 once the middle has no Pegasus chip left.
    state = start(
        hands={
            0: ["G9", "Y9", "B1", "B2", "Y5", "R10", "G6"],
            1: ["G2", "Y3", "B3", "B4", "Y6", "R3", "G5"],
            2: ["G3", "Y4", "B9", "B8", "Y8", "R4", "G8", *LOSER_REST],
        },
        oracles={2: ["O38", "O05"]},
        keeps={2: ("O38", "O05")},
    )
    play(state, "G9", "G2", "G3", "Y9", "Y3", "Y4", "B1", "B3", "B9", "B8", "B2", "B4", "Y8", "Y5", "Y6")
    play(state, *LOSER_END)  # wins Pegasus again while holding its Loser chip
    assert state.phase == LOSER and state.current_player() == 2
    assert state.held[6:9] == (0, 2, 0) and state.middle == (3, 0, 5) and state.loser_holder[1] == 2
    assert decide(state) == "loser return"


def test_keeps_a_loser_chip_a_prophecy_pays_for() -> None:
    # Seats 0 and 1 win the four Pegasus chips; seat 2, keeping O21 (the
    # Pegasus Loser chip) and O10 (no Pegasus chip), takes the Loser chip with Y8.
    state = start(
        hands={
            0: ["G9", "Y9", "B1", "B2", "Y6", "R10", "G6"],
            1: ["G2", "Y3", "B9", "B8", "Y5", "R3", "G5"],
            2: ["G3", "Y4", "B3", "B4", "Y8", "R4", "G8", *LOSER_REST],
        },
        oracles={2: ["O21", "O10"]},
        keeps={2: ("O21", "O10")},
    )
    play(state, "G9", "G2", "G3", "Y9", "Y3", "Y4", "B1", "B9", "B3", "B8", "B4", "B2", "Y5", "Y8", "Y6")
    play(state, *LOSER_END)
    assert state.phase == LOSER and state.current_player() == 2
    assert state.held[6:9] == (0, 0, 0) and state.middle == (3, 0, 5) and state.loser_holder[1] == 2
    assert decide(state) == "loser keep"


def at_keep(hand: list[str], dealt: list[str]) -> tuple[OracleState, int]:
    """Four players, seat 3 deals: seat 0 keeps first, with ``hand`` and ``dealt``."""
    state = start(players=4, dealer=3, hands={0: hand}, oracles={0: dealt}, keep=False)
    assert state.phase == KEEP and state.current_player() == 0
    return state, 0


def test_keeps_no_phoenix_with_a_hand_without_phoenix_cards() -> None:
    hand = ["R1", "R2", "R3", "R6", "B2", "B4", "B7", "G3", "G5", "G8", "Y1", "Y4", "Y6", "P2", "P9"]
    dealt = ["O01", "O04", "O07", "O09", "O16", "O20", "O28", "O35", "O36", "O19"]
    state, seat = at_keep(hand, dealt)
    kept = decide(state).split()[1:]
    assert "O09" in kept, kept
    values = pair_values(state, seat, state.oracle_cards[seat])
    best_with_phoenix = max(v for (a, b), v in values.items() if oracle_index("O09") not in (a, b))
    assert max(values.values()) > best_with_phoenix


def test_keeps_what_a_hand_of_phoenix_and_hydra_cards_makes_true() -> None:
    hand = ["R12", "R11", "R10", "B12", "B11", "G12", "G10", "Y11", "R2", "B3", "G4", "Y2", "P3", "P4", "P5"]
    dealt = ["O09", "O13", "O23", "O34", "O10", "O11", "O17", "O24", "O36", "O03"]
    state, _ = at_keep(hand, dealt)
    kept = decide(state).split()[1:]
    for hopeless in ("O09", "O13", "O23", "O34"):  # no Phoenix, more Hydra, no chips, fewest chips
        assert hopeless not in kept, kept
    assert "O10" in kept  # no Pegasus card in hand: no Pegasus chip


def test_win_check_agrees_with_the_rules() -> None:
    from oracles.games.oracle.cards import trick_winner
    from oracles.games.oracle.policy import _wins

    rng = random.Random(9)
    for _ in range(3000):
        cards = rng.sample(range(60), rng.randint(2, 5))
        trick, card = cards[:-1], cards[-1]
        expected = trick_winner(cards)[0] == len(trick)
        assert _wins(trick, [c % 12 for c in trick], card) == expected, cards
