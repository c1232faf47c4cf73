"""The bot interface and the registry that lets every command pick bots by name.

A bot is anything with ``choose(view) -> Action``: it sees one seat's
:class:`~euchre.view.PlayerView` (never the :class:`~euchre.state.State`), so it cannot peek at
hidden cards, and it must answer with one of ``view.legal_actions``. Bots are registered under a
short name with a factory, so the CLI, the terminal game and tournaments can all say
``--bots random,heuristic`` without importing bot classes.
"""

from __future__ import annotations

import difflib
import inspect
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from euchre.actions import Action
from euchre.view import PlayerView

__all__ = ["Bot", "BotFactory", "register_bot", "make_bot", "make_bots", "bot_names", "bot_descriptions",
           "EXEC_PREFIX", "split_spec", "split_bot_list"]


class Bot(ABC):
    """A computer player. Subclasses implement :meth:`choose`; :meth:`reset` is optional.

    A bot may keep state between calls (memory of a game), but everything it knows must come
    from the views it was shown.
    """

    name: str = "bot"
    """The registry name of the bot's kind (for display and records)."""

    @abstractmethod
    def choose(self, view: PlayerView) -> Action:
        """The action to take; must be one of ``view.legal_actions`` (the view's seat is to act)."""

    def reset(self) -> None:
        """Forget anything remembered from an earlier game (called before a new game)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


BotFactory = Callable[..., Bot]
"""Builds a bot: called as ``factory(seed=seed, **opts)``."""


@dataclass(frozen=True)
class _Entry:
    factory: BotFactory
    description: str


_REGISTRY: dict[str, _Entry] = {}


EXEC_PREFIX = "exec:"
"""Bot names starting with this run an external program: ``exec:python3 my_bot.py``."""


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def register_bot(name: str, factory: BotFactory, description: str = "") -> None:
    """Make a bot available by ``name`` (case-insensitive). Registering a name again replaces it,
    so a plug-in can override a built-in bot."""
    key = _key(name)
    if not key or "," in key or " " in key:
        raise ValueError(f"bad bot name {name!r}: use one word without commas")
    _REGISTRY[key] = _Entry(factory, description)


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(_REGISTRY)


def bot_descriptions() -> dict[str, str]:
    """Each registered name with its one-line description (for ``--help`` and listings)."""
    return {name: _REGISTRY[name].description for name in bot_names()}


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's name and options: ``"search"``, or ``'search:{"samples": 50}'`` with a JSON
    object of options for the factory. ``ValueError`` says what is wrong with bad options."""
    name, sep, opts = spec.strip().partition(":")
    if not sep:
        return name.strip(), {}
    try:
        options = json.loads(opts)
    except json.JSONDecodeError as e:
        raise ValueError(f"bot {spec!r}: the options after ':' are not JSON ({e})") from None
    if not isinstance(options, dict):
        raise ValueError(f"bot {spec!r}: the options after ':' must be a JSON object, like {{\"samples\": 50}}")
    return name.strip(), options


def make_bot(name: str, seed: int | None = None, **opts: Any) -> Bot:
    """A new bot from a spec: a registered kind or level (``"search"``, ``"expert"``), optionally
    with JSON options (``'search:{"samples": 50}'``, ``'expert:{"samples": 400}'``); ``seed`` makes a
    randomised bot repeatable, ``opts`` are passed to the factory too (over the spec's). An unknown
    name raises ``ValueError`` listing the known ones, and so does an option the bot does not take.

    A name starting with ``exec:`` is not looked up: ``"exec:python3 my_bot.py"`` is an
    :class:`~euchre.bots.external.ExternalBot` running that command (the bot protocol of
    ``docs/protocol.md``), given ``seed`` and ``opts`` (e.g. ``timeout=5``)."""
    if not isinstance(name, str):
        raise ValueError(f"a bot is named by a string (e.g. 'expert' or 'search:{{\"samples\": 50}}'), not {name!r}; "
                         f"known bots: {', '.join(bot_names())}")
    if name.strip().lower().startswith(EXEC_PREFIX):
        from euchre.bots.external import ExternalBot

        return ExternalBot(name.strip()[len(EXEC_PREFIX):].strip(), seed=seed, **opts)
    kind, options = split_spec(name)
    entry = _REGISTRY.get(_key(kind))
    if entry is None:
        raise ValueError(f"unknown bot {kind!r}; known bots: {', '.join(bot_names())}")
    try:
        return entry.factory(seed=seed, **{**options, **opts})
    except BotOptionError as e:  # a level's bot refused the option: name the level, as it was asked
        raise BotOptionError(name.strip(), e.detail) from None
    except TypeError as e:
        if "argument" not in str(e):
            raise
        raise BotOptionError(name.strip(), _option_detail(entry.factory, str(e))) from None


def _option_detail(factory: BotFactory, message: str) -> str:
    """What an option the factory does not take is, in words a player acts on: the option, the
    one it most likely meant, and the options there are (else the factory's own message)."""
    m = re.search(r"unexpected keyword argument '([^']+)'", message)
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # (a factory without a signature to read)
        return message
    if m is None:
        return message
    names = sorted(p.name for p in params if p.name not in ("self", "seed")
                   and p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))
    if not names:
        return f"it takes no option {m.group(1)!r}; it has none (only the seed)"
    close = difflib.get_close_matches(m.group(1), names, n=1)
    meant = f" (did you mean {close[0]!r}?)" if close else ""
    return f"it takes no option {m.group(1)!r}{meant}; its options: {', '.join(names)}"


class BotOptionError(ValueError):
    """A bot spec with an option its bot does not take."""

    def __init__(self, spec: str, detail: str) -> None:
        super().__init__(f"bot {spec!r}: {detail}")
        self.detail = detail


def split_bot_list(text: str) -> list[str]:
    """A comma-separated list of bot specs, split at the commas outside JSON options:
    ``'random,search:{"samples": 9, "bid_samples": 4}'`` is two bots."""
    out: list[str] = []
    cur: list[str] = []
    depth, quoted = 0, False
    prev = ""
    for ch in text:
        if quoted:
            quoted = not (ch == '"' and prev != "\\")
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            prev = ch
            continue
        cur.append(ch)
        prev = ch
    out.append("".join(cur))
    return [p.strip() for p in out if p.strip()]


def make_bots(names: str | Sequence[str], seed: int | None = None) -> list[Bot]:
    """Bots from a list of specs or a comma-separated text (``"random,heuristic"``,
    ``'expert,search:{"samples": 9}'``). With a seed, bot ``i`` gets ``seed + i``, so two bots of
    one kind do not play in lockstep.

    ``exec:COMMAND`` names an external program (see :func:`make_bot`); in a comma-separated text
    the command cannot contain a comma (pass a list to use one)."""
    if isinstance(names, str):
        names = split_bot_list(names)
    return [make_bot(n, None if seed is None else seed + i) for i, n in enumerate(names)]
