"""Are a hint's points right? A hint's expected points against the solved value of the real deal.

A hint (:func:`euchre.hints.hint`) gives each choice the points the seat can expect, averaged over
deals sampled for what the seat cannot see. Averaged over many positions, a hint's points minus
the value of the same choice on the *real* deal (the search bot's valuation of the one true deal,
as ``bench/ceiling.py``'s cheater takes it: the rest of the bidding by the heuristic player, the
play solved exactly) is zero if the deals are sampled as likely as they really are, whatever the
position. It is not if the hint ignores what the bidding said: a partner who ordered up holds a
stronger hand than a random one.

Positions come from games of four ``--bot`` players (seeded; the heuristic by default, whose bids
the hints read with the heuristic player's model, and ``--bot expert`` to see how they fare on
bidders the model only approximates): second-round bids and first-round bids after another seat's
bid, dealer's discards and the first two tricks' cards, each with a real choice. Each is hinted
twice, reading the bids (the hint as it is) and not (``read_bids=False``, the hint before), and
every choice is valued on the real deal. Per group of positions (the phase, and who made trump:
the seat, its partner or the other side) it prints the mean bias (hint minus real, averaged over a
position's choices, then over positions, with a 95% interval over positions), the mean absolute
bias, and the regret of the hint's best choice (the real deal's best minus the real value of the
hint's best: lower is better advice; the same deals for both).

    python bench/hint_calibration.py [--positions 240] [--seed 0] [--bot heuristic] [--jobs 2]
                                     [--samples N] [--bid-samples N]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import get_context

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.actions import Action, Kind  # noqa: E402
from euchre.bots import make_bot  # noqa: E402
from euchre.bots.search import SearchBot, _Later  # noqa: E402
from euchre.game import Game  # noqa: E402
from euchre.hints import HINT_BID_SAMPLES, HINT_SAMPLES, hint  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

GROUPS = ("BID", "DISCARD", "PLAY")
MAKES = (Kind.ORDER, Kind.ORDER_ALONE, Kind.CALL, Kind.CALL_ALONE)


def real_values(state: State, seat: int, legal: list[Action]) -> dict[Action, float]:
    """Each choice's points on the real deal (``ceiling.Cheater``'s valuation: a later bid of the
    seat's own at its best)."""
    bot = SearchBot(seed=1, score_aware=False, bid_margin=0.0, alone_margin=0.0)
    view = PlayerView.of(state, seat)
    values = bot._values(state.copy(stack=False), seat, legal, view)
    out = {}
    for a in legal:
        v = values[a]
        out[a] = max(p for p, _ in v.values.values()) if isinstance(v, _Later) else v[0]
    return out


def maker_relation(view: PlayerView) -> str:
    """Who has made trump, from the seat's side: 'self', 'partner', 'other' or 'none' yet."""
    for s, a in view.actions:
        if s is not None and a is not None and a.kind in MAKES:
            if s == view.seat:
                return "self"
            return "partner" if view.rules.side_of(s) == view.rules.side_of(view.seat) else "other"
    return "none"


def group_of(view: PlayerView) -> str | None:
    """The benchmark's group of a view with a real choice, or None if it is not measured."""
    if len(view.legal_actions) < 2:
        return None
    name = view.phase.name
    if name == "PLAY":
        return "PLAY" if len(view.tricks) < 2 else None
    if name == "DISCARD":
        return "DISCARD"
    if name in ("BID1", "BID2"):
        others = [a for s, a in view.actions if s != view.seat and a is not None]
        return "BID" if others else None
    return None


