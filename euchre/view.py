"""What one seat may know (rules section 9), as a frozen value with no path to hidden cards.

A :class:`PlayerView` is built by copying exactly the allowed facts out of a
:class:`~euchre.state.State`; it holds no reference to the state, the deal or the stock, so no
attribute, private or not, leads to another seat's cards. Bots, the terminal, the server and the
learning environment all consume views, never states.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, NamedTuple

from euchre.actions import DISCARD_ACTIONS, FARMER, GIVE_ACTIONS, KEEP, MISDEAL, PLAY_ACTIONS, Action, Kind
from euchre.cards import (
    CARDS,
    EFFECTIVE,
    FOLLOW,
    JOKER,
    NO_TRUMP,
    POWER,
    SUITS,
    TWIN,
    TWIN_CARD,
    Card,
    Suit,
    deck_cards,
    deck_mask,
    face,
    iter_mask,
    mask_of,
    sort_hand,
)
from euchre.cards import trump_suit as _trump_suit
from euchre.errors import DealError, RulesError, SeatError
from euchre.rules import Rules
from euchre.state import Phase, State, Trick

if TYPE_CHECKING:
    from collections.abc import Callable

    from euchre.game import Game

    Bury = Callable[[list[Card], int], Card]
    """A model of the dealer's discard: the card it buries of the given six (the ones it may
    bury), given trump (:meth:`PlayerView.resample`)."""

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
    up_card: Card | None
    """The card turned up after the deal; ``None`` in Hasenpfeffer (its 25th card is never shown)."""
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
    bid: int = 0
    """The auction games (RULES-FAMILY.md 14, 15): the highest bid so far in tricks, 0 before any
    (Bid Euchre's moon: the hand's tricks plus one, :attr:`moon`)."""
    bidder: int = -1
    """The auction games: the seat holding the highest bid, -1 before any."""
    forced_bid: bool = False
    """Hasenpfeffer: all passed and the Joker's holder, ``bidder``, was made to bid 3 (so everyone
    knows where the Joker is)."""

    @classmethod
    def of(cls, state: State, seat: int | None, *, game: Game | None = None) -> PlayerView:
        """The view of ``seat`` (or a spectator, ``None``) of ``state``."""
        if seat is not None and (isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat < state.n):
            raise SeatError(f"seat must be 0..{state.n - 1} (or None, a spectator), got {seat!r}")
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
        trick, tricks = tuple(state.trick), tuple(state.tricks)
        if state.rules.double_deck:  # the copies of a card are alike: every view shows the card itself
            trick = tuple((p, face(c)) for p, c in trick)
            tricks = tuple(t._replace(plays=tuple((p, face(c)) for p, c in t.plays)) for t in tricks)
            acts = tuple((p, None if a is None else _FACE_PLAYS.get(a, a)) for p, a in acts)  # (_face_action)
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
            trick=trick,
            tricks=tricks,
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
            bid=state.bid,
            bidder=state.bidder,
            forced_bid=state.forced_bid,
        )

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit; ``None`` before trump is made and in a hand without trump."""
        return _trump_suit(self.trump)  # (Napoleon's trump suits, without bowers, too)

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
        if self.rules.double_deck:
            return self._unseen_copies()
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
        for _, _, given, buried in self.gifts:  # call for best: what this seat saw of each gift
            if given is not None:
                known |= 1 << given
            if buried is not None:
                known |= 1 << buried
        if self.up_card is not None and not self.up_card_taken:
            known |= 1 << self.up_card
        if self.rules.auction and self.phase is Phase.OVER and self.bidder < 0:
            known |= 1 << JOKER  # a Hasenpfeffer throw-in: the Joker was the unused card
        return deck_mask(self.rules.deck) & ~known

    def seen_copies(self) -> list[tuple[int | str, Card]]:
        """The double deck: every copy of a card this seat has seen and where, in order: ``"hand"``,
        a seat's number for a card it played, ``"discard"`` (the moon shooter's own), ``"gift"``
        (the giver's card, unless the receiver has played a copy of it since)."""
        out: list[tuple[int | str, Card]] = [("hand", c) for c in self.hand]
        out += [(s, c) for tr in self.tricks for s, c in tr.plays]
        out += [(s, c) for s, c in self.trick]
        for giver, receiver, given, buried in self.gifts:
            if buried is not None:  # the receiver's own discard
                out.append(("discard", buried))
            if given is not None and giver == self.seat:  # the giver's gift, unless the receiver played it since
                shown = any(s == receiver and face(c) == face(given) for tr in self.tricks for s, c in tr.plays)
                if not shown and not any(s == receiver and face(c) == face(given) for s, c in self.trick):
                    out.append(("gift", given))
        return out

    def _unseen_copies(self) -> int:
        """The double deck's unseen cards as a mask of copies: a card's own id when at least one
        copy is unseen, its second copy's id too when both are (this seat counts copies, it
        cannot tell them apart)."""
        seen: dict[int, int] = {}
        for _, c in self.seen_copies():
            f = face(c)
            seen[f] = seen.get(f, 0) + 1
        mask = 0
        for f in deck_cards(24):
            left = 2 - seen.get(f, 0)
            if left >= 1:
                mask |= 1 << f
            if left >= 2:
                mask |= 1 << TWIN[f]
        return mask

    def played_masks(self) -> list[int]:
        """The cards each seat has played this hand, as a mask per seat (the resampling's start)."""
        played = [0] * self.rules.players
        for tr in self.tricks:
            for s, c in tr.plays:
                played[s] |= 1 << c
        for s, c in self.trick:
            played[s] |= 1 << c
        return played

    @property
    def moon(self) -> bool:
        """Bid Euchre: the high bid so far is the moon (every trick, alone)."""
        return self.bid > self.rules.hand_size

    @property
    def joker_holder(self) -> int | None:
        """Hasenpfeffer: the seat known by all to hold the Joker after a forced bid, else ``None``
        (this seat may know it from its own hand, which this does not tell)."""
        return self.bidder if self.forced_bid else None

    def unseen(self) -> tuple[Card, ...]:
        """The cards of :meth:`unseen_mask`, lowest id first."""
        return tuple(iter_mask(self.unseen_mask()))

    def resample(self, rng: random.Random, *, tries: int = 200, bury: Bury | None = None,
                 bury_misfit: float = 1.0, redraws: int = 64) -> State:
        """A full hand consistent with everything this seat knows, with the unseen cards dealt at
        random: this seat's cards, every card played, the up card (in the dealer's hand when it
        was taken and not yet played), the voids shown in play, and the dealer's buried card when
        this seat is the dealer. The actions of the hand are replayed on it, so the returned
        :class:`~euchre.state.State` stands exactly where the view does. Search bots solve such
        samples; the sample is uniform over the consistent deals (rejection sampling), falling back
        to a constrained random fill if ``tries`` shuffles all break a void.

        The house rules of RULES-FAMILY.md 12.2-12.4 are covered too, each card sampled only where
        the seat does not know it (12.7): a call for best's card is the giver's and the receiver's,
        its discard the receiver's alone; the farmer's three cards given and taken are the farmer's
        (the others know only that it held five 9s and 10s, so that the stock holds three of them);
        a misdeal caller's cards are everyone's; an offer another seat kept is nobody else's (the
        sample makes the same offers its deal calls for and keeps them). The other seats' hidden
        choices (a chosen gift, a kept offer) are weighed as random choices among their options,
        so the sample is drawn from the deals and choices that explain the view (see
        :func:`_resample_house`).

        The games that turn no card up (Hasenpfeffer, Bid Euchre: six cards each) are sampled by
        :func:`_resample_open`: the unseen cards go to the other seats, and what is left over
        (Hasenpfeffer's unused card) is the stock, which nobody holds; a forced bid puts the Joker
        in the bidder's hand.

        ``bury``: a model of the dealer's discard (the card it buries of its six, given trump),
        for a seat that did not see it: without it the buried card is any card the seat has not
        seen, as if the dealer had buried at random, which no player does (a dealer keeps its
        trumps). With it, a dealt deal is kept as likely as the model explains it (the mean, over
        the cards it could have buried, of 1 where the model buries that card and
        ``bury_misfit`` where not: which of them was buried changes nothing else) and dealt
        again otherwise, up to ``redraws`` times (then the last is kept: every deal the view
        allows fits about as badly). The Euchre games without house rules only.
        """
        if self.up_card is None and not self.rules.has_up_card:
            return _resample_open(self, rng, tries)
        if (self.gifts or self.phase in _HOUSE_PHASES or self.misdeal >= 0 or self.farmer >= 0
                or self.rules.ace_no_face or self.rules.farmers_hand):
            return _resample_house(self, rng, tries)
        rules = self.rules
        n = rules.players
        dealer = self.dealer
        up = self.up_card
        assert up is not None  # resampling refuses Hasenpfeffer (no up card)
        played = self.played_masks()
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
        read = bury is not None and hidden_discard and known_discard is None and bury_misfit < 1.0
        for _ in range(redraws if read else 1):
            now, buried = self._deal_hidden(rng, tries, pool, seats, need, voids, played, mine, up, up_fixed,
                                            hidden_discard, taken_up_in_pool)
            if not read:
                break
            dealt = 0
            for m in now:
                dealt |= m
            if rng.random() < self._bury_fit(now[dealer] | played[dealer], [c for c in pool if not dealt >> c & 1],
                                             bury, bury_misfit):  # type: ignore[arg-type]
                break
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

    def _bury_fit(self, kept: int, candidates: list[int], bury: Bury, misfit: float) -> float:
        """How well a dealt deal explains the dealer's hidden discard by the model ``bury``
        (:meth:`resample`): ``kept`` is the dealer's five cards after its discard (held and played),
        ``candidates`` the cards it could have buried (the one it did and those nobody holds)."""
        up = self.up_card
        trump = self.trump
        assert up is not None and trump is not None
        may_bury_up = self.rules.dealer_may_discard_up_card
        total, count = 0.0, 0
        for card in sorted(candidates):
            six = kept | 1 << card
            if not six >> up & 1:
                continue  # (the dealer took the up card: it is among the six)
            options = [CARDS[c] for c in iter_mask(six) if may_bury_up or c != up]
            count += 1
            total += 1.0 if bury(options, trump) == card else misfit
        return total / count if count else 1.0

    def _deal_hidden(self, rng: random.Random, tries: int, pool: list[int], seats: list[int], need: list[int],
                     voids: dict[int, int], played: list[int], mine: int, up: int, up_fixed: bool,
                     hidden_discard: bool, taken_up_in_pool: bool) -> tuple[list[int], int | None]:
        """One deal of the unseen cards for :meth:`resample`: each seat's cards now, as masks, and
        the buried card when the seat did not see it."""
        rules = self.rules
        n = rules.players
        dealer = self.dealer
        deal_to: dict[int, list[int]] = {}
        buried: int | None = None
        for attempt in range(tries + 1):
            rng.shuffle(pool)
            if attempt == tries:
                # Fallback: the up card (if its place is open) goes to the dealer's hand, or is the
                # buried card when the dealer has shown it is out of the up card's suit.
                fb_need = need[:]
                fb_pool = pool
                bury_up = (taken_up_in_pool and hidden_discard and rules.dealer_may_discard_up_card
                           and voids.get(dealer, 0) >> up & 1 == 1)
                if taken_up_in_pool:
                    fb_pool = [c for c in pool if c != up]
                    if not bury_up:
                        fb_need[dealer] -= 1
                got = self._constrained_fill(fb_pool, [s for s in seats if fb_need[s] > 0], fb_need, voids,
                                             hidden_discard and not bury_up, rng)
                if got is None:
                    raise DealError("no deal is consistent with this view")
                deal_to, buried = got
                if bury_up:
                    buried = up
                elif taken_up_in_pool:
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
        return now, buried

    @staticmethod
    def _constrained_fill(pool: list[int], seats: list[int], need: list[int], voids: dict[int, int],
                          hidden_discard: bool, rng: random.Random) -> tuple[dict[int, list[int]], int | None] | None:
        """Deal the pool to the seats respecting voids, most constrained seat first (a fallback
        when rejection sampling keeps failing; slightly biased, always consistent). When that
        keeps failing too (the cards of a suit that only one seat may hold must all go to it, and
        the greedy deal rarely gives it all of them), :func:`_checked_fill` deals them; ``None``
        only when no deal is consistent."""
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
        return _checked_fill(pool, seats, need, voids, hidden_discard, rng)


