"""Practice games: the statistics count fair games only, and assisted ones apart.

``results`` gains ``took_back`` (the seat took back a card), ``hinted`` (the seat was given a
hint) and ``seeded`` (the table's deals came from a seed its creator chose: a deal to play again);
any of them makes the row a practice game. To know them for the games still to finish, ``seats``
gains ``hinted`` (set before a seat's first hint is sent: hints were never stored before) and
``tables`` gains ``seeded`` (whether the creator chose the seed was never stored either). A take-back
needs no column of its own: it is an ``undo`` event of the seat, in the log already.

Existing rows get what the stored data can tell:

- ``results.took_back``: exactly, from the table's ``undo`` events of that seat.
- ``results.hinted`` and ``seats.hinted``: false. Hints left no trace, so a game played with hints
  before this revision stays counted as fair.
- ``tables.seeded`` (and ``results.seeded`` from it): a table against computer players whose seed
  is below 2**32, or equal to the seed of a table opened before it. The server draws a secret seed
  uniformly below 2**62 (``secrets.randbelow``), so a random one falls below 2**32 once in a
  billion tables and never repeats, whereas a seed a person types is short, or copied from a
  finished game's record to play its deal again. A long seed of the player's own invention that
  was never a table's is missed, and counted as fair.

Adding a column with a server default is an in-place ``ALTER TABLE ... ADD COLUMN`` on SQLite and
PostgreSQL alike; the backfill reads only the seeds that repeat and each result's own events (the
events' primary key starts with the table's id).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

CHOSEN_BELOW = 2**32
"""A seed below this was chosen by a person (a random one is below it once in 2**30 tables)."""


def upgrade() -> None:
    op.add_column("tables", sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("seats", sa.Column("hinted", sa.Boolean, nullable=False, server_default=sa.false()))
    for name in ("took_back", "hinted", "seeded"):
        op.add_column("results", sa.Column(name, sa.Boolean, nullable=False, server_default=sa.false()))

    tables = sa.table("tables", sa.column("id", sa.String), sa.column("seed", sa.BigInteger),
                      sa.column("mode", sa.String), sa.column("created_at", sa.DateTime),
                      sa.column("seeded", sa.Boolean))
    results = sa.table("results", sa.column("table_id", sa.String), sa.column("seat", sa.Integer),
                       sa.column("took_back", sa.Boolean), sa.column("seeded", sa.Boolean))
    events = sa.table("events", sa.column("table_id", sa.String), sa.column("seat", sa.Integer),
                      sa.column("kind", sa.String))
    conn = op.get_bind()

    # Chosen seeds: short ones, and every table but the first of a seed that repeats.
    op.execute(tables.update().where(tables.c.mode == "bots", tables.c.seed < CHOSEN_BELOW).values(seeded=True))
    repeated = (sa.select(tables.c.seed).group_by(tables.c.seed).having(sa.func.count() > 1))
    later: list[str] = []
    for (seed,) in conn.execute(repeated).all():
        ids = conn.execute(sa.select(tables.c.id, tables.c.mode).where(tables.c.seed == seed)
                           .order_by(tables.c.created_at, tables.c.id)).all()
        later.extend(table_id for table_id, mode in ids[1:] if mode == "bots")
    for i in range(0, len(later), 500):
        op.execute(tables.update().where(tables.c.id.in_(later[i:i + 500])).values(seeded=True))

    op.execute(results.update()
               .where(results.c.table_id.in_(sa.select(tables.c.id).where(tables.c.seeded.is_(True))))
               .values(seeded=True))
    undone = sa.exists().where(events.c.table_id == results.c.table_id, events.c.seat == results.c.seat,
                               events.c.kind == "undo")
    op.execute(results.update().where(undone).values(took_back=True))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        for name in ("seeded", "hinted", "took_back"):
            batch.drop_column(name)
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("hinted")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seeded")
