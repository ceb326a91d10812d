"""What the search's inference about hidden hands is worth:
``python benchmarks/inference.py``.

Three searches play the same duplicate deals, each as one seat against
three of OpenSpiel's ISMCTS (the head-to-head rows of ``strength.py``, at
the budgets calibrated there for 0.2 s a move):

- *floor*: the search without inference (``infer=0``, the default): every
  world it draws deals the unseen cards at random;
- *new*: the same search with inference (``infer=``:data:`POOL`), which
  weighs its worlds by how likely the other seats' card plays (Oracle), or
  bids and card plays (Inrah), were in them;
- *ceiling*: the search handed the true hands of the other seats
  (``true_hands``, a cheat that exists only in the benchmarks, see
  ``peeking.py``; Oracle's hidden prophecies stay resampled), the most that
  knowing the hands could give.

Before the games, a cheaper figure says how much the other seats' actions
tell about their hands at all (``information``): at positions of games
between search bots, how much more probability the weighed worlds put on
the true holder of each hidden card than the plain ones, in nats a card
(0: nothing learnt; the true hands would give the plain worlds' whole
uncertainty).

Both searches replay exactly (OpenSpiel's draws its worlds from its own
seeded source), so a deal and seat give the same game up to our seat's
choices: each line's games pair one by one with the floor's, and the
paired difference of the win shares (``paired.compare``) is narrower
than that of two unpaired lines (in Oracle about ±8.7 points against ±10.7
for 160 games). The tables (information; win share with
its interval, the paired difference against the floor, mean scores) go
to stdout and to ``benchmarks/results/inference.md``.

    nice -n 10 .venv/bin/python benchmarks/inference.py --only oracle --deals 40 \\
        --workers 2 --out benchmarks/results/inference-exact-oracle.md
    .venv/bin/python benchmarks/inference.py --only inrah --deals 16 \\
        --out benchmarks/results/inference-exact-inrah.md
    .venv/bin/python benchmarks/inference.py --quick     # a smoke run, writes nothing
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from oracles.bots.hooks import inference_for
from oracles.bots.ismcts import ISMCTSBot, tempered
from oracles.core.game import State
from oracles.core.registry import load_game
from oracles.simulate import mean_interval, play_game

sys.path.insert(0, str(Path(__file__).parent))
import peeking
import strength
from paired import Line, compare, play_line
from strength import H2H_SECONDS, H2H_THEIRS, calibrate

RESULTS = Path(__file__).parent / "results" / "inference.md"
#: The worlds a move of the *new* line draws and weighs.
POOL = 200
#: The lines a game can play (``--lines``).
LINES = ("floor", "new", "ceiling")
#: The games measured, with the head-to-head rows' options.
GAMES: dict[str, dict[str, Any]] = {
    "oracle": {"players": 4, "rounds": 1},
    "inrah": {"players": 4, "rounds": 5},
}


def _holds(world: State, seat: int, card: int) -> bool:
    hand = world._hands[seat]  # type: ignore[attr-defined]
    return bool(hand >> card & 1) if isinstance(hand, int) else card in hand


def information(game_id: str, games: int, bots: str, seed: int, pool: int = POOL) -> dict[str, Any]:
    """How much the inference learns about the hidden hands: at every fifth
    decision of ``games`` games between ``bots`` (all seats), from the
    deciding seat's view, the mean log-probability that ``pool`` worlds put
    on the true holder of each card hidden in another seat's hand, weighed
    (``ess`` at its default) and plain."""
    game = load_game(game_id, **GAMES[game_id])
    inference = inference_for(game_id)
    assert inference is not None
    rng = random.Random(seed)
    share = ISMCTSBot.ess
    plain = weighed = 0.0
    cards = positions = 0
    for index in range(games):
        final, _ = play_game(game, [bots] * game.num_players, f"info:{seed}:{index}")
        state = game.new_initial_state()
        for step, action in enumerate(final.history()):
            if not state.is_chance_node() and step % 5 == 0:
                seat = state.current_player()
                weigh = inference(state, seat)
                if weigh is not None:
                    worlds = [state.resample_from_infostate(seat, rng) for _ in range(pool)]
                    weights = tempered([weigh(w) for w in worlds], share * pool)
                    total = sum(weights)
                    positions += 1
                    for other in range(game.num_players):
                        if other == seat:
                            continue
                        for card in range(game.num_distinct_actions()):
                            if not _holds(state, other, card):
                                continue
                            hits = [_holds(w, other, card) for w in worlds]
                            if all(hits):
                                continue  # known for sure
                            # Half a world of prior on each side, so that no card gets 0.
                            flat = (sum(hits) + 0.5) / (pool + 1.0)
                            held = sum(w for w, h in zip(weights, hits, strict=True) if h)
                            weight = (held + 0.5 * total / pool) / (total * (1.0 + 1.0 / pool))
                            plain += math.log(flat)
                            weighed += math.log(weight)
                            cards += 1
            state.apply_action(action)
    return {
        "game": game_id,
        "bots": bots,
        "games": games,
        "positions": positions,
        "cards": cards,
        "plain": plain / max(cards, 1),
        "weighed": weighed / max(cards, 1),
    }


def calibrated(template: str, game_id: str, floor: int) -> int:
    """The iterations of our search spec ``template`` (``{}`` for the
    iterations) that take :data:`H2H_SECONDS` a move, ``floor`` being the
    plain search's. The pool a move of the inference draws and weighs is a
    fixed cost a move, not one an iteration, so the spec is timed at
    ``floor`` iterations (``strength.calibrate`` scales linearly from its
    probe, which would charge the pool to every iteration: the first run
    gave the inference's line half the plain search's time), and the
    iterations the pool's time would have bought are taken off."""
    saved = strength._BUDGET[strength.H2H_OURS]
    strength._BUDGET[strength.H2H_OURS] = (template, floor)
    try:
        scaled = calibrate(strength.H2H_OURS, game_id, GAMES[game_id], H2H_SECONDS)
    finally:
        strength._BUDGET[strength.H2H_OURS] = saved
    # At ``floor`` iterations a move took H2H_SECONDS * floor / scaled; each
    # iteration costs H2H_SECONDS / floor, so the excess is this many.
    return max(1, round(floor * (2 - floor / scaled)))