def _checked_fill(pool: list[int], seats: list[int], need: list[int], voids: dict[int, int],
                  hidden_discard: bool, rng: random.Random) -> tuple[dict[int, list[int]], int | None] | None:
    """:meth:`PlayerView._constrained_fill`'s last resort: the pool dealt card by card in a random
    order, each card to a seat it may go to (not void in it, room left; or to the cards no seat
    gets, if any) with the chance of that seat's room, but never to one that would leave the
    rest impossible. A deal of the rest exists exactly when, for every set S of seats, the cards
    only the seats of S may take are no more than S's room plus the cards no seat gets (Hall's
    condition; the two sides' totals are equal). Consistent whenever a deal is, slightly biased
    (as the greedy deal is); ``None`` when no deal is consistent. The same arguments and answer as
    :meth:`PlayerView._constrained_fill`."""
    k = len(seats)
    room = [need[s] for s in seats]
    spare = len(pool) - sum(room)  # the cards no seat gets (the stock, a buried card)
    if spare < 0:
        return None
    masks = [sum(1 << i for i, s in enumerate(seats) if not voids.get(s, 0) >> c & 1) for c in pool]
    count: dict[int, int] = {}
    for m in masks:
        count[m] = count.get(m, 0) + 1

    def feasible() -> bool:
        for subset in range(1 << k):
            inside = sum(n for m, n in count.items() if not m & ~subset)
            if inside > spare + sum(room[i] for i in range(k) if subset >> i & 1):
                return False
        return True

    if not feasible():
        return None
    order = list(range(len(pool)))
    rng.shuffle(order)
    out: dict[int, list[int]] = {s: [] for s in seats}
    rest: list[int] = []
    for j in order:
        c, m = pool[j], masks[j]
        count[m] -= 1
        options = [i for i in range(k) if m >> i & 1 and room[i] > 0] + ([k] if spare > 0 else [])
        while True:
            if not options:  # (cannot happen: the deal so far was feasible)
                return None
            weights = [room[i] if i < k else spare for i in options]
            pick = rng.choices(options, weights)[0]
            if pick < k:
                room[pick] -= 1
            else:
                spare -= 1
            if feasible():
                break
            if pick < k:
                room[pick] += 1
            else:
                spare += 1
            options.remove(pick)
        if pick < k:
            out[seats[pick]].append(c)
        else:
            rest.append(c)
    return out, rest[0] if hidden_discard and rest else None


