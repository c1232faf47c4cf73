"""``python_euchre``: the engine as an OpenSpiel Python game (``euchre.openspiel_game``).

OpenSpiel's own checks and algorithms run on it: ``random_sim_test`` (legal actions sorted and
empty for the others, clone and serialization round trips, returns in the utility bounds, the
game length under ``max_game_length``) over every preset and the house rules, outcome-sampling
MCCFR and the Python IS-MCTS bot, whose determinizations come from the engine's
``PlayerView.resample``. Under the American rules it plays move for move like OpenSpiel's built-in
``euchre`` (C++), through the mapping of ``euchre/openspiel.py`` and its documented differences
(docs/openspiel.md). And the observer leaks nothing: a player's tensors and strings are the same
when the cards it cannot see are swapped or redealt.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from euchre import openspiel_game as og  # noqa: E402
from euchre.actions import ACTIONS, DEFEND_ALONE, PASS, Action  # noqa: E402
from euchre.cards import effective_suit, iter_mask  # noqa: E402
from euchre.openspiel import OS_ALONE, OS_PARTNER, OS_PASS, os_common, our_card  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Deal, Phase, State  # noqa: E402

PRESETS = [n for n in Rules.preset_names() if Rules.preset(n).sister_game is None]  # sisters: test_openspiel_sister
HOUSE = ("python_euchre(no_trump=true,low_no_trump=true,ace_no_face=true,farmers_hand=true,super_euchre=true,"
         "defend_alone=true,stick_the_dealer=true,call_for_best=true,best_card_free=true,loner_lead=loner_left,"
         "canadian_loner=true)")
"""Every four-player house rule at once (RULES-FAMILY.md 12.1-12.4 and the switches)."""
SEARCHED = [f"python_euchre(preset={p})" for p in PRESETS] + [HOUSE, "python_euchre(preset=railroad,ace_no_face=true)"]


def load(text: str):  # -> EuchreGame
    return pyspiel.load_game(text)


def random_play(state, rng: random.Random, steps: int | None = None):
    """Play chance and decisions at random, ``steps`` actions or to the end; returns ``state``."""
    k = 0
    while not state.is_terminal() and (steps is None or k < steps):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
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
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            yield s.clone()
            s.apply_action(rng.choice(s.legal_actions()))


# --- the game and its parameters ------------------------------------------------------------------------
def test_registered_on_import() -> None:
    assert og.GAME_NAME in pyspiel.registered_names()
    game = load("python_euchre")
    assert game.get_type().short_name == "python_euchre"
    assert game.rules == Rules()
    assert game.num_players() == 4 and game.num_distinct_actions() == 119
    assert game.max_chance_outcomes() == 32  # card ids up to As (31) of the 24-card deck
    assert game.min_utility() == -4 and game.max_utility() == 4


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_and_its_aliases(preset: str) -> None:
    game = load(f"python_euchre(preset={preset})")
    assert game.rules == Rules.preset(preset)
    assert game.num_players() == Rules.preset(preset).players
    for alias in Rules.aliases(preset):
        assert load(f"python_euchre(preset={alias})").rules == Rules.preset(preset)
    assert og.game_string(game.rules) == f"python_euchre(preset={preset})"
    assert load(str(game)).rules == game.rules  # OpenSpiel's own form (every parameter) loads back


def test_switches_override_the_preset() -> None:
    assert load("python_euchre(preset=british,call_for_best=true)").rules == Rules.preset("british", call_for_best=True)
    assert load("python_euchre(preset=long,stick_the_dealer=true,target=21)").rules == \
        Rules.preset("long", stick_the_dealer=True, target=21)
    assert load("python_euchre(preset=cut-throat,march_points=4)").rules.march_points == 4
    assert load("python_euchre(loner_lead=loner_left,super_euchre_points=6,super_euchre=true)").rules == \
        Rules(loner_lead="loner_left", super_euchre=True, super_euchre_points=6)
    assert load("python_euchre(preset=timed,duration=20.0)").rules.duration == 20
    assert load("python_euchre(preset=american,deals=8)").rules == Rules.preset("american", deals=8)
    # A true/false switch at the American value leaves the preset's own (documented): British
    # without the Canadian loner is spelt from the American preset.
    assert load("python_euchre(preset=british,canadian_loner=false)").rules.canadian_loner
    rules = Rules(deck=25, target=11)
    assert load(og.game_string(rules)).rules == rules


def test_game_string_round_trips_every_switch() -> None:
    rng = random.Random(3)
    cases = [Rules.preset(p) for p in PRESETS] + [load(HOUSE).rules]
    for name, default in og.SWITCHES.items():
        if isinstance(default, bool):
            for base in PRESETS:
                try:
                    cases.append(Rules.preset(base, **{name: not getattr(Rules.preset(base), name)}))
                except Exception:  # noqa: BLE001 - a combination the rules refuse
                    pass
    for _ in range(20):
        cases.append(Rules.preset(rng.choice(PRESETS[:4]), stick_the_dealer=rng.random() < 0.5,
                                  target=rng.randrange(1, 30), euchre_points=rng.randrange(1, 5)))
    for rules in cases:
        assert load(og.game_string(rules)).rules == rules, og.game_string(rules)


def test_bad_parameters_are_refused() -> None:
    for text in ("python_euchre(preset=nonsense)", "python_euchre(horizon=match)",
                 "python_euchre(preset=timed,horizon=game)", "python_euchre(preset=american,deck=26)",
                 "python_euchre(preset=cut-throat,call_for_best=true)", "python_euchre(bogus=1)"):
        with pytest.raises(Exception):  # noqa: B017 - RulesError, ValueError or OpenSpiel's own
            load(text)


# --- OpenSpiel's checks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_every_preset(preset: str) -> None:
    pyspiel.random_sim_test(load(f"python_euchre(preset={preset})"), num_sims=8, serialize=True, verbose=False)


@pytest.mark.parametrize("text", [
    HOUSE,
    "python_euchre(preset=railroad,ace_no_face=true)",
    "python_euchre(preset=two-handed,deck=32)",
    "python_euchre(preset=american,horizon=game,max_hands=20)",
    "python_euchre(preset=cut-throat,horizon=game,target=5)",
    "python_euchre(preset=american,deals=3,horizon=game)",
    "python_euchre(preset=american,target=1,horizon=game,max_hands=3)",
])
def test_random_sim_house_rules_and_whole_games(text: str) -> None:
    pyspiel.random_sim_test(load(text), num_sims=8, serialize=True, verbose=False)


def test_hands_end_and_return_points() -> None:
    """A hand's returns are its points per side as differences (zero-sum); cut-throat's three
    sides give each the mean of the others' less; a whole game returns the win."""
    rng = random.Random(5)
    for text, sides in (("python_euchre", 2), ("python_euchre(preset=cut-throat)", 3)):
        game = load(text)
        for _ in range(50):
            s = random_play(game.new_initial_state(), rng)
            hand = s.engine_state()
            assert hand.is_over and not hand.misdealt
            r = s.returns()
            assert abs(sum(r)) < 1e-9
            x = hand.points
            for seat in range(game.num_players()):
                side = game.rules.side_of(seat)
                assert r[seat] == pytest.approx(x[side] - (sum(x) - x[side]) / (sides - 1))
    game = load("python_euchre(horizon=game,max_hands=60)")
    s = random_play(game.new_initial_state(), rng)
    engine = s._ep.game
    if engine.is_over:
        assert s.returns() == ([1.0, -1.0, 1.0, -1.0] if engine.winner == 0 else [-1.0, 1.0, -1.0, 1.0])
    else:  # truncated at max_hands: a draw
        assert s.returns() == [0.0] * 4


