"""Moves and hand results in Euchre words (euchre.describe), as the terminal prints them: who did
what ("West calls spades", "North orders you to pick up the nine of hearts"), and how a hand ended
and who scored ("West and East were euchred ...: You and North score 2")."""

from __future__ import annotations

import random
import re

import pytest

from euchre import Game, Rules
from euchre.actions import Kind
from euchre.describe import hand_result_words, move_words
from euchre.state import State
from euchre.tui import default_names
from euchre.view import PlayerView

N4 = default_names(4, 0)  # You (seat 0), West, North, East
STRONG_WEST = ["9c Tc Jc Qc Kc", "Jh Jd Ah Kh Qh", "Ac 9d Td Qd Kd", "Ad 9s Ts Js Qs"]
"""Dealer seat 0, up card 9h: West (seat 1) holds the five best hearts and takes every trick."""
STRONG_YOU = ["Jh Jd Ah Kh Qh", "9c Tc Jc Qc Kc", "Ac 9d Td Qd Kd", "Ad 9s Ts Js Qs"]
"""The same with the hands of seats 0 and 1 swapped: the dealer (You) takes every trick."""


def hand(actions: list[str], hands: list[str], rules: Rules | None = None, up: str = "9h",
         seat: int | None = 0, finish: bool = True) -> PlayerView:
    """The view of ``seat`` after ``actions``, then (``finish``) the first legal action to the end."""
    s = State(rules or Rules(), dealer=0, hands=hands, up_card=up)
    for a in actions:
        s.push(a)
    while finish and not s.is_over:
        s.push(s.legal_actions()[0])
    return PlayerView.of(s, seat)


def moves(view: PlayerView, names: list[str] = N4, plays: bool = False) -> list[str]:
    return [move_words(view, i, names) for i, (_, a) in enumerate(view.actions)
            if plays or a is None or a.kind is not Kind.PLAY]


# --- the bidding ---------------------------------------------------------------------------------
def test_bids_are_said_in_words_with_you_in_the_second_person() -> None:
    view = hand(["pass"] * 4 + ["pass", "call s alone"], STRONG_YOU, finish=False)
    assert moves(view) == ["West passes", "North passes", "East passes", "You pass", "West passes",
                           "North calls spades and goes alone"]
    view = hand(["pass"] * 5 + ["pass", "pass", "call c"], STRONG_YOU, finish=False)
    assert moves(view)[-2:] == ["East passes", "You call clubs"]


def test_the_dealer_picks_it_up_and_another_seat_orders_the_dealer_to() -> None:
    assert moves(hand(["order"], STRONG_WEST, finish=False)) == ["West orders you to pick up the nine of hearts"]
    view = hand(["order"], STRONG_WEST, seat=2, finish=False)
    assert moves(view, ["South", "West", "North", "East"]) == ["West orders South to pick up the nine of hearts"]
    view = hand(["pass"] * 3 + ["order", "discard 9c"], STRONG_WEST, finish=False)
    assert moves(view) == ["West passes", "North passes", "East passes", "You pick up the nine of hearts",
                           "You discard the nine of clubs"]
    view = hand(["pass"] * 3 + ["order alone"], STRONG_WEST, seat=1, finish=False)  # the dealer goes alone
    assert moves(view)[-1] == "You pick up the nine of hearts and go alone"
    view = hand(["pass"] * 3 + ["order"], STRONG_WEST, seat=1, finish=False)
    assert moves(view, ["Ann", "Bob", "Cy", "Di"])[-1] == "Ann picks up the nine of hearts"
    # The dealer's partner alone: the dealer sits out and picks nothing up.
    view = hand(["pass", "order alone"], STRONG_WEST, finish=False)
    assert moves(view) == ["West passes", "North orders up the nine of hearts and goes alone"]
    view = hand(["order alone"], STRONG_WEST, finish=False)
    assert moves(view) == ["West orders you to pick up the nine of hearts and goes alone"]


def test_another_seats_discard_stays_face_down() -> None:
    view = hand(["pass"] * 3 + ["order", "discard 9c"], STRONG_WEST, seat=1, finish=False)
    assert moves(view)[-1] == "You discard a card face down"
    view = hand(["pass"] * 3 + ["order", "discard 9c"], STRONG_WEST, seat=2, finish=False)
    assert moves(view, ["West", "North", "You", "East"])[-1] == "West discards a card face down"


def test_two_handed_order_take_and_leave() -> None:
    two = Rules.preset("two-handed")
    hands = ["9c Tc Jc Qc Kc", "Jh Jd Ah Kh Qh"]
    names = default_names(2, 0)  # You, North
    assert moves(hand(["order", "take"], hands, two, finish=False), names) == [
        "North orders up the nine of hearts", "You pick up the nine of hearts"]
    assert moves(hand(["order", "pass"], hands, two, finish=False), names) == [
        "North orders up the nine of hearts", "You leave the nine of hearts in the stock"]


def test_defending_alone_in_words() -> None:
    view = hand(["order alone", "discard 9h", "pass", "defend alone"], STRONG_YOU, Rules(defend_alone=True),
                finish=False)
    assert moves(view)[-2:] == ["North does not defend alone", "You defend alone"]


def test_british_dealer_takes_the_turned_up_joker() -> None:
    hands = ["Th Qh Kh Ah 9s", "Ac Kc Qs Ks Jh", "9c Tc Jc Qc Js", "Jd Td Qd Kd Ad"]
    view = hand(["call h alone"], hands, Rules.preset("british"), up="Jk", finish=False)
    assert moves(view) == ["You take the Joker, call hearts and go alone"]
    view = hand(["call s"], hands, Rules.preset("british"), up="Jk", finish=False)
    assert moves(view) == ["You take the Joker and call spades"]


