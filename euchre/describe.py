"""Actions in plain words, as a Euchre player says them ("lead the right bower", "order up").

Hints, game analysis and the table use these phrases; the trump-dependent names (the bowers,
the Joker) come from the engine's card tables, so a left bower is named as such only when it is
one.

Two kinds of phrase:

- :func:`action_words` / :func:`action_parts`: a choice, from the point of view of the seat that
  makes it ("pick up", "order up and go alone", "call hearts", "lead the right bower").
- :func:`move_words` / :func:`move_parts`: a move already made, as the table reports it
  ("West passes", "You call clubs", "North orders West to pick up the jack of hearts",
  "West picks up the jack of hearts", "East leads the right bower"); and
  :func:`hand_result_words` / :func:`hand_result_parts`: how a hand ended and who scored
  ("West and East were euchred (...): You and North score 2").

The ``*_parts`` functions give the sentence as pieces: text, and the :class:`~euchre.cards.Card`
and :class:`~euchre.cards.Suit` values in it, so that a front end can show cards its own way
(the terminal colours them); the ``*_words`` functions join the pieces into plain English.
A seat named ``You`` is addressed in the second person ("You pass", "You were euchred").
"""

from __future__ import annotations

from collections.abc import Sequence

from euchre.actions import DEFEND_ALONE, ORDER, ORDER_ALONE, PASS, TAKE, Action, Kind
from euchre.cards import EFFECTIVE, NO_TRUMP, Card, Suit, left_bower, right_bower, trump_suit, trump_word
from euchre.results import HandResult
from euchre.rules import HAND_SIZE, Rules
from euchre.state import Phase
from euchre.view import PlayerView

__all__ = ["card_words", "action_words", "action_parts", "move_words", "move_parts", "hand_result_words",
           "hand_result_parts", "side_words", "object_form", "joined", "Part", "missing_choice_parts", "trump_part",
           "missing_choice_words", "gift_parts", "gift_words", "result_labels"]

Part = str | Card | Suit
"""A piece of a phrase: plain text, a card or a suit."""

_MAKES_TRUMP = (Kind.ORDER, Kind.ORDER_ALONE, Kind.TAKE, Kind.CALL, Kind.CALL_ALONE)


def trump_part(trump: int) -> Part:
    """A trump index as a piece of a phrase: the :class:`~euchre.cards.Suit`, or the words
    ``"no trump"`` / ``"low"`` for a hand without trump (house rules ``no_trump``, ``low_no_trump``)."""
    suit = trump_suit(trump)  # (Napoleon's trump suits have no bowers, but are suits all the same)
    return suit if suit is not None else trump_word(trump)


def named_trump(trump: int, rules: Rules) -> Part:
    """:func:`trump_part` in the words of the game: Bid Euchre calls its hands without trump
    "high" and "low" (RULES-FAMILY.md 15)."""
    if rules.bid_euchre and trump >= NO_TRUMP:
        return "high" if trump == NO_TRUMP else "low"
    return trump_part(trump)


def card_words(card: Card, trump: int | None) -> str:
    """``"the right bower"``, ``"the left bower"``, ``"the Joker"``, ``"the ace of clubs"`` (no
    bowers in a hand without trump)."""
    if card.is_joker:
        return "the Joker"
    if trump is not None and trump < NO_TRUMP:
        if card == right_bower(trump):
            return "the right bower"
        if card == left_bower(trump):
            return "the left bower"
    return f"the {card.name()}"


def joined(parts: Sequence[Part], trump: int | None = None) -> str:
    """The pieces of a phrase as plain words (cards named, bowers as bowers under ``trump``)."""
    out = []
    for p in parts:
        if isinstance(p, Suit):
            out.append(p.word)
        elif isinstance(p, Card):
            out.append(card_words(p, trump))
        else:
            out.append(p)
    return "".join(out)


