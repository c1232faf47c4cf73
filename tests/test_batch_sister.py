"""The compiled batch engine plays the sister games (euchre.batch_sister) as the engine does.

Every batch hand of Hasenpfeffer, Bid Euchre, its double deck and Napoleon (three to seven
players, and every switch of theirs) is replayed through :class:`euchre.state.State`: the legal
actions before every action (the compiled list, in its order, against ``State.legal_actions``),
the seat to act, and at the end the tricks, the points, the maker, trump, the moon, the high bid
and Hasenpfeffer's forced bid. The heuristic port is compared with
:class:`~euchre.bots.heuristic.HeuristicBot` decision for decision, at every decision of random
and heuristic hands; :class:`~euchre.batch.VectorEnv`'s observations with the engine's encoding
of the same view, vector for vector, its masks with the legal actions and its rewards with
``euchre_v0``'s.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre.batch import BatchResult, VectorEnv, simulate
from euchre.batch_sister import max_actions
from euchre.bots.heuristic import HeuristicBot
from euchre.cards import deck_cards, face
from euchre.envs.aec import hand_rewards
from euchre.envs.observation import encode, layout, unpack
from euchre.errors import IllegalActionError
from euchre.rules import Rules
from euchre.state import State
from euchre.view import PlayerView

GAMES: dict[str, Rules] = {
    "hasenpfeffer": Rules.preset("hasenpfeffer"),
    "hasenpfeffer, defenders score": Rules.preset("hasenpfeffer", defenders_score_tricks=True),
    "bid-euchre": Rules.preset("bid-euchre"),
    "bid-euchre-double": Rules.preset("bid-euchre-double"),
    **{f"napoleon {n}": Rules.preset("napoleon", players=n) for n in range(3, 8)},
    "napoleon, half loss": Rules.preset("napoleon", nap_half_loss=True),
    "napoleon 6, half loss, target": Rules.preset("napoleon", players=6, nap_half_loss=True, target=30),
}


def _check_hand(rules: Rules, r: BatchResult, i: int, bot: HeuristicBot | None = None) -> int:
    """Replay hand ``i`` of ``r`` through the engine; with ``bot``, compare its choice at every
    decision with the recorded heuristic choice. Returns the number of decisions compared."""
    s = State.from_deal(rules, r.deal(i))
    legal = r.legal(i)
    k = int(r.n_actions[i])
    assert k <= r.actions.shape[1] == max_actions(rules)
    for j in range(k):
        assert [int(a) for a in s.legal_actions()] == legal[j], (i, j, s)
        assert s.to_act == r.seats[i, j], (i, j, s)
        if bot is not None:
            assert r.heuristic is not None
            want = bot.choose(PlayerView.of(s, s.to_act))
            assert int(want) == int(r.heuristic[i, j]), (i, j, s, str(want), [str(a) for a in s.legal_actions()])
        s.push(int(r.actions[i, j]))  # checked: every batch action is legal in the engine
    assert (r.actions[i, k:] == -1).all() and (r.seats[i, k:] == -1).all()
    assert s.is_over
    assert list(s.tricks_won) == r.tricks_won[i].tolist()
    assert list(s.points or (0,) * rules.sides) == r.points[i].tolist()
    assert s.maker == r.maker[i]
    assert (-1 if s.trump is None else s.trump) == r.trump[i]
    assert s.alone == bool(r.alone[i])
    assert r.bid is not None and r.forced_bid is not None
    assert (s.bid if s.bidder >= 0 else 0) == r.bid[i]
    assert s.forced_bid == bool(r.forced_bid[i])
    assert r.up_card[i] == r.lone_defender[i] == r.misdeal[i] == r.farmer[i] == -1
    return k if bot is not None else 0


@pytest.mark.parametrize("name", list(GAMES))
def test_random_hands_agree_with_the_engine(name: str) -> None:
    rules = GAMES[name]
    r = simulate(rules, hands=1500, seed=11, policy="random", dealer="random")
    for i in range(len(r)):
        _check_hand(rules, r, i)
    r = simulate(rules, hands=300, seed=12, policy="heuristic", dealer="rotate", epsilon=0.1)
    for i in range(len(r)):
        _check_hand(rules, r, i)


@pytest.mark.parametrize("name", list(GAMES))
def test_heuristic_port_agrees_decision_for_decision(name: str) -> None:
    rules = GAMES[name]
    bot = HeuristicBot()
    compared = 0
    for policy, hands in (("random", 150), ("heuristic", 100)):
        r = simulate(rules, hands=hands, seed=21, policy=policy, dealer="random", record_heuristic=True)
        for i in range(len(r)):
            compared += _check_hand(rules, r, i, bot)
    assert compared > 1500


@pytest.mark.parametrize("name", ["hasenpfeffer", "bid-euchre"])
def test_aggression_is_ported(name: str) -> None:
    """Hasenpfeffer's and Bid Euchre's auctions read the bot's aggression (the other two games' players take none)."""
    rules = GAMES[name]
    for aggression in (0.4, -0.3):
        bot = HeuristicBot(aggression=aggression)
        r = simulate(rules, hands=150, seed=5, policy="heuristic", record_heuristic=True, aggression=aggression)
        for i in range(len(r)):
            _check_hand(rules, r, i, bot)


def test_every_path_of_the_auctions_is_reached() -> None:
    """Random batches reach the rare branches the agreement tests rely on: Hasenpfeffer's forced
    bid and throw-in, the moon (with a chosen and with a forced gift, in high and low too),
    Napoleon's throw-in, misère, Wellington and Blücher."""
    rules = GAMES["hasenpfeffer"]
    r = simulate(rules, hands=80_000, seed=1)  # (all four pass one time in 2,401, the Joker is unused in 25)
    thrown = np.flatnonzero(r.maker < 0)
    assert r.forced_bid.sum() > 20 and len(thrown) >= 2  # type: ignore[union-attr]
    for i in (*thrown, *np.flatnonzero(r.forced_bid)[:20]):  # type: ignore[arg-type]
        _check_hand(rules, r, int(i))
    for game in ("bid-euchre", "bid-euchre-double"):
        r = simulate(GAMES[game], hands=3000, seed=1)
        moons = np.flatnonzero(r.alone)
        assert len(moons) > 100 and {4, 5} <= set(r.trump[moons].tolist())
        gifts = np.isin(r.actions[moons], np.arange(83, 116)).any(axis=1)  # a "give" decision, or none (forced)
        assert gifts.any() and not gifts.all()
    assert (simulate(GAMES["napoleon 3"], hands=3000, seed=1).maker < 0).sum() > 2
    r = simulate(GAMES["napoleon 5"], hands=3000, seed=1)
    assert set(r.bid.tolist()) == {1, 2, 3, 4, 5, 6, 7}  # type: ignore[union-attr]
    assert set(r.trump[r.maker >= 0].tolist()) == {6, 7, 8, 9, 10}


