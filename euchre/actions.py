"""The action vocabulary: every decision of a hand as one small int with a text form.

An :class:`Action` is an ``int`` (its code, for search and learning) that prints and parses as the
words a player would say: ``pass``, ``order``, ``order alone``, ``take``, ``call h``,
``call h alone``, ``discard 9c``, ``play Jh``, ``defend alone``. The codes are fixed:

======  ==================================================================
code    action
======  ==================================================================
0       ``pass`` (also the two-handed dealer's decline, a defender's no)
1       ``order``: round 1, accept the up card's suit (the dealer "picks it up")
2       ``order alone``
3       ``take``: two-handed, the dealer takes the up card after an order
4       ``defend alone``
5-8     ``call c|d|h|s``: round 2 (or the dealer under a turned-up Joker)
9-12    ``call c|d|h|s alone``
13-45   ``discard <card>`` (:data:`DISCARD_OFFSET` + card id)
46-78   ``play <card>`` (:data:`PLAY_OFFSET` + card id)
======  ==================================================================
"""

from __future__ import annotations

from enum import IntEnum

from euchre.cards import CARDS, NUM_CARDS, Card, Suit
from euchre.errors import InvalidActionError

__all__ = ["Action", "Kind", "NUM_ACTIONS", "PASS", "ORDER", "ORDER_ALONE", "TAKE", "DEFEND_ALONE",
           "call", "play", "discard", "ACTIONS", "DISCARD_OFFSET", "PLAY_OFFSET", "PLAY_ACTIONS",
           "DISCARD_ACTIONS"]


class Kind(IntEnum):
    """What sort of decision an action is."""

    PASS = 0
    ORDER = 1
    ORDER_ALONE = 2
    TAKE = 3
    DEFEND_ALONE = 4
    CALL = 5
    CALL_ALONE = 6
    DISCARD = 7
    PLAY = 8


_CALL = 5
_CALL_ALONE = 9
DISCARD_OFFSET = 13
"""The code of ``discard`` of card 0: ``discard(card) == DISCARD_OFFSET + card``."""
PLAY_OFFSET = DISCARD_OFFSET + NUM_CARDS
"""The code of ``play`` of card 0, the first play action: ``play(card) == PLAY_OFFSET + card``,
so ``CARDS[action - PLAY_OFFSET]`` is the card of a play action (see :func:`play`)."""
_DISCARD = DISCARD_OFFSET
_PLAY = PLAY_OFFSET
NUM_ACTIONS = _PLAY + NUM_CARDS
"""Size of the action space (79)."""


