"""Engine speed, measured side by side with OpenSpiel in one run.

Run with no arguments: ``python benchmarks/engine.py`` (about 6 minutes on
2 cores). Every subject plays random games with the same seeded driver loop
(new game; at a chance node draw a chance outcome; otherwise a uniformly
random legal action; apply) for the same wall-clock budget, in interleaved
slices so that drift of a noisy machine hits every subject alike. Results are
ratios against OpenSpiel measured in the same run, printed and written to
``benchmarks/results/engine.md``. OpenSpiel subjects are skipped (and said so)
when ``pyspiel`` is not installed (``pip install -e .[research]``).

``--only PART`` (``random``, ``costs``, ``search``, ``scaling``; repeatable)
runs only those parts and prints them without writing the results file.
``--repeats K`` (default 3) measures the costs, the search and the
simulation scaling K times, interleaved, and reports their medians (a
shared machine drifts; issue 38's targets are medians of three runs). The
search is measured with random rollouts, like OpenSpiel's, and with the
bot's default rollouts (steered for Oracle) beside them.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reporting import commit

from oracles.core.registry import load_game

RESULTS = Path(__file__).parent / "results" / "engine.md"
#: The parts of the report, in order (``--only``).
PARTS = ("random", "costs", "search", "scaling")
#: Issue 38's targets: our ISMCTS at least this many times OpenSpiel's
#: iterations a second, and a resample at most this many clones.
SEARCH_TARGET = 12
RESAMPLE_TARGET = 12


@dataclass
class Subject:
    name: str
    play_one: Callable[[random.Random], int]  # plays a game, returns decisions
    decisions: int = 0
    games: int = 0
    seconds: float = 0.0
    slices: list[float] = field(default_factory=list)

    def run_slice(self, budget: float, rng: random.Random) -> None:
        start = time.perf_counter()
        decisions = games = 0
        while True:
            decisions += self.play_one(rng)
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= budget:
                break
        self.decisions += decisions
        self.games += games
        self.seconds += elapsed
        self.slices.append(decisions / elapsed)

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


def ours(game_id: str, **options: Any) -> Callable[[random.Random], int]:
    game = load_game(game_id, **options)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_trusted(state.sample_chance(rng))
            else:
                state.apply_trusted(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play_one


def openspiel(name: str, params: dict[str, Any]) -> Callable[[random.Random], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                weights = [p for _, p in outcomes]
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play_one


def per_call(states: list[Any], fn: Callable[[Any], object], budget: float) -> float:
    """Mean seconds per call of ``fn(state)``, cycling through ``states``,
    over about ``budget`` seconds."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        fn(states[calls % len(states)])
        calls += 1
    return (time.perf_counter() - start) / calls


