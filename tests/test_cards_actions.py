"""Unit tests of cards, card sets, the trump arithmetic, actions and their parsing and errors."""

from __future__ import annotations

import pytest

from euchre import (
    Action,
    Card,
    CardSet,
    DealError,
    EuchreError,
    Game,
    IllegalActionError,
    InvalidActionError,
    Kind,
    Phase,
    Rules,
    State,
    Suit,
)
from euchre.actions import ACTIONS, NUM_ACTIONS, call, discard, play
from euchre.cards import (
    CARDS,
    JOKER,
    card_power,
    deck_cards,
    deck_mask,
    effective_suit,
    follow_mask,
    iter_mask,
    left_bower,
    mask_of,
    right_bower,
    trick_winner_index,
)

C = Card.parse


# --- cards --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("Jh", "Jh"), ("jh", "Jh"), ("JH", "Jh"), (" 9c ", "9c"), ("Th", "Th"), ("10h", "Th"), ("10S", "Ts"),
    ("J♥", "Jh"), ("A♠", "As"), ("K♦", "Kd"), ("Q♣", "Qc"), ("7d", "7d"), ("8s", "8s"),
    ("Jk", "Jk"), ("joker", "Jk"), ("JK", "Jk"), ("benny", "Jk"),
])
def test_card_parse(text: str, expected: str) -> None:
    assert str(C(text)) == expected


@pytest.mark.parametrize("text", ["", "J", "Jx", "1h", "Xh", "Jhh", "11h", "hJ", "7x", "joke", "6", "2j"])
def test_card_parse_errors(text: str) -> None:
    with pytest.raises(InvalidActionError, match="not a card"):
        C(text)


def test_card_attributes() -> None:
    jh = C("Jh")
    assert jh.suit is Suit.HEARTS and jh.rank_letter == "J" and not jh.is_joker
    assert jh.name() == "jack of hearts" and jh.symbol() == "J♥"
    assert C("Tc").symbol() == "10♣" and C("Tc").name() == "ten of clubs"
    assert JOKER.is_joker and JOKER.suit is None and str(JOKER) == "Jk" and JOKER.name() == "the Joker"
    assert repr(C("9s")) == "Card('9s')"
    assert int(C("9c")) < int(C("Tc")) < int(C("Ac")) < int(C("9d"))


def test_every_card_round_trips_text_symbol_and_int() -> None:
    for c in CARDS:  # (the double deck's second copies read back as the card itself: they are alike)
        assert C(str(c)) == c.face
        assert C(c.symbol()) == c.face
        assert CARDS[int(c)] is c


