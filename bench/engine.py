"""Complete random hands per second: this engine against OpenSpiel's ``euchre`` driven from Python.

Both engines run the same kind of loop in the same process, one after the other, with the same
seeded RNG recipe: a fresh random deal, then a uniformly random legal action at every decision
until the hand is over. The rules are set to match where the engines allow it: stick the dealer
on (OpenSpiel's default), the dealer may not discard the up card (OpenSpiel forbids it), going
alone allowed, no lone defender.

    python bench/engine.py [--seconds S] [--rounds N] [--checked]

``--checked`` also times our validating ``State.push`` (OpenSpiel's ``apply_action`` does not
check legality, so the headline number uses the unchecked ``State._push``). The ratio printed is
ours / OpenSpiel; above 1 means this engine is faster.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402

RULES = Rules(stick_the_dealer=True, dealer_may_discard_up_card=False)
OPENSPIEL_GAME = "euchre(stick_the_dealer=true,allow_lone_defender=false)"


def ours_hand(rng: random.Random) -> int:
    """One random hand with the unchecked ``_push``; returns the number of decisions."""
    s = State.random(RULES, dealer=rng.randrange(4), rng=rng)
    over = Phase.OVER
    choice = rng.choice
    push = s._push
    while s.phase is not over:
        push(choice(s.legal_actions()))
    return len(s.history)


def ours_hand_checked(rng: random.Random) -> int:
    """One random hand with the validating ``push``."""
    s = State.random(RULES, dealer=rng.randrange(4), rng=rng)
    while not s.is_over:
        s.push(rng.choice(s.legal_actions()))
    return len(s.history)


def openspiel_runner() -> Callable[[random.Random], int] | None:
    """The OpenSpiel loop, or ``None`` when open-spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OPENSPIEL_GAME)

    def openspiel_hand(rng: random.Random) -> int:
        s = game.new_initial_state()
        decisions = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
        return decisions

    return openspiel_hand


def measure(hand: Callable[[random.Random], int], seconds: float, seed: int = 42) -> tuple[float, float]:
    """Hands per second and decisions per hand over about ``seconds``."""
    rng = random.Random(seed)
    n = decisions = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(64):
            decisions += hand(rng)
        n += 64
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt, decisions / n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per engine per round (default 3)")
    p.add_argument("--rounds", type=int, default=1, help="alternate the engines this many times, keep the best")
    p.add_argument("--checked", action="store_true", help="also time the validating State.push")
    args = p.parse_args(argv)
    other = openspiel_runner()
    ours_best = os_best = checked_best = 0.0
    ours_len = os_len = 0.0
    for _ in range(args.rounds):
        rate, ours_len = measure(ours_hand, args.seconds)
        ours_best = max(ours_best, rate)
        if args.checked:
            checked_best = max(checked_best, measure(ours_hand_checked, args.seconds)[0])
        if other is not None:
            rate, os_len = measure(other, args.seconds)
            os_best = max(os_best, rate)
    print(f"ours (State._push):       {ours_best:9,.0f} hands/s  ({ours_len:.1f} decisions/hand)")
    if args.checked:
        print(f"ours (State.push):        {checked_best:9,.0f} hands/s")
    if other is None:
        print("openspiel: not installed (pip install open-spiel); no ratio")
        return 0
    print(f"openspiel (from Python):  {os_best:9,.0f} hands/s  ({os_len:.1f} decisions/hand)")
    print(f"ratio ours/openspiel:     {ours_best / os_best:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
