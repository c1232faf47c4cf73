"""``python_euchre`` on the sister games (RULES-FAMILY.md 14-16): Hasenpfeffer, Bid Euchre, its
double deck, Napoleon from three to seven players. OpenSpiel's ``random_sim_test`` (clones,
serialization, returns within the bounds, game length) on every one, one hand and whole games; the
game's sizes follow the rules; legal actions are the engine's and the returns its points; the
observer leaks no card a player cannot see (other deals of the hidden cards leave a player's
tensors and strings unchanged); IS-MCTS plays whole hands with the engine's resampler."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from euchre import openspiel_game as og  # noqa: E402
from euchre.actions import NUM_ACTIONS  # noqa: E402
from euchre.cards import deck_cards, face  # noqa: E402
from euchre.envs.observation import sister_bid_codes  # noqa: E402
from euchre.errors import DealError, IllegalActionError  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase, State  # noqa: E402

SISTERS = {
    "hasenpfeffer": "python_euchre(preset=hasenpfeffer)",
    "hasenpfeffer-defenders": "python_euchre(preset=hasenpfeffer,defenders_score_tricks=true)",
    "bid-euchre": "python_euchre(preset=bid-euchre)",
    "bid-euchre-double": "python_euchre(preset=bid-euchre-double)",
    "napoleon": "python_euchre(preset=napoleon)",
    "napoleon-3": "python_euchre(preset=napoleon,players=3)",
    "napoleon-5": "python_euchre(preset=napoleon,players=5)",
    "napoleon-6": "python_euchre(preset=napoleon,players=6)",
    "napoleon-7": "python_euchre(preset=napoleon,players=7)",
    "napoleon-5-half": "python_euchre(preset=napoleon,players=5,nap_half_loss=true)",
}
WHOLE_GAMES = [
    "python_euchre(preset=hasenpfeffer,horizon=game,target=5)",
    "python_euchre(preset=bid-euchre,horizon=game,target=10)",
    "python_euchre(preset=bid-euchre-double,horizon=game,target=12)",
    "python_euchre(preset=napoleon,players=3,horizon=game)",
    "python_euchre(preset=napoleon,players=7,horizon=game,deals=1)",
]


def load(text: str):  # -> EuchreGame
    return pyspiel.load_game(text)


def random_play(state, rng: random.Random, steps: int | None = None):
    """Play chance (by its probabilities) and decisions at random, ``steps`` actions or to the end."""
    k = 0
    while not state.is_terminal() and (steps is None or k < steps):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    return state


def decision_states(game, rng: random.Random, hands: int):
    """Every decision node of ``hands`` random hands (clones)."""
    for _ in range(hands):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(outcomes, probs)[0])
                continue
            yield s.clone()
            s.apply_action(rng.choice(s.legal_actions()))


def tensors(state, player: int) -> tuple[list[float], list[float], str, str]:
    return (state.observation_tensor(player), state.information_state_tensor(player),
            state.observation_string(player), state.information_state_string(player))


# --- OpenSpiel's checks ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", list(SISTERS.values()), ids=list(SISTERS))
def test_random_sim(text: str) -> None:
    pyspiel.random_sim_test(load(text), num_sims=6, serialize=True, verbose=False)


@pytest.mark.parametrize("text", WHOLE_GAMES)
def test_random_sim_whole_games(text: str) -> None:
    pyspiel.random_sim_test(load(text), num_sims=2, serialize=True, verbose=False)


# --- the game follows the rules -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SISTERS))
def test_sizes_follow_the_rules(name: str) -> None:
    game = load(SISTERS[name])
    rules = game.rules
    assert rules.sister_game is not None
    n, d, h = rules.players, len(deck_cards(rules.deck)), rules.hand_size
    assert game.num_players() == n and game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == max(int(c) for c in deck_cards(rules.deck)) + 1
    assert game.max_utility() == -game.min_utility() == og.hand_bound(rules)
    assert game.max_game_length() == og.deal_length(rules) == n + 1 + 2 + h * n  # bids, naming, moon, tricks
    obs = game.make_py_observer()
    b = len(sister_bid_codes(rules))
    public = (len(Phase) + 1 + 4 * n + 11 + 2 + 1 + n + n + 2 * n * d + n + n * b
              + ((n + 2 * d) if rules.bid_euchre else 0) + 2 * rules.sides + 1)
    assert obs.tensor.size == n + d + public
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor.size == n + d + public + og.deal_length(rules) * (n + 1 + NUM_ACTIONS)
    assert "up_card" not in obs.dict and ("gifts" in obs.dict) == rules.bid_euchre
    assert load(og.game_string(rules)).rules == rules  # the game string round-trips the rules
    assert load(str(game)).rules == rules


def test_the_rules_and_the_euchre_sizes() -> None:
    """The sister games load with their rules; Euchre's game keeps its sizes exactly."""
    assert load("python_euchre(preset=napoleon,players=7)").rules == Rules.preset("napoleon", players=7)
    assert load("python_euchre(preset=bid-euchre-double)").rules == Rules.preset("bid-euchre-double")
    assert load("python_euchre(preset=napoleon,players=3)").rules.deck == 24
    american = load("python_euchre")
    assert american.num_distinct_actions() == 119 and american.max_game_length() == 45
    assert american.make_py_observer().tensor.size == 590
    for bad in ("python_euchre(preset=napoleon,players=8)", "python_euchre(preset=napoleon,players=2)",
                "python_euchre(preset=bid-euchre,players=3)"):
        with pytest.raises(Exception):  # noqa: B017 - the engine's RulesError, through OpenSpiel
            load(bad)


