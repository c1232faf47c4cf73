"""The compiled bidding samples (:mod:`euchre.fastbid`) value every deal exactly as the search bot's
Python path does, under every rule set they cover, and hints fall back to that path elsewhere."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Game, Rules, fastbid
from euchre.actions import ACTIONS, Action, discard
from euchre.bots import SearchBot, make_bot
from euchre.bots.search import plausible_discards
from euchre.cards import Card, Suit, deck_cards
from euchre.fastbid import _plausible_discards
from euchre.hints import _HintBot, hint
from euchre.state import Phase
from euchre.view import PlayerView

COVERED = [
    ("american", {}),
    ("american", {"stick_the_dealer": True}),
    ("american", {"canadian_loner": True, "target": None, "duration": 30}),
    ("british", {}),
    ("british", {"defend_alone": True}),
    ("american", {"defend_alone": True, "dealer_may_discard_up_card": False}),
    ("american", {"defend_alone": True, "loner_lead": "loner_left", "super_euchre": True}),
    ("american", {"no_trump": True, "low_no_trump": True, "euchre_points": 3}),
    ("two-handed", {}),
    ("two-handed", {"deck": 32}),
    ("cut-throat", {}),
    ("american", {"players": 3, "going_alone": False}),
]


def bid_views(rules: Rules, seed: int, count: int) -> list[PlayerView]:
    """Views before the play with a real choice that the compiled path covers, from games of
    heuristic players who now and then choose at random (so that loners and odd bids occur)."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    g = 0
    while len(out) < count:
        game = Game(rules, seed=rng.randrange(2**62))
        bots = [make_bot("heuristic", seed=g * 4 + s) for s in range(rules.players)]
        g += 1
        while not game.is_over and game.hand_number < 3 and len(out) < count:
            seat = game.to_act
            view = game.view(seat)
            if fastbid.covered(view) and len(view.legal_actions) > 1 and rng.random() < 0.5:
                out.append(view)
            game.push(bots[seat].choose(view) if rng.random() < 0.7 else rng.choice(view.legal_actions))
    return out


@pytest.mark.parametrize(("preset", "switches"), COVERED)
def test_compiled_samples_value_each_deal_as_the_python_path(preset: str, switches: dict[str, object]) -> None:
    rules = Rules.preset(preset, **switches) if switches else Rules.preset(preset)
    bot = SearchBot(seed=1)  # score-aware: the utilities of a late score are compared too
    phases = set()
    for i, view in enumerate(bid_views(rules, 3, 24)):
        phases.add(view.phase)
        legal = list(view.legal_actions)
        got = fastbid.sample_values(bot, view, legal, 6, 1000 + i)
        assert len(got.values) == len(got.hands) == len(got.deals) == 6
        for values, hands, deal in zip(got.values, got.hands, got.deals, strict=True):
            sample = fastbid.sample_state(view, deal)
            assert tuple(sample.hands) == hands
            assert PlayerView.of(sample, view.seat).hand == view.hand
            expected = bot._values(sample, view.seat, legal, view)  # type: ignore[arg-type]
            assert values == expected
            assert list(values) == list(expected)  # (the same order: ties go to the first)
            for a, v in values.items():
                if not isinstance(v, tuple):
                    assert list(v.values) == list(expected[a].values)  # type: ignore[union-attr]
    assert Phase.BID1 in phases and Phase.DISCARD in phases


@pytest.mark.parametrize(("preset", "switches"), [("american", {}), ("american", {"defend_alone": True}),
                                                  ("british", {})])
