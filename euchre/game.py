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

from euchre.actions import Action, Kind
from euchre.cards import EFFECTIVE, POWER, Card
from euchre.errors import DealError, EmptyHistoryError, IllegalActionError, RulesError
from euchre.rules import Rules
from euchre.state import Deal, Phase, State

if TYPE_CHECKING:
    from euchre.view import PlayerView

__all__ = ["Game", "certain_sweep", "score_text"]

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
        if rules is not None and not isinstance(rules, Rules):
            preset = f" (e.g. Rules.preset({rules!r}) for a preset)" if isinstance(rules, str) else ""
            raise RulesError(f"rules must be a Rules{preset}, not {type(rules).__name__}")
        self.rules = rules or Rules()
        self.seed = seed if seed is not None else secrets.randbelow(2**63)
        n = self.rules.players
        if dealer is None:
            dealer = deals[0].dealer if deals else random.Random(f"{self.seed}/dealer").randrange(n)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.first_dealer = dealer
        self.clock: Clock = clock or time.monotonic
        self._start = self.clock()
        self._given: list[Deal] = list(deals or [])
        if scores is not None and (len(scores) != self.rules.sides
                                   or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores)):
            raise ValueError(f"scores must give {self.rules.sides} sides' whole points, got {list(scores)}")
        self.initial_scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * self.rules.sides
        """The score before the first hand (a game recorded from the middle, or a handicap)."""
        self.scores: list[int] = list(self.initial_scores)
        self.elapsed: list[float] = []
        """Seconds since the start, read at the end of each finished hand."""
        self.hands: list[State] = [self._new_hand(0, dealer)]
        self.winners: tuple[int, ...] = ()
        self.claims: list[tuple[int, int, int]] = []
        """Each claim of this session: ``(seat, first, end)``, the actions it played as indexes into
        :meth:`actions`. A take-back never reaches into a claim (the claimer played those cards)."""

    # --- hands ----------------------------------------------------------------------------------
    def _new_hand(self, index: int, dealer: int, after_misdeal: bool = False) -> State:
        """Deal ``index`` (cancelled deals included), from the given deals or seeded by its index;
        ``after_misdeal``: the same dealer's redeal after a misdeal (no ace-no-face offers)."""
        if index < len(self._given):
            deal = self._given[index]
            if deal.dealer != dealer:
                raise DealError(f"deal {index} is dealt by seat {deal.dealer}, but seat {dealer} deals")
            return State.from_deal(self.rules, deal, after_misdeal=after_misdeal)
        return State.random(self.rules, dealer=dealer, rng=random.Random(f"{self.seed}/{index}"),
                            after_misdeal=after_misdeal)

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
        """Finished hands that were played (not thrown in, not cancelled by a misdeal)."""
        return sum(1 for h in self.hands if h.is_over and not h.thrown_in and not h.misdealt)

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

    def played_hands_before(self, hand: int = -1) -> int:
        """Hands played before hand ``hand`` (an index into :attr:`hands`, the current one by
        default): a deal cancelled by a misdeal (RULES-FAMILY.md 12.4) is not a hand, so the
        hand players call "hand 3" may be the fourth deal."""
        index = hand % len(self.hands)
        return sum(1 for h in self.hands[:index] if h.misdeal < 0)

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
        if hand.misdealt:  # a cancelled deal (RULES-FAMILY.md 12.4): no points, no clock, no ending
            self.hands.append(self._new_hand(len(self.hands), hand.dealer, after_misdeal=True))
            return
        assert hand.points is not None
        for side, p in enumerate(hand.points):
            self.scores[side] += p
        self.elapsed.append(self.clock() - self._start)
        self.winners = self._decide()
        if not self.winners:
            self.hands.append(self._new_hand(len(self.hands), (hand.dealer + 1) % self.rules.players))

    def _decide(self) -> tuple[int, ...]:
        r = self.rules
        if r.bids_tricks and r.target is not None:  # the back door (RULES-FAMILY.md 14, 15): -target loses
            fallen = [side for side, v in enumerate(self.scores) if v <= -r.target]
            if fallen:
                return tuple(side for side in range(r.sides) if side not in fallen)
        if r.bid_euchre and r.target is not None:
            # RULES-FAMILY.md 15: only the side that made its bid, or set the makers, may win on
            # this hand, by holding the target whatever the other side holds.
            hand = self.state
            maker_side = r.side_of(hand.maker)
            made = hand.points is not None and hand.points[maker_side] > 0
            side = maker_side if made else 1 - maker_side
            return (side,) if self.scores[side] >= r.target else ()
        if r.target is not None:
            ended = max(self.scores) >= r.target
        elif r.duration is not None:
            ended = r.time_is_up(self.elapsed[-1])
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
                raise EmptyHistoryError("pop from a game with no actions")
            self.hands.pop()
        hand = self.state
        if hand.is_over and not hand.misdealt:
            assert hand.points is not None
            for side, p in enumerate(hand.points):
                self.scores[side] -= p
            self.elapsed.pop()
            self.winners = ()
        action = hand.pop()
        if self.claims and self.claims[-1][2] > self.action_count:
            self.claims.pop()  # taking back into a claim takes the whole claim back
        return action

    # --- claims and take-backs -------------------------------------------------------------------
    def claim_line(self) -> list[Action] | None:
        """The rest of this hand as a claim plays it, or ``None`` when the seat to act may not claim.

        A claim is possible in trick play, with at least two tricks still to finish, when the seat
        to act can see that it wins every one of them itself, wherever the cards it cannot see
        are and however the others play (:func:`certain_sweep`: what a player at the table may
        claim, so a claim tells nobody anything the cards do not). The line plays the claimer's
        side as the exact solver does and the others' first legal card; any other line of the
        others would end the same way, so a claim never changes a hand's result, only ends it
        sooner. Nothing is changed.
        """
        if not self.can_claim():
            return None
        hand = self.state
        from euchre.solver import thread_solver

        solver = thread_solver()
        makers = hand.side_of(hand.to_act) == hand.side_of(hand.maker)  # type: ignore[arg-type]
        if not solver.sweeps(hand, makers):  # pragma: no cover - certain_sweep is the stricter test
            return None
        s = hand.copy()
        base, done = hand.maker_tricks(), len(hand.tricks)

        def keeps(after: State) -> bool:
            # every trick finished since the claim went to the claimers, and the rest still will
            taken = after.maker_tricks() - base
            if taken != (len(after.tricks) - done if makers else 0):
                return False
            return after.is_over or solver.sweeps(after, makers)

        line: list[Action] = []
        while not s.is_over:
            legal = s.legal_actions()
            choice = legal[0]
            if (s.side_of(s.to_act) == s.side_of(s.maker)) == makers:  # type: ignore[arg-type]
                for a in legal:
                    s._push(a)
                    ok = keeps(s)
                    s.pop()
                    if ok:
                        choice = a
                        break
            s._push(choice)
            line.append(choice)
        return line

    def can_claim(self) -> bool:
        """Whether the seat to act may claim the rest of the tricks (see :meth:`claim_line`): trick
        play, two tricks or more to finish, a game the exact solver plays, and :func:`certain_sweep`.

        The test only, without the exact solver, which plays the claim's line (and which
        certain_sweep, the stricter test, never contradicts): the server asks at every version, on
        its event loop, and the solver's first use in a process loads its compiled code (compiles
        it, on a fresh machine) for a second or more, which stalled every connection meanwhile."""
        hand = self.state
        if self.is_over or hand.phase is not Phase.PLAY or hand.rules.hand_size - len(hand.tricks) < 2:
            return False
        if hand.rules.napoleon or hand.rules.double_deck:  # games the exact solver does not play (for now)
            return False
        return certain_sweep(self.view(hand.to_act))

    def claim(self) -> list[Action]:
        """Claim the rest of the tricks for the side of the seat to act: the hand is played out at
        once (see :meth:`claim_line`) and scored. Returns the actions played; raises
        :class:`~euchre.errors.IllegalActionError`, changing nothing, when the claim is not sure."""
        line = self.claim_line()
        if line is None:
            raise IllegalActionError(self.no_claim_reason())
        seat, first = self.to_act, self.action_count
        for a in line:
            self._push(a)
        self.claims.append((seat, first, first + len(line)))
        return line

    def last_claim(self) -> tuple[int, int] | None:
        """The latest claim still standing: the index of the hand it ended, and the claimer."""
        if not self.claims:
            return None
        seat, _, end = self.claims[-1]
        count = 0
        for i, h in enumerate(self.hands):
            count += len(h.history)
            if count >= end:
                return i, seat
        return None  # pragma: no cover - a claim's actions are in the game

    @property
    def action_count(self) -> int:
        """How many actions the game holds (``len(self.actions())``, without building the list)."""
        return sum(len(h.history) for h in self.hands)

    def no_claim_reason(self) -> str:
        """Why the seat to act may not claim now, in words (for a player who asked to)."""
        hand = self.state
        if self.is_over:
            return "the game is over; there is nothing to claim"
        if hand.phase is not Phase.PLAY:
            return f"a claim is made during the play of the cards, not {hand.phase_words()}"
        if hand.rules.hand_size - len(hand.tricks) < 2:
            return "only the last trick is left: play its card"
        if hand.rules.napoleon or hand.rules.double_deck:
            return f"claims are not supported in {hand.rules.sister_game} yet: play on"
        return "the rest of the tricks are not certain to be yours: play on"

    def undo_steps(self, seat: int) -> int:
        """How many actions :meth:`undo` would take back for ``seat``: everything from ``seat``'s
        last card, if that card is in this hand or the hand just finished, was not played by a
        claim and no decision of ``seat``'s came after it; 0 when there is none (or the game is
        over: a finished game is final). So once the seat has bid (or discarded...) in a new hand,
        undo never reaches back past that into the hand before."""
        if self.is_over:
            return 0
        steps = 0
        reach = self.action_count - (self.claims[-1][2] if self.claims else 0)
        for hand in reversed(self.hands[-2:]):
            for actor, a in zip(reversed(hand.seats), reversed(hand.history), strict=True):
                steps += 1
                if steps > reach:
                    return 0
                if actor == seat:
                    return steps if a.kind is Kind.PLAY else 0
        return 0

    def undo(self, seat: int) -> list[Action]:
        """Take back ``seat``'s last card and every action after it (a practice game against
        computer players); returns the actions taken back, in the order they were played. Raises
        :class:`~euchre.errors.IllegalActionError`, changing nothing, when there is no card to
        take back."""
        steps = self.undo_steps(seat)
        if not steps:
            raise IllegalActionError("there is no card of yours to take back"
                                     + (" (the game is over)" if self.is_over else " in this hand"))
        return [self.pop() for _ in range(steps)][::-1]

    # --- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None, hand: int = -1) -> PlayerView:
        """What ``seat`` may know of a hand (default: the current one), with the game score;
        ``seat=None`` is a spectator's view (public facts only)."""
        from euchre.view import PlayerView

        if isinstance(hand, bool) or not isinstance(hand, int) or not -len(self.hands) <= hand < len(self.hands):
            raise IndexError(f"hand must be an index of the game's {len(self.hands)} hands, got {hand!r}")
        return PlayerView.of(self.hands[hand], seat, game=self)

    @property
    def hand_number(self) -> int:
        """Index of the current hand (0-based, thrown-in hands and cancelled deals included)."""
        return len(self.hands) - 1

    def summary(self) -> str:
        """One line: the score and how the game stands."""
        score = score_text(self.scores)
        if self.is_over:
            if self.winner is not None:
                return f"game over: {score}, side {self.winner} wins"
            return f"game over: {score}, tied between sides {', '.join(map(str, self.winners))}"
        return f"score {score}, hand {self.played_hands_before() + 1} in progress ({self.state.phase_words()})"

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
        g.claims = self.claims[:]
        return g

    def actions(self) -> list[Action]:
        """Every action of the game in order."""
        return [a for h in self.hands for a in h.history]

    def elapsed_of(self, index: int) -> float | None:
        """The clock reading at the end of hand ``index`` (``None`` while it is played, and for a
        cancelled deal: the clock is not read)."""
        hand = self.hands[index]
        if not hand.is_over or hand.misdealt:
            return None
        return self.elapsed[sum(1 for h in self.hands[:index] if h.is_over and not h.misdealt)]