# --- choices ---------------------------------------------------------------------------------------
def action_parts(action: Action, view: PlayerView) -> list[Part]:
    """:func:`action_words` in pieces (the named suit and the card as values)."""
    dealer = view.seat is not None and view.seat == view.dealer
    if action == PASS:
        if view.phase is Phase.TAKE:
            return ["leave the up card"]
        if view.phase is Phase.DEFEND:
            return ["do not defend alone"]
        return ["pass"]
    if action == ORDER:
        return ["pick up" if dealer else "order up"]
    if action == ORDER_ALONE:
        return ["pick up and go alone" if dealer else "order up and go alone"]
    if action == TAKE:
        return ["pick up"]
    if action == DEFEND_ALONE:
        return ["defend alone"]
    kind = action.kind
    if kind is Kind.MISDEAL:
        return ["call a misdeal (ace, no face)"]
    if kind is Kind.KEEP:
        return ["keep your hand"]
    if kind is Kind.FARMER:
        return ["claim the farmer's hand"]
    if kind is Kind.DISCARD and view.phase is Phase.FARMER_GIVE and action.card is not None:
        return ["give ", action.card, " to the kitty"]
    if kind is Kind.BID and view.rules.napoleon:
        return [action.describe()]
    if kind is Kind.BID:
        return [f"bid {_bid_tricks(action.tricks or 0)}"]
    if kind is Kind.MOON:
        return ["shoot the moon (every trick, alone)"]
    if kind is Kind.CALL and view.phase is Phase.NAME_TRUMP:
        assert action.trump is not None
        if action.trump >= NO_TRUMP:  # Bid Euchre's high and low
            order = "aces high" if action.trump == NO_TRUMP else "nines high"
            return [f"name {named_trump(action.trump, view.rules)} (no trump, {order})"]
        return ["name ", trump_part(action.trump), " trump"]
    if kind in (Kind.CALL, Kind.CALL_ALONE):
        assert action.trump is not None
        return ["call ", trump_part(action.trump), " alone" if kind is Kind.CALL_ALONE else ""]
    card = action.card
    assert card is not None
    if kind is Kind.DISCARD:
        return ["discard ", card]
    if kind is Kind.GIVE:
        return ["give ", card]
    return ["lead " if not view.trick else "play ", card]


def action_words(action: Action, view: PlayerView) -> str:
    """The action in words from the seat's point of view (the dealer picks up rather than
    orders up; the first card of a trick is led; the two-handed dealer who does not take the
    ordered card leaves it; a defender who passes does not defend alone)."""
    return joined(action_parts(action, view), view.trump)


# --- moves -----------------------------------------------------------------------------------------
def _is_you(name: str) -> bool:
    return name.strip().lower() == "you"


_IRREGULAR = {"go": "goes", "do": "does", "have": "has", "were": "was", "are": "is"}


def _conjugate(subject: str, verb: str, *, plural: bool = False) -> str:
    """``verb`` (base form, first word conjugated) for ``subject``: ``"passes"`` for West,
    ``"pass"`` for You or a partnership; ``"were"`` becomes ``"was"`` for one player."""
    if plural or _is_you(subject):
        return verb
    head, _, rest = verb.partition(" ")
    if head in _IRREGULAR:
        head = _IRREGULAR[head]
    elif head.endswith(("s", "sh", "ch", "x", "z")):
        head += "es"
    else:
        head += "s"
    return f"{head} {rest}" if rest else head


def object_form(name: str) -> str:
    """A name as the object of a verb (``you``, not ``You``)."""
    return "you" if _is_you(name) else name