@pytest.mark.parametrize("loners", [True, False])
def test_played_out_samples_are_valued_as_the_python_path(preset: str, switches: dict[str, object],
                                                          loners: bool) -> None:
    """``playout``: the samples it picks are valued by the heuristic player's play to the end of the
    hand, in both paths, and the others as before; without ``playout_loners`` a loner's hand is
    solved on every sample."""
    rules = Rules.preset(preset, **switches) if switches else Rules.preset(preset)
    bot = SearchBot(seed=1, playout=0.5, playout_loners=loners)
    solved = SearchBot(seed=1)
    differ = alone_differ = alone_seen = 0
    for i, view in enumerate(bid_views(rules, 4, 12)):
        legal = list(view.legal_actions)
        got = fastbid.sample_values(bot, view, legal, 6, 2000 + i)
        plain = fastbid.sample_values(solved, view, legal, 6, 2000 + i)
        for k, (values, deal) in enumerate(zip(got.values, got.deals, strict=True)):
            sample = fastbid.sample_state(view, deal)
            bot._number = k
            assert values == bot._values(sample, view.seat, legal, view)  # type: ignore[arg-type]
            if fastbid.plays_out(k, 0.5):
                differ += values != plain.values[k]
                for a in legal:
                    if a.alone:
                        alone_seen += 1
                        alone_differ += values[a] != plain.values[k][a]
            else:
                assert values == plain.values[k]
    assert differ > 0, "a hand played out by the heuristic player is sometimes valued otherwise than solved"
    assert alone_seen > 0
    if loners:
        assert alone_differ > 0, "a loner played out is sometimes valued otherwise than solved"
    else:
        assert alone_differ == 0, "a loner is solved even on a sample played out"


def test_playout_is_a_share() -> None:
    assert [fastbid.plays_out(k, 0.5) for k in range(6)] == [True, False, True, False, True, True]
    assert not any(fastbid.plays_out(k, 0.0) for k in range(50))
    assert all(fastbid.plays_out(k, 1.0) for k in range(50))
    assert 380 <= sum(fastbid.plays_out(k, 0.4) for k in range(1000)) <= 420
    for bad in (-0.1, 1.5, True, "half"):
        with pytest.raises(ValueError, match="playout must be a number from 0 to 1"):
            SearchBot(playout=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="playout_loners must be true or false"):
        SearchBot(playout_loners=1)  # type: ignore[arg-type]


def test_the_phases_the_rules_make_are_compared_too() -> None:
    seen = set()
    for preset, switches in COVERED:
        rules = Rules.preset(preset, **switches) if switches else Rules.preset(preset)
        seen |= {v.phase for v in bid_views(rules, 3, 24)}
    assert seen == set(fastbid.PHASES)


def test_a_later_decision_is_grouped_by_what_the_seat_saw() -> None:
    view = next(v for v in bid_views(Rules(), 5, 40) if v.phase is Phase.BID1 and v.seat != v.dealer)
    got = fastbid.sample_values(SearchBot(seed=2), view, list(view.legal_actions), 40, 9)
    later = [v for values in got.values for v in values.values() if not isinstance(v, tuple)]
    assert later, "passing in round 1 reaches the seat's round-2 bid on some deals"
    for v in later:
        assert v.history[:len(view.actions)] == tuple(-1 if a is None else int(a) for _, a in view.actions)
        assert v.hand == got.hands[0][view.seat]  # (its cards do not change before round 2)


def test_samples_do_not_depend_on_threads_or_batches() -> None:
    view = bid_views(Rules(), 7, 1)[0]
    bot = SearchBot(seed=3)
    legal = list(view.legal_actions)
    one = fastbid.sample_values(bot, view, legal, 30, 77)
    two = fastbid.sample_values(bot, view, legal, 30, 77, threads=2)
    assert one.values == two.values and one.hands == two.hands and (one.deals == two.deals).all()
    tail = fastbid.sample_values(bot, view, legal, 10, 77, first=20)
    assert tail.values == one.values[20:] and tail.hands == one.hands[20:]
    assert fastbid.sample_values(bot, view, legal, 30, 78).hands != one.hands


def test_the_sampler_deals_the_unseen_cards_uniformly() -> None:
    """Each unseen card lies with each other seat (or in the stock) as often as its share."""
    view = next(v for v in bid_views(Rules(), 9, 20) if v.phase is Phase.BID2)
    got = fastbid.sample_values(SearchBot(seed=4), view, [view.legal_actions[0]], 3000, 5)
    seat = view.seat
    pool = view.unseen_mask() & ~(1 << view.up_card)  # type: ignore[operator]
    cards = [c for c in range(33) if pool >> c & 1]
    for s in range(4):
        if s == seat:
            continue
        share = 5 / len(cards)
        for c in cards:
            freq = sum(h[s] >> c & 1 for h in got.hands) / 3000
            assert abs(freq - share) < 5 * (share * (1 - share) / 3000) ** 0.5


