"""The rules of a game, and how to play, in plain words for a new player.

:func:`rules_sections` says what a :class:`~euchre.rules.Rules` object means at the table:
every sentence is built from its fields, so a changed switch changes the words
(``stick_the_dealer=True`` adds that the dealer must name a trump). :func:`how_to_play_sections`
is the short general lesson for a first game. Both are what ``euchre rules`` prints and what the
browser's ``/learn`` page shows (through ``GET /api/rules``); no Python value (``None``,
``True``, a field name) ever appears in them.

>>> from euchre.rules import Rules
>>> any("must name a trump" in p for p in rules_in_words(Rules(stick_the_dealer=True)))
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from euchre.errors import RulesError
from euchre.rules import Rules

__all__ = ["Section", "rules_sections", "rules_in_words", "how_to_play_sections", "how_to_play",
           "preset_title", "sections_to_dicts", "rules_from_strings", "rules_payload"]


@dataclass(frozen=True)
class Section:
    """A titled group of paragraphs."""

    title: str
    paragraphs: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """``{"title": ..., "paragraphs": [...]}`` for JSON."""
        return {"title": self.title, "paragraphs": list(self.paragraphs)}


_PRESET_TITLES = {
    "american": "American Euchre",
    "british": "British Euchre",
    "long": "The long game",
    "timed": "Timed Euchre",
    "two-handed": "Two-handed Euchre",
    "cut-throat": "Cut-throat Euchre",
    "railroad": "Railroad Euchre",
    "hasenpfeffer": "Hasenpfeffer",
    "bid-euchre": "Bid Euchre",
    "bid-euchre-double": "Double-deck Bid Euchre",
    "napoleon": "Napoleon",
}

_NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


def preset_title(preset: str) -> str:
    """The name of a preset (or alias) as a heading: ``British Euchre``."""
    return _PRESET_TITLES.get(Rules.resolve_preset(preset), "Euchre")


def _said(title: str) -> str:
    """A title inside a sentence: ``the long game``, ``British Euchre``."""
    return "t" + title[1:] if title.startswith("The ") else title


def _points(n: int) -> str:
    """``1 point``, ``4 points``, ``no points``."""
    return "no points" if n == 0 else f"{n} point" if n == 1 else f"{n} points"


def _count(n: int, noun: str) -> str:
    """``five cards``, ``14 cards``, ``one hand``."""
    word = _NUMBER_WORDS.get(n, str(n)) if n != 0 else "no"
    return f"{word} {noun}" + ("" if n == 1 else "s")


def _minutes(minutes: float) -> str:
    """A duration as people say it: ``30 minutes``, ``1.5 minutes``, ``20 seconds``."""
    if minutes >= 1:
        text = f"{minutes:.2f}".rstrip("0").rstrip(".")
        return f"{text} minute" + ("" if text == "1" else "s")
    seconds = round(minutes * 60)
    if seconds < 1:
        return "less than a second"
    return f"{seconds} second" + ("" if seconds == 1 else "s")


def _ranks(deck: int) -> list[str]:
    """The plain ranks of a deck, high to low."""
    low = {20: ["10"], 24: ["10", "9"], 25: ["10", "9"], 32: ["10", "9", "8", "7"]}[deck]
    return ["ace", "king", "queen", "jack", *low]


def _listing(words: list[str]) -> str:
    """``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- the rules of one Rules object -------------------------------------------------------------------
def _players(r: Rules) -> Section:
    if r.bids_tricks:
        paras = ["Four players in two partnerships: partners sit opposite each other and score together. "
                 "Each hand, the side of the highest bidder (the makers) tries to take at least the tricks "
                 f"bid, of {_NUMBER_WORDS[r.hand_size]}; the other side (the defenders) tries to stop them."]
    elif r.players == 4:
        paras = ["Four players in two partnerships: partners sit opposite each other and score together. "
                 "Each hand, the side that names trump (the makers) tries to take at least three of the five "
                 "tricks; the other side (the defenders) tries to stop them."]
    elif r.players == 3:
        paras = ["Three players, each playing for themselves. In every hand the player who names trump (the "
                 "maker) plays alone against the other two, who play together for that hand but score "
                 "separately."]
    else:
        paras = ["Two players, each playing for themselves. The player who names trump (the maker) tries to "
                 "take at least three of the five tricks."]
    return Section("Players", tuple(paras))