def move_parts(view: PlayerView, index: int, names: Sequence[str]) -> list[Part]:
    """The move ``view.actions[index]`` as the table reports it, in pieces (see :func:`move_words`)."""
    seat, action = view.actions[index]
    name = names[seat]

    def says(verb: str) -> str:
        return f"{name} {_conjugate(name, verb)}"

    before = [a for _, a in view.actions[:index] if a is not None]
    if view.up_card is None:  # the auction games: bids, the trump named, cards played
        if action is not None and action.kind is Kind.BID and view.rules.napoleon:
            return [_napoleon_bid(name, action)]
        if action is not None and action.kind is Kind.BID:
            return [says("bid") + f" {_bid_tricks(action.tricks or 0)}"]
        if action is not None and action.kind is Kind.MOON:
            return [says("shoot") + " the moon"]
        if action is not None and action.kind is Kind.CALL:
            assert action.trump is not None
            if action.trump >= NO_TRUMP:  # Bid Euchre's high and low
                return [says("name") + " ", named_trump(action.trump, view.rules)]
            forced = view.forced_bid and not any(a.kind is Kind.BID for a in before)
            head = (says("hold") + " the Joker, so " + _conjugate(name, "bid") + " 3 tricks and "
                    + _conjugate(name, "name") + " ") if forced else says("name") + " "
            return [head, trump_part(action.trump), " trump"]
        if action is not None and action.kind is Kind.PASS:
            return [says("pass")]
    up: Card = view.up_card  # type: ignore[assignment]  # every other game turns a card up
    if action is None:  # another seat's discard: the card stays face down (rules section 9)
        if seat == view.farmer and not any(a.is_bid for a in before):  # the farmer's gift
            return [says("give") + " a card face down to the kitty"]
        return [says("discard") + " a card face down"]
    kind = action.kind
    if kind is Kind.MISDEAL:  # the caller's hand is shown to all (RULES-FAMILY.md 12.7)
        shown = " ".join(map(str, view.misdeal_hand))
        return [says("call") + f" a misdeal, showing {shown}: the same dealer deals again"]
    if kind is Kind.KEEP:  # seen by the offered seat alone
        return [says("keep") + (" the hand" if _is_you(name) else " their hand")]
    if kind is Kind.FARMER:
        return [says("claim") + " the farmer's hand (only nines and tens)"]
    if kind is Kind.DISCARD and seat == view.farmer and action.card is not None and not any(
            a.is_bid for a in before):
        return [says("give") + " ", action.card, " to the kitty"]
    if kind is Kind.PASS:
        if any(a.kind in _MAKES_TRUMP for a in before):
            if view.players == 2:  # the two-handed dealer declines the ordered card
                return [says("leave") + " ", up, " in the stock"]
            return [says("do") + " not defend alone"]
        return [says("pass")]
    alone = [" and " + _conjugate(name, "go") + " alone"] if action.alone else []
    if kind in (Kind.ORDER, Kind.ORDER_ALONE):
        dealer = view.dealer
        if seat == dealer:
            return [says("pick up") + " ", up, *alone]
        sits_out = action.alone and view.rules.partner(seat) == dealer
        if view.players == 2 or sits_out:  # the dealer may decline, or sits out and takes nothing
            return [says("order up") + " ", up, *alone]
        return [says("order") + f" {object_form(names[dealer])} to pick up ", up, *alone]
    if kind is Kind.TAKE:
        return [says("pick up") + " ", up]
    if kind is Kind.DEFEND_ALONE:
        return [says("defend") + " alone"]
    if kind in (Kind.CALL, Kind.CALL_ALONE):
        assert action.trump is not None
        if up.is_joker and not before:  # British: the dealer takes the turned-up Joker and names trump
            and_call = (", " if alone else " and ") + _conjugate(name, "call") + " "
            return [says("take") + " ", up, and_call, trump_part(action.trump), *alone]
        return [says("call") + " ", trump_part(action.trump), *alone]
    card = action.card
    assert card is not None
    if kind is Kind.DISCARD:
        return [says("discard") + " ", card]
    if kind is Kind.GIVE:  # call for best, seen by the giver and the receiver only
        return [says("give") + f" {object_form(names[view.rules.partner(seat) or 0])} ", card]
    active = view.players - len(view.sitting_out)
    plays = sum(1 for a in before if a.kind is Kind.PLAY)
    if plays == 0 and view.rules.napoleon and card.suit is not None:  # the first card fixes trump
        return [says("lead") + " ", card, ": ", card.suit, " are trump"]
    return [says("lead" if plays % active == 0 else "play") + " ", card]