def _face_action(a: Action) -> Action:
    """A play of the double deck's second copy as the play of the card itself (the words are the
    same; views never tell the copies apart). A table lookup: a double-deck view maps its whole
    history, and the search bot's rollouts build a view for every card they play."""
    return _FACE_PLAYS.get(a, a)


_FACE_PLAYS: dict[int, Action] = {a: PLAY_ACTIONS[face(a.card)] for a in PLAY_ACTIONS
                                  if a.card is not None and a.card >= TWIN_CARD}
"""The plays of the double deck's second copies, each to the play of its card (:func:`_face_action`)."""


# --- resampling the games without an up card (RULES-FAMILY.md 14, 15) ------------------------------------
def _resample_open(view: PlayerView, rng: random.Random, tries: int) -> State:
    """:meth:`PlayerView.resample` for rules that turn no card up (``rules.has_up_card`` false:
    the six-card auction games). The seat knows its own cards, every card played and who played
    it, the voids shown, and (Hasenpfeffer's forced bid) who holds the Joker; nothing else moves a
    card. So the unseen cards are dealt at random to the other seats, each getting what it still
    holds (``rules.hand_size`` less the cards it played), and the rest of the deck is the stock:
    Hasenpfeffer's unused card is any unseen card no hand was given, Bid Euchre has none. Uniform
    over the consistent deals by rejection sampling; after ``tries`` shuffles that all break a
    void, the constrained fill of :meth:`PlayerView._constrained_fill` (always consistent). The
    double deck deals the copies the seat has not seen (:meth:`PlayerView.unseen_mask`) and builds
    the hands by face (:func:`_double_sample`), its moon as any other's, each copy in view its own
    id (:func:`_double_ids`)."""
    if view.rules.bid_euchre and view.moon and view.trump is not None:
        return _resample_moon(view, rng, tries)
    if any(a is None for _, a in view.actions) or view.gifts:
        # A hidden card moved between seats (an exchange these rules may add): not sampled here.
        raise RulesError("Rules: resampling does not cover a hidden exchange of cards in a game "
                         "without an up card yet")
    rules = view.rules
    n = rules.players
    played = view.played_masks()
    all_played = 0
    for m in played:
        all_played |= m
    gone = [m.bit_count() for m in played]
    if rules.double_deck:  # a card played twice is one bit of a mask
        gone = [sum(1 for tr in view.tricks for p, _ in tr.plays if p == s)
                + sum(1 for p, _ in view.trick if p == s) for s in range(n)]
    need = [0 if s == view.seat else rules.hand_size - gone[s] for s in range(n)]
    pool_mask = view.unseen_mask()
    pinned: dict[int, int] = {}
    holder = view.joker_holder
    if holder is not None and holder != view.seat and pool_mask >> JOKER & 1:
        pinned[holder] = 1 << JOKER  # a forced bid: everyone knows who holds the Joker
        need[holder] -= 1
        pool_mask &= ~(1 << JOKER)
    pool: list[int] = list(iter_mask(pool_mask))
    voids = view.voids()  # (a suit's mask holds the double deck's second copies too)
    double = rules.double_deck
    seats = [s for s in range(n) if need[s] > 0]
    deal_to: dict[int, list[int]] = {}
    for attempt in range(tries + 1):
        rng.shuffle(pool)
        if attempt == tries:
            got = PlayerView._constrained_fill(pool, seats, need, voids, False, rng)
            if got is None:
                raise DealError("no deal is consistent with this view")
            deal_to = got[0]
            break
        i = 0
        deal_to = {}
        for s in seats:
            deal_to[s] = pool[i:i + need[s]]
            i += need[s]
        if all(not (mask_of(deal_to[s]) & voids.get(s, 0)) for s in seats):
            break
    if double:
        return _double_sample(view, deal_to)
    mine = mask_of(view.hand) if view.seat is not None else 0
    used = all_played
    hands: list[list[Card]] = []
    for s in range(n):
        start = (mine if s == view.seat else mask_of(deal_to.get(s, ())) | pinned.get(s, 0)) | played[s]
        used |= start
        hands.append([CARDS[c] for c in iter_mask(start)])
    stock = [CARDS[c] for c in iter_mask(deck_mask(rules.deck) & ~used)]
    state = State(rules, dealer=view.dealer, hands=hands, up_card=None, stock=stock)
    for _, action in view.actions:
        assert action is not None
        state._push(action)
    return state


def _double_sample(view: PlayerView, deal_to: dict[int, list[int]]) -> State:
    """The double deck's sample from the cards dealt to the other seats: every hand a list of
    cards by face, a pair held or played twice counted twice (a mask would keep one of them), the
    deal's second copies left for :class:`~euchre.state.State` to number; then the view's actions
    replayed, each play by face (the sample's engine plays whichever copy its hand holds)."""
    n = view.rules.players
    faces: list[list[Card]] = [[] for _ in range(n)]
    for tr in view.tricks:
        for s, c in tr.plays:
            faces[s].append(CARDS[face(c)])
    for s, c in view.trick:
        faces[s].append(CARDS[face(c)])
    for s in range(n):
        held = view.hand if s == view.seat else deal_to.get(s, ())
        faces[s].extend(CARDS[face(c)] for c in held)
    state = State(view.rules, dealer=view.dealer, hands=faces, up_card=None)
    for _, action in view.actions:
        assert action is not None
        state._push(_sample_play(state, action))
    return state


def _sample_play(state: State, action: Action) -> Action:
    """A play by face as the sample's legal play of that card: the hand's copy under the card's
    own id, or the second copy's code when the hand holds the pair (the engine offers that one)."""
    if action.kind is Kind.PLAY and action.card is not None and action.card < TWIN_CARD:
        twin = PLAY_ACTIONS[TWIN[action.card]]
        if state.hands[state.to_act] >> TWIN[action.card] & 1:
            return twin
    return action


class _MoonPlan(NamedTuple):
    """What :func:`_resample_moon` deals, worked out once per view."""

    me: int | None
    shooter: int
    giver: int
    played: list[int]
    sizes: list[int]
    """Cards each seat holds now (0 for the resampling seat), then the hidden discard's bin (1 if
    the discard is made and this seat did not see it, else 0)."""
    allowed: list[int]
    """Per bin, the cards it may hold (voids; the giver's trumps the shooter knows it lacks)."""
    pool: list[Card]
    pinned: Card | None
    """The giver's own view: the card it gave, unplayed, so in the shooter's hand or its discard."""
    gift: Card | None
    """The card given, when this seat knows it."""
    discard: Card | None
    """The shooter's discard, when this seat knows it."""
    made: bool
    """The gift is made (as this seat knows it: for a defender, once the discard is)."""
    hand: int
    """The seat's own hand as a mask (the double deck: each copy its own id, :func:`_double_ids`)."""


