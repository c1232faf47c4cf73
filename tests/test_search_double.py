"""The search bot in Bid Euchre's double deck (RULES-FAMILY.md 15): the exact search over the
last five tricks, a truncated search before them (each choice played on by the heuristic player to
the end of the seventh trick, then solved). The solver on the double deck's two copies of every
card (renumbered onto local ids, the first played of two copies winning) against a plain minimax
over the engine, the resampling of a double-deck view, the truncated values against the same
rollout played by hand, and the bot's and the hints' dispatch."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from test_hints import SlowClock
from test_search_napoleon import Spy, minimax  # (minimax: the reference alpha-beta over the engine's moves)

from euchre import Game, Rules, State
from euchre.actions import PASS
from euchre.bots import make_bot
from euchre.bots.heuristic import HeuristicBot
from euchre.bots.search import SearchBot, searches, within_reach
from euchre.bots.search_double import SOLVE_CARDS, double_budget, double_handover
from euchre.cards import face, iter_mask
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


def early_views(seed: int) -> dict[str, PlayerView]:
    """Views of the seat to act before the last five tricks of heuristic double-deck games (no
    moon), each with a choice: a bid (``auction``), a naming of trump, a card of the first trick
    and one of the fourth."""
    out: dict[str, PlayerView] = {}
    g = 0
    while len(out) < 4:
        game = Game(DOUBLE, seed=seed * 1000 + g)
        g += 1
        bots = [make_bot("hard", seed=s) for s in range(4)]
        while not game.is_over and len(game.hands) < 2:
            view = game.view(game.to_act)
            key = view.phase.name.lower() if view.phase is not Phase.PLAY else f"trick {len(view.tricks) + 1}"
            if key in ("auction", "name_trump", "trick 1", "trick 4") and key not in out \
                    and len(view.legal_actions) > 2 and not view.moon:
                out[key] = view
            game.push(bots[game.to_act].choose(view))
    return out


def test_the_bot_searches_every_decision_before_the_last_five_tricks() -> None:
    """Bids, the naming of trump and the cards of the first seven tricks: searched (truncated),
    not handed to the heuristic player; with ``early_bids`` and ``early_play`` off, the heuristic
    decides them as before, without a sample. The last five tricks are within the solver's reach."""
    for key, view in early_views(5).items():
        assert not within_reach(view) and searches(view) and searchable(view) and hintable(view), key
        bot = Spy(seed=3, samples=60, auction_samples=4)
        assert bot.choose(view) in view.legal_actions
        assert bot.searched == [view], key
        off = Spy(seed=3, early_bids=False, early_play=False)
        assert off.choose(view) == HeuristicBot(3).choose(view) and off.searched == []
        assert not searches(view, early_bids=False, early_play=False)
    st = late_positions(1, SOLVE_CARDS, 6)[0]
    view = PlayerView.of(st, st.to_act)
    assert within_reach(view) and searches(view, early_bids=False, early_play=False)
    assert double_budget(view, 200, 20) == 50


def test_an_early_bid_is_the_heuristics_unless_the_search_is_sure() -> None:
    """``early_even``: a truncated decision, a bid included, keeps the heuristic player's choice
    unless the search's best beats it by ``policy_even`` standard errors of the difference (its
    few samples make the best of nine bids optimistic); without it the search's best is taken."""
    for key, view in early_views(5).items():
        usual = HeuristicBot(3).choose(view)
        assert SearchBot(seed=3, samples=60, auction_samples=4, policy_even=1e9).choose(view) == usual, key
        ranked = SearchBot(seed=3, samples=60, auction_samples=4).evaluate(view)
        if view.phase is not Phase.PLAY:  # (a card keeps policy_even anyway: _EVEN_PHASES)
            assert SearchBot(seed=3, samples=60, auction_samples=4, early_even=False).choose(view) == ranked[0].action
        bot = SearchBot(seed=3, samples=60, auction_samples=4)
        picked = bot.choose(view)
        mine = next(e for e in ranked if e.action == usual)
        sure = bot._adjusted(ranked[0], view) - bot._adjusted(mine, view) > 2 * mine.stderr_vs_best * bot._slope(view)
        assert picked == (ranked[0].action if sure else usual), key


