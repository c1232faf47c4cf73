"""What the search bot does in Bid Euchre's double deck (RULES-FAMILY.md 15): twelve-card hands.

Twelve-card hands are far past the exact solver's reach (a four-seat solve of six cards costs
about three times one of five; twelve would cost millions of times more), so the bot searches the
double deck in two ways:

* from the moment every hand holds at most :data:`SOLVE_CARDS` cards (the last five tricks),
  every card is searched as in Euchre: the unseen cards dealt at random
  (:meth:`~euchre.view.PlayerView.resample`, the copies counted per card), each deal solved
  exactly (:mod:`euchre.solver` renumbers the cards still in play onto distinct local ids, a
  card's two copies two ids, of which the first played wins a tie), the best average played;
* before that (the bids, the naming of trump, the moon's exchange, the first seven tricks) the
  search is truncated (:class:`~euchre.bots.search.SearchBot`, ``truncate``): on each sampled deal
  each choice is pushed, the double deck's heuristic player (:mod:`euchre.bots.double_deck`) plays
  every seat on to the end of the seventh trick (:func:`double_handover`), and the solver values the
  last five tricks exactly from there. The seat's own later bidding choice (the naming of trump
  after its bid) is chosen once over the samples that reach it, as in every game; its own later
  cards in the rollout are the heuristic's.

A moon is searched too: the resampling places its hidden gift and discard with each seat's
knowledge, as in the single deck (:func:`~euchre.view._resample_moon`).
"""

from __future__ import annotations

from euchre.state import Phase, State
from euchre.view import PlayerView

__all__ = ["SOLVE_CARDS", "SAMPLE_SHARE", "EARLY_SHARE", "EARLY_BID_SHARE", "EARLY_EVEN", "double_within_reach",
           "double_handover", "double_budget"]

SOLVE_CARDS = 5
"""The most cards a hand may hold for the solver to value a double-deck position (the last five
tricks: five-card solves, about as costly as Euchre's)."""


def double_within_reach(view: PlayerView) -> bool:
    """Whether this double-deck decision is solved exactly on each sample, with no rollout before
    the solve: a card play from a hand of at most :data:`SOLVE_CARDS` cards (the seat to act holds
    the most cards of any seat, having not played to the trick yet)."""
    return view.phase is Phase.PLAY and len(view.hand) <= SOLVE_CARDS


def double_handover(state: State) -> bool:
    """Whether a truncated rollout hands this double-deck position to the solver: the card play,
    every seat that plays holding at most :data:`SOLVE_CARDS` cards (a moon's partner sits out
    with its cards), which is the end of the seventh trick."""
    if state.phase is not Phase.PLAY:
        return False
    return all(state.hands[s].bit_count() <= SOLVE_CARDS for s in range(state.n) if state.is_active(s))


SAMPLE_SHARE = 0.25
"""The share of the bot's ``samples`` a double-deck card play of the last five tricks gets (the
expert's 200: 50). A sample costs more than Euchre's: the bid (6 to 12) gives up to seven
thresholds to score, so each card is asked "at least k?" three or four times, a card's two copies
are rarely one move, and the sample replays seven tricks. At 200 samples a decision took 0.6 s
(median)."""

EARLY_SHARE = 0.08
"""The share of the bot's ``samples`` a card play of the first seven tricks gets (the expert's
200: 16): each sample plays each card, then up to seven tricks of heuristic play (about 35 us a
card: its view and the heuristic's choice), then a five-card solve. The expert's median decision
in the double deck is then 49 ms, its 99th percentile 226 ms (bench/README.md, truncated search)."""

EARLY_BID_SHARE = 0.5
"""The share of the bot's ``auction_samples`` a bid, a naming of trump or a moon's exchange gets
(the expert's 20: 10): each sample rolls out every choice (and, for a bid the seat wins, each of
its namings of trump) to the end of the seventh trick and solves the rest."""


EARLY_EVEN = True
"""Whether a truncated bid, naming of trump or moon exchange keeps the heuristic player's choice
unless the search's best beats it by ``policy_even`` standard errors of the difference (the search
bot's ``early_even``; its cards keep the heuristic's that way anyway). On ten samples the best of
up to nine bids is optimistic: searched bids alone scored -0.135 +- 0.653 points a hand against the
heuristic's (``bench/paired.py``, 200 deals, seed 8), with this +0.314 +- 0.277 (400 deals, seed 11).
"""


def double_budget(view: PlayerView, samples: int, auction_samples: int) -> int:
    """Samples of one double-deck decision: a card of the last five tricks :data:`SAMPLE_SHARE`
    of ``samples``, an earlier card :data:`EARLY_SHARE` of it, a bid, naming or exchange
    :data:`EARLY_BID_SHARE` of ``auction_samples``; at least 4.

    >>> from euchre import Game, Rules
    >>> g = Game(Rules.preset("bid-euchre-double"), seed=1)
    >>> double_budget(g.view(g.to_act), 200, 20)
    10
    """
    if view.phase is not Phase.PLAY:
        return max(round(auction_samples * EARLY_BID_SHARE), 4)
    share = SAMPLE_SHARE if double_within_reach(view) else EARLY_SHARE
    return max(round(samples * share), 4)