def _moon_plan(view: PlayerView) -> _MoonPlan:
    rules = view.rules
    n = rules.players
    me = view.seat
    z = view.maker
    p: int = rules.partner(z)  # type: ignore[assignment]  # four players
    gift = view.gifts[0] if view.gifts else None
    card = gift[2] if gift is not None else None
    discard = gift[3] if gift is not None else None
    if rules.double_deck:
        hand, played, card, discard = _double_ids(view, z, card, discard)
    else:
        hand, played = mask_of(view.hand) if me is not None else 0, view.played_masks()
    if me == z or me == p:
        made = gift is not None
        discarded = made and not (view.phase is Phase.BEST_DISCARD and view.to_act == z)
    else:
        made = discarded = gift is not None  # the others see the exchange once it is over
    size = rules.hand_size
    sizes = [0] * (n + 1)
    for s in range(n):
        if s != me:
            sizes[s] = size - played[s].bit_count()
    if made and me != p:
        sizes[p] -= 1  # the giver sits out with five
    if made and not discarded and me != z:
        sizes[z] += 1  # the shooter holds seven until the discard
    hidden_discard = discarded and discard is None
    sizes[n] = 1 if hidden_discard else 0
    voids = view.voids()
    allowed = [~voids.get(s, 0) for s in range(n)] + [~0]
    t = view.trump
    assert t is not None
    trumps = FOLLOW[t][t] if t < NO_TRUMP and not rules.best_card_free else 0
    if me == z and trumps:
        # The shooter knows how the card came (RULES-FAMILY.md 12.2 step 2): the giver's highest
        # trump, or chosen (listed among the actions) by a giver holding no trump.
        chosen = any(s == p and a is not None and a.kind is Kind.GIVE for s, a in view.actions)
        if not made or chosen:  # a gift pending or chosen: the giver holds no trump
            allowed[p] &= ~trumps
        else:
            assert card is not None
            power = POWER[t]
            allowed[p] &= ~mask_of(c for c in iter_mask(trumps) if power[c] > power[card])
    pool_mask = view.unseen_mask()
    pinned: Card | None = None
    if me == p and card is not None and not played[z] >> card & 1:
        pinned = card
    pool = list(iter_mask(pool_mask & ~(1 << pinned if pinned is not None else 0)))
    if len(pool) + (pinned is not None) != sum(sizes):
        raise DealError("no deal is consistent with this view (its cards do not add up)")
    return _MoonPlan(me, z, p, played, sizes, allowed, pool, pinned, card, discard, made, hand)


def _double_ids(view: PlayerView, shooter: int, gift: Card | None,
                discard: Card | None) -> tuple[int, list[int], Card | None, Card | None]:
    """The double deck's cards in view, each copy its own id, so that :func:`_moon_plan`'s masks
    count them: (the seat's hand, the cards played per seat, the gift, the discard). The copies
    the seat has not seen are :meth:`PlayerView.unseen_mask`'s (a card's own id first, its second
    copy's when both are unseen); the copies it has seen take the ids left, in the order of
    :meth:`PlayerView._unseen_copies`. The gift is the copy it became: the giver's own card while
    unplayed (pinned to the shooter's hand or discard), else a copy of it among the shooter's."""
    seen = view.seen_copies()
    count: dict[int, int] = {}
    for _, c in seen:
        count[face(c)] = count.get(face(c), 0) + 1
    left = {f: [TWIN[f]] if k == 1 else [int(f), TWIN[f]] for f, k in count.items()}
    hand = 0
    played = [0] * view.rules.players
    ids: dict[str, list[int]] = {"discard": [], "gift": []}
    mine: dict[int, list[int]] = {}  # the shooter's copies by face (hand, plays, discard): where a gift went
    for where, c in seen:
        f = face(c)
        i = left[f].pop(0)
        if where == "hand":
            hand |= 1 << i
        elif where in ("discard", "gift"):
            ids[where].append(i)
        else:
            played[where] |= 1 << i  # type: ignore[index]
        if where == "discard" or (where == "hand" and view.seat == shooter) or where == shooter:
            mine.setdefault(f, []).append(i)
    card: Card | None = None
    if gift is not None:
        if ids["gift"]:
            card = CARDS[ids["gift"][0]]
        else:
            copies = mine.get(face(gift), [])
            card = CARDS[copies[0]] if copies else None
    d = CARDS[ids["discard"][0]] if discard is not None and ids["discard"] else None
    return hand, played, card, d


def _moon_try(view: PlayerView, plan: _MoonPlan, rng: random.Random, exact: bool) -> State | None:
    """One attempt of :func:`_resample_moon`: deal the bins (uniformly, or as a fallback greedily),
    choose the hidden gift and discard, work back to the deal, replay the hand and keep it only if
    the seat's view of it is the view."""
    rules = view.rules
    n = rules.players
    me, z, p = plan.me, plan.shooter, plan.giver
    sizes = plan.sizes
    out: list[list[Card]] = [[] for _ in sizes]
    free = sizes[:]
    places = (z, n) if sizes[n] else (z,)
    pool = plan.pool[:]
    rng.shuffle(pool)
    if exact:
        if plan.pinned is not None and not _pin(plan.pinned, places, plan.allowed, free, out, rng):
            return None
        i = 0
        for b in range(len(sizes)):
            part = pool[i:i + free[b]]
            i += free[b]
            if mask_of(part) & ~plan.allowed[b]:
                return None
            out[b].extend(part)
    else:
        # Greedy, always consistent: the most constrained places first (the giver's card, in its
        # own view, only to the shooter's hand or discard); a defender's sample gives the shooter
        # the highest trump of what is left over (so the giver held no better one) and has it
        # discarded.
        first = [s for s in range(n) if free[s] and (s != p or me == z)]
        banned = {s: ~plan.allowed[s] for s in first}
        if plan.pinned is not None:
            pool.append(plan.pinned)
            for s in first:
                if s not in places:
                    banned[s] |= 1 << plan.pinned
            if free[n]:
                first.append(n)
                banned[n] = 0
        got = PlayerView._constrained_fill([int(c) for c in pool], first, free, banned, False, rng)
        if got is None:
            return None
        for s, ids in got[0].items():
            out[s].extend(CARDS[c] for c in ids)
            free[s] = 0
        dealt = mask_of(c for b in out for c in b)
        rest = [c for c in pool if not dealt >> c & 1]
        t = view.trump
        if free[n] and me != p:  # a defender's view: the discard is the card given
            trumps = FOLLOW[t][t] & mask_of(rest) if t is not None and t < NO_TRUMP else 0  # type: ignore[index]
            top = max(iter_mask(trumps), key=POWER[t].__getitem__) if trumps else rest[0]  # type: ignore[index]
            out[n].append(top)
            free[n] = 0
            rest.remove(top)
        for b in range(len(sizes)):
            if free[b]:
                out[b].extend(rest[:free[b]])
                rest = rest[free[b]:]
                free[b] = 0
    now = [mask_of(out[s]) for s in range(n)]
    if me is not None:
        now[me] = plan.hand
    d = plan.discard if plan.discard is not None else (out[n][0] if out[n] else None)
    card = plan.gift
    if card is None and plan.made:
        # A defender's view: any of the shooter's seven may have come from the giver, if the
        # giver could give it (its highest trump when it held one, else a card of its choice,
        # each of its six as likely). Exact: kept with the chance of the gift (out of seven).
        seven = now[z] | plan.played[z] | (1 << d if d is not None else 0)
        cands: list[Card] = []
        weights: list[float] = []
        t = view.trump
        trumps = FOLLOW[t][t] if t is not None and t < NO_TRUMP and not rules.best_card_free else 0  # type: ignore[index]
        for c in iter_mask(seven):
            held = (now[p] | 1 << c) & trumps
            if held:
                power = POWER[t]  # type: ignore[index]
                if held >> c & 1 and all(power[x] < power[c] for x in iter_mask(held) if x != c):
                    cands.append(c)
                    weights.append(1.0)
            else:
                cands.append(c)
                weights.append(1.0 / rules.hand_size)
        if not cands:
            return None
        if exact and rng.random() * seven.bit_count() >= sum(weights):
            return None
        card = rng.choices(cands, weights=weights)[0] if exact else (d if d in cands else cands[0])
    deal = [now[s] | plan.played[s] for s in range(n)]
    if plan.made:
        assert card is not None
        if d is not None:
            deal[z] |= 1 << d
        if not deal[z] >> card & 1:
            return None
        deal[z] &= ~(1 << card)
        deal[p] |= 1 << card
    used = 0
    for m in deal:
        if m.bit_count() != rules.hand_size or used & m:
            return None
        used |= m
    state = State(rules, dealer=view.dealer, hands=[[CARDS[c] for c in iter_mask(m)] for m in deal],
                  up_card=None, stock=[])
    acts = view.actions
    i = 0
    while True:
        if state.phase is Phase.GIVE and me != z and me != p:
            # A chosen gift the seat does not see (it sees the phase "call for best" meanwhile).
            if i == len(acts) and view.phase is Phase.CALL_FOR_BEST:
                break
            if card is None or not state.hands[p] >> face(card) & 1:  # (a single copy is under the card's id)
                return None
            state._push(GIVE_ACTIONS[face(card)])
            continue
        if i == len(acts):
            break
        s, a = acts[i]
        i += 1
        if s != state.to_act:
            return None
        if a is None:  # the shooter's discard, unseen by this seat
            if state.phase is not Phase.BEST_DISCARD or d is None:
                return None
            a = DISCARD_ACTIONS[face(d)]
        elif rules.double_deck:
            a = _sample_play(state, a)
        if a not in state.legal_actions():
            return None
        state._push(a)
    if card is not None and (not state.gifts or face(state.gifts[0].card) != face(card)):
        return None  # the engine's forced gift is not the card the sample gave
    mine = PlayerView.of(state, me)
    if any(getattr(mine, name) != getattr(view, name) for name in _COMPARED):
        return None
    return state


