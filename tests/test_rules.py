"""Rules: defaults, presets and aliases, overrides, and validation messages that name the field."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

import pytest

from euchre import Rules, RulesError
from euchre.rules import FIELD_BOUNDS

PRESET_TABLE = {
    # name: (players, deck, target, duration, going_alone, canadian_loner, march_points)
    "american": (4, 24, 10, None, True, False, 2),
    "british": (4, 25, 11, None, True, True, 2),
    "long": (4, 24, 15, None, True, False, 2),
    "timed": (4, 24, None, 30, True, False, 2),
    "two-handed": (2, 24, 10, None, False, False, 2),
    "cut-throat": (3, 20, 10, None, False, False, 3),
    "railroad": (4, 25, 10, None, True, False, 2),  # RULES-FAMILY.md 13 (tests/test_call_for_best.py)
}


def test_defaults_are_american() -> None:
    r = Rules()
    assert r == Rules.preset("american") == Rules.preset()
    assert (r.players, r.deck, r.target, r.duration, r.deals) == (4, 24, 10, None, None)
    assert r.going_alone and not r.stick_the_dealer and not r.canadian_loner and not r.defend_alone
    assert (r.make_points, r.march_points, r.loner_march_points, r.euchre_points, r.loner_euchre_points) == \
        (1, 2, 4, 2, 2)
    assert r.lone_defender_euchre_points == 4 and r.super_euchre_points == 4 and not r.super_euchre
    assert r.dealer_may_discard_up_card and r.tie_break and r.loner_lead == "dealer_left"


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets(name: str) -> None:
    r = Rules.preset(name)
    assert (r.players, r.deck, r.target, r.duration, r.going_alone, r.canadian_loner, r.march_points) == \
        PRESET_TABLE[name]
    assert not r.stick_the_dealer
    assert r.preset_name() == name
    assert Rules.preset(name, stick_the_dealer=True).stick_the_dealer  # a switch on every preset
    assert Rules.preset(name, stick_the_dealer=True).preset_name() is None


def test_preset_names_and_sides() -> None:
    # Hasenpfeffer, Bid Euchre and Napoleon, sister games that take none of RULES.md's switches:
    # tests/test_hasenpfeffer.py, tests/test_bid_euchre.py, tests/test_napoleon.py
    assert set(Rules.preset_names()) == set(PRESET_TABLE) | {"hasenpfeffer", "bid-euchre", "bid-euchre-double",
                                                             "napoleon"}
    assert Rules.preset("american").sides == 2 and Rules.preset("two-handed").sides == 2
    assert Rules.preset("cut-throat").sides == 3
    assert [Rules().side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [Rules.preset("cut-throat").side_of(s) for s in range(3)] == [0, 1, 2]
    assert Rules.preset("british").has_joker and not Rules().has_joker


@pytest.mark.parametrize("alias, name", [
    ("cutthroat", "cut-throat"), ("three", "cut-throat"), ("3p", "cut-throat"), ("Cut Throat", "cut-throat"),
    ("two", "two-handed"), ("2p", "two-handed"), ("two_handed", "two-handed"), ("heads-up", "two-handed"),
    ("uk", "british"), ("joker", "british"), ("BRITISH", "british"),
    ("default", "american"), ("standard", "american"),
    ("fifteen", "long"), ("clock", "timed"),
])
def test_aliases(alias: str, name: str) -> None:
    assert Rules.resolve_preset(alias) == name
    assert Rules.preset(alias) == Rules.preset(name)


def test_aliases_listed() -> None:
    assert {"cutthroat", "three", "3p"} <= set(Rules.aliases("cut-throat"))
    assert {"default", "standard"} <= set(Rules.aliases("american"))
    assert "cutthroat" not in Rules.aliases("american")


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'nope'"):
        Rules.preset("nope")


def test_preset_overrides() -> None:
    r = Rules.preset("british", stick_the_dealer=True)
    assert r.target == 11 and r.stick_the_dealer and r.deck == 25
    r = Rules.preset("american", deals=8)
    assert r.deals == 8 and r.target is None
    r = Rules.preset("american", duration=45)
    assert r.duration == 45 and r.target is None
    r = Rules.preset("timed", duration=10)
    assert r.duration == 10 and r.target is None
    r = Rules.preset("timed", target=12)
    assert r.target == 12 and r.duration is None
    r = Rules.preset("two-handed", deck=32)
    assert r.deck == 32 and r.players == 2
    r = Rules.preset("long", target=21)
    assert r.target == 21
    with pytest.raises(RulesError, match="unknown field.*bogus"):
        Rules.preset("american", bogus=1)
    with pytest.raises(RulesError, match="Rules.going_alone"):
        Rules.preset("two-handed", going_alone=True)


@pytest.mark.parametrize("fields, field, words", [
    ({"players": 5}, "players", "must be 2, 3 or 4"),
    ({"players": 1}, "players", "must be 2, 3 or 4"),
    ({"deck": 28}, "deck", "must be 20, 24, 25"),
    ({"deck": 20}, "deck", "too small"),
    ({"target": 0}, "target", "from 1 to 1000 points"),
    ({"target": -3}, "target", "from 1 to 1000 points"),
    ({"target": None, "deals": 0}, "deals", "from 1 to 10000 played hands"),
    ({"target": None, "duration": -1}, "duration", "above 0 and at most 1440 minutes"),
    ({"target": True}, "target", "whole number of points from 1 to 1000"),
    ({"target": None, "duration": float("nan")}, "duration", "above 0 and at most 1440 minutes"),
    ({"target": None, "duration": float("inf")}, "duration", "above 0 and at most 1440 minutes"),
    ({"target": None, "duration": "30"}, "duration", "number of minutes, above 0 and at most 1440"),
    ({"target": 10.5}, "target", "whole number"),
    ({"loner_lead": "left"}, "loner_lead", "dealer_left, loner_left"),
    ({"make_points": -1}, "make_points", "from 1 to 100 points"),
    ({"super_euchre_points": -1}, "super_euchre_points", "from 0 to 100 points"),
    ({"going_alone": "yes"}, "going_alone", "true or false"),
    ({"stick_the_dealer": 1}, "stick_the_dealer", "true or false"),
    ({"players": 4.0}, "players", "whole number"),
    ({"march_points": True}, "march_points", "whole number from 1 to 100"),
    ({"players": 2}, "going_alone", "no alone"),
    ({"players": 3, "deck": 20}, "going_alone", "no alone"),
    ({"players": 2, "going_alone": False, "canadian_loner": True}, "canadian_loner", "four players"),
    ({"players": 3, "deck": 20, "going_alone": False, "defend_alone": True}, "defend_alone", "four players"),
    ({"players": 2, "going_alone": False, "loner_lead": "loner_left"}, "loner_lead", "four players"),
    ({"canadian_loner": True, "going_alone": False}, "canadian_loner", "going_alone=True"),
    ({"defend_alone": True, "going_alone": False}, "defend_alone", "going_alone=True"),
])
def test_validation_names_the_field(fields: dict, field: str, words: str) -> None:
    with pytest.raises(RulesError, match=rf"Rules\.{field}") as info:
        Rules(**fields)
    assert words in str(info.value)


@pytest.mark.parametrize("fields", [
    {"target": None},
    {"duration": 30},
    {"deals": 4},
    {"target": None, "duration": 30, "deals": 4},
])
def test_exactly_one_ending(fields: dict) -> None:
    with pytest.raises(RulesError, match="exactly one ending"):
        Rules(**fields)


def test_valid_endings() -> None:
    assert Rules(target=None, duration=0.5).duration == 0.5
    assert Rules(target=None, deals=1).deals == 1
    assert Rules(target=1).target == 1
    assert "minutes" in Rules.preset("timed").ending_text()
    assert "10 points" in Rules().ending_text()
    assert "3 played hands" in Rules(target=None, deals=3).ending_text()


def test_rules_are_frozen_and_replace_revalidates() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 5  # type: ignore[misc]
    assert r.replace(target=7).target == 7 and r.target == 10
    with pytest.raises(RulesError, match="Rules.players"):
        r.replace(players=7)


def test_dict_round_trip_and_diff() -> None:
    for name in Rules.preset_names():
        r = Rules.preset(name, super_euchre=Rules.preset(name).sister_game is None)
        assert Rules.from_dict(r.to_dict()) == r
    assert Rules.preset("long").diff() == {"target": 15}
    assert Rules().diff() == {}
    with pytest.raises(RulesError, match="unknown field.*colour"):
        Rules.from_dict({"colour": "red"})


def test_valid_switch_combinations() -> None:
    r = Rules(defend_alone=True, canadian_loner=True, loner_lead="loner_left", super_euchre=True,
              dealer_may_discard_up_card=False, stick_the_dealer=True, tie_break=False)
    assert r.defend_alone and r.loner_lead == "loner_left"
    assert Rules(players=3, deck=24, going_alone=False).deck == 24
    assert Rules(players=4, deck=32).deck == 32
    assert Rules(players=2, deck=25, going_alone=False).has_joker


@pytest.mark.parametrize("name", ["make_points", "march_points", "euchre_points"])
def test_base_points_of_zero_are_refused(name: str) -> None:
    with pytest.raises(RulesError, match=f"Rules.{name}: must be from 1 to 100 points; at 0 .* would score nothing"):
        Rules(**{name: 0})


# --- bounds of the numeric fields -----------------------------------------------------------------
# Every numeric field is bounded in Rules itself, so no store or encoder downstream meets a value it
# cannot hold (SQLite's and orjson's 64-bit integers: `make_points: 10**19` once broke a server game).
POINT_FIELDS = {"make_points": 1, "march_points": 1, "euchre_points": 1, "loner_march_points": 0,
                "loner_euchre_points": 0, "lone_defender_euchre_points": 0, "super_euchre_points": 0}
INT_FIELDS = {"target": (1, 1000), "deals": (1, 10_000), **{n: (lo, 100) for n, lo in POINT_FIELDS.items()}}
MATCH_FIELDS = {"match_games": (1, 99), "match_wins": (1, 99)}
HUGE = [10**19, 10**30, 2**63, 2**64, -(2**63) - 1, 10**1000]


def _ending(name: str, value: Any) -> dict[str, Any]:
    """Fields setting ``name`` to ``value``, with the other endings cleared when ``name`` is one."""
    if name in ("target", "duration", "deals"):
        return {"target": None, "duration": None, "deals": None, name: value}
    return {name: value}


BUILDERS: dict[str, Callable[[dict[str, Any]], Rules]] = {
    "Rules": lambda fields: Rules(**fields),
    "preset": lambda fields: Rules.preset("american", **fields),
    "preset-timed": lambda fields: Rules.preset("timed", **fields),
    "from_dict": lambda fields: Rules.from_dict({**Rules().to_dict(), **fields}),
    "replace": lambda fields: Rules().replace(**fields),
}


def test_bounds_table_matches_the_fields() -> None:
    assert set(FIELD_BOUNDS) == {*INT_FIELDS, *MATCH_FIELDS, "duration"}
    assert {n: FIELD_BOUNDS[n] for n in MATCH_FIELDS} == MATCH_FIELDS
    assert {n: FIELD_BOUNDS[n] for n in INT_FIELDS} == INT_FIELDS
    assert FIELD_BOUNDS["duration"] == (0, 1440)


@pytest.mark.parametrize("how", list(BUILDERS))
@pytest.mark.parametrize("name", list(INT_FIELDS))
def test_int_bounds_edges(name: str, how: str) -> None:
    low, high = INT_FIELDS[name]
    build = BUILDERS[how]
    for ok in (low, high):
        assert getattr(build(_ending(name, ok)), name) == ok
    for bad in (low - 1, high + 1):
        with pytest.raises(RulesError, match=rf"^Rules\.{name}: must be from {low} to {high} .*\(got {bad}\)$"):
            build(_ending(name, bad))


@pytest.mark.parametrize("how", list(BUILDERS))
@pytest.mark.parametrize("name", [*INT_FIELDS, "duration", "players", "deck"])
@pytest.mark.parametrize("huge", HUGE, ids=["1e19", "1e30", "2**63", "2**64", "-2**63-1", "1e1000"])
def test_huge_ints_refused_with_a_short_message(name: str, huge: int, how: str) -> None:
    with pytest.raises(RulesError, match=rf"^Rules\.{name}: ") as info:
        BUILDERS[how](_ending(name, huge))
    message = str(info.value)
    assert len(message) < 160, message
    shown = re.search(r"\(got (.*)\)$", message)
    assert shown is not None, message
    if huge.bit_length() <= 66:  # up to about 20 digits the value is shown exactly
        assert shown.group(1) == str(huge)
    else:  # beyond, by magnitude
        assert re.fullmatch(r"~-?\d(\.\d+)?e\+\d+", shown.group(1)), shown.group(1)
    if name in FIELD_BOUNDS:
        low, high = FIELD_BOUNDS[name]
        assert f"{low}" in message and f"{high}" in message


def test_huge_int_shown_by_magnitude() -> None:
    for value, shown in [(10**30, "~1e+30"), (3 * 10**30, "~3e+30"), (-(10**40), "~-1e+40"),
                         (10**1000, "~1e+1000"), (10**5000, "~1e+5000"), (123 * 10**50, "~1.23e+52")]:
        with pytest.raises(RulesError) as info:
            Rules(target=value)
        assert str(info.value) == f"Rules.target: must be from 1 to 1000 points (got {shown})"


def test_long_values_are_cut_in_messages() -> None:
    with pytest.raises(RulesError) as info:
        Rules(loner_lead="x" * 10_000)
    assert len(str(info.value)) < 120 and str(info.value).endswith("...)")
    with pytest.raises(RulesError, match=r"Rules\.deck: must be a whole number \(got <list>\)"):
        Rules(deck=[10**5000])  # type: ignore[arg-type]  # its repr would raise ValueError


@pytest.mark.parametrize("how", list(BUILDERS))
@pytest.mark.parametrize("name", [*INT_FIELDS, "players", "deck"])
def test_bools_refused_where_ints_expected(name: str, how: str) -> None:
    for value in (True, False):
        with pytest.raises(RulesError, match=rf"Rules\.{name}: must be a whole number"):
            BUILDERS[how](_ending(name, value))


@pytest.mark.parametrize("how", list(BUILDERS))
def test_duration_bounds(how: str) -> None:
    build = BUILDERS[how]
    for ok in (1440, 1440.0, 0.5, 1e-9, 1, 30):
        assert build(_ending("duration", ok)).duration == ok
    for bad in (0, 0.0, -0.0, -1e-9, 1440.000001, 1441, math.nan, math.inf, -math.inf, 1e308, 10**30, 10**400):
        with pytest.raises(RulesError, match=r"^Rules\.duration: must be above 0 and at most 1440 minutes \(got "):
            build(_ending("duration", bad))
    for wrong in (True, False, "30", [30]):
        with pytest.raises(RulesError, match=r"^Rules\.duration: must be a number of minutes"):
            build(_ending("duration", wrong))


def test_from_dict_of_a_record_with_huge_values() -> None:
    data = Rules().to_dict()
    for name, value in [("make_points", 10**19), ("target", 10**30), ("super_euchre_points", 2**63)]:
        with pytest.raises(RulesError, match=rf"Rules\.{name}: must be from"):
            Rules.from_dict({**data, name: value})


@pytest.mark.parametrize("name", Rules.preset_names())
def test_presets_within_bounds_and_rules_md_variants_expressible(name: str) -> None:
    r = Rules.preset(name)
    for field, (low, high) in FIELD_BOUNDS.items():
        value = getattr(r, field)
        assert value is None or low <= value <= high
    # RULES.md sections 6 and 7: settable loner values, any target a table plays, timed and
    # progressive games; the extremes of a long evening and of a quick hand stay valid.
    for fields in ({"target": 15}, {"target": 21}, {"target": 100}, {"duration": 30}, {"duration": 240},
                   {"deals": 8}, {"deals": 1000}, {"super_euchre": True}):
        if r.bids_tricks and ("target" not in fields):
            continue  # the auction games: a target the only ending, none of RULES.md's switches (18.7, 18.8)
        if r.napoleon and "super_euchre" in fields:
            continue  # Napoleon: any ending, none of RULES.md's switches (18.9)
        built = Rules.preset(name, **fields)
        assert all(getattr(built, k) == v for k, v in fields.items())
    if r.players == 4 and r.sister_game is None:
        assert Rules.preset(name, loner_march_points=0, loner_euchre_points=8, defend_alone=True,
                            lone_defender_euchre_points=6, super_euchre=True, super_euchre_points=8).super_euchre


def test_three_players_built_from_fields_score_by_the_player_count() -> None:
    """RULES.md section 6: the three-player row (a march scores 3) holds for any three-player
    rules, not only the cut-throat preset; an explicit value still wins."""
    from euchre.state import State

    fields = Rules(players=3, deck=20, going_alone=False)
    assert fields == Rules.preset("cut-throat") and fields.preset_name() == "cut-throat"
    assert fields.march_points == 3
    assert Rules.preset("american", players=3, deck=20, going_alone=False).march_points == 3
    assert Rules(players=3, deck=20, going_alone=False, march_points=2).march_points == 2
    assert Rules().replace(players=3, deck=20, going_alone=False).march_points == 3
    assert Rules(players=2, going_alone=False).march_points == 2 and Rules().march_points == 2
    assert Rules(march_points=5).replace(players=3, deck=20, going_alone=False).march_points == 5
    s = State(fields, dealer=0, hands=["Ah Kh Qh Jh Th", "Ac Kc Qc Jc Tc", "As Ks Qs Js Ts"], up_card="Ad")
    s.maker = 1
    assert s.score_for(5) == (0, 3, 0) and s.score_for(3) == (0, 1, 0) and s.score_for(2) == (2, 0, 2)


def test_seat_questions() -> None:
    four, three, two = Rules(), Rules.preset("cut-throat"), Rules.preset("two-handed")
    assert four.side_seats == ((0, 2), (1, 3)) and three.side_seats == ((0,), (1,), (2,))
    assert [four.partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [three.partner(s) for s in range(3)] == [None] * 3 and two.partner(0) is None
    assert [four.opponents(s) for s in range(4)] == [(1, 3), (0, 2), (1, 3), (0, 2)]
    assert three.opponents(0) == (1, 2) and two.opponents(1) == (0,)
    for r in (four, three, two):
        assert len(r.side_seats) == r.sides
        for side in range(r.sides):
            assert all(r.side_of(s) == side for s in r.seats_of(side))
        assert sorted(s for seats in r.side_seats for s in seats) == list(range(r.players))
