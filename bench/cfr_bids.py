"""Issue 14, section 3: bidding learned by counterfactual regret minimisation, solved deals as leaves.

The literature's first lever for a stronger expert: the bidding of the American game is a short
game of imperfect information (round 1: each seat passes, orders or orders alone; round 2: each
passes, names a suit or names it alone; the first call ends it). Determinized search values each
bid as if the later bidders' cards were known and as if the others bid like the heuristic player;
CFR instead finds bidding strategies that are best against each other, over an abstraction of the
hands, with each bid's value on a deal the exact solver's (a published Euchre study gained the
dealer's side +0.10 points a hand over plain determinized search this way).

Three steps, each reproducible on this 2-core machine:

* ``leaves``: random deals (dealer seat 3); for every seat and round the abstraction of its hand
  (the heuristic player's estimate of its tricks for the suit it would name and its estimated
  losers playing alone: :func:`~euchre.bots.heuristic.estimate_tricks`,
  :func:`~euchre.bots.heuristic.lone_losers`), and the points of every way the bidding can end
  (that seat calling, with its partner or alone; the dealer's discard and the rest as the
  heuristic player does it), each solved exactly from the first lead.
* ``train``: chance-sampled CFR+ on those deals (the bidding is a line of eight decisions, so a
  deal's whole tree is a few dozen numbers), the average strategy of each information set written
  as a small JSON file.
* the bot ``cfr-expert`` (registered by importing this module): the expert, whose round-1 and
  round-2 bids in the plain American game, while the score does not matter yet, follow the learned
  strategy (its most likely action); everything else is the expert's own search.

    python bench/cfr_bids.py leaves --deals 20000 --seed 1 --out /tmp/cfr_leaves.npz
    python bench/cfr_bids.py train --data /tmp/cfr_leaves.npz --iters 3000 --out bench/cfr_bids_policy.json
    python bench/paired.py expert cfr-expert --deals 300 --seed 71
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from euchre.actions import ORDER, ORDER_ALONE, PASS, Action, call  # noqa: E402
from euchre.bots import register_bot  # noqa: E402
from euchre.bots.heuristic import HeuristicBot, _best_five, estimate_tricks, lone_losers  # noqa: E402
from euchre.bots.search import SearchBot  # noqa: E402
from euchre.cards import Suit  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

DEALER = 3
NODES = 8
"""Round 1 seats 0-3, then round 2 seats 0-3 (seat 3 deals)."""
EST_EDGES = (1.0, 1.5, 1.8, 2.1, 2.4, 2.7, 3.0, 3.3, 3.6, 4.0, 4.5)
"""Bucket edges of the estimated tricks (12 buckets)."""
LOSER_EDGES = (0.6, 1.2, 2.0)
"""Bucket edges of the estimated losers alone (4 buckets)."""
BUCKETS = (len(EST_EDGES) + 1) * (len(LOSER_EDGES) + 1)
ACTIONS = 3
"""pass, call (order up, or name the seat's best suit), call alone."""
POLICY = Path(__file__).with_name("cfr_bids_policy.json")


# --- the abstraction ------------------------------------------------------------------------------
def _bucket(est: float, losers: float) -> int:
    e = int(np.searchsorted(EST_EDGES, est, side="right"))
    lo = int(np.searchsorted(LOSER_EDGES, losers, side="right"))
    return e * (len(LOSER_EDGES) + 1) + lo


def features(view: PlayerView) -> tuple[int, int | None]:
    """The information set's bucket of the seat to bid, and (round 2) the suit it would name."""
    seat = view.seat
    assert seat is not None and view.up_card is not None
    deck = view.rules.deck
    up = view.up_card
    turned = up.suit
    assert turned is not None
    hand = list(view.hand)
    if view.phase is Phase.BID1:
        if seat == view.dealer:
            cards = _best_five([*hand, up], turned)
            est = estimate_tricks(cards, turned, deck)
        else:
            cards = hand
            est = estimate_tricks(hand, turned, deck)
            # the up card goes to the dealer: to the partner's side or the other
            est += (0.5 if view.partner() == view.dealer else -0.5) * (1 if up.rank >= 11 else 0.5)
        return _bucket(est, lone_losers(cards, turned, deck)), None
    best: tuple[float, int] | None = None
    for suit in Suit:
        if suit == turned:
            continue
        est = estimate_tricks(hand, suit, deck, [up]) + HeuristicBot._colour_bonus(view, seat, suit, turned)
        if best is None or est > best[0]:
            best = (est, int(suit))
    assert best is not None
    est, suit = best
    return _bucket(est, lone_losers(hand, suit, deck, [up])), suit


def node_of(view: PlayerView) -> int:
    pos = (view.seat - view.dealer - 1) % 4  # type: ignore[operator]
    return pos if view.phase is Phase.BID1 else 4 + pos


def _actions(node: int, suit: int | None) -> tuple[Action, Action]:
    if node < 4:
        return ORDER, ORDER_ALONE
    assert suit is not None
    return call(suit), call(suit, alone=True)


# --- leaves ---------------------------------------------------------------------------------------
def _finish(st: State, policy: HeuristicBot, solver_bot: SearchBot) -> float:
    """Side 0's net points of a hand whose trump was just made: the heuristic does the rest of the
    bidding phase (the dealer's discard), the solver the play."""
    while not st.is_over and st.phase is not Phase.PLAY:
        st.push(policy.choose(PlayerView.of(st, st.to_act)))
    pts = solver_bot._hand_points(st)
    return float(pts[0] - pts[1])


def _leaves_chunk(task: tuple[int, int, int]) -> dict[str, np.ndarray]:
    seed, first, count = task
    rules = Rules()
    policy = HeuristicBot(0)
    solver_bot = SearchBot(seed=0)
    buckets = np.zeros((count, NODES), dtype=np.int16)
    values = np.zeros((count, NODES, 2), dtype=np.float32)
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + first + i)
        base = State.random(rules, dealer=DEALER, rng=rng)
        st = base.copy()
        for node in range(NODES):
            view = PlayerView.of(st, st.to_act)
            assert node_of(view) == node, (node, st.phase, st.to_act)
            b, suit = features(view)
            buckets[i, node] = b
            for k, a in enumerate(_actions(node, suit)):
                after = st.copy()
                after.push(a)
                values[i, node, k] = _finish(after, policy, solver_bot)
            st.push(PASS)
    return {"buckets": buckets, "values": values}


