"""The search bot: legal everywhere, repeatable by seed, blind to hidden cards, right where the answer
is certain; the win-probability model; the difficulty levels and the novice bot.

Budgets are tiny (a few sampled deals per decision): these tests check what the bot does, not how
well it plays (that is the arena's job, ``docs/arena.md``). Exact tuned constants (samples, margins)
are deliberately not asserted.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from euchre import Game, Rules, State
from euchre.actions import ORDER, ORDER_ALONE, PASS, Action, Kind, give, play
from euchre.bots import Bot, HeuristicBot, NoviceBot, SearchBot, make_bot
from euchre.bots.levels import DEFAULT_LEVEL, LEVELS, level_bot, level_spec
from euchre.bots.search import MISFIT, TIE_POINTS, Evaluation, plausible_discards, win_probability
from euchre.cards import Card
from euchre.state import Phase
from euchre.view import PlayerView

AMERICAN = Rules.preset("american")


def tiny(seed: int = 0, **kw: object) -> SearchBot:
    """A search bot on a budget small enough for unit tests, deterministic (no clock)."""
    opts: dict[str, object] = {"samples": 4, "bid_samples": 3, "min_samples": 2,
                               "close_factor": 1}
    opts.update(kw)
    return SearchBot(seed=seed, **opts)  # type: ignore[arg-type]


def after(rules: Rules, hands: list[str], up: str, actions: list[str], *, dealer: int = 0,
          stock: str | None = None) -> State:
    """An explicit deal with some actions applied."""
    s = State(rules, dealer=dealer, hands=hands, up_card=up, stock=stock)
    for a in actions:
        s.push(a)
    return s


def points(evaluations: list[Evaluation]) -> dict[str, float]:
    return {str(e.action): e.points for e in evaluations}


# --- named deals --------------------------------------------------------------------------------
# RUFF_TO_MARCH: dealer 0, up card Ks turned down; seat 1 calls diamonds in round 2. Trick 1: seat 1
# leads the left bower Jh, seat 2 shows out of trump (Qh). Trick 2: seat 1 leads Kd, seat 3 wins
# with the right bower Jd, seat 0 shows out of trump (Ac). Trick 3: seat 3 leads 9s, seat 0 plays
# Qs, and seat 1 holds Ah Kc 9d. Both opponents are void in trump, and Ah, Kc are the best cards of
# their suits (Jh is a trump, Ac is gone), so ruffing with 9d marches (2 points) on every deal of the
# unseen cards, while Ah or Kc gives trick 3 away (1 point).
RUFF_TO_MARCH_DEAL = ["Qd Qs Ac Qc Th", "Ah Jh Kc Kd 9d", "9c Ts Tc Qh Jc", "9s Jd Td 9h Kh"]
RUFF_TO_MARCH_ACTIONS = ["pass"] * 4 + ["call d", "play Jh", "play Qh", "play Td", "play Qd",
                                        "play Kd", "play Tc", "play Jd", "play Ac", "play 9s", "play Qs"]


def ruff_to_march() -> State:
    s = after(AMERICAN, RUFF_TO_MARCH_DEAL, "Ks", RUFF_TO_MARCH_ACTIONS, stock="Ad Js As")
    assert s.to_act == 1 and s.phase is Phase.PLAY and s.trump == 1 and s.maker == 1
    assert sorted(str(a) for a in s.legal_actions()) == ["play 9d", "play Ah", "play Kc"]
    return s


# TOP_FIVE: seat 1 (first to speak, dealer 0) holds the five highest hearts and the up card is 9h.
TOP_FIVE_DEAL = ["Ks As 9c Tc Jc", "Jh Jd Ah Kh Qh", "Qc Kc Ac 9d Td", "Qd Kd Ad 9s Ts"]


def top_five(rules: Rules = AMERICAN, actions: tuple[str, ...] = ()) -> State:
    return after(rules, TOP_FIVE_DEAL, "9h", list(actions), stock="Th Js Qs")


# --- legal in every game ------------------------------------------------------------------------
PRESETS = [
    ("american", {}),
    ("british", {}),
    ("two-handed", {}),
    ("cut-throat", {}),
    ("long", {}),
    ("american", {"defend_alone": True, "stick_the_dealer": True}),
]


@pytest.mark.parametrize(("preset", "switches"), PRESETS, ids=[f"{p}{'+' if s else ''}" for p, s in PRESETS])
def test_search_bot_finishes_whole_games_with_legal_actions(preset: str, switches: dict[str, bool]) -> None:
    rules = Rules.preset(preset, **switches)
    # Four players: a search bot on each side (seats 0 and 1), heuristic partners, to keep it quick.
    searching = {0, 1} if rules.players == 4 else set(range(rules.players))
    bots: dict[int, Bot] = {s: SearchBot(seed=10 + s, samples=4, bid_samples=3, min_samples=2) if s in searching
                            else HeuristicBot(seed=s) for s in range(rules.players)}
    game = Game(rules, seed=3)
    steps = searched = 0
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions, (preset, seat, view.phase, action, view.legal_actions)
        game.push(action)
        searched += seat in searching and len(view.legal_actions) > 1
        steps += 1
        assert steps < 5_000
    assert game.is_over and searched > 20


def test_choose_refuses_a_view_that_is_not_to_act() -> None:
    game = Game(AMERICAN, seed=1)
    idle = next(s for s in range(4) if s != game.to_act)
    with pytest.raises(ValueError, match="no legal action"):
        tiny().choose(game.view(idle))
    with pytest.raises(ValueError, match="seat to act"):
        tiny().evaluate(game.view(None))


def test_a_forced_action_is_returned_without_search() -> None:
    s = ruff_to_march()
    while len(s.legal_actions()) > 1:
        s.push(s.legal_actions()[0])
    view = PlayerView.of(s, s.to_act)
    bot = tiny()

    def no_search(*args: object, **kw: object) -> list[Evaluation]:
        raise AssertionError("a forced action needs no search")

    bot.evaluate = no_search  # type: ignore[method-assign]
    assert bot.choose(view) == view.legal_actions[0]


# --- repeatable, and blind to what the seat cannot see -------------------------------------------
def decision_views(rules: Rules, seed: int, count: int) -> list[PlayerView]:
    """The first ``count`` views with a real choice in a game played by heuristic bots."""
    game = Game(rules, seed=seed)
    bots = {s: HeuristicBot(seed=s) for s in range(rules.players)}
    out: list[PlayerView] = []
    while not game.is_over and len(out) < count:
        view = game.view(game.to_act)
        if len(view.legal_actions) > 1:
            out.append(view)
        game.push(bots[game.to_act].choose(view))
    return out


def test_same_seed_same_choices() -> None:
    views = decision_views(AMERICAN, seed=8, count=30)
    assert {v.phase for v in views} >= {Phase.BID1, Phase.PLAY}
    first, second = tiny(seed=4), tiny(seed=4)
    picks = [first.choose(v) for v in views]
    assert picks == [second.choose(v) for v in views]
    first.reset()
    assert [first.choose(v) for v in views] == picks
    assert all(p in v.legal_actions for p, v in zip(picks, views, strict=True))


# --- memory: an idle bot holds next to nothing, the solver is the thread's ----------------------
def test_an_idle_expert_bot_holds_little_memory() -> None:
    # The server keeps a bot per computer seat per table between its turns: it used to own an 8 MiB
    # transposition table each. Now the solver is the thread's (euchre.solver.thread_solver), and
    # what a bot holds after its decisions is its options and its random generators.
    views = decision_views(AMERICAN, seed=8, count=40)
    bids = [v for v in views if v.phase is not Phase.PLAY][:2]
    plays = [v for v in views if v.phase is Phase.PLAY][:2]
    assert len(bids) == len(plays) == 2
    level_bot("expert", seed=99).choose(plays[0])  # the thread's solver, loaded before measuring
    gc.collect()
    tracemalloc.start()
    try:
        bots = [level_bot("expert", seed=s) for s in range(3)]
        for bot in bots:
            for v in bids + plays:
                bot.choose(v)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
        del bots, bot
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert 0 < freed < 3 * 2**20, f"{freed / 3 / 1024:.0f} KiB per idle bot"


def play_tables(seeds: list[int], steps: int, pool: ThreadPoolExecutor | None = None) -> dict[int, list[Action]]:
    """The actions of one game per seed, all seats search bots, the games advanced a decision each
    in turn (the decisions of one round at the same time in ``pool``, when given)."""
    games = {s: Game(AMERICAN, seed=s) for s in seeds}
    bots = {s: [tiny(seed=10 * s + i, samples=12, bid_samples=6) for i in range(4)] for s in seeds}
    out: dict[int, list[Action]] = {s: [] for s in seeds}

    def ask(bot: SearchBot, view: PlayerView) -> Callable[[], Action]:
        if pool is not None:
            return pool.submit(bot.choose, view).result
        action = bot.choose(view)
        return lambda: action

    for _ in range(steps):
        asked = {s: ask(bots[s][g.to_act], g.view(g.to_act)) for s, g in games.items() if not g.is_over}
        for s, answer in asked.items():
            action = answer()
            out[s].append(action)
            games[s].push(action)
    return out


def test_decisions_do_not_depend_on_who_else_uses_the_threads_solver() -> None:
    # A bot's decision depends only on its seed and the view: the same whether its game is the
    # only one searched in a new thread (a solver of its own), interleaved with another game's bots
    # in one thread (one solver for all), or spread over two threads at once as the server does.
    seeds, steps = [3, 4], 45
    alone: dict[int, list[Action]] = {}

    def by_itself(seed: int) -> None:
        alone.update(play_tables([seed], steps))

    for seed in seeds:
        t = threading.Thread(target=by_itself, args=(seed,))
        t.start()
        t.join()
    assert sorted(alone) == seeds and all(len(acts) == steps for acts in alone.values())
    assert play_tables(seeds, steps) == alone
    with ThreadPoolExecutor(2) as pool:
        assert play_tables(seeds, steps, pool) == alone


def other_deal_same_view(state: State, seat: int, seed: int) -> State:
    """A real hand that differs from ``state`` only in cards ``seat`` cannot see."""
    view = PlayerView.of(state, seat)
    rng = random.Random(seed)
    for _ in range(50):
        other = view.resample(rng)
        if other.hands != state.hands:
            assert PlayerView.of(other, seat) == view
            return other
    raise AssertionError("every resample dealt the hidden cards as in the real hand")


@pytest.mark.parametrize("where", ["bidding", "round 2", "play"])
def test_hidden_cards_do_not_change_the_choice(where: str) -> None:
    if where == "play":
        real = ruff_to_march()
    else:
        real = State.random(AMERICAN, dealer=0, rng=random.Random(21))
        real.push("pass")
        real.push("pass")  # seat 3 decides knowing two passes (the bid inference reads them)
        if where == "round 2":
            for _ in range(3):
                real.push("pass")
    seat = real.to_act
    other = other_deal_same_view(real, seat, seed=5)
    a = tiny(seed=7).evaluate(PlayerView.of(real, seat))
    b = tiny(seed=7).evaluate(PlayerView.of(other, seat))
    assert a == b
    assert tiny(seed=7).choose(PlayerView.of(real, seat)) == tiny(seed=7).choose(PlayerView.of(other, seat))


# --- evaluate -------------------------------------------------------------------------------------
def views_by_phase(rules: Rules, seeds: range) -> dict[Phase, PlayerView]:
    """The first view with a real choice in each phase, from hands played by random bots."""
    found: dict[Phase, PlayerView] = {}
    for seed in seeds:
        rng = random.Random(seed)
        s = State.random(rules, dealer=seed % rules.players, rng=rng)
        while not s.is_over:
            legal = s.legal_actions()
            if s.phase not in found and len(legal) > 1:
                found[s.phase] = PlayerView.of(s, s.to_act)
            s.push(rng.choice(legal))
    return found


EVAL_CASES = [
    (Rules.preset("american", defend_alone=True),
     {Phase.BID1, Phase.BID2, Phase.DISCARD, Phase.DEFEND, Phase.PLAY}),
    (Rules.preset("british"), {Phase.BID1, Phase.BID2, Phase.JOKER, Phase.DISCARD, Phase.PLAY}),
    (Rules.preset("two-handed"), {Phase.BID1, Phase.TAKE, Phase.BID2, Phase.DISCARD, Phase.PLAY}),
    (Rules.preset("cut-throat"), {Phase.BID1, Phase.BID2, Phase.DISCARD, Phase.PLAY}),
]


@pytest.mark.parametrize(("rules", "phases"), EVAL_CASES, ids=["american-defend", "british", "two-handed",
                                                               "cut-throat"])
def test_evaluate_values_every_legal_action_once(rules: Rules, phases: set[Phase]) -> None:
    views = views_by_phase(rules, range(120))
    assert set(views) >= phases
    bot = tiny(seed=2, samples=3, bid_samples=2)
    for phase, view in views.items():
        legal = list(view.legal_actions)
        evaluations = bot.evaluate(view, actions=legal)
        assert sorted(e.action for e in evaluations) == sorted(legal), phase
        if phase is Phase.DISCARD:  # the bot's own discard values the plausible ones only
            assert view.trump is not None
            keep = plausible_discards(legal, view.trump)
            assert 1 <= len(keep) < len(legal)
            assert sorted(e.action for e in bot.evaluate(view)) == sorted(keep), phase
        elif phase is not Phase.BID2:  # round 2 may drop hopeless calls when ``actions`` is not given
            assert sorted(e.action for e in bot.evaluate(view)) == sorted(legal), phase
        else:
            pruned = [e.action for e in bot.evaluate(view)]
            assert len(pruned) == len(set(pruned)) and set(pruned) <= set(legal)
            assert PASS in pruned or PASS not in legal
        for e in evaluations:
            assert math.isfinite(e.points) and math.isfinite(e.utility) and e.samples == 2 + (phase is Phase.PLAY)
            # At the start of a game (and always with three sides or no target) the bot counts
            # points; the chance of winning takes over near the target (test below).
            assert e.utility == e.points
            # A hand never scores more than a loner march or a lone defender's euchre.
            assert abs(e.points) <= max(rules.loner_march_points, rules.lone_defender_euchre_points,
                                        rules.march_points, rules.euchre_points)


def test_evaluate_only_the_actions_asked_for() -> None:
    view = PlayerView.of(ruff_to_march(), 1)
    only = [play(Card.parse("Ah")), play(Card.parse("9d"))]
    evaluations = tiny().evaluate(view, actions=only)
    assert [e.action for e in evaluations] == [only[1], only[0]]  # best first
    assert tiny().evaluate(view, samples=1)[0].samples == 1


# --- certain answers ------------------------------------------------------------------------------
@pytest.mark.parametrize("score_aware", [True, False])
def test_ruffs_to_march_when_the_march_is_certain(score_aware: bool) -> None:
    state = ruff_to_march()
    view = PlayerView.of(state, 1)
    march, make = state.score_for(5), state.score_for(4)
    assert (march, make) == ((0, 2), (0, 1))
    for seed in range(3):
        bot = tiny(seed=seed, score_aware=score_aware)
        evaluations = bot.evaluate(view)
        # Every sampled deal gives the same exact values: the averages are the exact values.
        assert points(evaluations) == {"play 9d": 2.0, "play Ah": 1.0, "play Kc": 1.0}
        assert evaluations[0].action == play(Card.parse("9d"))
        assert evaluations[0].utility == pytest.approx(2.0)  # 0-0: far from the target, points
        assert bot.choose(view) == play(Card.parse("9d"))
    # And the chosen card does take every remaining trick.
    state.push(tiny().choose(view))
    while not state.is_over:
        state.push(tiny().choose(PlayerView.of(state, state.to_act)) if state.to_act in (1, 3)
                   else HeuristicBot().choose(PlayerView.of(state, state.to_act)))
    assert state.maker_tricks() == 5 and state.points == march


def test_own_later_bids_are_grouped_by_what_the_seat_can_see() -> None:
    """A defender deciding whether to defend alone after the dealer's discard: the samples differ
    in the buried card, which the defender never sees, so they must fall in one group (one choice
    for all of them), with the discard hidden in the group's key."""
    rules = Rules.preset("american", defend_alone=True)
    for seed in range(300):
        rng = random.Random(seed)
        s = State.random(rules, dealer=seed % 4, rng=rng)
        while s.phase is not Phase.DEFEND and not s.is_over and s.phase is not Phase.PLAY:
            s.push(rng.choice(s.legal_actions()))
        if s.phase is Phase.DEFEND and s.to_act != s.dealer and any(a.kind is Kind.DISCARD for a in s.history):
            break
    else:
        pytest.fail("no lone-defence decision after a discard in 300 deals")
    seat = s.to_act
    view = PlayerView.of(s, seat)
    bot = tiny(seed=1)
    keys = {bot._later(view.resample(random.Random(k)), seat, view).history for k in range(6)}
    assert len(keys) == 1
    (key,) = keys
    assert -1 in key and len(key) == len(s.history)


