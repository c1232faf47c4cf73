"""Hints: every choice of the seat to act with the points the strongest bot expects from it.

This is the one entry point for advice: the terminal's ``hint``, the server's Hint button and
game review (:mod:`euchre.analyze`) all call :func:`hint`, so they agree. A hint is repeatable:
it is a function of the view and the seed, and without a seed the seed is taken from the
position itself (:func:`position_seed`), so asking twice, in the terminal, in the browser, or on
another machine, gives the same answer. Nothing depends on the clock.

A hint is an estimate from sampled deals, and says how sure it is: each :class:`Hint` carries the
standard error of its expected points and of its difference to the best choice, and a choice whose
difference to the best is inside the uncertainty is flagged ``about_even`` rather than ranked as if
it were worse. ``bench/hints.py`` measures how far another seed moves a hint's numbers.

A hint takes more deals than a computer player's decision (:data:`HINT_SAMPLES`,
:data:`HINT_BID_SAMPLES`). A bid's deals (a discard's, a take's, a lone defence's: every decision
before the play) are dealt and valued by compiled code (:mod:`euchre.fastbid`): each deal gets
exactly the values the search bot's Python path (``SearchBot._values``) gives it, at about a
quarter of the cost (and the solver's search got cheaper), so a bid hint affords 6,000 deals in
1.2 to 1.5 times what 800 took (about a second on one core; two to three where the bids are read:
the deals they leave likely, with a strong maker, take longer to solve); the deals are drawn by the compiled
sampler from a seed the hint's seed gives, so the numbers differ from the Python path's for the
same seed, from the same distribution. Where it does not cover the
rules (the house rules' calls for best and offers, see :func:`euchre.fastbid.covered`) the
Python path values the deals, at most :data:`HINT_HOUSE_BID_SAMPLES` of them.

A hint reads the bidding (``read_bids``, the Euchre games): its deals are the ones the other
seats' bids left likely, read with the heuristic player's model of a bid (:data:`HINT_MISFIT`
before the play, where :mod:`euchre.fastbid` draws the deals by the bids, :data:`HINT_PLAY_MISFIT`
where they are weighed: the card play, the house rules' bids; the first two tricks take
:data:`READ_FACTOR` times the card deals). A hint's points are what the seat can expect, and a
partner's order up says it holds trumps: unread, the dealer was told to expect about a point less
than the real deals gave, whatever it discarded (``bench/hint_calibration.py``). It reads the
dealer's hidden discard too, as the search bot does (``infer_discard``: a dealer keeps its trumps).

A hint removes part of the sampling noise with a control variate (``control``, the module
:mod:`euchre.bots.control`): where each unseen card lies. Cards the seat cannot tell apart (of one
suit as trump makes suits, or every unseen card before any play) are exchangeable in the sampling,
so "this seat holds this card" minus the share of its group the seat holds has mean zero exactly;
each action's points are regressed on those features over the sampled deals and the part they
explain (who holds the bowers, how the trumps split) is taken out; before the play, when every
unseen card is exchangeable, the square of how many cards of each suit a seat holds
(hypergeometric) too. The estimate is the same in expectation; at the same budget
``bench/hints.py`` measured the 95th percentile move between two seeds at 0.088 instead of 0.129
(bench/README.md), and with today's budgets at 0.036 (interval 0.034-0.041: issue 14's goal of
0.05 met). It is not used under the house rules (their sampling weighs hidden choices, so the
cards are not exchangeable) nor on too few deals (:data:`~euchre.bots.control.CONTROL_MIN`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from euchre.actions import Action
from euchre.bots.search import SearchBot, compiled_covers, searches, within_reach
from euchre.errors import IllegalActionError, RulesError
from euchre.state import Phase
from euchre.view import PlayerView

if TYPE_CHECKING:
    from euchre.fastbid import Samples

__all__ = ["Hint", "hint", "hintable", "default_threads", "searchable", "position_seed", "HINT_SAMPLES",
           "HINT_BID_SAMPLES", "HINT_HOUSE_BID_SAMPLES", "HINT_SISTER_SAMPLES", "HINT_AUCTION_SAMPLES", "LATE_FACTOR",
           "EVEN_Z", "HINT_MISFIT", "HINT_PLAY_MISFIT", "READ_FACTOR"]


def default_threads() -> int:
    """Threads a hint's compiled deals are split among by default where a person waits for it (the
    terminal's hints, the server's): two, or one on a one-core machine. A bid hint then comes in a
    little over half the time (about 1.0 s instead of 1.9 s for a round-1 bid on this project's
    machine) with exactly the same numbers; not every core, so that one hint leaves the rest of
    a bigger machine to the computer players."""
    return min(2, os.cpu_count() or 1)


HINT_SAMPLES = 4800
"""Sampled deals per card-play hint (each is one exact solve of the rest of the hand)."""
HINT_BID_SAMPLES = 6000
"""Sampled deals per bidding hint (each costs a whole-hand solve per choice), valued by the
compiled samples (:mod:`euchre.fastbid`: about 0.2 ms a deal on one core)."""
HINT_HOUSE_BID_SAMPLES = 800
"""At most this many sampled deals per bidding hint that :mod:`euchre.fastbid` does not cover
(the house rules: call for best, the offers, the farmer's hand): those deals are valued in
Python, about 1.5 ms each."""
HINT_SISTER_SAMPLES = 2400
"""At most this many sampled deals per card-play hint in the sister games (before each game's own
scaling: the double deck's and Napoleon's shares of the bot's budget): their deals cost several
times a Euchre deal (six-card solves, the double deck's truncated rollouts, up to seven seats), and
:data:`HINT_SAMPLES` was raised for Euchre's card play once the solver got faster, which would have
doubled their hints (a double-deck hint at its third trick already took 4 s at 2,400)."""
HINT_AUCTION_SAMPLES = 200
"""Sampled deals per hint in the auction games' bidding (Hasenpfeffer: a bid's rollouts end in up
to four namings of trump, each a six-card solve; a few seconds a hint)."""
LATE_TRICKS = 2
LATE_FACTOR = 2
"""A card play after :data:`LATE_TRICKS` tricks takes this many times the card samples: its deals
are solved three to four times faster, and the reading of the card play (which weighs the deals)
leaves fewer of them effective (9,600 deals). Not the double deck's before its last five tricks:
its truncated search's rollouts (:func:`euchre.bots.search.within_reach`) are no cheaper then (a
hint at its third trick took 4 s with it)."""
HINT_MISFIT = 0.05
"""Where the deals are drawn by the bidding, compiled (a bid or discard valued by
:mod:`euchre.fastbid`, and the card play of the games its :class:`~euchre.fastbid.PlayDrawer`
covers): the weight of a sampled deal for each other seat's bid that the heuristic player would
not have made with the deal's cards (the search bot's ``infer_bids``, sharper than its
:data:`~euchre.bots.search.MISFIT`). A hint's points are what the seat can expect, so its deals must be the
ones the bidding left likely: unread, a dealer whose partner had ordered up was told to expect
about -1.1 points for every discard, a point below the solved value of the real deals
(bench/README.md, ``bench/hint_calibration.py``)."""
HINT_PLAY_MISFIT = 0.2
"""The same where the deals are weighed, not drawn by the bids (the Python path: the house rules'
decisions that :mod:`euchre.fastbid` does not cover): sharper, the weights left too few effective
deals for the hint's stability (issue 14). The card play of the covered games was read so too
until its deals were drawn: that left the other side's maker 0.30 trumps short in the samples, and
the hints' points there 0.4 too high (bench/README.md, ``hint_calibration.py``)."""
READ_FACTOR = 1.5
"""A card play of the first :data:`LATE_TRICKS` tricks read by the bids takes this many times the
card samples (7,200 deals): the bids' weights leave fewer of the deals effective (a deal that
leaves two bids unexplained weighs a twentieth), and the early play was the hints' least stable
phase before the play was drawn by the bids. At 1.0, with the deals drawn only where that cost
few draws, the early play's 95th percentile move was 0.077 against 0.061 (seed 47)."""
EVEN_Z = 2.0
"""A choice is about even with the best when its shortfall is within this many standard errors
of the difference (about a 95% interval)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One choice as the adviser sees it."""

    action: Action
    points: float
    """Expected points of the seat's side minus the others' for this hand, with good play after."""
    stderr: float
    """Standard error of ``points`` (from the sampling)."""
    shortfall: float
    """Points less than the best choice (0 for the best)."""
    shortfall_stderr: float
    """Standard error of ``shortfall`` (the same deals value every choice, so it is smaller than
    the two standard errors together)."""
    samples: int

    @property
    def about_even(self) -> bool:
        """Whether the search cannot tell this choice from the best (the best itself included)."""
        return self.shortfall <= EVEN_Z * self.shortfall_stderr or self.shortfall < 1e-9


