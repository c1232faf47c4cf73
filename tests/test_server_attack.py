"""The server under attack and under faults: a database that refuses a commit at each step,
damaged rows, and clients that misbehave on purpose (nested, oversized, slow, silent, non-reading,
flooding, forging Host and Origin, asking for hints without end).

Each test names the failure it guards against. Nothing may be lost or stuck, every refusal is a
precise answer, and one bad table or client never harms the others. The database faults are
injected by :class:`Faults` (``Store.run`` refusing every transaction that holds a chosen kind of
write, exactly as a locked, full or vanished database refuses it), in a server run in this
process.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import DATABASES, Client, Live, fresh_database, running_server, serve
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from euchre.rules import Rules
from euchre.server import core, guard
from euchre.server.db import DatabaseInUse, Store, _InsertEvent, token_hash


def run(coro: Awaitable[Any], timeout: float = 60.0) -> Any:
    async def main() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


# --- database faults -------------------------------------------------------------------------------------
def op_kinds(op: Any) -> set[str]:
    """What one write does: ``event:<kind>`` for an event, else its ``Store.op_*`` name."""
    if isinstance(op, _InsertEvent):
        return {"event", f"event:{op.row['kind']}"}
    qual = getattr(op, "__qualname__", "")
    return {qual.split(".")[1].removeprefix("op_")} if qual.startswith("Store.op_") else set()


class Faults:
    """A database that refuses some writes (or every read too) until healed."""

    def __init__(self) -> None:
        self.down: set[str] = set()
        """Kinds of write refused (see :func:`op_kinds`); ``"*"`` refuses every transaction."""
        self.reads = False
        """Every read fails too (the database server is gone)."""
        self.refused: list[set[str]] = []
        self.lost: set[str] = set()
        """Kinds of write committed, then reported as failed, once each (a connection lost during
        COMMIT): the database holds them, the server is told they failed."""
        self.lost_down: set[str] = set()
        """Kinds of write refused (as :attr:`down`) from the moment a lost commit is injected: the
        database went with the connection, so the writer's retry of that commit is refused too."""

    def check(self, ops: list[Any]) -> None:
        kinds = set().union(*(op_kinds(op) for op in ops)) if ops else set()
        if "*" in self.down or kinds & self.down:
            self.refused.append(kinds)
            raise OperationalError("INSERT ...", None, Exception("database or disk is full (injected)"))

    def heal(self) -> None:
        self.down.clear()
        self.lost_down.clear()
        self.reads = False


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Faults:
    f = Faults()
    real_run = Store.run

    def run_(self: Store, ops: Any) -> None:
        ops = list(ops)
        f.check(ops)
        real_run(self, ops)
        lost = f.lost & set().union(*(op_kinds(op) for op in ops)) if ops else set()
        if lost:
            f.lost -= lost
            f.down |= f.lost_down
            raise OperationalError("COMMIT", None, Exception("connection lost during COMMIT (injected, after it)"))

    def failing_read(name: str) -> Any:
        real = getattr(Store, name)

        def read(self: Store, *args: Any, **kwargs: Any) -> Any:
            if f.reads:
                raise OperationalError("SELECT ...", None, Exception("server closed the connection (injected)"))
            return real(self, *args, **kwargs)
        return read

    monkeypatch.setattr(Store, "run", run_)
    for name in ("load_table", "games", "stats", "record", "recent_chat", "chat_count", "last_seq", "chat_stored",
                 "table_stored"):
        monkeypatch.setattr(Store, name, failing_read(name))
    return f


@contextmanager
def live(db: str, tmp_path: Path, **config: Any) -> Iterator[Live]:
    with serve(fresh_database(db, tmp_path), **{"away_timeout": 0.3, **config}) as srv:
        yield srv


def tokens_of(created: dict[str, Any]) -> list[str]:
    return [created["token"]] + [link["token"] for link in created["links"]]


async def hello(srv: Live, table_id: str, token: str | None, **kw: Any) -> Client:
    c = await Client.connect(srv.ws(table_id), token, **kw)
    return c


async def ping(c: Client, timeout: float = 5.0) -> float:
    """Round trip of a ping, in seconds."""
    t = time.monotonic()
    await c.send({"t": "ping"})
    await c.until("pong", timeout=timeout)
    return time.monotonic() - t


async def play_until_over(c: Client, rng: random.Random, timeout: float = 60.0, pause: float = 0.0) -> None:
    """Seat ``c`` takes a random legal action whenever it is to act (once per version it sees,
    after ``pause`` seconds), until the game is over."""
    deadline = time.monotonic() + timeout
    n = 0
    acted = -1
    while True:
        while c.state is None:
            await c.recv(max(0.01, deadline - time.monotonic()))
        if c.state["status"] == "over":
            return
        view = c.state["view"]
        if view is not None and view["legal"] and c.v > acted:
            if pause:
                await asyncio.sleep(pause)
            n += 1
            acted = c.v
            await c.send({"t": "act", "id": f"a{n}", "action": rng.choice(view["legal"]), "v": c.v})
            while True:
                f = await c.recv(max(0.01, deadline - time.monotonic()))
                if f["t"] == "ack" and f["id"] == f"a{n}":
                    break
                if f["t"] == "err" and f.get("id") in (f"a{n}", None):
                    acted = -1  # refused (the database, the rate): try again at this version
                    await asyncio.sleep(0.2)
                    break
        else:
            await c.recv(max(0.01, deadline - time.monotonic()))


def finished_game(srv: Live, seed: int) -> dict[str, Any]:
    """A friends table its host started and played to the end alone (computer players in the
    other seats): the created table's data."""
    d = srv.create(mode="friends", name="Host")
    assert srv.start(d["id"], d["token"]).status_code == 200

    async def finish() -> None:
        host = await hello(srv, d["id"], d["token"])
        await play_until_over(host, random.Random(seed))

    run(finish(), timeout=120)
    return d


def table_count(srv: Live) -> int:
    store = srv.store()
    try:
        return int(store.table_count())
    finally:
        store.close()


def seats(srv: Live, table_id: str) -> list[dict[str, Any]]:
    return list(srv.info(table_id)["seats"])


