"""Are the search bot's bids valued right? Its predictions against what each choice really scores.

For every bidding decision the search bot meets (round 1, round 2, going alone), every choice it
valued is played out from the true deal to the end of the hand by the real bots (the bot on its
side, ``--opponent`` on the others), and the points it really scores are set beside the points the
bot predicted for it. Predictions come from sampled deals solved with every card face up, so they
may be biased ("strategy fusion"); :data:`~euchre.bots.search.BID_MARGIN` and
:data:`~euchre.bots.search.ALONE_MARGIN` are there to correct for it. The script reports

* the bias of each kind of bid (predicted minus realized, points per hand);
* the bias of the two differences the margins stand for: calling trump against passing, going
  alone against the same call with the partner, over all decisions and over the close ones
  (predicted difference within ``--close`` points), where a margin changes the choice;
* a replay of every decision with other margins: the realized points per hand of the choices the
  bot would then have made, against those it made, and how many decisions change. The bot's own
  margins must change nothing (checked). The replay keeps the later decisions as they were (a
  pass that leads to the bot's own round-2 call is valued with the margins it was played with).

Each choice is played once, with every bot reset to its seed, so a run is reproducible from
``--seed``. A hand from 0-0, as in ``bench/bots.py`` (the bot counts points, not the game).

    python bench/calibrate.py [--deals 600] [--seed 0] [--bot 'search:{"time_limit": null}']
                              [--opponent heuristic] [--close 0.5] [--jobs 2] [--save FILE]
                              [--load FILE]

``--save`` keeps the decisions (and the margins they were made with) in a JSON file, ``--load``
reports on such a file again without playing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from bots import deal, net_points, play_hand, run_chunks  # noqa: E402
from paired import Spec, interval, parse_spec  # noqa: E402

from euchre.actions import Kind  # noqa: E402
from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.bots.search import SearchBot  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

BIDDING = (Phase.BID1, Phase.BID2)
MAKING = {Kind.ORDER, Kind.ORDER_ALONE, Kind.CALL, Kind.CALL_ALONE}
BID_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)
ALONE_GRID = (0.0, 0.1, 0.25, 0.4)

Row = dict[str, Any]


def _work(args: tuple[str, Spec, Spec, int, int, int]) -> list[Row]:
    """Deals ``lo..hi``: one row per bidding decision of the bot's side, each choice with its
    predicted and realized points."""
    preset, spec, opponent, seed, lo, hi = args
    rules = Rules.preset(preset)
    out: list[Row] = []
    for i in range(lo, hi):
        st = deal(rules, seed, i)
        side = rules.side_of(0)
        bots = [_make(spec if rules.side_of(s) == side else opponent, seed * 7919 + i * 13 + s)
                for s in range(rules.players)]
        while st.phase in (*BIDDING, Phase.DISCARD) and not st.is_over:
            seat = st.to_act
            view = PlayerView.of(st, seat)
            bot = bots[seat]
            if (rules.side_of(seat) != side or st.phase not in BIDDING or len(view.legal_actions) < 2):
                st.push(bot.choose(view))
                continue
            assert isinstance(bot, SearchBot)
            evaluations = bot.evaluate(view)
            row: Row = {"deal": i, "phase": st.phase.name, "choices": []}
            for e in evaluations:
                for b in bots:
                    b.reset()
                fork = st.copy()
                fork.push(e.action)
                real = net_points(play_hand(fork, bots), side)
                row["choices"].append({
                    "action": str(e.action), "making": e.action.kind in MAKING, "alone": e.action.alone,
                    "predicted": e.points, "later_margin": e.later_margin, "realized": real})
            out.append(row)
            st.push(evaluations[0].action)
    return out


def _make(spec: Spec, seed: int) -> Bot:
    return make_bot(spec[0], seed=seed, **spec[1])


def choice(row: Row, bid_margin: float, alone_margin: float) -> Row:
    """The choice the bot makes on a row's predictions with these margins."""
    def adjusted(c: Row) -> float:
        # Summed in the bot's order (SearchBot._adjusted), so that its own margins tie as it did.
        margin = 0.0
        if c["making"]:
            margin += bid_margin
        if c["alone"]:
            margin += alone_margin
        return float(c["predicted"] - (margin + c["later_margin"]))
    return max(row["choices"], key=adjusted)  # max keeps the first of equals, as the bot's sort


def _line(label: str, xs: list[float]) -> str:
    if len(xs) < 2:
        return f"  {label:44} {len(xs):5d}"
    m, h = interval(xs)
    return f"  {label:44} {len(xs):5d}   {m:+.3f} +- {h:.3f}"


