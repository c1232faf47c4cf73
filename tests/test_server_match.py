"""Matches on the server (RULES-FAMILY.md 12.5): a table under match rules plays game after game
to the match's end, every frame carries the match score, the finished table keeps the whole
match as one record and in the statistics, a restart rebuilds the match from its events, and a
refused commit of a game's last card changes nothing (the match does not count the game)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from server_support import DATABASES, Client
from test_server_api import join, live, run
from test_server_attack import Faults, faults  # noqa: F401 - the fixture
from test_server_crash import replay

from euchre import notation
from euchre.match import Match
from euchre.server.core import LiveTable

MATCH = {"match_wins": 2, "target": 3}


async def _play_match(c: Client, rng: random.Random, timeout: float = 90.0) -> list[dict[str, Any]]:
    """Seat ``c`` plays random legal actions until the table is over (starting from the state
    it has); every state frame's data."""
    assert c.state is not None
    seen: list[dict[str, Any]] = [c.state]
    deadline = time.monotonic() + timeout
    n = 0
    acted = -1
    while True:
        d = c.state
        if d["status"] == "over":
            return seen
        view = d["view"]
        if view is not None and view["legal"] and c.v > acted:
            n += 1
            acted = c.v
            await c.send({"t": "act", "id": f"a{n}", "action": rng.choice(view["legal"]), "v": c.v})
        f = await c.recv(max(0.01, deadline - time.monotonic()))
        if f["t"] == "state":
            seen.append(f["d"])
        elif f["t"] == "err" and f.get("code") in ("unavailable", "rate"):
            # The database refused (or the retries came too fast for the rate limit): act again
            # at this version after a pause, as a client backs off.
            acted = -1
            await asyncio.sleep(0.2)


def _replayed_match(srv: Any, table_id: str) -> tuple[Any, Any]:
    """The table's stored row and the game its events replay to (as a restart rebuilds it)."""
    row = srv.stored_row(table_id)
    return row, replay(row)


