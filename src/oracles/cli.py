"""The ``oracles`` command.

=================================  ==========================================
``oracles games``                  list the games and their options
``oracles replay FILE [--json]``   replay a record, show where the game stands
``oracles simulate GAME -n N``     play N games between bots, summarise them
``oracles serve``                  run the game server (``docs/server.md``)
=================================  ==========================================

Every error caused by input (a bad option, an unreadable record, an illegal
action) is one line on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from oracles.core.errors import OraclesError
from oracles.core.game import CHANCE, TERMINAL, State
from oracles.core.options import parse_option_assignments
from oracles.core.records import load_record_file, replay_record, summary
from oracles.core.registry import game_class, game_ids

EXIT_ERROR = 1
DEFAULT_OPPONENT = "heuristic"


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="oracles",
        description="Three card games called Oracle: rules engines, bots and simulation.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("games", help="list the games and their options")

    replay = commands.add_parser("replay", help="replay a record and show where the game stands")
    replay.add_argument("file", help="a record (JSON, see SPEC.md section 2)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--seat", type=int, help="also show what this seat sees (its view)")

    simulate = commands.add_parser("simulate", help="play many games between bots")
    simulate.add_argument("game", help=f"game id ({', '.join(game_ids())})")
    simulate.add_argument("-n", "--games", type=int, default=100, help="number of games (default 100)")
    simulate.add_argument("--players", type=int, help="number of seats")
    simulate.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="a game option (repeatable)"
    )
    simulate.add_argument(
        "--bots", default="random", help="bot specs in seat order, comma-separated (default: random)"
    )
    simulate.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    simulate.add_argument("--records", metavar="DIR", help="write every game as a record into DIR")
    simulate.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")

    play = commands.add_parser("play", help="play in the terminal against bots or friends")
    play.add_argument("game", nargs="?", help=f"game id ({', '.join(game_ids())})")
    play.add_argument("--players", type=int, help="number of seats")
    play.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--humans", type=int, default=1, help="people sharing this screen (hot-seat)")
    play.add_argument(
        "--opponents",
        default=DEFAULT_OPPONENT,
        help=f"bot spec(s) for the other seats (default {DEFAULT_OPPONENT})",
    )
    play.add_argument("--seed", type=int, help="seed for the deals (default: random)")
    play.add_argument("--save", metavar="FILE", help="write the record here (also on quit and Ctrl-C)")
    play.add_argument("--resume", metavar="FILE", help="continue a saved game")
    play.add_argument("--lang", choices=("en", "de"), default="en", help="language (en or de)")
    play.add_argument("--fast", action="store_true", help="do not pause between bot moves")

    tournament = commands.add_parser(
        "tournament", help="bots against each other on duplicate deals, with seat rotation"
    )
    tournament.add_argument("game", help=f"game id ({', '.join(game_ids())})")
    tournament.add_argument("--bots", required=True, help="bot specs, comma-separated (see docs/cli.md)")
    tournament.add_argument(
        "-n", "--deals", type=int, default=50, help="deals; each is played by every lineup"
    )
    tournament.add_argument("--players", type=int, help="number of seats")
    tournament.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    tournament.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    tournament.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    tournament.add_argument("--json", action="store_true", help="print the results as JSON")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")

    from oracles.server.cli import add_parser as add_serve_parser

    add_serve_parser(commands)
    return parser


def _status_line(state: State) -> str:
    player = state.current_player()
    if player == TERMINAL:
        return "finished"
    if player == CHANCE:
        return "waiting for chance (a deal or a draw)"
    return f"seat {player} to act"


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options of ``--option K=V`` and ``--players``."""
    options: dict[str, Any] = parse_option_assignments(args.option)
    if args.players is not None:
        options["players"] = args.players
    return options


def _at_least_one(value: int, flag: str) -> None:
    if value < 1:
        raise OraclesError(f"{flag} must be at least 1, got {value}")


