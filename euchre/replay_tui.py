"""The terminal replay viewer (``euchre replay FILE --step``): a recorded game, step by step.

A thin shell over :mod:`euchre.replay`: it shows one step of the :class:`~euchre.replay.Timeline`
(every seat's cards face up, the up card, the bids, the trick and the finished tricks, the score,
the step in words and, when the game was analysed, the decision's mark) and reads a key with
``input()``. It knows no rules; what it shows is what the timeline holds, the same data the
browser's viewer gets from ``/api/games/{id}/replay``.

Keys: Enter or ``n`` next, ``b`` back, ``h N`` the start of hand N, ``e`` the end, ``q`` quit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from euchre.cards import NO_TRUMP, Card, Suit, parse_trump, trump_word
from euchre.replay import Timeline
from euchre.tui import card_text

__all__ = ["step_through", "render_step", "KEYS", "Ending"]

KEYS = "Enter or n next, b back, h N go to hand N, e end, q quit"
"""The keys, as the prompt and the message for a key it does not know list them."""

MARK_STYLES = {"??": "bold red", "?": "bold yellow", "?!": "yellow"}


def _cards(cards: Sequence[str], trump: int | None) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out += Text(" ")
        out += card_text(Card.parse(c), trump)
    return out


def _mark_text(review: dict[str, Any] | None) -> Text:
    """A decision's mark and loss (``?  -0.35  best: lead the ten of spades``), or nothing."""
    if not review:
        return Text("")
    if not review["mark"]:
        return Text("  ✓ best or within noise", style="green")
    out = Text(f"  {review['mark']} -{review['loss']:.2f}", style=MARK_STYLES.get(review["mark"], ""))
    return out + Text(f"  (best: {review['best_words']})", style="dim")


def _side_names(t: Timeline) -> list[str]:
    return [" and ".join(t.players[s] for s in seats) for seats in t.sides]


