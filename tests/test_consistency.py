"""The shared consistency suite over every registered game and option set.

A game joins by being registered in ``oracles.core.registry.GAMES`` and by
listing its main option sets in ``Game.test_option_sets``; no test code is
added here for it.
"""

from __future__ import annotations

import pytest

from oracles.core.registry import game_class, game_ids
from oracles.testing import check_bad_options, check_game

CASES = [
    pytest.param(gid, options, id=f"{gid}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'defaults'}")
    for gid in game_ids()
    for options in game_class(gid).test_option_sets
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_consistency(game_id: str, options: dict[str, object]) -> None:
    game = game_class(game_id)(**options)
    stats = check_game(game, playouts=3, seed=2026)
    assert stats["steps"] > 0
    assert stats["resample_changed"], "resample_from_infostate never changed a hidden card"


@pytest.mark.parametrize("game_id", game_ids())
def test_unknown_option_is_refused(game_id: str) -> None:
    check_bad_options(game_class(game_id))


@pytest.mark.parametrize("game_id", game_ids())
def test_static_facts(game_id: str) -> None:
    cls = game_class(game_id)
    assert 2 <= cls.min_players <= cls.max_players
    defaults = cls.option_defaults()
    game = cls()
    assert game.options == defaults
    assert game.num_distinct_actions() > 0 and game.max_game_length() > 0
    assert cls.test_option_sets, "a game must name the option sets the suite plays"
