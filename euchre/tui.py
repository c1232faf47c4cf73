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

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from euchre.actions import Action, Kind
from euchre.bots.base import Bot
from euchre.cards import Card, Suit, effective_suit, trump_suit, trump_word
from euchre.describe import (
    Part,
    action_parts,
    action_words,
    gift_parts,
    hand_result_parts,
    high_bid_words,
    missing_choice_parts,
    move_parts,
    object_form,
    side_words,
)
from euchre.errors import IllegalActionError, InvalidActionError, RulesError
from euchre.game import Game
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["play_terminal", "render_view", "card_text", "default_names", "HELP", "Status"]

Status = Literal["finished", "quit"]
"""What :func:`play_terminal` returns: the game ended, or the human stopped (and it was saved)."""

COMPASS = {4: ("South", "West", "North", "East"), 3: ("South", "West", "East"), 2: ("South", "North"),
           5: ("South", "West", "Northwest", "Northeast", "East"),
           6: ("South", "Southwest", "Northwest", "North", "Northeast", "Southeast"),
           7: ("South", "Southwest", "West", "Northwest", "Northeast", "East", "Southeast")}
"""Seat names around the table, starting from the human's seat and going clockwise."""

SUIT_STYLES = {Suit.HEARTS: "bold red", Suit.DIAMONDS: "bold red", Suit.CLUBS: "bold blue",
               Suit.SPADES: "bold blue"}
FOUR_COLOUR_STYLES = {Suit.HEARTS: "bold red", Suit.DIAMONDS: "bold bright_blue", Suit.CLUBS: "bold green",
                      Suit.SPADES: "bold white"}
"""The four-colour deck (a setting): no two suits look alike."""
JOKER_STYLE = "bold magenta"
_STYLES = [SUIT_STYLES]
"""The suit colours in use (:func:`play_terminal` switches to the four-colour deck for a game)."""

HELP = """\
Commands:
  1, 2, ...       take the numbered choice
  Jh, 10h, Th     play (or, as the dealer, discard) that card; Jk is the Joker
  pass / p        pass;  order, order alone (the dealer: pick up, pick up alone)
  take            (two-handed dealer) take the ordered card;  defend alone
  call h, h       name hearts as trump (c d h s);  call h alone, h alone
  call n, call low  (house rules) no trump, or low;  call n alone, call low alone
  show            show the table again
  last            the last trick: who played what, and who won it
  score           the score hand by hand
  hint            each choice with the points the strongest bot expects from it
  claim           claim the rest of the tricks, when they are surely your side's
  undo            take back your last card (and the computer players' moves after it)
  help, ?         this help
  quit            save the game and stop (Ctrl-C or Ctrl-D does the same)"""

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q", "stop"})
HELP_WORDS = frozenset({"help", "?", "commands"})
SHOW_WORDS = frozenset({"show", "table", "look", "board"})
HINT_WORDS = frozenset({"hint", "hints", "advice"})
LAST_WORDS = frozenset({"last", "last trick"})
SHEET_WORDS = frozenset({"score", "scores", "history", "sheet"})
CLAIM_WORDS = frozenset({"claim", "claim the rest"})
UNDO_WORDS = frozenset({"undo", "take back", "takeback", "back"})
CLAIM: Literal["claim"] = "claim"
UNDO: Literal["undo"] = "undo"

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
    style = JOKER_STYLE if card.is_joker else _STYLES[-1][card.suit]  # type: ignore[index]
    if trump is not None and effective_suit(card, trump) == trump:
        style += " underline"
    return Text(card.symbol(), style=style)


_CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][cdhs]|Jk)\b")


def _with_card_symbols(message: str) -> Text:
    """An engine message with its card codes (``Ah``, ``Tc``) shown as the table shows cards."""
    out = Text()
    pos = 0
    for m in _CARD_TOKEN.finditer(message):
        out += Text(message[pos:m.start()]) + card_text(Card.parse(m.group()))
        pos = m.end()
    return out + Text(message[pos:])


