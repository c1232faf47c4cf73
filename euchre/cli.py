"""The ``euchre`` command: play, games, serve, simulate, arena, analyze, replay, convert, rules.

A thin shell over the engine: it parses arguments into :class:`~euchre.rules.Rules`, bots and
files, and hands them to the terminal game, the simulator or the record replayer. Bad arguments
exit with status 2 and a message that names the argument; invalid records exit with status 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import random
import re
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from euchre import notation
from euchre.actions import Kind
from euchre.bots.levels import DEFAULT_LEVEL, LEVELS
from euchre.bots.persona import computer_names
from euchre.describe import result_labels
from euchre.errors import BotProtocolError, EuchreError, RecordError, RulesError
from euchre.game import Game, score_text
from euchre.paths import data_dir
from euchre.pool import ANALYZE_JOB_MEMORY, default_jobs
from euchre.rules import LONER_LEADS, PRESET_DESCRIPTIONS, PRESETS, Rules
from euchre.saves import SavedGame, SaveError
from euchre.state import State

__all__ = ["main", "build_parser", "rules_from_args", "data_dir", "rules_words", "rules_error_words", "value_words"]


# --- rules from arguments --------------------------------------------------------------------
def _add_rule_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules", "a preset and any switch of it (see `euchre rules`)")
    g.add_argument("--rules", default="american", metavar="PRESET", action=_Given,
                   help=f"rules preset or alias: {', '.join(PRESETS)} (default: american)")
    for f in dataclasses.fields(Rules):
        opt = _switch(f.name)
        doc = _FIELD_DOCS.get(f.name, "")
        if f.type in ("bool", bool):
            g.add_argument(opt, dest=f"rule_{f.name}", action=_Switch, default=None, help=doc)
        elif f.name == "loner_lead":
            g.add_argument(opt, dest=f"rule_{f.name}", choices=LONER_LEADS, default=None, metavar="WHO",
                           help=doc)
        elif f.name == "duration":
            g.add_argument(opt, dest=f"rule_{f.name}", type=_positive_float, default=None, metavar="MINUTES",
                           help=doc)
        else:
            g.add_argument(opt, dest=f"rule_{f.name}", type=_nonneg_int, default=None, metavar="N", help=doc)


class _Given(argparse.Action):
    """Stores the value and notes that it was given (``rules_given``), so that a command can tell
    ``--rules american`` written out from the default."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


