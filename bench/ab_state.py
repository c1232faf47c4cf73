"""Random hands per second of the engine's ``state.py`` at a git revision against the working
tree's, interleaved in one process so the machine's load slows both alike.

    python bench/ab_state.py [--rev HEAD] [--seconds 8] [--slice 0.2]

Both modules are loaded side by side (the old one under another name, sharing the rest of the
package); each plays the loop of ``bench/engine.py`` (a fresh random deal, a uniformly random
legal action until the hand is over, the unchecked ``_push``) in turns of ``--slice`` seconds.
The ratio printed is new / old: above 1, the working tree is faster.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from types import ModuleType

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import euchre.state as new_state  # noqa: E402
from euchre.rules import Rules  # noqa: E402

RULES = Rules(stick_the_dealer=True, dealer_may_discard_up_card=False)


def load_revision(rev: str) -> ModuleType:
    """``euchre/state.py`` as it was at ``rev``, loaded as the module ``euchre._state_at_rev``."""
    text = subprocess.run(["git", "show", f"{rev}:euchre/state.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = os.path.join(tempfile.mkdtemp(), "state_at_rev.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("euchre._state_at_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["euchre._state_at_rev"] = module
    spec.loader.exec_module(module)
    return module


def runner(module: ModuleType) -> Callable[[random.Random], None]:
    state_cls, over = module.State, module.Phase.OVER

    def hand(rng: random.Random) -> None:
        s = state_cls.random(RULES, dealer=rng.randrange(4), rng=rng)
        choice = rng.choice
        push = s._push
        while s.phase is not over:
            push(choice(s.legal_actions()))
    return hand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD", help="the git revision to compare against (default HEAD)")
    ap.add_argument("--seconds", type=float, default=8.0, help="total time of each side")
    ap.add_argument("--slice", type=float, default=0.2, help="seconds per turn")
    args = ap.parse_args()
    runs = {"new": runner(new_state), "old": runner(load_revision(args.rev))}
    done = {k: [0, 0.0] for k in runs}
    rngs = {k: random.Random(42) for k in runs}
    while min(t for _, t in done.values()) < args.seconds:
        for k, play in runs.items():
            start = time.perf_counter()
            n = 0
            while time.perf_counter() - start < args.slice:
                play(rngs[k])
                n += 1
            done[k][0] += n
            done[k][1] += time.perf_counter() - start
    old = done["old"][0] / done["old"][1]
    new = done["new"][0] / done["new"][1]
    print(f"{args.rev}: {old:,.0f} hands/s   working tree: {new:,.0f} hands/s   new/old {new / old:.3f}")


if __name__ == "__main__":
    main()