def _cards(r: Rules) -> Section:
    ranks = _ranks(r.deck)
    low = ranks[4:]
    pack = {20: "20 cards: the ace, king, queen, jack and 10 of each suit",
            24: "24 cards: the ace, king, queen, jack, 10 and 9 of each suit",
            25: "25 cards: the ace, king, queen, jack, 10 and 9 of each suit, and one Joker",
            32: "32 cards: the ace, king, queen, jack, 10, 9, 8 and 7 of each suit"}[r.deck]
    trump_order = (["the Joker"] if r.has_joker else []) + [
        "the jack of trump (the right bower)", "the other jack of the same colour (the left bower)",
        "ace", "king", "queen", *low]
    paras = [
        f"The pack has {pack}. Clubs and spades are black, diamonds and hearts red.",
        f"In the trump suit the cards rank, from high to low: {_listing(trump_order)}. The left bower "
        "belongs to the trump suit for the whole hand: for following suit, for leading and for winning.",
    ]
    if r.has_joker:
        paras.append("The Joker is always the highest trump, whatever the trump suit; leading it is "
                     "leading trump.")
    paras.append(f"In the other suits the order is {_listing(ranks)}; the suit of the left bower has no jack "
                 "in that hand.")
    return Section("The cards", tuple(paras))


def _auction_sections(r: Rules) -> list[Section]:
    """Hasenpfeffer (RULES-FAMILY.md 14): the deal, the bidding, the play, the scoring and the end."""
    deal = Section("The deal", (
        "The first dealer is chosen at random; after every hand, thrown in or played, the deal passes to the left.",
        "Each player gets six cards, dealt in threes from the dealer's left. The last card stays face down: "
        "it is never used and never shown.",
    ))
    bidding = Section("Bidding", (
        "Starting left of the dealer and ending with the dealer, each player has one turn: pass, or bid "
        "a number of tricks from 1 to 6, higher than any bid so far. The highest bidder and their partner "
        "are the makers.",
        "If everyone passes, the player holding the Joker must bid 3 (everyone learns who holds it). If "
        "the Joker is the unused card, the hand is thrown in and the next dealer deals.",
        "The highest bidder names any suit as trump.",
    ))
    play = Section("Playing the tricks", (
        "The highest bidder leads the first trick.",
        "Each player in turn plays one card and must follow the suit led if possible: a trump lead is "
        "followed with any trump, the left bower and the Joker included, and the left bower never follows "
        "its printed suit. A player who cannot follow may play any card.",
        "The highest trump played wins the trick; if no trump was played, the highest card of the suit led "
        "wins. The winner leads the next trick, until all six tricks are played.",
    ))
    score = ["Makers who take at least the bid score one point for each trick they took; makers who take "
             "fewer lose the bid: their score goes down by it, and may go below 0."]
    score.append("The defenders score one point for each trick they took." if r.defenders_score_tricks
                 else "The defenders score nothing.")
    scoring = Section("Scoring", tuple(score))
    ending = Section("Winning the game", (
        f"The first side to reach {_points(r.target or 0)} alone on top wins the game. If the top scores "
        "are level, play goes on hand by hand until one side is ahead.",
        f"A side whose score falls to -{r.target} or below loses the game at once.",
    ))
    return [deal, bidding, play, scoring, ending]


