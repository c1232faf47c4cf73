"""The terminal game driven by a scripted player and a recording console."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

import pytest
from rich.console import Console

from euchre import Game, Rules
from euchre.actions import PASS
from euchre.bots import Bot, make_bot
from euchre.cards import JOKER, Card
from euchre.state import Phase
from euchre.tui import card_text, default_names, play_terminal, render_view


def console() -> Console:
    return Console(file=io.StringIO(), width=120, record=True, color_system=None)


def bots_for(game: Game, human: int | None, kind: str = "heuristic") -> dict[int, Bot]:
    return {s: make_bot(kind, seed=s) for s in range(game.rules.players) if s != human}


def scripted(lines: Iterable[str], then: Callable[[], str] = lambda: "1") -> Callable[[str], str]:
    """An input function that types ``lines`` and then answers with ``then()``."""
    queue = list(lines)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        return queue.pop(0) if queue else then()

    return input_fn


def test_whole_game_with_bad_inputs() -> None:
    game = Game(Rules(), seed=11, dealer=3)  # seat 0 speaks first
    con = console()
    saved: list[Game] = []
    status = play_terminal(game, 0, bots_for(game, 0), con, scripted(["xyz", "", "9", "Jh", "help", "show"]),
                           save_fn=saved.append)
    out = con.export_text()
    assert status == "finished" and game.is_over and not saved
    assert "Not possible: not an action: 'xyz'" in out
    assert "No choice 9: choose 1-3." in out
    assert "Not possible: no card is played now" in out  # a card typed during the bidding
    assert "Commands:" in out and "quit" in out
    assert "Choices: 1) pass  2) order  3) order alone" in out
    assert "Up card: " in out and "Score: You & North" in out and "Bidding: " in out
    assert "Your hand: " in out and "Trick 1" in out and "Tricks: You & North" in out
    assert "Hand over: " in out and "Game over" in out and "win the game!" in out
    final = f"Score: You & North {game.scores[0]}  ·  West & East {game.scores[1]}"
    assert final in out.split("Game over")[-1]


def test_illegal_card_is_refused_with_the_reason() -> None:
    game = Game(Rules(), seed=3)
    con = console()
    tried: list[str] = []

    def then() -> str:
        view = game.view(0)
        if view.phase is Phase.PLAY and not tried:
            legal = {a.card for a in view.legal_actions}
            wrong = [c for c in view.hand if c not in legal]
            if wrong:
                tried.append(str(wrong[0]))
                return str(wrong[0])
        return "1"

    play_terminal(game, 0, bots_for(game, 0), con, scripted([], then))
    out = con.export_text()
    assert tried, "the scripted player never had to follow suit"
    assert "Not possible: you must follow" in out


def test_typed_choices_card_and_words() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    con = console()

    def then() -> str:
        view = game.view(0)
        if view.phase is Phase.PLAY:
            return str(view.legal_actions[0].card)  # a bare card: "Jh"
        return "pass" if PASS in view.legal_actions else "1"

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted([], then)) == "finished"
    first = game.hands[0]
    assert first.history[0] == PASS and first.seats[0] == 0
    assert any(s == 0 and a.card is not None for h in game.hands for s, a in zip(h.seats, h.history, strict=True))


@pytest.mark.parametrize("stop", ["quit", KeyboardInterrupt, EOFError])
def test_quit_saves_and_stops(stop: str | type[BaseException]) -> None:
    game = Game(Rules(), seed=5, dealer=3)
    con = console()
    saved: list[Game] = []
    answers = iter(["1", "1"])

    def input_fn(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            if isinstance(stop, str):
                return stop
            raise stop() from None

    status = play_terminal(game, 0, bots_for(game, 0), con, input_fn, save_fn=saved.append)
    assert status == "quit"
    assert saved == [game] and not game.is_over
    assert "Game saved" in con.export_text()


def test_failed_save_is_reported() -> None:
    game = Game(Rules(), seed=5, dealer=3)
    con = console()

    def broken(_: Game) -> None:
        raise OSError("disk full")

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted(["quit"]), save_fn=broken) == "quit"
    assert "Could not save the game: disk full" in con.export_text()


def test_bot_moves_are_printed_and_discards_stay_hidden() -> None:
    game = Game(Rules(), seed=2)
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted([]))
    out = con.export_text()
    assert "West: pass" in out or "West: order" in out
    assert "West: play " in out
    # Another seat's discard is never shown (rules section 9); the human's own is.
    for line in out.splitlines():
        if line.startswith(("West:", "North:", "East:")) and "discard" in line:
            assert line.endswith("discards a card face down")


@pytest.mark.parametrize("preset", ["two-handed", "cut-throat", "british", "long"])
def test_every_table_size_plays_to_the_end(preset: str) -> None:
    game = Game(Rules.preset(preset), seed=8)
    con = console()
    assert play_terminal(game, 0, bots_for(game, 0, "random"), con, scripted([])) == "finished"
    out = con.export_text()
    assert "Game over" in out
    names = default_names(game.rules.players, 0)
    assert all(n in out for n in names)


def test_watch_bots_only() -> None:
    game = Game(Rules.preset("american", target=5), seed=1)
    con = console()
    assert play_terminal(game, None, bots_for(game, None), con) == "finished"
    out = con.export_text()
    assert "Your hand" not in out and "Game over" in out


def test_missing_bot_or_bad_seat_is_refused() -> None:
    game = Game(Rules(), seed=1)
    with pytest.raises(ValueError, match="no bot for seat"):
        play_terminal(game, 0, {1: make_bot("random")}, console())
    with pytest.raises(ValueError, match="human_seat"):
        play_terminal(game, 7, {}, console())


def test_names_and_rendering() -> None:
    assert default_names(4, 2) == ["North", "East", "You", "West"]
    assert default_names(3) == ["South", "West", "East"]
    game = Game(Rules(), seed=4, dealer=0)
    view = game.view(1)
    con = console()
    con.print(render_view(view, ["Ann", "Bob", "Cy", "Di"]))
    out = con.export_text()
    assert "Ann deals" in out and "Bob" in out and "Choices: 1) pass" in out
    assert str(view.up_card.symbol()) in out


def test_cards_are_coloured_by_suit() -> None:
    assert "red" in str(card_text(Card.parse("Jh")).style)
    assert "red" in str(card_text(Card.parse("9d")).style)
    assert "blue" in str(card_text(Card.parse("As")).style)
    assert "blue" in str(card_text(Card.parse("Tc")).style)
    assert "magenta" in str(card_text(JOKER).style)
    # The left bower is underlined as a trump once hearts are trump.
    assert "underline" in str(card_text(Card.parse("Jd"), 2).style)
    assert card_text(Card.parse("Tc")).plain == "10♣"


def test_error_messages_show_cards_as_the_table_does() -> None:
    from euchre.tui import _with_card_symbols

    text = _with_card_symbols("you must follow hearts: you hold Ah, Th").plain
    assert text == "you must follow hearts: you hold A♥, 10♥"
    assert _with_card_symbols("the Joker Jk; not a card: Xz").plain == "the Joker JK; not a card: Xz"
