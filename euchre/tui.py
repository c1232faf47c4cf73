"""The terminal game: a human plays against bots in a ``rich`` console.

This is a thin shell in the sense of the style guide: it renders the human's
:class:`~euchre.view.PlayerView`, turns what the human types into an action with the engine's own
parser (``State.parse_action``), pushes it, and prints what the bots do. It holds no rule logic:
legality, trump, who won a trick and the score all come from the engine, so the terminal can
never disagree with the rules. Output and input are injectable (``console``, ``input_fn``), so
the whole loop runs in tests with a scripted player and a recording console.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from euchre.actions import Action, Kind
from euchre.bots.base import Bot
from euchre.cards import Card, Suit, effective_suit
from euchre.describe import action_words
from euchre.errors import IllegalActionError, InvalidActionError
from euchre.game import Game
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["play_terminal", "render_view", "card_text", "default_names", "HELP", "Status"]

Status = Literal["finished", "quit"]
"""What :func:`play_terminal` returns: the game ended, or the human stopped (and it was saved)."""

COMPASS = {4: ("South", "West", "North", "East"), 3: ("South", "West", "East"), 2: ("South", "North")}
"""Seat names around the table, starting from the human's seat and going clockwise."""

SUIT_STYLES = {Suit.HEARTS: "bold red", Suit.DIAMONDS: "bold red", Suit.CLUBS: "bold blue",
               Suit.SPADES: "bold blue"}
JOKER_STYLE = "bold magenta"

HELP = """\
Commands:
  1, 2, ...       take the numbered choice
  Jh, 10h, Th     play (or, as the dealer, discard) that card; Jk is the Joker
  pass / p        pass;  order, order alone, take, defend alone
  call h, h       name hearts as trump (c d h s);  call h alone, h alone
  show            show the table again
  hint            each choice with the points the strongest bot expects from it
  help, ?         this help
  quit            save the game and stop (Ctrl-C or Ctrl-D does the same)"""

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q", "stop"})
HELP_WORDS = frozenset({"help", "?", "commands"})
SHOW_WORDS = frozenset({"show", "table", "look", "board"})
HINT_WORDS = frozenset({"hint", "hints", "advice"})

HintFn = Callable[[PlayerView], Sequence[Any]]
"""Evaluates a view: items with ``action`` and ``points`` (expected points), best first, as
:meth:`euchre.bots.search.SearchBot.evaluate` returns them."""


def default_names(players: int, human_seat: int | None = None) -> list[str]:
    """A name per seat: compass points, clockwise from the human (``You``) at the bottom."""
    compass = COMPASS[players]
    base = 0 if human_seat is None else human_seat
    names = [compass[(seat - base) % players] for seat in range(players)]
    if human_seat is not None:
        names[human_seat] = "You"
    return names


def card_text(card: Card, trump: int | None = None) -> Text:
    """A card coloured by suit (red, blue, the Joker magenta); trumps are underlined."""
    style = JOKER_STYLE if card.is_joker else SUIT_STYLES[card.suit]  # type: ignore[index]
    if trump is not None and effective_suit(card, trump) == trump:
        style += " underline"
    return Text(card.symbol(), style=style)


_CARD_TOKEN = re.compile(r"\b(?:[789TJQKA][cdhs]|Jk)\b")


def _with_card_symbols(message: str) -> Text:
    """An engine message with its card codes (``Ah``, ``Tc``) shown as the table shows cards."""
    out = Text()
    pos = 0
    for m in _CARD_TOKEN.finditer(message):
        out += Text(message[pos:m.start()]) + card_text(Card.parse(m.group()))
        pos = m.end()
    return out + Text(message[pos:])


def _suit_text(suit: int) -> Text:
    s = Suit(suit)
    return Text(f"{s.symbol} {s.word}", style=SUIT_STYLES[s])


def _action_text(action: Action, trump: int | None) -> Text:
    """An action for the choice list: cards as coloured cards, bids in words."""
    if action.card is not None:
        prefix = "discard " if action.kind is Kind.DISCARD else ""
        return Text(prefix) + card_text(action.card, trump)
    if action.suit is not None:
        text = Text("call ") + _suit_text(action.suit)
        return text + Text(" alone") if action.alone else text
    return Text(str(action))


def _verb(subject: str, verb: str) -> str:
    """``wins`` for one player, ``win`` for ``You`` or a partnership (``You & North``)."""
    return verb[:-1] if subject == "You" or " & " in subject else verb


def _ordered_choices(view: PlayerView) -> list[Action]:
    """The legal actions in the order they are shown: cards in hand order, bids as they come."""
    position = {card: i for i, card in enumerate(view.hand)}
    return sorted(view.legal_actions, key=lambda a: position.get(a.card, -1) if a.card is not None else -1)


