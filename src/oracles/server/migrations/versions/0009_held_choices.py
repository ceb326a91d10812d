"""Choices held ahead of a turn, stored.

A seat may choose before its turn (an Oracle keep while another seat
keeps): the server holds the choice and plays it when the turn comes. It
was held in memory only, so a restart, or the table let go from memory
while nobody watched, lost a choice the person had been told was taken.
It is now stored before it is acknowledged and removed with the move that
plays it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "held_choices",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("move_id", sa.String(128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("held_choices")
