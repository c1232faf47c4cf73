"""The leak scan: no frame the server sends names a card its recipient may not know.

Many games across every preset and some rule switches, with computer players, a few seats held
by clients that act at random (and now and then out of turn, stale or illegally, ask for hints,
chat, leave and come back while a computer player stands in), and spectators, one of them
arriving mid-game. Every frame each connection receives is recorded. Once the games are over,
each table's true game is rebuilt from its database row (rules, secret seed, first dealer and the
event log) through :class:`euchre.Game` alone, and cross-checked against the downloadable record;
from it, independently of the server's view code, what each seat and a spectator may know at
every version (``RULES.md`` section 9):

- a seat: every card it was dealt, every up card, every card played, and its own discards;
- a spectator: the up cards and the cards played.

Every card token in a frame's raw text (rank ``7 8 9 T J Q K A`` and suit ``c d h s``, or ``Jk``,
matched with a regex on the JSON text, whatever the field) must be in that set at the frame's
version (a ``state`` frame's ``v``; for any other frame, the last ``v`` the connection had seen,
since frames reach a connection in the order they were made).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import Client, fresh_database, in_process_server

from euchre import Game, notation
from euchre.actions import Action, Kind
from euchre.rules import PRESETS, Rules
from euchre.server.core import ServerConfig
from euchre.server.db import EventRow, Store, TableRow

_EDGE = r"(?<![A-Za-z0-9_-])"
_END = r"(?![A-Za-z0-9_-])"
CARD_RE = re.compile(_EDGE + r"(?:(?:10|[2-9TJQKA])[cdhs]|Jk)" + _END)
"""A card anywhere in a frame's text (10 and ranks below 7 too, so a malformed card is caught)."""

Recipient = int | None
"""A seat, or ``None`` for a spectator."""


# --- the server --------------------------------------------------------------------------------------
@contextmanager
def serve(url: str, **config: Any) -> Iterator[str]:
    """``create_app(url)`` served by uvicorn in this process on a free port; yields its base URL."""
    with in_process_server(url, ServerConfig(**config), log_level="error") as base:
        yield base


# --- the truth: what each recipient may know at each version -----------------------------------------------
@dataclass
class Truth:
    """A table's game rebuilt from its database row, and the cards each recipient may know after
    each version (``known[v][recipient]``; version 0 is before any event)."""

    game: Game | None
    known: list[dict[Recipient, frozenset[str]]]
    discards: list[tuple[int, int, int, str, str]] = field(default_factory=list)
    """``(version, end, dealer, card, up card)`` for every discard: it happened at ``version`` in
    a hand whose successor was dealt at version ``end`` (after which the card may be dealt again)."""
    kinds: dict[str, int] = field(default_factory=dict)
    """How many events of each kind (and of each action kind): the scan's coverage."""


def truth_of(row: TableRow) -> Truth:
    """Replay ``row``'s events through the engine, independently of the server's view code."""
    rules = Rules.from_dict(row.rules)
    n = rules.players
    now = [0.0]
    game: Game | None = None
    known: dict[Recipient, set[str]] = {s: set() for s in range(n)}
    known[None] = set()
    out = Truth(None, [{k: frozenset(v) for k, v in known.items()}])
    dealt = 0
    for ev in row.events:
        assert ev.seq == len(out.known), "events are numbered from 1 without gaps"
        out.kinds[ev.kind] = out.kinds.get(ev.kind, 0) + 1
        now[0] = ev.at  # the server's game clock reads the time of the event being applied
        if ev.kind == "start":
            assert game is None
            game = Game(rules, seed=row.seed, dealer=row.dealer, clock=lambda: now[0])
        elif ev.kind == "action":
            assert game is not None
            action = Action.from_code(int(ev.payload["a"]))
            assert ev.seat == game.to_act, (ev, game.to_act)
            hand = game.state
            game.push(action)
            out.kinds[action.kind.name] = out.kinds.get(action.kind.name, 0) + 1
            card = action.card
            if action.kind is Kind.PLAY:
                assert card is not None
                for s in known:
                    known[s].add(str(card))
            elif action.kind is Kind.DISCARD:
                assert card is not None and ev.seat == hand.dealer
                known[ev.seat].add(str(card))
                out.discards.append((ev.seq, 1 << 30, ev.seat, str(card), str(hand.up_card)))
        else:
            assert ev.kind in ("bot_in", "bot_out"), ev.kind
        if game is not None:
            if dealt and dealt < len(game.hands):  # a new hand: the discards so far are of finished hands
                out.discards = [(at, min(end, ev.seq), *rest) for at, end, *rest in out.discards]
            while dealt < len(game.hands):
                deal = game.hands[dealt].deal
                for s in range(n):
                    known[s].update(str(c) for c in deal.hands[s])
                for s in known:
                    known[s].add(str(deal.up_card))
                dealt += 1
        out.known.append({k: frozenset(v) for k, v in known.items()})
    out.game = game
    return out


