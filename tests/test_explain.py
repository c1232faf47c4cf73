"""The rules in plain words (euchre.explain) and how to play, as ``euchre rules`` prints them and
the ``/learn`` page shows them: every preset, every switch, the numbers of the Rules fields, and no
Python anywhere."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre.cli import main
from euchre.errors import RulesError
from euchre.explain import (
    how_to_play,
    how_to_play_sections,
    preset_title,
    rules_from_strings,
    rules_in_words,
    rules_payload,
    rules_sections,
)
from euchre.rules import FIELD_BOUNDS, PRESETS, Rules

PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\b\w+_\w+\b|[{}\[\]<>]|\b\w+=\w|\w\(\)")
"""``None``/``True``/``False``, a field name (``dealer_left``), a repr's brackets, ``k=v``, a call."""


def text(rules: Rules, preset: str | None = None) -> str:
    return " ".join(rules_in_words(rules, preset))


def section(rules: Rules, title: str) -> str:
    found = [" ".join(s.paragraphs) for s in rules_sections(rules) if s.title == title]
    assert found, f"no section {title!r}"
    return found[0]


def points(n: int) -> str:
    return "no points" if n == 0 else "1 point" if n == 1 else f"{n} points"


def assert_plain(words: list[str], where: Any) -> None:
    assert words, where
    for w in words:
        assert not PYTHON.findall(w), f"{where}: Python in {w!r}: {PYTHON.findall(w)}"
        assert w.strip() == w and w[0].isupper() and w[-1] in ".)", f"{where}: not a sentence: {w!r}"
        assert "  " not in w, w


# --- every preset --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_in_plain_words(name: str) -> None:
    rules = Rules.preset(name)
    sections = rules_sections(rules, name)
    assert sections[0].title == preset_title(name)
    assert sections[0].paragraphs == (f"The rules of {preset_title(name).replace('The long', 'the long')}.",)
    assert [s.title for s in sections[1:4]] == ["Players", "The cards", "The deal"]
    assert_plain(rules_in_words(rules, name), name)
    words = text(rules)
    if rules.napoleon:  # RULES-FAMILY.md 16: each for themselves, the first lead fixes trump, payments
        assert f"the pack has {rules.deck} cards" in words and "no bower" in words
        assert "Four players, each playing for themselves" in words and "three then two" in words
        assert "Wellington (all five, only over a Nap)" in words and "suit of that first card is trump" in words
        assert "paid its value by every other player" in words and "eight played hands" in words
        return
    assert f"The pack has {rules.deck} cards" in words
    assert "right bower" in words and "left bower" in words
    if rules.auction:  # Hasenpfeffer: six cards, bids of tricks, trick scoring
        assert "Each player gets six cards" in words and "bid 3" in words and "-10 or below" in words
        return
    if rules.double_deck:  # RULES-FAMILY.md 15's double deck: twelve each, bids 6 to 12, a moon of 24
        assert "Each player gets twelve cards" in words and "from 6 to 12" in words and "scores 24" in words
        assert "each card twice" in words and "the one played first ranks higher" in words
        return
    if rules.bid_euchre:  # RULES-FAMILY.md 15: bids 3 to 6, the moon, high and low, the winning rule
        assert "Each player gets six cards" in words and "from 3 to 6" in words and "shoot the moon" in words
        assert "high (no trump" in words and "low (no trump" in words and "the dealer is stuck" in words
        assert "scores 12" in words and "made its bid" in words and "-32 or below" in words
        return
    assert "Each player gets five cards" in words
    assert f"for three or four tricks and {points(rules.march_points)} for all five" in words
    assert f"scores {points(rules.euchre_points)}" in words or f"score {points(rules.euchre_points)}" in words