def _bid_euchre_sections(r: Rules) -> list[Section]:
    """Bid Euchre (RULES-FAMILY.md 15): the deal, the bidding, the moon, the play, the scoring
    and the end."""
    size = r.hand_size
    low, top = r.bid_range
    double = ("Two packs of 24 are shuffled together: 48 cards, each card twice. Of two identical cards played "
              "to one trick, the one played first ranks higher. ") if r.double_deck else ""
    deal = Section("The deal", (
        "The first dealer is chosen at random; after every hand the deal passes to the left.",
        f"{double}Each player gets {_count(size, 'card')}, dealt in threes from the dealer's left: the whole "
        "pack is dealt, and no card is turned up.",
    ))
    bidding = Section("Bidding", (
        "Starting left of the dealer and ending with the dealer, each player has one turn: pass, bid a "
        f"number of tricks from {low} to {top}, higher than any bid so far, or shoot the moon: a bid to "
        "take every trick alone, which beats every other bid and which nothing beats.",
        "If the first three players pass, the dealer is stuck and may not pass: the dealer must bid.",
        "The highest bidder names trump: a suit (with the bowers as in Euchre), high (no trump, each "
        "suit from the ace down: ace, king, queen, jack, 10, 9) or low (no trump, each suit from the 9 up: "
        "9, 10, jack, queen, king, ace). The highest bidder and their partner are the makers.",
    ))
    moon = Section("Shooting the moon", (
        "After a moon names trump, the shooter's partner sits the hand out and first passes one card to the "
        "shooter: their highest trump (the game picks it), or, holding no trump or in high or low, a card "
        "of their choice. The shooter then discards one card face down and plays alone. Nobody else sees "
        "the card passed or the discard.",
    ))
    play = Section("Playing the tricks", (
        "The highest bidder leads the first trick.",
        "Each player in turn plays one card and must follow the suit led if possible: a trump lead is "
        "followed with any trump, the left bower included, and the left bower never follows its printed "
        "suit. A player who cannot follow may play any card.",
        "The highest trump played wins the trick; if no trump was played (always, in high and low), the "
        f"highest card of the suit led wins. The winner leads the next trick, until all {_count(size, 'trick')} "
        "are played.",
    ))
    scoring = Section("Scoring", (
        "Both sides score one point for each trick they took, except that makers who take fewer tricks than "
        "their bid lose the bid instead: their score goes down by it, and may go below 0.",
        f"A moon that takes every trick scores {r.moon_points} and the defenders nothing; a moon that misses "
        f"loses {r.moon_points}, and the defenders score their tricks.",
    ))
    ending = Section("Winning the game", (
        f"A side wins when it holds {_points(r.target or 0)} or more at the end of a hand in which it made its "
        "bid (the makers) or set the makers (the defenders), whatever the other side holds. Reaching the "
        "target on any other hand is not enough: play goes on.",
        f"A side whose score falls to -{r.target} or below loses the game at once.",
    ))
    return [deal, bidding, moon, play, scoring, ending]


