"""What the search bot does differently in Napoleon (RULES-FAMILY.md 16): budgets and margins.

Napoleon's card play is a two-sided game once the bidding is over: the bidder alone against every
other seat, who are all paid the same (each loses or wins the bid's value v), so the exact solver
(:mod:`euchre.solver`) solves a sampled deal with the bidder as the maker and the others as one
side, N seats round the table; a misère is solved with the bidder playing to take no trick
(:func:`euchre.solver.minimises`). The search bot then decides every Napoleon choice as it does
Euchre's (:class:`~euchre.bots.search.SearchBot`):

* a card: sampled deals (:meth:`~euchre.view.PlayerView.resample`: the unseen cards among the
  other hands and the unused rest of the pack, voids respected), each card valued by the solver;
* the bidder's first lead, which fixes trump: each card pushed on each sample (its suit becomes
  trump) and the hand solved from there;
* a bid: each bid rolled out on each sample (the later seats bid as the heuristic player does;
  when the rollout makes the seat the bidder, its first lead is its own later decision, chosen
  once over the samples that reach it, as it will be), then solved: a misère is worth what
  taking no trick is worth on that deal, a bid of 2 to Blücher what taking its tricks is.

Every value is a null-window search ("does the bidder reach the bid?", the only threshold that
scores), much cheaper than the exact trick count. The solves cost grows fast with the seats (a
seven-player deal holds 35 of the 52 cards): the budgets below are scaled down with the table so
that the expert answers within the latency goal; they are counts of samples, never a time.
"""

from __future__ import annotations

from euchre.actions import PASS, Action, Kind
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["NAPOLEON_MARGIN", "NAPOLEON_SCALE", "NAPOLEON_BID_SCALE", "EARLY_SEATS", "napoleon_stake",
           "napoleon_budget", "napoleon_searches"]

NAPOLEON_MARGIN = 0.02
"""Points a Napoleon bid must beat passing by, per point of its stake (:func:`napoleon_stake`):
the solver sees every card, so it is optimistic about the bidder's play as about any maker's.
A bid of 2 at four players (stake 8) owes 0.16 points, a Nap (40) 0.8. Not tuned by measurement."""

NAPOLEON_SCALE = {3: 0.5, 4: 0.5, 5: 0.15, 6: 0.15, 7: 0.1}
"""The share of the bot's ``samples`` that a card play or the first lead gets at a Napoleon table
of each size: a five-player deal costs the solver about ten times a four-player one, a
seven-player deal a hundred times (bench/README.md, Napoleon), and a sample costs Python work
besides (the resampling, the rollouts). At four players the expert's 200 give 100."""

NAPOLEON_BID_SCALE = {3: 1.0, 4: 1.0, 5: 0.5, 6: 0.5, 7: 0.5}
"""The share of the bot's ``auction_samples`` a Napoleon bid gets, by the size of the table (at
six and seven the heuristic bids: :data:`EARLY_SEATS`)."""

EARLY_SEATS = 5
"""The largest Napoleon table whose bids, first lead and first trick are searched. At six and
seven seats a sample's first-trick solve takes up to seconds (a seven-player deal holds 35 cards:
a null-window solve's 90th percentile 120 ms, its worst of 30 deals 4.2 s; from the second trick
its worst was 84 ms), so there the heuristic player bids, leads and plays the first trick, and the
bot samples and solves from the second trick on."""

_VALUES = {"bid 2": 2, "bid 3": 3, "misere": 3, "bid 4": 4, "nap": 10, "wellington": 20, "blucher": 40}


def napoleon_stake(a: Action, players: int) -> float:
    """What a Napoleon bid stakes, in the search's points (the bidder's score less the others'
    mean): the bidder wins or loses v x (players - 1) and each other seat v the other way, so
    v x players either way (v the bid's value); 0 for a pass or any other action.

    >>> from euchre.actions import NAPOLEON_BIDS
    >>> napoleon_stake(NAPOLEON_BIDS[0], 4), napoleon_stake(PASS, 4)
    (8, 0)
    """
    if a == PASS or a.kind is not Kind.BID:
        return 0
    return _VALUES.get(str(a), 0) * players


def napoleon_searches(view: PlayerView) -> bool:
    """Whether the search bot searches this Napoleon decision (else the heuristic player decides
    it): every decision at up to :data:`EARLY_SEATS` seats, and from the second trick on at more."""
    return view.rules.players <= EARLY_SEATS or len(view.tricks) >= 1


def napoleon_budget(phase: Phase, players: int, samples: int, auction_samples: int) -> tuple[int, int]:
    """(samples, close factor) of one Napoleon decision: a card or the first lead takes
    ``samples`` scaled by :data:`NAPOLEON_SCALE`, a bid ``auction_samples`` scaled by
    :data:`NAPOLEON_BID_SCALE` (at least 4 either way), and a close decision takes no more (a
    close factor of 1: the latency goal leaves no room for it at these costs).

    >>> napoleon_budget(Phase.PLAY, 4, 200, 20), napoleon_budget(Phase.AUCTION, 5, 200, 20)
    ((100, 1), (10, 1))
    """
    if phase is Phase.AUCTION:
        return max(round(auction_samples * NAPOLEON_BID_SCALE.get(players, 0.1)), 4), 1
    return max(round(samples * NAPOLEON_SCALE.get(players, 0.04)), 4), 1