def test_american() -> None:
    words = text(Rules())
    assert "Four players in two partnerships" in words
    assert "the 9, 10" not in words and "ace, king, queen, jack, 10 and 9 of each suit" in words
    assert "The other four cards are the kitty" in words
    assert "Joker" not in words and "Canadian" not in words and "Stick the dealer" not in words
    assert "the hand is thrown in: nobody scores" in words
    assert "may go alone" in words and "A lone maker who takes all five tricks scores 4 points" in words
    assert "The first side to reach 10 points wins the game." in words
    assert "level" not in words  # one side scores a hand: no tie at the target in the four-player game


def test_british_has_the_joker_eleven_points_and_the_canadian_loner() -> None:
    words = text(Rules.preset("british"))
    assert "and one Joker" in words and "from high to low: the Joker, the jack of trump" in words
    assert "If the up card is the Joker there is no bidding" in words
    assert "The first side to reach 11 points wins the game." in words
    assert "Canadian loner: in the first round the dealer's partner may order up only by going alone." in words


def test_two_handed_and_cut_throat() -> None:
    two = text(Rules.preset("two-handed"))
    assert "Two players, each playing for themselves" in two and "partnership" not in two
    assert "The non-dealer leads the first trick." in two
    assert "the dealer may take the up card" in two and "or leave it" in two
    assert "alone" not in two and "The other 14 cards are the kitty" in two
    assert "the other player scores 2 points" in two
    assert "9, 8 and 7" in text(Rules.preset("two-handed", deck=32))

    three = text(Rules.preset("cut-throat"))
    assert "Three players, each playing for themselves" in three and "plays alone against the other two" in three
    assert "ace, king, queen, jack and 10 of each suit" in three and "and 9" not in three
    assert "3 points for all five" in three and "each opponent scores 2 points" in three
    assert "If one hand brings more than one player to 10, the higher score wins." in three


def test_endings() -> None:
    assert "The game lasts 30 minutes" in text(Rules.preset("timed"))
    assert "The game lasts 12.5 minutes" in text(Rules.preset("timed", duration=12.5))
    assert "The game lasts 1 minute:" in text(Rules.preset("timed", duration=1))
    assert "The game lasts 30 seconds" in text(Rules.preset("timed", duration=0.5))
    assert "The game lasts 1440 minutes" in text(Rules.preset("timed", duration=1439.999))
    deals = text(Rules.preset("american", deals=8))
    assert "The game lasts eight played hands (a hand thrown in does not count)" in deals
    assert "one played hand (" in text(Rules(target=None, deals=1))
    assert "first side to reach 15 points" in text(Rules.preset("long"))
    assert "first side to reach 1 point wins" in text(Rules(target=1))