def test_deals_use_the_whole_pack_and_dealers_follow_the_option() -> None:
    for rules in GAMES.values():
        r = simulate(rules, hands=200, seed=2)
        n = rules.players
        assert r.hands.shape == (200, n, rules.hand_size)
        pack = sorted(int(c) for c in deck_cards(rules.deck)) * (2 if rules.double_deck else 1)
        for i in range(len(r)):
            cards = [int(face(int(c))) for c in (*r.hands[i].ravel(), *r.stock[i])]
            assert sorted(cards) == sorted(pack)
        assert r.dealer.tolist() == [i % n for i in range(200)]
    rules = GAMES["napoleon 7"]
    assert set(simulate(rules, hands=300, dealer="random").dealer.tolist()) == set(range(7))
    assert set(simulate(rules, hands=50, dealer=6).dealer.tolist()) == {6}
    r = simulate(GAMES["bid-euchre-double"], hands=20, seed=3)
    assert r.state(4).is_over and r.state(4).points == tuple(r.points[4].tolist())
    assert len(r.state(4, upto=5).history) == 5 and len(simulate(GAMES["napoleon 3"], hands=0)) == 0


def test_a_batch_is_the_same_for_one_seed_whatever_its_size() -> None:
    fields = ("dealer", "hands", "stock", "actions", "seats", "n_actions", "tricks_won", "points", "maker", "trump",
              "alone", "bid", "forced_bid")
    for name in ("hasenpfeffer", "bid-euchre-double", "napoleon 6"):
        rules = GAMES[name]
        policy = ("heuristic", "random") * (rules.players // 2) + ("random",) * (rules.players % 2)
        a = simulate(rules, hands=400, seed=99, policy=policy, dealer="random", epsilon=0.2)
        b = simulate(rules, hands=400, seed=99, policy=policy, dealer="random", epsilon=0.2)
        c = simulate(rules, hands=400, seed=100, policy=policy, dealer="random", epsilon=0.2)
        head = simulate(rules, hands=100, seed=99, policy=policy, dealer="random", epsilon=0.2)
        tail = simulate(rules, hands=300, seed=99, policy=policy, dealer="random", epsilon=0.2, first=100)
        for f in fields:
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
            assert np.array_equal(getattr(a, f)[:100], getattr(head, f)), f
            assert np.array_equal(np.concatenate([getattr(head, f), getattr(tail, f)]), getattr(a, f)), f
        assert not np.array_equal(a.hands, c.hands)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), game=st.sampled_from(["hasenpfeffer", "bid-euchre", "bid-euchre-double",
                                                              "napoleon"]),
       players=st.integers(3, 7), switch=st.booleans(), heuristic=st.integers(0, 127))
