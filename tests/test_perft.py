"""Perft: the number of distinct action sequences from fixed deals (STYLE.md section 2, item 12).

Like python-chess's ``examples/perft/*.perft``, the suites live in text files,
``tests/perft/<variant>.perft``. Each position is a fixed, explicit deal (optionally followed by
some actions) and the number of leaves of its decision tree to a given depth. A leaf is a node
reached after exactly ``depth`` actions, or earlier when the hand is over (scored or thrown in),
so ``perft end N`` counts every complete way to finish the hand.

The format (also written at the top of each file)::

    # comment
    rules <preset> [field=value ...]     applies to the positions below it (values: true/false/ints/words)
    deal dealer=<seat> hands=<cards>|<cards>|... up=<card> [stock=<cards>]
                                         (the sister games turn no card up: ``up`` omitted or ``-``)
    moves <action>, <action>, ...        optional: actions in their text form, from the deal
    perft <depth> <count>                leaves after <depth> actions (or the end of the hand)
    perft end <count>                    leaves of the whole tree: complete hands

The counts were computed by :class:`RefHand` below, an independent brute force written from
RULES.md and RULES-FAMILY.md section 12 (no trump, call for best, the farmer's hand, the
ace-no-face misdeal, in the order of 12.6), and by its sibling :class:`RefSister` for the sister
games of RULES-FAMILY.md 14-16 (Hasenpfeffer, Bid Euchre and its double deck, Napoleon at 3 to 7
players), both sharing nothing with the engine but the :class:`Rules` fields they read (cards are
plain strings, legal moves and transitions are their own). The sister games' suites are
``hasenpfeffer``, ``bid-euchre``, ``bid-euchre-double`` and ``napoleon``: their deals have no up
card, and their stock is the unused cards (Hasenpfeffer's 25th, Napoleon's rest of the pack).
Like the engine (RULES-FAMILY.md 11 and 18.1), the reference counts a decision with one option
(a pass after a moon or a top bid) as a ply, and a forced bid, a forced gift or a throw-in as none;
the double deck's two copies of a card are one action, so its counts are of distinct sequences.
The tests compare the engine (recursive ``_push`` / ``legal_actions`` / ``pop`` over
:class:`State`) with the files, and the reference with the files, printing a per-first-action
split against the reference on failure.

To add a position, write it with ``perft <depth> ?`` and run
``.venv/bin/python tests/test_perft.py fill [<file stem> ...]`` (counts from the reference), then
``.venv/bin/python tests/test_perft.py check`` (engine and reference, with splits).
"""

from __future__ import annotations

import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from euchre import Phase, Rules, State

PERFT_DIR = Path(__file__).parent / "perft"
END = 1 << 30
"""The depth of ``perft end``: deeper than any hand."""


# --- the .perft files ---------------------------------------------------------------------------
@dataclass
class Position:
    """One ``deal`` block of a .perft file."""

    path: Path
    line: int
    rules_text: str
    rules: Rules
    dealer: int
    hands: list[list[str]]
    up: str | None
    """``None`` in the sister games of RULES-FAMILY.md 14-16, which turn no card up."""
    stock: list[str] | None
    moves: list[str] = field(default_factory=list)
    checks: list[tuple[int, int | None, int]] = field(default_factory=list)
    """(depth, expected count or None for ``?``, line number)."""

    @property
    def id(self) -> str:
        return f"{self.path.stem}:{self.line}"


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_rules(text: str) -> Rules:
    """``american`` or ``british stick_the_dealer=true``."""
    words = text.split()
    overrides = {}
    for w in words[1:]:
        k, _, v = w.partition("=")
        overrides[k] = _value(v)
    return Rules.preset(words[0], **overrides)


_KEY = re.compile(r"(\w+)=")


def parse_deal(text: str) -> dict[str, str]:
    """``dealer=3 hands=Jh Jd ...|9c ... up=9h`` as a mapping of its fields."""
    parts = _KEY.split(text)
    if parts[0].strip():
        raise ValueError(f"deal: unexpected {parts[0]!r}")
    return {k: v.strip() for k, v in zip(parts[1::2], parts[2::2], strict=True)}


def parse_file(path: Path) -> list[Position]:
    positions: list[Position] = []
    rules_text: str | None = None
    for no, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        where = f"{path.name}:{no}"
        if head == "rules":
            rules_text = rest
        elif head == "deal":
            if rules_text is None:
                raise ValueError(f"{where}: deal before any rules line")
            d = parse_deal(rest)
            unknown = set(d) - {"dealer", "hands", "up", "stock"}
            if unknown:
                raise ValueError(f"{where}: unknown deal field(s) {sorted(unknown)}")
            positions.append(Position(
                path=path, line=no, rules_text=rules_text, rules=parse_rules(rules_text),
                dealer=int(d["dealer"]), hands=[h.split() for h in d["hands"].split("|")],
                up=None if d.get("up", "-") == "-" else d["up"],
                stock=d["stock"].split() if "stock" in d else None,
            ))
        elif head == "moves":
            if not positions or positions[-1].checks:
                raise ValueError(f"{where}: moves must follow a deal, before its perft lines")
            positions[-1].moves = [m.strip() for m in rest.split(",") if m.strip()]
        elif head == "perft":
            if not positions:
                raise ValueError(f"{where}: perft before any deal")
            depth_text, count_text = rest.split()
            depth = END if depth_text == "end" else int(depth_text)
            count = None if count_text == "?" else int(count_text)
            positions[-1].checks.append((depth, count, no))
        else:
            raise ValueError(f"{where}: unknown line {head!r}")
    return positions


def perft_files() -> list[Path]:
    return sorted(PERFT_DIR.glob("*.perft"))


def all_positions() -> list[Position]:
    return [p for f in perft_files() for p in parse_file(f)]


# --- the engine ---------------------------------------------------------------------------------
def engine_state(pos: Position) -> State:
    s = State(pos.rules, dealer=pos.dealer, hands=pos.hands, up_card=pos.up, stock=pos.stock)
    for m in pos.moves:
        s.push(m)
    return s


def engine_perft(s: State, depth: int) -> int:
    """Leaves of the engine's tree below ``s`` (bulk-counted at the last ply)."""
    if s.is_over:
        return 1
    if depth > 20 and s.phase is Phase.PLAY:  # "end": the exact number of cards left, for bulk counting
        depth = sum(s.hands[seat].bit_count() for seat in range(s.n) if s.is_active(seat))
    acts = s.legal_actions()
    if depth == 1:
        return len(acts)
    total = 0
    for a in acts:
        s._push(a)
        total += engine_perft(s, depth - 1)
        s.pop()
    return total


def engine_divide(s: State, depth: int) -> dict[str, int]:
    out = {}
    for a in s.legal_actions():
        s._push(a)
        out[str(a)] = engine_perft(s, depth - 1) if depth > 1 else 1
        s.pop()
    return out


