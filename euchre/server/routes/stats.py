"""The players' statistics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from euchre.server.routes.common import hub_of

router = APIRouter()


@router.get("/api/stats")
async def stats(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    return {"players": await hub.read(hub.store.stats)}
