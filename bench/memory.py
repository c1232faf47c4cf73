"""Memory of the computer players: what a live bot object holds, and resident memory per table.

The online server makes one bot per computer seat per table (``level_bot(level, seed=...)``) and
keeps it as long as the table lives, asking it for decisions from a small thread pool. Each level
is measured in a fresh process, so that one level's leftovers do not count for the next:

* per bot: ``--bots`` bots are made and each plays the decisions of ``--hands`` hands at seat 0
  of its own game (the heuristic player at the other seats); the games are dropped and
  tracemalloc counts what the live bots still hold. What a process loads once (numba's compiled
  search, the solver of each thread, the tables of the engine) is loaded by a warm-up hand before
  and printed apart as the process's fixed cost, not counted per bot;
* per table: ``--tables`` tables of three bots of the level (the server's computer seats; seat 0,
  the person, is played by the heuristic bot) play ``--hands`` hands, every decision of a bot run
  in a pool of ``--threads`` threads as the server does, without tracemalloc; the growth of the
  process's resident memory (RSS) over the warm process is printed per table, and again once the
  tables are dropped (``after unload``: what the allocator did not give back).

    python bench/memory.py [--levels easy,medium,hard,expert] [--bots 20] [--tables 20]
                           [--hands 1] [--threads 2] [--rules american] [--seed 0] [--top 0]

It takes about a minute with the defaults on one core (the expert's decisions dominate).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from euchre.bots import Bot, make_bot  # noqa: E402
from euchre.bots.levels import LEVELS, level_bot  # noqa: E402
from euchre.game import Game  # noqa: E402
from euchre.rules import Rules  # noqa: E402

MB = 1024 * 1024


def rss() -> int:
    """The process's resident memory now, in bytes (Linux ``/proc``; else the peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def _hands_done(game: Game, start: int) -> int:
    return len(game.hands) - start - (0 if game.state.is_over else 1)


def play(game: Game, bots: dict[int, Bot], hands: int, pool: ThreadPoolExecutor | None = None) -> int:
    """Play until ``hands`` more hands are finished (or the game is over); the number of decisions
    with a choice the bots were asked for."""
    start = len(game.hands) - (0 if game.state.is_over else 1)
    asked = 0
    while not game.is_over and _hands_done(game, start) < hands:
        seat = game.to_act
        view = game.view(seat)
        asked += len(view.legal_actions) > 1
        bot = bots[seat]
        action = pool.submit(bot.choose, view).result() if pool is not None else bot.choose(view)
        game.push(action)
    return asked


def table_bots(level: str, seed: int, n: int) -> dict[int, Bot]:
    """A table's players: the level's bot at every seat but 0 (the person: the heuristic bot)."""
    bots: dict[int, Bot] = {s: level_bot(level, seed=(seed * 31 + s) % 2**63) for s in range(1, n)}
    bots[0] = make_bot("heuristic", seed=seed)
    return bots


