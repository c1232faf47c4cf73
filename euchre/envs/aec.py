"""The PettingZoo AEC environment: a whole game of Euchre or of a sister game (or a match) per
episode, one seat per agent, on the engine's :class:`~euchre.game.Game`.

The environment knows no rule: the agent to act is the engine's seat to act, the action space is
the engine's action codes (``Discrete(EUCHRE_ACTIONS)`` for Euchre, ``Discrete(NUM_ACTIONS)`` for
Hasenpfeffer, Bid Euchre and Napoleon; :meth:`Action.from_code`), the action mask is the seat's
legal actions, every step is :meth:`Game.push`, and each observation is
:func:`~euchre.envs.observation.encode` of the seat's :class:`~euchre.view.PlayerView`, in the
layout of the rules (:func:`~euchre.envs.observation.layout`). ``docs/rl.md`` documents the spaces,
the rewards and the observation field by field.

>>> from euchre.envs import euchre_v0
>>> env = euchre_v0.env(rules="two-handed")
>>> env.reset(seed=3)
>>> env.agents
['player_0', 'player_1']
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape == (euchre_v0.OBSERVATION_SIZE,), int(obs["action_mask"].sum()) > 0
(True, True)
>>> nap = euchre_v0.env(rules={"preset": "napoleon", "players": 7})
>>> len(nap.possible_agents), int(nap.action_space("player_0").n)
(7, 180)
"""

from __future__ import annotations

import operator
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the rl extra is in the test extra
    raise ImportError(f"euchre.envs needs PettingZoo and Gymnasium: pip install 'euchre[rl]' ({e})") from e

from euchre.actions import NAPOLEON_BIDS, Action, Kind
from euchre.arena import SIMULATED_HAND_SECONDS
from euchre.cards import trump_word
from euchre.describe import hand_result_words, move_words
from euchre.envs.observation import action_mask, encode, layout, up_card_fate
from euchre.game import Game
from euchre.match import Match
from euchre.rules import Rules
from euchre.state import Deal, State
from euchre.view import PlayerView

__all__ = ["raw_env", "env", "resolve_rules", "REWARDS", "RENDER_VIEWS", "relative", "hand_rewards"]

REWARDS = ("hand", "game", "match")
"""The reward schemes (see :class:`raw_env`)."""
RENDER_VIEWS = ("to_act", "public", "all")
"""What ``render()`` shows, besides a seat number: the agent to act's view, a spectator's, or
every hand face up."""

RulesLike = str | Rules | Mapping[str, Any]


