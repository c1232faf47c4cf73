"""Euchre: an exact rules engine for every common variant, game records, and computer players.

>>> from euchre import Game, Rules
>>> game = Game(Rules.preset("american"), seed=1)
>>> game.push(game.legal_actions()[0])
Action('pass')
"""

from euchre.actions import Action, Kind
from euchre.cards import JOKER, Card, CardSet, Suit
from euchre.errors import (
    DealError,
    EuchreError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    RulesError,
)
from euchre.game import Game
from euchre.hints import Hint, hint
from euchre.rules import Rules
from euchre.state import Deal, Phase, State, Trick
from euchre.view import PlayerView

__all__ = [
    "Action", "Kind", "Card", "CardSet", "Suit", "JOKER", "Rules", "Game", "State", "Deal", "Phase",
    "Trick", "PlayerView", "EuchreError", "InvalidActionError", "IllegalActionError", "RulesError",
    "DealError", "RecordError", "hint", "Hint",
]

__version__ = "0.1.0"
