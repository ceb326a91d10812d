"""Games per second on one process, a local pool of 2 workers and a local
Ray with 2 CPUs, measured in one run, and Ray's overhead per game.

Run: ``python benchmarks/distributed.py`` (about two minutes on 2 cores).
Every backend plays the same seeded games (one-round 4-player Oracle between
heuristic bots), so only the speed differs; the table lands in
``benchmarks/results/distributed.md``. Ray's start-up is measured apart
(``ray.init`` to a first finished task) and left out of its rate, since a
long run pays it once.
"""

from __future__ import annotations

import argparse
import platform
import time
from datetime import date
from pathlib import Path

from oracles.simulate import simulate

RESULTS = Path(__file__).parent / "results" / "distributed.md"
OPTIONS = {"players": 4, "rounds": 1}
BOTS = ["heuristic"]


def rate(games: int, **backend: object) -> tuple[float, float]:
    """Games per second and the run's seconds."""
    summary = simulate("oracle", games, options=OPTIONS, bot_specs=BOTS, seed=1, **backend)  # type: ignore[arg-type]
    return games / summary.seconds, summary.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=400, help="games per backend (default 400)")
    args = parser.parse_args()
    import ray

    one, _ = rate(args.games)
    two, _ = rate(args.games, workers=2)
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.get(ray.remote(lambda: None).remote())
    startup = time.perf_counter() - started
    try:
        on_ray, _ = rate(args.games, workers=2, backend="ray")
    finally:
        ray.shutdown()
    # Overhead per game: what a game costs on Ray beyond an ideal split of
    # the one-process time over 2 CPUs.
    overhead_ms = max(0.0, (1 / on_ray - 1 / (2 * one)) * 1000)
    lines = [
        "# Simulation backends",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, {date.today()}. "
        f"{args.games} one-round 4-player Oracle games between heuristic bots per backend, seed 1.",
        "",
        "| backend | games/s | ÷ one process |",
        "|---|---:|---:|",
        f"| one process | {one:.1f} | 1.00 |",
        f"| 2 local workers | {two:.1f} | {two / one:.2f} |",
        f"| local Ray, 2 CPUs | {on_ray:.1f} | {on_ray / one:.2f} |",
        "",
        f"Ray start-up (init to a first task): {startup:.1f} s. "
        f"Ray's overhead per game against an ideal 2-CPU split: {overhead_ms:.2f} ms.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
