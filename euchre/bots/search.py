"""The search bot: sample the unseen cards, solve each sample exactly, choose the best average.

For each decision the bot deals the cards it cannot see at random, consistently with everything
its seat knows (:meth:`~euchre.view.PlayerView.resample`: cards played, voids shown, the up card in
the dealer's hand, its own buried card). With ``infer_bids`` it also weighs each sample by how
well it explains the bidding: a sample in which the heuristic player would have bid as the seat
really did counts fully, one in which it would not counts ``bid_misfit`` (:data:`MISFIT`) as much
(the compiled samples of a decision before the play are drawn that way instead: a deal that does
not explain the bids is drawn again, :mod:`euchre.fastbid`; the hints read the bids so).
With ``infer_play`` (on by default) it weighs each sample by the other side's card play the same
way: every card an opponent played with a choice that the heuristic player would not have played
with the sampled hand multiplies the weight by :data:`PLAY_MISFIT`. With ``infer_discard`` (on by
default) a seat that did not see the dealer's discard draws its samples as likely as the heuristic
player's discard explains them (:meth:`~euchre.view.PlayerView.resample` with ``bury``,
:data:`DISCARD_MISFIT`): a dealer keeps its trumps, and sampled as if it had buried any card it
held about 0.3 trumps fewer than in real deals. Every legal action is then
valued on every sample (for a bid, on more samples while the decision is close: ``close_factor``):

* a card: by the exact solver (:mod:`euchre.solver`), all four hands open, best play after;
* a bid, a discard, a lone defence: the rest of the bidding is played by the heuristic policy,
  then the hand is solved from the first lead. When the rollout reaches another bidding decision
  of the seat's own (round 2 after a pass in round 1, the dealer's discard after picking up),
  every choice there is valued, and the one best over all the samples that reach that point is
  taken for all of them, with the same margins: the bot will choose once there too, not knowing
  the deal (``own_bids``). The heuristic player used to stand in for it, which undervalued
  passing a hand the bot itself would call in round 2.

The house rules of RULES-FAMILY.md 12.2-12.4 are searched as every other decision is, the samples
holding only what the seat knows of them (:meth:`~euchre.view.PlayerView.resample`, 12.7): going
alone under call for best is a bid whose rollout gives the partner's best card and lets the seat
choose its discard among the six (a later decision of its own, grouped by the cards it then holds);
the partner's chosen gift and the lone hand's discard are valued like the dealer's discard; the
offers come before trump is made and are valued like bids, by rollouts of the bidding. A misdeal
is worth what the redeal is: fresh deals by the same dealer, bid by the heuristic player and
solved, once per evaluation (their value depends on nothing the sample holds). The cards given
and discarded under these rules, like the cards played, go to the heuristic player's choice when
the search cannot tell them from the best (``policy_even``).

Napoleon and the double deck are searched the same way, with what differs in modules of their
own: Napoleon's budgets by the size of the table, its bidder's first lead (which fixes trump)
and its misère (:mod:`euchre.bots.search_napoleon`); the double deck's twelve-card hands
(:mod:`euchre.bots.search_double`). Where a sample is past the exact solver's reach (the double
deck before its last five tricks, Napoleon's first trick at six and seven seats: :func:`within_reach`)
the search is truncated: each choice is pushed on each sample, the heuristic player plays every
seat on to where the solver takes over (:func:`handover`: the end of the seventh trick, of the
second), and the solver values the rest. That is the rollout the bids have always had, carried
into the card play, so a card of the first trick, a bid, a naming of trump and a moon's exchange
are all valued by the same machinery (:meth:`SearchBot._values`, :meth:`SearchBot._later`,
:meth:`SearchBot._hand_points`); the seat's own later cards in the rollout are the heuristic's.

The value of a hand's points depends on the game score: 2 points at 0-0 are worth less than the
last point at 9-9. With a target and two sides, once a side is within :data:`LATE` points of the
target, the bot maximises its chance of winning the game (:func:`win_probability`, from a model of
independent hands), with a small weight on points (:data:`TIE_POINTS`) so that choices the score
makes equal still go to the one with more points; otherwise it maximises its side's points minus
the others'.
:meth:`SearchBot.evaluate` reports expected points per action too, for hints and game analysis.

What was measured (paired duplicate on the same 300 deals against the heuristic bot, and against
OpenSpiel's IS-MCTS; bench/README.md):

* Reading the bids is off by default. It models the other bidders as the heuristic player; against
  the heuristic it changed nothing measurable (-0.01 +- 0.05 points per hand), against IS-MCTS,
  which bids unlike it, the bot without it scored +0.20 instead of +0.16 per hand.
* Card play: 200 samples instead of 80 gained +0.025 +- 0.033 points per hand (600 deals,
  two seeds), 400 instead of 200 nothing (-0.02 +- 0.04). ``own_bids``: +0.007 +- 0.009 (it
  changes few decisions; choosing per sample instead, which is optimistic, changed four times as
  many for +0.014 +- 0.022).
* Points as a tie-break when the score matters (:data:`TIE_POINTS`), in games played out from a
  late score (``bench/paired.py --late``, 200 deals): +0.034 +- 0.032 points per hand, the same
  games won (+0.2 +- 1.1 percentage points). Without it the bot, sure of the game either way,
  played the first card in the engine's order and gave away marches.
* Reading the card play (``infer_play``): +0.018 +- 0.027 points per hand (300 deals); with close
  bids sampled up to three times as often: +0.031 +- 0.041 (400 other deals); close bids alone
  +0.027 +- 0.048, about what sampling every bid four times as often gave (+0.027 +- 0.068). It
  models the opponents as the heuristic player, so it is measured against other opponents too
  (bench/README.md).
* Tried and dropped: playing ties by the heuristic's choice (-0.01 +- 0.03); valuing bids half by
  the solver and half by heuristic play (-0.02 +- 0.03); reading only the maker's bid when
  sampling for card play (-0.01 +- 0.03).
* The known flaw of this method ("strategy fusion"): a sample is solved as if every card were
  face up, so the bot believes it will always guess right later; bids and loners may look better
  than they are. :data:`BID_MARGIN` and :data:`ALONE_MARGIN` correct for it: without them the bot
  scored 0.03 +- 0.03 points per hand less. ``bench/calibrate.py`` plays every valued choice of
  the bot's bids out from the true deal: against the heuristic the predictions are, if anything,
  low (the solver expects a perfect defence), and going alone is undervalued next to the call
  with the partner, not overvalued (by 0.08 +- 0.07 points). Replaying the decisions with other
  margins favoured an alone margin of 0.1 over 0.25 on all four sets of deals measured (2,500 in
  all, about +0.005 points per hand: one decision in a hundred changes) and found no bid margin
  clearly better than 0.1. The whole cost of not seeing the cards is measured against a bot that sees
  them (``bench/ceiling.py``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from euchre.actions import PASS, Action, Kind
from euchre.bots.base import Bot
from euchre.bots.heuristic import HeuristicBot, weakest_card
from euchre.bots.search_double import EARLY_EVEN as DOUBLE_EVEN
from euchre.bots.search_double import double_budget, double_handover, double_within_reach
from euchre.bots.search_napoleon import EARLY_EVEN as NAPOLEON_EVEN
from euchre.bots.search_napoleon import (
    NAPOLEON_MARGIN,
    napoleon_budget,
    napoleon_handover,
    napoleon_stake,
    napoleon_within_reach,
)
from euchre.cards import EFFECTIVE, POWER
from euchre.state import Phase, State
from euchre.view import PlayerView, seat_actions

if TYPE_CHECKING:
    from euchre.fastbid import PlayDrawer, Samples
    from euchre.solver import Solver

__all__ = ["SearchBot", "Evaluation", "win_probability", "searches", "within_reach", "handover"]

MISFIT = 0.2
"""Weight of a sample in which another seat's bid is not what the heuristic policy would have
bid with the sampled cards (1 when it is)."""
POOL_FACTOR = 4
"""With ``infer_bids`` and ``control``: the deals drawn (not valued) to find the control variate's
features' means, per deal valued (a drawn deal costs a few microseconds, a valued one 0.2 ms)."""
POOL_SEED = 0x9E3779B97F4A7C15
"""Mixed into a decision's seed for those deals (other deals than the valued ones)."""
BID_MARGIN = 0.1
"""Points a call that makes trump must beat passing by (the solver is optimistic about play)."""
ALONE_MARGIN = 0.1
"""Points going alone must beat the same call with the partner by."""
TRICK_BID_MARGIN = 0.05
"""The auction games (bids of tricks: Hasenpfeffer, Bid Euchre): points a bid of ``k`` tricks must
beat the alternatives by, per trick bid (a bid of 3: 0.15 points, of 6: 0.3). The solver is
optimistic about the makers' play as about any call's, and a bid stakes what it offers: failing
costs the bid, making it gains about as much, so an overestimate of the chance of making it costs
in proportion to the bid (2.5% too optimistic a chance of making ``k`` costs about 0.05 ``k``
points). Bid Euchre's moon stakes its points (``rules.moon_points``, 12) either way, so it owes
the margin of a bid of that many tricks (0.6 points). Naming trump after the bid owes no margin
of its own: the bid that led to it paid it. Not tuned by measurement yet (see bench/README.md,
Hasenpfeffer and Bid Euchre)."""
PLAY_MISFIT = 0.3
"""Weight of a sample for each card the other side played that the heuristic policy would not
have played with the sampled hand (reading the card play; ``infer_play``)."""
DISCARD_MISFIT = 0.05
"""Reading the dealer's hidden discard (``infer_discard``): a dealt deal counts each card the
dealer could have buried at 1 where the heuristic player, holding those six cards, would have
buried it and at this where not, and is kept with the mean of those (else dealt again). A dealer
keeps its trumps and its aces and voids a side suit when it can, which every sound player does;
sampled as if its discard were any card, the dealer who picked up held 0.30 trumps fewer in the
samples than in the real deals of heuristic games, 0.07 with this reading (bench/README.md)."""
DISCARD_DRAWS = 64
"""At most this many draws of a sample for one kept by the dealer's discard (``infer_discard``)."""
BID_SAMPLES = 800
"""Sampled deals per decision before the play (a bid, the dealer's discard, a lone defence), where
the compiled samples value it (:mod:`euchre.fastbid`, about 0.2 ms a deal on one core: see
``compiled_bids``)."""
HOUSE_BID_SAMPLES = 64
"""At most this many sampled deals per such decision where the Python path values it (the house
rules :mod:`euchre.fastbid` does not cover: about 1 ms a deal), up to ``close_factor`` times as many
when the decision is close."""
CLOSE_MARGIN = 0.3
"""A bid whose best choice leads the next by less than this (points, margins included) is close:
sampling goes on, up to ``close_factor`` times the bid samples."""

