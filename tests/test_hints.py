"""Repeatable decisions and hints: a bot's answer is a function of its seed and the view, never of
the clock; :func:`euchre.hint` is seeded from the position, carries its uncertainty, and is what
the terminal, the server and game review call."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import euchre
from euchre import Game, Rules
from euchre.analyze import analyze_game
from euchre.bots import SearchBot, make_bot
from euchre.hints import Hint, hint, hintable, position_seed
from euchre.state import Phase
from euchre.view import PlayerView

ROOT = Path(__file__).resolve().parent.parent


def views(seed: int, count: int) -> list[PlayerView]:
    """Views of the seat to act, with a real choice, from a random game (bids and plays)."""
    game = Game(Rules(), seed=seed)
    rng = random.Random(seed)
    out: list[PlayerView] = []
    while not game.is_over and len(out) < count:
        view = game.view(game.to_act)
        if len(view.legal_actions) > 1:
            out.append(view)
        game.push(rng.choice(game.legal_actions()))
    return out


class SlowClock:
    """Every reading of the clock is a second later than the one before: a machine so loaded that
    any time limit would have run out at once."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def test_search_bot_decision_is_a_function_of_seed_and_view(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = views(3, 6)
    quick = [[(e.action, e.points, e.utility, e.stderr) for e in SearchBot(seed=9, samples=12, bid_samples=6)
              .evaluate(v)] for v in positions]
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, SlowClock())
    slow = [[(e.action, e.points, e.utility, e.stderr) for e in SearchBot(seed=9, samples=12, bid_samples=6)
             .evaluate(v)] for v in positions]
    assert slow == quick
    assert all(len(e) == len(v.legal_actions) for e, v in zip(slow, positions, strict=True))


def test_expert_choices_repeat_under_a_slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = views(4, 3)
    first = [make_bot("expert", seed=1, samples=20, bid_samples=8).choose(v) for v in positions]
    monkeypatch.setattr(time, "perf_counter", SlowClock())
    assert [make_bot("expert", seed=1, samples=20, bid_samples=8).choose(v) for v in positions] == first


def test_time_limit_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="sample counts"):
        SearchBot(time_limit=0.35)  # type: ignore[arg-type]
    SearchBot(time_limit=None)  # old bench commands pass null: still accepted


def test_hint_is_the_same_when_asked_twice_and_different_seeds_differ() -> None:
    view = views(5, 1)[0]
    a, b = hint(view, samples=16, bid_samples=12), hint(view, samples=16, bid_samples=12)
    assert a == b
    assert euchre.hint is hint and isinstance(a[0], Hint)
    other = hint(view, seed=position_seed(view) + 1, samples=16, bid_samples=12)
    assert [h.action for h in other] != [] and sorted(map(str, (h.action for h in other))) == \
        sorted(map(str, view.legal_actions))
    assert [h.points for h in a] != [h.points for h in other] or all(h.stderr == 0 for h in a)


def test_the_terminals_hints_on_two_threads_say_what_one_thread_says() -> None:
    """``euchre play``'s hints split a bid's deals among :func:`default_threads` threads: sooner,
    never different, from a round-1 bid (compiled deals) to a card (one thread)."""
    from euchre.cli import _hint_function
    from euchre.hints import default_threads

    assert default_threads() == min(2, os.cpu_count() or 1)
    terminal = _hint_function()
    game = Game(Rules(), seed=3)
    bid = game.view(game.to_act)
    assert terminal(bid, bid_samples=400) == hint(bid, bid_samples=400, threads=1)
    card = next(v for v in views(5, 40) if v.phase is Phase.PLAY)
    assert terminal(card, samples=16) == hint(card, samples=16, threads=1)


