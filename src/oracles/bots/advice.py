"""Advice for people: each candidate move's estimated value, and the best.

Used by ``hint`` in the terminal and by ``oracles review``. The estimate is
flat Monte Carlo over worlds resampled from the seat's information (so advice
never peeks either): in each world, every candidate is played and the game
goes on with the game's heuristic policy up to a horizon, with the same
world and the same random draws for every candidate, so that differences
between candidates are not drowned in the luck of the deal.

=============================  =============================================
game                           value of a move
=============================  =============================================
with rounds (Oracle, Inrah)    the points the seat gains by the end of the
                               round (its score when the round is scored)
with a position evaluator      the seat's chance of winning at the end of
(Codename)                     the turn, as the evaluator estimates it
=============================  =============================================

The same rollouts also say *why*: where a game reads outcomes at the
horizon (:func:`~oracles.bots.hooks.outcomes_for`: Oracle's kept prophecies
and Loser chips, Inrah's bids, team bids and oracles, Codename's strikes
and code cards shown in the turn), each candidate carries the share of its
worlds in which each outcome came true (:attr:`MoveValue.outcomes`), and
:func:`reasons` words the difference between two candidates through the
game's ``narrate`` part.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from oracles.bots.base import SeatInfo
from oracles.bots.hooks import (
    Evaluator,
    Outcomes,
    candidates_for,
    evaluator_for,
    outcomes_for,
    policy_for,
    root_candidates_for,
    why_for,
)
from oracles.core.game import Game, State

#: Worlds sampled per piece of advice unless told otherwise.
DEFAULT_WORLDS = 24
#: Candidates valued at most (the policy's pick and the pruner's are first).
MAX_CANDIDATES = 60


@dataclass(frozen=True)
class MoveValue:
    action: int
    notation: str
    #: Mean value over the worlds (points, or a chance of winning).
    value: float
    #: Half-width of its 95% interval.
    margin: float
    #: Outcome (the game's key, e.g. ``"holds:O12"``) -> the share of the
    #: same worlds in which it came true at the horizon; empty where the game
    #: reads none.
    outcomes: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Advice:
    #: ``"points"`` or ``"win chance"``.
    unit: str
    #: Best first.
    moves: list[MoveValue]
    #: Worlds the values were averaged over (fewer than asked when a time
    #: budget ran out).
    worlds: int = 0

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def value_of(self, action: int) -> MoveValue | None:
        return next((move for move in self.moves if move.action == action), None)


def _rollout(
    world: State,
    seat: int,
    rng: random.Random,
    evaluator: Evaluator | None,
    outcomes: Outcomes | None = None,
    seen: dict[str, bool] | None = None,
    before: Sequence[float] | None = None,
) -> float:
    """Play ``world`` on to the horizon; the seat's value there. ``before``:
    the scores before the move being valued (else ``world``'s now). With
    ``outcomes``, what the seat sees came true there is put in ``seen``
    (read after the play, so the draws and the value are unchanged)."""
    policy = policy_for(world.game.id)
    if evaluator is not None:
        stop = evaluator.turn(world) + 1
        while not world.is_terminal() and evaluator.turn(world) < stop:
            if world.is_chance_node():
                world.apply_trusted(world.sample_chance(rng))
            else:
                world.apply_trusted(policy(world, world.current_player(), rng))
        if outcomes is not None and seen is not None:
            seen.update(outcomes(world, seat))
        return evaluator.win_chances(world)[seat]
    # Counted from before the move: a move that ends the round (the last
    # trick's Loser chip kept or put back) is scored by its own application,
    # and the horizon is then already reached.
    before = list(world.scores()) if before is None else list(before)
    start = before[seat]
    while not world.is_terminal():
        if world.is_chance_node():
            if world.scores() != before:
                break  # the round is scored: stop before the next deal
            world.apply_trusted(world.sample_chance(rng))
        else:
            world.apply_trusted(policy(world, world.current_player(), rng))
    if outcomes is not None and seen is not None:
        seen.update(outcomes(world, seat))
    return world.scores()[seat] - start


def _candidates(world: State, seat: int, legal: list[int], rng: random.Random) -> list[int]:
    pruner = candidates_for(world.game.id)
    first = [policy_for(world.game.id)(world, seat, rng)]
    if pruner is not None:
        first += pruner(world, seat)
    root = root_candidates_for(world.game.id)
    if root is not None:
        # The moves the search itself would weigh here (Oracle's keep: the
        # policy's best pairs, not all 66): a second's worth of worlds is
        # spread over a few candidates, not sixty.
        return list(dict.fromkeys(a for a in [*first, *root(world, seat)] if a in legal))[:MAX_CANDIDATES]
    ordered = list(dict.fromkeys([a for a in first if a in legal] + legal))
    return ordered[:MAX_CANDIDATES]


def advise(
    info: SeatInfo,
    seed: int | str = 0,
    worlds: int = DEFAULT_WORLDS,
    extra: int | None = None,
    seconds: float | None = None,
) -> Advice:
    """The value of each candidate move of ``info``'s seat (which must be to
    act), best first. ``extra`` is a move to value even if it is not among
    the candidates (the move a person chose, in a review). With ``seconds``,
    worlds stop being sampled once the time is up (at least two are
    played, so that every value has a spread): the web's hints are bounded
    by time, not by the number of worlds."""
    legal = info.legal_actions()
    if not legal:
        raise ValueError(f"seat {info.seat} is not to act")
    rng = random.Random(f"advice:{seed}")
    sampled = [info.sample_world(rng) for _ in range(max(1, worlds))]
    candidates = _candidates(sampled[0].clone(), info.seat, legal, rng)
    if extra is not None and extra in legal and extra not in candidates:
        candidates.append(extra)
    evaluator = evaluator_for(info.game.id)
    outcomes = outcomes_for(info.game.id)
    values: dict[int, list[float]] = {a: [] for a in candidates}
    # Per candidate, in how many of its worlds each outcome came true.
    came_true: dict[int, dict[str, int]] = {a: {} for a in candidates}
    deadline = None if seconds is None else time.monotonic() + seconds
    for index, world in enumerate(sampled):
        if deadline is not None and index >= 2 and time.monotonic() > deadline:
            break
        scores_before = world.scores()
        for action in candidates:
            trial = world.clone()
            trial.apply_trusted(action)
            seen: dict[str, bool] = {}
            # The same draws for every candidate in this world.
            rng_here = random.Random(f"{seed}:{index}")
            values[action].append(
                _rollout(trial, info.seat, rng_here, evaluator, outcomes, seen, scores_before)
            )
            counts = came_true[action]
            for key, happened in seen.items():
                counts[key] = counts.get(key, 0) + happened
    moves = []
    for action, samples in values.items():
        mean = statistics.fmean(samples)
        spread = statistics.stdev(samples) if len(samples) > 1 else 0.0
        rates = {key: count / len(samples) for key, count in sorted(came_true[action].items())}
        moves.append(
            MoveValue(
                action,
                info.action_to_string(action),
                mean,
                1.96 * spread / math.sqrt(len(samples)),
                rates,
            )
        )
    moves.sort(key=lambda move: (-move.value, move.action))
    played = len(next(iter(values.values()), []))
    return Advice("win chance" if evaluator is not None else "points", moves, played)


def _why(
    game_id: str,
    move: MoveValue,
    other: MoveValue | None,
    ahead: bool,
    lang: str,
    game: Game | None = None,
    names: Sequence[str] = (),
) -> str | None:
    words = why_for(game_id)
    if words is None or not move.outcomes:
        return None
    return words(
        move.notation,
        move.outcomes,
        other.notation if other is not None else None,
        other.outcomes if other is not None else None,
        ahead,
        lang,
        game,
        names,
    )


def reasons(
    advice: Advice, game_id: str, lang: str = "en", game: Game | None = None, names: Sequence[str] = ()
) -> list[str | None]:
    """Why, in ``lang``, for each of ``advice``'s moves (in its order), from
    the outcome rates of the same worlds as the values: the best move against
    the runner-up (what it does better), every other against the best (what
    it does worse, None where nothing differs notably). None throughout for
    a game that reads no outcomes. ``game``, the game played, words its
    cards as the table does (an Oracle edition's texts); ``names``, the
    seats' names, calls a seat what the table calls it ("Seat n" without)."""
    if not advice.moves:
        return []
    best = advice.moves[0]
    runner_up = advice.moves[1] if len(advice.moves) > 1 else None
    said = [_why(game_id, best, runner_up, True, lang, game, names)]
    said += [_why(game_id, move, best, False, lang, game, names) for move in advice.moves[1:]]
    return said


@dataclass(frozen=True)
class ReviewMark:
    """A decision where the bot's best move beats the one played."""

    #: Index of the decision's action in the record.
    index: int
    played: str
    best: str
    #: Estimated cost of the move played (points or a chance of winning).
    cost: float
    unit: str
    #: Why the best move is better, in words (None where the game reads no
    #: outcomes or none differs).
    why: str | None = None
    #: The same in every language asked for (``review``'s ``langs``).
    why_in: dict[str, str | None] = field(default_factory=dict)


#: Default margins under which a difference is not worth a mark.
DEFAULT_MARGINS = {"points": 2.0, "win chance": 0.05}


def review(
    state_at: Callable[[int], State],
    actions: Sequence[int],
    seat: int,
    margin: float | None = None,
    worlds: int = DEFAULT_WORLDS,
    on_decision: Callable[[], None] | None = None,
    seconds: float | None = None,
    only: Collection[int] | None = None,
    lang: str = "en",
    langs: Sequence[str] = (),
    names: Mapping[str, Sequence[str]] | None = None,
) -> list[ReviewMark]:
    """Every decision of ``seat`` in a game where the bot's best move beats
    the one played by more than ``margin`` (a default per unit).
    ``state_at(i)`` is the state before action ``i``; ``actions`` the game's
    actions. The bot sees only what the seat saw then. ``seconds`` bounds
    each decision's advice (see :func:`advise`); with ``only``, just the
    decisions at those indices are looked at (a review done in parts).
    Each mark says why in ``lang`` (the best move against the one played),
    and in ``why_in`` in ``lang`` and each of ``langs`` (a page that serves
    several languages words a review once), the seats called by ``names``
    (per language: a page's names are in its language)."""
    marks = []
    for index, action in enumerate(actions):
        if only is not None and index not in only:
            continue
        state = state_at(index)
        if state.current_player() != seat or len(state.legal_actions()) < 2:
            continue
        advice = advise(SeatInfo(state, seat), seed=index, worlds=worlds, extra=action, seconds=seconds)
        played = advice.value_of(action)
        if on_decision is not None:
            on_decision()
        if played is None:
            continue
        limit = DEFAULT_MARGINS[advice.unit] if margin is None else margin
        cost = advice.best.value - played.value
        if cost > limit:
            why_in = {
                code: _why(
                    state.game.id, advice.best, played, True, code, state.game, (names or {}).get(code, ())
                )
                for code in dict.fromkeys((lang, *langs))
            }
            marks.append(
                ReviewMark(
                    index, played.notation, advice.best.notation, cost, advice.unit, why_in[lang], why_in
                )
            )
    return marks


def decisions_of(state: State, seat: int) -> int:
    """How many decisions with a choice ``seat`` had in the game of ``state``
    (for a progress bar)."""
    replay = state.game.new_initial_state()
    count = 0
    for action in state.history():
        if replay.current_player() == seat and len(replay.legal_actions()) > 1:
            count += 1
        replay.apply_trusted(action)
    return count
