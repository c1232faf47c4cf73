"""The sister games, compiled: the batch engine's hand of Hasenpfeffer, Bid Euchre (single and
double deck) and Napoleon (three to seven players), RULES-FAMILY.md 14-16.

:mod:`euchre.batch` plays these rules through this module when ``rules.sister_game`` is set
(:func:`euchre.batch.simulate`, :class:`euchre.batch.VectorEnv`); nothing here is called for
Euchre, whose compiled row is unchanged. The hand is a second implementation of these games'
rules, in the units of :mod:`euchre.state` (the phases ``AUCTION``, ``NAME_TRUMP``, ``LEAD``,
``GIVE``, ``BEST_DISCARD`` and ``PLAY``), on one ``int64`` row per table of its own (the ``_G_*``
fields): seven seats, twelve tricks, an auction (the high bid, its seat, Hasenpfeffer's
forced bid), the moon's gift, no up card. ``tests/test_batch_sister.py`` replays every batch
hand through :class:`~euchre.state.State` and compares the legal actions before every action
(in order), the seat to act, the tricks and the points.

**Local card ids.** A hand is one ``int64`` mask, so every card of a game needs a bit below 63,
and the engine's ids run to 76 (Napoleon's 2s to 6s are 33-52, the double deck's second copies
53-76). No game holds both: the local id of a card is its engine id, but a second copy's is its
id less 20 (53-76 become 33-56). One set of tables serves every game because the trump index
tells the two readings of 33-56 apart: under Euchre's indexes 0-5 (Hasenpfeffer, Bid Euchre)
they are second copies, under Napoleon's 6-10 (a suit without bowers, misère) the low cards. A
renumbering keeps masks one word and the play code a table lookup, where two words would double
every mask operation of the hot path. The double deck holds a hand as the engine does
(``euchre.state.held``): a single copy of a card under the card's own id, a pair as both ids; a
pair is offered one play, the second copy's.

**Policies.** ``"random"`` as in Euchre. ``"heuristic"`` is :class:`~euchre.bots.heuristic.HeuristicBot`
decision for decision: in Hasenpfeffer and single-deck Bid Euchre its own auction, naming of
trump, moon gift and discard (on the compiled estimates of :mod:`euchre.batch`), and its trick
play, which is Euchre's: the six-card games hand the trick to :func:`euchre.batch._heuristic_play`
on a Euchre row filled from this one (:func:`_euchre_row`), so one port of the play serves both;
in the double deck :mod:`euchre.bots.double_deck`, in Napoleon :mod:`euchre.bots.napoleon`.

Everything else (the generators, the deal seeds, the dealer options, the arrays returned) is
:mod:`euchre.batch`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from euchre.actions import MOON, NAPOLEON_BIDS, NUM_ACTIONS, bid
from euchre.batch import (
    _EFF,
    _F_DEALER,
    _F_DISCARD,
    _F_FARMER,
    _F_GIFT,
    _F_GIFTS,
    _F_HANDS,
    _F_MAKER,
    _F_N,
    _F_OUT,
    _F_PLAYED,
    _F_TCARDS,
    _F_TO_ACT,
    _F_TRICK_N,
    _F_TRICKS,
    _F_TRUMP,
    _F_TSEATS,
    _F_UP_TAKEN,
    _F_VOIDS,
    _FIELDS,
    _H_AGGRESSION,
    _HFIELDS,
    _NONE,
    _POW,
    _R_DECK_MASK,
    _RFIELDS,
    _SCNT,
    _SORD,
    _below,
    _display,
    _estimate_no_trump,
    _estimate_tricks,
    _heuristic_play,
    _heuristic_row,
    _in,
    _lone_losers,
    _next_dealer,
    _popcount,
    _seed_hand,
    _shuffle,
    _uniform,
    _weakest,
)
from euchre.cards import (
    CARDS,
    EFFECTIVE,
    FOLLOW,
    JOKER,
    LOW_CARD,
    NUM_ALL_TRUMPS,
    PLAIN_NO_TRUMP,
    PLAIN_TRUMP,
    POWER,
    TWIN,
    TWIN_CARD,
    deck_cards,
    face,
    iter_mask,
    sort_hand,
)
from euchre.rules import Rules
from euchre.state import _NAP_NEEDS as _STATE_NAP_NEEDS
from euchre.state import _NAP_VALUES as _STATE_NAP_VALUES
from euchre.state import MISERE_LEVEL, Deal, Phase, State

if TYPE_CHECKING:
    from euchre.batch import BatchResult, VectorEnv

__all__ = ["max_actions", "simulate", "SisterTables"]

# --- the local card ids -------------------------------------------------------------------------------
_NL = 57
"""Local card ids: 0-32 the Euchre cards, 33-56 Napoleon's 2s-6s (33-52) or the double deck's
second copies (engine ids 53-76)."""
_SHIFT = TWIN_CARD - LOW_CARD
"""A second copy's engine id less its local id (20)."""
_COPIES = ((1 << _NL) - 1) & ~((1 << LOW_CARD) - 1)
"""The local bits 33-56 (the double deck: the second copies)."""


def _engine_id(local: int, trump: int) -> int:
    """The engine's card of a local id under a trump index (-1: no card)."""
    if local < LOW_CARD:
        return local
    if trump < PLAIN_TRUMP:
        return local + _SHIFT
    return local if local < TWIN_CARD else -1


def _to_local(card: int) -> int:
    return card - _SHIFT if card >= TWIN_CARD else card


_SEFF = np.full((NUM_ALL_TRUMPS, _NL), 5, dtype=np.int64)
"""_SEFF[trump][local]: the suit the card follows (euchre.cards.EFFECTIVE)."""
_SPOW = np.full((NUM_ALL_TRUMPS, _NL), -1, dtype=np.int64)
"""_SPOW[trump][local]: its power (euchre.cards.POWER)."""
_SFOL = np.zeros((NUM_ALL_TRUMPS, NUM_ALL_TRUMPS), dtype=np.int64)
"""_SFOL[trump][suit]: the local cards that follow the suit (euchre.cards.FOLLOW)."""
for _t in range(NUM_ALL_TRUMPS):
    for _l in range(_NL):
        _g = _engine_id(_l, _t)
        if _g >= 0:
            _SEFF[_t, _l] = EFFECTIVE[_t][_g]
            _SPOW[_t, _l] = POWER[_t][_g]
    for _s in range(NUM_ALL_TRUMPS):
        _m = 0
        for _c in iter_mask(FOLLOW[_t][_s]):
            if _t < PLAIN_TRUMP and LOW_CARD <= _c < TWIN_CARD:  # (never: the 2s-6s follow only in Napoleon)
                raise AssertionError("a low card follows under a Euchre trump")
            _m |= 1 << _to_local(_c)
        _SFOL[_t, _s] = _m
_STAKES = np.full((NUM_ALL_TRUMPS, NUM_ALL_TRUMPS, _NL), -1, dtype=np.int64)
"""_STAKES[trump][led][local]: the card's power in a trick led in that suit, -1 if it cannot win."""
for _t in range(NUM_ALL_TRUMPS):
    for _s in range(NUM_ALL_TRUMPS):
        for _l in range(_NL):
            if _engine_id(_l, _t) >= 0 and _SEFF[_t, _l] in (_t, _s):
                _STAKES[_t, _s, _l] = _SPOW[_t, _l]
_LOWBIT = np.zeros(67, dtype=np.int64)
for _k in range(_NL):
    _LOWBIT[(1 << _k) % 67] = _k
"""The index of a one-bit mask below 2**57: ``_LOWBIT[bit % 67]`` (2 is a primitive root mod 67)."""
_FACE = np.arange(_NL, dtype=np.int64)
"""_FACE[local]: the double deck's card itself (a second copy's first; else the card)."""
_TWIN = np.full(LOW_CARD, -1, dtype=np.int64)
"""_TWIN[card]: the local id of the double deck's second copy of a card of the 24-card pack."""
for _f, _g in TWIN.items():
    _FACE[_to_local(_g)] = _f
    _TWIN[_f] = _to_local(_g)
_RANK = np.array([CARDS[int(_FACE[_l])].rank for _l in range(_NL)], dtype=np.int64)
"""_RANK[local]: the double deck's rank index of a card or copy (Card.rank)."""
_DOUBLE_DISPLAY = np.array([_to_local(c) for c in sort_hand([*deck_cards(24), *TWIN.values()], None)],
                           dtype=np.int64)
"""The double deck's 48 local ids in the order a hand is shown before trump (sort_hand: a card
before its copy), the order in which the double deck's heuristic adds its estimates."""
_NAP_ORDER = np.array([sorted((c for c in range(TWIN_CARD) if c != JOKER and EFFECTIVE[PLAIN_NO_TRUMP][c] == s),
                              key=lambda c, s=s: -POWER[PLAIN_TRUMP + s][c]) for s in range(4)],  # type: ignore[misc]
                      dtype=np.int64)
