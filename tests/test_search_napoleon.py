"""The search bot and the exact solver play Napoleon (RULES-FAMILY.md 16): the solver against a
plain minimax over the engine on whole deals of three to five seats (misère, where the bidder
plays to take no trick, included), the bot's obvious lead, a misère bidder's duck, a Nap on a
hand that cannot fail, repeatable decisions and hints."""

from __future__ import annotations

import random

import pytest

from euchre import Game, Rules, State
from euchre.actions import NAPOLEON_BIDS, PASS, PLAY_ACTIONS, Action
from euchre.bots.search import SearchBot
from euchre.bots.search_napoleon import napoleon_budget, napoleon_searches, napoleon_stake
from euchre.cards import Card
from euchre.errors import RulesError
from euchre.hints import hint, hintable, searchable
from euchre.solver import Solver, minimises, thresholds
from euchre.state import MISERE_LEVEL, Phase
from euchre.view import PlayerView

MISERE = NAPOLEON_BIDS[MISERE_LEVEL - 1]


def minimax(s: State, alpha: int, beta: int) -> int:
    """The reference: the bidder's final tricks by alpha-beta over the engine's own moves (the
    bidder maximises them, or minimises them in a misère; every other seat the opposite)."""
    if s.is_over:
        return s.maker_tricks()
    up = (s.side_of(s.to_act) == s.side_of(s.maker)) != minimises(s)
    best = -1 if up else 99
    for a in s.legal_actions():
        s._push(a)
        v = minimax(s, alpha, beta)
        s.pop()
        if up:
            best, alpha = max(best, v), max(alpha, v)
        else:
            best, beta = min(best, v), min(beta, v)
        if alpha >= beta:
            break
    return best


