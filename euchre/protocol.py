"""The bot protocol: JSON Lines over standard input and output, so a bot in any language can play.

The engine starts the bot as a program and writes one JSON object per line to its standard input;
the bot answers each ``act`` with one line on its standard output. Every engine message has a
``"type"``:

==========  =========================================================================================
type        meaning
==========  =========================================================================================
``hello``   a game starts: ``protocol`` (1), ``seat``, ``rules`` (:meth:`Rules.to_dict`), ``names``
            (a list, or ``null``), ``seed`` (an int the bot may seed its randomness with, or ``null``)
``act``     your turn: ``view`` (:func:`view_to_dict`) and ``legal`` (the legal action texts);
            answer with one line: the action text (``play Jh``) or ``{"action": "play Jh"}``
``end``     the game is over (or abandoned); ``view`` (the final view) when the engine has it
``bye``     the bot is no longer needed: exit (standard input closes right after)
==========  =========================================================================================

:func:`view_to_dict` is the one JSON form of a :class:`~euchre.view.PlayerView`, shared by the
protocol and the web server; it copies the view field by field, so it holds exactly what the seat
may know. :func:`parse_answer` checks a bot's line with precise errors; :func:`serve` is the bot
side, so ``python -m euchre.protocol heuristic`` is a built-in bot speaking the protocol.
``docs/protocol.md`` is the full specification.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from euchre.actions import Action, Kind, play
from euchre.bots.base import Bot, make_bot
from euchre.cards import CARDS, NO_TRUMP, PLAIN_NO_TRUMP, TWIN, TWIN_CARD, Card, parse_trump, plain_trump, trump_letter
from euchre.errors import BotProtocolError, InvalidActionError
from euchre.rules import Rules
from euchre.state import Phase, Trick
from euchre.view import PlayerView, own_hand, seat_actions, seat_gifts, seat_legal, seat_offers, seat_phase

if TYPE_CHECKING:
    from euchre.game import Game

__all__ = [
    "PROTOCOL_VERSION", "MESSAGE_TYPES", "VIEW_KEYS", "view_to_dict", "view_from_dict", "hello_message",
    "act_message", "end_message", "bye_message", "encode", "decode", "parse_answer", "serve", "main",
]

PROTOCOL_VERSION = 1
"""Bumped whenever a message or a view field changes meaning or disappears (additions do not)."""

MESSAGE_TYPES = ("hello", "act", "end", "bye")
"""The engine's messages, in the order a game sends them (``act`` many times)."""

VIEW_KEYS = (
    "seat", "rules", "hand_number", "dealer", "phase", "to_act", "hand", "up_card", "up_card_taken",
    "dealer_discarded", "discard", "actions", "trump", "maker", "alone", "sitting_out", "lone_defender",
    "leader", "trick", "tricks", "tricks_won", "legal", "points", "scores", "gifts", "misdeal", "misdeal_hand",
    "farmer", "farmer_gave", "farmer_took", "bid", "bidder", "forced_bid",
)
"""The keys of :func:`view_to_dict`, in order."""


def _seat(value: int) -> int | None:
    """The engine's "no seat" (-1) as ``None``."""
    return None if value < 0 else value


