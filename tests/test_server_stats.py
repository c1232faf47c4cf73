"""Statistics per player (``docs/server.md``, "Player ids and statistics" and "Practice games"),
on SQLite and PostgreSQL.

A browser sends a random player id when it creates a table and in a seat's hello; ``/api/stats``
groups by that id where a seat has one (so two people who keep the default name are two rows, and
one person who renames is one row under their latest name) and by name otherwise. The id is never
sent back. The migration that adds it (``0002``) upgrades a database made at ``0001`` in place.

The totals count fair games only: a game where a seat took back a card or was given a hint, or
where a computer player standing in for the seat's absent person decided something for it, is a
practice game for that seat, one whose seed its creator chose for every seat, counted apart in
``practice_games``; the marks are stored (a stand-in's decisions are read from the event log), so
a restart in the middle of the game keeps them, and the migration that adds them (``0005``) marks
the old rows it can tell from what is stored; the one that adds ``stood_in`` (``0006``) keeps every
old row as it counted. The games list (``/api/games``) marks the same games by seat, from the same
stored marks, and each seat's state frames say whether its game is one already (``practice``, its
own seat only; the table's ``seeded``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import random
from pathlib import Path
from typing import Any

import pytest
from server_support import DATABASES, Client, Live, fresh_database, serve
from sqlalchemy import create_engine, insert, inspect, select, text
from test_server_api import check_error, friends_table, join, live, play_out, reply, run, sync, to_act, tokens_of

from euchre.bots.persona import CAST
from euchre.game import Game
from euchre.rules import Rules
from euchre.server.core import LiveTable
from euchre.server.db import EventRow, SeatRow, Store, TableRow, events, results, seats, tables

ANN = "ann-browser-0123456789"
BEA = "bea_browser_9876543210"
QUICK = {"target": 1}
"""A game to one point: over after a hand or two."""
HEAD = "0006"
"""The newest migration."""
SECRET = 3_141_592_653_589_793_238
"""A seed the way the server draws its secret ones (uniform below 2**62)."""


def key_of(player: str) -> str:
    return hashlib.sha256(player.encode()).hexdigest()[:12]


def stats(srv: Live) -> list[dict[str, Any]]:
    r = srv.http.get("/api/stats")
    assert r.status_code == 200, r.text
    rows: list[dict[str, Any]] = r.json()["players"]
    return rows


def humans(srv: Live) -> list[dict[str, Any]]:
    return [p for p in stats(srv) if p["kind"] == "human"]


def assert_never_exposed(srv: Live, *players: str, clients: tuple[Client, ...] = ()) -> None:
    """No raw player id in the statistics, the games list, any table's public facts or any frame
    a client received."""
    bodies = [srv.http.get("/api/stats").text, srv.http.get("/api/games").text]
    for g in srv.http.get("/api/games").json()["games"]:
        bodies.append(srv.http.get(f"/api/tables/{g['id']}").text)
        bodies.append(srv.http.get(f"/api/tables/{g['id']}/record").text)
    bodies.extend(raw for c in clients for raw in c.frames)
    for player in players:
        for body in bodies:
            assert player not in body


def solo_game(srv: Live, name: str, *, create_player: str | None = None, hello_player: str | None = None,
              seed: int = 1) -> tuple[str, Client]:
    """A game against computer players to one point, created with ``create_player`` and joined
    with ``hello_player``, played to the end; its id and the player's connection."""
    body: dict[str, Any] = {"mode": "bots", "name": name, "rules": QUICK}
    if create_player is not None:
        body["player"] = create_player
    d = srv.create(**body)

    async def scenario() -> Client:
        hello = {} if hello_player is None else {"player": hello_player}
        c = await join(srv, d["id"], d["token"], **hello)
        await play_out(c, random.Random(seed))
        await c.close()
        return c

    client: Client = run(scenario())
    return d["id"], client


