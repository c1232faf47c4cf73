"""Game-level rules (RULES.md sections 3 and 7): dealer rotation, the ways a game ends, ties,
the injectable clock, seeded determinism and undo across hand boundaries."""

from __future__ import annotations

import random

import pytest

from euchre import Deal, Game, IllegalActionError, Phase, Rules, State
from euchre.cards import Card

AMERICAN = Rules.preset("american")
BASE = ["Tc Jc Qs Ks 9d", "Jh Jd Ah Kh Qh", "Ac Kc Qc 9c Ts", "Th As Js 9s Ad"]
# Seat (dealer + 1) holds the five best hearts: ordering it up and leading trumps marches.
MARCH = ["order", "discard 9d", "play Jh", "play 9c", "play Th", "play 9h", "play Jd", "play Ts", "play 9s",
         "play Tc", "play Ah", "play Qc", "play Js", "play Jc", "play Kh", "play Kc", "play As", "play Qs",
         "play Qh", "play Ac", "play Ad", "play Ks"]


class FakeClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def base_deal(dealer: int) -> Deal:
    """BASE rotated so that ``dealer`` deals and the seat to its left holds the big hearts."""
    hands = [()] * 4
    for seat, cards in enumerate(BASE):
        hands[(seat + dealer) % 4] = tuple(Card.parse(c) for c in cards.split())
    return Deal(dealer, tuple(hands), Card.parse("9h"), tuple(Card.parse(c) for c in "Td Qd Kd".split()))


def pass_all(game: Game) -> None:
    """Everyone passes twice: the hand is thrown in."""
    start = game.hand_number
    while game.hand_number == start and not game.is_over:
        game.push("pass")


def play_hand(game: Game, rng: random.Random) -> None:
    """Play the current hand to its end with random legal actions."""
    start = game.hand_number
    while game.hand_number == start and not game.is_over:
        game.push(rng.choice(game.legal_actions()))


# --- dealer ---------------------------------------------------------------------------------------
def test_first_dealer_is_seeded() -> None:
    dealers = {Game(AMERICAN, seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert all(Game(AMERICAN, seed=s).first_dealer == Game(AMERICAN, seed=s).first_dealer for s in range(10))


def test_deal_passes_left_including_after_thrown_in_hands() -> None:
    g = Game(AMERICAN, seed=3, dealer=2)
    dealers = [g.state.dealer]
    for _ in range(5):
        pass_all(g)
        dealers.append(g.state.dealer)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert g.scores == [0, 0] and g.played_hands == 0 and not g.is_over
    assert all(h.thrown_in for h in g.hands[:-1])
    # after a played hand too
    g = Game(AMERICAN, seed=3, dealer=1, deals=[base_deal(1)])
    for a in MARCH:
        g.push(a)
    assert g.hands[0].points == (2, 0)  # seat 2 (side 0) marched
    assert g.state.dealer == 2 and g.state.phase is Phase.BID1 and g.state.to_act == 3


@pytest.mark.parametrize("preset", ["two-handed", "cut-throat"])
def test_deal_rotates_among_all_seats(preset: str) -> None:
    rules = Rules.preset(preset)
    g = Game(rules, seed=1, dealer=0)
    dealers = [0]
    for _ in range(rules.players * 2):
        pass_all(g)
        dealers.append(g.state.dealer)
    assert dealers == [i % rules.players for i in range(rules.players * 2 + 1)]


# --- target games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset, target", [("american", 10), ("british", 11), ("long", 15),
                                            ("two-handed", 10), ("cut-throat", 10)])
def test_points_game_ends_at_the_target(preset: str, target: int) -> None:
    rules = Rules.preset(preset)
    assert rules.target == target
    for seed in range(3):
        g = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            before = list(g.scores)
            play_hand(g, rng)
            assert sum(g.scores) >= sum(before)
            if not g.is_over:
                top = max(g.scores)
                assert top < target or g.scores.count(top) > 1
        assert max(g.scores) >= target
        assert g.winner is not None and g.scores[g.winner] == max(g.scores)
        assert g.scores.count(max(g.scores)) == 1
        assert g.legal_actions() == [] and g.to_act == -1
        with pytest.raises(IllegalActionError, match="game is over"):
            g.push("pass")
        assert g.scores == [sum(h.points[i] for h in g.hands) for i in range(rules.sides)]


def test_any_target_can_be_set_and_a_march_ends_a_game_to_two() -> None:
    g = Game(Rules.preset("american", target=2), seed=0, dealer=0, deals=[base_deal(0)])
    for a in MARCH[:-1]:
        g.push(a)
    assert not g.is_over
    g.push(MARCH[-1])
    assert g.is_over and g.winner == 1 and g.scores == [0, 2]
    assert len(g.hands) == 1  # no next hand is dealt
    assert "side 1 wins" in g.summary()