def _resample_moon(view: PlayerView, rng: random.Random, tries: int) -> State:
    """:func:`_resample_open` for a Bid Euchre moon once trump is named (RULES-FAMILY.md 15, 12.2,
    12.7): the shooter's partner gives a card and the shooter, holding seven, discards one.

    Each seat knows of it exactly what the view holds: the shooter the card received and its
    discard, and how the card came (the giver's highest trump, so the giver holds no better one;
    chosen, so in a suit the giver held no trump; in high and low any card); the giver the card
    given (now the shooter's, played, or the discard) but not the discard; a defender neither. So
    the cards the seat has not seen are dealt to the places they may be now (each other seat's
    hand, the hidden discard), the hidden gift is drawn among the shooter's seven that the giver
    could have given, the deal is worked back and the hand replayed on it, and the sample is kept
    only if the seat's view of the replay is the view (as :func:`_resample_house` does). A
    defender's gift is weighed by its chance (a forced gift 1, a chosen one 1 in 6, out of the
    seven cards), so samples follow the deals and gifts that explain the view; the discard is
    taken as any of the seven. After ``tries`` failed attempts, a greedy fill (consistent: the
    gift is the discard, a trump the highest of the giver's, slightly biased)."""
    plan = _moon_plan(view)
    for exact, budget in ((True, tries), (False, 4 * tries)):
        for _ in range(max(budget, 1)):
            state = _moon_try(view, plan, rng, exact)
            if state is not None:
                return state
    raise DealError("no deal is consistent with this view")


# --- resampling the house rules (RULES-FAMILY.md 12.2-12.4, 12.7) --------------------------------------
_HOUSE_PHASES = (Phase.GIVE, Phase.BEST_DISCARD, Phase.CALL_FOR_BEST, Phase.MISDEAL_OFFER, Phase.FARMER_OFFER,
                 Phase.FARMER_GIVE, Phase.OFFERS)
"""The phases of a call for best and of the offers: a view there is resampled by :func:`_resample_house`."""
_NINES_TENS = mask_of(s * 8 + r for s in range(4) for r in (2, 3))
"""Every 9 and 10: the cards of a farmer's hand (RULES-FAMILY.md 12.3)."""
_FACES = mask_of(s * 8 + r for s in range(4) for r in (4, 5, 6)) | 1 << JOKER
_ACES = mask_of(s * 8 + 7 for s in range(4))
_COMPARED = tuple(f.name for f in fields(PlayerView) if f.name not in ("scores", "hand_number"))
"""The fields a sample's view must share with the view it was drawn from (the score and the hand's
number come from the game, which a sampled hand has not)."""


def _misdeal_eligible(mask: int) -> bool:
    """A hand the ace-no-face offer goes to (no K, Q, J or Joker, at most one ace)."""
    return not mask & _FACES and (mask & _ACES).bit_count() <= 1


class _GiftPlan:
    """One call for best as the resampling seat knows it: the card (``None``: hidden, chosen per
    sample among the receiver's six), whether the receiver's discard is made, the discard (known)
    or the bin it is sampled into."""

    __slots__ = ("giver", "receiver", "card", "discarded", "discard", "bin")

    def __init__(self, giver: int, receiver: int, card: Card | None, discarded: bool, discard: Card | None,
                 bin: int) -> None:
        self.giver = giver
        self.receiver = receiver
        self.card = card
        self.discarded = discarded
        self.discard = discard
        self.bin = bin


class _Plan:
    """What :func:`_resample_house` deals, worked out once per view: the hidden places ("bins":
    each other seat's hand now, a hidden discard, the farmer's three given cards, the stock) with
    their sizes, the cards each may hold (voids, what a gift tells) and the cards that must be in
    one of a few of them (a taken up card, a card the seat gave)."""

    __slots__ = ("n", "me", "played", "known", "gifts", "buried", "buried_bin", "farmer", "given", "gave",
                 "took", "gave_bin", "sizes", "allowed", "klass", "pins", "pool", "class_bins", "farm_bins",
                 "kept_known")

    def __init__(self) -> None:
        self.n = 0
        self.me: int | None = None
        self.played: list[int] = []
        self.known: dict[int, int] = {}
        """Seats whose cards now are known: this seat's, a misdeal caller's."""
        self.gifts: list[_GiftPlan] = []
        self.buried: Card | None = None
        """The dealer's discard when this seat is the dealer."""
        self.buried_bin = -1
        self.farmer = -1
        self.given = 0
        """How many cards the farmer has given."""
        self.gave: tuple[Card, ...] = ()
        self.took: tuple[Card, ...] = ()
        self.gave_bin = -1
        self.sizes: list[int] = []
        self.allowed: list[int] = []
        self.klass: list[int] = []
        """Per bin, the cards it is drawn from first (-1: any)."""
        self.pins: list[tuple[Card, tuple[int, ...]]] = []
        self.pool: list[Card] = []
        self.class_bins: list[int] = []
        self.farm_bins: tuple[int, ...] = ()
        """Another seat's farmer, its exchange done: the places that may hold the two cards it kept."""
        self.kept_known: list[Card] = []
        """The 9s and 10s that farmer played from the hand it bid with (each may be a kept one)."""


