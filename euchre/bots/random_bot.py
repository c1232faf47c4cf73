"""The random bot: a uniform choice among the legal actions (the baseline every bot must beat)."""

from __future__ import annotations

import random

from euchre.actions import Action
from euchre.bots.base import Bot
from euchre.view import PlayerView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among ``view.legal_actions`` with its own seeded generator, so a game
    between random bots replays exactly from the seeds."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal action."""
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        return self.rng.choice(view.legal_actions)