class _Switch(argparse.BooleanOptionalAction):
    """``--x`` / ``--no-x`` for a rule switch. argparse's own action takes any option starting
    with ``--no-`` for the negative, so ``--no-trump`` (the no-trump house rule) would turn its
    rule off; here only the ``--no-`` form made from the switch's own name is the negative."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if option_string in self.option_strings:
            setattr(namespace, self.dest, option_string == self.option_strings[0])


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return v


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _nonneg_int(text: str) -> int:
    v = _whole_number(text)
    if v < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return v


def _positive_int(text: str) -> int:
    v = _whole_number(text)
    if v < 1:  # one message for 0 and for -1: "must not be negative" would suggest 0 is fine
        raise argparse.ArgumentTypeError("must be at least 1" if v == 0 else f"must be at least 1, not {text}")
    return v


def _seed(text: str) -> int:
    """A seed: a whole number of 64 bits, -2**63 to 2**63 - 1 (what a record's TOML integer holds)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not -(2**63) <= v < 2**63:
        raise argparse.ArgumentTypeError(f"must be from -2**63 to below 2**63 ({2**63}), got {text[:40]}")
    return v


def _budget(text: str) -> int:
    """A search budget: a whole number from 1 to the search bot's largest."""
    from euchre.bots.search import MAX_BUDGET

    v = _positive_int(text)
    if v > MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_BUDGET:,}")
    return v


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--rules`` with every switch given on the command line."""
    overrides = {f.name: getattr(args, f"rule_{f.name}") for f in dataclasses.fields(Rules)
                 if getattr(args, f"rule_{f.name}", None) is not None}
    return Rules.preset(args.rules, **overrides)


# --- the parser --------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """The top-level parser; it keeps its subcommands' parsers so that an unknown option after a
    subcommand (``euchre play --bogus``) is reported by that subcommand, with its usage."""

    subcommands: dict[str, argparse.ArgumentParser]


DESCRIPTION = """\
Euchre, the trick-taking card game, against computer players: play in the terminal (euchre play,
the default) or in the browser and online with friends (euchre serve). Games are saved when you
quit and continue with euchre play --resume; euchre games lists them. Recorded games (our
format, EGN) can be replayed, reviewed for mistakes (analyze) and converted, and bots can play
each other (simulate, arena). Every common variant is a preset: see euchre rules."""


def rules_error_words(message: str) -> str:
    """A :class:`~euchre.errors.RulesError` message in the command line's words: the library
    names fields and Python values (``Rules.match_games``, ``going_alone=False``, ``None``), the
    command line its options (``--match-games``, ``--no-going-alone``).

    >>> rules_error_words("Rules.call_for_best: needs going_alone=True (got True)")
    'call for best (--call-for-best): needs --going-alone (got on)'
    """
    def option(name: str) -> str:
        return "--" + name.replace("_", "-")

    def field(m: re.Match[str]) -> str:
        names = m.group(1).split("/")
        words = "/".join(n.replace("_", " ") for n in names)
        return f"{words} ({'/'.join(option(n) for n in names)}):"

    text = re.sub(r"\bRules\.([a-z_]+(?:/[a-z_]+)*):", field, message)
    text = re.sub(r"\b([a-z][a-z_]*)=True\b", lambda m: option(m.group(1)), text)
    text = re.sub(r"\b([a-z][a-z_]*)=False\b", lambda m: "--no-" + m.group(1).replace("_", "-"), text)
    text = re.sub(r"\b([a-z][a-z_]*)=(\d+)\b", lambda m: f"{option(m.group(1))} {m.group(2)}", text)
    text = re.sub(r"(--[a-z-]+) \(\1\)", r"\1", text)  # "set --no-going-alone (--no-going-alone)"
    text = text.replace(", or None", "").replace("(got True)", "(got on)").replace("(got False)", "(got off)")
    text = re.sub(r"must stay (True|False|None)\b",
                  lambda m: "must stay " + {"True": "on", "False": "off", "None": "unset"}[m.group(1)], text)
    return text


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Parse ``argv``; options no parser knows are an error of the subcommand they follow."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        subcommands = getattr(parser, "subcommands", {})
        (subcommands.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = _Parser(prog="euchre", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="euchre COMMAND --help shows a command's options.")
    p.add_argument("--version", action="version", version=f"euchre {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=argparse.ArgumentParser)

    play = sub.add_parser("play", help="play a game against computer players (the default)")
    _add_rule_options(play)
    play.add_argument("--seed", type=_seed, default=None, help="seed of the deals (default: random)")
    play.add_argument("--seat", type=_nonneg_int, default=0, help="your seat, 0 .. players-1 (default 0)")
    play.add_argument("--level", type=str.lower, choices=list(LEVELS), default=None, metavar="LEVEL",
                      help=f"strength of the computer players: {_or_list(list(LEVELS))} (default {DEFAULT_LEVEL}; "
                           "see docs/bots.md)")
    play.add_argument("--bots", default=None,
                      help="instead of --level: a bot (random, novice, heuristic, search, a level, NAME:{JSON options} "
                           "such as 'search:{\"samples\": 50}', or exec:COMMAND for a program speaking "
                           "docs/protocol.md), or one per other seat, comma-separated")
    play.add_argument("--no-hints", action="store_true",
                      help="turn off hints (otherwise typing hint at your turn shows the strongest bot's view)")
    play.add_argument("--speed", type=str.lower, choices=list(SPEEDS), default=None, metavar="SPEED",
                      help="pace of the computer players' moves: slow, normal (0.6 s a move; each hand's end "
                           "stays until you press Enter), fast (0.15 s; the end of a hand for 1.5 s) or instant "
                           "(default normal at a terminal, instant when the input is not one)")
    play.add_argument("--name", default="You", help="your name at the table")
    play.add_argument("--save", type=Path, default=None, metavar="FILE",
                      help="save the game in FILE when you quit (default: a new file among the saved games in "
                           "the data directory)")
    play.add_argument("--resume", nargs="?", const=True, default=None, metavar="GAME",
                      help="continue a saved game: the only one, else the one you choose; GAME picks one by "
                           "its name or number in `euchre games`, or is a record FILE")
    play.add_argument("--no-color", action="store_true", help="plain text without colours")

    sub.add_parser("games", help="list the unfinished games that euchre play --resume continues",
                   description="The unfinished games saved when you quit euchre play, the most recent first: "
                               "when each was saved, the score, the hand being played, the rules and the "
                               "opponents. euchre play --resume NAME (or its number) continues one. Finished "
                               "games are archived in the games folder of the data directory.")

    prefs = sub.add_parser("settings", help="show or change your settings for euchre play",
                           description="Your settings for euchre play, kept in settings.toml in the data "
                                       "directory: speed (slow, normal, fast, instant or auto), hints, autoplay "
                                       "(play a forced card without asking), confirm-alone (ask before going "
                                       "alone) and four-colour (diamonds blue, clubs green). With no argument, "
                                       "shows them; euchre settings speed=fast hints=off changes them. An option "
                                       "of euchre play (--speed, --no-hints) overrides a setting for one game.")
    prefs.add_argument("changes", nargs="*", metavar="NAME=VALUE", help="settings to change, such as speed=fast")
    prefs.add_argument("--reset", action="store_true", help="go back to the default settings")

    sim = sub.add_parser("simulate", help="bots play each other; prints statistics",
                         description="Bots play each other and the statistics per side are printed. Timed games "
                                     "use a simulated clock of 2.5 minutes a hand.")
    _add_rule_options(sim)
    sim.add_argument("--games", type=_positive_int, default=100, help="number of games (default 100)")
    sim.add_argument("--seed", type=_seed, default=0, help="seed (default 0)")
    sim.add_argument("--bots", default="heuristic",
                     help="one bot for all seats, one per side, or one per seat, comma-separated "
                          "(names as for play --bots)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--save-dir", type=Path, default=None,
                     help="write each game's record here (game-00001.toml, ...; under match rules each "
                          "match's, match-00001.toml, ...); a directory that holds such records already is "
                          "refused")

    arena = sub.add_parser(
        "arena", help="a duplicate match between two bots, with confidence intervals", conflict_handler="resolve",
        description="Bot A against bot B in duplicate: every game seed is played once per seating, A holding "
                    "each side in turn (each seat in cut-throat), so the luck of the cards cancels. Prints points "
                    "per hand, the margin A-B with a 95% interval over game pairs, games won and the makers' "
                    "rates. Under match rules (--match-wins, --match-games) each seed is a match played once "
                    "per seating, and A's share of matches won is shown too. --sprt stops as soon as a sequential "
                    "test decides; --ray plays on a Ray cluster, with the same result. See docs/arena.md.")
    _add_rule_options(arena)
    arena.add_argument("a", metavar="A", help="bot A: a bot or a level (expert, hard, medium, easy, search, heuristic, "
                                              "random, ...), with JSON options as in 'search:{\"samples\": 50}', "
                                              "or exec:COMMAND")
    arena.add_argument("b", metavar="B", help="bot B, the same kinds of name")
    arena.add_argument("--deals", type=_positive_int, default=None, metavar="N",
                       help="play game pairs until every seating has dealt at least N hands (default 1000); "
                            "with --sprt, the most the test plays (default 100000)")
    arena.add_argument("--game-deals", dest="rule_deals", type=_nonneg_int, default=None, metavar="N",
                       help="the rules' own `deals` switch (a progressive game of N played hands), renamed "
                            "here because --deals is the size of the run")
    arena.add_argument("--seed", type=_seed, default=0, help="seed of the game seeds (default 0)")
    arena.add_argument("--jobs", type=_positive_int, default=None, metavar="K",
                       help="worker processes (default: one per CPU, as many as the free memory holds at about 500 MB "
                            "each); with --ray, Ray tasks kept running (default: "
                            "the cluster's CPUs); the result does not depend on it")
    arena.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    arena.add_argument("--ray", default=None, metavar="ADDRESS",
                       help="play the game pairs on a Ray cluster: auto connects to the running one or starts "
                            "a local one, or give a cluster's address; needs the ray extra (pip install "
                            "'euchre[ray]'); the result is the same as without")
    arena.add_argument("--sprt", type=_arena_hypotheses, default=None, metavar="H0,H1",
                       help="stop as soon as a sequential probability ratio test decides between a margin of H0 "
                            "and one of H1 points per hand (e.g. 0,0.1; --sprt=-0.05,0.05 for a negative H0)")
    arena.add_argument("--sprt-elo", type=_elo_hypotheses, default=None, metavar="ELO0,ELO1",
                       help="the same test on the games won, H0 and H1 in Elo (two sides only; e.g. 0,20)")
    arena.add_argument("--alpha", type=_arena_probability, default=None,
                       help="the test's chance of accepting H1 when H0 holds (default 0.05)")
    arena.add_argument("--beta", type=_arena_probability, default=None,
                       help="the test's chance of accepting H0 when H1 holds (default 0.05)")

    ana = sub.add_parser(
        "analyze", help="review a recorded game: expected points each decision gave away",
        description="Every decision with a choice is valued by the search bot from the deciding seat's view; "
                    "the loss is the best choice's expected points minus the chosen one's, summed per player. "
                    "Reads our records (.toml), EGN and EMN match files.")
    ana.add_argument("file", type=Path)
    ana.add_argument("--samples", type=_budget, default=48,
                     help="sampled deals per card decision (default 48; bids use two thirds of it, at least 8)")
    ana.add_argument("--seed", type=_seed, default=0, help="seed of the sampling (default 0)")
    ana.add_argument("--all", action="store_true", help="list every decision, not only the costly ones")
    ana.add_argument("--jobs", type=_positive_int, default=None, metavar="K",
                     help="processes sharing the decisions (default: one per CPU, as many as the free memory holds at "
                          "about 300 MB each); the review is the same for any K")
    ana.add_argument("--json", action="store_true", help="print one JSON object")

    rep = sub.add_parser("replay", help="print a recorded game (own format, EGN, or an EMN match) hand by hand")
    rep.add_argument("file", type=Path)
    rep.add_argument("--quiet", action="store_true", help="only check the record and print the result")
    rep.add_argument("--step", action="store_true",
                     help="step through the game action by action with every hand face up "
                          "(Enter or n next, b back, h N hand N, e end, q quit)")
    rep.add_argument("--analyze", action="store_true",
                     help="with --step: show each decision's mark from a quick review (see euchre analyze)")

    conv = sub.add_parser("convert", help="convert a record between our format (.toml) and EGN (.egn/.json)")
    conv.add_argument("input", type=Path)
    conv.add_argument("output", type=Path, help="format by extension: .toml ours, .egn or .json EGN, "
                                                ".emn for a match")
    conv.add_argument("--force", action="store_true", help="replace the output file if it exists")

    srv = sub.add_parser(
        # (no abbreviations: `--data DIR` was taken for --database-url and failed as a bad URL)
        "serve", allow_abbrev=False, help="play in the browser and online with friends (a web server)",
        description="A web server for playing in the browser: against computer players, or at a table shared "
                    "with friends by one link per seat. Games are kept in a database (SQLite in the data "
                    "directory by default). See docs/server.md.")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=_port, default=None,
                     help="port (default 8000 when free, else any free port; 0 for any free port)")
    srv.add_argument("--database-url", default=None, metavar="URL",
                     help="SQLAlchemy URL, e.g. postgresql+psycopg://user:pass@host/db (default: an SQLite file "
                          "in the data directory)")
    srv.add_argument("--bot-delay", type=_nonneg_float, default=0.6, metavar="SECONDS",
                     help="pause before a computer player acts at a table with people (default 0.6)")
    srv.add_argument("--away-timeout", type=_nonneg_float, default=60.0, metavar="SECONDS",
                     help="a computer player stands in for a disconnected player after this long (default 60; "
                          "0 never)")
    srv.add_argument("--connect-limit", type=_per_minute, default=20, metavar="N",
                     help="new game connections a minute per client address, after a burst of 20 (default 20; "
                          "0 no limit)")
    srv.add_argument("--create-limit", type=_per_minute, default=30, metavar="N",
                     help="tables opened or started a minute per client address, after a burst of 10 (default 30; "
                          "0 no limit)")
    srv.add_argument("--waiting-expiry", type=_nonneg_float, default=24.0, metavar="HOURS",
                     help="a table not started within this long is abandoned (default 24; 0 never)")
    srv.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                     help="another web origin allowed to open game sockets (repeatable)")
    srv.add_argument("--ws-compression", action="store_true",
                     help="compress WebSocket frames (less bandwidth, more server CPU; default off)")
    srv.add_argument("--hint-limit", type=_per_minute, default=20, metavar="N",
                     help="hints a minute per client address, after a burst of 5 (default 20; 0 no limit)")
    srv.add_argument("--threads-per-hint", type=_positive_int, default=None, metavar="N",
                     help="threads one hint's search is split among (the same hint, sooner; default 2, or 1 on a "
                          "one-core machine)")
    srv.add_argument("--max-tables", type=_nonneg_int, default=2000, metavar="N",
                     help="tables waiting or in play at once (default 2000; 0 no limit)")
    srv.add_argument("--max-tables-per-client", type=_nonneg_int, default=20, metavar="N",
                     help="tables waiting or in play at once opened from one client address (default 20; 0 no "
                          "limit; behind a reverse proxy, forward the client's address, see docs/server.md)")
    srv.add_argument("--max-connections-per-client", type=_nonneg_int, default=256, metavar="N",
                     help="connections one client address may hold open at once (default 256; 0 no limit; "
                          "connections from this machine, such as a reverse proxy's, are not counted)")
    srv.add_argument("--no-warm-up", action="store_true",
                     help="do not prepare the computer players' compiled code while starting (the first expert "
                          "bid or hint on a fresh install then waits a minute or two for it)")
    srv.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                     metavar="LEVEL", help="debug, info, warning (default) or error")
    srv.add_argument("--log-format", default="text", choices=["text", "json"], metavar="FORMAT",
                     help="log lines for people (text, default) or one JSON object a line (json)")

    ru = sub.add_parser("rules", help="list presets and switches, or explain one preset; how to play",
                        description="Without PRESET: the presets and every switch with its value in the american "
                                    "preset. With PRESET (a name or alias) and any switches: those rules in plain "
                                    "words, then the value of every switch. --how-to-play: a short lesson for a "
                                    "first game.")
    ru.add_argument("preset", nargs="?", default=None, metavar="PRESET")
    ru.add_argument("--how-to-play", action="store_true", help="print how to play Euchre, for a first game")
    _add_rule_options(ru)

    p.subcommands = dict(sub.choices)
    return p


def _or_list(words: Sequence[str]) -> str:
    """``a, b or c``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _version() -> str:
    from euchre import __version__

    return __version__


