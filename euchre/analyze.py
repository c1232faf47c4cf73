"""Game review: how many expected points each decision of a recorded game gave away.

Every decision with a real choice (more than one legal action) is put to :func:`euchre.hints.hint`
(the search bot behind the terminal's and the browser's hints) from the deciding seat's own
view, exactly as the seat saw the table then: each legal action gets its expected points for
the seat's side this hand (bidding followed by sound play, see :mod:`euchre.bots.search`), and
the decision's *loss* is the best action's expectation minus the chosen one's. Summed per player
it is the Euchre counterpart of a chess engine's game review.
Points, not the chance of winning the game, are the unit, so losses add up across hands and
read the same at any score.

The estimate is a sample, so tiny losses are noise: :data:`NOISE` points and less are reported as
0 (``mistake`` needs at least :data:`MISTAKE`). The evaluations use fixed seeds and budgets of
sampled deals (never of time), so a review of the same record is the same every time and on every
machine.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import TimeoutError as PoolTimeout
from typing import Any

from euchre.actions import Action
from euchre.describe import action_words
from euchre.game import Game
from euchre.hints import Hint, hint, searchable
from euchre.pool import process_pool
from euchre.state import Phase, State
from euchre.view import PlayerView

__all__ = ["Decision", "Review", "analyze_game", "analyze_games", "NOISE", "MISTAKE", "BLUNDER"]

NOISE = 0.05
"""Losses up to this many expected points are within sampling noise and count as 0."""
MISTAKE = 0.25
BLUNDER = 1.0


@dataclass(frozen=True)
class Decision:
    """One decision of the game with its review."""

    hand: int
    """Index of the hand in the game (0 = first)."""
    number: int
    """Index of the action within the hand."""
    seat: int
    phase: Phase
    action: Action
    words: str
    """The action in words, from the seat's point of view."""
    best: Action
    best_words: str
    loss: float
    """Expected points the choice gave away against the best one (0 when it was the best)."""
    evaluations: tuple[Hint, ...]

    @property
    def mark(self) -> str:
        """``??`` for a blunder, ``?`` for a mistake, ``?!`` for an inaccuracy, else empty."""
        if self.loss >= BLUNDER:
            return "??"
        if self.loss >= MISTAKE:
            return "?"
        if self.loss > NOISE:
            return "?!"
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand, "number": self.number, "seat": self.seat, "phase": self.phase.name.lower(),
            "action": str(self.action), "words": self.words, "best": str(self.best),
            "best_words": self.best_words, "loss": round(self.loss, 3), "mark": self.mark,
            "options": [{"action": str(e.action), "points": round(e.points, 3), "stderr": round(e.stderr, 3)}
                        for e in self.evaluations],
        }


