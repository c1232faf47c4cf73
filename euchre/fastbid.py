"""The bidding hint's sampled deals, compiled: what :meth:`SearchBot._values` gives each deal of a bid.

A bid, the dealer's discard or another decision before the play (a two-handed take, the Joker's
naming of trump, a lone defence) is valued by the search bot (:mod:`euchre.bots.search`) on
sampled deals: on each, every choice is pushed, the rest of the bidding is played by the heuristic
player, and the hand is solved from the first lead; where the rollout reaches another bidding
decision of the seat's own, every choice there is valued and grouped (:class:`~euchre.bots.search._Later`).
In Python about 40% of a sample's cost went to the engine's states and views, the heuristic's
decisions on them and the solver's set-up; here the same work is one call of numba-compiled code
for a batch of samples, built from parts that are tested on their own: the
compiled rules and heuristic player of :mod:`euchre.batch` (``_legal``, ``_apply``,
``_heuristic``, checked decision for decision against :class:`~euchre.bots.heuristic.HeuristicBot`)
and the solver's search (:func:`euchre.solver._search`, asked the null-window questions of
:meth:`~euchre.solver.Solver.outcome` over the same thresholds). :func:`sample_values` returns, for
each deal, exactly the values ``SearchBot._values`` gives it (``tests/test_fastbid.py`` compares
them on many views and deals), so the numbers of a hint on the same deals do not change.

What it costs (one core, the same positions, ``bench/README.md``): a bid hint's deal, sampling,
valuing and the hint's regression together, took 0.90 ms in Python and takes 0.21 ms here. The
rollouts and the deal are a sixth of that; the rest is the solver's search, which the same change
made cheaper (followers try the card that takes the trick first, :mod:`euchre.solver`). Two
things are saved besides: every solve of one deal with the same trump, makers and seats out
shares a generation of the transposition table (see :func:`_outcome`), and a position a second
choice's rollout reaches again (the partner ordering what the seat would order) is not solved
twice.

The deals are drawn here too, with the batch engine's generator (SplitMix64, one per sample,
seeded from the caller's seed and the sample's number: a batch is the same whatever its size and
however it is split among threads): the unseen cards dealt uniformly, as
:meth:`~euchre.view.PlayerView.resample` deals them before any play (no void is known then). The
numbers for one seed differ from the Python path's, which draws from ``random.Random``; the
sampler is the same.

A bot that reads the bidding (``infer_bids``, as the hints do) gets the deals the bidding left
likely (:func:`_draw`): the Python path weighs a uniform deal by ``bid_misfit`` for each other
seat's bid the heuristic player would not have made with it; here such a deal is drawn again
instead (kept with probability ``bid_misfit``, a deal of two surprises or more weighing the rest),
so the solver's time goes to likely deals, not to deals that weigh almost nothing. Those deals no
longer hold each unseen card as often as its share, so the control variate's features are
centred on the means of :func:`pool_hands` (four times as many deals, drawn the same way and not
valued: a few microseconds each) instead of on zero.

With ``playout`` (an option of the search bot, off by default, all of the samples at the
``expert`` level), a share of the samples, picked by their number (:func:`plays_out`), is valued by
the heuristic player's play of the hand to its end instead of the solver, as the Python path values
them; without ``playout_loners`` (the ``expert`` level's choice) a hand with a lone maker is solved
all the same.

The code is compiled on first use and cached on disk (numba's ``cache=True``, as the batch engine
and the solver are): the first bid hint on a machine compiles it with the parts of the batch
engine it calls (the heuristic port is the larger part), measured at two minutes on two cores
busy with other work (the solver alone: 16 s there); a new process then loads it from the cache
in about 2 s, once.

The card play of a bot reading the bids is drawn here too (:class:`PlayDrawer`, :func:`_draw_play`):
a deal as :meth:`~euchre.view.PlayerView.resample` deals one (the voids shown, the up card's
place, the dealer's hidden discard read by the heuristic's discard), kept by the same test of the
bids with the same chances; only the kept deals become engine states. Where the voids leave
almost no shuffle that fits, the Python deal's constrained fill takes over.

Covered (:func:`covered`): the Euchre games with an up card and five-card hands, two to four
players, every deck (the Joker included), going alone, stick the dealer, Canadian loner, defend
alone, the loner's lead, no trump and low, every point value; the phases BID1, BID2, DISCARD,
TAKE, JOKER and DEFEND. Not covered, and valued by the Python path as before: call for best,
ace-no-face and the farmer's hand (their samples weigh hidden choices), the sister games, a
card play, and a lone defence where the dealer may have buried the up card unseen (its sampling
rejects deals).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np
from numba import njit

from euchre.actions import ACTIONS, DISCARD_ACTIONS, Action, Kind
from euchre.batch import (
    _A_DISCARD,
    _DISCARD,
    _EFF,
    _F_ALONE,
    _F_DEAL,
    _F_DEALER,
    _F_HANDS,
    _F_LEADER,
    _F_MAKER,
    _F_N,
    _F_OUT,
    _F_PHASE,
    _F_POINTS,
    _F_STOCK,
    _F_TO_ACT,
    _F_TRUMP,
    _F_UP,
    _F_WON,
    _FIELDS,
    _OVER,
    _PLAY,
    _POW,
    _R_MAY_DISCARD_UP,
    _R_N,
    _apply,
    _heuristic,
    _heuristic_row,
    _legal,
    _rules_row,
    _score,
    _seed_hand,
    _setup,
    _shuffle,
    _side,
    _uniform,
    _weakest,
)
from euchre.cards import CARDS, NUM_CARDS, Card, deck_mask, iter_mask
from euchre.rules import HAND_SIZE, Rules
from euchre.solver import _FIELDS as _SOLVER_FIELDS
from euchre.solver import _MAX_PLY, MAX_SEATS, _search
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView, mask_of

if TYPE_CHECKING:
    from euchre.bots.search import SearchBot, _Later

__all__ = ["covered", "rules_covered", "play_covered", "sample_values", "sample_state", "pool_hands", "Samples",
           "BidReader", "PlayDrawer", "PHASES", "plays_out"]

PHASES = frozenset({Phase.BID1, Phase.BID2, Phase.DISCARD, Phase.TAKE, Phase.JOKER, Phase.DEFEND})
"""The decisions before the play that the compiled path values."""
MAX_CHOICES = 12
"""Room for the choices of one decision (at most 11 before the play: round 2's pass, three calls,
three loners, no trump and low with their loners; a discard has six)."""
MAX_SUFFIX = 24
"""Room for the actions of a rollout up to the seat's own later decision (at most 13: the rest of
the first round, the second, a discard and two lone-defence answers)."""
SIDES = 4
"""Room for the points of each side (a side a seat at most: four)."""


def rules_covered(rules: Rules) -> bool:
    """Whether the compiled samples play these rules' hands (see the module docstring)."""
    r = rules
    return not (r.sister_game is not None or r.double_deck or not r.has_up_card or r.hand_size != HAND_SIZE
                or r.call_for_best or r.ace_no_face or r.farmers_hand)