def report(rows: list[Row], deals: int, bid_margin: float, alone_margin: float, close: float) -> int:
    """Print the three tables; the number of decisions the bot's own margins fail to reproduce."""
    kinds: dict[str, list[float]] = defaultdict(list)
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in rows:
        by_action = {c["action"]: c for c in row["choices"]}
        for c in row["choices"]:
            kind = ("pass" if not c["making"] else "call") + (" alone" if c["alone"] else "")
            kinds[f"{row['phase']} {kind}"].append(c["predicted"] - c["realized"])
            if c["making"] and not c["alone"] and "pass" in by_action:
                base = by_action["pass"]
                pairs[f"{row['phase']} call minus pass"].append(
                    (c["predicted"] - base["predicted"], c["realized"] - base["realized"]))
            partner = by_action.get(c["action"].replace(" alone", "")) if c["alone"] else None
            if partner is not None:
                pairs[f"{row['phase']} alone minus with partner"].append(
                    (c["predicted"] - partner["predicted"], c["realized"] - partner["realized"]))
    print("Bias of each kind of choice (predicted minus realized points):")
    print(f"  {'choice':44} {'n':>5}   mean +- 95%")
    for k in sorted(kinds):
        print(_line(k, kinds[k]))
    print(f"Bias of the differences the margins stand for (the bot's margins: bid {bid_margin}, "
          f"alone {alone_margin}); close: predicted difference within {close}:")
    for k in sorted(pairs):
        print(_line(k, [p - r for p, r in pairs[k]]))
        print(_line("  close", [p - r for p, r in pairs[k] if abs(p) < close]))
    own = [choice(r, bid_margin, alone_margin) for r in rows]
    made = [r["choices"][0] for r in rows]
    mismatches = sum(1 for a, b in zip(own, made, strict=True) if a is not b)
    print(f"Margins replayed on the {len(rows)} decisions (realized points per hand against the "
          f"bot's own choices, over {deals} deals):")
    print(f"  {'bid margin':>10} {'alone':>6} {'changed':>8}   points per hand")
    for bm in BID_GRID:
        for am in ALONE_GRID:
            picks = [choice(r, bm, am) for r in rows]
            diff = sum(p["realized"] - o["realized"] for p, o in zip(picks, made, strict=True))
            changed = sum(1 for p, o in zip(picks, made, strict=True) if p is not o)
            mark = "  (the bot's)" if (bm, am) == (bid_margin, alone_margin) else ""
            print(f"  {bm:>10} {am:>6} {changed:>8}   {diff / deals:+.4f}{mark}")
    if mismatches:
        print(f"warning: the bot's own margins give another choice than it made on {mismatches} decisions")
    return mismatches


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=600)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", default='search:{"time_limit": null}',
                   help="the search bot: name:{json options} (default: search without a time limit)")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--rules", default="american", help="rules preset (default american)")
    p.add_argument("--close", type=float, default=0.5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--save", help="write the decisions (JSON) to this file")
    p.add_argument("--load", help="report on decisions saved by --save instead of playing")
    a = p.parse_args(argv)
    try:
        spec, opponent = parse_spec(a.bot), parse_spec(a.opponent)
        Rules.preset(a.rules)
    except ValueError as e:
        p.error(str(e))
    probe = _make(spec, 0)
    if not isinstance(probe, SearchBot):
        p.error(f"--bot: {spec[0]!r} is not the search bot (only it predicts points per choice)")
    if a.deals < 1:
        p.error("--deals: must be at least 1")
    t0 = time.perf_counter()
    if a.load:
        try:
            with open(a.load, encoding="utf-8") as f:
                saved = json.load(f)
            rows, deals = saved["rows"], saved["deals"]
            margins = float(saved["bid_margin"]), float(saved["alone_margin"])
            seed = int(saved["seed"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            p.error(f"--load: {a.load}: not a file written by --save ({e})")
    else:
        rows = run_chunks(_work, (a.rules, spec, opponent, a.seed), a.deals, a.jobs)
        deals = a.deals
        margins, seed = (probe.bid_margin, probe.alone_margin), a.seed
        if a.save:
            with open(a.save, "w", encoding="utf-8") as f:
                json.dump({"deals": deals, "seed": seed, "bid_margin": margins[0], "alone_margin": margins[1],
                           "rows": rows}, f)
    print(f"{a.rules}: {len(rows)} bidding decisions of {spec[0]} over {deals} deals against "
          f"{opponent[0]}, seed {seed} ({time.perf_counter() - t0:.0f} s)")
    mismatches = report(rows, deals, *margins, a.close)
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
