"""The ``oracles`` command.

=================================  ==========================================
``oracles games``                  list the games and their options
``oracles replay FILE [--json]``   replay a record, show where the game stands
``oracles simulate GAME -n N``     play N games between bots, summarise them
``oracles serve``                  run the game server (``docs/server.md``)
``oracles db prune``               delete (or archive) old finished games
=================================  ==========================================

Every error caused by input (a bad option, an unreadable record, an illegal
action, a malformed argument) is one line on stderr and a non-zero exit
status, never a traceback: status 2 for arguments argparse cannot read, 1 for
everything else. All such lines leave through :func:`_fail`, which makes the
message printable (no control characters, bounded length).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import typing
from collections.abc import Callable, Sequence
from typing import Any

from rich.markup import escape

from oracles.cliargs import COUNT, MAX_GAMES, SEED, SMALL, WORKERS, progress_bar, with_players
from oracles.core.errors import InputError, OraclesError
from oracles.core.game import CHANCE, TERMINAL, Game, State
from oracles.core.options import parse_option_assignments
from oracles.core.records import load_record_file, replay_record, summary
from oracles.core.registry import game_class, game_ids
from oracles.core.text import MAX_LINE, printable, shown

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 70
DEFAULT_OPPONENT = "heuristic"


class UsageError(OraclesError):
    """Command-line arguments argparse cannot read (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (``oracles simulate: argument
    -n/--games: ...``) raised as :class:`UsageError`, not a usage block and
    ``sys.exit``; ``--help`` still prints help."""

    def error(self, message: str) -> typing.NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="oracles",
        description="Three card games called Oracle: rules engines, bots and simulation.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("games", help="list the games and their options")

    replay = commands.add_parser("replay", help="replay a record and show where the game stands")
    replay.add_argument("file", help="a record (JSON, see docs/architecture.md, Records)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument(
        "--seat",
        type=SMALL,
        help="also show what this seat sees (its view); with --from, your seat (default 0)",
    )
    replay.add_argument(
        "--from",
        dest="from_action",
        type=SMALL,
        metavar="N",
        help="play on from the position after the first N actions, against bots (later deals follow the record)",
    )
    replay.add_argument(
        "--opponents",
        default=DEFAULT_OPPONENT,
        help=f"with --from: bot spec(s) for the other seats (default {DEFAULT_OPPONENT})",
    )
    replay.add_argument("--save", metavar="FILE", help="with --from: write the new game's record here")
    replay.add_argument("--lang", choices=("en", "de"), help="with --from: language (en or de; default en)")
    replay.add_argument("--fast", action="store_true", help="with --from: do not pause between bot moves")

    review = commands.add_parser(
        "review", help="mark the decisions of a seat where the bot's best move beats the one played"
    )
    review.add_argument("file", help="a record (JSON, see docs/architecture.md, Records)")
    review.add_argument(
        "--seat",
        type=SMALL,
        required=True,
        help="the seat to review, counted from 0 (0 is the table's seat 1)",
    )
    review.add_argument(
        "--margin",
        type=float,
        help="smallest estimated cost worth a mark (default 2 points, or 0.05 chance to win in Codename)",
    )
    review.add_argument("--worlds", type=SMALL, default=24, help="worlds sampled per decision (default 24)")
    review.add_argument("--json", action="store_true", help="print the marks as JSON")
    review.add_argument("--quiet", action="store_true", help="no progress bar")
    review.add_argument("--lang", choices=("en", "de"), default="en", help="language of the table (en or de)")

    simulate = commands.add_parser("simulate", help="play many games between bots")
    simulate.add_argument("game", nargs="?", help=f"game id ({', '.join(game_ids())}); not with --deals-from")
    simulate.add_argument(
        "-n", "--games", type=COUNT, help="number of games (default 100; with --deals-from, one per seat)"
    )
    simulate.add_argument(
        "--deals-from",
        metavar="RECORD",
        help="play every game on the deals of this record, the bots' seats rotated game by game",
    )
    simulate.add_argument("--players", type=SMALL, help="number of seats")
    simulate.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="a game option (repeatable)"
    )
    simulate.add_argument(
        "--bots", default="random", help="bot specs in seat order, comma-separated (default: random)"
    )
    simulate.add_argument("--seed", type=SEED, default=0, help="seed of the whole run (default 0)")
    simulate.add_argument("--records", metavar="DIR", help="write every game as a record into DIR")
    simulate.add_argument("--workers", type=WORKERS, default=1, help="worker processes (default 1)")
    _add_backend_arguments(simulate)
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")

    play = commands.add_parser("play", help="play in the terminal against bots or friends")
    play.add_argument("game", nargs="?", help=f"game id ({', '.join(game_ids())})")
    play.add_argument("--players", type=SMALL, help="number of seats")
    play.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    play.add_argument(
        "--seat",
        type=SMALL,
        default=0,
        help="your seat, counted from 0 (default 0; the table calls it seat 1)",
    )
    play.add_argument("--humans", type=SMALL, default=1, help="people sharing this screen (hot-seat)")
    play.add_argument(
        "--opponents",
        default=DEFAULT_OPPONENT,
        help=f"bot spec(s) for the other seats (default {DEFAULT_OPPONENT})",
    )
    play.add_argument("--seed", type=SEED, help="seed for the deals (default: random)")
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
        "-n", "--deals", type=COUNT, default=50, help="deals; each is played by every lineup"
    )
    tournament.add_argument("--players", type=SMALL, help="number of seats")
    tournament.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    tournament.add_argument("--seed", type=SEED, default=0, help="seed of the whole run (default 0)")
    tournament.add_argument("--workers", type=WORKERS, default=1, help="worker processes (default 1)")
    _add_backend_arguments(tournament)
    tournament.add_argument("--json", action="store_true", help="print the results as JSON")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")
    from oracles.analysis.cli import add_parsers  # analyze, balance (each sets args.run)

    add_parsers(commands)

    from oracles.server.cli import add_parser as add_serve_parser

    add_serve_parser(commands)

    from oracles.server.cli import add_db_parser  # db prune (sets args.run)

    add_db_parser(commands)
    return parser


def _add_backend_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games run: local processes, or Ray (a local Ray with --workers CPUs, "
        "or the cluster at --address); the same seed gives the same games on both",
    )
    command.add_argument("--address", metavar="ADDR", help="a Ray cluster to use with --backend ray")


def _status_line(state: State) -> str:
    player = state.current_player()
    if player == TERMINAL:
        return "finished"
    if player == CHANCE:
        return "waiting for chance (a deal or a draw)"
    return f"seat {player} to act"


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options of ``--option K=V`` and ``--players``."""
    return with_players(parse_option_assignments(args.option), args.players)


def _at_least_one(value: int, flag: str) -> None:
    if value < 1:
        raise InputError(f"{flag} must be at least 1, got {value}")


def _shown_options(options: dict[str, Any]) -> str:
    """A game's options for the terminal (values from a record are text
    from outside: printable, markup escaped)."""
    return escape(printable(", ".join(f"{k}={v}" for k, v in options.items()), 300))


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
        # A default that follows other options (Oracle's rounds, Inrah's
        # elements and rounds) is shown as the default game's, and says so.
        opts = "\n".join(
            f"{o.name} = {defaults[o.name]!r}{' (at the defaults above)' if callable(o.default) else ''}: {o.doc}"
            for o in cls.option_schema
        )
        table.add_row(gid, cls.title, f"{cls.min_players}-{cls.max_players}", opts)
    Console().print(table)
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    import math

    from oracles.bots.advice import decisions_of, review

    record = load_record_file(args.file)
    final = replay_record(record)
    if not 0 <= args.seat < final.num_players:
        raise InputError(f"--seat must be from 0 to {final.num_players - 1}, got {args.seat}")
    if args.worlds < 1:
        raise InputError(f"--worlds must be at least 1, got {args.worlds}")
    if args.margin is not None and not (math.isfinite(args.margin) and args.margin >= 0):
        raise InputError(f"--margin must be a finite number of at least 0, got {args.margin}")
    actions = final.history()
    replay = final.game.new_initial_state()

    def state_at(index: int) -> State:
        while len(replay.history()) < index:
            replay.apply_trusted(actions[len(replay.history())])
        return replay

    progress = progress_bar(args.quiet or args.json)
    with progress:
        task = progress.add_task("review", total=decisions_of(final, args.seat))
        marks = review(
            state_at,
            actions,
            args.seat,
            args.margin,
            args.worlds,
            lambda: progress.advance(task),
            lang=args.lang,
        )
    if args.json:
        print(json.dumps([mark.__dict__ for mark in marks]))
        return 0
    print_review(marks, final.game, args.seat, args.lang)
    return 0


def print_review(marks: Sequence[Any], game: Game, seat: int, lang: str) -> None:
    """The marks of a review as a table in ``lang``: each move in words, its
    notation (as the record writes it) beneath, the seat counted from 1 as
    the terminal calls it, with the ``--seat`` number it was asked by."""
    from babel.numbers import format_percent
    from rich.console import Console
    from rich.table import Table

    from oracles.i18n import decimal, move_label, seat_name, translate

    def words(move: str) -> str:
        # A keep by its cards' texts, as the edition played words them: this
        # table shows no cards to read their ids from.
        said = move_label(game.id, move, lang, game=game)
        return escape(said) if said == move else f"{escape(said)}\n[dim]{escape(move)}[/dim]"

    console = Console()
    who = translate(lang, "{name} (--seat {seat})", name=seat_name(seat, (), lang), seat=seat)
    if not marks:
        console.print(
            translate(lang, "No decision of {seat} where the bot's best move beats the one played.", seat=who)
        )
        return
    table = Table(
        title=translate(lang, "{seat}: decisions the bot would play otherwise", seat=who), expand=True
    )
    # Short headers: the reason needs the width. "#": the action's index in
    # the record, as ``oracles replay --from`` counts.
    table.add_column("#", justify="right")
    # The moves wrap within a share of the width (an Oracle keep's two
    # texts would take the whole line and leave the reason a letter wide).
    table.add_column(translate(lang, "played"), ratio=1)
    table.add_column(translate(lang, "bot's best"), ratio=1)
    table.add_column(translate(lang, "cost"), justify="right", no_wrap=True)
    table.add_column(translate(lang, "why"), ratio=2)
    for mark in marks:
        if mark.unit == "points":
            cost = translate(lang, "{points} points", points=decimal(mark.cost, lang))
        else:
            cost = translate(lang, "{chance} to win", chance=format_percent(mark.cost, locale=lang))
        table.add_row(str(mark.index), words(mark.played), words(mark.best), cost, escape(mark.why or ""))
    console.print(table)


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record_file(args.file)
    if args.from_action is not None:
        return _play_on_from(args, record)
    playing = [
        flag
        for flag, given in [
            ("--opponents", args.opponents != DEFAULT_OPPONENT),
            ("--save", args.save),
            ("--lang", args.lang),
            ("--fast", args.fast),
        ]
        if given
    ]
    if playing:
        # Silently ignored before: they belong to playing on.
        raise InputError(
            f"{', '.join(playing)} go with --from N (playing on); without it replay only shows the record"
        )
    state = replay_record(record)
    result = summary(state)
    if args.seat is not None and not 0 <= args.seat < state.num_players:
        raise InputError(f"--seat must be from 0 to {state.num_players - 1}, got {args.seat}")
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
    console.print("options: " + _shown_options(state.game.options))
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
        listed = ", ".join(legal[:20]) + (f" … ({len(legal)} in all)" if len(legal) > 20 else "")
        console.print(f"legal actions: {escape(listed)}")
    if args.seat is not None:
        console.print_json(json.dumps(state.view(args.seat)))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from oracles.backends import check_backend
    from oracles.simulate import prepare, prepare_records_dir, simulate
    from oracles.workers import check_workers

    if args.deals_from is not None:
        return _simulate_on_deals(args)
    if not args.game:
        raise InputError("name a game to simulate (" + ", ".join(game_ids()) + ") or --deals-from RECORD")
    if args.games is None:
        args.games = 100
    _at_least_one(args.games, "-n")
    check_workers(args.workers)
    check_backend(args.backend, args.address)
    options = _game_options(args)
    specs = args.bots.split(",")
    game, _ = prepare(args.game, options, specs)  # errors before the progress bar starts
    records = prepare_records_dir(args.records)

    progress = progress_bar(args.quiet or args.json)
    with progress:
        task = progress.add_task(game.id, total=args.games)
        result = simulate(
            game.id,
            args.games,
            options=options,
            bot_specs=specs,
            seed=args.seed,
            workers=args.workers,
            records_dir=records,
            on_result=lambda _: progress.advance(task),
            backend=args.backend,
            address=args.address,
        )
    data = result.as_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    _print_summary(data)
    return 0


def _simulate_on_deals(args: argparse.Namespace) -> int:
    """``oracles simulate --deals-from RECORD``: duplicate play between bots."""
    from oracles.core.records import same_deals_plan
    from oracles.simulate import prepare, prepare_records_dir, simulate_on_deals

    record = load_record_file(args.deals_from)
    state = replay_record(record)
    game = state.game
    where = shown(args.deals_from)
    if args.game and args.game.strip().lower() != game.id:
        raise InputError(f"{where} is a game of {game.id}, not {shown(args.game)}")
    if args.players is not None or args.option:
        raise InputError(
            f"--players and --option cannot be used with --deals-from: {where} fixes the options"
        )
    if args.workers != 1 or args.backend != "local" or args.address:
        raise InputError("--deals-from plays its games in this process: no --workers, --backend or --address")
    games = game.num_players if args.games is None else args.games
    _at_least_one(games, "-n")
    same_deals_plan(record)  # errors before the progress bar starts
    prepare(game.id, game.options, args.bots.split(","))
    prepare_records_dir(args.records)
    progress = progress_bar(args.quiet or args.json)
    with progress:
        task = progress.add_task(game.id, total=games)
        data = simulate_on_deals(
            record,
            games,
            bot_specs=args.bots.split(","),
            seed=args.seed,
            records_dir=args.records,
            on_result=lambda _: progress.advance(task),
        )
    if args.json:
        print(json.dumps(data))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{games} games of {game.id} on the deals of {escape(printable(args.deals_from))}")
    console.print("options: " + _shown_options(data["options"]))
    origin = ", ".join(f"{score:g}" for score in data["origin"]["scores"])
    console.print(f"the record's own scores by seat: {origin}")
    table = Table()
    for column in ("bot", "games", "mean score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in data["bots"]:
        table.add_row(escape(row["bot"]), str(len(row["scores"])), f"{row['mean_score']:.1f}")
    console.print(table)
    return 0


def _play_on_from(args: argparse.Namespace, record: dict[str, Any]) -> int:
    """``oracles replay FILE --from N``: play on from action N against bots."""
    import random
    from pathlib import Path

    from rich.console import Console

    from oracles.bots.specs import make_bot
    from oracles.core.records import PlannedChance, chance_actions, position_after
    from oracles.play.render import renderer_for
    from oracles.play.session import PlaySession, bounded_input

    if args.json:
        raise InputError("--from plays a game: it cannot be used with --json")
    final = replay_record(record)  # a broken record names its bad action first
    # The last N that leaves something to play: a finished record's end does not.
    top = len(record["actions"]) - (1 if final.is_terminal() else 0)
    if not 0 <= args.from_action <= top:
        raise InputError(
            f"--from N plays on after the record's first N actions: N is from 0 to {top} here, "
            f"not {args.from_action}"
            + (f" (after {top + 1} the game is over)" if final.is_terminal() else "")
        )
    state = position_after(record, args.from_action)
    n = state.num_players
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < n:
        raise InputError(f"--seat must be from 0 to {n - 1}, got {seat}")
    others = [other for other in range(n) if other != seat]
    specs = [s.strip() for s in args.opponents.split(",") if s.strip()] or [DEFAULT_OPPONENT]
    if len(specs) not in (1, len(others)):
        raise InputError(f"--opponents names {len(specs)} bots for {len(others)} other seats")
    seed = random.SystemRandom().randrange(2**32)
    bots = {other: make_bot(specs[i % len(specs)], other, seed) for i, other in enumerate(others)}
    console = Console(highlight=False)
    console.print(f"playing on from action {args.from_action} of {escape(printable(args.file))}")
    session = PlaySession(
        state,
        [seat],
        bots,
        renderer_for(state.game.id, args.lang or "en"),
        console,
        seed=seed,
        save_path=Path(args.save) if args.save else None,
        fast=args.fast,
        read=input if sys.stdin.isatty() else bounded_input,
        chance=PlannedChance(chance_actions(record, start=args.from_action)),
    )
    session.run()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import random
    from pathlib import Path

    from rich.console import Console

    from oracles.bots.specs import make_bot
    from oracles.core.inputs import load_game_checked
    from oracles.play.render import renderer_for
    from oracles.play.session import PlaySession, bounded_input

    console = Console(highlight=False)
    if args.resume:
        state = _resumed_state(args)
        shown_path = escape(printable(args.resume))
        console.print(f"resumed a game of {len(state.history())} actions from {shown_path}")
    else:
        if not args.game:
            raise InputError("name a game to play (" + ", ".join(game_ids()) + ") or --resume FILE")
        state = load_game_checked(args.game, _game_options(args)).new_initial_state()
    n = state.num_players
    if not 0 <= args.seat < n:
        raise InputError(f"--seat must be from 0 to {n - 1}, got {args.seat}")
    if not 1 <= args.humans <= n:
        raise InputError(f"--humans must be from 1 to {n}, got {args.humans}")
    humans = [(args.seat + i) % n for i in range(args.humans)]
    others = [seat for seat in range(n) if seat not in humans]
    specs = [s.strip() for s in args.opponents.split(",") if s.strip()] or [DEFAULT_OPPONENT]
    if len(specs) not in (1, len(others)):
        raise InputError(f"--opponents names {len(specs)} bots for {len(others)} other seats")
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
        read=input if sys.stdin.isatty() else bounded_input,
    )
    session.run()
    return 0


def _resumed_state(args: argparse.Namespace) -> State:
    """The state of ``--resume FILE``. The record fixes the game and its
    options: a different ``GAME``, ``--players`` or ``--option`` is refused
    rather than silently ignored."""
    from oracles.core.options import resolve_options

    state = replay_record(load_record_file(args.resume))
    game = state.game
    where = shown(args.resume)
    if args.game and args.game.strip().lower() != game.id:
        raise InputError(f"{where} is a game of {game.id}, not {shown(args.game)}")
    given = _game_options(args)
    if given:
        wanted = resolve_options(game.id, type(game).option_schema, {**game.options, **given})
        differ = [name for name in given if wanted[name] != game.options[name]]
        if differ:
            name = differ[0]
            flag = "--players" if name == "players" else f"--option {name}"
            raise InputError(
                f"{where} was saved with {name}={game.options[name]}; {flag} cannot change it on --resume"
            )
    return state


def cmd_tournament(args: argparse.Namespace) -> int:
    from oracles.backends import check_backend
    from oracles.tournament import plan_tournament, run_tournament
    from oracles.workers import check_workers

    _at_least_one(args.deals, "-n")
    check_workers(args.workers)
    check_backend(args.backend, args.address)
    options = _game_options(args)
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    game, plan = plan_tournament(args.game, specs, options)  # errors before the progress bar
    total = args.deals * len(plan)
    if total > MAX_GAMES:
        raise InputError(f"{args.deals} deals x {len(plan)} lineups is more than {MAX_GAMES} games")
    progress = progress_bar(args.quiet or args.json)
    with progress:
        task = progress.add_task(game.id, total=total)
        data = run_tournament(
            game.id,
            specs,
            args.deals,
            options=options,
            seed=args.seed,
            workers=args.workers,
            on_game=lambda _: progress.advance(task),
            backend=args.backend,
            address=args.address,
        )
    if args.json:
        print(json.dumps(data))
        return 0
    from rich.console import Console
    from rich.table import Table

    opts = _shown_options(data["options"])
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
            escape(row["bot"]),
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

    opts = _shown_options(data["options"])
    table = Table(title=f"{data['game']} ({opts}): {data['games']} games")
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score (95% CI)", justify="right")
    for row in data["seats"]:
        low, high = row["win_rate_ci95"]
        table.add_row(
            str(row["seat"]),
            escape(row["bot"]),
            f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}–{100 * high:.1f})",
            f"{row['mean_score']:.2f} ± {row['mean_score_ci95']:.2f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"mean game length: {data['mean_length']:.1f} actions ({data['mean_decisions']:.1f} decisions); "
        f"{data['games_per_second']:.1f} games/s ({data['seconds']:.2f} s)"
    )


