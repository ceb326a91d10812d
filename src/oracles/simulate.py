"""Playing many games between bots: the engine of ``oracles simulate``.

Game ``i`` of a run with seed ``s`` draws its chance from an RNG seeded with
``(s, i)`` and gives each bot a seed derived from the same pair, so a run's
games do not depend on how they are spread over worker processes.

A task for a worker is a span of consecutive games (at most
:data:`SPAN_GAMES`, shorter towards the end of the run: :func:`spans`), and
it sends back one compact tuple per game rather than a :class:`GameResult`:
shipping results costs the parent little, and the workers of a pool finish
nearly together.
"""

from __future__ import annotations

import functools
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracles.backends import ordered_map
from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.errors import InputError, OptionError
from oracles.core.game import Game, State
from oracles.core.inputs import load_game_checked
from oracles.core.records import PlannedChance, replay_record, round_points, same_deals_plan
from oracles.core.registry import load_game
from oracles.core.text import shown


@dataclass(frozen=True)
class GameResult:
    index: int
    scores: list[float]
    winners: list[int]
    length: int
    decisions: int
    record: dict[str, Any] | None = None


def play_game(
    game: Game,
    bot_specs: Sequence[str],
    seed: int | str,
    chance_seed: int | str | None = None,
    think: list[list[float]] | None = None,
    planned: Sequence[str] | None = None,
) -> tuple[State, int]:
    """Play one game to the end; bots seeded from ``seed``, chance from
    ``chance_seed`` (default ``seed``): games sharing a chance seed share
    their deals (duplicate play). Returns the final state and the number of
    decisions (player actions). With ``think`` (one list per seat), the
    seconds each real choice took (more than one legal action) are appended
    to its seat's list. With ``planned`` (a record's chance actions), chance
    follows them where they are legal (:class:`PlannedChance`)."""
    n = game.num_players
    bots = [make_bot(bot_specs[seat], seat, f"{seed}") for seat in range(n)]
    chance_rng = random.Random(f"chance:{seed if chance_seed is None else chance_seed}")
    plan = PlannedChance(list(planned)) if planned is not None else None
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if plan is not None:
                state.apply_action(plan.draw(state, chance_rng))
            else:
                state.apply_trusted(state.sample_chance(chance_rng))
        else:
            seat = state.current_player()
            started = time.perf_counter()
            action = bots[seat].choose(SeatInfo(state, seat))
            if think is not None and len(state.legal_actions()) > 1:
                think[seat].append(time.perf_counter() - started)
            # Checked: a bot's mistake must surface here, not corrupt the game.
            state.apply_action(action)
            decisions += 1
    return state, decisions


@functools.lru_cache(maxsize=8)
def _cached_game(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load_game(game_id, **dict(options))


def game_for_job(game_id: str, options: dict[str, Any]) -> Game:
    """The game of a job, built once per worker process rather than per game
    (games are immutable once made)."""
    return _cached_game(game_id, tuple(sorted(options.items())))


#: Most games in one task of a worker (see :func:`run_games`).
SPAN_GAMES = 64

#: What a worker sends back of one game: scores, winners, length, decisions
#: and the record (``None`` unless records are kept).
Played = tuple[list[float], list[int], int, int, dict[str, Any] | None]


def _play_one(game: Game, bot_specs: list[str], seed: int, index: int, keep_record: bool) -> Played:
    state, decisions = play_game(game, bot_specs, f"{seed}:{index}")
    return (
        list(state.scores()),
        list(state.winners()),
        len(state.history()),
        decisions,
        state.record() if keep_record else None,
    )


def _play_indexed(args: tuple[str, dict[str, Any], list[str], int, int, bool]) -> GameResult:
    game_id, options, bot_specs, seed, index, keep_record = args
    played = _play_one(game_for_job(game_id, options), bot_specs, seed, index, keep_record)
    return GameResult(index, *played)


def _play_span(args: tuple[str, dict[str, Any], list[str], int, int, int, bool]) -> list[Played]:
    """Games ``start`` to ``stop - 1`` of a run: one task of a worker."""
    game_id, options, bot_specs, seed, start, stop, keep_record = args
    game = game_for_job(game_id, options)
    return [_play_one(game, bot_specs, seed, index, keep_record) for index in range(start, stop)]


def spans(n: int, workers: int) -> list[tuple[int, int]]:
    """The tasks of a run of ``n`` games: ``(start, stop)`` spans, in
    order, covering ``0..n-1``. Each is at most :data:`SPAN_GAMES` long and
    at most half of a worker's share of the games still to come, so spans
    shrink towards the end (guided scheduling) and no worker is left playing
    a long last task while the others wait.

    >>> [stop - start for start, stop in spans(40, 2)]
    [10, 8, 6, 4, 3, 3, 2, 1, 1, 1, 1]
    >>> sizes = [stop - start for start, stop in spans(4000, 2)]
    >>> sizes[:3], sizes[-8:], len(sizes)
    ([64, 64, 64], [4, 3, 2, 2, 1, 1, 1, 1], 76)
    """
    result = []
    start = 0
    parts = 2 * max(1, workers)
    while start < n:
        size = min(SPAN_GAMES, -(-(n - start) // parts))  # ceiling
        result.append((start, start + size))
        start += size
    return result


def run_games(
    game_id: str,
    options: dict[str, Any],
    bot_specs: Sequence[str],
    n: int,
    seed: int,
    workers: int = 1,
    keep_records: bool = False,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[GameResult]:
    """Yield the results of games ``0..n-1`` in order (on ``backend``, see
    :mod:`oracles.backends`: the same games whatever runs them)."""
    specs = list(bot_specs)
    jobs = [(game_id, options, specs, seed, start, stop, keep_records) for start, stop in spans(n, workers)]
    workers = max(1, min(workers, len(jobs)))  # no idle processes for a short run
    if backend == "local" and workers > 1:
        game_for_job(game_id, options)  # built once here, inherited by forked workers
    index = 0
    for span in ordered_map(_play_span, jobs, workers, 1, backend, address):
        for played in span:
            yield GameResult(index, *played)
            index += 1


@dataclass
class SeatStats:
    wins: int = 0
    scores: list[float] = field(default_factory=list)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation 95% interval."""
    if not values:
        return (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, 0.0)
    return (mean, z * statistics.stdev(values) / math.sqrt(len(values)))


@dataclass
class Summary:
    game_id: str
    options: dict[str, Any]
    bot_specs: list[str]
    games: int
    seats: list[SeatStats]
    lengths: list[int]
    decisions: list[int]
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        rows = []
        for seat, stats in enumerate(self.seats):
            low, high = wilson_interval(stats.wins, self.games)
            mean, half = mean_interval(stats.scores)
            rows.append(
                {
                    "seat": seat,
                    "bot": self.bot_specs[seat],
                    "win_rate": stats.wins / self.games if self.games else 0.0,
                    "win_rate_ci95": [low, high],
                    "mean_score": mean,
                    "mean_score_ci95": half,
                }
            )
        return {
            "game": self.game_id,
            "options": self.options,
            "games": self.games,
            "seats": rows,
            "mean_length": statistics.fmean(self.lengths) if self.lengths else 0.0,
            "mean_decisions": statistics.fmean(self.decisions) if self.decisions else 0.0,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else 0.0,
        }


def simulate(
    game_id: str,
    n: int,
    options: dict[str, Any] | None = None,
    bot_specs: Sequence[str] | None = None,
    seed: int = 0,
    workers: int = 1,
    records_dir: str | Path | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Summary:
    """Play ``n`` games and summarise them (see ``oracles simulate``)."""
    game, specs = prepare(game_id, options, bot_specs)
    seats = [SeatStats() for _ in range(game.num_players)]
    lengths: list[int] = []
    decisions: list[int] = []
    out = prepare_records_dir(records_dir)
    width = len(str(max(n - 1, 0)))
    start = time.perf_counter()
    for result in run_games(
        game.id, game.options, specs, n, seed, workers, out is not None, backend, address
    ):
        for seat in range(game.num_players):
            seats[seat].scores.append(result.scores[seat])
            if seat in result.winners:
                seats[seat].wins += 1
        lengths.append(result.length)
        decisions.append(result.decisions)
        if out is not None and result.record is not None:
            path = out / f"{game.id}-{seed}-{result.index:0{width}d}.json"
            _write_record(path, result.record)
        if on_result is not None:
            on_result(result)
    seconds = time.perf_counter() - start
    return Summary(game.id, dict(game.options), specs, n, seats, lengths, decisions, seconds)


def prepare_records_dir(records_dir: str | Path | None, what: str = "records") -> Path | None:
    """Create the records folder and check that it can be written, before any
    game is played (an :class:`InputError` naming the folder if not); ``what``
    says what goes there (a report, an edition's folder)."""
    if records_dir is None:
        return None
    out = Path(records_dir)
    probe = out / ".oracles-write-test"
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise InputError(
            f"cannot write {what} into {shown(str(records_dir))}: {error.strerror or 'unwritable'}"
        ) from None
    except ValueError:
        raise InputError(f"cannot write {what} into {shown(str(records_dir))}: not a valid path") from None
    return out


def _write_record(path: Path, record: dict[str, Any]) -> None:
    """Write a record whole or not at all (through a temporary name), so
    that a run stopped by Ctrl-C leaves only complete records."""
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(record) + "\n", encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        raise InputError(f"cannot write {shown(str(path))}: {error.strerror or 'unwritable'}") from None
    finally:
        partial.unlink(missing_ok=True)


def prepare(
    game_id: str, options: dict[str, Any] | None, bot_specs: Sequence[str] | None
) -> tuple[Game, list[str]]:
    """Validate a run's game, options and bots before any game is played."""
    game = load_game_checked(game_id, options or {})
    specs = expand_bot_specs(bot_specs or ["random"], game.num_players)
    for seat, spec in enumerate(specs):
        make_bot(spec, seat)
    return game, specs


def expand_bot_specs(specs: Sequence[str], players: int) -> list[str]:
    """One spec per seat: a single spec fills every seat.

    >>> expand_bot_specs(["random"], 3)
    ['random', 'random', 'random']
    """
    specs = [s.strip() for s in specs if s.strip()]
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise OptionError(f"--bots names {len(specs)} bots but the game has {players} seats")
    return specs


def simulate_on_deals(
    record: dict[str, Any],
    n: int,
    bot_specs: Sequence[str] | None = None,
    seed: int = 0,
    records_dir: str | Path | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> dict[str, Any]:
    """Play ``n`` games between bots on the deals of ``record`` (duplicate
    play, ``oracles simulate --deals-from``) and summarise them per bot.

    Every game plays the record's chance actions in order. Game ``i`` seats
    the bots rotated by ``i`` places (seat ``s`` gets entry ``(s + i) mod
    players`` of ``bot_specs``), so as many games as seats give each bot
    every seat's hands once. The summary has, per entry of ``bot_specs``,
    its scores and mean; per game, the seating, scores and each round's
    points; and the record's own result as ``origin``.
    """
    planned = same_deals_plan(record)
    game = load_game_checked(record["game"], record.get("options") or {})
    specs = expand_bot_specs(bot_specs or ["random"], game.num_players)
    for seat, spec in enumerate(specs):
        make_bot(spec, seat)
    out = prepare_records_dir(records_dir)
    players = game.num_players
    width = len(str(max(n - 1, 0)))
    entry_scores: list[list[float]] = [[] for _ in specs]
    games = []
    for index in range(n):
        seating = [(seat + index) % players for seat in range(players)]
        state, decisions = play_game(game, [specs[e] for e in seating], f"{seed}:{index}", planned=planned)
        final = state.record()
        scores = list(state.scores())
        for seat, entry in enumerate(seating):
            entry_scores[entry].append(scores[seat])
        games.append({"seating": seating, "scores": scores, "rounds": round_points(final)})
        if out is not None:
            _write_record(out / f"{game.id}-deals-{seed}-{index:0{width}d}.json", final)
        if on_result is not None:
            on_result(GameResult(index, scores, list(state.winners()), len(state.history()), decisions))
    bots = [
        {
            "entry": entry,
            "bot": spec,
            "scores": entry_scores[entry],
            "mean_score": mean_interval(entry_scores[entry])[0],
        }
        for entry, spec in enumerate(specs)
    ]
    return {
        "game": game.id,
        "options": dict(game.options),
        "games": n,
        "origin": {"scores": list(replay_record(record).scores()), "rounds": round_points(record)},
        "bots": bots,
        "results": games,
    }