def cmd_games() -> int:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="games")
    table.add_column("id")
    table.add_column("game")
    table.add_column("players")
    table.add_column("options (default)")
    for gid in game_ids():
        cls = game_class(gid)
        defaults = cls.option_defaults()
        opts = "\n".join(f"{o.name} = {defaults[o.name]!r}: {o.doc}" for o in cls.option_schema)
        table.add_row(gid, cls.title, f"{cls.min_players}-{cls.max_players}", opts)
    Console().print(table)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record_file(args.file)
    state = replay_record(record)
    result = summary(state)
    if args.seat is not None and not 0 <= args.seat < state.num_players:
        raise OraclesError(f"--seat must be from 0 to {state.num_players - 1}, got {args.seat}")
    if args.json:
        if args.seat is not None:
            result["view"] = state.view(args.seat)
        print(json.dumps(result))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    cls = type(state.game)
    console.print(f"[bold]{cls.title}[/bold] ({state.game.id})")
    console.print("options: " + ", ".join(f"{k}={v}" for k, v in state.game.options.items()))
    console.print(f"{result['actions']} actions replayed; {_status_line(state)}")
    table = Table()
    table.add_column("seat")
    table.add_column("score", justify="right")
    table.add_column("")
    for seat, score in enumerate(result["scores"]):
        mark = "winner" if seat in result["winners"] else ""
        table.add_row(str(seat), f"{score:g}", mark)
    console.print(table)
    if state.is_terminal():
        winners = result["winners"]
        console.print("winners: " + (", ".join(f"seat {w}" for w in winners) if winners else "none (a draw)"))
    elif not state.is_chance_node():
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        shown = ", ".join(legal[:20]) + (f" … ({len(legal)} in all)" if len(legal) > 20 else "")
        console.print(f"legal actions: {shown}")
    if args.seat is not None:
        console.print_json(json.dumps(state.view(args.seat)))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from oracles.simulate import prepare, simulate

    _at_least_one(args.games, "-n")
    _at_least_one(args.workers, "--workers")
    options = _game_options(args)
    specs = args.bots.split(",")
    prepare(args.game, options, specs)  # errors before the progress bar starts

    progress = _progress(args.quiet or args.json)
    with progress:
        task = progress.add_task(f"{args.game}", total=args.games)
        result = simulate(
            args.game,
            args.games,
            options=options,
            bot_specs=specs,
            seed=args.seed,
            workers=args.workers,
            records_dir=args.records,
            on_result=lambda _: progress.advance(task),
        )
    data = result.as_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    _print_summary(data)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import random
    from pathlib import Path

    from rich.console import Console

    from oracles.bots.specs import make_bot
    from oracles.core.registry import load_game
    from oracles.play.render import renderer_for
    from oracles.play.session import PlaySession

    console = Console(highlight=False)
    if args.resume:
        state = replay_record(load_record_file(args.resume))
        if args.game and args.game.strip().lower() != state.game.id:
            raise OraclesError(f"{args.resume} is a game of {state.game.id}, not {args.game}")
        console.print(f"resumed a game of {len(state.history())} actions from {args.resume}")
    else:
        if not args.game:
            raise OraclesError("name a game to play (" + ", ".join(game_ids()) + ") or --resume FILE")
        state = load_game(args.game, **_game_options(args)).new_initial_state()
    n = state.num_players
    if not 0 <= args.seat < n:
        raise OraclesError(f"--seat must be from 0 to {n - 1}, got {args.seat}")
    if not 1 <= args.humans <= n:
        raise OraclesError(f"--humans must be from 1 to {n}, got {args.humans}")
    humans = [(args.seat + i) % n for i in range(args.humans)]
    others = [seat for seat in range(n) if seat not in humans]
    specs = [s.strip() for s in args.opponents.split(",") if s.strip()] or [DEFAULT_OPPONENT]
    if len(specs) not in (1, len(others)):
        raise OraclesError(f"--opponents names {len(specs)} bots for {len(others)} other seats")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    bots = {seat: make_bot(specs[i % len(specs)], seat, seed) for i, seat in enumerate(others)}
    save = Path(args.save) if args.save else (Path(args.resume) if args.resume else None)
    session = PlaySession(
        state,
        humans,
        bots,
        renderer_for(state.game.id, args.lang),
        console,
        seed=seed,
        save_path=save,
        fast=args.fast,
    )
    session.run()
    return 0


def _progress(quiet: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    )


def cmd_tournament(args: argparse.Namespace) -> int:
    from oracles.tournament import plan_tournament, run_tournament

    _at_least_one(args.deals, "-n")
    _at_least_one(args.workers, "--workers")
    options = _game_options(args)
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    _, plan = plan_tournament(args.game, specs, options)  # errors before the progress bar
    total = args.deals * len(plan)
    progress = _progress(args.quiet or args.json)
    with progress:
        task = progress.add_task(args.game, total=total)
        data = run_tournament(
            args.game,
            specs,
            args.deals,
            options=options,
            seed=args.seed,
            workers=args.workers,
            on_game=lambda _: progress.advance(task),
        )
    if args.json:
        print(json.dumps(data))
        return 0
    from rich.console import Console
    from rich.table import Table

    opts = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    table = Table(title=f"{data['game']} ({opts}): {data['deals']} deals x {len(data['lineups'])} lineups")
    table.add_column("bot")
    table.add_column("seat-games", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score (95% CI)", justify="right")
    table.add_column("rating (mu - 3 sigma)", justify="right")
    table.add_column("s/move (mean, max)", justify="right")
    for row in sorted(data["bots"], key=lambda r: -r["rating"]):
        low, high = row["win_rate_ci95"]
        table.add_row(
            row["bot"],
            str(row["seat_games"]),
            f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}–{100 * high:.1f})",
            f"{row['mean_score']:.2f} ± {row['mean_score_ci95']:.2f}",
            f"{row['rating']:.2f} (mu {row['rating_mu']:.2f})",
            f"{row['think_mean_s']:.3f}, {row['think_max_s']:.3f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"{data['games']} games, mean length {data['mean_length']:.1f} actions, {data['seconds']:.1f} s"
    )
    return 0


def _print_summary(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    opts = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    table = Table(title=f"{data['game']} ({opts}): {data['games']} games")
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score (95% CI)", justify="right")
    for row in data["seats"]:
        low, high = row["win_rate_ci95"]
        table.add_row(
            str(row["seat"]),
            row["bot"],
            f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}–{100 * high:.1f})",
            f"{row['mean_score']:.2f} ± {row['mean_score_ci95']:.2f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"mean game length: {data['mean_length']:.1f} actions ({data['mean_decisions']:.1f} decisions); "
        f"{data['games_per_second']:.1f} games/s ({data['seconds']:.2f} s)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "games":
            return cmd_games()
        if args.command == "replay":
            return cmd_replay(args)
        if args.command == "simulate":
            return cmd_simulate(args)
        if args.command == "play":
            return cmd_play(args)
        if args.command == "tournament":
            return cmd_tournament(args)
        if args.command == "serve":
            from oracles.server.cli import run as run_server

            return run_server(args)
    except OraclesError as error:
        print(str(error), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command!r}")
    return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
