"""How stable is a hint? The same positions hinted with two seeds: how far apart are the numbers?

A hint (:func:`euchre.hints.hint`) is repeatable by construction (seeded from the position), but
it is an estimate from sampled deals: asked with *another* seed it moves. Issue 14's goal: at the
hint's budget, another seed moves any action's expected points by at most 0.05 at the 95th
percentile, over 200 random positions of every phase. This benchmark takes positions from games
of four heuristic players (seeded; an equal share of first-round bids, second-round bids, dealer's
discards and card plays, only decisions with a real choice), hints each with its position seed
and with another, and prints the distribution of ``|points(seed 1) - points(seed 2)|`` over every
action of every position, per phase and in all; how often the best choice differs between the two
seeds, and how often it differs although the first hint did not call the two about even; and the
time per hint. The named baseline, measured in the same run on the same positions, is the expert
level's own budget (``SearchBot`` defaults: 200 deals a card, 64 a bid).

    python bench/hints.py [--positions 200] [--seed 0] [--samples N] [--bid-samples N] [--jobs 2]
                          [--no-baseline]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from multiprocessing import get_context

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.bots import make_bot  # noqa: E402
from euchre.game import Game  # noqa: E402
from euchre.hints import HINT_BID_SAMPLES, HINT_SAMPLES, hint, position_seed  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

GOAL = 0.05
"""Points: the 95th percentile of the move of any action's expected points between two seeds."""
PHASES = ("BID1", "BID2", "DISCARD", "PLAY")


def positions(count: int, seed: int) -> list[PlayerView]:
    """``count`` views with a real choice, an equal share of each phase of :data:`PHASES`, from
    games of heuristic players seeded from ``seed`` (one position a phase at most per hand, so
    that they spread over many deals)."""
    want = {p: count // len(PHASES) + (1 if i < count % len(PHASES) else 0) for i, p in enumerate(PHASES)}
    got: dict[str, list[PlayerView]] = {p: [] for p in PHASES}
    rng = random.Random(f"hints/{seed}")
    g = 0
    while any(len(got[p]) < want[p] for p in PHASES):
        game = Game(Rules(), seed=rng.randrange(2**62))
        bots = [make_bot("heuristic", seed=g * 4 + s) for s in range(4)]
        g += 1
        hand_seen: set[tuple[int, str]] = set()
        while not game.is_over and game.hand_number < 6:
            seat = game.to_act
            view = game.view(seat)
            phase = view.phase.name
            key = (game.hand_number, phase)
            if (phase in want and len(view.legal_actions) > 1 and key not in hand_seen
                    and len(got[phase]) < want[phase] and rng.random() < 0.5):
                got[phase].append(view)
                hand_seen.add(key)
            game.push(bots[seat].choose(view))
    return [v for p in PHASES for v in got[p]]


def _measure(task: tuple[PlayerView, int, int]) -> tuple[str, list[float], bool, bool, float]:
    """One position: (phase, |move| per action, best differs, best differs where not called even,
    seconds per hint)."""
    view, samples, bid_samples = task
    t0 = time.perf_counter()
    one = hint(view, samples=samples, bid_samples=bid_samples)
    dt = time.perf_counter() - t0
    two = hint(view, seed=position_seed(view) ^ 0x5EED, samples=samples, bid_samples=bid_samples)
    pts = {h.action: h.points for h in two}
    moves = [abs(h.points - pts[h.action]) for h in one]
    flip = one[0].action != two[0].action
    surprising = flip and not next(h for h in one if h.action == two[0].action).about_even
    return view.phase.name, moves, flip, surprising, dt


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of a non-empty list."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def run(views: list[PlayerView], samples: int, bid_samples: int, jobs: int, label: str) -> float:
    """Measure and print one budget; returns the overall 95th percentile."""
    tasks = [(v, samples, bid_samples) for v in views]
    t0 = time.perf_counter()
    if jobs > 1:
        with get_context().Pool(jobs) as pool:
            rows = pool.map(_measure, tasks, chunksize=1)
    else:
        rows = [_measure(t) for t in tasks]
    every = [m for r in rows for m in r[1]]
    p95 = pct(every, 0.95)
    print(f"{label}: {samples} deals a card, {bid_samples} a bid; {len(views)} positions, {len(every)} actions "
          f"({time.perf_counter() - t0:.0f} s)")
    print(f"  |move| of an action's points between two seeds: median {statistics.median(every):.3f}, "
          f"95th percentile {p95:.3f}, max {max(every):.3f}   goal <= {GOAL}: {'met' if p95 <= GOAL else 'NOT met'}")
    for phase in PHASES:
        mine = [r for r in rows if r[0] == phase]
        if not mine:
            continue
        ms = [m for r in mine for m in r[1]]
        print(f"    {phase:8s} {len(mine):4d} positions  p95 {pct(ms, 0.95):.3f}  max {max(ms):.3f}  "
              f"best differs {sum(r[2] for r in mine):3d}, of those not called even {sum(r[3] for r in mine):3d}  "
              f"median {statistics.median(r[4] for r in mine):.2f} s a hint, max {max(r[4] for r in mine):.2f} s")
    return p95


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--samples", type=int, default=HINT_SAMPLES)
    p.add_argument("--bid-samples", type=int, default=HINT_BID_SAMPLES)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--no-baseline", action="store_true", help="skip the expert-budget baseline")
    a = p.parse_args(argv)
    if a.positions < 1 or a.samples < 1 or a.bid_samples < 1 or a.jobs < 1:
        p.error("--positions, --samples, --bid-samples and --jobs must be at least 1")
    views = positions(a.positions, a.seed)
    base = None if a.no_baseline else run(views, 200, 64, a.jobs, "baseline (the expert's budget)")
    p95 = run(views, a.samples, a.bid_samples, a.jobs, "hint")
    if base is not None:
        print(f"  hint p95 / baseline p95: {p95 / base:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
