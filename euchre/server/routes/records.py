"""Finished games: a table's record (our TOML or EGN) and the list of games."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse

from euchre import egn, notation
from euchre.errors import EuchreError
from euchre.server.routes.common import MAX_OFFSET, ApiError, hub_of, table_or_404

router = APIRouter()


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, request: Request,
                 format: Annotated[str, Query(pattern="^(toml|egn)$")] = "toml") -> PlainTextResponse:
    hub = hub_of(request)
    text = await asyncio.to_thread(hub.store.record, table_id)
    if text is None:
        await table_or_404(request, table_id)
        raise ApiError(409, "not_over", "the record is available once the game is over")
    match = notation.is_match_text(text)
    filename = f"euchre-{table_id}.{('emn' if match else 'egn') if format == 'egn' else 'toml'}"
    if format == "egn":  # a match goes out as EMN, EGN's match file
        try:
            text = egn.dumps_match(notation.MatchRecord.loads(text)) if match else egn.dumps(notation.loads(text))
        except EuchreError as e:
            raise ApiError(409, "not_exportable", str(e)) from None
    media = "application/json" if format == "egn" else "application/toml"
    return PlainTextResponse(text, media_type=media,
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/api/games")
async def games(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> dict[str, Any]:
    hub = hub_of(request)
    return {"games": await hub.read(hub.store.games, limit, offset)}
