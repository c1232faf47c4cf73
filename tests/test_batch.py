"""The compiled batch simulator and vectorised environment (euchre.batch) agree with the engine.

Every batch hand is replayed through :class:`euchre.state.State`: the legal actions before every
action (the compiled rules' list, in code order, against ``State.legal_actions``), the seat to act,
and at the end the tricks, the points, the maker, trump, alone, the lone defender, a misdeal and
the farmer. The heuristic port is compared with :class:`~euchre.bots.heuristic.HeuristicBot`
decision for decision: at every decision of random hands (``record_heuristic``: the positions a
random walk reaches, loners and lone defences included) and of heuristic hands.
"""

from __future__ import annotations

import numpy as np
import pytest

from euchre.batch import MAX_ACTIONS, VectorEnv, _rules_row, simulate
from euchre.bots.heuristic import HeuristicBot
from euchre.cards import CARDS
from euchre.envs.observation import OBSERVATION_SIZE, encode
from euchre.errors import IllegalActionError, RulesError
from euchre.rules import Rules
from euchre.state import State
from euchre.view import PlayerView


def relative(values: tuple[int, ...]) -> list[float]:
    """euchre.envs.aec.relative (which needs the rl extra)."""
    total = float(sum(values))
    return [float(v) - (total - v) / (len(values) - 1) for v in values]


CONFIGS: dict[str, Rules] = {name: Rules.preset(name) for name in Rules.preset_names()
                             if Rules.preset(name).sister_game is None}  # (the sister games: test_batch_sister.py)
CONFIGS.update({
    "stick the dealer": Rules(stick_the_dealer=True, dealer_may_discard_up_card=False),
    "canadian loner": Rules(canadian_loner=True),
    "defend alone": Rules(defend_alone=True, lone_defender_euchre_points=5),
    "loner lead": Rules(loner_lead="loner_left", defend_alone=True),
    "no going alone": Rules(going_alone=False),
    "no trump and low": Rules(no_trump=True, low_no_trump=True, stick_the_dealer=True),
    "call for best": Rules(call_for_best=True, defend_alone=True, no_trump=True, low_no_trump=True,
                           lone_defender_euchre_points=6),
    "best card free": Rules(call_for_best=True, best_card_free=True, defend_alone=True, loner_lead="loner_left"),
    "offers": Rules(ace_no_face=True, farmers_hand=True),
    "ace-no-face, Joker": Rules(ace_no_face=True, deck=25, canadian_loner=True),
    "32 cards, super euchre": Rules(deck=32, super_euchre=True, make_points=2, march_points=3),
    "two-handed, 32 cards": Rules.preset("two-handed", deck=32),
    "cut-throat, 24 cards": Rules.preset("cut-throat", deck=24, stick_the_dealer=True),
    "target 2": Rules(target=2, no_trump=True),
})


def _check_hand(rules: Rules, r, i: int, bot: HeuristicBot | None = None) -> int:
    """Replay hand ``i`` of ``r``; with ``bot``, compare its choice at every decision with the
    recorded heuristic choice. Returns the number of decisions compared."""
    s = State.from_deal(rules, r.deal(i))
    legal = r.legal(i)
    k = int(r.n_actions[i])
    assert k <= MAX_ACTIONS
    for j in range(k):
        assert [int(a) for a in s.legal_actions()] == legal[j], (i, j, s)
        assert s.to_act == r.seats[i, j], (i, j, s)
        a = int(r.actions[i, j])
        if bot is not None:
            want = bot.choose(PlayerView.of(s, s.to_act))
            assert int(want) == int(r.heuristic[i, j]), (i, j, s, str(want), str(s.legal_actions()))
        s.push(a)  # checked: every batch action is legal in the engine
    assert (r.actions[i, k:] == -1).all()
    assert s.is_over
    assert list(s.tricks_won) == r.tricks_won[i].tolist()
    assert list(s.points or (0,) * rules.sides) == r.points[i].tolist()
    assert s.maker == r.maker[i]
    assert (-1 if s.trump is None else s.trump) == r.trump[i]
    assert s.alone == bool(r.alone[i])
    assert s.lone_defender == r.lone_defender[i]
    assert s.misdeal == r.misdeal[i]
    assert s.farmer == r.farmer[i]
    return k if bot is not None else 0


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_hands_agree_with_the_engine(name: str) -> None:
    rules = CONFIGS[name]
    r = simulate(rules, hands=2000, seed=11, policy="random", dealer="random")
    for i in range(len(r)):
        _check_hand(rules, r, i)
    r = simulate(rules, hands=500, seed=12, policy="heuristic", dealer="rotate", epsilon=0.1)
    for i in range(len(r)):
        _check_hand(rules, r, i)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_heuristic_port_agrees_decision_for_decision(name: str) -> None:
    rules = CONFIGS[name]
    bot = HeuristicBot()
    compared = 0
    for policy, hands in (("random", 300), ("heuristic", 150)):
        r = simulate(rules, hands=hands, seed=21, policy=policy, dealer="random", record_heuristic=True)
        for i in range(len(r)):
            compared += _check_hand(rules, r, i, bot)
    assert compared > 2000


