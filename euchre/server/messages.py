"""The client's frames, validated strictly (pydantic): anything else is refused as malformed.

See ``docs/server.md`` for the protocol. Sizes are bounded here as well as by the frame cap, so a
valid frame can never carry an oversized name, id or chat line.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = ["Hello", "Act", "Chat", "Hint", "Start", "Ping", "parse_frame", "clean_text", "MAX_FRAME"]

MAX_FRAME = 4096
"""Largest client frame, in bytes of UTF-8."""


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Frame):
    t: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    v: Annotated[int, Field(ge=0)] | None = None
    name: Annotated[str, Field(max_length=24)] | None = None


class Act(_Frame):
    t: Literal["act"]
    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[!-~]+$")]
    """Printable ASCII without spaces: it is stored, and some databases refuse control bytes."""
    action: Annotated[str, Field(min_length=1, max_length=40)]
    v: Annotated[int, Field(ge=0)] | None = None


class Chat(_Frame):
    t: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=300)]


class Hint(_Frame):
    t: Literal["hint"]


class Start(_Frame):
    t: Literal["start"]


class Ping(_Frame):
    t: Literal["ping"]


ClientFrame = Annotated[Hello | Act | Chat | Hint | Start | Ping, Field(discriminator="t")]
_adapter: TypeAdapter[Hello | Act | Chat | Hint | Start | Ping] = TypeAdapter(ClientFrame)


def parse_frame(text: str) -> Hello | Act | Chat | Hint | Start | Ping:
    """The frame, or ``ValueError`` saying precisely what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} at character {e.pos}") from None
    if not isinstance(data, dict):
        raise ValueError("a frame must be a JSON object")
    if "t" not in data:
        raise ValueError("a frame needs a type 't' (hello, act, chat, hint, start or ping)")
    try:
        return _adapter.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "frame"
        if err["type"] == "union_tag_invalid":
            return_msg = f"unknown frame type {data.get('t')!r} (hello, act, chat, hint, start or ping)"
            raise ValueError(return_msg) from None
        raise ValueError(f"{where}: {err['msg']}") from None


def clean_text(text: str) -> str:
    """Chat and names: control characters removed, whitespace collapsed. (Escaping is the
    client's job: pages put text in the document with ``textContent`` only.)"""
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(kept.split())
