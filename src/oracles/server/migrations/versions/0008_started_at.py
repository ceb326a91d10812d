"""When a table's play began.

A server restarted while a person's move clock ran used to give that person
the whole clock again: the clock's start lived in memory only. A restarted
table now counts from its last stored move, or from when its play began
(creation, or the start of a table that waited for its people), whichever
is later. Tables stored before this revision have no start and keep
counting from the restart.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("started_at")