# --- the reference: an independent brute force from RULES.md and RULES-FAMILY.md 12 -----------------
RANK_ORDER = "789TJQKA"
SAME_COLOUR = {"c": "s", "s": "c", "d": "h", "h": "d"}
JOKER = "Jk"


NO_TRUMPS = ("n", "low")
"""The reference's trumps of a hand without a trump suit (RULES-FAMILY.md 12.1): no trump, low."""


def ref_suit(card: str, trump: str | None) -> str | None:
    """The suit a card follows: the left bower and the Joker belong to trump (RULES.md section 2);
    without a trump suit every card follows its own suit."""
    if card == JOKER:
        return trump
    if trump is not None and trump not in NO_TRUMPS and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def ref_strength(card: str, trump: str, led: str | None) -> int:
    """Joker > right > left > A K Q 10 9 (8 7) of trump > the led suit by rank; others cannot win.
    No trump: the led suit by rank, A high; low: the led suit by rank reversed, the 9 high."""
    suit = ref_suit(card, trump)
    if trump in NO_TRUMPS:
        if suit != led:
            return -1
        rank = RANK_ORDER.index(card[0])
        return len(RANK_ORDER) - rank if trump == "low" else rank
    if suit == trump:
        if card == JOKER:
            return 40
        if card[0] == "J":
            return 39 if card[1] == trump else 38
        return 20 + RANK_ORDER.index(card[0])
    if suit == led:
        return RANK_ORDER.index(card[0])
    return -1


def ref_deck(size: int) -> list[str]:
    """The cards of a deck (RULES.md section 2): 9-A (24), 10-A (20), 7-A (32), 9-A and the Joker (25)."""
    ranks = {20: "TJQKA", 24: "9TJQKA", 25: "9TJQKA", 32: "789TJQKA"}[size]
    return [r + s for s in "cdhs" for r in ranks] + ([JOKER] if size == 25 else [])


def ace_no_face(cards: frozenset[str]) -> bool:
    """RULES-FAMILY.md 12.4: no K, Q, J or Joker, and at most one ace."""
    return not any(c == JOKER or c[0] in "KQJ" for c in cards) and sum(c[0] == "A" for c in cards) <= 1


def farmers_hand(cards: frozenset[str]) -> bool:
    """RULES-FAMILY.md 12.3: only 9s and 10s."""
    return all(c[0] in "9T" for c in cards)


