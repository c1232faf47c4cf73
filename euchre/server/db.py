"""The server's database: the schema, the connection settings that make a commit survive
``kill -9``, and the queries the server runs.

The ``events`` table is the truth: a table's game is the replay of its events through the engine,
so nothing else (no snapshot, no cache) has to be kept consistent with it. ``tables`` holds what a
table is (rules, the secret seed, status) and, once over, the result and the record; ``seats``
holds names, the SHA-256 of each seat's token (never the token) and the player id of the browser
that holds it; ``results`` holds one row per seat of each finished game for the statistics page,
with the seat's player id copied in, so the statistics read one table.

A result is *fair* unless its game was assisted for that seat: the seat took back a card (an
``undo`` event of the seat: replayed after a restart like any event), asked for a hint
(``seats.hinted``, set before the seat's first hint is sent, never cleared), a computer player
standing in for the seat's absent person made a decision for it (an ``action`` or ``claim`` event
of the seat between its ``bot_in`` and ``bot_out``: replayed like the take-back), or the table's
deals came from a seed its creator chose (``tables.seeded``: a deal to play again, for every
seat). The statistics count fair games only, and assisted ones apart (:meth:`Store.stats`); the
games list marks them, by seat (:meth:`Store.games`). Both test a row with :func:`practice_of`.

SQLite is the default (WAL, ``synchronous=FULL``, ``BEGIN IMMEDIATE``: a committed transaction is
on disk); PostgreSQL is used when the URL names it. The schema is created and upgraded by Alembic
(``euchre/server/migrations``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    ColumnElement,
    Connection,
    DateTime,
    Double,
    Engine,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    case,
    cast,
    create_engine,
    delete,
    event,
    exists,
    false,
    func,
    insert,
    not_,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

__all__ = ["Store", "DamagedTable", "TableRow", "SeatRow", "EventRow", "token_hash", "player_key", "metadata",
           "sqlite_url", "practice_of", "PRACTICE_MARKS"]

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(24), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("preset", String(32), nullable=True),
    Column("rules", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("dealer", Integer, nullable=False),
    Column("level", String(16), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    # waiting | playing | over | abandoned (never started within the expiry): plain text, no
    # constraint, so a new status needs no migration.
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("scores", JSON, nullable=True),
    Column("winners", JSON, nullable=True),
    Column("record", Text, nullable=True),
    Column("seeded", Boolean, nullable=False, server_default=false()),
    # The creator chose the seed (a deal to play again): every seat's result is practice (0005).
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(24), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(32), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("host", Boolean, nullable=False, default=False),
    Column("player", String(64), nullable=True),
    # The browser's player id (statistics only; never sent back): set when the seat is created or
    # first claimed, never replaced. NULL for bots, old rows and clients that send none.
    Column("hinted", Boolean, nullable=False, server_default=false()),
    # The seat was given a hint: committed before the first hint is sent, never cleared (0005).
)

events = Table(
    "events", metadata,
    Column("table_id", String(24), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("client_id", String(48), nullable=True),
    Column("payload", JSON, nullable=False),
    Column("at", Double, nullable=False),
    UniqueConstraint("table_id", "seat", "client_id", name="uq_events_client_id"),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(32), nullable=False),
    Column("text", String(400), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("line_id", String(48), nullable=True),
    # The line's own id, made by the server when the line is said: a commit of it retried (by
    # the writer, or by the server for a resend of a line whose commit it heard fail) finds it
    # stored and inserts nothing, so a line is kept once. NULL on rows from before it (0004).
    Index("uq_chat_line_id", "table_id", "line_id", unique=True),
)

results = Table(
    "results", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(32), nullable=False, index=True),
    Column("kind", String(8), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
    Column("calls", Integer, nullable=False),
    Column("made", Integer, nullable=False),
    Column("euchred", Integer, nullable=False),
    Column("defended", Integer, nullable=False),
    Column("euchres", Integer, nullable=False),
    Column("loners", Integer, nullable=False),
    Column("loner_marches", Integer, nullable=False),
    Column("player", String(64), nullable=True, index=True),
    Column("games", Integer, nullable=False, server_default="1"),
    Column("game_wins", Integer, nullable=False, server_default="0"),
    Column("match", Boolean, nullable=False, server_default=false()),
    # Why the game was assisted for this seat, if it was (0005): the seat took back a card, was
    # given a hint, or the table's seed was chosen; or (0006) a computer player standing in for
    # the seat's absent person decided something for it. Any of them makes the row a practice
    # game, left out of the statistics' totals and counted apart.
    Column("took_back", Boolean, nullable=False, server_default=false()),
    Column("hinted", Boolean, nullable=False, server_default=false()),
    Column("seeded", Boolean, nullable=False, server_default=false()),
    Column("stood_in", Boolean, nullable=False, server_default=false()),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

PRACTICE_MARKS = ("took_back", "hinted", "seeded", "stood_in")
"""The ``results`` columns that say why a seat's game was a practice game (any one of them makes
it one): the seat took back a card, was given a hint, the table's seed was chosen, or a computer
player stood in for the seat's person and made at least one decision for them (a person must not
win, or lose, a game a bot played part of)."""


def practice_of(c: Any) -> ColumnElement[bool]:
    """Whether a ``results`` row (``c``: its columns) is a practice game: any of its
    :data:`PRACTICE_MARKS`. The one definition, so the statistics (which count these games apart)
    and the games list (which marks them) never disagree about a game."""
    return or_(*(getattr(c, name) for name in PRACTICE_MARKS))


def token_hash(token: str) -> str:
    """What is stored for a seat token: its SHA-256 (a stolen database gives no working link)."""
    return hashlib.sha256(token.encode()).hexdigest()


def player_key(player: str) -> str:
    """What the statistics show of a player id: the first 12 hex digits of its SHA-256, a stable
    key that tells two rows of one name apart without giving away the id (which a browser sends
    as its own)."""
    return hashlib.sha256(player.encode()).hexdigest()[:12]


def sqlite_url(path: str | Path) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{Path(path).expanduser().resolve()}"


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


_ADVISORY_KEY = 0x6575636872650001
"""The PostgreSQL advisory lock a server holds on its database ("euchre" and 1, in 64 bits)."""


class DatabaseFileLost(Exception):
    """The SQLite file was removed or replaced while the server ran (:meth:`Store.file_problem`)."""


class DatabaseInUse(Exception):
    """Another server already serves this database (:meth:`Store.hold`)."""


class DamagedTable(Exception):
    """A table's stored rows cannot be decoded (a corrupt row): it is set aside, the others are
    not affected."""

    def __init__(self, table_id: str, error: Exception) -> None:
        super().__init__(f"table {table_id}: its stored rows cannot be read ({type(error).__name__}: "
                         f"{str(error)[:200]})")
        self.table_id = table_id


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    name: str
    kind: str
    """``human`` (someone holds its link), ``bot``, or ``open`` (waiting for a friend or a bot)."""
    token_hash: str | None
    host: bool = False
    player: str | None = None
    """The player id of the browser that created or first claimed the seat (statistics only)."""
    hinted: bool = False
    """The seat was given a hint at this table: its result is a practice game."""

    def accepts(self, token: str) -> bool:
        """The token is this seat's (compared in constant time)."""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))


