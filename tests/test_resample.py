"""``PlayerView.resample``: deals of the unseen cards that agree with everything a seat knows.

A sample must be indistinguishable from the real hand from the seat's chair (its view of the
sample equals its view of the real hand, at every point of many bot-played hands, for every
preset and for the switches that move cards: the dealer burying the up card, lone defence), must
respect the voids shown in play, and must be uniform over the consistent deals. The house rules of
RULES-FAMILY.md 12.2-12.4 too: a call for best's card and discard, the offers and their "keep", a
misdeal, the farmer's exchange, each sampled only where the seat does not know it (12.7).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from euchre import Rules, State
from euchre.actions import DEFEND_ALONE, FARMER, MISDEAL, Action
from euchre.bots import Bot, make_bot
from euchre.cards import Card, card_power, deck_cards, effective_suit, face, iter_mask
from euchre.state import Deal, Phase
from euchre.view import PlayerView

CASES = [
    ("american", {}),
    ("american", {"dealer_may_discard_up_card": True, "defend_alone": True}),
    ("british", {}),
    ("two-handed", {}),
    ("cut-throat", {}),
]


@pytest.mark.parametrize(("preset", "over"), CASES)
def test_samples_look_the_same_from_the_seat(preset: str, over: dict[str, bool]) -> None:
    rules = Rules.preset(preset, **over)
    rng = random.Random(7)
    for g in range(12):
        s = State.random(rules, dealer=rng.randrange(rules.players), rng=rng)
        bots = [make_bot("heuristic" if (g + i) % 3 else "random", seed=g * 10 + i) for i in range(rules.players)]
        while not s.is_over:
            for seat in range(rules.players):
                view = PlayerView.of(s, seat)
                sample = view.resample(rng)
                assert PlayerView.of(sample, seat) == view
                for other, mask in view.voids().items():
                    assert not sample.hands[other] & mask
            s.push(bots[s.to_act].choose(PlayerView.of(s, s.to_act)))


def test_voids_are_learnt_from_the_tricks() -> None:
    s = State(Rules(), dealer=3, hands=["Ah Kh Qh 9c Tc", "Jc Qc Kc Ac 9d", "Td Qd Kd Ad 9s",
                                        "Ts Qs Ks As Th"], up_card="Js")
    s.push("pass")
    s.push("pass")
    s.push("order")  # seat 2 orders spades
    s.push("discard Th")
    s.push("play 9c")  # seat 0 leads clubs
    s.push("play Qc")  # seat 1 follows
    s.push("play 9s")  # seat 2 trumps: void in clubs
    view = PlayerView.of(s, 0)
    assert 2 in view.voids()
    assert view.voids()[2] >> Card.parse("Ac") & 1
    for _ in range(50):
        sample = view.resample(random.Random(_))
        assert not any(sample.hands[2] >> c & 1 for c in map(Card.parse, ["Kc", "Ac", "Tc"]))


def test_the_dealer_keeps_the_up_card_and_the_buried_card_stays_hidden() -> None:
    rules = Rules(dealer_may_discard_up_card=False)
    s = State.random(rules, dealer=0, rng=random.Random(11))
    s.push("order")
    discard = s.legal_actions()[0]
    s.push(discard)
    view = PlayerView.of(s, 2)  # the dealer's partner: saw the up card go to the dealer
    buried = Counter()
    for i in range(200):
        sample = view.resample(random.Random(i))
        assert sample.hands[0] >> s.up_card & 1
        buried[sample.discard] += 1
    assert len(buried) > 3  # the buried card is not leaked: it varies over samples
    own = PlayerView.of(s, 0).resample(random.Random(1))
    assert own.discard == s.discard  # the dealer knows its own discard


def test_a_dealer_who_may_bury_the_up_card_sometimes_did_in_samples() -> None:
    s = State.random(Rules(dealer_may_discard_up_card=True), dealer=0, rng=random.Random(11))
    s.push("order")
    s.push(s.legal_actions()[0])
    view = PlayerView.of(s, 2)
    places = Counter(bool(view.resample(random.Random(i)).hands[0] >> s.up_card & 1) for i in range(300))
    assert places[True] > places[False] > 0  # held, or buried (one chance in six)


@pytest.mark.parametrize("rules", [Rules(), Rules(ace_no_face=True, farmers_hand=True), Rules.preset("railroad")],
                         ids=["american", "offers", "railroad"])
def test_samples_are_uniform_at_the_start(rules: Rules) -> None:
    # Before any action, seat 0 sees 5 cards and the up card; each of the 18 others is in seat 1's
    # hand with probability 5/18 (19 and 5/19 with the Joker). With the offers switched on the
    # samples come from the house rules' sampler, which keeps any offer of theirs unseen: an offer
    # to another seat is rare (a hand without a face card), and its "keep" hardly moves these odds.
    s = State.random(rules, dealer=3, rng=random.Random(2))
    assert s.phase is Phase.BID1
    unseen = rules.deck - 6
    view = PlayerView.of(s, 0)
    rng = random.Random(3)
    counts: Counter[int] = Counter()
    n = 3000
    for _ in range(n):
        hand = view.resample(rng).hands[1]
        counts.update(c for c in range(33) if hand >> c & 1)
    assert len(counts) == unseen
    for c, k in counts.items():
        assert abs(k / n - 5 / unseen) < 0.04, (Card(c), k / n)


# --- the house rules: call for best, the offers, the farmer's hand (RULES-FAMILY.md 12.2-12.4, 12.7) ---
HOUSE = {
    "railroad": Rules.preset("railroad"),
    "no-trump-call-for-best": Rules(no_trump=True, low_no_trump=True, call_for_best=True),
    "best-card-free": Rules(call_for_best=True, best_card_free=True, defend_alone=True,
                            dealer_may_discard_up_card=True),
    "offers": Rules(ace_no_face=True, farmers_hand=True, call_for_best=True, defend_alone=True),
    "farmer": Rules(farmers_hand=True, call_for_best=True, stick_the_dealer=True),
}
NINES_TENS = frozenset(c for c in deck_cards(24) if c.rank in (2, 3))


def weak_deal(rng: random.Random, rules: Rules) -> Deal:
    """A deal in which one or two seats hold hands the offers go to: a farmer's five 9s and 10s,
    or four of them and an ace (ace-no-face), so that the offers, misdeals and exchanges the
    random games below reach are many."""
    cards = deck_cards(rules.deck)
    rng.shuffle(cards)
    weak = [c for c in cards if c.rank in (2, 3)]
    aces = [c for c in cards if c.rank == 7]
    seats = rng.sample(range(4), 2 if rules.ace_no_face and rng.random() < 0.3 else 1)
    hands: dict[int, list[Card]] = {}
    for i, s in enumerate(seats):
        if i == 0 and (rules.farmers_hand and (not rules.ace_no_face or rng.random() < 0.6)):
            hands[s] = weak[:5]
            weak = weak[5:]
        elif len(weak) >= 4:
            hands[s] = weak[:4] + aces[:1]
            weak, aces = weak[4:], aces[1:]
    used = {c for h in hands.values() for c in h}
    rest = [c for c in cards if c not in used]
    for s in range(4):
        if s not in hands:
            hands[s], rest = rest[:5], rest[5:]
    return Deal(rng.randrange(4), tuple(tuple(hands[s]) for s in range(4)), rest[0], tuple(rest[1:]))


def house_action(s: State, rng: random.Random, bots: list[Bot]) -> Action:
    """Random games that reach the house rules' positions often: loners (and lone defences) half
    the time they are offered, otherwise a heuristic or a random player."""
    legal = s.legal_actions()
    alone = [a for a in legal if a.alone or a == DEFEND_ALONE]
    if alone and rng.random() < 0.5:
        return rng.choice(alone)
    if FARMER in legal and rng.random() < 0.7:
        return FARMER
    if MISDEAL in legal:
        return rng.choice(legal)  # kept half the time, so that the farmer's offer comes
    return bots[s.to_act].choose(PlayerView.of(s, s.to_act))


def known_cards(view: PlayerView) -> dict[Card, str]:
    """Every card this seat knows the place of, with the place (what no sample may contradict)."""
    out: dict[Card, str] = {c: "mine" for c in view.hand}
    for tr in view.tricks:
        for seat, c in tr.plays:
            out[c] = f"played by {seat}"
    for seat, c in view.trick:
        out[c] = f"played by {seat}"
    if view.discard is not None:
        out[view.discard] = "my discard"
    for c in view.farmer_gave:
        out[c] = "the stock"
    for c in view.misdeal_hand:
        out.setdefault(c, f"dealt to {view.misdeal}")
    return out


def check_sample(view: PlayerView, sample: State) -> None:
    """A sample agrees with everything the seat knows (RULES-FAMILY.md 12.7)."""
    seat = view.seat
    assert PlayerView.of(sample, seat) == view  # the seat cannot tell the sample from the real hand
    again = State.from_deal(sample.rules, sample.deal, after_misdeal=sample.after_misdeal)
    for a in sample.history:  # the sample's own history, replayed with every check, stands where it does
        again.push(a)
    assert again == sample
    if seat is not None:
        assert set(sample.hand(seat)) == set(view.hand)
        if view.discard is not None:
            assert sample.discard == view.discard
    assert sample.up_card == view.up_card
    played = {(s, c) for tr in view.tricks for s, c in tr.plays} | set(view.trick)
    assert played == {(s, c) for tr in sample.tricks for s, c in tr.plays} | set(sample.trick)
    for other, mask in view.voids().items():
        assert not sample.hands[other] & mask
    for (giver, receiver, card, buried), gift in zip(view.gifts, sample.gifts, strict=False):
        assert (gift.giver, gift.receiver) == (giver, receiver)
        if card is not None:
            assert gift.card == card
        if buried is not None:
            assert gift.discard == buried
    if sample.farmer >= 0 and len(sample.farmer_gave) == 3:
        # the farmer held five 9s and 10s and gave three of them (all any seat knows of them)
        assert set(sample.deal.hands[sample.farmer]) <= NINES_TENS and set(sample.farmer_gave) <= NINES_TENS
        if seat == sample.farmer:
            assert set(sample.deal.stock) == set(view.farmer_took) and sample.farmer_gave == view.farmer_gave
    if view.misdeal >= 0:
        assert set(sample.deal.hands[view.misdeal]) == set(view.misdeal_hand)
    # no card the seat knows the place of is anywhere else in the sample
    again_view = PlayerView.of(sample, seat)
    assert known_cards(again_view) == known_cards(view)


@pytest.mark.parametrize("name", list(HOUSE))
def test_house_rule_samples_agree_with_the_seat(name: str) -> None:
    """Random hands under the house rules, every position, every seat and a spectator: each sample
    is a hand the seat cannot tell from the real one, consistent with everything it knows."""
    rules = HOUSE[name]
    rng = random.Random(name)
    reached: Counter[str] = Counter()
    for g in range(10):
        if (rules.ace_no_face or rules.farmers_hand) and g % 2 == 0:
            s = State.from_deal(rules, weak_deal(rng, rules), after_misdeal=g % 4 == 2)
        else:
            s = State.random(rules, dealer=rng.randrange(4), rng=rng)
        bots = [make_bot("heuristic" if (g + i) % 3 else "random", seed=g * 10 + i) for i in range(4)]
        while True:
            for seat in (*range(4), None):
                view = PlayerView.of(s, seat)
                check_sample(view, view.resample(rng))
                reached[view.phase.name] += 1
            reached.update(["gift"] * bool(s.gifts) + ["farmer"] * (s.farmer >= 0) + ["misdeal"] * s.misdealt)
            if s.is_over:
                break
            s.push(house_action(s, rng, bots))
    wanted = {"PLAY"}
    if rules.call_for_best:
        wanted |= {"gift", "CALL_FOR_BEST", "BEST_DISCARD"}
    if rules.farmers_hand:
        wanted |= {"farmer", "FARMER_GIVE", "OFFERS"}
    if rules.ace_no_face:
        wanted |= {"MISDEAL_OFFER", "misdeal"}
    assert wanted <= set(reached), reached


def test_a_gift_is_resampled_only_where_the_seat_does_not_see_it() -> None:
    """Call for best, forced: dealer 0 (who buries Ts), seat 1 orders hearts alone and seat 3
    gives its left bower Jd. The giver and the receiver know the card (it is the receiver's in every sample), the
    receiver its discard too; the others learn neither, and their samples vary both."""
    s = State(Rules(call_for_best=True), dealer=0, hands=["As Ks Qs Js Ts", "Jh Ah Kh Ac Kc",
                                                          "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td"], up_card="Th")
    s.push("order alone")
    s.push("discard Ts")  # the dealer's exchange
    assert s.phase is Phase.BEST_DISCARD and s.gifts[0].card == Card.parse("Jd")
    s.push("discard Kc")  # the lone player's discard
    jd, kc = Card.parse("Jd"), Card.parse("Kc")
    rng = random.Random(4)
    for _ in range(40):
        mine = PlayerView.of(s, 1).resample(rng)
        assert mine.gifts[0].card == jd and mine.gifts[0].discard == kc and mine.hands[1] >> jd & 1
        given = PlayerView.of(s, 3).resample(rng)
        assert given.gifts[0].card == jd and not given.hands[3] >> jd & 1
        assert given.hands[1] >> jd & 1 or given.gifts[0].discard == jd
        assert given.gifts[0].discard != kc or given.hands[1] >> jd & 1
    cards: Counter[Card] = Counter()
    discards: Counter[Card] = Counter()
    for _ in range(300):
        other = PlayerView.of(s, 2).resample(rng)
        cards[other.gifts[0].card] += 1
        discards[other.gifts[0].discard] += 1  # type: ignore[index]
        # the giver held no trump better than the one it gave (it had no choice)
        t = other.trump
        assert t is not None
        better = [c for c in iter_mask(other.hands[3]) if effective_suit(c, t) == t
                  and card_power(c, t) > card_power(other.gifts[0].card, t)]
        assert not better
    assert len(cards) > 2 and len(discards) > 4  # neither card leaks to seat 2


def test_the_receivers_discard_is_the_gift_one_time_in_six_to_the_giver() -> None:
    """The giver knows the card it gave, not what the receiver kept: in its samples the receiver
    buried it about once in six (the discard is any of the six)."""
    s = State(Rules(call_for_best=True), dealer=0, hands=["As Ks Qs Js Ts", "Jh Ah Kh Ac Kc",
                                                          "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td"], up_card="Th")
    for a in ("order alone", "discard Ts", "discard Kc"):
        s.push(a)
    view = PlayerView.of(s, 3)
    rng = random.Random(9)
    n = 1800
    buried = sum(view.resample(rng).gifts[0].discard == Card.parse("Jd") for _ in range(n))
    assert abs(buried / n - 1 / 6) < 0.03


def farmer_state(rng_seed: int) -> State:
    """Seat 2 claims the farmer's hand (9c Tc 9d Td 9h), gives 9c 9d 9h and takes Js Qs Ks."""
    deal = Deal(0, tuple(tuple(Card.parse(c) for c in h.split()) for h in
                         ("Jh Qh Kh 9s Ts", "Jc Qc Kc Ac Ad", "9c Tc 9d Td 9h", "Jd Qd Kd Th Ah")),
                Card.parse("As"), tuple(Card.parse(c) for c in ("Js", "Qs", "Ks")))
    s = State.from_deal(Rules(farmers_hand=True), deal)
    for a in ("farmer", "discard 9c", "discard 9d", "discard 9h"):
        s.push(a)
    return s


def test_the_farmers_cards_are_the_farmers_and_the_stock_holds_three_nines_and_tens() -> None:
    """Only the farmer knows what it gave and took; to the others the stock is three of the 9s and
    10s they have not seen, each as likely (RULES-FAMILY.md 12.3, 12.7)."""
    s = farmer_state(0)
    rng = random.Random(5)
    farmer = PlayerView.of(s, 2)
    for _ in range(30):
        sample = farmer.resample(rng)
        assert sample.farmer_gave == s.farmer_gave and set(sample.deal.stock) == set(s.deal.stock)
        assert sample.hands[2] == s.hands[2]
    view = PlayerView.of(s, 0)  # holds 9s Ts: unseen 9s and 10s are 9c Tc 9d Td 9h Th
    unseen = NINES_TENS - set(view.hand) - {view.up_card}
    assert len(unseen) == 6
    counts: Counter[Card] = Counter()
    n = 1200
    for _ in range(n):
        sample = view.resample(rng)
        assert set(sample.farmer_gave) <= unseen and set(sample.deal.hands[2]) <= NINES_TENS
        counts.update(sample.farmer_gave)
    for c in unseen:
        assert abs(counts[c] / n - 3 / 6) < 0.06, (c, counts[c] / n)


def test_a_misdeal_shows_the_callers_cards_and_nothing_else() -> None:
    deal = Deal(0, tuple(tuple(Card.parse(c) for c in h.split()) for h in
                         ("Jd Qd Kd Jh Qh", "9c Tc 9d Ad Th", "Ac Jc Qc Kc As", "9h Ah 9s Ts Td")),
                Card.parse("Kh"), tuple(Card.parse(c) for c in ("Js", "Qs", "Ks")))
    s = State.from_deal(Rules(ace_no_face=True), deal)
    s.push("keep")  # seat 1 (seen by seat 1 alone)
    s.push("misdeal")  # seat 3
    rng = random.Random(2)
    hands: Counter[int] = Counter()
    for _ in range(60):
        sample = PlayerView.of(s, 0).resample(rng)
        assert sample.misdealt and set(sample.deal.hands[3]) == set(deal.hands[3])
        assert set(sample.deal.hands[0]) == set(deal.hands[0])
        hands[sample.hands[1]] += 1
    assert len(hands) > 20  # seat 1's kept hand is not leaked


def test_a_redeal_is_known_to_a_seat_that_saw_no_offer_for_its_weak_hand() -> None:
    """After a misdeal the same dealer deals again without ace-no-face offers (12.4): a seat whose
    hand would have been offered one, and saw none, is in such a redeal, and so are its samples."""
    deal = Deal(0, tuple(tuple(Card.parse(c) for c in h.split()) for h in
                         ("Jd Qd Kd Jh Qh", "9c Tc 9d Ad Th", "Ac Jc Qc Kc As", "9h Qs 9s Ts Td")),
                Card.parse("Kh"), tuple(Card.parse(c) for c in ("Js", "Ah", "Ks")))
    s = State.from_deal(Rules(ace_no_face=True), deal, after_misdeal=True)
    s.push("pass")
    sample = PlayerView.of(s, 1).resample(random.Random(1))
    assert sample.after_misdeal and sample.history == s.history
    fresh = State.from_deal(Rules(ace_no_face=True), deal)
    assert PlayerView.of(fresh, 1).resample(random.Random(1)).phase is Phase.MISDEAL_OFFER


def test_a_pending_offer_or_gift_is_resampled_where_it_stands() -> None:
    """While another seat's offer (or a call for best between two others) is pending, a view shows
    no seat to act; its samples stand at such an offer (or gift) of another seat."""
    s = farmer_state(0)
    while s.history:
        s.pop()
    assert s.phase is Phase.FARMER_OFFER and s.to_act == 2
    view = PlayerView.of(s, 1)
    assert view.phase is Phase.OFFERS
    for i in range(20):
        sample = view.resample(random.Random(i))
        assert sample.phase is Phase.FARMER_OFFER and sample.to_act != 1
        assert set(sample.hand(sample.to_act)) <= NINES_TENS
    s = State(Rules(call_for_best=True, best_card_free=True), dealer=0,
              hands=["As Ks Qs Js Ts", "Jh Ah Kh Ac Kc", "9s Ad Kd Qd Qc", "Jd Qh 9c 9d Td"], up_card="Th")
    for a in ("order alone", "discard Ts"):
        s.push(a)
    assert s.phase is Phase.GIVE
    view = PlayerView.of(s, 2)
    assert view.phase is Phase.CALL_FOR_BEST
    for i in range(20):
        sample = view.resample(random.Random(i))
        assert sample.phase is Phase.GIVE and sample.to_act == 3 and PlayerView.of(sample, 2) == view


def test_double_deck_samples_look_the_same_from_the_seat() -> None:
    """The double deck (RULES-FAMILY.md 15): a hand holds and plays two copies of a card, which
    no view tells apart, so a sample's hands are counted by face; every view of many hands, its
    moons' exchanges included, resamples to itself, voids kept, each copy dealt once."""
    rules = Rules.preset("bid-euchre-double")
    rng = random.Random(11)
    checked = moons = 0
    for g in range(4):
        s = State.random(rules, dealer=g, rng=rng)
        bots = [make_bot("heuristic" if (g + i) % 3 else "random", seed=g * 10 + i) for i in range(4)]
        while not s.is_over:
            for seat in range(4):
                view = PlayerView.of(s, seat)
                moons += view.moon and view.trump is not None
                sample = view.resample(rng)
                assert PlayerView.of(sample, seat) == view
                for other, mask in view.voids().items():
                    assert not any(mask >> face(c) & 1 for c in iter_mask(sample.hands[other]))
                counts = Counter(face(c) for m in sample.hands for c in iter_mask(m))
                played = Counter(face(c) for tr in view.tricks for _, c in tr.plays) + \
                    Counter(face(c) for _, c in view.trick)
                out = Counter(face(g.discard) for g in sample.gifts if g.discard is not None)
                assert counts + played + out == Counter({c: 2 for c in deck_cards(24)})
                checked += 1
            s.push(bots[s.to_act].choose(PlayerView.of(s, s.to_act)))
    assert checked > 500 and moons > 50, (checked, moons)


def test_a_suit_only_one_seat_may_hold_all_goes_to_it() -> None:
    """The fallback deal when rejection sampling fails: the double deck's fourth trick with five
    club copies unseen, two of the three other seats void in clubs and the third void in spades
    (found by an arena game whose expert could not sample it: the greedy deal gave the third seat
    its eight cards at random, all five clubs among them about one time in a hundred). Every club
    must go to the one seat that may hold clubs, and the deal is still random."""
    from euchre.view import _checked_fill

    clubs, spades, others = list(range(0, 5)), list(range(5, 11)), list(range(11, 23))
    pool = clubs + spades + others
    club_mask = sum(1 << c for c in clubs)
    spade_mask = sum(1 << c for c in spades)
    need = [7, 0, 8, 8]
    voids = {0: club_mask, 2: club_mask, 3: spade_mask}
    hands_of_3 = set()
    for seed in range(40):
        fill = PlayerView._constrained_fill if seed % 2 else _checked_fill  # (the greedy fails 4 times in 10)
        got = fill(pool, [0, 2, 3], need, voids, False, random.Random(seed))
        assert got is not None
        deal, _ = got
        assert sorted(c for cs in deal.values() for c in cs) == pool
        assert all(len(deal[s]) == need[s] and not any(voids[s] >> c & 1 for c in deal[s]) for s in (0, 2, 3))
        assert set(clubs) <= set(deal[3])
        hands_of_3.add(tuple(sorted(deal[3])))
    assert len(hands_of_3) > 10
    # No consistent deal: no seat may hold the clubs, and every card must be dealt.
    voids[3] = club_mask
    assert _checked_fill(pool, [0, 2, 3], need, voids, False, random.Random(1)) is None


def test_the_checked_fill_deals_whenever_a_deal_exists() -> None:
    """Small random problems (cards, seats, voids, cards no seat gets): the checked fill finds a
    consistent deal exactly when brute force finds one."""
    from itertools import product

    from euchre.view import _checked_fill

    rng = random.Random(3)
    found = 0
    for _ in range(300):
        k = rng.randint(1, 3)
        seats = list(range(k))
        pool = list(range(rng.randint(2, 6)))
        need = [rng.randint(0, 2) for _ in seats]
        if sum(need) > len(pool):
            continue
        voids = {s: sum(1 << c for c in pool if rng.random() < 0.4) for s in seats}
        spare = len(pool) - sum(need)

        def ok(places: tuple[int, ...], need: list[int] = need, voids: dict[int, int] = voids,
               spare: int = spare) -> bool:
            return (all(places.count(s) == need[s] for s in range(len(need))) and places.count(-1) == spare
                    and all(p < 0 or not voids[p] >> c & 1 for c, p in enumerate(places)))

        exists = any(ok(places) for places in product([-1, *seats], repeat=len(pool)))
        got = _checked_fill(pool, seats, need, voids, spare > 0, random.Random(1))
        assert (got is not None) == exists
        if got is not None:
            deal, buried = got
            places = [-1] * len(pool)
            for s, cs in deal.items():
                for c in cs:
                    places[c] = s
            assert ok(tuple(places))
            assert (buried is None) == (spare == 0) and (buried is None or places[buried] == -1)
            found += 1
    assert found > 50