def check_frames(raw_frames: list[str], recipient: Recipient, truth: Truth,
                 counts: dict[str, int] | None = None) -> list[str]:
    """What is wrong with these frames (one connection's, in order): every card named that the
    recipient may not know at the frame's version, and (said separately, as the rule that
    matters most) a dealer's discard shown to anyone else during its hand (it is not known to
    them unless it is the up card, which everyone saw; after the hand it may be dealt again)."""
    who = "a spectator" if recipient is None else f"seat {recipient}"
    found = []
    v = 0
    for raw in raw_frames:
        frame = json.loads(raw)
        t = frame.get("t")
        if t == "state":
            v = int(frame["v"])
        assert 0 <= v < len(truth.known), (v, len(truth.known))
        allowed = truth.known[v][recipient]
        cards = CARD_RE.findall(raw)
        for card in cards:
            if card not in allowed:
                found.append(f"{card} at version {v} to {who}: {raw[:300]}")
        for at, end, dealer, card, up in truth.discards:
            if at <= v < end and dealer != recipient and card != up and card in cards:
                found.append(f"the discard {card} of seat {dealer} at version {v} to {who}: {raw[:300]}")
        if counts is not None:
            counts["frames"] = counts.get("frames", 0) + 1
            counts["cards"] = counts.get("cards", 0) + len(cards)
            counts[f"frame:{t}"] = counts.get(f"frame:{t}", 0) + 1
            view = frame["d"]["view"] if t == "state" else None
            if view is not None:
                if recipient is None:
                    if view["hand"] or view["legal"] or view["discard"] is not None:
                        found.append(f"a spectator's view with a hand, choices or a discard: {raw[:300]}")
                elif view["discard"] is not None:
                    counts["discards_to_dealer"] = counts.get("discards_to_dealer", 0) + 1
    return found


def leaks(raw_frames: list[str], recipient: Recipient, truth: Truth) -> list[str]:
    return check_frames(raw_frames, recipient, truth)


# --- the players ---------------------------------------------------------------------------------------------
async def connect(url: str, token: str | None, **hello: Any) -> Client:
    """A recording client that said hello (without compression: the frames' text is the same, and
    deflating thousands of frames would be most of the test's time)."""
    c = Client(await websockets.connect(url, max_size=2**22, compression=None))
    await c.send({"t": "hello", "token": token, **hello})
    return c


@dataclass
class Seen:
    """One connection's frames."""

    recipient: Recipient
    client: Client


@dataclass
class Table:
    id: str
    tokens: list[str]
    seen: list[Seen] = field(default_factory=list)
    public: list[tuple[int, str]] = field(default_factory=list)
    """``GET /api/tables/{id}`` answers taken mid-game: (version, raw text)."""
    refused_records: int = 0


