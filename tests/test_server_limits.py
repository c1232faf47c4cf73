"""The server's limits against the internet and its housekeeping (``docs/server.md``, "Limits"
and "Tables nobody returns to"), on SQLite and PostgreSQL.

- A token bucket per client address on new game connections (``--connect-limit``): the 21st
  connect of a burst gets ``err too_many_connections`` and a close with 1008, and changes nothing.
- One on opening and starting tables (``--create-limit``): 429 with ``Retry-After``, nothing made.
- Tables nobody returns to: an idle table is put away (unloaded from memory) and replayed when a
  link is opened again, a computer player's pending turn included; a table never started is
  ``abandoned`` after ``--waiting-expiry`` and its links say so (``table_abandoned``, HTTP 410).

Other client addresses are simulated with ``X-Forwarded-For``, which uvicorn honours from
127.0.0.1 (a trusted proxy by default), exactly as behind a reverse proxy.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import DATABASES, Client, Live, fresh_database, running_server, serve

from euchre.cli import main
from euchre.server.app import RateLimiter, client_key
from euchre.server.core import Hub, ServerConfig
from euchre.server.db import Store


class FakeClock:
    """The rate limits' clock, moved by the test only."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def run(coro: Awaitable[Any], timeout: float = 60.0) -> Any:
    async def main_() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main_())


def check_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The API's error shape: ``{"error": code, "message": words}`` with ``status``."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = r.json()
    assert set(body) == {"error", "message"} and body["error"] == code and body["message"], body
    return body


def tokens_of(created: dict[str, Any]) -> list[str]:
    return [created["token"]] + [link["token"] for link in created["links"]]


def table_count(srv: Live) -> int:
    store = srv.store()
    try:
        return store.table_count()
    finally:
        store.close()


def stored_status(srv: Live, table_id: str) -> tuple[str, int]:
    """The table's status and number of events, as the database has them."""
    store = srv.store()
    try:
        row = store.load_table(table_id)
    finally:
        store.close()
    assert row is not None
    return row.status, len(row.events)


async def join(url: str, token: str | None, headers: dict[str, str] | None = None, **hello: Any) -> Client:
    """A connection (with these HTTP ``headers``) that said hello and got its first state."""
    c = Client(await websockets.connect(url, max_size=2**22, additional_headers=headers))
    await c.send({"t": "hello", "token": token, **hello})
    await c.until("state", timeout=10)
    return c


async def refused(url: str, token: str | None = None, **kw: Any) -> tuple[dict[str, Any], int]:
    """Open a socket that the connect limit refuses: its one ``err`` frame and the close code.
    A hello is sent at once, as a browser does, and must change nothing."""
    ws = await websockets.connect(url, **kw)
    try:
        await ws.send(json.dumps({"t": "hello", "token": token, "name": "Intruder"}))
    except websockets.ConnectionClosed:
        pass
    frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None
    return frame, closed.value.rcvd.code


async def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


# --- the limiter itself ---------------------------------------------------------------------------------------
def test_rate_limiter_counts_per_address_and_forgets_full_buckets() -> None:
    clock = FakeClock()
    limiter = RateLimiter(20, 20, clock)
    assert [limiter.take("a") for _ in range(20)] == [0.0] * 20
    assert limiter.take("a") == pytest.approx(3.0)  # 20 a minute: one every 3 seconds
    assert limiter.take("b") == 0.0  # another address has its own bucket
    clock.t += 3
    assert limiter.take("a") == 0.0
    assert limiter.take("a") == pytest.approx(3.0)
    # Memory: a bucket untouched long enough to be full again is dropped.
    for n in range(1000):
        limiter.take(f"10.0.{n // 256}.{n % 256}")
    assert len(limiter.buckets) == 1002
    clock.t += 60.5
    limiter.take("c")
    assert list(limiter.buckets) == ["c"]
    # ... and past max_keys the least recently used go, whatever their state.
    small = RateLimiter(20, 20, clock, max_keys=10)
    for n in range(50):
        small.take(str(n))
    assert len(small.buckets) <= 10 and "49" in small.buckets


