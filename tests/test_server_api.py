"""The web server's HTTP API and WebSocket protocol (``docs/server.md``), on SQLite and PostgreSQL.

Most tests run the application in this process, served by uvicorn on a free port in a thread
(real sockets, a ``ServerConfig`` chosen per test: no bot delay, short away timeouts), and talk to
it with ``httpx`` and the recording :class:`server_support.Client`. The tests of what only the
real ``euchre serve`` settles (``--allow-origin``, uvicorn's frame cap, the flood close) run it as
a subprocess. Tests marked ``xfail(strict=True)`` show a bug or a deviation from the documented
protocol; their reason says which.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import DATABASES, Client, Live, fresh_database, running_server, serve

from euchre import egn, notation
from euchre.actions import Action
from euchre.bots.levels import DEFAULT_LEVEL, LEVELS
from euchre.bots.persona import CAST
from euchre.describe import action_words
from euchre.protocol import view_from_dict
from euchre.rules import PRESETS, Rules
from euchre.server import app as app_module
from euchre.server.db import Store
from euchre.server.messages import MAX_FRAME

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{40,}$")
ID_RE = re.compile(r"^[A-Za-z0-9_-]{12,24}$")


# --- an in-process server ---------------------------------------------------------------------------
@contextmanager
def live(db: str, tmp_path: Path, **config: Any) -> Iterator[Live]:
    """A fresh database of kind ``db`` and a server on it."""
    with serve(fresh_database(db, tmp_path), **config) as srv:
        yield srv


def run(coro: Awaitable[Any], timeout: float = 60.0) -> Any:
    async def main() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


# --- client helpers ------------------------------------------------------------------------------------
def tokens_of(created: dict[str, Any]) -> list[str]:
    return [created["token"]] + [link["token"] for link in created["links"]]


async def join(srv: Live, table_id: str, token: str | None, **hello: Any) -> Client:
    """A connection that said hello and got its first state frame."""
    c = await Client.connect(srv.ws(table_id), token, **hello)
    await c.until("state", timeout=5)
    return c


async def reply(c: Client, frame: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """Send an ``act`` and return its answer (the ``ack`` or ``err`` with its id)."""
    await c.send(frame)
    deadline = time.monotonic() + timeout
    while True:
        f = await c.recv(max(0.01, deadline - time.monotonic()))
        if f["t"] in ("ack", "err") and f.get("id") == frame.get("id"):
            return f


async def error(c: Client, frame: dict[str, Any] | str | bytes, timeout: float = 5.0) -> dict[str, Any]:
    """Send any frame and return the next ``err`` frame."""
    if isinstance(frame, dict):
        await c.send(frame)
    else:
        await c.ws.send(frame)
    return await c.until("err", timeout=timeout)


async def ping(c: Client) -> None:
    await c.send({"t": "ping"})
    await c.until("pong", timeout=5)


async def sync(clients: list[Client], v: int, timeout: float = 5.0) -> None:
    """Read until every client has the state frame of version ``v``."""
    for c in clients:
        deadline = time.monotonic() + timeout
        while c.v < v:
            await c.recv(max(0.01, deadline - time.monotonic()))


async def friends_table(srv: Live, preset: str = "american", **rules: Any) -> tuple[str, list[str], list[Client]]:
    """A friends table with every seat held by a connection, started by the host (version 1)."""
    created = srv.create(mode="friends", preset=preset, rules=rules)
    table_id = created["id"]
    tokens = tokens_of(created)
    clients = []
    for s, token in enumerate(tokens):
        clients.append(await join(srv, table_id, token, name=f"P{s}"))
    r = srv.start(table_id, tokens[0])
    assert r.status_code == 200, r.text
    await sync(clients, 1)
    return table_id, tokens, clients


def to_act(c: Client) -> int:
    assert c.state is not None and c.state["view"] is not None
    return int(c.state["view"]["to_act"])


_IDS = itertools.count(1)
"""Action ids for :func:`step` (they must never repeat at a seat: a repeat is a resend)."""


async def step(clients: list[Client], watchers: list[Client], rng: random.Random) -> dict[str, Any]:
    """The seat to act takes a random action from its own frame's ``legal``; every other seat's
    frame must offer nothing. Returns the ack once every client has the new state."""
    actor = to_act(clients[0])
    for s, c in enumerate(clients):
        assert c.state is not None
        legal = c.state["view"]["legal"]
        assert bool(legal) == (s == actor), (s, actor, legal)
    legal = clients[actor].state["view"]["legal"]  # type: ignore[index]
    v = clients[actor].v
    action = rng.choice(legal)
    ack = await reply(clients[actor], {"t": "act", "id": f"s{actor}-{next(_IDS)}", "action": action, "v": v})
    assert ack["t"] == "ack", ack
    assert ack["v"] == v + 1
    await sync(clients + watchers, ack["v"])
    # Everyone is told what was done (a discard's card only to the dealer who made it).
    for c in clients + watchers:
        last = c.state["last"]  # type: ignore[index]
        secret = action.startswith("discard") and c is not clients[actor]
        assert (last["seat"], last["action"]) == (actor, None if secret else action), (last, action)
    return ack


def frames(c: Client, t: str) -> list[dict[str, Any]]:
    return [f for f in map(json.loads, c.frames) if f["t"] == t]


def check_error(r: httpx.Response, status: int, code: str | None = None) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error", "message"}, body
    assert isinstance(body["error"], str) and isinstance(body["message"], str) and body["message"]
    if code is not None:
        assert body["error"] == code, body


class FakeClock:
    """The rate limiter's clock, moved by the test only."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def bucket_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """Every connection's token buckets read a clock that stands still until the test moves it, so
    rate tests do not depend on the machine's speed (the server runs in this process)."""
    clock = FakeClock()

    class Bucket(app_module.TokenBucket):
        def __init__(self, burst: float, rate: float, clock: Any = clock) -> None:
            super().__init__(burst, rate, clock)

    monkeypatch.setattr(app_module, "TokenBucket", Bucket)
    return clock


# --- HTTP API -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_options(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        r = srv.http.get("/api/options")
        assert r.status_code == 200
        opts = r.json()
    assert [p["name"] for p in opts["presets"]] == list(PRESETS)
    for p in opts["presets"]:
        assert p["rules"] == Rules.preset(p["name"]).to_dict()
        assert isinstance(p["description"], str) and p["description"]
    assert opts["levels"] == list(LEVELS)
    assert opts["default_level"] == DEFAULT_LEVEL
    assert opts["bots"]


