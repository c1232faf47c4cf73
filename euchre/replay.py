"""A recorded game as a timeline of steps, for the replay viewers (the browser's and the terminal's).

:func:`build_timeline` walks a :class:`~euchre.game.Game` (as a record replays it: see
:func:`euchre.notation.loads`, :meth:`~euchre.notation.GameRecord.replay`) through the engine,
hand by hand and action by action, and writes down, after each step, everything a person looking
at the table with every card face up would see: each seat's cards, the up card and what became of
it, the dealer, trump, the maker and whether they went alone, the bids so far, the trick being
played and the finished ones with their winners, the tricks won and the score. One step starts
each hand (the deal) and one follows each action, so a game of ``A`` actions in ``H`` hands has
``A + H`` steps.

Every fact comes from the engine's own state and every sentence from :mod:`euchre.describe`
(``move_words``, ``hand_result_words``); the viewers only show the steps, so they cannot get a rule
wrong. A :class:`~euchre.analyze.Review` can be attached: each reviewed decision's mark, loss and
best choice then ride on the step of that decision.

The timeline is plain JSON data (:meth:`Timeline.to_dict`): cards are text (``"Jh"``, ``"Tc"``,
``"Jk"``), actions their text form (``"order alone"``, ``"play Jh"``), suits a letter, seats ints,
as in :func:`euchre.protocol.view_to_dict`.

>>> import random
>>> from euchre import Game, Rules
>>> game, rng = Game(Rules(target=None, deals=1), seed=3), random.Random(3)
>>> while not game.is_over:
...     _ = game.push(rng.choice(game.legal_actions()))
>>> t = build_timeline(game)
>>> len(t.steps) == len(game.actions()) + len(game.hands)
True
>>> t.steps[0]["kind"], sum(len(h) for h in t.steps[0]["hands"])
('deal', 20)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from euchre.actions import Action, Kind
from euchre.cards import trump_letter
from euchre.describe import (
    _conjugate,
    action_words,
    card_words,
    gift_words,
    hand_result_words,
    high_bid_words,
    joined,
    move_words,
    named_trump,
)
from euchre.errors import RulesError
from euchre.game import Game
from euchre.state import Phase, State
from euchre.view import PlayerView

if TYPE_CHECKING:
    from euchre.analyze import Decision, Review
    from euchre.notation import GameRecord

__all__ = ["Timeline", "build_timeline", "timeline_of_record", "analyze_for_replay", "default_names", "game_over_words",
           "REPLAY_SAMPLES", "REPLAY_BID_SAMPLES", "UP_CARD_WORDS", "REPLAYED_GAMES"]

REPLAYED_GAMES: tuple[str | None, ...] = (None, "Hasenpfeffer", "Bid Euchre", "double-deck Bid Euchre",
                                         "Napoleon")
"""The games a timeline is built of (:attr:`~euchre.rules.Rules.sister_game`; ``None`` is Euchre
itself); any other sister game is refused by name."""

REPLAY_SAMPLES = 8
"""Sampled deals per card decision when a replay is analysed (a small budget: a whole game in a
few seconds; ``euchre analyze`` defaults to 48 for a closer look)."""
REPLAY_BID_SAMPLES = 6
"""Sampled deals per bidding decision when a replay is analysed."""

UP_CARD_WORDS = {
    "face_up": "face up on the stock",
    "turned_down": "turned down",
    "left": "left in the stock",
    "taken": "in the dealer's hand",
    "buried": "buried by the dealer",
    "played": "played",
}
"""What became of the up card (``up_fate`` of a step), in words."""

_CALLS = (Kind.CALL, Kind.CALL_ALONE)


def default_names(players: int) -> list[str]:
    """``seat 0``, ``seat 1``, ...: the names of a record that gives none (as ``euchre replay``
    and ``euchre analyze`` say them)."""
    return [f"seat {s}" for s in range(players)]


@dataclass
class Timeline:
    """Every step of a game, with the facts of each hand for a hand picker."""

    players: list[str]
    """The seat names used in the words."""
    rules: dict[str, Any]
    """The game's rules (:meth:`euchre.rules.Rules.to_dict`)."""
    sides: list[list[int]]
    """The seats of each scoring side."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    """One per deal and one per action, in order (see :func:`build_timeline` for the keys)."""
    hands: list[dict[str, Any]] = field(default_factory=list)
    """Per hand: ``hand``, ``dealer``, ``first_step`` and ``last_step`` (indices into ``steps``),
    ``trump``, ``maker``, ``alone``, ``bid`` and ``forced_bid`` (Hasenpfeffer; ``None`` and false
    elsewhere), ``points`` (``None`` while in progress), ``result`` words."""
    initial_scores: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    """The score after the last step."""
    winners: list[int] = field(default_factory=list)
    """The winning sides, empty while the game is in progress."""
    summary: str = ""
    """:meth:`euchre.game.Game.summary`: ``"game over: 10 - 7, side 0 wins"``."""
    analyzed: bool = False
    """The steps of decisions carry a ``review`` (see :func:`build_timeline`)."""

    def hand_start(self, hand: int) -> int:
        """The index of the step that deals ``hand`` (0 = the first hand)."""
        return int(self.hands[hand]["first_step"])

    def to_dict(self) -> dict[str, Any]:
        """The timeline as plain JSON data."""
        return {
            "players": self.players, "rules": self.rules, "sides": self.sides, "hands": self.hands,
            "steps": self.steps, "initial_scores": self.initial_scores, "scores": self.scores,
            "winners": self.winners, "summary": self.summary, "analyzed": self.analyzed,
        }


# --- one step ----------------------------------------------------------------------------------------
def _up_fate(state: State) -> str | None:
    """What became of the up card so far (a key of :data:`UP_CARD_WORDS`), read off the state;
    ``None`` in a game without one (Hasenpfeffer)."""
    up = state.up_card
    if up is None:
        return None
    if state.up_card_taken:
        if state.discard == up:
            return "buried"
        if any(c == up for t in state.tricks for c in t.cards) or any(c == up for _, c in state.trick):
            return "played"
        return "taken"
    if state.phase in (Phase.BID1, Phase.TAKE, Phase.JOKER):
        return "face_up"
    if state.maker < 0 or any(a.kind in _CALLS for a in state.history):
        return "turned_down"
    return "left"  # ordered up, but not taken (the dealer sits out, or a two-handed dealer left it)


def _snapshot(state: State, scores: Sequence[int], bids: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Every fact of the hand now, every card face up (``bids``: the bids so far, with their words)."""
    rules = state.rules
    fate = _up_fate(state)
    return {
        "phase": state.phase.name.lower(),
        "phase_words": state.phase_words(),
        "to_act": state.to_act if state.to_act >= 0 else None,
        "dealer": state.dealer,
        "hands": [[str(c) for c in state.hand(s)] for s in range(rules.players)],
        "up_card": None if state.up_card is None else str(state.up_card),
        "up_fate": fate,
        "up_fate_words": None if fate is None else UP_CARD_WORDS[fate],
        "bid": state.bid,
        "bidder": state.bidder if state.bidder >= 0 else None,
        "forced_bid": state.forced_bid,
        "bid_words": high_bid_words(PlayerView.of(state, None)),
        "moon": rules.bid_euchre and state.moon,
        "gifts": [{"giver": g.giver, "receiver": g.receiver, "card": str(g.card), "chosen": not g.forced,
                   "discard": None if g.discard is None else str(g.discard)} for g in state.gifts],
        "discard": None if state.discard is None else str(state.discard),
        "trump": None if state.trump is None else trump_letter(state.trump),
        "trump_words": None if state.trump is None else joined([named_trump(state.trump, rules)]),
        "maker": state.maker if state.maker >= 0 else None,
        "alone": state.alone,
        "sitting_out": sorted(state.sitting_out),
        "lone_defender": state.lone_defender if state.lone_defender >= 0 else None,
        "bids": list(bids),
        "leader": state.leader if state.leader >= 0 else None,
        "trick": [{"seat": s, "card": str(c)} for s, c in state.trick],
        "tricks": [{"leader": t.leader, "plays": [{"seat": s, "card": str(c)} for s, c in t.plays],
                    "winner": t.winner} for t in state.tricks],
        "tricks_won": list(state.tricks_won),
        "hand_size": rules.hand_size,
        "points": None if state.points is None else list(state.points),
        "scores": list(scores),
    }


