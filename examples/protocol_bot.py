#!/usr/bin/env python3
"""A small Euchre bot speaking the euchre bot protocol (docs/protocol.md), standard library only.

Run it in a game with:  euchre play --bots 'exec:python3 examples/protocol_bot.py'

The engine writes one JSON object per line on our standard input; on each "act" we print one
line: the action text. Everything else ("hello", "end") needs no answer; "bye" means exit.
Debug output must go to standard error: standard output is for answers only.

Strategy (simple on purpose): order up or name a suit holding 3+ of its trumps; lead the
highest card, otherwise play the lowest legal card; discard the lowest card.
"""

import json
import sys

RANKS = "789TJQKA"
SAME_COLOUR = {"c": "s", "s": "c", "d": "h", "h": "d"}


def suit_of(card, trump):
    """The suit a card follows: the left bower and the Joker ("Jk") belong to trump."""
    if card == "Jk" or (card[0] == "J" and card[1] == SAME_COLOUR.get(trump)):
        return trump
    return card[1]


def power(card, trump):
    """Bigger is stronger: Joker, right bower, left bower, other trumps, then plain cards."""
    if card == "Jk":
        return 103
    if trump and card[0] == "J" and card[1] == trump:
        return 102
    if suit_of(card, trump) == trump:
        return 101 if card[0] == "J" else 50 + RANKS.index(card[0])
    return RANKS.index(card[0])


def trumps_held(hand, suit):
    return sum(1 for card in hand if suit_of(card, suit) == suit)


def choose(view, legal):
    hand, trump = view["hand"], view["trump"]
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        cards = [a.split()[1] for a in plays]
        leading = not view["trick"]
        best = (max if leading else min)(cards, key=lambda c: power(c, trump))
        return "play " + best
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        return min(discards, key=lambda a: power(a.split()[1], trump))
    if "order" in legal:  # round 1: the up card's suit
        suit = view["up_card"][1]
        dealer = view["dealer"] == view["seat"]
        if trumps_held(hand, suit) + (1 if dealer else 0) >= 3:
            return "order"
    calls = [a for a in legal if a.startswith("call ") and not a.endswith("alone")]
    if calls:  # round 2 (or a turned-up Joker): the suit we hold most of
        best = max(calls, key=lambda a: trumps_held(hand, a.split()[1]))
        if trumps_held(hand, best.split()[1]) >= 3 or "pass" not in legal:
            return best
    if "take" in legal:  # two-handed: the dealer may take the ordered card
        return "take"
    return "pass" if "pass" in legal else legal[0]


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "act":
            print(choose(message["view"], message["legal"]), flush=True)
        elif message["type"] == "bye":
            break


if __name__ == "__main__":
    main()
