"""The tables API: what a table can be, creating, starting and rematching one, a table's public
state and its rules in words."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from euchre.bots.base import bot_descriptions
from euchre.bots.levels import DEFAULT_LEVEL, LEVELS
from euchre.errors import EuchreError, RulesError
from euchre.explain import preset_title, rules_from_strings, rules_payload, rules_sections, sections_to_dicts
from euchre.rules import PRESET_DESCRIPTIONS, PRESETS, Rules
from euchre.server.core import Refusal, Unloaded, served
from euchre.server.messages import PlayerId, clean_text, reserved_name
from euchre.server.routes.common import (
    ApiError,
    bearer,
    client_of,
    hub_of,
    limit_creates,
    seat_of,
    short,
    table_or_404,
)

router = APIRouter()


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    mode: str = "bots"
    preset: str = "american"
    rules: Annotated[dict[str, Any], Field(max_length=64)] = Field(default_factory=dict)
    """Fields of :class:`~euchre.rules.Rules` to change from the preset (a few dozen exist)."""
    level: str = DEFAULT_LEVEL
    name: Annotated[str, Field(max_length=24)] = ""
    player: PlayerId | None = None
    """The host's player id (see :data:`~euchre.server.messages.PlayerId`), kept on seat 0."""
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None
    """The seed of the deals, for a game against computer players only (a deal to play again,
    like ``euchre play --seed``); a friends table's deal stays a secret of the server."""


@router.get("/api/options")
async def options() -> dict[str, Any]:
    """What a new table can be: presets with their rules (``fixed``: the fields the preset takes
    no other value of, left off its page of switches; ``served``: whether a table can play it,
    the start page offering only those), levels, and the bots."""
    return {
        "presets": [{"name": n, "description": PRESET_DESCRIPTIONS.get(n, ""), "rules": Rules.preset(n).to_dict(),
                     "fixed": sorted(Rules.preset(n).fixed_fields()), "served": served(Rules.preset(n)),
                     "title": preset_title(n), "words": sections_to_dicts(rules_sections(Rules.preset(n)))}
                    for n in PRESETS],
        "levels": list(LEVELS), "default_level": DEFAULT_LEVEL, "bots": bot_descriptions(),
    }


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    limit_creates(request)
    try:
        rules = Rules.preset(body.preset, **body.rules)
        if not served(rules):  # a sister game the tables do not play yet
            rules.refuse_six_cards("the server's tables")  # the engine's reason, in its words
            raise RulesError(f"the server's tables do not play {rules.sister_game} yet")
    except (EuchreError, TypeError, ValueError) as e:
        raise ApiError(400, "bad_rules", short(str(e))) from None
    name = clean_text(body.name) or ("You" if body.mode == "bots" else "Player 1")
    if (why := reserved_name(name)) is not None:
        raise ApiError(400, "bad_name", why)
    if body.mode == "friends" and name.casefold() == "you":  # (the others' pages would say "You" of them)
        raise ApiError(400, "bad_name", "'You' is what the table calls each player to themself; at a table with "
                                        "friends choose your own name")
    if body.seed is not None and body.mode != "bots":
        raise ApiError(400, "bad_seed", "a seed is only for a game against computer players: the deal of a "
                                        "table with friends stays secret")
    try:
        table, tokens = await hub_of(request).create(
            mode=body.mode, rules=rules, preset=Rules.resolve_preset(body.preset), level=body.level.lower(),
            name=name, player=body.player, seed=body.seed, client=client_of(request))
    except Refusal as e:
        raise ApiError.of(e) from None
    links = [{"seat": s, "token": t, "url": f"/table/{table.id}#token={t}"} for s, t in tokens]
    return {"id": table.id, "seat": 0, "token": links[0]["token"], "url": links[0]["url"],
            "watch_url": f"/table/{table.id}", "links": links[1:], "status": table.status}


@router.post("/api/tables/{table_id}/start")
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


@router.post("/api/tables/{table_id}/rematch")
async def rematch_table(table_id: str, request: Request,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
    """A new game for the same seats and rules, once this one is over (see ``Hub.rematch``);
    every seat's link works at the new table with its own token."""
    limit_creates(request)
    token = bearer(authorization)
    table = await table_or_404(request, table_id)
    seat = seat_of(table, token)
    try:
        new = await hub_of(request).rematch(table, seat, client_of(request))
    except Refusal as e:
        raise ApiError.of(e, 409) from None
    return {"id": new.id, "status": new.status, "url": f"/table/{new.id}#token={token}",
            "watch_url": f"/table/{new.id}"}


@router.get("/api/tables/{table_id}")
async def table_info(table_id: str, request: Request) -> dict[str, Any]:
    table = await table_or_404(request, table_id)
    async with table.lock:
        d = table.state_data(None)
        d.pop("view")
        d.pop("previous")
        return {**d, "version": table.version}


@router.get("/api/rules")
async def rules_explained(request: Request, preset: str = "american") -> dict[str, Any]:
    """A preset's rules (any other query parameter is a switch: ``stick_the_dealer=yes``) in
    plain words, with how to play: what the ``/learn`` page shows."""
    switches = {k: v for k, v in request.query_params.items() if k != "preset"}
    try:
        return rules_payload(rules_from_strings(preset, switches), preset)
    except EuchreError as e:
        raise ApiError(400, "bad_rules", short(str(e))) from None


@router.get("/api/tables/{table_id}/rules")
async def table_rules(table_id: str, request: Request) -> dict[str, Any]:
    """The rules a table plays by, in plain words (``/learn?table=ID``)."""
    table = await table_or_404(request, table_id)
    return rules_payload(table.rules, table.row.preset)
