"""Claiming the rest of the tricks, taking back a card, and the reasons a choice is missing
(``Game.claim``, ``Game.undo``, ``euchre.describe.missing_choice_words``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import Kind
from euchre.bots import make_bot
from euchre.bots.persona import CAST, computer_names
from euchre.cards import Card
from euchre.describe import missing_choice_words
from euchre.errors import IllegalActionError
from euchre.game import certain_sweep
from euchre.solver import thread_solver
from euchre.state import Deal, Phase

PRESETS = ["american", "british", "cut-throat", "two-handed", "hasenpfeffer", "bid-euchre"]


def _deal(hands: list[str], up: str, dealer: int = 3, deck: int = 24) -> Deal:
    from euchre.cards import deck_cards

    held = [[Card.parse(c) for c in h.split()] for h in hands]
    used = {c for h in held for c in h} | {Card.parse(up)}
    stock = tuple(c for c in deck_cards(deck) if c not in used)
    return Deal(dealer=dealer, hands=tuple(tuple(h) for h in held), up_card=Card.parse(up), stock=stock)


# Seat 0 holds the three top trumps (hearts) and two aces; the bidding below (_to_play) makes it
# the maker in hearts, on lead.
TOP = _deal(["Jh Jd Ah As Ac", "9h Th 9s Ts 9c", "Qh Kh Qs Ks Tc", "Jc Js Qc Kc Ad"], up="9d")


def _to_play(game: Game) -> None:
    """Seat 0 calls hearts in the second round (everyone passes the 9d first)."""
    for text in ["pass"] * 4 + ["call h"]:
        game.push(text)


def test_a_hand_of_top_trumps_and_aces_is_claimed_and_scored_as_a_march() -> None:
    game = Game(Rules(), deals=[TOP], dealer=3)
    _to_play(game)
    assert game.state.phase is Phase.PLAY and game.to_act == 0
    view = game.view(0)
    # J♥ J♦ A♥ are the three highest trumps; 9♥ T♥ Q♥ K♥ are out: more unseen trumps than mine,
    # so the aces could be trumped: not certain yet.
    assert not certain_sweep(view)
    assert not game.can_claim()
    with pytest.raises(IllegalActionError, match="not certain"):
        game.claim()
    assert game.to_act == 0 and len(game.state.trick) == 0  # nothing changed


def test_claim_after_trumps_are_drawn() -> None:
    # Seat 0: J♥ J♦ A♥ K♥ A♠, the four top trumps and an ace; the other trumps (Q♥ T♥ 9♥) are
    # three: no more than mine, so leading my trumps draws them and A♠ wins last.
    deal = _deal(["Jh Jd Ah Kh As", "9h Th 9s Ts 9c", "Qh Qs Ks Tc Kd", "Jc Js Qc Kc Ad"], up="9d")
    game = Game(Rules(), deals=[deal], dealer=3)
    _to_play(game)
    assert certain_sweep(game.view(0)) and game.can_claim()
    before = game.copy()
    line = game.claim()
    assert len(line) == 20 and all(a.kind is Kind.PLAY for a in line)
    hand = game.hands[0]
    assert hand.is_over and hand.maker_tricks() == 5
    assert hand.points == (2, 0) and game.scores == [2, 0]  # a march, as played out
    assert game.claims == [(0, 5, 25)]
    assert game.last_claim() == (0, 0)  # the hand it ended, the claimer
    # The same cards pushed one by one give the same game: a claim is ordinary moves.
    for a in line:
        before.push(a)
    assert before.scores == game.scores and before.actions() == game.actions()


def test_can_claim_asks_no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server asks ``can_claim`` at every version on its event loop: the solver's first use in
    a process (loading its compiled code, or compiling it) stalled every connection there, so the
    question is certain_sweep's alone; the solver only plays the claim's line."""
    deal = _deal(["Jh Jd Ah Kh As", "9h Th 9s Ts 9c", "Qh Qs Ks Tc Kd", "Jc Js Qc Kc Ad"], up="9d")
    game = Game(Rules(), deals=[deal], dealer=3)
    _to_play(game)

    def no_solver() -> None:
        raise AssertionError("can_claim used the solver")

    monkeypatch.setattr("euchre.solver.thread_solver", no_solver)
    assert game.can_claim()


def _six(hands: list[str], stock: str = "", dealer: int = 3) -> Deal:
    """A deal of six-card hands (Hasenpfeffer's unused card, or Bid Euchre's empty stock)."""
    return Deal(dealer, tuple(tuple(Card.parse(c) for c in h.split()) for h in hands), None,
                tuple(Card.parse(c) for c in stock.split()))


def _claimed_as_played(game: Game) -> Game:
    """Claim for the seat to act; the same line pushed card by card on a copy ends the same."""
    before = game.copy()
    line = game.claim()
    for a in line:
        before.push(a)
    assert before.scores == game.scores and before.actions() == game.actions()
    return game


