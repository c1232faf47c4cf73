"""The web application: pages, the JSON API and the WebSocket endpoint (FastAPI on Starlette).

A thin layer: it checks who is asking (seat tokens, origins, rates and sizes) and hands
everything else to :mod:`euchre.server.core`, which asks the engine. Protocol: ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from euchre import egn, notation
from euchre.bots.base import bot_descriptions
from euchre.bots.levels import DEFAULT_LEVEL, LEVELS
from euchre.errors import EuchreError
from euchre.explain import preset_title, rules_from_strings, rules_payload, rules_sections, sections_to_dicts
from euchre.rules import PRESET_DESCRIPTIONS, PRESETS, Rules
from euchre.server.core import Conn, Hub, LiveTable, Refusal, ServerConfig, Unloaded, _frame
from euchre.server.db import Store
from euchre.server.guard import LOOPBACK_NAMES, BodyLimit, HostCheck, SecurityHeaders, client_key, is_loopback
from euchre.server.messages import (
    MAX_FRAME,
    Act,
    Chat,
    Claim,
    Hello,
    Hint,
    Ping,
    PlayerId,
    Start,
    Undo,
    clean_text,
    parse_frame,
    reserved_name,
)

__all__ = ["create_app", "TokenBucket", "RateLimiter", "client_key"]

log = logging.getLogger("euchre.server")
STATIC = Path(__file__).parent / "static"

MAX_OFFSET = 2**31 - 1
"""Largest ``offset`` of a listing (every database's integers hold it)."""


class TokenBucket:
    """``rate`` messages a second with bursts of ``burst``: a person never notices it, a flood
    does."""

    def __init__(self, burst: float, rate: float, clock: Any = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = burst
        self.last = clock()

    def take(self) -> bool:
        t = self.clock()
        self.tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
        self.last = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)

    def wait(self) -> float:
        """Seconds until the next token (0 if there is one now)."""
        t = self.clock()
        tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class RateLimiter:
    """One :class:`TokenBucket` per client address: ``per_minute`` with bursts of ``burst``.

    Memory stays bounded: buckets are kept least recently used first, and one untouched for
    ``burst / rate`` seconds is full again, the same as no bucket, so it is dropped (a few at each
    :meth:`take`, oldest first); past ``max_keys`` addresses the oldest are dropped anyway (which
    only forgives them).
    """

    def __init__(self, per_minute: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("a rate limit needs per_minute > 0 and burst >= 1")
        self.rate = per_minute / 60
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}
        """Least recently used first (a dict keeps insertion order; a used key is moved last)."""

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0 if it had one, else the seconds until it will."""
        t = self.clock()
        stale = t - self.burst / self.rate
        while self.buckets:
            oldest = next(iter(self.buckets))
            if self.buckets[oldest].last > stale and len(self.buckets) < self.max_keys:
                break
            del self.buckets[oldest]
        bucket = self.buckets.pop(key, None) or TokenBucket(self.burst, self.rate, self.clock)
        self.buckets[key] = bucket
        return 0.0 if bucket.take() else bucket.wait()


def _seconds(wait: float) -> int:
    """A wait as whole seconds, at least 1 (``Retry-After`` and the messages)."""
    return max(1, math.ceil(wait - 1e-6))


REFUSAL_STATUS = {"forbidden": 403, "not_found": 404, "table_abandoned": 410, "unavailable": 503,
                  "damaged": 500, "busy": 503, "full": 503, "too_many_tables": 429}
"""The HTTP status of a refusal's code, where it is not the request's own fault (400 or 409)."""

MAX_MESSAGE = 300
"""Longest error message an answer carries, in characters: an answer never grows with the request
(a rules object of a million bad keys gets one short line)."""


def short(message: str) -> str:
    """A message cut to :data:`MAX_MESSAGE` characters."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, short(message)
        self.headers = headers

    @classmethod
    def of(cls, e: Refusal, default: int = 400) -> ApiError:
        return cls(REFUSAL_STATUS.get(e.code, default), e.code, e.message)


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    mode: str = "bots"
    preset: str = "american"
    rules: Annotated[dict[str, Any], Field(max_length=64)] = Field(default_factory=dict)
    """Fields of :class:`~euchre.rules.Rules` to change from the preset (a few dozen exist)."""
    level: str = DEFAULT_LEVEL
    name: Annotated[str, Field(max_length=24)] = "You"
    player: PlayerId | None = None
    """The host's player id (see :data:`~euchre.server.messages.PlayerId`), kept on seat 0."""
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None
    """The seed of the deals, for a game against computer players only (a deal to play again,
    like ``euchre play --seed``); a friends table's deal stays a secret of the server."""


def _origin_ok(origin: str, server: tuple[str, int] | None, allowed: set[str]) -> bool:
    """A browser's WebSocket comes from an allowed origin (``--allow-origin``) or from this
    server's own pages, judged by the address the connection came in on, never by the Host header
    (which a DNS-rebinding page sets to its own name): on a loopback address, ``localhost`` or a
    loopback address with this port; otherwise exactly this address and port."""
    if origin in allowed:
        return True
    if server is None:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    if port != server[1]:
        return False
    if is_loopback(server[0]):
        return parts.hostname in LOOPBACK_NAMES or is_loopback(parts.hostname)
    return parts.hostname == server[0].lower()


def create_app(database_url: str, *, config: ServerConfig | None = None,
               allow_origins: list[str] | None = None, clock: Callable[[], float] = time.monotonic) -> FastAPI:
    """The application, serving the tables kept in ``database_url``. ``clock`` is the per-address
    rate limits' clock (tests move it by hand)."""
    config = config or ServerConfig()
    allowed = set(allow_origins or [])
    connects = (RateLimiter(config.connect_limit, config.connect_burst, clock)
                if config.connect_limit > 0 else None)
    creates = RateLimiter(config.create_limit, config.create_burst, clock) if config.create_limit > 0 else None
    hints = RateLimiter(config.hint_limit, config.hint_burst, clock) if config.hint_limit > 0 else None
    refused_origins: set[str] = set()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, database_url)
        hub = Hub(store, config)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="Euchre", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    # Outermost last: the Host check first, then the headers every answer gets, then the body
    # cap, so nothing past it ever parses more than MAX_BODY bytes.
    app.add_middleware(BodyLimit, max_body=config.max_body)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostCheck, allowed_hosts=[h for o in allowed if (h := urlsplit(o).hostname)])
    app.state.connect_limiter = connects
    app.state.create_limiter = creates

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, e: ApiError) -> JSONResponse:
        return JSONResponse({"error": e.code, "message": e.message}, status_code=e.status, headers=e.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, e: RequestValidationError) -> JSONResponse:
        err = e.errors()[0] if e.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "request"
        return JSONResponse({"error": "malformed", "message": short(f"{where}: {err.get('msg')}")}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> JSONResponse | FileResponse:
        path = request.url.path
        api = path == "/api" or path.startswith("/api/")
        if (e.status_code == 404 and request.method in ("GET", "HEAD") and not api
                and "text/html" in request.headers.get("accept", "")):
            # A browser at a wrong address gets a page with a way home; the API keeps its JSON.
            return FileResponse(STATIC / "notfound.html", status_code=404, headers={"Cache-Control": "no-cache"})
        code = "not_found" if e.status_code == 404 else "bad_request"
        return JSONResponse({"error": code, "message": short(str(e.detail))}, status_code=e.status_code)

    @app.exception_handler(SQLAlchemyError)
    async def _database(_request: Request, e: SQLAlchemyError) -> JSONResponse:
        hub_of(_request).log_failure("a database read", e, path=_request.url.path)
        return JSONResponse({"error": "unavailable", "message": "the database is not answering; try again in a moment"},
                            status_code=503, headers={"Retry-After": "5"})

    async def table_or_404(request: Request, table_id: str) -> LiveTable:
        """The table, or 404; an abandoned one is 410 (it existed, and is gone for good)."""
        try:
            table = await hub_of(request).get(table_id)
        except Refusal as e:
            raise ApiError.of(e) from None
        if table is None:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        if table.status == "abandoned":
            raise ApiError.of(config.abandoned())
        return table

    def bearer(authorization: str | None) -> str:
        return (authorization or "").removeprefix("Bearer ").strip()

    def seat_of(table: LiveTable, token: str) -> int:
        """The seat of the ``Authorization`` token at this table, or 403."""
        seat = table.seat_of(token) if token else None
        if seat is None:
            raise ApiError(403, "forbidden", "a seat token of this table is needed (Authorization: Bearer TOKEN)")
        return seat

    def limit_creates(request: Request) -> None:
        """Creating or starting a table costs a token of the client address's bucket; without
        one the answer is 429 with ``Retry-After``, and nothing is created."""
        if creates is None:
            return
        wait = creates.take(client_key(request.client.host if request.client else None))
        if wait > 0:
            n = _seconds(wait)
            raise ApiError(429, "too_many_tables",
                           f"too many tables opened or started from your address; try again in {n} seconds",
                           headers={"Retry-After": str(n)})

    # --- pages ----------------------------------------------------------------------------------
    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/games", include_in_schema=False)
    async def games_page() -> FileResponse:
        return page("games.html")

    @app.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return page("stats.html")

    # The replay viewer: /replay, /replay/{id}, /api/games/{id}/replay, POST /api/replay.
    from euchre.server.replay_api import install_replay

    install_replay(app, page=page, table_or_404=table_or_404, limiter=hints)

    @app.get("/learn", include_in_schema=False)
    async def learn_page() -> FileResponse:
        return page("learn.html")

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> dict[str, Any]:
        return {"ok": True, **hub_of(request).stats()}

    # --- API ------------------------------------------------------------------------------------
    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """What a new table can be: presets with their rules, levels, and the bots."""
        return {
            "presets": [{"name": n, "description": PRESET_DESCRIPTIONS.get(n, ""), "rules": Rules.preset(n).to_dict(),
                         "title": preset_title(n), "words": sections_to_dicts(rules_sections(Rules.preset(n)))}
                        for n in PRESETS],
            "levels": list(LEVELS), "default_level": DEFAULT_LEVEL, "bots": bot_descriptions(),
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        limit_creates(request)
        try:
            rules = Rules.preset(body.preset, **body.rules)
        except (EuchreError, TypeError, ValueError) as e:
            raise ApiError(400, "bad_rules", short(str(e))) from None
        name = clean_text(body.name) or "You"
        if (why := reserved_name(name)) is not None:
            raise ApiError(400, "bad_name", why)
        if body.seed is not None and body.mode != "bots":
            raise ApiError(400, "bad_seed", "a seed is only for a game against computer players: the deal of a "
                                            "table with friends stays secret")
        try:
            table, tokens = await hub_of(request).create(
                mode=body.mode, rules=rules, preset=Rules.resolve_preset(body.preset), level=body.level.lower(),
                name=name, player=body.player, seed=body.seed,
                client=client_key(request.client.host if request.client else None))
        except Refusal as e:
            raise ApiError.of(e) from None
        links = [{"seat": s, "token": t, "url": f"/table/{table.id}#token={t}"} for s, t in tokens]
        return {"id": table.id, "seat": 0, "token": links[0]["token"], "url": links[0]["url"],
                "watch_url": f"/table/{table.id}", "links": links[1:], "status": table.status}

    @app.post("/api/tables/{table_id}/start")
    async def start_table(table_id: str, request: Request,
                          authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        limit_creates(request)
        token = bearer(authorization)
        for _ in range(3):  # again if the table was put away (idle) between the get and the start
            table = await table_or_404(request, table_id)
            seat = seat_of(table, token)
            try:
                await table.start(seat)
            except Unloaded:
                continue
            except Refusal as e:
                raise ApiError.of(e, 409) from None
            return {"id": table.id, "status": table.status}
        raise ApiError(503, "unavailable", "the table is being put away; try again")

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch_table(table_id: str, request: Request,
                            authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """A new game for the same seats and rules, once this one is over (see ``Hub.rematch``);
        every seat's link works at the new table with its own token."""
        limit_creates(request)
        token = bearer(authorization)
        table = await table_or_404(request, table_id)
        seat = seat_of(table, token)
        client = client_key(request.client.host if request.client else None)
        try:
            new = await hub_of(request).rematch(table, seat, client)
        except Refusal as e:
            raise ApiError.of(e, 409) from None
        return {"id": new.id, "status": new.status, "url": f"/table/{new.id}#token={token}",
                "watch_url": f"/table/{new.id}"}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, table_id)
        async with table.lock:
            d = table.state_data(None)
            d.pop("view")
            d.pop("previous")
            return {**d, "version": table.version}

    @app.get("/api/rules")
    async def rules_explained(request: Request, preset: str = "american") -> dict[str, Any]:
        """A preset's rules (any other query parameter is a switch: ``stick_the_dealer=yes``) in
        plain words, with how to play: what the ``/learn`` page shows."""
        switches = {k: v for k, v in request.query_params.items() if k != "preset"}
        try:
            return rules_payload(rules_from_strings(preset, switches), preset)
        except EuchreError as e:
            raise ApiError(400, "bad_rules", short(str(e))) from None

    @app.get("/api/tables/{table_id}/rules")
    async def table_rules(table_id: str, request: Request) -> dict[str, Any]:
        """The rules a table plays by, in plain words (``/learn?table=ID``)."""
        table = await table_or_404(request, table_id)
        return rules_payload(table.rules, table.row.preset)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request,
                     format: Annotated[str, Query(pattern="^(toml|egn)$")] = "toml") -> PlainTextResponse:
        hub = hub_of(request)
        text = await asyncio.to_thread(hub.store.record, table_id)
        if text is None:
            await table_or_404(request, table_id)
            raise ApiError(409, "not_over", "the record is available once the game is over")
        filename = f"euchre-{table_id}.{'egn' if format == 'egn' else 'toml'}"
        if format == "egn":
            try:
                text = egn.dumps(notation.loads(text))
            except EuchreError as e:
                raise ApiError(409, "not_exportable", str(e)) from None
        media = "application/json" if format == "egn" else "application/toml"
        return PlainTextResponse(text, media_type=media,
                                 headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.get("/api/games")
    async def games(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> dict[str, Any]:
        hub = hub_of(request)
        return {"games": await hub.read(hub.store.games, limit, offset)}

    @app.get("/api/stats")
    async def stats(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        return {"players": await hub.read(hub.store.stats)}

    # --- the table's socket -----------------------------------------------------------------------
    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        origin = ws.headers.get("origin")
        server = ws.scope.get("server")
        if origin is not None and not _origin_ok(origin, tuple(server) if server else None, allowed):
            if len(refused_origins) < 100 and origin[:200] not in refused_origins:
                # Said once per origin: a page reached by a name the server cannot know (a LAN
                # host name, a proxy's domain) needs --allow-origin.
                refused_origins.add(origin[:200])
                log.warning("refused a game socket from the origin %s; if that is this server's own address, "
                            "start it with --allow-origin %s", origin[:200], origin[:200],
                            extra={"ctx": {"event": "origin refused", "origin": origin[:200]}})
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        if connects is not None:
            wait = connects.take(client_key(ws.client.host if ws.client else None))
            if wait > 0:
                # As the flood limit: say why, then close (1008); nothing else is read or touched.
                with contextlib.suppress(Exception):
                    await ws.send_text(_frame(
                        "err", id=None, code="too_many_connections",
                        message=f"too many new connections from your address; try again in {_seconds(wait)} seconds"))
                    await ws.close(code=1008)
                return
        hub = hub_of(ws)

        async def send(text: str) -> None:
            with contextlib.suppress(Exception):
                await ws.send_text(text)

        async def close(code: int) -> None:
            with contextlib.suppress(Exception):
                await ws.close(code=code)

        conn = Conn(seat=None, send=send, close=close)
        pump = asyncio.create_task(conn.pump())
        try:
            table = await hub.get(table_id)
        except Refusal as e:
            # Damaged, or the database is down: said, then closed (1011: the server's trouble).
            await send(_frame("err", id=None, code=e.code, message=e.message))
            pump.cancel()
            await close(1011)
            return
        session = _Session(hub, table, conn, table_id, client_key(ws.client.host if ws.client else None), hints)
        try:
            await session.run(ws)
        finally:
            if session.table is not None and conn in session.table.conns:
                await session.table.leave(conn)
            for t in session.tasks:
                t.cancel()
            pump.cancel()  # the socket is gone: frames still queued have nowhere to go

    return app


class _Session:
    """One WebSocket's conversation: hello first, then actions, chat, hints; every refusal is an
    ``err`` frame and the connection stays open (except a sustained flood)."""

    FLOOD_LIMIT = 50
    FLOOD_WINDOW = 10.0
    """More than ``FLOOD_LIMIT`` refused frames (of any kind: over the rate, malformed, too big,
    forbidden, illegal...) within ``FLOOD_WINDOW`` seconds close the socket (1008)."""

    def __init__(self, hub: Hub, table: LiveTable | None, conn: Conn, table_id: str, client: str = "?",
                 hints: RateLimiter | None = None) -> None:
        self.hub = hub
        self.client = client
        self.hints = hints
        self.table = table
        self.conn = conn
        self.table_id = table_id
        self.joined = False
        self.bucket = TokenBucket(20, 10)
        self.chat_bucket = TokenBucket(3, 1)
        self.refused: deque[float] = deque()
        self.tasks: set[asyncio.Task[None]] = set()
        self.hinting = False

    SERVER_SIDE = frozenset({"unavailable", "busy", "damaged"})
    """Refusals that are the server's trouble, not the client's: never counted as a flood (a
    client retrying through a database outage is not attacking)."""

    def err(self, code: str, message: str, id: str | None = None) -> None:
        """Refuse a frame: an ``err`` frame, counted towards the flood limit."""
        if code not in self.SERVER_SIDE:
            t = self.bucket.clock()
            self.refused.append(t)
            while self.refused and self.refused[0] < t - self.FLOOD_WINDOW:
                self.refused.popleft()
        self.conn.push(_frame("err", id=id, code=code, message=message))

    def flooding(self) -> bool:
        return len(self.refused) > self.FLOOD_LIMIT

    async def run(self, ws: WebSocket) -> None:
        hello_by = asyncio.get_running_loop().time() + self.hub.config.hello_timeout
        while True:
            if self.flooding():
                self.conn.push(_frame("err", id=None, code="rate",
                                      message="too many refused messages; closing the connection"))
                await asyncio.sleep(0.05)
                await self.conn.close(1008)
                return
            try:
                if self.joined or self.hub.config.hello_timeout <= 0:
                    msg = await ws.receive()
                else:
                    # A socket that never says hello is closed (1008): it holds a connection
                    # and a file descriptor for nothing.
                    async with asyncio.timeout_at(hello_by):
                        msg = await ws.receive()
            except TimeoutError:
                self.conn.push(_frame("err", id=None, code="malformed",
                                      message=f"no hello within {self.hub.config.hello_timeout:g} seconds; closing"))
                await asyncio.sleep(0.05)
                await self.conn.close(1008)
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if msg["type"] == "websocket.disconnect":
                return
            text = msg.get("text")
            if text is None:
                self.err("malformed", "frames must be JSON text, not binary")
                continue
            if not self.bucket.take():
                self.err("rate", "too many messages; slow down")
                continue
            if len(text.encode()) > MAX_FRAME:
                self.err("too_big", f"frames are limited to {MAX_FRAME} bytes")
                continue
            try:
                frame = parse_frame(text)
            except ValueError as e:
                self.err("malformed", str(e))
                continue
            await self.handle(frame)

    async def handle(self, frame: Hello | Act | Claim | Undo | Chat | Hint | Start | Ping) -> None:
        if isinstance(frame, Ping):
            self.conn.push(_frame("pong"))
            return
        table = self.table
        if table is None:
            self.err("not_found", f"no table {self.table_id!r}")
            return
        if table.status == "abandoned":
            e = self.hub.config.abandoned()
            self.err(e.code, e.message, frame.id if isinstance(frame, Act | Claim | Undo) else None)
            return
        if isinstance(frame, Hello):
            await self.hello(table, frame)
            return
        if not self.joined:
            self.err("malformed", "the first frame must be hello")
            return
        seat = self.conn.seat
        if isinstance(frame, Act | Claim | Undo):
            if seat is None:
                self.err("forbidden", "spectators cannot act", frame.id)
                return
            try:
                if isinstance(frame, Act):
                    await table.act(seat, frame.action, frame.id, frame.v, reply=self.conn)
                elif isinstance(frame, Claim):
                    await table.claim(seat, frame.id, frame.v, reply=self.conn)
                else:
                    await table.undo(seat, frame.id, frame.v, reply=self.conn)
                # An accepted action costs no rate token: the game's own pace bounds those, and a
                # player (or bot) acting quickly must never be refused for it.
                self.bucket.refund()
            except Refusal as e:
                self.err(e.code, e.message, frame.id)
                if e.code == "stale":
                    async with table.lock:
                        self.conn.push(table.state_frame(seat, self.conn.host))
                return
        elif isinstance(frame, Chat):
            if not self.chat_bucket.take():
                self.err("rate", "one chat message a second")
                return
            text = clean_text(frame.text)
            if text:
                try:
                    await table.say(seat, text)
                except Refusal as e:
                    self.err(e.code, e.message)
        elif isinstance(frame, Hint):
            if seat is None:
                self.err("forbidden", "spectators get no hints")
                return
            if self.hinting:
                self.err("rate", "a hint is already being worked out")
                return
            if self.hints is not None and (wait := self.hints.take(self.client)) > 0:
                self.err("rate", f"too many hints from your address; try again in {_seconds(wait)} seconds")
                return
            self.hinting = True
            task = asyncio.create_task(self._hint(table, seat))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif isinstance(frame, Start):
            try:
                await table.start(seat)
            except Refusal as e:
                self.err(e.code, e.message)

    async def _hint(self, table: LiveTable, seat: int) -> None:
        try:
            hints = await table.hint(seat)
            self.conn.push(_frame("hint", d=hints))
        except Refusal as e:
            self.err(e.code, e.message)
        except Exception:
            log.exception("hint failed")
            self.err("unavailable", "the hint could not be worked out")
        finally:
            self.hinting = False

    async def hello(self, table: LiveTable, frame: Hello) -> None:
        if self.joined:
            self.err("malformed", "hello was already said on this connection")
            return
        name = clean_text(frame.name) if frame.name else None
        if name and (why := reserved_name(name)) is not None:
            self.err("bad_name", why)
            return
        for _ in range(3):
            seat = None
            if frame.token is not None:
                seat = table.seat_of(frame.token)
                if seat is None:
                    self.err("forbidden", "this link is not valid for this table (or its seat is played by a computer)")
                    return
            self.conn.seat = seat
            self.conn.host = seat is not None and table.seats[seat].host
            try:
                await table.join(self.conn, name or None, frame.player if seat is not None else None)
            except Unloaded:
                # Put away (idle) since this socket opened: the hub replays it afresh.
                fresh = await self.hub.get(self.table_id)
                if fresh is None:
                    self.err("not_found", f"no table {self.table_id!r}")
                    return
                self.table = table = fresh
                continue
            except Refusal as e:
                self.conn.seat = None
                self.conn.host = False
                self.err(e.code, e.message)
                return
            self.joined = True
            return
        self.conn.seat = None
        self.conn.host = False
        gone = Unloaded()
        self.err(gone.code, gone.message)
