"""Indexes for the tables made on another's deals or played on from it.

Whether a finished game's deals are being played at another table
(``Hub.deals_in_play``, asked before its record, replay or spectator view is
shown) and the members of a series look for the tables whose
``deals_from`` or ``branch_of`` is a given table: without an index each
asked scanned every table ever stored.

Revision ID: 0007
Revises: 0004 (the last before it: the order of the chain is 0001, 0002, 0005, 0006, 0003, 0004)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None

#: name, table, columns (the same as ``oracles.server.db``'s metadata).
INDEXES = [
    ("ix_tables_deals_from", "tables", ["deals_from"]),
    ("ix_tables_branch_of", "tables", ["branch_of"]),
]


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