def mid_game_states(game_id: str, count: int, **options: Any) -> list[Any]:
    game = load_game(game_id, **options)
    rng = random.Random(11)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        stop = rng.randrange(5, 60)
        while not state.is_terminal() and len(state.history()) < stop:
            if state.is_chance_node():
                state.apply_trusted(state.sample_chance(rng))
            else:
                state.apply_trusted(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state.is_chance_node():
            states.append(state)
    return states


def ismcts_rates(
    states: list[Any], budget: float, rollout: str = "random", openspiel: bool = True
) -> tuple[float, float | None]:
    """Iterations per second of our ISMCTS and of OpenSpiel's Python ISMCTS
    from the same positions, doing the same work: rollouts to the end of the
    game (``horizon=game``; ours ``rollout`` ones, OpenSpiel's random), every
    legal action searched (no pruning), and only the iterations actually run
    counted (ours stops early once the move is settled).

    ``rollout="random"`` is the like-for-like comparison. Until session 17
    this benchmark left ours at the bot's default, which became the steered
    rollouts for Oracle (commit b3007c6): its Oracle ratio then fell from 11
    to about 7 without a word in the table."""
    from oracles.bots.base import SeatInfo
    from oracles.bots.ismcts import ISMCTSBot

    ours_iterations, ours_seconds = 0, 0.0
    while ours_seconds < budget:
        for state in states:
            bot = ISMCTSBot(
                state.current_player(), 1, iterations=100, prune=False, horizon="game", rollout=rollout
            )
            start = time.perf_counter()
            bot.choose(SeatInfo(state, state.current_player()))
            ours_seconds += time.perf_counter() - start
            ours_iterations += sum(bot.searched)  # nothing when only one move was legal
    if not openspiel:
        return ours_iterations / ours_seconds, None
    try:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from oracles.research.openspiel_ismcts import to_openspiel
    except ImportError:
        return ours_iterations / ours_seconds, None
    theirs_iterations, theirs_seconds = 0, 0.0
    rng = np.random.RandomState(3)
    while theirs_seconds < budget:
        for state in states:
            spiel_state = to_openspiel(state)
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
            bot = ismcts.ISMCTSBot(
                spiel_state.get_game(), evaluator, uct_c=0.7, max_simulations=100, random_state=rng
            )
            start = time.perf_counter()
            bot.step(spiel_state)
            theirs_seconds += time.perf_counter() - start
            theirs_iterations += 100
    return ours_iterations / ours_seconds, theirs_iterations / theirs_seconds


def simulate_rate(workers: int, games: int) -> float:
    from oracles.simulate import simulate

    summary = simulate("oracle", games, options={"players": 4, "rounds": 1}, seed=workers, workers=workers)
    return summary.games / summary.seconds


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def ceiling_rate(workers: int, seconds: float = 1.0) -> float:
    """Throughput of a pure Python loop in ``workers`` forked processes
    (no pickling, no results): what this machine gives a second process."""
    import multiprocessing

    n = 300_000
    start = time.perf_counter()
    _spin(n)
    per_call = time.perf_counter() - start
    calls = max(1, int(seconds / per_call))
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with context.Pool(workers) as pool:
        start = time.perf_counter()
        pool.map(_spin, [n] * (calls * workers), chunksize=calls)
        return calls * workers / (time.perf_counter() - start)


def scaling_table(repeats: int) -> list[str]:
    """``oracles simulate`` with 1 and then 2 workers, ``repeats`` times
    interleaved with the same for a pure Python loop (the machine's own
    ceiling, at its load of the moment); the medians and the median of the
    per-pair ratios."""
    import gc

    # A user's `oracles simulate` starts in a fresh process: keep the objects
    # this benchmark made so far (OpenSpiel's games, earlier sections) out of
    # the in-process 1-worker run's garbage collections.
    gc.collect()
    gc.freeze()
    ones, twos, spin_ones, spin_twos = [], [], [], []
    for _ in range(repeats):
        ones.append(simulate_rate(1, 2000))
        twos.append(simulate_rate(2, 4000))
        spin_ones.append(ceiling_rate(1))
        spin_twos.append(ceiling_rate(2))
    one, two = statistics.median(ones), statistics.median(twos)
    ratio = statistics.median(b / a for a, b in zip(ones, twos, strict=True))
    ceiling = statistics.median(b / a for a, b in zip(spin_ones, spin_twos, strict=True))
    label = "" if repeats == 1 else f" (median of {repeats})"
    return [
        "| oracle simulate, 1 round | games/s |",
        "|---|---:|",
        f"| 1 worker{label} | {one:.1f} |",
        f"| 2 workers{label} | {two:.1f} |",
        f"| scaling (target ≥ 1.8){label} | {ratio:.2f} |",
        f"| the machine's ceiling: a pure Python loop, 2 processes ÷ 1{label} | {ceiling:.2f} |",
    ]


def random_sections(args: argparse.Namespace) -> list[str]:
    candidates = [
        ("oracle (4 p)", ours("oracle", players=4)),
        ("inrah (4 p, full game)", ours("inrah", players=4)),
        ("codename", ours("codename")),
        ("OpenSpiel oh_hell (4 p)", openspiel("oh_hell", {"players": 4})),
        ("OpenSpiel hearts", openspiel("hearts", {})),
    ]
    subjects = [Subject(name, fn) for name, fn in candidates if fn is not None]
    missing = [name for name, fn in candidates if fn is None]
    rng = random.Random(2026)
    slice_budget = args.budget / args.slices
    for _ in range(args.slices):
        for subject in subjects:
            subject.run_slice(slice_budget, rng)

    by_name = {s.name: s for s in subjects}
    lines = ["| subject | decisions/s | games/s | spread of slices |", "|---|---:|---:|---:|"]
    for s in subjects:
        spread = statistics.pstdev(s.slices) / statistics.fmean(s.slices) if s.slices else 0.0
        lines.append(f"| {s.name} | {s.rate:,.0f} | {s.games / s.seconds:,.1f} | ±{100 * spread:.0f}% |")
    ratios = []
    for ours_name, theirs_name, target in (
        ("inrah (4 p, full game)", "OpenSpiel oh_hell (4 p)", 1.0),
        ("oracle (4 p)", "OpenSpiel hearts", 1.0),
    ):
        if ours_name in by_name and theirs_name in by_name:
            ratio = by_name[ours_name].rate / by_name[theirs_name].rate
            ratios.append(f"| {ours_name} ÷ {theirs_name} | {ratio:.2f} | ≥ {target} |")
        else:
            ratios.append(f"| {ours_name} ÷ {theirs_name} | not measured (pyspiel missing) | ≥ {target} |")
    return [
        "## Random play",
        "",
        *lines,
        "",
        "## Ratios (same run)",
        "",
        "| ratio | measured | target |",
        "|---|---:|---:|",
        *ratios,
        "",
        *(["Not measured: " + ", ".join(missing) + " (pyspiel is not installed).", ""] if missing else []),
    ]


def cost_table(repeats: int = 1) -> list[str]:
    """Clone, resample and view per call on mid-game states; with ``repeats``
    the medians (the clones a resample costs: the median of its ratios)."""
    label = "" if repeats == 1 else f" (median of {repeats})"
    costs = [f"| call | µs per call{label} |", "|---|---:|"]
    crng = random.Random(5)
    for game_id, opts in (("oracle", {"players": 4}), ("inrah", {"players": 4}), ("codename", {})):
        states = mid_game_states(game_id, 20, **opts)
        clones, resamples, views = [], [], []
        for _ in range(repeats):
            clones.append(per_call(states, lambda s: s.clone(), 0.5))
            resamples.append(
                per_call(states, lambda s: s.resample_from_infostate(s.current_player(), crng), 1.0)
            )
            views.append(per_call(states, lambda s: s.view(s.current_player()), 0.5))
        clone, resample = statistics.median(clones), statistics.median(resamples)
        in_clones = statistics.median(r / c for r, c in zip(resamples, clones, strict=True))
        costs.append(f"| {game_id} clone | {1e6 * clone:.1f} |")
        costs.append(
            f"| {game_id} resample_from_infostate | {1e6 * resample:.1f} "
            f"({in_clones:.1f} clones; target ≤ {RESAMPLE_TARGET}) |"
        )
        costs.append(f"| {game_id} view | {1e6 * statistics.median(views):.1f} |")
    return costs


def search_table(repeats: int = 1) -> list[str]:
    """Our ISMCTS against OpenSpiel's, ``repeats`` times interleaved: with
    random rollouts (the same work as OpenSpiel's) and with the bot's default
    rollouts (``rollout=auto``: steered for Oracle, random elsewhere); each
    ratio is the median of the runs' own ratios."""
    label = "" if repeats == 1 else f", median of {repeats}"
    search = [
        f"| game (positions) | ours it/s, random rollouts | OpenSpiel ISMCTS it/s "
        f"| ratio (target ≥ {SEARCH_TARGET}{label}) | ours it/s, default rollouts | its ratio{label} |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for game_id, opts in (
        ("oracle", {"players": 4, "rounds": 1}),
        ("inrah", {"players": 4, "rounds": 6}),
        ("codename", {}),
    ):
        states = mid_game_states(game_id, 4, **opts)
        randoms, defaults, theirs_runs = [], [], []
        for _ in range(repeats):
            mine, theirs = ismcts_rates(states, 3.0, rollout="random")
            default, _ = ismcts_rates(states, 3.0, rollout="auto", openspiel=False)
            randoms.append(mine)
            defaults.append(default)
            if theirs:
                theirs_runs.append(theirs)
        mine, default = statistics.median(randoms), statistics.median(defaults)
        if theirs_runs:
            theirs = statistics.median(theirs_runs)
            ratio = f"{statistics.median(m / t for m, t in zip(randoms, theirs_runs, strict=True)):.1f}"
            default_ratio = (
                f"{statistics.median(d / t for d, t in zip(defaults, theirs_runs, strict=True)):.1f}"
            )
            theirs_text = f"{theirs:,.0f}"
        else:
            ratio = default_ratio = "not measured"
            theirs_text = "-"
        search.append(
            f"| {game_id} {opts} | {mine:,.0f} | {theirs_text} | {ratio} | {default:,.0f} | {default_ratio} |"
        )
    return search


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=8.0, help="seconds of random play per subject")
    parser.add_argument("--slices", type=int, default=8, help="interleaved slices per subject")
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS,
        help="run only this part (repeatable); prints without writing the results file",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="runs of the costs, the search and the scaling, interleaved; their medians are reported (default 3)",
    )
    args = parser.parse_args()
    parts = set(args.only or PARTS)
    start_load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    sections: list[str] = []
    if "random" in parts:
        sections += random_sections(args)
    if "costs" in parts:
        sections += ["## Cost per call (mid-game states)", "", *cost_table(args.repeats), ""]
    if "search" in parts:
        sections += [
            "## ISMCTS iterations per second (same positions, rollouts to the end of the game,"
            " no pruning, up to 100 iterations a move)",
            "",
            *search_table(args.repeats),
            "",
        ]
    if "scaling" in parts:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        sections += ["## Simulation scaling", "", *scaling_table(args.repeats), ""]
        if args.only:
            sections += [f"Load average before the last run: {load}.", ""]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"
    report = "\n".join(
        [
            "# Engine benchmark",
            "",
            f"Machine: {machine}. Budget {args.budget:g} s per subject in {args.slices} interleaved slices.",
            "",
            f"Commit {commit()}; load average at the start {start_load}.",
            "",
            *sections,
        ]
    )
    print(report)
    if args.only:
        return 0
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
