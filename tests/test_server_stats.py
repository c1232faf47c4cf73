"""Statistics per player (``docs/server.md``, "Player ids and statistics"), on SQLite and PostgreSQL.

A browser sends a random player id when it creates a table and in a seat's hello; ``/api/stats``
groups by that id where a seat has one (so two people who keep the default name are two rows, and
one person who renames is one row under their latest name) and by name otherwise. The id is never
sent back. The migration that adds it (``0002``) upgrades a database made at ``0001`` in place.
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
from test_server_api import check_error, join, live, play_out, run, sync, tokens_of

from euchre.bots.persona import CAST
from euchre.server.db import Store, results, seats, tables

ANN = "ann-browser-0123456789"
BEA = "bea_browser_9876543210"
QUICK = {"target": 1}
"""A game to one point: over after a hand or two."""


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
        # The shape is the old one plus ``key``.
        assert set(rows[0]) == {"name", "key", "kind", "games", "wins", "hands", "points_per_hand", "calls",
                                "make_rate", "euchred_rate", "defended", "euchre_rate", "loners", "loner_marches",
                                "matches", "match_wins"}
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
def alembic_upgrade(url: str, revision: str) -> None:
    """``alembic upgrade REVISION`` on ``url``, as :meth:`Store.migrate` runs it."""
    from alembic import command
    from alembic.config import Config

    import euchre.server.db as db_module

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db_module.__file__).parent / "migrations"))
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
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
                conn.execute(insert(tables).values(
                    id=table_id, created_at=at, preset="american", rules={}, seed=n, dealer=0, level="easy",
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
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0004"
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
