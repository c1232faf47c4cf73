"""Paired duplicate: two variants of a bot against the same opponent on the same deals.

Each variant plays every deal twice against the opponent (``--opponent``), once on each side,
hand by hand from 0-0 (bench/bots.py's deals and seeds); a deal's score is the variant's side's
points minus the other side's, averaged over the two seatings. The difference B - A is taken deal
by deal, so the luck of the cards cancels twice and what is left is the change between the
variants, with a 95% interval much tighter than either score's: the tool for deciding whether a
change to a bot pays.

    python bench/paired.py A B [--deals 300] [--seed 0] [--opponent heuristic] [--jobs 2]

A and B are registry names with options as JSON, ``name`` or ``name:{"option": value}``, e.g.
``'search:{"time_limit": null, "samples": 80}'`` against ``'search:{"time_limit": null}'``.
Use ``"time_limit": null`` for the search bot, so that results do not depend on the machine's
load (and are reproducible from the seed). Also prints how many deals came out differently.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from bots import deal, net_points, play_hand, run_chunks  # noqa: E402

from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.rules import Rules  # noqa: E402

Spec = tuple[str, dict[str, Any]]


def parse_spec(text: str) -> Spec:
    """``name`` or ``name:{json options}``; ``ValueError`` on bad JSON or an unknown bot."""
    name, _, opts = text.partition(":")
    try:
        options = json.loads(opts) if opts else {}
    except json.JSONDecodeError as e:
        raise ValueError(f"{text!r}: the options are not JSON ({e})") from None
    if not isinstance(options, dict):
        raise ValueError(f"{text!r}: the options must be a JSON object")
    try:
        make_bot(name.strip(), seed=0, **options)  # fail early
    except TypeError as e:
        raise ValueError(f"{text!r}: {e}") from None
    return name.strip(), options


def _bot(spec: Spec, seed: int) -> Bot:
    return make_bot(spec[0], seed=seed, **spec[1])


def _work(args: tuple[str, Spec, Spec, Spec, int, int, int]) -> list[tuple[float, float]]:
    """Deals ``lo..hi``: each variant's duplicate score against the opponent."""
    preset, a, b, opponent, seed, lo, hi = args
    rules = Rules.preset(preset)
    out = []
    for i in range(lo, hi):
        base = deal(rules, seed, i)
        scores = []
        for spec in (a, b):
            total = 0.0
            for side in range(rules.sides):
                bots = [_bot(spec if rules.side_of(s) == side else opponent, seed * 7919 + i * 13 + s)
                        for s in range(rules.players)]
                total += net_points(play_hand(base.copy(), bots), side)
            scores.append(total / rules.sides)
        out.append((scores[0], scores[1]))
    return out


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", help="variant A: name or name:{json options}")
    p.add_argument("b", help="variant B: name or name:{json options}")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="heuristic", help="the bot both variants play against")
    p.add_argument("--rules", default="american", help="rules preset (default american)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    try:
        specs = [parse_spec(x) for x in (a.a, a.b, a.opponent)]
        Rules.preset(a.rules)
    except ValueError as e:
        p.error(str(e))
    if a.deals < 2:
        p.error("--deals: must be at least 2")
    t0 = time.perf_counter()
    rows = run_chunks(_work, (a.rules, *specs, a.seed), a.deals, a.jobs)
    print(f"{a.rules}: {len(rows)} deals x 2 seatings against {a.opponent}, seed {a.seed} "
          f"({time.perf_counter() - t0:.0f} s)")
    for label, xs in (("A", [r[0] for r in rows]), ("B", [r[1] for r in rows]),
                      ("B - A", [r[1] - r[0] for r in rows])):
        m, h = interval(xs)
        print(f"  {label:6} {m:+.3f} +- {h:.3f} points per hand")
    print(f"  deals that came out differently: {sum(1 for x, y in rows if x != y)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
