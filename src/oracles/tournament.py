"""Tournaments between bots: ``oracles tournament``.

Every *deal* (a chance seed) is played once per *lineup*, so each bot meets
the same cards from every seat (duplicate play cancels most of the luck of the
deal). Lineups: with as many bot specs as seats, the cyclic rotations of the
given order; with fewer, the specs repeat round the table and rotate; with
more, every choice of as many specs as seats, each rotated.

Results are aggregated per distinct spec: seat-games played, wins (a shared
win counts for each winner), win rate with a 95% Wilson interval, mean score
with a 95% interval, and an OpenSkill (Plackett-Luce) rating updated game by
game from the seats' scores. Games with the same deal are correlated, so the
intervals, computed as if games were independent, are on the cautious side
for differences between bots and a little optimistic for absolute rates.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from oracles.backends import ordered_map
from oracles.bots.specs import make_bot
from oracles.core.errors import OptionError
from oracles.core.game import Game
from oracles.core.inputs import load_game_checked
from oracles.simulate import game_for_job, mean_interval, play_game, wilson_interval

#: The most lineups a tournament plays each deal (every choice of as many
#: bots as seats, rotated, grows fast with the number of bots).
MAX_LINEUPS = 10_000


def lineups(specs: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The seat assignments a tournament plays for every deal.

    >>> lineups(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> lineups(["x", "y", "y", "y"], 4)
    [('x', 'y', 'y', 'y'), ('y', 'y', 'y', 'x'), ('y', 'y', 'x', 'y'), ('y', 'x', 'y', 'y')]
    >>> len(lineups(["a", "b", "c"], 2))
    6
    """
    if not specs:
        raise OptionError("a tournament needs at least one bot")
    planned = math.comb(len(specs), seats) * seats if len(specs) > seats else seats
    if planned > MAX_LINEUPS:
        raise OptionError(
            f"{len(specs)} bots for {seats} seats make {planned} lineups, more than {MAX_LINEUPS}"
        )
    groups: list[tuple[str, ...]]
    if len(specs) > seats:
        groups = list(itertools.combinations(specs, seats))
    else:
        groups = [tuple(specs[i % len(specs)] for i in range(seats))]
    result: dict[tuple[str, ...], None] = {}  # ordered, without repeats
    for group in groups:
        for shift in range(seats):
            result.setdefault(group[shift:] + group[:shift])
    return list(result)


def plan_tournament(
    game_id: str, specs: Sequence[str], options: dict[str, Any] | None = None
) -> tuple[Game, list[tuple[str, ...]]]:
    """Validate a tournament's game, options and bots (a bad one fails
    before any game is played) and return the game and its lineups."""
    game = load_game_checked(game_id, options or {})
    for spec in specs:
        make_bot(spec, 0)
    return game, lineups(list(specs), game.num_players)


@dataclass(frozen=True)
class TournamentGame:
    deal: int
    lineup: tuple[str, ...]
    scores: list[float]
    winners: list[int]
    length: int
    #: Per seat: the seconds of each choice that had more than one legal action.
    think: list[list[float]] = field(default_factory=list)


def _play(job: tuple[str, dict[str, Any], tuple[str, ...], int, int, int]) -> TournamentGame:
    game_id, options, lineup, seed, deal, index = job
    game = game_for_job(game_id, options)
    think: list[list[float]] = [[] for _ in lineup]
    state, _ = play_game(
        game, lineup, f"t:{seed}:{deal}:{index}", chance_seed=f"t:{seed}:{deal}", think=think
    )
    return TournamentGame(
        deal, lineup, list(state.scores()), list(state.winners()), len(state.history()), think
    )


@dataclass
class Entrant:
    spec: str
    games: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    mu: float = 25.0
    sigma: float = 25.0 / 3
    think: list[float] = field(default_factory=list)


def run_tournament(
    game_id: str,
    specs: Sequence[str],
    deals: int,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[TournamentGame], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, Any]:
    """Play ``deals`` deals under every lineup and return the results table."""
    from openskill.models import PlackettLuce

    game, plan = plan_tournament(game_id, specs, options)
    jobs = [
        (game.id, dict(game.options), lineup, seed, deal, index)
        for deal in range(deals)
        for index, lineup in enumerate(plan)
    ]
    entrants = {spec: Entrant(spec) for spec in dict.fromkeys(specs)}
    model = PlackettLuce()
    lengths: list[int] = []
    start = time.perf_counter()
    for result in _results(jobs, workers, backend, address):
        lengths.append(result.length)
        for seat, spec in enumerate(result.lineup):
            entrant = entrants[spec]
            entrant.games += 1
            entrant.scores.append(result.scores[seat])
            entrant.think.extend(result.think[seat])
            if seat in result.winners:
                entrant.wins += 1
        _rate(model, entrants, result)
        if on_game is not None:
            on_game(result)
    seconds = time.perf_counter() - start
    rows = []
    for entrant in entrants.values():
        low, high = wilson_interval(entrant.wins, entrant.games)
        mean, half = mean_interval(entrant.scores)
        rows.append(
            {
                "bot": entrant.spec,
                "seat_games": entrant.games,
                "wins": entrant.wins,
                "win_rate": entrant.wins / entrant.games if entrant.games else 0.0,
                "win_rate_ci95": [low, high],
                "mean_score": mean,
                "mean_score_ci95": half,
                "rating_mu": entrant.mu,
                "rating_sigma": entrant.sigma,
                "rating": entrant.mu - 3 * entrant.sigma,
                "think_mean_s": statistics.fmean(entrant.think) if entrant.think else 0.0,
                "think_max_s": max(entrant.think, default=0.0),
            }
        )
    return {
        "game": game.id,
        "options": dict(game.options),
        "deals": deals,
        "lineups": [list(lineup) for lineup in plan],
        "games": len(jobs),
        "bots": rows,
        "mean_length": statistics.fmean(lengths) if lengths else 0.0,
        "seconds": seconds,
    }


def _results(
    jobs: list[tuple[str, dict[str, Any], tuple[str, ...], int, int, int]],
    workers: int,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[TournamentGame]:
    workers = max(1, min(workers, len(jobs)))  # no idle processes for a short run
    chunk = max(1, min(20, len(jobs) // (workers * 8) or 1))
    yield from ordered_map(_play, jobs, workers, chunk, backend, address)


def _rate(model: Any, entrants: dict[str, Entrant], result: TournamentGame) -> None:
    """One OpenSkill update: each seat is a one-bot team ranked by score; a
    bot sitting in several seats gets the mean of its seats' updates."""
    teams = [[model.rating(mu=entrants[spec].mu, sigma=entrants[spec].sigma)] for spec in result.lineup]
    rated = model.rate(teams, scores=list(result.scores))
    deltas: dict[str, list[tuple[float, float]]] = {}
    for spec, (rating,) in zip(result.lineup, rated, strict=True):
        deltas.setdefault(spec, []).append((rating.mu, rating.sigma))
    for spec, values in deltas.items():
        entrants[spec].mu = statistics.fmean(mu for mu, _ in values)
        entrants[spec].sigma = statistics.fmean(sigma for _, sigma in values)
