"""Claims and take-backs over the WebSocket (``docs/server.md``): a practice table lets its one
person take back a card, a table with other people never does; a claim is one event that replays
to the same game, offered only when the seat's own cards make it certain; the state frames say
why a choice is missing and show computer players' levels."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from server_support import DATABASES, Client, fresh_database
from test_server_api import error, friends_table, join, live, reply, run, sync
from test_server_crash import replay

from euchre import Game
from euchre.game import certain_sweep
from euchre.rules import Rules
from euchre.server.core import Hub, ServerConfig
from euchre.server.db import Store


def _replayed(srv: Any, table_id: str) -> Game:
    """The table's game rebuilt from its stored events, as a restarted server does."""
    game = replay(srv.stored_row(table_id))
    assert game is not None
    return game


async def _my_turn(c: Client, timeout: float = 20.0) -> dict[str, Any]:
    """Read until this seat's frame offers choices; the frame's data."""
    while not (c.state and c.state["status"] == "playing" and c.state["view"] and c.state["view"]["legal"]):
        await c.recv(timeout)
    return c.state


@pytest.mark.parametrize("db", DATABASES)
def test_practice_table_takes_back_a_card(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="bots", name="Solo")
            c = await join(srv, d["id"], d["token"])
            seats = c.state["seats"]  # type: ignore[index]
            assert [s["level"] for s in seats] == [None, "easy", "easy", "easy"]
            rng = random.Random(3)
            # Nothing to take back before the first card.
            st = await _my_turn(c)
            assert st["undo"] is False
            f = await reply(c, {"t": "undo", "id": "u0", "v": c.v})
            assert f["t"] == "err" and f["code"] == "illegal" and "no card of yours" in f["message"]
            for _ in range(60):  # until a card of mine is followed by my turn in the same hand
                if st["view"]["phase"] != "play":
                    ack = await reply(c, {"t": "act", "id": f"b{c.v}", "action": rng.choice(st["view"]["legal"]),
                                          "v": c.v})
                    await sync([c], ack["v"])
                    st = await _my_turn(c)
                    continue
                played = st["view"]["legal"][0]
                hand_before, number = list(st["view"]["hand"]), st["view"]["hand_number"]
                ack = await reply(c, {"t": "act", "id": f"card{c.v}", "action": played, "v": c.v})
                assert ack["t"] == "ack"
                await sync([c], ack["v"])
                st = await _my_turn(c)
                if st["view"]["hand_number"] == number and st["undo"] and len(st["view"]["hand"]) >= 1:
                    break
            else:
                pytest.fail("never my turn again within a hand")
            v = c.v
            ack = await reply(c, {"t": "undo", "id": "undo1", "v": v})
            assert ack["t"] == "ack" and ack["v"] == v + 1
            await sync([c], v + 1)
            back = c.state
            assert back is not None and back["view"]["hand"] == hand_before and played in back["view"]["legal"]
            # The stored events replay to the same game as the table shows.
            game = _replayed(srv, d["id"])
            assert [str(x) for x in game.view(0).hand] == back["view"]["hand"]
            again = await reply(c, {"t": "undo", "id": "undo1", "v": v})  # a resend: the first answer
            assert again == ack

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_no_take_back_with_other_people_at_the_table(db: str, tmp_path: Path) -> None:
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            table_id, _, clients = await friends_table(srv)
            rng = random.Random(1)
            for _ in range(40):  # play until someone has played a card
                actor = next(c for c in clients if c.state and c.state["view"]["legal"])
                legal = actor.state["view"]["legal"]  # type: ignore[index]
                ack = await reply(actor, {"t": "act", "id": f"x{actor.v}", "action": rng.choice(legal), "v": actor.v})
                await sync(clients, ack["v"])
                if any(a["action"] and a["action"].startswith("play") for a in clients[0].state["view"]["actions"]):
                    break
            player = next(c for c in clients if any(
                a["seat"] == c.state["seat"] and (a["action"] or "").startswith("play")
                for a in c.state["view"]["actions"]))
            assert player.state["undo"] is False  # type: ignore[index]
            v = srv.version(table_id)
            f = await reply(player, {"t": "undo", "id": "no", "v": player.v})
            assert f["t"] == "err" and f["code"] == "forbidden"
            assert srv.version(table_id) == v
            spectator = await join(srv, table_id, None)
            f = await error(spectator, {"t": "claim", "id": "s1"})
            assert f["code"] == "forbidden"

        run(scenario())


