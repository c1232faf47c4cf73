"""The heuristic player's double-deck Bid Euchre (RULES-FAMILY.md 15, ``double_deck``): twelve cards
each from two packs, every card twice, bids 6 to 12 or the moon.

The single-deck heuristic's estimates count each card once, and a second copy of a card changes
them (the first copy played wins a tie, so a held pair of aces takes one sure trick and one that
depends on the order of play); so this player counts for itself, simply: a trump is worth a
trick the more of its betters this hand holds, a side ace half a trick (its twin may be out),
the partner about a quarter of the rest. It bids that, never fewer than it must as the stuck
dealer; names the trump that counts most; plays its cheapest winning card, or its cheapest card
when its partner has the trick or it cannot win; leads its best trump while it holds the most.
"""

from __future__ import annotations

from euchre.actions import MOON, PASS, Action, bid, call, discard, give
from euchre.cards import LOW, NO_TRUMP, Card, card_power, deck_cards, effective_suit, face, trick_winner_index
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["double_deck_choice", "estimate"]

PARTNER_SHARE = 0.25
"""The share of the tricks this hand does not expect that the partner's twelve cards bring.
Measured against 0.25 with the two sides swapped over the same 60 seeds (points a hand, the
other share minus 0.25): 0.10 -0.37, 0.18 -0.07, 0.40 -1.36, 0.55 -5.81."""


def estimate(hand: tuple[Card, ...], trump: int) -> float:
    """Tricks a twelve-card hand should take with ``trump`` (a suit, high or low), on its own."""
    pack = deck_cards(24)
    total = 0.0
    if trump < NO_TRUMP:
        order = sorted((c for c in pack if effective_suit(c, trump) == trump), key=lambda c: -card_power(c, trump))
        mine = [face(c) for c in hand if effective_suit(c, trump) == trump]
        above = 0
        for c in order:  # each trump held: worth more the fewer of its betters are out
            held = mine.count(c)
            for _ in range(held):
                total += max(1.0 - 0.2 * above, 0.2)
            above += 2 - held
    for c in hand:
        if effective_suit(c, trump) == trump and trump < NO_TRUMP:
            continue
        top = 2 if trump == LOW else 7
        if c.rank == top:
            total += 0.5 if trump < NO_TRUMP else 0.8
        elif trump >= NO_TRUMP and c.rank == top + (1 if trump == LOW else -1):
            total += 0.4
    return total


def _best(view: PlayerView) -> tuple[int, float]:
    options = [(t, estimate(view.hand, t)) for t in (0, 1, 2, 3, NO_TRUMP, LOW)]
    return max(options, key=lambda te: (te[1], -te[0]))


def _bid(view: PlayerView) -> Action:
    legal = view.legal_actions
    _, mine = _best(view)
    size = view.rules.hand_size
    if MOON in legal and mine >= size - 0.3:
        return MOON
    tricks = min(size, int(mine + PARTNER_SHARE * (size - mine)))
    wanted = bid(tricks) if tricks > view.bid and bid(tricks) in legal else PASS
    if view.bidder >= 0 and view.bidder == view.partner() and tricks < view.bid + 2:
        wanted = PASS
    if wanted not in legal:  # the stuck dealer: the least it may bid
        wanted = legal[0]
    return wanted


def _play(view: PlayerView) -> Action:
    trump = view.trump
    assert trump is not None and view.seat is not None
    legal = [a for a in view.legal_actions if a.card is not None]

    def power(a: Action) -> int:
        c = a.card
        assert c is not None
        return card_power(c, trump) + (1000 if effective_suit(c, trump) == trump else 0)

    trick = view.trick
    if not trick:
        makers = view.side_of(view.seat) == view.side_of(view.maker)
        trumps = [a for a in legal if a.card is not None and effective_suit(a.card, trump) == trump]
        if makers and trumps:
            return max(trumps, key=power)
        return max(legal, key=power)
    cards = [c for _, c in trick]
    winner = trick[trick_winner_index(cards, trump)][0]
    if view.partner() is not None and winner == view.partner():
        return min(legal, key=power)
    wins = [a for a in legal if trick_winner_index([*cards, a.card], trump) == len(cards)]  # type: ignore[list-item]
    return min(wins, key=power) if wins else min(legal, key=power)


def double_deck_choice(view: PlayerView) -> Action:
    """The heuristic player's action in a double-deck Bid Euchre hand."""
    phase = view.phase
    if phase is Phase.AUCTION:
        return _bid(view)
    if phase is Phase.NAME_TRUMP:
        return call(_best(view)[0])
    if phase is Phase.GIVE:  # the moon's partner (high or low, or holding no trump): its best card
        assert view.trump is not None
        t = view.trump
        return give(max((a.card for a in view.legal_actions if a.card is not None), key=lambda c: card_power(c, t)))
    if phase is Phase.BEST_DISCARD:  # the shooter: its weakest card
        assert view.trump is not None
        t = view.trump
        weakest = min((a.card for a in view.legal_actions if a.card is not None),
                      key=lambda c: card_power(c, t) + (1000 if effective_suit(c, t) == t else 0))
        return discard(weakest)
    return _play(view)