def measure(
    game_id: str,
    deals: int,
    workers: int,
    seed: int,
    budgets: tuple[int, int, int],
    only: tuple[str, ...] = LINES,
) -> list[dict[str, Any]]:
    options = GAMES[game_id]
    iterations, inferring, simulations = budgets
    theirs = f"{H2H_THEIRS}:simulations={simulations}"
    lines = [
        ("floor: no inference", f"ismcts:iterations={iterations}"),
        ("new: inference", f"ismcts:iterations={inferring}:infer={POOL}"),
        ("ceiling: the true hands", f"true_hands:iterations={iterations}"),
    ]
    rows = []
    floor: Line | None = None
    for label, ours in lines:
        if label.split(":")[0] not in only:
            continue
        start = time.perf_counter()
        # Per (deal, our seat), so that each line pairs game by game with the floor's.
        games = play_line(game_id, ours, theirs, options, deals, seed, workers)
        share, half = mean_interval([g[0] for g in games.values()])
        row: dict[str, Any] = {
            "game": game_id,
            "line": label,
            "spec": ours,
            "games": len(games),
            "share": 100 * share,
            "half": 100 * half,
            "ours": sum(g[1] for g in games.values()) / len(games),
            "theirs": sum(g[3] for g in games.values()) / len(games),
            "think": sum(g[2] for g in games.values()) / len(games),
            "seconds": round(time.perf_counter() - start),
            "paired": None if floor is None else compare(games, floor),
        }
        if floor is None and label.startswith("floor"):
            floor = games
        paired = row["paired"]
        print(
            f"{game_id} {label}: share {row['share']:.1f}% ± {row['half']:.1f}, "
            f"mean {row['ours']:.1f} vs {row['theirs']:.1f} ({row['seconds']} s)"
            + (f", against the floor {paired['diff']:+.1f} ± {paired['half']:.1f}" if paired else ""),
            flush=True,
        )
        rows.append(row)
    return rows


