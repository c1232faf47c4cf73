"""The observation of the learning environment: one seat's :class:`~euchre.view.PlayerView` as a
fixed-length ``float32`` vector with named slices, and the action mask.

:func:`encode` reads a view and nothing else (plus, in a match, the public match standing), so an
observation holds exactly what the seat may know: the engine builds the view, and the view has
no path to a hidden card. Every rule set of Euchre shares one layout (:data:`OBSERVATION_FIELDS`):
card slots are the engine's card ids (:data:`~euchre.cards.NUM_CARDS` of them, so 7s, 8s and the
Joker have their place whatever the deck; the cards a deck lacks stay 0), and seats and sides are
counted from the observing seat (0 = itself, 1 = its left, 2 = across, 3 = its right), so one
policy can sit anywhere. ``docs/rl.md`` describes every field.

The sister games (Hasenpfeffer, Bid Euchre and its double deck, Napoleon: RULES-FAMILY.md 14-16)
have no up card, bid tricks and seat up to seven, so each has a layout of its own, sized by its
rules (:func:`layout`): one card slot per card of its pack (the double deck's two copies of a
card share a slot, which counts them, as no player can tell them apart), one seat slot per seat,
one row per trick, the bids it offers; its action space is every engine code
(:data:`~euchre.actions.NUM_ACTIONS`). Euchre's layout is unchanged by them.

>>> from euchre import Game, Rules
>>> view = Game(Rules(), seed=1).view(0)
>>> obs = encode(view)
>>> obs.shape == (OBSERVATION_SIZE,), obs.dtype.name
(True, 'float32')
>>> int(obs[field_slice("hand")].sum()), int(obs[field_slice("up_card")].sum())
(5, 1)
>>> unpack(obs)["bid_actions"].shape
(12, 20)
>>> nap = Rules.preset("napoleon", players=7)
>>> unpack(encode(Game(nap, seed=1).view(0)), nap)["trick_cards"].shape  # 5 tricks, 7 seats, 52 cards
(5, 7, 52)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from euchre.actions import EUCHRE_ACTIONS, MOON, NAPOLEON_BIDS, NUM_ACTIONS, PASS, Kind, bid, call
from euchre.cards import LOW, NO_TRUMP, NUM_ALL_TRUMPS, NUM_CARDS, NUM_TRUMPS, deck_cards, face
from euchre.rules import HAND_SIZE, Rules
from euchre.state import EUCHRE_PHASES, Phase
from euchre.view import PlayerView

__all__ = ["ObservationField", "OBSERVATION_FIELDS", "OBSERVATION_SIZE", "MAX_BIDS", "BID_CODES",
           "UP_CARD_FATES", "COUNT_HIGH", "Layout", "EUCHRE_LAYOUT", "layout", "sister_bid_codes", "card_slots",
           "observation_fields", "field_slice", "unpack", "encode", "action_mask", "up_card_fate",
           "observation_low", "observation_high", "observation_size", "action_count"]

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


def _fields(spec: Sequence[tuple[str, tuple[int, ...], float, float]]
            ) -> tuple[tuple[ObservationField, ...], np.ndarray, np.ndarray]:
    """The fields of ``spec`` (name, shape, lower bound, upper bound) laid end to end, with the
    bounds of every slot."""
    out: list[ObservationField] = []
    lows: list[np.ndarray] = []
    highs: list[np.ndarray] = []
    start = 0
    for name, shape, low, high in spec:
        length = math.prod(shape)
        out.append(ObservationField(name, start, length, shape))
        lows.append(np.full(length, low, dtype=np.float32))
        highs.append(np.full(length, high, dtype=np.float32))
        start += length
    return tuple(out), np.concatenate(lows), np.concatenate(highs)


def _layout() -> tuple[tuple[ObservationField, ...], np.ndarray]:
    fields, _, high = _fields([(name, shape, 0.0, high) for name, shape, high in _SPEC])
    return fields, high


OBSERVATION_FIELDS, _HIGH = _layout()
"""Every field of the observation in vector order, as ``(name, start, length, shape)``."""
OBSERVATION_SIZE = OBSERVATION_FIELDS[-1].start + OBSERVATION_FIELDS[-1].length
"""Length of the observation vector of Euchre (the same for every rule set of Euchre; the sister
games have their own, :func:`observation_size`)."""
_FIELD = {f.name: f for f in OBSERVATION_FIELDS}
_START = {f.name: f.start for f in OBSERVATION_FIELDS}


class Layout(NamedTuple):
    """The observation and action spaces of one game: Euchre's (:data:`EUCHRE_LAYOUT`, every rule
    set of Euchre) or a sister game's, sized by its rules (:func:`layout`)."""

    fields: tuple[ObservationField, ...]
    """Every field, in vector order."""
    size: int
    """The length of the observation vector."""
    low: np.ndarray
    """The lower bound of every slot (negative for the scores of the sister games, which can be)."""
    high: np.ndarray
    """The upper bound of every slot."""
    actions: int
    """The size of the action space (``Discrete(actions)``) and of the action mask: the engine's codes
    ``0 .. actions - 1``."""
    cards: tuple[int, ...]
    """The card id of each card slot: every id (Euchre), or the cards of the sister game's pack."""
    bid_codes: tuple[int, ...]
    """The action code of each ``bid_actions`` slot."""

    def field(self, name: str) -> ObservationField:
        """The field ``name`` (``KeyError`` for a name this layout has not)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


EUCHRE_LAYOUT = Layout(OBSERVATION_FIELDS, OBSERVATION_SIZE, np.zeros(OBSERVATION_SIZE, dtype=np.float32), _HIGH,
                       EUCHRE_ACTIONS, tuple(range(NUM_CARDS)), BID_CODES)
"""The layout of every rule set of Euchre: :data:`OBSERVATION_FIELDS`, ``Discrete(119)``."""


def sister_bid_codes(rules: Rules) -> tuple[int, ...]:
    """The action codes of a sister game's public decisions before play, in the order of its
    ``bid_actions`` slots: ``pass``, the bids from the lowest (Napoleon's 2, 3, misère, 4, Nap,
    Wellington, Blücher), Bid Euchre's ``moon``, then the naming of trump (``call c/d/h/s``, and
    Bid Euchre's high and low: ``call n``, ``call low``); Napoleon names none (its first card led
    fixes trump).

    >>> from euchre.actions import ACTIONS
    >>> [str(ACTIONS[code]) for code in sister_bid_codes(Rules.preset("hasenpfeffer"))][:3]
    ['pass', 'bid 1', 'bid 2']
    """
    if rules.napoleon:
        return (int(PASS), *(int(a) for a in NAPOLEON_BIDS))
    low, high = rules.bid_range
    codes = [int(PASS), *(int(bid(k)) for k in range(low, high + 1))]
    if rules.bid_euchre:
        codes.append(int(MOON))
    codes += [int(call(s)) for s in range(4)]
    if rules.bid_euchre:
        codes += [int(call(NO_TRUMP)), int(call(LOW))]
    return tuple(codes)


def card_slots(rules: Rules) -> tuple[int, ...]:
    """The card id of each card slot of a sister game's layout: its pack in id order (the double
    deck's 24 faces, each slot counting both copies)."""
    return tuple(int(c) for c in deck_cards(rules.deck))


