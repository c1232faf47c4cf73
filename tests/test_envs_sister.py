"""The PettingZoo environment on the sister games (RULES-FAMILY.md 14-16): Hasenpfeffer, Bid
Euchre, its double deck, Napoleon from three to seven players. PettingZoo's own API, seed and
render tests on each; spaces sized by the rules (seats, pack, tricks, bids) while Euchre's stay as
they were; masks equal to the engine's legal actions; whole random games whose returns are the
engine's scores; and observations that do not change when the cards a seat cannot see are dealt
otherwise (no hidden card, nor which copy of a double-deck card, reaches an observation)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from euchre import Game, Rules  # noqa: E402
from euchre.actions import EUCHRE_ACTIONS, NUM_ACTIONS  # noqa: E402
from euchre.cards import deck_cards, face  # noqa: E402
from euchre.envs import euchre_v0  # noqa: E402
from euchre.envs.aec import resolve_rules  # noqa: E402
from euchre.envs.observation import (  # noqa: E402
    EUCHRE_LAYOUT,
    OBSERVATION_SIZE,
    encode,
    layout,
    sister_bid_codes,
    unpack,
)
from euchre.errors import DealError, IllegalActionError  # noqa: E402
from euchre.state import Phase, State  # noqa: E402

SISTERS: list[dict[str, Any]] = [
    {"preset": "hasenpfeffer"},
    {"preset": "hasenpfeffer", "defenders_score_tricks": True, "target": 15},
    {"preset": "bid-euchre"},
    {"preset": "bid-euchre-double"},
    {"preset": "napoleon"},
    {"preset": "napoleon", "players": 3},
    {"preset": "napoleon", "players": 5},
    {"preset": "napoleon", "players": 6},
    {"preset": "napoleon", "players": 7},
    {"preset": "napoleon", "players": 5, "nap_half_loss": True, "deals": 3},
]
IDS = ["-".join(str(v) for v in c.values()) for c in SISTERS]
SHORT = [{"preset": "hasenpfeffer", "target": 4}, {"preset": "bid-euchre", "target": 8},
         {"preset": "bid-euchre-double", "target": 10}, {"preset": "napoleon", "players": 3},
         {"preset": "napoleon", "players": 7, "deals": 3}]
"""Shorter games (lower targets, fewer deals), for the tests that play many whole episodes."""
SHORT_IDS = ["-".join(str(v) for v in c.values()) for c in SHORT]
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def swapped_deal(game: Game, seat: int, rng: random.Random) -> State | None:
    """The hand being played dealt otherwise where ``seat`` cannot see: two unplayed cards of two
    other seats exchanged, replayed to the same point (``None`` if an action is no longer legal,
    or nothing to swap). A second resampler beside ``PlayerView.resample``."""
    state = game.state
    rules = state.rules
    others = [s for s in range(rules.players) if s != seat and state.hand(s)]
    if len(others) < 2:
        return None
    x, y = rng.sample(others, 2)
    a, b = rng.choice(state.hand(x)), rng.choice(state.hand(y))
    if face(a) == face(b):
        return None
    hands = [[face(c) for c in h] for h in state.deal.hands]
    if face(a) not in hands[x] or face(b) not in hands[y]:  # a moon's gift: from the partner's deal
        return None
    hands[x][hands[x].index(face(a))] = face(b)
    hands[y][hands[y].index(face(b))] = face(a)
    try:
        other = State(rules, dealer=state.dealer, hands=hands, up_card=None,
                      stock=None if rules.double_deck else state.deal.stock)
        for action in state.history:
            other.push(action)
    except (IllegalActionError, DealError):
        return None
    if [face(g.card) for g in other.gifts] != [face(g.card) for g in state.gifts]:
        return None  # a forced gift (the giver's best trump) changed with the swap: its receiver saw it
    return other


def random_steps(env: Any, rng: random.Random, steps: int) -> None:
    """Step ``env`` with random legal actions (``None`` for finished agents)."""
    for _ in range(steps):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


# --- PettingZoo's own tests ------------------------------------------------------------------------------
@pytest.mark.parametrize("config", SISTERS, ids=IDS)
def test_pettingzoo_api(config: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(euchre_v0.env(rules=config), num_cycles=200)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_pettingzoo_api_to_the_end(config: dict[str, Any]) -> None:
    """api_test over whole short games: the termination of every agent is checked too."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(euchre_v0.env(rules=config), num_cycles=2000)
        api_test(euchre_v0.raw_env(rules=config), num_cycles=100)


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_pettingzoo_seed(config: dict[str, Any]) -> None:
    seed_test(lambda: euchre_v0.env(rules=config), num_cycles=100)


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_pettingzoo_render(config: dict[str, Any]) -> None:
    render_test(lambda render_mode=None: euchre_v0.env(rules=config, render_mode=render_mode),
                custom_tests={"ansi": lambda text: "player_0" in text and "dealer" in text and "up card" not in text})


