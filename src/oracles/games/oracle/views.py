"""What ``OracleState.view(seat)`` returns: the keys and the events.

The shared keys (``game``, ``seat``, ``players``, ``phase``, ``to_act``,
``terminal``, ``scores``, ``winners``, ``log``) are described in
:mod:`oracles.core.views`. Oracle adds these (cards by name such as ``R12``,
Oracle cards by id such as ``O05``, creatures as ``hydra``, ``pegasus``,
``phoenix``):

==================  =====================  ===========================================
key                 type                   content
==================  =====================  ===========================================
``phase``           str                    ``dealer`` ``deal`` ``oracles`` ``keep``
                                           ``draft`` ``play`` ``loser`` ``over``
``round``           int                    the round under way or just scored (0:
                                           before the first deal); ``rounds`` in all
``dealer``          int or None            this round's dealer
``removed_colour``  str or None            the colour left out (3 players)
``hand``            list of str or None    the seat's unplayed cards; None in the
                                           public view
``hand_sizes``      list of int            every seat's number of unplayed cards
``oracle_cards``    list of Oracle info    its dealt Oracle cards (draft: the ones it
                                           holds now); empty in the public view
``kept``            list of Oracle info    its two kept cards; empty in the public view
``prophecies``      list of [id, bool]     whether each kept card would hold if the
                                           round ended now
``trick``           object or None         ``leader`` and ``cards`` (``[seat, card]``
                                           in play order) while tricks are played
``tricks``          list of objects        this round's finished tricks: ``leader``,
                                           ``cards``, ``winner``, ``reason``
``chips``           object                 ``middle`` and ``seats``: victory point
                                           chips per creature, ``losers`` (Loser chips
                                           there), ``stars`` (seats)
``pending_loser``   str or None            the creature whose Loser chip the winner
                                           decides on
``round_scores``    list of lists of int   each finished round's points per seat
``revealed``        list of lists          each finished round's kept cards per seat
``draft``           object                 draft only: ``stack`` (cards left) and
                                           ``discards`` (the face-up pile)
==================  =====================  ===========================================

An Oracle info is ``{"id": "O05", "text": ..., "points": 9}``.

Events
======

Every event has ``seq`` (the index of its action in the record), ``seat`` and
``kind``. Events that happen by themselves (a draw, a finished trick, the
scoring) carry the ``seq`` of the action that set them off.

=============  ===========  =====================================================
kind           seat         fields
=============  ===========  =====================================================
``dealer``     None         ``dealer``
``deal``       None         ``round``, ``dealer``; ``hand``: the viewer's own
                            cards (left out in the public view)
``oracles``    None         ``cards``: the viewer's dealt Oracle cards (left out
                            in the public view); draft: ``stack`` (its size)
``keep``       the keeper   ``cards``: only in the keeper's own view
``draw``       the drawer   draft: ``cards`` only in the drawer's own view
``pass``       the passer   draft: ``to`` (left neighbour); ``cards`` only for
                            the passer and the receiver
``discard``    the dealer   draft: ``cards`` (face up)
``play``       the player   ``card``
``trick``      None         ``leader``, ``cards``, ``winner``, ``reason``,
                            ``creature`` (the winning card's), ``take``:
                            ``chip`` (a victory point chip; ``left`` in the
                            middle), ``loser`` (its Loser chip, ``from`` the
                            seat that held it or None: the middle) or
                            ``decide`` (the winner holds it already)
``loser``      the winner   ``choice`` (``keep`` or ``return``), ``creature``
``score``      None         ``round``; per seat: ``kept`` (revealed now),
                            ``holds`` (per kept card), ``stars`` (after the
                            forfeit), ``forfeits`` (``[creature, chips]`` put
                            back for a Loser chip), ``points``
=============  ===========  =====================================================

The public log (``view(None)``) holds the current round in full and, of the
earlier rounds, only the ``dealer`` and ``score`` events.
"""

from __future__ import annotations

from typing import TypedDict

from oracles.core.views import BaseView


class OracleInfo(TypedDict):
    id: str
    text: str
    points: int


class TrickView(TypedDict):
    leader: int
    cards: list[list[int | str]]


class DraftView(TypedDict):
    stack: int
    discards: list[str]


class OracleView(BaseView, total=False):
    """``OracleState.view(seat)``; ``draft`` only with the draft variant."""

    round: int
    rounds: int
    dealer: int | None
    removed_colour: str | None
    hand: list[str] | None
    hand_sizes: list[int]
    oracle_cards: list[OracleInfo]
    kept: list[OracleInfo]
    prophecies: list[list[str | bool]]
    trick: TrickView | None
    tricks: list[dict[str, object]]
    chips: dict[str, object]
    pending_loser: str | None
    round_scores: list[list[int]]
    revealed: list[list[list[str]]]
    draft: DraftView
