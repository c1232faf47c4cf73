"""The search bot reads the dealer's hidden discard (``infer_discard``).

A dealer who picked up buries its weakest card (keeps its trumps and aces, voids a side suit), but
the plain sampler buries any card. Reading the discard (:meth:`PlayerView.resample` with ``bury``)
keeps a dealt deal as likely as the heuristic player's discard explains it: the chance is checked
against a slow replay of the discard, and the kept samples against the real deals of heuristic
games (the dealer's trumps are not undercounted).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from test_search import heuristic_views, tiny

from euchre import Rules, State
from euchre.actions import discard
from euchre.bots import HeuristicBot, SearchBot
from euchre.bots.heuristic import weakest_card
from euchre.bots.search import DISCARD_DRAWS, DISCARD_MISFIT
from euchre.cards import effective_suit, mask_of
from euchre.state import Phase
from euchre.view import PlayerView

AMERICAN = Rules.preset("american")


def _slow_weight(sample: State, misfit: float) -> float:
    """The discard's weight the slow, obvious way: for each card the sample could have buried (its
    buried card and the rest of the stock), the hand replayed with the dealer dealt the other five
    of its six, and a fresh heuristic player asked for its discard."""
    dealer, buried, up = sample.dealer, sample.discard, sample.up_card
    assert buried is not None and up is not None
    deal = sample.deal
    six = set(deal.hands[dealer]) | {up}
    stop = next(i for i, a in enumerate(sample.history) if sample.seats[i] == dealer and a == discard(buried))
    weights = []
    for card in (buried, *deal.stock):
        held = (six - {buried}) | {card}
        if up not in held:
            continue
        hands = list(deal.hands)
        hands[dealer] = tuple(sorted(held - {up}))
        stock = tuple(c for c in (buried, *deal.stock) if c != card)
        replay = State.from_deal(sample.rules, replace(deal, hands=tuple(hands), stock=stock))
        for a in sample.history[:stop]:
            replay._push(a)
        assert replay.phase is Phase.DISCARD
        chosen = HeuristicBot().choose(PlayerView.of(replay, dealer))
        weights.append(1.0 if chosen == discard(card) else misfit)
    return sum(weights) / len(weights)


def _fast_weight(view: PlayerView, sample: State, misfit: float) -> float:
    """The chance :meth:`PlayerView.resample` keeps the sample's deal with (its ``_bury_fit``)."""
    deal, dealer, buried, up = sample.deal, sample.dealer, sample.discard, sample.up_card
    assert buried is not None and up is not None
    kept = (mask_of(deal.hands[dealer]) | 1 << up) & ~(1 << buried)
    return view._bury_fit(kept, [buried, *deal.stock], weakest_card, misfit)


def _pickups(rules: Rules, deals: int, seed: int) -> list[tuple[State, PlayerView]]:
    """Card plays of heuristic games by a seat other than the dealer, after the dealer picked up."""
    return [(state.copy(), view) for state, view in heuristic_views(rules, deals, random.Random(seed))
            if state.phase is Phase.PLAY and view.dealer_discarded and view.seat != state.dealer]


@pytest.mark.parametrize("preset", ["american", "british", "two-handed", "cut-throat"])
def test_the_discard_weight_is_the_heuristic_players_discard_replayed(preset: str) -> None:
    """On samples of real positions, the weight equals the slow replay's, and some samples fit
    the discard and some do not."""
    rules = Rules.preset(preset)
    rng = random.Random(3)
    weights = []
    for _, view in _pickups(rules, 30, 5)[::3]:
        for _ in range(4):
            sample = view.resample(rng)
            w = _fast_weight(view, sample, 0.05)
            assert w == pytest.approx(_slow_weight(sample, 0.05))
            weights.append(w)
    assert len(weights) > 20 and min(weights) < 0.5 < max(weights)