def _napoleon_sections(r: Rules) -> list[Section]:
    """Napoleon (RULES-FAMILY.md 16): the players, the pack, the deal, the bids, the play, the
    payments and the end."""
    n = r.players
    pack = {24: "24 cards: the ace, king, queen, jack, 10 and 9 of each suit",
            28: "28 cards: the ace, king, queen, jack, 10, 9 and 8 of each suit",
            32: "32 cards: the ace, king, queen, jack, 10, 9, 8 and 7 of each suit",
            52: "the full 52 cards, ace down to 2 in each suit"}[r.deck]
    unused = r.deck - 5 * n
    players = Section("Players", (
        f"{_count(n, 'player').capitalize()}, each playing for themselves. Each hand, the highest bidder (Napoleon) "
        "plays alone against all the others.",
    ))
    cards = Section("The cards", (
        f"With {_count(n, 'player')} the pack has {pack} (three players: 24 cards, four: 28, five: 32, six or "
        "seven: 52). Every suit ranks ace, king, queen, jack, 10, 9 and on down: there is no Joker and no bower.",
    ))
    deal = Section("The deal", (
        "The first dealer is chosen at random; after every hand, thrown in or played, the deal passes to the left.",
        f"Each player gets five cards, three then two, from the dealer's left; the other {_count(unused, 'card')} "
        "are not used and nobody sees them.",
    ))
    bidding = Section("Bidding", (
        "Starting left of the dealer and ending with the dealer, each player has one turn: pass or bid higher "
        "than any bid so far. The bids, from the lowest: 2, 3 (tricks to take), misère (to take no trick at "
        "all), 4, Nap (all five), Wellington (all five, only over a Nap) and Blücher (all five, only over a "
        "Wellington).",
        "If everyone passes, the hand is thrown in and the next dealer deals.",
    ))
    play = Section("Playing the tricks", (
        "The highest bidder leads the first trick, and the suit of that first card is trump for the hand (in a "
        "misère there is no trump).",
        "Each player in turn plays one card and must follow the suit led if possible; a player who cannot "
        "follow may play any card, a trump or not. The highest trump played wins the trick; if no trump was "
        "played, the highest card of the suit led wins. The winner leads the next trick; all five tricks are "
        "played.",
    ))
    half = (" (a failed Nap costs only 5 a player; Wellington and Blücher in full)" if r.nap_half_loss else "")
    scoring = Section("Scoring", (
        "Each bid has a value: 2, 3 and 4 are worth 2, 3 and 4; misère 3; Nap 10; Wellington 20; Blücher 40.",
        f"A bidder who makes the bid is paid its value by every other player: the bidder scores the value times "
        f"{n - 1} and each other player loses it. A bidder who fails pays every other player the value instead"
        f"{half}. Scores may go below 0; every hand's points add up to nothing.",
    ))
    if r.deals is not None:
        end = (f"The game lasts {_count(r.deals, 'played hand')} (thrown-in hands do not count); the highest score "
               "wins. If the top scores are level, play goes on hand by hand until one player is ahead.")
    elif r.target is not None:
        end = (f"The first player to reach {_points(r.target)} alone on top wins the game; level leaders play on "
               "hand by hand.")
    else:
        end = (f"The game lasts {_minutes(r.duration or 0)}, read at the end of each hand; the highest score wins, "
               "level leaders playing on.")
    return [players, cards, deal, bidding, play, scoring, Section("Winning the game", (end,))]


def _deal(r: Rules) -> Section:
    kitty = r.deck - r.players * r.hand_size
    first = ("The first dealer is chosen at random; after every hand, thrown in or played, the deal passes "
             "to the left." if r.players > 2 else
             "The first dealer is chosen at random; after every hand, thrown in or played, the other player "
             "deals.")
    paras = [first,
             f"Each player gets {_count(r.hand_size, 'card')}. The other {_count(kitty, 'card')} are the kitty; "
             "its top card is turned face up for all to see: the up card."]
    if r.ace_no_face:
        paras.append("Ace, no face: before the bidding, each player holding no king, queen or jack"
                     + (" (nor the Joker)" if r.has_joker else "")
                     + " and at most one ace may, in turn from the dealer's left, call a misdeal or keep the "
                     "hand. A misdeal shows the caller's hand to all, and the same dealer deals again; the "
                     "cancelled deal scores nothing and does not count as a hand. The new deal has no such "
                     "offers.")
    if r.farmers_hand:
        paras.append("Farmer's hand: before the bidding" + (", after those offers" if r.ace_no_face else "")
                     + ", a player holding only nines and tens may say \"farmer\": they give three of their "
                     "cards face down to the kitty and take the three cards under the up card, which stays "
                     "where it is. Everyone learns the farmer held only nines and tens; only the farmer knows "
                     "the cards given and taken.")
    return Section("The deal", tuple(paras))