def bid_deal(players: int, level: int, rng: random.Random) -> State:
    """A random deal that one seat bids at ``level`` (the others pass), its first card led at
    random unless it is a misère (which starts the play at once)."""
    s = State.random(Rules.preset("napoleon", players=players), dealer=rng.randrange(players), rng=rng)
    bidder = rng.randrange(players)
    while s.phase is Phase.AUCTION:
        s._push(NAPOLEON_BIDS[level - 1] if s.to_act == bidder else PASS)
    if s.phase is Phase.LEAD:
        s._push(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_solver_matches_minimax_on_napoleon_deals(players: int) -> None:
    rng = random.Random(players)
    solver = Solver()
    levels = [1, 2, MISERE_LEVEL, 4, 5] * 3
    for level in levels[: {3: 15, 4: 10, 5: 5}[players]]:
        s = bid_deal(players, level, rng)
        assert s.phase is Phase.PLAY and minimises(s) == (level == MISERE_LEVEL)
        while players > 3 and not s.tricks:  # (the reference is slow: four and five seats from trick 2)
            s._push(rng.choice(s.legal_actions()))
        want = minimax(s.copy(stack=False), -1, 6)
        assert solver.solve(s) == want, (players, level)
        # The outcome scores as the exact value does (one threshold: made or not).
        assert s.score_for(solver.outcome(s)) == s.score_for(want)
        # Every card's value is the minimax after it.
        values = solver.action_values(s)
        for a, v in values.items():
            t = s.copy(stack=False)
            t._push(a)
            assert v == minimax(t, -1, 6)


def test_a_misere_is_solved_for_the_bidder_to_take_nothing() -> None:
    rng = random.Random(11)
    solver = Solver()
    seen = set()
    for _ in range(20):
        s = bid_deal(4, MISERE_LEVEL, rng)
        assert s.trump is not None and thresholds(s) == (1,)
        v = solver.solve(s)
        seen.add(v)
        best, points = solver.best_actions(s)
        assert points == s.score_for(v)
        # The bidder's best cards are those that leave it the fewest tricks.
        values = solver.action_values(s)
        assert {a for a, x in values.items() if x == min(values.values())} == set(best)
    assert 0 in seen and max(seen) >= 1  # some misères are safe, some are not


@pytest.mark.parametrize("players", [6, 7])
def test_the_full_pack_is_solved_with_its_low_cards(players: int) -> None:
    rng = random.Random(players)
    solver = Solver()
    low = 0
    for _ in range(4):
        s = bid_deal(players, rng.choice([1, 2, MISERE_LEVEL]), rng)
        while len(s.tricks) < 3:  # play most of the hand out at random, then check against minimax
            s._push(rng.choice(s.legal_actions()))
        assert solver.solve(s) == minimax(s.copy(stack=False), -1, 6)
        for a, v in solver.action_values(s).items():  # the 2s to 6s play by codes of their own
            low += a.card is not None and a.card >= 33
            t = s.copy(stack=False)
            t._push(a)
            assert v == minimax(t, -1, 6)
    assert low > 0


def four(hands: list[str], stock: str, dealer: int = 0) -> State:
    """A four-player Napoleon deal (the 28-card pack, 8 to A) from its hands."""
    return State(Rules.preset("napoleon", players=4), dealer=dealer, hands=hands, up_card=None, stock=stock.split())


def card(text: str) -> Action:
    return PLAY_ACTIONS[Card.parse(text)]


def test_the_bidder_leads_its_long_suit_to_make_it_trump() -> None:
    # Seat 1 bids 4 with four top clubs: leading a club makes clubs trump and takes four tricks,
    # leading the 8d makes diamonds trump with a single one.
    s = four(["Tc Qd As Ks Qs", "Ac Kc Qc Jc 8d", "9c Kd Th Ts Jh", "8c 9d Ah Kh Qh"], "Td Jd Ad 8h 9h 8s 9s Js")
    for a in (NAPOLEON_BIDS[3], PASS, PASS, PASS):
        s._push(a)
    assert s.phase is Phase.LEAD and s.to_act == 1
    bot = SearchBot(seed=1, samples=40)
    choice = bot.choose(PlayerView.of(s, 1))
    assert choice.card is not None and choice.card.suit == Card.parse("Ac").suit


def test_a_misere_bidder_ducks_under_the_card_led() -> None:
    s = four(["Tc Qd As Ks Qs", "8c Ad 8d 9h 9s", "Ac Kd Th Ts Jh", "9c 9d Ah Kh Qh"], "Jc Qc Kc Td Jd 8h 8s Js")
    s._push(MISERE)
    for _ in range(3):
        s._push(PASS)
    assert s.phase is Phase.PLAY and minimises(s) and s.to_act == 1
    for c in ("8c", "Ac", "9c", "Tc", "Kd", "9d", "Qd"):  # seat 2 wins the clubs and leads the Kd
        s._push(card(c))
    assert s.to_act == 1 and set(s.legal_actions()) == {card("Ad"), card("8d")}
    for seed in (1, 2):
        assert SearchBot(seed=seed, samples=40).choose(PlayerView.of(s, 1)) == card("8d")
    best, _ = Solver().best_actions(s)
    assert best == [card("8d")]


def test_an_unbeatable_hand_bids_nap() -> None:
    # Seat 1 (first to bid) holds the five top clubs: a Nap cannot fail.
    s = four(["Tc Qd As Ks Qs", "Ac Kc Qc Jc 9c", "8c Kd Th Ts Jh", "9d 8d Ah Kh Qh"], "Td Jd 8h 8s Js 9h 9s Ad")
    view = PlayerView.of(s, 1)
    ranked = SearchBot(seed=3, auction_samples=8).evaluate(view)
    assert str(SearchBot(seed=3, auction_samples=8).choose(view)) == "nap"
    nap = next(e for e in ranked if str(e.action) == "nap")
    assert nap.points == pytest.approx(10 * 4)  # made on every sample: +30 against the others' -10


def test_decisions_and_hints_repeat_given_the_seed() -> None:
    rng = random.Random(5)
    s = bid_deal(4, 2, rng)
    view = PlayerView.of(s, s.to_act)
    a = [SearchBot(seed=9, samples=30).choose(view) for _ in range(2)]
    assert a[0] == a[1] and a[0] in view.legal_actions
    h1 = hint(view, samples=60)
    h2 = hint(view, samples=60)
    assert [(x.action, x.points) for x in h1] == [(x.action, x.points) for x in h2]
    assert {x.action for x in h1} == set(view.legal_actions)
    assert searchable(view) and hintable(view)  # the tables offer Napoleon's hints


def test_the_budgets_and_stakes() -> None:
    assert napoleon_budget(Phase.PLAY, 4, 200, 20) == (100, 1)
    assert napoleon_budget(Phase.PLAY, 7, 200, 20) == (20, 1)
    assert napoleon_budget(Phase.AUCTION, 4, 200, 20) == (20, 1)
    assert [napoleon_stake(b, 5) for b in NAPOLEON_BIDS] == [10, 15, 15, 20, 50, 100, 200]


def test_six_and_seven_seats_search_from_the_second_trick() -> None:
    rng = random.Random(2)
    s = bid_deal(7, 1, rng)
    view = PlayerView.of(s, s.to_act)
    assert not napoleon_searches(view) and not searchable(view)
    bot = SearchBot(seed=1)
    assert bot.choose(view) == bot._policy.choose(view)  # the heuristic's card in the first trick
    while not s.tricks:
        s._push(rng.choice(s.legal_actions()))
    view = PlayerView.of(s, s.to_act)
    assert napoleon_searches(view) and searchable(view)
    assert SearchBot(seed=1, samples=20).choose(view) in view.legal_actions


def test_a_hint_in_the_first_trick_at_seven_seats_says_when_hints_begin() -> None:
    game = Game(Rules.preset("napoleon", players=7), seed=2)
    with pytest.raises(RulesError, match="begin with the second trick"):
        hint(game.view(game.to_act))
