"""The exceptions of the whole project.

Every error a user can cause (a wrong move, an unreadable notation, a bad
option, a malformed record) is an :class:`OraclesError`: its message is one
line that names what was wrong and why, so front ends print it as it is and
never show a traceback.
"""

from __future__ import annotations


class OraclesError(Exception):
    """Base class of every error caused by input from outside the program."""


class UnknownGameError(OraclesError, KeyError):
    """A game id that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class OptionError(OraclesError, ValueError):
    """An unknown option, or a value an option does not accept."""


class IllegalActionError(OraclesError, ValueError):
    """An action that is not legal in the state where it is applied.

    ``reason`` is the short explanation without the action itself, for
    example ``"must follow red"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotationError(IllegalActionError):
    """A text that cannot be read as an action of the game where it stands.

    ``why`` is the explanation without the text itself, for messages that
    already quote the text (a record's ``action 3 'xyz': why``).
    """

    def __init__(self, reason: str, why: str | None = None) -> None:
        super().__init__(reason)
        self.why = why if why is not None else reason


class ChanceNotEnumerableError(OraclesError):
    """Raised by ``chance_outcomes()`` when the outcomes are too many to list
    (a whole deal is one chance action); use ``sample_chance`` instead."""


class RecordError(OraclesError):
    """A record that cannot be replayed.

    ``index`` and ``text`` name the offending action when there is one.
    """

    def __init__(self, message: str, index: int | None = None, text: str | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.text = text


class SeatError(OraclesError, ValueError):
    """A seat that is not one of the game's (``view(-1)``, ``view("0")``)."""


class InputError(OraclesError, ValueError):
    """A value typed by a person or given on the command line that the
    program cannot use (a number out of range, a path it cannot write)."""