def _house_plan(view: PlayerView) -> _Plan:
    rules = view.rules
    n = rules.players
    me = view.seat
    dealer = view.dealer
    up = view.up_card
    assert up is not None  # resampling refuses Hasenpfeffer (no up card)
    plan = _Plan()
    plan.n = n
    plan.me = me
    played = view.played_masks()
    plan.played = played
    fixed = 0
    for m in played:
        fixed |= m
    known: dict[int, int] = {}
    if me is not None:
        known[me] = mask_of(view.hand)
    if view.misdeal >= 0:
        known[view.misdeal] = mask_of(view.misdeal_hand)
    plan.known = known
    for m in known.values():
        fixed |= m
    sizes = [0] * n
    allowed = [~0] * n
    klass = [-1] * n
    voids = view.voids()
    for s in range(n):
        if s not in known:
            sizes[s] = rules.hand_size - played[s].bit_count()
            allowed[s] = ~voids.get(s, 0)

    def new_bin(size: int, mask: int = ~0, cls: int = -1) -> int:
        sizes.append(size)
        allowed.append(mask)
        klass.append(cls)
        return len(sizes) - 1

    # The dealer's exchange (and under call for best, a sitting-out dealer adding the up card).
    if view.up_card_taken and not view.dealer_discarded and dealer not in known:
        sizes[dealer] += 1  # six cards: until the discard, or (call for best, 12.2 step 1) until the gift
    if view.dealer_discarded:
        if me == dealer:
            plan.buried = view.discard
            assert plan.buried is not None
            fixed |= 1 << plan.buried
        else:
            plan.buried_bin = new_bin(1)
    # The calls for best as this seat knows them.
    pins: list[tuple[Card, tuple[int, ...]]] = []
    trump = view.trump
    for giver, receiver, card, buried in view.gifts:
        if me == receiver:
            discarded = buried is not None
        elif me == giver:
            discarded = not (view.phase is Phase.BEST_DISCARD and view.to_act == receiver)
        else:
            discarded = True  # the others see a call for best once its discard is made
        g = _GiftPlan(giver, receiver, card, discarded, buried if me == receiver else None, -1)
        if giver not in known:
            sizes[giver] -= 1
        if receiver not in known:
            sizes[receiver] += 1 - discarded
        if discarded:
            if g.discard is not None:
                fixed |= 1 << g.discard
            else:
                g.bin = new_bin(1)
        if me == receiver and card is not None and trump is not None and trump < NO_TRUMP \
                and not rules.best_card_free:
            # The receiver knows how the card came: the giver's highest trump (no decision), or
            # chosen by a giver holding no trump; either way the giver holds no better trump now.
            chosen = any(s == giver and a is not None and a.kind is Kind.GIVE for s, a in view.actions)
            trumps = FOLLOW[trump][trump]
            if chosen:
                allowed[giver] &= ~trumps
            else:
                power = POWER[trump]
                allowed[giver] &= ~mask_of(c for c in iter_mask(trumps) if power[c] > power[card])
        plan.gifts.append(g)
    # The farmer's hand: the cards given go face down into the stock, the three under the up card
    # to the farmer.
    rest_stock = True
    if view.farmer >= 0:
        f = plan.farmer = view.farmer
        if me == f:
            plan.gave = view.farmer_gave
            plan.took = view.farmer_took
            plan.given = len(view.farmer_gave)
            fixed |= mask_of(view.farmer_gave)
            rest_stock = plan.given < 3  # the cards under the up card, until the farmer takes them
        else:
            k = 0
            acts = view.actions
            start = next((i for i, (s, a) in enumerate(acts) if s == f and a is not None and a.kind is Kind.FARMER),
                         len(acts))
            for s, _a in acts[start + 1:start + 4]:
                if s != f:
                    break
                k += 1
            plan.given = k
            plan.gave_bin = new_bin(k, cls=_NINES_TENS)
            if k < 3:  # still giving: the farmer's cards are all 9s and 10s
                sizes[f] -= k
                klass[f] = _NINES_TENS
            else:
                rest_stock = False  # the stock holds the three given cards, nothing else
    # The up card: known unless the dealer took it and it is unplayed; then it is the dealer's,
    # buried, or the card the dealer gave.
    if any(g.giver == me and g.card == up for g in plan.gifts):
        pass  # this seat (the dealer) gave it: pinned below, as a gift
    elif not view.up_card_taken or fixed >> up & 1 or me == dealer:
        fixed |= 1 << up
    else:
        places = [dealer]
        if view.dealer_discarded and rules.dealer_may_discard_up_card:
            places.append(plan.buried_bin)
        for g in plan.gifts:
            if g.receiver == dealer and g.bin >= 0:
                places.append(g.bin)
            if g.giver == dealer and g.card is None:
                places.append(g.receiver)
                if g.bin >= 0:
                    places.append(g.bin)
            if g.giver == dealer and g.card == up and me == g.receiver:
                places = []  # the receiver holds it (or played or buried it): known
        if places:
            pins.append((up, tuple(places)))
        else:
            fixed |= 1 << up
    # A card this seat gave and that is not played: the receiver's now, or its discard.
    for g in plan.gifts:
        if me == g.giver and g.card is not None and not fixed >> g.card & 1:
            places = [g.receiver] + ([g.bin] if g.bin >= 0 else [])
            pins.append((g.card, tuple(places)))
    pool_mask = deck_mask(rules.deck) & ~fixed
    for c, _ in pins:
        pool_mask &= ~(1 << c)
    plan.pool = list(iter_mask(pool_mask))
    total = sum(sizes)
    stock = len(plan.pool) + len(pins) - total
    if stock < 0 or (not rest_stock and stock != 0):
        raise DealError("no deal is consistent with this view (its cards do not add up)")
    if rest_stock:
        new_bin(stock)
    plan.sizes = sizes
    plan.allowed = allowed
    plan.klass = klass
    plan.pins = pins
    plan.class_bins = [b for b in range(len(sizes)) if klass[b] != -1 and sizes[b]]
    f = view.farmer
    if f >= 0 and me != f and plan.given == 3:
        farm = [f]
        if dealer == f and plan.buried_bin >= 0:
            farm.append(plan.buried_bin)
        farm.extend(g.bin for g in plan.gifts if g.receiver == f and g.bin >= 0)
        held = played[f]
        for g in plan.gifts:  # a card the farmer gave (call for best) left the hand it bid with
            if g.giver == f and g.card is None:
                farm.append(g.receiver)
                if g.bin >= 0:
                    farm.append(g.bin)
                held |= played[g.receiver]
            elif g.giver == f and g.card is not None:
                held |= 1 << g.card
        plan.farm_bins = tuple(farm)
        plan.kept_known = [c for c in iter_mask(held & _NINES_TENS) if c != up]
    return plan


def _may_give(card: Card, rest: int, dealer: bool, view: PlayerView) -> bool:
    """Whether a giver left holding ``rest`` may have given ``card`` (RULES-FAMILY.md 12.2): the up
    card only from the dealer, and the highest trump of the six when the giver held a trump and had
    no choice."""
    if card == view.up_card and view.up_card_taken and not dealer:
        return False
    t = view.trump
    if t is None or t >= NO_TRUMP or view.rules.best_card_free:
        return True
    trumps = (rest | 1 << card) & FOLLOW[t][t]
    if not trumps:
        return True
    power = POWER[t]
    return trumps >> card & 1 == 1 and all(power[c] < power[card] for c in iter_mask(trumps) if c != card)


def _pin(card: Card, places: tuple[int, ...], allowed: list[int], free: list[int], out: list[list[Card]],
         rng: random.Random) -> bool:
    """Put ``card`` in a free place of one of the bins ``places``, each free place as likely."""
    ok = [b for b in places if free[b] and allowed[b] >> card & 1]
    total = sum(free[b] for b in ok)
    if not total:
        return False
    r = rng.randrange(total)
    for b in ok:
        r -= free[b]
        if r < 0:
            out[b].append(card)
            free[b] -= 1
            break
    return True


class _Filled(NamedTuple):
    bins: list[list[Card]]
    """The cards dealt to each bin."""
    kept: int
    """The two cards another seat's farmer kept, as a mask (0 if none)."""
    gifts: dict[int, Card]
    """The fallback's hidden gifts, chosen before the deal, by receiver (the exact way chooses them
    after it, in :func:`_house_try`)."""