class RefHand:
    """One hand as plain data; :meth:`moves` lists (action text, next hand) pairs.

    Phases (the reference's own words): ``misdeal_offer`` / ``farmer_offer`` / ``farmer_give``
    (RULES-FAMILY.md 12.3-12.4), ``bid1`` / ``take`` / ``bid2`` / ``joker`` / ``discard`` (the
    bidding and the dealer's exchange), ``give`` / ``best_discard`` (call for best, 12.2: the
    partner's chosen card, the lone player's discard of six), ``defend``, ``play``, ``over``."""

    __slots__ = ("rules", "n", "dealer", "up", "stock", "hands", "phase", "to_act", "trump", "maker", "alone",
                 "out", "trick", "tricks_left")

    def __init__(self, rules: Rules, dealer: int, hands: list[list[str]], up: str,
                 stock: list[str] | None = None) -> None:
        self.rules = rules
        self.n = len(hands)
        self.dealer = dealer
        self.up = up
        dealt = {c for h in hands for c in h} | {up}
        self.stock = tuple(stock) if stock is not None else tuple(c for c in ref_deck(rules.deck) if c not in dealt)
        """The cards under the up card (all of the rest: three in the 24-card deck), which a farmer takes."""
        self.hands = [frozenset(h) for h in hands]
        self.trump: str | None = None
        self.maker = -1
        self.alone = False
        self.out: frozenset[int] = frozenset()
        self.trick: tuple[tuple[int, str], ...] = ()
        self.tricks_left = 5
        self.phase, self.to_act = "", -1
        self._misdeal_offer(1)  # 12.6: the deal, then the ace-no-face offers, the farmer's, the bidding

    def clone(self) -> RefHand:
        h = RefHand.__new__(RefHand)
        h.rules, h.n, h.dealer, h.up, h.hands = self.rules, self.n, self.dealer, self.up, list(self.hands)
        h.stock = self.stock
        h.phase, h.to_act, h.trump, h.maker, h.alone = self.phase, self.to_act, self.trump, self.maker, self.alone
        h.out, h.trick, h.tricks_left = self.out, self.trick, self.tricks_left
        return h

    def key(self) -> tuple[Any, ...]:
        return (self.phase, self.to_act, tuple(self.hands), self.trump, self.maker, self.alone, self.out,
                self.trick, self.tricks_left)

    # seats
    def left_of(self, seat: int) -> int:
        """The next seat clockwise that plays this hand."""
        s = (seat + 1) % self.n
        while s in self.out:
            s = (s + 1) % self.n
        return s

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.n == 4 else None

    def defenders(self) -> list[int]:
        """The defenders in turn from the dealer's left."""
        seats = [(self.dealer + k) % 4 for k in range(1, 5)]
        return [s for s in seats if s % 2 != self.maker % 2]

    # transitions
    def options(self) -> list[str]:
        """The legal actions (text form) of the seat to act: the reference's move generator."""
        r = self.rules
        seat = self.to_act
        ph = self.phase
        four = self.n == 4
        if ph == "over":
            return []
        if ph == "misdeal_offer":
            return ["misdeal", "keep"]
        if ph == "farmer_offer":
            return ["farmer", "keep"]
        if ph in ("farmer_give", "best_discard"):  # any card held (six for the lone player, received one too)
            return [f"discard {c}" for c in sorted(self.hands[seat])]
        if ph == "give":
            return [f"give {c}" for c in sorted(self.hands[seat])]
        if ph == "bid1":
            options = ["pass"]
            if not (r.canadian_loner and four and seat == self.partner(self.dealer)):
                options.append("order")
            if four and r.going_alone:
                options.append("order alone")
            return options
        if ph == "take":
            return ["take", "pass"]
        if ph == "bid2":
            options = [] if (r.stick_the_dealer and seat == self.dealer) else ["pass"]
            suits = [s for s in "cdhs" if s != self.up[1]]
            suits += ["n"] if getattr(r, "no_trump", False) else []
            suits += ["low"] if getattr(r, "low_no_trump", False) else []
            options += [f"call {s}" for s in suits]
            if four and r.going_alone:
                options += [f"call {s} alone" for s in suits]
            return options
        if ph == "joker":
            options = [f"call {s}" for s in "cdhs"]
            if four and r.going_alone:
                options += [f"call {s} alone" for s in "cdhs"]
            return options
        if ph == "discard":
            cards = sorted(self.hands[self.dealer])
            if not r.dealer_may_discard_up_card:
                cards.remove(self.up)
            return [f"discard {c}" for c in cards]
        if ph == "defend":
            return ["pass", "defend alone"]
        assert ph == "play"
        hand = self.hands[seat]
        if self.trick:
            led = ref_suit(self.trick[0][1], self.trump)
            follow = [c for c in hand if ref_suit(c, self.trump) == led]
            playable = follow or list(hand)
        else:
            playable = list(hand)
        return [f"play {c}" for c in sorted(playable)]

    def after(self, option: str) -> RefHand:
        """The hand after one of :meth:`options` (``self`` is unchanged)."""
        ph = self.phase
        if ph == "play":
            return self._play(self.to_act, option[5:])
        if ph == "bid1":
            return self._bid1(option)
        if ph == "bid2":
            return self._bid2(option)
        h = self.clone()
        seat = self.to_act
        if ph == "misdeal_offer":
            if option == "misdeal":  # the deal is cancelled: the end of this tree
                h.phase, h.to_act = "over", -1
                return h
            return h._misdeal_offer((seat - self.dealer - 1) % self.n + 2)  # the seats after this one
        if ph == "farmer_offer":
            if option == "farmer":
                h.phase = "farmer_give"
                return h
            return h._bidding()
        if ph == "farmer_give":
            h.hands[seat] = self.hands[seat] - {option[8:]}
            if len(h.hands[seat]) == 2:  # three given: the farmer takes the three under the up card
                h.hands[seat] = h.hands[seat] | set(self.stock)
                return h._bidding()
            return h
        if ph == "give":
            receiver = (seat + 2) % 4
            card = option[5:]
            h.hands[seat] = self.hands[seat] - {card}
            h.hands[receiver] = self.hands[receiver] | {card}
            h.phase, h.to_act = "best_discard", receiver
            return h
        if ph == "best_discard":
            h.hands[seat] = self.hands[seat] - {option[8:]}
            return h._after_maker() if seat == self.maker else h._start_play()
        if ph == "take":
            return h._take_up() if option == "take" else h._after_exchange()
        if ph == "joker":
            h._make(self.dealer, option[5], option.endswith("alone"))
            return h._take_up()
        if ph == "discard":
            h.hands[self.dealer] = self.hands[self.dealer] - {option[8:]}
            return h._after_exchange()
        assert ph == "defend"
        if option == "defend alone":
            h.out = self.out | {(self.to_act + 2) % 4}
            if self.rules.call_for_best:  # 12.2 / 12.6 step 8: the lone defender calls for best too
                return h._call_for_best(self.to_act)
            return h._start_play()
        rest = self.defenders()
        later = rest[rest.index(self.to_act) + 1:]
        if later:
            h.to_act = later[0]
            return h
        return h._start_play()

    def moves(self) -> list[tuple[str, RefHand]]:
        """(action, next hand) for every legal action."""
        return [(o, self.after(o)) for o in self.options()]

    def _make(self, seat: int, suit: str, alone: bool) -> None:
        self.trump, self.maker, self.alone = suit, seat, alone
        if alone:
            self.out = frozenset({(seat + 2) % 4})

    def _bid1(self, option: str) -> RefHand:
        h = self.clone()
        seat = self.to_act
        if option == "pass":
            if seat == self.dealer:
                h.phase = "bid2"
            h.to_act = (seat + 1) % self.n
            return h
        h._make(seat, self.up[1], option == "order alone")
        if self.n == 2 and seat != self.dealer:
            h.phase, h.to_act = "take", self.dealer  # the dealer may take the up card or not
            return h
        if self.dealer in h.out:
            if self.rules.call_for_best:  # 12.2 step 1: the sitting-out dealer adds the up card, no discard
                h.hands[self.dealer] = h.hands[self.dealer] | {self.up}
            return h._after_exchange()  # the dealer sits out (without call for best: the up card stays)
        return h._take_up()

    def _bid2(self, option: str) -> RefHand:
        h = self.clone()
        seat = self.to_act
        if option == "pass":
            if seat == self.dealer:
                h.phase, h.to_act = "over", -1  # thrown in
            else:
                h.to_act = (seat + 1) % self.n
            return h
        h._make(seat, option.split()[1], option.endswith("alone"))
        return h._after_exchange()

    def _take_up(self) -> RefHand:
        """(On a clone.) The dealer adds the up card and must discard."""
        self.hands[self.dealer] = self.hands[self.dealer] | {self.up}
        self.phase, self.to_act = "discard", self.dealer
        return self

    def _misdeal_offer(self, first: int) -> RefHand:
        """(On a clone, or a new hand.) 12.4: the ace-no-face offer to the next eligible seat at least
        ``first`` places to the dealer's left (the dealer is the last, at ``n``), else the farmer's."""
        if self.rules.ace_no_face:
            for k in range(first, self.n + 1):
                seat = (self.dealer + k) % self.n
                if ace_no_face(self.hands[seat]):
                    self.phase, self.to_act = "misdeal_offer", seat
                    return self
        return self._farmer_offer()

    def _farmer_offer(self) -> RefHand:
        """(On a clone.) 12.3: the offer to the seat holding only 9s and 10s, else the bidding."""
        if self.rules.farmers_hand:
            for k in range(1, self.n + 1):
                seat = (self.dealer + k) % self.n
                if farmers_hand(self.hands[seat]):
                    self.phase, self.to_act = "farmer_offer", seat
                    return self
        return self._bidding()

    def _bidding(self) -> RefHand:
        """(On a clone.) Round 1 from the dealer's left, or the dealer's call under a turned-up Joker."""
        if self.rules.deck == 25 and self.up == JOKER:
            self.phase, self.to_act = "joker", self.dealer
        else:
            self.phase, self.to_act = "bid1", self.left_of(self.dealer)
        return self

    def _after_exchange(self) -> RefHand:
        """(On a clone.) After the bidding and the dealer's exchange: a loner calls for best (12.2),
        then the defend-alone declarations."""
        if self.alone and self.rules.call_for_best:
            return self._call_for_best(self.maker)
        return self._after_maker()

    def _call_for_best(self, receiver: int) -> RefHand:
        """(On a clone.) 12.2 steps 2-3: the partner's highest trump goes over with no decision; a
        partner without trump, any partner in a no-trump hand, and every partner under
        ``best_card_free``, chooses the card. Then the lone player discards one of six."""
        giver = (receiver + 2) % 4
        trump = self.trump
        assert trump is not None
        held = [c for c in self.hands[giver] if trump not in NO_TRUMPS and ref_suit(c, trump) == trump]
        if held and not self.rules.best_card_free:
            best = max(held, key=lambda c: ref_strength(c, trump, trump))
            self.hands[giver] = self.hands[giver] - {best}
            self.hands[receiver] = self.hands[receiver] | {best}
            self.phase, self.to_act = "best_discard", receiver
        else:
            self.phase, self.to_act = "give", giver
        return self

    def _after_maker(self) -> RefHand:
        """(On a clone.) The defend-alone choice against a loner, else play."""
        if self.alone and self.rules.defend_alone:
            self.phase, self.to_act = "defend", self.defenders()[0]
            return self
        return self._start_play()

    def _start_play(self) -> RefHand:
        self.phase = "play"
        if self.alone and self.rules.loner_lead == "loner_left":
            self.to_act = self.left_of(self.maker)
        else:
            self.to_act = self.left_of(self.dealer)
        return self

    def _play(self, seat: int, card: str) -> RefHand:
        h = self.clone()
        h.hands[seat] = self.hands[seat] - {card}
        trick = self.trick + ((seat, card),)
        if len(trick) < self.n - len(self.out):
            h.trick = trick
            h.to_act = self.left_of(seat)
            return h
        trump = self.trump
        assert trump is not None
        led = ref_suit(trick[0][1], trump)
        winner = max(trick, key=lambda sc: ref_strength(sc[1], trump, led))[0]
        h.trick = ()
        h.tricks_left = self.tricks_left - 1
        if h.tricks_left == 0:
            h.phase, h.to_act = "over", -1
        else:
            h.to_act = winner
        return h

    def apply(self, text: str) -> RefHand:
        """The hand after an action given in its text form (as in a ``moves`` line)."""
        for label, nxt in self.moves():
            if label == text.strip().lower() or label.lower() == text.strip().lower():
                return nxt
        raise ValueError(f"reference: {text!r} is not legal; legal: {[m for m, _ in self.moves()]}")


