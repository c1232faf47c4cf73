"""One hand of Euchre: the deal, making trump, the dealer's exchange, play and scoring.

:class:`State` is a mutable state machine in the python-chess style: ``push`` validates and
applies an action, ``pop`` restores the exact previous state from a compact snapshot, ``copy`` is
cheap for search, and ``_push`` is the unchecked twin for code that only pushes legal actions.
Every rule of the hand lives here; game-level concerns (score, dealer rotation, the end of the
game) live in :mod:`euchre.game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from euchre.actions import (
    BID_ACTIONS,
    CALL_LOW,
    CALL_LOW_ALONE,
    CALL_NO_TRUMP,
    CALL_NO_TRUMP_ALONE,
    DEFEND_ALONE,
    DISCARD_ACTIONS,
    DISCARD_OFFSET,
    FARMER,
    GIVE_ACTIONS,
    GIVE_OFFSET,
    KEEP,
    MAX_BID,
    MISDEAL,
    MOON,
    NAPOLEON_BIDS,
    ORDER,
    ORDER_ALONE,
    PASS,
    PLAY_ACTIONS,
    PLAY_OFFSET,
    TAKE,
    Action,
    Kind,
    call,
    discard,
    give,
)
from euchre.cards import (
    CARDS,
    EFFECTIVE,
    FOLLOW,
    JOKER,
    LOW,
    NO_TRUMP,
    NUM_ALL_TRUMPS,
    PLAIN_NO_TRUMP,
    POWER,
    SUITS,
    TWIN,
    TWIN_MASK,
    Card,
    Suit,
    deck_cards,
    deck_mask,
    face,
    iter_mask,
    mask_of,
    parse_trump,
    plain_trump,
    sort_hand,
    trump_letter,
    trump_suit,
)
from euchre.errors import DealError, EmptyHistoryError, IllegalActionError, InvalidActionError
from euchre.results import HandResult
from euchre.rules import HAND_SIZE, Rules

__all__ = ["Phase", "State", "Trick", "Deal", "Gift"]


class Phase(IntEnum):
    """Where a hand stands."""

    BID1 = 0
    """Round 1: each seat passes or orders up the up card's suit."""
    TAKE = 1
    """Two-handed: after the non-dealer ordered, the dealer takes the up card or not."""
    BID2 = 2
    """Round 2: each seat passes or names a suit other than the turned-down one."""
    JOKER = 3
    """British: the Joker was turned up; the dealer names trump."""
    DISCARD = 4
    """The dealer, having taken the up card, buries one card."""
    DEFEND = 5
    """Against a loner (house rule), each defender may declare to defend alone."""
    PLAY = 6
    """Five tricks."""
    OVER = 7
    """Scored, or thrown in."""
    GIVE = 8
    """Call for best (house rule): the lone player's partner chooses the card to give."""
    BEST_DISCARD = 9
    """Call for best: the lone player, holding six cards, discards one face down."""
    CALL_FOR_BEST = 10
    """Call for best as every other seat sees it (RULES-FAMILY.md 12.7): a gift or its discard is
    pending and no seat is shown to act. A view's phase only; a :class:`State` never stands here."""
    MISDEAL_OFFER = 11
    """Ace-no-face (house rule, RULES-FAMILY.md 12.4): the seat to act may call a misdeal or keep."""
    FARMER_OFFER = 12
    """Farmer's hand (house rule, RULES-FAMILY.md 12.3): the seat to act may claim it or keep."""
    FARMER_GIVE = 13
    """Farmer's hand: the farmer gives three cards, one at a time (``discard <card>``)."""
    OFFERS = 14
    """The offers as every other seat sees them (RULES-FAMILY.md 12.7): an offer is pending and no
    seat is shown to act. A view's phase only; a :class:`State` never stands here."""
    AUCTION = 15
    """The auction games (RULES-FAMILY.md 14-16): one turn each from the dealer's left, pass or a
    bid above the highest so far."""
    NAME_TRUMP = 16
    """Hasenpfeffer, Bid Euchre: the high bidder names trump."""
    LEAD = 17
    """Napoleon (RULES-FAMILY.md 16): the bidder leads the first card, whose suit is trump."""


class Gift(NamedTuple):
    """One call for best (RULES-FAMILY.md 12.2): the partner ``giver`` gave ``card`` to the lone
    ``receiver``, who then discarded ``discard`` (``None`` until done). ``forced``: the engine
    gave the giver's highest trump (no decision)."""

    giver: int
    receiver: int
    card: Card
    forced: bool
    discard: Card | None = None


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order with their seats, who won. (A named
    tuple: five are made a hand on the hot path of every search, twice as fast as a frozen
    dataclass.)"""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(c for _, c in self.plays)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a hand before anyone acts: each seat's five (six in Hasenpfeffer), the up card,
    the rest of the stock. Records store this (not only a seed), so a hand replays without
    shuffling code. Hasenpfeffer turns no card up: ``up_card`` is ``None`` and the unused card is
    the stock."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    up_card: Card | None
    stock: tuple[Card, ...]

    def __str__(self) -> str:
        seats = " / ".join(" ".join(map(str, h)) for h in self.hands)
        up = "" if self.up_card is None else f"; up {self.up_card}"
        return f"dealer {self.dealer}: {seats}{up}; stock {' '.join(map(str, self.stock))}"


def _parse_cards(cards: Iterable[int | str] | str) -> list[Card]:
    if isinstance(cards, str):
        return [Card.parse(t) for t in cards.replace(",", " ").split()]
    out = []
    for c in cards:
        if isinstance(c, str):
            out.append(Card.parse(c))
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(CARDS):
            out.append(CARDS[c])
        else:
            raise DealError(f"not a card: {c!r}")
    return out


(_BID1, _TAKE, _BID2, _JOKER, _DISCARD, _DEFEND, _PLAY, _OVER, _GIVE, _BEST_DISCARD, _CALL_FOR_BEST,
 _MISDEAL_OFFER, _FARMER_OFFER, _FARMER_GIVE, _OFFERS, _AUCTION, _NAME_TRUMP, _LEAD) = Phase
EUCHRE_PHASES = 15
"""The phases of the five-card games (all but the auction games' AUCTION and NAME_TRUMP and
Napoleon's LEAD): the one-hot phase of the Euchre layouts of the learning environment's and the
OpenSpiel game's observations, which stayed as they were when the sister games came (each sister
game has a layout of its own, sized by its rules)."""
OFFER_PHASES = (Phase.MISDEAL_OFFER, Phase.FARMER_OFFER)
"""The phases of a pending offer (hidden from every seat but the offered one, RULES-FAMILY.md 12.7)."""
_NO_BID = (0, -1, False)
"""``State.auction`` before any bid."""
_FACES = frozenset((4, 5, 6, 8))
"""Card ranks of a K, Q, J or the Joker (:attr:`Card.rank`)."""
_FOLLOW_CARD = [[FOLLOW[t][EFFECTIVE[t][c]] for c in range(len(CARDS))] for t in range(NUM_ALL_TRUMPS)]
"""_FOLLOW_CARD[trump][card]: the cards that follow a trick led by ``card``."""
_PLAYS: dict[int, tuple[Action, ...]] = {}
"""The play actions of a set of cards, by mask (a cache for ``legal_actions``)."""


def _plays_of(mask: int) -> tuple[Action, ...]:
    if len(_PLAYS) >= 1 << 17:
        _PLAYS.clear()
    if mask & TWIN_MASK:  # the double deck: both copies held, one play (the second copy's, see held)
        plays = _PLAYS[mask] = tuple(PLAY_ACTIONS[c] for c in iter_mask(mask) if not mask & _TWIN_BIT[c])
    else:
        plays = _PLAYS[mask] = tuple(PLAY_ACTIONS[c] for c in iter_mask(mask))
    return plays


_TWIN_BIT = [1 << TWIN[c] if c in TWIN else 0 for c in range(len(CARDS))]
"""_TWIN_BIT[card]: the bit of the double deck's second copy of the card (0 for none)."""


