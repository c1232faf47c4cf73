"""Chat line ids: ``chat`` gains a nullable ``line_id`` (the id the server gives each line when it
is said), unique within a table, so a line whose commit was made though its answer was lost (a
connection lost during COMMIT) is found when it is committed again, and kept once.

Existing rows keep NULL: a unique index counts NULLs as distinct on SQLite and PostgreSQL alike,
so they never conflict. Adding a nullable column and an index are in place on both (no table
rebuild).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("line_id", sa.String(48), nullable=True))
    op.create_index("uq_chat_line_id", "chat", ["table_id", "line_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_chat_line_id", table_name="chat")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("line_id")
