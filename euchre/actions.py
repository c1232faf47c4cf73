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
79      ``call n``: round 2, no trump (house rule ``no_trump``, RULES-FAMILY.md 12.1)
80      ``call n alone``
81      ``call low``: round 2, low no trump (house rule ``low_no_trump``)
82      ``call low alone``
83-115  ``give <card>``: call for best (house rule ``call_for_best``, RULES-FAMILY.md
        12.2), the lone player's partner gives a card (:data:`GIVE_OFFSET` + card id)
116     ``misdeal``: the ace-no-face redeal (house rule ``ace_no_face``, RULES-FAMILY.md 12.4)
117     ``keep``: decline an offer (ace-no-face or farmer's hand)
118     ``farmer``: claim the farmer's hand (house rule ``farmers_hand``, RULES-FAMILY.md 12.3)
119-130 ``bid 1`` .. ``bid 12``: bids of tricks (Hasenpfeffer 1-6, RULES-FAMILY.md 14; Bid
        Euchre 3-6, and 6-12 with the double deck, 15; :data:`BID_OFFSET` - 1 + tricks)
131     ``moon``: Bid Euchre's bid of every trick alone (:data:`MOON`, beats every bid of tricks)
132-135 ``misere``, ``nap``, ``wellington``, ``blucher``: Napoleon's bids above ``bid 2``,
        ``bid 3`` and ``bid 4`` (RULES-FAMILY.md 16; :data:`NAPOLEON_BIDS` in order)
136-155 ``play 2c`` .. ``play 6s``: Napoleon's full pack, the cards 33-52 (:func:`play`)
156-179 ``play 9c`` .. ``play As`` of the double deck's second copies (cards 53-76): the same
        words as the first copy's play; a seat holding both copies of a card is offered this one,
        a seat holding one the first's, so no choice tells the copies apart
======  ==================================================================

The no-trump calls were appended after the plays, so every older code (and the OpenSpiel
mapping, which has none of them) is unchanged. They are calls (:attr:`Kind.CALL` /
:attr:`Kind.CALL_ALONE`) without a suit: :attr:`Action.trump` is the trump index a call makes
(0-3 a suit, :data:`~euchre.cards.NO_TRUMP`, :data:`~euchre.cards.LOW`).
"""

from __future__ import annotations

from enum import IntEnum

from euchre.cards import (
    CARDS,
    LOW,
    LOW_CARD,
    NO_TRUMP,
    NUM_ALL_CARDS,
    NUM_CARDS,
    TWIN_CARD,
    Card,
    Suit,
    parse_trump,
    trump_letter,
    trump_word,
)
from euchre.errors import InvalidActionError

__all__ = ["Action", "Kind", "NUM_ACTIONS", "PASS", "ORDER", "ORDER_ALONE", "TAKE", "DEFEND_ALONE",
           "call", "play", "discard", "ACTIONS", "DISCARD_OFFSET", "PLAY_OFFSET", "PLAY_ACTIONS",
           "DISCARD_ACTIONS", "CALL_NO_TRUMP", "CALL_NO_TRUMP_ALONE", "CALL_LOW", "CALL_LOW_ALONE",
           "give", "GIVE_OFFSET", "GIVE_ACTIONS", "MISDEAL", "KEEP", "FARMER", "bid", "BID_OFFSET",
           "BID_ACTIONS", "MAX_BID", "EUCHRE_ACTIONS", "MOON", "MISERE", "NAP", "WELLINGTON", "BLUCHER",
           "NAPOLEON_BIDS"]


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
    GIVE = 9
    """Call for best: the lone player's partner gives a card (RULES-FAMILY.md 12.2)."""
    MISDEAL = 10
    """Ace-no-face: the offered seat calls a misdeal (RULES-FAMILY.md 12.4)."""
    KEEP = 11
    """An offered seat keeps its hand (ace-no-face or farmer's hand)."""
    FARMER = 12
    """Farmer's hand: the offered seat claims the exchange (RULES-FAMILY.md 12.3)."""
    BID = 13
    """A bid of tricks: Hasenpfeffer 1 to 6 (RULES-FAMILY.md 14), Bid Euchre 3 to 6 or 12 (15)."""
    MOON = 14
    """Bid Euchre: shoot the moon, a bid of every trick alone (RULES-FAMILY.md 15)."""


_CALL = 5
_CALL_ALONE = 9
DISCARD_OFFSET = 13
"""The code of ``discard`` of card 0: ``discard(card) == DISCARD_OFFSET + card``."""
PLAY_OFFSET = DISCARD_OFFSET + NUM_CARDS
"""The code of ``play`` of card 0, the first play action: ``play(card) == PLAY_OFFSET + card``,
so ``CARDS[action - PLAY_OFFSET]`` is the card of a play action (see :func:`play`)."""
_DISCARD = DISCARD_OFFSET
_PLAY = PLAY_OFFSET
_NO_TRUMP = _PLAY + NUM_CARDS
"""The code of ``call n`` (79); ``call n alone``, ``call low``, ``call low alone`` follow."""
GIVE_OFFSET = _NO_TRUMP + 4
"""The code of ``give`` of card 0 (83): ``give(card) == GIVE_OFFSET + card`` (call for best)."""
_GIVE = GIVE_OFFSET
_OFFERS = _GIVE + NUM_CARDS
"""The code of ``misdeal`` (116), then ``keep`` and ``farmer`` (the offers, appended)."""
BID_OFFSET = _OFFERS + 3
"""The code of ``bid 1`` (119); ``bid k`` is ``BID_OFFSET + k - 1`` (Hasenpfeffer, appended)."""
MAX_BID = 12
"""The highest bid of tricks (Bid Euchre's double deck: all twelve; the six-card games stop at 6)."""
_BID = BID_OFFSET
_MOON = _BID + MAX_BID
"""The code of ``moon`` (131), after the bids."""
_NAP_BIDS = _MOON + 1
"""The code of ``misere`` (132); ``nap``, ``wellington`` and ``blucher`` follow."""
_NAP_WORDS = ("misere", "nap", "wellington", "blucher")
_NAP_TRICKS = (0, 5, 5, 5)
_LOW_PLAY = _NAP_BIDS + len(_NAP_WORDS)
"""The code of ``play 2c`` (136): Napoleon's cards 33-52 are played by codes 136-155."""
_TWIN_PLAY = _LOW_PLAY + TWIN_CARD - LOW_CARD
"""The code of the double deck's second 9 of clubs' play (156)."""
NUM_ACTIONS = _LOW_PLAY + NUM_ALL_CARDS - LOW_CARD
"""Size of the action space (180)."""
EUCHRE_ACTIONS = _BID
"""The codes of the five-card games (119: every game but Hasenpfeffer's bids). The learning
environment, the batch engine and the OpenSpiel game keep this action space for Euchre, so their
layouts did not change when the bids were appended; the sister games use every code
(:data:`NUM_ACTIONS`)."""


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
        if self < _NO_TRUMP:
            return Kind.PLAY
        if self >= _BID:
            if self >= _LOW_PLAY:
                return Kind.PLAY
            return Kind.MOON if self == _MOON else Kind.BID
        if self >= _OFFERS:
            return Kind(Kind.MISDEAL + self - _OFFERS)
        if self >= _GIVE:
            return Kind.GIVE
        return Kind.CALL_ALONE if self & 1 == 0 else Kind.CALL

    @property
    def card(self) -> Card | None:
        """The card of a ``play``, ``discard`` or ``give``."""
        if self >= _LOW_PLAY:
            return CARDS[self - _LOW_PLAY + LOW_CARD]
        if self >= _OFFERS:
            return None
        if self >= _GIVE:
            return CARDS[self - _GIVE]
        if self >= _NO_TRUMP:
            return None
        if self >= _PLAY:
            return CARDS[self - _PLAY]
        if self >= _DISCARD:
            return CARDS[self - _DISCARD]
        return None

    @property
    def tricks(self) -> int | None:
        """The tricks a ``bid`` offers (1 to 12), ``None`` for every other action (``moon``
        included: it offers every trick of the hand, whose size the rules give).

        >>> Action.parse("bid 3").tricks, Action.parse("pass").tricks, Action.parse("moon").tricks
        (3, None, None)
        """
        if _NAP_BIDS <= self < _LOW_PLAY:  # Napoleon: misère takes none, the others all five
            return _NAP_TRICKS[self - _NAP_BIDS]
        return self - _BID + 1 if _BID <= self < _MOON else None

    @property
    def suit(self) -> Suit | None:
        """The suit named by a ``call`` (``None`` for ``call n`` and ``call low``: no suit)."""
        if _CALL <= self < _DISCARD:
            return Suit((self - _CALL) % 4)
        return None

    @property
    def trump(self) -> int | None:
        """The trump index a ``call`` makes: its suit (a :class:`~euchre.cards.Suit`),
        :data:`~euchre.cards.NO_TRUMP` for ``call n``, :data:`~euchre.cards.LOW` for ``call low``;
        ``None`` for every other action.

        >>> Action.parse("call h").trump, Action.parse("call n alone").trump, Action.parse("call low").trump
        (<Suit.HEARTS: 2>, 4, 5)
        """
        if _CALL <= self < _DISCARD:
            return Suit((self - _CALL) % 4)
        if _NO_TRUMP <= self < _GIVE:
            return NO_TRUMP if self < _NO_TRUMP + 2 else LOW
        return None

    @property
    def alone(self) -> bool:
        """True for the bids that go alone (``order alone``, ``call x alone``, Bid Euchre's ``moon``)."""
        return (self == 2 or _CALL_ALONE <= self < _DISCARD or (_NO_TRUMP <= self < _GIVE and self & 1 == 0)
                or self == _MOON)

    @property
    def is_bid(self) -> bool:
        """True for every decision made before play (bids, take, defend, discard excluded)."""
        return self < _DISCARD or _NO_TRUMP <= self < _GIVE or _BID <= self < _LOW_PLAY

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
            return f"call {trump_letter(self.trump)}"  # type: ignore[arg-type]  # a call has a trump
        if k is Kind.CALL_ALONE:
            return f"call {trump_letter(self.trump)} alone"  # type: ignore[arg-type]
        if k is Kind.DISCARD:
            return f"discard {self.card}"
        if k is Kind.GIVE:
            return f"give {self.card}"
        if k is Kind.MISDEAL:
            return "misdeal"
        if k is Kind.KEEP:
            return "keep"
        if k is Kind.FARMER:
            return "farmer"
        if k is Kind.BID:
            if self >= _NAP_BIDS:
                return _NAP_WORDS[self - _NAP_BIDS]
            return f"bid {self.tricks}"
        if k is Kind.MOON:
            return "moon"
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def describe(self) -> str:
        """The action in words for a player: ``"call hearts, alone"``, ``"play the jack of hearts"``."""
        k = self.kind
        if k is Kind.CALL or k is Kind.CALL_ALONE:
            assert self.trump is not None
            return f"call {trump_word(self.trump)}" + (", alone" if self.alone else "")
        if k is Kind.PLAY:
            assert self.card is not None
            return f"play the {self.card.name()}".replace("the the", "the")
        if k is Kind.DISCARD:
            assert self.card is not None
            return f"discard the {self.card.name()}".replace("the the", "the")
        if k is Kind.GIVE:
            assert self.card is not None
            return f"give the {self.card.name()}".replace("the the", "the")
        if k is Kind.BID:
            if self >= _NAP_BIDS:
                return ("bid misère (no trick)", "go nap (all five)", "bid Wellington (all five, doubled)",
                        "bid Blücher (all five, redoubled)")[self - _NAP_BIDS]
            return f"bid {self.tricks} trick" + ("" if self.tricks == 1 else "s")
        if k is Kind.MOON:
            return "shoot the moon"
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
        if head in ("misdeal", "keep", "farmer") and not rest:
            return ACTIONS[_OFFERS + ("misdeal", "keep", "farmer").index(head)]
        if head == "bid" and len(rest) == 1 and rest[0].isdigit() and 1 <= int(rest[0]) <= MAX_BID:
            return bid(int(rest[0]))
        if (head, rest) in (("moon", []), ("shoot", ["the", "moon"]), ("shoot", ["moon"]), ("bid", ["moon"])):
            return MOON
        word = (rest[0] if head in ("bid", "go") and len(rest) == 1 else head if not rest else "")
        word = word.replace("è", "e").replace("ü", "u").replace("blue", "blu")
        if word in _NAP_WORDS:
            return ACTIONS[_NAP_BIDS + _NAP_WORDS.index(word)]
        if head == "defend" and rest == ["alone"]:
            return DEFEND_ALONE
        if head in ("call", "name") and rest:
            alone = rest[-1] == "alone"
            suit_words = rest[:-1] if alone else rest
            if 1 <= len(suit_words) <= 2:
                return call(parse_trump(" ".join(suit_words)), alone=alone)
        if head in ("play", "discard", "give") and len(rest) == 1:
            c = Card.parse(rest[0])
            return play(c) if head == "play" else discard(c) if head == "discard" else give(c)
        raise InvalidActionError(
            f"not an action: {_clipped(text)} (say pass, order, order alone, take, call h, call h alone, "
            "call n, call low, discard 9c, play Jh, give Ah, defend alone, misdeal, keep, farmer, bid 3, moon, misere, "
            "nap, wellington or blucher)"
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
PLAY_ACTIONS: tuple[Action, ...] = (*ACTIONS[_PLAY:_NO_TRUMP], *ACTIONS[_LOW_PLAY:NUM_ACTIONS])
"""``play <card>`` by card id (``PLAY_ACTIONS[card]``; the cards 33-52, Napoleon's, by codes 136-155)."""
DISCARD_ACTIONS: tuple[Action, ...] = ACTIONS[_DISCARD:_PLAY]


CALL_NO_TRUMP = ACTIONS[_NO_TRUMP]
"""``call n``: no trump (house rule ``no_trump``)."""
CALL_NO_TRUMP_ALONE = ACTIONS[_NO_TRUMP + 1]
CALL_LOW = ACTIONS[_NO_TRUMP + 2]
"""``call low``: low no trump (house rule ``low_no_trump``)."""
CALL_LOW_ALONE = ACTIONS[_NO_TRUMP + 3]
GIVE_ACTIONS: tuple[Action, ...] = ACTIONS[_GIVE:_GIVE + NUM_CARDS]
"""``give <card>`` by card id (call for best)."""
MISDEAL = ACTIONS[_OFFERS]
"""``misdeal``: the ace-no-face redeal (house rule ``ace_no_face``)."""
KEEP = ACTIONS[_OFFERS + 1]
"""``keep``: an offered seat keeps its hand."""
FARMER = ACTIONS[_OFFERS + 2]
"""``farmer``: the farmer's hand exchange (house rule ``farmers_hand``)."""
BID_ACTIONS: tuple[Action, ...] = ACTIONS[_BID:_BID + MAX_BID]
"""``bid 1`` .. ``bid 12``: ``BID_ACTIONS[k - 1]`` bids ``k`` tricks."""
MOON = ACTIONS[_MOON]
"""``moon``: Bid Euchre's bid of every trick, alone (RULES-FAMILY.md 15)."""
MISERE, NAP, WELLINGTON, BLUCHER = ACTIONS[_NAP_BIDS:_LOW_PLAY]
"""Napoleon's bids (RULES-FAMILY.md 16): misère (take no trick), Nap, Wellington, Blücher (all five)."""
NAPOLEON_BIDS: tuple[Action, ...] = (ACTIONS[_BID + 1], ACTIONS[_BID + 2], MISERE, ACTIONS[_BID + 3], NAP,
                                     WELLINGTON, BLUCHER)
"""Napoleon's bids from the lowest: 2, 3, misère, 4, Nap, Wellington, Blücher (a hand's ``bid`` is
its place here, from 1)."""


def bid(tricks: int) -> Action:
    """The bid of ``tricks`` (1 to 12; each game offers its own range).

    >>> bid(3), int(bid(1))
    (Action('bid 3'), 119)
    """
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 1 <= tricks <= MAX_BID:
        raise InvalidActionError(f"a bid is 1 to {MAX_BID} tricks, got {tricks!r}")
    return ACTIONS[_BID + tricks - 1]


def call(suit: int, *, alone: bool = False) -> Action:
    """The round-2 (or Joker) bid naming ``suit``; a trump index of 4 or 5 is the no-trump call
    (:data:`~euchre.cards.NO_TRUMP`: ``call n``, :data:`~euchre.cards.LOW`: ``call low``).

    >>> call(2, alone=True), call(NO_TRUMP), call(LOW, alone=True)
    (Action('call h alone'), Action('call n'), Action('call low alone'))
    """
    if suit >= NO_TRUMP:
        return ACTIONS[_NO_TRUMP + 2 * (suit - NO_TRUMP) + (1 if alone else 0)]
    return ACTIONS[(_CALL_ALONE if alone else _CALL) + suit]


def play(card: int) -> Action:
    """Play a card; its code is :data:`PLAY_OFFSET` plus the card id.

    >>> a = play(Card.parse("Jh"))
    >>> a, a - PLAY_OFFSET == Card.parse("Jh"), CARDS[a - PLAY_OFFSET]
    (Action('play Jh'), True, Card('Jh'))
    """
    return ACTIONS[_PLAY + card] if card < LOW_CARD else ACTIONS[_LOW_PLAY + card - LOW_CARD]


def discard(card: int) -> Action:
    """The dealer buries a card; its code is :data:`DISCARD_OFFSET` plus the card id.

    >>> discard(Card.parse("9c")) - DISCARD_OFFSET == Card.parse("9c")
    True
    """
    if not 0 <= card < NUM_CARDS:
        raise InvalidActionError(f"no {_card_words(card)} is ever discarded: only the Euchre decks' cards "
                                 "(the nines up, the sevens and eights, the Joker) are buried or given")
    return ACTIONS[_DISCARD + card]


def give(card: int) -> Action:
    """Call for best: the lone player's partner gives a card; its code is :data:`GIVE_OFFSET`
    plus the card id.

    >>> give(Card.parse("Ah")), give(Card.parse("Ah")) - GIVE_OFFSET == Card.parse("Ah")
    (Action('give Ah'), True)
    """
    if not 0 <= card < NUM_CARDS:
        raise InvalidActionError(f"no {_card_words(card)} is ever given: only the Euchre decks' cards "
                                 "(the nines up, the sevens and eights, the Joker) are given or buried")
    return ACTIONS[_GIVE + card]


def _clipped(text: str, most: int = 60) -> str:
    """``text`` quoted for an error message, cut short if long (a pasted page is not echoed whole)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def _card_words(card: int) -> str:
    """``card`` as a card if it is one, else as the number it is (for an error message)."""
    try:
        return f"card {Card(card)}"
    except InvalidActionError:
        return f"card id {card!r}"