def leaves(deals: int, seed: int, jobs: int, out: Path) -> None:
    chunk = 250
    tasks = [(seed, f, min(chunk, deals - f)) for f in range(0, deals, chunk)]
    t0 = time.perf_counter()
    parts = []
    with ProcessPoolExecutor(jobs) as ex:
        for done, part in enumerate(ex.map(_leaves_chunk, tasks), 1):
            parts.append(part)
            print(f"  {min(done * chunk, deals)}/{deals} deals, {time.perf_counter() - t0:.0f} s", flush=True)
    np.savez_compressed(out, buckets=np.concatenate([p["buckets"] for p in parts]),
                        values=np.concatenate([p["values"] for p in parts]), seed=seed)
    print(f"{deals} deals in {time.perf_counter() - t0:.0f} s -> {out}")


# --- CFR+ -----------------------------------------------------------------------------------------
def _sides() -> np.ndarray:
    """+1 for a node whose seat is on side 0 (seats 0 and 2), -1 otherwise."""
    return np.array([1.0 if (n % 4) % 2 == 0 else -1.0 for n in range(NODES)])


def _strategy(regret: np.ndarray) -> np.ndarray:
    pos = np.maximum(regret, 0.0)
    tot = pos.sum(axis=-1, keepdims=True)
    return np.where(tot > 0, pos / np.where(tot > 0, tot, 1.0), 1.0 / ACTIONS)


def train(buckets: np.ndarray, values: np.ndarray, iters: int, log_every: int = 500,
          tremble: float = 0.1) -> np.ndarray:
    """Average strategies [node, bucket, action] of CFR+ on the deals (chance fixed per deal).

    Node k's utility is side 0's net points times the sign of k's side; a node's counterfactual
    reach is the probability that every *other* seat before it passed (a seat's own earlier pass,
    in round 1, is its own choice). Each seat plays its strategy mixed with ``tremble`` of uniform
    choices while training (a perturbed game): without it the equilibrium never reaches round 2
    beyond its first seat (who then names a suit with anything), and the strategies of the
    information sets it does not reach are never trained, although real opponents reach them."""
    n = buckets.shape[0]
    sign = _sides()
    regret = np.zeros((NODES, BUCKETS, ACTIONS))
    avg = np.zeros((NODES, BUCKETS, ACTIONS))
    idx = buckets.astype(np.int64)
    for it in range(1, iters + 1):
        strat = _strategy(regret)  # [node, bucket, action]
        played = strat[np.arange(NODES)[None, :], idx]  # [deal, node, action]
        s = (1.0 - tremble) * played + tremble / ACTIONS
        # the values of each node's subtree, last node first (all pass: 0, a redeal)
        u = np.zeros((n, NODES + 1))
        for k in range(NODES - 1, -1, -1):
            u[:, k] = s[:, k, 0] * u[:, k + 1] + s[:, k, 1] * values[:, k, 0] + s[:, k, 2] * values[:, k, 1]
        # reach: the earlier passes, the node's own seat's (round 1, for its round-2 node) apart
        own = np.ones((n, NODES))
        others = np.ones((n, NODES))
        for k in range(1, NODES):
            others[:, k] = np.prod([s[:, j, 0] for j in range(k) if j % 4 != k % 4], axis=0)
            if k >= 4:
                own[:, k] = s[:, k - 4, 0]
        for k in range(NODES):
            act = np.stack([u[:, k + 1], values[:, k, 0], values[:, k, 1]], axis=1) * sign[k]
            r = (act - (u[:, k] * sign[k])[:, None]) * others[:, k][:, None]
            np.add.at(regret[k], idx[:, k], r)
            np.add.at(avg[k], idx[:, k], played[:, k, :] * (own[:, k] * it)[:, None])
        regret = np.maximum(regret, 0.0)  # CFR+
        if log_every and it % log_every == 0:
            ev = u[:, 0].mean()
            print(f"  iteration {it}: side 0's value {ev:+.3f} points a deal", flush=True)
    tot = avg.sum(axis=-1, keepdims=True)
    return np.where(tot > 0, avg / np.where(tot > 0, tot, 1.0), 1.0 / ACTIONS)


