"""How a finished hand ended: one object, worked out once by the engine, for every consumer.

Statistics (the arena, ``euchre simulate``, the server's per-player table), the words the table
shows (:func:`euchre.describe.hand_result_words`), the score sheet and the browser all read a
:class:`HandResult` instead of deciding for themselves what "made" or "euchred" means (they used
to, five times, and one of them counted a made hand by its points, the others by its tricks).

Everything in it is public once the hand is over, so it is the same from the full hand
(:meth:`HandResult.of`) and from any seat's view of it (:meth:`HandResult.of_view`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from euchre.cards import NO_TRUMP, SUITS, trump_letter, trump_suit

if TYPE_CHECKING:
    from euchre.state import State
    from euchre.view import PlayerView

__all__ = ["HandResult", "Outcome"]


class Outcome(enum.StrEnum):
    """The four ways a hand ends."""

    MADE = "made"
    """The makers took a majority of the tricks, not all."""
    MARCH = "march"
    """The makers took every trick."""
    EUCHRED = "euchred"
    """The makers took fewer than a majority: the defenders score."""
    THROWN_IN = "thrown in"
    """Nobody made trump: no one scores."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand's ending: who made what, how many tricks the makers took, the outcome and
    the points per side. Seats are ints and "no seat" is ``None``."""

    outcome: Outcome
    dealer: int
    maker: int | None
    maker_side: int | None
    trump: int | None
    """The trump index: a :class:`~euchre.cards.Suit`, or ``NO_TRUMP`` (4) / ``LOW`` (5) for a hand
    without trump (as :attr:`PlayerView.trump <euchre.view.PlayerView.trump>`); ``None`` when thrown in."""
    alone: bool
    lone_defender: int | None
    maker_tricks: int | None
    """Tricks the maker's side took (``None`` for a thrown-in hand)."""
    points: tuple[int, ...]
    """Points per side."""
    super_euchre: bool = False
    """Euchred without a single trick, under the super-euchre rule."""
    bid: int | None = None
    """The auction games (RULES-FAMILY.md 14, 15): the high bid in tricks (made when
    ``maker_tricks`` is at least it, else set: :attr:`Outcome.EUCHRED`); Bid Euchre's moon is the
    hand's tricks plus one (:attr:`moon`), made only by taking every trick; Napoleon's bid is its
    level, from 1 (``euchre.actions.NAPOLEON_BIDS[bid - 1]``: 2, 3, misère, 4, Nap, Wellington,
    Blücher); ``None`` in the other games and when thrown in."""
    forced_bid: bool = False
    """Hasenpfeffer: the bid was the Joker holder's forced 3."""

    @property
    def moon(self) -> bool:
        """Bid Euchre: the bid was the moon (every trick, alone: :attr:`alone` is true too)."""
        return self.bid is not None and self.alone

    @property
    def made(self) -> bool:
        """The makers made it (a march included)."""
        return self.outcome in (Outcome.MADE, Outcome.MARCH)

    @property
    def march(self) -> bool:
        return self.outcome is Outcome.MARCH

    @property
    def euchred(self) -> bool:
        return self.outcome is Outcome.EUCHRED

    @property
    def thrown_in(self) -> bool:
        return self.outcome is Outcome.THROWN_IN

    @property
    def scorers(self) -> tuple[int, ...]:
        """The sides that scored this hand."""
        return tuple(side for side, p in enumerate(self.points) if p > 0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: the outcome as its word, the trump as its letter."""
        return {
            "outcome": str(self.outcome), "dealer": self.dealer, "maker": self.maker, "maker_side": self.maker_side,
            "trump": None if self.trump is None else trump_letter(self.trump), "alone": self.alone,
            "lone_defender": self.lone_defender, "maker_tricks": self.maker_tricks, "points": list(self.points),
            "super_euchre": self.super_euchre, "bid": self.bid, "forced_bid": self.forced_bid,
        }

    @staticmethod
    def _make(rules: Any, dealer: int, maker: int, trump: int | None, alone: bool, lone_defender: int,
              taken: int, points: tuple[int, ...], side_of: Any, bid: int = 0, forced: bool = False) -> HandResult:
        if maker < 0 or trump is None:
            return HandResult(Outcome.THROWN_IN, dealer, None, None, None, False, None, None, points)
        size = rules.hand_size
        if rules.napoleon:  # RULES-FAMILY.md 16: misère takes no trick, the others at least their tricks
            suit = trump_suit(trump)  # a Suit, or misère's PLAIN_NO_TRUMP
            outcome = Outcome.MADE if points[maker] > 0 else Outcome.EUCHRED
            return HandResult(outcome, dealer, maker, maker, trump if suit is None else suit, False, None, taken,
                              points, bid=bid)
        shown = SUITS[trump] if trump < NO_TRUMP else trump  # a Suit, or NO_TRUMP / LOW as they are
        if rules.bids_tricks:  # made when the makers took at least the bid (a moon: every trick)
            need = min(bid, size)
            outcome = (Outcome.MARCH if taken == size else Outcome.MADE) if taken >= need else Outcome.EUCHRED
            return HandResult(outcome, dealer, maker, side_of(maker), shown, bid > size, None, taken, points,
                              bid=bid, forced_bid=forced)
        if taken == size:
            outcome = Outcome.MARCH
        elif taken > size // 2:
            outcome = Outcome.MADE
        else:
            outcome = Outcome.EUCHRED
        return HandResult(outcome, dealer, maker, side_of(maker), shown, bool(alone),
                          None if lone_defender < 0 else lone_defender, taken, points,
                          super_euchre=outcome is Outcome.EUCHRED and taken == 0 and bool(rules.super_euchre))

    @classmethod
    def of(cls, state: State) -> HandResult:
        """The result of a finished hand (``ValueError`` while it is being played)."""
        if not state.is_over or state.points is None:
            raise ValueError(f"the hand is not over: it is {state.phase_words()}")
        taken = state.maker_tricks() if state.maker >= 0 else 0
        return cls._make(state.rules, state.dealer, state.maker, state.trump, state.alone, state.lone_defender,
                         taken, tuple(state.points), state.side_of, state.bid, state.forced_bid)

    @classmethod
    def of_view(cls, view: PlayerView) -> HandResult:
        """The same from a seat's (or a spectator's) view of the finished hand."""
        if view.points is None:
            raise ValueError("the hand is not over")
        taken = 0
        if view.maker >= 0:
            side = view.side_of(view.maker)
            taken = sum(n for seat, n in enumerate(view.tricks_won) if view.side_of(seat) == side)
        return cls._make(view.rules, view.dealer, view.maker, None if view.trump is None else int(view.trump),
                         view.alone, view.lone_defender, taken, tuple(view.points), view.side_of, view.bid,
                         view.forced_bid)
