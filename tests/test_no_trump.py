"""House rules no trump and low (RULES-FAMILY.md 12.1, 12.6, 12.8, 18): scenarios from the text,
refusals, random games with the switches, the solver against brute force, and the bots."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import CALL_LOW, CALL_LOW_ALONE, CALL_NO_TRUMP, CALL_NO_TRUMP_ALONE, Action, Kind, call
from euchre.bots.heuristic import HeuristicBot, estimate_no_trump
from euchre.bots.search import SearchBot
from euchre.cards import LOW, NO_TRUMP, Card, CardSet, Suit, sort_hand, trick_winner_index
from euchre.describe import action_words, card_words, hand_result_words, move_words
from euchre.errors import IllegalActionError, RulesError
from euchre.explain import rules_in_words
from euchre.notation import GameRecord
from euchre.protocol import view_from_dict, view_to_dict
from euchre.solver import Solver
from euchre.state import Phase, State
from euchre.view import PlayerView

NT = Rules(no_trump=True)
LOWR = Rules(no_trump=True, low_no_trump=True)
C = Card.parse

# Dealer 0, seat 1 leads. Seat 1 holds the four aces; the jacks sit in their own suits.
HANDS = ["Th Jh Qh Kh 9s", "Ac Ad Ah As Tc", "9c Kc Jc Qc 9d", "Td Jd Qd Kd 9h"]
UP = "Ts"


def deal(rules: Rules = NT) -> State:
    return State(rules, dealer=0, hands=HANDS, up_card=UP)


def to_round2(s: State) -> State:
    for _ in range(4):
        s.push("pass")
    assert s.phase is Phase.BID2
    return s


def strs(actions: list[Action] | tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


# --- the decisions offered ------------------------------------------------------------------------
def test_no_trump_is_offered_in_round_2_only_and_only_with_the_switch() -> None:
    s = deal()
    assert not any(a.trump is not None and a.trump >= NO_TRUMP for a in s.legal_actions())  # round 1
    with pytest.raises(IllegalActionError, match="second round of bidding only"):
        s.push("call n")
    to_round2(s)
    assert strs(s.legal_actions()) == ["pass", "call c", "call d", "call h", "call c alone", "call d alone",
                                       "call h alone", "call n", "call n alone"]
    plain = to_round2(deal(Rules()))
    assert "call n" not in strs(plain.legal_actions())
    with pytest.raises(IllegalActionError, match="no_trump house rule is off"):
        plain.push("call n")
    with pytest.raises(IllegalActionError, match="low_no_trump house rule is off"):
        s.push("call low")
    low = to_round2(deal(LOWR))
    assert strs(low.legal_actions())[-4:] == ["call n", "call n alone", "call low", "call low alone"]
    assert strs(to_round2(deal(NT.replace(going_alone=False))).legal_actions())[-1:] == ["call n"]


def test_the_stuck_dealer_may_call_no_trump() -> None:
    s = to_round2(deal(NT.replace(stick_the_dealer=True)))
    for _ in range(3):
        s.push("pass")
    assert s.to_act == 0
    legal = s.legal_actions()
    assert Action.parse("pass") not in legal and CALL_NO_TRUMP in legal and CALL_NO_TRUMP_ALONE in legal
    s.push("call n")
    assert (s.trump, s.maker, s.phase, s.to_act) == (NO_TRUMP, 0, Phase.PLAY, 1)
    for card in ("Ac", "Ad", "Ah", "As"):  # the defender's four aces: the makers are euchred
        s.push(f"play {card}")
        while s.to_act != 1 and not s.is_over:
            s.push(s.legal_actions()[0])
    while not s.is_over:
        s.push(s.legal_actions()[0])
    r = s.result()
    assert r is not None and r.euchred and s.points == (0, 2) and r.trump == NO_TRUMP


def test_actions_codes_and_text() -> None:
    assert [int(a) for a in (CALL_NO_TRUMP, CALL_NO_TRUMP_ALONE, CALL_LOW, CALL_LOW_ALONE)] == [79, 80, 81, 82]
    for a, text, trump, alone in ((CALL_NO_TRUMP, "call n", NO_TRUMP, False),
                                  (CALL_NO_TRUMP_ALONE, "call n alone", NO_TRUMP, True),
                                  (CALL_LOW, "call low", LOW, False), (CALL_LOW_ALONE, "call low alone", LOW, True)):
        assert str(a) == text and Action.parse(text) is a and a.trump == trump and a.alone is alone
        assert a.suit is None and a.card is None and a.is_bid and a.kind in (Kind.CALL, Kind.CALL_ALONE)
        assert call(trump, alone=alone) is a
    assert Action.parse("call no trump alone") is CALL_NO_TRUMP_ALONE
    s = to_round2(deal(LOWR))
    assert s.parse_action("n") is CALL_NO_TRUMP and s.parse_action("low alone") is CALL_LOW_ALONE


# --- the ranking -----------------------------------------------------------------------------------
def test_a_no_trump_trick_is_won_by_the_highest_card_of_the_led_suit_jack_between_queen_and_ten() -> None:
    s = to_round2(deal())
    s.push("call n")
    assert s.trump == NO_TRUMP and s.maker == 1 and s.phase is Phase.PLAY and s.to_act == 1
    assert not s.up_card_taken and s.discard is None  # round 2: nobody takes the up card
    s.push("play Tc")
    assert strs(s.legal_actions()) == ["play 9c", "play Jc", "play Qc", "play Kc"]  # clubs only, the 9d is not one
    s.push("play Jc")
    assert "play Jd" in strs(s.legal_actions()) and len(s.legal_actions()) == 5  # void in clubs: any card
    s.push("play Jd")  # no left bower: just a diamond
    s.push("play 9s")
    assert s.tricks[0].winner == 2  # Jc > Tc; Jd and 9s are not of the led suit
    cards = [C(x) for x in ("Tc", "Jc", "Jd", "9s")]
    assert trick_winner_index(cards, Suit.HEARTS) == 2  # with hearts trump Jd would be the left bower
    assert trick_winner_index([C(x) for x in ("Jc", "Qc", "Tc", "9c")], NO_TRUMP) == 1
    assert trick_winner_index([C(x) for x in ("Tc", "9c", "Jc", "Ah")], NO_TRUMP) == 2


def test_low_the_nine_wins() -> None:
    s = to_round2(deal(LOWR))
    s.push("call low")
    assert s.trump == LOW
    for card in ("Tc", "9c", "Jd", "9s"):
        s.push(f"play {card}")
    assert s.tricks[0].winner == 2  # 9c is the highest club in low
    assert trick_winner_index([C(x) for x in ("Ac", "Kc", "Qc", "Jc")], LOW) == 3
    assert trick_winner_index([C(x) for x in ("Tc", "Jc", "9d", "Ac")], LOW) == 0


def test_presentation_order_12_8() -> None:
    cards = CardSet.parse("9h Ah Jh Tc Kd Js 9s")
    assert strs(sort_hand(cards, NO_TRUMP)) == ["Tc", "Kd", "Js", "9s", "Ah", "Jh", "9h"]
    assert strs(sort_hand(cards, LOW)) == ["Tc", "Kd", "9s", "Js", "9h", "Jh", "Ah"]
    s = to_round2(deal(LOWR))
    s.push("call low")
    assert strs(s.hand(2)) == ["9c", "Jc", "Qc", "Kc", "9d"]


# --- scoring (section 6) ---------------------------------------------------------------------------
def _play_out(s: State, leads: list[str]) -> None:
    for card in leads:
        assert s.to_act == 1
        s.push(f"play {card}")
        while s.to_act != 1 and not s.is_over:
            s.push(s.legal_actions()[0])


MARCH = ["Th Jh Qh Kh 9s", "Ac Ad Ah As Kc", "9c Tc Jc Qc 9d", "Td Jd Qd Kd 9h"]


def test_alone_with_no_trump_a_lone_march_scores_four() -> None:
    s = to_round2(State(NT, dealer=0, hands=MARCH, up_card=UP))
    s.push("call n alone")
    assert s.alone and s.sitting_out == frozenset({3}) and s.to_act == 1
    _play_out(s, ["Ac", "Ad", "Ah", "As", "Kc"])  # Kc is the top club once the ace is played
    r = s.result()
    assert r is not None and r.march and r.alone and s.points == (0, 4)


def test_alone_with_no_trump_made_scores_one() -> None:
    s = to_round2(deal())
    s.push("call n alone")
    _play_out(s, ["Ac", "Ad", "Ah", "As", "Tc"])  # seat 2 keeps Kc for the last trick
    r = s.result()
    assert r is not None and r.made and s.maker_tricks() == 4 and s.points == (0, 1)


def test_a_march_with_the_partner_scores_two() -> None:
    s = to_round2(State(NT, dealer=0, hands=MARCH, up_card=UP))
    s.push("call n")
    _play_out(s, ["Ac", "Ad", "Ah", "As", "Kc"])
    assert s.is_over and s.maker_tricks() == 5 and s.points == (0, 2)
    r = s.result()
    assert r is not None and r.march and r.trump == NO_TRUMP and r.to_dict()["trump"] == "n"


# --- refusals ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "said"), [
    (dict(deck=25), "the Joker has no agreed rank"),
    (dict(deck=32), "needs the 24-card deck"),
    (dict(low_no_trump=True, no_trump=False), "low_no_trump: needs no_trump=True"),
])
def test_refused_combinations(rules: dict[str, object], said: str) -> None:
    with pytest.raises(RulesError, match=said):
        Rules(**{"no_trump": True, **rules})  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["two-handed", "cut-throat", "british"])
def test_refused_outside_four_player_24_card_euchre(preset: str) -> None:
    with pytest.raises(RulesError, match="no_trump"):
        Rules.preset(preset, no_trump=True)


@pytest.mark.parametrize("preset", ["american", "long", "timed"])
def test_allowed_on_the_four_player_presets(preset: str) -> None:
    assert Rules.preset(preset, no_trump=True, low_no_trump=True).low_no_trump
    assert Rules.preset("british", deck=24, no_trump=True).no_trump


# --- words, views, protocol, records ----------------------------------------------------------------
def test_words() -> None:
    s = to_round2(deal(LOWR))
    g_view = _view(s, 1)
    assert action_words(CALL_NO_TRUMP, g_view) == "call no trump"
    assert action_words(CALL_LOW_ALONE, g_view) == "call low alone"
    s.push("call n alone")
    v = _view(s, 1)
    names = ["South", "West", "North", "East"]
    assert move_words(v, len(v.actions) - 1, names) == "West calls no trump and goes alone"
    assert card_words(C("Jd"), NO_TRUMP) == "the jack of diamonds"  # no bowers
    assert v.trump == NO_TRUMP and v.trump_suit is None and v.no_trump
    assert "No trump" in " ".join(rules_in_words(LOWR)) and "No trump" not in " ".join(rules_in_words(Rules()))
    while not s.is_over:
        s.push(s.legal_actions()[0])
    assert "(no trump; " in hand_result_words(_view(s, 0), names)


def _view(s: State, seat: int | None) -> PlayerView:
    return PlayerView.of(s, seat)


def test_protocol_json() -> None:
    s = to_round2(deal(LOWR))
    s.push("call low")
    v = _view(s, 2)
    d = view_to_dict(v)
    assert d["trump"] == "low" and d["hand"] == ["9c", "Jc", "Qc", "Kc", "9d"]
    assert view_from_dict(d) == v
    s2 = to_round2(deal(LOWR))
    s2.push("call n")
    assert view_to_dict(_view(s2, None))["trump"] == "n"


def _random_game(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        nt = [a for a in legal if a.trump is not None and a.trump >= NO_TRUMP]
        game.push(rng.choice(nt) if nt and rng.random() < 0.5 else rng.choice(legal))
    return game


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), low=st.booleans(), stick=st.booleans())
def test_random_games_with_the_switches(seed: int, low: bool, stick: bool) -> None:
    rules = Rules(no_trump=True, low_no_trump=low, stick_the_dealer=stick, target=5)
    game = _random_game(rules, seed)
    assert game.is_over
    for h in game.hands:
        if h.trump is not None and h.trump >= NO_TRUMP:
            assert low or h.trump == NO_TRUMP
        if h.maker >= 0:
            played = [c for t in h.tricks for c in t.cards]
            assert len(played) == len(set(played)) == 5 * (4 - len(h.sitting_out))  # cards conserved
            assert h.points == h.score_for(h.maker_tricks())
        # Undo is exact.
        replay = State.from_deal(rules, h.deal)
        keys = [replay.key()]
        for a in h.history:
            replay.push(a)
            keys.append(replay.key())
        assert replay == h
        for k in reversed(keys[:-1]):
            replay.pop()
            assert replay.key() == k
        # Views hold no other seat's cards, and the JSON form reads back.
        for seat in range(4):
            v = _view(h, seat)
            others = set()
            for o in range(4):
                if o != seat:
                    others |= set(CardSet(h.hands[o]))
            assert not others & set(v.hand)
            assert view_from_dict(view_to_dict(v)) == v
    record = GameRecord.from_game(game)
    again = GameRecord.loads(record.dumps())
    assert again.replay().scores == game.scores
    assert [x.actions for x in again.hands] == [x.actions for x in record.hands]


# --- the solver and the bots ------------------------------------------------------------------------
def _brute(s: State) -> int:
    if s.is_over:
        return s.maker_tricks()
    makers = s.side_of(s.to_act) == s.side_of(s.maker)
    best = -1 if makers else 99
    for a in s.legal_actions():
        s.push(a)
        v = _brute(s)
        s.pop()
        best = max(best, v) if makers else min(best, v)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_solver_agrees_with_brute_force_on_no_trump_endings(seed: int) -> None:
    rng = random.Random(seed)
    rules = LOWR
    while True:
        s = State.random(rules, dealer=seed % 4, rng=rng)
        for _ in range(4):
            s.push("pass")
        options = [a for a in s.legal_actions() if a.trump is not None and a.trump >= NO_TRUMP]
        s.push(options[seed % len(options)])
        break
    # Play two tricks at random, then compare the exact values on the last three.
    while len(s.tricks) < 2:
        s.push(rng.choice(s.legal_actions()))
    assert Solver().solve(s) == _brute(s.copy())
    values = Solver().action_values(s)
    for a, v in values.items():
        s.push(a)
        assert v == _brute(s.copy())
        s.pop()


def test_no_trump_estimate() -> None:
    hand = [C(x) for x in ("Ac", "Ad", "Ah", "Ks", "9s")]
    tricks, losers = estimate_no_trump(hand, NO_TRUMP, 24)
    assert 3.0 <= tricks < 4.0 and losers >= 1.0
    tricks, _ = estimate_no_trump([C(x) for x in ("9c", "9d", "9h", "Ts", "9s")], LOW, 24)
    assert tricks >= 4.0


def test_the_heuristic_calls_no_trump_with_aces_and_plays_whole_games() -> None:
    s = to_round2(deal(NT))
    assert HeuristicBot().choose(_view(s, 1)).trump == NO_TRUMP
    bots = [HeuristicBot(seed=i) for i in range(4)]
    made = 0
    for seed in range(6):
        game = Game(LOWR.replace(target=6), seed=seed)
        while not game.is_over:
            game.push(bots[game.to_act].choose(game.view(game.to_act)))
        made += sum(1 for h in game.hands if h.trump is not None and h.trump >= NO_TRUMP)
    assert made > 0


def test_the_search_bot_plays_a_no_trump_game() -> None:
    bot = SearchBot(seed=1, samples=6, bid_samples=4, min_samples=2)
    heur = HeuristicBot(seed=2)
    game = Game(LOWR.replace(target=3), seed=3)
    steps = 0
    while not game.is_over and steps < 400:
        seat = game.to_act
        view = game.view(seat)
        a = (bot if seat % 2 == 0 else heur).choose(view)
        assert a in view.legal_actions
        game.push(a)
        steps += 1
    assert game.is_over
    # A hand played without trump, searched from its first lead.
    s = to_round2(deal(LOWR))
    s.push("call low")
    v = _view(s, 1)
    assert bot.choose(v) in v.legal_actions


def test_egn_round_trips_no_trump_and_refuses_low() -> None:
    from euchre import egn
    from euchre.errors import RecordError
    for seed in range(8):
        game = _random_game(Rules(no_trump=True, stick_the_dealer=True), seed)
        data = egn.to_dict(game)
        assert data["metadata"]["ruleset"]["allow_no_trump"] is True
        assert egn.loads(egn.dumps(game)).replay().scores == game.scores
    with pytest.raises(RecordError, match="low no-trump"):
        egn.dumps(_random_game(LOWR, 1))


def test_the_command_line_switch_turns_the_rule_on() -> None:
    """``--no-trump`` is the rule's switch, not the negative of some other: argparse's own
    optional-boolean action reads every ``--no-...`` as "off", which turned this rule off."""
    from euchre.cli import build_parser, rules_from_args

    parser = build_parser()
    on = rules_from_args(parser.parse_args(["arena", "expert", "hard", "--no-trump", "--low-no-trump"]))
    assert on.no_trump and on.low_no_trump
    off = rules_from_args(parser.parse_args(["arena", "expert", "hard", "--no-no-trump"]))
    assert not off.no_trump
    assert not rules_from_args(parser.parse_args(["play", "--no-stick-the-dealer"])).stick_the_dealer
