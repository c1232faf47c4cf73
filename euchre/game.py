"""A whole game: hands in sequence, the dealer passing left, the score, and the end of the game.

:class:`Game` owns a list of hand :class:`~euchre.state.State` objects (the last one is being
played). Deals are seeded per hand from the game's seed, so the same seed and the same actions
give the same game byte for byte, and undo across a hand boundary needs no saved RNG state.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from euchre.actions import Action
from euchre.errors import IllegalActionError
from euchre.rules import Rules
from euchre.state import Deal, State

if TYPE_CHECKING:
    from euchre.view import PlayerView

__all__ = ["Game"]

Clock = Callable[[], float]


class Game:
    """A game of Euchre under some :class:`Rules`.

    >>> g = Game(Rules(), seed=7)
    >>> g.state.phase.name
    'BID1'

    ``clock`` returns seconds (any origin); it is read when the game starts and at the end of
    every hand, and only matters to timed games. Tests and replays inject their own.
    ``deals`` gives explicit deals for the first hands (records, tests, duplicate play); later
    hands are shuffled from the seed. ``scores`` starts the game from a given score.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        clock: Clock | None = None,
        deals: Sequence[Deal] | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.seed = seed if seed is not None else secrets.randbelow(2**63)
        n = self.rules.players
        if dealer is None:
            dealer = deals[0].dealer if deals else random.Random(f"{self.seed}/dealer").randrange(n)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.first_dealer = dealer
        self.clock: Clock = clock or time.monotonic
        self._start = self.clock()
        self._given: list[Deal] = list(deals or [])
        if scores is not None and len(scores) != self.rules.sides:
            raise ValueError(f"scores must give {self.rules.sides} sides, got {list(scores)}")
        self.initial_scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * self.rules.sides
        """The score before the first hand (a game recorded from the middle, or a handicap)."""
        self.scores: list[int] = list(self.initial_scores)
        self.elapsed: list[float] = []
        """Seconds since the start, read at the end of each finished hand."""
        self.hands: list[State] = [self._new_hand(0, dealer)]
        self.winners: tuple[int, ...] = ()

    # --- hands ----------------------------------------------------------------------------------
    def _new_hand(self, index: int, dealer: int) -> State:
        if index < len(self._given):
            deal = self._given[index]
            if deal.dealer != dealer:
                raise ValueError(f"deal {index} is dealt by seat {deal.dealer}, but seat {dealer} deals")
            return State.from_deal(self.rules, deal)
        return State.random(self.rules, dealer=dealer, rng=random.Random(f"{self.seed}/{index}"))

    @property
    def state(self) -> State:
        """The hand being played (or the last one, when the game is over)."""
        return self.hands[-1]

    @property
    def is_over(self) -> bool:
        """The game has a winner (or, with ``tie_break=False``, tied winners)."""
        return bool(self.winners)

    @property
    def winner(self) -> int | None:
        """The winning side, or ``None`` while playing or after a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the game is over."""
        return -1 if self.is_over else self.state.to_act

    @property
    def played_hands(self) -> int:
        """Finished hands that were played (not thrown in)."""
        return sum(1 for h in self.hands if h.is_over and not h.thrown_in)

    def score_sheet(self) -> list[tuple[int, State, tuple[int, ...]]]:
        """Every finished hand, in order, with the score after it: ``(index, hand, scores)``
        (the score sheet the terminal and the browser show)."""
        out = []
        running = self.initial_scores
        for i, h in enumerate(self.hands):
            if h.is_over and h.points is not None:
                running = tuple(a + b for a, b in zip(running, h.points, strict=True))
                out.append((i, h, running))
        return out

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act; empty when the game is over."""
        return [] if self.is_over else self.state.legal_actions()

    # --- applying -------------------------------------------------------------------------------
    def push(self, action: Action | int | str) -> Action:
        """Validate and apply an action; when it ends a hand, score it and deal the next one
        (unless the game is over). Bad input raises and changes nothing."""
        if self.is_over:
            raise IllegalActionError("the game is over; no action is possible")
        a = self.state.push(action)
        if self.state.is_over:
            self._end_hand()
        return a

    def _push(self, action: Action) -> None:
        """Apply a known-legal action without validation."""
        self.state._push(action)
        if self.state.is_over:
            self._end_hand()

    def _end_hand(self) -> None:
        hand = self.state
        assert hand.points is not None
        for side, p in enumerate(hand.points):
            self.scores[side] += p
        self.elapsed.append(self.clock() - self._start)
        self.winners = self._decide()
        if not self.winners:
            self.hands.append(self._new_hand(len(self.hands), (hand.dealer + 1) % self.rules.players))

    def _decide(self) -> tuple[int, ...]:
        r = self.rules
        if r.target is not None:
            ended = max(self.scores) >= r.target
        elif r.duration is not None:
            ended = self.elapsed[-1] >= r.duration * 60
        else:
            assert r.deals is not None
            ended = self.played_hands >= r.deals
        if not ended:
            return ()
        top = max(self.scores)
        leaders = tuple(s for s, v in enumerate(self.scores) if v == top)
        if len(leaders) > 1 and r.tie_break:
            return ()
        return leaders

    def pop(self) -> Action:
        """Undo the last action, across a hand boundary if needed; returns it."""
        if not self.state.history:
            if len(self.hands) == 1:
                raise IndexError("pop from a game with no actions")
            self.hands.pop()
        hand = self.state
        if hand.is_over:
            assert hand.points is not None
            for side, p in enumerate(hand.points):
                self.scores[side] -= p
            self.elapsed.pop()
            self.winners = ()
        return hand.pop()

    # --- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None, hand: int = -1) -> PlayerView:
        """What ``seat`` may know of a hand (default: the current one), with the game score;
        ``seat=None`` is a spectator's view (public facts only)."""
        from euchre.view import PlayerView

        return PlayerView.of(self.hands[hand], seat, game=self)

    @property
    def hand_number(self) -> int:
        """Index of the current hand (0-based, thrown-in hands included)."""
        return len(self.hands) - 1

    def summary(self) -> str:
        """One line: the score and how the game stands."""
        score = " - ".join(str(s) for s in self.scores)
        if self.is_over:
            if self.winner is not None:
                return f"game over: {score}, side {self.winner} wins"
            return f"game over: {score}, tied between sides {', '.join(map(str, self.winners))}"
        return f"score {score}, hand {self.hand_number + 1} in progress ({self.state.phase_words()})"

    def set_clock(self, clock: Clock) -> None:
        """Go on timing with another clock, keeping the time elapsed so far (a resumed game)."""
        last = self.elapsed[-1] if self.elapsed else 0.0
        self.clock = clock
        self._start = clock() - last

    def copy(self) -> Game:
        """An independent copy sharing nothing mutable."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.first_dealer = self.first_dealer
        g.clock = self.clock
        g._start = self._start
        g._given = list(self._given)
        g.initial_scores = self.initial_scores
        g.scores = self.scores[:]
        g.elapsed = self.elapsed[:]
        g.hands = [h.copy() for h in self.hands]
        g.winners = self.winners
        return g

    def actions(self) -> list[Action]:
        """Every action of the game in order."""
        return [a for h in self.hands for a in h.history]

