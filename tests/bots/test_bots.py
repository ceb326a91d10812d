"""Every bot over every game: they finish every option set in simulations and
tournaments, decide the same whatever the hidden cards, and ISMCTS keeps its
promises (seeded, early stop without changing the move, budgets, horizons)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracles.bots import heuristic
from oracles.bots.base import SeatInfo
from oracles.bots.hooks import evaluator_for
from oracles.bots.ismcts import ISMCTSBot
from oracles.bots.specs import make_bot
from oracles.core.errors import OptionError
from oracles.core.game import State
from oracles.core.registry import game_class, game_ids, game_parts, load_game
from oracles.simulate import run_games
from oracles.testing import decision_positions
from oracles.tournament import run_tournament

#: Small budgets: these tests check that bots work everywhere, not how well.
BOTS = [
    "random",
    "heuristic",
    "heuristic:noise=0.5",
    "ismcts:iterations=3",
    "ismcts:iterations=3:rollout=heuristic:horizon=game",
    "ismcts:iterations=3:horizon=round",
]

CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{i}")
    for game_id in game_ids()
    for i, options in enumerate(game_class(game_id).test_option_sets)
]


def decision_states(game_id: str, count: int, seed: int = 0) -> list[State]:
    """Positions where a seat has a real choice, from random games."""
    return decision_positions(load_game(game_id, **game_class(game_id).test_option_sets[0]), count, seed)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_bot_finishes_every_option_set_in_simulate(game_id: str, options: dict[str, Any]) -> None:
    for spec in BOTS:
        game = load_game(game_id, **options)
        lineup = [spec] + ["random"] * (game.num_players - 1)
        (result,) = run_games(game_id, options, lineup, 1, seed=7)
        assert result.decisions > 0
        assert len(result.scores) == game.num_players


@pytest.mark.parametrize("game_id", game_ids())
def test_every_bot_finishes_a_tournament(game_id: str) -> None:
    options = game_class(game_id).test_option_sets[-1]
    specs = ["random", "heuristic", "ismcts:iterations=3"]
    data = run_tournament(game_id, specs, deals=1, options=options, seed=3)
    seat_games = {row["bot"]: row["seat_games"] for row in data["bots"]}
    assert data["games"] == len(data["lineups"]) > 0
    assert sum(seat_games.values()) == data["games"] * load_game(game_id, **options).num_players
    assert all(row["think_max_s"] >= row["think_mean_s"] >= 0 for row in data["bots"])


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=8"])
def test_choice_is_blind_to_hidden_cards(game_id: str, spec: str) -> None:
    """The same seat information with other hidden cards gives the same move."""
    rng = random.Random(1)
    differing = 0
    states = decision_states(game_id, 12)
    for index, state in enumerate(states):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, rng)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        if any(
            other.information_state_string(s) != state.information_state_string(s)
            for s in range(state.game.num_players)
            if s != seat
        ):
            differing += 1
        first = make_bot(spec, seat, index).choose(SeatInfo(state, seat))
        second = make_bot(spec, seat, index).choose(SeatInfo(other, seat))
        assert first == second
    assert differing > len(states) // 2  # the hidden cards really were different


@pytest.mark.parametrize("game_id", game_ids())
def test_ismcts_is_seeded(game_id: str) -> None:
    for state in decision_states(game_id, 4, seed=2):
        seat = state.current_player()
        moves = {make_bot("ismcts:iterations=20", seat, "s").choose(SeatInfo(state, seat)) for _ in range(2)}
        assert len(moves) == 1


@pytest.mark.parametrize("game_id", game_ids())
def test_ismcts_stops_early_only_when_the_move_is_settled(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = decision_states(game_id, 8, seed=3)
    early = []
    stopped = 0
    for state in states:
        seat = state.current_player()
        bot = make_bot("ismcts:iterations=200", seat, 1)
        early.append(bot.choose(SeatInfo(state, seat)))
        assert isinstance(bot, ISMCTSBot)
        assert 0 < bot.searched[-1] <= 200
        stopped += bot.searched[-1] < 200
    monkeypatch.setattr(ISMCTSBot, "_settled", staticmethod(lambda tree, remaining: False))
    full = []
    for state in states:
        seat = state.current_player()
        bot = make_bot("ismcts:iterations=200", seat, 1)
        full.append(bot.choose(SeatInfo(state, seat)))
        assert isinstance(bot, ISMCTSBot)
        assert bot.searched[-1] == 200
    assert early == full
    assert stopped > 0  # the early stop did save iterations somewhere


def test_ismcts_takes_the_game_s_exploration_unless_its_spec_names_one() -> None:
    """Oracle's search explores at 1.2 (its ``exploration`` part), written
    out or not; a spec's ``c`` wins; a game without one keeps 0.7."""
    states = decision_states("oracle", 6, seed=4)
    implied, spelled, tight = [], [], []
    for state in states:
        seat = state.current_player()
        for spec, out in (("", implied), (":c=1.2", spelled), (":c=0.7", tight)):
            bot = make_bot(f"ismcts:iterations=150{spec}", seat, 1)
            assert isinstance(bot, ISMCTSBot)
            move = bot.choose(SeatInfo(state, seat))
            out.append((move, bot.searched[-1], bot._hooks[4]))
    assert implied == spelled
    assert {c for *_, c in implied} == {1.2} and {c for *_, c in tight} == {0.7}
    # The constant is used, not only stored: the searches differ.
    assert [(m, n) for m, n, _ in tight] != [(m, n) for m, n, _ in implied]
    inrah = decision_states("inrah", 1, seed=4)[0]
    bot = make_bot("ismcts:iterations=20", inrah.current_player(), 1)
    assert isinstance(bot, ISMCTSBot)
    bot.choose(SeatInfo(inrah, inrah.current_player()))
    assert bot._hooks[4] == 0.7