"""_NAP_ORDER[suit]: the thirteen cards of a suit of the full pack, highest first (Napoleon)."""
_NAP_SUIT = np.array([_SFOL[PLAIN_NO_TRUMP, s] for s in range(4)], dtype=np.int64)
"""_NAP_SUIT[suit]: the cards of a printed suit (Napoleon's full pack)."""
_NAP_BELOW = np.zeros(TWIN_CARD, dtype=np.int64)
"""_NAP_BELOW[card]: the cards of its suit below it in the full pack (Napoleon's misère)."""
for _s in range(4):
    for _i, _c in enumerate(_NAP_ORDER[_s]):
        for _o in _NAP_ORDER[_s, _i + 1:]:
            _NAP_BELOW[_c] |= 1 << int(_o)

# --- the phases, games and action codes -------------------------------------------------------------------
_PLAY, _OVER, _GIVE, _BEST_DISCARD = int(Phase.PLAY), int(Phase.OVER), int(Phase.GIVE), int(Phase.BEST_DISCARD)
_AUCTION, _NAME_TRUMP, _LEAD = int(Phase.AUCTION), int(Phase.NAME_TRUMP), int(Phase.LEAD)
_JOKER = int(JOKER)
_HASENPFEFFER, _BID_EUCHRE, _DOUBLE, _NAPOLEON = range(4)
"""The games (``_Q_GAME``)."""
_A_PASS, _A_CALL, _A_DISCARD, _A_PLAY, _A_HIGH, _A_LOW, _A_GIVE = 0, 5, 13, 46, 79, 81, 83
_A_BID0 = int(bid(1)) - 1
"""``bid k`` is ``_A_BID0 + k``."""
_A_MOON = int(MOON)
_A_LOW_PLAY = 136
"""``play`` of engine card 33 (Napoleon's 2c); the later cards follow: ``_A_LOW_PLAY - 33 + card``."""
_NAP_CODES = np.array([-1, *(int(a) for a in NAPOLEON_BIDS)], dtype=np.int64)
"""_NAP_CODES[level]: Napoleon's bid of each level (1 = 2 ... 7 = Blücher)."""
_NAP_NEEDS = np.array(_STATE_NAP_NEEDS, dtype=np.int64)
_NAP_VALUES = np.array(_STATE_NAP_VALUES, dtype=np.int64)
"""The tricks each level must take (misère: none at all) and its value v: the engine's tables."""
_CODE_CARD = np.full(NUM_ACTIONS, -1, dtype=np.int64)
"""_CODE_CARD[action]: the local card of a ``play``, ``discard`` or ``give``; -1 for the others."""
for _code in range(NUM_ACTIONS):
    if _A_DISCARD <= _code < _A_PLAY:
        _CODE_CARD[_code] = _code - _A_DISCARD
    elif _A_PLAY <= _code < _A_HIGH:
        _CODE_CARD[_code] = _code - _A_PLAY
    elif _A_GIVE <= _code < _A_GIVE + 33:
        _CODE_CARD[_code] = _code - _A_GIVE
    elif _code >= _A_LOW_PLAY:
        _CODE_CARD[_code] = _to_local(_code - _A_LOW_PLAY + LOW_CARD)

# --- one hand as a row of int64 ---------------------------------------------------------------------------
(_G_PHASE, _G_TO_ACT, _G_DEALER, _G_N, _G_TRUMP, _G_MAKER, _G_ALONE, _G_OUT, _G_LEADER, _G_TRICK_N,
 _G_TRICK_SIZE, _G_TRICKS, _G_BID, _G_BIDDER, _G_FORCED, _G_NACT, _G_PLAYED, _G_STOCK, _G_GIFTS, _G_GIVER,
 _G_RECEIVER, _G_GCARD, _G_GFORCED, _G_GDISCARD) = range(24)
"""The scalars: ``_G_BID`` / ``_G_BIDDER`` / ``_G_FORCED`` are ``State.auction``; ``_G_PLAYED``
the local cards played (one bit for both copies of a card); the moon's one gift is giver,
receiver, card, forced, discard (-1 until made)."""
_SEATS = 7
_G_HANDS = 24
"""Seven hand masks (local ids)."""
_G_DEAL = _G_HANDS + _SEATS
_G_WON = _G_DEAL + _SEATS
_G_POINTS = _G_WON + _SEATS
_G_VOIDS = _G_POINTS + _SEATS
"""Per seat, the mask of the (effective) suits it showed it is out of."""
_G_TCARDS = _G_VOIDS + _SEATS
_G_TSEATS = _G_TCARDS + _SEATS
_GFIELDS = _G_TSEATS + _SEATS

# --- the rules as a row of int64 ---------------------------------------------------------------------------
(_Q_N, _Q_GAME, _Q_HAND, _Q_LOW, _Q_TOP, _Q_DEFENDERS, _Q_HALF, _Q_MOON, _Q_DECK_MASK, _Q_DECK, _Q_SIDES,
 _Q_SHIFT) = range(12)
"""``_Q_DECK``: the Euchre deck index of :mod:`euchre.batch`'s tables (Hasenpfeffer, Bid Euchre);
``_Q_SHIFT``: 20 for the double deck (a local copy's engine id less its id), else 0."""
_QFIELDS = 12

# --- the heuristics' constants (appended to euchre.batch's row, read from the bots at each call) ------------
_H_PARTNER_SHARE = _HFIELDS
_H_NAP_NEEDS = _HFIELDS + 1
"""Seven: napoleon._LEVEL_NEEDS (misère's slot unused)."""
_SHFIELDS = _HFIELDS + 8


def max_actions(rules: Rules) -> int:
    """The most actions a hand of a sister game can take (the width of its
    :attr:`~euchre.batch.BatchResult.actions`): a bid each, the naming of trump, the moon's gift
    and discard, every card.

    >>> max_actions(Rules.preset("bid-euchre-double")), max_actions(Rules.preset("napoleon", players=7))
    (55, 42)
    """
    naming = 0 if rules.napoleon else 1
    moon = 2 if rules.bid_euchre else 0
    return rules.players + naming + moon + rules.hand_size * rules.players


def _game(rules: Rules) -> int:
    if rules.napoleon:
        return _NAPOLEON
    if rules.double_deck:
        return _DOUBLE
    return _BID_EUCHRE if rules.bid_euchre else _HASENPFEFFER


def _deck(rules: Rules) -> np.ndarray:
    """The local ids of the game's pack, in engine id order (the double deck: 24 cards, then their copies)."""
    cards = [int(c) for c in deck_cards(rules.deck)]
    if rules.double_deck:
        cards += [_to_local(TWIN[c]) for c in cards]
    return np.array(cards, dtype=np.int64)


def _rules_row(rules: Rules) -> np.ndarray:
    """The hand-level fields of a sister game's rules. Every field the sister presets let a table
    change is one of them (players and ``nap_half_loss`` in Napoleon, ``defenders_score_tricks``
    in Hasenpfeffer, ``double_deck``); the others are fixed by :class:`Rules` for these games, and
    the endings do not change a hand."""
    game = rules.sister_game
    if game is None:  # pragma: no cover - euchre.batch dispatches only the sister games here
        raise ValueError("euchre.batch_sister plays the sister games only")
    r = np.zeros(_QFIELDS, dtype=np.int64)
    r[_Q_N] = rules.players
    r[_Q_GAME] = _game(rules)
    r[_Q_HAND] = rules.hand_size
    r[_Q_LOW], r[_Q_TOP] = rules.bid_range
    r[_Q_DEFENDERS] = rules.defenders_score_tricks
    r[_Q_HALF] = rules.nap_half_loss
    r[_Q_MOON] = rules.moon_points
    m = 0
    for c in _deck(rules):
        m |= 1 << int(c)
    r[_Q_DECK_MASK] = m
    r[_Q_DECK] = (20, 24, 25, 32).index(rules.deck) if not (rules.napoleon or rules.double_deck) else -1
    r[_Q_SIDES] = rules.sides
    r[_Q_SHIFT] = _SHIFT if rules.double_deck else 0
    return r


def _heuristic_constants(aggression: float = 0.0, lone_with_loser: bool = False) -> np.ndarray:
    """:func:`euchre.batch._heuristic_row` (four players: the six-card games' HeuristicBot) and the
    named constants of the double deck's and Napoleon's players."""
    from euchre.bots import double_deck, napoleon

    h = np.zeros(_SHFIELDS, dtype=np.float64)
    h[:_HFIELDS] = _heuristic_row(4, aggression, lone_with_loser)
    h[_H_PARTNER_SHARE] = double_deck.PARTNER_SHARE
    needs = napoleon._LEVEL_NEEDS
    if len(needs) != 7:
        raise NotImplementedError("euchre.batch ports a Napoleon heuristic of seven bid levels")
    for i, need in enumerate(needs):
        h[_H_NAP_NEEDS + i] = -1.0 if need is None else need
    return h


# --- small helpers ----------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _bit(mask: int) -> int:
    """The index of the lowest bit of a non-zero mask."""
    return _LOWBIT[(mask & -mask) % 67]