def _fill(view: PlayerView, plan: _Plan, rng: random.Random, exact: bool) -> _Filled | None:
    """Deal the pool into the bins: uniformly (``exact``; ``None`` when a bin gets a card it may not
    hold), or as a fallback greedily, each bin from the cards it may hold, with the hidden gifts
    chosen first so that the givers' hands cannot contradict them (consistent, slightly biased)."""
    sizes = plan.sizes
    allowed = plan.allowed if exact else plan.allowed[:]
    free = sizes[:]
    out: list[list[Card]] = [[] for _ in sizes]
    for card, places in plan.pins:
        if not _pin(card, places, allowed, free, out, rng):
            return None
    rest = plan.pool[:]
    rng.shuffle(rest)
    kept = 0
    if plan.farm_bins:
        # The farmer's two kept 9s and 10s: j of them unseen (put in the farmer's places), 2 - j
        # among the cards it played, j drawn in proportion to the deals each way makes (so that,
        # as in a uniform deal, a hand is as likely as the ways its kept pair can be chosen).
        known = plan.kept_known
        unseen = [c for c in rest if _NINES_TENS >> c & 1]
        u = len(unseen)
        room = sum(free[b] for b in plan.farm_bins)
        slots = sum(free[b] for b in range(len(sizes)) if b not in plan.class_bins)
        mass = [math.comb(len(known), 2 - j) * math.comb(u, j) * math.perm(room, j) * math.comb(u - j, 3)
                * (math.factorial(slots - j) if slots >= j else 0) for j in range(3)]
        if not sum(mass):
            return None
        j = rng.choices(range(3), weights=mass)[0]
        picked = rng.sample(unseen, j)
        for card in picked:
            if not _pin(card, plan.farm_bins, allowed, free, out, rng):
                return None
        kept = mask_of(picked) | mask_of(rng.sample(known, 2 - j))
        rest = [c for c in rest if not kept >> c & 1]
    gifts: dict[int, Card] = {}
    if not exact:
        t = view.trump
        rules_trump = t is not None and t < NO_TRUMP and not view.rules.best_card_free
        for g in plan.gifts:
            if g.card is not None:
                continue
            r, q = g.receiver, g.giver
            places = (r, g.bin) if g.bin >= 0 else (r,)
            held = plan.played[r] | mask_of(c for b in places for c in out[b])
            opts = list(iter_mask(held)) + [c for c in rest if any(free[b] and allowed[b] >> c & 1 for b in places)]
            if q == plan.farmer and kept & held:
                opts = list(iter_mask(kept & held))  # a kept card there came from the farmer
            opts = [c for c in opts if _may_give(c, mask_of(out[q]), q == view.dealer, view)]
            if not opts:
                return None
            card = opts[rng.randrange(len(opts))]
            if not held >> card & 1:
                if not _pin(card, places, allowed, free, out, rng):
                    return None
                rest.remove(card)
            gifts[r] = card
            if rules_trump:  # the giver then held no better trump (none, if it chose a plain card)
                trumps = FOLLOW[t][t]  # type: ignore[index]
                power = POWER[t]  # type: ignore[index]
                if trumps >> card & 1:
                    allowed[q] &= ~mask_of(c for c in iter_mask(trumps) if power[c] > power[card])
                else:
                    allowed[q] &= ~trumps
                if mask_of(out[q]) & ~allowed[q]:
                    return None
    for b in plan.class_bins:
        cls = plan.klass[b]
        chosen = [c for c in rest if cls >> c & 1 and (exact or allowed[b] >> c & 1)][:free[b]]
        if len(chosen) < free[b]:
            return None
        out[b].extend(chosen)
        free[b] = 0
        taken = mask_of(chosen)
        rest = [c for c in rest if not taken >> c & 1]
    if exact:
        i = 0
        for b in range(len(sizes)):
            k = free[b]
            if k:
                part = rest[i:i + k]
                i += k
                if mask_of(part) & ~allowed[b]:
                    return None
                out[b].extend(part)
        return _Filled(out, kept, gifts)
    order = sorted((b for b in range(len(sizes)) if free[b]),
                   key=lambda b: sum(1 for c in rest if allowed[b] >> c & 1) - free[b])
    for b in order:
        fits = [c for c in rest if allowed[b] >> c & 1]
        if len(fits) < free[b]:
            return None
        part = fits[:free[b]]
        out[b].extend(part)
        taken = mask_of(part)
        rest = [c for c in rest if not taken >> c & 1]
    return _Filled(out, kept, gifts)


def _house_try(view: PlayerView, plan: _Plan, rng: random.Random, exact: bool) -> State | None:
    """One attempt: deal the bins, choose the hidden gifts, work back to the deal, replay the hand
    on it (the offers another seat kept, a gift it chose, the discards it hid) and keep the sample
    only if the seat's view of it is the view. ``exact``: weigh the other seats' hidden choices as
    random among their options (by rejection), so that the samples follow the deals and choices
    that explain the view."""
    rules = view.rules
    n = plan.n
    me = plan.me
    dealer = view.dealer
    up = view.up_card
    assert up is not None  # resampling refuses Hasenpfeffer (no up card)
    filled = _fill(view, plan, rng, exact)
    if filled is None:
        return None
    bins, kept = filled.bins, filled.kept
    now = [plan.known[s] if s in plan.known else mask_of(bins[s]) for s in range(n)]
    played = plan.played
    cur = [now[s] | played[s] for s in range(n)]
    gift_card: dict[int, Card] = {}
    gift_discard: dict[int, Card] = {}
    for g in plan.gifts:
        d = g.discard if g.discard is not None else (bins[g.bin][0] if g.bin >= 0 else None)
        if d is not None:
            gift_discard[g.receiver] = d
        card = g.card if g.card is not None else filled.gifts.get(g.receiver)
        if card is None:
            # Another seat's call for best: any of the receiver's six may have come from the giver,
            # if the giver could give it (its highest trump, when it held one and had no choice).
            six = cur[g.receiver] | (1 << d if d is not None else 0)
            cands = [c for c in iter_mask(six) if _may_give(c, now[g.giver], g.giver == dealer, view)]
            if not cands or (exact and rng.randrange(six.bit_count()) >= len(cands)):
                return None  # (exact: as if one of the six were drawn, and rejected unless a candidate)
            card = cands[rng.randrange(len(cands))]
        gift_card[g.receiver] = card
    for g in reversed(plan.gifts):
        r = g.receiver
        d = gift_discard.get(r)
        if d is not None:
            cur[r] |= 1 << d
        card = gift_card[r]
        if not cur[r] >> card & 1:
            return None
        cur[r] &= ~(1 << card)
        cur[g.giver] |= 1 << card
    buried = plan.buried if plan.buried is not None else (bins[plan.buried_bin][0] if plan.buried_bin >= 0 else None)
    if view.up_card_taken:
        if buried is not None:
            cur[dealer] |= 1 << buried
        if not cur[dealer] >> up & 1:
            return None
        cur[dealer] &= ~(1 << up)
    gave: list[Card] = []
    f = plan.farmer
    if f >= 0:
        if me == f:
            gave = list(plan.gave)
            if plan.given == 3:
                cur[f] = cur[f] & ~mask_of(plan.took) | mask_of(gave)
            else:
                cur[f] |= mask_of(gave)
        else:
            gave = list(bins[plan.gave_bin])
            rng.shuffle(gave)
            if plan.given == 3:
                # The farmer kept two of its five 9s and 10s (drawn by _fill, or here any two of
                # the hand it bid with) and took the three under the up card: the rest of that hand.
                if not kept:
                    held = list(iter_mask(cur[f]))
                    if len(held) != 5:
                        return None
                    kept = mask_of(rng.sample(held, 2))
                if kept & ~cur[f] or kept & ~_NINES_TENS:
                    return None
                cur[f] = kept | mask_of(gave)
            else:
                cur[f] |= mask_of(gave)
    used = 1 << up
    for m in cur:
        if m.bit_count() != rules.hand_size or used & m:
            return None
        used |= m
    # A redeal after a misdeal has no ace-no-face offers: a seat whose own hand would have been
    # offered one, and that saw no offer, knows the hand is such a redeal (the replay that
    # explains its view tells; while another seat's offer is pending, both may).
    redeal = [False]
    if rules.ace_no_face and me is not None and view.misdeal < 0 and view.phase is not Phase.MISDEAL_OFFER \
            and _misdeal_eligible(cur[me]):
        redeal = [False, True]
        if view.phase is Phase.OFFERS:
            rng.shuffle(redeal)
    for after_misdeal in redeal:
        state = _replay(view, plan, State(rules, dealer=dealer, hands=[list(iter_mask(m)) for m in cur], up_card=up,
                                          after_misdeal=after_misdeal), gift_card, gift_discard, buried, gave, rng,
                        exact)
        if state is not None:
            return state
    return None