def save_policy(strategy: np.ndarray, counts: np.ndarray, path: Path, meta: dict[str, Any]) -> None:
    data = {"est_edges": list(EST_EDGES), "loser_edges": list(LOSER_EDGES), "meta": meta,
            "strategy": np.round(strategy, 4).tolist(), "counts": counts.tolist()}
    path.write_text(json.dumps(data) + "\n")


# --- the bot --------------------------------------------------------------------------------------
class CfrExpert(SearchBot):
    """The expert with the learned bids of the plain American game while the score does not
    matter yet (its most likely action; an information set seen on fewer than ``min_count``
    training deals is left to the search): round 1 only (``rounds`` 1), or both rounds (2)."""

    name = "cfr-expert"

    def __init__(self, seed: int | None = None, *, policy: str | None = None, min_count: int = 30,
                 rounds: int = 1, **kw: Any) -> None:
        super().__init__(seed, **kw)
        self.phases = (Phase.BID1,) if rounds == 1 else (Phase.BID1, Phase.BID2)
        data = json.loads(Path(policy or POLICY).read_text())
        self._strategy = np.array(data["strategy"])
        self._counts = np.array(data["counts"])
        self.min_count = min_count
        self.learned = 0

    def choose(self, view: PlayerView) -> Action:
        if (view.phase in self.phases and view.rules == Rules() and view.seat is not None
                and not self._score_matters(view)):
            node = node_of(view)
            b, suit = features(view)
            if self._counts[node, b] >= self.min_count:
                probs = self._strategy[node, b]
                k = int(np.argmax(probs))
                a = PASS if k == 0 else _actions(node, suit)[k - 1]
                if a in view.legal_actions:
                    self.learned += 1
                    return a
        return super().choose(view)


register_bot("cfr-expert", CfrExpert, "the expert with bids learned by CFR (bench/cfr_bids.py)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    le = sub.add_parser("leaves")
    le.add_argument("--deals", type=int, default=20000)
    le.add_argument("--seed", type=int, default=1)
    le.add_argument("--jobs", type=int, default=2)
    le.add_argument("--out", type=Path, required=True)
    tr = sub.add_parser("train")
    tr.add_argument("--data", type=Path, required=True)
    tr.add_argument("--iters", type=int, default=3000)
    tr.add_argument("--out", type=Path, default=POLICY)
    tr.add_argument("--tremble", type=float, default=0.1)
    args = p.parse_args()
    if args.cmd == "leaves":
        leaves(args.deals, args.seed, args.jobs, args.out)
        return
    data = np.load(args.data)
    buckets, values = data["buckets"], data["values"].astype(np.float64)
    t0 = time.perf_counter()
    strategy = train(buckets, values, args.iters, tremble=args.tremble)
    counts = np.zeros((NODES, BUCKETS), dtype=np.int64)
    for k in range(NODES):
        np.add.at(counts[k], buckets[:, k].astype(np.int64), 1)
    meta = {"deals": int(buckets.shape[0]), "iters": args.iters, "tremble": args.tremble, "seed": int(data["seed"])}
    save_policy(strategy, counts, args.out, meta)
    print(f"trained in {time.perf_counter() - t0:.0f} s -> {args.out}")
    for k in range(NODES):
        calls = [(b, strategy[k, b]) for b in range(BUCKETS) if counts[k, b] >= 30]
        line = " ".join(f"{b}:{'PCA'[int(np.argmax(s))]}" for b, s in calls)
        print(f"  node {k} ({'round 1' if k < 4 else 'round 2'}, seat {k % 4}): {line}")


if __name__ == "__main__":
    main()