def _top_bid(rules: Rules) -> int:
    """The largest ``view.bid`` of a sister game: Napoleon's Blücher (its place, 7), Bid Euchre's
    moon (the hand's tricks plus one), Hasenpfeffer's 6."""
    if rules.napoleon:
        return len(NAPOLEON_BIDS)
    return rules.hand_size + 1 if rules.bid_euchre else rules.hand_size


@functools.lru_cache(maxsize=64)
def _sister_layout(rules: Rules) -> Layout:
    n, hand, sides = rules.players, rules.hand_size, rules.sides
    cards = card_slots(rules)
    c = len(cards)
    codes = sister_bid_codes(rules)
    copies = 2.0 if rules.double_deck else 1.0
    spec: list[tuple[str, tuple[int, ...], float, float]] = [
        ("hand", (c,), 0.0, copies),
        ("phase", (len(Phase),), 0.0, 1.0),
        ("to_act", (n,), 0.0, 1.0),
        ("dealer", (n,), 0.0, 1.0),
        ("trump", (NUM_ALL_TRUMPS,), 0.0, 1.0),
        ("maker", (n,), 0.0, 1.0),
    ]
    if rules.bid_euchre:
        spec += [("alone", (1,), 0.0, 1.0), ("sitting_out", (n,), 0.0, 1.0)]
    spec += [("high_bid", (1,), 0.0, float(_top_bid(rules))), ("bidder", (n,), 0.0, 1.0)]
    if rules.auction:
        spec.append(("forced_bid", (1,), 0.0, 1.0))
    spec += [
        ("bid_seats", (n + 1, n), 0.0, 1.0),
        ("bid_actions", (n + 1, len(codes)), 0.0, 1.0),
        ("played", (n, c), 0.0, copies),
        ("trick", (n, c), 0.0, 1.0),
        ("leader", (n,), 0.0, 1.0),
        ("trick_leaders", (hand, n), 0.0, 1.0),
        ("trick_cards", (hand, n, c), 0.0, 1.0),
        ("trick_winners", (hand, n), 0.0, 1.0),
        ("tricks_won", (n,), 0.0, float(hand)),
        ("score", (sides,), -COUNT_HIGH, COUNT_HIGH),
        ("hand_points", (sides,), -COUNT_HIGH, COUNT_HIGH),
        ("hand_number", (1,), 0.0, COUNT_HIGH),
        ("ending", (3,), 0.0, COUNT_HIGH),
    ]
    if rules.bid_euchre:
        spec += [("gift_giver", (n,), 0.0, 1.0), ("gift_receiver", (n,), 0.0, 1.0),
                 ("gift_card", (c,), 0.0, 1.0), ("gift_discard", (c,), 0.0, 1.0)]
    if rules.is_match:  # the match's standing, as Euchre's layout has it (only under match rules)
        spec += [("match_wins", (sides,), 0.0, COUNT_HIGH), ("match_games", (1,), 0.0, COUNT_HIGH)]
    fields, low, high = _fields(spec)
    return Layout(fields, fields[-1].start + fields[-1].length, low, high, NUM_ACTIONS, cards, codes)