@pytest.mark.parametrize(("host", "key"), [
    ("127.0.0.1", "127.0.0.1"),
    ("203.0.113.9", "203.0.113.9"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:198.51.100.7", "198.51.100.7"),
    ("not-an-ip", "not-an-ip"),
    (None, "?"),
])
def test_client_key(host: str | None, key: str) -> None:
    """An IPv6 address counts as its /64: one home gets a whole /64, and would otherwise get a
    fresh bucket per address."""
    assert client_key(host) == key


# --- the connect limit ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_connect_limit_refuses_the_21st_connect(db: str, tmp_path: Path) -> None:
    clock = FakeClock()
    with serve(fresh_database(db, tmp_path), limits=True, clock=clock) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id, tokens = d["id"], tokens_of(d)
        before = srv.info(table_id)

        async def scenario() -> None:
            for _ in range(20):  # the burst: all welcome
                c = await join(srv.ws(table_id), None)
                await c.close()
            frame, code = await refused(srv.ws(table_id), token=tokens[1])
            assert code == 1008
            assert frame == {"t": "err", "id": None, "code": "too_many_connections",
                             "message": "too many new connections from your address; try again in 3 seconds"}
            # Nothing changed: the hello on the refused socket was never read.
            info = srv.info(table_id)
            assert info == before
            assert [s["present"] for s in info["seats"]] == [False] * 4
            assert stored_status(srv, table_id) == ("waiting", 0)
            # Another address is not affected.
            other = await join(srv.ws(table_id), tokens[1], name="Friend",
                               headers={"X-Forwarded-For": "203.0.113.9"})
            assert other.state is not None and other.state["seat"] == 1
            assert srv.info(table_id)["seats"][1] == {"seat": 1, "name": "Friend", "kind": "human", "present": True,
                                                      "away": False, "bot": False, "level": None}
            # Still refused here until the bucket refills: one connect every 3 seconds.
            assert (await refused(srv.ws(table_id)))[1] == 1008
            clock.t += 3
            again = await join(srv.ws(table_id), tokens[0])
            assert again.state is not None and again.state["host"] is True
            frame, code = await refused(srv.ws(table_id))
            assert (frame["code"], code) == ("too_many_connections", 1008)
            # A refused connect costs the server nothing lasting: the sockets that were let in work.
            await other.send({"t": "ping"})
            await other.until("pong")
            for c in (other, again):
                await c.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_connect_limit_zero_is_no_limit(db: str, tmp_path: Path) -> None:
    with serve(fresh_database(db, tmp_path), limits=True, clock=FakeClock(), connect_limit=0) as srv:
        d = srv.create(mode="friends")

        async def scenario() -> None:
            for _ in range(40):
                c = await join(srv.ws(d["id"]), None)
                await c.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_real_server_connect_limit_option(db: str, tmp_path: Path) -> None:
    """``euchre serve --connect-limit``: 1 a minute (after the burst of 20) refuses the 21st
    connect; ``--connect-limit 0`` lets 40 through."""
    url = fresh_database(db, tmp_path)

    async def connects(base: str, table_id: str, n: int) -> None:
        for _ in range(n):
            c = await join(f"{base}/ws/{table_id}", None)
            await c.close()

    with running_server(url, tmp_path, "--connect-limit", "1") as server:
        d = httpx.post(server.base + "/api/tables", json={"mode": "friends"}).json()
        run(connects(server.ws_base, d["id"], 20))
        frame, code = run(refused(f"{server.ws_base}/ws/{d['id']}"))
        assert code == 1008 and frame["code"] == "too_many_connections"
        m = re.search(r"try again in (\d+) seconds", frame["message"])
        assert m is not None and 50 <= int(m.group(1)) <= 60, frame  # 1 a minute
    with running_server(url, tmp_path, "--connect-limit", "0") as server:
        run(connects(server.ws_base, d["id"], 40))


# --- the table limit ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_create_limit_answers_429_and_creates_nothing(db: str, tmp_path: Path) -> None:
    clock = FakeClock()
    with serve(fresh_database(db, tmp_path), limits=True, clock=clock) as srv:
        friends = [srv.create(mode="friends") for _ in range(5)]
        for _ in range(5):
            srv.create(mode="bots")
        assert table_count(srv) == 10
        r = srv.post_table(mode="bots")
        body = check_error(r, 429, "too_many_tables")
        assert r.headers["retry-after"] == "2"  # 30 a minute: one every 2 seconds
        assert "try again in 2 seconds" in body["message"]
        check_error(srv.post_table(mode="friends", preset="nonesuch"), 429, "too_many_tables")  # before anything else
        assert table_count(srv) == 10
        # Starting a table counts too, and starts nothing.
        r = srv.http.post(f"/api/tables/{friends[0]['id']}/start",
                          headers={"Authorization": f"Bearer {friends[0]['token']}"})
        check_error(r, 429, "too_many_tables")
        assert r.headers["retry-after"] == "2"
        assert srv.info(friends[0]["id"])["status"] == "waiting"
        assert stored_status(srv, friends[0]["id"]) == ("waiting", 0)
        # Reading is not limited; another address is not affected.
        assert srv.http.get("/api/games").status_code == 200
        r = srv.post_table(mode="friends", headers={"X-Forwarded-For": "203.0.113.9"})
        assert r.status_code == 201, r.text
        assert table_count(srv) == 11
        # Two seconds later, one more.
        clock.t += 2
        r = srv.http.post(f"/api/tables/{friends[0]['id']}/start",
                          headers={"Authorization": f"Bearer {friends[0]['token']}"})
        assert r.status_code == 200 and r.json()["status"] == "playing"
        check_error(srv.post_table(mode="bots"), 429, "too_many_tables")
        assert table_count(srv) == 11


@pytest.mark.parametrize("db", DATABASES)
def test_create_limit_zero_is_no_limit(db: str, tmp_path: Path) -> None:
    with serve(fresh_database(db, tmp_path), limits=True, clock=FakeClock(), create_limit=0,
               max_tables_per_client=0) as srv:
        for _ in range(25):
            srv.create(mode="friends")
        assert table_count(srv) == 25


# --- the command line -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "words"), [
    (["--connect-limit", "-1"], "argument --connect-limit: must be 0 (no limit) or a number a minute, got -1"),
    (["--connect-limit", "ten"], "argument --connect-limit: not a whole number: 'ten'"),
    (["--create-limit", "-5"], "argument --create-limit: must be 0 (no limit) or a number a minute, got -5"),
    (["--waiting-expiry", "-2"], "argument --waiting-expiry: must be a finite number >= 0, got -2"),
    (["--threads-per-hint", "0"], "argument --threads-per-hint: must be at least 1"),
])
def test_serve_refuses_bad_limits(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", *args])
    assert e.value.code == 2
    assert f"euchre serve: error: {words}" in capsys.readouterr().err


def test_serve_passes_the_limits_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.server import run as run_module

    got: list[ServerConfig] = []

    def fake_serve(**kw: Any) -> int:
        got.append(kw["config"])
        return 0

    monkeypatch.setattr(run_module, "serve", fake_serve)
    assert main(["serve"]) == 0
    assert main(["serve", "--connect-limit", "0", "--create-limit", "7", "--waiting-expiry", "1.5"]) == 0
    default, custom = got
    assert (default.connect_limit, default.create_limit, default.waiting_expiry) == (20, 30, 24 * 3600)
    assert (default.connect_burst, default.create_burst, default.idle_unload) == (20, 10, 600)
    assert (custom.connect_limit, custom.create_limit, custom.waiting_expiry) == (0, 7, 5400)


def test_serve_passes_the_attack_limits_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.server import run as run_module

    got: list[dict[str, Any]] = []
    monkeypatch.setattr(run_module, "serve", lambda **kw: got.append(kw) or 0)
    assert main(["serve"]) == 0
    assert main(["serve", "--hint-limit", "0", "--max-tables", "9", "--max-tables-per-client", "2",
                 "--max-connections-per-client", "8", "--log-format", "json"]) == 0
    default, custom = got
    d, c = default["config"], custom["config"]
    assert (d.hint_limit, d.max_tables, d.max_tables_per_client) == (20, 2000, 20)
    assert (default["max_connections_per_client"], default["log_format"]) == (256, "text")
    assert (c.hint_limit, c.max_tables, c.max_tables_per_client) == (0, 9, 2)
    assert (custom["max_connections_per_client"], custom["log_format"]) == (8, "json")


def test_serve_passes_the_threads_per_hint_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--threads-per-hint N`` sets ``ServerConfig.threads_per_hint``; without it, two threads
    a hint, or one on a one-core machine."""
    import os

    from euchre.server import run as run_module

    got: list[dict[str, Any]] = []
    monkeypatch.setattr(run_module, "serve", lambda **kw: got.append(kw) or 0)
    assert main(["serve"]) == 0
    assert main(["serve", "--threads-per-hint", "3"]) == 0
    assert [kw["config"].threads_per_hint for kw in got] == [min(2, os.cpu_count() or 1), 3]
    for cores, threads in ((1, 1), (2, 2), (16, 2), (None, 1)):
        monkeypatch.setattr(os, "cpu_count", lambda c=cores: c)
        assert ServerConfig().threads_per_hint == threads, cores


# --- tables nobody returns to -----------------------------------------------------------------------------------
async def my_turn(c: Client) -> None:
    """Frames until this seat's frame offers a choice."""
    while not (c.state and c.state["view"] and c.state["view"]["legal"]):
        await c.recv(30)


@pytest.mark.parametrize("db", DATABASES)
def test_an_idle_table_is_put_away_and_comes_back(db: str, tmp_path: Path) -> None:
    """A game against computer players, its person gone: put away after ``idle_unload`` (never
    while connected); the link brings it back with the same view, and the game goes on."""
    with serve(fresh_database(db, tmp_path), idle_unload=0.3, sweep_interval=0.05) as srv:
        d = srv.create(mode="bots", name="Solo")
        table_id = d["id"]

        async def scenario() -> None:
            c = await join(srv.ws(table_id), d["token"])
            await my_turn(c)
            await asyncio.sleep(0.8)  # connected: stays
            assert srv.health()["tables"] == 1
            seen, v = c.state, c.v
            assert seen is not None
            await c.close()
            await wait_for(lambda: srv.health()["tables"] == 0, 10, "the idle table to be put away")
            assert srv.health()["unloaded"] == 1
            back = await join(srv.ws(table_id), d["token"])
            assert srv.health()["tables"] == 1
            assert back.v == v and back.state is not None
            for key in ("view", "previous", "last", "scores", "status", "level", "sides"):
                assert back.state[key] == seen[key], key
            assert [(s["name"], s["kind"]) for s in back.state["seats"]] == [(s["name"], s["kind"])
                                                                             for s in seen["seats"]]
            legal = back.state["view"]["legal"]
            await back.send({"t": "act", "id": "after", "action": random.Random(1).choice(legal), "v": v})
            assert (await back.until("ack"))["v"] == v + 1
            await back.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_a_socket_opened_before_the_table_was_put_away(db: str, tmp_path: Path) -> None:
    """The socket looked the table up when it opened; the table is put away before its hello:
    the hello still joins (the table is replayed afresh), and the start works."""
    with serve(fresh_database(db, tmp_path), idle_unload=0.2, sweep_interval=0.05) as srv:
        d = srv.create(mode="friends", name="Host")

        async def scenario() -> None:
            raw = Client(await websockets.connect(srv.ws(d["id"])))
            await raw.send({"t": "ping"})
            await raw.until("pong")
            await wait_for(lambda: srv.health()["tables"] == 0, 10, "the idle table to be put away")
            await raw.send({"t": "hello", "token": d["token"], "name": "Host"})
            welcome = await raw.until("welcome")
            assert welcome["d"] == {"table": d["id"], "seat": 0, "host": True}
            await raw.until("state")
            assert srv.info(d["id"])["seats"][0]["present"] is True
            await raw.send({"t": "start"})
            while raw.state is None or raw.state["status"] != "playing":
                await raw.recv(10)
            await raw.close()

        run(scenario())
        assert stored_status(srv, d["id"])[0] == "playing"


async def act_until_a_bot_is_to_act(c: Client, rng: random.Random) -> int:
    """Act (passing when possible) until, after one of my actions, a computer player is to act;
    the version of that action."""
    while True:
        await my_turn(c)
        legal = c.state["view"]["legal"]  # type: ignore[index]
        action = "pass" if "pass" in legal else rng.choice(legal)
        await c.send({"t": "act", "id": f"a{c.v}", "action": action, "v": c.v})
        v = (await c.until("ack"))["v"]
        while c.v < v:
            await c.recv(10)
        if c.state["view"]["to_act"] != 0:  # type: ignore[index]
            return int(v)


@pytest.mark.parametrize("db", DATABASES)
def test_a_pending_computer_turn_keeps_the_table(db: str, tmp_path: Path) -> None:
    """The person acts and leaves at once: the computer players' turns are pending, so the table
    stays until they have played (up to the person's turn), and only then is put away."""
    with serve(fresh_database(db, tmp_path), bot_delay=1.0, idle_unload=0.2, sweep_interval=0.05) as srv:
        d = srv.create(mode="bots", name="Solo")
        table_id = d["id"]

        async def scenario() -> None:
            c = await join(srv.ws(table_id), d["token"])
            v = await act_until_a_bot_is_to_act(c, random.Random(3))
            await c.close()
            await asyncio.sleep(0.5)  # past idle_unload, within the computer player's delay
            assert srv.health()["tables"] == 1
            assert stored_status(srv, table_id)[1] == v
            await wait_for(lambda: srv.health()["tables"] == 0, 30, "the table to be put away")
            events = stored_status(srv, table_id)[1]
            assert events > v  # the computer players did play before it went
            back = await join(srv.ws(table_id), d["token"])
            assert back.v == events
            assert back.state is not None and back.state["view"]["to_act"] == 0 and back.state["view"]["legal"]
            await back.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_a_pending_computer_turn_resumes_when_the_link_is_opened(db: str, tmp_path: Path) -> None:
    """The server stops while a computer player is to act, and starts again later: the table is
    not replayed at the start (not active within ``idle_unload``), and opening the person's link
    replays it, and the computer players take their turns, as after a restart."""
    url = fresh_database(db, tmp_path)
    with serve(url, bot_delay=60.0) as srv:  # computer players wait a minute: nothing moves by itself

        async def first() -> tuple[str, str]:
            for _ in range(60):  # a table where the person bids first (one in four)
                d = srv.create(mode="bots", name="Solo")
                c = await join(srv.ws(d["id"]), d["token"])
                if c.state["view"]["to_act"] == 0:  # type: ignore[index]
                    await c.send({"t": "act", "id": "p1", "action": "pass", "v": 1})
                    assert (await c.until("ack"))["v"] == 2
                    await c.close()
                    return d["id"], d["token"]
                await c.close()
            raise AssertionError("no table where the person bids first")

        table_id, token = run(first())
        assert stored_status(srv, table_id) == ("playing", 2)  # seat 1, a computer player, to act
    time.sleep(0.5)
    with serve(url, idle_unload=0.3, sweep_interval=0) as srv:
        assert srv.health()["tables"] == 0  # not replayed at the start
        assert stored_status(srv, table_id) == ("playing", 2)

        async def again() -> None:
            c = await join(srv.ws(table_id), token)
            await my_turn(c)  # the computer players act by themselves, up to the person's turn
            assert c.v > 2 and c.state["view"]["to_act"] == 0  # type: ignore[index]
            await c.close()

        run(again())
        assert stored_status(srv, table_id)[1] > 2


@pytest.mark.parametrize("db", DATABASES)
def test_a_table_never_started_is_abandoned(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    with serve(url, waiting_expiry=0.5, sweep_interval=0.05) as srv:
        lonely = srv.create(mode="friends", name="Lonely")
        lobby = srv.create(mode="friends", name="Lobby")
        started = srv.create(mode="friends", name="Started")
        assert srv.http.post(f"/api/tables/{started['id']}/start",
                             headers={"Authorization": f"Bearer {started['token']}"}).status_code == 200
        bots = srv.create(mode="bots", name="Bots")

        def gone(table_id: str) -> bool:
            return srv.http.get(f"/api/tables/{table_id}").status_code == 410

        async def scenario() -> None:
            host = await join(srv.ws(lobby["id"]), lobby["token"])  # a host still in the lobby
            await wait_for(lambda: gone(lonely["id"]), 10, "the waiting table to be abandoned")
            await asyncio.sleep(0.5)
            assert srv.info(lobby["id"])["status"] == "waiting"  # not while someone is there
            # Every link of the abandoned table says so, precisely.
            tid = lonely["id"]
            body = check_error(srv.http.get(f"/api/tables/{tid}"), 410, "table_abandoned")
            assert "never started" in body["message"]
            host_auth = {"Authorization": f"Bearer {lonely['token']}"}
            check_error(srv.http.post(f"/api/tables/{tid}/start", headers=host_auth), 410, "table_abandoned")
            check_error(srv.http.get(f"/api/tables/{tid}/record"), 410, "table_abandoned")
            for token in (lonely["token"], lonely["links"][0]["token"], None):
                c = await Client.connect(srv.ws(tid), token)
                f = await c.until("err")
                assert f["code"] == "table_abandoned" and "never started" in f["message"], f
                await c.send({"t": "start"})
                assert (await c.until("err"))["code"] == "table_abandoned"
                await c.send({"t": "ping"})
                await c.until("pong")  # like not_found, the socket stays open
                await c.close()
            await host.close()
            await wait_for(lambda: gone(lobby["id"]), 10, "the lobby to be abandoned once empty")

        run(scenario())
        for t in (started, bots):
            assert srv.info(t["id"])["status"] == "playing"
        assert srv.health()["abandoned"] == 2
        assert stored_status(srv, lonely["id"]) == ("abandoned", 0)
        assert stored_status(srv, lobby["id"]) == ("abandoned", 0)
        listed = {g["id"] for g in srv.http.get("/api/games").json()["games"]}
        assert not listed & {lonely["id"], lobby["id"]}
        names = {p["name"] for p in srv.http.get("/api/stats").json()["players"]}
        assert not names & {"Lonely", "Lobby"}
    # A restart does not bring it back.
    with serve(url, waiting_expiry=0.5, sweep_interval=0.05) as srv:
        check_error(srv.http.get(f"/api/tables/{lonely['id']}"), 410, "table_abandoned")
        assert srv.info(started["id"])["status"] == "playing"


@pytest.mark.parametrize("db", DATABASES)
def test_the_sweep_leaves_a_table_whose_lock_is_held(db: str, tmp_path: Path) -> None:
    """The sweep never touches a table mid-action: with the table's lock held (as during an
    action, a join or a start), neither unloading nor abandoning happens; once it is free, both do."""
    url = fresh_database(db, tmp_path)

    async def scenario() -> None:
        store = Store(url)
        hub = Hub(store, ServerConfig(idle_unload=0.01, waiting_expiry=0.01, sweep_interval=0))
        await hub.start()
        try:
            from euchre.rules import Rules

            waiting, _ = await hub.create(mode="friends", rules=Rules.preset("american"), preset="american",
                                          level="easy", name="W")
            await asyncio.sleep(0.05)
            async with waiting.lock:
                await hub.sweep()
                assert hub.tables.get(waiting.id) is waiting and waiting.status == "waiting"
            assert store.load_table(waiting.id, with_events=False).status == "waiting"  # type: ignore[union-attr]
            await hub.sweep()
            assert waiting.id not in hub.tables and waiting.unloaded
            assert store.load_table(waiting.id, with_events=False).status == "abandoned"  # type: ignore[union-attr]
            # An idle game in progress is only put away, never ended.
            hub.config.waiting_expiry = 0
            game, _ = await hub.create(mode="bots", rules=Rules.preset("american"), preset="american", level="easy",
                                       name="G")
            deadline = time.monotonic() + 30
            while game.busy():  # the computer players play up to the person's turn
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.05)
            async with game.lock:
                await hub.sweep()
                assert hub.tables.get(game.id) is game
            await hub.sweep()
            assert game.id not in hub.tables
            again = await hub.get(game.id)
            assert again is not None and again is not game and again.version == game.version
            assert again.status == "playing"
        finally:
            await hub.stop()
            store.close()

    run(scenario())


def test_asking_for_every_stored_table_keeps_memory_within_the_limit(tmp_path: Path) -> None:
    """Any stored table can be asked for (its rules, its page), and each is replayed into memory:
    past ``max_tables`` the least recently used idle ones are put away again, so walking the list
    of games cannot hold them all (it took 18 tables in memory to 40 over a server's limit)."""
    url = fresh_database("sqlite", tmp_path)
    with serve(url, max_tables=3, idle_unload=0.2, sweep_interval=0.05) as srv:
        ids = []
        for _ in range(2):
            ids += [srv.create(mode="friends", name="Host")["id"] for _ in range(3)]
            run(wait_for(lambda: srv.health()["tables"] == 0, 10, "the idle tables to be put away"))
    # the next server on the database (one at a time): none of its tables loaded at the start
    with serve(url, max_tables=3, idle_unload=0.01, sweep_interval=0) as again:
        for table_id in ids:
            assert again.http.get(f"/api/tables/{table_id}/rules").status_code == 200
            assert again.health()["tables"] <= 3
        assert again.http.get(f"/api/tables/{ids[0]}").status_code == 200  # put away, and back when asked for