def test_orders_up_alone_with_the_five_best_trumps() -> None:
    state = top_five()
    view = PlayerView.of(state, 1)
    assert view.legal_actions == (PASS, ORDER, ORDER_ALONE)
    evaluations = tiny(seed=3, bid_samples=8).evaluate(view)
    by = points(evaluations)
    # Seat 1 leads (left of the dealer) and wins every trick whatever the others hold.
    assert by["order alone"] == 4.0 and by["order"] == 2.0
    # Passing: a euchre of somebody else's bid, or the seat's own call in round 2, which marches
    # only on some deals (diamonds alone, with both bowers and the top hearts).
    assert by["pass"] < by["order alone"]
    assert evaluations[0].action == ORDER_ALONE
    assert evaluations[0].utility > next(e.utility for e in evaluations if e.action == PASS)
    assert tiny(seed=3, bid_samples=8).choose(view) == ORDER_ALONE


def test_passing_counts_the_seats_own_round_two_call() -> None:
    """After a pass, the rollout's round 2 reaches the seat again. Its call there is the one best
    over all the samples (as the bot will then choose, not knowing the deal), with the same
    margins as a call now. With the heuristic player standing in for it instead, passing is
    worth less: the heuristic player does not call diamonds alone with this hand."""
    view = PlayerView.of(top_five(), 1)
    own = points(tiny(seed=3, bid_samples=8).evaluate(view, actions=[PASS]))["pass"]
    stand_in = points(tiny(seed=3, bid_samples=8, own_bids=False).evaluate(view, actions=[PASS]))["pass"]
    assert own > stand_in + 0.5
    # Every sample that reaches round 2 takes the same call, so the value is an average of one
    # choice's outcomes: with 8 samples, a multiple of 1/8 between a euchre (-2) and a march (4).
    assert -2 <= own <= 4 and (own * 8) == round(own * 8)


