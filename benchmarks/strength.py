"""The bots' strength matrix, in one run: ``python benchmarks/strength.py``.

Each row is a tournament (``oracles.tournament``): duplicate deals, every seat
rotation, so each bot meets the same cards from every seat. The table, with
95% intervals and the targets of the bots issue, goes to stdout and to
``benchmarks/results/strength.md``.

Each row's latest figures are kept in ``benchmarks/results/strength.json``,
so ``--only 2,4`` re-measures two rows and the table still shows all nine.
Rows 7 to 9 are head to head with OpenSpiel's ISMCTS at equal time
(``docs/bots.md``), its simulations calibrated in the same run.
The full matrix takes about 1.5 hours on 2 idle cores (200 games in each
ISMCTS row, 800 in the others); ``--quick`` plays fewer deals and, with
``--oracle-rounds``/``--inrah-rounds``, shorter games, and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from oracles.tournament import lineups, run_tournament

RESULTS = Path(__file__).parent / "results" / "strength.md"
#: Every row's latest measurement, so that ``--only`` re-measures some rows
#: and the table still shows all of them.
STORE = RESULTS.with_suffix(".json")


#: The ISMCTS entrant of each game. An iteration budget keeps a row's result
#: from depending on the machine's load (as long as the cap does not bind);
#: ``seconds=0.5`` caps every move at the bots issue's 0.5 s. Random rollouts
#: give Oracle and Inrah more iterations and won more in trials; Codename
#: needs heuristic rollouts (random players guess themselves to death, which
#: tells the search nothing), stopped at the end of the turn and scored by the
#: position evaluator (``horizon=auto``).
ISMCTS = {
    "oracle": "ismcts:iterations=200:seconds=0.5:rollout=random",
    "inrah": "ismcts:iterations=1000:seconds=0.5:rollout=random",
    "codename": "ismcts:iterations=150:seconds=0.5:rollout=heuristic",
}


@dataclass(frozen=True)
class Row:
    game: str
    label: str
    bots: list[str]
    options: dict[str, Any]
    metric: str  # "win" (win rate of bots[0]), "score_gap" (mean score bots[0] - bots[1]) or "share"
    target: float
    deals: int


#: Thinking time per move of the head-to-head rows (ours and OpenSpiel's).
H2H_SECONDS = 0.2
#: The two sides of a head-to-head row, each given a fixed budget a move
#: (iterations, simulations) calibrated in the same run to take
#: ``H2H_SECONDS``: fixed budgets keep the match fair whatever the load does
#: during the row (a clock budget would give the side measured by the clock
#: more search when the load drops). Ours is the default search.
H2H_OURS = "ismcts"
H2H_THEIRS = "openspiel_ismcts"
#: Spec and the budget parameter probed, per side.
_BUDGET = {H2H_OURS: ("ismcts:iterations={}", 100), H2H_THEIRS: ("openspiel_ismcts:simulations={}", 20)}


def calibrate(side: str, game_id: str, options: dict[str, Any], seconds: float) -> int:
    """The budget of ``side`` (iterations, simulations) that takes
    ``seconds`` a move in this game, timed now (same machine, same load as
    the row that follows) over decisions of random games, the same for both
    sides. Only the iterations actually run count (ours stops early once a
    move is settled)."""
    import random

    from oracles.bots.base import SeatInfo
    from oracles.bots.specs import make_bot
    from oracles.core.registry import load_game

    template, probe = _BUDGET[side]
    game = load_game(game_id, **options)
    rng = random.Random(f"calibrate:{game_id}")
    spent, work = 0.0, 0
    while spent < 4.0:  # a few seconds of probing per side and row
        state = game.new_initial_state()
        stop = rng.randrange(2, 40)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_trusted(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and stop <= 0:
                bot = make_bot(template.format(probe), state.current_player(), stop)
                begin = time.perf_counter()
                bot.choose(SeatInfo(state, state.current_player()))
                spent += time.perf_counter() - begin
                work += sum(getattr(bot, "searched", [probe]))
                break
            stop -= 1
            state.apply_trusted(rng.choice(legal))
    return max(1, round(seconds * work / spent))


def share_figures(data: dict[str, Any], shares: list[float], hero: str) -> tuple[str, bool]:
    """A head-to-head row: the hero's win share (a tie splits the win) with
    its interval, met when at least the target and the hero's mean score is
    above the others'."""
    from oracles.simulate import mean_interval

    share, half = mean_interval(shares)
    by_bot = {r["bot"]: r for r in data["bots"]}
    ours = by_bot[hero]["mean_score"]
    theirs = [r["mean_score"] for r in data["bots"] if r["bot"] != hero]
    shown = f"{100 * share:.1f}% ± {100 * half:.1f}; mean {ours:.1f} vs {max(theirs):.1f}"
    return shown, ours > max(theirs)


