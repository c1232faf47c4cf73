"""The client's frames, validated strictly (pydantic): anything else is refused as malformed.

See ``docs/server.md`` for the protocol. Sizes are bounded here as well as by the frame cap, so a
valid frame can never carry an oversized name, id or chat line.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = ["Hello", "Act", "Claim", "Undo", "Chat", "Hint", "Start", "Ping", "PlayerId", "parse_frame", "FrameError",
           "clean_text", "reserved_name", "MAX_FRAME"]

MAX_FRAME = 4096
"""Largest client frame, in bytes of UTF-8."""


PlayerId = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A browser's player id (8 to 64 of ``A-Z a-z 0-9 _ -``): random, kept in the browser's
``localStorage`` and sent with a table's creation and a seat's hello, so the statistics group one
person's games together whatever name they play under. It is a grouping key, not a credential
(the seat token is), and it is never sent back in any response."""


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Frame):
    t: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    v: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = None
    name: Annotated[str, Field(max_length=24)] | None = None
    player: PlayerId | None = None
    """Recorded on the seat of ``token`` if it has no player id yet (the first claim wins);
    ignored for a spectator."""


class Act(_Frame):
    t: Literal["act"]
    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[!-~]+$")]
    """Printable ASCII without spaces: it is stored, and some databases refuse control bytes."""
    action: Annotated[str, Field(min_length=1, max_length=40)]
    v: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = None


class Claim(_Frame):
    """The seat to act claims the rest of the tricks (acknowledged like an action)."""

    t: Literal["claim"]
    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[!-~]+$")]
    v: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = None


class Undo(_Frame):
    """Take back the seat's last card, at a practice table (acknowledged like an action)."""

    t: Literal["undo"]
    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[!-~]+$")]
    v: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = None


class Chat(_Frame):
    t: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=300)]


class Hint(_Frame):
    t: Literal["hint"]


class Start(_Frame):
    t: Literal["start"]


class Ping(_Frame):
    t: Literal["ping"]


ClientFrame = Annotated[Hello | Act | Claim | Undo | Chat | Hint | Start | Ping, Field(discriminator="t")]
_adapter: TypeAdapter[Hello | Act | Claim | Undo | Chat | Hint | Start | Ping] = TypeAdapter(ClientFrame)


_TYPES = "hello, act, claim, undo, chat, hint, start or ping"
_ID = re.compile(r"^[!-~]{1,40}$")


class FrameError(ValueError):
    """A frame that is not one: the message says what is wrong; ``id`` is the frame's own id
    when it has a well-formed one, so that the client can tell which of its frames was refused."""

    def __init__(self, message: str, id: str | None = None) -> None:
        super().__init__(message)
        self.id = id


def parse_frame(text: str) -> Hello | Act | Claim | Undo | Chat | Hint | Start | Ping:
    """The frame, or :class:`FrameError` saying precisely what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FrameError(f"not JSON: {e.msg} at character {e.pos}") from None
    except RecursionError:
        raise FrameError("not a frame: nested too deeply") from None
    except ValueError:  # (an integer of thousands of digits: Python's own limit on reading one)
        raise FrameError("not a frame: a number in it is far too long") from None
    if not isinstance(data, dict):
        raise FrameError("a frame must be a JSON object")
    fid = data.get("id")
    fid = fid if isinstance(fid, str) and _ID.match(fid) else None
    if "t" not in data:
        raise FrameError(f"a frame needs a type 't' ({_TYPES})", fid)
    try:
        return _adapter.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "frame"
        if err["type"] == "union_tag_invalid":
            raise FrameError(f"unknown frame type {data.get('t')!r} ({_TYPES})", fid) from None
        raise FrameError(f"{where}: {err['msg']}", fid) from None


_BOT_NAME = re.compile(r"^\w+ bot \d+$", re.IGNORECASE)


def reserved_name(name: str) -> str | None:
    """Why a (cleaned) name may not be taken by a person, or ``None``: names that pass for a
    spectator or a computer player would mislead the others at the table."""
    if name.casefold() in ("spectator", "spectators"):
        return f"{name!r} is what spectators are called; choose another name"
    if _BOT_NAME.match(name):
        return f"{name!r} is how computer players are named; choose another name"
    return None


def clean_text(text: str) -> str:
    """Chat and names: control characters removed, whitespace collapsed. (Escaping is the
    client's job: pages put text in the document with ``textContent`` only.)"""
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(kept.split())
