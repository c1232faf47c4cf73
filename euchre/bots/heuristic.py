"""A rule-based player: bids on an estimate of the tricks its hand is worth, plays sound cards.

Bidding values each card for a candidate trump (live top trumps near a trick each, off-suit aces
most of one, voids a little when holding trump) and compares the total with a threshold that
depends on the number of players and on the seat:

* round 1, the dealer counts the up card and its discard; the dealer's partner counts the trump
  it gives the partner ("assisting"); the dealer's opponents subtract it, a bower most, and the
  seat left of the dealer waits a little more, as it speaks first in round 2;
* round 2, the seat left of the dealer leans to *next* (the other suit of the turned-down colour,
  whose left bower nobody wanted), the dealer's side to the other colour;
* a lone hand needs about four sure tricks and a good chance of the fifth (at most
  :data:`LONE_LOSERS` expected losers), and is not played when a march with the partner already
  wins the game.

Play follows the classic advice: second hand low, third hand high, a partner who is surely
winning is not overtaken (nor its ace trumped), a trick the opponents are winning is trumped when
it is worth it, makers draw trump and the maker's partner leads trump back, defenders cash
off-suit aces, and the cards already played (the view lists them) tell which card is the boss and
who is void.

Every question of suit and strength goes to the engine's tables (:func:`~euchre.cards.effective_suit`,
:func:`~euchre.cards.card_power`, :func:`~euchre.cards.trick_winner_index`), so bowers and the
Joker are never re-derived here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache

from euchre.actions import (
    DEFEND_ALONE,
    FARMER,
    KEEP,
    MISDEAL,
    MOON,
    ORDER,
    ORDER_ALONE,
    PASS,
    TAKE,
    Action,
    Kind,
    bid,
    call,
    discard,
    give,
    play,
)
from euchre.bots.base import Bot
from euchre.bots.double_deck import double_deck_choice
from euchre.bots.napoleon import napoleon_choice
from euchre.cards import LOW, NO_TRUMP, Card, Suit, card_power, deck_cards, effective_suit, trick_winner_index
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["HeuristicBot", "estimate_tricks", "estimate_no_trump", "lone_losers", "weakest_card"]

TRUMP_VALUES = (1.0, 0.9, 0.8, 0.65, 0.55, 0.45, 0.4, 0.35, 0.3)
"""Trick value of a trump by its place among the live trumps (highest first)."""
OFF_ACE = 0.7
"""An off-suit ace in a short suit (fewer than three cards)."""
OFF_ACE_LONG = 0.5
"""An off-suit ace in a long suit, more likely to be trumped."""
OFF_KING_WITH_ACE = 0.35
OFF_KING = 0.15
VOID = 0.25
"""A void side suit, worth something only with at least two trumps to ruff with."""

ACE = 7
"""Rank index of the ace (``Card.rank``)."""

ORDER_THRESHOLD = {4: 2.1, 3: 2.6, 2: 2.3}
"""Estimated tricks needed to make trump, by number of players (a partner adds about one)."""
ASSIST = 0.5
"""Share of the up card's value the dealer's partner counts when ordering it to the dealer."""
GIVE = 0.6
"""Share of the up card's value an opponent of the dealer subtracts when ordering it up."""
ROUND1_SHIFT = {"dealer": 0.0, "left": 0.75, "partner": 0.4, "right": 0.7}
"""Four players, round 1: extra tricks each seat wants over the threshold (measured by
bid-or-pass rollouts). The dealer's opponents risk a euchre worth two against a hand that can
still bid in round 2; the seat left of the dealer moreover calls first in round 2."""
ROUND2_SHIFT = {"dealer": 0.5, "left": 0.4, "partner": 0.5, "right": 0.5}
"""Four players, round 2: the same, by seat. Rollouts find the marginal round-2 calls about
break-even; passing them throws in a few hands, as real tables do, at no measurable cost."""
NEXT_BONUS = 0.3
"""Round 2: the seat left of the dealer counts this much more for *next*."""
CROSS_BONUS = 0.1
"""Round 2: the dealer's side counts this much more for the other colour."""
LONE_LOSERS = 1.25
"""Expected losing cards (see :func:`lone_losers`) a lone hand may have. Rollouts (lone against
partnered play of the same deal) show a loner pays while it loses about one trick: four tricks
score as much alone as with the partner, and the fifth is worth four instead of two."""
LONE_LOSERS_ASSIST = 0.9
"""The dealer's partner going alone forgoes the up card it would give the dealer: stricter."""
DEFEND_ALONE_THRESHOLD = 3.0
"""Estimated tricks (in the maker's trump) for defending alone against a loner: rare."""
NT_MARGIN = 0.25
"""Round 2: no trump (or low) is called only when it beats the best suit by this much and passes
the round-2 threshold by as much: a hand without trump cannot ruff back a long suit run against it."""
NT_SECOND = 0.4
"""No trump: a card with one live card above it in its suit (a guarded king), sometimes a trick."""
NT_LENGTH = 0.5
"""No trump: each card past the third of a suit headed by its top card (it runs once the suit is drawn)."""
NT_LONE_LOSERS = 0.3
"""No trump alone: at most this many losing cards (:func:`estimate_no_trump`'s non-sure cards)."""
GIFT_LOSERS = 0.3
"""Call for best (RULES-FAMILY.md 12.2): the losers a lone hand expects from the partner's best card,
which replaces its weakest one (the highest trump of five unseen cards is most often a top trump)."""
DEFEND_GIFT = 0.5
"""Call for best: the tricks a lone defender expects from the partner's best card (over its worst)."""