def measure(row: Row, workers: int, seed: int, title: str) -> dict[str, Any]:
    start = time.perf_counter()
    bots = list(row.bots)
    calibrated = ""
    if H2H_THEIRS in bots:
        budgets = {side: calibrate(side, row.game, row.options, H2H_SECONDS) for side in _BUDGET}
        bots = [_BUDGET[b][0].format(budgets[b]) if b in _BUDGET else b for b in bots]
        calibrated = (
            f" ({budgets[H2H_OURS]} iterations and {budgets[H2H_THEIRS]} simulations ≈ "
            f"{H2H_SECONDS:g} s a move, calibrated in this run)"
        )
    games = row.deals * len(lineups(bots, len(bots)))
    shares: list[float] = []

    def on_game(result: Any) -> None:
        seat = result.lineup.index(bots[0])
        shares.append(1 / len(result.winners) if seat in result.winners else 0.0)
        progress.advance(task)

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(title, total=games)
        data = run_tournament(
            row.game, bots, row.deals, options=row.options, seed=seed, workers=workers, on_game=on_game
        )
    by_bot = {r["bot"]: r for r in data["bots"]}
    hero = by_bot[bots[0]]
    if row.metric == "share":
        shown, mean_higher = share_figures(data, shares, bots[0])
        share = sum(shares) / len(shares)
        met = 100 * share >= row.target and mean_higher
        target = f"≥ {row.target:g}% and a higher mean"
    elif row.metric == "win":
        low, high = hero["win_rate_ci95"]
        value = 100 * hero["win_rate"]
        shown = f"{value:.1f}% ({100 * low:.1f}–{100 * high:.1f})"
        met = value >= row.target
        target = f"≥ {row.target:g}%"
    else:
        other = by_bot[row.bots[1]]
        value = hero["mean_score"] - other["mean_score"]
        half = (hero["mean_score_ci95"] ** 2 + other["mean_score_ci95"] ** 2) ** 0.5
        shown = f"{value:+.1f} ± {half:.1f}"
        met = value >= row.target
        target = f"≥ +{row.target:g}"
    opts = ", ".join(f"{k}={v}" for k, v in row.options.items()) or "defaults"
    return {
        "game": row.game,
        "match": row.label + calibrated,
        "options": opts,
        "games": data["games"],
        "deals": row.deals,
        "workers": workers,
        "shown": shown,
        "target": target,
        "met": met,
        "seconds": round(time.perf_counter() - start),
        "think_mean_s": hero["think_mean_s"],
        "think_max_s": hero["think_max_s"],
        "measured_on": time.strftime("%Y-%m-%d"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=200, help="deals per random/heuristic row (Codename: twice as many)"
    )
    parser.add_argument(
        "--ismcts-deals", type=int, default=50, help="deals per ISMCTS row (Codename: twice as many)"
    )
    parser.add_argument(
        "--h2h-deals",
        type=int,
        default=50,
        help="deals per head-to-head row (4 seatings; Codename: 2, twice the deals)",
    )
    parser.add_argument("--ismcts", help="one ISMCTS spec for every game (default: per game, below)")
    parser.add_argument("--oracle-rounds", type=int, help="rounds per Oracle game (default: the game's)")
    parser.add_argument("--inrah-rounds", type=int, help="rounds per Inrah game (default: full game)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few deals, short games")
    parser.add_argument("--only", help="comma-separated row numbers to run (1-9)")
    args = parser.parse_args()
    ismcts = dict(ISMCTS)
    if args.quick:
        args.deals, args.ismcts_deals, args.h2h_deals = 10, 2, 1
        args.ismcts = args.ismcts or "ismcts:iterations=50:rollout=heuristic"
        args.oracle_rounds = args.oracle_rounds or 1
        args.inrah_rounds = args.inrah_rounds or 5

    oracle: dict[str, Any] = {"players": 4}
    if args.oracle_rounds:
        oracle["rounds"] = args.oracle_rounds
    inrah: dict[str, Any] = {"players": 4}
    if args.inrah_rounds:
        inrah["rounds"] = args.inrah_rounds
    if args.ismcts:
        ismcts = dict.fromkeys(ismcts, args.ismcts)
    h, r, os_, us = "heuristic", "random", H2H_THEIRS, H2H_OURS
    # The head-to-head settings: Inrah over 5 rounds, Oracle one round.
    h2h_inrah = {"players": 4, "rounds": args.inrah_rounds or 5}
    h2h_oracle = {"players": 4, "rounds": args.oracle_rounds or 1}
    mo, mi, mc = ismcts["oracle"], ismcts["inrah"], ismcts["codename"]
    rows = [
        Row("oracle", "1 heuristic vs 3 random", [h, r, r, r], oracle, "win", 50, args.deals),
        Row("oracle", f"1 {mo} vs 3 heuristic", [mo, h, h, h], oracle, "win", 35, args.ismcts_deals),
        Row(
            "inrah", "1 heuristic vs 3 random (score gap)", [h, r, r, r], inrah, "score_gap", 100, args.deals
        ),
        Row("inrah", f"1 {mi} vs 3 heuristic", [mi, h, h, h], inrah, "win", 35, args.ismcts_deals),
        # Two seatings a deal instead of four: twice the deals for as many games.
        Row("codename", "heuristic vs random", [h, r], {}, "win", 90, 2 * args.deals),
        Row("codename", f"{mc} vs heuristic", [mc, h], {}, "win", 60, 2 * args.ismcts_deals),
        # Head to head with OpenSpiel's ISMCTS at equal time (the bots issues):
        # one of ours against three of theirs at 4 players; issue 35 raised
        # the shares wanted from 40% to 55% (Inrah) and 50% (Oracle).
        Row("codename", "ISMCTS vs OpenSpiel ISMCTS", [us, os_], {}, "win", 75, args.h2h_deals * 2),
        Row(
            "inrah",
            "1 ISMCTS vs 3 OpenSpiel ISMCTS",
            [us, os_, os_, os_],
            h2h_inrah,
            "share",
            55,
            args.h2h_deals,
        ),
        Row(
            "oracle",
            "1 ISMCTS vs 3 OpenSpiel ISMCTS",
            [us, os_, os_, os_],
            h2h_oracle,
            "share",
            50,
            args.h2h_deals,
        ),
    ]
    chosen = {int(x) for x in args.only.split(",")} if args.only else set(range(1, len(rows) + 1))
    store: dict[str, Any] = json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}
    if args.quick:
        store = {}
    for number, row in enumerate(rows, start=1):
        if number not in chosen:
            continue
        result = measure(row, args.workers, args.seed, f"[{number}] {row.game}: {row.label}")
        if not args.quick:
            # Re-read first: another run of this script may have stored other rows meanwhile.
            store = json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}
            STORE.write_text(
                json.dumps({**store, str(number): result}, indent=1, ensure_ascii=False) + "\n",
                encoding="utf-8",
            )
        store[str(number)] = result

    lines = [
        "# Bot strength",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
        f"Seed: {args.seed}. Every deal is played under every seat rotation (duplicate deals). "
        "*s/move* is the first bot's mean (max) thinking time over its moves with a choice, measured "
        "in the run (other processes running at the same time make it longer)."
        + (" Quick run (smoke test, not the real figures)." if args.quick else ""),
        "",
        "| # | game | match | options | deals × seatings = games | measured (95% CI) | target | met "
        "| s/move | time (workers) | measured on |",
        "|---:|---|---|---|---:|---:|---:|:---:|---:|---:|---|",
    ]
    for number in sorted(store, key=int):
        res = store[number]
        games = res["games"]
        lines.append(
            f"| {number} | {res['game']} | {res['match']} | {res['options']} | "
            f"{res['deals']} × {games // res['deals']} = {games} | {res['shown']} | {res['target']} | "
            f"{'yes' if res['met'] else 'no'} | {res['think_mean_s']:.3f} ({res['think_max_s']:.2f}) | "
            f"{res['seconds']} s ({res['workers']}) | {res['measured_on']} |"
        )
    lines.append("")
    report = "\n".join(lines)
    print(report)
    if not args.quick:
        RESULTS.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
