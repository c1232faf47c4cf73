"""Bid Euchre (preset ``bid-euchre``, rules field ``bid_euchre``): RULES-FAMILY.md 15, 17 and 18.8,
clause by clause on named deals, then random hands (hypothesis) and a perft count of the auction
against a small reference written here (not the engine). The double deck (``double_deck``) is not
built yet."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import MOON, PASS, Action, Kind, bid, call
from euchre.bots import make_bot
from euchre.cards import LOW, NO_TRUMP, Card, deck_cards, deck_mask, mask_of
from euchre.describe import action_words, hand_result_words, move_words
from euchre.errors import DealError, IllegalActionError, RecordError, RulesError
from euchre.explain import rules_in_words
from euchre.notation import GameRecord
from euchre.protocol import view_from_dict, view_to_dict
from euchre.results import Outcome
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView

C = Card.parse
BE = Rules.preset("bid-euchre")
SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)
NAMES = ["South", "West", "North", "East"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def deal(hands: Sequence[str], dealer: int = 3) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), None, ())


# Seat 1 holds the six top diamonds: with diamonds trump it takes every trick, alone or not.
# Seat 3 (its partner, the dealer) holds the 9 of diamonds, its only trump then.
TOP = ["9c Tc Qc Kc Ac 9h", "Jd Jh Ad Kd Qd Td", "Jc Js Th Qh Kh Ah", "9d 9s Ts Qs Ks As"]
TOP_DEAL = deal(TOP)


def hand(d: Deal = TOP_DEAL, rules: Rules = BE) -> State:
    return State.from_deal(rules, d)


def push_all(s: State, *actions: str) -> None:
    for a in actions:
        s.push(a)


def play_out(s: State) -> None:
    while not s.is_over:
        s.push(s.legal_actions()[0])


def best_play_out(s: State) -> None:
    """The maker's side plays its highest card, the others their first: enough for TOP_DEAL's sweeps."""
    while not s.is_over:
        legal = s.legal_actions()
        mine = s.phase is Phase.PLAY and s.side_of(s.to_act) == s.side_of(s.maker)
        s.push(max(legal, key=lambda a: _power(a, s)) if mine else legal[0])


def _power(a: Action, s: State) -> int:
    from euchre.cards import card_power

    assert a.card is not None and s.trump is not None
    return card_power(a.card, s.trump)


# --- the preset and its refusals (15, 17, 18.1, 18.8) --------------------------------------------------
def test_the_preset() -> None:
    assert BE.bid_euchre and BE.players == 4 and BE.deck == 24 and BE.target == 32 and BE.hand_size == 6
    assert not BE.has_up_card and BE.bid_range == (3, 6) and BE.moon_points == 12
    assert Rules.preset("bid") == BE and Rules.preset("Bid Euchre") == BE
    assert BE.sister_game == "Bid Euchre" and BE.preset_name() == "bid-euchre"
    assert Rules.from_dict(BE.to_dict()) == BE
    assert Rules.preset("bid-euchre", target=50).target == 50  # the target is settable


@pytest.mark.parametrize(("change", "field"), [
    ({"deck": 25}, "deck"), ({"deck": 32}, "deck"), ({"players": 3}, "players"),
    ({"going_alone": True}, "going_alone"), ({"stick_the_dealer": True}, "stick_the_dealer"),
    ({"no_trump": True}, "no_trump"), ({"call_for_best": True}, "call_for_best"),
    ({"super_euchre": True}, "super_euchre"), ({"laps": True}, "laps"),
    ({"auction": True}, "bid_euchre"), ({"defenders_score_tricks": True}, "defenders_score_tricks"),
    ({"target": None, "deals": 8}, "target"), ({"target": None, "duration": 30}, "target"),
])
def test_refused_combinations_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError, match=f"Rules.{field}"):
        Rules.preset("bid-euchre", **change)


def test_the_whole_pack_is_dealt_in_threes_from_the_dealers_left() -> None:
    s = State.random(BE, dealer=1, rng=random.Random(7))
    assert s.up_card is None and s.deal.stock == () and s.phase is Phase.AUCTION and s.to_act == 2
    assert mask_of([c for h in s.deal.hands for c in h]) == deck_mask(24)
    assert all(len(h) == 6 for h in s.deal.hands)
    shuffled = deck_cards(24)
    random.Random(7).shuffle(shuffled)
    # seat 2 (the dealer's left) gets the first three and the 13th-15th cards
    assert s.deal.hands[2] == (*shuffled[0:3], *shuffled[12:15])


def test_a_deal_is_checked() -> None:
    with pytest.raises(DealError, match="turns no card up"):
        State(BE, dealer=3, hands=TOP, up_card="As")
    with pytest.raises(DealError, match="6 cards"):
        State(BE, dealer=3, hands=[h[:-3] for h in TOP], up_card=None)
    with pytest.raises(DealError, match="not in the 24-card deck"):
        State(BE, dealer=3, hands=TOP[:3] + ["9d 9s Ts Qs Ks Jk"], up_card=None)


# --- the bidding (15): one turn each, 3 to 6 or the moon, the stuck dealer -------------------------------------
def test_bids_offered_in_turn() -> None:
    s = hand()
    assert s.to_act == 0
    assert s.legal_actions() == [PASS, bid(3), bid(4), bid(5), bid(6), MOON]
    s.push("bid 4")
    assert s.to_act == 1 and s.legal_actions() == [PASS, bid(5), bid(6), MOON]
    with pytest.raises(IllegalActionError, match="above the highest so far"):
        s.push("bid 4")
    with pytest.raises(IllegalActionError, match="a bid is 3 to 6 tricks in Bid Euchre"):
        s.push("bid 7")
    s.push("moon")
    assert s.moon and s.bid == 7 and s.bidder == 1
    assert s.legal_actions() == [PASS]  # nothing beats the moon
    with pytest.raises(IllegalActionError, match="nothing beats the moon"):
        s.push("bid 6")
    with pytest.raises(IllegalActionError, match="nothing beats the moon"):
        s.push("moon")
    push_all(s, "pass", "pass")
    assert s.phase is Phase.NAME_TRUMP and s.to_act == 1


def test_a_bid_below_three_is_refused() -> None:
    s = hand()
    key = s.key()
    with pytest.raises(IllegalActionError, match="a bid is 3 to 6 tricks in Bid Euchre"):
        s.push("bid 2")
    assert s.key() == key  # the state is exactly as it was


def test_the_dealer_is_stuck_when_the_first_three_pass() -> None:
    s = hand()
    push_all(s, "pass", "pass", "pass")
    assert s.to_act == 3 == s.dealer
    assert s.legal_actions() == [bid(3), bid(4), bid(5), bid(6), MOON]
    with pytest.raises(IllegalActionError, match="the dealer is stuck"):
        s.push("pass")
    s.push("bid 3")
    assert s.phase is Phase.NAME_TRUMP and s.bidder == 3 and not s.forced_bid


def test_the_dealer_may_pass_after_a_bid() -> None:
    s = hand()
    push_all(s, "pass", "bid 3", "pass")
    assert PASS in s.legal_actions()
    s.push("pass")
    assert s.phase is Phase.NAME_TRUMP and s.to_act == 1


# --- trump (15): a suit, high or low; the high bidder leads --------------------------------------------------
def test_the_high_bidder_names_a_suit_high_or_low_and_leads() -> None:
    s = hand()
    push_all(s, "pass", "bid 5", "pass", "pass")
    assert s.legal_actions() == [call(0), call(1), call(2), call(3), call(NO_TRUMP), call(LOW)]
    assert s.parse_action("high") == call(NO_TRUMP) and s.parse_action("call high") == call(NO_TRUMP)
    s.push("call low")
    assert s.trump == LOW and s.maker == 1 and not s.alone
    assert s.phase is Phase.PLAY and s.to_act == s.leader == 1  # the high bidder leads


def test_high_and_low_rank_each_suit_without_bowers() -> None:
    s = hand()
    push_all(s, "pass", "bid 3", "pass", "pass", "call n", "play Jd")
    assert len(s.legal_actions()) == 6  # seat 2 holds no diamond: the jack of hearts is no bower in high
    s.push(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["play 9d"]  # seat 3 must follow diamonds
    push_all(s, "play 9d", "play 9c")
    assert s.tricks[0].winner == 1  # high: the jack of diamonds beats the 9
    low = hand()
    push_all(low, "pass", "bid 3", "pass", "pass", "call low", "play Td")
    low.push(low.legal_actions()[0])
    push_all(low, "play 9d", "play 9c")
    assert low.tricks[0].winner == 3  # low: the 9 of diamonds beats the 10


# --- scoring (15) ------------------------------------------------------------------------------------------------
def test_a_made_bid_scores_both_sides_their_tricks() -> None:
    s = hand()
    push_all(s, "pass", "bid 4", "pass", "pass", "call d")
    assert [s.score_for(t) for t in range(7)] == [(6 - t, -4) for t in range(4)] + [(2, 4), (1, 5), (0, 6)]
    best_play_out(s)
    assert s.points == (0, 6) and s.result().outcome is Outcome.MARCH  # type: ignore[union-attr]


def test_a_set_bid_loses_the_bid_and_the_defenders_score_their_tricks() -> None:
    s = hand()
    push_all(s, "bid 6", "pass", "pass", "pass", "call h")
    play_out(s)
    taken = s.maker_tricks()
    assert taken < 6 and s.points == (-6, 6 - taken)
    r = s.result()
    assert r is not None and r.euchred and r.bid == 6 and not r.moon


def test_the_moon_partner_gives_the_highest_trump_and_sits_out() -> None:
    s = hand()
    push_all(s, "pass", "moon", "pass", "pass", "call d")
    assert s.alone and s.sitting_out == frozenset({3}) and s.maker == 1
    # the engine gave seat 3's only diamond (no decision): the shooter now holds seven and discards
    assert s.gifts[0].giver == 3 and s.gifts[0].card == C("9d") and s.gifts[0].forced
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 1 and len(s.hand(1)) == 7
    s.push("discard 9d")
    assert s.phase is Phase.PLAY and s.to_act == 1  # the shooter leads
    best_play_out(s)
    assert s.maker_tricks() == 6 and s.points == (0, 12)
    r = s.result()
    assert r is not None and r.moon and r.alone and r.outcome is Outcome.MARCH and r.bid == 7


def test_a_failed_moon_loses_twelve_and_the_defenders_score() -> None:
    s = hand()
    push_all(s, "moon", "pass", "pass", "pass", "call c")
    while s.phase is not Phase.PLAY:
        s.push(s.legal_actions()[0])
    play_out(s)
    taken = s.maker_tricks()
    assert taken < 6 and s.points == (-12, 6 - taken)
    assert s.result().moon and s.result().euchred  # type: ignore[union-attr]


def test_a_moon_in_high_lets_the_partner_choose_and_hides_it() -> None:
    s = hand()
    push_all(s, "pass", "moon", "pass", "pass", "call n")
    assert s.phase is Phase.GIVE and s.to_act == 3  # no trump in high: the partner chooses
    for seat in (0, 2, None):
        v = PlayerView.of(s, seat)
        assert v.phase is Phase.CALL_FOR_BEST and v.to_act == -1 and not v.legal_actions
    s.push("give As")
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 1
    s.push("discard Td")
    for seat in (0, 2, None):
        named = _quoted_cards(PlayerView.of(s, seat))
        assert "As" not in named and "Td" not in named  # neither the card given nor the discard
    assert C("As") in PlayerView.of(s, 1).hand


# --- the game: the winning rule, the back door (15) -----------------------------------------------------------
def play_game_hand(game: Game, *opening: str) -> None:
    for a in opening:
        game.push(a)
    index = len(game.hands) - 1
    while len(game.hands) - 1 == index and not game.is_over:
        legal = game.legal_actions()
        s = game.state
        mine = s.phase is Phase.PLAY and s.side_of(s.to_act) == s.side_of(s.maker)
        game.push(max(legal, key=lambda a: _power(a, s)) if mine else legal[0])


def test_the_makers_win_at_the_target_on_a_made_bid() -> None:
    game = Game(BE, deals=[TOP_DEAL], seed=3, scores=(20, 27))
    play_game_hand(game, "pass", "bid 4", "pass", "pass", "call d")
    assert game.scores == [20, 33] and game.is_over and game.winner == 1


def test_the_defenders_at_the_target_do_not_win_on_a_made_bid() -> None:
    game = Game(BE, deals=[TOP_DEAL, Deal(0, TOP_DEAL.hands, None, ())], seed=3, scores=(32, 0))
    play_game_hand(game, "pass", "bid 6", "pass", "pass", "call d")  # seat 1 makes 6; side 0 holds 32
    assert game.scores == [32, 6] and not game.is_over  # side 0 did not set the makers: play on


def test_the_defenders_win_at_the_target_by_setting_the_makers() -> None:
    game = Game(BE, deals=[TOP_DEAL], seed=3, scores=(25, 40))
    play_game_hand(game, "pass", "pass", "pass", "bid 6", "call s")  # the dealer's spades: set
    s = game.hands[0]
    assert s.result().euchred  # type: ignore[union-attr]
    defenders = 6 - s.maker_tricks()
    assert game.scores == [25 + defenders, 34] and (game.winner == 0) == (25 + defenders >= 32)
    assert not game.is_over or game.winner == 0  # side 1 holds 34 but failed its bid: it cannot win


def test_the_back_door_loses_at_once() -> None:
    game = Game(BE, deals=[TOP_DEAL], seed=3, scores=(-28, 0))
    play_game_hand(game, "bid 6", "pass", "pass", "pass", "call h")  # West holds both red bowers: set
    assert game.scores[0] == -34 and game.is_over and game.winner == 1


# --- words, records and EGN ---------------------------------------------------------------------------------------
def test_bids_trump_and_results_in_words() -> None:
    assert str(MOON) == "moon" and Action.parse("shoot the moon") == MOON and MOON.kind is Kind.MOON
    s = hand()
    v = PlayerView.of(s, 0)
    assert action_words(MOON, v) == "shoot the moon (every trick, alone)"
    assert action_words(bid(3), v) == "bid 3 tricks"
    push_all(s, "pass", "moon", "pass", "pass")
    v = PlayerView.of(s, 1)
    assert action_words(call(NO_TRUMP), v) == "name high (no trump, aces high)"
    assert action_words(call(LOW), v) == "name low (no trump, nines high)"
    s.push("call d")
    v = PlayerView.of(s, 0)
    assert move_words(v, 1, NAMES) == "West shoots the moon" and move_words(v, 4, NAMES) == "West names diamonds trump"
    s.push("discard 9d")
    best_play_out(s)
    words = hand_result_words(PlayerView.of(s, 0), NAMES)
    assert words.startswith("West shot the moon and took every trick") and "score 12" in words
    n = hand()
    push_all(n, "pass", "bid 3", "pass", "pass", "call n")
    assert move_words(PlayerView.of(n, 0), 4, NAMES) == "West names high"
    play_out(n)
    assert "(high," in hand_result_words(PlayerView.of(n, 0), NAMES)
    assert any("shoot the moon" in p for p in rules_in_words(BE, "bid-euchre"))


def test_a_record_round_trips() -> None:
    game = Game(BE, deals=[TOP_DEAL], seed=5)
    play_game_hand(game, "bid 3", "moon", "pass", "pass", "call d", "discard 9d")
    text = GameRecord.from_game(game).dumps()
    assert "bid_euchre = true" in text and '"p1 moon"' in text and "up =" not in text
    again = GameRecord.loads(text).replay()
    assert [h.deal for h in again.hands] == [h.deal for h in game.hands] and again.scores == game.scores
    assert [h.history for h in again.hands] == [h.history for h in game.hands]


def test_egn_refuses_bid_euchre() -> None:
    from euchre import egn

    with pytest.raises(RecordError, match="Bid Euchre's auction"):
        egn.dumps(Game(BE, seed=5))


# --- views (section 9, 12.7 for the moon) ----------------------------------------------------------------------
def _quoted_cards(view: PlayerView) -> set[str]:
    """Every card named anywhere in the view's JSON form."""
    text = json.dumps(view_to_dict(view))
    return {str(c) for c in deck_cards(24) if f'"{c}"' in text or f"{c}\"" in text or f"play {c}" in text}


