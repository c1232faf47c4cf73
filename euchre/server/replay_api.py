"""The replay viewer's pages and API: a finished game, or an uploaded record, step by step.

A thin layer over :mod:`euchre.replay`: the engine replays the record and writes every step (all
four hands face up, the bids, the tricks, the score, the words); the browser only shows them.

- ``GET /api/games/{id}/replay``: the timeline of a finished game. The deal is a secret until the
  game is over, so a game in progress is 409 ``not_over`` (as its record is).
- ``POST /api/replay`` with ``{"record": "<text>", "format": "ours"|"egn"|null}``: the timeline of
  an uploaded record (our TOML or EGN; ``null`` tells them apart by the first character). A record
  that does not load or replay is 400 ``bad_record``, saying what is wrong where.
- ``?analyze=1`` on either: each decision's mark from :func:`euchre.analyze.analyze_game` at the
  replay's small budget (:data:`euchre.replay.REPLAY_SAMPLES`), worked out on a thread of its own,
  one at a time (and one at a time per client address), never on the event loop; an analysis
  costs a hint (``--hint-limit``) and the last few are kept, so asking again is answered at once.
- A replay without analysis is worked out on a thread of its own too, one at a time, at most
  :data:`REPLAYS_AT_ONCE` waiting (503 ``busy`` past it), and recent ones are kept. However many
  ask at once, the tables' own work keeps its share of the processor.
- ``/replay/{id}`` and ``/replay``: the viewer page (``static/viewer.html``), on a finished game or
  with a form to upload a record.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

import orjson
from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from euchre import egn, notation
from euchre.errors import EuchreError
from euchre.replay import timeline_of_record
from euchre.server.guard import client_key
from euchre.server.routes.common import ApiError, short

if TYPE_CHECKING:
    from euchre.server.core import LiveTable
    from euchre.server.limits import RateLimiter

__all__ = ["install_replay", "ReplayUpload", "ANALYSES_AT_ONCE", "ANALYSIS_CACHE"]

ANALYSES_AT_ONCE = 2
"""Analyses worked out or waiting at once over the whole server; past it the answer is 503
``busy`` (an analysis already kept is answered regardless)."""
ANALYSIS_CACHE = 16
"""Analysed timelines kept, by the record's text (a finished game's record never changes)."""
REPLAYS_AT_ONCE = 4
"""Replays (without analysis) worked out or waiting at once over the whole server; past it 503
``busy`` (a replay already kept is answered regardless)."""
REPLAY_CACHE = 64
"""Replayed timelines kept, by the record's text."""
MAX_RECORD = 64 * 1024
"""Longest record text accepted (the body cap would refuse a longer one first)."""


class ReplayUpload(BaseModel):
    """``POST /api/replay``."""

    model_config = ConfigDict(extra="forbid")
    record: Annotated[str, Field(max_length=MAX_RECORD)]
    """The record's text: our TOML format or EGN (JSON)."""
    format: Literal["ours", "egn"] | None = None
    """Which format; ``None``: EGN when the text starts with ``{``, else ours."""


@dataclass
class _Work:
    """One kind of work (replays, or analyses): its thread, how many may wait, the answers kept."""

    threads: ThreadPoolExecutor
    at_once: int
    cache: int
    running: dict[str, asyncio.Future[bytes]] = field(default_factory=dict)
    kept: OrderedDict[str, bytes] = field(default_factory=OrderedDict)


def _load(text: str, fmt: str | None) -> notation.GameRecord | notation.MatchRecord:
    """The record in ``text`` (a game's, or in our format a match's); raises
    :class:`~euchre.errors.EuchreError` saying what is wrong."""
    if not text.strip():
        raise EuchreError("the record is empty")
    if fmt == "egn":
        return egn.loads(text)
    if fmt == "ours":
        if notation.is_match_text(text):
            return notation.MatchRecord.loads(text)
        return notation.GameRecord.loads(text)
    return notation.loads_any(text)


def _timeline_json(text: str, fmt: str | None, analyze: bool, game: int | None = None) -> bytes:
    """Load, replay and describe a record (on a worker thread), as JSON bytes. Of a match, the
    timeline is of its game ``game`` (1-based; the first by default), with ``match`` saying
    which game of how many and how the match went."""
    if fmt != "ours" and _is_emn(text):
        return _emn_timeline_json(text, analyze, game)
    rec = _load(text, fmt)
    if isinstance(rec, notation.GameRecord):
        if game is not None and game != 1:
            raise EuchreError(f"the record is of one game; there is no game {game}")
        return orjson.dumps(timeline_of_record(rec, analyze=analyze).to_dict())
    match = rec.replay()
    number = 1 if game is None else game
    if not 1 <= number <= len(rec.games):
        raise EuchreError(f"the match has {len(rec.games)} games; there is no game {number}")
    out = timeline_of_record(rec.games[number - 1], analyze=analyze).to_dict()
    out["match"] = {**match.to_dict(), "shown": number, "count": len(rec.games), "summary": match.summary()}
    return orjson.dumps(out)