@njit(cache=True, nogil=True)
def _partner(Q: np.ndarray, seat: int) -> int:
    return -1 if Q[_Q_GAME] == _NAPOLEON else (seat + 2) % 4


@njit(cache=True, nogil=True)
def _side(Q: np.ndarray, seat: int) -> int:
    return seat if Q[_Q_GAME] == _NAPOLEON else seat % 2


@njit(cache=True, nogil=True)
def _play_code(Q: np.ndarray, c: int) -> int:
    g = c + Q[_Q_SHIFT] if c >= 33 else c
    return _A_PLAY + g if g < 33 else _A_LOW_PLAY - 33 + g


@njit(cache=True, nogil=True)
def _call_code(t: int) -> int:
    if t < 4:
        return _A_CALL + t
    return _A_HIGH if t == 4 else _A_LOW


# --- the rules of a hand: setup -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _setup(S: np.ndarray) -> None:
    """The fields after the deal (hands, stock, dealer, players set): as ``State._setup``."""
    S[_G_TRUMP] = -1
    S[_G_MAKER] = -1
    S[_G_LEADER] = -1
    S[_G_BIDDER] = -1
    S[_G_GIVER] = -1
    S[_G_RECEIVER] = -1
    S[_G_GCARD] = -1
    S[_G_GDISCARD] = -1
    S[_G_PHASE] = _AUCTION
    S[_G_TO_ACT] = (S[_G_DEALER] + 1) % S[_G_N]


@njit(cache=True, nogil=True)
def _deal(S: np.ndarray, Q: np.ndarray, rs: np.ndarray, dealer: int, pack: np.ndarray, deck: np.ndarray) -> None:
    """Shuffle ``deck`` into ``pack`` and set ``S`` to the fresh hand, dealt as ``State.random``
    deals: Napoleon three to each seat from the dealer's left then two, the others in threes."""
    m = deck.shape[0]
    _shuffle(deck, pack, rs)
    for i in range(S.shape[0]):
        S[i] = 0
    n = Q[_Q_N]
    game = Q[_Q_GAME]
    S[_G_N] = n
    S[_G_DEALER] = dealer
    for i in range(n):
        seat = (dealer + 1 + i) % n
        h = 0
        if game == _NAPOLEON:
            for j in range(3 * i, 3 * i + 3):
                h |= 1 << pack[j]
            for j in range(3 * n + 2 * i, 3 * n + 2 * i + 2):
                h |= 1 << pack[j]
        elif game == _DOUBLE:  # twelve in threes; a second copy held with the first takes the copy's id
            for r in range(4):
                for j in range((r * n + i) * 3, (r * n + i) * 3 + 3):
                    f = _FACE[pack[j]]
                    h |= 1 << (_TWIN[f] if h >> f & 1 else f)
        else:
            for j in range(3 * i, 3 * i + 3):
                h |= 1 << pack[j]
            for j in range(12 + 3 * i, 15 + 3 * i):
                h |= 1 << pack[j]
        S[_G_HANDS + seat] = h
        S[_G_DEAL + seat] = h
    stock = 0
    for j in range(Q[_Q_HAND] * n, m):
        stock |= 1 << pack[j]
    S[_G_STOCK] = stock
    _setup(S)


# --- the rules of a hand: legal actions ------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _plays(Q: np.ndarray, hand: int, out: np.ndarray, offset: int) -> int:
    """The plays (``offset`` < 0), or the discards or gifts (``offset``: their code of card 0), of
    the cards of ``hand``, lowest id first; a pair of the double deck's copies is one choice (a
    play: the second copy's, a discard or gift: the card's own)."""
    if Q[_Q_SHIFT]:
        copies = hand & _COPIES
        while copies:
            low = copies & -copies
            hand &= ~(1 << _FACE[_LOWBIT[low % 67]]) if offset < 0 else ~low
            copies ^= low
    k = 0
    while hand:
        low = hand & -hand
        c = _LOWBIT[low % 67]
        out[k] = _play_code(Q, c) if offset < 0 else offset + c
        k += 1
        hand ^= low
    return k


@njit(cache=True, nogil=True)
def _legal(S: np.ndarray, Q: np.ndarray, out: np.ndarray) -> int:
    """The legal actions into ``out`` in the engine's order (``State.legal_actions``); returns
    their number."""
    ph = S[_G_PHASE]
    seat = S[_G_TO_ACT]
    if ph == _PLAY or ph == _LEAD:
        hand = S[_G_HANDS + seat]
        if ph == _PLAY and S[_G_TRICK_N]:
            t = S[_G_TRUMP]
            f = hand & _SFOL[t, _SEFF[t, S[_G_TCARDS]]]
            if f:
                hand = f
        return _plays(Q, hand, out, -1)
    if ph == _AUCTION:
        high = S[_G_BID]
        game = Q[_Q_GAME]
        out[0] = _A_PASS
        k = 1
        if game == _NAPOLEON:  # Wellington only over Nap, Blücher only over Wellington
            for level in range(1, 8):
                if level > high and (level < 6 or level == high + 1):
                    out[k] = _NAP_CODES[level]
                    k += 1
            return k
        if game != _HASENPFEFFER and seat == S[_G_DEALER] and S[_G_BIDDER] < 0:
            k = 0  # Bid Euchre's stuck dealer
        for b in range(max(high, Q[_Q_LOW] - 1) + 1, Q[_Q_TOP] + 1):
            out[k] = _A_BID0 + b
            k += 1
        if game != _HASENPFEFFER and high <= Q[_Q_TOP]:
            out[k] = _A_MOON
            k += 1
        return k
    if ph == _NAME_TRUMP:
        for x in range(4):
            out[x] = _A_CALL + x
        if Q[_Q_GAME] == _HASENPFEFFER:
            return 4
        out[4] = _A_HIGH
        out[5] = _A_LOW
        return 6
    if ph == _GIVE:
        return _plays(Q, S[_G_HANDS + seat], out, _A_GIVE)
    if ph == _BEST_DISCARD:
        return _plays(Q, S[_G_HANDS + seat], out, _A_DISCARD)
    return 0


# --- the rules of a hand: applying an action ---------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _start_play(S: np.ndarray) -> None:
    """The high bidder leads (RULES-FAMILY.md 14-16)."""
    S[_G_PHASE] = _PLAY
    S[_G_LEADER] = S[_G_MAKER]
    S[_G_TO_ACT] = S[_G_MAKER]
    S[_G_TRICK_SIZE] = S[_G_N] - _popcount(S[_G_OUT])


@njit(cache=True, nogil=True)
def _give(S: np.ndarray, giver: int, receiver: int, card: int, forced: bool) -> None:
    """The moon's gift of ``card`` (the card itself: a copy from the giver's pair first, joining a pair)."""
    twin = _TWIN[card]
    held = twin if S[_G_HANDS + giver] >> twin & 1 else card
    S[_G_HANDS + giver] &= ~(1 << held)
    S[_G_HANDS + receiver] |= 1 << (twin if S[_G_HANDS + receiver] >> card & 1 else card)
    S[_G_GIFTS] = 1
    S[_G_GIVER] = giver
    S[_G_RECEIVER] = receiver
    S[_G_GCARD] = card
    S[_G_GFORCED] = 1 if forced else 0
    S[_G_GDISCARD] = -1
    S[_G_PHASE] = _BEST_DISCARD
    S[_G_TO_ACT] = receiver


@njit(cache=True, nogil=True)
def _call_for_best(S: np.ndarray, receiver: int) -> None:
    """The moon (RULES-FAMILY.md 15, 12.2): the partner's highest trump is given by the engine,
    else the partner chooses (holding no trump, or in high or low)."""
    giver = (receiver + 2) % 4
    t = S[_G_TRUMP]
    trumps = S[_G_HANDS + giver] & _SFOL[t, t] if t < 4 else 0
    if trumps:
        best = -1
        card = -1
        while trumps:
            low = trumps & -trumps
            c = _LOWBIT[low % 67]
            if _SPOW[t, c] > best:
                best = _SPOW[t, c]
                card = c
            trumps ^= low
        _give(S, giver, receiver, _FACE[card], True)
    else:
        S[_G_PHASE] = _GIVE
        S[_G_TO_ACT] = giver


@njit(cache=True, nogil=True)
def _score(S: np.ndarray, Q: np.ndarray) -> None:
    """``State.score_for``: each game's table of RULES-FAMILY.md 14-16."""
    S[_G_PHASE] = _OVER
    S[_G_TO_ACT] = -1
    maker = S[_G_MAKER]
    game = Q[_Q_GAME]
    n = S[_G_N]
    taken = S[_G_WON + maker]
    if game == _NAPOLEON:
        level = S[_G_BID]
        made = taken == 0 if level == MISERE_LEVEL else taken >= _NAP_NEEDS[level]
        v = _NAP_VALUES[level]
        if not made and Q[_Q_HALF] and level == 5:
            v = 5
        won = v if made else -v
        for p in range(n):
            S[_G_POINTS + p] = won * (n - 1) if p == maker else -won
        return
    taken += S[_G_WON + (maker + 2) % 4]
    side = maker % 2
    size = Q[_Q_HAND]
    if game == _HASENPFEFFER:
        S[_G_POINTS + side] = taken if taken >= S[_G_BID] else -S[_G_BID]
        if Q[_Q_DEFENDERS]:
            S[_G_POINTS + 1 - side] = size - taken
        return
    moon = S[_G_BID] > size
    if moon:
        made = taken == size
        S[_G_POINTS + side] = Q[_Q_MOON] if made else -Q[_Q_MOON]
    else:
        made = taken >= S[_G_BID]
        S[_G_POINTS + side] = taken if made else -S[_G_BID]
    if not (moon and made):
        S[_G_POINTS + 1 - side] = size - taken


