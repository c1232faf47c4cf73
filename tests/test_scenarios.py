"""Scenario tests straight from RULES.md: named explicit deals, named action sequences, and the
exact legal actions, trick winners and points the rules prescribe.

Seats are numbered clockwise; with four players 0+2 and 1+3 are partners (sides 0 and 1). Unless
a test says otherwise seat 0 deals, so seat 1 is the dealer's left, seat 2 the dealer's partner.
"""

from __future__ import annotations

import pytest

from euchre import DealError, IllegalActionError, Kind, Phase, Rules, State
from euchre.cards import Card, CardSet, Suit, iter_mask, sort_hand

AMERICAN = Rules.preset("american")
BRITISH = Rules.preset("british")
TWO = Rules.preset("two-handed")
CUT = Rules.preset("cut-throat")


# --- helpers ----------------------------------------------------------------------------------
def deal(rules: Rules, hands: list[str], up: str, *, dealer: int = 0, stock: str | None = None) -> State:
    return State(rules, dealer=dealer, hands=hands, up_card=up, stock=stock)


def legal(s: State) -> list[str]:
    return sorted(str(a) for a in s.legal_actions())


def bid(s: State, *actions: str) -> State:
    for a in actions:
        s.push(a)
    return s


def trick(s: State, leader: int, cards: str) -> int:
    """Play one trick (cards in play order, the first led by ``leader``); return the winner."""
    assert s.phase is Phase.PLAY
    assert s.to_act == leader, f"expected seat {leader} to lead, not {s.to_act}"
    before = len(s.tricks)
    for c in cards.split():
        s.push(f"play {c}")
    assert len(s.tricks) == before + 1, "the trick did not complete"
    t = s.tricks[-1]
    assert t.leader == leader
    assert [str(c) for c in t.cards] == cards.split()
    return t.winner


def play_out(s: State, tricks: list[tuple[int, str, int]]) -> None:
    """Play five tricks given as (leader, cards, expected winner)."""
    for leader, cards, winner in tricks:
        assert trick(s, leader, cards) == winner, f"trick {cards!r}"
    assert s.is_over


def hand_of(s: State, seat: int) -> set[str]:
    return {str(c) for c in iter_mask(s.hands[seat])}


# Named deals (dealer 0, up card 9h unless stated). Every card of the deck is placed.
# BASE: seat 1 holds the five best hearts; seat 2 has no trump at hearts.
BASE = ["Tc Jc Qs Ks 9d", "Jh Jd Ah Kh Qh", "Ac Kc Qc 9c Ts", "Th As Js 9s Ad"]
BASE_STOCK = "Td Qd Kd"
# BASE played out with hearts trump after the dealer took 9h and buried 9d; seat 1 leads all.
BASE_MARCH = [
    (1, "Jh 9c Th 9h", 1),
    (1, "Jd Ts 9s Tc", 1),
    (1, "Ah Qc Js Jc", 1),
    (1, "Kh Kc As Qs", 1),
    (1, "Qh Ac Ad Ks", 1),
]
# MAKE: seat 1 has three top trumps and two losers.
MAKE = ["Kh Ac Kc As Ks", "Jh Jd Ah 9c 9s", "Qh Th Qc Jc Tc", "Qs Js Ts 9d Td"]


# --- 2. card order, bowers ---------------------------------------------------------------------
BOWERS = ["Ah Kc Qc Tc 9c", "Jh Qh As Ks Qs", "Jd Kh Ad Kd Qd", "Th Ac Js Ts 9s"]


def test_right_bower_beats_left_bower_beats_ace_of_trump() -> None:
    s = bid(deal(AMERICAN, BOWERS, "9h", stock="Jc Td 9d"), "order", "discard 9c")
    assert s.trump == Suit.HEARTS and s.leader == 1
    assert s.maker == 1 and s.makers == frozenset({1, 3})
    # Trump led: seat 2 must follow trump; the left bower Jd counts as a heart, Ad/Kd/Qd do not.
    s.push("play Jh")
    assert legal(s) == ["play Jd", "play Kh"]
    s.push("play Jd")
    assert legal(s) == ["play Th"]
    s.push("play Th")
    assert legal(s) == ["play 9h", "play Ah"]
    s.push("play Ah")
    assert s.tricks[-1].winner == 1  # right bower over left bower over ace
    play_out(s, [
        (1, "Qh Kh 9s 9h", 2),  # K beats Q of trump
        (2, "Ad Ts Kc Qs", 2),  # no trump played: the highest diamond
        (2, "Kd Js Qc Ks", 2),
        (2, "Qd Ac Tc As", 2),  # off-suit aces do not win
    ])
    assert s.tricks_won == [0, 1, 4, 0]
    assert s.points == (2, 0)  # makers (side 1) took 1 trick: euchred, defenders score 2


def test_left_bower_beats_ace_in_the_same_trick() -> None:
    s = bid(deal(AMERICAN, BOWERS, "9h"), "order", "discard 9c")
    assert trick(s, 1, "Qh Jd Th Ah") == 2  # the left bower beats the ace and queen of trump


