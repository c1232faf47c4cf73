"""The search bot plays Bid Euchre's moon (RULES-FAMILY.md 15, 12.2, 12.7): resampling a moon's
exchange with exactly what each seat knows of it (the shooter its gift and discard, the giver
the card given, a defender neither), the bot's moon bid and its margin, and hints and game review
of a moon, repeatable."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import MOON, PASS, Action, Kind
from euchre.analyze import analyze_game
from euchre.bots import make_bot
from euchre.bots.search import TRICK_BID_MARGIN, SearchBot
from euchre.cards import Card, mask_of
from euchre.hints import hint
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView, _moon_plan, _moon_try

BE = Rules.preset("bid-euchre")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def deal(hands: Sequence[str], dealer: int = 3) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), None, ())


# Seat 0 (first to bid) shoots the moon; its partner, seat 2, holds 9d Td and 9h Th and no spade.
MOONS = deal(["Jh Jd Ah Kh Qh As", "9c Tc Jc Qc Ks Qs", "Th 9h Ac Kc 9d Td", "Ad Kd Qd Js Ts 9s"])


def moon(d: Deal, name: str) -> State:
    """The deal with seat ``d.dealer + 1`` shooting the moon and naming ``name``."""
    s = State.from_deal(BE, d)
    s.push(MOON)
    while s.phase is Phase.AUCTION:
        s.push(PASS)
    s.push(name)
    return s


def check_samples(s: State, seat: int, rng: random.Random, count: int) -> list[State]:
    """``count`` samples of the seat's view, each checked: its own view is the view, the voids
    shown hold, every card is in one place, the shooter does not hold its discard."""
    view = PlayerView.of(s, seat)
    out = []
    for _ in range(count):
        sample = view.resample(rng)
        assert PlayerView.of(sample, seat) == view
        for other, mask in view.voids().items():
            assert not sample.hands[other] & mask
        held = 0
        for m in sample.hands:
            assert not held & m
            held |= m
        for g in sample.gifts:
            if g.discard is not None:
                assert not sample.hands[g.receiver] >> g.discard & 1
                assert not held >> g.discard & 1
        out.append(sample)
    return out


def play_out(s: State, rng: random.Random, step: int) -> None:
    """Check every seat's samples at every point of the rest of the hand (heuristic and random
    play, ``step`` samples a seat and point)."""
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while True:
        for seat in range(4):
            check_samples(s, seat, rng, step)
        if s.is_over:
            break
        v = PlayerView.of(s, s.to_act)
        s.push(bots[s.to_act].choose(v) if rng.random() < 0.6 else rng.choice(s.legal_actions()))


# --- resampling ----------------------------------------------------------------------------------------------
def test_every_seat_samples_a_suit_moon_a_high_one_and_a_low_one() -> None:
    rng = random.Random(3)
    for name in ("call d", "call h", "call s", "call n", "call low"):
        play_out(moon(MOONS, name), rng, 6)


def test_the_shooter_knows_a_forced_gift_leaves_the_giver_no_better_trump() -> None:
    s = moon(MOONS, "call d")  # seat 2 holds 9d Td: the engine gives Td
    assert s.phase is Phase.BEST_DISCARD and s.gifts[0].card == Card.parse("Td") and s.gifts[0].forced
    higher = mask_of(cards("Ad Kd Qd"))
    partner = Counter()
    for sample in check_samples(s, 0, random.Random(1), 200):
        assert not sample.hands[2] & higher
        partner[bool(sample.hands[2] >> Card.parse("9d") & 1)] += 1
    assert partner[True] and partner[False]  # the 9 (a lower trump) may be anywhere unseen
    s.push("discard As")
    for sample in check_samples(s, 0, random.Random(2), 100):
        assert not sample.hands[2] & higher
        assert sample.gifts[0].discard == Card.parse("As")


def test_the_shooter_knows_a_chosen_gift_in_a_suit_means_the_giver_held_no_trump() -> None:
    s = moon(MOONS, "call s")  # seat 2 holds no spade and not the left bower (Jc)
    assert s.phase is Phase.GIVE and s.to_act == 2
    trumps = mask_of(cards("As Ks Qs Js Ts 9s Jc"))
    for sample in check_samples(s, 0, random.Random(3), 100):  # the gift pending: no trump there
        assert not sample.hands[2] & trumps
    s.push("give Ac")
    s.push("discard Qh")
    for sample in check_samples(s, 0, random.Random(4), 100):
        assert not sample.hands[2] & trumps
        assert not sample.gifts[0].forced and sample.gifts[0].card == Card.parse("Ac")


def test_high_and_low_gifts_leave_the_givers_hand_open() -> None:
    for name in ("call n", "call low"):
        s = moon(MOONS, name)
        s.push("give Td")
        s.push("discard Td")  # the shooter may discard the card it was given
        where = Counter()
        for sample in check_samples(s, 0, random.Random(5), 150):
            for c in cards("Ad Kd Qd Ks"):
                where[(c, next(p for p in range(4) if sample.hands[p] >> c & 1))] += 1
        assert {p for (c, p) in where if c == Card.parse("Ad")} == {1, 2, 3}


def test_the_giver_does_not_know_the_discard_which_may_be_the_card_given() -> None:
    s = moon(MOONS, "call n")
    s.push("give Ac")
    for sample in check_samples(s, 2, random.Random(6), 60):  # the discard pending: Ac is the shooter's
        assert sample.phase is Phase.BEST_DISCARD and sample.hands[0] >> Card.parse("Ac") & 1
    s.push("discard Qh")
    discards = Counter(sample.gifts[0].discard for sample in check_samples(s, 2, random.Random(7), 300))
    assert Card.parse("Ac") in discards  # the card given, discarded, about one time in seven
    assert len(discards) > 5
    assert not set(discards) & set(PlayerView.of(s, 2).hand)


def test_a_defender_knows_neither_card() -> None:
    s = moon(MOONS, "call d")
    s.push("discard As")
    view = PlayerView.of(s, 1)
    assert view.gifts == ((2, 0, None, None),) and (0, None) in view.actions
    gifts = Counter()
    discards = Counter()
    for sample in check_samples(s, 1, random.Random(8), 300):
        gifts[(sample.gifts[0].card, sample.gifts[0].forced)] += 1
        discards[sample.gifts[0].discard] += 1
    assert len(gifts) > 3 and len(discards) > 5
    assert any(forced for _, forced in gifts) and any(not forced for _, forced in gifts)
    # While the exchange is pending the defenders see "call for best" and nothing else.
    pending = moon(MOONS, "call s")
    for seat in (1, 3):
        assert PlayerView.of(pending, seat).phase is Phase.CALL_FOR_BEST
        check_samples(pending, seat, random.Random(seat), 40)


@SETTINGS
@given(seed=st.integers(0, 10**9), passes=st.integers(0, 3), name=st.sampled_from(
    ["call c", "call d", "call h", "call s", "call n", "call low"]), plays=st.integers(0, 20))
def test_random_moon_hands_sample_consistently(seed: int, passes: int, name: str, plays: int) -> None:
    rng = random.Random(seed)
    s = State.random(BE, dealer=rng.randrange(4), rng=rng)
    for _ in range(passes):
        s.push(PASS)
    s.push(MOON)
    while s.phase is Phase.AUCTION:
        s.push(PASS)
    s.push(name)
    while not s.is_over and (s.phase is not Phase.PLAY or plays > 0):
        if s.phase is Phase.PLAY:
            plays -= 1
        s.push(rng.choice(s.legal_actions()))
    for seat in range(4):
        check_samples(s, seat, rng, 4)


def test_the_fallback_is_always_consistent() -> None:
    # The greedy fill (after the uniform attempts fail) never fails and never contradicts a view.
    rng = random.Random(9)
    for _ in range(12):
        for name in ("call c", "call s", "call n", "call low"):
            s = State.random(BE, dealer=rng.randrange(4), rng=rng)
            s.push(MOON)
            while s.phase is Phase.AUCTION:
                s.push(PASS)
            s.push(name)
            while not s.is_over:
                for seat in range(4):
                    view = PlayerView.of(s, seat)
                    plan = _moon_plan(view)
                    for _ in range(2):
                        sample = _moon_try(view, plan, rng, False)
                        assert sample is not None and PlayerView.of(sample, seat) == view
                s.push(rng.choice(s.legal_actions()))


# --- the bot ----------------------------------------------------------------------------------------------
def bot(seed: int = 1) -> SearchBot:
    return make_bot("search", seed=seed, samples=30, bid_samples=12, auction_samples=12)  # type: ignore[return-value]


# Seat 0 holds the six top hearts: every trick, alone.
SWEEP = deal(["Jh Jd Ah Kh Qh Th", "9c Tc Jc Qc Ks Qs", "9h Ac Kc 9d Td As", "Ad Kd Qd Js Ts 9s"])


def test_six_top_trumps_shoot_the_moon_and_name_their_suit() -> None:
    s = State.from_deal(BE, SWEEP)
    b = bot()
    assert b.choose(PlayerView.of(s, 0)) == MOON
    s.push(MOON)
    while s.phase is Phase.AUCTION:
        s.push(PASS)
    assert str(b.choose(PlayerView.of(s, 0))) == "call h"


def test_the_moon_owes_the_margin_of_its_stake() -> None:
    view = PlayerView.of(State.from_deal(BE, SWEEP), 0)
    b = SearchBot(seed=0)
    assert b._margin(MOON, view) == TRICK_BID_MARGIN * BE.moon_points
    assert b._margin(Action.parse("bid 6"), view) == TRICK_BID_MARGIN * 6


def test_the_search_decides_every_moon_decision() -> None:
    # The gift, the discard of seven and the play of a moon are searched, not left to the heuristic.
    s = moon(MOONS, "call n")
    b = bot()
    ranked = b.evaluate(PlayerView.of(s, 2))
    assert {e.action for e in ranked} == set(s.legal_actions()) and ranked[0].samples >= 12
    s.push(b.choose(PlayerView.of(s, 2)))
    ranked = b.evaluate(PlayerView.of(s, 0))
    assert len(ranked) == 7 and all(e.action.kind is Kind.DISCARD for e in ranked)
    s.push(b.choose(PlayerView.of(s, 0)))
    while not s.is_over:
        view = PlayerView.of(s, s.to_act)
        action = b.choose(view)
        assert action in s.legal_actions()
        s.push(action)


def test_the_bot_plays_a_game_of_legal_moves() -> None:
    b = make_bot("search", seed=3, samples=8, bid_samples=4, auction_samples=4)
    game = Game(BE, seed=11)
    while not game.is_over and len(game.hands) < 3:
        action = b.choose(game.view(game.to_act))
        assert action in game.legal_actions()
        game.push(action)


# --- hints and review ----------------------------------------------------------------------------------------
def test_a_moon_hint_is_the_same_asked_twice() -> None:
    s = moon(MOONS, "call d")
    view = PlayerView.of(s, 0)
    first = hint(view, auction_samples=12)
    assert first == hint(view, auction_samples=12)
    assert len(first) == 7 and first[0].action.kind is Kind.DISCARD
    s.push(first[0].action)
    for seat in (0, 1):
        while s.to_act != seat and not s.is_over:
            s.push(s.legal_actions()[0])
        play = PlayerView.of(s, s.to_act)
        assert hint(play, samples=40) == hint(play, samples=40)


def test_a_moon_is_reviewed() -> None:
    game = Game(BE, deals=[MOONS], seed=5)
    for a in ("moon", "pass", "pass", "pass", "call n"):
        game.push(a)
    rng = random.Random(2)
    while len(game.hands) == 1 and not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    review = analyze_game(game, samples=8, bid_samples=4)
    assert all(d.loss >= 0 for d in review.decisions)
    assert {d.phase for d in review.decisions} >= {Phase.AUCTION, Phase.GIVE, Phase.BEST_DISCARD, Phase.PLAY}


# --- the budgets of the six-card games ---------------------------------------------------------------------
def _first_views(seed: int, tricks: int = 2) -> dict[str, PlayerView]:
    """A bid of a fresh deal, then (bid out by the heuristic player) a card played from each
    hand size of the first ``tricks`` tricks."""
    s = State.random(BE, dealer=0, rng=random.Random(seed))
    out = {"auction": PlayerView.of(s, s.to_act)}
    h = make_bot("heuristic", seed=seed)
    while len(s.tricks) < tricks and not s.is_over:
        v = PlayerView.of(s, s.to_act)
        if s.phase is Phase.PLAY and len(v.legal_actions) > 1:
            out.setdefault(f"play{len(v.hand)}", v)
        s.push(h.choose(v))
    return out


def test_the_first_two_tricks_take_the_wide_samples_and_a_hint_its_own() -> None:
    """``wide_samples`` deals for a card played from six or five cards (the first two tricks, each
    sample a solve of that many cards a hand per card), ``samples`` from four; a hint keeps its own
    budget (its noise goal is per sample)."""
    seed = next(k for k in range(40) if {"play6", "play5", "play4"} <= set(_first_views(k, 3)))
    views = _first_views(seed, 3)
    b = make_bot("search", seed=2, samples=9, wide_samples=5)
    assert {e.samples for e in b.evaluate(views["play6"])} == {5}  # type: ignore[attr-defined]
    assert {e.samples for e in b.evaluate(views["play5"])} == {5}  # type: ignore[attr-defined]
    assert {e.samples for e in b.evaluate(views["play4"])} == {9}  # type: ignore[attr-defined]
    assert {h.samples for h in hint(views["play6"], samples=7)} == {7}


def test_a_close_auction_bid_takes_up_to_the_auction_close_factor() -> None:
    """A bid of the auction is sampled ``auction_samples`` times, and while close (a margin of 100
    points: always) up to ``auction_close_factor`` times as often, whatever ``close_factor``."""
    view = _first_views(3)["auction"]
    for factor, expected in ((1, 4), (3, 12)):
        b = make_bot("search", seed=2, auction_samples=4, auction_close_factor=factor, close_factor=5,
                     close_margin=100.0)
        assert {e.samples for e in b.evaluate(view)} == {expected}  # type: ignore[attr-defined]
