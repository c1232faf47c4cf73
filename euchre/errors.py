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
    """A card or action text that does not parse (``"play Xz"``)."""


class IllegalActionError(EuchreError, ValueError):
    """A well-formed action that the rules do not allow at this point of the hand."""


class RulesError(EuchreError, ValueError):
    """An invalid ``Rules`` field or combination; the message names the field."""


class DealError(EuchreError, ValueError):
    """An explicit deal that is not a deal of the rules' deck (wrong count, duplicates...)."""


class RecordError(EuchreError, ValueError):
    """A malformed or inconsistent game record (own format or EGN)."""