def test_a_misdeal_is_redealt_within_the_hand() -> None:
    """Ace-no-face: a misdeal cancels the deal; the same dealer deals again (chance nodes) and the
    episode goes on to the redeal's end."""
    game = load("python_euchre(ace_no_face=true)")
    s = game.new_initial_state()
    s.apply_action(0)  # dealer 0; seat 1 is dealt cards 1, 5, 9, 13, 17 of the deal
    weak = [int(c) for c in State(Rules(), dealer=0, hands=["9c Tc 9d Td Ac", "9h Th 9s Ts Ah",
                                                            "Jc Qc Kc Jd Qd", "Kd Ad Jh Qh Kh"],
                                  up_card="Js").deal.hands[0]]
    rest = [c for c, _ in s.chance_outcomes() if c not in weak]
    for k in range(20):
        s.apply_action(weak[k // 4] if k % 4 == 1 else rest.pop())
    s.apply_action(rest.pop())
    assert s.current_player() == 1 and s.legal_actions() == [116, 117]  # misdeal, keep
    s.apply_action(116)
    assert s.is_chance_node() and not s.is_terminal()
    random_play(s, random.Random(1))
    hand = s.engine_state()
    assert hand.after_misdeal and hand.dealer == 0 and s.is_terminal()


# --- OpenSpiel's algorithms -------------------------------------------------------------------------------
def test_outcome_sampling_mccfr_runs() -> None:
    for text in ("python_euchre", "python_euchre(preset=cut-throat)"):
        np.random.seed(0)
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(load(text))
        for _ in range(5):
            solver.iteration()
        assert solver._infostates  # regrets and average strategies were stored
        policy = solver.average_policy()
        s = random_play(load(text).new_initial_state(), random.Random(0), steps=30)
        if not s.is_terminal() and not s.is_chance_node():
            probs = policy.action_probabilities(s)
            assert sorted(probs) == s.legal_actions() and sum(probs.values()) == pytest.approx(1)


def play_ismcts_hand(game, seed: int, *, with_resampler: bool = True, sims: int = 12) -> list[float]:
    """One whole hand, every seat an IS-MCTS bot (random rollouts)."""
    bots = []
    for seat in range(game.num_players()):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed * 10 + seat))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(seed * 10 + seat))
        if with_resampler:
            bot.set_resampler(og.resampler(random.Random(seed * 10 + seat)))
        bots.append(bot)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            a = int(bots[s.current_player()].step(s))
            assert a in s.legal_actions()
            s.apply_action(a)
    return s.returns()


