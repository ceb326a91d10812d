"""Inrah-Orakel's views: the keys of a view and of its log events, and
building them from a state (:func:`build_view`, behind ``state.view``).

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

import copy
from typing import TYPE_CHECKING, TypedDict

from oracles.core.views import BaseView, Event
from oracles.games.inrah.cards import CARD_TEXT, ELEMENT_OF, ELEMENTS
from oracles.games.inrah.constants import (
    ALTAIA,
    BID,
    DEAL,
    DEALER,
    ORACLE_MAKES,
    ORACLE_NAME,
    OVER,
    PHASE_NAMES,
    PLAY,
    TRUMP,
)
from oracles.games.inrah.tricks import FREE, trick_winner

if TYPE_CHECKING:
    from oracles.games.inrah.rules import InrahState


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


def oracle_fields(oracle: tuple[int, int, int]) -> Oracle:
    """An oracle ``(kind, seat named, k)`` as the view shows it."""
    kind, named, k = oracle
    return {"kind": ORACLE_NAME[kind], "named": named, "k": k, "makes": ORACLE_MAKES[kind]}


def build_view(state: InrahState, seat: int | None) -> InrahView:
    """``state.view(seat)`` (``seat`` already checked; None: the public view)."""
    n = state.num_players
    game = state.game
    player = state.current_player()
    last: LastTrick | None = None
    if state._last_trick is not None:
        leader, cards, winner, why = state._last_trick
        last = {
            "plays": [{"seat": (leader + i) % n, "card": CARD_TEXT[c]} for i, c in enumerate(cards)],
            "winner": winner,
            "reason": why,
        }
    return {
        "game": game.id,
        "seat": seat,
        "players": n,
        "variant": game.variant,
        "rounds": game.rounds,
        "round": state._round,
        "dealer": state._dealer if state._dealer >= 0 else None,
        "phase": PHASE_NAMES[state._phase],
        "to_act": player if player >= 0 else None,
        "terminal": state._phase == OVER,
        "hand": [CARD_TEXT[c] for c in state._hands[seat]] if seat is not None else None,
        "hand_sizes": [len(hand) for hand in state._hands],
        "trump_card": CARD_TEXT[state._trump_card] if state._trump_card >= 0 else None,
        "trump": ELEMENTS[state._trump] if state._trump >= 0 else None,
        "bids": [b if b >= 0 else None for b in state._bids] if game.variant != ALTAIA else None,
        "oracles": [[oracle_fields(o) for o in seat_oracles] for seat_oracles in state._oracles]
        if game.variant == ALTAIA
        else None,
        "trick": [
            {"seat": (state._leader + i) % n, "card": CARD_TEXT[c]} for i, c in enumerate(state._trick)
        ],
        "trick_leader": state._leader if state._trick else None,
        "led": ELEMENTS[state._led] if state._led >= 0 else None,
        "seer_first": state._led == FREE,
        "last_trick": last,
        "played": [CARD_TEXT[c] for c in state._played],
        "tricks_taken": list(state._taken),
        "round_scores": [list(points) for points in state._round_points],
        "last_round": copy.deepcopy(state._last_round),
        "scores": list(state._totals),
        "winners": state.winners(),
        "log": _events(state, seat),
    }


def _events(state: InrahState, seat: int | None) -> list[Event]:
    """The log as ``seat`` saw it: one event per action (see
    :mod:`oracles.games.inrah.views`); a deal shows only the viewer's own
    cards, and no cards at all in the public view."""
    n = state.num_players
    events: list[Event] = []
    round_number = 0
    plays = 0
    trump = -1
    trick: list[int] = []
    for seq, (phase, actor, value) in enumerate(state._log):
        if phase == PLAY:
            play: PlayEvent = {
                "seq": seq,
                "seat": actor,
                "kind": "play",
                "round": round_number,
                "trick": plays // n + 1,
                "card": CARD_TEXT[value],
            }
            plays += 1
            trick.append(value)
            if len(trick) == n:
                # The card that completes a trick says who took it and why
                # (public once the trick is complete).
                position, why = trick_winner(trick, trump)
                play["winner"] = (actor + 1 + position) % n
                play["reason"] = why
                trick = []
                if plays == n * round_number and round_number <= len(state._round_points):
                    play["points"] = list(state._round_points[round_number - 1])
            events.append(play)
        elif phase == BID:
            bid: BidEvent = {
                "seq": seq,
                "seat": actor,
                "kind": "bid",
                "round": round_number,
                "bid": value,
            }
            events.append(bid)
        elif phase == DEAL:
            round_number += 1
            plays = 0
            trump = -1
            trick = []
            deal: DealEvent = {
                "seq": seq,
                "seat": None,
                "kind": "deal",
                "round": round_number,
                "cards": round_number,
            }
            if seat is not None:
                deal["hand"] = [CARD_TEXT[c] for c in value[seat]]
            events.append(deal)
        elif phase == TRUMP:
            trump = ELEMENT_OF[value]
            turned: TrumpEvent = {
                "seq": seq,
                "seat": None,
                "kind": "trump",
                "round": round_number,
                "card": CARD_TEXT[value],
                "element": ELEMENTS[ELEMENT_OF[value]],
            }
            events.append(turned)
        elif phase == DEALER:
            dealer: DealerEvent = {"seq": seq, "seat": None, "kind": "dealer", "dealer": value}
            events.append(dealer)
        else:
            fields = oracle_fields(value)
            oracle: OracleEvent = {
                "seq": seq,
                "seat": actor,
                "kind": fields["kind"],
                "round": round_number,
                "named": fields["named"],
                "k": fields["k"],
                "makes": fields["makes"],
            }
            events.append(oracle)
    return events
