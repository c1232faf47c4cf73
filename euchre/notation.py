"""Game records: the project's own human-readable format (TOML), load, save and replay.

A record is the rules plus, for every hand, the deal (each seat's cards, the up card, the rest of
the stock) and every action with the seat that took it; the result is written too and checked on
load. It replays without the shuffling code, so a record stays valid if the RNG changes. The
format is documented in ``docs/records.md``; an example::

    format = "euchre-record"
    version = 1

    [rules]
    players = 4
    deck = 24
    target = 10
    ...

    [game]
    seed = 7
    first_dealer = 2
    players = ["You", "West", "North", "East"]

    [[hands]]
    dealer = 2
    cards = ["9h Th Jh Qh Kh", "...", "...", "..."]
    up = "Jd"
    stock = "9c Tc Qc"
    actions = ["p3 pass", "p0 order", "p2 discard 9c", "p3 play Jh"]
    points = [1, 0]

    [result]
    scores = [10, 7]
    winners = [0]

The same file saves a game in progress (the last hand has no ``points``), which is how
``euchre play --resume`` continues a game.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from euchre.actions import Action, Kind
from euchre.errors import EuchreError, RecordError, RulesError
from euchre.game import Game
from euchre.rules import Rules
from euchre.state import Deal, State

if TYPE_CHECKING:
    from euchre.match import Match

__all__ = ["GameRecord", "HandRecord", "MatchRecord", "load", "loads", "loads_any", "load_any", "is_match_text",
           "save", "write_whole", "dumps", "FORMAT", "VERSION"]

FORMAT = "euchre-record"
VERSION = 1


@dataclass
class HandRecord:
    """One hand: the deal and the actions, in order, with the seat that took each."""

    deal: Deal
    actions: list[tuple[int, Action]] = field(default_factory=list)
    points: tuple[int, ...] | None = None
    """Points per side as recorded (checked on replay); ``None`` for a hand in progress."""
    elapsed: float | None = None
    """Seconds since the start of the game when the hand ended (timed games)."""
    notes: dict[str, Any] = field(default_factory=dict)
    """Anything an importer wants to keep about the hand (e.g. how a missing card was filled)."""


@dataclass
class GameRecord:
    """A whole game (or a game in progress) as data."""

    rules: Rules
    hands: list[HandRecord]
    first_dealer: int
    seed: int | None = None
    players: list[str] = field(default_factory=list)
    initial_scores: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    """Final scores as recorded (checked on replay)."""
    winners: tuple[int, ...] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    """Free-form facts: title, date, source, the seats' bots, the human's seat..."""

    # --- from and to a game --------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game, *, players: list[str] | None = None,
                  meta: dict[str, Any] | None = None) -> GameRecord:
        """The record of a game (finished or not)."""
        hands = []
        for i, h in enumerate(game.hands):
            hands.append(HandRecord(
                deal=h.deal,
                actions=list(zip(h.seats, h.history, strict=True)),
                points=h.points,
                elapsed=game.elapsed_of(i) if game.rules.duration is not None else None,
            ))
        initial = game.initial_scores if any(game.initial_scores) else None
        return cls(
            rules=game.rules, hands=hands, first_dealer=game.first_dealer, seed=game.seed,
            players=list(players or []), initial_scores=initial,
            scores=tuple(game.scores) if game.is_over else None,
            winners=game.winners if game.is_over else None, meta=dict(meta or {}),
        )

    def replay(self, *, check_result: bool = True, clock: Callable[[], float] | None = None) -> Game:
        """Play the record through the engine and return the game.

        The recorded clock readings end the hands of a timed game where they ended; a game that
        is not over then goes on with ``clock`` (default: the real one), from the elapsed time of
        its last finished hand, so a resumed timed game still ends on time.

        Raises :class:`RecordError` naming the hand and action at the first illegal or
        inconsistent step (wrong seat, illegal play, points or result that disagree).
        """
        expect = self.first_dealer
        for i, h in enumerate(self.hands):
            if h.deal.dealer != expect:
                raise RecordError(f"hand {i + 1}: dealt by seat {h.deal.dealer}, but the deal passes "
                                  f"to the left and seat {expect} deals it")
            if not any(a.kind is Kind.MISDEAL for _, a in h.actions):  # a misdeal: the same dealer again
                expect = (expect + 1) % self.rules.players
        readings = [0.0] + [h.elapsed if h.elapsed is not None else 0.0 for h in self.hands
                            if not any(a.kind is Kind.MISDEAL for _, a in h.actions)]
        recorded = _replay_clock(readings) if self.rules.duration is not None else (lambda: 0.0)
        game = Game(self.rules, seed=self.seed if self.seed is not None else 0,
                    dealer=self.first_dealer, deals=[h.deal for h in self.hands], clock=recorded,
                    scores=self.initial_scores)
        for i, h in enumerate(self.hands):
            if game.is_over:
                raise RecordError(f"hand {i + 1}: the game was already over after hand {i} "
                                  f"({game.summary()})")
            for j, (seat, action) in enumerate(h.actions):
                where = f"hand {i + 1}, action {j + 1} (seat {seat}: {action})"
                if game.state.is_over:
                    raise RecordError(f"{where}: the hand is already over")
                if seat != game.to_act:
                    raise RecordError(f"{where}: it is seat {game.to_act}'s turn, not seat {seat}'s")
                try:
                    game.push(action)
                except EuchreError as e:
                    raise RecordError(f"{where}: {e}") from None
            hand = game.hands[i]
            if h.points is not None:
                if not hand.is_over:
                    raise RecordError(f"hand {i + 1}: the record gives points {list(h.points)} but the "
                                      f"hand is not finished ({len(h.actions)} actions)")
                if check_result and tuple(h.points) != hand.points:
                    raise RecordError(f"hand {i + 1}: the record says {list(h.points)} points, "
                                      f"the rules give {list(hand.points or ())}")
        if not game.is_over:
            game.set_clock(clock or time.monotonic)
        if check_result and self.scores is not None and tuple(self.scores) != tuple(game.scores):
            raise RecordError(f"result: the record says scores {list(self.scores)}, the replay "
                              f"gives {game.scores}")
        if check_result and self.winners is not None and tuple(self.winners) != game.winners:
            raise RecordError(f"result: the record says winners {list(self.winners)}, the replay "
                              f"gives {list(game.winners)}")
        return game

    # --- text ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as plain TOML-ready data."""
        rules = {k: v for k, v in self.rules.to_dict().items() if v is not None}
        game: dict[str, Any] = {"first_dealer": self.first_dealer}
        if self.seed is not None:
            game["seed"] = self.seed
        if self.players:
            game["players"] = list(self.players)
        if self.initial_scores is not None:
            game["initial_scores"] = list(self.initial_scores)
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": rules, "game": game}
        if self.meta:
            out["meta"] = _plain(self.meta)
        hands = []
        for h in self.hands:
            d: dict[str, Any] = {
                "dealer": h.deal.dealer,
                "cards": [" ".join(map(str, cards)) for cards in h.deal.hands],
                "up": str(h.deal.up_card),
                "stock": " ".join(map(str, h.deal.stock)),
                "actions": [f"p{s} {a}" for s, a in h.actions],
            }
            if h.deal.up_card is None:  # Hasenpfeffer: no up card; the unused card is the stock
                del d["up"]
            if h.points is not None:
                d["points"] = list(h.points)
            if h.elapsed is not None:
                d["elapsed"] = _written_elapsed(h.elapsed, self.rules)
            if h.notes:
                d["notes"] = _plain(h.notes)
            hands.append(d)
        out["hands"] = hands
        if self.scores is not None:
            res: dict[str, Any] = {"scores": list(self.scores)}
            if self.winners is not None:
                res["winners"] = list(self.winners)
            out["result"] = res
        return out

    def dumps(self) -> str:
        """The record as TOML text."""
        return tomli_w.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """A record from parsed TOML; raises :class:`RecordError` saying what is wrong where."""
        if data.get("format") != FORMAT:
            raise RecordError(f"not a euchre record: format is {data.get('format')!r}, expected {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r} (this program reads {VERSION})")
        rules_data = _table(data, "rules")
        if any(k in rules_data for k in ("target", "duration", "deals")):
            rules_data = {"target": None, "duration": None, "deals": None, **rules_data}
        try:
            rules = Rules.from_dict(rules_data)
        except RulesError as e:
            raise RecordError(f"[rules]: {e}") from None
        except TypeError as e:
            raise RecordError(f"[rules]: {e}") from None
        game = _table(data, "game")
        first_dealer = _int(game, "first_dealer", "[game]")
        hands_data = data.get("hands", [])
        if not isinstance(hands_data, list):
            raise RecordError("hands: must be a list of [[hands]] tables")
        hands = []
        for i, hd in enumerate(hands_data):
            where = f"hand {i + 1}"
            if not isinstance(hd, dict):
                raise RecordError(f"{where}: must be a table")
            try:
                cards = hd["cards"]
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise RecordError(f"{where}: cards must be a list of strings, one per seat")
                up = str(hd["up"]) if rules.has_up_card or "up" in hd else None
                state = State(rules, dealer=_int(hd, "dealer", where), hands=cards, up_card=up,
                              stock=str(hd.get("stock", "")) if "stock" in hd else None)
            except KeyError as e:
                raise RecordError(f"{where}: missing {e.args[0]!r}") from None
            except EuchreError as e:
                raise RecordError(f"{where}: {e}") from None
            actions = []
            raw = hd.get("actions", [])
            if not isinstance(raw, list):
                raise RecordError(f"{where}: actions must be a list of strings")
            for j, text in enumerate(raw):
                actions.append(_parse_seat_action(text, f"{where}, action {j + 1}"))
            elapsed = hd.get("elapsed")
            if elapsed is not None and (isinstance(elapsed, bool) or not isinstance(elapsed, int | float)
                                        or not 0 <= elapsed < float("inf")):
                raise RecordError(f"{where}: elapsed must be the seconds since the game began, got {elapsed!r}")
            hands.append(HandRecord(
                deal=state.deal, actions=actions,
                points=_ints(hd, "points", where, rules.sides),
                elapsed=float(elapsed) if elapsed is not None else None,
                notes=_subtable(hd, "notes", where),
            ))
        result = _subtable(data, "result", "record")
        seed = game.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f"[game]: seed must be a whole number, got {seed!r}")
        players = game.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(f"[game]: players must be a list of names, got {players!r}")
        if players and len(players) != rules.players:
            raise RecordError(f"[game]: players names {len(players)} seats; the rules seat {rules.players}")
        if not 0 <= first_dealer < rules.players:
            raise RecordError(f"[game]: first_dealer must be a seat from 0 to {rules.players - 1}, got {first_dealer}")
        winners = _ints(result, "winners", "[result]")
        if winners is not None and not all(0 <= w < rules.sides for w in winners):
            raise RecordError(f"[result]: winners must be sides from 0 to {rules.sides - 1}, got {list(winners)}")
        return cls(
            rules=rules, hands=hands, first_dealer=first_dealer, seed=seed, players=list(players),
            initial_scores=_ints(game, "initial_scores", "[game]", rules.sides),
            scores=_ints(result, "scores", "[result]", rules.sides), winners=winners,
            meta=_subtable(data, "meta", "record"),
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Parse TOML text; raises :class:`RecordError`."""
        return cls.from_dict(_toml(text))

    def iter_states(self) -> Iterator[State]:
        """Each hand's final state, replayed (for printing a game hand by hand)."""
        game = self.replay()
        yield from game.hands


@dataclass
class MatchRecord:
    """A match (RULES-FAMILY.md 12.5) as data: its rules, seed and seats once, then each game's
    record in order (the last may be in progress). Written as one file: the ``[match]`` table and
    a ``[[games]]`` table per game holding what a game record holds (``game``, ``hands``,
    ``result``), the rules being the match's. The match score is written too and checked on
    replay, as a game's result is."""

    rules: Rules
    games: list[GameRecord]
    seed: int
    players: list[str] = field(default_factory=list)
    wins: tuple[int, ...] | None = None
    """Game wins per side as recorded (checked on replay)."""
    winner: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_match(cls, match: Match, *, players: list[str] | None = None,
                   meta: dict[str, Any] | None = None) -> MatchRecord:
        """The record of a match (finished or not)."""
        games = [GameRecord.from_game(g, players=players) for g in match.games]
        return cls(rules=match.rules, games=games, seed=match.seed, players=list(players or []),
                   wins=tuple(match.wins), winner=match.winner, meta=dict(meta or {}))

    def replay(self, *, check_result: bool = True) -> Match:
        """Replay every game through the engine and rebuild the match from them; raises
        :class:`RecordError` naming the game (and hand and action) at the first wrong step."""
        from euchre.match import Match

        played = []
        for i, g in enumerate(self.games):
            try:
                played.append(g.replay(check_result=check_result))
            except RecordError as e:
                raise RecordError(f"game {i + 1}: {e}") from None
        try:
            match = Match.from_games(self.rules, played, seed=self.seed)
        except EuchreError as e:
            raise RecordError(str(e)) from None
        if check_result and self.wins is not None and tuple(self.wins) != tuple(match.wins):
            raise RecordError(f"match: the record says game wins {list(self.wins)}, the replay gives {match.wins}")
        if check_result and self.winner != match.winner and (self.winner is not None or match.is_over):
            raise RecordError(f"match: the record says side {self.winner} took it, the replay says {match.winner}")
        return match

    def to_dict(self) -> dict[str, Any]:
        """The record as plain TOML-ready data."""
        head: dict[str, Any] = {"seed": self.seed}
        if self.players:
            head["players"] = list(self.players)
        if self.wins is not None:
            head["wins"] = list(self.wins)
        if self.winner is not None:
            head["winner"] = self.winner
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                               "rules": {k: v for k, v in self.rules.to_dict().items() if v is not None},
                               "match": head}
        if self.meta:
            out["meta"] = _plain(self.meta)
        games = []
        for g in self.games:
            d = g.to_dict()
            for key in ("format", "version", "rules", "meta"):
                d.pop(key, None)
            d["game"].pop("players", None)
            games.append(d)
        out["games"] = games
        return out

    def dumps(self) -> str:
        """The record as TOML text."""
        return tomli_w.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRecord:
        """A match record from parsed TOML; raises :class:`RecordError` saying what is wrong where."""
        head = _table(data, "match")
        seed = _int(head, "seed", "[match]")
        games_data = data.get("games")
        if not isinstance(games_data, list) or not games_data:
            raise RecordError("games: a match record needs one [[games]] table per game")
        players = head.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(f"[match]: players must be a list of names, got {players!r}")
        games = []
        for i, gd in enumerate(games_data):
            if not isinstance(gd, dict):
                raise RecordError(f"game {i + 1}: must be a table")
            try:
                games.append(GameRecord.from_dict({**gd, "format": data.get("format"), "version": data.get("version"),
                                                   "rules": data.get("rules")}))
            except RecordError as e:
                raise RecordError(f"game {i + 1}: {e}") from None
            games[-1].players = [str(p) for p in players]
        rules = games[0].rules
        if not rules.is_match:
            raise RecordError("[rules]: a match record needs match rules (match_games or match_wins)")
        wins = head.get("wins")
        if wins is not None and (not isinstance(wins, list) or not all(isinstance(w, int) for w in wins)):
            raise RecordError("[match]: wins must be a list of whole numbers, one per side")
        winner = head.get("winner")
        if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)):
            raise RecordError(f"[match]: winner must be a side number, got {winner!r}")
        return cls(rules=rules, games=games, seed=seed, players=[str(p) for p in players],
                   wins=tuple(wins) if wins is not None else None, winner=winner,
                   meta=_subtable(data, "meta", "record"))

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        """Parse TOML text; raises :class:`RecordError`."""
        return cls.from_dict(_toml(text))


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RecordError(f"not valid TOML: {e}") from None
    except RecursionError:
        raise RecordError("not a record: its tables or lists are nested too deeply") from None


