"""Blunder checks: bidding and play positions whose right answer any strong Euchre player agrees on.

Every position is a named, explicit deal (``State(rules, dealer=..., hands=[...], up_card=...,
stock=...)``, every card of the deck placed once) followed by a named sequence of actions, which
reaches a decision of one seat. Each position lists the acceptable actions (usually one; a few
when the cards are equivalent, such as two touching top trumps) and says why a strong player would
agree. The ``hard`` and ``expert`` levels must choose an acceptable action with every seed tried;
a clear position that a level gets wrong is kept and marked ``xfail(strict=True)`` (a bot defect),
never weakened or removed. The marks are keyed by the bot a level stands for (``DEFECTS``), so they
stay right if the levels are redefined. ``medium`` is run on the same positions but not judged:
``python tests/test_blunders.py [LEVEL ...]`` prints, for every level, the positions it fails and
what it chose instead.

Seats are numbered clockwise; with four players 0+2 and 1+3 are partners. Seat 0 deals in every
position, so seat 1 is the dealer's left (it bids first and leads first), seat 2 the dealer's
partner, seat 3 the dealer's right. Cards are written rank then suit (``Jh``, ``Tc``; ``Jk`` is the
Joker); the right bower is the jack of trump, the left bower the other jack of its colour.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import pytest

import euchre
from euchre import Action, Phase, Rules
from euchre.bots.levels import level_bot, level_spec
from euchre.view import PlayerView

AMERICAN = Rules()
STICK = Rules(stick_the_dealer=True)
BRITISH = Rules.preset("british")
TWO = Rules.preset("two-handed")

SEEDS = {"hard": range(5), "expert": range(6)}
"""Seeds tried per judged level: every one must choose an acceptable action."""


@dataclass(frozen=True)
class Position:
    """A deal, the actions that lead to a decision, and the actions a strong player accepts there."""

    name: str
    kind: str
    """``bid`` (bidding, going alone, the dealer's discard or take) or ``play`` (a card)."""
    rules: Rules
    hands: tuple[str, ...]
    up: str
    stock: str
    actions: tuple[str, ...]
    seat: int
    accept: tuple[str, ...]
    why: str
    dealer: int = 0

    def state(self) -> euchre.State:
        """The deal with the actions pushed, at the seat's decision."""
        state = euchre.State(self.rules, dealer=self.dealer, hands=list(self.hands), up_card=self.up,
                             stock=self.stock)
        for action in self.actions:
            state.push(action)
        return state

    def acceptable(self) -> set[Action]:
        return {Action.parse(a) for a in self.accept}


def P(name: str, kind: str, rules: Rules, hands: Sequence[str], up: str, stock: str, actions: Sequence[str],
      seat: int, accept: Sequence[str], why: str) -> Position:
    return Position(name, kind, rules, tuple(hands), up, stock, tuple(actions), seat, tuple(accept), why)


PASS3 = ("pass", "pass", "pass")
PASS4 = ("pass", "pass", "pass", "pass")

POSITIONS: list[Position] = [
    # --- bidding: loners ---------------------------------------------------------------------
    P("order_alone_bowers_ace_king_off_ace", "bid", AMERICAN,
      ["9c Tc Qc 9d Td", "Jh Jd Ah Kh As", "Kc Ac Qd Kd Ad", "Th 9h 9s Ts Qs"], "Qh", "Jc Js Ks",
      [], 1, ["order alone"],
      "Both bowers, the ace and king of trump and an off ace, on lead: Jh Jd Ah draw the at most three "
      "trumps the opponents hold (Qh Th 9h), then Kh and As win. A certain lone march, 4 points."),
    P("call_alone_round2_bowers_ace_king_off_ace", "bid", AMERICAN,
      ["9c Tc Qc Td Qd", "Js Jc As Ks Ah", "Kc Ac Kd Ad Kh", "Qs Ts 9s Th 9h"], "9d", "Jd Jh Qh",
      PASS4, 1, ["call s alone"],
      "Round 2 with Js Jc As Ks and Ah, on lead: three rounds of trump draw every outstanding spade "
      "(Qs Ts 9s), then Ks and Ah win. A certain lone march."),
    P("dealer_picks_up_right_bower_alone", "bid", AMERICAN,
      ["Jd Ah Kh Qh Ac", "9c Tc Qc 9d Td", "Kc Qd Kd Ad 9s", "Th 9h Ts Qs Ks"], "Jh", "Jc Js As",
      PASS3, 0, ["order alone"],
      "The dealer picking up the turned Jh holds the five highest hearts (Jh Jd Ah Kh Qh) after burying "
      "Ac: every trick is won whatever is led. A certain lone march."),
    P("british_joker_turned_dealer_alone", "bid", BRITISH,
      ["Jh Jd Ah Kh 9c", "Tc Qc 9d Td 9s", "Kc Ac Qd Ts Js", "Ad 9h Th Qs Ks"], "Jk", "Jc Qh As Kd",
      [], 0, ["call h alone"],
      "British, the Joker turned: the dealer names trump. Hearts gives Jk Jh Jd Ah Kh, the five highest "
      "trumps, after burying 9c: a certain lone march."),
    P("british_order_alone_joker_bowers_ace", "bid", BRITISH,
      ["Qh 9c Tc 9d Ks", "Jk Jh Jd Ah Ac", "Qc Kc Td Qd Js", "Th 9h Kd 9s Ts"], "Kh", "Jc Ad Qs As",
      [], 1, ["order alone"],
      "Jk Jh Jd Ah on lead draw all four outstanding hearts (Kh Qh Th 9h), then Ac wins: a certain "
      "lone march."),
    # --- bidding: order (with the partner, never alone) ---------------------------------------
    P("order_three_top_trumps_not_alone_seat3", "bid", AMERICAN,
      ["Kh Th 9c Tc 9d", "Ac Qc Ad Kd Qh", "Jc As Ks 9s Td", "Jh Jd Ah Kc Qs"], "9h", "Qd Js Ts",
      ["pass", "pass"], 3, ["order"],
      "Jh Jd Ah are three sure trump tricks even after giving the dealer the 9h: order. Alone, Kc and "
      "Qs are two probable losers, so no march and no reason to leave the partner out."),
    P("order_four_trumps_without_left_not_alone", "bid", AMERICAN,
      ["Th 9c Tc Ad Ks", "Jh Ah Kh Qh 9s", "Jc Qc Kd Qd Qs", "Jd Kc Ac 9d Td"], "9h", "Ts Js As",
      [], 1, ["order"],
      "Jh Ah Kh Qh are three or four trump tricks: order. Passing to defend is no plan (the dealer, "
      "facing four of our hearts, rarely picks up) and round 2 offers nothing. Not alone: the left "
      "bower Jd is out against the hand and the 9s is a sure loser alone, while the partner may cover "
      "either for a march."),
    P("dealer_picks_up_left_ace_king_not_alone", "bid", AMERICAN,
      ["Jd Kh 9c Ts As", "Jh Tc Qc Td Js", "Kc Jc 9d Qd Qs", "Qh 9h Ad Th Ks"], "Ah", "Ac Kd 9s",
      PASS3, 0, ["order"],
      "Picking up Ah gives Jd Ah Kh and As after burying a loser: a clear pick-up. Alone the right "
      "bower is out against it and a side card is a loser: no loner."),
    P("partner_assists_right_ace_king_not_alone", "bid", AMERICAN,
      ["Qh Ac Kd Ts Js", "Tc Jc Qd 9d As", "Jh Ah Kh 9c 9s", "Th Kc Ad Td Ks"], "9h", "Qc Jd Qs",
      ["pass"], 2, ["order"],
      "The dealer's partner with Jh Ah Kh: ordering gives our side four trumps with the right bower, "
      "an easy make. Alone the 9c and 9s are two sure losers (three tricks at most): no loner."),
    P("two_handed_order_five_top_trumps", "bid", TWO,
      ["Tc Qc 9s Ks Ad", "Jh Jd Ah Kh Qh"], "9h", "9c Jc Kc Ac 9d Td Qd Kd Th Ts Js Qs As",
      [], 1, ["order"],
      "Two-handed, the five highest hearts: ordering hearts takes every trick. Passing throws the hand "
      "away (hearts cannot be named in round 2)."),
    P("two_handed_dealer_takes_right_bower", "bid", TWO,
      ["Jd Ah 9c Tc 9s", "Kh Qh Th As Ac"], "Jh", "Jc Qc Kc 9d Td Qd Kd Ad 9h Ts Js Qs Ks",
      ["order"], 0, ["take"],
      "Two-handed, hearts ordered: taking the up card swaps a nine for the right bower Jh (Jh Jd Ah). "
      "Declining leaves it in the stock for nothing."),
    # --- bidding: passes ---------------------------------------------------------------------
    P("pass_one_low_trump_seat1", "bid", AMERICAN,
      ["Kh Qh 9c Jc Td", "9h Tc Qc Ks 9d", "Jh Ac Kc Qd Kd", "Jd Th As Qs Ts"], "Ah", "Ad Js 9s",
      [], 1, ["pass"],
      "One low trump, no bower, no ace, and ordering hands the dealer the Ah: pass."),
    P("pass_partner_of_dealer_junk", "bid", AMERICAN,
      ["Ac Kc Ad Kd As", "Jh Qc Jc Ks Td", "Tc 9c Qs 9d Th", "Jd Ah Kh Qh Js"], "9h", "Qd Ts 9s",
      ["pass"], 2, ["pass"],
      "The dealer's partner with one low trump and no ace: nothing to assist with. Pass."),
    P("dealer_pass_junk", "bid", AMERICAN,
      ["9c Tc Qs Ts Kd", "Qh Qc Kc 9d Td", "Jd Ac Ad Qd As", "Th Jc Ks Js 9s"], "9h", "Jh Ah Kh",
      PASS3, 0, ["pass"],
      "The dealer would hold the 9h as its only trump, with no ace: picking up invites a euchre. Pass."),
    P("round2_pass_junk_seat1", "bid", AMERICAN,
      ["Ac Kc Kd Ks Qs", "9c Tc 9d Td 9h", "Jc Qc Qd Th Ts", "Ad Qh Kh Js 9s"], "As", "Jd Jh Ah",
      PASS4, 1, ["pass"],
      "Round 2 holding only nines and tens (9c Tc, 9d Td, 9h): any call makes trump with two low trumps "
      "and no trick of our own. Pass."),
    P("british_canadian_partner_pass_not_alone", "bid", BRITISH,
      ["Kh Th 9c Tc Ks", "Qh Jc Qc 9d Ts", "Jh Ah Kc 9s Td", "Qd Kd Ad Js As"], "9h", "Jk Jd Ac Qs",
      ["pass"], 2, ["pass"],
      "British (Canadian loner): the dealer's partner may order only alone. Jh Ah and three losers is "
      "no loner (the Joker and the left bower are out against it): pass."),
    P("two_handed_pass_no_trump", "bid", TWO,
      ["Jh Kh 9d Qd Kc", "9c Tc Qs Ks Td"], "Ah", "Jc Qc Ac Jd Kd Ad 9h Th Qh 9s Ts Js As",
      [], 1, ["pass"],
      "Two-handed with no heart and no ace: ordering hearts would make trump in a suit the hand lacks. "
      "Pass."),
    # --- bidding: round 2 and stick the dealer ------------------------------------------------
    P("round2_call_spades_right_ace_king_off_ace", "bid", AMERICAN,
      ["Qd Td Kc Qc Th", "Js As Ks Ah 9c", "Kd Ad Qs 9h Jh", "Jc Tc Kh Qh Ts"], "9d", "Jd Ac 9s",
      PASS4, 1, ["call s"],
      "Round 2, diamonds turned down: Js As Ks and Ah make spades an easy call (three trumps with the "
      "right bower, an off ace). No other suit is close; alone, the left bower is out and 9c loses."),
    P("round2_call_diamonds_after_jh_turned_down", "bid", AMERICAN,
      ["9c Tc Qc Ts Js", "Jd Ad Kd Qd 9s", "Th Qh Jc Kc Td", "9h 9d Qs Ks As"], "Jh", "Ah Kh Ac",
      PASS4, 1, ["call d"],
      "Jh was turned down, so at diamonds Jd Ad Kd Qd are the four highest live trumps: call diamonds. "
      "Not alone: the 9s is a sure loser alone, and four tricks score no more alone than with the "
      "partner, who may take the spade trick for a march."),
    P("stick_dealer_hearts_right_king_ten", "bid", STICK,
      ["Jh Kh Th 9c Tc", "Js Qs Jc 9d Td", "Ks As Qc Qd 9h", "Ts Kc Kd Ad Qh"], "9s", "Jd Ah Ac",
      PASS4 + PASS3, 0, ["call h"],
      "Stick the dealer, spades turned down: the dealer must name a suit. Hearts gives Jh Kh Th (three "
      "trumps with the right bower); diamonds or clubs give one or two small trumps."),
    P("stick_dealer_clubs_ace_king_queen", "bid", STICK,
      ["Ac Kc Qc 9d Th", "Js Qs 9c Td Qh", "Ks Ts Tc Qd 9h", "9s Jc Kd Kh Ah"], "As", "Jd Jh Ad",
      PASS4 + PASS3, 0, ["call c"],
      "Stick the dealer, spades turned down: clubs (Ac Kc Qc) is three trumps against one card of any "
      "other suit."),
    # --- the dealer's discard ----------------------------------------------------------------
    P("discard_lone_nine_keep_ace", "bid", AMERICAN,
      ["Jh Kh Qh Ac 9s", "9c Tc Qd 9d Ks", "Jc Qc Ad Td Qs", "Kc 9h Th Ts Js"], "Ah", "Jd As Kd",
      PASS3 + ("order",), 0, ["discard 9s"],
      "After picking up Ah the dealer holds Jh Ah Kh Qh, Ac and a lone 9s: bury the 9s, a sure loser, "
      "which also voids spades for ruffing. Never a trump or the ace."),
    P("discard_make_a_void", "bid", AMERICAN,
      ["Jh Ah Kc Qc Td", "9c Tc 9d Qd Ks", "Jc Kd Th Ts 9s", "Ad Qh Kh As Js"], "9h", "Jd Ac Qs",
      PASS3 + ("order",), 0, ["discard Td"],
      "Jh Ah 9h, Kc Qc and a lone Td: burying the Td voids diamonds (ruff them with three trumps) and "
      "keeps the king-queen of clubs together."),
    P("discard_lone_queen_keep_trumps_and_ace", "bid", AMERICAN,
      ["Jd Kh Th Qc As", "9c Tc Jc 9d Td", "Kc Ac Qd Kd Js", "Ah Qh Ad 9s Ts"], "9h", "Jh Qs Ks",
      PASS3 + ("order",), 0, ["discard Qc"],
      "Jd Kh Th 9h, As and a lone Qc: bury the Qc, the only loser that voids a suit; keep every trump "
      "and the ace."),
    # --- play: leads -------------------------------------------------------------------------
    P("lead_right_bower_partner_called", "play", AMERICAN,
      ["Qh Th Qc Td 9d", "Jh Jd 9c Tc Qs", "Jc Kc Qd Ad Ks", "Ah Kh Ac Kd As"], "9h", "Js Ts 9s",
      ["pass", "pass", "order", "discard 9d"], 1, ["play Jh", "play Jd"],
      "The partner ordered hearts and we hold both bowers: lead trump (Jh, or the touching Jd) to draw "
      "the opponents' trumps for the partner; our side cards are worthless."),
    P("maker_leads_trump_with_three_top_trumps", "play", AMERICAN,
      ["Kh Qh 9c Tc 9d", "Jh Jd Ah Ac 9s", "Th Kc Qc Kd Ad", "Jc Ts Qs Ks Td"], "9h", "Qd Js As",
      ["order", "discard 9d"], 1, ["play Jh", "play Jd", "play Ah"],
      "The maker on lead with Jh Jd Ah (three touching top trumps), Ac and 9s: draw trump first, so "
      "the Ac is not ruffed. Any of the three trumps is the same card here."),
    P("defend_loner_lead_off_ace", "play", AMERICAN,
      ["Qs Ts Kc Qd Kh", "Tc Qc 9c Jd Ah", "Ac Td 9d Th 9h", "Js Jc As Ks Ad"], "9s", "Kd Jh Qh",
      ["pass", "pass", "order alone", "discard Kh"], 2, ["play Ac"],
      "Against a loner with no trump in hand: cash the off ace. It is the only card that can take a "
      "trick on its own; a low lead just gives the loner a cheap trick."),
    P("british_lead_joker_partner_called", "play", BRITISH,
      ["Ts Jc Kh Qd 9d", "Jk Js 9c Tc Qh", "Jh Ah Kc Kd Td", "As Ks Qs Ac Ad"], "9s", "Qc Jd 9h Th",
      ["pass", "pass", "order", "discard 9d"], 1, ["play Jk", "play Js"],
      "British: the partner ordered spades and we hold the two highest trumps (Jk, Js): lead trump to "
      "pull the opponents' trumps; the rest of the hand is worthless."),
    # --- play: partner winning ---------------------------------------------------------------
    P("no_trump_partner_ace_throw_loser", "play", AMERICAN,
      ["Jh Ah Kh Qs Tc", "9c Kd Qd Ts Th", "Ac Jc Ad Td Ks", "Kc Qc Jd Qh As"], "9h", "9d Js 9s",
      PASS3 + ("order", "discard Tc", "play 9c", "play Ac", "play Qc"), 0, ["play Qs"],
      "Last to play, the partner's Ac already wins the trick: throw the losing Qs and keep all four "
      "trumps (Jh Ah Kh 9h). Trumping wins nothing and leaves the Qs as a loser."),
    P("no_trump_partner_ace_keep_right_bower", "play", AMERICAN,
      ["Jh Ah Ts 9s Kc", "As Ad Jd Qc Th", "Qs Td Kh Ac Tc", "Ks 9d Qh 9c Kd"], "9h", "Jc Qd Js",
      PASS3 + ("order", "discard Kc",
               "play As", "play Qs", "play Ks", "play Ts",
               "play Ad", "play Td", "play 9d", "play 9h",
               "play Ah", "play Jd", "play Kh", "play Qh",
               "play Qc", "play Ac", "play 9c"),
      0, ["play 9s"],
      "Makers one trick, defenders two. Last to play, the partner's Ac wins trick 4: throw the 9s and "
      "the Jh (right bower, the highest card left) surely takes trick 5 for the point. Trumping with "
      "the Jh leaves the 9s to lead at trick 5 and risks a euchre."),
    P("partner_right_bower_led_play_low_trump", "play", AMERICAN,
      ["Kh Tc 9c Kd Ks", "Jh Ah Qh Kc 9s", "Qc Jc Td 9d Ts", "Jd 9h Ac Ad Qs"], "Th", "Qd Js As",
      ["order", "discard 9c", "play Jh", "play 9d"], 3, ["play 9h"],
      "The partner led the right bower, which nothing can beat: follow with the 9h and keep the left "
      "bower Jd, now the highest trump."),
    P("last_hand_follow_low_under_partner_ace", "play", AMERICAN,
      ["Kc 9c Js Ks Qd", "Tc Qc Jc Ah Kh", "Ac As Qh Td Jd", "9d Ts Th Jh Kd"], "9s", "Ad 9h Qs",
      PASS3 + ("order", "discard Qd", "play Tc", "play Ac", "play 9d"), 0, ["play 9c"],
      "Last to play, the partner's Ac wins: follow with the 9c and keep the Kc, now the highest club "
      "(above the unseen Qc and Jc)."),
    # --- play: following, ruffing, winning cheaply --------------------------------------------
    P("second_hand_follow_low_under_ace", "play", AMERICAN,
      ["Jd Ad Kd Ts 9h", "Ac Tc Jh Ks Ah", "Kc 9c As Qs Th", "Qc Jc 9d Td Kh"], "Qd", "Qh Js 9s",
      PASS3 + ("order", "discard 9h", "play Ac"), 2, ["play 9c"],
      "The Ac was led and we must follow clubs with Kc or 9c: neither can win, so play the 9c and keep "
      "the Kc, the highest club once the ace is gone."),
    P("overtrump_cheaply_keep_right_bower", "play", AMERICAN,
      ["Jh Kh Ac Ad 9s", "Qh Kc Qc Kd Ts", "Tc 9c Qd Td Ks", "Th Ah Jc Qs As"], "9h", "Jd 9d Js",
      PASS3 + ("order", "discard 9s", "play Qh", "play Tc", "play Th"), 0, ["play Kh"],
      "Trump led, the opponents' Qh winning and we play last with Jh Kh 9h: the Kh wins the trick for "
      "sure and keeps the right bower."),
    P("overruff_cheaply", "play", AMERICAN,
      ["As Qs Kh Qh Tc", "9c Ah Th Kd Qd", "Ac Kc Qc Jd 9d", "Ts 9h Jh Ad Td"], "9s", "Jc Js Ks",
      PASS3 + ("order", "discard Tc", "play 9c", "play Ac", "play Ts"), 0, ["play Qs"],
      "The partner's Ac was trumped with the Ts and we play last, void in clubs: overtrump with the Qs, "
      "the cheapest trump that wins, and keep the As."),
    P("ruff_opponents_ace_with_low_trump", "play", AMERICAN,
      ["Jh As Ad Kd Qc", "Ac Kc Jd Qs Ts", "9c Jc Qd Td Ks", "Tc Ah Kh Qh 9d"], "9h", "Th Js 9s",
      PASS3 + ("order", "discard Qc", "play Ac", "play 9c", "play Tc"), 0, ["play 9h"],
      "The opponents' Ac wins and we play last, void in clubs: the maker ruffs with the 9h, the "
      "cheapest winner, keeping the Jh and the side aces."),
    P("trump_now_for_the_point", "play", AMERICAN,
      ["Kh Tc Ts 9s Qc", "Kc Th Ks Ad Ah", "Ac Jh Qs Td Qd", "9c Qh Js 9d Kd"], "9h", "Jc Jd As",
      PASS3 + ("order", "discard Qc",
               "play Kc", "play Ac", "play 9c", "play Tc",
               "play Jh", "play Qh", "play 9h", "play Th",
               "play Qs", "play Js", "play Ts", "play Ks",
               "play Ad", "play Td", "play 9d"),
      0, ["play Kh"],
      "Makers two tricks, defenders one; the opponents' Ad wins trick 4 and we play last, void in "
      "diamonds: ruff with the Kh for the third trick and the point. Throwing the 9s hands trick 4 to "
      "the defenders and the last trick to whoever holds Ah or Jd (both unseen): a euchre risked for "
      "nothing, as five tricks are out of reach."),
    P("defender_throws_a_nine_not_an_ace", "play", AMERICAN,
      ["Ah Th Qh Kc Qc", "Jh Jd Kh Qs Ts", "Ac 9c Ad As 9s", "Tc Jc 9d Td Kd"], "9h", "Qd Js Ks",
      ["order", "discard Qc", "play Jh"], 2, ["play 9c", "play 9s"],
      "A trump lead we cannot follow or beat, holding three aces and two nines: throw a nine (the "
      "clubs and spades are alike from this seat), never an ace that may take a trick."),
    P("british_ruff_ace_with_lowest_trump", "play", BRITISH,
      ["Jk Qh Kd Kc 9s", "As Ks Ac Ad Th", "Ts Js Qd Td 9c", "Qs Jh Ah Tc Jc"], "9h", "Jd Kh Qc 9d",
      PASS3 + ("order", "discard 9s", "play As", "play Ts", "play Qs"), 0, ["play 9h"],
      "British, the dealer made hearts and plays last to the opponents' As, void in spades: ruff with "
      "the 9h, the cheapest trump that wins, and keep the Joker and the Qh."),
    P("two_handed_win_cheaply_keep_ace", "play", TWO,
      ["Ac Qc Jh Kd Qs", "9c Ah Kh Qh Jd"], "Th", "Tc Jc Kc 9d Td Qd Ad 9h 9s Ts Js Ks As",
      ["order", "take", "discard Qs", "play 9c"], 0, ["play Qc"],
      "Two-handed, the 9c led and we hold Ac Qc: the Qc wins as surely as the ace, which stays to beat "
      "a later king."),
    P("two_handed_follow_low_under_ace", "play", TWO,
      ["Kc 9c Jh Ts Th", "Ac Jd Ad Kd Qs"], "9d", "Tc Jc Qc Td Qd 9h Qh Kh Ah 9s Js Ks As",
      ["order", "pass", "play Ac"], 0, ["play 9c"],
      "Two-handed, the Ac led and we must follow with Kc or 9c: neither wins, so the 9c, keeping the Kc, "
      "now the highest club."),
]

LEVEL_ORDER = ("hard", "expert", "medium")
"""The levels the report covers: the two judged ones, then the one only reported."""


def bot_key(name: str, options: dict[str, Any]) -> str:
    """A bot spec (registered name and options) as one comparable string."""
    return f"{name} {json.dumps(options, sort_keys=True)}"


DEFECTS: dict[tuple[str, str], str] = {}
"""(position, bot spec) -> what that bot does wrong in a clear position, marked ``xfail(strict)``
so the suite stays green while the defect is documented. Keyed by the bot a level stands for
(``level_spec``, as :func:`bot_key` spells it), not by the level's name, so that the marks follow
the bot if the levels are redefined. Empty: the two found when this file was written are fixed
(the heuristic went alone with a sure loser; the search bot dropped the right call in round 2
after eight samples). The small-budget search bot that was ``hard`` then missed nine positions
(bids that flip with the seed); it is no longer a level."""


def level_key(level: str) -> str:
    return bot_key(*level_spec(level))


def choose(level: str, seed: int, position: Position) -> Action:
    state = position.state()
    assert state.to_act == position.seat, f"{position.name}: seat {state.to_act} to act, not {position.seat}"
    return level_bot(level, seed=seed).choose(PlayerView.of(state, position.seat))


def _cases() -> list[Any]:
    cases = []
    for position in POSITIONS:
        for level in SEEDS:
            defect = DEFECTS.get((position.name, level_key(level)))
            reason = f"{level} {defect}: bot defect, see issue 14"
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if defect else []
            cases.append(pytest.param(position, level, id=f"{position.name}-{level}", marks=marks))
    return cases


def test_positions_are_well_formed() -> None:
    names = [p.name for p in POSITIONS]
    assert len(set(names)) == len(names)
    assert sum(p.kind == "bid" for p in POSITIONS) >= 15
    assert sum(p.kind == "play" for p in POSITIONS) >= 15
    assert {name for name, _ in DEFECTS} <= set(names)
    for p in POSITIONS:
        state = p.state()
        assert state.to_act == p.seat, p.name
        legal = set(state.legal_actions())
        assert p.acceptable() <= legal, (p.name, sorted(map(str, p.acceptable() - legal)))
        assert len(legal) > len(p.acceptable()), f"{p.name}: every legal action is acceptable"
        assert (state.phase is Phase.PLAY) == (p.kind == "play"), p.name


@pytest.mark.parametrize(("position", "level"), _cases())
def test_no_blunder(position: Position, level: str) -> None:
    acceptable = position.acceptable()
    wrong = {seed: str(a) for seed in SEEDS[level] if (a := choose(level, seed, position)) not in acceptable}
    assert not wrong, f"{level} chose {wrong} (seed: action) instead of {sorted(position.accept)}: {position.why}"


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_medium_answers_legally(position: Position) -> None:
    """``medium`` is not judged on these positions (``report`` lists its misses); it must answer."""
    assert choose("medium", 0, position) in position.state().legal_actions()


def report(levels: Sequence[str] = LEVEL_ORDER, out: TextIO = sys.stdout) -> dict[str, dict[str, dict[int, str]]]:
    """Print, for every level, the positions it fails and what it chose there (seed: action)."""
    fails: dict[str, dict[str, dict[int, str]]] = {}
    for level in levels:
        seeds = SEEDS.get(level, range(3))
        start = time.perf_counter()
        fails[level] = {}
        for p in POSITIONS:
            wrong = {s: str(a) for s in seeds if (a := choose(level, s, p)) not in p.acceptable()}
            if wrong:
                fails[level][p.name] = wrong
        took = time.perf_counter() - start
        print(f"{level} ({level_key(level)}): {len(fails[level])} of {len(POSITIONS)} positions failed "
              f"with seeds {list(seeds)} ({took:.1f} s)", file=out)
        for p in POSITIONS:
            if p.name in fails[level]:
                marked = " [xfail]" if level in SEEDS and (p.name, level_key(level)) in DEFECTS else ""
                print(f"  {p.kind} {p.name}: chose {fails[level][p.name]}, acceptable {list(p.accept)}{marked}",
                      file=out)
    return fails


if __name__ == "__main__":
    report(sys.argv[1:] or LEVEL_ORDER)