def test_hints_are_best_first_with_their_uncertainty() -> None:
    for view in views(6, 4):
        hs = hint(view, samples=24, bid_samples=16)
        assert sorted(map(str, (h.action for h in hs))) == sorted(map(str, view.legal_actions))
        assert [h.points for h in hs] == sorted((h.points for h in hs), reverse=True)
        assert hs[0].shortfall == 0 and hs[0].shortfall_stderr == 0 and hs[0].about_even
        for h in hs:
            assert h.stderr >= 0 and h.shortfall_stderr >= 0
            assert h.shortfall == pytest.approx(hs[0].points - h.points)
            assert h.about_even == (h.shortfall <= 2 * h.shortfall_stderr or h.shortfall < 1e-9)


def test_about_even_follows_the_interval() -> None:
    from euchre.actions import PASS

    assert Hint(PASS, 0.5, 0.1, 0.15, 0.1, 100).about_even
    assert not Hint(PASS, 0.5, 0.1, 0.25, 0.1, 100).about_even
    assert Hint(PASS, 0.5, 0.0, 0.0, 0.0, 100).about_even


def test_position_seed_depends_on_what_the_seat_sees_only() -> None:
    game = Game(Rules(), seed=8)
    view = game.view(game.to_act)
    again = Game(Rules(), seed=8)
    assert position_seed(again.view(again.to_act)) == position_seed(view)
    game.push("pass")
    assert position_seed(game.view(game.to_act)) != position_seed(view)
    with pytest.raises(ValueError, match="seat to act"):
        hint(game.view(None))


def test_position_seed_is_the_same_in_another_process() -> None:
    code = ("import json; from euchre import Game, Rules; from euchre.hints import position_seed;"
            "g = Game(Rules.preset('british'), seed=12); g.push('pass');"
            "print(json.dumps(position_seed(g.view(g.to_act))))")
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True)
    g = Game(Rules.preset("british"), seed=12)
    g.push("pass")
    assert json.loads(out.stdout) == position_seed(g.view(g.to_act))


def test_analyze_gives_the_same_review_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(Rules(target=3), seed=2)
    rng = random.Random(2)
    for _ in range(30):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_actions()))
    first = analyze_game(game, samples=6, bid_samples=4).to_dict()
    monkeypatch.setattr(time, "perf_counter", SlowClock())
    assert analyze_game(game, samples=6, bid_samples=4).to_dict() == first


def test_analyze_values_a_decision_as_the_hint_does() -> None:
    game = Game(Rules(), seed=21)
    game.push("pass")
    review = analyze_game(game, samples=6, bid_samples=4, seed=3)
    d = review.decisions[0]
    from euchre.state import State

    state = State.from_deal(game.hands[0].rules, game.hands[0].deal)
    view = PlayerView.of(state, state.to_act)
    assert list(d.evaluations) == hint(view, 3 * 1_000_003, samples=6, bid_samples=4,
                                       actions=list(view.legal_actions))
    assert d.phase is Phase.BID1


def test_every_level_repeats_its_game() -> None:
    """Four bots of a level play a game twice from the same seeds: the same record."""
    from euchre.bots.levels import LEVELS, level_bot

    for level in LEVELS:
        records = []
        for _ in range(2):
            game = Game(Rules(target=2), seed=31)
            bots = [level_bot(level, seed=s) for s in range(4)]
            for _ in itertools.count():
                if game.is_over:
                    break
                game.push(bots[game.to_act].choose(game.view(game.to_act)))
            records.append([tuple(h.history) for h in game.hands])
        assert records[0] == records[1], level


