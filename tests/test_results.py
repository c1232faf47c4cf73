"""One result object for a finished hand (``euchre.results.HandResult``), the same from the hand
and from every view of it, and the one every consumer reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre.bots import make_bot
from euchre.describe import hand_result_words
from euchre.results import HandResult, Outcome

PRESETS = ["american", "british", "long", "two-handed", "cut-throat"]


def _played(rules: Rules, seed: int) -> Game:
    game = Game(rules, seed=seed)
    bot = make_bot("random", seed=seed)
    while not game.is_over:
        game.push(bot.choose(game.view(game.to_act)))
    return game


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), switches=st.fixed_dictionaries({
    "super_euchre": st.booleans(), "stick_the_dealer": st.booleans()}))
def test_the_result_is_the_same_from_the_hand_and_every_view(preset: str, seed: int, switches: dict[str, bool]) -> None:
    rules = Rules.preset(preset, **switches)
    game = _played(rules, seed)
    for i, hand in enumerate(game.hands):
        r = hand.result()
        assert r is not None and r.points == hand.points
        for seat in [None, *range(rules.players)]:
            assert HandResult.of_view(game.view(seat, i)) == r
        if r.thrown_in:
            assert r.maker is None and r.points == (0,) * rules.sides and not r.scorers
            continue
        assert r.maker == hand.maker and r.maker_side == rules.side_of(hand.maker)
        assert r.maker_tricks == hand.maker_tricks()
        assert r.outcome is (Outcome.MARCH if r.maker_tricks == 5 else Outcome.MADE if r.maker_tricks >= 3
                             else Outcome.EUCHRED)
        # the scoring table agrees: makers score when they make it, every other side when euchred
        if r.made:
            assert r.scorers == (r.maker_side,)
        else:
            assert set(r.scorers) == set(range(rules.sides)) - {r.maker_side}
        assert r.super_euchre == (r.euchred and r.maker_tricks == 0 and rules.super_euchre)
        assert r.to_dict()["outcome"] == str(r.outcome)


def test_a_hand_in_play_has_no_result() -> None:
    game = Game(Rules(), seed=1)
    assert game.state.result() is None
    with pytest.raises(ValueError, match="not over"):
        HandResult.of(game.state)


def test_the_words_follow_the_result() -> None:
    game = _played(Rules(), 3)
    names = ["You", "West", "North", "East"]
    for i, hand in enumerate(game.hands):
        r = hand.result()
        assert r is not None
        words = hand_result_words(game.view(0, i), names)
        expected = {Outcome.MADE: "made it", Outcome.MARCH: "marched", Outcome.EUCHRED: "euchred",
                    Outcome.THROWN_IN: "thrown in"}[r.outcome]
        assert expected in words, (r, words)


def test_statistics_count_by_the_result(tmp_path: Path) -> None:
    """``euchre simulate`` counts made, marched and euchred hands as the results of its saved
    games say."""
    from euchre import notation
    from euchre.cli import simulate

    rules = Rules()
    stats = simulate(rules, 4, 9, "random", save_dir=tmp_path)
    made = [0, 0]
    marches = [0, 0]
    euchred = [0, 0]
    for path in sorted(tmp_path.iterdir()):
        for hand in notation.load(path).replay().hands:
            r = hand.result()
            if r is None or r.thrown_in:
                continue
            assert r.maker_side is not None
            made[r.maker_side] += r.made
            marches[r.maker_side] += r.march
            euchred[r.maker_side] += r.euchred
    assert [s["made"] for s in stats["sides"]] == made
    assert [s["marches"] for s in stats["sides"]] == marches
    assert [s["euchred"] for s in stats["sides"]] == euchred