def position_seed(view: PlayerView) -> int:
    """A seed from what the seat sees (the rules, its cards, the bidding, the play, the score), the
    same in every process and on every machine: the seed of a hint asked without one."""
    facts: tuple[object, ...] = (view.rules, view.seat, view.dealer, view.hand, view.up_card, view.up_card_taken,
                                 view.discard, view.actions, view.trick, view.tricks, view.scores, view.hand_number)
    house = (view.gifts, view.misdeal, view.misdeal_hand, view.farmer, view.farmer_gave, view.farmer_took)
    if house != ((), -1, (), -1, (), ()):  # what the house rules show (an ordinary hand's seed is as it was)
        facts += house
    key = repr(facts)
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def hintable(view: PlayerView) -> bool:
    """Whether the tables offer hints for this view (the server's Hint button, :mod:`euchre.server`):
    wherever :func:`hint` advises (:func:`searchable`: every game and position now, the house
    rules' too, a call for best, the offers, a farmer's exchange, whose sampling covers what they
    hide; the double deck's and Napoleon's at six and seven seats by truncated search)."""
    return searchable(view)


def searchable(view: PlayerView) -> bool:
    """Whether :func:`hint` can advise this view: wherever the search bot searches
    (:func:`euchre.bots.search.searches`), which is every game and position: Napoleon on the
    search bot's Napoleon budgets (:mod:`euchre.bots.search_napoleon`), the double deck before its
    last five tricks and Napoleon's bids and first trick at six and seven seats by truncated
    search (each choice played on by the heuristic to the solver's reach, then solved:
    :mod:`euchre.bots.search_double`, :mod:`euchre.bots.search_napoleon`). Whether the seat is to
    act is :func:`hint`'s own check."""
    return searches(view)