# --- the house rules (RULES-FAMILY.md 12.2-12.4) -------------------------------------------------------
def house_decisions() -> list[PlayerView]:
    """A decision of every house-rule kind: a chosen gift, the lone hand's discard, a card played
    after a call for best, a misdeal offer, the farmer's offer and its gives."""
    from euchre.cards import Card
    from euchre.state import Deal, State

    out: list[PlayerView] = []
    s = State(Rules(call_for_best=True, best_card_free=True), dealer=0,
              hands=["As Ks Qs Js Ts", "Jh Ah Kh Qh 9c", "9s Ad Kd Qd Qc", "Jd 9h Tc 9d Td"], up_card="Th")
    for a in ("order alone", "discard Ts", "give Jd", "discard 9c", "play Jh"):
        if s.phase in (Phase.GIVE, Phase.BEST_DISCARD):
            out.append(PlayerView.of(s, s.to_act))
        s.push(a)
    out.append(PlayerView.of(s, s.to_act))  # trick 1: seat 2, out of trump, may play any card
    hands = tuple(tuple(Card.parse(c) for c in h.split())
                  for h in ("9c Tc 9d Td 9h", "Th Qs 9s Kh Ac", "Jc Qc Kc Jd Qd", "Kd Ad Jh Qh Ah"))
    s = State.from_deal(Rules(ace_no_face=True, farmers_hand=True),
                        Deal(3, hands, Card.parse("Js"), tuple(Card.parse(c) for c in ("Ts", "Ks", "As"))))
    for a in ("keep", "farmer", "discard 9c"):
        out.append(PlayerView.of(s, s.to_act))
        s.push(a)
    return out


def test_hints_advise_the_house_rules_repeatably() -> None:
    """A call for best, the offers and the farmer's exchange are advised like any decision (the
    sampling covers what they hide): every legal action valued, the same answer when asked again,
    and by the same search the bot plays with."""
    decisions = house_decisions()
    assert {v.phase for v in decisions} == {Phase.GIVE, Phase.BEST_DISCARD, Phase.PLAY, Phase.MISDEAL_OFFER,
                                            Phase.FARMER_OFFER, Phase.FARMER_GIVE}
    assert any(v.gifts for v in decisions if v.phase is Phase.PLAY)
    assert all(len(v.legal_actions) > 1 for v in decisions)
    for view in decisions:
        assert hintable(view)
        first = hint(view, samples=6, bid_samples=4)
        assert {h.action for h in first} == set(view.legal_actions)
        assert first == hint(view, samples=6, bid_samples=4)
        assert first[0].shortfall == 0.0 and all(h.shortfall >= 0 for h in first)


def test_house_positions_have_seeds_of_their_own() -> None:
    """What the house rules show a seat is part of its position: a gift it received or the cards a
    farmer gave change the seed; an ordinary position's seed is what it always was."""
    from euchre.state import State

    decisions = house_decisions()
    seeds = {position_seed(v) for v in decisions}
    assert len(seeds) == len(decisions)
    s = State(Rules(call_for_best=True, best_card_free=True), dealer=0,
              hands=["As Ks Qs Js Ts", "Jh Ah Kh Qh 9c", "9s Ad Kd Qd Qc", "Jd 9h Tc 9d Td"], up_card="Th")
    for a in ("order alone", "discard Ts"):
        s.push(a)
    other = s.copy()
    s.push("give Jd")
    other.push("give 9h")
    mine, theirs = PlayerView.of(s, 1), PlayerView.of(other, 1)
    assert mine.actions != theirs.actions or mine.gifts != theirs.gifts
    assert position_seed(mine) != position_seed(theirs)


def test_a_review_covers_a_hand_with_a_call_for_best() -> None:
    from euchre.state import State

    s = State(Rules.preset("railroad"), dealer=0,
              hands=["As Ks Qs Js Ts", "Jh Jd Ah Kh 9c", "9s Ad Kd Qd Qc", "Qh 9h Tc 9d Td"], up_card="Th")
    game = Game(Rules.preset("railroad"), seed=4, dealer=0, deals=[s.deal])
    rng = random.Random(4)
    while len(game.hands) == 1 and not game.is_over:
        legal = game.legal_actions()
        game.push("order alone" if "order alone" in map(str, legal) else rng.choice(legal))
    assert game.hands[0].gifts
    review = analyze_game(game, samples=4, bid_samples=3)
    assert {d.phase for d in review.decisions} >= {Phase.BEST_DISCARD, Phase.PLAY}
    assert review.to_dict() == analyze_game(game, samples=4, bid_samples=3).to_dict()