def _bidding(r: Rules) -> Section:
    paras: list[str] = []
    keep = ("it may be the card just picked up" if r.dealer_may_discard_up_card
            else "never the card just picked up")
    if r.players == 2:
        paras.append(
            "First round: the non-dealer may pass or order the up card, making its suit trump. If the "
            "non-dealer orders it, the dealer may take the up card (and discard one card face down) or leave "
            "it; either way its suit is trump. If the non-dealer passes, the dealer may pass or pick the up "
            f"card up, making its suit trump, and then discards one card face down ({keep}).")
        second = ("Second round, if both passed: the up card is turned face down. The non-dealer, then the "
                  "dealer, may pass or name another suit as trump (not the one turned down).")
    else:
        paras.append(
            "First round: starting with the player to the dealer's left and ending with the dealer, each "
            "player in turn may pass or accept the up card's suit as trump (\"order it up\"; the dealer "
            "\"picks it up\"). The first to accept ends the bidding: the dealer adds the up card to the hand "
            f"and discards one card face down ({keep}).")
        second = ("Second round, if everyone passed: the up card is turned face down, and again from the "
                  "dealer's left each player may pass or name another suit as trump (not the one turned "
                  "down). The first to name a suit makes it trump.")
    paras.append(second)
    if r.no_trump:
        low = " (or \"low\", no trump with the ranks reversed)" if r.low_no_trump else ""
        paras.append("No trump (a house rule): in the second round a player may call \"no trump\"" + low + " instead "
                     "of naming a suit. The hand is then played without trump: every suit ranks A K Q J 10 9"
                     + (" (in low 9 10 J Q K A, the 9 highest)" if r.low_no_trump else "") + ", each jack "
                     "stays in its own suit (there are no bowers), and the highest card of the suit led wins "
                     "each trick. Going alone is declared with the call, as with a suit, and the hand scores "
                     "as any other.")
    if r.stick_the_dealer:
        paras.append("Stick the dealer: the dealer may not pass in the second round, so the dealer must name "
                     "a trump if everyone passes twice" + (" (or call no trump)." if r.no_trump else "."))
    else:
        paras.append("If everyone passes in the second round too, the hand is thrown in: nobody scores and "
                     "the next dealer deals.")
    if r.canadian_loner:
        paras.append("Canadian loner: in the first round the dealer's partner may order up only by going "
                     "alone.")
    if r.has_joker:
        alone = " (and may go alone at that moment)" if r.going_alone else ""
        bury = "any card, the Joker included" if r.dealer_may_discard_up_card else "any card but the Joker"
        paras.append(f"If the up card is the Joker there is no bidding: the dealer names any suit as trump"
                     f"{alone}, takes the Joker and discards {bury}.")
    return Section("Making trump", tuple(paras))


def _alone(r: Rules) -> Section | None:
    if r.players != 4:
        return None
    if not r.going_alone:
        return Section("Going alone", ("Nobody may go alone: all four players play every hand.",))
    dealer_out = ("the dealer adds the up card to their hand before giving (no discard), so the up card may be "
                  "the card given" if r.call_for_best else "the up card stays in the kitty")
    paras = ["The player who makes trump may go alone, saying so with the bid (never later): the partner "
             "puts the cards down and sits the hand out. If the partner sitting out is the dealer and the up "
             f"card's suit was accepted, {dealer_out}, and its suit is trump all the same."]
    if r.call_for_best:
        who = ("The partner always chooses the card to give." if r.best_card_free else
               "The partner gives their highest trump (no choice: it is given for them); a partner holding no "
               "trump chooses any card.")
        paras.append("Call for best: after the bidding and the dealer's discard, a lone maker receives one card "
                     f"from the partner. {who} The lone maker, now holding six cards, discards one face down, the "
                     "card received included. A lone dealer who took the up card so discards twice. Everyone "
                     "learns that a card was passed and one discarded, but only the partner knows the card "
                     "given, and only the lone player knows it and the discard.")
    if r.defend_alone:
        after = "after the lone maker's call for best" if r.call_for_best else "after the dealer's discard"
        paras.append(f"Defend alone: against a lone maker, {after}, each defender in turn "
                     "from the dealer's left may declare to defend alone; the first who does plays without a "
                     "partner too" + (", and calls for the partner's best card in the same way." if r.call_for_best
                                      else "."))
    return Section("Going alone", tuple(paras))


