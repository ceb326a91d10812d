"""Codename: Oracle's views (``state.view(seat)``, ``state.view(None)``): their
keys and log events, and building them from a state (:func:`build_view`).

Besides the shared keys of :class:`oracles.core.views.BaseView` (``game``,
``seat``, ``players``, ``phase``, ``to_act``, ``terminal``, ``scores``,
``winners``, ``log``), a view holds:

================  ======================  ==========================================================
key               type                    meaning
================  ======================  ==========================================================
``phase``         str                     ``setup`` (codes and deals), ``play``, or ``over``
``turn``          int                     the turn being played (0 during setup)
``max_turns``     int                     turns in all before the game is drawn
``turn_player``   int or None             whose turn it is (a decision may be the other seat's)
``decision``      Decision or None        what is being decided now, and by whom
``life``          list of 2 int           life per seat
``used``          Used                    what the turn's player has used up this turn
``sides``         list of 2 Side          per seat: its field, code, cards, as the viewer knows them
================  ======================  ==========================================================

A :class:`Side` is one seat's half of the table seen by the viewer:

=================  ========================  =====================================================
key                type                      meaning
=================  ========================  =====================================================
``field``          dict cell -> str or None  symbol if the viewer knows the card (or it is face up),
                                             None if face down and unknown, ``"-"`` if empty
``face_up``        list of cells             cells of face-up shields
``field_shown``    list of cells             face-down cells this seat's opponent knows
``code``           list of str or None       the code row a..e as the viewer knows it ([] before setup)
``code_shown``     list of slots             slots this seat's opponent has seen
``code_excluded``  list of lists of str      per slot, symbols its opponent knows it does not hold
``hand``           list of str or None       the hand (sorted), None unless the viewer owns it
``hand_count``     int                       cards in hand
``aside``          list of str or None       cards waiting to be placed (wave shield), owner only
``aside_count``    int
``deck``           int                       cards in the draw deck
``discard``        int                       cards in the discard pile
``discard_known``  dict symbol -> int        discard cards the viewer knows, per symbol
=================  ========================  =====================================================

The public view (``seat`` None) knows what everyone at the table saw:
face-up shields, cards revealed or opened, which code slots a strike or a
circle shield showed (not their symbols), and no hand; what a guess or a
circle focus found is the players' alone (SPEC section 5). When the game is over both code rows are face
up: every view's ``code`` shows all five symbols of both sides.

**Events** (``log``): every event has ``seq``, ``seat`` (who played the
action; None for chance) and ``kind``; ``player`` is the seat the event is
about. Fields in brackets are secret: only the seats that saw them get them.

==================  ==============================================================
kind                fields
==================  ==============================================================
``code``            player, [code] (the owner's five symbols)
``shuffle``         player, [hand]
``first``           player
``turn``            player, turn
``peek``            player, cells, [symbols]
``swap``            player, cells
``replace``         player, cell, [symbol]
``reveal``          player, cells, symbols, set (strike/shield/focus), valid
``respond``         player, cells, symbols, valid (cells empty: no response)
``hit``             player (the striker), column
``block``           player (the shield's owner), cells, symbol
``discard_shield``  player (the owner), cells, symbol (a wave focus discarded it)
``code_shown``      player (the code's owner), slot, [symbol] (both seats)
``discard_hand``    player, count
``codeswap``        player, slots (empty: kept as it was)
``recode``          player, slot, [symbol]
``pick``            player, cell
``scramble``        player (the field's owner), cells
``aside``           player, count, [symbols]
``place``           player, cell, [symbol]
``fill``            player, cell, source (hand/deck), [symbol]
``target``          player, cell
``search``          player (the striker), owner (of the pile), [symbols]
``take``            player, symbol, cell
``name``            player, symbol, [slots] (the opponent's slots holding it)
``guess``           player, symbols, count (slots guessed right), [right] (which)
``open``            player (the field's owner), cells, symbols
``life``            player, change, life
``end``             player
``draw``            player, count, [symbols]
``reshuffle``       player, count
``over``            reason (life/code/turns), winners
==================  ==============================================================
"""

from __future__ import annotations

from typing import TypedDict, cast

from oracles.core.views import BaseView, Event
from oracles.games.codename.actions import CELL_NAMES, CELLS, COLUMNS, SYMBOLS, symbol_of
from oracles.games.codename.table import (
    PUBLIC,
    SHOWN_PUBLICLY,
    CodenameTable,
    seat_bit,
    sorted_names,
    viewer_bit,
)
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    T_BLOCK,
    T_FILL,
    T_PICK,
    T_PLACE,
    T_RESPOND,
    T_SCRAMBLE,
    T_TARGET,
    TASK_NAMES,
)

#: Every event kind, in the order of the table above (encoders count them in this order).
EVENT_KINDS = (
    "code",
    "shuffle",
    "first",
    "turn",
    "peek",
    "swap",
    "replace",
    "reveal",
    "respond",
    "hit",
    "block",
    "discard_shield",
    "code_shown",
    "discard_hand",
    "codeswap",
    "recode",
    "pick",
    "scramble",
    "aside",
    "place",
    "fill",
    "target",
    "search",
    "take",
    "name",
    "guess",
    "open",
    "life",
    "end",
    "draw",
    "reshuffle",
    "over",
)


