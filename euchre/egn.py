"""EGN (Euchre Game Notation, JSON) import and export, and EMN match files.

EGN is the public JSON notation of NextSuit-Labs/euchre-game-notation (schema 1.4; 1.0.0 files are
read too). A record lists, per deal, the dealer, the up card, the calls and the tricks in play
order; it does not store the deal, the trick winners or the score. :func:`loads` rebuilds a full
:class:`~euchre.state.Deal` for every hand (each seat's cards are the cards it played; whatever the
record cannot tell, such as the buried card, the hand of a seat that sat out or the stock, is
filled from the cards nobody played, lowest card id first, and written down in
``HandRecord.notes``), replays every action through the engine, and returns a
:class:`~euchre.notation.GameRecord`. Anything malformed, illegal or contradictory raises
:class:`~euchre.errors.RecordError` saying which deal, call or trick and why.

>>> rec = loads(dumps(Game(Rules(stick_the_dealer=True), seed=1)))  # doctest: +SKIP

:func:`dumps` writes a game or record as EGN 1.4 with ``playerCards``, so the deal survives the
round trip. The mapping is documented in ``docs/egn.md``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, Action, Kind, call, discard, play
from euchre.cards import (
    CARDS,
    NO_TRUMP,
    RANKS,
    Card,
    Suit,
    deck_cards,
    deck_mask,
    effective_suit,
    follow_mask,
    left_bower,
    right_bower,
    trick_winner_index,
    trump_word,
)
from euchre.errors import EuchreError, IllegalActionError, RecordError, RulesError
from euchre.game import Game
from euchre.notation import GameRecord, HandRecord, MatchRecord
from euchre.rules import Rules
from euchre.state import Deal, Phase, State

__all__ = ["loads", "load", "from_dict", "dumps", "to_dict", "dump", "load_match", "loads_match", "export_problem",
           "FILE_TYPE", "MATCH_FILE_TYPE", "VERSION"]

FILE_TYPE = "Euchre Game Notation"
MATCH_FILE_TYPE = "Euchre Match Notation"
VERSION = "1.4"
"""The EGN schema version :func:`dumps` writes."""

_VERSION_RE = re.compile(r"^1\.[0-4](\.\d+)?$")
_MATCH_VERSION_RE = re.compile(r"^1\.0(\.\d+)?$")
_LONER_LEADS = {"LEFT_OF_DEALER": "dealer_left", "LEFT_OF_LONER": "loner_left"}
_REFUSED_FLAGS = {
    "farmers": "the farmer's-hand exchange",
    "partners_best": "the partner's best card exchange",
    "go_under": "going under (swapping with the kitty)",
    "joker": "the Joker (Benny) deck",
    "fast_break": "the fast-break scoring",
    "four_trick_tokens": "four-trick tokens",
}
_MIN_RANK_DECK = {9: 24, 7: 32}
_ABSENT: Any = object()
"""A field missing from the file (told apart from a field that is null)."""


# --- reading --------------------------------------------------------------------------------------
def loads(text: str) -> GameRecord:
    """A game record from EGN text; raises :class:`RecordError` saying what is wrong where."""
    return from_dict(_parse_json(text))


def load(path: str | Path) -> GameRecord:
    """Read an EGN file; errors are prefixed with the file name."""
    p = Path(path)
    try:
        return loads(_read(p))
    except RecordError as e:
        raise RecordError(f"{p}: {e}") from None


def loads_match(text: str) -> list[GameRecord]:
    """The games of an EMN match file (text), one record each, in order."""
    data = _parse_json(text)
    _check_file_type(data, "an EMN match file", MATCH_FILE_TYPE, "is a JSON object with",
                     FILE_TYPE, "this is an EGN file of one game, not a match; read it with euchre.egn.load")
    _check_version(data, _MATCH_VERSION_RE, "EMN", "1.0")
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        raise RecordError(_field_problem(data, "metadata", "an object with the match's players"))
    names: dict[str, str] = {}
    for p in meta.get("players", []) or []:
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            names[p["id"]] = str(p.get("name", p["id"]))
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise RecordError(_field_problem(data, "games", "a non-empty list of games"))
    out = []
    for i, g in enumerate(games):
        where = f"game {i + 1}"
        if not isinstance(g, dict) or not isinstance(g.get("gameData"), dict):
            raise RecordError(f"{where} is {_shown(g)}; each game must be an object with the game's EGN "
                              "record in gameData")
        try:
            rec = from_dict(g["gameData"])
        except RecordError as e:
            raise RecordError(f"{where}: {e}") from None
        ids = g.get("players")
        if isinstance(ids, list) and len(ids) == 4:
            unknown = [x for x in ids if x not in names]
            if unknown:
                raise RecordError(f"{where}: {_plural(len(unknown), 'player')} {_names(unknown)} "
                                  f"{'is' if len(unknown) == 1 else 'are'} not in the match's player list "
                                  "(metadata.players)")
            rec.players = [names[x] for x in ids]
            rec.meta["player_ids"] = list(ids)
        rec.meta["match_title"] = meta.get("title", "")
        rec.meta["match_game"] = g.get("gameIndex", i)
        out.append(rec)
    return out


def load_match(path: str | Path) -> list[GameRecord]:
    """Read an EMN match file (``.emn``): one :class:`GameRecord` per game."""
    p = Path(path)
    try:
        return loads_match(_read(p))
    except RecordError as e:
        raise RecordError(f"{p}: {e}") from None


def _read(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError("not a text file") from None


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RecordError("not a record: its objects or arrays are nested too deeply") from None


def _check_file_type(data: Any, kind: str, file_type: str, shape: str, other: str, other_words: str) -> None:
    """``data`` is a JSON object whose ``fileType`` is ``file_type``; else a RecordError saying
    what it is instead (``other``, the sibling format, gets ``other_words``)."""
    want = f'{kind} {shape} "fileType": {_json(file_type)}'
    if not isinstance(data, dict):
        raise RecordError(f"not {kind}: the top level is {_top_kind(data)}; {want}")
    if "fileType" not in data:
        raise RecordError(f"not {kind}: there is no fileType field; {want}")
    ft = data["fileType"]
    if ft == other:
        raise RecordError(other_words)
    if ft != file_type:
        raise RecordError(f"not {kind}: fileType is {_shown(ft)}; {want}")


def from_dict(data: Any) -> GameRecord:
    """A game record from parsed EGN JSON (see :func:`loads`)."""
    _check_file_type(data, "an EGN file", FILE_TYPE, "is a JSON object that starts with", MATCH_FILE_TYPE,
                     "this is an EMN match file, not a single game; read it with euchre.egn.load_match")
    version = _check_version(data, _VERSION_RE, "EGN", "1.0 to 1.4")
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        raise RecordError(_field_problem(data, "metadata", "an object with the players and the initial score"))
    players = _players(meta.get("players", _ABSENT))
    rules = _rules(meta.get("ruleset", {}))
    initial = _score_pair(meta, "initialScore", required=True)
    assert initial is not None  # required=True raises instead of returning None
    final = _score_pair(meta, "finalScore", required=False)
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list):
        raise RecordError(_field_problem(data, "deals", "the list of the game's deals"))
    if not raw_deals:
        raise RecordError("deals is empty: nothing to replay")

    # Stage 1: read every deal on its own (calls, seats, the rebuilt deal), keeping the first error
    # to raise in deal order, after the game-level checks of the deals before it.
    hands: list[_Hand] = []
    failure: RecordError | None = None
    first_dealer = -1
    for i, raw in enumerate(raw_deals):
        try:
            h = _read_deal(rules, raw, i)
        except RecordError as e:
            failure = e
            break
        if i == 0:
            first_dealer = h.deal.dealer
        expect = (first_dealer + i) % 4
        if h.deal.dealer != expect:
            prev = hands[-1].deal.dealer
            failure = RecordError(
                f"deal {i + 1}: dealt by seat {h.deal.dealer}, but the deal passes to the left every "
                f"hand: after seat {prev} dealt deal {i}, seat {expect} deals (a restarted or spliced record)")
            break
        hands.append(h)

    # Stage 2: replay the game through the engine.
    game = Game(rules, seed=0, dealer=first_dealer if hands else 0, deals=[h.deal for h in hands],
                scores=initial, clock=lambda: 0.0) if hands else None
    for i in range(len(raw_deals)):
        if i > 0:
            assert game is not None
            prev_state = game.hands[i - 1]
            if not prev_state.is_over:
                raise RecordError(f"deal {i + 1}: deal {i} stopped {_where_stopped(prev_state)}, but the "
                                  "record goes on; only the last deal of a record may be unfinished")
            if game.is_over:
                raise RecordError(f"deal {i + 1}: the game was already won after deal {i} "
                                  f"(score {_score_text(game.scores)}, {rules.ending_text()})")
        if i == len(hands):
            assert failure is not None
            raise failure
        assert game is not None
        for seat, a, label in hands[i].actions:
            if seat != game.to_act:  # pragma: no cover - the seats come from the engine itself
                raise RecordError(f"{label}: it is seat {game.to_act}'s turn")
            try:
                game.push(a)
            except EuchreError as e:
                raise RecordError(f"{label}: {e}") from None
    assert game is not None
    if final is not None and tuple(final) != tuple(game.scores):
        raise RecordError(f"metadata.finalScore is {list(final)}, but the deals give "
                          f"{list(game.scores)} from initialScore {list(initial)}")
    records = []
    for i, h in enumerate(hands):
        records.append(HandRecord(deal=h.deal, actions=[(s, a) for s, a, _ in h.actions],
                                  points=game.hands[i].points, notes=h.notes))
    info: dict[str, Any] = {"source": "egn", "egn_version": version}
    for key, name in (("title", "title"), ("description", "description"), ("date", "date"),
                      ("gameId", "game_id"), ("matchId", "game_id")):
        if isinstance(meta.get(key), str) and meta[key]:
            info[name] = meta[key]
    over = game.is_over
    return GameRecord(
        rules=rules, hands=records, first_dealer=first_dealer, seed=None, players=players,
        initial_scores=tuple(initial),
        scores=tuple(final) if final is not None else (tuple(game.scores) if over else None),
        winners=game.winners if over else None, meta=info,
    )


def _top_kind(v: Any) -> str:
    """The kind of a JSON value: ``"a JSON array"``, ``"null"``."""
    kind = {list: "array", dict: "object", str: "string", int: "number", float: "number", bool: "boolean"}
    return "null" if v is None else f"a JSON {kind.get(type(v), 'value')}"


def _json(v: Any) -> str:
    """A value as the file writes it (JSON text), cut short when long."""
    try:
        text = json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):  # pragma: no cover - the values come from parsed JSON
        text = str(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(v: Any) -> str:
    """A value found in the file, in words: ``"the string \"Jh\""``, ``"null"``, ``"the number 4"``,
    ``"true"``, ``"an empty list"``, ``"the list [1, 2]"``, ``"an object with the keys a, b"``."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"the number {_json(v)}"
    if isinstance(v, str):
        return "an empty string" if not v else f"the string {_json(v)}"
    if isinstance(v, list):
        return "an empty list" if not v else f"the list {_json(v)}"
    if isinstance(v, dict):
        if not v:
            return "an empty object"
        keys = list(v)
        more = f" and {len(keys) - 5} more" if len(keys) > 5 else ""
        return f"an object with the key{'s' if len(keys) > 1 else ''} {', '.join(map(str, keys[:5]))}{more}"
    return _json(v)  # pragma: no cover - JSON has no other values


