"""``bench/cfr_bids.py``: bidding learned by CFR over solved deals (issue 14's first lever, tried)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import cfr_bids  # noqa: E402

from euchre.bots import make_bot  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402
from euchre.view import PlayerView  # noqa: E402


def test_leaves_value_every_ending_of_the_bidding_from_side_0() -> None:
    out = cfr_bids._leaves_chunk((3, 0, 6))
    b, v = out["buckets"], out["values"]
    assert b.shape == (6, cfr_bids.NODES) and v.shape == (6, cfr_bids.NODES, 2)
    assert ((b >= 0) & (b < cfr_bids.BUCKETS)).all()
    # a hand's net points are -4..4, and a loner is -2 (euchred), 1, or 4 (march) for its makers
    assert (np.abs(v) <= 4).all()
    sign = cfr_bids._sides()
    assert set(np.unique(v[:, :, 1] * sign[None, :])) <= {-2.0, 1.0, 4.0}


def test_cfr_finds_the_obvious_call_and_pass() -> None:
    """A toy set of deals: the first seat's call wins 2 points in bucket 5 and loses 2 in bucket
    6; every other node's call loses. CFR+ calls in 5 and passes in 6."""
    n = 200
    buckets = np.zeros((n, cfr_bids.NODES), dtype=np.int16)
    buckets[: n // 2, 0] = 5
    buckets[n // 2:, 0] = 6
    values = np.zeros((n, cfr_bids.NODES, 2))
    sign = cfr_bids._sides()
    values[:, :, :] = -1.0 * sign[None, :, None]  # every call loses a point for its caller...
    values[: n // 2, 0, 0] = 2.0  # ...but the first seat's with bucket 5 wins two
    values[n // 2:, 0, 0] = -2.0
    strategy = cfr_bids.train(buckets, values, 300, log_every=0)
    assert np.argmax(strategy[0, 5]) == 1 and np.argmax(strategy[0, 6]) == 0
    assert np.argmax(strategy[1, 0]) == 0  # the next seat passes its losing call


def test_the_bot_bids_legally_and_follows_the_policy_in_round_1() -> None:
    bot = make_bot("cfr-expert", seed=1)
    assert isinstance(bot, cfr_bids.CfrExpert)
    rng = random.Random(4)
    learned = 0
    for _ in range(6):
        s = State.random(Rules(), dealer=3, rng=rng)
        view = PlayerView.of(s, s.to_act)
        assert view.phase is Phase.BID1
        a = bot.choose(view)
        assert a in view.legal_actions
        learned = bot.learned
    assert learned > 0
