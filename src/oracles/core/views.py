"""The shared shape of views and events, and its check.

``state.view(seat)`` is everything ``seat`` may know; ``state.view(None)`` is
the *public view*: what a spectator, or anyone at the table, sees (no hand,
no hidden choice). Both are JSON-ready dicts that share the keys of
:class:`BaseView` in every game; each game adds its own keys on top (its
module documents them, and declares a ``TypedDict`` over this base).

The ``log`` lists one :class:`Event` per action the viewer observed: ``seq``
is the index of the action in the record, ``seat`` who acted (``None`` for
chance), ``kind`` a word such as ``deal``, ``play``, ``bid``, ``keep``, and
the event's own fields. What the viewer may not know is left out of, or
masked in, the viewer's copy. Front ends build their text (in any language)
from events and view fields; nothing parses text back into facts.

=============  ===============  ==============================================
key            type             meaning
=============  ===============  ==============================================
``game``       str              the game id
``seat``       int or None      the viewing seat (None: the public view)
``players``    int              number of seats
``phase``      str              a game-specific word (``play``, ``bid``...)
``to_act``     int or None      the seat to act (None at chance or the end)
``terminal``   bool             the game is over
``scores``     list of numbers  points per seat, cumulative
``winners``    list of int      winning seats, empty until the end
``log``        list of events   what the viewer observed, in order
=============  ===============  ==============================================
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from oracles.core.game import State


class Event(TypedDict):
    """One logged action as a viewer saw it; games add their own fields."""

    seq: int
    seat: int | None
    kind: str


class BaseView(TypedDict):
    """The keys every game's view has; games extend it."""

    game: str
    seat: int | None
    players: int
    phase: str
    to_act: int | None
    terminal: bool
    scores: list[float]
    winners: list[int]
    log: list[Event]


#: The shared keys and the JSON types each may take.
SHARED_KEYS: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "seat": (int, type(None)),
    "players": (int,),
    "phase": (str,),
    "to_act": (int, type(None)),
    "terminal": (bool,),
    "scores": (list,),
    "winners": (list,),
    "log": (list,),
}


def view_problems(state: State, seat: int | None) -> list[str]:
    """What is wrong with ``state.view(seat)`` against the shared schema
    (an empty list when nothing is). Used by :func:`oracles.testing.check_game`
    at every step, for every seat and the public view."""
    view = state.view(seat)
    problems: list[str] = []
    for key, kinds in SHARED_KEYS.items():
        if key not in view:
            problems.append(f"no {key!r} key")
        elif not isinstance(view[key], kinds) or (kinds != (bool,) and isinstance(view[key], bool)):
            problems.append(f"{key!r} is {type(view[key]).__name__}")
    if problems:
        return problems
    n = state.num_players
    player = state.current_player()
    expected: dict[str, Any] = {
        "game": state.game.id,
        "seat": seat,
        "players": n,
        "to_act": player if 0 <= player < n else None,
        "terminal": state.is_terminal(),
        "scores": list(state.scores()),
        "winners": list(state.winners()),
    }
    for key, value in expected.items():
        if view[key] != value:
            problems.append(f"{key!r} is {view[key]!r}, expected {value!r}")
    last = -1
    history = len(state.history())
    for index, event in enumerate(view["log"]):
        if not isinstance(event, dict):
            problems.append(f"log[{index}] is not an object")
            continue
        seq, actor, kind = event.get("seq"), event.get("seat", "missing"), event.get("kind")
        if not isinstance(seq, int) or isinstance(seq, bool) or not last <= seq < history:
            problems.append(f"log[{index}] has seq {seq!r} (previous {last}, {history} actions)")
        else:
            last = seq
        if actor is not None and (
            not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < n
        ):
            problems.append(f"log[{index}] has seat {actor!r}")
        if not isinstance(kind, str) or not kind:
            problems.append(f"log[{index}] has kind {kind!r}")
    try:
        json.dumps(view, allow_nan=False)
    except (TypeError, ValueError) as error:
        problems.append(f"not JSON: {error}")
    if seat is None and view.get("hand") is not None:
        problems.append("the public view shows a hand")
    return problems


def string_leaves(value: object) -> set[str]:
    """Every string in a JSON value, keys included (for leak checks)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