# --- the reference for the sister games: RULES-FAMILY.md sections 14-16 ---------------------------
NAP_RANKS = "23456789TJQKA"
"""Napoleon's ranks, low to high (RULES-FAMILY.md 16: every suit A K Q J 10 9 ... 2)."""
NAP_PACK = {3: "9TJQKA", 4: "89TJQKA", 5: "789TJQKA", 6: NAP_RANKS, 7: NAP_RANKS}
"""16: the pack follows the table: 24, 28, 32 cards, then the full 52 from six players."""
NAP_BIDS = ("bid 2", "bid 3", "misere", "bid 4", "nap", "wellington", "blucher")
"""16: the bids from the lowest; Wellington only over a Nap, Blücher only over a Wellington."""


def sister_game(rules: Rules) -> str | None:
    """Which sister game of sections 14-16 the rules are (``None``: Euchre of RULES.md / 12-13)."""
    if rules.napoleon:
        return "napoleon"
    if rules.bid_euchre:
        return "bid-euchre-double" if rules.double_deck else "bid-euchre"
    if rules.auction:
        return "hasenpfeffer"
    return None


class RefSister:
    """One hand of Hasenpfeffer (14), Bid Euchre and its double deck (15) or Napoleon (16) as plain
    data, with the same interface as :class:`RefHand` (``options`` / ``after`` / ``moves`` / ``key``).

    Hands are sorted tuples, so the double deck's two copies of a card are the same card twice and
    one action ("play Ah" plays a copy). Phases: ``bid`` (one turn each from the dealer's left, the
    dealer last), ``trump`` (the high bidder names it; none in Napoleon, whose first card led fixes
    it), ``give`` / ``discard`` (the moon's exchange, 15 after 12.2 steps 2-3), ``play``, ``over``.
    A forced Hasenpfeffer bid, a forced moon gift and a throw-in are no decision (section 11)."""

    __slots__ = ("rules", "game", "n", "dealer", "stock", "hands", "phase", "to_act", "turns", "high", "bidder",
                 "trump", "out", "trick", "tricks_left")

    def __init__(self, rules: Rules, dealer: int, hands: list[list[str]], stock: list[str] | None = None) -> None:
        game = sister_game(rules)
        assert game is not None
        self.rules, self.game, self.n, self.dealer = rules, game, len(hands), dealer
        size = {"hasenpfeffer": 6, "bid-euchre": 6, "bid-euchre-double": 12, "napoleon": 5}[game]
        assert all(len(h) == size for h in hands), f"{game}: {size} cards each"
        if game == "napoleon":
            assert 3 <= self.n <= 7
        else:
            assert self.n == 4
        dealt = [c for h in hands for c in h]
        deck = self.deck()
        rest = list(deck)
        for c in dealt:
            rest.remove(c)  # every card dealt is in the pack (twice at most in the double deck)
        self.stock = tuple(stock) if stock is not None else tuple(rest)
        """The unused cards: Hasenpfeffer's 25th, Napoleon's rest of the pack; none in Bid Euchre."""
        assert sorted(self.stock) == sorted(rest), "the stock is the rest of the pack"
        self.hands = [tuple(sorted(h)) for h in hands]
        self.phase, self.to_act = "bid", (dealer + 1) % self.n
        self.turns = 0
        """Bids and passes made so far (one each)."""
        self.high = -1
        """The index of the highest bid so far in :meth:`bids` (-1: none)."""
        self.bidder = -1
        self.trump: str | None = None
        """A suit, ``n`` (high) or ``low`` (Bid Euchre), ``none`` (a misère); ``None`` until fixed."""
        self.out: frozenset[int] = frozenset()
        self.trick: tuple[tuple[int, str], ...] = ()
        self.tricks_left = size

    def deck(self) -> list[str]:
        """The pack of the game: 14 the 25 cards, 15 the 24 (twice: 48), 16 by the number of players."""
        if self.game == "napoleon":
            return [r + s for s in "cdhs" for r in NAP_PACK[self.n]]
        if self.game == "hasenpfeffer":
            return ref_deck(25)
        return ref_deck(24) * (2 if self.game == "bid-euchre-double" else 1)

    def clone(self) -> RefSister:
        h = RefSister.__new__(RefSister)
        for name in RefSister.__slots__:
            setattr(h, name, getattr(self, name))
        h.hands = list(self.hands)
        return h

    def key(self) -> tuple[Any, ...]:
        return (self.phase, self.to_act, tuple(self.hands), self.turns, self.high, self.bidder, self.trump, self.out,
                self.trick, self.tricks_left)

    def left_of(self, seat: int) -> int:
        s = (seat + 1) % self.n
        while s in self.out:
            s = (s + 1) % self.n
        return s

    def bids(self) -> list[str]:
        """The bids of the game from the lowest: 14 tricks 1-6; 15 tricks 3-6 (6-12) then the moon."""
        if self.game == "napoleon":
            return list(NAP_BIDS)
        if self.game == "hasenpfeffer":
            return [f"bid {k}" for k in range(1, 7)]
        low, top = (3, 6) if self.game == "bid-euchre" else (6, 12)
        return [f"bid {k}" for k in range(low, top + 1)] + ["moon"]

    def options(self) -> list[str]:
        ph = self.phase
        seat = self.to_act
        if ph == "over":
            return []
        if ph == "bid":
            bids = self.bids()
            higher = bids[self.high + 1:]
            if self.game == "napoleon":
                nap = NAP_BIDS.index("nap")
                if self.high < nap:  # Wellington and Blücher never open, nor overcall anything but their step
                    higher = [b for b in higher if b not in ("wellington", "blucher")]
                else:
                    higher = higher[:1]
            stuck = self.game.startswith("bid-euchre") and self.high < 0 and seat == self.dealer
            return ([] if stuck else ["pass"]) + higher
        if ph == "trump":
            no_trumps = ["call n", "call low"] if self.game.startswith("bid-euchre") else []  # 15: high, low
            return [f"call {s}" for s in "cdhs"] + no_trumps
        if ph == "give":
            return [f"give {c}" for c in sorted(set(self.hands[seat]))]
        if ph == "discard":
            return [f"discard {c}" for c in sorted(set(self.hands[seat]))]
        assert ph == "play"
        hand = self.hands[seat]
        if self.trick:
            led = self.suit(self.trick[0][1])
            playable = [c for c in hand if self.suit(c) == led] or list(hand)
        else:
            playable = list(hand)
        return [f"play {c}" for c in sorted(set(playable))]

    def suit(self, card: str) -> str | None:
        """The suit a card follows: Napoleon has no bowers; the Euchre games as RULES.md 2 / 12.1."""
        if self.game == "napoleon":
            return card[1]
        return ref_suit(card, self.trump)

    def strength(self, card: str, led: str | None) -> int:
        if self.game != "napoleon":
            assert self.trump is not None
            return ref_strength(card, self.trump, led)
        rank = NAP_RANKS.index(card[0])
        if card[1] == self.trump:
            return 100 + rank
        return rank if card[1] == led else -1

    def moves(self) -> list[tuple[str, RefSister]]:
        return [(o, self.after(o)) for o in self.options()]

    def apply(self, text: str) -> RefSister:
        for label, nxt in self.moves():
            if label.lower() == text.strip().lower():
                return nxt
        raise ValueError(f"reference: {text!r} is not legal; legal: {self.options()}")

    def after(self, option: str) -> RefSister:
        h = self.clone()
        seat = self.to_act
        ph = self.phase
        if ph == "bid":
            if option != "pass":
                h.high, h.bidder = self.bids().index(option), seat
            h.turns += 1
            if h.turns < self.n:
                h.to_act = (seat + 1) % self.n
                return h
            return h._after_bidding()
        if ph == "trump":
            h.trump = option.split()[1]
            if self.game.startswith("bid-euchre") and self.bids()[self.high] == "moon":
                return h._moon_gift()
            return h._start_play()
        if ph == "give":
            card = option.split()[1]
            h._move(seat, self.bidder, card)
            h.phase, h.to_act = "discard", self.bidder
            return h
        if ph == "discard":
            h._drop(seat, option.split()[1])
            return h._start_play()
        return h._play(option.split()[1])

    def _drop(self, seat: int, card: str) -> None:
        cards = list(self.hands[seat])
        cards.remove(card)  # one copy
        self.hands[seat] = tuple(cards)

    def _move(self, giver: int, receiver: int, card: str) -> None:
        self._drop(giver, card)
        self.hands[receiver] = tuple(sorted(self.hands[receiver] + (card,)))

    def _after_bidding(self) -> RefSister:
        """(On a clone.) 14: all passed, the Joker's holder bids 3 (no decision), or a throw-in when
        the Joker is the unused card; 16: all passed, a throw-in; 15: the stuck dealer bid."""
        if self.high < 0:
            holder = [s for s in range(self.n) if JOKER in self.hands[s]] if self.game == "hasenpfeffer" else []
            if not holder:
                self.phase, self.to_act = "over", -1
                return self
            self.high, self.bidder = self.bids().index("bid 3"), holder[0]
        if self.game == "napoleon":
            self.trump = "none" if NAP_BIDS[self.high] == "misere" else None  # else fixed by the first lead
            return self._start_play()
        self.phase, self.to_act = "trump", self.bidder
        return self

    def _moon_gift(self) -> RefSister:
        """(On a clone.) 15 / 12.2 steps 2-3: the partner sits out and gives the highest trump (no
        decision), or chooses a card holding no trump or in high or low; the shooter then discards."""
        partner = (self.bidder + 2) % 4
        self.out = frozenset({partner})
        trump = self.trump
        assert trump is not None
        held = [] if trump in NO_TRUMPS else [c for c in self.hands[partner] if ref_suit(c, trump) == trump]
        if held:
            self._move(partner, self.bidder, max(held, key=lambda c: ref_strength(c, trump, trump)))
            self.phase, self.to_act = "discard", self.bidder
        else:
            self.phase, self.to_act = "give", partner
        return self

    def _start_play(self) -> RefSister:
        """(On a clone.) The high bidder leads (14, 15, 16)."""
        self.phase, self.to_act = "play", self.bidder
        return self

    def _play(self, card: str) -> RefSister:
        """(On a clone.) One card to the trick; the highest trump, else the highest of the led suit,
        wins, of identical cards the first played (``max`` keeps the first of equals)."""
        seat = self.to_act
        self._drop(seat, card)
        if self.trump is None:  # 16: Napoleon's first card led fixes trump
            self.trump = card[1]
        trick = self.trick + ((seat, card),)
        if len(trick) < self.n - len(self.out):
            self.trick, self.to_act = trick, self.left_of(seat)
            return self
        led = self.suit(trick[0][1])
        winner = max(trick, key=lambda sc: self.strength(sc[1], led))[0]
        self.trick = ()
        self.tricks_left -= 1
        if self.tricks_left == 0:
            self.phase, self.to_act = "over", -1
        else:
            self.to_act = winner
        return self


