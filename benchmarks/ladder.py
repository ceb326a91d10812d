"""The bot ladder: OpenSkill ratings per game for each bot level.

``nice -n 10 python benchmarks/ladder.py [--workers 2]`` plays a schedule of
mixed games per game (several levels at one table, seats in rotation, deals
seeded so that a rerun plays the same cards), rates every seat with OpenSkill
(Plackett-Luce, ranked by score) game by game, and writes

- ``benchmarks/results/ladder.md``: mu, sigma, ordinal (mu - 3 sigma) and
  seat-games per level per game, printed as well;
- ``src/oracles/web/ladder.json``: the same figures plus each level's name
  and its spec in each game, which the lobby reads to name and make its bot
  choices (one file, so the names and ratings shown stay those measured).
  Each game's latest run is kept there, so ``--only codename`` re-measures
  one game and the page still shows all three.

The 5 s level costs most, so it sits only in the ``--strong`` games of each
game (its sigma says how sure the rating is); the other levels meet in the
``--games`` games. Time budgets make the search levels depend on the
machine's load: the figures are those of the run's machine, said in the
report. ``--quick`` plays a few short games with tiny budgets (for tests) and
writes only where ``--out`` says.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from oracles.core.registry import load_game
from oracles.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "ladder.md"
DATA = ROOT / "src" / "oracles" / "web" / "ladder.json"


@dataclass(frozen=True)
class Level:
    key: str
    spec: str
    #: The lobby's name (an English msgid, translated by the page).
    name: str
    #: What it is, in the lobby's words.
    what: str


LEVELS = (
    Level("random", "random", "Novice", "random"),
    Level("heuristic", "heuristic", "Casual", "heuristic"),
    Level("ismcts-0.2", "ismcts:seconds=0.2", "Keen", "ISMCTS 0.2 s"),
    Level("ismcts-1", "ismcts:seconds=1", "Strong", "ISMCTS 1 s"),
    Level("ismcts-5", "ismcts:seconds=5", "Master", "ISMCTS 5 s"),
)
#: The level kept to the strong games.
EXPENSIVE = "ismcts-5"

#: Shorter games than the defaults, so that the search levels are affordable:
#: one Oracle round and three Inrah rounds still hold every kind of decision.
OPTIONS: dict[str, dict[str, Any]] = {
    "oracle": {"players": 4, "rounds": 1},
    "inrah": {"players": 4, "rounds": 3},
    "codename": {},
}
#: Per game, what the search levels add to their spec: Codename's search
#: needs heuristic rollouts (random players guess themselves to death, which
#: tells the search nothing; the same tuning as ``benchmarks/strength.py``).
TUNING = {"codename": "rollout=heuristic"}
#: ``--quick``: tiny budgets, shortest games.
QUICK_SPECS = {
    "ismcts-0.2": "ismcts:iterations=4",
    "ismcts-1": "ismcts:iterations=8",
    "ismcts-5": "ismcts:iterations=16",
}
QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "oracle": {"players": 3, "rounds": 1},
    "inrah": {"players": 3, "rounds": 1},
    "codename": {"max_turns": 6},
}


def schedule(seats: int, keys: list[str], games: int, must: str | None = None) -> Iterator[tuple[str, ...]]:
    """Lineups for ``games`` games: every level at the table in rotation
    (with more seats than levels, levels repeat round the table); with
    fewer seats, every ordered choice of levels in turn, those holding
    ``must`` only when it is given.

    >>> list(schedule(2, ["a", "b", "c"], 4))
    [('a', 'b'), ('a', 'c'), ('b', 'a'), ('b', 'c')]
    >>> list(schedule(3, ["a", "b"], 3))
    [('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
    """
    if seats >= len(keys):
        base = tuple(keys[k % len(keys)] for k in range(seats))
        plan = [base[i:] + base[:i] for i in range(seats)]
    else:
        plan = [p for p in itertools.permutations(keys, seats) if must is None or must in p]
    for index in range(games):
        yield plan[index % len(plan)]


@dataclass
class Rated:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    scores: list[float] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def _play(job: tuple[str, dict[str, Any], tuple[str, ...], str]) -> list[float]:
    game_id, options, specs, seed = job
    state, _ = play_game(load_game(game_id, **options), specs, seed, chance_seed=seed)
    return list(state.scores())


def rate(model: Any, ratings: dict[str, Rated], lineup: tuple[str, ...], scores: list[float]) -> None:
    """One update: every seat a one-player team ranked by score; a level in
    several seats takes the mean of its seats' updates."""
    teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in lineup]
    rated = model.rate(teams, scores=scores)
    updates: dict[str, list[tuple[float, float]]] = {}
    for key, (rating,), score in zip(lineup, rated, scores, strict=True):
        updates.setdefault(key, []).append((rating.mu, rating.sigma))
        ratings[key].games += 1
        ratings[key].scores.append(score)
    for key, values in updates.items():
        ratings[key].mu = statistics.fmean(mu for mu, _ in values)
        ratings[key].sigma = statistics.fmean(sigma for _, sigma in values)


def ladder_for(
    game_id: str,
    options: dict[str, Any],
    specs: dict[str, str],
    games: int,
    strong: int,
    workers: int,
    seed: int,
) -> dict[str, Rated]:
    seats = load_game(game_id, **options).num_players
    cheap = [level.key for level in LEVELS if level.key != EXPENSIVE]
    lineups = list(schedule(seats, cheap, games))
    lineups += list(schedule(seats, [level.key for level in LEVELS], strong, must=EXPENSIVE))
    # Interleave the strong games, so that a rating's path is not all-cheap first.
    random.Random(f"ladder:{seed}:{game_id}").shuffle(lineups)
    jobs = [
        (game_id, options, tuple(specs[k] for k in lineup), f"ladder:{seed}:{game_id}:{index}")
        for index, lineup in enumerate(lineups)
    ]
    ratings = {level.key: Rated() for level in LEVELS}
    model = PlackettLuce()
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for index, scores in enumerate(pool.map(_play, jobs)):
            rate(model, ratings, lineups[index], scores)
            print(f"  {game_id} game {index + 1}/{len(jobs)}: {' '.join(lineups[index])}", file=sys.stderr)
    return ratings


def markdown(data: dict[str, Any]) -> str:
    """The results page, from the stored data (every game's latest run)."""
    lines = [
        "# Bot ladder",
        "",
        "OpenSkill (Plackett-Luce) ratings from mixed games (`benchmarks/ladder.py`): several levels "
        "at one table, seats in rotation, seeded deals, every seat ranked by its score, ratings "
        "updated game by game. *ordinal* is mu - 3 sigma, the figure the lobby shows. The 5 s "
        "level sits only in a few games per game, so its sigma is wider. Time budgets buy fewer "
        "iterations on a busy machine: each game's line says how the run went.",
        "",
    ]
    names = {level["key"]: level for level in data["levels"]}
    for game_id, entry in data["games"].items():
        options = ", ".join(f"{k}={v}" for k, v in entry["options"].items()) or "defaults"
        run = entry["run"]
        lines += [
            f"## {game_id} ({options})",
            "",
            f"{run['games']} games without the 5 s level and {run['strong']} with it, seed {run['seed']}, "
            f"{run['seconds']:.0f} s on {run['workers']} workers ({run['machine']}, {run['load']}), "
            f"{run['date']}. Search levels: `{entry['specs']['ismcts-1']}` and the same at 0.2 and 5 s.",
            "",
            "| level | bot | mu | sigma | ordinal | seat-games | mean score |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        ratings = entry["ratings"]
        for key in sorted(ratings, key=lambda k: -ratings[k]["ordinal"]):
            r = ratings[key]
            lines.append(
                f"| {names[key]['name']} | {names[key]['what']} | {r['mu']:.2f} | {r['sigma']:.2f} "
                f"| {r['ordinal']:.2f} | {r['games']} | {r['mean_score']:.2f} |"
            )
        lines.append("")
    return "\n".join(lines)


def specs_for(game_id: str, quick: bool) -> dict[str, str]:
    """Each level's spec in ``game_id``: the search levels take the game's
    tuning (as ``benchmarks/strength.py`` does)."""
    specs = {level.key: level.spec for level in LEVELS}
    if quick:
        specs.update(QUICK_SPECS)
    extra = TUNING.get(game_id)
    if extra:
        specs = {k: f"{v}:{extra}" if v.startswith("ismcts") else v for k, v in specs.items()}
    return specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="games per game without the 5 s level")
    parser.add_argument("--strong", type=int, default=4, help="games per game with the 5 s level")
    parser.add_argument("--only", default="oracle,inrah,codename", help="games, comma-separated")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a few short games with tiny budgets")
    parser.add_argument(
        "--out", type=Path, help="directory for ladder.md and ladder.json (default: the repo's)"
    )
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.only.split(",") if g.strip()]
    options = OPTIONS
    if args.quick:
        options = QUICK_OPTIONS
        args.games, args.strong = min(args.games, 4), min(args.strong, 2)
        if args.out is None:
            parser.error("--quick writes only where --out says")
    for game_id in games:
        if game_id not in options:
            parser.error(f"unknown game {game_id!r}")
    md_path = args.out / "ladder.md" if args.out else RESULTS
    json_path = args.out / "ladder.json" if args.out else DATA
    try:
        stored = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    # Other games' latest runs are kept, so that --only re-measures some.
    data: dict[str, Any] = {
        "levels": [{"key": lv.key, "spec": lv.spec, "name": lv.name, "what": lv.what} for lv in LEVELS],
        "games": stored.get("games", {}) if isinstance(stored.get("games"), dict) else {},
    }
    for game_id in games:
        specs = specs_for(game_id, args.quick)
        start = time.perf_counter()
        load = os.getloadavg()[0]
        ratings = ladder_for(
            game_id, options[game_id], specs, args.games, args.strong, args.workers, args.seed
        )
        data["games"][game_id] = {
            "options": options[game_id],
            "specs": specs,
            "ratings": {
                key: {
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "ordinal": round(r.ordinal, 3),
                    "games": r.games,
                    "mean_score": round(statistics.fmean(r.scores), 3) if r.scores else 0.0,
                }
                for key, r in ratings.items()
            },
            "run": {
                "games": args.games,
                "strong": args.strong,
                "seed": args.seed,
                "seconds": round(time.perf_counter() - start, 1),
                "workers": args.workers,
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                "load": f"load average {load:.1f} at the start",
                "date": datetime.now(UTC).date().isoformat(),
            },
        }
    text = markdown(data)
    print(text)
    md_path.parent.mkdir(parents=True, exist_ok=True)
    md_path.write_text(text, encoding="utf-8")
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