def move_words(view: PlayerView, index: int, names: Sequence[str]) -> str:
    """The move ``view.actions[index]`` in words: ``"West passes"``, ``"You call clubs"``,
    ``"North orders West to pick up the jack of hearts"``, ``"West picks up the jack of hearts
    and goes alone"``, ``"East leads the right bower"``, ``"West discards a card face down"``."""
    _, action = view.actions[index]
    trump = view.trump if action is not None and action.kind in (Kind.PLAY, Kind.DISCARD, Kind.GIVE) else None
    return joined(move_parts(view, index, names), trump)


def gift_parts(view: PlayerView, index: int, names: Sequence[str]) -> list[Part]:
    """The call for best ``view.gifts[index]`` as this seat knows it (RULES-FAMILY.md 12.7), in
    pieces: ``"North gives you the ace of hearts"``, ``"You give West the ace of hearts"``, or for
    everyone else ``"North gives West a card"`` (given by the engine or chosen: nobody else can tell).
    """
    giver, receiver, card, _ = view.gifts[index]
    head = f"{names[giver]} {_conjugate(names[giver], 'give')} {object_form(names[receiver])} "
    return [head + "a card"] if card is None else [head, card]


def gift_words(view: PlayerView, index: int, names: Sequence[str]) -> str:
    """:func:`gift_parts` as text."""
    return joined(gift_parts(view, index, names), view.trump)


# --- the end of a hand -----------------------------------------------------------------------------
def side_words(view: PlayerView, side: int, names: Sequence[str]) -> tuple[str, bool]:
    """A side's name in words (``"You and North"``, ``"West"``) and whether it is plural."""
    seats = [names[s] for s in range(view.players) if view.side_of(s) == side]
    return " and ".join(seats), len(seats) > 1


def _tricks(n: int, size: int = HAND_SIZE) -> str:
    return f"all {size} tricks" if n == size else "no trick" if n == 0 else f"{n} trick" + ("s" if n != 1 else "")


def _napoleon_bid(name: str, action: Action) -> str:
    """A Napoleon bid as the table says it: "West bids 3", "West goes nap", "West bids misère"."""
    if action.tricks is not None and 2 <= action.tricks <= 4 and str(action).startswith("bid"):
        return f"{name} {_conjugate(name, 'bid')} {action.tricks}"
    word = str(action)
    if word == "nap":
        return f"{name} {_conjugate(name, 'go')} nap"
    return f"{name} {_conjugate(name, 'bid')} " + {"misere": "misère", "wellington": "Wellington",
                                                     "blucher": "Blücher"}[word]


_NAP_NAMES = ("2", "3", "misère", "4", "Nap", "Wellington", "Blücher")
"""Napoleon's bids by level, as results name them."""


def high_bid_words(view: PlayerView) -> str:
    """The highest bid so far in words (``"3 tricks"``, ``"the moon"``, ``"Nap"``, ``"misère"``);
    ``""`` before any."""
    if view.bidder < 0:
        return ""
    if view.rules.napoleon:
        named = _NAP_NAMES[view.bid - 1]
        return f"{named} tricks" if view.bid in (1, 2, 4) else named
    if view.moon:
        return "the moon"
    return _bid_tricks(view.bid)


def _bid_tricks(n: int) -> str:
    return f"{n} trick" + ("s" if n != 1 else "")


def _names_and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _scorers(view: PlayerView, names: Sequence[str]) -> str:
    assert view.points is not None
    gains = [(side, p) for side, p in enumerate(view.points) if p]
    if not gains:
        return "no one scores"
    if len(gains) > 1 and len({p for _, p in gains}) == 1 and all(  # cut-throat: each opponent scores
            len(view.rules.seats_of(side)) == 1 for side, _ in gains):
        each = [side_words(view, side, names)[0] for side, _ in gains]
        return f"{_names_and(each)} score {gains[0][1]} each"
    out = []
    for side, p in gains:
        who, plural = side_words(view, side, names)
        if p < 0:  # Hasenpfeffer: a set bid is lost
            out.append(f"{who} {_conjugate(who, 'lose', plural=plural)} {-p}")
        else:
            out.append(f"{who} {_conjugate(who, 'score', plural=plural)} {p}")
    return _names_and(out)