def play_covered(view: PlayerView) -> bool:
    """Whether :class:`BidReader` reads the bids for this view: a card play of the games the
    compiled samples play (:func:`rules_covered`)."""
    return (view.phase is Phase.PLAY and rules_covered(view.rules) and view.seat is not None
            and view.up_card is not None)


def covered(view: PlayerView) -> bool:
    """Whether :func:`sample_values` values this view's decision (see the module docstring)."""
    if not rules_covered(view.rules):
        return False
    if view.phase not in PHASES or view.seat is None or view.up_card is None:
        return False
    if view.gifts or view.misdeal >= 0 or view.farmer >= 0 or view.tricks or view.trick:
        return False
    # A lone defence after a discard this seat did not see, where the dealer may bury the up card:
    # the up card is then in the dealer's hand or buried, which the Python sampling rejects for.
    return not (view.up_card_taken and view.seat != view.dealer and view.dealer_discarded
                and view.rules.dealer_may_discard_up_card)


# --- the compiled samples ----------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _points_for(S: np.ndarray, R: np.ndarray, taken: int, out: np.ndarray) -> None:
    """The points per side (into ``out``) if the makers end with ``taken`` tricks
    (``State.score_for``, through the batch engine's scoring of a finished hand)."""
    for s in range(4):
        S[_F_WON + s] = 0
    S[_F_WON + S[_F_MAKER]] = taken
    saved_phase = S[_F_PHASE]
    saved_to_act = S[_F_TO_ACT]
    _score(S, R)
    for s in range(SIDES):
        out[s] = S[_F_POINTS + s]
        S[_F_POINTS + s] = 0
    for s in range(4):
        S[_F_WON + s] = 0
    S[_F_PHASE] = saved_phase
    S[_F_TO_ACT] = saved_to_act


@njit(cache=True, nogil=True)
def _outcome(S: np.ndarray, R: np.ndarray, out: np.ndarray, hands: np.ndarray, nxt: np.ndarray,
             maker: np.ndarray, tcards: np.ndarray, tseats: np.ndarray, tt_key: np.ndarray, tt_gen: np.ndarray,
             tt_lo: np.ndarray, tt_hi: np.ndarray, gen: np.ndarray, buf: np.ndarray, fr: np.ndarray,
             table: np.ndarray, groups: np.ndarray, memo: np.ndarray) -> None:
    """The points per side (into ``out``) of a hand at its first lead under best play:
    ``State.score_for(Solver.outcome(state))``, the same null-window questions over the same
    thresholds (:func:`euchre.solver.thresholds`), in a new generation of the table."""
    n = S[_F_N]
    ms = _side(n, S[_F_MAKER])
    first = -1
    prev = -1
    nactive = 0
    for s in range(MAX_SEATS):
        hands[s] = 0
        nxt[s] = 0
        maker[s] = 0
        maker[MAX_SEATS + s] = 0
    for s in range(n):
        if S[_F_OUT] >> s & 1:
            continue
        hands[s] = S[_F_HANDS + s]
        if first < 0:
            first = s
        else:
            nxt[prev] = s
        prev = s
        nactive += 1
    nxt[prev] = first
    for s in range(n):
        m = 1 if _side(n, s) == ms else 0
        maker[s] = m
        maker[MAX_SEATS + s] = m
    # The points of every trick count 0-5, and the counts where they change (the thresholds).
    for k in range(HAND_SIZE + 1):
        _points_for(S, R, k, table[k])
    ts = np.empty(HAND_SIZE, np.int64)
    nts = 0
    for k in range(1, HAND_SIZE + 1):
        for s in range(SIDES):
            if table[k, s] != table[k - 1, s]:
                ts[nts] = k
                nts += 1
                break
    t = S[_F_TRUMP]
    lead = S[_F_LEADER]
    out_mask = S[_F_OUT]
    tsmask = 0
    for j in range(nts):
        tsmask |= 1 << ts[j]
    # The same position solved earlier on this deal (another choice's rollout reached it: the
    # partner ordering what the seat would have ordered, a call made now or in round 2).
    for e in range(gen[2]):
        if (memo[e, 0] == t and memo[e, 1] == ms and memo[e, 2] == out_mask and memo[e, 3] == lead
                and memo[e, 4] == tsmask and memo[e, 5] == hands[0] and memo[e, 6] == hands[1]
                and memo[e, 7] == hands[2] and memo[e, 8] == hands[3]):
            k = memo[e, 9]
            for s in range(SIDES):
                out[s] = table[k, s]
            return
    # One generation of the table for every solve of this deal with the same trump, makers and
    # seats out: a card held is then always held by the same seat, so the cards held and the
    # leader still fix the position, and what one solve stored is true in the others (the
    # solver's own null-window questions share a generation the same way).
    g = -1
    for e in range(gen[1]):
        if groups[e, 0] == t and groups[e, 1] == ms and groups[e, 2] == out_mask:
            g = groups[e, 3]
            break
    if g < 0:
        gen[0] += 1
        g = gen[0]
        e = gen[1]
        if e < groups.shape[0]:
            groups[e, 0] = t
            groups[e, 1] = ms
            groups[e, 2] = out_mask
            groups[e, 3] = g
            gen[1] = e + 1
    lo = -1
    hi = nts - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        need = ts[mid]
        v = _search(hands, t, nxt, maker, nactive, tcards, tseats, 0, lead, HAND_SIZE, need - 1, need,
                    tt_key, tt_gen, tt_lo, tt_hi, g, buf, fr)
        if v >= need:
            lo = mid
        else:
            hi = mid - 1
    k = ts[lo] if lo >= 0 else 0
    e = gen[2]
    if e < memo.shape[0]:
        memo[e, 0] = t
        memo[e, 1] = ms
        memo[e, 2] = out_mask
        memo[e, 3] = lead
        memo[e, 4] = tsmask
        for s in range(4):
            memo[e, 5 + s] = hands[s]
        memo[e, 9] = k
        gen[2] = e + 1
    for s in range(SIDES):
        out[s] = table[k, s]


@njit(cache=True, nogil=True)
def plays_out(number: int, playout: float) -> bool:
    """Whether sample ``number`` is valued by the heuristic player's play to the end of the hand
    instead of the solver (``SearchBot``'s ``playout``, the share of such samples): the fractional
    part of ``number`` times the golden ratio below ``playout``, so that the samples played out are
    spread evenly over any run of numbers, and each of a deal's choices is valued the same way."""
    return playout > 0.0 and (number * 0.6180339887498949) % 1.0 < playout