def _play(r: Rules) -> Section:
    if r.players == 2:
        lead = "The non-dealer leads the first trick."
    else:
        lead = "The player to the dealer's left leads the first trick"
        if r.players == 4 and r.going_alone:
            if r.loner_lead == "loner_left":
                lead += ("; against a lone maker, the player to the maker's left leads instead (the next "
                         "player still in the hand).")
            else:
                lead += " (if that player sits the hand out, the next one to the left)."
        else:
            lead += "."
    trumps = "the left bower and the Joker included" if r.has_joker else "the left bower included"
    return Section("Playing the tricks", (
        lead,
        "Each player in turn plays one card and must follow the suit led if possible: a trump lead is "
        f"followed with any trump, {trumps}, and the left bower never follows its printed suit. A player who "
        "cannot follow may play any card.",
        "The highest trump played wins the trick; if no trump was played, the highest card of the suit led "
        "wins. The winner leads the next trick, until all five tricks are played.",
    ))


def _scoring(r: Rules) -> Section:
    paras: list[str] = []
    euchre_values: list[str] = []
    if r.players == 4:
        paras.append(f"The makers score {_points(r.make_points)} for three or four tricks and "
                     f"{_points(r.march_points)} for all five (a march).")
        if r.going_alone:
            paras.append(f"A lone maker who takes all five tricks scores {_points(r.loner_march_points)}; "
                         f"three or four tricks alone score the usual {_points(r.make_points)}.")
        euchre = (f"If the makers take fewer than three tricks they are euchred, and the defenders score "
                  f"{_points(r.euchre_points)}")
        if r.going_alone:
            same = r.loner_euchre_points == r.euchre_points
            euchre += (" (also when they euchre a lone maker)." if same else
                       f"; euchring a lone maker scores {_points(r.loner_euchre_points)}.")
        else:
            euchre += "."
        paras.append(euchre)
        if r.defend_alone:
            euchre_values.append("lone defender")
            paras.append(f"A lone defender who euchres the lone maker scores "
                         f"{_points(r.lone_defender_euchre_points)}; a lone maker's march still scores "
                         f"{_points(r.loner_march_points)}.")
        if r.super_euchre:
            euchre_values.append("super-euchre")
            paras.append(f"Super-euchre: makers who take no trick at all give the defenders "
                         f"{_points(r.super_euchre_points)}.")
    else:
        paras.append(f"The maker scores {_points(r.make_points)} for three or four tricks and "
                     f"{_points(r.march_points)} for all five (a march).")
        them = "each opponent scores" if r.players == 3 else "the other player scores"
        paras.append(f"If the maker takes fewer than three tricks, the maker is euchred and {them} "
                     f"{_points(r.euchre_points)}.")
        if r.super_euchre:
            euchre_values.append("super-euchre")
            paras.append(f"Super-euchre: a maker who takes no trick at all gives "
                         f"{'each opponent' if r.players == 3 else 'the other player'} "
                         f"{_points(r.super_euchre_points)}.")
    if euchre_values:
        paras.append("When more than one of these values fits a euchre, only the largest counts.")
    return Section("Scoring", tuple(paras))


def _ending(r: Rules) -> Section:
    who = "side" if r.players == 4 else "player"
    level = f"{who}s level on top"
    if r.tie_break:
        tie = f"If the top scores are level, play goes on hand by hand until one {who} is ahead."
    else:
        tie = f"If the top scores are level, the {level} share the win."
    paras: list[str] = []
    if r.target is not None:
        paras.append(f"The first {who} to reach {_points(r.target)} wins the game.")
        if r.players == 3:  # both defenders score on a euchre: two players may reach the target at once
            paras.append(f"If one hand brings more than one player to {r.target}, the higher score wins. " + tie)
    elif r.duration is not None:
        paras.append(f"The game lasts {_minutes(r.duration)}: the clock is read at the end of every hand "
                     "(a thrown-in hand too), and once the time is up the highest score wins. " + tie)
    else:
        assert r.deals is not None
        paras.append(f"The game lasts {_count(r.deals, 'played hand')} (a hand thrown in does not count); "
                     "then the highest score wins. " + tie)
    if r.is_match:
        paras.extend(_match_words(r, who))
    return Section("Winning the game", tuple(paras))


