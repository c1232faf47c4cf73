"""What one seat may know (rules section 9), as a frozen value with no path to hidden cards.

A :class:`PlayerView` is built by copying exactly the allowed facts out of a
:class:`~euchre.state.State`; it holds no reference to the state, the deal or the stock, so no
attribute, private or not, leads to another seat's cards. Bots, the terminal, the server and the
learning environment all consume views, never states.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from euchre.actions import DISCARD_ACTIONS, Action, Kind
from euchre.cards import (
    CARDS,
    EFFECTIVE,
    FOLLOW,
    NO_TRUMP,
    SUITS,
    Card,
    Suit,
    deck_mask,
    iter_mask,
    mask_of,
    sort_hand,
)
from euchre.errors import DealError, SeatError
from euchre.rules import Rules
from euchre.state import Phase, State, Trick

if TYPE_CHECKING:
    from euchre.game import Game

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a hand (``seat`` is ``None`` for a spectator: public facts only).

    "No seat": ``seat`` is ``None`` for a spectator, but the seat fields copied from the engine
    (``to_act``, ``maker``, ``lone_defender``, ``leader``) keep the engine's ``-1`` for "no seat",
    so bots compare them with ints cheaply (``view.maker >= 0``). The JSON form of a view
    (:func:`euchre.protocol.view_to_dict`) writes every "no seat" as ``null``, and
    :func:`~euchre.protocol.view_from_dict` reads it back as ``-1``.
    """

    rules: Rules
    seat: int | None
    """The seat whose knowledge this is; ``None`` for a spectator."""
    dealer: int
    phase: Phase
    to_act: int
    """Seat to act, -1 when the hand is over (``null`` in the protocol)."""
    hand: tuple[Card, ...]
    """This seat's cards now, in display order (empty for a spectator)."""
    up_card: Card
    up_card_taken: bool
    """The dealer picked the up card up (it is in the dealer's hand until played)."""
    dealer_discarded: bool
    discard: Card | None
    """The buried card, only in the dealer's own view."""
    actions: tuple[tuple[int, Action | None], ...]
    """Every action so far with its seat; another seat's discard is ``None`` (unknown card)."""
    trump: int | None
    """The trump index once made, ``None`` before: a :class:`~euchre.cards.Suit` (0-3), or for a
    hand without trump (house rule ``no_trump``, RULES-FAMILY.md 12.1) the plain int
    :data:`~euchre.cards.NO_TRUMP` (4) or :data:`~euchre.cards.LOW` (5). So ``trump is None``
    still means "not made yet", every card table (``EFFECTIVE[view.trump]``) takes it as it is,
    and :attr:`trump_suit` is the suit, if any."""
    maker: int
    """The seat that made trump, -1 before trump is made or in a thrown-in hand (``null`` in the protocol)."""
    alone: bool
    sitting_out: frozenset[int]
    lone_defender: int
    """The seat defending alone, -1 if none (``null`` in the protocol)."""
    leader: int
    """The seat that led (or leads) the current trick, -1 before play (``null`` in the protocol)."""
    trick: tuple[tuple[int, Card], ...]
    """The trick in progress: (seat, card) in play order."""
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    """This seat's legal actions when it is to act, else empty."""
    points: tuple[int, ...] | None
    """Points of the hand per side once it is over."""
    scores: tuple[int, ...]
    """The game score per side before this hand's points (after, once the hand is over)."""
    hand_number: int
    gifts: tuple[tuple[int, int, Card | None, Card | None], ...] = ()
    """The calls for best (house rule ``call_for_best``, RULES-FAMILY.md 12.7) as this seat knows
    them: ``(giver, receiver, card given, card discarded)``. The giver sees the card given; the
    receiver sees it and the discard; every other seat sees a call for best only once its discard
    is made, with both cards ``None``, and never whether the engine or the giver picked the card."""
    misdeal: int = -1
    """The seat that called a misdeal (house rule ``ace_no_face``, RULES-FAMILY.md 12.4), -1 if none."""
    misdeal_hand: tuple[Card, ...] = ()
    """The misdeal caller's five cards, shown to all (RULES-FAMILY.md 12.7)."""
    farmer: int = -1
    """The seat that claimed the farmer's hand (house rule ``farmers_hand``), -1 if none: everyone
    learns it held only 9s and 10s."""
    farmer_gave: tuple[Card, ...] = ()
    """The cards the farmer gave into the stock, in the farmer's own view only."""
    farmer_took: tuple[Card, ...] = ()
    """The three cards the farmer took from under the up card, in the farmer's own view only."""

    @classmethod
    def of(cls, state: State, seat: int | None, *, game: Game | None = None) -> PlayerView:
        """The view of ``seat`` (or a spectator, ``None``) of ``state``."""
        if seat is not None and not 0 <= seat < state.n:
            raise SeatError(f"seat must be 0..{state.n - 1}, got {seat}")
        acts = seat_actions(state, seat)
        own = own_hand(state, seat)
        phase, to_act = seat_phase(state, seat)
        misdeal_hand, gave, took = seat_offers(state, seat)
        if game is not None:
            idx = next(i for i, h in enumerate(game.hands) if h is state)
            scores = list(game.initial_scores)
            for h in game.hands[: idx + 1]:
                if h.points is not None:
                    for i, p in enumerate(h.points):
                        scores[i] += p
            hand_number = idx
        else:
            scores = list(state.points or (0,) * state.rules.sides)
            hand_number = 0
        return cls(
            rules=state.rules,
            seat=seat,
            dealer=state.dealer,
            phase=phase,
            to_act=to_act,
            hand=own,
            up_card=state.up_card,
            up_card_taken=state.up_card_taken,
            dealer_discarded=state.discard is not None,
            discard=state.discard if seat == state.dealer else None,
            actions=acts,
            trump=None if state.trump is None else SUITS[state.trump] if state.trump < NO_TRUMP else state.trump,
            maker=state.maker,
            alone=state.alone,
            sitting_out=state.sitting_out,
            lone_defender=state.lone_defender,
            leader=state.leader,
            trick=tuple(state.trick),
            tricks=tuple(state.tricks),
            tricks_won=tuple(state.tricks_won),
            legal_actions=seat_legal(state, seat),
            points=state.points,
            scores=tuple(scores),
            hand_number=hand_number,
            gifts=seat_gifts(state, seat),
            misdeal=state.misdeal,
            misdeal_hand=misdeal_hand,
            farmer=state.farmer,
            farmer_gave=gave,
            farmer_took=took,
        )

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit; ``None`` before trump is made and in a hand without trump."""
        t = self.trump
        return SUITS[t] if t is not None and t < NO_TRUMP else None

    @property
    def no_trump(self) -> bool:
        """The hand is played without trump (``call n`` or ``call low``)."""
        return self.trump is not None and self.trump >= NO_TRUMP

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def is_my_turn(self) -> bool:
        """This seat is to act."""
        return self.seat is not None and self.seat == self.to_act

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def partner(self, seat: int | None = None) -> int | None:
        """A seat's partner (default: this seat's), four players only."""
        s = self.seat if seat is None else seat
        return None if s is None else self.rules.partner(s)

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played this hand, finished tricks then the current one."""
        return tuple(c for t in self.tricks for _, c in t.plays) + tuple(c for _, c in self.trick)

    def bids(self) -> tuple[tuple[int, Action], ...]:
        """The public bidding decisions (everything but discards and plays)."""
        return tuple((s, a) for s, a in self.actions if a is not None and a.is_bid)


    # --- what the seat does not see ------------------------------------------------------------
    def void_suits(self) -> dict[int, frozenset[int]]:
        """For every seat, the (effective) suits it has shown it is out of: the suits led to a
        trick it did not follow, learnt from the tricks as any player at the table learns it.
        Empty sets before trump is made (no card is played then).

        >>> from euchre import Game, Rules
        >>> Game(Rules(), seed=1).view(0).void_suits()
        {0: frozenset(), 1: frozenset(), 2: frozenset(), 3: frozenset()}
        """
        out: dict[int, set[int]] = {s: set() for s in range(self.rules.players)}
        t = self.trump
        if t is not None:
            eff = EFFECTIVE[t]
            for plays in [tr.plays for tr in self.tricks] + [self.trick]:
                if not plays:
                    continue
                led = eff[plays[0][1]]
                for seat, card in plays[1:]:
                    if eff[card] != led:
                        out[seat].add(led)
        return {s: frozenset(suits) for s, suits in out.items()}

    def voids(self) -> dict[int, int]:
        """For each seat known to be void somewhere, the mask of cards it cannot hold now: every
        card of each suit of :meth:`void_suits`."""
        t = self.trump
        if t is None:
            return {}
        follow = FOLLOW[t]
        out: dict[int, int] = {}
        for seat, suits in self.void_suits().items():
            mask = 0
            for suit in suits:
                mask |= follow[suit]
            if mask:
                out[seat] = mask
        return out

    def unseen_mask(self) -> int:
        """The cards this seat has not seen and that may still be played, as a mask: the deck
        minus its own hand, every card played, its own discard and a turned-down (or declined) up
        card. A taken up card stays unseen to the other seats (the dealer may have buried it).

        >>> from euchre import Game, Rules
        >>> v = Game(Rules(), seed=1).view(0)
        >>> (v.unseen_mask() | mask_of(v.hand) | 1 << v.up_card) == deck_mask(v.rules.deck)
        True
        """
        known = mask_of(self.hand)
        for tr in self.tricks:
            for _, c in tr.plays:
                known |= 1 << c
        for _, c in self.trick:
            known |= 1 << c
        if self.discard is not None:
            known |= 1 << self.discard
        for c in self.farmer_gave:
            known |= 1 << c
        for _, _, _, buried in self.gifts:
            if buried is not None:
                known |= 1 << buried
        if not self.up_card_taken:
            known |= 1 << self.up_card
        return deck_mask(self.rules.deck) & ~known

    def unseen(self) -> tuple[Card, ...]:
        """The cards of :meth:`unseen_mask`, lowest id first."""
        return tuple(iter_mask(self.unseen_mask()))

    def resample(self, rng: random.Random, *, tries: int = 200) -> State:
        """A full hand consistent with everything this seat knows, with the unseen cards dealt at
        random: this seat's cards, every card played, the up card (in the dealer's hand when it
        was taken and not yet played), the voids shown in play, and the dealer's buried card when
        this seat is the dealer. The actions of the hand are replayed on it, so the returned
        :class:`~euchre.state.State` stands exactly where the view does. Search bots solve such
        samples; the sample is uniform over the consistent deals (rejection sampling), falling back
        to a constrained random fill if ``tries`` shuffles all break a void.
        """
        if self.gifts or self.phase in (Phase.GIVE, Phase.BEST_DISCARD, Phase.CALL_FOR_BEST):
            raise DealError("resampling does not cover a hand with a call for best (house rule "
                            "call_for_best): its gifts and discards are not sampled")
        if self.misdeal >= 0 or self.farmer >= 0 or self.phase in _OFFERED:
            raise DealError("resampling does not cover the offers (house rules ace_no_face and "
                            "farmers_hand): a pending offer, a misdeal or a farmer's exchange is not sampled")
        rules = self.rules
        n = rules.players
        dealer = self.dealer
        up = self.up_card
        played: list[int] = [0] * n
        for tr in self.tricks:
            for s, c in tr.plays:
                played[s] |= 1 << c
        for s, c in self.trick:
            played[s] |= 1 << c
        all_played = 0
        for m in played:
            all_played |= m
        mine = mask_of(self.hand) if self.seat is not None else 0
        known_discard = self.discard
        # The dealer's current hand must hold the up card if it was taken, is not yet played and
        # cannot have been buried (or this seat saw that it was not).
        up_fixed = False
        if self.up_card_taken and not all_played >> up & 1 and self.seat != dealer:
            may_bury = self.dealer_discarded and rules.dealer_may_discard_up_card
            up_fixed = not may_bury
        hidden_discard = self.dealer_discarded and self.seat != dealer
        need = [0] * n
        for s in range(n):
            if s != self.seat:
                need[s] = rules.hand_size - played[s].bit_count()
        if self.up_card_taken and not self.dealer_discarded and self.seat != dealer:
            need[dealer] += 1  # six cards until the discard
        if up_fixed:
            need[dealer] -= 1
        taken_up_in_pool = self.up_card_taken and not up_fixed and self.seat != dealer and not all_played >> up & 1
        pool_mask = self.unseen_mask() & ~(1 << up)
        if taken_up_in_pool:
            pool_mask |= 1 << up  # held by the dealer or buried: decided below
        pool: list[int] = list(iter_mask(pool_mask))
        voids = self.voids()
        seats = [s for s in range(n) if need[s] > 0]
        deal_to: dict[int, list[int]] = {}
        buried: int | None = None
        for attempt in range(tries + 1):
            rng.shuffle(pool)
            if attempt == tries:
                # Fallback: the up card (if its place is open) goes to the dealer's hand.
                fb_need = need[:]
                fb_pool = pool
                if taken_up_in_pool:
                    fb_need[dealer] -= 1
                    fb_pool = [c for c in pool if c != up]
                got = self._constrained_fill(fb_pool, [s for s in seats if fb_need[s] > 0], fb_need, voids,
                                             hidden_discard, rng)
                if got is None:
                    raise DealError("no deal is consistent with this view")
                deal_to, buried = got
                if taken_up_in_pool:
                    deal_to.setdefault(dealer, []).append(up)
                break
            else:
                i = 0
                deal_to = {}
                for s in seats:
                    deal_to[s] = pool[i:i + need[s]]
                    i += need[s]
                buried = pool[i] if hidden_discard else None
                if buried is not None:
                    i += 1
            ok = all(not (mask_of(deal_to[s]) & voids.get(s, 0)) for s in seats)
            if taken_up_in_pool:
                # The up card went to the dealer: it is in the dealer's hand or buried.
                ok = ok and (up in deal_to.get(dealer, ()) or buried == up)
            if hidden_discard and buried == up and not rules.dealer_may_discard_up_card:
                ok = False
            if ok:
                break
        now = [0] * n
        for s in range(n):
            if s == self.seat:
                now[s] = mine
            else:
                now[s] = mask_of(deal_to.get(s, ()))
        if up_fixed:
            now[dealer] |= 1 << up
        if known_discard is not None:
            buried = known_discard
        used = 0
        for m in now:
            used |= m
        used |= all_played
        hands = []
        for s in range(n):
            start = now[s] | played[s]
            if s == dealer and self.up_card_taken:
                if buried is not None:
                    start |= 1 << buried
                start &= ~(1 << up)
            hands.append([CARDS[c] for c in iter_mask(start)])
        if buried is not None:
            used |= 1 << buried
        stock = [c for c in iter_mask(deck_mask(rules.deck) & ~used & ~(1 << up))]
        state = State(rules, dealer=dealer, hands=hands, up_card=up, stock=stock)
        for _, action in self.actions:
            if action is None:
                assert buried is not None
                action = DISCARD_ACTIONS[buried]
            state._push(action)
        return state

    @staticmethod
    def _constrained_fill(pool: list[int], seats: list[int], need: list[int], voids: dict[int, int],
                          hidden_discard: bool, rng: random.Random) -> tuple[dict[int, list[int]], int | None] | None:
        """Deal the pool to the seats respecting voids, most constrained seat first (a fallback
        when rejection sampling keeps failing; slightly biased, always consistent)."""
        for _ in range(100):
            left: list[int] = list(pool)
            rng.shuffle(left)
            out: dict[int, list[int]] = {}
            order = sorted(seats, key=lambda s: sum(1 for c in left if not voids.get(s, 0) >> c & 1) - need[s])
            failed = False
            for s in order:
                allowed = [c for c in left if not voids.get(s, 0) >> c & 1]
                if len(allowed) < need[s]:
                    failed = True
                    break
                pick = allowed[:need[s]]
                out[s] = pick
                for c in pick:
                    left.remove(c)
            if failed:
                continue
            buried = left[0] if hidden_discard and left else None
            return out, buried
        return None