def ref_hand(pos: Position) -> RefHand | RefSister:
    """The reference hand of a position: :class:`RefSister` for the games of sections 14-16."""
    if sister_game(pos.rules) is not None:
        h: RefHand | RefSister = RefSister(pos.rules, pos.dealer, pos.hands, pos.stock)
    else:
        assert pos.up is not None, f"{pos.id}: this game turns a card up"
        h = RefHand(pos.rules, pos.dealer, pos.hands, pos.up, pos.stock)
    for m in pos.moves:
        h = h.apply(m)
    return h


def ref_perft(h: RefHand | RefSister, depth: int, memo: dict[tuple[Any, ...], int] | None = None) -> int:
    """Leaves of the reference tree (memoized on the position: counts depend only on it)."""
    if h.phase == "over" or depth == 0:
        return 1
    if h.phase == "play" and depth > 20:  # "end": the exact number of cards left, for bulk counting
        depth = sum(len(cards) for seat, cards in enumerate(h.hands) if seat not in h.out)
    if depth == 1:
        return len(h.options())
    memo = {} if memo is None else memo
    key = (h.key(), depth)
    got = memo.get(key)
    if got is None:
        got = memo[key] = sum(ref_perft(h.after(o), depth - 1, memo) for o in h.options())
    return got


def ref_divide(h: RefHand | RefSister, depth: int) -> dict[str, int]:
    memo: dict[tuple[Any, ...], int] = {}
    return {label: ref_perft(nxt, depth - 1, memo) for label, nxt in h.moves()}