def test_left_bower_is_not_its_printed_suit_when_that_suit_is_led() -> None:
    # Hearts trump. Seat 2 holds Jd and 9d: a diamond lead forces 9d, and Jd is not a diamond.
    s = bid(deal(AMERICAN, ["9h Kh Ac Kc Qc", "Ad Ah As Ks Qs", "Jd 9d 9c Tc Jc", "Jh Th Qh Td Kd"], "Ts"),
            "pass", "pass", "pass", "pass", "call h")
    assert s.trump == Suit.HEARTS
    s.push("play Ad")
    assert legal(s) == ["play 9d"]
    with pytest.raises(IllegalActionError, match=r"you must follow diamonds: you hold 9d$"):
        s.push("play Jd")
    s.push("play 9d")
    # Seat 3 holds Td Kd: must follow diamonds; its hearts are trumps and not allowed.
    assert legal(s) == ["play Kd", "play Td"]
    s.push("play Kd")
    # The dealer has no diamond: any card.
    assert legal(s) == sorted(["play 9h", "play Kh", "play Ac", "play Kc", "play Qc"])
    s.push("play 9h")
    assert s.tricks[-1].winner == 0  # a low trump beats the ace of the led suit


def test_left_bower_alone_is_void_in_its_printed_suit() -> None:
    # Hearts trump; seat 2's only "diamond" is the left bower, so a diamond lead leaves it free.
    s = bid(deal(AMERICAN, ["9h Kh Ac Kc Qc", "Ad Ah As Ks Qs", "Jd 9s 9c Tc Jc", "Jh Th Qh 9d Kd"], "Ts"),
            "pass", "pass", "pass", "pass", "call h")
    s.push("play Ad")
    assert legal(s) == sorted(["play Jd", "play 9s", "play 9c", "play Tc", "play Jc"])
    s.push("play Jd")  # trumps the ace
    s.push("play 9d")
    s.push("play Qc")
    assert s.tricks[-1].winner == 2


def test_trump_lead_forces_the_left_bower() -> None:
    s = bid(deal(AMERICAN, ["9h Kh Ac Kc Qc", "Jh Ah As Ks Qs", "Jd 9d 9c Tc Jc", "Ad Th Qh Td Kd"], "Ts"),
            "pass", "pass", "pass", "pass", "call h")
    s.push("play Jh")
    assert legal(s) == ["play Jd"]
    with pytest.raises(IllegalActionError, match=r"you must follow trump \(hearts\): you hold Jd"):
        s.push("play 9d")
    with pytest.raises(IllegalActionError, match="you do not hold Kd"):
        s.push("play Kd")


def test_must_follow_message_lists_the_cards_high_to_low() -> None:
    s = bid(deal(AMERICAN, ["9h Kh Ac Kc Qc", "Jh Ah As Ks Qs", "Jd 9d 9c Tc Jc", "Ad Th Qh Td Kd"], "Ts"),
            "pass", "pass", "pass", "pass", "call c")
    s.push("play As")  # seat 1 leads a spade; seat 2 has none, seat 3 none; dealer none either
    s.push("play 9d")
    s.push("play Td")
    s.push("play Kh")
    assert s.tricks[-1].winner == 1
    s.push("play Ah")  # hearts led; seat 2 void in hearts -> free
    s.push("play Jc")  # right bower of clubs
    with pytest.raises(IllegalActionError, match=r"^you must follow hearts: you hold Qh, Th$"):
        s.push("play Kd")


def test_highest_trump_wins_and_highest_led_card_wins_without_trump() -> None:
    s = bid(deal(AMERICAN, MAKE, "9h"), "order", "discard Kc")
    play_out(s, [
        (1, "Jh Th 9d 9h", 1),
        (1, "Jd Qh Td Kh", 1),
        (1, "Ah Tc Ts As", 1),
        (1, "9c Qc Js Ac", 0),  # no trump: the ace of the led suit
        (0, "Ks 9s Jc Qs", 0),  # an off-suit jack does not win
    ])
    assert s.points == (0, 1)  # makers took 3: one point


# --- 4. round 1 -------------------------------------------------------------------------------
def test_round_one_order_up_then_the_dealer_picks_up_and_discards() -> None:
    s = deal(AMERICAN, BASE, "9h", stock=BASE_STOCK)
    assert (s.phase, s.to_act) == (Phase.BID1, 1)
    assert legal(s) == ["order", "order alone", "pass"]
    s.push("pass")
    assert s.to_act == 2
    s.push("order")
    assert (s.phase, s.to_act, s.trump, s.maker) == (Phase.DISCARD, 0, Suit.HEARTS, 2)
    assert hand_of(s, 0) == {"Tc", "Jc", "Qs", "Ks", "9d", "9h"}
    assert legal(s) == sorted(f"discard {c}" for c in ["Tc", "Jc", "Qs", "Ks", "9d", "9h"])
    s.push("discard Tc")
    assert hand_of(s, 0) == {"Jc", "Qs", "Ks", "9d", "9h"}
    assert s.discard == Card.parse("Tc") and s.up_card_taken
    assert (s.phase, s.to_act, s.leader) == (Phase.PLAY, 1, 1)


