"""Branches: a table on another's deals, or played on from a position of another.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("deals_from", sa.String(32), nullable=True))
        batch.add_column(sa.Column("branch_of", sa.String(32), nullable=True))
        batch.add_column(sa.Column("branch_version", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("branch_version")
        batch.drop_column("branch_of")
        batch.drop_column("deals_from")
