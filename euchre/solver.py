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

Napoleon (RULES-FAMILY.md 16) is solved too: three to seven seats, its packs up to the full 52
(card ids up to 52, so a hand is still one 64-bit mask), its trumps without bowers (indexes 6-9)
and its misère (10, no trump). Every seat but the bidder is paid the same, so the play is a
two-sided game, the bidder alone against the rest, and the value is still the maker's (the
bidder's) tricks; in a misère the bidder plays to take none (:func:`minimises`), which is what
scores it. The cost grows fast with the seats: a seven-seat deal from the first trick can take
seconds (bench/README.md, Napoleon).

The search is alpha-beta over card plays, compiled with numba. What makes it fast:

* a transposition table at trick boundaries, keyed by the cards still held and the leader (within
  one deal the cards fix who holds what), storing lower and upper bounds;
* cards of adjacent rank in one hand are one move: two cards are equivalent when no card still in
  play (held by anyone, or on the table in the current trick) lies between them in the trick
  order of their suit under this trump;
* moves generated in a single pass over a per-trump table of cards by suit and strength, highest
  first, with bitmask hands and in-place undo (no copies);
* the last trick is scored without search, and a window outside what the tricks left can give
  (at least ``left``, at most none) is answered at once (this cut made Euchre's full solves about
  a third faster).

``bench/solver.py`` measures full-hand solves per second.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from numba import njit

from euchre.actions import PLAY_ACTIONS, PLAY_OFFSET, Action, Kind
from euchre.cards import (
    EFFECTIVE,
    JOKER,
    LOW_CARD,
    NUM_ALL_TRUMPS,
    NUM_CARDS,
    PLAIN_TRUMP,
    POWER,
    TWIN,
    TWIN_CARD,
    face,
)
from euchre.errors import PhaseError, RulesError
from euchre.state import MISERE_LEVEL, Phase, State

__all__ = ["Solver", "solve", "action_values", "thread_solver", "thresholds", "minimises", "maximises", "TT_BYTES",
           "MAX_HAND", "MAX_SEATS"]

# Indexed by the trump index: 0-3 a suit, 4 no trump, 5 low (cards.NO_TRUMP, cards.LOW), 6-10
# Napoleon's (cards.PLAIN_TRUMP + suit, cards.PLAIN_NO_TRUMP), 11-16 the double deck's (DOUBLE +
# the Euchre index, on its local card ids: _double_rows). The search's trick winner, "highest
# trump else highest of the led suit", needs no branch for a hand without trump: no card's
# effective suit is 4, 5, 10, 15 or 16.
_SOLVED_CARDS = (NUM_CARDS, LOW_CARD + 20)
"""Card ids the solver plays, by kind of trump index: the Euchre games' 33 (a suit, no trump, low:
indexes 0-5) and Napoleon's 53 (indexes 6-10: the Euchre ids and the 2s to 6s, 33-52). Every
mask fits in 64 bits."""
DOUBLE = NUM_ALL_TRUMPS
"""The double deck's trump indexes are ``DOUBLE + t`` (``t`` the Euchre index, 0-5). Its cards are
given local ids for a solve: a card's first copy in play its own id, the second ``DOUBLE_TWIN +
i`` (``i`` the copy's place among :data:`~euchre.cards.TWIN`'s, 0-23), so that the 48 cards fit in
57 bits while the engine's second copies are ids 53-76 (and two seats' single copies of a card
share the card's id)."""
DOUBLE_TWIN = NUM_CARDS
_ROWS = DOUBLE + 6
_WIDTH = DOUBLE_TWIN + 24


def _ids(t: int) -> int:
    return _SOLVED_CARDS[t >= PLAIN_TRUMP]


def _double_rows() -> tuple[list[list[int]], list[list[int]]]:
    """Effective suits and powers of the double deck's local ids under ``DOUBLE + t``: a second
    copy as its card, and the trump suit renumbered ``DOUBLE + t`` so that the trick winner's
    test (the card's suit is the trump index) holds."""
    eff, pw = [], []
    for t in range(6):
        e = [0] * len(EFFECTIVE[0])
        w = [0] * len(EFFECTIVE[0])
        for c in range(_WIDTH):
            g = c if c < DOUBLE_TWIN else TWIN_CARD + c - DOUBLE_TWIN
            e[c] = DOUBLE + t if EFFECTIVE[t][g] == t and t < 4 else EFFECTIVE[t][g]
            w[c] = POWER[t][g]
        eff.append(e)
        pw.append(w)
    return eff, pw