def resolve_rules(rules: RulesLike) -> Rules:
    """The :class:`Rules` of a preset name (or alias), a :class:`Rules`, or a mapping of fields,
    optionally with a ``"preset"`` key for the base (default ``american``):
    ``{"preset": "british", "stick_the_dealer": True}``.

    >>> resolve_rules({"preset": "british", "stick_the_dealer": True}) == Rules.preset("british", stick_the_dealer=True)
    True
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, Mapping):
        fields = dict(rules)
        base = fields.pop("preset", "american")
        return Rules.preset(base, **fields)
    raise TypeError(f"rules must be a preset name, a Rules or a mapping of fields, got {type(rules).__name__}")


def relative(values: Sequence[float]) -> list[float]:
    """Each side's value less the mean of the other sides' values: the zero-sum form of the
    rewards (``[a - b, b - a]`` for two sides).

    >>> relative([2, 0]), relative([0, 2, 2])
    ([2.0, -2.0], [-2.0, 1.0, 1.0])
    """
    k = len(values)
    total = float(sum(values))
    return [float(v) - (total - v) / (k - 1) for v in values]


def hand_rewards(rules: Rules, points: Sequence[int]) -> list[float]:
    """The ``"hand"`` reward of each side for a hand's ``points``: :func:`relative` of them, but
    in Napoleon, where the bidder is paid by or pays every other seat (the points already sum to
    0), the points themselves, so a seat's return is its score.

    >>> hand_rewards(Rules(), (2, 0)), hand_rewards(Rules.preset("napoleon"), (-12, 4, 4, 4))
    ([2.0, -2.0], [-12.0, 4.0, 4.0, 4.0])
    """
    if rules.napoleon:
        return [float(p) for p in points]
    return relative(points)


def _simulated_clock() -> Callable[[], float]:
    """A timed game's clock: each reading (the start, then the end of every hand) is
    :data:`~euchre.arena.SIMULATED_HAND_SECONDS` later, so a timed episode repeats exactly."""
    t = [-SIMULATED_HAND_SECONDS]

    def clock() -> float:
        t[0] += SIMULATED_HAND_SECONDS
        return t[0]

    return clock


class raw_env(AECEnv, EzPickle):  # AECEnv is Any to mypy: pettingzoo ships no type information
    """Euchre (or a sister game) under ``rules`` as a PettingZoo AEC environment (unwrapped: see
    :func:`env`).

    ``rules``: a preset name, a :class:`Rules`, or a mapping of fields (with an optional
    ``"preset"`` base), as :func:`resolve_rules` reads it: every preset, Hasenpfeffer, Bid Euchre
    (``bid-euchre``, ``bid-euchre-double``) and Napoleon (3 to 7 players) included. Agents are
    ``player_0`` .. ``player_{n-1}``, one per seat; partners in four-handed rules (Napoleon's
    excepted: each seat for itself) are ``player_0`` + ``player_2`` and ``player_1`` + ``player_3``.
    The spaces follow the rules (:func:`~euchre.envs.observation.layout`): Euchre's are one for
    every rule set of Euchre; each sister game has its own.

    ``reward``:

    * ``"hand"`` (default): at the end of every hand, each agent gets the points its side scored
      in the hand less the mean of the other sides' points (:func:`relative`): ``p_own - p_other``
      with two sides, ``p_own - (p_left + p_right) / 2`` in cut-throat. The rewards of a step sum
      to 0 over the sides, and an agent's return over an episode is its side's final score less
      the mean of the others' scores. In Napoleon, whose points already sum to 0 (the bidder is
      paid by or pays every other seat), each seat gets its points as scored, so its return is
      its final score (:func:`hand_rewards`).
    * ``"game"``: at the end of every game, +1 to a winning side and -1 to the losing side; with
      three sides (cut-throat) +1 to the winner and -1/2 to each loser (:func:`relative` of
      1 for the winner, 0 for the others: tied winners, possible with ``tie_break=False``, get
      1/2 each and the loser -1). In a match, a game counts what it counts for the match (a slam
      2, a tie 0).
    * ``"match"`` (match rules only): at the end of the match, +1 to the side that took it and
      -1 (or -1/2 each, three sides) to the others.

    ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (prints
    it). ``render_view``: whose table it is: ``"to_act"`` (default; the seat to act's view, a
    spectator's once the game is over), ``"public"`` (a spectator's view: no hand shown), ``"all"``
    (every hand face up, the buried card too: for debugging, never for an agent), or a seat number.

    ``reset(seed=s)`` plays the games of ``Game(rules, seed=s)`` (or ``Match(rules, seed=s)``), so
    the same seed and actions repeat an episode exactly; a timed game runs on a simulated clock
    (:data:`~euchre.arena.SIMULATED_HAND_SECONDS` a hand). ``reset()`` without a seed draws the
    next seed from the last one given (or at random). ``options={"deals": [Deal, ...]}`` deals the
    first hands as given (one game only, not a match).

    An illegal action raises :class:`~euchre.errors.IllegalActionError` and changes nothing;
    :func:`env` ends the episode instead, as PettingZoo's classic games do.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "euchre_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: RulesLike = "american", *, reward: str = "hand", render_mode: str | None = None,
                 render_view: str | int = "to_act") -> None:
        EzPickle.__init__(self, rules, reward=reward, render_mode=render_mode, render_view=render_view)
        super().__init__()
        self.rules = resolve_rules(rules)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if reward == "match" and not self.rules.is_match:
            raise ValueError("reward='match' needs match rules (match_games or match_wins); "
                             "for one game per episode use reward='game'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])} or None, "
                             f"got {render_mode!r}")
        n = self.rules.players
        if not (render_view in RENDER_VIEWS or (isinstance(render_view, int) and not isinstance(render_view, bool)
                                                and 0 <= render_view < n)):
            raise ValueError(f"render_view must be one of {', '.join(RENDER_VIEWS)} or a seat 0..{n - 1}, "
                             f"got {render_view!r}")
        self.reward_kind = reward
        self.render_mode = render_mode
        self.render_view = render_view
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        lay = layout(self.rules)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=lay.low.copy(), high=lay.high.copy(), shape=(lay.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(lay.actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(lay.actions) for a in self.possible_agents}
        self.match: Match | None = None
        """The match being played, under match rules."""
        self._game: Game | None = None
        self._seeds = random.Random(secrets.randbits(64))
        self.episode_seed: int | None = None
        """The seed of the episode being played."""

    # --- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        self.seat_of(agent)  # (an unknown agent is named, not a KeyError)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        self.seat_of(agent)
        return self.action_spaces[agent]

    # --- the engine ------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played (the current game of a match)."""
        if self.match is not None:
            return self.match.game
        if self._game is None:
            raise RuntimeError("reset() the environment first")
        return self._game

    def seat_of(self, agent: str) -> int:
        """The seat of an agent (``player_2`` is seat 2); an unknown agent raises ``ValueError``
        naming the agents."""
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r} here; the agents are {', '.join(self.possible_agents)}") from None

    def view(self, agent: str) -> PlayerView:
        """The agent's view of the hand being played: all its observation is made of."""
        return self.game.view(self.seat_of(agent))

    def _match_standing(self) -> tuple[list[int] | None, int]:
        if self.match is None:
            return None, 0
        return self.match.wins, len(self.match.results)

    # --- the AEC API -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**63)
        self.episode_seed = game_seed
        deals: list[Deal] | None = None
        if options and options.get("deals") is not None:
            deals = list(options["deals"])
            if not all(isinstance(d, Deal) for d in deals):
                raise TypeError("options['deals'] must be a list of euchre.state.Deal (e.g. State.random(...).deal)")
        clock = _simulated_clock() if self.rules.duration is not None else None
        if self.rules.is_match:
            if deals is not None:
                raise ValueError("options['deals'] deals the hands of one game; these rules play a match")
            self.match = Match(self.rules, seed=game_seed)
            self._game = None
        else:
            self.match = None
            self._game = Game(self.rules, seed=game_seed, clock=clock, deals=deals)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = self.view(agent)
        wins, games = self._match_standing()
        return {"observation": encode(view, match_wins=wins, match_games=games), "action_mask": action_mask(view)}

    def step(self, action: int | None) -> None:
        if not hasattr(self, "agent_selection"):
            raise RuntimeError("reset() the environment first")
        if isinstance(action, bool):  # (True is 1, "order": a mask or a flag passed by mistake)
            raise TypeError(f"an action is an action code (an integer), not {action!r}")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is the action of a finished agent only")
        code = operator.index(action)  # an int or a numpy integer; a float raises TypeError
        game = self.game
        hand = game.state
        if self.match is not None:
            self.match.push(Action.from_code(code))
        else:
            game.push(Action.from_code(code))
        self._cumulative_rewards[agent] = 0.0
        sides = [0.0] * self.rules.sides
        if self.reward_kind == "hand" and hand.is_over and hand.points is not None:
            sides = hand_rewards(self.rules, hand.points)
        elif self.reward_kind == "game" and game.is_over:
            if self.match is not None:
                won = [float(self.match.game_wins(game)) if s == game.winner else 0.0 for s in range(len(sides))]
            else:
                won = [1.0 if s in game.winners else 0.0 for s in range(len(sides))]
            sides = relative(won)
        elif self.reward_kind == "match" and self.match is not None and self.match.is_over:
            sides = relative([1.0 if s == self.match.winner else 0.0 for s in range(len(sides))])
        for a in self.agents:
            self.rewards[a] = sides[self.rules.side_of(self.seat_of(a))]
        over = self.match.is_over if self.match is not None else game.is_over
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.game.to_act]
        self._accumulate_rewards()
        if over:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    # --- rendering -------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: make the env with render_mode='ansi'")
            return None
        text = self.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def table_text(self, who: str | int | None = None) -> str:
        """The table as text, as ``render()`` shows it (``who``: a :data:`RENDER_VIEWS` value or a
        seat; default the env's ``render_view``)."""
        who = self.render_view if who is None else who
        return table_text(self.game, who, match=self.match)

    def close(self) -> None:
        pass