def _suit_text(suit: int) -> Text:
    """A trump index as shown: ``♥ hearts``, or ``no trump`` / ``low`` (a hand without trump)."""
    named = trump_suit(suit)  # (Napoleon's trump suits, without bowers, too)
    if named is None:
        return Text(trump_word(suit), style="bold")
    s = named
    return Text(f"{s.symbol} {s.word}", style=_STYLES[-1][s])


def _parts_text(parts: Sequence[Part], trump: int | None = None) -> Text:
    """A phrase from :mod:`euchre.describe` with its cards and suits shown as the table shows them."""
    out = Text()
    for p in parts:
        if isinstance(p, Suit):
            out += _suit_text(p)
        elif isinstance(p, Card):
            out += card_text(p, trump)
        else:
            out += Text(p)
    return out


def _action_text(action: Action, view: PlayerView) -> Text:
    """An action for the choice list: a card to play as the coloured card, the rest in words
    ("pick up", "order up and go alone", "call ♥ hearts", "discard 9♣")."""
    if action.kind is Kind.PLAY and action.card is not None:
        return card_text(action.card, view.trump)
    return _parts_text(action_parts(action, view), view.trump)


def _typed(action: Action, view: PlayerView) -> str:
    """What to type for an action (each of these parses back to it now): ``pass``, ``order``,
    ``pick up alone`` (the dealer), ``call h``, ``Ah`` (a card to play or to discard)."""
    if action.card is not None:
        return str(action.card)
    if action.kind in (Kind.ORDER, Kind.ORDER_ALONE) and view.seat == view.dealer:
        return "pick up" + (" alone" if action.alone else "")
    return str(action)


def _verb(subject: str, verb: str) -> str:
    """``wins`` for one player, ``win`` for ``You`` or a partnership (``You and North``)."""
    plural = subject.lower() == "you" or " and " in subject or " & " in subject
    return verb[:-1] if plural else verb


class _Flow:
    """A label and items laid out like words in a paragraph: the items fill each line and move
    to the next whole, so an item ("3) order up and go alone", "North calls ♥ hearts") is never
    split across two lines at any width; continuation lines are indented under the first item."""

    def __init__(self, label: Text, items: Sequence[Text], sep: str = "  ") -> None:
        self.label = label
        self.items = list(items)
        self.sep = sep

    def _indent(self, width: int) -> int:
        return self.label.cell_len if self.label.cell_len <= width // 3 else 0

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        indent = self._indent(width)
        line = self.label.copy()
        used = line.cell_len
        empty = True  # no item on this line yet
        for item in self.items:
            w = item.cell_len
            if not empty and used + len(self.sep) + w > width:
                yield line
                line, used, empty = Text(" " * indent), indent, True
            if not empty:
                line.append(self.sep)
                used += len(self.sep)
            line.append_text(item)
            used += w
            empty = False
        yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((i.cell_len for i in self.items), default=0) + self._indent(options.max_width)
        total = self.label.cell_len + sum(i.cell_len for i in self.items) + len(self.sep) * max(len(self.items) - 1, 0)
        return Measurement(max(widest, self.label.cell_len), max(total, widest)).clamp(max_width=options.max_width)


def _ordered_choices(view: PlayerView) -> list[Action]:
    """The legal actions in the order they are shown: cards in hand order, bids as they come."""
    position = {card: i for i, card in enumerate(view.hand)}
    return sorted(view.legal_actions, key=lambda a: position.get(a.card, -1) if a.card is not None else -1)


def _side_names(view: PlayerView, names: Sequence[str]) -> list[str]:
    """Each side's short name for the score lines: ``You & North``."""
    sides = view.rules.sides
    return [" & ".join(names[s] for s in view.rules.seats_of(side)) for side in range(sides)]


