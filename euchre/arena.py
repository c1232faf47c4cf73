"""Duplicate play between two bots, with statistics that account for the pairing.

Two bots ``A`` and ``B`` play whole games (to the target score, the clock, or the number of
deals of the :class:`~euchre.rules.Rules`) in **duplicate**: every game seed is played once per
*seating*, with ``A`` holding different seats each time and ``B`` all the others.

=========  ==================================================================
players    seatings (the seats ``A`` holds; ``B`` holds the rest)
=========  ==================================================================
4          ``(0, 2)`` then ``(1, 3)``: A is each partnership once
2          ``(0,)`` then ``(1,)``
3          ``(0,)``, ``(1,)``, ``(2,)``: cut-throat has three sides, so A takes
           each seat once against two copies of B
=========  ==================================================================

A :class:`~euchre.game.Game` deals hand ``i`` of a seed identically whatever is played, so the
games of one *pair* (three games in cut-throat; "pair" is kept as the name of the unit) see the
same cards hand for hand, for as long as both last; the luck of the cards largely cancels in the
pair and what remains is the difference in play. Bots are built fresh for every game by
:func:`~euchre.bots.make_bot`, each seeded from the game seed and its **seat** (not from which
bot it is), so a bot playing itself plays every game of a pair move for move alike, and its
margin is exactly zero.

Scoring. A bot's points per hand is the points its sides scored divided by the hands it sat at
times the sides it held (B holds two sides in cut-throat, so its figure is per seat). The
**margin** is A's points per hand minus B's: with four and two players that is A's side minus the
other side; in cut-throat it is A's points minus the *mean* of the two other sides, as in
``bench/bots.py``, so that equal bots have margin 0 although B holds two seats.

Intervals. Games of a pair are not independent (same cards), games of different pairs are: the
pair is the sampling unit. The margin is a ratio of sums over pairs, ``R = sum X_j / sum Y_j``
(``X_j`` A's points minus B's per side over the pair's games, ``Y_j`` the hands of the pair's
games), and games have varying lengths, so a plain mean of per-hand figures would weigh short
games wrongly. Its standard error is the delta-method (linearisation) one of a ratio estimator,
``sqrt(sum (X_j - R Y_j)^2 / (n (n - 1))) / mean(Y)``, and the interval is ``R +- t * se`` with
Student's ``t`` on ``n - 1`` degrees of freedom. We chose it over a bootstrap because it is closed
form, needs no random resampling (the result is a pure function of the games) and is as accurate
as a bootstrap once there are a few dozen pairs; with very few pairs both are rough, and the
``t`` quantile at least widens the interval accordingly.

Games won. A game is won by A, won by B (any of B's seats in cut-throat), or shared (only with
``tie_break=False``; each winner gets an equal part). A pair's *win score* is A's share of its
games: with two seatings 1 (A won both), 0 (B won both) or 1/2 (split). A split says only that
the cards decided; a sweep is where the bots differ, and the mean of the pair scores counts both
exactly as they are. Its interval is the ``t`` interval over pairs after adding two pseudo-pairs
won by A and two won by B (the Agresti-Coull device), so that a short run in which every pair
went the same way gets an honest width rather than ``[1, 1]``; it is clipped to ``[0, 1]``. An
even match has win share 1/2, and 1/3 in cut-throat (A holds one side of three).

Matches. Under match rules (``match_games`` or ``match_wins``, RULES-FAMILY.md 12.5) the seed of
a pair is a *match* seed: a :class:`~euchre.match.Match` of that seed is played to its end once per
seating, each of its games as above (fresh bots seeded by that game's seed and the seat), so a
pair is two (three) matches that are dealt alike game for game and hand for hand for as long as
they run alike. Every game of them enters the per-hand and per-game figures (the points of a
game are those scored in its hands: a laps start is not counted twice). A pair's *match score*
is A's share of its matches (1, 1/2 or 0 with two seatings), and the match win share with its
interval is computed from those pair scores exactly as the win share is from the games
(:class:`MatchStats`, :attr:`ArenaResult.match`); a bot against itself plays its matches of a
pair alike with the roles swapped, so its match share is exactly even. ``deals`` still sizes the
run in hands per seating.

Work is split by pair index over ``jobs`` processes, or over the workers of a Ray cluster
(``ray_address``, the ``ray`` extra); a run keeps starting pairs until at least ``deals`` hands
have been played in every seating, and that stopping point is decided on the pairs in index order
(a worker's pairs are taken only once every pair before them has been), so the result for a seed
depends neither on ``jobs`` nor on the backend. Workers build the bots by name, as above.

Sequential testing (:class:`Sprt`, ``euchre arena --sprt``). Instead of a fixed size, a run can stop
as soon as a sequential probability ratio test decides between two hypotheses about A's advantage,
as Stockfish's fishtest does: after every pair, in index order, the log-likelihood ratio (LLR) of
H1 against H0 is compared with Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``; below the lower bound H0 is accepted (a difference of H1 is ruled
out), above the upper one H1 is (a difference beyond H0 is established), ``deals`` being the most
it may play. Two tests, each on the pair, the independent unit:

- ``unit="margin"``: H0 and H1 are margins in points per hand. The pair margins are sums of many
  hands, nearly normal, and the margin is the ratio estimator above, so the LLR is the normal
  approximation of the generalised SPRT (fishtest's ``LLR_alt2``) on it:
  ``(H1 - H0) (2 R - H0 - H1) / (2 se^2)``, ``se`` the delta-method standard error, whose
  standard deviation per pair is floored at 0.001 points per hand so that the LLR stays finite
  when every pair came out exactly alike (a bot against itself).
- ``unit="elo"``: H0 and H1 are logistic Elo of the games won (two sides only). A pair's win score
  is one of a few values (0, 1/2, 1), so, as fishtest's pentanomial model does for its game pairs,
  the LLR is the generalised SPRT of the multinomial of pair scores, each hypothesis's
  distribution the maximum-likelihood one with the mean score the Elo gives (Van den Bergh's
  method, with fishtest's 0.001 pseudo-count in every category).

Neither test may stop before ``min_pairs`` pairs (default 20), so that the spread they estimate
from the pairs is not wildly off.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import math
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult
from typing import Any, Literal

from euchre.errors import EuchreError
from euchre.game import Game
from euchre.pool import ARENA_JOB_MEMORY, default_jobs, process_pool
from euchre.rules import SIDE_SEATS, Rules

__all__ = [
    "ArenaResult", "ArenaStatus", "BackendError", "BotError", "BotStats", "GameResult", "MakerCounts", "MatchResult",
    "MatchStats", "PairResult", "Progress", "SIMULATED_HAND_SECONDS", "SPRT_MIN_PAIRS", "Sprt", "SprtResult",
    "bot_seed", "check_bot", "elo_share", "pair_seed", "play_game", "play_match", "play_pair", "run_arena",
    "seatings", "share_ci", "t95",
]

SIMULATED_HAND_SECONDS = 150.0
"""Timed games run on a simulated clock that advances this much per reading (one per hand), as
``euchre simulate`` does: a 30-minute game is 12 hands."""

MAX_ACTIONS = 100_000
"""A game longer than this many actions is taken to be a bot that never ends it."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: hands played so far in the least advanced seating
(capped at ``total``) and the hands per seating the run needs."""

_Z95 = statistics.NormalDist().inv_cdf(0.975)
_T95_SMALL = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305, 4: 2.776445105}


class BotError(EuchreError):
    """A bot raised, or answered with an action the rules do not allow; the message names the
    bot, its seat, the game seed and the hand."""


class BackendError(EuchreError, RuntimeError):
    """The Ray backend cannot be used: Ray is not installed (the ``ray`` extra), or the cluster
    cannot be reached."""


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (the 95% two-sided
    multiplier): exact to 9 digits for ``df <= 4``, the Cornish-Fisher expansion beyond (error
    below 1e-4)."""
    if df < 1:
        raise ValueError("t95 needs at least one degree of freedom")
    if df in _T95_SMALL:
        return _T95_SMALL[df]
    z, v = _Z95, float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def seatings(players: int | Rules) -> list[tuple[int, ...]]:
    """The seats bot A holds in each game of a pair, a side at a time (B holds the others): given
    the rules, their sides (Napoleon's players each for themselves, four included), else the
    sides of that many players in Euchre."""
    if isinstance(players, Rules):
        return list(players.side_seats)
    if players not in SIDE_SEATS:
        raise ValueError(f"players must be 2, 3 or 4, got {players}")
    return list(SIDE_SEATS[players])


