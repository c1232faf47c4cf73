"""Hasenpfeffer (preset ``hasenpfeffer``, rules field ``auction``): RULES-FAMILY.md 14, 17 and 18.7,
clause by clause on named deals, then random hands (hypothesis) and a perft count against a small
reference written here (not the engine)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import PASS, Action, Kind, bid, call
from euchre.bots import make_bot
from euchre.cards import JOKER, Card, deck_cards, deck_mask, mask_of
from euchre.describe import action_words, hand_result_words, move_words
from euchre.errors import DealError, IllegalActionError, RecordError, RulesError
from euchre.notation import GameRecord
from euchre.protocol import view_from_dict, view_to_dict
from euchre.results import Outcome
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView

C = Card.parse
HP = Rules.preset("hasenpfeffer")
HPD = Rules.preset("hasenpfeffer", defenders_score_tricks=True)
SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)
NAMES = ["South", "West", "North", "East"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def deal(hands: Sequence[str], unused: str, dealer: int = 3) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), None, cards(unused))


# Seat 1 holds the Joker and the five top diamonds: with diamonds trump it takes all six tricks.
TOP = ["9c Tc Qc Kc Ac 9h", "Jk Jd Jh Ad Kd Qd", "Jc Js Th Qh Kh Ah", "9d Td 9s Ts Qs Ks"]
TOP_DEAL = deal(TOP, "As")
# The same with the Joker as the unused card (the ace of spades in seat 1 instead).
NO_JOKER = deal(["9c Tc Qc Kc Ac 9h", "As Jd Jh Ad Kd Qd", "Jc Js Th Qh Kh Ah", "9d Td 9s Ts Qs Ks"], "Jk")


def hand(d: Deal, rules: Rules = HP) -> State:
    return State.from_deal(rules, d)


def push_all(s: State, *actions: str) -> None:
    for a in actions:
        s.push(a)


def play_out(s: State, policy: str = "first") -> None:
    """Play to the end of the hand: the first legal action, or the highest trump for the maker."""
    while not s.is_over:
        legal = s.legal_actions()
        s.push(legal[-1] if policy == "last" else legal[0])


def rotated(d: Deal, k: int) -> Deal:
    """The deal with every hand moved ``k`` seats on (and the dealer with them)."""
    hands = tuple(d.hands[(s - k) % 4] for s in range(4))
    return Deal((d.dealer + k) % 4, hands, None, d.stock)


# --- the preset and its refusals (14, 17, 18.1, 18.7) ------------------------------------------------
def test_the_preset() -> None:
    assert (HP.players, HP.deck, HP.target, HP.hand_size, HP.auction, HP.going_alone) == (4, 25, 10, 6, True, False)
    assert not HP.has_up_card and not HP.defenders_score_tricks
    for alias in ("hasenpfepper", "hasen", "Hasenpfeffer Euchre"):
        assert Rules.preset(alias) == HP
    assert Rules.resolve_preset("hasen") == "hasenpfeffer" and HP.preset_name() == "hasenpfeffer"
    assert Rules.from_dict(HP.to_dict()) == HP and Rules().hand_size == 5


@pytest.mark.parametrize(("change", "field"), [
    ({"going_alone": True}, "going_alone"), ({"stick_the_dealer": True}, "stick_the_dealer"),
    ({"canadian_loner": True}, "canadian_loner"), ({"loner_lead": "loner_left"}, "loner_lead"),
    ({"super_euchre": True}, "super_euchre"), ({"dealer_may_discard_up_card": False}, "dealer_may_discard_up_card"),
    ({"loner_march_points": 5}, "loner_march_points"), ({"make_points": 2}, "make_points"),
    ({"ace_no_face": True}, "ace_no_face"), ({"farmers_hand": True}, "farmers_hand"),
    ({"tie_break": False}, "tie_break"), ({"slam": True}, "slam"),
    ({"deck": 24}, "deck"), ({"players": 3}, "players"), ({"duration": 30}, "target"), ({"deals": 8}, "target"),
])
def test_refused_combinations_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError, match=f"Rules.{field}"):
        Rules.preset("hasenpfeffer", **change)


def test_defenders_score_tricks_needs_the_auction() -> None:
    with pytest.raises(RulesError, match="Rules.defenders_score_tricks"):
        Rules(defenders_score_tricks=True)
    assert HPD.defenders_score_tricks


# --- the deal (14: six each in threes from the dealer's left, the 25th unused, never shown) -------------
def test_random_deal_in_threes_from_the_dealers_left() -> None:
    for dealer in range(4):
        s = State.random(HP, dealer=dealer, rng=random.Random(7))
        pack = list(deck_cards(25))
        random.Random(7).shuffle(pack)
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            assert s.deal.hands[seat] == (*pack[3 * i:3 * i + 3], *pack[12 + 3 * i:15 + 3 * i])
        assert s.deal.up_card is None and s.up_card is None and s.deal.stock == (pack[24],)
        assert all(len(h) == 6 for h in s.deal.hands)
        assert (s.phase, s.to_act) == (Phase.AUCTION, (dealer + 1) % 4)


def test_a_deal_is_checked() -> None:
    with pytest.raises(DealError, match="6 cards"):
        State(HP, dealer=0, hands=["9c Tc Qc Kc Ac", *TOP[1:]], up_card=None, stock="As 9h")
    with pytest.raises(DealError, match="no card up"):
        State(HP, dealer=0, hands=TOP, up_card="As")
    with pytest.raises(DealError, match="up card"):
        State(Rules(), dealer=0, hands=["9c Tc Qc Kc Ac"] * 4, up_card=None)
    s = State(HP, dealer=3, hands=TOP, up_card=None)
    assert s.deal == TOP_DEAL


# --- bidding (14: one turn each, dealer last; pass or 1 to 6 above the highest) -----------------------
def test_bids_offered_in_turn() -> None:
    s = hand(TOP_DEAL)
    assert s.to_act == 0 and s.legal_actions() == [PASS, *(bid(k) for k in range(1, 7))]
    s.push("bid 2")
    assert s.to_act == 1 and s.legal_actions() == [PASS, bid(3), bid(4), bid(5), bid(6)]
    s.push("pass")
    s.push("4")  # a bare number bids in the auction
    assert s.history[-1] == bid(4) and s.to_act == 3 and s.legal_actions() == [PASS, bid(5), bid(6)]
    with pytest.raises(IllegalActionError, match="above the highest so far"):
        s.push("bid 3")
    s.push("bid 6")  # the dealer bids last
    assert (s.phase, s.to_act, s.bid, s.bidder, s.forced_bid) == (Phase.NAME_TRUMP, 3, 6, 3, False)


def test_after_a_bid_of_six_the_others_may_only_pass() -> None:
    s = hand(TOP_DEAL)
    s.push("bid 6")
    for seat in (1, 2, 3):
        assert s.to_act == seat and s.legal_actions() == [PASS]  # a decision even with one option
        s.push("pass")
    assert s.phase is Phase.NAME_TRUMP and s.to_act == 0


def test_bids_in_words_and_text() -> None:
    assert str(bid(3)) == "bid 3" and Action.parse("bid 3") == bid(3) and Action.parse("BID  1") == bid(1)
    assert bid(1).kind is Kind.BID and bid(6).tricks == 6 and bid(3).is_bid and PASS.tricks is None
    assert bid(1).describe() == "bid 1 trick" and bid(3).describe() == "bid 3 tricks"
    s = hand(TOP_DEAL)
    view = PlayerView.of(s, 0)
    assert action_words(bid(3), view) == "bid 3 tricks"
    s.push("bid 3")
    assert move_words(PlayerView.of(s, 1), 0, NAMES) == "South bids 3 tricks"
    with pytest.raises(Exception, match="a bid is 1 to 12"):
        bid(13)
    with pytest.raises(IllegalActionError, match="a bid is 1 to 6 tricks in Hasenpfeffer"):
        s.push("bid 7")


# --- all pass: the forced bid, or the throw-in (14) --------------------------------------------------------
def test_all_pass_the_jokers_holder_bids_three() -> None:
    s = hand(TOP_DEAL)
    push_all(s, "pass", "pass", "pass", "pass")
    assert (s.phase, s.to_act, s.bid, s.bidder, s.forced_bid) == (Phase.NAME_TRUMP, 1, 3, 1, True)
    assert len(s.history) == 4  # the forced bid is no decision
    for seat in SEATS:  # everyone is told who holds the Joker
        v = PlayerView.of(s, seat)
        assert (v.bidder, v.bid, v.forced_bid, v.joker_holder) == (1, 3, True, 1)
    s.push("call s")
    assert move_words(PlayerView.of(s, 0), 4, NAMES) == "West holds the Joker, so bids 3 tricks and names spades trump"


def test_all_pass_with_the_joker_unused_throws_the_hand_in() -> None:
    game = Game(HP, deals=[NO_JOKER], seed=1)
    for _ in range(4):
        game.push("pass")
    first = game.hands[0]
    assert first.is_over and first.thrown_in and first.points == (0, 0) and game.scores == [0, 0]
    result = first.result()
    assert result is not None and result.outcome is Outcome.THROWN_IN and result.bid is None
    for seat in SEATS:  # everyone learns the Joker was the unused card, and nothing else
        v = game.view(seat, 0)
        assert not v.unseen_mask() >> JOKER & 1
        assert C("Jk") not in v.hand
    words = hand_result_words(game.view(0, 0), NAMES)
    assert "the Joker was the unused card" in words and "South deals next" in words
    assert len(game.hands) == 2 and game.state.dealer == 0  # the deal passes on


# --- trump and play (14: the high bidder names any suit and leads; six tricks) ---------------------------------
def test_the_high_bidder_names_any_suit_and_leads() -> None:
    s = hand(TOP_DEAL)
    push_all(s, "pass", "bid 2", "pass", "pass")
    assert s.legal_actions() == [call(0), call(1), call(2), call(3)]
    with pytest.raises(IllegalActionError):
        s.push("call d alone")
    s.push("d")  # a bare suit names it
    assert (s.phase, s.trump, s.maker, s.leader, s.to_act, s.alone) == (Phase.PLAY, 1, 1, 1, 1, False)
    assert s.makers == frozenset({1, 3})


def test_six_tricks_and_a_made_bid_scores_the_tricks_taken() -> None:
    s = hand(TOP_DEAL)
    push_all(s, "pass", "bid 6", "pass", "pass", "call d")
    for lead in ("Jk", "Jd", "Jh", "Ad", "Kd", "Qd"):  # every lead is the top trump left
        assert s.to_act == 1
        s.push(f"play {lead}")
        while s.trick:
            s.push(s.legal_actions()[0])
    assert s.is_over and len(s.tricks) == 6 and s.maker_tricks() == 6
    assert s.points == (0, 6)
    r = s.result()
    assert r is not None and r.made and r.bid == 6 and r.maker_tricks == 6 and r.points == (0, 6)
    assert r.to_dict()["bid"] == 6
    assert hand_result_words(PlayerView.of(s, 0), NAMES).startswith("West and East made the bid")


@pytest.mark.parametrize(("rules", "points"), [(HP, (-6, 0)), (HPD, None)])
def test_a_set_bid_loses_the_bid(rules: Rules, points: tuple[int, int] | None) -> None:
    s = hand(TOP_DEAL, rules)
    push_all(s, "bid 6", "pass", "pass", "pass", "call c")
    play_out(s)
    taken = sum(1 for t in s.tricks if t.winner in (0, 2))
    assert taken < 6 and len(s.tricks) == 6
    assert s.points == (points or (-6, 6 - taken))
    r = s.result()
    assert r is not None and r.euchred and r.bid == 6 and r.maker_tricks == taken
    words = hand_result_words(PlayerView.of(s, 1), NAMES)
    assert "were set" in words and "lose 6" in words


def test_the_scoring_table() -> None:
    s = hand(TOP_DEAL)
    push_all(s, "pass", "bid 4", "pass", "pass", "call d")
    assert [s.score_for(t) for t in range(7)] == [(0, -4)] * 4 + [(0, 4), (0, 5), (0, 6)]
    s = hand(TOP_DEAL, HPD)
    push_all(s, "pass", "bid 4", "pass", "pass", "call d")
    assert [s.score_for(t) for t in range(7)] == [(6 - t, -4) for t in range(4)] + [(2, 4), (1, 5), (0, 6)]


# --- the game: negative scores, the back door, the target, a tie (14) --------------------------------------
SET_DEAL = TOP_DEAL  # seat 0 bids 6 at clubs and is set
SET_LINE = ("bid 6", "pass", "pass", "pass", "call c")


def play_game_hand(game: Game, *opening: str) -> None:
    for a in opening:
        game.push(a)
    index = len(game.hands) - 1
    while len(game.hands) - 1 == index and not game.is_over:
        game.push(game.legal_actions()[0])


def test_scores_may_go_negative_and_play_goes_on() -> None:
    game = Game(HP, deals=[SET_DEAL], seed=3)
    play_game_hand(game, *SET_LINE)
    assert game.scores == [-6, 0] and not game.is_over and game.state.dealer == 0


def test_the_back_door_loses_at_once() -> None:
    game = Game(HP, deals=[SET_DEAL], seed=3, scores=(-5, 0))
    play_game_hand(game, *SET_LINE)
    assert game.scores == [-11, 0] and game.is_over and game.winner == 1  # side 1 wins with 0 points


def test_the_back_door_with_the_defenders_scoring() -> None:
    game = Game(HPD, deals=[SET_DEAL], seed=3, scores=(-4, 2))
    play_game_hand(game, *SET_LINE)
    assert game.scores[0] == -10 and game.is_over and game.winner == 1


def test_the_target_ends_the_game() -> None:
    game = Game(HP, deals=[TOP_DEAL], seed=3, scores=(0, 4))
    play_game_hand(game, "pass", "bid 6", "pass", "pass", "call d")
    assert game.scores == [0, 10] and game.is_over and game.winner == 1


def test_a_tie_at_the_target_plays_on() -> None:
    probe = hand(TOP_DEAL, HPD)
    push_all(probe, "bid 1", "pass", "pass", "pass", "call c")
    play_out(probe)
    p0, p1 = probe.points  # type: ignore[misc]
    assert p0 > 0 and p1 > 0  # the makers made 1, the defenders took some tricks too
    deals = [TOP_DEAL, Deal(0, NO_JOKER.hands, None, NO_JOKER.stock), rotated(TOP_DEAL, 2)]
    game = Game(HPD, deals=deals, seed=3, scores=(10 - p0, 10 - p1))
    play_game_hand(game, "bid 1", "pass", "pass", "pass", "call c")
    assert game.scores == [10, 10] and not game.is_over  # tied leaders at the target play on
    for _ in range(4):  # a thrown-in hand keeps the tie: still no winner
        game.push("pass")
    assert game.hands[1].thrown_in and not game.is_over and game.state.dealer == 1
    play_game_hand(game, "pass", "bid 6", "pass", "pass", "call d")  # seat 3 holds the top trumps now
    assert game.is_over and game.winner == 1 and game.scores == [10, 16]


# --- records and EGN --------------------------------------------------------------------------------------
def test_a_record_stores_the_unused_card_and_every_bid() -> None:
    game = Game(HP, deals=[TOP_DEAL], seed=5)
    play_game_hand(game, "bid 2", "bid 3", "pass", "bid 4", "call h")
    text = GameRecord.from_game(game).dumps()
    assert 'stock = "As"' in text and "up =" not in text and '"p3 bid 4"' in text
    again = GameRecord.loads(text).replay()
    assert [h.deal for h in again.hands] == [h.deal for h in game.hands] and again.scores == game.scores
    assert [h.history for h in again.hands] == [h.history for h in game.hands]


def test_egn_refuses_hasenpfeffer() -> None:
    from euchre import egn

    game = Game(HP, seed=5)
    with pytest.raises(RecordError, match="Hasenpfeffer's auction"):
        egn.dumps(game)


# --- consumers of six-card hands ---------------------------------------------------------------------------------
def test_the_batch_engine_plays_six_card_hands() -> None:
    # (The solver, resampling and the search bot play them: tests/test_search_hasenpfeffer.py; the
    # learning environment and the OpenSpiel game too: tests/test_envs_sister.py, test_openspiel_sister.py;
    # the compiled batch engine: tests/test_batch_sister.py.)
    from euchre.batch import simulate

    r = simulate(HP, hands=4, seed=1)
    assert r.hands.shape == (4, 4, 6) and r.stock.shape == (4, 1)
    # (Claims play six-card hands: tests/test_claims.py; before the play there is nothing to claim.)
    game = Game(HP, seed=2)
    assert game.claim_line() is None and "during the play of the cards" in game.no_claim_reason()


def test_the_search_bot_plays_a_legal_hand() -> None:
    bot = make_bot("search", seed=1, samples=8, bid_samples=4, auction_samples=4)
    game = Game(HP, seed=4)
    while not game.is_over and len(game.hands) < 2:
        seat = game.to_act
        action = bot.choose(game.view(seat))
        assert action in game.legal_actions()
        game.push(action)


# --- views (section 9 and 14's knowledge) -------------------------------------------------------------------------
def _quoted_cards(view: PlayerView) -> set[str]:
    """Every card named anywhere in the view's JSON form."""
    text = json.dumps(view_to_dict(view))
    return {str(c) for c in deck_cards(25) if f'"{c}"' in text or f"{c}\"" in text or f"play {c}" in text}