class Action(int):
    """One decision, as its int code; ``str(action)`` is its text form."""

    __slots__ = ()

    @property
    def kind(self) -> Kind:
        """The kind of action."""
        if self < _CALL:
            return Kind(int(self))
        if self < _CALL_ALONE:
            return Kind.CALL
        if self < _DISCARD:
            return Kind.CALL_ALONE
        if self < _PLAY:
            return Kind.DISCARD
        return Kind.PLAY

    @property
    def card(self) -> Card | None:
        """The card of a ``play`` or ``discard``."""
        if self >= _PLAY:
            return CARDS[self - _PLAY]
        if self >= _DISCARD:
            return CARDS[self - _DISCARD]
        return None

    @property
    def suit(self) -> Suit | None:
        """The suit named by a ``call``."""
        if _CALL <= self < _DISCARD:
            return Suit((self - _CALL) % 4)
        return None

    @property
    def alone(self) -> bool:
        """True for the bids that go alone (``order alone``, ``call x alone``)."""
        return self == 2 or _CALL_ALONE <= self < _DISCARD

    @property
    def is_bid(self) -> bool:
        """True for every decision made before play (bids, take, defend, discard excluded)."""
        return self < _DISCARD

    def __str__(self) -> str:
        return _TEXT[self]

    def _text(self) -> str:
        k = self.kind
        if k is Kind.PASS:
            return "pass"
        if k is Kind.ORDER:
            return "order"
        if k is Kind.ORDER_ALONE:
            return "order alone"
        if k is Kind.TAKE:
            return "take"
        if k is Kind.DEFEND_ALONE:
            return "defend alone"
        if k is Kind.CALL:
            return f"call {self.suit}"
        if k is Kind.CALL_ALONE:
            return f"call {self.suit} alone"
        if k is Kind.DISCARD:
            return f"discard {self.card}"
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def describe(self) -> str:
        """The action in words for a player: ``"call hearts, alone"``, ``"play the jack of hearts"``."""
        k = self.kind
        if k is Kind.CALL or k is Kind.CALL_ALONE:
            assert self.suit is not None
            return f"call {self.suit.word}" + (", alone" if self.alone else "")
        if k is Kind.PLAY:
            assert self.card is not None
            return f"play the {self.card.name()}".replace("the the", "the")
        if k is Kind.DISCARD:
            assert self.card is not None
            return f"discard the {self.card.name()}".replace("the the", "the")
        return str(self)

    @classmethod
    def from_code(cls, code: int) -> Action:
        """The action of an int code; raises :class:`InvalidActionError` if out of range."""
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < NUM_ACTIONS:
            raise InvalidActionError(f"not an action code: {code!r} (0..{NUM_ACTIONS - 1})")
        return ACTIONS[code]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form (case and extra spaces ignored).

        >>> Action.parse("call h alone").alone
        True
        """
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise InvalidActionError("empty action")
        head, rest = words[0], words[1:]
        if rest == ["up"] and head == "pick":
            return ORDER
        if rest == ["up", "alone"] and head == "pick":
            return ORDER_ALONE
        if head == "pass" and not rest:
            return PASS
        if head in ("order", "pickup") and not rest:
            return ORDER
        if head in ("order", "pickup") and rest == ["alone"]:
            return ORDER_ALONE
        if head == "take" and not rest:
            return TAKE
        if head == "defend" and rest == ["alone"]:
            return DEFEND_ALONE
        if head in ("call", "name") and rest:
            alone = rest[-1] == "alone"
            suit_words = rest[:-1] if alone else rest
            if len(suit_words) == 1:
                return call(Suit.parse(suit_words[0]), alone=alone)
        if head in ("play", "discard") and len(rest) == 1:
            c = Card.parse(rest[0])
            return play(c) if head == "play" else discard(c)
        raise InvalidActionError(
            f"not an action: {text!r} (say pass, order, order alone, take, call h, call h alone, "
            "discard 9c, play Jh or defend alone)"
        )


_TEXT: tuple[str, ...] = tuple(Action(code)._text() for code in range(NUM_ACTIONS))
"""The text form of every action code (``str(action)`` is on every record, view and frame)."""


ACTIONS: tuple[Action, ...] = tuple(Action(i) for i in range(NUM_ACTIONS))
"""Every action by code; the canonical instances."""
PASS = ACTIONS[0]
ORDER = ACTIONS[1]
ORDER_ALONE = ACTIONS[2]
TAKE = ACTIONS[3]
DEFEND_ALONE = ACTIONS[4]
PLAY_ACTIONS: tuple[Action, ...] = ACTIONS[_PLAY:]
DISCARD_ACTIONS: tuple[Action, ...] = ACTIONS[_DISCARD:_PLAY]


def call(suit: int, *, alone: bool = False) -> Action:
    """The round-2 (or Joker) bid naming ``suit``."""
    return ACTIONS[(_CALL_ALONE if alone else _CALL) + suit]


def play(card: int) -> Action:
    """Play a card; its code is :data:`PLAY_OFFSET` plus the card id.

    >>> a = play(Card.parse("Jh"))
    >>> a, a - PLAY_OFFSET == Card.parse("Jh"), CARDS[a - PLAY_OFFSET]
    (Action('play Jh'), True, Card('Jh'))
    """
    return ACTIONS[_PLAY + card]


def discard(card: int) -> Action:
    """The dealer buries a card; its code is :data:`DISCARD_OFFSET` plus the card id.

    >>> discard(Card.parse("9c")) - DISCARD_OFFSET == Card.parse("9c")
    True
    """
    return ACTIONS[_DISCARD + card]