def test_kept_samples_bury_what_the_dealer_would_and_count_its_trumps_right() -> None:
    """Over heuristic games, the samples kept by the discard bury the heuristic player's choice
    far more often than plain samples, and the dealer holds as many trumps in them, on average,
    as in the real deals (plain samples hold fewer: a buried trump, a kept low card)."""
    positions = _pickups(AMERICAN, 60, 11)[::6]
    assert len(positions) > 60

    def trumps(cards: int, trump: int) -> int:
        return sum(1 for c in range(64) if cards >> c & 1 and effective_suit(c, trump) == trump)

    gaps: dict[float | None, list[float]] = {None: [], DISCARD_MISFIT: []}
    fits: dict[float | None, int] = {None: 0, DISCARD_MISFIT: 0}
    for state, view in positions:
        trump, dealer = state.trump, state.dealer
        assert trump is not None
        for misfit in gaps:
            rng = random.Random(1)
            total = 0
            for _ in range(40):
                sample = (view.resample(rng) if misfit is None else
                          view.resample(rng, bury=weakest_card, bury_misfit=misfit, redraws=DISCARD_DRAWS))
                total += trumps(sample.hands[dealer], trump)
                # (the dealer's hand admits a discard the heuristic player would have made)
                fits[misfit] += _fast_weight(view, sample, 1e-6) > 0.1
            gaps[misfit].append(trumps(state.hands[dealer], trump) - total / 40)
    plain, read = (sum(g) / len(g) for g in gaps.values())
    samples = 40 * len(positions)
    assert fits[None] < 0.75 * samples and fits[DISCARD_MISFIT] > 0.85 * samples
    assert plain > 0.15  # the plain sampler undercounts the dealer's trumps ...
    assert abs(read) < 0.5 * plain  # ... reading the discard takes most of it away


def test_the_discard_is_read_only_by_a_seat_that_does_not_know_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dealer knows its own discard, and nothing is read before the discard or with
    ``infer_discard`` null; every other seat's card play reads it (its deals drawn compiled,
    :class:`euchre.fastbid.PlayDrawer`, or in Python, ``PlayerView._bury_fit``). Not reading draws
    exactly the plain samples."""
    from euchre import fastbid

    calls: list[int] = []
    original = PlayerView._bury_fit

    def counted(self: PlayerView, *args: object) -> float:
        calls.append(self.seat or 0)
        return original(self, *args)  # type: ignore[arg-type]

    drawers: list[tuple[int | None, float]] = []  # (seat, the discard's misfit) of each compiled drawer
    made = fastbid.PlayDrawer.__init__

    def drawer(self: fastbid.PlayDrawer, view: PlayerView, seed: int, **kw: object) -> None:
        made(self, view, seed, **kw)  # type: ignore[arg-type]
        drawers.append((view.seat, self.bury_misfit))

    monkeypatch.setattr(PlayerView, "_bury_fit", counted)
    monkeypatch.setattr(fastbid.PlayDrawer, "__init__", drawer)
    for _, view in _pickups(AMERICAN, 20, 2)[:3]:
        calls.clear()
        drawers.clear()
        tiny(seed=1).evaluate(view)
        assert drawers == [(view.seat, DISCARD_MISFIT)] and set(calls) <= {view.seat}
        calls.clear()
        drawers.clear()
        tiny(seed=1, infer_discard=None).evaluate(view)
        assert not calls and drawers == [(view.seat, 1.0)]
        plain = view.resample(random.Random(4))
        unread = view.resample(random.Random(4), bury=weakest_card, bury_misfit=1.0)
        assert plain.deal == unread.deal and plain.discard == unread.discard
    dealer_plays = [v for s, v in heuristic_views(AMERICAN, 20, random.Random(2))
                    if s.phase is Phase.PLAY and v.dealer_discarded and v.seat == s.dealer]
    assert dealer_plays
    calls.clear()
    drawers.clear()
    tiny(seed=1).evaluate(dealer_plays[0])
    plain = dealer_plays[0].resample(random.Random(4))
    assert plain.deal == dealer_plays[0].resample(random.Random(4), bury=weakest_card, bury_misfit=0.01).deal
    assert not calls and drawers == [(dealer_plays[0].seat, 1.0)]



@pytest.mark.parametrize("value", [0, 1.5, True, "0.05"])
def test_a_bad_infer_discard_is_refused_up_front(value: object) -> None:
    with pytest.raises(ValueError, match="^infer_discard must be a number above 0 and at most 1"):
        SearchBot(seed=1, infer_discard=value)  # type: ignore[arg-type]
