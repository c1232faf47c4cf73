"""The compiled batch simulator against OpenSpiel's all-C++ random playouts, and the vectorised
environment against a Python loop over the engine.

Playouts (hands per second): ``euchre.batch.simulate`` (random, then heuristic seats) against
``pyspiel.evaluate_bots`` with four ``pyspiel.make_uniform_random_bot`` bots, one C++ call per hand
(the deal, every decision and the scoring in C++), over
``euchre(stick_the_dealer=true,allow_lone_defender=false)``. The rules are those of
``bench/engine.py`` on both sides: stick the dealer, the dealer may not discard the up card, going
alone allowed, no lone defender. The Python heuristic (``HeuristicBot`` on ``PlayerView``s) is
timed too, for the speed-up of its port.

Vectorised environment (steps per second, one step = one decision at one table):
``euchre.batch.VectorEnv`` with ``--tables`` tables, each step's actions drawn by the compiled
random policy, every step writing each table's observation (the PettingZoo layout of
``euchre.envs.observation``) and legal-action mask; against a Python loop over the engine that
does what one table of an environment does at each step (the legal actions, a random choice,
``State._push``, then ``encode`` and ``action_mask`` of the next seat's ``PlayerView``), the bare
loop without the observation, and PettingZoo's AEC environment ``euchre.envs.euchre_v0.env``
(random legal actions; needs the ``rl`` extra).

    python bench/batch.py [--seconds 3] [--slice 0.25] [--chunk 5000] [--tables 256] [--no-env]
    python bench/batch.py --sister [--games hasenpfeffer,napoleon-7] [--seconds 3] [--slice 0.25] [--chunk 5000]

``--sister`` measures the sister games instead (Hasenpfeffer, Bid Euchre, its double deck,
Napoleon at 3 to 7 players; ``--games`` picks some, by preset name and ``napoleon-N``): for each,
``euchre.batch.simulate`` with every seat random (and, for the record, every seat heuristic)
against the engine's own random playouts of the same game in Python (``State.random``, a
uniformly random legal action, the unchecked ``State._push``, until the hand is over), the named
baseline of the ratio, measured in the same run.

The sides of each part take turns in slices of ``--slice`` seconds until each has run
``--seconds``, so a change in the machine's load slows all alike; the ratios are the numbers to
compare across runs. The compiled code is loaded (or compiled, the first time on a machine, and
cached) before any timing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.batch import VectorEnv, simulate  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

RULES = Rules(stick_the_dealer=True, dealer_may_discard_up_card=False)
OPENSPIEL_GAME = "euchre(stick_the_dealer=true,allow_lone_defender=false)"


class Meter:
    """Units (hands or steps) and seconds of one side, accumulated over interleaved slices.
    ``work()`` does some units and returns how many."""

    def __init__(self, name: str, work: Callable[[], int], unit: str) -> None:
        self.name = name
        self.work = work
        self.unit = unit
        self.units = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        t0 = time.perf_counter()
        units = 0
        while True:
            units += self.work()
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        self.units += units
        self.seconds += dt

    def reset(self) -> None:
        self.units = 0
        self.seconds = 0.0

    @property
    def rate(self) -> float:
        return self.units / self.seconds if self.seconds else 0.0


SISTER_GAMES = ("hasenpfeffer", "bid-euchre", "bid-euchre-double", "napoleon-3", "napoleon-4", "napoleon-5",
                "napoleon-6", "napoleon-7")
"""The sister games ``--sister`` measures: a preset name, or ``napoleon-N`` for N players."""


def sister_rules(name: str) -> Rules:
    """The rules of a ``--games`` name."""
    if name.startswith("napoleon-"):
        return Rules.preset("napoleon", players=int(name.split("-")[1]))
    return Rules.preset(name)


def interleave(meters: list[Meter], seconds: float, slice_: float) -> None:
    for m in meters:  # warm up: caches, imports, the compiled code
        m.run(0.05)
        m.reset()
    elapsed = 0.0
    while elapsed < seconds:
        for m in meters:
            m.run(slice_)
        elapsed += slice_


def batch_meter(name: str, chunk: int, policy: str, rules: Rules = RULES) -> Meter:
    state = {"seed": 0}

    def work() -> int:
        state["seed"] += 1
        simulate(rules, hands=chunk, seed=state["seed"], policy=policy, dealer="random")
        return chunk

    return Meter(name, work, "hands")


def openspiel_meter() -> Meter | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OPENSPIEL_GAME)
    bots = [pyspiel.make_uniform_random_bot(i, 1234 + i) for i in range(4)]
    state = {"seed": 0}

    def work() -> int:
        seed = state["seed"]
        for k in range(256):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + k)
        state["seed"] = seed + 256
        return 256

    return Meter("openspiel evaluate_bots (C++)", work, "hands")


def python_heuristic_meter() -> Meter:
    from euchre.bots.heuristic import HeuristicBot

    bot = HeuristicBot()
    rng = random.Random(5)

    def work() -> int:
        s = State.random(RULES, dealer=rng.randrange(4), rng=rng)
        while s.phase is not Phase.OVER:
            s._push(bot.choose(PlayerView.of(s, s.to_act)))
        return 1

    return Meter("python HeuristicBot", work, "hands")


def python_random_meter(rules: Rules) -> Meter:
    """The engine's random playouts in Python: a shuffled deal with a random dealer, then a
    uniformly random legal action (``State._push``, unchecked) until the hand is over."""
    rng = random.Random(7)
    n = rules.players

    def work() -> int:
        for _ in range(16):
            s = State.random(rules, dealer=rng.randrange(n), rng=rng)
            while s.phase is not Phase.OVER:
                s._push(rng.choice(s.legal_actions()))
        return 16

    return Meter("python engine random playouts", work, "hands")


def sister(args: argparse.Namespace) -> int:
    """The sister games' part (``--sister``): compiled random playouts against the engine's."""
    names = args.games.split(",") if args.games else list(SISTER_GAMES)
    games = [(name, sister_rules(name)) for name in names]
    t0 = time.perf_counter()
    for _, rules in games:
        simulate(rules, hands=1, policy="random")
        simulate(rules, hands=1, policy="heuristic")
    print(f"compiled code ready in {time.perf_counter() - t0:.2f} s (not counted)")
    _load("before")
    ratios = []
    for name, rules in games:
        ours = batch_meter("batch simulate (random)", args.chunk, "random", rules)
        heur = batch_meter("batch simulate (heuristic)", max(1, args.chunk // 4), "heuristic", rules)
        base = python_random_meter(rules)
        interleave([ours, base, heur], args.seconds, args.slice)
        print(f"{name} ({rules.players} players, {rules.hand_size} cards each):")
        report([ours, base, heur], base)
        ratios.append((name, ours.rate / base.rate))
    print("ratio batch random / python engine random, by game: "
          + ", ".join(f"{name} {ratio:.0f}" for name, ratio in ratios))
    _load("after")
    return 0


def _load(when: str) -> None:
    try:
        load = os.getloadavg()
    except OSError:
        return
    extra = f" on {os.cpu_count()} cores" if when == "before" else ""
    print(f"load average {when}: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}{extra}")


def vector_meter(tables: int) -> Meter:
    env = VectorEnv(RULES, tables, seed=3, dealer="random")

    def work() -> int:
        for _ in range(16):
            env.step(env.policy_actions("random"))
        return 16 * tables

    return Meter(f"VectorEnv ({tables} tables)", work, "steps")


def python_loop_meter(observe: bool) -> Meter:
    """One table in Python: a random legal action, ``State._push``, and (``observe``) the next
    seat's observation and mask as the PettingZoo environment makes them (``encode`` of its
    ``PlayerView``)."""
    from euchre.envs.observation import action_mask, encode

    rng = random.Random(9)
    box = {"s": State.random(RULES, dealer=0, rng=rng)}

    def work() -> int:
        s = box["s"]
        for _ in range(64):
            s._push(rng.choice(s.legal_actions()))
            if s.phase is Phase.OVER:
                s = box["s"] = State.random(RULES, dealer=rng.randrange(4), rng=rng)
            if observe:
                view = PlayerView.of(s, s.to_act)
                encode(view)
                action_mask(view)
        return 64

    return Meter("python engine loop" + (" + observation" if observe else ""), work, "steps")


def pettingzoo_meter() -> Meter | None:
    """The PettingZoo AEC environment (``euchre.envs.euchre_v0.env``), random legal actions."""
    try:
        from euchre.envs import euchre_v0
    except ImportError:
        return None
    env = euchre_v0.env(rules=RULES)
    rng = random.Random(11)
    env.reset(seed=1)

    def work() -> int:
        for _ in range(64):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset(seed=rng.randrange(1 << 30))
                continue
            env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        return 64

    return Meter("pettingzoo euchre_v0.env", work, "steps")


def openspiel_python_meter() -> Meter | None:
    """OpenSpiel's built-in ``euchre`` driven from Python as a learner drives it: at each decision
    the player's information-state tensor (its euchre has no observation tensor) and legal
    actions, a random legal action, ``apply_action``; chance nodes sampled from their outcomes."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OPENSPIEL_GAME)
    rng = random.Random(13)
    box = {"s": game.new_initial_state()}

    def work() -> int:
        steps = 0
        while steps < 64:
            st = box["s"]
            if st.is_terminal():
                st = box["s"] = game.new_initial_state()
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            st.information_state_tensor(st.current_player())  # its euchre has no observation tensor
            st.apply_action(rng.choice(st.legal_actions()))
            steps += 1
        return steps

    return Meter("openspiel from python + infostate tensor", work, "steps")


