"""A client's move id is unique per seat, not per table.

Two seats may pick the same id for their own moves; with the id unique per
table, the second seat's legal move was taken for a resend and dropped.

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite cannot drop a constraint in place: batch mode copies the table.
    with op.batch_alter_table("moves", recreate="auto") as batch:
        batch.drop_constraint("uq_moves_table_move_id", type_="unique")
        batch.create_unique_constraint("uq_moves_table_seat_move_id", ["table_id", "seat", "move_id"])


def downgrade() -> None:
    with op.batch_alter_table("moves", recreate="auto") as batch:
        batch.drop_constraint("uq_moves_table_seat_move_id", type_="unique")
        batch.create_unique_constraint("uq_moves_table_move_id", ["table_id", "move_id"])
