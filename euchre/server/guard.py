"""What stands between the internet and the application: time limits on slow and silent
connections, a cap on request bodies before anything parses them, the Host check that defeats DNS
rebinding, and the security headers of every page.

Two pieces are uvicorn protocol classes (``uvicorn.Config(http=..., ws=...)``): only the
connection's own protocol sees a request that never finishes its headers or a client whose
socket never drains, so that is where they are timed out. The others are plain ASGI middleware.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["HEADER_TIMEOUT", "SEND_TIMEOUT", "MAX_BODY", "BODY_TIMEOUT", "MAX_CONNECTIONS_PER_CLIENT", "CONNECTIONS",
           "Connections", "client_key", "TimedHttp", "TimedWebSockets",
           "BodyLimit", "HostCheck", "SecurityHeaders", "is_loopback"]

HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's headers (from connecting, or from the first
byte of a request on a kept-alive connection). A browser takes milliseconds; a slow-headers
attack holds sockets open this long at most."""

SEND_TIMEOUT = 15.0
"""Seconds a WebSocket's outgoing buffer may stay full: a client that does not read is dropped
(its seat shows away, its frames stop being kept)."""

MAX_BODY = 64 * 1024
"""Largest request body, in bytes: the largest real one (a new table's rules) is under 2 KB."""

BODY_TIMEOUT = 15.0
"""Seconds a request's body may take to arrive."""

MAX_CONNECTIONS_PER_CLIENT = 256
"""Connections one client address may hold open at once (HTTP and WebSocket)."""


class Connections:
    """Open connections per client address (:func:`client_key`), HTTP and WebSocket alike: one
    address may hold ``limit`` at once, so a slow-headers or silent-socket attack from one
    address cannot take every file descriptor of the process. Loopback addresses are not
    counted unless ``count_loopback``: behind a reverse proxy on this machine every client
    comes from there, and the proxy keeps its own limits."""

    def __init__(self, limit: int = MAX_CONNECTIONS_PER_CLIENT, count_loopback: bool = False) -> None:
        self.limit = limit
        self.count_loopback = count_loopback
        self.open: dict[str, int] = {}

    def key(self, transport: asyncio.BaseTransport) -> str | None:
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if self.limit <= 0 or host is None or (is_loopback(host) and not self.count_loopback):
            return None
        return client_key(host)

    def add(self, key: str | None, always: bool = False) -> bool:
        """Count one more for ``key``; ``False`` (and nothing counted) when it has its limit,
        unless ``always``."""
        if key is None:
            return True
        n = self.open.get(key, 0)
        if n >= self.limit and not always:
            return False
        self.open[key] = n + 1
        return True

    def remove(self, key: str | None) -> None:
        if key is None:
            return
        n = self.open.get(key, 0) - 1
        if n > 0:
            self.open[key] = n
        else:
            self.open.pop(key, None)


CONNECTIONS = Connections()
"""The process's count (``euchre serve --max-connections-per-client`` sets its limit)."""


class TimedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for each request's headers, and the count of open
    connections per client address (:data:`CONNECTIONS`)."""

    header_timeout = HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        key = CONNECTIONS.key(transport)
        if not CONNECTIONS.add(key):
            transport.abort()  # over the address's limit: not even read
            return
        self._counted = key
        super().connection_made(transport)
        self._arm()

    def handle_websocket_upgrade(self) -> None:
        # The connection becomes the WebSocket protocol's, which counts it from here on.
        self._disarm()
        CONNECTIONS.remove(self._counted)
        self._counted = None
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        CONNECTIONS.remove(getattr(self, "_counted", None))
        self._counted = None
        if getattr(self, "transport", None) is not None:
            super().connection_lost(exc)


class TimedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, dropping a client whose socket stays unwritable (it does not
    read) for ``send_timeout`` seconds: a send would otherwise wait for it forever, and so would
    the close frame."""

    send_timeout = SEND_TIMEOUT

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._counted = CONNECTIONS.key(transport)
        CONNECTIONS.add(self._counted, always=True)  # admitted already, as an HTTP connection
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        CONNECTIONS.remove(self._counted)
        self._counted = None
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        writable: asyncio.Event = self.writable
        if not writable.is_set():
            try:
                await asyncio.wait_for(writable.wait(), self.send_timeout)
            except TimeoutError:
                self.transport.abort()
                raise ClientDisconnected() from None
        await super().send(message)