@lru_cache(maxsize=64)
def _all_trumps(deck: int, trump: int) -> tuple[Card, ...]:
    """Every trump of the deck, highest first (cached: the search bot asks this policy often)."""
    cards = [c for c in deck_cards(deck) if effective_suit(c, trump) == trump]
    return tuple(sorted(cards, key=lambda c: -card_power(c, trump)))


def _trump_order(deck: int, trump: int, dead: Collection[Card] = ()) -> list[Card]:
    """The trumps of the deck that are still live (not in ``dead``), highest first."""
    if not dead:
        return list(_all_trumps(deck, trump))
    return [c for c in _all_trumps(deck, trump) if c not in dead]


def estimate_tricks(cards: Iterable[Card], trump: int, deck: int, dead: Collection[Card] = ()) -> float:
    """How many tricks a hand is likely to take on its own with ``trump`` as trump; ``dead``
    cards (a turned-down up card) are out of play, so the trumps below them move up."""
    hand = list(cards)
    order = _trump_order(deck, trump, [c for c in dead if c not in hand])
    total = 0.0
    trumps = 0
    side: dict[int, list[Card]] = {}
    for c in hand:
        s = effective_suit(c, trump)
        if s == trump:
            trumps += 1
            total += TRUMP_VALUES[min(order.index(c), len(TRUMP_VALUES) - 1)]
        else:
            side.setdefault(s, []).append(c)
    for suit_cards in side.values():
        ranks = {c.rank for c in suit_cards}
        for c in suit_cards:
            if c.rank == ACE:
                total += OFF_ACE if len(suit_cards) < 3 else OFF_ACE_LONG
            elif c.rank == ACE - 1:
                total += OFF_KING_WITH_ACE if ACE in ranks else OFF_KING
    if trumps >= 2:
        total += VOID * (3 - len(side))
    return total


def estimate_no_trump(cards: Iterable[Card], trump: int, deck: int,
                      dead: Collection[Card] = ()) -> tuple[float, float]:
    """Tricks a hand is likely to take on its own without trump (``trump`` is ``NO_TRUMP`` or
    ``LOW``, whose ranking the engine's tables give), and its expected losers alone.

    In each suit, from its top card down: a card above which every live card is this hand's is a
    sure trick; one with a single live card above it (and a card under it to guard it) sometimes
    one; the cards of a suit run from the top past three count as length winners.
    """
    hand = list(cards)
    mine = set(hand)
    gone = {c for c in dead if c not in mine}
    tricks = 0.0
    losers = 0.0
    for suit in range(4):
        held = sorted((c for c in hand if effective_suit(c, trump) == suit), key=lambda c: -card_power(c, trump))
        if not held:
            continue
        live = sorted((c for c in deck_cards(deck) if effective_suit(c, trump) == suit and c not in gone),
                      key=lambda c: -card_power(c, trump))
        run = True
        for i, c in enumerate(held):
            above = sum(1 for o in live[: live.index(c)] if o not in mine)
            if above == 0:
                tricks += 1.0
            elif above == 1 and len(held) >= 2 and i <= 1:
                tricks += NT_SECOND
                losers += 1.0 - NT_SECOND
                run = False
            else:
                if run and i >= 3:
                    tricks += NT_LENGTH
                    losers += 1.0 - NT_LENGTH
                else:
                    losers += 1.0
                run = False
    return tricks, losers