class UsageError(Exception):
    """Options of a command that contradict each other: exit status 2 with the message."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``euchre`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["play", *argv]
    parser = build_parser()
    args = _parse(parser, argv)
    try:
        if args.command == "play":
            return _cmd_play(args, parser)
        if args.command == "games":
            return _cmd_games()
        if args.command == "settings":
            return _cmd_settings(args, parser)
        if args.command == "simulate":
            return _cmd_simulate(args, parser)
        if args.command == "arena":
            return _cmd_arena(args, parser)
        if args.command == "replay":
            return _cmd_replay(args)
        if args.command == "analyze":
            return _cmd_analyze(args)
        if args.command == "rules":
            return _cmd_rules(args)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "convert":
            return _cmd_convert(args, parser)
    except RulesError as e:
        parser.exit(2, f"euchre: error: {rules_error_words(str(e))}\n")
    except RecordError as e:
        print(f"euchre: invalid record: {e}", file=sys.stderr)
        return 1
    except BotProtocolError as e:
        print(f"euchre: an external bot failed: {e}", file=sys.stderr)
        return 1
    except (SaveError, UsageError) as e:
        parser.exit(2, f"euchre: error: {e}\n")
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("euchre: interrupted", file=sys.stderr)
        return 130
    parser.print_help()
    return 2


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535, got {v}")
    return v


def _nonneg_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return v


def _per_minute(text: str) -> int:
    """A rate limit: a whole number a minute, 0 for none."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or a number a minute, got {v}")
    return v


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from euchre.server.core import ServerConfig
        from euchre.server.run import serve
    except ImportError as e:
        # The terminal game and the library need none of the web stack; the server comes with an extra.
        missing = e.name or str(e)
        print(f"euchre: error: the server needs packages that are not installed ({missing}); install them "
              f"with: pip install 'euchre[server]' (from a clone: pip install -e '.[server]')", file=sys.stderr)
        return 2

    config = ServerConfig(bot_delay=args.bot_delay, away_timeout=args.away_timeout,
                          connect_limit=args.connect_limit, create_limit=args.create_limit,
                          waiting_expiry=args.waiting_expiry * 3600, hint_limit=args.hint_limit,
                          max_tables=args.max_tables, max_tables_per_client=args.max_tables_per_client)
    if args.threads_per_hint is not None:
        config.threads_per_hint = args.threads_per_hint
    return serve(host=args.host, port=args.port, database_url=args.database_url, config=config,
                 allow_origins=args.allow_origin, log_level=args.log_level, ws_compression=args.ws_compression,
                 log_format=args.log_format, max_connections_per_client=args.max_connections_per_client,
                 warm_up=not args.no_warm_up)


# --- play ----------------------------------------------------------------------------------------
def _seat_names(players: int, human: int, name: str, level: str | None = None, seed: int | None = None) -> list[str]:
    """The human's name at ``human`` and a computer player's first name at every other seat
    (from ``level``'s cast: :mod:`euchre.bots.persona`); without a level, where they sit."""
    names = [""] * players
    names[human] = name
    others = [(human + i) % players for i in range(1, players)]
    if level is not None:
        cast = computer_names(level, others, seed=seed, taken=[name])
        for seat in others:
            names[seat] = cast[seat]
        return names
    around = {4: ["West", "North", "East"], 3: ["Left", "Right"], 2: ["Opponent"]}.get(
        players, [f"Seat {(human + i) % players}" for i in range(1, players)])
    for seat, other in zip(others, around, strict=True):
        names[seat] = other
    return names


def _make_bots(spec: str, seats: list[int], seed: int | None, rules: Rules | None = None) -> dict[int, Any]:
    """Bots for some seats from ``--bots``: one name for all, one per side (four players), or one
    per seat. ``exec:COMMAND`` is an external program speaking the bot protocol (no commas in it)."""
    from euchre.bots import bot_names, make_bot
    from euchre.bots.base import EXEC_PREFIX, split_bot_list, split_spec

    names = split_bot_list(spec)
    if not names:
        raise RulesError("--bots: give at least one bot name")
    for n in names:
        if n.lower().startswith(EXEC_PREFIX):
            continue
        try:
            kind = split_spec(n)[0]
        except ValueError as e:
            raise RulesError(f"--bots: {e}") from None
        if kind.lower() not in bot_names():
            raise RulesError(f"--bots: unknown bot {kind!r}; bots: {', '.join(bot_names())}")
    if len(names) == 1:
        names = names * len(seats)
    elif rules is not None and rules.players == 4 and len(names) == 2 and len(seats) == 4:
        names = [names[rules.side_of(s)] for s in seats]
    if len(names) != len(seats):
        per_side = " or one per side (2)" if rules is not None and rules.players == 4 and len(seats) == 4 else ""
        raise RulesError(f"--bots: give one bot{per_side}, or one per seat ({len(seats)}), got {len(names)}")
    base = seed if seed is not None else random.randrange(2**31)
    try:
        return {seat: make_bot(n, seed=base * 31 + seat) for seat, n in zip(seats, names, strict=True)}
    except ValueError as e:  # an exec: bot whose program is not found
        raise RulesError(f"--bots: {e}") from None


def _cmd_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``euchre play``: a new game or a saved one, saved again on quit (see :mod:`euchre.saves`)."""
    from rich.console import Console

    from euchre import saves, settings
    from euchre.bots.levels import level_bot

    if args.level is not None and args.bots is not None:
        parser.exit(2, "euchre: error: give --level or --bots, not both\n")
    if not args.name.strip():
        parser.exit(2, "euchre: error: --name: give a name to show at the table, not an empty one\n")
    if args.save is not None:
        _check_save_file(args.save, parser)

    console = Console(no_color=args.no_color, color_system=None if args.no_color else "auto", highlight=False)
    save_path: Path | None = args.save  # None: a new file among the saved games, made at the first save
    resumed: SavedGame | None = None
    if args.resume:
        resumed = _choose_save(args.resume, console, parser)
        if resumed is None:
            return 0
        if resumed.record is None or resumed.game is None:
            parser.exit(2, f"euchre: error: --resume: cannot continue {resumed.path}: {resumed.error}\n")
        rec, game = resumed.record, resumed.game
        if game.is_over:
            parser.exit(2, f"euchre: error: --resume: the game in {resumed.path} is already over "
                           f"({game.summary()}); euchre replay {shlex.quote(str(resumed.path))} shows it\n")
        human = rec.meta.get("human_seat", 0)
        if isinstance(human, bool) or not isinstance(human, int) or not 0 <= human < game.rules.players:
            parser.exit(2, f"euchre: error: --resume: cannot continue {resumed.path}: its human_seat is "
                           f"{human!r}, not a seat from 0 to {game.rules.players - 1}\n")
        names = rec.players or _seat_names(game.rules.players, human, args.name)
        bot_spec = str(rec.meta.get("bots", args.bots or ""))
        level = str(rec.meta.get("level", args.level or DEFAULT_LEVEL))
        if save_path is None and resumed.path.suffix.lower() == ".toml":
            save_path = resumed.path  # an EGN file is never overwritten with our format
        console.print(f"Resuming the game saved in {resumed.path}: {game.summary()}", soft_wrap=True)
        kept = _ignored_on_resume(args, parser, bots_kept="bots" in rec.meta or "level" in rec.meta,
                                  names_kept=bool(rec.players))
        if kept:
            console.print(f"[yellow]Ignored:[/] {', '.join(kept)}: the saved game keeps its rules, seed, seats "
                          "and players.", soft_wrap=True)
    else:
        rules = rules_from_args(args)
        if args.seat >= rules.players:
            parser.exit(2, f"euchre: error: --seat: must be 0..{rules.players - 1} for {rules.players} players\n")
        human = args.seat
        game = Game(rules, seed=args.seed)
        bot_spec = args.bots or ""
        level = args.level or DEFAULT_LEVEL
        names = _seat_names(rules.players, human, args.name, "hard" if bot_spec else level, game.seed)
    others = [s for s in range(game.rules.players) if s != human]
    if bot_spec:
        bots = _make_bots(bot_spec, others, game.seed)
        meta: dict[str, Any] = {"human_seat": human, "bots": bot_spec}
        levels = {seat: str(getattr(bots[seat], "name", "") or "bot") for seat in others}
    else:
        base = game.seed if game.seed is not None else random.randrange(2**31)
        bots = {seat: level_bot(level, seed=base * 31 + seat) for seat in others}
        meta = {"human_seat": human, "level": level}
        levels = dict.fromkeys(others, level)
    if not args.resume and (waiting := saves.list_saves()):  # said once the new game's bots are known good
        which = (f"a saved game ({waiting[0].name}; euchre play --resume continues it)" if len(waiting) == 1
                 else f"{len(waiting)} saved games (euchre games lists them, euchre play --resume continues one)")
        console.print(f"[dim]You have {which}; this new game will be saved separately.[/]")
    prefs, warnings = settings.load()
    for warning in warnings:
        console.print(f"[yellow]Settings:[/] {warning}", soft_wrap=True)
    hint = None if args.no_hints or not prefs.hints else _hint_function()
    if any(getattr(b, "name", "") == "search" for b in bots.values()) or hint is not None:
        with console.status("Preparing the computer players (the first time on a machine: up to a minute or two)..."):
            from euchre.bots.warmup import warm_up

            warm_up()

    from euchre.tui import play_terminal

    match = _match_of(game, resumed.record.meta.get("match") if resumed and resumed.record else None, parser)
    if match is not None:
        game = match.game
        console.print(f"[bold]A match[/]: {match.standing()}.")
    moves_before = len(game.actions())
    # The game is saved here rather than through play_terminal's save_fn, whose message cannot
    # name the file to resume.
    pace = _pace(args.speed or prefs.speed)
    while True:
        if match is not None:
            meta["match"] = _match_meta(match)
        status: str
        try:
            status = play_terminal(game, human, bots, console, names=names, hint_fn=hint, farewell=False,
                                   delay=pace.delay, hand_wait=pace.hand_wait, hand_pause=pace.hand_pause,
                                   levels=levels, autoplay=prefs.autoplay, confirm_alone=prefs.confirm_alone,
                                   four_colour=prefs.four_colour)
        except BotProtocolError as e:
            # The game so far is the player's: it is saved as on quitting, to be resumed once the
            # bot works again.
            from rich.markup import escape

            console.print(f"[bold red]An external bot failed:[/] {escape(str(e))}", soft_wrap=True)
            status = "failed"
            break
        if match is None or status != "finished" or not match.settle():
            break
        # The match goes on: this game goes to the archive, the next is dealt.
        from euchre import saves

        try:
            archive = saves.archive_game(game, players=names, meta=meta)
        except OSError as e:
            console.print(f"[bold red]Could not archive the finished game:[/] {e}")
        else:
            console.print(f"The game's record is saved in {archive}.", soft_wrap=True)
            _drop_saved_copies(game, save_path, resumed)
        sides = [" & ".join(names[s] for s in game.rules.seats_of(side)) for side in range(game.rules.sides)]
        console.print(f"[bold]Match:[/] {match.standing(sides)}.")
        console.rule(f"Game {len(match.games)} of the match")
        game = match.game
        moves_before = 0
        for bot in bots.values():
            bot.reset()
    if match is not None:
        meta["match"] = _match_meta(match)
        if match.is_over:
            sides = [" & ".join(names[s] for s in game.rules.seats_of(side)) for side in range(game.rules.sides)]
            console.print(f"[bold green]{sides[match.winner]} {'take' if '&' in sides[match.winner] else 'takes'} "  # type: ignore[index]
                          f"the match[/]: {match.standing(sides)}.")
            from euchre import saves

            try:
                whole = saves.archive_game(match, players=names, meta={k: v for k, v in meta.items() if k != "match"})
            except OSError as e:
                console.print(f"[bold red]Could not archive the match:[/] {e}")
            else:
                console.print(f"The whole match's record is saved in {whole} (euchre replay shows it).", soft_wrap=True)
    try:
        code = _after_play(game, names, meta, resumed, save_path, console, moves_before, human)
        return 1 if status == "failed" else code
    finally:
        if status == "quit":
            console.print("Goodbye!")


@dataclasses.dataclass(frozen=True)
class Pace:
    """How fast the terminal game shows the computer players' moves and the end of a hand."""

    delay: float
    """Seconds after each computer player's move."""
    hand_wait: bool
    """The end of a hand stays until Enter is pressed."""
    hand_pause: float
    """Otherwise, seconds the end of a hand stays."""


