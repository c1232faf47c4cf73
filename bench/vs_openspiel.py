"""Our bots against OpenSpiel's information-set MCTS, inside OpenSpiel's ``euchre``: a duplicate match.

    python bench/vs_openspiel.py [--bot heuristic] [--deals 200] [--sims 1000] [--seed 0]
                                 [--jobs 2] [--json] [--uct-c 2.0] [--policy max_visit_count]

One of our registered bots (``--bot``, any registry name) holds one side, OpenSpiel's
``pyspiel.ISMCTSBot`` (C++ IS-MCTS, random-rollout evaluator, ``--sims`` simulations a decision,
a fresh determinization per simulation through the game's ``ResampleFromInfostate``) holds the
other, every seat with its own bot instance and seed. Each deal (the dealer and the cards, drawn
by our seeded RNG and applied as OpenSpiel chance actions) is played twice, our bot on seats 0/2
and then on 1/3. The score of a play is OpenSpiel's return for one of our seats (our side's points
minus the other side's); a deal scores the mean of its two plays, so the luck of the cards
cancels. The result is the mean per hand with ``mean +- 1.96 * sd / sqrt(n)``, then the make,
euchre, alone and thrown-in rates of each side and the time per decision of each side.

**OpenSpiel is the referee.** Every action is applied to the OpenSpiel state; the ISMCTS bots
search that state. Our engine's ``State`` follows in lockstep as a mirror, only to build the
``PlayerView`` our bot needs; our bot's action is translated to OpenSpiel's action id. At every
decision where the two are in step, the seat to act and the legal actions must agree (in the
common form of ``tests/test_openspiel.py``), and at the end our points must equal OpenSpiel's
returns: any disagreement raises :class:`LockstepError`.

**Rules.** Our ``american`` preset with ``dealer_may_discard_up_card=False`` (OpenSpiel never lets
the dealer bury the card just picked up), and ``euchre(stick_the_dealer=false,
allow_lone_defender=false)`` to match it: the preset has no stick the dealer (OpenSpiel's default
is on) and no lone defence. Scoring and the opening lead are the same in both engines.

**The engine differences (docs/openspiel.md) and how each is translated:**

(a) *Alone is part of our bid; OpenSpiel asks the maker 29 alone / 30 with partner after the bid
    and after the dealer's discard.* Our bot's bid is translated to its suit action (25 + suit)
    and its alone flag is kept, then given as OpenSpiel's answer when it asks. An ISMCTS bid is
    not pushed to the mirror until ISMCTS has answered the alone question: the bid (and an
    ISMCTS dealer's discard in between) waits, then is pushed with the flag. One case cannot
    wait: ISMCTS orders up in round 1 and *our* bot is the dealer, who must discard before
    ISMCTS declares alone. The mirror then takes a provisional ``order`` (with partner), our bot
    discards from that view (it knows exactly what OpenSpiel has shown it: an order, no alone
    flag yet), and if ISMCTS then goes alone the mirror is rewound (``pop``) and replayed as
    ``order alone`` plus the same discard, which our rules allow unchanged (the dealer is a
    defender and still picks up).
(b) *The dealer may not discard the up card in OpenSpiel:* our rules are set the same way.
(c) *The dealer's partner goes alone in round 1.* Our dealer then sits out without picking up
    (RULES.md section 4); OpenSpiel's dealer still picks up and discards, a decision our engine
    does not have. When that dealer is ours, OpenSpiel's discard is answered with the lowest
    legal card id, without asking our bot; when it is ISMCTS's, ISMCTS decides it as usual and
    the mirror ignores it. The sitting-out dealer's cards are never played, so the choice
    cannot change the hand.
(d) *Lone defence.* OpenSpiel's ``allow_lone_defender`` offers it after every bid, ours only
    against a loner; the American preset has none, so it is off in both engines and never
    arises.
(e) *Card ids and seats.* Ours ``suit * 8 + rank`` (ranks ``789TJQKA``), OpenSpiel's
    ``rank * 4 + suit`` (ranks ``9TJQKA``); suits are in the same order (clubs, diamonds, hearts,
    spades) and seats are the same (0..3 clockwise, partners 0+2 and 1+3).

**ISMCTS settings.** ``pyspiel.ISMCTSBot(seed, evaluator, uct_c, max_simulations,
max_world_samples, final_policy_type, use_observation_string, allow_inconsistent_action_sets,
max_wall_clock_time)`` with ``RandomRolloutEvaluator(n_rollouts=1, seed)``, ``uct_c=2.0``
(euchre returns lie in -4..4), unlimited world samples (-1: a new determinization per
simulation), and by default the ``MAX_VISIT_COUNT`` final policy: ``Step`` samples its action
from the final policy, so the library default (``NORMALIZED_VISIT_COUNT``) would play a random
action in proportion to visits, a weaker opponent. ``--policy`` picks another. Decisions with a
single legal action return at once without search; times are printed for all decisions and for
the searched ones (two or more legal actions).

**Reproducibility.** Every seed (the deal, our bots, each ISMCTS bot and its rollout evaluator)
derives from ``--seed``, the deal index, the seating and the seat, never from the process or the
order of work, and results are gathered by deal index, so the deals and everything seeded are the
same for any ``--jobs``. The ISMCTS search itself is not bit-reproducible, though, even with the
same seed in the same process: OpenSpiel keeps a node's children in an ``absl::flat_hash_map``,
whose iteration order depends on memory addresses, and that order breaks UCT ties and picks
among equal visit counts. Two runs thus differ by noise of the size of the interval printed; a
test needing exact replays uses a seeded ``pyspiel.make_uniform_random_bot`` instead (``play``
takes any object with ``step(state)``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre.actions import PASS, Action  # noqa: E402
from euchre.bots import make_bot  # noqa: E402
from euchre.openspiel import OS_ALONE, OS_BID, OS_PARTNER, OS_PASS, chance_outcomes, os_common  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover - reported by main()
    pyspiel = None

RULES = Rules.preset("american", dealer_may_discard_up_card=False)
"""Our rules: the American preset, with the up card never buried (as OpenSpiel has it)."""
OPENSPIEL_GAME = (f"euchre(stick_the_dealer={str(RULES.stick_the_dealer).lower()},"
                  f"allow_lone_defender={str(RULES.defend_alone).lower()})")
"""OpenSpiel's game with the same stick-the-dealer and lone-defence settings as :data:`RULES`."""

