#!/usr/bin/env python3
"""Train a small policy against the heuristic bot, then measure it in the arena.

The tutorial of docs/rl.md ("Tutorial: train a policy and evaluate it") walks through this file.

    python examples/train_policy.py --minutes 3 --seed 1

* **Environment**: ``euchre_v0.env()`` (American rules, a whole game per episode, a reward at the
  end of every hand). The learner is ``player_0``; the three other seats (its partner too) are
  ``make_bot("heuristic")`` bots, each choosing from its seat's ``PlayerView``
  (``env.unwrapped.view(agent)``), which is what the observation is made of.
* **Policy**: linear softmax over the observation vector, restricted to the legal actions (the
  action mask): ``logits = W @ x + b``, one row of weights per action. By default (``--features
  suits``) the vector and the actions are first relabelled by suit, so that trump (before trump
  is made, the up card's suit) is always the same suit: a linear model cannot otherwise tell
  that the jack in its hand is the right bower of the suit it may order up.
* **Learning**: REINFORCE with a baseline. Every decision of ``player_0`` is credited with the
  reward of the hand it was made in (its side's points less the other side's); a linear value
  function of the same features, fitted alongside, is the baseline. Adam, an entropy bonus that
  halves every 1000 games (exploring the bids long enough for the play to become good enough to
  make them), one update per ``--batch`` games.
* **Evaluation**: the trained weights become a :class:`~euchre.bots.Bot` (argmax over the legal
  actions of the same features), registered as ``tutorial-policy`` and played in duplicate by
  :func:`~euchre.arena.run_arena` against ``random`` and ``heuristic``; for comparison, the
  same for the policy before training (all-zero weights) and heuristic against random.

With ``--episodes N`` training stops after exactly N games and the whole run is deterministic
for a seed; ``--minutes`` stops at the first update past the time limit, and the run prints the
``--episodes`` value that repeats it exactly. Needs only NumPy, PettingZoo and Gymnasium (the
``rl`` extra).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from euchre.actions import EUCHRE_ACTIONS, Action
from euchre.arena import ArenaResult, run_arena
from euchre.bots import Bot, make_bot, register_bot
from euchre.envs import euchre_v0
from euchre.view import PlayerView

__all__ = ["POLICY_NAME", "UNTRAINED_NAME", "LEARNER", "FEATURES", "features", "LinearPolicy", "PolicyBot",
           "BatchStats", "TrainResult", "train", "summary", "evaluate", "describe", "build_parser", "main"]

POLICY_NAME = "tutorial-policy"
"""The name the trained policy is registered under, for ``make_bot`` and ``run_arena``."""
UNTRAINED_NAME = "tutorial-untrained"
"""The policy before training (all-zero weights), registered for comparison."""
LEARNER = "player_0"
"""The agent that learns; the other seats are heuristic bots."""

# The observation is mostly 0/1 indicators; its few counts are raw integers, scaled here to about 1.
_SCALE = np.ones(euchre_v0.OBSERVATION_SIZE, dtype=np.float32)
for _name, _by in (("tricks_won", 5), ("score", 10), ("hand_points", 4), ("hand_number", 20), ("ending", 10),
                   ("match_wins", 2), ("match_games", 3)):
    _SCALE[euchre_v0.field_slice(_name)] = 1 / _by
_HAND_NUMBER = euchre_v0.field_slice("hand_number").start
_TRUMP = euchre_v0.field_slice("trump")
_UP_CARD = euchre_v0.field_slice("up_card")

FEATURES = ("suits", "observation")
"""``observation``: the observation vector as it is (counts scaled). ``suits``: the same vector with
the suits relabelled so that trump (before trump is made, the up card's suit) is always clubs, its
same-colour suit diamonds, the other two hearts and spades, and the action codes relabelled alike."""
_CARD_FIELDS = ("hand", "up_card", "discard", "played", "trick", "trick_cards", "gift_cards", "gift_discards",
                "misdeal_hand", "farmer_gave", "farmer_took")
_SAME_COLOUR = (3, 2, 1, 0)  # clubs-spades, diamonds-hearts
_CALL, _CALL_ALONE, _DISCARD, _PLAY, _GIVE = 5, 9, 13, 46, 83  # the first code of each (euchre.actions)
_CALL_SLOTS = (euchre_v0.BID_CODES.index(_CALL), euchre_v0.BID_CODES.index(_CALL_ALONE))


def _relabellings() -> tuple[np.ndarray, np.ndarray]:
    """For each key suit k: the observation slots and the action codes of the relabelled vector,
    as indices into the engine's (``x_relabelled = obs[slots[k]]``, relabelled action ``j`` is
    engine code ``codes[k][j]``)."""
    size = euchre_v0.OBSERVATION_SIZE
    slots = np.tile(np.arange(size), (4, 1))
    codes = np.tile(np.arange(EUCHRE_ACTIONS), (4, 1))
    for key in range(4):
        order = (key, _SAME_COLOUR[key], *(s for s in range(4) if s not in (key, _SAME_COLOUR[key])))
        card = [order[c // 8] * 8 + c % 8 for c in range(32)] + [32]  # relabelled card id -> engine card id
        for name in _CARD_FIELDS:
            f = euchre_v0.field_slice(name)
            for base in range(f.start, f.stop, 33):
                slots[key, base:base + 33] = [base + c for c in card]
        slots[key, _TRUMP.start:_TRUMP.start + 4] = [_TRUMP.start + s for s in order]
        bids = euchre_v0.field_slice("bid_actions")
        for row in range(bids.start, bids.stop, len(euchre_v0.BID_CODES)):
            for first in _CALL_SLOTS:
                slots[key, row + first:row + first + 4] = [row + first + s for s in order]
        for first in (_CALL, _CALL_ALONE):
            codes[key, first:first + 4] = [first + s for s in order]
        for first in (_DISCARD, _PLAY, _GIVE):
            codes[key, first:first + 33] = [first + c for c in card]
    return slots, codes


_SLOTS, _CODES = _relabellings()
_IDENTITY = np.arange(EUCHRE_ACTIONS)


def features(observation: np.ndarray, mask: np.ndarray, kind: str = "suits") -> tuple[np.ndarray, np.ndarray,
                                                                                       np.ndarray]:
    """The policy's input from an observation and its action mask: the feature vector, the legal
    actions as policy action indices, and the engine code of every policy action index."""
    x = observation * _SCALE
    if kind == "observation":
        return x, np.flatnonzero(mask), _IDENTITY
    trump = np.flatnonzero(observation[_TRUMP])
    up = np.flatnonzero(observation[_UP_CARD])
    key = int(trump[0]) if len(trump) and trump[0] < 4 else int(up[0]) // 8 if len(up) and up[0] < 32 else 0
    codes = _CODES[key]
    return x[_SLOTS[key]], np.flatnonzero(mask[codes]), codes


class _Adam:
    """Adam on a list of NumPy arrays, updated in place."""

    def __init__(self, params: Sequence[np.ndarray], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        self.params = list(params)
        self.lr, self.b1, self.b2 = lr, b1, b2
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, grads: Sequence[np.ndarray]) -> None:
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


class LinearPolicy:
    """A softmax over the legal actions of ``W @ x + b`` (W: actions x features, ``x`` the
    :func:`features` of kind ``kind``), with a linear value function ``u @ x + c`` as the REINFORCE
    baseline. Starts at all zeros: a uniform choice among the legal actions."""

    def __init__(self, kind: str = "suits") -> None:
        if kind not in FEATURES:
            raise ValueError(f"features must be one of {', '.join(FEATURES)}, got {kind!r}")
        self.kind = kind
        size = euchre_v0.OBSERVATION_SIZE
        self.w = np.zeros((EUCHRE_ACTIONS, size), dtype=np.float64)
        self.b = np.zeros(EUCHRE_ACTIONS, dtype=np.float64)
        self.u = np.zeros(size, dtype=np.float64)
        self.c = np.zeros(1, dtype=np.float64)

    def logits(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The logits of the ``legal`` actions (policy action indices) for features ``x``."""
        return self.w[legal] @ x + self.b[legal]

    def best(self, x: np.ndarray, legal: np.ndarray) -> int:
        """The legal action of the highest logit (the first on a tie)."""
        return int(legal[int(np.argmax(self.logits(x, legal)))])

    def sample(self, x: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action drawn from the softmax."""
        z = self.logits(x, legal)
        p = np.exp(z - z.max())
        cum = np.cumsum(p)
        return int(legal[min(int(np.searchsorted(cum, rng.random() * cum[-1], side="right")), len(legal) - 1)])

    def save(self, path: str) -> None:
        """The weights as a NumPy ``.npz`` file."""
        np.savez(path, w=self.w, b=self.b, u=self.u, c=self.c, kind=np.array(self.kind))

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        """A policy saved by :meth:`save`."""
        with np.load(path) as data:
            policy = cls(str(data["kind"]))
            policy.w, policy.b, policy.u, policy.c = (data[k].astype(np.float64) for k in ("w", "b", "u", "c"))
        return policy


class PolicyBot(Bot):
    """The trained policy as a bot: the legal action of the highest logit, from the same features
    of the seat's view as the environment's observation (``euchre_v0.encode(view)``)."""

    name = POLICY_NAME

    def __init__(self, policy: LinearPolicy, seed: int | None = None) -> None:
        self.policy = policy  # the argmax needs no randomness: seed is accepted and unused

    def choose(self, view: PlayerView) -> Action:
        x, legal, codes = features(euchre_v0.encode(view), euchre_v0.action_mask(view), self.policy.kind)
        return Action.from_code(int(codes[self.policy.best(x, legal)]))


@dataclass
class BatchStats:
    """One update: the games and hands it learned from and what it measured."""

    games: int
    hands: int
    decisions: int
    points_per_hand: float
    """The learner's side's points less the other side's, per hand (the reward per hand)."""
    policy_loss: float
    """The REINFORCE surrogate ``-mean(advantage * log p(action))``, before the update."""
    value_loss: float
    """The baseline's mean squared error on the hand rewards, before the update."""
    entropy: float
    """Mean entropy of the policy over the batch's decisions (nats), before the update."""
    bonus: float
    """The entropy bonus of the update."""


@dataclass
class TrainResult:
    """What :func:`train` returns: the policy, one :class:`BatchStats` per update, the time taken."""

    policy: LinearPolicy
    history: list[BatchStats] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        """Games trained on."""
        return sum(s.games for s in self.history)

    @property
    def hands(self) -> int:
        """Hands dealt in those games."""
        return sum(s.hands for s in self.history)


def _play_game(env: Any, policy: LinearPolicy, rng: np.random.Generator, game_seed: int, xs: list[np.ndarray],
               actions: list[int], masks: list[np.ndarray], rewards: list[float]) -> tuple[int, float]:
    """One game: the learner samples from ``policy``, the other seats are heuristic bots. Appends
    the learner's decisions (features, action, mask) and each one's hand reward; returns the hands
    dealt and the learner's return (its side's points less the other side's)."""
    env.reset(seed=game_seed)
    raw = env.unwrapped
    bots = {agent: make_bot("heuristic", seed=game_seed + i)
            for i, agent in enumerate(raw.possible_agents) if agent != LEARNER}
    pending = 0  # decisions of the hand in progress, not yet credited
    pending_hand = -1.0
    total = 0.0
    last_hand = 0.0
    for agent in env.agent_iter():
        if agent != LEARNER:
            _, _, terminated, truncated, _ = env.last(observe=False)
            env.step(None if terminated or truncated else int(bots[agent].choose(raw.view(agent))))
            continue
        obs, reward, terminated, truncated, _ = env.last()
        hand = float(obs["observation"][_HAND_NUMBER])
        last_hand = hand
        total += reward
        # The reward since the learner's last step is that of the hand (or hands) that ended
        # meanwhile: credit it to the decisions made in that hand.
        if pending and (terminated or truncated or hand != pending_hand):
            rewards.extend([reward] * pending)
            pending = 0
        if terminated or truncated:
            env.step(None)
            continue
        x, legal, codes = features(obs["observation"], obs["action_mask"], policy.kind)
        if len(legal) == 1:  # a forced move (often the last card): nothing to learn from it
            env.step(int(codes[legal[0]]))
            continue
        action = policy.sample(x, legal, rng)
        xs.append(x)
        actions.append(action)
        mask = np.zeros(EUCHRE_ACTIONS, dtype=bool)
        mask[legal] = True
        masks.append(mask)
        pending += 1
        pending_hand = hand
        env.step(int(codes[action]))
    if pending:  # the learner never saw the last reward (cannot happen: every agent sees the end)
        rewards.extend([0.0] * pending)
    return int(last_hand) + 1, total


def _update(policy: LinearPolicy, opt: _Adam, xs: list[np.ndarray], actions: list[int], masks: list[np.ndarray],
            rewards: list[float], entropy_bonus: float) -> tuple[float, float, float]:
    """One REINFORCE step with the value baseline; returns (policy loss, value loss, entropy)."""
    if not xs:  # only forced moves in the batch (a tiny --batch): nothing to learn
        return 0.0, 0.0, 0.0
    x = np.asarray(xs, dtype=np.float64)
    a = np.asarray(actions)
    legal = np.asarray(masks)
    r = np.asarray(rewards, dtype=np.float64)
    n = len(r)
    value = x @ policy.u + policy.c[0]
    adv = r - value
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    z = np.where(legal, x @ policy.w.T + policy.b, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    logp = np.where(legal, np.log(np.where(legal, p, 1.0)), 0.0)
    chosen = logp[np.arange(n), a]
    entropy = -(p * logp).sum(axis=1)
    # d(loss)/d(logits) for loss = -mean(adv * log p(a)) - bonus * mean(entropy)
    onehot = np.zeros_like(p)
    onehot[np.arange(n), a] = 1.0
    g = -(onehot - p) * adv[:, None]
    g += entropy_bonus * p * (logp + entropy[:, None])
    g /= n
    gv = 2 * (value - r) / n
    opt.step([g.T @ x, g.sum(axis=0), gv @ x, np.array([gv.sum()])])
    return float(-(adv * chosen).mean()), float(((r - value) ** 2).mean()), float(entropy.mean())


def train(*, seed: int = 1, minutes: float | None = 3.0, episodes: int | None = None, batch: int = 16,
          lr: float = 0.01, entropy_bonus: float = 0.5, entropy_halflife: float | None = 1000.0, kind: str = "suits",
          log: Callable[[str], object] | None = None, log_every: int = 25) -> TrainResult:
    """Train a :class:`LinearPolicy` as ``player_0`` against three heuristic bots: ``episodes``
    games if given (deterministic for ``seed``), else updates until ``minutes`` have passed.
    The entropy bonus starts at ``entropy_bonus`` and halves every ``entropy_halflife`` games
    (``None``: constant). ``log`` (e.g. ``print``) gets a progress line every ``log_every`` updates."""
    if episodes is None and minutes is None:
        raise ValueError("give minutes or episodes")
    env = euchre_v0.env("american")
    policy = LinearPolicy(kind)
    opt = _Adam([policy.w, policy.b, policy.u, policy.c], lr=lr)
    rng = np.random.default_rng(seed)
    result = TrainResult(policy)
    t0 = time.perf_counter()
    played = 0
    while True:
        if episodes is not None:
            if played >= episodes:
                break
        elif minutes is not None and time.perf_counter() - t0 >= minutes * 60:
            break
        games = batch if episodes is None else min(batch, episodes - played)
        xs: list[np.ndarray] = []
        actions: list[int] = []
        masks: list[np.ndarray] = []
        rewards: list[float] = []
        hands = 0
        points = 0.0
        for _ in range(games):
            h, ret = _play_game(env, policy, rng, int(rng.integers(2**62)), xs, actions, masks, rewards)
            hands += h
            points += ret
        bonus = entropy_bonus if entropy_halflife is None else entropy_bonus * 0.5 ** (played / entropy_halflife)
        played += games
        policy_loss, value_loss, entropy = _update(policy, opt, xs, actions, masks, rewards, bonus)
        result.history.append(BatchStats(games, hands, len(actions), points / hands, policy_loss, value_loss, entropy,
                                         bonus))
        if log is not None and len(result.history) % log_every == 0:
            log(f"update {len(result.history):4d}  games {played:5d}  {summary(result.history[-log_every:])}  "
                f"bonus {bonus:.3f}  {time.perf_counter() - t0:4.0f} s")
    env.close()
    result.seconds = time.perf_counter() - t0
    return result


def summary(history: Sequence[BatchStats]) -> str:
    """Points per hand (over the hands), value loss and entropy (means over the updates) of some updates."""
    hands = sum(s.hands for s in history)
    points = sum(s.points_per_hand * s.hands for s in history) / hands
    return (f"points/hand {points:+.3f}  value loss {np.mean([s.value_loss for s in history]):.3f}  "
            f"entropy {np.mean([s.entropy for s in history]):.3f}")


def evaluate(policy: LinearPolicy, *, deals: int, seed: int = 1, untrained: bool = True) -> dict[str, ArenaResult]:
    """Register ``policy`` as ``tutorial-policy`` and play it in the arena (duplicate, American,
    ``deals`` hands per seating, in this process: a bot registered at run time is unknown to other
    processes) against ``random`` and ``heuristic``. With ``untrained``, the same against the
    policy's starting point, ``tutorial-untrained`` (all-zero weights: the argmax is the first legal
    action, so it always passes and plays its cards in a fixed order, the trump suit's first and low
    ones first), and heuristic against random, for scale."""
    register_bot(POLICY_NAME, lambda seed=None: PolicyBot(policy, seed=seed),
                 "examples/train_policy.py: a linear softmax policy, argmax over the legal actions")
    runs = [(POLICY_NAME, "random"), (POLICY_NAME, "heuristic")]
    if untrained:
        zero = LinearPolicy(policy.kind)
        register_bot(UNTRAINED_NAME, lambda seed=None: PolicyBot(zero, seed=seed),
                     "examples/train_policy.py: the policy before training (the first legal action)")
        runs += [(UNTRAINED_NAME, "random"), (UNTRAINED_NAME, "heuristic"), ("heuristic", "random")]
    return {f"{a} vs {b}": run_arena(a, b, deals=deals, seed=seed, jobs=1) for a, b in runs}


def _verdict(r: ArenaResult) -> str:
    ci = r.margin_ci
    if ci is None:
        return "too few pairs"
    if ci[0] > 0:
        return f"{r.a.name} is better"
    if ci[1] < 0:
        return f"{r.b.name} is better"
    return "no difference established"


def describe(r: ArenaResult) -> str:
    """One arena result in a few lines: the margin with its interval, the games won, the bidding."""
    ci = r.margin_ci
    margin = f"{r.margin:+.3f} points per hand" + (f", 95% CI [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")
    wlo, whi = r.win_share_ci
    return (f"{r.a.name} vs {r.b.name}: {len(r.pairs)} game pairs, {r.hands} hands, {r.seconds:.1f} s\n"
            f"  margin {margin}: {_verdict(r)}\n"
            f"  {r.a.name} won {r.win_share:.1%} of the games, 95% CI [{wlo:.1%}, {whi:.1%}]\n"
            + "".join(f"  {bot.name} named trump in {m['bid_rate']:.0%} of its side's hands and made it "
                      f"{m['make_rate']:.0%} of the time\n" for bot in (r.a, r.b) for m in [bot.makers.to_dict()]
                      ).rstrip("\n"))


def build_parser() -> argparse.ArgumentParser:
    """The command line of the script."""
    p = argparse.ArgumentParser(description="Train a linear softmax policy against the heuristic bot (REINFORCE "
                                "with a baseline), then measure it with the arena.")
    p.add_argument("--minutes", type=float, default=3.0, help="training time (default 3); ignored with --episodes")
    p.add_argument("--episodes", type=int, default=None,
                   help="train on exactly this many games instead of for --minutes (deterministic)")
    p.add_argument("--seed", type=int, default=1, help="seed of the training games, the sampling and the arena")
    p.add_argument("--batch", type=int, default=16, help="games per update (default 16)")
    p.add_argument("--lr", type=float, default=0.01, help="Adam learning rate (default 0.01)")
    p.add_argument("--entropy", type=float, default=0.5, help="entropy bonus at the start (default 0.5)")
    p.add_argument("--entropy-halflife", type=float, default=1000.0,
                   help="games over which the entropy bonus halves (default 1000; 0: constant)")
    p.add_argument("--features", choices=FEATURES, default="suits",
                   help="suits: the observation with trump (or the up card's suit) relabelled as clubs (default); "
                   "observation: the observation vector as it is")
    p.add_argument("--deals", type=int, default=2000, help="arena hands per seating (default 2000)")
    p.add_argument("--no-untrained", action="store_true",
                   help="skip the arena runs of the untrained policy and of heuristic against random")
    p.add_argument("--log-every", type=int, default=25, help="print a progress line every N updates")
    p.add_argument("--save", metavar="PATH", default=None, help="save the trained weights (.npz)")
    return p


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the tutorial; returns the training result and the arena results (for the tests)."""
    args = build_parser().parse_args(argv)
    if args.episodes is not None and args.episodes < 1:
        raise SystemExit("--episodes must be at least 1")
    start = time.perf_counter()
    budget = f"{args.episodes} games" if args.episodes is not None else f"{args.minutes:g} minutes"
    print(f"training {LEARNER} against three heuristic bots for {budget}, seed {args.seed}")
    trained = train(seed=args.seed, minutes=args.minutes, episodes=args.episodes, batch=args.batch, lr=args.lr,
                    entropy_bonus=args.entropy, entropy_halflife=args.entropy_halflife or None, kind=args.features,
                    log=lambda line: print(line, flush=True), log_every=args.log_every)
    print(f"trained: {len(trained.history)} updates, {trained.games} games, {trained.hands} hands, "
          f"{trained.seconds:.0f} s")
    if args.episodes is None:
        print(f"  (--episodes {trained.games} instead of --minutes repeats this training exactly)")
    k = max(1, min(args.log_every, len(trained.history) // 2))
    print(f"  first {k} updates: {summary(trained.history[:k])}")
    print(f"  last {k} updates:  {summary(trained.history[-k:])}")
    if args.save:
        trained.policy.save(args.save)
        print(f"saved the weights to {args.save}")
    print(f"arena: duplicate, american, {args.deals} hands per seating, seed {args.seed}")
    results = evaluate(trained.policy, deals=args.deals, seed=args.seed, untrained=not args.no_untrained)
    for r in results.values():
        print(describe(r))
    total = time.perf_counter() - start
    print(f"total {total:.0f} s ({total / 60:.1f} minutes)")
    return {"train": trained, "arena": results, "seconds": total}


if __name__ == "__main__":
    main()
