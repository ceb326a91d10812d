"""Codename: Oracle: whole games: the shared checks, knowledge in views,
resampling, records, termination."""

from __future__ import annotations

import json
import random

import pytest

from oracles import RecordError, load_game, replay_record
from oracles.games.codename import actions as A
from oracles.games.codename import rules as R
from oracles.games.codename.rules import CodenameState
from oracles.testing import check_game


def lively_policy(state: CodenameState, rng: random.Random) -> int:
    """A random player that rarely guesses and usually reveals real sets (it
    peeks at the true state), so that effects and reshuffles come up."""
    legal = state.legal_actions()
    calm = [a for a in legal if not A.GUESS_BASE <= a < A.PEEK_BASE]
    if not calm or rng.random() < 0.003:
        return rng.choice(legal)
    seat = state.current_player()
    reveals = [a for a in calm if A.REVEAL_BASE <= a < A.RESPOND_PASS]
    real = [
        a
        for a in reveals
        if len({A.symbol_of(state._field[seat][c]) for c in A.SHAPES[(a - A.REVEAL_BASE) % len(A.SHAPES)][1]})
        == 1
    ]
    if real and rng.random() < 0.9:
        return rng.choice(real)
    if A.END in calm and rng.random() < 0.2:
        return A.END
    return rng.choice(calm)


def lively_game(seed: int, **options: int) -> CodenameState:
    state = load_game("codename", **options).new_initial_state()
    assert isinstance(state, CodenameState)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else lively_policy(state, rng))
    return state


def prefixes(final: CodenameState) -> list[CodenameState]:
    state = final.game.new_initial_state()
    states = [state.clone()]
    for action in final.history():
        state.apply_action(action)
        states.append(state.clone())
    return states  # type: ignore[return-value]


@pytest.mark.parametrize("options", R.CodenameGame.test_option_sets)
def test_shared_consistency_checks(options: dict[str, int]) -> None:
    result = check_game(load_game("codename", **options), playouts=4, seed=11)
    assert result["resample_changed"]


def test_lively_games_use_every_kind_of_action_and_end() -> None:
    seen: set[str] = set()
    for seed in range(6):
        state = lively_game(seed, max_turns=60)
        assert state.is_terminal()
        assert len(state.history()) <= state.game.max_game_length()
        words = {text.split()[0] for text in state.record()["actions"]}
        seen |= words
    expected = {"code", "shuffle", "first", "peek", "swap", "replace", "reveal", "respond", "end"}
    expected |= {"pick", "scramble", "target", "take", "reshuffle"}
    assert expected <= seen


def test_views_show_only_cards_the_seat_has_seen() -> None:
    for seed in range(3):
        for state in prefixes(lively_game(seed, max_turns=40))[::5]:
            for seat in (0, 1):
                view = state.view(seat)
                for owner, cells in (
                    (seat, view["sides"][seat]["field"]),
                    (1 - seat, view["sides"][1 - seat]["field"]),
                ):
                    for name, shown in cells.items():
                        cell = A.CELL_INDEX[name]
                        card = state._field[owner][cell]
                        if shown is None or shown == "-" or state._up[owner][cell]:
                            continue
                        assert state._seen[seat] >> card & 1, (seed, seat, name)
                        assert shown == A.SYMBOLS[A.symbol_of(card)]
                for slot, shown in enumerate(view["sides"][1 - seat]["code"]):
                    if shown is not None:
                        assert state._seen[seat] >> state._code[1 - seat][slot] & 1
                assert isinstance(view["sides"][1 - seat]["hand_count"], int)
                assert isinstance(view["sides"][1 - seat]["aside_count"], int)


def test_resampling_keeps_the_view_varies_the_rest_and_replays() -> None:
    rng = random.Random(7)
    varied = 0
    for seed in range(3):
        for state in prefixes(lively_game(seed, max_turns=40))[3::17]:
            for seat in (0, 1):
                world = state.resample_from_infostate(seat, rng)
                assert world.view(seat) == state.view(seat)
                assert world.current_player() == state.current_player()
                if state.current_player() == seat:
                    assert world.legal_actions() == state.legal_actions()
                replayed = replay_record(json.loads(json.dumps(world.record())))
                assert replayed.history() == world.history()
                varied += world._code[1 - seat] != state._code[1 - seat] and state._code[1 - seat] != []
    assert varied > 10


def test_legal_actions_agree_with_the_reasons_given() -> None:
    rng = random.Random(3)
    for state in prefixes(lively_game(1, max_turns=30))[5::9]:
        if state.is_chance_node() or state.is_terminal():
            continue
        legal = set(state.legal_actions())
        for action in rng.sample(range(R.NUM_ACTIONS), 400) + sorted(legal)[:50]:
            assert (state._illegal_reason(action) is None) == (action in legal), state.action_to_string(
                action
            )


def test_a_recorded_game_replays_move_by_move() -> None:
    final = lively_game(4, max_turns=40)
    record = json.loads(json.dumps(final.record()))
    assert record["game"] == "codename" and record["options"]["max_turns"] == 40
    replay = final.game.new_initial_state()
    for original, text in zip(prefixes(final)[1:], record["actions"], strict=True):
        replay.apply_string(text)
        assert replay.history() == original.history()
        assert replay.view(0) == original.view(0) and replay.view(1) == original.view(1)
    assert replay_record(record).scores() == final.scores()


def test_random_games_end_within_the_turn_limit() -> None:
    game = load_game("codename", max_turns=12)
    for seed in range(5):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            calm = [a for a in legal if not A.GUESS_BASE <= a < A.PEEK_BASE]
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(calm or legal)
            state.apply_action(action)
        assert state._turn <= 12
        assert len(state.history()) <= game.max_game_length()


def test_a_bad_record_names_the_action_and_the_reason() -> None:
    final = lively_game(2, max_turns=5)
    record = json.loads(json.dumps(final.record()))
    index = next(i for i, text in enumerate(record["actions"]) if text.startswith("first"))
    record["actions"] = [*record["actions"][: index + 1], "swap a1 a1"]
    with pytest.raises(
        RecordError, match=rf"action {index + 1} 'swap a1 a1': cannot swap a cell with itself"
    ):
        replay_record(record)


def test_the_opponents_hidden_choices_do_not_show_in_the_information_state() -> None:
    states = []
    for code, hand_card in (("star star star star star", "star"), ("cross wave wave circle square", "cross")):
        state = load_game("codename").new_initial_state()
        state.apply_string("code star square wave circle cross")
        state.apply_string(f"code {code}")
        rng = random.Random(9)
        state.apply_action(state.sample_chance(rng))  # the same shuffle for seat 0 in both games
        state.apply_action(state.sample_chance(rng))
        state.apply_string("first 1")
        hand = state.view(1)["sides"][1]["hand"]
        state.apply_string(f"replace c3 {hand_card if hand_card in hand else hand[0]}")
        states.append(state)
    first, second = states
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_string(1) != second.information_state_string(1)
