"""Full-hand solves per second of the exact solver, on one core, against a named baseline.

Each position is a random American deal in which the seat left of the dealer orders the up card
and the dealer buries its first legal discard: the solver finds the best play of all four seats
from the first lead to the last trick. The baseline, measured in the same run on a sample of the
same positions, is a plain minimax over the engine's moves (``State._push``/``pop``) with the
same alpha-beta window but none of the solver's tricks; the ratio is what the solver's design
buys. The best published figure for an open-hand Euchre solver is 44 hands/s; the goal here is
at least 1,000.

Napoleon (``--rules napoleon --players N``): the seat left of the dealer bids 2 (``--misere``: a
misère) and leads its first legal card, the others pass; the solver plays the N seats from there.

    python bench/solver.py [--hands 3000] [--baseline-hands 30] [--rules american] [--seed 0]
    python bench/solver.py --rules napoleon --players 4 [--misere]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.actions import MISERE, NAPOLEON_BIDS, PASS  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.solver import Solver, minimises  # noqa: E402
from euchre.state import Phase, State  # noqa: E402


def positions(rules: Rules, count: int, seed: int, misere: bool = False) -> list[State]:
    """Full hands ready for the first lead: ordered up by the dealer's left, first discard
    (Napoleon: bid 2, or a misère, by the dealer's left, its first card led)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        s = State.random(rules, dealer=rng.randrange(rules.players), rng=rng)
        if rules.napoleon:
            s._push(MISERE if misere else NAPOLEON_BIDS[0])
            while s.phase is Phase.AUCTION:
                s._push(PASS)
            if s.phase is Phase.LEAD:
                s._push(s.legal_actions()[0])
            out.append(s)
            continue
        order = [a for a in s.legal_actions() if a.is_bid and a != 0 and not a.alone]
        s._push(order[0])
        while s.phase is not Phase.PLAY and not s.is_over:
            s._push(s.legal_actions()[0])
        if s.phase is Phase.PLAY:
            out.append(s)
    return out


def alphabeta(s: State, alpha: int, beta: int) -> int:
    """The baseline: maker tricks by alpha-beta over the engine's own moves, nothing more."""
    if s.is_over:
        return s.maker_tricks()
    makers = (s.side_of(s.to_act) == s.side_of(s.maker)) != minimises(s)
    best = -1 if makers else 99
    for a in s.legal_actions():
        s._push(a)
        v = alphabeta(s, alpha, beta)
        s.pop()
        if makers:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=3000)
    p.add_argument("--baseline-hands", type=int, default=30)
    p.add_argument("--rules", default="american")
    p.add_argument("--players", type=int, default=None, help="players at the table (Napoleon: 3 to 7)")
    p.add_argument("--misere", action="store_true", help="Napoleon: solve misères")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    rules = Rules.preset(a.rules) if a.players is None else Rules.preset(a.rules, players=a.players)
    states = positions(rules, a.hands, a.seed, a.misere)
    solver = Solver()
    t0 = time.perf_counter()
    solver.solve(states[0])  # load (or compile) the numba code outside the timing
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    values = [solver.solve(s) for s in states]
    fast = len(states) / (time.perf_counter() - t0)
    few = states[: a.baseline_hands]
    t0 = time.perf_counter()
    slow_values = [alphabeta(s.copy(stack=False), -1, rules.hand_size + 1) for s in few]
    slow = len(few) / (time.perf_counter() - t0)
    assert slow_values == values[: len(few)], "solver and baseline disagree"
    print(f"{a.rules} ({rules.players} players): {len(states)} full hands, first call {warm:.2f}s "
          "(numba compile or cache load)")
    print(f"  solver:   {fast:9.1f} full-hand solves/s")
    print(f"  baseline: {slow:9.1f} full-hand solves/s (plain alpha-beta over State, {len(few)} hands)")
    print(f"  ratio:    {fast / slow:9.1f}x   (goal: >= 1,000 solves/s; best published: 44)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
