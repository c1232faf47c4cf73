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

At six and seven seats a solve from the first trick can take seconds (:data:`EARLY_SEATS`), so
there the search is truncated until the first trick is over (``truncate`` of the search bot): the
bids, the first lead and the cards of the first trick are valued by pushing each choice on each
sample, letting the heuristic player (:mod:`euchre.bots.napoleon`) play every seat to the end of
the first tricks (:data:`HANDOVER_TRICKS`, :func:`napoleon_handover`), and solving the rest
exactly from there.
"""

from __future__ import annotations

from euchre.actions import PASS, Action, Kind
from euchre.state import Phase, State
from euchre.view import PlayerView

__all__ = ["NAPOLEON_MARGIN", "NAPOLEON_SCALE", "NAPOLEON_BID_SCALE", "NAPOLEON_EARLY_SCALE", "EARLY_SEATS",
           "EARLY_EVEN", "HANDOVER_TRICKS", "napoleon_stake", "napoleon_budget", "napoleon_within_reach",
           "napoleon_handover"]

NAPOLEON_MARGIN = 0.02
"""Points a Napoleon bid must beat passing by, per point of its stake (:func:`napoleon_stake`):
the solver sees every card, so it is optimistic about the bidder's play as about any maker's.
A bid of 2 at four players (stake 8) owes 0.16 points, a Nap (40) 0.8. Not tuned by measurement."""

NAPOLEON_SCALE = {3: 0.5, 4: 0.5, 5: 0.15, 6: 0.15, 7: 0.1}
"""The share of the bot's ``samples`` that a card play or the first lead gets at a Napoleon table
of each size: a five-player deal costs the solver about ten times a four-player one, a
seven-player deal a hundred times (bench/README.md, Napoleon), and a sample costs Python work
besides (the resampling, the rollouts). At four players the expert's 200 give 100."""

NAPOLEON_BID_SCALE = {3: 1.0, 4: 1.0, 5: 0.5, 6: 1.0, 7: 1.0}
"""The share of the bot's ``auction_samples`` a Napoleon bid gets, by the size of the table (at
six and seven seats each sample's bids are rolled out by the heuristic through the first tricks,
:data:`HANDOVER_TRICKS`, and solved from there: cheaper than five seats' solves from the first
lead)."""

NAPOLEON_EARLY_SCALE = {6: 0.2, 7: 0.2}
"""The share of the bot's ``samples`` the first lead and a card of the first trick get at six and
seven seats, where each is rolled out to the end of the first trick and solved from there."""

EARLY_SEATS = 5
"""The largest Napoleon table whose bids, first lead and first trick are solved exactly on each
sample. At six and seven seats a sample's first-trick solve takes up to seconds (a seven-player
deal holds 35 cards: a null-window solve's 90th percentile 120 ms, its worst of 30 deals 4.2 s;
from the second trick its worst was 84 ms), so there the search is truncated before the second
trick: the heuristic player plays the rest of the first trick on each sample, and the solver
takes over later (:data:`HANDOVER_TRICKS`, :func:`napoleon_handover`)."""

HANDOVER_TRICKS = {6: 2, 7: 2}
"""At six and seven seats, the tricks a truncated rollout plays (every seat by the heuristic
player) before the solver values the rest. From the start of the second trick a seven-seat solve
costs 3.6 ms on average (90th percentile 10 ms, worst of 300 heuristic deals 55 ms), from the third
0.1 ms (worst 1.4 ms); six seats 1.0 and 0.09 ms. A bid's rollouts end in up to five first leads
of its own per sample, each solved: handing over at the second trick put the expert's seven-seat
bids at up to 0.94 s (10 samples) and its first-trick cards at 1.5 s (20 samples)."""

_VALUES = {"bid 2": 2, "bid 3": 3, "misere": 3, "bid 4": 4, "nap": 10, "wellington": 20, "blucher": 40}


EARLY_EVEN = False
"""Whether a truncated bid at six and seven seats keeps the heuristic player's choice unless the
search's best beats it by ``policy_even`` standard errors (the search bot's ``early_even``): no.
The heuristic bids too little there (a tenth of the hands against the expert), and holding the
search to it gave up much of the gain: expert - hard +2.53 [+1.95, +3.10] points a hand at six
seats and +3.85 [+3.15, +4.55] at seven with it, +4.14 [+3.44, +4.85] and +6.49 [+5.40, +7.58]
without (``euchre arena expert hard --rules napoleon --players 6/7 --deals 120 --seed 7``)."""


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


def napoleon_within_reach(view: PlayerView) -> bool:
    """Whether this Napoleon decision is solved exactly on each sample, with no rollout before
    the solve: every decision at up to :data:`EARLY_SEATS` seats, and from the second trick on at
    more."""
    return view.rules.players <= EARLY_SEATS or len(view.tricks) >= 1


def napoleon_handover(state: State) -> bool:
    """Whether a truncated rollout hands this Napoleon position to the solver: any position of
    the card play at up to :data:`EARLY_SEATS` seats, from :data:`HANDOVER_TRICKS` tricks played
    at more."""
    players = state.rules.players
    return state.phase is Phase.PLAY and (players <= EARLY_SEATS or len(state.tricks) >= HANDOVER_TRICKS[players])


def napoleon_budget(view: PlayerView, samples: int, auction_samples: int) -> tuple[int, int]:
    """(samples, close factor) of one Napoleon decision: a card or the first lead takes
    ``samples`` scaled by :data:`NAPOLEON_SCALE` (by :data:`NAPOLEON_EARLY_SCALE` before the
    second trick at six and seven seats), a bid ``auction_samples`` scaled by
    :data:`NAPOLEON_BID_SCALE` (at least 4 either way), and a close decision takes no more (a
    close factor of 1: the latency goal leaves no room for it at these costs).

    >>> from euchre import Game, Rules
    >>> g = Game(Rules.preset("napoleon", players=5), seed=1)
    >>> napoleon_budget(g.view(g.to_act), 200, 20)
    (10, 1)
    """
    players = view.rules.players
    if view.phase is Phase.AUCTION:
        return max(round(auction_samples * NAPOLEON_BID_SCALE.get(players, 0.1)), 4), 1
    if not napoleon_within_reach(view):
        return max(round(samples * NAPOLEON_EARLY_SCALE.get(players, 0.04)), 4), 1
    return max(round(samples * NAPOLEON_SCALE.get(players, 0.04)), 4), 1
