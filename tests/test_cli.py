"""The ``euchre`` command as a user runs it: exit codes, messages, and what it prints."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from euchre import Game, Rules, notation
from euchre.cli import build_parser, main, rules_from_args

EGN_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "egn"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "euchre.cli", *args], capture_output=True, text=True, timeout=120)


def test_rules_lists_presets_and_switches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in Rules.preset_names():
        assert name in out
    assert "--stick-the-dealer" in out and "--defend-alone" in out


def test_rules_of_one_preset_by_alias(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "cutthroat"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("cut-throat")
    assert "march_points                 3" in out


def test_rule_switches_reach_the_rules() -> None:
    args = build_parser().parse_args(["simulate", "--rules", "british", "--stick-the-dealer", "--no-canadian-loner",
                                      "--loner-lead", "loner_left", "--deals", "4"])
    r = rules_from_args(args)
    assert r == Rules.preset("british", stick_the_dealer=True, canadian_loner=False, loner_lead="loner_left",
                             deals=4)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["simulate", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["simulate", "--games", "0"], "--games: must be at least 1"),
        (["simulate", "--games", "x"], "--games: not a whole number"),
        (["simulate", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["simulate", "--rules", "two-handed", "--going-alone"], "Rules.going_alone"),
        (["simulate", "--loner-lead", "sideways"], "--loner-lead"),
        (["play", "--seat", "5"], "--seat"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_a_reason(args: list[str], fragment: str) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert fragment in p.stderr


def test_simulate_json_counts_add_up() -> None:
    p = run("simulate", "--games", "5", "--seed", "3", "--bots", "heuristic,random", "--json")
    assert p.returncode == 0, p.stderr
    stats = json.loads(p.stdout)
    assert stats["games"] == 5
    assert sum(s["wins"] for s in stats["sides"]) + stats["ties"] == 5
    assert stats["hands"] == stats["played_hands"] + stats["thrown_in"]
    assert sum(s["hands_made"] for s in stats["sides"]) == stats["played_hands"]
    assert all(s["points"] >= 0 for s in stats["sides"])
    # Same seed, same numbers.
    again = json.loads(run("simulate", "--games", "5", "--seed", "3", "--bots", "heuristic,random", "--json").stdout)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in stats.items() if k != "seconds"}


@pytest.mark.parametrize("preset", ["cut-throat", "two-handed", "british", "timed"])
def test_simulate_table_every_preset(preset: str) -> None:
    p = run("simulate", "--rules", preset, "--games", "2", "--seed", "1")
    assert p.returncode == 0, p.stderr
    assert "games won" in p.stdout and "thrown in" in p.stdout


def test_replay_own_record(tmp_path: Path) -> None:
    game = Game(Rules(), seed=4)
    rng = random.Random(4)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    path = tmp_path / "g.toml"
    notation.save(game, path)
    p = run("replay", str(path))
    assert p.returncode == 0, p.stderr
    assert "Hand 1:" in p.stdout and "trick 5" in p.stdout
    assert p.stdout.strip().endswith(f"side {game.winner} wins")


def test_replay_invalid_record_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('format = "euchre-record"\nversion = 1\n[rules]\ndeck = 23\n')
    p = run("replay", str(path))
    assert p.returncode == 1
    assert "invalid record" in p.stderr and "Rules.deck" in p.stderr
    p = run("replay", str(tmp_path / "missing.toml"))
    assert p.returncode == 1 and "cannot read" in p.stderr


@pytest.mark.skipif(not EGN_DIR.exists(), reason="shared EGN data not present")
def test_replay_egn_record() -> None:
    p = run("replay", str(EGN_DIR / "VWEC Finals.egn"))
    assert p.returncode == 0, p.stderr
    assert "VWEC Finals" in p.stdout and "game over" in p.stdout
    bad = run("replay", str(EGN_DIR / "validation" / "invalid2.json"))
    assert bad.returncode == 1 and "invalid record" in bad.stderr


@pytest.mark.skipif(not EGN_DIR.exists(), reason="shared EGN data not present")
def test_convert_egn_to_toml_and_back(tmp_path: Path) -> None:
    toml_path = tmp_path / "vwec.toml"
    p = run("convert", str(EGN_DIR / "VWEC Finals.egn"), str(toml_path))
    assert p.returncode == 0, p.stderr
    back = tmp_path / "vwec.egn"
    assert run("convert", str(toml_path), str(back)).returncode == 0
    original = notation.load(EGN_DIR / "VWEC Finals.egn").replay()
    assert notation.load(back).replay().actions() == original.actions()
    assert notation.load(toml_path).replay().scores == original.scores


def test_convert_refuses_what_egn_cannot_say(tmp_path: Path) -> None:
    game = Game(Rules.preset("cut-throat"), seed=1)
    src = tmp_path / "ct.toml"
    notation.save(game, src)
    p = run("convert", str(src), str(tmp_path / "ct.egn"))
    assert p.returncode == 1 and "cannot be written as .egn" in p.stderr
    assert not (tmp_path / "ct.egn").exists()
    assert run("convert", str(src), str(tmp_path / "x.pdf")).returncode == 2


@pytest.mark.skipif(not EGN_DIR.exists(), reason="shared EGN data not present")
def test_replay_emn_match_prints_every_game() -> None:
    p = run("replay", "--quiet", str(EGN_DIR / "combination" / "MotE W5 Match.emn"))
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("game over") == 6