@dataclass
class EventRow:
    """One event of a table's log; ``seq`` numbers them from 1 without gaps."""

    seq: int
    kind: str
    seat: int | None
    client_id: str | None
    payload: dict[str, Any]
    at: float


@dataclass
class TableRow:
    """A table as stored, with its seats and (when loaded for replay) its events."""

    id: str
    created_at: dt.datetime
    preset: str | None
    rules: dict[str, Any]
    seed: int
    dealer: int
    level: str
    mode: str
    status: str
    seats: list[SeatRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    finished_at: dt.datetime | None = None
    scores: list[int] | None = None
    winners: list[int] | None = None
    seeded: bool = False
    """The creator chose the seed (``POST /api/tables`` with ``seed``): a deal to play again, so
    every seat's result is a practice game."""


Op = Callable[[Connection], None]
"""A piece of a transaction: the writer runs several tables' ops in one commit."""


@dataclass(frozen=True)
class _InsertEvent:
    """The op that appends one event: :meth:`Store.run` gathers these into one statement."""

    row: dict[str, Any]

    def __call__(self, conn: Connection) -> None:
        conn.execute(insert(events), [self.row])


class Store:
    """The database: opened from a URL, migrated to the current schema, and queried.

    Every method runs synchronously (the server calls it from its one writer thread, or from a
    worker thread for reads), and every write is one transaction.
    """

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            database = self.url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            # How long a write waits for another writer's lock before it fails (the client then
            # gets "unavailable"): 30 s, or the URL's ``?timeout=SECONDS``.
            try:
                self.busy_timeout = float(self.url.query.get("timeout", 30))  # type: ignore[arg-type]
            except ValueError:
                raise ValueError(f"the SQLite URL's timeout must be a number of seconds, not "
                                 f"{self.url.query.get('timeout')!r}") from None
            self.url = self.url.difference_update_query(["timeout"])
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": self.busy_timeout}
        else:
            kwargs["pool_pre_ping"] = True
        self._held: Any = None
        """What :meth:`hold` holds: the lock file, or the connection holding the advisory lock."""
        self.engine: Engine = create_engine(self.url, json_serializer=_dumps, **kwargs)
        """Writes (and migrations)."""
        self.reader: Engine = self.engine
        """Reads: with SQLite a second engine whose transactions do not take the write lock."""
        if self.is_sqlite:
            _sqlite_durability(self.engine, immediate=True, busy_timeout=self.busy_timeout)
            self.reader = create_engine(self.url, json_serializer=_dumps, **kwargs)
            _sqlite_durability(self.reader, immediate=False, busy_timeout=self.busy_timeout)
        if migrate:
            self.migrate()
        self._file_id = self._sqlite_file_id()
        """The SQLite file's (device, inode) when opened: a file removed or replaced while the
        server runs would take every later commit into a file nobody will open again."""

    def _sqlite_file_id(self) -> tuple[int, int] | None:
        database = self.url.database if self.is_sqlite else None
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        try:
            st = Path(database).stat()
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def file_problem(self) -> str | None:
        """Why commits to this database would be lost, or ``None``: the SQLite file was removed
        or replaced since it was opened (checked before each commit, and by ``/healthz``)."""
        if self._file_id is None:
            return None
        now_id = self._sqlite_file_id()
        if now_id == self._file_id:
            return None
        what = "removed" if now_id is None else "replaced by another file"
        return (f"the database file {self.url.database} was {what} while the server ran; commits would be "
                "lost: restart the server")

    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def hold(self) -> None:
        """Claim this database for this process until :meth:`close`, or raise
        :class:`DatabaseInUse`: a server keeps its tables in memory and numbers their events
        itself, so a second server on the same database would serve stale tables and have every
        action refused. SQLite: a lock on the file ``<database>.lock`` beside it (the system frees
        it when the process ends, even by a kill); PostgreSQL: a session advisory lock, held on
        a connection of its own. An in-memory SQLite database is never shared."""
        if self._held is not None:
            return
        if self.is_sqlite:
            database = self.url.database
            if not database or database == ":memory:" or database.startswith("file:"):
                return
            import fcntl

            path = Path(database).with_name(Path(database).name + ".lock")
            f = open(path, "a+")  # noqa: SIM115 - held open until close()
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()
                raise DatabaseInUse(f"another euchre server is using {database} (its lock {path} is held); "
                                    "stop it first, or give this one another --database-url") from None
            self._held = f
            return
        conn = self.engine.connect()
        try:
            got = conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": _ADVISORY_KEY}).scalar()
            conn.commit()
        except BaseException:
            conn.close()
            raise
        if not got:
            conn.close()
            raise DatabaseInUse("another euchre server is using this database (it holds the server's advisory "
                                "lock); stop it first, or give this one another --database-url")
        self._held = conn

    def close(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            held.close()  # (a connection returned to the pool ends its session's lock on dispose)
        self.engine.dispose()
        self.reader.dispose()

    # --- writes ---------------------------------------------------------------------------------
    def run(self, ops: Iterable[Op]) -> None:
        """Run ops in one transaction: all are committed, or none. The events of a group commit
        go in as one multi-row insert (one statement instead of one per event: a quarter of the
        writer's time)."""
        problem = self.file_problem()
        if problem is not None:
            raise DatabaseFileLost(problem)
        rows: list[dict[str, Any]] = []
        with self.engine.begin() as conn:
            for op in ops:
                if isinstance(op, _InsertEvent):
                    rows.append(op.row)
                else:
                    op(conn)
            if rows:
                conn.execute(insert(events), rows)

    @staticmethod
    def op_create_table(row: TableRow) -> Op:
        """A new table: its row, its seats and its events (a game against computer players is
        created started). Nothing if this very table is stored already (:func:`_stored`): a commit
        of it was made though its answer was lost, and the writer runs it again."""
        def op(conn: Connection) -> None:
            if _stored(conn, row):
                return
            conn.execute(insert(tables).values(
                id=row.id, created_at=row.created_at, preset=row.preset, rules=row.rules, seed=row.seed,
                dealer=row.dealer, level=row.level, mode=row.mode, status=row.status, seeded=row.seeded))
            conn.execute(insert(seats), [
                {"table_id": row.id, "seat": s.seat, "name": s.name, "kind": s.kind,
                 "token_hash": s.token_hash, "host": s.host, "player": s.player, "hinted": s.hinted}
                for s in row.seats])
            if row.events:
                conn.execute(insert(events), [
                    {"table_id": row.id, "seq": e.seq, "kind": e.kind, "seat": e.seat, "client_id": e.client_id,
                     "payload": e.payload, "at": e.at} for e in row.events])
        return op

    @staticmethod
    def op_remove_unclaimed(created: dict[str, int]) -> Op:
        """Remove tables whose creator was refused (nobody has their links), by id with the number
        of events they were created with, if they were stored after all: only while they hold no
        event beyond those, so nothing anyone did there is removed."""
        def op(conn: Connection) -> None:
            for table_id, count in created.items():
                later = exists().where(events.c.table_id == table_id, events.c.seq > count)
                if conn.execute(select(tables.c.id).where(tables.c.id == table_id, ~later)).first() is None:
                    continue
                for t, column in ((events, events.c.table_id), (chat, chat.c.table_id), (seats, seats.c.table_id),
                                  (tables, tables.c.id)):
                    conn.execute(delete(t).where(column == table_id))
        return op

    @staticmethod
    def op_event(table_id: str, ev: EventRow) -> Op:
        return _InsertEvent({"table_id": table_id, "seq": ev.seq, "kind": ev.kind, "seat": ev.seat,
                             "client_id": ev.client_id, "payload": ev.payload, "at": ev.at})

    @staticmethod
    def op_seat(table_id: str, seat: SeatRow) -> Op:
        """The seat's name and kind as in memory, and its player id if it had none (the first
        claim wins, in the database as in memory)."""
        values: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
        if seat.player is not None:
            values["player"] = func.coalesce(seats.c.player, seat.player)

        def op(conn: Connection) -> None:
            conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat.seat)
                         .values(**values))
        return op

    @staticmethod
    def op_hinted(table_id: str, seat: int) -> Op:
        """The seat was given a hint (:attr:`SeatRow.hinted`): its result will be a practice game."""
        def op(conn: Connection) -> None:
            conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat).values(hinted=True))
        return op

    @staticmethod
    def op_status(table_id: str, status: str) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(update(tables).where(tables.c.id == table_id).values(status=status))
        return op

    @staticmethod
    def op_abandon(table_id: str) -> Op:
        """A waiting table becomes ``abandoned`` (only if it is still waiting: a start that got
        there first wins)."""
        def op(conn: Connection) -> None:
            conn.execute(update(tables).where(tables.c.id == table_id, tables.c.status == "waiting")
                         .values(status="abandoned"))
        return op

    @staticmethod
    def op_finish(table_id: str, scores: Sequence[int], winners: Sequence[int], record: str,
                  rows: Sequence[dict[str, Any]]) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(update(tables).where(tables.c.id == table_id).values(
                status="over", finished_at=now(), scores=list(scores), winners=list(winners), record=record))
            if rows:
                conn.execute(insert(results), [{"table_id": table_id, **r} for r in rows])
        return op

    @staticmethod
    def op_chat(table_id: str, seat: int | None, name: str, text: str, at: dt.datetime,
                line_id: str | None = None) -> Op:
        """A chat line; with ``line_id``, nothing if the table holds that line already (its
        commit was made though its answer was lost, and it is run again)."""
        def op(conn: Connection) -> None:
            if line_id is not None and conn.execute(
                    select(chat.c.id).where(chat.c.table_id == table_id, chat.c.line_id == line_id)).first():
                return
            conn.execute(insert(chat).values(table_id=table_id, seat=seat, name=name, text=text, at=at,
                                             line_id=line_id))
        return op

    # --- reads ----------------------------------------------------------------------------------
    def load_tables(self, statuses: Sequence[str] = ("waiting", "playing"),
                    active_since: float | None = None,
                    damaged: Callable[[str, Exception], None] | None = None) -> list[TableRow]:
        """Every table in one of ``statuses`` with its seats and events, for replay at start;
        with ``active_since`` (a Unix time), only those with an event since then, or opened since
        then.

        Each table is read on its own: one whose rows cannot be decoded (a corrupt row) is
        handed to ``damaged`` with the error and left out, and the others load as usual.
        """
        q = select(tables.c.id).where(tables.c.status.in_(statuses))
        if active_since is not None:
            # The time of each table's last event: one index seek on the primary key per table.
            last = (select(events.c.at).where(events.c.table_id == tables.c.id).order_by(events.c.seq.desc())
                    .limit(1).scalar_subquery())
            opened = dt.datetime.fromtimestamp(active_since, dt.UTC)
            q = q.where((last >= active_since) | (tables.c.created_at >= opened))
        out = []
        with self.reader.connect() as conn:
            ids = [r[0] for r in conn.execute(q.order_by(tables.c.created_at))]
            for table_id in ids:
                try:
                    row = self._load(conn, table_id, with_events=True)
                except DamagedTable as e:
                    if damaged is None:
                        raise
                    damaged(table_id, e)
                    continue
                if row is not None:
                    out.append(row)
        return out

    def expired_waiting(self, opened_before: dt.datetime, limit: int = 200) -> list[str]:
        """Ids of tables still waiting that were opened before ``opened_before``, oldest first."""
        q = (select(tables.c.id).where(tables.c.status == "waiting", tables.c.created_at < opened_before)
             .order_by(tables.c.created_at).limit(limit))
        with self.reader.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    def load_table(self, table_id: str, *, with_events: bool = True) -> TableRow | None:
        """The table, or ``None`` if there is none; :class:`DamagedTable` if its rows cannot be
        decoded."""
        with self.reader.connect() as conn:
            return self._load(conn, table_id, with_events=with_events)

    def _load(self, conn: Connection, table_id: str, *, with_events: bool) -> TableRow | None:
        try:
            r = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            return None if r is None else self._table(conn, r, with_events=with_events)
        except SQLAlchemyError:
            raise  # the database itself failing (down, locked, refusing): not this table's rows
        except Exception as e:  # noqa: BLE001 - any value that does not decode (a bad date, inf, bad JSON...)
            raise DamagedTable(table_id, e) from e

    def _table(self, conn: Connection, r: Any, *, with_events: bool = True) -> TableRow:
        row = TableRow(
            id=r["id"], created_at=r["created_at"], preset=r["preset"], rules=dict(r["rules"]), seed=int(r["seed"]),
            dealer=r["dealer"], level=r["level"], mode=r["mode"], status=r["status"],
            finished_at=r["finished_at"], scores=r["scores"], winners=r["winners"], seeded=bool(r["seeded"]))
        for s in conn.execute(select(seats).where(seats.c.table_id == row.id).order_by(seats.c.seat)).mappings():
            row.seats.append(SeatRow(s["seat"], s["name"], s["kind"], s["token_hash"], bool(s["host"]),
                                     s["player"], bool(s["hinted"])))
        if with_events:
            q = select(events).where(events.c.table_id == row.id).order_by(events.c.seq)
            for e in conn.execute(q).mappings():
                if not isinstance(e["payload"], dict):
                    raise ValueError(f"event {e['seq']}: its payload is not an object")
                if e["seq"] != len(row.events) + 1:
                    raise ValueError(f"event {e['seq']} follows event {len(row.events)}: the log has a gap")
                row.events.append(EventRow(e["seq"], e["kind"], e["seat"], e["client_id"], dict(e["payload"]),
                                           float(e["at"])))
        return row

    def last_seq(self, table_id: str) -> int:
        """The number of the table's last stored event (0 for none)."""
        with self.reader.connect() as conn:
            return int(conn.execute(select(func.max(events.c.seq)).where(events.c.table_id == table_id)).scalar() or 0)

    def record(self, table_id: str) -> str | None:
        with self.reader.connect() as conn:
            return conn.execute(select(tables.c.record).where(tables.c.id == table_id)).scalar()

    def recent_chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.reader.connect() as conn:
            q = select(chat).where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(limit)
            rows = list(conn.execute(q).mappings())
        return [{"seat": r["seat"], "name": r["name"], "text": r["text"], "at": _iso(r["at"])} for r in reversed(rows)]

    def chat_stored(self, table_id: str, line_id: str) -> bool:
        """Whether the table's chat holds the line of this id."""
        with self.reader.connect() as conn:
            q = select(chat.c.id).where(chat.c.table_id == table_id, chat.c.line_id == line_id)
            return conn.execute(q).first() is not None

    def table_stored(self, row: TableRow) -> bool:
        """Whether this very table (:func:`_stored`) is in the database."""
        with self.reader.connect() as conn:
            return _stored(conn, row)

    def chat_count(self, table_id: str) -> int:
        with self.reader.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(chat).where(chat.c.table_id == table_id))
                       .scalar() or 0)

    def games(self, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Finished games, newest first; ``egn`` says whether the record can be downloaded as EGN
        (``None``: the stored rules do not read).

        Each game also says which seats played it as a practice game, as the statistics count
        them (:func:`practice_of` on the seat's ``results`` row): ``practice``, by seat like
        ``players`` (``None`` for a seat without a result row, which the statistics do not count
        either), ``practice_reasons``, by seat, the marks that made it one (of
        :data:`PRACTICE_MARKS`: ``took_back``, ``hinted``, ``seeded``, ``stood_in``; empty for a
        fair game), and ``seeded``, whether the table's seed was chosen (a practice game for every
        seat)."""
        # Only the listed columns (not each game's rules and record), and the scores as raw text,
        # decoded row by row: one damaged row shows without its scores instead of failing the page.
        c = tables.c
        with self.reader.connect() as conn:
            q = (select(c.id, c.preset, c.seeded, cast(c.scores, Text).label("scores"),
                        cast(c.winners, Text).label("winners"), cast(c.rules, Text).label("rules"))
                 .where(c.status == "over").order_by(c.finished_at.desc()).limit(limit).offset(offset))
            rows = list(conn.execute(q).mappings())
            marks = self._practice_marks(conn, [r["id"] for r in rows])
            out = []
            for r in rows:
                listed = list(conn.execute(select(seats.c.seat, seats.c.name).where(seats.c.table_id == r["id"])
                                           .order_by(seats.c.seat)).mappings())
                names = [s["name"] for s in listed]
                own = marks.get(r["id"], {})
                seat_marks = [own.get(s["seat"]) for s in listed]
                created, finished = self._dates(conn, r["id"])
                out.append({"id": r["id"], "preset": r["preset"], "players": names, "scores": _ints(r["scores"]),
                            "winners": _ints(r["winners"]), "created_at": created, "finished_at": finished,
                            "egn": _egn_ok(r["rules"]), "seeded": bool(r["seeded"]),
                            "practice": [None if m is None else m[0] for m in seat_marks],
                            "practice_reasons": [[] if m is None else m[1] for m in seat_marks]})
        return out

    @staticmethod
    def _practice_marks(conn: Connection, table_ids: Sequence[str]) -> dict[str, dict[int, tuple[bool, list[str]]]]:
        """Per listed table and seat: whether its result row is a practice game (:func:`practice_of`,
        the statistics' own test) and the marks that made it one, read in one query."""
        if not table_ids:
            return {}
        c = results.c
        q = (select(c.table_id, c.seat, practice_of(c).label("practice"), *(getattr(c, m) for m in PRACTICE_MARKS))
             .where(c.table_id.in_(table_ids)))
        out: dict[str, dict[int, tuple[bool, list[str]]]] = {}
        for r in conn.execute(q).mappings():
            out.setdefault(r["table_id"], {})[int(r["seat"])] = (
                bool(r["practice"]), [m for m in PRACTICE_MARKS if r[m]])
        return out

    @staticmethod
    def _dates(conn: Connection, table_id: str) -> tuple[str | None, str | None]:
        """A listed table's two dates, each ``None`` if it does not read (a damaged row still lists)."""
        try:
            r = conn.execute(select(tables.c.created_at, tables.c.finished_at).where(tables.c.id == table_id)).first()
            return (None, None) if r is None else (_iso(r[0]), _iso(r[1]))
        except SQLAlchemyError:
            raise
        except Exception:  # noqa: BLE001 - a date that does not read (SQLite keeps dates as text)
            return None, None

    def stats(self) -> list[dict[str, Any]]:
        """Per player (humans and bots alike): totals over finished fair games, and how many
        practice games they played besides (``practice_games``).

        A practice game for a seat is one where it took back a card, was given a hint, whose
        deals came from a chosen seed, or where a computer player stood in for its person and
        decided something for them (the ``results`` columns ``took_back``, ``hinted``,
        ``seeded``, ``stood_in``: :data:`PRACTICE_MARKS`): it says little of how the player plays
        (a known deal replayed, every bad card taken back, cards a bot played), so it is kept and
        counted, but never mixed into the totals and the rates. A player who played only practice
        games still has a row, its totals zero.

        A player is their browser's player id where the seat had one, so two people who both
        kept the default name get a row each and one person who renamed keeps one row, shown
        under the name of their latest finished game; rows without an id (bots, games from
        before ids, API clients that send none) are grouped by name, as before. The id itself is
        never returned: ``key`` is the first 12 hex digits of its SHA-256 (``None`` for a row
        grouped by name), enough to tell two rows of one name apart.
        """
        c = results.c
        practice = practice_of(c)
        fair = not_(practice)

        def fair_sum(column: Any, label: str) -> Any:
            return func.sum(case((fair, column), else_=0)).label(label)

        later = results.alias("later")
        later_table = tables.alias("later_table")
        # The name of the id's latest finished game (correlated on the grouped ``player`` column).
        latest_name = (select(later.c.name)
                       .select_from(later.join(later_table, later_table.c.id == later.c.table_id))
                       .where(later.c.player == c.player)
                       .order_by(later_table.c.finished_at.desc(), later_table.c.created_at.desc(),
                                 later.c.table_id.desc())
                       .limit(1).scalar_subquery())
        # Rows with a player id group by it alone; the name groups only the rows without one (an
        # id and a name can never be mistaken for each other: they are separate grouping columns).
        by_name = case((c.player.is_(None), c.name), else_=None)
        q = (select(c.player, by_name.label("by_name"), c.kind, latest_name.label("latest_name"),
                    fair_sum(c.games, "games"), fair_sum(c.game_wins, "wins"),
                    func.count(case((and_(fair, c.match), c.table_id)).distinct()).label("matches"),
                    func.count(case((and_(fair, c.match, c.won), c.table_id)).distinct()).label("match_wins"),
                    fair_sum(c.hands, "hands"), fair_sum(c.points_for, "points_for"),
                    fair_sum(c.points_against, "points_against"), fair_sum(c.calls, "calls"),
                    fair_sum(c.made, "made"), fair_sum(c.euchred, "euchred"),
                    fair_sum(c.defended, "defended"), fair_sum(c.euchres, "euchres"),
                    fair_sum(c.loners, "loners"), fair_sum(c.loner_marches, "loner_marches"),
                    func.sum(case((practice, c.games), else_=0)).label("practice_games"))
             .group_by(c.player, by_name, c.kind))
        with self.reader.connect() as conn:
            rows = list(conn.execute(q).mappings())
        out = []
        for r in rows:
            hands = int(r["hands"] or 0)
            calls = int(r["calls"] or 0)
            defended = int(r["defended"] or 0)
            player = r["player"]
            out.append({
                "name": r["by_name"] if player is None else r["latest_name"],
                "key": None if player is None else player_key(player),
                "kind": r["kind"], "games": int(r["games"] or 0), "wins": int(r["wins"] or 0),
                "matches": int(r["matches"] or 0), "match_wins": int(r["match_wins"] or 0),
                "hands": hands,
                "points_per_hand": (int(r["points_for"]) - int(r["points_against"])) / hands if hands else None,
                "calls": calls, "make_rate": int(r["made"]) / calls if calls else None,
                "euchred_rate": int(r["euchred"]) / calls if calls else None,
                "defended": defended, "euchre_rate": int(r["euchres"]) / defended if defended else None,
                "loners": int(r["loners"] or 0), "loner_marches": int(r["loner_marches"] or 0),
                "practice_games": int(r["practice_games"] or 0),
            })
        out.sort(key=lambda row: (-row["games"], -row["practice_games"], row["name"], row["key"] or ""))
        return out

    def table_count(self) -> int:
        with self.reader.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(tables)).scalar() or 0)


