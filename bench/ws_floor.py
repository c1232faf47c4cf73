"""The transport floor of ``bench/server.py``: the same traffic with no game, no database, no checks.

A stand-in for ``euchre serve`` that speaks just enough of its protocol for ``bench/server.py``'s
simulated players (``POST /api/tables``, ``POST /api/tables/{id}/start``, ``/ws/{id}`` with
``hello`` and ``act``) and sends the frames the real server would: for every action the ``ack``
to the actor, then one ``state`` frame to each of the four seats; when a player joins, a
``welcome`` and the state to everyone at the table; when one leaves, the state to the others.
The frames are real: before serving, a few games are played with the engine and every seat's
state frame at every version is built by the server's own code (``LiveTable``) and kept as text.
An ``act`` from the seat to act at the current version then costs only the WebSocket traffic: no
rules, no commit, no view building, no encoding. Which legal action the player chose is ignored
(the table follows its recorded game).

So ``python bench/server.py --server floor`` measures what uvicorn, Starlette and the simulated
players cost on this machine at a given number of tables: no real server on the same stack can be
faster, so what the floor misses with some players, no server meets with them
(``bench/ws_players.mjs`` is a cheaper set of players, in Node).

    python bench/ws_floor.py [--port 0] [--games 8] [--seed 0]
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import random
import secrets
import sys
import time

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from euchre.rules import Rules
from euchre.server.core import Conn, LiveTable, _frame
from euchre.server.db import EventRow, SeatRow, TableRow
from euchre.server.run import bind

SEATS = 4


class Recording:
    """One game as the server would have sent it: every version's frame for each seat."""

    def __init__(self, seed: int) -> None:
        rules = Rules.preset("american")
        row = TableRow(id=f"rec{seed}", created_at=dt.datetime.now(dt.UTC), preset="american",
                       rules=rules.to_dict(), seed=seed, dealer=0, level="medium", mode="friends",
                       status="waiting",
                       seats=[SeatRow(s, f"t0s{s}", "human", None, host=s == 0) for s in range(SEATS)])
        table = LiveTable(row, None)  # type: ignore[arg-type]  # no hub: nothing is committed
        # every seat connected, as in the benchmark (the frames then say so)
        table.conns = {Conn(seat=s, send=print, close=print, host=s == 0) for s in range(SEATS)}
        keys: set[tuple[int | None, bool]] = {(s, s == 0) for s in range(SEATS)}
        rng = random.Random(seed)
        self.frames: list[list[str]] = []
        """``frames[v][seat]``: the state frame of version ``v`` for ``seat``."""
        self.to_act: list[int | None] = []

        def record() -> None:
            frames = table._frames(keys)
            self.frames.append([frames[(s, s == 0)] for s in range(SEATS)])
            g = table.game
            self.to_act.append(g.to_act if g is not None and not g.is_over else None)

        record()
        table._apply(EventRow(1, "start", 0, None, {"bots": []}, time.time()))
        record()
        while table.game is not None and not table.game.is_over:
            g = table.game
            action = rng.choice(g.legal_actions())
            table._apply(EventRow(table.version + 1, "action", g.to_act, None, {"a": int(action)}, time.time()))
            record()


class FloorTable:
    def __init__(self, rec: Recording) -> None:
        self.rec = rec
        self.tokens = [secrets.token_urlsafe(16) for _ in range(SEATS)]
        self.v = 0
        self.sockets: dict[int, WebSocket] = {}


def create_app(recordings: list[Recording]) -> Starlette:
    tables: dict[str, FloorTable] = {}
    turn = itertools.count()
    """Which recording the next table replays (finished tables leave ``tables``)."""

    async def broadcast(t: FloorTable) -> None:
        frames = t.rec.frames[t.v]
        for s, other in list(t.sockets.items()):
            try:
                await other.send_text(frames[s])
            except (WebSocketDisconnect, RuntimeError):
                pass  # that player is leaving too

    async def healthz(_request: Request) -> JSONResponse:
        return JSONResponse({"ok": True, "tables": len(tables)})

    async def create(_request: Request) -> JSONResponse:
        tid = secrets.token_hex(6)
        t = tables[tid] = FloorTable(recordings[next(turn) % len(recordings)])
        links = [{"seat": s, "token": t.tokens[s]} for s in range(1, SEATS)]
        return JSONResponse({"id": tid, "seat": 0, "token": t.tokens[0], "links": links, "status": "waiting"},
                            status_code=201)

    async def start(request: Request) -> JSONResponse:
        t = tables.get(request.path_params["table_id"])
        token = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if t is None or token != t.tokens[0] or t.v != 0:
            return JSONResponse({"error": "no"}, status_code=409)
        t.v = 1
        await broadcast(t)
        return JSONResponse({"id": request.path_params["table_id"], "status": "playing"})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        tid = ws.path_params["table_id"]
        t = tables.get(tid)
        seat: int | None = None
        try:
            while True:
                f = await ws.receive_json()
                if t is None:
                    await ws.close(1008)
                    return
                if f.get("t") == "hello" and f.get("token") in t.tokens:
                    seat = t.tokens.index(f["token"])
                    t.sockets[seat] = ws
                    await ws.send_text(_frame("welcome", d={"table": tid, "seat": seat, "host": seat == 0}))
                    await broadcast(t)  # the real server tells everyone of the new presence
                elif f.get("t") == "act" and seat is not None and t.rec.to_act[t.v] == seat and f.get("v") == t.v:
                    t.v += 1
                    await ws.send_text(_frame("ack", id=f.get("id"), v=t.v))
                    await broadcast(t)
                    if t.rec.to_act[t.v] is None:
                        tables.pop(tid, None)  # over: the players leave and the host opens a new table
                else:
                    await ws.send_text(_frame("err", code="refused", id=f.get("id")))
        except WebSocketDisconnect:
            pass
        finally:
            if seat is not None and t is not None and t.sockets.get(seat) is ws:
                del t.sockets[seat]
                await broadcast(t)  # and of a departure

    return Starlette(routes=[Route("/healthz", healthz), Route("/api/tables", create, methods=["POST"]),
                             Route("/api/tables/{table_id}/start", start, methods=["POST"]),
                             WebSocketRoute("/ws/{table_id}", socket)])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--games", type=int, default=8, help="recorded games the tables take in turn (default 8)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if not 0 <= a.port <= 65535 or a.games < 1:
        p.error("need 0 <= --port <= 65535 and --games >= 1")
    recordings = [Recording(a.seed * 1000 + i) for i in range(a.games)]
    try:
        sock = bind(a.host, a.port)
    except OSError as e:
        p.error(f"cannot listen on {a.host}:{a.port}: {e.strerror or e}")
    print(f"Floor server: http://{a.host}:{sock.getsockname()[1]}/", flush=True)
    # the settings of `euchre serve` (euchre/server/run.py): no compression, pings every 20 s
    cfg = uvicorn.Config(create_app(recordings), log_level="warning", ws_per_message_deflate=False,
                         ws_ping_interval=20, ws_ping_timeout=20, lifespan="off")
    try:
        uvicorn.Server(cfg).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
