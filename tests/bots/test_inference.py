"""The search's inference about hidden cards: the weights read only what the
seat knows, are the models' chances of what the other seats did, and the
search draws its worlds from the weighed pool without letting a few of
them stand for all."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.bots.base import SeatInfo
from oracles.bots.hooks import inference_for
from oracles.bots.ismcts import ISMCTSBot, tempered
from oracles.bots.specs import make_bot
from oracles.core.game import State
from oracles.core.registry import load_game
from oracles.games.inrah import inference as inrah_inference
from oracles.games.inrah.cards import RANK_OF, SEER
from oracles.games.inrah.constants import BID
from oracles.games.inrah.inference import bid_log_chances
from oracles.games.inrah.policy import choose as inrah_choose
from oracles.games.oracle.inference import NUM_FEATURES, feature_names, play_model, play_rows
from oracles.testing import decision_positions

GAMES = {"oracle": {"players": 4, "rounds": 1}, "inrah": {"players": 4, "rounds": 5}}


def weighed_positions(game_id: str, count: int, seed: int = 0) -> list[State]:
    """Decision positions where the game's inference has something to weigh."""
    inference = inference_for(game_id)
    assert inference is not None
    found = []
    for state in decision_positions(load_game(game_id, **GAMES[game_id]), 6 * count, seed, keep=0.2):
        if inference(state, state.current_player()) is not None:
            found.append(state)
    assert len(found) >= count
    return found[:count]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_weights_read_only_what_the_seat_knows(game_id: str) -> None:
    """Two truths the seat cannot tell apart weigh every world alike."""
    inference = inference_for(game_id)
    assert inference is not None
    rng = random.Random(3)
    for state in weighed_positions(game_id, 6):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, rng)
        first, second = inference(state, seat), inference(other, seat)
        assert first is not None and second is not None
        worlds = [state.resample_from_infostate(seat, rng) for _ in range(20)]
        assert [first(world) for world in worlds] == [second(world) for world in worlds]
        # And the worlds differ in weight: the plays do tell something.
        assert len({round(first(world), 9) for world in worlds}) > 1


def _oracle_log_chance(world: State, seat: int) -> float:
    """The model's log-chance of the other seats' plays this round in
    ``world``, by replaying it: the plain reading of the module docstring."""
    weights = play_model()
    state = world.game.new_initial_state()
    round_number = world.round_number  # type: ignore[attr-defined]
    total = 0.0
    for action in world.history():
        rows = play_rows(state)
        if rows is not None and state.round_number == round_number and state.current_player() != seat:
            utilities = [sum(weights[i] for i in row) for row in rows]
            z = sum(math.exp(u) for u in utilities)
            total += utilities[state.legal_actions().index(action)] - math.log(z)
        state.apply_action(action)
    return total


def _check_weights_by_replay(
    game_id: str, count: int, seed: int, log_chance: Callable[[State, int], float]
) -> list[tuple[State, set[float]]]:
    """At each weighed position, five worlds' weights equal ``log_chance``
    (the models' chance, replayed) up to one constant: the actions whose
    legal choices are the same in every world may be left out. Returns each
    position with its distinct weights."""
    inference = inference_for(game_id)
    assert inference is not None
    rng = random.Random(5)
    seen = []
    for state in weighed_positions(game_id, count, seed=seed):
        seat = state.current_player()
        weigh = inference(state, seat)
        assert weigh is not None
        worlds = [state.resample_from_infostate(seat, rng) for _ in range(5)]
        offsets = [weigh(world) - log_chance(world, seat) for world in worlds]
        assert max(offsets) - min(offsets) < 1e-9
        seen.append((state, {round(weigh(world), 9) for world in worlds}))
    return seen


def test_an_oracle_weight_is_the_models_chance_of_the_plays() -> None:
    for _, weights in _check_weights_by_replay("oracle", 5, 1, _oracle_log_chance):
        assert len(weights) > 1


def test_the_stored_play_model_fits_its_features() -> None:
    assert len(play_model()) == NUM_FEATURES == len(feature_names())
    assert (
        len(inrah_inference.play_model())
        == inrah_inference.NUM_FEATURES
        == len(inrah_inference.feature_names())
    )


def _inrah_log_chance(world: State, seat: int) -> float:
    """The models' log-chance of the other seats' bids and plays this round
    in ``world``, by replaying it."""
    weights = inrah_inference.play_model()
    game = world.game
    state = game.new_initial_state()
    target = world._round  # type: ignore[attr-defined]
    total = 0.0
    for action in world.history():
        if not state.is_chance_node() and state._round == target:  # type: ignore[attr-defined]
            player = state.current_player()
            legal = state.legal_actions()
            if player != seat and state._phase == BID:  # type: ignore[attr-defined]
                hand = tuple(state._hands[player])  # type: ignore[attr-defined]
                chances = bid_log_chances(hand, state._trump_card, state._trump, 4, game.deck_size)  # type: ignore[attr-defined]
                total += chances[action - game.bid_base]  # type: ignore[attr-defined]
            elif player != seat and (rows := inrah_inference.play_rows(state)) is not None:
                utilities = [sum(weights[i] for i in row) for row in rows]
                total += utilities[legal.index(action)] - math.log(sum(math.exp(u) for u in utilities))
        state.apply_action(action)
    return total


