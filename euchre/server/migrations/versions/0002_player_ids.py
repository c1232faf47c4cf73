"""Player ids: a nullable ``player`` on ``seats`` and ``results`` (indexed there), so the
statistics group one browser's games whatever name they were played under.

Existing rows keep NULL and are grouped by name, as before. Adding a nullable column is an
in-place ``ALTER TABLE ... ADD COLUMN`` on SQLite and PostgreSQL alike (no table rebuild).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("player", sa.String(64), nullable=True))
    op.add_column("results", sa.Column("player", sa.String(64), nullable=True))
    op.create_index("ix_results_player", "results", ["player"])


def downgrade() -> None:
    op.drop_index("ix_results_player", table_name="results")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("player")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player")