def hand_result_parts(view: PlayerView, names: Sequence[str]) -> list[Part]:
    """How a finished hand ended and who scored, in pieces (see :func:`hand_result_words`)."""
    if view.misdeal >= 0:
        who = names[view.misdeal]
        return [f"{who} called a misdeal: the deal is cancelled, no one scores, and "
                f"{object_form(names[view.dealer])} {_conjugate(names[view.dealer], 'deal')} again"]
    result = HandResult.of_view(view)
    if result.thrown_in and view.rules.auction:
        nxt = names[(view.dealer + 1) % view.players]
        return [f"everyone passed and the Joker was the unused card, so the hand is thrown in: no one "
                f"scores, and {object_form(nxt)} {_conjugate(nxt, 'deal')} next"]
    if result.thrown_in:
        nxt = names[(view.dealer + 1) % view.players]
        return [f"everyone passed, so the hand is thrown in: no one scores, and {object_form(nxt)} "
                f"{_conjugate(nxt, 'deal')} next"]
    assert view.trump is not None and result.maker is not None and result.maker_side is not None
    assert result.maker_tricks is not None
    maker = names[result.maker]
    side, taken = result.maker_side, result.maker_tricks
    loner = view.alone and view.players == 4  # the cut-throat maker is always alone: no news
    if loner:
        who, plural = maker, False
    else:
        who, plural = side_words(view, side, names)
    detail: list[Part] = [" (", named_trump(view.trump, view.rules)]
    if not loner and who != maker:
        detail.append(f", made by {object_form(maker)}")
    detail.append(f"; {_tricks(taken, view.rules.hand_size)})")
    going = ", going alone," if loner else ""
    if view.rules.napoleon:  # each for themselves: the bidder against the table
        level = result.bid or 1
        named = _NAP_NAMES[level - 1]
        what = f"{maker} made {named}" if result.made else f"{maker} failed at {named}"
        trump = ["; no trump" if level == 3 else "; ", *(() if level == 3 else (trump_part(view.trump), " trump"))]
        return [what, " (", _tricks(taken, view.rules.hand_size), *trump, "): " + _scorers(view, names)]
    if result.moon:  # Bid Euchre: every trick, alone
        detail[-1] = f"; {_tricks(taken, view.rules.hand_size)})"
        if result.made:
            what = f"{maker} shot the moon and took every trick"
        else:
            what = f"{maker} shot the moon and missed"
        return [what, *detail, ": " + _scorers(view, names)]
    if view.rules.bids_tricks:  # the bid made or set
        detail[-1] = f"; bid {result.bid}, {_tricks(taken, view.rules.hand_size)})"
        if result.made:
            what = f"{who} made the bid"
        else:
            what = f"{who} {_conjugate(who, 'were', plural=plural)} set"
        return [what, *detail, ": " + _scorers(view, names)]
    if result.march:
        what = f"{who}{going} marched"
    elif result.made:
        what = f"{who}{going} made it"
    else:
        was = _conjugate(who, "were", plural=plural)
        sup = "super-" if result.super_euchre else ""
        what = f"{who}{going} {was} {sup}euchred"
        if result.lone_defender is not None:
            what += f" by {object_form(names[result.lone_defender])} defending alone"
    return [what, *detail, ": " + _scorers(view, names)]


def hand_result_words(view: PlayerView, names: Sequence[str]) -> str:
    """A finished hand in words, saying who scored how much: ``"You and North made it (hearts,
    made by North; 3 tricks): You and North score 1"``, ``"North, going alone, marched (hearts;
    all 5 tricks): You and North score 4"``, ``"West and East were euchred (spades, made by East;
    2 tricks): You and North score 2"``, ``"everyone passed, so the hand is thrown in: ..."``."""
    return joined(hand_result_parts(view, names), view.trump)


