"""The rules of a game as one frozen configuration object, and the named presets.

Every variant of ``RULES.md`` is a preset of the same :class:`Rules`: the engine reads fields,
never a variant's name. Invalid combinations are refused at construction with a
:class:`~euchre.errors.RulesError` naming the field, so a bad ``--rules`` never reaches play.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from euchre.cards import DECK_SIZES
from euchre.errors import RulesError

__all__ = ["Rules", "PRESETS", "LONER_LEADS", "FIELD_BOUNDS", "HAND_SIZE", "SIDE_SEATS"]

LONER_LEADS = ("dealer_left", "loner_left")

HAND_SIZE = 5
"""Cards dealt to each seat, and so tricks in a hand (:attr:`Rules.hand_size`, for code with no
``Rules`` at hand)."""

SIDE_SEATS: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 2), (1, 3)),
    3: ((0,), (1,), (2,)),
    2: ((0,), (1,)),
    **{n: tuple((s,) for s in range(n)) for n in (5, 6, 7)},
}
"""The seats of each scoring side, by number of players: partnerships 0+2 and 1+3 with four,
else one side per seat (Napoleon's five to seven too). Every other seat question (side,
partner, opponents) is derived from this table once, below, and answered by :class:`Rules`;
Napoleon's four players, each for themselves, are :data:`_ALONE` (no partnerships)."""
_ALONE: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (3,))
"""The sides of four players each for themselves (Napoleon)."""

_SIDE_OF = {n: tuple(next(i for i, seats in enumerate(sides) if s in seats) for s in range(n))
            for n, sides in SIDE_SEATS.items()}
"""_SIDE_OF[players][seat]: the side a seat scores for."""
_PARTNER = {n: tuple(next((o for o in SIDE_SEATS[n][_SIDE_OF[n][s]] if o != s), None) for s in range(n))
            for n in SIDE_SEATS}
"""_PARTNER[players][seat]: the seat's partner, ``None`` without partnerships."""
_OPPONENTS = {n: tuple(tuple(o for o in range(n) if _SIDE_OF[n][o] != _SIDE_OF[n][s]) for s in range(n))
              for n in SIDE_SEATS}
"""_OPPONENTS[players][seat]: the seats of the other sides, in seat order."""

FIELD_BOUNDS: dict[str, tuple[int, int]] = {
    "target": (1, 1000),
    "duration": (0, 1440),  # minutes; the lower bound is exclusive (a duration must be above 0)
    "deals": (1, 10_000),
    "make_points": (1, 100),
    "march_points": (1, 100),
    "loner_march_points": (0, 100),
    "euchre_points": (1, 100),
    "loner_euchre_points": (0, 100),
    "lone_defender_euchre_points": (0, 100),
    "super_euchre_points": (0, 100),
    "match_games": (1, 99),
    "match_wins": (1, 99),
}
"""Inclusive ranges of the numeric fields (``players`` and ``deck`` take a fixed set of values).

Generous for any table, yet a game's every score stays far inside 32-bit integers: at most 100
points a hand over at most 10,000 played hands (or a target of 1,000) is about a million. Stores
and JSON encoders downstream (SQLite, orjson) can therefore take any valid ``Rules`` as it is.
"""

_SCORES_NOTHING = {"make_points": "a made hand", "march_points": "a march", "euchre_points": "a euchre"}
"""The point fields that must be at least 1: the basic outcomes of a hand."""

_SHOW_MAX = 40
"""Longest shown value in an error message; a longer one is cut (a huge int shown as ``~1e+30``)."""


