"""Many hands per call, compiled: a batch simulator and a vectorised environment.

:func:`simulate` deals and plays ``hands`` complete hands in one call of numba-compiled code and
returns every deal, every action and every outcome as numpy arrays (:class:`BatchResult`). The
seats follow a policy each: ``"random"`` (a uniform choice among the legal actions) or
``"heuristic"`` (a port of :class:`~euchre.bots.heuristic.HeuristicBot`, decision for decision;
``tests/test_batch.py`` checks both against the engine). :class:`VectorEnv` keeps many tables in
lockstep for learning code: one step applies one action at every table and returns the
observations of the seats to act (in the layout of the PettingZoo environment,
:mod:`euchre.envs.observation`) and their legal-action masks as one array each.

The compiled hand is a second implementation of :mod:`euchre.state`'s rules, in the same units
(one branch per :class:`~euchre.state.Phase`), on one ``int64`` row per table (the ``_F_*``
fields below): the agreement tests replay every batch hand through :class:`~euchre.state.State`
and compare the legal actions at every step, the tricks and the points. Every hand-level field
of :class:`~euchre.rules.Rules` is covered: two to four players, the four decks (the Joker
included), going alone, stick the dealer, Canadian loner, defend alone, the loner's lead, no
trump and low, call for best (and ``best_card_free``), ace-no-face, the farmer's hand, every
point value and super-euchre, the dealer's discard of the up card. Game-level fields (the ending,
matches, tie-break) do not change a hand: every hand of a batch is played on its own, at a game
score of 0 to 0 (what the heuristic sees, as for a :class:`~euchre.view.PlayerView` built without
a game). A deal on which a misdeal is called (ace-no-face) ends there, cancelled (``misdeal`` is
the caller's seat, no points): it is a row of the batch, not a hand of a game.

The sister games (Hasenpfeffer, Bid Euchre, its double deck, Napoleon at three to seven players:
RULES-FAMILY.md 14-16) have no up card, bid tricks, deal six or twelve cards, or seat up to seven
each for themselves, none of which this ``int64`` row has room for: :func:`simulate` and
:class:`VectorEnv` play them on a row of their own, in :mod:`euchre.batch_sister` (an auction,
seven seats, twelve tricks, the moon's gift, local card ids below 63 for Napoleon's 52-card pack
and the double deck's copies), with both policies (the heuristic ported from the games' own
players) and the games' own observation layouts. Every switch of theirs is covered (players and
``nap_half_loss`` in Napoleon, ``defenders_score_tricks`` in Hasenpfeffer); the arrays have the
same names, cards are engine ids there too, and :attr:`BatchResult.bid` and
:attr:`BatchResult.forced_bid` hold the auction.

Randomness: hand ``i`` of ``simulate(..., seed=s)`` draws everything (the shuffle, a random
dealer, every random choice) from its own generator, seeded from ``(s, i)`` (SplitMix64), so a
batch is the same for one seed whatever its size: the first ``k`` hands of a batch of ``N`` are
the batch of ``k``.

The code is compiled on first use and cached on disk (``cache=True``: numba keeps the machine
code in ``__pycache__``), so only the very first call on a machine pays the compilation.
``bench/batch.py`` measures hands per second against OpenSpiel's all-C++ random playouts, and with
``--sister`` each sister game's against the engine's Python playouts of the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from euchre.actions import EUCHRE_ACTIONS, NUM_ACTIONS
from euchre.cards import CARDS, EFFECTIVE, FOLLOW, JOKER, NUM_CARDS, NUM_TRUMPS, POWER, deck_cards, deck_mask, sort_hand
from euchre.errors import RulesError
from euchre.rules import HAND_SIZE, Rules
from euchre.state import Deal, State

if TYPE_CHECKING:
    from euchre import batch_sister

__all__ = ["simulate", "BatchResult", "VectorEnv", "MAX_ACTIONS", "POLICIES"]

POLICIES = ("random", "heuristic")
"""The policies a seat may follow (:func:`simulate`'s ``policy``)."""

MAX_ACTIONS = 48
"""Room for the actions of one hand (the padded width of :attr:`BatchResult.actions`). No hand
takes more than 42: four ace-no-face offers kept, the farmer's claim and three cards given, eight
bids (or four and the dealer's discard), two defend-alone answers, two calls for best of two
decisions each, 20 cards."""

# --- tables (rule-independent; numba freezes them into the compiled code) ----------------------------
_EFF = np.array(EFFECTIVE, dtype=np.int64)
_POW = np.array(POWER, dtype=np.int64)
_FOL = np.array([[m & ((1 << NUM_CARDS) - 1) for m in row] for row in FOLLOW], dtype=np.int64)
"""(The Euchre games' cards only: Napoleon's and the double deck's ids 33-76 are not batched.)"""
_TAKES = np.array(
    [[[POWER[t][c] if EFFECTIVE[t][c] in (t, led) else -1 for c in range(NUM_CARDS)] for led in range(NUM_TRUMPS)]
     for t in range(NUM_TRUMPS)], dtype=np.int64)
"""_TAKES[trump][led][card]: the card's power in a trick led in that suit, -1 if it cannot win."""
_DECKS = (20, 24, 25, 32)
_DECK_MASK = np.array([deck_mask(d) for d in _DECKS], dtype=np.int64)
_SORD = np.full((len(_DECKS), NUM_TRUMPS, NUM_TRUMPS, NUM_CARDS), -1, dtype=np.int64)
"""_SORD[deck][trump][suit]: the deck's cards of that effective suit, strongest first."""
_SCNT = np.zeros((len(_DECKS), NUM_TRUMPS, NUM_TRUMPS), dtype=np.int64)
for _di, _d in enumerate(_DECKS):
    for _t in range(NUM_TRUMPS):
        for _s in range(NUM_TRUMPS):
            _cs = sorted((c for c in deck_cards(_d) if EFFECTIVE[_t][c] == _s), key=lambda c, t=_t: -POWER[t][c])  # type: ignore[misc]
            _SCNT[_di, _t, _s] = len(_cs)
            _SORD[_di, _t, _s, :len(_cs)] = _cs
_NONE = 6
"""The display-order row of "no trump made yet" (``_DISP[_NONE]``)."""
_DISP = np.full((NUM_TRUMPS + 1, NUM_CARDS), -1, dtype=np.int64)
"""_DISP[trump]: every card in the order a hand is shown (:func:`~euchre.cards.sort_hand`), which is
the order of :attr:`PlayerView.hand <euchre.view.PlayerView.hand>`; the heuristic adds its
estimates in this order, so the compiled sums are the Python ones to the last bit."""
for _t in range(NUM_TRUMPS + 1):
    _cs = sort_hand([c for c in CARDS[:NUM_CARDS] if not (c == JOKER and NUM_TRUMPS > _t >= 4)],
                    None if _t == _NONE else _t)
    _DISP[_t, :len(_cs)] = _cs
_LOWBIT = np.zeros(37, dtype=np.int64)
for _k in range(36):
    _LOWBIT[(1 << _k) % 37] = _k
"""The index of a one-bit mask below 2**36: ``_LOWBIT[bit % 37]``."""
_PACKETS = np.zeros((5, 4, 4), dtype=np.int64)
"""_PACKETS[players][i]: the two slices of the shuffled pack dealt to the i-th seat from the dealer's
left, 3-2-3-2 then 2-3-2-3 (as :meth:`State.random <euchre.state.State.random>`)."""
for _n, _first in ((4, (3, 2, 3, 2)), (3, (3, 2, 3)), (2, (3, 2))):
    _second = tuple(HAND_SIZE - k for k in _first)
    for _i in range(_n):
        _a = sum(_first[:_i])
        _c = sum(_first) + sum(_second[:_i])
        _PACKETS[_n, _i] = (_a, _a + _first[_i], _c, _c + _second[_i])
_FACES = sum(1 << c for c in CARDS[:NUM_CARDS] if c.rank in (4, 5, 6, 8))
_ACES = sum(1 << c for c in CARDS[:NUM_CARDS] if c.rank == 7)
_NINES_TENS = sum(1 << c for c in CARDS[:NUM_CARDS] if c.rank in (2, 3))

# --- the phases (euchre.state.Phase) and the action codes (euchre.actions) -------------------------
_BID1, _TAKE, _BID2, _JOKER, _DISCARD, _DEFEND, _PLAY, _OVER, _GIVE, _BEST_DISCARD = range(10)
_MISDEAL_OFFER, _FARMER_OFFER, _FARMER_GIVE = 11, 12, 13
_A_PASS, _A_ORDER, _A_ORDER_ALONE, _A_TAKE, _A_DEFEND = range(5)
_A_CALL, _A_CALL_ALONE, _A_DISCARD, _A_PLAY = 5, 9, 13, 46
_A_NT, _A_NT_ALONE, _A_LOW, _A_LOW_ALONE, _A_GIVE = 79, 80, 81, 82, 83
_A_MISDEAL, _A_KEEP, _A_FARMER = 116, 117, 118

# --- one hand as a row of int64 ---------------------------------------------------------------------
(_F_PHASE, _F_TO_ACT, _F_TRUMP, _F_MAKER, _F_ALONE, _F_OUT, _F_LONE_DEF, _F_UP_TAKEN, _F_DISCARD,
 _F_LEADER, _F_TRICK_N, _F_TRICKS, _F_DEALER, _F_UP, _F_MISDEAL, _F_FARMER, _F_FARMER_N, _F_N,
 _F_TRICK_SIZE, _F_PLAYED, _F_STOCK, _F_GIFTS, _F_NACT) = range(23)
_F_HANDS = 24
"""Four hand masks."""
_F_TCARDS = 28
_F_TSEATS = 32
_F_WON = 36
_F_POINTS = 40
_F_VOIDS = 44
"""Per seat, the mask of the (effective) suits it showed it is out of."""
_F_GIFT = 48
"""Two calls for best of five fields: giver, receiver, card, forced, discard (-1 until made)."""
_F_GAVE = 58
"""The farmer's three cards given."""
_F_DEAL = 61
"""The four hands as dealt (masks)."""
_FIELDS = 66

# --- the rules as a row of int64 -----------------------------------------------------------------------
(_R_N, _R_DECK, _R_DECK_MASK, _R_GOING_ALONE, _R_STICK, _R_CANADIAN, _R_DEFEND, _R_LONER_LEFT, _R_NT,
 _R_LOW, _R_CFB, _R_FREE, _R_ANF, _R_FARMERS, _R_MAKE, _R_MARCH, _R_LMARCH, _R_EUCHRE, _R_LEUCHRE,
 _R_LDEUCHRE, _R_SUPER, _R_SUPER_PTS, _R_MAY_DISCARD_UP, _R_TARGET, _R_SIDES, _R_JOKER) = range(26)
_RFIELDS = 26


def _euchre_only(rules: Rules) -> None:
    """Raise :class:`~euchre.errors.RulesError` for the rules of a sister game, which this module's
    Euchre row cannot hold (:func:`simulate` and :class:`VectorEnv` hand them to
    :mod:`euchre.batch_sister` before building it)."""
    game = rules.sister_game
    if game is not None:
        field = "auction" if rules.auction else "bid_euchre" if rules.bid_euchre else "napoleon"
        raise RulesError(f"Rules.{field}: euchre.batch's Euchre row does not hold {game} (an auction, up to seven "
                         "seats, six or twelve cards); its hands are played by euchre.batch_sister")


def _rules_row(rules: Rules) -> np.ndarray:
    _euchre_only(rules)
    r = np.zeros(_RFIELDS, dtype=np.int64)
    r[_R_N] = rules.players
    r[_R_DECK] = _DECKS.index(rules.deck)
    r[_R_DECK_MASK] = deck_mask(rules.deck)
    r[_R_GOING_ALONE] = rules.going_alone
    r[_R_STICK] = rules.stick_the_dealer
    r[_R_CANADIAN] = rules.canadian_loner
    r[_R_DEFEND] = rules.defend_alone
    r[_R_LONER_LEFT] = rules.loner_lead == "loner_left"
    r[_R_NT] = rules.no_trump
    r[_R_LOW] = rules.low_no_trump
    r[_R_CFB] = rules.call_for_best
    r[_R_FREE] = rules.best_card_free
    r[_R_ANF] = rules.ace_no_face
    r[_R_FARMERS] = rules.farmers_hand
    r[_R_MAKE] = rules.make_points
    r[_R_MARCH] = rules.march_points
    r[_R_LMARCH] = rules.loner_march_points
    r[_R_EUCHRE] = rules.euchre_points
    r[_R_LEUCHRE] = rules.loner_euchre_points
    r[_R_LDEUCHRE] = rules.lone_defender_euchre_points
    r[_R_SUPER] = rules.super_euchre
    r[_R_SUPER_PTS] = rules.super_euchre_points
    r[_R_MAY_DISCARD_UP] = rules.dealer_may_discard_up_card
    r[_R_TARGET] = -1 if rules.target is None else rules.target
    r[_R_SIDES] = rules.sides
    r[_R_JOKER] = rules.has_joker
    return r


# --- the heuristic's constants as a row of float64 (read from the bot's module at each call) ---------
(_H_OFF_ACE, _H_OFF_ACE_LONG, _H_OFF_KING_WITH_ACE, _H_OFF_KING, _H_VOID, _H_THRESHOLD, _H_ASSIST, _H_GIVE,
 _H_NEXT, _H_CROSS, _H_LONE, _H_LONE_ASSIST, _H_DEFEND, _H_NT_MARGIN, _H_NT_SECOND, _H_NT_LENGTH,
 _H_NT_LONE, _H_GIFT_LOSERS, _H_DEFEND_GIFT, _H_AGGRESSION, _H_LONE_WITH_LOSER) = range(21)
_H_TV = 21
"""Nine trump values."""
_H_R1 = 30
"""Four round-1 shifts by role (dealer, left, partner, right)."""
_H_R2 = 34
_HFIELDS = 38


def _heuristic_row(players: int, aggression: float = 0.0, lone_with_loser: bool = False) -> np.ndarray:
    from euchre.bots import heuristic as hb

    h = np.zeros(_HFIELDS, dtype=np.float64)
    h[_H_OFF_ACE] = hb.OFF_ACE
    h[_H_OFF_ACE_LONG] = hb.OFF_ACE_LONG
    h[_H_OFF_KING_WITH_ACE] = hb.OFF_KING_WITH_ACE
    h[_H_OFF_KING] = hb.OFF_KING
    h[_H_VOID] = hb.VOID
    h[_H_THRESHOLD] = hb.ORDER_THRESHOLD[players]
    h[_H_ASSIST] = hb.ASSIST
    h[_H_GIVE] = hb.GIVE
    h[_H_NEXT] = hb.NEXT_BONUS
    h[_H_CROSS] = hb.CROSS_BONUS
    h[_H_LONE] = hb.LONE_LOSERS
    h[_H_LONE_ASSIST] = hb.LONE_LOSERS_ASSIST
    h[_H_DEFEND] = hb.DEFEND_ALONE_THRESHOLD
    h[_H_NT_MARGIN] = hb.NT_MARGIN
    h[_H_NT_SECOND] = hb.NT_SECOND
    h[_H_NT_LENGTH] = hb.NT_LENGTH
    h[_H_NT_LONE] = hb.NT_LONE_LOSERS
    h[_H_GIFT_LOSERS] = hb.GIFT_LOSERS
    h[_H_DEFEND_GIFT] = hb.DEFEND_GIFT
    h[_H_AGGRESSION] = aggression
    h[_H_LONE_WITH_LOSER] = 1.0 if lone_with_loser else 0.0
    if len(hb.TRUMP_VALUES) != 9:
        raise NotImplementedError("euchre.batch ports a heuristic of nine TRUMP_VALUES")
    h[_H_TV:_H_TV + 9] = hb.TRUMP_VALUES
    for i, role in enumerate(("dealer", "left", "partner", "right")):
        h[_H_R1 + i] = hb.ROUND1_SHIFT[role]
        h[_H_R2 + i] = hb.ROUND2_SHIFT[role]
    return h


# --- small compiled helpers ------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _mask_cards(mask: int, out: np.ndarray) -> int:
    """The cards of a mask into ``out``, lowest id first; returns their number."""
    n = 0
    while mask:
        low = mask & -mask
        out[n] = _LOWBIT[low % 37]
        n += 1
        mask ^= low
    return n


@njit(cache=True, nogil=True)
def _display(mask: int, t: int, out: np.ndarray) -> int:
    """The cards of a mask into ``out`` in display order under trump index ``t`` (``_NONE``: no trump
    made yet); returns their number."""
    n = 0
    for i in range(NUM_CARDS):
        c = _DISP[t, i]
        if c < 0:
            break
        if mask >> c & 1:
            out[n] = c
            n += 1
    return n


@njit(cache=True, nogil=True)
def _rank(c: int) -> int:
    return 8 if c == 32 else c & 7


@njit(cache=True, nogil=True)
def _partner(n: int, seat: int) -> int:
    return (seat + 2) % 4 if n == 4 else -1


@njit(cache=True, nogil=True)
def _side(n: int, seat: int) -> int:
    return seat % 2 if n == 4 else seat


# SplitMix64: one uint64 of state per generator, in a one-element array.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _next(rs: np.ndarray) -> np.uint64:
    z = rs[0] + _GOLDEN
    rs[0] = z
    return _mix(z)


@njit(cache=True, nogil=True)
def _below(rs: np.ndarray, n: int) -> int:
    """A uniform int in ``[0, n)`` (n small: the bias is below n / 2**32)."""
    return np.int64(((_next(rs) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def _shuffle(pool: np.ndarray, cards: np.ndarray, rs: np.ndarray) -> None:
    """``cards`` set to ``pool`` in a uniformly random order (Fisher-Yates, from the generator ``rs``)."""
    m = pool.shape[0]
    for j in range(m):
        cards[j] = pool[j]
    for j in range(m - 1, 0, -1):
        r = _below(rs, j + 1)
        x = cards[j]
        cards[j] = cards[r]
        cards[r] = x


@njit(cache=True, nogil=True)
def _uniform(rs: np.ndarray) -> float:
    return float(_next(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def _seed_hand(rs: np.ndarray, seed: np.uint64, i: int) -> None:
    """The generator of hand (or table) ``i`` of a batch seeded ``seed``."""
    rs[0] = _mix(_mix(np.uint64(seed) + _GOLDEN) + np.uint64(i) * _MIX2)


# --- the rules of a hand: setup ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _start_bidding(S: np.ndarray, R: np.ndarray) -> None:
    if R[_R_JOKER] and S[_F_UP] == 32:
        S[_F_PHASE] = _JOKER
        S[_F_TO_ACT] = S[_F_DEALER]
    else:
        S[_F_PHASE] = _BID1
        S[_F_TO_ACT] = (S[_F_DEALER] + 1) % S[_F_N]


@njit(cache=True, nogil=True)
def _offer_farmer(S: np.ndarray, R: np.ndarray) -> None:
    if R[_R_FARMERS]:
        n = S[_F_N]
        for k in range(1, n + 1):
            seat = (S[_F_DEALER] + k) % n
            if S[_F_HANDS + seat] & ~_NINES_TENS == 0:
                S[_F_PHASE] = _FARMER_OFFER
                S[_F_TO_ACT] = seat
                return
    _start_bidding(S, R)


@njit(cache=True, nogil=True)
def _offer_misdeal(S: np.ndarray, R: np.ndarray, first: int) -> None:
    n = S[_F_N]
    for k in range(first, n + 1):
        seat = (S[_F_DEALER] + k) % n
        h = S[_F_HANDS + seat]
        if h & _FACES == 0 and _popcount(h & _ACES) <= 1:
            S[_F_PHASE] = _MISDEAL_OFFER
            S[_F_TO_ACT] = seat
            return
    _offer_farmer(S, R)


@njit(cache=True, nogil=True)
def _deal(S: np.ndarray, R: np.ndarray, rs: np.ndarray, dealer: int, pack: np.ndarray, deck: np.ndarray) -> None:
    """Shuffle ``deck`` (the deck's cards) into ``pack`` and set ``S`` to the fresh hand."""
    m = deck.shape[0]
    _shuffle(deck, pack, rs)
    n = R[_R_N]
    for i in range(S.shape[0]):
        S[i] = 0
    S[_F_N] = n
    S[_F_DEALER] = dealer
    for i in range(n):
        seat = (dealer + 1 + i) % n
        h = 0
        for j in range(_PACKETS[n, i, 0], _PACKETS[n, i, 1]):
            h |= 1 << pack[j]
        for j in range(_PACKETS[n, i, 2], _PACKETS[n, i, 3]):
            h |= 1 << pack[j]
        S[_F_HANDS + seat] = h
        S[_F_DEAL + seat] = h
    pos = HAND_SIZE * n
    S[_F_UP] = pack[pos]
    stock = 0
    for j in range(pos + 1, m):
        stock |= 1 << pack[j]
    S[_F_STOCK] = stock
    _setup(S, R)


@njit(cache=True, nogil=True)
def _setup(S: np.ndarray, R: np.ndarray) -> None:
    """The fields after the deal (hands, up card, stock, dealer set): as ``State._setup``."""
    S[_F_TRUMP] = -1
    S[_F_MAKER] = -1
    S[_F_ALONE] = 0
    S[_F_OUT] = 0
    S[_F_LONE_DEF] = -1
    S[_F_UP_TAKEN] = 0
    S[_F_DISCARD] = -1
    S[_F_LEADER] = -1
    S[_F_TRICK_N] = 0
    S[_F_TRICKS] = 0
    S[_F_MISDEAL] = -1
    S[_F_FARMER] = -1
    S[_F_FARMER_N] = 0
    S[_F_PLAYED] = 0
    S[_F_GIFTS] = 0
    S[_F_NACT] = 0
    for i in range(4):
        S[_F_WON + i] = 0
        S[_F_POINTS + i] = 0
        S[_F_VOIDS + i] = 0
    S[_F_PHASE] = _BID1
    S[_F_TO_ACT] = (S[_F_DEALER] + 1) % S[_F_N]
    if R[_R_ANF]:
        _offer_misdeal(S, R, 1)
    else:
        _offer_farmer(S, R)


# --- the rules of a hand: legal actions -------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _legal(S: np.ndarray, R: np.ndarray, out: np.ndarray) -> int:
    """The legal actions into ``out`` in code order (``State.legal_actions``); returns their number."""
    ph = S[_F_PHASE]
    seat = S[_F_TO_ACT]
    if ph == _PLAY:
        hand = S[_F_HANDS + seat]
        if S[_F_TRICK_N]:
            t = S[_F_TRUMP]
            f = hand & _FOL[t, _EFF[t, S[_F_TCARDS]]]
            if f:
                hand = f
        k = 0
        while hand:
            low = hand & -hand
            out[k] = _A_PLAY + _LOWBIT[low % 37]
            k += 1
            hand ^= low
        return k
    if ph == _BID1:
        out[0] = _A_PASS
        k = 1
        if not (R[_R_CANADIAN] and seat == (S[_F_DEALER] + 2) % 4):
            out[k] = _A_ORDER
            k += 1
        if R[_R_GOING_ALONE]:
            out[k] = _A_ORDER_ALONE
            k += 1
        return k
    if ph == _BID2:
        up = S[_F_UP] >> 3
        k = 0
        if not (R[_R_STICK] and seat == S[_F_DEALER]):
            out[0] = _A_PASS
            k = 1
        for x in range(4):
            if x != up:
                out[k] = _A_CALL + x
                k += 1
        if R[_R_GOING_ALONE]:
            for x in range(4):
                if x != up:
                    out[k] = _A_CALL_ALONE + x
                    k += 1
        if R[_R_NT]:
            out[k] = _A_NT
            k += 1
            if R[_R_GOING_ALONE]:
                out[k] = _A_NT_ALONE
                k += 1
            if R[_R_LOW]:
                out[k] = _A_LOW
                k += 1
                if R[_R_GOING_ALONE]:
                    out[k] = _A_LOW_ALONE
                    k += 1
        return k
    if ph == _DISCARD:
        hand = S[_F_HANDS + S[_F_DEALER]]
        if not R[_R_MAY_DISCARD_UP]:
            hand &= ~(1 << S[_F_UP])
        return _cards_as(hand, _A_DISCARD, out)
    if ph == _TAKE:
        out[0] = _A_PASS
        out[1] = _A_TAKE
        return 2
    if ph == _DEFEND:
        out[0] = _A_PASS
        out[1] = _A_DEFEND
        return 2
    if ph == _JOKER:
        for x in range(4):
            out[x] = _A_CALL + x
        if R[_R_GOING_ALONE]:
            for x in range(4):
                out[4 + x] = _A_CALL_ALONE + x
            return 8
        return 4
    if ph == _GIVE:
        return _cards_as(S[_F_HANDS + seat], _A_GIVE, out)
    if ph == _BEST_DISCARD or ph == _FARMER_GIVE:
        return _cards_as(S[_F_HANDS + seat], _A_DISCARD, out)
    if ph == _MISDEAL_OFFER:
        out[0] = _A_MISDEAL
        out[1] = _A_KEEP
        return 2
    if ph == _FARMER_OFFER:
        out[0] = _A_KEEP
        out[1] = _A_FARMER
        return 2
    return 0


@njit(cache=True, nogil=True)
def _cards_as(mask: int, offset: int, out: np.ndarray) -> int:
    k = 0
    while mask:
        low = mask & -mask
        out[k] = offset + _LOWBIT[low % 37]
        k += 1
        mask ^= low
    return k


# --- the rules of a hand: applying an action ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def _next_active(S: np.ndarray, seat: int) -> int:
    n = S[_F_N]
    s = (seat + 1) % n
    while S[_F_OUT] >> s & 1:
        s = (s + 1) % n
    return s


@njit(cache=True, nogil=True)
def _is_opponent(n: int, maker: int, s: int) -> bool:
    return _side(n, s) != _side(n, maker)


@njit(cache=True, nogil=True)
def _next_defender(S: np.ndarray, after: int) -> int:
    """``State._next_defender``: the first defender from the dealer's left outside the defend phase,
    else the next one after ``after`` (-1 if none)."""
    n = S[_F_N]
    maker = S[_F_MAKER]
    dealer = S[_F_DEALER]
    found = S[_F_PHASE] != _DEFEND
    for k in range(1, n + 1):
        s = (dealer + k) % n
        if not _is_opponent(n, maker, s):
            continue
        if found:
            return s
        if s == after:
            found = True
    return -1


@njit(cache=True, nogil=True)
def _make(S: np.ndarray, seat: int, trump: int, alone: bool) -> None:
    S[_F_TRUMP] = trump
    S[_F_MAKER] = seat
    S[_F_ALONE] = 1 if alone else 0
    if alone:
        S[_F_OUT] |= 1 << ((seat + 2) % 4)


@njit(cache=True, nogil=True)
def _take_up(S: np.ndarray) -> None:
    d = S[_F_DEALER]
    S[_F_HANDS + d] |= 1 << S[_F_UP]
    S[_F_UP_TAKEN] = 1
    S[_F_PHASE] = _DISCARD
    S[_F_TO_ACT] = d


@njit(cache=True, nogil=True)
def _start_play(S: np.ndarray, R: np.ndarray) -> None:
    S[_F_PHASE] = _PLAY
    if S[_F_ALONE] and R[_R_LONER_LEFT]:
        lead = _next_active(S, S[_F_MAKER])
    else:
        lead = _next_active(S, S[_F_DEALER])
    S[_F_LEADER] = lead
    S[_F_TO_ACT] = lead
    S[_F_TRICK_SIZE] = S[_F_N] - _popcount(S[_F_OUT])


@njit(cache=True, nogil=True)
def _after_maker(S: np.ndarray, R: np.ndarray) -> None:
    if S[_F_ALONE] and R[_R_DEFEND]:
        first = _next_defender(S, S[_F_DEALER])
        if first >= 0:
            S[_F_PHASE] = _DEFEND
            S[_F_TO_ACT] = first
            return
    _start_play(S, R)


@njit(cache=True, nogil=True)
def _give(S: np.ndarray, giver: int, receiver: int, card: int, forced: bool) -> None:
    bit = 1 << card
    S[_F_HANDS + giver] &= ~bit
    S[_F_HANDS + receiver] |= bit
    g = _F_GIFT + 5 * S[_F_GIFTS]
    S[g] = giver
    S[g + 1] = receiver
    S[g + 2] = card
    S[g + 3] = 1 if forced else 0
    S[g + 4] = -1
    S[_F_GIFTS] += 1
    S[_F_PHASE] = _BEST_DISCARD
    S[_F_TO_ACT] = receiver


@njit(cache=True, nogil=True)
def _call_for_best(S: np.ndarray, R: np.ndarray, receiver: int) -> None:
    giver = (receiver + 2) % 4
    t = S[_F_TRUMP]
    trumps = S[_F_HANDS + giver] & _FOL[t, t] if t < 4 else 0
    if trumps and not R[_R_FREE]:
        best = -1
        card = -1
        m = trumps
        while m:
            low = m & -m
            c = _LOWBIT[low % 37]
            if _POW[t, c] > best:
                best = _POW[t, c]
                card = c
            m ^= low
        _give(S, giver, receiver, card, True)
    else:
        S[_F_PHASE] = _GIVE
        S[_F_TO_ACT] = giver


@njit(cache=True, nogil=True)
def _after_exchange(S: np.ndarray, R: np.ndarray) -> None:
    if S[_F_ALONE] and R[_R_CFB]:
        _call_for_best(S, R, S[_F_MAKER])
    else:
        _after_maker(S, R)


@njit(cache=True, nogil=True)
def _score(S: np.ndarray, R: np.ndarray) -> None:
    S[_F_PHASE] = _OVER
    S[_F_TO_ACT] = -1
    n = S[_F_N]
    maker = S[_F_MAKER]
    taken = S[_F_WON + maker]
    if n == 4:
        taken += S[_F_WON + (maker + 2) % 4]
    side = _side(n, maker)
    if taken >= 3:
        if taken == HAND_SIZE:
            S[_F_POINTS + side] = R[_R_LMARCH] if S[_F_ALONE] else R[_R_MARCH]
        else:
            S[_F_POINTS + side] = R[_R_MAKE]
    else:
        value = R[_R_LEUCHRE] if S[_F_ALONE] else R[_R_EUCHRE]
        if S[_F_LONE_DEF] >= 0:
            value = max(value, R[_R_LDEUCHRE])
        if R[_R_SUPER] and taken == 0:
            value = max(value, R[_R_SUPER_PTS])
        for s in range(R[_R_SIDES]):
            if s != side:
                S[_F_POINTS + s] = value


@njit(cache=True, nogil=True)
def _apply(S: np.ndarray, R: np.ndarray, a: int) -> None:
    """Apply a legal action of the seat to act (``State._push``, unchecked)."""
    ph = S[_F_PHASE]
    seat = S[_F_TO_ACT]
    n = S[_F_N]
    S[_F_NACT] += 1
    if ph == _PLAY:
        c = a - _A_PLAY
        S[_F_HANDS + seat] &= ~(1 << c)
        S[_F_PLAYED] |= 1 << c
        tn = S[_F_TRICK_N]
        t = S[_F_TRUMP]
        S[_F_TCARDS + tn] = c
        S[_F_TSEATS + tn] = seat
        if tn:
            led = _EFF[t, S[_F_TCARDS]]
            if _EFF[t, c] != led:
                S[_F_VOIDS + seat] |= 1 << led
        tn += 1
        if tn == S[_F_TRICK_SIZE]:
            led = _EFF[t, S[_F_TCARDS]]
            best = -1
            w = seat
            for j in range(tn):
                v = _TAKES[t, led, S[_F_TCARDS + j]]
                if v > best:
                    best = v
                    w = S[_F_TSEATS + j]
            S[_F_WON + w] += 1
            S[_F_TRICK_N] = 0
            S[_F_TRICKS] += 1
            if S[_F_TRICKS] == HAND_SIZE:
                _score(S, R)
            else:
                S[_F_LEADER] = w
                S[_F_TO_ACT] = w
        else:
            S[_F_TRICK_N] = tn
            nxt = seat + 1
            if nxt == n:
                nxt = 0
            S[_F_TO_ACT] = _next_active(S, seat) if S[_F_OUT] >> nxt & 1 else nxt
        return
    if ph == _BID1:
        if a == _A_PASS:
            if seat == S[_F_DEALER]:
                S[_F_PHASE] = _BID2
            S[_F_TO_ACT] = (seat + 1) % n
            return
        dealer = S[_F_DEALER]
        _make(S, seat, S[_F_UP] >> 3, a == _A_ORDER_ALONE)
        if n == 2 and seat != dealer:
            S[_F_PHASE] = _TAKE
            S[_F_TO_ACT] = dealer
        elif S[_F_OUT] >> dealer & 1:
            if R[_R_CFB]:
                S[_F_HANDS + dealer] |= 1 << S[_F_UP]
                S[_F_UP_TAKEN] = 1
            _after_exchange(S, R)
        else:
            _take_up(S)
        return
    if ph == _BID2:
        if a == _A_PASS:
            if seat == S[_F_DEALER]:
                S[_F_PHASE] = _OVER
                S[_F_TO_ACT] = -1
            else:
                S[_F_TO_ACT] = (seat + 1) % n
            return
        if a < _A_DISCARD:
            _make(S, seat, (a - _A_CALL) % 4, a >= _A_CALL_ALONE)
        else:
            _make(S, seat, 4 if a < _A_LOW else 5, a % 2 == 0)
        _after_exchange(S, R)
        return
    if ph == _DISCARD:
        c = a - _A_DISCARD
        S[_F_HANDS + S[_F_DEALER]] &= ~(1 << c)
        S[_F_DISCARD] = c
        _after_exchange(S, R)
        return
    if ph == _TAKE:
        if a == _A_TAKE:
            _take_up(S)
        else:
            _after_exchange(S, R)
        return
    if ph == _DEFEND:
        if a == _A_DEFEND:
            S[_F_LONE_DEF] = seat
            S[_F_OUT] |= 1 << ((seat + 2) % 4)
            if R[_R_CFB]:
                _call_for_best(S, R, seat)
            else:
                _start_play(S, R)
            return
        nxt = _next_defender(S, seat)
        if nxt < 0:
            _start_play(S, R)
        else:
            S[_F_TO_ACT] = nxt
        return
    if ph == _JOKER:
        _make(S, S[_F_DEALER], (a - _A_CALL) % 4, a >= _A_CALL_ALONE)
        _take_up(S)
        return
    if ph == _GIVE:
        _give(S, seat, (seat + 2) % 4, a - _A_GIVE, False)
        return
    if ph == _BEST_DISCARD:
        c = a - _A_DISCARD
        S[_F_HANDS + seat] &= ~(1 << c)
        S[_F_GIFT + 5 * (S[_F_GIFTS] - 1) + 4] = c
        if seat == S[_F_MAKER]:
            _after_maker(S, R)
        else:
            _start_play(S, R)
        return
    if ph == _MISDEAL_OFFER:
        if a == _A_MISDEAL:
            S[_F_MISDEAL] = seat
            S[_F_PHASE] = _OVER
            S[_F_TO_ACT] = -1
        else:
            _offer_misdeal(S, R, (seat - S[_F_DEALER] - 1) % n + 2)
        return
    if ph == _FARMER_OFFER:
        if a == _A_FARMER:
            S[_F_FARMER] = seat
            S[_F_PHASE] = _FARMER_GIVE
        else:
            _start_bidding(S, R)
        return
    if ph == _FARMER_GIVE:
        c = a - _A_DISCARD
        S[_F_HANDS + seat] &= ~(1 << c)
        S[_F_GAVE + S[_F_FARMER_N]] = c
        S[_F_FARMER_N] += 1
        if S[_F_FARMER_N] == 3:
            S[_F_HANDS + seat] |= S[_F_STOCK]
            _start_bidding(S, R)
        return


# --- the heuristic (euchre.bots.heuristic.HeuristicBot), ported decision for decision ------------------------
# Card lists are (array, length) pairs in the order the Python bot iterates them: a view's hand in
# display order (_display), legal cards in id order. Sums are made in the bot's order.
@njit(cache=True, nogil=True)
def _list_mask(cards: np.ndarray, nc: int) -> int:
    m = 0
    for i in range(nc):
        m |= 1 << cards[i]
    return m


@njit(cache=True, nogil=True)
def _live_index(di: int, t: int, gone: int, c: int) -> int:
    """The place of trump ``c`` among the live trumps (not in ``gone``), highest first."""
    k = 0
    for i in range(_SCNT[di, t, t]):
        o = _SORD[di, t, t, i]
        if o == c:
            return k
        if not gone >> o & 1:
            k += 1
    return -1


@njit(cache=True, nogil=True)
def _side_suits(cards: np.ndarray, nc: int, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The hand's side (non-trump) suits in order of first appearance, the cards of each and
    whether it holds the ace: ``(order, count, has_ace, number of side suits)``."""
    order = np.full(4, -1, np.int64)
    count = np.zeros(6, np.int64)
    has_ace = np.zeros(6, np.int64)
    nsides = 0
    for i in range(nc):
        c = cards[i]
        s = _EFF[t, c]
        if s != t:
            if count[s] == 0:
                order[nsides] = s
                nsides += 1
            count[s] += 1
            if _rank(c) == 7:
                has_ace[s] = 1
    return order, count, has_ace, nsides


@njit(cache=True, nogil=True)
def _estimate_tricks(H: np.ndarray, cards: np.ndarray, nc: int, t: int, di: int, dead: int) -> float:
    """``heuristic.estimate_tricks``."""
    hand = _list_mask(cards, nc)
    gone = dead & ~hand
    total = 0.0
    trumps = 0
    for i in range(nc):
        c = cards[i]
        if _EFF[t, c] == t:
            trumps += 1
            k = _live_index(di, t, gone, c)
            total += H[_H_TV + min(k, 8)]
    order, count, has_ace, nsides = _side_suits(cards, nc, t)
    for j in range(nsides):
        s = order[j]
        for i in range(nc):
            c = cards[i]
            if _EFF[t, c] != s:
                continue
            r = _rank(c)
            if r == 7:
                total += H[_H_OFF_ACE] if count[s] < 3 else H[_H_OFF_ACE_LONG]
            elif r == 6:
                total += H[_H_OFF_KING_WITH_ACE] if has_ace[s] else H[_H_OFF_KING]
    if trumps >= 2:
        total += H[_H_VOID] * (3 - nsides)
    return total


@njit(cache=True, nogil=True)
def _lone_losers(cards: np.ndarray, nc: int, t: int, di: int, dead: int) -> float:
    """``heuristic.lone_losers``."""
    hand = _list_mask(cards, nc)
    gone = dead & ~hand
    losers = 0.0
    above = 0
    i = 0
    for j in range(_SCNT[di, t, t]):
        o = _SORD[di, t, t, j]
        if gone >> o & 1:
            continue
        if hand >> o & 1:
            if above > i + 1:
                losers += 1.0
            elif above == i + 1:
                losers += 0.6
            elif above:
                losers += 0.25
            i += 1
        else:
            above += 1
    mine = i
    order, count, has_ace, nsides = _side_suits(cards, nc, t)
    for j in range(nsides):
        s = order[j]
        for k in range(nc):
            c = cards[k]
            if _EFF[t, c] != s:
                continue
            r = _rank(c)
            if r == 7:
                losers += 0.1 if count[s] < 3 else 0.3
            elif r == 6 and has_ace[s]:
                losers += 0.35
            else:
                losers += 1.0
    if mine < 3:
        losers += 0.5 * (3 - mine)
    return losers


@njit(cache=True, nogil=True)
def _estimate_no_trump(cards: np.ndarray, nc: int, t: int, di: int, dead: int, H: np.ndarray) -> tuple[float, float]:
    """``heuristic.estimate_no_trump``: (tricks, losers)."""
    mine = _list_mask(cards, nc)
    gone = dead & ~mine
    tricks = 0.0
    losers = 0.0
    for suit in range(4):
        if mine & _FOL[t, suit] == 0:
            continue
        nheld = _popcount(mine & _FOL[t, suit])
        run = True
        i = 0
        above = 0
        for j in range(_SCNT[di, t, suit]):
            c = _SORD[di, t, suit, j]
            if gone >> c & 1:
                continue
            if not mine >> c & 1:
                above += 1
                continue
            if above == 0:
                tricks += 1.0
            elif above == 1 and nheld >= 2 and i <= 1:
                tricks += H[_H_NT_SECOND]
                losers += 1.0 - H[_H_NT_SECOND]
                run = False
            else:
                if run and i >= 3:
                    tricks += H[_H_NT_LENGTH]
                    losers += 1.0 - H[_H_NT_LENGTH]
                else:
                    losers += 1.0
                run = False
            i += 1
    return tricks, losers


@njit(cache=True, nogil=True)
def _weakest(cards: np.ndarray, nc: int, t: int) -> int:
    """``heuristic.weakest_card``: the index in ``cards`` of the card to bury."""
    counts = np.zeros(6, np.int64)
    for i in range(nc):
        counts[_EFF[t, cards[i]]] += 1
    top = 2 if t == 5 else 7
    best = 1 << 40
    bi = 0
    for i in range(nc):
        c = cards[i]
        s = _EFF[t, c]
        is_trump = 1 if s == t else 0
        is_top = 1 if (not is_trump and _rank(c) == top) else 0
        multi = 1 if counts[s] > 1 else 0
        key = ((is_trump * 2 + is_top) * 2 + multi) * 1000 + _POW[t, c]
        if key < best:
            best = key
            bi = i
    return bi


@njit(cache=True, nogil=True)
def _best_five(cards: np.ndarray, nc: int, t: int, out: np.ndarray) -> int:
    w = _weakest(cards, nc, t)
    k = 0
    for i in range(nc):
        if i != w:
            out[k] = cards[i]
            k += 1
    return k


@njit(cache=True, nogil=True)
def _in(acts: np.ndarray, na: int, a: int) -> bool:
    for i in range(na):
        if acts[i] == a:
            return True
    return False


@njit(cache=True, nogil=True)
def _lone_ok(S: np.ndarray, R: np.ndarray, H: np.ndarray, seat: int, cards: np.ndarray, nc: int, t: int,
             dead: int, limit: float, gift: bool) -> bool:
    """``HeuristicBot._lone_ok`` at a game score of 0 to 0."""
    n = S[_F_N]
    if R[_R_TARGET] >= 0 and n == 4 and R[_R_MARCH] >= R[_R_TARGET]:
        return False
    extra = 0.0
    own = cards
    no = nc
    if gift and R[_R_CFB] and nc >= HAND_SIZE:
        w = _weakest(cards, nc, t)
        own = np.empty(8, np.int64)
        no = 0
        for i in range(nc):
            if i != w:
                own[no] = cards[i]
                no += 1
        trumps = 0
        for i in range(no):
            if _EFF[t, own[i]] == t:
                trumps += 1
        extra = H[_H_GIFT_LOSERS] - (0.5 if trumps < 3 else 0.0)
    if H[_H_LONE_WITH_LOSER] == 0.0:
        for i in range(no):
            c = own[i]
            if _EFF[t, c] != t and _rank(c) < 6:
                return False
    return _lone_losers(own, no, t, R[_R_DECK], dead) + extra <= limit + 0.3 * H[_H_AGGRESSION]


@njit(cache=True, nogil=True)
def _bid(acts: np.ndarray, na: int, est: float, threshold: float, lone: bool, bid: int, bid_alone: int) -> int:
    """``HeuristicBot._bid``."""
    if lone and _in(acts, na, bid_alone):
        return bid_alone
    if est >= threshold:
        if _in(acts, na, bid):
            return bid
        if _in(acts, na, bid_alone) and est >= threshold + 0.8:
            return bid_alone
    return _A_PASS if _in(acts, na, _A_PASS) else bid


@njit(cache=True, nogil=True)
def _round1(S: np.ndarray, R: np.ndarray, H: np.ndarray, seat: int,
            lone: np.ndarray) -> tuple[float, float, int, float, bool]:
    """``HeuristicBot._round1``: (estimate, threshold, cards of a lone hand (into ``lone``), limit, gift)."""
    n = S[_F_N]
    dealer = S[_F_DEALER]
    up = S[_F_UP]
    t = up >> 3
    di = R[_R_DECK]
    hand = np.empty(8, np.int64)
    nh = _display(S[_F_HANDS + seat], _NONE, hand)
    up_value = H[_H_TV + min(_live_index(di, t, 0, up), 8)]
    threshold = H[_H_THRESHOLD] - H[_H_AGGRESSION]
    limit = H[_H_LONE]
    gift = True
    if seat == dealer:
        hand[nh] = up
        nl = _best_five(hand, nh + 1, t, lone)
        est = _estimate_tricks(H, lone, nl, t, di, 0)
    elif n == 4 and (seat + 2) % 4 == dealer:
        est = _estimate_tricks(H, hand, nh, t, di, 0) + H[_H_ASSIST] * up_value
        if R[_R_CFB]:
            hand[nh] = up
            nl = _best_five(hand, nh + 1, t, lone)
            gift = False
        else:
            for i in range(nh):
                lone[i] = hand[i]
            nl = nh
            limit = H[_H_LONE_ASSIST]
    else:
        est = _estimate_tricks(H, hand, nh, t, di, 0) - H[_H_GIVE] * up_value
        for i in range(nh):
            lone[i] = hand[i]
        nl = nh
    if n == 4:
        threshold += H[_H_R1 + (seat - dealer) % 4]
    return est, threshold, nl, limit, gift


@njit(cache=True, nogil=True)
def _colour_bonus(H: np.ndarray, n: int, dealer: int, me: int, suit: int, turned: int) -> float:
    if n != 4:
        return 0.0
    nxt = 3 - turned
    if me == (dealer + 1) % 4:
        return H[_H_NEXT] if suit == nxt else 0.0
    if me % 2 == dealer % 2:
        return H[_H_CROSS] if suit != nxt else 0.0
    return 0.0


@njit(cache=True, nogil=True)
def _no_trump_call(S: np.ndarray, R: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int, hand: np.ndarray,
                   nh: int, dead: int, need: float) -> int:
    """``HeuristicBot._no_trump_call``: the call, or -1 for none."""
    best_est = 0.0
    best_losers = 0.0
    best_t = -1
    for t in (4, 5):
        call = _A_NT if t == 4 else _A_LOW
        if _in(acts, na, call):
            est, losers = _estimate_no_trump(hand, nh, t, R[_R_DECK], dead, H)
            if best_t < 0 or est > best_est:
                best_est = est
                best_losers = losers
                best_t = t
    if best_t < 0 or best_est < need:
        return -1
    losers = best_losers
    if R[_R_CFB]:
        losers = max(0.0, losers - 1.0) + H[_H_GIFT_LOSERS] / 3
    call = _A_NT if best_t == 4 else _A_LOW
    alone = call + 1
    if _in(acts, na, alone) and losers <= H[_H_NT_LONE] + 0.3 * H[_H_AGGRESSION]:
        if R[_R_TARGET] < 0 or R[_R_MARCH] < R[_R_TARGET]:
            return alone
    return call


@njit(cache=True, nogil=True)
def _heuristic_bid(S: np.ndarray, R: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """The bidding-phase decisions of ``HeuristicBot.choose``."""
    ph = S[_F_PHASE]
    seat = S[_F_TO_ACT]
    n = S[_F_N]
    dealer = S[_F_DEALER]
    di = R[_R_DECK]
    up = S[_F_UP]
    lone = np.empty(8, np.int64)
    if ph == _BID1 or ph == _MISDEAL_OFFER:
        if ph == _MISDEAL_OFFER and up == 32:
            return _A_MISDEAL
        est, threshold, nl, limit, gift = _round1(S, R, H, seat, lone)
        if ph == _MISDEAL_OFFER:
            return _A_KEEP if est >= threshold else _A_MISDEAL
        ok = _in(acts, na, _A_ORDER_ALONE) and _lone_ok(S, R, H, seat, lone, nl, up >> 3, 0, limit, gift)
        return _bid(acts, na, est, threshold, ok, _A_ORDER, _A_ORDER_ALONE)
    if ph == _BID2:
        hand = np.empty(8, np.int64)
        nh = _display(S[_F_HANDS + seat], _NONE, hand)
        dead = 1 << up
        turned = up >> 3
        best = 0.0
        suit = -1
        for x in range(4):
            if x == turned:
                continue
            est = _estimate_tricks(H, hand, nh, x, di, dead) + _colour_bonus(H, n, dealer, seat, x, turned)
            if suit < 0 or est > best:
                best = est
                suit = x
        est = best
        threshold = H[_H_THRESHOLD] - H[_H_AGGRESSION] + (H[_H_R2 + (seat - dealer) % 4] if n == 4 else 0.0)
        nt = _no_trump_call(S, R, H, acts, na, hand, nh, dead, max(est, threshold) + H[_H_NT_MARGIN])
        if nt >= 0:
            return nt
        alone = _A_CALL_ALONE + suit
        ok = _in(acts, na, alone) and _lone_ok(S, R, H, seat, hand, nh, suit, dead, H[_H_LONE], True)
        if not _in(acts, na, _A_PASS):
            return alone if ok else _A_CALL + suit
        return _bid(acts, na, est, threshold, ok, _A_CALL + suit, alone)
    if ph == _JOKER:
        hand = np.empty(8, np.int64)
        nh = _display(S[_F_HANDS + dealer], _NONE, hand)
        hand[nh] = up
        five = np.empty(8, np.int64)
        best = 0.0
        suit = -1
        for x in range(4):
            nf = _best_five(hand, nh + 1, x, five)
            est = _estimate_tricks(H, five, nf, x, di, 0)
            if suit < 0 or est >= best:  # sorted(..., reverse=True): a tie goes to the higher suit
                best = est
                suit = x
        if _in(acts, na, _A_CALL_ALONE + suit):
            nf = _best_five(hand, nh + 1, suit, five)
            if _lone_ok(S, R, H, dealer, five, nf, suit, 0, H[_H_LONE], True):
                return _A_CALL_ALONE + suit
        return _A_CALL + suit
    if ph == _TAKE:
        t = S[_F_TRUMP]
        hand = np.empty(8, np.int64)
        nh = _display(S[_F_HANDS + seat], t, hand)
        now = _estimate_tricks(H, hand, nh, t, di, 0)
        hand[nh] = up
        five = np.empty(8, np.int64)
        nf = _best_five(hand, nh + 1, t, five)
        taken = _estimate_tricks(H, five, nf, t, di, 0)
        return _A_TAKE if taken > now else _A_PASS
    if ph == _DEFEND:
        if R[_R_LDEUCHRE] <= R[_R_LEUCHRE]:
            return _A_PASS
        t = S[_F_TRUMP]
        hand = np.empty(8, np.int64)
        nh = _display(S[_F_HANDS + seat], t, hand)
        est = _estimate_tricks(H, hand, nh, t, di, 0)
        trumps = _popcount(S[_F_HANDS + seat] & _FOL[t, t]) if t < 4 else 0
        if R[_R_CFB]:
            est += H[_H_DEFEND_GIFT]
            trumps += 1
        return _A_DEFEND if est >= H[_H_DEFEND] and trumps >= 3 else _A_PASS
    return acts[0]


@njit(cache=True, nogil=True)
def _unseen(S: np.ndarray, R: np.ndarray, seat: int) -> int:
    """``PlayerView.unseen_mask`` of ``seat``."""
    known = S[_F_HANDS + seat] | S[_F_PLAYED]
    if seat == S[_F_DEALER] and S[_F_DISCARD] >= 0:
        known |= 1 << S[_F_DISCARD]
    if seat == S[_F_FARMER]:
        for i in range(S[_F_FARMER_N]):
            known |= 1 << S[_F_GAVE + i]
    for g in range(S[_F_GIFTS]):
        if S[_F_GIFT + 5 * g + 1] == seat and S[_F_GIFT + 5 * g + 4] >= 0:
            known |= 1 << S[_F_GIFT + 5 * g + 4]
    if not S[_F_UP_TAKEN]:
        known |= 1 << S[_F_UP]
    return R[_R_DECK_MASK] & ~known


@njit(cache=True, nogil=True)
def _is_boss(t: int, c: int, unseen: int) -> bool:
    m = unseen & _FOL[t, _EFF[t, c]]
    p = _POW[t, c]
    while m:
        low = m & -m
        if _POW[t, _LOWBIT[low % 37]] > p:
            return False
        m ^= low
    return True


@njit(cache=True, nogil=True)
def _beats(t: int, led: int, cand: int, best: int) -> bool:
    """Some card of ``cand`` would take a trick led in ``led`` whose best power so far is ``best``."""
    while cand:
        low = cand & -cand
        if _TAKES[t, led, _LOWBIT[low % 37]] > best:
            return True
        cand ^= low
    return False


@njit(cache=True, nogil=True)
def _holds(S: np.ndarray, t: int, unseen: int, led: int, best: int, foes: np.ndarray, nfoes: int) -> bool:
    """``_Table.holds``: the trick whose best power is ``best`` (led in ``led``) cannot be beaten by a
    card that one of ``foes`` may hold."""
    for i in range(nfoes):
        void = S[_F_VOIDS + foes[i]]
        if not void >> led & 1:
            if _beats(t, led, unseen & _FOL[t, led], best):
                return False
            if not _popcount(unseen & _FOL[t, led]) < 2:
                continue
        if not (t < 4 and void >> t & 1) and _beats(t, led, unseen & _FOL[t, t], best):
            return False
    return True


@njit(cache=True, nogil=True)
def _foe_ruffs(S: np.ndarray, t: int, unseen: int, suit: int, foes: np.ndarray, nfoes: int) -> bool:
    if unseen & _FOL[t, t] == 0:
        return False
    for i in range(nfoes):
        void = S[_F_VOIDS + foes[i]]
        if void >> suit & 1 and not (t < 4 and void >> t & 1):
            return True
    return False


@njit(cache=True, nogil=True)
def _throw_off(S: np.ndarray, t: int, unseen: int, seat: int, cards: np.ndarray, nc: int) -> int:
    """``_Table.throw_off``."""
    hand = S[_F_HANDS + seat]
    has_trump = hand & _FOL[t, t] != 0
    best = 1 << 40
    card = cards[0]
    for i in range(nc):
        c = cards[i]
        s = _EFF[t, c]
        is_trump = 1 if s == t else 0
        boss = 1 if (not is_trump and _is_boss(t, c, unseen)) else 0
        count = _popcount(hand & _FOL[t, s]) if has_trump and not is_trump else 0
        key = ((is_trump * 2 + boss) * 8 + count) * 1000 + _POW[t, c]
        if key < best:
            best = key
            card = c
    return card


@njit(cache=True, nogil=True)
def _heuristic_play(S: np.ndarray, R: np.ndarray, cards: np.ndarray, nc: int) -> int:
    """``HeuristicBot._play``: the card to play."""
    if nc == 1:
        return cards[0]
    t = S[_F_TRUMP]
    me = S[_F_TO_ACT]
    n = S[_F_N]
    out = S[_F_OUT]
    maker = S[_F_MAKER]
    unseen = _unseen(S, R, me)
    # _Table: the ally, the foes, the seats still to play to this trick
    ally = -1
    if n == 4:
        ally = (me + 2) % 4
    elif n == 3 and maker >= 0 and maker != me:
        ally = 3 - maker - me
    if ally >= 0 and out >> ally & 1:
        ally = -1
    foes = np.empty(4, np.int64)
    nfoes = 0
    for s in range(n):
        if not out >> s & 1 and s != me and s != ally:
            foes[nfoes] = s
            nfoes += 1
    tn = S[_F_TRICK_N]
    in_trick = 0
    for j in range(tn):
        in_trick |= 1 << S[_F_TSEATS + j]
    later_foes = np.empty(4, np.int64)
    nlf = 0
    ally_later = False
    for k in range(1, n):
        s = (me + k) % n
        if out >> s & 1 or in_trick >> s & 1:
            continue
        if s == ally:
            ally_later = True
        else:
            later_foes[nlf] = s
            nlf += 1
    if tn == 0:
        return _heuristic_lead(S, t, unseen, me, maker, ally, foes, nfoes, cards, nc)
    led = _EFF[t, S[_F_TCARDS]]
    bestv = -1
    bi = 0
    for j in range(tn):
        v = _TAKES[t, led, S[_F_TCARDS + j]]
        if v > bestv:
            bestv = v
            bi = j
    winner_seat = S[_F_TSEATS + bi]
    # the cards that would take the trick, cheapest first (a stable sort of id order)
    winners = np.empty(8, np.int64)
    keys = np.empty(8, np.int64)
    nw = 0
    for i in range(nc):
        c = cards[i]
        if _TAKES[t, led, c] > bestv:
            key = _POW[t, c] + (1000 if _EFF[t, c] == t else 0)
            j = nw
            while j > 0 and keys[j - 1] > key:
                winners[j] = winners[j - 1]
                keys[j] = keys[j - 1]
                j -= 1
            winners[j] = c
            keys[j] = key
            nw += 1
    sure = -1
    for i in range(nw):
        c = winners[i]
        if _holds(S, t, unseen, led, _TAKES[t, led, c], later_foes, nlf):
            sure = c
            break
    if ally >= 0 and winner_seat == ally:
        if nlf == 0 or _holds(S, t, unseen, led, bestv, later_foes, nlf):
            return _throw_off(S, t, unseen, me, cards, nc)
        for i in range(nw):
            c = winners[i]
            if _EFF[t, c] == led and _holds(S, t, unseen, led, _TAKES[t, led, c], later_foes, nlf):
                return c
        return _throw_off(S, t, unseen, me, cards, nc)
    if nw == 0:
        return _throw_off(S, t, unseen, me, cards, nc)
    if nlf == 0:
        return winners[0]
    if sure >= 0:
        return sure
    if _EFF[t, winners[0]] == led and led != t:
        if ally_later:
            return _throw_off(S, t, unseen, me, cards, nc)
        return winners[nw - 1]
    if ally_later:
        c = S[_F_TCARDS + bi]
        worth = _EFF[t, c] == t or _is_boss(t, c, unseen) or _rank(c) >= 6
        if not worth:
            return _throw_off(S, t, unseen, me, cards, nc)
    return winners[0]


@njit(cache=True, nogil=True)
def _heuristic_lead(S: np.ndarray, t: int, unseen: int, me: int, maker: int, ally: int, foes: np.ndarray,
                    nfoes: int, cards: np.ndarray, nc: int) -> int:
    """``HeuristicBot._lead``."""
    n = S[_F_N]
    trumps = np.empty(8, np.int64)
    ntr = 0
    offs = np.empty(8, np.int64)
    noff = 0
    for i in range(nc):
        c = cards[i]
        if _EFF[t, c] == t:
            j = ntr
            while j > 0 and _POW[t, trumps[j - 1]] < _POW[t, c]:
                trumps[j] = trumps[j - 1]
                j -= 1
            trumps[j] = c
            ntr += 1
        else:
            offs[noff] = c
            noff += 1
    foes_have_trump = False
    if unseen & _FOL[t, t]:
        for i in range(nfoes):
            if not (t < 4 and S[_F_VOIDS + foes[i]] >> t & 1):
                foes_have_trump = True
                break
    makers = maker == me or (maker >= 0 and maker == ally and n == 4)
    if ntr and foes_have_trump and makers:
        boss = _is_boss(t, trumps[0], unseen)
        if maker == me:
            if boss or (S[_F_TRICKS] < 2 and ntr >= 2):
                return trumps[0]
        elif S[_F_TRICKS] < 2 or boss:
            return trumps[0] if boss else trumps[ntr - 1]
    # off-suit bosses: the safe ones (no known ruff) first; the longest live suit, then the rank
    best_key = -1
    best_card = -1
    best_safe = False
    for i in range(noff):
        c = offs[i]
        if not _is_boss(t, c, unseen):
            continue
        safe = not _foe_ruffs(S, t, unseen, _EFF[t, c], foes, nfoes)
        key = _popcount(unseen & _FOL[t, _EFF[t, c]]) * 16 + _rank(c)
        if (safe and not best_safe) or (safe == best_safe and key > best_key):
            best_key = key
            best_card = c
            best_safe = safe
    if best_card >= 0:
        return best_card
    if ntr and not foes_have_trump:
        return trumps[0]
    if noff == 0:
        return trumps[0] if _is_boss(t, trumps[0], unseen) else trumps[ntr - 1]
    best_key = 1 << 40
    best_card = offs[0]
    for i in range(noff):
        c = offs[i]
        s = _EFF[t, c]
        ruff = 1 if _foe_ruffs(S, t, unseen, s, foes, nfoes) else 0
        count = 0
        for j in range(nc):
            if _EFF[t, cards[j]] == s:
                count += 1
        key = (ruff * 8 + count) * 1000 + _POW[t, c]
        if key < best_key:
            best_key = key
            best_card = c
    return best_card


@njit(cache=True, nogil=True)
def _heuristic(S: np.ndarray, R: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``HeuristicBot.choose`` for the seat to act; ``acts`` holds the ``na`` legal actions."""
    ph = S[_F_PHASE]
    cards = np.empty(8, np.int64)
    if ph == _PLAY:
        for i in range(na):
            cards[i] = acts[i] - _A_PLAY
        choice = _A_PLAY + _heuristic_play(S, R, cards, na)
    elif ph == _DISCARD or ph == _BEST_DISCARD:
        for i in range(na):
            cards[i] = acts[i] - _A_DISCARD
        choice = _A_DISCARD + cards[_weakest(cards, na, S[_F_TRUMP])]
    elif ph == _GIVE:
        t = S[_F_TRUMP]
        best = -1
        choice = acts[0]
        trumps = False
        for i in range(na):
            if _EFF[t, acts[i] - _A_GIVE] == t:
                trumps = True
        for i in range(na):
            c = acts[i] - _A_GIVE
            if (not trumps or _EFF[t, c] == t) and _POW[t, c] > best:
                best = _POW[t, c]
                choice = acts[i]
    elif ph == _FARMER_OFFER:
        choice = _A_FARMER
    elif ph == _FARMER_GIVE:
        up = S[_F_UP] >> 3
        best = 1 << 40
        choice = acts[0]
        for i in range(na):
            c = acts[i] - _A_DISCARD
            key = (1 if c >> 3 == up else 0) * 100000 + _rank(c) * 100 + c
            if key < best:
                best = key
                choice = acts[i]
    else:
        choice = _heuristic_bid(S, R, H, acts, na)
    return choice if _in(acts, na, choice) else acts[0]


# --- the batch ---------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _choose(S: np.ndarray, R: np.ndarray, H: np.ndarray, rs: np.ndarray, policy: np.ndarray, epsilon: float,
            acts: np.ndarray, na: int) -> int:
    seat = S[_F_TO_ACT]
    if policy[seat] == 1 and (epsilon <= 0.0 or _uniform(rs) >= epsilon):
        return _heuristic(S, R, H, acts, na)
    return acts[_below(rs, na)] if na > 1 else acts[0]


@njit(cache=True, nogil=True)
def _simulate(R: np.ndarray, H: np.ndarray, policy: np.ndarray, epsilon: float, seed: np.uint64, first: int,
              dealer_mode: int, deck: np.ndarray, record: bool, dealers: np.ndarray, hands: np.ndarray,
              ups: np.ndarray, stocks: np.ndarray, actions: np.ndarray, seats: np.ndarray, nact: np.ndarray,
              advice: np.ndarray, won: np.ndarray, points: np.ndarray, makers: np.ndarray, trumps: np.ndarray,
              alone: np.ndarray, lone_def: np.ndarray, misdeal: np.ndarray, farmer: np.ndarray) -> None:
    """Deal and play ``len(dealers)`` hands (hand numbers ``first`` on), filling the output arrays.
    ``dealer_mode``: a seat, -1 rotating from seat 0, -2 random."""
    n = R[_R_N]
    m = deck.shape[0]
    S = np.zeros(_FIELDS, np.int64)
    pack = np.empty(m, np.int64)
    acts = np.empty(40, np.int64)
    rs = np.zeros(1, np.uint64)
    for h in range(dealers.shape[0]):
        _seed_hand(rs, seed, first + h)
        if dealer_mode >= 0:
            dealer = dealer_mode
        elif dealer_mode == -1:
            dealer = (first + h) % n
        else:
            dealer = _below(rs, n)
        _deal(S, R, rs, dealer, pack, deck)
        dealers[h] = dealer
        for i in range(n):
            seat = (dealer + 1 + i) % n
            k = 0
            for j in range(_PACKETS[n, i, 0], _PACKETS[n, i, 1]):
                hands[h, seat, k] = pack[j]
                k += 1
            for j in range(_PACKETS[n, i, 2], _PACKETS[n, i, 3]):
                hands[h, seat, k] = pack[j]
                k += 1
        ups[h] = pack[HAND_SIZE * n]
        for j in range(HAND_SIZE * n + 1, m):
            stocks[h, j - HAND_SIZE * n - 1] = pack[j]
        k = 0
        while S[_F_PHASE] != _OVER:
            na = _legal(S, R, acts)
            if record:
                advice[h, k] = _heuristic(S, R, H, acts, na)
            a = _choose(S, R, H, rs, policy, epsilon, acts, na)
            actions[h, k] = a
            seats[h, k] = S[_F_TO_ACT]
            k += 1
            _apply(S, R, a)
        nact[h] = k
        for s in range(n):
            won[h, s] = S[_F_WON + s]
        for s in range(R[_R_SIDES]):
            points[h, s] = S[_F_POINTS + s]
        makers[h] = S[_F_MAKER]
        trumps[h] = S[_F_TRUMP]
        alone[h] = S[_F_ALONE] != 0
        lone_def[h] = S[_F_LONE_DEF]
        misdeal[h] = S[_F_MISDEAL]
        farmer[h] = S[_F_FARMER]


@njit(cache=True, nogil=True)
def _replay(R: np.ndarray, dealer: int, hands: np.ndarray, up: int, stock: int, actions: np.ndarray, k: int,
            legal: np.ndarray) -> np.ndarray:
    """Replay a deal's first ``k`` actions, marking the legal actions before each in ``legal[j]``;
    returns the final row."""
    S = np.zeros(_FIELDS, np.int64)
    S[_F_N] = R[_R_N]
    S[_F_DEALER] = dealer
    for s in range(R[_R_N]):
        S[_F_HANDS + s] = hands[s]
        S[_F_DEAL + s] = hands[s]
    S[_F_UP] = up
    S[_F_STOCK] = stock
    _setup(S, R)
    acts = np.empty(40, np.int64)
    for j in range(k):
        na = _legal(S, R, acts)
        for i in range(na):
            legal[j, acts[i]] = True
        _apply(S, R, actions[j])
    return S


@dataclass(frozen=True, eq=False)
class BatchResult:
    """The hands of one :func:`simulate` call, one row per hand (``N`` rows). Seats are 0-based,
    cards are card ids (:data:`euchre.cards.CARDS`), actions are action codes
    (:class:`euchre.actions.Action`), -1 is "none" and pads the action rows. The sister games
    fill the same arrays in their own sizes (``W`` below: :data:`MAX_ACTIONS` in Euchre, the
    game's :func:`euchre.batch_sister.max_actions` otherwise) and :attr:`bid` and
    :attr:`forced_bid`."""

    rules: Rules
    seed: int
    policy: tuple[str, ...]
    """The policy of each seat."""
    dealer: np.ndarray
    """(N,) int8: the dealer."""
    hands: np.ndarray
    """(N, players, hand size) int8: each seat's cards (five; six in Hasenpfeffer and Bid Euchre,
    twelve with the double deck), in the order dealt (the double deck: in id order, a second copy
    of a card under the copy's id, as the engine holds them)."""
    up_card: np.ndarray
    """(N,) int8 (-1 in the sister games, which turn no card up)."""
    stock: np.ndarray
    """(N, deck - 5 * players - 1) int8: the cards under the up card, in pack order (the sister
    games: the cards dealt to no seat, Hasenpfeffer's one and Napoleon's rest of the pack)."""
    actions: np.ndarray
    """(N, W) int16: the actions of the hand in order, padded with -1."""
    seats: np.ndarray
    """(N, W) int8: the seat that took each action, padded with -1."""
    n_actions: np.ndarray
    """(N,) int16: the number of actions of each hand."""
    tricks_won: np.ndarray
    """(N, players) int8: tricks won by each seat."""
    points: np.ndarray
    """(N, sides) int16: the points each side scored (partnerships 0+2 and 1+3 with four players,
    else one side per seat; all 0 for a thrown-in or cancelled deal)."""
    maker: np.ndarray
    """(N,) int8: the seat that made trump, -1 if none (thrown in, or a misdeal)."""
    trump: np.ndarray
    """(N,) int8: the trump index made (0-3 a suit, 4 no trump (Bid Euchre's high), 5 low; Napoleon's
    6-9 a suit without bowers, 10 misère), -1 if none."""
    alone: np.ndarray
    """(N,) bool: the maker went alone (Bid Euchre: the moon)."""
    lone_defender: np.ndarray
    """(N,) int8: the seat that defended alone, -1 if none."""
    misdeal: np.ndarray
    """(N,) int8: the seat that called a misdeal (ace-no-face; the deal is cancelled), -1 if none."""
    farmer: np.ndarray
    """(N,) int8: the seat that claimed the farmer's hand, -1 if none."""
    heuristic: np.ndarray | None = None
    """With ``record_heuristic=True``: (N, W) int16, the heuristic's choice at each decision
    (whatever the seat's policy played), padded with -1."""
    bid: np.ndarray | None = None
    """The sister games: (N,) int8, the high bid (``State.bid``: tricks, Bid Euchre's moon the
    hand's tricks plus one, Napoleon's level 1-7), 0 if none (thrown in); ``None`` in Euchre."""
    forced_bid: np.ndarray | None = None
    """The sister games: (N,) bool, Hasenpfeffer's forced bid of the Joker's holder; ``None`` in Euchre."""

    def __len__(self) -> int:
        return int(self.dealer.shape[0])

    def deal(self, i: int) -> Deal:
        """Hand ``i``'s deal, as the engine records it."""
        if self.rules.sister_game is not None:
            from euchre import batch_sister

            return batch_sister.deal(self, i)
        stock = tuple(CARDS[int(c)] for c in self.stock[i])
        return Deal(int(self.dealer[i]), tuple(tuple(CARDS[int(c)] for c in h) for h in self.hands[i]),
                    CARDS[int(self.up_card[i])], stock)

    def legal(self, i: int) -> list[list[int]]:
        """The legal actions before each action of hand ``i``, as the compiled rules give them."""
        if self.rules.sister_game is not None:
            from euchre import batch_sister

            return batch_sister.legal(self, i)
        k = int(self.n_actions[i])
        masks = np.zeros((k, EUCHRE_ACTIONS), np.bool_)
        hands = np.array([sum(1 << int(c) for c in h) for h in self.hands[i]], dtype=np.int64)
        stock = sum(1 << int(c) for c in self.stock[i])
        _replay(_rules_row(self.rules), int(self.dealer[i]), hands, int(self.up_card[i]), stock,
                self.actions[i].astype(np.int64), k, masks)
        return [np.flatnonzero(m).tolist() for m in masks]

    def state(self, i: int, upto: int | None = None) -> State:
        """Hand ``i`` replayed through the engine (:class:`~euchre.state.State`, every action
        checked by ``push``), to the end or to its first ``upto`` actions."""
        s = State.from_deal(self.rules, self.deal(i))
        k = int(self.n_actions[i]) if upto is None else upto
        for a in self.actions[i, :k]:
            s.push(int(a))
        return s


def _policy_codes(policy: str | Sequence[str], players: int) -> tuple[tuple[str, ...], np.ndarray]:
    names = (policy,) * players if isinstance(policy, str) else tuple(policy)
    if len(names) != players:
        raise ValueError(f"policy: one per seat ({players}), got {len(names)}")
    for p in names:
        if p not in POLICIES:
            raise ValueError(f"policy: {p!r} is not one of {', '.join(POLICIES)}")
    return names, np.array([POLICIES.index(p) for p in names], dtype=np.int64)


def _dealer_mode(dealer: int | str, players: int) -> int:
    if dealer == "rotate":
        return -1
    if dealer == "random":
        return -2
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise ValueError(f"dealer: a seat 0..{players - 1}, 'rotate' or 'random', got {dealer!r}")
    return dealer


def simulate(rules: Rules | None = None, hands: int = 1000, *, seed: int = 0,
             policy: str | Sequence[str] = "random", dealer: int | str = "rotate", epsilon: float = 0.0,
             aggression: float = 0.0, lone_with_loser: bool = False, record_heuristic: bool = False,
             first: int = 0) -> BatchResult:
    """Deal and play ``hands`` hands under ``rules`` (default: the American preset) in compiled
    code, and return them as arrays.

    ``policy`` is ``"random"`` or ``"heuristic"``, or one of them per seat (``("heuristic",
    "random") * 2``: the heuristic partnership against random play). Under ``"heuristic"`` a seat
    plays as ``HeuristicBot(aggression=aggression, lone_with_loser=lone_with_loser)`` would, and,
    with ``epsilon`` above 0, a uniformly random action with that probability instead.
    ``dealer``: a seat, ``"rotate"`` (hand ``i`` is dealt by seat ``i % players``) or
    ``"random"``. ``record_heuristic`` also records the heuristic's choice at every decision
    (:attr:`BatchResult.heuristic`). ``first`` numbers the first hand: ``simulate(hands=k,
    first=j)`` is rows ``j`` to ``j + k - 1`` of a larger batch of the same seed (a batch holds
    about 250 bytes a hand: run very large batches in chunks).

    The sister games play the same way (:mod:`euchre.batch_sister`), the heuristic as
    ``HeuristicBot`` plays them (Napoleon and the double deck by their own players, which take no
    ``aggression``).

    >>> r = simulate(Rules.preset("american"), hands=100, seed=1)
    >>> r.points.shape, bool((r.n_actions >= 8).all())
    ((100, 2), True)
    >>> nap = simulate(Rules.preset("napoleon", players=5), hands=100, seed=1, policy="heuristic")
    >>> nap.hands.shape, nap.points.shape, bool((nap.points.sum(axis=1) == 0).all())
    ((100, 5, 5), (100, 5), True)
    """
    rules = Rules() if rules is None else rules
    n = rules.players
    names, codes = _policy_codes(policy, n)
    mode = _dealer_mode(dealer, n)
    if hands < 0:
        raise ValueError(f"hands: at least 0, got {hands}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon: a probability, got {epsilon}")
    if rules.sister_game is not None:
        from euchre import batch_sister

        return batch_sister.simulate(rules, hands, seed=seed, names=names, codes=codes, mode=mode, epsilon=epsilon,
                                     aggression=aggression, lone_with_loser=lone_with_loser,
                                     record_heuristic=record_heuristic, first=first)
    R = _rules_row(rules)
    H = _heuristic_row(n, aggression, lone_with_loser)
    deck = np.array(deck_cards(rules.deck), dtype=np.int64)
    N = int(hands)
    rest = rules.deck - HAND_SIZE * n - 1
    out: dict[str, np.ndarray] = {
        "dealer": np.zeros(N, np.int8), "hands": np.zeros((N, n, HAND_SIZE), np.int8),
        "up_card": np.zeros(N, np.int8), "stock": np.zeros((N, rest), np.int8),
        "actions": np.full((N, MAX_ACTIONS), -1, np.int16), "seats": np.full((N, MAX_ACTIONS), -1, np.int8),
        "n_actions": np.zeros(N, np.int16), "tricks_won": np.zeros((N, n), np.int8),
        "points": np.zeros((N, rules.sides), np.int16), "maker": np.zeros(N, np.int8),
        "trump": np.zeros(N, np.int8), "alone": np.zeros(N, np.bool_), "lone_defender": np.zeros(N, np.int8),
        "misdeal": np.zeros(N, np.int8), "farmer": np.zeros(N, np.int8),
    }
    advice = np.full((N, MAX_ACTIONS) if record_heuristic else (1, 1), -1, np.int16)
    _simulate(R, H, codes, float(epsilon), np.uint64(int(seed) & (2**64 - 1)), int(first), mode, deck,
              bool(record_heuristic),
              out["dealer"], out["hands"], out["up_card"], out["stock"], out["actions"], out["seats"],
              out["n_actions"], advice, out["tricks_won"], out["points"], out["maker"], out["trump"],
              out["alone"], out["lone_defender"], out["misdeal"], out["farmer"])
    return BatchResult(rules=rules, seed=int(seed), policy=names, heuristic=advice if record_heuristic else None,
                       **out)


# --- the vectorised environment ----------------------------------------------------------------------------
# The observation is euchre.envs.observation.encode of the seat's PlayerView (the PettingZoo
# environment's layout), written by compiled code: the field offsets, the bid slots and the up
# card's fates are read from that module at run time (_layout), so the two cannot drift apart
# unseen (tests/test_batch.py compares them vector for vector).
_OBS_FIELDS = ("hand", "up_card", "up_card_fate", "discard", "dealer_discarded", "phase", "to_act", "dealer",
               "trump", "maker", "alone", "lone_defender", "sitting_out", "bid_seats", "bid_actions", "played",
               "trick", "leader", "trick_leaders", "trick_cards", "trick_winners", "tricks_won", "misdeal",
               "misdeal_hand", "farmer", "farmer_gave", "farmer_took", "gift_givers", "gift_receivers",
               "gift_cards", "gift_discards")
(_O_HAND, _O_UP, _O_FATE, _O_DISCARD, _O_DISCARDED, _O_PHASE, _O_TO_ACT, _O_DEALER, _O_TRUMP, _O_MAKER,
 _O_ALONE, _O_LONE_DEF, _O_OUT, _O_BID_SEATS, _O_BID_ACTIONS, _O_PLAYED, _O_TRICK, _O_LEADER, _O_TLEADERS,
 _O_TCARDS, _O_TWINNERS, _O_WON, _O_MISDEAL, _O_MISDEAL_HAND, _O_FARMER, _O_GAVE, _O_TOOK, _O_GIVERS,
 _O_RECEIVERS, _O_GIFT_CARDS, _O_GIFT_DISCARDS) = range(len(_OBS_FIELDS))
_O_NBIDS = len(_OBS_FIELDS)
"""The width of a bid slot (``len(BID_CODES)``), after the offsets."""
_O_FATES = _O_NBIDS + 1
"""Six entries: the slot of each up-card fate, in the order face up, turned down, left, taken,
buried, played."""
_FATE_NAMES = ("face_up", "turned_down", "left", "taken", "buried", "played")


def _layout(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The observation's offsets, its bid slots by action code, and its constant part under
    ``rules`` (the players and the ending; a batch hand is played outside a game: score 0, hand 0)."""
    from euchre.envs import observation as ob

    fields = {f.name: f for f in ob.OBSERVATION_FIELDS}
    at = np.zeros(_O_FATES + len(_FATE_NAMES), np.int64)
    for i, name in enumerate(_OBS_FIELDS):
        at[i] = fields[name].start
    at[_O_NBIDS] = len(ob.BID_CODES)
    for i, name in enumerate(_FATE_NAMES):
        at[_O_FATES + i] = ob.UP_CARD_FATES.index(name)
    bid = np.full(EUCHRE_ACTIONS, -1, np.int64)
    for i, code in enumerate(ob.BID_CODES):
        bid[code] = i
    base = np.zeros(ob.OBSERVATION_SIZE, np.float32)
    base[fields["players"].start + (2, 3, 4).index(rules.players)] = 1.0
    for i, value in enumerate((rules.target, rules.deals, rules.duration)):
        if value is not None:
            base[fields["ending"].start + i] = value
    return at, bid, base


@njit(cache=True, nogil=True)
def _encode(S: np.ndarray, R: np.ndarray, seat: int, acts: np.ndarray, seats: np.ndarray, at: np.ndarray,
            bid: np.ndarray, base: np.ndarray, obs: np.ndarray, tc: np.ndarray, ts: np.ndarray) -> None:
    """``euchre.envs.observation.encode(PlayerView.of(state, seat))`` into ``obs``, from the row
    ``S`` and the hand's actions and their seats."""
    n = S[_F_N]
    for j in range(base.shape[0]):  # (an explicit loop: numba's slice assignment is several times slower)
        obs[j] = base[j]
    m = S[_F_HANDS + seat]
    while m:
        low = m & -m
        obs[at[_O_HAND] + _LOWBIT[low % 37]] = 1.0
        m ^= low
    up = S[_F_UP]
    obs[at[_O_UP] + up] = 1.0
    mine_discard = S[_F_DISCARD] if seat == S[_F_DEALER] else -1
    if mine_discard >= 0:
        obs[at[_O_DISCARD] + mine_discard] = 1.0
    obs[at[_O_DISCARDED]] = 1.0 if S[_F_DISCARD] >= 0 else 0.0
    ph = S[_F_PHASE]
    obs[at[_O_PHASE] + ph] = 1.0
    to_act = S[_F_TO_ACT]
    if to_act >= 0:
        obs[at[_O_TO_ACT] + (to_act - seat) % n] = 1.0
    obs[at[_O_DEALER] + (S[_F_DEALER] - seat) % n] = 1.0
    if S[_F_TRUMP] >= 0:
        obs[at[_O_TRUMP] + S[_F_TRUMP]] = 1.0
    if S[_F_MAKER] >= 0:
        obs[at[_O_MAKER] + (S[_F_MAKER] - seat) % n] = 1.0
    obs[at[_O_ALONE]] = 1.0 if S[_F_ALONE] else 0.0
    if S[_F_LONE_DEF] >= 0:
        obs[at[_O_LONE_DEF] + (S[_F_LONE_DEF] - seat) % n] = 1.0
    for s in range(n):
        if S[_F_OUT] >> s & 1:
            obs[at[_O_OUT] + (s - seat) % n] = 1.0
        obs[at[_O_WON] + (s - seat) % n] = S[_F_WON + s]
    if S[_F_LEADER] >= 0:
        obs[at[_O_LEADER] + (S[_F_LEADER] - seat) % n] = 1.0
    # the actions: the public bids (an own "keep" too), the tricks
    nb = 0
    called = False
    size = S[_F_TRICK_SIZE]
    row = 0
    k = 0
    leader = -1
    t = S[_F_TRUMP]
    nbids = at[_O_NBIDS]
    played_up = False
    for j in range(S[_F_NACT]):
        a = acts[j]
        s = seats[j]
        r = (s - seat) % n
        if a >= _A_PLAY and a < _A_NT:
            c = a - _A_PLAY
            if c == up:
                played_up = True
            if k == 0:
                leader = s
            tc[k] = c
            ts[k] = s
            k += 1
            obs[at[_O_PLAYED] + 33 * r + c] = 1.0
            if k == size:
                obs[at[_O_TLEADERS] + 4 * row + (leader - seat) % n] = 1.0
                best = -1
                w = leader
                led = _EFF[t, tc[0]]
                for q in range(k):
                    obs[at[_O_TCARDS] + 33 * (4 * row + (ts[q] - seat) % n) + tc[q]] = 1.0
                    v = _TAKES[t, led, tc[q]]
                    if v > best:
                        best = v
                        w = ts[q]
                obs[at[_O_TWINNERS] + 4 * row + (w - seat) % n] = 1.0
                row += 1
                k = 0
            continue
        if (a >= _A_CALL and a < _A_DISCARD) or (a >= _A_NT and a < _A_GIVE):
            called = True
        b = bid[a]
        if b >= 0 and (a != _A_KEEP or s == seat):
            obs[at[_O_BID_SEATS] + 4 * nb + r] = 1.0
            obs[at[_O_BID_ACTIONS] + nbids * nb + b] = 1.0
            nb += 1
    for q in range(k):
        obs[at[_O_TRICK] + 33 * ((ts[q] - seat) % n) + tc[q]] = 1.0
    # what became of the up card (observation.up_card_fate)
    if S[_F_UP_TAKEN]:
        fate = 4 if mine_discard == up else (5 if played_up else 3)
    elif ph == _BID1 or ph == _TAKE or ph == _JOKER or ph == _MISDEAL_OFFER or ph == _FARMER_OFFER \
            or ph == _FARMER_GIVE:
        fate = 0
    elif S[_F_MAKER] < 0 or called:
        fate = 1
    else:
        fate = 2
    obs[at[_O_FATE] + at[_O_FATES + fate]] = 1.0
    # calls for best as this seat knows them (view.seat_gifts)
    g = 0
    for i in range(S[_F_GIFTS]):
        f = _F_GIFT + 5 * i
        giver = S[f]
        receiver = S[f + 1]
        card = -1
        buried = -1
        if seat == receiver:
            card = S[f + 2]
            buried = S[f + 4]
        elif seat == giver:
            card = S[f + 2]
        elif S[f + 4] < 0:
            continue
        obs[at[_O_GIVERS] + 4 * g + (giver - seat) % n] = 1.0
        obs[at[_O_RECEIVERS] + 4 * g + (receiver - seat) % n] = 1.0
        if card >= 0:
            obs[at[_O_GIFT_CARDS] + 33 * g + card] = 1.0
        if buried >= 0:
            obs[at[_O_GIFT_DISCARDS] + 33 * g + buried] = 1.0
        g += 1
    if S[_F_MISDEAL] >= 0:
        obs[at[_O_MISDEAL] + (S[_F_MISDEAL] - seat) % n] = 1.0
        m = S[_F_DEAL + S[_F_MISDEAL]]
        while m:
            low = m & -m
            obs[at[_O_MISDEAL_HAND] + _LOWBIT[low % 37]] = 1.0
            m ^= low
    if S[_F_FARMER] >= 0:
        obs[at[_O_FARMER] + (S[_F_FARMER] - seat) % n] = 1.0
        if seat == S[_F_FARMER]:
            for i in range(S[_F_FARMER_N]):
                obs[at[_O_GAVE] + S[_F_GAVE + i]] = 1.0
            if S[_F_FARMER_N] == 3:
                m = S[_F_STOCK]
                while m:
                    low = m & -m
                    obs[at[_O_TOOK] + _LOWBIT[low % 37]] = 1.0
                    m ^= low


@njit(cache=True, nogil=True)
def _next_dealer(rs: np.ndarray, mode: int, n: int, previous: int) -> int:
    if mode >= 0:
        return mode
    if mode == -1:
        return (previous + 1) % n
    return _below(rs, n)


@njit(cache=True, nogil=True)
def _observe(S: np.ndarray, R: np.ndarray, i: int, hist: np.ndarray, hseats: np.ndarray, at: np.ndarray,
             bid: np.ndarray, base: np.ndarray, obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray,
             acts: np.ndarray) -> None:
    """Table ``i``'s seat to act, observation and mask (``acts``: 48 words of scratch)."""
    row = S[i]
    seat = row[_F_TO_ACT]
    to_act[i] = seat
    _encode(row, R, seat, hist[i], hseats[i], at, bid, base, obs[i], acts[40:44], acts[44:48])
    for k in range(mask.shape[1]):
        mask[i, k] = False
    na = _legal(row, R, acts)
    for k in range(na):
        mask[i, acts[k]] = True


@njit(cache=True, nogil=True)
def _vec_reset(S: np.ndarray, R: np.ndarray, rs: np.ndarray, seed: np.uint64, mode: int, deck: np.ndarray,
               hist: np.ndarray, hseats: np.ndarray, at: np.ndarray, bid: np.ndarray, base: np.ndarray,
               obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray) -> None:
    n = R[_R_N]
    pack = np.empty(deck.shape[0], np.int64)
    acts = np.empty(48, np.int64)
    for i in range(S.shape[0]):
        r = rs[i:i + 1]
        _seed_hand(r, seed, i)
        _deal(S[i], R, r, _next_dealer(r, mode, n, (i - 1) % n), pack, deck)
        _observe(S, R, i, hist, hseats, at, bid, base, obs, mask, to_act, acts)


@njit(cache=True, nogil=True)
def _vec_step(S: np.ndarray, R: np.ndarray, rs: np.ndarray, mode: int, deck: np.ndarray, actions: np.ndarray,
              hist: np.ndarray, hseats: np.ndarray, at: np.ndarray, bid: np.ndarray, base: np.ndarray,
              obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray, rewards: np.ndarray, done: np.ndarray,
              points: np.ndarray) -> int:
    """One action at every table (all checked first: returns the first table whose action is
    illegal, changing nothing, else -1); a finished hand is scored into ``rewards`` and ``points``
    and the table dealt its next hand."""
    n = R[_R_N]
    sides = R[_R_SIDES]
    pack = np.empty(deck.shape[0], np.int64)
    acts = np.empty(48, np.int64)
    for i in range(S.shape[0]):
        na = _legal(S[i], R, acts)
        if not _in(acts, na, actions[i]):
            return i
    for i in range(S.shape[0]):
        row = S[i]
        k = row[_F_NACT]
        hist[i, k] = actions[i]
        hseats[i, k] = row[_F_TO_ACT]
        _apply(row, R, actions[i])
        if row[_F_PHASE] == _OVER:
            done[i] = True
            total = 0.0
            for s in range(sides):
                points[i, s] = row[_F_POINTS + s]
                total += row[_F_POINTS + s]
            for s in range(n):
                v = float(row[_F_POINTS + _side(n, s)])
                rewards[i, s] = v - (total - v) / (sides - 1)  # envs.aec.relative: the zero-sum form
            hist[i, :] = -1
            hseats[i, :] = -1
            _deal(row, R, rs[i:i + 1], _next_dealer(rs[i:i + 1], mode, n, row[_F_DEALER]), pack, deck)
        else:
            done[i] = False
            for s in range(n):
                rewards[i, s] = 0.0
        _observe(S, R, i, hist, hseats, at, bid, base, obs, mask, to_act, acts)
    return -1


@njit(cache=True, nogil=True)
def _vec_policy(S: np.ndarray, R: np.ndarray, H: np.ndarray, rs: np.ndarray, policy: np.ndarray, epsilon: float,
                out: np.ndarray) -> None:
    acts = np.empty(40, np.int64)
    for i in range(S.shape[0]):
        na = _legal(S[i], R, acts)
        out[i] = _choose(S[i], R, H, rs[i:i + 1], policy, epsilon, acts, na)


class VectorEnv:
    """``n`` tables of ``rules`` stepping in lockstep, in compiled code.

    Each table plays hand after hand: when a hand ends (or is thrown in, or a misdeal cancels the
    deal) the step scores it and deals the table's next hand at once (the dealer rotates, or
    stays ``dealer`` if a seat is given, or is drawn at ``"random"``); the hands are not a game
    (no score is kept: each is played at 0 to 0). At every step each table has one seat to act
    (:attr:`to_act`), and :meth:`step` takes one action code per table.

    The arrays (the same buffers at every step: copy what you keep):

    * ``obs``: (n, ``OBSERVATION_SIZE``) float32, the observation of each table's seat to act in
      the layout of the PettingZoo environment (:func:`euchre.envs.observation.encode` of its
      :class:`~euchre.view.PlayerView`, field by field as ``docs/rl.md`` describes; the score,
      the hand number and the match standing are 0); a sister game's in its own layout
      (:func:`euchre.envs.observation.layout`, ``observation_size(rules)`` long);
    * ``mask``: (n, 119) bool, the legal actions (:data:`~euchre.actions.EUCHRE_ACTIONS` codes; a
      sister game's: (n, 180), every engine code, as ``euchre_v0`` sizes it);
    * ``rewards``: (n, players) float32, for a table whose hand ended at this step each seat's
      reward as ``euchre_v0``'s ``reward="hand"`` gives it (its side's points less the mean of the
      other sides', :func:`euchre.envs.aec.relative`; in Napoleon the seat's own points,
      :func:`euchre.envs.aec.hand_rewards`), else 0; ``done``: (n,) bool, the hand ended at this
      step; ``points``: (n, sides) int16, the points of each table's last finished hand.

    >>> env = VectorEnv(Rules(), 8, seed=1)
    >>> obs, mask = env.reset()
    >>> obs, mask, rewards, done = env.step(env.policy_actions("random"))
    >>> obs.shape, mask.shape, rewards.shape
    ((8, 1680), (8, 119), (8, 4))
    >>> nap = VectorEnv(Rules.preset("napoleon", players=7), 8, seed=1)
    >>> obs, mask, rewards, done = nap.step(nap.policy_actions("heuristic"))
    >>> obs.shape, mask.shape, rewards.shape
    ((8, 2880), (8, 180), (8, 7))
    """

    def __init__(self, rules: Rules | None = None, n: int = 64, *, seed: int = 0, dealer: int | str = "rotate") -> None:
        self.rules = Rules() if rules is None else rules
        if n < 1:
            raise ValueError(f"n: at least one table, got {n}")
        self.n = int(n)
        players = self.rules.players
        self._mode = _dealer_mode(dealer, players)
        self._rs = np.zeros(self.n, np.uint64)
        self.to_act = np.zeros(self.n, np.int64)
        self.rewards = np.zeros((self.n, players), np.float32)
        self.done = np.zeros(self.n, np.bool_)
        self.points = np.zeros((self.n, self.rules.sides), np.int16)
        self.seed = seed
        self._sister: batch_sister.SisterTables | None = None
        if self.rules.sister_game is not None:  # a row, an observation and a mask of the game's own
            from euchre import batch_sister

            t = self._sister = batch_sister.SisterTables(self.rules)
            self._S = np.zeros((self.n, batch_sister._GFIELDS), np.int64)
            self._hist = np.full((self.n, t.width), -1, np.int64)
            self._hseats = np.full((self.n, t.width), -1, np.int64)
            self.obs = np.zeros((self.n, t.size), np.float32)
            self.mask = np.zeros((self.n, NUM_ACTIONS), np.bool_)
            self.reset(seed)
            return
        self._R = _rules_row(self.rules)
        self._H = _heuristic_row(players)
        self._deck = np.array(deck_cards(self.rules.deck), dtype=np.int64)
        self._at, self._bid, self._base = _layout(self.rules)
        self._S = np.zeros((self.n, _FIELDS), np.int64)
        self._hist = np.full((self.n, MAX_ACTIONS), -1, np.int64)
        self._hseats = np.full((self.n, MAX_ACTIONS), -1, np.int64)
        self.obs = np.zeros((self.n, self._base.shape[0]), np.float32)
        self.mask = np.zeros((self.n, EUCHRE_ACTIONS), np.bool_)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal a fresh hand at every table (table ``i`` draws from its own generator, seeded from
        ``(seed, i)``); returns ``(obs, mask)``."""
        if seed is not None:
            self.seed = seed
        self._hist[:] = -1
        self._hseats[:] = -1
        self.rewards[:] = 0.0
        self.done[:] = False
        if self._sister is not None:
            from euchre import batch_sister

            batch_sister.vec_reset(self)
            return self.obs, self.mask
        _vec_reset(self._S, self._R, self._rs, np.uint64(int(self.seed) & (2**64 - 1)), self._mode, self._deck,
                   self._hist, self._hseats, self._at, self._bid, self._base, self.obs, self.mask, self.to_act)
        return self.obs, self.mask

    def step(self, actions: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action code per table; returns ``(obs, mask, rewards, done)``. Raises
        :class:`~euchre.errors.IllegalActionError` (changing no table) if an action is not legal."""
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.n,):
            raise ValueError(f"actions: one per table, shape ({self.n},), got {a.shape}")
        if self._sister is not None:
            from euchre import batch_sister

            bad = batch_sister.vec_step(self, a)
        else:
            bad = _vec_step(self._S, self._R, self._rs, self._mode, self._deck, a, self._hist, self._hseats,
                            self._at, self._bid, self._base, self.obs, self.mask, self.to_act, self.rewards,
                            self.done, self.points)
        if bad >= 0:
            from euchre.errors import IllegalActionError

            raise IllegalActionError(f"table {bad}: action {a[bad]} is not legal (legal: "
                                     f"{np.flatnonzero(self.mask[bad]).tolist()})")
        return self.obs, self.mask, self.rewards, self.done

    def policy_actions(self, policy: str | Sequence[str] = "random", *, epsilon: float = 0.0) -> np.ndarray:
        """The action each table's seat to act would take under ``policy`` (``"random"`` or
        ``"heuristic"``, or one per seat), computed in compiled code: opponents for a learner, or
        self-play. Random choices draw from the tables' generators."""
        _, codes = _policy_codes(policy, self.rules.players)
        out = np.zeros(self.n, np.int64)
        if self._sister is not None:
            from euchre import batch_sister

            batch_sister.vec_policy(self, codes, float(epsilon), out)
        else:
            _vec_policy(self._S, self._R, self._H, self._rs, codes, float(epsilon), out)
        return out

    def state(self, i: int) -> State:
        """Table ``i``'s hand in progress, replayed through the engine."""
        if self._sister is not None:
            return self._sister.state(self.rules, self._S[i], self._hist[i])
        row = self._S[i]
        n = self.rules.players
        hands = [[CARDS[c] for c in range(NUM_CARDS) if int(row[_F_DEAL + s]) >> c & 1] for s in range(n)]
        stock = [CARDS[c] for c in range(NUM_CARDS) if int(row[_F_STOCK]) >> c & 1]
        s = State(self.rules, dealer=int(row[_F_DEALER]), hands=hands, up_card=int(row[_F_UP]), stock=stock)
        for a in self._hist[i, :int(row[_F_NACT])]:
            s.push(int(a))
        return s