def split_report(pos: Position, depth: int) -> str:
    """Per-first-action counts of the engine and the reference, differences marked."""
    eng = engine_divide(engine_state(pos), depth)
    ref = ref_divide(ref_hand(pos), depth)
    lines = [f"{pos.id} depth {'end' if depth == END else depth}: action  engine  reference"]
    for a in sorted(set(eng) | set(ref)):
        mark = "" if eng.get(a) == ref.get(a) else "   <-- differs"
        lines.append(f"  {a:<16} {eng.get(a, '-')!s:>9} {ref.get(a, '-')!s:>9}{mark}")
    return "\n".join(lines)


# --- tests --------------------------------------------------------------------------------------
POSITIONS = all_positions()


def test_suites_present_and_documented() -> None:
    names = {f.stem for f in perft_files()}
    assert {"american", "british", "two-handed", "cut-throat", "switches", "house", "offers", "hasenpfeffer",
            "bid-euchre", "bid-euchre-double", "napoleon"} <= names
    for f in perft_files():
        assert f.read_text().startswith("#"), f"{f.name} must open with a comment describing the format"
    presets = {p.rules.preset_name() for p in POSITIONS}
    assert {"american", "british", "two-handed", "cut-throat"} <= presets
    assert any(p.up == JOKER for p in POSITIONS), "a British deal with the Joker turned up"
    assert all(count is not None for p in POSITIONS for _, count, _ in p.checks), "run: test_perft.py fill"


def test_deal_lines_without_an_up_card(tmp_path: Path) -> None:
    """The sister games' deal lines: ``up`` omitted or ``-``; ``stock`` the unused cards or omitted
    (the reference then takes whatever no hand holds, and the engine does the same)."""
    hands = "hands=Jk Jh Ah Kh 9c Ts|Jd Qh Th Ac Kc 9d|9h Ad Kd Qd Td As|Jc Js Qc Tc Ks Qs"
    path = tmp_path / "t.perft"
    path.write_text(f"# t\nrules hasenpfeffer\ndeal dealer=3 {hands} up=- stock=9s\nperft 5 840\n"
                    f"deal dealer=3 {hands}\nmoves pass, pass, pass, pass\nperft 1 4\n")
    a, b = parse_file(path)
    assert a.up is None and a.stock == ["9s"] and b.up is None and b.stock is None
    for pos in (a, b):
        depth, count, _ = pos.checks[0]
        assert engine_perft(engine_state(pos), depth) == ref_perft(ref_hand(pos), depth) == count
    assert isinstance(ref_hand(b), RefSister) and ref_hand(b).stock == ("9s",)
    euchre = "hands=Jc Tc Js Ts Th|Qc Kd Qd Ks 9h|Ac 9c Ad Jd Qh|Kc Td 9d 9s Kh"
    path.write_text(f"# t\nrules american\ndeal dealer=3 {euchre}\n")  # an up card is required here
    with pytest.raises(AssertionError, match="turns a card up"):
        ref_hand(parse_file(path)[0])


def auction_events(h: RefSister) -> set[str]:
    """What the sister games' auctions do somewhere below ``h``: every node of the bidding and the
    trump call visited once, each way out of them recorded (the exchange and play not entered)."""
    seen: set[tuple[Any, ...]] = set()
    events: set[str] = set()
    todo = [h]
    while todo:
        node = todo.pop()
        if node.phase not in ("bid", "trump") or node.key() in seen:
            continue
        seen.add(node.key())
        if node.phase == "bid" and node.to_act == node.dealer and "pass" not in node.options():
            events.add("stuck dealer")
        for label, nxt in node.moves():
            if label in ("misere", "wellington", "blucher", "moon"):
                events.add(label)
            if node.phase == "bid" and nxt.phase == "over":
                events.add("throw-in")
            if node.phase == "bid" and nxt.phase != "bid" and node.high < 0 and label == "pass":
                events.add("forced bid")
            if node.phase == "trump" and nxt.phase in ("give", "discard"):
                events.add(f"{'chosen' if nxt.phase == 'give' else 'forced'} moon gift at {label[5:]}")
            todo.append(nxt)
    return events


def test_sister_suites_reach_their_rules() -> None:
    """The deals of the sister games' files were chosen so that their trees reach the rules of
    RULES-FAMILY.md 14-16 named in them: the forced Joker bid and the throw-in (14), the stuck dealer
    and both kinds of moon gift in a suit and in high or low (15, the double deck too), and Napoleon
    at each table size with its throw-in, misère, Wellington and Blücher (16)."""
    got: dict[str, set[str]] = {}
    for p in POSITIONS:
        game = sister_game(p.rules)
        if game is not None:
            h = ref_hand(p)
            assert isinstance(h, RefSister) and p.up is None
            got.setdefault(game, set()).update(auction_events(h))
    assert got["hasenpfeffer"] >= {"forced bid", "throw-in"}
    for game in ("bid-euchre", "bid-euchre-double"):
        assert got[game] >= {"stuck dealer", "moon", "forced moon gift at h", "chosen moon gift at n",
                             "chosen moon gift at low"}, (game, sorted(got[game]))
    assert "chosen moon gift at c" in got["bid-euchre"]
    assert got["napoleon"] >= {"throw-in", "misere", "wellington", "blucher"}
    tables = {p.rules.players for p in POSITIONS if p.rules.napoleon}
    assert tables == {3, 4, 5, 6, 7}


