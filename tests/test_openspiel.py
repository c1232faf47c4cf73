"""Cross-check against OpenSpiel's ``euchre`` (the C++ engine, through ``pyspiel``).

Thousands of random American hands are set up identically in both engines and played with the
same decisions, chosen at random among *our* legal actions and translated. At every decision both
engines must agree on who acts and on the legal actions (in a common form), and at the end on the
points. The documented differences between the engines (docs/openspiel.md) are mapped, never
ignored silently:

(a) our alone declaration is part of the bid; OpenSpiel asks the maker ``29`` alone / ``30`` with
    partner after the dealer's discard. Bids are compared with the alone flag dropped, and the
    flag is replayed at OpenSpiel's alone decision.
(b) OpenSpiel never lets the dealer discard the up card: we play with
    ``dealer_may_discard_up_card=False``.
(c) when the dealer's partner orders up alone, our dealer sits out without picking up (RULES.md
    section 4); OpenSpiel's dealer still picks up and discards. That one OpenSpiel decision is
    played without comparison (the dealer's cards are never played); the rest of the hand is
    compared.
(d) OpenSpiel offers each defender a lone defence after *every* bid; ours only against a loner
    (RULES.md section 6). Against a maker with a partner, OpenSpiel's offers are answered "no"
    without comparison; against a loner they are compared.
(e) stick the dealer is run in both settings.

A failure names the variant, the seed and the hand, and replays alone with that parameter.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, Action
from euchre.openspiel import OS_ALONE, OS_PARTNER, OS_PASS, chance_outcomes, os_card, our_card
from euchre.openspiel import os_common as common
from euchre.rules import Rules
from euchre.state import Phase, State

pyspiel = pytest.importorskip("pyspiel")

VARIANTS = {
    # name: (stick_the_dealer, lone defence)
    "plain": (False, False),
    "stick": (True, False),
    "defend": (False, True),
    "stick+defend": (True, True),
}
SEEDS = range(25)
HANDS_PER_SEED = 250


def test_card_mapping_round_trips() -> None:
    from euchre.cards import Card, deck_cards

    ids = [os_card(c) for c in deck_cards(24)]
    assert sorted(ids) == list(range(24))
    assert all(our_card(os_card(c)) == c for c in deck_cards(24))
    assert os_card(Card.parse("9c")) == 0 and os_card(Card.parse("As")) == 23
    assert os_card(Card.parse("Jd")) == 9  # OpenSpiel prints it "DJ"


def rules_for(variant: str) -> Rules:
    stick, defend = VARIANTS[variant]
    return Rules(stick_the_dealer=stick, defend_alone=defend, dealer_may_discard_up_card=False)


def game_for(variant: str):  # -> pyspiel.Game
    stick, defend = VARIANTS[variant]
    return pyspiel.load_game(f"euchre(stick_the_dealer={str(stick).lower()},"
                             f"allow_lone_defender={str(defend).lower()})")


def setup_openspiel(game, s: State):  # (pyspiel.Game, State) -> pyspiel.State
    """OpenSpiel positioned at the same deal (see euchre.openspiel.chance_outcomes)."""
    os_state = game.new_initial_state()
    for a in chance_outcomes(s):
        assert os_state.is_chance_node()
        os_state.apply_action_with_legality_check(a)
    return os_state


def choose(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action, biased towards passing (so that round 2, thrown-in hands and stick
    the dealer occur), towards not defending alone and towards bids with the partner."""
    if legal[0] == PASS and len(legal) > 1:
        if rng.random() < (0.6 if DEFEND_ALONE in legal else 0.7):
            return PASS
        legal = legal[1:]
    if legal[0].is_bid:
        alone = rng.random() < 0.25
        legal = [x for x in legal if x.alone == alone] or legal
    return rng.choice(legal)


