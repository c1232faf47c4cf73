"""The error family of the engine.

Syntax and rules are kept apart, as in python-chess: a text that does not parse raises
:class:`InvalidActionError`, a well-formed action the rules forbid raises
:class:`IllegalActionError`. Both are ``ValueError`` so callers that only care about
"bad input" can catch one thing, and both leave the state untouched.
"""

from __future__ import annotations


class EuchreError(Exception):
    """Base class of every error the package raises on purpose."""


class InvalidActionError(EuchreError, ValueError):
    """A card or action text that does not parse (``"play Xz"``), or a card id or action code out
    of range (``Card(99)``, ``Action.from_code(999)``)."""


class IllegalActionError(EuchreError, ValueError):
    """A well-formed action that the rules do not allow at this point of the hand."""


class RulesError(EuchreError, ValueError):
    """An invalid ``Rules`` field or combination; the message names the field."""


class DealError(EuchreError, ValueError):
    """An explicit deal that is not a deal of the rules' deck (wrong count, duplicates...)."""


class RecordError(EuchreError, ValueError):
    """A malformed or inconsistent game record (own format or EGN)."""


class SeatError(EuchreError, ValueError):
    """A seat number that is not a seat of the table (``view(7)`` with four players)."""


class PhaseError(EuchreError, ValueError):
    """Something asked of a hand at a point where it does not apply (solving a hand that is not
    in trick play); the message names the point the hand is at."""


class EmptyHistoryError(EuchreError, IndexError):
    """``pop()`` with no action to take back; an ``IndexError``, as ``list.pop`` raises."""


class BotProtocolError(EuchreError):
    """An external bot (a program speaking the line protocol of :mod:`euchre.protocol`) failed.

    ``reason`` says how, in one word, so callers can react without parsing the message:
    ``"start"`` (the program could not be started), ``"exited"`` (it died or closed its output),
    ``"timeout"`` (no answer in time), ``"malformed"`` (a line that is not an answer),
    ``"unparseable"`` (an answer that is no action), ``"illegal"`` (an action the rules do not
    allow now) or ``"unsolicited"`` (a line sent when no answer was asked for). The other
    attributes, when known, name the bot's command, its seat, the line received and the legal
    actions, and the message repeats them.
    """

    def __init__(self, message: str, *, reason: str, command: str | None = None, seat: int | None = None,
                 line: str | None = None, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.command = command
        self.seat = seat
        self.line = line
        self.legal = legal
