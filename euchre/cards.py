"""Suits, ranks, cards, card sets and the trump arithmetic (bowers, Joker).

A card is a small int (``suit * 8 + rank``, the Joker is 32) so that hands are bitmasks and the
engine and search code stay cheap; :class:`Card` is an ``int`` subclass that prints and parses as
``Jh``, ``Tc`` or ``Jk`` (the Joker). Napoleon's full pack (RULES-FAMILY.md 16) adds the 2s to 6s
after the Joker, as ids 33-52 (``33 + suit * 5 + k``, k = 0..4 for 2..6), so every id of the
Euchre games, and every layout built on them, is unchanged. Bid Euchre's double deck (RULES-FAMILY.md
15) holds each card of the 24-card pack twice: the second copies are ids 53-76 (:data:`TWIN_CARD`,
in the order of the 24 cards), which print, parse and rank as the card itself (:func:`face`), so
no player can tell two copies apart. Every question that depends on trump (which suit a card
follows, how strong it is in a trick) is answered here and only here, from precomputed tables.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum

from euchre.errors import InvalidActionError

__all__ = [
    "Suit",
    "Card",
    "CardSet",
    "CARDS",
    "JOKER",
    "RANKS",
    "SUITS",
    "deck_mask",
    "deck_cards",
    "effective_suit",
    "card_power",
    "follow_mask",
    "sort_hand",
    "iter_mask",
    "mask_of",
    "left_bower",
    "right_bower",
    "NO_TRUMP",
    "LOW",
    "NUM_TRUMPS",
    "NUM_ALL_CARDS",
    "NUM_ALL_TRUMPS",
    "PLAIN_TRUMP",
    "PLAIN_NO_TRUMP",
    "plain_trump",
    "trump_suit",
    "face",
    "TWIN",
    "TWIN_CARD",
    "TWIN_MASK",
    "trump_letter",
    "trump_word",
    "parse_trump",
]


class Suit(IntEnum):
    """The four suits, in the order of the rules: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter text form: ``c d h s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol for display: ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red; clubs and spades are black."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (the suit of the left bower)."""
        return Suit(3 - self)

    @property
    def word(self) -> str:
        """The suit's name in words, plural (``"hearts"``)."""
        return ("clubs", "diamonds", "hearts", "spades")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``h``, ``hearts``, ``H`` or ``♥``; raise :class:`InvalidActionError` otherwise."""
        t = text.strip().lower()
        for s in cls:
            if t in (s.letter, s.symbol, s.word, s.word[:-1], s.name.lower()):
                return s
        raise InvalidActionError(f"not a suit: {text[:20]!r}{'...' if len(text) > 20 else ''} (use c, d, h or s)")

    def __str__(self) -> str:
        return self.letter


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS = "789TJQKA"
"""Rank letters, low to high; the rank index of a card is its position here."""
RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
LOW_RANKS = "23456"
"""Napoleon's full pack: the rank letters below the seven, low to high (ids 33-52)."""
LOW_RANK_WORDS = ("two", "three", "four", "five", "six")

JACK_RANK = 4
NUM_CARDS = 33
"""Card ids of the Euchre games: 0..31 for the 32 suited cards and 32 for the Joker (the layouts
of the action codes and the learning environments are built on these)."""
LOW_CARD = 33
"""The id of the first of Napoleon's low cards (the 2 of clubs)."""
TWIN_CARD = 53
"""The id of the double deck's second 9 of clubs; the 24 second copies follow, in card id order."""
NUM_ALL_CARDS = 77
"""Every card id, Napoleon's 2s to 6s (33-52) and the double deck's second copies (53-76)
included: the length of the trump tables."""