UNCOVERED = [
    ("railroad", {}),  # call for best
    ("american", {"ace_no_face": True}),
    ("american", {"farmers_hand": True}),
]


@pytest.mark.parametrize(("preset", "switches"), UNCOVERED)
def test_other_rules_fall_back_to_the_python_path(preset: str, switches: dict[str, object],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset(preset, **switches) if switches else Rules.preset(preset)
    game = Game(rules, seed=4)
    view = game.view(game.to_act)
    assert view.phase is not Phase.PLAY and not fastbid.covered(view)
    plain = [(h.action, h.points, h.stderr) for h in hint(view, bid_samples=12)]

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("the compiled path was taken")

    monkeypatch.setattr(fastbid, "sample_values", refuse)
    assert [(h.action, h.points, h.stderr) for h in hint(view, bid_samples=12)] == plain
    python = _HintBot(seed=5, bid_samples=12, compiled=False).evaluate(view, actions=list(view.legal_actions))
    compiled = _HintBot(seed=5, bid_samples=12).evaluate(view, actions=list(view.legal_actions))
    assert python == compiled


def test_sister_games_and_the_play_are_not_covered() -> None:
    for name in ("hasenpfeffer", "bid-euchre", "napoleon"):
        game = Game(Rules.preset(name), seed=1)
        assert not fastbid.covered(game.view(game.to_act))
    game = Game(Rules(), seed=1)
    while game.view(game.to_act).phase is not Phase.PLAY:
        game.push(game.legal_actions()[-1])
    assert not fastbid.covered(game.view(game.to_act))
    with pytest.raises(ValueError, match="cover"):
        fastbid.sample_values(SearchBot(), game.view(game.to_act), list(game.legal_actions()), 2, 0)


def test_a_bidding_hint_takes_the_compiled_path(monkeypatch: pytest.MonkeyPatch) -> None:
    view = bid_views(Rules(), 11, 1)[0]
    calls = []
    real = fastbid.sample_values

    def spy(*args: object, **kw: object) -> fastbid.Samples:
        calls.append(args[3])
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(fastbid, "sample_values", spy)
    hs = hint(view, bid_samples=40)
    assert calls == [40] and hs[0].samples == 40
    assert hint(view, bid_samples=40) == hs


def test_a_house_rules_bid_takes_at_most_its_own_budget() -> None:
    game = Game(Rules.preset("railroad"), seed=6)
    view = game.view(game.to_act)
    assert not fastbid.covered(view)
    assert hint(view, bid_samples=50, house_bid_samples=20)[0].samples == 20
    assert hint(view, bid_samples=10, house_bid_samples=20)[0].samples == 10
    covered = bid_views(Rules(), 13, 1)[0]
    assert hint(covered, bid_samples=50, house_bid_samples=20)[0].samples == 50


def test_compiled_hints_repeat_under_a_slow_clock_and_any_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    views = bid_views(Rules.preset("british", defend_alone=True), 17, 4)
    first = [hint(v, bid_samples=60) for v in views]
    assert [hint(v, bid_samples=60, threads=2) for v in views] == first

    class Slow:
        t = 0.0

        def __call__(self) -> float:
            self.t += 1.0
            return self.t

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, Slow())
    assert [hint(v, bid_samples=60) for v in views] == first


def test_a_late_score_values_each_deal_as_the_python_path() -> None:
    """Near the end of a game the search bot values a hand by the chance of winning it: the
    compiled path's points go through the same utilities."""
    bot = SearchBot(seed=6)
    checked = 0
    for seed in range(12):
        game = Game(Rules(), seed=seed, scores=(7, 8))
        view = game.view(game.to_act)
        assert bot._score_matters(view)
        legal = list(view.legal_actions)
        got = fastbid.sample_values(bot, view, legal, 5, seed)
        for values, deal in zip(got.values, got.deals, strict=True):
            assert values == bot._values(fastbid.sample_state(view, deal), view.seat, legal, view)  # type: ignore[arg-type]
            checked += 1
    assert checked == 60