def played_cards(s: State) -> list[Card]:
    return [c for t in s.tricks for c in t.cards] + [c for _, c in s.trick]


def check_views(s: State) -> None:
    played = {str(c) for c in played_cards(s)}
    for seat in SEATS:
        v = PlayerView.of(s, seat)
        mine = set() if seat is None else set(map(str, v.hand))
        seen = {str(c) for g in v.gifts for c in g[2:] if c is not None}
        assert _quoted_cards(v) <= mine | played | seen  # no hidden card is named
        assert v.up_card is None
        if seat is not None:
            assert mask_of(v.hand) == s.hands[seat]
        assert view_from_dict(view_to_dict(v)) == v


# --- properties over random hands -----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3))
def test_random_hands(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    s = State.random(BE, dealer=dealer, rng=rng)
    start = s.key()
    keys = [s.key()]
    while not s.is_over:
        check_views(s)
        legal = s.legal_actions()
        assert len(set(legal)) == len(legal) and legal
        s.push(rng.choice(legal))
        keys.append(s.key())
        buried = [g.discard for g in s.gifts if g.discard is not None]
        total = sum(h.bit_count() for h in s.hands) + len(played_cards(s)) + len(buried)
        assert total == 24  # cards are conserved: hands, tricks and the moon's discard
    check_views(s)
    assert len(s.tricks) == 6 and s.maker >= 0  # the stuck dealer: never thrown in
    taken = sum(1 for t in s.tricks if s.side_of(t.winner) == s.side_of(s.maker))
    maker_side = s.side_of(s.maker)
    expect = [0, 0]
    if s.bid == 7:  # the moon
        expect[maker_side] = 12 if taken == 6 else -12
        expect[1 - maker_side] = 0 if taken == 6 else 6 - taken
        assert s.alone and len(s.gifts) == 1
    else:
        expect[maker_side] = taken if taken >= s.bid else -s.bid
        expect[1 - maker_side] = 6 - taken
        assert 3 <= s.bid <= 6 and not s.alone
    assert s.points == tuple(expect)
    for k in reversed(keys[:-1]):  # pop restores every position exactly
        s.pop()
        assert s.key() == k
    assert s.key() == start


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), bots=st.sampled_from(["random", "heuristic"]))
def test_random_games_end_by_the_rule_and_round_trip(seed: int, bots: str) -> None:
    game = Game(BE, seed=seed)
    players = [make_bot(bots, seed=seed + i) for i in range(4)]
    while not game.is_over and len(game.hands) < 60:
        seat = game.to_act
        action = players[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.push(action)
    for i, h in enumerate(game.hands):
        if h.is_over:
            assert hand_result_words(game.view(0, i), NAMES)
    again = GameRecord.loads(GameRecord.from_game(game).dumps()).replay()
    assert again.scores == game.scores and again.winners == game.winners
    if game.is_over:
        last = game.hands[-1]
        r = last.result()
        assert r is not None
        w = game.winner
        assert w is not None
        fell = min(game.scores) <= -32
        qualified = r.maker_side if r.made else 1 - r.maker_side  # type: ignore[operator]
        assert fell or (w == qualified and game.scores[w] >= 32)


def test_the_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(10):
        game = Game(BE, seed=seed)
        bots = [make_bot("heuristic" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            game.push(bots[seat].choose(game.view(seat)))
        wins += game.winner == 0
    assert wins >= 9


def test_the_heuristic_shoots_the_moon_with_the_top_six() -> None:
    s = hand()
    s.push("pass")
    bot = make_bot("heuristic", seed=1)
    assert bot.choose(PlayerView.of(s, 1)) == MOON
    s.push("moon")
    s.push("pass")
    s.push("pass")
    assert bot.choose(PlayerView.of(s, 1)) == call(1)  # diamonds


WEAK_DEALER = deal(["As Kd Js 9s Jd 9d", "Jh Ad Tc 9c Ah Jc", "Kh Ac Ks Kc Qh 9h", "Th Qs Ts Qc Qd Td"])


def test_a_stuck_dealer_with_nothing_bids_three() -> None:
    s = hand(WEAK_DEALER)
    push_all(s, "pass", "pass", "pass")
    assert make_bot("heuristic", seed=2).choose(PlayerView.of(s, 3)) == bid(3)


# --- perft: the auction's decision sequences, against a reference written here ------------------------------------
def _ref_auction(high: int, turn: int, anyone: bool) -> int:
    """Leaves of the bidding from here: each of the four turns passes or tops ``high`` with 3 to 6
    or the moon (7); the dealer (turn 3) may not pass when nobody bid; then trump is named (6 ways)."""
    if turn == 4:
        return 6
    options = [b for b in range(3, 8) if b > high]
    total = sum(_ref_auction(b, turn + 1, True) for b in options)
    if turn < 3 or anyone:
        total += _ref_auction(high, turn + 1, anyone)
    return total


def _perft(s: State, depth: int) -> int:
    if depth == 0 or s.is_over:
        return 1
    total = 0
    for a in s.legal_actions():
        s._push(a)
        total += _perft(s, depth - 1)
        s.pop()
    return total


def _count_to_trump(s: State) -> int:
    """Leaves once trump is named (every line of the auction, then each trump)."""
    if s.phase is not Phase.AUCTION and s.phase is not Phase.NAME_TRUMP:
        return 1
    total = 0
    for a in s.legal_actions():
        s._push(a)
        total += _count_to_trump(s)
        s.pop()
    return total


def test_perft_of_the_auction() -> None:
    assert _count_to_trump(hand()) == _ref_auction(0, 0, False)
    assert _perft(hand(), 4) == sum(1 for _ in _ref_lines(0, 0, False))


def _ref_lines(high: int, turn: int, anyone: bool):  # type: ignore[no-untyped-def]
    if turn == 4:
        yield ()
        return
    if turn < 3 or anyone:
        for rest in _ref_lines(high, turn + 1, anyone):
            yield ("pass", *rest)
    for b in range(max(high + 1, 3), 8):
        for rest in _ref_lines(b, turn + 1, True):
            yield (b, *rest)