POLICIES = ("max_visit_count", "normalized_visit_count", "max_value")
"""The ``--policy`` names of ``pyspiel.ISMCTSFinalPolicyType``."""


class LockstepError(AssertionError):
    """The mirror and OpenSpiel disagree: a translation bug, never a result."""


def common(action: Action, up_suit: int) -> int:
    """Our action in OpenSpiel's terms (see euchre.openspiel.os_common); a mismatch of the two
    engines is a lockstep failure here."""
    try:
        return os_common(action, up_suit)
    except ValueError as e:
        raise LockstepError(str(e)) from None


def ours_for(state: State, os_action: int, alone: bool = False) -> Action:
    """The mirror's legal action that OpenSpiel's ``os_action`` stands for (a bid with ``alone``)."""
    up_suit = state.up_card >> 3
    for x in state.legal_actions():
        if common(x, up_suit) == os_action and x.alone == alone:
            return x
    raise LockstepError(f"OpenSpiel action {os_action} (alone={alone}) has no legal counterpart "
                        f"in {[str(x) for x in state.legal_actions()]}")


def seed_of(*parts: object) -> int:
    """A 31-bit seed (a C++ ``int`` for pyspiel) derived from the parts, the same in any process."""
    return random.Random("/".join(map(str, parts))).randrange(2**31)


def deal(seed: int, index: int) -> State:
    """Deal ``index`` of a run: dealer and cards from their own seeded generator."""
    rng = random.Random(f"{seed}/{index}")
    return State.random(RULES, dealer=rng.randrange(4), rng=rng)


def setup_openspiel(game: Any, s: State) -> Any:
    """OpenSpiel's state at the deal of ``s`` (see euchre.openspiel.chance_outcomes)."""
    o = game.new_initial_state()
    for a in chance_outcomes(s):
        o.apply_action_with_legality_check(a)
    return o


