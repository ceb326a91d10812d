"""The OpenSpiel adapter: pyspiel's own random simulation test, its ISMCTS and
MCTS bots playing whole games, game facts, and tensors that do not leak."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
import numpy as np  # noqa: E402  (the frameworks depend on numpy)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import oracles  # noqa: E402
from oracles.research import openspiel  # noqa: E402

OPTION_SETS = [
    ("oracle", {"players": 3, "rounds": 1}),
    ("oracle", {"players": 4, "draft": True, "rounds": 1}),
    ("oracle", {"players": 5, "rounds": 1}),
    ("inrah", {"players": 4, "rounds": 3}),
    ("inrah", {"players": 5, "variant": "altaia", "rounds": 2}),
    ("inrah", {"players": 4, "variant": "purpurberg", "rounds": 2, "trump": False}),
    ("codename", {"max_turns": 20}),
    ("codename", {"max_turns": 40, "max_reveals": 3}),
]
SMALL = {
    "oracle": {"players": 3, "rounds": 1},
    "inrah": {"players": 3, "rounds": 2},
    "codename": {"max_turns": 10},
}


def load(game_id: str, options: dict) -> object:
    return pyspiel.load_game(openspiel.short_name(game_id), options)


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS, ids=lambda x: str(x))
def test_random_sim_test(game_id: str, options: dict) -> None:
    pyspiel.random_sim_test(load(game_id, options), num_sims=2, serialize=True, verbose=False)


def test_registered_on_import() -> None:
    names = set(pyspiel.registered_names())
    assert {"python_oracles_oracle", "python_oracles_inrah", "python_oracles_codename"} <= names


def test_game_type_and_info() -> None:
    game = pyspiel.load_game("python_oracles_oracle")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_tensor and kind.provides_observation_tensor
    assert game.num_players() == 4
    assert game.get_parameters()["rounds"] == 4  # the dependent default, resolved
    core = oracles.load_game("oracle")
    assert game.num_distinct_actions() == core.num_distinct_actions()
    # The length counts every card of the deal and every Oracle card as a step.
    assert game.max_game_length() == core.max_game_length() + 4 * (60 - 1 + 40 - 1)
    three = pyspiel.load_game("python_oracles_oracle", {"players": 3})
    assert three.get_parameters()["rounds"] == 3
    inrah = pyspiel.load_game("python_oracles_inrah", {"players": 6})
    assert inrah.get_parameters()["elements"] == 5 and inrah.get_parameters()["rounds"] == 10  # SPEC 4
    codename = pyspiel.load_game("python_oracles_codename")
    assert codename.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (codename.min_utility(), codename.max_utility()) == (-1.0, 1.0)


def test_deal_is_drawn_step_by_step() -> None:
    game = pyspiel.load_game("python_oracles_oracle", {"players": 3, "rounds": 1})
    state = game.new_initial_state()
    state.apply_action(0)  # dealer 0
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    rng = np.random.RandomState(1)
    for _ in range(48):
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    assert state.core_state.view(0)["phase"] == "oracles"
    assert len(state.core_state.view(0)["hand"]) == 16


def play(game: object, bots: list, rng: np.random.RandomState) -> object:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_openspiel_ismcts_plays_whole_games(game_id: str) -> None:
    game = load(game_id, SMALL[game_id])
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = play(game, bots, rng)
    assert state.is_terminal()
    assert state.returns() == state.core_state.scores()


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_openspiel_mcts_plays_whole_games(game_id: str) -> None:
    game = load(game_id, SMALL[game_id])
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = play(game, bots, rng)
    assert state.is_terminal()


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS, ids=lambda x: str(x))
def test_tensors_do_not_leak(game_id: str, options: dict) -> None:
    """A seat's tensors and strings are the same in every world it cannot
    tell from the true one, and resampling does change hidden cards."""
    game = load(game_id, options)
    rng = np.random.RandomState(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    checked = 0
    step = 0
    changed = False
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        step += 1
        if step % 5 == 1:
            checked += 1
            for seat in range(game.num_players()):
                world = state.resample_from_infostate(seat, sampler)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.observation_string(seat) == state.observation_string(seat)
                np.testing.assert_array_equal(
                    world.information_state_tensor(seat), state.information_state_tensor(seat)
                )
                np.testing.assert_array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
                assert world.current_player() == state.current_player()
                changed |= world.history() != state.history()
                assert world.legal_actions() == state.legal_actions() or seat != state.current_player()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked and changed


def test_observer_pieces_are_named() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_oracles_inrah", {"players": 3, "rounds": 2})
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observation.set_from(state, 0)
    assert observation.dict["hand"].sum() == 1
    assert observation.tensor.shape == (game.information_state_tensor_size(),)


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_openspiel_ismcts_bot_plays_whole_games_from_a_spec(game_id: str) -> None:
    """The head-to-head baseline of benchmarks/strength.py: named by a spec,
    seeded, it plays legal moves to the end against our search."""
    from oracles.tournament import run_tournament

    players = SMALL[game_id].get("players", 2)
    specs = ["openspiel_ismcts:simulations=3:c=1.5", *["ismcts:iterations=5"] * (players - 1)]
    data = run_tournament(game_id, specs, 1, options=SMALL[game_id], seed=3)
    assert data["games"] == players
    hero = next(r for r in data["bots"] if r["bot"] == specs[0])
    assert hero["seat_games"] == players


def test_openspiel_ismcts_replays_a_seeded_game_exactly() -> None:
    """Regression (session 22): OpenSpiel resampled its worlds with a
    clock-seeded sampler, so a deal replayed with the same seeds gave another
    game and duplicate-deal benchmarks could not be reproduced."""
    from oracles.core.registry import load_game
    from oracles.simulate import play_game

    game = load_game("oracle", players=3, rounds=1)
    lineup = ["openspiel_ismcts:simulations=8", "heuristic", "heuristic"]
    first, _ = play_game(game, lineup, "replay:1", chance_seed="deal:1")
    second, _ = play_game(game, lineup, "replay:1", chance_seed="deal:1")
    assert first.history() == second.history()


def test_openspiel_ismcts_spec_errors_name_the_parameter() -> None:
    from oracles.bots.specs import make_bot
    from oracles.core.errors import OptionError

    with pytest.raises(OptionError, match="'simulations' must be an integer from 1"):
        make_bot("openspiel_ismcts:simulations=0", 0)
    with pytest.raises(OptionError, match="has no parameter 'depth'"):
        make_bot("openspiel_ismcts:depth=3", 0)


@pytest.mark.parametrize("game_id", ["oracle", "inrah", "codename"])
def test_a_game_pickles_and_plays_on(game_id: str) -> None:
    """Games pass between processes (multiprocessing, Ray) by pickle: the
    made-up classes could not be found, and pyspiel's own pickling skipped
    the game's core."""
    import pickle

    game = pyspiel.load_game(openspiel.short_name(game_id))
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_players() == game.num_players()
    pyspiel.random_sim_test(again, num_sims=1, serialize=False, verbose=False)