# --- every switch --------------------------------------------------------------------------------------
SWITCHED: list[tuple[str, Rules, dict[str, Any], str]] = [
    ("stick_the_dealer", Rules(), {"stick_the_dealer": True},
     "the dealer must name a trump if everyone passes twice"),
    ("stick_the_dealer", Rules.preset("two-handed"), {"stick_the_dealer": True}, "the dealer may not pass"),
    ("canadian_loner", Rules(), {"canadian_loner": True}, "Canadian loner"),
    ("defend_alone", Rules(), {"defend_alone": True}, "may declare to defend alone"),
    ("loner_lead", Rules(), {"loner_lead": "loner_left"}, "the player to the maker's left leads instead"),
    ("going_alone", Rules(), {"going_alone": False}, "Nobody may go alone"),
    ("no_trump", Rules(), {"no_trump": True}, "may call \"no trump\""),
    ("low_no_trump", Rules(no_trump=True), {"low_no_trump": True}, "the 9 highest"),
    ("call_for_best", Rules(), {"call_for_best": True}, "a lone maker receives one card from the partner"),
    ("call_for_best", Rules(), {"call_for_best": True}, "the dealer adds the up card to their hand"),
    ("call_for_best", Rules(defend_alone=True), {"call_for_best": True},
     "calls for the partner's best card in the same way"),
    ("best_card_free", Rules(call_for_best=True), {"best_card_free": True},
     "The partner always chooses the card to give."),
    ("ace_no_face", Rules(), {"ace_no_face": True}, "may, in turn from the dealer's left, call a misdeal"),
    ("farmers_hand", Rules(), {"farmers_hand": True}, "take the three cards under the up card"),
    ("super_euchre", Rules(), {"super_euchre": True, "super_euchre_points": 6},
     "give the defenders 6 points"),
    ("super_euchre", Rules.preset("cut-throat"), {"super_euchre": True}, "gives each opponent 4 points"),
    ("super_euchre_points", Rules(super_euchre=True), {"super_euchre_points": 7}, "7 points"),
    ("dealer_may_discard_up_card", Rules(), {"dealer_may_discard_up_card": False},
     "never the card just picked up"),
    ("dealer_may_discard_up_card", Rules.preset("british"), {"dealer_may_discard_up_card": False},
     "discards any card but the Joker"),
    ("tie_break", Rules.preset("timed"), {"tie_break": False}, "share the win"),
    ("match_wins", Rules(), {"match_wins": 2}, "the first side to win two games takes the match"),
    ("match_games", Rules(), {"match_games": 3}, "a match of three games, all played"),
    ("slam", Rules(match_wins=2), {"slam": True}, "counts as two games won"),
    ("laps", Rules(match_wins=2), {"laps": True}, "starts the next with its final score less 10"),
    ("tie_break", Rules.preset("cut-throat"), {"tie_break": False}, "the players level on top share the win"),
    ("make_points", Rules(), {"make_points": 3}, "The makers score 3 points for three or four tricks"),
    ("march_points", Rules(), {"march_points": 5}, "5 points for all five (a march)"),
    ("loner_march_points", Rules(), {"loner_march_points": 6}, "takes all five tricks scores 6 points"),
    ("euchre_points", Rules(), {"euchre_points": 3}, "the defenders score 3 points"),
    ("loner_euchre_points", Rules(), {"loner_euchre_points": 5}, "euchring a lone maker scores 5 points"),
    ("lone_defender_euchre_points", Rules(defend_alone=True), {"lone_defender_euchre_points": 8},
     "A lone defender who euchres the lone maker scores 8 points"),
    ("deck", Rules(), {"deck": 25}, "one Joker"),
    ("deck", Rules(), {"deck": 32}, "32 cards"),
    ("players", Rules.preset("two-handed"), {"players": 3}, "Three players"),
    ("target", Rules(), {"target": 7}, "reach 7 points"),
    ("duration", Rules.preset("timed"), {"duration": 45}, "45 minutes"),
    ("auction", Rules(deck=25, going_alone=False), {"auction": True}, "bid a number of tricks from 1 to 6"),
    ("bid_euchre", Rules(going_alone=False, target=32), {"bid_euchre": True}, "or shoot the moon"),
    ("defenders_score_tricks", Rules.preset("hasenpfeffer"), {"defenders_score_tricks": True},
     "The defenders score one point for each trick they took"),
    ("deals", Rules(target=None, deals=4), {"deals": 6}, "six played hands"),
    ("double_deck", Rules.preset("bid-euchre"), {"double_deck": True}, "Two packs of 24 are shuffled together"),
    ("napoleon", Rules(players=3, going_alone=False, target=None, deals=6, march_points=2), {"napoleon": True},
     "the highest bidder (Napoleon) plays alone against all the others"),
    ("nap_half_loss", Rules.preset("napoleon"), {"nap_half_loss": True}, "a failed Nap costs only 5 a player"),
]


@pytest.mark.parametrize(("field", "base", "change", "said"), SWITCHED,
                         ids=[f"{f}-{i}" for i, (f, *_) in enumerate(SWITCHED)])
def test_each_switch_changes_the_words(field: str, base: Rules, change: dict[str, Any], said: str) -> None:
    switched = base.replace(**change)
    assert said not in text(base)
    assert said in text(switched)
    assert_plain(rules_in_words(switched), change)


def test_every_field_has_a_switch_case() -> None:
    """Each Rules field that changes play is covered above (a new field needs its words)."""
    assert {f for f, *_ in SWITCHED} == set(Rules().to_dict())


