"""``bench/perfect_info.py``: what seeing every card is worth to a bot, in the bidding and in the play."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPT = BENCH / "perfect_info.py"
sys.path.insert(0, str(BENCH))

import perfect_info  # noqa: E402

from euchre.rules import Rules  # noqa: E402
from euchre.state import State  # noqa: E402


def test_the_cheater_decides_only_its_part() -> None:
    s = State.random(Rules(), dealer=0, rng=random.Random(2))
    assert perfect_info._cheats("bid", s) and not perfect_info._cheats("play", s)
    assert perfect_info._cheats("all", s) and not perfect_info._cheats(None, s)
    while s.phase.name != "PLAY":
        s.push(s.legal_actions()[0] if s.phase.name != "BID1" else s.legal_actions()[1])
    assert perfect_info._cheats("play", s) and not perfect_info._cheats("bid", s)


def test_a_bot_against_itself_scores_zero_and_the_hybrid_is_paired_per_deal() -> None:
    rows = perfect_info.run("american", "bid", "heuristic", "heuristic", 6, 3, 1)
    assert len(rows) == 6
    # The heuristic against itself on both seatings of a deal nets exactly zero...
    assert all(plain == 0 for plain, _ in rows)
    # ...and the hybrid sees the cards when it bids: over a few deals it changes some outcomes.
    assert any(hybrid != plain for plain, hybrid in rows)
    # A hand's net points per seating lie in -4..4, so the mean of two does too.
    assert all(-4 <= hybrid <= 4 for _, hybrid in rows)


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs() -> None:
    one = perfect_info.run("american", "play", "heuristic", "heuristic", 4, 7, 1)
    two = perfect_info.run("american", "play", "heuristic", "heuristic", 4, 7, 2)
    assert one == two


@pytest.mark.parametrize("args, words", [(("--part", "bids"), "invalid choice"),
                                         (("--deals", "1"), "--deals must be at least 2"),
                                         (("--part", "partner-bid", "--rules", "cut-throat"),
                                          "needs a game of two partnerships of two, not cut-throat")])
def test_bad_arguments_are_refused_with_the_reason(args: tuple[str, ...], words: str) -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and words in r.stderr


def test_the_partner_view_keeps_the_partners_cards_and_deals_the_rest() -> None:
    """``--part partner-bid``: a sample of the bidding keeps the seat's and its partner's real
    hands and the up card, deals the opponents' hands and the stock again from their cards, and
    stands where the real hand does."""
    state = State.random(Rules(), dealer=3, rng=random.Random(4))
    state.push(state.legal_actions()[0])  # seat 0 passes; seat 1 bids next
    seat, partner = state.to_act, (state.to_act + 2) % 4
    view = perfect_info.PartnerView.peek(state, seat)
    assert view.hand == perfect_info.PlayerView.of(state, seat).hand
    rng = random.Random(8)
    moved = 0
    rest = {c for s in (0, 2) for c in state.deal.hands[s]} | set(state.deal.stock)
    for _ in range(20):
        sample = view.resample(rng)
        assert sample.hands[seat] == state.hands[seat] and sample.hands[partner] == state.hands[partner]
        assert sample.deal.up_card == state.deal.up_card and sample.history == state.history
        assert {c for s in (0, 2) for c in sample.deal.hands[s]} | set(sample.deal.stock) == rest
        moved += sample.deal.hands[0] != state.deal.hands[0]
    assert moved > 15


def test_the_opponents_view_keeps_the_opponents_cards_and_deals_the_partners() -> None:
    state = State.random(Rules(), dealer=3, rng=random.Random(4))
    state.push(state.legal_actions()[0])
    seat, partner = state.to_act, (state.to_act + 2) % 4
    view = perfect_info.PartnerView.peek(state, seat, opponents=True)
    rng = random.Random(8)
    moved = 0
    rest = set(state.deal.hands[partner]) | set(state.deal.stock)
    for _ in range(20):
        sample = view.resample(rng)
        assert all(sample.hands[s] == state.hands[s] for s in (seat, 0, 2))
        assert set(sample.deal.hands[partner]) | set(sample.deal.stock) == rest
        assert sample.history == state.history
        moved += sample.deal.hands[partner] != state.deal.hands[partner]
    assert moved > 15


def test_partner_bid_pairs_fair_bids_with_bids_that_know_the_partner() -> None:
    rows = perfect_info.run("american", "partner-bid", "heuristic", "heuristic", 3, 2, 1)
    assert len(rows) == 3 and all(-4 <= x <= 4 for row in rows for x in row)
    assert len(perfect_info.run("american", "opponents-bid", "heuristic", "heuristic", 2, 2, 1)) == 2
    with pytest.raises(ValueError, match="two partnerships of two"):
        perfect_info.run("cut-throat", "partner-bid", "heuristic", "heuristic", 2, 2, 1)