def test_suits() -> None:
    assert [s.letter for s in Suit] == ["c", "d", "h", "s"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Suit.HEARTS.partner is Suit.DIAMONDS and Suit.CLUBS.partner is Suit.SPADES
    for text in ("h", "H", "hearts", "heart", "♥"):
        assert Suit.parse(text) is Suit.HEARTS
    with pytest.raises(InvalidActionError, match="not a suit"):
        Suit.parse("x")


@pytest.mark.parametrize("size, first, count", [(20, "Tc", 20), (24, "9c", 24), (25, "9c", 25), (32, "7c", 32)])
def test_decks(size: int, first: str, count: int) -> None:
    cards = deck_cards(size)
    assert len(cards) == count == deck_mask(size).bit_count()
    assert str(cards[0]) == first
    assert (JOKER in cards) == (size == 25)
    assert all(c.suit is not None or c.is_joker for c in cards)
    if size == 20:
        assert not any(c.rank_letter == "9" for c in cards)


def test_cardset() -> None:
    s = CardSet.parse("Jh, Jd Ah")
    assert len(s) == 3 and C("Jh") in s and C("Kh") not in s and "Jh" not in s
    assert str(s) == "Jd Jh Ah"
    assert s | CardSet.parse("9c") == CardSet.parse("9c Jd Jh Ah")
    assert s & CardSet.parse("Jh 9c") == CardSet.parse("Jh")
    assert s - CardSet.parse("Jh") == CardSet.parse("Jd Ah")
    assert not CardSet() and bool(s)
    assert CardSet(s.mask) == s and hash(CardSet(s.mask)) == hash(s)
    assert list(iter_mask(mask_of([C("Ah"), C("9c")]))) == [C("9c"), C("Ah")]


# --- trump arithmetic ----------------------------------------------------------------------------
def test_bowers() -> None:
    assert right_bower(Suit.HEARTS) == C("Jh") and left_bower(Suit.HEARTS) == C("Jd")
    assert right_bower(Suit.CLUBS) == C("Jc") and left_bower(Suit.CLUBS) == C("Js")
    assert effective_suit(C("Jd"), Suit.HEARTS) == Suit.HEARTS
    assert effective_suit(C("Jd"), Suit.DIAMONDS) == Suit.DIAMONDS
    assert effective_suit(C("Jd"), Suit.CLUBS) == Suit.DIAMONDS
    assert effective_suit(C("Jd"), None) == Suit.DIAMONDS
    assert effective_suit(JOKER, Suit.SPADES) == Suit.SPADES


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_order(trump: Suit) -> None:
    order = [JOKER, right_bower(trump), left_bower(trump)] + [
        CARDS[trump * 8 + r] for r in (7, 6, 5, 3, 2, 1, 0)
    ]
    powers = [card_power(c, trump) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert min(powers) > max(card_power(c, trump) for c in CARDS[:32] if effective_suit(c, trump) != trump)
    # outside trump: A K Q J 10 9 8 7
    other = Suit((trump + 1) % 4)
    plain = [CARDS[other * 8 + r] for r in (7, 6, 5, 4, 3, 2, 1, 0) if CARDS[other * 8 + r] != left_bower(trump)]
    pw = [card_power(c, trump) for c in plain]
    assert pw == sorted(pw, reverse=True)


def test_follow_mask_includes_left_bower_and_joker_in_trump_only() -> None:
    hearts = set(iter_mask(follow_mask(Suit.HEARTS, Suit.HEARTS)))
    assert C("Jd") in hearts and JOKER in hearts and C("9h") in hearts
    diamonds = set(iter_mask(follow_mask(Suit.HEARTS, Suit.DIAMONDS)))
    assert C("Jd") not in diamonds and C("Ad") in diamonds and JOKER not in diamonds


@pytest.mark.parametrize("cards, trump, winner", [
    ("9s Ts Ac Qs", Suit.HEARTS, 3),  # highest of the led suit
    ("9s As 9h Qs", Suit.HEARTS, 2),  # any trump beats the led suit
    ("Ah Jd Kh Jh", Suit.HEARTS, 3),  # right bower
    ("Ah Jd Kh Qh", Suit.HEARTS, 1),  # left bower
    ("Jh Jk Jd Ah", Suit.HEARTS, 1),  # Joker
    ("Jk 9c Ac Jh", Suit.CLUBS, 0),   # led Joker
    ("Jd Ad Ah Qd", Suit.HEARTS, 0),  # Jd led at hearts is a trump lead and beats the ace
    ("Kd Jd Ad Qd", Suit.HEARTS, 1),  # Jd played on diamonds trumps
    ("Td Jc Qd", Suit.HEARTS, 2),     # three-card trick, an off-suit jack
])
def test_trick_winner(cards: str, trump: Suit, winner: int) -> None:
    assert trick_winner_index([C(c) for c in cards.split()], trump) == winner


# --- actions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected, kind", [
    ("pass", "pass", Kind.PASS), ("  PASS ", "pass", Kind.PASS),
    ("order", "order", Kind.ORDER), ("pick up", "order", Kind.ORDER), ("pickup", "order", Kind.ORDER),
    ("order alone", "order alone", Kind.ORDER_ALONE), ("pick up alone", "order alone", Kind.ORDER_ALONE),
    ("take", "take", Kind.TAKE), ("defend alone", "defend alone", Kind.DEFEND_ALONE),
    ("call h", "call h", Kind.CALL), ("call hearts", "call h", Kind.CALL), ("name ♠", "call s", Kind.CALL),
    ("call d alone", "call d alone", Kind.CALL_ALONE), ("call clubs, alone", "call c alone", Kind.CALL_ALONE),
    ("discard 9c", "discard 9c", Kind.DISCARD), ("discard Jk", "discard Jk", Kind.DISCARD),
    ("play Jh", "play Jh", Kind.PLAY), ("play 10s", "play Ts", Kind.PLAY),
])
def test_action_parse(text: str, expected: str, kind: Kind) -> None:
    a = Action.parse(text)
    assert str(a) == expected and a.kind is kind


