"""Fixtures of the server tests: a database of each backend, a running server."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from serverkit import PostgresCluster, ThreadServer, postgres_bin

from oracles.server.config import Settings, database_url

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster | None]:
    """One PostgreSQL cluster per test process, or ``None`` without the binaries."""
    bindir = postgres_bin()
    if bindir is None:
        yield None
        return
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
    except Exception as error:  # pragma: no cover - depends on the machine
        cluster.stop()
        pytest.skip(f"PostgreSQL did not start: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=BACKENDS)
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """A factory of fresh, empty databases (a URL as ``--db`` takes it)."""
    if request.param == "postgresql":
        if postgres_bin() is None:
            pytest.skip(
                "PostgreSQL binaries not installed: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql)"
            )
        cluster = request.getfixturevalue("pg_cluster")
        return cluster.new_database  # type: ignore[no-any-return]
    counter = iter(range(1000))
    return lambda: str(tmp_path / f"db{next(counter)}.sqlite3")


@pytest.fixture
def start_server(new_db: Callable[[], str]) -> Iterator[Callable[..., ThreadServer]]:
    """Start a server on a fresh database; ``start_server(grace=1, ...)``
    overrides settings. Stopped at the test's end."""
    with ExitStack() as stack:

        def start(db: str | None = None, **overrides: Any) -> ThreadServer:
            fields: dict[str, Any] = {"bot_pause": 0.0, "bot_mode": "thread", "grace": 60.0}
            fields.update(overrides)
            settings = Settings(db_url=database_url(db or new_db()), **fields)
            return stack.enter_context(ThreadServer(settings))

        yield start
