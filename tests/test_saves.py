"""Saved games on disk (euchre.saves): names never collide, another game is never overwritten,
the single save of earlier versions is kept, and a save is found by name, number or path."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from euchre import Game, Rules, notation, saves

NAMES = ["You", "West", "North", "East"]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EUCHRE_HOME", str(tmp_path))
    return tmp_path


def played(seed: int, moves: int) -> Game:
    game = Game(Rules(), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.push(rng.choice(game.legal_actions()))
    return game


def finish(game: Game, seed: int = 0) -> Game:
    """Play ``game`` to its end at random (always the first choice would pass for ever)."""
    rng = random.Random(seed)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    return game


def save_new(game: Game) -> Path:
    path = saves.new_save_path()
    assert saves.write_save(game, path, players=NAMES, meta={"human_seat": 0, "level": "hard"}) is None
    return path


def test_data_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert saves.data_dir() == tmp_path and saves.saves_dir() == tmp_path / "saves"
    monkeypatch.delenv("EUCHRE_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert saves.archive_dir() == tmp_path / "xdg" / "euchre" / "games"


def test_names_taken_in_the_same_second_differ() -> None:
    paths = [saves.new_save_path() for _ in range(3)]
    assert len(set(paths)) == 3 and paths[1].stem == paths[0].stem + "-2"
    assert saves.list_saves() == []  # names taken but not yet written are not saved games
    game = finish(played(1, 30))
    archived = [saves.archive_game(game, players=NAMES, meta={}) for _ in range(2)]
    assert archived[0] != archived[1] and all(notation.load(p).replay().is_over for p in archived)


def test_saves_are_listed_newest_first_with_what_they_hold(home: Path) -> None:
    import os

    old, new = save_new(played(1, 12)), save_new(played(2, 3))
    os.utime(old, (1_000_000_000, 1_000_000_000))
    (home / "saves" / "broken.toml").write_text("not = [a record")
    listed = saves.list_saves()
    assert [s.path for s in listed] == [home / "saves" / "broken.toml", new, old]
    assert listed[0].game is None and listed[0].error and "not valid TOML" in listed[0].error
    assert listed[1].game is not None and listed[1].meta["level"] == "hard" and "saved" in listed[1].meta
    assert listed[2].saved == 1_000_000_000


def test_find_by_name_number_or_path(tmp_path: Path) -> None:
    first, second = save_new(played(1, 5)), save_new(played(2, 5))
    listed = saves.list_saves()
    assert saves.find_save(first.stem).path == first and saves.find_save(first.name).path == first
    assert saves.find_save("1").path == listed[0].path and saves.find_save("2").path == listed[1].path
    elsewhere = tmp_path / "elsewhere.toml"
    notation.save(played(3, 5), elsewhere)
    assert saves.find_save(str(elsewhere)).path == elsewhere
    with pytest.raises(saves.SaveError, match="numbered 1 to 2"):
        saves.find_save("3")
    with pytest.raises(saves.SaveError, match=f"no saved game or file 'nope'; saved games: .*{second.stem}"):
        saves.find_save("nope")


def test_a_continuation_overwrites_but_another_game_is_kept(home: Path, tmp_path: Path) -> None:
    game = played(4, 6)
    mine = tmp_path / "mine.toml"
    saves.write_save(game, mine, players=NAMES, meta={})
    game.push(game.legal_actions()[0])
    assert saves.write_save(game, mine, players=NAMES, meta={}) is None  # the same game, played on
    assert saves.list_saves() == []

    other = played(5, 2)
    note = saves.write_save(other, mine, players=NAMES, meta={})
    [kept] = saves.list_saves()
    assert note and f"kept as saved game {kept.name}" in note
    assert kept.game is not None and kept.game.actions() == game.actions()
    assert notation.load(mine).replay().actions() == other.actions()

    finished = finish(played(6, 0))
    notation.save(finished, mine)
    note = saves.write_save(other, mine, players=NAMES, meta={})
    [copy] = (home / "games").glob("*.toml")
    assert note and f"a copy is kept in {copy}" in note and notation.load(copy).replay().is_over


def test_is_continuation() -> None:
    game = played(7, 10)
    record = notation.GameRecord.from_game(game)
    assert saves.is_continuation(record, game)
    longer = game.copy()
    rng = random.Random(1)
    for _ in range(15):
        longer.push(rng.choice(longer.legal_actions()))
    assert saves.is_continuation(record, longer) and not saves.is_continuation(
        notation.GameRecord.from_game(longer), game)
    assert not saves.is_continuation(record, played(8, 10))
    moves = game.actions()
    replay = Game(Rules(), seed=7)
    forks = []
    for j, a in enumerate(moves):
        if len(replay.legal_actions()) > 1:
            forks.append(j)
        replay.push(a)
    fork = forks[-1]  # the last move that had another choice
    other_move = Game(Rules(), seed=7)
    for a in moves[:fork]:
        other_move.push(a)
    other_move.push(next(a for a in other_move.legal_actions() if a != moves[fork]))
    assert not saves.is_continuation(record, other_move)


def test_the_save_of_earlier_versions_moves_into_the_saves(home: Path) -> None:
    notation.save(played(9, 4), home / saves.LEGACY_NAME)
    [entry] = saves.list_saves()
    assert entry.path.parent == home / "saves" and not (home / saves.LEGACY_NAME).exists()


def test_human_has_played() -> None:
    game = Game(Rules(), seed=1, dealer=3)  # seat 0 speaks first
    assert not saves.human_has_played(game, 0)
    game.push("pass")
    assert saves.human_has_played(game, 0) and not saves.human_has_played(game, 1)
