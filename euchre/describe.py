"""Actions in plain words, as a Euchre player says them ("lead the right bower", "order up").

Hints, game analysis and the table use these phrases; the trump-dependent names (the bowers,
the Joker) come from the engine's card tables, so a left bower is named as such only when it is
one.
"""

from __future__ import annotations

from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, TAKE, Action, Kind
from euchre.cards import Card, Suit, left_bower, right_bower
from euchre.view import PlayerView

__all__ = ["card_words", "action_words"]


def card_words(card: Card, trump: int | None) -> str:
    """``"the right bower"``, ``"the left bower"``, ``"the Joker"``, ``"the ace of clubs"``."""
    if card.is_joker:
        return "the Joker"
    if trump is not None:
        if card == right_bower(trump):
            return "the right bower"
        if card == left_bower(trump):
            return "the left bower"
    return f"the {card.name()}"


def action_words(action: Action, view: PlayerView) -> str:
    """The action in words from the seat's point of view (the dealer picks up rather than
    orders up; the first card of a trick is led)."""
    dealer = view.seat is not None and view.seat == view.dealer
    if action == PASS:
        return "pass"
    if action == ORDER:
        return "pick up" if dealer else "order up"
    if action == ORDER_ALONE:
        return "pick up and go alone" if dealer else "order up and go alone"
    if action == TAKE:
        return "pick up"
    if action == DEFEND_ALONE:
        return "defend alone"
    kind = action.kind
    if kind in (Kind.CALL, Kind.CALL_ALONE):
        assert action.suit is not None
        return f"call {Suit(action.suit).word}" + (" alone" if kind is Kind.CALL_ALONE else "")
    card = action.card
    assert card is not None
    if kind is Kind.DISCARD:
        return f"discard {card_words(card, view.trump)}"
    verb = "lead" if not view.trick else "play"
    return f"{verb} {card_words(card, view.trump)}"
