"""The Oracle heuristic policy: legal, blind to hidden cards, stronger than
random, and sensible in hand-made positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracles.bots.hooks import policy_for
from oracles.core.registry import load_game
from oracles.games.oracle.cards import parse_card
from oracles.games.oracle.policy import choose, pair_values
from oracles.games.oracle.prophecies import oracle_index
from oracles.games.oracle.rules import KEEP, LOSER, PLAY, OracleState
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
def mask(*cards: str) -> int:
    result = 0
    for card in cards:
        result |= 1 << parse_card(card)
    return result


def last_to_play(players: int = 3) -> OracleState:
    """A position in the first trick where the seat to act plays last."""
    rng = random.Random(2)
    state = new_state(players=players, rounds=1)
    while not (state.phase == PLAY and len(state.trick) == players - 1):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(choose(state, state.current_player(), rng))
    return state


def arrange(
    state: OracleState,
    trick: list[str],
    hand: list[str],
    kept: tuple[str, str],
    held: tuple[int, int, int] = (0, 0, 0),
    middle: tuple[int, int, int] | None = None,
    loser_holder: tuple[int, int, int] = (-1, -1, -1),
) -> int:
    """Lay out a hand-made position for the seat to act (a test fixture:
    the policy reads these fields directly)."""
    seat = state.current_player()
    n = state.num_players
    leader = (seat - len(trick)) % n
    state.leader = leader
    state.trick = [parse_card(card) for card in trick]
    others = [s for s in range(n) if s != seat]
    pool = [c for c in state.game.cards_in_play if not (mask(*hand, *trick) >> c & 1)]
    size = len(hand)
    for i, other in enumerate(others):
        count = size - 1 if (other - leader) % n < len(trick) else size
        state.hands[other] = sum(1 << c for c in pool[i * size : i * size + count])
    state.hands[seat] = mask(*hand)
    state.kept[seat] = (oracle_index(kept[0]), oracle_index(kept[1]))
    state.held[seat * 3 : seat * 3 + 3] = list(held)
    if middle is not None:
        state.middle = list(middle)
    state.loser_holder = list(loser_holder)
    return seat


def decide(state: OracleState) -> str:
    seat = state.current_player()
    return state.action_to_string(choose(state, seat, random.Random(0)))


def test_last_to_play_avoids_the_loser_chip_it_cannot_return() -> None:
    state = last_to_play()
    seat = arrange(
        state,
        trick=["R5", "R7"],
        hand=["R12", "R3", "B4", "G6", "Y9", "Y2"],
        kept=("O38", "O17"),
        held=(0, 0, 2),
        middle=(3, 4, 0),
    )
    assert state.loser_holder[2] == -1 and state.hands[seat] >> parse_card("R12") & 1
    assert decide(state) == "play R3"


def test_last_to_play_takes_the_chip_its_prophecy_wants() -> None:
    state = last_to_play()
    arrange(state, trick=["B5", "B7"], hand=["B9", "B2", "R3", "G4", "Y2", "Y3"], kept=("O02", "O38"))
    assert decide(state) == "play B9"  # exactly one Pegasus chip: take one


def test_last_to_play_ducks_when_its_prophecy_has_enough() -> None:
    state = last_to_play()
    arrange(
        state,
        trick=["B5", "B7"],
        hand=["B9", "B2", "R3", "G4", "Y2", "Y3"],
        kept=("O02", "O38"),
        held=(0, 1, 0),
        middle=(3, 3, 6),
    )
    assert decide(state) == "play B2"  # one Pegasus chip already: a second spoils it


def test_returns_a_loser_chip_that_would_cost_its_chips() -> None:
    state = last_to_play()
    seat = arrange(
        state,
        trick=["G6", "G5"],
        hand=["G8", "R2", "R3", "B2", "B3", "Y2"],
        kept=("O38", "O05"),
        held=(0, 2, 0),
        middle=(3, 0, 6),
        loser_holder=(-1, -1, -1),
    )
    state.loser_holder[1] = seat
    state.apply_string("play G8")  # wins Pegasus again while holding its Loser chip
    assert state.phase == LOSER and state.current_player() == seat
    assert decide(state) == "loser return"


def test_keeps_a_loser_chip_a_prophecy_pays_for() -> None:
    state = last_to_play()
    seat = arrange(
        state,
        trick=["G6", "G5"],
        hand=["G8", "R2", "R3", "B2", "B3", "Y2"],
        kept=("O21", "O10"),
        held=(0, 0, 0),
        middle=(3, 0, 6),
    )
    state.loser_holder[1] = seat
    state.apply_string("play G8")
    assert state.phase == LOSER
    assert decide(state) == "loser keep"


def at_keep(players: int, hand: list[str], dealt: list[str]) -> tuple[OracleState, int]:
    rng = random.Random(4)
    state = new_state(players=players, rounds=1)
    while state.phase != KEEP:
        state.apply_action(state.sample_chance(rng))
    seat = state.current_player()
    state.hands[seat] = mask(*hand)
    state.oracle_cards[seat] = sorted(oracle_index(card) for card in dealt)
    return state, seat


def test_keeps_no_phoenix_with_a_hand_without_phoenix_cards() -> None:
    hand = ["R1", "R2", "R3", "R6", "B2", "B4", "B7", "G3", "G5", "G8", "Y1", "Y4", "Y6", "P2", "P9"]
    dealt = ["O01", "O04", "O07", "O09", "O16", "O20", "O28", "O35", "O36", "O19"]
    state, seat = at_keep(4, hand, dealt)
    kept = decide(state).split()[1:]
    assert "O09" in kept, kept
    values = pair_values(state, seat, state.oracle_cards[seat])
    best_with_phoenix = max(v for (a, b), v in values.items() if 8 not in (a, b))
    assert max(values.values()) > best_with_phoenix


def test_keeps_what_a_hand_of_phoenix_and_hydra_cards_makes_true() -> None:
    hand = ["R12", "R11", "R10", "B12", "B11", "G12", "G10", "Y11", "R2", "B3", "G4", "Y2", "P3", "P4", "P5"]
    dealt = ["O09", "O13", "O23", "O34", "O10", "O11", "O17", "O24", "O36", "O03"]
    state, _ = at_keep(4, hand, dealt)
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
