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
    #: thread (``"thread"``); ``bot_workers`` is the pool's size.
    bot_mode: str = "process"
    bot_workers: int = 1
    #: Bot spec of the stand-in that plays for an absent person.
    standin: str = "heuristic"
    #: Longest chat line, in characters.
    chat_max: int = 500
    #: Run Alembic's ``upgrade head`` on start.
    migrate: bool = True
