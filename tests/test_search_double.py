"""The search bot in Bid Euchre's double deck (RULES-FAMILY.md 15): the heuristic plays the
twelve-card part of the hand, the search the last five tricks. The solver on the double deck's
two copies of every card (renumbered onto local ids, the first played of two copies winning)
against a plain minimax over the engine, the resampling of a double-deck view, and the bot's
and the hints' dispatch."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_search_napoleon import minimax  # the reference alpha-beta over the engine's moves

from euchre import Game, Rules, State
from euchre.bots import make_bot
from euchre.bots.search import SearchBot
from euchre.bots.search_double import SOLVE_CARDS, double_searches
from euchre.cards import face, iter_mask
from euchre.errors import RulesError
from euchre.hints import hint, hintable, searchable
from euchre.solver import MAX_HAND, Solver
from euchre.state import Phase
from euchre.view import PlayerView

DOUBLE = Rules.preset("bid-euchre-double")




def late_positions(count: int, cards: int, seed: int, mid_trick: bool = False) -> list[State]:
    """Positions of heuristic games (no moon) once every hand holds at most ``cards`` cards."""
    out: list[State] = []
    g = 0
    while len(out) < count:
        game = Game(DOUBLE, seed=seed * 1000 + g)
        g += 1
        bots = [make_bot("hard", seed=s) for s in range(4)]
        while not game.is_over and len(game.hands) < 2:
            st = game.state
            if (st.phase is Phase.PLAY and not st.moon and bool(st.trick) == mid_trick
                    and max(m.bit_count() for m in st.hands) <= cards):
                out.append(st.copy(stack=False))
                break
            game.push(bots[game.to_act].choose(game.view(game.to_act)))
    return out


@pytest.mark.parametrize("mid_trick", [False, True])
def test_the_solver_matches_minimax_on_double_deck_endings(mid_trick: bool) -> None:
    solver = Solver()
    twice = 0
    for st in late_positions(8, 4, 1 + mid_trick, mid_trick):
        faces = Counter(face(c) for m in st.hands for c in iter_mask(m))
        twice += any(n == 2 for n in faces.values())  # both copies of a card still in play
        assert solver.solve(st) == minimax(st.copy(stack=False), -1, 13)
        for a, v in solver.action_values(st).items():
            t = st.copy(stack=False)
            t._push(a)
            assert v == minimax(t, -1, 13), a
        assert st.score_for(solver.outcome(st)) == st.score_for(solver.solve(st))
    assert twice > 0


def test_the_solver_refuses_more_than_six_cards_a_hand() -> None:
    st = late_positions(1, 12, 3)[0]
    assert max(m.bit_count() for m in st.hands) > MAX_HAND
    with pytest.raises(Exception, match="at most 6"):
        Solver().solve(st)


def test_a_double_deck_view_resamples_with_its_copies() -> None:
    game = Game(DOUBLE, seed=4)
    bots = [make_bot("hard", seed=s) for s in range(4)]
    checked = 0
    while not game.is_over and len(game.hands) < 2:
        view = game.view(game.to_act)
        if not view.moon:
            s = view.resample(random.Random(checked))
            assert s.phase is game.state.phase and s.to_act == game.state.to_act
            assert Counter(face(c) for c in iter_mask(s.hands[view.seat])) == Counter(map(face, view.hand))  # type: ignore[index]
            assert sorted(s.legal_actions()) == sorted(view.legal_actions)
            assert sum(m.bit_count() for m in s.hands) == sum(m.bit_count() for m in game.state.hands)
            checked += 1
        game.push(bots[game.to_act].choose(view))
    assert checked > 40


def test_the_bot_searches_the_last_five_tricks_only() -> None:
    st = late_positions(1, 12, 5)[0]
    view = PlayerView.of(st, st.to_act)
    assert not double_searches(view) and not searchable(view)
    bot = SearchBot(seed=2)
    assert bot.choose(view) == bot._policy.choose(view)
    for seed in (6, 7):
        st = late_positions(1, SOLVE_CARDS, seed)[0]
        view = PlayerView.of(st, st.to_act)
        assert double_searches(view) and searchable(view) and not hintable(view)
        picks = [SearchBot(seed=3, samples=30).choose(view) for _ in range(2)]
        assert picks[0] == picks[1] and picks[0] in view.legal_actions
        h = hint(view, samples=40)
        assert {x.action for x in h} == set(view.legal_actions)
        assert [(x.action, x.points) for x in h] == [(x.action, x.points) for x in hint(view, samples=40)]


def test_a_moons_last_tricks_are_searched_from_every_seat() -> None:
    """A double-deck moon (the partner sitting out with its cards, the gift and discard hidden
    from the defenders): its last five tricks are searched from the shooter's and the defenders'
    seats alike, each decision legal and the same on the same seed."""
    seen: set[str] = set()
    for seed in range(60):
        game, rng = Game(DOUBLE, seed=seed), random.Random(seed)
        while not game.is_over and len(game.hands) < 2:
            view = game.view(game.to_act)
            if view.moon and double_searches(view) and len(view.legal_actions) > 1:
                role = "shooter" if view.seat == view.maker else "defender"
                if role not in seen:
                    picks = [SearchBot(seed=4, samples=24).choose(view) for _ in range(2)]
                    assert picks[0] == picks[1] and picks[0] in view.legal_actions
                    seen.add(role)
            game.push(rng.choice(game.legal_actions()))
        if seen == {"shooter", "defender"}:
            break
    assert seen == {"shooter", "defender"}


def test_a_hint_before_the_last_five_tricks_says_when_hints_begin() -> None:
    view = Game(DOUBLE, seed=1).view(Game(DOUBLE, seed=1).to_act)
    with pytest.raises(RulesError, match="last five tricks only"):
        hint(view)