@pytest.mark.parametrize(("close_margin", "expected"), [(0.0, 8), (100.0, 24)])
def test_a_close_bid_takes_more_samples(close_margin: float, expected: int) -> None:
    """A bid valued in Python is sampled ``bid_samples`` times, and up to ``close_factor`` times as
    often while its best choice leads the next by less than ``close_margin`` points: never (0) and
    always (100). On the compiled samples it is not extended: its budget is already large."""
    view = PlayerView.of(top_five(), 1)
    bot = tiny(seed=3, bid_samples=8, close_factor=3, close_margin=close_margin, compiled_bids=False)
    assert {e.samples for e in bot.evaluate(view)} == {expected}
    fast = tiny(seed=3, bid_samples=8, close_factor=3, close_margin=close_margin)
    assert {e.samples for e in fast.evaluate(view)} == {8}
    # An evaluation with a sample count asked for is never extended, nor a card play.
    assert {e.samples for e in bot.evaluate(view, samples=5)} == {5}
    play = views_by_phase(AMERICAN, range(40))[Phase.PLAY]
    assert {e.samples for e in bot.evaluate(play)} == {4}


def heuristic_views(rules: Rules, deals: int, rng: random.Random) -> Iterator[tuple[State, PlayerView]]:
    """Each decision of ``deals`` hands played by heuristic players, as the state and the view of
    the seat to act (the hand goes on once the caller has looked)."""
    for deal in range(deals):
        state = State.random(rules, dealer=deal % rules.players, rng=rng)
        while not state.is_over:
            view = PlayerView.of(state, state.to_act)
            yield state, view
            state.push(HeuristicBot().choose(view))


