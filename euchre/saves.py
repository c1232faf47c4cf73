"""Saved games on disk: unfinished games kept side by side, listed, resumed and archived.

Nothing here ever deletes a game that has not been archived. The data directory
(:func:`~euchre.paths.data_dir`) holds::

    saves/NAME.toml      one unfinished game each; NAME is when it was first saved
                         (20250314-201502, with -2, -3 ... on a clash), and a resumed game is
                         saved again under its own name
    games/NAME.toml      the archive: every finished game, and a finished record that a
                         ``--save FILE`` would have overwritten
    saved-game.toml      the single save of earlier versions, moved into saves/ on first use

A game is saved only once its player has made a move: quitting at the first prompt leaves
nothing behind, so games never played do not crowd out real ones. Writing a save over a file
that holds another game (``euchre play --save FILE``) first moves that game into ``saves/``
(unfinished) or ``games/`` (finished). The files are ordinary records (``docs/records.md``); the
command line shows them with ``euchre games`` and continues one with ``euchre play --resume``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from euchre import notation
from euchre.errors import EuchreError, RecordError
from euchre.game import Game
from euchre.match import Match
from euchre.paths import data_dir

__all__ = ["data_dir", "saves_dir", "archive_dir", "SavedGame", "SaveError", "list_saves", "find_save",
           "new_save_path", "in_saves", "write_save", "archive_game", "is_continuation", "human_has_played",
           "LEGACY_NAME"]

LEGACY_NAME = "saved-game.toml"
"""The one save file of earlier versions, directly in the data directory."""

_STAMP = "%Y%m%d-%H%M%S"


class SaveError(EuchreError):
    """A saved game that cannot be found or chosen; the message says what to type instead."""


def saves_dir() -> Path:
    """The unfinished games, one file each."""
    return data_dir() / "saves"


def archive_dir() -> Path:
    """The finished games."""
    return data_dir() / "games"


@dataclass
class SavedGame:
    """One file of :func:`saves_dir`, read and replayed (``game`` is ``None`` when it cannot be)."""

    name: str
    path: Path
    saved: float
    """When it was last saved (seconds since the epoch)."""
    record: notation.GameRecord | None = None
    game: Game | None = None
    error: str | None = None
    """Why the file cannot be resumed, if it cannot."""

    @property
    def meta(self) -> dict[str, Any]:
        return self.record.meta if self.record is not None else {}

    @classmethod
    def read(cls, path: Path) -> SavedGame:
        saved = _mtime(path)
        try:
            record = notation.load(path)
            game = record.replay()
        except RecordError as e:
            return cls(path.stem, path, saved, error=str(e))
        except Exception as e:  # (one file the reader trips on must not hide the other saves)
            return cls(path.stem, path, saved, error=f"{path}: cannot be read ({type(e).__name__}: {e})")
        return cls(path.stem, path, saved, record, game)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _has_content(path: Path) -> bool:
    """A file with something in it (a name just taken by :func:`_unique` is empty)."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def _unique(directory: Path, stem: str, suffix: str = ".toml") -> Path:
    """A new file ``directory/stem[-N]suffix`` that did not exist, created empty (so two
    programs saving in the same second never pick the same name)."""
    directory.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        path = directory / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            n += 1
            continue
        os.close(fd)
        return path


def _migrate_legacy() -> None:
    """Move the single save of earlier versions into ``saves/`` (or ``games/`` if finished)."""
    old = data_dir() / LEGACY_NAME
    if not old.is_file():
        return
    entry = SavedGame.read(old)
    finished = entry.game is not None and entry.game.is_over
    stamp = time.strftime(_STAMP, time.localtime(entry.saved or time.time()))
    target = _unique(archive_dir() if finished else saves_dir(), stamp)
    os.replace(old, target)


def list_saves() -> list[SavedGame]:
    """Every unfinished saved game, the most recently saved first."""
    _migrate_legacy()
    directory = saves_dir()
    if not directory.is_dir():
        return []
    entries = [SavedGame.read(p) for p in directory.glob("*.toml") if _has_content(p)]
    entries = [e for e in entries if e.game is None or not e.game.is_over]
    return sorted(entries, key=lambda e: (-e.saved, e.name))


