"""Bots on a busy server: does every table's bot keep its pace?

``python benchmarks/bot_queue.py`` plays Oracle tables of four, three seats
people and one a bot (``--spec``, default ``ismcts:seconds=0.2``), through
the server's own bot queue (``oracles.server.bots.BotRunner`` with
``default_bot_workers()`` processes, one a core, and its fair order) for
``--seconds`` at each count of ``--tables``. A person moves 1 to 3 s after
their turn comes, as in ``benchmarks/server.py``. Each bot turn is timed
from the moment the table asks for the bot's move to the moment the move
comes back. Issue 38's bound for that time: the bot's own budget, plus the
pause (none here), plus one other bot's budget, since a worker that is busy
when the bot asks is busy with one other bot at most. The report gives the
percentiles, the share of bot turns over the bound, the share of the
workers' time the bots would ask for at their full budgets (over 100%: they
cannot all have it, whatever the order), and the shares of their budgets
the queue gave them (see ``oracles.server.bots``, "Pace under load"). Results are appended to ``benchmarks/results/bots.md``
(``--out``); ``--quick`` is a small run for tests that writes only where
``--out`` says.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from reporting import commit, percentile

from oracles.core.registry import load_game
from oracles.server.bots import UNATTENDED, BotRunner, time_budget
from oracles.server.config import default_bot_workers

RESULTS = Path(__file__).parent / "results" / "bots.md"
#: The bot's seat at every table (the other three are people).
BOT_SEAT = 3


async def table(
    runner: BotRunner,
    spec: str,
    seed: int,
    until: float,
    latencies: list[float],
    options: dict[str, int],
    think: tuple[float, float] = (1.0, 3.0),
) -> None:
    """One table, played until ``until``: its people by random legal moves
    after ``think`` seconds (1–3 s), its bot through the queue (each bot
    turn timed)."""
    rng = random.Random(seed)
    game = load_game("oracle", **options)
    state, texts = game.new_initial_state(), []
    # Tables do not all sit down in the same instant: each starts within
    # a person's longest pause, so their first keeps do not all ask at once.
    await asyncio.sleep(rng.uniform(0, think[1]))
    while time.monotonic() < until:
        if state.is_terminal():
            state, texts = game.new_initial_state(), []
            continue
        if state.is_chance_node():
            action = state.sample_chance(rng)
        elif state.current_player() == BOT_SEAT:
            asked = time.monotonic()
            text = await runner.choose("oracle", options, texts, BOT_SEAT, spec, UNATTENDED)
            if time.monotonic() <= until:
                latencies.append(time.monotonic() - asked)
            action = state.string_to_action(text)
        else:
            await asyncio.sleep(rng.uniform(*think))
            action = rng.choice(state.legal_actions())
        texts.append(state.action_to_string(action))
        state.apply_action(action)


async def measure(
    tables: int,
    spec: str,
    seconds: float,
    workers: int,
    options: dict[str, int],
    think: tuple[float, float] = (1.0, 3.0),
) -> dict[str, float]:
    runner = BotRunner("process", workers)
    latencies: list[float] = []  # sorted once the run is over
    try:
        # The workers start (and import the game) before the clock runs.
        state, texts, rng = load_game("oracle", **options).new_initial_state(), [], random.Random(0)
        while state.is_chance_node():
            action = state.sample_chance(rng)
            texts.append(state.action_to_string(action))
            state.apply_action(action)
        await asyncio.gather(
            *(
                runner.choose("oracle", options, texts, state.current_player(), "random")
                for _ in range(workers)
            )
        )
        until = time.monotonic() + seconds
        await asyncio.gather(
            *(table(runner, spec, seed, until, latencies, options, think) for seed in range(tables))
        )
    finally:
        await runner.aclose()
    latencies.sort()
    budget = time_budget(spec)
    bound = 2 * budget
    return {
        "tables": tables,
        "workers": workers,
        "bot_turns": len(latencies),
        "p50": percentile(latencies, 0.5),
        "p95": percentile(latencies, 0.95),
        "max": latencies[-1] if latencies else float("nan"),
        "over": sum(x > bound for x in latencies) / len(latencies) if latencies else float("nan"),
        "bound": bound,
        # Over the measured window (the turns counted are those answered in it).
        "demand": len(latencies) * budget / (workers * seconds) if budget else float("nan"),
        "mean": statistics.fmean(latencies) if latencies else float("nan"),
        # The shares of their budgets the bots thought for (the queue cuts
        # them when more choices wait than there are workers).
        "mean_share": runner.share_total / runner.shares_given if runner.shares_given else float("nan"),
        "least_share": runner.least_share,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--spec", default="ismcts:seconds=0.2", help="the bot at every table")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds at each count")
    parser.add_argument(
        "--workers", type=int, default=default_bot_workers(), help="bot processes (default: the cores)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="4 tables, 5 s, a tiny search, quick people (for tests)"
    )
    parser.add_argument("--out", type=Path, help=f"the markdown file to append to (default {RESULTS})")
    args = parser.parse_args(argv)
    options = {"players": 4}
    think = (1.0, 3.0)
    if args.quick:
        think = (0.05, 0.2)
        args.tables, args.seconds, args.spec = [4], 5.0, "ismcts:iterations=5:seconds=0.05"
        if args.out is None:
            parser.error("--quick writes only where --out says")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = []
    for tables in args.tables:
        found = asyncio.run(measure(tables, args.spec, args.seconds, args.workers, options, think))
        rows.append(
            f"| {tables} | {found['workers']} | {found['bot_turns']} | {found['p50']:.2f} | {found['p95']:.2f} "
            f"| {found['max']:.2f} | {found['bound']:.2f} | {100 * found['over']:.0f}% | {100 * found['demand']:.0f}% "
            f"| {100 * found['mean_share']:.0f}% | {100 * found['least_share']:.0f}% |"
        )
        print(rows[-1], file=sys.stderr)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    report = "\n".join(
        [
            f"## {when}, commit {commit()}",
            "",
            f"Bot `{args.spec}` at seat 4 of Oracle tables of four, three people moving {think[0]:g}–{think[1]:g} s "
            f"after their turn (each table starting within the first {think[1]:g} s); {args.seconds:g} s at each count; load average at the start {load}; "
            f"{os.cpu_count()} cores. A bot turn is timed from asking to its move; the bound is its budget "
            "plus one other bot's. *Demand*: the turns answered times the bot's budget, over the workers' "
            "time (a turn with one legal move is answered at once, so it may pass 100%). *Share*: of its "
            "budget, what a bot was given to think when its worker took it (mean, least): the queue cuts it "
            "while more bots wait than there are workers. A search may stop before its share is out, once its "
            "move is settled.",
            "",
            "| tables | workers | bot turns | p50 s | p95 s | max s | bound s | over the bound | demand "
            "| mean share | least share |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
        ]
    )
    print(report)
    out = args.out or RESULTS
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            "# Bots on a busy server\n\n`benchmarks/bot_queue.py`: see its docstring.\n", encoding="utf-8"
        )
    with out.open("a", encoding="utf-8") as handle:
        handle.write("\n" + report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