def _explained(bot: SearchBot, sample: State, seat: int, misfit: float, partner: float | None = None) -> float:
    """The card-play weight the slow, obvious way: replay the deal from the start and ask the
    heuristic player at every play of the other side with a choice (and of the partner's, at
    ``partner`` a surprise, when given)."""
    replay = State.from_deal(sample.rules, sample.deal)
    w = 1.0
    for s, a in zip(sample.seats, sample.history, strict=True):
        ally = sample.rules.side_of(s) == sample.rules.side_of(seat)
        cost = partner if ally else misfit
        if (replay.phase is Phase.PLAY and s != seat and cost is not None
                and len(replay.legal_actions()) > 1
                and HeuristicBot().choose(PlayerView.of(replay, s)) != a):
            w *= cost
        replay._push(a)
    return max(w, 1e-9)


@pytest.mark.parametrize("preset", ["american", "british", "two-handed"])
def test_card_play_is_read_with_the_heuristic_model(preset: str) -> None:
    """Samples are weighted by how well they explain the other side's card play: the cached
    weights (keyed by the hand a seat held) equal a plain replay's, and a sample in which an
    opponent played as the heuristic would have weighs more than one in which it did not."""
    rules = Rules.preset(preset)
    bot = tiny(seed=1)
    rng = random.Random(7)
    checked = misfits = 0
    for state, view in heuristic_views(rules, 12, rng):
        if state.phase is Phase.PLAY and state.tricks:
            cache: dict[tuple[int, ...], Action | None] = {}
            for _ in range(6):
                sample = view.resample(rng)
                w = bot._play_weight(sample, state.to_act, 0.3, cache)
                assert w == pytest.approx(_explained(bot, sample, state.to_act, 0.3))
                checked += 1
                misfits += w < 1
            # The real deal: the others were heuristic players, so it explains their play.
            assert bot._play_weight(state.copy(), state.to_act, 0.3, {}) == 1.0
    assert checked > 100 and 0 < misfits < checked


