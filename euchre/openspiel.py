"""OpenSpiel's ``euchre`` in our terms: card and action ids, and the chance outcomes of a deal.

OpenSpiel (the ``open-spiel`` package) plays the American rules and is this project's independent
implementation: the test suite cross-checks the engine against it and ``bench/vs_openspiel.py``
plays our bots against its IS-MCTS bot. Both go through this one mapping. Nothing here imports
``pyspiel``; the ids are OpenSpiel's:

* cards ``rank * 4 + suit`` with ranks ``9TJQKA`` and suits clubs, diamonds, hearts, spades
  (ours: ``suit * 8 + rank`` with ranks ``789TJQKA``);
* 24 pass, 25 + suit a bid (the up card's suit in round 1), 29 alone and 30 with the partner (the
  maker's question after the discard; a defender's lone-defence offer uses the same two ids);
* a deal is 22 chance outcomes: the dealer, the 20 cards one at a time round the table starting
  with the dealer, then the up card.
"""

from __future__ import annotations

from euchre.actions import Action, Kind
from euchre.state import State

__all__ = ["OS_PASS", "OS_BID", "OS_ALONE", "OS_PARTNER", "os_card", "our_card", "os_common",
           "chance_outcomes"]

OS_PASS, OS_BID, OS_ALONE, OS_PARTNER = 24, 25, 29, 30
"""OpenSpiel's pass, first suit bid (25 + suit), alone (also: defend alone), with partner (also: no)."""


def os_card(card: int) -> int:
    """Our card id as OpenSpiel's (24-card deck only)."""
    return ((card & 7) - 2) * 4 + (card >> 3)


def our_card(os_id: int) -> int:
    """OpenSpiel's card id as ours."""
    return (os_id & 3) * 8 + (os_id >> 2) + 2


def os_common(action: Action, up_suit: int) -> int:
    """Our action in OpenSpiel's terms: a bid as 25 + suit with its alone flag dropped (OpenSpiel
    asks alone later), a discard or play as the card id, a pass as 24. ``ValueError`` for an
    action OpenSpiel has no form for (take, defend alone, the Joker's calls)."""
    k = action.kind
    if k is Kind.PASS:
        return OS_PASS
    if k in (Kind.ORDER, Kind.ORDER_ALONE):
        return OS_BID + up_suit
    if k in (Kind.CALL, Kind.CALL_ALONE):
        assert action.suit is not None
        return OS_BID + action.suit
    if k in (Kind.DISCARD, Kind.PLAY):
        assert action.card is not None
        return os_card(action.card)
    raise ValueError(f"no OpenSpiel form for {action}")


def chance_outcomes(state: State) -> list[int]:
    """The chance actions that put OpenSpiel at the deal of ``state`` (a four-player hand)."""
    state.rules.refuse_six_cards("the OpenSpiel cross-check")
    assert state.up_card is not None
    dealer = state.dealer
    out = [dealer]
    for r in range(5):
        for j in range(4):
            out.append(os_card(state.deal.hands[(dealer + j) % 4][r]))
    out.append(os_card(state.up_card))
    return out