def test_the_largest_euchre_value_is_said_when_several_apply() -> None:
    words = text(Rules(defend_alone=True, super_euchre=True))
    assert "When more than one of these values fits a euchre, only the largest counts." in words
    assert "only the largest" not in text(Rules())


def test_a_changed_preset_says_so() -> None:
    assert rules_in_words(Rules.preset("british", stick_the_dealer=True), "uk")[0] == \
        "The rules of British Euchre, with some switches changed."
    with pytest.raises(RulesError):
        rules_sections(Rules(), "no-such-game")


# --- random rules -----------------------------------------------------------------------------------------
def _bounded(name: str) -> st.SearchStrategy[int]:
    low, high = FIELD_BOUNDS[name]
    return st.integers(low, high)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    players = draw(st.sampled_from([2, 3, 4]))
    deck = draw(st.sampled_from([d for d in (20, 24, 25, 32) if d >= players * 5 + 1]))
    ending = draw(st.sampled_from(["target", "duration", "deals"]))
    fields: dict[str, Any] = {"players": players, "deck": deck, "target": None, ending: draw(
        _bounded("target") if ending == "target" else _bounded("deals") if ending == "deals"
        else st.floats(0.001, 1440, allow_nan=False))}
    four = players == 4
    alone = four and draw(st.booleans())
    fields.update(
        going_alone=alone,
        canadian_loner=alone and draw(st.booleans()),
        defend_alone=alone and draw(st.booleans()),
        loner_lead=draw(st.sampled_from(["dealer_left", "loner_left"])) if four else "dealer_left",
        stick_the_dealer=draw(st.booleans()), super_euchre=draw(st.booleans()),
        dealer_may_discard_up_card=draw(st.booleans()), tie_break=draw(st.booleans()),
    )
    for name in ("make_points", "march_points", "loner_march_points", "euchre_points", "loner_euchre_points",
                 "lone_defender_euchre_points", "super_euchre_points"):
        fields[name] = draw(_bounded(name))
    return Rules(**fields)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_rules(), st.sampled_from([None, *PRESETS]))
def test_random_rules_are_plain_words_with_their_numbers(rules: Rules, preset: str | None) -> None:
    words = rules_in_words(rules, preset)
    assert_plain(words, rules.diff())
    joined = " ".join(words)
    assert f"The pack has {rules.deck} cards" in joined
    assert f"for three or four tricks and {points(rules.march_points)} for all five" in joined
    assert f"score {points(rules.make_points)} for three or four tricks" in joined or \
        f"scores {points(rules.make_points)} for three or four tricks" in joined
    assert points(rules.euchre_points) in section(rules, "Scoring")
    if rules.players == 4 and rules.going_alone:
        assert f"takes all five tricks scores {points(rules.loner_march_points)}" in joined
        assert points(rules.loner_euchre_points) in section(rules, "Scoring")
    if rules.defend_alone:
        assert f"euchres the lone maker scores {points(rules.lone_defender_euchre_points)}" in joined
    if rules.super_euchre:
        assert f"{points(rules.super_euchre_points)}." in section(rules, "Scoring")
        assert "Super-euchre" in joined
    else:
        assert "Super-euchre" not in joined
    assert ("must name a trump if everyone passes twice" in joined) == rules.stick_the_dealer
    assert ("Canadian loner" in joined) == rules.canadian_loner
    assert ("defend alone" in joined) == rules.defend_alone
    assert ("Joker" in joined) == rules.has_joker
    if rules.target is not None:
        assert f"to reach {points(rules.target)} wins" in joined
    elif rules.deals is not None:
        assert "played hand" in joined
    else:
        assert "The game lasts " in joined and ("minute" in joined or "second" in joined)