@njit(cache=True, nogil=True)
def _finish(T: np.ndarray, R: np.ndarray, H: np.ndarray, acts: np.ndarray, out: np.ndarray, hands: np.ndarray,
            nxt: np.ndarray, maker: np.ndarray, tcards: np.ndarray, tseats: np.ndarray, tt_key: np.ndarray,
            tt_gen: np.ndarray, tt_lo: np.ndarray, tt_hi: np.ndarray, gen: np.ndarray, buf: np.ndarray,
            fr: np.ndarray, table: np.ndarray, groups: np.ndarray, memo: np.ndarray, playout: float = 0.0,
            number: int = 0, loners: bool = True) -> None:
    """Play the rest of the bidding of ``T`` by the heuristic player and value the hand (into
    ``out``): ``SearchBot._value`` after a rollout. Sample ``number`` is played to the end by the
    heuristic player instead of solved where :func:`plays_out` says so (``playout``), a loner's
    hand only with ``loners``."""
    while T[_F_PHASE] != _PLAY and T[_F_PHASE] != _OVER:
        na = _legal(T, R, acts)
        _apply(T, R, _heuristic(T, R, H, acts, na))
    if T[_F_PHASE] == _OVER:  # thrown in
        for s in range(SIDES):
            out[s] = 0
        return
    if plays_out(number, playout) and (loners or T[_F_ALONE] == 0):
        while T[_F_PHASE] != _OVER:
            na = _legal(T, R, acts)
            _apply(T, R, _heuristic(T, R, H, acts, na))
        for s in range(SIDES):
            out[s] = T[_F_POINTS + s]
        return
    _outcome(T, R, out, hands, nxt, maker, tcards, tseats, tt_key, tt_gen, tt_lo, tt_hi, gen, buf, fr, table, groups,
             memo)


@njit(cache=True, nogil=True)
def _deal_position(S0: np.ndarray, R: np.ndarray, dealer: int, up: int, dealt: np.ndarray, stock: int) -> None:
    """``S0`` set to the deal's start: the hands as dealt (``dealt``), the up card and the stock."""
    n = R[_R_N]
    for f in range(_FIELDS):
        S0[f] = 0
    S0[_F_N] = n
    S0[_F_DEALER] = dealer
    for s in range(n):
        S0[_F_HANDS + s] = dealt[s]
        S0[_F_DEAL + s] = dealt[s]
    S0[_F_UP] = up
    S0[_F_STOCK] = stock
    _setup(S0, R)


@njit(cache=True, nogil=True)
def _replay_bids(S0: np.ndarray, R: np.ndarray, H: np.ndarray, seat: int, actions: np.ndarray, buried: int,
                 count: bool, acts: np.ndarray) -> int:
    """``actions`` replayed on ``S0`` (-1: the dealer's discard, ``buried``), up to the first card
    played; with ``count``, how many of the other seats' decisions before the play (not the
    dealer's discard) the heuristic player would not have made there: the bids the deal does not
    explain (``SearchBot._bid_weight``'s test)."""
    surprises = 0
    for j in range(actions.shape[0]):
        if S0[_F_PHASE] == _PLAY or S0[_F_PHASE] == _OVER:
            break
        a = actions[j]
        if a < 0:
            a = _A_DISCARD + buried
        if count and S0[_F_TO_ACT] != seat and S0[_F_PHASE] != _DISCARD:
            na = _legal(S0, R, acts)
            if na > 1 and _heuristic(S0, R, H, acts, na) != a:
                surprises += 1
        _apply(S0, R, a)
    return surprises


@njit(cache=True, nogil=True)
def _bid_surprises(R: np.ndarray, H: np.ndarray, dealer: int, seat: int, up: int, dealt: np.ndarray, stock: int,
                   actions: np.ndarray, buried: int, S0: np.ndarray, acts: np.ndarray) -> int:
    """The other seats' bids of ``actions`` (a hand's actions before its first card, -1 for the
    dealer's discard ``buried``) that the heuristic player would not have made on the deal
    (``dealt``, ``stock``): what :func:`_draw` counts, for a deal drawn elsewhere (:class:`BidReader`)."""
    _deal_position(S0, R, dealer, up, dealt, stock)
    return _replay_bids(S0, R, H, seat, actions, buried, True, acts)


KEEP_FLOOR = 1 / 64
"""The least chance a deal that does not explain the bids is kept with (:func:`_draw`), so a very
sharp ``bid_misfit`` costs at most 64 draws a deal on average, not millions."""


@njit(cache=True, nogil=True)
def _draw(R: np.ndarray, H: np.ndarray, dealer: int, seat: int, up: int, prefix: np.ndarray, mine: int,
          known_discard: int, pool: np.ndarray, need: np.ndarray, up_taken: bool, up_fixed: bool,
          hidden_discard: bool, misfit: float, rs: np.ndarray, cards: np.ndarray, now: np.ndarray,
          dealt: np.ndarray, S0: np.ndarray, acts: np.ndarray) -> tuple[float, int, int, int]:
    """One deal from the generator ``rs``, replayed to the view's position in ``S0`` (``dealt``: the
    hands as dealt): ``(weight, surprises, buried card or -1, stock mask)``. With ``misfit`` below 1
    the deal is drawn by the bidding: each of the other seats' bids of the view that the heuristic
    player would not have made on it (``SearchBot._bid_weight``'s test) is a surprise, and a deal
    with ``k`` of them is kept with probability ``max(misfit ** k, misfit, KEEP_FLOOR)`` (else drawn
    again) and weighs ``misfit ** k`` over that: the deals ``SearchBot._bid_weight`` weighs, in the
    same proportions, with at most ``1 / misfit`` draws a deal on average (``1 / KEEP_FLOOR`` for a
    sharper misfit) and every deal of at most one surprise weighing 1 (for a misfit from the floor up)."""
    n = R[_R_N]
    m = pool.shape[0]
    while True:
        # The deal: the unseen cards shuffled and handed out seat by seat (PlayerView.resample).
        _shuffle(pool, cards, rs)
        k = 0
        for s in range(n):
            h = 0
            if s == seat:
                h = mine
            else:
                for _ in range(need[s]):
                    h |= 1 << cards[k]
                    k += 1
            now[s] = h
        buried = known_discard
        if hidden_discard:
            buried = cards[k]
            k += 1
        stock = 0
        for j in range(k, m):
            stock |= 1 << cards[j]
        if up_fixed:
            now[dealer] |= 1 << up
        for s in range(n):
            h = now[s]
            if s == dealer and up_taken:
                # The dealer took the up card: as dealt, its hand held the buried card instead.
                if buried >= 0:
                    h |= 1 << buried
                h &= ~(1 << up)
            dealt[s] = h
        # The view's position on this deal (the batch engine's _replay, the buried card filled in).
        _deal_position(S0, R, dealer, up, dealt, stock)
        surprises = _replay_bids(S0, R, H, seat, prefix, buried, misfit < 1.0, acts)
        if surprises == 0:
            return 1.0, 0, buried, stock
        keep = misfit ** surprises
        chance = max(keep, misfit, KEEP_FLOOR)
        if _uniform(rs) < chance:
            return keep / chance, surprises, buried, stock