@pytest.mark.parametrize("db", DATABASES)
def test_create_bots_table(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        r = srv.http.post("/api/tables", json={"mode": "bots", "preset": "american", "level": "easy", "name": "Ana"})
        assert r.status_code == 201, r.text
        d = r.json()
        table_id, token = d["id"], d["token"]
        assert ID_RE.match(table_id) and TOKEN_RE.match(token)
        assert d["seat"] == 0
        assert d["url"] == f"/table/{table_id}#token={token}"
        assert d["watch_url"] == f"/table/{table_id}"
        assert d["links"] == []
        info = srv.info(table_id)
        assert info["status"] == "playing" and info["table"] == table_id
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        assert info["seats"][0]["name"] == "Ana"
        assert info["seats"][0]["away"] is True and info["seats"][0]["present"] is False
        assert "view" not in info and "previous" not in info
        assert info["scores"] == [0, 0] and info["target"] == 10 and info["version"] >= 1
        # The page routes are served too.
        for path in ("/", f"/table/{table_id}", "/games", "/stats"):
            assert srv.http.get(path).status_code == 200


@pytest.mark.parametrize("db", DATABASES)
def test_create_friends_tables(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        ids, tokens = [], []
        for preset, players in (("american", 4), ("british", 4), ("two-handed", 2), ("cut-throat", 3)):
            d = srv.create(mode="friends", preset=preset, name="Host")
            table_id = d["id"]
            ids.append(table_id)
            assert d["status"] == "waiting"
            assert [link["seat"] for link in d["links"]] == list(range(1, players))
            for link in d["links"]:
                assert link["url"] == f"/table/{table_id}#token={link['token']}"
            tokens += tokens_of(d)
            info = srv.info(table_id)
            assert info["status"] == "waiting" and info["version"] == 0
            assert [s["kind"] for s in info["seats"]] == ["human"] + ["open"] * (players - 1)
            assert info["seats"][0]["name"] == "Host"
            assert all(s["away"] is False for s in info["seats"][1:])
        for _ in range(6):
            ids.append(srv.create(mode="bots")["id"])
    # Unique, long, and not a counter: 12+ URL-safe characters (72 random bits) for ids, 43 for tokens.
    assert len(set(ids)) == len(ids) and len(set(tokens)) == len(tokens)
    assert all(ID_RE.match(i) for i in ids) and all(TOKEN_RE.match(t) for t in tokens)
    assert not any(i.isdigit() for i in ids)
    assert len({i[:4] for i in ids}) > len(ids) // 2


BAD_CREATE: list[tuple[Any, int, str | None]] = [
    ({"preset": "nonesuch"}, 400, "bad_rules"),
    ({"rules": {"players": 5}}, 400, "bad_rules"),
    ({"rules": {"nonsense": 1}}, 400, "bad_rules"),
    ({"rules": {"going_alone": "yes"}}, 400, "bad_rules"),
    ({"rules": {"target": -3}}, 400, "bad_rules"),
    ({"preset": "two-handed", "rules": {"going_alone": True}}, 400, "bad_rules"),
    ({"level": "godlike"}, 422, "malformed"),  # (as every other malformed body: docs/server.md)
    ({"mode": "solo"}, 422, "malformed"),
    ({"colour": "red"}, 422, "malformed"),
    ({"name": "x" * 25}, 422, "malformed"),
    ({"rules": "fast"}, 422, "malformed"),
    ({"level": 3}, 422, "malformed"),
    ([1, 2], 422, "malformed"),
    ("not json", 422, "malformed"),
]


@pytest.mark.parametrize("db", DATABASES)
def test_create_table_refusals(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        for body, status, code in BAD_CREATE:
            if isinstance(body, str):
                r = srv.http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
            else:
                r = srv.http.post("/api/tables", json=body)
            check_error(r, status, code)
        assert srv.http.get("/api/games").json() == {"games": []}
        r = srv.http.delete("/api/tables")
        check_error(r, 405, "method_not_allowed")
        assert r.headers["allow"] == "POST"


@pytest.mark.parametrize("db", DATABASES)
def test_start_only_by_the_host(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        a = srv.create(mode="friends", name="Host")
        b = srv.create(mode="friends")
        ta, tb = tokens_of(a), tokens_of(b)
        check_error(srv.start(a["id"], None), 403, "forbidden")
        check_error(srv.http.post(f"/api/tables/{a['id']}/start", headers={"Authorization": "Basic abc"}), 403)
        check_error(srv.start(a["id"], ta[1]), 403, "forbidden")  # another seat's token
        check_error(srv.start(a["id"], tb[0]), 403, "forbidden")  # the host token of another table
        check_error(srv.start(a["id"], "x" * 43), 403, "forbidden")
        check_error(srv.start("nosuchtable1", ta[0]), 404, "not_found")
        assert srv.info(a["id"])["status"] == "waiting"
        r = srv.start(a["id"], ta[0])
        assert r.status_code == 200 and r.json() == {"id": a["id"], "status": "playing"}
        info = srv.info(a["id"])
        assert info["status"] == "playing" and info["version"] >= 1  # the bots may have acted already
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        # Computer players have human first names of their level's cast, all different, and show the level.
        names = [s["name"] for s in info["seats"][1:]]
        assert set(names) <= set(CAST["easy"]) and len(set(names)) == 3
        assert [s["level"] for s in info["seats"]] == [None, "easy", "easy", "easy"]
        # A seat that became a computer player has no link any more.
        assert srv.start(a["id"], ta[1]).status_code == 403
        assert srv.info(b["id"])["status"] == "waiting"


@pytest.mark.parametrize("db", DATABASES)
def test_start_twice_is_a_conflict(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends")
        assert srv.start(d["id"], d["token"]).status_code == 200
        check_error(srv.start(d["id"], d["token"]), 409)


@pytest.mark.parametrize("db", DATABASES)
def test_unknown_tables(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        for table_id in ("nosuchtable1", "x" * 30, "a"):
            check_error(srv.http.get(f"/api/tables/{table_id}"), 404, "not_found")
            check_error(srv.http.get(f"/api/tables/{table_id}/record"), 404, "not_found")
        check_error(srv.http.get("/api/nothing-here"), 404, "not_found")
        d = srv.create(mode="friends")
        check_error(srv.http.get(f"/api/tables/{d['id']}/record"), 409, "not_over")
        check_error(srv.http.get(f"/api/tables/{d['id']}/record?format=pdf"), 422, "malformed")
        check_error(srv.http.get("/api/games?limit=0"), 422, "malformed")
        check_error(srv.http.get("/api/games?limit=501"), 422, "malformed")

        async def scenario() -> None:
            c = await Client.connect(srv.ws("nosuchtable1"), None)
            f = await c.until("err")
            assert f["code"] == "not_found"
            await ping(c)  # still open
            await c.close()

        run(scenario())


# --- a whole game ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_whole_game_of_four_people(db: str, tmp_path: Path) -> None:
    """Four seats driven only by their own frames' ``legal``; a spectator watches. The record,
    the games list and the statistics agree with the game."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            rng = random.Random(20240611)
            table_id, tokens, clients = await friends_table(srv)
            spectator = await join(srv, table_id, None)
            await sync(clients + [spectator], 1)
            check_error(srv.http.get(f"/api/tables/{table_id}/record"), 409, "not_over")
            record_checked = False
            acks = []
            store = Store(srv.url, migrate=False)
            while clients[0].state["status"] != "over":  # type: ignore[index]
                acks.append(await step(clients, [spectator], rng))
                if len(acks) % 25 == 1:  # committed before it was acknowledged
                    row = store.load_table(table_id)
                    assert row is not None and row.events[acks[-1]["v"] - 1].seq == acks[-1]["v"]
                if not record_checked and len(acks) > 30:
                    check_error(srv.http.get(f"/api/tables/{table_id}/record?format=egn"), 409, "not_over")
                    record_checked = True
                assert len(acks) < 3000
            store.close()
            final = clients[0].state
            assert final is not None and final["status"] == "over" and final["winners"]
            assert max(final["scores"]) >= final["target"]
            for c in clients + [spectator]:
                assert c.state is not None and c.state["status"] == "over"
                assert (c.state["scores"], c.state["winners"]) == (final["scores"], final["winners"])
            # Acks: to the actor only, with strictly increasing versions, one per event.
            all_acks = []
            for s, c in enumerate(clients):
                mine = frames(c, "ack")
                assert [f["v"] for f in mine] == sorted({f["v"] for f in mine})
                assert all(f["id"].startswith(f"s{s}-") for f in mine)
                all_acks += [f["v"] for f in mine]
                assert frames(c, "err") == []
            assert sorted(all_acks) == [a["v"] for a in acks] == list(range(2, 2 + len(acks)))
            assert frames(spectator, "ack") == [] and frames(spectator, "err") == []
            # The spectator saw public facts only; every seat saw its own hand.
            for f in frames(spectator, "state"):
                for view in (f["d"]["view"], f["d"]["previous"]):
                    if view is not None:
                        assert view["hand"] == [] and view["legal"] == [] and view["discard"] is None
            for c in clients:
                assert any(f["d"]["view"]["hand"] for f in frames(c, "state") if f["d"]["view"])
            # "previous" comes from a hand's end until the new hand's first card (through its
            # bidding: it used to go with the new hand's first action), and only then.
            hands = bidding = 0
            for c in clients + [spectator]:
                for f in frames(c, "state"):
                    view, previous = f["d"]["view"], f["d"]["previous"]
                    if view is None or f["d"]["status"] == "over":
                        continue
                    if view["tricks"] or view["trick"] or view["hand_number"] == 0:
                        assert previous is None
                    else:
                        hands += 1
                        bidding += bool(view["actions"])
                        assert previous["hand_number"] == view["hand_number"] - 1 and previous["points"] is not None
                        assert previous["seat"] == f["d"]["seat"]
            assert hands > 0 and bidding > 0
            # Nothing more to do once it is over.
            late = await reply(clients[0], {"t": "act", "id": "late", "action": "pass"})
            assert late["t"] == "err" and late["code"] == "over"
            for c in clients + [spectator]:
                await c.close()

            # The record, in both formats, replays to the same result.
            r = srv.http.get(f"/api/tables/{table_id}/record")
            assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
            record = notation.loads(r.text)
            game = record.replay()
            assert list(game.scores) == final["scores"] and list(game.winners) == final["winners"]
            assert record.players == ["P0", "P1", "P2", "P3"]
            assert sum(len(h.actions) for h in record.hands) == len(acks)
            r = srv.http.get(f"/api/tables/{table_id}/record?format=egn")
            assert r.status_code == 200
            json.loads(r.text)
            from_egn = egn.loads(r.text).replay()
            assert list(from_egn.scores) == final["scores"]
            # The finished game is listed, and counted in the statistics.
            games = srv.http.get("/api/games").json()["games"]
            assert len(games) == 1
            g = games[0]
            assert g["id"] == table_id and g["scores"] == final["scores"] and g["winners"] == final["winners"]
            assert g["players"] == ["P0", "P1", "P2", "P3"] and g["finished_at"]
            assert g["egn"] is True and final["egn"] is True  # (the EGN download is offered)
            # Nobody was helped: a fair game for every seat, in the list and in every frame.
            assert g["seeded"] is False and g["practice"] == [False] * 4 and g["practice_reasons"] == [[]] * 4
            assert all(not f["d"]["practice"] and not f["d"]["seeded"]
                       for c in clients + [spectator] for f in frames(c, "state"))
            stats = {p["name"]: p for p in srv.http.get("/api/stats").json()["players"]}
            assert set(stats) == {"P0", "P1", "P2", "P3"}
            for s in range(4):
                p = stats[f"P{s}"]
                assert p["games"] == 1 and p["kind"] == "human"
                assert p["wins"] == int(s % 2 in final["winners"])
                assert p["hands"] == game.played_hands > 0
            info = srv.info(table_id)
            assert info["status"] == "over" and info["version"] == 1 + len(acks)

        run(scenario())


def test_the_hand_before_is_sent_until_the_new_hands_first_card(tmp_path: Path) -> None:
    """``previous`` (the hand before, as the recipient may see it) is in every frame from a hand's
    end through the new hand's bidding and discard, whoever acts, so a page reloaded there can
    show the hand before's last trick; once the new hand's first card is played it is gone, and
    it is never in the first hand's frames."""
    with live("sqlite", tmp_path) as srv:

        async def scenario() -> list[dict[str, Any]]:
            d = srv.create(mode="bots", name="Solo")
            c = await join(srv, d["id"], d["token"])
            rng = random.Random(4)
            acted = -1
            while c.state["view"]["hand_number"] < 3:  # type: ignore[index]
                legal = c.state["view"]["legal"]  # type: ignore[index]
                if legal and c.v > acted:
                    acted = c.v
                    await c.send({"t": "act", "id": f"a{c.v}", "action": rng.choice(legal), "v": c.v})
                await c.recv(10)
            return [f["d"] for f in frames(c, "state")]

        seen = run(scenario())
    counts = {"dealt": 0, "bidding": 0, "play": 0, "tricks": 0}
    for d in seen:
        view, previous = d["view"], d["previous"]
        card = bool(view["tricks"] or view["trick"])
        if view["hand_number"] == 0 or card:
            assert previous is None, (view["hand_number"], view["phase"], view["trick"])
            counts["play"] += card and view["hand_number"] > 0
            continue
        assert previous is not None and previous["hand_number"] == view["hand_number"] - 1, view["actions"]
        assert previous["seat"] == 0 and previous["phase"] == "over"
        # (The deals are the server's secret: a hand may be thrown in after two rounds of passes,
        # with no trick, or played by the partner alone while this seat sat out, its five cards kept.)
        if previous["tricks"]:
            assert previous["tricks"][-1]["plays"], "the hand before's last trick"
            assert len(previous["hand"]) < 5 or 0 in previous["sitting_out"], previous["hand"]
            counts["tricks"] += 1
        counts["bidding" if view["actions"] else "dealt"] += 1
    assert counts["dealt"] >= 2 and counts["bidding"] >= 2 and counts["play"] >= 2 and counts["tricks"] >= 2, counts


@pytest.mark.parametrize("db", DATABASES)
def test_quick_actions_are_never_rate_limited(db: str, tmp_path: Path, bucket_clock: FakeClock) -> None:
    """Accepted actions cost no rate token: with the limiter's clock stopped (the bucket of 20
    never refills), a seat still plays a whole game, far more than 20 actions, and is never
    refused. Two-handed against a computer player, so the person acts often."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="bots", preset="two-handed")
            c = await join(srv, d["id"], d["token"])
            rng = random.Random(5)
            acted = -1
            sent = 0
            while c.state["status"] != "over":  # type: ignore[index]
                legal = c.state["view"]["legal"]  # type: ignore[index]
                if legal and c.v > acted:
                    acted = c.v
                    sent += 1
                    await c.send({"t": "act", "id": f"q{sent}", "action": rng.choice(legal), "v": c.v})
                await c.recv(5)
            assert frames(c, "err") == []
            assert len(frames(c, "ack")) == sent > 20
            # The game cost nothing: the bucket is as full as after the hello (19 left).
            for _ in range(19):
                await ping(c)
            f = await error(c, {"t": "ping"})
            assert f["code"] == "rate"
            await c.close()

        run(scenario())


# --- actions: acks, resends, refusals ---------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_resent_action_id(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            seat = to_act(clients[0])
            c = clients[seat]
            first = await reply(c, {"t": "act", "id": "once", "action": "pass", "v": 1})
            assert first == {"t": "ack", "id": "once", "v": 2}
            await sync(clients, 2)
            for again in ({"t": "act", "id": "once", "action": "pass", "v": 1},
                          {"t": "act", "id": "once", "action": "order", "v": 2},
                          {"t": "act", "id": "once", "action": "pass"}):
                assert await reply(c, again) == first
            assert srv.version(table_id) == 2
            # Ids belong to a seat: the next seat may use the same id for its own action.
            nxt = to_act(clients[0])
            assert nxt != seat
            second = await reply(clients[nxt], {"t": "act", "id": "once", "action": "pass", "v": 2})
            assert second == {"t": "ack", "id": "once", "v": 3}
            await sync(clients, 3)
            # Nobody else got an ack, and the log holds one event per accepted action.
            for s, cl in enumerate(clients):
                if s not in (seat, nxt):
                    assert frames(cl, "ack") == []
            row = srv.stored_row(table_id)
            assert [(e.seq, e.kind, e.seat, e.client_id) for e in row.events] == [
                (1, "start", None, None), (2, "action", seat, "once"), (3, "action", nxt, "once")]

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_refusals_change_nothing(db: str, tmp_path: Path) -> None:
    """Out of turn, illegal and stale actions are refused with their codes; the version stays."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            seat = to_act(clients[0])
            other = (seat + 1) % 4
            c = clients[seat]
            hand = c.state["view"]["hand"]  # type: ignore[index]
            before = srv.version(table_id)
            f = await reply(clients[other], {"t": "act", "id": "o1", "action": "pass", "v": before})
            assert (f["t"], f["code"]) == ("err", "not_your_turn")
            for n, action in enumerate([f"play {hand[0]}", f"discard {hand[0]}", "call x", "take", "defend alone",
                                        "dance", "call " + "h" * 30]):
                f = await reply(c, {"t": "act", "id": f"i{n}", "action": action, "v": before})
                assert (f["t"], f["code"]) == ("err", "illegal"), (action, f)
                if n == 0:  # the engine's own explanation, not a generic "not legal now"
                    assert f["message"].startswith("no card is played now: it is the first round of bidding; "
                                                   "you may: pass"), f
            # Stale: acted on an older (or a future) version; the answer is followed by the state.
            for n, v in enumerate((before - 1, before + 5)):
                f = await reply(c, {"t": "act", "id": f"st{n}", "action": "pass", "v": v})
                assert (f["t"], f["code"]) == ("err", "stale")
                nxt = await c.recv(5)
                assert nxt["t"] == "state" and nxt["v"] == before and nxt["d"]["view"]["legal"]
            assert srv.version(table_id) == before
            for cl in clients:
                assert cl.v == before
            # The same action on the current version is accepted.
            f = await reply(c, {"t": "act", "id": "ok", "action": "pass", "v": before})
            assert f == {"t": "ack", "id": "ok", "v": before + 1}

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_hello_first_and_spectators_do_not_act(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, tokens, clients = await friends_table(srv)
            v = srv.version(table_id)
            raw = Client(await websockets.connect(srv.ws(table_id)))
            f = await error(raw, {"t": "act", "id": "a1", "action": "pass", "v": v})
            assert f["code"] == "malformed" and "hello" in f["message"]
            f = await error(raw, {"t": "chat", "text": "hi"})
            assert f["code"] == "malformed"
            await ping(raw)  # ping needs no hello
            f = await error(raw, {"t": "hello", "token": "not-a-token"})
            assert f["code"] == "forbidden"
            await raw.send({"t": "hello", "token": None})
            welcome = await raw.until("welcome")
            assert welcome["d"] == {"table": table_id, "seat": None, "host": False}
            await raw.until("state")
            f = await error(raw, {"t": "hello", "token": tokens[0]})
            assert f["code"] == "malformed"  # one hello per connection
            seat = to_act(clients[0])
            f = await error(raw, {"t": "act", "id": "sp", "action": "pass", "v": v})
            assert (f["code"], f["id"]) == ("forbidden", "sp")
            for frame in ({"t": "hint"}, {"t": "start"}):
                f = await error(raw, frame)
                assert (f["code"], f["id"]) == ("forbidden", None), (frame, f)
            assert srv.version(table_id) == v
            assert raw.state is not None and raw.state["seat"] is None and raw.state["view"]["legal"] == []
            # The seat's own frame did offer the action the spectator tried.
            assert "pass" in clients[seat].state["view"]["legal"]  # type: ignore[index]

        run(scenario())


MALFORMED: list[str | bytes | dict[str, Any]] = [
    "this is not json",
    "{\"t\": \"ping\"",
    "[1, 2]",
    "\"hello\"",
    "3",
    "null",
    "{}",
    {"t": "dance"},
    {"t": 5},
    {"t": "ping", "extra": 1},
    {"t": "act", "id": "a", "action": "pass", "v": 1, "extra": True},
    {"t": "act", "id": 5, "action": "pass"},
    {"t": "act", "id": "a", "action": 7},
    {"t": "act", "id": "a", "action": "pass", "v": "1"},
    {"t": "act", "id": "a", "action": "pass", "v": -1},
    {"t": "act", "id": "a", "action": "pass", "v": True},
    {"t": "act", "id": "a", "action": "pass", "v": 1.0},
    {"t": "act", "id": "", "action": "pass"},
    {"t": "act", "id": "x" * 41, "action": "pass"},
    {"t": "act", "id": "a"},
    {"t": "act", "id": "a", "action": ""},
    {"t": "chat", "text": ""},
    {"t": "chat", "text": "x" * 301},
    {"t": "chat", "text": ["hi"]},
    b"\x00\x01binary",
]

BAD_HELLOS: list[dict[str, Any]] = [
    {"t": "hello", "token": 123},
    {"t": "hello", "token": ""},
    {"t": "hello", "token": "x" * 101},
    {"t": "hello", "token": None, "name": "x" * 25},
    {"t": "hello", "token": None, "name": 7},
    {"t": "hello", "token": None, "v": -2},
    {"t": "hello", "token": None, "seat": 1},
]


@pytest.mark.parametrize("db", DATABASES)
def test_malformed_frames(db: str, tmp_path: Path) -> None:
    """Every frame that is not JSON or does not fit the protocol gets ``malformed`` and changes
    nothing; the connection stays open."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, tokens, clients = await friends_table(srv)
            v = srv.version(table_id)
            seat = to_act(clients[0])
            for n, frame in enumerate(MALFORMED):
                c = clients[(seat + n // 15) % 4]  # 15 frames a connection: inside the rate limit
                f = await error(c, frame if not isinstance(frame, dict) else json.dumps(frame))
                assert f["code"] == "malformed", (frame, f)
                assert f["message"]
            # A hello that does not fit is refused too, and the connection has still said none.
            raw = Client(await websockets.connect(srv.ws(table_id)))
            for frame in BAD_HELLOS:
                f = await error(raw, frame)
                assert f["code"] == "malformed", (frame, f)
            await raw.send({"t": "hello", "token": tokens[seat]})
            assert (await raw.until("welcome"))["d"]["seat"] == seat
            c = clients[seat]
            await ping(c)
            assert srv.version(table_id) == v
            assert frames(c, "ack") == []
            f = await reply(c, {"t": "act", "id": "fine", "action": "pass", "v": v})
            assert f["t"] == "ack"

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_oversized_frames(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            c = await join(srv, d["id"], d["token"])
            big = json.dumps({"t": "chat", "text": "x" * (MAX_FRAME + 10)})
            f = await error(c, big)
            assert f["code"] == "too_big"
            await ping(c)
            # The cap counts bytes of UTF-8, not characters: 1500 euro signs are 4500 bytes.
            f = await error(c, json.dumps({"t": "chat", "text": "\u20ac" * 1500}, ensure_ascii=False))
            assert f["code"] == "too_big"
            # Exactly at the cap is read (and refused for what it says, not for its size).
            exact = '{"t":"ping","pad":"' + "x" * (MAX_FRAME - 21) + '"}'
            assert len(exact.encode()) == MAX_FRAME
            f = await error(c, exact)
            assert f["code"] == "malformed"
            await ping(c)
            assert frames(c, "chat") == []

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_rate_limit(db: str, tmp_path: Path, bucket_clock: FakeClock) -> None:
    """Burst 20, then ``rate``; the bucket refills at 10 a second; the connection stays open."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            c = await join(srv, d["id"], None)
            for _ in range(30):
                await c.send({"t": "ping"})
            got = [await c.recv(5) for _ in range(30)]
            kinds = [f["t"] if f["t"] == "pong" else f["code"] for f in got]
            assert kinds == ["pong"] * 19 + ["rate"] * 11  # 20, less the hello
            bucket_clock.t += 0.25  # two and a half messages' worth
            for _ in range(2):
                await ping(c)
            f = await error(c, {"t": "ping"})
            assert f["code"] == "rate" and f["id"] is None

        run(scenario())


def test_sustained_flood_closes_the_connection(tmp_path: Path, bucket_clock: FakeClock) -> None:
    """docs/server.md: "A flood past the bucket for 10 seconds closes the connection (code 1008)".
    Eleven seconds of pings at 30 a second (three times the rate), on the fake clock."""
    clock = bucket_clock
    with live("sqlite", tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            c = await join(srv, d["id"], None)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(30 * 11):
                    await c.send({"t": "ping"})
                    f = await c.recv(5)
                    assert f["t"] == "pong" or f["code"] == "rate"
                    clock.t += 1 / 30
                for _ in range(5):
                    await c.send({"t": "ping"})
                    await c.recv(1)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_fast_flood_closes_the_connection(db: str, tmp_path: Path, bucket_clock: FakeClock) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            c = await join(srv, d["id"], None)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(200):
                    await c.send({"t": "ping"})
                while True:
                    await c.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert any(f["t"] == "err" and f["code"] == "rate" for f in map(json.loads, c.frames))
            # Only that connection: the server goes on.
            again = await join(srv, d["id"], None)
            await ping(again)

        run(scenario())


# --- who may act where ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_a_token_acts_only_for_its_seat_at_its_table(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_a, tokens_a, clients = await friends_table(srv)
            b = srv.create(mode="friends")
            # Table A's tokens are nothing at table B.
            for token in tokens_a:
                c = Client(await websockets.connect(srv.ws(b["id"])))
                f = await error(c, {"t": "hello", "token": token})
                assert f["code"] == "forbidden"
                f = await error(c, {"t": "act", "id": "x", "action": "pass"})
                assert f["code"] == "malformed"  # still no hello said
                await c.close()
            assert all(s["present"] is False for s in srv.info(b["id"])["seats"])
            # Seat s's token never acts for another seat: walk the first round, every other seat
            # trying the acting seat's own choices first.
            rng = random.Random(3)
            for _ in range(6):
                actor = to_act(clients[0])
                v = clients[0].v
                legal = clients[actor].state["view"]["legal"]  # type: ignore[index]
                for s, c in enumerate(clients):
                    if s != actor:
                        f = await reply(c, {"t": "act", "id": f"x{v}-{s}", "action": legal[0], "v": v})
                        assert (f["t"], f["code"]) == ("err", "not_your_turn")
                assert srv.version(table_a) == v
                await step(clients, [], rng)
            # A seat given to a computer player at the start has no valid link.
            c_table = srv.create(mode="friends")
            tokens_c = tokens_of(c_table)
            host = await join(srv, c_table["id"], tokens_c[0])
            assert srv.start(c_table["id"], tokens_c[0]).status_code == 200
            late = Client(await websockets.connect(srv.ws(c_table["id"])))
            f = await error(late, {"t": "hello", "token": tokens_c[2]})
            assert f["code"] == "forbidden"
            await host.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_hello_racing_the_start(db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_Session.hello`` checks the token (``seat_of``), then awaits the chat history from the
    database, and only then calls ``LiveTable.join``. A start in between makes the seat a computer
    player, yet the connection is welcomed to it. The database read is slowed down here to make
    the window deterministic; without it, four hellos followed at once by the start hit it now
    and then."""
    slow_read = Store.recent_chat

    def recent_chat(self: Store, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        time.sleep(1.0)
        return slow_read(self, table_id, limit)

    monkeypatch.setattr(Store, "recent_chat", recent_chat)
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            tokens = tokens_of(d)
            c = await Client.connect(srv.ws(d["id"]), tokens[1])
            await c.until("welcome")  # the token is checked; the chat history is being read
            assert srv.start(d["id"], tokens[0]).status_code == 200
            while (f := await c.recv(5))["t"] not in ("state", "err"):
                pass
            seat_kind = srv.info(d["id"])["seats"][1]["kind"]
            # Either the hello is refused (the seat is a bot's now) or the seat stays a person's:
            # never a connection holding the view of a seat a bot plays.
            if f["t"] == "err":
                assert f["code"] == "forbidden" and seat_kind == "bot"
            else:
                assert f["d"]["seat"] is None or seat_kind == "human", (f["d"]["seat"], seat_kind)

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_client_ids_cannot_block_a_stand_in(db: str, tmp_path: Path) -> None:
    """Client ids are the seat's person's: whatever they are, a stand-in's action is never taken
    for a resend of one of them. (Stand-ins used to act with the id ``bot:{version}``, so a client
    id ``bot:6`` stalled the table at version 6, its bot retrying forever.)"""
    with live(db, tmp_path, away_timeout=0.2) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            x = to_act(clients[0])
            # Seat x passes (version 2) with an id the stand-in will use at version 6, then leaves.
            assert (await reply(clients[x], {"t": "act", "id": "bot:6", "action": "pass", "v": 1}))["t"] == "ack"
            await clients[x].close()
            others = [c for s, c in enumerate(clients) if s != x]
            await sync(others, 3, timeout=5)  # version 3: the stand-in comes in
            assert others[0].state["seats"][x]["bot"] is True  # type: ignore[index]
            for k in (1, 2, 3):  # the three others pass: versions 4, 5, 6; seat x to act again
                c = clients[(x + k) % 4]
                assert (await reply(c, {"t": "act", "id": f"p{k}", "action": "pass", "v": 3 + k - 1}))["t"] == "ack"
                await sync(others, 3 + k)
            assert to_act(others[0]) == x
            await sync(others, 7, timeout=1.5)  # the stand-in acts for seat x (at once: no bot delay)

        run(scenario())


@pytest.mark.parametrize("db", [
    "sqlite",
    "postgresql",
])
def test_any_valid_action_id_is_accepted(db: str, tmp_path: Path) -> None:
    """An id is 1-40 printable ASCII characters: one with a NUL is refused as malformed (it is
    stored, and PostgreSQL refuses NUL in text), never lost in the database."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            c = clients[to_act(clients[0])]
            f = await error(c, {"t": "act", "id": "a\x00b", "action": "pass", "v": 1})
            assert f["code"] == "malformed" and "id" in f["message"], f
            assert srv.version(table_id) == 1
            f = await reply(c, {"t": "act", "id": "a~b!", "action": "pass", "v": 1})
            assert f["t"] == "ack", f
            assert srv.version(table_id) == 2

        run(scenario())


# --- chat, names, hints ------------------------------------------------------------------------------------
SCRIPT_CHAT = "<script>alert('x')</script> & <b>bold</b> \"quoted\""


@pytest.mark.parametrize("db", DATABASES)
def test_chat(db: str, tmp_path: Path) -> None:
    """Chat reaches everyone as plain text (the pages insert it with ``textContent``: escaping is
    the page's job, so the server must not mangle it), is kept, and is limited."""
    url = fresh_database(db, tmp_path)
    with serve(url) as srv:
        d = srv.create(mode="friends", name="Host")
        table_id = d["id"]

        async def scenario() -> None:
            host = await join(srv, table_id, d["token"])
            spectator = await join(srv, table_id, None)
            await host.send({"t": "chat", "text": SCRIPT_CHAT})
            for c in (host, spectator):
                f = await c.until("chat")
                assert len(f["d"]) == 1
                msg = f["d"][0]
                assert (msg["seat"], msg["name"], msg["text"]) == (0, "Host", SCRIPT_CHAT)
                assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", msg["at"])
            # Spectators read the chat but cannot write to it (anyone with the address could).
            f = await error(spectator, {"t": "chat", "text": "hello from the rail"})
            assert (f["code"], f["message"]) == ("forbidden", "spectators cannot chat")
            await host.send({"t": "chat", "text": "tab\there\x07bell \u200bzero-width  " + "y" * 250})
            for c in (host, spectator):
                f = await c.until("chat")
                assert f["d"][0]["seat"] == 0 and f["d"][0]["name"] == "Host"
                assert f["d"][0]["text"] == "tab here bell zero-width " + "y" * 250
            await asyncio.sleep(1.05)  # the chat rate (a burst of 3, then one a second)
            await host.send({"t": "chat", "text": "z" * 300})  # exactly the limit
            for c in (host, spectator):
                assert (await c.until("chat"))["d"][0]["text"] == "z" * 300
            f = await error(host, {"t": "chat", "text": "z" * 301})
            assert f["code"] == "malformed"
            # Chat rate: quick messages after the first are refused.
            for n in range(6):
                await host.send({"t": "chat", "text": f"quick {n}"})
            await ping(host)
            await ping(spectator)
            rate = [f for f in frames(host, "err") if f["code"] == "rate"]
            assert rate
            quick = [m["text"] for f in frames(spectator, "chat") for m in f["d"] if m["text"].startswith("quick")]
            assert 1 <= len(quick) < 6
            # History on hello, for a new connection.
            late = await Client.connect(srv.ws(table_id), None)
            await late.until("welcome")
            history = await late.until("chat")
            texts = [m["text"] for m in history["d"]]
            assert texts[:3] == [SCRIPT_CHAT, "tab here bell zero-width " + "y" * 250, "z" * 300]
            for c in (host, spectator, late):
                await c.close()
            return texts

        texts = run(scenario())
    # ... and after a restart, from the database.
    with serve(url) as srv:

        async def again() -> None:
            c = await Client.connect(srv.ws(table_id), None)
            await c.until("welcome")
            history = await c.until("chat")
            assert [m["text"] for m in history["d"]] == texts
            await c.close()

        run(again())


def test_chat_is_a_burst_of_three_then_one_a_second(tmp_path: Path) -> None:
    """docs/server.md: chat allows a burst of 3, then one message a second."""
    with live("sqlite", tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends")
            c = await join(srv, d["id"], d["token"])
            for text in ("one", "two", "three"):
                await c.send({"t": "chat", "text": text})
                await c.until("chat")
            await c.send({"t": "chat", "text": "four"})  # at once: past the burst
            while (f := await c.recv(5))["t"] not in ("chat", "err"):
                pass
            assert f["t"] == "err" and f["code"] == "rate", f

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_names_are_plain_text(db: str, tmp_path: Path) -> None:
    """Names come back exactly as given, apart from control characters (escaping is the page's
    job: it sets ``textContent``); the API answers JSON, never HTML."""
    with live(db, tmp_path) as srv:
        host_name = "<img src=x onerror=1>"
        d = srv.create(mode="friends", name=host_name)
        tokens = tokens_of(d)

        async def scenario() -> None:
            host = await join(srv, d["id"], tokens[0])
            guest = await join(srv, d["id"], tokens[1], name="<script>x</script>")
            third = await join(srv, d["id"], tokens[2], name="Ann\x00\x1b[31m\u202e")
            fourth = Client(await websockets.connect(srv.ws(d["id"])))
            f = await error(fourth, {"t": "hello", "token": tokens[3], "name": "n" * 25})
            assert f["code"] == "malformed"
            assert [s["name"] for s in third.state["seats"]][:3] == [  # type: ignore[index]
                host_name, "<script>x</script>", "Ann [31m"]
            for c in (host, guest, third, fourth):
                await c.close()

        run(scenario())
        info = srv.info(d["id"])
        names = [s["name"] for s in info["seats"]]
        assert names[:3] == [host_name, "<script>x</script>", "Ann [31m"]
        r = srv.http.get(f"/api/tables/{d['id']}")
        assert r.headers["content-type"].startswith("application/json")
        assert "<script>x</script>" in r.text


@pytest.mark.parametrize("db", DATABASES)
def test_hint(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            seat = to_act(clients[0])
            f = await error(clients[(seat + 1) % 4], {"t": "hint"})
            assert f["code"] == "not_your_turn"
            await clients[seat].send({"t": "hint"})
            # (a bid hint is 6,000 compiled deals, about 2 s of one core: 60 s leaves room for a
            # machine busy with other tests and benchmarks, where 20 s timed out)
            hint = await clients[seat].until("hint", timeout=60)
            legal = clients[seat].state["view"]["legal"]  # type: ignore[index]
            assert sorted(h["action"] for h in hint["d"]) == sorted(legal)
            points = [h["points"] for h in hint["d"]]
            assert points == sorted(points, reverse=True)
            view = view_from_dict(clients[seat].state["view"])  # type: ignore[index]
            for h in hint["d"]:
                assert h["words"] == action_words(Action.parse(h["action"]), view)
                assert h["stderr"] >= 0 and isinstance(h["even"], bool)
            assert hint["d"][0]["even"] is True  # the best is even with itself
            await clients[seat].send({"t": "hint"})  # asked again: the same answer (seeded from the position)
            again = await clients[seat].until("hint", timeout=60)
            assert again["d"] == hint["d"]
            assert srv.version(table_id) == 1

        run(scenario(), timeout=150)


def test_a_hint_split_among_threads_is_the_hint_of_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``threads_per_hint``: the server splits a bid's hint among that many threads, and the
    hint it sends is exactly ``euchre.hint`` of the same position on one thread (the split
    changes when it comes, never its numbers)."""
    import euchre.hints

    real = euchre.hints.hint
    asked: list[tuple[Any, dict[str, Any], list[euchre.hints.Hint]]] = []

    def spy(view: Any, *args: Any, **kw: Any) -> list[euchre.hints.Hint]:
        out = real(view, *args, **kw)
        asked.append((view, kw, out))
        return out

    monkeypatch.setattr(euchre.hints, "hint", spy)
    with live("sqlite", tmp_path, hint_bid_samples=300, threads_per_hint=2) as srv:

        async def scenario() -> list[dict[str, Any]]:
            _, _, clients = await friends_table(srv)
            seat = to_act(clients[0])
            await clients[seat].send({"t": "hint"})
            sent: list[dict[str, Any]] = (await clients[seat].until("hint", timeout=60))["d"]
            return sent

        sent = run(scenario(), timeout=90)
    [(view, kw, hints)] = asked
    assert view.phase.name == "BID1" and kw["threads"] == 2 and kw["bid_samples"] == 300
    one = real(view, samples=kw["samples"], bid_samples=300)  # one thread: hint()'s default
    assert hints == one
    assert [(h["action"], h["points"], h["stderr"], h["even"]) for h in sent] == [
        (str(h.action), round(h.points, 3), round(h.stderr, 3), h.about_even) for h in one]


# --- waiting tables, presence and stand-ins --------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_waiting_table_and_start_over_the_socket(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="friends", preset="cut-throat", name="Host")
            tokens = tokens_of(d)
            host = await join(srv, d["id"], tokens[0])
            assert host.state is not None and host.state["status"] == "waiting" and host.state["view"] is None
            assert host.state["host"] is True
            guest = await join(srv, d["id"], tokens[1], name="Guest")
            assert guest.state is not None and guest.state["host"] is False
            f = await reply(guest, {"t": "act", "id": "early", "action": "pass"})
            assert f["code"] == "not_started"
            f = await error(guest, {"t": "start"})
            assert f["code"] == "forbidden"
            await host.send({"t": "start"})
            await sync([host, guest], 1)
            st = host.state
            assert st is not None and st["status"] == "playing"
            assert [s["kind"] for s in st["seats"]] == ["human", "human", "bot"]
            assert [s["name"] for s in st["seats"]][:2] == ["Host", "Guest"]
            assert st["seats"][2]["name"] in CAST["easy"] and st["seats"][2]["level"] == "easy"
            assert [s["level"] for s in st["seats"]][:2] == [None, None]
            assert st["sides"] == [[0], [1], [2]] and st["target"] == 10

        run(scenario())


def seat_info(c: Client, seat: int) -> dict[str, Any]:
    assert c.state is not None
    return dict(c.state["seats"][seat])


@pytest.mark.parametrize("db", DATABASES)
def test_presence_and_stand_in(db: str, tmp_path: Path) -> None:
    """A seat whose player leaves shows away; after ``away_timeout`` a computer player stands in
    and plays its turns; the token's hello takes the seat back."""
    with live(db, tmp_path, away_timeout=0.3) as srv:

        async def scenario() -> None:
            table_id, tokens, clients = await friends_table(srv)
            spectator = await join(srv, table_id, None)
            x = to_act(clients[0])
            assert seat_info(spectator, x) == {"seat": x, "name": f"P{x}", "kind": "human", "present": True,
                                               "away": False, "bot": False, "level": None}
            await clients[x].close()
            others = [c for s, c in enumerate(clients) if s != x]
            watchers = others + [spectator]
            for c in watchers:
                while seat_info(c, x)["present"]:
                    await c.recv(5)
                assert seat_info(c, x) == {"seat": x, "name": f"P{x}", "kind": "human", "present": False,
                                           "away": True, "bot": False, "level": None}
            # The stand-in comes (an event), then plays seat x's turns until a person is to act.
            await sync(watchers, 2)
            assert seat_info(spectator, x)["bot"] is True and seat_info(spectator, x)["away"] is True
            deadline = time.monotonic() + 10
            while to_act(spectator) == x or spectator.state["last"] is None:  # type: ignore[index]
                await spectator.recv(max(0.01, deadline - time.monotonic()))
            assert spectator.state["last"]["seat"] == x  # type: ignore[index]
            await sync(others, spectator.v)
            # Back: the hello takes the seat back (an event too).
            v = spectator.v
            back = await join(srv, table_id, tokens[x])
            await sync(watchers, v + 1)
            for c in watchers + [back]:
                assert seat_info(c, x) == {"seat": x, "name": f"P{x}", "kind": "human", "present": True,
                                           "away": False, "bot": False, "level": None}
            clients[x] = back
            # The people play on until seat x is to act: it is offered the choice, and no bot takes it.
            rng = random.Random(9)
            while to_act(clients[0]) != x:
                await step(clients, [spectator], rng)
            assert clients[x].state["view"]["legal"]  # type: ignore[index]
            v = clients[x].v
            await asyncio.sleep(0.6)
            assert srv.version(table_id) == v
            await step(clients, [spectator], rng)

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_presence_with_two_sockets_and_a_quick_return(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path, away_timeout=0.5) as srv:

        async def scenario() -> None:
            table_id, tokens, clients = await friends_table(srv)
            second = await join(srv, table_id, tokens[0])
            assert second.state is not None and second.state["host"] is True
            await clients[0].close()
            await asyncio.sleep(0.6)
            info = srv.info(table_id)
            assert info["seats"][0]["present"] is True and info["version"] == 1
            # The last socket goes and comes back before the timeout: no stand-in.
            await second.close()
            await asyncio.sleep(0.05)
            third = await join(srv, table_id, tokens[0])
            await asyncio.sleep(0.6)
            info = srv.info(table_id)
            assert info["version"] == 1
            assert info["seats"][0] == {"seat": 0, "name": "P0", "kind": "human", "present": True, "away": False,
                                        "bot": False, "level": None}
            await third.close()

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_a_game_against_computers_waits_for_its_player(db: str, tmp_path: Path) -> None:
    """No stand-in when nobody else is at the table: the game waits for its one person."""
    with live(db, tmp_path, away_timeout=0.1) as srv:

        async def scenario() -> None:
            d = srv.create(mode="bots", name="Solo")
            c = await join(srv, d["id"], d["token"])
            rng = random.Random(2)
            while not c.state["view"]["legal"]:  # type: ignore[index]
                await c.recv(5)
            await c.close()
            v = srv.version(d["id"])
            await asyncio.sleep(0.4)
            info = srv.info(d["id"])
            assert info["version"] == v and info["seats"][0]["bot"] is False and info["seats"][0]["away"] is True
            back = await join(srv, d["id"], d["token"])
            assert back.v == v and back.state["view"]["legal"]  # type: ignore[index]
            await back.send({"t": "act", "id": "go", "action": rng.choice(back.state["view"]["legal"]),  # type: ignore
                             "v": v})
            assert (await back.until("ack"))["v"] == v + 1

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_friends_who_all_leave_find_their_game_untouched(db: str, tmp_path: Path) -> None:
    """When every person leaves, no computer player takes the seats: the game waits. The first
    one back gets the others' seats stood in for after the timeout, but never their own."""
    with live(db, tmp_path, away_timeout=0.2) as srv:

        async def scenario() -> None:
            table_id, tokens, clients = await friends_table(srv)
            v = srv.version(table_id)
            for c in clients:
                await c.close()
            await asyncio.sleep(0.6)
            info = srv.info(table_id)
            assert info["version"] == v
            assert [s["bot"] for s in info["seats"]] == [False] * 4
            back = await join(srv, table_id, tokens[0])
            await asyncio.sleep(0.6)
            info = srv.info(table_id)
            assert info["seats"][0]["bot"] is False and info["seats"][0]["present"] is True
            assert [s["bot"] for s in info["seats"][1:]] == [True] * 3
            await back.close()

        run(scenario())


async def play_out(c: Client, rng: random.Random) -> None:
    """Act at random whenever this connection's frame offers a choice, until the game is over."""
    acted = -1
    while c.state["status"] != "over":  # type: ignore[index]
        legal = c.state["view"]["legal"]  # type: ignore[index]
        if legal and c.v > acted:
            acted = c.v
            await c.send({"t": "act", "id": f"r{c.v}", "action": rng.choice(legal), "v": c.v})
        await c.recv(10)


def test_stats_count_games_not_seats(tmp_path: Path) -> None:
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="bots", level="easy", name="Solo")

        async def scenario() -> None:
            c = await join(srv, d["id"], d["token"])
            await play_out(c, random.Random(4))

        run(scenario())
        stats = {p["name"]: p for p in srv.http.get("/api/stats").json()["players"]}
        assert stats["Solo"]["games"] == 1
        bots = {n: p for n, p in stats.items() if p["kind"] == "bot"}
        assert set(bots) <= set(CAST["easy"]) and sum(p["games"] for p in bots.values()) == 3


# --- the real ``euchre serve`` ---------------------------------------------------------------------------------
@pytest.mark.parametrize("db", DATABASES)
def test_real_server_origin_and_frame_limits(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    with running_server(url, tmp_path, "--bot-delay", "0", "--allow-origin", "https://friends.example") as server:
        with httpx.Client(base_url=server.base) as http:
            d = http.post("/api/tables", json={"mode": "friends", "level": "easy"}).json()
        ws_url = f"{server.ws_base}/ws/{d['id']}"

        async def hello(origin: str | None) -> Client:
            c = Client(await websockets.connect(ws_url, origin=origin))  # type: ignore[arg-type]
            await c.send({"t": "hello", "token": None})
            await c.until("welcome")
            return c

        async def scenario() -> None:
            for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null",
                           f"http://127.0.0.1:{server.port}.evil.example", "https://friends.example.evil"):
                with pytest.raises(websockets.InvalidStatus) as refused:
                    await hello(origin)
                assert refused.value.response.status_code == 403, origin
            for origin in (f"http://127.0.0.1:{server.port}", "https://friends.example", None):
                c = await hello(origin)
                await ping(c)
                await c.close()
            c = await hello(None)
            f = await error(c, json.dumps({"t": "chat", "text": "x" * 5000}))
            assert f["code"] == "too_big"
            await ping(c)
            # Far past the cap, uvicorn's own limit (16 x 4096 bytes) closes the connection (1009).
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await c.ws.send("x" * (17 * MAX_FRAME))
                await c.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            # A flood is closed with 1008.
            c = await hello(None)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(400):
                    await c.send({"t": "ping"})
                while True:
                    await c.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            c = await hello(None)
            await ping(c)
            await c.close()

        run(scenario())
        with httpx.Client(base_url=server.base) as http:
            assert http.get("/healthz").status_code == 200


def test_a_failing_computer_player_is_retried_not_spun(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player that raises is logged and asked again a second later; the table goes
    on once it answers, and the failure never reaches a client."""
    from euchre.bots import Bot, RandomBot
    from euchre.server import core

    calls: list[float] = []

    class Flaky(Bot):
        name = "flaky"

        def __init__(self) -> None:
            self.inner = RandomBot(seed=1)

        def choose(self, view: Any) -> Action:
            calls.append(time.monotonic())
            if len(calls) == 1:
                raise RuntimeError("the first decision fails")
            return self.inner.choose(view)

    monkeypatch.setattr(core, "level_bot", lambda level, seed=None: Flaky())
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="bots", level="easy", name="Solo")

        async def scenario() -> None:
            c = await join(srv, d["id"], d["token"])
            deadline = time.monotonic() + 10
            while len(calls) < 2 or not (c.state and c.state["view"]["legal"]):
                if to_act(c) == 0 and c.state and c.state["view"]["legal"] and len(calls) == 0:
                    v = c.v
                    await reply(c, {"t": "act", "id": "me1", "action": c.state["view"]["legal"][0], "v": v})
                await c.recv(max(0.01, deadline - time.monotonic()))
            assert not any(json.loads(f)["t"] == "err" for f in c.frames)

        run(scenario())
    assert len(calls) >= 2 and calls[1] - calls[0] >= 0.9  # retried after a pause, not in a loop


@pytest.mark.parametrize("db", DATABASES)
def test_an_act_on_an_old_version_is_stale_before_it_is_out_of_turn(db: str, tmp_path: Path) -> None:
    """The client's view is out of date: it gets ``stale`` and the current state, which tells it
    whose turn it is, rather than a bare ``not_your_turn``."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            _, _, clients = await friends_table(srv)
            seat = to_act(clients[0])
            other = clients[(seat + 1) % 4]
            f = await error(other, {"t": "act", "id": "o1", "action": "pass", "v": 1})
            assert f["code"] == "not_your_turn"  # the current version, not its turn
            mover = clients[seat]
            await mover.send({"t": "act", "id": "m1", "action": mover.state["view"]["legal"][0], "v": 1})
            await mover.until("ack")
            late = clients[(seat + 2) % 4] if to_act(mover) != (seat + 2) % 4 else clients[(seat + 3) % 4]
            f = await error(late, {"t": "act", "id": "o2", "action": "pass", "v": 1})
            assert f["code"] == "stale" and "version 1" in f["message"]

        run(scenario())