def _score_line(view: PlayerView, names: Sequence[str]) -> Text:
    parts = [f"{n} {p}" for n, p in zip(_side_names(view, names), view.scores, strict=True)]
    return Text("Score: ", style="bold") + Text("  ·  ".join(parts)) + Text(f"   ({view.rules.ending_text()})",
                                                                             style="dim")


def _up_card_line(view: PlayerView, names: Sequence[str] | None = None) -> Text:
    if view.up_card is None:  # the auction games (Hasenpfeffer's unused card is never shown)
        line = Text("Bid: ", style="bold")
        if view.bidder < 0:
            return line + Text("none yet" if view.trump is None else "-", style="dim")
        who = names[view.bidder] if names is not None else f"seat {view.bidder}"
        line += Text(f"{high_bid_words(view)}, {who}")
        if view.forced_bid:
            line += Text("  (all passed: the Joker's holder bids 3)", style="dim")
        return line
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
    how = f"  made by {object_form(names[view.maker])}" + (", alone" if view.alone else "")
    if view.lone_defender >= 0:
        defender = names[view.lone_defender]
        how += f"; {defender} {_verb(defender, 'defends')} alone"
    return line + Text(how)


def _bids_line(view: PlayerView, names: Sequence[str]) -> Text | _Flow:
    """The bidding so far in words: "West passes · North orders you to pick up J♥"."""
    label = Text("Bidding: ", style="bold")
    bids = [i for i, (_, a) in enumerate(view.actions) if a is not None and a.is_bid]
    if not bids:
        return label + Text("nobody has spoken yet", style="dim")
    return _Flow(label, [_parts_text(move_parts(view, i, names)) for i in bids], sep=" · ")


def _trick_line(view: PlayerView, names: Sequence[str]) -> Text | _Flow:
    label = Text(f"Trick {len(view.tricks) + 1}: ", style="bold")
    if not view.trick:
        if view.to_act < 0:
            return label
        leader = names[view.to_act]
        return label + Text(f"{leader} to lead", style="dim")
    return _Flow(label, [Text(f"{names[seat]} ") + card_text(card, view.trump) for seat, card in view.trick],
                 sep=" · ")


def _seat_table(view: PlayerView, names: Sequence[str], levels: Mapping[int, str] | None = None) -> Table:
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
        if levels and seat in levels:
            who += Text(f" ({levels[seat]})", style="dim")
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


def _choices_line(view: PlayerView) -> _Flow:
    """The numbered legal choices, laid out so that no choice is split across lines."""
    items = [Text(f"{i}) ", style="bold yellow") + _action_text(action, view)
             for i, action in enumerate(_ordered_choices(view), 1)]
    return _Flow(Text("Choices: ", style="bold"), items)


