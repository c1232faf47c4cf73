"""Rules: defaults, presets and aliases, overrides, and validation messages that name the field."""

from __future__ import annotations

import dataclasses

import pytest

from euchre import Rules, RulesError

PRESET_TABLE = {
    # name: (players, deck, target, duration, going_alone, canadian_loner, march_points)
    "american": (4, 24, 10, None, True, False, 2),
    "british": (4, 25, 11, None, True, True, 2),
    "long": (4, 24, 15, None, True, False, 2),
    "timed": (4, 24, None, 30, True, False, 2),
    "two-handed": (2, 24, 10, None, False, False, 2),
    "cut-throat": (3, 20, 10, None, False, False, 3),
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
    assert set(Rules.preset_names()) == set(PRESET_TABLE)
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
    ({"target": 0}, "target", "positive"),
    ({"target": -3}, "target", "positive"),
    ({"target": None, "deals": 0}, "deals", "positive"),
    ({"target": None, "duration": -1}, "duration", "positive"),
    ({"target": True}, "target", "positive"),
    ({"target": None, "duration": float("nan")}, "duration", "positive number of minutes"),
    ({"target": None, "duration": float("inf")}, "duration", "positive number of minutes"),
    ({"target": None, "duration": "30"}, "duration", "positive number of minutes"),
    ({"target": 10.5}, "target", "whole number"),
    ({"loner_lead": "left"}, "loner_lead", "dealer_left, loner_left"),
    ({"make_points": -1}, "make_points", "negative"),
    ({"super_euchre_points": -1}, "super_euchre_points", "negative"),
    ({"going_alone": "yes"}, "going_alone", "true or false"),
    ({"stick_the_dealer": 1}, "stick_the_dealer", "true or false"),
    ({"players": 4.0}, "players", "whole number"),
    ({"march_points": True}, "march_points", "whole number"),
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
        r = Rules.preset(name, super_euchre=True)
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
    with pytest.raises(RulesError, match=f"Rules.{name}: must be at least 1"):
        Rules(**{name: 0})
