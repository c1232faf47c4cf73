"""The exact solver against a plain minimax over the engine's own moves.

The reference below knows nothing of the solver's tricks (equivalent cards, transposition table,
explicit stack): it pushes every legal action with ``State._push`` and takes the max for the
makers and the min for the defenders. The two must agree on the value of the position and on the
value of every legal play, for every preset (partnerships, the Joker, two and three players) and
for loners and lone defenders.
"""

from __future__ import annotations

import random
import threading

import pytest

from euchre import Rules, State
from euchre.actions import PLAY_ACTIONS
from euchre.solver import Solver, action_values, solve, thread_solver
from euchre.state import Phase

PRESETS = ["american", "british", "two-handed", "cut-throat"]


def minimax(s: State) -> int:
    """The maker's final tricks under best play, by brute force."""
    if s.is_over:
        return s.maker_tricks()
    makers = s.side_of(s.to_act) == s.side_of(s.maker)
    vals = []
    for a in s.legal_actions():
        s._push(a)
        vals.append(minimax(s))
        s.pop()
    return max(vals) if makers else min(vals)


def positions(rules: Rules, seed: int, count: int, min_plays: int) -> list[State]:
    """Random positions in trick play with at least ``min_plays`` cards already played."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        s = State.random(rules, dealer=rng.randrange(rules.players), rng=rng)
        while s.phase not in (Phase.PLAY, Phase.OVER):
            s._push(rng.choice(s.legal_actions()))
        for _ in range(rng.randrange(min_plays, min_plays + 6)):
            if s.is_over:
                break
            s._push(rng.choice(s.legal_actions()))
        if not s.is_over:
            out.append(s)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_solver_agrees_with_minimax(preset: str) -> None:
    rules = Rules.preset(preset, **({"defend_alone": True} if preset == "american" else {}))
    solver = Solver()
    for s in positions(rules, seed=len(preset), count=25, min_plays=4):
        before = s.key()
        assert solver.solve(s) == minimax(s), s
        for a, v in solver.action_values(s).items():
            s._push(a)
            assert minimax(s) == v, (s, a)
            s.pop()
        assert s.key() == before  # the solver never changes the state


def test_full_hands_match_minimax_on_two_handed_deals() -> None:
    # Two hands of five: the whole hand is small enough for the reference from the first lead.
    solver = Solver()
    for s in positions(Rules.preset("two-handed"), seed=9, count=10, min_plays=0):
        assert solver.solve(s) == minimax(s)


def test_values_are_maker_tricks_and_points_follow_the_table() -> None:
    s = State(Rules(), dealer=3, hands=["Jh Jd Ah Kh Qh", "9c Tc Qc 9s Ts", "Ac Kc As Ks Qs",
                                        "9d Td Qd Kd Ad"], up_card="9h")
    s.push("order")  # seat 0 orders the dealer (3) up in hearts: the top five trumps, a march
    s.push("discard 9d")
    assert s.phase is Phase.PLAY
    assert solve(s) == 5
    assert s.score_for(5) == (2, 0)
    assert set(action_values(s).values()) == {5}


def test_a_hopeless_maker_is_euchred() -> None:
    # Seat 1 calls clubs alone holding nothing but small clubs' companions; the defenders hold
    # every trump but one.
    s = State(Rules(), dealer=0, hands=["Jc Js Ac Kc Qc", "Tc 9h Th 9d Td", "Ah Kh Qh Ad Kd",
                                        "As Ks Qs Ts 9s"], up_card="9c")
    s.push("order alone")  # seat 1 orders alone: the dealer picks up
    s.push("discard Qc")
    assert solve(s) <= 2
    assert s.score_for(solve(s))[0] == Rules().loner_euchre_points


def test_equivalent_cards_share_a_value() -> None:
    s = positions(Rules(), seed=3, count=1, min_plays=0)[0]
    vals = action_values(s)
    assert set(vals) == set(s.legal_actions())
    assert all(a in PLAY_ACTIONS for a in vals)


def test_solver_refuses_bidding_positions() -> None:
    s = State.random(Rules(), dealer=0, rng=random.Random(0))
    with pytest.raises(ValueError, match="trick play"):
        Solver().solve(s)


def test_best_actions_are_the_ones_minimax_prefers_and_points_follow() -> None:
    solver = Solver()
    for s in positions(Rules(), seed=21, count=10, min_plays=8):
        best, pts = solver.best_actions(s)
        makers = s.side_of(s.to_act) == s.side_of(s.maker)
        values = {}
        for a in s.legal_actions():
            s._push(a)
            values[a] = minimax(s)
            s.pop()
        target = max(values.values()) if makers else min(values.values())
        assert set(best) == {a for a, v in values.items() if v == target}
        assert pts == s.score_for(target) == solver.points(s)


@pytest.mark.parametrize("preset", PRESETS)
def test_outcomes_score_exactly_as_the_exact_values(preset: str) -> None:
    # The null-window answers the search bot uses must give the very points of the exact solve,
    # super-euchre (where 0 tricks scores more) included.
    rules = Rules.preset(preset, **({"super_euchre": True} if preset == "american" else {}))
    solver = Solver()
    for s in positions(rules, seed=100 + len(preset), count=40, min_plays=0):
        assert s.score_for(solver.outcome(s)) == s.score_for(solver.solve(s))
        exact = solver.action_values(s)
        quick = solver.action_outcomes(s)
        assert quick.keys() == exact.keys()
        assert all(s.score_for(quick[a]) == s.score_for(exact[a]) for a in exact)


def test_each_thread_has_one_solver_that_answers_as_a_new_one() -> None:
    # The search bots, hints and solve() share the thread's solver instead of one each: a solver
    # that solved other deals before must answer exactly as a new one (same tricks, not only the
    # same points), and two threads never share one (a solver is changed in place as it searches).
    mine = thread_solver()
    assert thread_solver() is mine
    other: list[Solver] = []
    t = threading.Thread(target=lambda: other.append(thread_solver()))
    t.start()
    t.join()
    assert other and other[0] is not mine
    for preset in PRESETS:
        for s in positions(Rules.preset(preset), seed=7 + len(preset), count=8, min_plays=0):
            fresh = Solver()
            assert mine.action_outcomes(s) == fresh.action_outcomes(s)
            assert mine.action_values(s) == fresh.action_values(s)
            assert mine.outcome(s) == fresh.outcome(s) and mine.solve(s) == fresh.solve(s) == solve(s)