def _choices_help(view: PlayerView, legal: Sequence[Action], head: str | Text) -> Group:
    """Every legal choice now, numbered, in words and in the form to type ("order alone")."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold yellow", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    for i, action in enumerate(legal, 1):
        words = _parts_text(action_parts(action, view), view.trump)
        table.add_row(str(i), words, Text("type ", style="dim") + Text(_typed(action, view), style="bold"))
    foot = Text("Type the number or the words; help lists every command.", style="dim")
    return Group(Text(head) if isinstance(head, str) else head, Padding(table, (0, 0, 0, 2)), foot)


def render_view(view: PlayerView, names: Sequence[str], levels: Mapping[int, str] | None = None,
                *, can_claim: bool = False, number: int | None = None) -> Panel:
    """The table as one seat sees it: seats (a computer player's level beside its name), dealer,
    score, up card, bidding, trick, tricks won, the seat's own hand and, on its turn, the numbered
    legal choices, why a choice the rules take away is missing, and whether it may claim.
    ``number``: the hand's number as players count it (:meth:`~euchre.game.Game.played_hands_before`
    plus one: a misdeal is not a hand); by default the deal's index plus one."""
    parts: list[Text | Table | _Flow] = [
        _score_line(view, names),
        _seat_table(view, names, levels),
        _up_card_line(view, names),
        _trump_line(view, names),
        _bids_line(view, names),
    ]
    for i in range(len(view.gifts)):  # call for best (house rule), as this seat knows it
        parts.append(Text("Call for best: ", style="bold") + _parts_text(gift_parts(view, i, names), view.trump))
    if view.phase is Phase.CALL_FOR_BEST:
        parts.append(Text("Call for best: a card is being passed to the lone player, who then discards one.",
                          style="dim"))
    if view.phase is Phase.OFFERS:  # house rules ace_no_face / farmers_hand: an offer is pending
        parts.append(Text("Offers: a player may be offered a misdeal or the farmer's hand.", style="dim"))
    if view.farmer >= 0:
        took = f" (you took {' '.join(map(str, view.farmer_took))})" if view.farmer_took else ""
        parts.append(Text(f"Farmer's hand: {names[view.farmer]} held only nines and tens{took}.", style="dim"))
    if view.phase is Phase.PLAY or view.tricks:
        parts += [_trick_line(view, names), _tricks_line(view, names)]
    if view.seat is not None:
        parts.append(_hand_line(view))
        if view.discard is not None:
            parts.append(Text("You buried: ", style="dim") + card_text(view.discard, view.trump))
        for _, receiver, _, buried in view.gifts:
            if receiver == view.seat and buried is not None:
                parts.append(Text("You buried (call for best): ", style="dim") + card_text(buried, view.trump))
    if view.legal_actions:
        parts.append(_choices_line(view))
        for note in missing_choice_parts(view):
            line = Text("  ") + _parts_text(note, view.trump)
            line.stylize("italic")
            parts.append(line)
        if can_claim:
            parts.append(Text("You win every trick still to play, wherever the other cards are: type claim to "
                              "end the hand.", style="bold green"))
    dealer = names[view.dealer]
    title = f"Hand {number or view.hand_number + 1} · {dealer} {_verb(dealer, 'deals')}"
    return Panel(Group(*parts), title=title, title_align="left")


def _move_text(view: PlayerView, index: int, names: Sequence[str]) -> Text:
    """A move as the table reports it, in words ("West passes", "North orders you to pick up J♥",
    "East leads A♣"); another seat's discard stays face down (rules section 9)."""
    _, action = view.actions[index]
    trump = view.trump if action is not None and action.kind in (Kind.PLAY, Kind.DISCARD, Kind.GIVE) else None
    return _parts_text(move_parts(view, index, names), trump)


