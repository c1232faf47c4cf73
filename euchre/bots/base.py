"""The bot interface and the registry that lets every command pick bots by name.

A bot is anything with ``choose(view) -> Action``: it sees one seat's
:class:`~euchre.view.PlayerView` (never the :class:`~euchre.state.State`), so it cannot peek at
hidden cards, and it must answer with one of ``view.legal_actions``. Bots are registered under a
short name with a factory, so the CLI, the terminal game and tournaments can all say
``--bots random,heuristic`` without importing bot classes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from euchre.actions import Action
from euchre.view import PlayerView

__all__ = ["Bot", "BotFactory", "register_bot", "make_bot", "make_bots", "bot_names", "bot_descriptions",
           "EXEC_PREFIX"]


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


def make_bot(name: str, seed: int | None = None, **opts: Any) -> Bot:
    """A new bot of the registered kind ``name``; ``seed`` makes a randomised bot repeatable,
    ``opts`` are passed to the factory. An unknown name raises ``ValueError`` listing the known
    ones.

    A name starting with ``exec:`` is not looked up: ``"exec:python3 my_bot.py"`` is an
    :class:`~euchre.bots.external.ExternalBot` running that command (the bot protocol of
    ``docs/protocol.md``), given ``seed`` and ``opts`` (e.g. ``timeout=5``)."""
    if name.strip().lower().startswith(EXEC_PREFIX):
        from euchre.bots.external import ExternalBot

        return ExternalBot(name.strip()[len(EXEC_PREFIX):].strip(), seed=seed, **opts)
    entry = _REGISTRY.get(_key(name))
    if entry is None:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    return entry.factory(seed=seed, **opts)


def make_bots(names: str | Sequence[str], seed: int | None = None) -> list[Bot]:
    """Bots from a list of names or a comma-separated text (``"random,heuristic"``). With a
    seed, bot ``i`` gets ``seed + i``, so two bots of one kind do not play in lockstep.

    ``exec:COMMAND`` names an external program (see :func:`make_bot`); in a comma-separated text
    the command cannot contain a comma (pass a list to use one)."""
    if isinstance(names, str):
        names = [n for n in (p.strip() for p in names.split(",")) if n]
    return [make_bot(n, None if seed is None else seed + i) for i, n in enumerate(names)]