def test_heuristic_options_are_ported() -> None:
    rules = Rules(going_alone=True, defend_alone=True, lone_defender_euchre_points=4)
    for kwargs in ({"aggression": 0.4}, {"aggression": -0.3, "lone_with_loser": True}):
        bot = HeuristicBot(**kwargs)  # type: ignore[arg-type]
        r = simulate(rules, hands=200, seed=5, record_heuristic=True, **kwargs)  # type: ignore[arg-type]
        for i in range(len(r)):
            _check_hand(rules, r, i, bot)


def test_rare_house_rule_paths_agree() -> None:
    """The farmer's hand and ace-no-face offers are rare: pick them out of large batches."""
    rules = Rules(ace_no_face=True, farmers_hand=True, call_for_best=True, defend_alone=True)
    bot = HeuristicBot()
    for policy in ("random", "heuristic"):
        r = simulate(rules, hands=60000, seed=3, policy=policy, record_heuristic=True)
        rows = np.flatnonzero((r.farmer >= 0) | np.isin(r.actions, (116, 117)).any(axis=1))
        offered = np.isin(r.actions, (118, 117)).any(axis=1) & (r.farmer < 0)
        assert len(rows) > 100
        for i in rows[:400]:
            _check_hand(rules, r, int(i), bot)
        if policy == "random":
            assert (r.farmer >= 0).sum() > 10 and (r.misdeal >= 0).sum() > 100 and offered.any()


def test_same_seed_same_arrays() -> None:
    rules = Rules.preset("british")
    a = simulate(rules, hands=500, seed=99, policy=("heuristic", "random") * 2, dealer="random")
    b = simulate(rules, hands=500, seed=99, policy=("heuristic", "random") * 2, dealer="random")
    c = simulate(rules, hands=500, seed=100, policy=("heuristic", "random") * 2, dealer="random")
    fields = ("dealer", "hands", "up_card", "stock", "actions", "seats", "n_actions", "tricks_won", "points",
              "maker", "trump", "alone", "lone_defender", "misdeal", "farmer")
    for f in fields:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert not np.array_equal(a.hands, c.hands)
    # hand i depends only on (seed, i): a smaller batch is a prefix, and `first` continues it
    head = simulate(rules, hands=100, seed=99, policy=("heuristic", "random") * 2, dealer="random")
    tail = simulate(rules, hands=400, seed=99, policy=("heuristic", "random") * 2, dealer="random", first=100)
    for f in fields:
        assert np.array_equal(np.concatenate([getattr(head, f), getattr(tail, f)]), getattr(a, f)), f


def test_deals_are_whole_decks_and_dealers_follow_the_option() -> None:
    for rules in (Rules(), Rules.preset("two-handed", deck=32), Rules.preset("cut-throat")):
        r = simulate(rules, hands=300, seed=1)
        n = rules.players
        assert r.hands.shape == (300, n, 5)
        for i in range(len(r)):
            cards = sorted([*r.hands[i].ravel().tolist(), int(r.up_card[i]), *r.stock[i].tolist()])
            assert cards == sorted(int(c) for c in CARDS if (1 << c) & _deck(rules))
        assert r.dealer.tolist() == [i % n for i in range(300)]
    r = simulate(hands=200, dealer=2)
    assert set(r.dealer.tolist()) == {2}
    assert r.state(5).is_over and r.state(5).points == tuple(r.points[5].tolist())
    assert len(r.state(5, upto=3).history) == 3
    assert len(simulate(hands=0)) == 0
    assert set(simulate(hands=400, dealer="random").dealer.tolist()) == {0, 1, 2, 3}


