"""The server's heart: live tables, the order of work for an action, bots, presence.

Data flows one way. A client's action is validated by the engine, committed to the database as
an event, applied to the table's :class:`~euchre.game.Game`, and only then acknowledged and
broadcast, each recipient getting the engine's view for its seat (``view_dicts``), so the
server never decides what a seat may see. A table's state is always the replay of its events, so
a restart after ``kill -9`` rebuilds every table exactly (:meth:`Hub.start`).

Commits from many tables are gathered into one transaction by :class:`Writer` (group commit): a
durable commit costs one disk flush however many tables it carries, which is what lets hundreds
of tables play at once on SQLite.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import dataclasses
import datetime as dt
import functools
import gc
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from euchre import egn, notation
from euchre.actions import Action
from euchre.bots.base import Bot
from euchre.bots.levels import LEVELS, level_bot
from euchre.bots.persona import computer_names
from euchre.cards import LOW, trump_letter
from euchre.describe import (
    action_words,
    hand_result_words,
    high_bid_words,
    joined,
    missing_choice_words,
    named_trump,
)
from euchre.errors import EuchreError, RulesError
from euchre.game import Game
from euchre.hints import HINT_BID_SAMPLES, HINT_SAMPLES, Hint, default_threads, hintable
from euchre.match import Match
from euchre.protocol import view_dicts
from euchre.rules import Rules
from euchre.server.db import (
    PRACTICE_MARKS,
    DamagedTable,
    EventRow,
    Op,
    SeatRow,
    Store,
    TableRow,
    now,
    token_hash,
)
from euchre.server.guard import MAX_BODY
from euchre.view import PlayerView

__all__ = ["Hub", "LiveTable", "Conn", "Refusal", "Unloaded", "Writer", "ServerConfig", "default_threads_per_hint"]

log = logging.getLogger("euchre.server")

FAILURE_QUIET = 60.0
"""Seconds during which the same failure is counted, not logged again (:meth:`Hub.log_failure`)."""

BOT_RETRY_MAX = 16.0
"""Longest wait, in seconds, before a computer player's failed turn is tried again."""

READ_CACHE = 64
"""Listing answers the hub keeps (:meth:`Hub.read`)."""

HINT_CACHE = 256
"""Hints the hub remembers (a position asked about again is answered at once)."""

SERVED_GAMES: tuple[str | None, ...] = (None, "Hasenpfeffer", "Bid Euchre", "double-deck Bid Euchre", "Napoleon")
"""The games the tables play (:attr:`Rules.sister_game`: ``None`` is Euchre itself, every
variant and house rule of it); a table of any other sister game is refused."""


def served(rules: Rules) -> bool:
    """Whether the server's tables play these rules' game (see :data:`SERVED_GAMES`)."""
    return rules.sister_game in SERVED_GAMES


def trump_names(rules: Rules) -> dict[str, str]:
    """Each trump letter of the frames (``c`` .. ``s``, ``n``, ``low``) with its name in the words
    of the game (``euchre.describe.named_trump``): Bid Euchre says "high" and "low" for its hands
    without trump, where Euchre's no-trump house rule says "no trump" and "low" (Napoleon's trumps,
    suits without bowers and misère's none, have the same letters and names)."""
    return {trump_letter(t): joined([named_trump(t, rules)]) for t in range(LOW + 1)}


def bid_words(game: Game, hand: int | None = None) -> str:
    """The high bid of a hand of ``game`` (the one being played by default) in the engine's words
    (``euchre.describe.high_bid_words``: ``"3 tricks"``, ``"the moon"``, ``"Nap"``, ``"misère"``),
    ``""`` before any bid and in the games without an auction. A public fact: everyone hears the
    bids."""
    return high_bid_words(game.view(None) if hand is None else game.view(None, hand))


class Refusal(Exception):
    """An action or request refused with a protocol error code; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _CreationInDoubt(Refusal):
    """A new table's commit reported a failure and the database could not say whether it was
    made: the creator is refused (``unavailable``), and a table that was stored after all is
    removed (:meth:`Hub._remove_unclaimed`)."""

    def __init__(self, row: TableRow) -> None:
        super().__init__("unavailable", "the database did not take the new table; try again in a moment")
        self.row = row


class Unloaded(Refusal):
    """The table object was dropped from memory (idle, or abandoned) while a caller held it: the
    caller asks the hub for the table again, which replays it from the database."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the table was being put away; try again")


def default_threads_per_hint() -> int:
    """``ServerConfig.threads_per_hint`` by default: :func:`euchre.hints.default_threads`, two
    threads a hint, or one on a one-core machine. Two, not every core: a hint at a time then takes
    two cores at most, and the computer players' turns (``bot_threads``) keep theirs on a bigger
    machine."""
    return default_threads()


@dataclass
class ServerConfig:
    """Knobs of the server (``euchre serve`` options)."""

    bot_delay: float = 0.6
    """Seconds a computer player waits before acting at a table with people (0: at once)."""
    away_timeout: float = 60.0
    """Seconds a disconnected player's seat waits before a computer player stands in."""
    hint_samples: int = HINT_SAMPLES
    """Sampled deals per card-play hint (:func:`euchre.hints.hint`; a budget of work, not of time,
    so the same position always gets the same hint)."""
    hint_bid_samples: int = HINT_BID_SAMPLES
    """Sampled deals per bidding hint."""
    bot_threads: int = 2
    """Threads the computer players' decisions run on (shared by every table)."""
    hint_threads: int = 1
    """Hints worked out at once, each on a thread of its own (not the computer players'), so a
    flood of hints never delays a computer player's turn; the rest wait (up to ``hint_queue``)."""
    threads_per_hint: int = field(default_factory=default_threads_per_hint)
    """Threads one hint's sampled deals are split among (``threads`` of :func:`euchre.hints.hint`):
    a hint before the play (a bid, a discard: :mod:`euchre.fastbid`'s compiled deals, 1.5 to 3 s
    of one core at the default budget) comes sooner, in a little over half the time on two, with
    exactly the same numbers whatever the count; a card play's hint runs on one. Default
    :func:`default_threads_per_hint`."""
    hint_queue: int = 4
    """Hints worked out or waiting at once, over all clients; past it a hint is refused as ``busy``
    (a position already asked about is answered from the cache regardless)."""
    hint_limit: float = 20.0
    """Hints a minute per client address (0: no limit)."""
    hint_burst: int = 5
    """Hints a client address may ask at once before ``hint_limit`` applies."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to say hello before it is closed (0: forever)."""
    max_body: int = MAX_BODY
    """Largest HTTP request body, in bytes (bigger ones get 413 before anything parses them)."""
    max_tables: int = 2000
    """Tables in play or waiting at once, over all clients; past it no table can be opened (503)."""
    max_tables_per_client: int = 20
    """Tables in play or waiting at once opened from one client address (0: no limit)."""
    chat_limit: int = 500
    """Chat lines a table keeps; past it the table's chat is full."""
    connect_limit: float = 20.0
    """New WebSocket connections a minute per client address (0: no limit). Above the peaks of
    real use: four seat links in tabs of one home reconnecting together."""
    connect_burst: int = 20
    """Connections a client address may open at once before ``connect_limit`` applies."""
    create_limit: float = 30.0
    """Tables created or started a minute per client address (``POST /api/tables`` and
    ``/api/tables/{id}/start``; 0: no limit)."""
    create_burst: int = 10
    """Tables a client address may create or start at once before ``create_limit`` applies."""
    idle_unload: float = 600.0
    """Seconds a table with no connection and nothing to do (no computer player's turn, no
    stand-in timer) stays in memory (0: forever). It is replayed from the database when someone
    comes back; only memory is freed, the game is never ended."""
    waiting_expiry: float = 24 * 3600.0
    """Seconds a table may wait to be started; after that it is ``abandoned`` (0: never)."""
    sweep_interval: float = 60.0
    """Seconds between two sweeps (unloading idle tables, abandoning expired waiting ones; 0: no
    sweep runs by itself, :meth:`Hub.sweep` is called by hand)."""
    sweep_batch: int = 200
    """Expired waiting tables abandoned per sweep at most (the rest go in the next sweeps)."""

    def abandoned(self) -> Refusal:
        """The refusal every link of an abandoned table gets."""
        hours = self.waiting_expiry / 3600
        return Refusal("table_abandoned", f"this table was never started and expired (tables not started "
                                          f"within {hours:g} hours are put away); open a new table")


# --- group commit --------------------------------------------------------------------------------
class Writer:
    """Runs transactions on one thread, gathering everything queued meanwhile into one commit.

    ``await writer.commit(ops)`` returns once ``ops`` are durable, or raises what the database
    raised; a batch that fails is retried one submission at a time, so one bad submission never
    sinks another table's action.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: asyncio.Queue[tuple[list[Op], asyncio.Future[None]]] = asyncio.Queue()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="euchre-db")
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.commits = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._thread.shutdown(wait=True)

    async def commit(self, ops: list[Op]) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((ops, fut))
        await fut

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await loop.run_in_executor(self._thread, self.store.run, [op for ops, _ in batch for op in ops])
                self.batches += 1
                self.commits += len(batch)
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
            except Exception:
                for ops, fut in batch:
                    try:
                        await loop.run_in_executor(self._thread, self.store.run, ops)
                    except Exception as e:  # noqa: BLE001 - handed to the submitter
                        if not fut.done():
                            fut.set_exception(e)
                    else:
                        self.commits += 1
                        if not fut.done():
                            fut.set_result(None)


# --- connections -----------------------------------------------------------------------------------
@dataclass(eq=False)
class Conn:
    """One client connection: its seat (``None``: a spectator) and its queue of outgoing frames.

    Frames go through a queue drained by the connection's own task, so a slow client never holds
    up a table; a client that falls ``max_backlog`` frames behind is disconnected (it reconnects
    and gets the current state).
    """

    seat: int | None
    send: Callable[[str], Any]
    close: Callable[[int], Any]
    max_backlog: int = 200
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    host: bool = False

    def push(self, frame: str) -> None:
        if self.queue.qsize() >= self.max_backlog:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(frame)

    async def pump(self) -> None:
        """Send queued frames until the queue says stop (``None``)."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                await self.close(1013)
                return
            await self.send(frame)