@pytest.mark.parametrize("text", SEARCHED)
def test_ismcts_plays_whole_hands(text: str) -> None:
    game = load(text)
    for seed in range(2):
        r = play_ismcts_hand(game, seed)
        assert abs(sum(r)) < 1e-9


def test_ismcts_default_resampling_is_the_engines() -> None:
    """Without ``set_resampler`` the bot calls ``state.resample_from_infostate``: ours, through
    ``PlayerView.resample``."""
    play_ismcts_hand(load("python_euchre"), 7, with_resampler=False)
    game = load("python_euchre")
    for s in decision_states(game, random.Random(2), 2):
        p = s.current_player()
        t = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert t.information_state_string(p) == s.information_state_string(p)
        assert t.legal_actions() == s.legal_actions()


# --- OpenSpiel's built-in euchre, move for move -------------------------------------------------------------
VARIANTS = {  # name: (stick_the_dealer, lone defence)
    "plain": (False, False),
    "stick": (True, False),
    "defend": (False, True),
}


def choose(legal: list[Action], rng: random.Random) -> Action:
    """As tests/test_openspiel.py: biased towards passing (round 2, thrown-in hands, stick the
    dealer), towards not defending alone and towards bids with the partner."""
    if legal[0] == PASS and len(legal) > 1:
        if rng.random() < (0.6 if DEFEND_ALONE in legal else 0.7):
            return PASS
        legal = legal[1:]
    if legal[0].is_bid:
        alone = rng.random() < 0.25
        legal = [x for x in legal if x.alone == alone] or legal
    return rng.choice(legal)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_agrees_with_openspiel_euchre(variant: str) -> None:
    """Same deal (the same chance outcomes through the card mapping), same decisions: the same
    seat to act, the same legal actions in the common form, the same returns. The engines'
    documented differences (docs/openspiel.md) are bridged as tests/test_openspiel.py does: (a)
    OpenSpiel asks alone after the bid, (c) its dealer discards under the partner's loner, (d) it
    offers a lone defence after every bid."""
    stick, defend = VARIANTS[variant]
    flag = {True: "true", False: "false"}
    ours = load(f"python_euchre(dealer_may_discard_up_card=false,stick_the_dealer={flag[stick]},"
                f"defend_alone={flag[defend]})")
    theirs = pyspiel.load_game(f"euchre(stick_the_dealer={flag[stick]},allow_lone_defender={flag[defend]})")
    seen = {"alone": 0, "round 2": 0, "euchred": 0}
    for index in range(150):
        where = f"{variant} hand {index}"
        rng = random.Random(f"{variant}/{index}")
        s, o = ours.new_initial_state(), theirs.new_initial_state()
        while o.is_chance_node():
            first = not o.history()
            os_out = sorted(a for a, _ in o.chance_outcomes())
            assert sorted(a for a, _ in s.chance_outcomes()) == sorted(os_out if first else map(our_card, os_out))
            a = rng.choice(os_out)
            o.apply_action(a)
            s.apply_action(a if first else our_card(a))
        assert not s.is_chance_node(), where
        up_suit = s.engine_state().up_card >> 3
        alone_pending: bool | None = None
        while not s.is_terminal():
            h = s.engine_state()
            legal = [ACTIONS[a] for a in s.legal_actions()]
            cur, os_legal = o.current_player(), o.legal_actions()
            if alone_pending is not None and h.phase is not Phase.DISCARD:
                if os_legal and os_legal[0] < OS_PASS:  # (c): OpenSpiel's dealer discards, ours sits out
                    assert h.alone and h.maker == (h.dealer + 2) % 4 and not h.up_card_taken, where
                    o.apply_action(rng.choice(os_legal))
                    continue
                assert cur == h.maker and os_legal == [OS_ALONE, OS_PARTNER], where  # (a)
                o.apply_action(OS_ALONE if alone_pending else OS_PARTNER)
                seen["alone"] += alone_pending
                alone_pending = None
                continue
            if h.phase is Phase.PLAY and os_legal == [OS_ALONE, OS_PARTNER] and not h.alone:  # (d)
                o.apply_action(OS_PARTNER)
                continue
            assert cur == s.current_player(), where
            if h.phase is Phase.DEFEND:
                assert os_legal == [OS_ALONE, OS_PARTNER] and sorted(legal) == [PASS, DEFEND_ALONE], where
                a = choose(legal, rng)
                o.apply_action(OS_ALONE if a == DEFEND_ALONE else OS_PARTNER)
                s.apply_action(int(a))
                continue
            assert sorted({os_common(x, up_suit) for x in legal}) == os_legal, where
            a = choose(legal, rng)
            seen["round 2"] += h.phase is Phase.BID2 and a != PASS
            s.apply_action(int(a))
            o.apply_action(os_common(a, up_suit))
            if a.is_bid and a != PASS:
                alone_pending = a.alone
        assert o.is_terminal(), where
        assert s.returns() == o.returns(), f"{where}: ours {s.returns()}, OpenSpiel {o.returns()}"
        seen["euchred"] += any(r > 0 for r in s.returns()) and s.engine_state().maker_tricks() < 3
    assert all(seen.values()), seen