def test_one_point_short_of_the_target_continues() -> None:
    g = Game(Rules.preset("american", target=3), seed=0, dealer=0, deals=[base_deal(0)])
    for a in MARCH:
        g.push(a)
    assert not g.is_over and g.scores == [0, 2] and g.hand_number == 1


CUT = ["Td Qd Kd Ad Ts", "Jh Jd Ah Kh Qh", "Tc Jc Qc Kc Ac"]
CUT_EUCHRE = ["pass", "order", "discard Ts", "play Jh", "play Tc", "play Th", "play Jd", "play Jc", "play Td",
              "play Ah", "play Qc", "play Qd", "play Kh", "play Kc", "play Kd", "play Qh", "play Ac", "play Ad"]


def cut_deal() -> Deal:
    return State(Rules.preset("cut-throat"), dealer=0, hands=CUT, up_card="Th").deal


def test_cut_throat_no_tie_for_first_play_continues() -> None:
    rules = Rules.preset("cut-throat", target=2)
    g = Game(rules, seed=5, deals=[cut_deal()])
    for a in CUT_EUCHRE:
        g.push(a)
    assert g.hands[0].points == (2, 2, 0)  # the maker (seat 2) was euchred: each opponent 2
    assert g.scores == [2, 2, 0]
    assert not g.is_over and g.winner is None  # both defenders reached the target with equal scores
    assert g.state.dealer == 1
    rng = random.Random(1)
    while not g.is_over:
        play_hand(g, rng)
    top = max(g.scores)
    assert g.scores.count(top) == 1 and g.winner == g.scores.index(top)


def test_tie_break_false_ends_tied() -> None:
    rules = Rules.preset("cut-throat", target=2, tie_break=False)
    g = Game(rules, seed=5, deals=[cut_deal()])
    for a in CUT_EUCHRE:
        g.push(a)
    assert g.is_over and g.winners == (0, 1) and g.winner is None
    assert "tied" in g.summary()


# --- timed games ----------------------------------------------------------------------------------------
def test_timed_game_ends_at_the_first_hand_end_after_the_duration() -> None:
    clock = FakeClock()
    rules = Rules.preset("timed", duration=1)  # one minute
    assert rules.target is None and rules.duration == 1
    g = Game(rules, seed=2, dealer=0, clock=clock, deals=[base_deal(0)])
    clock.now += 59
    for a in MARCH:
        g.push(a)
    assert not g.is_over and g.scores == [0, 2] and g.elapsed == [59]
    clock.now += 1  # exactly the duration
    pass_all(g)  # a thrown-in hand ends too, and is timed
    assert g.is_over and g.winner == 1 and g.elapsed == [59, 60]


def test_timed_game_is_not_over_during_a_hand() -> None:
    clock = FakeClock()
    g = Game(Rules.preset("timed", duration=1), seed=2, dealer=0, clock=clock, deals=[base_deal(0)])
    clock.now += 3600
    for a in MARCH[:-1]:
        g.push(a)
    assert not g.is_over
    g.push(MARCH[-1])
    assert g.is_over and g.winner == 1


def test_timed_game_tie_continues_hand_by_hand() -> None:
    clock = FakeClock()
    g = Game(Rules.preset("timed"), seed=4, dealer=0, clock=clock)
    assert g.rules.duration == 30
    clock.now += 29 * 60
    pass_all(g)
    assert not g.is_over
    clock.now += 2 * 60
    pass_all(g)  # time is up but the score is 0-0: play continues
    assert not g.is_over and g.state.dealer == 2
    play_hand(g, random.Random(0))  # a played hand always scores in the four-player game
    assert g.is_over and g.winner is not None and g.scores[g.winner] > g.scores[1 - g.winner]


def test_timed_game_tie_false_ends_tied() -> None:
    clock = FakeClock()
    g = Game(Rules.preset("timed", tie_break=False), seed=4, dealer=0, clock=clock)
    clock.now += 31 * 60
    pass_all(g)
    assert g.is_over and g.winners == (0, 1)


# --- fixed number of deals ---------------------------------------------------------------------------
def test_fixed_number_of_deals_does_not_count_thrown_in_hands() -> None:
    rules = Rules.preset("american", deals=1)
    assert rules.target is None
    g = Game(rules, seed=6, dealer=3, deals=[State(rules, dealer=3, hands=BASE, up_card="9h").deal,
                                             base_deal(0)])
    pass_all(g)
    assert not g.is_over and g.played_hands == 0
    for a in MARCH:
        g.push(a)
    assert g.played_hands == 1 and g.is_over and g.winner == 1


def test_thrown_in_hand_after_a_played_hand_does_not_end_a_fixed_deals_game() -> None:
    rules = Rules.preset("american", deals=2, tie_break=False)
    g = Game(rules, seed=6, dealer=0, deals=[base_deal(0)])
    for a in MARCH:
        g.push(a)
    assert g.scores == [0, 2] and not g.is_over
    pass_all(g)
    assert g.played_hands == 1 and g.hand_number == 2 and not g.is_over


