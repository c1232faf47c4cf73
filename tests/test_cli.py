"""The ``euchre`` command as a user runs it: exit codes, messages, and what it prints."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from euchre import Game, Rules, notation
from euchre.bots import make_bot
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


# --- play: levels and hints ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_play_level_parses(level: str) -> None:
    args = build_parser().parse_args(["play", "--level", level, "--no-hints"])
    assert args.level == level and args.no_hints
    assert build_parser().parse_args(["play"]).level is None  # the default level is chosen in play


@pytest.mark.parametrize("argv", [["play", "--level", "bogus"], ["--level", "bogus"]])
def test_play_unknown_level_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--level" in err and "invalid choice: 'bogus'" in err and "expert" in err


def play_typing(monkeypatch: pytest.MonkeyPatch, argv: list[str], typed: str) -> int:
    """Run ``euchre play`` in-process with ``typed`` as the terminal input (then end of input)."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return main(argv)


def test_play_at_a_level_with_a_hint_then_resume_without(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.bots import levels

    monkeypatch.setenv("EUCHRE_HOME", str(tmp_path))
    asked: list[str] = []
    real_level_bot = levels.level_bot

    def spy(level: str, seed: int | None = None) -> object:
        asked.append(level)
        return real_level_bot(level, seed=seed)

    monkeypatch.setattr(levels, "level_bot", spy)
    assert play_typing(monkeypatch, ["play", "--level", "medium", "--seed", "3", "--no-color"], "hint\nquit\n") == 0
    out = capsys.readouterr().out
    assert asked == ["medium"] * 3
    assert "Hint (the strongest bot's estimate" in out and "order up: " in out and "expected points" in out
    assert "Game saved in" in out
    saved = notation.load(tmp_path / "saved-game.toml")
    assert saved.meta["level"] == "medium" and saved.meta["human_seat"] == 0

    asked.clear()
    assert play_typing(monkeypatch, ["play", "--resume", "--no-hints", "--no-color"], "hint\nquit\n") == 0
    out = capsys.readouterr().out
    assert asked == ["medium"] * 3  # the saved game keeps its level
    assert "Resuming the game saved in" in out and "Hints are off in this game" in out


def test_play_without_a_level_uses_the_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.bots import levels

    monkeypatch.setenv("EUCHRE_HOME", str(tmp_path))
    asked: list[str] = []
    monkeypatch.setattr(levels, "level_bot", lambda level, seed=None: asked.append(level) or make_bot("random"))
    assert play_typing(monkeypatch, ["play", "--seed", "4", "--no-hints", "--no-color"], "quit\n") == 0
    assert asked == [levels.DEFAULT_LEVEL] * 3
    assert notation.load(tmp_path / "saved-game.toml").meta["level"] == levels.DEFAULT_LEVEL
    capsys.readouterr()


@pytest.mark.parametrize(("url", "words"), [
    ("nonsense://x", "Can't load plugin"),
    ("garbage", "Could not parse"),
    ("postgresql+psycopg://u:secret@127.0.0.1:1/db", "connection"),
])
def test_serve_refuses_a_database_it_cannot_open(url: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad --database-url is said in one line before anything listens, without the password."""
    assert main(["serve", "--port", "0", "--database-url", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("euchre: error: cannot open the database") and words in err
    assert "secret" not in err


@pytest.mark.parametrize("args", [["--port", "abc"], ["--port", "70000"], ["--bot-delay", "-1"],
                                  ["--away-timeout", "nan"], ["--connect-limit", "-1"], ["--create-limit", "1.5"],
                                  ["--waiting-expiry", "inf"]])
def test_serve_refuses_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", *args])
    assert e.value.code == 2 and "euchre serve: error: argument" in capsys.readouterr().err
