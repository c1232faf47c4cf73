"""The observation of the learning environment: one seat's :class:`~euchre.view.PlayerView` as a
fixed-length ``float32`` vector with named slices, and the action mask.

:func:`encode` reads a view and nothing else (plus, in a match, the public match standing), so an
observation holds exactly what the seat may know: the engine builds the view, and the view has
no path to a hidden card. Every rule set shares one layout (:data:`OBSERVATION_FIELDS`): card
slots are the engine's card ids (:data:`~euchre.cards.NUM_CARDS` of them, so 7s, 8s and the Joker
have their place whatever the deck; the cards a deck lacks stay 0), and seats and sides are
counted from the observing seat (0 = itself, 1 = its left, 2 = across, 3 = its right), so one
policy can sit anywhere. ``docs/rl.md`` describes every field.

>>> from euchre import Game, Rules
>>> view = Game(Rules(), seed=1).view(0)
>>> obs = encode(view)
>>> obs.shape == (OBSERVATION_SIZE,), obs.dtype.name
(True, 'float32')
>>> int(obs[field_slice("hand")].sum()), int(obs[field_slice("up_card")].sum())
(5, 1)
>>> unpack(obs)["bid_actions"].shape
(12, 20)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from euchre.actions import EUCHRE_ACTIONS, Kind
from euchre.cards import NUM_CARDS, NUM_TRUMPS
from euchre.rules import HAND_SIZE
from euchre.state import EUCHRE_PHASES, Phase
from euchre.view import PlayerView

__all__ = ["ObservationField", "OBSERVATION_FIELDS", "OBSERVATION_SIZE", "MAX_BIDS", "BID_CODES",
           "UP_CARD_FATES", "COUNT_HIGH", "observation_fields", "field_slice", "unpack", "encode",
           "action_mask", "up_card_fate", "observation_low", "observation_high"]

SEATS = 4
"""Seat slots (relative to the observing seat); two- and three-handed rules leave the last empty."""
SIDES = 3
"""Side slots (relative to the observing seat's side): two partnerships, or one side per seat."""
MAX_BIDS = 12
"""Bidding decisions a view can show in one hand: an own kept offer of each kind (2), two rounds
of four (8) and two answers to a loner (2)."""
GIFTS = 2
"""Calls for best in one hand: the lone maker's, then a lone defender's."""
BID_CODES: tuple[int, ...] = (*range(13), 79, 80, 81, 82, 116, 117, 118)
"""The action codes of the public decisions before play, in the order of the ``bid_actions``
slots: pass, order, order alone, take, defend alone, call c/d/h/s, call c/d/h/s alone, call n,
call n alone, call low, call low alone, misdeal, keep, farmer."""
_BID_INDEX = {code: i for i, code in enumerate(BID_CODES)}
UP_CARD_FATES = ("face_up", "turned_down", "left", "taken", "buried", "played")
"""What became of the up card, in the order of the ``up_card_fate`` slots."""
COUNT_HIGH = float(2**24)
"""The upper bound of the raw counts (scores, hand number, ending, match standing): every
integer below it is exact in ``float32``; a larger count (never reached: a bounded game scores
about a million at most) is clipped to it."""

_PLAYERS = (2, 3, 4)
_FACE_UP_PHASES = frozenset((Phase.BID1, Phase.TAKE, Phase.JOKER, Phase.MISDEAL_OFFER, Phase.FARMER_OFFER,
                             Phase.FARMER_GIVE, Phase.OFFERS))
_CALLS = (Kind.CALL, Kind.CALL_ALONE)
_OFFERS = (Kind.MISDEAL, Kind.KEEP, Kind.FARMER)


class ObservationField(NamedTuple):
    """One named slice of the observation vector: ``obs[start:start + length]``, which reshapes
    to ``shape``."""

    name: str
    start: int
    length: int
    shape: tuple[int, ...]

    @property
    def slice(self) -> slice:
        """The field's slice of the vector."""
        return slice(self.start, self.start + self.length)


_SPEC: tuple[tuple[str, tuple[int, ...], float], ...] = (
    # (name, shape, upper bound); every lower bound is 0
    ("hand", (NUM_CARDS,), 1.0),
    ("up_card", (NUM_CARDS,), 1.0),
    ("up_card_fate", (len(UP_CARD_FATES),), 1.0),
    ("discard", (NUM_CARDS,), 1.0),
    ("dealer_discarded", (1,), 1.0),
    ("phase", (EUCHRE_PHASES,), 1.0),
    ("to_act", (SEATS,), 1.0),
    ("dealer", (SEATS,), 1.0),
    ("trump", (NUM_TRUMPS,), 1.0),
    ("maker", (SEATS,), 1.0),
    ("alone", (1,), 1.0),
    ("lone_defender", (SEATS,), 1.0),
    ("sitting_out", (SEATS,), 1.0),
    ("bid_seats", (MAX_BIDS, SEATS), 1.0),
    ("bid_actions", (MAX_BIDS, len(BID_CODES)), 1.0),
    ("played", (SEATS, NUM_CARDS), 1.0),
    ("trick", (SEATS, NUM_CARDS), 1.0),
    ("leader", (SEATS,), 1.0),
    ("trick_leaders", (HAND_SIZE, SEATS), 1.0),
    ("trick_cards", (HAND_SIZE, SEATS, NUM_CARDS), 1.0),
    ("trick_winners", (HAND_SIZE, SEATS), 1.0),
    ("tricks_won", (SEATS,), float(HAND_SIZE)),
    ("score", (SIDES,), COUNT_HIGH),
    ("hand_points", (SIDES,), COUNT_HIGH),
    ("hand_number", (1,), COUNT_HIGH),
    ("players", (len(_PLAYERS),), 1.0),
    ("ending", (3,), COUNT_HIGH),
    ("gift_givers", (GIFTS, SEATS), 1.0),
    ("gift_receivers", (GIFTS, SEATS), 1.0),
    ("gift_cards", (GIFTS, NUM_CARDS), 1.0),
    ("gift_discards", (GIFTS, NUM_CARDS), 1.0),
    ("misdeal", (SEATS,), 1.0),
    ("misdeal_hand", (NUM_CARDS,), 1.0),
    ("farmer", (SEATS,), 1.0),
    ("farmer_gave", (NUM_CARDS,), 1.0),
    ("farmer_took", (NUM_CARDS,), 1.0),
    ("match_wins", (SIDES,), COUNT_HIGH),
    ("match_games", (1,), COUNT_HIGH),
)


def _layout() -> tuple[tuple[ObservationField, ...], np.ndarray]:
    out: list[ObservationField] = []
    highs: list[np.ndarray] = []
    start = 0
    for name, shape, high in _SPEC:
        length = math.prod(shape)
        out.append(ObservationField(name, start, length, shape))
        highs.append(np.full(length, high, dtype=np.float32))
        start += length
    return tuple(out), np.concatenate(highs)


OBSERVATION_FIELDS, _HIGH = _layout()
"""Every field of the observation in vector order, as ``(name, start, length, shape)``."""
OBSERVATION_SIZE = OBSERVATION_FIELDS[-1].start + OBSERVATION_FIELDS[-1].length
"""Length of the observation vector (the same for every rule set)."""
_FIELD = {f.name: f for f in OBSERVATION_FIELDS}
_START = {f.name: f.start for f in OBSERVATION_FIELDS}


def observation_fields() -> tuple[ObservationField, ...]:
    """:data:`OBSERVATION_FIELDS`: ``(name, start, length, shape)`` of every field, in order."""
    return OBSERVATION_FIELDS


def field_slice(name: str) -> slice:
    """The slice of the vector that holds field ``name`` (``KeyError`` for an unknown name)."""
    return _FIELD[name].slice


def unpack(observation: np.ndarray) -> dict[str, np.ndarray]:
    """Every field of an observation vector by name, reshaped to the field's shape (views of the
    vector, not copies)."""
    return {f.name: observation[f.slice].reshape(f.shape) for f in OBSERVATION_FIELDS}


def observation_low() -> np.ndarray:
    """The lower bound of every slot (0 everywhere)."""
    return np.zeros(OBSERVATION_SIZE, dtype=np.float32)


def observation_high() -> np.ndarray:
    """The upper bound of every slot: 1 for the indicators, 5 for tricks won, :data:`COUNT_HIGH`
    for the raw counts."""
    return _HIGH.copy()


def action_mask(view: PlayerView) -> np.ndarray:
    """1 at the code of every legal action of the view's seat (all 0 when it is not to act)."""
    mask = np.zeros(EUCHRE_ACTIONS, dtype=np.int8)
    for a in view.legal_actions:
        mask[a] = 1
    return mask


def up_card_fate(view: PlayerView) -> str:
    """What became of the up card as the view knows it (one of :data:`UP_CARD_FATES`): still
    ``face_up`` while bid on (or before bidding, under the offers); ``turned_down`` once bidding
    went on without it (or the hand was thrown in); ``left`` in the stock when it was ordered but
    nobody took it (the dealer sitting out, a two-handed dealer declining); ``taken`` into the
    dealer's hand; ``buried`` (the dealer's own view only: the others still see it ``taken``);
    ``played`` to a trick."""
    up = view.up_card
    if view.up_card_taken:
        if view.discard == up:
            return "buried"
        return "played" if up in view.played else "taken"
    if view.phase in _FACE_UP_PHASES:
        return "face_up"
    if view.maker < 0 or any(a is not None and a.kind in _CALLS for _, a in view.actions):
        return "turned_down"
    return "left"


def encode(view: PlayerView, *, match_wins: Sequence[int] | None = None, match_games: int = 0) -> np.ndarray:
    """The observation vector of ``view`` (a seat's view, not a spectator's).

    ``match_wins`` (game wins per side, in side order) and ``match_games`` (games finished) are
    the public standing of a match, when the rules play one; they are 0 otherwise.
    """
    me = view.seat
    if me is None:
        raise ValueError("an observation is a seat's: encode the view of a seat, not a spectator's")
    rules = view.rules
    n = rules.players
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    at = _START

    def rel(seat: int) -> int:
        return (seat - me) % n

    side_slot: dict[int, int] = {}
    for k in range(n):
        side_slot.setdefault(rules.side_of((me + k) % n), len(side_slot))

    def seat_at(name: str, seat: int, row: int = 0) -> None:
        if seat >= 0:
            obs[at[name] + row * SEATS + rel(seat)] = 1.0

    def cards_at(name: str, cards: Sequence[int], row: int = 0) -> None:
        base = at[name] + row * NUM_CARDS
        for c in cards:
            obs[base + c] = 1.0

    cards_at("hand", view.hand)
    assert view.up_card is not None  # the environment refuses Hasenpfeffer
    cards_at("up_card", (view.up_card,))
    obs[at["up_card_fate"] + UP_CARD_FATES.index(up_card_fate(view))] = 1.0
    if view.discard is not None:
        cards_at("discard", (view.discard,))
    obs[at["dealer_discarded"]] = float(view.dealer_discarded)
    obs[at["phase"] + int(view.phase)] = 1.0
    seat_at("to_act", view.to_act)
    seat_at("dealer", view.dealer)
    if view.trump is not None:
        obs[at["trump"] + int(view.trump)] = 1.0
    seat_at("maker", view.maker)
    obs[at["alone"]] = float(view.alone)
    seat_at("lone_defender", view.lone_defender)
    for s in view.sitting_out:
        seat_at("sitting_out", s)

    bids = [(s, a) for s, a in view.actions if a is not None and (a.is_bid or a.kind in _OFFERS)]
    if len(bids) > MAX_BIDS:  # pragma: no cover - the engine allows at most MAX_BIDS
        raise ValueError(f"{len(bids)} bidding decisions in one hand; the layout holds {MAX_BIDS}")
    for i, (s, a) in enumerate(bids):
        seat_at("bid_seats", s, i)
        obs[at["bid_actions"] + i * len(BID_CODES) + _BID_INDEX[a]] = 1.0

    for row, t in enumerate(view.tricks):
        seat_at("trick_leaders", t.leader, row)
        seat_at("trick_winners", t.winner, row)
        for s, c in t.plays:
            obs[at["trick_cards"] + (row * SEATS + rel(s)) * NUM_CARDS + c] = 1.0
            obs[at["played"] + rel(s) * NUM_CARDS + c] = 1.0
    for s, c in view.trick:
        obs[at["trick"] + rel(s) * NUM_CARDS + c] = 1.0
        obs[at["played"] + rel(s) * NUM_CARDS + c] = 1.0
    seat_at("leader", view.leader)
    for s, won in enumerate(view.tricks_won):
        obs[at["tricks_won"] + rel(s)] = won

    for side, points in enumerate(view.scores):
        obs[at["score"] + side_slot[side]] = min(points, COUNT_HIGH)
    if view.points is not None:
        for side, points in enumerate(view.points):
            obs[at["hand_points"] + side_slot[side]] = min(points, COUNT_HIGH)
    obs[at["hand_number"]] = min(view.hand_number, COUNT_HIGH)
    obs[at["players"] + _PLAYERS.index(n)] = 1.0
    for i, value in enumerate((rules.target, rules.deals, rules.duration)):
        if value is not None:
            obs[at["ending"] + i] = value

    for row, (giver, receiver, card, buried) in enumerate(view.gifts):
        seat_at("gift_givers", giver, row)
        seat_at("gift_receivers", receiver, row)
        if card is not None:
            cards_at("gift_cards", (card,), row)
        if buried is not None:
            cards_at("gift_discards", (buried,), row)
    seat_at("misdeal", view.misdeal)
    cards_at("misdeal_hand", view.misdeal_hand)
    seat_at("farmer", view.farmer)
    cards_at("farmer_gave", view.farmer_gave)
    cards_at("farmer_took", view.farmer_took)

    if match_wins is not None:
        for side, wins in enumerate(match_wins):
            obs[at["match_wins"] + side_slot[side]] = min(wins, COUNT_HIGH)
    obs[at["match_games"]] = min(match_games, COUNT_HIGH)
    return obs