# --- the parts of a view that depend on the seat -----------------------------------------------------
# PlayerView.of and euchre.protocol.view_dicts (which builds many seats' views at once, for the
# server) share these, so the one rule of who sees what lives here.
def own_hand(state: State, seat: int | None) -> tuple[Card, ...]:
    """The seat's cards in display order (nothing for a spectator)."""
    return tuple(sort_hand(iter_mask(state.hands[seat]), state.trump)) if seat is not None else ()


def seat_actions(state: State, seat: int | None) -> tuple[tuple[int, Action | None], ...]:
    """Every action with its seat; a discard is known only to the seat that made it. A chosen
    gift (call for best) is listed for its giver and receiver only: the others learn of every
    gift the same way, from :func:`seat_gifts`, so they cannot tell a chosen gift from a forced one."""
    if not state.gifts and not (state.rules.ace_no_face or state.rules.farmers_hand):
        return tuple((s, None if a.kind is Kind.DISCARD and s != seat else a)
                     for s, a in zip(state.seats, state.history, strict=True))
    if not state.gifts:  # an offer's "keep" is seen by the offered seat alone (RULES-FAMILY.md 12.7)
        return tuple((s, None if a.kind is Kind.DISCARD and s != seat else a)
                     for s, a in zip(state.seats, state.history, strict=True)
                     if a.kind is not Kind.KEEP or s == seat)
    partner = state.rules.partner(seat) if seat is not None else None
    return tuple((s, None if a.kind is Kind.DISCARD and s != seat else a)
                 for s, a in zip(state.seats, state.history, strict=True)
                 if (a.kind is not Kind.GIVE or s == seat or s == partner)
                 and (a.kind is not Kind.KEEP or s == seat))