def layout(rules: Rules | None = None) -> Layout:
    """The layout of ``rules``: :data:`EUCHRE_LAYOUT` for every rule set of Euchre (and for
    ``None``), a sister game's own, sized by its rules (seats, pack, tricks, bids), otherwise.

    >>> layout(Rules()) is EUCHRE_LAYOUT, layout(Rules.preset("bid-euchre-double")).field("hand").shape
    (True, (24,))
    """
    if rules is None or rules.sister_game is None:
        return EUCHRE_LAYOUT
    return _sister_layout(rules)


def observation_fields(rules: Rules | None = None) -> tuple[ObservationField, ...]:
    """``(name, start, length, shape)`` of every field, in order: :data:`OBSERVATION_FIELDS` for
    Euchre, the sister game's own for its rules."""
    return layout(rules).fields


def field_slice(name: str, rules: Rules | None = None) -> slice:
    """The slice of the vector that holds field ``name`` (``KeyError`` for an unknown name)."""
    if rules is None or rules.sister_game is None:
        return _FIELD[name].slice
    return layout(rules).field(name).slice


def unpack(observation: np.ndarray, rules: Rules | None = None) -> dict[str, np.ndarray]:
    """Every field of an observation vector by name, reshaped to the field's shape (views of the
    vector, not copies); ``rules`` for a sister game's observation."""
    return {f.name: observation[f.slice].reshape(f.shape) for f in layout(rules).fields}


def observation_low(rules: Rules | None = None) -> np.ndarray:
    """The lower bound of every slot (0 everywhere in Euchre; the sister games' scores can be
    negative, down to ``-COUNT_HIGH``)."""
    return layout(rules).low.copy()


def observation_high(rules: Rules | None = None) -> np.ndarray:
    """The upper bound of every slot: 1 for the indicators, 5 for tricks won, :data:`COUNT_HIGH`
    for the raw counts (a sister game: its tricks a hand, 2 for the double deck's card counts)."""
    return layout(rules).high.copy()


def observation_size(rules: Rules | None = None) -> int:
    """The length of the observation vector of ``rules`` (:data:`OBSERVATION_SIZE` for Euchre)."""
    return layout(rules).size


def action_count(rules: Rules | None = None) -> int:
    """The size of the action space of ``rules``: ``EUCHRE_ACTIONS`` (119) for Euchre, every engine
    code (``NUM_ACTIONS``, 180) for a sister game."""
    return layout(rules).actions


def action_mask(view: PlayerView) -> np.ndarray:
    """1 at the code of every legal action of the view's seat (all 0 when it is not to act); as
    long as the rules' action space (:func:`action_count`)."""
    mask = np.zeros(layout(view.rules).actions, dtype=np.int8)
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
    if rules.sister_game is not None:
        if (match_wins is not None or match_games) and not rules.is_match:
            raise ValueError(f"these rules of {rules.sister_game} play no match: there is no match standing "
                             "to encode (set match_games or match_wins)")
        return _encode_sister(view, me, match_wins, match_games)
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
    assert view.up_card is not None  # Euchre turns a card up (the sister games are encoded apart)
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



