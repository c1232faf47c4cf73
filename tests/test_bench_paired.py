"""``bench/paired.py``, the A/B tool for bot changes: run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "paired.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_a_variant_against_itself_differs_on_no_deal() -> None:
    r = run("heuristic", "heuristic", "--deals", "6", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert "B - A  +0.000 +- 0.000" in r.stdout
    assert "deals that came out differently: 0" in r.stdout


def test_options_reach_the_bot_and_change_its_play() -> None:
    r = run("random", 'search:{"time_limit": null, "samples": 3, "bid_samples": 2, "min_samples": 1}',
            "--deals", "4", "--jobs", "2", "--opponent", "random")
    assert r.returncode == 0, r.stderr
    assert "4 deals x 2 seatings against random" in r.stdout
    assert "deals that came out differently: 0" not in r.stdout


def test_bad_arguments_are_refused_with_the_reason() -> None:
    for args, words in [(("nobody", "heuristic"), "unknown bot 'nobody'"),
                        (("search:{bad", "heuristic"), "the options are not JSON"),
                        (('search:{"sampels": 3}', "heuristic"), "sampels"),
                        (("heuristic", "heuristic", "--deals", "1"), "--deals: must be at least 2")]:
        r = run(*args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)


def test_late_plays_whole_games_from_a_late_score_and_counts_the_games_won() -> None:
    r = run("random", "heuristic", "--deals", "8", "--jobs", "1", "--late")
    assert r.returncode == 0, r.stderr
    assert "8 deals x 2 games from a late score against heuristic" in r.stdout
    assert "of the games won" in r.stdout and "games won (percentage points)" in r.stdout
    same = run("heuristic", "heuristic", "--deals", "4", "--jobs", "1", "--late")
    assert "B - A  +0.0% +- 0.0% games won" in same.stdout, same.stdout


def test_late_scores_start_below_the_target_with_one_side_near_it() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    from paired import late_scores

    from euchre.rules import Rules

    rules = Rules.preset("american")
    starts = {late_scores(rules, 0, i) for i in range(300)}
    assert all(0 <= x < 10 and 0 <= y < 10 and max(x, y) >= 6 for x, y in starts)
    assert len(starts) > 40  # spread over the pairs, not one score
    assert late_scores(rules, 0, 5) == late_scores(rules, 0, 5)


def test_late_needs_a_target() -> None:
    r = run("heuristic", "heuristic", "--late", "--rules", "timed")
    assert r.returncode == 2 and "--late needs rules with a target score" in r.stderr, r.stderr


def test_the_frozen_expert_and_levels_are_bots_here_too() -> None:
    tiny = '{"samples": 3, "bid_samples": 2}'
    r = run(f"frozen-expert:{tiny}", f"expert:{tiny}", "--deals", "2", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert "2 deals x 2 seatings against heuristic" in r.stdout