def _show(value: Any) -> str:
    """``repr(value)`` for an error message, kept short whatever the value.

    Ints of more than 66 bits (about 20 digits) are shown by magnitude, never converted to text
    (which takes quadratic time and, past 4,300 digits, raises ``ValueError`` in Python itself).
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 66:
        magnitude = math.log10(abs(value))  # exact enough for three digits at any size that fits in memory
        exponent = int(magnitude)
        mantissa = f"{10 ** (magnitude - exponent):.3g}"
        if mantissa == "10":
            mantissa, exponent = "1", exponent + 1
        return f"~{'-' if value < 0 else ''}{mantissa}e+{exponent}"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails (a huge int inside a container): say what it is
        return f"<{type(value).__name__}>"
    return text if len(text) <= _SHOW_MAX else text[:_SHOW_MAX - 3] + "..."


@dataclass(frozen=True, kw_only=True)
class Rules:
    """How a game is played. Build one with :meth:`preset` or field by field.

    >>> Rules.preset("british", stick_the_dealer=True).target
    11

    A field left out takes its default; ``march_points`` follows the player count:

    >>> Rules().march_points, Rules(players=3, deck=20, going_alone=False).march_points
    (2, 3)
    """

    players: int = 4
    """Number of seats: 4 (partnerships 0+2 and 1+3), 3 (cut-throat) or 2; Napoleon 3 to 7."""
    deck: int = 24
    """Deck size: 24 (9 to A), 32 (7 to A), 25 (24 plus the Joker) or 20 (10 to A); Napoleon's 28 (8 to A)
    or 52, the double deck's 48."""
    target: int | None = 10
    """Points to win, 1 to 1000; ``None`` when the game ends by ``duration`` or ``deals`` instead."""
    duration: float | None = None
    """Minutes of a timed game, above 0 and at most 1440; the clock is read at the end of every hand."""
    deals: int | None = None
    """Number of played hands (thrown-in hands not counted) of a progressive game, 1 to 10000."""
    going_alone: bool = True
    """May the maker declare alone (four players only)."""
    stick_the_dealer: bool = False
    """The dealer may not pass in round 2 and must name a suit."""
    canadian_loner: bool = False
    """The dealer's partner may order up in round 1 only by going alone."""
    defend_alone: bool = False
    """Against a lone maker, one defender may declare to defend alone."""
    loner_lead: str = "dealer_left"
    """Who leads against a loner: ``dealer_left`` (first active seat) or ``loner_left``."""
    no_trump: bool = False
    """In round 2 a seat may call no trump instead of a suit (``call n``): A K Q J 10 9 in every suit."""
    low_no_trump: bool = False
    """With no_trump, round 2 also offers low (``call low``): no trump with the 9 highest."""
    call_for_best: bool = False
    """A lone player receives a card from the partner and discards one of six (RULES-FAMILY.md
    12.2): the partner's highest trump, given by the engine, else a card the partner chooses."""
    best_card_free: bool = False
    """With call_for_best, the partner always chooses the card to give (the Bicycle reading)."""
    ace_no_face: bool = False
    """Before bidding, a seat holding no K, Q, J or Joker and at most one ace may call a misdeal:
    the same dealer deals again (RULES-FAMILY.md 12.4)."""
    farmers_hand: bool = False
    """Before bidding, a seat holding only 9s and 10s may give three cards and take the three
    under the up card (RULES-FAMILY.md 12.3; the 24-card deck only)."""
    # Points of a hand: 1 to 100 for the three basic outcomes (make, march, euchre), 0 to 100 for
    # the others (FIELD_BOUNDS).
    make_points: int = 1
    """Makers who take 3 or 4 tricks."""
    march_points: int = None  # type: ignore[assignment]  # by the player count, set in __post_init__
    """Makers who take all 5 tricks. By default it follows the player count (RULES.md section 6):
    3 with three players (cut-throat), else 2; set it to any value from 1 to 100."""
    loner_march_points: int = 4
    """A lone maker who takes all 5 tricks."""
    euchre_points: int = 2
    """Defenders (each opponent in cut-throat) when the makers take fewer than 3."""
    loner_euchre_points: int = 2
    """Defenders who euchre a lone maker."""
    lone_defender_euchre_points: int = 4
    """A lone defender who euchres the lone maker."""
    super_euchre: bool = False
    """Makers who take no trick give the defenders ``super_euchre_points``."""
    super_euchre_points: int = 4
    """Value of a super-euchre (the largest applicable euchre value counts)."""
    dealer_may_discard_up_card: bool = True
    """May the dealer bury the card just picked up (or the turned-up Joker)."""
    tie_break: bool = True
    """No tie for first: equal leaders at the end play on hand by hand until one is alone on top."""
    match_games: int | None = None
    """A match of this many games, all played; the most game wins takes it (a tie adds a game)."""
    match_wins: int | None = None
    """A match to this many game wins: the first side to reach it takes the match."""
    laps: bool = False
    """In a match, the winner starts the next game with its final score less the target."""
    slam: bool = False
    """In a match, a game won while every other side has 0 or less counts as two wins."""
    auction: bool = False
    """Hasenpfeffer (RULES-FAMILY.md 14): six cards each and one unused, no up card; one bid each
    of 1 to 6 tricks, the Joker's holder forced to 3 when all pass; the high bidder names trump and
    leads; the makers score their tricks if they take the bid, else lose it."""
    defenders_score_tricks: bool = False
    """With auction, the defenders score the tricks they take (both rows of the table)."""
    napoleon: bool = False
    """Napoleon (RULES-FAMILY.md 16): three to seven players, each for themselves, the pack by
    the table's size (24, 28, 32 or 52 cards), five cards each; one bid each of 2, 3, misère, 4,
    Nap, Wellington or Blücher, all passing throws the hand in; the first card led fixes trump
    (no bowers); the bidder is paid or pays every other seat; by default 2 x players deals."""
    nap_half_loss: bool = False
    """With napoleon, a failed Nap costs 5 a seat instead of 10 (Wellington and Blücher in full)."""
    double_deck: bool = False
    """With bid_euchre: two 24-card packs, 48 cards with each card twice, twelve each, bids 6 to
    12 and the moon of all twelve (+-24); of two identical cards the one played first ranks higher."""
    bid_euchre: bool = False
    """Bid Euchre (RULES-FAMILY.md 15): 24 cards, six each, no up card; one bid each of 3 to 6
    tricks or the moon (every trick alone, after the partner's card), the dealer stuck to bid when
    all pass; trump a suit, high or low; both sides score their tricks, a failed bid loses the
    bid; a side wins at the target only on a hand it made its bid or set the makers."""

    PRESET_ALIASES: ClassVar[dict[str, str]] = {}

    def __post_init__(self) -> None:
        if self.march_points is None:  # the default: by the player count (Napoleon has no march)
            object.__setattr__(self, "march_points", 2 if self.napoleon else _default_march_points(self.players))
        self._validate()

    # --- validation ---------------------------------------------------------------------------
    def _validate(self) -> None:
        def bad(name: str, why: str) -> RulesError:
            return RulesError(f"Rules.{name}: {why} (got {_show(getattr(self, name))})")

        for name in (f.name for f in dataclasses.fields(self)):
            value = getattr(self, name)
            expected = _FIELD_TYPES[name]
            if expected is bool and not isinstance(value, bool):
                raise bad(name, "must be true or false")
            if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
                bounds = FIELD_BOUNDS.get(name)
                raise bad(name, f"must be a whole number from {bounds[0]} to {bounds[1]}" if bounds
                          else "must be a whole number")
        if self.napoleon:
            if not (isinstance(self.players, int) and 3 <= self.players <= 7):
                raise bad("players", "Napoleon (napoleon=True) is for three to seven players")
            want = NAPOLEON_DECK[self.players]
            if self.deck != want:
                raise bad("deck", f"Napoleon with {self.players} players uses the {want}-card pack "
                                  "(3: 24, 4: 28, 5: 32, 6 or 7: 52), no other")
        else:
            if self.players not in (2, 3, 4):
                raise bad("players", "must be 2, 3 or 4 (Napoleon, napoleon=True, seats three to seven)")
            if self.deck not in DECK_SIZES:
                raise bad("deck", "must be 20, 24, 25 (with the Joker) or 32")
        self._validate_napoleon(bad)
        if self.players * HAND_SIZE + 1 > self.deck:
            raise bad("deck", f"too small to deal five cards to {self.players} players plus an up card")
        endings = [n for n in ("target", "duration", "deals") if getattr(self, n) is not None]
        if len(endings) != 1:
            raise RulesError(
                "Rules.target/duration/deals: a game has exactly one ending "
                f"(a target score, a duration or a number of deals); got {' and '.join(endings) or 'none'}"
            )
        for name, unit in (("target", "points"), ("deals", "played hands")):
            value = getattr(self, name)
            low, high = FIELD_BOUNDS[name]
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise bad(name, f"must be a whole number of {unit} from {low} to {high}, or None")
            if value is not None and not low <= value <= high:
                raise bad(name, f"must be from {low} to {high} {unit}")
        if self.duration is not None:
            _, high = FIELD_BOUNDS["duration"]
            value = self.duration
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad("duration", f"must be a number of minutes, above 0 and at most {high}, or None")
            # Compared before any float conversion: math.isfinite(10**400) would raise OverflowError.
            if not 0 < value <= high or (isinstance(value, float) and not math.isfinite(value)):
                raise bad("duration", f"must be above 0 and at most {high} minutes")
        if self.loner_lead not in LONER_LEADS:
            raise bad("loner_lead", f"must be one of {', '.join(LONER_LEADS)}")
        self._validate_match(bad)
        for name in ("make_points", "march_points", "loner_march_points", "euchre_points",
                     "loner_euchre_points", "lone_defender_euchre_points", "super_euchre_points"):
            low, high = FIELD_BOUNDS[name]
            value = getattr(self, name)
            if not low <= value <= high:
                what = _SCORES_NOTHING.get(name) if value == 0 else None
                why = f"; at 0 {what} would score nothing" if what else ""
                raise bad(name, f"must be from {low} to {high} points{why}")
        if self.players != 4:
            who = "two-handed" if self.players == 2 else "cut-throat (three-handed)"
            if self.going_alone:
                raise bad("going_alone", f"{who} Euchre has no alone declaration; set going_alone=False "
                                          "(--no-going-alone), or use its preset")
            if self.canadian_loner:
                raise bad("canadian_loner", f"needs four players; {who} has no partner to the dealer")
            if self.defend_alone:
                raise bad("defend_alone", "needs four players")
            if self.loner_lead != "dealer_left":
                raise bad("loner_lead", "needs four players")
            for name in ("no_trump", "low_no_trump"):
                if getattr(self, name):
                    raise bad(name, f"is a house rule of four-player Euchre; {who} Euchre has no such call")
        else:
            if self.canadian_loner and not self.going_alone:
                raise bad("canadian_loner", "needs going_alone=True (the partner must go alone)")
            if self.defend_alone and not self.going_alone:
                raise bad("defend_alone", "needs going_alone=True (there is no loner to defend against)")
        self._validate_no_trump(bad)
        self._validate_call_for_best(bad)
        self._validate_offers(bad)
        self._validate_auction(bad)
        self._validate_bid_euchre(bad)

    def _validate_napoleon(self, bad: Any) -> None:
        """RULES-FAMILY.md 16, 18.1 and 18.9: Napoleon takes any ending (a match, as every game,
        needs a target), none of RULES.md's switches and no house rule; ``nap_half_loss`` only
        with it."""
        if self.nap_half_loss and not self.napoleon:
            raise bad("nap_half_loss", "needs napoleon=True (it is Napoleon's half loss of a failed Nap)")
        if not self.napoleon:
            return
        for other in ("auction", "bid_euchre"):
            if getattr(self, other):
                raise bad("napoleon", f"and {other}=True are two different games; choose one")
        for name, value in _AUCTION_FIXED.items():
            if getattr(self, name) != value:
                raise bad(name, f"is not a rule of Napoleon (napoleon=True); it must stay {value!r}")
        if self.defenders_score_tricks:
            raise bad("defenders_score_tricks", "is a Hasenpfeffer switch; Napoleon has no defenders' score")

    def _validate_bid_euchre(self, bad: Any) -> None:
        """RULES-FAMILY.md 15, 18.1 and 18.8: Bid Euchre is four players with the 24-card deck
        and a target the only ending; RULES.md's switches and the house rules are refused in it."""
        if self.double_deck and not self.bid_euchre:
            raise bad("double_deck", "needs bid_euchre=True (Bid Euchre's double deck)")
        if not self.bid_euchre:
            return
        if self.players != 4:
            raise bad("players", "Bid Euchre (bid_euchre=True) needs four players")
        if self.deck != 24:
            raise bad("deck", "Bid Euchre (bid_euchre=True) needs the 24-card deck")
        if self.target is None:
            raise RulesError("Rules.target: Bid Euchre (bid_euchre=True) ends at a target score only "
                             f"(got {'a duration' if self.duration is not None else 'a number of deals'})")
        for name, value in _AUCTION_FIXED.items():
            if getattr(self, name) != value:
                raise bad(name, f"is not a rule of Bid Euchre (bid_euchre=True); it must stay {value!r}")

    def _validate_auction(self, bad: Any) -> None:
        """RULES-FAMILY.md 14, 18.1 and 18.7: Hasenpfeffer is four players with the Joker's deck,
        no alone, a target the only ending; RULES.md's switches of sections 4 and 6 and the house
        rules of section 12 are refused in it."""
        if self.bid_euchre and self.auction:
            raise bad("bid_euchre", "and auction=True (Hasenpfeffer) are two different games; choose one")
        if self.defenders_score_tricks and not self.auction:
            why = ("in Bid Euchre the defenders always score their tricks" if self.bid_euchre
                   else "needs auction=True (Hasenpfeffer's trick scoring)")
            raise bad("defenders_score_tricks", why)
        if not self.auction:
            return
        if self.players != 4:
            raise bad("players", "Hasenpfeffer (auction=True) needs four players")
        if self.deck != 25:
            raise bad("deck", "Hasenpfeffer (auction=True) needs the 25-card deck with the Joker")
        if self.target is None:
            raise RulesError("Rules.target: Hasenpfeffer (auction=True) ends at a target score only "
                             f"(got {'a duration' if self.duration is not None else 'a number of deals'})")
        defaults = _AUCTION_FIXED
        for name, value in defaults.items():
            if getattr(self, name) != value:
                raise bad(name, f"is not a rule of Hasenpfeffer (auction=True); it must stay {value!r}")

    def _validate_offers(self, bad: Any) -> None:
        """RULES-FAMILY.md 12.3, 12.4 and 18.1: the offers only in four-player Euchre; the
        farmer's hand needs the 24-card deck (the stock is the up card and the three under it)."""
        for name in ("ace_no_face", "farmers_hand"):
            if getattr(self, name) and self.players != 4:
                who = "two-handed" if self.players == 2 else "cut-throat (three-handed)"
                raise bad(name, f"is a house rule of four-player Euchre; {who} Euchre has no such offer")
        if self.farmers_hand and self.deck != 24:
            raise bad("farmers_hand", f"needs the 24-card deck (deck=24): with {self.deck} cards the stock "
                                      "is not the up card and the three cards under it")

    def _validate_call_for_best(self, bad: Any) -> None:
        """RULES-FAMILY.md 12.2 and 18.1: call for best only in four-player Euchre, with going
        alone (a loner is who calls); best_card_free only with call_for_best."""
        if self.best_card_free and not self.call_for_best:
            raise bad("best_card_free", "needs call_for_best=True (it says how the partner gives the card)")
        if self.call_for_best and self.players != 4:
            who = "two-handed" if self.players == 2 else "cut-throat (three-handed)"
            raise bad("call_for_best", f"is a house rule of four-player Euchre; {who} Euchre has no partner "
                                       "to give a card")
        if self.call_for_best and not self.going_alone:
            raise bad("call_for_best", "needs going_alone=True (only a lone player calls for the partner's best card)")

    def _validate_no_trump(self, bad: Any) -> None:
        """RULES-FAMILY.md 12.1: low needs no trump; no trump needs the 24-card deck (the Joker
        has no agreed rank in a hand without trump)."""
        if self.low_no_trump and not self.no_trump:
            raise bad("low_no_trump", "needs no_trump=True (low is a kind of no trump)")
        if self.no_trump and self.deck != 24:
            why = ("the Joker has no agreed rank in a hand without trump" if self.has_joker
                   else "no trump is played with the 24-card deck only")
            raise bad("no_trump", f"needs the 24-card deck (deck=24): {why}")

    def _validate_match(self, bad: Any) -> None:
        """RULES-FAMILY.md 12.5: at most one of match_games and match_wins; a match needs a target
        ending; laps and slam need a match."""
        for name in ("match_games", "match_wins"):
            value = getattr(self, name)
            low, high = FIELD_BOUNDS[name]
            wrong = isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high
            if value is not None and wrong:
                raise bad(name, f"must be a whole number of games from {low} to {high}, or None")
        if self.match_games is not None and self.match_wins is not None:
            raise RulesError("Rules.match_games/match_wins: a match is played to a number of games or to a "
                             f"number of wins, not both (got {self.match_games} and {self.match_wins})")
        if self.is_match and self.target is None:
            raise RulesError("Rules.match_games/match_wins: a match needs games played to a target score "
                             "(not to a duration or a number of deals)")
        for name in ("laps", "slam"):
            if getattr(self, name) and not self.is_match:
                raise bad(name, "needs a match (match_games or match_wins)")

    # --- derived facts --------------------------------------------------------------------------
    @property
    def is_match(self) -> bool:
        """The rules play a match of several games (RULES-FAMILY.md 12.5), not one game."""
        return self.match_games is not None or self.match_wins is not None

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 partnerships with four players, else one per seat (and one
        per seat in Napoleon, four players included)."""
        return 2 if self.players == 4 and not self.napoleon else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for.

        >>> Rules().side_of(3), Rules.preset("cut-throat").side_of(2), Rules.preset("napoleon").side_of(2)
        (1, 2, 2)
        """
        return seat if self.napoleon else _SIDE_OF[self.players][seat]

    @property
    def side_seats(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, in side order (the server's ``sides`` frame field).

        >>> Rules().side_seats, Rules.preset("two-handed").side_seats
        (((0, 2), (1, 3)), ((0,), (1,)))
        """
        if self.napoleon and self.players == 4:
            return _ALONE
        return SIDE_SEATS[self.players]

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``."""
        return self.side_seats[side]

    def partner(self, seat: int) -> int | None:
        """A seat's partner (four players, but for Napoleon), else ``None``.

        >>> Rules().partner(1), Rules.preset("cut-throat").partner(1) is None
        (3, True)
        """
        return None if self.napoleon else _PARTNER[self.players][seat]

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats of every other side, in seat order.

        >>> Rules().opponents(0), Rules.preset("cut-throat").opponents(1), Rules.preset("napoleon").opponents(0)
        ((1, 3), (0, 2), (1, 2, 3))
        """
        if self.napoleon:
            return tuple(s for s in range(self.players) if s != seat)
        return _OPPONENTS[self.players][seat]

    @property
    def has_joker(self) -> bool:
        """True for the 25-card deck with the Joker (British rules)."""
        return self.deck == 25

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat, and so tricks in a hand: 6 in Hasenpfeffer (``auction``) and
        Bid Euchre, else :data:`HAND_SIZE`."""
        if self.double_deck:
            return 12
        return 6 if self.auction or self.bid_euchre else HAND_SIZE

    @property
    def has_up_card(self) -> bool:
        """A card is turned up after the deal (every game but the auctions: Hasenpfeffer, whose
        25th card lies face down, unused, Bid Euchre, which deals every card, and Napoleon)."""
        return not (self.auction or self.bid_euchre or self.napoleon)

    @property
    def bids_tricks(self) -> bool:
        """The hand opens with an auction of tricks (Hasenpfeffer, Bid Euchre) instead of the
        up card's two rounds."""
        return self.auction or self.bid_euchre

    @property
    def sister_game(self) -> str | None:
        """The name of the sister game these rules play (RULES-FAMILY.md 14-16), ``None`` for
        Euchre itself (every variant and house rule of it)."""
        if self.auction:
            return "Hasenpfeffer"
        if self.bid_euchre:
            return "double-deck Bid Euchre" if self.double_deck else "Bid Euchre"
        if self.napoleon:
            return "Napoleon"
        return None

    @property
    def bid_range(self) -> tuple[int, int]:
        """The lowest and highest bid of tricks of an auction game (Hasenpfeffer 1-6, Bid
        Euchre 3-6); ``(0, 0)`` without an auction."""
        if self.auction:
            return 1, self.hand_size
        if self.bid_euchre:
            return (6 if self.double_deck else 3), self.hand_size
        return 0, 0

    @property
    def moon_points(self) -> int:
        """Bid Euchre: what a moon wins or loses (twice the top bid: 12, with the double deck 24);
        0 in other games."""
        return 2 * self.hand_size if self.bid_euchre else 0

    def time_is_up(self, elapsed: float) -> bool:
        """A timed game: whether a hand ending ``elapsed`` seconds into the game ends it (when the
        scores are not tied, or ties may stand); ``False`` for a game that is not timed."""
        return self.duration is not None and elapsed >= self.duration * 60

    def refuse_six_cards(self, what: str) -> None:
        """Raise :class:`RulesError` if these rules deal six-card hands (Hasenpfeffer, Bid
        Euchre), which ``what`` (a consumer of the engine) does not support yet.

        >>> Rules.preset("hasenpfeffer").refuse_six_cards("the solver")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        euchre.errors.RulesError: Rules.auction: the solver does not support Hasenpfeffer (six-card hands, ...) yet
        """
        game = self.sister_game
        if game is not None:
            field = "auction" if self.auction else "bid_euchre" if self.bid_euchre else "napoleon"
            why = ("three to seven players, each for themselves" if self.napoleon
                   else "twelve-card hands, every card twice" if self.double_deck
                   else "six-card hands, bids of tricks")
            raise RulesError(f"Rules.{field}: {what} does not support {game} ({why}) yet")

    def refuse_napoleon(self, what: str) -> None:
        """Raise :class:`RulesError` if these rules play Napoleon, which ``what`` does not support
        yet (for the consumers that play the six-card games but not Napoleon)."""
        if self.napoleon:
            raise RulesError(f"Rules.napoleon: {what} does not support Napoleon (three to seven players, each "
                             "for themselves) yet")

    def fixed_fields(self) -> frozenset[str]:
        """The fields a table of these rules offers no choice of, so a page of switches leaves
        them out (the server's start page): in a sister game, RULES.md's switches and house rules
        it has none of, its players and deck, and every ending but the target (Napoleon takes any);
        in Euchre, the sister games' own fields (another game is another preset, not a switch).
        A match, with its laps and slam, is open to every game with a target.

        >>> hp = Rules.preset("hasenpfeffer")
        >>> sorted(set(hp.to_dict()) - hp.fixed_fields())
        ['defenders_score_tricks', 'laps', 'match_games', 'match_wins', 'slam', 'target']
        """
        own = {"auction", "bid_euchre", "double_deck", "defenders_score_tricks", "napoleon", "nap_half_loss"}
        if self.sister_game is None:
            return frozenset(own)
        if self.napoleon:  # any ending and table size; the pack follows the size
            return frozenset(_AUCTION_FIXED) | {"deck"} | (own - {"nap_half_loss"})
        kept = {"defenders_score_tricks"} if self.auction else set()
        return frozenset(_AUCTION_FIXED) | {"players", "deck", "duration", "deals"} | (own - kept)

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "american", **overrides: Any) -> Rules:
        """A named preset (or alias), with any field overridden.

        Setting one ending (``target``, ``duration`` or ``deals``) clears the preset's other
        ending, so ``Rules.preset("american", deals=8)`` and ``Rules.preset("timed", target=5)``
        mean what they say.
        """
        key = cls.resolve_preset(name)
        base = dict(PRESETS[key])
        endings = ("target", "duration", "deals")
        if base.get("napoleon") and isinstance(overrides.get("players"), int):
            # Napoleon's pack and its default ending (2 x players deals) follow the table's size.
            base["deck"] = NAPOLEON_DECK.get(overrides["players"], base["deck"])
            base["deals"] = 2 * overrides["players"]
        given = [k for k in endings if overrides.get(k) is not None]
        if given:
            for k in endings:
                if k not in overrides:
                    base[k] = None
        base.update(overrides)
        unknown = set(base) - set(_FIELD_TYPES)
        if unknown:
            raise RulesError(f"Rules: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(_FIELD_TYPES)}")
        return cls(**base)

    @staticmethod
    def resolve_preset(name: str) -> str:
        """The canonical preset name for a name or alias; raises :class:`RulesError`."""
        if not isinstance(name, str):
            raise RulesError(f"a preset is named by a string, one of {', '.join(PRESETS)}; got {name!r}")
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        if key in PRESETS:
            return key
        if key in _ALIASES:
            return _ALIASES[key]
        raise RulesError(f"unknown rules preset {name!r}; presets: {', '.join(PRESETS)}")

    @staticmethod
    def preset_names() -> list[str]:
        """The canonical preset names."""
        return list(PRESETS)

    @staticmethod
    def aliases(name: str) -> list[str]:
        """The aliases of a canonical preset name."""
        return [a for a, k in _ALIASES.items() if k == name]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again). A ``march_points`` that is the
        default of the old player count follows a new ``players`` unless given too.

        >>> Rules().replace(players=3, deck=20, going_alone=False).march_points
        3
        """
        if ("players" in changes and "march_points" not in changes
                and self.march_points == _default_march_points(self.players)):
            changes["march_points"] = None
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """All fields as plain values (for records and JSON). Every field is a scalar, so a flat
        copy is enough (``dataclasses.asdict`` costs 50 µs, too much for every server frame)."""
        return {name: getattr(self, name) for name in _FIELD_TYPES}

    def diff(self, other: Rules | None = None) -> dict[str, Any]:
        """Fields that differ from ``other`` (default: the American preset)."""
        base = (other or Rules()).to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a mapping of fields; unknown fields are refused by name."""
        unknown = set(data) - set(_FIELD_TYPES)
        if unknown:
            raise RulesError(f"Rules: unknown field(s) {', '.join(sorted(unknown))}")
        return cls(**data)

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name in PRESETS:
            if Rules.preset(name) == self:
                return name
        return None

    def ending_text(self) -> str:
        """How the game ends, in words."""
        if self.target is not None:
            return f"first to {self.target} points"
        if self.duration is not None:
            return f"{self.duration:g} minute{'' if self.duration == 1 else 's'}, highest score"
        return f"{self.deals} played hands, highest score"


