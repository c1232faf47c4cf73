"""Where does the search bot lose to a player who sees every card: in the bidding or in the play?

``bench/ceiling.py`` measures the whole distance between the search bot and a bot that sees every
card (the cheater of that script: the search bot's valuation of the one true deal). This script
splits it. The bot's side plays each deal against ``--opponent`` twice over (once per side, as
everywhere in bench/): once as the bot, once as the bot handed the real state in one part of the
hand only (``--part bid``: every bidding decision, the dealer's discard included, is the
cheater's, the card play the bot's; ``--part play``: the other way round; ``--part all``: every
decision the cheater's). The deal's score is the hybrid's net points minus the bot's on the same
deal and seating, so the luck of the cards cancels: what is left is what seeing the cards is worth
in that part of the hand, against that opponent. A part worth much is where better inference or
better search can gain; one worth little is not.

    python bench/perfect_info.py [--part bid] [--deals 300] [--bot search] [--opponent heuristic]
                                 [--seed 0] [--jobs 2]

``--part partner-bid`` splits the bidding's share further: how much of it is the partner's hand?
Both plays of a deal bid with the search bot on the Python path (``compiled_bids`` off, so that its
samples can be drawn by this script) and play as ``--bot``; in one the bids are valued on samples
that deal the opponents' hands and the stock at random as usual, in the other on samples that keep
the partner's real hand (:class:`PartnerView`). The difference is what knowing the partner's cards
in the bidding is worth: the most that reading the partner (its bids, a convention) could gain.
``--part opponents-bid`` is the same with the two opponents' real hands kept instead.

The cheater is the bot's valuation with the real deal as its single sample, so on its part it
plays what the bot would play if it knew the cards: it isolates information, not a better
method. Every bot is seeded per deal and seat; a run is reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import fields
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from bots import deal, net_points  # noqa: E402
from ceiling import Cheater  # noqa: E402

from euchre.bots import Bot, SearchBot, make_bot  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Deal, Phase, State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402

PARTS = ("bid", "play", "all", "partner-bid", "opponents-bid")
PEEKS = ("partner-bid", "opponents-bid")
PYTHON_BIDS = "python-bid"
"""The plain play of ``partner-bid`` and ``opponents-bid``: bids by the search bot on the Python
path, on fair samples."""


class PartnerView(PlayerView):
    """A seat's view whose samples keep some other seats' real hands (``--part partner-bid``: its
    partner's; ``opponents-bid``: the two opponents'): the other hidden hands and the stock are
    dealt again at random from the cards they hold together, and the hand's actions replayed on
    that deal. For the bidding of the four-handed games, where nothing is played yet."""

    __slots__ = ("_true", "_known")

    @classmethod
    def peek(cls, state: State, seat: int, *, opponents: bool = False) -> PartnerView:
        """The view of ``seat`` that knows its partner's real cards (or, with ``opponents``, the
        two opponents')."""
        plain = PlayerView.of(state, seat)
        view = cls(**{f.name: getattr(plain, f.name) for f in fields(PlayerView)})
        rules = state.rules
        same = [s for s in range(rules.players) if rules.side_of(s) == rules.side_of(seat)]
        known = {s for s in range(rules.players) if (s not in same) == opponents} | {seat}
        object.__setattr__(view, "_true", state)
        object.__setattr__(view, "_known", frozenset(known))
        return view

    def resample(self, rng: random.Random, *, tries: int = 200, **_: object) -> State:
        # (The dealer's discard model, ``bury``, is not read: these samples keep real hands.)
        true: State = self._true  # type: ignore[attr-defined]
        known: frozenset[int] = self._known  # type: ignore[attr-defined]
        deal = true.deal
        rules = true.rules
        others = [s for s in range(rules.players) if s not in known]
        pool = [c for s in others for c in deal.hands[s]] + list(deal.stock)
        for _ in range(tries):
            rng.shuffle(pool)
            hands = list(deal.hands)
            k = 0
            for s in others:
                hands[s] = tuple(pool[k:k + rules.hand_size])
                k += rules.hand_size
            st = State.from_deal(rules, Deal(deal.dealer, tuple(hands), deal.up_card, tuple(pool[k:])))
            try:
                for a in true.history:
                    st.push(a)
            except ValueError:  # (a dealer's discard the new hand does not hold: deal again)
                continue
            return st
        return true.copy()


def _python_bidder(seed: int) -> Bot:
    return SearchBot(seed=seed, compiled_bids=False)