def test_ismcts_time_budget_caps_an_iteration_budget() -> None:
    state = decision_states("oracle", 1)[0]
    seat = state.current_player()
    bot = make_bot("ismcts:iterations=1000000:seconds=0.05", seat)
    bot.choose(SeatInfo(state, seat))
    assert isinstance(bot, ISMCTSBot)
    assert 0 < bot.searched[-1] < 1000000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:horizon=forever", "'horizon' must be auto, round, turn or game"),
        ("ismcts:iterations=-1", "must not be negative"),
        ("ismcts:turns=-2", "'turns' must not be negative"),
        ("ismcts:rollout=smart", "'rollout' must be auto, random or heuristic"),
        ("ismcts:depth=3", "has no parameter 'depth'"),
        ("heuristic:noise=1.5", "'noise' must be a number from 0 to 1"),
        ("heuristic:noise=-0.1", "'noise' must not be negative"),
        ("heuristic:depth=2", "has no parameter 'depth'"),
    ],
)
def test_bots_refuse_bad_parameters(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_bot(spec, 0)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_careless_heuristic_blunders_at_its_rate_and_a_careful_one_is_unchanged(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = decision_states(game_id, 40)
    plain, careful = make_bot("heuristic", 0, 7), make_bot("heuristic:noise=0", 0, 7)
    # noise=0 draws nothing extra: the same choices as the plain bot, seed for seed.
    for state in states:
        plain.seat = careful.seat = state.current_player()
        info = SeatInfo(state, state.current_player())
        assert plain.choose(info) == careful.choose(info)

    # noise=1: every choice a random legal move; the policy is never asked.
    def no_policy(game: str) -> Any:
        raise AssertionError("the policy was asked")

    monkeypatch.setattr(heuristic, "policy_for", no_policy)
    careless = make_bot("heuristic:noise=1", 0, 7)
    for state in states:
        careless.seat = state.current_player()
        assert careless.choose(SeatInfo(state, state.current_player())) in state.legal_actions()
    half = make_bot("heuristic:noise=0.5", 0, 7)
    with pytest.raises(AssertionError, match="the policy was asked"):
        for state in states:
            half.seat = state.current_player()
            half.choose(SeatInfo(state, state.current_player()))


@pytest.mark.parametrize("game_id", [g for g in game_ids() if game_parts(g).evaluator])
def test_evaluators_give_chances_that_sum_to_one(game_id: str) -> None:
    evaluator = evaluator_for(game_id)
    assert evaluator is not None
    for state in decision_states(game_id, 20, seed=4):
        chances = evaluator.win_chances(state)
        assert len(chances) == state.game.num_players
        assert all(0 <= p <= 1 for p in chances)
        assert sum(chances) == pytest.approx(1)
        assert evaluator.turn(state) >= 0
