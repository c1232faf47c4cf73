"""Complete random hands per second: this engine against OpenSpiel's ``euchre`` driven from Python.

Both engines run the same kind of loop in the same process, one after the other, with the same
seeded RNG recipe: a fresh random deal, then a uniformly random legal action at every decision
until the hand is over. The rules are set to match where the engines allow it: stick the dealer
on (OpenSpiel's default), the dealer may not discard the up card (OpenSpiel forbids it), going
alone allowed, no lone defender.

    python bench/engine.py [--seconds S] [--slice S] [--checked]

The engines take turns in short slices (``--slice``) until each has run ``--seconds``, so that
other work on the machine slows both alike. ``--checked`` also times our validating
``State.push`` (OpenSpiel's ``apply_action`` does not check legality, so the headline number uses
the unchecked ``State._push``). The ratio printed is ours / OpenSpiel; above 1 means this engine
is faster.
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


class Meter:
    """Hands, decisions and seconds of one engine, accumulated over interleaved slices."""

    def __init__(self, hand: Callable[[random.Random], int], seed: int = 42) -> None:
        self.hand = hand
        self.rng = random.Random(seed)
        self.hands = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Play hands for about ``seconds`` (whole batches of 16)."""
        hand, rng = self.hand, self.rng
        n = decisions = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(16):
                decisions += hand(rng)
            n += 16
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        self.hands += n
        self.decisions += decisions
        self.seconds += dt

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    @property
    def per_hand(self) -> float:
        return self.decisions / self.hands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="time per engine (default 5)")
    p.add_argument("--slice", type=float, default=0.25,
                   help="the engines take turns in slices of this many seconds, so that a change in "
                        "machine load hits both alike (default 0.25)")
    p.add_argument("--checked", action="store_true", help="also time the validating State.push")
    args = p.parse_args(argv)
    other = openspiel_runner()
    meters = {"ours (State._push)": Meter(ours_hand)}
    if args.checked:
        meters["ours (State.push)"] = Meter(ours_hand_checked)
    if other is not None:
        meters["openspiel (from Python)"] = Meter(other)
    for m in meters.values():  # warm up (caches, imports) outside the measurement
        m.run(0.05)
        m.hands = m.decisions = 0
        m.seconds = 0.0
    elapsed = 0.0
    while elapsed < args.seconds:
        for m in meters.values():
            m.run(args.slice)
        elapsed += args.slice
    for name, m in meters.items():
        print(f"{name + ':':26}{m.rate:9,.0f} hands/s  ({m.per_hand:.1f} decisions/hand, {m.hands} hands)")
    if other is None:
        print("openspiel: not installed (pip install open-spiel); no ratio")
        return 0
    ratio = meters["ours (State._push)"].rate / meters["openspiel (from Python)"].rate
    print(f"{'ratio ours/openspiel:':26}{ratio:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