def test_any_seed_and_mix_of_policies_replays_in_the_engine(seed: int, game: str, players: int, switch: bool,
                                                          heuristic: int) -> None:
    """Property: whatever the seed, the game, the table's size, the switch and which seats play
    the heuristic, every hand replays through the engine to the same result; hand ``i`` alone
    (``first=i``) is row ``i`` of the batch."""
    if game == "napoleon":
        rules = Rules.preset("napoleon", players=players, nap_half_loss=switch)
    elif game == "hasenpfeffer":
        rules = Rules.preset(game, defenders_score_tricks=switch)
    else:
        rules = Rules.preset(game)
    policy = tuple("heuristic" if heuristic >> s & 1 else "random" for s in range(rules.players))
    r = simulate(rules, hands=12, seed=seed, policy=policy, dealer="random")
    for i in range(len(r)):
        _check_hand(rules, r, i)
    one = simulate(rules, hands=1, seed=seed, policy=policy, dealer="random", first=7)
    assert np.array_equal(one.actions[0], r.actions[7]) and np.array_equal(one.hands[0], r.hands[7])


@pytest.mark.parametrize("name", ["hasenpfeffer, defenders score", "bid-euchre", "bid-euchre-double", "napoleon 3",
                                  "napoleon 4", "napoleon 5", "napoleon 6", "napoleon 7"])
def test_vector_env_agrees_with_the_engine(name: str) -> None:
    """Masks, seats to act, observations (the game's layout of the PettingZoo environment, vector
    for vector) and rewards (``euchre_v0``'s: Napoleon's each seat's points) at every step."""
    rules = GAMES[name]
    env = VectorEnv(rules, 6, seed=4, dealer="random")
    obs, mask = env.reset()
    assert obs.shape == (6, layout(rules).size) and mask.shape == (6, 180)
    rng = np.random.default_rng(0)
    states = [env.state(i) for i in range(env.n)]
    finished = 0
    for step in range(160):
        for i, s in enumerate(states):
            assert np.flatnonzero(mask[i]).tolist() == sorted(int(a) for a in s.legal_actions())
            assert env.to_act[i] == s.to_act
            want = encode(PlayerView.of(s, s.to_act))
            if not np.array_equal(obs[i], want):
                got = unpack(obs[i], rules)
                diff = [k for k, v in unpack(want, rules).items() if not np.array_equal(v, got[k])]
                raise AssertionError(f"table {i}, step {step}: fields {diff} differ ({s})")
        if step % 3 == 2:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            actions = env.policy_actions("heuristic" if step % 2 else "random")
        for i, s in enumerate(states):
            s.push(int(actions[i]))
        obs, mask, rewards, done = env.step(actions)
        for i, s in enumerate(states):
            assert done[i] == s.is_over
            if s.is_over:
                finished += 1
                pts = s.points or (0,) * rules.sides
                assert env.points[i].tolist() == list(pts)
                side = hand_rewards(rules, pts)
                assert rewards[i].tolist() == pytest.approx([side[rules.side_of(x)] for x in range(rules.players)])
                states[i] = env.state(i)
            else:
                assert not rewards[i].any()
    assert finished >= 6


def test_vector_env_refuses_an_illegal_action_and_is_deterministic() -> None:
    rules = GAMES["bid-euchre-double"]
    env = VectorEnv(rules, 4, seed=1)
    before = [env.state(i).key() for i in range(4)]
    actions = env.policy_actions("random")
    actions[1] = 179  # a play of a second copy, never legal in the auction
    with pytest.raises(IllegalActionError, match="table 1"):
        env.step(actions)
    assert [env.state(i).key() for i in range(4)] == before
    runs = []
    for _ in range(2):
        env = VectorEnv(GAMES["napoleon 5"], 8, seed=7)
        total = np.zeros((8, 5))
        for _ in range(150):
            _, _, rewards, _ = env.step(env.policy_actions(("heuristic", "random") * 2 + ("heuristic",)))
            total += rewards
        runs.append((total.copy(), env.obs.copy()))
        assert (total.sum(axis=1) == 0).all()  # Napoleon's points sum to 0 at every table
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_the_heuristic_beats_random_play() -> None:
    for name in ("hasenpfeffer", "bid-euchre", "bid-euchre-double"):
        r = simulate(GAMES[name], hands=2000, seed=2, policy=("heuristic", "random") * 2)
        assert r.points[:, 0].sum() > r.points[:, 1].sum() + 1000, name
    r = simulate(GAMES["napoleon 4"], hands=2000, seed=2, policy=("heuristic", "random", "random", "random"))
    assert r.points[:, 0].sum() > 0