def test_importing_euchre_does_not_load_the_compiled_code() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, euchre; print('numba' in sys.modules, 'euchre.fastbid' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.split() == ["False", "False"]


def test_the_bot_on_compiled_samples_follows_the_python_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compiled_bids``: on the same deals, the search bot's own decision (round 2's pruning after
    a quarter of the budget, a close bid sampled on in steps) comes out exactly as the Python loop's."""
    views = [v for v in bid_views(Rules(), 13, 60) if v.phase in (Phase.BID1, Phase.BID2, Phase.DISCARD)][:12]
    assert {v.phase for v in views} >= {Phase.BID1, Phase.BID2}
    opts = {"bid_samples": 16, "min_samples": 4, "close_factor": 3, "close_margin": 1.0}
    pruned = stopped = 0
    for i, view in enumerate(views):
        compiled = SearchBot(seed=i, compiled_bids=True, **opts).evaluate(view)  # type: ignore[arg-type]
        seed = random.Random(i).getrandbits(64)
        deals = iter(fastbid.sample_values(SearchBot(seed=0), view, list(view.legal_actions), 48, seed).deals)
        monkeypatch.setattr(PlayerView, "resample", lambda self, rng, d=deals: fastbid.sample_state(self, next(d)))
        python = SearchBot(seed=i, **opts).evaluate(view)  # type: ignore[arg-type]
        monkeypatch.undo()
        assert [e.action for e in compiled] == [e.action for e in python]
        assert [e.samples for e in compiled] == [e.samples for e in python]
        for c, p in zip(compiled, python, strict=True):
            assert c.points == pytest.approx(p.points) and c.stderr_vs_best == pytest.approx(p.stderr_vs_best)
        pruned += len(compiled) < len(view.legal_actions)
        stopped += compiled[0].samples < 48
    assert pruned and stopped, "some round-2 call is dropped and some bid is clear before the last step"


def test_a_bot_on_compiled_samples_decides_by_its_seed() -> None:
    view = next(v for v in bid_views(Rules(), 17, 20) if v.phase is Phase.BID1)
    a = SearchBot(seed=8, compiled_bids=True, bid_samples=200)
    b = SearchBot(seed=8, compiled_bids=True, bid_samples=200)
    assert a.evaluate(view) == b.evaluate(view)
    assert a.choose(view) == b.choose(view)


@pytest.mark.parametrize(("preset", "switches"), COVERED)
def test_compiled_samples_read_the_bids_as_the_python_path(preset: str, switches: dict[str, object]) -> None:
    """With ``infer_bids``, each deal's count of the other seats' bids the heuristic player would not
    have made is the Python path's (``SearchBot._bid_weight``), and a deal's weight follows it."""
    rules = Rules.preset(preset, **switches) if switches else Rules.preset(preset)
    bot = SearchBot(seed=1, infer_bids=True)
    read = surprised = 0
    for i, view in enumerate(bid_views(rules, 5, 24)):
        got = fastbid.sample_values(bot, view, list(view.legal_actions), 8, 500 + i)
        for deal, k in zip(got.deals, got.surprises.tolist(), strict=True):
            sample = fastbid.sample_state(view, deal)
            assert bot._bid_weight(sample, view.seat, 0.5, {}) == 0.5 ** k  # type: ignore[arg-type]
            surprised += k > 0
        read += any(s != view.seat and a is not None and a.is_bid for s, a in view.actions)
    assert read and surprised, "some views follow another seat's bid, and some deals do not explain it"
    plain = fastbid.sample_values(SearchBot(seed=1), bid_views(rules, 5, 1)[0], [], 4, 1)
    assert not plain.surprises.any()  # (not read without infer_bids)


