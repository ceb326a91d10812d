"""Indexes for a database that has lived: the lobby, resuming, rematches
and pruning read only the rows they need.

The lobby and resuming asked for the unfinished tables newest first through
an index on the status alone, so they sorted what it found; finding the
rematch of a table, or the tables finished before a date, scanned every
table ever stored. The composite index on status and creation time replaces
the one on status (its first column serves the same lookups). The move
log, the seats, the hints taken and the chat are already found by table
(the leading columns of their keys, and ``ix_chat_table``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: name, table, columns (the same as ``oracles.server.db``'s metadata).
INDEXES = [
    # The lobby and resuming on start: the unfinished tables, newest first.
    ("ix_tables_status_created", "tables", ["status", "created_at"]),
    # Pruning: the finished tables that ended before a date.
    ("ix_tables_status_finished", "tables", ["status", "finished_at"]),
    # The rematch already made of a table.
    ("ix_tables_rematch_of", "tables", ["rematch_of"]),
]


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)
    op.drop_index("ix_tables_status", table_name="tables")


def downgrade() -> None:
    op.create_index("ix_tables_status", "tables", ["status"])
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