# --- the observer: what a player sees, and nothing more ------------------------------------------------------
def tensors(state, player: int) -> tuple[list[float], list[float], str, str]:
    return (state.observation_tensor(player), state.information_state_tensor(player),
            state.observation_string(player), state.information_state_string(player))


def swapped(hand: State, player: int, rng: random.Random) -> State | None:
    """The same hand with some cards ``player`` cannot see exchanged: between two other seats'
    current hands, or one of them and the stock, always two cards of one (effective) suit so that
    every card played stays legal. ``None`` when there is nothing to swap."""
    n = hand.n
    t = hand.trump
    where: dict[int, int] = {}  # card -> seat, or -1 for the stock
    for seat in range(n):
        if seat != player:
            for c in iter_mask(hand.hands[seat]):
                if c != hand.up_card:
                    where[c] = seat
    for c in hand.deal.stock:
        where[c] = -1
    pairs = [(x, y) for x in where for y in where
             if x < y and where[x] != where[y] and effective_suit(x, t) == effective_suit(y, t) != 4]
    if not pairs:
        return None
    hands = [list(h) for h in hand.deal.hands]
    stock = list(hand.deal.stock)
    for x, y in rng.sample(pairs, min(3, len(pairs))):
        spots = []
        for c in (x, y):
            seat = next((s for s in range(n) if c in hands[s]), -1)
            spots.append(hands[seat] if seat >= 0 else stock)
        if spots[0] is spots[1]:
            continue
        i, j = spots[0].index(x), spots[1].index(y)
        spots[0][i], spots[1][j] = y, x
    other = State.from_deal(hand.rules, Deal(hand.dealer, tuple(map(tuple, hands)), hand.up_card, tuple(stock)))
    for a in hand.history:
        other.push(a)  # validated: the swaps keep every action legal
    return other