# 1. A failed seat write leaves no ghost.
@pytest.mark.parametrize("db", DATABASES)
def test_a_refused_seat_write_leaves_no_ghost_and_the_game_goes_on(db: str, tmp_path: Path, faults: Faults) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)

        async def scenario() -> None:
            host = await hello(srv, table_id, tokens[0])
            await host.until("state")
            faults.down = {"seat"}
            guest = await hello(srv, table_id, tokens[1], name="Guest")
            f = await guest.until("err")
            assert f["code"] == "unavailable" and "seat" in f["message"]
            assert await ping(guest) < 5  # the connection stays open, and says hello again later
            assert not any(json.loads(x)["t"] == "welcome" for x in guest.frames)
            info = seats(srv, table_id)[1]
            assert (info["kind"], info["present"], info["name"]) == ("open", False, "Player 2")
            store = srv.store()
            assert store.load_table(table_id).seats[1].kind == "open"  # type: ignore[union-attr]
            store.close()
            faults.heal()
            await guest.send({"t": "hello", "token": tokens[1], "name": "Guest"})
            await guest.until("welcome")
            info = seats(srv, table_id)[1]
            assert (info["kind"], info["present"], info["name"]) == ("human", True, "Guest")
            # The game starts and the guest plays its turns: nothing is stuck.
            assert srv.start(table_id, tokens[0]).status_code == 200
            await asyncio.gather(play_until_over(host, random.Random(1)), play_until_over(guest, random.Random(2)))

        run(scenario(), timeout=120)
        assert srv.info(table_id)["status"] == "over"


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_refused_start_leaves_the_table_waiting(db: str, tmp_path: Path, faults: Faults) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)
        faults.down = {"event:start"}
        r = srv.start(table_id, tokens[0])
        assert r.status_code == 503 and r.json()["error"] == "unavailable"
        info = srv.info(table_id)
        assert info["status"] == "waiting"
        assert [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
        assert [s["name"] for s in info["seats"]][1:] == ["Player 2", "Player 3", "Player 4"]
        faults.heal()
        assert srv.start(table_id, tokens[0]).status_code == 200
        assert [s["kind"] for s in srv.info(table_id)["seats"]] == ["human", "bot", "bot", "bot"]


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_commit_made_but_reported_failed_is_found_and_the_table_reloaded(db: str, tmp_path: Path,
                                                                           faults: Faults) -> None:
    """The database took an action but the server heard a failure (a connection lost during
    COMMIT), and refused it. The table is not wedged: the next change finds the stored version
    ahead, the table is reloaded from the database (its clients told, then closed), the client
    resending the action with the same id gets its acknowledgement, and play goes on, memory and
    database agreeing."""
    with live(db, tmp_path, away_timeout=0) as srv:
        d = srv.create(mode="bots", name="Host")

        async def scenario() -> None:
            c = await hello(srv, d["id"], d["token"])
            while not (c.state and c.state["view"] and c.state["view"]["legal"] and c.v == srv.version(d["id"])):
                await c.recv(10)
            v = c.v
            legal = c.state["view"]["legal"]
            faults.lost = {"event:action"}
            await c.send({"t": "act", "id": "X1", "action": legal[0], "v": v})
            f = await c.until("err")
            assert f["code"] == "unavailable" and f["id"] == "X1"
            assert not faults.lost  # the commit was made
            store = srv.store()
            assert store.last_seq(d["id"]) == v + 1
            store.close()
            # found at once (nobody needs to act): the table is reloaded, and this socket closed
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await c.recv(10)
            assert srv.version(d["id"]) >= v + 1
            # the client's resend after the reconnect: acknowledged, as the one stored action
            c2 = await hello(srv, d["id"], d["token"])
            await c2.send({"t": "act", "id": "X1", "action": legal[0], "v": v})
            ack = await c2.until("ack")
            assert ack["id"] == "X1" and ack["v"] == v + 1
            await play_until_over(c2, random.Random(4), timeout=90)

        run(scenario(), timeout=150)
        store = srv.store()
        row = store.load_table(d["id"])
        store.close()
        assert row.status == "over" and len(row.events) == srv.version(d["id"])
        assert sum(1 for e in row.events if e.client_id == "X1") == 1


async def next_answer(c: Client, *types: str, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Every frame up to the first of one of ``types`` (that one last)."""
    frames = []
    while not frames or frames[-1]["t"] not in types:
        frames.append(await c.recv(timeout))
    return frames


def said(frames: list[dict[str, Any]]) -> list[str]:
    """The chat lines among ``frames``, in order."""
    return [m["text"] for f in frames if f["t"] == "chat" for m in f["d"]]


@pytest.mark.parametrize("db", DATABASES)
@pytest.mark.parametrize("after", ["retried", "checked", "resent"])
def test_a_chat_line_committed_but_reported_failed_is_kept_and_shown_once(db: str, after: str, tmp_path: Path,
                                                                          faults: Faults) -> None:
    """The database took a chat line but the server heard a failure (a connection lost during
    COMMIT). ``retried``: the writer runs the commit again, which finds the line and adds
    nothing. ``checked``: that retry is refused too (the database went with the connection), and
    the server looks: the line is there, so it is shown and the sender not refused. ``resent``:
    the look fails too, so the sender is refused and sends the line again, as told: the same
    line. Each way the line is stored once and everyone is shown it once."""
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)

        async def scenario() -> None:
            host = await hello(srv, table_id, tokens[0])
            guest = await hello(srv, table_id, tokens[1], name="Guest")
            await guest.until("state")
            await host.send({"t": "chat", "text": "first"})  # (the table reads how many lines it holds)
            for c in (host, guest):
                assert said(await next_answer(c, "chat")) == ["first"]
            faults.lost = {"chat"}
            if after != "retried":
                faults.lost_down = {"chat"}
            if after == "resent":
                faults.reads = True
            await host.send({"t": "chat", "text": "hello"})
            if after == "resent":
                f = (await next_answer(host, "chat", "err"))[-1]
                assert f["t"] == "err" and f["code"] == "unavailable", f
                assert "will not be shown twice" in f["message"]
                faults.heal()
                await host.send({"t": "chat", "text": "hello"})
            for c in (host, guest):
                frames = await next_answer(c, "chat", "err")
                assert frames[-1]["t"] == "chat" and said(frames) == ["hello"], frames
            assert not faults.lost  # the commit was made
            faults.heal()
            await asyncio.sleep(1.1)  # (one line a second after a burst of three)
            await host.send({"t": "chat", "text": "bye"})
            for c in (host, guest):
                frames = await next_answer(c, "chat", "err")
                assert said(frames) == ["bye"] and not any(f["t"] == "err" for f in frames), frames
            late = await hello(srv, table_id, None)  # the history a newcomer gets
            assert said(await next_answer(late, "chat")) == ["first", "hello", "bye"]

        run(scenario())
        store = srv.store()
        with store.engine.connect() as conn:
            lines = [r[0] for r in conn.execute(text("SELECT text FROM chat WHERE table_id = :t ORDER BY id"),
                                                {"t": table_id})]
        store.close()
        assert lines == ["first", "hello", "bye"]


@pytest.mark.parametrize("db", DATABASES)
@pytest.mark.parametrize("mode", ["friends", "bots"])
@pytest.mark.parametrize("after", ["retried", "checked", "in doubt"])
def test_a_table_created_but_reported_failed_is_served_or_removed(db: str, mode: str, after: str, tmp_path: Path,
                                                                  faults: Faults) -> None:
    """The database took a new table but the server heard a failure (a connection lost during
    COMMIT), so nobody would get its links: a table waiting (or a game against computer players
    stuck at its player's turn) that nobody can ever reach. ``retried``: the writer runs the
    commit again, which finds the table and adds nothing; ``checked``: that retry is refused too,
    and the server looks: either way the table is there, and the creator gets it. ``in doubt``:
    the look fails too, so the creator is refused, and the table is removed once the database
    answers: no orphan is left."""
    with live(db, tmp_path) as srv:
        faults.lost = {"create_table"}
        if after != "retried":
            faults.lost_down = {"*"}
        if after == "in doubt":
            faults.reads = True
        r = srv.post_table(mode=mode, name="Host")
        assert not faults.lost  # the commit was made
        if after == "in doubt":
            assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
            assert table_count(srv) == 1  # stored all the same: nobody has its links
            faults.heal()
            deadline = time.monotonic() + 20
            while table_count(srv):
                assert time.monotonic() < deadline, "the table nobody has the links of is still there"
                time.sleep(0.1)
            assert srv.post_table(mode=mode, name="Host").status_code == 201
            assert table_count(srv) == 1
            return
        assert r.status_code == 201, r.text
        faults.heal()
        d = r.json()
        assert table_count(srv) == 1
        assert srv.info(d["id"])["status"] == ("waiting" if mode == "friends" else "playing")

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            assert (await host.until("welcome"))["d"]["seat"] == 0
            if mode == "friends":
                guest = await hello(srv, d["id"], d["links"][0]["token"], name="Guest")
                assert (await guest.until("welcome"))["d"]["seat"] == 1
                assert srv.start(d["id"], d["token"]).status_code == 200
                while not (host.state and host.state["status"] == "playing"):
                    await host.recv(10)
                return
            while not (host.state and host.state["view"] and host.state["view"]["legal"]):
                await host.recv(10)  # the computer players play up to the host's turn

        run(scenario())
        row = srv.stored_row(d["id"])
        assert [e.kind for e in row.events][:1] == ["start"] and row.events[0].seq == 1


@pytest.mark.parametrize("db", DATABASES)
def test_chat_rows_from_before_line_ids_are_kept(db: str, tmp_path: Path) -> None:
    """Migration 0004 gives chat lines ids: a database at 0003 holding chat lines (two alike, as a
    resend used to store) upgrades in place, its lines kept and shown, and new lines go on."""
    from alembic import command
    from alembic.config import Config

    from euchre.server import db as db_module

    url = fresh_database(db, tmp_path)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db_module.__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url)
    command.upgrade(cfg, "0003")
    old = Store(url, migrate=False)
    with old.engine.begin() as conn:
        conn.execute(text("INSERT INTO tables (id, created_at, rules, seed, dealer, level, mode, status) VALUES "
                          "('old', :at, :rules, 7, 0, 'easy', 'friends', 'waiting')"),
                     {"at": "2026-11-30 10:00:00", "rules": json.dumps(Rules.preset("american").to_dict())})
        for seat in range(4):
            conn.execute(text("INSERT INTO seats (table_id, seat, name, kind, token_hash, host) VALUES "
                              "('old', :s, :n, :k, :h, :host)"),
                         {"s": seat, "n": f"P{seat}", "k": "human" if seat == 0 else "open",
                          "h": token_hash(f"token{seat}"), "host": seat == 0})
        for line in ("hi", "hi"):
            conn.execute(text("INSERT INTO chat (table_id, seat, name, text, at) VALUES "
                              "('old', 0, 'P0', :t, :at)"), {"t": line, "at": "2026-11-30 10:01:00"})
    old.close()
    with serve(url, away_timeout=0) as srv:  # (the server migrates to the newest revision)
        async def scenario() -> None:
            host = await hello(srv, "old", "token0")
            assert said(await next_answer(host, "chat")) == ["hi", "hi"]
            await host.send({"t": "chat", "text": "and now"})
            assert said(await next_answer(host, "chat")) == ["and now"]

        run(scenario())
        store = srv.store()
        with store.engine.connect() as conn:
            rows = [tuple(r) for r in conn.execute(text("SELECT text, line_id IS NULL FROM chat ORDER BY id"))]
        store.close()
        assert rows == [("hi", True), ("hi", True), ("and now", False)]


@pytest.mark.parametrize("db", ["sqlite"])
def test_refused_actions_chat_and_finish_change_nothing(db: str, tmp_path: Path, faults: Faults) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)
        assert srv.start(table_id, tokens[0]).status_code == 200

        async def scenario() -> None:
            host = await hello(srv, table_id, tokens[0])
            await host.until("state")
            faults.down = {"chat"}
            await host.send({"t": "chat", "text": "hello"})
            assert (await host.until("err"))["code"] == "unavailable"
            faults.heal()
            await host.send({"t": "chat", "text": "hello again"})
            assert (await host.until("chat"))["d"][0]["text"] == "hello again"
            # Every action and the game's end refused for a while: the table waits, then goes on.
            rng = random.Random(3)
            faults.refused.clear()
            faults.down = {"finish"}
            task = asyncio.ensure_future(play_until_over(host, rng, timeout=90))
            deadline = time.monotonic() + 60
            while not faults.refused and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert faults.refused, "the game never reached its end"
            v = srv.version(table_id)
            await asyncio.sleep(0.5)
            assert srv.version(table_id) == v and srv.info(table_id)["status"] == "playing"
            faults.heal()
            await task

        run(scenario(), timeout=150)
        assert srv.info(table_id)["status"] == "over"
        assert srv.http.get(f"/api/tables/{table_id}/record").status_code == 200


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_refused_stand_in_is_tried_again(db: str, tmp_path: Path, faults: Faults,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "BOT_RETRY_MAX", 0.4)
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)

        async def scenario() -> None:
            host = await hello(srv, table_id, tokens[0])
            guest = await hello(srv, table_id, tokens[1])
            await guest.until("state")
            assert srv.start(table_id, tokens[0]).status_code == 200
            faults.down = {"event:bot_in"}
            await guest.close()
            deadline = time.monotonic() + 10
            while not faults.refused and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert faults.refused
            assert not seats(srv, table_id)[1]["bot"]
            faults.heal()
            while not seats(srv, table_id)[1]["bot"]:
                assert time.monotonic() < deadline + 5, "no stand-in came after the database healed"
                await asyncio.sleep(0.05)
            await host.close()

        run(scenario())


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_hint_whose_note_is_refused_is_not_given(db: str, tmp_path: Path, faults: Faults) -> None:
    """A hint makes the game a practice game for its seat (docs/server.md, "Practice games"), noted
    before the hint is sent: a note the database refuses refuses the hint and marks nothing;
    asked again once the database takes it, the hint is given and noted."""
    with live(db, tmp_path) as srv:
        d = srv.create(mode="bots", name="Solo")

        async def scenario() -> None:
            c = await hello(srv, d["id"], d["token"])
            while not (c.state and c.state["view"] and c.state["view"]["legal"]):
                await c.recv(10)
            faults.down = {"hinted"}
            f = await _send_and_err(c, {"t": "hint"})
            assert f["code"] == "unavailable", f
            assert faults.refused and all(k == {"hinted"} for k in faults.refused)  # (the writer tries again)
            assert "hint" not in [json.loads(x)["t"] for x in c.frames]
            assert not srv.stored_row(d["id"]).seats[0].hinted
            faults.heal()
            await c.send({"t": "hint"})
            assert (await c.until("hint", timeout=60))["d"]
            assert [s.hinted for s in srv.stored_row(d["id"]).seats] == [True, False, False, False]
            await c.close()

        run(scenario(), timeout=150)


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_database_that_is_down_answers_503(db: str, tmp_path: Path, faults: Faults) -> None:
    with live(db, tmp_path, idle_unload=0) as srv:
        faults.down = {"*"}
        faults.reads = True
        r = srv.post_table(mode="friends")
        assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
        for path in ("/api/games", "/api/stats", "/api/tables/nosuchtable0"):
            r = srv.http.get(path)
            assert r.status_code == 503 and r.json()["error"] == "unavailable", (path, r.text)
        faults.heal()
        assert table_count(srv) == 0  # nothing half-made
        assert srv.post_table(mode="friends").status_code == 201
        assert srv.health()["failures"] >= 1


# 10. One corrupt row never stops the server.
@pytest.mark.parametrize("payload", ["not json", '{"a": 99999, "bots": [9]}', "[]"])
def test_a_damaged_table_is_set_aside_and_the_others_go_on(payload: str, tmp_path: Path) -> None:
    url = fresh_database("sqlite", tmp_path)
    with serve(url) as srv:
        bad = srv.create(mode="friends", name="Host")
        good = srv.create(mode="friends", name="Host")
        for d in (bad, good):
            assert srv.start(d["id"], d["token"]).status_code == 200
    store = Store(url, migrate=False)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE events SET payload = :p WHERE table_id = :t"), {"p": payload, "t": bad["id"]})
    store.close()
    with serve(url) as srv:
        health = srv.health()
        assert health["damaged"] == 1 and health["tables"] == 1
        r = srv.http.get(f"/api/tables/{bad['id']}")
        assert r.status_code == 500 and r.json()["error"] == "damaged", r.text
        assert srv.info(good["id"])["status"] == "playing"

        async def scenario() -> None:
            ws = await websockets.connect(srv.ws(bad["id"]))
            f = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert (f["t"], f["code"]) == ("err", "damaged")
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            c = await Client.connect(srv.ws(good["id"]), good["token"])
            await c.until("state")

        run(scenario())


ROW_DAMAGE = {
    "seat renumbered": "UPDATE seats SET seat = 9 WHERE table_id = :t AND seat = 3",
    "seat deleted": "DELETE FROM seats WHERE table_id = :t AND seat = 0",
    "seat of no kind": "UPDATE seats SET kind = 'robot' WHERE table_id = :t AND seat = 1",
    "unknown level": "UPDATE tables SET level = 'nosuch' WHERE id = :t",
    "unknown status": "UPDATE tables SET status = 'paused' WHERE id = :t",
    "seed out of range": "UPDATE tables SET seed = 9e999 WHERE id = :t",
    "bad date": "UPDATE tables SET created_at = '2024-13-45 99:00:00' WHERE id = :t",
    "finished, events missing": "UPDATE tables SET status = 'over' WHERE id = :t",
}


@pytest.mark.parametrize("lazily", [False, True], ids=["at-start", "when-asked"])
@pytest.mark.parametrize("damage", list(ROW_DAMAGE), ids=list(ROW_DAMAGE))
def test_a_damaged_row_of_any_kind_is_set_aside(damage: str, lazily: bool, tmp_path: Path) -> None:
    """A table whose rows this server could not have written (seats not numbered 0 to 3, an
    unknown seat kind, level or status, a seed that is no integer, a date that does not read, a
    finished table whose last events are gone) is set aside as damaged, whether it is replayed at
    the start or when someone asks for it; the server starts, and the other table plays on."""
    url = fresh_database("sqlite", tmp_path)
    with serve(url) as srv:
        bad = srv.create(mode="bots", name="Host")
        good = srv.create(mode="bots", name="Host")
    store = Store(url, migrate=False)
    with store.engine.begin() as conn:
        conn.execute(text(ROW_DAMAGE[damage]), {"t": bad["id"]})
        if lazily:  # long idle: not replayed at the start, only when its link is opened
            conn.execute(text("UPDATE events SET at = 0 WHERE table_id = :t"), {"t": bad["id"]})
            conn.execute(text("UPDATE tables SET created_at = '2001-01-01 00:00:00' WHERE id = :t AND "
                              "created_at NOT LIKE '2024-13%'"), {"t": bad["id"]})
    store.close()
    with serve(url, idle_unload=600) as srv:
        for _ in range(2):  # asked twice: still damaged, never half-loaded and served
            r = srv.http.get(f"/api/tables/{bad['id']}")
            assert r.status_code == 500 and r.json()["error"] == "damaged", r.text
        health = srv.health()
        assert health["damaged"] == 1, health
        assert srv.info(good["id"])["status"] == "playing"
        assert srv.http.get("/api/games").status_code == 200 and srv.http.get("/api/stats").status_code == 200

        async def scenario() -> None:
            c = await Client.connect(srv.ws(good["id"]), good["token"])
            await c.until("state")

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_one_server_a_database(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second server on a database another one serves would replay its tables once and then
    have every action refused (the first one numbers the events): it is refused at the start,
    and the database is free again once the first one stops."""
    from euchre.server.run import serve as run_serve

    url = fresh_database(db, tmp_path)
    with serve(url) as srv:
        d = srv.create(mode="bots", name="Host")
        second = Store(url, migrate=False)
        with pytest.raises(DatabaseInUse, match="another euchre server is using"):
            second.hold()
        second.close()
        assert run_serve(database_url=url, port=0, warm_up=False) == 1
        err = capsys.readouterr().err
        assert err.startswith("euchre: error: another euchre server is using") and err.count("\n") == 1, err
        assert srv.info(d["id"])["status"] == "playing"  # the first one is untouched
    again = Store(url, migrate=False)
    again.hold()  # free once the first one stopped
    again.close()


def test_health_says_when_nothing_is_being_kept(tmp_path: Path, faults: Faults) -> None:
    """/healthz answers 503 with ``ok`` false and why while commits fail (until one succeeds
    again), and when the SQLite file was removed under the running server, whose later commits
    are then refused instead of acknowledged into a file nobody will open again."""
    url = fresh_database("sqlite", tmp_path)
    with serve(url) as srv:
        assert srv.health()["ok"] is True
        faults.down = {"*"}
        assert srv.post_table(mode="friends").status_code == 503
        h = srv.health()
        assert h["ok"] is False and "last commit failed" in h["problem"]
        faults.heal()
        assert srv.post_table(mode="friends").status_code == 201
        assert srv.health()["ok"] is True
        (tmp_path / "euchre.sqlite3").unlink()
        r = srv.post_table(mode="friends")
        assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
        h = srv.health()
        assert h["ok"] is False and "was removed while the server ran" in h["problem"]


def test_a_finished_game_with_a_bad_date_still_lists(tmp_path: Path) -> None:
    """SQLite keeps dates as text: a finished game whose date does not read lists without it,
    instead of failing /api/games for every game."""
    url = fresh_database("sqlite", tmp_path)
    with serve(url) as srv:
        d = finished_game(srv, 3)
        store = Store(url, migrate=False)
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE tables SET finished_at = '2024-02-31 10:00:00' WHERE id = :t"), {"t": d["id"]})
        store.close()
        r = srv.http.get("/api/games")
        assert r.status_code == 200, r.text
        listed = next(g for g in r.json()["games"] if g["id"] == d["id"])
        assert listed["finished_at"] is None and listed["players"]


# 7. Nested JSON.
def test_deeply_nested_frames_and_bodies_are_malformed(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends")

        async def scenario() -> None:
            c = await hello(srv, d["id"], None)
            await c.until("welcome")
            await c.ws.send("[" * 1500 + "]" * 1500)
            f = await c.until("err")
            assert f["code"] == "malformed" and "nested" in f["message"]
            await ping(c)

        run(scenario())
        nested = "[" * 20000 + "]" * 20000
        r = srv.http.post("/api/tables", content=nested, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, r.text
        assert len(r.content) < 1000


# 8, 9. Integers out of range.
@pytest.mark.parametrize("query", ["offset=9223372036854775808", "offset=-1", "limit=100000", "offset=1e9"])
def test_listing_parameters_out_of_range_are_refused(query: str, tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        r = srv.http.get(f"/api/games?{query}")
        assert r.status_code == 422 and r.json()["error"] == "malformed", r.text


@pytest.mark.parametrize("rules", [{"make_points": 10**19}, {"target": 10**30}, {"march_points": -5},
                                   {"euchre_points": 2**63}, {"deals": 10**12}])
def test_rule_fields_out_of_range_are_refused(rules: dict[str, Any], tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        r = srv.post_table(mode="friends", rules=rules)
        assert r.status_code == 400 and r.json()["error"] == "bad_rules", r.text
        assert len(r.content) < 600
        assert table_count(srv) == 0


# 3. Large bodies.
def test_a_large_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        big = json.dumps({"mode": "friends", "rules": {f"k{i}": i for i in range(200_000)}})
        r = srv.http.post("/api/tables", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_big"
        assert len(r.content) < 300

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"mode": "friends", "name": "'
            for _ in range(100):
                yield b"x" * 1000
            yield b'"}'

        r = srv.http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        # Many keys under the cap: one short line, not one per key.
        many = {"mode": "friends", "rules": {f"bogus_{i}": 1 for i in range(65)}}
        r = srv.post_table(**many)
        assert r.status_code == 422 and len(r.content) < 500, r.text
        some = {"mode": "friends", "rules": {f"bogus_{i}_{'x' * 200}": 1 for i in range(60)}}
        r = srv.post_table(**some)
        assert r.status_code == 400 and len(r.json()["message"]) <= 300, r.text
        assert table_count(srv) == 0


def test_a_large_post_does_not_stall_other_clients(tmp_path: Path) -> None:
    """The attack of the issue, on a real ``euchre serve``: a 74 MB rules object of 4,000,000
    keys; meanwhile another client's pings keep coming back at once."""
    with running_server(fresh_database("sqlite", tmp_path), tmp_path) as server:
        with httpx.Client(base_url=server.base) as http:
            d = http.post("/api/tables", json={"mode": "friends"}).json()
        body = b'{"mode":"friends","rules":{' + b",".join(b'"k%d":%d' % (i, i) for i in range(4_000_000)) + b"}}"

        def post() -> httpx.Response | None:
            try:
                with httpx.Client(base_url=server.base, timeout=30) as http:
                    return http.post("/api/tables", content=body, headers={"content-type": "application/json"})
            except httpx.TransportError:
                return None  # the server answered and closed before the upload ended: refused too

        async def scenario() -> None:
            c = await Client.connect(f"{server.ws_base}/ws/{d['id']}", None)
            await c.until("welcome")
            posting = asyncio.ensure_future(asyncio.to_thread(post))
            worst = 0.0
            while not posting.done():
                worst = max(worst, await ping(c))
                await asyncio.sleep(0.15)  # under the frame rate (10 a second)
            r = await posting
            assert r is None or (r.status_code == 413 and len(r.content) < 300)
            assert worst < 1.0, worst

        run(scenario())


# 6. Slow and silent clients.
def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with live("sqlite", tmp_path, hello_timeout=0.5) as srv:
        d = srv.create(mode="friends")

        async def scenario() -> None:
            ws = await websockets.connect(srv.ws(d["id"]))
            t = time.monotonic()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert time.monotonic() - t < 3
            # One that says hello in time stays.
            c = await hello(srv, d["id"], None)
            await c.until("welcome")
            await asyncio.sleep(0.8)
            await ping(c)

        run(scenario())


def test_partial_headers_are_timed_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard.TimedHttp, "header_timeout", 0.5)
    with live("sqlite", tmp_path) as srv:
        port = int(srv.base.rsplit(":", 1)[1])
        socks = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        silent = socket.create_connection(("127.0.0.1", port))  # connects, never sends a byte
        socks.append(silent)
        assert srv.http.get("/healthz").status_code == 200
        t = time.monotonic()
        for s in socks:
            s.settimeout(5)
            assert s.recv(1024) == b""  # closed by the server
            s.close()
        assert time.monotonic() - t < 4


# 5. A client that never reads.
def test_a_client_that_never_reads_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard.TimedWebSockets, "send_timeout", 1.0)
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id = d["id"]
        assert srv.start(table_id, d["token"]).status_code == 200
        port = int(srv.base.rsplit(":", 1)[1])
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", port))
        raw.sendall(f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        frame = json.dumps({"t": "hello", "token": None}).encode()
        mask = b"\x00\x00\x00\x00"
        raw.sendall(bytes([0x81, 0x80 | len(frame)]) + mask + frame)  # a masked text frame; then never read

        async def scenario() -> None:
            host = await hello(srv, table_id, d["token"])
            rng = random.Random(5)
            dropped = asyncio.Event()

            def watch() -> None:
                raw.settimeout(None)
                time.sleep(0.5)
                while True:  # read only now, to see whether the server closed it
                    try:
                        chunk = raw.recv(1 << 20)
                    except OSError:
                        break
                    if not chunk:
                        break
                dropped.set()

            player = asyncio.ensure_future(play_until_over(host, rng, timeout=90))
            deadline = time.monotonic() + 60
            while not player.done() and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                if time.monotonic() > deadline - 55 and not dropped.is_set():
                    break
            threading.Thread(target=watch, daemon=True).start()
            await asyncio.wait_for(dropped.wait(), 60)
            await ping(host)
            player.cancel()

        run(scenario(), timeout=150)
        raw.close()


# 12. Refusals of every kind count towards the flood limit.
@pytest.mark.parametrize("frame", [b"{not json", json.dumps({"t": "hello", "token": "wrong-token"}).encode(),
                                   json.dumps({"t": "act", "id": "x", "action": "pass"}).encode()])
def test_a_flood_of_refused_frames_closes_the_connection(frame: bytes, tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends")

        async def scenario() -> None:
            ws = await websockets.connect(srv.ws(d["id"]))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(200):
                    await ws.send(frame.decode())
                    await asyncio.sleep(0.01)  # under the rate limit: each is refused for itself
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

        run(scenario())


# 13. DNS rebinding.
def test_a_forged_host_is_refused_on_a_loopback_server(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        port = int(srv.base.rsplit(":", 1)[1])
        d = srv.create(mode="friends")
        r = srv.http.get("/api/options", headers={"Host": f"evil.example:{port}"})
        assert r.status_code == 421 and r.json()["error"] == "wrong_host"
        r = srv.http.post("/api/tables", json={"mode": "friends"}, headers={"Host": f"evil.example:{port}"})
        assert r.status_code == 421
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
            assert srv.http.get("/api/options", headers={"Host": host}).status_code == 200, host

        async def scenario() -> None:
            with pytest.raises(websockets.InvalidStatus):
                await websockets.connect(srv.ws(d["id"]), origin=f"http://evil.example:{port}",  # type: ignore[arg-type]
                                         additional_headers={"Host": f"evil.example:{port}"})
            with pytest.raises(websockets.InvalidStatus):  # a right Host does not make a foreign origin right
                await websockets.connect(srv.ws(d["id"]), origin=f"http://evil.example:{port}")  # type: ignore[arg-type]
            ws = await websockets.connect(srv.ws(d["id"]), origin=f"http://localhost:{port}")  # type: ignore[arg-type]
            await ws.close()

        run(scenario())


# 14. Chat, names and headers.
def test_chat_is_for_seats_of_live_tables_and_bounded(tmp_path: Path) -> None:
    with live("sqlite", tmp_path, chat_limit=3) as srv:
        d = srv.create(mode="friends", name="Host")

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            await host.until("state")
            for n in range(3):
                await host.send({"t": "chat", "text": f"line {n}"})
                await host.until("chat")
                await asyncio.sleep(1.05)
            f = await asyncio.wait_for(_send_and_err(host, {"t": "chat", "text": "one more"}), 5)
            assert f["code"] == "chat_full"
            for name in ("spectator", "Spectator", "Hard bot 2", "easy BOT 3"):
                await host.send({"t": "hello", "token": None, "name": name})
            fresh = await hello(srv, d["id"], d["links"][0]["token"], name="Hard bot 2")
            f = await fresh.until("err")
            assert f["code"] == "bad_name"
            assert seats(srv, d["id"])[1]["name"] == "Player 2"

        run(scenario())
        r = srv.post_table(mode="friends", name="spectator")
        assert r.status_code == 400 and r.json()["error"] == "bad_name"


def test_names_that_mislead_the_table_are_refused(tmp_path: Path) -> None:
    """A friend named 'You' (the others' pages read "You and Vera made it" of them), a name that
    another seat has (a computer player's, after the start) are refused; a table's creator with
    no name is 'You' against computer players only."""
    with live("sqlite", tmp_path) as srv:
        r = srv.post_table(mode="friends", name="you")
        assert r.status_code == 400 and r.json()["error"] == "bad_name" and "'You'" in r.json()["message"]
        unnamed = srv.post_table(mode="friends", name="").json()
        assert seats(srv, unnamed["id"])[0]["name"] == "Player 1"
        d = srv.create(mode="friends", name="Host")

        async def scenario() -> None:
            friend = await hello(srv, d["id"], d["links"][0]["token"], name="You")
            assert (await friend.until("err"))["code"] == "bad_name"
            friend = await hello(srv, d["id"], d["links"][0]["token"], name="host")
            f = await friend.until("err")
            assert f["code"] == "bad_name" and "taken at this table" in f["message"]
            assert seats(srv, d["id"])[1]["name"] == "Player 2"

        run(scenario())


async def _send_and_err(c: Client, frame: dict[str, Any]) -> dict[str, Any]:
    await c.send(frame)
    return await c.until("err")


def test_chat_at_a_finished_table_is_closed(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        assert srv.start(d["id"], d["token"]).status_code == 200

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            await play_until_over(host, random.Random(7))
            f = await _send_and_err(host, {"t": "chat", "text": "gg"})
            assert (f["code"], f["message"]) == ("over", "the game is over: its chat is closed")
            # and its names are as the record and the statistics have them
            again = await hello(srv, d["id"], d["token"], name="Renamed Later")
            await again.until("state")
            assert seats(srv, d["id"])[0]["name"] == "Host"

        run(scenario(), timeout=120)


def test_security_headers(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        for path in ("/", "/games", "/static/table.js", "/api/options", "/nope"):
            r = srv.http.get(path)
            assert r.headers["x-content-type-options"] == "nosniff", path
            assert r.headers["x-frame-options"] == "DENY", path
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        for path in ("/", "/games", "/stats", "/learn", "/replay", "/healthz"):  # (as monitors and link checkers ask)
            head = srv.http.head(path)
            assert head.status_code == 200 and head.content == b"", (path, head.status_code)
            assert head.headers["content-type"] == srv.http.get(path).headers["content-type"], path


# 2. Hints never starve the computer players, and are bounded.
def test_hints_run_beside_the_bots_and_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import euchre.hints

    release = threading.Event()
    started = threading.Event()
    real = euchre.hints.hint

    def slow_hint(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(euchre.hints, "hint", slow_hint)
    with live("sqlite", tmp_path, hint_queue=1) as srv:
        tables = [srv.create(mode="friends", name="Host") for _ in range(3)]
        for d in tables:
            assert srv.start(d["id"], d["token"]).status_code == 200

        async def my_turn(c: Client) -> None:
            while not (c.state and c.state["view"] and c.state["view"]["legal"]):
                await c.recv(10)

        async def scenario() -> None:
            hosts = [await hello(srv, d["id"], d["token"]) for d in tables]
            for h in hosts[:2]:
                await my_turn(h)
            await hosts[0].send({"t": "hint"})
            assert await asyncio.to_thread(started.wait, 10)
            # The one hint slot is taken: another table's hint is refused at once, as busy.
            f = await _send_and_err(hosts[1], {"t": "hint"})
            assert f["code"] == "busy"
            # The computer players of the third table play on while the hint is worked out.
            v = srv.version(tables[2]["id"])
            await play_until_over(hosts[2], random.Random(9), timeout=60)
            assert srv.version(tables[2]["id"]) > v + 20
            release.set()
            assert (await hosts[0].until("hint", timeout=30))["d"]

        run(scenario(), timeout=120)


def test_hints_per_address_are_limited(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        pass
    with serve(fresh_database("sqlite", tmp_path / "b"), limits=True, connect_limit=0, create_limit=0,
               hint_limit=1, hint_burst=1) as srv:
        d = srv.create(mode="friends", name="Host")
        assert srv.start(d["id"], d["token"]).status_code == 200

        async def my_turn(host: Client) -> None:
            while not (host.state and host.state["view"] and host.state["view"]["legal"]):
                await host.recv(10)

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            await my_turn(host)
            for _ in range(3):  # the first costs the one hint allowed; asking again is answered from the cache
                await host.send({"t": "hint"})
                await host.until("hint", timeout=30)
            v = host.v
            await host.send({"t": "act", "id": "a1", "action": host.state["view"]["legal"][0], "v": v})
            while host.v == v or not (host.state["view"] and host.state["view"]["legal"]):
                await host.recv(30)
            f = await _send_and_err(host, {"t": "hint"})  # a new position: a new hint, over the limit
            assert f["code"] == "rate" and "hints" in f["message"]

        run(scenario(), timeout=90)


# 4. Tables per client and in total.
def test_tables_per_client_and_in_total_are_bounded(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path), limits=True, connect_limit=0, create_limit=0,
               max_tables_per_client=3, max_tables=5) as srv:
        for _ in range(3):
            srv.create(mode="friends")
        r = srv.post_table(mode="friends")
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
        assert table_count(srv) == 3


@pytest.mark.parametrize("db", DATABASES)
def test_a_damaged_finished_game_does_not_break_the_list(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    with serve(url) as srv:
        games = []
        for seed in (11, 12):
            games.append(finished_game(srv, seed)["id"])
        store = Store(url, migrate=False)
        with store.engine.begin() as conn:
            bad = "'[1, 2'" if db == "sqlite" else "'[\"x\"]'"  # PostgreSQL's json type refuses bad JSON itself
            conn.execute(text(f"UPDATE tables SET scores = {bad} WHERE id = :t"), {"t": games[0]})
        store.close()
        r = srv.http.get("/api/games")
        assert r.status_code == 200, r.text
        listed = {g["id"]: g for g in r.json()["games"]}
        assert listed[games[0]]["scores"] is None and listed[games[0]]["players"]
        assert listed[games[1]]["scores"] is not None


def test_a_database_that_stays_down_is_logged_once(tmp_path: Path, faults: Faults,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")
        assert srv.start(d["id"], d["token"]).status_code == 200
        host_frames: list[str] = []

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            while not (host.state and host.state["view"] and host.state["view"]["legal"]):
                await host.recv(10)  # the host's turn: its own attempts meet the outage
            faults.down = {"*"}
            for _ in range(60):  # the host keeps trying (past the flood limit), the bots retry by themselves
                if host.state and host.state["view"]["legal"]:
                    await host.send({"t": "act", "id": f"x{time.monotonic()}",
                                     "action": host.state["view"]["legal"][0], "v": host.v})
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # the frame rate's bucket refills (the loop above went past it)
            await ping(host)  # refusals that are the server's fault never close the connection
            host_frames.extend(host.frames)

        with caplog.at_level("ERROR", logger="euchre.server"):
            run(scenario())
        assert len(faults.refused) >= 2
        assert sum(1 for f in host_frames if '"code":"unavailable"' in f) >= 2  # and still connected
        lines = [r for r in caplog.records if r.name == "euchre.server"]
        assert 1 <= len(lines) <= 3, [r.getMessage() for r in lines]
        assert all(getattr(r, "ctx", {}).get("event") for r in lines)


def test_json_log_lines() -> None:
    import logging

    from euchre.server.run import JsonFormatter, TextFormatter

    record = logging.LogRecord("euchre.server", logging.ERROR, __file__, 1, "commit failed: %s", ("disk full",), None)
    record.ctx = {"event": "commit", "table": "abc", "repeated": 3}
    line = json.loads(JsonFormatter().format(record))
    assert (line["level"], line["logger"], line["message"]) == ("error", "euchre.server", "commit failed: disk full")
    assert (line["event"], line["table"], line["repeated"]) == ("commit", "abc", 3)
    assert line["time"].endswith("Z")
    assert TextFormatter().format(record).endswith("commit failed: disk full [table=abc repeated=3]")


# --- real database faults: a lock held past the timeout, a PostgreSQL server that goes away --------------
def test_a_sqlite_lock_held_past_the_timeout(tmp_path: Path) -> None:
    """Another process holds SQLite's write lock for 2 s, past the server's busy timeout (0.5 s
    here, ``?timeout=0.5``): the actions meanwhile are refused ``unavailable`` and change nothing,
    and the game goes on, with nothing lost, once the lock is released."""
    import sqlite3

    path = tmp_path / "locked.sqlite3"
    with serve(f"sqlite:///{path}?timeout=0.5") as srv:
        d = srv.create(mode="friends", name="Host")
        assert srv.start(d["id"], d["token"]).status_code == 200
        locked = threading.Event()
        release = threading.Event()

        def hold() -> None:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("BEGIN EXCLUSIVE")
            locked.set()
            release.wait(10)
            conn.execute("ROLLBACK")
            conn.close()

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            await host.until("state")
            holder = threading.Thread(target=hold)
            holder.start()
            assert await asyncio.to_thread(locked.wait, 5)
            v = srv.version(d["id"])
            player = asyncio.ensure_future(play_until_over(host, random.Random(21), timeout=90, pause=0.05))
            await asyncio.sleep(2.0)
            assert srv.version(d["id"]) == v  # nothing went through, nothing half-done
            assert not player.done()
            release.set()
            await asyncio.to_thread(holder.join, 10)
            await player

        run(scenario(), timeout=150)
        final = srv.info(d["id"])
        assert srv.health()["failures"] >= 1
    assert final["status"] == "over"
    with serve(f"sqlite:///{path}") as srv:  # replayed from the database: the same game
        assert srv.info(d["id"])["version"] == final["version"]
        assert srv.info(d["id"])["scores"] == final["scores"]


@pytest.fixture
def private_postgres() -> Iterator[dict[str, Any]]:
    """A PostgreSQL server of this test's own (Debian's binaries, as ``.ci/postgres.sh``), which
    the test may stop and start again on the same port and data."""
    import glob
    import shutil
    import subprocess

    from server_support import postgres_admin_url

    postgres_admin_url()  # skipped (or failed in CI) without PostgreSQL, like every PostgreSQL test
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not bins or shutil.which("su") is None:
        pytest.skip("no PostgreSQL binaries to run a private server")
    bin_dir = bins[-1]
    import tempfile

    data = Path(tempfile.mkdtemp(prefix="euchre-pg-fault."))  # under /tmp: pytest's own tmp is root's only
    shutil.chown(data, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def pg(*args: str) -> None:
        subprocess.run(["su", "postgres", "-c", " ".join(args)], check=True, capture_output=True, timeout=60)

    pg(f"{bin_dir}/initdb", "-D", f"{data}/data", "-A", "trust", "-U", "postgres")
    opts = f"'-k /tmp -p {port} -c listen_addresses=127.0.0.1'"

    def start() -> None:
        pg(f"{bin_dir}/pg_ctl", "-D", f"{data}/data", "-w", "-o", opts, "-l", f"{data}/log", "start")

    def stop() -> None:
        pg(f"{bin_dir}/pg_ctl", "-D", f"{data}/data", "-m", "immediate", "stop")

    start()
    try:
        yield {"url": f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", "start": start, "stop": stop}
    finally:
        subprocess.run(["su", "postgres", "-c", f"{bin_dir}/pg_ctl -D {data}/data -m immediate stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(data, ignore_errors=True)


def test_postgresql_going_away_loses_nothing(private_postgres: dict[str, Any]) -> None:
    """The PostgreSQL server is killed (``pg_ctl -m immediate``) in the middle of a game and is
    back a second later: meanwhile every write is refused ``unavailable``; afterwards the same
    connections play on, and the finished game is exactly what the database replays."""
    url = private_postgres["url"]
    with serve(url) as srv:
        d = srv.create(mode="friends", name="Host")
        assert srv.start(d["id"], d["token"]).status_code == 200

        async def scenario() -> None:
            host = await hello(srv, d["id"], d["token"])
            await host.until("state")
            rng = random.Random(31)
            player = asyncio.ensure_future(play_until_over(host, rng, timeout=120, pause=0.1))
            await asyncio.sleep(0.5)
            assert not player.done()
            await asyncio.to_thread(private_postgres["stop"])
            await asyncio.sleep(1.0)
            down_v = host.v
            await asyncio.sleep(0.5)
            assert host.v == down_v  # nothing is acknowledged while the database is away
            await asyncio.to_thread(private_postgres["start"])
            await player

        run(scenario(), timeout=180)
        final = srv.info(d["id"])
        assert final["status"] == "over"
        assert srv.health()["failures"] >= 1  # the outage was met (and said)
    with serve(url) as srv:
        again = srv.info(d["id"])
        assert (again["version"], again["scores"], again["status"]) == (final["version"], final["scores"], "over")


def test_connections_per_address_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One address holds at most ``--max-connections-per-client`` sockets (HTTP or WebSocket) at
    once: the next is closed unread; closing one makes room. (Loopback is counted here only
    because the test says so; by default a reverse proxy on this machine is not.)"""
    monkeypatch.setattr(guard, "CONNECTIONS", guard.Connections(limit=4, count_loopback=True))
    with live("sqlite", tmp_path) as srv:
        port = int(srv.base.rsplit(":", 1)[1])
        d = srv.create(mode="friends")  # this client's connection closes after the request? keep-alive: count it
        srv.http.close()

        async def scenario() -> None:
            sockets = [await websockets.connect(srv.ws(d["id"])) for _ in range(2)]
            silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
            extra = socket.create_connection(("127.0.0.1", port))
            extra.settimeout(5)
            assert extra.recv(1) == b""  # the fifth: closed at once
            extra.close()
            await sockets[0].close()
            silent[0].close()
            await asyncio.sleep(0.2)
            async with httpx.AsyncClient(base_url=srv.base) as http:
                assert (await http.get("/healthz")).status_code == 200
            for s in silent[1:]:
                s.close()
            await sockets[1].close()

        run(scenario())
        assert guard.CONNECTIONS.open == {}


@pytest.mark.parametrize("frame", [
    {"t": "hello", "token": None, "v": 2**31},
    {"t": "hello", "token": None, "v": 10**40},
    {"t": "hello", "token": None, "v": -1},
    {"t": "act", "id": "a1", "action": "pass", "v": 2**63},
    {"t": "act", "id": "a1", "action": "pass", "v": 1.5},
])
def test_integers_out_of_range_in_frames_are_malformed(frame: dict[str, Any], tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends")

        async def scenario() -> None:
            c = await hello(srv, d["id"], d["token"]) if frame["t"] == "act" else None
            if c is not None:
                await c.until("state")
            else:
                c = Client(await websockets.connect(srv.ws(d["id"])))
            f = await _send_and_err(c, frame)
            assert f["code"] == "malformed" and len(f["message"]) < 300, f
            assert f["id"] == frame.get("id")  # (the client can tell which of its frames was refused)
            await ping(c)

        run(scenario())
        assert srv.version(d["id"]) == 0


def test_frames_refused_say_every_type_and_empty_chat(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")

        async def scenario() -> None:
            c = await hello(srv, d["id"], d["token"])
            await c.until("state")
            f = await _send_and_err(c, {"t": "dance", "id": "x1"})
            assert f["id"] == "x1" and "hello, act, claim, undo, chat, hint, start or ping" in f["message"]
            f = await _send_and_err(c, {"t": "chat", "text": "\u200b \u200b"})
            assert f["code"] == "malformed" and "nothing is left to say" in f["message"]
            await ping(c)

        run(scenario())


def test_a_flood_of_listing_requests_costs_one_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/api/stats`` and ``/api/games`` are shared by concurrent asks and kept until a game
    finishes: a flood of them costs one query, not one each, and a finished game shows at once."""
    calls: list[str] = []
    real_stats, real_games = Store.stats, Store.games

    def stats(self: Store) -> Any:
        calls.append("stats")
        time.sleep(0.2)
        return real_stats(self)

    def games(self: Store, *args: Any) -> Any:
        calls.append("games")
        return real_games(self, *args)

    monkeypatch.setattr(Store, "stats", stats)
    monkeypatch.setattr(Store, "games", games)
    with live("sqlite", tmp_path) as srv:

        async def flood() -> list[int]:
            async with httpx.AsyncClient(base_url=srv.base) as http:
                rs = await asyncio.gather(*(http.get("/api/stats") for _ in range(30)),
                                          *(http.get("/api/games") for _ in range(30)))
            return [r.status_code for r in rs]

        assert run(flood()) == [200] * 60
        assert calls.count("stats") == 1 and calls.count("games") == 1
        d = finished_game(srv, 41)
        assert [g["id"] for g in srv.http.get("/api/games").json()["games"]] == [d["id"]]
        assert any(p["name"] == "Host" for p in srv.http.get("/api/stats").json()["players"])
        assert calls.count("stats") == 2 and calls.count("games") == 2


# --- a rematch: the same seats and rules, the same links --------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_rematch_keeps_the_seats_rules_and_links(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    with serve(url) as srv:
        d = srv.create(mode="friends", name="Host", preset="british", rules={"target": 5})
        tokens = tokens_of(d)

        async def scenario() -> tuple[str, dict[str, Any]]:
            host = await hello(srv, d["id"], tokens[0])
            guest = await hello(srv, d["id"], tokens[2], name="Gus")
            await guest.until("state")
            r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert r.status_code == 409 and r.json()["error"] == "not_over"
            assert srv.start(d["id"], tokens[0]).status_code == 200
            await asyncio.gather(play_until_over(host, random.Random(51)), play_until_over(guest, random.Random(52)))
            for who, token in ((None, None), ("bot seat", tokens[1])):
                headers = {} if token is None else {"Authorization": f"Bearer {token}"}
                r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers=headers)
                assert r.status_code == 403, who  # seat 1 became a computer player: its link is no seat
            r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers={"Authorization": f"Bearer {tokens[2]}"})
            assert r.status_code == 200, r.text
            new = r.json()
            assert new["url"] == f"/table/{new['id']}#token={tokens[2]}" and new["status"] == "playing"
            # Asked again, by the host: the same rematch; everyone at the old table is told.
            again = srv.http.post(f"/api/tables/{d['id']}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert again.json()["id"] == new["id"]
            f = await host.until("state", timeout=10)
            while f["d"]["rematch"] is None:
                f = await host.until("state", timeout=10)
            assert f["d"]["rematch"] == new["id"]
            # The old links work at the new table, for their own seats.
            c = await hello(srv, new["id"], tokens[2])
            w = await c.until("welcome")
            assert w["d"]["seat"] == 2
            return new["id"], srv.info(new["id"])

        new_id, info = run(scenario(), timeout=150)
        old = srv.info(d["id"])
        assert [s["kind"] for s in info["seats"]] == [s["kind"] for s in old["seats"]]
        assert [s["name"] for s in info["seats"]] == [s["name"] for s in old["seats"]]
        assert (info["preset"], info["target"], info["scores"]) == ("british", 5, [0, 0])
    with serve(url) as srv:  # after a restart the old table still points to its rematch
        assert srv.info(d["id"])["rematch"] == new_id
        assert srv.info(new_id)["status"] == "playing"


def test_a_refused_origin_is_logged_with_advice_only_when_it_is_safe(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """'start it with --allow-origin null' would let every sandboxed page open game sockets."""
    import websockets

    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="friends", name="Host")

        async def scenario() -> None:
            for origin in ("null", "http://lan-name:8000"):
                with pytest.raises(websockets.InvalidStatus):
                    await websockets.connect(srv.ws(d["id"]), origin=origin)  # type: ignore[arg-type]

        with caplog.at_level("WARNING"):
            run(scenario())
    said = {r.getMessage() for r in caplog.records if "refused a game socket" in r.getMessage()}
    assert any("null (no web address" in m and "--allow-origin" not in m for m in said), said
    assert any("start it with --allow-origin http://lan-name:8000" in m for m in said), said


@pytest.mark.parametrize("step", ["event:rematch", "event:start"])
def test_a_refused_rematch_leaves_no_orphan_and_asked_again_starts(step: str, tmp_path: Path,
                                                                    faults: Faults) -> None:
    """A rematch is two commits: the new table with the old one's pointer to it (one
    transaction), then its start. Refused at the first, nothing is left (no waiting table holding
    the seats' tokens); refused at the start, the rematch exists, and asked again it starts."""
    with live("sqlite", tmp_path, away_timeout=0) as srv:
        d = srv.create(mode="bots", name="Host", rules={"target": 1})

        async def finish() -> None:
            c = await hello(srv, d["id"], d["token"])
            await play_until_over(c, random.Random(4), timeout=60)

        run(finish(), timeout=90)
        before = table_count(srv)
        headers = {"Authorization": f"Bearer {d['token']}"}
        faults.down = {step}
        r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers=headers)
        assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
        faults.heal()
        if step == "event:rematch":
            assert table_count(srv) == before and srv.info(d["id"])["rematch"] is None
        else:
            assert table_count(srv) == before + 1 and srv.info(d["id"])["rematch"] is not None
        r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers=headers)
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text
        assert table_count(srv) == before + 1 and srv.info(d["id"])["rematch"] == r.json()["id"]