class _HintBot(SearchBot):
    """The search bot as a hint uses it: the control variate on unless ``control`` is false
    (:mod:`euchre.bots.control`), a bid's compiled samples on ``threads`` threads, the bidding read
    with :data:`HINT_MISFIT` (when ``infer_bids``)."""

    def __init__(self, *args: object, control: bool = True, compiled: bool = True, threads: int = 1,
                 **kw: object) -> None:
        super().__init__(*args, compiled_bids=compiled, control=control, **kw)  # type: ignore[arg-type,misc]
        self.threads = threads

    def _compiled_batch(self, view: PlayerView, candidates: list[Action], count: int, seed: int,
                        first: int) -> Samples:
        """The compiled samples (:mod:`euchre.fastbid`) on ``threads`` threads."""
        from euchre import fastbid

        return fastbid.sample_values(self, view, candidates, count, seed, first=first, threads=self.threads)

    def _compiled_pool(self, view: PlayerView, count: int, seed: int):  # -> numpy array (count x 4)
        """The control variate's deals (:func:`euchre.fastbid.pool_hands`) on ``threads`` threads."""
        from euchre import fastbid

        return fastbid.pool_hands(self, view, count, seed, threads=self.threads)


def _drawn_by_bids(view: PlayerView) -> bool:
    """Whether a hint's deals here are drawn by the bids (compiled), not weighed by them: a bid
    valued by :mod:`euchre.fastbid`, or a card play whose rules it covers (its
    :class:`~euchre.fastbid.PlayDrawer`)."""
    if view.phase is Phase.PLAY:
        from euchre import fastbid

        return fastbid.play_covered(view)
    return compiled_covers(view)


