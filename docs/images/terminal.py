"""Makes ``docs/images/terminal.svg``, the README's picture of the terminal game: a seeded game
against the hard computer players, played by a scripted person into the second trick, recorded by
rich and saved as SVG.

    python docs/images/terminal.py
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from euchre import Game, Rules
from euchre.bots import make_bot
from euchre.tui import default_names, play_terminal


def main() -> None:
    game = Game(Rules(), seed=7)
    console = Console(record=True, file=io.StringIO(), width=92, force_terminal=True, color_system="truecolor")
    answers = iter(["2", "last", "quit"])
    bots = {s: make_bot("heuristic", seed=s) for s in range(1, 4)}
    play_terminal(game, 0, bots, console, lambda prompt: next(answers, "quit"), names=default_names(4, 0))
    out = Path(__file__).with_name("terminal.svg")
    out.write_text(console.export_svg(title="euchre play"), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