def test_plays_lead_or_follow_and_name_the_bowers() -> None:
    view = hand(["order", "discard 9c"], STRONG_WEST)
    played = moves(view, plays=True)[2:]
    assert played[:5] == ["West leads the left bower", "North plays the ace of clubs",
                          "East plays the ace of diamonds", "You play the nine of hearts", "West leads the right bower"]
    assert played[8] == "West leads the queen of hearts"


# --- the end of a hand ---------------------------------------------------------------------------
@pytest.mark.parametrize(("actions", "hands", "rules", "result"), [
    (["order"], STRONG_WEST, Rules(),
     "West and East marched (hearts, made by West; all 5 tricks): West and East score 2"),
    (["order alone"], STRONG_WEST, Rules(),
     "West, going alone, marched (hearts; all 5 tricks): West and East score 4"),
    (["pass"] * 3 + ["order alone"], STRONG_YOU, Rules(),
     "You, going alone, marched (hearts; all 5 tricks): You and North score 4"),
    (["order"], STRONG_YOU, Rules(),
     "West and East were euchred (hearts, made by West; no trick): You and North score 2"),
    (["order"], STRONG_YOU, Rules(super_euchre=True),
     "West and East were super-euchred (hearts, made by West; no trick): You and North score 4"),
    (["order alone"], STRONG_YOU, Rules(),
     "West, going alone, was euchred (hearts; no trick): You and North score 2"),
    (["order alone", "discard 9h", "pass", "defend alone"], STRONG_YOU, Rules(defend_alone=True),
     "West, going alone, was euchred by you defending alone (hearts; no trick): You and North score 4"),
    (["pass"] * 4 + ["call s"], STRONG_YOU, Rules(),
     "West and East made it (spades, made by West; 4 tricks): West and East score 1"),
    (["pass"] * 8, STRONG_YOU, Rules(),
     "everyone passed, so the hand is thrown in: no one scores, and West deals next"),
])
def test_hand_results_say_who_scored_how_much(actions: list[str], hands: list[str], rules: Rules,
                                              result: str) -> None:
    assert hand_result_words(hand(actions, hands, rules), N4) == result


def test_hand_results_for_you_and_your_partner() -> None:
    names = ["You", "West", "North", "East"]
    swapped = [STRONG_YOU[1], STRONG_YOU[0], STRONG_YOU[3], STRONG_YOU[2]]  # You hold the clubs
    view = hand(["pass", "pass", "pass", "order"], swapped)  # You pick up and are euchred by West
    assert hand_result_words(view, names) == (
        "You and North were euchred (hearts, made by you; no trick): West and East score 2")
    view = hand(["pass"] * 3 + ["order"], swapped, seat=1)  # West's own view: West is "You"
    assert hand_result_words(view, ["Ann", "You", "Cy", "Di"]) == (
        "Ann and Cy were euchred (hearts, made by Ann; no trick): You and Di score 2")


def test_results_of_the_two_and_three_player_games() -> None:
    two = hand(["order", "take"], ["9c Tc Jc Qc Kc", "Jh Jd Ah Kh Qh"], Rules.preset("two-handed"))
    assert hand_result_words(two, default_names(2, 0)) == "North marched (hearts; all 5 tricks): North scores 2"
    cut = Rules.preset("cut-throat")
    view = hand(["order"], ["Jh Jd Ah Kh Qh", "Tc Jc Qc Kc Ac", "Ts Js Qs Ks As"], cut, up="Th")
    assert hand_result_words(view, default_names(3, 0)) == (
        "West was euchred (hearts; no trick): You and East score 2 each")


def _category(view: PlayerView) -> str:
    side = view.side_of(view.maker)
    taken = sum(n for s, n in enumerate(view.tricks_won) if view.side_of(s) == side)
    return "march" if taken == 5 else "made" if taken >= 3 else "euchred"


@pytest.mark.parametrize("preset", ["american", "two-handed", "cut-throat", "british"])
def test_every_hand_result_reads_right(preset: str) -> None:
    """Random hands: the verb agrees with the subject, the verdict with the tricks, and every side
    that scored is named with its points."""
    rules = Rules.preset(preset, **({"defend_alone": True, "super_euchre": True} if preset == "american" else {}))
    names = default_names(rules.players, 0)
    seen = set()
    rng = random.Random(5)
    for n in range(300):
        game = Game(rules, seed=n)
        s = game.state
        while not s.is_over:
            s.push(rng.choice(s.legal_actions()))
        view = PlayerView.of(s, 0)
        text = hand_result_words(view, names)
        if view.maker < 0:
            assert text.startswith("everyone passed, so the hand is thrown in: no one scores")
            seen.add("thrown in")
            continue
        cat = _category(view)
        seen.add(cat + (" alone" if view.alone and rules.players == 4 else ""))
        assert {"march": " marched (", "made": " made it (", "euchred": "euchred"}[cat] in text
        assert not re.search(r"\b(You|[A-Z][a-z]+ and [A-Z][a-z]+) (was|scores)\b", text), text
        assert not re.search(r"(?<!\+)\b(West|North|East) (were|score)\b", text.replace(" and ", "+")), text
        assert "& " not in text and "euchred!" not in text
        assert view.points is not None
        for side, p in enumerate(view.points):
            who = " and ".join(names[x] for x in range(rules.players) if view.side_of(x) == side)
            if p:
                assert re.search(rf"{who} scores? {p}\b|{who}\b.* score {p} each", text), text
    assert {"march", "made", "euchred"} <= seen
