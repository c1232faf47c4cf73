"""This engine as an OpenSpiel Python game: ``python_euchre``, registered when this module is imported.

    import pyspiel
    import euchre.openspiel_game  # registers python_euchre
    game = pyspiel.load_game("python_euchre(preset=british,call_for_best=true)")
    nap = pyspiel.load_game("python_euchre(preset=napoleon,players=7)")  # the sister games too

It has the shape of OpenSpiel's ``open_spiel/python/games/*.py`` (a ``pyspiel.Game`` subclass, a
``pyspiel.State`` subclass, an observer from ``make_py_observer``) and knows no rule of Euchre: the
hands are played by :class:`~euchre.game.Game` and :class:`~euchre.state.State`, and every
observation, tensor or string, is built from the :class:`~euchre.view.PlayerView` of the seat,
which holds no hidden card. ``docs/rl.md`` (section "OpenSpiel") documents the parameters, the
chance model, the returns and the tensor layout; in short:

* **games**: Euchre under every preset and house rule, and the sister games (RULES-FAMILY.md
  14-16): ``hasenpfeffer``, ``bid-euchre``, ``bid-euchre-double`` and ``napoleon`` at 3 to 7
  players (``players=7``: the pack follows the table's size);
* **parameters**: ``preset`` (any preset or alias, default ``american``), every field of
  :class:`~euchre.rules.Rules` by its name (:data:`SWITCHES`), ``horizon`` (``hand``, the default,
  or ``game``) and ``max_hands`` (the truncation of a whole game);
* **chance**: the dealer (uniform over the seats; the first deal only), then the cards one at a
  time, the k-th to seat ``(dealer + k) % players`` (the dealer first), then the up card (Euchre
  only: the sister games turn none up); the rest of the deck is the stock. The double deck's
  outcomes are the 24 faces, each as likely as the copies of it still undealt (no player can
  tell two copies apart, so neither can the history). A deal has far too many outcomes for a
  single chance node;
* **actions**: our action codes (:mod:`euchre.actions`), exactly the engine's legal ones: 0..118
  for Euchre, every code (0..179) for a sister game;
* **returns**: ``x[side] - (sum(x) - x[side]) / (sides - 1)`` for each seat's side, where ``x`` is
  the points of the hand per side (``horizon=hand``) or 1 for a winning side and 0 for the others
  (``horizon=game``): with two sides, a side's points less the other's, as OpenSpiel's ``euchre``.
  Napoleon's points of a hand already sum to 0 (the bidder is paid by or pays every other seat):
  with ``horizon=hand`` they are the returns as they are.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from euchre.actions import ACTIONS, EUCHRE_ACTIONS, NAPOLEON_BIDS, NUM_ACTIONS, Action, Kind
from euchre.cards import CARDS, NUM_ALL_TRUMPS, NUM_TRUMPS, Card, deck_cards, face, trump_letter
from euchre.envs.observation import card_slots, sister_bid_codes
from euchre.errors import IllegalActionError
from euchre.game import Game
from euchre.rules import Rules
from euchre.state import EUCHRE_PHASES, Phase, State
from euchre.view import PlayerView

__all__ = ["GAME_NAME", "PARAMETERS", "SWITCHES", "HORIZONS", "EuchreGame", "EuchreState", "EuchreObserver",
           "rules_from_params", "game_string", "deal_length", "deal_actions", "state_from_engine", "resampler",
           "num_actions", "hand_bound"]

GAME_NAME = "python_euchre"

_AMERICAN = Rules()
_FLOAT_FIELDS = frozenset({"duration"})
"""Fields of :class:`Rules` that take a number of minutes (an OpenSpiel double: write ``20.0``)."""


def _switch_default(name: str) -> bool | int | float | str:
    value = getattr(_AMERICAN, name)
    if isinstance(value, bool):
        return value
    if name in _FLOAT_FIELDS:
        return -1.0
    if isinstance(value, str):
        return ""
    return -1


SWITCHES: dict[str, bool | int | float | str] = {f.name: _switch_default(f.name) for f in dataclasses.fields(Rules)}
"""One game parameter per field of :class:`Rules`, with its default. OpenSpiel hands a game every
parameter, the defaults filled in, so a default must mean "as the preset says": ``-1`` for a
number, ``""`` for ``loner_lead``, and for a true/false switch the American value. A switch set to
another value overrides the preset; a true/false switch set to the American value leaves the
preset's own value (``preset=british,canadian_loner=false`` is still British: start from
``preset=american`` and give the fields for such a combination, as :func:`game_string` does)."""

PARAMETERS: dict[str, bool | int | float | str] = {"preset": "american", "horizon": "hand", "max_hands": 100,
                                                   **SWITCHES}
"""Every parameter of ``python_euchre`` with its default."""

HORIZONS = ("hand", "game")
"""The episodes: one hand (the default), or one whole game."""
_DEAL = EUCHRE_PHASES
"""The phase slot of a chance node (the cards are being dealt): after the engine's phases."""
_PUBLIC_CODES = tuple(a for a in ACTIONS[:EUCHRE_ACTIONS] if a.kind not in (Kind.PLAY, Kind.DISCARD, Kind.GIVE))
"""The decisions that name no card (bids, take, defend alone, the offers): the ``bids`` slice."""
_PUBLIC_INDEX = {int(a): i for i, a in enumerate(_PUBLIC_CODES)}