def _quoted(v: Any) -> str:
    """A string from the file in quotes (``"Xz"``); any other value in words (:func:`_shown`)."""
    return _json(v) if isinstance(v, str) else _shown(v)


def _field_problem(obj: dict[str, Any], key: str, want: str, where: str = "") -> str:
    """``"there is no deals field; it must be ..."`` or ``"deals is null; it must be ..."``."""
    name = f"{where}.{key}" if where else key
    if key not in obj:
        return f"there is no {name} field; it must be {want}"
    return f"{name} is {_shown(obj[key])}; it must be {want}"


def _check_version(data: dict[str, Any], pattern: re.Pattern[str], kind: str, reads: str) -> str:
    """The file's version, checked against what this program reads."""
    if "version" not in data:
        raise RecordError(f"there is no version field; this program reads {kind} {reads}")
    version = data["version"]
    if not isinstance(version, str):
        raise RecordError(f'version is {_shown(version)}; it must be a string such as "1.0" '
                          f"(this program reads {kind} {reads})")
    if not pattern.match(version):
        raise RecordError(f"unsupported {kind} version {_json(version)} (this program reads {reads})")
    return version


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _names(items: list[Any]) -> str:
    return ", ".join(_quoted(x) for x in items)


def _score_text(scores: list[int] | tuple[int, ...]) -> str:
    return "-".join(str(s) for s in scores)