def test_dealer_picks_up_after_three_passes() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "pass")
    assert s.to_act == 0
    s.push("order")
    assert (s.phase, s.maker, s.trump) == (Phase.DISCARD, 0, Suit.HEARTS)


def test_dealer_may_discard_the_up_card() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "order", "discard 9h")
    assert hand_of(s, 0) == {"Tc", "Jc", "Qs", "Ks", "9d"}
    assert s.discard == Card.parse("9h") and s.trump == Suit.HEARTS
    assert s.phase is Phase.PLAY


def test_dealer_may_not_discard_the_up_card_when_forbidden() -> None:
    rules = Rules.preset("american", dealer_may_discard_up_card=False)
    s = bid(deal(rules, BASE, "9h"), "order")
    assert legal(s) == sorted(f"discard {c}" for c in ["Tc", "Jc", "Qs", "Ks", "9d"])
    with pytest.raises(IllegalActionError, match="do not let the dealer discard the up card 9h"):
        s.push("discard 9h")
    assert s.phase is Phase.DISCARD and hand_of(s, 0) >= {"9h"}  # unchanged
    with pytest.raises(IllegalActionError, match="you do not hold Ah"):
        s.push("discard Ah")


def test_full_hand_march_scores_two() -> None:
    s = bid(deal(AMERICAN, BASE, "9h", stock=BASE_STOCK), "order", "discard 9d")
    play_out(s, BASE_MARCH)
    assert s.tricks_won == [0, 5, 0, 0]
    assert s.points == (0, 2)


def test_full_hand_make_three_tricks_scores_one() -> None:
    s = bid(deal(AMERICAN, MAKE, "9h"), "pass", "pass", "order", "discard Kc")
    # seat 3 ordered: the makers are still seats 1 and 3.
    assert s.makers == frozenset({1, 3})
    play_out(s, [
        (1, "Jh Th 9d 9h", 1),
        (1, "Jd Qh Td Kh", 1),
        (1, "Ah Tc Ts As", 1),
        (1, "9c Qc Js Ac", 0),
        (0, "Ks 9s Jc Qs", 0),
    ])
    assert s.tricks_taken(1) == 3 and s.tricks_taken(0) == 2
    assert s.points == (0, 1)


def test_makers_euchred_with_no_trick_score_two_without_super_euchre() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "order", "discard 9d")
    assert s.makers == frozenset({0, 2})
    play_out(s, BASE_MARCH)
    assert s.points == (0, 2)


# --- 4. round 2 and the thrown-in hand ----------------------------------------------------------
def test_round_two_cannot_name_the_turned_down_suit() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "pass", "pass")
    assert (s.phase, s.to_act) == (Phase.BID2, 1)
    assert legal(s) == sorted(["pass", "call c", "call d", "call s", "call c alone", "call d alone",
                               "call s alone"])
    with pytest.raises(IllegalActionError, match="hearts was turned down"):
        s.push("call h")
    with pytest.raises(IllegalActionError, match="hearts was turned down"):
        s.push("call h alone")
    with pytest.raises(IllegalActionError):
        s.push("order")
    s.push("pass")
    s.push("call s")
    assert (s.phase, s.trump, s.maker, s.to_act) == (Phase.PLAY, Suit.SPADES, 2, 1)
    assert not s.up_card_taken and s.discard is None
    assert all(len(hand_of(s, seat)) == 5 for seat in range(4))  # nobody took the up card
    assert all("9h" not in hand_of(s, seat) for seat in range(4))


def test_round_two_bidding_order_ends_with_the_dealer() -> None:
    s = bid(deal(AMERICAN, BASE, "9h", dealer=2), "pass", "pass", "pass", "pass")
    seats = []
    while s.phase is Phase.BID2:
        seats.append(s.to_act)
        s.push("pass")
    assert seats == [3, 0, 1, 2]


def test_thrown_in_hand_when_everyone_passes_twice() -> None:
    s = deal(AMERICAN, BASE, "9h", dealer=3)
    order = []
    for _ in range(8):
        order.append(s.to_act)
        s.push("pass")
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    assert s.is_over and s.thrown_in
    assert s.points == (0, 0)
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="hand is over"):
        s.push("pass")


def test_stick_the_dealer() -> None:
    rules = Rules.preset("american", stick_the_dealer=True)
    s = deal(rules, BASE, "9h")
    assert "pass" in legal(s)
    s = bid(s, "pass", "pass", "pass", "pass")  # the dealer may pass in round 1
    assert s.phase is Phase.BID2
    s = bid(s, "pass", "pass", "pass")  # others may pass in round 2
    assert s.to_act == 0
    assert "pass" not in legal(s)
    assert legal(s) == sorted(["call c", "call d", "call s", "call c alone", "call d alone", "call s alone"])
    with pytest.raises(IllegalActionError, match="stick the dealer"):
        s.push("pass")
    s.push("call c")
    assert (s.phase, s.maker, s.trump) == (Phase.PLAY, 0, Suit.CLUBS)