def report(meters: list[Meter], base: Meter | None) -> None:
    for m in meters:
        ratio = f"  x{m.rate / base.rate:6.2f}" if base is not None and base is not m and base.rate else ""
        print(f"  {m.name + ':':36}{m.rate:12,.0f} {m.unit}/s{ratio}  ({m.units:,} in {m.seconds:.1f} s)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per side (default 3)")
    p.add_argument("--slice", type=float, default=0.25, help="the sides take turns in slices of this many seconds")
    p.add_argument("--chunk", type=int, default=5000, help="hands per simulate call (default 5000)")
    p.add_argument("--tables", type=int, default=256, help="tables of the VectorEnv (default 256)")
    p.add_argument("--no-env", action="store_true", help="skip the vectorised-environment part")
    p.add_argument("--sister", action="store_true",
                   help="measure the sister games instead: compiled random playouts against the engine's in Python")
    p.add_argument("--games", default="", help=f"with --sister, some of: {','.join(SISTER_GAMES)}")
    args = p.parse_args(argv)
    if args.sister:
        return sister(args)

    t0 = time.perf_counter()
    simulate(RULES, hands=1, policy="random")
    simulate(RULES, hands=1, policy="heuristic")
    env = VectorEnv(RULES, 2)
    env.step(env.policy_actions("heuristic"))
    print(f"compiled code ready in {time.perf_counter() - t0:.2f} s (not counted)")
    try:
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    except OSError:
        pass

    ours = batch_meter("batch simulate (random)", args.chunk, "random")
    heur = batch_meter("batch simulate (heuristic)", max(1, args.chunk // 4), "heuristic")
    other = openspiel_meter()
    meters = [ours] + ([other] if other is not None else []) + [heur, python_heuristic_meter()]
    interleave(meters, args.seconds, args.slice)
    print(f"playouts, rules {RULES.diff()} / {OPENSPIEL_GAME}:")
    report(meters, other)
    if other is not None:
        print(f"ratio batch random / openspiel: {ours.rate / other.rate:.2f}")
        print(f"ratio batch heuristic / openspiel random: {heur.rate / other.rate:.2f}")
    else:
        print("openspiel: not installed (pip install open-spiel); no ratio")
    print(f"ratio batch heuristic / python HeuristicBot: {heur.rate / meters[-1].rate:.0f}")

    if not args.no_env:
        vec = vector_meter(args.tables)
        loop = python_loop_meter(observe=True)
        bare = python_loop_meter(observe=False)
        env_meters = [vec, loop, bare]
        pz = pettingzoo_meter()
        if pz is not None:
            env_meters.append(pz)
        osp = openspiel_python_meter()
        if osp is not None:
            env_meters.append(osp)
        interleave(env_meters, args.seconds, args.slice)
        print("vectorised environment, random actions:")
        report(env_meters, loop)
        print(f"ratio VectorEnv / python loop + observation: {vec.rate / loop.rate:.0f}")
        if osp is not None:
            print(f"ratio VectorEnv / openspiel from python + infostate tensor: {vec.rate / osp.rate:.0f}")
        if pz is not None:
            print(f"ratio VectorEnv / pettingzoo env: {vec.rate / pz.rate:.0f}")
        else:
            print("pettingzoo env: not importable (pip install 'euchre[rl]'); not timed")
    try:
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