@njit(cache=True, nogil=True)
def _samples(R: np.ndarray, H: np.ndarray, dealer: int, seat: int, up: int, prefix: np.ndarray, mine: int,
             known_discard: int, pool: np.ndarray, need: np.ndarray, up_taken: bool, up_fixed: bool,
             hidden_discard: bool,
             cands: np.ndarray, own_bids: bool, misfit: float, seed: np.uint64, first: int, count: int,
             tt_key: np.ndarray, tt_gen: np.ndarray, tt_lo: np.ndarray, tt_hi: np.ndarray, gen: np.ndarray,
             buf: np.ndarray, fr: np.ndarray, now_out: np.ndarray, deal_out: np.ndarray, later: np.ndarray,
             pts: np.ndarray, nb: np.ndarray, bcodes: np.ndarray, suffix: np.ndarray,
             nsuffix: np.ndarray, lhand: np.ndarray, surprise: np.ndarray, weight_out: np.ndarray,
             playout: float, loners: bool) -> None:
    """Samples ``first`` to ``first + count - 1``: deal each (its own generator), replay the view's
    actions on it and value every candidate as ``SearchBot._values`` does. Row ``i`` of the outputs
    is sample ``first + i``: the seats' hands at the view (``now_out``), the deal (``deal_out``: the
    hands as dealt, the stock's mask, the buried card or -1), and per candidate ``j``
    either its points per side (``later[i, j] == 0``: ``pts[i, j, 0]``) or the seat's later
    decision (``later[i, j] == 1``): the ``nb`` choices there (``bcodes``) with their points
    (``pts[i, j, k]``), the actions that led there after the view's (``suffix``, -1 for a discard
    the seat does not see) and the seat's cards there (``lhand``); the deal's bids not explained
    (``surprise``) and its weight (``weight_out``), drawn by the bidding with ``misfit`` below 1
    (:func:`_draw`)."""
    S0 = np.zeros(_FIELDS, np.int64)
    T = np.zeros(_FIELDS, np.int64)
    U = np.zeros(_FIELDS, np.int64)
    acts = np.empty(40, np.int64)
    later_acts = np.empty(40, np.int64)
    rs = np.zeros(1, np.uint64)
    m = pool.shape[0]
    cards = np.empty(m, np.int64)
    hands = np.zeros(MAX_SEATS, np.int64)
    nxt = np.zeros(MAX_SEATS, np.int64)
    maker = np.zeros(2 * MAX_SEATS, np.int64)
    tcards = np.zeros(MAX_SEATS, np.int64)
    tseats = np.zeros(MAX_SEATS, np.int64)
    table = np.zeros((HAND_SIZE + 1, SIDES), np.int64)
    dealt = np.zeros(4, np.int64)
    now = np.zeros(4, np.int64)
    groups = np.zeros((16, 4), np.int64)
    memo = np.zeros((64, 10), np.int64)
    for i in range(count):
        gen[1] = 0  # (a new deal: no group, nothing solved)
        gen[2] = 0
        _seed_hand(rs, seed, first + i)
        weight_out[i], surprise[i], buried, stock = _draw(R, H, dealer, seat, up, prefix, mine, known_discard, pool,
                                                          need, up_taken, up_fixed, hidden_discard, misfit, rs, cards,
                                                          now, dealt, S0, acts)
        for s in range(4):
            now_out[i, s] = S0[_F_HANDS + s]
            deal_out[i, s] = dealt[s]
        deal_out[i, 4] = stock
        deal_out[i, 5] = buried
        # Every candidate on this deal.
        for j in range(cands.shape[0]):
            for f in range(_FIELDS):
                T[f] = S0[f]
            _apply(T, R, cands[j])
            later[i, j] = 0
            ns = 0
            suffix[i, j, ns] = cands[j]
            ns += 1
            while T[_F_PHASE] != _PLAY and T[_F_PHASE] != _OVER:
                na = _legal(T, R, acts)
                actor = T[_F_TO_ACT]
                if own_bids and actor == seat and na > 1:
                    # The seat's own later decision: every choice valued.
                    later[i, j] = 1
                    lhand[i, j] = T[_F_HANDS + seat]
                    if T[_F_PHASE] == _DISCARD:
                        na = _plausible_discards(acts, na, T[_F_TRUMP])
                    nb[i, j] = na
                    for b in range(na):
                        later_acts[b] = acts[b]
                    for b in range(na):
                        for f in range(_FIELDS):
                            U[f] = T[f]
                        bcodes[i, j, b] = later_acts[b]
                        _apply(U, R, later_acts[b])
                        _finish(U, R, H, acts, pts[i, j, b], hands, nxt, maker, tcards, tseats, tt_key, tt_gen,
                                tt_lo, tt_hi, gen, buf, fr, table, groups, memo, playout, first + i, loners)
                    break
                a = _heuristic(T, R, H, acts, na)
                suffix[i, j, ns] = -1 if T[_F_PHASE] == _DISCARD and actor != seat else a
                ns += 1
                _apply(T, R, a)
            nsuffix[i, j] = ns
            if later[i, j] == 0:
                _finish(T, R, H, acts, pts[i, j, 0], hands, nxt, maker, tcards, tseats, tt_key, tt_gen, tt_lo,
                        tt_hi, gen, buf, fr, table, groups, memo, playout, first + i, loners)


@njit(cache=True, nogil=True)
def _plausible_discards(acts: np.ndarray, na: int, t: int) -> int:
    """:func:`euchre.bots.search.plausible_discards` on the ``na`` discards in ``acts``, in place:
    the lowest card of each side suit held (or the lowest trump if none), in their order; returns
    how many are left."""
    low = np.full(5, -1, np.int64)
    for b in range(na):
        c = acts[b] - _A_DISCARD
        e = _EFF[t, c]
        if low[e] < 0 or _POW[t, c] < _POW[t, low[e]]:
            low[e] = c
    side = False
    for e in range(5):
        if e != t and low[e] >= 0:
            side = True
    k = 0
    for b in range(na):
        c = acts[b] - _A_DISCARD
        e = _EFF[t, c]
        if low[e] == c and (e != t or not side):
            acts[k] = acts[b]
            k += 1
    return k


@njit(cache=True, nogil=True)
def _pool(R: np.ndarray, H: np.ndarray, dealer: int, seat: int, up: int, prefix: np.ndarray, mine: int,
          known_discard: int, pool: np.ndarray, need: np.ndarray, up_taken: bool, up_fixed: bool,
          hidden_discard: bool, misfit: float, seed: np.uint64, first: int, count: int,
          now_out: np.ndarray) -> None:
    """Deals ``first`` to ``first + count - 1`` as :func:`_samples` draws them (:func:`_draw`), not
    valued: the seats' hands at the view of each (``now_out``)."""
    S0 = np.zeros(_FIELDS, np.int64)
    acts = np.empty(40, np.int64)
    rs = np.zeros(1, np.uint64)
    cards = np.empty(pool.shape[0], np.int64)
    dealt = np.zeros(4, np.int64)
    now = np.zeros(4, np.int64)
    for i in range(count):
        _seed_hand(rs, seed, first + i)
        _draw(R, H, dealer, seat, up, prefix, mine, known_discard, pool, need, up_taken, up_fixed, hidden_discard,
              misfit, rs, cards, now, dealt, S0, acts)
        for s in range(4):
            now_out[i, s] = S0[_F_HANDS + s]