def _default_march_points(players: object) -> int:
    """The points of a march when ``march_points`` is not given: the row of RULES.md section 6
    for the player count (3 in cut-throat, else 2)."""
    return 3 if players == 3 else 2


_FIELD_TYPES: dict[str, type] = {
    "players": int, "deck": int, "target": object, "duration": object, "deals": object,
    "going_alone": bool, "stick_the_dealer": bool, "canadian_loner": bool, "defend_alone": bool,
    "loner_lead": str, "no_trump": bool, "low_no_trump": bool, "call_for_best": bool,
    "best_card_free": bool, "ace_no_face": bool, "farmers_hand": bool, "make_points": int, "march_points": int,
    "loner_march_points": int,
    "euchre_points": int, "loner_euchre_points": int, "lone_defender_euchre_points": int,
    "super_euchre": bool, "super_euchre_points": int, "dealer_may_discard_up_card": bool,
    "tie_break": bool, "match_games": object, "match_wins": object, "laps": bool, "slam": bool,
    "auction": bool, "defenders_score_tricks": bool, "bid_euchre": bool, "double_deck": bool, "napoleon": bool,
    "nap_half_loss": bool,
}

NAPOLEON_DECK: dict[int, int] = {3: 24, 4: 28, 5: 32, 6: 52, 7: 52}
"""Napoleon's pack by the number of players (RULES-FAMILY.md 16): 9-A, 8-A, 7-A, then the full pack."""