def _cheats(part: str | None, state: State) -> bool:
    """Whether the cheater decides this decision of the bot's side under ``part``."""
    if part is None or part == PYTHON_BIDS or part in PEEKS:
        return False  # (the bids of those parts are the search bot's, on its own samples)
    if part == "all":
        return True
    return (state.phase is Phase.PLAY) == (part == "play")


def play(base: State, side: int, part: str | None, bot: str, opponent: str, index: int) -> float:
    """One play of a deal: the bot (the cheater on ``part``) holds ``side``; its net points."""
    state = base.copy()
    rules = state.rules
    ours = {s for s in range(rules.players) if rules.side_of(s) == side}
    bots = {s: make_bot(bot if s in ours else opponent, seed=index * 13 + s) for s in range(rules.players)}
    cheat = {s: Cheater(seed=index * 13 + s) for s in ours}
    bidders = {s: _python_bidder(index * 13 + s) for s in ours} if part == PYTHON_BIDS or part in PEEKS else {}
    while not state.is_over:
        seat = state.to_act
        if seat in bidders and state.phase is not Phase.PLAY:
            view = (PartnerView.peek(state, seat, opponents=part == "opponents-bid") if part in PEEKS
                    else PlayerView.of(state, seat))
            state.push(bidders[seat].choose(view))
        elif seat in ours and _cheats(part, state):
            state.push(cheat[seat].choose_state(state))
        else:
            state.push(bots[seat].choose(PlayerView.of(state, seat)))
    return net_points(state, side)


def _work(args: tuple[str, str, str, str, int, int, int]) -> list[tuple[float, float]]:
    """(the bot's score, the hybrid's) per deal of one chunk."""
    preset, part, bot, opponent, seed, lo, hi = args
    rules = Rules.preset(preset)
    out = []
    if part in PEEKS and (rules.players != 4 or rules.sides != 2):
        raise ValueError(f"--part {part} needs a game of two partnerships of two")
    fair = PYTHON_BIDS if part in PEEKS else None
    for i in range(lo, hi):
        base = deal(rules, seed, i)
        plain = sum(play(base, side, fair, bot, opponent, i) for side in range(rules.sides)) / rules.sides
        hybrid = sum(play(base, side, part, bot, opponent, i) for side in range(rules.sides)) / rules.sides
        out.append((plain, hybrid))
    return out


def run(preset: str, part: str, bot: str, opponent: str, deals: int, seed: int,
        jobs: int) -> list[tuple[float, float]]:
    """Every deal's (bot, hybrid) scores."""
    chunk = max(1, deals // (jobs * 8))
    tasks = [(preset, part, bot, opponent, seed, lo, min(lo + chunk, deals)) for lo in range(0, deals, chunk)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_work, tasks, chunksize=1)
    else:
        parts = [_work(t) for t in tasks]
    return [row for p in parts for row in p]


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(len(xs))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--part", choices=PARTS, default="bid", help="the part of the hand the cheater decides")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--bot", default="search")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--rules", default="american")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    if a.deals < 2 or a.jobs < 1:
        p.error("--deals must be at least 2 and --jobs at least 1")
    try:
        rules = Rules.preset(a.rules)
    except ValueError as e:
        p.error(f"--rules: {e}")
    if a.part in PEEKS and (rules.players != 4 or rules.sides != 2):
        p.error(f"--part {a.part} needs a game of two partnerships of two, not {a.rules}")
    t0 = time.perf_counter()
    rows = run(a.rules, a.part, a.bot, a.opponent, a.deals, a.seed, a.jobs)
    base, base_half = interval([b for b, _ in rows])
    gain, half = interval([h - b for b, h in rows])
    print(f"{a.rules}: {a.bot} against {a.opponent}, {len(rows)} deals x 2 seatings "
          f"({time.perf_counter() - t0:.0f} s)")
    differ = sum(1 for b, h in rows if b != h)
    if a.part in PEEKS:
        whose = "the partner's" if a.part == "partner-bid" else "the opponents'"
        print(f"  fair bids (the search bot on the Python path), {a.bot}'s card play: "
              f"{base:+.3f} +- {base_half:.3f} points per hand")
        print(f"  knowing {whose} cards in the bidding: {gain:+.3f} +- {half:.3f} points per hand "
              f"({differ} deals came out differently)")
        return 0
    print(f"  {a.bot}: {base:+.3f} +- {base_half:.3f} points per hand")
    print(f"  seeing every card in the {a.part if a.part != 'all' else 'whole hand'}: "
          f"{gain:+.3f} +- {half:.3f} points per hand over the {a.bot} "
          f"({differ} deals came out differently)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
