"""The ladder of difficulty levels: does each level beat the one below by the goal, in duplicate?

For each step of the ladder (``medium`` over ``easy``, ``hard`` over ``medium``, ``expert`` over
``hard``) the two levels play a duplicate match in the arena (:func:`euchre.arena.run_arena`:
the same deals with the sides swapped, bots seeded by seat) and the step's margin is printed
with its 95% interval against the goal of issue 14: at least +0.10 points per hand, the interval
excluding zero. ``--frozen`` adds the step from the frozen expert of 2026-12-01
(``bench/_baseline_expert.py``) to today's ``expert``, the baseline every later expert is
measured against. ``--selfplay N`` also plays each level against itself over ``N`` deals and
prints how often it makes trump, goes alone, marches alone and is euchred, next to what strong
humans did in the championship games of ``shared/data/egn``.

    python bench/levels.py [--deals 2000] [--steps easy:medium,medium:hard,hard:expert] [--frozen]
                           [--selfplay 0] [--rules american] [--seed 0] [--jobs 2] [--json]

A step is ``LOWER:UPPER``, each a level or any bot spec (``'search:{"samples": 50}'``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _baseline_expert  # noqa: E402, F401  (registers the bot "frozen-expert")

from euchre.arena import ArenaResult, run_arena  # noqa: E402
from euchre.bots.base import make_bot, split_bot_list  # noqa: E402
from euchre.rules import Rules  # noqa: E402

GOAL = 0.10
"""Points per hand each level must beat the one below by (issue 14)."""
LADDER = "easy:medium,medium:hard,hard:expert"

CHAMPIONSHIP = {"loner_rate": 0.17, "loner_march_rate": 0.41, "euchred_rate": 0.22}
"""Strong humans in the championship games of shared/data/egn (359 played hands, read with the
engine's own importer; issue 14): loners per make, marches per loner, euchres per make."""


def split_step(text: str) -> tuple[str, str] | None:
    """``LOWER:UPPER`` into its two bot specs; a spec may carry JSON options
    (``'novice:{"lapse": 0.8}:novice'``), so the separator is the colon outside braces that does
    not open options. ``None`` when there is no such colon."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ":" and depth == 0 and not text[i + 1:].lstrip().startswith("{"):
            lower, upper = text[:i].strip(), text[i + 1:].strip()
            return (lower, upper) if lower and upper else None
    return None


def step_line(lower: str, upper: str, r: ArenaResult) -> dict[str, Any]:
    """One step's margin (upper minus lower), interval and verdict."""
    ci = r.margin_ci
    lo, hi = ci if ci is not None else (float("nan"), float("nan"))
    met = r.margin >= GOAL and lo > 0
    return {"lower": lower, "upper": upper, "margin": r.margin, "ci95": [lo, hi], "hands": r.hands,
            "games_won_by_upper": r.win_share, "met": met, "clear": lo >= GOAL, "seconds": r.seconds}


def rates(r: ArenaResult) -> dict[str, float]:
    """The bot's maker figures in a match against itself (both bots are the same, so A's)."""
    m = r.a.makers
    return {"bid_rate": m.maker_hands / m.side_hands if m.side_hands else 0.0,
            "loner_rate": m.loners / m.maker_hands if m.maker_hands else 0.0,
            "loner_march_rate": m.loner_marches / m.loners if m.loners else 0.0,
            "euchred_rate": m.euchred / m.maker_hands if m.maker_hands else 0.0,
            "march_rate": m.marches / m.maker_hands if m.maker_hands else 0.0,
            "maker_hands": m.maker_hands, "loners": m.loners}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=2000, help="hands per seating for each step (default 2000)")
    p.add_argument("--steps", default=LADDER, help=f"comma-separated LOWER:UPPER steps (default {LADDER})")
    p.add_argument("--frozen", action="store_true", help="add the step frozen-expert:expert")
    p.add_argument("--selfplay", type=int, default=0, metavar="N",
                   help="also play each level of the steps against itself over N deals and print its rates")
    p.add_argument("--rules", default="american")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be at least 1")
    rules = Rules.preset(a.rules)
    steps: list[tuple[str, str]] = []
    for text in split_bot_list(a.steps) + (["frozen-expert:expert"] if a.frozen else []):
        step = split_step(text)
        if step is None:
            p.error(f"--steps: {text!r} is not LOWER:UPPER (levels or bot specs)")
        for spec in step:
            try:
                make_bot(spec, seed=0)
            except ValueError as e:
                p.error(f"--steps: {e}")
        steps.append(step)
    out: dict[str, Any] = {"rules": a.rules, "deals": a.deals, "seed": a.seed, "goal": GOAL, "steps": [],
                           "selfplay": {}}
    say = (lambda *_: None) if a.json else print
    say(f"levels on {a.rules}: duplicate, {a.deals} deals a seating per step, seed {a.seed}; "
        f"goal: each step >= +{GOAL:.2f} points per hand with the 95% interval above 0")
    t0 = time.perf_counter()
    for lower, upper in steps:
        r = run_arena(upper, lower, rules, deals=a.deals, seed=a.seed, jobs=a.jobs)
        line = step_line(lower, upper, r)
        out["steps"].append(line)
        lo, hi = line["ci95"]
        verdict = "met" if line["met"] else "NOT met"
        say(f"  {upper:>14} - {lower:<14} {line['margin']:+.3f} [{lo:+.3f}, {hi:+.3f}]  games won by "
            f"{upper}: {line['games_won_by_upper']:.1%}  {verdict}{' (clearly)' if line['clear'] else ''}  "
            f"{line['hands']} hands, {line['seconds']:.0f} s")
    if a.selfplay > 0:
        levels = list(dict.fromkeys(x for s in steps for x in s))
        say(f"self-play, {a.selfplay} deals a seating; championship games: loners {CHAMPIONSHIP['loner_rate']:.0%} "
            f"of makes, {CHAMPIONSHIP['loner_march_rate']:.0%} of loners march, euchred on "
            f"{CHAMPIONSHIP['euchred_rate']:.0%} of makes")
        for level in levels:
            r = run_arena(level, level, rules, deals=a.selfplay, seed=a.seed + 1, jobs=a.jobs)
            rt = rates(r)
            out["selfplay"][level] = rt
            say(f"  {level:>14}: makes trump on {rt['bid_rate']:.1%} of side-hands, alone on {rt['loner_rate']:.1%}"
                f" of makes ({rt['loners']}), {rt['loner_march_rate']:.0%} of loners march, euchred on "
                f"{rt['euchred_rate']:.1%} of makes, marches {rt['march_rate']:.1%}")
    out["seconds"] = time.perf_counter() - t0
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