# --- the Python side ------------------------------------------------------------------------------------------
class _Setup:
    """What every sample of one view shares, as the compiled code takes it."""

    def __init__(self, view: PlayerView, candidates: Sequence[Action], own_bids: bool, misfit: float,
                 playout: float = 0.0, loners: bool = True) -> None:
        self.playout = float(playout)
        self.loners = loners
        rules = view.rules
        seat = view.seat
        up = view.up_card
        assert seat is not None and up is not None
        n = rules.players
        self.rules_row = _rules_row(rules)
        self.heuristic_row = _heuristic_row(n)
        self.dealer = view.dealer
        self.seat = seat
        self.up = int(up)
        self.prefix = np.array([-1 if a is None else int(a) for _, a in view.actions], dtype=np.int64)
        self.seen = tuple(int(x) for x in self.prefix)
        """The view's actions as the seat sees them (the start of each later decision's history)."""
        self.mine = mask_of(view.hand)
        self.known_discard = -1 if view.discard is None else int(view.discard)
        # As PlayerView.resample deals before any play: five unseen cards to each other seat, the
        # dealer's taken up card kept in its hand (covered() leaves out the case where it may
        # have been buried unseen), one more card buried when the seat did not see the discard.
        self.up_taken = view.up_card_taken
        dealer = view.dealer
        self.up_fixed = self.up_taken and seat != dealer
        self.hidden_discard = view.dealer_discarded and seat != dealer
        self.need = np.array([0 if s == seat else HAND_SIZE for s in range(4)], dtype=np.int64)
        if self.up_fixed and view.dealer_discarded:
            self.need[dealer] -= 1  # the up card and four others (the fifth, buried, drawn after)
        pool_mask = view.unseen_mask() & ~(1 << self.up)
        self.pool = np.array([c for c in range(deck_mask(rules.deck).bit_length()) if pool_mask >> c & 1],
                             dtype=np.int64)
        self.cands = np.array([int(a) for a in candidates], dtype=np.int64)
        self.own_bids = own_bids
        self.misfit = misfit
        """Below 1: the deals are drawn by the other seats' bids (:func:`_draw`)."""


TT_BITS = 14
"""Entries (a power of two) of the transposition table of each thread's bidding solves: a deal's
solves visit a few thousand positions, and a table that fits the core's cache (512 KiB) makes a
node about 10% cheaper than the solver's own of 2**18 entries (8 MiB)."""


class _Tables(threading.local):
    """The calling thread's search tables: its transposition table, the search's stacks, and the
    generation counter (every deal's solves a new generation; see :func:`_outcome`)."""

    def __init__(self) -> None:
        size = 1 << TT_BITS
        self.tt = [np.zeros(size, dtype=np.int64) for _ in range(4)]
        self.buf = np.zeros((_MAX_PLY, 8), dtype=np.int64)
        self.fr = np.zeros((_MAX_PLY, _SOLVER_FIELDS), dtype=np.int64)
        self.gen = np.zeros(3, dtype=np.int64)


_TABLES = _Tables()


def _run(setup: _Setup, seed: int, first: int, count: int) -> tuple[np.ndarray, ...]:
    """Samples ``first`` .. ``first + count - 1`` in the calling thread (its own tables)."""
    tables = _TABLES
    nc = len(setup.cands)
    now = np.zeros((count, 4), np.int64)
    deal = np.zeros((count, 6), np.int64)
    later = np.zeros((count, nc), np.int64)
    pts = np.zeros((count, nc, MAX_CHOICES, SIDES), np.int16)  # (small: 6,000 deals of 11 choices)
    nb = np.zeros((count, nc), np.int64)
    bcodes = np.zeros((count, nc, MAX_CHOICES), np.int16)
    suffix = np.zeros((count, nc, MAX_SUFFIX), np.int16)
    nsuffix = np.zeros((count, nc), np.int64)
    lhand = np.zeros((count, nc), np.int64)
    surprise = np.zeros(count, np.int64)
    weight = np.zeros(count, np.float64)
    tt_key, tt_gen, tt_lo, tt_hi = tables.tt
    _samples(setup.rules_row, setup.heuristic_row, setup.dealer, setup.seat, setup.up, setup.prefix, setup.mine,
             setup.known_discard, setup.pool, setup.need, setup.up_taken, setup.up_fixed, setup.hidden_discard,
             setup.cands, setup.own_bids, setup.misfit, np.uint64(seed), first, count,
             tt_key, tt_gen, tt_lo, tt_hi, tables.gen, tables.buf, tables.fr,
             now, deal, later, pts, nb, bcodes, suffix, nsuffix, lhand, surprise, weight, setup.playout, setup.loners)
    return now, deal, later, pts, nb, bcodes, suffix, nsuffix, lhand, surprise, weight


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _executor(threads: int) -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < threads:
            _POOL = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="euchre-fastbid")
        return _POOL


class Samples(NamedTuple):
    """What :func:`sample_values` returns: one entry per sample."""

    values: list[dict[Action, tuple[float, float] | _Later]]
    """The values ``SearchBot._values`` gives the sample."""
    hands: list[tuple[int, ...]]
    """The seats' hands at the view (``sample.hands``), as masks."""
    deals: np.ndarray
    """(samples, 6) int64: the hands as dealt (four masks), the stock's mask and the card the
    dealer buried (-1 if none yet): the deal itself (:func:`sample_state`)."""
    surprises: np.ndarray
    """(samples,) int64: with the bot's ``infer_bids``, how many of the other seats' bids the
    heuristic player would not have made on the deal (zeros without it)."""
    weights: np.ndarray
    """(samples,) float64: each deal's weight (1 without ``infer_bids``; with it the deals are
    drawn by the bidding, and one of two or more surprises weighs ``bid_misfit`` for each but one)."""