def _encode_sister(view: PlayerView, me: int, match_wins: Sequence[int] | None = None,
                   match_games: int = 0) -> np.ndarray:
    """The observation of a sister game's view, in its own layout (:func:`layout`): the same
    conventions as Euchre's (seats and sides from the observing seat), cards by their slot in the
    game's pack, a double deck's copies counted in their card's slot; under match rules, the
    match's standing last."""
    rules = view.rules
    lay = layout(rules)
    n = rules.players
    obs = np.zeros(lay.size, dtype=np.float32)
    at = {f.name: f.start for f in lay.fields}
    slot = {card: i for i, card in enumerate(lay.cards)}
    c = len(lay.cards)
    bid_index = {code: i for i, code in enumerate(lay.bid_codes)}

    def rel(seat: int) -> int:
        return (seat - me) % n

    def seat_at(name: str, seat: int, row: int = 0) -> None:
        if seat >= 0:
            obs[at[name] + row * n + rel(seat)] = 1.0

    def card_at(name: str, card: int, row: int = 0) -> None:
        obs[at[name] + row * c + slot[face(card)]] += 1.0

    side_slot: dict[int, int] = {}
    for k in range(n):
        side_slot.setdefault(rules.side_of((me + k) % n), len(side_slot))

    for card in view.hand:
        card_at("hand", card)
    obs[at["phase"] + int(view.phase)] = 1.0
    seat_at("to_act", view.to_act)
    seat_at("dealer", view.dealer)
    if view.trump is not None:
        obs[at["trump"] + int(view.trump)] = 1.0
    seat_at("maker", view.maker)
    if rules.bid_euchre:
        obs[at["alone"]] = float(view.alone)
        for s in view.sitting_out:
            seat_at("sitting_out", s)
    obs[at["high_bid"]] = view.bid
    seat_at("bidder", view.bidder)
    if rules.auction:
        obs[at["forced_bid"]] = float(view.forced_bid)

    bids = [(s, a) for s, a in view.actions if a is not None and a.is_bid]
    if len(bids) > n + 1:  # pragma: no cover - one bid a seat and the naming of trump
        raise ValueError(f"{len(bids)} bidding decisions in one hand; the layout holds {n + 1}")
    for i, (s, a) in enumerate(bids):
        seat_at("bid_seats", s, i)
        if a not in bid_index:  # pragma: no cover - sister_bid_codes lists every bid of the game
            raise ValueError(f"{a} is no bid of {rules.sister_game} in the layout ({lay.bid_codes})")
        obs[at["bid_actions"] + i * len(lay.bid_codes) + bid_index[a]] = 1.0

    for row, t in enumerate(view.tricks):
        seat_at("trick_leaders", t.leader, row)
        seat_at("trick_winners", t.winner, row)
        for s, card in t.plays:
            card_at("trick_cards", card, row * n + rel(s))
            card_at("played", card, rel(s))
    for s, card in view.trick:
        card_at("trick", card, rel(s))
        card_at("played", card, rel(s))
    seat_at("leader", view.leader)
    for s, won in enumerate(view.tricks_won):
        obs[at["tricks_won"] + rel(s)] = won

    def clip(points: int) -> float:
        return max(-COUNT_HIGH, min(float(points), COUNT_HIGH))

    for side, points in enumerate(view.scores):
        obs[at["score"] + side_slot[side]] = clip(points)
    if view.points is not None:
        for side, points in enumerate(view.points):
            obs[at["hand_points"] + side_slot[side]] = clip(points)
    obs[at["hand_number"]] = min(view.hand_number, COUNT_HIGH)
    for i, value in enumerate((rules.target, rules.deals, rules.duration)):
        if value is not None:
            obs[at["ending"] + i] = value

    if rules.bid_euchre:
        for giver, receiver, card_given, buried in view.gifts[:1]:  # the moon's one gift
            seat_at("gift_giver", giver)
            seat_at("gift_receiver", receiver)
            if card_given is not None:
                card_at("gift_card", card_given)
            if buried is not None:
                card_at("gift_discard", buried)
    if rules.is_match:
        for side, wins in enumerate(match_wins or ()):
            obs[at["match_wins"] + side_slot[side]] = min(wins, COUNT_HIGH)
        obs[at["match_games"]] = min(match_games, COUNT_HIGH)
    return obs