# --- how to play -------------------------------------------------------------------------------------------
def test_how_to_play_is_short_and_agrees_with_the_default_rules() -> None:
    words = how_to_play()
    assert_plain(words, "how to play")
    joined = " ".join(words)
    assert len(joined.split()) < 600
    assert [s.title for s in how_to_play_sections()] == ["The goal", "Tricks", "Trump and the bowers",
                                                         "Naming trump", "Going alone", "Scoring"]
    r = Rules()
    for said in ("at least three of the five tricks", "follow the suit led", "right bower", "left bower",
                 "order it up", "alone", "euchred", f"({r.target} points in the usual game)",
                 f"scores {r.make_points} point for three or four tricks and {r.march_points} for all five",
                 f"scores {r.loner_march_points} points instead of {r.march_points}",
                 f"the other side scores {r.euchre_points}", "jack of diamonds"):
        assert said in joined, said


# --- rules from text (the /learn page's address) ----------------------------------------------------------
def test_rules_from_strings() -> None:
    assert rules_from_strings("uk", {}) == Rules.preset("british")
    assert rules_from_strings("american", {"stick_the_dealer": "yes", "target": "7", "loner-lead": "loner_left"}) \
        == Rules(stick_the_dealer=True, target=7, loner_lead="loner_left")
    assert rules_from_strings("american", {"deals": "8"}) == Rules(target=None, deals=8)
    assert rules_from_strings("timed", {"duration": "12.5", "tie_break": "off"}) == \
        Rules.preset("timed", duration=12.5, tie_break=False)
    assert rules_from_strings("timed", {"target": "none"}) == Rules.preset("timed")
    for bad in ({"nosuch": "1"}, {"stick_the_dealer": "maybe"}, {"target": "ten"}, {"target": "0"},
                {"players": "2"}, {"loner_lead": "me"}):
        with pytest.raises(RulesError):
            rules_from_strings("american", bad)


def test_rules_payload() -> None:
    p = rules_payload(Rules.preset("british"), "uk")
    assert p["preset"] == "british" and p["title"] == "British Euchre" and p["changed"] is False
    assert p["heading"] == "The rules of British Euchre"
    assert p["words"][0] == {"title": "British Euchre", "paragraphs": ["The rules of British Euchre."]}
    assert p["how_to_play"][0]["title"] == "The goal"
    assert rules_payload(Rules.preset("long"))["heading"] == "The rules of the long game"
    assert rules_payload(Rules.preset("long"), "gone-preset")["preset"] == "long"
    custom = rules_payload(Rules(target=3, deck=25))
    assert custom["preset"] is None and custom["changed"] is True and custom["words"][0]["title"] == "Players"


# --- the terminal ------------------------------------------------------------------------------------------
def flat(out: str) -> str:
    return " ".join(out.split())


def test_euchre_rules_prints_the_words_then_the_switches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "british"]) == 0
    out = capsys.readouterr().out
    words, table = out.split("\nSwitches ", 1)
    assert "Joker" in words and "The first side to reach 11 points wins the game." in flat(words)
    assert "--canadian-loner" in table and "--stick-the-dealer" in table
    assert max(len(line) for line in words.splitlines()) <= 88
    assert not PYTHON.findall(words.replace("euchre rules", ""))


def test_euchre_rules_with_switches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "british", "--stick-the-dealer", "--target", "7"]) == 0
    out = flat(capsys.readouterr().out)
    assert "the dealer must name a trump if everyone passes twice" in out
    assert "reach 7 points" in out and "with the switches given, the rules are: british with --" in out
    assert "--stick-the-dealer" in out.split("Players")[0] and "--target 7" in out.split("Players")[0]
    assert main(["rules", "--defend-alone"]) == 0  # no preset: the american game with the switch
    assert "may declare to defend alone" in flat(capsys.readouterr().out)


def test_euchre_rules_how_to_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--how-to-play"]) == 0
    out = flat(capsys.readouterr().out)
    assert all(p in out for p in how_to_play())
    assert "euchre rules PRESET" in out and "Switches" not in out
    assert main(["rules"]) == 0  # without anything: the list of presets, as before
    assert capsys.readouterr().out.startswith("Presets")
