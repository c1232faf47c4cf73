"""The PettingZoo environment (``euchre.envs.euchre_v0``): PettingZoo's own API, seed and render
tests for every preset and a few switch combinations, and our checks that it is a thin layer on the
engine: observations that ignore the cards a seat cannot see, masks equal to the engine's legal
actions, exact repeats from a seed, and rewards that add up to the engine's points."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from euchre import Game, IllegalActionError, Rules  # noqa: E402
from euchre.actions import EUCHRE_ACTIONS as NUM_ACTIONS  # noqa: E402  # the five-card space
from euchre.envs import euchre_v0  # noqa: E402
from euchre.envs.aec import resolve_rules  # noqa: E402
from euchre.envs.observation import COUNT_HIGH, encode, observation_high  # noqa: E402
from euchre.errors import DealError  # noqa: E402

COMBOS: list[dict[str, Any]] = [
    {"preset": "american", "call_for_best": True, "defend_alone": True},
    {"preset": "american", "no_trump": True, "low_no_trump": True, "stick_the_dealer": True},
    {"preset": "american", "farmers_hand": True, "ace_no_face": True},
    {"preset": "american", "target": None, "deals": 3, "tie_break": False, "super_euchre": True},
    {"preset": "cut-throat", "deck": 24, "stick_the_dealer": True},
]
MATCH: dict[str, Any] = {"preset": "american", "target": 3, "match_wins": 2, "slam": True}
FIVE_CARD = [n for n in Rules.preset_names() if Rules.preset(n).sister_game is None]
"""The presets of Euchre, in its one layout (the sister games: tests/test_envs_sister.py)."""
CONFIGS: list[Any] = [*FIVE_CARD, *COMBOS, MATCH]
IDS = [c if isinstance(c, str) else "+".join(f"{k}={v}" for k, v in c.items() if k != "preset") for c in CONFIGS]

# PettingZoo's api_test warns about any dict observation or Dict space unless the env is one of
# its own by name (chess_v6, ...); every other warning is a finding.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def random_steps(env: Any, rng: random.Random, steps: int) -> list[int]:
    """Step ``env`` with random legal actions (``None`` for finished agents); the actions taken."""
    taken: list[int] = []
    for _ in range(steps):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        taken.append(action)
        env.step(action)
    return taken


# --- PettingZoo's own tests ---------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_api(config: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(euchre_v0.env(rules=config), num_cycles=250)  # a whole game: termination too
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


def test_pettingzoo_api_unwrapped() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(euchre_v0.raw_env(rules="british"), num_cycles=60)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_seed(config: Any) -> None:
    seed_test(lambda: euchre_v0.env(rules=config), num_cycles=100)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_render(config: Any) -> None:
    render_test(lambda render_mode=None: euchre_v0.env(rules=config, render_mode=render_mode),
                custom_tests={"ansi": lambda text: "player_0" in text and "up card" in text})


# --- an observation is a function of the seat's view ----------------------------------------------------
LEAK_CONFIGS = [c for c in CONFIGS if c is not MATCH]  # options["deals"] deals one game, not a match


@pytest.mark.parametrize("config", LEAK_CONFIGS, ids=[i for c, i in zip(CONFIGS, IDS, strict=True) if c is not MATCH])
def test_observations_ignore_unseen_cards(config: Any) -> None:
    """At random points of random episodes, each agent's observation (and mask) is unchanged when
    the cards it cannot see are dealt again at random (``PlayerView.resample``: every other hand,
    the stock, a buried card, consistently with all the seat saw) and the game replayed to the
    same point on that deal, in a second environment."""
    rules = resolve_rules(config)
    rng = random.Random(f"leak/{rules}")
    compared = differed = 0
    for episode in range(10):
        a = euchre_v0.raw_env(rules)
        a.reset(seed=episode)
        random_steps(a, rng, rng.randrange(1, 90))
        if not a.agents or a.terminations[a.agent_selection]:
            continue
        game = a.game
        before = [x for h in game.hands[:-1] for x in h.history]
        for seat, agent in enumerate(a.possible_agents):
            try:
                sample = game.view(seat).resample(rng)
            except DealError:  # pragma: no cover - a view no sampled deal explains within the tries
                continue
            if sample.after_misdeal != game.state.after_misdeal:
                continue  # the sample chose the other reading of a hand after a misdeal
            b = euchre_v0.raw_env(rules)
            b.reset(seed=episode, options={"deals": [h.deal for h in game.hands[:-1]] + [sample.deal]})
            for action in before + list(sample.history):
                b.step(int(action))
            ours, theirs = a.observe(agent), b.observe(agent)
            assert np.array_equal(ours["observation"], theirs["observation"])
            assert np.array_equal(ours["action_mask"], theirs["action_mask"])
            assert b.game.view(seat) == game.view(seat)
            compared += 1
            differed += any(sample.deal.hands[s] != game.state.deal.hands[s] for s in range(rules.players) if s != seat)
    print(f"{compared} views compared, {differed} on another deal")
    assert compared >= 10 and differed >= 5  # the test saw other deals, not only the same one again


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_masks_are_the_engines_legal_actions(config: Any) -> None:
    env = euchre_v0.raw_env(config)
    rng = random.Random(3)
    for episode in range(2):
        env.reset(seed=100 + episode)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            game = env.game
            for other in env.agents:
                seat = env.seat_of(other)
                obs = env.observe(other)
                assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
                legal = [int(x) for x in game.legal_actions()] if seat == game.to_act else []
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                view = game.view(seat)
                wins, games = (env.match.wins, len(env.match.results)) if env.match is not None else (None, 0)
                assert np.array_equal(obs["observation"], encode(view, match_wins=wins, match_games=games))
                assert env.observation_space(other).contains(obs)
            assert agent == f"player_{game.to_act}"
            env.step(rng.choice([int(x) for x in game.legal_actions()]))


# --- seeds, rewards --------------------------------------------------------------------------------------
def play_episode(config: Any, seed: int, actions: list[int] | None = None, reward: str = "hand",
                 rng: random.Random | None = None) -> tuple[list[int], list[Any], dict[str, float], Any]:
    """One whole episode: the actions, every (agent, observation, reward) seen, each agent's return."""
    env = euchre_v0.raw_env(config, reward=reward)
    env.reset(seed=seed)
    taken: list[int] = []
    trace: list[Any] = []
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew, term))
        returns[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        if actions is not None:
            action = actions[len(taken)]
        else:
            assert rng is not None
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        taken.append(action)
        env.step(action)
    return taken, trace, returns, env


@pytest.mark.parametrize("config", ["american", "cut-throat", "timed", COMBOS[2], MATCH],
                         ids=["american", "cut-throat", "timed", "offers", "match"])
def test_same_seed_and_actions_repeat_exactly(config: Any) -> None:
    actions, trace, returns, env = play_episode(config, 11, rng=random.Random(5))
    again, trace2, returns2, env2 = play_episode(config, 11, actions=actions)
    assert again == actions and trace2 == trace and returns2 == returns
    # the deals are the engine's Game(rules, seed=...): the same seed plays the same cards
    if env.match is None:
        assert env.game.hands[0].deal == Game(resolve_rules(config), seed=11).hands[0].deal
        assert [h.deal for h in env2.game.hands] == [h.deal for h in env.game.hands]
    other = euchre_v0.raw_env(config)
    other.reset(seed=12)
    assert other.game.hands[0].deal != env.game.hands[0].deal or other.game.first_dealer != env.game.first_dealer


def test_reset_without_seed_follows_the_last_seed() -> None:
    a, b = euchre_v0.raw_env(), euchre_v0.raw_env()
    a.reset(seed=4)
    b.reset(seed=4)
    a.reset()
    b.reset()
    assert a.episode_seed is not None and a.episode_seed == b.episode_seed != 4
    assert a.game.hands[0].deal == b.game.hands[0].deal


@pytest.mark.parametrize("config", [*FIVE_CARD, COMBOS[3], COMBOS[4]])
def test_hand_rewards_sum_to_the_engines_points(config: Any) -> None:
    _, _, returns, env = play_episode(config, 21, rng=random.Random(21))
    game = env.game
    rules = game.rules
    k = rules.sides
    for seat, agent in enumerate(env.possible_agents):
        own = game.scores[rules.side_of(seat)]
        others = (sum(game.scores) - own) / (k - 1)
        assert returns[agent] == pytest.approx(own - others)
    # step by step: the step that ends a hand pays the relative points of that hand, others nothing
    env = euchre_v0.raw_env(config)
    env.reset(seed=21)
    rng = random.Random(21)
    paid = 0
    while not env.terminations[env.agent_selection]:
        hand = env.game.state
        env.step(rng.choice([int(a) for a in env.game.legal_actions()]))
        points = hand.points if hand.is_over else None
        for seat, agent in enumerate(env.possible_agents):
            side = rules.side_of(seat)
            assert env.rewards[agent] == (euchre_v0.relative(points)[side] if points is not None else 0.0)
        assert sum(env.rewards.values()) == pytest.approx(0.0)  # zero-sum at every step
        paid += points is not None
    assert paid == sum(1 for h in env.game.hands if h.points is not None)


@pytest.mark.parametrize(("config", "winner_reward", "loser_reward"),
                         [("american", 1.0, -1.0), ("two-handed", 1.0, -1.0), ("cut-throat", 1.0, -0.5)])
def test_game_rewards(config: str, winner_reward: float, loser_reward: float) -> None:
    _, trace, returns, env = play_episode(config, 8, reward="game", rng=random.Random(8))
    game = env.game
    (winner,) = game.winners
    for seat, agent in enumerate(env.possible_agents):
        side = game.rules.side_of(seat)
        assert returns[agent] == (winner_reward if side == winner else loser_reward)
    assert sum(1 for *_, r, _ in trace if r) == len(env.possible_agents)  # paid once, at the end


def test_tied_game_rewards() -> None:
    # tie_break=False: equal leaders share the win (+1/2 each in cut-throat, the loser -1; 0 with two)
    for seed in range(40):
        config = {"preset": "cut-throat", "target": None, "deals": 1, "tie_break": False}
        _, _, returns, env = play_episode(config, seed, reward="game", rng=random.Random(seed))
        winners = env.game.winners
        if len(winners) == 2:
            for seat, agent in enumerate(env.possible_agents):
                assert returns[agent] == (0.5 if seat in winners else -1.0)
            return
    pytest.fail("no tied cut-throat game in 40 seeds")


def test_match_rewards() -> None:
    _, _, returns, env = play_episode(MATCH, 2, reward="match", rng=random.Random(2))
    match = env.match
    assert match is not None and match.is_over
    for seat, agent in enumerate(env.possible_agents):
        assert returns[agent] == (1.0 if env.rules.side_of(seat) == match.winner else -1.0)
    _, _, returns, env = play_episode(MATCH, 2, reward="game", rng=random.Random(2))
    match = env.match
    assert match is not None
    counted = [0.0, 0.0]
    for game in match.games:
        for side in range(2):
            counted[side] += match.game_wins(game) if game.winner == side else 0
    assert returns["player_0"] == pytest.approx(counted[0] - counted[1])
    obs = env.observe("player_1")["observation"]
    assert obs[euchre_v0.field_slice("match_wins")].tolist()[:2] == [match.wins[1], match.wins[0]]


# --- the layout -----------------------------------------------------------------------------------------
def test_layout_is_contiguous_and_named() -> None:
    fields = euchre_v0.observation_fields()
    assert fields is euchre_v0.OBSERVATION_FIELDS
    assert len({f.name for f in fields}) == len(fields)
    position = 0
    for f in fields:
        assert f.start == position and f.length == int(np.prod(f.shape))
        position += f.length
    assert position == euchre_v0.OBSERVATION_SIZE
    env = euchre_v0.raw_env("british")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)["observation"]
    parts = euchre_v0.unpack(obs)
    assert set(parts) == {f.name for f in fields}
    assert parts["hand"].sum() == 5 and parts["up_card"].sum() == 1 and parts["phase"].sum() == 1
    assert parts["to_act"].tolist() == [1, 0, 0, 0]  # the seat to act sees itself at 0
    high = observation_high()
    assert high.max() == COUNT_HIGH and env.observation_space("player_0")["observation"].high.tolist() == high.tolist()


