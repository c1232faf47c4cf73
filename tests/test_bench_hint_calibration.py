"""``bench/hint_calibration.py``, a hint's points against the real deal's solved values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import hint_calibration  # noqa: E402

from euchre.view import PlayerView  # noqa: E402


def test_positions_are_of_every_group_and_say_who_made_trump() -> None:
    picked = hint_calibration.positions(6, 3, "heuristic")
    groups = [hint_calibration.group_of(PlayerView.of(s, seat)) for s, seat in picked]
    assert groups == ["BID", "BID", "DISCARD", "DISCARD", "PLAY", "PLAY"]
    for state, seat in picked:
        view = PlayerView.of(state, seat)
        made = hint_calibration.maker_relation(view)
        if view.phase.name == "PLAY":
            assert made in ("self", "partner", "other")  # trump was made before the play
            assert (made == "self") == (state.maker == seat)
        if view.phase.name == "BID1":
            assert made == "none"


def test_a_run_prints_the_bias_read_and_unread() -> None:
    r = subprocess.run([sys.executable, str(BENCH / "hint_calibration.py"), "--positions", "6", "--jobs", "1",
                        "--samples", "30", "--bid-samples", "30"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("6 positions from games of heuristic players")
    assert [line.split()[0] for line in lines[2:5]] == ["BID", "DISCARD", "PLAY"]
    assert lines[-1].startswith("CPU seconds a hint, median: read")