async def player(ws_url: str, table: Table, seat: int, rng: random.Random, *, leave_at: int | None) -> None:
    """A seat acting at random from its frames' ``legal``, with some mischief."""
    c = await connect(ws_url, table.tokens[seat], name=f"Rand {seat}")
    table.seen.append(Seen(seat, c))
    acted = -1
    chatted = False
    n = 0
    while True:
        f = await c.recv(30)
        if f["t"] != "state":
            continue
        d = f["d"]
        if d["status"] == "over":
            await c.close()
            return
        if leave_at is not None and f["v"] >= leave_at:
            leave_at = None
            await c.close()
            await asyncio.sleep(rng.uniform(0.15, 0.4))  # past the away timeout: a stand-in may play
            c = await connect(ws_url, table.tokens[seat])
            table.seen.append(Seen(seat, c))
            acted = -1
            continue
        view = d["view"]
        if view is None or f["v"] != c.v:
            continue
        legal = view["legal"]
        if not chatted and rng.random() < 0.05:
            chatted = True
            await c.send({"t": "chat", "text": f"good luck from seat {seat} <b>!</b>"})
        if not legal:
            if rng.random() < 0.03:
                await c.send({"t": "act", "id": f"oot{n}", "action": "pass", "v": f["v"]})
                n += 1
            continue
        if f["v"] <= acted:
            continue
        acted = f["v"]
        r = rng.random()
        if r < 0.02:
            await c.send({"t": "hint"})
        elif r < 0.05:
            await c.send({"t": "act", "id": f"stale{n}", "action": legal[0], "v": max(0, f["v"] - 1)})
        elif r < 0.09:
            # Illegal, naming only cards this seat knows: a card it holds but may not play now.
            wrong = [f"play {x}" for x in view["hand"] if f"play {x}" not in legal]
            wrong += [f"discard {x}" for x in view["hand"] if f"discard {x}" not in legal]
            await c.send({"t": "act", "id": f"bad{n}", "action": rng.choice(wrong or ["call x"]), "v": f["v"]})
        n += 1
        await c.send({"t": "act", "id": f"a{n}", "action": rng.choice(legal), "v": f["v"]})


async def spectator(ws_url: str, table: Table, delay: float) -> None:
    await asyncio.sleep(delay)
    c = await connect(ws_url, None)
    table.seen.append(Seen(None, c))
    while True:
        f = await c.recv(30)
        if f["t"] == "state" and f["d"]["status"] == "over":
            await c.close()
            return


