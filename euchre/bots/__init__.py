"""Computer players: the :class:`Bot` interface, a registry of bots by name, and the built-ins.

>>> from euchre import Game, Rules
>>> from euchre.bots import make_bot
>>> game = Game(Rules(), seed=3)
>>> bot = make_bot("heuristic")
>>> bot.choose(game.view(game.to_act)) in game.legal_actions()
True

Built-in bots: ``random`` (uniform over the legal actions) and ``heuristic`` (a rule-based
player). Other modules add theirs with :func:`register_bot`.
"""

import json

from euchre.bots.base import Bot, BotFactory, bot_descriptions, bot_names, make_bot, make_bots, register_bot
from euchre.bots.heuristic import HeuristicBot
from euchre.bots.levels import NoviceBot
from euchre.bots.random_bot import RandomBot
from euchre.bots.search import SearchBot

__all__ = [
    "Bot", "BotFactory", "register_bot", "make_bot", "make_bots", "bot_names", "bot_descriptions",
    "RandomBot", "HeuristicBot", "SearchBot", "NoviceBot",
]

register_bot("random", RandomBot, "uniformly random legal actions (seeded): the baseline")
register_bot("heuristic", HeuristicBot, "rule-based: bids on hand strength, draws trump, wins cheaply")
register_bot("novice", NoviceBot, "the heuristic player playing a third of its cards at random (level medium)")
register_bot("search", SearchBot, "samples the unseen cards and solves each deal exactly: the strongest")


def _register_levels() -> None:
    """Each difficulty level is a bot name too (``euchre arena expert hard``)."""
    from functools import partial

    from euchre.bots.levels import LEVELS, level_bot

    for level, (kind, opts) in LEVELS.items():
        shown = f"{kind} {json.dumps(opts)}" if opts else kind
        register_bot(level, partial(level_bot, level), f"level {level}: {shown}")


_register_levels()
