"""What one seat may know (rules section 9), as a frozen value with no path to hidden cards.

A :class:`PlayerView` is built by copying exactly the allowed facts out of a
:class:`~euchre.state.State`; it holds no reference to the state, the deal or the stock, so no
attribute, private or not, leads to another seat's cards. Bots, the terminal, the server and the
learning environment all consume views, never states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from euchre.actions import Action, Kind
from euchre.cards import Card, Suit, iter_mask, sort_hand
from euchre.rules import Rules
from euchre.state import Phase, State, Trick

if TYPE_CHECKING:
    from euchre.game import Game

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a hand (``seat`` is ``None`` for a spectator: public facts only)."""

    rules: Rules
    seat: int | None
    dealer: int
    phase: Phase
    to_act: int
    """Seat to act, -1 when the hand is over."""
    hand: tuple[Card, ...]
    """This seat's cards now, in display order (empty for a spectator)."""
    up_card: Card
    up_card_taken: bool
    """The dealer picked the up card up (it is in the dealer's hand until played)."""
    dealer_discarded: bool
    discard: Card | None
    """The buried card, only in the dealer's own view."""
    actions: tuple[tuple[int, Action | None], ...]
    """Every action so far with its seat; another seat's discard is ``None`` (unknown card)."""
    trump: Suit | None
    maker: int
    alone: bool
    sitting_out: frozenset[int]
    lone_defender: int
    leader: int
    trick: tuple[tuple[int, Card], ...]
    """The trick in progress: (seat, card) in play order."""
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    """This seat's legal actions when it is to act, else empty."""
    points: tuple[int, ...] | None
    """Points of the hand per side once it is over."""
    scores: tuple[int, ...]
    """The game score per side before this hand's points (after, once the hand is over)."""
    hand_number: int

    @classmethod
    def of(cls, state: State, seat: int | None, *, game: Game | None = None) -> PlayerView:
        """The view of ``seat`` (or a spectator, ``None``) of ``state``."""
        if seat is not None and not 0 <= seat < state.n:
            raise ValueError(f"seat must be 0..{state.n - 1}, got {seat}")
        acts: list[tuple[int, Action | None]] = []
        for s, a in zip(state.seats, state.history, strict=True):
            if a.kind is Kind.DISCARD and s != seat:
                acts.append((s, None))
            else:
                acts.append((s, a))
        own = sort_hand(iter_mask(state.hands[seat]), state.trump) if seat is not None else []
        if game is not None:
            idx = next(i for i, h in enumerate(game.hands) if h is state)
            scores = list(game.initial_scores)
            for h in game.hands[: idx + 1]:
                if h.points is not None:
                    for i, p in enumerate(h.points):
                        scores[i] += p
            hand_number = idx
        else:
            scores = list(state.points or (0,) * state.rules.sides)
            hand_number = 0
        return cls(
            rules=state.rules,
            seat=seat,
            dealer=state.dealer,
            phase=state.phase,
            to_act=state.to_act,
            hand=tuple(own),
            up_card=state.up_card,
            up_card_taken=state.up_taken,
            dealer_discarded=state.discarded is not None,
            discard=state.discarded if seat == state.dealer else None,
            actions=tuple(acts),
            trump=None if state.trump is None else Suit(state.trump),
            maker=state.maker,
            alone=state.alone,
            sitting_out=state.sitting_out,
            lone_defender=state.lone_defender,
            leader=state.leader,
            trick=tuple(state.trick),
            tricks=tuple(state.tricks),
            tricks_won=tuple(state.won),
            legal_actions=tuple(state.legal_actions()) if seat is not None and seat == state.to_act else (),
            points=state.points,
            scores=tuple(scores),
            hand_number=hand_number,
        )

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def is_my_turn(self) -> bool:
        """This seat is to act."""
        return self.seat is not None and self.seat == self.to_act

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def partner(self, seat: int | None = None) -> int | None:
        """A seat's partner (default: this seat's), four players only."""
        s = self.seat if seat is None else seat
        return None if s is None or self.players != 4 else (s + 2) % 4

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played this hand, finished tricks then the current one."""
        return tuple(c for t in self.tricks for _, c in t.plays) + tuple(c for _, c in self.trick)

    def bids(self) -> tuple[tuple[int, Action], ...]:
        """The public bidding decisions (everything but discards and plays)."""
        return tuple((s, a) for s, a in self.actions if a is not None and a.is_bid)

