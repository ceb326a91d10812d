"""The shape of an Inrah-Orakel view and of its log events.

``state.view(seat)`` is a :class:`InrahView`: the shared keys of
:class:`oracles.core.views.BaseView` plus the keys below. ``state.view(None)``,
the public view, has the same keys with ``hand`` set to ``None`` and no dealt
cards in its ``deal`` events. Cards are written in notation (``fire-7``),
elements as words (``fire``), seats as ints.

==================  ===================  ====================================================
key                 type                 meaning
==================  ===================  ====================================================
``variant``         str                  ``standard``, ``purpurberg`` or ``altaia``
``rounds``          int                  rounds in the game
``round``           int                  the round, 1.. (0 before the first deal)
``dealer``          int or None          dealer of this round (None before ``dealer K``)
``phase``           str                  ``dealer deal trump bid hesinde efferd phex play over``
``hand``            list of str or None  the seat's own cards, sorted; None in the public view
``hand_sizes``      list of int          cards in each seat's hand
``trump_card``      str or None          the turned-up card (None: no trump this round)
``trump``           str or None          its element
``bids``            list or None         bid per seat, None until made; None in Altaïa
``oracles``         list or None         Altaïa: each seat's :class:`Oracle` list; else None
``trick``           list of TrickPlay    ``{"seat", "card"}`` per card of the current trick
``trick_leader``    int or None          who led the current trick (None while it is empty)
``led``             str or None          the led element
``seer_first``      bool                 a seer came before any normal card: nothing to follow
``last_trick``      LastTrick or None    plays, winner and reason of the last complete trick
``played``          list of str          cards of this round's complete tricks
``tricks_taken``    list of int          per seat, this round
``round_scores``    list of lists        points per seat of each finished round
``last_round``      LastRound or None    the round finished last: its predictions, tricks
                                         and points (None until one ends)
==================  ===================  ====================================================

**Events** (``log``), one per action, each with ``seq``, ``seat`` (the
actor, ``None`` for chance) and ``kind``:

=============================  =========================================================
kind                           fields
=============================  =========================================================
``dealer``                     ``dealer``: the seat drawn to deal round 1
``deal``                       ``round``, ``cards`` (dealt to each seat), ``hand``: the
                               viewer's own dealt cards (left out of the public view)
``trump``                      ``round``, ``card``, ``element``
``bid``                        ``round``, ``bid``
``hesinde efferd phex``        ``round``, ``named`` (the seat the oracle is about), ``k``,
                               ``makes``: true for "takes exactly k" (Hesinde, Efferd
                               makes), false for "does not take k" (Phex, Efferd misses)
``play``                       ``round``, ``trick`` (1.. within the round), ``card``;
                               the card completing a trick adds ``winner`` and
                               ``reason``, the one completing a round ``points``
=============================  =========================================================
"""

from __future__ import annotations

from typing import TypedDict

from oracles.core.views import BaseView, Event


class Oracle(TypedDict):
    """One Altaïa oracle: ``kind`` (hesinde, efferd, phex) about seat
    ``named``; ``makes``: it says the seat takes exactly ``k`` tricks, else
    that it does not take ``k``."""

    kind: str
    named: int
    k: int
    makes: bool


class TrickPlay(TypedDict):
    seat: int
    card: str


class LastTrick(TypedDict):
    plays: list[TrickPlay]
    winner: int
    #: ``first seer``, ``highest trump``, ``highest of the led element`` or
    #: ``only mages: first mage`` (see :mod:`oracles.games.inrah.tricks`).
    reason: str


class LastRound(TypedDict):
    """The round that ended last, for its summary."""

    round: int
    #: Each seat's bid (None in Altaïa).
    bids: list[int] | None
    #: Each seat's oracles (Altaïa; else None).
    oracles: list[list[Oracle]] | None
    tricks_taken: list[int]
    points: list[int]


class DealerEvent(Event):
    dealer: int


class _DealFields(Event):
    round: int
    cards: int


class DealEvent(_DealFields, total=False):
    #: Present only in a seat's own view.
    hand: list[str]


class TrumpEvent(Event):
    round: int
    card: str
    element: str


class BidEvent(Event):
    round: int
    bid: int


class OracleEvent(Event):
    round: int
    named: int
    k: int
    makes: bool


class _PlayFields(Event):
    round: int
    trick: int
    card: str


class PlayEvent(_PlayFields, total=False):
    #: On the card that completes a trick: who took it and why (a reason of
    #: :class:`LastTrick`).
    winner: int
    reason: str
    #: On the card that completes a round: the round's points per seat.
    points: list[int]


class InrahView(BaseView):
    """What a seat (or, with ``seat`` None, anyone) knows; see the table above."""

    variant: str
    rounds: int
    round: int
    dealer: int | None
    hand: list[str] | None
    hand_sizes: list[int]
    trump_card: str | None
    trump: str | None
    bids: list[int | None] | None
    oracles: list[list[Oracle]] | None
    trick: list[TrickPlay]
    trick_leader: int | None
    led: str | None
    seer_first: bool
    last_trick: LastTrick | None
    played: list[str]
    tricks_taken: list[int]
    round_scores: list[list[int]]
    last_round: LastRound | None