def pair_seed(seed: int, index: int) -> int:
    """The game seed of pair ``index`` of a run seeded ``seed``."""
    return random.Random(f"arena/{seed}/{index}").randrange(2**62)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game seeded ``game_seed`` (the same whichever bot
    sits there, which is what makes a bot's duplicate match against itself exactly even)."""
    return random.Random(f"arena-bot/{game_seed}/{seat}").randrange(2**62)


def _simulated_clock() -> Callable[[], float]:
    t = [0.0]

    def clock() -> float:
        v = t[0]
        t[0] += SIMULATED_HAND_SECONDS
        return v

    return clock


# --- per-game facts ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MakerCounts:
    """One bot's record as the makers' side, summed over hands (and games)."""

    side_hands: int = 0
    """Hands dealt times the sides the bot held (thrown-in hands included)."""
    maker_hands: int = 0
    """Hands in which one of its sides named trump (the auction games: won the bid)."""
    made: int = 0
    """... and made it (:attr:`HandResult.made <euchre.results.HandResult.made>`: three tricks or
    more in Euchre, the bid in the auction games)."""
    marches: int = 0
    """... and took every trick."""
    euchred: int = 0
    """... and did not make it (euchred; set on the bid)."""
    loners: int = 0
    """Hands it made alone (four players only; Bid Euchre's moons)."""
    loners_made: int = 0
    """Lone hands that made it."""
    loner_marches: int = 0
    """Lone hands that took every trick."""

    def __add__(self, other: MakerCounts) -> MakerCounts:
        return MakerCounts(*(getattr(self, f) + getattr(other, f) for f in self.__slots__))

    def to_dict(self) -> dict[str, Any]:
        """The counts with the rates derived from them (a rate with no hands to count is 0)."""
        def rate(num: int, den: int) -> float:
            return num / den if den else 0.0

        return {
            "side_hands": self.side_hands, "maker_hands": self.maker_hands,
            "bid_rate": rate(self.maker_hands, self.side_hands),
            "made": self.made, "make_rate": rate(self.made, self.maker_hands),
            "euchred": self.euchred, "euchred_rate": rate(self.euchred, self.maker_hands),
            "marches": self.marches, "march_rate": rate(self.marches, self.maker_hands),
            "loners": self.loners, "loner_rate": rate(self.loners, self.maker_hands),
            "loners_made": self.loners_made, "loner_success_rate": rate(self.loners_made, self.loners),
            "loner_marches": self.loner_marches,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a pair, from the two bots' points of view."""

    seating: int
    """Index into :func:`seatings`: which seats A held."""
    hands: int
    """Hands dealt (thrown-in hands included)."""
    thrown_in: int
    a_points: int
    """Points of A's side."""
    b_points: int
    """Points of B's sides together (two sides in cut-throat)."""
    b_sides: int
    """How many sides B held (1, or 2 in cut-throat)."""
    a_credit: float
    """A's share of the win: 1 (A won), 0 (B won), a fraction for a shared first place."""
    a_makers: MakerCounts
    b_makers: MakerCounts


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of a pair (match rules only), from the two bots' points of view."""

    seating: int
    """Index into :func:`seatings`: which seats A held."""
    games: int
    """Games the match took."""
    a_wins: int
    """Game wins of A's side (a slam counting two)."""
    b_wins: int
    """Game wins of B's sides together."""
    a_credit: float
    """1.0 if A's side took the match, 0.0 if one of B's did."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """The games of one seed, one game (or, under match rules, one match) per seating: the
    independent unit of the statistics."""

    index: int
    seed: int
    """The game seed, or under match rules the match seed (from which the match seeds its games)."""
    games: tuple[GameResult, ...]
    """Every game, by seating and within a seating in the order played."""
    matches: tuple[MatchResult, ...] = ()
    """One per seating under match rules; empty otherwise."""

    @property
    def hands(self) -> int:
        """Hands dealt over the pair's games (``Y_j`` of the ratio estimator)."""
        return sum(g.hands for g in self.games)

    @property
    def margin_points(self) -> float:
        """A's points minus B's points per side, over the pair's games (``X_j``)."""
        return sum(g.a_points - g.b_points / g.b_sides for g in self.games)

    @property
    def win_score(self) -> float:
        """A's share of the pair's games won."""
        return sum(g.a_credit for g in self.games) / len(self.games)

    @property
    def match_score(self) -> float:
        """A's share of the pair's matches won (match rules only; 0 without matches)."""
        return sum(m.a_credit for m in self.matches) / len(self.matches) if self.matches else 0.0


def check_bot(name: str) -> None:
    """Build (and close) one bot of ``name``, so that an unknown name raises ``ValueError``, listing
    the known bots, before any game is played."""
    from euchre.bots import make_bot

    bot = make_bot(name, seed=0)
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def play_game(a: str, b: str, rules: Rules, game_seed: int, a_seats: Sequence[int],
              seating: int = 0) -> GameResult:
    """Play one game to its end with bot ``a`` in ``a_seats`` and ``b`` in the other seats.

    Bots are built fresh for the game, seeded by :func:`bot_seed`, and shown only
    ``game.view(seat)``; a bot with a ``close()`` method (an external program) is closed after
    the game. Raises :class:`BotError` when a bot fails or plays an illegal action.
    """
    game = Game(rules, seed=game_seed, clock=_simulated_clock())
    _play_out(game, _names(a, b, rules, a_seats))
    return _game_result(game, a_seats, seating)


def play_match(a: str, b: str, rules: Rules, match_seed: int, a_seats: Sequence[int],
               seating: int = 0) -> tuple[tuple[GameResult, ...], MatchResult]:
    """Play one :class:`~euchre.match.Match` (``rules`` set ``match_games`` or ``match_wins``) to
    its end with bot ``a`` in ``a_seats`` and ``b`` in the other seats: its games, in order, and
    the match's outcome.

    Every game of the match is played as :func:`play_game` plays one (fresh bots, seeded by
    :func:`bot_seed` from that game's seed, which the match derives from ``match_seed``); the
    match carries the deal, the laps and the game wins from one game to the next.
    """
    from euchre.match import Match

    names = _names(a, b, rules, a_seats)
    match = Match(rules, seed=match_seed)
    games: list[GameResult] = []
    while True:
        game = match.game
        _play_out(game, names, f"match seed {match_seed}, game {len(match.games)}, ")
        games.append(_game_result(game, a_seats, seating))
        if not match.settle():
            break
    assert match.winner is not None
    a_sides = {rules.side_of(s) for s in a_seats}
    return tuple(games), MatchResult(
        seating=seating,
        games=len(games),
        a_wins=sum(w for side, w in enumerate(match.wins) if side in a_sides),
        b_wins=sum(w for side, w in enumerate(match.wins) if side not in a_sides),
        a_credit=1.0 if match.winner in a_sides else 0.0,
    )


def _names(a: str, b: str, rules: Rules, a_seats: Sequence[int]) -> list[str]:
    return [a if s in a_seats else b for s in range(rules.players)]


def _play_out(game: Game, names: list[str], where: str = "") -> None:
    """Bots named ``names`` (one per seat, built fresh and seeded by seat) play ``game`` to its end."""
    from euchre.bots import make_bot

    bots = [make_bot(names[s], seed=bot_seed(game.seed, s)) for s in range(len(names))]
    try:
        for _ in range(MAX_ACTIONS):
            if game.is_over:
                break
            seat = game.to_act
            try:
                action = bots[seat].choose(game.view(seat))
            except Exception as e:
                raise BotError(f"{_where(names, seat, game, where)} failed: {type(e).__name__}: {e}") from e
            try:
                game.push(action)
            except (ValueError, TypeError) as e:
                raise BotError(f"{_where(names, seat, game, where)} answered {action!r}, "
                               f"which is not legal: {e}") from e
        else:
            raise BotError(f"{where}game seed {game.seed} did not end within {MAX_ACTIONS} actions ({names})")
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()


def _game_result(game: Game, a_seats: Sequence[int], seating: int) -> GameResult:
    """What the arena keeps of a finished game. Points are those scored in the game's hands: a
    game of a match that started above 0 (laps) does not count its starting score again."""
    rules = game.rules
    a_sides = {rules.side_of(s) for s in a_seats}
    counts = {True: MakerCounts(), False: MakerCounts()}
    n_sides = {True: len(a_sides), False: rules.sides - len(a_sides)}
    thrown = 0
    for h in game.hands:
        if h.misdealt:  # a cancelled deal is not a hand
            continue
        for is_a in (True, False):
            counts[is_a] += MakerCounts(side_hands=n_sides[is_a])
        r = h.result()
        assert r is not None
        if r.thrown_in:
            thrown += 1
            continue
        ms = r.maker_side
        assert ms is not None
        made, march = r.made, r.march
        counts[ms in a_sides] += MakerCounts(
            maker_hands=1, made=int(made), marches=int(march), euchred=int(not made), loners=int(h.alone),
            loners_made=int(h.alone and made), loner_marches=int(h.alone and march))
    winners = game.winners
    scored = [end - start for end, start in zip(game.scores, game.initial_scores, strict=True)]
    return GameResult(
        seating=seating,
        hands=len(game.hands),
        thrown_in=thrown,
        a_points=sum(scored[s] for s in a_sides),
        b_points=sum(p for s, p in enumerate(scored) if s not in a_sides),
        b_sides=n_sides[False],
        a_credit=sum(1 for w in winners if w in a_sides) / len(winners),
        a_makers=counts[True],
        b_makers=counts[False],
    )


def _where(names: list[str], seat: int, game: Game, where: str = "") -> str:
    return f"bot {names[seat]!r} at seat {seat}, {where}game seed {game.seed}, hand {game.hand_number + 1}"


def play_pair(a: str, b: str, rules: Rules, seed: int, index: int) -> PairResult:
    """Pair ``index`` of a run seeded ``seed``: its seed played once per seating, as one game
    each, or as one match each under match rules."""
    gs = pair_seed(seed, index)
    if not rules.is_match:
        games = tuple(play_game(a, b, rules, gs, seats, k) for k, seats in enumerate(seatings(rules)))
        return PairResult(index=index, seed=gs, games=games)
    played = [play_match(a, b, rules, gs, seats, k) for k, seats in enumerate(seatings(rules))]
    return PairResult(index=index, seed=gs, games=tuple(g for games, _ in played for g in games),
                      matches=tuple(m for _, m in played))


def _play_chunk(task: tuple[str, str, Rules, int, int, int]) -> list[PairResult]:
    a, b, rules, seed, lo, hi = task
    return [play_pair(a, b, rules, seed, i) for i in range(lo, hi)]


# --- the result ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's totals over a run."""

    name: str
    points: int
    """Points its sides scored, all games together."""
    side_hands: int
    """Hands it sat at times the sides it held (the denominator of ``points_per_hand``)."""
    games_won: int
    """Games that only its seats won (a first place shared with the other bot is counted apart)."""
    makers: MakerCounts

    @property
    def points_per_hand(self) -> float:
        """Points per hand and per side held."""
        return self.points / self.side_hands if self.side_hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the name, points, games won and the maker's record with its rates."""
        return {"name": self.name, "points": self.points, "points_per_hand": self.points_per_hand,
                "games_won": self.games_won, **self.makers.to_dict()}


def share_ci(scores: Sequence[float]) -> tuple[float, float]:
    """95% interval of the mean of per-pair shares in [0, 1]: ``t`` over ``scores`` plus two
    pseudo-pairs scoring 1 and two scoring 0 (the Agresti-Coull device), clipped to [0, 1]."""
    padded = [*scores, 1.0, 1.0, 0.0, 0.0]
    n = len(padded)
    m = statistics.fmean(padded)
    half = t95(n - 1) * statistics.stdev(padded) / math.sqrt(n)
    return (max(0.0, m - half), min(1.0, m + half))


@dataclass(frozen=True, slots=True)
class MatchStats:
    """The matches of a run under match rules (:attr:`ArenaResult.match`).

    A pair is one match seed played once per seating; its *match score* is A's share of those
    matches (with two seatings 1, 1/2 or 0). :attr:`share` is the mean of the pair scores and
    :attr:`share_ci` its interval over pairs (:func:`share_ci`), as for the games won.
    """

    pairs: int
    """Match pairs played (each seed once per seating)."""
    matches: int
    """Matches played (pairs times seatings)."""
    games: int
    """Games over all matches."""
    a_won: int
    """Matches A's side took."""
    b_won: int
    """Matches one of B's sides took."""
    a_game_wins: int
    """Game wins of A's side, summed over matches (a slam counting two)."""
    b_game_wins: int
    """Game wins of B's sides, summed over matches."""
    share: float
    """A's match win share: the mean of the pair match scores."""
    share_ci: tuple[float, float]
    """95% interval of :attr:`share`, over pairs."""
    even_share: float
    """The match share of an even contest: 1/2, or 1/3 in cut-throat."""
    pairs_swept_by_a: int
    """Pairs whose every match A took."""
    pairs_swept_by_b: int
    """Pairs whose every match B took."""

    @property
    def pairs_mixed(self) -> int:
        """Pairs neither bot swept."""
        return self.pairs - self.pairs_swept_by_a - self.pairs_swept_by_b

    @property
    def games_per_match(self) -> float:
        """Average games per match."""
        return self.games / self.matches if self.matches else 0.0

    @classmethod
    def from_pairs(cls, pairs: Sequence[PairResult], sides: int) -> MatchStats:
        """Sum the matches of ``pairs`` (played under rules with ``sides`` sides)."""
        matches = [m for p in pairs for m in p.matches]
        scores = [p.match_score for p in pairs]
        a_won = sum(1 for m in matches if m.a_credit == 1.0)
        return cls(
            pairs=len(pairs), matches=len(matches), games=sum(m.games for m in matches),
            a_won=a_won, b_won=len(matches) - a_won,
            a_game_wins=sum(m.a_wins for m in matches), b_game_wins=sum(m.b_wins for m in matches),
            share=statistics.fmean(scores) if scores else 0.0, share_ci=share_ci(scores), even_share=1 / sides,
            pairs_swept_by_a=sum(1 for x in scores if x == 1.0), pairs_swept_by_b=sum(1 for x in scores if x == 0.0),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the ``match`` object of ``euchre arena --json``)."""
        return {
            "pairs": self.pairs, "matches": self.matches, "games": self.games,
            "games_per_match": self.games_per_match,
            "a_won": self.a_won, "b_won": self.b_won,
            "a_game_wins": self.a_game_wins, "b_game_wins": self.b_game_wins,
            "share": self.share, "share_ci95": list(self.share_ci), "even_share": self.even_share,
            "pairs_swept_by_a": self.pairs_swept_by_a, "pairs_swept_by_b": self.pairs_swept_by_b,
            "pairs_mixed": self.pairs_mixed,
        }


# --- sequential testing --------------------------------------------------------------------------
SPRT_MIN_PAIRS = 20
"""Pairs a sequential test plays before it may stop (its spread is estimated from the pairs)."""

_SPRT_SD_FLOOR = 1e-3
"""Least standard deviation per pair, in points per hand, the margin test assumes."""

_SPRT_PSEUDO_COUNT = 1e-3
"""Added to the count of every pair score by the Elo test (as fishtest does), so that a score
never seen still has a probability and the constrained maximum likelihood exists."""

SprtUnit = Literal["margin", "elo"]
"""``"margin"`` (points per hand) or ``"elo"`` (logistic Elo of the games won)."""


def elo_share(elo: float) -> float:
    """The expected game score of a side ``elo`` logistic Elo stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test of H0 (A's advantage is ``h0``) against H1 (it is
    ``h1``), with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0
    when H1 holds). ``unit`` is ``"margin"`` (points per hand: the normal approximation on pair
    margins) or ``"elo"`` (logistic Elo of the games won: the multinomial of pair win scores); see
    the module docstring. The test is checked after every pair, in index order, from the
    ``min_pairs``-th on."""

    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05
    unit: SprtUnit = "margin"
    min_pairs: int = SPRT_MIN_PAIRS

    def __post_init__(self) -> None:
        if self.unit not in ("margin", "elo"):
            raise ValueError(f"an SPRT's unit is 'margin' or 'elo', got {self.unit!r}")
        if not (math.isfinite(self.h0) and math.isfinite(self.h1)) or self.h0 >= self.h1:
            raise ValueError(f"an SPRT needs H0 below H1, got H0 {self.h0!r} and H1 {self.h1!r}")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0 < v < 0.5:
                raise ValueError(f"an SPRT's {name} is a probability between 0 and 0.5, got {v!r}")
        if self.unit == "elo" and not -1000 <= self.h0 < self.h1 <= 1000:
            raise ValueError(f"an Elo test's H0 and H1 are from -1000 to 1000, got {self.h0!r} and {self.h1!r}")
        if isinstance(self.min_pairs, bool) or not isinstance(self.min_pairs, int) or self.min_pairs < 2:
            raise ValueError(f"an SPRT's min_pairs must be at least 2, got {self.min_pairs!r}")

    @property
    def lower(self) -> float:
        """Wald's lower bound, ``log(beta / (1 - alpha))``: at or below it H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound, ``log((1 - beta) / alpha)``: at or above it H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, llr: float | None, pairs: int) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (go on) for the LLR after ``pairs`` pairs."""
        if llr is None or pairs < self.min_pairs:
            return None
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


@dataclass(frozen=True, slots=True)
class SprtResult:
    """How a sequential test ended (:attr:`ArenaResult.sprt`)."""

    test: Sprt
    llr: float | None
    """The log-likelihood ratio after the last pair (``None`` below two pairs for the margin)."""
    decision: str | None
    """``"H1"`` (a difference beyond H0 is established), ``"H0"`` (a difference of H1 is ruled
    out) or ``None`` (``deals`` was reached first: inconclusive)."""
    pairs: int
    """Pairs played when the test stopped the run (or the run ended)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the ``sprt`` object of ``euchre arena --json``)."""
        t = self.test
        return {
            "unit": t.unit, "h0": t.h0, "h1": t.h1, "alpha": t.alpha, "beta": t.beta,
            **({"h0_share": elo_share(t.h0), "h1_share": elo_share(t.h1)} if t.unit == "elo" else {}),
            "min_pairs": t.min_pairs, "llr": self.llr, "lower": t.lower, "upper": t.upper,
            "decision": self.decision, "pairs": self.pairs,
        }


def _mle_at(scores: Sequence[float], p: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``scores`` of greatest likelihood for the frequencies ``p`` (all
    positive) among those whose mean is ``mean``: ``p_k / (1 + theta (a_k - mean))``, ``theta``
    found by bisection."""
    d = [a - mean for a in scores]
    lo, hi = -1 / max(d), -1 / min(d)  # the bracket where every 1 + theta d_k is positive

    def slope(theta: float) -> float:  # decreasing from +inf at lo to -inf at hi
        return sum(pk * dk / (1 + theta * dk) for pk, dk in zip(p, d, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2
    return [pk / (1 + theta * dk) for pk, dk in zip(p, d, strict=True)]


def _multinomial_llr(counts: Mapping[float, int], s0: float, s1: float) -> float | None:
    """The generalised SPRT's LLR of mean score ``s1`` against ``s0`` for pair scores counted in
    ``counts`` (score -> pairs), over the scores 0, 1/2, 1 and any other seen."""
    if not counts:
        return None
    scores = sorted({0.0, 0.5, 1.0, *counts})
    c = [counts.get(a, 0) + _SPRT_PSEUDO_COUNT for a in scores]
    n = sum(c)
    p = [x / n for x in c]
    q0, q1 = _mle_at(scores, p, s0), _mle_at(scores, p, s1)
    return n * sum(pk * math.log(b / a) for pk, a, b in zip(p, q0, q1, strict=True))


@dataclass(frozen=True, slots=True)
class ArenaStatus:
    """A running run after its latest pair (in index order), for a progress display
    (``run_arena(status=...)``)."""

    pairs: int
    games: int
    matches: int
    """Matches played (match rules only; 0 otherwise)."""
    hands: int
    done: int
    """Hands in the least advanced seating, capped at ``total`` (as ``progress`` gets them)."""
    total: int
    """``deals``: the hands per seating the run plays at most."""
    margin: float
    margin_ci: tuple[float, float] | None
    """The running margin and its 95% interval (``None`` below two pairs)."""
    win_share: float
    seconds: float
    """Time since the run started."""
    seconds_left: float | None
    """Estimated time left, from the rate so far (``None`` before any hand); with a sequential
    test, the earlier of reaching ``deals`` and the LLR reaching the bound it is heading for at
    its pace so far. 0 after the last pair."""
    sprt: Sprt | None = None
    llr: float | None = None
    """The sequential test's LLR so far (``None`` without a test)."""


class _Tally:
    """Running sums over the pairs taken so far, in index order: what the stopping rule, the
    sequential test and the progress display need, in constant time a pair."""

    def __init__(self, k: int) -> None:
        self.pairs = self.games = self.matches = self.hands = 0
        self.per_seating = [0] * k
        self.sx = self.sy = self.sxx = self.sxy = self.syy = 0.0
        self.win_sum = 0.0
        self.win_counts: dict[float, int] = {}

    def add(self, p: PairResult) -> None:
        self.pairs += 1
        self.games += len(p.games)
        self.matches += len(p.matches)
        for g in p.games:
            self.per_seating[g.seating] += g.hands
        x, y = p.margin_points, float(p.hands)
        self.hands += p.hands
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.sxy += x * y
        self.syy += y * y
        w = p.win_score
        self.win_sum += w
        self.win_counts[w] = self.win_counts.get(w, 0) + 1

    @property
    def margin(self) -> float:
        return self.sx / self.sy if self.sy else 0.0

    @property
    def margin_se(self) -> float | None:
        """As :attr:`ArenaResult.margin_se`, from the sums."""
        n = self.pairs
        if n < 2:
            return None
        r = self.margin
        ss = max(0.0, self.sxx - 2 * r * self.sxy + r * r * self.syy)
        return math.sqrt(ss / (n * (n - 1))) / (self.sy / n)

    def llr(self, test: Sprt) -> float | None:
        if test.unit == "elo":
            return _multinomial_llr(self.win_counts, elo_share(test.h0), elo_share(test.h1))
        se = self.margin_se
        if se is None:
            return None
        var = max(se * se, _SPRT_SD_FLOOR**2 / self.pairs)
        return (test.h1 - test.h0) * (2 * self.margin - test.h0 - test.h1) / (2 * var)

    def status(self, deals: int, seconds: float, finished: bool, test: Sprt | None,
               llr: float | None) -> ArenaStatus:
        done = min(min(self.per_seating), deals)
        left: float | None = None
        if finished:
            left = 0.0
        elif done:
            left = seconds * (deals - done) / done
            if test is not None and llr:
                # The LLR grows about in proportion to the pairs: pairs until it meets its bound.
                more = self.pairs * ((test.upper if llr > 0 else test.lower) / llr - 1)
                more = max(more, test.min_pairs - self.pairs, 0)
                left = min(left, seconds / self.pairs * more)
        se = self.margin_se
        ci = None if se is None else (self.margin - t95(self.pairs - 1) * se, self.margin + t95(self.pairs - 1) * se)
        return ArenaStatus(pairs=self.pairs, games=self.games, matches=self.matches, hands=self.hands, done=done,
                           total=deals, margin=self.margin, margin_ci=ci,
                           win_share=self.win_sum / self.pairs if self.pairs else 0.0,
                           seconds=seconds, seconds_left=left, sprt=test, llr=llr)


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`. ``to_dict()`` is the JSON of ``euchre arena --json``."""

    a: BotStats
    b: BotStats
    rules: Rules
    seed: int
    deals: int
    """Hands per seating the run asked for (each seating played at least this many)."""
    pairs: tuple[PairResult, ...] = field(repr=False)
    """Every pair, in index order (for further analysis; not in :meth:`to_dict`)."""
    seconds: float = 0.0
    """Wall-clock time of the run (the only field that varies between identical runs)."""
    match: MatchStats | None = None
    """Under match rules (``match_games``/``match_wins``), the matches: A's match win share with
    its interval over pairs, the number of matches and the games per match; ``None`` otherwise."""
    sprt: SprtResult | None = None
    """With a sequential test (``run_arena(sprt=...)``), how it ended; ``None`` otherwise."""

    @property
    def games(self) -> int:
        """Games played (pairs times seatings)."""
        return sum(len(p.games) for p in self.pairs)

    @property
    def hands(self) -> int:
        """Hands dealt over all games (thrown-in hands included)."""
        return sum(p.hands for p in self.pairs)

    @property
    def hands_per_seating(self) -> list[int]:
        """Hands dealt in each seating (the stopping rule needs each to reach ``deals``)."""
        return _hands_per_seating(self.pairs, len(seatings(self.rules)))

    @property
    def thrown_in(self) -> int:
        """Hands everyone passed."""
        return sum(g.thrown_in for p in self.pairs for g in p.games)

    @property
    def shared_games(self) -> int:
        """Games with a shared first place (only possible with ``tie_break=False``)."""
        return self.games - self.a.games_won - self.b.games_won

    @property
    def margin(self) -> float:
        """A's points per hand minus B's (B's per side in cut-throat)."""
        y = self.hands
        return sum(p.margin_points for p in self.pairs) / y if y else 0.0

    @property
    def margin_se(self) -> float | None:
        """Delta-method standard error of :attr:`margin` over pairs; ``None`` below two pairs."""
        n = len(self.pairs)
        if n < 2:
            return None
        r = self.margin
        ybar = self.hands / n
        ss = sum((p.margin_points - r * p.hands) ** 2 for p in self.pairs)
        return math.sqrt(ss / (n * (n - 1))) / ybar

    @property
    def margin_ci(self) -> tuple[float, float] | None:
        """95% interval of :attr:`margin` (``t`` on pairs - 1 degrees of freedom)."""
        se = self.margin_se
        if se is None:
            return None
        half = t95(len(self.pairs) - 1) * se
        return (self.margin - half, self.margin + half)

    @property
    def win_share(self) -> float:
        """A's share of the games won (shared first places split)."""
        return statistics.fmean(p.win_score for p in self.pairs) if self.pairs else 0.0

    @property
    def even_share(self) -> float:
        """The win share of an even match: 1/2, or 1/3 in cut-throat."""
        return 1 / self.rules.sides

    @property
    def win_share_ci(self) -> tuple[float, float]:
        """95% interval of :attr:`win_share`: ``t`` over pair win scores plus two pseudo-pairs
        won by each bot, clipped to [0, 1]."""
        return share_ci([p.win_score for p in self.pairs])

    @property
    def sweeps(self) -> tuple[int, int, int]:
        """Pairs whose every game A won, pairs whose every game B won, and the rest."""
        a = sum(1 for p in self.pairs if p.win_score == 1.0)
        b = sum(1 for p in self.pairs if p.win_score == 0.0)
        return a, b, len(self.pairs) - a - b

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON values; the keys are documented in ``docs/arena.md``."""
        ci = self.margin_ci
        a_swept, b_swept, mixed = self.sweeps
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals": self.deals,
            "seatings": [list(s) for s in seatings(self.rules)],
            "pairs": len(self.pairs),
            "games": self.games,
            "hands": self.hands,
            "hands_per_seating": self.hands_per_seating,
            "thrown_in": self.thrown_in,
            "thrown_in_rate": self.thrown_in / self.hands if self.hands else 0.0,
            "margin": self.margin,
            "margin_se": self.margin_se,
            "margin_ci95": list(ci) if ci is not None else None,
            "win_share": self.win_share,
            "win_share_ci95": list(self.win_share_ci),
            "even_share": self.even_share,
            "shared_games": self.shared_games,
            "pairs_swept_by_a": a_swept,
            "pairs_swept_by_b": b_swept,
            "pairs_mixed": mixed,
            **({"match": self.match.to_dict()} if self.match is not None else {}),
            **({"sprt": self.sprt.to_dict()} if self.sprt is not None else {}),
            "seconds": self.seconds,
        }

    @classmethod
    def from_pairs(cls, a: str, b: str, rules: Rules, seed: int, deals: int, pairs: Sequence[PairResult],
                   seconds: float = 0.0, sprt: SprtResult | None = None) -> ArenaResult:
        """Sum the games of ``pairs`` into the two bots' totals."""
        games = [g for p in pairs for g in p.games]

        def stats(name: str, is_a: bool) -> BotStats:
            makers = MakerCounts()
            for g in games:
                makers += g.a_makers if is_a else g.b_makers
            return BotStats(
                name=name,
                points=sum(g.a_points if is_a else g.b_points for g in games),
                side_hands=makers.side_hands,
                games_won=sum(1 for g in games if g.a_credit == (1.0 if is_a else 0.0)),
                makers=makers,
            )

        match = MatchStats.from_pairs(pairs, rules.sides) if rules.is_match else None
        return cls(a=stats(a, True), b=stats(b, False), rules=rules, seed=seed, deals=deals,
                   pairs=tuple(pairs), seconds=seconds, match=match, sprt=sprt)


def _hands_per_seating(pairs: Sequence[PairResult], k: int) -> list[int]:
    totals = [0] * k
    for p in pairs:
        for g in p.games:
            totals[g.seating] += g.hands
    return totals


# --- running -------------------------------------------------------------------------------------
def run_arena(a: str, b: str, rules: Rules | None = None, *, deals: int, seed: int = 0, jobs: int | None = None,
              progress: Progress | None = None, chunk: int = 2, sprt: Sprt | None = None,
              ray_address: str | None = None, status: Callable[[ArenaStatus], None] | None = None) -> ArenaResult:
    """A duplicate match between the registered bots ``a`` and ``b`` (see the module docstring).

    Pairs of games (under match rules, pairs of matches: :attr:`ArenaResult.match`) are played
    until every seating has dealt at least ``deals`` hands, or, with a sequential test ``sprt``,
    until it decides (:attr:`ArenaResult.sprt`; ``deals`` is then the most it plays). ``jobs``
    processes share the work (default: one per CPU, as many as the free memory holds,
    :func:`~euchre.pool.default_jobs`; 1 plays in this process), ``chunk`` pairs at a time. With
    ``ray_address`` the chunks are Ray tasks instead: ``"auto"`` connects to the running cluster or
    starts a local one (``ray.init()``), anything else is a cluster's address;
    a Ray connection this process already has is used as it is, one the run opened is closed at
    its end; ``jobs`` is then the tasks kept running (default: the cluster's CPUs).
    The result depends only on the bots, ``rules``, ``deals``, ``seed`` and ``sprt``, never on
    the backend, ``jobs`` or ``chunk``.

    ``progress`` is called as ``progress(done, total)`` and ``status`` with an
    :class:`ArenaStatus` (running margin, interval, time left), both in this process after every
    pair taken in index order. Unknown bot names raise ``ValueError`` before anything is played;
    a failing bot raises :class:`BotError`; a Ray that is missing or cannot be reached
    :class:`BackendError`.

    >>> r = run_arena("random", "random", deals=10, jobs=1)
    >>> r.margin, r.win_share
    (0.0, 0.5)
    """
    rules = rules or Rules()
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive whole number, got {deals!r}")
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk!r}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs!r}")
    if sprt is not None and sprt.unit == "elo" and rules.sides != 2:
        raise ValueError(f"an Elo test needs two sides, and these rules have {rules.sides}; "
                         "test the margin in points per hand instead")
    check_bot(a)
    check_bot(b)
    tally = _Tally(len(seatings(rules)))
    t0 = time.perf_counter()
    pairs: list[PairResult] = []
    llr: float | None = None
    decision: str | None = None

    def take(p: PairResult) -> bool:
        """Add a pair in index order; True once the test has decided or every seating has
        reached ``deals``."""
        nonlocal llr, decision
        pairs.append(p)
        tally.add(p)
        if sprt is not None:
            llr = tally.llr(sprt)
            decision = sprt.decide(llr, tally.pairs)
        finished = decision is not None or min(tally.per_seating) >= deals
        if progress is not None:
            progress(min(min(tally.per_seating), deals), deals)
        if status is not None:
            status(tally.status(deals, time.perf_counter() - t0, finished, sprt, llr))
        return finished

    source = (_ray_pairs(a, b, rules, seed, ray_address, jobs, chunk) if ray_address is not None
              else _local_pairs(a, b, rules, seed, jobs if jobs is not None else default_jobs(ARENA_JOB_MEMORY), chunk))
    with closing(source):  # closing stops the workers still busy on pairs past the stopping point
        for p in source:
            if take(p):
                break
    result = None if sprt is None else SprtResult(test=sprt, llr=llr, decision=decision, pairs=len(pairs))
    return ArenaResult.from_pairs(a, b, rules, seed, deals, pairs, seconds=time.perf_counter() - t0, sprt=result)


def _local_pairs(a: str, b: str, rules: Rules, seed: int, jobs: int, chunk: int) -> Generator[PairResult, None, None]:
    """Every pair in index order, played here (``jobs == 1``) or on a process pool."""
    if jobs == 1:
        for i in itertools.count():
            yield play_pair(a, b, rules, seed, i)
        return
    with process_pool(jobs) as (pool, interrupted):
        # leaving the pool's block (the generator closed, or Ctrl-C) terminates the workers
        pending: deque[AsyncResult[list[PairResult]]] = deque()
        lo = 0
        while True:
            interrupted()
            while len(pending) < 2 * jobs:
                pending.append(pool.apply_async(_play_chunk, ((a, b, rules, seed, lo, lo + chunk),)))
                lo += chunk
            head = pending.popleft()
            while not head.ready():
                head.wait(0.1)
                interrupted()
            yield from head.get()


RAY_INSTALL = "pip install 'euchre[ray]' (from a clone: pip install -e '.[ray]')"


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError as e:
        raise BackendError(f"running the arena on Ray needs the ray package, which is not installed ({e}); "
                           f"install the ray extra: {RAY_INSTALL}") from e


def _ray_pairs(a: str, b: str, rules: Rules, seed: int, address: str, jobs: int | None,
               chunk: int) -> Generator[PairResult, None, None]:
    """Every pair in index order, played in Ray tasks of ``chunk`` pairs (bots built by name in
    the workers, as on the process pool); a task's pairs are yielded only once those of every
    earlier task have been, whichever finishes first."""
    ray = _import_ray()
    opened = not ray.is_initialized()
    if opened:
        try:
            ray.init(address=None if address == "auto" else address, logging_level=logging.WARNING,
                     log_to_driver=False)
        except Exception as e:  # ConnectionError, ValueError for a malformed address, ...
            raise BackendError(f"cannot connect to the Ray cluster {address!r}: {type(e).__name__}: {e}") from e
    pending: deque[Any] = deque()
    try:
        task = ray.remote(num_cpus=1)(_play_chunk)
        workers = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        lo = 0
        while True:
            while len(pending) < 2 * workers:
                pending.append(task.remote((a, b, rules, seed, lo, lo + chunk)))
                lo += chunk
            ref = pending.popleft()
            try:
                chunk_pairs = ray.get(ref)
            except ray.exceptions.RayTaskError as e:
                if isinstance(e.cause, EuchreError):  # a bot's failure, as the pool would raise it
                    raise e.cause from None
                raise BackendError(f"a game pair failed on a Ray worker: {type(e.cause).__name__}: {e.cause} (the "
                                   "workers build bots by name: a bot registered at run time must be registered "
                                   "in a module they import)") from e
            yield from chunk_pairs
    finally:
        for ref in pending:
            try:
                ray.cancel(ref)
            except Exception:  # already finished, or the connection is gone
                pass
        if opened:
            ray.shutdown()