def _still() -> float:
    """The clock of every engine game here: time stands still (a game is a function of its actions)."""
    return 0.0


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of a parameter dict (missing parameters take their defaults, see
    :data:`SWITCHES`); :class:`~euchre.errors.RulesError` for an invalid combination."""
    overrides = {}
    for name, default in SWITCHES.items():
        value = params.get(name, default)
        if value != default:
            overrides[name] = value
    return Rules.preset(str(params.get("preset", "american")), **overrides)


def game_string(rules: Rules, *, horizon: str = "hand", max_hands: int | None = None) -> str:
    """The ``pyspiel.load_game`` string of some rules: the preset's name if they are one, else
    ``american`` with every field that differs.

    >>> game_string(Rules.preset("british"))
    'python_euchre(preset=british)'
    >>> game_string(Rules(stick_the_dealer=True, dealer_may_discard_up_card=False))
    'python_euchre(preset=american,dealer_may_discard_up_card=false,stick_the_dealer=true)'
    """
    name = rules.preset_name()
    params: dict[str, Any] = {"preset": name or "american"}
    if name is None:
        for field, value in sorted(rules.diff().items()):
            if value is not None:  # an ending cleared by another ending (Rules.preset clears it again)
                params[field] = float(value) if field in _FLOAT_FIELDS else value
    if horizon != "hand":
        params["horizon"] = horizon
    if max_hands is not None:
        params["max_hands"] = max_hands
    text = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items())
    return f"{GAME_NAME}({text})"


def deal_length(rules: Rules) -> int:
    """An upper bound on the decisions of one deal: the ace-no-face offers, the farmer's offer and
    three cards, two rounds of bidding, the take or the Joker's call, the discard, two defenders,
    two calls for best (a gift and a discard each) and the tricks. A hand cancelled by a misdeal
    ends after its offers and its redeal has none, so it is also the bound of a hand. A sister
    game: one bid a seat, the naming of trump, Bid Euchre's moon gift and discard, the tricks."""
    n = rules.players
    if rules.sister_game is not None:
        return n + 1 + 2 + rules.hand_size * n
    return n + 4 + 2 * n + 2 + 1 + 2 + 4 + rules.hand_size * n


def num_actions(rules: Rules) -> int:
    """The action space of ``rules``: Euchre's codes (``EUCHRE_ACTIONS``, 119) for every rule set of
    Euchre, so its layouts never change; every code (``NUM_ACTIONS``, 180) for a sister game."""
    return EUCHRE_ACTIONS if rules.sister_game is None else NUM_ACTIONS


def hand_bound(rules: Rules) -> float:
    """The largest return of one hand (``horizon=hand``), either sign: Euchre's largest score;
    Hasenpfeffer twice its tricks (the makers lose the bid, the defenders score the rest); Bid
    Euchre a failed moon and the defenders' tricks; Napoleon a Blücher paid by every other seat.

    >>> hand_bound(Rules()), hand_bound(Rules.preset("bid-euchre")), hand_bound(Rules.preset("napoleon", players=7))
    (4.0, 18.0, 240.0)
    """
    if rules.auction:
        return 2.0 * rules.hand_size
    if rules.bid_euchre:
        return float(rules.moon_points + rules.hand_size)
    if rules.napoleon:
        return float(_BLUCHER * (rules.players - 1))
    return float(max(rules.make_points, rules.march_points, rules.loner_march_points, rules.euchre_points,
                     rules.loner_euchre_points, rules.lone_defender_euchre_points, rules.super_euchre_points))