class Decision(TypedDict, total=False):
    """The pending decision: ``kind`` (a task name or ``turn``), ``player``
    (None for chance) and, by kind, ``column``, ``symbol``, ``cells``, ``rows``."""

    kind: str
    player: int | None
    column: str
    symbol: str
    cells: list[str]
    rows: list[int]


class Used(TypedDict):
    peek: bool
    swap: bool
    replace: bool
    guess: bool
    reveals: int


class Side(TypedDict):
    field: dict[str, str | None]
    face_up: list[str]
    field_shown: list[str]
    code: list[str | None]
    code_shown: list[str]
    code_excluded: list[list[str]]
    hand: list[str] | None
    hand_count: int
    aside: list[str] | None
    aside_count: int
    deck: int
    discard: int
    discard_known: dict[str, int]


class CodenameView(BaseView):
    turn: int
    max_turns: int
    turn_player: int | None
    decision: Decision | None
    life: list[int]
    used: Used
    sides: list[Side]


def build_view(state: CodenameTable, seat: int | None) -> CodenameView:
    """``state.view(seat)`` (``seat`` already checked; None: the public view)."""
    player = state.current_player()
    task = state._tasks[-1] if state._tasks and not state._over else None
    decision: Decision | None = None
    if task is not None:
        decision = {
            "kind": TASK_NAMES[task.kind],
            "player": None if task.kind in CHANCE_TASKS else task.seat,
        }
        if task.kind in (T_RESPOND, T_PICK, T_TARGET):
            decision["column"] = COLUMNS[task.column]
        if task.kind == T_RESPOND:
            decision["symbol"] = SYMBOLS[task.symbol]
        if task.kind in (T_PLACE, T_FILL, T_SCRAMBLE):
            decision["cells"] = [CELL_NAMES[c] for c in task.cells]
        if task.kind == T_BLOCK:
            decision["rows"] = [r + 1 for r in task.rows]
    elif not state._over and state._turn:
        decision = {"kind": "turn", "player": state._turn_player}
    return {
        "game": state.game.id,
        "seat": seat,
        "players": 2,
        "phase": "over" if state._over else "play" if state._turn else "setup",
        "to_act": player if player >= 0 else None,
        "terminal": state._over,
        "scores": state.scores(),
        "winners": state.winners(),
        "log": [cast(Event, entry.seen_by(seat)) for entry in state._logs],
        "turn": state._turn,
        "max_turns": state._max_turns,
        "turn_player": state._turn_player if state._turn else None,
        "decision": decision,
        "life": list(state._life),
        "used": {
            "peek": state._peeked,
            "swap": state._swapped,
            "replace": state._replaced,
            "guess": state._guessed,
            "reveals": state._reveals,
        },
        "sides": [_side_view(state, owner, seat) for owner in range(2)],
    }


def _side_view(state: CodenameTable, owner: int, seat: int | None) -> Side:
    """``owner``'s half of the table as ``seat`` (None: the public) knows it."""
    bit = viewer_bit(seat)
    rival = seat_bit(1 - owner)
    field, up, fknow = state._field[owner], state._up[owner], state._fknow[owner]
    own = seat == owner
    return {
        "field": _field_view(state, owner, seat),
        "face_up": [CELL_NAMES[c] for c in range(CELLS) if up[c]],
        "field_shown": [
            CELL_NAMES[c] for c in range(CELLS) if field[c] >= 0 and not up[c] and fknow[c] & rival
        ],
        "code": [
            SYMBOLS[symbol_of(c)] if know & bit else None
            for c, know in zip(state._code[owner], state._cknow[owner], strict=False)
        ],
        # The public sees which slots a strike or a circle shield showed (and
        # every slot at the end), not those a guess or a circle focus found,
        # nor what a guess ruled out: those are the players' (SPEC 5).
        "code_shown": [
            COLUMNS[i]
            for i, know in enumerate(state._cknow[owner])
            if know & rival and (seat is not None or know & (SHOWN_PUBLICLY | PUBLIC))
        ],
        "code_excluded": [
            [SYMBOLS[s] for s in range(5) if mask >> s & 1] if seat is not None else []
            for mask in state._cnot[owner]
        ],
        "hand": sorted_names(state._hand[owner]) if own else None,
        "hand_count": len(state._hand[owner]),
        "aside": sorted_names(state._aside[owner]) if own else None,
        "aside_count": len(state._aside[owner]),
        "deck": len(state._deck[owner]),
        "discard": len(state._discard[owner]),
        "discard_known": _discard_known(state, owner, bit),
    }


def _field_view(state: CodenameTable, owner: int, seat: int | None) -> dict[str, str | None]:
    """Cell -> symbol if ``seat`` knows it (or it is face up), ``None`` if
    face down and unknown, ``"-"`` if the cell is momentarily empty."""
    field = state._field[owner]
    up = state._up[owner]
    know = state._fknow[owner]
    bit = viewer_bit(seat)
    return {
        CELL_NAMES[c]: "-"
        if field[c] < 0
        else SYMBOLS[symbol_of(field[c])]
        if up[c] or know[c] & bit
        else None
        for c in range(CELLS)
    }


def _discard_known(state: CodenameTable, owner: int, bit: int) -> dict[str, int]:
    counts = [0] * 5
    for card, mask in zip(state._discard[owner], state._dknow[owner], strict=True):
        if mask & bit:
            counts[symbol_of(card)] += 1
    return {SYMBOLS[s]: counts[s] for s in range(5) if counts[s]}
