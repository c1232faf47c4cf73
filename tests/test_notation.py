"""The project's record format: round trips for every preset, and precise refusal of bad records."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, RecordError, Rules, notation
from euchre.notation import GameRecord


def _random_game(rules: Rules, seed: int, max_actions: int = 5000) -> Game:
    clock_t = [0.0]

    def clock() -> float:
        clock_t[0] += 100.0
        return clock_t[0]

    game = Game(rules, seed=seed, clock=clock)
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_round_trip_every_preset(preset: str) -> None:
    game = _random_game(Rules.preset(preset), seed=11)
    assert game.is_over
    text = notation.dumps(game, players=["a", "b", "c", "d"][: game.rules.players])
    rec = notation.loads(text)
    replayed = rec.replay()
    assert replayed.scores == game.scores
    assert replayed.winners == game.winners
    assert replayed.actions() == game.actions()
    assert notation.dumps(replayed, players=rec.players) == text


def test_game_in_progress_round_trips_and_resumes() -> None:
    game = Game(Rules(), seed=3)
    rng = random.Random(3)
    for _ in range(37):
        game.push(rng.choice(game.legal_actions()))
    rec = notation.loads(notation.dumps(game))
    assert rec.scores is None and rec.hands[-1].points is None
    resumed = rec.replay()
    assert resumed.actions() == game.actions()
    assert resumed.state.key() == game.state.key()
    # The resumed game goes on exactly as the original would.
    for _ in range(40):
        if game.is_over:
            break
        a = rng.choice(game.legal_actions())
        game.push(a)
        resumed.push(a)
    assert resumed.scores == game.scores and resumed.state.key() == game.state.key()


def test_timed_game_replays_to_the_same_end() -> None:
    game = _random_game(Rules.preset("timed", duration=10), seed=5)
    assert game.is_over
    rec = notation.loads(notation.dumps(game))
    assert all(h.elapsed is not None for h in rec.hands)
    assert rec.replay().scores == game.scores
    assert len(rec.replay().hands) == len(game.hands)


def test_timed_hand_ending_a_hair_before_time_keeps_the_game_going_on_replay() -> None:
    """A hand that ended 0.4 ms before a 3.6 s game's time (a server's timed table did) must not be
    written as 3.6 s: the replay would end the game there and refuse the next hand."""
    rules = Rules.preset("timed", duration=0.06)
    limit = rules.duration * 60  # 3.5999999999999996: not even a whole number of milliseconds
    readings = iter([0.0, 1.2, limit - 0.0004, limit + 0.0004, limit + 1.0])
    game = Game(rules, seed=3, clock=lambda: next(readings))
    rng = random.Random(3)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    played = list(game.elapsed)
    assert played[:3] == [1.2, limit - 0.0004, limit + 0.0004]  # the third hand ended the game
    text = notation.dumps(game)
    assert "elapsed = 1.2\n" in text  # still to the millisecond where that changes nothing
    rec = notation.loads(text)
    replayed = rec.replay()
    assert len(replayed.hands) == len(game.hands) and replayed.scores == game.scores
    assert rec.hands[1].elapsed is not None and rec.hands[1].elapsed < limit


def test_save_and_load_file(tmp_path: Path) -> None:
    game = _random_game(Rules.preset("cut-throat"), seed=2)
    path = tmp_path / "sub" / "g.toml"
    notation.save(game, path)
    assert not (tmp_path / "sub" / "g.toml.tmp").exists()
    assert notation.load(path).replay().scores == game.scores


def _record_text() -> str:
    return notation.dumps(_random_game(Rules(), seed=9))


def test_illegal_play_names_hand_action_and_reason() -> None:
    rec = notation.loads(_record_text())
    # Replace the first trick's second card with a card that does not follow suit.
    hand = rec.hands[0]
    state_game = GameRecord(rules=rec.rules, hands=[hand], first_dealer=rec.first_dealer).replay(check_result=False)
    h = state_game.hands[0]
    if h.thrown_in:
        pytest.skip("first hand thrown in")
    t = h.tricks[0]
    led_seat, led_card = t.plays[0]
    second_seat = t.plays[1][0]
    dealt = set(h.deal.hands[second_seat])
    from euchre.cards import effective_suit
    wrong = [c for c in dealt if effective_suit(c, h.trump) != effective_suit(led_card, h.trump)]
    right = [c for c in dealt if effective_suit(c, h.trump) == effective_suit(led_card, h.trump)]
    if not wrong or not right:
        pytest.skip("seat cannot renege in this deal")
    i = next(k for k, (s, a) in enumerate(hand.actions) if a.kind.name == "PLAY") + 1
    from euchre.actions import play
    hand.actions[i] = (second_seat, play(wrong[0]))
    with pytest.raises(RecordError, match=r"hand 1, action \d+ .*you must follow"):
        rec.replay()


def test_wrong_seat_is_refused() -> None:
    rec = notation.loads(_record_text())
    seat, action = rec.hands[0].actions[0]
    rec.hands[0].actions[0] = ((seat + 1) % 4, action)
    with pytest.raises(RecordError, match=r"hand 1, action 1 .*turn"):
        rec.replay()


def test_wrong_points_and_result_are_refused() -> None:
    rec = notation.loads(_record_text())
    played = next(h for h in rec.hands if h.points and any(h.points))
    played.points = tuple(p + 1 for p in played.points)  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="points"):
        rec.replay()
    rec = notation.loads(_record_text())
    rec.scores = (0, 0)
    with pytest.raises(RecordError, match="result"):
        rec.replay()


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda t: t.replace('format = "euchre-record"', 'format = "chess"'), "not a euchre record"),
        (lambda t: t.replace("version = 1", "version = 99"), "unsupported record version"),
        (lambda t: t.replace("deck = 24", "deck = 23"), "Rules.deck"),
        (lambda t: t[: len(t) // 2] + "[[[", "not valid TOML"),
        (lambda t: t.replace("play ", "play X", 1), "hand"),
        (lambda t: t.replace('"p', '"q', 1), "must start with the seat"),
        (lambda t: t.replace("first_dealer", "first_dealr"), "first_dealer"),
    ],
)
def test_malformed_records_get_precise_errors(mutate, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        notation.loads(mutate(_record_text())).replay()


def test_duplicate_card_in_deal_is_refused() -> None:
    text = _record_text()
    rec = notation.loads(text)
    first_cards = " ".join(map(str, rec.hands[0].deal.hands[0]))
    other = str(rec.hands[0].deal.hands[1][0])
    bad = text.replace(first_cards, " ".join([other] + first_cards.split()[1:]), 1)
    with pytest.raises(RecordError, match="hand 1: .* (twice|missing)"):
        notation.loads(bad)


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        notation.load(tmp_path / "missing.toml")


def test_resumed_timed_game_keeps_its_elapsed_time_and_ends_on_time() -> None:
    t = [0.0]

    def clock() -> float:
        t[0] += 65.0
        return t[0]

    game = Game(Rules.preset("timed", duration=30), seed=1, clock=clock)
    rng = random.Random(1)
    while len(game.hands) < 4:
        game.push(rng.choice(game.legal_actions()))
    rec = notation.loads(notation.dumps(game))
    later = [1000.0]

    def clock2() -> float:
        later[0] += 60.0
        return later[0]

    resumed = rec.replay(clock=clock2)
    assert resumed.elapsed == game.elapsed
    while not resumed.is_over and len(resumed.hands) < 500:
        resumed.push(rng.choice(resumed.legal_actions()))
    assert resumed.is_over
    # Elapsed time went on from the saved game's, one minute a hand, and ended at the duration.
    assert resumed.elapsed[len(game.elapsed)] == game.elapsed[-1] + 60.0
    assert resumed.elapsed[-1] >= 30 * 60


_RECORD_TEXT = notation.dumps(_random_game(Rules(), seed=9))


def _paths(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every key and list index of a parsed record, as a path from the top."""
    out: list[tuple[object, ...]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out.append(path + (k,))
        out.extend(_paths(v, path + (k,)))
    return out


_TOML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.sampled_from(["p1 pass", "p9 play Jh", "p² pass", "give 2c", "Jh 9h"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_anywhere_in_a_record_is_refused_with_a_record_error_or_read(data: st.DataObject) -> None:
    """A record edited by hand or damaged on disk: any value at any place (a deal, an action, the
    scores, the players, the notes...) either reads and replays or raises RecordError naming the
    place, never another exception (the saved-games list and `euchre replay` rely on it)."""
    base = tomllib.loads(_RECORD_TEXT)
    base["meta"] = {"title": "a game", "bots": {"1": "expert"}}
    base["hands"][0]["notes"] = {"filled": "2 cards"}
    last = len(base["hands"]) - 1
    places = [p for p in _paths(base)  # (of the hands, the first and the last; of their actions, three)
              if p[0] != "hands" or len(p) == 1
              or (p[1] in (0, last) and (len(p) < 4 or p[2] != "actions" or p[3] in (0, 1, 7)))]
    path = data.draw(st.sampled_from(places))
    value = data.draw(_TOML_VALUES)
    node: Any = base
    for k in path[:-1]:
        node = node[k]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    try:
        text = tomli_w.dumps(base)
    except (TypeError, ValueError):
        return  # not writable as TOML (a null inside a list): no file can hold it
    try:
        notation.loads(text).replay()
    except RecordError:
        pass


def test_a_record_nested_too_deeply_is_refused() -> None:
    deep = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(RecordError, match="nested too deeply"):
        notation.loads(deep)
    with pytest.raises(RecordError, match="nested too deeply"):
        notation.loads("[" * 100000 + "]" * 100000)
