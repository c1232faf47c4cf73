"""A match: games played one after another by the same seats and sides (RULES-FAMILY.md 12.5).

:class:`Match` owns the games in order (each a :class:`~euchre.game.Game`, the last one being
played) and the game wins per side. It knows only what is between games: who won each, a slam
counting double, the laps carried into the next game, the deal passing on from the last hand's
dealer, and when the match is over (the first side to ``match_wins`` wins, or the most wins
after ``match_games`` games, a tie adding one game at a time). Everything inside a game is the
game's.

>>> m = Match(Rules(match_wins=2, target=1), seed=3)
>>> m.rules.is_match, len(m.games), m.wins
(True, 1, [0, 0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from euchre.actions import Action
from euchre.errors import IllegalActionError, RulesError
from euchre.game import Game
from euchre.rules import Rules

__all__ = ["Match"]


class Match:
    """A match of games under ``rules`` (which set ``match_games`` or ``match_wins``).

    Games are seeded from the match's ``seed`` (``f"{seed}/{index}"``), so the same seed and the
    same actions give the same match. ``push`` plays the current game and, when it ends, scores
    it for the match and deals the next game unless the match is over.
    """

    def __init__(self, rules: Rules, *, seed: int | None = None, dealer: int | None = None) -> None:
        if not rules.is_match:
            raise RulesError("a Match needs rules with match_games or match_wins (for one game, use Game)")
        self.rules = rules
        self.seed = seed if seed is not None else random.randrange(2**62)
        self.games: list[Game] = [Game(rules, seed=self.game_seed(0), dealer=dealer)]
        self.wins: list[int] = [0] * rules.sides
        """Game wins per side (a slam counts two)."""
        self.results: list[tuple[int, ...]] = []
        """The winning sides of each finished game, in order."""
        self.winner: int | None = None
        """The side that took the match, once it is over."""

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` of this match."""
        return random.Random(f"{self.seed}/{index}").randrange(2**62)

    # --- the match ------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played (the last one, once the match is over)."""
        return self.games[-1]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_act(self) -> int:
        """The seat to act, -1 once the match is over."""
        return -1 if self.is_over else self.game.to_act

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.game.legal_actions()

    def push(self, action: Action | int | str) -> Action:
        """Apply an action to the current game; a game that ends is scored for the match and the
        next one dealt. Bad input raises and changes nothing."""
        if self.is_over:
            raise IllegalActionError(f"the match is over: {self.summary()}")
        a = self.game.push(action)
        if self.game.is_over:
            self._end_game()
        return a

    def claim(self) -> list[Action]:
        """The current game's :meth:`~euchre.game.Game.claim`, scoring the game if it ends."""
        line = self.game.claim()
        if self.game.is_over:
            self._end_game()
        return line

    def settle(self) -> bool:
        """Score the current game for the match if it ended outside :meth:`push` (a front end
        that plays the :class:`~euchre.game.Game` itself) and deal the next; returns whether the
        match went on to another game."""
        if self.is_over or not self.game.is_over or len(self.results) == len(self.games):
            return False
        self._end_game()
        return not self.is_over

    def unsettle(self) -> None:
        """Take back the last :meth:`settle` (a front end whose write of the game's end failed):
        the next game, not yet played, is put away and the finished game no longer counts."""
        if len(self.results) != len(self.games) - (0 if self.is_over else 1):
            raise IllegalActionError("no finished game of the match to take back")
        if not self.is_over:
            if self.game.actions():
                raise IllegalActionError("the next game of the match has begun; it cannot be put away")
            self.games.pop()
        self.results.pop()
        game = self.game
        if game.winner is not None:
            self.wins[game.winner] -= self.game_wins(game)
        self.winner = None

    def game_wins(self, game: Game) -> int:
        """What the finished ``game`` counts for its winner: 2 for a slam (when the rules count
        slams: every other side at 0 or less), else 1; 0 for a game without a winner."""
        winner = game.winner
        if winner is None:
            return 0
        slam = self.rules.slam and all(score <= 0 for side, score in enumerate(game.scores) if side != winner)
        return 2 if slam else 1

    def _end_game(self) -> None:
        nxt = self._score(self.game)
        if nxt is not None:
            dealer, start = nxt
            self.games.append(Game(self.rules, seed=self.game_seed(len(self.games)), dealer=dealer, scores=start))

    def _score(self, game: Game) -> tuple[int, list[int]] | None:
        """Count the finished ``game`` for the match; the next game's first dealer and starting
        scores (laps), or ``None`` once the match is decided."""
        self.results.append(game.winners)
        if game.winner is not None:
            self.wins[game.winner] += self.game_wins(game)
        winner = game.winner
        decided = self._decided()
        if decided is not None:
            self.winner = decided
            return None
        start = [0] * self.rules.sides
        if self.rules.laps and winner is not None:
            target = self.rules.target
            assert target is not None
            start[winner] = max(0, min(target - 1, game.scores[winner] - target))
        return (game.hands[-1].dealer + 1) % self.rules.players, start

    @classmethod
    def from_games(cls, rules: Rules, games: Sequence[Game], *, seed: int) -> Match:
        """The match made of ``games`` already played (a match record replayed game by game):
        each game must start where the match puts it (the deal passing on from the last hand's
        dealer, the laps carried over) and every game but the last be over. The last game may be
        in progress; if it is over and the match is not, the next game is dealt from ``seed``.
        Raises :class:`~euchre.errors.IllegalActionError` naming the first game that does not fit."""
        if not games:
            raise IllegalActionError("a match needs at least one game")
        m = cls(rules, seed=seed, dealer=games[0].first_dealer)
        m.games = [games[0]]
        expected: tuple[int, list[int]] = (0, [])
        if games[0].initial_scores != (0,) * rules.sides:
            raise IllegalActionError(f"game 1 starts at {list(games[0].initial_scores)}, not at 0")
        for i, game in enumerate(games):
            if i > 0:
                if m.is_over:
                    raise IllegalActionError(f"game {i + 1}: the match was over after game {i} ({m.standing()})")
                dealer, start = expected
                if game.first_dealer != dealer or list(game.initial_scores) != start:
                    raise IllegalActionError(
                        f"game {i + 1}: dealt first by seat {game.first_dealer} from {list(game.initial_scores)}, "
                        f"but the match has seat {dealer} deal it from {start}")
                m.games.append(game)
            if not game.is_over:
                if i != len(games) - 1:
                    raise IllegalActionError(f"game {i + 1} is not over, yet game {i + 2} follows it")
                break
            nxt = m._score(game)
            if nxt is not None:
                expected = nxt
        if m.game.is_over and not m.is_over:
            dealer, start = expected
            m.games.append(Game(rules, seed=m.game_seed(len(m.games)), dealer=dealer, scores=start))
        return m

    def _decided(self) -> int | None:
        """The side that has taken the match, or ``None`` (play another game)."""
        r = self.rules
        top = max(self.wins)
        leaders = [side for side, w in enumerate(self.wins) if w == top]
        if r.match_wins is not None:
            return leaders[0] if top >= r.match_wins and len(leaders) == 1 else None
        assert r.match_games is not None
        if len(self.games) >= r.match_games and len(leaders) == 1:
            return leaders[0]
        return None

    # --- words ----------------------------------------------------------------------------------
    def standing(self, names: Sequence[str] | None = None) -> str:
        """The match score in words: "game wins 2 - 1 (to 3)" or "(game 3 of 5)"."""
        wins = " - ".join(str(w) for w in self.wins)
        if names is not None:
            wins = ", ".join(f"{n} {w}" for n, w in zip(names, self.wins, strict=True))
        r = self.rules
        if r.match_wins is not None:
            return f"game wins {wins} (first to {r.match_wins})"
        assert r.match_games is not None
        extra = " (extra games until the tie is broken)" if len(self.games) > r.match_games else ""
        return f"game wins {wins} (game {len(self.games)} of {r.match_games}){extra}"

    def summary(self) -> str:
        if self.winner is not None:
            return f"match over: {self.standing()}, side {self.winner} takes the match"
        return f"{self.standing()}; game {len(self.games)}: {self.game.summary()}"

    def to_dict(self) -> dict[str, Any]:
        """The match score as JSON-ready data (the server's frames): the game being played
        (1-based), game wins per side, the rules' ending, the winner once it is over, the
        standing in words, and each finished game's winners and final scores."""
        finished = self.games[: len(self.results)]
        return {"game": len(self.games), "wins": list(self.wins), "match_games": self.rules.match_games,
                "match_wins": self.rules.match_wins, "winner": self.winner, "standing": self.standing(),
                "games": [{"winners": list(g.winners), "scores": list(g.scores), "counts": self.game_wins(g)}
                          for g in finished]}

    def actions(self) -> list[list[Action]]:
        """Every game's actions, in order."""
        return [g.actions() for g in self.games]

    @classmethod
    def replay(cls, rules: Rules, seed: int, games: Sequence[Sequence[Action | int | str]],
               dealer: int | None = None) -> Match:
        """The match of ``seed`` with each game's actions pushed (records and saved matches)."""
        m = cls(rules, seed=seed, dealer=dealer)
        for i, actions in enumerate(games):
            if i != len(m.games) - 1:
                raise IllegalActionError(f"game {i + 1}: the match has {len(m.games)} game(s) so far")
            for a in actions:
                m.push(a)
        return m
