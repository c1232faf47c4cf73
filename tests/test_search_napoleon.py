"""The search bot and the exact solver play Napoleon (RULES-FAMILY.md 16): the solver against a
plain minimax over the engine on whole deals of three to five seats (misère, where the bidder
plays to take no trick, included), the bot's obvious lead, a misère bidder's duck, a Nap on a
hand that cannot fail, repeatable decisions and hints; at six and seven seats, the truncated search
of the bids and the first trick (the heuristic plays every seat through the first tricks, the
solver the rest) against the same rollout played by hand."""

from __future__ import annotations

import random
import time

import pytest

from euchre import Game, Rules, State
from euchre.actions import NAPOLEON_BIDS, PASS, PLAY_ACTIONS, Action
from euchre.bots.heuristic import HeuristicBot
from euchre.bots.search import SearchBot, searches, within_reach
from euchre.bots.search_napoleon import HANDOVER_TRICKS, napoleon_budget, napoleon_handover, napoleon_stake
from euchre.cards import Card
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
    rng = random.Random(1)
    four_play = bid_deal(4, 2, rng)
    assert napoleon_budget(PlayerView.of(four_play, four_play.to_act), 200, 20) == (100, 1)
    seven = early_views(7, 1)
    assert napoleon_budget(seven["trick 2"], 200, 20) == (20, 1)
    assert napoleon_budget(seven["auction"], 200, 20) == (20, 1)
    assert napoleon_budget(seven["trick 1"], 200, 20) == napoleon_budget(seven["lead"], 200, 20) == (40, 1)
    game = Game(Rules.preset("napoleon"), seed=1)
    assert napoleon_budget(game.view(game.to_act), 200, 20) == (20, 1)
    assert [napoleon_stake(b, 5) for b in NAPOLEON_BIDS] == [10, 15, 15, 20, 50, 100, 200]


class Spy(SearchBot):
    """The search bot, counting the decisions it searches (:meth:`evaluate`)."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.searched: list[PlayerView] = []

    def evaluate(self, view: PlayerView, **kw: object) -> list:  # type: ignore[override]
        self.searched.append(view)
        return super().evaluate(view, **kw)  # type: ignore[arg-type]


def early_views(players: int, seed: int) -> dict[str, PlayerView]:
    """Views of the seat to act in heuristic Napoleon games at ``players`` seats, each with a
    choice: a bid (``auction``), the bidder's first lead (``lead``), a card of the first trick
    after the lead (``trick 1``) and one of the second trick (``trick 2``), not of a misère."""
    out: dict[str, PlayerView] = {}
    g = 0
    while len(out) < 4:
        game = Game(Rules.preset("napoleon", players=players), seed=seed * 1000 + g)
        g += 1
        bots = [HeuristicBot(s) for s in range(players)]
        while not game.is_over and len(game.hands) < 2:
            view = game.view(game.to_act)
            key = view.phase.name.lower() if view.phase is not Phase.PLAY else f"trick {len(view.tricks) + 1}"
            if key not in out and len(view.legal_actions) > 1 and view.bid != MISERE_LEVEL:
                out[key] = view
            game.push(bots[game.to_act].choose(view))
    return out


@pytest.mark.parametrize("players", [6, 7])
def test_six_and_seven_seats_search_the_bids_and_the_first_trick(players: int) -> None:
    """The bids, the first lead and the first trick's cards are searched (truncated), not handed
    to the heuristic player; with ``early_bids`` and ``early_play`` off the heuristic decides them
    as before, without a sample; the second trick is within the solver's reach."""
    views = early_views(players, 2)
    for key in ("auction", "lead", "trick 1"):
        view = views[key]
        assert not within_reach(view) and searches(view) and searchable(view) and hintable(view), key
        bot = Spy(seed=1, samples=40, auction_samples=8)
        assert bot.choose(view) in view.legal_actions
        assert bot.searched == [view], key
        off = Spy(seed=1, early_bids=False, early_play=False)
        assert off.choose(view) == HeuristicBot(1).choose(view) and off.searched == []
    view = views["trick 2"]
    assert within_reach(view) and searches(view, early_bids=False, early_play=False)
    assert SearchBot(seed=1, samples=20).choose(view) in view.legal_actions


@pytest.mark.parametrize("players", [6, 7])
def test_a_truncated_value_is_the_heuristic_through_the_first_tricks_then_the_solver(players: int) -> None:
    """On one sampled deal, a first-trick card's value (and the first lead's) is what pushing it,
    letting the heuristic player play every seat through :data:`HANDOVER_TRICKS` tricks, and
    solving the rest exactly scores: the seat's points less the others' mean."""
    views = early_views(players, 3)
    solver, policy = Solver(), HeuristicBot(0)
    for key in ("lead", "trick 1"):
        view = views[key]
        seat = view.seat
        assert seat is not None
        sample = view.resample(random.Random(2))
        actions = list(view.legal_actions)
        values = SearchBot(seed=1)._values(sample, seat, actions, view)
        for a in actions:
            st = sample.copy(stack=False)
            st._push(a)
            while not napoleon_handover(st):
                st._push(policy.choose(PlayerView.of(st, st.to_act)))
            assert len(st.tricks) == HANDOVER_TRICKS[players] and not st.trick
            pts = st.score_for(solver.outcome(st))
            net = pts[seat] - sum(p for s, p in enumerate(pts) if s != seat) / (players - 1)
            assert values[a] == (net, net), (key, a)


def test_hints_at_seven_seats_repeat_and_cover_every_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint on a bid and on a card of the first trick at seven seats: every legal action, the
    same numbers when asked again, and under a clock a second slower at every reading."""
    from test_hints import SlowClock

    views = early_views(7, 4)
    got = []
    for key in ("auction", "trick 1"):
        view = views[key]
        h = hint(view, samples=100, auction_samples=10)
        assert {x.action for x in h} == set(view.legal_actions)
        got.append([(x.action, x.points, x.stderr) for x in h])
    picks = [SearchBot(seed=2, samples=40, auction_samples=8).choose(v) for v in views.values()]
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, SlowClock())
    again = [[(x.action, x.points, x.stderr) for x in hint(views[k], samples=100, auction_samples=10)]
             for k in ("auction", "trick 1")]
    assert again == got
    assert [SearchBot(seed=2, samples=40, auction_samples=8).choose(v) for v in views.values()] == picks