@pytest.mark.parametrize("name", list(SISTERS))
def test_legal_actions_and_returns_are_the_engines(name: str) -> None:
    """At every decision the legal actions are the engine's; at the end the returns are the hand's
    points (Napoleon: as scored, zero-sum) or their zero-sum differences (the partnerships)."""
    game = load(SISTERS[name])
    rules = game.rules
    rng = random.Random(name)
    made = 0
    for _ in range(12):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1.0)
                s.apply_action(rng.choices(outcomes, probs)[0])
                continue
            hand = s.engine_state()
            assert s.current_player() == hand.to_act
            assert s.legal_actions() == sorted(int(a) for a in hand.legal_actions())
            s.apply_action(rng.choice(s.legal_actions()))
        hand = s.engine_state()
        points = hand.points
        assert hand.is_over and points is not None
        r = s.returns()
        assert abs(sum(r)) < 1e-9 and max(map(abs, r)) <= og.hand_bound(rules)
        for seat in range(rules.players):
            side = rules.side_of(seat)
            if rules.napoleon:
                assert r[seat] == points[seat]
            else:
                assert r[seat] == pytest.approx(points[side] - (sum(points) - points[side]))
        made += any(points)
    assert made


def test_the_deal() -> None:
    """Hasenpfeffer deals 24 of its 25 cards (one unused, no up card); Bid Euchre all 24; the
    double deck each face twice, the chance outcomes weighted by the copies left; Napoleon five a
    seat from the pack of its table size."""
    rng = random.Random(2)
    for text, dealt, stock in (("python_euchre(preset=hasenpfeffer)", 24, 1),
                               ("python_euchre(preset=bid-euchre)", 24, 0),
                               ("python_euchre(preset=bid-euchre-double)", 48, 0),
                               ("python_euchre(preset=napoleon,players=7)", 35, 17),
                               ("python_euchre(preset=napoleon,players=3)", 15, 9)):
        game = load(text)
        s = game.new_initial_state()
        s.apply_action(0)
        for _ in range(dealt):
            assert s.is_chance_node()
            outcomes = dict(s.chance_outcomes())
            if game.rules.double_deck:
                assert set(outcomes) <= {int(c) for c in deck_cards(24)}
                dealt_so_far = s.history()[1:]
                for c, p in outcomes.items():
                    left = 2 - dealt_so_far.count(c)
                    assert p == pytest.approx(left / (48 - len(dealt_so_far)))
            s.apply_action(rng.choice(list(outcomes)))
        assert not s.is_chance_node()
        hand = s.engine_state()
        assert hand.up_card is None and len(hand.deal.stock) == stock
        assert all(len(h) == game.rules.hand_size for h in hand.deal.hands)
        assert s.history()[1:] == og.deal_actions(hand)


def test_state_from_engine_round_trips() -> None:
    rng = random.Random(9)
    for text in ("python_euchre(preset=hasenpfeffer)", "python_euchre(preset=bid-euchre-double)",
                 "python_euchre(preset=napoleon,players=6)"):
        game = load(text)
        for _ in range(8):
            hand = State.random(game.rules, dealer=rng.randrange(game.rules.players), rng=rng)
            for _ in range(rng.randrange(30)):
                if hand.is_over:
                    break
                hand.push(rng.choice(hand.legal_actions()))
            s = og.state_from_engine(game, hand)
            got = s.engine_state()
            assert got.history == hand.history and got.deal.hands == hand.deal.hands
            assert tensors(s, 0) == tensors(og.state_from_engine(game, hand), 0)