# --- 4. going alone --------------------------------------------------------------------------------
def test_lone_march_scores_four_with_three_active_seats() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "order alone")
    assert s.alone and s.sitting_out == frozenset({3})
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0)  # the dealer still picks up
    s.push("discard 9d")
    assert s.leader == 1  # first active seat left of the dealer: the loner himself
    seen = []
    for leader, cards, winner in [
        (1, "Jh 9c 9h", 1), (1, "Jd Ts Tc", 1), (1, "Ah Qc Jc", 1), (1, "Kh Kc Qs", 1), (1, "Qh Ac Ks", 1),
    ]:
        assert trick(s, leader, cards) == winner
        seen.extend(seat for seat, _ in s.tricks[-1].plays)
    assert 3 not in seen and len(s.tricks[0].plays) == 3
    assert hand_of(s, 3) == {"Th", "As", "Js", "9s", "Ad"}  # the partner's cards were not played
    assert s.points == (0, 4)


def test_no_alone_declaration_after_the_bid() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "order")
    with pytest.raises(IllegalActionError):
        s.push("order alone")
    s.push("discard 9d")
    assert not s.alone and s.sitting_out == frozenset()
    assert all(a.kind is Kind.PLAY for a in s.legal_actions())
    with pytest.raises(IllegalActionError):
        s.push("order alone")


def test_lone_maker_euchred_scores_two() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "order alone")
    assert s.sitting_out == frozenset({1}) and s.maker == 3
    s.push("discard 9d")
    assert s.leader == 2  # seat 1 sits out: the first active seat left of the dealer is 2
    play_out(s, [
        (2, "Ac Th Tc", 3),  # seat 3 trumps the ace
        (3, "Js Ks Ts", 0),
        (0, "Qs 9c 9s", 0),
        (0, "9h Qc Ad", 0),
        (0, "Jc Kc As", 2),
    ])
    assert s.tricks_taken(1) == 1
    assert s.points == (2, 0)


def test_loner_euchre_value_is_settable() -> None:
    rules = Rules.preset("american", loner_euchre_points=3, loner_march_points=6)
    s = bid(deal(rules, BASE, "9h"), "pass", "pass", "order alone", "discard 9d")
    play_out(s, [(2, "Ac Th Tc", 3), (3, "Js Ks Ts", 0), (0, "Qs 9c 9s", 0), (0, "9h Qc Ad", 0),
                 (0, "Jc Kc As", 2)])
    assert s.points == (3, 0)
    s = bid(deal(rules, BASE, "9h"), "order alone", "discard 9d")
    play_out(s, [(1, "Jh 9c 9h", 1), (1, "Jd Ts Tc", 1), (1, "Ah Qc Jc", 1), (1, "Kh Kc Qs", 1),
                 (1, "Qh Ac Ks", 1)])
    assert s.points == (0, 6)


def test_dealer_sits_out_when_the_dealers_partner_orders_alone() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "order alone")
    assert s.sitting_out == frozenset({0}) and s.maker == 2
    assert (s.phase, s.to_act, s.trump) == (Phase.PLAY, 1, Suit.HEARTS)  # no discard phase
    assert not s.up_card_taken and s.discard is None
    assert hand_of(s, 0) == {"Tc", "Jc", "Qs", "Ks", "9d"}  # the up card stays in the stock
    play_out(s, [(1, "Jh 9c Th", 1), (1, "Jd Ts 9s", 1), (1, "Ah Qc Js", 1), (1, "Kh Kc As", 1),
                 (1, "Qh Ac Ad", 1)])
    assert s.points == (0, 2)  # lone maker euchred (no super-euchre by default)


def test_dealer_ordering_alone_still_takes_the_up_card() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "pass", "order alone")
    assert s.sitting_out == frozenset({2})
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0)
    assert "9h" in hand_of(s, 0)


def test_round_two_call_alone() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "pass", "pass", "call d alone")
    assert (s.trump, s.maker, s.alone, s.sitting_out) == (Suit.DIAMONDS, 1, True, frozenset({3}))
    assert s.leader == 1


# --- 6. super-euchre, loner lead, defend alone -----------------------------------------------------
def test_super_euchre_scores_four() -> None:
    rules = Rules.preset("american", super_euchre=True)
    s = bid(deal(rules, BASE, "9h"), "pass", "order", "discard 9d")
    play_out(s, BASE_MARCH)
    assert s.points == (0, 4)


def test_super_euchre_does_not_apply_when_makers_take_a_trick() -> None:
    rules = Rules.preset("american", super_euchre=True)
    s = bid(deal(rules, BASE, "9h"), "pass", "pass", "order alone", "discard 9d")
    play_out(s, [(2, "Ac Th Tc", 3), (3, "Js Ks Ts", 0), (0, "Qs 9c 9s", 0), (0, "9h Qc Ad", 0),
                 (0, "Jc Kc As", 2)])
    assert s.points == (2, 0)