def _side_names(view: PlayerView, names: Sequence[str]) -> list[str]:
    sides = view.rules.sides
    return [" & ".join(names[s] for s in range(view.players) if view.side_of(s) == side) for side in range(sides)]


def _score_line(view: PlayerView, names: Sequence[str]) -> Text:
    parts = [f"{n} {p}" for n, p in zip(_side_names(view, names), view.scores, strict=True)]
    return Text("Score: ", style="bold") + Text("  ·  ".join(parts)) + Text(f"   ({view.rules.ending_text()})",
                                                                             style="dim")


def _up_card_line(view: PlayerView) -> Text:
    line = Text("Up card: ", style="bold") + card_text(view.up_card)
    if view.up_card_taken:
        line += Text("  (taken by the dealer)", style="dim")
    elif view.phase is Phase.BID2 or any(a.kind in (Kind.CALL, Kind.CALL_ALONE) for _, a in view.bids()):
        line += Text("  (turned down)", style="dim")
    elif view.trump is not None:
        line += Text("  (left in the stock)", style="dim")
    return line


def _trump_line(view: PlayerView, names: Sequence[str]) -> Text:
    if view.trump is None:
        return Text("Trump: ", style="bold") + Text("not yet made", style="dim")
    line = Text("Trump: ", style="bold") + _suit_text(view.trump)
    how = f"  made by {names[view.maker]}" + (", alone" if view.alone else "")
    if view.lone_defender >= 0:
        how += f"; {names[view.lone_defender]} defends alone"
    return line + Text(how)


def _bids_line(view: PlayerView, names: Sequence[str]) -> Text:
    bids = view.bids()
    line = Text("Bidding: ", style="bold")
    if not bids:
        return line + Text("nobody has spoken yet", style="dim")
    return line + Text(" · ".join(f"{names[s]} {a}" for s, a in bids))


def _trick_line(view: PlayerView, names: Sequence[str]) -> Text:
    line = Text(f"Trick {len(view.tricks) + 1}: ", style="bold")
    if not view.trick:
        leader = names[view.to_act] if view.to_act >= 0 else "?"
        return line + Text(f"{leader} to lead", style="dim")
    for i, (seat, card) in enumerate(view.trick):
        if i:
            line += Text(" · ")
        line += Text(f"{names[seat]} ") + card_text(card, view.trump)
    return line