# --- spaces sized by the rules ---------------------------------------------------------------------------
def expected_size(rules: Rules) -> int:
    """The observation length of a sister game counted field by field (docs/rl.md), with S seats,
    C cards of the pack, H tricks, D sides and B bid slots."""
    s, c, h, d = rules.players, len(deck_cards(rules.deck)), rules.hand_size, rules.sides
    b = len(sister_bid_codes(rules))
    size = (c + len(Phase) + 4 * s + 11 + 1  # hand, phase, to_act dealer maker bidder, trump, high_bid
            + (s + 1) * (s + b)  # bid_seats, bid_actions
            + 2 * s * c + s + 2 * h * s + h * s * c + s  # played, trick, leader, trick_*, tricks_won
            + 2 * d + 1 + 3)  # score, hand_points, hand_number, ending
    if rules.bid_euchre:
        size += 1 + s + 2 * s + 2 * c  # alone, sitting_out, gift_giver/receiver, gift_card/discard
    if rules.auction:
        size += 1  # forced_bid
    return size


@pytest.mark.parametrize("config", SISTERS, ids=IDS)
def test_spaces_follow_the_rules(config: dict[str, Any]) -> None:
    rules = resolve_rules(config)
    env = euchre_v0.raw_env(config)
    n, cards = rules.players, len(deck_cards(rules.deck))
    assert env.possible_agents == [f"player_{s}" for s in range(n)]
    assert env.action_space("player_0").n == NUM_ACTIONS
    lay = layout(rules)
    assert lay is not EUCHRE_LAYOUT and lay.actions == NUM_ACTIONS
    space = env.observation_space("player_0")
    assert space["observation"].shape == (lay.size,) and space["action_mask"].shape == (NUM_ACTIONS,)
    position = 0
    for f in lay.fields:  # contiguous, named once each
        assert f.start == position and f.length == int(np.prod(f.shape))
        position += f.length
    assert position == lay.size == expected_size(rules) and len({f.name for f in lay.fields}) == len(lay.fields)
    shapes = {f.name: f.shape for f in lay.fields}
    assert shapes["hand"] == (cards,) and shapes["trick"] == (n, cards) and shapes["to_act"] == (n,)
    assert shapes["trick_cards"] == (rules.hand_size, n, cards) and shapes["score"] == (rules.sides,)
    assert shapes["bid_actions"] == (n + 1, len(lay.bid_codes))
    assert ("gift_card" in shapes) == rules.bid_euchre and ("forced_bid" in shapes) == rules.auction
    assert "up_card" not in shapes  # no sister game turns a card up
    env.reset(seed=1)
    agent = env.agent_selection
    parts = unpack(env.observe(agent)["observation"], rules)
    assert parts["hand"].sum() == rules.hand_size and parts["to_act"].tolist() == [1] + [0] * (n - 1)
    assert parts["phase"][Phase.AUCTION] == 1 and parts["ending"].sum() > 0