def hint(view: PlayerView, seed: int | None = None, *, samples: int = HINT_SAMPLES,
         bid_samples: int = HINT_BID_SAMPLES, actions: list[Action] | None = None,
         control: bool = True, auction_samples: int = HINT_AUCTION_SAMPLES, threads: int = 1,
         house_bid_samples: int = HINT_HOUSE_BID_SAMPLES, read_bids: bool = True) -> list[Hint]:
    """Every legal action of the seat to act (or only ``actions``) with its expected points, best
    first; ``seed`` defaults to :func:`position_seed`. ``samples`` and ``bid_samples`` set the
    budget (sampled deals per card play, :data:`LATE_FACTOR` times as many late in the hand, and
    per bid, but at most ``house_bid_samples`` per bid that :mod:`euchre.fastbid` does not cover;
    ``auction_samples`` per bid or naming of trump in the auction games); ``control``:
    the control variate (see the module docstring); ``threads``: the threads a bid's compiled
    samples are split among (:mod:`euchre.fastbid`; the hint is the same for any number);
    ``read_bids``: weigh the deals by the other seats' bids (:data:`HINT_MISFIT`; the Euchre games,
    not the sister games, whose bidders the heuristic player's model does not describe). Raises
    ``ValueError`` for a view whose seat is not to act, :class:`~euchre.errors.IllegalActionError`
    for ``actions`` that are empty or not all legal there."""
    if view.seat is None or not view.legal_actions:
        raise ValueError("a hint needs the view of the seat to act")
    if not searchable(view):  # (nowhere now: kept for a game the search does not play yet)
        raise RulesError(f"Rules: hints do not advise {view.phase.name.lower()} in this game yet")
    if view.rules.sister_game is not None:
        samples = min(samples, HINT_SISTER_SAMPLES)
    reads = read_bids and view.rules.sister_game is None
    bot = _HintBot(seed=position_seed(view) if seed is None else seed, samples=samples, bid_samples=bid_samples,
                   score_aware=False, bid_margin=0.0, alone_margin=0.0, trick_margin=0.0, close_factor=1,
                   auction_close_factor=1, wide_samples=samples, control=control,
                   auction_samples=auction_samples, threads=threads, house_bid_samples=house_bid_samples,
                   infer_bids=reads, bid_misfit=HINT_MISFIT if reads and _drawn_by_bids(view) else HINT_PLAY_MISFIT)
    legal = list(view.legal_actions) if actions is None else list(actions)
    if actions is not None:
        wrong = [a for a in legal if a not in view.legal_actions]
        if not legal or wrong:
            raise IllegalActionError(
                (f"{', '.join(map(str, wrong))} {'is' if len(wrong) == 1 else 'are'} not legal now" if wrong
                 else "no actions to hint") + f"; the legal actions: {', '.join(map(str, view.legal_actions))}")
    if view.phase.name == "PLAY" and len(view.tricks) >= LATE_TRICKS and within_reach(view):
        bot.samples = samples * LATE_FACTOR  # (not the truncated search's: its rollouts cost as much late)
    elif view.phase.name == "PLAY" and bot.infer_bids:
        bot.samples = int(samples * READ_FACTOR)
    evals = sorted(bot.evaluate(view, actions=legal), key=lambda e: -e.points)
    best = evals[0].points
    return [Hint(e.action, e.points, e.stderr, best - e.points, e.stderr_vs_best, e.samples) for e in evals]