_AUCTION_FIXED: dict[str, Any] = {
    "going_alone": False, "stick_the_dealer": False, "canadian_loner": False, "defend_alone": False,
    "loner_lead": "dealer_left", "no_trump": False, "low_no_trump": False, "call_for_best": False,
    "best_card_free": False, "ace_no_face": False, "farmers_hand": False, "make_points": 1,
    "march_points": 2, "loner_march_points": 4, "euchre_points": 2, "loner_euchre_points": 2,
    "lone_defender_euchre_points": 4, "super_euchre": False, "super_euchre_points": 4,
    "dealer_may_discard_up_card": True, "tie_break": True,
}
"""The fields the sister games leave at their defaults: RULES.md's switches of sections 4 and 6
and the house rules of section 12 do not exist in them, and a tie for first is never allowed to
stand. A match (RULES-FAMILY.md 12.5: "the match fields serve any game with a target") is open to
each of them."""

PRESETS: dict[str, dict[str, Any]] = {
    "american": {},
    "british": {"deck": 25, "target": 11, "canadian_loner": True},
    "long": {"target": 15},
    "timed": {"target": None, "duration": 30},
    "two-handed": {"players": 2, "going_alone": False},
    "cut-throat": {"players": 3, "deck": 20, "going_alone": False},
    "railroad": {"deck": 25, "call_for_best": True, "defend_alone": True, "loner_euchre_points": 4,
                 "lone_defender_euchre_points": 4},
    "hasenpfeffer": {"deck": 25, "auction": True, "going_alone": False},
    "bid-euchre": {"bid_euchre": True, "target": 32, "going_alone": False},
    "bid-euchre-double": {"bid_euchre": True, "double_deck": True, "target": 50, "going_alone": False},
    "napoleon": {"napoleon": True, "players": 4, "deck": 28, "target": None, "deals": 8, "going_alone": False},
}
"""Field overrides of each preset over the defaults (which are the American rules)."""