def held(hands: list[int], seat: int, card: int) -> int:
    """The id under which ``seat`` holds a copy of ``card`` (the double deck keeps a hand's single
    copy of a card as the card's own id, and a pair as both ids: :func:`_normal`); -1 if none."""
    f = face(card)
    twin = _TWIN_BIT[f]
    if hands[seat] & twin:
        return TWIN[f]
    return f if hands[seat] >> f & 1 else -1


def _normal(mask: int) -> int:
    """A double-deck hand with every single copy under the card's own id (a second copy held
    alone becomes the first): the copies are alike, so a hand is its count of each card."""
    for c in iter_mask(mask & TWIN_MASK):
        f = face(c)
        if not mask >> f & 1:
            mask = (mask & ~(1 << c)) | (1 << f)
    return mask


_DECK_CARDS: dict[int, tuple[Card, ...]] = {}


def _deck_list(size: int) -> list[Card]:
    """A fresh list of the cards of a deck in id order (``deck_cards``, cached)."""
    cards = _DECK_CARDS.get(size)
    if cards is None:
        cards = _DECK_CARDS[size] = tuple(deck_cards(size))
    return list(cards)


def _packets(first: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """For the seats from the dealer's left, the two slices of the shuffled pack they are dealt."""
    n = len(first)
    second = tuple(HAND_SIZE - k for k in first)
    out = []
    for i in range(n):
        a = sum(first[:i])
        c = sum(first) + sum(second[:i])
        out.append((a, a + first[i], c, c + second[i]))
    return tuple(out)


_PACKETS = {n: _packets(first) for n, first in ((4, (3, 2, 3, 2)), (3, (3, 2, 3)), (2, (3, 2)))}
_NAP_PACKETS = {n: _packets((3,) * n) for n in range(3, 8)}
"""Napoleon: five each, three to every seat then two (RULES-FAMILY.md 16)."""
_NAP_NEEDS = (0, 2, 3, 0, 4, 5, 5, 5)
"""Napoleon: the tricks each bid level must take (misère, level 3: none at all)."""
_NAP_VALUES = (0, 2, 3, 3, 4, 10, 20, 40)
"""Napoleon: the value v of each bid level (2, 3, misère, 4, Nap, Wellington, Blücher)."""
MISERE_LEVEL = 3
"""Napoleon's bid level of misère (:data:`~euchre.actions.NAPOLEON_BIDS`, from 1)."""
"""Deal 3-2-3-2 then 2-3-2-3 from the dealer's left (3-2-3 / 2-3-2; 3-2 / 2-3)."""
_THREES = tuple((3 * i, 3 * i + 3, 12 + 3 * i, 15 + 3 * i) for i in range(4))
"""The auction games: six cards each, dealt in threes from the dealer's left (RULES-FAMILY.md 14, 15)."""


class State:
    """One hand. Create it from an explicit deal, or from a seeded shuffle with :meth:`random`.

    >>> s = State.random(Rules(), dealer=0, rng=random.Random(1))
    >>> s.phase, s.to_act
    (<Phase.BID1: 0>, 1)
    """

    __slots__ = (
        "rules", "n", "dealer", "deal", "hands", "up_card", "phase", "to_act", "trump", "maker",
        "alone", "out", "lone_defender", "up_card_taken", "discard", "leader", "trick", "tricks",
        "tricks_won", "points", "history", "seats", "gifts", "misdeal", "farmer", "farmer_gave", "after_misdeal",
        "auction", "_stack",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        dealer: int,
        hands: Sequence[Iterable[int | str] | str],
        up_card: int | str | None,
        stock: Iterable[int | str] | str | None = None,
        after_misdeal: bool = False,
    ) -> None:
        self.rules = rules
        n = self.n = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        if len(hands) != n:
            raise DealError(f"a deal of these rules has {n} hands, got {len(hands)}")
        parsed = [_parse_cards(h) for h in hands]
        if rules.has_up_card and up_card is None:
            raise DealError("a deal of these rules needs an up card")
        if not rules.has_up_card and up_card is not None:
            raise DealError(f"{rules.sister_game} turns no card up: give up_card=None"
                            + (" and the unused card as the stock" if rules.auction else ""))
        up = None if up_card is None else _parse_cards([up_card])[0]
        if rules.double_deck:
            self._init_double(rules, dealer, parsed, stock, after_misdeal)
            return
        deck = deck_mask(rules.deck)
        seen = 0
        for seat, h in enumerate(parsed):
            if len(h) != rules.hand_size:
                raise DealError(f"seat {seat} must be dealt {rules.hand_size} cards, got {len(h)}")
        rest = _parse_cards(stock) if stock is not None else None
        every = [c for h in parsed for c in h] + ([] if up is None else [up]) + (rest or [])
        for c in every:
            if not deck >> c & 1:
                raise DealError(f"{c} is not in the {rules.deck}-card deck")
            if seen >> c & 1:
                raise DealError(f"{c} is dealt twice")
            seen |= 1 << c
        if rest is None:
            rest = [c for c in deck_cards(rules.deck) if not seen >> c & 1]
        elif seen != deck:
            missing = " ".join(str(c) for c in iter_mask(deck & ~seen))
            raise DealError(f"the deal does not use the whole deck; missing: {missing}")
        self._setup(rules, dealer, tuple(tuple(h) for h in parsed), up, tuple(rest),
                    [mask_of(h) for h in parsed], after_misdeal)

    def _init_double(self, rules: Rules, dealer: int, parsed: list[list[Card]], stock: object,
                     after_misdeal: bool) -> None:
        """A deal of the double deck (RULES-FAMILY.md 15): twelve cards each, every card of the
        24-card pack exactly twice in all, nothing left over; a hand's second copy of a card
        takes the copy's id."""
        for seat, h in enumerate(parsed):
            if len(h) != rules.hand_size:
                raise DealError(f"seat {seat} must be dealt {rules.hand_size} cards, got {len(h)}")
        if stock not in (None, "", (), []):
            raise DealError("the double deck deals all 48 cards: the stock must be empty")
        counts: dict[int, int] = {}
        hands: list[tuple[Card, ...]] = []
        for h in parsed:
            mask = 0
            out: list[Card] = []
            for c in h:
                f = face(c)
                if not deck_mask(24) >> f & 1:
                    raise DealError(f"{f} is not in the double deck (two 24-card packs)")
                counts[f] = counts.get(f, 0) + 1
                if counts[f] > 2:
                    raise DealError(f"{f} is dealt more than twice (the double deck holds two of each card)")
                c = CARDS[TWIN[f]] if mask >> f & 1 else f
                mask |= 1 << c
                out.append(c)
            hands.append(tuple(out))
        self._setup(rules, dealer, tuple(hands), None, (), [mask_of(h) for h in hands], after_misdeal)

    def _setup(self, rules: Rules, dealer: int, hands: tuple[tuple[Card, ...], ...], up: Card | None,
               rest: tuple[Card, ...], masks: list[int], after_misdeal: bool = False) -> None:
        """Set every field from a deal already checked (``__init__``) or made by :meth:`random`."""
        n = self.n = rules.players
        self.rules = rules
        self.deal = Deal(dealer, hands, up, rest)
        self.dealer = dealer
        self.hands = masks
        self.up_card = up
        self.trump: int | None = None
        """The trump index once made: 0-3 a suit, NO_TRUMP (4) or LOW (5) for a hand without
        trump (RULES-FAMILY.md 12.1); ``None`` before trump is made."""
        self.maker = -1
        self.alone = False
        self.out = 0
        self.lone_defender = -1
        self.up_card_taken = False
        self.discard: Card | None = None
        self.leader = -1
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * n
        self.points: tuple[int, ...] | None = None
        self.history: list[Action] = []
        self.seats: list[int] = []
        """The seat that took each action of ``history``."""
        self.gifts: tuple[Gift, ...] = ()
        """The calls for best of this hand, in order (the maker's, then a lone defender's)."""
        self.misdeal = -1
        """The seat that called a misdeal (ace-no-face, RULES-FAMILY.md 12.4): the deal is
        cancelled (over, no points); -1 if none."""
        self.farmer = -1
        """The seat that claimed the farmer's hand (RULES-FAMILY.md 12.3), -1 if none."""
        self.farmer_gave: tuple[Card, ...] = ()
        """The cards the farmer gave (face down into the stock), in order."""
        self.after_misdeal = after_misdeal
        """This deal follows a misdeal by the same dealer: it gets no ace-no-face offers."""
        self.auction: tuple[int, int, bool] = _NO_BID
        """The auction games: ``(bid, bidder, forced)``, the highest bid so far in tricks (0 before
        any; Bid Euchre's moon is one more than the hand's tricks), the seat holding it (-1) and
        whether it is Hasenpfeffer's forced 3 for the Joker's holder (one field, so that undo
        snapshots stay short: see :attr:`bid`, :attr:`bidder`, :attr:`forced_bid`, :attr:`moon`)."""
        self._stack: list[tuple[Any, ...]] = []
        self.phase = _BID1
        self.to_act = (dealer + 1) % n
        if rules.ace_no_face and not after_misdeal:
            self._offer_misdeal(1)
        else:
            self._offer_farmer()

    def _offer_misdeal(self, first: int) -> None:
        """The next ace-no-face offer, in turn from the dealer's left, to the seats ``first``
        places or more from the dealer (1: the dealer's left; the dealer is last, at ``n``), else
        the farmer's offer."""
        n, dealer = self.n, self.dealer
        for k in range(first, n + 1):
            seat = (dealer + k) % n
            ranks = [CARDS[c].rank for c in iter_mask(self.hands[seat])]
            if not _FACES.intersection(ranks) and ranks.count(7) <= 1:
                self.phase = _MISDEAL_OFFER
                self.to_act = seat
                return
        self._offer_farmer()

    def _offer_farmer(self) -> None:
        """The farmer's offer to a seat holding only 9s and 10s, else the bidding."""
        if self.rules.farmers_hand:
            for k in range(1, self.n + 1):
                seat = (self.dealer + k) % self.n
                if all(CARDS[c].rank in (2, 3) for c in iter_mask(self.hands[seat])):
                    self.phase = _FARMER_OFFER
                    self.to_act = seat
                    return
        self._start_bidding()

    def _start_bidding(self) -> None:
        up = self.up_card
        if up is None:  # the auction games turn no card up
            self.phase = _AUCTION
            self.to_act = (self.dealer + 1) % self.n
        elif up == JOKER and self.rules.has_joker:
            self.phase = _JOKER
            self.to_act = self.dealer
        else:
            self.phase = _BID1
            self.to_act = (self.dealer + 1) % self.n

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def random(cls, rules: Rules, *, dealer: int, rng: random.Random, after_misdeal: bool = False) -> State:
        """A shuffled deal, dealt 3-2-3-2 then 2-3-2-3 from the dealer's left (two players: 3-2
        then 2-3; three players: 3-2-3 then 2-3-2)."""
        n = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        cards = _deck_list(rules.deck)
        rng.shuffle(cards)
        # The shuffle is trusted: build the hands straight from the packets (no re-validation).
        hands: list[tuple[Card, ...]] = [()] * n
        masks = [0] * n
        if rules.napoleon:  # five each, 3 then 2; the rest of the pack unused and never shown
            for i, (a, b, c, d) in enumerate(_NAP_PACKETS[n]):
                seat = (dealer + 1 + i) % n
                h = hands[seat] = (*cards[a:b], *cards[c:d])
                masks[seat] = mask_of(h)
            s = cls.__new__(cls)
            s._setup(rules, dealer, tuple(hands), None, tuple(cards[HAND_SIZE * n:]), masks, after_misdeal)
            return s
        if rules.double_deck:  # two packs, twelve each in threes (a hand's single copies under their own ids)
            cards = [*deck_cards(24), *(CARDS[TWIN[c]] for c in deck_cards(24))]
            rng.shuffle(cards)
            for i in range(n):
                seat = (dealer + 1 + i) % n
                mine = [c for r in range(4) for c in cards[(r * n + i) * 3:(r * n + i) * 3 + 3]]
                masks[seat] = _normal(mask_of(mine))
                hands[seat] = tuple(iter_mask(masks[seat]))
            s = cls.__new__(cls)
            s._setup(rules, dealer, tuple(hands), None, (), masks, after_misdeal)
            return s
        if rules.bids_tricks:  # six each in threes; Hasenpfeffer's 25th card unused and face down
            for i, (a, b, c, d) in enumerate(_THREES):
                seat = (dealer + 1 + i) % n
                h = hands[seat] = (*cards[a:b], *cards[c:d])
                masks[seat] = mask_of(h)
            s = cls.__new__(cls)
            s._setup(rules, dealer, tuple(hands), None, tuple(cards[24:]), masks, after_misdeal)
            return s
        for i, (a, b, c, d) in enumerate(_PACKETS[n]):
            seat = (dealer + 1 + i) % n
            h = hands[seat] = (*cards[a:b], *cards[c:d])
            c1, c2, c3, c4, c5 = h
            masks[seat] = 1 << c1 | 1 << c2 | 1 << c3 | 1 << c4 | 1 << c5
        pos = HAND_SIZE * n
        s = cls.__new__(cls)
        s._setup(rules, dealer, tuple(hands), cards[pos], tuple(cards[pos + 1:]), masks, after_misdeal)
        return s

    @classmethod
    def from_deal(cls, rules: Rules, deal: Deal, *, after_misdeal: bool = False) -> State:
        """A fresh hand from a :class:`Deal` (``after_misdeal``: the redeal after a misdeal, which
        gets no ace-no-face offers)."""
        return cls(rules, dealer=deal.dealer, hands=deal.hands, up_card=deal.up_card, stock=deal.stock,
                   after_misdeal=after_misdeal)

    def copy(self, *, stack: bool = True) -> State:
        """An independent copy; ``stack=False`` drops the undo history (cheaper, for search)."""
        s = State.__new__(State)
        s.rules = self.rules
        s.n = self.n
        s.dealer = self.dealer
        s.deal = self.deal
        s.hands = self.hands[:]
        s.up_card = self.up_card
        s.phase = self.phase
        s.to_act = self.to_act
        s.trump = self.trump
        s.maker = self.maker
        s.alone = self.alone
        s.out = self.out
        s.lone_defender = self.lone_defender
        s.up_card_taken = self.up_card_taken
        s.discard = self.discard
        s.leader = self.leader
        s.trick = self.trick[:]
        s.tricks = self.tricks[:]
        s.tricks_won = self.tricks_won[:]
        s.points = self.points
        s.history = self.history[:]
        s.seats = self.seats[:]
        s.gifts = self.gifts
        s.misdeal = self.misdeal
        s.farmer = self.farmer
        s.farmer_gave = self.farmer_gave
        s.after_misdeal = self.after_misdeal
        s.auction = self.auction
        s._stack = self._stack[:] if stack else []
        return s

    # --- the auction games (Hasenpfeffer, Bid Euchre) -----------------------------------------------
    @property
    def bid(self) -> int:
        """The highest bid so far in tricks, 0 before any (a moon: the hand's tricks plus one)."""
        return self.auction[0]

    @property
    def bidder(self) -> int:
        """The seat holding the highest bid, -1 before any."""
        return self.auction[1]

    @property
    def forced_bid(self) -> bool:
        """Hasenpfeffer: all passed and the Joker's holder was made the high bidder at 3."""
        return self.auction[2]

    @property
    def moon(self) -> bool:
        """Bid Euchre: the high bid is the moon (every trick, alone)."""
        return self.auction[0] > self.rules.hand_size

    # --- seats -----------------------------------------------------------------------------------
    def partner(self, seat: int) -> int | None:
        """The partner of a seat (four players), else ``None``."""
        return self.rules.partner(seat)

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def is_active(self, seat: int) -> bool:
        """False for a seat sitting this hand out (a loner's or lone defender's partner)."""
        return not self.out >> seat & 1

    def _next_active(self, seat: int) -> int:
        n = self.n
        s = (seat + 1) % n
        while self.out >> s & 1:
            s = (s + 1) % n
        return s

    @property
    def sitting_out(self) -> frozenset[int]:
        """Seats whose cards are not played this hand."""
        return frozenset(s for s in range(self.n) if self.out >> s & 1)

    @property
    def makers(self) -> frozenset[int]:
        """The maker's side (empty before trump is made)."""
        if self.maker < 0:
            return frozenset()
        return frozenset(self.rules.seats_of(self.rules.side_of(self.maker)))

    @property
    def is_over(self) -> bool:
        """The hand is scored or thrown in."""
        return self.phase is _OVER

    @property
    def thrown_in(self) -> bool:
        """Everyone passed twice: no one scores and the deal passes on."""
        return self.phase is _OVER and self.maker < 0 and self.misdeal < 0

    @property
    def misdealt(self) -> bool:
        """A misdeal was called (ace-no-face): the deal is cancelled, not a hand; the same dealer
        deals again (RULES-FAMILY.md 12.4)."""
        return self.misdeal >= 0

    def hand(self, seat: int) -> list[Card]:
        """A seat's cards now, in display order."""
        return sort_hand(iter_mask(self.hands[seat]), self.trump)

    def up_suit(self) -> Suit | None:
        """The up card's suit (``None`` for a turned-up Joker, or no up card)."""
        return None if self.up_card is None else self.up_card.suit

    # --- legal actions -----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take, in code order; empty when the hand is over.
        Each phase answers for itself (``_UNITS``); trick play, the hot path, first."""
        phase = self.phase
        if phase is _PLAY:
            return _legal_play(self)
        return _LEGAL[phase](self)

    def is_legal(self, action: int) -> bool:
        """Whether an action (or code) is legal now."""
        return action in self.legal_actions()

    # --- applying ------------------------------------------------------------------------------
    def push(self, action: Action | int | str) -> Action:
        """Validate and apply an action (an :class:`Action`, its code, or its text).

        Raises :class:`InvalidActionError` for text that does not parse and
        :class:`IllegalActionError` (with the reason in words) for a move the rules forbid;
        either way the state is unchanged.
        """
        if isinstance(action, Card):
            raise InvalidActionError(f"{action} is a card, not an action: push play({action!r}) or 'play {action}'")
        a = self.parse_action(action) if isinstance(action, str) else Action.from_code(action)
        legal = self.legal_actions()
        if a not in legal and self.rules.double_deck and a.kind is Kind.PLAY and a.card is not None:
            # "play Ah" plays a copy of the ace: the one the engine offers for a pair of them
            twin = TWIN.get(face(a.card))
            if twin is not None and PLAY_ACTIONS[twin] in legal:
                a = PLAY_ACTIONS[twin]
        if a not in legal:
            raise IllegalActionError(self._explain_illegal(a, legal))
        self._push(a)
        return a

    def parse_action(self, text: str) -> Action:
        """Parse an action typed by a player, with shortcuts that depend on the position: a bare
        card (``Jh``) plays or discards it, a bare suit (``h``, or ``n`` / ``low`` for no trump) calls
        it, ``alone`` orders alone, ``p`` passes."""
        t = text.strip().lower()
        phase = self.phase
        if t in ("p",):
            return PASS
        if t in ("pick up", "pickup", "pick") and phase is Phase.TAKE:
            return TAKE
        if t == "alone" and phase is Phase.BID1:
            return ORDER_ALONE
        if t == "alone" and phase is Phase.DEFEND:
            return DEFEND_ALONE
        if t in ("m", "k") and phase in OFFER_PHASES:
            return MISDEAL if t == "m" else KEEP
        if phase is Phase.AUCTION and t.isdigit() and 1 <= int(t) <= MAX_BID:
            return BID_ACTIONS[int(t) - 1]
        if phase is Phase.AUCTION and t == "m":
            return MOON
        try:
            return Action.parse(t)
        except InvalidActionError:
            pass
        words = t.split()
        if words and words[-1] == "alone" and len(words) == 2:
            try:
                return call(parse_trump(words[0]), alone=True)
            except InvalidActionError:
                pass
        if len(words) == 1:
            try:
                c = Card.parse(words[0])
            except InvalidActionError:
                pass
            else:
                if phase is Phase.GIVE:
                    return give(c)
                if phase in (Phase.DISCARD, Phase.BEST_DISCARD, Phase.FARMER_GIVE):
                    return discard(c)
                return PLAY_ACTIONS[c]
            try:
                return call(parse_trump(words[0]))
            except InvalidActionError:
                pass
        return Action.parse(text)  # raises with the standard message

    def _explain_illegal(self, a: Action, legal: list[Action]) -> str:
        seat = self.to_act
        options = ", ".join(str(x) for x in legal) or "nothing (the hand is over)"
        if self.phase is Phase.OVER:
            return "the hand is over; no action is possible"
        k = a.kind
        if k is Kind.PLAY:
            if self.phase not in (Phase.PLAY, Phase.LEAD):
                return f"no card is played now: it is {self.phase_words()}; you may: {options}"
            c = a.card
            assert c is not None
            if not self.hands[seat] >> c & 1:
                return f"you do not hold {c}; your cards: {' '.join(map(str, self.hand(seat)))}"
            if self.phase is Phase.LEAD or not self.trick:
                return f"{a} may not lead now ({self.phase_words()}); you may: {options}"
            trump = self.trump
            assert trump is not None
            led = EFFECTIVE[trump][self.trick[0][1]]
            follow = [x for x in sort_hand(iter_mask(self.hands[seat] & FOLLOW[trump][led]), trump)]
            suit = trump_suit(trump)  # (Napoleon's trump indexes are suits without bowers)
            led_word = Suit(led).word if led != trump else f"trump ({suit.word if suit is not None else 'no trump'})"
            return f"you must follow {led_word}: you hold {', '.join(map(str, follow))}"
        if k is Kind.GIVE:
            if self.phase is not Phase.GIVE:
                return f"no card is given now: it is {self.phase_words()}; you may: {options}"
            return f"you do not hold {a.card}; your cards: {' '.join(map(str, self.hand(seat)))}"
        if k in (Kind.MISDEAL, Kind.KEEP, Kind.FARMER):
            if self.phase not in OFFER_PHASES:
                return f"nothing is offered now: it is {self.phase_words()}; you may: {options}"
            return f"{a} is not offered now ({self.phase_words()}); you may: {options}"
        if k is Kind.BID or k is Kind.MOON:
            if self.phase is not Phase.AUCTION:
                return f"no bid now: it is {self.phase_words()}; you may: {options}"
            if k is Kind.MOON:
                if self.rules.bid_euchre:  # (legal until a moon is bid)
                    return f"nothing beats the moon; you may: {options}"
                return f"these rules have no moon (Bid Euchre's bid of every trick); you may: {options}"
            if self.rules.napoleon:
                if a not in NAPOLEON_BIDS:
                    return f"Napoleon's bids are 2, 3, misere, 4, nap, wellington and blucher; you may: {options}"
                level = NAPOLEON_BIDS.index(a) + 1
                if level == 6 and self.bid != 5:
                    return f"Wellington may only be bid over Nap; you may: {options}"
                if level == 7 and self.bid != 6:
                    return f"Blucher may only be bid over Wellington; you may: {options}"
                return f"a bid must be above the highest so far ({NAPOLEON_BIDS[self.bid - 1]}); you may: {options}"
            if a in NAPOLEON_BIDS[2:] and a.tricks != 4:
                return f"{a} is a bid of Napoleon; you may: {options}"
            if self.moon:
                return f"nothing beats the moon; you may: {options}"
            low, high = self.rules.bid_range
            if a.tricks is not None and not low <= a.tricks <= high:
                return f"a bid is {low} to {high} tricks in {self.rules.sister_game}; you may: {options}"
            return f"a bid must be above the highest so far ({self.bid}); you may: {options}"
        if a == PASS and self.phase is Phase.AUCTION:
            return f"the dealer is stuck: when all pass, the dealer must bid; you may: {options}"
        if k is Kind.DISCARD and self.phase is Phase.FARMER_GIVE:
            return f"you do not hold {a.card}; your cards: {' '.join(map(str, self.hand(seat)))}"
        if k is Kind.DISCARD and self.phase is Phase.BEST_DISCARD:
            return f"you do not hold {a.card}; your cards: {' '.join(map(str, self.hand(seat)))}"
        if k is Kind.DISCARD:
            if self.phase is not Phase.DISCARD:
                return f"no discard now: it is {self.phase_words()}; you may: {options}"
            c = a.card
            if c is not None and c == self.up_card and self.hands[seat] >> c & 1:
                return f"the rules do not let the dealer discard the up card {c}"
            return f"you do not hold {c}; your cards: {' '.join(map(str, self.hand(seat)))}"
        if k in (Kind.CALL, Kind.CALL_ALONE) and a.suit is None:
            if self.phase is Phase.NAME_TRUMP:
                return f"{self.rules.sister_game} names a suit as trump; you may: {options}"
            if not self.rules.no_trump:
                return f"these rules have no no-trump call (the no_trump house rule is off); you may: {options}"
            if a.trump == LOW and not self.rules.low_no_trump:
                return f"these rules have no low call (the low_no_trump house rule is off); you may: {options}"
            if self.phase is not Phase.BID2:
                return f"no trump may be called in the second round of bidding only; you may: {options}"
        if k in (Kind.CALL, Kind.CALL_ALONE) and self.phase is Phase.BID2:
            up_suit = self.up_suit()
            if a.suit == up_suit:
                turned = up_suit.word if up_suit is not None else "that suit"
                return f"{turned} was turned down and cannot be named; you may: {options}"
            if a.alone and not self.rules.going_alone:
                return f"going alone is not allowed by these rules; you may: {options}"
        if a == PASS and self.phase is Phase.BID2 and self.rules.stick_the_dealer:
            return f"stick the dealer: the dealer must name a suit; you may: {options}"
        if a == ORDER and self.phase is Phase.BID1 and self.rules.canadian_loner:
            return f"the dealer's partner may order up only by going alone; you may: {options}"
        if a.alone and not self.rules.going_alone:
            return f"going alone is not allowed by these rules; you may: {options}"
        return f"{a} is not possible: it is {self.phase_words()}; you may: {options}"

    def phase_words(self) -> str:
        """Where the hand stands, in words (\"the second round of bidding\")."""
        return {
            Phase.BID1: "the first round of bidding",
            Phase.TAKE: "the dealer's choice to take the up card",
            Phase.BID2: "the second round of bidding",
            Phase.JOKER: "the dealer's call under the turned-up Joker",
            Phase.DISCARD: "the dealer's discard",
            Phase.DEFEND: "the choice to defend alone",
            Phase.PLAY: "trick play",
            Phase.OVER: "the end of the hand",
            Phase.GIVE: "call for best: the partner's choice of a card to give",
            Phase.BEST_DISCARD: "call for best: the lone player's discard",
            Phase.CALL_FOR_BEST: "call for best",
            Phase.MISDEAL_OFFER: "the offer of a misdeal (ace, no face)",
            Phase.FARMER_OFFER: "the offer of the farmer's hand",
            Phase.FARMER_GIVE: "the farmer's hand: the farmer's choice of three cards to give",
            Phase.OFFERS: "offers",
            Phase.AUCTION: "the bidding",
            Phase.NAME_TRUMP: "the high bidder's choice of trump",
            Phase.LEAD: "the first lead, whose suit is trump",
        }[self.phase]

    def _push(self, a: Action) -> None:
        """Apply a legal action without checking it (for search; ``push`` checks); the phase
        applies it (``_UNITS``).

        Undo records on ``_stack``: a card played pushes the short record ``(seat, hand mask
        before)``, or ``(seat, hand mask before, finished trick)`` when it ends a trick; every other
        action pushes a full snapshot of the mutable fields. :meth:`pop` tells them apart by length.
        """
        seat = self.to_act
        ph = self.phase
        if ph is _PLAY:  # the hot path: a card played records its own short undo entry
            _apply_play(self, seat, a)
            self.history.append(a)
            self.seats.append(seat)
            return
        if ph is not _OVER:
            self._stack.append((
                ph, seat, self.trump, self.maker, self.alone, self.out,
                self.lone_defender, self.up_card_taken, self.discard, self.hands[:], self.leader,
                self.trick[:], self.tricks_won[:], len(self.tricks), self.points, self.gifts,
                self.misdeal, self.farmer, self.farmer_gave, self.auction,
            ))
        _APPLY[ph](self, seat, a)  # a finished hand raises here, changing nothing
        self.history.append(a)
        self.seats.append(seat)

    def _make(self, seat: int, suit: int, alone: bool) -> None:
        self.trump = suit
        self.maker = seat
        self.alone = alone
        if alone:
            self.out |= 1 << self.rules.partner(seat)  # type: ignore[operator]  # going alone: four players

    def _take_up(self) -> None:
        self.hands[self.dealer] |= 1 << self.up_card  # type: ignore[operator]  # a game with an up card
        self.up_card_taken = True
        self.phase = _DISCARD
        self.to_act = self.dealer

    def _after_exchange(self) -> None:
        if self.alone and self.rules.call_for_best:
            self._call_for_best(self.maker)
        else:
            self._after_maker()

    def _after_maker(self) -> None:
        """After the maker's exchanges: the defend-alone declarations, else play."""
        if self.alone and self.rules.defend_alone:
            first = self._next_defender(self.dealer)
            if first >= 0:
                self.phase = _DEFEND
                self.to_act = first
                return
        self._start_play()

    def _next_defender(self, after: int) -> int:
        """The next defender after ``after`` (clockwise) who has not yet been asked, or -1."""
        n = self.n
        opponents = self.rules.opponents(self.maker)
        defenders = [s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if s in opponents]
        if self.phase is not _DEFEND:
            return defenders[0]
        i = defenders.index(after)
        return defenders[i + 1] if i + 1 < len(defenders) else -1

    def _call_for_best(self, receiver: int) -> None:
        """RULES-FAMILY.md 12.2 steps 2-3: the lone ``receiver``'s partner gives the highest trump
        (the engine picks it: no decision), or chooses a card when holding no trump, in a hand
        without trump, or under ``best_card_free``; the receiver then discards one of six."""
        giver: int = self.rules.partner(receiver)  # type: ignore[assignment]  # four players
        t: int = self.trump  # type: ignore[assignment]  # trump is made
        trumps = self.hands[giver] & FOLLOW[t][t] if t < NO_TRUMP else 0
        if trumps and not self.rules.best_card_free:
            pw = POWER[t]
            self._give(giver, receiver, max(iter_mask(trumps), key=pw.__getitem__), forced=True)
        else:
            self.phase = _GIVE
            self.to_act = giver

    def _give(self, giver: int, receiver: int, card: Card, *, forced: bool) -> None:
        card = face(card)  # the double deck: a copy, taken from the giver's pair first, joins a pair
        self.hands[giver] &= ~(1 << held(self.hands, giver, card))
        self.hands[receiver] |= 1 << (TWIN[card] if self.hands[receiver] >> card & 1 else card)
        self.gifts = (*self.gifts, Gift(giver, receiver, card, forced))
        self.phase = _BEST_DISCARD
        self.to_act = receiver

    def _start_play(self) -> None:
        self.phase = _PLAY
        if self.rules.bids_tricks or self.rules.napoleon:  # the high bidder leads (RULES-FAMILY.md 14-16)
            lead = self.maker
        elif self.alone and self.rules.loner_lead == "loner_left":
            lead = self._next_active(self.maker)
        else:
            lead = self._next_active(self.dealer)
        self.leader = self.to_act = lead

    def _score(self) -> None:
        self.phase = _OVER
        self.to_act = -1
        self.points = self.score_for(self.maker_tricks())

    def maker_tricks(self) -> int:
        """Tricks won so far by the maker's side (the maker alone when there are no partners)."""
        won = self.tricks_won
        partner = self.rules.partner(self.maker)
        return won[self.maker] + (0 if partner is None else won[partner])

    def score_for(self, taken: int) -> tuple[int, ...]:
        """The points per side this hand scores if the maker's side ends with ``taken`` tricks
        (trump must be made). Search code values a position through this, so the scoring table
        stays in one place."""
        rules = self.rules
        pts = [0] * rules.sides
        maker_side = rules.side_of(self.maker)
        if rules.auction:  # RULES-FAMILY.md 14: the tricks taken, or minus the bid
            pts[maker_side] = taken if taken >= self.bid else -self.bid
            if rules.defenders_score_tricks:
                pts[1 - maker_side] = rules.hand_size - taken
            return tuple(pts)
        if rules.napoleon:  # RULES-FAMILY.md 16: the bidder is paid by, or pays, every other seat
            level = self.bid
            made = taken == 0 if level == MISERE_LEVEL else taken >= _NAP_NEEDS[level]
            v = _NAP_VALUES[level]
            if not made and rules.nap_half_loss and level == 5:
                v = 5
            won = v if made else -v
            return tuple(won * (rules.players - 1) if p == self.maker else -won for p in range(rules.players))
        if rules.bid_euchre:  # RULES-FAMILY.md 15: both sides their tricks; a moon all or nothing
            size = rules.hand_size
            if self.moon:
                made = taken == size
                pts[maker_side] = rules.moon_points if made else -rules.moon_points
            else:
                made = taken >= self.bid
                pts[maker_side] = taken if made else -self.bid
            if not (self.moon and made):
                pts[1 - maker_side] = size - taken
            return tuple(pts)
        if taken >= 3:
            if taken == HAND_SIZE:
                pts[maker_side] = rules.loner_march_points if self.alone else rules.march_points
            else:
                pts[maker_side] = rules.make_points
        else:
            value = rules.loner_euchre_points if self.alone else rules.euchre_points
            if self.lone_defender >= 0:
                value = max(value, rules.lone_defender_euchre_points)
            if rules.super_euchre and taken == 0:
                value = max(value, rules.super_euchre_points)
            for side in range(rules.sides):
                if side != maker_side:
                    pts[side] = value
        return tuple(pts)

    def pop(self) -> Action:
        """Undo the last action, restoring the exact previous state; returns it."""
        if not self._stack:
            raise EmptyHistoryError("pop from a hand with no actions")
        record = self._stack.pop()
        if len(record) <= 3:  # a card played (see _push)
            seat = self.to_act = record[0]
            self.hands[seat] = record[1]
            if len(record) == 3:
                done = self.tricks.pop()
                self.trick = list(done.plays[:-1])
                self.leader = done.leader
                self.tricks_won[done.winner] -= 1
                self.phase = _PLAY
                self.points = None
            else:
                self.trick.pop()
        else:
            (self.phase, self.to_act, self.trump, self.maker, self.alone, self.out,
             self.lone_defender, self.up_card_taken, self.discard, hands, self.leader,
             trick, won, ntricks, self.points, self.gifts, self.misdeal, self.farmer,
             self.farmer_gave, self.auction) = record
            # Copies: the snapshot may be shared with copies of this state (copy() shares records).
            self.hands = hands[:]
            self.trick = trick[:]
            self.tricks_won = won[:]
            del self.tricks[ntricks:]
        self.seats.pop()
        return self.history.pop()

    def peek(self) -> Action:
        """The last action pushed."""
        return self.history[-1]

    # --- who did what --------------------------------------------------------------------------
    def tricks_taken(self, side: int) -> int:
        """Tricks won by a side."""
        won = self.tricks_won
        return sum(won[s] for s in self.rules.seats_of(side))

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (for equality checks after undo)."""
        return (
            self.dealer, self.deal, tuple(self.hands), self.up_card, self.phase, self.to_act,
            self.trump, self.maker, self.alone, self.out, self.lone_defender, self.up_card_taken,
            self.discard, self.leader, tuple(self.trick), tuple(self.tricks), tuple(self.tricks_won),
            self.points, tuple(self.history), self.gifts, self.misdeal, self.farmer, self.farmer_gave,
            self.after_misdeal, self.auction,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.rules == other.rules and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        trump = "-" if self.trump is None else trump_letter(self.trump)
        return (f"<State {self.phase.name} to_act={self.to_act} dealer={self.dealer} "
                f"up={self.up_card} trump={trump} tricks={len(self.tricks)} actions={len(self.history)}>")


    def result(self) -> HandResult | None:
        """How the hand ended (:class:`~euchre.results.HandResult`), or ``None`` while it is played
        and for a deal cancelled by a misdeal (not a hand: RULES-FAMILY.md 12.4)."""
        return HandResult.of(self) if self.phase is _OVER and self.misdeal < 0 else None


# --- the phases ---------------------------------------------------------------------------------
# Each phase of a hand is a unit of its own: the actions legal in it and how one applies (as
# OpenSpiel dispatches per phase). A new phase (an offer, an exchange, an auction) is a new unit
# in _UNITS, not another branch through legal_actions and _push. Trick play is the hot path of
# every search and simulation: its two functions are written for speed (bench/engine.py).


def _legal_play(s: State) -> list[Action]:
    hand = s.hands[s.to_act]
    trick = s.trick
    if trick:
        follow = hand & _FOLLOW_CARD[s.trump][trick[0][1]]  # type: ignore[index]
        if follow:
            hand = follow
    plays = _PLAYS.get(hand)
    if plays is None:
        plays = _plays_of(hand)
    return list(plays)


_CARD_PLAYED: dict[int, Card] = {a: a.card for a in PLAY_ACTIONS}  # type: ignore[misc]  # a play has a card
"""The card of each play action (a dict lookup is the quickest way there, on the hot path)."""
_KEEP: dict[int, int] = {a: ~(1 << int(c)) for a, c in _CARD_PLAYED.items()}
"""The mask that takes a play action's card out of a hand."""


_TAKES: list[list[list[int]]] = [
    [[POWER[t][c] if EFFECTIVE[t][c] in (t, led) else -1 for c in range(len(CARDS))] for led in range(NUM_ALL_TRUMPS)]
    for t in range(NUM_ALL_TRUMPS)]
"""_TAKES[trump][led suit][card]: how strongly ``card`` takes a trick led in that suit (its power
when it is a trump or follows the lead, else -1: it cannot win): the highest trump, else the
highest card of the led suit (trump powers are >= 100, plain ranks < 10; the same result as
cards.trick_winner_index)."""
_TRICK_SIZE: list[list[int]] = [[n - out.bit_count() for out in range(1 << n)] for n in range(8)]
"""_TRICK_SIZE[players][seats sitting out, as a mask]: the cards in a full trick."""


def _apply_play(s: State, seat: int, a: Action) -> None:
    card = _CARD_PLAYED[a]
    hands = s.hands
    before = hands[seat]
    hands[seat] = before & _KEEP[a]
    trick = s.trick
    trick.append((seat, card))
    n = s.n
    out = s.out
    if len(trick) == _TRICK_SIZE[n][out]:
        t: int = s.trump  # type: ignore[assignment]
        takes = _TAKES[t][EFFECTIVE[t][trick[0][1]]]
        best = -1
        winner = seat
        for p, c in trick:
            v = takes[c]
            if v > best:
                best = v
                winner = p
        s.tricks_won[winner] += 1
        done = Trick(s.leader, tuple(trick), winner)
        s._stack.append((seat, before, done))
        tricks = s.tricks
        tricks.append(done)
        s.trick = []
        if len(tricks) >= HAND_SIZE and len(tricks) == s.rules.hand_size:
            s._score()
        else:
            s.leader = s.to_act = winner
    else:
        s._stack.append((seat, before))
        nxt = seat + 1
        if nxt == n:
            nxt = 0
        s.to_act = s._next_active(seat) if out >> nxt & 1 else nxt


def _legal_bid1(s: State) -> list[Action]:
    rules = s.rules
    acts = [PASS]
    if not (rules.canadian_loner and s.to_act == rules.partner(s.dealer)):
        acts.append(ORDER)
    if rules.going_alone:
        acts.append(ORDER_ALONE)
    return acts


def _apply_bid1(s: State, seat: int, a: Action) -> None:
    if a == PASS:
        if seat == s.dealer:
            s.phase = _BID2
        s.to_act = (seat + 1) % s.n
        return
    s._make(seat, SUITS[s.up_card >> 3], a == ORDER_ALONE)  # type: ignore[operator]  # not the Joker here
    if s.n == 2 and seat != s.dealer:
        s.phase = _TAKE
        s.to_act = s.dealer
    elif s.out >> s.dealer & 1:
        if s.rules.call_for_best:  # RULES-FAMILY.md 12.2 step 1: the dealer adds the up card, no discard
            s.hands[s.dealer] |= 1 << s.up_card  # type: ignore[operator]  # round 1 has an up card
            s.up_card_taken = True
        s._after_exchange()
    else:
        s._take_up()


def _legal_bid2(s: State) -> list[Action]:
    rules = s.rules
    up = s.up_card.suit  # type: ignore[union-attr]  # round 2 follows an up card
    acts = []
    if not (rules.stick_the_dealer and s.to_act == s.dealer):
        acts.append(PASS)
    acts.extend(call(x) for x in range(4) if x != up)
    if rules.going_alone:
        acts.extend(call(x, alone=True) for x in range(4) if x != up)
    if rules.no_trump:  # RULES-FAMILY.md 12.1 (the dealer too, under stick the dealer)
        acts.append(CALL_NO_TRUMP)
        if rules.going_alone:
            acts.append(CALL_NO_TRUMP_ALONE)
        if rules.low_no_trump:
            acts.append(CALL_LOW)
            if rules.going_alone:
                acts.append(CALL_LOW_ALONE)
    return acts


def _apply_bid2(s: State, seat: int, a: Action) -> None:
    if a == PASS:
        if seat == s.dealer:
            s.phase = _OVER
            s.points = (0,) * s.rules.sides
            s.to_act = -1
        else:
            s.to_act = (seat + 1) % s.n
        return
    s._make(seat, a.trump, a.alone)  # type: ignore[arg-type]  # a suit, NO_TRUMP or LOW
    s._after_exchange()


def _legal_discard(s: State) -> list[Action]:
    hand = s.hands[s.dealer]
    if not s.rules.dealer_may_discard_up_card:
        hand &= ~(1 << s.up_card)  # type: ignore[operator]  # a discard follows an up card
    plays = _PLAYS.get(hand)
    if plays is None:
        plays = _plays_of(hand)
    return [DISCARD_ACTIONS[a - PLAY_OFFSET] for a in plays]


def _apply_discard(s: State, seat: int, a: Action) -> None:
    card = CARDS[a - DISCARD_OFFSET]
    s.hands[s.dealer] &= ~(1 << card)
    s.discard = card
    s._after_exchange()


def _legal_take(s: State) -> list[Action]:
    return [PASS, TAKE]


def _apply_take(s: State, seat: int, a: Action) -> None:
    if a == TAKE:
        s._take_up()
    else:
        s._after_exchange()


def _legal_defend(s: State) -> list[Action]:
    return [PASS, DEFEND_ALONE]


def _apply_defend(s: State, seat: int, a: Action) -> None:
    if a == DEFEND_ALONE:
        s.lone_defender = seat
        s.out |= 1 << s.rules.partner(seat)  # type: ignore[operator]  # four players
        if s.rules.call_for_best:  # the lone defender calls for best too (12.2)
            s._call_for_best(seat)
        else:
            s._start_play()
        return
    nxt = s._next_defender(seat)
    if nxt < 0:
        s._start_play()
    else:
        s.to_act = nxt


def _legal_joker(s: State) -> list[Action]:
    acts = [call(x) for x in range(4)]
    if s.rules.going_alone:
        acts.extend(call(x, alone=True) for x in range(4))
    return acts


def _apply_joker(s: State, seat: int, a: Action) -> None:
    s._make(s.dealer, a.suit, a.alone)  # type: ignore[arg-type]
    s._take_up()


def _legal_give(s: State) -> list[Action]:
    hand = s.hands[s.to_act]
    return [GIVE_ACTIONS[c] for c in iter_mask(hand & ~TWIN_MASK)]  # (a pair of copies: one choice)


def _apply_give(s: State, seat: int, a: Action) -> None:
    s._give(seat, s.rules.partner(seat), CARDS[a - GIVE_OFFSET], forced=False)  # type: ignore[arg-type]


def _legal_best_discard(s: State) -> list[Action]:
    # Any of the six, the received card included (dealer_may_discard_up_card governs the
    # dealer's exchange only); a pair of the double deck's copies is one choice.
    return [DISCARD_ACTIONS[c] for c in iter_mask(s.hands[s.to_act] & ~TWIN_MASK)]


def _apply_best_discard(s: State, seat: int, a: Action) -> None:
    card = CARDS[a - DISCARD_OFFSET]
    s.hands[seat] &= ~(1 << held(s.hands, seat, card))  # (the double deck: a pair keeps its first id)
    s.gifts = (*s.gifts[:-1], s.gifts[-1]._replace(discard=card))
    if seat == s.maker:
        s._after_maker()
    else:
        s._start_play()


def _view_only(what: str) -> _Unit:
    """The unit of a phase only a view stands in (what another seat sees of a pending gift or
    offer): nothing is legal there, and a state never gets there to apply anything."""
    def apply(s: State, seat: int, a: Action) -> None:
        raise IllegalActionError(f"{what} (as another seat sees it) is a phase of views only; no state stands there")
    return _Unit(lambda s: [], apply)


def _legal_misdeal_offer(s: State) -> list[Action]:
    return [MISDEAL, KEEP]


def _apply_misdeal_offer(s: State, seat: int, a: Action) -> None:
    if a == MISDEAL:  # the deal is cancelled: no points; the game deals again (RULES-FAMILY.md 12.4)
        s.misdeal = seat
        s.phase = _OVER
        s.to_act = -1
    else:
        s._offer_misdeal((seat - s.dealer - 1) % s.n + 2)


def _legal_farmer_offer(s: State) -> list[Action]:
    return [KEEP, FARMER]


def _apply_farmer_offer(s: State, seat: int, a: Action) -> None:
    if a == FARMER:
        s.farmer = seat
        s.phase = _FARMER_GIVE
    else:
        s._start_bidding()


def _legal_farmer_give(s: State) -> list[Action]:
    return [DISCARD_ACTIONS[c] for c in iter_mask(s.hands[s.to_act])]


def _apply_farmer_give(s: State, seat: int, a: Action) -> None:
    card = CARDS[a - DISCARD_OFFSET]
    s.hands[seat] &= ~(1 << card)
    s.farmer_gave = (*s.farmer_gave, card)
    if len(s.farmer_gave) == 3:  # the farmer takes the three cards under the up card (no decision)
        s.hands[seat] |= mask_of(s.deal.stock)
        s._start_bidding()


def _legal_napoleon(s: State) -> list[Action]:
    """Napoleon: pass, or any bid above the highest, Wellington only over Nap and Blücher only over
    Wellington (RULES-FAMILY.md 16)."""
    high = s.auction[0]
    return [PASS, *(b for level, b in enumerate(NAPOLEON_BIDS, 1) if level > high and (level < 6 or level == high + 1))]


def _legal_auction(s: State) -> list[Action]:
    rules = s.rules
    if rules.napoleon:
        return _legal_napoleon(s)
    high = s.auction[0]
    low, top = rules.bid_range
    bids = BID_ACTIONS[max(high, low - 1):top]
    if not rules.bid_euchre:
        return [PASS, *bids]
    moon = [MOON] if high <= top else []
    if s.to_act == s.dealer and s.auction[1] < 0:  # the dealer is stuck: no pass (RULES-FAMILY.md 15)
        return [*bids, *moon]
    return [PASS, *bids, *moon]


def _apply_auction(s: State, seat: int, a: Action) -> None:
    if s.rules.napoleon:
        _apply_napoleon(s, seat, a)
        return
    if a == MOON:
        s.auction = (s.rules.hand_size + 1, seat, False)
    elif a != PASS:
        s.auction = (a.tricks, seat, False)  # type: ignore[assignment]  # a bid has its tricks
    if seat != s.dealer:
        s.to_act = (seat + 1) % s.n
        return
    if s.bidder < 0:  # Hasenpfeffer, all passed: the Joker's holder bids 3 (no decision), else a throw-in
        holder = next((p for p in range(s.n) if s.hands[p] >> JOKER & 1), -1)
        if holder < 0:
            s.phase = _OVER
            s.points = (0,) * s.rules.sides
            s.to_act = -1
            return
        s.auction = (3, holder, True)
    s.phase = _NAME_TRUMP
    s.to_act = s.bidder


def _apply_napoleon(s: State, seat: int, a: Action) -> None:
    """Napoleon's auction: after the dealer, the bidder leads (misère: no trump, else the first
    card's suit will be trump); all passing throws the hand in."""
    if a != PASS:
        s.auction = (NAPOLEON_BIDS.index(a) + 1, seat, False)
    if seat != s.dealer:
        s.to_act = (seat + 1) % s.n
        return
    bidder = s.auction[1]
    if bidder < 0:
        s.phase = _OVER
        s.points = (0,) * s.rules.sides
        s.to_act = -1
        return
    s.maker = bidder
    if s.auction[0] == MISERE_LEVEL:
        s.trump = PLAIN_NO_TRUMP
        s._start_play()
    else:
        s.phase = _LEAD
        s.leader = s.to_act = bidder


def _legal_lead(s: State) -> list[Action]:
    hand = s.hands[s.to_act]
    plays = _PLAYS.get(hand)
    if plays is None:
        plays = _plays_of(hand)
    return list(plays)


def _apply_lead(s: State, seat: int, a: Action) -> None:
    """Napoleon's first card: its suit is trump (no bowers), then trick play goes on as ever (the
    snapshot ``_push`` took undoes both)."""
    card = _CARD_PLAYED[a]
    s.trump = plain_trump(card.suit)  # type: ignore[arg-type]  # Napoleon's packs have no Joker
    s.hands[seat] &= _KEEP[a]
    s.trick.append((seat, card))
    s.phase = _PLAY
    s.to_act = (seat + 1) % s.n


_NAMES = tuple(call(x) for x in range(4))
_NAMES_HIGH_LOW = (*_NAMES, call(NO_TRUMP), call(LOW))
"""What the high bidder may name: a suit (Hasenpfeffer), or a suit, high or low (Bid Euchre)."""


def _legal_name_trump(s: State) -> list[Action]:
    return list(_NAMES_HIGH_LOW if s.rules.bid_euchre else _NAMES)


def _apply_name_trump(s: State, seat: int, a: Action) -> None:
    trump: int = a.trump  # type: ignore[assignment]  # a call names a trump
    if s.moon:  # the shooter plays alone and gets the partner's card first (RULES-FAMILY.md 15, 12.2)
        s._make(seat, trump, True)
        s._call_for_best(seat)
        return
    s._make(seat, trump, False)
    s._start_play()  # the high bidder leads


def _legal_over(s: State) -> list[Action]:
    return []


def _apply_over(s: State, seat: int, a: Action) -> None:
    raise IllegalActionError("the hand is over; no action is possible")


class _Unit(NamedTuple):
    """One phase: its legal actions and how an action applies. (Every phase but trick play
    undoes from a full snapshot, taken by ``State._push``; trick play's short records keep
    search fast.)"""

    legal: Callable[[State], list[Action]]
    apply: Callable[[State, int, Action], None]


_UNITS: dict[Phase, _Unit] = {
    Phase.BID1: _Unit(_legal_bid1, _apply_bid1),
    Phase.TAKE: _Unit(_legal_take, _apply_take),
    Phase.BID2: _Unit(_legal_bid2, _apply_bid2),
    Phase.JOKER: _Unit(_legal_joker, _apply_joker),
    Phase.DISCARD: _Unit(_legal_discard, _apply_discard),
    Phase.DEFEND: _Unit(_legal_defend, _apply_defend),
    Phase.PLAY: _Unit(_legal_play, _apply_play),
    Phase.OVER: _Unit(_legal_over, _apply_over),
    Phase.GIVE: _Unit(_legal_give, _apply_give),
    Phase.BEST_DISCARD: _Unit(_legal_best_discard, _apply_best_discard),
    Phase.CALL_FOR_BEST: _view_only("call for best"),
    Phase.MISDEAL_OFFER: _Unit(_legal_misdeal_offer, _apply_misdeal_offer),
    Phase.FARMER_OFFER: _Unit(_legal_farmer_offer, _apply_farmer_offer),
    Phase.FARMER_GIVE: _Unit(_legal_farmer_give, _apply_farmer_give),
    Phase.OFFERS: _view_only("the offers"),
    Phase.AUCTION: _Unit(_legal_auction, _apply_auction),
    Phase.NAME_TRUMP: _Unit(_legal_name_trump, _apply_name_trump),
    Phase.LEAD: _Unit(_legal_lead, _apply_lead),
}
"""The unit of each phase."""
_LEGAL = tuple(_UNITS[p].legal for p in Phase)
_APPLY = tuple(_UNITS[p].apply for p in Phase)
"""The units' functions by phase number: the dispatch of ``legal_actions`` and ``_push``."""