def lone_losers(cards: Iterable[Card], trump: int, deck: int, dead: Collection[Card] = ()) -> float:
    """Expected number of tricks a hand playing alone loses with ``trump`` as trump.

    A trump is safe when no live trump is above it, nearly so when the trumps above it that
    others hold are no more than the trumps this hand leads before it (they fall under them),
    half lost with one more above; an off-suit
    ace is rarely lost (more often in a long suit, which runs into a ruff), a king guarded by its
    ace sometimes, anything else is a loser.
    """
    hand = list(cards)
    order = _trump_order(deck, trump, [c for c in dead if c not in hand])
    mine = [c for c in order if c in hand]
    losers = 0.0
    for i, c in enumerate(mine):
        above = sum(1 for o in order[: order.index(c)] if o not in hand)
        if above > i + 1:
            losers += 1.0
        elif above == i + 1:
            losers += 0.6
        elif above:
            losers += 0.25  # falls under the top trumps unless one opponent holds them all
    side: dict[int, list[Card]] = {}
    for c in hand:
        s = effective_suit(c, trump)
        if s != trump:
            side.setdefault(s, []).append(c)
    for suit_cards in side.values():
        ranks = {c.rank for c in suit_cards}
        for c in suit_cards:
            if c.rank == ACE:
                losers += 0.1 if len(suit_cards) < 3 else 0.3
            elif c.rank == ACE - 1 and ACE in ranks:
                losers += 0.35
            else:
                losers += 1.0
    if len(mine) < 3:
        losers += 0.5 * (3 - len(mine))
    return losers


def weakest_card(cards: Sequence[Card], trump: int) -> Card:
    """The card a dealer (or a lone hand under call for best) should bury: never a trump if
    avoidable, never an ace if avoidable (in low, a 9: the top card of its suit there), preferably
    one that voids a side suit, else the lowest."""
    counts: dict[int, int] = {}
    for c in cards:
        s = effective_suit(c, trump)
        counts[s] = counts.get(s, 0) + 1
    top = 2 if trump == LOW else ACE  # (low needs the 24-card deck: its 9 is the top card)

    def key(c: Card) -> tuple[bool, bool, bool, int]:
        s = effective_suit(c, trump)
        is_trump = s == trump
        return (is_trump, not is_trump and c.rank == top, counts[s] > 1, card_power(c, trump))

    return min(cards, key=key)


def _best_five(cards: Sequence[Card], trump: int) -> list[Card]:
    """Six cards after taking the up card: the five kept."""
    out = weakest_card(cards, trump)
    return [c for c in cards if c != out]