@dataclass
class Review:
    """Every reviewed decision of a game and the totals per seat."""

    players: list[str]
    decisions: list[Decision] = field(default_factory=list)
    unreviewed: int = 0
    """Decisions with a choice that the search does not play, so not reviewed
    (:func:`euchre.hints.searchable`): none in any game now (the double deck before its last five
    tricks and Napoleon's bids and first trick at six and seven seats are searched by truncated
    rollouts); kept for a game the search may not play yet."""

    def seat_totals(self) -> list[dict[str, Any]]:
        """Per seat: decisions reviewed, expected points lost, loss per decision, inaccuracies,
        mistakes and blunders."""
        out = []
        for seat, name in enumerate(self.players):
            mine = [d for d in self.decisions if d.seat == seat]
            lost = sum(d.loss for d in mine)
            out.append({
                "seat": seat, "player": name, "decisions": len(mine), "points_lost": round(lost, 3),
                "per_decision": round(lost / len(mine), 4) if mine else 0.0,
                "inaccuracies": sum(d.mark == "?!" for d in mine),
                "mistakes": sum(d.mark == "?" for d in mine),
                "blunders": sum(d.mark == "??" for d in mine),
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "seats": self.seat_totals(),
                "decisions": [d.to_dict() for d in self.decisions], "unreviewed": self.unreviewed}


def _decisions(game: Game) -> Iterator[tuple[int, int, State]]:
    """Each decision point of the game: (hand index, action index, the hand just before it)."""
    for hi, hand in enumerate(game.hands):
        state = State.from_deal(hand.rules, hand.deal)
        for ai, action in enumerate(hand.history):
            yield hi, ai, state
            state.push(action)


def count_decisions(game: Game) -> int:
    """How many decisions :func:`analyze_game` reviews (those with more than one legal action)."""
    return sum(1 for _, _, s in _decisions(game) if len(s.legal_actions()) > 1)


def analyze_game(game: Game, *, players: list[str] | None = None, samples: int = 48,
                 bid_samples: int = 32, seed: int = 0,
                 progress: Callable[[], None] | None = None, jobs: int = 1) -> Review:
    """Review every real decision of ``game`` (see the module docstring). ``samples`` and
    ``bid_samples`` set the search budget per decision (``bid_samples`` also per bid and naming
    of trump in the auction games); ``progress`` is called after each. ``jobs`` processes share
    the decisions: each decision's evaluation depends only on its view and its seed, so the
    review is the same for any number."""
    return analyze_games([(game, players)], samples=samples, bid_samples=bid_samples, seed=seed,
                         progress=progress, jobs=jobs)[0]


def analyze_games(games: Sequence[tuple[Game, list[str] | None]], *, samples: int = 48,
                  bid_samples: int = 32, seed: int = 0,
                  progress: Callable[[], None] | None = None, jobs: int = 1) -> list[Review]:
    """:func:`analyze_game` of each ``(game, players)`` of a match, in order, the games' decisions
    sharing one set of ``jobs`` processes (started once for the match, not once a game). Each
    review is the one :func:`analyze_game` gives its game alone."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs!r}")
    plans = [_plan(game, players, samples, bid_samples, seed) for game, players in games]
    results = _evaluations([task for _, _, tasks in plans for task in tasks], jobs)
    try:
        return [_review(game, review, points, results, progress)
                for (game, _), (review, points, _) in zip(games, plans, strict=True)]
    finally:
        results.close()  # the workers end here, not whenever the generator is collected


_Point = tuple[int, int, int, Phase, PlayerView] | None
"""A decision to review (its hand, its number in the hand, the seat, the phase and the view), or
``None`` for one the search does not play."""


def _plan(game: Game, players: list[str] | None, samples: int, bid_samples: int,
          seed: int) -> tuple[Review, list[_Point], list[_Task]]:
    """The game's empty review, its decisions and what to evaluate for them."""
    n = game.rules.players
    review = Review(players=list(players) if players else [f"seat {s}" for s in range(n)])
    points: list[_Point] = []
    tasks: list[_Task] = []
    for hi, ai, state in _decisions(game):
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        seat = state.to_act
        view = PlayerView.of(state, seat)
        if not searchable(view):
            points.append(None)
            continue
        points.append((hi, ai, seat, state.phase, view))
        tasks.append((view, seed * 1_000_003 + hi * 1009 + ai, samples, bid_samples, legal))
    return review, points, tasks


def _review(game: Game, review: Review, points: list[_Point], results: Iterator[tuple[Hint, ...]],
            progress: Callable[[], None] | None) -> Review:
    """``review`` filled in, decision by decision, from the next of ``results``."""
    for point in points:
        if point is None:
            review.unreviewed += 1
        else:
            hi, ai, seat, phase, view = point
            evaluations = next(results)
            chosen = game.hands[hi].history[ai]
            best = evaluations[0]
            mine = next(e for e in evaluations if e.action == chosen)
            loss = best.points - mine.points
            review.decisions.append(Decision(
                hand=hi, number=ai, seat=seat, phase=phase,
                action=chosen, words=action_words(chosen, view), best=best.action,
                best_words=action_words(best.action, view), loss=loss if loss > NOISE else 0.0,
                evaluations=evaluations,
            ))
        if progress is not None:
            progress()
    return review


_Task = tuple[PlayerView, int, int, int, list[Action]]
"""One decision to evaluate: the seat's view, the seed, the two budgets and the legal actions."""


def _evaluate(task: _Task) -> tuple[Hint, ...]:
    view, seed, samples, bid_samples, legal = task
    return tuple(hint(view, seed, samples=samples, bid_samples=bid_samples, auction_samples=bid_samples,
                      actions=legal))


def _evaluations(tasks: list[_Task], jobs: int) -> Generator[tuple[Hint, ...], None, None]:
    """Each task's evaluations, in order, worked out lazily here or on ``jobs`` processes."""
    if jobs == 1 or len(tasks) < 2:
        yield from map(_evaluate, tasks)
        return
    with process_pool(min(jobs, len(tasks))) as (pool, interrupted):
        results = pool.imap(_evaluate, tasks)
        for _ in tasks:
            while True:
                interrupted()
                try:
                    yield results.next(0.1)
                    break
                except PoolTimeout:
                    continue