def check_views(s: State) -> None:
    unused = s.deal.stock[0]
    for seat in SEATS:
        v = PlayerView.of(s, seat)
        mine = set() if seat is None else set(map(str, v.hand))
        played = {str(c) for t in s.tricks for c in t.cards} | {str(c) for _, c in s.trick}
        named = _quoted_cards(v)
        assert str(unused) not in named  # the 25th card is never shown
        assert named <= mine | played  # no other hidden card either
        assert v.up_card is None
        if seat is not None:
            assert mask_of(v.hand) == s.hands[seat]
            assert v.unseen_mask() & s.hands[seat] == 0
            assert v.unseen_mask() | mask_of(v.hand) | mask_of(played_cards(s)) == deck_mask(25) & ~(
                1 << JOKER if s.thrown_in else 0)
        assert view_from_dict(view_to_dict(v)) == v


def played_cards(s: State) -> list[Card]:
    return [c for t in s.tricks for c in t.cards] + [c for _, c in s.trick]


# --- properties over random hands -----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), defenders=st.booleans())
def test_random_hands(seed: int, dealer: int, defenders: bool) -> None:
    rules = HPD if defenders else HP
    rng = random.Random(seed)
    s = State.random(rules, dealer=dealer, rng=rng)
    start = s.copy().key()
    keys = [s.key()]
    while not s.is_over:
        check_views(s)
        assert len(set(s.legal_actions())) == len(s.legal_actions())
        s.push(rng.choice(s.legal_actions()))
        keys.append(s.key())
        # cards conserved: hands, played cards and the unused card are the deck
        total = sum(h.bit_count() for h in s.hands) + len(played_cards(s)) + len(s.deal.stock)
        assert total == 25
        assert mask_of([*played_cards(s), *s.deal.stock]) | s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] \
            == deck_mask(25)
    check_views(s)
    assert s.thrown_in or len(s.tricks) == 6
    if not s.thrown_in:
        taken = sum(1 for t in s.tricks if s.side_of(t.winner) == s.side_of(s.maker))
        maker_side = s.side_of(s.maker)
        expect = [0, 0]
        expect[maker_side] = taken if taken >= s.bid else -s.bid
        if defenders:
            expect[1 - maker_side] = 6 - taken
        assert s.points == tuple(expect)
        r = s.result()
        assert r is not None and r.bid == s.bid and r.made == (taken >= s.bid)
    else:
        assert JOKER in s.deal.stock and s.points == (0, 0)
    for k in reversed(keys[:-1]):  # pop restores every position exactly
        s.pop()
        assert s.key() == k
    assert s.key() == start


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), bots=st.sampled_from(["random", "heuristic"]))
def test_random_games_round_trip_through_records(seed: int, bots: str) -> None:
    game = Game(HP, seed=seed)
    players = [make_bot(bots, seed=seed + i) for i in range(4)]
    while not game.is_over and len(game.hands) < 40:
        seat = game.to_act
        action = players[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.push(action)
    for i, h in enumerate(game.hands):  # every finished hand says how it ended
        if h.is_over:
            assert hand_result_words(game.view(0, i), NAMES)
    assert all(s >= -HP.target - 6 for s in game.scores)
    text = GameRecord.from_game(game).dumps()
    again = GameRecord.loads(text).replay()
    assert again.scores == game.scores and again.winners == game.winners
    assert [h.key() for h in again.hands] == [h.key() for h in game.hands]
    if game.is_over:
        top = max(game.scores)
        assert min(game.scores) <= -HP.target or (top >= HP.target and game.scores.count(top) == 1)


def test_the_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(12):
        game = Game(HP, seed=seed)
        bots = [make_bot("heuristic" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            game.push(bots[seat].choose(game.view(seat)))
        wins += game.winner == 0
    assert wins >= 8


# --- perft: decision sequences from named deals, against a reference written here --------------------------------
_RANKS = "9TJQKA"
_COLOUR_MATE = {"c": "s", "s": "c", "d": "h", "h": "d"}


def _ref_suit(card: str, trump: str) -> str:
    """The suit a card belongs to under ``trump`` (the left bower and the Joker are trumps)."""
    if card == "Jk" or card == "J" + _COLOUR_MATE[trump]:
        return trump
    return card[1]


def _ref_power(card: str, trump: str, led: str) -> int:
    if card == "Jk":
        return 100
    if card == "J" + trump:
        return 99
    if card == "J" + _COLOUR_MATE[trump]:
        return 98
    if card[1] == trump:
        return 50 + _RANKS.index(card[0])
    if card[1] == led:
        return _RANKS.index(card[0])
    return -1


def _ref_play(hands: list[list[str]], trump: str, leader: int, trick: list[tuple[int, str]], depth: int) -> int:
    """Leaves of ``depth`` more card plays (fewer when the hand ends first)."""
    if depth == 0 or not any(hands):
        return 1
    seat = (leader + len(trick)) % 4
    cards = list(hands[seat])
    if trick:
        led = _ref_suit(trick[0][1], trump)
        follow = [c for c in cards if _ref_suit(c, trump) == led]
        cards = follow or cards
    total = 0
    for c in cards:
        hands[seat].remove(c)
        now = [*trick, (seat, c)]
        if len(now) == 4:
            led = _ref_suit(now[0][1], trump)
            winner = max(now, key=lambda sc: _ref_power(sc[1], trump, led))[0]
            total += _ref_play(hands, trump, winner, [], depth - 1)
        else:
            total += _ref_play(hands, trump, leader, now, depth - 1)
        hands[seat].append(c)
    return total


def _ref_auction(high: int, turns: int) -> int:
    """Bid sequences of ``turns`` seats still to speak, the highest bid so far ``high``."""
    if turns == 0:
        return 1
    return _ref_auction(high, turns - 1) + sum(_ref_auction(b, turns - 1) for b in range(high + 1, 7))


def _perft(s: State, depth: int) -> int:
    if depth == 0 or s.is_over:
        return 1
    total = 0
    for a in s.legal_actions():
        s._push(a)
        total += _perft(s, depth - 1)
        s.pop()
    return total


def test_perft_of_the_auction() -> None:
    s = hand(TOP_DEAL)
    assert _perft(s, 4) == _ref_auction(0, 4) == 210
    # and one step on: a bid names one of four suits; all pass forces the Joker's holder to name too
    assert _perft(s, 5) == 4 * _ref_auction(0, 4)
    assert _perft(hand(NO_JOKER), 5) == 4 * (_ref_auction(0, 4) - 1) + 1  # all pass: thrown in, a leaf


@pytest.mark.parametrize(("trump", "depth"), [("d", 8), ("s", 8), ("h", 6)])
def test_perft_of_the_play(trump: str, depth: int) -> None:
    s = hand(TOP_DEAL)
    push_all(s, "pass", "pass", "bid 2", "pass", f"call {trump}")
    hands = [list(h.split()) for h in TOP]
    assert _perft(s, depth) == _ref_play(hands, trump, 2, [], depth)
