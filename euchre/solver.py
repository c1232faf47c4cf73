"""The exact solver: the best play of a hand whose cards are all known, and what it is worth.

Once trump is made, a hand with every card face up is a two-sided game of perfect information:
the makers try to take tricks, the defenders try to stop them. Every score in RULES.md and
RULES-FAMILY.md is a non-decreasing function of the tricks the makers take, for the makers'
points minus the others' (3 make, 5 march, fewer a euchre; in the six-card games of tricks bid,
every trick from the bid up, less than the bid minus the bid), so the minimax value in *maker
tricks* gives the minimax value in points, whatever the scoring table or the game score: this
module solves for tricks and :meth:`~euchre.state.State.score_for` turns tricks into points. It
is the engine of the search bot, of hints and of game analysis.

Hands of five or six cards are solved (``rules.hand_size``: six in Hasenpfeffer and Bid Euchre),
with any trump index (a suit, no trump or low) and any deck of distinct cards; a seat sitting
out is skipped. The search itself knows nothing of the size: it counts the tricks still to finish.

The search is alpha-beta over card plays, compiled with numba. What makes it fast:

* a transposition table at trick boundaries, keyed by the cards still held and the leader (within
  one deal the cards fix who holds what), storing lower and upper bounds;
* cards of adjacent rank in one hand are one move: two cards are equivalent when no card still in
  play (held by anyone, or on the table in the current trick) lies between them in the trick
  order of their suit under this trump;
* moves generated in a single pass over a per-trump table of cards by suit and strength, highest
  first, with bitmask hands and in-place undo (no copies);
* the last trick is scored without search.

``bench/solver.py`` measures full-hand solves per second.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from numba import njit

from euchre.actions import PLAY_ACTIONS, PLAY_OFFSET, Action
from euchre.cards import EFFECTIVE, FOLLOW, NUM_CARDS, NUM_TRUMPS, POWER
from euchre.errors import PhaseError, RulesError
from euchre.state import Phase, State

__all__ = ["Solver", "solve", "action_values", "thread_solver", "thresholds", "TT_BYTES", "MAX_HAND"]

# Indexed by the trump index: 0-3 a suit, 4 no trump, 5 low (cards.NO_TRUMP, cards.LOW). The
# search's trick winner, "highest trump else highest of the led suit", needs no branch for a hand
# without trump: no card's effective suit is 4 or 5.
_EFF = np.array(EFFECTIVE, dtype=np.int64)
_POW = np.array(POWER, dtype=np.int64)
_FOL = np.array([[m & ((1 << NUM_CARDS) - 1) for m in FOLLOW[t]] for t in range(NUM_TRUMPS)], dtype=np.int64)
"""(The Euchre cards only: the double deck's second copies, ids 53-76, are never solved.)"""
_ORDER = np.array(
    [sorted(range(NUM_CARDS), key=lambda c, t=t: (EFFECTIVE[t][c], -POWER[t][c]))  # type: ignore[misc]
     for t in range(NUM_TRUMPS)],
    dtype=np.int64,
)
"""_ORDER[trump]: every card grouped by the suit it follows, strongest first within a suit."""

MAX_HAND = 6
"""The largest hand the solver plays (its stack and move buffers are sized for it)."""

_TT_BITS = 18
_MAX_PLY = 4 * MAX_HAND
TT_BYTES = 4 * 8 << _TT_BITS
"""Bytes of one solver's transposition table (four arrays of 2**18 64-bit words: 8 MiB). The
table never grows: a full slot is overwritten."""


@njit(cache=True, nogil=True)
def _lowbit_index(x: int) -> int:
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True, nogil=True)
def _winner(t: int, cards: np.ndarray, seats: np.ndarray, count: int) -> int:
    """The seat that wins a finished trick (same rule as ``cards.trick_winner_index``)."""
    led = _EFF[t, cards[0]]
    best = -1
    w = seats[0]
    for j in range(count):
        c = cards[j]
        e = _EFF[t, c]
        if (e == t or e == led) and _POW[t, c] > best:
            best = _POW[t, c]
            w = seats[j]
    return w


