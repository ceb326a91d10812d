"""The ``oracles analyze`` and ``oracles balance`` commands.

``add_parsers(commands)`` adds both to the ``oracles`` parser; each sets
``run`` to the function that carries it out (returning the exit status).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape

from oracles.analysis.collect import Played, play_games, read_records, record_files
from oracles.analysis.report import Table, require_matplotlib, write_report
from oracles.backends import check_backend
from oracles.cliargs import COUNT, SEED, SMALL, WORKERS, progress_bar, with_players
from oracles.core.errors import OraclesError
from oracles.core.options import parse_option_assignments
from oracles.core.registry import DEFAULT_GAME, GAMES, game_ids, game_part, game_parts, load_game
from oracles.core.text import MAX_LINE, printable
from oracles.simulate import prepare_records_dir

#: Games a variant configuration plays, by default: this share of ``-n``.
VARIANT_SHARE = 4


def add_parsers(commands: Any) -> None:
    """Add ``analyze`` and ``balance`` to the ``oracles`` sub-commands."""
    analyze = commands.add_parser("analyze", help="simulate (or read records) and write a balance report")
    analyze.add_argument(
        "game", nargs="?", help=f"game id ({', '.join(game_ids())}; with --serve default oracle)"
    )
    analyze.add_argument("-n", "--games", type=COUNT, default=200, help="games to play (default 200)")
    analyze.add_argument("--players", type=SMALL, help="number of seats")
    analyze.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    analyze.add_argument("--bots", default="heuristic", help="bot specs, comma-separated (default heuristic)")
    analyze.add_argument("--seed", type=SEED, default=0, help="seed of the run (default 0)")
    analyze.add_argument("--workers", type=WORKERS, default=1, help="worker processes (default 1)")
    analyze.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games run: local processes or Ray (see docs/cli.md); the same games on both",
    )
    analyze.add_argument("--address", metavar="ADDR", help="a Ray cluster to use with --backend ray")
    analyze.add_argument("--records", metavar="DIR", help="analyse the finished records in DIR instead")
    analyze.add_argument(
        "--out", metavar="DIR", default="analysis", help="report directory (default analysis)"
    )
    analyze.add_argument(
        "--variant-games",
        type=COUNT,
        help=f"games per compared variant (default -n / {VARIANT_SHARE}; 0: compare none)",
    )
    analyze.add_argument("--quiet", action="store_true", help="no progress bar")
    analyze.add_argument(
        "--serve",
        action="store_true",
        help="show the report in a browser page that runs the games, with a progress bar, "
        "and lets a designer change Oracle cards' points and run again",
    )
    analyze.add_argument("--host", default="127.0.0.1", help="with --serve: address (default 127.0.0.1)")
    analyze.add_argument("--port", type=int, default=8765, help="with --serve: port (default 8765)")
    analyze.set_defaults(run=run_analyze)

    balance = commands.add_parser("balance", help="re-point the Oracle cards until they are even")
    balancing = [g for g in GAMES if game_parts(g).balancer]
    balance.add_argument("game", choices=balancing, help=f"the game ({', '.join(balancing)})")
    balance.add_argument("-n", "--games", type=COUNT, default=1000, help="games per step (default 1000)")
    balance.add_argument("--check-games", type=COUNT, default=2000, help="games of the final check (2000)")
    balance.add_argument("--steps", type=SMALL, default=12, help="at most this many steps (default 12)")
    balance.add_argument("--tolerance", type=float, default=0.35, help="allowed gap to the median (0.35)")
    balance.add_argument("--start", default="classic", help="edition to start from (default classic)")
    balance.add_argument("--name", default="balanced", help="name of the written edition")
    balance.add_argument("--players", type=SMALL, default=4, help="seats (default 4)")
    balance.add_argument("--bots", default="heuristic", help="bot specs (default heuristic)")
    balance.add_argument("--seed", type=SEED, default=0, help="seed of the first step (default 0)")
    balance.add_argument("--workers", type=WORKERS, default=1, help="worker processes (default 1)")
    balance.add_argument("--out", metavar="FILE", default="edition.json", help="edition file to write")
    balance.add_argument(
        "--points-only",
        action="store_true",
        help="keep every condition: change points only (cards no points can balance keep their start)",
    )
    balance.add_argument("--quiet", action="store_true", help="no progress bar")
    balance.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object, not the summary (the default when stdout is not a terminal)",
    )
    balance.set_defaults(run=run_balance)


def _at_least(value: int, minimum: int, flag: str) -> None:
    if value < minimum:
        raise OraclesError(f"{flag} must be at least {minimum}, got {value}")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return with_players(parse_option_assignments(args.option), args.players)


def _counter(progress: Any, label: str, total: int) -> Callable[[Played], None]:
    task = progress.add_task(label, total=total)
    return lambda _: progress.advance(task)


def run_analyze(args: argparse.Namespace) -> int:
    require_matplotlib()
    _at_least(args.games, 1, "-n")
    _at_least(args.workers, 1, "--workers")
    check_backend(args.backend, args.address)
    if args.game is None and not args.serve:
        raise OraclesError(f"analyze needs a game id ({', '.join(game_ids())})")
    game_id = (args.game or DEFAULT_GAME).strip().lower()
    module = _game_module(game_id)
    if args.serve:
        return _serve(args, game_id)
    started = time.perf_counter()
    progress = progress_bar(args.quiet)
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    compared: list[tuple[str, dict[str, Any], list[Played]]] = []
    # Options are checked before the progress bar starts: an error is then
    # its one line, without the line the bar leaves when it stops.
    chosen = None if args.records else dict(load_game(game_id, **_options(args)).options)
    variant_games = args.variant_games if args.variant_games is not None else args.games // VARIANT_SHARE
    planned = []
    if chosen is not None and variant_games > 0:
        # The options given, as the game read them ('trump=false' is False, 'ALTAIA'
        # is altaia): the comparisons switch what the games play, not the words typed.
        given = {key: chosen.get(key, value) for key, value in _options(args).items()}
        planned = module.variants(given)
    for _, variant in planned:
        load_game(game_id, **variant)  # likewise every compared configuration's
    prepare_records_dir(args.out, "the report")  # before any game is played or record read
    with progress:
        if args.records:
            files = record_files(args.records)
            if not files:
                raise OraclesError(f"no records (*.json) in {args.records}")
            games, options, recorded = read_records(files, _counter(progress, "records", len(files)))
            if recorded != game_id:
                raise OraclesError(f"the records in {args.records} are games of {recorded}, not {game_id}")
            source = f"{len(games)} records from {args.records}"
        else:
            assert chosen is not None
            options = chosen
            games = play_games(
                game_id,
                options,
                specs,
                args.games,
                args.seed,
                args.workers,
                _counter(progress, game_id, args.games),
                args.backend,
                args.address,
            )
            source = f"{args.games} games, bots {args.bots}, seed {args.seed}"
            for label, variant in planned:
                played = play_games(
                    game_id,
                    variant,
                    specs,
                    variant_games,
                    args.seed,
                    args.workers,
                    _counter(progress, label, variant_games),
                    args.backend,
                    args.address,
                )
                compared.append((label, dict(load_game(game_id, **variant).options), played))
    tables: list[Table] = module.report_tables(games, options, compared)
    summary = {
        "game": game_id,
        "source": source,
        "options": options,
        "variants compared": [f"{label} ({len(played)} games)" for label, _, played in compared],
        "seconds": round(time.perf_counter() - started, 1),
    }
    path = write_report(args.out, f"Balance report: {game_id}", summary, tables)
    print(f"wrote {path} ({len(tables)} tables)")
    return 0


def _serve(args: argparse.Namespace, game_id: str) -> int:
    from oracles.analysis.serve import MAX_GAMES, Designer, serve
    from oracles.simulate import prepare

    if args.records:
        raise OraclesError("--serve plays its games: it cannot read --records")
    if args.games > MAX_GAMES:
        raise OraclesError(f"with --serve, -n is at most {MAX_GAMES}")
    if not 0 < args.port < 65536:
        raise OraclesError(f"--port must be from 1 to 65535, got {args.port}")
    options = dict(load_game(game_id, **_options(args)).options)
    specs = tuple(s.strip() for s in args.bots.split(",") if s.strip())
    prepare(game_id, options, specs)  # bad bot specs: one error now, not on the page
    designer = Designer(game_id, options, args.games, Path(args.out), specs, args.seed, args.workers)
    serve(designer, args.host, args.port)
    return 0


def _game_module(game_id: str) -> Any:
    from oracles.analysis.collect import analysis_part

    if game_id not in game_ids():
        raise OraclesError(f"unknown game {game_id!r} (games: {', '.join(game_ids())})")
    return analysis_part(game_id)


def run_balance(args: argparse.Namespace) -> int:
    balancer = game_part(args.game, "balancer")

    _at_least(args.games, 1, "-n")
    _at_least(args.check_games, 1, "--check-games")
    _at_least(args.steps, 1, "--steps")
    _at_least(args.workers, 1, "--workers")
    try:
        start = balancer.load_start(args.start)
    except (ValueError, OSError) as error:
        raise OraclesError(f"--start: {error}") from None
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    load_game(args.game, players=args.players)  # option errors before any game
    if not 0 <= args.tolerance <= 1:  # nan fails both
        raise OraclesError(f"--tolerance is a share of the median from 0 to 1, got {args.tolerance}")
    if Path(args.out).is_dir():
        raise OraclesError(f"--out {args.out} is a folder: name the edition file to write")
    prepare_records_dir(Path(args.out).parent, "the edition")  # before any game is played
    settings = balancer.BalanceSettings(
        games=args.games,
        check_games=args.check_games,
        steps=args.steps,
        tolerance=args.tolerance,
        players=args.players,
        bots=tuple(specs),
        seed=args.seed,
        workers=args.workers,
        recondition=not args.points_only,
    )
    out = Path(args.out)
    work = out.with_name(out.stem + "-steps")
    progress = progress_bar(args.quiet)
    task_total = args.games * args.steps
    history = out.with_name(out.stem + "-history.csv")
    done: list[Any] = []

    def report(step: Any) -> None:
        done.append(step)
        balancer.write_history(done, history)  # after every step: a stopped run keeps its figures
        m = step.measurement
        progress.console.print(
            f"{step.kind} {step.number}: {m.games} games, median {m.median:.2f}, "
            f"worst gap {_gap(m.max_deviation)}, lowest kept rate {m.min_kept_rate:.1%}"
        )
        # Proposals: played from the next step on, and written only if a later step is the best.
        when = f"to try in step {step.number + 1}" if step.number + 1 < args.steps else "no step left to try"
        for item in step.replaced:
            progress.console.print(
                f"  {when}: new condition for {escape(printable(item.describe(), MAX_LINE))}"
            )

    with progress:
        result = balancer.balance(
            start, work, settings, args.name, _counter(progress, "balance", task_total), report
        )
    description = _description(result.final, settings, result.met, result.unkept, result.replaced)
    out.write_text(balancer.edition_json(result.edition, description), encoding="utf-8")
    balancer.write_history(result.steps, history)
    final = result.final
    data = {
        "edition": str(out),
        "met": result.met,
        # Exactly the new conditions the edition written has, with its points.
        "replaced": {item.card_id: item.describe() for item in result.replaced},
        "description": description,
        "history": str(history),
        "steps": len(result.steps),
        "written_step": result.best_step,
        "games": final.games,
        "median": final.median,
        "worst_gap": final.max_deviation if math.isfinite(final.max_deviation) else None,  # JSON has no inf
        "lowest_kept_rate": final.min_kept_rate,
        "missing_goal": balancer.failing(final, settings.tolerance, settings.min_kept),
        "not_written": {item.card_id: item.describe() for item in result.dropped},
        "unkept": list(result.unkept),
        "minimum_samples": balancer.minimum_samples(settings),
    }
    # A person at a terminal gets the summary; a pipe or a file gets the JSON
    # object it always got (scripts read it), as does --json.
    if args.json or not _stdout_is_terminal():
        print(json.dumps(data))
    else:
        _print_balance(data, settings, work)
    return 0 if result.met else 2


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _gap(deviation: float | None) -> str:
    """The worst gap to the median, or n/a when no card was kept and held (median 0)."""
    return f"{deviation:+.0%}" if deviation is not None and math.isfinite(deviation) else "n/a (median 0)"


def _print_balance(data: dict[str, Any], settings: Any, work: Path) -> None:
    """The result of ``oracles balance`` for a person (``--json``: for a program)."""
    from rich.console import Console

    # Lines are not broken at the terminal's width: each stays whole for grep and copy.
    console = Console(highlight=False, soft_wrap=True)
    shown_path = escape(printable(data["edition"]))
    verdict = "[green]goal met[/green]" if data["met"] else "[red]goal not met[/red] (exit status 2)"
    console.print(f"[bold]oracles balance oracle[/bold], {settings.players} players: {verdict}")
    console.print(
        f"wrote {shown_path}: the edition played in step {data['written_step']} (the best measured of "
        f"{data['steps']} steps, counted from 0), on {data['games']} one-round games"
    )
    console.print(
        f"  median expected points when kept {data['median']:.2f}; worst gap {_gap(data['worst_gap'])} "
        f"(goal ±{settings.tolerance:.0%}); lowest kept rate {data['lowest_kept_rate']:.1%} "
        f"(goal {settings.min_kept:.0%})"
    )
    missing = data["missing_goal"]
    console.print(f"  cards missing the goal: {', '.join(missing) if missing else 'none'}")
    console.print(
        f"  every step's figures: {escape(printable(data['history']))}; "
        f"every step's edition: {escape(printable(str(work)))}/"
    )
    if data["replaced"]:
        console.print(f"[bold]New conditions in the edition written[/bold] ({len(data['replaced'])}):")
        for text in data["replaced"].values():
            console.print(f"  {escape(printable(text, MAX_LINE))}")
    if data["not_written"]:
        console.print(
            "Proposed during the run but [bold]not[/bold] in the edition written (the step written "
            f"came before them): {escape(', '.join(data['not_written']))}"
        )
    if data["unkept"]:
        console.print(
            f"Back at their starting points (kept in under {settings.revert_below:.0%} of their deals "
            f"at every points tried, or out of reach of points): {escape(', '.join(data['unkept']))}"
        )
    samples = "; ".join(f"{reason}: {least}" for reason, least in data["minimum_samples"].items())
    console.print(f"[dim]A card gets a new condition only on enough of a step's games ({samples}).[/dim]")
    console.print("[dim]--json (or output to a pipe or file) prints all of this as one JSON object.[/dim]")


def _description(
    final: Any, settings: Any, met: bool, unkept: Sequence[str], replaced: Sequence[Any] = ()
) -> str:
    left = (
        f" The bots kept {', '.join(unkept)} in under {settings.revert_below:.0%} of their deals at "
        "every points tried: they keep their starting points."
        if unkept
        else ""
    )
    if replaced:
        left += " New conditions: " + "; ".join(item.describe() for item in replaced) + "."
    return (
        f"Made by oracles balance oracle ({settings.players} players, bots {','.join(settings.bots)}): "
        f"on {final.games} one-round games every card is kept in at least {final.min_kept_rate:.1%} of "
        f"its deals and its expected points when kept are within {final.max_deviation:.0%} of the median "
        f"({final.median:.2f}){'' if met else ' (goal not met)'}.{left}"
    )
