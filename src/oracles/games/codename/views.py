"""The shape of a Codename: Oracle view (``state.view(seat)``, ``state.view(None)``).

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
face-up shields, cards revealed or opened, code slots named right by a guess
or a circle focus, and no hand. When the game is over both code rows are face
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
``name``            player, symbol, slots (the opponent's slots holding it)
``guess``           player, symbols, right (slots guessed right)
``open``            player (the field's owner), cells, symbols
``life``            player, change, life
``end``             player
``draw``            player, count, [symbols]
``reshuffle``       player, count
``over``            reason (life/code/turns), winners
==================  ==============================================================
"""

from __future__ import annotations

from typing import TypedDict

from oracles.core.views import BaseView

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