POLICY_EVEN = 2.0
"""Standard errors within which a card the heuristic player would play is preferred to the
search's best (``policy_even``): the cards the search cannot tell apart are played as a sound
player plays them. Measured: +0.016 +- 0.037 points per hand (``bench/paired.py expert
'expert:{"policy_even": 2}' --deals 600 --seed 7``), and the expert then cashes the ace against a
loner on every seed (``tests/test_blunders.py``)."""

PRUNE_MARGIN = 0.3
"""Round 2: a call within this many points of the best choice is never dropped early."""
NAMING_PRUNE = 1.0
"""The auction games: a naming of trump the seat's own rollouts found this many points behind the
best, on average over the first samples, is no longer solved (:meth:`SearchBot._prune_namings`)."""

_EVEN_PHASES = frozenset({Phase.PLAY, Phase.GIVE, Phase.BEST_DISCARD, Phase.FARMER_GIVE, Phase.LEAD})
"""The decisions where a choice the search cannot tell from the best goes to the heuristic player's
card (``policy_even``): the card play (Napoleon's first lead, which fixes trump, included), and the
cards given and discarded under the house rules (a farmer's three 9s and 10s are most often all
alike to the search)."""

_AUCTION_PHASES = frozenset({Phase.AUCTION, Phase.NAME_TRUMP})
"""The bidding of the auction games (bids of tricks, then the high bidder names trump): sampled
``auction_samples`` times, not ``bid_samples`` (see :class:`SearchBot`)."""
_EXCHANGE_PHASES = frozenset({Phase.GIVE, Phase.BEST_DISCARD})
"""Bid Euchre's moon exchange (the partner's gift, the shooter's discard of seven): in the six-card
games these are sampled ``auction_samples`` times too, each of up to seven choices a six-card
solve (at ``bid_samples`` the shooter's discard took 0.3 s, and up to 2 s when close)."""

_CARD_PHASES = frozenset({Phase.PLAY, Phase.LEAD})
"""The card play, Napoleon's first lead (which fixes trump) included: a decision beyond the
solver's reach there is searched with ``early_play``, any other with ``early_bids``."""


def plausible_discards(actions: list[Action], trump: int) -> list[Action]:
    """The dealer's discards worth valuing, in ``actions``' order: the lowest card of each side suit
    it holds, or its lowest trump if it holds no side card.

    Burying the higher of two cards of one suit keeps the lower, which wins no trick the higher
    would not have won; burying a trump while a side card is left keeps a card the makers' trumps
    will fall on instead of one that takes or guards a trick. Measured with all six valued at the
    expert's budget (bench/README.md): over 200 American and 100 British discards of heuristic
    games the best was outside this set twice, by 0.001 and 0.007 points. The set holds 2.2
    discards on average, so the dealer's order-up, whose rollouts value its later discard on every
    sample, costs about half as much: it was the slowest of the expert's decisions (the latency
    goal of issue 14)."""
    eff, pw = EFFECTIVE[trump], POWER[trump]
    low: dict[int, int] = {}  # effective suit -> its lowest card
    for a in actions:
        c = int(a.card)  # type: ignore[arg-type]
        if eff[c] not in low or pw[c] < pw[low[eff[c]]]:
            low[eff[c]] = c
    keep = {c for s, c in low.items() if s != trump} or set(low.values())
    return [a for a in actions if a.card in keep]

_MAKING = frozenset({Kind.ORDER, Kind.ORDER_ALONE, Kind.CALL, Kind.CALL_ALONE})
"""Bids that make trump (the ones :data:`BID_MARGIN` applies to, in the games with an up card)."""

HAND_OUTCOMES = {1: 0.309, 2: 0.166, 4: 0.014}
"""Chance that one given side scores each number of points on a hand (the other side's chances
are the same; the rest is thrown in). Measured with four heuristic bots under the American rules
(``euchre simulate --games 300 --json``: 3,472 hands, 62% scored 1, 33% scored 2 (a march or a
euchre), 2.8% scored 4, 2.1% thrown in); used only to value the game score."""

TIE_POINTS = 0.005
"""Utility per net point added to the chance of winning when the score matters: choices that the
score makes equal (this hand cannot change who wins the game, or not by much) go to the one
with more points, as a player who does not throw points away would choose."""

LATE = 4
"""The score matters once a side is within this many points of the target. Before, a point is
worth about the same whatever the score, and the bot counts points: measured in the arena, valuing
every hand by the model's chance of winning cost points per hand without winning more games."""


@lru_cache(maxsize=16)
def _win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """P[a][b]: the chance that a side at ``a`` points beats a side at ``b`` to ``target``."""
    outcomes = [(pts, p) for pts, p in HAND_OUTCOMES.items()]
    total = 2 * sum(p for _, p in outcomes)
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target, -1, -1):
        for b in range(target, -1, -1):
            if a >= target:
                table[a][b] = 1.0 if b < target else 0.5
                continue
            if b >= target:
                table[a][b] = 0.0
                continue
            v = 0.0
            for pts, p in outcomes:
                v += p * table[min(a + pts, target)][b] + p * table[a][min(b + pts, target)]
            table[a][b] = v / total
    return tuple(tuple(row) for row in table)