def _hand_result(view: PlayerView, names: Sequence[str]) -> Text:
    """How the hand ended and who scored: "Hand over: West and East were euchred (♥ hearts, made
    by East; 2 tricks): You and North score 2"."""
    return Text("Hand over: ", style="bold") + _parts_text(hand_result_parts(view, names), view.trump) + Text(".")


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
    farewell: bool = True,
    hand_wait: bool = False,
    hand_pause: float = 0.0,
    levels: Mapping[int, str] | None = None,
    autoplay: bool = False,
    confirm_alone: bool = False,
    four_colour: bool = False,
) -> Status:
    """Play ``game`` to its end in the terminal, the human at ``human_seat`` (``None`` to watch
    bots play) and a bot at every other seat.

    Returns ``"finished"`` when the game is over, ``"quit"`` when the human typed ``quit`` or
    pressed Ctrl-C / Ctrl-D; then ``save_fn(game)`` is called first so the game can be resumed.
    ``delay`` pauses (seconds) after each bot move so a human can follow the play. With
    ``hint_fn``, typing ``hint`` lists the human's choices with their expected points. Without
    ``farewell`` nothing is said on quitting (the caller saves the game and says where). At the
    end of each hand (but the last) the result stays on screen: until the human presses Enter
    with ``hand_wait`` (typing ``quit`` there quits), else for ``hand_pause`` seconds.

    ``levels`` labels the computer players' seats ("hard") in the table. The human may ``claim``
    the rest of the tricks when they are surely their side's, as the computer players do too,
    and ``undo`` their last card (this is a game against computer players only). ``autoplay``
    plays a forced card (the only legal one) without asking; ``confirm_alone`` asks before going
    alone; ``four_colour`` shows the four suits in four colours.
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
        elif farewell:
            console.print("Goodbye!")
        return "quit"

    shown_hand = -1
    _STYLES.append(FOUR_COLOUR_STYLES if four_colour else SUIT_STYLES)
    try:
        while not game.is_over:
            idx = game.hand_number
            if idx != shown_hand:
                shown_hand = idx
                start = view_of(human_seat)
                console.rule(f"Hand {game.played_hands_before() + 1}")
                dealer = seat_names[start.dealer]
                console.print(Text(f"{dealer} {_verb(dealer, 'deals')}. ") + _up_card_line(start, seat_names))
            seat = game.to_act
            tricks_before = len(game.state.tricks)
            trump_before = game.state.trump
            if seat == human_seat:
                forced = _forced_card(game) if autoplay else None
                if forced is not None:
                    game.push(forced)
                    action: Action | Literal["claim", "undo"] | None = forced
                else:
                    action = _ask_human(game, seat, seat_names, console, input_fn, hint_fn, levels,
                                        confirm_alone=confirm_alone)
                if action is None:
                    return stop()
                if action == UNDO:
                    back = game.undo(seat)
                    shown_hand = game.hand_number
                    console.print(_undo_text(back, seat_names, game))
                    continue
            elif game.can_claim():
                action = CLAIM
            else:
                action = bots[seat].choose(view_of(seat))
                try:
                    game.push(action)
                except (InvalidActionError, IllegalActionError) as exc:
                    raise RuntimeError(f"the bot at seat {seat} ({seat_names[seat]}) chose {action}: {exc}") from exc
            if action == CLAIM:
                line = game.claim()
                claimed = view_of(human_seat, idx)
                console.print(_claim_text(claimed, seat, len(line), tricks_before, seat_names))
                console.print(_hand_result(claimed, seat_names))
                console.print(_score_line(claimed, seat_names))
                if not game.is_over and seat != human_seat:
                    if hand_wait and human_seat is not None:
                        if input_fn("Press Enter for the next hand (or type quit) ").strip().lower() in QUIT_WORDS:
                            return stop()
                    elif hand_pause > 0:
                        time.sleep(hand_pause)
                continue
            after = view_of(human_seat, idx)
            console.print(_move_text(after, len(after.actions) - 1, seat_names))
            if trump_before is None and after.trump is not None:
                console.print(Text("Trump is ") + _suit_text(after.trump)
                              + Text(f", made by {object_form(seat_names[after.maker])}"
                                   + (" alone" if after.alone else "")))
            if len(after.tricks) > tricks_before:
                trick = after.tricks[-1]
                won = next(c for s, c in trick.plays if s == trick.winner)
                winner_name = seat_names[trick.winner]
                console.print(Text(f"{winner_name} {_verb(winner_name, 'wins')} trick {len(after.tricks)} with ")
                              + card_text(won, after.trump))
            if after.phase is Phase.OVER:
                console.print(_hand_result(after, seat_names))
                console.print(_score_line(after, seat_names))
                if not game.is_over:
                    if hand_wait and human_seat is not None:
                        if input_fn("Press Enter for the next hand (or type quit) ").strip().lower() in QUIT_WORDS:
                            return stop()
                        continue
                    if hand_pause > 0:
                        time.sleep(hand_pause)
                        continue
            if seat != human_seat and delay > 0:
                time.sleep(delay)
    except (KeyboardInterrupt, EOFError):
        return stop()
    finally:
        _STYLES.pop()

    final = view_of(human_seat)
    console.rule("Game over")
    console.print(_score_line(final, seat_names))
    if game.winner is not None:
        who = side_words(final, game.winner, seat_names)[0]
        console.print(Text(f"{who} {_verb(who, 'wins')} the game!", style="bold green"))
    else:
        shared = [side_words(final, s, seat_names)[0] for s in game.winners]
        console.print(Text("Shared win: " + " and ".join(shared), style="bold green"))
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


def score_sheet(game: Game, seat: int | None, names: Sequence[str]) -> Table | Text:
    """The score hand by hand: who dealt and made each finished hand (trump, alone), each side's
    points and the running score."""
    view = PlayerView.of(game.hands[-1], seat, game=game)
    done = game.score_sheet()
    if not done:
        return Text("No hand has finished yet.")
    table = Table(title="Score by hand", title_style="bold", box=None, pad_edge=False)
    table.add_column("hand", justify="right")
    table.add_column("made by")
    sides = range(game.rules.sides)
    for side in sides:
        table.add_column(side_words(view, side, names)[0], justify="right")
    for i, h, running in done:
        assert h.points is not None
        if h.maker is None or h.trump is None:
            made = Text("thrown in", style="dim")
        else:
            made = Text(f"{names[h.maker]} ") + _suit_text(h.trump) + Text(" alone" if h.alone else "")
        cells = [Text(f"+{p}  {running[s]}" if p > 0 else f"\u2013  {running[s]}", style="bold" if p > 0 else "")
                 for s, p in enumerate(h.points)]
        table.add_row(str(i + 1), made, *cells)
    return table


def last_trick_text(game: Game, seat: int | None, names: Sequence[str]) -> Text:
    """The last trick played, this hand's or else the previous hand's: every card by who played
    it, in order, and who won it ("Last trick (trick 3): West 9♥, North A♥, ... North won it")."""
    for back in range(1, min(2, len(game.hands)) + 1):
        view = PlayerView.of(game.hands[-back], seat, game=game)
        if view.tricks:
            trick = view.tricks[-1]
            when = f"trick {len(view.tricks)}" + ("" if back == 1 else " of the last hand")
            out = Text(f"Last trick ({when}): ", style="bold")
            for i, (who, card) in enumerate(trick.plays):
                out += Text(("" if i == 0 else ", ") + f"{names[who]} ") + card_text(card, view.trump)
            return out + Text(f"; {names[trick.winner]} won it.")
    return Text("No trick has been played yet.")


def _forced_card(game: Game) -> Action | None:
    """The only card the seat to act may play, when it has no other choice in trick play."""
    legal = game.legal_actions()
    if game.state.phase is Phase.PLAY and len(legal) == 1:
        return legal[0]
    return None


def _claim_text(view: PlayerView, seat: int, cards: int, tricks_before: int, names: Sequence[str]) -> Text:
    """A claim and the tricks it played: "West claims the rest of the tricks: trick 4 West A♥,
    ... (West); trick 5 ..."."""
    who = names[seat]
    out = Text(f"{who} {_verb(who, 'claims')} the rest of the tricks ({cards} cards played at once):",
               style="bold")
    for number, trick in enumerate(view.tricks[tricks_before:], tricks_before + 1):
        out += Text(f"\n  trick {number}: ")
        for i, (s, card) in enumerate(trick.plays):
            out += Text(("" if i == 0 else ", ") + f"{names[s]} ") + card_text(card, view.trump)
        out += Text(f"; {names[trick.winner]} {_verb(names[trick.winner], 'wins')} it")
    return out