def test_largest_euchre_value_counts() -> None:
    rules = Rules.preset("american", super_euchre=True, super_euchre_points=3, loner_euchre_points=5)
    s = bid(deal(rules, BASE, "9h"), "pass", "order alone")  # lone maker 2 takes nothing
    play_out(s, [(1, "Jh 9c Th", 1), (1, "Jd Ts 9s", 1), (1, "Ah Qc Js", 1), (1, "Kh Kc As", 1),
                 (1, "Qh Ac Ad", 1)])
    assert s.points == (0, 5)
    rules = Rules.preset("american", super_euchre=True, super_euchre_points=7)
    s = bid(deal(rules, BASE, "9h"), "pass", "order alone")
    play_out(s, [(1, "Jh 9c Th", 1), (1, "Jd Ts 9s", 1), (1, "Ah Qc Js", 1), (1, "Kh Kc As", 1),
                 (1, "Qh Ac Ad", 1)])
    assert s.points == (0, 7)


def test_loner_lead_dealer_left_vs_loner_left() -> None:
    s = bid(deal(AMERICAN, BASE, "9h"), "order alone", "discard 9d")
    assert s.leader == 1
    rules = Rules.preset("american", loner_lead="loner_left")
    s = bid(deal(rules, BASE, "9h"), "order alone", "discard 9d")
    assert s.leader == 2  # left of the lone maker (seat 1)
    assert trick(s, 2, "9c Tc Jh") == 1  # the dealer follows clubs, the loner trumps
    # Maker seat 3 alone, partner 1 out: dealer_left -> 2; loner_left -> 0.
    s = bid(deal(AMERICAN, BASE, "9h"), "pass", "pass", "order alone", "discard 9d")
    assert s.leader == 2
    s = bid(deal(rules, BASE, "9h"), "pass", "pass", "order alone", "discard 9d")
    assert s.leader == 0
    # loner_left only matters against a loner.
    s = bid(deal(rules, BASE, "9h"), "pass", "pass", "order", "discard 9d")
    assert s.leader == 1


def test_defend_alone_after_the_discard_lone_defender_euchre_scores_four() -> None:
    rules = Rules.preset("american", defend_alone=True)
    s = bid(deal(rules, BASE, "9h"), "pass", "pass", "order alone")
    assert s.phase is Phase.DISCARD  # the dealer exchanges first
    s.push("discard Tc")
    assert (s.phase, s.to_act) == (Phase.DEFEND, 2)  # dealer's left first: seat 1 is out, seat 2 asked
    assert legal(s) == ["defend alone", "pass"]
    s.push("pass")
    assert (s.phase, s.to_act) == (Phase.DEFEND, 0)
    s.push("defend alone")
    assert s.lone_defender == 0 and s.sitting_out == frozenset({1, 2})
    assert s.leader == 3
    play_out(s, [(3, "Th 9h", 3), (3, "As Qs", 3), (3, "Js Ks", 0), (0, "Jc Ad", 0), (0, "9d 9s", 0)])
    assert s.points == (4, 0)


def test_defend_alone_first_defender_asked_is_dealers_left() -> None:
    rules = Rules.preset("american", defend_alone=True)
    s = bid(deal(rules, BASE, "9h"), "order alone", "discard 9d")
    assert (s.phase, s.to_act) == (Phase.DEFEND, 2)
    s = bid(deal(rules, BASE, "9h"), "pass", "order alone")  # maker 2; the dealer sits out; no discard
    assert (s.phase, s.to_act) == (Phase.DEFEND, 1)
    s.push("pass")
    assert s.to_act == 3
    s.push("pass")
    assert (s.phase, s.to_act, s.lone_defender) == (Phase.PLAY, 1, -1)
    assert s.sitting_out == frozenset({0})


def test_lone_march_against_a_lone_defender_still_scores_the_lone_march_value() -> None:
    rules = Rules.preset("american", defend_alone=True)
    s = bid(deal(rules, BASE, "9h"), "order alone", "discard 9d", "defend alone")
    assert s.lone_defender == 2 and s.sitting_out == frozenset({0, 3})
    play_out(s, [(1, "Jh 9c", 1), (1, "Jd Ts", 1), (1, "Ah Qc", 1), (1, "Kh Kc", 1), (1, "Qh Ac", 1)])
    assert s.points == (0, 4)


def test_no_defend_alone_against_a_partnership_or_when_switched_off() -> None:
    rules = Rules.preset("american", defend_alone=True)
    s = bid(deal(rules, BASE, "9h"), "order", "discard 9d")
    assert s.phase is Phase.PLAY
    s = bid(deal(AMERICAN, BASE, "9h"), "order alone", "discard 9d")
    assert s.phase is Phase.PLAY
    with pytest.raises(IllegalActionError):
        s.push("defend alone")


