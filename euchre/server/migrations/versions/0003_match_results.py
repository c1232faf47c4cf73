"""Matches in the statistics: ``results`` gains ``games`` (games the table played: 1, or a
match's), ``game_wins`` (those the seat's side won) and ``match`` (the table was a match).

Existing rows are single games: ``games`` 1, ``match`` false, and ``game_wins`` 1 exactly where
the row was won. Adding a column with a server default is an in-place ``ALTER TABLE ... ADD
COLUMN`` on SQLite and PostgreSQL alike.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("results", sa.Column("games", sa.Integer, nullable=False, server_default="1"))
    op.add_column("results", sa.Column("game_wins", sa.Integer, nullable=False, server_default="0"))
    op.add_column("results", sa.Column("match", sa.Boolean, nullable=False, server_default=sa.false()))
    results = sa.table("results", sa.column("won", sa.Boolean), sa.column("game_wins", sa.Integer))
    op.execute(results.update().where(results.c.won.is_(True)).values(game_wins=1))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("match")
        batch.drop_column("game_wins")
        batch.drop_column("games")