@pytest.mark.parametrize("db", DATABASES)
def test_two_players_of_the_default_name_are_two_rows(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        _, a = solo_game(srv, "You", create_player=ANN, seed=1)
        # The other browser's id arrives with the hello only (a table created by an API client).
        _, b = solo_game(srv, "You", hello_player=BEA, seed=2)
        rows = humans(srv)
        assert sorted((p["name"], p["key"] or "", p["games"]) for p in rows) == sorted(
            [("You", key_of(ANN), 1), ("You", key_of(BEA), 1)])
        # The shape is the old one plus ``key`` and ``practice_games``.
        assert set(rows[0]) == {"name", "key", "kind", "games", "wins", "hands", "points_per_hand", "calls",
                                "make_rate", "euchred_rate", "defended", "euchre_rate", "loners", "loner_marches",
                                "matches", "match_wins", "practice_games"}
        # Bots are grouped by name, with no key, as before.
        bots = [p for p in stats(srv) if p["kind"] == "bot"]
        assert bots and all(p["key"] is None for p in bots)
        assert {p["name"] for p in bots} <= set(CAST["easy"]) and sum(p["games"] for p in bots) == 6
        assert_never_exposed(srv, ANN, BEA, clients=(a, b))


@pytest.mark.parametrize("db", DATABASES)
def test_one_player_under_two_names_is_one_row_with_the_later_name(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        solo_game(srv, "Ann", create_player=ANN, hello_player=ANN, seed=3)
        solo_game(srv, "Annie", create_player=ANN, hello_player=ANN, seed=4)
        assert [(p["name"], p["key"] or "", p["games"]) for p in humans(srv)] == [("Annie", key_of(ANN), 2)]
        # A later game under the first name again: the row follows the latest name.
        solo_game(srv, "Ann", create_player=ANN, seed=5)
        assert [(p["name"], p["games"]) for p in humans(srv)] == [("Ann", 3)]
        assert_never_exposed(srv, ANN)


@pytest.mark.parametrize("db", DATABASES)
def test_games_without_ids_group_by_name(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        solo_game(srv, "Solo", seed=6)
        solo_game(srv, "Solo", seed=7)
        # The same name with an id is somebody else: a row of its own.
        solo_game(srv, "Solo", create_player=ANN, seed=8)
        # A name that looks like a player id is still only a name.
        solo_game(srv, BEA[:20], seed=9)
        rows = sorted((p["name"], p["key"] or "", p["games"]) for p in humans(srv))
        assert rows == sorted([("Solo", "", 2), ("Solo", key_of(ANN), 1), (BEA[:20], "", 1)])


@pytest.mark.parametrize("db", DATABASES)
def test_a_seat_keeps_the_player_id_of_its_first_claim(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="friends", name="Host", player=ANN, rules=QUICK)
        table_id, tokens = d["id"], tokens_of(d)

        async def scenario() -> tuple[Client, ...]:
            host = await join(srv, table_id, tokens[0], player=BEA)  # the host's own seat keeps ANN
            friend = await join(srv, table_id, tokens[1], name="Bea", player=BEA)
            await friend.close()
            # The same link opened in another browser: the seat still counts for the first one.
            again = await join(srv, table_id, tokens[1], name="Bea", player="other-browser-id")
            watcher = await join(srv, table_id, None, player="watcher-browser-id")
            r = srv.start(table_id, tokens[0])
            assert r.status_code == 200, r.text
            await sync([host, again], 1)
            await asyncio.gather(play_out(host, random.Random(10)), play_out(again, random.Random(11)))
            for c in (host, again, watcher):
                await c.close()
            return host, friend, again, watcher

        clients = run(scenario())
        store = srv.store()
        try:
            row = store.load_table(table_id, with_events=False)
        finally:
            store.close()
        assert row is not None
        assert [s.player for s in row.seats] == [ANN, BEA, None, None]
        assert sorted((p["name"], p["key"] or "") for p in humans(srv)) == sorted(
            [("Host", key_of(ANN)), ("Bea", key_of(BEA))])
        assert_never_exposed(srv, ANN, BEA, "other-browser-id", "watcher-browser-id", clients=clients)


BAD_PLAYERS: list[tuple[Any, str]] = [
    ("short", "at least 8 characters"),
    ("x" * 65, "at most 64 characters"),
    ("has spaces in it", "should match pattern"),
    ("dots.are.not.ok", "should match pattern"),
    ("ünïcödé-letters", "should match pattern"),
    (12345678, "valid string"),
    ("", "at least 8 characters"),
]


@pytest.mark.parametrize("db", DATABASES)
def test_a_malformed_player_id_is_refused_and_creates_nothing(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        for bad, words in BAD_PLAYERS:
            r = srv.post_table(mode="bots", name="You", player=bad)
            check_error(r, 422, "malformed")
            message = r.json()["message"]
            assert message.startswith("player: ") and words in message, message
        assert srv.health()["tables"] == 0
        store = srv.store()
        try:
            assert store.table_count() == 0
        finally:
            store.close()

        d = srv.create(mode="friends", name="Host", rules=QUICK)

        async def scenario() -> None:
            for bad, words in BAD_PLAYERS:
                c = await Client.connect(srv.ws(d["id"]), tokens_of(d)[1], name="Friend", player=bad)
                f = await c.until("err", timeout=5)
                assert f["code"] == "malformed", f
                assert f["message"].startswith("hello.player: ") and words in f["message"], f
                assert not [x for x in c.frames if '"welcome"' in x]
                await c.close()

        run(scenario())
        seat = srv.info(d["id"])["seats"][1]
        assert seat["kind"] != "human" and seat["name"] == "Player 2", seat
        store = srv.store()
        try:
            row = store.load_table(d["id"], with_events=False)
        finally:
            store.close()
        assert row is not None and [s.player for s in row.seats] == [None] * 4


# --- the migration -----------------------------------------------------------------------------------
def alembic_upgrade(url: str, revision: str, *, down: bool = False) -> None:
    """``alembic upgrade REVISION`` (``downgrade`` with ``down``) on ``url``, as
    :meth:`Store.migrate` runs it."""
    from alembic import command
    from alembic.config import Config

    import euchre.server.db as db_module

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db_module.__file__).parent / "migrations"))
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, revision)
    finally:
        engine.dispose()