# Hasenpfeffer: seat 1 holds the Joker and the five top diamonds.
HASEN = _six(["9c Tc Qc Kc Ac 9h", "Jk Jd Jh Ad Kd Qd", "Jc Js Th Qh Kh Ah", "9d Td 9s Ts Qs Ks"], "As")
# Bid Euchre: seat 0 holds the six top hearts.
BID = _six(["Jh Jd Ah Kh Qh Th", "9c Tc Jc Qc Ks Qs", "9h Ac Kc 9d Td As", "Ad Kd Qd Js Ts 9s"])


def test_a_certain_hasenpfeffer_sweep_is_claimed_and_an_uncertain_one_refused() -> None:
    hp = Rules.preset("hasenpfeffer")
    game = Game(hp, deals=[HASEN], dealer=3)
    for text in ("pass", "bid 2", "pass", "pass", "call d"):
        game.push(text)
    assert game.to_act == 1 and certain_sweep(game.view(1))
    _claimed_as_played(game)
    hand = game.hands[0]
    assert hand.is_over and hand.maker_tricks() == 6 and hand.points == (0, 6)
    # Clubs trump: the Joker is the only trump seat 1 holds; the bowers are out.
    game = Game(hp, deals=[HASEN], dealer=3)
    for text in ("pass", "bid 2", "pass", "pass", "call c"):
        game.push(text)
    assert game.claim_line() is None
    assert game.no_claim_reason() == "the rest of the tricks are not certain to be yours: play on"
    with pytest.raises(IllegalActionError, match="not certain"):
        game.claim()


def test_a_certain_bid_euchre_moon_is_claimed_and_an_uncertain_bid_refused() -> None:
    be = Rules.preset("bid-euchre")
    game = Game(be, deals=[BID], dealer=3)
    for text in ("moon", "pass", "pass", "pass", "call h"):
        game.push(text)
    game.push("discard 9h")  # the partner's 9h, given by the engine
    assert game.to_act == 0 and game.can_claim()
    _claimed_as_played(game)
    hand = game.hands[0]
    assert hand.is_over and hand.maker_tricks() == 6 and hand.points == (12, 0)
    game = Game(be, deals=[BID], dealer=3)
    for text in ("bid 3", "pass", "pass", "pass", "call s"):  # spades: seat 0 holds none
        game.push(text)
    assert game.claim_line() is None and "not certain" in game.no_claim_reason()


def test_napoleon_claims_are_refused_by_name() -> None:
    game = Game(Rules.preset("napoleon"), seed=3)
    bot = make_bot("heuristic", seed=1)
    while game.state.phase is not Phase.PLAY:
        game.push(bot.choose(game.view(game.to_act)))
    assert game.claim_line() is None
    assert "not supported in Napoleon" in game.no_claim_reason()


def test_no_claim_outside_trick_play_or_at_the_last_trick() -> None:
    game = Game(Rules(), seed=5)
    assert game.claim_line() is None
    assert "during the play of the cards" in game.no_claim_reason()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_claim_in_random_games_gives_the_claimers_every_remaining_trick(preset: str) -> None:
    rules = Rules.preset(preset)
    claims = 0
    for seed in range(25):
        game = Game(rules, seed=seed)
        bots = {s: make_bot("heuristic", seed=s) for s in range(rules.players)}
        while not game.is_over:
            hand = game.state
            if hand.phase is Phase.PLAY and game.can_claim():
                makers = hand.side_of(hand.to_act) == hand.side_of(hand.maker)
                base, left = hand.maker_tricks(), rules.hand_size - len(hand.tricks)
                # certain from the seat's view: then certain on the real deal too
                assert thread_solver().sweeps(hand, makers)
                game.claim()
                claims += 1
                assert hand.is_over and hand.maker_tricks() == (base + left if makers else base)
                continue
            game.push(bots[game.to_act].choose(game.view(game.to_act)))
    assert claims >= 5, "claims happen in ordinary play"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_a_certain_sweep_holds_on_every_deal_the_seat_cannot_tell_apart(seed: int, preset: str) -> None:
    """What certain_sweep promises from the view, the solver confirms on resampled deals."""
    rules = Rules.preset(preset)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    bot = make_bot("heuristic", seed=seed)
    while not game.is_over:
        hand = game.state
        if hand.phase is Phase.PLAY and certain_sweep(game.view(hand.to_act)):
            view = game.view(hand.to_act)
            makers = hand.side_of(hand.to_act) == hand.side_of(hand.maker)
            for _ in range(5):
                other = view.resample(rng)
                assert thread_solver().sweeps(other, makers)
            return
        game.push(bot.choose(game.view(game.to_act)))