def make_ismcts(sims: int, seed: int, uct_c: float, policy: str) -> Any:
    """One OpenSpiel ISMCTS bot with its own random-rollout evaluator (both seeded)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed_of("rollout", seed))
    final = getattr(pyspiel.ISMCTSFinalPolicyType, policy.upper())
    return pyspiel.ISMCTSBot(seed, evaluator, uct_c, sims, -1, final, False, False)


@dataclass
class Play:
    """One play of a deal: our side's seats, the outcome and the effort of each side."""

    ours: int
    """Our side: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    score: float = 0.0
    """Our side's points minus the other side's (OpenSpiel's return for our seats)."""
    thrown_in: bool = False
    maker_ours: bool = False
    """Our side named trump (false when thrown in)."""
    alone: bool = False
    """The maker went alone."""
    euchred: bool = False
    """The makers took fewer than three tricks."""
    our_time: float = 0.0
    """Seconds our bots spent, building the view and choosing."""
    our_decisions: int = 0
    os_time: float = 0.0
    """Seconds the OpenSpiel bots spent in ``step``."""
    os_decisions: int = 0
    os_searched: Counter = field(default_factory=Counter)
    """ISMCTS decisions with two or more legal actions, by kind (bid, discard, alone, play)."""
    os_searched_time: dict[str, float] = field(default_factory=dict)
    """Their seconds, by kind."""
    compared: int = 0
    """Decisions at which the mirror's seat and legal actions were checked against OpenSpiel's."""
    events: Counter = field(default_factory=Counter)
    """How often each translation case occurred (see the module docstring)."""


def play(game: Any, base: State, ours: int, bots: Sequence[Any]) -> Play:
    """Play the deal ``base`` once in OpenSpiel with our ``bots`` on the seats of side ``ours`` and
    OpenSpiel bots (ISMCTS, or anything with ``step(state)``) on the others, keeping the mirror in
    lockstep; returns the outcome. Raises :class:`LockstepError` if the engines disagree."""
    s = base.copy()
    o = setup_openspiel(game, s)
    up_suit = s.up_card >> 3
    rec = Play(ours=ours)
    our_alone: bool | None = None  # our maker's alone flag until OpenSpiel asks for it
    pending: list[int] = []  # an ISMCTS bid, then perhaps its side's discard, until alone is known
    bidder = -1  # the ISMCTS seat whose bid is pending
    provisional: Action | None = None  # our dealer's discard after a provisional `order`

    def check(cur: int, os_legal: list[int]) -> None:
        if cur != s.to_act:
            raise LockstepError(f"to act: mirror {s.to_act}, OpenSpiel {cur} ({s!r})")
        legal = sorted({common(x, up_suit) for x in s.legal_actions()})
        if legal != sorted(os_legal):
            raise LockstepError(f"{s.phase.name} seat {cur}: mirror {legal}, OpenSpiel {os_legal}")
        rec.compared += 1

    def ask_ours(seat: int) -> Action:
        t0 = time.perf_counter()
        a = bots[seat].choose(PlayerView.of(s, seat))
        rec.our_time += time.perf_counter() - t0
        rec.our_decisions += 1
        return a

    def ask_ismcts(seat: int, os_legal: list[int], kind: str) -> int:
        t0 = time.perf_counter()
        a = int(bots[seat].step(o))
        dt = time.perf_counter() - t0
        rec.os_time += dt
        rec.os_decisions += 1
        if len(os_legal) > 1:
            rec.os_searched_time[kind] = rec.os_searched_time.get(kind, 0.0) + dt
            rec.os_searched[kind] += 1
        return a

    while not o.is_terminal():
        cur = o.current_player()
        os_legal = list(o.legal_actions())
        mine = cur % 2 == ours
        if os_legal == [OS_ALONE, OS_PARTNER]:  # (a) the maker's alone question
            if mine:
                if our_alone is None or cur != s.maker:
                    raise LockstepError(f"OpenSpiel asks seat {cur} alone; mirror maker {s.maker}")
                o.apply_action_with_legality_check(OS_ALONE if our_alone else OS_PARTNER)
                our_alone = None
                continue
            if cur != bidder or not pending:
                raise LockstepError(f"OpenSpiel asks seat {cur} alone; pending ISMCTS bid {bidder}")
            answer = ask_ismcts(cur, os_legal, "alone")
            o.apply_action(answer)
            alone = answer == OS_ALONE
            if provisional is not None:
                if alone:  # rewind the provisional `order` and replay it alone
                    s.pop()
                    s.pop()
                    s.push(ours_for(s, pending[0], alone=True))
                    s.push(provisional)
                    rec.events["provisional order replayed alone"] += 1
                else:
                    rec.events["provisional order kept"] += 1
                provisional = None
            else:
                s.push(ours_for(s, pending[0], alone=alone))
                for a in pending[1:]:  # an ISMCTS dealer's discard
                    if s.phase is Phase.DISCARD:
                        s.push(ours_for(s, a))
                    else:  # (c) our dealer sits out: OpenSpiel's extra discard is not mirrored
                        rec.events["partner loner: ISMCTS dealer's discard not mirrored"] += 1
            pending, bidder = [], -1
            continue
        if pending:  # between an ISMCTS bid and its alone answer: the dealer's discard
            if os_legal[-1] >= OS_PASS:
                raise LockstepError(f"OpenSpiel asks {os_legal} of seat {cur} with a bid pending")
            if mine:  # our dealer discards after an ISMCTS order: provisional `order`
                s.push(ours_for(s, pending[0], alone=False))
                check(cur, os_legal)
                a = ask_ours(cur)
                s.push(a)
                provisional = a
                o.apply_action_with_legality_check(common(a, up_suit))
                rec.events["provisional order (ISMCTS bid, our dealer discards)"] += 1
            else:
                a_os = ask_ismcts(cur, os_legal, "discard")
                o.apply_action(a_os)
                pending.append(a_os)
            continue
        if mine and s.phase is not Phase.DISCARD and os_legal[-1] < OS_PASS and our_alone is not None:
            # (c) our partner went alone: OpenSpiel's dealer discards, ours sits out.
            if not (s.alone and s.maker == (s.dealer + 2) % 4 and cur == s.dealer):
                raise LockstepError(f"unexpected discard by seat {cur} ({s!r})")
            o.apply_action_with_legality_check(min(os_legal))
            rec.events["partner loner: our dealer's discard answered lowest id"] += 1
            continue
        check(cur, os_legal)
        if mine:
            a = ask_ours(cur)
            s.push(a)
            o.apply_action_with_legality_check(common(a, up_suit))
            if a.is_bid and a != PASS:
                our_alone = a.alone
        else:
            kind = "bid" if os_legal[-1] >= OS_PASS else "discard" if s.phase is Phase.DISCARD else "play"
            a_os = ask_ismcts(cur, os_legal, kind)
            o.apply_action(a_os)
            if OS_BID <= a_os < OS_ALONE:
                pending, bidder = [a_os], cur
            else:
                s.push(ours_for(s, a_os))
    if not s.is_over or pending or our_alone is not None:
        raise LockstepError(f"OpenSpiel is over, the mirror is not ({s!r})")
    returns = o.returns()
    points = s.points or (0, 0)
    if (points[0] - points[1], points[1] - points[0]) != (returns[0], returns[1]):
        raise LockstepError(f"points: mirror {points}, OpenSpiel returns {returns}")
    rec.score = float(returns[ours])
    rec.thrown_in = s.thrown_in
    if not s.thrown_in:
        rec.maker_ours = s.maker % 2 == ours
        rec.alone = s.alone
        rec.euchred = points[s.maker % 2] == 0
    return rec


def play_deal(index: int, bot: str, sims: int, seed: int, uct_c: float = 2.0,
              policy: str = "max_visit_count") -> tuple[float, list[Play]]:
    """Deal ``index`` played with both seatings: its duplicate score and the two plays."""
    game = pyspiel.load_game(OPENSPIEL_GAME)
    base = deal(seed, index)
    plays = []
    for ours in (0, 1):
        bots: list[Any] = [
            make_bot(bot, seed=seed_of("ours", seed, index, ours, seat)) if seat % 2 == ours
            else make_ismcts(sims, seed_of("ismcts", seed, index, ours, seat), uct_c, policy)
            for seat in range(4)]
        plays.append(play(game, base, ours, bots))
    return sum(p.score for p in plays) / len(plays), plays


def _work(args: tuple[int, int, str, int, int, float, str]) -> list[tuple[int, float, list[Play]]]:
    """Deals ``lo..hi``, each with its index (a pool task)."""
    lo, hi, bot, sims, seed, uct_c, policy = args
    return [(i, *play_deal(i, bot, sims, seed, uct_c, policy)) for i in range(lo, hi)]


def run(bot: str = "heuristic", deals: int = 200, sims: int = 1000, seed: int = 0, jobs: int = 1,
        uct_c: float = 2.0, policy: str = "max_visit_count", progress: bool = False) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and summarise them (the numbers ``main`` prints)."""
    if pyspiel is None:
        raise RuntimeError("pyspiel is not installed: pip install open-spiel")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    make_bot(bot, seed=0)  # fail early on an unknown name
    t0 = time.perf_counter()
    chunk = max(1, min(10, deals // (jobs * 4) or 1))
    tasks = [(lo, min(lo + chunk, deals), bot, sims, seed, uct_c, policy) for lo in range(0, deals, chunk)]
    rows: list[tuple[int, float, list[Play]]] = []

    def report(parts: Iterator[list[tuple[int, float, list[Play]]]]) -> None:
        for part in parts:
            rows.extend(part)
            if progress:
                m = sum(r[1] for r in rows) / len(rows)
                print(f"  {len(rows)}/{deals} deals, {time.perf_counter() - t0:.0f}s, mean {m:+.3f}",
                      file=sys.stderr, flush=True)

    if jobs > 1 and len(tasks) > 1:
        with Pool(jobs) as pool:
            report(pool.imap_unordered(_work, tasks))
    else:
        report(map(_work, tasks))
    rows.sort(key=lambda r: r[0])
    return summarise(rows, bot=bot, sims=sims, seed=seed, uct_c=uct_c, policy=policy,
                     seconds=time.perf_counter() - t0)


def summarise(rows: list[tuple[int, float, list[Play]]], **params: Any) -> dict[str, Any]:
    """The mean with its 95% interval, rates per side and times per decision."""
    diffs = [d for _, d, _ in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    plays = [p for _, _, ps in rows for p in ps]
    played = [p for p in plays if not p.thrown_in]
    events: Counter = Counter()
    for p in plays:
        events.update(p.events)

    def side(ours: bool) -> dict[str, float]:
        made = [p for p in played if p.maker_ours == ours]
        return {
            "made": len(made) / max(len(plays), 1),
            "euchred": sum(p.euchred for p in made) / max(len(made), 1),
            "alone": sum(p.alone for p in made) / max(len(made), 1),
        }

    def per(total: float, count: int) -> float:
        return total / count if count else 0.0

    searched: Counter = Counter()
    searched_time: dict[str, float] = {}
    for p in plays:
        searched.update(p.os_searched)
        for k, v in p.os_searched_time.items():
            searched_time[k] = searched_time.get(k, 0.0) + v
    return {
        **params,
        "game": OPENSPIEL_GAME,
        "deals": n,
        "plays": len(plays),
        "mean": mean,
        "sd": sd,
        "ci95": [mean - half, mean + half],
        "thrown_in": sum(p.thrown_in for p in plays) / max(len(plays), 1),
        "ours": side(True),
        "ismcts": side(False),
        "our_ms_per_decision": 1000 * per(sum(p.our_time for p in plays), sum(p.our_decisions for p in plays)),
        "ismcts_ms_per_decision": 1000 * per(sum(p.os_time for p in plays), sum(p.os_decisions for p in plays)),
        "ismcts_ms_per_searched_decision": 1000 * per(sum(searched_time.values()), sum(searched.values())),
        "ismcts_ms_by_kind": {k: 1000 * per(searched_time.get(k, 0.0), searched[k])
                              for k in ("bid", "discard", "alone", "play") if searched[k]},
        "decisions": {"ours": sum(p.our_decisions for p in plays), "ismcts": sum(p.os_decisions for p in plays),
                      "ismcts_searched": sum(searched.values()),
                      "compared": sum(p.compared for p in plays)},
        "events": dict(sorted(events.items())),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", default="heuristic", help="our bot, a registry name (default heuristic)")
    p.add_argument("--deals", type=int, default=200, help="duplicate deals, each played twice (default 200)")
    p.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations per decision (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant (default 2.0)")
    p.add_argument("--policy", choices=POLICIES, default="max_visit_count",
                   help="ISMCTS final policy its action is drawn from (default max_visit_count)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    a = p.parse_args(argv)
    if pyspiel is None:
        print("pyspiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    try:
        make_bot(a.bot, seed=0)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    r = run(a.bot, a.deals, a.sims, a.seed, a.jobs, a.uct_c, a.policy, progress=True)
    if a.json:
        print(json.dumps(r, indent=2))
        return 0
    lo, hi = r["ci95"]
    print(f"{r['game']}: {a.bot} vs ISMCTS ({a.sims} sims, uct_c {a.uct_c}, {a.policy}), "
          f"{r['deals']} deals x 2 seatings, seed {a.seed} ({r['seconds']:.0f}s)")
    print(f"  points per hand, {a.bot} minus ISMCTS: {r['mean']:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]")
    print(f"  thrown in {r['thrown_in']:.1%} of hands")
    for name, key in ((a.bot, "ours"), ("ISMCTS", "ismcts")):
        s = r[key]
        print(f"  {name}: made trump {s['made']:.1%} of hands, euchred {s['euchred']:.1%} of its makes, "
              f"alone {s['alone']:.1%} of its makes")
    d = r["decisions"]
    print(f"  time per decision: {a.bot} {r['our_ms_per_decision']:.3f} ms ({d['ours']} decisions); "
          f"ISMCTS {r['ismcts_ms_per_decision']:.2f} ms ({d['ismcts']}), "
          f"{r['ismcts_ms_per_searched_decision']:.2f} ms per searched decision ({d['ismcts_searched']}: "
          + ", ".join(f"{k} {v:.1f} ms" for k, v in r["ismcts_ms_by_kind"].items()) + ")")
    print(f"  lockstep: {d['compared']} decisions compared; " +
          ", ".join(f"{k} {v}" for k, v in r["events"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