_DEFF, _DPOW = _double_rows()
_EFF = np.array([*EFFECTIVE, *_DEFF], dtype=np.int64)
_POW = np.array([*POWER, *_DPOW], dtype=np.int64)


def _cards(t: int) -> list[int]:
    """The card ids a trump index's solves hold (the Joker only in the Euchre games)."""
    if t >= DOUBLE:
        return [c for c in range(_WIDTH) if c != JOKER]
    return [c for c in range(_ids(t)) if c != JOKER or t < PLAIN_TRUMP]


_FOL = np.array([[sum(1 << c for c in _cards(t) if _EFF[t, c] == suit) for suit in range(_ROWS)]
                 for t in range(_ROWS)], dtype=np.int64)
"""_FOL[trump, suit]: the cards that follow ``suit`` (an effective suit) under ``trump``."""


def _order(t: int) -> list[int]:
    """The cards of trump index ``t`` grouped by the suit they follow, strongest first within a
    suit (a double deck's two copies side by side), padded with zeros to the widest table."""
    cards = sorted(_cards(t), key=lambda c: (_EFF[t, c], -_POW[t, c], c))
    return cards + [0] * (_WIDTH - len(cards))


_ORDER = np.array([_order(t) for t in range(_ROWS)], dtype=np.int64)
"""_ORDER[trump]: every card grouped by the suit it follows, strongest first within a suit (the
first ``_NORD[trump]`` entries)."""


def _pair(t: int, c: int) -> int:
    if t < DOUBLE:
        return -1
    if c >= DOUBLE_TWIN:
        return int(face(TWIN_CARD + c - DOUBLE_TWIN))
    return DOUBLE_TWIN + TWIN[c] - TWIN_CARD if c in TWIN else -1  # type: ignore[index]


_PAIR = np.array([[_pair(t, c) for c in range(_WIDTH)] for t in range(_ROWS)], dtype=np.int64)
"""_PAIR[trump, card]: the double deck's other copy of a local id (-1 elsewhere). Two cards of one
hand are not one move when the other copy of either is held by another seat: of two copies the
first played wins, so the lower card may lose to it where the higher would not."""
_NORD = np.array([len(_cards(t)) for t in range(_ROWS)], dtype=np.int64)
"""How many entries of ``_ORDER[trump]`` are cards: 33 for the Euchre games, 52 for Napoleon, 56
for the double deck's local ids (24 of them unused: the 7s and 8s)."""

def _segments(t: int) -> list[tuple[int, int, int]]:
    """The runs of ``_ORDER[t]`` by the suit their cards follow: (suit, first index, end index)."""
    out: list[tuple[int, int, int]] = []
    for i in range(int(_NORD[t])):
        suit = int(_EFF[t, _ORDER[t, i]])
        if out and out[-1][0] == suit:
            out[-1] = (suit, out[-1][1], i + 1)
        else:
            out.append((suit, i, i + 1))
    return out


_NSEG = np.array([len(_segments(t)) for t in range(_ROWS)], dtype=np.int64)
_SEG = np.zeros((_ROWS, int(_NSEG.max()), 3), dtype=np.int64)
"""_SEG[trump, g]: the g-th run of ``_ORDER[trump]`` by suit (suit, first index, end index); there
are ``_NSEG[trump]`` of them."""
for _t in range(_ROWS):
    for _g, _run in enumerate(_segments(_t)):
        _SEG[_t, _g] = _run

_LOW67 = np.zeros(67, dtype=np.int64)
for _k in range(63):
    _LOW67[(1 << _k) % 67] = _k

MAX_SEATS = 7
"""The most seats the solver plays (Napoleon's seven; the Euchre games have at most four)."""
MAX_HAND = 6
"""The largest hand the solver plays (its stack and move buffers are sized for it)."""

_TT_BITS = 18
_MAX_PLY = MAX_SEATS * MAX_HAND
TT_BYTES = 4 * 8 << _TT_BITS
"""Bytes of one solver's transposition table (four arrays of 2**18 64-bit words: 8 MiB). The
table never grows: a full slot is overwritten."""