def test_a_deal_under_way_is_drawn_afresh_in_a_resampled_world() -> None:
    """Mid-deal, the cards drawn so far belong to no seat's knowledge: a
    world drew them afresh (they were copied: the other seats' true cards,
    and in Codename a card that world might not hold, a ValueError)."""
    rng = np.random.RandomState(0)
    state = pyspiel.load_game(openspiel.short_name("inrah"), {"players": 3, "rounds": 3}).new_initial_state()
    while not (state.is_chance_node() and state.pending_draws() == 3):
        if state.is_chance_node():
            actions, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=odds)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(2, sampler) for _ in range(20)]
    assert all(w.information_state_string(2) == state.information_state_string(2) for w in worlds)
    assert len({tuple(w._core.drawn) for w in worlds}) > 10
    codename = pyspiel.load_game(openspiel.short_name("codename")).new_initial_state()
    rng = np.random.RandomState(3)
    resampled = 0
    while not codename.is_terminal() and resampled < 200:
        if codename.is_chance_node():
            if codename.pending_draws() > 0:
                for seat in (0, 1):
                    codename.resample_from_infostate(seat, sampler)
                    resampled += 1
            actions, odds = zip(*codename.chance_outcomes(), strict=True)
            codename.apply_action(int(rng.choice(actions, p=odds)))
        else:
            codename.apply_action(int(rng.choice(codename.legal_actions())))
    assert resampled >= 100


def test_options_past_openspiels_counts_are_an_option_error() -> None:
    """Codename at 50,000 turns lasts more steps than pyspiel counts in 32
    bits: a TypeError from pybind before, now the options named."""
    from oracles.core.errors import OptionError

    with pytest.raises(OptionError, match="more than OpenSpiel counts"):
        pyspiel.load_game(openspiel.short_name("codename"), {"max_turns": 50000})
