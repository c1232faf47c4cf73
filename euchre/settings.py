"""The terminal player's settings, kept between games in ``settings.toml`` in the data directory
(:func:`euchre.paths.data_dir`): the pace, hints, auto-playing a forced card, confirming before
going alone, the four-colour deck. ``euchre settings`` shows and changes them; a command-line
option of ``euchre play`` overrides a setting for one game.

A damaged or hand-edited file never stops a game: a value that is not valid is named in a warning
and its default used (:func:`load` returns the warnings), and writing goes through a temporary
file renamed into place, so a crash mid-write leaves the old file whole.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from euchre.errors import EuchreError

__all__ = ["Settings", "SettingsError", "SPEED_NAMES", "settings_path", "load", "save", "parse_assignment",
           "describe"]

SPEED_NAMES = ("slow", "normal", "fast", "instant")
"""The paces of ``euchre play --speed`` (see :data:`euchre.cli.SPEEDS`)."""

_ON = {"on", "yes", "true", "1", "y"}
_OFF = {"off", "no", "false", "0", "n"}


class SettingsError(EuchreError, ValueError):
    """A setting that does not exist, or a value it cannot take."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a player chooses once and keeps."""

    speed: str | None = None
    """The pace of the computer players: one of :data:`SPEED_NAMES`; ``None`` chooses by the
    terminal (normal at a terminal, instant when the input is not one)."""
    hints: bool = True
    """Typing ``hint`` asks the strongest bot."""
    autoplay: bool = False
    """When only one card may be played, play it without asking."""
    confirm_alone: bool = False
    """Ask "are you sure?" before going alone."""
    four_colour: bool = False
    """Diamonds blue and clubs green, so the four suits never look alike."""


_HELP = {
    "speed": "pace of the computer players: slow, normal, fast, instant, or auto (by the terminal)",
    "hints": "typing hint asks the strongest bot (on/off)",
    "autoplay": "play a forced card (your only legal card) without asking (on/off)",
    "confirm_alone": "ask before going alone (on/off)",
    "four_colour": "a four-colour deck: diamonds blue, clubs green (on/off)",
}


def settings_path() -> Path:
    """``settings.toml`` in the data directory."""
    from euchre.paths import data_dir

    return data_dir() / "settings.toml"


def _shown(raw: Any) -> str:
    """A value as the settings file would write it, for an error message (never a Python repr)."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, str):
        return f"\u201c{raw[:40]}\u201d"
    if isinstance(raw, int | float):
        return str(raw)
    return "a table" if isinstance(raw, dict) else "a list" if isinstance(raw, list) else "a date or time"


def _value(name: str, raw: Any) -> Any:
    """``raw`` as the value of setting ``name``; :class:`SettingsError` saying why not."""
    if name == "speed":
        text = str(raw).strip().lower()
        if text in ("auto", "default", ""):
            return None
        if text not in SPEED_NAMES:
            raise SettingsError(f"speed must be {', '.join(SPEED_NAMES)} or auto, not {_shown(raw)}")
        return text
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _ON:
        return True
    if text in _OFF:
        return False
    raise SettingsError(f"{name.replace('_', '-')} must be on or off, not {_shown(raw)}")


def _field(name: str) -> str:
    key = name.strip().lower().replace("-", "_")
    if key == "four_color":
        key = "four_colour"
    if key not in _HELP:
        known = ", ".join(k.replace("_", "-") for k in _HELP)
        raise SettingsError(f"no setting \u201c{name}\u201d; the settings are {known}")
    return key


def load(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The saved settings (the defaults when there is no file) and a warning for each value that
    could not be used."""
    path = path or settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), []
    except OSError as e:
        return Settings(), [f"could not read {path} ({e.strerror or e}); using the default settings"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        return Settings(), [f"{path} is not valid TOML ({e}); using the default settings"]
    values: dict[str, Any] = {}
    warnings = []
    for key, raw in data.items():
        try:
            name = _field(key)
            values[name] = _value(name, raw)
        except SettingsError as e:
            warnings.append(f"{path}: {e}; ignored")
    return Settings(**values), warnings


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings (atomically: a temporary file renamed over the old one); returns the path."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {k: ("auto" if v is None else v) for k, v in dataclasses.asdict(settings).items()}
    tmp = path.with_suffix(".toml.tmp")
    with open(tmp, "wb") as f:
        tomli_w.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def parse_assignment(settings: Settings, text: str) -> Settings:
    """``settings`` with one ``name=value`` applied (``speed=fast``, ``hints=off``)."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise SettingsError(f"{text!r}: write NAME=VALUE, such as speed=fast or hints=off")
    key = _field(name)
    return dataclasses.replace(settings, **{key: _value(key, raw)})


def describe(settings: Settings) -> list[tuple[str, str, str]]:
    """Each setting as ``(name, value, what it does)`` in words (``on``/``off``, ``auto``)."""
    out = []
    for key, value in dataclasses.asdict(settings).items():
        shown = "auto" if value is None else ("on" if value is True else "off" if value is False else str(value))
        out.append((key.replace("_", "-"), shown, _HELP[key]))
    return out