def _match_words(r: Rules, who: str) -> list[str]:
    """RULES-FAMILY.md 12.5 in words: the match, laps and slam."""
    if r.match_wins is not None:
        words = [f"This is a match: games are played one after another, and the first {who} to win "
                 f"{_count(r.match_wins, 'game')} takes the match."]
    else:
        assert r.match_games is not None
        words = [f"This is a match of {_count(r.match_games, 'game')}, all played; the {who} with the most "
                 "games won takes it, and a tie for the most adds one game at a time until it is broken."]
    words.append("The seats stay, each game starts at 0 and the deal keeps passing to the left.")
    if r.slam:
        words.append(f"A slam: a game won while every other {who} has 0 points or less counts as two games won.")
    if r.laps:
        words.append(f"Laps: the winner of a game starts the next with its final score less {r.target} "
                     f"(at least 0, at most {(r.target or 1) - 1}).")
    return words


@lru_cache(maxsize=256)
def rules_sections(rules: Rules, preset: str | None = None) -> tuple[Section, ...]:
    """The rules of ``rules`` in plain words, section by section; with ``preset`` (a name or
    alias; a :class:`~euchre.errors.RulesError` if unknown), an opening line names the game and
    says whether the switches differ from it."""
    intro: list[Section] = []
    if preset is not None:
        name = Rules.resolve_preset(preset)
        title = _PRESET_TITLES.get(name, "Euchre")
        changed = rules != Rules.preset(name)
        said = _said(title)
        tail = ", with some switches changed." if changed else "."
        intro.append(Section(title, (f"The rules of {said}{tail}",)))
    if rules.auction:
        deal, bidding, play, scoring, ending = _auction_sections(rules)
        parts = [_players(rules), _cards(rules), deal, bidding, _alone(rules), play, scoring, ending]
    elif rules.bid_euchre:
        parts = [_players(rules), _cards(rules), *_bid_euchre_sections(rules)]
    elif rules.napoleon:
        parts = list(_napoleon_sections(rules))
    else:
        parts = [_players(rules), _cards(rules), _deal(rules), _bidding(rules), _alone(rules), _play(rules),
                 _scoring(rules), _ending(rules)]
    return tuple(intro) + tuple(s for s in parts if s is not None)


def rules_in_words(rules: Rules, preset: str | None = None) -> list[str]:
    """Every paragraph of :func:`rules_sections`, in order."""
    return [p for s in rules_sections(rules, preset) for p in s.paragraphs]


# --- how to play ------------------------------------------------------------------------------------------
_HOW_TO_PLAY = (
    Section("The goal", (
        "Euchre is a card game of tricks, most often for four players in two partnerships, partners sitting "
        "opposite each other. In every hand one side names the trump suit and must then take at least three "
        "of the five tricks. The first side to reach the target score (10 points in the usual game) wins.",
    )),
    Section("Tricks", (
        "Everyone holds five cards. One player leads a card, and each other player in turn plays one card: "
        "you must follow the suit led if you can; if you cannot, play any card, a trump included.",
        "The highest trump played wins the trick; without a trump, the highest card of the suit led wins. "
        "The winner leads the next trick.",
    )),
    Section("Trump and the bowers", (
        "Trump beats every other suit. Its highest card is its jack, the right bower; next comes the other "
        "jack of the same colour, the left bower, which counts as a trump (not as its printed suit) for the "
        "whole hand. Then come the ace, king, queen, 10 and 9 of trump.",
        "With hearts as trump, for example, the jack of hearts is the highest card and the jack of diamonds "
        "the second highest; diamonds then has no jack. In British Euchre a Joker ranks above both bowers.",
    )),
    Section("Naming trump", (
        "After the deal the top card of the rest is turned face up. Going round from the dealer's left, each "
        "player may pass or order it up: its suit becomes trump, and the dealer takes that card and "
        "discards one.",
        "If everyone passes, the card is turned down and, round again, each player may name another suit as "
        "trump or pass. If everyone passes again the cards are thrown in and the next player deals (unless "
        "you play stick the dealer: then the dealer must name a suit).",
    )),
    Section("Going alone", (
        "With a very strong hand, the player who names trump may say \"alone\": the partner sits the hand "
        "out, and taking all five tricks alone scores 4 points instead of 2.",
    )),
    Section("Scoring", (
        "The side that named trump (the makers) scores 1 point for three or four tricks and 2 for all five, "
        "a march. If the makers take fewer than three tricks they are euchred, and the other side scores 2.",
        "A good first habit: name trump when you hold three trumps, or two with a bower and an ace of "
        "another suit; otherwise pass and let your partner try.",
    )),
)