_BLUCHER = 40
"""What Napoleon's Blücher wins or loses from each other seat (RULES-FAMILY.md 16), the largest payment."""


def _chance_deck(rules: Rules) -> tuple[int, ...]:
    """The chance outcomes of a card, one entry a copy: the deck's ids; the double deck's 24
    faces, each twice (a dealt face is the card, whichever copy it is)."""
    cards = tuple(int(c) for c in deck_cards(rules.deck))
    return cards + cards if rules.double_deck else cards


def _dealt(rules: Rules) -> int:
    """The cards a deal hands out as chance outcomes: every seat's, then the up card (Euchre)."""
    return rules.hand_size * rules.players + (1 if rules.has_up_card else 0)


@dataclass(frozen=True)
class _Config:
    """What every state of a game shares (immutable; a clone shares it)."""

    rules: Rules
    horizon: str
    max_hands: int
    deck: tuple[int, ...]
    deal_length: int

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Euchre (the euchre package's engine, every preset and house rule, the sister games)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


class EuchreGame(pyspiel.Game):
    """``python_euchre``: one hand (``horizon=hand``) or one whole game (``horizon=game``) of some
    :class:`Rules`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        rules = rules_from_params(params)
        horizon = str(params["horizon"])
        max_hands = int(params["max_hands"])
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, got {horizon!r}")
        if horizon == "game":
            if rules.duration is not None:
                raise ValueError("a timed game ends by the clock, which is no game action: use horizon=hand, "
                                 "or a target or deals ending")
            if max_hands < 1:
                raise ValueError(f"max_hands must be at least 1, got {max_hands}")
        deck = _chance_deck(rules)
        length = deal_length(rules)
        bound = hand_bound(rules) if horizon == "hand" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(rules),
            max_chance_outcomes=max(max(deck) + 1, rules.players),
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length if horizon == "hand" else length * max_hands,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.config = _Config(rules, horizon, max_hands, deck, length)

    @property
    def rules(self) -> Rules:
        """The rules played."""
        return self.config.rules

    def new_initial_state(self) -> EuchreState:
        """The state before the deal."""
        return EuchreState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> EuchreObserver:
        """The observer of ``iig_obs_type`` (default: the current observation, no perfect recall)."""
        return EuchreObserver(self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                              params)


class _Episode:
    """The engine side of a state: the deal in progress, then an engine :class:`Game` whose last
    hand is the one being played (or the last one finished). Copied with the engine's cheap
    ``copy`` when OpenSpiel clones a state."""

    __slots__ = ("cfg", "game", "dealer", "cards", "after_misdeal", "dealing", "over", "deal_start", "length")

    def __init__(self, cfg: _Config) -> None:
        self.cfg = cfg
        self.game: Game | None = None
        self.dealer = -1
        self.cards: list[int] = []
        self.after_misdeal = False
        self.dealing = True
        self.over = False
        self.deal_start = 1
        """The index in the history of the first card of the current deal."""
        self.length = 0
        """Actions applied so far (chance ones included)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Episode:
        e = _Episode.__new__(_Episode)
        e.cfg = self.cfg
        e.game = self.game.copy() if self.game is not None else None
        e.dealer = self.dealer
        e.cards = self.cards[:]
        e.after_misdeal = self.after_misdeal
        e.dealing = self.dealing
        e.over = self.over
        e.deal_start = self.deal_start
        e.length = self.length
        return e

    def hand(self) -> State:
        assert self.game is not None
        return self.game.hands[-1]

    def view(self, seat: int | None) -> PlayerView | None:
        """The view of ``seat`` (``None``: a spectator) of the hand being played or just finished;
        ``None`` while cards are dealt."""
        if self.dealing or self.game is None:
            return None
        return self.game.view(seat)

    def apply(self, action: int) -> None:
        """Apply one action (a chance outcome while dealing); an action that is not legal here
        raises :class:`IllegalActionError` and changes nothing, so a caller that catches it can go on."""
        cfg = self.cfg
        rules = cfg.rules
        if self.dealing:
            if self.dealer < 0:
                if not 0 <= action < rules.players:
                    raise IllegalActionError(f"chance outcome {action} is no seat to deal: the dealer is a seat "
                                             f"from 0 to {rules.players - 1}")
                self.length += 1
                self.dealer = action
                return
            if cfg.deck.count(action) <= self.cards.count(action):
                raise IllegalActionError(f"chance outcome {action} is no card left to deal "
                                         f"({len(self.cards)} dealt of {_dealt(rules)})")
            self.length += 1
            self.cards.append(action)
            if len(self.cards) == _dealt(rules):
                self._deal()
            return
        assert self.game is not None
        game = self.game
        hand = game.state
        game.push(Action.from_code(action))  # (raises, changing nothing, if not legal)
        self.length += 1
        if not hand.is_over:
            return
        placeholder = game.hands.pop() if game.hands[-1] is not hand else None
        if cfg.horizon == "hand":
            done = not hand.misdealt
        else:
            done = game.is_over or len(game.hands) >= cfg.max_hands
        if done or placeholder is None:
            self.over = True
            return
        # The engine dealt the next hand from its own seed: only its dealer is kept (the rotation, or
        # the same dealer after a misdeal); the cards are chance outcomes.
        self.dealer = placeholder.dealer
        self.after_misdeal = placeholder.after_misdeal
        self.cards = []
        self.dealing = True
        self.deal_start = self.length

    def _deal(self) -> None:
        rules = self.cfg.rules
        n = rules.players
        hands: list[list[int]] = [[] for _ in range(n)]
        for k, c in enumerate(self.cards[:rules.hand_size * n]):
            hands[(self.dealer + k) % n].append(c)
        up = self.cards[-1] if rules.has_up_card else None
        hand = State(rules, dealer=self.dealer, hands=hands, up_card=up, after_misdeal=self.after_misdeal)
        if self.game is None:
            self.game = Game(rules, seed=0, dealer=self.dealer, clock=_still, deals=[hand.deal])
        else:
            self.game.hands.append(hand)
        self.dealing = False
        self.cards = []

    def returns(self) -> list[float]:
        rules = self.cfg.rules
        n = rules.players
        if not self.over:
            return [0.0] * n
        assert self.game is not None
        if self.cfg.horizon == "hand":
            points = self.game.state.points
            assert points is not None
            if rules.napoleon:  # each pays each: the points are zero-sum as scored
                return [float(points[rules.side_of(s)]) for s in range(n)]
            x = [float(p) for p in points]
        else:
            x = [1.0 if side in self.game.winners else 0.0 for side in range(rules.sides)]
        total = sum(x)
        k = rules.sides - 1
        return [x[rules.side_of(s)] - (total - x[rules.side_of(s)]) / k for s in range(n)]


class EuchreState(pyspiel.State):
    """A state of ``python_euchre``: a node of the deal (chance), a decision of the engine's seat
    to act, or the end."""

    def __init__(self, game: EuchreGame) -> None:
        super().__init__(game)
        self._ep = _Episode(game.config)

    # --- the OpenSpiel interface ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        ep = self._ep
        if ep.over:
            return pyspiel.PlayerId.TERMINAL
        if ep.dealing:
            return pyspiel.PlayerId.CHANCE
        return ep.hand().to_act

    def _legal_actions(self, player: int) -> list[int]:
        """The engine's legal actions, as their codes."""
        return sorted(int(a) for a in self._ep.hand().legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the seats (the dealer), then over the cards not yet dealt (the double
        deck: over its copies, so a face with both copies left is twice as likely)."""
        ep = self._ep
        if ep.dealer < 0:
            n = ep.cfg.rules.players
            return [(s, 1.0 / n) for s in range(n)]
        left: dict[int, int] = {}
        for c in ep.cfg.deck:
            left[c] = left.get(c, 0) + 1
        for c in ep.cards:
            left[c] -= 1
        total = sum(left.values())
        return [(c, k / total) for c, k in left.items() if k > 0]

    def _apply_action(self, action: int) -> None:
        self._ep.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._ep.dealer < 0:
                return f"dealer {action}"
            return f"deal {Card(action)}"
        return str(Action.from_code(action))

    def is_terminal(self) -> bool:
        return self._ep.over

    def returns(self) -> list[float]:
        """Per seat, its side's result less the mean of the others' (zero-sum); 0 before the end."""
        return self._ep.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EuchreState:
        """A state ``player_id`` cannot tell from this one, the cards it has not seen dealt at
        random by the engine's :meth:`PlayerView.resample` (what OpenSpiel's IS-MCTS calls by
        default; seeded from ``probability_sampler``)."""
        seed = int(probability_sampler() * 2**26) << 26 | int(probability_sampler() * 2**26)
        return self.resample(player_id, random.Random(seed))

    def __str__(self) -> str:
        ep = self._ep
        if ep.game is None:
            head = f"dealing: dealer {ep.dealer}" if ep.dealer >= 0 else "dealing: no dealer yet"
            return f"{head}; cards {' '.join(str(CARDS[c]) for c in ep.cards)}"
        game = ep.game
        hand = game.state
        text = (f"deal {len(game.hands) - 1}, score {' '.join(map(str, game.scores))}; {hand.deal}; "
                f"actions {', '.join(f'{s}:{a}' for s, a in zip(hand.seats, hand.history, strict=True))}")
        if ep.dealing:
            text += f"; dealing: dealer {ep.dealer}, cards {' '.join(str(CARDS[c]) for c in ep.cards)}"
        return text

    # --- the engine behind it -------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._ep.cfg.rules

    def view(self, seat: int | None) -> PlayerView | None:
        """The engine's view of ``seat`` (``None``: a spectator) of the current hand, ``None``
        while cards are dealt: everything an observation of this state is built from."""
        return self._ep.view(seat)

    def engine_state(self) -> State | None:
        """The engine's hand being played (or just finished), ``None`` before the first deal is
        complete. It holds every card: for tests and tools, never for a player's observation."""
        return self._ep.hand() if self._ep.game is not None else None

    def resample(self, player: int, rng: random.Random) -> EuchreState:
        """A state with the same information state for ``player``, the cards it has not seen
        redealt by :meth:`PlayerView.resample`; the deals before the current one are kept as they
        were (they hold nothing that matters to what follows)."""
        view = self._ep.view(player)
        if view is None or self._ep.over:
            raise ValueError("resampling needs a decision node of a dealt hand")
        redeal = self._ep.hand().after_misdeal
        for _ in range(_REDEAL_TRIES):
            sample: State | None = view.resample(rng)
            if sample is not None and sample.after_misdeal != redeal:
                sample = _as_redeal(sample, view) if redeal else None
            if sample is not None:
                return _rebuild(self.get_game(), self.history()[:self._ep.deal_start], sample)
        raise ValueError("no redeal after a misdeal is consistent with this view")


_REDEAL_TRIES = 50
_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(PlayerView) if f.name not in ("scores", "hand_number"))
"""The fields of a view that a hand alone decides (the score and the deal's number are the game's)."""