def _heuristic_view(phase: Phase, tricks: int = 0) -> PlayerView:
    """The first view with a real choice in ``phase`` (after ``tricks`` tricks) in seeded games of
    heuristic players."""
    for seed in itertools.count(21):
        game = Game(Rules(), seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(4)]
        while not game.is_over:
            view = game.view(game.to_act)
            if view.phase is phase and len(view.tricks) == tricks and len(view.legal_actions) > 1:
                return view
            game.push(bots[game.to_act].choose(view))
    raise AssertionError("unreachable")


def _late_play_view() -> PlayerView:
    """A card play with two tricks left, from a seeded game of heuristic players."""
    return _heuristic_view(Phase.PLAY, 3)


def test_hint_at_its_own_budget_repeats_and_another_seed_stays_within_the_bound() -> None:
    from euchre.hints import HINT_BID_SAMPLES, HINT_SAMPLES, LATE_FACTOR

    bid = _heuristic_view(Phase.BID1)
    first = hint(bid)
    assert first == hint(bid) and first[0].samples == HINT_BID_SAMPLES  # the budget's own determinism
    late = _late_play_view()
    one, two = hint(late), hint(late, seed=position_seed(late) ^ 0x5EED)
    assert one[0].samples == HINT_SAMPLES * LATE_FACTOR
    other = {h.action: h.points for h in two}
    assert max(abs(h.points - other[h.action]) for h in one) < 0.05  # issue 14's bound, on an easy position


def test_control_variate_features_have_mean_zero_where_the_sampling_puts_cards() -> None:
    """The control variate is unbiased only if each feature's mean over the sampling is 0: the
    cards of a group are exchangeable in :meth:`PlayerView.resample`, voids shown included."""
    import numpy as np

    from euchre.bots.control import controllable, features

    rng = random.Random(3)
    for view in (_late_play_view(), _heuristic_view(Phase.PLAY, 1), _heuristic_view(Phase.BID2),
                 _heuristic_view(Phase.DISCARD)):
        assert controllable(view)
        X = features(view, [tuple(view.resample(rng).hands) for _ in range(3000)])
        assert X.shape[1] > 0
        se = X.std(axis=0) / np.sqrt(len(X))
        assert np.all(np.abs(X.mean(axis=0)) <= 4.5 * se + 1e-9)
    late = _late_play_view()
    assert hint(late, samples=40) == hint(late, samples=40, control=False)  # too few deals: no control


