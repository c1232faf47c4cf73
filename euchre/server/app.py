"""The web application: pages, the JSON API and the WebSocket endpoint (FastAPI on Starlette).

A thin layer: it checks who is asking (seat tokens, origins, rates and sizes) and hands
everything else to :mod:`euchre.server.core`, which asks the engine. Protocol: ``docs/server.md``.
:func:`create_app` builds the application from the routers of :mod:`euchre.server.routes`, one
module per concern (pages, tables, records, stats, the table's socket; the replay viewer in
:mod:`euchre.server.replay_api`), and keeps what they share on ``app.state``
(:class:`~euchre.server.routes.common.Shared`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from euchre.server.core import Hub, ServerConfig
from euchre.server.db import Store
from euchre.server.guard import BodyLimit, HostCheck, SecurityHeaders, client_key
from euchre.server.limits import RateLimiter, TokenBucket
from euchre.server.replay_api import install_replay
from euchre.server.routes import pages, records, socket, stats, tables
from euchre.server.routes.common import STATIC, ApiError, Shared, hub_of, page, short, table_or_404

__all__ = ["create_app", "TokenBucket", "RateLimiter", "client_key"]

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

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, database_url)
        try:
            store.hold()  # one server a database: a second would serve stale tables
        except BaseException:
            store.close()
            raise
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
    app.state.shared = Shared(config=config, connects=connects, creates=creates, hints=hints,
                              allowed_origins=allowed, bucket=TokenBucket)
    app.state.connect_limiter = connects
    app.state.create_limiter = creates
    _install_error_handlers(app)

    app.include_router(pages.router)
    # The replay viewer: /replay, /replay/{id}, /api/games/{id}/replay, POST /api/replay.
    install_replay(app, page=page, table_or_404=table_or_404, limiter=hints)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(tables.router)
    app.include_router(records.router)
    app.include_router(stats.router)
    app.include_router(socket.router)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    """Every refusal is JSON ``{"error": code, "message": words}``; a browser at a wrong address
    gets a page instead."""

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
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "bad_request")
        # (The exception's headers go along: a 405's Allow says which methods the address takes.)
        return JSONResponse({"error": code, "message": short(str(e.detail))}, status_code=e.status_code,
                            headers=getattr(e, "headers", None))

    @app.exception_handler(SQLAlchemyError)
    async def _database(_request: Request, e: SQLAlchemyError) -> JSONResponse:
        hub_of(_request).log_failure("a database read", e, path=_request.url.path)
        return JSONResponse({"error": "unavailable", "message": "the database is not answering; try again in a moment"},
                            status_code=503, headers={"Retry-After": "5"})
