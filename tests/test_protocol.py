"""The bot protocol: the JSON view (complete, no leak, round-trips), answer parsing, external bots
playing whole games, every failure of a broken bot, and the command line with ``exec:`` bots."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import os
import random
import re
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from euchre import Game, PlayerView, Rules
from euchre.actions import ORDER, PASS, call, play
from euchre.bots import Bot, HeuristicBot, RandomBot, make_bot, make_bots
from euchre.bots.external import ExternalBot
from euchre.cards import Card, Suit
from euchre.cli import main as cli_main
from euchre.errors import BotProtocolError
from euchre.protocol import (
    PROTOCOL_VERSION,
    VIEW_KEYS,
    act_message,
    decode,
    encode,
    parse_answer,
    serve,
    view_dicts,
    view_from_dict,
    view_to_dict,
)
from euchre.rules import PRESETS as ALL_PRESETS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "protocol_bot.py"
SH_EXAMPLE = ROOT / "examples" / "first_legal_bot.sh"
PY = sys.executable
EXAMPLE_CMD = [PY, str(EXAMPLE)]
PRESETS = ["american", "british", "two-handed", "cut-throat"]
CARD_TOKEN = re.compile(r"\b(?:[789TJQKA][cdhs]|Jk)\b")


def fast_clock() -> Callable[[], float]:
    """A clock that advances five minutes at every reading (a timed game ends in a few hands)."""
    ticks = itertools.count()
    return lambda: 300.0 * next(ticks)


def script(code: str) -> list[str]:
    """A command running an inline Python bot."""
    return [PY, "-c", code]


def played_game(rules: Rules, seed: int) -> Game:
    """A finished game between random bots (a varied source of states)."""
    return played_game_with_views(rules, seed)[0]


def played_game_with_views(rules: Rules, seed: int) -> tuple[Game, list[tuple[PlayerView, frozenset[Card]]]]:
    """A game between random bots, and every seat's (and a spectator's) view before every action and
    at the end of every hand, each with the cards that seat may know then (rules section 9)."""
    bots = [RandomBot(seed + i) for i in range(rules.players)]
    game = Game(rules, seed=seed, clock=lambda: 0.0)
    views = []

    def look(hand_index: int) -> None:
        state = game.hands[hand_index]
        public = {c for t in state.tricks for _, c in t.plays} | {c for _, c in state.trick} | {state.up_card}
        for seat in [None, *range(rules.players)]:
            view = game.view(seat, hand_index)
            known = set(public)
            if seat is not None:
                known |= set(view.hand)
                if seat == state.dealer and state.discard is not None:
                    known.add(state.discard)
            views.append((view, frozenset(known)))

    while not game.is_over:
        look(-1)
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    for i in range(len(game.hands)):
        look(i)
    return game, views


# --- the view as JSON ----------------------------------------------------------------------------
def test_view_keys_cover_every_field_of_the_view() -> None:
    """A field added to PlayerView must be added to the protocol schema (and docs/protocol.md)."""
    fields = {f.name for f in dataclasses.fields(PlayerView)}
    assert (fields - {"legal_actions"}) | {"legal"} == set(VIEW_KEYS)
    view = Game(Rules(), seed=1).view(0)
    assert list(view_to_dict(view)) == list(VIEW_KEYS)


@pytest.mark.parametrize("preset", PRESETS)
def test_view_round_trips_and_holds_only_what_the_seat_knows(preset: str) -> None:
    _, views = played_game_with_views(Rules.preset(preset, target=4), seed=11)
    assert len(views) > 50
    for view, known in views:
        data = view_to_dict(view)
        text = json.dumps(data)
        assert json.loads(text) == data  # plain JSON data
        assert view_from_dict(json.loads(text)) == view
        cards = {Card.parse(t) for t in CARD_TOKEN.findall(text)}
        assert cards <= known, (view.seat, cards - known)
        if view.seat is None:
            assert data["hand"] == [] and data["discard"] is None and data["legal"] == []


def test_view_fields_in_detail() -> None:
    game = Game(Rules(), seed=5)
    dealer = game.state.dealer
    seats = [(dealer + i) % 4 for i in range(1, 5)]
    game.push(PASS)
    game.push(PASS)
    game.push(PASS)
    game.push(ORDER)  # the dealer picks it up
    d_view = view_to_dict(game.view(dealer))
    assert d_view["phase"] == "discard" and d_view["to_act"] == dealer
    assert d_view["up_card_taken"] is True and d_view["maker"] == dealer
    assert d_view["trump"] == game.state.up_card.suit.letter  # type: ignore[union-attr]
    assert [a["action"] for a in d_view["actions"]] == ["pass", "pass", "pass", "order"]
    assert [a["seat"] for a in d_view["actions"]] == seats
    buried = game.legal_actions()[0]
    game.push(buried)
    mine = view_to_dict(game.view(dealer))
    other = view_to_dict(game.view(seats[0]))
    assert mine["discard"] == str(buried.card) and mine["actions"][-1]["action"] == str(buried)
    assert other["discard"] is None and other["actions"][-1] == {"seat": dealer, "action": None}
    assert other["dealer_discarded"] is True and other["phase"] == "play"
    assert other["to_act"] == other["leader"] == seats[0]
    assert other["legal"] == [str(a) for a in game.legal_actions()]
    assert other["lone_defender"] is None and other["alone"] is False and other["sitting_out"] == []
    assert other["tricks_won"] == [0, 0, 0, 0] and other["points"] is None and other["scores"] == [0, 0]
    assert other["rules"] == Rules().to_dict() and other["hand_number"] == 0


def test_finished_tricks_and_the_trick_in_progress() -> None:
    game = played_game(Rules(), seed=3)
    hand = game.hands[0].copy()
    while len(hand.tricks) > 1 or len(hand.trick) != 2:
        hand.pop()
    data = view_to_dict(PlayerView.of(hand, None))
    (t,) = data["tricks"]
    assert set(t) == {"leader", "plays", "winner"} and len(t["plays"]) == 4 - len(hand.sitting_out)
    assert t["plays"][0]["seat"] == t["leader"]
    assert [p["card"] for p in data["trick"]] == [str(c) for _, c in hand.trick]


def test_over_hand_has_no_seat_to_act() -> None:
    game = played_game(Rules(), seed=4)
    data = view_to_dict(game.view(1))
    assert data["phase"] == "over" and data["to_act"] is None and data["legal"] == []
    assert data["scores"] == list(game.scores)


def test_view_from_dict_errors() -> None:
    data = view_to_dict(Game(Rules(), seed=1).view(0))
    del data["hand"]
    with pytest.raises(ValueError, match="missing key 'hand'"):
        view_from_dict(data)
    data = view_to_dict(Game(Rules(), seed=1).view(0))
    data["up_card"] = "Xz"
    with pytest.raises(ValueError, match="not a card"):
        view_from_dict(data)


# --- messages and answers ---------------------------------------------------------------------------
def test_messages_are_one_line_of_json() -> None:
    game = Game(Rules.preset("british"), seed=2)
    msg = act_message(game.view(game.to_act))
    line = encode(msg)
    assert "\n" not in line and line.startswith('{"type":"act"') and line.endswith("]}")
    assert decode(line) == msg and msg["legal"] == msg["view"]["legal"]
    with pytest.raises(ValueError, match="not to act"):
        act_message(game.view((game.to_act + 1) % 4))
    with pytest.raises(ValueError, match="not JSON"):
        decode("hello")
    with pytest.raises(ValueError, match="not a protocol message"):
        decode('{"type": "greetings"}')


def test_parse_answer_forms() -> None:
    legal = [PASS, ORDER, call(Suit.HEARTS), play(Card.parse("Jh"))]
    assert parse_answer("pass\n", legal) == PASS
    assert parse_answer("  Order  ", legal) == ORDER
    assert parse_answer("pick up", legal) == ORDER
    assert parse_answer('{"action": "call h"}', legal) == call(Suit.HEARTS)
    assert parse_answer('"play jh"', legal) == play(Card.parse("Jh"))
    cases = [("play Xz", "unparseable", "not a card"), ("", "malformed", "empty"),
             ("{oops", "malformed", "not valid JSON"), ('{"move": "pass"}', "malformed", '"action"'),
             ("[1]", "malformed", '"action"'), ("call s", "illegal", "'call s' is not a legal action")]
    for line, reason, words in cases:
        with pytest.raises(BotProtocolError, match=re.escape(words)) as info:
            parse_answer(line, legal)
        assert info.value.reason == reason and info.value.legal == ("pass", "order", "call h", "play Jh")


def test_serve_speaks_the_bot_side() -> None:
    game = Game(Rules(), seed=8)
    view = game.view(game.to_act)
    lines = [encode({"type": "hello", "protocol": PROTOCOL_VERSION, "seat": view.seat, "rules": {}, "names": None,
                     "seed": 3}), "", encode(act_message(view)), encode({"type": "end"}), encode({"type": "bye"}),
             encode(act_message(view))]
    out = io.StringIO()
    assert serve("heuristic", io.StringIO("\n".join(lines) + "\n"), out) == 0
    assert out.getvalue() == f"{HeuristicBot(3).choose(view)}\n"  # one answer: nothing after bye


# --- external bots play ------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_example_bot_plays_whole_games(preset: str) -> None:
    rules = Rules.preset(preset)
    with ExternalBot(EXAMPLE_CMD, timeout=5) as ext:
        seats: dict[int, Bot] = {0: ext}
        for s in range(1, rules.players):
            seats[s] = HeuristicBot(s)
        for seed in (1, 2):
            ext.reset()
            game = Game(rules, seed=seed, clock=fast_clock())
            while not game.is_over:
                seat = game.to_act
                view = game.view(seat)
                action = seats[seat].choose(view)
                assert action in view.legal_actions
                game.push(action)
            assert game.winner is not None
        pid = ext.pid
        assert ext.running and pid is not None
    assert not ext.running and ext.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # exited and reaped: not even a zombie is left


def test_every_seat_external_and_the_same_choices_as_in_process() -> None:
    """The built-in heuristic served over the protocol decides exactly as in process: the JSON
    view carries everything it uses."""
    rules = Rules.preset("american", defend_alone=True, stick_the_dealer=True, target=6)
    cmd = [PY, "-m", "euchre.protocol", "heuristic"]
    external = {s: ExternalBot(cmd, seed=s) for s in range(4)}
    local = {s: HeuristicBot(s) for s in range(4)}
    try:
        game = Game(rules, seed=21)
        while not game.is_over:
            view = game.view(game.to_act)
            action = external[game.to_act].choose(view)
            assert action == local[game.to_act].choose(view)
            game.push(action)
    finally:
        for b in external.values():
            b.close()


def test_messages_seen_by_the_bot(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    code = ("import sys, json\n"
            f"log = open({str(log)!r}, 'a')\n"
            "for line in sys.stdin:\n"
            "    log.write(line); log.flush()\n"
            "    m = json.loads(line)\n"
            "    if m['type'] == 'act': print(m['legal'][0], flush=True)\n"
            "    if m['type'] == 'bye': break\n")
    bot = ExternalBot(script(code), seed=9, names=["A", "B", "C", "D"])
    assert bot.pid is None  # started lazily
    game = Game(Rules(), seed=1)
    seat = game.to_act
    bot.choose(game.view(seat))
    bot.reset()
    bot.choose(game.view(seat))
    bot.close()
    bot.close()  # idempotent
    kinds = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["type"] for m in kinds] == ["hello", "act", "end", "hello", "act", "end", "bye"]
    hello = kinds[0]
    assert hello == {"type": "hello", "protocol": 1, "seat": seat, "rules": Rules().to_dict(),
                     "names": ["A", "B", "C", "D"], "seed": 9}
    assert kinds[1]["view"]["seat"] == seat


# --- broken bots -------------------------------------------------------------------------------------
def first_view() -> PlayerView:
    game = Game(Rules(), seed=1)
    return game.view(game.to_act)


@pytest.mark.parametrize(("code", "reason", "words"), [
    ("import sys\nsys.stdin.readline(); sys.stdin.readline()\nprint('hello there', flush=True)\n"
     "sys.stdin.readline()", "unparseable", "line received: 'hello there'"),
    ("import sys\nsys.stdin.readline(); sys.stdin.readline()\nprint('play Jh', flush=True)\nsys.stdin.readline()",
     "illegal", "'play Jh' is not a legal action now"),
    ("import sys\nsys.stdin.readline(); sys.stdin.readline()\nprint('{\"act\": 1}', flush=True)\n"
     "sys.stdin.readline()", "malformed", '{"action": "<action text>"}'),
    ("import sys\nsys.stderr.write('boom: no strategy\\n')\nsys.exit(3)", "exited", "exit status 3"),
    ("import time\ntime.sleep(30)", "timeout", "did not answer within 0.5 s"),
    ("print('I am ready', flush=True)\nimport sys\nsys.stdin.read()", "unsolicited", "'I am ready'"),
])
def test_broken_bots_raise_precise_errors(code: str, reason: str, words: str) -> None:
    view = first_view()
    bot = ExternalBot(script(code), timeout=0.5)
    if reason == "unsolicited":
        bot.start()
        time.sleep(0.3)  # let the line arrive
    t0 = time.monotonic()
    with pytest.raises(BotProtocolError) as info:
        bot.choose(view)
    assert time.monotonic() - t0 < 3
    err = info.value
    message = str(err)
    assert err.reason == reason and words in message, message
    assert err.seat == view.seat and f"at seat {view.seat}" in message
    assert err.command == bot.command and repr(bot.command) in message
    assert "legal actions: pass, order" in message and err.legal == tuple(str(a) for a in view.legal_actions)
    if reason == "exited":
        assert "boom: no strategy" in message  # its standard error is shown
    assert not bot.running and bot.pid is None  # stopped and reaped


def test_a_bot_that_stops_reading_cannot_hang_the_caller() -> None:
    """Its input pipe fills up (about 64 KB) and a write would block: writes happen on the bot's
    own thread, so the decision still times out and stopping the program still returns."""
    view = first_view()
    bot = ExternalBot(script("import time\ntime.sleep(30)"), timeout=0.5)
    bot.start()
    process = bot._process
    assert process is not None
    t0 = time.monotonic()
    for _ in range(100):  # far more than the pipe holds
        process.send({"type": "noise", "padding": "x" * 4096})
    assert time.monotonic() - t0 < 1  # queued, not written by the caller
    with pytest.raises(BotProtocolError) as info:
        bot.choose(view)
    assert info.value.reason == "timeout"
    assert time.monotonic() - t0 < 5
    assert not bot.running and bot.pid is None
    assert not process.writer.is_alive()  # the blocked write ended with the program


def test_bot_dying_mid_game_and_restart_after_an_error() -> None:
    code = ("import sys\nn = 0\nfor line in sys.stdin:\n    if '\"act\"' in line:\n"
            "        n += 1\n        if n == 2: sys.exit(0)\n        print('pass', flush=True)\n")
    game = Game(Rules(), seed=1)
    seat = game.to_act
    bot = ExternalBot(script(code))
    assert bot.choose(game.view(seat)) == PASS
    with pytest.raises(BotProtocolError, match="closed its output") as info:
        bot.choose(game.view(seat))
    assert info.value.reason == "exited"
    assert bot.choose(game.view(seat)) == PASS  # a new program after the error
    bot.close()


def test_bad_commands() -> None:
    with pytest.raises(ValueError, match="empty command"):
        ExternalBot("  ")
    with pytest.raises(ValueError, match="program not found \\(or not executable\\): 'no-such-euchre-bot'"):
        ExternalBot("no-such-euchre-bot --fast")
    with pytest.raises(ValueError, match="timeout"):
        ExternalBot(EXAMPLE_CMD, timeout=0)
    with pytest.raises(ValueError, match="not to act"):
        ExternalBot(EXAMPLE_CMD).choose(Game(Rules(), seed=1).view(None))


def test_garbage_collection_stops_the_program() -> None:
    bot = ExternalBot(EXAMPLE_CMD)
    bot.choose(first_view())
    popen = bot._process.popen  # type: ignore[union-attr]
    del bot
    assert popen.returncode == 0  # said bye, exited, reaped


# --- by name and from the command line ---------------------------------------------------------------
def test_exec_names() -> None:
    cmd = shlex.join(EXAMPLE_CMD)
    bot = make_bot(f"EXEC: {cmd}", seed=4, timeout=3)
    assert isinstance(bot, ExternalBot) and bot.argv == EXAMPLE_CMD and bot.seed == 4 and bot.timeout == 3
    bots = make_bots(f"random, exec:{cmd}", seed=10)
    assert isinstance(bots[0], RandomBot) and isinstance(bots[1], ExternalBot) and bots[1].seed == 11
    assert bots[1].choose(first_view()) in first_view().legal_actions
    bots[1].close()


def test_cli_simulate_with_an_external_bot(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"heuristic,exec:{shlex.join(EXAMPLE_CMD)}"
    assert cli_main(["simulate", "--bots", spec, "--games", "2", "--json", "--seed", "1"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["games"] == 2 and sum(s["wins"] for s in stats["sides"]) + stats["ties"] == 2
    with pytest.raises(SystemExit) as info:
        cli_main(["simulate", "--bots", "exec:no-such-euchre-bot", "--games", "1"])
    assert info.value.code == 2
    assert "program not found" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("sed") is None, reason="needs POSIX sh and sed")
def test_sh_example_bot(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"heuristic,exec:sh {shlex.quote(str(SH_EXAMPLE))}"  # alone it would pass every hand forever
    assert cli_main(["simulate", "--bots", spec, "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1


# --- many seats at once (the server's hot path) ------------------------------------------------------
@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
def test_view_dicts_equal_one_view_per_seat(preset: str) -> None:
    """``view_dicts`` (the public part once, each seat's own cards added) gives exactly what
    ``view_to_dict(game.view(seat))`` gives, for every seat and a spectator, at every step of
    random games, for the current hand and the one just finished."""
    base = Rules.preset(preset)
    rules = Rules.preset(preset, defend_alone=True) if base.players == 4 and base.sister_game is None else base
    for seed in range(4):
        game = Game(rules, seed=seed, clock=lambda: 0.0)
        rng = random.Random(seed)
        seats: list[int | None] = [None, *range(rules.players)]
        steps = 0
        while not game.is_over and steps < 400:
            got = view_dicts(game, seats)
            assert got == {s: view_to_dict(game.view(s)) for s in seats}
            if len(game.hands) > 1:
                assert view_dicts(game, seats, hand=-2) == {s: view_to_dict(game.view(s, hand=-2)) for s in seats}
            game.push(rng.choice(game.legal_actions()))
            steps += 1
    with pytest.raises(ValueError, match="seat must be"):
        view_dicts(Game(Rules(), seed=1), [4])