def test_an_inrah_weight_is_the_models_chance_of_the_bids_and_plays() -> None:
    checked = _check_weights_by_replay("inrah", 8, 3, _inrah_log_chance)
    assert sum(state._phase != BID for state, _ in checked) >= 2  # type: ignore[attr-defined]


def test_a_bid_is_likeliest_where_the_heuristic_makes_it() -> None:
    game = load_game("inrah", players=4, rounds=5)
    rng = random.Random(2)
    checked = 0
    for state in decision_positions(game, 200, seed=4, keep=0.5):
        if state._phase != BID:  # type: ignore[attr-defined]
            continue
        seat = state.current_player()
        hand = tuple(state._hands[seat])  # type: ignore[attr-defined]
        chances = bid_log_chances(hand, state._trump_card, state._trump, 4, game.deck_size)  # type: ignore[attr-defined]
        assert len(chances) == len(hand) + 1
        assert sum(math.exp(c) for c in chances) == pytest.approx(1.0)
        if game.forbid_exact_sum:
            continue
        bid = inrah_choose(state, seat, rng) - game.bid_base
        assert chances[bid] == max(chances)
        checked += 1
    assert checked > 10


def test_bids_move_the_seers_where_they_explain_them() -> None:
    """After one other seat's bid: if it bid high, the weighed worlds give it
    more seers than the plain ones; if it bid nothing, fewer."""
    game = load_game("inrah", players=4, rounds=5)
    rng = random.Random(9)
    inference = inference_for("inrah")
    assert inference is not None
    shifts: dict[bool, list[float]] = {True: [], False: []}
    for state in decision_positions(game, 300, seed=6, keep=0.5):
        bids = state._bids  # type: ignore[attr-defined]
        made = [s for s, b in enumerate(bids) if b >= 0]
        r = state._round  # type: ignore[attr-defined]
        if state._phase != BID or len(made) != 1 or r < 2:  # type: ignore[attr-defined]
            continue
        bidder, bid = made[0], bids[made[0]]
        if 0 < bid < r - 1:
            continue
        seat = state.current_player()
        weigh = inference(state, seat)
        assert weigh is not None
        worlds = [state.resample_from_infostate(seat, rng) for _ in range(150)]
        seers = [sum(RANK_OF[c] == SEER for c in w._hands[bidder]) for w in worlds]  # type: ignore[attr-defined]
        weights = tempered([weigh(w) for w in worlds], 0)
        weighed = sum(w * n for w, n in zip(weights, seers, strict=True)) / sum(weights)
        shifts[bid > 0].append(weighed - sum(seers) / len(seers))
    assert len(shifts[True]) >= 3 and len(shifts[False]) >= 3
    assert sum(shifts[True]) / len(shifts[True]) > 0.1
    assert sum(shifts[False]) / len(shifts[False]) < -0.05


@given(st.lists(st.floats(min_value=-80, max_value=0), min_size=1, max_size=60), st.floats(0, 1))
def test_tempered_weights_keep_the_effective_sample_size(logs: list[float], share: float) -> None:
    floor = share * len(logs)
    weights = tempered(logs, floor)
    assert max(weights) == pytest.approx(1.0)
    ess = sum(weights) ** 2 / sum(w * w for w in weights)
    assert ess >= floor - 1e-6
    # Untempered where that is enough already; an order-keeping flattening otherwise.
    order = sorted(range(len(logs)), key=logs.__getitem__)
    assert [weights[i] for i in order] == sorted(weights)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_search_with_inference_draws_from_its_weighed_pool(game_id: str) -> None:
    for index, state in enumerate(weighed_positions(game_id, 3, seed=2)):
        seat = state.current_player()
        bot = make_bot("ismcts:iterations=30:infer=40:ess=0.5", seat, index)
        assert isinstance(bot, ISMCTSBot)
        move = bot.choose(SeatInfo(state, seat))
        assert move in state.legal_actions()
        assert len(bot.pool_ess) == 1 and 20 - 1e-6 <= bot.pool_ess[0] <= 40 + 1e-6
        # The same seed, the same move.
        assert (
            make_bot("ismcts:iterations=30:infer=40:ess=0.5", seat, index).choose(SeatInfo(state, seat))
            == move
        )