def _frame(t: str, **kw: Any) -> str:
    """One frame as compact JSON text. orjson: encoding the state frames was the largest single
    cost of the server's event loop (each action sends one to every connection)."""
    return orjson.dumps({"t": t, **kw}, option=orjson.OPT_NON_STR_KEYS).decode()


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` (another C library, another system)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def _describe(e: BaseException) -> str:
    """An exception in one short line (a database error's first line, without its SQL)."""
    text = str(getattr(e, "orig", None) or e).strip()
    line = text.splitlines()[0] if text else ""
    line = line[:300]
    return f"{type(e).__name__}: {line}" if line else type(e).__name__


# --- a live table ----------------------------------------------------------------------------------
class LiveTable:
    """One table in memory: its rules, seats, game (the replay of its events) and connections."""

    def __init__(self, row: TableRow, hub: Hub) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.rules = Rules.from_dict(row.rules)
        self.egn_ok = egn.export_problem(self.rules) is None
        """Whether the finished game's record can be downloaded as EGN (EMN for a match)."""
        self._trump_names = trump_names(self.rules)
        """The frames' ``trump_names`` (the same for the whole table)."""
        self.seed = row.seed
        self.level = row.level
        self.status = row.status
        self.seats: list[SeatRow] = list(row.seats)
        self.standin: set[int] = set()
        """Human seats a computer player is playing while their player is away."""
        self.took_back: set[int] = set()
        """Seats that took back a card (an ``undo`` event of theirs, replayed from the log like
        every event): their result is a practice game (:meth:`_results`)."""
        self.stood_in: set[int] = set()
        """Seats a stand-in made at least one decision for (:meth:`stand_in_decides`, read from
        the log's order, replayed like every event): their result is a practice game
        (:meth:`_results`)."""
        self.game: Game | None = None
        """The game being played (under match rules, the match's current game)."""
        self.match: Match | None = None
        """The match, under match rules (``match_games``/``match_wins``): its games in order."""
        self.version = 0
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.acks: dict[tuple[int | None, str], int] = {}
        self.bots: dict[int, Bot] = {}
        self.chat: deque[dict[str, Any]] = deque(maxlen=50)
        self._chat_loaded = False
        self._chat_lines: int | None = None
        """Chat lines stored for this table (read from the database at the first message)."""
        self._chat_doubt: dict[int, tuple[str, str, dt.datetime, str]] = {}
        """Per seat, its last chat line refused (text, name, time, line id): the database may hold
        it all the same, so the same text sent again by the seat is that line again (:meth:`say`)."""
        self._now = 0.0
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_failures = 0
        self._away: dict[int, asyncio.Task[None]] = {}
        self._sheet: tuple[int, list[dict[str, Any]]] | None = None
        """The score sheet of the finished hands, and how many there were (see :meth:`_history`)."""
        self._claimable: tuple[int, bool] = (-1, False)
        """Whether the seat to act may claim, and at which version that was worked out."""
        self._results_sent: dict[tuple[int, int, int | None, Any], dict[str, Any]] = {}
        """The ``result`` of the state frames, by (game of the match, hand, recipient seat, the hand's result)."""
        self.rematch: str | None = None
        """The table of the rematch of this finished game, once someone asked for one."""
        self.client: str | None = None
        """The address that opened the table (in memory only: counts towards its table limit)."""
        self.unloaded = False
        """Dropped from the hub (idle or abandoned): nobody may join or start this object any more."""
        self.touched = time.monotonic()
        """When something last happened here (an event, a connection coming or going)."""
        self._check_task: asyncio.Task[None] | None = None
        self.suspect = False
        """A commit of an event here failed. The database may hold it all the same (a connection
        lost during COMMIT reports a failure for a commit that was made), so the next change
        first compares the stored version with this one (:meth:`_reconcile`)."""
        self._check_row(row)
        for ev in row.events:
            self._apply(ev)
        if row.status == "over" and self.status != "over":
            raise ValueError(f"the table is stored as over, but its {len(row.events)} events end with the game "
                             "unfinished: events are missing")

    def _check_row(self, row: TableRow) -> None:
        """Refuse (``ValueError``, and the hub sets the table aside as damaged) a stored table whose
        rows could not have been written by this server: everything after indexes seats by number,
        makes bots by level and waits on statuses."""
        numbers = [s.seat for s in self.seats]
        if numbers != list(range(self.rules.players)):
            raise ValueError(f"its seats are numbered {numbers[:10]}, not 0 to {self.rules.players - 1}")
        for s in self.seats:
            if s.kind not in ("human", "bot", "open"):
                raise ValueError(f"seat {s.seat} is of an unknown kind {str(s.kind)[:40]!r}")
        if self.level not in LEVELS:
            raise ValueError(f"unknown level {str(self.level)[:40]!r}")
        if row.status not in ("waiting", "playing", "over", "abandoned"):
            raise ValueError(f"unknown status {str(row.status)[:40]!r}")

    # --- the event log -------------------------------------------------------------------------
    def _clock(self) -> float:
        """The game's clock: the time of the event being applied, so a replay times hands exactly
        as they were timed live."""
        return self._now

    def _apply(self, ev: EventRow) -> None:
        """Apply a committed (or replayed) event to the in-memory table."""
        self._now = ev.at
        if ev.seat is not None and self.stand_in_decides(ev.kind, ev.seat):
            self.stood_in.add(ev.seat)  # a stand-in decided for the seat: its result is practice
        if ev.kind == "start":
            if self.rules.is_match:
                self.match = Match(self.rules, seed=self.seed, dealer=self.row.dealer)
                self.game = self.match.game
            else:
                self.game = Game(self.rules, seed=self.seed, dealer=self.row.dealer, clock=self._clock)
            self.status = "playing"
            for s in ev.payload.get("bots", []):
                self.seats[s].kind = "bot"
                self.seats[s].token_hash = None
        elif ev.kind == "action":
            assert self.game is not None
            self.game.push(Action.from_code(int(ev.payload["a"])))
            self._settle()
        elif ev.kind == "claim":
            assert self.game is not None and ev.seat is not None
            first = self.game.action_count
            for code in ev.payload["a"]:
                self.game.push(Action.from_code(int(code)))
            self.game.claims.append((ev.seat, first, self.game.action_count))
            self._settle()
        elif ev.kind == "undo":
            assert self.game is not None and ev.seat is not None
            for _ in range(int(ev.payload["n"])):
                self.game.pop()
            self.took_back.add(ev.seat)
        elif ev.kind == "bot_in":
            assert ev.seat is not None
            self.standin.add(ev.seat)
        elif ev.kind == "bot_out":
            assert ev.seat is not None
            self.standin.discard(ev.seat)
        elif ev.kind == "rematch":
            self.rematch = str(ev.payload["table"])
        else:
            raise ValueError(f"unknown event kind {ev.kind!r}")
        self._applied(ev)

    def _settle(self) -> None:
        """After a game-ending event: a match deals its next game (and the table plays on), else
        the table is over."""
        g = self.game
        if g is None or not g.is_over:
            return
        if self.match is not None and self.match.settle():
            self.game = self.match.game
            self._claimable = (-1, False)
        else:
            self.status = "over"

    def _applied(self, ev: EventRow) -> None:
        if ev.client_id is not None:
            self.acks[(ev.seat, ev.client_id)] = ev.seq
        self.version = ev.seq
        self.touched = time.monotonic()

    async def _commit_event(self, kind: str, seat: int | None, payload: dict[str, Any],
                            client_id: str | None = None, extra: Sequence[Op] = ()) -> EventRow:
        """Commit one event, then apply it. Called with the lock held."""
        await self._reconcile()
        ev = EventRow(self.version + 1, kind, seat, client_id, payload, time.time())
        if not await self.hub.durable([Store.op_event(self.id, ev), *extra]):
            self._suspect()
            raise Refusal("unavailable", "the database did not take the change; try again")
        self._apply(ev)
        return ev

    def _suspect(self) -> None:
        """A commit here failed: check the stored version as soon as the lock is free (and again
        before the next change, until a check succeeds), so a commit that was made after all is
        found without waiting for anyone to act."""
        self.suspect = True
        if self._check_task is None or self._check_task.done():
            self._check_task = asyncio.get_running_loop().create_task(self._check_soon())

    async def _check_soon(self) -> None:
        async with self.lock:
            if self.unloaded:
                return
            try:
                await self._reconcile()
            except Refusal:
                pass  # reloaded, or the database still failing (said once): the next change checks again

    async def _reconcile(self) -> None:
        """Before a change, after a commit here failed (:attr:`suspect`): the database is the
        truth. If it holds the version this table holds, go on. If it holds more (the commit that
        reported failure was made), this copy is put away, its connections closed (clients
        reconnect at once) and the change refused; the next request replays the table from the
        database, the change that "failed" included, and a client resending it with the same id
        gets its acknowledgement. Called with the lock held."""
        if not self.suspect:
            return
        try:
            stored = await asyncio.get_running_loop().run_in_executor(None, self.hub.store.last_seq, self.id)
        except Exception as e:  # noqa: BLE001 - the database is still failing: said once, answered 503
            self.hub.log_failure("checking a table's version", e, table=self.id)
            raise Refusal("unavailable", "the database is not answering; try again in a moment") from None
        if stored == self.version:
            self.suspect = False
            return
        log.warning("table %s: the database holds version %d, memory %d (a commit reported as failed was "
                    "made); reloading it from the database", self.id, stored, self.version,
                    extra={"ctx": {"event": "table reloaded", "table": self.id}})
        self.hub._drop(self)
        loop = asyncio.get_running_loop()
        for conn in list(self.conns):  # closed (1013) once told why: the client reconnects to the reloaded table
            loop.call_soon(conn.queue.put_nowait, None)
        raise Refusal("unavailable", "the table is being reloaded from the database; try again")

    # --- who is who ----------------------------------------------------------------------------
    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is at this table, or ``None``."""
        found = None
        for s in self.seats:
            if s.accepts(token):
                found = s.seat
        return found

    def present(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def bot_plays(self, seat: int) -> bool:
        """A computer player acts for this seat now."""
        return self.seats[seat].kind == "bot" or seat in self.standin

    def seat_info(self) -> list[dict[str, Any]]:
        out = []
        for s in self.seats:
            present = self.present(s.seat)
            out.append({"seat": s.seat, "name": s.name, "kind": s.kind, "present": present,
                        "away": s.kind == "human" and not present, "bot": s.seat in self.standin,
                        "level": self.level if s.kind == "bot" or s.seat in self.standin else None})
        return out

    # --- frames ----------------------------------------------------------------------------------
    def _data(self, keys: set[tuple[int | None, bool]]) -> dict[tuple[int | None, bool], dict[str, Any]]:
        """The state of each (seat, host) recipient: the table facts are built once and the
        views of all seats at once (``view_dicts``), since this runs after every action."""
        g = self.game
        seats = {seat for seat, _ in keys}
        views: dict[int | None, dict[str, Any]] = {}
        previous: dict[int | None, dict[str, Any]] = {}
        before = self._before(g)  # the game of the last finished hand, and its index
        if g is not None:
            views = view_dicts(g, list(seats))
            if before is not None and self._no_card_yet(g):
                previous = view_dicts(before[0], list(seats), hand=before[1])
        shared = {
            "table": self.id, "status": self.status, "level": self.level, "preset": self.row.preset,
            "egn": self.egn_ok, "seats": self.seat_info(),
            "sides": [list(seats) for seats in self.rules.side_seats],
            "scores": list(g.scores) if g is not None else [0] * self.rules.sides,
            "target": self.rules.target, "winners": list(g.winners) if g is not None else [],
            "rematch": self.rematch,
            "match": self.match.to_dict() if self.match is not None else None,
            "history": self._history(g),
            "hand_no": g.played_hands_before() + 1 if g is not None else 1,
            "claimed": self._claimed(g),
            "hand_size": self.rules.hand_size,
            "trump_names": self._trump_names,
            # the high bid of the hand being played is Bid Euchre's moon (a public fact, as
            # PlayerView.moon says; the view's bid is then the hand's tricks plus one)
            "moon": g is not None and self.rules.bid_euchre and g.state.moon,
            # the high bid of the hand being played in the engine's words (Napoleon's bids are
            # levels: the view's bid 3 is misère, 5 Nap), "" before any
            "high_bid": bid_words(g) if g is not None and g.state.bidder >= 0 else "",
            # whether the hints advise this position (euchre.hints.hintable: not the double deck
            # nor Napoleon's first trick at six and seven seats), so a page offers no Hint button
            # it would only refuse
            "hints": hintable(g.view(None)) if g is not None else True,
            # the table's deals come from a seed its creator chose: a practice game for every seat
            # (a fact about the table, not about a seat; the seed itself stays secret)
            "seeded": self.row.seeded,
        }
        out: dict[tuple[int | None, bool], dict[str, Any]] = {}
        to_act = g.to_act if g is not None and self.status == "playing" else -1
        finished = None  # the latest finished hand: its game, index and result (public facts)
        if g is not None and g.state.is_over:
            before = (g, len(g.hands) - 1)
        if before is not None:
            res = before[0].hands[before[1]].result()
            if res is not None:
                finished = (before[0], before[1], res)
        for seat, host in keys:
            view = views.get(seat)
            prev = previous.get(seat)
            claim = undo = False
            hints = shared["hints"]
            notes: list[str] = []
            legal_words: dict[str, str] = {}
            if g is not None and seat is not None and view is not None:
                if seat == to_act:
                    own = g.view(seat)
                    hints = hintable(own)
                    notes = missing_choice_words(own)
                    legal_words = {str(a): action_words(a, own) for a in own.legal_actions}
                    claim = self.claimable()
                undo = self.status == "playing" and self.takes_back(seat) and g.undo_steps(seat) > 0
            last = None
            if view is not None and view["actions"]:
                last = view["actions"][-1]
            elif prev is not None and prev["actions"]:
                last = prev["actions"][-1]
            result = None
            if finished is not None:
                result = self._result_words(*finished, seat)
            out[(seat, host)] = {**shared, "seat": seat, "host": host, "view": view, "previous": prev, "last": last,
                                 "claim": claim, "undo": undo, "hints": hints, "notes": notes,
                                 "legal_words": legal_words,
                                 # the recipient's own seat only: never another seat's hint or take-back
                                 "practice": self.assisted(seat),
                                 "practice_reasons": self.practice_reasons(seat),
                                 "result": result}
        return out

    @staticmethod
    def _no_card_yet(g: Game) -> bool:
        """Whether the hand being played has had no card played yet (its bidding, a discard...):
        until then the frames carry the hand before as ``previous``, so a page, reloaded or not,
        shows how it ended and its last trick. Not once the game is over (its last hand is the
        frame's ``view``), nor in the play: a trick of this hand is then the latest."""
        hand = g.state
        return not hand.is_over and not hand.trick and not hand.tricks

    def _before(self, g: Game | None) -> tuple[Game, int] | None:
        """The hand before the one being played, as (its game, its index): the previous hand of
        this game, or under match rules the last hand of the game before."""
        if g is None:
            return None
        if len(g.hands) > 1:
            return g, len(g.hands) - 2
        if self.match is not None and len(self.match.games) > 1 and g is self.match.game:
            last = self.match.games[-2]
            return last, len(last.hands) - 1
        return None

    def _result_words(self, g: Game, hand: int, res: Any, seat: int | None) -> dict[str, Any]:
        """The frame's ``result`` for one recipient: the hand's result with its sentence, worked
        out once per hand and recipient (every broadcast of the next hand sends it)."""
        games = self.match.games if self.match is not None else [g]
        index = next((i for i, x in enumerate(games) if x is g), 0)
        # The result itself is in the key: a hand taken back and played again differs.
        key = (index, hand, seat, res)
        cached = self._results_sent.get(key)
        if cached is None:
            names = [("You" if s.seat == seat else s.name) for s in self.seats]
            words = hand_result_words(g.view(seat, hand), names)
            cached = {"hand": hand, **res.to_dict(), "moon": res.moon, "words": words,
                      "bid_words": bid_words(g, hand) if res.bid else ""}
            if self.match is not None:
                cached["game"] = index + 1
            if len(self._results_sent) > 64:
                self._results_sent.clear()
            self._results_sent[key] = cached
        return cached

    @staticmethod
    def _claimed(g: Game | None) -> dict[str, int] | None:
        """The frames' ``claimed``: the latest claim still standing, the hand it ended and who."""
        last = None if g is None else g.last_claim()
        return None if last is None else {"hand": last[0], "seat": last[1]}

    def claimable(self) -> bool:
        """Whether the seat to act may claim the rest of the tricks now (worked out once a version)."""
        if self._claimable[0] != self.version:
            g = self.game
            ok = g is not None and self.status == "playing" and g.can_claim()
            self._claimable = (self.version, ok)
        return self._claimable[1]

    def _history(self, g: Game | None) -> list[dict[str, Any]]:
        """The finished hands of the game, public facts only: who dealt and made it, trump,
        alone, each side's points and the running score (the score sheet and its chart). Built
        once per finished hand, not at every broadcast."""
        if g is None:
            return []
        sheet = g.score_sheet()
        if self._sheet is None or self._sheet[0] != len(sheet):
            rows = []
            for number, (index, h, scores) in enumerate(sheet, 1):  # a misdeal is not on the sheet
                res = h.result()
                assert res is not None
                rows.append({"hand": number, **res.to_dict(), "moon": res.moon, "thrown_in": res.thrown_in,
                             "bid_words": bid_words(g, index) if res.bid else "",
                             "tricks": res.maker_tricks, "scores": list(scores)})
            self._sheet = (len(sheet), rows)
        return self._sheet[1]

    def _frames(self, keys: set[tuple[int | None, bool]]) -> dict[tuple[int | None, bool], str]:
        return {k: _frame("state", v=self.version, d=d) for k, d in self._data(keys).items()}

    def state_data(self, seat: int | None, host: bool = False) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may see of the table."""
        return self._data({(seat, host)})[(seat, host)]

    def state_frame(self, seat: int | None, host: bool = False) -> str:
        return self._frames({(seat, host)})[(seat, host)]

    def broadcast(self) -> None:
        """Send every connection its own state frame (built once per seat)."""
        conns = list(self.conns)
        if not conns:
            return
        frames = self._frames({(c.seat, c.host) for c in conns})
        for c in conns:
            c.push(frames[(c.seat, c.host)])

    # --- actions -------------------------------------------------------------------------------
    async def act(self, seat: int, text: str, client_id: str | None, base_v: int | None,
                  reply: Conn | None = None) -> int:
        """Validate, commit, apply, broadcast; the version of the committed event.

        A resent ``client_id`` returns the original version; every refusal raises
        :class:`Refusal` and changes nothing.
        """
        def apply(g: Game) -> tuple[dict[str, Any], Callable[[], object]]:
            # The engine parses (with the shortcuts of State.parse_action) and checks the action;
            # a refusal carries its own words ("you must follow hearts: you hold Th, Ah").
            try:
                action = g.push(text)
            except EuchreError as e:
                raise Refusal("illegal", str(e)) from None
            except (ValueError, KeyError, IndexError) as e:
                # The engine failed while wording its refusal (checked before anything changed):
                # logged once, and still refused, with the legal actions, not a dropped socket.
                self.hub.log_failure("wording a refusal", e, table=self.id, seat=seat)
                options = ", ".join(str(a) for a in g.legal_actions())
                raise Refusal("illegal", f"{text} is not possible now; you may: {options}") from None
            return {"a": int(action)}, g.pop

        return await self._change("action", seat, client_id, base_v, reply, apply)

    async def claim(self, seat: int, client_id: str | None, base_v: int | None, reply: Conn | None = None) -> int:
        """The seat to act claims the rest of the tricks for its side (:meth:`euchre.Game.claim`):
        one event holding the cards the claim plays, committed and applied like an action.

        The claim's line is played by the exact solver, whose first use in a process loads its
        compiled code (or waits for it to compile, on a fresh machine, while ``euchre serve`` warms
        up): that first use is made on a worker thread, on a copy of the game, so the event loop,
        and every other table, never waits for it. Not on a computer players' thread: those may
        all be thinking (an expert's bid takes up to half a second), and a person's claim should
        not queue behind them."""
        g = self.game
        if g is not None and self.status == "playing" and g.can_claim():
            await asyncio.get_running_loop().run_in_executor(None, g.copy().claim_line)

        def apply(g: Game) -> tuple[dict[str, Any], Callable[[], object]]:
            try:
                line = g.claim()
            except EuchreError as e:
                raise Refusal("illegal", f"no claim now: {e}") from None
            return {"a": [int(a) for a in line]}, lambda: [g.pop() for _ in line]

        return await self._change("claim", seat, client_id, base_v, reply, apply)

    async def undo(self, seat: int, client_id: str | None, base_v: int | None, reply: Conn | None = None) -> int:
        """Take back the seat's last card and what followed (:meth:`euchre.Game.undo`), at a
        practice table only (:meth:`takes_back`): never where another person has seen the card."""
        def apply(g: Game) -> tuple[dict[str, Any], Callable[[], object]]:
            if not self.takes_back(seat):
                raise Refusal("forbidden", "a card can be taken back only in a practice game against computer players")
            try:
                back = g.undo(seat)
            except EuchreError as e:
                raise Refusal("illegal", str(e)) from None
            first = seat not in self.took_back
            self.took_back.add(seat)  # (as the event's replay does: the seat's result is practice)

            def again() -> None:
                for a in back:
                    g.push(a)
                if first:
                    self.took_back.discard(seat)
            return {"n": len(back)}, again

        return await self._change("undo", seat, client_id, base_v, reply, apply, any_turn=True)

    def takes_back(self, seat: int) -> bool:
        """Whether ``seat`` may take back a card: its person plays it, and every other seat is a
        computer player from the start (no other person ever sat here, so no one else has seen
        the card). A practice table; not whether the game counts as one (:meth:`assisted`)."""
        return self.seats[seat].kind == "human" and seat not in self.standin and all(
            s.kind == "bot" for s in self.seats if s.seat != seat)

    def practice_marks(self, seat: int) -> dict[str, bool]:
        """Why the game is a practice game for ``seat`` so far (docs/server.md, "Practice
        games"): the marks its ``results`` row will store when the game ends (:meth:`_results`;
        the columns of :data:`~euchre.server.db.PRACTICE_MARKS`). Not :meth:`takes_back`, which
        says whether the table lets the seat take back a card."""
        return {"took_back": seat in self.took_back, "hinted": self.seats[seat].hinted, "seeded": self.row.seeded,
                "stood_in": seat in self.stood_in}

    def stand_in_decides(self, kind: str, seat: int) -> bool:
        """Whether an event of ``kind`` by ``seat``, about to be applied, is a decision of a
        computer player standing in for the seat's person, which makes the game a practice game
        for the seat (``stood_in``): an ``action`` (a bid, a discard, a card) or a ``claim`` of
        the rest, while the seat is stood in for (:attr:`standin`: after its ``bot_in`` event,
        before its ``bot_out``).

        The log's order alone says who decided, so a table replayed from its stored events after
        a restart marks exactly the seats it marked live: only the stand-in acts for a seat that
        is stood in for. A stand-in comes only while no connection holds the seat; the person's
        connection takes the seat back by committing ``bot_out`` before it joins the table (so
        before it may act); and the stand-in's turn is pinned to the version it was asked at, so
        a decision it worked out while the person came back is refused (``stale``), never
        stored. A stand-in that came and went before the seat's turn decided nothing and marks
        nothing: a short drop costs no one their game. One decision is enough, and the mark
        stays, as a take-back's does."""
        return kind in ("action", "claim") and seat in self.standin

    def practice_reasons(self, seat: int | None) -> list[str]:
        """What made the game a practice game for ``seat`` so far: the names of its true
        :meth:`practice_marks`, in :data:`~euchre.server.db.PRACTICE_MARKS` order (as the games
        list's ``practice_reasons`` says them); none for a spectator. The state frames carry them,
        so that the seat's page can say why, never another seat's."""
        if seat is None:
            return []
        marks = self.practice_marks(seat)
        return [name for name in PRACTICE_MARKS if marks[name]]

    def assisted(self, seat: int | None) -> bool:
        """Whether the game is already a practice game for ``seat``, which the statistics will
        count apart (any of :meth:`practice_marks`, as :func:`~euchre.server.db.practice_of`
        reads the stored row); ``False`` for a spectator, who plays no game. The state frames'
        ``practice``: a page need not warn that a hint or a take-back makes a practice game of
        one that is one already (a chosen deal, the seat's own hint or take-back, or a stand-in's
        decision for the seat while its person was away)."""
        return bool(self.practice_reasons(seat))

    async def _change(self, kind: str, seat: int, client_id: str | None, base_v: int | None,
                      reply: Conn | None, apply: Callable[[Game], tuple[dict[str, Any], Callable[[], object]]],
                      *, any_turn: bool = False) -> int:
        """One change of the game by ``seat``: check it may act, ``apply`` it in memory (which
        returns the event's payload and how to revert it), commit the event (with the finished
        game's result in the same transaction), revert if the commit fails, then acknowledge and
        broadcast."""
        async with self.lock:
            if client_id is not None and (seat, client_id) in self.acks:
                v = self.acks[(seat, client_id)]
                if reply is not None:
                    reply.push(_frame("ack", id=client_id, v=v))
                return v
            if self.status == "abandoned":
                raise self.hub.config.abandoned()
            if self.status == "waiting" or self.game is None:
                raise Refusal("not_started", "the game has not started yet")
            if self.status != "playing":
                raise Refusal("over", "the game is over")
            g = self.game
            # (An old version first: the client's own view is out of date, and gets the state.)
            if base_v is not None and base_v != self.version:
                raise Refusal("stale", f"the table has moved on (you acted on version {base_v}, it is at "
                                       f"{self.version}); here is the current state")
            if g.to_act != seat and not any_turn:
                raise Refusal("not_your_turn", f"it is not your turn: {self.seats[g.to_act].name} is to act")
            await self._reconcile()
            # Apply first, so the result and the record of a game-ending action go into the same
            # transaction; nobody sees the table until the commit returns (every reader takes the
            # lock), and a failed commit is undone.
            at = time.time()
            self._now = at
            payload, revert_game = apply(g)
            # (as the event's replay does, and before the result of a game it ends is worked out)
            stood_in = self.stand_in_decides(kind, seat) and seat not in self.stood_in
            if stood_in:
                self.stood_in.add(seat)
            match = self.match
            scored = match is not None and g.is_over
            if scored:
                assert match is not None
                match.settle()  # the game counts for the match, and the next game is dealt

            def revert() -> None:
                if scored:
                    assert match is not None
                    match.unsettle()
                if stood_in:
                    self.stood_in.discard(seat)
                revert_game()
            done = g.is_over and (match is None or match.is_over)
            extra = [self._finish_op(g)] if done else []
            ev = EventRow(self.version + 1, kind, seat, client_id, payload, at)
            try:
                ok = await self.hub.durable([Store.op_event(self.id, ev), *extra])
            except asyncio.CancelledError:
                revert()  # durable re-raises a cancellation only when the commit failed
                self._suspect()
                raise
            if not ok:
                revert()
                self._suspect()
                raise Refusal("unavailable", "the database did not take the action; try again")
            self._applied(ev)
            if match is not None:
                self.game = match.game
            if done:
                self.status = "over"
                self.hub.finished += 1
            if reply is not None:
                reply.push(_frame("ack", id=client_id, v=ev.seq))
            self.broadcast()
            self._kick_bot()
            if done:
                for t in self._away.values():
                    t.cancel()
            return ev.seq

    def _finish_op(self, game: Game) -> Op:
        """The finished table's row: its result, its record (under match rules, the whole
        match's, with the game wins as its scores) and the statistics rows."""
        names = [s.name for s in self.seats]
        meta = {"table": self.id, "level": self.level}
        m = self.match
        if m is not None:
            record = notation.dumps(m, players=names, meta=meta)
            winners = [m.winner] if m.winner is not None else []
            return Store.op_finish(self.id, m.wins, winners, record, self._results(m.games))
        record = notation.dumps(game, players=names, meta=meta)
        return Store.op_finish(self.id, game.scores, game.winners, record, self._results([game]))

    def _results(self, games: Sequence[Game]) -> list[dict[str, Any]]:
        """One row per seat for the statistics page, over every game of the table (one, or a
        match's): the table is won by the winners of the game, or of the match. Each row says
        whether the game was assisted for its seat (``took_back``, ``hinted``, ``seeded``,
        ``stood_in``: a practice game, which the statistics keep apart from the fair ones); one
        seat's undo, hint or stand-in's decision marks that seat's row only, a chosen seed every
        row."""
        r = self.rules
        m = self.match
        winners = ((m.winner,) if m.winner is not None else ()) if m is not None else games[-1].winners
        rows = []
        for s in self.seats:
            side = r.side_of(s.seat)
            bot = s.kind == "bot"
            row: dict[str, Any] = {"seat": s.seat, "name": s.name, "kind": "bot" if bot else "human",
                   "player": None if bot else s.player, "won": side in winners, "hands": 0,
                   "games": len(games), "game_wins": sum(side in g.winners for g in games), "match": m is not None,
                   "points_for": 0, "points_against": 0,
                   "calls": 0, "made": 0, "euchred": 0, "defended": 0, "euchres": 0, "loners": 0,
                   "loner_marches": 0, **self.practice_marks(s.seat)}
            for game in games:
                row["points_for"] += game.scores[side] - game.initial_scores[side]
                row["points_against"] += (sum(game.scores) - game.scores[side]
                                          - (sum(game.initial_scores) - game.initial_scores[side]))
                self._count_hands(row, game, s.seat)
            rows.append(row)
        return rows

    def _count_hands(self, row: dict[str, Any], game: Game, seat: int) -> None:
        """Add the hands of ``game`` to ``seat``'s statistics row."""
        side = self.rules.side_of(seat)
        for h in game.hands:
            res = h.result()
            if res is None or res.thrown_in:
                continue
            row["hands"] += 1
            if res.maker == seat:
                row["calls"] += 1
                row["made"] += res.made
                row["euchred"] += res.euchred
                if res.alone:
                    row["loners"] += 1
                    row["loner_marches"] += res.march
            elif side != res.maker_side:
                row["defended"] += 1
                row["euchres"] += res.euchred

    # --- bots ------------------------------------------------------------------------------------
    def _bot_for(self, seat: int) -> Bot:
        if seat not in self.bots:
            self.bots[seat] = level_bot(self.level, seed=(self.seed * 31 + seat) % 2**63)
        return self.bots[seat]

    def _kick_bot(self) -> None:
        """If a computer player is to act, start its turn (one at a time per table)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        g = self.game
        if self.status != "playing" or g is None or g.is_over or not self.bot_plays(g.to_act):
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_turn(g.to_act, self.version))

    async def _bot_turn(self, seat: int, version: int) -> None:
        try:
            humans = any(s.kind == "human" for s in self.seats)
            if humans and self.hub.config.bot_delay > 0:
                await asyncio.sleep(self.hub.config.bot_delay)
            async with self.lock:
                g = self.game
                if g is None or self.version != version or g.to_act != seat or not self.bot_plays(seat):
                    return
                view = g.view(seat)
                game = g.copy()
            bot = self._bot_for(seat)
            loop = asyncio.get_running_loop()

            def decide() -> Action | None:
                """The bot's action, or ``None``: it claims the rest (as a person may)."""
                return None if game.can_claim() else bot.choose(view)

            action = await loop.run_in_executor(self.hub.bot_threads, decide)
            try:
                # No client id: a bot's turn is pinned by the version instead, and the ids belong
                # to the seat's person (a stand-in must never collide with theirs).
                if action is None:
                    await self.claim(seat, None, version)
                else:
                    await self.act(seat, str(action), None, version)
            except Refusal as e:
                if e.code != "stale":
                    self.hub.log_failure("computer player's action", e, table=self.id, seat=seat, code=e.code)
                    await self._bot_backoff()  # it will be asked again: not in a hot loop
                    return
            self._bot_failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - logged once, asked again later
            self.hub.log_failure("computer player", e, table=self.id, seat=seat)
            await self._bot_backoff()
        finally:
            self._bot_task = None
            if not self.hub.closing:
                self._kick_bot()

    async def _bot_backoff(self) -> None:
        """Wait before a failed computer turn is tried again: 1 s, then twice as long each time
        up to :data:`BOT_RETRY_MAX` (a database that is down for long is not hammered)."""
        delay = min(BOT_RETRY_MAX, 2.0 ** self._bot_failures)
        self._bot_failures += 1
        await asyncio.sleep(delay)

    # --- seats and presence ----------------------------------------------------------------------
    async def join(self, conn: Conn, name: str | None, player: str | None = None) -> None:
        """A connection arrives (its token already checked): welcome it, claim an open seat, take
        a seat back from a stand-in bot, and send everyone the new presence. Everything happens
        under the lock, so a start cannot slip in between the check and the claim.

        ``player`` (a seat's connection only) is recorded on a seat that has no player id yet and
        never replaces one: the token is the seat's credential, the id only groups statistics, so
        whoever first claimed the seat keeps its games."""
        async with self.lock:
            if self.status == "abandoned":
                raise self.hub.config.abandoned()
            if self.unloaded:
                raise Unloaded()
            seat = conn.seat
            if seat is not None and self.seats[seat].kind == "bot":
                # The table started (and gave this seat to a computer) after the token was checked.
                raise Refusal("forbidden", "this seat is played by a computer player")
            if seat is not None:
                await self._claim(seat, name, player)
            # Only now, with every write durable, is the connection part of the table: a refused
            # join leaves no trace (no ghost seat shown as present, nothing to leave).
            self.conns.add(conn)
            self.touched = time.monotonic()
            conn.push(_frame("welcome", d={"table": self.id, "seat": seat, "host": conn.host}))
            if not self._chat_loaded:
                loop = asyncio.get_running_loop()
                try:
                    self.chat.extend(await loop.run_in_executor(None, self.hub.store.recent_chat, self.id))
                    self._chat_loaded = True
                except Exception as e:  # noqa: BLE001 - the chat history is not worth refusing a seat for
                    self.hub.log_failure("chat history", e, table=self.id)
            if self.chat:
                conn.push(_frame("chat", d=list(self.chat)))
            if seat is not None:
                task = self._away.pop(seat, None)
                if task is not None:
                    task.cancel()
                for other in self.seats:  # someone is back: the seats still empty may be stood in for
                    if other.seat != seat:
                        self._watch_away(other.seat)
            self.broadcast()

    async def _claim(self, seat: int, name: str | None, player: str | None) -> None:
        """Take the seat: claim it if open, rename it, record the player id, and send a stand-in
        home; each change durable before memory changes (a refused write changes nothing)."""
        s = self.seats[seat]
        claimed = dataclasses.replace(s)
        if claimed.kind == "open":
            claimed.kind = "human"
        if name and name != claimed.name and self.status != "over":  # (a finished game keeps its names)
            if any(o.seat != seat and o.name.casefold() == name.casefold() for o in self.seats):
                raise Refusal("bad_name", f"{name!r} is taken at this table; choose another name")
            if name.casefold() == "you" and self.row.mode == "friends":
                raise Refusal("bad_name", "'You' is what the table calls each player to themself; at a table "
                                          "with friends choose your own name")
            claimed.name = name
        if player and claimed.player is None:
            claimed.player = player
        if claimed != s:
            if not await self.hub.durable([Store.op_seat(self.id, claimed)]):
                raise Refusal("unavailable", "the database did not take your seat; try again")
            self.seats[seat] = claimed
        if seat in self.standin and self.status == "playing":
            await self._commit_event("bot_out", seat, {})

    async def leave(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            self.touched = time.monotonic()
            seat = conn.seat
            if seat is not None and not self.present(seat):
                self._watch_away(seat)
            self.broadcast()

    def _watch_away(self, seat: int) -> None:
        """A human seat with nobody: after ``away_timeout`` a computer player stands in (only when
        other people are at the table; a game against computer players just waits)."""
        if (self.status != "playing" or self.seats[seat].kind != "human" or seat in self.standin
                or self.hub.config.away_timeout <= 0 or seat in self._away or self.present(seat)):
            return
        if not any(s.kind == "human" and s.seat != seat for s in self.seats):
            return  # nobody else is waiting: the game simply waits for its one player

        self._away[seat] = asyncio.get_running_loop().create_task(self._away_later(seat))

    async def _away_later(self, seat: int, delay: float | None = None) -> None:
        try:
            await asyncio.sleep(self.hub.config.away_timeout if delay is None else delay)
            async with self.lock:
                self._away.pop(seat, None)
                if self.present(seat) or self.status != "playing" or seat in self.standin:
                    return
                if not any(self.present(s.seat) for s in self.seats if s.kind == "human" and s.seat != seat):
                    return  # everyone left: the game waits for them (the timer restarts when one returns)
                try:
                    await self._commit_event("bot_in", seat, {})
                except Refusal as e:
                    # The database refused: the seat stays waiting, and the stand-in is tried
                    # again shortly (the game must not stall on one failed write).
                    self.hub.log_failure("stand-in", e, table=self.id, seat=seat)
                    if not self.hub.closing:
                        self._away[seat] = asyncio.get_running_loop().create_task(
                            self._away_later(seat, BOT_RETRY_MAX / 4))
                    return
                self.broadcast()
                self._kick_bot()
        except asyncio.CancelledError:
            pass

    async def start(self, host_seat: int | None) -> None:
        """The host starts a waiting table: seats nobody claimed get computer players."""
        async with self.lock:
            if self.status == "abandoned":
                raise self.hub.config.abandoned()
            if self.unloaded:
                raise Unloaded()
            if host_seat is None or not self.seats[host_seat].host:
                raise Refusal("forbidden", "only the host can start the table")
            if self.status != "waiting":
                raise Refusal("started", "the table has already started")
            bots = [s.seat for s in self.seats if s.kind == "open"]
            before = list(self.seats)
            ops: list[Op] = []
            names = computer_names(self.level, bots, taken=[s.name for s in self.seats if s.kind == "human"])
            for b in bots:
                self.seats[b] = dataclasses.replace(self.seats[b], name=names[b], kind="bot")
                ops.append(Store.op_seat(self.id, self.seats[b]))
            ops.append(Store.op_status(self.id, "playing"))
            try:
                await self._commit_event("start", None, {"bots": bots}, extra=ops)
            except BaseException:
                self.seats[:] = before  # a refused start leaves the table waiting, exactly as it was
                raise
            for s in self.seats:
                if s.kind == "human" and not self.present(s.seat):
                    self._watch_away(s.seat)
            self.broadcast()
            self._kick_bot()

    async def say(self, seat: int | None, text: str) -> None:
        """A chat line: kept, then sent to everyone at the table (under the lock, so a newcomer
        gets it either in its history or as a new line, never both or neither).

        Kept exactly once, though a commit can be made and reported failed (a connection lost
        during COMMIT): each line has an id of its own, and its insert does nothing where the
        table holds that id (the writer's retry of the commit). A commit that still reports a
        failure is checked: a line stored after all is shown and the sender is not refused; a
        line refused is remembered, and the same text sent again by the seat (as the refusal
        asks) is committed as that same line, so it is kept and shown once whatever the first
        commit did."""
        async with self.lock:
            if seat is None:
                raise Refusal("forbidden", "spectators cannot chat")
            if self.status not in ("waiting", "playing"):
                raise Refusal("over", "the game is over: its chat is closed")
            if self._chat_lines is None:
                loop = asyncio.get_running_loop()
                try:
                    self._chat_lines = await loop.run_in_executor(None, self.hub.store.chat_count, self.id)
                except Exception as e:  # noqa: BLE001 - said once; the message is refused
                    self.hub.log_failure("counting chat", e, table=self.id)
                    raise Refusal("unavailable", "the database did not take the message; try again") from None
            if self._chat_lines >= self.hub.config.chat_limit:
                raise Refusal("chat_full", f"this table's chat is full ({self.hub.config.chat_limit} messages)")
            doubt = self._chat_doubt.pop(seat, None)
            if doubt is not None and doubt[0] == text:
                _, name, at, line_id = doubt  # sent again after a refusal: the same line
            else:
                name, at, line_id = self.seats[seat].name, now(), secrets.token_urlsafe(16)
            try:
                kept = await self.hub.durable([Store.op_chat(self.id, seat, name, text, at, line_id)])
            except asyncio.CancelledError:
                self._chat_doubt[seat] = (text, name, at, line_id)
                raise
            if not kept:
                found = await self._chat_found(line_id)
                if not found:
                    self._chat_doubt[seat] = (text, name, at, line_id)
                    if found is None:
                        raise Refusal("unavailable", "the database did not say whether it took the message; send it "
                                                     "again (it will not be shown twice)")
                    raise Refusal("unavailable", "the database did not take the message; try again")
            self._chat_lines += 1
            msg = {"seat": seat, "name": name, "text": text, "at": at.isoformat(timespec="seconds")}
            self.chat.append(msg)
            frame = _frame("chat", d=[msg])
            for c in list(self.conns):
                c.push(frame)

    async def _chat_found(self, line_id: str) -> bool | None:
        """After a chat line's commit reported a failure: whether the database holds the line
        (the commit was made), or ``None`` if it cannot say (the read failed too)."""
        try:
            found = await asyncio.get_running_loop().run_in_executor(None, self.hub.store.chat_stored, self.id,
                                                                     line_id)
        except Exception as e:  # noqa: BLE001 - the database is still failing: said once
            self.hub.log_failure("checking a chat line", e, table=self.id)
            return None
        if found:
            log.warning("table %s: a chat line whose commit was reported as failed was stored; it is shown",
                        self.id, extra={"ctx": {"event": "chat line found", "table": self.id}})
        return found

    def hint_kept(self, seat: int) -> bool:
        """Whether the hint the seat would get now is already worked out (in the hub's cache): such
        a hint costs nothing, so it is not counted against the address's hint limit."""
        from euchre.hints import position_seed

        g = self.game
        if g is None or self.status != "playing" or g.to_act != seat:
            return False
        return position_seed(g.view(seat)) in self.hub._hints

    async def hint(self, seat: int) -> list[dict[str, Any]]:
        """The strongest bot's expected points for each of the seat's choices, best first
        (:func:`euchre.hints.hint`, seeded from the position: asking again gives the same answer,
        from the hub's cache)."""
        async with self.lock:
            g = self.game
            if g is None or self.status != "playing" or g.to_act != seat:
                raise Refusal("not_your_turn", "hints are for the seat to act")
            view = g.view(seat)
        if not hintable(view):  # (the double deck, Napoleon's first trick at six and seven: the frames say so too)
            game = self.rules.sister_game or "these rules"
            raise Refusal("no_hint", f"no hints for {game} here yet (the hints' search does not play this position)")
        try:
            hints = await self.hub.hint(view)
        except RulesError as e:  # a game the hints' search does not play yet, which it says by name
            game = self.rules.sister_game or "these rules"
            raise Refusal("no_hint", f"no hints for {game} yet (the hints' sampling does not play it)") from e
        await self._note_hint(seat)
        return [{"action": str(h.action), "words": action_words(h.action, view), "points": round(h.points, 3),
                 "stderr": round(h.stderr, 3), "even": h.about_even} for h in hints]

    async def _note_hint(self, seat: int) -> None:
        """Record, durably and before the seat sees it, that the seat was given a hint
        (:attr:`SeatRow.hinted`): its result will be a practice game, after a restart too.

        Under the lock, so the mark is committed before the game's result rows or not at all: a
        game that ended while the hint was worked out refuses the hint (it is of no use any more)
        rather than handing it out unrecorded. A refused commit refuses the hint."""
        async with self.lock:
            if self.seats[seat].hinted:
                return
            if self.status != "playing":
                raise Refusal("over", "the game is over")
            if not await self.hub.durable([Store.op_hinted(self.id, seat)]):
                raise Refusal("unavailable", "the database did not take the hint's note; try again")
            self.seats[seat] = dataclasses.replace(self.seats[seat], hinted=True)

    # --- memory ------------------------------------------------------------------------------------
    def bot_due(self) -> bool:
        """A computer player is to act (its turn is pending, whether or not it has started)."""
        g = self.game
        return self.status == "playing" and g is not None and not g.is_over and self.bot_plays(g.to_act)

    def busy(self) -> bool:
        """Something is going on that the table must stay in memory for: a connection, a computer
        player's turn, a stand-in timer. (The lock is the caller's to check.)"""
        if self.conns or self.bot_due():
            return True
        if self._bot_task is not None and not self._bot_task.done():
            return True
        return any(not t.done() for t in self._away.values())

    def close(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._check_task is not None and self._check_task is not asyncio.current_task():
            self._check_task.cancel()
        for t in self._away.values():
            t.cancel()


# --- the hub -----------------------------------------------------------------------------------------
class Hub:
    """Every live table, the database and the writer; what the web app talks to."""

    def __init__(self, store: Store, config: ServerConfig | None = None) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.tables: dict[str, LiveTable] = {}
        self.writes_failing = False
        """The last commit failed and none has succeeded since (``/healthz`` says so)."""
        self.writer = Writer(store)
        self.bot_threads = ThreadPoolExecutor(max_workers=self.config.bot_threads, thread_name_prefix="euchre-bot")
        self.hint_threads = ThreadPoolExecutor(max_workers=self.config.hint_threads, thread_name_prefix="euchre-hint")
        self._hinting: dict[int, asyncio.Future[list[Hint]]] = {}
        """Hints being worked out, by position: a second ask of one waits for the first."""
        self.closing = False
        self.broken: dict[str, str] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.unloaded = 0
        """Tables dropped from memory since the start (idle or abandoned)."""
        self.abandoned = 0
        """Waiting tables marked ``abandoned`` since the start."""
        self._failures: dict[tuple[str, str], tuple[float, int]] = {}
        """Per failure kind: when it was last logged, and how often it happened since."""
        self.failures = 0
        """Failure lines logged since the start (``/healthz``)."""
        self.finished = 0
        """Games finished since the start: the listings (:meth:`read`) change only then."""
        self._reads: OrderedDict[tuple[Any, ...], asyncio.Future[Any]] = OrderedDict()
        self._hints: OrderedDict[int, list[Hint]] = OrderedDict()
        """The last hints worked out, by position (:func:`euchre.hints.position_seed`)."""
        self._unclaimed: dict[str, int] = {}
        """Tables whose creation was refused in doubt, with the events they were created with:
        removed once the database answers (:meth:`_remove_unclaimed`)."""
        self._unclaimed_task: asyncio.Task[None] | None = None

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` (a listing query of the store: finished games, statistics) on a worker
        thread, shared: asks of the same query while one runs wait for it, and its answer is kept
        until the next game finishes (the only thing that changes it). A flood of listing requests
        costs one query, not one each, so it cannot take the database from the tables."""
        key = (getattr(fn, "__name__", repr(fn)), *args, self.finished)
        fut = self._reads.get(key)
        if fut is not None and not (fut.done() and (fut.cancelled() or fut.exception() is not None)):
            self._reads.move_to_end(key)
            return await asyncio.shield(fut)
        fut = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        self._reads[key] = fut
        while len(self._reads) > READ_CACHE:
            self._reads.popitem(last=False)
        return await asyncio.shield(fut)

    async def hint(self, view: PlayerView) -> list[Hint]:
        """The hint for a view, from the cache when the position was asked about before."""
        from euchre.hints import hint, position_seed

        key = position_seed(view)
        cached = self._hints.get(key)
        if cached is not None:
            self._hints.move_to_end(key)
            return cached
        running = self._hinting.get(key)
        if running is not None:
            return await asyncio.shield(running)
        cfg = self.config
        if len(self._hinting) >= cfg.hint_queue:
            raise Refusal("busy", "hints are busy right now; try again in a few seconds")
        loop = asyncio.get_running_loop()
        work = functools.partial(hint, view, samples=cfg.hint_samples, bid_samples=cfg.hint_bid_samples,
                                 threads=cfg.threads_per_hint)
        fut = loop.run_in_executor(self.hint_threads, work)
        self._hinting[key] = fut

        def done(f: asyncio.Future[list[Hint]]) -> None:
            # Cached even when the asker went away meanwhile: the next ask is answered at once.
            self._hinting.pop(key, None)
            if not f.cancelled() and f.exception() is None:
                self._hints[key] = f.result()
                while len(self._hints) > HINT_CACHE:
                    self._hints.popitem(last=False)

        fut.add_done_callback(done)
        return await asyncio.shield(fut)

    async def start(self) -> None:
        """Replay the unfinished tables from the database, set their bots going again, and start
        the sweep.

        Only tables active within ``idle_unload`` seconds are replayed (all of them when it is 0):
        the others would have been put away by now had the server kept running, and a database
        of months of games must not all be replayed at each start. They are replayed, with any
        computer player's pending turn, when someone opens one of their links (:meth:`get`).
        """
        self.writer.start()
        loop = asyncio.get_running_loop()
        since = time.time() - self.config.idle_unload if self.config.idle_unload > 0 else None
        rows = await loop.run_in_executor(None, self.store.load_tables, ("waiting", "playing"), since,
                                          self._damaged)
        for row in rows:
            table = self._replay(row)
            if table is not None:
                self.tables[row.id] = table
        for table in list(self.tables.values()):
            if not self._resumed(table):
                del self.tables[table.id]
        if rows:
            log.info("resumed %d tables", len(self.tables))
        if self.config.sweep_interval > 0 and (self.config.idle_unload > 0 or self.config.waiting_expiry > 0):
            self._sweeper = loop.create_task(self._sweep_forever())

    def _replay(self, row: TableRow) -> LiveTable | None:
        """The table replayed from its events, or ``None`` (logged, and remembered as broken)."""
        try:
            return LiveTable(row, self)
        except Exception as e:  # noqa: BLE001 - a corrupt table must not stop the others
            self._damaged(row.id, e)
            return None

    def _damaged(self, table_id: str, e: Exception) -> None:
        """Set a table aside whose stored rows cannot be read or replayed: said once in the log,
        counted in ``/healthz``, refused with ``damaged`` when asked for; the others go on."""
        if table_id not in self.broken:
            log.error("table %s is damaged and set aside: %s", table_id, _describe(e),
                      extra={"ctx": {"event": "damaged table", "table": table_id, "error": type(e).__name__}})
        self.broken[table_id] = _describe(e)

    def _resumed(self, table: LiveTable) -> bool:
        """:meth:`_resume` the replayed table; whether it could be (else it is closed and set
        aside as damaged, and the other tables go on)."""
        try:
            self._resume(table)
        except Exception as e:  # noqa: BLE001 - a corrupt table must not stop the others
            table.close()
            self._damaged(table.id, e)
            return False
        return True

    def _resume(self, table: LiveTable) -> None:
        """What a replayed table does by itself: stand-in timers for absent people, and the
        pending turn of a computer player."""
        if self.closing:
            return
        for s in table.seats:
            table._watch_away(s.seat)
        table._kick_bot()

    async def stop(self) -> None:
        self.closing = True
        for task in (self._sweeper, self._unclaimed_task):
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        for t in self.tables.values():
            t.close()
        await self.writer.stop()
        self.bot_threads.shutdown(wait=False, cancel_futures=True)
        self.hint_threads.shutdown(wait=False, cancel_futures=True)

    def open_tables(self, client: str | None = None) -> int:
        """Tables in memory that are waiting or in play (opened from ``client``, if given)."""
        return sum(1 for t in self.tables.values()
                   if t.status in ("waiting", "playing") and (client is None or t.client == client))

    async def create(self, *, mode: str, rules: Rules, preset: str | None, level: str, name: str,
                     seed: int | None = None, player: str | None = None,
                     client: str | None = None) -> tuple[LiveTable, list[tuple[int, str]]]:
        """A new table; the creator (the host) sits at seat 0, with ``player`` (their browser's
        player id, if any) recorded on it. Returns the table and one ``(seat, token)`` per human
        seat (the only time a token exists in clear).

        ``client`` is the creator's address (:func:`~euchre.server.app.client_key`): one address
        may have ``max_tables_per_client`` tables open at once, and the server ``max_tables``."""
        self._check_room(client)
        if mode not in ("bots", "friends"):
            raise Refusal("malformed", f"mode must be 'bots' or 'friends', not {mode!r}")
        if level not in LEVELS:
            raise Refusal("malformed", f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        tokens: list[tuple[int, str]] = []
        seat_rows = []
        bot_names = computer_names(level, range(1, rules.players), taken=[name])
        for s in range(rules.players):
            if s == 0 or mode == "friends":
                token = secrets.token_urlsafe(32)
                tokens.append((s, token))
                kind = "human" if s == 0 else "open"
                nm = name if s == 0 else f"Player {s + 1}"
                seat_rows.append(SeatRow(s, nm, kind, token_hash(token), host=s == 0,
                                         player=player if s == 0 else None))
            else:
                seat_rows.append(SeatRow(s, bot_names[s], "bot", None))
        # Against computer players the table is created started, in the one commit: whatever
        # that commit does, the creator gets the table or nothing is left (no second commit
        # whose refusal would leave a table nobody has the links of).
        try:
            table = await self._open(rules, preset, level, mode, seat_rows, client, seed, started=mode == "bots")
        except _CreationInDoubt as e:
            self._remove_unclaimed(e.row)  # its creator is refused: nobody will ever hold its links
            raise
        if mode == "bots":
            self._resume(table)  # its computer players play
        return table, tokens

    def _check_room(self, client: str | None) -> None:
        """Refuse a new table past the server's or the client address's limit."""
        cfg = self.config
        if cfg.max_tables > 0 and self.open_tables() >= cfg.max_tables:
            raise Refusal("full", "the server has as many tables as it can hold; try again later")
        per_client = cfg.max_tables_per_client
        if client is not None and per_client > 0 and self.open_tables(client) >= per_client:
            raise Refusal("too_many_tables", f"your address already has {per_client} tables open; "
                                             "finish or leave one first")

    async def _open(self, rules: Rules, preset: str | None, level: str, mode: str, seat_rows: list[SeatRow],
                    client: str | None, seed: int | None = None,
                    with_ops: Callable[[str], Sequence[Op]] | None = None, *, started: bool = False) -> LiveTable:
        """A new table with these seats, durable, in memory: waiting, or ``started`` (its start
        event in the same commit: every seat is already taken); ``with_ops`` (given the new
        table's id) adds writes to the same transaction. ``seed`` is the creator's choice (the
        table is stored ``seeded``: its results are practice games), else a secret random one.

        A commit can be made and reported failed (a connection lost during COMMIT). The writer's
        retry of it finds the table stored and inserts nothing; a commit that still reports a
        failure is checked: a table stored after all is served as if nothing had failed, one not
        stored is refused (``unavailable``), and where the check fails too the creation is
        refused in doubt (:class:`_CreationInDoubt`)."""
        seeded = seed is not None  # a deal to play again: every seat's result is a practice game
        seed = secrets.randbelow(2**62) if seed is None else seed
        game = Game(rules, seed=seed)
        row = TableRow(id=secrets.token_urlsafe(9), created_at=now(), preset=preset, rules=rules.to_dict(),
                       seed=seed, dealer=game.first_dealer, level=level, mode=mode,
                       status="playing" if started else "waiting", seats=seat_rows, seeded=seeded)
        if started:
            row.events.append(EventRow(1, "start", None, None, {"bots": []}, time.time()))
        if not await self.durable([Store.op_create_table(row), *(with_ops(row.id) if with_ops else ())]):
            made = await self._table_found(row)
            if made is None:
                raise _CreationInDoubt(row)
            if not made:
                raise Refusal("unavailable", "the database did not take the new table; try again in a moment")
        table = LiveTable(row, self)
        table.client = client
        self.tables[row.id] = table
        return table

    async def _table_found(self, row: TableRow) -> bool | None:
        """After a new table's commit reported a failure: whether the database holds the table
        (the commit was made), or ``None`` if it cannot say (the read failed too)."""
        try:
            found = await asyncio.get_running_loop().run_in_executor(None, self.store.table_stored, row)
        except Exception as e:  # noqa: BLE001 - the database is still failing: said once
            self.log_failure("checking a new table", e, table=row.id)
            return None
        if found:
            log.warning("table %s: its creation was reported as failed but was made; it is served", row.id,
                        extra={"ctx": {"event": "table found", "table": row.id}})
        return found

    def _remove_unclaimed(self, row: TableRow) -> None:
        """A table whose creation was refused in doubt may be stored all the same, its links
        known to nobody: remove it (if it is there, and untouched) as soon as the database
        answers, trying again after 1, 2, 4 ... 16 seconds."""
        self._unclaimed[row.id] = len(row.events)
        if self._unclaimed_task is None or self._unclaimed_task.done():
            self._unclaimed_task = asyncio.get_running_loop().create_task(self._remove_unclaimed_soon())

    async def _remove_unclaimed_soon(self) -> None:
        delay = 1.0
        while self._unclaimed and not self.closing:
            created = dict(self._unclaimed)
            if await self.durable([Store.op_remove_unclaimed(created)]):
                for table_id in created:
                    self._unclaimed.pop(table_id, None)
                log.info("tables %s (creation refused in doubt) are not kept", ", ".join(created))
                continue
            await asyncio.sleep(delay)
            delay = min(BOT_RETRY_MAX, delay * 2)

    async def rematch(self, old: LiveTable, seat: int | None, client: str | None = None) -> LiveTable:
        """A new game for the same seats and rules once ``old`` is over, started at once: the same
        people (their links work at the new table: the seats keep their tokens), the same computer
        players. Asked twice (by anyone at the table), it is the same rematch."""
        async with old.lock:
            if seat is None or old.seats[seat].kind != "human":
                raise Refusal("forbidden", "only a player of this table can ask for a rematch")
            if old.status != "over":
                raise Refusal("not_over", "a rematch is for a finished game")
            host = next((s.seat for s in old.seats if s.host), seat)
            existing = await self.get(old.rematch) if old.rematch is not None else None
            if existing is not None:
                table = existing
            else:
                self._check_room(client)
                # (A new game: no hint given there yet; its deals from a fresh secret seed.)
                seats = [dataclasses.replace(s, hinted=False) for s in old.seats]
                await old._reconcile()
                noted: list[EventRow] = []

                def note(table_id: str) -> list[Op]:
                    noted.append(EventRow(old.version + 1, "rematch", seat, None, {"table": table_id}, time.time()))
                    return [Store.op_event(old.id, noted[0])]

                # The new table and the old one's pointer to it in one transaction: a refused
                # commit leaves neither (no orphan table holding the seats' tokens).
                try:
                    table = await self._open(old.rules, old.row.preset, old.level, old.row.mode, seats, client,
                                             with_ops=note)
                except Refusal:
                    old._suspect()
                    raise
                old._apply(noted[0])
                old.broadcast()
        if table.status == "waiting":  # (also a rematch whose start was refused before: asked again, it starts)
            await table.start(host)
        return table

    async def durable(self, ops: list[Op]) -> bool:
        """Commit ops; whether they are durable. A cancelled caller still waits for the outcome,
        so memory never disagrees with the database about a commit in flight."""
        fut = asyncio.ensure_future(self.writer.commit(ops))
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            await asyncio.wait([fut])
            if fut.exception() is None:
                return True
            raise
        except Exception as e:  # noqa: BLE001 - said once, and answered as "unavailable" by the caller
            self.log_failure("commit", e)
            self.writes_failing = True
            return False
        self.writes_failing = False
        return True

    def log_failure(self, what: str, e: BaseException, **context: Any) -> None:
        """Log a failure once, with its context. The same failure (``what`` and the exception's
        type) again within :data:`FAILURE_QUIET` seconds is only counted, and the count is said
        with its next line: a database that stays down is never logged in a loop."""
        key = (what, type(e).__name__)
        t = time.monotonic()
        last = self._failures.get(key)
        if last is not None and t - last[0] < FAILURE_QUIET:
            self._failures[key] = (last[0], last[1] + 1)
            return
        self._failures[key] = (t, 0)
        self.failures += 1
        repeated = last[1] if last is not None else 0
        log.error("%s failed: %s", what, _describe(e), exc_info=e if last is None else None,
                  extra={"ctx": {"event": what, "error": type(e).__name__, "repeated": repeated, **context}})

    async def get(self, table_id: str) -> LiveTable | None:
        """The table, from memory, or else replayed from the database exactly as at a restart
        (a table put away while idle, a finished or abandoned one, one not loaded at the start):
        a computer player whose turn it is acts, stand-in timers run again."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken:
            raise Refusal("damaged", "this table's stored record is damaged and cannot be loaded "
                                     "(the other tables are not affected)")
        if len(table_id) > 24:
            return None
        try:
            row = await asyncio.get_running_loop().run_in_executor(None, self.store.load_table, table_id)
        except DamagedTable as e:
            self._damaged(table_id, e)
            return await self.get(table_id)
        except Exception as e:  # noqa: BLE001 - the database is down or refusing: said once, answered 503
            self.log_failure("loading a table", e, table=table_id)
            raise Refusal("unavailable", "the database is not answering; try again in a moment") from None
        if row is None:
            return None
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            table = self._replay(row)
            if table is None or not self._resumed(table):
                return await self.get(table_id)
            self.tables[table_id] = table
            await self._make_room(table)
        return table

    async def _make_room(self, keep: LiveTable) -> None:
        """Past ``max_tables`` tables in memory, put away the least recently used idle ones (not
        ``keep``, just loaded). Anyone may ask for any stored table (its rules, its page), and each
        one asked for is replayed into memory: without this, a client walking the list of games
        held them all until the sweep, beyond the limit that new tables are held to."""
        cap = self.config.max_tables
        if cap <= 0 or len(self.tables) <= cap:
            return
        idle = sorted((t for t in self.tables.values() if t is not keep and not t.lock.locked() and not t.busy()),
                      key=lambda t: t.touched)
        for table in idle[:len(self.tables) - cap]:
            async with table.lock:  # (as the sweep does: free, unless a waiter is just waking)
                if not (table.busy() or table.unloaded) and self.tables.get(table.id) is table:
                    self._drop(table)

    # --- the sweep -----------------------------------------------------------------------------------
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the next sweep tries again
                self.log_failure("the sweep", e)

    async def sweep(self) -> None:
        """Put idle tables away and abandon waiting tables past their expiry. Cheap: one pass
        over the tables in memory and one indexed query; a table whose lock is held (an action,
        a join, a start in progress) is left for the next sweep."""
        if self.config.waiting_expiry > 0:
            await self._expire_waiting()
        if self.config.idle_unload > 0:
            before = self.unloaded
            await self._unload_idle()
            if self.unloaded > before:
                self._give_back_memory()

    async def _unload_idle(self) -> None:
        """Drop the tables idle for ``idle_unload`` seconds with nothing to do."""
        now_m = time.monotonic()
        for table in list(self.tables.values()):
            if table.lock.locked():
                continue
            if table.busy():
                if table.bot_due():
                    table._kick_bot()  # a no-op unless its turn was somehow not started
                continue
            if now_m - table.touched >= self.config.idle_unload:
                async with table.lock:  # free: taken at once, unless a waiter is just waking
                    if not (table.busy() or table.unloaded
                            or time.monotonic() - table.touched < self.config.idle_unload):
                        self._drop(table)

    def _give_back_memory(self) -> None:
        """After tables are put away: collect their cycles and hand the freed heap back to the
        system (glibc's ``malloc_trim``), so the process's memory falls after a peak instead of
        staying at it. A no-op where there is no glibc."""
        gc.collect()
        trim = _malloc_trim()
        if trim is not None:
            trim(0)

    def _drop(self, table: LiveTable) -> None:
        """Forget the table (with its lock held): the database has all of it."""
        table.unloaded = True
        table.close()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.unloaded += 1

    async def _expire_waiting(self) -> None:
        """Mark ``abandoned`` the tables still waiting ``waiting_expiry`` seconds after they were
        opened, unless someone is connected to one (a host still in its lobby)."""
        cutoff = now() - dt.timedelta(seconds=self.config.waiting_expiry)
        loop = asyncio.get_running_loop()
        ids = await loop.run_in_executor(None, self.store.expired_waiting, cutoff, self.config.sweep_batch)
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except Refusal:
                continue  # damaged (set aside), or the database is down (the next sweep tries)
            if table is None or table.conns or table.lock.locked():
                continue
            async with table.lock:
                if table.status != "waiting" or table.conns or table.unloaded:
                    continue
                if not await self.durable([Store.op_abandon(table.id)]):
                    continue
                table.status = "abandoned"
                self.abandoned += 1
                self._drop(table)
            log.info("table %s was never started: abandoned", table_id)

    def stats(self) -> dict[str, Any]:
        return {"tables": len(self.tables), "batches": self.writer.batches, "commits": self.writer.commits,
                "unloaded": self.unloaded, "abandoned": self.abandoned, "damaged": len(self.broken),
                "failures": self.failures}

    def health(self) -> tuple[bool, str | None]:
        """Whether the server can keep what it is told (``/healthz``'s ``ok``), and why not: the
        last commit failed (none has succeeded since), or the SQLite file is gone."""
        problem = self.store.file_problem()
        if problem is not None:
            return False, problem
        if self.writes_failing:
            return False, "the last commit failed (see the log); nothing new is being kept"
        return True, None
