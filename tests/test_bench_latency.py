"""``bench/latency.py``: a level's decision time, with distribution-free intervals for the goal."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import latency  # noqa: E402


def test_the_quantile_interval_holds_the_quantile_and_narrows_with_more_decisions() -> None:
    rng = random.Random(3)
    few = [rng.random() for _ in range(200)]
    many = [rng.random() for _ in range(20_000)]
    for q in (0.5, 0.99):
        lo, hi = latency.pct_interval(many, q)
        assert lo <= latency.pct(many, q) <= hi and lo < q < hi  # uniform: the true quantile is q
        flo, fhi = latency.pct_interval(few, q)
        assert fhi - flo > hi - lo
    # with 200 decisions the p99's upper end is (almost) the largest time
    assert latency.pct_interval(few, 0.99)[1] >= sorted(few)[-2]
    # a coverage check: over many draws the 95% interval holds the true median about 95% of the time
    hits = sum(lo <= 0.5 <= hi for lo, hi in (latency.pct_interval([rng.random() for _ in range(101)], 0.5)
                                            for _ in range(400)))
    assert 360 <= hits <= 400


def test_a_run_prints_the_intervals_and_a_verdict() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "latency.py"), "--level", "medium", "--games", "1"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert "95% intervals: median" in out and "p99" in out
    assert "goal: median <= 100 ms and p99 <= 500 ms: met" in out  # the heuristic answers in microseconds


def test_bad_arguments_get_one_line_each() -> None:
    for args, said in ((["--rules", "nope"], "unknown rules preset 'nope'"),
                       (["--level", "nope"], "unknown level 'nope'")):
        run = subprocess.run([sys.executable, str(BENCH / "latency.py"), *args], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr
