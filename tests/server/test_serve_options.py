"""``oracles serve``'s options become the server's settings."""

from __future__ import annotations

import os
from pathlib import Path

from oracles.cli import _build_parser
from oracles.server.cli import settings_from
from oracles.server.config import Settings


def test_bot_workers_default_to_the_cores(tmp_path: Path) -> None:
    db = str(tmp_path / "x.sqlite3")
    parser = _build_parser()
    assert settings_from(parser.parse_args(["serve", "--db", db])).bot_workers == (os.cpu_count() or 1)
    assert Settings(db_url=f"sqlite+aiosqlite:///{db}").bot_workers == (os.cpu_count() or 1)
    assert settings_from(parser.parse_args(["serve", "--db", db, "--bot-workers", "3"])).bot_workers == 3
    assert settings_from(parser.parse_args(["serve", "--db", db, "--bot-workers", "0"])).bot_workers == 1
