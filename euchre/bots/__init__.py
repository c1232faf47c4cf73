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

from euchre.bots.base import Bot, BotFactory, bot_descriptions, bot_names, make_bot, make_bots, register_bot
from euchre.bots.heuristic import HeuristicBot
from euchre.bots.random_bot import RandomBot

__all__ = [
    "Bot", "BotFactory", "register_bot", "make_bot", "make_bots", "bot_names", "bot_descriptions",
    "RandomBot", "HeuristicBot",
]

register_bot("random", RandomBot, "uniformly random legal actions (seeded): the baseline")
register_bot("heuristic", HeuristicBot, "rule-based: bids on hand strength, draws trump, wins cheaply")
