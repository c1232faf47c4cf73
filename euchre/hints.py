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
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from euchre.actions import Action
from euchre.view import PlayerView

__all__ = ["Hint", "hint", "hintable", "position_seed", "HINT_SAMPLES", "HINT_BID_SAMPLES", "EVEN_Z"]

HINT_SAMPLES = 1200
"""Sampled deals per card-play hint (each is one exact solve of the rest of the hand)."""
HINT_BID_SAMPLES = 600
"""Sampled deals per bidding hint (each costs a whole-hand solve per choice)."""
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
    """Whether :func:`hint` can advise this view: every position can be, the house rules' too (a
    call for best, the offers, a farmer's exchange: the sampling covers what they hide,
    :meth:`~euchre.view.PlayerView.resample`). Kept for the callers that ask; whether the seat is
    to act is :func:`hint`'s own check."""
    return True


def hint(view: PlayerView, seed: int | None = None, *, samples: int = HINT_SAMPLES,
         bid_samples: int = HINT_BID_SAMPLES, actions: list[Action] | None = None) -> list[Hint]:
    """Every legal action of the seat to act (or only ``actions``) with its expected points, best
    first; ``seed`` defaults to :func:`position_seed`. ``samples`` and ``bid_samples`` set the
    budget (sampled deals per card play and per bid). Raises ``ValueError`` for a view whose seat
    is not to act."""
    from euchre.bots.search import SearchBot  # the solver (numba) loads only when advice is asked

    if view.seat is None or not view.legal_actions:
        raise ValueError("a hint needs the view of the seat to act")
    bot = SearchBot(seed=position_seed(view) if seed is None else seed, samples=samples, bid_samples=bid_samples,
                    score_aware=False, bid_margin=0.0, alone_margin=0.0, close_factor=1)
    legal = list(view.legal_actions) if actions is None else list(actions)
    evals = sorted(bot.evaluate(view, actions=legal), key=lambda e: -e.points)
    best = evals[0].points
    return [Hint(e.action, e.points, e.stderr, best - e.points, e.stderr_vs_best, e.samples) for e in evals]
