"""``bench/server.py`` runs end to end, against the real server and against its transport floor.

Tiny loads (two tables, about a second): these check that the benchmark works and that its
simulated players play real games without errors, not how fast anything is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench(*args: str) -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "server.py"), "--players", "8", "--baseline-players",
                          "0", "--seconds", "1.5", "--warmup", "0.5", "--timeout", "120", "--json", *args],
                         capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("server", ["euchre", "floor"])
def test_the_load_benchmark_plays_without_errors(server: str) -> None:
    data = bench("--server", server)
    assert data["server"] == server
    (run,) = data["runs"]
    assert run["label"] == "load" and run["connected"] == 8
    assert run["errors"] == 0, run["error_kinds"]
    assert run["actions_acked"] > 20
    assert 0 < run["ack_ms"]["p50"] <= run["ack_ms"]["p99"]


def test_the_floor_sends_the_real_servers_frames() -> None:
    """The floor replays frames built by the server's own code: one per seat per version, the
    version counting up from the start, the game ending."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import ws_floor
    finally:
        sys.path.remove(str(ROOT / "bench"))
    rec = ws_floor.Recording(3)
    assert len(rec.frames) == len(rec.to_act) > 30
    assert rec.to_act[0] is None and rec.to_act[-1] is None  # waiting, and over
    assert all(seat in range(4) for seat in rec.to_act[1:-1])
    for v, frames in enumerate(rec.frames):
        decoded = [json.loads(f) for f in frames]
        assert [d["v"] for d in decoded] == [v] * 4
        assert [d["d"]["seat"] for d in decoded] == [0, 1, 2, 3]
    last = json.loads(rec.frames[-1][0])["d"]
    assert last["status"] == "over" and last["winners"]
    # each seat's frame is that seat's own view (its own hand), as the real server sends it
    views = [json.loads(f)["d"]["view"] for f in rec.frames[len(rec.frames) // 2]]
    assert [view["seat"] for view in views] == [0, 1, 2, 3]
    assert len({tuple(view["hand"]) for view in views}) == 4