# --- the observer: what a player sees, and nothing more ------------------------------------------------------
def swapped(hand: State, player: int, rng: random.Random) -> State | None:
    """``hand`` dealt otherwise where ``player`` cannot see: two unplayed cards exchanged between
    two other seats, or one of them and the unused stock, and replayed (``None`` if an action is
    no longer legal: a follow, a gift, Hasenpfeffer's forced bid of the Joker's holder)."""
    rules = hand.rules
    n = rules.players
    spots = [(s, c) for s in range(n) if s != player for c in hand.hand(s)] + [(-1, c) for c in hand.deal.stock]
    if len(spots) < 2:
        return None
    (x, a), (y, b) = rng.sample(spots, 2)
    if x == y or face(a) == face(b):
        return None
    hands = [[face(c) for c in h] for h in hand.deal.hands]
    stock = [int(c) for c in hand.deal.stock]
    for seat, old, new in ((x, a, b), (y, b, a)):
        cards = hands[seat] if seat >= 0 else stock
        if face(old) not in cards:  # a moon's gift: the card came from the partner's deal
            return None
        cards[cards.index(face(old))] = face(new)
    try:
        other = State(rules, dealer=hand.dealer, hands=hands, up_card=None,
                      stock=None if rules.double_deck else stock)
        for action in hand.history:
            other.push(action)
    except (IllegalActionError, DealError):
        return None
    if [face(g.card) for g in other.gifts] != [face(g.card) for g in hand.gifts]:
        return None  # a forced gift (the giver's best trump) changed with the swap: its receiver saw it
    return other


@pytest.mark.parametrize("name", list(SISTERS))
def test_observation_is_blind_to_swapped_unseen_cards(name: str) -> None:
    """Cards a player cannot see exchanged in the deal (between other hands, or with the unused
    stock): its every tensor and string is unchanged; some seat whose cards moved sees it."""
    game = load(SISTERS[name])
    rng = random.Random(name)
    compared = changed = 0
    for s in decision_states(game, rng, 3):
        if rng.random() < 0.6:
            continue
        hand = s.engine_state()
        for player in range(game.num_players()):
            other = next((t for t in (swapped(hand, player, rng) for _ in range(20)) if t is not None), None)
            if other is None:
                continue
            t = og.state_from_engine(game, other)
            assert tensors(t, player) == tensors(s, player), (name, player, hand.deal, other.deal)
            compared += 1
            changed += any(tensors(t, q)[0] != tensors(s, q)[0] for q in range(game.num_players()) if q != player)
    assert compared > 20 and changed > 0


@pytest.mark.parametrize("name", [n for n in SISTERS if n != "bid-euchre-double"])
def test_resampled_states_look_the_same(name: str) -> None:
    """The engine's resample (what IS-MCTS determinizes with) redeals what a player has not seen:
    its information state and observation are unchanged, and the hidden cards do move."""
    game = load(SISTERS[name])
    rng = random.Random(name)
    moved = 0
    for k, s in enumerate(decision_states(game, rng, 2)):
        if k % 2:
            continue
        player = s.current_player() if k % 4 else rng.randrange(game.num_players())
        t = s.resample(player, rng)
        assert tensors(t, player) == tensors(s, player)
        if player == s.current_player():
            assert t.legal_actions() == s.legal_actions()
        moved += t.engine_state().deal != s.engine_state().deal
    assert moved > 0


def test_resampling_the_double_deck() -> None:
    """Every double-deck decision, its moons' included, resamples to a state its player cannot
    tell from it."""
    game = load(SISTERS["bid-euchre-double"])
    rng = random.Random(5)
    done = moons = 0
    for k, s in enumerate(decision_states(game, rng, 8)):
        if k % 3 == 0:
            player = s.current_player()
            view = s.view(player)
            moons += view is not None and view.moon and view.trump is not None
            assert tensors(s.resample(player, rng), player) == tensors(s, player)
            done += 1
    assert done > 30 and moons > 5, (done, moons)


def test_public_observer_is_the_same_for_every_player() -> None:
    for text in (SISTERS["bid-euchre"], SISTERS["napoleon-7"]):
        game = load(text)
        public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                                   private_info=pyspiel.PrivateInfoType.NONE))
        private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        for k, s in enumerate(decision_states(game, random.Random(4), 1)):
            if k % 3:
                continue
            seen = []
            for p in range(game.num_players()):
                public.set_from(s, p)
                seen.append((public.tensor.copy().tolist(), public.string_from(s, p)))
            assert all(x == seen[0] for x in seen) and "hand" not in public.dict
            p = s.current_player()
            private.set_from(s, p)
            assert private.dict["hand"].sum() == len(s.view(p).hand)
            assert private.dict["history"].sum() == 2 * len(s.view(p).actions)


def test_strings_show_the_auction() -> None:
    game = load(SISTERS["napoleon-3"])
    rng = random.Random(1)
    s = random_play(game.new_initial_state(), rng, steps=1 + 15 + 3)  # dealer, fifteen cards, three bids
    text = s.observation_string(0)
    if s.view(0).bidder >= 0:
        assert "high " in text and " by " in text
    assert "up " not in text and "phase" in text


# --- search ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["hasenpfeffer", "bid-euchre", "napoleon-3", "napoleon-7"])
def test_ismcts_plays_a_whole_hand(name: str) -> None:
    game = load(SISTERS[name])
    bots = []
    for seat in range(game.num_players()):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(seat))
        bot.set_resampler(og.resampler(random.Random(seat)))
        bots.append(bot)
    rng = random.Random(name)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            a = int(bots[s.current_player()].step(s))
            assert a in s.legal_actions()
            s.apply_action(a)
    assert abs(sum(s.returns())) < 1e-9