# Fields of one ply's frame in the explicit search stack (numba caches no recursive function
# reliably, so the search keeps its own stack).
_SEAT, _NT, _LEFT, _ALPHA, _BETA, _A0, _B0, _KEY, _H, _N, _K, _BEST, _HAND, _BONUS = range(14)
_SAVED = 14
"""Fields 14..21: the four cards and four seats of a trick saved when a move finishes it."""
_FIELDS = 22


@njit(cache=True, nogil=True)
def _enter(fr: np.ndarray, p: int, hands: np.ndarray, t: int, maker: np.ndarray, nactive: int,
           nxt: np.ndarray, tcards: np.ndarray, tseats: np.ndarray, nt: int, seat: int, left: int,
           alpha: int, beta: int, tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray,
           tt_hi: np.ndarray, gen: int, buf: np.ndarray) -> int:
    """Open the node of ply ``p``: return its value when it is known at once (end of the hand,
    last trick, a transposition-table cut), else generate its moves and return -100."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    fr[p, _A0] = alpha
    fr[p, _B0] = beta
    if nt == 0:
        if left == 0:
            return 0
        if left == 1:
            # Everyone holds one card: play it out.
            s = seat
            for j in range(nactive):
                tcards[j] = _lowbit_index(hands[s])
                tseats[j] = s
                s = nxt[s]
            return maker[_winner(t, tcards, tseats, nactive)]
        key = held | (seat << 40) | (1 << 44)
        h = ((key * 0x4F1BBCDCBFA53E0B) >> 30) & ((1 << _TT_BITS) - 1)
        fr[p, _KEY] = key
        fr[p, _H] = h
        if tt_key[h] == key and tt_gen[h] == gen:
            lo = tt_lo[h]
            hi = tt_hi[h]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    hand = hands[seat]
    moves = hand
    alive = held
    for j in range(nt):
        alive |= 1 << tcards[j]
    if nt > 0:
        f = hand & _FOL[t, _EFF[t, tcards[0]]]
        if f:
            moves = f
    n = 0
    last_suit = -1
    last_mine = False
    for i in range(NUM_CARDS):
        c = _ORDER[t, i]
        bit = 1 << c
        if not alive & bit:
            continue
        s = _EFF[t, c]
        if s != last_suit:
            last_suit = s
            last_mine = False
        if moves & bit:
            if not last_mine:
                buf[p, n] = c
                n += 1
            last_mine = True
        else:
            last_mine = False
    fr[p, _SEAT] = seat
    fr[p, _NT] = nt
    fr[p, _LEFT] = left
    fr[p, _ALPHA] = alpha
    fr[p, _BETA] = beta
    fr[p, _N] = n
    fr[p, _K] = 0
    fr[p, _BEST] = -1 if maker[seat] == 1 else 99
    fr[p, _HAND] = hand
    return -100


@njit(cache=True, nogil=True)
def _search(hands: np.ndarray, t: int, nxt: np.ndarray, maker: np.ndarray, nactive: int,
            tcards: np.ndarray, tseats: np.ndarray, nt: int, seat: int, left: int,
            alpha: int, beta: int, tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray,
            tt_hi: np.ndarray, gen: int, buf: np.ndarray, fr: np.ndarray) -> int:
    """Maker tricks still to come (this trick included) under best play: fail-soft alpha-beta
    over card plays with an explicit stack.

    ``hands`` are bitmasks, changed and restored in place; ``tcards``/``tseats`` hold the ``nt``
    cards of the trick in progress; ``seat`` is to play; ``left`` counts the tricks not yet
    finished (the current one included). The search never leaves the trick arrays changed.
    """
    v = _enter(fr, 0, hands, t, maker, nactive, nxt, tcards, tseats, nt, seat, left, alpha, beta,
               tt_key, tt_gen, tt_lo, tt_hi, gen, buf)
    if v != -100:
        return v
    p = 0
    while True:
        k = fr[p, _K]
        if k < fr[p, _N]:
            # Play the next move of ply p and open the child.
            fr[p, _K] = k + 1
            c = buf[p, k]
            s = fr[p, _SEAT]
            q = fr[p, _NT]
            hands[s] = fr[p, _HAND] & ~(1 << c)
            tcards[q] = c
            tseats[q] = s
            a = fr[p, _ALPHA]
            b = fr[p, _BETA]
            if q + 1 == nactive:
                w = _winner(t, tcards, tseats, nactive)
                m = maker[w]
                fr[p, _BONUS] = m
                for j in range(4):
                    fr[p, _SAVED + j] = tcards[j]
                    fr[p, _SAVED + 4 + j] = tseats[j]
                v = _enter(fr, p + 1, hands, t, maker, nactive, nxt, tcards, tseats, 0, w,
                           fr[p, _LEFT] - 1, a - m, b - m, tt_key, tt_gen, tt_lo, tt_hi, gen, buf)
            else:
                fr[p, _BONUS] = -1
                v = _enter(fr, p + 1, hands, t, maker, nactive, nxt, tcards, tseats, q + 1, nxt[s],
                           fr[p, _LEFT], a, b, tt_key, tt_gen, tt_lo, tt_hi, gen, buf)
            if v == -100:
                p += 1
                continue
        else:
            # Ply p is finished: restore its hand, store its bounds, hand the value up.
            v = fr[p, _BEST]
            s = fr[p, _SEAT]
            hands[s] = fr[p, _HAND]
            if fr[p, _NT] == 0:
                h = fr[p, _H]
                key = fr[p, _KEY]
                if tt_key[h] == key and tt_gen[h] == gen:
                    lo = tt_lo[h]
                    hi = tt_hi[h]
                else:
                    lo = 0
                    hi = fr[p, _LEFT]
                if v <= fr[p, _A0]:
                    if v < hi:
                        hi = v
                elif v >= fr[p, _B0]:
                    if v > lo:
                        lo = v
                else:
                    lo = v
                    hi = v
                tt_key[h] = key
                tt_gen[h] = gen
                tt_lo[h] = lo
                tt_hi[h] = hi
            if p == 0:
                return v
            p -= 1
        # The child of ply p returned v: undo p's move and take the value.
        s = fr[p, _SEAT]
        hands[s] = fr[p, _HAND]
        m = fr[p, _BONUS]
        if m >= 0:
            for j in range(4):
                tcards[j] = fr[p, _SAVED + j]
                tseats[j] = fr[p, _SAVED + 4 + j]
            v += m
        if maker[s] == 1:
            if v > fr[p, _BEST]:
                fr[p, _BEST] = v
                if v > fr[p, _ALPHA]:
                    fr[p, _ALPHA] = v
                    if v >= fr[p, _BETA]:
                        fr[p, _K] = fr[p, _N]
        else:
            if v < fr[p, _BEST]:
                fr[p, _BEST] = v
                if v < fr[p, _BETA]:
                    fr[p, _BETA] = v
                    if fr[p, _ALPHA] >= v:
                        fr[p, _K] = fr[p, _N]


@njit(cache=True, nogil=True)
def _root(hands: np.ndarray, t: int, nxt: np.ndarray, maker: np.ndarray, nactive: int,
          tcards: np.ndarray, tseats: np.ndarray, nt: int, seat: int, left: int, cards: np.ndarray,
          out: np.ndarray, tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray,
          tt_hi: np.ndarray, gen: int, buf: np.ndarray, fr: np.ndarray, alpha: int, beta: int) -> None:
    """The maker tricks still to come after ``seat`` plays each of ``cards`` (into ``out``),
    searched with the window (``alpha``, ``beta``): exact inside it, a bound outside (fail-soft)."""
    hand = hands[seat]
    for k in range(cards.shape[0]):
        c = cards[k]
        hands[seat] = hand & ~(1 << c)
        tcards[nt] = c
        tseats[nt] = seat
        if nt + 1 == nactive:
            w = _winner(t, tcards, tseats, nactive)
            m = maker[w]
            c0, c1, c2, c3 = tcards[0], tcards[1], tcards[2], tcards[3]
            s0, s1, s2, s3 = tseats[0], tseats[1], tseats[2], tseats[3]
            out[k] = m + _search(hands, t, nxt, maker, nactive, tcards, tseats, 0, w, left - 1,
                                 alpha - m, beta - m, tt_key, tt_gen, tt_lo, tt_hi, gen, buf, fr)
            tcards[0], tcards[1], tcards[2], tcards[3] = c0, c1, c2, c3
            tseats[0], tseats[1], tseats[2], tseats[3] = s0, s1, s2, s3
        else:
            out[k] = _search(hands, t, nxt, maker, nactive, tcards, tseats, nt + 1, nxt[seat], left,
                             alpha, beta, tt_key, tt_gen, tt_lo, tt_hi, gen, buf, fr)
    hands[seat] = hand


class Solver:
    """An exact solver with its own transposition table (reuse one instance: allocating the table
    costs more than a small solve; :func:`thread_solver` is the calling thread's, shared by all
    its users). Positions come from :class:`~euchre.state.State` objects in the play phase, with
    every card known (a real deal, or a sample of the unseen cards).

    >>> import random
    >>> from euchre import Rules, State
    >>> s = State.random(Rules(), dealer=0, rng=random.Random(4))
    >>> _ = s.push("order"); _ = s.push(s.legal_actions()[0])
    >>> Solver().solve(s) in range(6)
    True
    """

    def __init__(self) -> None:
        size = 1 << _TT_BITS
        self._tt_key = np.zeros(size, dtype=np.int64)
        self._tt_gen = np.zeros(size, dtype=np.int64)
        self._tt_lo = np.zeros(size, dtype=np.int64)
        self._tt_hi = np.zeros(size, dtype=np.int64)
        self._gen = 0
        self._buf = np.zeros((_MAX_PLY, 8), dtype=np.int64)
        self._fr = np.zeros((_MAX_PLY, _FIELDS), dtype=np.int64)
        self._tcards = np.zeros(4, dtype=np.int64)
        self._tseats = np.zeros(4, dtype=np.int64)

    def _setup(self, state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
        if state.rules.hand_size > MAX_HAND:
            raise RulesError(f"the solver plays hands of at most {MAX_HAND} cards, not {state.rules.hand_size}")
        if state.phase is not Phase.PLAY:
            raise PhaseError(f"the solver needs a hand in trick play, not {state.phase_words()}")
        n = state.n
        hands = np.zeros(4, dtype=np.int64)
        nxt = np.zeros(4, dtype=np.int64)
        maker = np.zeros(4, dtype=np.int64)
        active = [s for s in range(n) if state.is_active(s)]
        for i, s in enumerate(active):
            hands[s] = state.hands[s]
            nxt[s] = active[(i + 1) % len(active)]
        maker_side = state.side_of(state.maker)
        for s in range(n):
            maker[s] = 1 if state.side_of(s) == maker_side else 0
        for j, (s, c) in enumerate(state.trick):
            self._tcards[j] = c
            self._tseats[j] = s
        self._gen += 1
        return hands, nxt, maker, len(active), len(state.trick), state.rules.hand_size - len(state.tricks)

    def solve(self, state: State) -> int:
        """The tricks the maker's side ends the hand with (already won included) if every seat
        plays its best from here."""
        if state.phase is Phase.OVER:
            return state.maker_tricks()
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        future = _search(hands, int(state.trump), nxt, maker, nactive, self._tcards, self._tseats,  # type: ignore[arg-type]
                         nt, state.to_act, left, -1, state.rules.hand_size + 1, self._tt_key, self._tt_gen, self._tt_lo,
                         self._tt_hi, self._gen, self._buf, self._fr)
        return state.maker_tricks() + int(future)

    def card_values(self, state: State, cards: Sequence[int]) -> list[int]:
        """For each card (each must be a legal play of the seat to act), the maker's final tricks
        if it is played and everyone plays best afterwards."""
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        arr = np.array(cards, dtype=np.int64)
        out = np.zeros(len(cards), dtype=np.int64)
        _root(hands, int(state.trump), nxt, maker, nactive, self._tcards, self._tseats, nt,  # type: ignore[arg-type]
              state.to_act, left, arr, out, self._tt_key, self._tt_gen, self._tt_lo, self._tt_hi,
              self._gen, self._buf, self._fr, -1, state.rules.hand_size + 1)
        base = state.maker_tricks()
        return [base + int(v) for v in out]

    # --- outcomes: enough to score, cheaper than exact tricks -------------------------------
    # Points depend on the makers' tricks only through a few thresholds (:func:`thresholds`: 3
    # made and 5 march, and 1 when a super-euchre scores; in a game of tricks bid, every count from
    # the bid up). Null-window searches answer "at least k?" much faster than a full-window search
    # finds the exact count, and share the transposition table; a binary search over the
    # thresholds asks as few of them as it can (for 3 and 5: "3?", then "5?" if made).

    def outcome(self, state: State) -> int:
        """A number of maker tricks that scores exactly as best play from here does
        (``state.score_for(solver.outcome(s)) == state.score_for(solver.solve(s))``), found with
        null-window searches only: the highest of :func:`thresholds` the makers reach, else 0."""
        if state.phase is Phase.OVER:
            return state.maker_tricks()
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        base = state.maker_tricks()
        t = int(state.trump)  # type: ignore[arg-type]

        def at_least(k: int) -> bool:
            need = k - base
            if need <= 0:
                return True
            if need > left:
                return False
            v = _search(hands, t, nxt, maker, nactive, self._tcards, self._tseats, nt, state.to_act, left,
                        need - 1, need, self._tt_key, self._tt_gen, self._tt_lo, self._tt_hi, self._gen,
                        self._buf, self._fr)
            return int(v) >= need

        ts = thresholds(state)
        lo, hi = -1, len(ts) - 1  # the answer is ts[lo] (0 for -1); ts[hi + 1:] are out of reach
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if at_least(ts[mid]):
                lo = mid
            else:
                hi = mid - 1
        return ts[lo] if lo >= 0 else 0

    def sweeps(self, state: State, makers: bool) -> bool:
        """Whether the makers (``makers=True``) or the defenders take every trick still to be
        finished, the current one included, whatever the other side plays: the test behind a
        claim (:meth:`euchre.game.Game.claim`). One null-window search."""
        if state.phase is not Phase.PLAY:
            return False
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        need = left if makers else 1
        v = _search(hands, int(state.trump), nxt, maker, nactive, self._tcards, self._tseats,  # type: ignore[arg-type]
                    nt, state.to_act, left, need - 1, need, self._tt_key, self._tt_gen, self._tt_lo,
                    self._tt_hi, self._gen, self._buf, self._fr)
        return int(v) >= left if makers else int(v) < 1

    def action_outcomes(self, state: State) -> dict[Action, int]:
        """Like :meth:`action_values`, but each value only as exact as scoring needs (see
        :meth:`outcome`): much faster, the same points."""
        legal = state.legal_actions()
        cards = [a - PLAY_OFFSET for a in legal]
        groups = self._equivalent(state, cards)
        reps = sorted(set(groups.values()))
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        base = state.maker_tricks()
        t = int(state.trump)  # type: ignore[arg-type]

        def at_least(k: int, among: list[int]) -> dict[int, bool]:
            need = k - base
            if need <= 0 or need > left or not among:
                return {c: need <= 0 for c in among}
            arr = np.array(among, dtype=np.int64)
            out = np.zeros(len(among), dtype=np.int64)
            _root(hands, t, nxt, maker, nactive, self._tcards, self._tseats, nt, state.to_act, left, arr, out,
                  self._tt_key, self._tt_gen, self._tt_lo, self._tt_hi, self._gen, self._buf, self._fr,
                  need - 1, need)
            return {c: int(v) >= need for c, v in zip(among, out, strict=True)}

        # The binary search of :meth:`outcome` for every card at once: each round asks one
        # null-window search per threshold, for all the cards that wait on it (highest first).
        ts = thresholds(state)
        lo = dict.fromkeys(reps, -1)
        hi = dict.fromkeys(reps, len(ts) - 1)
        while True:
            pending: dict[int, list[int]] = {}
            for c in reps:
                if lo[c] < hi[c]:
                    pending.setdefault((lo[c] + hi[c] + 1) // 2, []).append(c)
            if not pending:
                break
            for mid in sorted(pending, reverse=True):
                for c, yes in at_least(ts[mid], pending[mid]).items():
                    if yes:
                        lo[c] = mid
                    else:
                        hi[c] = mid - 1
        value = {c: ts[lo[c]] if lo[c] >= 0 else 0 for c in reps}
        return {PLAY_ACTIONS[c]: value[groups[c]] for c in cards}

    def action_values(self, state: State) -> dict[Action, int]:
        """Each legal play of the seat to act with the maker's final tricks after it (best play by
        all afterwards). Equivalent cards are solved once and share the value."""
        legal = state.legal_actions()
        cards = [a - PLAY_OFFSET for a in legal]
        groups = self._equivalent(state, cards)
        reps = sorted(set(groups.values()))
        vals = dict(zip(reps, self.card_values(state, reps), strict=True))
        return {PLAY_ACTIONS[c]: vals[groups[c]] for c in cards}

    def points(self, state: State) -> tuple[int, ...]:
        """The points per side the hand scores if every seat plays its best from here."""
        return state.score_for(self.solve(state))

    def best_actions(self, state: State) -> tuple[list[Action], tuple[int, ...]]:
        """The best plays of the seat to act (all that tie) and the points per side they lead to:
        the makers maximise their tricks, the defenders minimise them."""
        values = self.action_values(state)
        makers = state.side_of(state.to_act) == state.side_of(state.maker)
        best = max(values.values()) if makers else min(values.values())
        return [a for a, v in values.items() if v == best], state.score_for(best)

    @staticmethod
    def _equivalent(state: State, cards: list[int]) -> dict[int, int]:
        """Each playable card with the representative of its class of equivalent cards."""
        t = state.trump
        assert t is not None
        alive = 0
        for m in state.hands:
            alive |= m
        for _, played in state.trick:
            alive |= 1 << played
        mine = 0
        for c in cards:
            mine |= 1 << c
        rep: dict[int, int] = {}
        current = -1
        last_suit = -1
        for code in _ORDER[t]:
            c = int(code)
            if not alive >> c & 1:
                continue
            s = EFFECTIVE[t][c]
            if s != last_suit:
                last_suit = s
                current = -1
            if mine >> c & 1:
                if current < 0:
                    current = c
                rep[c] = current
            else:
                current = -1
        return rep


_THRESHOLDS: dict[tuple[int, int, bool, int, tuple[int, int, bool]], tuple[object, tuple[int, ...]]] = {}
"""Cache of :func:`thresholds` by (id of the rules, maker, alone, lone defender, auction), with
the rules themselves to check the id still names them."""


def thresholds(state: State) -> tuple[int, ...]:
    """The maker trick counts at which the hand's points change (``k`` such that
    ``state.score_for(k) != state.score_for(k - 1)``), lowest first: all that the outcome of a
    hand is decided by. Trump must be made.

    >>> import random
    >>> from euchre import Rules, State
    >>> s = State.random(Rules(), dealer=0, rng=random.Random(4))
    >>> _ = s.push("order"); _ = s.push(s.legal_actions()[0])
    >>> thresholds(s)
    (3, 5)
    """
    rules = state.rules
    key = (id(rules), state.maker, state.alone, state.lone_defender, state.auction)
    hit = _THRESHOLDS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    pts = [state.score_for(k) for k in range(rules.hand_size + 1)]
    out = tuple(k for k in range(1, len(pts)) if pts[k] != pts[k - 1])
    if len(_THRESHOLDS) > 4096:
        _THRESHOLDS.clear()
    _THRESHOLDS[key] = (rules, out)
    return out


_LOCAL = threading.local()


def thread_solver() -> Solver:
    """The solver of the calling thread: one per thread, made on first use and kept while the
    thread lives, shared by every bot, hint and function that solves in that thread.

    A :class:`Solver` must not be used by two threads at once (its table and scratch arrays are
    changed in place), and its table is large (:data:`TT_BYTES`) and costly to allocate, so the
    search bots take this one instead of owning theirs: a process holds one table per thread that
    searches (the server's pool of computer players: two), not one per bot. Sharing changes no
    result: every solve starts a new generation of the table, so a solve never reads an entry an
    earlier one wrote, and a solver that served other bots answers exactly as a new one."""
    solver: Solver | None = getattr(_LOCAL, "solver", None)
    if solver is None:
        solver = _LOCAL.solver = Solver()
    return solver


def solve(state: State) -> int:
    """The maker's final tricks under best play from ``state`` (the thread's :func:`thread_solver`)."""
    return thread_solver().solve(state)


def action_values(state: State) -> dict[Action, int]:
    """Each legal play with the maker's final tricks after it (the thread's :func:`thread_solver`)."""
    return thread_solver().action_values(state)
