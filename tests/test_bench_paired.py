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