def test_sizes_quoted_in_the_docs() -> None:
    """The observation lengths docs/rl.md quotes for the sister presets are the layouts'."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    for config in ({"preset": "hasenpfeffer"}, {"preset": "bid-euchre"}, {"preset": "bid-euchre-double"},
                   {"preset": "napoleon", "players": 3}, {"preset": "napoleon"}, {"preset": "napoleon", "players": 7}):
        rules = resolve_rules(config)
        assert f"{layout(rules).size:,}" in text, config


def test_euchre_layouts_are_unchanged() -> None:
    """Every rule set of Euchre keeps the one layout and the 119 codes (existing agents depend on it)."""
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        if rules.sister_game is None:
            assert layout(rules) is EUCHRE_LAYOUT
            env = euchre_v0.raw_env(rules)
            assert env.action_space("player_0").n == EUCHRE_ACTIONS == 119
            assert env.observation_space("player_0")["observation"].shape == (OBSERVATION_SIZE,) == (1680,)
    assert layout(None) is EUCHRE_LAYOUT


# --- masks and observations are the engine's -------------------------------------------------------------
@pytest.mark.parametrize("config", SISTERS, ids=IDS)
def test_masks_are_the_engines_legal_actions(config: dict[str, Any]) -> None:
    env = euchre_v0.raw_env(config)
    rules = env.rules
    rng = random.Random(3)
    env.reset(seed=100)
    steps = 0
    kinds: set[str] = set()
    while env.agents and steps < 400:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        game = env.game
        for other in env.agents:
            seat = env.seat_of(other)
            obs = env.observe(other)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
            legal = sorted(int(x) for x in game.legal_actions()) if seat == game.to_act else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            view = game.view(seat)
            assert np.array_equal(obs["observation"], encode(view))
            assert env.observation_space(other).contains(obs)
            parts = unpack(obs["observation"], rules)
            assert parts["hand"].sum() == len(view.hand)  # the double deck's copies counted in one slot
            assert parts["played"].sum() == len(view.played) and parts["trick"].sum() == len(view.trick)
        assert agent == f"player_{game.to_act}"
        action = rng.choice(game.legal_actions())
        kinds.add(action.kind.name)
        env.step(int(action))
        steps += 1
    assert {"PLAY", "BID"} <= kinds


def test_observation_reads_the_view() -> None:
    """Seat-relative seats, the auction, cards by their slot in the pack, Napoleon at seven."""
    rules = Rules.preset("napoleon", players=7)
    env = euchre_v0.raw_env(rules)
    env.reset(seed=9)
    random_steps(env, random.Random(9), 12)
    game = env.game
    slots = [int(c) for c in deck_cards(rules.deck)]
    for seat, agent in enumerate(env.possible_agents):
        view = game.view(seat)
        parts = unpack(env.observe(agent)["observation"], rules)
        assert sorted(slots[i] for i in np.flatnonzero(parts["hand"])) == sorted(view.hand)
        assert np.flatnonzero(parts["dealer"]).tolist() == [(view.dealer - seat) % 7]
        if view.bidder >= 0:
            assert np.flatnonzero(parts["bidder"]).tolist() == [(view.bidder - seat) % 7]
            assert parts["high_bid"][0] == view.bid
        assert parts["score"].tolist() == [view.scores[(seat + k) % 7] for k in range(7)]
        for s, c in view.trick:
            assert parts["trick"][(s - seat) % 7, slots.index(c)] == 1
        if view.trump is not None:
            assert np.flatnonzero(parts["trump"]).tolist() == [int(view.trump)]


def test_double_deck_copies_share_a_slot() -> None:
    """A seat holding both copies of a card sees 2 in its slot; no slot tells the copies apart."""
    rules = Rules.preset("bid-euchre-double")
    slots = [int(c) for c in deck_cards(24)]
    found = 0
    for seed in range(20):
        game = Game(rules, seed=seed)
        for seat in range(4):
            view = game.view(seat)
            parts = unpack(encode(view), rules)
            counts = {f: sum(1 for c in view.hand if face(c) == f) for f in slots}
            assert parts["hand"].tolist() == [counts[f] for f in slots]
            found += any(v == 2 for v in counts.values())
    assert found


# --- whole games: the returns are the engine's scores ----------------------------------------------------
def play_episode(config: Any, seed: int, reward: str = "hand") -> tuple[dict[str, float], Any]:
    env = euchre_v0.raw_env(config, reward=reward)
    env.reset(seed=seed)
    rng = random.Random(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        returns[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return returns, env


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_hand_rewards_are_the_engines_scores(config: dict[str, Any]) -> None:
    """Partnerships: each agent's return is its side's final score less the other side's.
    Napoleon (each pays each, zero-sum): each agent's return is its own final score."""
    for seed in (21, 22):
        returns, env = play_episode(config, seed)
        game = env.game
        rules = game.rules
        assert game.is_over and all(env.terminations.values())
        assert sum(returns.values()) == pytest.approx(0.0)
        for seat, agent in enumerate(env.possible_agents):
            own = game.scores[rules.side_of(seat)]
            if rules.napoleon:
                assert returns[agent] == own
            else:
                assert returns[agent] == pytest.approx(own - (sum(game.scores) - own))
        assert sum(1 for h in game.hands if h.points is not None) >= 1


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_game_rewards(config: dict[str, Any]) -> None:
    returns, env = play_episode(config, 8, reward="game")
    game = env.game
    k = game.rules.sides
    winners = game.winners
    for seat, agent in enumerate(env.possible_agents):
        side = game.rules.side_of(seat)
        share = 1.0 / len(winners)
        expected = share if side in winners else 0.0
        assert returns[agent] == pytest.approx(expected - (1.0 - expected) / (k - 1))