def _review_of(decision: Decision, before: State) -> dict[str, Any]:
    """A reviewed decision as a step shows it: the mark, the loss, the best choice and every
    option in words (from the deciding seat's chair)."""
    view = PlayerView.of(before, before.to_act)
    return {
        "mark": decision.mark, "loss": round(decision.loss, 3), "words": decision.words,
        "best": str(decision.best), "best_words": decision.best_words,
        "options": [{"action": str(e.action), "words": action_words(e.action, view), "points": round(e.points, 3)}
                    for e in decision.evaluations],
    }


def build_timeline(game: Game, *, players: Sequence[str] | None = None, review: Review | None = None) -> Timeline:
    """The timeline of ``game`` (finished or not); ``players`` names the seats in the words
    (default ``seat 0`` ...). With ``review`` (:func:`euchre.analyze.analyze_game` of the same
    game) each reviewed decision's step gets a ``review``.

    Each step is a dict: ``index``; ``hand`` (0 = first) and ``number`` (the action's index in
    the hand, ``None`` for the deal); ``kind`` (``deal``, ``bid``, ``discard`` or ``play``);
    ``seat`` and ``action`` (``None`` for the deal); ``choices`` (how many legal actions the seat
    had: 1 is no decision); ``words`` (the step in Euchre words: ``"West orders North to pick up
    the jack of hearts"``); ``result`` (how the hand ended, on its last step, else ``None``);
    ``game_over`` (the game's summary on the very last step of a finished game); and the table
    at that moment: ``phase``, ``phase_words``, ``to_act``, ``dealer``, ``hands`` (every seat's
    cards, face up), ``up_card``, ``up_fate`` and ``up_fate_words``, ``discard``, ``trump``,
    ``maker``, ``alone``, ``sitting_out``, ``lone_defender``, ``bids`` (seat, action and words, in
    order), ``leader``, ``trick``, ``tricks`` (finished, with ``winner``), ``tricks_won`` (per
    seat), ``hand_size``, ``points`` (the hand's, once over) and ``scores`` (the game's, per side).

    Hasenpfeffer (``rules.auction``): ``up_card``, ``up_fate`` and ``up_fate_words`` are ``None``
    (the card left over is never shown); ``bid`` and ``bidder`` are the high bid so far and its
    seat (0 and ``None`` before any), ``forced_bid`` says all passed and the Joker's holder was made
    to bid, which the step of the last pass says in its words and ``bids`` as an entry whose
    ``action`` is ``None``.

    ``bid_words`` (every step, and each hand) is the high bid so far in the engine's words
    (``"3 tricks"``, ``"the moon"``, ``"Nap"``, ``"misère"``; ``""`` before any and in Euchre).

    Napoleon (``rules.napoleon``): three to seven ``hands`` of five cards (the unused rest of the
    pack is no part of the replay); ``phase`` ``lead`` is the bidder's first lead, whose suit is
    ``trump`` from the next step on (misère: ``"n"``, no trump, at once); ``sides`` are the seats
    one each, and ``points`` and ``scores`` one per player (zero-sum, often negative).

    Bid Euchre (``rules.bid_euchre``): no up card either; ``moon`` says the high bid is the moon
    (``bid`` is then the hand's tricks plus one); ``trump_words`` names trump in the game's words
    (``"high"``, ``"low"``, ``"hearts"``). ``gifts`` (every step) are the cards given so far, face up
    as everything is here: call for best's and the moon's, with ``chosen`` (the giver picked it)
    and the receiver's ``discard``; a gift the engine made (the highest trump) is said in the
    words of the step that caused it and is an entry of ``bids`` whose ``action`` is ``None``.
    """
    rules = game.rules
    if rules.sister_game not in REPLAYED_GAMES:  # a sister game not replayed yet (Napoleon)
        rules.refuse_six_cards("the replay viewer")  # the engine's reason, in its words
        raise RulesError(f"the replay viewer does not replay {rules.sister_game} yet")
    names = list(players) if players else default_names(rules.players)
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} names are needed, got {len(names)}")
    reviewed = {(d.hand, d.number): d for d in review.decisions} if review is not None else {}
    t = Timeline(players=names, rules=rules.to_dict(),
                 sides=[list(seats) for seats in rules.side_seats],
                 initial_scores=list(game.initial_scores), analyzed=review is not None)
    running = list(game.initial_scores)
    last_hand = len(game.hands) - 1
    for hi, played in enumerate(game.hands):
        state = State.from_deal(rules, played.deal)
        first = len(t.steps)
        bids: list[dict[str, Any]] = []
        deal_words = f"Hand {hi + 1}, dealt by {names[state.dealer]}: "
        if state.up_card is not None:
            deal_words += f"the up card is {card_words(state.up_card, None)}"
        elif rules.auction:  # Hasenpfeffer: no up card, and the card left over stays face down (never shown)
            deal_words += f"{rules.hand_size} cards each, one left over face down"
        elif rules.napoleon:  # the rest of the pack is unused and never shown
            unused = rules.deck - rules.players * rules.hand_size
            deal_words += f"{rules.hand_size} cards each, {unused} unused face down"
        else:  # Bid Euchre deals every card
            deal_words += f"{rules.hand_size} cards each, every card dealt"
        t.steps.append({"index": first, "hand": hi, "number": None, "kind": "deal", "seat": None, "action": None,
                        "choices": None, "words": deal_words, "result": None, "game_over": None, "review": None,
                        **_snapshot(state, running, bids)})
        for ai, action in enumerate(played.history):
            seat = state.to_act
            choices = len(state.legal_actions())
            decision = reviewed.get((hi, ai))
            review_d = _review_of(decision, state) if decision is not None else None
            forced = state.forced_bid
            gifts = len(state.gifts)
            state.push(action)
            view = PlayerView.of(state, seat)  # the acting seat's view: its own discard is known
            result = None
            if state.is_over:
                assert state.points is not None
                running = [a + b for a, b in zip(running, state.points, strict=True)]
                result = hand_result_words(PlayerView.of(state, None), names)
            # the action is the last of the seat's own view (a view leaves out a gift that another
            # seat chose, and an offer's "keep", so its index need not be ``ai``)
            words = move_words(view, len(view.actions) - 1, names)
            if action.is_bid or action.kind is Kind.GIVE:  # the bids, and a gift the giver chose
                bids.append({"seat": seat, "action": str(action), "words": words})
            if state.forced_bid and not forced:  # Hasenpfeffer: all passed, the Joker's holder bids
                holder = names[state.bidder]
                forced_words = (f"everyone passed, so {holder}, who holds the Joker, must bid "
                                f"{state.bid} tricks")
                words = f"{words}; {forced_words}"
                bids.append({"seat": state.bidder, "action": None, "words": forced_words})
            if len(state.gifts) > gifts and state.gifts[-1].forced:
                # the engine gave the partner's highest trump (call for best, Bid Euchre's moon):
                # no action of its own, so the step that caused it says it, as the receiver knows it
                receiver = PlayerView.of(state, state.gifts[-1].receiver)
                gift_said = gift_words(receiver, len(receiver.gifts) - 1, names)
                words = f"{words}; {gift_said}"
                bids.append({"seat": state.gifts[-1].giver, "action": None, "words": gift_said})
            over = game_over_words(game, names) if state.is_over and hi == last_hand and game.is_over else None
            t.steps.append({"index": len(t.steps), "hand": hi, "number": ai, "kind": _kind(action),
                            "seat": seat, "action": str(action), "choices": choices,
                            "words": words, "result": result, "game_over": over,
                            "review": review_d, **_snapshot(state, running, bids)})
        t.hands.append({"hand": hi, "dealer": state.dealer, "first_step": first, "last_step": len(t.steps) - 1,
                        "trump": None if state.trump is None else trump_letter(state.trump),
                        "maker": state.maker if state.maker >= 0 else None, "alone": state.alone,
                        "bid": state.bid or None, "forced_bid": state.forced_bid,
                        "bid_words": high_bid_words(PlayerView.of(state, None)),
                        "moon": rules.bid_euchre and state.moon,
                        "points": None if state.points is None else list(state.points),
                        "result": t.steps[-1]["result"]})
    t.scores = running
    t.winners = list(game.winners)
    t.summary = game_over_words(game, names)
    return t