PRESET_DESCRIPTIONS: dict[str, str] = {
    "american": "four players, 24 cards, first to 10, going alone allowed",
    "british": "four players, 25 cards with the Joker, first to 11, Canadian loner",
    "long": "the American game to 15 points",
    "timed": "the American game for 30 minutes (duration settable), highest score wins",
    "two-handed": "two players, 24 cards (deck=32 for 7s and 8s), the dealer's optional pick-up",
    "cut-throat": "three players, 20 cards, the maker plays alone; 1 / 3 / 2 to each opponent",
    "railroad": "four players, 25 cards with the Joker, first to 10, call for best and defend alone; "
                "a euchred loner gives 4",
    "hasenpfeffer": "four players, 25 cards with the Joker, six each and one unused; one bid each of 1 to 6 "
                    "tricks, the Joker's holder forced to 3; first to 10, back door at -10",
    "bid-euchre": "four players, 24 cards, six each; one bid each of 3 to 6 tricks or the moon, the dealer "
                  "stuck; trump a suit, high or low; first to 32 on a made bid or a set, back door at -32",
    "bid-euchre-double": "Bid Euchre with two packs: 48 cards, each card twice, twelve each; bids 6 to 12 or the "
                         "moon (+-24); first to 50",
    "napoleon": "three to seven players each for themselves (the preset: four, 28 cards), five each; one bid each "
                "of 2, 3, misere, 4, Nap, Wellington or Blucher; the first card led is trump; 2 x players deals",
}

_ALIASES: dict[str, str] = {
    "default": "american", "standard": "american", "us": "american", "north-american": "american",
    "uk": "british", "english": "british", "joker": "british",
    "long-game": "long", "fifteen": "long",
    "timed-game": "timed", "clock": "timed",
    "two": "two-handed", "twohanded": "two-handed", "2p": "two-handed", "two-player": "two-handed",
    "heads-up": "two-handed",
    "cutthroat": "cut-throat", "three": "cut-throat", "3p": "cut-throat", "three-handed": "cut-throat",
    "three-player": "cut-throat",
    "railroad-euchre": "railroad", "call-for-best": "railroad",
    "hasenpfepper": "hasenpfeffer", "hasen": "hasenpfeffer", "hasenpfeffer-euchre": "hasenpfeffer",
    "bid": "bid-euchre", "bideuchre": "bid-euchre", "bidding-euchre": "bid-euchre", "auction-euchre": "bid-euchre",
    "nap": "napoleon", "boney": "napoleon",
    "double-bid-euchre": "bid-euchre-double", "bid-euchre-double-deck": "bid-euchre-double",
}

