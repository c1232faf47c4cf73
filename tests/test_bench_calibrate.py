"""``bench/calibrate.py``, the search bot's bid predictions against what the choices score."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "calibrate.py"
TINY = 'search:{"time_limit": null, "samples": 6, "bid_samples": 6, "min_samples": 2}'


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_every_choice_is_played_out_and_the_own_margins_replay_the_bot(tmp_path: Path) -> None:
    saved = tmp_path / "rows.json"
    r = run("--deals", "4", "--jobs", "1", "--bot", TINY, "--save", str(saved))
    assert r.returncode == 0, r.stdout + r.stderr  # exit 1 if the bot's margins chose otherwise
    rows = json.loads(saved.read_text())["rows"]
    assert rows and all(row["phase"] in ("BID1", "BID2") for row in rows)
    for row in rows:
        actions = [c["action"] for c in row["choices"]]
        assert "pass" in actions and len(set(actions)) == len(actions) >= 2
        for c in row["choices"]:
            # A hand's net points for a side of two: -4 (a lone hand against it) up to +4.
            assert c["realized"] in (-4, -2, -1, 0, 1, 2, 4)
            assert -4 <= c["predicted"] <= 4
    assert "(the bot's)" in r.stdout
    own = next(line for line in r.stdout.splitlines() if line.endswith("(the bot's)"))
    assert own.split()[2:4] == ["0", "+0.0000"]  # its own margins change no decision
    again = run("--load", str(saved), "--bot", TINY)
    assert again.returncode == 0 and again.stdout.splitlines()[1:] == r.stdout.splitlines()[1:]


def test_the_same_seed_gives_the_same_decisions(tmp_path: Path) -> None:
    outs = []
    for k in range(2):
        path = tmp_path / f"{k}.json"
        assert run("--deals", "3", "--jobs", str(k + 1), "--bot", TINY, "--save", str(path)).returncode == 0
        outs.append(json.loads(path.read_text()))
    assert outs[0] == outs[1]


def test_bad_arguments_are_refused_with_the_reason(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2")
    for args, words in [(("--bot", "heuristic"), "is not the search bot"),
                        (("--bot", "nobody"), "unknown bot 'nobody'"),
                        (("--deals", "0"), "--deals: must be at least 1"),
                        (("--load", str(junk)), "not a file written by --save")]:
        r = run(*args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)