SPEEDS = {"slow": Pace(1.2, True, 0.0), "normal": Pace(0.6, True, 0.0), "fast": Pace(0.15, False, 1.5),
          "instant": Pace(0.0, False, 0.0)}
"""``euchre play --speed``: ``normal`` by default at a terminal, ``instant`` when the input is not
one (a script or a pipe never waits)."""


def _pace(speed: str | None) -> Pace:
    if speed is None:
        speed = "normal" if sys.stdin.isatty() and sys.stdout.isatty() else "instant"
    return SPEEDS[speed]


def _ignored_on_resume(args: argparse.Namespace, parser: argparse.ArgumentParser, *, bots_kept: bool,
                       names_kept: bool) -> list[str]:
    """The options of ``euchre play --resume`` that the saved game overrides (said, not silently
    dropped): the rules and their switches, the seed and seat, the players and the name when the
    save has its own."""
    play = getattr(parser, "subcommands", {}).get("play")
    default = play.get_default if play is not None else (lambda _: None)
    out = []
    if args.rules != default("rules"):
        out.append(f"--rules {args.rules}")
    out += [_switch(f.name) for f in dataclasses.fields(Rules) if getattr(args, f"rule_{f.name}", None) is not None]
    for name in ("seed", "seat"):
        if getattr(args, name) != default(name):
            out.append(f"--{name} {getattr(args, name)}")
    if bots_kept:
        out += [f"--{name} {getattr(args, name)}" for name in ("level", "bots") if getattr(args, name) is not None]
    if names_kept and args.name != default("name"):
        out.append(f"--name {args.name}")
    return out


def _match_of(game: Game, saved: Any, parser: argparse.ArgumentParser) -> Any:
    """The :class:`~euchre.match.Match` the game belongs to (its rules ask for a match), or
    ``None``: a new match whose first game is ``game``, or the saved match (``meta.match`` of
    the record: its seed and the finished games' actions) with ``game`` as its current game."""
    from euchre.match import Match

    if not game.rules.is_match:
        return None
    if saved is None:  # a new match: its games are dealt from the match's seed
        return Match(game.rules, seed=game.seed)
    try:
        m = Match.replay(game.rules, int(saved["seed"]), [list(g) for g in saved.get("games", [])],
                         dealer=int(saved["dealer"]) if "dealer" in saved else None)
    except (KeyError, TypeError, ValueError, EuchreError) as e:
        parser.exit(2, f"euchre: error: --resume: the saved match cannot be rebuilt: {e}\n")
    if m.is_over or m.game.seed != game.seed or m.game.hands[0].deal != game.hands[0].deal:
        parser.exit(2, "euchre: error: --resume: the saved game is not the next game of its saved match\n")
    m.games[-1] = game
    return m


def _match_meta(match: Any) -> dict[str, Any]:
    """What a saved game keeps of its match: the seed, the first dealer and every finished
    game's actions, enough to rebuild the match."""
    return {"seed": match.seed, "dealer": match.games[0].first_dealer,
            "games": [[str(a) for a in g.actions()] for g in match.games[:-1]]}


def _after_play(game: Game, names: list[str], meta: dict[str, Any], resumed: SavedGame | None,
                save_path: Path | None, console: Any, moves_before: int, human: int | None) -> int:
    """Archive a finished game, or save a quit one (never over another game), saying where."""
    from euchre import saves

    if game.is_over:
        return _finish(game, names, meta, resumed, save_path, console)
    if (len(game.actions()) == moves_before and resumed is not None and save_path is not None
            and resumed.path == save_path):
        console.print(f"The game is still saved; {_resume_command(save_path)} continues it.", soft_wrap=True)
        return 0
    if resumed is None and (human is None or not saves.human_has_played(game, human)):
        console.print("Nothing was played yet, so nothing was saved.")
        return 0
    return _save_on_quit(game, names, meta, save_path, console)


def _check_save_file(path: Path, parser: argparse.ArgumentParser) -> None:
    """``--save FILE`` never overwrites a file that is not a game record, and must be writable:
    found out now, not after a game played to nothing."""
    if path.is_dir():
        parser.exit(2, f"euchre: error: --save: {path} is a directory; give a file name\n")
    if not path.exists():
        if not path.parent.is_dir():
            parser.exit(2, f"euchre: error: --save: there is no directory {path.parent}\n")
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            path.unlink()
        except OSError as e:
            parser.exit(2, f"euchre: error: --save: cannot write {path}: {e.strerror or e}\n")
        return
    try:
        with path.open("a"):
            pass
    except OSError as e:
        parser.exit(2, f"euchre: error: --save: cannot write {path}: {e.strerror or e}\n")
    if path.stat().st_size == 0:
        return
    entry = SavedGame.read(path)
    if entry.record is None:
        parser.exit(2, f"euchre: error: --save: {path} exists and is not a game record ({entry.error}); "
                       "it is left alone, choose another file\n")


def _resume_command(path: Path) -> str:
    """What to type to continue the game saved in ``path``: its name if it is among the saved
    games, else the file."""
    from euchre import saves

    if saves.in_saves(path):
        return f"euchre play --resume {path.stem}"
    return f"euchre play --resume {shlex.quote(str(path))}"


def _save_on_quit(game: Game, names: list[str], meta: dict[str, Any], path: Path | None, console: Any) -> int:
    from euchre import saves

    fresh = path is None
    target: Path | None = None
    try:
        target = saves.new_save_path() if path is None else path
        note = saves.write_save(game, target, players=names, meta=meta)
    except OSError as e:
        if fresh and target is not None:
            target.unlink(missing_ok=True)
        console.print(f"[bold red]Could not save the game in {target or saves.saves_dir()}:[/] {e}", soft_wrap=True)
        kept = _save_elsewhere(game, names, meta, console)
        if kept is not None:
            console.print(f"Game saved instead in {kept}; [bold]{_resume_command(kept)}[/] continues it.",
                          soft_wrap=True)
        return 1
    if note:
        console.print(note)
    label = f"as {target.stem} ({target})" if saves.in_saves(target) else f"in {target}"
    console.print(f"Game saved {label}; [bold]{_resume_command(target)}[/] continues it.", soft_wrap=True)
    return 0


def _save_elsewhere(game: Game, names: list[str], meta: dict[str, Any], console: Any) -> Path | None:
    """The data directory refused the game: nothing is lost, it goes to a file of its own in the
    system's temporary directory (``None``, said, if that fails too)."""
    from euchre import saves

    try:
        return saves.fallback_save(game, players=names, meta=meta)
    except OSError as e:
        console.print(f"[bold red]Nor in the temporary directory:[/] {e}. The game is lost.")
        return None


def _finish(game: Game, names: list[str], meta: dict[str, Any], resumed: SavedGame | None, path: Path | None,
            console: Any) -> int:
    """A finished game goes to the archive; its saved copy among the saved games goes away, and a
    file of the player's own (``--save``, ``--resume FILE``) gets the whole game."""
    from euchre import saves

    try:
        archive = saves.archive_game(game, players=names, meta=meta)
    except OSError as e:
        console.print(f"[bold red]Could not archive the finished game in {saves.archive_dir()}:[/] {e}",
                      soft_wrap=True)
        kept = _save_elsewhere(game, names, meta, console)
        if kept is not None:
            console.print(f"Its record is saved instead in {kept} (euchre replay {shlex.quote(str(kept))}).",
                          soft_wrap=True)
        return 1
    console.print(f"The game's record is saved in {archive} (euchre replay {shlex.quote(str(archive))}).",
                  soft_wrap=True)
    if path is not None and not saves.in_saves(path):
        try:
            note = saves.write_save(game, path, players=names, meta=meta)
        except OSError as e:
            console.print(f"[bold red]Could not write the game to {path}:[/] {e} (the archive above has it)",
                          soft_wrap=True)
            return 1
        if note:
            console.print(note)
    _drop_saved_copies(game, path, resumed)
    return 0