def test_sister_reference_spot_checks() -> None:
    """A few facts of RULES-FAMILY.md 14-16 checked directly on the reference."""
    nap = RefSister(Rules.preset("napoleon", players=4), 3, [
        "Ac Kc Qc Jc Tc".split(), "Ad Kd Qd Jd 8h".split(), "Ah Kh Qh 9s 8s".split(), "As Ks Qs 9c 8d".split()])
    assert len(nap.deck()) == 28 and len(nap.stock) == 8
    assert nap.options() == ["pass", "bid 2", "bid 3", "misere", "bid 4", "nap"]
    assert nap.apply("bid 3").options() == ["pass", "misere", "bid 4", "nap"]
    assert nap.apply("nap").options() == ["pass", "wellington"]
    assert nap.apply("nap").apply("wellington").apply("blucher").options() == ["pass"]
    led = nap.apply("misere").apply("pass").apply("pass").apply("pass")
    assert led.phase == "play" and led.to_act == 0 and led.trump == "none"
    led = nap.apply("bid 2").apply("pass").apply("pass").apply("pass").apply("play Tc")
    assert led.trump == "c" and len(led.options()) == 5  # the lead fixed clubs; seat 1 has none: any card
    assert [4 * len(NAP_PACK[k]) for k in range(3, 8)] == [24, 28, 32, 52, 52]
    has = RefSister(Rules.preset("hasenpfeffer"), 3, [
        "Jk Jh Ah Kh 9c Ts".split(), "Jd Qh Th Ac Kc 9d".split(), "9h Ad Kd Qd Td As".split(),
        "Jc Js Qc Tc Ks Qs".split()])
    assert has.stock == ("9s",) and has.to_act == 0
    forced = has.apply("pass").apply("pass").apply("pass").apply("pass")
    assert (forced.phase, forced.to_act, forced.bidder, forced.bids()[forced.high]) == ("trump", 0, 0, "bid 3")
    bid = RefSister(Rules.preset("bid-euchre"), 3, [
        "Jh Jd Ah Kh Qh 9c".split(), "Ac Kc Qc Tc 9d Td".split(), "Th 9h As Ks Ad Kd".split(),
        "Jc Js Qs Ts 9s Qd".split()])
    assert bid.stock == ()
    assert bid.apply("pass").apply("pass").apply("pass").options() == ["bid 3", "bid 4", "bid 5", "bid 6", "moon"]
    moon = bid.apply("moon").apply("pass").apply("pass").apply("pass").apply("call h")
    assert moon.phase == "discard" and moon.out == {2} and "Th" in moon.hands[0] and len(moon.hands[0]) == 7


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.id for p in POSITIONS])
def test_engine_perft(pos: Position) -> None:
    s = engine_state(pos)
    before = s.key()
    for depth, count, line in pos.checks:
        got = engine_perft(s, depth)
        assert s.key() == before, "pop did not restore the position"
        if got != count:
            pytest.fail(f"{pos.path.name}:{line}: engine perft {got}, file says {count}\n{split_report(pos, depth)}")


@pytest.mark.parametrize("path", perft_files(), ids=[f.stem for f in perft_files()])
def test_reference_perft(path: Path) -> None:
    """The reference still produces the stored counts (guards edits to the files)."""
    for pos in parse_file(path):
        h = ref_hand(pos)
        memo: dict[tuple[Any, ...], int] = {}
        for depth, count, line in pos.checks:
            assert ref_perft(h, depth, memo) == count, f"{path.name}:{line}"


SWITCHED = [
    Rules.preset("american"), Rules.preset("british"), Rules.preset("two-handed"), Rules.preset("cut-throat"),
    Rules.preset("american", stick_the_dealer=True, defend_alone=True, loner_lead="loner_left"),
    Rules.preset("british", dealer_may_discard_up_card=False, defend_alone=True),
    Rules.preset("two-handed", deck=32, stick_the_dealer=True),
    Rules.preset("cut-throat", stick_the_dealer=True),
    # the house rules of RULES-FAMILY.md 12.2-12.4
    Rules.preset("american", call_for_best=True, defend_alone=True, loner_lead="loner_left"),
    Rules.preset("american", call_for_best=True, best_card_free=True, defend_alone=True, no_trump=True,
                 low_no_trump=True, dealer_may_discard_up_card=False),
    Rules.preset("railroad"),
    Rules.preset("british", call_for_best=True, stick_the_dealer=True, ace_no_face=True),
    Rules.preset("american", ace_no_face=True, farmers_hand=True, call_for_best=True, defend_alone=True),
    Rules.preset("american", deck=32, ace_no_face=True, call_for_best=True),
]
OFFERED = [r for r in SWITCHED if r.ace_no_face or r.farmers_hand]


def playout_agrees(s: State, h: RefHand, rng: random.Random) -> None:
    """Engine and reference offer the same actions at every node of one random line of play."""
    while True:
        engine = sorted(str(a) for a in s.legal_actions())
        assert engine == sorted(h.options()), f"{s.deal} after {[str(a) for a in s.history]}"
        if not engine:
            break
        a = rng.choice(engine)
        s.push(a)
        h = h.after(a)


def ref_of(s: State) -> RefHand:
    """The reference hand of an engine deal (before any action)."""
    d = s.deal
    return RefHand(s.rules, d.dealer, [[str(c) for c in h] for h in d.hands], str(d.up_card), [str(c) for c in d.stock])


@pytest.mark.parametrize("rules", SWITCHED, ids=[r.preset_name() or "switched" for r in SWITCHED])
def test_reference_legal_actions_on_random_playouts(rules: Rules) -> None:
    """Beyond the fixed deals: engine and reference offer the same actions at every node of random
    hands (random deals, random choices, the Joker turned up now and then)."""
    rng = random.Random(20240601)
    for i in range(150):
        s = State.random(rules, dealer=i % rules.players, rng=rng)
        playout_agrees(s, ref_of(s), rng)


SISTERS = [Rules.preset("hasenpfeffer"), Rules.preset("bid-euchre"), Rules.preset("bid-euchre-double")] + [
    Rules.preset("napoleon", players=k) for k in range(3, 8)]


@pytest.mark.parametrize("rules", SISTERS, ids=[f"{sister_game(r)}{r.players}" for r in SISTERS])
def test_sister_reference_on_random_playouts(rules: Rules) -> None:
    """Beyond the fixed deals, for the games of RULES-FAMILY.md 14-16: engine and reference offer the
    same actions to the same seat at every node of random hands (so they agree on every trick's
    winner too) and end them together. Bids are mostly passed, so that forced Hasenpfeffer bids,
    Napoleon's throw-ins and Bid Euchre's stuck dealer come up; moons are bid often."""
    rng = random.Random(20240603)
    ends: set[str] = set()
    for i in range(120):
        s = State.random(rules, dealer=i % rules.players, rng=rng)
        d = s.deal
        h = RefSister(rules, d.dealer, [[str(c) for c in cards] for cards in d.hands], [str(c) for c in d.stock])
        while True:
            engine = sorted(str(a) for a in s.legal_actions())
            where = f"{[' '.join(map(str, cards)) for cards in d.hands]} after {[str(a) for a in s.history]}"
            assert engine == sorted(h.options()), where
            if not engine:
                break
            assert s.to_act == h.to_act, where
            if h.phase == "bid" and "pass" in engine and rng.random() < 0.75:
                a = "pass"
            else:
                a = "moon" if "moon" in engine and rng.random() < 0.3 else rng.choice(engine)
            if h.phase == "bid" and h.turns == h.n - 1 and h.high < 0 and a == "pass":
                ends.add("all passed")
            if a == "moon":
                ends.add("moon")
            s.push(a)
            h = h.after(a)
        assert s.is_over and h.phase == "over"
        ends.add("thrown in" if h.tricks_left else "played")
    if rules.bid_euchre:  # the stuck dealer: nothing is thrown in
        assert ends == {"played", "moon"}
    elif rules.napoleon:
        assert ends >= {"played", "all passed", "thrown in"}
    else:  # Hasenpfeffer: all passed is a forced bid, thrown in only if the Joker is the unused card
        assert ends >= {"played", "all passed"}