def measure(level: str, a: argparse.Namespace) -> dict[str, Any]:
    """Every number for one level (run in a process of its own)."""
    rules = Rules.preset(a.rules)
    n = rules.players
    pool = ThreadPoolExecutor(a.threads) if a.threads > 0 else None
    out: dict[str, Any] = {"level": level}
    rss0 = rss()
    # Warm-up: a hand (in every pool thread) loads what the process keeps whatever the bots.
    t0 = time.perf_counter()
    play(Game(rules, seed=-1), {s: level_bot(level, seed=-1 - s) for s in range(n)}, 1)
    if pool is not None:
        for k in range(a.threads):
            play(Game(rules, seed=-2 - k), {s: level_bot(level, seed=-10 - s) for s in range(n)}, 1, pool)
    gc.collect()
    out["fixed_rss"] = rss() - rss0
    out["warm_s"] = time.perf_counter() - t0

    # Per bot: what live bots hold once their games are gone.
    t0 = time.perf_counter()
    tracemalloc.start(25 if a.top else 1)
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    before = tracemalloc.take_snapshot() if a.top else None
    keep: list[Bot] = []
    asked = 0
    for i in range(a.bots):
        keep.append(level_bot(level, seed=a.seed * 1000 + i))
        others: dict[int, Bot] = {s: make_bot("heuristic", seed=a.seed * 1000 + i * 10 + s) for s in range(1, n)}
        asked += play(Game(rules, seed=a.seed * 1000 + i), {0: keep[-1], **others}, a.hands)
        del others
    gc.collect()
    grown, peak = tracemalloc.get_traced_memory()
    out["grown_per_bot"] = (grown - base) / max(a.bots, 1)
    out["peak_over_base"] = peak - base
    out["bot_decisions"] = asked
    if a.top and before is not None:
        stats = tracemalloc.take_snapshot().compare_to(before, "traceback")
        out["top"] = [(s.size_diff, s.count_diff, "\n".join(s.traceback.format()[-6:])) for s in stats[: a.top]]
    # What the bots held is what their going frees; the rest of the growth stays in the
    # process (caches of the engine shared by every bot, filled by the sampling).
    mark, _ = tracemalloc.get_traced_memory()
    del keep
    gc.collect()
    out["per_bot"] = (mark - tracemalloc.get_traced_memory()[0]) / max(a.bots, 1)
    tracemalloc.stop()
    out["bots_s"] = time.perf_counter() - t0

    # Per table: resident memory of live tables of three bots, and after they are dropped.
    t0 = time.perf_counter()
    gc.collect()
    start = rss()
    tables: list[dict[int, Bot]] = []
    asked = 0
    for i in range(a.tables):
        bots = table_bots(level, a.seed * 1000 + i, n)
        asked += play(Game(rules, seed=a.seed * 1000 + 500 + i), bots, a.hands, pool)
        tables.append(bots)
    gc.collect()
    out["per_table_rss"] = (rss() - start) / max(a.tables, 1)
    out["table_decisions"] = asked
    tables.clear()
    gc.collect()
    out["after_unload_rss"] = rss() - start
    out["tables_s"] = time.perf_counter() - t0
    if pool is not None:
        pool.shutdown()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels (default: all)")
    p.add_argument("--bots", type=int, default=20, help="bots measured per level with tracemalloc")
    p.add_argument("--tables", type=int, default=20, help="tables of three bots measured by RSS")
    p.add_argument("--hands", type=int, default=1, help="hands each bot and table plays first")
    p.add_argument("--threads", type=int, default=2,
                   help="threads the tables' decisions run in, as the server's pool (0: the main thread)")
    p.add_argument("--rules", default="american")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--top", type=int, default=0, help="also list the N allocation sites the bots hold most")
    p.add_argument("--child", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.child, a)))
        return 0
    levels = [x.strip() for x in a.levels.split(",") if x.strip()]
    print(f"memory on {a.rules}: {a.bots} bots a level (tracemalloc), {a.tables} tables of three bots (RSS), "
          f"{a.hands} hand(s) each, {a.threads} thread(s); one process per level")
    print(f"{'level':8s} {'per bot':>10s} {'grown/bot':>10s} {'peak':>9s} {'fixed RSS':>10s} {'RSS/table':>10s} "
          f"{'after unload':>13s} {'time':>6s}")
    for level in levels:
        rest = argv if argv is not None else sys.argv[1:]
        args = [sys.executable, os.path.abspath(__file__), "--child", level, *rest]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"{level}: failed\n{done.stderr}", file=sys.stderr)
            return 1
        r = json.loads(done.stdout.strip().splitlines()[-1])
        total = r["warm_s"] + r["bots_s"] + r["tables_s"]
        print(f"{level:8s} {r['per_bot'] / 1024:7.1f} KB {r['grown_per_bot'] / 1024:7.1f} KB "
              f"{r['peak_over_base'] / MB:6.1f} MB "
              f"{r['fixed_rss'] / MB:7.1f} MB {r['per_table_rss'] / MB:7.2f} MB "
              f"{r['after_unload_rss'] / MB:10.1f} MB {total:5.0f} s")
        for size, count, where in r.get("top", []):
            print(f"    {size / 1024:9.1f} KB in {count} blocks\n        " + where.replace("\n", "\n        "))
    print("per bot: traced bytes a live bot holds after its hand(s) (freed when it goes); grown/bot: traced growth")
    print("of the process per bot, process-wide caches included; peak: traced peak while the bots played;")
    print("fixed RSS: the warm-up (loaded once a process); RSS/table: growth per live table of three bots;")
    print("after unload: RSS growth left once the tables are dropped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