def _where_stopped(st: State) -> str:
    if st.phase is Phase.PLAY:
        n = len(st.tricks)
        return f"after {n} trick{'s' if n != 1 else ''}" + (" and part of the next" if st.trick else "")
    return f"during {st.phase_words()}"


def _players(v: Any) -> list[str]:
    if v is _ABSENT:
        raise RecordError("there is no metadata.players field; it must be the list of the four players' names")
    if not isinstance(v, list):
        raise RecordError(f"metadata.players is {_shown(v)}; it must be the list of the four players' names")
    if len(v) != 4:
        raise RecordError(f"metadata.players: the four-player game needs 4 players, the file names {len(v)}")
    out = []
    for i, p in enumerate(v):
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, dict) and isinstance(p.get("name"), str):
            out.append(p["name"])
        else:
            raise RecordError(f"metadata.players, player {i + 1} is {_shown(p)}; each player must be a name "
                              'or an object with a "name"')
    return out


def _score_pair(meta: dict[str, Any], key: str, *, required: bool) -> list[int] | None:
    v = meta.get(key)
    if v is None:
        if required and key not in meta:
            raise RecordError(f"there is no metadata.{key} field; it is required: the score before the first "
                              "deal, two whole numbers [seats 0 and 2, seats 1 and 3] such as [0, 0]")
        if required:
            raise RecordError(f"metadata.{key} is null; it must be the score before the first deal, two whole "
                              "numbers [seats 0 and 2, seats 1 and 3] such as [0, 0]")
        return None
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)):
        raise RecordError(f"metadata.{key} is {_shown(v)}; it must be two whole numbers "
                          "[seats 0 and 2, seats 1 and 3] such as [0, 0]")
    return list(v)


def _rules(rs: Any) -> Rules:
    """Our :class:`Rules` for an EGN ruleset; variant flags the engine cannot play are refused."""
    if not isinstance(rs, dict):
        raise RecordError(f"metadata.ruleset is {_shown(rs)}; it must be an object of rule flags")

    def get(key: str, kind: type, default: Any) -> Any:
        v = rs.get(key, default)
        if kind is int and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
            raise RecordError(f"metadata.ruleset.{key} is {_shown(v)}; it must be a whole number, 0 or more")
        if kind is bool and not isinstance(v, bool):
            raise RecordError(f"metadata.ruleset.{key} is {_shown(v)}; it must be true or false")
        return v

    known = {"std", "canadian", "loner_lead", "winning_score", "num_deals", "loner_march_score",
             "loner_euchred_score", "defend_alone", "min_rank", "num_players", "allow_no_trump", *_REFUSED_FLAGS}
    for key in rs:
        if key not in known:
            raise RecordError(f"metadata.ruleset.{key}: unknown rule flag; refusing a game whose rules "
                              "are not known")
    for key, what in _REFUSED_FLAGS.items():
        if get(key, bool, False):
            raise RecordError(f"metadata.ruleset.{key}: {what} is not supported by this engine")
    if get("num_players", int, 4) != 4:
        raise RecordError(f"metadata.ruleset.num_players: the file has {rs['num_players']} players; only the "
                          "four-player game is read")
    min_rank = get("min_rank", int, 9)
    if min_rank not in _MIN_RANK_DECK:
        raise RecordError(f"metadata.ruleset.min_rank: {min_rank} is not supported (9 for the 24-card "
                          "deck, 7 for the 32-card deck)")
    lead = rs.get("loner_lead", "LEFT_OF_DEALER")
    if lead not in _LONER_LEADS:
        raise RecordError(f"metadata.ruleset.loner_lead is {_shown(lead)}; it must be "
                          '"LEFT_OF_DEALER" or "LEFT_OF_LONER"')
    target = get("winning_score", int, 10)
    deals = get("num_deals", int, 0)
    if "winning_score" in rs and "num_deals" in rs and target and deals:
        raise RecordError("metadata.ruleset: winning_score and num_deals are both set; "
                          "a game has exactly one ending")
    if deals:
        ending: dict[str, Any] = {"target": None, "deals": deals}
    elif target:
        ending = {"target": target}
    else:
        raise RecordError("metadata.ruleset: winning_score 0 (no limit) and no num_deals; "
                          "a game needs an end")
    try:
        return Rules.preset(
            "american", deck=_MIN_RANK_DECK[min_rank], stick_the_dealer=get("std", bool, True),
            canadian_loner=get("canadian", bool, False), loner_lead=_LONER_LEADS[lead],
            loner_march_points=get("loner_march_score", int, 4),
            loner_euchre_points=get("loner_euchred_score", int, 2),
            defend_alone=get("defend_alone", bool, False), no_trump=get("allow_no_trump", bool, False), **ending,
        )
    except RulesError as e:  # allow_no_trump with min_rank 7: no trump needs the 24-card deck
        raise RecordError(f"metadata.ruleset: {e}") from None


def _card(text: Any, where: str, deck: int, trump: int | None = None) -> Card:
    """One EGN card: rank then suit (``Jh``, ``Tc``, ``Nc`` for a nine), or ``R``/``L``."""
    if not isinstance(text, str):
        raise RecordError(f'{where} is {_shown(text)}; a card must be a string such as "Jh"')
    t = text.strip()
    if t in ("R", "L"):
        if trump is None:
            raise RecordError(f"{where}: {_json(t)} (the {'right' if t == 'R' else 'left'} bower) needs trump "
                              "to be known, and it is not yet")
        if trump >= NO_TRUMP:
            raise RecordError(f"{where}: {_json(t)} names a bower, and a hand played without trump has none")
        return right_bower(trump) if t == "R" else left_bower(trump)
    if t == "B":
        raise RecordError(f'{where}: the Joker "B" is not supported (ruleset joker)')
    if len(t) == 2:
        r, s = t[0].upper(), t[1]
        if r not in "789TJQKANX" or s not in "cdhsCDHSxtng":
            raise RecordError(f"{where}: not a card: {_json(text)} (EGN writes rank then suit: 9 T J Q K A "
                              "and c d h s, e.g. Jh, Tc, 9s)")
        if r == "X" or s == "x":
            raise RecordError(f"{where}: unknown card {_json(text)}: every card must be known to replay the deal")
        if s in "tng":
            raise RecordError(f"{where}: card {_json(text)} uses a generic suit (trump, next or green), "
                              "which is not supported")
        r = "9" if r == "N" else r
        if r in RANKS and s.lower() in "cdhs":
            c = CARDS[Suit.parse(s.lower()) * 8 + RANKS.index(r)]
            if not deck_mask(deck) >> c & 1:
                raise RecordError(f"{where}: {c} is not in the {deck}-card deck (ruleset min_rank)")
            return c
    raise RecordError(f"{where}: not a card: {_json(text)} (EGN writes rank then suit: 9 T J Q K A and "
                      "c d h s, e.g. Jh, Tc, 9s)")