def how_to_play_sections() -> tuple[Section, ...]:
    """A short lesson for a first game of (four-handed) Euchre, section by section."""
    return _HOW_TO_PLAY


def how_to_play() -> list[str]:
    """Every paragraph of :func:`how_to_play_sections`, in order."""
    return [p for s in _HOW_TO_PLAY for p in s.paragraphs]


def sections_to_dicts(sections: tuple[Section, ...]) -> list[dict[str, object]]:
    """Sections as JSON-ready dicts."""
    return [s.to_dict() for s in sections]


# --- rules given as text (a URL's query) -------------------------------------------------------------------
_YES = {"true", "yes", "on", "1"}
_NO = {"false", "no", "off", "0"}


def rules_from_strings(preset: str, values: Mapping[str, str]) -> Rules:
    """The preset with switches given as text (``{"stick_the_dealer": "yes", "target": "7"}``,
    as a ``/learn?preset=...`` address carries them); a :class:`~euchre.errors.RulesError`
    names a field that does not exist or a value that does not fit."""
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    overrides: dict[str, Any] = {}
    for key, text in values.items():
        name = key.strip().replace("-", "_")
        if name not in fields:
            raise RulesError(f"unknown rules switch {key!r}; known: {', '.join(fields)}")
        default = fields[name].default
        word = text.strip().lower()
        value: Any
        if isinstance(default, bool):
            if word not in _YES | _NO:
                raise RulesError(f"Rules.{name}: must be yes or no (got {text[:20]!r})")
            value = word in _YES
        elif name == "loner_lead":
            value = word
        elif name in ("target", "duration", "deals") and word in ("", "none"):
            value = None
        else:
            try:
                value = float(word) if name == "duration" else int(word)
            except ValueError:
                raise RulesError(f"Rules.{name}: must be a number (got {text[:20]!r})") from None
        overrides[name] = value
    if all(overrides.get(k) is None for k in ("target", "duration", "deals")):
        for k in ("target", "duration", "deals"):  # clearing every ending keeps the preset's
            overrides.pop(k, None)
    return Rules.preset(preset, **overrides)


def rules_payload(rules: Rules, preset: str | None = None) -> dict[str, Any]:
    """What ``GET /api/rules`` answers: the rules, their words and how to play (JSON-ready)."""
    try:
        name = Rules.resolve_preset(preset) if preset is not None else rules.preset_name()
    except RulesError:  # a stored table's preset this version no longer knows: said as custom rules
        name = rules.preset_name()
    return {
        "preset": name, "title": preset_title(name) if name else "Euchre",
        "heading": f"The rules of {_said(preset_title(name))}" if name else "The rules of this game",
        "changed": name is None or rules != Rules.preset(name),
        "rules": rules.to_dict(),
        "words": sections_to_dicts(rules_sections(rules, name)),
        "how_to_play": sections_to_dicts(how_to_play_sections()),
    }