def _as_redeal(sample: State, view: PlayerView) -> State | None:
    """A sample that :meth:`PlayerView.resample` drew as a first deal, played as the redeal after a
    misdeal it is (the view of a hand does not say that the deal before it was cancelled, which
    its players saw): the same cards and actions without the ace-no-face offers (a redeal has
    none); ``None`` unless the seat's view of it is ``view``."""
    rules = sample.rules
    first = State.from_deal(rules, sample.deal, after_misdeal=sample.after_misdeal)
    redeal = State.from_deal(rules, sample.deal, after_misdeal=True)
    for a in sample.history:
        offered = first.phase is Phase.MISDEAL_OFFER
        first.push(a)
        if not offered:
            if a not in redeal.legal_actions():
                return None
            redeal.push(a)
    mine = PlayerView.of(redeal, view.seat)
    if any(getattr(mine, name) != getattr(view, name) for name in _VIEW_FIELDS):
        return None
    return redeal


def deal_actions(hand: State) -> list[int]:
    """The chance actions that deal ``hand``'s cards (the dealer's outcome excluded): the k-th
    card to seat ``(dealer + k) % players``, then the up card (none in the sister games); the
    double deck's cards as their faces."""
    deal = hand.deal
    n = hand.n
    size = hand.rules.hand_size
    cards = [int(face(deal.hands[(deal.dealer + k) % n][k // n])) for k in range(size * n)]
    return cards + ([] if deal.up_card is None else [int(deal.up_card)])


def _rebuild(game: EuchreGame, prefix: list[int], hand: State) -> EuchreState:
    s = game.new_initial_state()
    for a in prefix:
        s.apply_action(a)
    for a in deal_actions(hand):
        s.apply_action(a)
    for a in hand.history:
        s.apply_action(int(a))
    return s


def state_from_engine(game: EuchreGame, hand: State) -> EuchreState:
    """The ``python_euchre`` state of an engine hand (the first deal of an episode: not a redeal
    after a misdeal): its dealer, its cards, its actions."""
    if hand.after_misdeal:
        raise ValueError("a redeal after a misdeal has a cancelled deal before it: build it from that deal")
    if hand.rules != game.rules:
        raise ValueError("the hand is played under other rules than the game's")
    return _rebuild(game, [hand.dealer], hand)


def resampler(rng: random.Random) -> Callable[[EuchreState, int], EuchreState]:
    """A resampler for ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``, drawing
    from ``rng`` (a seeded search)."""
    def resample(state: EuchreState, player: int) -> EuchreState:
        return state.resample(player, rng)
    return resample


# --- observations -----------------------------------------------------------------------------------------
class EuchreObserver:
    """The observer of ``python_euchre`` (OpenSpiel's ``PyObserver`` interface): a flat tensor with
    named slices (``dict``) and a string, both built from one :class:`PlayerView`: the seat's
    (``private_info=SINGLE_PLAYER``, the default) or a spectator's (``private_info=NONE``). Seats,
    sides and cards are absolute (cards in id order of the rules' deck); the layout is in
    ``docs/rl.md``. ``perfect_recall=True`` adds the hand's action history (the information state).
    A sister game has a layout of its own (no up card; the auction, the bidder and the high bid;
    every phase; Napoleon's trump without bowers), sized by its seats, pack and tricks; the double
    deck's two copies of a card share its slot, which counts them."""

    def __init__(self, cfg: _Config, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations are built from one seat's view: every player's private cards "
                             "(private_info=ALL_PLAYERS) are not available")
        self.cfg = cfg
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        rules = cfg.rules
        self.sister = rules.sister_game is not None
        pieces = self._sister_pieces(rules) if self.sister else self._euchre_pieces(cfg)
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(total, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def _euchre_pieces(self, cfg: _Config) -> list[tuple[str, tuple[int, ...]]]:
        """The slices of Euchre's tensor (every rule set of Euchre), in order."""
        rules = cfg.rules
        n, d, sides = rules.players, len(cfg.deck), rules.sides
        self.card_index = {c: i for i, c in enumerate(cfg.deck)}
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.private:
            pieces += [("player", (n,)), ("hand", (d,)), ("discard", (d,)), ("farmer_cards", (2, d))]
        if self.public:
            pieces += [
                ("phase", (EUCHRE_PHASES + 1,)), ("dealer", (n,)), ("to_act", (n,)), ("up_card", (d,)),
                ("flags", (3,)), ("trump", (NUM_TRUMPS,)), ("maker", (n,)), ("sitting_out", (n,)),
                ("lone_defender", (n,)), ("leader", (n,)), ("trick", (n, d)), ("played", (n, d)),
                ("tricks_won", (n,)), ("bids", (n, len(_PUBLIC_CODES))), ("gifts", (2, n + 2 * d)),
                ("misdeal", (n + d,)), ("farmer", (n,)), ("points", (sides,)), ("scores", (sides,)),
                ("hand_number", (1,)),
            ]
            if self.perfect_recall:
                pieces.append(("history", (cfg.deal_length, n + 1 + EUCHRE_ACTIONS)))
        return pieces

    def _sister_pieces(self, rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
        """The slices of a sister game's tensor, in order, sized by its rules."""
        n, sides = rules.players, rules.sides
        cards = card_slots(rules)
        d = len(cards)
        self.card_index = {c: i for i, c in enumerate(cards)}
        self.bid_index = {code: i for i, code in enumerate(sister_bid_codes(rules))}
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.private:
            pieces += [("player", (n,)), ("hand", (d,))]
        if self.public:
            pieces += [
                ("phase", (len(Phase) + 1,)), ("dealer", (n,)), ("to_act", (n,)), ("trump", (NUM_ALL_TRUMPS,)),
                ("maker", (n,)), ("flags", (2,)), ("high_bid", (1,)), ("bidder", (n,)), ("sitting_out", (n,)),
                ("leader", (n,)), ("trick", (n, d)), ("played", (n, d)), ("tricks_won", (n,)),
                ("bids", (n, len(self.bid_index))),
            ]
            if rules.bid_euchre:
                pieces.append(("gifts", (1, n + 2 * d)))
            pieces += [("points", (sides,)), ("scores", (sides,)), ("hand_number", (1,))]
            if self.perfect_recall:
                pieces.append(("history", (deal_length(rules), n + 1 + NUM_ACTIONS)))
        return pieces

    def _view(self, state: EuchreState, player: int) -> PlayerView | None:
        return state.view(player if self.private else None)

    def set_from(self, state: EuchreState, player: int) -> None:
        """Fill :attr:`tensor` (and so :attr:`dict`) with ``state`` as ``player`` knows it."""
        self.tensor.fill(0)
        t = self.dict
        ep = state._ep
        view = self._view(state, player)
        if "player" in t:
            t["player"][player] = 1
        if view is None:  # dealing: only who deals and the score are known
            if self.public:
                t["phase"][len(Phase) if self.sister else _DEAL] = 1
                if ep.dealer >= 0:
                    t["dealer"][ep.dealer] = 1
                if ep.game is not None:
                    t["scores"][:] = ep.game.scores
                    t["hand_number"][0] = len(ep.game.hands)
            return
        if self.sister:
            self._set_sister(view, player)
            return
        ci = self.card_index
        n = view.rules.players
        if self.private:
            for c in view.hand:
                t["hand"][ci[c]] = 1
            if view.discard is not None:
                t["discard"][ci[view.discard]] = 1
            for row, cards in enumerate((view.farmer_gave, view.farmer_took)):
                for c in cards:
                    t["farmer_cards"][row, ci[c]] = 1
        if not self.public:
            return
        t["phase"][view.phase] = 1
        t["dealer"][view.dealer] = 1
        for name in ("to_act", "maker", "lone_defender", "leader", "farmer"):
            seat = getattr(view, name)
            if seat >= 0:
                t[name][seat] = 1
        assert view.up_card is not None  # the OpenSpiel game refuses Hasenpfeffer
        t["up_card"][ci[view.up_card]] = 1
        t["flags"][:] = (view.up_card_taken, view.dealer_discarded, view.alone)
        if view.trump is not None:
            t["trump"][view.trump] = 1
        for seat in view.sitting_out:
            t["sitting_out"][seat] = 1
        for seat, c in view.trick:
            t["trick"][seat, ci[c]] = 1
        for trick in view.tricks:
            for seat, c in trick.plays:
                t["played"][seat, ci[c]] = 1
        t["tricks_won"][:] = view.tricks_won
        for seat, a in view.actions:
            if a is not None and a in _PUBLIC_INDEX:
                t["bids"][seat, _PUBLIC_INDEX[a]] += 1
        for row, (giver, _, card, buried) in enumerate(view.gifts):
            t["gifts"][row, giver] = 1
            if card is not None:
                t["gifts"][row, n + ci[card]] = 1
            if buried is not None:
                t["gifts"][row, n + len(ci) + ci[buried]] = 1
        if view.misdeal >= 0:
            t["misdeal"][view.misdeal] = 1
            for c in view.misdeal_hand:
                t["misdeal"][n + ci[c]] = 1
        self._set_end(view, n)

    def _set_end(self, view: PlayerView, n: int) -> None:
        """The slices every game's tensor ends with: the hand's points, the scores, the hand's
        number and (perfect recall) the action history."""
        t = self.dict
        if view.points is not None:
            t["points"][:] = view.points
        t["scores"][:] = view.scores
        t["hand_number"][0] = view.hand_number
        if "history" in t:
            h = t["history"]
            for i, (seat, a) in enumerate(view.actions):
                h[i, seat] = 1
                h[i, n if a is None else n + 1 + a] = 1

    def _set_sister(self, view: PlayerView, player: int) -> None:
        """Fill the tensor of a sister game's view (``set_from`` past the deal)."""
        t = self.dict
        ci = self.card_index
        n = view.rules.players
        if self.private:
            for c in view.hand:
                t["hand"][ci[face(c)]] += 1
        if not self.public:
            return
        t["phase"][view.phase] = 1
        t["dealer"][view.dealer] = 1
        for name in ("to_act", "maker", "bidder", "leader"):
            seat = getattr(view, name)
            if seat >= 0:
                t[name][seat] = 1
        if view.trump is not None:
            t["trump"][view.trump] = 1
        t["flags"][:] = (view.alone, view.forced_bid)
        t["high_bid"][0] = view.bid
        for seat in view.sitting_out:
            t["sitting_out"][seat] = 1
        for seat, c in view.trick:
            t["trick"][seat, ci[face(c)]] = 1
        for trick in view.tricks:
            for seat, c in trick.plays:
                t["played"][seat, ci[face(c)]] += 1
        t["tricks_won"][:] = view.tricks_won
        for seat, a in view.actions:
            if a is not None and a.is_bid:
                t["bids"][seat, self.bid_index[a]] += 1
        if "gifts" in t:
            for giver, _, card, buried in view.gifts[:1]:  # Bid Euchre's moon: one gift at most
                t["gifts"][0, giver] = 1
                if card is not None:
                    t["gifts"][0, n + ci[face(card)]] = 1
                if buried is not None:
                    t["gifts"][0, n + len(ci) + ci[face(buried)]] = 1
        self._set_end(view, n)

    def string_from(self, state: EuchreState, player: int) -> str:
        """``state`` as ``player`` knows it, in words (the action history with perfect recall)."""
        ep = state._ep
        view = self._view(state, player)
        head = [f"p{player}"] if self.private else []
        if view is None:
            if not self.public:
                return " | ".join(head + ["dealing"])
            parts = head + ["dealing", f"dealer {ep.dealer}" if ep.dealer >= 0 else "no dealer yet"]
            if ep.game is not None:
                parts.append(f"score {' '.join(map(str, ep.game.scores))}")
            return " | ".join(parts)
        return " | ".join(head + _describe(view, self.private, self.public, self.perfect_recall))


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _describe(view: PlayerView, private: bool, public: bool, perfect_recall: bool) -> list[str]:
    """Every field of a view in words (the string twin of the tensor)."""
    parts: list[str] = []
    if private:
        parts.append(f"cards {_cards(view.hand)}")
        if view.discard is not None:
            parts.append(f"buried {view.discard}")
        if view.farmer_gave:
            parts.append(f"farmer gave {_cards(view.farmer_gave)} took {_cards(view.farmer_took)}")
    if not public:
        return parts
    parts += [f"deal {view.hand_number}", f"dealer {view.dealer}", f"phase {view.phase.name.lower()}"]
    if view.to_act >= 0:
        parts.append(f"to act {view.to_act}")
    if view.up_card is not None:
        parts.append(f"up {view.up_card}" + (" taken" if view.up_card_taken else "")
                     + (" discarded" if view.dealer_discarded else ""))
    elif view.bidder >= 0:  # a sister game: the auction's standing
        what = (str(NAPOLEON_BIDS[view.bid - 1]) if view.rules.napoleon
                else "moon" if view.rules.bid_euchre and view.bid > view.rules.hand_size else f"bid {view.bid}")
        parts.append(f"high {what} by {view.bidder}" + (" forced" if view.forced_bid else ""))
    if view.trump is not None:
        parts.append(f"trump {trump_letter(view.trump)} by {view.maker}" + (" alone" if view.alone else ""))
    if view.sitting_out:
        parts.append(f"out {' '.join(map(str, sorted(view.sitting_out)))}")
    if view.lone_defender >= 0:
        parts.append(f"defends alone {view.lone_defender}")
    if view.misdeal >= 0:
        parts.append(f"misdeal {view.misdeal} {_cards(view.misdeal_hand)}")
    if view.farmer >= 0:
        parts.append(f"farmer {view.farmer}")
    for giver, receiver, card, buried in view.gifts:
        parts.append(f"gift {giver}>{receiver} {card if card is not None else '??'}"
                     f" buried {buried if buried is not None else '??'}")
    if perfect_recall:
        parts.append("actions " + (", ".join(f"{s}:{'discard ??' if a is None else a}" for s, a in view.actions)
                                   or "-"))
    else:
        parts.append("bids " + (", ".join(f"{s}:{a}" for s, a in view.actions
                                          if a is not None and (a in _PUBLIC_INDEX or a.is_bid)) or "-"))
    for trick in view.tricks:
        parts.append(f"trick {' '.join(f'{s}:{c}' for s, c in trick.plays)} >{trick.winner}")
    if view.trick:
        parts.append(f"trick {' '.join(f'{s}:{c}' for s, c in view.trick)}")
    parts.append(f"won {' '.join(map(str, view.tricks_won))}")
    if view.points is not None:
        parts.append(f"points {' '.join(map(str, view.points))}")
    parts.append(f"score {' '.join(map(str, view.scores))}")
    return parts


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, EuchreGame)