class _Hand:
    __slots__ = ("deal", "actions", "notes")

    def __init__(self, deal: Deal, actions: list[tuple[int, Action, str]], notes: dict[str, Any]) -> None:
        self.deal = deal
        self.actions = actions
        self.notes = notes


def _call_words(a: Action) -> str:
    if a == PASS:
        return "passed"
    if a.kind in (Kind.ORDER, Kind.ORDER_ALONE):
        return "ordered up" + (" alone" if a.alone else "")
    assert a.trump is not None
    return f"called {trump_word(a.trump)}" + (" alone" if a.alone else "")


def _read_deal(rules: Rules, raw: Any, i: int) -> _Hand:
    """Read one deal: derive each action's seat (the bids on a provisional hand run through the
    engine, the plays from the lead and the trick winners), then rebuild the deal from the cards
    each seat played, filling what the record lacks."""
    where = f"deal {i + 1}"
    init = _initial_state(raw, where)
    dealer, up = _dealer_and_up_card(init, rules, where)
    bidding, playing = _phases(raw, where)
    calls, is_alone = _calls(bidding, where)
    tricks = _tricks(playing, where)
    st = _provisional_hand(rules, dealer, up)
    actions = _replay_calls(st, calls, is_alone, where)
    _check_bidding_end(st, is_alone, bool(tricks), where)
    recorded_discard = _recorded_discard(st, bidding, where)
    discard_at = _hold_discard_place(st, actions, playing is not None or recorded_discard is not None)
    _replay_defence(st, bidding, playing is not None, actions, where)
    initial_lead = playing.get("initialLead") if playing is not None else None
    plays = _read_tricks(st, tricks, initial_lead, recorded_discard, actions, where)
    return _rebuild_deal(st, init, plays, recorded_discard, discard_at, actions, where)


# Reading a deal, one step each, in the order the checks are made.
def _initial_state(raw: Any, where: str) -> dict[str, Any]:
    """The deal's ``initialState`` object."""
    if isinstance(raw, str):
        raise RecordError(f"{where}: condensed (Base64) deals are not supported")
    if not isinstance(raw, dict):
        raise RecordError(f"{where} is {_shown(raw)}; a deal must be an object")
    init = raw.get("initialState", raw.get("initial_state", _ABSENT))
    if not isinstance(init, dict):
        if init is _ABSENT:
            raise RecordError(f"{where}: there is no initialState field; it must give the dealer and the up card")
        raise RecordError(f"{where}: initialState is {_shown(init)}; it must be an object with the dealer "
                          "and the up card")
    return init


