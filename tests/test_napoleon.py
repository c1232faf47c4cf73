"""Napoleon (preset ``napoleon``, rules field ``napoleon``): RULES-FAMILY.md 16, 17 and 18.9, clause
by clause on named deals, then random hands for three to seven players (hypothesis) and a perft
count of the auction against a small reference written here (not the engine)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import BLUCHER, MISERE, NAP, NAPOLEON_BIDS, PASS, WELLINGTON, Action, bid, play
from euchre.arena import seatings
from euchre.bots import make_bot
from euchre.cards import PLAIN_NO_TRUMP, Card, Suit, deck_cards, deck_mask, mask_of, plain_trump, sort_hand
from euchre.describe import action_words, hand_result_words, high_bid_words, move_words
from euchre.errors import DealError, IllegalActionError, RecordError, RulesError
from euchre.explain import rules_in_words
from euchre.notation import GameRecord
from euchre.protocol import view_from_dict, view_to_dict
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView

C = Card.parse
NP = Rules.preset("napoleon")
NAMES = ["South", "West", "North", "East"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def deal(hands: Sequence[str], stock: str, dealer: int = 3) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), None, cards(stock))


# Four players, the 28-card pack (8 to A). Seat 0 holds the five top clubs; seat 3 (the dealer) the
# five top spades; eight cards lie unused.
TOP = ["Ac Kc Qc Jc Tc", "Ad Kd Qd 8s 9s", "Ah Kh Qh 8h 9h", "As Ks Qs Js Ts"]
TOP_DEAL = deal(TOP, "9c 8c Jd Td 9d 8d Jh Th")


def hand(d: Deal = TOP_DEAL, rules: Rules = NP) -> State:
    return State.from_deal(rules, d)


def push_all(s: State, *actions: str) -> None:
    for a in actions:
        s.push(a)


def play_out(s: State) -> None:
    while not s.is_over:
        s.push(s.legal_actions()[0])


# --- the preset, the table sizes and the refusals (16, 17, 18.1, 18.9) -------------------------------------------
def test_the_preset() -> None:
    assert NP.napoleon and NP.players == 4 and NP.deck == 28 and NP.deals == 8 and NP.target is None
    assert NP.hand_size == 5 and not NP.has_up_card and NP.sides == 4 and NP.partner(0) is None
    assert NP.side_seats == ((0,), (1,), (2,), (3,)) and NP.opponents(2) == (0, 1, 3)
    assert Rules.preset("nap") == NP and NP.sister_game == "Napoleon" and NP.preset_name() == "napoleon"
    assert Rules.from_dict(NP.to_dict()) == NP


@pytest.mark.parametrize(("players", "deck"), [(3, 24), (4, 28), (5, 32), (6, 52), (7, 52)])
def test_the_pack_and_the_deals_follow_the_table(players: int, deck: int) -> None:
    r = Rules.preset("napoleon", players=players)
    assert r.deck == deck and r.deals == 2 * players and len(deck_cards(deck)) == deck
    assert Rules.preset("napoleon", players=players, target=30).deals is None  # an ending set replaces it
    assert Rules.preset("napoleon", players=players, target=None, duration=20).duration == 20


@pytest.mark.parametrize(("change", "field"), [
    ({"players": 2}, "players"), ({"players": 8}, "players"), ({"deck": 32}, "deck"), ({"deck": 52}, "deck"),
    ({"going_alone": True}, "going_alone"), ({"stick_the_dealer": True}, "stick_the_dealer"),
    ({"no_trump": True}, "no_trump"), ({"super_euchre": True}, "super_euchre"),
    ({"match_wins": 2}, "match_games/match_wins"),
    ({"auction": True}, "napoleon"), ({"bid_euchre": True}, "napoleon"), ({"tie_break": False}, "tie_break"),
    ({"defenders_score_tricks": True}, "defenders_score_tricks"),
])
def test_refused_combinations_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError, match=f"Rules.{field}"):
        Rules.preset("napoleon", **change)


def test_nap_half_loss_needs_napoleon() -> None:
    with pytest.raises(RulesError, match="Rules.nap_half_loss"):
        Rules(nap_half_loss=True)
    with pytest.raises(RulesError, match="Rules.players.*Napoleon"):
        Rules(players=5)


def test_five_each_three_then_two_from_the_dealers_left() -> None:
    rules = Rules.preset("napoleon", players=6)
    s = State.random(rules, dealer=2, rng=random.Random(9))
    shuffled = deck_cards(52)
    random.Random(9).shuffle(shuffled)
    assert s.deal.hands[3] == (*shuffled[0:3], *shuffled[18:20])  # the dealer's left: first three, then two
    assert s.deal.hands[2] == (*shuffled[15:18], *shuffled[28:30])  # the dealer last
    assert s.deal.stock == tuple(shuffled[30:]) and s.phase is Phase.AUCTION and s.to_act == 3


def test_a_deal_is_checked() -> None:
    with pytest.raises(DealError, match="turns no card up"):
        State(NP, dealer=3, hands=TOP, up_card="9c")
    with pytest.raises(DealError, match="not in the 28-card deck"):
        State(NP, dealer=3, hands=TOP[:3] + ["As Ks Qs Js 7s"], up_card=None)


# --- the bidding (16) ----------------------------------------------------------------------------------------------
def test_bids_in_order_each_above_the_last() -> None:
    s = hand()
    assert s.legal_actions() == [PASS, bid(2), bid(3), MISERE, bid(4), NAP]  # no Wellington before a Nap
    s.push("bid 3")
    assert s.legal_actions() == [PASS, MISERE, bid(4), NAP]
    s.push("misere")
    assert s.legal_actions() == [PASS, bid(4), NAP]
    with pytest.raises(IllegalActionError, match="above the highest so far"):
        s.push("bid 3")
    with pytest.raises(IllegalActionError, match="Wellington may only be bid over Nap"):
        s.push("wellington")
    s.push("nap")
    assert s.legal_actions() == [PASS, WELLINGTON]  # only Wellington over a Nap
    s.push("wellington")  # the dealer, last to bid
    assert s.bid == 6 and s.bidder == 3 and s.phase is Phase.LEAD and s.to_act == 3


def test_blucher_only_over_wellington() -> None:
    s = hand()
    push_all(s, "nap", "wellington", "pass")
    assert s.legal_actions() == [PASS, BLUCHER]
    key = s.key()
    with pytest.raises(IllegalActionError, match="Napoleon's bids"):
        s.push("bid 5")
    assert s.key() == key
    s.push("blucher")
    assert s.phase is Phase.LEAD and s.to_act == 3 and s.maker == 3 and s.bid == 7


def test_all_pass_throws_the_hand_in_and_the_deal_passes() -> None:
    game = Game(NP, deals=[TOP_DEAL], seed=1)
    for _ in range(4):
        game.push("pass")
    first = game.hands[0]
    assert first.is_over and first.thrown_in and first.points == (0, 0, 0, 0)
    assert game.state.dealer == 0 and game.played_hands == 0 and not game.is_over


# --- the play (16): the bidder leads, the first card's suit is trump, no bowers, no duty to trump -----------------
def test_the_first_card_led_fixes_trump() -> None:
    s = hand()
    push_all(s, "pass", "pass", "pass", "bid 2")
    assert s.phase is Phase.LEAD and s.to_act == 3 and s.trump is None
    assert PlayerView.of(s, 0).trump is None  # trump is unknown to all until led
    s.push("play As")
    assert s.trump == plain_trump(Suit.SPADES) and s.phase is Phase.PLAY and s.to_act == 0
    assert PlayerView.of(s, 1).trump == plain_trump(Suit.SPADES)
    # South holds no spade: any card, a club; West must follow spades; North any
    assert len(s.legal_actions()) == 5
    push_all(s, "play Ac")
    assert [str(a) for a in s.legal_actions()] == ["play 8s", "play 9s"]
    push_all(s, "play 8s", "play Ah")
    assert s.tricks[0].winner == 3 and s.to_act == 3  # the highest trump; the ace of clubs is no trump


def test_no_bowers_and_the_jack_follows_its_own_suit() -> None:
    s = hand()
    push_all(s, "nap", "pass", "pass", "pass", "play Jc")  # clubs are trump; the jack is no bower
    assert s.trump == plain_trump(Suit.CLUBS)
    push_all(s, "play 8s", "play 8h", "play Js")  # East's jack of spades is a spade, not a trump
    assert s.tricks[0].winner == 0


def test_no_duty_to_trump() -> None:
    s = hand()
    push_all(s, "pass", "pass", "pass", "bid 2", "play As", "play Ac", "play 8s", "play Ah")
    push_all(s, "play Ks")  # East leads spades again; South, void in spades, holds no trump either
    assert len(s.legal_actions()) == 4 and all(a in s.legal_actions() for a in map(play, cards("Kc Qc Jc Tc")))


def test_a_misere_has_no_trump_and_the_bidder_leads() -> None:
    s = hand()
    push_all(s, "pass", "misere", "pass", "pass")
    assert s.phase is Phase.PLAY and s.trump == PLAIN_NO_TRUMP and s.to_act == 1 == s.maker


def test_all_five_tricks_are_played() -> None:
    s = hand()
    push_all(s, "nap", "pass", "pass", "pass", "play Ac")
    while len(s.tricks) < 3:
        s.push(s.legal_actions()[0])
    assert not s.is_over  # three tricks in, the Nap can still be made: play goes on
    play_out(s)
    assert len(s.tricks) == 5


# --- payments (16) -------------------------------------------------------------------------------------------------
def test_a_made_nap_is_paid_ten_by_each_other_player() -> None:
    s = hand()
    push_all(s, "nap", "pass", "pass", "pass")
    play_out(s)
    assert s.tricks_won[0] == 5 and s.points == (30, -10, -10, -10)
    r = s.result()
    assert r is not None and r.made and r.bid == 5 and r.maker == 0 and r.trump is Suit.CLUBS


@pytest.mark.parametrize(("level", "v"), [(1, 2), (2, 3), (3, 3), (4, 4), (5, 10), (6, 20), (7, 40)])
def test_the_value_of_each_bid(level: int, v: int) -> None:
    s = hand()
    s.auction = (level, 1, False)
    s.maker = 1
    need = {1: 2, 2: 3, 3: 0, 4: 4}.get(level, 5)
    made = 0 if level == 3 else need
    failed = 1 if level == 3 else need - 1
    assert s.score_for(made) == (-v, 3 * v, -v, -v)
    assert s.score_for(failed) == (v, -3 * v, v, v)


def test_nap_half_loss_halves_a_failed_nap_only() -> None:
    s = hand(rules=Rules.preset("napoleon", nap_half_loss=True))
    s.maker = 2
    s.auction = (5, 2, False)
    assert s.score_for(4) == (5, 5, -15, 5) and s.score_for(5) == (-10, -10, 30, -10)
    s.auction = (6, 2, False)
    assert s.score_for(4) == (20, 20, -60, 20)


def test_a_failed_misere_pays_every_other_player() -> None:
    s = hand()
    push_all(s, "pass", "pass", "misere", "pass", "play Ah")  # North leads its ace: a trick taken
    play_out(s)
    assert s.tricks_won[2] >= 1 and s.points == (3, 3, -9, 3)


# --- the game: an ending by played hands, a tie plays on, any other ending ----------------------------------------
def test_the_game_lasts_two_hands_a_player_and_a_tie_plays_on() -> None:
    rules = Rules.preset("napoleon", players=3)
    game = Game(rules, seed=3)
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    while not game.is_over:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    assert game.played_hands >= 6
    top = max(game.scores)
    assert game.scores.count(top) == 1 and game.winner == game.scores.index(top)
    assert game.played_hands == 6 or sorted(game.scores)[-2] != top  # more than six only to break a tie
    assert sum(game.scores) == 0


def test_a_target_ending() -> None:
    rules = Rules.preset("napoleon", target=25)
    game = Game(rules, deals=[TOP_DEAL], seed=4, scores=(0, 0, 0, 0))
    for a in ("nap", "pass", "pass", "pass"):
        game.push(a)
    while not game.is_over and len(game.hands) == 1:
        game.push(game.legal_actions()[0])
    assert game.scores == [30, -10, -10, -10] and game.is_over and game.winner == 0


# --- knowledge and presentation (16) ---------------------------------------------------------------------------------
def _quoted_cards(view: PlayerView, deck: int) -> set[str]:
    text = json.dumps(view_to_dict(view))
    return {str(c) for c in deck_cards(deck) if f'"{c}"' in text or f"{c}\"" in text or f"play {c}" in text}


def check_views(s: State) -> None:
    played = {str(c) for t in s.tricks for c in t.cards} | {str(c) for _, c in s.trick}
    for seat in (*range(s.n), None):
        v = PlayerView.of(s, seat)
        mine = set() if seat is None else set(map(str, v.hand))
        assert _quoted_cards(v, s.rules.deck) <= mine | played  # never another hand nor the unused cards
        assert v.up_card is None and (v.trump is None) == (s.trump is None)
        if seat is not None:
            assert mask_of(v.hand) == s.hands[seat]
        assert view_from_dict(view_to_dict(v)) == v


def test_the_hand_is_shown_by_suit_then_trump_first() -> None:
    hand_ = cards("3s Jc Js 2c Ac Ad 9h")
    assert sort_hand(hand_) == list(cards("Ac Jc 2c Ad Js 3s 9h"))  # clubs, diamonds, spades, hearts
    # trump first, then the colours alternating: spades, diamonds, clubs, hearts
    assert sort_hand(hand_, plain_trump(Suit.SPADES)) == list(cards("Js 3s Ad Ac Jc 2c 9h"))


# --- words, records, EGN, the arena -------------------------------------------------------------------------------
def test_bids_and_results_in_words() -> None:
    s = hand()
    v = PlayerView.of(s, 0)
    assert action_words(NAP, v) == "go nap (all five)" and action_words(bid(2), v) == "bid 2 tricks"
    assert action_words(MISERE, v) == "bid misère (no trick)"
    assert Action.parse("go nap") == NAP and Action.parse("blücher") == BLUCHER and Action.parse("misère") == MISERE
    push_all(s, "nap", "pass", "pass", "pass")
    assert high_bid_words(PlayerView.of(s, 1)) == "Nap"
    s.push("play Ac")
    v = PlayerView.of(s, 1)
    assert move_words(v, 0, NAMES) == "South goes nap" and move_words(v, 1, NAMES) == "West passes"
    assert move_words(v, 4, NAMES) == "South leads the ace of clubs: clubs are trump"
    play_out(s)
    words = hand_result_words(PlayerView.of(s, 1), NAMES)
    assert words.startswith("South made Nap (all 5 tricks; clubs trump)") and "scores 30" in words
    assert any("Wellington" in p for p in rules_in_words(NP, "napoleon"))


def test_a_record_round_trips_with_the_full_pack() -> None:
    rules = Rules.preset("napoleon", players=7)
    game = Game(rules, seed=11)
    bots = [make_bot("heuristic", seed=s) for s in range(7)]
    while len(game.hands) < 4 and not game.is_over:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    text = GameRecord.from_game(game).dumps()
    assert "napoleon = true" in text and "players = 7" in text
    again = GameRecord.loads(text).replay()
    assert [h.deal for h in again.hands] == [h.deal for h in game.hands] and again.scores == game.scores


def test_egn_refuses_napoleon() -> None:
    from euchre import egn

    with pytest.raises(RecordError, match="Napoleon"):
        egn.dumps(Game(NP, seed=5))


def test_the_arena_seats_a_against_every_other_player() -> None:
    assert seatings(NP) == [(0,), (1,), (2,), (3,)] and seatings(Rules.preset("napoleon", players=6))[5] == (5,)


# --- properties over random hands, three to seven players ---------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(3, 7), half=st.booleans())
def test_random_hands(seed: int, players: int, half: bool) -> None:
    rules = Rules.preset("napoleon", players=players, nap_half_loss=half)
    rng = random.Random(seed)
    s = State.random(rules, dealer=rng.randrange(players), rng=rng)
    keys = [s.key()]
    while not s.is_over:
        check_views(s)
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        s.push(rng.choice(legal))
        keys.append(s.key())
        held = sum(h.bit_count() for h in s.hands)
        played = sum(len(t.cards) for t in s.tricks) + len(s.trick)
        assert held + played == 5 * players  # cards are conserved
        assert mask_of(s.deal.stock) & (s.hands[0] | mask_of(c for t in s.tricks for c in t.cards)) == 0
    check_views(s)
    assert sum(s.points or ()) == 0  # the payments are zero-sum
    if not s.thrown_in:
        assert len(s.tricks) == 5
        level, taken = s.bid, s.tricks_won[s.maker]
        v = (0, 2, 3, 3, 4, 10, 20, 40)[level]
        made = taken == 0 if level == 3 else taken >= (0, 2, 3, 0, 4, 5, 5, 5)[level]
        if half and level == 5 and not made:
            v = 5
        assert s.points[s.maker] == (v if made else -v) * (players - 1)  # type: ignore[index]
    for k in reversed(keys[:-1]):  # pop restores every position exactly
        s.pop()
        assert s.key() == k


def test_the_heuristic_beats_random_at_every_table_size() -> None:
    for players in (3, 5, 7):
        rules = Rules.preset("napoleon", players=players)
        total = 0
        for seed in range(6):
            game = Game(rules, seed=seed)
            bots = [make_bot("heuristic" if s == 0 else "random", seed=seed * 10 + s) for s in range(players)]
            while not game.is_over:
                game.push(bots[game.to_act].choose(game.view(game.to_act)))
            total += game.scores[0]
        assert total > 0


def test_the_search_levels_play_napoleon_with_the_heuristic() -> None:
    game = Game(Rules.preset("napoleon", players=5), seed=2)
    bot = make_bot("expert", seed=1)
    while len(game.hands) < 3:
        action = bot.choose(game.view(game.to_act))
        assert action in game.legal_actions()
        game.push(action)


# --- perft: the auction's lines, against a reference written here -------------------------------------------------
def _ref_auction(high: int, turn: int, players: int) -> int:
    """Lines of the bidding: each seat passes or bids a level above ``high`` (1-7: 2, 3, misère, 4,
    Nap, Wellington, Blücher), Wellington only over Nap and Blücher only over Wellington."""
    if turn == players:
        return 1
    total = _ref_auction(high, turn + 1, players)
    for level in range(high + 1, 8):
        if level >= 6 and level != high + 1:
            continue
        total += _ref_auction(level, turn + 1, players)
    return total


def _count_auction(s: State) -> int:
    if s.phase is not Phase.AUCTION:
        return 1
    total = 0
    for a in s.legal_actions():
        s._push(a)
        total += _count_auction(s)
        s.pop()
    return total


@pytest.mark.parametrize("players", [3, 4, 5])
def test_perft_of_the_auction(players: int) -> None:
    s = State.random(Rules.preset("napoleon", players=players), dealer=0, rng=random.Random(players))
    assert _count_auction(s) == _ref_auction(0, 0, players)
    assert NAPOLEON_BIDS.index(NAP) == 4 and deck_mask(28).bit_count() == 28


def test_a_card_that_does_not_follow_trump_is_refused_in_words() -> None:
    s = hand()
    push_all(s, "pass", "pass", "pass", "bid 2", "play As", "play Ac")
    key = s.key()
    with pytest.raises(IllegalActionError, match=r"you must follow trump \(spades\): you hold 9s, 8s"):
        s.push("play Ad")
    assert s.key() == key


def test_a_card_not_held_at_the_first_lead_is_said_so() -> None:
    """The first lead is a card play too: 'you do not hold', not 'no card is played now'."""
    game = Game(Rules.preset("napoleon", players=6), seed=0)
    rng = random.Random(0)
    while game.state.phase is not Phase.LEAD:
        game.push(rng.choice(game.legal_actions()))
    held = game.state.hand(game.to_act)
    other = next(c for c in deck_cards(game.rules.deck) if c not in held)
    with pytest.raises(IllegalActionError, match=f"you do not hold {other}; your cards"):
        game.push(f"play {other}")
