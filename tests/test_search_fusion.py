"""The search bot's ``late_fusion``: its next card chosen once over the samples it cannot tell apart.

Plain determinized search solves each sample with every card face up, so it credits the seat with
the right guess at each of its later cards on every sample (strategy fusion). With ``late_fusion``
the seat's next choice is made once for all the samples that show it the same plays, so a card's
value can only fall, never rise, on the same samples; positions outside the option's reach are
valued as before.
"""

from __future__ import annotations

import pytest

from euchre import Game, Rules
from euchre.bots import HeuristicBot, SearchBot
from euchre.bots.search import _Later
from euchre.state import Phase
from euchre.view import PlayerView

AMERICAN = Rules.preset("american")


def play_views(rules: Rules, seeds: range, cards: int) -> list[PlayerView]:
    """Card-play views of heuristic games where the seat to act holds ``cards`` cards and has a choice."""
    out = []
    for seed in seeds:
        game = Game(rules, seed=seed)
        bots = {s: HeuristicBot(seed=s) for s in range(rules.players)}
        while not game.is_over:
            view = game.view(game.to_act)
            if view.phase is Phase.PLAY and len(view.hand) == cards and len(view.legal_actions) > 1:
                out.append(view)
            game.push(bots[game.to_act].choose(view))
    return out


@pytest.mark.parametrize("value", [-1, True, 2.5, "3"])
def test_a_bad_late_fusion_is_refused_up_front(value: object) -> None:
    with pytest.raises(ValueError, match="^late_fusion must be a whole number of at least 0"):
        SearchBot(seed=1, late_fusion=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["american", "two-handed", "cut-throat", "british"])
def test_fusion_only_lowers_a_cards_value_on_the_same_samples(preset: str) -> None:
    """Against plain search on the same samples (same seed) at four cards a hand: the other seats
    play each sample's best card in both, so a card's points can only fall when the seat must
    choose its next card once over the samples that look alike. And they do fall somewhere (on
    about one position in eight, at four cards): the fusion is there to be corrected."""
    rules = Rules.preset(preset)
    views = play_views(rules, range(8), cards=4)[:40]
    assert len(views) >= 30
    lowered = 0
    for view in views:
        plain = {e.action: e.points for e in SearchBot(seed=5, samples=24).evaluate(view)}
        fused = {e.action: e.points for e in SearchBot(seed=5, samples=24, late_fusion=4).evaluate(view)}
        assert fused.keys() == plain.keys() == set(view.legal_actions)
        for a, p in fused.items():
            assert p <= plain[a] + 1e-9, (view, a, p, plain[a])
        lowered += any(fused[a] < plain[a] - 1e-9 for a in fused)
    assert lowered > 0


def test_the_next_choice_is_keyed_by_what_the_seat_sees() -> None:
    """Each fused value is the seat's next decision keyed by the plays it will have seen and its
    cards then, never by the hidden cards: two samples that show the same plays share a key."""
    bot = SearchBot(seed=2, samples=8, late_fusion=3)
    view = play_views(AMERICAN, range(3), cards=3)[0]
    seat = view.seat
    assert seat is not None
    rng = __import__("random").Random(4)
    keys = set()
    for _ in range(20):
        sample = view.resample(rng)
        for a, v in bot._values(sample, seat, list(view.legal_actions), view).items():
            if isinstance(v, _Later):
                assert v.hand == sample.hands[seat] & ~(1 << a.card)  # type: ignore[operator]
                assert set(v.values) and all(b.kind is a.kind for b in v.values)
                keys.add((a, v.key))
    assert keys, "no sample reached a later choice of the seat's"
    assert len(keys) < 20 * len(view.legal_actions), "every sample its own key: nothing is fused"


@pytest.mark.parametrize("cards", [2, 4, 5])
def test_positions_outside_its_reach_are_valued_as_before(cards: int) -> None:
    """``late_fusion=3`` changes only the choices from three cards (with two, the last card is
    forced, so there is nothing to fuse)."""
    for view in play_views(AMERICAN, range(2), cards=cards)[:4]:
        plain = SearchBot(seed=5, samples=16).evaluate(view)
        fused = SearchBot(seed=5, samples=16, late_fusion=3).evaluate(view)
        assert [(e.action, e.points) for e in fused] == [(e.action, e.points) for e in plain]


def test_fused_choices_repeat_with_the_seed() -> None:
    views = play_views(AMERICAN, range(4), cards=3)[:10]
    first = [SearchBot(seed=9, samples=16, late_fusion=4).choose(v) for v in views]
    assert first == [SearchBot(seed=9, samples=16, late_fusion=4).choose(v) for v in views]
    assert all(a in v.legal_actions for a, v in zip(first, views, strict=True))