def test_the_partners_card_play_is_read_when_asked() -> None:
    """``infer_partner``: the partner's cards are read as the other side's are, at their own
    weight a surprise; the cached weights equal a plain replay's, a deal played by heuristic
    players explains them all, and some samples do not (they do weigh less than without it)."""
    bot = tiny(seed=1, infer_partner=0.5)
    rng = random.Random(9)
    checked = lower = 0
    for state, view in heuristic_views(AMERICAN, 10, rng):
        if state.phase is Phase.PLAY and state.tricks:
            cache: dict[tuple[int, ...], Action | None] = {}
            for _ in range(5):
                sample = view.resample(rng)
                w = bot._play_weight(sample, state.to_act, 0.3, cache, 0.5)
                assert w == pytest.approx(_explained(bot, sample, state.to_act, 0.3, 0.5))
                plain = bot._play_weight(sample, state.to_act, 0.3, {})
                assert w <= plain
                lower += w < plain
                checked += 1
            assert bot._play_weight(state.copy(), state.to_act, 0.3, {}, 0.5) == 1.0
    assert checked > 100 and lower > 0


@pytest.mark.parametrize("value", [0, 2, False, "0.5"])
def test_a_bad_infer_partner_is_refused_up_front(value: object) -> None:
    with pytest.raises(ValueError, match="^infer_partner must be a number above 0 and at most 1"):
        SearchBot(seed=1, infer_partner=value)  # type: ignore[arg-type]


def _bids_explained(sample: State, seat: int, misfit: float) -> float:
    """The bidding read the slow way: the sample's deal replayed, every other seat's bid with a
    choice checked against a fresh heuristic player."""
    replay = State.from_deal(sample.rules, sample.deal)
    w = 1.0
    for s, a in zip(sample.seats, sample.history, strict=True):
        if a.kind is Kind.PLAY:
            break
        if (s != seat and a.is_bid and len(replay.legal_actions()) > 1
                and HeuristicBot().choose(PlayerView.of(replay, s)) != a):
            w *= misfit
        replay._push(a)
    return max(w, 1e-9)


@pytest.mark.parametrize("rules", [AMERICAN, Rules.preset("british"), Rules.preset("two-handed"),
                                   Rules.preset("cut-throat"), Rules.preset("american", farmers_hand=True)],
                         ids=["american", "british", "two-handed", "cut-throat", "farmers-hand"])
def test_the_bidding_is_read_in_the_play_with_the_heuristic_model(rules: Rules) -> None:
    """``bids_in_play``: during the play a sample weighs ``misfit`` for each bid of another seat
    the heuristic player would not have made with the sampled hand. The cached weights (keyed by
    the bidder's dealt hand) equal a plain replay's; the real deal, bid by heuristic players,
    weighs 1; and some samples do not explain the bidding."""
    bot = tiny(seed=1, bids_in_play=0.1)
    rng = random.Random(11)
    checked = misfits = 0
    for state, view in heuristic_views(rules, 10, rng):
        if state.phase is Phase.PLAY and len(view.legal_actions) > 1:
            cache: dict[tuple[object, ...], bool] = {}
            for _ in range(5):
                sample = view.resample(rng)
                w = bot._bid_weight(sample, state.to_act, 0.1, cache)
                assert w == pytest.approx(_bids_explained(sample, state.to_act, 0.1))
                checked += 1
                misfits += w < 1
            assert bot._bid_weight(state.copy(), state.to_act, 0.1, {}) == 1.0
            bot.choose(view)  # the option is used by a real decision, and is legal there
    assert checked > 100 and 0 < misfits < checked


@pytest.mark.parametrize(("rules", "games"), [(AMERICAN, 10), (Rules.preset("american", defend_alone=True), 60)],
                         ids=["american", "defend-alone"])