def _replay(view: PlayerView, plan: _Plan, state: State, gift_card: dict[int, Card], gift_discard: dict[int, Card],
            buried: Card | None, gave: list[Card], rng: random.Random, exact: bool) -> State | None:
    """The hand of the view replayed on a sampled deal (``state``), with what the seat did not
    see filled in; ``None`` unless the seat's view of the result is the view."""
    me = plan.me
    f = plan.farmer
    weight = 1.0
    acts = view.actions
    i = 0
    k = len(acts)
    given = 0
    partner = view.rules.partner
    while True:
        ph = state.phase
        z = state.to_act
        if (ph is Phase.MISDEAL_OFFER or ph is Phase.FARMER_OFFER) and z != me:
            # An offer this seat does not see: taken as the view says, else kept unseen.
            if i < k and acts[i][0] == z and acts[i][1] == (MISDEAL if ph is Phase.MISDEAL_OFFER else FARMER):
                state._push(acts[i][1])  # type: ignore[arg-type]
                i += 1
                continue
            if i == k and view.phase is Phase.OFFERS:
                break  # the offer the others see pending
            if z != f:
                weight *= 0.5
            state._push(KEEP)
            continue
        if ph is Phase.GIVE and (me is None or (me != z and me != partner(z))):
            # A gift this seat does not see given: the giver chose the receiver's sampled card.
            if i == k and view.phase is Phase.CALL_FOR_BEST:
                break
            card = gift_card.get(partner(z))  # type: ignore[arg-type]
            if card is None or not state.hands[z] >> card & 1:
                return None
            weight /= state.hands[z].bit_count()
            state._push(GIVE_ACTIONS[card])
            continue
        if i == k:
            break
        s, a = acts[i]
        i += 1
        if s != z:
            return None
        if a is None:  # a discard this seat did not see
            if ph is Phase.FARMER_GIVE and given < len(gave):
                a = DISCARD_ACTIONS[gave[given]]
                given += 1
            elif ph is Phase.DISCARD and buried is not None:
                a = DISCARD_ACTIONS[buried]
            elif ph is Phase.BEST_DISCARD and z in gift_discard:
                a = DISCARD_ACTIONS[gift_discard[z]]
            else:
                return None
        if a not in state.legal_actions():
            return None
        state._push(a)
    for done in state.gifts:
        want = gift_card.get(done.receiver)
        if want is not None and done.card != want:
            return None  # the engine's forced gift is not the card the sample gave
    if exact and weight < 1.0 and rng.random() >= weight:
        return None
    mine = PlayerView.of(state, me)
    if any(getattr(mine, name) != getattr(view, name) for name in _COMPARED):
        return None
    return state


def _resample_house(view: PlayerView, rng: random.Random, tries: int) -> State:
    """:meth:`PlayerView.resample` for a hand with a call for best, an offer, a misdeal or a
    farmer's exchange (or any hand of rules with offers, whose kept offers nobody else sees).

    Each attempt deals the cards the seat has not seen into the places they may be now, uniformly
    (a taken up card to the dealer's side, the cards a farmer gave from the 9s and 10s), works back
    to the deal (the hidden gift is any of the receiver's six; the two cards a farmer kept are any
    two of its cards, which must be 9s or 10s) and replays the hand on that deal. The attempt is
    kept when the seat's view of the replayed hand is the view itself, so every sample is
    consistent by construction of the check, not by argument. The other seats' unseen choices are
    weighed as random among their options (a kept offer by 1/2, a chosen gift by one over the
    giver's cards), so the samples follow the posterior over deals and choices. After ``tries``
    failed attempts (many voids, a gift few deals explain) the cards are dealt greedily into the
    places that may hold them, the hidden gifts chosen first: consistent still, slightly biased."""
    plan = _house_plan(view)
    plans = [plan]
    scale = 1
    if view.phase is Phase.OFFERS:
        # Another seat's offer is pending, so its hand is one the offer goes to: the fallback draws
        # it from the cards such hands hold (9s, 10s and aces; only 9s and 10s for the farmer's).
        scale = 10
        kinds = ([_NINES_TENS | _ACES] if view.rules.ace_no_face else []) + \
            ([_NINES_TENS] if view.rules.farmers_hand else [])
        plans = []
        for z in range(plan.n):
            if z != plan.me and z not in plan.known:
                for cls in kinds:
                    alt = copy.copy(plan)
                    alt.klass = plan.klass[:]
                    alt.klass[z] = cls
                    alt.class_bins = [*plan.class_bins, z]
                    plans.append(alt)
        plans = plans or [plan]
    for exact, budget in ((True, tries), (False, 4 * tries)):
        for _ in range(max(budget, 1) * scale):
            state = _house_try(view, plan if exact else plans[rng.randrange(len(plans))], rng, exact)
            if state is not None:
                return state
    raise DealError("no deal is consistent with this view")


# --- the parts of a view that depend on the seat -----------------------------------------------------
# PlayerView.of and euchre.protocol.view_dicts (which builds many seats' views at once, for the
# server) share these, so the one rule of who sees what lives here.
def own_hand(state: State, seat: int | None) -> tuple[Card, ...]:
    """The seat's cards in display order (nothing for a spectator)."""
    return tuple(sort_hand(iter_mask(state.hands[seat]), state.trump)) if seat is not None else ()


_DISCARDS = frozenset(DISCARD_ACTIONS)
"""Every discard's code (``a in _DISCARDS`` is ``a.kind is Kind.DISCARD``, without the property's
cost: :func:`seat_actions` asks it of every action of a hand, for every view)."""


def seat_actions(state: State, seat: int | None) -> tuple[tuple[int, Action | None], ...]:
    """Every action with its seat; a discard is known only to the seat that made it. A chosen
    gift (call for best) is listed for its giver and receiver only: the others learn of every
    gift the same way, from :func:`seat_gifts`, so they cannot tell a chosen gift from a forced one."""
    if not state.gifts and not (state.rules.ace_no_face or state.rules.farmers_hand):
        return tuple((s, None if s != seat and a in _DISCARDS else a)
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