def render_step(t: Timeline, index: int) -> Panel:
    """Step ``index`` of the timeline as a panel: the step in words, then the table."""
    st = t.steps[index]
    trump = None if st["trump"] is None else parse_trump(st["trump"])
    hand = st["hand"]
    info = t.hands[hand]
    count = info["last_step"] - info["first_step"]
    where = "the deal" if st["number"] is None else f"action {st['number'] + 1} of {count}"
    title = f"Hand {hand + 1} of {len(t.hands)} · {where} · step {index + 1} of {len(t.steps)}"
    parts: list[Any] = []
    words = Text(st["words"], style="bold")
    if st["choices"] == 1:
        words += Text("  (no choice)", style="dim")
    parts.append(words + _mark_text(st["review"]))
    if st["result"]:
        parts.append(Text(st["result"], style="bold cyan"))
    if st["game_over"]:
        parts.append(Text(st["game_over"], style="bold magenta"))
    score = "  ·  ".join(f"{n}: {s}" for n, s in zip(_side_names(t), st["scores"], strict=True))
    parts.append(Text("Score: ", style="bold") + Text(score))
    if st["up_card"] is not None:
        up = Text("Up card: ", style="bold") + card_text(Card.parse(st["up_card"]), trump)
        up += Text(f" ({st['up_fate_words']})")
        if st["discard"]:
            up += Text("   buried: ") + card_text(Card.parse(st["discard"]), trump)
        parts.append(up)
    if st.get("bid"):  # the auction games: the high bid so far (no up card)
        holder = t.players[st["bidder"]] if st.get("bidder") is not None else "?"
        forced = " (forced: everyone passed, and they hold the Joker)" if st.get("forced_bid") else ""
        # the engine's words where the bid is not a number of tricks (Napoleon's misère, Nap, ...)
        said = str(st.get("bid_words") or "")
        bid = ("the moon (every trick, alone)" if st.get("moon")
               else said if t.rules.get("napoleon") and said else str(st["bid"]))
        parts.append(Text("High bid: ", style="bold") + Text(f"{bid} by {holder}{forced}"))
    if st["trump"] is not None:
        maker = t.players[st["maker"]] if st["maker"] is not None else "?"
        shown = "" if trump is None else st.get("trump_words") or trump_word(trump)
        if trump is not None and trump < NO_TRUMP:
            shown = f"{Suit(trump).symbol} {shown}"
        parts.append(Text("Trump: ", style="bold") + Text(shown)
                     + Text(f", made by {maker}" + (" alone" if st["alone"] else "")))
    seats = Table(box=None, pad_edge=False, show_header=True, header_style="bold dim")
    for column in ("seat", "player", "role", "tricks", "cards (face up)", "this trick"):
        seats.add_column(column)
    played = {p["seat"]: p["card"] for p in st["trick"]}
    for seat, cards in enumerate(st["hands"]):
        roles = []
        if seat == st["dealer"]:
            roles.append("dealer")
        if seat == st["maker"]:
            roles.append("maker, alone" if st["alone"] else "maker")
        if seat == st["lone_defender"]:
            roles.append("defends alone")
        if seat in st["sitting_out"]:
            roles.append("sits out")
        if seat == st["to_act"]:
            roles.append("to act")
        card = card_text(Card.parse(played[seat]), trump) if seat in played else Text("")
        seats.add_row(str(seat), Text(t.players[seat], style="bold green" if seat == st["seat"] else ""),
                      ", ".join(roles), str(st["tricks_won"][seat]), _cards(cards, trump), card)
    parts.append(seats)
    if st["bids"]:
        parts.append(Text("Bids: ", style="bold") + Text("; ".join(b["words"] for b in st["bids"])))
    for k, tr in enumerate(st["tricks"], 1):
        line = Text(f"Trick {k}: ", style="bold")
        for i, p in enumerate(tr["plays"]):
            if i:
                line += Text(" · ")
            line += Text(f"{t.players[p['seat']]} ") + card_text(Card.parse(p["card"]), trump)
        parts.append(line + Text(f"  → {t.players[tr['winner']]}", style="dim"))
    return Panel(Group(*parts), title=title, title_align="left")


def _target(key: str, t: Timeline, at: int, more: bool) -> int | str | None:
    """The step a key leads to, the message to show instead, or ``None`` for the next game."""
    last = len(t.steps) - 1
    k = key.strip().lower()
    if k in ("", "n"):
        if at < last:
            return at + 1
        return None if more else "this is the last step (b back, h N a hand, q quit)"
    if k == "b":
        return at - 1 if at > 0 else "this is the first step (Enter or n next, q quit)"
    if k == "e":
        return last
    if k == "h" or k.startswith("h "):
        arg = k[1:].strip()
        if not arg.isdigit() or not 1 <= int(arg) <= len(t.hands):
            return f"h needs a hand number from 1 to {len(t.hands)}, like h 2"
        return t.hand_start(int(arg) - 1)
    return f"unknown key {key.strip()!r}; keys: {KEYS}"


Ending = Literal["quit", "next"]
"""How :func:`step_through` ended: ``q`` (or the end of input), or past the last step when
``more`` games follow."""


def step_through(t: Timeline, *, console: Console | None = None, input_fn: Callable[[str], str] = input,
                 start: int = 0, more: bool = False) -> Ending:
    """Show the timeline from step ``start``, one step at a time, moving as the keys say (see the
    module docstring) until ``q`` or the end of input; with ``more`` (another game of a match
    follows), going on from the last step ends it too."""
    console = console or Console(highlight=False)
    at = start
    console.print(render_step(t, at))
    while True:
        try:
            key = input_fn(f"[{KEYS}] > ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return "quit"
        if key.strip().lower() == "q":
            return "quit"
        target = _target(key, t, at, more)
        if target is None:
            return "next"
        if isinstance(target, str):
            console.print(Text(target, style="yellow"))
            continue
        at = target
        console.print(render_step(t, at))
