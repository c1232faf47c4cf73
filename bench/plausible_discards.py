"""Does valuing only the plausible discards lose anything? The dealer's six discards, all valued.

The search bot values the dealer's discard (its own decision, and its later discard inside the
rollouts of its order up) only among :func:`euchre.bots.search.plausible_discards`: the lowest card
of each side suit, or its lowest trump if it holds no side card. This takes the dealer's discards
of games of four heuristic players (seeded), values all six with the expert's budget (the hint's
path: ``evaluate(view, actions=legal)``), and counts how often the best of the six is outside the
plausible set and by how many points the best plausible discard falls short of it. The cost
saving is measured by ``bench/latency.py`` (the dealer's bids).

    python bench/plausible_discards.py [--rules american] [--positions 200] [--seed 5000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.bots import make_bot  # noqa: E402
from euchre.bots.levels import level_bot  # noqa: E402
from euchre.bots.search import SearchBot, plausible_discards  # noqa: E402
from euchre.errors import RulesError  # noqa: E402
from euchre.game import Game  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase  # noqa: E402
from euchre.view import PlayerView  # noqa: E402


def discard_views(rules: Rules, count: int, seed: int) -> list[PlayerView]:
    """The first ``count`` dealer's discards of heuristic games from game ``seed`` on."""
    views: list[PlayerView] = []
    g = seed
    while len(views) < count:
        game = Game(rules, seed=g)
        g += 1
        bots = [make_bot("heuristic", seed=s) for s in range(rules.players)]
        while not game.is_over and len(views) < count:
            view = game.view(game.to_act)
            if view.phase is Phase.DISCARD:
                views.append(view)
            game.push(bots[game.to_act].choose(view))
    return views


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="american")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=5000)
    a = p.parse_args(argv)
    try:
        rules = Rules.preset(a.rules)
    except RulesError as e:
        p.error(str(e))
    start = time.perf_counter()
    bot = level_bot("expert", seed=3)
    assert isinstance(bot, SearchBot)
    outside = 0
    losses: list[float] = []
    sizes: list[int] = []
    for view in discard_views(rules, a.positions, a.seed):
        legal = list(view.legal_actions)
        assert view.trump is not None
        keep = plausible_discards(legal, view.trump)
        sizes.append(len(keep))
        evals = bot.evaluate(view, actions=legal)
        best = max(evals, key=lambda e: e.points)
        kept = max((e for e in evals if e.action in keep), key=lambda e: e.points)
        losses.append(best.points - kept.points)
        if best.action not in keep:
            outside += 1
            print(f"  outside: {' '.join(map(str, view.hand))}: best {best.action} {best.points:+.3f}, "
                  f"plausible best {kept.action} {kept.points:+.3f}")
    print(f"{a.rules}: {len(losses)} discards (seed {a.seed}), the best of six outside the plausible set "
          f"{outside} times; points given up: mean {statistics.mean(losses):.4f}, max {max(losses):.3f}; "
          f"plausible discards a position: {statistics.mean(sizes):.2f} of 6 ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