@njit(cache=True, nogil=True)
def _lowbit_index(x: int) -> int:
    """The index of the lowest set bit of ``x`` (below 2**63): 2 is a primitive root modulo 67, so
    the 66 powers of two have distinct remainders (a table look-up instead of a loop of up to 56
    shifts, run for every seat at every last trick)."""
    return _LOW67[(x & -x) % 67]


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
_SEAT, _NT, _LEFT, _ALPHA, _BETA, _A0, _B0, _KEY, _H, _N, _K, _BEST, _HAND, _BONUS, _HELD = range(15)
_SAVED = 15
"""Fields 15..28: the cards and seats (up to :data:`MAX_SEATS` each) of a trick saved when a move
finishes it."""
_FIELDS = _SAVED + 2 * MAX_SEATS


@njit(cache=True, nogil=True)
def _follow_key(c: int, t: int, led: int, best: int, ours: bool) -> int:
    """Sort key of a follower's card (:func:`_order_follow`): the cards that take the trick so far,
    lowest first, before the others, lowest first (only the others when the trick is its side's)."""
    pw = _POW[t, c]
    if not ours:
        e = _EFF[t, c]
        if (e == t or e == led) and pw > best:
            return pw
    return 1000 + pw


@njit(cache=True, nogil=True)
def _order_follow(buf: np.ndarray, p: int, n: int, t: int, tcards: np.ndarray, tseats: np.ndarray, nt: int,
                  maker: np.ndarray, seat: int) -> None:
    """Order the ``n`` moves of a seat that does not lead (``buf[p]``) as a player tries them: with
    the trick its side's so far, lowest first; else the lowest card that takes it, then the others
    lowest first. Only the order of the moves changes, so the values do not: alpha-beta cuts
    sooner when a move that holds the bound comes first (measured on the bidding hint's solves:
    about 40% fewer nodes)."""
    led = _EFF[t, tcards[0]]
    best = -1
    w = tseats[0]
    for j in range(nt):
        c = tcards[j]
        e = _EFF[t, c]
        if (e == t or e == led) and _POW[t, c] > best:
            best = _POW[t, c]
            w = tseats[j]
    ours = maker[MAX_SEATS + w] == maker[MAX_SEATS + seat]
    for i in range(1, n):  # (insertion sort: a handful of moves)
        c = buf[p, i]
        k = _follow_key(c, t, led, best, ours)
        j = i - 1
        while j >= 0 and _follow_key(buf[p, j], t, led, best, ours) > k:
            buf[p, j + 1] = buf[p, j]
            j -= 1
        buf[p, j + 1] = c


@njit(cache=True, nogil=True, inline="always")
def _enter(fr: np.ndarray, p: int, hands: np.ndarray, held: int, t: int, maker: np.ndarray,
           nactive: int, nxt: np.ndarray, tcards: np.ndarray, tseats: np.ndarray, nt: int, seat: int,
           left: int, alpha: int, beta: int, tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray,
           tt_hi: np.ndarray, gen: int, buf: np.ndarray) -> int:
    """Open the node of ply ``p``: return its value when it is known at once (end of the hand,
    last trick, a transposition-table cut), else generate its moves and return -100. ``held``:
    every card still in a hand (the trick's excluded)."""
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
        # The value lies in [0, left]: a window outside it is answered at once.
        if alpha >= left:
            return left
        if beta <= 0:
            return 0
        # The cards held fix who holds what within one deal; the leader's seat takes the three
        # low bits (the cards, Napoleon's up to id 52, sit above them).
        key = (held << 3) | seat | (1 << 60)
        h = ((key * 0x4F1BBCDCBFA53E0B) >> 30) & (tt_key.shape[0] - 1)  # (a table of 2**k entries)
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
    double = t >= DOUBLE
    for g in range(_NSEG[t]):
        # One suit at a time, and only the suits the seat may play (the equivalence of two cards
        # looks within a suit, so the others add no move): a follower scans its suit alone.
        if not moves & _FOL[t, _SEG[t, g, 0]]:
            continue
        last_mine = False
        for i in range(_SEG[t, g, 1], _SEG[t, g, 2]):
            c = _ORDER[t, i]
            bit = 1 << c
            if not alive & bit:
                continue
            if moves & bit:
                tied = False  # the double deck: the other copy of this card is another seat's
                if double:
                    q = _PAIR[t, c]
                    tied = q >= 0 and (alive >> q) & 1 == 1 and (moves >> q) & 1 == 0
                if not last_mine or tied:
                    buf[p, n] = c
                    n += 1
                last_mine = not tied
            else:
                last_mine = False
    if nt > 0 and n > 1:
        _order_follow(buf, p, n, t, tcards, tseats, nt, maker, seat)
    elif n > 1:
        # A leader tries its strongest cards first, whatever their suit (4% fewer nodes than suit
        # by suit on the bidding hint's solves; trumps first or weakest first did worse).
        for i in range(1, n):
            c = buf[p, i]
            k = _POW[t, c]
            j = i - 1
            while j >= 0 and _POW[t, buf[p, j]] < k:
                buf[p, j + 1] = buf[p, j]
                j -= 1
            buf[p, j + 1] = c
    fr[p, _SEAT] = seat
    fr[p, _NT] = nt
    fr[p, _LEFT] = left
    fr[p, _ALPHA] = alpha
    fr[p, _BETA] = beta
    fr[p, _N] = n
    fr[p, _K] = 0
    fr[p, _BEST] = -1 if maker[MAX_SEATS + seat] == 1 else 99
    fr[p, _HAND] = hand
    fr[p, _HELD] = held
    return -100