def win_probability(mine: int, theirs: int, target: int) -> float:
    """The chance that a side with ``mine`` points beats one with ``theirs`` in a game to
    ``target``, under the model of independent hands of :data:`HAND_OUTCOMES`."""
    t = _win_table(target)
    return t[min(max(mine, 0), target)][min(max(theirs, 0), target)]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One legal action as the search bot sees it."""

    action: Action
    points: float
    """Expected points of the seat's side minus the others' (mean over the other sides) for this
    hand, if the action is taken and everyone plays well after."""
    utility: float
    """What the bot maximises: the chance of winning the game (a target, two sides), else
    ``points``."""
    samples: int
    later_margin: float = 0.0
    """Margin (points) owed by the calls this action leads the seat to make later in the bidding
    (passing now to call in round 2): such a call is as optimistic as one made now, so the choice
    charges it the same :data:`BID_MARGIN` and :data:`ALONE_MARGIN`, weighted by how often it
    happens."""
    stderr: float = 0.0
    """Standard error of ``points`` from the sampling: another seed moves ``points`` by about this
    much (by more one time in three)."""
    stderr_vs_best: float = 0.0
    """Standard error of the difference in ``points`` between the action with the most expected
    points and this one, over the same samples (0 for that action itself): two actions whose
    difference is within about twice this are not told apart by the search."""


@dataclass(frozen=True, slots=True)
class _Later:
    """A rollout that reached another bidding decision of the searching seat: the bidding there as
    the seat sees it (another seat's discard hidden, and whatever else the house rules hide from
    it: another seat's kept offer, a gift between two others), its cards there (a gift received
    or a farmer's three cards taken differ from sample to sample) and each choice's
    (points, utility) on the sample."""

    history: tuple[int, ...]
    values: dict[Action, tuple[float, float]]
    hand: int = 0
    """The seat's cards at that decision, as a mask."""

    @property
    def key(self) -> tuple[tuple[int, ...], int]:
        """What the seat knows there: the samples with the same key are one decision to it."""
        return self.history, self.hand


class _Drawn:
    """Every deal drawn for a card play read by the bids (:meth:`SearchBot._draw_by_bids`): the
    seats' hands and the chance it had to be kept."""

    __slots__ = ("hands", "chances")

    def __init__(self) -> None:
        self.hands: list[tuple[int, ...]] = []
        self.chances: list[float] = []


class _Sums:
    """What :meth:`SearchBot.evaluate` has gathered so far: weighted (points, utility) sums per
    action, and the later decisions of the seat's own by (action, history there) -> choice ->
    [points, utility, weight]."""

    __slots__ = ("sums", "later", "weight", "count", "rows", "hands")

    def __init__(self, sums: dict[Action, list[float]],
                 later: dict[tuple[Action, tuple[tuple[int, ...], int]], dict[Action, list[float]]]) -> None:
        self.sums = sums
        self.later = later
        self.weight = 0.0
        self.count = 0
        self.rows: list[tuple[float, dict[Action, tuple[float, float] | _Later]]] = []
        """Each sample's weight and values, for the standard errors."""
        self.hands: list[tuple[int, ...]] = []
        """Each sample's hands at the view, as masks, for the control variate (when kept)."""

    def add(self, values: dict[Action, tuple[float, float] | _Later], w: float,
            hands: tuple[int, ...] | None = None) -> None:
        """One more sample's values, with its weight (and its hands at the view, for ``control``)."""
        if hands is not None:
            self.hands.append(hands)
        for a, v in values.items():
            if isinstance(v, _Later):
                group = self.later.setdefault((a, v.key), {})
                for b, (pts, util) in v.values.items():
                    acc = group.setdefault(b, [0.0, 0.0, 0.0])
                    acc[0] += w * pts
                    acc[1] += w * util
                    acc[2] += w
                continue
            self.sums[a][0] += w * v[0]
            self.sums[a][1] += w * v[1]
        self.weight += w
        self.count += 1
        self.rows.append((w, values))


def compiled_covers(view: PlayerView) -> bool:
    """Whether the compiled bidding samples value this view (:func:`euchre.fastbid.covered`; never
    a card play). :mod:`euchre.fastbid` loads numba and the batch engine, so it is imported only
    when a decision before the play asks: ``import euchre`` stays light."""
    if view.phase is Phase.PLAY:
        return False
    from euchre import fastbid

    return fastbid.covered(view)


def within_reach(view: PlayerView) -> bool:
    """Whether this view's decision is valued by the exact solver on each sample with no
    truncated rollout (see :class:`SearchBot`, ``early_bids`` and ``early_play``): every game and
    position but the double deck's before its last five tricks (twelve-card hands,
    :func:`~euchre.bots.search_double.double_within_reach`) and Napoleon's bids and first trick at
    six and seven seats (:func:`~euchre.bots.search_napoleon.napoleon_within_reach`)."""
    if view.rules.double_deck:
        return double_within_reach(view)
    return not view.rules.napoleon or napoleon_within_reach(view)


def handover(state: State) -> bool:
    """Whether a rollout hands this position of a sample over to the exact solver: any position
    of the card play, but in the double deck only once every hand holds five cards or fewer
    (:func:`~euchre.bots.search_double.double_handover`) and in Napoleon at six and seven seats
    only from a later trick (:func:`~euchre.bots.search_napoleon.napoleon_handover`). Before it,
    the heuristic player plays every seat on (a truncated search)."""
    if state.rules.double_deck:
        return double_handover(state)
    if state.rules.napoleon:
        return napoleon_handover(state)
    return state.phase is Phase.PLAY


def searches(view: PlayerView, *, early_bids: bool = True, early_play: bool = True) -> bool:
    """Whether the search bot searches this view's decision (else its heuristic player decides):
    every decision within the solver's reach (:func:`within_reach`), and the others by truncated
    rollouts, the bidding ones with ``early_bids`` and the cards with ``early_play`` (both the
    search bot's defaults, so with the defaults every decision of every game). Hints ask the
    same."""
    if within_reach(view):
        return True
    return early_play if view.phase in _CARD_PHASES else early_bids


MAX_BUDGET = 100_000
"""The largest budget a search bot takes (samples a decision, or a factor of them): 100,000 deals
solved are tens of seconds a decision already, and a bid's compiled samples keep arrays in
proportion (about 60 MB there); a larger number is a typing slip, refused rather than run out of
memory or never answer."""


class SearchBot(Bot):
    """Determinized search with an exact solver (see the module docstring).

    ``samples`` deals are solved for a card play, ``bid_samples`` for a bid or discard (each bid
    costs a whole-hand solve per sample and candidate; see ``compiled_bids``); in round 2 calls
    clearly behind are dropped after a quarter of the bid samples (at least ``min_samples``); a close
    bid valued in Python (its best choice ahead by less than ``close_margin`` points) is sampled up
    to ``close_factor`` times as often.
    ``infer_play`` is the weight of a sample per card of the other side's play it does not explain
    (``None``: not read); ``infer_discard`` the chance of keeping a drawn sample whose dealer would
    not have buried what it did, as the heuristic player buries (``None``: any buried card is as
    likely; see the module docstring). ``infer_bids`` weighs samples by the bidding, ``bid_misfit`` (:data:`MISFIT`)
    for each other seat's bid the heuristic player would not have made with the sample's cards, on
    the compiled samples too (off by default: measured, it did not pay, see the module docstring;
    the hints read the bids, :data:`euchre.hints.HINT_MISFIT`), ``score_aware`` values points by the chance of
    winning the game (``tie_points``: the weight of points there, :data:`TIE_POINTS`), ``own_bids``
    plays the seat's own later bids in a bid's rollout as the bot will (see the module docstring).
    ``auction_samples`` replaces ``bid_samples`` in the auction games (Hasenpfeffer's bids and
    naming of trump): a bid there has up to seven choices, each rollout ends in up to four namings
    of trump, all solved, and a six-card solve costs about three times a five-card one; at 64
    samples the expert's bids took 0.7 s, over the latency goal; a close one there is sampled up to
    ``auction_close_factor`` (not ``close_factor``) times as often. ``wide_samples`` replaces
    ``samples`` for a card played in the first two tricks of the six-card games (from six or five
    cards), where each sample solves five or six cards a hand per card. The expert's 20, 2 and 80
    bring its median and 99th percentile within the latency goal in those games (32, 3 and 200
    gave a 99th percentile of 0.6 to 1.0 s; bench/README.md, Hasenpfeffer and Bid Euchre); the
    five-card games never use them.
    ``heuristic_bids`` bids (and discards, and defends alone) as the heuristic player does and
    searches the card play only (steady bids on a small budget; with 40 card samples it measured
    +0.060 +- 0.039 points per hand over the heuristic, too little to be a level of its own).
    ``policy_even`` (standard errors): a card the heuristic player would play is played when the
    search values it within this many standard errors of the difference to the best, so that cards
    the search cannot tell apart are played the way a sound player would (cashing the ace against a
    loner rather than a nine the samples happen to rate a little higher); so are the cards given and
    discarded under the house rules (:data:`_EVEN_PHASES`).
    ``early_bids`` and ``early_play``: the decisions beyond the exact solver's reach (the double
    deck's before its last five tricks, Napoleon's bids and first trick at six and seven seats:
    :func:`within_reach`) are searched by truncated rollouts, the bidding ones (bids, naming trump,
    the moon's exchange) with ``early_bids``, the cards with ``early_play``: each choice pushed on
    each sample, every seat played on by the heuristic player until the position is within reach
    (:func:`handover`), then solved exactly (:meth:`_hand_points`). Without them the heuristic player
    decides those (the bot before truncated search). Their budgets are the games' own
    (:func:`~euchre.bots.search_double.double_budget`,
    :func:`~euchre.bots.search_napoleon.napoleon_budget`). ``early_even``: ``policy_even`` applies
    to every truncated decision, bids included (the heuristic player's choice stands unless the
    search's best beats it by that many standard errors of the difference): their budgets are a
    few samples, and the best of several noisy estimates is optimistic. ``None``, the default, is
    the game's own (:meth:`_early_even`): on in the double deck, off in Napoleon, as measured.

    ``compiled_bids`` (on by default): a decision before the play that :mod:`euchre.fastbid` covers
    (the Euchre games' bids, discards, takes, namings of the Joker's trump and lone defences, under
    every house rule but call for best, ace-no-face and the farmer's hand) is valued on
    ``bid_samples`` compiled samples: the same value per deal as the Python path and the same
    pruning (:meth:`_evaluate_compiled`), at about a fifth of the cost, the deals drawn by the
    compiled sampler (so other deals than the Python path's for one seed). A decision the Python
    path values takes at most ``house_bid_samples`` (and ``close_factor`` times as many when close).
    Against 64 a bid (up to 192 when close), 800 gained +0.013 +- 0.034 points per hand and 1,000
    (up to 3,000) +0.044 +- 0.037, on 600 deals each, and head to head against the frozen expert
    -0.004 +- 0.033 over 1,000 (bench/README.md): little, but it costs no latency that matters.
    The first use on a machine compiles that code (a minute or two; cached on disk after).

    ``late_fusion`` (0, off, by default): from this many cards in hand down to three (the
    five-card games; not Napoleon or the double deck), a card is valued with the seat's next card
    chosen once over the samples that show it the same plays (:meth:`_fused`), not on each sample
    as if it could see them: the strategy fusion of plain sampling, corrected one card ahead.
    Measured against the expert as it is (``bench/paired.py``): from four cards -0.003 +- 0.006
    points per hand over 600 deals (5 played differently), from five +0.003 +- 0.008 over 400
    (4), at two to five times the time of a card: the seat's own later guesses cost plain
    sampling almost nothing in Euchre, so it stays off.

    ``bids_in_play`` and ``infer_partner`` (both ``None``, off, by default) read more of what the
    seat has seen during the play, each a weight per surprise: the other seats' bids (as
    ``infer_bids`` does, but only once the play starts;
    :meth:`_bid_weight`) and the partner's cards (as ``infer_play`` reads the other side's), both
    with the heuristic player's model. Measured against the expert as it is over 600 deals each
    (bench/README.md): the bids at 0.1 a surprise -0.009 +- 0.022 points per hand (28 deals
    played differently), the partner's cards at 0.5 +0.007 +- 0.011 (7 deals): what the bids and
    the partner's cards say is already in the samples by the time it matters, so both stay off.

    ``control`` (off by default) corrects each choice's points on the same samples by the hints'
    control variate (:mod:`euchre.bots.control`: where the unseen cards lay, regressed out), which
    about halves the variance of a bid's estimate where it applies (enough samples per feature:
    the bids' 800, a card late in the hand; not under the house rules whose sampling weighs hidden
    choices), at no cost in time (``bench/latency.py``: median 50.5 ms, p99 345 ms a decision).
    Against the expert without it (``bench/paired.py``, bench/README.md): +0.012 +- 0.022 points per
    hand over 600 deals, -0.000 +- 0.012 over 1,200 others: the bids' sampling noise is not where
    the expert loses points, so it stays off.

    ``playout`` (0, off, by default): the share of a bid's samples (0 to 1) whose hand, once its
    bidding is over, is valued by the heuristic player's play of every seat to the end instead of
    by the solver, the samples picked by their number (:func:`euchre.fastbid.plays_out`), so each
    of a deal's choices is valued the same way; the Euchre games only, on the compiled and the
    Python path alike. The solver values a bid as if every seat then played with the cards face up;
    a real defence, the heuristic's above all, does not. Measured against the expert as it is
    (``bench/paired.py``, bench/README.md): at 0.5 +0.021 +- 0.026 and +0.007 +- 0.022 points per
    hand over 600 deals each, at 1 +0.024 +- 0.033, and +0.035 +- 0.039 against the frozen expert
    over 400, none clear of zero alone; at 1 a bid costs a ninth of the time (median 23 ms on one
    core, against 199 ms), but the heuristic's weak defence of a loner makes loners look better
    than they are: at 1 the expert goes alone on 3 positions of the blunder set
    (``tests/test_blunders.py``) where a strong player calls with the partner, and with the alone
    margin raised to 0.7, where the set passes, it lost -0.037 +- 0.031. So it stays off in this
    bot's defaults.

    ``playout_loners`` (true by default): whether a played-out sample plays out a loner's hand too.
    False keeps the solver for every hand with a lone maker, so the heuristic's weak defence of a
    loner does not flatter going alone, while calls and passes are valued by the play-outs. The
    ``expert`` level is this bot with ``playout`` 1 and ``playout_loners`` false: as strong as the
    solver-valued bids in every measured game (``bench/paired.py``, bench/README.md: +0.001 +-
    0.027 and +0.014 +- 0.033 points per hand over 600 American deals each, against the heuristic
    and the frozen expert; British, cut-throat and two-handed alike), it passes the blunder set, and
    a round-1 bid takes a quarter of the time (the decisions' 99th percentile 150 ms on one core,
    against 444 ms). Hints keep this bot's defaults: their points are the solver's.

    Every budget is a count of samples, never a time: a decision is a function of the seed and the
    view (and of the bot's earlier decisions in the game, which advance its random generator), the
    same on a loaded machine as on an idle one. ``time_limit`` is accepted only as ``None`` (old
    bench commands pass it); sampling used to stop on the clock, which made the arena, hints and
    reviews differ from run to run.
    """

    name = "search"
    napoleon_margin = NAPOLEON_MARGIN
    """Napoleon: points a bid owes per point of its stake (:data:`~euchre.bots.search_napoleon.NAPOLEON_MARGIN`)."""

    def __init__(self, seed: int | None = None, *, samples: int = 200, bid_samples: int = BID_SAMPLES,
                 min_samples: int = 8, time_limit: None = None, infer_bids: bool = False,
                 score_aware: bool = True, bid_margin: float = BID_MARGIN,
                 alone_margin: float = ALONE_MARGIN, own_bids: bool = True,
                 infer_play: float | None = PLAY_MISFIT, close_factor: int = 3,
                 close_margin: float = CLOSE_MARGIN, tie_points: float = TIE_POINTS,
                 heuristic_bids: bool = False, policy_even: float = POLICY_EVEN,
                 trick_margin: float = TRICK_BID_MARGIN, auction_samples: int = 20,
                 wide_samples: int = 80, auction_close_factor: int = 2, early_bids: bool = True,
                 early_play: bool = True, early_even: bool | None = None, compiled_bids: bool = True,
                 house_bid_samples: int = HOUSE_BID_SAMPLES, late_fusion: int = 0,
                 bids_in_play: float | None = None, infer_partner: float | None = None,
                 control: bool = False, bid_misfit: float = MISFIT,
                 infer_discard: float | None = DISCARD_MISFIT, playout: float = 0.0,
                 playout_loners: bool = True) -> None:
        if time_limit is not None:
            raise ValueError("time_limit is no longer supported: the search bot's budgets are sample counts "
                             "(samples, bid_samples), so that a decision never depends on the clock")
        budgets = {"samples": samples, "bid_samples": bid_samples, "min_samples": min_samples,
                   "auction_samples": auction_samples, "wide_samples": wide_samples,
                   "house_bid_samples": house_bid_samples, "close_factor": close_factor,
                   "auction_close_factor": auction_close_factor}
        for name, value in budgets.items():
            if isinstance(value, bool) or not hasattr(value, "__index__") or not 1 <= value <= MAX_BUDGET:
                raise ValueError(f"{name} must be a whole number from 1 to {MAX_BUDGET:,}, not {value!r}")
        if isinstance(late_fusion, bool) or not hasattr(late_fusion, "__index__") or late_fusion < 0:
            raise ValueError(f"late_fusion must be a whole number of at least 0, not {late_fusion!r}")
        switches = {"infer_bids": infer_bids, "score_aware": score_aware, "own_bids": own_bids,
                    "heuristic_bids": heuristic_bids, "early_bids": early_bids, "early_play": early_play,
                    "compiled_bids": compiled_bids, "control": control, "playout_loners": playout_loners}
        for name, on in switches.items():
            if not isinstance(on, bool):  # (a JSON "no" or 0 from the command line would read as on or off silently)
                raise ValueError(f"{name} must be true or false, not {on!r}")
        if early_even is not None and not isinstance(early_even, bool):
            raise ValueError(f"early_even must be true, false or null, not {early_even!r}")
        if isinstance(bid_misfit, bool) or not isinstance(bid_misfit, (int, float)) or not 0 < bid_misfit <= 1:
            raise ValueError(f"bid_misfit must be a number above 0 and at most 1, not {bid_misfit!r}")
        for name, weight in {"bids_in_play": bids_in_play, "infer_partner": infer_partner,
                             "infer_discard": infer_discard}.items():
            if weight is not None and (isinstance(weight, bool) or not isinstance(weight, (int, float))
                                       or not 0 < weight <= 1):
                raise ValueError(f"{name} must be a number above 0 and at most 1, or null, not {weight!r}")
        if isinstance(playout, bool) or not isinstance(playout, (int, float)) or not 0 <= playout <= 1:
            raise ValueError(f"playout must be a number from 0 to 1, not {playout!r}")
        self.seed = seed
        self.playout = float(playout)
        self.playout_loners = playout_loners
        self._number = 0
        """The number of the sample being valued (``playout`` picks the samples it plays out by it)."""
        self.bid_misfit = bid_misfit
        self.infer_discard = infer_discard
        self.control = control
        self.late_fusion = late_fusion
        self.infer_partner = infer_partner
        self.bids_in_play = bids_in_play
        self.compiled_bids = compiled_bids
        self.house_bid_samples = house_bid_samples
        self.early_bids = early_bids
        self.early_play = early_play
        self.early_even = early_even
        self.heuristic_bids = heuristic_bids
        self.policy_even = policy_even
        self.tie_points = tie_points
        self.close_factor = close_factor
        self.close_margin = close_margin
        self.infer_play = infer_play
        self.own_bids = own_bids
        self.samples = samples
        self.bid_samples = bid_samples
        self.auction_samples = auction_samples
        self.wide_samples = wide_samples
        self.auction_close_factor = auction_close_factor
        self.min_samples = min_samples
        self.infer_bids = infer_bids
        self.score_aware = score_aware
        self.bid_margin = bid_margin
        self.alone_margin = alone_margin
        self.trick_margin = trick_margin
        self._rng = random.Random(seed)
        self._policy = HeuristicBot(seed)
        self._redeal: tuple[float, float] | None = None
        """What a misdeal is worth in the current evaluation, once a choice led to one."""
        self._solved: dict[tuple[object, ...], int] = {}
        """The auction games: the exact maker tricks of each position the current sample's
        rollouts reached at the first lead (:meth:`_hand_points`)."""
        self._redeals = 0
        """Fresh deals that value a misdeal (twice the current evaluation's samples)."""
        self._namings: frozenset[Action] | None = None
        """The auction games: the namings of trump the seat's own later choice in a rollout still
        weighs, once the others are found hopeless (:meth:`_prune_namings`); ``None``: all."""

    @property
    def _solver(self) -> Solver:
        """The solver of the calling thread (:func:`euchre.solver.thread_solver`): the bot owns
        none, so that an idle bot holds only its options and its random generator, and a process
        holds one transposition table per searching thread however many bots it has."""
        from euchre.solver import thread_solver  # numba is loaded only by the players that search

        return thread_solver()

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    # --- deciding ------------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Action:
        """The action with the best expected utility (a forced action without search)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        if len(legal) == 1:
            return legal[0]
        if not searches(view, early_bids=self.early_bids, early_play=self.early_play):
            return self._policy.choose(view)
        if self.heuristic_bids and view.phase is not Phase.PLAY:
            return self._policy.choose(view)
        ranked = self.evaluate(view)
        even = view.phase in _EVEN_PHASES or (self._early_even(view) and not within_reach(view))
        if self.policy_even > 0 and even and len(ranked) > 1:
            usual = self._policy.choose(view)
            mine = next((e for e in ranked if e.action == usual), None)
            if mine is not None and (self._adjusted(ranked[0], view) - self._adjusted(mine, view)) \
                    <= self.policy_even * mine.stderr_vs_best * self._slope(view):
                return usual
        return ranked[0].action

    def _early_even(self, view: PlayerView) -> bool:
        """Whether ``policy_even`` holds for this game's truncated bids too (``early_even``, else
        the game's own: :data:`~euchre.bots.search_double.EARLY_EVEN`,
        :data:`~euchre.bots.search_napoleon.EARLY_EVEN`)."""
        if self.early_even is not None:
            return self.early_even
        return DOUBLE_EVEN if view.rules.double_deck else NAPOLEON_EVEN if view.rules.napoleon else True

    def evaluate(self, view: PlayerView, *, samples: int | None = None,
                 actions: list[Action] | None = None) -> list[Evaluation]:
        """Every legal action of the seat to act (or only ``actions``) with its expected points
        and utility, best first (ties keep the engine's action order). Without ``actions``,
        hopeless round-2 calls may be dropped after the first samples to save time."""
        seat = view.seat
        if seat is None or not view.legal_actions:
            raise ValueError("evaluate needs the view of the seat to act")
        legal = list(view.legal_actions) if actions is None else list(actions)
        prune = actions is None
        if prune and view.phase is Phase.DISCARD and view.trump is not None:
            legal = plausible_discards(legal, view.trump)  # (a hint, which names actions, values all six)
        bidding = view.phase is not Phase.PLAY
        fast = bidding and self.compiled_bids and compiled_covers(view)
        close = self.close_factor
        if samples is not None:
            count = samples
        elif view.rules.napoleon:
            count, close = self._napoleon_budget(view)
        elif view.rules.double_deck:  # (search_double: the last five tricks, the truncated rest)
            count = double_budget(view, self.samples, self.auction_samples)
            close = 1
        elif view.phase in _AUCTION_PHASES or (view.rules.bids_tricks and view.phase in _EXCHANGE_PHASES):
            count = self.auction_samples
            close = self.auction_close_factor
        elif bidding:
            count = self.bid_samples if fast else min(self.bid_samples, self.house_bid_samples)
        else:
            # (the first two tricks of the six-card games: each sample a solve of five or six cards a hand)
            count = self.wide_samples if view.rules.hand_size > 5 and len(view.hand) >= 5 else self.samples
        count = max(count, 1)
        self._redeal, self._redeals = None, 2 * count  # a misdeal's worth, once needed (_redeal_value)
        self._namings = None
        if fast:
            return self._evaluate_compiled(view, legal, count, prune)
        # A close bid may take more samples (up to ``close_factor`` times), a clear one stops at count.
        most = count * close if bidding and samples is None else count
        step = max(count // 2, 1)  # samples between two looks at whether the bid is still close
        acc = _Sums({a: [0.0, 0.0] for a in legal}, {})
        fits: dict[tuple[object, ...], Action | None] = {}  # the other side's plays, explained
        said: dict[tuple[object, ...], bool] = {}  # the other seats' bids, explained
        read_bids = (self.bids_in_play if not bidding and not self.infer_bids
                     and not (view.rules.napoleon or view.rules.double_deck or view.rules.bids_tricks) else None)
        # The dealer's hidden discard, read where the seat did not see it.
        bury = (self.infer_discard is not None and view.rules.sister_game is None and view.dealer_discarded
                and view.discard is None)
        candidates = legal
        # The card play's deals are dealt compiled where the rules allow (a Python deal was most of
        # the expert's card play: 60-200 us a deal); a bot reading the bids draws them by the bids.
        drawer = self._play_drawer(view, bury) if not bidding else None
        reads = drawer is not None and self.infer_bids
        misfit = self.bid_misfit if reads else 1.0
        drawn: _Drawn | None = _Drawn() if reads and self.control else None
        floor = max(self.bid_misfit, drawer.KEEP_FLOOR) if reads and drawer is not None else 1.0
        i = 0
        while i < most:
            if drawer is not None:
                sample, w = self._draw_by_bids(view, drawer, bury, drawn, floor, misfit)
            else:
                sample = self._resample(view, bury)
                w = self._bid_weight(sample, seat, self.bid_misfit, said) if self.infer_bids else 1.0
            if read_bids is not None:
                w *= self._bid_weight(sample, seat, read_bids, said)
            if self.infer_play is not None and not bidding and not (view.rules.napoleon or view.rules.double_deck):
                # (Napoleon, the double deck: not read; the heuristic's choices cost more than the solves.)
                if drawer is not None and drawer.kept is sample:  # (compiled, on the deal it drew)
                    w *= drawer.play_weight(self.infer_play, self.infer_partner)
                else:
                    w *= self._play_weight(sample, seat, self.infer_play, fits, self.infer_partner)
            self._number = i
            acc.add(self._values(sample, seat, candidates, view), w, tuple(sample.hands) if self.control else None)
            i += 1
            if prune and bidding and i == max(self.min_samples, count // 4):
                if view.phase is Phase.BID2:
                    candidates = self._prune(candidates, acc)
                elif view.phase in _AUCTION_PHASES:
                    candidates = self._prune_auction(candidates, acc, view)
                    self._namings = self._prune_namings(acc)
            if i >= count and (i - count) % step == 0 and i < most:
                ranked = self._finish(acc, candidates, view)
                if len(ranked) < 2 or self._gap(ranked, view) >= self.close_margin:
                    break
        if drawn is not None:
            return self._finish(acc, candidates, view, drawn.hands, drawn.chances)
        return self._finish(acc, candidates, view)

    def _resample(self, view: PlayerView, bury: bool) -> State:
        """One sampled deal for ``view`` (the dealer's hidden discard read with ``bury``)."""
        if bury:
            return view.resample(self._rng, bury=weakest_card, bury_misfit=self.infer_discard or 1.0,
                                 redraws=DISCARD_DRAWS)
        return view.resample(self._rng)

    def _play_drawer(self, view: PlayerView, bury: bool) -> PlayDrawer | None:
        """The compiled drawing of this card play's deals by the bids
        (:class:`euchre.fastbid.PlayDrawer`, seeded from this bot's generator), or ``None`` where
        it does not cover the rules (the Python weights then)."""
        from euchre import fastbid

        if not fastbid.play_covered(view):
            return None
        return fastbid.PlayDrawer(view, self._rng.getrandbits(64), bury_misfit=(self.infer_discard or 1.0) if bury
                                  else 1.0, redraws=DISCARD_DRAWS)

    def _draw_by_bids(self, view: PlayerView, drawer: PlayDrawer, bury: bool, drawn: _Drawn | None,
                      floor: float, misfit: float | None = None) -> tuple[State, float]:
        """A deal for the card play drawn by the other seats' bids, and its weight, as the
        bidding's compiled samples are drawn (:func:`euchre.fastbid._draw`): a deal with ``k`` bids
        the heuristic player would not have made is kept with chance ``max(m ** k, floor)``
        (``m``: ``bid_misfit``; ``floor``: at least :data:`euchre.fastbid.KEEP_FLOOR`) and weighs
        ``m ** k`` over that chance, so the kept deals stand for the deals :meth:`_bid_weight`
        weighs, with many more of them effective than weighing left (a deal that explains every
        bid weighs 1 and is drawn more often). Every deal drawn, kept or not, goes to ``drawn``
        with its chance: the control variate's features have the kept deals' mean there
        (:func:`euchre.bots.control.corrected`). ``misfit`` (default ``bid_misfit``) 1: the bids
        are not read, every deal is kept and weighs 1 (a bot that does not read them).

        The deals are drawn compiled (:meth:`euchre.fastbid.PlayDrawer.draw`: a few microseconds a
        draw, where a Python deal cost 60-200 us and a dealer's loner took 15 of them a kept deal);
        where the voids shown break every compiled deal tried, that deal in Python
        (:meth:`~euchre.view.PlayerView.resample`'s constrained fill), the same test and chances
        (and every deal after, once that happened :data:`euchre.fastbid.PlayDrawer.FAILS` times)."""
        if misfit is None:
            misfit = self.bid_misfit
        if not drawer.failed:
            got = drawer.draw(misfit, floor, None if drawn is None else drawn.hands,
                              None if drawn is None else drawn.chances)
            if got is not None:
                return got
        while True:
            sample = self._resample(view, bury)
            k = drawer.reader.surprises(sample) if misfit < 1.0 else 0
            keep = misfit ** k
            chance = max(keep, floor) if k else 1.0
            if drawn is not None:
                drawn.hands.append(tuple(sample.hands))
                drawn.chances.append(chance)
            if chance >= 1.0 or self._rng.random() < chance:
                return sample, keep / chance

    def _evaluate_compiled(self, view: PlayerView, candidates: list[Action], count: int,
                           prune: bool) -> list[Evaluation]:
        """:meth:`evaluate` of a decision before the play on ``count`` compiled samples
        (:mod:`euchre.fastbid`): the same values per deal as the Python loop and round 2's
        pruning after a quarter of the budget, the deals drawn by the compiled sampler from one seed
        this bot's generator gives. Every sample weighs 1 unless the bot reads the bidding
        (``infer_bids``: the deals are drawn by the bids, :func:`euchre.fastbid._draw`, and one
        that leaves two or more unexplained weighs less). A close bid
        is not sampled on (``close_factor``): the budget is already many times the Python path's
        most."""
        seed = self._rng.getrandbits(64)
        acc = _Sums({a: [0.0, 0.0] for a in candidates}, {})
        cut = max(self.min_samples, count // 4) if prune and view.phase is Phase.BID2 else count + 1
        for first, upto in ((0, min(cut, count)), (cut, count)):
            if upto > first:
                batch = self._compiled_batch(view, candidates, upto - first, seed, first)
                for values, hands, w in zip(batch.values, batch.hands, batch.weights.tolist(), strict=True):
                    acc.add(values, w, hands if self.control else None)
            if upto == cut:
                candidates = self._prune(candidates, acc)
        center = None
        if self.control and self.infer_bids and any(s != view.seat and a is not None and a.is_bid
                                                    for s, a in view.actions):
            # (the deals were drawn by the bidding: the control variate needs their features' means)
            center = [tuple(h) for h in self._compiled_pool(view, POOL_FACTOR * count, seed ^ POOL_SEED).tolist()]
        return self._finish(acc, candidates, view, center)

    def _compiled_pool(self, view: PlayerView, count: int, seed: int):  # -> numpy array (count x 4)
        """The hands at the view of ``count`` deals drawn as the compiled samples are, not valued
        (:func:`euchre.fastbid.pool_hands`)."""
        from euchre import fastbid

        return fastbid.pool_hands(self, view, count, seed)

    def _compiled_batch(self, view: PlayerView, candidates: list[Action], count: int, seed: int,
                        first: int) -> Samples:
        """Samples ``first`` to ``first + count`` of ``seed``, valued by :func:`euchre.fastbid.sample_values`."""
        from euchre import fastbid

        return fastbid.sample_values(self, view, candidates, count, seed, first=first)

    def _napoleon_budget(self, view: PlayerView) -> tuple[int, int]:
        """Napoleon: (samples, close factor) of this decision, the bot's own budgets scaled to the
        table (:func:`~euchre.bots.search_napoleon.napoleon_budget`)."""
        return napoleon_budget(view, self.samples, self.auction_samples)

    def _finish(self, acc: _Sums, candidates: list[Action], view: PlayerView,
                center: list[tuple[int, ...]] | None = None,
                center_weights: list[float] | None = None) -> list[Evaluation]:
        """The evaluations from the sums so far, best first (``acc`` is not changed); ``center``:
        the control variate's deals for the features' means (:func:`euchre.bots.control.corrected`)."""
        sums = {a: list(acc.sums[a]) for a in candidates}
        debt = dict.fromkeys(candidates, 0.0)  # margins owed by later calls (weighted points)
        slope = self._slope(view)
        choice: dict[tuple[Action, tuple[tuple[int, ...], int]], Action] = {}
        for (a, hist), group in acc.later.items():
            if a not in sums:
                continue
            # The seat will choose once for all the deals it cannot tell apart, as it does now.
            best = max(group, key=lambda b: group[b][1] - group[b][2] * self._margin(b, view) * slope)
            choice[(a, hist)] = best
            pts, util, w = group[best]
            sums[a][0] += pts
            sums[a][1] += util
            debt[a] += w * self._margin(best, view)
        rows = self._resolved(acc, candidates, choice)
        errors = self._stderrs(rows, candidates)
        out = []
        for a in candidates:
            pts, util = (x / acc.weight for x in sums[a])
            out.append(Evaluation(a, pts, util, acc.count, debt[a] / acc.weight, *errors[a]))
        if self.control and len(acc.hands) == acc.count:
            from euchre.bots.control import corrected

            out = corrected(out, view, acc.hands, rows, self._score_matters(view), center, center_weights)
        out.sort(key=lambda e: -self._adjusted(e, view))
        return out

    @staticmethod
    def _resolved(acc: _Sums, candidates: list[Action], choice: dict[tuple[Action, tuple[tuple[int, ...], int]], Action]
                  ) -> list[tuple[float, dict[Action, tuple[float, float]]]]:
        """Each sample's weight and (points, utility) per candidate, the seat's own later decisions
        taken as ``choice`` takes them (a later choice not valued on the sample: 0)."""
        out = []
        for w, values in acc.rows:
            got = {}
            for a in candidates:
                v = values[a]
                if isinstance(v, _Later):
                    b = choice.get((a, v.key))
                    got[a] = v.values[b] if b is not None and b in v.values else (0.0, 0.0)
                else:
                    got[a] = v
            out.append((w, got))
        return out

    @staticmethod
    def _stderrs(rows: list[tuple[float, dict[Action, tuple[float, float]]]],
                 candidates: list[Action]) -> dict[Action, tuple[float, float]]:
        """(standard error of the points, standard error of the difference to the action with the
        most points) per action, from each sample's points (weighted; the effective number of
        samples is ``(sum w)^2 / sum w^2``)."""
        per: dict[Action, list[float]] = {a: [values[a][0] for _, values in rows] for a in candidates}
        weights = [w for w, _ in rows]
        total = sum(weights)
        n_eff = total * total / max(sum(w * w for w in weights), 1e-300)

        def se(xs: list[float]) -> float:
            if len(xs) < 2 or n_eff <= 1.0:
                return 0.0
            mean = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
            var = sum(w * (x - mean) ** 2 for w, x in zip(weights, xs, strict=True)) / total
            return math.sqrt(var / (n_eff - 1))

        means = {a: sum(w * x for w, x in zip(weights, per[a], strict=True)) / total for a in candidates}
        top = max(candidates, key=lambda a: means[a])
        return {a: (se(per[a]), 0.0 if a == top else se([t - x for t, x in zip(per[top], per[a], strict=True)]))
                for a in candidates}

    def _gap(self, ranked: list[Evaluation], view: PlayerView) -> float:
        """How far (in points) the best action leads the next one, margins included."""
        return (self._adjusted(ranked[0], view) - self._adjusted(ranked[1], view)) / self._slope(view)

    def _adjusted(self, e: Evaluation, view: PlayerView) -> float:
        """The utility the choice is made on: bids and loners must clear a margin (in points,
        converted to utility near the current score)."""
        margin = self._margin(e.action, view) + e.later_margin
        if margin == 0.0:
            return e.utility
        return e.utility - margin * self._slope(view)

    def _margin(self, a: Action, view: PlayerView) -> float:
        """Points a bid must beat the alternatives by (see :data:`BID_MARGIN`; a bid of tricks:
        :data:`TRICK_BID_MARGIN` per trick; naming trump after an auction: none)."""
        margin = 0.0
        tricks = a.tricks
        if view.rules.napoleon:
            return self.napoleon_margin * napoleon_stake(a, view.rules.players)
        if a.kind is Kind.MOON:
            # Every trick, alone, for the moon's points either way: the stake of a bid of
            # ``moon_points`` tricks (0.6 points at 12), and no margin for going alone (the moon
            # has no version with the partner to beat).
            return self.trick_margin * view.rules.moon_points
        if tricks is not None:
            margin += self.trick_margin * tricks
        elif a.kind in _MAKING and view.phase is not Phase.JOKER and view.rules.has_up_card:
            margin += self.bid_margin
        if a.alone:
            margin += self.alone_margin
        return margin

    def _score_matters(self, view: PlayerView) -> bool:
        """Whether the bot values this hand by the chance of winning the game (a target, two
        sides, and a side within :data:`LATE` points of it) rather than by points."""
        target = view.rules.target
        return (self.score_aware and target is not None and view.rules.sides == 2
                and max(view.scores) >= target - LATE)

    def _slope(self, view: PlayerView) -> float:
        """Utility per point at the current score (1 when the bot counts points)."""
        target = view.rules.target
        if target is None or not self._score_matters(view):
            return 1.0
        me = view.side_of(view.seat)  # type: ignore[arg-type]
        mine, theirs = view.scores[me], view.scores[1 - me]
        up = win_probability(mine + 1, theirs, target) - win_probability(mine, theirs, target)
        down = win_probability(mine, theirs, target) - win_probability(mine, theirs + 1, target)
        return max((up + down) / 2, 1e-3) + self.tie_points

    def _prune(self, candidates: list[Action], acc: _Sums) -> list[Action]:
        """Round 2: after the first samples (a quarter of the budget) keep passing, the best call
        with the partner and its loner, and every other choice not clearly behind the best: within
        :data:`PRUNE_MARGIN` points or three standard errors of the difference (each candidate
        costs a solve per sample). Pruning after eight samples to the two best calls dropped the
        right call of a clear hand on some seeds (stick the dealer with Ac Kc Qc, clubs gone)."""
        errors = self._stderrs(self._resolved(acc, candidates, {}), candidates)
        means = {a: acc.sums[a][0] / acc.weight for a in candidates}
        top = max(means.values())
        calls = [a for a in candidates if a.kind is Kind.CALL]
        best = max(calls, key=lambda a: means[a]) if calls else None
        keep = [a for a in candidates
                if a == PASS or a == best or (best is not None and a.kind is Kind.CALL_ALONE and a.trump == best.trump)
                or top - means[a] <= max(PRUNE_MARGIN, 3 * errors[a][1])]
        return keep

    def _prune_auction(self, candidates: list[Action], acc: _Sums, view: PlayerView) -> list[Action]:
        """The auction games' bids and namings of trump, as :meth:`_prune` does round 2: after the
        first samples, drop the choices clearly behind the best (more than :data:`PRUNE_MARGIN`
        points and three standard errors of the difference), passing kept. Each choice there costs
        six-card solves per sample (a moon's own, every naming of trump a rollout may reach), and
        most are hopeless early: a moon on an ordinary hand, a suit the seat holds nothing of.
        The values are read as :meth:`_finish` makes them (a bid's worth includes the seat's own
        later naming of trump, chosen over the samples)."""
        ranked = self._finish(acc, candidates, view)
        top = max(e.points for e in ranked)
        best = ranked[0].action
        keep = {e.action for e in ranked
                if e.action == PASS or e.action == best or top - e.points <= max(PRUNE_MARGIN, 3 * e.stderr_vs_best)}
        return [a for a in candidates if a in keep]

    def _prune_namings(self, acc: _Sums) -> frozenset[Action] | None:
        """The auction games, at the prune point: the namings of trump worth solving in the rest
        of the samples' rollouts where the seat names trump itself (each naming a six-card solve
        per sample, up to six of them). A naming more than :data:`NAMING_PRUNE` points behind the
        best, on average over every such rollout so far, is dropped here and from the sums (so
        that every choice left in a group is summed over the same samples); the seat's cards
        decide its trump in almost every rollout alike."""
        totals: dict[Action, list[float]] = {}
        for group in acc.later.values():
            for b, (pts, _util, w) in group.items():
                if b.kind is Kind.CALL:
                    t = totals.setdefault(b, [0.0, 0.0])
                    t[0] += pts
                    t[1] += w
        means = {b: t[0] / t[1] for b, t in totals.items() if t[1] > 0}
        if len(means) < 2:
            return None
        top = max(means.values())
        drop = {b for b, m in means.items() if top - m > NAMING_PRUNE}
        if not drop:
            return None
        for group in acc.later.values():
            if any(b not in drop for b in group):
                for b in drop & group.keys():
                    del group[b]
        return frozenset(b for b in means if b not in drop)

    # --- valuing one sample -----------------------------------------------------------------
    def _values(self, sample: State, seat: int, actions: list[Action],
                view: PlayerView) -> dict[Action, tuple[float, float] | _Later]:
        """Points and utility of each action on one fully known sample (or, for a bid after
        which the seat decides again, the values of its choices there): a card within the
        solver's reach by the solver at once, any other choice pushed, the bidding played on (the
        seat's own later bids as :meth:`_later` says), then valued by :meth:`_value` (played on
        first to the solver's reach, if need be)."""
        out: dict[Action, tuple[float, float] | _Later] = {}
        self._solved = {}
        if sample.phase is Phase.PLAY and within_reach(view):
            if 2 < len(view.hand) <= self.late_fusion and not (view.rules.napoleon or view.rules.double_deck):
                return self._fused(sample, seat, actions, view)
            tricks = self._solver.action_outcomes(sample)
            for a in actions:
                out[a] = self._score(sample, sample.score_for(tricks[a]), seat, view)
            return out
        for a in actions:
            st = sample.copy(stack=False)
            st._push(a)
            while st.phase is not Phase.PLAY and not st.is_over:
                # (A farmer's next cards to give are given as the heuristic player gives them: the
                # three are one choice, whose cards the search can rarely tell apart.)
                if self.own_bids and st.to_act == seat and st.phase is not Phase.FARMER_GIVE \
                        and len(st.legal_actions()) > 1:
                    out[a] = self._later(st, seat, view)
                    break
                st._push(self._policy.choose(PlayerView.of(st, st.to_act)))
            else:
                out[a] = self._value(st, seat, view)
        return out

    def _fused(self, sample: State, seat: int, actions: list[Action],
               view: PlayerView) -> dict[Action, tuple[float, float] | _Later]:
        """A card's values on one sample with the seat's next choice of card left to be made once
        over the samples it cannot tell apart (``late_fusion``): the card pushed, every other
        seat playing on as the solver says is best on this sample (ties to the heuristic player's
        card), up to the seat's next card with a choice, whose cards are then each solved. The
        plays seen in between and the seat's cards there are the :class:`_Later` key, so
        :meth:`_finish` takes one card for all the samples that show the same plays, as the bot
        will: plain sampling credits the seat with the right guess on every sample (strategy
        fusion)."""
        from euchre.solver import maximises  # (numba: loaded only by the players that search)

        solver = self._solver
        out: dict[Action, tuple[float, float] | _Later] = {}
        for a in actions:
            st = sample.copy(stack=False)
            st._push(a)
            seen: list[int] = []
            while not st.is_over:
                legal = st.legal_actions()
                if st.to_act == seat:
                    if len(legal) > 1:
                        break
                    st._push(legal[0])
                    continue
                if len(legal) == 1:
                    b = legal[0]
                else:
                    values = solver.action_outcomes(st)
                    best = max(values.values()) if maximises(st) else min(values.values())
                    ties = [c for c in legal if values[c] == best]
                    b = ties[0]
                    if len(ties) > 1:
                        usual = self._policy.choose(PlayerView.of(st, st.to_act))
                        if usual in ties:
                            b = usual
                st._push(b)
                seen.append(int(b))
            if st.is_over:
                out[a] = self._score(st, st.points or (0,) * st.rules.sides, seat, view)
                continue
            tricks = solver.action_outcomes(st)
            later = {b: self._score(st, st.score_for(tricks[b]), seat, view) for b in tricks}
            out[a] = _Later(tuple(seen), later, st.hands[seat])
        return out

    def _hand_points(self, st: State) -> tuple[int, ...]:
        """The points of a hand whose bidding is over: as scored if it was thrown in, else as
        best play from here (the first lead, or the card just pushed) scores them.

        A position short of the solver's handover (:func:`handover`: the double deck before its
        last five tricks, Napoleon's first tricks at six and seven seats) is played on first, every
        seat by the heuristic player, until the handover (:meth:`_play_on`): the truncated search.

        A hand bid in tricks (``st.bid``: the auction games) is solved exactly from its first
        lead, once per position of the sample (trump, maker, leader, cards): the rollouts of
        different bids mostly reach the same few positions, told apart only by the bid, which
        changes the points and not the play. The double deck's truncated rollout from that first
        lead is kept with it (its heuristic play reads who made trump, never the bid), so the
        bids of 6 to 12 a seat wins share one rollout per naming of trump. Elsewhere the cheaper
        :meth:`~euchre.solver.Solver.outcome` is enough (Napoleon's: one threshold per bid, made
        or not, one null-window search)."""
        if st.is_over:
            return st.points or (0,) * st.rules.sides
        if st.bid > 0 and not st.rules.napoleon and not st.tricks and not st.trick:
            key = (st.trump, st.maker, st.to_act, st.out, tuple(st.hands))
            tricks = self._solved.get(key)
            if tricks is None:
                end = st if handover(st) else self._play_on(st)
                tricks = self._solved[key] = end.maker_tricks() if end.is_over else self._solver.solve(end)
            return st.score_for(tricks)
        if not handover(st):
            st = self._play_on(st)
            if st.is_over:
                return st.points or (0,) * st.rules.sides
        return st.score_for(self._solver.outcome(st))

    def _play_on(self, st: State, *, to_end: bool = False) -> State:
        """A copy of ``st`` played on by the heuristic player, every seat (the searching seat's
        own cards too), until the solver takes over (:func:`handover`) or, ``to_end``, the hand
        is over."""
        st = st.copy(stack=False)
        policy = self._policy
        while not st.is_over and (to_end or not handover(st)):
            st._push(policy.choose(PlayerView.of(st, st.to_act)))
        return st

    def _value(self, st: State, seat: int, view: PlayerView) -> tuple[float, float]:
        """(net points, utility) of a rollout whose bidding is over; a deal cancelled by a misdeal
        is worth what the deal that replaces it is (:meth:`_redeal_value`)."""
        if st.is_over and st.misdeal >= 0:
            return self._redeal_value(st, seat, view)
        if self._plays_out(st):
            end = self._play_on(st, to_end=True)
            return self._score(end, end.points or (0,) * end.rules.sides, seat, view)
        return self._score(st, self._hand_points(st), seat, view)

    def _plays_out(self, st: State) -> bool:
        """Whether this sample's hand, its bidding over, is valued by the heuristic player's play to
        its end rather than solved (``playout``: the share of the samples, picked by their number
        as :func:`euchre.fastbid.plays_out` picks them). The Euchre games only: the sister games'
        bids are in tricks and their search truncated."""
        if self.playout <= 0 or st.is_over or st.tricks or st.trick or st.rules.sister_game is not None:
            return False
        if st.alone and not self.playout_loners:
            return False
        from euchre import fastbid

        return bool(fastbid.plays_out(self._number, self.playout))

    def _redeal_value(self, st: State, seat: int, view: PlayerView) -> tuple[float, float]:
        """A misdeal (house rule ``ace_no_face``): the same dealer deals again (RULES-FAMILY.md
        12.4), so a choice that leads to one is valued as a bid is, on fresh deals by that dealer
        (drawn from the bot's generator: a function of the seed), bid by the heuristic player and
        solved from the first lead. What the redeal is worth depends on nothing the sample holds,
        so it is worked out once per evaluation, on twice as many fresh deals as it samples,
        and every choice that leads to a misdeal (this seat's or, after its keep, another's) is
        worth that mean: pairing a redeal with each sample would only add its noise to theirs."""
        if self._redeal is None:
            net = util = 0.0
            count = max(self._redeals, 1)
            for _ in range(count):
                new = State.random(st.rules, dealer=st.dealer, rng=self._rng, after_misdeal=True)
                while new.phase is not Phase.PLAY and not new.is_over:
                    new._push(self._policy.choose(PlayerView.of(new, new.to_act)))
                pts, u = self._score(new, self._hand_points(new), seat, view)
                net += pts
                util += u
            self._redeal = (net / count, util / count)
        return self._redeal

    def _later(self, st: State, seat: int, view: PlayerView) -> _Later:
        """The seat's own later decision in this sample's bidding (round 2 after passing round 1,
        the dealer's discard after picking up, the lone hand's discard after its call for best):
        every choice valued, for :meth:`evaluate` to pick the one best over all the samples that
        reach the same point, as the bot will then."""
        values: dict[Action, tuple[float, float]] = {}
        keep = self._namings if st.phase is Phase.NAME_TRUMP else None
        choices = st.legal_actions()
        if st.phase is Phase.DISCARD and st.trump is not None:
            choices = plausible_discards(choices, st.trump)
        for b in choices:
            if keep is not None and b not in keep:
                continue  # a hopeless naming of trump (_prune_namings)
            t = st.copy(stack=False)
            t._push(b)
            while t.phase is not Phase.PLAY and not t.is_over:
                t._push(self._policy.choose(PlayerView.of(t, t.to_act)))
            values[b] = self._value(t, seat, view)
        # What the seat knows of the bidding so far: every action but another seat's discard (and
        # what RULES-FAMILY.md 12.7 hides from it), and its cards.
        seen = tuple(-1 if a is None else int(a) for _, a in seat_actions(st, seat))
        return _Later(seen, values, st.hands[seat])

    def _score(self, state: State, pts: tuple[int, ...], seat: int,
               view: PlayerView) -> tuple[float, float]:
        """(net points, utility) of a hand's points for the seat's side."""
        rules = state.rules
        me = rules.side_of(seat)
        others = [p for s, p in enumerate(pts) if s != me]
        net = pts[me] - sum(others) / len(others)
        target = rules.target
        if target is not None and self._score_matters(view):
            mine = view.scores[me] + pts[me]
            theirs = view.scores[1 - me] + pts[1 - me]
            return net, win_probability(mine, theirs, target) + self.tie_points * net
        return net, net

    def _play_weight(self, sample: State, seat: int, misfit: float,
                     cache: dict[tuple[object, ...], Action | None], partner: float | None = None) -> float:
        """How well the sample explains the other side's card play: ``misfit`` for every card the
        heuristic player would not have played with the sampled hand (and the partner's, ``partner``
        a card, when given: ``infer_partner``). Those choices depend only
        on the hand (and the dealer's buried card), so ``cache`` keeps them across the samples of
        one decision, which share the history."""
        rules = sample.rules
        me = rules.side_of(seat)
        hist, seats = sample.history, sample.seats
        hands = sample.hands[:]
        back: State | None = None  # the sample, undone to the play being explained
        w = 1.0
        for i in range(len(hist) - 1, -1, -1):
            a = hist[i]
            if a.kind is not Kind.PLAY:
                break
            s = seats[i]
            hands[s] |= 1 << a.card  # type: ignore[operator]
            cost = misfit
            if rules.side_of(s) == me:
                if s == seat or partner is None:
                    continue
                cost = partner
            key = (i, s, hands[s], sample.discard if s == sample.dealer and sample.discard is not None else -1,
                   tuple(g.discard for g in sample.gifts if g.receiver == s),
                   sample.farmer_gave if s == sample.farmer else ())
            if key in cache:
                wanted = cache[key]
            else:
                if back is None:
                    back = sample.copy()
                while len(back.history) > i:
                    back.pop()
                wanted = (self._policy.choose(PlayerView.of(back, s))
                          if len(back.legal_actions()) > 1 else None)
                cache[key] = wanted
            if wanted is not None and wanted != a:
                w *= cost
        return max(w, 1e-9)

    def _bid_weight(self, sample: State, seat: int, misfit: float,
                    cache: dict[tuple[object, ...], bool]) -> float:
        """How well the sample explains the other seats' bids (``infer_bids``, with :data:`MISFIT`;
        ``bids_in_play``, during the play only): ``misfit`` for every bid the heuristic player would
        not have made with the sampled hand. A bid depends only on the bidder's dealt hand (the
        history and the up card are the view's; under the farmer's hand the stock too), so
        ``cache`` keeps each answer across the samples of one decision."""
        deal = sample.deal
        replay: State | None = None
        w = 1.0
        for i, (s, a) in enumerate(zip(sample.seats, sample.history, strict=True)):
            if not a.is_bid:
                if a.kind is Kind.PLAY:
                    break
                continue
            if s == seat:
                continue
            # (The farmer's hand: an exchange before the bids draws on the stock.)
            key = (i, s, deal.hands[s], deal.stock if sample.rules.farmers_hand else ())
            fits = cache.get(key)
            if fits is None:
                if replay is None:
                    replay = State.from_deal(sample.rules, deal)
                while len(replay.history) < i:
                    replay._push(sample.history[len(replay.history)])
                legal = replay.legal_actions()
                fits = cache[key] = len(legal) < 2 or self._policy.choose(PlayerView.of(replay, s)) == a
            if not fits:
                w *= misfit
        return max(w, 1e-9)