def _deck(rules: Rules) -> int:
    from euchre.cards import deck_mask

    return deck_mask(rules.deck)


def test_heuristic_beats_random() -> None:
    r = simulate(Rules(), hands=4000, seed=2, policy=("heuristic", "random") * 2)
    assert r.points[:, 0].sum() > 2 * r.points[:, 1].sum()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        simulate(hands=1, policy="greedy")
    with pytest.raises(ValueError, match="one per seat"):
        simulate(hands=1, policy=("random", "heuristic"))
    with pytest.raises(ValueError, match="dealer"):
        simulate(hands=1, dealer=4)
    with pytest.raises(ValueError, match="epsilon"):
        simulate(hands=1, epsilon=2.0)


@pytest.mark.parametrize("rules", [Rules.preset("hasenpfeffer"), Rules.preset("bid-euchre"),
                                   Rules.preset("bid-euchre-double"), Rules.preset("napoleon"),
                                   Rules.preset("napoleon", players=7)],
                         ids=["hasenpfeffer", "bid-euchre", "bid-euchre-double", "napoleon", "napoleon-7"])
def test_sister_games_play_on_a_row_of_their_own(rules: Rules) -> None:
    """simulate and VectorEnv hand the sister games to euchre.batch_sister (its agreement with the
    engine: tests/test_batch_sister.py); Euchre's row refuses them by name, so no sister hand is
    ever played by Euchre's compiled rules."""
    r = simulate(rules, hands=3, seed=1)
    assert r.hands.shape == (3, rules.players, rules.hand_size) and r.bid is not None
    env = VectorEnv(rules, 2)
    assert env.mask.shape == (2, 180)
    with pytest.raises(RulesError, match=f"Euchre row does not hold {rules.sister_game}"):
        _rules_row(rules)


@pytest.mark.parametrize("name", ["american", "british", "two-handed", "cut-throat", "railroad", "offers",
                                  "no trump and low", "call for best"])
def test_vector_env_agrees_with_the_engine(name: str) -> None:
    """Masks, seats to act, observations (the PettingZoo layout, vector for vector) and rewards."""
    rules = CONFIGS[name]
    env = VectorEnv(rules, 12, seed=4, dealer="random")
    obs, mask = env.reset()
    assert obs.shape == (12, OBSERVATION_SIZE) and mask.shape == (12, 119)
    rng = np.random.default_rng(0)
    finished = 0
    for step in range(300):
        states = [env.state(i) for i in range(env.n)] if step % 3 == 0 else None
        if states is not None:
            for i, s in enumerate(states):
                assert np.flatnonzero(mask[i]).tolist() == [int(a) for a in s.legal_actions()]
                assert env.to_act[i] == s.to_act
                assert np.array_equal(obs[i], encode(PlayerView.of(s, s.to_act))), (name, i, s)
        if step % 3 == 2:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            actions = env.policy_actions("heuristic" if step % 2 else "random")
        if states is not None:
            for i, s in enumerate(states):
                s.push(int(actions[i]))
        obs, mask, rewards, done = env.step(actions)
        if states is not None:
            for i, s in enumerate(states):
                assert done[i] == s.is_over
                if s.is_over:
                    finished += 1
                    pts = s.points or (0,) * rules.sides
                    assert env.points[i].tolist() == list(pts)
                    side = relative(pts)
                    assert rewards[i].tolist() == pytest.approx([side[rules.side_of(x)] for x in range(rules.players)])
                else:
                    assert not rewards[i].any()
    assert finished > 0


def test_vector_env_refuses_an_illegal_action_and_changes_nothing() -> None:
    env = VectorEnv(Rules(), 4, seed=1)
    before = [env.state(i).key() for i in range(4)]
    actions = env.policy_actions("random")
    actions[2] = 118  # "farmer": never legal without the house rule
    with pytest.raises(IllegalActionError, match="table 2"):
        env.step(actions)
    assert [env.state(i).key() for i in range(4)] == before
    with pytest.raises(ValueError, match="one per table"):
        env.step([0, 0])


def test_vector_env_is_deterministic() -> None:
    runs = []
    for _ in range(2):
        env = VectorEnv(Rules.preset("railroad"), 8, seed=7)
        total = np.zeros((8, 4))
        for _ in range(200):
            _, _, rewards, _ = env.step(env.policy_actions("random"))
            total += rewards
        runs.append((total.copy(), env.obs.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