LEAK_CASES = [f"python_euchre(preset={p})" for p in PRESETS if p != "railroad"] + [
    "python_euchre(defend_alone=true,stick_the_dealer=true,no_trump=true,low_no_trump=true,super_euchre=true)",
]


@pytest.mark.parametrize("text", LEAK_CASES)
def test_observation_is_blind_to_swapped_unseen_cards(text: str) -> None:
    """Cards a player cannot see (the others' hands, the stock) exchanged in the deal: every
    tensor and string of that player is unchanged; the seats whose cards moved see it."""
    game = load(text)
    rng = random.Random(text)
    compared = changed = 0
    for s in decision_states(game, rng, 6):
        hand = s.engine_state()
        for player in range(game.num_players()):
            other = swapped(hand, player, rng)
            if other is None or other.deal == hand.deal:
                continue
            t = og.state_from_engine(game, other)
            assert tensors(t, player) == tensors(s, player), (text, player, hand.deal, other.deal)
            compared += 1
            changed += any(tensors(t, q)[0] != tensors(s, q)[0] for q in range(game.num_players()) if q != player)
    assert compared > 20 and changed > 0


@pytest.mark.parametrize("text", SEARCHED)
def test_resampled_states_look_the_same(text: str) -> None:
    """The engine's resample redeals what a player has not seen: its information state (string and
    tensor) and observation are unchanged, the legal actions too when it is to act, and the
    hidden cards do move."""
    game = load(text)
    rng = random.Random(text)
    moved = 0
    for k, s in enumerate(decision_states(game, rng, 4)):
        for player in ((s.current_player(),) if k % 3 else range(game.num_players())):
            t = s.resample(player, rng)
            assert tensors(t, player) == tensors(s, player)
            if player == s.current_player():
                assert t.legal_actions() == s.legal_actions()
            moved += t.engine_state().deal != s.engine_state().deal
    assert moved > 0


def test_resampling_a_redeal() -> None:
    """After a misdeal the redeal is resampled as a redeal (no ace-no-face offers), whatever the
    view alone would allow."""
    game = load("python_euchre(ace_no_face=true)")
    rng = random.Random(11)
    found = 0
    for _ in range(400):
        s = random_play(game.new_initial_state(), rng, steps=22)
        if s.legal_actions() != [116, 117]:
            continue
        s.apply_action(116)
        random_play(s, rng, steps=21 + rng.randrange(1, 12))
        if s.is_terminal():
            continue
        found += 1
        for player in range(4):
            t = s.resample(player, rng)
            assert t.engine_state().after_misdeal
            assert tensors(t, player) == tensors(s, player)
        if found == 3:
            break
    assert found