def _written_elapsed(elapsed: float, rules: Rules) -> float:
    """``elapsed`` to the millisecond for the reader, unless rounding would carry it across the
    timed game's end (3.5996 s of a 3.6 s game written as 3.6 would end the replay a hand early):
    then the reading is kept exactly, so the record replays as it was played."""
    shown = round(elapsed, 3)
    if rules.time_is_up(shown) != rules.time_is_up(elapsed):
        return elapsed
    return shown


def _replay_clock(readings: list[float]) -> Callable[[], float]:
    it = iter(readings)
    last = [0.0]

    def clock() -> float:
        last[0] = next(it, last[0])
        return last[0]

    return clock


def _table(data: dict[str, Any], name: str) -> dict[str, Any]:
    t = data.get(name)
    if not isinstance(t, dict):
        raise RecordError(f"missing [{name}] table")
    return t


def _subtable(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """The optional table ``key`` of ``data`` (empty when absent)."""
    t = data.get(key, {})
    if not isinstance(t, dict):
        raise RecordError(f"{where}: {key} must be a table, got {t!r}")
    return dict(t)


def _ints(data: dict[str, Any], key: str, where: str, length: int | None = None) -> tuple[int, ...] | None:
    """The optional list of whole numbers ``key`` of ``data`` (``length`` of them, if given)."""
    v = data.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise RecordError(f"{where}: {key} must be a list of whole numbers, got {v!r}")
    if length is not None and len(v) != length:
        raise RecordError(f"{where}: {key} must give {length} sides, got {v!r}")
    return tuple(v)


def _int(data: dict[str, Any], key: str, where: str) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"{where}: {key} must be a whole number, got {v!r}")
    return v