def client_key(host: str | None) -> str:
    """The address a per-client limit counts: the client's IP as uvicorn reports it (it already
    follows ``X-Forwarded-For`` from trusted proxies). An IPv6 address counts as its /64, since
    one home or server gets a whole /64 and could otherwise take a fresh address per request."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def is_loopback(host: str | None) -> bool:
    """An address of this machine only (127.0.0.0/8, ::1)."""
    if not host:
        return False
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(authority: str) -> str:
    """``example.org`` of ``example.org:8000``, ``::1`` of ``[::1]:8000``, lower case."""
    a = authority.strip().lower()
    if a.startswith("["):
        return a[1:a.find("]")] if "]" in a else a
    return a.rsplit(":", 1)[0] if a.count(":") == 1 else a


LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


class HostCheck:
    """A server listening on this machine only answers requests addressed to this machine.

    A DNS-rebinding page (``evil.example`` made to resolve to 127.0.0.1) reaches a loopback server
    with ``Host: evil.example``; refused here, its scripts can neither use the API nor open a
    socket. Names of the allowed origins (``--allow-origin``) are accepted too. A server bound to
    a public address is reached through names this check cannot know, so it checks nothing there
    (the WebSocket Origin check still applies).
    """

    def __init__(self, app: Any, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = LOOPBACK_NAMES | {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self.refuses(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await _json(send, 421, "wrong_host",
                        "this server answers only to its own address (the Host header names another)")
            return
        await self.app(scope, receive, send)

    def refuses(self, scope: Any) -> bool:
        server = scope.get("server")
        if not server or not is_loopback(server[0]):
            return False
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
        if host is None:
            return False  # HTTP/1.0 without Host: no browser sends it, so no page can rebind it
        name = host_name(host)
        return name not in self.allowed and not is_loopback(name)


class BodyLimit:
    """Request bodies are read here, up to :data:`MAX_BODY` bytes within :data:`BODY_TIMEOUT`
    seconds, before any parsing: a larger one is refused with 413 at once (from its
    ``Content-Length``, or as soon as it grows past the cap), a slow one with 408."""

    def __init__(self, app: Any, max_body: int = MAX_BODY, timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope.get("headers", []) if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _json(send, 413, "too_big", f"request bodies are limited to {self.max_body} bytes", close=True)
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body = message.get("body", b"")
                    size += len(body)
                    if size > self.max_body:
                        await _json(send, 413, "too_big", f"request bodies are limited to {self.max_body} bytes",
                                    close=True)
                        return
                    chunks.append(body)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _json(send, 408, "too_slow", f"the request body did not arrive within {self.timeout:g} seconds",
                        close=True)
            return
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def content_security_policy() -> str:
    """The pages load scripts, styles and images from this server only and open sockets to it
    only; no page may be framed (clickjacking a seat's buttons)."""
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            "object-src 'none'")


class SecurityHeaders:
    """``Content-Security-Policy``, ``X-Frame-Options``, ``X-Content-Type-Options`` and
    ``Referrer-Policy`` on every HTTP answer (the interactive API docs excepted: they load
    their scripts from elsewhere)."""

    def __init__(self, app: Any, exempt: tuple[str, ...] = ("/api/docs",)) -> None:
        self.app = app
        self.exempt = exempt
        self.headers = [
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
        ]
        self.csp = (b"content-security-policy", content_security_policy().encode())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(self.headers)
        if not scope["path"].startswith(self.exempt):
            extra.append(self.csp)

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


async def _json(send: Any, status: int, code: str, message: str, close: bool = False) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