class Http:
    """HTTP calls from the event loop, made by a thread (httpx's async client tries to import an
    optional module on every request, which costs more than the request)."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    async def get(self, path: str, **kw: Any) -> httpx.Response:
        return await asyncio.to_thread(self.client.get, path, **kw)

    async def post(self, path: str, **kw: Any) -> httpx.Response:
        return await asyncio.to_thread(self.client.post, path, **kw)


async def watch_http(http: Http, table: Table, rng: random.Random) -> None:
    """Mid-game: the public table facts are scanned too, and the record is refused."""
    while True:
        await asyncio.sleep(rng.uniform(0.05, 0.25))
        r = await http.get(f"/api/tables/{table.id}")
        assert r.status_code == 200
        info = r.json()
        if info["status"] == "over":
            return
        table.public.append((int(info["version"]), r.text))
        for fmt in ("toml", "egn"):
            r = await http.get(f"/api/tables/{table.id}/record", params={"format": fmt})
            if r.status_code != 409 or r.json()["error"] != "not_over":
                # The game ended meanwhile (its record is written with its last action); some
                # rules have no EGN form (409 not_exportable).
                assert r.status_code in (200, 409), r.text
                assert (await http.get(f"/api/tables/{table.id}")).json()["status"] == "over"
                return
            table.refused_records += 1


def patterns(players: int) -> list[list[int]]:
    """Which seats random clients hold, game after game (seat 0 is the host; when nobody holds it,
    a computer player stands in for it, since other people are waiting)."""
    return [[0], [0, players // 2], sorted({1, players - 1}), list(range(players)), list(range(1, players))]


async def play_game(base: str, http: Http, preset: str, rules: dict[str, Any], level: str,
                    humans: list[int], rng: random.Random) -> Table:
    r = await http.post("/api/tables", json={"mode": "friends", "preset": preset, "rules": rules, "level": level,
                                             "name": "Host"})
    assert r.status_code == 201, r.text
    created = r.json()
    table = Table(created["id"], [created["token"]] + [link["token"] for link in created["links"]])
    ws_url = base.replace("http://", "ws://") + f"/ws/{table.id}"
    tasks = []
    first = await connect(ws_url, None)
    table.seen.append(Seen(None, first))
    await first.until("state")
    for seat in humans:
        leave = rng.randrange(20, 120) if rng.random() < 0.5 else None
        tasks.append(asyncio.create_task(player(ws_url, table, seat, rng, leave_at=leave)))
    # Every seat is claimed (its first state frame is out) before the host starts.
    deadline = time.monotonic() + 10
    while len(table.seen) < 1 + len(humans) or any(s.client.state is None for s in table.seen):
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)
    r = await http.post(f"/api/tables/{table.id}/start", headers={"Authorization": f"Bearer {table.tokens[0]}"})
    assert r.status_code == 200, r.text
    tasks.append(asyncio.create_task(spectator(ws_url, table, rng.uniform(0.05, 0.5))))
    tasks.append(asyncio.create_task(watch_http(http, table, rng)))
    while True:
        f = await first.recv(30)
        if f["t"] == "state" and f["d"]["status"] == "over":
            break
    await first.close()
    await asyncio.gather(*tasks)
    return table


async def play_many(base: str, preset: str, rules: dict[str, Any], level: str, games: int,
                    seed: int) -> list[Table]:
    n = Rules.preset(preset, **rules).players
    with httpx.Client(base_url=base, timeout=30) as client:
        http = Http(client)
        jobs = []
        for k in range(games):
            humans = patterns(n)[k % 5]
            jobs.append(play_game(base, http, preset, rules, level, humans, random.Random(seed * 100 + k)))
        return list(await asyncio.gather(*jobs))


def scan(url: str, base: str, tables: list[Table]) -> dict[str, int]:
    """Check every recorded frame of every table; returns coverage counts."""
    counts: dict[str, int] = {"frames": 0, "cards": 0, "discards_to_dealer": 0}
    store = Store(url, migrate=False)
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            for table in tables:
                row = store.load_table(table.id)
                assert row is not None and row.status == "over"
                truth = truth_of(row)
                game = truth.game
                assert game is not None and game.is_over
                assert row.scores == game.scores and row.winners == list(game.winners)
                # The downloadable record is the same game (deals, actions, result).
                r = http.get(f"/api/tables/{table.id}/record")
                assert r.status_code == 200
                replayed = notation.loads(r.text).replay()
                assert [h.deal for h in replayed.hands] == [h.deal for h in game.hands]
                assert replayed.actions() == game.actions() and replayed.scores == game.scores
                for k, v in truth.kinds.items():
                    counts[k] = counts.get(k, 0) + v
                for seen in table.seen:
                    raw = seen.client.frames
                    assert raw, "every connection got frames"
                    problems = check_frames(raw, seen.recipient, truth, counts)
                    assert not problems, "\n".join(problems[:10])
                for v, text in table.public:
                    problems = leaks([json.dumps({"t": "state", "v": v}), text], None, truth)
                    assert not problems, "\n".join(problems[:10])
                counts["public"] = counts.get("public", 0) + len(table.public)
                counts["refused_records"] = counts.get("refused_records", 0) + table.refused_records
    finally:
        store.close()
    return counts


# --- the scan ------------------------------------------------------------------------------------------------
CONFIGS = [
    pytest.param("american", {}, "medium", 5, id="american"),
    pytest.param("american", {"defend_alone": True, "stick_the_dealer": True}, "easy", 5, id="american-switches"),
    pytest.param("american", {"deck": 32, "loner_lead": "loner_left", "super_euchre": True,
                              "dealer_may_discard_up_card": False, "target": 7}, "easy", 5, id="american-32"),
    pytest.param("british", {}, "medium", 5, id="british"),
    pytest.param("british", {"defend_alone": True, "stick_the_dealer": True, "target": 7}, "easy", 5,
                 id="british-switches"),
    pytest.param("long", {}, "easy", 4, id="long"),
    pytest.param("timed", {"duration": 0.02}, "easy", 5, id="timed"),
    pytest.param("two-handed", {}, "medium", 5, id="two-handed"),
    pytest.param("two-handed", {"deck": 32, "stick_the_dealer": True}, "easy", 5, id="two-handed-32"),
    pytest.param("cut-throat", {}, "medium", 5, id="cut-throat"),
    pytest.param("cut-throat", {"stick_the_dealer": True, "super_euchre": True}, "easy", 5, id="cut-throat-switches"),
]


def test_every_preset_is_scanned() -> None:
    assert {p.values[0] for p in CONFIGS} == set(PRESETS)


@pytest.mark.parametrize(("preset", "rules", "level", "games"), CONFIGS)
def test_leak_scan(preset: str, rules: dict[str, Any], level: str, games: int, tmp_path: Path) -> None:
    url = fresh_database("sqlite", tmp_path)
    seed = sum(map(ord, preset + json.dumps(rules)))
    with serve(url, bot_delay=0.0, away_timeout=0.1, hint_samples=4, hint_bid_samples=3) as base:
        tables = asyncio.run(asyncio.wait_for(play_many(base, preset, rules, level, games, seed), 150))
        counts = scan(url, base, tables)
    assert counts["frames"] > 100 * games and counts["cards"] > 1000 * games, counts
    assert counts["PLAY"] > 0 and counts.get("DISCARD", 0) > 0, counts
    assert counts["public"] > 0 and counts["refused_records"] > 0, counts
    assert counts.get("bot_in", 0) > 0, counts  # stand-ins played, their frames were scanned too
    if Rules.preset(preset, **rules).players == 4:
        assert counts.get("discards_to_dealer", 0) > 0, counts  # the dealer did see its own discard


def test_leak_scan_postgresql(tmp_path: Path) -> None:
    url = fresh_database("postgresql", tmp_path)
    with serve(url, bot_delay=0.0, away_timeout=0.1, hint_samples=4, hint_bid_samples=3) as base:

        async def one() -> list[Table]:
            with httpx.Client(base_url=base, timeout=30) as client:
                return [await play_game(base, Http(client), "american", {"target": 4}, "easy", [0, 2],
                                        random.Random(7))]

        tables = asyncio.run(asyncio.wait_for(one(), 120))
        counts = scan(url, base, tables)
    assert counts["frames"] > 50 and counts["cards"] > 500, counts


# --- the scanner itself -----------------------------------------------------------------------------------------
def test_the_scanner_finds_leaks() -> None:
    """A hand where seat 2 orders up and the dealer (seat 0) discards: fabricated frames naming an
    unplayed card of another seat, or the discard, are caught; the seat's own cards are not."""
    rules = Rules()
    game = Game(rules, seed=11, dealer=0, clock=lambda: 0.0)
    events = [EventRow(1, "start", None, None, {"bots": []}, 0.0)]

    def push(action: str) -> None:
        seat = game.to_act
        a = game.state.parse_action(action)
        game.push(a)
        events.append(EventRow(len(events) + 1, "action", seat, None, {"a": int(a)}, 0.0))

    push("pass")  # seat 1
    push("order")  # seat 2 orders; the dealer, seat 0, picks up
    hand = game.hands[0]
    buried = str(hand.deal.hands[0][0])
    push(f"discard {buried}")
    row = TableRow(id="t", created_at=None, preset="american", rules=rules.to_dict(), seed=11,  # type: ignore[arg-type]
                   dealer=0, level="easy", mode="friends", status="playing", events=events)
    truth = truth_of(row)
    v = len(events)
    own = [str(c) for c in hand.deal.hands[1]]
    other = str(hand.deal.hands[2][0])
    up = str(hand.deal.up_card)

    def frame(*cards: str) -> str:
        return json.dumps({"t": "state", "v": v, "d": {"view": {"hand": list(cards), "up_card": up}}})

    assert leaks([frame(*own)], 1, truth) == []
    assert leaks([frame(*own, other)], 1, truth)
    assert leaks([frame(own[0])], None, truth)  # a spectator sees no hand
    assert leaks([frame()], None, truth) == []
    assert leaks([frame(buried)], 0, truth) == []  # the dealer knows its discard...
    assert leaks([frame(buried)], 1, truth) and leaks([frame(buried)], None, truth)  # ...nobody else
    assert any("discard" in p for p in leaks([frame(buried)], 2, truth))
    # Whatever the field or frame type, and cards the deck lacks too.
    assert leaks([frame(), json.dumps({"t": "err", "message": f"you hold {other}!"})], 1, truth)
    assert leaks([json.dumps({"t": "chat", "d": [{"text": "7c"}]})], 1, truth)
    assert leaks([json.dumps({"t": "chat", "d": [{"text": "10h"}]})], 1, truth)
    # Not a card: inside a longer word or id.
    assert leaks([json.dumps({"t": "welcome", "d": {"table": "xJh-Qs9"}, "m": "Ahs Jhx"})], 1, truth) == []