def information_table(infos: list[dict[str, Any]]) -> list[str]:
    """The report's lines on what the actions tell (``information``)."""
    return [
        "What the other seats' actions tell about their hands: the mean log-probability, in nats, "
        f"that {POOL} worlds put on the true holder of each card hidden in another seat's hand, at "
        "every fifth decision of games between search bots, plain and weighed by the inference:",
        "",
        "| game | every seat | games | positions | hidden cards | plain | weighed | learnt a card |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {i['game']} | `{i['bots']}` | {i['games']} | {i['positions']} | {i['cards']} | "
            f"{i['plain']:.4f} | {i['weighed']:.4f} | {i['weighed'] - i['plain']:+.4f} |"
            for i in infos
        ),
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals a line (each in four seatings)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", help="comma-separated games (oracle, inrah)")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: one deal, tiny budgets, writes nothing"
    )
    parser.add_argument("--info-games", type=int, default=40, help="games for the information figure")
    parser.add_argument("--info-bots", default="ismcts:iterations=300", help="the bot of every seat there")
    parser.add_argument(
        "--lines", default=",".join(LINES), help="comma-separated lines (floor, new, ceiling)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the report goes")
    args = parser.parse_args(argv)
    peeking.register()
    games = args.only.split(",") if args.only else list(GAMES)
    rows = []
    budgets = {}
    infos = []
    only = tuple(args.lines.split(","))
    if unknown := set(only) - set(LINES):
        parser.error(f"unknown lines: {', '.join(sorted(unknown))} (known: {', '.join(LINES)})")
    for game_id in games:
        info_games = 1 if args.quick else args.info_games
        if info_games <= 0:
            continue
        bots = "ismcts:iterations=10" if args.quick else args.info_bots
        found = information(game_id, info_games, bots, args.seed)
        print(
            f"{game_id} information: {found['weighed'] - found['plain']:+.4f} nats a hidden card "
            f"({found['cards']} cards at {found['positions']} positions)",
            flush=True,
        )
        infos.append(found)
    for game_id in games:
        if args.quick:
            budgets[game_id] = (20, 20, 5)
            args.deals = 1
        else:
            floor = calibrate("ismcts", game_id, GAMES[game_id], H2H_SECONDS)
            budgets[game_id] = (
                floor,
                calibrated(f"ismcts:iterations={{}}:infer={POOL}", game_id, floor),
                calibrate(H2H_THEIRS, game_id, GAMES[game_id], H2H_SECONDS),
            )
        rows += measure(game_id, args.deals, args.workers, args.seed, budgets[game_id], only)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    lines = [
        "# Inference about hidden hands",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"commit {commit}, {time.strftime('%Y-%m-%d')}; seed {args.seed}, {args.deals} deals in four "
        "seatings a line (the same deals for every line). One of ours against three of OpenSpiel's "
        f"ISMCTS; budgets calibrated in this run for {H2H_SECONDS:g} s a move: "
        + "; ".join(
            f"{g}: {i} iterations ({n} with inference) and {s} simulations"
            for g, (i, n, s) in budgets.items()
        )
        + ". Share: win share (a tie splits the win; fair is 25%), 95% interval."
        + (" Quick run (smoke test, not the real figures)." if args.quick else ""),
        "",
        *(information_table(infos) if infos else []),
        "| game | line | our spec | games | win share | against the floor, paired | mean score (ours vs theirs) | s/move | time |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['game']} | {row['line']} | `{row['spec']}` | {row['games']} | "
            f"{row['share']:.1f}% ± {row['half']:.1f} | "
            + (f"{row['paired']['diff']:+.1f} ± {row['paired']['half']:.1f}" if row["paired"] else "")
            + f" | {row['ours']:.1f} vs {row['theirs']:.1f} | "
            f"{row['think']:.3f} | {row['seconds']} s |"
        )
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.quick:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