def _unseat(value: Any) -> int:
    return -1 if value is None else int(value)


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """The view as plain JSON data (the schema of ``docs/protocol.md``).

    Cards are text (``"Jh"``, ``"Tc"``, ``"Jk"`` for the Joker), actions are their text form
    (``"order alone"``, ``"call h"``, ``"play Jh"``), suits a letter, seats ints and "no seat" is
    ``None``. Nothing is added to what the view holds, so nothing leaks.

    >>> from euchre import Game, Rules
    >>> d = view_to_dict(Game(Rules(), seed=1).view(None))
    >>> d["seat"], d["hand"], d["phase"], d["legal"]
    (None, [], 'bid1', [])
    """
    return {
        "seat": view.seat,
        "rules": view.rules.to_dict(),
        "hand_number": view.hand_number,
        "dealer": view.dealer,
        "phase": view.phase.name.lower(),
        "to_act": _seat(view.to_act),
        "hand": [str(c) for c in view.hand],
        "up_card": None if view.up_card is None else str(view.up_card),
        "up_card_taken": view.up_card_taken,
        "dealer_discarded": view.dealer_discarded,
        "discard": None if view.discard is None else str(view.discard),
        "actions": [{"seat": s, "action": None if a is None else str(a)} for s, a in view.actions],
        "trump": None if view.trump is None else trump_letter(view.trump),
        "maker": _seat(view.maker),
        "alone": view.alone,
        "sitting_out": sorted(view.sitting_out),
        "lone_defender": _seat(view.lone_defender),
        "leader": _seat(view.leader),
        "trick": [{"seat": s, "card": str(c)} for s, c in view.trick],
        "tricks": [{"leader": t.leader, "plays": [{"seat": s, "card": str(c)} for s, c in t.plays],
                    "winner": t.winner} for t in view.tricks],
        "tricks_won": list(view.tricks_won),
        "legal": [str(a) for a in view.legal_actions],
        "points": None if view.points is None else list(view.points),
        "scores": list(view.scores),
        "gifts": [{"giver": g, "receiver": r, "card": None if c is None else str(c),
                   "discard": None if d is None else str(d)} for g, r, c, d in view.gifts],
        "misdeal": _seat(view.misdeal),
        "misdeal_hand": [str(c) for c in view.misdeal_hand],
        "farmer": _seat(view.farmer),
        "farmer_gave": [str(c) for c in view.farmer_gave],
        "farmer_took": [str(c) for c in view.farmer_took],
        "bid": view.bid,
        "bidder": _seat(view.bidder),
        "forced_bid": view.forced_bid,
    }


def view_dicts(game: Game, seats: Sequence[int | None], hand: int = -1) -> dict[int | None, dict[str, Any]]:
    """``view_to_dict(game.view(seat, hand))`` for each seat, built at once: the public part (the
    spectator's view) is converted once and each seat adds only what is its own (its cards, its
    discard, its legal actions). The server sends every seat its view after every action, so this
    is its hot path; a test checks it equals the one-seat way on random games of every preset.
    """
    state = game.hands[hand]
    public = view_to_dict(game.view(None, hand))
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        if seat is None:
            out[None] = public
            continue
        if not 0 <= seat < state.n:
            raise ValueError(f"seat must be 0..{state.n - 1}, got {seat}")
        d = dict(public)
        d["seat"] = seat
        d["hand"] = [str(c) for c in own_hand(state, seat)]
        if seat == state.dealer and state.discard is not None:
            d["discard"] = str(state.discard)
            d["actions"] = [{"seat": s, "action": None if a is None else str(a)}
                            for s, a in seat_actions(state, seat)]
        if state.gifts or state.phase in (Phase.GIVE, Phase.BEST_DISCARD):  # call for best: by seat
            phase, to_act = seat_phase(state, seat)
            d["phase"] = phase.name.lower()
            d["to_act"] = _seat(to_act)
            d["actions"] = [{"seat": s, "action": None if a is None else str(a)}
                            for s, a in seat_actions(state, seat)]
            d["gifts"] = [{"giver": g, "receiver": r, "card": None if c is None else str(c),
                           "discard": None if x is None else str(x)} for g, r, c, x in seat_gifts(state, seat)]
        if state.rules.ace_no_face or state.rules.farmers_hand:  # the offers: by seat
            phase, to_act = seat_phase(state, seat)
            d["phase"] = phase.name.lower()
            d["to_act"] = _seat(to_act)
            d["actions"] = [{"seat": s, "action": None if a is None else str(a)}
                            for s, a in seat_actions(state, seat)]
            _, gave, took = seat_offers(state, seat)
            d["farmer_gave"] = [str(c) for c in gave]
            d["farmer_took"] = [str(c) for c in took]
        d["legal"] = [str(a) for a in seat_legal(state, seat)]
        out[seat] = d
    return out


def _trump_of(letter: str, rules: Rules) -> int:
    """A trump letter back to the engine's trump index: Napoleon's trumps are suits without bowers
    (and its misère a no trump of thirteen ranks), the same letters as Euchre's."""
    t = parse_trump(letter)
    if rules.napoleon:
        return PLAIN_NO_TRUMP if t >= NO_TRUMP else plain_trump(t)
    return t