def test_deals_drawn_by_the_bidding_are_the_python_paths_weighted_deals() -> None:
    """With ``infer_bids`` the compiled deals are drawn by the bidding (a deal that does not explain
    the bids is drawn again, or weighs less: ``fastbid._draw``); weighted, they describe the same
    hands as the Python path's uniform deals weighed by ``SearchBot._bid_weight``. Measured on
    the partner's hand after its order up (RULES.md 3), and the control variate's pool
    (``pool_hands``) is drawn as the valued deals are."""
    import numpy as np

    from euchre.cards import effective_suit
    from euchre.state import State

    state = State(Rules(), dealer=0, hands=["Ac 9c Tc 9d Ks", "9s Ts Qc Kd Qd", "Jh Ah Th Kc Ad",
                                            "Kh Jc Js Qs As"], up_card="Qh")
    state.push("pass")
    state.push("order")
    view = PlayerView.of(state, 0)
    bot = SearchBot(seed=1, infer_bids=True, bid_misfit=0.05)
    got = fastbid.sample_values(bot, view, [view.legal_actions[0]], 3000, 11)
    hearts = [c for c in range(24) if effective_suit(c, view.trump) == view.trump]  # trumps: hearts and Jd

    def trumps(hands: np.ndarray) -> np.ndarray:
        return np.array([bin(h[2] & sum(1 << c for c in hearts)).count("1") for h in hands], dtype=float)

    w = got.weights
    assert set(got.surprises.tolist()) <= {0, 1, 2} and (w[got.surprises <= 1] == 1).all()
    compiled = float((trumps(np.array(got.hands)) * w).sum() / w.sum())
    rng = random.Random(5)
    plain, weights = [], []
    for _ in range(3000):
        sample = view.resample(rng)
        plain.append(trumps(np.array([sample.hands]))[0])
        weights.append(bot._bid_weight(sample, 0, 0.05, {}))
    python = float(np.dot(plain, weights) / sum(weights))
    uniform = float(np.mean(plain))
    assert python > uniform + 0.5  # the order says the partner holds trumps
    assert abs(compiled - python) < 0.12, (compiled, python)
    pooled = fastbid.pool_hands(bot, view, 3000, 12)
    assert abs(trumps(pooled).mean() - trumps(np.array(got.hands)).mean()) < 0.12


def test_a_very_sharp_reading_of_the_bids_still_draws_its_deals() -> None:
    """A deal that does not explain the bids is kept at least one time in 64 (``KEEP_FLOOR``), so a
    reading of one in a million costs a bounded number of draws, and its deals weigh what it says."""
    view = next(v for v in bid_views(Rules(), 11, 60) if v.phase is Phase.BID2)
    bot = SearchBot(seed=1, infer_bids=True, bid_misfit=1e-6)
    got = fastbid.sample_values(bot, view, list(view.legal_actions), 200, 3)
    for k, w in zip(got.surprises.tolist(), got.weights.tolist(), strict=True):
        assert w == pytest.approx(1e-6 ** k / max(1e-6 ** k, fastbid.KEEP_FLOOR))
    assert len(fastbid.pool_hands(bot, view, 500, 4)) == 500


# --- the dealer's plausible discards (the later discard of an order-up's rollouts) ----------------
def _discards(text: str) -> list[Action]:
    return [discard(Card.parse(c)) for c in text.split()]


@pytest.mark.parametrize(("hand", "trump", "keep"), [
    # the lowest card of each side suit: K♠ (not A♠), 10♣; no trump
    ("Jd Ah 9h As Ks Tc", "h", "Ks Tc"),
    # the left bower is trump, so diamonds' lowest is the king
    ("Jd Ad Kd 9h Th Qs", "h", "Kd Qs"),
    # six trumps: the lowest of them
    ("Jh Jd Ah Kh Qh 9h", "h", "9h"),
    # the Joker and the left bower are trump (British: spades trump, so J♣ is the left)
    ("Jo 9s Ah Kh Qc Jc", "s", "Kh Qc"),
])
def test_plausible_discards_are_the_lowest_of_each_side_suit(hand: str, trump: str, keep: str) -> None:
    t = Suit.parse(trump)
    assert plausible_discards(_discards(hand), t) == _discards(keep)


@settings(max_examples=300, deadline=None)
@given(st.permutations(deck_cards(25)).map(lambda p: p[:6]), st.integers(0, 3))
def test_compiled_plausible_discards_agree_with_the_python_ones(cards: list[Card], trump: int) -> None:
    """The compiled rollouts value the same discards as the Python path (the deck with the Joker)."""
    actions = [discard(c) for c in cards]
    acts = np.array([int(a) for a in actions] + [0] * 4, np.int64)
    k = _plausible_discards(acts, len(actions), trump)
    assert [ACTIONS[int(a)] for a in acts[:k]] == plausible_discards(actions, trump)