def pool_hands(bot: SearchBot, view: PlayerView, count: int, seed: int, *, threads: int = 1) -> np.ndarray:
    """(count, 4) int64: the seats' hands at the view on ``count`` deals drawn as
    :func:`sample_values` draws them for ``bot`` (by the bidding with its ``infer_bids``), not
    valued: where the deals are drawn by the bidding, the control variate's features have these
    deals' means, not zero (:func:`euchre.bots.control.corrected`)."""
    if not covered(view):
        raise ValueError("the compiled bidding samples do not cover this view (fastbid.covered)")
    setup = _Setup(view, [], bot.own_bids, bot.bid_misfit if bot.infer_bids else 1.0)
    seed &= (1 << 64) - 1

    def run(part: tuple[int, int]) -> np.ndarray:
        out = np.zeros((part[1], 4), np.int64)
        _pool(setup.rules_row, setup.heuristic_row, setup.dealer, setup.seat, setup.up, setup.prefix, setup.mine,
              setup.known_discard, setup.pool, setup.need, setup.up_taken, setup.up_fixed, setup.hidden_discard,
              setup.misfit, np.uint64(seed), part[0], part[1], out)
        return out

    if threads > 1 and count >= 2 * threads:
        step = -(-count // threads)
        return np.concatenate(list(_executor(threads).map(run, [(a, min(step, count - a))
                                                                for a in range(0, count, step)])))
    return run((0, count))


def sample_state(view: PlayerView, deal: np.ndarray) -> State:
    """A sample as the engine's :class:`~euchre.state.State`, standing where ``view`` does (the
    view's actions replayed on the deal ``deal``, a row of :attr:`Samples.deals`), as
    :meth:`~euchre.view.PlayerView.resample` returns it."""
    rules = view.rules
    n = rules.players

    def cards(mask: int) -> list[Card]:
        return [CARDS[c] for c in range(NUM_CARDS) if mask >> c & 1]

    state = State(rules, dealer=view.dealer, hands=[cards(int(deal[s])) for s in range(n)], up_card=view.up_card,
                  stock=cards(int(deal[4])))
    for _, a in view.actions:
        state._push(DISCARD_ACTIONS[int(deal[5])] if a is None else a)
    return state


class BidReader:
    """The other seats' bids read on a full sampled deal, compiled: for the card play's samples
    (:meth:`~euchre.view.PlayerView.resample`), which the search bot reading the bids
    (``infer_bids``) draws by the bids as :func:`_draw` draws the bidding's, where the Python
    test (``SearchBot._bid_weight``, the heuristic player asked on an engine state) cost about a
    millisecond a deal. One reader serves one view: the seat, the dealer and the up card are
    its."""

    def __init__(self, view: PlayerView) -> None:
        if not play_covered(view):
            raise ValueError("the compiled bid reading does not cover this view (fastbid.play_covered)")
        assert view.seat is not None and view.up_card is not None
        self.rules_row = _rules_row(view.rules)
        self.heuristic_row = _heuristic_row(view.rules.players)
        self.dealer = view.dealer
        self.seat = view.seat
        self.up = int(view.up_card)
        # The view's actions before the first card, as every sample replays them (-1: a discard
        # the seat did not see, each sample's own).
        prefix = []
        for _, a in view.actions:
            if a is not None and a.kind is Kind.PLAY:
                break
            prefix.append(-1 if a is None else int(a))
        self.prefix = np.array(prefix, np.int64)
        self._S0 = np.zeros(_FIELDS, np.int64)
        self._acts = np.empty(40, np.int64)
        self._dealt = np.zeros(4, np.int64)

    def surprises(self, sample: State) -> int:
        """How many of the other seats' bids in ``sample`` (a full deal standing where the view
        does) the heuristic player would not have made with the deal's cards."""
        deal = sample.deal
        for s, h in enumerate(deal.hands):
            self._dealt[s] = mask_of(h)
        buried = -1 if sample.discard is None else int(sample.discard)
        return int(_bid_surprises(self.rules_row, self.heuristic_row, self.dealer, self.seat, self.up, self._dealt,
                                  mask_of(deal.stock), self.prefix, buried, self._S0, self._acts))


# --- the card play's deals, drawn by the bids --------------------------------------------------------------
@njit(cache=True, nogil=True)
def _bury_fit(kept: int, candidates: int, up: int, trump: int, may_bury_up: bool, misfit: float,
              six: np.ndarray) -> float:
    """``PlayerView._bury_fit`` with the heuristic's discard (``weakest_card``): how well a deal
    explains the dealer's hidden discard, ``kept`` its five cards after it, ``candidates`` the cards
    it could have buried."""
    total = 0.0
    count = 0
    for c in range(NUM_CARDS):
        if not candidates >> c & 1:
            continue
        hand = kept | (1 << c)
        if not hand >> up & 1:
            continue  # (the dealer took the up card: it is among the six)
        nc = 0
        for x in range(NUM_CARDS):
            if hand >> x & 1 and (may_bury_up or x != up):
                six[nc] = x
                nc += 1
        count += 1
        total += 1.0 if six[_weakest(six, nc, trump)] == c else misfit
    return total / count if count else 1.0


@njit(cache=True, nogil=True)
def _deal_hidden(seat: int, dealer: int, up: int, n: int, mine: int, known_discard: int, pool: np.ndarray,
                 need: np.ndarray, voids: np.ndarray, up_fixed: bool, taken_up_in_pool: bool, hidden_discard: bool,
                 may_bury_up: bool, tries: int, rs: np.ndarray, cards: np.ndarray, now: np.ndarray) -> tuple[int, int]:
    """``PlayerView._deal_hidden``'s rejection sampling: the unseen cards dealt until no seat holds a
    card of a suit it showed out of, ``now`` the seats' cards then: ``(buried card or -1, the cards
    left over)``, or ``(-2, 0)`` when ``tries`` deals all broke a void (the caller falls back to
    the Python deal's constrained fill)."""
    m = pool.shape[0]
    for _ in range(tries):
        _shuffle(pool, cards, rs)
        k = 0
        ok = True
        for s in range(n):
            if s == seat:
                now[s] = mine
                continue
            h = 0
            for _ in range(need[s]):
                h |= 1 << cards[k]
                k += 1
            if h & voids[s]:
                ok = False
            now[s] = h
        buried = -1
        if hidden_discard:
            buried = cards[k]
            k += 1
        if taken_up_in_pool and not (now[dealer] >> up & 1 or buried == up):
            ok = False  # (the up card went to the dealer: in its hand or buried)
        if hidden_discard and buried == up and not may_bury_up:
            ok = False
        if ok:
            left = 0
            for j in range(k, m):
                left |= 1 << cards[j]
            if up_fixed:
                now[dealer] |= 1 << up
            if known_discard >= 0:
                buried = known_discard
            return buried, left
    return -2, 0


@njit(cache=True, nogil=True)
def _draw_play(R: np.ndarray, H: np.ndarray, dealer: int, seat: int, up: int, prefix: np.ndarray, mine: int,
               known_discard: int, pool: np.ndarray, need: np.ndarray, voids: np.ndarray, played: np.ndarray,
               deck: int, up_taken: bool, up_fixed: bool, taken_up_in_pool: bool, hidden_discard: bool,
               trump: int, bury_misfit: float, redraws: int, tries: int, misfit: float, floor: float,
               rs: np.ndarray, cards: np.ndarray, now: np.ndarray, dealt: np.ndarray, six: np.ndarray,
               S0: np.ndarray, acts: np.ndarray, out_now: np.ndarray,
               out_chance: np.ndarray) -> tuple[float, int, int, int]:
    """One deal of a card play, drawn by the bids as :meth:`SearchBot._draw_by_bids` draws it in
    Python: a deal :meth:`~euchre.view.PlayerView.resample` would give (the voids shown, the dealer's
    hidden discard read with ``bury_misfit`` up to ``redraws`` times), kept with chance
    ``max(misfit ** k, floor)`` when ``k`` of the other seats' bids are unexplained on it (1 when
    none is). Every deal drawn goes to a row of ``out_now`` (the seats' cards at the view) and
    ``out_chance`` (its chance). ``dealt``: the kept deal's hands as dealt. Returns ``(weight,
    rows written, buried card or -1, stock mask)``; a weight below 0 keeps no deal: -1 when the
    rows ran out (call again), -2 when the voids broke ``tries`` deals (deal in Python)."""
    n = R[_R_N]
    may_bury_up = R[_R_MAY_DISCARD_UP] != 0
    read = hidden_discard and known_discard < 0 and bury_misfit < 1.0
    rows = out_now.shape[0]
    for j in range(rows):
        buried, left = -2, 0
        for _ in range(redraws if read else 1):
            buried, left = _deal_hidden(seat, dealer, up, n, mine, known_discard, pool, need, voids, up_fixed,
                                        taken_up_in_pool, hidden_discard, may_bury_up, tries, rs, cards, now)
            if buried == -2:
                return -2.0, j, -1, 0
            if not read:
                break
            held = 0
            for s in range(n):
                held |= now[s]
            candidates = left | (1 << buried)
            if _uniform(rs) < _bury_fit(now[dealer] | played[dealer], candidates & ~held, up, trump, may_bury_up,
                                       bury_misfit, six):
                break
        used = 0
        for s in range(n):
            h = now[s] | played[s]
            used |= h
            if s == dealer and up_taken:
                # The dealer took the up card: as dealt, its hand held the buried card instead.
                if buried >= 0:
                    h |= 1 << buried
                h &= ~(1 << up)
            dealt[s] = h
            out_now[j, s] = now[s]
        if buried >= 0:
            used |= 1 << buried
        stock = deck & ~used & ~(1 << up)
        k = 0
        if misfit < 1.0:  # (at 1 every deal is kept: the bids are not read)
            _deal_position(S0, R, dealer, up, dealt, stock)
            k = _replay_bids(S0, R, H, seat, prefix, buried, True, acts)
        keep = misfit ** k
        chance = max(keep, floor) if k else 1.0
        out_chance[j] = chance
        if chance >= 1.0 or _uniform(rs) < chance:
            return keep / chance, j + 1, buried, stock
    return -1.0, rows, -1, 0


@njit(cache=True, nogil=True)
def _play_surprises(S0: np.ndarray, R: np.ndarray, H: np.ndarray, seat: int, actions: np.ndarray, buried: int,
                    partner: bool, acts: np.ndarray) -> tuple[int, int]:
    """``actions`` (the view's, -1 for the dealer's discard ``buried``) replayed on ``S0`` (a deal's
    start): how many cards of the other side, and of the seat's partner (with ``partner``), the
    heuristic player would not have played there: ``SearchBot._play_weight``'s test."""
    n = R[_R_N]
    me = _side(n, seat)
    other = 0
    mate = 0
    for j in range(actions.shape[0]):
        a = actions[j]
        if a < 0:
            a = _A_DISCARD + buried
        if S0[_F_PHASE] == _PLAY:
            s = S0[_F_TO_ACT]
            theirs = _side(n, s) != me
            if s != seat and (theirs or partner):
                na = _legal(S0, R, acts)
                if na > 1 and _heuristic(S0, R, H, acts, na) != a:
                    if theirs:
                        other += 1
                    else:
                        mate += 1
        _apply(S0, R, a)
    return other, mate


class PlayDrawer:
    """A card play's deals, compiled (:func:`_draw_play`): what the search bot values in the card
    play of the games :func:`play_covered` covers. For a bot reading the bids (``infer_bids``, the
    hints) they are drawn by the other seats' bids, as the bidding's deals are (:func:`_draw`);
    for one that does not (the expert), every deal is kept (``misfit`` 1). The card play read so far
    weighs them too (:meth:`play_weight`). In Python a draw was a deal of
    :meth:`~euchre.view.PlayerView.resample` (60 us, with the dealer's discard read up to 200 us) and
    the bids' test on it (:class:`BidReader`); where most deals leave a bid unexplained a kept deal
    took 15 of them. Here a draw costs a few microseconds, and only a kept deal becomes an engine
    state (the first replayed by :func:`sample_state`, the others copied from it: :meth:`_state`).
    One drawer serves one view and draws from its own generator, seeded once: the same seed gives
    the same deals."""

    ROWS = 256
    """Draws recorded per compiled call (a call that fills them keeps no deal and is made again)."""
    KEEP_FLOOR = KEEP_FLOOR
    """The least chance a deal is kept with (:data:`euchre.fastbid.KEEP_FLOOR`), for callers that
    do not import this module up front."""

    FAILS = 3
    """Compiled draws that may fail (:attr:`failed`) before the drawer is no longer asked."""

    def __init__(self, view: PlayerView, seed: int, *, bury_misfit: float = 1.0, redraws: int = 64,
                 tries: int = 2000) -> None:
        self.view = view
        self.reader = reader = BidReader(view)
        rules = view.rules
        n = rules.players
        dealer = view.dealer
        seat = reader.seat
        up = reader.up
        played = view.played_masks()
        all_played = 0
        for m in played:
            all_played |= m
        # The seats' cards to deal, as PlayerView.resample counts them (the card play: the dealer
        # has discarded, its up card fixed in its hand unless it may have buried it unseen).
        up_fixed = False
        if view.up_card_taken and not all_played >> up & 1 and seat != dealer:
            up_fixed = not (view.dealer_discarded and rules.dealer_may_discard_up_card)
        self.hidden_discard = view.dealer_discarded and seat != dealer
        need = [0 if s == seat or s >= n else rules.hand_size - played[s].bit_count() for s in range(4)]
        if view.up_card_taken and not view.dealer_discarded and seat != dealer:
            need[dealer] += 1
        if up_fixed:
            need[dealer] -= 1
        self.taken_up_in_pool = (view.up_card_taken and not up_fixed and seat != dealer
                                 and not all_played >> up & 1)
        pool_mask = view.unseen_mask() & ~(1 << up)
        if self.taken_up_in_pool:
            pool_mask |= 1 << up
        self.pool = np.array([c for c in range(NUM_CARDS) if pool_mask >> c & 1], np.int64)
        self.need = np.array(need, np.int64)
        voids = view.voids()
        self.voids = np.array([voids.get(s, 0) & deck_mask(rules.deck) for s in range(4)], np.int64)
        self.played = np.array(played + [0] * (4 - n), np.int64)
        self.deck = deck_mask(rules.deck)
        self.mine = mask_of(view.hand)
        self.known_discard = -1 if view.discard is None else int(view.discard)
        self.up_taken = view.up_card_taken
        self.up_fixed = up_fixed
        self.trump = -1 if view.trump is None else int(view.trump)
        self.bury_misfit = bury_misfit
        self.redraws = redraws
        self.tries = tries
        self._rs = np.zeros(1, np.uint64)
        _seed_hand(self._rs, np.uint64(seed), 0)
        self._cards = np.empty(max(len(self.pool), 1), np.int64)
        self._now = np.zeros(4, np.int64)
        self._dealt = np.zeros(4, np.int64)
        self._six = np.zeros(8, np.int64)
        self._S0 = np.zeros(_FIELDS, np.int64)
        self._acts = np.empty(40, np.int64)
        self._out_now = np.zeros((self.ROWS, 4), np.int64)
        self._out_chance = np.zeros(self.ROWS, np.float64)
        self.actions = np.array([-1 if a is None else int(a) for _, a in view.actions], np.int64)
        self._last = (-1, 0)  # the last kept deal's buried card and stock (its hands: _dealt)
        self.kept: State | None = None
        """The last deal :meth:`draw` kept (what :meth:`play_weight` reads)."""
        self._hidden = [i for i, (_, a) in enumerate(view.actions) if a is None]
        self._template: State | None = None
        """The first kept deal, replayed to the view (:func:`sample_state`), without its undo
        stack: every later one is a copy with the hidden cards put in (:meth:`_state`)."""
        self.fails = 0
        """Draws for which the voids shown broke every compiled deal tried (``tries``; the
        caller dealt them in Python)."""
        self.failed = False
        """Whether that happened :data:`FAILS` times: the position leaves almost no shuffle that
        fits, and :meth:`draw` is no longer asked (the caller deals in Python)."""

    def draw(self, misfit: float, floor: float, hands: list[tuple[int, ...]] | None = None,
             chances: list[float] | None = None) -> tuple[State, float] | None:
        """One kept deal, as an engine state standing where the view does, and its weight: each of
        the other seats' ``k`` bids the heuristic player would not have made on it makes it
        ``misfit`` times as likely, kept with chance ``max(misfit ** k, floor)`` and weighing
        ``misfit ** k`` over that (:meth:`SearchBot._draw_by_bids`). Every deal drawn, kept or not,
        goes to ``hands`` (the seats' cards at the view) and ``chances`` (its chance of being kept).
        ``None`` when the voids shown broke every deal tried (``tries`` shuffles, each under a
        microsecond: where one in 36 fits, a Python deal's 200 tries failed once in 300 draws and
        a hint of 9,600 deals met it): the caller deals that one in Python
        (:meth:`~euchre.view.PlayerView.resample`'s constrained fill)."""
        r = self.reader
        n = self.view.rules.players
        while True:
            weight, rows, buried, stock = _draw_play(
                r.rules_row, r.heuristic_row, r.dealer, r.seat, r.up, r.prefix, self.mine, self.known_discard,
                self.pool, self.need, self.voids, self.played, self.deck, self.up_taken, self.up_fixed,
                self.taken_up_in_pool, self.hidden_discard, self.trump, self.bury_misfit, self.redraws, self.tries,
                misfit, floor, self._rs, self._cards, self._now, self._dealt, self._six, self._S0, self._acts,
                self._out_now, self._out_chance)
            if hands is not None and chances is not None:
                hands.extend(tuple(row[:n]) for row in self._out_now[:rows].tolist())
                chances.extend(self._out_chance[:rows].tolist())
            if weight == -2.0:
                self.fails += 1
                self.failed = self.fails >= self.FAILS
                return None
            if weight >= 0:
                self._last = (buried, stock)
                self.kept = self._state(buried, stock)
                return self.kept, float(weight)

    def _state(self, buried: int, stock: int) -> State:
        """The deal just kept (its hands as dealt in ``_dealt``, now in ``_now``) as an engine
        state standing where the view does. Only the hidden cards differ from one deal to the next
        (the hands, the deal, the buried card); everything else at the view's position (the
        tricks, the bidding, whose turn it is) is the same in every deal, so a copy of the first
        deal's state takes them, where replaying the view's actions on each deal took half of a
        card hint's sampling. The copy has no undo stack (nothing pops a sample)."""
        n = self.view.rules.players
        if self._template is None:
            deal = np.array([*self._dealt.tolist(), stock, buried], np.int64)
            self._template = sample_state(self.view, deal).copy(stack=False)
        state = self._template.copy(stack=False)
        state.hands = self._now[:n].tolist()
        hands = tuple(tuple(CARDS[c] for c in iter_mask(h)) for h in self._dealt[:n].tolist())
        state.deal = Deal(state.dealer, hands, state.up_card, tuple(CARDS[c] for c in iter_mask(stock)))
        if state.discard is not None:
            state.discard = CARDS[buried]
        for i in self._hidden:  # (the dealer's discard the seat did not see: each deal's own)
            state.history[i] = DISCARD_ACTIONS[buried]
        return state

    def play_weight(self, misfit: float, partner: float | None = None) -> float:
        """How well the last deal :meth:`draw` kept explains the card play so far, as
        :meth:`SearchBot._play_weight` weighs it: ``misfit`` for every card of the other side the
        heuristic player would not have played with the deal's cards, ``partner`` for every such
        card of the seat's partner (when given; ``infer_partner``). Compiled: the Python test asked
        the heuristic player on an engine state for each card (a fifth of the expert's card play)."""
        buried, stock = self._last
        r = self.reader
        _deal_position(self._S0, r.rules_row, r.dealer, r.up, self._dealt, stock)
        other, mate = _play_surprises(self._S0, r.rules_row, r.heuristic_row, r.seat, self.actions, buried,
                                      partner is not None, self._acts)
        w = misfit ** other * (partner ** mate if partner is not None else 1.0)
        return max(w, 1e-9)


def sample_values(bot: SearchBot, view: PlayerView, candidates: Sequence[Action], count: int, seed: int, *,
                  first: int = 0, threads: int = 1) -> Samples:
    """Deal ``count`` samples for ``view`` (numbers ``first`` on, from ``seed``: see the module
    docstring) and value every candidate on each as ``bot._values`` does: for each sample the
    values dict (``(points, utility)`` per candidate, or a :class:`~euchre.bots.search._Later` for
    the seat's own later decision), the seats' hands at the view and the deals (:class:`Samples`).
    ``threads`` splits the samples among threads (each with its own solver); the result does
    not depend on it. The view must be :func:`covered`."""
    from euchre.bots.search import _Later

    if not covered(view):
        raise ValueError("the compiled bidding samples do not cover this view (fastbid.covered)")
    setup = _Setup(view, candidates, bot.own_bids, bot.bid_misfit if bot.infer_bids else 1.0, bot.playout,
                   bot.playout_loners)
    seed &= (1 << 64) - 1
    if threads > 1 and count >= 2 * threads:
        step = -(-count // threads)
        parts = [(a, min(step, first + count - a)) for a in range(first, first + count, step)]
        chunks = list(_executor(threads).map(lambda p: _run(setup, seed, p[0], p[1]), parts))
        now, deal, later, pts, nb, bcodes, suffix, nsuffix, lhand, surprise, weight = (
            np.concatenate(x) for x in zip(*chunks, strict=True))
    else:
        now, deal, later, pts, nb, bcodes, suffix, nsuffix, lhand, surprise, weight = _run(setup, seed, first, count)
    seat = setup.seat
    players = view.rules.players
    sides = view.rules.sides
    # Each side's points as one code (a byte a side: Rules bounds every point value to 0-100), and
    # each code's (points, utility) worked out once.
    codes = np.zeros(pts.shape[:3], dtype=np.int64)
    for x in range(sides):
        codes |= (pts[:, :, :, x].astype(np.int64) + 32) << (8 * x)
    probe = cast(State, SimpleNamespace(rules=view.rules))

    def points(code: int) -> tuple[int, ...]:
        return tuple((code >> (8 * x) & 255) - 32 for x in range(sides))

    table = {c: bot._score(probe, points(c), seat, view) for c in np.unique(codes).tolist()}
    acts = [ACTIONS[int(c)] for c in setup.cands]
    direct = codes[:, :, 0].tolist()
    later_l = later.tolist()
    rows: list[dict[Action, tuple[float, float] | _Later]] = []
    for i in range(count):
        values: dict[Action, tuple[float, float] | _Later] = {}
        for j, a in enumerate(acts):
            if later_l[i][j]:
                k = int(nb[i, j])
                choices = {ACTIONS[b]: table[c] for b, c in zip(bcodes[i, j, :k].tolist(), codes[i, j, :k].tolist(),
                                                                 strict=True)}
                hist = setup.seen + tuple(suffix[i, j, :nsuffix[i, j]].tolist())
                values[a] = _Later(hist, choices, int(lhand[i, j]))
            else:
                values[a] = table[direct[i][j]]
        rows.append(values)
    hands = [tuple(h) for h in now[:, :players].tolist()]
    return Samples(rows, hands, deal, surprise, weight)
