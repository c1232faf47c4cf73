"""The HTML pages (static files) and the health check."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from euchre.server.routes.common import hub_of, page

router = APIRouter()


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> FileResponse:
    return page("index.html")


@router.api_route("/table/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return page("table.html")


@router.api_route("/games", methods=["GET", "HEAD"], include_in_schema=False)
async def games_page() -> FileResponse:
    return page("games.html")


@router.api_route("/stats", methods=["GET", "HEAD"], include_in_schema=False)
async def stats_page() -> FileResponse:
    return page("stats.html")


@router.api_route("/learn", methods=["GET", "HEAD"], include_in_schema=False)
async def learn_page() -> FileResponse:
    return page("learn.html")


@router.api_route("/healthz", methods=["GET", "HEAD"], include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    """``ok`` and the hub's counters; 503 when the server cannot keep what it is told (the last
    commit failed, or the SQLite file is gone), so that a monitor notices."""
    hub = hub_of(request)
    ok, problem = hub.health()
    body: dict[str, Any] = {"ok": ok, **hub.stats()}
    if problem is not None:
        body["problem"] = problem
    return JSONResponse(body, status_code=200 if ok else 503)
