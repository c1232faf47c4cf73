"""Difficulty levels: a name a player picks (``--level easy``) mapped to a bot and its budget.

Each level must beat the one below by at least 0.10 points per hand in duplicate, with the 95%
interval clear of zero (``bench/levels.py`` prints the ladder), so that a player feels the step:

* ``easy``: the heuristic player with many lapses: 70% of its cards are random legal ones
  (:class:`NoviceBot`), so a beginner wins tricks it should not;
* ``medium``: the same with a third of its cards random;
* ``hard``: the heuristic player, sound and steady, instant;
* ``expert``: the search bot with its full budget, the strongest player that still answers
  within the latency goal (median at most 100 ms, 99th percentile at most 500 ms a decision,
  measured by ``bench/latency.py``). Its bids value a call or a pass by the heuristic player's
  play of the sampled deal to the end and a loner by the exact solver (``playout`` 1,
  ``playout_loners`` false: as strong as solving every deal in the measured games, at a quarter
  of a bid's time; :class:`~euchre.bots.search.SearchBot`).

``hard`` used to be the search bot on a small budget (10 sampled deals a card, 8 a bid): in
duplicate it was not distinguishable from the heuristic player (+0.039 +- 0.058 points per hand)
and its bids were noise (the same hand ordered, went alone or passed depending on the seed). A
search bot on a budget that is steady (40 deals a card, 16 a bid) is nearly the expert's
strength, so no search budget fits between the heuristic and the expert with a step of 0.10 on
both sides: ``hard`` becomes a search bot again once the expert is that much stronger.
"""

from __future__ import annotations

import random
from typing import Any

from euchre.actions import Action
from euchre.bots.base import Bot, make_bot
from euchre.bots.heuristic import HeuristicBot
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["LEVELS", "DEFAULT_LEVEL", "NoviceBot", "level_bot", "level_spec"]

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("novice", {"lapse": 0.7}),
    "medium": ("novice", {}),
    "hard": ("heuristic", {}),
    "expert": ("search", {"playout": 1.0, "playout_loners": False}),
}
"""Level name -> (registered bot name, options passed to its factory)."""

DEFAULT_LEVEL = "hard"


class NoviceBot(Bot):
    """The heuristic player, except that it plays a random legal card ``lapse`` of the time."""

    name = "novice"

    def __init__(self, seed: int | None = None, *, lapse: float = 1 / 3) -> None:
        if isinstance(lapse, bool) or not isinstance(lapse, int | float) or not 0 <= lapse <= 1:
            raise ValueError(f"lapse must be a number from 0 to 1 (the share of cards played at random), "
                             f"not {lapse!r}")
        self.seed = seed
        self.lapse = lapse
        self._rng = random.Random(seed)
        self._good = HeuristicBot(seed)

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, view: PlayerView) -> Action:
        """A random card now and then, otherwise the heuristic choice."""
        if view.phase is Phase.PLAY and self._rng.random() < self.lapse:
            return self._rng.choice(view.legal_actions)
        return self._good.choose(view)


def level_spec(level: str) -> tuple[str, dict[str, Any]]:
    """The bot name and options of a level; ``ValueError`` names the levels for an unknown one."""
    try:
        return LEVELS[level.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None


def level_bot(level: str, seed: int | None = None, **opts: Any) -> Bot:
    """A new bot playing at ``level``; ``opts`` change the level's options (``samples=400``)."""
    name, base = level_spec(level)
    return make_bot(name, seed=seed, **{**base, **opts})
