"""Schema migrations: Alembic's ``upgrade head``, run by the server on start.

The migration scripts ship inside the package (``migrations/``), so a plain
install can create or upgrade its database without an ``alembic.ini``.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock held while migrating (any fixed number).
MIGRATION_LOCK = 0x6F7261636C6573


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database's schema to the newest revision. On PostgreSQL
    the upgrade holds an advisory lock for its transaction, so that several
    processes started at once upgrade one after the other (the later ones
    find the schema at head and do nothing)."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(_upgrade)
