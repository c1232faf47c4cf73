"""Call for best (house rules ``call_for_best``, ``best_card_free``) and the Railroad preset:
RULES-FAMILY.md 12.2, 12.6, 12.7, 13, 17 and 18, clause by clause, then random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, Action, Kind, call, discard, give
from euchre.cards import JOKER, Card, Suit, deck_cards, iter_mask
from euchre.describe import action_words, gift_words, move_words
from euchre.egn import dumps as egn_dumps
from euchre.errors import RecordError, RulesError
from euchre.explain import rules_in_words
from euchre.notation import GameRecord
from euchre.protocol import view_dicts, view_to_dict
from euchre.state import Phase, State
from euchre.view import PlayerView

C = Card.parse
CFB = Rules(call_for_best=True)
RAILROAD = Rules.preset("railroad")
PENDING = (Phase.GIVE, Phase.BEST_DISCARD)


def state(rules: Rules, hands: list[str], up: str, dealer: int = 0) -> State:
    return State(rules, dealer=dealer, hands=hands, up_card=up)


# Dealer 0; seat 1 has a lone hand in hearts; the up card is the ten of hearts.
MAKER = "Jh Ah Kh Ac Kc"
DEALER = "As Ks Qs Js Ts"
WITH_TRUMP = [DEALER, MAKER, "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td"]  # seat 3 holds the left bower
NO_TRUMP_PARTNER = [DEALER, MAKER, "9s Jd Kd Qd Qc", "9c Tc 9d Td Ad"]  # seat 3 holds no heart


def others(s: State) -> list[int | None]:
    """The seats (and the spectator) that are neither giver nor receiver of a pending gift."""
    receiver = s.to_act if s.phase is Phase.BEST_DISCARD else s.rules.partner(s.to_act)
    giver = s.rules.partner(receiver)
    return [x for x in (*range(s.n), None) if x not in (giver, receiver)]


def check_knowledge(s: State) -> None:
    """RULES-FAMILY.md 12.7 on every seat's view and a spectator's."""
    for seat in (*range(s.n), None):
        v = PlayerView.of(s, seat)
        if s.phase in PENDING and seat in others(s):
            assert v.phase is Phase.CALL_FOR_BEST and v.to_act == -1 and v.legal_actions == ()
        else:
            assert v.phase is s.phase and v.to_act == s.to_act
        for g, (giver, receiver, card, buried) in zip(s.gifts, v.gifts, strict=False):
            assert (giver, receiver) == (g.giver, g.receiver)
            assert card == (g.card if seat in (g.giver, g.receiver) else None)
            assert buried == (g.discard if seat == g.receiver else None)
        pending = [g for g in s.gifts if g.discard is None]
        for g in pending:
            if seat not in (g.giver, g.receiver):
                assert len(v.gifts) == len(s.gifts) - 1  # a pending gift is not shown to others
        for (who, a) in v.actions:
            if a is not None and a.kind is Kind.GIVE:
                assert seat in (who, s.rules.partner(who))
            if a is None:
                assert who != seat
        # the protocol's per-seat frames say exactly what the view says
        game = Game(s.rules, seed=0, dealer=s.dealer, deals=[s.deal])
        for a in s.history:
            game.push(a)
        assert view_dicts(game, [seat])[seat] == view_to_dict(game.view(seat))


def push_all(s: State, actions: list[str]) -> None:
    for a in actions:
        s.push(a)
        check_knowledge(s)


# --- 12.2 step 2: the partner's highest trump, given by the engine -------------------------------
def test_partner_gives_top_trump_automatically() -> None:
    s = state(CFB, WITH_TRUMP, "Th")
    push_all(s, ["order alone", "discard Ts"])
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 1
    assert s.gifts[0].giver == 3 and s.gifts[0].card == C("Jd") and s.gifts[0].forced  # the left bower
    assert s.hands[1].bit_count() == 6
    assert s.hands[3].bit_count() == 4 and "give" not in " ".join(map(str, s.history))
    assert {a.card for a in s.legal_actions()} == set(iter_mask(s.hands[1]))  # the gift may be discarded
    assert all(a.kind is Kind.DISCARD for a in s.legal_actions())
    push_all(s, ["discard Kc"])
    assert s.phase is Phase.PLAY and s.hands[1].bit_count() == 5
    assert s.gifts[0].discard == C("Kc")
    v0, v1, v3 = (PlayerView.of(s, x) for x in (0, 1, 3))
    assert v0.gifts == ((3, 1, None, None),) and v1.gifts == ((3, 1, C("Jd"), C("Kc")),)
    assert v3.gifts == ((3, 1, C("Jd"), None),)
    assert v0.actions[-1] == (1, None) and v1.actions[-1] == (1, discard(C("Kc")))
    names = ["You", "West", "North", "East"]
    assert gift_words(v1, 0, ["South", "You", "North", "East"]) == "East gives you the left bower"
    assert gift_words(v3, 0, ["South", "West", "North", "You"]) == "You give West the left bower"
    assert gift_words(v0, 0, names) == "East gives West a card"
    assert move_words(v0, len(v0.actions) - 1, names) == "West discards a card face down"


def test_partner_with_no_trump_chooses() -> None:
    s = state(CFB, NO_TRUMP_PARTNER, "Th")
    push_all(s, ["order alone", "discard Ts"])
    assert s.phase is Phase.GIVE and s.to_act == 3 and not s.gifts
    assert s.legal_actions() == [give(c) for c in iter_mask(s.hands[3])]
    v3 = PlayerView.of(s, 3)
    assert v3.legal_actions and action_words(give(C("Ad")), v3) == "give the ace of diamonds"
    assert s.parse_action("Ad") == give(C("Ad"))
    with pytest.raises(Exception, match="you do not hold Ah"):
        s.push("give Ah")
    push_all(s, ["Ad"])
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 1 and not s.gifts[0].forced
    assert s.parse_action("Ad") == discard(C("Ad"))
    push_all(s, ["discard Kc"])
    assert s.phase is Phase.PLAY
    assert PlayerView.of(s, 0).gifts == ((3, 1, None, None),)
    assert all(a is None or a.kind is not Kind.GIVE for _, a in PlayerView.of(s, 2).actions)
    assert (3, give(C("Ad"))) in PlayerView.of(s, 1).actions


def test_others_cannot_tell_a_forced_gift_from_a_chosen_one() -> None:
    # Seat 0's cards are the same in both deals; only the partner's trumps differ.
    forced, chosen = state(CFB, WITH_TRUMP, "Th"), state(CFB, NO_TRUMP_PARTNER, "Th")
    for s in (forced, chosen):
        s.push("order alone")
        s.push("discard Ts")
    assert forced.phase is Phase.BEST_DISCARD and chosen.phase is Phase.GIVE
    assert PlayerView.of(forced, 0) == PlayerView.of(chosen, 0)
    assert PlayerView.of(forced, None) == PlayerView.of(chosen, None)
    chosen.push("give Ad")
    assert PlayerView.of(forced, 0) == PlayerView.of(chosen, 0)
    forced.push("discard Kc")
    chosen.push("discard Kc")
    assert PlayerView.of(forced, 0) == PlayerView.of(chosen, 0)
    assert PlayerView.of(forced, None) == PlayerView.of(chosen, None)


def test_best_card_free_the_partner_always_chooses() -> None:
    s = state(CFB.replace(best_card_free=True), WITH_TRUMP, "Th")
    push_all(s, ["order alone", "discard Ts"])
    assert s.phase is Phase.GIVE and s.to_act == 3
    push_all(s, ["give 9c", "discard 9c"])  # the receiver may bury the card received
    assert s.phase is Phase.PLAY and s.gifts[0].card == s.gifts[0].discard == C("9c")


def test_no_trump_hand_partner_chooses() -> None:
    rules = Rules(call_for_best=True, no_trump=True)
    s = state(rules, WITH_TRUMP, "Th")
    push_all(s, ["pass"] * 4 + ["pass", "call n alone"])  # round 2: seat 2 calls no trump alone
    assert s.phase is Phase.GIVE and s.to_act == 0  # the partner chooses though holding hearts
    push_all(s, ["give As", "discard 9s"])
    assert s.phase is Phase.PLAY


# --- 12.2 step 1: the sitting-out dealer adds the up card --------------------------------------
def test_sitting_out_dealer_adds_the_up_card_then_gives() -> None:
    hands = [DEALER, "9s Ad Kd Qd Qc", MAKER, "Jd Qh 9c 9d Td"]
    s = state(CFB, hands, "Th")
    push_all(s, ["pass", "order alone"])  # seat 2, the dealer's partner, alone
    assert s.up_card_taken and s.discard is None
    g = s.gifts[0]
    assert (g.giver, g.receiver, g.card, g.forced) == (0, 2, C("Th"), True)  # the up card is the gift
    assert s.hands[0].bit_count() == 5 and s.hands[2].bit_count() == 6
    v1 = PlayerView.of(s, 1)
    assert v1.up_card_taken and not v1.dealer_discarded and v1.phase is Phase.CALL_FOR_BEST
    push_all(s, ["discard Kc"])
    assert s.phase is Phase.PLAY


def test_without_call_for_best_the_up_card_stays_in_the_stock() -> None:
    hands = [DEALER, "9s Ad Kd Qd Qc", MAKER, "Jd Qh 9c 9d Td"]
    s = state(Rules(), hands, "Th")
    s.push("pass")
    s.push("order alone")
    assert not s.up_card_taken and s.phase is Phase.PLAY


def test_lone_dealer_discards_twice() -> None:
    rules = CFB.replace(dealer_may_discard_up_card=False)
    hands = [MAKER, "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td", DEALER]
    s = state(rules, hands, "Th")
    push_all(s, ["pass", "pass", "pass", "order alone"])
    assert s.phase is Phase.DISCARD and discard(C("Th")) not in s.legal_actions()
    push_all(s, ["discard Kc"])
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 0 and s.gifts[0].card == C("Jd")
    assert discard(C("Th")) in s.legal_actions()  # the switch governs the first discard only
    push_all(s, ["discard Th"])
    assert s.phase is Phase.PLAY and s.hands[0].bit_count() == 5 and s.discard == C("Kc")


# --- defend alone after the maker's call for best ---------------------------------------------
def test_lone_defender_receives_and_discards() -> None:
    rules = CFB.replace(defend_alone=True)
    s = state(rules, WITH_TRUMP, "Th")
    push_all(s, ["order alone", "discard Ts", "discard Kc"])
    assert s.phase is Phase.DEFEND and s.to_act == 2
    push_all(s, ["defend alone"])
    g = s.gifts[1]
    assert (g.giver, g.receiver, g.card, g.forced) == (0, 2, C("Th"), True)  # the dealer's only trump
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 2 and s.sitting_out == {0, 3}
    assert PlayerView.of(s, 1).phase is Phase.CALL_FOR_BEST  # the maker is neither giver nor receiver now
    assert PlayerView.of(s, 0).phase is Phase.BEST_DISCARD and PlayerView.of(s, 0).gifts[1][2] == C("Th")
    push_all(s, ["discard 9s"])
    assert s.phase is Phase.PLAY and s.hands[2].bit_count() == 5


def test_pop_restores_every_step() -> None:
    rules = CFB.replace(defend_alone=True)
    s = state(rules, WITH_TRUMP, "Th")
    keys = []
    for a in ["order alone", "discard Ts", "discard Kc", "defend alone", "discard 9s"]:
        keys.append(s.key())
        s.push(a)
    for k in reversed(keys):
        s.pop()
        assert s.key() == k
    assert s == State.from_deal(rules, s.deal)


# --- 13: Railroad -------------------------------------------------------------------------------
def test_railroad_preset_fields() -> None:
    r = Rules.preset("railroad")
    assert (r.players, r.deck, r.target, r.call_for_best, r.defend_alone, r.canadian_loner) == \
        (4, 25, 10, True, True, False)
    assert not r.best_card_free and not r.is_match and r.preset_name() == "railroad"
    assert Rules.preset("railroad-euchre") == r
    words = " ".join(rules_in_words(r, "railroad"))
    assert "Railroad Euchre" in words and "Call for best" in words and "euchring a lone maker scores 4" in words


def made(rules: Rules, alone: bool) -> State:
    hands = ["As Ks Qs Js Ts", MAKER, "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td"]
    s = state(rules, hands, "Th")
    s.push("order alone" if alone else "order")
    while s.phase is not Phase.PLAY and s.phase is not Phase.DEFEND:
        s.push(s.legal_actions()[0])
    return s


@pytest.mark.parametrize(("alone", "taken", "points"), [
    (False, 3, (0, 1)), (False, 4, (0, 1)), (True, 3, (0, 1)), (True, 4, (0, 1)),  # makers 1
    (False, 5, (0, 2)),  # a march with the partner
    (True, 5, (0, 4)),  # a lone march
    (False, 2, (2, 0)), (False, 0, (2, 0)),  # partnered makers euchred
    (True, 2, (4, 0)), (True, 0, (4, 0)),  # a lone maker euchred by two defenders
])
def test_railroad_scoring_table(alone: bool, taken: int, points: tuple[int, int]) -> None:
    s = made(RAILROAD, alone)
    assert s.maker == 1 and s.alone is alone
    if s.phase is Phase.DEFEND:
        s.push(PASS)
        s.push(PASS)
    assert s.score_for(taken) == points


def test_railroad_lone_maker_euchred_by_a_lone_defender_scores_4() -> None:
    s = made(RAILROAD, True)
    assert s.phase is Phase.DEFEND
    s.push(DEFEND_ALONE)
    while s.phase is not Phase.PLAY:
        s.push(s.legal_actions()[0])
    assert s.lone_defender == 2 and s.score_for(2) == (4, 0) and s.score_for(5) == (0, 4)


def test_railroad_joker_up_card_as_british() -> None:
    s = state(RAILROAD, [MAKER, "9s Ad Kd Qd Qc", "Qh Ks Qs Js Ts", "Jd As 9c 9d Td"], "Jk")
    assert s.phase is Phase.JOKER and s.to_act == 0
    assert call(Suit.HEARTS, alone=True) in s.legal_actions()
    push_all(s, ["call h alone", "discard Kc"])  # the dealer takes the Joker, discards, goes alone
    g = s.gifts[0]
    assert s.phase is Phase.BEST_DISCARD and s.to_act == 0 and (g.giver, g.card, g.forced) == (2, C("Qh"), True)
    assert s.hands[0] >> JOKER & 1
    push_all(s, ["discard Ac"])
    assert s.phase is Phase.DEFEND and s.to_act == 1  # railroad: defend alone is on


def test_refusals() -> None:
    with pytest.raises(RulesError, match="call_for_best: is a house rule of four-player Euchre; two-handed"):
        Rules.preset("two-handed", call_for_best=True)
    with pytest.raises(RulesError, match="call_for_best: is a house rule of four-player Euchre; cut-throat"):
        Rules.preset("cut-throat", call_for_best=True)
    with pytest.raises(RulesError, match="best_card_free: needs call_for_best=True"):
        Rules(best_card_free=True)
    with pytest.raises(RulesError, match="call_for_best: needs going_alone=True"):
        Rules(call_for_best=True, going_alone=False)
    with pytest.raises(RulesError, match="no_trump: needs the 24-card deck"):
        Rules.preset("railroad", no_trump=True)
    with pytest.raises(RulesError, match="call_for_best: is a house rule of four-player Euchre; cut-throat"):
        Rules.preset("railroad", players=3, deck=20, going_alone=False, defend_alone=False)
    with pytest.raises(RecordError, match="EGN cannot express these rules: .*call for best"):
        egn_dumps(Game(Rules(call_for_best=True), seed=1))
    s = state(CFB, NO_TRUMP_PARTNER, "Th")
    with pytest.raises(Exception, match="no card is given now"):
        s.push("give Ad")
    s.push("order alone")
    s.push("discard Ts")
    # Resampling covers the call for best (it used to refuse it): the sample stands where the
    # view does and the seat's own cards stay its own.
    view = PlayerView.of(s, 3)
    sample = view.resample(random.Random(1))
    assert sample.phase is s.phase and sample.to_act == s.to_act and sample.hands[3] == s.hands[3]


# --- random games --------------------------------------------------------------------------------
@st.composite
def cfb_rules(draw: st.DrawFn) -> Rules:
    deck = draw(st.sampled_from([24, 25, 32]))
    over = {
        "deck": deck, "call_for_best": True, "best_card_free": draw(st.booleans()),
        "defend_alone": draw(st.booleans()), "stick_the_dealer": draw(st.booleans()),
        "canadian_loner": draw(st.booleans()), "dealer_may_discard_up_card": draw(st.booleans()),
        "loner_lead": draw(st.sampled_from(["dealer_left", "loner_left"])),
        "super_euchre": draw(st.booleans()), "target": draw(st.integers(1, 10)),
    }
    if deck == 24 and draw(st.booleans()):
        over["no_trump"] = True
        over["low_no_trump"] = draw(st.booleans())
    base = draw(st.sampled_from(["american", "railroad", "british"]))
    return Rules.preset(base, **over)


def hidden_from(s: State, seat: int | None) -> set[Card]:
    hidden = set(s.deal.stock)
    for other in range(s.n):
        if other != seat:
            hidden |= set(iter_mask(s.hands[other]))
    if s.discard is not None and seat != s.dealer:
        hidden.add(s.discard)
    for g in s.gifts:
        if g.discard is not None and seat != g.receiver:
            hidden.add(g.discard)
        if seat == g.giver:
            hidden.discard(g.card)
    hidden.discard(s.up_card)
    return hidden


def conserved(s: State) -> None:
    parts = [c for h in s.hands for c in iter_mask(h)]
    parts += [c for t in s.tricks for _, c in t.plays] + [c for _, c in s.trick]
    parts += [s.discard] if s.discard is not None else []
    parts += [g.discard for g in s.gifts if g.discard is not None] + list(s.deal.stock)
    if not s.up_card_taken:
        parts.append(s.up_card)
    assert sorted(parts) == deck_cards(s.rules.deck)


def pick(s: State, rng: random.Random) -> Action:
    legal = s.legal_actions()
    alone = [a for a in legal if a.alone or a == DEFEND_ALONE]
    if alone and rng.random() < 0.5:
        return rng.choice(alone)
    return rng.choice(legal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=cfb_rules(), seed=st.integers(0, 2**32))
def test_random_call_for_best_games(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(400):
        if game.is_over:
            break
        s = game.state
        key = s.key()
        a = pick(s, rng)
        game.push(a)
        if game.state is s:
            s.pop()
            assert s.key() == key
            s.push(a)
            conserved(s)
            if s.phase is Phase.PLAY and not s.trick and not s.tricks:
                assert all(s.hands[x].bit_count() == 5 for x in range(4) if s.is_active(x))
            for seat in (*range(4), None):
                v = PlayerView.of(s, seat)
                text = repr(v)
                leaked = {str(c) for c in hidden_from(s, seat)} & set(text.replace("(", " ").replace(")", " ")
                                                                    .replace("'", " ").replace(",", " ").split())
                assert not leaked, (seat, leaked)
                if s.phase in PENDING and seat in others(s):
                    assert v.phase is Phase.CALL_FOR_BEST and v.to_act == -1
    assert game.is_over
    text = GameRecord.from_game(game).dumps()
    again = GameRecord.loads(text).replay()
    assert again.scores == game.scores
    assert [h.gifts for h in again.hands] == [h.gifts for h in game.hands]
    assert [h.history for h in again.hands] == [h.history for h in game.hands]


def test_bots_play_railroad_with_the_search_bot() -> None:
    from euchre.bots.base import make_bot

    game = Game(RAILROAD, seed=3)
    bots = [make_bot("heuristic", seed=0), make_bot("search", seed=1, samples=4, bid_samples=4),
            make_bot("heuristic", seed=2), make_bot("random", seed=3)]
    gifts = 0
    while not game.is_over:
        v = game.view(game.to_act)
        a = bots[game.to_act].choose(v)
        assert a in v.legal_actions
        game.push(a)
        gifts = sum(len(h.gifts) for h in game.hands)
    assert gifts > 0


def test_orders_and_codes() -> None:
    assert give(C("Ah")) - 83 == C("Ah") and str(give(C("Jk"))) == "give Jk" and give(JOKER).card == JOKER
    assert Action.parse("give Ah").kind is Kind.GIVE and not give(C("Ah")).is_bid
    assert ORDER != ORDER_ALONE