def env(rules: RulesLike = "american", *, reward: str = "hand", render_mode: str | None = None,
        render_view: str | int = "to_act") -> AECEnv:
    """:class:`raw_env` in the wrappers PettingZoo's classic games use: an illegal action ends
    the episode with -1 for the agent that took it and 0 for the others
    (``TerminateIllegalWrapper``), an action outside the action space raises
    (``AssertOutOfBoundsWrapper``), and the API is used in order (``OrderEnforcingWrapper``)."""
    e: AECEnv = raw_env(rules, reward=reward, render_mode=render_mode, render_view=render_view)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


# --- the table as text -----------------------------------------------------------------------------
_NAPOLEON_WORDS = tuple(str(a) for a in NAPOLEON_BIDS)
"""Napoleon's bids by their place (``view.bid`` - 1): ``bid 2`` .. ``blucher``."""


def _high_bid_words(view: PlayerView, names: Sequence[str]) -> str:
    """``"; high bid 4 by player_1"`` (``moon``, or Napoleon's bid), ``""`` before any bid."""
    if view.bidder < 0:
        return ""
    rules = view.rules
    if rules.napoleon:
        what = _NAPOLEON_WORDS[view.bid - 1]
    elif rules.bid_euchre and view.bid > rules.hand_size:
        what = "moon"
    else:
        what = str(view.bid)
    return f"; high bid {what} by {names[view.bidder]}" + (" (forced: it holds the Joker)" if view.forced_bid else "")