# --- Canadian loner -----------------------------------------------------------------------------
def test_canadian_loner_dealers_partner_may_order_only_alone() -> None:
    rules = Rules.preset("american", canadian_loner=True)
    s = deal(rules, BASE, "9h")
    assert legal(s) == ["order", "order alone", "pass"]  # seat 1 unaffected
    s.push("pass")
    assert s.to_act == 2 and legal(s) == ["order alone", "pass"]
    with pytest.raises(IllegalActionError, match="dealer's partner may order up only by going alone"):
        s.push("order")
    s.push("pass")
    assert legal(s) == ["order", "order alone", "pass"]
    s = bid(s, "pass", "pass", "pass")
    assert (s.phase, s.to_act) == (Phase.BID2, 2) and "call s" in legal(s)  # round 2 is unaffected
    s.push("call s")
    assert (s.maker, s.alone) == (2, False)


def test_canadian_loner_order_alone_by_dealers_partner() -> None:
    s = bid(deal(BRITISH, ["Tc Jc Qs Ks 9d", "Jh Jd Ah Kh Qh", "Ac Kc Qc 9c Ts", "Th As Js 9s Ad"], "9h"),
            "pass")
    assert legal(s) == ["order alone", "pass"]
    s.push("order alone")
    assert s.sitting_out == frozenset({0}) and s.phase is Phase.PLAY and not s.up_card_taken


# --- British: the Joker ---------------------------------------------------------------------------
JOKER_DEAL = ["9c Tc Jc Qc Kc", "Ac 9d Td Jd Qd", "Kd Ad 9h Th Jh", "Qh Kh Ah 9s Ts"]


def test_joker_is_the_highest_trump_and_a_led_joker_is_a_trump_lead() -> None:
    s = deal(BRITISH, ["Th Qh Kh Ah 9s", "Jk Ac Kc Qs Ks", "Jh 9c Tc Jc Qc", "Jd Td Qd Kd Ad"], "9h",
             stock="9d Ts Js As")
    s = bid(s, "order", "discard 9s")
    s.push("play Jk")
    assert legal(s) == ["play Jh"]  # must follow trump with the right bower
    with pytest.raises(IllegalActionError, match=r"must follow trump \(hearts\)"):
        s.push("play 9c")
    s.push("play Jh")
    assert legal(s) == ["play Jd"]  # the left bower is the only trump
    s.push("play Jd")
    assert legal(s) == sorted(["play 9h", "play Th", "play Qh", "play Kh", "play Ah"])
    s.push("play Ah")
    assert s.tricks[-1].winner == 1  # Joker over right bower over left bower


def test_joker_trumps_an_off_suit_lead_and_must_follow_a_trump_lead() -> None:
    s = bid(deal(BRITISH, ["Th Qh Kh Ah 9s", "Jk Ac Kc Qs Ks", "Jh 9c Tc Jc Qc", "Jd Td Qd Kd Ad"], "9h"),
            "order", "discard 9s")
    assert trick(s, 1, "Ks 9c Ad Ah") == 0  # the dealer, void in spades, trumps
    s.push("play Th")
    assert legal(s) == ["play Jk"]  # the Joker is seat 1's only trump: it must follow
    with pytest.raises(IllegalActionError, match=r"must follow trump \(hearts\): you hold Jk"):
        s.push("play Ac")
    s.push("play Jk")
    s.push("play Jh")
    s.push("play Jd")
    assert s.tricks[-1].winner == 1


def test_joker_turned_up_dealer_names_any_suit_and_takes_it() -> None:
    s = deal(BRITISH, JOKER_DEAL, "Jk", stock="Js Qs Ks As")
    assert (s.phase, s.to_act) == (Phase.JOKER, 0)
    assert legal(s) == sorted([f"call {x}" for x in "cdhs"] + [f"call {x} alone" for x in "cdhs"])
    for bad in ("pass", "order"):
        with pytest.raises(IllegalActionError):
            s.push(bad)
    s.push("call s")
    assert (s.trump, s.maker, s.alone) == (Suit.SPADES, 0, False)
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0)
    assert "Jk" in hand_of(s, 0)
    assert "discard Jk" in legal(s)
    s.push("discard Jk")  # allowed under the default switch
    assert s.phase is Phase.PLAY and s.leader == 1
    assert "Jk" not in hand_of(s, 0)


def test_joker_turned_up_dealer_may_declare_alone() -> None:
    s = bid(deal(BRITISH, JOKER_DEAL, "Jk"), "call h alone")
    assert (s.trump, s.maker, s.alone, s.sitting_out) == (Suit.HEARTS, 0, True, frozenset({2}))
    assert s.phase is Phase.DISCARD and "Jk" in hand_of(s, 0)
    s.push("discard 9c")
    assert s.leader == 1


def test_joker_turned_up_dealer_may_not_discard_it_when_forbidden() -> None:
    rules = Rules.preset("british", dealer_may_discard_up_card=False)
    s = bid(deal(rules, JOKER_DEAL, "Jk"), "call c")
    assert legal(s) == sorted(f"discard {c}" for c in ["9c", "Tc", "Jc", "Qc", "Kc"])
    with pytest.raises(IllegalActionError, match="up card Jk"):
        s.push("discard Jk")