def test_same_seed_and_actions_repeat_exactly() -> None:
    for config in ({"preset": "bid-euchre-double", "target": 10}, {"preset": "napoleon", "players": 6}):
        a, env_a = play_episode(config, 5)
        b, env_b = play_episode(config, 5)
        assert a == b and [h.history for h in env_a.game.hands] == [h.history for h in env_b.game.hands]
        assert env_a.game.hands[0].deal == Game(resolve_rules(config), seed=5).hands[0].deal


# --- an observation is a function of the seat's view ---------------------------------------------------------
@pytest.mark.parametrize("config", SISTERS, ids=IDS)
def test_observations_ignore_unseen_cards(config: dict[str, Any]) -> None:
    """At random points of random episodes, each agent's observation (and mask) is unchanged when
    the cards it cannot see are dealt again at random (``PlayerView.resample``, consistently with
    all the seat saw) and the game replayed to the same point on that deal in another env."""
    rules = resolve_rules(config)
    rng = random.Random(f"leak/{rules}")
    compared = differed = 0
    for episode in range(8):
        a = euchre_v0.raw_env(rules)
        a.reset(seed=episode)
        random_steps(a, rng, rng.randrange(1, 25 * rules.players))
        if not a.agents or a.terminations[a.agent_selection]:
            continue
        game = a.game
        before = [x for h in game.hands[:-1] for x in h.history]
        for seat, agent in enumerate(a.possible_agents):
            try:
                sample: State | None = game.view(seat).resample(rng)
            except DealError:  # (a view the sampler could not deal: the second resampler)
                sample = next((t for t in (swapped_deal(game, seat, rng) for _ in range(30)) if t), None)
            if sample is None:
                continue
            b = euchre_v0.raw_env(rules)
            b.reset(seed=episode, options={"deals": [h.deal for h in game.hands[:-1]] + [sample.deal]})
            for action in before + list(sample.history):
                b.step(int(action))
            ours, theirs = a.observe(agent), b.observe(agent)
            assert np.array_equal(ours["observation"], theirs["observation"])
            assert np.array_equal(ours["action_mask"], theirs["action_mask"])
            compared += 1
            differed += any(sorted(map(face, sample.deal.hands[s])) != sorted(map(face, game.state.deal.hands[s]))
                            for s in range(rules.players) if s != seat)
    assert compared >= 10 and differed >= 5  # the test saw other deals, not only the same one again