@pytest.mark.parametrize("text", ["", "fold", "order up now", "call", "call x", "call h h", "play", "play Xz",
                                  "discard", "play Jh Jd", "alone", "take alone"])
def test_action_parse_errors(text: str) -> None:
    with pytest.raises(InvalidActionError):
        Action.parse(text)


def test_action_codes_are_fixed() -> None:
    # 79 + the four no-trump calls + 33 gives (call for best) + 3 offers + 12 bids + the moon + Napoleon's
    # four bids and the plays of its 2s to 6s, appended
    assert NUM_ACTIONS == 180
    assert str(ACTIONS[156]) == "play 9c" and ACTIONS[179].card is not None and int(ACTIONS[179].card) == 76
    assert [str(ACTIONS[i]) for i in range(132, 136)] == ["misere", "nap", "wellington", "blucher"]
    assert str(ACTIONS[136]) == "play 2c" and str(ACTIONS[155]) == "play 6s" and ACTIONS[140].kind is Kind.PLAY
    assert play(C("6s")) == ACTIONS[155] and ACTIONS[155].card == C("6s") and not ACTIONS[155].is_bid
    assert [str(ACTIONS[i]) for i in range(119, 131)] == [f"bid {k}" for k in range(1, 13)]
    assert str(ACTIONS[131]) == "moon" and ACTIONS[131].kind is Kind.MOON and ACTIONS[131].alone
    assert [str(ACTIONS[i]) for i in range(116, 119)] == ["misdeal", "keep", "farmer"]
    assert str(ACTIONS[83 + C("Ah")]) == "give Ah" and ACTIONS[115].kind is Kind.GIVE
    assert [str(ACTIONS[i]) for i in range(79, 83)] == ["call n", "call n alone", "call low", "call low alone"]
    assert [str(ACTIONS[i]) for i in range(5)] == ["pass", "order", "order alone", "take", "defend alone"]
    assert str(ACTIONS[5]) == "call c" and str(ACTIONS[8]) == "call s"
    assert str(ACTIONS[9]) == "call c alone" and str(ACTIONS[12]) == "call s alone"
    assert ACTIONS[13 + C("9c")] == discard(C("9c")) and ACTIONS[46 + C("Jh")] == play(C("Jh"))
    assert call(Suit.HEARTS, alone=True).alone and not call(Suit.HEARTS).alone
    assert play(C("Jh")).card == C("Jh") and call(Suit.DIAMONDS).suit is Suit.DIAMONDS
    assert Action.parse("order alone").alone and not Action.parse("order").alone
    assert Action.parse("call h").is_bid and not Action.parse("play Jh").is_bid


def test_every_action_round_trips_text_and_int() -> None:
    for code in range(NUM_ACTIONS):
        a = Action.from_code(code)
        assert int(a) == code
        # the play of a double deck's second copy reads back as the card's own play (the same words)
        same = play(a.card.face) if code >= 156 and a.card is not None else a
        assert Action.parse(str(a)) == same
        assert Action.from_code(int(Action.parse(str(a)))) is same
        assert repr(a) == f"Action({str(a)!r})"


@pytest.mark.parametrize("code", [-1, NUM_ACTIONS, 1000, True, 1.0, "1"])
def test_action_from_code_errors(code: object) -> None:
    with pytest.raises(InvalidActionError, match="not an action code"):
        Action.from_code(code)  # type: ignore[arg-type]


def test_action_describe() -> None:
    assert Action.parse("call h alone").describe() == "call hearts, alone"
    assert Action.parse("play Jh").describe() == "play the jack of hearts"
    assert Action.parse("play Jk").describe() == "play the Joker"
    assert Action.parse("discard 9c").describe() == "discard the nine of clubs"


# --- State.parse_action shortcuts and the error family ---------------------------------------------------
BASE = ["Tc Jc Qs Ks 9d", "Jh Jd Ah Kh Qh", "Ac Kc Qc 9c Ts", "Th As Js 9s Ad"]


def new_state(rules: Rules | None = None) -> State:
    return State(rules or Rules(), dealer=0, hands=BASE, up_card="9h")