def positions(count: int, seed: int, bot: str) -> list[tuple[State, int]]:
    """``count`` positions (the real state and the seat to act), an equal share of each group,
    at most one a group per hand."""
    want = {g: count // len(GROUPS) + (1 if i < count % len(GROUPS) else 0) for i, g in enumerate(GROUPS)}
    got: dict[str, list[tuple[State, int]]] = {g: [] for g in GROUPS}
    rng = random.Random(f"hint-calibration/{seed}")
    n = 0
    while any(len(got[g]) < want[g] for g in GROUPS):
        game = Game(Rules(), seed=rng.randrange(2**62))
        bots = [make_bot(bot, seed=n * 4 + s) for s in range(4)]
        n += 1
        seen: set[tuple[int, str]] = set()
        while not game.is_over and game.hand_number < 4:
            seat = game.to_act
            view = game.view(seat)
            group = group_of(view)
            key = (game.hand_number, group or "")
            if group and key not in seen and len(got[group]) < want[group] and rng.random() < 0.5:
                got[group].append((game.state.copy(stack=False), seat))
                seen.add(key)
            game.push(bots[seat].choose(view))
    return [p for g in GROUPS for p in got[g]]


def _measure(task: tuple[State, int, int, int]) -> dict[str, object]:
    state, seat, samples, bid_samples = task
    view = PlayerView.of(state, seat)
    legal = list(view.legal_actions)
    real = real_values(state, seat, legal)
    out: dict[str, object] = {"group": group_of(view), "maker": maker_relation(view)}
    best_real = max(real.values())
    for label, read in (("read", True), ("unread", False)):
        t0 = time.process_time()
        hs = {h.action: h.points for h in hint(view, samples=samples, bid_samples=bid_samples, read_bids=read)}
        cpu = time.process_time() - t0
        acts = [a for a in legal if a in hs]  # (a round-2 call pruned as hopeless has no points)
        out[label] = {"bias": sum(hs[a] - real[a] for a in acts) / len(acts),
                      "abs": sum(abs(hs[a] - real[a]) for a in acts) / len(acts),
                      "regret": best_real - real[max(acts, key=lambda a: hs[a])], "cpu": cpu}
    return out


def interval(xs: list[float]) -> str:
    """Mean and the half-width of its 95% interval."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return f"{m:+.3f} +- {1.96 * sd / math.sqrt(n):.3f}"


def report(rows: list[dict[str, object]]) -> None:
    print(f"{'positions':<25} {'n':>4}  {'bias read':>16} {'bias unread':>16}  {'|bias| read/unread':>19}"
          f"  {'regret read':>16} {'regret unread':>16}")
    keys: list[tuple[str, str | None]] = [(g, None) for g in GROUPS] + [
        (g, m) for g in GROUPS for m in ("self", "partner", "other", "none")] + [("all", None)]
    for g, m in keys:
        sel = [r for r in rows if (g == "all" or r["group"] == g) and (m is None or r["maker"] == m)]
        if len(sel) < 2:
            continue
        read = [r["read"] for r in sel]
        unread = [r["unread"] for r in sel]
        label = g if m is None else f"  {g}, made by {m}"
        print(f"{label:<25} {len(sel):>4}  {interval([x['bias'] for x in read]):>16}"  # type: ignore[index]
              f" {interval([x['bias'] for x in unread]):>16}"  # type: ignore[index]
              f"  {sum(x['abs'] for x in read) / len(sel):>8.3f} / {sum(x['abs'] for x in unread) / len(sel):<8.3f}"  # type: ignore[index]
              f"  {interval([x['regret'] for x in read]):>16}"  # type: ignore[index]
              f" {interval([x['regret'] for x in unread]):>16}")  # type: ignore[index]
    cpu = sorted(r["read"]["cpu"] for r in rows)  # type: ignore[index]
    cpu0 = sorted(r["unread"]["cpu"] for r in rows)  # type: ignore[index]
    print(f"CPU seconds a hint, median: read {cpu[len(cpu) // 2]:.2f}, unread {cpu0[len(cpu0) // 2]:.2f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=240)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", default="heuristic", help="the players of the games the positions come from")
    p.add_argument("--samples", type=int, default=HINT_SAMPLES)
    p.add_argument("--bid-samples", type=int, default=HINT_BID_SAMPLES)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    tasks = [(s, seat, args.samples, args.bid_samples) for s, seat in positions(args.positions, args.seed, args.bot)]
    if args.jobs > 1:
        with get_context("fork").Pool(args.jobs) as pool:
            rows = pool.map(_measure, tasks, chunksize=1)
    else:
        rows = [_measure(t) for t in tasks]
    print(f"{len(rows)} positions from games of {args.bot} players, seed {args.seed}; "
          f"hint budget {args.samples} / {args.bid_samples}; {time.perf_counter() - t0:.0f} s")
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
