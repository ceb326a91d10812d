"""cProfile of random play: the driver loop of ``benchmarks/engine.py``.

``python benchmarks/profile_random.py [--games N] [--out FILE] [game] [key=value ...]``
plays ``N`` random games (seeded) of the game (default ``oracle``,
``players=4``) under cProfile and prints (or writes to ``FILE``) the
functions sorted by own time and by cumulative time, after an unprofiled
run of the same games for the rate without profiler overhead.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from engine import ours


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="oracle")
    parser.add_argument("options", nargs="*", help="game options as key=value (default players=4)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--lines", type=int, default=30, help="rows of each table")
    parser.add_argument("--out", type=Path, help="write the summary here instead of printing it")
    args = parser.parse_args()
    options: dict[str, object] = {"players": 4} if not args.options else {}
    for item in args.options:
        key, _, value = item.partition("=")
        options[key] = int(value) if value.isdigit() else {"true": True, "false": False}.get(value, value)
    play = ours(args.game, **options)

    rng = random.Random(2026)
    started, cpu = time.perf_counter(), time.process_time()
    decisions = sum(play(rng) for _ in range(args.games))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu

    profile = cProfile.Profile()
    rng = random.Random(2026)
    profile.enable()
    for _ in range(args.games):
        play(rng)
    profile.disable()

    text = io.StringIO()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    text.write(
        f"{args.game} {options}: {args.games} random games, {decisions} decisions\n"
        f"unprofiled: {decisions / wall:,.0f} decisions/s wall, {decisions / cpu:,.0f} decisions/s CPU"
        f" (load average {load})\n\n"
    )
    stats = pstats.Stats(profile, stream=text)
    stats.strip_dirs()
    stats.sort_stats("tottime").print_stats(args.lines)
    stats.sort_stats("cumulative").print_stats(args.lines)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text.getvalue(), encoding="utf-8")
    else:
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
