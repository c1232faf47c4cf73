"""Paired duplicate: two variants of a bot against the same opponent on the same deals.

Each variant plays every deal twice against the opponent (``--opponent``), once on each side,
hand by hand from 0-0 (bench/bots.py's deals and seeds); a deal's score is the variant's side's
points minus the other side's, averaged over the two seatings. The difference B - A is taken deal
by deal, so the luck of the cards cancels twice and what is left is the change between the
variants, with a 95% interval much tighter than either score's: the tool for deciding whether a
change to a bot pays.

    python bench/paired.py A B [--deals 300] [--seed 0] [--opponent heuristic] [--jobs 2] [--late]
                           [--rules american] [--players N]

``--players`` sets a preset's table (Napoleon's three to seven): each variant then holds every
seat in turn against the opponent at all the others, a deal's score the mean over the seats.

A and B are bots or levels with options as JSON, ``name`` or ``name:{"option": value}``, e.g.
``'search:{"samples": 80}'`` against ``search``, or ``frozen-expert`` (the expert of 2026-12-01,
``bench/_baseline_expert.py``) against ``expert``. Every budget is a sample count, so a result is
reproducible from the seed on any machine. Also prints how many deals came out differently.

``--late`` tests what hand-by-hand play from 0-0 cannot: play near the end of a game, where a
score-aware bot values the chance of winning rather than points. Each deal then starts a game at
its own seeded score, with the variant's side at ``mine`` and the other at ``theirs`` (both below
the target, one of them within four points of it), and is played to the end of the game (the
later hands shuffled from the deal's seed, the same for both variants). A deal scores the
variant's net points per hand over the game and the share of the two games it won.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import _baseline_expert  # noqa: E402, F401  (registers the bot "frozen-expert")
import cfr_bids  # noqa: E402, F401  (registers the bot "cfr-expert", an experiment: bench/README.md)
from bots import deal, net_points, play_hand, run_chunks  # noqa: E402

from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.game import Game  # noqa: E402
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


def _table(rules: Rules, spec: Spec, opponent: Spec, side: int, seed: int, index: int) -> list[Bot]:
    """The bots of deal ``index``: ``spec`` on ``side``'s seats, ``opponent`` on the others,
    each seeded by its seat (the same seeds for both variants)."""
    return [_bot(spec if rules.side_of(s) == side else opponent, seed * 7919 + index * 13 + s)
            for s in range(rules.players)]


LATE = 4
"""``--late``: one side starts within this many points of the target."""


def late_scores(rules: Rules, seed: int, index: int) -> tuple[int, int]:
    """Deal ``index``'s starting score under ``--late``: (the variant's side, the other side)."""
    target = rules.target
    if target is None or rules.sides != 2:
        raise ValueError("--late needs rules with a target score and two sides")
    rng = random.Random(f"{seed}/{index}/late")
    while True:
        mine, theirs = rng.randrange(target), rng.randrange(target)
        if max(mine, theirs) >= target - LATE:
            return mine, theirs


def _late_game(rules: Rules, base_seed: int, index: int, spec: Spec, opponent: Spec,
               side: int, start: tuple[int, int]) -> tuple[float, float]:
    """One game from the deal's late score, ``spec`` holding ``side``: (net points per hand for
    that side, 1 if it won the game else 0)."""
    base = deal(rules, base_seed, index)
    scores = list(start) if side == 0 else list(reversed(start))
    game = Game(rules, seed=base_seed * 1_000_003 + index, deals=[base.deal], scores=scores)
    bots = _table(rules, spec, opponent, side, base_seed, index)
    while not game.is_over:
        seat = game.to_act
        game.push(bots[seat].choose(game.view(seat)))
    hands = [h for h in game.hands if h.is_over]
    net = sum(net_points(h, side) for h in hands)
    return net / max(len(hands), 1), 1.0 if game.winner == side else 0.0


def preset_rules(preset: str, players: int | None) -> Rules:
    """The preset's rules, at ``players`` seats when given."""
    return Rules.preset(preset) if players is None else Rules.preset(preset, players=players)


def _work(args: tuple[str, int | None, Spec, Spec, Spec, int, bool, int, int]) -> list[tuple[float, ...]]:
    """Deals ``lo..hi``: each variant's duplicate score against the opponent (and under
    ``late``, each variant's share of games won)."""
    preset, players, a, b, opponent, seed, late, lo, hi = args
    rules = preset_rules(preset, players)
    out: list[tuple[float, ...]] = []
    for i in range(lo, hi):
        scores, wins = [], []
        for spec in (a, b):
            total = won = 0.0
            if late:
                start = late_scores(rules, seed, i)
                for side in range(rules.sides):
                    pts, w = _late_game(rules, seed, i, spec, opponent, side, start)
                    total, won = total + pts, won + w
            else:
                base = deal(rules, seed, i)
                for side in range(rules.sides):
                    total += net_points(play_hand(base.copy(), _table(rules, spec, opponent, side, seed, i)), side)
            scores.append(total / rules.sides)
            wins.append(won / rules.sides)
        out.append((scores[0], scores[1], wins[0], wins[1]) if late else (scores[0], scores[1]))
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
    p.add_argument("--players", type=int, default=None, help="players at the table (Napoleon: 3 to 7)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--late", action="store_true",
                   help="start each deal at a late game score and play the game out")
    a = p.parse_args(argv)
    try:
        specs = [parse_spec(x) for x in (a.a, a.b, a.opponent)]
        rules = preset_rules(a.rules, a.players)
        if a.late:
            late_scores(rules, a.seed, 0)
    except ValueError as e:
        p.error(str(e))
    if a.deals < 2:
        p.error("--deals: must be at least 2")
    t0 = time.perf_counter()
    rows = run_chunks(_work, (a.rules, a.players, *specs, a.seed, a.late), a.deals, a.jobs)
    what = "games from a late score" if a.late else "seatings"
    print(f"{a.rules} ({rules.players} players): {len(rows)} deals x {rules.sides} {what} against {a.opponent}, "
          f"seed {a.seed} "
          f"({time.perf_counter() - t0:.0f} s)")
    for label, xs in (("A", [r[0] for r in rows]), ("B", [r[1] for r in rows]),
                      ("B - A", [r[1] - r[0] for r in rows])):
        m, h = interval(xs)
        print(f"  {label:6} {m:+.3f} +- {h:.3f} points per hand")
    if a.late:
        for label, xs in (("A", [r[2] for r in rows]), ("B", [r[3] for r in rows]),
                          ("B - A", [r[3] - r[2] for r in rows])):
            m, h = interval(xs)
            print(f"  {label:6} {m:.1%} +- {h:.1%} of the games won" if label != "B - A"
                  else f"  {label:6} {m:+.1%} +- {h:.1%} games won (percentage points)")
    print(f"  deals that came out differently: {sum(1 for r in rows if r[0] != r[1] or r[2:3] != r[3:4])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
