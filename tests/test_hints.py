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
from euchre.hints import Hint, hint, position_seed
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