def test_undo_takes_back_my_last_card_and_what_followed() -> None:
    game = Game(Rules(), seed=11)
    bots = {s: make_bot("heuristic", seed=s) for s in range(4)}
    assert game.undo_steps(0) == 0
    with pytest.raises(IllegalActionError, match="no card of yours"):
        game.undo(0)
    while not (game.state.phase is Phase.PLAY and game.to_act == 0):
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    before = game.copy()
    mine = game.legal_actions()[-1]
    game.push(mine)
    while game.to_act != 0 and game.hand_number == 0:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    steps = game.undo_steps(0)
    assert steps >= 1
    back = game.undo(0)
    assert back[0] == mine and len(back) == steps
    assert game.actions() == before.actions() and game.scores == before.scores
    assert game.view(0) == before.view(0)


def test_undo_reaches_the_hand_before_only_until_the_seat_decides_again() -> None:
    """Just after a hand ends, undo takes back the seat's last card of it (and the new hand's
    bids so far); once the seat has made a decision of the new hand (a bid), there is no card
    of its to take back: undo would otherwise erase that bid and the others' with it."""
    game = Game(Rules(), seed=5)
    bots = {s: make_bot("heuristic", seed=s) for s in range(4)}
    first = game.hand_number
    while game.hand_number == first:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    seat = game.to_act  # the first to bid in the new hand
    later = (seat + 1) % 4
    assert game.undo_steps(seat) >= 1 and game.undo_steps(later) >= 1  # the last card of the hand before
    game.push(bots[seat].choose(game.view(seat)))
    assert game.undo_steps(seat) == 0  # its bid came after its last card
    assert game.undo_steps(later) >= 2  # not decided yet: its last card, and the bid since
    with pytest.raises(IllegalActionError, match="no card of yours"):
        game.undo(seat)


def test_undo_never_reaches_into_a_claim_and_not_after_the_game() -> None:
    deal = _deal(["Jh Jd Ah Kh As", "9h Th 9s Ts 9c", "Qh Qs Ks Tc Kd", "Jc Js Qc Kc Ad"], up="9d")
    game = Game(Rules(), deals=[deal], dealer=3)
    _to_play(game)
    game.claim()
    assert game.undo_steps(0) == 0 and game.undo_steps(1) == 0
    game.pop()  # taking back into a claim drops the claim
    assert game.claims == [] and game.last_claim() is None
    over = Game(Rules(target=1), seed=2)
    bot = make_bot("random", seed=1)
    while not over.is_over:
        over.push(bot.choose(over.view(over.to_act)))
    assert over.undo_steps(0) == 0


def test_notes_say_why_a_choice_is_missing() -> None:
    british_deal = _deal(["Jh Jd Ah As Ac", "9h Th 9s Ts 9c", "Qh Kh Qs Ks Tc", "Jc Js Qc Kc Ad"], up="9d",
                         deck=25)
    british = Game(Rules.preset("british"), deals=[british_deal], dealer=3)
    british.push("pass")  # seat 0 passes; the dealer (3)'s partner, seat 1, is next
    assert british.to_act == 1
    assert missing_choice_words(british.view(1)) == [
        "The dealer's partner may order up only by going alone (Canadian loner)."]
    assert missing_choice_words(british.view(0)) == []  # not to act: nothing
    stick = Game(Rules(stick_the_dealer=True), deals=[TOP], dealer=3)
    for _ in range(7):
        stick.push("pass")
    assert stick.to_act == 3
    notes = missing_choice_words(stick.view(3))
    assert "The turned-down suit, diamonds, cannot be named." in notes
    assert "Stick the dealer: everyone else passed, so you must name a trump." in notes
    # Following suit: hearts trump, a diamond led; seat 1 holds no diamond... use seat 3 (A♦).
    game = Game(Rules(), deals=[TOP], dealer=3)
    _to_play(game)
    game.push("play As")  # seat 0 leads a spade
    assert missing_choice_words(game.view(1)) == ["You must follow the suit led, spades."]


def test_the_left_bower_note_when_its_printed_suit_is_led() -> None:
    deal = _deal(["Ad Kh Ah As Ac", "Jd 9d 9s Ts 9c", "Qh Jh Qs Ks Tc", "Jc Js Qc Kc Td"], up="Kd")
    game = Game(Rules(), deals=[deal], dealer=3)
    for text in ["pass"] * 4 + ["call h"]:
        game.push(text)
    game.push("play Ad")  # seat 0 leads a diamond; seat 1 holds J♦ (a heart now) and 9♦
    notes = missing_choice_words(game.view(1))
    assert notes == ["You must follow the suit led, diamonds. Remember: the left bower is a trump, "
                     "not one of the diamonds."]


def test_computer_names_are_human_distinct_and_of_their_level() -> None:
    names = computer_names("hard", [1, 2, 3], seed=4)
    assert set(names) == {1, 2, 3} and len(set(names.values())) == 3
    assert set(names.values()) <= set(CAST["hard"])
    assert computer_names("hard", [1, 2, 3], seed=4) == names  # seeded: repeatable
    taken = computer_names("easy", [1], seed=0, taken=[CAST["easy"][0].upper()])
    assert CAST["easy"][0] not in taken.values()
    for a in CAST:
        for b in CAST:
            assert a == b or not set(CAST[a]) & set(CAST[b])