def _parse_seat_action(text: Any, where: str) -> tuple[int, Action]:
    if not isinstance(text, str):
        raise RecordError(f"{where}: must be a string like 'p1 play Jh', got {text!r}")
    head, _, rest = text.strip().partition(" ")
    if len(head) < 2 or head[0] != "p" or not (head[1:].isascii() and head[1:].isdigit()):
        raise RecordError(f"{where}: {text!r} must start with the seat, like 'p1 play Jh'")
    try:
        return int(head[1:]), Action.parse(rest)
    except EuchreError as e:
        raise RecordError(f"{where}: {e}") from None


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    """Drop ``None`` values (TOML has no null) recursively."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        if v is None:
            continue
        out[str(k)] = _plain(v) if isinstance(v, dict) else v
    return out


# --- module-level helpers, like json ----------------------------------------------------------
def dumps(game: Game | GameRecord | Match | MatchRecord, **kw: Any) -> str:
    """A game or a match, or its record, as record text."""
    from euchre.match import Match

    if isinstance(game, GameRecord | MatchRecord):
        return game.dumps()
    if isinstance(game, Match):
        return MatchRecord.from_match(game, **kw).dumps()
    return GameRecord.from_game(game, **kw).dumps()


def loads(text: str) -> GameRecord:
    """A record from text: the project's TOML format, or EGN (JSON) when it starts with ``{``.
    A match record is refused with a pointer to :func:`loads_any` (it is not one game)."""
    if text.lstrip().startswith(("{", "[")):
        from euchre import egn

        return egn.loads(text)
    if is_match_text(text):
        raise RecordError("this is a match record (several games): read it with notation.loads_any or "
                          "MatchRecord.loads")
    return GameRecord.loads(text)


def is_match_text(text: str) -> bool:
    """Whether record text in our format is a match record (it has a ``[match]`` table)."""
    return any(line.strip() == "[match]" for line in text.splitlines())


def loads_any(text: str) -> GameRecord | MatchRecord:
    """A game record or a match record, whichever ``text`` is (our TOML or EGN for a game)."""
    if not text.lstrip().startswith(("{", "[")) and is_match_text(text):
        return MatchRecord.loads(text)
    return loads(text)


def load(path: str | Path) -> GameRecord:
    """Read a record file (own format or EGN); raises :class:`RecordError` with the file name."""
    return _read(path, loads)


def load_any(path: str | Path) -> GameRecord | MatchRecord:
    """Read a game or match record file; raises :class:`RecordError` with the file name."""
    return _read(path, loads_any)


def _read(path: str | Path, parse: Callable[[str], Any]) -> Any:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not a text file") from None
    try:
        return parse(text)
    except RecordError as e:
        raise RecordError(f"{p}: {e}") from None


def save(game: Game | GameRecord | Match | MatchRecord, path: str | Path, **kw: Any) -> None:
    """Write a record atomically (a crash mid-write never leaves half a file)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    write_whole(p, dumps(game, **kw))


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a file beside it, then renamed over it
    (a crash or a full disk mid-write leaves the old file, never half a new one)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise

