"""Games as facts: play them with :mod:`oracles.simulate` or read records.

Game ``i`` of a run with seed ``s`` is the same game ``oracles simulate``
plays (the same seeds, see :func:`oracles.simulate.play_game`), so
``oracles simulate --records DIR`` followed by ``oracles analyze --records DIR``
analyses the same games as ``oracles analyze`` alone. Each finished game
becomes a :class:`Played`: scores, winners, length and the game's own facts
(``game_facts(state)`` of ``oracles.analysis.<game>``, JSON-ready).

Playing goes through :func:`oracles.backends.ordered_map`: one job per game,
a module-level function, picklable jobs, so the games are the same in one
process, in ``--workers`` processes or on Ray.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracles.backends import ordered_map
from oracles.core.errors import OraclesError
from oracles.core.game import State
from oracles.core.records import load_record_file, replay_record
from oracles.core.registry import game_part
from oracles.simulate import game_for_job, play_game, prepare


@dataclass(frozen=True)
class Played:
    """One finished game: its index in the run, results and the game's facts."""

    index: int
    scores: list[float]
    winners: list[int]
    length: int
    facts: dict[str, Any]


def game_facts(state: State) -> dict[str, Any]:
    """The facts of a finished game, by its game's ``analysis`` part."""
    facts: Callable[[State], dict[str, Any]] = analysis_part(state.game.id).game_facts
    return facts(state)


def analysis_part(game_id: str) -> Any:
    """The ``analysis`` module a game declares in its parts."""
    module = game_part(game_id, "analysis")
    if module is None:
        raise OraclesError(f"no analysis for game {game_id!r}")
    return module


def played(index: int, state: State) -> Played:
    return Played(
        index=index,
        scores=list(state.scores()),
        winners=list(state.winners()),
        length=len(state.history()),
        facts=game_facts(state),
    )


Job = tuple[str, dict[str, Any], list[str], int, int]


def _play_job(job: Job) -> Played:
    game_id, options, bot_specs, seed, index = job
    state, _ = play_game(game_for_job(game_id, options), bot_specs, f"{seed}:{index}")
    return played(index, state)


def play_games(
    game_id: str,
    options: dict[str, Any],
    bot_specs: Sequence[str],
    n: int,
    seed: int = 0,
    workers: int = 1,
    on_result: Callable[[Played], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Played]:
    """Play games ``0..n-1`` of the run (seed ``seed``) and return their facts
    in order; ``bot_specs`` as for ``oracles simulate`` (one spec fills every seat)."""
    game, specs = prepare(game_id, options, bot_specs)
    jobs: list[Job] = [(game.id, dict(game.options), specs, seed, index) for index in range(n)]
    results = []
    workers = max(1, min(workers, n))
    chunk = max(1, min(50, n // (workers * 4) or 1))
    for result in ordered_map(_play_job, jobs, workers, chunk, backend, address):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def record_files(directory: str | Path) -> list[Path]:
    """The record files (``*.json``) of a directory, sorted by name."""
    path = Path(directory)
    if not path.is_dir():
        raise OraclesError(f"{str(directory)!r} is not a directory of records")
    return sorted(path.glob("*.json"))


def read_records(
    files: Sequence[Path], on_result: Callable[[Played], None] | None = None
) -> tuple[list[Played], dict[str, Any], str]:
    """Replay finished records; returns their facts, the options and game id
    of the first (every record must be of that game and those options)."""
    results: list[Played] = []
    options: dict[str, Any] = {}
    game_id = ""
    for index, path in enumerate(files):
        state = replay_record(load_record_file(path))
        if not state.is_terminal():
            raise OraclesError(f"{path}: the game is not finished")
        if not results:
            game_id, options = state.game.id, dict(state.game.options)
        elif (state.game.id, dict(state.game.options)) != (game_id, options):
            raise OraclesError(f"{path}: another game or other options than {files[0]}")
        result = played(index, state)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results, options, game_id


def round_end_states(final: State) -> Iterator[State]:
    """Replay ``final``'s history and yield the state at the end of each
    round: right after a player action that leaves chance (the next deal) or
    the end of the game to act. The same state object is yielded each time
    and moves on afterwards: read what you need before the next one."""
    state = final.game.new_initial_state()
    for action in final.history():
        by_player = not state.is_chance_node()
        state.apply_action(action)
        if by_player and (state.is_chance_node() or state.is_terminal()):
            yield state