def test_fixed_number_of_deals_tie_continues() -> None:
    rules = Rules.preset("american", deals=2)
    # hand 1: seat 1 marches (side 1: 2); hand 2: seat 2 marches (side 0: 2) -> tie 2-2, continue
    g = Game(rules, seed=6, dealer=0, deals=[base_deal(0), base_deal(1)])
    for a in MARCH + MARCH:
        g.push(a)
    assert g.scores == [2, 2] and g.played_hands == 2 and not g.is_over
    play_hand(g, random.Random(3))
    assert g.is_over and g.played_hands == 3 and g.winner is not None


def test_fixed_number_of_deals_many_hands() -> None:
    rules = Rules.preset("american", deals=4)
    for seed in range(4):
        g = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            play_hand(g, rng)
            if not g.is_over:
                assert g.played_hands < 4 or g.scores[0] == g.scores[1]
        assert g.played_hands >= 4 and g.scores[0] != g.scores[1]


# --- determinism and undo --------------------------------------------------------------------------------
def record(rules: Rules, seed: int, policy_seed: int) -> tuple[list[Deal], list[str], list[int]]:
    g = Game(rules, seed=seed)
    rng = random.Random(policy_seed)
    while not g.is_over:
        g.push(rng.choice(g.legal_actions()))
    return [h.deal for h in g.hands], [str(a) for a in g.actions()], g.scores


@pytest.mark.parametrize("preset", ["american", "british", "two-handed", "cut-throat"])
def test_same_seed_and_actions_give_identical_games(preset: str) -> None:
    rules = Rules.preset(preset)
    a = record(rules, 11, 7)
    b = record(rules, 11, 7)
    assert a == b
    c = record(rules, 12, 7)
    assert c[0][0] != a[0][0]
    # replaying the recorded actions on a fresh game with the same seed gives the same deals
    g = Game(rules, seed=11)
    for act in a[1]:
        g.push(act)
    assert [h.deal for h in g.hands] == a[0] and g.scores == a[2] and g.is_over


def test_pop_across_hand_boundaries_restores_scores() -> None:
    g = Game(AMERICAN, seed=9, dealer=0, deals=[base_deal(0)])
    for a in MARCH:
        g.push(a)
    assert g.scores == [0, 2] and g.hand_number == 1
    next_deal = g.state.deal
    g.push("pass")
    assert str(g.pop()) == "pass"
    assert g.hand_number == 1 and g.state.history == []
    last = g.pop()  # back across the boundary: the last card of hand 1
    assert str(last) == "play Ks"
    assert g.hand_number == 0 and g.scores == [0, 0] and not g.state.is_over
    assert g.state.to_act == 0 and g.elapsed == []
    g.push("play Ks")
    assert g.scores == [0, 2] and g.state.deal == next_deal  # the next hand is dealt identically
    # pop everything
    while True:
        try:
            g.pop()
        except IndexError:
            break
    assert g.scores == [0, 0] and g.hand_number == 0 and g.state.phase is Phase.BID1


def test_pop_after_game_over_reopens_the_game() -> None:
    g = Game(Rules.preset("american", target=2), seed=0, dealer=0, deals=[base_deal(0)])
    for a in MARCH:
        g.push(a)
    assert g.is_over
    g.pop()
    assert not g.is_over and g.winners == () and g.scores == [0, 0]
    g.push("play Ks")
    assert g.is_over and g.winner == 1


def test_pop_across_thrown_in_hand() -> None:
    g = Game(AMERICAN, seed=9, dealer=1)
    pass_all(g)
    assert g.hand_number == 1 and g.elapsed != []
    assert str(g.pop()) == "pass"
    assert g.hand_number == 0 and g.state.phase is Phase.BID2 and g.state.to_act == 1 and g.elapsed == []


def test_random_pop_push_round_trip_over_a_whole_game() -> None:
    rules = Rules.preset("american", target=5)
    g = Game(rules, seed=21)
    rng = random.Random(21)
    snapshots = []
    while not g.is_over:
        snapshots.append((g.hand_number, list(g.scores), g.state.key()))
        g.push(rng.choice(g.legal_actions()))
    while snapshots:
        g.pop()
        hand_number, scores, key = snapshots.pop()
        assert (g.hand_number, g.scores, g.state.key()) == (hand_number, scores, key)


def test_game_view_carries_the_score() -> None:
    g = Game(AMERICAN, seed=9, dealer=0, deals=[base_deal(0)])
    for a in MARCH:
        g.push(a)
    v = g.view(0)
    assert v.scores == (0, 2) and v.hand_number == 1 and v.phase is Phase.BID1
    old = g.view(0, hand=0)
    assert old.points == (0, 2) and old.scores == (0, 2)
