"""Every error the package raises on purpose is of its family (:class:`euchre.errors.EuchreError`),
precise, and still the built-in class (``ValueError`` / ``IndexError``) callers may catch."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from euchre.bots import make_bot
from euchre.cards import Card
from euchre.errors import (
    DealError,
    EmptyHistoryError,
    EuchreError,
    InvalidActionError,
    PhaseError,
    RulesError,
    SeatError,
)
from euchre.game import Game
from euchre.rules import Rules
from euchre.solver import Solver
from euchre.state import State


@pytest.mark.parametrize("dealer", [9, -1, 4])
def test_a_game_with_a_dealer_that_is_no_seat(dealer: int) -> None:
    with pytest.raises(DealError, match=rf"dealer must be a seat 0\.\.3, got {dealer}") as e:
        Game(Rules(), seed=1, dealer=dealer)
    assert isinstance(e.value, EuchreError) and isinstance(e.value, ValueError)


def test_a_game_whose_deals_do_not_follow_the_dealer() -> None:
    deal = State.random(Rules(), dealer=2, rng=random.Random(0)).deal
    with pytest.raises(DealError, match="deal 0 is dealt by seat 2, but seat 1 deals"):
        Game(Rules(), seed=1, dealer=1, deals=[deal])


def test_the_view_of_a_seat_that_does_not_exist() -> None:
    g = Game(Rules(), seed=1)
    with pytest.raises(SeatError, match=r"seat must be 0\.\.3 \(or None, a spectator\), got 7") as e:
        g.view(7)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("value", [77, 90, -1])
def test_a_card_id_out_of_range(value: int) -> None:
    with pytest.raises(InvalidActionError,
                       match=rf"not a card id: {value} \(0\.\.32.*33\.\.52 the 2s to 6s; 53\.\.76") as e:
        print(Card(value))
    assert isinstance(e.value, EuchreError) and isinstance(e.value, ValueError)


def test_every_card_id_is_a_card() -> None:
    assert [str(Card(i)) for i in (0, 12, 31, 32)] == ["7c", "Jd", "As", "Jk"]


def test_popping_a_game_with_no_actions() -> None:
    g = Game(Rules(), seed=1)
    with pytest.raises(EmptyHistoryError, match="pop from a game with no actions") as e:
        g.pop()
    assert isinstance(e.value, EuchreError) and isinstance(e.value, IndexError)
    g.push(g.legal_actions()[0])
    g.pop()
    with pytest.raises(EmptyHistoryError):
        g.pop()


def test_solving_a_hand_not_in_trick_play() -> None:
    s = State.random(Rules(), dealer=0, rng=random.Random(0))
    with pytest.raises(PhaseError, match="the solver needs a hand in trick play, not the first round of bidding") as e:
        Solver().solve(s)
    assert isinstance(e.value, EuchreError) and isinstance(e.value, ValueError)
    s.push("pass")
    for _ in range(3):
        s.push("pass")
    with pytest.raises(PhaseError, match="not the second round of bidding"):
        Solver().solve(s)


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda g: g.view("0"), SeatError, "seat must be 0..3 (or None, a spectator), got '0'"),
    (lambda g: g.view(True), SeatError, "got True"),
    (lambda g: g.view(0, hand=5), IndexError, "hand must be an index of the game's 1 hands, got 5"),
    (lambda g: Game("british"), RulesError, "rules must be a Rules (e.g. Rules.preset('british') for a preset)"),
    (lambda g: Game({"deck": 24}), RulesError, "rules must be a Rules, not dict"),
    (lambda g: Rules.preset(None), RulesError, "a preset is named by a string"),
    (lambda g: Game(Rules(), scores=["a", "b"]), ValueError, "scores must give 2 sides' whole points"),
    (lambda g: make_bot(None), ValueError, "a bot is named by a string"),
])
def test_a_wrong_type_at_the_api_gets_the_packages_error(call: Any, error: type[Exception], words: str) -> None:
    """Not an AttributeError or TypeError from inside (``'NoneType' object has no attribute
    'strip'``), nor a seat True taken as seat 1."""
    with pytest.raises(error, match=re.escape(words)):
        call(Game(Rules(), seed=1))


def test_the_learning_environment_names_what_is_wrong() -> None:
    from euchre.envs.euchre_v0 import raw_env

    env = raw_env()
    with pytest.raises(RuntimeError, match=r"reset\(\) the environment first"):
        env.step(0)
    with pytest.raises(TypeError, match="must be a list of euchre.state.Deal"):
        env.reset(options={"deals": [1, 2]})
    env.reset(seed=1)
    with pytest.raises(ValueError, match="no agent 'bob' here; the agents are player_0"):
        env.action_space("bob")
    with pytest.raises(ValueError, match="no agent 'player_9' here"):
        env.observe("player_9")
    before = env.game.actions()
    with pytest.raises(TypeError, match="not True"):
        env.step(True)
    assert env.game.actions() == before
