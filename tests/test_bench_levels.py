"""``bench/levels.py`` (the ladder of levels), ``bench/hints.py`` (how far another seed moves a hint)
and the frozen expert of ``bench/_baseline_expert.py``: run as a user runs them, on tiny budgets."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300)


def test_ladder_prints_each_step_with_its_interval_and_verdict() -> None:
    r = run("levels.py", "--deals", "30", "--steps", "easy:medium,random:easy", "--jobs", "1", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    steps = {(s["lower"], s["upper"]): s for s in d["steps"]}
    assert set(steps) == {("easy", "medium"), ("random", "easy")}
    easy = steps[("random", "easy")]
    lo, hi = easy["ci95"]
    assert lo < easy["margin"] < hi and easy["margin"] > 0.3 and easy["met"]  # random is far below
    assert d["goal"] == 0.10 and min(s["hands"] for s in d["steps"]) >= 60


def test_ladder_self_play_rates_and_text_output() -> None:
    r = run("levels.py", "--deals", "10", "--steps", "random:medium", "--selfplay", "10", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert "medium - random" in r.stdout and "championship games" in r.stdout
    assert "medium: makes trump on" in r.stdout and "random: makes trump on" in r.stdout


def test_ladder_refuses_bad_steps() -> None:
    for args, words in [(("--steps", "easy"), "is not LOWER:UPPER"), (("--steps", "easy:nobody"), "unknown bot"),
                        (("--deals", "0"), "--deals must be at least 1")]:
        r = run("levels.py", *args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)


def test_frozen_expert_plays_and_does_not_follow_the_live_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frozen expert is registered, plays legal moves, and a change to the live heuristic
    (here: one that always passes or plays its first card) does not reach it."""
    sys.path.insert(0, str(BENCH))
    import _baseline_expert  # noqa: F401  (registers frozen-expert)

    from euchre import Game, Rules
    from euchre.bots import heuristic, make_bot

    game = Game(Rules(), seed=3)
    rng = random.Random(0)
    views = []
    while not game.is_over and len(views) < 5:
        view = game.view(game.to_act)
        if len(view.legal_actions) > 1:
            views.append(view)
        game.push(rng.choice(game.legal_actions()))
    before = [[(e.action, e.points) for e in make_bot("frozen-expert", seed=1, samples=12, bid_samples=6).evaluate(v)]
              for v in views]
    monkeypatch.setattr(heuristic.HeuristicBot, "choose", lambda self, view: view.legal_actions[0])
    after = [[(e.action, e.points) for e in make_bot("frozen-expert", seed=1, samples=12, bid_samples=6).evaluate(v)]
             for v in views]
    assert after == before and len(views) == 5
    assert all(e[0][0] in v.legal_actions for e, v in zip(after, views, strict=True))


def test_hints_benchmark_reports_the_spread_per_phase() -> None:
    r = run("hints.py", "--positions", "8", "--samples", "6", "--bid-samples", "4", "--jobs", "1", "--no-baseline")
    assert r.returncode == 0, r.stderr
    assert "8 positions" in r.stdout and "95th percentile" in r.stdout
    for phase in ("BID1", "BID2", "DISCARD", "PLAY"):
        assert f"    {phase}" in r.stdout
    r = run("hints.py", "--positions", "0")
    assert r.returncode == 2 and "at least 1" in r.stderr
