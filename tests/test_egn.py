"""EGN import and export: every shipped record classified, round trips, malformed input."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from euchre import egn, notation
from euchre.actions import DEFEND_ALONE, Action, Kind
from euchre.errors import RecordError
from euchre.game import Game
from euchre.notation import GameRecord
from euchre.rules import Rules

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "egn"
if not DATA.is_dir():  # the repository may be checked out elsewhere
    DATA = Path("/work/shared/data/egn")

# file -> (deals, final scores, winning side or None for a game that stops before the end)
GOOD: dict[str, tuple[int, tuple[int, int], int | None]] = {
    "Custom Scenario.egn": (1, (0, 1), None),
    "Epic Comeback.egn": (9, (11, 9), 0),
    "Me and Bears.egn": (12, (10, 9), 0),
    "Quite the Hustle Annotated.egn": (11, (10, 7), 0),
    "Six Points in Two Hands.egn": (2, (10, 9), 0),
    "VWEC Finals Annotated.egn": (13, (8, 10), 1),
    "VWEC Finals.egn": (13, (8, 10), 1),
    "combination/MotE W5 G1.egn": (11, (10, 3), 0),
    "combination/MotE W5 G2.egn": (12, (8, 10), 1),
    "combination/MotE W5 G3.egn": (11, (10, 6), 0),
    "combination/MotE W5 G4.egn": (13, (8, 10), 1),
    "combination/MotE W5 G5.egn": (10, (11, 7), 0),
    "combination/MotE W5 G6.egn": (16, (10, 9), 0),
    "conversion/test_timingsLayouts.egn": (1, (0, 2), None),
    "validation/Another fun euchre!.egn": (1, (0, 2), None),
    "validation/Custom Scenario.egn": (1, (0, 1), None),
    "validation/Euchre_com July 5th Pairs Finals Annotated 1.egn": (11, (9, 10), 1),
    "validation/Euchre_com July 5th Pairs Finals Annotated.egn": (11, (9, 10), 1),
    "validation/July 4th Pairs Finals (3).egn": (11, (9, 10), 1),
    "validation/Masters of the Euchreverse Week 1 (16).egn": (8, (7, 10), 1),
    "validation/Masters of the Euchreverse Week 1 Game 1.egn": (9, (3, 11), 1),
    "validation/Masters of the Euchreverse Week 1 Game 2 Render (2).egn": (8, (7, 10), 1),
    "validation/Masters of the Euchreverse Week 1 Game 2 Render.egn": (8, (7, 10), 1),
    "validation/Masters of the Euchreverse Week 1 Game 2.egn": (8, (7, 10), 1),
    "validation/Masters of the Euchreverse Week 1 Game 3.egn": (9, (10, 5), 0),
    "validation/Masters of the Euchreverse Week 1 Game 5.egn": (10, (5, 10), 1),
    "validation/Masters of the Euchreverse Week 1 Game 6.egn": (13, (11, 6), 0),
    "validation/Masters of the Euchreverse Week 1.egn": (9, (3, 11), 1),
    "validation/Me and Bears (1).egn": (12, (10, 9), 0),
    "validation/Me and Bears.egn": (12, (10, 9), 0),
    "validation/Me and Mike Mike Mike.egn": (9, (11, 2), 0),
    "validation/Quite the Hustle Annotated.egn": (11, (10, 7), 0),
    "validation/Quite the Hustle.egn": (11, (10, 7), 0),
    "validation/VWEC Finals (7).egn": (13, (8, 10), 1),
    "validation/VWEC Finals.egn": (13, (8, 10), 1),
    "validation/annotated (1).egn": (13, (8, 10), 1),
    "validation/annotated.egn": (13, (8, 10), 1),
    "validation/egn_m_20260529_01.egn": (1, (0, 0), None),
}

# file -> fragments the RecordError message must contain
BAD: dict[str, tuple[str, ...]] = {
    "conversion/test.egn": ("deal 1, trick 3: seat 3 played Qs", "up card",
                            "only the dealer (seat 0) holds it"),
    "conversion/test_annotated.egn": ("deal 1, trick 3: seat 3 played Qs", "up card"),
    "validation/July 4th Pairs Finals.egn": ("deal 10: the game was already won after deal 9",
                                             "6-10", "first to 10 points"),
    "validation/egn_m_20260529_01 (5).egn": ("deal 2: deal 1 stopped after 1 trick",
                                             "only the last deal of a record may be unfinished"),
    "validation/invalid1.json": ("not an EGN file", "Euchre Layout Template"),
    "validation/invalid2.json": ("not an EGN file", "JSON array"),
}

MATCHES: dict[str, list[str]] = {
    "combination/MotE W5 Match.emn": [f"combination/MotE W5 G{i}.egn" for i in range(1, 7)],
}


def test_every_shipped_file_is_classified() -> None:
    found = {p.relative_to(DATA).as_posix() for p in DATA.rglob("*")
             if p.suffix in (".egn", ".json", ".emn")}
    assert found, f"no EGN data under {DATA}"
    assert found == set(GOOD) | set(BAD) | set(MATCHES)
    assert not set(GOOD) & set(BAD)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_record_replays(name: str) -> None:
    deals, scores, winner = GOOD[name]
    rec = egn.load(DATA / name)
    assert len(rec.hands) == deals
    assert rec.rules.stick_the_dealer
    assert len(rec.players) == 4
    game = rec.replay()  # every action legal, every seat right, points checked
    assert tuple(game.scores) == scores
    assert game.winner == winner
    assert game.is_over == (winner is not None)
    for i, h in enumerate(rec.hands):
        assert len(h.deal.hands) == 4 and all(len(cards) == 5 for cards in h.deal.hands)
        if i < len(rec.hands) - 1:
            assert game.hands[i].is_over and "partial" not in h.notes


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_record_is_refused(name: str) -> None:
    with pytest.raises(RecordError) as info:
        egn.load(DATA / name)
    msg = str(info.value)
    assert name.rsplit("/", 1)[-1] in msg  # the file name
    for fragment in BAD[name]:
        assert fragment in msg


def test_match_file_holds_the_six_games() -> None:
    for match, games in MATCHES.items():
        recs = egn.load_match(DATA / match)
        assert len(recs) == len(games)
        for rec, name in zip(recs, games, strict=True):
            single = egn.load(DATA / name)
            assert [h.actions for h in rec.hands] == [h.actions for h in single.hands]
            assert rec.players == single.players
            assert rec.replay().scores == single.replay().scores
        with pytest.raises(RecordError, match="load_match"):
            egn.load(DATA / match)


# --- what the importer fills in ------------------------------------------------------------------
def test_rules_and_players_are_mapped() -> None:
    rec = egn.load(DATA / "VWEC Finals.egn")
    assert rec.rules == Rules.preset("american", stick_the_dealer=True, loner_lead="loner_left")
    assert rec.players == ["WWMM", "Llama", "Euchrazy1", "LeftyKnavey"]
    assert rec.initial_scores == (0, 0)
    assert rec.meta["title"] == "VWEC Finals"
    rec = egn.load(DATA / "Epic Comeback.egn")
    assert rec.initial_scores == (0, 7)
    assert rec.rules.loner_lead == "dealer_left"


def test_recorded_discard_and_full_player_cards() -> None:
    rec = egn.load(DATA / "validation/VWEC Finals.egn")  # deal 11 records "discard": "Tc"
    assert rec.hands[10].notes == {}
    assert (0, Action.parse("discard Tc")) in rec.hands[10].actions
    rec = egn.load(DATA / "VWEC Finals.egn")  # the same deal without it: the buried card is filled
    assert rec.hands[10].notes == {"discard": "filled", "filled": {"p0": "Tc"}}
    rec = egn.load(DATA / "Custom Scenario.egn")
    assert rec.hands[0].notes == {}
    assert [" ".join(map(str, c)) for c in rec.hands[0].deal.hands][0] == "Kh As Jd Th Ah"


def test_buried_up_card_is_deduced() -> None:
    # Masters Week 1 Game 6, deal 5: seat 0 orders Td alone; the dealer (seat 1) never plays Td and
    # shows void in trump, so it must have buried the up card.
    rec = egn.load(DATA / "validation/Masters of the Euchreverse Week 1 Game 6.egn")
    h = rec.hands[4]
    assert h.notes["discard"] == "deduced"
    assert (1, Action.parse("discard Td")) in h.actions
    assert (0, Action.parse("order alone")) in h.actions


def test_filled_cards_are_noted() -> None:
    rec = egn.load(DATA / "Six Points in Two Hands.egn")
    # deal 1: seat 2 calls hearts alone in round 2; seat 0 sits out and gets five unplayed cards
    assert rec.hands[0].notes == {"filled": {"p0": "9c Qc Kc Ac Td"}}
    # deal 2: an order in round 1 without a recorded discard: the dealer's buried card is chosen
    assert rec.hands[1].notes == {"discard": "filled", "filled": {"p1": "9c"}}
    assert (1, Action.parse("discard 9c")) in rec.hands[1].actions


def test_partial_last_hand() -> None:
    rec = egn.load(DATA / "validation/egn_m_20260529_01.egn")
    h = rec.hands[0]
    assert h.notes["partial"] is True
    assert (0, Action.parse("discard 9s")) in h.actions  # recorded
    assert h.points is None
    game = rec.replay()
    assert not game.state.is_over and len(game.state.tricks) == 1
    assert rec.scores is None and rec.winners is None


def test_imported_record_saves_as_toml() -> None:
    rec = egn.load(DATA / "Six Points in Two Hands.egn")
    back = GameRecord.loads(rec.dumps())
    assert [h.actions for h in back.hands] == [h.actions for h in rec.hands]
    assert back.replay().scores == [10, 9]


def test_notation_load_dispatches_egn() -> None:
    path = DATA / "Epic Comeback.egn"
    rec = notation.load(path)
    assert [h.actions for h in rec.hands] == [h.actions for h in egn.load(path).hands]
    with pytest.raises(RecordError, match="July 4th Pairs Finals.egn: deal 10"):
        notation.load(DATA / "validation/July 4th Pairs Finals.egn")


# --- variants of real records that break one thing ----------------------------------------------
def _data(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _refused(data: object) -> str:
    with pytest.raises(RecordError) as info:
        egn.loads(json.dumps(data))
    return str(info.value)


def test_renege_in_the_restarted_deal() -> None:
    d = _data("validation/egn_m_20260529_01 (5).egn")
    d["deals"] = d["deals"][1:]
    assert _refused(d) == "deal 1, trick 1: seat 0 played Td: you must follow clubs: you hold Kc"


def test_dealer_out_of_rotation() -> None:
    d = _data("Me and Bears.egn")
    d["deals"][3]["initialState"]["dealer"] = 2
    msg = _refused(d)
    assert msg.startswith("deal 4: dealt by seat 2") and "seat 0 deals" in msg


def test_final_score_is_checked() -> None:
    d = _data("Epic Comeback.egn")
    d["metadata"]["finalScore"] = [11, 9]
    assert egn.loads(json.dumps(d)).scores == (11, 9)
    d["metadata"]["finalScore"] = [10, 9]
    assert "finalScore is [10, 9], but the deals give [11, 9]" in _refused(d)


def test_initial_lead_is_checked() -> None:
    d = _data("combination/MotE W5 G1.egn")
    d["deals"][0]["phases"][1]["initialLead"] = 3
    assert "deal 1, trick 1: initialLead is seat 3, but seat 1 leads" in _refused(d)


def test_structural_contradictions() -> None:
    base = _data("Me and Bears.egn")
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][1]["tricks"][1][2] = d["deals"][0]["phases"][1]["tricks"][0][0]
    assert "deal 1, trick 2: seat" in _refused(d) and "was already played at trick 1" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][1]["tricks"][0].pop()
    assert "deal 1, trick 1: has 3 cards, but 4 seats play" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["calls"].append("Pass")
    assert 'deal 1, call 5: "Pass" comes after the bidding ended' in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["calls"] = ["Pass"] * 7 + ["Pass"]
    msg = _refused(d)
    assert msg.startswith("deal 1, call 8: seat 1 passed: stick the dealer")
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["calls"] = ["h"]
    assert "names a suit in round 1" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["calls"] = ["Pass"] * 4 + ["s"]
    assert "deal 1, call 5: seat 2 called spades: spades was turned down" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["calls"] = ["Pass"] * 4 + ["n"]
    assert "called no trump: these rules have no no-trump call" in _refused(d)  # ruleset without allow_no_trump
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["aloneDefender"] = 0
    assert "aloneDefender is seat 0, but the ruleset does not allow defend_alone" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"][0]["discard"] = d["deals"][0]["phases"][1]["tricks"][4][0]
    assert "deal 1, trick 5: seat" in _refused(d) and "the dealer's recorded discard" in _refused(d)
    d = copy.deepcopy(base)
    d["deals"][0]["phases"] = d["deals"][0]["phases"][1:]
    assert 'unexpected phase "TRICK_PLAY"' in _refused(d)


def test_loner_tricks_have_three_cards() -> None:
    d = _data("validation/Quite the Hustle.egn")  # deal 11: seat 0 orders Jh alone, seat 2 sits out
    tricks = d["deals"][10]["phases"][1]["tricks"]
    assert all(len(t) == 3 for t in tricks)
    tricks[0].append("9s")
    assert "deal 11, trick 1: has 4 cards, but 3 seats play (sitting out: seat 2)" in _refused(d)


# --- malformed input ----------------------------------------------------------------------------
def _minimal() -> dict:
    return {
        "fileType": "Euchre Game Notation", "version": "1.4",
        "metadata": {"players": ["a", "b", "c", "d"], "initialScore": [0, 0]},
        "deals": [{"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "Jd"},
                   "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Order"]}]}],
    }


def test_minimal_record_stops_before_the_discard() -> None:
    rec = egn.loads(json.dumps(_minimal()))
    assert rec.hands[0].actions == [(1, Action.parse("order"))]
    assert rec.hands[0].notes == {"filled": {"p0": "9c Tc Jc Qc Kc", "p1": "Ac 9d Td Qd Kd",
                                             "p2": "Ad 9h Th Jh Qh", "p3": "Kh Ah 9s Ts Js"},
                                  "partial": True}
    assert rec.rules == Rules.preset("american", stick_the_dealer=True)


@pytest.mark.parametrize(("text", "fragment"), [
    ('{"fileType": "Euchre Game Notation", "version": "1.4", "deals": [', "not valid JSON"),
    ("", "not valid JSON"),
    ('"hello"', "top level is a JSON string"),
    ('{"fileType": "Euchre Match Notation"}', "EMN match file"),
])
def test_malformed_text(text: str, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        egn.loads(text)


def _edit(path: tuple, value: object) -> dict:
    d = _minimal()
    target = d
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


@pytest.mark.parametrize(("path", "value", "fragment"), [
    (("fileType",), "Euchre Layout", 'fileType is the string "Euchre Layout"'),
    (("version",), "2.0", 'unsupported EGN version "2.0"'),
    (("deals",), KeyError, "there is no deals field"),
    (("deals",), [], "deals is empty"),
    (("deals", 0), "QUJD", "condensed (Base64) deals are not supported"),
    (("metadata", "initialScore"), KeyError, "there is no metadata.initialScore field; it is required"),
    (("metadata", "players"), ["a", "b"], "needs 4 players"),
    (("deals", 0, "initialState", "upCard"), "Xz", 'deal 1, upCard: not a card: "Xz"'),
    (("deals", 0, "initialState", "upCard"), "Xc", 'unknown card "Xc"'),
    (("deals", 0, "initialState", "upCard"), "8c", "8c is not in the 24-card deck"),
    (("deals", 0, "initialState", "upCard"), "B", 'Joker "B" is not supported'),
    (("deals", 0, "initialState", "dealer"), 4,
     "deal 1: initialState.dealer is the number 4; it must be a seat 0 to 3"),
    (("deals", 0, "initialState"), KeyError, "deal 1: there is no initialState field"),
    (("deals", 0, "phases", 0, "calls", 0), "PickUp", 'not an EGN call: "PickUp"'),
    (("metadata", "ruleset"), {"farmers": True}, "ruleset.farmers: the farmer's-hand exchange is not supported"),
    (("metadata", "ruleset"), {"joker": True}, "ruleset.joker"),
    (("metadata", "ruleset"), {"allow_no_trump": 1}, "ruleset.allow_no_trump is the number 1; it must be true"),
    (("metadata", "ruleset"), {"allow_no_trump": True, "min_rank": 7}, "no_trump: needs the 24-card deck"),
    (("metadata", "ruleset"), {"min_rank": 8}, "ruleset.min_rank: 8 is not supported"),
    (("metadata", "ruleset"), {"num_players": 3}, "ruleset.num_players"),
    (("metadata", "ruleset"), {"mystery": True}, "ruleset.mystery: unknown rule flag"),
    (("metadata", "ruleset"), {"winning_score": 0}, "a game needs an end"),
    (("metadata", "ruleset"), {"winning_score": 10, "num_deals": 8}, "both set"),
    (("metadata", "ruleset"), {"std": "yes"}, 'ruleset.std is the string "yes"; it must be true or false'),
])
def test_malformed_fields(path: tuple, value: object, fragment: str) -> None:
    assert fragment in _refused(_edit(path, value))


# Python's own spellings that must never reach a reader of an error message about a JSON file.
PYTHON_LEAKS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\['|<class|Error\b")


@pytest.mark.parametrize(("path", "value", "message"), [
    (("fileType",), KeyError, 'not an EGN file: there is no fileType field; an EGN file is a JSON object that '
                              'starts with "fileType": "Euchre Game Notation"'),
    (("fileType",), None, 'not an EGN file: fileType is null; an EGN file is a JSON object that starts with '
                          '"fileType": "Euchre Game Notation"'),
    (("version",), KeyError, "there is no version field; this program reads EGN 1.0 to 1.4"),
    (("version",), 1.4, 'version is the number 1.4; it must be a string such as "1.0" '
                        "(this program reads EGN 1.0 to 1.4)"),
    (("metadata",), KeyError, "there is no metadata field; it must be an object with the players and the initial "
                              "score"),
    (("metadata",), [1, 2], "metadata is the list [1, 2]; it must be an object with the players and the initial "
                            "score"),
    (("deals",), None, "deals is null; it must be the list of the game's deals"),
    (("deals",), {"a": 1}, "deals is an object with the key a; it must be the list of the game's deals"),
    (("deals", 0), None, "deal 1 is null; a deal must be an object"),
    (("metadata", "players"), KeyError, "there is no metadata.players field; it must be the list of the four "
                                        "players' names"),
    (("metadata", "players"), ["a", "b", None, "d"], 'metadata.players, player 3 is null; each player must be a '
                                                     'name or an object with a "name"'),
    (("metadata", "players"), ["a", "b", {"id": 3}, "d"], "metadata.players, player 3 is an object with the key id"),
    (("metadata", "initialScore"), None, "metadata.initialScore is null; it must be the score before the first "
                                         "deal"),
    (("metadata", "initialScore"), [1], "metadata.initialScore is the list [1]; it must be two whole numbers"),
    (("metadata", "initialScore"), [0, True], "metadata.initialScore is the list [0, true]"),
    (("metadata", "ruleset"), None, "metadata.ruleset is null; it must be an object of rule flags"),
    (("metadata", "ruleset"), {"loner_lead": None}, 'metadata.ruleset.loner_lead is null; it must be '
                                                    '"LEFT_OF_DEALER" or "LEFT_OF_LONER"'),
    (("metadata", "ruleset"), {"winning_score": False}, "metadata.ruleset.winning_score is false; it must be a "
                                                        "whole number"),
    (("deals", 0, "initialState"), None, "deal 1: initialState is null; it must be an object with the dealer and "
                                         "the up card"),
    (("deals", 0, "initialState", "dealer"), KeyError, "deal 1: initialState has no dealer; it must be a seat 0 to 3"),
    (("deals", 0, "initialState", "dealer"), None, "deal 1: initialState.dealer is null; it must be a seat 0 to 3"),
    (("deals", 0, "initialState", "dealer"), True, "deal 1: initialState.dealer is true; it must be a seat 0 to 3"),
    (("deals", 0, "initialState", "upCard"), None, 'deal 1, upCard is null; a card must be a string such as "Jh"'),
    (("deals", 0, "initialState", "upCard"), 12, "deal 1, upCard is the number 12; a card must be a string"),
    (("deals", 0, "initialState", "playerCards"), {"a": [1]}, "deal 1: playerCards is an object with the key a; "
                                                              "it must be four lists of cards, one per seat"),
    (("deals", 0, "phases", 0), None, "deal 1: phase 1 is null, not an object (a deal has one EUCHRE_BIDDING "
                                      "phase, then at most one TRICK_PLAY phase)"),
    (("deals", 0, "phases", 0, "type"), KeyError, "deal 1: phase 1 has no type"),
    (("deals", 0, "phases", 0, "type"), None, "deal 1: phase 1 has the type null"),
    (("deals", 0, "phases", 0, "calls", 0), None, 'deal 1, call 1 (seat 1): not an EGN call: null (a call is '
                                                  '"Pass", "Order", or a suit "c", "d", "h" or "s")'),
    (("deals", 0, "phases", 0, "calls", 0), {"x": 1}, "not an EGN call: an object with the key x"),
    (("deals", 0, "phases", 0, "calls"), "Order", 'deal 1: calls is the string "Order"; it must be a list'),
    (("deals", 0, "phases", 0, "isAlone"), "yes", 'deal 1: isAlone is the string "yes"; it must be true or false'),
    (("deals", 0, "phases", 0, "aloneDefender"), "x", 'deal 1: aloneDefender is the string "x"; it must be a seat '
                                                      "0 to 3, or -1 for nobody"),
])
def test_malformed_fields_are_told_in_words(path: tuple, value: object, message: str) -> None:
    """A missing or mistyped field is named and what it holds is said as JSON would say it (null,
    true, "text"), never as a Python repr (None, True, 'text', {'a': 1})."""
    msg = _refused(_edit(path, value))
    assert message in msg
    assert not PYTHON_LEAKS.search(msg), msg


@pytest.mark.parametrize(("text", "message"), [
    ("null", "not an EGN file: the top level is null; an EGN file is a JSON object that starts with "
             '"fileType": "Euchre Game Notation"'),
    ("[1, 2]", "not an EGN file: the top level is a JSON array"),
    ("{}", "not an EGN file: there is no fileType field"),
    ('{"fileType": {"name": "EGN"}}', "not an EGN file: fileType is an object with the key name"),
    ('{"fileType": "Euchre Game Notation", "version": null}', "version is null; it must be a string"),
])
def test_malformed_files_are_told_in_words(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        egn.loads(text)
    assert message in str(info.value) and not PYTHON_LEAKS.search(str(info.value))


@pytest.mark.parametrize(("text", "message"), [
    ("[1]", 'not an EMN match file: the top level is a JSON array; an EMN match file is a JSON object with '
            '"fileType": "Euchre Match Notation"'),
    ("{}", "not an EMN match file: there is no fileType field"),
    ('{"fileType": null}', "not an EMN match file: fileType is null"),
    ('{"fileType": "Euchre Game Notation"}', "this is an EGN file of one game, not a match; read it with "
                                            "euchre.egn.load"),
    ('{"fileType": "Euchre Match Notation"}', "there is no version field; this program reads EMN 1.0"),
    ('{"fileType": "Euchre Match Notation", "version": "1.0", "metadata": {}}', "there is no games field"),
    ('{"fileType": "Euchre Match Notation", "version": "1.0", "metadata": {}, "games": []}',
     "games is an empty list; it must be a non-empty list of games"),
    ('{"fileType": "Euchre Match Notation", "version": "1.0", "metadata": {}, "games": [3]}',
     "game 1 is the number 3; each game must be an object"),
])
def test_malformed_match_files_are_told_in_words(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        egn.loads_match(text)
    assert message in str(info.value) and not PYTHON_LEAKS.search(str(info.value))


def test_match_players_not_listed_are_named_in_words() -> None:
    game = json.loads(egn.dumps(_random_game(Rules(), 3)))
    match = {"fileType": "Euchre Match Notation", "version": "1.0",
             "metadata": {"players": [{"id": "p1"}, {"id": "p2"}]},
             "games": [{"gameData": game, "players": ["p1", "p2", "p3", "p4"]}]}
    with pytest.raises(RecordError) as info:
        egn.loads_match(json.dumps(match))
    assert str(info.value) == ('game 1: players "p3", "p4" are not in the match\'s player list '
                               "(metadata.players)")


def test_other_rulesets_are_mapped() -> None:
    d = _edit(("metadata", "ruleset"), {"std": False, "canadian": True, "num_deals": 8, "min_rank": 7,
                                        "loner_march_score": 5, "loner_euchred_score": 3,
                                        "defend_alone": True, "loner_lead": "LEFT_OF_LONER"})
    d["deals"][0]["initialState"]["upCard"] = "7c"
    rules = egn.loads(json.dumps(d)).rules
    assert rules == Rules.preset("american", stick_the_dealer=False, canadian_loner=True, deals=8,
                                 deck=32, loner_march_points=5, loner_euchre_points=3,
                                 defend_alone=True, loner_lead="loner_left")


# --- export and round trips ---------------------------------------------------------------------
def _random_game(rules: Rules, seed: int, stop: int | None = None) -> Game:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and (stop is None or n < stop):
        acts = game.legal_actions()
        bold = [a for a in acts if a.alone or a == DEFEND_ALONE]
        if acts[0].is_bid and acts[0].kind is Kind.PASS and rng.random() < 0.6:
            game.push(acts[0])  # pass often, so that round 2 and thrown-in hands happen
        else:
            game.push(rng.choice(bold) if bold and rng.random() < 0.3 else rng.choice(acts))
        n += 1
    return game


ROUND_TRIP_RULES = [
    Rules.preset("american"),
    Rules.preset("american", stick_the_dealer=True),
    Rules.preset("american", defend_alone=True, loner_lead="loner_left"),
    Rules.preset("american", canadian_loner=True, deals=6, deck=32),
    Rules.preset("long", loner_march_points=5, loner_euchre_points=3, dealer_may_discard_up_card=False),
]


@pytest.mark.parametrize("rules", ROUND_TRIP_RULES, ids=lambda r: str(r.diff()))
def test_round_trip(rules: Rules) -> None:
    seen: set[str] = set()
    for seed in range(12):
        stop = None if seed % 4 else 7 + seed * 13  # some games stop mid-hand
        game = _random_game(rules, seed, stop)
        text = egn.dumps(game, players=["N", "E", "S", "W"], meta={"title": "t"})
        data = json.loads(text)
        assert data["fileType"] == "Euchre Game Notation" and data["version"] == "1.4"
        rec = egn.loads(text)
        orig = GameRecord.from_game(game)
        assert rec.rules == rules.replace(dealer_may_discard_up_card=True)
        assert rec.players == ["N", "E", "S", "W"] and rec.meta["title"] == "t"
        assert len(rec.hands) == len(orig.hands)
        for mine, theirs in zip(rec.hands, orig.hands, strict=True):
            assert mine.actions == theirs.actions
            assert mine.deal.hands == theirs.deal.hands and mine.deal.up_card == theirs.deal.up_card
            assert sorted(mine.deal.stock) == sorted(theirs.deal.stock)
            assert mine.notes in ({}, {"partial": True})
            for state_action in mine.actions:
                a = state_action[1]
                seen.add("alone" if a.alone else "defend" if a == DEFEND_ALONE else a.kind.name)
        replayed = rec.replay()
        assert replayed.scores == game.scores and replayed.winners == game.winners
        assert egn.dumps(rec, players=["N", "E", "S", "W"], meta={"title": "t"}) == text
        thrown = [h for h in replayed.hands if h.thrown_in]
        if thrown:
            seen.add("thrown in")
    assert {"alone", Kind.DISCARD.name, Kind.PLAY.name, Kind.CALL.name} <= seen
    if rules.defend_alone:
        assert "defend" in seen
    if not rules.stick_the_dealer:
        assert "thrown in" in seen


def test_export_refuses_what_egn_cannot_say() -> None:
    for rules in (Rules.preset("timed"), Rules.preset("cut-throat"), Rules.preset("british"),
                  Rules.preset("american", super_euchre=True)):
        with pytest.raises(RecordError, match="EGN cannot express"):
            egn.dumps(Game(rules, seed=1))


@pytest.mark.parametrize(("rules", "message"), [
    (Rules.preset("cut-throat"), "EGN cannot express these rules: 3 players (EGN records only the four-player game), "
                                 "the 20-card deck"),
    (Rules.preset("british"), "the 25-card deck with the Joker"),
    (Rules.preset("timed"), "a timed game"),
    (Rules.preset("american", super_euchre=True), "EGN cannot express these rules: super-euchre scoring"),
    (Rules.preset("american", march_points=3), "3 points for a march (EGN always counts 2)"),
])
def test_export_refusal_says_in_words_which_rule(rules: Rules, message: str) -> None:
    with pytest.raises(RecordError) as info:
        egn.dumps(Game(rules, seed=1))
    assert message in str(info.value)
    assert "=" not in str(info.value) and "_" not in str(info.value)  # no "super_euchre=True"


def test_dump_writes_a_file(tmp_path: Path) -> None:
    game = _random_game(Rules(), 3)
    path = tmp_path / "g.egn"
    egn.dump(game, path)
    assert notation.load(path).replay().scores == game.scores


def test_export_problem_says_which_rules_egn_cannot_write() -> None:
    """The server offers the EGN download only where it works: the reason is known from the rules."""
    assert egn.export_problem(Rules()) is None
    assert egn.export_problem(Rules(match_games=3)) is None
    for preset in ("cut-throat", "british", "timed", "bid-euchre", "hasenpfeffer", "napoleon"):
        assert egn.export_problem(Rules.preset(preset)) is not None, preset
    assert "EMN cannot express this match" in (egn.export_problem(Rules(match_wins=2)) or "")
