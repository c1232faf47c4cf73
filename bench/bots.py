"""Duplicate comparison of two bots: points per hand, with a 95% confidence interval.

Every deal (seeded shuffle, seeded dealer) is played once for each side with the candidate bot
holding that side's seats and the baseline bot holding all the others; the score of one play is
the candidate side's points minus the mean points of the other sides. The deal's score is the
mean over its plays, so the luck of the cards cancels and what remains is the difference in
play. The result is the mean over deals with ``mean +- 1.96 * sd / sqrt(n)``.

    python bench/bots.py [--deals 2000] [--rules american] [--new heuristic] [--old baseline]
                         [--seed 0] [--jobs 2] [--stats]

Bots are registry names (``heuristic``, ``random``, ...) or ``baseline``: the heuristic bot as
it was before the tuning of this benchmark, kept in ``bench/_baseline_heuristic.py`` so that the
comparison stays reproducible. ``--stats`` also prints, for a table of four candidate bots, the
share of hands thrown in, euchred and played alone.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from typing import Any, TypeVar

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

T = TypeVar("T")


def build(name: str, seed: int) -> Bot:
    """A bot by registry name, or ``baseline`` for the saved copy of the old heuristic."""
    if name == "baseline":
        from _baseline_heuristic import HeuristicBot as Baseline

        return Baseline(seed=seed)
    return make_bot(name, seed=seed)


def deal(rules: Rules, seed: int, index: int) -> State:
    """Deal ``index`` of a run: a fresh state from its own seeded generator."""
    rng = random.Random(f"{seed}/{index}")
    return State.random(rules, dealer=rng.randrange(rules.players), rng=rng)


def net_points(state: State, side: int) -> float:
    """A finished hand's points for ``side`` minus the mean of the other sides' (the score of one
    play in every duplicate comparison here)."""
    pts = state.points or (0,) * state.rules.sides
    others = [p for k, p in enumerate(pts) if k != side]
    return pts[side] - sum(others) / len(others)


def play_hand(state: State, bots: list[Bot]) -> State:
    """Play a hand to its end, every bot answering from its own view."""
    while not state.is_over:
        seat = state.to_act
        state.push(bots[seat].choose(PlayerView.of(state, seat)))
    return state


def _work(args: tuple[str, str, str, int, int, int]) -> list[tuple[float, list[tuple[bool, bool, bool]]]]:
    """Deals ``lo..hi`` of a run: for each, its duplicate score and, per play, whether the hand
    was thrown in, the makers were euchred, the maker went alone."""
    preset, new, old, seed, lo, hi = args
    rules = Rules.preset(preset)
    n = rules.players
    out = []
    for i in range(lo, hi):
        base = deal(rules, seed, i)
        total = 0.0
        facts = []
        for side in range(rules.sides):
            bots = [build(new if rules.side_of(s) == side else old, seed * 7919 + i * 13 + s) for s in range(n)]
            st = play_hand(base.copy(), bots)
            pts = st.points or (0,) * rules.sides
            total += net_points(st, side)
            thrown = st.thrown_in
            euchred = not thrown and pts[rules.side_of(st.maker)] == 0
            facts.append((thrown, euchred, bool(st.alone)))
        out.append((total / rules.sides, facts))
    return out


def stats_only(preset: str, bot: str, seed: int, deals: int) -> tuple[float, float, float]:
    """Thrown-in, euchred (of played) and alone (of played) rates with ``bot`` in every seat."""
    rules = Rules.preset(preset)
    thrown = euchred = alone = played = 0
    for i in range(deals):
        st = play_hand(deal(rules, seed, i), [build(bot, i * 10 + s) for s in range(rules.players)])
        if st.thrown_in:
            thrown += 1
            continue
        played += 1
        pts = st.points or ()
        euchred += pts[rules.side_of(st.maker)] == 0
        alone += bool(st.alone)
    return thrown / deals, euchred / max(played, 1), alone / max(played, 1)


def run_chunks(work: Callable[[tuple[Any, ...]], list[T]], head: tuple[Any, ...], deals: int,
               jobs: int) -> list[T]:
    """``work((*head, lo, hi))`` over deals ``[0, deals)`` in chunks, on ``jobs`` processes; the
    rows in deal order, whatever ``jobs`` is."""
    chunk = max(1, deals // (max(jobs, 1) * 8))
    tasks = [(*head, lo, min(lo + chunk, deals)) for lo in range(0, deals, chunk)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(work, tasks)
    else:
        parts = [work(t) for t in tasks]
    return [r for part in parts for r in part]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--rules", default="american", help="rules preset (default american)")
    p.add_argument("--new", default="heuristic", help="candidate bot (default heuristic)")
    p.add_argument("--old", default="baseline", help="baseline bot (default: the saved old heuristic)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--stats", action="store_true", help="also thrown-in / euchre / alone rates, 4 candidates")
    a = p.parse_args(argv)

    t0 = time.perf_counter()
    rows = run_chunks(_work, (a.rules, a.new, a.old, a.seed), a.deals, a.jobs)
    diffs = [d for d, _ in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    plays = [f for _, fs in rows for f in fs]
    played = [f for f in plays if not f[0]]
    print(f"{a.rules}: {a.new} vs {a.old}, {n} deals x {len(rows[0][1])} seatings "
          f"({time.perf_counter() - t0:.1f}s)")
    print(f"  points per hand, {a.new} minus {a.old}: {mean:+.4f}  95% CI [{mean - half:+.4f}, {mean + half:+.4f}]")
    print(f"  mixed tables: thrown in {sum(f[0] for f in plays) / len(plays):.1%}, "
          f"euchred {sum(f[1] for f in played) / max(len(played), 1):.1%} of played, "
          f"alone {sum(f[2] for f in played) / max(len(played), 1):.1%}")
    if a.stats:
        for bot in (a.new, a.old):
            th, eu, al = stats_only(a.rules, bot, a.seed, min(a.deals, 2000))
            print(f"  four {bot}: thrown in {th:.1%}, euchred {eu:.1%} of played, alone {al:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
