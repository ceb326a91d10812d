"""Profile our ISMCTS as ``engine.py`` measures it, and print the summary.

``python benchmarks/profile_ismcts.py oracle [--moves 4] [--out FILE]``:
cProfile over ISMCTS moves (100 iterations, random rollouts to the end of
the game, no pruning) from the mid-game positions of ``engine.py``; the
functions by internal time, then by cumulative time. ``--out`` writes the
summary to a file too (``benchmarks/results/profiles/``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from engine import mid_game_states

from oracles.bots.base import SeatInfo
from oracles.bots.ismcts import ISMCTSBot

OPTIONS = {"oracle": {"players": 4, "rounds": 1}, "inrah": {"players": 4, "rounds": 6}, "codename": {}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(OPTIONS))
    parser.add_argument("--moves", type=int, default=4, help="passes over the 4 positions")
    parser.add_argument("--top", type=int, default=25, help="functions listed per ordering")
    parser.add_argument("--out", type=Path, help="also write the summary here")
    args = parser.parse_args()
    states = mid_game_states(args.game, 4, **OPTIONS[args.game])
    profile = cProfile.Profile()
    iterations = 0
    for _ in range(args.moves):
        for state in states:
            bot = ISMCTSBot(state.current_player(), 1, iterations=100, prune=False, horizon="game")
            profile.enable()
            bot.choose(SeatInfo(state, state.current_player()))
            profile.disable()
            iterations += sum(bot.searched)
    out = io.StringIO()
    out.write(f"ISMCTS on {args.game} {OPTIONS[args.game]}: {iterations} iterations\n")
    stats = pstats.Stats(profile, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)
    text = out.getvalue()
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