def test_joker_up_in_american_is_impossible() -> None:
    with pytest.raises(DealError, match="Jk is not in the 24-card deck"):
        deal(AMERICAN, BASE, "Jk")


# --- two-handed -------------------------------------------------------------------------------------
TWO_DEAL = ["9c Tc Jc Qc Kc", "Jh Jd Ah Kh Qh"]


def test_two_handed_dealer_takes_after_an_order() -> None:
    s = deal(TWO, TWO_DEAL, "9h")
    assert (s.phase, s.to_act) == (Phase.BID1, 1)
    assert legal(s) == ["order", "pass"]  # no one goes alone
    with pytest.raises(IllegalActionError, match="going alone is not allowed"):
        s.push("order alone")
    s.push("order")
    assert (s.phase, s.to_act, s.trump, s.maker) == (Phase.TAKE, 0, Suit.HEARTS, 1)
    assert legal(s) == ["pass", "take"]
    s.push("take")
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0) and "9h" in hand_of(s, 0)
    s.push("discard 9c")
    assert (s.phase, s.leader) == (Phase.PLAY, 1)
    play_out(s, [(1, "Jh 9h", 1), (1, "Jd Tc", 1), (1, "Ah Jc", 1), (1, "Kh Qc", 1), (1, "Qh Kc", 1)])
    assert s.points == (0, 2)


def test_two_handed_dealer_declines_and_the_suit_is_trump_anyway() -> None:
    s = bid(deal(TWO, TWO_DEAL, "9h"), "order", "pass")
    assert (s.phase, s.trump, s.maker, s.to_act) == (Phase.PLAY, Suit.HEARTS, 1, 1)
    assert not s.up_card_taken and hand_of(s, 0) == {"9c", "Tc", "Jc", "Qc", "Kc"}
    play_out(s, [(1, "Jh 9c", 1), (1, "Jd Tc", 1), (1, "Ah Jc", 1), (1, "Kh Qc", 1), (1, "Qh Kc", 1)])
    assert s.points == (0, 2)


def test_two_handed_dealer_accepting_in_round_one_must_take_and_discard() -> None:
    s = bid(deal(TWO, TWO_DEAL, "9h"), "pass")
    assert s.to_act == 0 and legal(s) == ["order", "pass"]
    s.push("order")
    assert (s.phase, s.to_act, s.maker) == (Phase.DISCARD, 0, 0)  # no choice to decline
    s.push("discard 9c")
    play_out(s, [(1, "Jh 9h", 1), (1, "Jd Tc", 1), (1, "Ah Jc", 1), (1, "Kh Qc", 1), (1, "Qh Kc", 1)])
    assert s.points == (0, 2)  # the maker (dealer) was euchred: the defender scores 2


def test_two_handed_make_scores_one() -> None:
    s = bid(deal(TWO, ["Kh Qh Ac As Ks", "Jh Jd Ah 9c 9s"], "9h"), "order", "take", "discard Ks")
    play_out(s, [(1, "Jh 9h", 1), (1, "Jd Qh", 1), (1, "Ah Kh", 1), (1, "9c Ac", 0), (0, "As 9s", 0)])
    assert s.points == (0, 1)


def test_two_handed_round_two_non_dealer_then_dealer_then_thrown_in() -> None:
    s = bid(deal(TWO, TWO_DEAL, "9h"), "pass", "pass")
    assert (s.phase, s.to_act) == (Phase.BID2, 1)
    assert legal(s) == ["call c", "call d", "call s", "pass"]
    with pytest.raises(IllegalActionError, match="turned down"):
        s.push("call h")
    s.push("pass")
    assert s.to_act == 0 and legal(s) == ["call c", "call d", "call s", "pass"]
    s.push("pass")
    assert s.thrown_in and s.points == (0, 0)


def test_two_handed_round_two_call_and_stick_the_dealer() -> None:
    s = bid(deal(TWO, TWO_DEAL, "9h"), "pass", "pass", "pass", "call c")
    assert (s.trump, s.maker, s.phase, s.leader) == (Suit.CLUBS, 0, Phase.PLAY, 1)
    rules = Rules.preset("two-handed", stick_the_dealer=True)
    s = bid(deal(rules, TWO_DEAL, "9h"), "pass", "pass", "pass")
    assert legal(s) == ["call c", "call d", "call s"]


def test_two_handed_uses_24_or_32_cards() -> None:
    s = deal(TWO, TWO_DEAL, "9h")
    assert len(s.deal.stock) == 24 - 11
    r32 = Rules.preset("two-handed", deck=32)
    s = deal(r32, ["7c 8c Tc Jc Qc", "7h 8h Jh Ah Kh"], "9h")
    assert len(s.deal.stock) == 32 - 11
    with pytest.raises(DealError, match="7c is not in the 24-card deck"):
        deal(TWO, ["7c 8c Tc Jc Qc", "7h 8h Jh Ah Kh"], "9h")
    # with 7s and 8s the 8 beats the 7 of trump
    s = bid(s, "order", "take", "discard 7c")
    assert trick(s, 1, "8h 9h") == 0  # the 9 beats the 8 of trump
    assert trick(s, 0, "8c 7h") == 1  # the 7 of trump beats a club


