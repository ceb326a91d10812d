"""The exceptions of the whole project.

Every error a user can cause (a wrong move, an unreadable notation, a bad
option, a malformed record) is an :class:`OraclesError`: its message is one
line that names what was wrong and why, so front ends print it as it is and
never show a traceback.
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """Why an action is not legal: its English line (this string, as records,
    logs and the server's errors print it) and, for a front end that speaks
    to the player, ``told``: the same said to the player who tried it, a
    text the catalog translates (``oracles.i18n.reason_words``), with
    ``fields`` to fill in (``seat`` fields are seats, named by the front end;
    ``colour``, ``element``, ``symbol`` and ``creature`` are words it
    translates; the rest stay as they are).

    >>> why = reason("you hold no {card}", "seat {seat} holds no {card}", seat=2, card="R7")
    >>> why, why.told, why.fields
    ('seat 2 holds no R7', 'you hold no {card}', {'seat': 2, 'card': 'R7'})
    """

    told: str
    fields: dict[str, Any]


def reason(told: str, logged: str | None = None, /, **fields: Any) -> Reason:
    """A :class:`Reason`: ``told`` to the player; ``logged`` (``told`` if
    None) is the English line, both filled in with ``fields``. ``told`` is
    marked for translation where this is called (``make messages``)."""
    made = Reason((logged if logged is not None else told).format(**fields))
    made.told = told
    made.fields = fields
    return made


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