@pytest.mark.parametrize("db", DATABASES)
def test_the_migration_upgrades_a_0001_database_in_place(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    alembic_upgrade(url, "0001")
    engine = create_engine(url)
    try:
        assert "player" not in {c["name"] for c in inspect(engine).get_columns("seats")}
        at = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
        with engine.begin() as conn:
            for n, name in enumerate(["Old", "Old", "Older"]):
                table_id = f"old-table-{n}"
                # (Secret seeds, as the server draws them: a short one would read as chosen, 0005.)
                conn.execute(insert(tables).values(
                    id=table_id, created_at=at, preset="american", rules={}, seed=SECRET + n, dealer=0, level="easy",
                    mode="bots", status="over", finished_at=at, scores=[10, 3], winners=[0], record="x"))
                conn.execute(insert(seats).values(table_id=table_id, seat=0, name=name, kind="human",
                                                  token_hash="0" * 64, host=True))
                conn.execute(insert(results).values(
                    table_id=table_id, seat=0, name=name, kind="human", won=True, hands=3, points_for=10,
                    points_against=3, calls=2, made=2, euchred=0, defended=1, euchres=1, loners=0,
                    loner_marches=0))
    finally:
        engine.dispose()

    store = Store(url)  # upgrades to the head, as the server does when it starts
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
            assert conn.execute(select(seats.c.name, seats.c.player).order_by(seats.c.table_id)).all() == [
                ("Old", None), ("Old", None), ("Older", None)]
            assert conn.execute(select(results.c.player)).scalars().all() == [None] * 3
        indexes = {i["name"] for i in inspect(store.engine).get_indexes("results")}
        assert {"ix_results_name", "ix_results_player"} <= indexes
        assert sorted((p["name"], p["key"] or "", p["games"]) for p in store.stats()) == [
            ("Old", "", 2), ("Older", "", 1)]
        # 0003: the old rows are single games, each won game a game win, no matches.
        assert sorted((p["name"], p["wins"], p["matches"]) for p in store.stats()) == [("Old", 2, 0), ("Older", 1, 0)]
    finally:
        store.close()

    # The upgraded database serves new games beside the old rows.
    with serve(url) as srv:
        solo_game(srv, "Old", create_player=ANN, seed=12)
        assert sorted((p["name"], p["key"] or "", p["games"]) for p in humans(srv)) == sorted(
            [("Old", "", 2), ("Older", "", 1), ("Old", key_of(ANN), 1)])
        assert len(srv.http.get("/api/games").json()["games"]) == 4


# --- practice games ------------------------------------------------------------------------------------
FAIR = (False, False, False)
"""A result's marks (took back, hinted, seeded) when nobody was helped."""


def marks(srv: Live, table_id: str) -> list[tuple[bool, ...]]:
    """Each seat's stored result marks of the table: (took back, hinted, seeded), by seat."""
    store = srv.store()
    try:
        with store.engine.connect() as conn:
            q = (select(results.c.took_back, results.c.hinted, results.c.seeded)
                 .where(results.c.table_id == table_id).order_by(results.c.seat))
            return [tuple(bool(x) for x in r) for r in conn.execute(q)]
    finally:
        store.close()


def stood_in(srv: Live, table_id: str) -> list[bool]:
    """Each seat's stored ``stood_in`` mark of the table, by seat."""
    store = srv.store()
    try:
        with store.engine.connect() as conn:
            q = select(results.c.stood_in).where(results.c.table_id == table_id).order_by(results.c.seat)
            return [bool(x) for x in conn.execute(q).scalars()]
    finally:
        store.close()


def listed(srv: Live, table_id: str) -> dict[str, Any]:
    """The finished table's entry in ``/api/games``."""
    r = srv.http.get("/api/games")
    assert r.status_code == 200, r.text
    games = [g for g in r.json()["games"] if g["id"] == table_id]
    assert len(games) == 1, games
    game: dict[str, Any] = games[0]
    return game


def practice_listed(srv: Live, table_id: str) -> tuple[bool, list[bool | None], list[list[str]]]:
    """What ``/api/games`` says of the table's practice games: (seeded, practice by seat, the
    reasons by seat)."""
    g = listed(srv, table_id)
    return g["seeded"], g["practice"], g["practice_reasons"]


async def turn(c: Client) -> dict[str, Any]:
    """Read until this seat's frame offers choices; the frame's data (the game must go on)."""
    while not (c.state and c.state["status"] == "playing" and c.state["view"] and c.state["view"]["legal"]):
        assert not (c.state and c.state["status"] == "over"), "the game ended first"
        await c.recv(20)
    return c.state


async def take_back(c: Client, rng: random.Random) -> None:
    """Play at random until the seat may take back a card, and take it back (the game goes on)."""
    for _ in range(200):
        st = await turn(c)
        if st["undo"]:
            ack = await reply(c, {"t": "undo", "id": f"u{c.v}", "v": c.v})
            assert ack["t"] == "ack", ack
            await sync([c], ack["v"])
            return
        ack = await reply(c, {"t": "act", "id": f"t{c.v}", "action": rng.choice(st["view"]["legal"]), "v": c.v})
        assert ack["t"] == "ack", ack
        await sync([c], ack["v"])
    pytest.fail("never a card to take back")


async def ask_hint(c: Client) -> list[dict[str, Any]]:
    """At the seat's turn, ask for a hint; its answer (asserted given)."""
    await turn(c)
    await c.send({"t": "hint"})
    while True:
        f = await c.recv(30)
        assert f["t"] != "err", f
        if f["t"] == "hint":
            assert f["d"], f
            answer: list[dict[str, Any]] = f["d"]
            return answer


@pytest.mark.parametrize("db", DATABASES)
def test_a_take_back_makes_a_practice_game_of_that_seat_only(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="bots", name="Tess", player=ANN, rules={"target": 5})

        async def scenario() -> None:
            c = await join(srv, d["id"], d["token"])
            assert c.state is not None and c.state["practice"] is False and c.state["seeded"] is False  # (fair so far)
            rng = random.Random(21)
            await take_back(c, rng)
            # The frame of the take-back itself says the game is a practice game now, and every one after.
            assert c.state is not None and c.state["practice"] is True and c.state["seeded"] is False
            assert c.state["practice_reasons"] == ["took_back"]  # (the page's tag says why)
            await play_out(c, rng)
            assert c.state is not None and c.state["status"] == "over" and c.state["practice"] is True
            await c.close()

        run(scenario())
        assert marks(srv, d["id"]) == [(True, False, False), FAIR, FAIR, FAIR]
        # The games list marks Tess's seat alone, with why.
        assert practice_listed(srv, d["id"]) == (False, [True, False, False, False], [["took_back"], [], [], []])
        rows = stats(srv)
        # Tess's game is kept apart: none of it in the totals and rates, one practice game.
        assert [(p["name"], p["key"], p["games"], p["wins"], p["hands"], p["calls"], p["defended"],
                 p["points_per_hand"], p["practice_games"]) for p in rows if p["kind"] == "human"] == [
            ("Tess", key_of(ANN), 0, 0, 0, 0, 0, None, 1)]
        # The computer players took nothing back: their game counts.
        bots = [p for p in rows if p["kind"] == "bot"]
        assert sum(p["games"] for p in bots) == 3 and all(p["hands"] > 0 and p["practice_games"] == 0 for p in bots)


@pytest.mark.parametrize("db", DATABASES)
def test_a_hint_makes_a_practice_game_of_that_seat_only(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> tuple[str, int]:
            table_id, _, clients = await friends_table(srv, **QUICK)
            watcher = await join(srv, table_id, None)
            everyone = [*clients, watcher]
            assert [c.state["practice"] for c in everyone] == [False] * 5  # type: ignore[index]
            seat = to_act(clients[0])
            await ask_hint(clients[seat])
            # Noted before the answer was sent, on the seat alone, and no event: nobody's version moves.
            assert [s.hinted for s in srv.stored_row(table_id).seats] == [s == seat for s in range(4)]
            assert srv.version(table_id) == 1
            await ask_hint(clients[seat])  # asked again: the same, nothing more to note
            # The next frames: the hinted seat's says its game is a practice game now; nobody
            # else's tells of that seat's hint (the others' games are fair, a spectator has none).
            st = clients[seat].state
            assert st is not None
            ack = await reply(clients[seat], {"t": "act", "id": "after-hint", "action": st["view"]["legal"][0],
                                              "v": clients[seat].v})
            assert ack["t"] == "ack", ack
            await sync(everyone, ack["v"])
            assert [c.state["practice"] for c in everyone] == [s == seat for s in range(4)] + [False]  # type: ignore[index]
            assert [c.state["practice_reasons"] for c in everyone] == [  # type: ignore[index]
                ["hinted"] if s == seat else [] for s in range(4)] + [[]]
            assert not any(c.state["seeded"] for c in everyone)  # type: ignore[index]
            await asyncio.gather(*(play_out(c, random.Random(30 + s)) for s, c in enumerate(clients)))
            for c in everyone:
                await c.close()
            return table_id, seat

        table_id, seat = run(scenario(), timeout=120)
        assert marks(srv, table_id) == [(False, s == seat, False) for s in range(4)]
        assert practice_listed(srv, table_id) == (False, [s == seat for s in range(4)],
                                                  [["hinted"] if s == seat else [] for s in range(4)])
        rows = {p["name"]: (p["games"], p["practice_games"], p["hands"] > 0) for p in humans(srv)}
        assert rows == {f"P{s}": ((0, 1, False) if s == seat else (1, 0, True)) for s in range(4)}


@pytest.mark.parametrize("db", DATABASES)
def test_a_chosen_seed_makes_a_practice_game_of_every_seat_and_its_rematch_is_fair(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="bots", name="Sid", player=ANN, seed=7, rules=QUICK)

        async def first() -> None:
            c = await join(srv, d["id"], d["token"])
            # A practice game from its first frame, before any hint or take-back: the table is seeded.
            assert c.state is not None and c.state["practice"] is True and c.state["seeded"] is True
            watcher = await join(srv, d["id"], None)
            assert watcher.state is not None and watcher.state["seeded"] is True and watcher.state["practice"] is False
            assert c.state["practice_reasons"] == ["seeded"] and watcher.state["practice_reasons"] == []
            await watcher.close()
            await ask_hint(c)  # (the rematch starts without it)
            await play_out(c, random.Random(7))
            await c.close()

        run(first())
        assert marks(srv, d["id"]) == [(False, True, True), (False, False, True), (False, False, True),
                                       (False, False, True)]
        # The games list: the chosen deal on the table, and every seat a practice game.
        assert practice_listed(srv, d["id"]) == (True, [True] * 4,
                                                 [["hinted", "seeded"], ["seeded"], ["seeded"], ["seeded"]])
        r = srv.http.post(f"/api/tables/{d['id']}/rematch", headers={"Authorization": f"Bearer {d['token']}"})
        assert r.status_code == 200, r.text
        again = r.json()["id"]

        async def second() -> None:
            c = await join(srv, again, d["token"])
            assert c.state is not None and c.state["practice"] is False and c.state["seeded"] is False
            await play_out(c, random.Random(8))
            await c.close()

        run(second())
        # The rematch deals from a new secret seed, and nobody has asked for a hint there.
        assert marks(srv, again) == [FAIR] * 4
        assert practice_listed(srv, again) == (False, [False] * 4, [[]] * 4)
        assert [(p["name"], p["games"], p["practice_games"]) for p in humans(srv)] == [("Sid", 1, 1)]
        bots = [p for p in stats(srv) if p["kind"] == "bot"]
        assert sum(p["games"] for p in bots) == 3 and sum(p["practice_games"] for p in bots) == 3


@pytest.mark.parametrize("db", DATABASES)
def test_a_restart_in_the_middle_of_the_game_keeps_the_marks(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    with serve(url) as srv:
        d = srv.create(mode="bots", name="Rex", rules={"target": 5})

        async def before() -> None:
            c = await join(srv, d["id"], d["token"])
            await take_back(c, random.Random(5))
            await ask_hint(c)
            await c.close()

        run(before())
        assert srv.info(d["id"])["status"] == "playing"
    # Another server on the database: the table is replayed from what is stored, nothing in memory.
    with serve(url) as srv:
        async def after() -> None:
            c = await join(srv, d["id"], d["token"])
            # (the first frame after the restart already says so: a reloaded page does not warn again)
            assert c.state is not None and c.state["practice"] is True and c.state["seeded"] is False
            await play_out(c, random.Random(6))
            await c.close()

        run(after())
        assert marks(srv, d["id"]) == [(True, True, False), FAIR, FAIR, FAIR]
        assert [(p["name"], p["games"], p["practice_games"]) for p in humans(srv)] == [("Rex", 0, 1)]


def old_table(conn: Any, table_id: str, *, mode: str, seed: int, at: dt.datetime, status: str = "over",
              players: tuple[str, ...] = (), undo_by: int | None = None, stood_in_for: int | None = None) -> None:
    """A table as stored before 0005 (``players``: a seat each, a human then computer players,
    with a result row once over; ``undo_by``: a seat whose take-back is among its events;
    ``stood_in_for``: a seat a stand-in came in for, acted for and left)."""
    conn.execute(insert(tables).values(
        id=table_id, created_at=at, preset="american", rules={}, seed=seed, dealer=0, level="easy", mode=mode,
        status=status, finished_at=at if status == "over" else None))
    log = [("start", None), ("action", 0), ("action", 1)]
    if undo_by is not None:
        log += [("action", undo_by), ("undo", undo_by)]
    if stood_in_for is not None:
        log += [("bot_in", stood_in_for), ("action", stood_in_for), ("bot_out", stood_in_for)]
    conn.execute(insert(events), [
        {"table_id": table_id, "seq": n, "kind": kind, "seat": seat, "payload": {}, "at": at.timestamp()}
        for n, (kind, seat) in enumerate(log, 1)])
    for seat, name in enumerate(players):
        conn.execute(insert(seats).values(table_id=table_id, seat=seat, name=name,
                                          kind="human" if seat == 0 else "bot", token_hash=None, host=seat == 0))
        if status != "over":
            continue
        conn.execute(insert(results).values(
            table_id=table_id, seat=seat, name=name, kind="human" if seat == 0 else "bot", won=seat == 0, hands=2,
            points_for=3, points_against=1, calls=1, made=1, euchred=0, defended=1, euchres=0, loners=0,
            loner_marches=0))


@pytest.mark.parametrize("db", DATABASES)
def test_the_migration_marks_the_old_practice_games_it_can_tell(db: str, tmp_path: Path) -> None:
    url = fresh_database(db, tmp_path)
    alembic_upgrade(url, "0004")
    engine = create_engine(url)
    day = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    try:
        with engine.begin() as conn:
            old_table(conn, "fair", mode="bots", seed=SECRET, at=day, players=("Fay", "Bob"))
            old_table(conn, "undone", mode="bots", seed=SECRET + 1, at=day, players=("Uma", "Bob"), undo_by=0)
            old_table(conn, "short", mode="bots", seed=7, at=day, players=("Sam", "Bob"))
            # A friends game, then its seed (read in its record) played again against computers.
            old_table(conn, "original", mode="friends", seed=SECRET + 2, at=day, players=("Ora",))
            old_table(conn, "copy", mode="bots", seed=SECRET + 2, at=day + dt.timedelta(hours=1), players=("Cy",))
            old_table(conn, "friends", mode="friends", seed=5, at=day, players=("Fred",))  # (never chosen)
            old_table(conn, "live", mode="bots", seed=9, at=day, status="playing", players=("Liv", "Bob"))
    finally:
        engine.dispose()

    store = Store(url)  # upgrades to the head, as the server does when it starts
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
            got = {(r[0], r[1]): tuple(bool(x) for x in r[2:]) for r in conn.execute(
                select(results.c.table_id, results.c.seat, results.c.took_back, results.c.hinted, results.c.seeded))}
            seeded = dict(conn.execute(select(tables.c.id, tables.c.seeded)).all())
            hinted = conn.execute(select(seats.c.hinted)).scalars().all()
            assert len(hinted) == 11 and not any(hinted)  # (hints left no trace before)
        assert got == {("fair", 0): FAIR, ("fair", 1): FAIR,
                       ("undone", 0): (True, False, False), ("undone", 1): FAIR,
                       ("short", 0): (False, False, True), ("short", 1): (False, False, True),
                       ("original", 0): FAIR, ("copy", 0): (False, False, True), ("friends", 0): FAIR}
        assert {k for k, v in seeded.items() if v} == {"short", "copy", "live"}
        assert {p["name"]: (p["games"], p["practice_games"]) for p in store.stats()} == {
            "Fay": (1, 0), "Uma": (0, 1), "Sam": (0, 1), "Ora": (1, 0), "Cy": (0, 1), "Fred": (1, 0), "Bob": (2, 1)}
    finally:
        store.close()
    # The games list marks the same games, with the same reasons ("live" is not over: not listed).
    store = Store(url)
    try:
        games = {g["id"]: (g["seeded"], g["practice"], g["practice_reasons"]) for g in store.games()}
    finally:
        store.close()
    assert games == {"fair": (False, [False, False], [[], []]),
                     "undone": (False, [True, False], [["took_back"], []]),
                     "short": (True, [True, True], [["seeded"], ["seeded"]]),
                     "original": (False, [False], [[]]), "copy": (True, [True], [["seeded"]]),
                     "friends": (False, [False], [[]])}
    # And back down to 0004, with every row kept.
    alembic_upgrade(url, "0004", down=True)
    engine = create_engine(url)
    try:
        assert not {"took_back", "hinted", "seeded", "stood_in"} & {
            c["name"] for c in inspect(engine).get_columns("results")}
        assert "seeded" not in {c["name"] for c in inspect(engine).get_columns("tables")}
        assert "hinted" not in {c["name"] for c in inspect(engine).get_columns("seats")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM results")).scalar() == 9
    finally:
        engine.dispose()


@pytest.mark.parametrize("db", DATABASES)
def test_the_games_list_marks_practice_games_as_the_statistics_count_them(db: str, tmp_path: Path) -> None:
    """``/api/games`` (:meth:`Store.games`) reads each seat's practice game from its stored result
    marks, with the statistics' own test (:func:`~euchre.server.db.practice_of`): every listed
    seat marked practice is one ``practice_games`` counts, every other one a game it counts. A
    finished table without result rows (none is written now; a row lost by hand) lists its seats
    as unknown (``None``), which the statistics do not count either."""
    url = fresh_database(db, tmp_path)
    store = Store(url)  # the head's schema
    day = dt.datetime(2026, 12, 8, tzinfo=dt.UTC)
    try:
        with store.engine.begin() as conn:
            for n, (table_id, name) in enumerate([("fair", "Fay"), ("hinted", "Hal"), ("undone", "Uma"),
                                                  ("both", "Bo"), ("seeded", "Sid"), ("rowless", "Ro")]):
                old_table(conn, table_id, mode="bots", seed=SECRET + n, at=day + dt.timedelta(minutes=n),
                          players=(name, "Bob", "Bea", "Bert"))
            conn.execute(results.update().where(results.c.table_id.in_(["hinted", "both"]), results.c.seat == 0)
                         .values(hinted=True))
            conn.execute(results.update().where(results.c.table_id.in_(["undone", "both"]), results.c.seat == 0)
                         .values(took_back=True))
            conn.execute(tables.update().where(tables.c.id == "seeded").values(seeded=True))
            conn.execute(results.update().where(results.c.table_id == "seeded").values(seeded=True))
            conn.execute(results.delete().where(results.c.table_id == "rowless"))
        games = store.games()
        rows = store.stats()
    finally:
        store.close()
    # Newest first, each seat by its number as ``players`` lists them.
    assert [g["id"] for g in games] == ["rowless", "seeded", "both", "undone", "hinted", "fair"]
    got = {g["id"]: (g["players"][0], g["seeded"], g["practice"], g["practice_reasons"]) for g in games}
    assert got == {
        "fair": ("Fay", False, [False] * 4, [[]] * 4),
        "hinted": ("Hal", False, [True, False, False, False], [["hinted"], [], [], []]),
        "undone": ("Uma", False, [True, False, False, False], [["took_back"], [], [], []]),
        "both": ("Bo", False, [True, False, False, False], [["took_back", "hinted"], [], [], []]),
        "seeded": ("Sid", True, [True] * 4, [["seeded"]] * 4),
        "rowless": ("Ro", False, [None] * 4, [[]] * 4),
    }
    # The statistics count exactly those: a seat listed practice is a practice game of its
    # player, a seat listed fair a game (the rowless table is in neither).
    practice: dict[str, int] = {}
    fair: dict[str, int] = {}
    for g in games:
        for name, mark in zip(g["players"], g["practice"], strict=True):
            if mark is not None:
                (practice if mark else fair)[name] = (practice if mark else fair).get(name, 0) + 1
    assert {p["name"]: (p["games"], p["practice_games"]) for p in rows} == {
        name: (fair.get(name, 0), practice.get(name, 0)) for name in {*practice, *fair}}
    assert "Ro" not in {p["name"] for p in rows}


# --- stand-ins -------------------------------------------------------------------------------------------
AWAY = 0.2
"""The away timeout of the stand-in tests: a computer player stands in that long after a seat's
last connection went."""


async def drop_for_a_stand_in(clients: list[Client]) -> int:
    """At a friends table just started (version 1), the seat to act drops: a computer player
    stands in (version 2) and decides for it at once (version 3; no bot delay), and the seat to
    act next is a person's. The seat; the others' connections have version 3."""
    x = to_act(clients[0])
    await clients[x].close()
    others = [c for s, c in enumerate(clients) if s != x]
    await sync(others, 3, timeout=10)
    st = others[0].state
    assert st is not None and st["seats"][x]["bot"] is True and st["last"]["seat"] == x, st
    assert to_act(others[0]) != x
    return x


@pytest.mark.parametrize("db", DATABASES)
def test_a_stand_in_that_plays_makes_a_practice_game_of_that_seat_only(db: str, tmp_path: Path) -> None:
    """A person drops, the computer player standing in for them decides for their seat, they come
    back and the game is played to its end: a practice game for that seat alone (``stood_in``),
    which the statistics count apart and the games list gives the reason of; the seat's frames say
    so from its return on, nobody else's."""
    with live(db, tmp_path, away_timeout=AWAY) as srv:

        async def scenario() -> tuple[str, int]:
            table_id, tokens, clients = await friends_table(srv, **QUICK)
            watcher = await join(srv, table_id, None)
            x = await drop_for_a_stand_in(clients)
            # Back: the hello sends the stand-in home (version 4), and the seat's first frame
            # already says the game is a practice game for it.
            back = await join(srv, table_id, tokens[x])
            assert back.v == 4 and back.state is not None and back.state["practice"] is True
            assert back.state["practice_reasons"] == ["stood_in"]
            assert back.state["seats"][x]["bot"] is False
            clients[x] = back
            everyone = [*clients, watcher]
            await sync(everyone, 4)
            assert [c.state["practice"] for c in everyone] == [s == x for s in range(4)] + [False]  # type: ignore[index]
            await asyncio.gather(*(play_out(c, random.Random(40 + s)) for s, c in enumerate(clients)))
            assert [c.state["practice"] for c in clients] == [s == x for s in range(4)]  # type: ignore[index]
            for c in everyone:
                await c.close()
            return table_id, x

        table_id, x = run(scenario(), timeout=120)
        log = [(e.kind, e.seat) for e in srv.stored_row(table_id).events]
        assert log[:4] == [("start", None), ("bot_in", x), ("action", x), ("bot_out", x)]
        assert [kind for kind, _ in log[4:]] == ["action"] * (len(log) - 4)  # (nobody else was stood in for)
        assert stood_in(srv, table_id) == [s == x for s in range(4)]
        assert marks(srv, table_id) == [FAIR] * 4  # (no take-back, hint or chosen seed)
        assert practice_listed(srv, table_id) == (False, [s == x for s in range(4)],
                                                  [["stood_in"] if s == x else [] for s in range(4)])
        rows = {p["name"]: (p["games"], p["practice_games"], p["hands"] > 0) for p in humans(srv)}
        assert rows == {f"P{s}": ((0, 1, False) if s == x else (1, 0, True)) for s in range(4)}


@pytest.mark.parametrize("db", DATABASES)
def test_a_stand_in_that_never_decided_leaves_the_game_fair(db: str, tmp_path: Path) -> None:
    """A person drops while another is to act: a computer player stands in for them, but they are
    back before their seat's turn. The stand-in decided nothing, so the game stays fair for
    everyone, in the frames, the results, the games list and the statistics."""
    with live(db, tmp_path, away_timeout=AWAY) as srv:

        async def scenario() -> tuple[str, int]:
            table_id, tokens, clients = await friends_table(srv, **QUICK)
            x = (to_act(clients[0]) + 2) % 4  # (two seats to act before it)
            await clients[x].close()
            others = [c for s, c in enumerate(clients) if s != x]
            await sync(others, 2, timeout=10)  # the stand-in comes in
            assert others[0].state["seats"][x]["bot"] is True  # type: ignore[index]
            await asyncio.sleep(3 * AWAY)
            assert srv.version(table_id) == 2  # (nobody is to act but a person who is here)
            back = await join(srv, table_id, tokens[x])  # the stand-in goes home (version 3)
            assert back.v == 3 and back.state is not None and back.state["practice"] is False
            clients[x] = back
            await sync(clients, 3)
            await asyncio.gather(*(play_out(c, random.Random(50 + s)) for s, c in enumerate(clients)))
            assert [c.state["practice"] for c in clients] == [False] * 4  # type: ignore[index]
            for c in clients:
                await c.close()
            return table_id, x

        table_id, x = run(scenario(), timeout=120)
        log = [(e.kind, e.seat) for e in srv.stored_row(table_id).events]
        assert log[:3] == [("start", None), ("bot_in", x), ("bot_out", x)]
        assert stood_in(srv, table_id) == [False] * 4
        assert practice_listed(srv, table_id) == (False, [False] * 4, [[]] * 4)
        assert {p["name"]: (p["games"], p["practice_games"]) for p in humans(srv)} == {
            f"P{s}": (1, 0) for s in range(4)}


@pytest.mark.parametrize("db", DATABASES)
def test_a_restart_keeps_the_stand_in_mark(db: str, tmp_path: Path) -> None:
    """The stand-in decides for a seat, and the server stops before its person is back: another
    server replays the table from its stored events alone, and knows the game is a practice game
    for that seat (its frames, then its results)."""
    url = fresh_database(db, tmp_path)
    with serve(url, away_timeout=AWAY) as srv:

        async def before() -> tuple[str, list[str], int]:
            table_id, tokens, clients = await friends_table(srv, **QUICK)
            x = await drop_for_a_stand_in(clients)
            for s, c in enumerate(clients):
                if s != x:
                    await c.close()
            return table_id, tokens, x

        table_id, tokens, x = run(before())
        assert srv.info(table_id)["status"] == "playing"
    # Another server on the database (no stand-ins there: only the replay can mark the seat).
    with serve(url, away_timeout=0) as srv:

        async def after() -> None:
            clients = [await join(srv, table_id, token) for token in tokens]  # seat x's sends its stand-in home
            await sync(clients, 4)
            assert [c.state["practice"] for c in clients] == [s == x for s in range(4)]  # type: ignore[index]
            await asyncio.gather(*(play_out(c, random.Random(60 + s)) for s, c in enumerate(clients)))
            for c in clients:
                await c.close()

        run(after(), timeout=120)
        assert [(e.kind, e.seat) for e in srv.stored_row(table_id).events][:4] == [
            ("start", None), ("bot_in", x), ("action", x), ("bot_out", x)]
        assert stood_in(srv, table_id) == [s == x for s in range(4)]
        assert practice_listed(srv, table_id)[2] == [["stood_in"] if s == x else [] for s in range(4)]
        assert {p["name"]: p["practice_games"] for p in humans(srv)} == {f"P{s}": int(s == x) for s in range(4)}


def test_the_stand_in_mark_is_read_from_the_log_alone() -> None:
    """A table replayed from its events alone (as after a restart, no hub, no connection) marks a
    seat ``stood_in`` for an action of its between its ``bot_in`` and ``bot_out``, and carries the
    mark into its frames' ``practice`` and its results: not for a stand-in that came and went
    without a decision, nor for the person's own actions after, nor for a seat never stood in for."""
    rules = Rules.preset("american")
    game = Game(rules, seed=SECRET, dealer=0, clock=lambda: 0.0)
    log: list[EventRow] = []
    rng = random.Random(3)

    def event(kind: str, seat: int | None, payload: dict[str, Any] | None = None) -> None:
        log.append(EventRow(len(log) + 1, kind, seat, None, payload or {}, 0.0))

    def act(*, pass_: bool = False) -> None:
        """The seat to act decides at random (``pass_``: passes, so the next seat is to act)."""
        legal = game.legal_actions()
        action = next(a for a in legal if str(a) == "pass") if pass_ else rng.choice(legal)
        event("action", game.to_act, {"a": int(game.push(action))})

    event("start", None, {"bots": []})
    played = game.to_act
    event("bot_in", played)
    act(pass_=True)  # the stand-in's decision
    event("bot_out", played)
    came_and_went = game.to_act
    event("bot_in", came_and_went)
    event("bot_out", came_and_went)
    act(pass_=True)  # the person's own, back in time
    stays = game.to_act
    event("bot_in", stays)
    while not game.is_over:  # the stand-in keeps the seat to the end, the others play on
        act()
    assert len({played, came_and_went, stays}) == 3
    row = TableRow(id="t", created_at=dt.datetime(2026, 12, 7, tzinfo=dt.UTC), preset="american",
                   rules=rules.to_dict(), seed=SECRET, dealer=0, level="easy", mode="friends", status="playing",
                   seats=[SeatRow(s, f"P{s}", "human", None) for s in range(4)], events=log)
    table = LiveTable(row, None)  # type: ignore[arg-type]  # replaying needs no hub
    assert table.status == "over" and table.standin == {stays}
    assert table.stood_in == {played, stays}
    assert [table.assisted(s) for s in range(4)] == [s in (played, stays) for s in range(4)]
    assert table.assisted(None) is False
    assert table.game is not None
    assert [r["stood_in"] for r in table._results([table.game])] == [s in (played, stays) for s in range(4)]
    # A claim is a decision too; an undo or a seat's comings and goings are not.
    assert table.stand_in_decides("claim", stays) and not table.stand_in_decides("claim", played)
    assert not any(table.stand_in_decides(kind, stays) for kind in ("undo", "bot_in", "bot_out", "start"))


def result_rows(conn: Any) -> list[dict[str, Any]]:
    """Every ``results`` row, every column, in a fixed order."""
    return [dict(r) for r in conn.execute(text("SELECT * FROM results ORDER BY table_id, seat")).mappings()]


@pytest.mark.parametrize("db", DATABASES)
def test_the_migration_adds_stood_in_and_keeps_every_row(db: str, tmp_path: Path) -> None:
    """``0006`` upgrades a database made at ``0005`` in place: every result row is kept with its
    marks, and gets ``stood_in`` false, a stand-in's decisions in its events or not (the old games
    count as they did); down to ``0005`` again, the column goes and the rows stay."""
    url = fresh_database(db, tmp_path)
    alembic_upgrade(url, "0005")
    engine = create_engine(url)
    day = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)
    try:
        assert "stood_in" not in {c["name"] for c in inspect(engine).get_columns("results")}
        with engine.begin() as conn:
            old_table(conn, "fair", mode="friends", seed=SECRET, at=day, players=("Fay", "Bob"))
            old_table(conn, "hinted", mode="friends", seed=SECRET + 1, at=day, players=("Hal", "Bob"))
            conn.execute(results.update().where(results.c.table_id == "hinted", results.c.seat == 0)
                         .values(hinted=True))
            old_table(conn, "stood", mode="friends", seed=SECRET + 2, at=day, players=("Sal", "Bob"), stood_in_for=0)
            before = result_rows(conn)
    finally:
        engine.dispose()
    assert len(before) == 6

    store = Store(url)  # upgrades to the head, as the server does when it starts
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
            after = result_rows(conn)
        assert [{k: v for k, v in r.items() if k != "stood_in"} for r in after] == before
        assert [bool(r["stood_in"]) for r in after] == [False] * 6
        assert {p["name"]: (p["games"], p["practice_games"]) for p in store.stats()} == {
            "Fay": (1, 0), "Hal": (0, 1), "Sal": (1, 0), "Bob": (3, 0)}
        reasons = {g["id"]: g["practice_reasons"] for g in store.games()}
        assert reasons == {"fair": [[], []], "hinted": [["hinted"], []], "stood": [[], []]}
    finally:
        store.close()

    alembic_upgrade(url, "0005", down=True)
    engine = create_engine(url)
    try:
        assert "stood_in" not in {c["name"] for c in inspect(engine).get_columns("results")}
        with engine.connect() as conn:
            assert result_rows(conn) == before
    finally:
        engine.dispose()