def find_save(key: str, saves: list[SavedGame] | None = None) -> SavedGame:
    """The saved game ``key`` names: its name (with or without ``.toml``), else its number in
    :func:`list_saves` counting from 1, else the path of a record file. Raises
    :class:`SaveError` saying what there is."""
    saves = list_saves() if saves is None else saves
    for s in saves:
        if key in (s.name, s.path.name):
            return s
    path = Path(key).expanduser()
    if key.isdigit() and not path.is_file():
        number = int(key)
        if 1 <= number <= len(saves):
            return saves[number - 1]
        raise SaveError(f"there is no saved game {number}: " + (
            f"the saved games are numbered 1 to {len(saves)} (euchre games lists them)" if saves
            else "there are no saved games"))
    if path.is_file():
        return SavedGame.read(path)
    names = ", ".join(s.name for s in saves[:5]) + (", ..." if len(saves) > 5 else "")
    raise SaveError(f"no saved game or file {key!r}; " + (f"saved games: {names} (euchre games lists them)"
                                                         if saves else "there are no saved games"))


def in_saves(path: Path | None) -> bool:
    """Whether ``path`` is one of the files of :func:`saves_dir`."""
    return path is not None and path.parent.resolve() == saves_dir().resolve()


def new_save_path() -> Path:
    """A fresh file in :func:`saves_dir`, named by the time."""
    return _unique(saves_dir(), time.strftime(_STAMP))


def human_has_played(game: Game, seat: int) -> bool:
    """Whether ``seat`` has made a move in ``game`` (a game quit at its first prompt has not)."""
    return any(s == seat for h in game.hands for s in h.seats)


def is_continuation(record: notation.GameRecord, game: Game) -> bool:
    """Whether ``game`` is the game of ``record`` played on (or exactly it): the same rules,
    deals and moves as far as the record goes."""
    if record.rules != game.rules or record.first_dealer != game.first_dealer:
        return False
    if tuple(record.initial_scores or (0,) * game.rules.sides) != tuple(game.initial_scores):
        return False
    if len(record.hands) > len(game.hands):
        return False
    for i, h in enumerate(record.hands):
        played = game.hands[i]
        if h.deal != played.deal:
            return False
        moves = list(zip(played.seats, played.history, strict=True))
        last = i == len(record.hands) - 1
        if (moves[:len(h.actions)] if last else moves) != h.actions:
            return False
    return True


def write_save(game: Game, path: Path, *, players: list[str], meta: dict[str, Any]) -> str | None:
    """Save ``game`` (unfinished) to ``path``. If ``path`` holds another game, that game is
    kept first: moved into :func:`saves_dir` if unfinished, copied into :func:`archive_dir` if
    finished. Returns a sentence saying where it went, or ``None`` when nothing was displaced."""
    note = None
    if _has_content(path):
        old = SavedGame.read(path)
        if old.record is None or not is_continuation(old.record, game):
            note = _keep_displaced(old)
    meta = {**meta, "saved": time.strftime("%Y-%m-%d %H:%M:%S")}
    notation.save(game, path, players=players, meta=meta)
    return note


def _keep_displaced(old: SavedGame) -> str:
    if old.game is not None and not old.game.is_over:
        target = new_save_path()
        shutil.copy2(old.path, target)
        return (f"{old.path} held another unfinished game; it is kept as saved game {target.stem} "
                f"(euchre play --resume {target.stem}).")
    stamp = time.strftime(_STAMP, time.localtime(old.saved or time.time()))
    target = _unique(archive_dir(), f"{stamp}-{old.path.stem}", old.path.suffix or ".toml")
    shutil.copy2(old.path, target)
    what = "a finished game" if old.game is not None else "a record that does not replay"
    return f"{old.path} held {what}; a copy is kept in {target}."


def fallback_save(game: Game | Match, *, players: list[str], meta: dict[str, Any]) -> Path:
    """Write ``game`` to a new file in the system's temporary directory: where a game goes when
    the data directory cannot be written (full, read-only, not a directory), so that quitting or
    finishing never loses it. Returns the file; raises :class:`OSError` if that fails too."""
    path = _unique(Path(tempfile.gettempdir()), f"euchre-{time.strftime(_STAMP)}")
    try:
        notation.save(game, path, players=players, meta=meta)
    except OSError:
        path.unlink(missing_ok=True)
        raise
    return path


def archive_game(game: Game | Match, *, players: list[str], meta: dict[str, Any]) -> Path:
    """Write a finished game (or a finished match, as one match record) into :func:`archive_dir`
    under a new name; returns the file."""
    stamp = time.strftime(_STAMP)
    path = _unique(archive_dir(), f"{stamp}-match" if isinstance(game, Match) else stamp)
    notation.save(game, path, players=players, meta=meta)
    return path
