"""How stable is a hint? The same positions hinted with two seeds: how far apart are the numbers?

A hint (:func:`euchre.hints.hint`) is repeatable by construction (seeded from the position), but
it is an estimate from sampled deals: asked with *another* seed it moves. Issue 14's goal: at the
hint's budget, another seed moves any action's expected points by at most 0.05 at the 95th
percentile, over 200 random positions of every phase. This benchmark takes positions from games
of four heuristic players (seeded; an equal share of first-round bids, second-round bids, dealer's
discards, early card plays (the first two tricks) and late ones (the last three), only decisions
with a real choice), hints each with its position seed and with another, and prints the
distribution of ``|points(seed 1) - points(seed 2)|`` over every action of every position, per
phase and in all, the 95th percentile with a 95% confidence interval (bootstrap over positions:
the goal is met only if the interval's upper end is within it); how often the best choice differs
between the two seeds, and how often it differs although the first hint did not call the two about
even; and the time per hint (median and 95th percentile, wall clock and the process's CPU time,
which another job's load on the machine does not inflate; each worker process is one core, and a
bid hint's compiled samples run on ``--threads`` threads of it, one by default). The named
baseline, measured in the same run on the same positions, is the expert level's own budget
(``SearchBot`` defaults: 200 deals a card, 64 a bid).

    python bench/hints.py [--positions 200] [--seed 0] [--samples N] [--bid-samples N] [--jobs 2]
                          [--threads 1] [--no-baseline] [--no-control] [--phases BID1,BID2,...]
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
PHASES = ("BID1", "BID2", "DISCARD", "PLAY_EARLY", "PLAY_LATE")
EARLY_TRICKS = 2
"""Card plays with fewer tricks done than this are early, the others late."""


def phase_of(view: PlayerView) -> str:
    """The benchmark's phase of a view: the engine's, the card play split into early and late."""
    name = view.phase.name
    if name == "PLAY":
        return "PLAY_EARLY" if len(view.tricks) < EARLY_TRICKS else "PLAY_LATE"
    return name


def positions(count: int, seed: int, phases: tuple[str, ...] = PHASES) -> list[PlayerView]:
    """``count`` views with a real choice, an equal share of each phase of :data:`PHASES`, from
    games of heuristic players seeded from ``seed`` (one position a phase at most per hand, so
    that they spread over many deals)."""
    want = {p: count // len(phases) + (1 if i < count % len(phases) else 0) for i, p in enumerate(phases)}
    got: dict[str, list[PlayerView]] = {p: [] for p in phases}
    rng = random.Random(f"hints/{seed}")
    g = 0
    while any(len(got[p]) < want[p] for p in phases):
        game = Game(Rules(), seed=rng.randrange(2**62))
        bots = [make_bot("heuristic", seed=g * 4 + s) for s in range(4)]
        g += 1
        hand_seen: set[tuple[int, str]] = set()
        while not game.is_over and game.hand_number < 6:
            seat = game.to_act
            view = game.view(seat)
            phase = phase_of(view)
            key = (game.hand_number, phase)
            if (phase in want and len(view.legal_actions) > 1 and key not in hand_seen
                    and len(got[phase]) < want[phase] and rng.random() < 0.5):
                got[phase].append(view)
                hand_seen.add(key)
            game.push(bots[seat].choose(view))
    return [v for p in phases for v in got[p]]


def _measure(task: tuple[PlayerView, int, int, bool, int]) -> tuple[str, list[float], bool, bool, float, float]:
    """One position: (phase, |move| per action, best differs, best differs where not called even,
    seconds per hint, CPU seconds per hint)."""
    view, samples, bid_samples, control, threads = task
    t0, c0 = time.perf_counter(), time.process_time()
    one = hint(view, samples=samples, bid_samples=bid_samples, control=control, threads=threads)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    two = hint(view, seed=position_seed(view) ^ 0x5EED, samples=samples, bid_samples=bid_samples, control=control,
               threads=threads)
    pts = {h.action: h.points for h in two}
    moves = [abs(h.points - pts[h.action]) for h in one]
    flip = one[0].action != two[0].action
    surprising = flip and not next(h for h in one if h.action == two[0].action).about_even
    return phase_of(view), moves, flip, surprising, dt, cpu


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of a non-empty list."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def p95_interval(rows: list[list[float]], reps: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% interval for the 95th percentile of the moves: bootstrap over positions (each
    position's actions drawn together), percentile interval."""
    rng = random.Random(seed)
    n = len(rows)
    qs = sorted(pct([m for _ in range(n) for m in rows[rng.randrange(n)]], 0.95) for _ in range(reps))
    return qs[int(0.025 * reps)], qs[min(reps - 1, int(0.975 * reps))]