def _is_emn(text: str) -> bool:
    """Whether ``text`` is an EMN match file (as this server's match download is)."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("fileType") == egn.MATCH_FILE_TYPE


def _emn_timeline_json(text: str, analyze: bool, game: int | None) -> bytes:
    """The timeline of game ``game`` of an EMN match, with ``match`` saying which game of how
    many and each game's score (EMN keeps no match seed, so the match itself is not rebuilt)."""
    records = egn.loads_match(text)
    number = 1 if game is None else game
    if not 1 <= number <= len(records):
        raise EuchreError(f"the match has {len(records)} games; there is no game {number}")
    played = [r.replay() for r in records]
    out = timeline_of_record(records[number - 1], analyze=analyze).to_dict()
    out["match"] = {"shown": number, "count": len(records),
                    "games": [{"scores": list(g.scores), "winners": list(g.winners)} for g in played],
                    "summary": f"a match of {len(records)} games (EMN)"}
    return orjson.dumps(out)


def install_replay(app: FastAPI, *, page: Callable[[str], FileResponse],
                   table_or_404: Callable[[Request, str], Awaitable[LiveTable]],
                   limiter: RateLimiter | None = None) -> None:
    """Add the viewer's pages and API routes to ``app`` (see the module docstring); ``limiter``
    is the per-address hint limit an analysis counts against."""
    # Replays and analyses each have one worker thread, a cap on what is waiting and a cache of
    # recent answers: however many clients ask at once, one replay and one analysis are worked out
    # at a time, so the tables' own work (on the event loop and the bots' threads) keeps its share
    # of the processor.
    kinds = {analyze: _Work(ThreadPoolExecutor(max_workers=1, thread_name_prefix="euchre-replay"),
                            ANALYSES_AT_ONCE if analyze else REPLAYS_AT_ONCE,
                            ANALYSIS_CACHE if analyze else REPLAY_CACHE) for analyze in (False, True)}
    analysing: set[str] = set()
    """The client addresses with an analysis being worked out (one each at a time)."""

    async def answer(request: Request, text: str, fmt: str | None, analyze: bool, game: int | None) -> Response:
        try:
            body = await computed(request, text, fmt, analyze, game)
        except (EuchreError, ValueError) as e:
            raise ApiError(400, "bad_record", short(f"the record cannot be replayed: {e}")) from None
        return Response(body, media_type="application/json")

    async def computed(request: Request, text: str, fmt: str | None, analyze: bool, game: int | None) -> bytes:
        work = kinds[analyze]
        key = hashlib.sha256(f"{fmt}\n{game}\n{text}".encode()).hexdigest()
        if key in work.kept:
            work.kept.move_to_end(key)
            return work.kept[key]
        fut = work.running.get(key)
        if fut is None:
            client = client_key(request.client.host if request.client else None)
            if analyze and client in analysing:
                raise ApiError(429, "rate", "an analysis from your address is being worked out; ask again when "
                               "it is done", headers={"Retry-After": "5"})
            if limiter is not None and analyze:
                wait = limiter.take(client)
                if wait > 0:
                    n = max(1, round(wait + 0.5))
                    raise ApiError(429, "rate", f"too many analyses and hints from your address; try again in "
                                   f"{n} seconds", headers={"Retry-After": str(n)})
            if len(work.running) >= work.at_once:
                raise ApiError(503, "busy", f"{'analyses' if analyze else 'replays'} are busy right now; try again "
                               "in a few seconds", headers={"Retry-After": "5"})
            fut = asyncio.get_running_loop().run_in_executor(work.threads, _timeline_json, text, fmt, analyze, game)
            work.running[key] = fut
            if analyze:
                analysing.add(client)

            def done(f: asyncio.Future[bytes], key: str = key, client: str = client) -> None:
                work.running.pop(key, None)
                if analyze:
                    analysing.discard(client)
                if not f.cancelled() and f.exception() is None:
                    work.kept[key] = f.result()
                    while len(work.kept) > work.cache:
                        work.kept.popitem(last=False)

            fut.add_done_callback(done)
        return await asyncio.shield(fut)

    @app.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def viewer_upload_page() -> FileResponse:
        return page("viewer.html")

    @app.api_route("/replay/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def viewer_page(table_id: str) -> FileResponse:
        return page("viewer.html")

    @app.get("/api/games/{table_id}/replay")
    async def game_replay(table_id: str, request: Request, analyze: Annotated[bool, Query()] = False,
                          game: Annotated[int | None, Query(ge=1, le=999)] = None) -> Response:
        """Every step of a finished game, all hands face up (409 ``not_over`` before the end);
        of a match, its game ``game`` (the first by default)."""
        hub = request.app.state.hub
        text = await asyncio.to_thread(hub.store.record, table_id)
        if text is None:
            await table_or_404(request, table_id)
            raise ApiError(409, "not_over", "the replay is available once the game is over")
        return await answer(request, text, "ours", analyze, game)

    @app.post("/api/replay")
    async def upload_replay(body: ReplayUpload, request: Request, analyze: Annotated[bool, Query()] = False,
                            game: Annotated[int | None, Query(ge=1, le=999)] = None) -> Response:
        """Every step of an uploaded record (ours or EGN; of a match in our format, its game
        ``game``); 400 ``bad_record`` when it is wrong."""
        return await answer(request, body.record, body.format, analyze, game)