def test_a_truncated_value_is_the_heuristic_to_the_seventh_trick_then_the_solver() -> None:
    """On one sampled deal, each choice's value is what pushing it, letting the heuristic player
    play every seat to the end of the seventh trick, and solving the last five tricks exactly
    scores (the seat's side less the other's): a bid's (passing) and a card's of the first trick."""
    views = early_views(6)
    solver, policy = Solver(), HeuristicBot(0)
    for key in ("auction", "trick 1"):
        view = views[key]
        seat = view.seat
        assert seat is not None
        sample = view.resample(random.Random(2))
        actions = [PASS] if key == "auction" else list(view.legal_actions)
        values = SearchBot(seed=1)._values(sample, seat, actions, view)
        for a in actions:
            st = sample.copy(stack=False)
            st._push(a)
            while not double_handover(st):
                st._push(policy.choose(PlayerView.of(st, st.to_act)))
            assert len(st.tricks) == 7 and not st.trick and max(m.bit_count() for m in st.hands) == SOLVE_CARDS
            pts = st.score_for(solver.outcome(st))
            me = DOUBLE.side_of(seat)
            assert values[a] == (pts[me] - pts[1 - me],) * 2, (key, a)


def test_early_hints_repeat_and_cover_every_choice() -> None:
    """A hint before the last five tricks (a bid, a card of the first trick): every legal action,
    the same numbers when asked again."""
    views = early_views(7)
    for key in ("auction", "trick 1"):
        view = views[key]
        h = hint(view, samples=80, auction_samples=10)
        assert {x.action for x in h} == set(view.legal_actions)
        assert [(x.action, x.points, x.stderr) for x in h] == \
            [(x.action, x.points, x.stderr) for x in hint(view, samples=80, auction_samples=10)]


def test_early_decisions_do_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    views = list(early_views(8).values())
    quick = [SearchBot(seed=4, samples=60, auction_samples=4).choose(v) for v in views]
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, SlowClock())
    assert [SearchBot(seed=4, samples=60, auction_samples=4).choose(v) for v in views] == quick


def test_the_last_five_tricks_are_searched_exactly() -> None:
    for seed in (6, 7):
        st = late_positions(1, SOLVE_CARDS, seed)[0]
        view = PlayerView.of(st, st.to_act)
        assert within_reach(view) and searchable(view) and hintable(view)
        picks = [SearchBot(seed=3, samples=30).choose(view) for _ in range(2)]
        assert picks[0] == picks[1] and picks[0] in view.legal_actions
        h = hint(view, samples=40)
        assert {x.action for x in h} == set(view.legal_actions)
        assert [(x.action, x.points) for x in h] == [(x.action, x.points) for x in hint(view, samples=40)]


def test_a_moon_is_searched_from_every_seat_and_phase() -> None:
    """A double-deck moon (the partner sitting out with its cards, the gift and discard hidden
    from the defenders): the partner's gift, the shooter's discard, its early tricks and its last
    five are searched from the shooter's and the defenders' seats alike, each decision legal and
    the same on the same seed."""
    seen: set[str] = set()
    want = {"gift", "discard", "shooter early", "defender early", "shooter", "defender"}
    for seed in range(200):
        game, rng = Game(DOUBLE, seed=seed), random.Random(seed)
        while not game.is_over and len(game.hands) < 2:
            view = game.view(game.to_act)
            if view.moon and len(view.legal_actions) > 1:
                if view.phase is Phase.GIVE:
                    role = "gift"
                elif view.phase is Phase.BEST_DISCARD:
                    role = "discard"
                else:
                    role = "shooter" if view.seat == view.maker else "defender"
                    if not within_reach(view):
                        role += " early"
                if role not in seen and view.phase is not Phase.NAME_TRUMP:
                    picks = [SearchBot(seed=4, samples=24, auction_samples=4).choose(view) for _ in range(2)]
                    assert picks[0] == picks[1] and picks[0] in view.legal_actions
                    seen.add(role)
            game.push(rng.choice(game.legal_actions()))
        if seen == want:
            break
    assert seen == want
