"""The shared consistency checks every registered game must pass.

Modelled on OpenSpiel's random-simulation tests and PettingZoo's
``api_test``: :func:`check_game` plays seeded random games and checks, at every
step, the contract of :mod:`oracles.core.game`. The test suite runs it over
every registered game and each of its ``test_option_sets``; a game's author
can run it directly while building the game::

    from oracles import load_game
    from oracles.testing import check_game
    check_game(load_game("oracle", players=3), playouts=5, seed=1)

It raises ``AssertionError`` with a message naming the step that failed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from oracles.core.errors import ChanceNotEnumerableError, IllegalActionError, OraclesError
from oracles.core.game import CHANCE, TERMINAL, Game, State
from oracles.core.records import replay_record
from oracles.core.views import string_leaves, view_problems


def random_playout(game: Game, rng: random.Random, stop_after: int | None = None) -> State:
    """Play ``game`` uniformly at random (chance by its own odds)."""
    state = game.new_initial_state()
    while not state.is_terminal() and (stop_after is None or len(state.history()) < stop_after):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def decision_positions(
    game: Game,
    count: int,
    seed: int | str = 0,
    keep: float = 0.1,
    move: Callable[[State, random.Random], int] | None = None,
) -> list[State]:
    """``count`` clones of positions where a seat has more than one legal
    action, met in playouts of ``game`` (uniformly random moves, or ``move``)
    and each kept with chance ``keep``, so that they spread over whole games.

    >>> from oracles.core.registry import load_game
    >>> positions = decision_positions(load_game("inrah"), 3)
    >>> all(len(p.legal_actions()) > 1 for p in positions)
    True
    """
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < keep:
                found.append(state.clone())
            state.apply_action(move(state, rng) if move is not None else rng.choice(legal))
    return found


def _views(state: State, public: bool = True) -> list[str]:
    seats: list[int | None] = [*range(state.num_players), *([None] if public else [])]
    return [json.dumps(state.view(seat), sort_keys=True) for seat in seats]


def _check_views(state: State, where: str, shown: set[str] | None = None) -> None:
    """Every seat's view and the public view follow the shared schema
    (``oracles.core.views``), and the public view holds no card of any hand.

    ``shown`` collects, over one playout, the strings the public view showed
    while no hand held them: a card played in one round may be dealt again in
    a later one (Inrah deals each round from the whole deck), and its earlier
    plays stay in the public log without leaking the new hand."""
    for seat in [*range(state.num_players), None]:
        problems = view_problems(state, seat)
        assert not problems, f"{where}: view({seat}): {'; '.join(problems)}"
    if state.game.unique_card_names:
        public = string_leaves(state.view(None))
        known = shown if shown is not None else set()
        held: set[str] = set()
        for seat in range(state.num_players):
            hand = [str(card) for card in state.view(seat).get("hand") or []]
            leaked = sorted(card for card in hand if card in public and card not in known)
            assert not leaked, f"{where}: the public view holds {leaked} of seat {seat}'s hand"
            held.update(hand)
        known.update(public - held)


def _check_event_seats(state: State, actors: list[int | None], where: str) -> None:
    """Every event's ``seat`` is who took the action at its ``seq`` (None for
    chance), also for what an action set off (a finished trick, a draw)."""
    for viewer in [*range(state.num_players), None]:
        for event in state.view(viewer)["log"]:
            seq = event["seq"]
            assert 0 <= seq < len(actors), f"{where}: view({viewer}): event {event} has no action {seq}"
            assert event["seat"] == actors[seq], (
                f"{where}: view({viewer}): {event['kind']} event at {seq} has seat {event['seat']}, "
                f"but {'chance' if actors[seq] is None else f'seat {actors[seq]}'} took that action"
            )


def _check_step(state: State, rng: random.Random, where: str, schema: bool = True) -> None:
    game = state.game
    player = state.current_player()
    legal = state.legal_actions()
    if state.is_terminal():
        assert player == TERMINAL, f"{where}: terminal but current_player is {player}"
        assert legal == [], f"{where}: terminal state has legal actions"
        winners = state.winners()
        assert all(0 <= w < state.num_players for w in winners), f"{where}: bad winners {winners}"
        return
    assert len(state.winners()) == 0, f"{where}: winners before the end"
    if state.is_chance_node():
        assert player == CHANCE, f"{where}: chance node but current_player is {player}"
        assert legal == [], f"{where}: chance node lists player actions"
        try:
            outcomes = state.chance_outcomes()
        except ChanceNotEnumerableError:
            outcomes = []
        if outcomes:
            total = sum(p for _, p in outcomes)
            assert abs(total - 1.0) < 1e-9, f"{where}: chance probabilities sum to {total}"
            for action, _ in outcomes:
                text = state.action_to_string(action)
                assert state.string_to_action(text) == action, f"{where}: chance {text!r} round trip"
        _check_chance_draws(state, outcomes, where)
        action = state.sample_chance(rng)
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action, f"{where}: chance {text!r} does not read back"
        assert state.string_to_action(text.upper()) == action, f"{where}: {text!r} is case-sensitive"
        return
    assert 0 <= player < state.num_players, f"{where}: current_player {player}"
    assert legal, f"{where}: seat {player} is to act but has no legal action"
    assert legal == sorted(set(legal)), f"{where}: legal actions not sorted and unique"
    bound = game.num_distinct_actions()
    assert all(0 <= a < bound for a in legal), f"{where}: action outside 0..{bound - 1}"
    for action in legal:
        text = state.action_to_string(action)
        assert text == text.strip() and "  " not in text, f"{where}: badly spaced {text!r}"
        assert state.string_to_action(text) == action, f"{where}: {text!r} does not read back"
        assert state.string_to_action(text.upper()) == action, f"{where}: {text!r} is case-sensitive"
    # An illegal action is refused with a reason and changes nothing.
    illegal = [a for a in rng.sample(range(bound), min(bound, 20)) if a not in set(legal)]
    if illegal:
        before = (state.history(), _views(state, schema))
        try:
            state.apply_action(illegal[0])
        except IllegalActionError as error:
            assert error.reason, f"{where}: illegal action refused without a reason"
        else:
            raise AssertionError(f"{where}: illegal action {illegal[0]} was accepted")
        assert (state.history(), _views(state, schema)) == before, (
            f"{where}: a refused action changed the state"
        )


def _check_chance_draws(state: State, outcomes: list[tuple[int, float]], where: str) -> None:
    """The step-by-step chance hook (``State.chance_draws``): a node is
    either listed by ``chance_outcomes`` or drawn step by step; drawing gives
    a legal chance action, and ``chance_draws_of`` inverts ``chance_from_draws``.
    Uses its own generator so that the playout is the same with or without it."""
    draws = state.chance_draws()
    if draws is None:
        if type(state).chance_draws is not State.chance_draws:  # the game implements the hook
            assert outcomes, f"{where}: chance node neither listed nor drawn step by step"
        return
    assert not outcomes, f"{where}: a listed chance node also offers step-by-step draws"
    items, slots = draws
    assert 0 < slots <= len(items), f"{where}: {slots} draws from {len(items)} items"
    assert items == sorted(items), f"{where}: chance_draws items not sorted"
    rng = random.Random(f"draws:{len(state.history())}")
    for action in (state.chance_from_draws(rng.sample(items, slots)), state.sample_chance(rng)):
        trial = state.clone()
        try:
            trial.apply_action(action)
        except IllegalActionError as error:
            raise AssertionError(f"{where}: drawn chance action refused: {error}") from None
        drawn = state.chance_draws_of(action)
        assert len(drawn) == slots, f"{where}: chance_draws_of gives {len(drawn)} items, not {slots}"
        assert sorted(drawn) == sorted(_sub_multiset(items, drawn)), f"{where}: drawn items not in the pool"
        assert state.chance_from_draws(drawn) == action, f"{where}: chance_draws_of does not invert"


def _sub_multiset(items: list[int], drawn: list[int]) -> list[int]:
    """``drawn`` if it is a sub-multiset of ``items`` (else the part that is)."""
    pool: dict[int, int] = {}
    for item in items:
        pool[item] = pool.get(item, 0) + 1
    kept = []
    for item in drawn:
        if pool.get(item, 0):
            pool[item] -= 1
            kept.append(item)
    return kept


def _check_resample(state: State, rng: random.Random, where: str, schema: bool = True) -> bool:
    """Resample for every seat; return True if some hidden part changed."""
    changed = False
    for seat in range(state.num_players):
        view = json.dumps(state.view(seat), sort_keys=True)
        info = state.information_state_string(seat)
        world = state.resample_from_infostate(seat, rng)
        assert world is not state, f"{where}: resample returned the state itself"
        assert json.dumps(world.view(seat), sort_keys=True) == view, (
            f"{where}: resample for seat {seat} changed its view"
        )
        assert world.information_state_string(seat) == info, f"{where}: resample changed infostate"
        if schema:
            # What everyone sees is part of what this seat sees.
            assert world.view(None) == state.view(None), (
                f"{where}: resample for seat {seat} changed the public view"
            )
        assert world.current_player() == state.current_player(), f"{where}: resample changed turn"
        assert len(world.history()) == len(state.history()), f"{where}: resample changed length"
        if state.current_player() == seat:
            assert world.legal_actions() == state.legal_actions(), f"{where}: resample changed legal actions"
        # The resampled history is a legal game: it replays from its record.
        replayed = replay_record(json.loads(json.dumps(world.record())))
        assert replayed.history() == world.history(), f"{where}: resampled history does not replay"
        if world.history() != state.history():
            changed = True
    return changed


def _check_play_out(state: State, where: str, schema: bool) -> None:
    """``state.play_out_at_random`` (the game's, if it has its own) against
    :meth:`State.play_out_at_random` with the same rng: the same moves to
    the same end, and the same views of it."""
    own, general = state.clone(), state.clone()
    own.play_out_at_random(random.Random(where))
    State.play_out_at_random(general, random.Random(where))
    assert own.is_terminal(), f"{where}: play_out_at_random stopped before the end"
    assert own.history() == general.history(), f"{where}: play_out_at_random made other moves"
    assert own.scores() == general.scores(), f"{where}: play_out_at_random gave other scores"
    assert _views(own, schema) == _views(general, schema), f"{where}: play_out_at_random gave other views"


def check_game(
    game: Game,
    playouts: int = 5,
    seed: int = 0,
    resample_every: int = 7,
    schema: bool = True,
) -> dict[str, Any]:
    """Run every consistency check on ``playouts`` seeded random games.

    ``schema`` checks every view, the public view included, against the
    shared schema at every step (``False`` only while a game is being moved
    to it).

    Returns a few statistics (games, steps, whether resampling ever changed a
    hidden part) for the caller to assert on.
    """
    steps = 0
    resample_changed = False
    bound = game.max_game_length()
    for index in range(playouts):
        rng = random.Random(f"check:{game.id}:{seed}:{index}")
        chance_rng = random.Random(f"chance:{game.id}:{seed}:{index}")
        state = game.new_initial_state()
        trail: list[State] = []
        shown: set[str] = set()
        actors: list[int | None] = []  # who took each action of the record; None: chance
        while not state.is_terminal():
            where = f"{game!r} playout {index} step {len(state.history())}"
            _check_step(state, rng, where, schema)
            if schema:
                _check_views(state, where, shown)
            else:
                for seat in range(state.num_players):
                    json.dumps(state.view(seat))  # views must be JSON-serializable
            if len(state.history()) % resample_every == resample_every // 2:
                resample_changed |= _check_resample(state, rng, where, schema)
                trail.append(state.clone())
            if state.is_chance_node():
                action = state.sample_chance(chance_rng)
            else:
                action = rng.choice(state.legal_actions())
            actors.append(None if state.is_chance_node() else state.current_player())
            # A clone is independent of its original.
            twin = state.clone()
            twin_before = twin.history()
            state.apply_action(action)
            assert twin.history() == twin_before, f"{where}: applying to the original changed a clone"
            assert len(state.history()) <= bound, f"{where}: longer than max_game_length {bound}"
            steps += 1
        _check_step(state, rng, f"{game!r} playout {index} end", schema)
        if schema:
            _check_views(state, f"{game!r} playout {index} end", shown)
        _check_resample(state, rng, f"{game!r} playout {index} end", schema)
        _check_event_seats(state, actors, f"{game!r} playout {index} end")
        # Records round-trip: finished and unfinished games.
        for saved in [state, *trail[-2:]]:
            record = json.loads(json.dumps(saved.record()))
            replayed = replay_record(record)
            assert replayed.history() == saved.history(), "record replay gave another history"
            assert replayed.scores() == saved.scores(), "record replay gave other scores"
            assert replayed.is_terminal() == saved.is_terminal(), "record replay: terminal differs"
            assert replayed.winners() == saved.winners(), "record replay: winners differ"
            assert _views(replayed, schema) == _views(saved, schema), "record replay gave other views"
        # A game's own random playout makes the general loop's moves.
        for start in [game.new_initial_state(), *trail[:3]]:
            _check_play_out(start, f"{game!r} playout {index} from step {len(start.history())}", schema)
        # Earlier clones were not disturbed by later play.
        for old in trail:
            assert old.history() == state.history()[: len(old.history())], "clone drifted"
        # The same seed gives the same game.
        first = random_playout(game, random.Random(f"seed:{seed}:{index}"))
        second = random_playout(game, random.Random(f"seed:{seed}:{index}"))
        assert first.history() == second.history(), "the same seed gave two different games"
    return {"playouts": playouts, "steps": steps, "resample_changed": resample_changed}


def check_bad_options(game_cls: type[Game]) -> None:
    """An unknown option is refused with a clear error."""
    try:
        game_cls(no_such_option=1)
    except OraclesError as error:
        assert "no_such_option" in str(error)
    else:
        raise AssertionError("an unknown option was accepted")
