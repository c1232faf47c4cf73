"""Perft: the number of distinct action sequences from fixed deals (STYLE.md section 2, item 12).

Like python-chess's ``examples/perft/*.perft``, the suites live in text files,
``tests/perft/<variant>.perft``. Each position is a fixed, explicit deal (optionally followed by
some actions) and the number of leaves of its decision tree to a given depth. A leaf is a node
reached after exactly ``depth`` actions, or earlier when the hand is over (scored or thrown in),
so ``perft end N`` counts every complete way to finish the hand.

The format (also written at the top of each file)::

    # comment
    rules <preset> [field=value ...]     applies to the positions below it (values: true/false/ints/words)
    deal dealer=<seat> hands=<5 cards>|<5 cards>|... up=<card> [stock=<cards>]
    moves <action>, <action>, ...        optional: actions in their text form, from the deal
    perft <depth> <count>                leaves after <depth> actions (or the end of the hand)
    perft end <count>                    leaves of the whole tree: complete hands

The counts were computed by :class:`RefHand` below, an independent brute force written from
RULES.md that shares nothing with the engine but the :class:`Rules` fields it reads (cards are
plain strings, legal moves and transitions are its own). The tests compare the engine (recursive
``_push`` / ``legal_actions`` / ``pop`` over :class:`State`) with the files, and the reference
with the files, printing a per-first-action split against the reference on failure.

To add a position, write it with ``perft <depth> ?`` and run
``.venv/bin/python tests/test_perft.py fill`` (counts from the reference), then
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
from euchre.cards import iter_mask

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
    up: str
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
                dealer=int(d["dealer"]), hands=[h.split() for h in d["hands"].split("|")], up=d["up"],
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


# --- the reference: an independent brute force from RULES.md ----------------------------------------
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


class RefHand:
    """One hand as plain data; :meth:`moves` lists (action text, next hand) pairs."""

    __slots__ = ("rules", "n", "dealer", "up", "hands", "phase", "to_act", "trump", "maker", "alone",
                 "out", "trick", "tricks_left")

    def __init__(self, rules: Rules, dealer: int, hands: list[list[str]], up: str) -> None:
        self.rules = rules
        self.n = len(hands)
        self.dealer = dealer
        self.up = up
        self.hands = [frozenset(h) for h in hands]
        self.trump: str | None = None
        self.maker = -1
        self.alone = False
        self.out: frozenset[int] = frozenset()
        self.trick: tuple[tuple[int, str], ...] = ()
        self.tricks_left = 5
        if rules.deck == 25 and up == JOKER:
            self.phase, self.to_act = "joker", dealer
        else:
            self.phase, self.to_act = "bid1", self.left_of(dealer)

    def clone(self) -> RefHand:
        h = RefHand.__new__(RefHand)
        h.rules, h.n, h.dealer, h.up, h.hands = self.rules, self.n, self.dealer, self.up, list(self.hands)
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
            return h._after_exchange()  # the dealer sits out and does not take the up card
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

    def _after_exchange(self) -> RefHand:
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


def ref_hand(pos: Position) -> RefHand:
    h = RefHand(pos.rules, pos.dealer, pos.hands, pos.up)
    for m in pos.moves:
        h = h.apply(m)
    return h


def ref_perft(h: RefHand, depth: int, memo: dict[tuple[Any, ...], int] | None = None) -> int:
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


def ref_divide(h: RefHand, depth: int) -> dict[str, int]:
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
    assert {"american", "british", "two-handed", "cut-throat", "switches"} <= names
    for f in perft_files():
        assert f.read_text().startswith("#"), f"{f.name} must open with a comment describing the format"
    presets = {p.rules.preset_name() for p in POSITIONS}
    assert {"american", "british", "two-handed", "cut-throat"} <= presets
    assert any(p.up == JOKER for p in POSITIONS), "a British deal with the Joker turned up"
    assert all(count is not None for p in POSITIONS for _, count, _ in p.checks), "run: test_perft.py fill"


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
]


@pytest.mark.parametrize("rules", SWITCHED, ids=[r.preset_name() or "switched" for r in SWITCHED])
def test_reference_legal_actions_on_random_playouts(rules: Rules) -> None:
    """Beyond the fixed deals: engine and reference offer the same actions at every node of random
    hands (random deals, random choices, the Joker turned up now and then)."""
    rng = random.Random(20240601)
    for i in range(150):
        s = State.random(rules, dealer=i % rules.players, rng=rng)
        h = RefHand(rules, s.dealer, [[str(c) for c in iter_mask(m)] for m in s.hands], str(s.up_card))
        while True:
            engine = sorted(str(a) for a in s.legal_actions())
            assert engine == sorted(h.options()), f"{s.deal} after {[str(a) for a in s.history]}"
            if not engine:
                break
            a = rng.choice(engine)
            s.push(a)
            h = h.after(a)


def test_reference_rules_spot_checks() -> None:
    """A few facts of RULES.md checked directly on the reference itself."""
    assert ref_suit("Jd", "h") == "h" and ref_suit("Jd", "d") == "d" and ref_suit("Jd", "c") == "d"
    assert ref_suit(JOKER, "s") == "s"
    order = sorted(["Jk", "Jh", "Jd", "Ah", "9h", "As"], key=lambda c: -ref_strength(c, "h", "s"))
    assert order == ["Jk", "Jh", "Jd", "Ah", "9h", "As"]
    assert ref_strength("Ac", "h", "s") == -1


# --- command line: fill the counts from the reference, or compare engine and reference ------------
def _fill() -> None:
    for path in perft_files():
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
    {"fill": _fill, "check": _check}[sys.argv[1] if len(sys.argv) > 1 else "check"]()
