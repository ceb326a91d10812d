"""Invites that last: public or private tables, claimed seats, the waiting room.

``tables.listed`` says whether the lobby shows the table; ``tables.creator_hash``
is the SHA-256 of the creator's token (who may start a waiting table);
``tables.waiting`` is true while the table waits for its people.
``tables.turn_based`` marks a table played over hours or days (no
stand-in but the per-move clock); ``tables.spectator_chat`` is ``own``
(spectators talk among themselves) or ``none``.
``seats.claimed`` is true once a human seat has its person (a join, or a
socket with the seat's token); an unclaimed seat can be taken by its invite.

Revision ID: 0003
Revises: 0006 (after the merge of main: 0002, 0005, 0006, then this)
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("waiting", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("turn_based", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("spectator_chat", sa.String(8), nullable=False, server_default="own"))
    with op.batch_alter_table("seats") as batch:
        # Seats of older tables keep the tokens their creators handed out.
        batch.add_column(sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("claimed")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("spectator_chat")
        batch.drop_column("turn_based")
        batch.drop_column("waiting")
        batch.drop_column("creator_hash")
        batch.drop_column("listed")
