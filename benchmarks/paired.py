"""Is a change to a bot worth anything? ``python benchmarks/paired.py``.

Two specs of ours, *A* (the change) and *B* (as it is), each take one seat
against the same opponents on the same duplicate deals, in every seating
(``oracles.tournament``: the same deal and seat give both the same cards).
Each game of A is paired with B's game on that deal and seat, so the
difference of their win shares cancels most of the luck of the cards: its
interval is far narrower than the two shares' own. This is how the trials
in ``docs/bots.md`` were screened.

    nice -n 10 .venv/bin/python benchmarks/paired.py --game inrah --rounds 5 \\
        --a ismcts:iterations=4400:c=1.2 --b ismcts:iterations=4400 \\
        --opp openspiel_ismcts:simulations=96 --deals 25 --workers 2

Budgets are fixed (iterations, simulations), so a busy machine changes how
long the run takes, not its result; the seconds a move each side took are
shown so that a change that thinks longer is seen to. A win share counts a
tie as a split win (fair: one over the number of seats). ``--out`` appends
the row to a Markdown file.

A spec may name one of the searches that cheat (``peeking.py``:
``true_hands``, ``true_keeps``, ``true_state``), to measure on the same
deals what the hidden cards would be worth to the search:

    nice -n 10 .venv/bin/python benchmarks/paired.py --game oracle --players 4 \\
        --rounds 1 --a true_hands:iterations=1014 --b ismcts:iterations=1014 \\
        --opp openspiel_ismcts:simulations=124 --deals 25 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracles.core.errors import OraclesError
from oracles.core.inputs import load_game_checked
from oracles.simulate import mean_interval
from oracles.tournament import TournamentGame, run_tournament

sys.path.insert(0, str(Path(__file__).parent))
import peeking

#: Per (deal, the hero's seat): the hero's win share, score and mean seconds
#: a move, and the other seats' mean score.
Line = dict[tuple[int, int], tuple[float, float, float, float]]


def play_line(
    game_id: str, hero: str, opponent: str, options: dict[str, Any], deals: int, seed: int, workers: int
) -> Line:
    """The hero, one seat against ``opponent`` at the others, on ``deals``
    duplicate deals in every seating (:data:`Line`)."""
    seats = load_game_checked(game_id, options).num_players
    games: Line = {}

    def on_game(result: TournamentGame) -> None:
        seat = result.lineup.index(hero)
        share = 1 / len(result.winners) if seat in result.winners else 0.0
        think = result.think[seat]
        theirs = statistics.fmean(s for other, s in enumerate(result.scores) if other != seat)
        games[result.deal, seat] = (
            share,
            result.scores[seat],
            statistics.fmean(think) if think else 0.0,
            theirs,
        )

    run_tournament(
        game_id,
        [hero, *[opponent] * (seats - 1)],
        deals,
        options=options,
        seed=seed,
        workers=workers,
        on_game=on_game,
    )
    return games


def compare(
    a: Mapping[tuple[int, int], tuple[float, ...]], b: Mapping[tuple[int, int], tuple[float, ...]]
) -> dict[str, float]:
    """A's and B's shares, scores and seconds a move, and the paired
    difference of the shares with its 95% interval, over the games both
    played.

    >>> f = compare({(0, 0): (1.0, 9, 0.1), (0, 1): (0.5, 5, 0.1)}, {(0, 0): (0.0, 4, 0.1), (0, 1): (0.5, 5, 0.1)})
    >>> f["games"], f["a"], f["b"], f["diff"]
    (2, 75.0, 25.0, 50.0)
    """
    keys = sorted(a.keys() & b.keys())
    diff, half = mean_interval([a[k][0] - b[k][0] for k in keys])
    return {
        "games": len(keys),
        "a": 100 * statistics.fmean(a[k][0] for k in keys),
        "b": 100 * statistics.fmean(b[k][0] for k in keys),
        "diff": 100 * diff,
        "half": 100 * half,
        "score_a": statistics.fmean(a[k][1] for k in keys),
        "score_b": statistics.fmean(b[k][1] for k in keys),
        "think_a": statistics.fmean(a[k][2] for k in keys),
        "think_b": statistics.fmean(b[k][2] for k in keys),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="oracle", help="game id (default: oracle)")
    parser.add_argument("--players", type=int, help="seats (Oracle, Inrah; default 4)")
    parser.add_argument("--rounds", type=int, help="rounds (Oracle, Inrah)")
    parser.add_argument("--a", required=True, help="our spec with the change")
    parser.add_argument("--b", required=True, help="our spec as it is")
    parser.add_argument("--opp", default="heuristic", help="the spec of every other seat")
    parser.add_argument("--deals", type=int, default=25, help="deals, each in every seating")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="append the row to this Markdown file")
    args = parser.parse_args(argv)
    peeking.register()
    if args.opp in (args.a, args.b) or args.a == args.b:
        parser.error("--a, --b and --opp must be three different specs")
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    if args.rounds is not None:
        options["rounds"] = args.rounds
    start = time.perf_counter()
    try:
        lines = [
            play_line(args.game, spec, args.opp, options, args.deals, args.seed, args.workers)
            for spec in (args.a, args.b)
        ]
    except OraclesError as error:
        print(f"paired: {error}", file=sys.stderr)
        return 2
    f = compare(*lines)
    row = (
        f"| {args.game} | `{args.a}` | `{args.b}` | `{args.opp}` | {f['games']} | {f['a']:.1f}% | "
        f"{f['b']:.1f}% | {f['diff']:+.1f} ± {f['half']:.1f} | {f['score_a']:.1f} vs {f['score_b']:.1f} | "
        f"{f['think_a']:.3f} vs {f['think_b']:.3f} |"
    )
    print("| game | A | B | against | games | A's share | B's share | A − B, paired | mean score | s/move |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    print(row)
    print(f"seed {args.seed}, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as out:
            out.write(row + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
