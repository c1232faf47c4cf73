"""What the routes share: the application's dependencies (kept on ``app.state``), errors as JSON
answers, and the lookups of a table, a seat and a client's limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fastapi import Request, WebSocket
from fastapi.responses import FileResponse

from euchre.server.core import Hub, LiveTable, Refusal, ServerConfig
from euchre.server.guard import client_key
from euchre.server.limits import RateLimiter, TokenBucket, seconds

__all__ = ["STATIC", "Shared", "shared", "hub_of", "REFUSAL_STATUS", "MAX_MESSAGE", "MAX_OFFSET", "short",
           "ApiError", "page", "table_or_404", "bearer", "seat_of", "client_of", "limit_creates"]

STATIC = Path(__file__).parent.parent / "static"

MAX_OFFSET = 2**31 - 1
"""Largest ``offset`` of a listing (every database's integers hold it)."""


@dataclass(slots=True)
class Shared:
    """The dependencies of every route, made once by :func:`~euchre.server.app.create_app` and kept
    as ``app.state.shared`` (the hub itself is ``app.state.hub``, made when the app starts)."""

    config: ServerConfig
    connects: RateLimiter | None
    """New WebSocket connections per client address (``None``: no limit)."""
    creates: RateLimiter | None
    """Tables created or started per client address."""
    hints: RateLimiter | None
    """Hints and analyses per client address."""
    allowed_origins: set[str]
    """Origins allowed to open a game socket besides this server's own pages (``--allow-origin``)."""
    bucket: type[TokenBucket] = TokenBucket
    """The per-connection token bucket (tests give one with a clock of their own)."""
    refused_origins: set[str] = field(default_factory=set)
    """Origins already logged as refused (each is logged once)."""


def shared(request: Request | WebSocket) -> Shared:
    s: Shared = request.app.state.shared
    return s


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


REFUSAL_STATUS = {"forbidden": 403, "not_found": 404, "table_abandoned": 410, "unavailable": 503,
                  "damaged": 500, "busy": 503, "full": 503, "too_many_tables": 429,
                  "malformed": 422}  # (as a body the request's model refuses: a bad mode or level)
"""The HTTP status of a refusal's code, where it is not the request's own fault (400 or 409)."""

MAX_MESSAGE = 300
"""Longest error message an answer carries, in characters: an answer never grows with the request
(a rules object of a million bad keys gets one short line)."""


def short(message: str) -> str:
    """A message cut to :data:`MAX_MESSAGE` characters."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


class ApiError(Exception):
    """An answer refused: ``{"error": code, "message": message}`` with ``status`` (and ``headers``)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, short(message)
        self.headers = headers

    @classmethod
    def of(cls, e: Refusal, default: int = 400) -> ApiError:
        return cls(REFUSAL_STATUS.get(e.code, default), e.code, e.message)


def page(name: str) -> FileResponse:
    """A static page, never cached (a new version is seen at once)."""
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


async def table_or_404(request: Request, table_id: str) -> LiveTable:
    """The table, or 404; an abandoned one is 410 (it existed, and is gone for good)."""
    try:
        table = await hub_of(request).get(table_id)
    except Refusal as e:
        raise ApiError.of(e) from None
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    if table.status == "abandoned":
        raise ApiError.of(shared(request).config.abandoned())
    return table


def bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header (empty without one)."""
    return (authorization or "").removeprefix("Bearer ").strip()


def seat_of(table: LiveTable, token: str) -> int:
    """The seat of the ``Authorization`` token at this table, or 403."""
    seat = table.seat_of(token) if token else None
    if seat is None:
        raise ApiError(403, "forbidden", "a seat token of this table is needed (Authorization: Bearer TOKEN)")
    return seat


def client_of(request: Request | WebSocket) -> str:
    """The key of the client's address for the per-address limits."""
    return client_key(request.client.host if request.client else None)


def limit_creates(request: Request) -> None:
    """Creating or starting a table costs a token of the client address's bucket; without
    one the answer is 429 with ``Retry-After``, and nothing is created."""
    creates = shared(request).creates
    if creates is None:
        return
    wait = creates.take(client_of(request))
    if wait > 0:
        n = seconds(wait)
        raise ApiError(429, "too_many_tables",
                       f"too many tables opened or started from your address; try again in {n} seconds",
                       headers={"Retry-After": str(n)})