def _drop_saved_copies(game: Game, path: Path | None, resumed: SavedGame | None) -> None:
    """A game played to its end leaves the saved games: its saved copy (the file resumed, or the
    one it was saved to) goes, once it is in the archive."""
    from euchre import saves

    for done in {p for p in (path, resumed.path if resumed else None) if p is not None and saves.in_saves(p)}:
        entry = SavedGame.read(done) if done.is_file() else None
        if entry is not None and entry.record is not None and saves.is_continuation(entry.record, game):
            done.unlink()  # it is in the archive now, played to the end


def _choose_save(key: str | bool, console: Any, parser: argparse.ArgumentParser) -> SavedGame | None:
    """The saved game ``--resume`` names; with no name the only one, or the one the player picks
    (a terminal is asked; anything else is told how to choose). ``None``: the player chose none."""
    from euchre import saves

    if key is not True:
        try:
            return saves.find_save(str(key))
        except SaveError as e:
            parser.exit(2, f"euchre: error: --resume: {e}\n")
    found = saves.list_saves()
    if not found:
        parser.exit(2, f"euchre: error: --resume: there is no saved game (in {saves.saves_dir()}); "
                       "euchre play starts a new one\n")
    if len(found) == 1:
        return found[0]
    if not sys.stdin.isatty():
        print(f"{len(found)} saved games:", file=sys.stderr)
        for line in _save_lines(found):
            print(line, file=sys.stderr)
        parser.exit(2, "euchre: error: --resume: there are several saved games; choose one with "
                       f"euchre play --resume NAME or a number, e.g. euchre play --resume {found[0].name} or "
                       "euchre play --resume 1\n")
    console.print(f"{len(found)} saved games:")
    for line in _save_lines(found):
        console.print(line, soft_wrap=True, markup=False)
    while True:
        try:
            answer = input(f"Which one? 1-{len(found)} or a name (Enter for none): ").strip()
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if not answer:
            console.print("No game resumed.")
            return None
        try:
            return saves.find_save(answer, found)
        except SaveError as e:
            console.print(f"{e}")


def _save_lines(found: list[SavedGame]) -> list[str]:
    """Two lines a saved game: number, name, when, hand and score; rules and opponents."""
    lines = []
    for i, entry in enumerate(found, 1):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.saved))
        head = f"{i:>3}) {entry.name}, saved {when}"
        if entry.game is None or entry.record is None:
            lines += [f"{head}: cannot be continued", f"     {entry.error}"]
            continue
        game, rec = entry.game, entry.record
        human = int(rec.meta.get("human_seat", 0))
        names = rec.players or _seat_names(game.rules.players, human, "You")
        rules = game.rules
        sides = [" & ".join(names[s] for s in rules.seats_of(side))
                 for side in range(rules.sides)]
        score = ", ".join(f"{n} {p}" for n, p in zip(sides, game.scores, strict=True))
        if rec.meta.get("bots"):
            opponents = f"bots {rec.meta['bots']}"
        else:
            opponents = f"level {rec.meta.get('level', DEFAULT_LEVEL)}"
        lines += [f"{head}: hand {game.hand_number + 1}, {score}",
                  f"     {rules_words(rules)} ({rules.ending_text()}), opponents: {opponents}"]
    return lines


def _cmd_settings(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``euchre settings``: show the saved settings, or change some and save them."""
    from euchre import settings

    current, warnings = settings.load()
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.reset:
        current = settings.Settings()
    try:
        for change in args.changes:
            current = settings.parse_assignment(current, change)
    except settings.SettingsError as e:
        parser.subcommands["settings"].error(str(e))  # type: ignore[attr-defined]
    if args.reset or args.changes:
        try:
            where = settings.save(current)
        except OSError as e:
            print(f"euchre: error: could not save the settings: {e}", file=sys.stderr)
            return 1
        print(f"Saved in {where}.")
    width = max(len(name) for name, _, _ in settings.describe(current))
    for name, value, what in settings.describe(current):
        print(f"  {name:<{width}}  {value:<8} {what}")
    return 0


def _cmd_games() -> int:
    """``euchre games``: the saved games, then how many finished ones the archive holds."""
    from euchre import saves

    found = saves.list_saves()
    if found:
        print(f"Saved games in {saves.saves_dir()}, the most recent first "
              "(euchre play --resume NAME or NUMBER continues one):")
        for line in _save_lines(found):
            print(line)
    else:
        print(f"No saved games (in {saves.saves_dir()}); euchre play starts one, and quitting saves it.")
    archive = saves.archive_dir()
    finished = len(list(archive.glob("*.toml"))) if archive.is_dir() else 0
    if finished:
        print(f"{finished} finished game{'s' if finished != 1 else ''} in {archive} (euchre replay FILE shows one).")
    return 0


def _hint_function() -> Any:
    """Hints come from :func:`euchre.hints.hint`, seeded from the position: the same answer every
    time it is asked. A bid's deals are split among :func:`~euchre.hints.default_threads`
    threads, which changes when the answer comes, never what it says."""
    from euchre.hints import default_threads, hint

    return functools.partial(hint, threads=default_threads())


# --- simulate ----------------------------------------------------------------------------------
def simulate(rules: Rules, games: int, seed: int, bot_spec: str,
             save_dir: Path | None = None, progress: Any = None) -> dict[str, Any]:
    """Play ``games`` games between bots and gather statistics per side (a dict, JSON-ready).
    Under match rules (``match_games``/``match_wins``) it plays ``games`` matches, and counts
    every game of them and each side's match wins."""
    from euchre.match import Match

    sides = rules.sides
    stats: dict[str, Any] = {
        "rules": rules.to_dict(), "games": games, "seed": seed, "bots": bot_spec,
        "hands": 0, "played_hands": 0, "thrown_in": 0,
        "sides": [{"wins": 0, "points": 0, "hands_made": 0, "made": 0, "marches": 0, "euchred": 0,
                   "euchres": 0, "loners": 0, "loner_marches": 0} for _ in range(sides)],
        "ties": 0,
    }
    if rules.is_match:
        stats["matches"] = games
        for side in stats["sides"]:
            side["match_wins"] = 0
    seats = list(range(rules.players))
    rng = random.Random(seed)
    saved = 0
    for _ in range(games):
        played: list[Game]
        if rules.is_match:
            match = Match(rules, seed=rng.randrange(2**62))
            bots = _make_bots(bot_spec, seats, match.seed, rules)
            _play_out(match, bots)
            played = match.games
            assert match.winner is not None
            stats["sides"][match.winner]["match_wins"] += 1
            if save_dir is not None:
                saved += 1
                notation.save(match, save_dir / f"match-{saved:05d}.toml", meta={"bots": bot_spec})
        else:
            game = Game(rules, seed=rng.randrange(2**62), clock=_sim_clock())
            _play_out(game, _make_bots(bot_spec, seats, game.seed, rules))
            played = [game]
        for game in played:
            _count_game(stats, game)
            if save_dir is not None and not rules.is_match:
                saved += 1
                notation.save(game, save_dir / f"game-{saved:05d}.toml", meta={"bots": bot_spec})
        if progress is not None:
            progress()
    return stats


def _play_out(game: Any, bots: dict[int, Any]) -> None:
    """Bots play a game (or a match) to its end."""
    steps = 0
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat) if isinstance(game, Game) else game.game.view(seat)
        game.push(bots[seat].choose(view))
        steps += 1
        if steps > 1_000_000:
            raise RuntimeError("a simulated game did not end")


def _count_game(stats: dict[str, Any], game: Game) -> None:
    """Add a finished game's hands, points and winner to :func:`simulate`'s statistics."""
    sides = game.rules.sides
    for h in game.hands:
        if not h.is_over or h.misdealt:  # a cancelled deal is not a hand
            continue
        stats["hands"] += 1
        r = h.result()
        assert r is not None
        if r.thrown_in:
            stats["thrown_in"] += 1
            continue
        stats["played_hands"] += 1
        ms = r.maker_side
        assert ms is not None
        side = stats["sides"][ms]
        side["hands_made"] += 1
        if r.made:
            side["made"] += 1
            if r.march:
                side["marches"] += 1
                if h.alone:
                    side["loner_marches"] += 1
        else:
            side["euchred"] += 1
            for other in range(sides):
                if other != ms:
                    stats["sides"][other]["euchres"] += 1
        if h.alone:
            side["loners"] += 1
    for s in range(sides):
        stats["sides"][s]["points"] += game.scores[s] - game.initial_scores[s]
    if game.winner is None:
        stats["ties"] += 1
    else:
        stats["sides"][game.winner]["wins"] += 1


def _check_save_dir(path: Path, parser: argparse.ArgumentParser) -> None:
    """``simulate --save-dir``: a directory (made if missing) that holds no game or match records
    of an earlier run, which the new ones' names would replace."""
    if path.exists() and not path.is_dir():
        parser.exit(2, f"euchre: error: --save-dir: {path} is a file, not a directory\n")
    try:
        path.mkdir(parents=True, exist_ok=True)
        earlier = sorted(p.name for p in path.iterdir() if re.fullmatch(r"(game|match)-\d+\.toml", p.name))
    except OSError as e:
        parser.exit(2, f"euchre: error: --save-dir: cannot use {path}: {e.strerror or e}\n")
    if earlier:
        parser.exit(2, f"euchre: error: --save-dir: {path} already holds records of a run ({earlier[0]}, ...); "
                       "choose another directory or move them\n")


def _sim_clock() -> Any:
    """A simulated clock for timed games: each reading is 2.5 minutes later (a typical hand)."""
    t = [0.0]

    def clock() -> float:
        v = t[0]
        t[0] += 150.0
        return v

    return clock