def play_hand(variant: str, rules: Rules, game, seed: int, index: int, stats: Counter) -> None:
    """Play one random hand in both engines, comparing every decision and the points."""
    where = f"variant={variant} seed={seed} hand={index}"
    rng = random.Random(f"{variant}/{seed}/{index}")
    s = State.random(rules, dealer=rng.randrange(4), rng=rng)
    o = setup_openspiel(game, s)
    up_suit = s.up_card >> 3
    alone_pending: bool | None = None  # our maker's alone flag, until OpenSpiel asks for it
    while not s.is_over:
        legal = s.legal_actions()
        cur = o.current_player()
        os_legal = o.legal_actions()
        if alone_pending is not None and s.phase is not Phase.DISCARD:
            if os_legal and os_legal[0] < OS_PASS:
                # (c) OpenSpiel's dealer discards although ours sits out: played, not compared.
                assert s.alone and s.maker == (s.dealer + 2) % 4 and not s.up_card_taken, where
                assert cur == s.dealer, where
                o.apply_action_with_legality_check(rng.choice(os_legal))
                stats["partner loner: OpenSpiel discard not compared"] += 1
                continue
            # (a) OpenSpiel's alone decision, after the discard: replay our bid's alone flag.
            assert cur == s.maker, f"{where}: OpenSpiel asks seat {cur} alone/partner, maker {s.maker}"
            assert os_legal == [OS_ALONE, OS_PARTNER], f"{where}: {os_legal}"
            o.apply_action_with_legality_check(OS_ALONE if alone_pending else OS_PARTNER)
            stats["alone" if alone_pending else "with partner"] += 1
            alone_pending = None
            continue
        # (d) OpenSpiel's lone-defence offers against a maker with partner: not ours, answer no.
        if s.phase is Phase.PLAY and os_legal == [OS_ALONE, OS_PARTNER] and not s.alone:
            assert cur % 2 != s.maker % 2, where
            o.apply_action_with_legality_check(OS_PARTNER)
            stats["OpenSpiel defend offer vs partnership not compared"] += 1
            continue
        assert cur == s.to_act, f"{where}: to act: ours {s.to_act}, OpenSpiel {cur} ({s!r})"
        if s.phase is Phase.DEFEND:
            assert sorted(legal) == [PASS, DEFEND_ALONE], where
            assert os_legal == [OS_ALONE, OS_PARTNER], f"{where}: {os_legal}"
            a = choose(legal, rng)
            o.apply_action_with_legality_check(OS_ALONE if a == DEFEND_ALONE else OS_PARTNER)
            stats["defend alone" if a == DEFEND_ALONE else "defend no"] += 1
            s.push(a)
            continue
        ours = sorted({common(x, up_suit) for x in legal})
        assert ours == sorted(os_legal), (
            f"{where}: {s.phase.name} seat {s.to_act}: ours {[str(x) for x in legal]} -> {ours}, "
            f"OpenSpiel {os_legal}")
        if s.phase in (Phase.BID1, Phase.BID2):
            # Both alone flags of every bid are open to us, as both 29 and 30 are to OpenSpiel.
            bids = [x for x in legal if x != PASS]
            assert sum(x.alone for x in bids) * 2 == len(bids), where
        a = choose(legal, rng)
        s.push(a)
        o.apply_action_with_legality_check(common(a, up_suit))
        if a.is_bid and a != PASS:
            alone_pending = a.alone
            stats["round 1 bid" if a in (ORDER, ORDER_ALONE) else "round 2 bid"] += 1
            if PASS not in legal:
                stats["forced bid (stick the dealer)"] += 1
        elif s.thrown_in:
            stats["thrown in"] += 1
    assert o.is_terminal(), f"{where}: OpenSpiel still at {o.current_player()} ({o.legal_actions()})"
    returns = o.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3] and returns[0] == -returns[1], where
    expected = (max(int(returns[0]), 0), max(int(returns[1]), 0))
    assert s.points == expected, f"{where}: points ours {s.points}, OpenSpiel returns {returns}"
    stats["hands"] += 1
    stats[f"points {s.points}"] += 1


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_hands_agree(variant: str, seed: int) -> None:
    rules, game = rules_for(variant), game_for(variant)
    stats: Counter = Counter()
    for i in range(HANDS_PER_SEED):
        play_hand(variant, rules, game, seed, i, stats)
    assert stats["hands"] == HANDS_PER_SEED
    # Only single decisions are ever left uncompared, in a small share of the hands.
    uncompared = stats["partner loner: OpenSpiel discard not compared"]
    assert uncompared <= HANDS_PER_SEED // 12, stats


def test_cross_check_covers_the_differences() -> None:
    """The random decisions reach every mapped case: both bidding rounds, thrown-in hands (or
    stick the dealer's forced bid), loners, lone defence, the dealer's partner alone, marches and
    euchres."""
    totals: Counter = Counter()
    for variant in VARIANTS:
        rules, game = rules_for(variant), game_for(variant)
        stats: Counter = Counter()
        for i in range(400):
            play_hand(variant, rules, game, 10_000, i, stats)
        totals.update(stats)
        assert stats["round 2 bid"] > 0, (variant, stats)
        if VARIANTS[variant][0]:
            assert stats["thrown in"] == 0 and stats["forced bid (stick the dealer)"] > 0, (variant, stats)
        else:
            assert stats["thrown in"] > 0, (variant, stats)
        if VARIANTS[variant][1]:
            assert stats["defend alone"] > 0 and stats["defend no"] > 0, (variant, stats)
            assert stats["OpenSpiel defend offer vs partnership not compared"] > 0, (variant, stats)
    assert totals["alone"] > 0 and totals["with partner"] > 0, totals
    assert totals["partner loner: OpenSpiel discard not compared"] > 0, totals
    for pts in ((1, 0), (0, 1), (2, 0), (0, 2), (4, 0), (0, 4)):
        assert totals[f"points {pts}"] > 0, (pts, totals)