@njit(cache=True, nogil=True)
def _search(hands: np.ndarray, t: int, nxt: np.ndarray, maker: np.ndarray, nactive: int,
            tcards: np.ndarray, tseats: np.ndarray, nt: int, seat: int, left: int,
            alpha: int, beta: int, tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray,
            tt_hi: np.ndarray, gen: int, buf: np.ndarray, fr: np.ndarray) -> int:
    """Maker tricks still to come (this trick included) under best play: fail-soft alpha-beta
    over card plays with an explicit stack.

    ``hands`` are bitmasks (one per seat, :data:`MAX_SEATS` of them, zero for a seat not
    playing), changed and restored in place; ``maker[s]`` is 1 when a trick seat ``s`` wins counts
    for the value, ``maker[MAX_SEATS + s]`` 1 when seat ``s`` plays to raise the value (the
    makers; a misère bidder plays to keep it down: that is then 0 for it and 1 for the others,
    :meth:`Solver._setup`); ``tcards``/
    ``tseats`` hold the ``nt`` cards of the trick in progress; ``seat`` is to play; ``left``
    counts the tricks not yet finished (the current one included). The search never leaves the
    trick arrays changed.
    """
    held = 0
    for j in range(MAX_SEATS):
        held |= hands[j]
    v = _enter(fr, 0, hands, held, t, maker, nactive, nxt, tcards, tseats, nt, seat, left, alpha, beta,
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
                for j in range(nactive):
                    fr[p, _SAVED + j] = tcards[j]
                    fr[p, _SAVED + MAX_SEATS + j] = tseats[j]
                v = _enter(fr, p + 1, hands, fr[p, _HELD] & ~(1 << c), t, maker, nactive, nxt, tcards, tseats, 0, w,
                           fr[p, _LEFT] - 1, a - m, b - m, tt_key, tt_gen, tt_lo, tt_hi, gen, buf)
            else:
                fr[p, _BONUS] = -1
                v = _enter(fr, p + 1, hands, fr[p, _HELD] & ~(1 << c), t, maker, nactive, nxt, tcards, tseats,
                           q + 1, nxt[s],
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
            for j in range(nactive):
                tcards[j] = fr[p, _SAVED + j]
                tseats[j] = fr[p, _SAVED + MAX_SEATS + j]
            v += m
        if maker[MAX_SEATS + s] == 1:
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
    saved_cards = tcards.copy()
    saved_seats = tseats.copy()
    for k in range(cards.shape[0]):
        c = cards[k]
        hands[seat] = hand & ~(1 << c)
        tcards[nt] = c
        tseats[nt] = seat
        if nt + 1 == nactive:
            w = _winner(t, tcards, tseats, nactive)
            m = maker[w]
            saved_cards[:] = tcards
            saved_seats[:] = tseats
            out[k] = m + _search(hands, t, nxt, maker, nactive, tcards, tseats, 0, w, left - 1,
                                 alpha - m, beta - m, tt_key, tt_gen, tt_lo, tt_hi, gen, buf, fr)
            tcards[:] = saved_cards
            tseats[:] = saved_seats
        else:
            out[k] = _search(hands, t, nxt, maker, nactive, tcards, tseats, nt + 1, nxt[seat], left,
                             alpha, beta, tt_key, tt_gen, tt_lo, tt_hi, gen, buf, fr)
    hands[seat] = hand


def _card_of(a: Action) -> int:
    """The card id of a play action (Napoleon's 2s to 6s, ids 33-52, play by codes of their own)."""
    if a.kind is Kind.PLAY and a - PLAY_OFFSET >= NUM_CARDS:
        return int(a.card)  # type: ignore[arg-type]
    return a - PLAY_OFFSET


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
        self._tcards = np.zeros(MAX_SEATS, dtype=np.int64)
        self._tseats = np.zeros(MAX_SEATS, dtype=np.int64)
        self._t = 0
        """The trump index of the current solve (the double deck's: :data:`DOUBLE` + trump)."""
        self._local: dict[tuple[int, int], int] | None = None
        """The double deck: (seat, card) -> the local id of a copy the seat holds (:meth:`_double`)."""

    def _setup(self, state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
        rules = state.rules
        if state.phase is not Phase.PLAY:
            raise PhaseError(f"the solver needs a hand in trick play, not {state.phase_words()}")
        if rules.hand_size > MAX_HAND and (not rules.double_deck or max(
                state.hands[s].bit_count() for s in range(state.n) if state.is_active(s)) > MAX_HAND):
            # (a moon's partner sits out with its cards: only the seats that play count)
            raise RulesError(f"the solver plays hands of at most {MAX_HAND} cards, not {rules.hand_size}"
                             + (" (the double deck: from the last six tricks)" if rules.double_deck else ""))
        n = state.n
        hands = np.zeros(MAX_SEATS, dtype=np.int64)
        nxt = np.zeros(MAX_SEATS, dtype=np.int64)
        maker = np.zeros(2 * MAX_SEATS, dtype=np.int64)
        active = [s for s in range(n) if state.is_active(s)]
        double = rules.double_deck
        for i, s in enumerate(active):
            hands[s] = 0 if double else state.hands[s]  # (the double deck's: local ids, below)
            nxt[s] = active[(i + 1) % len(active)]
        maker_side = state.side_of(state.maker)
        # Whose tricks count (the maker's side), then who plays to raise them: the makers, except
        # in a misère, where the bidder plays to take none and every other seat to give it one.
        flip = minimises(state)
        for s in range(n):
            maker[s] = 1 if state.side_of(s) == maker_side else 0
            maker[MAX_SEATS + s] = maker[s] ^ flip
        for j, (s, c) in enumerate(state.trick):
            self._tcards[j] = 0 if double else c
            self._tseats[j] = s
        self._t = int(state.trump)  # type: ignore[arg-type]
        self._local = None
        if double:
            self._double(state, hands, active)
        self._gen += 1
        return hands, nxt, maker, len(active), len(state.trick), rules.hand_size - len(state.tricks)

    def _double(self, state: State, hands: np.ndarray, active: list[int]) -> None:
        """The double deck: the cards in play renumbered onto local ids (:data:`DOUBLE`), the
        trick's first, so that a card's two copies are two ids and every hand a mask of 57 bits;
        the trump index becomes ``DOUBLE + trump``. ``self._local`` maps (seat, card) to the id of
        a copy of that card the seat holds, for the cards asked about."""
        taken: set[int] = set()

        def local(c: int) -> int:
            f = int(face(c))
            if f not in taken:
                taken.add(f)
                return f
            return DOUBLE_TWIN + TWIN[f] - TWIN_CARD  # type: ignore[index]

        for j, (_, played) in enumerate(state.trick):
            self._tcards[j] = local(played)
        self._local = {}
        for s in active:
            mask = 0
            m = state.hands[s]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                lid = local(c)
                self._local.setdefault((s, int(face(c))), lid)
                mask |= 1 << lid
                m ^= low
            hands[s] = mask
        self._t = DOUBLE + self._t

    def _ids_of(self, seat: int, cards: Sequence[int]) -> list[int]:
        """The solver's ids of a seat's cards (the double deck's local ids, else the cards)."""
        if self._local is None:
            return list(cards)
        return [self._local[(seat, int(face(c)))] for c in cards]

    def solve(self, state: State) -> int:
        """The tricks the maker's side ends the hand with (already won included) if every seat
        plays its best from here (in a misère, the bidder as few as it can)."""
        if state.phase is Phase.OVER:
            return state.maker_tricks()
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        future = _search(hands, self._t, nxt, maker, nactive, self._tcards,  # type: ignore[arg-type]
                         self._tseats, nt, state.to_act, left, -1, state.rules.hand_size + 1, self._tt_key,
                         self._tt_gen, self._tt_lo, self._tt_hi, self._gen, self._buf, self._fr)
        return state.maker_tricks() + int(future)

    def card_values(self, state: State, cards: Sequence[int]) -> list[int]:
        """For each card (each must be a legal play of the seat to act), the maker's final tricks
        if it is played and everyone plays best afterwards."""
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        arr = np.array(self._ids_of(state.to_act, cards), dtype=np.int64)
        out = np.zeros(len(cards), dtype=np.int64)
        _root(hands, self._t, nxt, maker, nactive, self._tcards, self._tseats, nt,  # type: ignore[arg-type]
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
        t = self._t

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
        v = _search(hands, self._t, nxt, maker, nactive, self._tcards, self._tseats,  # type: ignore[arg-type]
                    nt, state.to_act, left, need - 1, need, self._tt_key, self._tt_gen, self._tt_lo,
                    self._tt_hi, self._gen, self._buf, self._fr)
        return int(v) >= left if makers else int(v) < 1

    def action_outcomes(self, state: State) -> dict[Action, int]:
        """Like :meth:`action_values`, but each value only as exact as scoring needs (see
        :meth:`outcome`): much faster, the same points."""
        legal = state.legal_actions()
        cards = [_card_of(a) for a in legal]
        groups = self._equivalent(state, cards)
        reps = sorted(set(groups.values()))
        hands, nxt, maker, nactive, nt, left = self._setup(state)
        base = state.maker_tricks()
        t = self._t

        def at_least(k: int, among: list[int]) -> dict[int, bool]:
            need = k - base
            if need <= 0 or need > left or not among:
                return {c: need <= 0 for c in among}
            arr = np.array(self._ids_of(state.to_act, among), dtype=np.int64)
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
        cards = [_card_of(a) for a in legal]
        groups = self._equivalent(state, cards)
        reps = sorted(set(groups.values()))
        vals = dict(zip(reps, self.card_values(state, reps), strict=True))
        return {PLAY_ACTIONS[c]: vals[groups[c]] for c in cards}

    def points(self, state: State) -> tuple[int, ...]:
        """The points per side the hand scores if every seat plays its best from here."""
        return state.score_for(self.solve(state))

    def best_actions(self, state: State) -> tuple[list[Action], tuple[int, ...]]:
        """The best plays of the seat to act (all that tie) and the points per side they lead to:
        the makers maximise their tricks, the defenders minimise them (a misère bidder minimises
        its own, the others maximise them)."""
        values = self.action_values(state)
        best = max(values.values()) if maximises(state) else min(values.values())
        return [a for a, v in values.items() if v == best], state.score_for(best)

    @staticmethod
    def _equivalent(state: State, cards: list[int]) -> dict[int, int]:
        """Each playable card with the representative of its class of equivalent cards (the
        double deck: each its own, the search merging them itself)."""
        if state.rules.double_deck:
            return {c: c for c in cards}
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
        for code in _ORDER[t, :_NORD[t]]:
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


def minimises(state: State) -> bool:
    """Whether the maker plays to take as few tricks as it can: a Napoleon misère (RULES-FAMILY.md
    16), which is made by taking none. The solver's value stays the maker's tricks, so that
    :meth:`~euchre.state.State.score_for` scores it as ever; only who plays to raise it changes."""
    return state.rules.napoleon and state.bid == MISERE_LEVEL


def maximises(state: State) -> bool:
    """Whether the seat to act plays to raise the solver's value (the maker's tricks): the makers
    do, the defenders lower it, and a misère turns both round (:func:`minimises`)."""
    return (state.side_of(state.to_act) == state.side_of(state.maker)) != minimises(state)


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
