"""The first schema: tables, seats, the event log, chat and results.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.Column("winners", sa.JSON, nullable=True),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("host", sa.Boolean, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("client_id", sa.String(48), nullable=True),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.UniqueConstraint("table_id", "seat", "client_id", name="uq_events_client_id"),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("calls", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("euchred", sa.Integer, nullable=False),
        sa.Column("defended", sa.Integer, nullable=False),
        sa.Column("euchres", sa.Integer, nullable=False),
        sa.Column("loners", sa.Integer, nullable=False),
        sa.Column("loner_marches", sa.Integer, nullable=False),
    )
    op.create_index("ix_results_name", "results", ["name"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("chat")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_table("tables")
