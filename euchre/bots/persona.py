"""Names for computer players: a table of three "Hard bot"s reads like a test fixture, so each
level has a small cast of first names (the level stays visible beside the name wherever a table
is shown). The names of one level are distinct from every other level's, so a name on the
statistics page tells its level too; within a table no two seats share a name, nor take the name
of a person sitting there."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

__all__ = ["CAST", "computer_names"]

CAST: dict[str, tuple[str, ...]] = {
    "easy": ("Penny", "Milo", "Daisy", "Otto", "Rosie", "Finn"),
    "medium": ("Ruth", "Walt", "June", "Hank", "Iris", "Gus"),
    "hard": ("Marge", "Earl", "Vera", "Clyde", "Nell", "Abe"),
    "expert": ("Helen", "Lloyd", "Doris", "Vern", "Edith", "Merle"),
}
"""The first names of each level's computer players (any other bot kind uses the hard cast)."""


def computer_names(level: str, seats: Sequence[int], *, seed: int | None = None,
                   taken: Iterable[str] = ()) -> dict[int, str]:
    """A name for each seat in ``seats``, drawn from ``level``'s cast, skipping names in ``taken``
    (case-blind). With ``seed`` the draw repeats (the terminal names a seeded game the same way
    each time); without, it is fresh (a server's table must not tie its names to its secret deal
    seed; they are stored with the seats)."""
    cast = list(CAST.get(level, CAST["hard"]))
    rng = random.Random(f"names:{level}:{seed}") if seed is not None else random.SystemRandom()
    rng.shuffle(cast)
    busy = {t.strip().lower() for t in taken}
    free = [n for n in cast if n.lower() not in busy]
    out = {}
    for i, seat in enumerate(seats):
        out[seat] = free[i] if i < len(free) else f"{cast[i % len(cast)]} {seat + 1}"
    return out