def rigged_deal(rules: Rules, dealer: int, rng: random.Random) -> State:
    """A deal (the reference's cards, shuffled) in which random seats hold what the offers look for:
    a farmer's hand (five 9s and 10s), or one or two ace-no-face hands (no face, one ace at most)."""
    cards = ref_deck(rules.deck)
    rng.shuffle(cards)
    low = [c for c in cards if c[0] in "789T"]
    aces = [c for c in cards if c[0] == "A"]
    seats = rng.sample(range(4), 2)
    kind = rng.choice(["farmer", "one", "two"] if rules.farmers_hand else ["one", "two"])
    rigged: dict[int, list[str]] = {}
    if kind == "farmer":
        rigged[seats[0]] = [c for c in low if c[0] in "9T"][:5]
    else:
        for k, seat in enumerate(seats[: 1 if kind == "one" else 2]):
            rigged[seat] = low[4 * k:4 * k + 4] + aces[k:k + 1]
    used = {c for h in rigged.values() for c in h}
    rest = [c for c in cards if c not in used]
    hands = [rigged.get(seat) or [rest.pop() for _ in range(5)] for seat in range(4)]
    up = rest.pop()
    return State(rules, dealer=dealer, hands=hands, up_card=up, stock=rest)


@pytest.mark.parametrize("rules", OFFERED, ids=[f"offers{i}" for i in range(len(OFFERED))])
def test_reference_legal_actions_on_rigged_offers(rules: Rules) -> None:
    """Random playouts from deals that do reach the offers of 12.3-12.4 (random deals seldom do):
    every offer kept or taken up, the farmer's gifts, and the bidding and play after them."""
    rng = random.Random(20240602)
    offered = 0
    for i in range(150):
        s = rigged_deal(rules, i % 4, rng)
        offered += "keep" in map(str, s.legal_actions())
        playout_agrees(s, ref_of(s), rng)
    assert offered > 100


def reached(h: RefHand) -> set[str]:
    """What the house rules of 12.2-12.4 do somewhere in the reference tree below ``h``, before play
    (every node of the offers, bidding, exchanges and declarations, each visited once)."""
    seen: set[tuple[Any, ...]] = set()
    events: set[str] = set()
    todo = [h]
    while todo:
        node = todo.pop()
        if node.phase in ("play", "over") or node.key() in seen:
            continue
        seen.add(node.key())
        if node.phase == "farmer_offer" and not node.rules.ace_no_face:
            events.add("farmer offer without ace_no_face")
        if node.phase == "give":
            if node.rules.best_card_free:
                events.add("best_card_free: the partner chooses")
            elif node.trump in NO_TRUMPS:
                events.add("a no-trump partner chooses")
            else:
                events.add("a partner without trump chooses")
        for label, nxt in node.moves():
            ph = nxt.phase
            if node.phase == "misdeal_offer":
                events.add(f"misdeal offer to {'the dealer' if node.to_act == node.dealer else 'a seat'}")
                events.add(f"{label} at the misdeal offer")
                if ph == "farmer_offer":
                    events.add("farmer offer after the misdeal offers")
            if node.phase == "farmer_give" and ph != "farmer_give":
                events.add("farmer took the stock")
            if ph == "best_discard" and node.phase != "best_discard":
                who = "maker" if nxt.to_act == nxt.maker else "defender"
                events.add(f"{'chosen' if node.phase == 'give' else 'forced'} gift to the {who}")
                if nxt.up in nxt.hands[nxt.to_act] and nxt.dealer in nxt.out:
                    events.add("the sitting-out dealer's up card given")
                if nxt.to_act == nxt.dealer and node.phase == "discard":
                    events.add("the lone dealer discards twice")
            todo.append(nxt)
    return events


def test_offers_file_reaches_every_house_rule() -> None:
    """The deals of offers.perft were chosen so each rule of 12.2-12.4 is reached in their trees."""
    got = set().union(*(reached(ref_hand(p)) for p in parse_file(PERFT_DIR / "offers.perft")))
    assert got >= {
        "misdeal offer to a seat", "misdeal offer to the dealer", "misdeal at the misdeal offer",
        "keep at the misdeal offer", "farmer offer without ace_no_face", "farmer offer after the misdeal offers",
        "farmer took the stock", "forced gift to the maker", "chosen gift to the maker", "forced gift to the defender",
        "chosen gift to the defender", "the sitting-out dealer's up card given", "the lone dealer discards twice",
        "a partner without trump chooses", "a no-trump partner chooses", "best_card_free: the partner chooses",
    }, sorted(got)


def test_reference_rules_spot_checks() -> None:
    """A few facts of RULES.md checked directly on the reference itself."""
    assert ref_suit("Jd", "h") == "h" and ref_suit("Jd", "d") == "d" and ref_suit("Jd", "c") == "d"
    assert ref_suit(JOKER, "s") == "s"
    order = sorted(["Jk", "Jh", "Jd", "Ah", "9h", "As"], key=lambda c: -ref_strength(c, "h", "s"))
    assert order == ["Jk", "Jh", "Jd", "Ah", "9h", "As"]
    assert ref_strength("Ac", "h", "s") == -1


# --- command line: fill the counts from the reference, or compare engine and reference ------------
def _fill(names: list[str]) -> None:
    """Write the reference's counts into the files named (stems, e.g. ``offers``), or into all."""
    for path in perft_files():
        if names and path.stem not in names:
            continue
        lines = path.read_text().splitlines(keepends=True)
        for pos in parse_file(path):
            h = ref_hand(pos)
            memo: dict[tuple[Any, ...], int] = {}
            for depth, _, line in pos.checks:
                count = ref_perft(h, depth, memo)
                d = "end" if depth == END else str(depth)
                lines[line - 1] = f"perft {d} {count}\n"
        path.write_text("".join(lines))
        print(f"filled {path}")


def _check() -> None:
    grand = 0.0
    for pos in all_positions():
        s = engine_state(pos)
        h = ref_hand(pos)
        for depth, count, line in pos.checks:
            t = time.perf_counter()
            got = engine_perft(s, depth)
            dt = time.perf_counter() - t
            grand += dt
            ref = ref_perft(h, depth)
            ok = got == ref == count
            d = "end" if depth == END else depth
            print(f"{pos.path.name}:{line} perft {d}: engine {got} reference {ref} file {count} "
                  f"({dt:.2f}s){'' if ok else '  MISMATCH'}")
            if got != ref:
                print(split_report(pos, depth))
    print(f"engine total {grand:.1f}s")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "fill":
        _fill(sys.argv[2:])
    else:
        _check()
