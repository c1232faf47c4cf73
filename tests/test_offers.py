"""The offers before the bidding (house rules ``ace_no_face`` and ``farmers_hand``):
RULES-FAMILY.md 12.3, 12.4, 12.6, 12.7 and 18, clause by clause, then random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import FARMER, KEEP, MISDEAL, PASS, Action, Kind, discard
from euchre.bots import make_bot
from euchre.cards import Card, deck_mask, mask_of
from euchre.describe import action_words, hand_result_words, move_words
from euchre.errors import IllegalActionError, RulesError
from euchre.explain import rules_in_words
from euchre.notation import GameRecord
from euchre.protocol import view_dicts, view_from_dict, view_to_dict
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView

C = Card.parse
ANF = Rules(ace_no_face=True)
FARM = Rules(farmers_hand=True)
BOTH = Rules(ace_no_face=True, farmers_hand=True)
SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def deal(hands: list[str], up: str, stock: str, dealer: int = 0) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), C(up), cards(stock))


# Dealer 0. Seat 1 holds no face and one ace; seat 3 no face and one ace; seat 2 two faces and aces.
TWO_OFFERS = deal(["Jd Qd Kd Jh Qh", "9c Tc 9d Ad Th", "Ac Jc Qc Kc As", "9h Ah 9s Ts Td"], "Kh", "Js Qs Ks")
# Dealer 0. Seat 1 alone is offered (no face, one ace); seat 2 has two aces, so no offer.
ONE_OFFER = deal(["Jd Qd Kd Jh Qh", "9c Tc 9d Ad Th", "Ac As Td Ts 9s", "9h Ah Jc Qc Kc"], "Kh", "Js Qs Ks")
# Dealer 0. Seat 2 holds only 9s and 10s (so also no face and no ace); the stock under As: Js Qs Ks.
FARMER_DEAL = deal(["Jh Qh Kh 9s Ts", "Jc Qc Kc Ac Ad", "9c Tc 9d Td 9h", "Jd Qd Kd Th Ah"], "As", "Js Qs Ks")
# A plain deal by seat 0 that would offer a misdeal to seat 1 (used as the redeal: no offers then).
REDEAL = deal(["Jd Qd Kd Jh Qh", "9c Tc 9d Ad Th", "Ac Jc Qc Kc As", "9h Ah 9s Ts Td"], "Kh", "Js Qs Ks")


def views(s: State) -> dict[int | None, PlayerView]:
    return {seat: PlayerView.of(s, seat) for seat in SEATS}


def check_views(s: State) -> None:
    """RULES-FAMILY.md 12.7 on every seat's view and a spectator's, by itself and over the protocol."""
    vs = views(s)
    offered = s.phase in (Phase.MISDEAL_OFFER, Phase.FARMER_OFFER)
    for seat, v in vs.items():
        if offered and seat != s.to_act:
            assert (v.phase, v.to_act, v.legal_actions) == (Phase.OFFERS, -1, ())
        else:
            assert (v.phase, v.to_act) == (s.phase, s.to_act)
        # a "keep" is seen by the offered seat alone
        keeps = [(x, a) for x, a in zip(s.seats, s.history, strict=True) if a == KEEP]
        assert [(x, a) for x, a in v.actions if a == KEEP] == [(x, a) for x, a in keeps if x == seat]
        # a misdeal shows the caller's hand to all
        if s.misdeal >= 0:
            assert v.misdeal == s.misdeal and set(v.misdeal_hand) == set(s.deal.hands[s.misdeal])
        else:
            assert v.misdeal == -1 and v.misdeal_hand == ()
        # a farmer's claim is public; the cards given and taken are the farmer's alone
        assert v.farmer == s.farmer
        if seat == s.farmer:
            assert v.farmer_gave == s.farmer_gave
            assert set(v.farmer_took) == (set(s.deal.stock) if len(s.farmer_gave) == 3 else set())
        else:
            assert v.farmer_gave == () and v.farmer_took == ()
            for x, a in v.actions:
                if x == s.farmer and a is not None:
                    assert a.kind is not Kind.DISCARD or x == seat
        d = view_to_dict(v)
        assert view_dicts_of(s)[seat] == d
        if seat != s.farmer:
            assert d["farmer_gave"] == [] == d["farmer_took"]
        assert view_from_dict(d) == v


def view_dicts_of(s: State) -> dict[int | None, dict[str, object]]:
    g = Game.__new__(Game)
    g.hands = [s]
    g.initial_scores = (0,) * s.rules.sides
    return view_dicts(g, SEATS)


# --- 12.4 ace-no-face ----------------------------------------------------------------------------------
def test_a_seat_without_faces_and_one_ace_is_offered_misdeal_or_keep() -> None:
    s = State.from_deal(ANF, ONE_OFFER)
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.MISDEAL_OFFER, 1, [MISDEAL, KEEP])
    check_views(s)
    s.push("keep")  # seat 2 holds two aces: no offer; seats 3 and 0 hold faces
    assert (s.phase, s.to_act) == (Phase.BID1, 1)
    check_views(s)
    assert PlayerView.of(s, 2).actions == ()  # nobody else learns of the offer or the keep
    assert PlayerView.of(s, 1).actions == ((1, KEEP),)


def test_offers_go_in_turn_from_the_dealers_left_and_the_first_misdeal_ends_the_deal() -> None:
    s = State.from_deal(ANF, TWO_OFFERS)
    assert (s.phase, s.to_act) == (Phase.MISDEAL_OFFER, 1)
    check_views(s)
    s.push(KEEP)
    assert (s.phase, s.to_act) == (Phase.MISDEAL_OFFER, 3)
    check_views(s)
    s.push(MISDEAL)
    assert s.is_over and s.misdealt and s.misdeal == 3 and s.points is None and not s.thrown_in
    check_views(s)
    for v in views(s).values():
        assert set(v.misdeal_hand) == set(cards("9h Ah 9s Ts Td"))
        assert (3, MISDEAL) in v.actions
    s.pop()
    s.pop()
    assert s == State.from_deal(ANF, TWO_OFFERS)


def test_offers_need_the_switch_and_a_redeal_gets_none() -> None:
    assert State.from_deal(Rules(), TWO_OFFERS).phase is Phase.BID1
    assert State.from_deal(ANF, TWO_OFFERS, after_misdeal=True).phase is Phase.BID1


def test_the_same_dealer_deals_again_and_the_cancelled_deal_is_no_hand() -> None:
    readings: list[float] = []

    def clock() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    g = Game(ANF.replace(target=None, deals=1), deals=[TWO_OFFERS, REDEAL], clock=clock)
    assert len(readings) == 1
    g.push(KEEP)
    g.push(MISDEAL)
    assert len(g.hands) == 2 and g.hands[0].misdealt
    assert g.state.dealer == 0 and g.state.after_misdeal
    assert g.state.phase is Phase.BID1  # the redeal (the same cards here) gets no offers
    assert g.scores == [0, 0] and g.elapsed == [] and len(readings) == 1 and not g.is_over
    assert g.played_hands == 0 and g.score_sheet() == []
    assert g.played_hands_before() == 0 and "hand 1 in progress" in g.summary()  # the redeal is hand 1
    assert g.hands[0].result() is None  # not a hand: no result
    assert "misdeal" in hand_result_words(g.view(2, 0), ["A", "B", "C", "D"])
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not g.is_over and len(g.hands) == 2:
        g.push(bots[g.to_act].choose(g.view(g.to_act)))
    if not g.is_over:  # thrown in: the next hand passes to seat 1
        assert g.state.dealer == 1
    else:
        assert g.played_hands == 1 and len(g.elapsed) == 1 and len(readings) == 2
    # undo across the cancelled deal
    while g.action_count:
        g.pop()
    assert len(g.hands) == 1 and g.scores == [0, 0] and g.state == State.from_deal(g.rules, TWO_OFFERS)


def test_after_the_redeal_the_deal_passes_on_and_records_round_trip() -> None:
    g = Game(ANF, deals=[TWO_OFFERS, REDEAL], seed=5)
    g.push(KEEP)
    g.push(MISDEAL)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while len(g.hands) < 3:
        g.push(bots[g.to_act].choose(g.view(g.to_act)))
    assert [h.dealer for h in g.hands] == [0, 0, 1]
    rec = GameRecord.from_game(g)
    assert rec.hands[0].points is None and [a for _, a in rec.hands[0].actions] == [KEEP, MISDEAL]
    back = GameRecord.loads(rec.dumps()).replay()
    assert back.actions() == g.actions() and back.scores == g.scores and back.hands[0].misdealt
    assert [h.deal for h in back.hands] == [h.deal for h in g.hands]


def test_a_timed_game_does_not_read_the_clock_for_a_cancelled_deal() -> None:
    t = [0.0]

    def clock() -> float:
        t[0] += 60.0
        return t[0]

    g = Game(Rules.preset("timed", ace_no_face=True), deals=[TWO_OFFERS], seed=3, clock=clock)
    g.push(KEEP)
    g.push(MISDEAL)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while len(g.hands) < 3 and not g.is_over:
        g.push(bots[g.to_act].choose(g.view(g.to_act)))
    assert len(g.elapsed) == len(g.hands) - 2
    rec = GameRecord.from_game(g)
    assert rec.hands[0].elapsed is None and rec.hands[1].elapsed == g.elapsed[0]
    back = GameRecord.loads(rec.dumps()).replay()
    assert back.elapsed == g.elapsed and back.actions() == g.actions()


def test_move_and_action_words() -> None:
    s = State.from_deal(ANF, TWO_OFFERS)
    v = PlayerView.of(s, 1)
    assert action_words(MISDEAL, v) == "call a misdeal (ace, no face)"
    assert action_words(KEEP, v) == "keep your hand"
    s.push(KEEP)
    s.push(MISDEAL)
    v = PlayerView.of(s, None)
    words = move_words(v, 0, ["You", "West", "North", "East"])
    assert words.startswith("East calls a misdeal, showing") and "same dealer deals again" in words


# --- 12.3 farmer's hand -------------------------------------------------------------------------------
def test_the_farmer_gives_three_and_takes_the_three_under_the_up_card() -> None:
    s = State.from_deal(FARM, FARMER_DEAL)
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.FARMER_OFFER, 2, [KEEP, FARMER])
    check_views(s)
    s.push("farmer")
    assert (s.phase, s.to_act, s.farmer) == (Phase.FARMER_GIVE, 2, 2)
    check_views(s)
    assert set(a.card for a in s.legal_actions()) == set(cards("9c Tc 9d Td 9h"))
    for c in ("9c", "Tc", "9d"):
        s.push(c)  # a bare card gives it
        check_views(s)
    assert (s.phase, s.to_act) == (Phase.BID1, 1)
    assert set(s.hand(2)) == set(cards("Td 9h Js Qs Ks"))
    assert s.up_card == C("As") and s.farmer_gave == cards("9c Tc 9d")
    v = PlayerView.of(s, 2)
    assert set(v.farmer_took) == set(cards("Js Qs Ks")) and v.farmer_gave == cards("9c Tc 9d")
    assert not set(v.unseen()) & set(cards("9c Tc 9d"))
    for seat in (0, 1, 3, None):
        v = PlayerView.of(s, seat)
        assert (2, FARMER) in v.actions and v.actions.count((2, None)) == 3
        text = str(view_to_dict(v))
        for c in ("9c", "Tc", "9d", "Js", "Qs", "Ks"):
            assert f"'{c}'" not in text or seat is not None and c in map(str, v.hand)
    for _ in range(4):
        s.pop()
    assert s == State.from_deal(FARM, FARMER_DEAL)


def test_a_farmer_who_keeps_is_seen_by_nobody_else() -> None:
    s = State.from_deal(FARM, FARMER_DEAL)
    s.push(KEEP)
    assert s.phase is Phase.BID1 and s.farmer == -1
    check_views(s)
    assert PlayerView.of(s, 0).actions == () and PlayerView.of(s, 2).actions == ((2, KEEP),)


def test_the_farmers_offer_follows_the_ace_no_face_offers() -> None:
    s = State.from_deal(BOTH, FARMER_DEAL)
    assert (s.phase, s.to_act) == (Phase.MISDEAL_OFFER, 2)  # only 9s and 10s: no face, no ace
    s.push(KEEP)
    assert (s.phase, s.to_act) == (Phase.FARMER_OFFER, 2)
    check_views(s)
    s.push(FARMER)
    for _ in range(3):
        s.push(s.legal_actions()[0])
    assert s.phase is Phase.BID1
    g = Game(BOTH, deals=[FARMER_DEAL])
    g.push(MISDEAL)  # a misdeal: no farmer's offer in this deal
    assert g.hands[0].misdealt and g.hands[0].farmer == -1


def test_refused_offers() -> None:
    s = State.from_deal(ANF, ONE_OFFER)
    with pytest.raises(IllegalActionError, match="you may: misdeal, keep"):
        s.push(PASS)
    s.push(KEEP)
    with pytest.raises(IllegalActionError, match="nothing is offered now"):
        s.push(MISDEAL)
    with pytest.raises(IllegalActionError, match="nothing is offered now"):
        s.push(FARMER)
    f = State.from_deal(FARM, FARMER_DEAL)
    with pytest.raises(IllegalActionError, match="misdeal is not offered now"):
        f.push(MISDEAL)
    f.push(FARMER)
    with pytest.raises(IllegalActionError, match="you do not hold As"):
        f.push(discard(C("As")))


@pytest.mark.parametrize(("fields", "message"), [
    ({"players": 3, "going_alone": False, "ace_no_face": True}, "ace_no_face: is a house rule of four-player"),
    ({"players": 2, "going_alone": False, "farmers_hand": True}, "farmers_hand: is a house rule of four-player"),
    ({"deck": 25, "farmers_hand": True}, "farmers_hand: needs the 24-card deck"),
    ({"deck": 32, "farmers_hand": True}, "farmers_hand: needs the 24-card deck"),
])
def test_refused_rules(fields: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**fields)  # type: ignore[arg-type]


def test_refused_presets_and_allowed_ones() -> None:
    with pytest.raises(RulesError, match="farmers_hand: needs the 24-card deck"):
        Rules.preset("railroad", farmers_hand=True)
    with pytest.raises(RulesError, match="ace_no_face"):
        Rules.preset("cut-throat", ace_no_face=True)
    assert Rules.preset("british", ace_no_face=True).ace_no_face
    words = " ".join(rules_in_words(BOTH))
    assert "call a misdeal" in words and "farmer" in words


# --- random games ---------------------------------------------------------------------------------------
def conserved(s: State) -> None:
    deck = deck_mask(s.rules.deck)
    seen = 0
    for m in s.hands:
        assert not seen & m
        seen |= m
    out = 0
    for t in s.tricks:
        out |= mask_of(t.cards)
    out |= mask_of(c for _, c in s.trick)
    out |= mask_of(s.farmer_gave)
    if s.discard is not None:
        out |= 1 << s.discard
    for gift in s.gifts:
        if gift.discard is not None:
            out |= 1 << gift.discard
    assert not seen & out
    rest = (1 << s.up_card) | mask_of(s.deal.stock)
    assert seen | out | rest == deck
    if s.farmer >= 0 and len(s.farmer_gave) == 3:  # the three under the up card are the farmer's
        held = seen | out
        assert mask_of(s.deal.stock) & ~held == 0


def no_leaks(s: State) -> None:
    for seat in SEATS:
        v = PlayerView.of(s, seat)
        assert v.hand == (tuple(s.hand(seat)) if seat is not None else ())
        if seat != s.to_act and s.phase in (Phase.MISDEAL_OFFER, Phase.FARMER_OFFER):
            assert v.phase is Phase.OFFERS and v.to_act == -1
        if seat != s.farmer:
            assert v.farmer_gave == () and v.farmer_took == ()
        mine = [a for x, a in v.actions if x != seat]
        assert KEEP not in mine


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), extra=st.sampled_from([{}, {"call_for_best": True}, {"defend_alone": True},
                                                          {"stick_the_dealer": True}]),
       which=st.sampled_from(["both", "ace_no_face", "farmers_hand"]))
def test_random_games_with_the_offers(seed: int, extra: dict[str, bool], which: str) -> None:
    fields = {"ace_no_face": which != "farmers_hand", "farmers_hand": which != "ace_no_face", "target": 5, **extra}
    rules = Rules(**fields)  # type: ignore[arg-type]
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    steps = 0
    while not g.is_over:
        s = g.state
        conserved(s)
        no_leaks(s)
        legal = s.legal_actions()
        assert legal and all(isinstance(a, Action) for a in legal)
        before = s.key()
        a = rng.choice(legal)
        s._push(a)
        s.pop()
        assert s.key() == before  # pop is exact
        g.push(a)
        steps += 1
        assert steps < 5000
    for h in g.hands:
        if h.misdealt:
            assert h.points is None and h.history[-1] == MISDEAL
    after = [i for i, h in enumerate(g.hands) if i and g.hands[i - 1].misdealt]
    for i in after:
        assert g.hands[i].dealer == g.hands[i - 1].dealer and g.hands[i].after_misdeal
        assert Phase.MISDEAL_OFFER not in {PlayerView.of(g.hands[i], x).phase for x in range(4)}
        assert MISDEAL not in g.hands[i].history
    played = [h for h in g.hands if not h.misdealt]
    assert g.played_hands == sum(1 for h in played if not h.thrown_in)
    assert tuple(g.scores) == tuple(map(sum, zip(*(h.points for h in played), strict=True)))
    rec = GameRecord.loads(GameRecord.from_game(g).dumps())
    back = rec.replay()
    assert back.actions() == g.actions() and back.scores == g.scores and back.winners == g.winners
    while g.action_count:
        g.pop()
    assert g.state == Game(rules, seed=seed).state and g.scores == [0, 0]


def test_bots_play_games_with_the_offers() -> None:
    for level in ("heuristic", "search"):
        g = Game(BOTH.replace(call_for_best=True), seed=11)
        bots = [make_bot(level, seed=i) for i in range(4)] if level == "heuristic" else \
            [make_bot("heuristic", seed=0), make_bot(level, seed=1), make_bot("heuristic", seed=2),
             make_bot(level, seed=3)]
        for _ in range(6):
            if g.is_over:
                break
            h = len(g.hands)
            while len(g.hands) == h and not g.is_over:
                g.push(bots[g.to_act].choose(g.view(g.to_act)))


def test_the_search_bot_decides_an_offer() -> None:
    s = State.from_deal(BOTH, FARMER_DEAL)
    bot = make_bot("search", seed=1)
    assert bot.choose(PlayerView.of(s, 2)) == MISDEAL  # searched: a fresh deal is worth more
    s.push(KEEP)
    assert bot.choose(PlayerView.of(s, 2)) == FARMER
    s.push(FARMER)
    assert bot.choose(PlayerView.of(s, 2)) == discard(C("9c"))
