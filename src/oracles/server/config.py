"""The server's settings: one frozen dataclass, filled by ``oracles serve``.

Tests build their own :class:`Settings` (a temporary database, no bot pause,
bots in threads) and hand it to :func:`oracles.server.app.create_app`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def default_db_path() -> Path:
    """Where the SQLite file lives when ``--db`` is not given:
    ``$XDG_DATA_HOME/oracles/oracles.sqlite3``, that is
    ``~/.local/share/oracles/oracles.sqlite3`` on most systems. A per-user
    data folder rather than the working directory, so that games survive a
    ``cd`` and two checkouts share one server history."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "oracles" / "oracles.sqlite3"


def default_bot_workers() -> int:
    """Bot processes when ``--bot-workers`` is not given: one per core, so
    that bots at many tables think side by side on a server of its own."""
    return os.cpu_count() or 1


def database_url(text: str | None) -> str:
    """An SQLAlchemy async URL from what a user may type after ``--db``: a
    file path, ``sqlite:///file``, ``postgresql://user@host/db`` (the async
    drivers are filled in), or a full ``dialect+driver://`` URL."""
    if not text:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path}"
    if text.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + text[len("sqlite://") :]
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+asyncpg://" + text.split("://", 1)[1]
    if "://" in text:
        return text
    return f"sqlite+aiosqlite:///{Path(text).expanduser().resolve()}"


def redact_url(url: str) -> str:
    """A database URL fit for a log: the password is replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, _, host = rest.rpartition("@")
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else url


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told. Times are in seconds."""

    db_url: str = field(default_factory=lambda: database_url(None))
    host: str = "127.0.0.1"
    port: int = 8000
    #: How long a disconnected person's seat waits before a bot plays it.
    grace: float = 60.0
    #: Pause before a bot's move, so that people can follow the game.
    bot_pause: float = 0.5
    #: Origins allowed besides the server's own (``--allow-origin``).
    allowed_origins: tuple[str, ...] = ()
    #: Per-connection rate limit: messages a second, and the burst allowed.
    rate: float = 20.0
    burst: int = 40
    #: Bots choose in a process pool (``"process"``) or, for tests, in a
    #: thread (``"thread"``); ``bot_workers`` is the pool's size (one per core).
    bot_mode: str = "process"
    bot_workers: int = field(default_factory=default_bot_workers)
    #: Bot spec of the stand-in that plays for an absent person.
    standin: str = "heuristic"
    #: Longest chat line, in characters.
    chat_max: int = 500
    #: Run Alembic's ``upgrade head`` on start.
    migrate: bool = True

    # Limits (docs/server.md, "Limits"): what one client may ask of the server.
    #: Largest HTTP request body, in bytes (413 past it).
    max_body: int = 64 * 1024
    #: Longest thinking time of a bot's move, in seconds (a spec asking for
    #: more is refused; a search without a time budget gets this one).
    max_bot_seconds: float = 5.0
    #: Tables one client address may create: a second on average, bursts of 30.
    create_rate: float = 1.0
    create_burst: int = 30
    #: Seat claims (joins) one client address may make: the same way.
    join_rate: float = 1.0
    join_burst: int = 20
    #: Socket handshakes one client address may make: 2 a second, bursts of 60.
    connect_rate: float = 2.0
    connect_burst: int = 60
    #: Open sockets at once: per client address, and per table.
    max_sockets_per_client: int = 200
    max_sockets_per_table: int = 300
    #: Chat lines a table may carry: 2 a second, bursts of 20 (all its sockets together).
    chat_rate: float = 2.0
    chat_burst: int = 20
    #: Unfinished tables held in memory with no socket; past it, new tables wait (503).
    max_unattended: int = 500
    #: An unfinished table untouched this long (seconds; 7 days) is abandoned:
    #: it leaves the lobby and is not resumed on start (its link still works).
    abandon_after: float = 7 * 24 * 3600.0


#: The limits ``--limit NAME=VALUE`` may change, and their types.
LIMIT_FIELDS: dict[str, type] = {
    "max_body": int,
    "max_bot_seconds": float,
    "create_rate": float,
    "create_burst": int,
    "join_rate": float,
    "join_burst": int,
    "connect_rate": float,
    "connect_burst": int,
    "max_sockets_per_client": int,
    "max_sockets_per_table": int,
    "chat_rate": float,
    "chat_burst": int,
    "max_unattended": int,
    "abandon_after": float,
}
