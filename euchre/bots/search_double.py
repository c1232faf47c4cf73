"""What the search bot does in Bid Euchre's double deck (RULES-FAMILY.md 15): search the last tricks.

Twelve-card hands are far past the exact solver's reach (a four-seat solve of six cards costs
about three times one of five; twelve would cost millions of times more), so the bot plays the
double deck in two parts:

* while its hand holds more than :data:`SOLVE_CARDS` cards (the bidding, the moon's exchange,
  the first seven tricks), the double deck's heuristic player decides
  (:mod:`euchre.bots.double_deck`);
* from then on, every card it plays is searched as in Euchre: the unseen cards dealt at random
  (:meth:`~euchre.view.PlayerView.resample`, the copies counted per card), each deal solved
  exactly (:mod:`euchre.solver` renumbers the cards still in play onto distinct local ids, a
  card's two copies two ids, of which the first played wins a tie), the best average played.

A moon's last tricks are searched too: the resampling places its hidden gift and discard with
each seat's knowledge, as in the single deck (:func:`~euchre.view._resample_moon`).
"""

from __future__ import annotations

from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["SOLVE_CARDS", "SAMPLE_SHARE", "double_searches", "double_budget"]

SOLVE_CARDS = 5
"""The most cards in the bot's hand at which it searches a double-deck card play (the last five
tricks: five-card solves, about as costly as Euchre's)."""


def double_searches(view: PlayerView) -> bool:
    """Whether the search bot searches this double-deck decision (else the heuristic decides): a
    card play from a hand of at most :data:`SOLVE_CARDS` cards."""
    return view.phase is Phase.PLAY and len(view.hand) <= SOLVE_CARDS


SAMPLE_SHARE = 0.25
"""The share of the bot's ``samples`` a double-deck card play gets (the expert's 200: 50). A
sample costs more than Euchre's: the bid (6 to 12) gives up to seven thresholds to score, so each
card is asked "at least k?" three or four times, a card's two copies are rarely one move, and
the sample replays seven tricks. At 200 samples a decision took 0.6 s (median)."""


def double_budget(samples: int) -> int:
    """Samples of a searched double-deck card play: :data:`SAMPLE_SHARE` of ``samples``, at least 4.

    >>> double_budget(200)
    50
    """
    return max(round(samples * SAMPLE_SHARE), 4)
