"""The shared consistency suite over every registered game and option set.

A game joins by being registered in ``oracles.core.registry.GAMES`` and by
listing its main option sets in ``Game.test_option_sets``; no test code is
added here for it.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
from collections.abc import Callable
from types import FrameType, ModuleType
from typing import Any

import pytest

from oracles.core.errors import IllegalActionError, NotationError, SeatError
from oracles.core.registry import GAMES, game_class, game_ids
from oracles.testing import check_bad_options, check_game, decision_positions

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


#: The modules every game's package has, each holding the same job
#: (docs/architecture.md, the game package).
SAME_SHAPE = ("views", "resample", "notation", "scoring")


def _game_module(game_id: str, name: str) -> ModuleType:
    dotted = f"{GAMES[game_id]}.{name}"
    if importlib.util.find_spec(dotted) is None:
        pytest.fail(f"the package of {game_id!r} has no module {name!r} ({dotted})")
    return importlib.import_module(dotted)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("name", SAME_SHAPE)
def test_every_game_package_has_the_same_modules(game_id: str, name: str) -> None:
    module = _game_module(game_id, name)
    assert (module.__doc__ or "").strip(), f"{module.__name__} does not say what it holds"


def _watching(function: Callable[..., Any], call: Callable[..., Any], *args: object) -> tuple[bool, Any]:
    """``call(*args)``, and whether ``function``'s code ran meanwhile."""
    ran = False

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal ran
        if event == "call" and frame.f_code is function.__code__:
            ran = True

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = call(*args)
    finally:
        sys.setprofile(previous)
    return ran, result


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_resample_from_infostate_is_the_resample_module(game_id: str, options: dict[str, object]) -> None:
    """Each game's ``resample`` module exposes ``resample(state, seat, rng)``;
    the state's ``resample_from_infostate`` runs it and gives its world,
    drawing the same numbers from the generator."""
    resample = getattr(_game_module(game_id, "resample"), "resample", None)
    assert callable(resample), f"{game_id}'s resample module has no function resample(state, seat, rng)"
    assert (resample.__doc__ or "").strip(), f"{game_id}'s resample() is not documented"
    game = game_class(game_id)(**options)
    for index, state in enumerate(decision_positions(game, 4, seed=f"shape-{game_id}", keep=0.2)):
        seat = state.current_player()
        through_state, through_module = random.Random(index), random.Random(index)
        ran, world = _watching(resample, state.resample_from_infostate, seat, through_state)
        assert ran, f"{game_id}: resample_from_infostate does not run resample.resample"
        twin = resample(state, seat, through_module)
        assert world.history() == twin.history()
        for viewer in [*range(state.num_players), None]:
            assert world.view(viewer) == twin.view(viewer)
        assert through_state.random() == through_module.random(), "the generator was drawn differently"


@pytest.mark.parametrize("game_id", game_ids())
def test_view_is_built_in_the_views_module(game_id: str) -> None:
    """Each game's ``views`` module holds the view builder
    (``build_view(state, seat)``) that ``State.view`` runs, not only the
    view's keys."""
    build_view = getattr(_game_module(game_id, "views"), "build_view", None)
    assert callable(build_view), f"{game_id}'s views module has no function build_view(state, seat)"
    state = decision_positions(game_class(game_id)(), 1, seed=f"views-{game_id}")[0]
    for viewer in [*range(state.num_players), None]:
        ran, view = _watching(build_view, state.view, viewer)
        assert ran, f"{game_id}: State.view does not run views.build_view"
        assert view == build_view(state, viewer)


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


def test_toy_game_passes_the_schema(toy_registered: str) -> None:
    """The reference game of ``tests/core`` follows the shared view schema."""
    check_game(game_class(toy_registered)(), playouts=10, seed=3, resample_every=1)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seat", [-1, 99, True, "0", 1.0, pytest.param(10**5000, id="huge")])
def test_a_bad_seat_is_refused(game_id: str, seat: object) -> None:
    state = game_class(game_id)().new_initial_state()
    with pytest.raises(SeatError):
        state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        state.resample_from_infostate(seat, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize(
    "text",
    [None, 7, b"dealer 0", "x" * 100_000, "bid ¹", "bid " + "9" * 5000, "play ²", "keep O1 O" + "9" * 400],
    ids=["None", "int", "bytes", "long", "superscript", "many-digits", "play-superscript", "keep-digits"],
)
def test_action_text_must_be_a_short_string(game_id: str, text: object) -> None:
    """At the first decision of every game, odd text is refused with
    ``NotationError`` only, whatever the game's reader makes of it."""
    state = _first_decision(game_id)
    with pytest.raises(NotationError):
        state.string_to_action(text)  # type: ignore[arg-type]


def _first_decision(game_id: str) -> object:
    state = game_class(game_id)().new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize(
    "action", [-1, pytest.param(10**5000, id="huge"), pytest.param(2**64, id="2**64"), "0", 1.5, True, None]
)
def test_an_action_that_is_no_action_is_refused(game_id: str, action: object) -> None:
    state = game_class(game_id)().new_initial_state()
    before = state.history()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)  # type: ignore[arg-type]
    assert state.history() == before
