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
    assert run["actions_acked"] > 20 and run["ack_ms"]["p50"] > 0
    # every action is acknowledged to its player and shown to all four seats
    assert run["frames_received"] >= 5 * run["actions_acked"]


def test_the_floor_sends_the_real_servers_frames() -> None:
    """The floor replays frames built by the server's own code: one per seat per version, the
    version counting up from the start, the game ending."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import ws_floor
    finally:
        sys.path.remove(str(ROOT / "bench"))
    rec = ws_floor.Recording(3)
    assert len(rec.frames) > 30
    for v, frames in enumerate(rec.frames):
        decoded = [json.loads(f) for f in frames]
        assert [d["v"] for d in decoded] == [v] * 4
        assert [d["d"]["seat"] for d in decoded] == [0, 1, 2, 3]
        # the seat the floor lets act is the one whose frame offers it choices
        offered = [s for s, d in enumerate(decoded) if d["d"]["view"] and d["d"]["view"]["legal"]]
        assert offered == ([] if rec.to_act[v] is None else [rec.to_act[v]])
    assert json.loads(rec.frames[0][0])["d"]["status"] == "waiting"
    last = json.loads(rec.frames[-1][0])["d"]
    assert last["status"] == "over" and last["winners"]
    # each seat's frame is that seat's own view (its own hand), as the real server sends it
    views = [json.loads(f)["d"]["view"] for f in rec.frames[len(rec.frames) // 2]]
    assert [view["seat"] for view in views] == [0, 1, 2, 3]
    assert len({tuple(view["hand"]) for view in views}) == 4