def _undo_text(back: Sequence[Action], names: Sequence[str], game: Game) -> Text:
    """What a take-back took back: "You take back 9♥ (and 3 moves after it)"."""
    card = back[0].card
    assert card is not None
    after = len(back) - 1
    trump = game.state.trump
    more = f" and the {after} move{'s' if after != 1 else ''} after it" if after else ""
    return Text("You take back ", style="bold") + card_text(card, trump) + Text(f"{more}; it is your turn again.")


def _confirmed(input_fn: Callable[[str], str], console: Console) -> bool:
    """Ask before going alone; anything but yes keeps the human from it."""
    answer = input_fn("Go alone? Your partner sits out this hand. [y/N] ").strip().lower()
    if answer in ("y", "yes"):
        return True
    console.print("Not going alone; choose again.")
    return False


def _ask_human(
    game: Game, seat: int, names: Sequence[str], console: Console, input_fn: Callable[[str], str],
    hint_fn: HintFn | None = None, levels: Mapping[int, str] | None = None, *, confirm_alone: bool = False,
) -> Action | Literal["claim", "undo"] | None:
    """Show the human's view and read until a legal action is pushed; ``None`` means quit,
    :data:`CLAIM` that the human claims the rest (it is possible), :data:`UNDO` that they take
    back their last card (there is one)."""
    view = game.view(seat)
    can_claim = game.can_claim()
    console.print(render_view(view, names, levels, can_claim=can_claim, number=game.played_hands_before() + 1))
    legal = _ordered_choices(view)
    while True:
        try:
            text = input_fn(f"{names[seat]}> ")
        except (KeyboardInterrupt, EOFError):
            return None
        word = text.strip().lower()
        if not word:
            console.print(_choices_help(view, legal, "You may now:"))
            continue
        if word in QUIT_WORDS:
            return None
        if word in HELP_WORDS:
            console.print(HELP)
            continue
        if word in SHOW_WORDS:
            console.print(render_view(view, names, levels, can_claim=can_claim, number=game.played_hands_before() + 1))
            continue
        if word in CLAIM_WORDS:
            if can_claim:
                return CLAIM
            console.print(Text("No claim now: ", style="bold red") + Text(game.no_claim_reason() + "."))
            continue
        if word in UNDO_WORDS:
            if game.undo_steps(seat):
                return UNDO
            console.print(Text("Nothing to take back: ", style="bold red")
                          + Text("you have not played a card in this hand or the last."))
            continue
        if word in LAST_WORDS:
            console.print(last_trick_text(game, seat, names))
            continue
        if word in SHEET_WORDS:
            console.print(score_sheet(game, seat, names))
            continue
        if word in HINT_WORDS:
            if hint_fn is None:
                console.print("Hints are off in this game (euchre play without --no-hints turns them on).")
            elif len(view.legal_actions) == 1:
                console.print(f"Only one choice: {action_words(view.legal_actions[0], view)}.")
            else:
                try:
                    with console.status("Thinking..."):
                        evaluations = hint_fn(view)
                except RulesError as e:  # a game the search does not play yet (Napoleon, the double deck)
                    console.print(f"No hint here: {str(e).split(': ', 1)[-1]}.")
                    continue
                console.print(hint_text(view, evaluations))
            continue
        if word.isdigit():
            number = int(word)
            if not 1 <= number <= len(legal):
                console.print(Text(f"No choice {number}: ", style="bold red") + Text(f"choose 1-{len(legal)}."))
                continue
            action = legal[number - 1]
        else:
            try:
                action = game.state.parse_action(word)
            except InvalidActionError:
                head = Text("Not understood: ", style="bold red") + Text(f"\u201c{text.strip()}\u201d. You may now:")
                console.print(_choices_help(view, legal, head))
                continue
        if confirm_alone and action.alone and game.state.is_legal(action) and not _confirmed(input_fn, console):
            continue
        try:
            game.push(action)
        except IllegalActionError as exc:
            reason, _, options = str(exc).partition("; you may: ")
            prefix = f"{action} is not possible: "
            if reason.startswith(prefix):  # a move of another moment of the hand: say when it is
                reason = f"\u201c{text.strip()}\u201d is not a choice during {game.state.phase_words()}"
            console.print(Text("Not possible: ", style="bold red") + _with_card_symbols(reason))
            if options:
                console.print(_choices_help(view, legal, "You may now:"))
            continue
        except InvalidActionError as exc:  # pragma: no cover - the parser only returns valid actions
            console.print(Text("Not possible: ", style="bold red") + _with_card_symbols(str(exc)))
            continue
        return action
