"""Crash and reconnect tests for ``euchre serve`` (docs/server.md), on SQLite and PostgreSQL.

A real server process is killed with SIGKILL at random moments while clients play random legal
actions as fast as they can, then restarted on the same database. After each restart:

* the event log is numbered 1..N without gaps, replays through the engine, and holds every
  acknowledged action exactly once, at the version it was acknowledged with;
* every reconnected client (each seat and a spectator) gets a state frame whose ``view`` is the
  engine's view of the replayed log;
* an action sent before the kill and never acknowledged, resent with the same id, gets its
  original ack (it was committed), is processed now, or is refused cleanly (``stale``,
  ``not_your_turn``, ``over``), and nothing is ever applied twice;
* computer players whose turn was pending at the kill act after the restart with nobody connected.

Then the reconnect edge cases of the protocol, and tables that are finished or waiting at a kill.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import DATABASES, Client, Server, fresh_database

from euchre import Game, Rules
from euchre.actions import Action
from euchre.bots.levels import level_bot
from euchre.bots.persona import CAST
from euchre.match import Match
from euchre.notation import loads as load_record
from euchre.protocol import view_to_dict
from euchre.server.db import Store, TableRow

QUIET = ("--bot-delay", "0", "--away-timeout", "0")
"""Computer players act at once; an absent player's seat is never taken over."""
PACED = ("--bot-delay", "0.02", "--away-timeout", "0")
"""Each computer player's turn lasts at least 20 ms, so that a kill can fall inside one."""
RESEND_OUTCOMES = ("original", "new", "refused")
DB_POLL = 0.02
"""Seconds between two reads of the database (or the API) while waiting for the server."""


