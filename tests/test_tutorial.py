"""The tutorial of docs/rl.md ("Tutorial: train a policy and evaluate it") and its script,
examples/train_policy.py, on a tiny budget (a few seconds): it trains, it is deterministic for a
seed, the arena measures it, and the commands the docs show are the script's."""

from __future__ import annotations

import importlib.util
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_policy.py"
SECTION = "## Tutorial: train a policy and evaluate it"


def load_script() -> ModuleType:
    """examples/train_policy.py as a module (examples/ is not a package)."""
    name = "tutorial_train_policy"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def tutorial_section() -> str:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert SECTION in text, f"docs/rl.md has no section {SECTION!r}"
    section = text[text.index(SECTION) + len(SECTION):]
    following = re.search(r"^## ", section, re.M)
    return section[:following.start()] if following else section


def test_it_trains_and_the_arena_reports(capsys: pytest.CaptureFixture[str]) -> None:
    tp = load_script()
    out = tp.main(["--episodes", "48", "--batch", "16", "--deals", "60", "--seed", "3", "--log-every", "1"])
    printed = capsys.readouterr().out
    trained = out["train"]
    history = trained.history
    assert len(history) == 3 and trained.games == 48 and trained.hands > 48
    assert all(np.isfinite([s.policy_loss, s.value_loss, s.entropy, s.points_per_hand]).all() for s in history)
    # The baseline learns the hands' worth from the first updates on, and the policy moves.
    assert history[-1].value_loss < history[0].value_loss
    assert len({round(s.policy_loss, 9) for s in history}) == 3
    assert np.abs(trained.policy.w).max() > 0 and np.abs(trained.policy.u).max() > 0
    assert history[-1].bonus < history[0].bonus  # the entropy bonus decays
    arena = out["arena"]
    assert list(arena) == ["tutorial-policy vs random", "tutorial-policy vs heuristic",
                           "tutorial-untrained vs random", "tutorial-untrained vs heuristic", "heuristic vs random"]
    for label, result in arena.items():
        lo, hi = result.margin_ci
        assert lo <= result.margin <= hi
        assert result.hands_per_seating[0] >= 60 and result.hands_per_seating[1] >= 60
        assert f"{label}: {len(result.pairs)} game pairs" in printed
    assert arena["tutorial-policy vs random"].margin > 0
    assert arena["heuristic vs random"].margin > 0
    assert printed.count("95% CI") == 2 * len(arena)
    assert "update    3  games    48" in printed


def test_deterministic_for_a_seed() -> None:
    tp = load_script()
    a = tp.train(seed=5, episodes=24, batch=8, minutes=None)
    b = tp.train(seed=5, episodes=24, batch=8, minutes=None)
    c = tp.train(seed=6, episodes=24, batch=8, minutes=None)
    assert np.array_equal(a.policy.w, b.policy.w) and np.array_equal(a.policy.u, b.policy.u)
    assert [s.policy_loss for s in a.history] == [s.policy_loss for s in b.history]
    assert not np.array_equal(a.policy.w, c.policy.w)


def test_the_bot_plays_legal_actions_and_saves(tmp_path: Path) -> None:
    """The relabelled features map back to exactly the engine's legal actions, and the bot built
    on a saved and loaded policy chooses as the original does."""
    tp = load_script()
    from euchre import Game, Rules
    from euchre.envs import euchre_v0

    policy = tp.LinearPolicy()
    policy.w[:] = np.random.default_rng(0).normal(size=policy.w.shape)
    policy.save(str(tmp_path / "p.npz"))
    loaded = tp.LinearPolicy.load(str(tmp_path / "p.npz"))
    assert loaded.kind == "suits" and np.array_equal(loaded.w, policy.w)
    bot, again = tp.PolicyBot(policy), tp.PolicyBot(loaded)
    rng = random.Random(1)
    for seed in range(2):
        game = Game(Rules(), seed=seed)
        while not game.is_over:
            view = game.view(game.to_act)
            for kind in tp.FEATURES:
                x, legal, codes = tp.features(euchre_v0.encode(view), euchre_v0.action_mask(view), kind)
                assert sorted(int(codes[i]) for i in legal) == sorted(int(a) for a in view.legal_actions)
            choice = bot.choose(view)
            assert choice in view.legal_actions and again.choose(view) == choice
            game.push(choice if rng.random() < 0.5 else rng.choice(view.legal_actions))


def test_the_script_runs_for_minutes() -> None:
    """As a program, with a time budget: it prints how to repeat the training exactly."""
    run = subprocess.run([sys.executable, str(SCRIPT), "--minutes", "0.02", "--batch", "4", "--deals", "30",
                          "--no-untrained"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert re.search(r"--episodes \d+ instead of --minutes repeats this training exactly", run.stdout)
    assert "tutorial-policy vs heuristic:" in run.stdout and "tutorial-untrained" not in run.stdout


def test_the_docs_commands_are_the_scripts() -> None:
    tp = load_script()
    section = tutorial_section()
    commands = re.findall(r"^\$ (python examples/train_policy\.py.*)$", section, re.M)
    assert "python examples/train_policy.py --minutes 3 --seed 1" in commands
    parser = tp.build_parser()
    options = {s for a in parser._actions for s in a.option_strings}
    for command in commands:
        args = shlex.split(command)[2:]
        assert {a.split("=")[0] for a in args if a.startswith("--")} <= options, command
        parser.parse_args(args)  # exits (failing the test) on a bad value
    # every option the section names in backquotes is one the script takes
    named = set(re.findall(r"`(--[a-z-]+)", section))
    assert named and named <= options, named - options
