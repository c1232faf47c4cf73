"""Practice games: a game a computer player stood in for a seat's person counts apart.

When a person drops out of a game with other people, a computer player stands in for their seat
until they come back. ``results`` gains ``stood_in``: the stand-in made at least one decision for
the seat (a bid, a discard, a card, a claim of the rest), so the seat's result is a practice game
(:data:`~euchre.server.db.PRACTICE_MARKS`), as for a take-back, a hint or a chosen seed. The game
still to finish needs no new column: a stand-in's decisions are the seat's ``action`` and
``claim`` events between its ``bot_in`` and ``bot_out`` events, in the log already, and the live
table reads them from it (``LiveTable.stood_in``), after a restart too.

Existing rows get false: every game finished before this revision keeps the count it had. (Their
events could tell, as 0005 read take-backs from them, but that would move old games out of
players' totals after the fact; it is left undone here.)

Adding a column with a server default is an in-place ``ALTER TABLE ... ADD COLUMN`` on SQLite and
PostgreSQL alike: no row is rewritten or lost.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("results", sa.Column("stood_in", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("stood_in")