def test_parse_action_shortcuts() -> None:
    s = new_state()
    assert s.parse_action("p") == Action.parse("pass")
    assert s.parse_action("alone") == Action.parse("order alone")
    assert s.parse_action("pick up") == Action.parse("order")
    assert s.parse_action("h") == Action.parse("call h")
    assert s.parse_action("spades alone") == Action.parse("call s alone")
    assert s.parse_action("Jh") == Action.parse("play Jh")
    s.push("order")
    assert s.phase is Phase.DISCARD
    assert s.parse_action("9d") == Action.parse("discard 9d")
    assert s.parse_action("10c") == Action.parse("discard Tc")
    s.push("9d")
    assert s.phase is Phase.PLAY and s.discard == C("9d")
    assert s.parse_action("jh") == Action.parse("play Jh")
    s.push("Jh")
    assert s.trick[-1] == (1, C("Jh"))
    with pytest.raises(InvalidActionError):
        s.parse_action("xyzzy")


def test_parse_action_take_and_defend_shortcuts() -> None:
    s = State(Rules.preset("two-handed"), dealer=0, hands=BASE[:2], up_card="9h")
    s.push("order")
    assert s.phase is Phase.TAKE and s.parse_action("pick up") == Action.parse("take")
    s = new_state(Rules(defend_alone=True))
    s.push("alone")
    s.push("9d")
    assert s.phase is Phase.DEFEND and s.parse_action("alone") == Action.parse("defend alone")


def test_push_accepts_action_int_and_text_and_returns_the_action() -> None:
    a = new_state().push(Action.parse("order"))
    assert a == Action.parse("order")
    s = new_state()
    assert s.push(1) == Action.parse("order")
    assert str(new_state().push(" ORDER ")) == "order"


def test_invalid_vs_illegal_and_state_untouched() -> None:
    s = new_state()
    key = s.key()
    with pytest.raises(InvalidActionError):
        s.push("play Xz")
    with pytest.raises(InvalidActionError):
        s.push(500)
    with pytest.raises(IllegalActionError, match="no card is played now"):
        s.push("play Jh")
    with pytest.raises(IllegalActionError, match="no discard now"):
        s.push("discard 9d")
    with pytest.raises(IllegalActionError):
        s.push("take")
    assert s.key() == key and s.history == []
    for err in (InvalidActionError, IllegalActionError, DealError):
        assert issubclass(err, EuchreError) and issubclass(err, ValueError)
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, InvalidActionError)


def test_illegal_play_messages() -> None:
    s = new_state()
    s.push("order")
    s.push("discard 9d")
    with pytest.raises(IllegalActionError, match=r"^you do not hold Ac; your cards: Jh Jd Ah Kh Qh$"):
        s.push("play Ac")
    s.push("play Ah")
    with pytest.raises(IllegalActionError, match=r"^you do not hold Jh; your cards: Ac Kc Qc 9c Ts$"):
        s.push("play Jh")
    s.push("play Ts")  # seat 2 has no trump
    with pytest.raises(IllegalActionError, match=r"^you must follow trump \(hearts\): you hold Th$"):
        s.push("play As")


def test_deal_errors() -> None:
    with pytest.raises(DealError, match="dealt twice"):
        State(Rules(), dealer=0, hands=["Jh Jh Ah Kh Qh", *BASE[1:]], up_card="9h")
    with pytest.raises(DealError, match="seat 0 must be dealt 5 cards"):
        State(Rules(), dealer=0, hands=["Tc Jc Qs Ks", *BASE[1:]], up_card="9h")
    with pytest.raises(DealError, match="4 hands"):
        State(Rules(), dealer=0, hands=BASE[:3], up_card="9h")
    with pytest.raises(DealError, match="dealer must be a seat"):
        State(Rules(), dealer=4, hands=BASE, up_card="9h")
    with pytest.raises(DealError, match="missing: .*Kd"):
        State(Rules(), dealer=0, hands=BASE, up_card="9h", stock="Td Qd")
    with pytest.raises(DealError, match="dealt twice"):
        State(Rules(), dealer=0, hands=BASE, up_card="Jh")
    s = State(Rules(), dealer=0, hands=BASE, up_card="9h")
    assert sorted(map(str, s.deal.stock)) == ["Kd", "Qd", "Td"]