def _stored(conn: Connection, row: TableRow) -> bool:
    """Whether the database holds this very table: a row of its id with its seed and its seats'
    token hashes (random: another table of the same id would differ)."""
    seed = conn.execute(select(tables.c.seed).where(tables.c.id == row.id)).scalar()
    if seed is None or int(seed) != row.seed:
        return False
    q = select(seats.c.token_hash).where(seats.c.table_id == row.id).order_by(seats.c.seat)
    return [r[0] for r in conn.execute(q)] == [s.token_hash for s in row.seats]


def _egn_ok(rules_text: str | None) -> bool | None:
    """Whether a game under the stored rules (JSON text) can be written as EGN, or ``None`` if they
    do not read (a damaged row still lists)."""
    from euchre import egn
    from euchre.rules import Rules

    try:
        return egn.export_problem(Rules.from_dict(json.loads(rules_text or ""))) is None
    except Exception:  # noqa: BLE001 - a damaged row: unknown, the listing goes on
        return None


def _ints(raw: str | None) -> list[int] | None:
    """A stored list of whole numbers, or ``None`` if there is none or it cannot be read."""
    try:
        value = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    if isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        return value
    return None


def _iso(t: dt.datetime | None) -> str | None:
    if t is None:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.UTC)
    return t.isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _sqlite_durability(engine: Engine, *, immediate: bool, busy_timeout: float = 30.0) -> None:
    """WAL with ``synchronous=FULL`` (a commit is on disk before it returns), a busy timeout,
    foreign keys, and ``BEGIN IMMEDIATE`` so a writer takes the lock up front instead of failing
    half-way through a transaction."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", f"busy_timeout={int(busy_timeout * 1000)}",
                       "foreign_keys=ON"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