def _fail(message: str, status: int = EXIT_ERROR) -> int:
    """Print ``message`` as one printable line on stderr; return ``status``.
    Every error leaves the program here."""
    with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing more to say
        print(printable(message, MAX_LINE), file=sys.stderr, flush=True)
    return status


def _cmd_serve(args: argparse.Namespace) -> int:
    from oracles.server.cli import run as run_server

    return run_server(args)


def _run(args: argparse.Namespace) -> int:
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "games": lambda _: cmd_games(),
        "replay": cmd_replay,
        "review": cmd_review,
        "simulate": cmd_simulate,
        "play": cmd_play,
        "tournament": cmd_tournament,
        "serve": _cmd_serve,
    }
    if args.command in commands:
        return commands[args.command](args)
    if hasattr(args, "run"):  # commands that register themselves (oracles.analysis.cli)
        return int(args.run(args))
    raise UsageError(f"oracles: unknown command {shown(args.command)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    try:
        return _run(parser.parse_args(argv))
    except UsageError as error:
        return _fail(str(error), EXIT_USAGE)
    except OraclesError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (``oracles games | head -1``): stop quietly,
        # and keep Python from complaining when it flushes stdout at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except Exception as error:
        # A bug, not the user's fault; still one line, never a traceback.
        return _fail(f"oracles: internal error ({type(error).__name__}): {error}", EXIT_INTERNAL)


if __name__ == "__main__":
    sys.exit(main())
