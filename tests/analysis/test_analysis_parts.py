"""Each game's statistics live in its own package, reached through the registry."""

from __future__ import annotations

import random

import pytest

from oracles.analysis.collect import analysis_part, game_facts
from oracles.core.errors import OraclesError
from oracles.core.registry import game_ids, game_part, load_game


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_declares_its_analysis_beside_its_rules(game_id: str) -> None:
    module = analysis_part(game_id)
    assert module.__name__ == f"oracles.games.{game_id}.analysis"
    for name in ("game_facts", "variants", "report_tables"):
        assert callable(getattr(module, name)), name


@pytest.mark.parametrize("game_id", game_ids())
def test_the_facts_of_a_played_game_come_from_the_games_part(game_id: str) -> None:
    state = load_game(game_id).new_initial_state()
    # Play to the end with the first legal action: cheap and deterministic.
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(state.legal_actions()[0])
    facts = game_facts(state)
    assert isinstance(facts, dict) and facts


def test_only_oracle_has_a_balancer() -> None:
    assert game_part("oracle", "balancer").__name__ == "oracles.games.oracle.balance"
    assert game_part("inrah", "balancer") is None
    assert game_part("codename", "balancer") is None


def test_a_game_without_analysis_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import oracles.analysis.collect as collect

    monkeypatch.setattr(collect, "game_part", lambda game_id, name: None)
    with pytest.raises(OraclesError, match="no analysis for game 'inrah'"):
        collect.analysis_part("inrah")