def _cmd_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    rules = rules_from_args(args)
    _make_bots(args.bots, list(range(rules.players)), 0, rules)  # validate names before playing
    if args.save_dir is not None:
        _check_save_dir(args.save_dir, parser)
    t0 = time.perf_counter()
    stats = simulate(rules, args.games, args.seed, args.bots, args.save_dir)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    what = f"{args.games} matches" if rules.is_match else f"{args.games} games"
    console.print(f"[bold]{what}[/] of {args.rules} ({rules.ending_text()}), bots {args.bots}, "
                  f"seed {args.seed}: {stats['hands']} hands ({stats['played_hands']} played, "
                  f"{stats['thrown_in']} thrown in), {stats['seconds']} s")
    table = Table("", *(f"side {s} (seat{'s' if rules.players == 4 else ''} "
                        f"{', '.join(str(x) for x in rules.seats_of(s))})"
                        for s in range(rules.sides)))
    words = result_labels(rules)
    rows = [("games won", "wins"), ("points", "points"),
            *((words[key], key) for key in ("hands_made", "made", "marches", "euchred", "euchres", "loners",
                                            "loner_marches") if key in words)]
    if rules.is_match:
        rows.insert(0, ("matches won", "match_wins"))
    for label, key in rows:
        table.add_row(label, *(str(d[key]) for d in stats["sides"]))
    console.print(table)
    if stats["ties"]:
        console.print(f"tied games: {stats['ties']}")
    return 0


