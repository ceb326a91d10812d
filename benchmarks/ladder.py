"""The bot ladder: OpenSkill ratings per game for each bot level.

``nice -n 10 python benchmarks/ladder.py [--workers 2]`` plays a schedule of
mixed games per game (the four levels at one table, seats in rotation, deals
seeded so that a rerun plays the same cards), rates every seat with OpenSkill
(Plackett-Luce, ranked by score) game by game, and writes

- ``benchmarks/results/ladder.md``: mu, its interval, ordinal (mu - 3
  sigma), seat-games and slowest move per level per game, printed as well;
- ``src/oracles/web/ladder.json``: the same figures plus each level's name
  and its spec in each game, which the lobby reads to name and make its bot
  choices (one file, so the names and ratings shown stay those measured).
  Each game's latest run is kept there, so ``--only codename`` re-measures
  one game and the page still shows all three.

Each deal is played once in every rotation of the seats (duplicate deals),
so luck of the cards cancels between the levels. The search levels have fixed
iteration budgets, so a busy machine changes how long a run takes, not the
ratings; the slowest move of each level is stored beside its rating (the
lobby promises at most 2 s for the strongest). Each game's entry stores the
commit and a digest of the code and parameters its bots play by
(``bots_digest``: the shared bots and that game's own package): a test
fails when that code changed after the run. ``--quick`` plays a few
short games with tiny budgets (for tests) and writes only where ``--out``
says.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import statistics
import subprocess
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


#: The four levels, weakest first: the order the ladder must confirm. The
#: search levels have fixed iteration budgets (``SEARCH``), not seconds, so a
#: busy machine plays the same bots, only slower, and the ratings do not
#: depend on the load.
LEVELS = (
    Level("novice", "random", "Novice", "random"),
    Level("casual", "heuristic", "Casual", "heuristic"),
    Level("strong", "ismcts", "Strong", "search"),
    Level("master", "ismcts", "Master", "deep search"),
)
#: Iterations a move of the two search levels, per game: Strong about a
#: tenth of Master (0.2 s a move is about 500 iterations in Oracle, 2,500 in
#: Inrah and 100 in Codename on this machine); Oracle's Strong a twelfth,
#: since at 100 iterations it rated within a sigma of Master (200 games) and
#: at 30 its interval lay between Casual's and Master's (400 games); once
#: Master explored wider (2026-12-06) 30 fell inside Casual's interval and
#: 80 (with the shared exploration, ``LEVEL_TUNING``) lies apart. Master
#: stays inside the 2 s a move the lobby promises on the server's one worker
#: (the run stores the slowest move it saw); Oracle's search gains little
#: above its budget.
SEARCH: dict[str, dict[str, int]] = {
    "oracle": {"strong": 80, "master": 1000},
    "inrah": {"master": 5000},
    "codename": {"strong": 10, "master": 100},
}
#: Per game, levels played by another bot than ``LEVELS`` says, and what the
#: lobby calls it. In Inrah the heuristic, a search of 500 iterations and one
#: of 5,000 rated within a sigma of each other (200 games; heuristic rollouts
#: changed nothing): its search is hardly better than its heuristic. So its
#: levels between random play and the search are careless heuristics, which
#: play a random legal move at a fixed share of their choices
#: (``heuristic:noise=``); at 200 games session 17 measured mu 13.9
#: (random), 20.9 (noise 0.5), 29.8 (noise 0.15) and 34.8 (the search), each
#: interval apart.
OVERRIDES: dict[str, dict[str, tuple[str, str]]] = {
    "inrah": {
        "casual": ("heuristic:noise=0.5", "careless"),
        "strong": ("heuristic:noise=0.15", "mostly heuristic"),
    },
}
#: The slowest move the strongest level may take on one worker, in seconds.
MASTER_SECONDS = 2.0
#: Each search level's time cap a move, beside its iterations: on an idle
#: machine the iterations run out first (so the ratings do not depend on the
#: load); on a crowded server the cap keeps the promise above.
CAP_SECONDS = 1.5

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
#: Per game and level, what that level alone adds to its spec. Oracle's
#: Strong keeps the shared exploration (``c=0.7``): at a few dozen
#: iterations the game's wider one (1.2) spreads too few visits over the
#: moves (at 30 it rated inside the heuristic's interval, 400 games).
LEVEL_TUNING: dict[str, dict[str, str]] = {"oracle": {"strong": "c=0.7"}}
#: ``--quick``: tiny budgets, shortest games.
QUICK_SEARCH = {"strong": 4, "master": 8}
QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "oracle": {"players": 3, "rounds": 1},
    "inrah": {"players": 3, "rounds": 1},
    "codename": {"max_turns": 6},
}

#: The code and parameters the bots' play comes from: when any of it changes,
#: the stored ladder no longer describes the bots the lobby offers, and
#: ``tests/bots/test_ladder.py`` fails until the ladder is run again. The
#: shared bots serve every game; ``{game}`` is the game's own package, so a
#: change to one game's search stales that game's ladder alone.
BOT_SOURCES = (
    "src/oracles/bots/base.py",
    "src/oracles/bots/heuristic.py",
    "src/oracles/bots/hooks.py",
    "src/oracles/bots/ismcts.py",
    "src/oracles/bots/specs.py",
    "src/oracles/games/{game}/__init__.py",
    "src/oracles/games/{game}/policy.py",
    "src/oracles/games/{game}/playout.py",
    "src/oracles/games/{game}/search.py",
    "src/oracles/games/{game}/inference.py",
    "src/oracles/games/{game}/data/play_model.json",
    "src/oracles/games/{game}/evaluator.py",
    "src/oracles/games/{game}/resample.py",
)


def bots_digest(game_id: str, root: Path = ROOT) -> str:
    """A digest of the code ``game_id``'s bots play by (``BOT_SOURCES``) and
    of its levels' specs, budgets and options: what its stored ladder was
    measured with."""
    digest = hashlib.sha256()
    for pattern in BOT_SOURCES:
        for path in sorted(root.glob(pattern.format(game=game_id))):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    measured = [
        LEVELS,
        SEARCH.get(game_id),
        CAP_SECONDS,
        TUNING.get(game_id),
        OPTIONS.get(game_id),
        OVERRIDES.get(game_id),
    ]
    if game_id in LEVEL_TUNING:  # only there: the other games' digests stand
        measured.append(LEVEL_TUNING[game_id])
    digest.update(json.dumps(measured, default=repr, sort_keys=True).encode())
    return digest.hexdigest()


def schedule(seats: int, keys: list[str], games: int) -> Iterator[tuple[str, ...]]:
    """Lineups for at least ``games`` games, in blocks of ``seats`` games
    that share one deal (duplicate play): a block seats the same levels in
    every rotation, so each level meets each seat's cards. With more seats
    than levels, levels repeat round the table; with fewer, every choice of
    ``seats`` levels takes its turn.

    >>> list(schedule(2, ["a", "b", "c"], 6))
    [('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
    >>> list(schedule(3, ["a", "b"], 2))
    [('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
    """
    if seats >= len(keys):
        choices = [tuple(keys[k % len(keys)] for k in range(seats))]
    else:
        choices = list(itertools.combinations(keys, seats))
    blocks = [[base[i:] + base[:i] for i in range(seats)] for base in choices]
    count = 0
    while count < games:
        for block in blocks:
            yield from block
            count += len(block)
            if count >= games:
                return


@dataclass
class Rated:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    scores: list[float] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def _play(job: tuple[str, dict[str, Any], tuple[str, ...], str, str]) -> tuple[list[float], list[float]]:
    """One game: its scores and each seat's slowest real choice in seconds."""
    game_id, options, specs, seed, deal = job
    think: list[list[float]] = [[] for _ in specs]
    state, _ = play_game(load_game(game_id, **options), specs, seed, chance_seed=deal, think=think)
    return list(state.scores()), [max(seconds, default=0.0) for seconds in think]


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
    workers: int,
    seed: int,
) -> tuple[dict[str, Rated], dict[str, float]]:
    """Every level's rating in ``game_id`` and its slowest move."""
    seats = load_game(game_id, **options).num_players
    lineups = list(schedule(seats, [level.key for level in LEVELS], games))
    jobs = [
        (
            game_id,
            options,
            tuple(specs[k] for k in lineup),
            f"ladder:{seed}:{game_id}:{index}",
            f"ladder:{seed}:{game_id}:deal:{index // seats}",
        )
        for index, lineup in enumerate(lineups)
    ]
    ratings = {level.key: Rated() for level in LEVELS}
    slowest = {level.key: 0.0 for level in LEVELS}
    # A bot's skill does not drift between games, so no dynamics term (tau):
    # the intervals narrow with every game instead of settling at a floor.
    model = PlackettLuce(tau=0.0)
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for index, (scores, think) in enumerate(pool.map(_play, jobs)):
            rate(model, ratings, lineups[index], scores)
            for key, seconds in zip(lineups[index], think, strict=True):
                slowest[key] = max(slowest[key], seconds)
            print(f"  {game_id} game {index + 1}/{len(jobs)}: {' '.join(lineups[index])}", file=sys.stderr)
    return ratings, slowest


#: A level's interval: mu ± this many sigmas (OpenSkill's one-sigma band).
SPREAD = 1.0


def separated(ratings: dict[str, Any]) -> list[bool]:
    """For each pair of neighbouring levels (weakest first), whether the
    stronger one's interval lies wholly above the weaker one's."""
    keys = [level.key for level in LEVELS]
    return [
        ratings[hi]["mu"] - SPREAD * ratings[hi]["sigma"] > ratings[lo]["mu"] + SPREAD * ratings[lo]["sigma"]
        for lo, hi in itertools.pairwise(keys)
    ]


def markdown(data: dict[str, Any]) -> str:
    """The results page, from the stored data (every game's latest run)."""
    lines = [
        "# Bot ladder",
        "",
        "OpenSkill (Plackett-Luce) ratings from mixed games (`benchmarks/ladder.py`): the four "
        "levels at one table (Codename: two at a time), each deal played once in every rotation "
        "of the seats (duplicate), every seat ranked by its score, ratings updated game by game. "
        f"The interval is mu ± {SPREAD:g} sigma; *ordinal* (mu - 3 sigma) is the figure the lobby "
        "shows. The search levels have fixed iteration budgets, so the machine's load changes "
        "how long a run takes, not the bots.",
        "",
    ]
    names = {level["key"]: level for level in data["levels"]}
    for game_id, entry in data["games"].items():
        options = ", ".join(f"{k}={v}" for k, v in entry["options"].items()) or "defaults"
        run = entry["run"]
        ratings = entry["ratings"]
        verdict = "apart" if all(separated(ratings)) else "NOT apart"
        level_specs = ", ".join(f"`{entry['specs'][level.key]}`" for level in LEVELS)
        lines += [
            f"## {game_id} ({options})",
            "",
            f"{run['games']} games, seed {run['seed']}, {run['seconds']:.0f} s on {run['workers']} "
            f"workers ({run['machine']}, {run['load']}), {run['date']}, commit {run.get('commit', '?')}. "
            f"Levels: {level_specs}. "
            f"Neighbouring levels' intervals: {verdict}.",
            "",
            "| level | bot | mu | interval | ordinal | seat-games | mean score | slowest move |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        what = {**{k: v["what"] for k, v in names.items()}, **entry.get("what", {})}
        for key in [level.key for level in LEVELS]:
            r = ratings[key]
            low, high = r["mu"] - SPREAD * r["sigma"], r["mu"] + SPREAD * r["sigma"]
            lines.append(
                f"| {names[key]['name']} | {what[key]} | {r['mu']:.2f} | {low:.1f} – {high:.1f} "
                f"| {r['ordinal']:.2f} | {r['games']} | {r['mean_score']:.2f} | {r.get('slowest', 0.0):.2f} s |"
            )
        lines.append("")
    return "\n".join(lines)


def specs_for(game_id: str, quick: bool) -> dict[str, str]:
    """Each level's spec in ``game_id``: the search levels take the game's
    budget and tuning (as ``benchmarks/strength.py`` does)."""
    budgets = QUICK_SEARCH if quick else SEARCH[game_id]
    extra = TUNING.get(game_id)
    overrides = OVERRIDES.get(game_id, {})
    specs = {}
    for level in LEVELS:
        if level.key in overrides:
            specs[level.key] = overrides[level.key][0]
            continue
        spec = level.spec
        if level.key in budgets:
            spec = f"{spec}:iterations={budgets[level.key]}:seconds={CAP_SECONDS:g}" + (
                f":{extra}" if extra else ""
            )
            if not quick and (own := LEVEL_TUNING.get(game_id, {}).get(level.key)):
                spec += f":{own}"
        specs[level.key] = spec
    return specs


def what_for(game_id: str) -> dict[str, str]:
    """What each level is in ``game_id``, in the lobby's words."""
    overrides = OVERRIDES.get(game_id, {})
    return {level.key: overrides[level.key][1] if level.key in overrides else level.what for level in LEVELS}


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return "?"
    return out.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=200, help="games per game (rounded up to whole duplicate blocks)"
    )
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
        args.games = min(args.games, 4)
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
    # Other games' latest runs are kept, so that --only re-measures some;
    # a run of other levels (an older ladder) is not.
    keys = sorted(level.key for level in LEVELS)
    kept = stored.get("games") if isinstance(stored.get("games"), dict) else {}
    data: dict[str, Any] = {
        "levels": [{"key": lv.key, "spec": lv.spec, "name": lv.name, "what": lv.what} for lv in LEVELS],
        "games": {
            game_id: entry
            for game_id, entry in kept.items()
            if isinstance(entry, dict) and sorted(entry.get("ratings", {})) == keys
        },
    }
    for game_id in games:
        specs = specs_for(game_id, args.quick)
        start = time.perf_counter()
        load = os.getloadavg()[0]
        ratings, slowest = ladder_for(game_id, options[game_id], specs, args.games, args.workers, args.seed)
        data["games"][game_id] = {
            "options": options[game_id],
            "specs": specs,
            "what": what_for(game_id),
            "ratings": {
                key: {
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "ordinal": round(r.ordinal, 3),
                    "games": r.games,
                    "mean_score": round(statistics.fmean(r.scores), 3) if r.scores else 0.0,
                    "slowest": round(slowest[key], 3),
                }
                for key, r in ratings.items()
            },
            "run": {
                "games": sum(r.games for r in ratings.values())
                // load_game(game_id, **options[game_id]).num_players,
                "seed": args.seed,
                "seconds": round(time.perf_counter() - start, 1),
                "workers": args.workers,
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                "load": f"load average {load:.1f} at the start",
                "date": datetime.now(UTC).date().isoformat(),
                "commit": _commit(),
                "bots": bots_digest(game_id),
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