def _copies(hand: tuple[Card, ...], rules: Rules) -> tuple[Card, ...]:
    """A double-deck hand as the engine holds it: a card's second copy under the copy's id."""
    if not rules.double_deck:
        return hand
    out: list[Card] = []
    for c in hand:
        out.append(CARDS[TWIN[c]] if c in out else c)
    return tuple(out)


def _pair_plays(legal: tuple[Action, ...], hand: tuple[Card, ...]) -> tuple[Action, ...]:
    """The double deck: the play of a card held twice is the second copy's (as the engine offers it)."""
    if not any(c >= TWIN_CARD for c in hand):
        return legal
    return tuple(play(CARDS[TWIN[a.card]]) if a.kind is Kind.PLAY and a.card is not None and a.card in TWIN
                 and CARDS[TWIN[a.card]] in hand else a for a in legal)


def view_from_dict(data: Mapping[str, Any]) -> PlayerView:
    """The :class:`PlayerView` of a :func:`view_to_dict` result (the inverse: a Python bot can be
    served over the protocol). A missing key or a bad card, action or phase raises ``ValueError``."""
    try:
        def card(text: str) -> Card:
            return Card.parse(text)

        def plays(items: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, Card], ...]:
            return tuple((int(p["seat"]), card(p["card"])) for p in items)

        rules = Rules.from_dict(dict(data["rules"]))
        hand = _copies(tuple(card(c) for c in data["hand"]), rules)
        return PlayerView(
            rules=rules,
            seat=None if data["seat"] is None else int(data["seat"]),
            dealer=int(data["dealer"]),
            phase=Phase[str(data["phase"]).upper()],
            to_act=_unseat(data["to_act"]),
            hand=hand,
            up_card=None if data["up_card"] is None else card(data["up_card"]),
            up_card_taken=bool(data["up_card_taken"]),
            dealer_discarded=bool(data["dealer_discarded"]),
            discard=None if data["discard"] is None else card(data["discard"]),
            actions=tuple((int(a["seat"]), None if a["action"] is None else Action.parse(a["action"]))
                          for a in data["actions"]),
            trump=None if data["trump"] is None else _trump_of(str(data["trump"]), rules),
            maker=_unseat(data["maker"]),
            alone=bool(data["alone"]),
            sitting_out=frozenset(int(s) for s in data["sitting_out"]),
            lone_defender=_unseat(data["lone_defender"]),
            leader=_unseat(data["leader"]),
            trick=plays(data["trick"]),
            tricks=tuple(Trick(int(t["leader"]), plays(t["plays"]), int(t["winner"])) for t in data["tricks"]),
            tricks_won=tuple(int(n) for n in data["tricks_won"]),
            legal_actions=_pair_plays(tuple(Action.parse(a) for a in data["legal"]), hand),
            points=None if data["points"] is None else tuple(int(p) for p in data["points"]),
            scores=tuple(int(s) for s in data["scores"]),
            hand_number=int(data["hand_number"]),
            gifts=tuple((int(g["giver"]), int(g["receiver"]),
                         None if g["card"] is None else card(g["card"]),
                         None if g["discard"] is None else card(g["discard"])) for g in data.get("gifts", ())),
            misdeal=_unseat(data.get("misdeal")),
            misdeal_hand=tuple(card(c) for c in data.get("misdeal_hand", ())),
            farmer=_unseat(data.get("farmer")),
            farmer_gave=tuple(card(c) for c in data.get("farmer_gave", ())),
            farmer_took=tuple(card(c) for c in data.get("farmer_took", ())),
            bid=int(data.get("bid", 0)),
            bidder=_unseat(data.get("bidder")),
            forced_bid=bool(data.get("forced_bid", False)),
        )
    except KeyError as e:
        raise ValueError(f"view: missing key {e.args[0]!r}") from None
    except (TypeError, AttributeError) as e:
        raise ValueError(f"view: malformed value ({e})") from None


# --- messages ------------------------------------------------------------------------------------
def hello_message(seat: int, rules: Rules, *, names: Sequence[str] | None = None,
                  seed: int | None = None) -> dict[str, Any]:
    """A game starts, with the bot at ``seat``."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "seat": seat, "rules": rules.to_dict(),
            "names": None if names is None else list(names), "seed": seed}


def act_message(view: PlayerView) -> dict[str, Any]:
    """The bot's seat is to act: its view, and the legal actions again at the top for short bots."""
    if not view.is_my_turn or not view.legal_actions:
        raise ValueError(f"seat {view.seat} is not to act (seat {view.to_act} is)")
    return {"type": "act", "view": view_to_dict(view), "legal": [str(a) for a in view.legal_actions]}