@pytest.mark.parametrize("config", SHORT, ids=SHORT_IDS)
def test_no_hidden_card_in_any_observation(config: dict[str, Any]) -> None:
    """No card slot of any observation is set for a card the seat cannot know of: another seat's
    card in hand, the unused stock (Hasenpfeffer), the moon's buried card (Bid Euchre: the
    shooter's own view only). The double deck's faces count both copies: a face the seat holds or
    has seen played is known, whoever holds the other copy."""
    rules = resolve_rules(config)
    slots = [int(c) for c in deck_cards(rules.deck)]
    card_fields = [f.name for f in layout(rules).fields if f.shape[-1] == len(slots)]
    env = euchre_v0.raw_env(rules)
    env.reset(seed=4)
    rng = random.Random(4)
    checked = 0
    while checked < 800:
        state = env.game.state
        for seat, other in enumerate(env.possible_agents):
            parts = unpack(env.observe(other)["observation"], rules)
            shown = set()
            for name in card_fields:
                totals = parts[name].reshape(-1, len(slots)).sum(axis=0)
                shown |= {slots[i] for i in np.flatnonzero(totals)}
            view = env.game.view(seat)
            hidden = {face(c) for s in range(rules.players) if s != seat for c in state.hand(s)}
            hidden |= {face(c) for c in state.deal.stock}
            hidden |= {face(g.discard) for g in state.gifts if g.discard is not None and g.receiver != seat}
            hidden -= {face(c) for c in view.hand} | {face(c) for c in view.played}
            for giver, receiver, card, buried in view.gifts:  # a moon's gift: the pair know it, the shooter its discard
                if card is not None and seat in (giver, receiver):
                    hidden.discard(face(card))
                if buried is not None and seat == receiver:
                    hidden.discard(face(buried))
            assert not shown & hidden, (seat, shown & hidden)
            checked += 1
        env.step(rng.choice([int(x) for x in env.game.legal_actions()]))
        if not env.agents or all(env.terminations.values()):
            env.reset(seed=rng.randrange(10**6))
    assert checked >= 800


# --- matches (RULES-FAMILY.md 12.5: "the match fields serve any game with a target") ------------------------
MATCHES = [{"preset": "hasenpfeffer", "target": 4, "match_wins": 2, "slam": True},
           {"preset": "bid-euchre", "target": 8, "match_games": 2, "laps": True},
           {"preset": "napoleon", "players": 3, "target": 6, "match_wins": 2}]
MATCH_IDS = ["hasenpfeffer", "bid-euchre", "napoleon"]


@pytest.mark.parametrize("config", MATCHES, ids=MATCH_IDS)
def test_sister_match_episodes(config: dict[str, Any]) -> None:
    """A whole match per episode: PettingZoo's checks pass, the match standing is observed (each
    side's game wins from the observing seat, the games finished) and the match reward is +1 to
    the side that took it, shared as a loss by the others (zero-sum, as a game's reward)."""
    rules = resolve_rules(config)
    lay = layout(rules)
    assert lay.size == expected_size(rules) + rules.sides + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(euchre_v0.env(rules=config), num_cycles=1000)
    for seed in (3, 4):
        returns, env = play_episode(config, seed, reward="match")
        match = env.match
        assert match is not None and match.is_over and len(match.results) >= 1
        for seat, agent in enumerate(env.possible_agents):
            won = rules.side_of(seat) == match.winner
            assert returns[agent] == pytest.approx(1.0 if won else -1.0 / (rules.sides - 1))
        obs = env.observe(env.possible_agents[1])["observation"]
        standing = obs[lay.field("match_wins").start:lay.field("match_wins").start + rules.sides].tolist()
        assert standing[0] == match.wins[rules.side_of(1)] and sorted(standing) == sorted(match.wins)
        assert obs[lay.field("match_games").start] == len(match.results)
    # one game's rules have no match standing to encode
    single = resolve_rules({k: v for k, v in config.items() if k not in ("match_wins", "match_games", "slam", "laps")})
    view = Game(single, seed=1).view(0)
    with pytest.raises(ValueError, match="play no match"):
        encode(view, match_wins=[1, 0, 0][:single.sides])