@njit(cache=True, nogil=True)
def _apply(S: np.ndarray, Q: np.ndarray, a: int) -> None:
    """Apply a legal action of the seat to act (``State._push``, unchecked)."""
    ph = S[_G_PHASE]
    seat = S[_G_TO_ACT]
    n = S[_G_N]
    S[_G_NACT] += 1
    if ph == _PLAY:
        c = _CODE_CARD[a]
        S[_G_HANDS + seat] &= ~(1 << c)
        S[_G_PLAYED] |= 1 << c
        tn = S[_G_TRICK_N]
        t = S[_G_TRUMP]
        S[_G_TCARDS + tn] = c
        S[_G_TSEATS + tn] = seat
        if tn:
            led = _SEFF[t, S[_G_TCARDS]]
            if _SEFF[t, c] != led:
                S[_G_VOIDS + seat] |= 1 << led
        tn += 1
        if tn == S[_G_TRICK_SIZE]:
            led = _SEFF[t, S[_G_TCARDS]]
            best = -1
            w = seat
            for j in range(tn):  # the first of two equal copies keeps the trick
                v = _STAKES[t, led, S[_G_TCARDS + j]]
                if v > best:
                    best = v
                    w = S[_G_TSEATS + j]
            S[_G_WON + w] += 1
            S[_G_TRICK_N] = 0
            S[_G_TRICKS] += 1
            if S[_G_TRICKS] == Q[_Q_HAND]:
                _score(S, Q)
            else:
                S[_G_LEADER] = w
                S[_G_TO_ACT] = w
        else:
            S[_G_TRICK_N] = tn
            nxt = (seat + 1) % n
            while S[_G_OUT] >> nxt & 1:
                nxt = (nxt + 1) % n
            S[_G_TO_ACT] = nxt
        return
    if ph == _AUCTION:
        game = Q[_Q_GAME]
        if a != _A_PASS:
            if game == _NAPOLEON:
                level = 1
                while _NAP_CODES[level] != a:
                    level += 1
                S[_G_BID] = level
            else:
                S[_G_BID] = Q[_Q_HAND] + 1 if a == _A_MOON else a - _A_BID0
            S[_G_BIDDER] = seat
        if seat != S[_G_DEALER]:
            S[_G_TO_ACT] = (seat + 1) % n
            return
        bidder = S[_G_BIDDER]
        if bidder < 0 and game == _HASENPFEFFER:  # all passed: the Joker's holder bids 3, else a throw-in
            for p in range(n):
                if S[_G_HANDS + p] >> _JOKER & 1:
                    bidder = p
            if bidder >= 0:
                S[_G_BID] = 3
                S[_G_BIDDER] = bidder
                S[_G_FORCED] = 1
        if bidder < 0:  # thrown in (no points)
            S[_G_PHASE] = _OVER
            S[_G_TO_ACT] = -1
            return
        if game != _NAPOLEON:
            S[_G_PHASE] = _NAME_TRUMP
            S[_G_TO_ACT] = bidder
            return
        S[_G_MAKER] = bidder  # Napoleon: the bidder leads; its first card fixes trump (misère: none)
        if S[_G_BID] == MISERE_LEVEL:
            S[_G_TRUMP] = PLAIN_NO_TRUMP
            _start_play(S)
        else:
            S[_G_PHASE] = _LEAD
            S[_G_LEADER] = bidder
            S[_G_TO_ACT] = bidder
            S[_G_TRICK_SIZE] = n
        return
    if ph == _LEAD:
        c = _CODE_CARD[a]
        S[_G_TRUMP] = PLAIN_TRUMP + _SEFF[PLAIN_NO_TRUMP, c]
        S[_G_HANDS + seat] &= ~(1 << c)
        S[_G_PLAYED] |= 1 << c
        S[_G_TCARDS] = c
        S[_G_TSEATS] = seat
        S[_G_TRICK_N] = 1
        S[_G_PHASE] = _PLAY
        S[_G_TO_ACT] = (seat + 1) % n
        return
    if ph == _NAME_TRUMP:
        S[_G_MAKER] = seat
        S[_G_TRUMP] = a - _A_CALL if a < _A_DISCARD else (4 if a == _A_HIGH else 5)
        if S[_G_BID] > Q[_Q_HAND]:  # the moon: the shooter alone, after the partner's card
            S[_G_ALONE] = 1
            S[_G_OUT] |= 1 << ((seat + 2) % 4)
            _call_for_best(S, seat)
        else:
            _start_play(S)
        return
    if ph == _GIVE:
        _give(S, seat, (seat + 2) % 4, _CODE_CARD[a], False)
        return
    if ph == _BEST_DISCARD:
        c = _CODE_CARD[a]
        twin = _TWIN[c]
        S[_G_HANDS + seat] &= ~(1 << (twin if S[_G_HANDS + seat] >> twin & 1 else c))
        S[_G_GDISCARD] = c
        _start_play(S)
        return


# --- the heuristics ----------------------------------------------------------------------------------------------
# Hasenpfeffer and Bid Euchre: HeuristicBot's own paths. Cards are engine ids below 33 there (the
# local ids), so euchre.batch's compiled estimates and tables serve; a view's hand is in display
# order (euchre.batch._display), the order the bot adds its estimates in.
@njit(cache=True, nogil=True)
def _best_suit(H: np.ndarray, cards: np.ndarray, nc: int, di: int) -> tuple[int, float]:
    """``HeuristicBot._best_suit``: the best estimate, then the most trumps, then the lowest suit."""
    best = -1
    best_est = 0.0
    best_count = 0
    for s in range(4):
        est = _estimate_tricks(H, cards, nc, s, di, 0)
        count = 0
        for i in range(nc):
            if _EFF[s, cards[i]] == s:
                count += 1
        if best < 0 or est > best_est or (est == best_est and count > best_count):
            best = s
            best_est = est
            best_count = count
    return best, best_est


@njit(cache=True, nogil=True)
def _best_trumps(H: np.ndarray, cards: np.ndarray, nc: int, di: int) -> tuple[int, float, int, float]:
    """``HeuristicBot._best_trump`` with and without ``alone``, from one pass over the six trumps
    (a suit, high, low): the trump and estimate by tricks, then by the losers of a lone hand;
    the highest value, the lowest trump index on a tie."""
    best = -1
    best_tricks = 0.0
    lone = -1
    lone_value = 0.0
    for t in range(6):
        if t >= 4:
            tricks, losers = _estimate_no_trump(cards, nc, t, di, 0, H)
        else:
            tricks = _estimate_tricks(H, cards, nc, t, di, 0)
            losers = _lone_losers(cards, nc, t, di, 0)
        if best < 0 or tricks > best_tricks:
            best = t
            best_tricks = tricks
        if lone < 0 or nc - losers > lone_value:
            lone = t
            lone_value = nc - losers
    return best, best_tricks, lone, lone_value