def _dealer_and_up_card(init: dict[str, Any], rules: Rules, where: str) -> tuple[int, Card]:
    if "dealer" not in init:
        raise RecordError(f"{where}: initialState has no dealer; it must be a seat 0 to 3")
    dealer = init["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise RecordError(f"{where}: initialState.dealer is {_shown(dealer)}; it must be a seat 0 to 3")
    if "upCard" not in init:
        raise RecordError(f"{where}: initialState has no upCard")
    return dealer, _card(init["upCard"], f"{where}, upCard", rules.deck)


def _phases(raw: dict[str, Any], where: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The bidding phase (empty when absent) and the trick-play phase (``None`` when absent)."""
    phases = raw.get("phases", [])
    if not isinstance(phases, list):
        raise RecordError(f"{where}: phases is {_shown(phases)}; it must be a list")
    bidding: dict[str, Any] | None = None
    playing: dict[str, Any] | None = None
    order = "a deal has one EUCHRE_BIDDING phase, then at most one TRICK_PLAY phase"
    for k, ph in enumerate(phases):
        if not isinstance(ph, dict):
            raise RecordError(f"{where}: phase {k + 1} is {_shown(ph)}, not an object ({order})")
        if "type" not in ph:
            raise RecordError(f"{where}: phase {k + 1} has no type ({order})")
        kind = ph["type"]
        if not isinstance(kind, str):
            raise RecordError(f"{where}: phase {k + 1} has the type {_shown(kind)} ({order})")
        if kind == "EUCHRE_BIDDING" and bidding is None and playing is None:
            bidding = ph
        elif kind == "TRICK_PLAY" and playing is None and bidding is not None:
            playing = ph
        else:
            raise RecordError(f"{where}: unexpected phase {_json(kind)} ({order})")
    return bidding or {}, playing


def _calls(bidding: dict[str, Any], where: str) -> tuple[list[Any], bool]:
    """The bidding's calls and its ``isAlone`` flag."""
    calls = bidding.get("calls", [])
    if not isinstance(calls, list):
        raise RecordError(f"{where}: calls is {_shown(calls)}; it must be a list")
    is_alone = bidding.get("isAlone", False)
    if not isinstance(is_alone, bool):
        raise RecordError(f"{where}: isAlone is {_shown(is_alone)}; it must be true or false")
    if bidding.get("cardExchanges") or bidding.get("card_exchanges"):
        raise RecordError(f"{where}: cardExchanges (farmers / partner's best / go under) are not supported")
    return calls, is_alone


def _tricks(playing: dict[str, Any] | None, where: str) -> list[Any]:
    tricks = playing.get("tricks", []) if playing is not None else []
    if not isinstance(tricks, list):
        raise RecordError(f"{where}: tricks is {_shown(tricks)}; it must be a list")
    return tricks


def _provisional_hand(rules: Rules, dealer: int, up: Card) -> State:
    """A hand with the record's dealer and up card and arbitrary cards: the bids are checked by
    the engine on it (they do not depend on the cards)."""
    others = [c for c in deck_cards(rules.deck) if c != up]
    size = rules.hand_size
    return State(rules, dealer=dealer, hands=[others[size * k:size * (k + 1)] for k in range(rules.players)],
                 up_card=up)


def _replay_calls(st: State, calls: list[Any], is_alone: bool, where: str) -> list[tuple[int, Action, str]]:
    """Push every call on the provisional hand: (seat, action, label) for each."""
    actions: list[tuple[int, Action, str]] = []
    for k, text in enumerate(calls):
        if st.phase not in (Phase.BID1, Phase.BID2):
            what = "the hand was thrown in" if st.phase is Phase.OVER else "trump was already made"
            raise RecordError(f"{where}, call {k + 1}: {_quoted(text)} comes after the bidding ended ({what})")
        seat = st.to_act
        a = _call_action(st.phase, text, is_alone, f"{where}, call {k + 1} (seat {seat})")
        label = f"{where}, call {k + 1}: seat {seat} {_call_words(a)}"
        try:
            st.push(a)
        except IllegalActionError as e:
            raise RecordError(f"{label}: {e}") from None
        actions.append((seat, a, label))
    return actions


def _check_bidding_end(st: State, is_alone: bool, has_tricks: bool, where: str) -> None:
    made = st.maker >= 0
    if is_alone and not made and st.phase is Phase.OVER:
        raise RecordError(f"{where}: isAlone is set, but every call is a pass")
    if has_tricks and not made:
        raise RecordError(f"{where}: tricks are recorded, but the calls end before anyone made trump")


def _recorded_discard(st: State, bidding: dict[str, Any], where: str) -> Card | None:
    """The dealer's discard if the record gives it (it then must be the dealer's turn to discard)."""
    if bidding.get("discard") in (None, ""):
        return None
    card = _card(bidding["discard"], f"{where}, discard", st.rules.deck, st.trump)
    if st.phase is not Phase.DISCARD:
        if st.maker < 0:
            why = "nobody made trump"
        elif not st.is_active(st.dealer):
            why = "the dealer sits out while the partner plays alone"
        elif not st.up_card_taken:
            why = "trump was named in round 2, so nobody took the up card"
        else:  # pragma: no cover
            why = "the dealer did not take the up card"
        raise RecordError(f"{where}: a discard ({card}) is recorded, but {why}")
    return card


def _hold_discard_place(st: State, actions: list[tuple[int, Action, str]], going_on: bool) -> int:
    """When the hand goes on past the dealer's discard, push a placeholder discard (the real card is
    known only once the deal is rebuilt) and return its index in ``actions``; else -1."""
    if st.phase is not Phase.DISCARD or not going_on:
        return -1
    placeholder = st.legal_actions()[0]
    st.push(placeholder)
    actions.append((st.dealer, placeholder, ""))
    return len(actions) - 1


def _replay_defence(st: State, bidding: dict[str, Any], has_play: bool, actions: list[tuple[int, Action, str]],
                    where: str) -> None:
    """Push the defenders' choices to defend alone against a loner (``aloneDefender``)."""
    lone_def = bidding.get("aloneDefender", -1)
    if lone_def is None:
        lone_def = -1
    if isinstance(lone_def, bool) or not isinstance(lone_def, int) or not -1 <= lone_def < 4:
        raise RecordError(f"{where}: aloneDefender is {_shown(lone_def)}; it must be a seat 0 to 3, or -1 "
                          "for nobody")
    if st.phase is Phase.DEFEND and (has_play or "aloneDefender" in bidding):
        while st.phase is Phase.DEFEND:
            seat = st.to_act
            a = DEFEND_ALONE if seat == lone_def else PASS
            st.push(a)
            verb = "defends alone" if a == DEFEND_ALONE else "does not defend alone"
            actions.append((seat, a, f"{where}: seat {seat} {verb}"))
    if lone_def >= 0 and st.lone_defender != lone_def:
        why = ("the ruleset does not allow defend_alone" if not st.rules.defend_alone
               else "nobody plays alone" if not st.alone
               else f"seat {lone_def} is not a defender" if st.side_of(lone_def) == st.side_of(st.maker)
               else "the record stops before the defence")
        raise RecordError(f"{where}: aloneDefender is seat {lone_def}, but {why}")


@dataclass(slots=True)
class _Plays:
    """The tricks of a deal as read."""

    by_seat: list[list[Card]]
    """Each seat's cards, in the order it played them."""
    voids: dict[int, int] = field(default_factory=dict)
    """Per seat, the mask of cards it cannot have held: every card of a suit it failed to follow
    (what :meth:`~euchre.view.PlayerView.voids` computes from a hand's tricks)."""
    complete: bool = False
    """All five tricks are recorded in full."""

    def cannot_hold(self, seat: int, c: Card) -> bool:
        return bool(self.voids.get(seat, 0) >> c & 1)


def _next_to_play(st: State, seat: int) -> int:
    """The seat that plays after ``seat`` in a trick: the next active seat clockwise."""
    nxt = (seat + 1) % st.n
    while not st.is_active(nxt):
        nxt = (nxt + 1) % st.n
    return nxt


def _read_tricks(st: State, tricks: list[Any], initial_lead: Any, recorded_discard: Card | None,
                 actions: list[tuple[int, Action, str]], where: str) -> _Plays:
    """Give every recorded card its seat (the lead, then clockwise; a trick's winner leads the
    next), check it against what the record says elsewhere, and append the plays to ``actions``.
    Whether each play follows suit is left to the engine, once the deal is rebuilt."""
    rules = st.rules
    trump = st.trump
    up, dealer = st.up_card, st.dealer
    plays = _Plays([[] for _ in range(rules.players)])
    played: dict[Card, int] = {}
    active = rules.players - len(st.sitting_out)
    seat = st.to_act  # the first lead
    for t, trick in enumerate(tricks):
        tw = f"{where}, trick {t + 1}"
        if st.phase is not Phase.PLAY or t == rules.hand_size:
            raise RecordError(f"{tw}: the hand is already over after 5 tricks")
        assert trump is not None  # play has begun
        if not isinstance(trick, list) or not trick:
            raise RecordError(f"{tw} is {_shown(trick)}; a trick must be a non-empty list of cards")
        if len(trick) > active or (len(trick) < active and t != len(tricks) - 1):
            sits = sorted(st.sitting_out)
            who = f" (sitting out: seat {', '.join(map(str, sits))})" if sits else ""
            raise RecordError(f"{tw}: has {len(trick)} cards, but {active} seats play{who}")
        order: list[int] = []
        cards: list[Card] = []
        for j, text in enumerate(trick):
            c = _card(text, f"{tw}, card {j + 1}", rules.deck, trump)
            if t == 0 and j == 0 and isinstance(initial_lead, int) and initial_lead != seat:
                raise RecordError(f"{tw}: initialLead is seat {initial_lead}, but seat {seat} leads "
                                  "by the lead rule")
            label = f"{tw}: seat {seat} played {c}"
            if c in played:
                raise RecordError(f"{label}: {c} was already played at trick {played[c] + 1}")
            if c == up and not (st.up_card_taken and seat == dealer):
                if st.up_card_taken:
                    why = f"only the dealer (seat {dealer}) holds it after taking it up"
                elif not st.is_active(dealer):
                    why = "the dealer sits out, so it stays in the stock"
                else:
                    why = "it was turned down and stays in the stock"
                raise RecordError(f"{label}: that is the up card, and {why}")
            if c == recorded_discard:
                raise RecordError(f"{label}: that is the dealer's recorded discard")
            if cards and effective_suit(c, trump) != effective_suit(cards[0], trump):
                led = effective_suit(cards[0], trump)
                plays.voids[seat] = plays.voids.get(seat, 0) | follow_mask(trump, led)
            played[c] = t
            plays.by_seat[seat].append(c)
            actions.append((seat, play(c), label))
            order.append(seat)
            cards.append(c)
            seat = _next_to_play(st, seat)
        if len(cards) == active:
            seat = order[trick_winner_index(cards, trump)]
            plays.complete = t == rules.hand_size - 1
    return plays


class _Holdings:
    """The cards known to be somewhere in a deal being rebuilt: each seat's, and who owns each card."""

    __slots__ = ("where", "known", "owner")

    def __init__(self, where: str, players: int) -> None:
        self.where = where
        self.known: list[list[Card]] = [[] for _ in range(players)]
        self.owner: dict[Card, str] = {}

    def place(self, seat: int, c: Card, how: str) -> None:
        """``c`` was dealt to ``seat`` (``how`` says how we know)."""
        if c in self.owner and self.owner[c] != f"seat {seat}":
            raise RecordError(f"{self.where}: {c} {how} of seat {seat}, but it is also {self.owner[c]}")
        if c not in self.known[seat]:
            self.known[seat].append(c)
            self.owner[c] = f"seat {seat}"


def _rebuild_deal(st: State, init: dict[str, Any], plays: _Plays, recorded_discard: Card | None,
                  discard_at: int, actions: list[tuple[int, Action, str]], where: str) -> _Hand:
    """The full deal: the cards each seat played or is given, the rest filled (see ``notes``)."""
    rules, dealer, up = st.rules, st.dealer, st.up_card
    assert up is not None  # EGN records games with an up card only
    held = _Holdings(where, rules.players)
    held.owner[up] = "the up card"
    for seat, cards in enumerate(plays.by_seat):
        for c in cards:
            if not (c == up and seat == dealer):
                held.place(seat, c, "is played")
    if recorded_discard is not None and recorded_discard != up:
        held.place(dealer, recorded_discard, "is the discard")
    kitty = _kitty(init, held, st)
    given = _player_cards(init, held, st)
    for seat, cards in enumerate(held.known):
        if len(cards) > rules.hand_size:
            raise RecordError(f"{where}: seat {seat} would have been dealt {len(cards)} cards "
                              f"({' '.join(map(str, cards))}); a hand has 5")
    pool = [c for c in deck_cards(rules.deck) if c not in held.owner]
    notes: dict[str, Any] = {}
    buried = recorded_discard
    bury = discard_at >= 0 and buried is None  # the buried card is not recorded
    if bury:
        buried, notes["discard"] = _deduce_discard(held, plays, st)
        bury = buried is None
    filled = _fill_hands(held, plays, pool, bury, notes, st)
    if bury:
        buried = filled
    if discard_at >= 0:
        assert buried is not None
        actions[discard_at] = (dealer, discard(buried), f"{where}: seat {dealer} discarded {buried}")
    if not (st.is_over or plays.complete):
        notes["partial"] = True
    try:
        deal = State(rules, dealer=dealer, hands=[given.get(s) or sorted(h) for s, h in enumerate(held.known)],
                     up_card=up, stock=kitty + pool).deal
    except EuchreError as e:  # pragma: no cover - the checks above catch every bad deal
        raise RecordError(f"{where}: {e}") from None
    return _Hand(deal, actions, notes)


def _deduce_discard(held: _Holdings, plays: _Plays, st: State) -> tuple[Card | None, str]:
    """The dealer's buried card when the record does not give it, and how it is known
    (``"deduced"`` or ``"filled"``); ``None`` when it must come from the unplayed cards."""
    dealer, up = st.dealer, st.up_card
    assert up is not None  # EGN records games with an up card only
    mine = held.known[dealer]
    cands = [c for c in [*mine, up] if c not in plays.by_seat[dealer]]
    forced = [c for c in cands if plays.cannot_hold(dealer, c)]
    if forced:
        return forced[0], "deduced"
    if len(mine) == st.rules.hand_size:
        if len(cands) == 1:
            return cands[0], "deduced"
        return min(c for c in cands if c != up), "filled"
    return None, "filled"


def _fill_hands(held: _Holdings, plays: _Plays, pool: list[Card], bury: bool, notes: dict[str, Any],
                st: State) -> Card | None:
    """Complete every seat's hand from ``pool`` (the cards nobody is known to hold), never giving a
    seat a card of a suit it failed to follow, or its plays would turn illegal; with ``bury``, the
    dealer's buried card too, which is returned. The cards given are written in ``notes``."""
    dealer = st.dealer
    slots: list[int] = [-1] if bury else []  # -1: the dealer's buried card
    for seat, cards in enumerate(held.known):
        slots.extend([seat] * (st.rules.hand_size - len(cards) - (1 if bury and seat == dealer else 0)))
    fill = _match(slots, pool, lambda seat, c: seat < 0 or not plays.cannot_hold(seat, c))
    if fill is None:
        raise RecordError(f"{held.where}: the unplayed cards cannot complete the hands without making a "
                          "recorded play illegal (a seat failed to follow a suit it must still hold)")
    buried: Card | None = None
    filled: dict[str, list[Card]] = {}
    for seat, c in zip(slots, fill, strict=True):
        owner_seat = dealer if seat < 0 else seat
        if seat < 0:
            buried = c
        held.known[owner_seat].append(c)
        filled.setdefault(f"p{owner_seat}", []).append(c)
        pool.remove(c)
    if filled:
        notes["filled"] = {k: " ".join(map(str, sorted(v))) for k, v in sorted(filled.items())}
    return buried


def _kitty(init: dict[str, Any], held: _Holdings, st: State) -> list[Card]:
    """The kitty cards the record gives (the stock beyond the up card), if any."""
    kitty: list[Card] = []
    raw_kitty = init.get("kitty")
    if not isinstance(raw_kitty, list):
        return kitty
    for k, text in enumerate(raw_kitty):
        if text in ("", None):
            continue
        c = _card(text, f"{held.where}, kitty card {k + 1}", st.rules.deck, st.trump)
        if c in held.owner:
            raise RecordError(f"{held.where}: kitty card {c} is also {held.owner[c]}")
        held.owner[c] = "in the kitty"
        kitty.append(c)
    return kitty


def _player_cards(init: dict[str, Any], held: _Holdings, st: State) -> dict[int, list[Card]]:
    """The seats whose five dealt cards the record gives (``playerCards``), in the record's order;
    every card given, even in a partial list, is placed in ``held``."""
    where, up = held.where, st.up_card
    raw_pc = init.get("playerCards", init.get("player_cards"))
    given: dict[int, list[Card]] = {}
    if raw_pc is None:
        return given
    if not isinstance(raw_pc, list) or len(raw_pc) != 4 or not all(isinstance(x, list) for x in raw_pc):
        raise RecordError(f"{where}: playerCards is {_shown(raw_pc)}; it must be four lists of cards, "
                          "one per seat")
    for seat, cards in enumerate(raw_pc):
        if len(cards) > 5:
            raise RecordError(f"{where}: playerCards gives seat {seat} {len(cards)} cards; a hand has 5")
        parsed = [_card(x, f"{where}, playerCards of seat {seat}", st.rules.deck, st.trump) for x in cards]
        for c in parsed:
            if c == up:
                raise RecordError(f"{where}: playerCards gives seat {seat} the up card {up}")
            held.place(seat, c, "is in the playerCards")
        if len(parsed) == 5:
            given[seat] = parsed
            extra = [c for c in held.known[seat] if c not in parsed]
            if extra:
                raise RecordError(f"{where}: seat {seat} plays or discards {' '.join(map(str, extra))}, "
                                  f"not among its playerCards {' '.join(map(str, parsed))}")
    return given


def _match(slots: list[int], cards: list[Card], fits: Any) -> list[Card] | None:
    """A card for every slot, each card used once, ``fits(slot, card)`` for all: a bipartite
    matching (augmenting paths), trying cards lowest id first so the result is deterministic."""
    given: dict[Card, int] = {}  # card -> slot index

    def assign(i: int, seen: set[Card]) -> bool:
        for c in cards:  # a free card first, so that easy slots take the lowest cards in order
            if c not in given and fits(slots[i], c):
                given[c] = i
                return True
        for c in cards:  # else move another slot's card along an augmenting path
            if c in seen or not fits(slots[i], c):
                continue
            seen.add(c)
            if assign(given[c], seen):
                given[c] = i
                return True
        return False

    for i in range(len(slots)):
        if not assign(i, set()):
            return None
    by_slot = {i: c for c, i in given.items()}
    return [by_slot[i] for i in range(len(slots))]


def _call_action(phase: Phase, text: Any, is_alone: bool, where: str) -> Action:
    if text == "Pass":
        return PASS
    if phase is Phase.BID1:
        if text == "Order":
            return ORDER_ALONE if is_alone else ORDER
        if isinstance(text, str) and text in "cdhs" and len(text) == 1:
            raise RecordError(f'{where}: {_json(text)} names a suit in round 1, where only "Pass" or "Order" '
                              "is possible")
    else:
        if isinstance(text, str) and len(text) == 1 and text in "cdhs":
            return call(Suit.parse(text), alone=is_alone)
        if text == "Order":
            raise RecordError(f'{where}: "Order" in round 2, where a seat passes or names a suit')
    if text == "n":
        if phase is Phase.BID1:
            raise RecordError(f'{where}: the no-trump call "n" in round 1, where only "Pass" or "Order" is possible')
        return call(NO_TRUMP, alone=is_alone)  # the engine refuses it unless the ruleset allows no trump
    if text == "x":
        raise RecordError(f'{where}: the unknown call "x" cannot be replayed')
    raise RecordError(f'{where}: not an EGN call: {_quoted(text)} (a call is "Pass", "Order", or a suit '
                      '"c", "d", "h" or "s")')


# --- writing --------------------------------------------------------------------------------------
def to_dict(source: Game | GameRecord, *, players: list[str] | None = None,
            meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A game or record as EGN 1.4 data (see :func:`dumps`)."""
    rec = source if isinstance(source, GameRecord) else GameRecord.from_game(source, players=players, meta=meta)
    rules = rec.rules
    _check_exportable(rules)
    game = rec.replay(check_result=False)
    names = list(players or rec.players or [f"Player {i}" for i in range(4)])
    if len(names) != 4:
        raise RecordError(f"EGN needs 4 player names, got {len(names)}: {_names(names) or 'none'}")
    info = {**rec.meta, **(meta or {})}
    md: dict[str, Any] = {}
    for key, name in (("game_id", "gameId"), ("title", "title"), ("description", "description"),
                      ("date", "date")):
        if isinstance(info.get(key), str) and info[key]:
            md[name] = info[key]
    md["players"] = names
    md["initialScore"] = list(rec.initial_scores or (0, 0))
    if game.is_over:
        md["finalScore"] = list(game.scores)
    ruleset: dict[str, Any] = {
        "std": rules.stick_the_dealer, "canadian": rules.canadian_loner,
        "loner_lead": {v: k for k, v in _LONER_LEADS.items()}[rules.loner_lead],
    }
    if rules.deals is not None:
        ruleset["num_deals"] = rules.deals
    else:
        ruleset["winning_score"] = rules.target
    ruleset["loner_march_score"] = rules.loner_march_points
    ruleset["loner_euchred_score"] = rules.loner_euchre_points
    if rules.defend_alone:
        ruleset["defend_alone"] = True
    if rules.no_trump:
        ruleset["allow_no_trump"] = True
    if rules.deck == 32:
        ruleset["min_rank"] = 7
    md["ruleset"] = ruleset
    deals = []
    for i, h in enumerate(rec.hands):
        deals.append(_deal_dict(rules, i, h))
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": md, "deals": deals}


def export_problem(rules: Rules) -> str | None:
    """Why a game (or, under match rules, a match) under ``rules`` cannot be written as EGN (or
    EMN), in words; ``None`` when it can. Depends on the rules only, so a table can tell before
    its game is over whether the EGN download will work."""
    try:
        _check_exportable(rules)
        if rules.is_match:
            _check_match_exportable(rules)
    except RecordError as e:
        return str(e)
    return None


def _check_match_exportable(rules: Rules) -> None:
    problems = []
    if rules.match_games is None:
        problems.append(f"a match to {rules.match_wins} game wins (EMN's matchFormat says a fixed number of games)")
    if rules.laps:
        problems.append("laps (points past the target carried into the next game)")
    if rules.slam:
        problems.append("slams counting two game wins")
    if problems:
        raise RecordError(f"EMN cannot express this match: {', '.join(problems)}")


def _check_exportable(rules: Rules) -> None:
    base = Rules()
    problems = []
    if rules.players != 4:
        problems.append(f"{rules.players} players (EGN records only the four-player game)")
    if rules.deck not in (24, 32):
        problems.append(f"the {rules.deck}-card deck" + (" with the Joker" if rules.deck == 25 else ""))
    if rules.duration is not None:
        problems.append("a timed game")
    for name, what in (("make_points", "a made hand"), ("march_points", "a march"), ("euchre_points", "a euchre"),
                       ("lone_defender_euchre_points", "euchring a loner by defending alone")):
        if getattr(rules, name) != getattr(base, name):
            problems.append(f"{getattr(rules, name)} points for {what} (EGN always counts {getattr(base, name)})")
    if rules.super_euchre != base.super_euchre:
        problems.append("super-euchre scoring")
    if rules.low_no_trump:
        problems.append("the low no-trump call (EGN's calls have no low)")
    if rules.call_for_best:
        problems.append("call for best (EGN's partners_best exchange is not this program's: its engine-given top "
                        "trump, the discard of six and the lone defender's call are not expressed)")
    if rules.ace_no_face:
        problems.append("the ace-no-face redeal (EGN has no misdeal offer nor cancelled deal)")
    if rules.farmers_hand:
        problems.append("the farmer's hand (EGN has no exchange with the stock before the bidding)")
    if rules.auction:
        problems.append("Hasenpfeffer's auction (EGN has no bids of tricks, no six-card hands and no unused card)")
    if rules.napoleon:
        problems.append("Napoleon (EGN has no game of three to seven players each for themselves, no Napoleon bids "
                        "and no trump fixed by the first lead)")
    if rules.bid_euchre:
        problems.append("Bid Euchre's auction (EGN has no bids of tricks, no moon, no six-card hands and no high "
                        "or low)")
    if problems:
        raise RecordError(f"EGN cannot express these rules: {', '.join(problems)}")


def _deal_dict(rules: Rules, i: int, h: HandRecord) -> dict[str, Any]:
    d = h.deal
    st = State.from_deal(rules, d)
    calls: list[str] = []
    alone = False
    buried: Card | None = None
    lone_def: int | None = None
    bidding_done = False
    for _seat, a in h.actions:
        ph = st.phase
        if ph in (Phase.BID1, Phase.BID2):
            calls.append("Pass" if a == PASS else "Order" if a in (ORDER, ORDER_ALONE)
                         else "n" if a.suit is None else str(a.suit))
            alone = alone or a.alone
        elif ph is Phase.DISCARD:
            buried = a.card
        elif ph is Phase.DEFEND:
            lone_def = -1 if lone_def is None else lone_def
            if a == DEFEND_ALONE:
                lone_def = st.to_act
        st.push(a)
        bidding_done = st.phase not in (Phase.BID1, Phase.BID2)
    bid: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": alone}
    if buried is not None:
        bid["discard"] = str(buried)
    if lone_def is not None and st.phase is not Phase.DEFEND:
        bid["aloneDefender"] = lone_def
    phases: list[dict[str, Any]] = [bid] if h.actions else []
    tricks = [[str(c) for c in t.cards] for t in st.tricks]
    if st.trick:
        tricks.append([str(c) for _, c in st.trick])
    if st.phase in (Phase.PLAY, Phase.OVER) and bidding_done and st.maker >= 0:
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks})
    return {
        "dealNumber": i,
        "initialState": {"dealer": d.dealer, "upCard": str(d.up_card),
                         "playerCards": [[str(c) for c in cards] for cards in d.hands]},
        "phases": phases,
    }


def dumps(source: Game | GameRecord, *, players: list[str] | None = None,
          meta: dict[str, Any] | None = None) -> str:
    """A game or record as EGN 1.4 JSON text (indented), with every seat's dealt cards in
    ``playerCards``. Rules EGN cannot express (timed games, other player counts, the Joker deck,
    changed base points, super-euchre) raise :class:`RecordError`."""
    return json.dumps(to_dict(source, players=players, meta=meta), indent=2, ensure_ascii=False) + "\n"


def dump(source: Game | GameRecord, path: str | Path, **kw: Any) -> None:
    """Write :func:`dumps` to a file."""
    Path(path).write_text(dumps(source, **kw), encoding="utf-8")


def match_to_dict(rec: MatchRecord, *, title: str | None = None) -> dict[str, Any]:
    """A match record as EMN 1.0 data: the match's players, its format and each game's EGN.

    EMN says a match of a fixed number of games (``matchFormat`` ``FIXED_GAMES`` with the count
    as ``target``, as in the files of ``shared/data/egn``); a match to a number of game wins, and
    laps or slams, have no EMN words here and raise :class:`RecordError` saying so."""
    rules = rec.rules
    _check_match_exportable(rules)
    names = list(rec.players or [f"Player {i}" for i in range(4)])
    ids = [f"p-{i + 1:02d}" for i in range(len(names))]
    games = [{"gameIndex": str(i), "players": ids, "gameData": to_dict(g, players=names)}
             for i, g in enumerate(rec.games)]
    meta: dict[str, Any] = {"players": [{"id": pid, "name": name} for pid, name in zip(ids, names, strict=True)],
                            "matchFormat": {"type": "FIXED_GAMES", "target": rules.match_games}}
    if title or rec.meta.get("title"):
        meta = {"title": title or str(rec.meta["title"]), **meta}
    return {"fileType": MATCH_FILE_TYPE, "version": "1.0", "metadata": meta, "games": games}


def dumps_match(rec: MatchRecord, *, title: str | None = None) -> str:
    """A match record as EMN 1.0 JSON text (see :func:`match_to_dict`)."""
    return json.dumps(match_to_dict(rec, title=title), indent=2, ensure_ascii=False) + "\n"
