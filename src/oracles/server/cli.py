"""``oracles serve``: the arguments and the uvicorn that runs the app.

``oracles.cli`` only calls :func:`add_parser` and :func:`run`, and
:func:`add_db_parser` for ``oracles db`` (which sets ``args.run``).
"""

from __future__ import annotations

import argparse
import socket
from typing import Any

from oracles.server.config import (
    LIMIT_FIELDS,
    Settings,
    database_url,
    default_bot_workers,
    default_db_path,
    redact_url,
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    serve = subparsers.add_parser("serve", help="run the game server (tables, bots, WebSocket play)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--db",
        metavar="URL",
        help=f"database: an SQLite file or URL, or postgresql://user:pass@host/db (default {default_db_path()})",
    )
    serve.add_argument(
        "--grace",
        type=float,
        default=60.0,
        help="seconds before a bot plays for an absent person (default 60)",
    )
    serve.add_argument(
        "--bot-pause", type=float, default=0.5, help="seconds before each bot move (default 0.5)"
    )
    serve.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help=f"processes for bot search (default: one per core, {default_bot_workers()} here)",
    )
    serve.add_argument(
        "--bot-mode",
        choices=("process", "thread"),
        default="process",
        help="where bots think (default process)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another web origin allowed to connect",
    )
    serve.add_argument(
        "--rate", type=float, default=20.0, help="messages a second per connection (default 20)"
    )
    serve.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the limits of docs/server.md (e.g. max_bot_seconds=10); repeatable",
    )
    serve.add_argument("--log-level", default="info", help="debug, info, warning or error (default info)")
    return serve  # type: ignore[no-any-return]


def parse_limits(pairs: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs naming limits of :class:`Settings` (a number
    each, at least zero) as a dict; ``SystemExit`` with a one-line reason
    otherwise.

    >>> parse_limits(["max_bot_seconds=10", "create_burst=100"])
    {'max_bot_seconds': 10.0, 'create_burst': 100}
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        name = name.strip()
        kind = LIMIT_FIELDS.get(name)
        if kind is None:
            raise SystemExit(f"oracles serve: unknown limit {name!r} (limits: {', '.join(LIMIT_FIELDS)})")
        try:
            number = kind(value.strip())
        except ValueError:
            raise SystemExit(f"oracles serve: limit {name} must be a number, got {value.strip()!r}") from None
        if not 0 <= number < 1e12:
            raise SystemExit(f"oracles serve: limit {name} must be from 0 to 10^12, got {value.strip()!r}")
        out[name] = number
    return out


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(
        db_url=database_url(args.db),
        host=args.host,
        port=args.port,
        grace=max(0.0, args.grace),
        bot_pause=max(0.0, args.bot_pause),
        allowed_origins=tuple(args.allow_origin),
        rate=max(1.0, args.rate),
        burst=max(2, int(2 * args.rate)),
        bot_mode=args.bot_mode,
        bot_workers=max(1, default_bot_workers() if args.bot_workers is None else args.bot_workers),
        **parse_limits(args.limit),
    )


def uvicorn_config(app: Any, host: str, port: int, **extra: Any) -> Any:
    """The uvicorn configuration the server runs under (``serve``, and the
    tests' servers): ``extra`` adds to it or overrides it."""
    import uvicorn

    from oracles.server.sockets import LeanWebSocketProtocol

    options: dict[str, Any] = {
        # A seat's token is in the query string: uvicorn's access log would
        # print it, so requests are logged by the app, without queries.
        "access_log": False,
        "log_config": None,
        # uvicorn's sans-I/O protocol, holding less for each quiet socket.
        "ws": LeanWebSocketProtocol,
        "ws_max_size": 64 * 1024,
        "ws_per_message_deflate": False,
        "timeout_graceful_shutdown": 10,
        "lifespan": "on",
    }
    return uvicorn.Config(app, host=host, port=port, **{**options, **extra})


def serve(settings: Settings, log_level: str = "info") -> None:
    """Run the server until SIGINT/SIGTERM; then stop gracefully (writes in
    flight finish first)."""
    import uvicorn

    from oracles.server import collector, logs
    from oracles.server.app import create_app

    logs.setup(log_level)
    collector.install()
    app = create_app(settings)
    config = uvicorn_config(app, settings.host, settings.port)
    server = uvicorn.Server(config)
    # Bind first, so that the URL printed is one that answers.
    sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((settings.host, settings.port))
    port = sock.getsockname()[1]
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(f"oracles serve: http://{host}:{port}/  (database {redact_url(settings.db_url)})", flush=True)
    server.run(sockets=[sock])


def run(args: argparse.Namespace) -> int:
    serve(settings_from(args), args.log_level)
    return 0


def _before(text: str) -> Any:
    from oracles.server.prune import parse_before

    try:
        return parse_before(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_db_parser(subparsers: Any) -> argparse.ArgumentParser:
    """``oracles db prune``: the server's database kept small (docs/server.md)."""
    db_command = subparsers.add_parser("db", help="look after the game server's database")
    actions = db_command.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    prune = actions.add_parser(
        "prune", help="delete finished tables older than a date, with their moves, seats, chat and hints"
    )
    prune.add_argument(
        "--finished-before",
        required=True,
        type=_before,
        metavar="DATE",
        help="prune the tables finished before DATE: 2026-01-31 (midnight UTC), 2026-01-31T12:00, or 90d (days ago)",
    )
    prune.add_argument(
        "--db",
        metavar="URL",
        help=f"database: an SQLite file or URL, or postgresql://user:pass@host/db (default {default_db_path()})",
    )
    prune.add_argument(
        "--archive",
        metavar="DIR",
        help="first write each pruned game's record into DIR (<table id>.json, readable by oracles replay)",
    )
    prune.add_argument("--dry-run", action="store_true", help="only count what would be deleted")
    prune.set_defaults(run=run_db)
    return db_command  # type: ignore[no-any-return]


def run_db(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from alembic.util.exc import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from oracles.core.errors import InputError
    from oracles.server.db import make_engine
    from oracles.server.migrate import upgrade
    from oracles.server.prune import count, prune

    url = database_url(args.db)
    if url.startswith("sqlite") and ":memory:" not in url:
        path = Path(url.split(":///", 1)[1])
        if not path.is_file():
            raise InputError(f"oracles db prune: no database at {path}")
    archive = Path(args.archive).expanduser() if args.archive else None
    if archive is not None and archive.exists() and not archive.is_dir():
        raise InputError(f"oracles db prune: --archive {archive} is not a folder")
    before = args.finished_before
    when = before.strftime("%Y-%m-%d %H:%M UTC")

    async def work() -> str:
        engine = make_engine(url)
        try:
            # The indexes of the newest schema make the search quick.
            await upgrade(engine)
            if args.dry_run:
                counts = await count(engine, before)
                verb = "would prune"
            else:
                counts = await prune(engine, before, archive)
                verb = "pruned"
        finally:
            await engine.dispose()
        line = (
            f"{verb} {counts.tables:,} tables finished before {when} "
            f"({counts.seats:,} seats, {counts.moves:,} moves, {counts.chat:,} chat lines, "
            f"{counts.hints:,} hint rows)"
        )
        if archive is not None and not args.dry_run:
            line += f"; {counts.archived:,} records written to {archive}"
        return line

    try:
        print(asyncio.run(work()), flush=True)
    except (SQLAlchemyError, CommandError, OSError) as error:
        # (CommandError: a schema newer than this program's migrations.)
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InputError(f"oracles db prune: {redact_url(reason)}") from None
    return 0