@njit(cache=True, nogil=True)
def _six_auction(S: np.ndarray, Q: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``HeuristicBot._auction``."""
    seat = S[_G_TO_ACT]
    hand = np.empty(8, np.int64)
    nh = _display(S[_G_HANDS + seat], _NONE, hand)
    di = Q[_Q_DECK]
    aggression = H[_H_AGGRESSION]
    if Q[_Q_GAME] == _BID_EUCHRE:
        _, est, _, alone = _best_trumps(H, hand, nh, di)
        if _in(acts, na, _A_MOON) and alone >= nh - 0.5 - aggression:
            return _A_MOON
    else:
        _, est = _best_suit(H, hand, nh, di)
    high = S[_G_BID]
    tricks = min(Q[_Q_TOP], int(est + 1.0 + aggression))
    if S[_G_BIDDER] >= 0 and S[_G_BIDDER] == (seat + 2) % 4:
        wanted = _A_BID0 + tricks if tricks >= high + 2 else _A_PASS
    else:
        wanted = _A_BID0 + tricks if tricks > high and tricks >= max(Q[_Q_LOW], 2) else _A_PASS
    if not _in(acts, na, wanted):
        wanted = _A_PASS if _in(acts, na, _A_PASS) else acts[0]
    return wanted


@njit(cache=True, nogil=True)
def _euchre_row(S: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A Euchre row (and rules row) holding what :func:`euchre.batch._heuristic_play` reads of a
    six-card hand in play: its trick play is HeuristicBot's Euchre play (the seat to act, trump,
    the maker, who sits out, the trick, the hands, the voids, the cards played and the moon's
    gift as the seat knows it; no up card, no dealer's discard)."""
    E = np.zeros(_FIELDS, np.int64)
    E[_F_N] = 4
    E[_F_TRUMP] = S[_G_TRUMP]
    E[_F_TO_ACT] = S[_G_TO_ACT]
    E[_F_OUT] = S[_G_OUT]
    E[_F_MAKER] = S[_G_MAKER]
    E[_F_TRICK_N] = S[_G_TRICK_N]
    E[_F_TRICKS] = S[_G_TRICKS]
    E[_F_PLAYED] = S[_G_PLAYED]
    E[_F_DEALER] = S[_G_DEALER]
    E[_F_DISCARD] = -1
    E[_F_FARMER] = -1
    E[_F_UP_TAKEN] = 1  # (no up card to count as seen)
    for s in range(4):
        E[_F_HANDS + s] = S[_G_HANDS + s]
        E[_F_VOIDS + s] = S[_G_VOIDS + s]
        E[_F_TCARDS + s] = S[_G_TCARDS + s]
        E[_F_TSEATS + s] = S[_G_TSEATS + s]
    if S[_G_GIFTS]:
        E[_F_GIFTS] = 1
        E[_F_GIFT] = S[_G_GIVER]
        E[_F_GIFT + 1] = S[_G_RECEIVER]
        E[_F_GIFT + 2] = S[_G_GCARD]
        E[_F_GIFT + 3] = S[_G_GFORCED]
        E[_F_GIFT + 4] = S[_G_GDISCARD]
    R = np.zeros(_RFIELDS, np.int64)
    R[_R_DECK_MASK] = Q[_Q_DECK_MASK]
    return E, R


@njit(cache=True, nogil=True)
def _six_choice(S: np.ndarray, Q: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``HeuristicBot.choose`` in Hasenpfeffer and single-deck Bid Euchre."""
    ph = S[_G_PHASE]
    cards = np.empty(8, np.int64)
    if ph == _PLAY:
        for i in range(na):
            cards[i] = acts[i] - _A_PLAY
        E, R = _euchre_row(S, Q)
        return _A_PLAY + _heuristic_play(E, R, cards, na)
    if ph == _AUCTION:
        return _six_auction(S, Q, H, acts, na)
    if ph == _NAME_TRUMP:
        hand = np.empty(8, np.int64)
        nh = _display(S[_G_HANDS + S[_G_TO_ACT]], _NONE, hand)
        if Q[_Q_GAME] == _BID_EUCHRE:
            best, _, lone, _ = _best_trumps(H, hand, nh, Q[_Q_DECK])
            t = lone if S[_G_BID] > Q[_Q_HAND] else best
        else:
            t, _ = _best_suit(H, hand, nh, Q[_Q_DECK])
        return _call_code(t)
    t = S[_G_TRUMP]
    if ph == _GIVE:  # the highest trump, else the highest card
        trumps = False
        for i in range(na):
            if _EFF[t, acts[i] - _A_GIVE] == t:
                trumps = True
        best = -1
        choice = acts[0]
        for i in range(na):
            c = acts[i] - _A_GIVE
            if (not trumps or _EFF[t, c] == t) and _POW[t, c] > best:
                best = _POW[t, c]
                choice = acts[i]
        return choice
    if ph == _BEST_DISCARD:
        for i in range(na):
            cards[i] = acts[i] - _A_DISCARD
        return _A_DISCARD + cards[_weakest(cards, na, t)]
    return acts[0]


# The double deck: euchre.bots.double_deck.
@njit(cache=True, nogil=True)
def _double_estimate(hand: int, t: int) -> float:
    """``double_deck.estimate``: each trump held worth more the fewer of its betters are out, a
    side ace (high or low: the top two ranks) part of a trick, added in the hand's display order."""
    total = 0.0
    if t < 4:
        above = 0
        for j in range(_SCNT[1, t, t]):  # the 24-card pack's trumps, highest first
            c = _SORD[1, t, t, j]
            held = (hand >> c & 1) + (hand >> _TWIN[c] & 1)
            for _ in range(held):
                total += max(1.0 - 0.2 * above, 0.2)
            above += 2 - held
    top = 2 if t == 5 else 7
    second = 3 if t == 5 else 6
    for i in range(_DOUBLE_DISPLAY.shape[0]):
        c = _DOUBLE_DISPLAY[i]
        if not hand >> c & 1:
            continue
        if t < 4 and _SEFF[t, c] == t:
            continue
        r = _RANK[c]
        if r == top:
            total += 0.5 if t < 4 else 0.8
        elif t >= 4 and r == second:
            total += 0.4
    return total


@njit(cache=True, nogil=True)
def _double_best(hand: int) -> tuple[int, float]:
    """``double_deck._best``: the highest estimate, the lowest trump index on a tie."""
    best = -1
    best_est = 0.0
    for t in range(6):
        est = _double_estimate(hand, t)
        if best < 0 or est > best_est:
            best = t
            best_est = est
    return best, best_est


@njit(cache=True, nogil=True)
def _strength(t: int, c: int) -> int:
    return _SPOW[t, c] + (1000 if _SEFF[t, c] == t else 0)


@njit(cache=True, nogil=True)
def _double_choice(S: np.ndarray, Q: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``double_deck.double_deck_choice``."""
    ph = S[_G_PHASE]
    seat = S[_G_TO_ACT]
    hand = S[_G_HANDS + seat]
    t = S[_G_TRUMP]
    if ph == _AUCTION:
        _, mine = _double_best(hand)
        size = Q[_Q_HAND]
        if _in(acts, na, _A_MOON) and mine >= size - 0.3:
            return _A_MOON
        tricks = min(size, int(mine + H[_H_PARTNER_SHARE] * (size - mine)))
        high = S[_G_BID]
        wanted = _A_BID0 + tricks if tricks > high and _in(acts, na, _A_BID0 + tricks) else _A_PASS
        if S[_G_BIDDER] >= 0 and S[_G_BIDDER] == (seat + 2) % 4 and tricks < high + 2:
            wanted = _A_PASS
        if not _in(acts, na, wanted):
            wanted = acts[0]
        return wanted
    if ph == _NAME_TRUMP:
        best, _ = _double_best(hand)
        return _call_code(best)
    if ph == _GIVE or ph == _BEST_DISCARD:  # the best card given, the weakest buried
        offset = _A_GIVE if ph == _GIVE else _A_DISCARD
        choice = acts[0]
        key = _SPOW[t, acts[0] - offset] if ph == _GIVE else _strength(t, acts[0] - offset)
        for i in range(1, na):
            c = acts[i] - offset
            if ph == _GIVE and _SPOW[t, c] > key:
                key = _SPOW[t, c]
                choice = acts[i]
            elif ph == _BEST_DISCARD and _strength(t, c) < key:
                key = _strength(t, c)
                choice = acts[i]
        return choice
    if ph != _PLAY:
        return acts[0]
    tn = S[_G_TRICK_N]
    if tn == 0:  # lead: the best trump while on the makers' side, else the best card
        makers = seat % 2 == S[_G_MAKER] % 2
        best = -1
        choice = -1
        for i in range(na):
            c = _CODE_CARD[acts[i]]
            if makers and _SEFF[t, c] == t and _strength(t, c) > best:
                best = _strength(t, c)
                choice = acts[i]
        if choice >= 0:
            return choice
        best = -1
        for i in range(na):
            c = _CODE_CARD[acts[i]]
            if _strength(t, c) > best:
                best = _strength(t, c)
                choice = acts[i]
        return choice
    led = _SEFF[t, S[_G_TCARDS]]
    top = -1
    winner = -1
    for j in range(tn):
        v = _STAKES[t, led, S[_G_TCARDS + j]]
        if v > top:
            top = v
            winner = S[_G_TSEATS + j]
    cheapest = -1
    cheapest_win = -1
    low = 1 << 40
    low_win = 1 << 40
    for i in range(na):
        c = _CODE_CARD[acts[i]]
        k = _strength(t, c)
        if k < low:
            low = k
            cheapest = acts[i]
        if _STAKES[t, led, c] > top and k < low_win:
            low_win = k
            cheapest_win = acts[i]
    if winner == (seat + 2) % 4 or cheapest_win < 0:
        return cheapest
    return cheapest_win


# Napoleon: euchre.bots.napoleon.
@njit(cache=True, nogil=True)
def _nap_best(S: np.ndarray, Q: np.ndarray, seat: int) -> tuple[int, float]:
    """``napoleon.best_trump_suit``: the suit to lead as trump and the tricks it should take."""
    hand = S[_G_HANDS + seat]
    deck = Q[_Q_DECK_MASK]
    ace = max(0.8 - 0.08 * Q[_Q_N], 0.3)
    best = 0
    best_est = -1.0
    for suit in range(4):
        held = _popcount(hand & _NAP_SUIT[suit])
        if held == 0:
            continue
        top = 0
        for k in range(13):  # the top of the suit in sequence: sure tricks
            c = _NAP_ORDER[suit, k]
            if not deck >> c & 1:
                continue
            if hand >> c & 1:
                top += 1
            else:
                break
        rest = held - top
        est = top + (0.5 * rest if held >= 3 else 0.25 * rest)
        for s in range(4):  # side aces
            if s != suit and hand >> _NAP_ORDER[s, 0] & 1:
                est += ace
        if est > best_est:
            best = suit
            best_est = est
    return best, best_est


@njit(cache=True, nogil=True)
def _misere_safe(S: np.ndarray, Q: np.ndarray, seat: int) -> bool:
    """``napoleon.misere_safe``."""
    hand = S[_G_HANDS + seat]
    deck = Q[_Q_DECK_MASK]
    m = hand
    while m:
        low = m & -m
        if _popcount(_NAP_BELOW[_LOWBIT[low % 67]] & deck & ~hand) > 1:
            return False
        m ^= low
    for s in range(4):
        if _popcount(hand & _NAP_SUIT[s]) > 2:
            return False
    return True


@njit(cache=True, nogil=True)
def _nap_choice(S: np.ndarray, Q: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``napoleon.napoleon_choice``."""
    ph = S[_G_PHASE]
    me = S[_G_TO_ACT]
    if ph == _AUCTION:  # the highest level whose test passes
        _, est = _nap_best(S, Q, me)
        wanted = _A_PASS
        for level in range(1, 8):
            ok = _misere_safe(S, Q, me) if level == MISERE_LEVEL else est >= H[_H_NAP_NEEDS + level - 1]
            if ok and _in(acts, na, _NAP_CODES[level]):
                wanted = _NAP_CODES[level]
        return wanted
    if ph == _LEAD:  # the top of the suit chosen as trump
        suit, _ = _nap_best(S, Q, me)
        m = S[_G_HANDS + me] & _NAP_SUIT[suit]
        best = -1
        card = -1
        while m:
            low = m & -m
            c = _LOWBIT[low % 67]
            if _SPOW[PLAIN_TRUMP + suit, c] > best:
                best = _SPOW[PLAIN_TRUMP + suit, c]
                card = c
            m ^= low
        return _play_code(Q, card)
    if ph != _PLAY:
        return acts[0]
    t = S[_G_TRUMP]
    bidder = S[_G_MAKER]
    misere = S[_G_BID] == MISERE_LEVEL
    low_card = acts[0]
    high_card = acts[0]
    for i in range(1, na):
        k = _strength(t, _CODE_CARD[acts[i]])
        if k < _strength(t, _CODE_CARD[low_card]):
            low_card = acts[i]
        if k > _strength(t, _CODE_CARD[high_card]):
            high_card = acts[i]
    tn = S[_G_TRICK_N]
    if tn == 0:
        if me == bidder and misere:
            return low_card
        if me == bidder:  # draw the others' trumps while they may hold any
            unseen = Q[_Q_DECK_MASK] & ~(S[_G_HANDS + me] | S[_G_PLAYED])
            if unseen & _SFOL[t, t]:
                best = -1
                choice = -1
                for i in range(na):
                    c = _CODE_CARD[acts[i]]
                    if _SEFF[t, c] == t and _strength(t, c) > best:
                        best = _strength(t, c)
                        choice = acts[i]
                if choice >= 0:
                    return choice
            return high_card
        return low_card if misere else high_card
    led = _SEFF[t, S[_G_TCARDS]]
    top = -1
    winner = -1
    bidder_played = False
    for j in range(tn):
        v = _STAKES[t, led, S[_G_TCARDS + j]]
        if v > top:
            top = v
            winner = S[_G_TSEATS + j]
        if S[_G_TSEATS + j] == bidder:
            bidder_played = True
    min_win = -1  # the cheapest card that would take the trick, and the dearest that would not
    max_lose = -1
    for i in range(na):
        c = _CODE_CARD[acts[i]]
        k = _strength(t, c)
        if _STAKES[t, led, c] > top:
            if min_win < 0 or k < _strength(t, _CODE_CARD[min_win]):
                min_win = acts[i]
        elif max_lose < 0 or k > _strength(t, _CODE_CARD[max_lose]):
            max_lose = acts[i]
    if me == bidder:
        if misere:  # duck: the highest card that still loses, else the highest
            return max_lose if max_lose >= 0 else high_card
        return min_win if min_win >= 0 else low_card
    if misere:  # leave the bidder the trick: under its card once it has played
        if bidder_played and winner == bidder:
            return max_lose if max_lose >= 0 else low_card
        return low_card
    if winner == bidder and min_win >= 0:
        return min_win
    return low_card


@njit(cache=True, nogil=True)
def _heuristic(S: np.ndarray, Q: np.ndarray, H: np.ndarray, acts: np.ndarray, na: int) -> int:
    """``HeuristicBot.choose`` for the seat to act; ``acts`` holds the ``na`` legal actions."""
    game = Q[_Q_GAME]
    if game == _NAPOLEON:
        choice = _nap_choice(S, Q, H, acts, na)
    elif game == _DOUBLE:
        choice = _double_choice(S, Q, H, acts, na)
    else:
        choice = _six_choice(S, Q, H, acts, na)
    return choice if _in(acts, na, choice) else acts[0]


# --- the batch --------------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _choose(S: np.ndarray, Q: np.ndarray, H: np.ndarray, rs: np.ndarray, policy: np.ndarray, epsilon: float,
            acts: np.ndarray, na: int) -> int:
    seat = S[_G_TO_ACT]
    if policy[seat] == 1 and (epsilon <= 0.0 or _uniform(rs) >= epsilon):
        return _heuristic(S, Q, H, acts, na)
    return acts[_below(rs, na)] if na > 1 else acts[0]


@njit(cache=True, nogil=True)
def _simulate(Q: np.ndarray, H: np.ndarray, policy: np.ndarray, epsilon: float, seed: np.uint64, first: int,
              dealer_mode: int, deck: np.ndarray, record: bool, dealers: np.ndarray, hands: np.ndarray,
              stocks: np.ndarray, actions: np.ndarray, seats: np.ndarray, nact: np.ndarray, advice: np.ndarray,
              won: np.ndarray, points: np.ndarray, makers: np.ndarray, trumps: np.ndarray, alone: np.ndarray,
              bids: np.ndarray, forced: np.ndarray) -> None:
    """Deal and play ``len(dealers)`` hands (hand numbers ``first`` on), filling the output arrays
    (cards as local ids); ``dealer_mode`` as :func:`euchre.batch._simulate`'s."""
    n = Q[_Q_N]
    m = deck.shape[0]
    size = Q[_Q_HAND]
    S = np.zeros(_GFIELDS, np.int64)
    pack = np.empty(m, np.int64)
    acts = np.empty(64, np.int64)
    rs = np.zeros(1, np.uint64)
    for h in range(dealers.shape[0]):
        _seed_hand(rs, seed, first + h)
        if dealer_mode >= 0:
            dealer = dealer_mode
        elif dealer_mode == -1:
            dealer = (first + h) % n
        else:
            dealer = _below(rs, n)
        _deal(S, Q, rs, dealer, pack, deck)
        dealers[h] = dealer
        for s in range(n):  # the double deck: in id order (a pair as the card and its copy); else as dealt
            i = (s - dealer - 1) % n
            if Q[_Q_GAME] == _DOUBLE:
                mask = S[_G_HANDS + s]
                for k in range(size):
                    hands[h, s, k] = _bit(mask)
                    mask &= mask - 1
            elif Q[_Q_GAME] == _NAPOLEON:
                for k in range(3):
                    hands[h, s, k] = pack[3 * i + k]
                for k in range(2):
                    hands[h, s, 3 + k] = pack[3 * n + 2 * i + k]
            else:
                for k in range(3):
                    hands[h, s, k] = pack[3 * i + k]
                    hands[h, s, 3 + k] = pack[12 + 3 * i + k]
        for j in range(size * n, m):
            stocks[h, j - size * n] = pack[j]
        k = 0
        while S[_G_PHASE] != _OVER:
            na = _legal(S, Q, acts)
            if record:
                advice[h, k] = _heuristic(S, Q, H, acts, na)
            a = _choose(S, Q, H, rs, policy, epsilon, acts, na)
            actions[h, k] = a
            seats[h, k] = S[_G_TO_ACT]
            k += 1
            _apply(S, Q, a)
        nact[h] = k
        for s in range(n):
            won[h, s] = S[_G_WON + s]
        for s in range(Q[_Q_SIDES]):
            points[h, s] = S[_G_POINTS + s]
        makers[h] = S[_G_MAKER]
        trumps[h] = S[_G_TRUMP]
        alone[h] = S[_G_ALONE] != 0
        bids[h] = S[_G_BID] if S[_G_BIDDER] >= 0 else 0
        forced[h] = S[_G_FORCED] != 0


@njit(cache=True, nogil=True)
def _replay(Q: np.ndarray, dealer: int, hands: np.ndarray, actions: np.ndarray, k: int,
            legal: np.ndarray) -> np.ndarray:
    """Replay a deal's first ``k`` actions, writing the legal actions before each, in order, into
    ``legal[j]`` (padded with -1); returns the final row."""
    S = np.zeros(_GFIELDS, np.int64)
    S[_G_N] = Q[_Q_N]
    S[_G_DEALER] = dealer
    for s in range(Q[_Q_N]):
        S[_G_HANDS + s] = hands[s]
        S[_G_DEAL + s] = hands[s]
    _setup(S)
    acts = np.empty(64, np.int64)
    for j in range(k):
        na = _legal(S, Q, acts)
        for i in range(na):
            legal[j, i] = acts[i]
        _apply(S, Q, actions[j])
    return S


def _local_mask(cards: Sequence[int]) -> int:
    """The hand of engine ids ``cards`` as a local mask (a copy of a card held twice under its copy's id)."""
    m = 0
    for c in cards:
        f = int(face(int(c)))
        m |= 1 << (int(_TWIN[f]) if m >> f & 1 else f)
    return m


def _engine_cards(local: np.ndarray, rules: Rules) -> np.ndarray:
    """Local ids as engine ids (int8)."""
    out = local.astype(np.int64)
    if rules.double_deck:
        out = np.where(out >= LOW_CARD, out + _SHIFT, out)
    return out.astype(np.int8)


def simulate(rules: Rules, hands: int, *, seed: int, names: tuple[str, ...], codes: np.ndarray, mode: int,
             epsilon: float, aggression: float, lone_with_loser: bool, record_heuristic: bool,
             first: int) -> BatchResult:
    """:func:`euchre.batch.simulate` for a sister game (its arguments already checked)."""
    from euchre.batch import BatchResult

    Q = _rules_row(rules)
    H = _heuristic_constants(aggression, lone_with_loser)
    deck = _deck(rules)
    N = int(hands)
    n = rules.players
    width = max_actions(rules)
    size = rules.hand_size
    out: dict[str, np.ndarray] = {
        "dealer": np.zeros(N, np.int8), "hands": np.zeros((N, n, size), np.int8),
        "stock": np.zeros((N, len(deck) - size * n), np.int8),
        "actions": np.full((N, width), -1, np.int16), "seats": np.full((N, width), -1, np.int8),
        "n_actions": np.zeros(N, np.int16), "tricks_won": np.zeros((N, n), np.int8),
        "points": np.zeros((N, rules.sides), np.int16), "maker": np.zeros(N, np.int8),
        "trump": np.zeros(N, np.int8), "alone": np.zeros(N, np.bool_), "bid": np.zeros(N, np.int8),
        "forced_bid": np.zeros(N, np.bool_),
    }
    advice = np.full((N, width) if record_heuristic else (1, 1), -1, np.int16)
    _simulate(Q, H, codes, float(epsilon), np.uint64(int(seed) & (2**64 - 1)), int(first), mode, deck,
              bool(record_heuristic), out["dealer"], out["hands"], out["stock"], out["actions"], out["seats"],
              out["n_actions"], advice, out["tricks_won"], out["points"], out["maker"], out["trump"], out["alone"],
              out["bid"], out["forced_bid"])
    out["hands"] = _engine_cards(out["hands"], rules)
    out["stock"] = _engine_cards(out["stock"], rules)
    none = np.full(N, -1, np.int8)
    return BatchResult(rules=rules, seed=int(seed), policy=names, heuristic=advice if record_heuristic else None,
                       up_card=none, lone_defender=none.copy(), misdeal=none.copy(), farmer=none.copy(), **out)


def deal(result: BatchResult, i: int) -> Deal:
    """Hand ``i`` of a sister game's batch as the engine records its deal (no up card)."""
    hands = tuple(tuple(CARDS[int(c)] for c in h) for h in result.hands[i])
    return Deal(int(result.dealer[i]), hands, None, tuple(CARDS[int(c)] for c in result.stock[i]))


def legal(result: BatchResult, i: int) -> list[list[int]]:
    """The legal actions before each action of hand ``i``, in the compiled rules' order."""
    k = int(result.n_actions[i])
    out = np.full((k, 64), -1, np.int64)
    hands = np.array([_local_mask(h) for h in result.hands[i].tolist()], dtype=np.int64)
    _replay(_rules_row(result.rules), int(result.dealer[i]), hands, result.actions[i].astype(np.int64), k, out)
    return [[int(a) for a in row if a >= 0] for row in out]


# --- the vectorised environment ------------------------------------------------------------------------------------
# The observation is euchre.envs.observation.encode of the seat's PlayerView in the game's own
# layout (observation.layout(rules)); the offsets, the card slots and the bid slots are read from
# that module (SisterTables), so the two cannot drift apart unseen.
_OBS_FIELDS = ("hand", "phase", "to_act", "dealer", "trump", "maker", "alone", "sitting_out", "high_bid", "bidder",
               "forced_bid", "bid_seats", "bid_actions", "played", "trick", "leader", "trick_leaders", "trick_cards",
               "trick_winners", "tricks_won", "gift_giver", "gift_receiver", "gift_card", "gift_discard")
(_O_HAND, _O_PHASE, _O_TO_ACT, _O_DEALER, _O_TRUMP, _O_MAKER, _O_ALONE, _O_OUT, _O_HIGH_BID, _O_BIDDER, _O_FORCED,
 _O_BID_SEATS, _O_BID_ACTIONS, _O_PLAYED, _O_TRICK, _O_LEADER, _O_TLEADERS, _O_TCARDS, _O_TWINNERS, _O_WON,
 _O_GIVER, _O_RECEIVER, _O_GIFT_CARD, _O_GIFT_DISCARD) = range(len(_OBS_FIELDS))
_O_NBIDS = len(_OBS_FIELDS)
"""The width of a bid slot, after the offsets (-1: a field the game's layout has not)."""
_O_CARDS = _O_NBIDS + 1
"""The number of card slots."""


class SisterTables:
    """What a :class:`~euchre.batch.VectorEnv` of a sister game keeps besides its rows: the rules
    row, the pack, the heuristic's constants and the observation's layout (offsets, bid slots,
    card slots, constant part)."""

    def __init__(self, rules: Rules) -> None:
        from euchre.envs import observation as ob

        lay = ob.layout(rules)
        self.Q = _rules_row(rules)
        self.H = _heuristic_constants()
        self.deck = _deck(rules)
        self.width = max_actions(rules)
        self.size = lay.size
        names = {f.name: f.start for f in lay.fields}
        self.at = np.full(_O_CARDS + 1, -1, np.int64)
        for i, name in enumerate(_OBS_FIELDS):
            self.at[i] = names.get(name, -1)
        self.at[_O_NBIDS] = len(lay.bid_codes)
        self.at[_O_CARDS] = len(lay.cards)
        self.bid = np.full(NUM_ACTIONS, -1, np.int64)
        for i, code in enumerate(lay.bid_codes):
            self.bid[code] = i
        slot_of = {card: i for i, card in enumerate(lay.cards)}
        self.slot = np.full(_NL, -1, np.int64)
        for local in self.deck:
            self.slot[local] = slot_of[int(face(_engine_id(int(local), 0 if rules.double_deck else PLAIN_TRUMP)))]
        self.base = np.zeros(lay.size, np.float32)
        ending = names["ending"]
        for i, value in enumerate((rules.target, rules.deals, rules.duration)):
            if value is not None:
                self.base[ending + i] = value
        self.napoleon = rules.napoleon

    def state(self, rules: Rules, row: np.ndarray, history: np.ndarray) -> State:
        """A table's hand in progress, replayed through the engine."""
        n = rules.players
        shift = _SHIFT if rules.double_deck else 0
        hands = [[CARDS[c + shift if c >= LOW_CARD else c] for c in range(_NL) if int(row[_G_DEAL + s]) >> c & 1]
                 for s in range(n)]
        stock = [CARDS[c] for c in range(_NL) if int(row[_G_STOCK]) >> c & 1]
        s = State(rules, dealer=int(row[_G_DEALER]), hands=hands, up_card=None, stock=stock)
        for a in history[:int(row[_G_NACT])]:
            s.push(int(a))
        return s


@njit(cache=True, nogil=True)
def _encode(S: np.ndarray, seat: int, acts: np.ndarray, seats: np.ndarray, at: np.ndarray, bid: np.ndarray,
            slot: np.ndarray, base: np.ndarray, obs: np.ndarray, tc: np.ndarray, ts: np.ndarray) -> None:
    """``encode(PlayerView.of(state, seat))`` into ``obs``, in the game's layout, from the row ``S``
    and the hand's actions and their seats (the double deck's copies counted in their card's slot)."""
    n = S[_G_N]
    cards = at[_O_CARDS]
    for j in range(base.shape[0]):
        obs[j] = base[j]
    m = S[_G_HANDS + seat]
    while m:
        low = m & -m
        obs[at[_O_HAND] + slot[_LOWBIT[low % 67]]] += 1.0
        m ^= low
    obs[at[_O_PHASE] + S[_G_PHASE]] = 1.0
    if S[_G_TO_ACT] >= 0:
        obs[at[_O_TO_ACT] + (S[_G_TO_ACT] - seat) % n] = 1.0
    obs[at[_O_DEALER] + (S[_G_DEALER] - seat) % n] = 1.0
    t = S[_G_TRUMP]
    if t >= 0:
        obs[at[_O_TRUMP] + t] = 1.0
    if S[_G_MAKER] >= 0:
        obs[at[_O_MAKER] + (S[_G_MAKER] - seat) % n] = 1.0
    if at[_O_ALONE] >= 0:
        obs[at[_O_ALONE]] = 1.0 if S[_G_ALONE] else 0.0
        for s in range(n):
            if S[_G_OUT] >> s & 1:
                obs[at[_O_OUT] + (s - seat) % n] = 1.0
    obs[at[_O_HIGH_BID]] = S[_G_BID]
    if S[_G_BIDDER] >= 0:
        obs[at[_O_BIDDER] + (S[_G_BIDDER] - seat) % n] = 1.0
    if at[_O_FORCED] >= 0:
        obs[at[_O_FORCED]] = 1.0 if S[_G_FORCED] else 0.0
    nb = 0
    size = S[_G_TRICK_SIZE]
    row = 0
    k = 0
    leader = -1
    nbids = at[_O_NBIDS]
    for j in range(S[_G_NACT]):
        a = acts[j]
        s = seats[j]
        r = (s - seat) % n
        if (a >= _A_PLAY and a < _A_HIGH) or a >= _A_LOW_PLAY:
            c = _CODE_CARD[a]
            if k == 0:
                leader = s
            tc[k] = c
            ts[k] = s
            k += 1
            obs[at[_O_PLAYED] + cards * r + slot[c]] += 1.0
            if k == size:
                obs[at[_O_TLEADERS] + n * row + (leader - seat) % n] = 1.0
                led = _SEFF[t, tc[0]]
                best = -1
                w = leader
                for q in range(k):
                    obs[at[_O_TCARDS] + cards * (n * row + (ts[q] - seat) % n) + slot[tc[q]]] += 1.0
                    v = _STAKES[t, led, tc[q]]
                    if v > best:
                        best = v
                        w = ts[q]
                obs[at[_O_TWINNERS] + n * row + (w - seat) % n] = 1.0
                row += 1
                k = 0
            continue
        b = bid[a]
        if b >= 0:
            obs[at[_O_BID_SEATS] + n * nb + r] = 1.0
            obs[at[_O_BID_ACTIONS] + nbids * nb + b] = 1.0
            nb += 1
    for q in range(k):
        obs[at[_O_TRICK] + cards * ((ts[q] - seat) % n) + slot[tc[q]]] += 1.0
    if S[_G_LEADER] >= 0:
        obs[at[_O_LEADER] + (S[_G_LEADER] - seat) % n] = 1.0
    for s in range(n):
        obs[at[_O_WON] + (s - seat) % n] = S[_G_WON + s]
    if at[_O_GIVER] >= 0 and S[_G_GIFTS]:  # the moon's gift as this seat knows it (view.seat_gifts)
        giver = S[_G_GIVER]
        receiver = S[_G_RECEIVER]
        if seat == receiver or seat == giver or S[_G_GDISCARD] >= 0:
            obs[at[_O_GIVER] + (giver - seat) % n] = 1.0
            obs[at[_O_RECEIVER] + (receiver - seat) % n] = 1.0
            if seat == receiver or seat == giver:
                obs[at[_O_GIFT_CARD] + slot[S[_G_GCARD]]] += 1.0
            if seat == receiver and S[_G_GDISCARD] >= 0:
                obs[at[_O_GIFT_DISCARD] + slot[S[_G_GDISCARD]]] += 1.0


@njit(cache=True, nogil=True)
def _observe(S: np.ndarray, Q: np.ndarray, i: int, hist: np.ndarray, hseats: np.ndarray, at: np.ndarray,
             bid: np.ndarray, slot: np.ndarray, base: np.ndarray, obs: np.ndarray, mask: np.ndarray,
             to_act: np.ndarray, acts: np.ndarray) -> None:
    """Table ``i``'s seat to act, observation and mask (``acts``: 80 words of scratch)."""
    row = S[i]
    seat = row[_G_TO_ACT]
    to_act[i] = seat
    _encode(row, seat, hist[i], hseats[i], at, bid, slot, base, obs[i], acts[64:72], acts[72:80])
    for k in range(mask.shape[1]):
        mask[i, k] = False
    na = _legal(row, Q, acts)
    for k in range(na):
        mask[i, acts[k]] = True


@njit(cache=True, nogil=True)
def _vec_reset(S: np.ndarray, Q: np.ndarray, rs: np.ndarray, seed: np.uint64, mode: int, deck: np.ndarray,
               hist: np.ndarray, hseats: np.ndarray, at: np.ndarray, bid: np.ndarray, slot: np.ndarray,
               base: np.ndarray, obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray) -> None:
    n = Q[_Q_N]
    pack = np.empty(deck.shape[0], np.int64)
    acts = np.empty(80, np.int64)
    for i in range(S.shape[0]):
        r = rs[i:i + 1]
        _seed_hand(r, seed, i)
        _deal(S[i], Q, r, _next_dealer(r, mode, n, (i - 1) % n), pack, deck)
        _observe(S, Q, i, hist, hseats, at, bid, slot, base, obs, mask, to_act, acts)


@njit(cache=True, nogil=True)
def _vec_step(S: np.ndarray, Q: np.ndarray, rs: np.ndarray, mode: int, deck: np.ndarray, actions: np.ndarray,
              hist: np.ndarray, hseats: np.ndarray, at: np.ndarray, bid: np.ndarray, slot: np.ndarray,
              base: np.ndarray, obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray, rewards: np.ndarray,
              done: np.ndarray, points: np.ndarray) -> int:
    """One action at every table, as :func:`euchre.batch._vec_step`; the rewards are
    ``euchre.envs.aec.hand_rewards``: each seat's points in Napoleon, else its side's points less
    the other side's."""
    n = Q[_Q_N]
    sides = Q[_Q_SIDES]
    pack = np.empty(deck.shape[0], np.int64)
    acts = np.empty(80, np.int64)
    for i in range(S.shape[0]):
        na = _legal(S[i], Q, acts)
        if not _in(acts, na, actions[i]):
            return i
    for i in range(S.shape[0]):
        row = S[i]
        k = row[_G_NACT]
        hist[i, k] = actions[i]
        hseats[i, k] = row[_G_TO_ACT]
        _apply(row, Q, actions[i])
        if row[_G_PHASE] == _OVER:
            done[i] = True
            total = 0.0
            for s in range(sides):
                points[i, s] = row[_G_POINTS + s]
                total += row[_G_POINTS + s]
            for s in range(n):
                v = float(row[_G_POINTS + _side(Q, s)])
                rewards[i, s] = v if Q[_Q_GAME] == _NAPOLEON else v - (total - v) / (sides - 1)
            hist[i, :] = -1
            hseats[i, :] = -1
            _deal(row, Q, rs[i:i + 1], _next_dealer(rs[i:i + 1], mode, n, row[_G_DEALER]), pack, deck)
        else:
            done[i] = False
            for s in range(n):
                rewards[i, s] = 0.0
        _observe(S, Q, i, hist, hseats, at, bid, slot, base, obs, mask, to_act, acts)
    return -1


@njit(cache=True, nogil=True)
def _vec_policy(S: np.ndarray, Q: np.ndarray, H: np.ndarray, rs: np.ndarray, policy: np.ndarray, epsilon: float,
                out: np.ndarray) -> None:
    acts = np.empty(64, np.int64)
    for i in range(S.shape[0]):
        na = _legal(S[i], Q, acts)
        out[i] = _choose(S[i], Q, H, rs[i:i + 1], policy, epsilon, acts, na)


def vec_reset(env: VectorEnv) -> None:
    """:meth:`euchre.batch.VectorEnv.reset` of a sister game."""
    t = env._sister
    assert t is not None
    _vec_reset(env._S, t.Q, env._rs, np.uint64(int(env.seed) & (2**64 - 1)), env._mode, t.deck, env._hist,
               env._hseats, t.at, t.bid, t.slot, t.base, env.obs, env.mask, env.to_act)


def vec_step(env: VectorEnv, actions: np.ndarray) -> int:
    """:meth:`euchre.batch.VectorEnv.step` of a sister game: the first table whose action is illegal, or -1."""
    t = env._sister
    assert t is not None
    return int(_vec_step(env._S, t.Q, env._rs, env._mode, t.deck, actions, env._hist, env._hseats, t.at, t.bid,
                         t.slot, t.base, env.obs, env.mask, env.to_act, env.rewards, env.done, env.points))


def vec_policy(env: VectorEnv, codes: np.ndarray, epsilon: float, out: np.ndarray) -> None:
    """:meth:`euchre.batch.VectorEnv.policy_actions` of a sister game."""
    t = env._sister
    assert t is not None
    _vec_policy(env._S, t.Q, t.H, env._rs, codes, epsilon, out)