def test_docs_table_is_the_layout() -> None:
    """docs/rl.md lists every field with its start, length and shape, as the code lays them out."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| \(([\d, ]+)\) \|", text, re.M)
    documented = [(name, int(start), int(length), tuple(int(x) for x in shape.split(",") if x.strip()))
                  for name, start, length, shape in rows]
    assert documented == [tuple(f) for f in euchre_v0.OBSERVATION_FIELDS]
    assert f"({euchre_v0.OBSERVATION_SIZE},)" in text


def test_observation_reads_the_view() -> None:
    """A few fields against the view they come from, seat-relative."""
    env = euchre_v0.raw_env("american")
    env.reset(seed=9)
    rng = random.Random(9)
    random_steps(env, rng, 12)
    game = env.game
    for seat, agent in enumerate(env.possible_agents):
        view = game.view(seat)
        parts = euchre_v0.unpack(env.observe(agent)["observation"])
        assert np.flatnonzero(parts["hand"]).tolist() == sorted(view.hand)
        assert np.flatnonzero(parts["dealer"]).tolist() == [(view.dealer - seat) % 4]
        assert parts["score"].tolist()[:2] == [view.scores[seat % 2], view.scores[1 - seat % 2]]
        bids = [(s, a) for s, a in view.actions if a is not None and a.is_bid]
        assert int(parts["bid_seats"].sum()) == len(bids)
        for s, c in view.trick:
            assert parts["trick"][(s - seat) % 4, c] == 1 and parts["played"][(s - seat) % 4, c] == 1


# --- errors, options, rendering ----------------------------------------------------------------------
def test_rules_forms() -> None:
    british = Rules.preset("british", stick_the_dealer=True)
    for form in (british, {"preset": "british", "stick_the_dealer": True}, {"preset": "uk", "stick_the_dealer": True}):
        assert euchre_v0.raw_env(form).rules == british
    assert euchre_v0.raw_env({"deals": 4}).rules == Rules.preset("american", deals=4)
    assert euchre_v0.raw_env("cut-throat").possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(ValueError, match="reward"):
        euchre_v0.raw_env(reward="trick")
    with pytest.raises(ValueError, match="match rules"):
        euchre_v0.raw_env("american", reward="match")
    with pytest.raises(ValueError, match="render_view"):
        euchre_v0.raw_env("two-handed", render_view=3)


def test_illegal_actions() -> None:
    raw = euchre_v0.raw_env()
    raw.reset(seed=1)
    before = raw.observe(raw.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert np.array_equal(raw.observe(raw.agent_selection)["observation"], before["observation"])
    wrapped = euchre_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1 and sum(wrapped.rewards.values()) == -1


def test_deals_option() -> None:
    deal = Game(Rules(), seed=77).hands[0].deal
    env = euchre_v0.raw_env()
    env.reset(seed=5, options={"deals": [deal]})
    assert env.game.hands[0].deal == deal
    assert env.agent_selection == f"player_{(deal.dealer + 1) % 4}"
    with pytest.raises(ValueError, match="match"):
        euchre_v0.raw_env(MATCH).reset(seed=1, options={"deals": [deal]})


def test_render_views() -> None:
    env = euchre_v0.raw_env("american", render_mode="ansi")
    env.reset(seed=3)
    seat = env.game.to_act
    mine = " ".join(map(str, env.game.view(seat).hand))
    text = env.render()
    assert isinstance(text, str) and f"seen by player_{seat}" in text and mine in text
    assert text.count("hidden") == 3
    everything = env.table_text("all")
    assert "hidden" not in everything and all(" ".join(map(str, env.game.state.hand(s))) in everything
                                              for s in range(4))
    public = env.table_text("public")
    assert public.count("hidden") == 4 and "seen by a spectator" in public
    assert "seen by player_2" in env.table_text(2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert euchre_v0.raw_env().render() is None  # no render mode: a warning, nothing drawn


def test_no_parallel_env() -> None:
    # Euchre is turn-based: one seat acts at a time, so there is no parallel API (docs/rl.md)
    assert not hasattr(euchre_v0, "parallel_env")
    assert euchre_v0.raw_env.metadata["is_parallelizable"] is False