# --- the server, its database and its log ---------------------------------------------------------
class Harness:
    """One ``euchre serve`` on a fresh database: kill, restart, read the database, call the API."""

    def __init__(self, db: str, tmp_path: Path, *args: str) -> None:
        self.db = db
        self.url = fresh_database(db, tmp_path)
        self.server = Server(self.url, tmp_path, *args)
        self.logs: list[str] = []
        self._store: Store | None = None

    def start(self, *args: str) -> Harness:
        if args:
            self.server.args = list(args)
        self.server.start()
        return self

    def kill(self) -> None:
        """SIGKILL, keeping what the process wrote."""
        if self.server.proc is not None and self.server.proc.poll() is None:
            self.server.kill()
        self._drain()

    def stop(self) -> None:
        self.server.stop()
        self._drain()
        if self._store is not None:
            self._store.close()
            self._store = None

    def _drain(self) -> None:
        proc = self.server.proc
        if proc is not None and proc.stdout is not None and not proc.stdout.closed and proc.poll() is not None:
            self.logs.append(proc.stdout.read())
            proc.stdout.close()

    def assert_clean_log(self) -> None:
        """The server logged no exception and no refused computer player in any of its lives."""
        self.stop()
        text = "".join(self.logs)
        assert "Traceback" not in text and "refused" not in text and "cannot be replayed" not in text, text

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.url, migrate=False)
        return self._store

    def load(self, table_id: str) -> TableRow:
        row = self.store.load_table(table_id)
        assert row is not None
        return row

    def api(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.request(method, self.server.base + path, headers=headers, timeout=10, **kw)

    def ws(self, table_id: str) -> str:
        return f"{self.server.ws_base}/ws/{table_id}"


@pytest.fixture
def harness(tmp_path: Path) -> Any:
    made: list[Harness] = []

    def make(db: str, *args: str) -> Harness:
        home = tmp_path / f"h{len(made)}"
        home.mkdir()
        h = Harness(db, home, *args)
        made.append(h)
        return h.start()

    yield make
    for h in made:
        h.stop()


# --- the engine's truth ---------------------------------------------------------------------------
def replay(row: TableRow, upto: int | None = None) -> Game | None:
    """The game of the table's first ``upto`` events (all by default), replayed by the engine
    (under match rules, the match's game being played)."""
    game = None
    match = None
    for ev in row.events:
        if upto is not None and ev.seq > upto:
            break
        if ev.kind == "start":
            rules = Rules.from_dict(row.rules)
            if rules.is_match:
                match = Match(rules, seed=row.seed, dealer=row.dealer)
                game = match.game
            else:
                game = Game(rules, seed=row.seed, dealer=row.dealer)
        elif ev.kind in ("action", "claim"):  # a claim holds the cards it played
            assert game is not None, f"action before start at event {ev.seq}"
            codes = ev.payload["a"]
            for code in codes if isinstance(codes, list) else [codes]:
                game.push(Action.from_code(int(code)))
            if match is not None:
                match.settle()
                game = match.game
        elif ev.kind == "undo":
            assert game is not None
            for _ in range(int(ev.payload["n"])):
                game.pop()
    return game


def engine_view(row: TableRow, seat: int | None, upto: int) -> dict[str, Any] | None:
    game = replay(row, upto)
    return None if game is None else json.loads(json.dumps(view_to_dict(game.view(seat))))


def check_state(row: TableRow, seat: int | None, frame: dict[str, Any]) -> None:
    """A state frame is the engine's view of the log up to its version (and the score)."""
    assert frame["t"] == "state"
    v = frame["v"]
    assert v <= len(row.events), (v, len(row.events))
    assert frame["d"]["view"] == engine_view(row, seat, v), f"seat {seat}: view at v={v} is not the replayed one"
    game = replay(row, v)
    if game is not None:
        assert frame["d"]["scores"] == list(game.scores)
        assert frame["d"]["status"] == ("over" if game.is_over else "playing")


# --- clients --------------------------------------------------------------------------------------
class Peer:
    """One connection to a seat (``seat=None``: a spectator), read by a background task.

    It remembers every action it sent (``id -> (action, v)``), every ack (``id -> v``) and every
    refusal; with ``autoplay`` it plays a random legal action on each new version where it is to
    act, as fast as it can.
    """

    def __init__(self, seat: int | None, token: str | None, rng: random.Random, name: str | None = None,
                 tag: str | None = None) -> None:
        self.seat = seat
        self.tag = tag or f"s{seat}"
        """Prefix of this client's action ids (two sockets on one seat use different ones)."""
        self.token = token
        self.rng = rng
        self.name = name
        self.client: Client | None = None
        self.task: asyncio.Task[None] | None = None
        self.frames: list[dict[str, Any]] = []
        """Frames of the current connection."""
        self.sent: dict[str, tuple[str, int]] = {}
        self.acked: dict[str, int] = {}
        self.acks: list[tuple[str, int]] = []
        """Every ack received, repeats included."""
        self.sent_at: dict[str, float] = {}
        self.latency: list[float] = []
        """Seconds from send to ack of each action acked on the connection that sent it."""
        self.errs: list[dict[str, Any]] = []
        self.refused: dict[str, str] = {}
        self.n = 0
        self.acted_v = -1
        self.last_v = 0
        self.autoplay = False
        self.on_send: Callable[[Peer], None] | None = None
        self.on_ack: Callable[[Peer], None] | None = None
        self.on_state: Callable[[Peer, dict[str, Any]], None] | None = None
        self.failure: BaseException | None = None
        self._kick: asyncio.Task[None] | None = None

    async def connect(self, url: str, v: int | None | str = "last") -> Peer:
        hello_v = self.last_v if v == "last" else v
        self.client = await Client.connect(url, self.token, v=hello_v, name=self.name)
        self.frames = []
        self.task = asyncio.create_task(self._read())
        return self

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()
        if self.task is not None:
            await asyncio.wait([self.task], timeout=5)

    @property
    def alive(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def v(self) -> int:
        assert self.client is not None
        return self.client.v

    @property
    def state(self) -> dict[str, Any] | None:
        return None if self.client is None else self.client.state

    @property
    def over(self) -> bool:
        return self.state is not None and self.state["status"] == "over"

    def legal(self) -> list[str]:
        st = self.state
        if st is None or st["status"] != "playing" or st["view"] is None:
            return []
        return list(st["view"]["legal"])

    def first_state(self) -> dict[str, Any] | None:
        return next((f for f in self.frames if f["t"] == "state"), None)

    def unacked(self) -> list[str]:
        return [i for i in self.sent if i not in self.acked and i not in self.refused]

    async def _read(self) -> None:
        assert self.client is not None
        try:
            while True:
                f = await self.client.recv(timeout=600)
                self.frames.append(f)
                if f["t"] == "ack":
                    i = f["id"]
                    assert i in self.sent, f"ack for an id never sent: {f}"
                    assert self.acked.setdefault(i, f["v"]) == f["v"], f"two acks for {i}: {self.acked[i]}, {f}"
                    self.acks.append((i, f["v"]))
                    if i in self.sent_at:
                        self.latency.append(time.monotonic() - self.sent_at.pop(i))
                    if self.on_ack is not None:
                        self.on_ack(self)
                elif f["t"] == "err":
                    self.errs.append(f)
                elif f["t"] == "state":
                    self.last_v = max(self.last_v, f["v"])
                    if self.on_state is not None:
                        self.on_state(self, f)
                if self.autoplay:
                    await self.maybe_act()
        except (websockets.ConnectionClosed, OSError):
            return
        except Exception as e:  # an assertion about a frame: reported by check()
            self.failure = e
            raise

    def check(self) -> None:
        if self.failure is not None:
            raise self.failure

    async def act(self, action: str, id: str | None = None, v: int | None = None) -> str:
        """Send an action (a fresh id, on the latest version, unless told)."""
        assert self.client is not None
        if id is None:
            self.n += 1
            id = f"{self.tag}-{self.n}"
        base = self.v if v is None else v
        self.sent.setdefault(id, (action, base))
        self.sent_at[id] = time.monotonic()
        await self.client.send({"t": "act", "id": id, "action": action, "v": base})
        return id

    async def maybe_act(self) -> None:
        legal = self.legal()
        if not legal or self.v == self.acted_v:
            return
        self.acted_v = self.v  # before any await: one action per version
        await self.act(self.rng.choice(legal))
        if self.on_send is not None:
            self.on_send(self)

    def play(self) -> None:
        self.autoplay = True
        self._kick = asyncio.get_running_loop().create_task(self._first_move())

    async def _first_move(self) -> None:
        try:
            await self.maybe_act()
        except (websockets.ConnectionClosed, OSError):
            pass

    async def answer(self, id: str, since: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first ack or err for ``id`` among the frames from index ``since`` on."""
        found: list[dict[str, Any]] = []

        def seen() -> bool:
            found[:] = [f for f in self.frames[since:] if f["t"] in ("ack", "err") and f.get("id") == id]
            return bool(found)

        await wait_until(seen, timeout, f"an answer to {id}")
        return found[0]


async def wait_until(cond: Callable[[], bool], timeout: float = 10.0, what: str = "a condition",
                     every: float = 0.003) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(every)


# --- the log's promises ---------------------------------------------------------------------------
def check_log(row: TableRow, peers: list[Peer], settled: Sequence[Peer] = ()) -> None:
    """Events 1..N without gaps, a log the engine replays, every ack present exactly once at its
    version with the action sent; every action the ``settled`` clients sent was acked or refused."""
    seqs = [e.seq for e in row.events]
    assert seqs == list(range(1, len(seqs) + 1)), f"event seqs have gaps or repeats: {seqs}"
    replay(row)
    keyed = [(e.seat, e.client_id) for e in row.events if e.client_id is not None]
    assert len(keyed) == len(set(keyed)), "a client id appears twice"
    by_id = {(e.seat, e.client_id): e for e in row.events if e.client_id is not None}
    for p in peers:
        for i, v in p.acked.items():
            e = by_id.get((p.seat, i))
            assert e is not None, f"seat {p.seat}: acked action {i} (v={v}) is not in the log"
            assert e.seq == v and e.kind == "action", (i, v, e)
            assert str(Action.from_code(int(e.payload["a"]))) == p.sent[i][0], (i, e, p.sent[i])
        for i in p.refused:
            assert (p.seat, i) not in by_id, f"seat {p.seat}: refused action {i} is in the log"
        if p in settled:
            assert not p.unacked(), f"seat {p.seat}: never answered: {p.unacked()}"
    for (seat, i), e in by_id.items():
        if not i.startswith("bot:"):
            owners = [p for p in peers if p.seat == seat and i in p.sent]
            assert owners, f"event {e.seq} has client id {i!r} that no client sent"
            assert str(Action.from_code(int(e.payload["a"]))) == owners[0].sent[i][0]


def check_final(h: Harness, table_id: str, peers: list[Peer]) -> Game:
    """The game is over everywhere, and the downloadable record replays to the final score."""
    row = h.load(table_id)
    check_log(row, peers)
    game = replay(row)
    assert game is not None and game.is_over
    assert row.status == "over" and row.scores == list(game.scores) and row.winners == list(game.winners)
    info = h.api("GET", f"/api/tables/{table_id}").json()
    assert info["status"] == "over" and info["scores"] == list(game.scores) and info["version"] == len(row.events)
    r = h.api("GET", f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    record = load_record(r.text)
    replayed = record.replay()
    assert replayed.is_over and replayed.scores == game.scores and replayed.winners == game.winners
    n_actions = sum(1 if e.kind == "action" else len(e.payload["a"])  # a claim holds the cards it played
                    for e in row.events if e.kind in ("action", "claim"))
    assert sum(len(hand.actions) for hand in record.hands) == n_actions
    assert h.api("GET", f"/api/tables/{table_id}/record?format=egn").status_code == 200
    for p in peers:
        if p.state is not None and p.v == len(row.events):
            check_state(row, p.seat, {"t": "state", "v": p.v, "d": p.state})
    return game


# --- a kill at a random moment --------------------------------------------------------------------
class Killer:
    """Kills the server at one moment of a phase of play: ``time`` (after a delay), ``acks``
    (after n acks), ``send`` (right after the n-th action left, before its ack could arrive, after
    a random sub-commit pause) or ``bot`` (on the first frame where a computer player is to act)."""

    def __init__(self, h: Harness, rng: random.Random, mode: str) -> None:
        self.h = h
        self.mode = mode
        self.rng = rng
        self.count = 0
        self.n = {"time": 0, "acks": rng.randint(1, 12), "send": rng.randint(1, 8), "bot": 1}[mode]
        self.delay = rng.uniform(0.005, 0.04)
        self.pause = rng.choice([0.0, rng.random(), rng.random()])
        """``send``: the pause before the kill, as a share of 1.5 times the median time to an ack,
        so that some kills fall between the commit and the ack."""
        self.fired = False

    def kill(self) -> None:
        if not self.fired:
            self.fired = True
            self.h.kill()

    def on_send(self, p: Peer) -> None:
        if self.mode == "send":
            self.count += 1
            if self.count >= self.n:
                typical = sorted(p.latency)[len(p.latency) // 2] if p.latency else 0.002
                time.sleep(self.pause * 1.5 * typical)  # blocks this process only: the server goes on
                self.kill()

    def on_ack(self, _p: Peer) -> None:
        if self.mode == "acks":
            self.count += 1
            if self.count >= self.n:
                self.kill()

    def on_state(self, p: Peer, f: dict[str, Any]) -> None:
        view = f["d"]["view"]
        if self.mode == "bot" and p.seat is not None and view is not None and view["to_act"] is not None:
            if f["d"]["status"] == "playing" and f["d"]["seats"][view["to_act"]]["kind"] == "bot":
                self.count += 1
                if self.count >= self.n:
                    self.kill()

    async def run(self, peers: list[Peer]) -> bool:
        """Play until the kill (True) or the end of the game (False)."""
        for p in peers:
            p.on_send, p.on_ack, p.on_state = self.on_send, self.on_ack, self.on_state
        for p in peers:
            p.play()
        start = time.monotonic()
        deadline = start + 60
        while not self.fired and not all(p.over for p in peers):
            if self.mode == "time" and time.monotonic() - start >= self.delay:
                self.kill()
            assert time.monotonic() < deadline, "the game stalled"
            for p in peers:
                p.check()
            await asyncio.sleep(0.001)
        if self.fired:
            await wait_until(lambda: not any(p.alive for p in peers), 10, "the clients to see the kill")
        for p in peers:
            p.autoplay = False
            p.on_send = p.on_ack = p.on_state = None
        return self.fired


async def recover(h: Harness, table_id: str, peers: list[Peer], stats: dict[str, int], quiet: bool = False,
                  only: Sequence[Peer] | None = None) -> None:
    """After a restart: check the log, reconnect every client (or ``only`` these) with hello and
    its last v, check each one's state against the replayed log, resend every unacknowledged
    action with its own id. ``quiet``: nothing acts on its own at this table, so every state is
    the whole log."""
    back = list(peers if only is None else only)
    row = h.load(table_id)
    check_log(row, peers)
    for p in back:
        await p.connect(h.ws(table_id))
    await wait_until(lambda: all(p.first_state() is not None for p in back), 10, "state frames after hello")
    after = h.load(table_id)
    for p in back:
        frame = p.first_state()
        assert frame is not None
        check_state(after, p.seat, frame)
        if quiet:
            assert frame["v"] == len(after.events) == len(row.events), (frame["v"], len(row.events))
    committed = {(e.seat, e.client_id): e.seq for e in row.events if e.client_id is not None}
    for p in back:
        for i in p.unacked():
            action, v = p.sent[i]
            since = len(p.frames)
            await p.act(action, id=i, v=v)
            f = await p.answer(i, since)
            before = committed.get((p.seat, i))
            if f["t"] == "ack":
                if before is not None:
                    assert f["v"] == before, f"resent {i} was committed as {before}, acked as {f['v']}"
                    stats["original"] += 1
                else:
                    stats["new"] += 1
            else:
                assert before is None, f"resent {i} was committed as {before}, but refused: {f}"
                assert f["code"] in ("stale", "not_your_turn", "over"), f
                p.refused[i] = f["code"]
                stats["refused"] += 1
    check_log(h.load(table_id), peers, settled=back)


def check_no_errors(peers: list[Peer]) -> None:
    """Every err frame answered a resend that was refused."""
    for p in peers:
        p.check()
        unexpected = [f for f in p.errs if f.get("id") not in p.refused]
        assert not unexpected, f"seat {p.seat}: {unexpected}"


# --- 1. kill -9 at random moments --------------------------------------------------------------------
async def finish(h: Harness, tid: str, peers: list[Peer]) -> None:
    """Play the game to its end, check the log and the final state, and hang up."""
    if not all(p.over for p in peers):
        for p in peers:
            p.play()
        await wait_until(lambda: all(p.over for p in peers), 60, "the end of the game")
        await wait_until(lambda: all(p.v == peers[0].v for p in peers), 10, "the last frames")
    check_no_errors(peers)
    check_final(h, tid, peers)
    for p in peers:
        await p.close()


async def friends_game(h: Harness, seed: str) -> tuple[int, dict[str, int]]:
    rng = random.Random(seed)
    tid, _, peers = await new_friends_table(h, seed, target=30)
    assert [s["kind"] for s in h.api("GET", f"/api/tables/{tid}").json()["seats"]] == ["human"] * 4
    watcher = await Peer(None, None, rng).connect(h.ws(tid), v=None)
    peers.append(watcher)
    await wait_until(lambda: watcher.state is not None, 10, "the spectator's state")
    stats = dict.fromkeys(RESEND_OUTCOMES, 0)
    stats["stand_in"] = 0
    modes = ["send", "acks", "time", "send"]
    rng.shuffle(modes)
    modes.insert(rng.randrange(1, len(modes)), "away")
    kills = 0
    for mode in modes:
        if not await Killer(h, rng, mode if mode != "away" else "time").run(peers):
            break
        kills += 1
        if mode == "away":
            kills += await away_and_back(h, tid, peers, rng.randrange(4), stats)
            continue
        h.start()
        await recover(h, tid, peers, stats, quiet=True)
    await finish(h, tid, peers)
    return kills, stats


async def away_and_back(h: Harness, tid: str, peers: list[Peer], k: int, stats: dict[str, int]) -> int:
    """The player of seat ``k`` does not come back after a restart: a stand-in takes the seat and
    plays it while the others play on; the server is killed the moment the stand-in has played,
    replays the stand-in at the restart, and hands the seat back when its player returns. The
    number of kills."""
    n = len(h.load(tid).events)
    h.start("--bot-delay", "0", "--away-timeout", "0.3")
    others = [p for p in peers if p.seat != k]
    await recover(h, tid, peers, stats, only=others)

    def stood_in() -> bool:
        row = h.load(tid)
        g = replay(row)
        return (g is not None and g.is_over) or any(
            e.kind == "action" and e.seat == k and e.client_id is None for e in row.events[n:])

    for p in others:
        p.play()
    await wait_until(stood_in, 20, f"a stand-in to play seat {k}", DB_POLL)
    h.kill()
    await wait_until(lambda: not any(p.alive for p in peers), 10, "the clients to see the kill")
    for p in others:
        p.autoplay = False
        p.check()
    h.start(*QUIET)
    row = h.load(tid)
    game = replay(row)
    assert game is not None
    assert game.is_over or any(e.kind == "bot_in" and e.seat == k for e in row.events[n:])
    await recover(h, tid, peers, stats)
    row = h.load(tid)
    game = replay(row)
    assert game is not None
    if not game.is_over:
        ins = [e.seq for e in row.events if e.kind == "bot_in" and e.seat == k]
        outs = [e.seq for e in row.events if e.kind == "bot_out" and e.seat == k]
        assert outs and outs[-1] > ins[-1], f"seat {k} was not handed back"
        stats["stand_in"] += 1
    return 1


async def bots_game(h: Harness, seed: str) -> tuple[int, dict[str, int]]:
    rng = random.Random(seed)
    created = h.api("POST", "/api/tables", json={"mode": "bots", "level": "medium", "name": "Me"}).json()
    tid = created["id"]
    me = Peer(0, created["token"], random.Random(f"{seed}/0"))
    peers = [me, Peer(None, None, rng)]
    for p in peers:
        await p.connect(h.ws(tid), v=None)
    stats = dict.fromkeys(RESEND_OUTCOMES, 0)
    stats["bot_resumed"] = 0
    modes = ["bot", "send", "time", "acks"]
    kills = 0
    for i, mode in enumerate(modes):
        if not await Killer(h, rng, mode).run(peers):
            break
        kills += 1
        h.start(*(QUIET if i == len(modes) - 1 else PACED))  # the rest of the game at full speed
        # Nobody is connected: the computer players must take their pending turns by themselves.
        row = h.load(tid)
        game = replay(row)
        assert game is not None
        if not game.is_over and game.to_act != 0:
            n = len(row.events)

            def my_turn() -> bool:
                g = replay(h.load(tid))
                return g is not None and (g.is_over or g.to_act == 0)

            await wait_until(my_turn, 20, "the computer players to act after the restart", DB_POLL)
            assert len(h.load(tid).events) > n
            stats["bot_resumed"] += 1
        await recover(h, tid, peers, stats)
    await finish(h, tid, peers)
    return kills, stats


@pytest.mark.parametrize("db", DATABASES)
def test_kill9_friends_table(harness: Any, db: str) -> None:
    """Four people and a spectator play as fast as they can; the server is killed at random
    moments (between sends, acks and commits) and restarted; once, one player stays away long
    enough for a stand-in, the server is killed while it plays, and the seat is handed back; the
    game is played to its end."""
    h = harness(db, *QUIET)
    kills, stats = asyncio.run(friends_game(h, f"friends/{db}"))
    print(f"\n{db}: {kills} kills, resends {stats}")
    assert kills >= 4
    h.assert_clean_log()


@pytest.mark.parametrize("db", DATABASES)
def test_kill9_bots_table(harness: Any, db: str) -> None:
    """One person, three computer players, a spectator: killed at random moments, often while a
    computer player is to act; after each restart the computer players take their pending turns
    with nobody connected, and the game is played to its end."""
    h = harness(db, *PACED)
    kills, stats = asyncio.run(bots_game(h, f"bots/{db}"))
    print(f"\n{db}: {kills} kills, resends {stats}")
    assert kills >= 3
    assert stats["bot_resumed"] >= 1
    h.assert_clean_log()


# --- 2. reconnect edge cases ---------------------------------------------------------------------
async def new_friends_table(h: Harness, seed: str, target: int = 10) -> tuple[str, list[str], list[Peer]]:
    """A friends table with four connected people, started. (Random players swing the score by
    loners, so a game to 10 can end in a few hands; a longer one leaves room for the kills.)"""
    created = h.api("POST", "/api/tables", json={"mode": "friends", "level": "medium", "name": "P1",
                                                 "rules": {"target": target}}).json()
    tid = created["id"]
    tokens = [created["token"]] + [link["token"] for link in created["links"]]
    peers = [Peer(s, tokens[s], random.Random(f"{seed}/{s}"), name=f"P{s + 1}") for s in range(4)]
    for p in peers:
        await p.connect(h.ws(tid), v=None)
        await wait_until(lambda p=p: p.state is not None, 10, "the first state")
    r = h.api("POST", f"/api/tables/{tid}/start", token=tokens[0])
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    await wait_until(lambda: all(p.state is not None and p.state["status"] == "playing" for p in peers), 10,
                     "the start")
    return tid, tokens, peers


def to_act(peers: list[Peer]) -> Peer:
    """The first socket (in ``peers``' order) of the seat to act."""
    found = [p for p in peers if p.legal()]
    assert found and len({p.seat for p in found}) == 1, [(p.seat, p.v) for p in peers]
    return found[0]


async def settle(peers: list[Peer], v: int | None = None) -> int:
    """Wait until every socket shows version ``v`` (default: the highest any shows)."""
    top = max(p.v for p in peers) if v is None else v
    await wait_until(lambda: all(p.v == top for p in peers), 10, f"every socket at v={top}")
    return top


async def step(peers: list[Peer], rng: random.Random, via: Peer | None = None) -> tuple[Peer, str, int]:
    """The seat to act plays a random legal action (through ``via``, another socket of that seat)."""
    await settle(peers)
    actor = to_act(peers)
    sender = via or actor
    assert sender.seat == actor.seat
    i = await sender.act(rng.choice(actor.legal()))
    await wait_until(lambda: i in sender.acked, 10, f"the ack of {i}")
    await settle(peers, sender.acked[i])
    return sender, i, sender.acked[i]


def seat_info(h: Harness, tid: str, seat: int) -> dict[str, Any]:
    info: dict[str, Any] = h.api("GET", f"/api/tables/{tid}").json()["seats"][seat]
    return info


async def hello_gets_full_state(h: Harness, tid: str, seat: int | None, token: str | None, hello_v: Any,
                                rng: random.Random, watcher: Peer) -> None:
    """A new socket whose hello carries ``hello_v`` gets the welcome and the current state; once
    it is closed, the others see its seat still present (its first socket is still open)."""
    since = len(watcher.frames)

    def states() -> list[dict[str, Any]]:
        return [f for f in watcher.frames[since:] if f["t"] == "state"]

    extra = await Peer(seat, token, rng, tag="hello").connect(h.ws(tid), v=hello_v)
    await wait_until(lambda: extra.first_state() is not None, 10, f"the state after hello v={hello_v}")
    row = h.load(tid)
    assert extra.frames[0] == {"t": "welcome", "d": {"table": tid, "seat": seat, "host": seat == 0}}
    frame = extra.first_state()
    assert frame is not None and frame["v"] == len(row.events), (hello_v, frame["v"], len(row.events))
    check_state(row, seat, frame)
    assert frame["d"]["status"] == "playing" and frame["d"]["seat"] == seat
    await wait_until(lambda: len(states()) >= 1, 10, "the presence frame of the join")
    await extra.close()
    await wait_until(lambda: len(states()) >= 2, 10, "the presence frame of the leave")
    after = states()[1]["d"]["seats"]
    if seat is not None:
        assert after[seat]["present"] and not after[seat]["away"], "closing a second socket made the seat away"
        assert seat_info(h, tid, seat)["present"]


async def edge_cases(h: Harness, seed: str) -> None:
    rng = random.Random(seed)
    tid, tokens, peers = await new_friends_table(h, seed)
    first: list[tuple[Peer, str, int]] = []
    for _ in range(8):
        first.append(await step(peers, rng))
    big = await settle(peers)

    # hello with v=0, a stale v, the current v, v ahead of the server, no v; a spectator ahead.
    for hello_v in (0, 1, big - 3, big, big + 1, 10**6, None):
        await hello_gets_full_state(h, tid, 1, tokens[1], hello_v, rng, peers[0])
    await hello_gets_full_state(h, tid, None, None, 10**6, rng, peers[0])

    # A player who leaves is away; back with a stale v, present again with the full state.
    p2 = peers[2]
    await p2.close()
    await wait_until(lambda: seat_info(h, tid, 2)["away"], 10, "seat 2 away", DB_POLL)
    await p2.connect(h.ws(tid), v=max(0, p2.last_v - 5))
    await wait_until(lambda: p2.first_state() is not None, 10, "seat 2's state")
    frame = p2.first_state()
    assert frame is not None and frame["v"] == big
    check_state(h.load(tid), 2, frame)
    assert seat_info(h, tid, 2) | {"name": None} == {"seat": 2, "name": None, "kind": "human", "present": True,
                                                     "away": False, "bot": False, "level": None}

    # Two sockets on the seat to act: both get every frame; either can act; closing one leaves the
    # seat present.
    main = to_act(peers)
    s = main.seat
    assert s is not None
    twin = await Peer(s, tokens[s], rng, tag=f"twin{s}").connect(h.ws(tid))
    seen = [*peers, twin]
    everyone = [*peers, twin]
    await wait_until(lambda: twin.first_state() is not None, 10, "the twin's state")
    assert twin.legal() == main.legal()
    _, _, v = await step(everyone, rng, via=twin)
    assert main.v == twin.v == v
    while to_act(peers) is not main:
        await step(everyone, rng)
    _, _, v = await step(everyone, rng, via=main)
    assert twin.v == v and twin.state == main.state
    since = len(twin.frames)
    await main.close()
    await wait_until(lambda: any(f["t"] == "state" for f in twin.frames[since:]), 5, "the presence frame")
    assert all(f["d"]["seats"][s]["present"] for f in twin.frames[since:] if f["t"] == "state")
    assert seat_info(h, tid, s)["present"] and not seat_info(h, tid, s)["away"]
    others = [p for p in peers if p is not main]
    while to_act([*others, twin]) is not twin:
        await step([*others, twin], rng)
    await step([*others, twin], rng, via=twin)
    await twin.close()
    await wait_until(lambda: seat_info(h, tid, s)["away"], 10, f"seat {s} away once both sockets closed", DB_POLL)
    await main.connect(h.ws(tid))
    await wait_until(lambda: main.first_state() is not None, 10, "the state")
    assert not seat_info(h, tid, s)["away"]

    # A double submit: the same id twice at once gives one event and two acks with the same v.
    v0 = await settle(peers)
    actor = to_act(peers)
    action = rng.choice(actor.legal())
    since = len(actor.frames)
    await actor.act(action, id="double", v=v0)
    await actor.act(action, id="double", v=v0)
    await wait_until(lambda: sum(f["t"] == "ack" and f["id"] == "double" for f in actor.frames[since:]) == 2,
                     10, "two acks")
    acks = [f for f in actor.frames[since:] if f["t"] in ("ack", "err") and f.get("id") == "double"]
    assert acks == [{"t": "ack", "id": "double", "v": v0 + 1}] * 2, acks
    await settle(peers, v0 + 1)
    row = h.load(tid)
    assert len(row.events) == v0 + 1 and [e.client_id for e in row.events].count("double") == 1

    # The same id from two sockets of one seat at once: one event, both acked with its v.
    actor = to_act(peers)
    s = actor.seat
    assert s is not None
    twin = await Peer(s, tokens[s], rng, tag=f"twin{s}b").connect(h.ws(tid))
    seen.append(twin)
    await wait_until(lambda: twin.first_state() is not None, 10, "the twin's state")
    v0 = await settle([*peers, twin])
    action = rng.choice(actor.legal())
    await asyncio.gather(actor.act(action, id="both", v=v0), twin.act(action, id="both", v=v0))
    await wait_until(lambda: "both" in actor.acked and "both" in twin.acked, 10, "both acks")
    assert actor.acked["both"] == twin.acked["both"] == v0 + 1
    # Two different ids on one version from two sockets of the seat: one wins, one is refused.
    await settle([*peers, twin], v0 + 1)
    while to_act(peers).seat != s:
        await step([*peers, twin], rng)
    v1 = await settle([*peers, twin])
    actor = to_act(peers)
    legal = actor.legal()
    a1, a2 = rng.choice(legal), rng.choice(legal)
    since1, since2 = len(actor.frames), len(twin.frames)
    await asyncio.gather(actor.act(a1, id="race-a", v=v1), twin.act(a2, id="race-b", v=v1))
    answers = [await actor.answer("race-a", since1), await twin.answer("race-b", since2)]
    assert sorted(f["t"] for f in answers) == ["ack", "err"], answers
    loser, answer = (twin, answers[1]) if answers[0]["t"] == "ack" else (actor, answers[0])
    assert answer["code"] in ("stale", "not_your_turn"), answer
    loser.refused[answer["id"]] = answer["code"]
    await settle([*peers, twin], v1 + 1)
    await twin.close()
    assert len(h.load(tid).events) == v1 + 1

    # An action resent after a reconnect with its id returns its original ack, although the
    # table has moved on since.
    p, rid, rv = first[0]
    await p.close()
    await p.connect(h.ws(tid))
    await wait_until(lambda: p.first_state() is not None, 10, "the state")
    since = len(p.frames)
    await p.act(p.sent[rid][0], id=rid, v=p.sent[rid][1])
    assert await p.answer(rid, since) == {"t": "ack", "id": rid, "v": rv}
    check_log(h.load(tid), seen, settled=seen)

    # And after kill -9 and a restart: the same answers, and a full state for any hello. The kill
    # comes the moment an action is committed: its ack is taken as lost, and its resend after the
    # restart must get the ack of the committed event.
    v0 = await settle(peers)
    lost = to_act(peers)
    await lost.act(rng.choice(lost.legal()), id="lost", v=v0)

    def committed() -> bool:
        return any(e.client_id == "lost" for e in h.load(tid).events)

    await wait_until(committed, 10, "the commit")
    h.kill()
    await wait_until(lambda: not any(q.alive for q in peers), 10, "the clients to see the kill")
    lost.acked.pop("lost", None)
    h.start()
    top = len(h.load(tid).events)
    for q in peers:
        await q.connect(h.ws(tid), v=rng.choice([0, top, 10**6, None]))
    await wait_until(lambda: all(q.first_state() is not None for q in peers), 10, "states after the restart")
    row = h.load(tid)
    for q in peers:
        frame = q.first_state()
        assert frame is not None and frame["v"] == top
        check_state(row, q.seat, frame)
    winner = "race-b" if "race-b" in twin.acked else "race-a"
    for q, sender, i in [(p, p, rid), (peers[s], peers[s], "both"), (peers[s], twin, "race-b"),
                         (peers[s], peers[s], "race-a")]:
        if i != winner and i.startswith("race"):
            continue
        # any socket of the seat may resend: the id is the seat's
        since = len(q.frames)
        await q.act(sender.sent[i][0], id=i, v=sender.sent[i][1])
        assert await q.answer(i, since) == {"t": "ack", "id": i, "v": sender.acked[i]}
    since = len(lost.frames)
    await lost.act(lost.sent["lost"][0], id="lost", v=v0)
    assert await lost.answer("lost", since) == {"t": "ack", "id": "lost", "v": v0 + 1}
    dbl = next(q for q in peers if "double" in q.acked)
    since = len(dbl.frames)
    await dbl.act(dbl.sent["double"][0], id="double", v=dbl.sent["double"][1])
    assert await dbl.answer("double", since) == {"t": "ack", "id": "double", "v": dbl.acked["double"]}
    assert len(h.load(tid).events) == top
    check_log(h.load(tid), seen, settled=seen)
    check_no_errors(seen)
    for q in peers:
        await q.close()


@pytest.mark.parametrize("db", DATABASES)
def test_reconnect_edge_cases(harness: Any, db: str) -> None:
    """hello with v=0, stale, current, ahead and absent; leaving and coming back; two sockets on
    a seat; double submits from one socket and from two; a resend after a reconnect and after a
    restart returns the original ack."""
    h = harness(db, *QUIET)
    asyncio.run(edge_cases(h, f"edges/{db}"))
    h.assert_clean_log()



class StandInStalled(Exception):
    """The computer player standing in for an away player never acted."""


class First(random.Random):
    """Always the first choice: a player whose moves can be foreseen."""

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]


async def bot_id_collision(h: Harness, seed: str) -> None:
    # Me at seat 0, my partner at seat 2 (who always plays the first legal action), computer
    # players (the deterministic heuristic player) at seats 1 and 3: the future can be foreseen.
    created = h.api("POST", "/api/tables", json={"mode": "friends", "level": "hard", "name": "Me"}).json()
    tid = created["id"]
    me = Peer(0, created["token"], random.Random(seed))
    partner = Peer(2, created["links"][1]["token"], First())
    for p in (me, partner):
        await p.connect(h.ws(tid), v=None)
        await wait_until(lambda p=p: p.state is not None, 10, "the first state")
    assert h.api("POST", f"/api/tables/{tid}/start", token=created["token"]).status_code == 200
    partner.play()
    bots = {s: level_bot("hard") for s in (1, 3)}
    await wait_until(lambda: bool(me.legal()) and me.v == len(h.load(tid).events), 10, "my turn", DB_POLL)
    u = me.v
    action = me.legal()[0]
    game = replay(h.load(tid))
    assert game is not None
    game.push(action)
    n = 0
    predicted = []
    while game.to_act != 0:
        s = game.to_act
        if s != 2 and game.can_claim():  # a computer player claims the rest when it can (one event)
            predicted.append(("claim", s, game.claim()))
        else:
            predicted.append(("act", s))
            game.push(view_to_dict(game.view(2))["legal"][0] if s == 2 else bots[s].choose(game.view(s)))
        n += 1
    # After my action (event u + 1) I am next to act at version w. I leave at once: after the
    # away timeout a stand-in takes my seat (event w + 1) and acts with the server's own id
    # "bot:{w + 1}", which my action already carries.
    w = u + 1 + n
    mine = f"bot:{w + 1}"
    await me.act(action, id=mine, v=u)
    await wait_until(lambda: mine in me.acked, 10, "the ack")
    assert me.acked[mine] == u + 1
    await me.close()

    def stood_in() -> bool:
        return len(h.load(tid).events) > w

    await wait_until(stood_in, 10, "the stand-in", DB_POLL)
    row = h.load(tid)
    kinds = [e.kind for e in row.events[u:w + 1]]
    expected = ["action"] * (w - u) + ["bot_in"]
    assert [k if k != "claim" else "action" for k in kinds] == expected, (kinds, predicted)
    assert row.events[u].client_id == mine and row.events[w].seat == 0

    def played() -> bool:
        return len(h.load(tid).events) > w + 1

    try:
        await wait_until(played, 1.5, "the stand-in's action", DB_POLL)
    except AssertionError:
        raise StandInStalled(f"seat 0's stand-in never acts at version {w + 1}: the server answers its "
                             f"{mine!r} with the ack of event {u + 1}") from None
    row = h.load(tid)
    assert row.events[w + 1].kind == "action" and row.events[w + 1].seat == 0
    partner.autoplay = False
    await partner.close()


@pytest.mark.parametrize("db", DATABASES)
def test_stand_in_is_not_deduplicated_against_the_players_ids(harness: Any, db: str) -> None:
    """A player's action ids are theirs: any id (here ``bot:N``) must not stop the computer player
    that stands in for them once they are away from acting."""
    h = harness(db, "--bot-delay", "0", "--away-timeout", "0.5")
    asyncio.run(bot_id_collision(h, f"collision/{db}"))
    h.assert_clean_log()


# --- 3. finished and waiting tables across a kill ------------------------------------------------
async def finished_and_waiting(h: Harness, seed: str) -> None:
    created = h.api("POST", "/api/tables", json={"mode": "bots", "level": "medium", "name": "Done"}).json()
    done = created["id"]
    me = await Peer(0, created["token"], random.Random(f"{seed}/0")).connect(h.ws(done), v=None)
    me.play()
    await wait_until(lambda: me.over, 60, "the end of the first game")
    me.autoplay = False
    game = check_final(h, done, [me])
    waiting = h.api("POST", "/api/tables", json={"mode": "friends", "level": "medium", "name": "Host"}).json()
    wid = waiting["id"]
    tokens = [waiting["token"]] + [link["token"] for link in waiting["links"]]
    host = Peer(0, tokens[0], random.Random(f"{seed}/w0"), name="Host")
    two = Peer(2, tokens[2], random.Random(f"{seed}/w2"), name="Two")
    for p in (host, two):
        await p.connect(h.ws(wid), v=None)
        await wait_until(lambda p=p: p.state is not None, 10, "the first state")
    before = {
        "info": h.api("GET", f"/api/tables/{done}").json(),
        "record": h.api("GET", f"/api/tables/{done}/record").text,
        "games": h.api("GET", "/api/games").json(),
        "stats": h.api("GET", "/api/stats").json(),
        "waiting": h.api("GET", f"/api/tables/{wid}").json(),
    }
    assert before["waiting"]["status"] == "waiting"
    assert [s["kind"] for s in before["waiting"]["seats"]] == ["human", "open", "human", "open"]

    h.kill()
    await wait_until(lambda: not me.alive and not host.alive and not two.alive, 10, "the clients to see the kill")
    h.start()

    after_info = h.api("GET", f"/api/tables/{done}").json()
    assert after_info == before["info"] | {"seats": after_info["seats"]}
    assert [(s["name"], s["kind"]) for s in after_info["seats"]] == [
        (s["name"], s["kind"]) for s in before["info"]["seats"]]
    assert after_info["status"] == "over" and after_info["scores"] == list(game.scores)
    assert h.api("GET", f"/api/tables/{done}/record").text == before["record"]
    assert h.api("GET", "/api/games").json() == before["games"]
    assert h.api("GET", "/api/stats").json() == before["stats"]
    # The finished table's player comes back: the final state; acting is refused; a resend still
    # returns its original ack.
    await me.connect(h.ws(done))
    await wait_until(lambda: me.first_state() is not None, 10, "the final state")
    row = h.load(done)
    frame = me.first_state()
    assert frame is not None and frame["v"] == len(row.events) and frame["d"]["status"] == "over"
    check_state(row, 0, frame)
    since = len(me.frames)
    await me.act("pass", id="late")
    assert (await me.answer("late", since))["code"] == "over"
    me.refused["late"] = "over"
    last = max(me.acked, key=me.acked.__getitem__)
    since = len(me.frames)
    await me.act(me.sent[last][0], id=last, v=me.sent[last][1])
    assert await me.answer(last, since) == {"t": "ack", "id": last, "v": me.acked[last]}
    check_no_errors([me])
    await me.close()

    # The waiting table is still waiting, with its seats; a third friend joins; only the host
    # can start it; the empty seat gets a computer player and the game is played to its end.
    info = h.api("GET", f"/api/tables/{wid}").json()
    assert info == before["waiting"] | {"seats": info["seats"]}
    assert [(s["name"], s["kind"]) for s in info["seats"]] == [
        ("Host", "human"), ("Player 2", "open"), ("Two", "human"), ("Player 4", "open")]
    one = Peer(1, tokens[1], random.Random(f"{seed}/w1"), name="One")
    players = [host, one, two]
    for p in players:
        await p.connect(h.ws(wid))
        await wait_until(lambda p=p: p.state is not None and p.state["status"] == "waiting", 10, "the state")
    assert h.api("POST", f"/api/tables/{wid}/start", token=tokens[2]).status_code == 403
    r = h.api("POST", f"/api/tables/{wid}/start", token=tokens[0])
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    seats = h.api("GET", f"/api/tables/{wid}").json()["seats"]
    assert [(s["name"], s["kind"]) for s in seats][:3] == [("Host", "human"), ("One", "human"), ("Two", "human")]
    assert seats[3]["kind"] == "bot" and seats[3]["name"] in CAST["medium"]
    for p in players:
        p.play()
    await wait_until(lambda: all(p.over for p in players), 60, "the end of the second game")
    check_no_errors(players)
    final = check_final(h, wid, players)
    assert any(e.kind == "action" and e.seat == 3 for e in h.load(wid).events)
    assert [g["id"] for g in h.api("GET", "/api/games").json()["games"]][:2] == [wid, done]
    assert final.is_over
    for p in players:
        await p.close()


@pytest.mark.parametrize("db", DATABASES)
def test_finished_and_waiting_tables_survive_a_kill(harness: Any, db: str) -> None:
    """A finished table stays finished (status, record, games, stats); a waiting table keeps its
    seats and can be joined and started after the restart."""
    h = harness(db, *QUIET)
    asyncio.run(finished_and_waiting(h, f"finished/{db}"))
    h.assert_clean_log()