def test_public_observer_is_the_spectators() -> None:
    game = load("python_euchre")
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                               private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for s in decision_states(game, random.Random(4), 2):
        seen = []
        for p in range(4):
            public.set_from(s, p)
            seen.append((public.tensor.copy().tolist(), public.string_from(s, p)))
        assert all(x == seen[0] for x in seen)
        private.set_from(s, s.current_player())
        assert private.dict["hand"].sum() == len(s.view(s.current_player()).hand)
        assert public.dict["up_card"].sum() == 1 and "hand" not in public.dict
    with pytest.raises(ValueError):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_observations_at_chance_nodes_and_the_end() -> None:
    game = load("python_euchre(horizon=game,max_hands=5)")
    s = game.new_initial_state()
    assert "dealing" in s.observation_string(0) and s.observation_tensor(0)[0] == 1  # the player slot
    s = random_play(s, random.Random(1))
    for p in range(4):
        assert len(s.information_state_tensor(p)) == len(game.new_initial_state().information_state_tensor(p))
        assert "points" in s.information_state_string(p)


def test_state_from_engine_round_trips() -> None:
    game = load("python_euchre(preset=british)")
    rng = random.Random(9)
    for _ in range(20):
        hand = State.random(game.rules, dealer=rng.randrange(4), rng=rng)
        for _ in range(rng.randrange(15)):
            if hand.is_over:
                break
            hand.push(rng.choice(hand.legal_actions()))
        s = og.state_from_engine(game, hand)
        got = s.engine_state()
        assert got.key()[2:] == hand.key()[2:]  # all but the deal: the stock's order is no chance outcome
        assert got.deal.hands == hand.deal.hands and sorted(got.deal.stock) == sorted(hand.deal.stock)
        assert s.history()[1:22] == og.deal_actions(hand)


def test_the_layout_table_is_the_observers() -> None:
    """docs/rl.md's table of slices (section OpenSpiel) names every slice, in order, with the
    American sizes it quotes."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text[text.index("## OpenSpiel"):]
    names = [n for row in re.findall(r"^\| (`[a-z_`, ]+`) \|", section, re.M) for n in re.findall(r"`(\w+)`", row)]
    game = load("python_euchre")
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert names[names.index("player"):] == list(observer.dict)
    small = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert (small.tensor.size, observer.tensor.size) == (590, 6170)
    assert "590 (observation) and 6,170 (information state)" in section


def test_resampling_in_a_whole_game() -> None:
    """With ``horizon=game`` only the current hand is redealt; the earlier hands stay as they were."""
    game = load("python_euchre(horizon=game,max_hands=30)")
    rng = random.Random(21)
    s = game.new_initial_state()
    checked = 0
    while not s.is_terminal() and checked < 12:
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        if s._ep.deal_start > 1 and rng.random() < 0.3:
            p = rng.randrange(4)
            t = s.resample(p, rng)
            assert tensors(t, p) == tensors(s, p)
            assert t.history()[:s._ep.deal_start] == s.history()[:s._ep.deal_start]
            checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked


def test_a_refused_action_changes_nothing_and_the_game_goes_on() -> None:
    """An illegal decision, a seat or card that is no chance outcome, or an unknown code raises
    and leaves the state as it was: before, the history's length moved on anyway and a later
    hand's resampling failed ("Qd is dealt twice"), and a bad chance outcome broke the deal
    twenty actions later."""
    from euchre.errors import EuchreError

    game = load("python_euchre(horizon=game)")
    state = game.new_initial_state()
    rng = random.Random(5)
    with pytest.raises(EuchreError, match="no seat to deal"):
        state.apply_action(999)
    state.apply_action(0)
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    with pytest.raises(EuchreError, match="no card left to deal"):
        state.apply_action(first)
    refused = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        before = (state.serialize(), state.history())
        legal = state.legal_actions()
        wrong = next(a for a in range(og.EUCHRE_ACTIONS) if a not in legal)
        for bad in (wrong, og.NUM_ACTIONS + 5):
            with pytest.raises(EuchreError):
                state.apply_action(bad)
            refused += 1
        assert (state.serialize(), state.history()) == before
        seat = state.current_player()
        other = state.resample_from_infostate(seat, rng.random)  # the deal is still consistent
        assert other.information_state_string(seat) == state.information_state_string(seat)
        state.apply_action(rng.choice(legal))
    assert refused > 20
    with pytest.raises(EuchreError):
        state.action_to_string(0, 500)