class HeuristicBot(Bot):
    """A sensible rule-based player for every preset and house rule.

    ``aggression`` shifts every bidding threshold (positive bids more, negative less), which
    gives a family of opponents of different temperaments.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, aggression: float = 0.0, lone_with_loser: bool = False) -> None:
        # (Checked now: a JSON "x" or NaN from the command line would fail or bid oddly only at the
        # first bid, mid-game.)
        if isinstance(aggression, bool) or not isinstance(aggression, int | float) or not -3 <= aggression <= 3:
            raise ValueError(f"aggression must be a number from -3 to 3, not {aggression!r}")
        if not isinstance(lone_with_loser, bool):
            raise ValueError(f"lone_with_loser must be true or false, not {lone_with_loser!r}")
        self.seed = seed
        self.aggression = aggression
        self.lone_with_loser = lone_with_loser

    # --- dispatch ------------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Action:
        """The action this seat takes; always one of ``view.legal_actions``."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        if view.rules.napoleon or view.rules.double_deck:  # games of their own (each for themselves,
            # trump by the first lead; twelve cards with every card twice)
            choice = napoleon_choice(view) if view.rules.napoleon else double_deck_choice(view)
            return choice if choice in legal else self._fallback(view, choice)
        phase = view.phase
        if phase is Phase.PLAY:
            choice = self._play(view)
        elif phase is Phase.BID1:
            choice = self._bid1(view)
        elif phase is Phase.BID2:
            choice = self._bid2(view)
        elif phase is Phase.JOKER:
            choice = self._joker(view)
        elif phase is Phase.DISCARD:
            assert view.trump is not None
            choice = discard(weakest_card([a.card for a in legal if a.card is not None], view.trump))
        elif phase is Phase.TAKE:
            choice = self._take(view)
        elif phase is Phase.DEFEND:
            choice = self._defend(view)
        elif phase is Phase.GIVE:
            choice = self._give(view)
        elif phase is Phase.BEST_DISCARD:  # call for best: bury as the dealer does
            assert view.trump is not None
            choice = discard(weakest_card([a.card for a in legal if a.card is not None], view.trump))
        elif phase is Phase.MISDEAL_OFFER:
            choice = self._misdeal(view)
        elif phase is Phase.FARMER_OFFER:  # only 9s and 10s: three unseen cards are worth more
            choice = FARMER
        elif phase is Phase.FARMER_GIVE:
            choice = self._farmer_give(view)
        elif phase is Phase.AUCTION:
            choice = self._auction(view)
        elif phase is Phase.NAME_TRUMP:
            choice = call(self._best_trump(view, alone=view.moon)[0]) if view.rules.bid_euchre \
                else call(self._best_suit(view)[0])
        else:
            choice = legal[0]
        return choice if choice in legal else self._fallback(view, choice)

    @staticmethod
    def _best_suit(view: PlayerView) -> tuple[int, float]:
        """Hasenpfeffer: the suit whose trumps make this hand likeliest to take tricks (the
        longest as the tie-break), and that estimate."""
        deck = view.rules.deck
        hand = view.hand
        return max(((suit, estimate_tricks(hand, suit, deck)) for suit in range(4)),
                   key=lambda se: (se[1], sum(1 for c in hand if effective_suit(c, se[0]) == se[0]), -se[0]))

    @staticmethod
    def _best_trump(view: PlayerView, *, alone: bool = False) -> tuple[int, float]:
        """Bid Euchre: the trump (a suit, high or low) under which this hand should take the most
        tricks, and that estimate; ``alone``: the moon's choice, by the losers of a lone hand."""
        deck = view.rules.deck
        hand = view.hand
        options: list[tuple[int, float]] = []
        for t in (*range(4), NO_TRUMP, LOW):
            if t >= NO_TRUMP:
                tricks, losers = estimate_no_trump(hand, t, deck)
            else:
                tricks, losers = estimate_tricks(hand, t, deck), lone_losers(hand, t, deck)
            options.append((t, len(hand) - losers if alone else tricks))
        return max(options, key=lambda te: (te[1], -te[0]))

    def _auction(self, view: PlayerView) -> Action:
        """Bid the tricks this hand should take at its best trump, counting one from the partner;
        overbid a partner only by two; pass when that does not top the bid. Bid Euchre: shoot the
        moon with at most half a loser alone (the partner's best card comes on top); a stuck
        dealer bids the least it may."""
        legal = view.legal_actions
        if view.rules.bid_euchre:
            _, alone = self._best_trump(view, alone=True)
            if MOON in legal and alone >= len(view.hand) - 0.5 - self.aggression:
                return MOON
            _, est = self._best_trump(view)
        else:
            _, est = self._best_suit(view)
        low, top = view.rules.bid_range
        tricks = min(top, int(est + 1.0 + self.aggression))
        if view.bidder >= 0 and view.bidder == view.partner():
            wanted = bid(tricks) if tricks >= view.bid + 2 else PASS
        else:
            wanted = bid(tricks) if tricks > view.bid and tricks >= max(low, 2) else PASS
        if wanted not in legal:  # a stuck dealer: the lowest bid
            wanted = PASS if PASS in legal else legal[0]
        return wanted

    def _misdeal(self, view: PlayerView) -> Action:
        """Ace-no-face: redeal (worth about nothing to either side) unless the hand is worth
        bidding on the up card's suit in round 1 all the same: a dealer whose up card makes it, say
        the right bower over the ace and two more of its suit."""
        if _up(view).suit is None:  # a turned-up Joker: the dealer names trump, with a poor hand
            return MISDEAL
        est, threshold, _ = self._round1(view)
        return KEEP if est >= threshold else MISDEAL

    @staticmethod
    def _farmer_give(view: PlayerView) -> Action:
        """Farmer's hand: of its 9s and 10s, keep the ones of the up card's suit (the trumps if it
        is ordered up), then 10s over 9s: give the others, 9s first. The three cards taken come
        after, unseen, so nothing else tells the cards apart."""
        cards = [a.card for a in view.legal_actions if a.card is not None]
        up = _up(view).suit
        return discard(min(cards, key=lambda c: (c.suit == up, c.rank, c)))

    @staticmethod
    def _give(view: PlayerView) -> Action:
        """Call for best: give the best card held, the highest trump, else the highest card (an
        ace if any; in low, a 9), preferring the suit the partner is likeliest to lack."""
        trump = view.trump
        assert trump is not None
        cards = [a.card for a in view.legal_actions if a.card is not None]
        trumps = [c for c in cards if effective_suit(c, trump) == trump]
        best = max(trumps or cards, key=lambda c: card_power(c, trump))
        return give(best)

    def _fallback(self, view: PlayerView, wanted: Action) -> Action:
        """Never reached by the rules as implemented; if a new house rule makes a wanted action
        illegal, play on with the first legal one rather than stop the game (tests patch this)."""
        return view.legal_actions[0]

    # --- bidding -------------------------------------------------------------------------------
    def _threshold(self, view: PlayerView) -> float:
        return ORDER_THRESHOLD[view.players] - self.aggression

    def _lone_ok(self, view: PlayerView, cards: Sequence[Card], trump: int, dead: Collection[Card] = (),
                 limit: float = LONE_LOSERS, gift: bool = True) -> bool:
        """Five tricks alone are expected with confidence, and a lone march is worth more than
        a march with the partner at this score. Under call for best the partner's best card is
        counted for the weakest one (``gift=False``: ``cards`` already count it)."""
        target = view.rules.target
        if target is not None and view.seat is not None and view.players == 4:
            mine = view.scores[view.side_of(view.seat)]
            if mine + view.rules.march_points >= target:
                return False  # a march with the partner wins the game already
        extra = 0.0
        if gift and view.rules.call_for_best and len(cards) >= view.rules.hand_size:
            # Call for best: the partner's best card replaces the weakest one (12.2), most often a
            # trump, which also lengthens the trumps (lone_losers charges fewer than three).
            cards = [c for c in cards if c != weakest_card(cards, trump)]
            trumps = sum(1 for c in cards if effective_suit(c, trump) == trump)
            extra = GIFT_LOSERS - (0.5 if trumps < 3 else 0.0)
        if not self.lone_with_loser and any(effective_suit(c, trump) != trump and c.rank < ACE - 1 for c in cards):
            # A queen or lower off-suit is lost to any defence: alone the hand takes four tricks at
            # most, one point, which it scores with the partner too, who may win that trick.
            return False
        return lone_losers(cards, trump, view.rules.deck, dead) + extra <= limit + 0.3 * self.aggression

    def _bid1(self, view: PlayerView) -> Action:
        trump = _up(view).suit
        assert trump is not None
        est, threshold, (lone_cards, limit, gift) = self._round1(view)
        lone = self._lone_ok(view, lone_cards, trump, limit=limit, gift=gift)
        return self._bid(view, est, threshold, lone, ORDER, ORDER_ALONE)

    def _round1(self, view: PlayerView) -> tuple[float, float, tuple[list[Card], float, bool]]:
        """Round 1 as this seat sees it: the tricks ordering the up card's suit is worth, the
        threshold to order it, and the cards a lone hand would play with its limit of losers (and
        whether a call for best is still to add a card to them)."""
        me = view.seat
        assert me is not None
        up = _up(view)
        trump = up.suit
        assert trump is not None
        deck = view.rules.deck
        hand = list(view.hand)
        up_value = TRUMP_VALUES[min(_trump_order(deck, trump).index(up), len(TRUMP_VALUES) - 1)]
        threshold = self._threshold(view)
        limit = LONE_LOSERS
        gift = True
        if me == view.dealer:
            five = _best_five([*hand, up], trump)
            est = estimate_tricks(five, trump, deck)
            lone_cards = five
        elif view.partner() == view.dealer:
            est = estimate_tricks(hand, trump, deck) + ASSIST * up_value
            if view.rules.call_for_best:
                # The dealer sits out with the up card and gives its highest trump, the up card or
                # better (12.2 step 1): the lone hand is as good as the best five with the up card.
                lone_cards = _best_five([*hand, up], trump)
                gift = False
            else:
                lone_cards = hand  # alone, the dealer sits out and does not take the card
                limit = LONE_LOSERS_ASSIST
        else:
            est = estimate_tricks(hand, trump, deck) - GIVE * up_value
            lone_cards = hand
        if view.players == 4:
            threshold += ROUND1_SHIFT[_role(view)]
        return est, threshold, (lone_cards, limit, gift)

    def _bid(self, view: PlayerView, est: float, threshold: float, lone: bool, bid: Action,
             bid_alone: Action) -> Action:
        legal = view.legal_actions
        if bid_alone in legal and lone:
            return bid_alone
        if est >= threshold:
            if bid in legal:
                return bid
            if bid_alone in legal and est >= threshold + 0.8:
                return bid_alone  # Canadian loner: the dealer's partner may only order alone
        return PASS if PASS in legal else bid

    def _bid2(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        me = view.seat
        assert me is not None
        deck = view.rules.deck
        dead = [_up(view)]
        turned = _up(view).suit
        best: tuple[float, int] | None = None
        for a in legal:
            if a.kind is Kind.CALL and a.suit is not None and not a.alone:
                est = estimate_tricks(view.hand, a.suit, deck, dead) + self._colour_bonus(view, me, a.suit, turned)
                if best is None or est > best[0]:
                    best = (est, a.suit)
        if best is None:
            return PASS
        est, suit = best
        lone = self._lone_ok(view, view.hand, suit, dead)
        threshold = self._threshold(view) + (ROUND2_SHIFT[_role(view)] if view.players == 4 else 0.0)
        no_trump = self._no_trump_call(view, dead, max(est, threshold) + NT_MARGIN)
        if no_trump is not None:
            return no_trump
        if PASS not in legal:  # stick the dealer: name the best suit
            alone = call(suit, alone=True)
            return alone if alone in legal and lone else call(suit)
        return self._bid(view, est, threshold, lone, call(suit), call(suit, alone=True))

    def _no_trump_call(self, view: PlayerView, dead: Collection[Card], need: float) -> Action | None:
        """House rules no trump and low: the best of the two when it reaches ``need`` tricks
        (several aces, or 9s for low, and no suit worth naming), alone when it has no loser."""
        legal = view.legal_actions
        best: tuple[float, float, int] | None = None
        for t in (NO_TRUMP, LOW):
            if call(t) in legal:
                est, losers = estimate_no_trump(view.hand, t, view.rules.deck, dead)
                if best is None or est > best[0]:
                    best = (est, losers, t)
        if best is None or best[0] < need:
            return None
        _, losers, t = best
        if view.rules.call_for_best:
            # Call for best: the partner chooses its best card (a top card of a suit: a sure trick
            # without trump) and the lone hand discards its worst loser for it (12.2).
            losers = max(0.0, losers - 1.0) + GIFT_LOSERS / 3
        alone = call(t, alone=True)
        if alone in legal and losers <= NT_LONE_LOSERS + 0.3 * self.aggression:
            target = view.rules.target
            mine = view.scores[view.side_of(view.seat)] if view.seat is not None else 0
            if target is None or mine + view.rules.march_points < target:
                return alone
        return call(t)

    @staticmethod
    def _colour_bonus(view: PlayerView, me: int, suit: int, turned: int | None) -> float:
        """Round-2 conventions: left of the dealer calls next, the dealer's side crosses."""
        if view.players != 4 or turned is None:
            return 0.0
        next_suit = Suit(turned).partner  # "next": the other suit of the turned-down colour
        if me == (view.dealer + 1) % 4:
            return NEXT_BONUS if suit == next_suit else 0.0
        if view.side_of(me) == view.side_of(view.dealer):
            return CROSS_BONUS if suit != next_suit else 0.0
        return 0.0

    def _joker(self, view: PlayerView) -> Action:
        """British: the Joker was turned up; the dealer names the suit that suits its hand."""
        deck = view.rules.deck
        hand = [*view.hand, _up(view)]
        scored = sorted(((estimate_tricks(_best_five(hand, s), s, deck), s) for s in range(4)), reverse=True)
        _, suit = scored[0]
        if call(suit, alone=True) in view.legal_actions and self._lone_ok(view, _best_five(hand, suit), suit):
            return call(suit, alone=True)
        return call(suit)

    def _take(self, view: PlayerView) -> Action:
        """Two-handed: the dealer takes the up card when it improves the hand."""
        trump = view.trump
        assert trump is not None
        deck = view.rules.deck
        now = estimate_tricks(view.hand, trump, deck)
        taken = estimate_tricks(_best_five([*view.hand, _up(view)], trump), trump, deck)
        return TAKE if taken > now else PASS

    def _defend(self, view: PlayerView) -> Action:
        trump = view.trump
        assert trump is not None
        rules = view.rules
        if rules.lone_defender_euchre_points <= rules.loner_euchre_points:
            return PASS  # a lone defence scores no more than two defenders (railroad: 4 either way)
        est = estimate_tricks(view.hand, trump, rules.deck)
        trumps = sum(1 for c in view.hand if effective_suit(c, trump) == trump)
        if rules.call_for_best:  # the partner's best card will replace the worst (12.2)
            est += DEFEND_GIFT
            trumps += 1
        return DEFEND_ALONE if est >= DEFEND_ALONE_THRESHOLD and trumps >= 3 else PASS

    # --- play ----------------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> Action:
        trump = view.trump
        assert trump is not None
        cards = [a.card for a in view.legal_actions if a.card is not None]
        if len(cards) == 1:
            return play(cards[0])
        table = _Table(view, trump)
        if not view.trick:
            return play(self._lead(view, table, cards, trump))
        played = [c for _, c in view.trick]
        best = trick_winner_index(played, trump)
        winner_seat = view.trick[best][0]
        ally = table.ally
        later = table.later
        later_foes = [s for s in later if s != ally]
        winners = [c for c in cards if trick_winner_index([*played, c], trump) == len(played)]
        winners.sort(key=lambda c: card_power(c, trump) + (1000 if effective_suit(c, trump) == trump else 0))
        sure = [c for c in winners if table.holds([*played, c], later_foes)]
        if ally is not None and winner_seat == ally:
            if not later_foes or table.holds(played, later_foes):
                return play(table.throw_off(cards))  # partner has it: never overtake, never trump
            led_suit = effective_suit(played[0], trump)
            following = [c for c in sure if effective_suit(c, trump) == led_suit]
            if following:  # third hand high: make sure of the trick the partner may lose
                return play(following[0])
            return play(table.throw_off(cards))
        if not winners:
            return play(table.throw_off(cards))
        if not later_foes:
            return play(winners[0])  # last to play against the opponents: win as cheaply as possible
        if sure:
            return play(sure[0])
        led_suit = effective_suit(played[0], trump)
        if effective_suit(winners[0], trump) == led_suit and led_suit != trump:
            if ally in later:
                return play(table.throw_off(cards))  # second hand low: the partner still plays
            return play(winners[-1])  # third hand high: force out the last opponent's card
        # Void in the led suit (or trump led): ruff low when it is worth the trump.
        if ally in later and not table.worth_trumping(played[best]):
            return play(table.throw_off(cards))
        return play(winners[0])

    def _lead(self, view: PlayerView, table: _Table, cards: list[Card], trump: int) -> Card:
        me = view.seat
        trumps = sorted((c for c in cards if effective_suit(c, trump) == trump), key=lambda c: -card_power(c, trump))
        offs = [c for c in cards if effective_suit(c, trump) != trump]
        foes_have_trump = table.foes_may_hold(trump)
        makers = view.maker == me or (view.maker >= 0 and view.maker == table.ally and view.players == 4)
        if trumps and foes_have_trump and makers:
            boss = table.is_boss(trumps[0])
            if view.maker == me:
                early = len(view.tricks) < 2
                if boss or (early and len(trumps) >= 2):
                    return trumps[0]
            elif len(view.tricks) < 2 or boss:
                return trumps[0] if boss else trumps[-1]  # lead trump back to the partner's call
        bosses = [c for c in offs if table.is_boss(c)]
        if bosses:
            safe = [c for c in bosses if not table.foe_ruffs(effective_suit(c, trump))]
            pool = safe or bosses
            return max(pool, key=lambda c: (table.live_in_suit(c), c.rank))
        if trumps and not foes_have_trump:
            return trumps[0]  # the trumps left are all winners
        if not offs:
            return trumps[0] if table.is_boss(trumps[0]) else trumps[-1]
        # No sure card: lead low, from the shortest side suit (to make a void for ruffing), and
        # away from a suit the opponents can ruff when there is a choice.
        return min(offs, key=lambda c: (table.foe_ruffs(effective_suit(c, trump)), _suit_count(cards, c, trump),
                                        card_power(c, trump)))


class _Table:
    """What a seat can work out during play from its view: the unseen cards, who is void in
    what, its ally, and who still plays to the current trick."""

    __slots__ = ("view", "trump", "unseen", "voids", "ally", "later", "foes", "hand")

    def __init__(self, view: PlayerView, trump: int) -> None:
        self.view = view
        self.trump = trump
        self.hand = list(view.hand)
        self.unseen = view.unseen()
        me = view.seat
        assert me is not None
        n = view.players
        self.ally = _ally(view)
        active = [s for s in range(n) if s not in view.sitting_out]
        self.foes = [s for s in active if s != me and s != self.ally]
        self.voids = view.void_suits()
        in_trick = {s for s, _ in view.trick}
        order = [(me + k) % n for k in range(1, n)]
        self.later = [s for s in order if s in active and s not in in_trick]

    def is_boss(self, card: Card) -> bool:
        return _is_boss(card, self.trump, self.unseen)

    def live_in_suit(self, card: Card) -> int:
        return self.live(effective_suit(card, self.trump))

    def foes_may_hold(self, suit: int) -> bool:
        """Some opponent may still hold a card of ``suit``."""
        if not any(effective_suit(c, self.trump) == suit for c in self.unseen):
            return False
        return any(suit not in self.voids[s] for s in self.foes)

    def foe_ruffs(self, suit: int) -> bool:
        """An opponent is known void in ``suit`` and may still hold trump."""
        trump = self.trump
        if not any(effective_suit(c, trump) == trump for c in self.unseen):
            return False
        return any(suit in self.voids[s] and trump not in self.voids[s] for s in self.foes)

    def holds(self, cards: Sequence[Card], foes: Sequence[int]) -> bool:
        """The winner of the trick ``cards`` (as it would stand) cannot be beaten by an unseen
        card that one of ``foes``, playing later, may hold: a foe follows the led suit unless it
        is known (or likely) to be void in it, and only then may ruff."""
        trump = self.trump
        cur = list(cards)
        led = effective_suit(cur[0], trump)
        n = len(cur)
        for s in foes:
            void = self.voids[s]
            if led not in void:
                if any(effective_suit(u, trump) == led and trick_winner_index([*cur, u], trump) == n
                       for u in self.unseen):
                    return False
                if not self._may_be_void(s, led):
                    continue
            if trump not in void and any(effective_suit(u, trump) == trump
                                         and trick_winner_index([*cur, u], trump) == n for u in self.unseen):
                return False
        return True

    def _may_be_void(self, seat: int, suit: int) -> bool:
        """Might ``seat`` be out of ``suit``: it showed it, or the suit is nearly played out."""
        return suit in self.voids[seat] or self.live(suit) < 2

    def live(self, suit: int) -> int:
        """Unseen cards of ``suit`` (effective suit)."""
        return sum(1 for c in self.unseen if effective_suit(c, self.trump) == suit)

    def worth_trumping(self, card: Card) -> bool:
        """Second hand, void: ruff a card the partner is unlikely to beat (a boss or a high one)."""
        trump = self.trump
        if effective_suit(card, trump) == trump:
            return True
        return self.is_boss(card) or card.rank >= ACE - 1

    def throw_off(self, cards: Sequence[Card]) -> Card:
        """The card to give away: the lowest off-suit card that is not a boss, shortening the
        shortest suit when trumps remain to ruff with; trump only when nothing else is left."""
        trump = self.trump
        has_trump = any(effective_suit(c, trump) == trump for c in self.hand)

        def key(c: Card) -> tuple[bool, bool, int, int]:
            is_trump = effective_suit(c, trump) == trump
            count = _suit_count(self.hand, c, trump) if has_trump and not is_trump else 0
            return (is_trump, not is_trump and self.is_boss(c), count, card_power(c, trump))

        return min(cards, key=key)


def _up(view: PlayerView) -> Card:
    """The up card, in the phases of a game that turns one up (all but Hasenpfeffer's)."""
    up = view.up_card
    assert up is not None, "this game turns no card up"
    return up


def _role(view: PlayerView) -> str:
    """A seat's place at a four-player table relative to the dealer."""
    assert view.seat is not None
    return ("dealer", "left", "partner", "right")[(view.seat - view.dealer) % 4]


def _ally(view: PlayerView) -> int | None:
    """The seat playing for this seat's result this hand: the partner, or in cut-throat the
    other defender; ``None`` if there is none (or it sits out)."""
    me = view.seat
    assert me is not None
    ally = view.partner()
    if ally is None:
        if view.players != 3 or view.maker < 0 or view.maker == me:
            return None
        ally = next(s for s in view.rules.opponents(view.maker) if s != me)
    return None if ally in view.sitting_out else ally


def _suit_count(cards: Sequence[Card], card: Card, trump: int) -> int:
    s = effective_suit(card, trump)
    return sum(1 for c in cards if effective_suit(c, trump) == s)


def _is_boss(card: Card, trump: int, unseen: Sequence[Card]) -> bool:
    """No unseen card of the same (effective) suit beats ``card``."""
    s = effective_suit(card, trump)
    p = card_power(card, trump)
    return not any(effective_suit(c, trump) == s and card_power(c, trump) > p for c in unseen)