def _seat_table(view: PlayerView, names: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold dim")
    for column in ("seat", "player", "role", "tricks", "this trick"):
        table.add_column(column)
    played = dict(view.trick)
    for seat in range(view.players):
        roles = []
        if seat == view.dealer:
            roles.append("dealer")
        if seat == view.maker:
            roles.append("maker, alone" if view.alone else "maker")
        if seat == view.lone_defender:
            roles.append("defends alone")
        if seat in view.sitting_out:
            roles.append("sits out")
        if seat == view.to_act:
            roles.append("to act")
        who = Text(names[seat], style="bold green" if seat == view.seat else "")
        card = card_text(played[seat], view.trump) if seat in played else Text("")
        table.add_row(str(seat), who, ", ".join(roles), str(view.tricks_won[seat]), card)
    return table


def _tricks_line(view: PlayerView, names: Sequence[str]) -> Text:
    won = [0] * view.rules.sides
    for seat, n in enumerate(view.tricks_won):
        won[view.side_of(seat)] += n
    parts = [f"{n} {w}" for n, w in zip(_side_names(view, names), won, strict=True)]
    return Text("Tricks: ", style="bold") + Text("  ·  ".join(parts))


def _hand_line(view: PlayerView) -> Text:
    line = Text("Your hand: ", style="bold")
    for i, card in enumerate(view.hand):
        if i:
            line += Text(" ")
        line += card_text(card, view.trump)
    return line


def _choices_line(view: PlayerView) -> Text:
    line = Text("Choices: ", style="bold")
    for i, action in enumerate(_ordered_choices(view), 1):
        if i > 1:
            line += Text("  ")
        if view.seat == view.dealer and action.kind in (Kind.ORDER, Kind.ORDER_ALONE):
            label = Text("pick up" + (" alone" if action.alone else ""))  # the dealer's word for ordering
        else:
            label = _action_text(action, view.trump)
        line += Text(f"{i}) ", style="bold yellow") + label
    return line


def render_view(view: PlayerView, names: Sequence[str]) -> Panel:
    """The table as one seat sees it: seats, dealer, score, up card, bidding, trick, tricks won,
    the seat's own hand and, on its turn, the numbered legal choices."""
    parts: list[Text | Table] = [
        _score_line(view, names),
        _seat_table(view, names),
        _up_card_line(view),
        _trump_line(view, names),
        _bids_line(view, names),
    ]
    if view.phase is Phase.PLAY or view.tricks:
        parts += [_trick_line(view, names), _tricks_line(view, names)]
    if view.seat is not None:
        parts.append(_hand_line(view))
        if view.discard is not None:
            parts.append(Text("You buried: ", style="dim") + card_text(view.discard, view.trump))
    if view.legal_actions:
        parts.append(_choices_line(view))
    dealer = names[view.dealer]
    title = f"Hand {view.hand_number + 1} · {dealer} {_verb(dealer, 'deals')}"
    return Panel(Group(*parts), title=title, title_align="left")


def _move_text(seat: int, action: Action, viewer: int | None, names: Sequence[str], trump: int | None) -> Text:
    """What the table sees of a move; another seat's discard stays face down (rules section 9)."""
    line = Text(f"{names[seat]}: ", style="bold")
    if action.kind is Kind.DISCARD and seat != viewer:
        return line + Text("discards a card face down")
    if action.kind is Kind.PLAY and action.card is not None:
        return line + Text("play ") + card_text(action.card, trump) + Text(f"  ({action.card})", style="dim")
    return line + _action_text(action, trump)


def _hand_result(view: PlayerView, names: Sequence[str]) -> Text:
    if view.maker < 0:
        return Text("Everyone passed: the hand is thrown in and the deal passes on.", style="bold")
    sides = _side_names(view, names)
    maker_side = view.side_of(view.maker)
    won = [0] * view.rules.sides
    for seat, n in enumerate(view.tricks_won):
        won[view.side_of(seat)] += n
    taken = won[maker_side]
    assert view.trump is not None and view.points is not None
    verdict = "march!" if taken == 5 else "made it" if taken >= 3 else "euchred!"
    line = Text(f"Hand over: {names[view.maker]} made ", style="bold") + _suit_text(view.trump)
    line += Text((" alone" if view.alone else "") + f", {sides[maker_side]} took {taken} trick(s): {verdict}  ")
    gains = [f"{sides[s]} +{p}" for s, p in enumerate(view.points) if p]
    line += Text(", ".join(gains) or "no points", style="bold yellow")
    return line


def play_terminal(
    game: Game,
    human_seat: int | None,
    bots: Mapping[int, Bot],
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
    save_fn: Callable[[Game], object] | None = None,
    names: Sequence[str] | None = None,
    *,
    delay: float = 0.0,
    hint_fn: HintFn | None = None,
) -> Status:
    """Play ``game`` to its end in the terminal, the human at ``human_seat`` (``None`` to watch
    bots play) and a bot at every other seat.

    Returns ``"finished"`` when the game is over, ``"quit"`` when the human typed ``quit`` or
    pressed Ctrl-C / Ctrl-D; then ``save_fn(game)`` is called first so the game can be resumed.
    ``delay`` pauses (seconds) after each bot move so a human can follow the play. With
    ``hint_fn``, typing ``hint`` lists the human's choices with their expected points.
    """
    console = console or Console()
    n = game.rules.players
    if human_seat is not None and not 0 <= human_seat < n:
        raise ValueError(f"human_seat must be 0..{n - 1} or None, got {human_seat}")
    missing = [s for s in range(n) if s != human_seat and s not in bots]
    if missing:
        raise ValueError(f"no bot for seat(s) {', '.join(map(str, missing))}")
    seat_names = list(names) if names is not None else default_names(n, human_seat)
    if len(seat_names) != n:
        raise ValueError(f"need {n} names, got {len(seat_names)}")
    for seat, bot in bots.items():
        if seat != human_seat:
            bot.reset()

    def view_of(seat: int | None, hand: int = -1) -> PlayerView:
        return PlayerView.of(game.hands[hand], seat, game=game)

    def stop() -> Status:
        if save_fn is not None:
            try:
                where = save_fn(game)
            except Exception as exc:  # the human must hear that the save failed, not a traceback
                console.print(f"[bold red]Could not save the game:[/] {exc}")
            else:
                place = f" in {where}" if where else ""
                console.print(f"Game saved{place}; [bold]euchre play --resume[/] continues it. Goodbye!")
        else:
            console.print("Goodbye!")
        return "quit"

    shown_hand = -1
    try:
        while not game.is_over:
            idx = game.hand_number
            if idx != shown_hand:
                shown_hand = idx
                start = view_of(human_seat)
                console.rule(f"Hand {idx + 1}")
                dealer = seat_names[start.dealer]
                console.print(Text(f"{dealer} {_verb(dealer, 'deals')}. ") + _up_card_line(start))
            seat = game.to_act
            tricks_before = len(game.state.tricks)
            trump_before = game.state.trump
            if seat == human_seat:
                action = _ask_human(game, seat, seat_names, console, input_fn, hint_fn)
                if action is None:
                    return stop()
            else:
                action = bots[seat].choose(view_of(seat))
                try:
                    game.push(action)
                except (InvalidActionError, IllegalActionError) as exc:
                    raise RuntimeError(f"the bot at seat {seat} ({seat_names[seat]}) chose {action}: {exc}") from exc
            after = view_of(human_seat, idx)
            console.print(_move_text(seat, action, human_seat, seat_names, after.trump))
            if trump_before is None and after.trump is not None:
                console.print(Text("Trump is ") + _suit_text(after.trump)
                              + Text(f", made by {seat_names[after.maker]}" + (" alone" if after.alone else "")))
            if len(after.tricks) > tricks_before:
                trick = after.tricks[-1]
                won = next(c for s, c in trick.plays if s == trick.winner)
                winner_name = seat_names[trick.winner]
                console.print(Text(f"{winner_name} {_verb(winner_name, 'wins')} trick {len(after.tricks)} with ")
                              + card_text(won, after.trump))
            if after.phase is Phase.OVER:
                console.print(_hand_result(after, seat_names))
                console.print(_score_line(after, seat_names))
            if seat != human_seat and delay > 0:
                time.sleep(delay)
    except (KeyboardInterrupt, EOFError):
        return stop()

    final = view_of(human_seat)
    sides = _side_names(final, seat_names)
    console.rule("Game over")
    console.print(_score_line(final, seat_names))
    if game.winner is not None:
        who = sides[game.winner]
        console.print(Text(f"{who} {_verb(who, 'wins')} the game!", style="bold green"))
    else:
        console.print(Text("Shared win: " + ", ".join(sides[s] for s in game.winners), style="bold green"))
    return "finished"


def hint_text(view: PlayerView, evaluations: Sequence[Any]) -> Text:
    """The hint: every choice in words with its expected points for the human's side this hand,
    best first ("lead the right bower: +0.80 expected points"), with the estimate's uncertainty
    when it has one (a :class:`~euchre.hints.Hint`): choices the search cannot tell from the best
    say so instead of looking worse."""
    out = Text("Hint (the strongest bot's estimate of the points your side can expect this hand):\n",
               style="bold")
    evaluations = sorted(evaluations, key=lambda e: -e.points)
    for i, e in enumerate(evaluations):
        words = action_words(e.action, view)
        style = "bold green" if i == 0 else ""
        err = getattr(e, "stderr", 0.0)
        spread = f" \u00b1 {2 * err:.2f}" if err > 0 else ""
        out += Text(f"  {words}: {e.points:+.2f}{spread} expected points", style=style)
        if i > 0 and getattr(e, "about_even", False):
            out += Text(" (about even with the best)", style="green")
        if i + 1 < len(evaluations):
            out += Text("\n")
    return out


def _ask_human(
    game: Game, seat: int, names: Sequence[str], console: Console, input_fn: Callable[[str], str],
    hint_fn: HintFn | None = None,
) -> Action | None:
    """Show the human's view and read until a legal action is pushed; ``None`` means quit."""
    view = game.view(seat)
    console.print(render_view(view, names))
    legal = _ordered_choices(view)
    while True:
        try:
            text = input_fn(f"{names[seat]}> ")
        except (KeyboardInterrupt, EOFError):
            return None
        word = text.strip().lower()
        if not word:
            console.print(f"Type a number 1-{len(legal)}, a card like Jh, or help.")
            continue
        if word in QUIT_WORDS:
            return None
        if word in HELP_WORDS:
            console.print(HELP)
            continue
        if word in SHOW_WORDS:
            console.print(render_view(view, names))
            continue
        if word in HINT_WORDS:
            if hint_fn is None:
                console.print("Hints are off in this game (euchre play without --no-hints turns them on).")
            elif len(view.legal_actions) == 1:
                console.print(f"Only one choice: {action_words(view.legal_actions[0], view)}.")
            else:
                with console.status("Thinking..."):
                    evaluations = hint_fn(view)
                console.print(hint_text(view, evaluations))
            continue
        try:
            if word.isdigit():
                number = int(word)
                if not 1 <= number <= len(legal):
                    console.print(f"[red]No choice {number}:[/] choose 1-{len(legal)}.")
                    continue
                action = legal[number - 1]
            else:
                action = game.state.parse_action(word)
            game.push(action)
        except (InvalidActionError, IllegalActionError) as exc:
            console.print(Text("Not possible: ", style="bold red") + _with_card_symbols(str(exc)))
            continue
        return action