def end_message(view: PlayerView | None = None) -> dict[str, Any]:
    """The game is over or abandoned; with the bot's final view when the engine has it."""
    return {"type": "end"} if view is None else {"type": "end", "view": view_to_dict(view)}


def bye_message() -> dict[str, Any]:
    """The bot should exit."""
    return {"type": "bye"}


def encode(message: Mapping[str, Any]) -> str:
    """One compact JSON line, without the newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def decode(line: str) -> dict[str, Any]:
    """An engine message from one line (the bot side); ``ValueError`` if it is not one."""
    try:
        msg = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}: {line.strip()!r}") from None
    if not isinstance(msg, dict) or msg.get("type") not in MESSAGE_TYPES:
        raise ValueError(f"not a protocol message (an object with a type of {', '.join(MESSAGE_TYPES)}): "
                         f"{line.strip()!r}")
    return msg


def parse_answer(line: str, legal: Sequence[Action]) -> Action:
    """The action of a bot's answer line, which must be one of ``legal``.

    The line is the action text (``play Jh``; case and extra spaces do not matter, and the other
    spellings of :meth:`Action.parse` are accepted) or a JSON object ``{"action": "play Jh"}``
    (or a JSON string). Raises :class:`BotProtocolError` with ``reason`` ``"malformed"``,
    ``"unparseable"`` or ``"illegal"``.
    """
    legal_text = tuple(str(a) for a in legal)
    text = line.strip()

    def fail(reason: str, why: str) -> BotProtocolError:
        return BotProtocolError(why, reason=reason, line=line.rstrip("\r\n"), legal=legal_text)

    if text.startswith(("{", '"', "[")):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise fail("malformed", f"the answer is not valid JSON ({e})") from None
        if isinstance(value, dict):
            if set(value) != {"action"} or not isinstance(value["action"], str):
                raise fail("malformed", 'a JSON answer must be {"action": "<action text>"}')
            text = value["action"]
        elif isinstance(value, str):
            text = value
        else:
            raise fail("malformed", 'a JSON answer must be {"action": "<action text>"}')
    if not text.strip():
        raise fail("malformed", "the answer is empty")
    try:
        action = Action.parse(text)
    except InvalidActionError as e:
        raise fail("unparseable", str(e)) from None
    if action not in legal:
        raise fail("illegal", f"{str(action)!r} is not a legal action now")
    return action


# --- the bot side --------------------------------------------------------------------------------
def serve(bot: Bot | str, infile: TextIO | None = None, outfile: TextIO | None = None) -> int:
    """Play a Python bot over the protocol until ``bye`` or the end of input; returns 0.

    ``bot`` is a :class:`Bot` (reset at every ``hello``) or a registered name (a new bot at every
    ``hello``, seeded with the hello's ``seed``). Malformed engine messages raise ``ValueError``.
    """
    infile = sys.stdin if infile is None else infile
    outfile = sys.stdout if outfile is None else outfile
    current: Bot | None = bot if isinstance(bot, Bot) else None
    for line in infile:
        if not line.strip():
            continue
        msg = decode(line)
        kind = msg["type"]
        if kind == "hello":
            if isinstance(bot, Bot):
                bot.reset()
            else:
                current = make_bot(bot, seed=msg.get("seed"))
        elif kind == "act":
            if current is None:
                assert isinstance(bot, str)
                current = make_bot(bot)
            action = current.choose(view_from_dict(msg["view"]))
            outfile.write(f"{action}\n")
            outfile.flush()
        elif kind == "bye":
            break
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m euchre.protocol NAME``: serve the registered bot ``NAME`` on stdin/stdout."""
    import argparse

    import euchre.bots  # noqa: F401  (registers the built-in bots)

    p = argparse.ArgumentParser(prog="python -m euchre.protocol",
                                description="Serve a registered bot over the bot protocol on stdin/stdout.")
    p.add_argument("bot", help="a registered bot name, e.g. heuristic")
    args = p.parse_args(argv)
    return serve(args.bot)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