@pytest.mark.parametrize("db", DATABASES)
def test_a_table_plays_a_whole_match(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:
        d = srv.create(mode="bots", name="Solo", rules=MATCH)

        async def scenario() -> list[dict[str, Any]]:
            c = await join(srv, d["id"], d["token"])
            assert c.state is not None and c.state["match"] == {
                "game": 1, "wins": [0, 0], "match_games": None, "match_wins": 2, "winner": None,
                "standing": "game wins 0 - 0 (first to 2)", "games": []}
            return await _play_match(c, random.Random(5))

        frames = run(scenario(), timeout=150)
        final = frames[-1]["match"]
        assert final["winner"] is not None and final["wins"][final["winner"]] == 2
        played = len(final["games"])
        assert played == final["game"] >= 2 and sum(final["wins"]) == played
        # Each game after the first: the table stayed in play, the score went back to 0 and the
        # frames said how the game before ended (the last hand's result, with its game).
        for number in range(2, played + 1):
            first = next(f for f in frames if f["match"]["game"] == number)
            assert first["status"] == "playing" and first["scores"] == [0, 0]
            assert first["result"] is not None and first["result"]["game"] == number - 1
            assert len(first["match"]["games"]) == number - 1
            # The last hand of the game before is ``previous`` until the new game's first card
            # (through its first bids), then no more.
            opening = [f for f in frames if f["match"]["game"] == number and f["view"]["hand_number"] == 0]
            dealt = [f for f in opening if not (f["view"]["tricks"] or f["view"]["trick"])]
            assert any(f["view"]["actions"] for f in dealt)
            for f in dealt:
                assert f["previous"] is not None and f["previous"]["hand_number"] == first["result"]["hand"]
                assert f["previous"]["tricks"] and f["previous"]["points"] is not None
            assert all(f["previous"] is None for f in opening if f not in dealt)
        # The finished table: the whole match as one record, which replays to the same score.
        r = srv.http.get(f"/api/tables/{d['id']}/record")
        assert r.status_code == 200
        rec = notation.loads_any(r.text)
        assert isinstance(rec, notation.MatchRecord) and len(rec.games) == played
        assert rec.replay().wins == final["wins"]
        listed = next(g for g in srv.http.get("/api/games").json()["games"] if g["id"] == d["id"])
        assert listed["scores"] == final["wins"] and listed["winners"] == [final["winner"]]
        # The statistics count the games of the match and the match itself.
        solo = next(p for p in srv.http.get("/api/stats").json()["players"] if p["name"] == "Solo")
        assert solo["games"] == played and solo["wins"] == sum(0 in g["winners"] for g in final["games"])
        assert solo["matches"] == 1 and solo["match_wins"] == (1 if final["winner"] == 0 else 0)
        # A restart rebuilds the same match from the events: the test's own replay, and the
        # server's (a LiveTable made from the stored row, as Hub.start makes it).
        row, game = _replayed_match(srv, d["id"])
        assert game is not None and game.is_over and game.scores == frames[-1]["scores"]
        table = LiveTable(row, None)  # type: ignore[arg-type]  # replaying needs no hub
        assert table.status == "over" and table.match is not None and table.match.to_dict() == final
        assert table.game is table.match.game and table.game.scores == frames[-1]["scores"]


@pytest.mark.parametrize("db", ["sqlite"])
def test_a_refused_game_end_does_not_count_for_the_match(db: str, tmp_path: Path, faults: Faults,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit of the action that ends game 1 is refused: the table stays at the version it
    had, game 1 is still being played and the match counts nothing; the retry goes on."""
    refused: list[int] = []
    real_settle = Match.settle

    def settle(self: Match) -> bool:
        first = not self.results and self.game.is_over
        if first and not refused:
            faults.down = {"event"}  # the commit that follows is this game's end
        return real_settle(self)

    monkeypatch.setattr(Match, "settle", settle)
    with live(db, tmp_path) as srv:
        d = srv.create(mode="bots", name="Solo", rules=MATCH)

        async def scenario() -> list[dict[str, Any]]:
            c = await join(srv, d["id"], d["token"])
            task = asyncio.ensure_future(_play_match(c, random.Random(2)))
            deadline = time.monotonic() + 60
            while not faults.refused and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert faults.refused, "game 1 never ended"
            refused.append(srv.version(d["id"]))
            info = srv.info(d["id"])
            assert info["status"] == "playing"
            await asyncio.sleep(0.3)
            assert srv.version(d["id"]) == refused[0]  # nothing was committed meanwhile
            # In memory too: the table's state is still game 1, not counted.
            c2 = await join(srv, d["id"], None)
            assert c2.state is not None and c2.state["match"]["game"] == 1 and c2.state["match"]["wins"] == [0, 0]
            await c2.close()
            faults.heal()
            return await task

        frames = run(scenario(), timeout=150)
        assert frames[-1]["match"]["winner"] is not None
        row, game = _replayed_match(srv, d["id"])
        assert game is not None and game.is_over


def test_a_finished_match_replays_game_by_game_and_exports_as_emn(tmp_path: Path) -> None:
    """The viewer's API answers one game of the match at a time (``?game=N``) with the match's
    outcome; the EGN download of a match is EMN (a fixed number of games), and a match EMN
    cannot say (to a number of wins) is refused with the reason."""
    from euchre import egn

    with live("sqlite", tmp_path) as srv:
        fixed = srv.create(mode="bots", name="Solo", rules={"match_games": 2, "target": 3})
        wins = srv.create(mode="bots", name="Solo", rules=MATCH)

        async def scenario() -> None:
            for d in (fixed, wins):
                c = await join(srv, d["id"], d["token"])
                await _play_match(c, random.Random(7))
                await c.close()

        run(scenario(), timeout=150)
        first = srv.http.get(f"/api/games/{fixed['id']}/replay").json()
        count = first["match"]["count"]
        assert first["match"]["shown"] == 1 and count >= 2 and first["match"]["winner"] is not None
        second = srv.http.get(f"/api/games/{fixed['id']}/replay?game=2").json()
        assert second["match"]["shown"] == 2 and second["steps"] != first["steps"]
        r = srv.http.get(f"/api/games/{fixed['id']}/replay?game={count + 1}")
        assert r.status_code == 400 and f"the match has {count} games; there is no game {count + 1}" in r.text
        r = srv.http.get(f"/api/tables/{fixed['id']}/record?format=egn")
        assert r.status_code == 200 and f"euchre-{fixed['id']}.emn" in r.headers["content-disposition"]
        games = egn.loads_match(r.text)
        assert len(games) == count and games[0].players == ["Solo", *games[0].players[1:]]
        r = srv.http.get(f"/api/tables/{wins['id']}/record?format=egn")
        assert r.status_code == 409 and "EMN cannot express this match: a match to 2 game wins" in r.text
        # An uploaded match record is shown the same way.
        text = srv.http.get(f"/api/tables/{fixed['id']}/record").text
        up = srv.http.post("/api/replay?game=2", json={"record": text})
        assert up.status_code == 200 and up.json()["match"]["shown"] == 2


@pytest.mark.parametrize(("preset", "rules"), [("hasenpfeffer", {"match_wins": 2, "target": 4, "slam": True}),
                                               ("napoleon", {"match_games": 2, "target": 6, "players": 3})],
                         ids=["hasenpfeffer", "napoleon"])
def test_a_sister_game_plays_a_match(preset: str, rules: dict[str, Any], tmp_path: Path) -> None:
    """RULES-FAMILY.md 12.5 ("the match fields serve any game with a target"): a table of a sister
    game plays its match to the end, and the record it keeps replays to the same match."""
    with live("sqlite", tmp_path) as srv:
        d = srv.create(mode="bots", name="Solo", preset=preset, rules=rules, level="medium")

        async def scenario() -> list[dict[str, Any]]:
            c = await join(srv, d["id"], d["token"])
            assert c.state is not None and c.state["match"]["game"] == 1
            return await _play_match(c, random.Random(3))

        final = run(scenario(), timeout=150)[-1]["match"]
        assert final["winner"] is not None and len(final["games"]) >= 1
        rec = notation.loads_any(srv.http.get(f"/api/tables/{d['id']}/record").text)
        assert isinstance(rec, notation.MatchRecord) and rec.rules.sister_game is not None
        assert rec.replay().wins == final["wins"]
        row, _ = _replayed_match(srv, d["id"])
        table = LiveTable(row, None)  # type: ignore[arg-type]  # replaying needs no hub
        assert table.status == "over" and table.match is not None and table.match.to_dict() == final
