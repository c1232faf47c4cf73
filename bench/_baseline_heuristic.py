"""Baseline for bench/bots.py: euchre/bots/heuristic.py as it was before the tuning (kept verbatim).

Original docstring: a rule-based player: bids on an estimate of the tricks its hand is worth.

Bidding values each card for a candidate trump (top trumps near a trick each, off-suit aces most
of one, voids a little when holding trump) and compares the total with a threshold that depends
on the number of players; the seat adjusts it (the dealer counts the up card, the dealer's partner
is glad to give it, the opponents are not). Play follows the classic advice: makers draw trump,
aces are cashed, a partner who is winning is not overtaken, tricks are won as cheaply as possible
and losing cards are the lowest, off-suit first.

Every question of suit and strength goes to the engine's tables (:func:`~euchre.cards.effective_suit`,
:func:`~euchre.cards.card_power`, :func:`~euchre.cards.trick_winner_index`), so bowers and the
Joker are never re-derived here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, TAKE, Action, Kind, call, discard, play
from euchre.bots.base import Bot
from euchre.cards import Card, card_power, deck_cards, effective_suit, trick_winner_index
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["HeuristicBot", "estimate_tricks", "weakest_card"]

TRUMP_VALUES = (1.0, 0.9, 0.8, 0.65, 0.55, 0.45, 0.4, 0.35, 0.3)
"""Trick value of a trump by its place in the trump order of the deck (highest first)."""
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
ALONE_THRESHOLD = 3.35
"""Estimated tricks for a lone hand: e.g. both bowers, the ace of trump and an off ace."""
DEFEND_ALONE_THRESHOLD = 3.0
"""Estimated tricks (in the maker's trump) for defending alone against a loner: rare."""


def _trump_order(deck: int, trump: int) -> list[Card]:
    cards = [c for c in deck_cards(deck) if effective_suit(c, trump) == trump]
    return sorted(cards, key=lambda c: -card_power(c, trump))


def estimate_tricks(cards: Iterable[Card], trump: int, deck: int) -> float:
    """How many tricks a hand is likely to take on its own with ``trump`` as trump."""
    hand = list(cards)
    order = _trump_order(deck, trump)
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


def weakest_card(cards: Sequence[Card], trump: int) -> Card:
    """The card a dealer should bury: never a trump if avoidable, never an ace if avoidable,
    preferably one that voids a side suit, else the lowest."""
    counts: dict[int, int] = {}
    for c in cards:
        s = effective_suit(c, trump)
        counts[s] = counts.get(s, 0) + 1

    def key(c: Card) -> tuple[bool, bool, bool, int]:
        s = effective_suit(c, trump)
        is_trump = s == trump
        return (is_trump, not is_trump and c.rank == ACE, counts[s] > 1, card_power(c, trump))

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

    def __init__(self, seed: int | None = None, *, aggression: float = 0.0) -> None:
        self.seed = seed
        self.aggression = aggression

    # --- dispatch ------------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Action:
        """The action this seat takes; always one of ``view.legal_actions``."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
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
        else:
            choice = legal[0]
        return choice if choice in legal else self._fallback(view, choice)

    def _fallback(self, view: PlayerView, wanted: Action) -> Action:
        """Never reached by the rules as implemented; if a new house rule makes a wanted action
        illegal, play on with the first legal one rather than stop the game (tests patch this)."""
        return view.legal_actions[0]

    # --- bidding -------------------------------------------------------------------------------
    def _threshold(self, view: PlayerView) -> float:
        return ORDER_THRESHOLD[view.players] - self.aggression

    def _alone_threshold(self) -> float:
        return ALONE_THRESHOLD - self.aggression

    def _bid1(self, view: PlayerView) -> Action:
        me = view.seat
        assert me is not None
        up = view.up_card
        trump = up.suit
        assert trump is not None
        deck = view.rules.deck
        hand = list(view.hand)
        up_value = TRUMP_VALUES[min(_trump_order(deck, trump).index(up), len(TRUMP_VALUES) - 1)]
        if me == view.dealer:
            est = estimate_tricks(_best_five([*hand, up], trump), trump, deck)
            alone_est = est
        else:
            base = estimate_tricks(hand, trump, deck)
            alone_est = base
            if view.players == 4 and view.partner() == view.dealer:
                est = base + 0.5 * up_value
                alone_est = base  # the dealer sits out and does not take the card
            else:
                est = base - 0.5 * up_value
                alone_est = est
        return self._bid(view, est, alone_est, ORDER, ORDER_ALONE)

    def _bid(self, view: PlayerView, est: float, alone_est: float, bid: Action, bid_alone: Action) -> Action:
        legal = view.legal_actions
        if bid_alone in legal and alone_est >= self._alone_threshold() and self._lone_shape(view, bid):
            return bid_alone
        if est >= self._threshold(view):
            if bid in legal:
                return bid
            if bid_alone in legal and alone_est >= self._threshold(view) + 0.8:
                return bid_alone  # Canadian loner: the dealer's partner may only order alone
        return PASS if PASS in legal else bid

    def _lone_shape(self, view: PlayerView, bid: Action) -> bool:
        """A loner needs the top trump and at least three trumps."""
        trump = view.up_card.suit if bid in (ORDER, ORDER_ALONE) else bid.suit
        if trump is None:
            return False
        cards = list(view.hand)
        if view.seat == view.dealer and bid in (ORDER, ORDER_ALONE):
            cards = _best_five([*cards, view.up_card], trump)
        trumps = [c for c in cards if effective_suit(c, trump) == trump]
        top = _trump_order(view.rules.deck, trump)[0]
        return len(trumps) >= 3 and top in trumps

    def _bid2(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        deck = view.rules.deck
        best: tuple[float, int] | None = None
        for a in legal:
            if a.kind is Kind.CALL and a.suit is not None:
                est = estimate_tricks(view.hand, a.suit, deck)
                if best is None or est > best[0]:
                    best = (est, a.suit)
        if best is None:
            return PASS
        est, suit = best
        if PASS not in legal:  # stick the dealer: name the best suit
            alone = call(suit, alone=True)
            if alone in legal and est >= self._alone_threshold() and self._lone_shape(view, call(suit)):
                return alone
            return call(suit)
        return self._bid(view, est, est, call(suit), call(suit, alone=True))

    def _joker(self, view: PlayerView) -> Action:
        """British: the Joker was turned up; the dealer names the suit that suits its hand."""
        deck = view.rules.deck
        hand = [*view.hand, view.up_card]
        scored = sorted(((estimate_tricks(_best_five(hand, s), s, deck), s) for s in range(4)), reverse=True)
        est, suit = scored[0]
        five = _best_five(hand, suit)
        trumps = [c for c in five if effective_suit(c, suit) == suit]
        if est >= self._alone_threshold() and len(trumps) >= 3 and call(suit, alone=True) in view.legal_actions:
            return call(suit, alone=True)
        return call(suit)

    def _take(self, view: PlayerView) -> Action:
        """Two-handed: the dealer takes the up card when it improves the hand."""
        trump = view.trump
        assert trump is not None
        deck = view.rules.deck
        now = estimate_tricks(view.hand, trump, deck)
        taken = estimate_tricks(_best_five([*view.hand, view.up_card], trump), trump, deck)
        return TAKE if taken > now else PASS

    def _defend(self, view: PlayerView) -> Action:
        trump = view.trump
        assert trump is not None
        est = estimate_tricks(view.hand, trump, view.rules.deck)
        trumps = sum(1 for c in view.hand if effective_suit(c, trump) == trump)
        return DEFEND_ALONE if est >= DEFEND_ALONE_THRESHOLD and trumps >= 3 else PASS

    # --- play ----------------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> Action:
        trump = view.trump
        assert trump is not None
        cards = [a.card for a in view.legal_actions if a.card is not None]
        if not view.trick:
            return play(self._lead(view, cards, trump))
        played = [c for _, c in view.trick]
        winner_seat = view.trick[trick_winner_index(played, trump)][0]
        ally = self._ally(view)
        if ally is not None and winner_seat == ally:
            return play(_lowest(cards, trump))
        winners = [c for c in cards if trick_winner_index([*played, c], trump) == len(played)]
        if winners:
            return play(min(winners, key=lambda c: card_power(c, trump)))
        return play(_lowest(cards, trump))

    def _ally(self, view: PlayerView) -> int | None:
        """The seat playing for this seat's result this hand: the partner, or in cut-throat the
        other defender; ``None`` if there is none (or it sits out)."""
        me = view.seat
        assert me is not None
        if view.players == 4:
            ally = (me + 2) % 4
        elif view.players == 3 and view.maker >= 0 and view.maker != me:
            ally = next(s for s in range(3) if s not in (me, view.maker))
        else:
            return None
        return None if ally in view.sitting_out else ally

    def _lead(self, view: PlayerView, cards: list[Card], trump: int) -> Card:
        unseen = _unseen(view)
        trumps = sorted((c for c in cards if effective_suit(c, trump) == trump), key=lambda c: -card_power(c, trump))
        offs = [c for c in cards if effective_suit(c, trump) != trump]
        trumps_out = any(effective_suit(c, trump) == trump for c in unseen)
        if view.maker == view.seat and trumps and trumps_out:
            early = len(view.tricks) < 2
            if (early and len(trumps) >= 2) or _is_boss(trumps[0], trump, unseen):
                return trumps[0]
        bosses = [c for c in offs if _is_boss(c, trump, unseen)]
        if bosses:
            return max(bosses, key=lambda c: (c.rank, -_suit_count(cards, c, trump)))
        if not offs:
            return trumps[0] if _is_boss(trumps[0], trump, unseen) else trumps[-1]
        # No sure card: lead low, from the shortest side suit (to make a void for ruffing).
        return min(offs, key=lambda c: (_suit_count(cards, c, trump), card_power(c, trump)))


def _lowest(cards: Sequence[Card], trump: int) -> Card:
    """The card to throw away: the lowest off-suit card, keeping trump."""
    return min(cards, key=lambda c: (effective_suit(c, trump) == trump, card_power(c, trump)))


def _suit_count(cards: Sequence[Card], card: Card, trump: int) -> int:
    s = effective_suit(card, trump)
    return sum(1 for c in cards if effective_suit(c, trump) == s)


def _unseen(view: PlayerView) -> list[Card]:
    """Cards this seat has not seen and that may still be played: the deck minus its own hand,
    the played cards, its own discard and a turned-down (or declined) up card."""
    known = set(view.hand) | set(view.played)
    if view.discard is not None:
        known.add(view.discard)
    if not view.up_card_taken:
        known.add(view.up_card)
    return [c for c in deck_cards(view.rules.deck) if c not in known]


def _is_boss(card: Card, trump: int, unseen: Sequence[Card]) -> bool:
    """No unseen card of the same (effective) suit beats ``card``."""
    s = effective_suit(card, trump)
    p = card_power(card, trump)
    return not any(effective_suit(c, trump) == s and card_power(c, trump) > p for c in unseen)