_UP_WORDS = {"face_up": "face up", "turned_down": "turned down", "left": "left in the stock",
             "taken": "taken by the dealer", "buried": "buried by the dealer", "played": "played"}


def table_text(game: Game, who: str | int, *, match: Match | None = None) -> str:
    """The hand being played, as text, seen by ``who``: a seat, ``"to_act"`` (the seat to act, a
    spectator once the game is over), ``"public"`` (a spectator) or ``"all"`` (every card face up).

    >>> print(table_text(Game(Rules(), seed=1), "public").splitlines()[1])
    seen by a spectator
    """
    state: State = game.state
    n = game.rules.players
    names = [f"player_{s}" for s in range(n)]
    face_up = who == "all"
    if who == "to_act":
        seat: int | None = game.to_act if game.to_act >= 0 else None
    elif isinstance(who, int):
        seat = who
    else:
        seat = None
    view = game.view(seat)
    lines = [("match: " + match.standing() + "; " if match is not None else "") + game.summary()]
    lines.append("every card face up" if face_up else f"seen by {names[seat]}" if seat is not None
                 else "seen by a spectator")
    if view.up_card is not None:
        lines.append(f"dealer {names[view.dealer]}; up card {view.up_card}, {_UP_WORDS[up_card_fate(view)]}")
    else:  # the sister games turn no card up: the auction's standing instead
        lines.append(f"dealer {names[view.dealer]}" + _high_bid_words(view, names))
    if view.trump is not None and view.maker >= 0:
        lines.append(f"trump {trump_word(int(view.trump))}, made by {names[view.maker]}"
                     + (" alone" if view.alone else "")
                     + (f", {names[view.lone_defender]} defending alone" if view.lone_defender >= 0 else ""))
    moves = [move_words(view, i, names) for i, (_, a) in enumerate(view.actions)
             if a is None or a.kind is not Kind.PLAY]
    if moves:
        lines.append("before play: " + "; ".join(moves))
    for i, t in enumerate(view.tricks):
        plays = ", ".join(f"{names[s]} {c}" for s, c in t.plays)
        lines.append(f"trick {i + 1}: {plays}; won by {names[t.winner]}")
    if view.trick:
        plays = ", ".join(f"{names[s]} {c}" for s, c in view.trick)
        lines.append(f"trick {len(view.tricks) + 1}: {plays}")
    if view.tricks:
        lines.append("tricks won: " + ", ".join(f"{names[s]} {w}" for s, w in enumerate(view.tricks_won)))
    for s in range(n):
        if face_up:
            cards = " ".join(map(str, state.hand(s)))
        elif s == seat:
            cards = " ".join(map(str, view.hand))
        else:  # how many cards a seat holds is public; which is not
            held = len(state.hand(s))
            cards = f"{held} card{'s' if held != 1 else ''} hidden" if held else "no cards"
        out = " (sitting out)" if s in view.sitting_out else ""
        lines.append(f"{names[s]}{out}: {cards}")
    if face_up and state.discard is not None:
        lines.append(f"buried: {state.discard}")
    to_act = game.to_act
    if to_act >= 0:
        if face_up or seat == to_act:
            legal = ", ".join(str(a) for a in game.legal_actions())
            lines.append(f"{names[to_act]} to act: {legal}")
        elif view.to_act >= 0:
            lines.append(f"{names[view.to_act]} to act")
    if view.points is not None:
        lines.append(hand_result_words(view, names))
    return "\n".join(lines)