class Card(int):
    """A playing card; an ``int`` (``suit * 8 + rank``, Joker 32) that prints as ``Jh``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        """The card of id ``value`` (0..52); any other value raises :class:`InvalidActionError`."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_ALL_CARDS:
            raise InvalidActionError(f"not a card id: {value!r} (0..{NUM_CARDS - 1}: suit * 8 + rank, "
                                     f"{NUM_CARDS - 1} the Joker; {LOW_CARD}..{TWIN_CARD - 1} the 2s to 6s; "
                                     f"{TWIN_CARD}..{NUM_ALL_CARDS - 1} the double deck's second copies)")
        return super().__new__(cls, value)

    @property
    def face(self) -> Card:
        """The card as players see it: a double deck's second copy is the card itself."""
        return CARDS[_FACE[self]]

    @property
    def is_joker(self) -> bool:
        """True for the Joker (the Benny), which has no printed suit."""
        return self == JOKER

    @property
    def suit(self) -> Suit | None:
        """The printed suit; ``None`` for the Joker. Use :func:`effective_suit` for play."""
        if self >= TWIN_CARD:
            return CARDS[_FACE[self]].suit
        if self > JOKER:
            return Suit((self - LOW_CARD) // 5)
        return None if self == JOKER else Suit(self >> 3)

    @property
    def rank(self) -> int:
        """Rank index 0..7 (7 8 9 T J Q K A); the Joker is 8; Napoleon's 2 to 6 are -5..-1."""
        if self >= TWIN_CARD:
            return CARDS[_FACE[self]].rank
        if self > JOKER:
            return (self - LOW_CARD) % 5 - 5
        return 8 if self == JOKER else self & 7

    @property
    def rank_letter(self) -> str:
        """The rank as one character, ``T`` for ten."""
        if self >= TWIN_CARD:
            return CARDS[_FACE[self]].rank_letter
        if self > JOKER:
            return LOW_RANKS[(self - LOW_CARD) % 5]
        return "J" if self == JOKER else RANKS[self & 7]

    def name(self) -> str:
        """The card in words: ``"jack of hearts"``, ``"the Joker"``."""
        if self == JOKER:
            return "the Joker"
        if self >= TWIN_CARD:
            return CARDS[_FACE[self]].name()
        if self > JOKER:
            return f"{LOW_RANK_WORDS[(self - LOW_CARD) % 5]} of {Suit((self - LOW_CARD) // 5).word}"
        return f"{RANK_WORDS[self & 7]} of {Suit(self >> 3).word}"

    def symbol(self) -> str:
        """Display form with the suit symbol: ``J♥``, ``10♣``, ``JK`` for the Joker."""
        if self == JOKER:
            return "JK"
        if self >= TWIN_CARD:
            return CARDS[_FACE[self]].symbol()
        if self > JOKER:
            return self.rank_letter + Suit((self - LOW_CARD) // 5).symbol
        r = "10" if self & 7 == 3 else RANKS[self & 7]
        return r + Suit(self >> 3).symbol

    def __str__(self) -> str:
        if self == JOKER:
            return "Jk"
        if self >= TWIN_CARD:
            return str(CARDS[_FACE[self]])
        if self > JOKER:
            return LOW_RANKS[(self - LOW_CARD) % 5] + "cdhs"[(self - LOW_CARD) // 5]
        return RANKS[self & 7] + "cdhs"[self >> 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``Jh``, ``jh``, ``10h``, ``Th``, ``J♥`` or ``Jk``/``joker`` (the Joker)."""
        t = text.strip()
        low = t.lower()
        if low in ("jk", "joker", "jo", "benny", "bj", "★"):
            return JOKER
        if low.startswith("10"):
            low = "t" + low[2:]
        if len(low) == 2:
            r = RANKS.lower().find(low[0])
            if r >= 0:
                try:
                    s = Suit.parse(low[1])
                except InvalidActionError:
                    pass
                else:
                    return CARDS[s * 8 + r]
            k = LOW_RANKS.find(low[0])
            if k >= 0:
                try:
                    s = Suit.parse(low[1])
                except InvalidActionError:
                    pass
                else:
                    return CARDS[LOW_CARD + s * 5 + k]
        raise InvalidActionError(
            f"not a card: {text[:20]!r}{'...' if len(text) > 20 else ''} (write rank then suit, e.g. Jh, Tc, 9s, "
            "or Jk for the Joker)"
        )


_TWIN_FACES = tuple(s * 8 + r for s in range(4) for r in range(2, 8))
"""The cards of the 24-card pack, in id order: the faces of the double deck's second copies."""
_FACE: tuple[int, ...] = (*range(TWIN_CARD), *_TWIN_FACES)
"""_FACE[card id]: the card as players see it (a second copy's first)."""
TWIN: dict[int, int] = {f: TWIN_CARD + i for i, f in enumerate(_TWIN_FACES)}
"""TWIN[card]: the id of the double deck's second copy of a card of the 24-card pack."""
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(NUM_ALL_CARDS))
"""Every card by id (Napoleon's 2s to 6s, then the double deck's second copies, last); the
canonical instances."""
JOKER: Card = CARDS[NUM_CARDS - 1]
"""The Joker (the Benny), the last card id (32), after the 32 suited cards."""
JOKER_BIT = 1 << JOKER


def right_bower(trump: int) -> Card:
    """The jack of trump."""
    return CARDS[trump * 8 + JACK_RANK]


def left_bower(trump: int) -> Card:
    """The jack of the other suit of trump's colour."""
    return CARDS[(3 - trump) * 8 + JACK_RANK]


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_DECK_RANKS = {20: range(3, 8), 24: range(2, 8), 25: range(2, 8), 32: range(0, 8)}
DECK_SIZES = tuple(_DECK_RANKS)
"""The decks of the Euchre games."""
NAPOLEON_DECKS = (24, 28, 32, 52)
"""Napoleon's packs (RULES-FAMILY.md 16): 9-A, 8-A, 7-A and the full 52 cards."""
_LOW_MASK = ((1 << TWIN_CARD) - 1) & ~((1 << LOW_CARD) - 1)
TWIN_MASK = ((1 << NUM_ALL_CARDS) - 1) & ~((1 << TWIN_CARD) - 1)
"""The double deck's second copies (ids 53-76)."""


def face(card: int) -> Card:
    """The card as players see it: a double deck's second copy is the card itself.

    >>> face(TWIN[Card.parse("Ah")]) == Card.parse("Ah"), str(CARDS[TWIN[Card.parse("9c")]])
    (True, '9c')
    """
    return CARDS[_FACE[card]]


def deck_mask(size: int) -> int:
    """The cards of a deck of ``size`` (20, 24, 25 with the Joker, or 32; Napoleon's 28, 8 to A,
    and 52, the full pack) as a bitmask."""
    if size == 28:
        return mask_of(s * 8 + r for s in range(4) for r in range(1, 8))
    if size == 52:
        return deck_mask(32) | _LOW_MASK
    m = mask_of(s * 8 + r for s in range(4) for r in _DECK_RANKS[size])
    return m | JOKER_BIT if size == 25 else m


def deck_cards(size: int) -> list[Card]:
    """The cards of a deck in id order (the order a fresh pack is shuffled from)."""
    return list(iter_mask(deck_mask(size)))


# --- trump arithmetic ------------------------------------------------------------------------
# A "trump index" t names how a hand is played: 0..3 a trump suit, NO_TRUMP (4) a hand without
# trump (also the natural ranking used before trump is made), LOW (5) no trump with the ranks
# reversed (RULES-FAMILY.md 12.1). Every table below is indexed by it.
# EFFECTIVE[t][c]: the suit card c follows when t is trump (t = 4 means no trump yet).
# POWER[t][c]: trick strength within trump (>= 100) or rank within the printed suit (under LOW,
#   7 - rank: the 9 highest).
# FOLLOW[t][s]: mask of the cards that follow suit s when t is trump (s = 4: the Joker's slot
#   before trump; s = 5 is empty, so FOLLOW[t][t] is the trump suit, empty without one).

NO_TRUMP = 4
"""The trump index of a hand played without trump (house rule ``no_trump``): A K Q J 10 9 in every
suit, each jack in its own suit. Before trump is made the tables use this index too."""
LOW = 5
"""The trump index of a "low" hand (house rule ``low_no_trump``): no trump, 9 10 J Q K A, the 9
highest."""
NUM_TRUMPS = 6
"""Number of trump indexes of the Euchre games (four suits, no trump, low): the layouts of the
learning environments are built on these."""
PLAIN_TRUMP = 6
"""Napoleon (RULES-FAMILY.md 16): the trump index of the clubs, without bowers (6 to 9: a suit's
trump index is ``PLAIN_TRUMP + suit``, :func:`plain_trump`); every suit ranks A K Q J 10 9 8 7 6
5 4 3 2."""
PLAIN_NO_TRUMP = 10
"""Napoleon's misère: no trump, every suit A down to 2, each jack in its own suit."""
NUM_ALL_TRUMPS = 11
"""Every trump index, Napoleon's included: the length of the tables below."""


def plain_trump(suit: int) -> int:
    """Napoleon: the trump index of ``suit`` as trump without bowers."""
    return PLAIN_TRUMP + suit


def trump_suit(trump: int | None) -> Suit | None:
    """The suit a trump index makes trump (with or without bowers); ``None`` for no trump, low,
    misère and before trump is made.

    >>> trump_suit(2), trump_suit(plain_trump(2)), trump_suit(NO_TRUMP)
    (<Suit.HEARTS: 2>, <Suit.HEARTS: 2>, None)
    """
    if trump is None:
        return None
    if trump < NO_TRUMP:
        return SUITS[trump]
    if PLAIN_TRUMP <= trump < PLAIN_NO_TRUMP:
        return SUITS[trump - PLAIN_TRUMP]
    return None


def _build() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    effective = []
    power = []
    follow = []
    for t in range(NUM_ALL_TRUMPS):
        eff = [0] * NUM_ALL_CARDS
        pw = [0] * NUM_ALL_CARDS
        plain = t >= PLAIN_TRUMP  # Napoleon: thirteen ranks, no bowers
        for c in range(JOKER):  # the suited cards of the Euchre decks
            s, r = c >> 3, c & 7
            eff[c] = s
            pw[c] = 7 - r if t == LOW else (r + 5 if plain else r)
            if t < 4:
                if c == t * 8 + JACK_RANK:
                    eff[c], pw[c] = t, 119
                elif c == (3 - t) * 8 + JACK_RANK:
                    eff[c], pw[c] = t, 118
                elif s == t:
                    pw[c] = 100 + r
            elif plain and t < PLAIN_NO_TRUMP and s == t - PLAIN_TRUMP:
                eff[c], pw[c] = t, 100 + r + 5
        for c in range(LOW_CARD, NUM_ALL_CARDS):  # Napoleon's 2s to 6s, below the 7s
            s, k = (c - LOW_CARD) // 5, (c - LOW_CARD) % 5
            eff[c] = s
            pw[c] = k if plain else k - 5  # (in no Euchre deck: only sorted for display, below the 7s)
            if plain and t < PLAIN_NO_TRUMP and s == t - PLAIN_TRUMP:
                eff[c], pw[c] = t, 100 + k
        eff[JOKER] = t if t < 4 else 4  # (no trump is refused with the Joker's deck)
        pw[JOKER] = 120
        for c in range(TWIN_CARD, NUM_ALL_CARDS):  # a second copy ranks and follows as its card
            eff[c], pw[c] = eff[_FACE[c]], pw[_FACE[c]]
        effective.append(eff)
        power.append(pw)
        cards = (range(TWIN_CARD) if plain  # the 2s to 6s follow only in Napoleon, the second copies in Euchre
                 else (*range(NUM_CARDS), *range(TWIN_CARD, NUM_ALL_CARDS)))
        follow.append([mask_of(c for c in cards if eff[c] == s) for s in range(NUM_ALL_TRUMPS)])
    return effective, power, follow


EFFECTIVE, POWER, FOLLOW = _build()


_TRUMP_LETTERS = ("c", "d", "h", "s", "n", "low", "c", "d", "h", "s", "n")
_TRUMP_WORDS = ("clubs", "diamonds", "hearts", "spades", "no trump", "low", "clubs", "diamonds", "hearts", "spades",
                "no trump")


def trump_letter(trump: int) -> str:
    """The text form of a trump index: ``c d h s``, ``n`` (no trump) or ``low`` (as in ``call n``)."""
    return _TRUMP_LETTERS[trump]


def trump_word(trump: int) -> str:
    """A trump index in words: ``"hearts"``, ``"no trump"`` or ``"low"``."""
    return _TRUMP_WORDS[trump]


def parse_trump(text: str) -> int:
    """Parse a trump index: a suit (:meth:`Suit.parse`, returned as a :class:`Suit`), ``n`` /
    ``nt`` / ``no trump`` / ``notrump`` / ``high`` (Bid Euchre's name, :data:`NO_TRUMP`) or ``low``
    (:data:`LOW`).

    >>> parse_trump("h"), parse_trump("no trump"), parse_trump("low")
    (<Suit.HEARTS: 2>, 4, 5)
    """
    t = " ".join(text.strip().lower().replace("-", " ").split())
    if t in ("n", "nt", "no trump", "notrump", "no trumps", "notrumps", "none", "high", "hi"):
        return NO_TRUMP
    if t in ("low", "lo", "low no trump"):
        return LOW
    return Suit.parse(t)


def effective_suit(card: int, trump: int | None) -> int:
    """The suit a card belongs to for following and leading: the left bower and the Joker are
    trump. Before trump is fixed the Joker has no suit (returns 4)."""
    return EFFECTIVE[4 if trump is None else trump][card]


def card_power(card: int, trump: int) -> int:
    """Strength of a card in a trick: trumps are >= 100 (Joker 120, right 119, left 118), other
    cards their rank index; only cards of the led suit or trump can win."""
    return POWER[trump][card]


def follow_mask(trump: int, suit: int) -> int:
    """Mask of every card that follows ``suit`` when ``trump`` is trump."""
    return FOLLOW[trump][suit]


def trick_winner_index(cards: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that wins a trick: the highest trump, else the highest
    card of the led suit (trump powers are >= 100, plain ranks < 10, so one comparison serves).
    ``State._push`` inlines this loop on its hot path; the property tests keep the two equal."""
    pw = POWER[trump]
    eff = EFFECTIVE[trump]
    led = eff[cards[0]]
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        e = eff[c]
        if (e == trump or e == led) and pw[c] > best:
            best, best_i = pw[c], i
    return best_i


_PLAIN_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)


@functools.cache
def suit_display_order(trump: int | None) -> tuple[int, ...]:
    """Order of suits for showing a hand (rules section 10; no trump and low: the order used
    before trump, RULES-FAMILY.md 12.8)."""
    if trump is not None and PLAIN_TRUMP <= trump < PLAIN_NO_TRUMP:  # Napoleon's trump suit
        return (trump, *suit_display_order(trump - PLAIN_TRUMP)[1:])
    if trump is None or trump >= NO_TRUMP:
        return tuple(_PLAIN_ORDER)
    rest = [s for s in _PLAIN_ORDER if s != trump]
    want_red = not Suit(trump).is_red
    ordered: list[int] = []
    while rest:
        pick = next((s for s in rest if Suit(s).is_red == want_red), rest[0])
        ordered.append(pick)
        rest.remove(pick)
        want_red = not want_red
    return (trump, *ordered)


def sort_hand(cards: Iterable[int], trump: int | None = None) -> list[Card]:
    """A hand in display order (rules section 10): by suit, high to low inside a suit; before
    trump clubs, diamonds, spades, hearts with the Joker first; after, trump first in trump order
    with the left bower and Joker, then the other suits alternating colours. No trump and low
    (12.8): clubs, diamonds, spades, hearts, each in the hand's ranking (low: the 9 first)."""
    order = suit_display_order(trump)
    t = 4 if trump is None else trump
    eff = EFFECTIVE[t]
    pw = POWER[t]

    def key(c: int) -> tuple[int, int]:
        if c == JOKER and trump is None:
            return (-1, 0)
        return (order.index(eff[c]), -pw[c])

    return [CARDS[c] for c in sorted(cards, key=key)]


class CardSet:
    """An immutable set of cards over a bitmask (like python-chess's ``SquareSet``)."""

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | int = 0) -> None:
        self.mask = cards if isinstance(cards, int) else mask_of(cards)

    def __iter__(self) -> Iterator[Card]:
        return iter_mask(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_ALL_CARDS and bool(self.mask >> card & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet('{self}')"

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas: ``"Jh Jd Ah"``."""
        return cls(Card.parse(t) for t in text.replace(",", " ").split())