def game_over_words(game: Game, names: Sequence[str]) -> str:
    """:meth:`Game.summary` in the players' names: ``"game over: 10 – 7, Ann & Cy win"``."""
    if not game.is_over:
        return game.summary()
    rules = game.rules
    score = " – ".join(str(s) for s in game.scores)

    def side(s: int) -> str:
        return " & ".join(names[seat] for seat in rules.seats_of(s))

    winners = list(game.winners)
    if len(winners) == 1:
        who = side(winners[0])
        return f"game over: {score}, {who} {_conjugate(who, 'win', plural=len(rules.seats_of(winners[0])) > 1)}"
    return f"game over: {score}, tied between {' and '.join(side(w) for w in winners)}"


def _kind(action: Action) -> str:
    if action.kind is Kind.PLAY:
        return "play"
    if action.kind is Kind.DISCARD:
        return "discard"
    return "bid"


# --- from a record --------------------------------------------------------------------------------------
def analyze_for_replay(game: Game, players: Sequence[str] | None = None, *, samples: int = REPLAY_SAMPLES,
                       bid_samples: int = REPLAY_BID_SAMPLES, seed: int = 0, jobs: int = 1) -> Review:
    """:func:`euchre.analyze.analyze_game` at the replay's small budget (the same record gives the
    same marks every time, with any number of ``jobs``)."""
    from euchre.analyze import analyze_game

    return analyze_game(game, players=list(players) if players else None, samples=samples,
                        bid_samples=bid_samples, seed=seed, jobs=jobs)


def timeline_of_record(record: GameRecord, *, analyze: bool = False, samples: int = REPLAY_SAMPLES,
                       bid_samples: int = REPLAY_BID_SAMPLES, seed: int = 0, jobs: int = 1) -> Timeline:
    """Replay a record (raising :class:`~euchre.errors.RecordError` where it is wrong) and build
    its timeline, with the seat names of the record; ``analyze`` attaches the review of every
    decision at the given budget, worked out on ``jobs`` processes."""
    game = record.replay()
    names = record.players if len(record.players) == game.rules.players else None
    review = (analyze_for_replay(game, names, samples=samples, bid_samples=bid_samples, seed=seed, jobs=jobs)
              if analyze else None)
    return build_timeline(game, players=names, review=review)
