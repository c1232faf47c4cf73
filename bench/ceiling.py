"""How far the search bot is from a bot that cheats: the ceiling of sampling and solving.

The cheater sees every card (it is handed the real state, never a view) and plays what the
exact solver says: each card by its solved value, each bid and discard by the real deal's value
with the rest of the bidding played by the heuristic policy, as the search bot values a sample.
It is the search bot with one perfect sample, so the margin between them is what not seeing
the cards costs: sampling, reading the bidding and strategy fusion together. Per-hand duplicate
(each deal played with the sides swapped), points per hand with a 95% interval; the heuristic
bot is measured against the same cheater on the same deals as the named baseline.

    python bench/ceiling.py [--deals 300] [--bot search] [--seed 0] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from bots import net_points  # noqa: E402

from euchre.actions import Action  # noqa: E402
from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.bots.search import SearchBot, _Later  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402


class Cheater:
    """Chooses from the real state: the search bot's valuation of the one true deal."""

    def __init__(self, seed: int) -> None:
        self._bot = SearchBot(seed=seed, score_aware=False, bid_margin=0.0, alone_margin=0.0)

    def choose_state(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        view = PlayerView.of(state, seat)
        values = self._bot._values(state.copy(stack=False), seat, legal, view)

        def points(a: Action) -> float:
            # A bid after which the seat bids again: it will see the deal then too, so its best.
            v = values[a]
            return max(p for p, _ in v.values.values()) if isinstance(v, _Later) else v[0]
        return max(legal, key=points)


def play(state: State, honest: dict[int, Bot], cheat: dict[int, Cheater]) -> State:
    """Play a hand out; honest bots see views, the cheaters the state."""
    while not state.is_over:
        seat = state.to_act
        if seat in cheat:
            state.push(cheat[seat].choose_state(state))
        else:
            state.push(honest[seat].choose(PlayerView.of(state, seat)))
    return state


def _work(args: tuple[str, str, int, int, int]) -> list[float]:
    preset, bot, seed, lo, hi = args
    rules = Rules.preset(preset)
    n = rules.players
    out = []
    for i in range(lo, hi):
        rng = random.Random(f"{seed}/{i}")
        base = State.random(rules, dealer=rng.randrange(n), rng=rng)
        total = 0.0
        for side in range(rules.sides):
            honest = {s: make_bot(bot, seed=i * 13 + s) for s in range(n) if rules.side_of(s) == side}
            cheat = {s: Cheater(seed=i * 13 + s) for s in range(n) if rules.side_of(s) != side}
            total += net_points(play(base.copy(), honest, cheat), side)
        out.append(total / rules.sides)
    return out


def run(preset: str, bot: str, deals: int, seed: int, jobs: int) -> tuple[float, float, int]:
    """Mean margin of ``bot`` against the cheater per hand, its 95% half-width, deals."""
    chunk = max(1, deals // (jobs * 8))
    tasks = [(preset, bot, seed, lo, min(lo + chunk, deals)) for lo in range(0, deals, chunk)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_work, tasks)
    else:
        parts = [_work(t) for t in tasks]
    d = [x for p in parts for x in p]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(len(d)), len(d)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--bot", default="search")
    p.add_argument("--baseline", default="heuristic")
    p.add_argument("--rules", default="american")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    for name in (a.bot, a.baseline):
        t0 = time.perf_counter()
        mean, half, n = run(a.rules, name, a.deals, a.seed, a.jobs)
        print(f"{a.rules}: {name} minus the cheater, {n} deals x 2 seatings: {mean:+.3f} points per hand, "
              f"95% CI [{mean - half:+.3f}, {mean + half:+.3f}] ({time.perf_counter() - t0:.0f}s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
