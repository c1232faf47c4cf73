"""The terminal player's settings file (``euchre.settings``) and ``euchre settings``."""

from __future__ import annotations

from pathlib import Path

import pytest

from euchre import settings
from euchre.cli import main
from euchre.settings import Settings, SettingsError


def test_defaults_without_a_file(tmp_path: Path) -> None:
    assert settings.load(tmp_path / "settings.toml") == (Settings(), [])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.toml"
    s = Settings(speed="fast", hints=False, autoplay=True, confirm_alone=True, four_colour=True)
    assert settings.save(s, path) == path
    assert settings.load(path) == (s, [])
    assert not list(path.parent.glob("*.tmp"))  # the temporary file was renamed into place


@pytest.mark.parametrize(("text", "field", "value"), [
    ("speed=fast", "speed", "fast"), ("speed=auto", "speed", None), ("hints=off", "hints", False),
    ("four-color=yes", "four_colour", True), ("Confirm-Alone=on", "confirm_alone", True),
    ("autoplay=1", "autoplay", True),
])
def test_assignments(text: str, field: str, value: object) -> None:
    assert getattr(settings.parse_assignment(Settings(), text), field) == value


@pytest.mark.parametrize(("text", "message"), [
    ("speed", "write NAME=VALUE"),
    ("speed=warp", "speed must be slow, normal, fast, instant or auto, not \u201cwarp\u201d"),
    ("hints=maybe", "hints must be on or off"), ("colour=red", "no setting \u201ccolour\u201d"),
])
def test_bad_assignments_say_why(text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        settings.parse_assignment(Settings(), text)


def test_a_damaged_file_warns_and_keeps_what_it_can(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('speed = "warp"\nhints = false\nnonsense = 3\n', encoding="utf-8")
    loaded, warnings = settings.load(path)
    assert loaded == Settings(hints=False)
    assert len(warnings) == 2 and "speed must be" in warnings[0] and "no setting \u201cnonsense\u201d" in warnings[1]
    path.write_text("not [ toml", encoding="utf-8")
    loaded, warnings = settings.load(path)
    assert loaded == Settings() and "not valid TOML" in warnings[0]


def test_the_command_shows_changes_and_resets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("EUCHRE_HOME", str(tmp_path))
    assert main(["settings"]) == 0
    out = capsys.readouterr().out
    assert "speed" in out and "auto" in out and "four-colour" in out and "None" not in out
    assert main(["settings", "speed=slow", "hints=off"]) == 0
    out = capsys.readouterr().out
    assert f"Saved in {tmp_path / 'settings.toml'}" in out
    assert settings.load(tmp_path / "settings.toml")[0] == Settings(speed="slow", hints=False)
    with pytest.raises(SystemExit) as e:
        main(["settings", "speed=warp"])
    assert e.value.code == 2
    assert "speed must be" in capsys.readouterr().err
    assert settings.load(tmp_path / "settings.toml")[0] == Settings(speed="slow", hints=False)  # unchanged
    assert main(["settings", "--reset"]) == 0
    assert settings.load(tmp_path / "settings.toml")[0] == Settings()