def test_infer_bids_reads_every_bid_before_the_play(rules: Rules, games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``infer_bids`` weighs a sample by the same reading as ``bids_in_play``, at :data:`MISFIT`
    a surprise (its ``bid_misfit``): every other seat's bid before the play, in the bidding and in the play, a
    defender's answer to a loner after the dealer's discard included (the loop it replaced
    stopped at the discard, so it never read one)."""
    bot = tiny(seed=1, infer_bids=True)
    read: list[float] = []  # the weights a surprise the bot's own decisions read the bids with
    real = SearchBot._bid_weight

    def spy(self: SearchBot, sample: State, seat: int, misfit: float, cache: dict[tuple[object, ...], bool]) -> float:
        read.append(misfit)
        return real(self, sample, seat, misfit, cache)

    monkeypatch.setattr(SearchBot, "_bid_weight", spy)
    drawn: list[float] = []  # the card play's deals are drawn by the bids (compiled), not weighed
    real_draw = SearchBot._draw_by_bids

    def spy_draw(self: SearchBot, *args: Any) -> tuple[State, float]:
        drawn.append(self.bid_misfit)
        return real_draw(self, *args)

    monkeypatch.setattr(SearchBot, "_draw_by_bids", spy_draw)
    rng = random.Random(13)
    checked = misfits = late = chosen = 0
    for state, view in heuristic_views(rules, games, rng):
        if len(view.legal_actions) < 2:
            continue
        # another seat's bid after the dealer's discard (a defender's answer to a loner)
        cut = next((i for i, a in enumerate(state.history) if a.kind is Kind.DISCARD), len(state.history))
        after = any(a.is_bid and s != state.to_act for s, a in zip(state.seats[cut:], state.history[cut:], strict=True))
        if state.phase is Phase.PLAY and not after and checked > 40:
            continue
        late += after
        cache: dict[tuple[object, ...], bool] = {}
        for _ in range(3):
            sample = view.resample(rng)
            w = bot._bid_weight(sample, state.to_act, MISFIT, cache)
            assert w == pytest.approx(_bids_explained(sample, state.to_act, MISFIT))
            checked += 1
            misfits += w < 1
        if chosen < 6 and state.phase is Phase.PLAY:  # (the bids' compiled samples: tests/test_fastbid.py)
            chosen += 1
            read.clear()
            drawn.clear()
            assert bot.choose(view) in view.legal_actions
            assert not read and drawn and set(drawn) == {MISFIT}  # the decision's samples were drawn this way
    assert checked > 40 and 0 < misfits < checked and chosen
    if rules.defend_alone:
        assert late > 0  # a defender answered a loner after the discard, and that answer was read


@pytest.mark.parametrize("value", [0, -0.5, 1.5, True, "0.1"])
def test_a_bad_bids_in_play_is_refused_up_front(value: object) -> None:
    with pytest.raises(ValueError, match="^bids_in_play must be a number above 0 and at most 1"):
        SearchBot(seed=1, bids_in_play=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, -0.5, 1.5, True, "0.1", None])
def test_a_bad_bid_misfit_is_refused_up_front(value: object) -> None:
    with pytest.raises(ValueError, match="^bid_misfit must be a number above 0 and at most 1, not "):
        SearchBot(seed=1, bid_misfit=value)  # type: ignore[arg-type]


def test_bids_in_play_reads_the_bidding_only_in_the_play() -> None:
    """The option reads the bidding only once the play starts: every bid is valued exactly as
    without it (on its compiled samples), and cards are valued differently somewhere."""
    rng = random.Random(5)
    bids = plays = moved = 0
    for state, view in heuristic_views(AMERICAN, 6, rng):
        if len(view.legal_actions) > 1:
            base = tiny(seed=3).evaluate(view)
            read = tiny(seed=3, bids_in_play=0.1).evaluate(view)
            if state.phase is not Phase.PLAY:
                assert read == base
                bids += 1
            else:
                plays += 1
                moved += read != base
    assert bids > 5 and plays > 5 and moved > 0


@pytest.mark.parametrize(
    ("rules", "bid"),
    [
        (AMERICAN, "order alone"),
        (AMERICAN, "order"),
        (Rules.preset("american", march_points=3, loner_march_points=7), "order alone"),
        (Rules.preset("american", march_points=3, loner_march_points=7), "order"),
        (Rules.preset("american", target=None, deals=4), "order alone"),
    ],
    ids=["alone", "partner", "alone-7", "partner-3", "no-target"],
)
def test_a_certain_march_is_worth_what_score_for_says(rules: Rules, bid: str) -> None:
    state = top_five(rules, (bid, "discard 9c"))
    assert state.phase is Phase.PLAY and state.to_act == 1
    pts = state.score_for(5)
    net = pts[1] - pts[0]
    assert net == (rules.loner_march_points if bid == "order alone" else rules.march_points)
    evaluations = tiny(seed=1).evaluate(PlayerView.of(state, 1))
    assert len(evaluations) == 5
    for e in evaluations:
        assert e.points == net
        assert e.utility == net  # at 0-0 the score does not matter yet: points


def test_the_bot_values_points_by_the_game_score() -> None:
    # The same march at 0-0 and at 8-9: at 0-0 the bot counts points; at 8-9 two points win the
    # game, and the bot values the hand by its chance of winning (here certain).
    state = top_five(AMERICAN, ("order", "discard 9c"))
    early = tiny().evaluate(PlayerView.of(state, 1))[0]
    assert early.points == early.utility == 2.0
    late = Game(AMERICAN, deals=[state.deal], scores=[9, 8])
    for a in ("order", "discard 9c"):
        late.push(a)
    late_view = late.view(1)
    assert late_view.scores == (9, 8)
    e = tiny().evaluate(late_view)[0]
    assert e.points == 2.0 and e.utility == pytest.approx(1.0 + TIE_POINTS * 2.0)
    # Score-blind, the late march is worth its points.
    assert tiny(score_aware=False).evaluate(late_view)[0].utility == 2.0


def test_when_the_hand_cannot_change_the_game_the_bot_still_plays_for_points() -> None:
    # Side 0 is at 9, made trump (hearts) and has taken the first three tricks: the game is won on
    # every deal, whatever seat 0 leads now, so every lead has the same chance of winning (1). Only
    # the march (two points, not one) is left to play for: the tie goes to the points. (This used
    # to be a position with the make still open, whose leads tied only on the 8 deals one seed drew.)
    deal = after(AMERICAN, ["Js Ah Jh Jd Tc", "Ac Qh Kh 9h Kd", "Ad Ks Td Jc Ts", "Qs Qd 9s 9c Th"], "9d", [],
                 dealer=3, stock="Kc As Qc").deal
    game = Game(AMERICAN, deals=[deal], scores=[9, 4])
    for a in ("pass", "pass", "pass", "pass", "call h", "play Jh", "play 9h", "play Td", "play Th", "play Jd",
              "play Qh", "play Ts", "play 9c", "play Ah", "play Kh", "play Jc", "play 9s"):
        game.push(a)
    view = game.view(0)
    assert [str(a) for a in view.legal_actions] == ["play Tc", "play Js"]
    differ = 0
    for seed in range(6):
        blind = tiny(seed=seed, samples=8, tie_points=0).evaluate(view)
        assert {e.utility for e in blind} == {1.0}  # the game's odds: one value for all
        assert str(blind[0].action) == "play Tc"  # so the engine's order decides, not the points
        evaluations = tiny(seed=seed, samples=8).evaluate(view)
        best = evaluations[0]
        assert best.points == max(e.points for e in evaluations)
        differ += best.action != blind[0].action
    assert differ  # (on some seeds the points favour the second card: the tie was really broken)


# --- the model of the game score --------------------------------------------------------------------
@pytest.mark.parametrize("target", [5, 10, 11, 15])
def test_win_probability_is_monotone_symmetric_and_ends_at_the_target(target: int) -> None:
    for a in range(target + 1):
        for b in range(target + 1):
            p = win_probability(a, b, target)
            assert 0.0 <= p <= 1.0
            assert p + win_probability(b, a, target) == pytest.approx(1.0)
            if a < target:
                assert win_probability(a + 1, b, target) >= p  # more of my points never hurts
            if b < target:
                assert win_probability(a, b + 1, target) <= p  # more of theirs never helps
            if a >= target > b:
                assert p == 1.0
        assert win_probability(a, a, target) == pytest.approx(0.5)
    assert win_probability(target - 1, 0, target) > win_probability(0, 0, target) > win_probability(0, target - 1,
                                                                                                    target)
    # Scores past the target or below zero count as the target / zero.
    assert win_probability(target + 3, 2, target) == 1.0
    assert win_probability(-2, 0, target) == win_probability(0, 0, target)


# --- levels and the novice ------------------------------------------------------------------------
def test_novice_is_legal_and_repeats_with_its_seed() -> None:
    def game_actions(seed: int, lapse: float = 1 / 3) -> list[Action]:
        game = Game(AMERICAN, seed=seed)
        bots = {s: NoviceBot(seed=seed * 10 + s, lapse=lapse) for s in range(4)}
        while not game.is_over:
            view = game.view(game.to_act)
            a = bots[game.to_act].choose(view)
            assert a in view.legal_actions
            game.push(a)
        return game.actions()

    assert game_actions(6) == game_actions(6)
    assert game_actions(6) != game_actions(7)


def test_novice_lapses_only_in_play() -> None:
    views = decision_views(AMERICAN, seed=2, count=60)
    careful = [HeuristicBot(seed=1).choose(v) for v in views]
    assert [NoviceBot(seed=1, lapse=0.0).choose(v) for v in views] == careful
    sloppy = [NoviceBot(seed=1, lapse=1.0).choose(v) for v in views]
    assert all(s == c for s, c, v in zip(sloppy, careful, views, strict=True) if v.phase is not Phase.PLAY)
    assert any(s != c for s, c, v in zip(sloppy, careful, views, strict=True) if v.phase is Phase.PLAY)


def test_every_level_makes_a_bot_that_plays() -> None:
    state = ruff_to_march()
    view = PlayerView.of(state, 1)
    kinds = {"easy": NoviceBot, "medium": NoviceBot, "hard": HeuristicBot, "expert": SearchBot}
    assert set(LEVELS) == set(kinds) and DEFAULT_LEVEL in LEVELS
    for level, kind in kinds.items():
        bot = level_bot(level, seed=1)
        assert type(bot) is kind, level
        assert bot.choose(view) in view.legal_actions
        name, opts = level_spec(level)
        assert type(make_bot(name, seed=1, **opts)) is kind
    easy, medium = level_bot("easy"), level_bot("medium")
    assert isinstance(easy, NoviceBot) and isinstance(medium, NoviceBot) and easy.lapse > medium.lapse > 0
    assert level_spec(" Expert ") == level_spec("expert")


def test_unknown_level_names_the_levels() -> None:
    with pytest.raises(ValueError, match=r"unknown level 'bogus'; levels: easy, medium, hard, expert"):
        level_spec("bogus")
    with pytest.raises(ValueError, match="unknown level"):
        level_bot("grandmaster")


def test_search_is_registered() -> None:
    bot = make_bot("search", seed=3, samples=2, bid_samples=2, min_samples=1)
    assert isinstance(bot, SearchBot) and bot.samples == 2


def test_heuristic_bids_bids_as_the_heuristic_and_searches_the_play() -> None:
    from euchre.bots import HeuristicBot

    game = Game(Rules(), seed=14)
    policy = HeuristicBot(0)
    bot = SearchBot(seed=0, samples=4, bid_samples=3, heuristic_bids=True)
    seen = {"bid": 0, "play": 0}
    rng = random.Random(14)
    while not game.is_over and game.hand_number < 3:
        view = game.view(game.to_act)
        if len(view.legal_actions) > 1:
            if view.phase is not Phase.PLAY:
                assert bot.choose(view) == policy.choose(view)
                seen["bid"] += 1
            else:
                assert bot.choose(view) in view.legal_actions
                seen["play"] += 1
        game.push(rng.choice(game.legal_actions()))
    assert seen["bid"] > 3 and seen["play"] > 3


def test_own_later_discards_are_grouped_by_the_card_received() -> None:
    """Call for best: after going alone the seat discards one of six, the partner's best card among
    them, which differs from sample to sample. A later decision is grouped by what the seat will
    see there, so samples that gave it different cards are different decisions (the forced gift is
    in no action: only its cards tell them apart), and the same card received is one decision."""
    rules = Rules(call_for_best=True)
    s = State(rules, dealer=0, hands=["As Ks Qs Js Ts", "Jh Jd Ah Kh 9c", "9s Ad Kd Qd Qc", "Qh 9h Tc 9d Td"],
              up_card="Th")
    view = PlayerView.of(s, 1)
    bot = tiny(seed=2)
    keys: dict[Card, set[tuple[tuple[int, ...], int]]] = {}
    for k in range(40):
        st = view.resample(random.Random(k)).copy(stack=False)
        st._push(ORDER_ALONE)
        while st.phase is not Phase.BEST_DISCARD:
            st._push(HeuristicBot(seed=0).choose(PlayerView.of(st, st.to_act)))
        later = bot._later(st, 1, view)
        gift = st.gifts[0]
        # the dealer's discard hidden; the gift an action only when the giver chose it (it held no trump)
        assert later.history == (int(ORDER_ALONE), -1) + (() if gift.forced else (int(give(gift.card)),))
        assert set(later.values) == set(st.legal_actions()) and later.hand == st.hands[1]
        keys.setdefault(gift.card, set()).add(later.key)
    assert len(keys) > 1 and all(len(group) == 1 for group in keys.values())
    assert len({k for group in keys.values() for k in group}) == len(keys)


@pytest.mark.parametrize("options", [{"bid_samples": "many"}, {"samples": 0}, {"house_bid_samples": -1},
                                     {"close_factor": 1.5}, {"wide_samples": True}, {"samples": 10**11}])
def test_a_budget_that_is_not_a_count_is_refused_up_front(options: dict[str, object]) -> None:
    """A bad budget from a bot spec (``'expert:{"bid_samples": "many"}'``) is said when the bot is
    made, naming the option, not as a TypeError in the middle of a game (nor a budget so large it
    would run out of memory or never answer)."""
    name = next(iter(options))
    with pytest.raises(ValueError, match=f"^{name} must be a whole number from 1 to 100,000"):
        SearchBot(seed=1, **options)  # type: ignore[arg-type]


def test_control_corrects_the_estimates_on_the_same_deals() -> None:
    """``control`` (:mod:`euchre.bots.control`): on the same deals (the same seed) each choice's
    points are corrected by where the unseen cards lay, so the numbers move and their standard
    errors shrink; the same seed gives the same numbers; under a house rule whose sampling weighs
    hidden choices (the farmer's hand) nothing is corrected."""
    rng = random.Random(17)
    bids = [view for state, view in heuristic_views(AMERICAN, 4, rng)
            if state.phase in (Phase.BID1, Phase.BID2) and len(view.legal_actions) > 1][:3]
    assert bids
    for view in bids:
        plain = {e.action: e for e in SearchBot(seed=4).evaluate(view)}
        cv = SearchBot(seed=4, control=True).evaluate(view)
        assert {e.action for e in cv} == set(plain)
        assert any(abs(e.points - plain[e.action].points) > 1e-9 for e in cv)
        assert sum(e.stderr for e in cv) < sum(plain[e.action].stderr for e in cv)
        assert SearchBot(seed=4, control=True).evaluate(view) == cv
    farmer = next(view for state, view in heuristic_views(Rules.preset("american", farmers_hand=True), 4, rng)
                  if state.phase is Phase.BID1 and len(view.legal_actions) > 1)
    from euchre.bots.control import controllable

    assert controllable(bids[0]) and not controllable(farmer)
    assert tiny(seed=2, control=True).evaluate(farmer) == tiny(seed=2).evaluate(farmer)


@pytest.mark.parametrize("options", [{"control": "no"}, {"own_bids": 0}, {"compiled_bids": "false"},
                                     {"score_aware": None}, {"early_even": 1}])
def test_a_switch_that_is_not_true_or_false_is_refused_up_front(options: dict[str, object]) -> None:
    """A switch given as a string or a number (``'expert:{"control": "no"}'`` on the command line)
    is refused, naming it, instead of being read as on or off by its truth."""
    (name,) = options
    with pytest.raises(ValueError, match=f"^{name} must be true"):
        SearchBot(seed=1, **options)  # type: ignore[arg-type]
