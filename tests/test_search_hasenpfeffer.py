"""The search bot plays Hasenpfeffer (RULES-FAMILY.md 14): the exact solver on six-card hands
against a brute-force minimax written here, resampling that agrees with each seat's view (the
unused card unseen, the forced bid's Joker), the bot's bids and namings of trump on named deals,
and hints and game review, repeatable."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.actions import PASS, Kind
from euchre.analyze import analyze_game
from euchre.bots import make_bot
from euchre.cards import JOKER, Card, effective_suit, iter_mask, mask_of
from euchre.hints import hint
from euchre.solver import Solver, thresholds
from euchre.state import Deal, Phase, State
from euchre.view import PlayerView

HP = Rules.preset("hasenpfeffer")
HPD = Rules.preset("hasenpfeffer", defenders_score_tricks=True)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def deal(hands: Sequence[str], unused: str, dealer: int = 3) -> Deal:
    return Deal(dealer, tuple(cards(h) for h in hands), None, cards(unused))


def minimax(s: State) -> int:
    """The maker's final tricks by plain minimax over the engine's moves (no pruning, no tables)."""
    if s.is_over:
        return s.maker_tricks()
    makers = s.side_of(s.to_act) == s.side_of(s.maker)
    values = []
    for a in s.legal_actions():
        s._push(a)
        values.append(minimax(s))
        s.pop()
    return max(values) if makers else min(values)


def random_ending(rules: Rules, seed: int, tricks: int, extra: int) -> State | None:
    """A random hand bid and named at random, then played at random for ``tricks`` tricks and
    ``extra`` cards more; ``None`` if the hand was thrown in."""
    rng = random.Random(seed)
    s = State.random(rules, dealer=rng.randrange(4), rng=rng)
    while s.phase is not Phase.PLAY:
        if s.is_over:
            return None
        s.push(rng.choice(s.legal_actions()))
    for _ in range(4 * tricks + extra):
        s.push(rng.choice(s.legal_actions()))
    return s


# --- the solver ----------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=st.integers(0, 10**9), tricks=st.integers(2, 4), extra=st.integers(0, 3), defenders=st.booleans())
def test_solver_agrees_with_minimax_on_six_card_endings(seed: int, tricks: int, extra: int, defenders: bool) -> None:
    s = random_ending(HPD if defenders else HP, seed, tricks, extra)
    if s is None:
        return
    solver = Solver()
    exact = minimax(s.copy(stack=False))
    assert solver.solve(s) == exact
    assert s.score_for(solver.outcome(s)) == s.score_for(exact)
    values = solver.action_values(s)
    outcomes = solver.action_outcomes(s)
    for a in s.legal_actions():
        s._push(a)
        assert values[a] == minimax(s.copy(stack=False))
        s.pop()
        assert s.score_for(outcomes[a]) == s.score_for(values[a])


def test_a_full_six_card_hand_is_solved() -> None:
    # Seat 1 holds the Joker and the five top diamonds: all six tricks with diamonds trump.
    s = State.from_deal(HP, deal(["9c Tc Qc Kc Ac 9h", "Jk Jd Jh Ad Kd Qd", "Jc Js Th Qh Kh Ah",
                                  "9d Td 9s Ts Qs Ks"], "As"))
    for a in ("pass", "bid 2", "pass", "pass", "call d"):
        s.push(a)
    solver = Solver()
    assert solver.solve(s) == 6
    assert solver.points(s) == (0, 6) or solver.points(s) == (6, 0)
    assert s.score_for(solver.outcome(s)) == s.score_for(6)
    assert solver.sweeps(s, True)  # the claim test: the makers take every trick


def test_thresholds_follow_the_trick_scoring() -> None:
    s = State.from_deal(HP, deal(["9c Tc Qc Kc Ac 9h", "Jk Jd Jh Ad Kd Qd", "Jc Js Th Qh Kh Ah",
                                  "9d Td 9s Ts Qs Ks"], "As"))
    for a in ("pass", "bid 4", "pass", "pass", "call d"):
        s.push(a)
    assert thresholds(s) == (4, 5, 6)  # under the bid the makers lose 4; from it each trick counts
    american = State.random(Rules(), dealer=0, rng=random.Random(4))
    american.push("order")
    american.push(american.legal_actions()[0])
    assert thresholds(american) == (3, 5)


# --- resampling ----------------------------------------------------------------------------------------------
def test_samples_look_the_same_from_every_seat() -> None:
    rng = random.Random(7)
    for g in range(10):
        rules = HPD if g % 2 else HP
        s = State.random(rules, dealer=g % 4, rng=rng)
        bots = [make_bot("heuristic" if (g + i) % 3 else "random", seed=g * 10 + i) for i in range(4)]
        while not s.is_over:
            for seat in range(4):
                view = PlayerView.of(s, seat)
                sample = view.resample(rng)
                assert PlayerView.of(sample, seat) == view
                for other, mask in view.voids().items():
                    assert not sample.hands[other] & mask
                held = 0
                for m in sample.hands:
                    held |= m
                assert not held & mask_of(sample.deal.stock)  # nobody holds the unused card
                assert len(sample.deal.stock) == 1
            s.push(bots[s.to_act].choose(PlayerView.of(s, s.to_act)))


# All pass: seat 2 holds the Joker and is made to bid 3, which tells everyone where it is.
WEAK = deal(["9c Tc 9d Td 9s Ts", "Qc Kc Qd Kd Qs Ks", "Jk 9h Th Qh Kh Ac", "Jc Jd Js Jh Ad As"], "Ah")


def test_a_forced_bid_puts_the_joker_with_the_bidder_in_every_sample() -> None:
    s = State.from_deal(HP, WEAK)
    for _ in range(4):
        s.push(PASS)
    assert s.forced_bid and s.bidder == 2
    s.push("call h")
    unused = Counter()
    for seat in (0, 1, 3):
        view = PlayerView.of(s, seat)
        for i in range(150):
            sample = view.resample(random.Random(i))
            assert sample.hands[2] >> JOKER & 1
            assert PlayerView.of(sample, seat) == view
            if seat == 0:
                unused[sample.deal.stock[0]] += 1
    # The unused card is any card seat 0 cannot see but the Joker, about equally often.
    assert set(unused) == set(iter_mask(PlayerView.of(s, 0).unseen_mask())) - {JOKER}
    assert max(unused.values()) < 6 * min(unused.values())


def test_before_any_bid_the_joker_may_be_anywhere_unseen() -> None:
    s = State.from_deal(HP, WEAK)
    view = PlayerView.of(s, 0)
    where = Counter()
    for i in range(400):
        sample = view.resample(random.Random(i))
        where[next((p for p in range(4) if sample.hands[p] >> JOKER & 1), -1)] += 1
    assert set(where) == {1, 2, 3, -1}  # a hand, or the unused card
    assert where[-1] < where[1]


# --- the bot's decisions -------------------------------------------------------------------------------------
def bot(seed: int = 1) -> object:
    return make_bot("search", seed=seed, samples=40, auction_samples=24)


# Seat 0 (first to bid) holds the Joker, both red bowers and the ace, king and queen of hearts.
STRONG = deal(["Jk Jh Jd Ah Kh Qh", "9c Tc Qc Kc Ac 9s", "Jc Js Ts Qs Ks As", "9d Td Qd Kd Ad Th"], "9h")
# Seat 0 holds nothing: no Joker, no bower, no ace, no king.
HOPELESS = deal(["9c Tc 9d Td 9s Ts", "Jk Jh Jd Ah Kh Qh", "Jc Js Qs Ks As Ac", "Qd Kd Ad Th Kc Qc"], "9h")


def test_a_hand_with_the_joker_and_both_bowers_bids_high_and_names_its_suit() -> None:
    # The six top hearts take every trick: any bid the others will not top scores 6, so the bot
    # bids enough to keep the others out (the heuristic player bids 4 on less), and no more than
    # the margin per trick bid asks.
    s = State.from_deal(HP, STRONG)
    b = bot()
    view = PlayerView.of(s, 0)
    choice = b.choose(view)  # type: ignore[attr-defined]
    assert choice.kind is Kind.BID and choice.tricks is not None and choice.tricks >= 4
    best = next(e for e in b.evaluate(view) if e.action == choice)  # type: ignore[attr-defined]
    assert best.points >= 5.0  # an opponent may still top it on a sampled deal
    s.push(choice)
    while s.phase is Phase.AUCTION:
        s.push(PASS)
    assert s.phase is Phase.NAME_TRUMP and s.to_act == 0
    assert str(b.choose(PlayerView.of(s, 0))) == "call h"  # type: ignore[attr-defined]


def test_a_hopeless_hand_does_not_bid_over_a_strong_opponent() -> None:
    s = State.from_deal(HP, HOPELESS)
    s.push("pass")  # seat 0 passes; seat 1 (the Joker and both red bowers) bids 5
    s.push("bid 5")
    s.push("pass")
    view = PlayerView.of(s, 3)  # seat 3, with no trump worth the name, must not bid 6
    assert bot().choose(view) == PASS  # type: ignore[attr-defined]


def test_the_first_hopeless_hand_passes_or_bids_low() -> None:
    # A weak opener may bid to keep the opponents out (the defenders score nothing), but never
    # more than it could hope to take with its partner's help.
    s = State.from_deal(HP, HOPELESS)
    choice = bot().choose(PlayerView.of(s, 0))  # type: ignore[attr-defined]
    assert choice == PASS or (choice.tricks is not None and choice.tricks <= 4)


def test_the_bot_plays_a_game_of_legal_moves() -> None:
    b = make_bot("search", seed=3, samples=8, auction_samples=4)
    game = Game(HP, seed=11)
    while not game.is_over and len(game.hands) < 3:
        action = b.choose(game.view(game.to_act))
        assert action in game.legal_actions()
        game.push(action)


# --- hints and review ----------------------------------------------------------------------------------------
def test_a_hint_is_the_same_asked_twice() -> None:
    s = State.from_deal(HP, STRONG)
    view = PlayerView.of(s, 0)
    first = hint(view, auction_samples=16)
    assert first == hint(view, auction_samples=16)
    assert first[0].action.kind is Kind.BID
    s.push(first[0].action)
    while s.phase is not Phase.PLAY:
        s.push(s.legal_actions()[0] if s.to_act != 0 else "call h")
    play = PlayerView.of(s, s.to_act)
    assert hint(play, samples=60) == hint(play, samples=60)


def test_a_hasenpfeffer_game_is_reviewed() -> None:
    game = Game(HP, deals=[STRONG], seed=5)
    rng = random.Random(2)
    while len(game.hands) == 1 and not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    review = analyze_game(game, samples=8, bid_samples=4)
    assert review.decisions
    assert all(d.loss >= 0 for d in review.decisions)
    assert {d.phase for d in review.decisions} >= {Phase.AUCTION, Phase.PLAY}


def test_voids_shown_in_play_hold_in_the_samples() -> None:
    s = State.from_deal(HP, STRONG)
    for a in ("bid 3", "pass", "pass", "pass", "call h", "play Jk"):
        s.push(a)
    # Seats 1 and 2 hold no heart: they cannot follow the Joker (a heart as trump).
    s.push(s.legal_actions()[0])
    s.push(s.legal_actions()[0])
    view = PlayerView.of(s, 3)
    assert {1, 2} <= set(view.voids())
    for i in range(60):
        sample = view.resample(random.Random(i))
        for seat in (1, 2):
            assert not any(effective_suit(c, 2) == 2 for c in iter_mask(sample.hands[seat]))