def test_random_deal_is_a_whole_deck() -> None:
    import random

    for preset in Rules.preset_names():
        rules = Rules.preset(preset)
        s = State.random(rules, dealer=1, rng=random.Random(3))
        up = [] if s.deal.up_card is None else [s.deal.up_card]  # Hasenpfeffer turns no card up
        cards = [c for h in s.deal.hands for c in h] + [*up, *s.deal.stock]
        if rules.double_deck:  # every card of the 24-card pack twice
            assert sorted(c.face for c in cards) == sorted([*deck_cards(24), *deck_cards(24)])
        else:
            assert sorted(cards) == deck_cards(rules.deck)
        assert all(len(h) == rules.hand_size for h in s.deal.hands)
        assert State.from_deal(rules, s.deal) == s


def test_a_bare_card_is_not_taken_for_an_action_code() -> None:
    from euchre import Card, InvalidActionError, Rules, State

    s = State(Rules(), dealer=3, hands=["Jh Jd Ah Kh Qh", "9c Tc Jc Qc Kc", "9s Ts Js Qs Ks", "9d Td Qd Kd Ad"],
              up_card="9h", stock="Ac As Th")
    before = s.key()
    with pytest.raises(InvalidActionError, match="is a card, not an action"):
        s.push(Card.parse("9c"))  # its int value 2 would otherwise mean 'order alone'
    assert s.key() == before


def test_napoleons_low_cards_follow_the_euchre_ids() -> None:
    from euchre.cards import LOW_CARD, NUM_ALL_CARDS, deck_cards, plain_trump, sort_hand, trump_suit

    two, six = C("2c"), C("6s")
    assert (int(two), int(six), LOW_CARD, NUM_ALL_CARDS) == (33, 52, 33, 77)
    assert str(C("10h").rank_letter) == "T" and C("4d").name() == "four of diamonds" and C("5h").symbol() == "5♥"
    assert C("3s").suit is Suit.SPADES and C("2h").rank < C("7h").rank < C("Ah").rank
    assert [len(deck_cards(d)) for d in (20, 24, 25, 28, 32, 52)] == [20, 24, 25, 28, 32, 52]
    assert C("2c") not in deck_cards(32) and C("7c") not in deck_cards(28) and C("8c") in deck_cards(28)
    # Napoleon's trump indexes: no bowers, thirteen ranks, the 2 of trump above the ace of another suit
    t = plain_trump(Suit.CLUBS)
    assert trump_suit(t) is Suit.CLUBS and effective_suit(C("Js"), t) == Suit.SPADES
    assert card_power(C("2c"), t) > card_power(C("As"), t) and card_power(C("Ac"), t) > card_power(C("Jc"), t)
    assert sort_hand([C(x) for x in "3s Jc Js 2c Ac Ad".split()], t) == [C(x) for x in "Ac Jc 2c Ad Js 3s".split()]


@pytest.mark.parametrize("text", ["give 2c", "give 6s", "discard 6s", "discard 2c", "give 3c"])
def test_a_card_no_euchre_deck_holds_is_never_read_as_another_action(text: str) -> None:
    """The 2s to 6s (Napoleon's) have no discard or give code: their ids ran past the end of those
    actions into others ('give 2c' read as 'misdeal', 'discard 6s' as 'play Th')."""
    with pytest.raises(InvalidActionError, match="is ever"):
        Action.parse(text)


def test_a_low_card_typed_alone_while_discarding_or_giving_is_refused_and_changes_nothing() -> None:
    game = Game(Rules(ace_no_face=True), seed=11)
    before = game.state.key()
    for text in ("give 2c", "2c"):
        with pytest.raises((InvalidActionError, IllegalActionError)):
            game.push(text)
    assert game.state.key() == before
    game = Game(Rules(), seed=3)
    while game.state.phase.name != "DISCARD":
        game.push(game.legal_actions()[1] if game.state.phase.name == "BID1" else game.legal_actions()[0])
    before = game.state.key()
    with pytest.raises(InvalidActionError):
        game.push("6h")
    assert game.state.key() == before


def test_a_huge_text_is_not_echoed_whole_in_the_error() -> None:
    for text in ("x" * 500_000, "play " + "Q" * 5000):
        with pytest.raises(InvalidActionError) as e:
            Action.parse(text)
        assert len(str(e.value)) < 400
    with pytest.raises(InvalidActionError, match=r"\.\.\. \(500,000 characters\)"):
        Action.parse("x" * 500_000)