# --- analyze -----------------------------------------------------------------------------------
def _cmd_analyze(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from euchre import egn
    from euchre.analyze import analyze_games, count_decisions

    if args.file.suffix.lower() == ".emn":
        records = egn.load_match(args.file)
    else:
        rec = notation.load_any(args.file)  # a match record (as euchre play archives a match) too
        records = rec.games if isinstance(rec, notation.MatchRecord) else [rec]
    games = []
    for rec in records:
        try:
            games.append((rec, rec.replay()))
        except RecordError as e:
            raise RecordError(f"{args.file}: {e}") from None
    out = Console(highlight=False)
    err = Console(stderr=True)
    total = sum(count_decisions(g) for _, g in games)
    jobs = args.jobs if args.jobs is not None else default_jobs(ANALYZE_JOB_MEMORY)
    with Progress(console=err, transient=True, disable=args.json or not err.is_terminal) as bar:
        task = bar.add_task("analysing", total=total)
        reviews = analyze_games([(game, rec.players or None) for rec, game in games], samples=args.samples,
                                bid_samples=max(8, args.samples * 2 // 3), seed=args.seed,
                                progress=lambda: bar.advance(task), jobs=jobs)
    if args.json:
        print(json.dumps({"file": str(args.file), "games": [r.to_dict() for r in reviews]}, indent=1))
        return 0
    for gi, (review, (_, game)) in enumerate(zip(reviews, games, strict=True)):
        if len(reviews) > 1:
            out.rule(f"Game {gi + 1}")
        out.print(f"{args.file.name}: {len(game.hands)} hands, {game.summary()}")
        shown = [d for d in review.decisions if args.all or d.mark]
        width = max((len(p) for p in review.players), default=8)
        for d in shown:
            who = review.players[d.seat]
            line = f"hand {d.hand + 1:>2}  {who:<{width}}  {d.words:<32} {d.mark:<2}"
            if d.loss > 0:
                line += f" -{d.loss:.2f}  (best: {d.best_words})"
            out.print(line, soft_wrap=True)
        table = Table(title="Expected points given away, per player")
        for col in ("player", "decisions", "points lost", "per decision", "?!", "?", "??"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for row in review.seat_totals():
            table.add_row(str(row["player"]), str(row["decisions"]), f"{row['points_lost']:.2f}",
                          f"{row['per_decision']:.3f}", str(row["inaccuracies"]), str(row["mistakes"]),
                          str(row["blunders"]))
        out.print(table)
        if review.unreviewed:
            out.print(f"{review.unreviewed} decisions not reviewed: the search does not play them "
                      f"({game.rules.sister_game})", soft_wrap=True)
    out.print("?! costs over 0.05 expected points, ? at least 0.25, ?? at least 1 (see docs/analyze.md)",
              soft_wrap=True)
    return 0


# --- arena -------------------------------------------------------------------------------------
ARENA_DEALS = 1000
"""``euchre arena --deals`` by default."""
ARENA_SPRT_DEALS = 100_000
"""``--deals`` by default with ``--sprt``/``--sprt-elo``: the most the test plays."""


def _hypotheses(text: str, bound: float, unit: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        h0, h1 = (float(x) for x in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give two numbers H0,H1, as in 0,0.1; got {text!r}") from None
    if not (-bound <= h0 <= bound and -bound <= h1 <= bound):  # (NaN and infinities too)
        raise argparse.ArgumentTypeError(f"H0 and H1 must be {unit} from {-bound:g} to {bound:g}, got {text!r}")
    if not h0 < h1:
        raise argparse.ArgumentTypeError(f"H0 must be below H1, got {text!r}")
    return h0, h1


def _arena_hypotheses(text: str) -> tuple[float, float]:
    """``--sprt H0,H1``: points per hand (no hand is worth more than 24: Napoleon's and the double
    deck's largest stakes)."""
    return _hypotheses(text, 24.0, "points per hand")


def _elo_hypotheses(text: str) -> tuple[float, float]:
    """``--sprt-elo ELO0,ELO1``: finite numbers here (the test's own range is said by :class:`Sprt`)."""
    return _hypotheses(text, 1e6, "Elo")


def _arena_probability(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"must be above 0 and below 0.5, got {text!r}")
    return v


def _clock(seconds: float) -> str:
    """``m:ss`` or ``h:mm:ss``."""
    s = round(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def _arena_status_text(st: Any) -> str:
    """The running numbers the progress bar shows after the bar: games (and matches) done, the
    margin with its interval, the test's LLR with its bounds, and the time left."""
    parts = [f"{st.matches} matches, {st.games} games" if st.matches else f"{st.games} games"]
    ci = st.margin_ci
    parts.append(f"margin {st.margin:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else ""))
    if st.sprt is not None:
        llr = "-" if st.llr is None else f"{st.llr:+.2f}"
        parts.append(f"LLR {llr} ({st.sprt.lower:+.2f}, {st.sprt.upper:+.2f})")
    parts.append("time left ?" if st.seconds_left is None else f"{_clock(st.seconds_left)} left")
    return " · ".join(parts)


def _cmd_arena(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``euchre arena A B``: run :func:`euchre.arena.run_arena` with a progress bar on stderr,
    then print a table (or one JSON object)."""
    from rich.console import Console

    from euchre.arena import BackendError, BotError, Sprt, check_bot, run_arena

    if args.rule_deals is not None and (args.rule_match_games is not None or args.rule_match_wins is not None):
        parser.exit(2, "euchre: error: --game-deals: a match (--match-games/--match-wins) is played in games to a "
                       "target score, not in games of N hands; drop --game-deals (--deals sizes the arena run)\n")
    try:
        rules = rules_from_args(args)
    except RulesError as e:  # (the rules' deals are --game-deals here: --deals sizes the run)
        parser.exit(2, f"euchre: error: {rules_error_words(str(e)).replace('(--deals)', '(--game-deals)')}\n")
    for which, name in (("A", args.a), ("B", args.b)):
        try:
            check_bot(name)
        except ValueError as e:
            parser.exit(2, f"euchre: error: argument {which}: {e}\n")
    sprt = None
    if args.sprt is not None and args.sprt_elo is not None:
        parser.exit(2, "euchre: error: --sprt-elo: give --sprt (points per hand) or --sprt-elo (games won), not both\n")
    if args.sprt is None and args.sprt_elo is None:
        if args.alpha is not None or args.beta is not None:
            parser.exit(2, f"euchre: error: {'--alpha' if args.alpha is not None else '--beta'}: is the error rate "
                           "of a sequential test; give --sprt or --sprt-elo with it\n")
    else:
        if args.sprt_elo is not None and rules.sides != 2:
            parser.exit(2, f"euchre: error: --sprt-elo: Elo is between two sides, and these rules have {rules.sides}; "
                           "test the margin with --sprt instead\n")
        h0, h1 = args.sprt if args.sprt is not None else args.sprt_elo
        try:
            sprt = Sprt(h0, h1, alpha=0.05 if args.alpha is None else args.alpha,
                        beta=0.05 if args.beta is None else args.beta,
                        unit="margin" if args.sprt is not None else "elo")
        except ValueError as e:
            parser.exit(2, f"euchre: error: {'--sprt' if args.sprt is not None else '--sprt-elo'}: {e}\n")
    deals = args.deals if args.deals is not None else ARENA_SPRT_DEALS if sprt is not None else ARENA_DEALS

    def run(status: Any = None) -> Any:
        return run_arena(args.a, args.b, rules, deals=deals, seed=args.seed, jobs=args.jobs, sprt=sprt,
                         ray_address=args.ray, status=status)

    err = Console(stderr=True)
    try:
        if args.json or not err.is_terminal:
            result = run()
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("hands"),
                       TextColumn("{task.fields[info]}", markup=False))
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task(f"{args.a} vs {args.b}", total=deals, info="starting")
                result = run(lambda st: bar.update(task, completed=st.done, info=_arena_status_text(st)))
    except BackendError as e:
        parser.exit(2, f"euchre: error: --ray: {e}\n")
    except BotError as e:
        print(f"euchre: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("euchre: arena interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    _print_arena(result, Console(highlight=False))
    return 0


def _arena_sprt_text(t: dict[str, Any]) -> str:
    """How the sequential test ended, with the hypotheses, the LLR and its bounds."""
    if t["unit"] == "elo":
        fmt = "{:+.1f}"
        what = (f"SPRT on games won, H0 {t['h0']:+.1f} Elo ({t['h0_share']:.1%}) vs H1 {t['h1']:+.1f} Elo "
                f"({t['h1_share']:.1%})")
    else:
        fmt = "{:+.3f}"
        what = f"SPRT on the margin, H0 {t['h0']:+.3f} vs H1 {t['h1']:+.3f} points per hand"
    what += f" (alpha {t['alpha']:g}, beta {t['beta']:g}): "
    unit = " Elo" if t["unit"] == "elo" else " points per hand"
    size = (fmt.format(t["h1"]) if t["decision"] == "H0" else fmt.format(t["h0"])) + unit
    if t["decision"] == "H1":
        outcome = f"[bold]H1 accepted[/] after {t['pairs']} pairs: a difference above {size} is established"
    elif t["decision"] == "H0":
        outcome = f"[bold]H0 accepted[/] after {t['pairs']} pairs: a difference of {size} is ruled out"
    else:
        outcome = f"[bold]inconclusive[/] after {t['pairs']} pairs (the --deals limit was reached)"
    llr = "none" if t["llr"] is None else f"{t['llr']:+.2f}"
    return f"{what}{outcome}; LLR {llr}, bounds [{t['lower']:+.2f}, {t['upper']:+.2f}]"


def _print_arena(result: Any, console: Any) -> None:
    """The arena result as a few lines and a table, rich-formatted."""
    from rich.markup import escape
    from rich.table import Table

    d = result.to_dict()
    a, b = d["a"], d["b"]
    rules = result.rules
    per_seating = "/".join(str(h) for h in d["hands_per_seating"])
    match = d.get("match")
    played = (f"{d['pairs']} match pairs = {match['matches']} matches, {d['games']} games" if match
              else f"{d['pairs']} game pairs = {d['games']} games")
    console.print(f"[bold]{escape(a['name'])}[/] (A) vs [bold]{escape(b['name'])}[/] (B), duplicate, "
                  f"{escape(rules_words(rules))} "
                  f"({rules.ending_text()}), seed {d['seed']}: {played}, "
                  f"{d['hands']} hands ({per_seating} per seating), {d['thrown_in']} thrown in "
                  f"({d['thrown_in_rate']:.1%}), {d['seconds']:.1f} s")
    ci = d["margin_ci95"]
    ci_text = f"95% CI [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "no interval (fewer than 2 pairs)"
    # Each for themselves at three seats or more (cut-throat, Napoleon): B holds every seat but A's.
    b_seats = rules.players - 1 if rules.sides == rules.players > 2 else 1
    per = " (B per seat)" if b_seats > 1 else ""
    console.print(f"margin A-B{per}: [bold]{d['margin']:+.3f}[/] points per hand, {ci_text}")
    if ci and ci[0] > 0:
        verdict = f"{escape(a['name'])} (A) is better"
    elif ci and ci[1] < 0:
        verdict = f"{escape(b['name'])} (B) is better"
    else:
        verdict = "no significant difference"
    lo, hi = d["win_share_ci95"]
    console.print(f"A's share of games won: {d['win_share']:.1%}, 95% CI [{lo:.1%}, {hi:.1%}] "
                  f"(even: {d['even_share']:.1%}); pairs swept by A {d['pairs_swept_by_a']}, "
                  f"by B {d['pairs_swept_by_b']}, mixed {d['pairs_mixed']}")
    if match:
        lo, hi = match["share_ci95"]
        console.print(f"A's share of matches won: [bold]{match['share']:.1%}[/], 95% CI [{lo:.1%}, {hi:.1%}] "
                      f"(even: {match['even_share']:.1%}); {match['matches']} matches, "
                      f"{match['games_per_match']:.2f} games per match; pairs swept by A {match['pairs_swept_by_a']}, "
                      f"by B {match['pairs_swept_by_b']}, mixed {match['pairs_mixed']}")
    if d.get("sprt"):
        console.print(_arena_sprt_text(d["sprt"]))
    console.print(f"verdict: {verdict}")
    b_head = f"B {escape(b['name'])}" + (f" ({b_seats} seats)" if b_seats > 1 else "")
    table = Table("", f"A {escape(a['name'])}", b_head)
    words = result_labels(rules)
    rows: list[tuple[str, Any]] = [
        ("points per hand", lambda s: f"{s['points_per_hand']:.3f}"),
        ("points", lambda s: str(s["points"])),
        ("games won", lambda s: str(s["games_won"])),
        *([("matches won", lambda s: str(s["matches_won"]))] if match else []),
        (words["bid_rate"], lambda s: f"{s['bid_rate']:.1%} ({s['maker_hands']})"),
        ("  " + words["make_rate"], lambda s: f"{s['make_rate']:.1%}"),
        ("  " + words["euchred_rate"], lambda s: f"{s['euchred_rate']:.1%}"),
        ("  " + words["march_rate"], lambda s: f"{s['march_rate']:.1%}"),
        *([("  " + words["loner_rate"], lambda s: f"{s['loner_rate']:.1%} ({s['loners']})"),
           ("  " + words["loner_success_rate"], lambda s: f"{s['loner_success_rate']:.1%} ({s['loners_made']})")]
          if "loner_rate" in words else []),
    ]
    if match:
        a, b = {**a, "matches_won": match["a_won"]}, {**b, "matches_won": match["b_won"]}
    for label, fmt in rows:
        table.add_row(label, fmt(a), fmt(b))
    console.print(table)
    if d["shared_games"]:
        console.print(f"games with a shared first place: {d['shared_games']}")


# --- replay --------------------------------------------------------------------------------------
def _cmd_replay(args: argparse.Namespace) -> int:
    """``euchre replay FILE``: a game record (ours or EGN), or a match (our match record or an
    EMN file) game by game."""
    if args.analyze and not args.step:
        raise UsageError("--analyze marks the decisions while stepping through a game: give --step with it "
                        "(euchre analyze FILE reviews a whole game)")
    if args.quiet and args.step:
        raise UsageError("--quiet prints only the result, --step shows every action: give one")
    if args.file.suffix.lower() == ".emn":
        from euchre import egn

        records = egn.load_match(args.file)
    else:
        rec = notation.load_any(args.file)
        if isinstance(rec, notation.GameRecord):
            if args.step:
                _step_record(rec, str(args.file), args.analyze)
            else:
                _print_record(rec, str(args.file), args.quiet)
            return 0
        try:
            match = rec.replay()
        except RecordError as e:
            raise RecordError(f"{args.file}: {e}") from None
        print(f"A match of {len(rec.games)} games: {match.summary()}")
        records = rec.games
    for k, game_rec in enumerate(records, 1):
        print(f"{'=' * 30} game {k} of {len(records)} {'=' * 30}")
        if args.step:
            if _step_record(game_rec, str(args.file), args.analyze, more=k < len(records)) == "quit":
                return 0
            continue
        _print_record(game_rec, str(args.file), args.quiet)
    return 0


def _step_record(rec: notation.GameRecord, source: str, analyze: bool, *, more: bool = False) -> str:
    """``euchre replay FILE --step``: the record in the step viewer (:mod:`euchre.replay_tui`);
    ``"quit"`` when the person quit, ``"next"`` when they went on past the end (``more``: another
    game of a match follows)."""
    from rich.console import Console

    from euchre.replay import timeline_of_record
    from euchre.replay_tui import step_through

    try:
        timeline = timeline_of_record(rec, analyze=analyze, jobs=default_jobs(ANALYZE_JOB_MEMORY))
    except RecordError as e:
        raise RecordError(f"{source}: {e}") from None
    console = Console(highlight=False)
    title = rec.meta.get("title")
    console.print(f"{title or source}: {len(timeline.hands)} hands, {len(timeline.steps)} steps; "
                  f"{timeline.summary}", soft_wrap=True)
    return step_through(timeline, console=console, more=more)


def _print_record(rec: notation.GameRecord, source: str, quiet: bool) -> None:
    try:
        game = rec.replay()
    except RecordError as e:
        raise RecordError(f"{source}: {e}") from None
    names = rec.players or [f"seat {i}" for i in range(game.rules.players)]
    if not quiet:
        title = rec.meta.get("title")
        print(f"{title}" if title else source)
        print(f"rules: {rules_words(game.rules)} ({game.rules.ending_text()})")
        print("players: " + ", ".join(f"{i} {n}" for i, n in enumerate(names)))
        if any(game.initial_scores):
            print(f"starting score: {score_text(game.initial_scores)}")
        running = list(game.initial_scores)
        for i, h in enumerate(game.hands):
            print()
            print(_describe_hand(i, h, names, running))
            notes = rec.hands[i].notes if i < len(rec.hands) else {}
            for line in _notes_lines(notes, names):
                print("  " + line)
    print(f"\n{game.summary()}" if not quiet else game.summary())


def _notes_lines(notes: dict[str, Any], names: list[str]) -> list[str]:
    """What an importer noted about a hand (``HandRecord.notes``), in words: which cards the
    record did not give and how they were supplied."""
    supplied = []
    other = []
    for key, value in notes.items():
        if key == "discard" and value in ("deduced", "filled"):
            supplied.append("the dealer's discard" + (" (worked out from the play)" if value == "deduced" else ""))
        elif key == "filled" and isinstance(value, dict):
            held = [f"{cards} for {_seat_word(seat, names)}" for seat, cards in value.items()]
            supplied.append("so the importer chose cards that fit the play: " + ", ".join(held))
        elif key == "partial":
            if value:
                other.append("the record stops before the end of this hand")
        else:
            other.append(f"note: {key.replace('_', ' ')}: {_plain_words(value)}")
    lines = ["not in the record: " + "; ".join(supplied)] if supplied else []
    return lines + other


def _seat_word(seat: str, names: list[str]) -> str:
    """``p2`` (a seat as records write it) as the player's name."""
    if seat[:1] == "p" and seat[1:].isdigit() and int(seat[1:]) < len(names):
        return names[int(seat[1:])]
    return seat


def _plain_words(value: Any) -> str:
    """Any note value without Python's punctuation."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_plain_words(v) for v in value)
    return str(value)


def _describe_hand(i: int, h: State, names: list[str], running: list[int]) -> str:
    """One hand of a record for people: the deal, then every move and the result in Euchre words
    (the same sentences as the terminal game), and the running score."""
    from euchre.describe import _conjugate, hand_result_words, move_words
    from euchre.view import PlayerView

    dealer = names[h.dealer]
    up = f", up card {h.up_card}" if h.up_card is not None else ""  # the auction games and Napoleon turn none
    lines = [f"Hand {i + 1}: {dealer} {_conjugate(dealer, 'deal')}{up}"]
    for seat, cards in enumerate(h.deal.hands):
        lines.append(f"  {names[seat]:>12}: {' '.join(str(c) for c in cards)}")
    view = PlayerView.of(h, None)  # the moves as everyone saw them (a discard stays face down)
    bids = [move_words(view, k, names) for k, (_, a) in enumerate(view.actions)
            if a is None or a.kind is not Kind.PLAY]
    if bids:
        lines.append("  bidding: " + "; ".join(bids))
    for t_i, t in enumerate(h.tricks):
        plays = ", ".join(f"{names[seat]} {c}" for seat, c in t.plays)
        lines.append(f"  trick {t_i + 1}: {plays}; {names[t.winner]} {_conjugate(names[t.winner], 'win')} it")
    if h.trick:
        lines.append("  (in progress) " + ", ".join(f"{names[seat]} {c}" for seat, c in h.trick))
    if h.is_over:
        assert h.points is not None
        for s, p in enumerate(h.points):
            running[s] += p
        lines.append(f"  {hand_result_words(view, names)}; score {score_text(running)}")
    return "\n".join(lines)


# --- convert -------------------------------------------------------------------------------------
def _cmd_convert(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``euchre convert IN OUT``: a game record between our format and EGN, or our match record
    to EMN; the output is written whole or not at all, and never over a file without ``--force``."""
    from euchre import egn

    out: Path = args.output
    suffix = out.suffix.lower()
    if out.is_dir():
        parser.exit(2, f"euchre: error: output: {out} is a directory; give a file name\n")
    if suffix not in (".toml", ".egn", ".json", ".emn"):
        parser.exit(2, f"euchre: error: output: unknown format {suffix or '(none)'!r}; use .toml, .egn or .json "
                       "(.emn for a match)\n")
    if not out.parent.is_dir():
        parser.exit(2, f"euchre: error: output: there is no directory {out.parent}\n")
    if out.exists() and not args.force:
        parser.exit(2, f"euchre: error: output: {out} exists; --force replaces it\n")
    if args.input.suffix.lower() == ".emn":
        parser.exit(2, "euchre: error: input: an EMN match is read by euchre replay and euchre analyze, but not "
                       "converted (its games carry no match seed to write our match record with)\n")
    rec = notation.load_any(args.input)
    try:
        rec.replay()  # never write out a record that does not replay
    except RecordError as e:
        raise RecordError(f"{args.input}: {e}") from None
    is_match = isinstance(rec, notation.MatchRecord)
    if suffix not in ((".toml", ".emn") if is_match else (".toml", ".egn", ".json")):
        parser.exit(2, "euchre: error: output: " + (
            f"{args.input} is a match record (several games): write it as .toml or .emn\n" if is_match
            else f"{args.input} is one game: write it as .toml, .egn or .json (.emn is for a match)\n"))
    try:
        if isinstance(rec, notation.MatchRecord):
            text = rec.dumps() if suffix == ".toml" else egn.dumps_match(rec)
            what = f"{len(rec.games)} games"
        else:
            text = rec.dumps() if suffix == ".toml" else egn.dumps(rec)
            what = f"{len(rec.hands)} hand{'' if len(rec.hands) == 1 else 's'}"
    except RecordError as e:  # (a valid record that the other format has no words for)
        print(f"euchre: {args.input} cannot be written as {suffix}: {e}", file=sys.stderr)
        return 1
    try:
        notation.write_whole(out, text)
    except OSError as e:
        print(f"euchre: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({what})")
    return 0


# --- rules ---------------------------------------------------------------------------------------
def _switch(name: str) -> str:
    """The command-line switch of a rules field: ``--stick-the-dealer``."""
    return "--" + name.replace("_", "-")


_LONER_LEAD_WORDS = {"dealer_left": "the dealer's left", "loner_left": "the loner's left"}


def value_words(name: str, value: Any) -> str:
    """A rules field's value as a player says it: ``yes``/``no``, ``none``, ``the dealer's left``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name == "loner_lead":
        return _LONER_LEAD_WORDS.get(str(value), str(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def rules_words(rules: Rules) -> str:
    """A preset name, or the nearest preset with the switches that make these rules
    (``american with --stick-the-dealer --march-points 3``): exactly what ``--rules`` takes."""
    name = rules.preset_name()
    if name:
        return name
    best = min(PRESETS, key=lambda p: len(rules.diff(Rules.preset(p))))
    diff = rules.diff(Rules.preset(best))
    switches = []
    for k, v in diff.items():
        if v is None:  # an ending the preset had, cleared by setting another one
            continue
        if isinstance(v, bool):
            switches.append(_switch(k) if v else "--no-" + _switch(k)[2:])
        else:
            switches.append(f"{_switch(k)} {v:g}" if isinstance(v, float) else f"{_switch(k)} {v}")
    return best + " with " + " ".join(switches)


def _print_sections(sections: Sequence[Any]) -> None:
    """Titled paragraphs (``euchre.explain.Section``), wrapped to the terminal (at most 88 columns)."""
    import shutil
    import textwrap

    width = max(40, min(88, shutil.get_terminal_size((88, 24)).columns - 1))
    for section in sections:
        print(section.title)
        for paragraph in section.paragraphs:
            print(textwrap.fill(paragraph, width, initial_indent="  ", subsequent_indent="  "))
        print()


def _cmd_rules(args: argparse.Namespace) -> int:
    from euchre.explain import how_to_play_sections, rules_sections

    switched = any(getattr(args, f"rule_{f.name}", None) is not None for f in dataclasses.fields(Rules))
    if args.preset is None and getattr(args, "rules_given", False):
        args.preset = args.rules  # `euchre rules --rules british` asks for british, as the preset would
    if args.how_to_play:
        _print_sections(how_to_play_sections())
        if args.preset is None and not switched:
            print("euchre rules PRESET explains the rules of one game: "
                  f"{_or_list(list(PRESETS))}.")
            return 0
    if args.preset is None and not switched:
        print("Presets (euchre play --rules NAME):")
        for name in PRESETS:
            aliases = ", ".join(Rules.aliases(name))
            print(f"  {name:<11} {PRESET_DESCRIPTIONS[name]}" + (f"  [aliases: {aliases}]" if aliases else ""))
        print("\nSwitches (each yes/no one also as --no-...), with the american preset's value:")
        values = {f.name: value_words(f.name, getattr(Rules(), f.name)) for f in dataclasses.fields(Rules)}
        width = max(len(v) for v in values.values())
        import shutil
        import textwrap

        indent = " " * (2 + 32 + 1 + width + 2)
        columns = max(len(indent) + 30, shutil.get_terminal_size((120, 24)).columns - 1)
        for k, words in values.items():
            head = f"  {_switch(k):<32} {words:<{width}}  "
            print(textwrap.fill(_FIELD_DOCS.get(k, ""), columns, initial_indent=head, subsequent_indent=indent))
        return 0
    if args.preset is not None:
        given = getattr(args, "rules_given", False)
        if given and Rules.resolve_preset(args.rules) != Rules.resolve_preset(args.preset):
            raise UsageError(f"--rules {args.rules} and the preset {args.preset} name two games; give one")
        args.rules = args.preset
    rules = rules_from_args(args)
    name = Rules.resolve_preset(args.rules)
    print(f"{name}: {PRESET_DESCRIPTIONS[name]}")
    if switched:
        print(f"with the switches given, the rules are: {rules_words(rules)}")
    print()
    _print_sections(rules_sections(rules))
    print("Switches (euchre play --rules NAME --SWITCH), with these rules' values:")
    american = Rules()
    values = {k: value_words(k, v) for k, v in rules.to_dict().items()}
    width = max(len(v) for v in values.values())
    for k, words in values.items():
        mark = "" if getattr(american, k) == getattr(rules, k) else \
            f"(american: {value_words(k, getattr(american, k))})"
        print(f"  {_switch(k):<32} {words:<{width}}  {mark}".rstrip())
    return 0


_DOC_WORDS = {
    "target": "Points to win, 1 to 1000 (a game played for a time, --duration, or a number of deals, --deals, "
              "has no target).",
    "loner_lead": "Who leads against a loner: dealer_left (the dealer's left, the first seat still playing) or "
                  "loner_left (the loner's left).",
}
"""The field docstrings of :class:`Rules` that speak Python, said for players instead."""


def _field_docs() -> dict[str, str]:
    """The attribute docstrings of :class:`Rules`, read from its source for `euchre rules`."""
    import ast
    import inspect

    try:
        tree = ast.parse(inspect.getsource(Rules))
    except (OSError, TypeError):
        return {}
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for a, b in zip(body, body[1:], strict=False):
        if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name) and isinstance(b, ast.Expr) \
                and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str):
            text = " ".join(b.value.value.split()).replace("``", "")
            # the specification's sections are the developers' (RULES.md is not shipped): the
            # help says the rule itself
            text = re.sub(r" \(RULES(?:-FAMILY)?\.md (?:section )?[\d.]+\)", "", text)
            docs[a.target.id] = re.sub(r"\(RULES(?:-FAMILY)?\.md (?:section )?[\d.]+; ", "(", text)
    fields = sorted((f.name for f in dataclasses.fields(Rules) if "_" in f.name), key=len, reverse=True)
    words = [f.name for f in dataclasses.fields(Rules) if "_" not in f.name]  # a switch only after "With"
    for key, text in docs.items():  # field names in the text become the switches people type
        for name in fields:
            text = text.replace(name, _switch(name))
        for name in words:
            text = re.sub(rf"\bWith {name}\b", f"With {_switch(name)}", text)
        docs[key] = _DOC_WORDS.get(key, text)
    return docs


_FIELD_DOCS = _field_docs()

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