def seat_gifts(state: State, seat: int | None) -> tuple[tuple[int, int, Card | None, Card | None], ...]:
    """The calls for best as ``seat`` knows them (RULES-FAMILY.md 12.7): the giver knows the card
    given, the receiver the card and the discard; the others only that a card was passed and one
    discarded, once the discard is made."""
    out: list[tuple[int, int, Card | None, Card | None]] = []
    for g in state.gifts:
        if seat == g.receiver:
            out.append((g.giver, g.receiver, g.card, g.discard))
        elif seat == g.giver:
            out.append((g.giver, g.receiver, g.card, None))
        elif g.discard is not None:
            out.append((g.giver, g.receiver, None, None))
    return tuple(out)


_PENDING = (Phase.GIVE, Phase.BEST_DISCARD)
_OFFERED = (Phase.MISDEAL_OFFER, Phase.FARMER_OFFER, Phase.FARMER_GIVE, Phase.OFFERS)


def seat_offers(state: State, seat: int | None) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The cards of the offers as ``seat`` knows them (RULES-FAMILY.md 12.7): ``(the misdeal
    caller's five cards, the cards the farmer gave, the cards the farmer took)``. A misdeal and its
    caller's cards are public, and so is a farmer's claim (``state.farmer``); the cards the farmer
    gave and took are the farmer's alone."""
    shown: tuple[Card, ...] = ()
    if state.misdeal >= 0:
        shown = tuple(sort_hand(state.deal.hands[state.misdeal], None))
    if state.farmer < 0 or seat != state.farmer:
        return shown, (), ()
    took = tuple(sort_hand(state.deal.stock, None)) if len(state.farmer_gave) == 3 else ()
    return shown, state.farmer_gave, took


def seat_phase(state: State, seat: int | None) -> tuple[Phase, int]:
    """The phase and the seat to act as ``seat`` sees them: while a gift or its discard is
    pending, every view but the giver's and the receiver's shows :attr:`Phase.CALL_FOR_BEST` and
    no seat to act (RULES-FAMILY.md 12.7)."""
    phase = state.phase
    if phase in _PENDING:
        to_act = state.to_act
        if seat is None or (seat != to_act and seat != state.rules.partner(to_act)):
            return Phase.CALL_FOR_BEST, -1
    elif phase is Phase.MISDEAL_OFFER or phase is Phase.FARMER_OFFER:
        if seat is None or seat != state.to_act:  # an offer is seen by the offered seat alone
            return Phase.OFFERS, -1
    return phase, state.to_act


def seat_legal(state: State, seat: int | None) -> tuple[Action, ...]:
    """The seat's legal actions when it is to act, else nothing."""
    return tuple(state.legal_actions()) if seat is not None and seat == state.to_act else ()