def score_text(scores: Sequence[int]) -> str:
    """Scores for people: ``6 - 4``, or ``-2 / 10`` once one is below zero (the auction games,
    Napoleon), where ``-2 - -2`` would misread."""
    return (" / " if min(scores, default=0) < 0 else " - ").join(str(s) for s in scores)


def certain_sweep(view: PlayerView) -> bool:
    """Whether the seat of ``view`` (to act, in trick play) wins every trick still to finish by
    itself, wherever the cards it cannot see are (any other seat might hold any of them) and
    however everyone else plays: the test a player applies before claiming.

    It wins the trick in progress with a card that beats what is on the table and anything the
    players still to play could hold; then it leads its trumps, each above every trump it cannot
    see, and there are no more unseen trumps than its trumps (so they are all drawn); then its
    other cards, each above every unseen card of its suit. A sufficient test, not a complete one
    (it ignores what the voids shown in play prove), so a claim is never wrong.
    """
    if view.seat is None or view.phase is not Phase.PLAY or view.trump is None or view.to_act != view.seat:
        return False
    t = int(view.trump)
    eff, pw = EFFECTIVE[t], POWER[t]
    unseen = view.unseen()
    unseen_trumps = [pw[c] for c in unseen if eff[c] == t]
    top_unseen = {suit: max((pw[c] for c in unseen if eff[c] == suit), default=-1) for suit in range(5)}
    hand = list(view.hand)

    def leads_win(cards: list[Card]) -> bool:
        trumps = [c for c in cards if eff[c] == t]
        others = [c for c in cards if eff[c] != t]
        if trumps and unseen_trumps and min(pw[c] for c in trumps) < max(unseen_trumps):
            return False
        if others and len(unseen_trumps) > len(trumps):
            return False
        return all(pw[c] > top_unseen[eff[c]] for c in others)

    if not view.trick:
        return leads_win(hand)
    led = eff[view.trick[0][1]]
    on_table = [c for _, c in view.trick]
    active = view.players - len(view.sitting_out)
    later = active - len(view.trick) - 1
    for action in view.legal_actions:
        c = action.card
        assert c is not None
        if eff[c] == t:
            wins = all(pw[c] > pw[x] for x in on_table if eff[x] == t) and (
                not later or not unseen_trumps or pw[c] > max(unseen_trumps))
        elif eff[c] == led:
            wins = (not any(eff[x] == t for x in on_table) and all(pw[c] > pw[x] for x in on_table if eff[x] == led)
                    and (not later or (not unseen_trumps and pw[c] > top_unseen[led])))
        else:
            wins = False
        if wins and leads_win([x for x in hand if x != c]):
            return True
    return False