def run(views: list[PlayerView], samples: int, bid_samples: int, jobs: int, label: str,
        control: bool = True, threads: int = 1) -> float:
    """Measure and print one budget; returns the overall 95th percentile."""
    tasks = [(v, samples, bid_samples, control, threads) for v in views]
    t0 = time.perf_counter()
    if jobs > 1:
        with get_context().Pool(jobs) as pool:
            rows = pool.map(_measure, tasks, chunksize=1)
    else:
        rows = [_measure(t) for t in tasks]
    every = [m for r in rows for m in r[1]]
    p95 = pct(every, 0.95)
    lo, hi = p95_interval([r[1] for r in rows])
    times = [r[4] for r in rows]
    cpus = [r[5] for r in rows]
    print(f"{label}: {samples} deals a card, {bid_samples} a bid, control variate {'on' if control else 'off'}; "
          f"{len(views)} positions, {len(every)} actions ({time.perf_counter() - t0:.0f} s)")
    print(f"  |move| of an action's points between two seeds: median {statistics.median(every):.3f}, "
          f"95th percentile {p95:.3f} (95% interval {lo:.3f}-{hi:.3f}), max {max(every):.3f}   "
          f"goal <= {GOAL}: {'met' if hi <= GOAL else 'NOT met'}")
    print(f"  time a hint: median {statistics.median(times):.2f} s, 95th percentile {pct(times, 0.95):.2f} s, "
          f"max {max(times):.2f} s; CPU a hint: median {statistics.median(cpus):.2f} s, "
          f"95th percentile {pct(cpus, 0.95):.2f} s")
    for phase in PHASES:
        mine = [r for r in rows if r[0] == phase]
        if not mine:
            continue
        ms = [m for r in mine for m in r[1]]
        plo, phi = p95_interval([r[1] for r in mine])
        ts = [r[4] for r in mine]
        cs = [r[5] for r in mine]
        print(f"    {phase:10s} {len(mine):4d} positions  p95 {pct(ms, 0.95):.3f} ({plo:.3f}-{phi:.3f})  "
              f"max {max(ms):.3f}  best differs {sum(r[2] for r in mine):3d}, of those not called even "
              f"{sum(r[3] for r in mine):3d}  time median {statistics.median(ts):.2f} s, p95 {pct(ts, 0.95):.2f} s, "
              f"CPU median {statistics.median(cs):.2f} s, p95 {pct(cs, 0.95):.2f} s")
    return p95


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--samples", type=int, default=HINT_SAMPLES)
    p.add_argument("--bid-samples", type=int, default=HINT_BID_SAMPLES)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--threads", type=int, default=1,
                   help="threads a bid hint's compiled samples are split among (1: the time is one core's)")
    p.add_argument("--no-baseline", action="store_true", help="skip the expert-budget baseline")
    p.add_argument("--no-control", action="store_true", help="the hint without its control variate")
    p.add_argument("--phases", default=",".join(PHASES), help="comma-separated phases to draw positions from")
    a = p.parse_args(argv)
    if a.positions < 1 or a.samples < 1 or a.bid_samples < 1 or a.jobs < 1 or a.threads < 1:
        p.error("--positions, --samples, --bid-samples, --jobs and --threads must be at least 1")
    phases = tuple(x for x in a.phases.split(",") if x)
    if not phases or any(x not in PHASES for x in phases):
        p.error(f"--phases: a comma-separated subset of {','.join(PHASES)}")
    views = positions(a.positions, a.seed, phases)
    base = None if a.no_baseline else run(views, 200, 64, a.jobs, "baseline (the expert's budget)", False)
    p95 = run(views, a.samples, a.bid_samples, a.jobs, "hint", not a.no_control, a.threads)
    if base is not None:
        print(f"  hint p95 / baseline p95: {p95 / base:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