def test_the_centre_of_the_control_variate_is_read_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The centre's deals (up to 150,000 in a hint) give the features' expectation only through
    their weighted mean and which features vary, so they are gone through a chunk at a time: the
    same features and expectation as all of them at once (the way it was first written: the
    features of the sampled and the centre's deals together, then the centre's weighted mean),
    before the play (with the counts' squares) and in it."""
    import numpy as np

    from euchre.bots import control

    rng = random.Random(4)
    for view in (_heuristic_view(Phase.BID1), _heuristic_view(Phase.DISCARD), _late_play_view(),
                 _heuristic_view(Phase.PLAY, 1)):
        hands = [tuple(view.resample(rng).hands) for _ in range(300)]
        center = [tuple(view.resample(rng).hands) for _ in range(700)]
        weights = [rng.random() for _ in center]
        whole = control.features(view, hands + center)
        X, mu = control._design(view, hands, center, weights)
        assert np.array_equal(X, whole[:300])
        assert np.allclose(mu, np.average(whole[300:], axis=0, weights=weights), rtol=0, atol=1e-12)
        monkeypatch.setattr(control, "_CHUNK", 64)  # (the last chunk short)
        X2, mu2 = control._design(view, hands, center, weights)
        assert np.array_equal(X2, X) and np.allclose(mu2, mu, rtol=0, atol=1e-12)
        monkeypatch.undo()
        cards = len(control._Layout(view).cards)
        assert X.shape[1] > 3 * cards if view.phase is not Phase.PLAY else X.shape[1] <= 3 * cards  # (the squares)


def test_hint_refuses_actions_that_are_not_legal_or_none() -> None:
    """``actions`` narrows a hint to some legal actions; a card of another seat, a play in the
    bidding or an empty list is refused naming it (it was valued as if legal, or failed inside)."""
    from euchre.actions import Action
    from euchre.errors import IllegalActionError

    game = Game(Rules(), seed=3)
    view = game.view(game.to_act)
    with pytest.raises(IllegalActionError, match="play Jh is not legal now; the legal actions: pass, order"):
        hint(view, actions=[Action.parse("play Jh")], samples=4, bid_samples=8)
    with pytest.raises(IllegalActionError, match="no actions to hint"):
        hint(view, actions=[], samples=4, bid_samples=8)
    [only] = hint(view, actions=[Action.parse("pass")], samples=4, bid_samples=8)
    assert str(only.action) == "pass"


def test_a_hint_reads_the_bids_before_it() -> None:
    """The dealer whose partner ordered up (RULES.md 3: the partner's order, the dealer's discard):
    the partner's strong hand is read from the order, so the hint expects the points of a strong
    side; unread (a random partner), every discard looked like a euchre. The first seat to bid has
    no bid to read: there the two hints are the same."""
    from euchre.state import State

    state = State(Rules(), dealer=0, hands=["Ac 9c Tc 9d Ks", "9s Ts Qc Kd Qd", "Jh Ah Th Kc Ad",
                                            "Kh Jc Js Qs As"], up_card="Qh")
    first = PlayerView.of(state, state.to_act)
    assert hint(first, bid_samples=600) == hint(first, bid_samples=600, read_bids=False)
    state.push("pass")
    state.push("order")  # the partner, with the left bower, the ace and the ten of hearts
    view = PlayerView.of(state, 0)
    assert view.phase is Phase.DISCARD
    read = hint(view, bid_samples=1500)
    unread = hint(view, bid_samples=1500, read_bids=False)
    assert read[0].points > unread[0].points + 0.6
    assert unread[0].points < -0.5 < read[0].points  # (the real deal: +1 whatever the dealer discards)
    assert str(read[0].action) == "discard 9d"  # the lone diamond small: short in a side suit


def test_the_bids_are_read_sharply_only_where_the_deals_are_drawn_by_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled samples before the play, and the card play where the compiled reading covers
    the rules (:class:`euchre.fastbid.PlayDrawer`), draw the deals by the bids (:data:`HINT_MISFIT`);
    where deals are weighed instead (a house rule's bid or card play on the Python path) a sharp
    weight would leave too few of them, so they are read at :data:`HINT_PLAY_MISFIT`."""
    from euchre import hints
    from euchre.state import State

    seen: list[tuple[bool, float]] = []
    real = hints._HintBot.__init__

    def spy(self: hints._HintBot, *args: object, **kw: object) -> None:
        seen.append((bool(kw["infer_bids"]), float(kw["bid_misfit"])))  # type: ignore[arg-type]
        real(self, *args, **kw)

    monkeypatch.setattr(hints._HintBot, "__init__", spy)
    hands = ["Ac 9c Tc 9d Ks", "9s Ts Qc Kd Qd", "Jh Ah Th Kc Ad", "Kh Jc Js Qs As"]
    plain = State(Rules(), dealer=0, hands=hands, up_card="Qh")
    best = State(Rules(call_for_best=True), dealer=0, hands=hands, up_card="Qh")
    for s in (plain, best):
        s.push("pass")
    for s, samples in ((plain, 60), (best, 20)):
        hint(PlayerView.of(s, s.to_act), bid_samples=samples, house_bid_samples=samples)
    for s in (plain, best):
        s.push("order")
        s.push("discard 9d")
        assert s.phase is Phase.PLAY
        hint(PlayerView.of(s, s.to_act), samples=20)
    assert seen == [(True, hints.HINT_MISFIT), (True, hints.HINT_PLAY_MISFIT), (True, hints.HINT_MISFIT),
                    (True, hints.HINT_PLAY_MISFIT)]