# --- choices the rules take away --------------------------------------------------------------------
def missing_choice_parts(view: PlayerView) -> list[list[Part]]:
    """Why a choice a player might look for is not offered now, one sentence each, for the seat
    to act (nothing for anyone else): the rule that removes it ("As the dealer's partner you may
    order up only by going alone (Canadian loner)", "You must follow hearts: ...")."""
    if view.seat is None or view.seat != view.to_act or not view.legal_actions:
        return []
    r, seat = view.rules, view.seat
    out: list[list[Part]] = []
    alone_missing = not r.going_alone and r.players == 4
    if view.phase is Phase.BID1:
        if r.canadian_loner and seat == r.partner(view.dealer):
            out.append(["The dealer's partner may order up only by going alone (Canadian loner)."])
        if alone_missing:
            out.append(["Going alone is not allowed in these rules."])
    elif view.phase is Phase.BID2 and view.up_card is not None:
        if view.up_card.suit is not None:
            out.append(["The turned-down suit, ", view.up_card.suit, ", cannot be named."])
        if r.stick_the_dealer and seat == view.dealer:
            out.append(["Stick the dealer: everyone else passed, so you must name a trump."])
        if alone_missing:
            out.append(["Going alone is not allowed in these rules."])
    elif view.phase is Phase.AUCTION and r.bid_euchre and seat == view.dealer and view.bidder < 0:
        out.append(["The dealer is stuck: everyone else passed, so you must bid (no pass)."])
    elif view.phase is Phase.DISCARD:
        if not r.dealer_may_discard_up_card and view.up_card in view.hand:
            out.append(["These rules do not let you bury the card you picked up, ", view.up_card, "."])
    elif view.phase is Phase.PLAY and view.trick and len(view.legal_actions) < len(view.hand):
        assert view.trump is not None
        trump = int(view.trump)
        led = EFFECTIVE[trump][view.trick[0][1]]
        parts: list[Part] = ["You must follow the suit led, ", "trump" if led == trump else Suit(led), "."]
        left = left_bower(trump) if trump < NO_TRUMP else None
        if led != trump and left is not None and left in view.hand and left.suit == led:
            parts += [" Remember: ", left, " is a trump, not one of the ", Suit(led), "."]
        out.append(parts)
    return out


def missing_choice_words(view: PlayerView) -> list[str]:
    """:func:`missing_choice_parts` as plain sentences (cards named, bowers as bowers)."""
    trump = None if view.trump is None else int(view.trump)
    return [joined(p, trump) for p in missing_choice_parts(view)]


def result_labels(rules: Rules) -> dict[str, str]:
    """The words of the makers' record in this game (the rows of ``euchre simulate``'s and
    ``euchre arena``'s tables), by the keys of their statistics; a key missing from the result is
    a row the game has no use for (Hasenpfeffer and Napoleon have no lone hands).

    Euchre's words are its own (made, march, euchred, loner); the auction games' makers are the
    high bidders, who make or are set on their bid, whatever the number of tricks it was, and
    Bid Euchre's lone hand is the moon.

    >>> result_labels(Rules.preset("bid-euchre"))["made"]
    'bids made'
    """
    if not (rules.bids_tricks or rules.napoleon):
        return {"hands_made": "hands as makers", "made": "made", "marches": "marches",
                "euchred": "euchred (as makers)", "euchres": "euchres (as defenders)", "loners": "loners",
                "loner_marches": "loner marches", "bid_rate": "named trump (of hands)",
                "make_rate": "made (3+ tricks)", "euchred_rate": "euchred",
                "march_rate": f"marched ({rules.hand_size} tricks)", "loner_rate": "alone",
                "loner_success_rate": "alone and made"}
    every = f"every trick ({rules.hand_size})"
    out = {"hands_made": "bids won", "made": "bids made", "marches": f"took {every}",
           "euchred": "set (as bidders)", "euchres": "sets (as defenders)", "bid_rate": "won the bid (of hands)",
           "make_rate": "made the bid", "euchred_rate": "set", "march_rate": f"took {every}"}
    if rules.bid_euchre:
        out.update({"loners": "moons", "loner_marches": "moons made", "loner_rate": "shot the moon",
                    "loner_success_rate": "moon made"})
    return out