@pytest.mark.parametrize("db", DATABASES)
def test_claims_are_offered_when_certain_and_replay(db: str, tmp_path: Path) -> None:
    """Play a practice game to its end, claiming whenever offered (and trying to claim when not):
    every offer is certain by the seat's own view, every refusal changes nothing, and the stored
    events (claims included) replay to the finished game."""
    with live(db, tmp_path) as srv:

        async def scenario() -> None:
            d = srv.create(mode="bots", name="Solo", rules={"target": 4})
            c = await join(srv, d["id"], d["token"])
            rng = random.Random(7)
            offers = refusals = 0
            while True:
                while not (c.state["status"] == "over" or c.state["view"]["legal"]):  # type: ignore[index]
                    await c.recv(20)
                st = c.state
                assert st is not None
                if st["status"] == "over":
                    break
                assert st["notes"] == [] or all(isinstance(n, str) and n for n in st["notes"])
                game = _replayed(srv, d["id"])
                assert st["claim"] == game.can_claim()
                if st["claim"]:
                    assert certain_sweep(game.view(0))
                    offers += 1
                    ack = await reply(c, {"t": "claim", "id": f"c{c.v}", "v": c.v})
                    assert ack["t"] == "ack"
                    await sync([c], ack["v"])
                    assert c.state["claimed"]["seat"] == 0  # type: ignore[index]
                    continue
                if st["view"]["phase"] == "play" and refusals < 3:
                    v = c.v
                    f = await reply(c, {"t": "claim", "id": f"n{v}", "v": v})
                    assert f["t"] == "err" and f["code"] == "illegal" and f["message"].startswith("no claim now")
                    assert srv.version(d["id"]) == v
                    refusals += 1
                legal = st["view"]["legal"]
                ack = await reply(c, {"t": "act", "id": f"a{c.v}", "action": rng.choice(legal), "v": c.v})
                assert ack["t"] == "ack"
                await sync([c], ack["v"])
            game = _replayed(srv, d["id"])
            assert game.is_over and list(game.scores) == c.state["scores"]  # type: ignore[index]
            assert refusals >= 1

        run(scenario(), timeout=120)


def test_a_claims_first_solve_is_made_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact solver plays a claim's line, and its first use in a process loads its compiled
    code (or waits for it to compile, on a fresh machine): that first use is made on a worker
    thread, so the event loop, and every other table, goes on meanwhile; and not on a computer
    players' thread, so a claim never queues behind their thinking (here every one of them is busy)."""
    calls: list[str] = []
    real = Game.claim_line

    def slow_first(self: Game) -> Any:
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            time.sleep(0.6)  # as loading the solver's compiled code takes
        return real(self)

    async def scenario() -> None:
        store = Store(fresh_database("sqlite", tmp_path))
        hub = Hub(store, ServerConfig(sweep_interval=0, bot_delay=0))
        await hub.start()
        try:
            table, _ = await hub.create(mode="bots", rules=Rules.preset("american"), preset="american",
                                        level="easy", name="Solo", seed=11)
            rng = random.Random(11)
            deadline = time.monotonic() + 60
            while True:  # the person plays at random until their turn can claim the rest
                assert time.monotonic() < deadline, "no claim for the person's seat"
                await asyncio.sleep(0.01)
                async with table.lock:
                    g = table.game
                    assert g is not None and table.status == "playing"
                    mine = g.to_act == 0 and not table.busy()
                    if mine and g.can_claim():
                        break
                    choice = str(rng.choice(g.legal_actions())) if mine else None
                if choice is not None:
                    await table.act(0, choice, None, table.version)
            monkeypatch.setattr(Game, "claim_line", slow_first)
            gaps: list[float] = []

            async def ticks() -> None:
                last = time.monotonic()
                while True:
                    await asyncio.sleep(0.02)
                    now = time.monotonic()
                    gaps.append(now - last)
                    last = now

            release = threading.Event()
            busy = [hub.bot_threads.submit(release.wait, 30) for _ in range(hub.config.bot_threads)]
            ticker = asyncio.ensure_future(ticks())
            try:
                await asyncio.wait_for(table.claim(0, "claim1", table.version), 10)
                assert not any(f.done() for f in busy)  # (they were busy all along)
            finally:
                ticker.cancel()
                release.set()
            assert calls and calls[0] != threading.current_thread().name, calls  # the slow first solve: off the loop
            assert not calls[0].startswith("euchre-bot"), calls  # (every computer players' thread was busy)
            assert max(gaps) < 0.4, max(gaps)  # the loop went on meanwhile
            assert table.game is not None and table.game.claims
        finally:
            await hub.stop()
            store.close()

    run(scenario())
