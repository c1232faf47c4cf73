"""``PlayerView.resample``: deals of the unseen cards that agree with everything a seat knows.

A sample must be indistinguishable from the real hand from the seat's chair (its view of the
sample equals its view of the real hand, at every point of many bot-played hands, for every
preset and for the switches that move cards: the dealer burying the up card, lone defence), must
respect the voids shown in play, and must be uniform over the consistent deals.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from euchre import Rules, State
from euchre.bots import make_bot
from euchre.cards import Card
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


def test_samples_are_uniform_at_the_start() -> None:
    # Before any action, seat 0 sees 5 cards and the up card; each of the 18 others is in seat 1's
    # hand with probability 5/18.
    s = State.random(Rules(), dealer=3, rng=random.Random(2))
    view = PlayerView.of(s, 0)
    rng = random.Random(3)
    counts: Counter[int] = Counter()
    n = 3000
    for _ in range(n):
        hand = view.resample(rng).hands[1]
        counts.update(c for c in range(33) if hand >> c & 1)
    assert len(counts) == 18
    for c, k in counts.items():
        assert abs(k / n - 5 / 18) < 0.04, (Card(c), k / n)