# --- cut-throat -----------------------------------------------------------------------------------
CUT_DEAL = ["Td Qd Kd Ad Ts", "Jh Jd Ah Kh Qh", "Tc Jc Qc Kc Ac"]
CUT_MARCH = [(1, "Jh Tc Th", 1), (1, "Jd Jc Td", 1), (1, "Ah Qc Qd", 1), (1, "Kh Kc Kd", 1),
             (1, "Qh Ac Ad", 1)]


def test_cut_throat_uses_20_cards_and_no_alone() -> None:
    s = deal(CUT, CUT_DEAL, "Th", stock="Js Qs Ks As")
    assert (s.phase, s.to_act) == (Phase.BID1, 1)
    assert legal(s) == ["order", "pass"]
    with pytest.raises(DealError, match="9h is not in the 20-card deck"):
        deal(CUT, CUT_DEAL, "9h")


def test_cut_throat_maker_alone_against_two_march_scores_three() -> None:
    s = bid(deal(CUT, CUT_DEAL, "Th"), "order", "discard Ts")
    assert s.sitting_out == frozenset() and not s.alone
    play_out(s, CUT_MARCH)
    assert s.points == (0, 3, 0)


def test_cut_throat_maker_one_point() -> None:
    s = bid(deal(CUT, ["Td Qd Kd Ad Qs", "Jh Jd Ah Tc Ts", "Jc Qc Kc Ac Js"], "Th"), "order", "discard Td")
    play_out(s, [(1, "Jh Jc Th", 1), (1, "Jd Js Qd", 1), (1, "Ah Qc Kd", 1), (1, "Tc Kc Ad", 2),
                 (2, "Ac Qs Ts", 2)])
    assert s.tricks_won == [0, 3, 2]
    assert s.points == (0, 1, 0)


def test_cut_throat_euchre_each_opponent_two_and_super_euchre_four() -> None:
    s = bid(deal(CUT, CUT_DEAL, "Th"), "pass", "order", "discard Ts")
    assert s.maker == 2
    play_out(s, CUT_MARCH)
    assert s.points == (2, 2, 0)
    rules = Rules.preset("cut-throat", super_euchre=True)
    s = bid(deal(rules, CUT_DEAL, "Th"), "pass", "order", "discard Ts")
    play_out(s, CUT_MARCH)
    assert s.points == (4, 4, 0)


def test_cut_throat_round_two() -> None:
    s = bid(deal(CUT, CUT_DEAL, "Th"), "pass", "pass", "pass")
    assert (s.phase, s.to_act) == (Phase.BID2, 1)
    assert legal(s) == ["call c", "call d", "call s", "pass"]
    s = bid(s, "pass", "pass", "pass")
    assert s.thrown_in and s.points == (0, 0, 0)


# --- 10. presentation ---------------------------------------------------------------------------------
SORT_HAND = "Jk 9c Jc Ac Td Jd Ad 9s Js Ks 9h Jh Ah"


@pytest.mark.parametrize("trump, expected", [
    (None, "Jk Ac Jc 9c Ad Jd Td Ks Js 9s Ah Jh 9h"),
    (Suit.HEARTS, "Jk Jh Jd Ah 9h Ac Jc 9c Ad Td Ks Js 9s"),
    (Suit.DIAMONDS, "Jk Jd Jh Ad Td Ac Jc 9c Ah 9h Ks Js 9s"),
    (Suit.CLUBS, "Jk Jc Js Ac 9c Ad Jd Td Ks 9s Ah Jh 9h"),
    (Suit.SPADES, "Jk Js Jc Ks 9s Ad Jd Td Ac 9c Ah Jh 9h"),
])
def test_sort_hand_before_and_after_trump(trump: Suit | None, expected: str) -> None:
    cards = CardSet.parse(SORT_HAND)
    assert " ".join(map(str, sort_hand(cards, trump))) == expected


def test_sort_hand_colours_alternate_after_trump() -> None:
    every = CardSet.parse("Ac Ad Ah As")
    for trump in Suit:
        suits = [c.suit for c in sort_hand(every, trump)]
        assert suits[0] == trump
        colours = [s.is_red for s in suits]
        assert colours == [colours[0], not colours[0], colours[0], not colours[0]]


def test_state_hand_is_sorted_for_display() -> None:
    s = deal(AMERICAN, BASE, "9h")
    assert [str(c) for c in s.hand(0)] == ["Jc", "Tc", "9d", "Ks", "Qs"]
    s = bid(s, "order", "discard 9d")
    assert [str(c) for c in s.hand(0)] == ["9h", "Jc", "Tc", "Ks", "Qs"]
