"""The table's WebSocket: who may open one (origin, per-address rate), then one :class:`Session`
per socket, which hands every frame to :class:`~euchre.server.core.LiveTable`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from euchre.server.core import Conn, Hub, LiveTable, Refusal, Unloaded, _frame
from euchre.server.guard import LOOPBACK_NAMES, is_loopback
from euchre.server.limits import RateLimiter, TokenBucket, seconds
from euchre.server.messages import (
    MAX_FRAME,
    Act,
    Chat,
    Claim,
    FrameError,
    Hello,
    Hint,
    Ping,
    Start,
    Undo,
    clean_text,
    parse_frame,
    reserved_name,
)
from euchre.server.routes.common import client_of, hub_of, shared

log = logging.getLogger("euchre.server")

router = APIRouter()


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


@router.websocket("/ws/{table_id}")
async def socket(ws: WebSocket, table_id: str) -> None:
    deps = shared(ws)
    origin = ws.headers.get("origin")
    server = ws.scope.get("server")
    if origin is not None and not _origin_ok(origin, tuple(server) if server else None, deps.allowed_origins):
        if len(deps.refused_origins) < 100 and origin[:200] not in deps.refused_origins:
            # Said once per origin: a page reached by a name the server cannot know (a LAN
            # host name, a proxy's domain) needs --allow-origin.
            deps.refused_origins.add(origin[:200])
            if origin.startswith(("http://", "https://")):
                log.warning("refused a game socket from the origin %s; if that is this server's own address, "
                            "start it with --allow-origin %s", origin[:200], origin[:200],
                            extra={"ctx": {"event": "origin refused", "origin": origin[:200]}})
            else:  # ("null": a sandboxed page or a file; allowing it would let any such page in)
                log.warning("refused a game socket from the origin %s (no web address: a sandboxed page or a "
                            "local file)", origin[:200], extra={"ctx": {"event": "origin refused",
                                                                     "origin": origin[:200]}})
        await ws.close(code=1008, reason="origin not allowed")
        return
    await ws.accept()
    if deps.connects is not None:
        wait = deps.connects.take(client_of(ws))
        if wait > 0:
            # As the flood limit: say why, then close (1008); nothing else is read or touched.
            with contextlib.suppress(Exception):
                await ws.send_text(_frame(
                    "err", id=None, code="too_many_connections",
                    message=f"too many new connections from your address; try again in {seconds(wait)} seconds"))
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
    session = Session(hub, table, conn, table_id, client_of(ws), deps.hints, bucket=deps.bucket)
    try:
        await session.run(ws)
    finally:
        if session.table is not None and conn in session.table.conns:
            await session.table.leave(conn)
        for t in session.tasks:
            t.cancel()
        pump.cancel()  # the socket is gone: frames still queued have nowhere to go



class Session:
    """One WebSocket's conversation: hello first, then actions, chat, hints; every refusal is an
    ``err`` frame and the connection stays open (except a sustained flood)."""

    FLOOD_LIMIT = 50
    FLOOD_WINDOW = 10.0
    """More than ``FLOOD_LIMIT`` refused frames (of any kind: over the rate, malformed, too big,
    forbidden, illegal...) within ``FLOOD_WINDOW`` seconds close the socket (1008)."""

    def __init__(self, hub: Hub, table: LiveTable | None, conn: Conn, table_id: str, client: str = "?",
                 hints: RateLimiter | None = None, *, bucket: type[TokenBucket] = TokenBucket) -> None:
        self.hub = hub
        self.client = client
        self.hints = hints
        self.table = table
        self.conn = conn
        self.table_id = table_id
        self.joined = False
        self.bucket = bucket(20, 10)
        self.chat_bucket = bucket(3, 1)
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
            except FrameError as e:
                self.err("malformed", str(e), id=e.id)
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
            if not text:
                self.err("malformed", "text: nothing is left to say once control characters and spaces are removed")
                return
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
            if self.hints is not None and not table.hint_kept(seat) and (wait := self.hints.take(self.client)) > 0:
                self.err("rate", f"too many hints from your address; try again in {seconds(wait)} seconds")
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
