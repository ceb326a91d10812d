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
``draft``           object                 draft only: ``stack`` (cards left),
                                           ``discards`` (the face-up pile) and their
                                           ``texts`` (``[English, German]`` each, as
                                           the table's edition words them)
==================  =====================  ===========================================

An Oracle info is ``{"id": "O05", "text": ..., "points": 9}``.

Events
======

Every event has ``seq`` (the index of its action in the record), ``seat`` and
``kind``. Events that happen by themselves (a draw, a finished trick, the
scoring) carry the ``seq`` of the action that set them off, and as ``seat``
who took that action (None for chance), as every event does. Wherever an
event carries Oracle cards (``cards``, the score's ``kept``), ``texts``
beside them gives each card's ``[English, German]`` words as the table's
edition states them at its player count.

=============  ===========  =====================================================
kind           seat         fields
=============  ===========  =====================================================
``dealer``     None         ``dealer``
``deal``       None         ``round``, ``dealer``; ``hand``: the viewer's own
                            cards (left out in the public view)
``oracles``    None         ``cards``: the viewer's dealt Oracle cards (left out
                            in the public view); draft: ``stack`` (its size)
``keep``       the keeper   ``cards``: only in the keeper's own view
``draw``       its actor    draft: ``drawer``; ``cards`` only in the drawer's
                            own view
``pass``       the passer   draft: ``to`` (left neighbour); ``cards`` only for
                            the passer and the receiver
``discard``    the dealer   draft: ``cards`` (face up)
``play``       the player   ``card``
``trick``      the player   ``leader``, ``cards``, ``winner``, ``reason``,
                            ``creature`` (the winning card's), ``take``:
                            ``chip`` (a victory point chip; ``left`` in the
                            middle), ``loser`` (its Loser chip, ``from`` the
                            seat that held it or None: the middle) or
                            ``decide`` (the winner holds it already)
``loser``      the winner   ``choice`` (``keep`` or ``return``), ``creature``
``score``      its actor    ``round``; per seat: ``kept`` (revealed now),
                            ``holds`` (per kept card), ``worth`` (each kept
                            card's points), ``stars`` (after the
                            forfeit), ``forfeits`` (``[creature, chips]`` put
                            back for a Loser chip), ``chips`` (victory point
                            chips per creature after the forfeit), ``losers``
                            (its Loser chips), ``points``
=============  ===========  =====================================================

The public log (``view(None)``) holds the current round in full and, of the
earlier rounds, only the ``dealer`` and ``score`` events.

:func:`build_view` builds the view from the state's accessors and
:func:`event_view` masks one logged event for a viewer; the state caches the
masked log per viewer (:meth:`OracleState.log`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from oracles.core.views import BaseView
from oracles.games.oracle.cards import CARD_NAMES, COLOURS, CREATURE_NAMES, cards_of_mask, trick_winner
from oracles.games.oracle.notation import DISCARD_BASE, KEEP_BASE, LOSER_KEEP, LOSER_RETURN, PAIRS, PASS_BASE
from oracles.games.oracle.phases import (
    E_DEAL,
    E_DEALER,
    E_DRAW,
    E_ORACLES,
    E_PLAYER,
    LOSER,
    OVER,
    PHASE_NAMES,
    PLAY,
    ScoreFacts,
    TrickFacts,
)
from oracles.games.oracle.prophecies import ORACLE_IDS, Edition

if TYPE_CHECKING:
    from oracles.games.oracle.rules import LoggedEvent, OracleState
from oracles.games.oracle.scoring import NOBODY


class OracleInfo(TypedDict):
    id: str
    #: The card's text in English and German, as the table's edition words it
    #: at this player count (an edition may word a card per count).
    text: str
    text_de: str
    points: int


class TrickView(TypedDict):
    leader: int
    cards: list[list[int | str]]


class DraftView(TypedDict):
    stack: int
    discards: list[str]
    texts: list[list[str]]


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


def _oracle_info(edition: Edition, card: int) -> dict[str, Any]:
    prophecy = edition.cards[card]
    return {
        "id": prophecy.id,
        "text": prophecy.text_en,
        "text_de": prophecy.text_de,
        "points": prophecy.points,
    }


def _chips_view(state: OracleState) -> dict[str, Any]:
    held, holder, in_middle = state.held, state.loser_holder, state.middle
    quantities = state.chip_quantities()
    seats = []
    for seat in range(state.num_players):
        entry: dict[str, Any] = {
            name: held[seat * 3 + creature] for creature, name in enumerate(CREATURE_NAMES)
        }
        entry["losers"] = [CREATURE_NAMES[c] for c in range(3) if holder[c] == seat]
        entry["stars"] = quantities[seat][9]
        seats.append(entry)
    middle: dict[str, Any] = {name: in_middle[creature] for creature, name in enumerate(CREATURE_NAMES)}
    middle["losers"] = [CREATURE_NAMES[c] for c in range(3) if holder[c] == NOBODY]
    return {"middle": middle, "seats": seats}


def build_view(state: OracleState, seat: int | None) -> dict[str, Any]:
    """``state.view(seat)`` (an :class:`OracleView`), built through the
    state's accessors; ``seat`` None gives the public view."""
    n = state.num_players
    player = state.current_player()
    kept = state.kept[seat] if seat is not None else None
    tricks = []
    for leader, cards, winner in state.tricks:
        _, reason = trick_winner(cards)
        tricks.append(
            {
                "leader": leader,
                "cards": [[(leader + i) % n, CARD_NAMES[card]] for i, card in enumerate(cards)],
                "winner": winner,
                "reason": reason,
            }
        )
    result: dict[str, Any] = {
        "game": "oracle",
        "seat": seat,
        "players": n,
        "phase": PHASE_NAMES[state.phase],
        "to_act": player if player >= 0 else None,
        "terminal": state.phase == OVER,
        "scores": list(state.scores()),
        "winners": state.winners(),
        "round": state.round_number,
        "rounds": state.game.rounds,
        "dealer": state.dealer if state.dealer != NOBODY else None,
        "removed_colour": COLOURS[state.game.removed_colour]
        if state.game.removed_colour is not None
        else None,
        "hand": [CARD_NAMES[card] for card in cards_of_mask(state.hands[seat])] if seat is not None else None,
        "hand_sizes": state.hand_sizes(),
        "oracle_cards": [_oracle_info(state.game.edition, card) for card in state.oracle_cards[seat]]
        if seat is not None
        else [],
        "kept": [_oracle_info(state.game.edition, card) for card in kept] if kept else [],
        "prophecies": [[card_id, holds] for card_id, holds in state.prophecy_status(seat)]
        if kept and seat is not None
        else [],
        "trick": {
            "leader": state.leader,
            "cards": [[(state.leader + i) % n, CARD_NAMES[card]] for i, card in enumerate(state.trick)],
        }
        if state.phase in (PLAY, LOSER)
        else None,
        "tricks": tricks,
        "chips": _chips_view(state),
        "pending_loser": CREATURE_NAMES[state.pending_loser] if state.phase == LOSER else None,
        "round_scores": [list(points) for points in state.round_scores],
        "revealed": [[[ORACLE_IDS[c] for c in pair] for pair in pairs] for pairs in state.revealed],
        "log": state.log(seat),
    }
    if state.game.draft:
        result["draft"] = {
            "stack": state.stack_left,
            "discards": [ORACLE_IDS[card] for card in state.discards],
            "texts": [state.game.edition.cards[card].texts for card in state.discards],
        }
    return result


def event_view(state: OracleState, event: LoggedEvent, viewer: int | None) -> dict[str, Any]:
    """One logged event as ``viewer`` saw it (the table of events above)."""
    kind, actor, action, seq, facts = event
    out: dict[str, Any] = {"seq": seq, "seat": actor if actor != NOBODY else None}
    game = state.game
    n = state.num_players
    if kind == E_DEALER:
        out.update(kind="dealer", dealer=action)
    elif kind == E_DEAL:
        assert isinstance(facts, dict)
        out.update(kind="deal", round=facts["round"], dealer=facts["dealer"])
        if viewer is not None:
            # The game's cached list itself (shared, never changed): a copy
            # for every viewer of every deal would sit in each table's log.
            out["hand"] = game.dealt_names(E_DEAL, action)[viewer]
    elif kind == E_ORACLES:
        out["kind"] = "oracles"
        if viewer is not None:
            out["cards"] = game.dealt_names(E_ORACLES, action)[viewer]
        if game.draft:
            out["stack"] = game.stack_size
    elif kind == E_DRAW:
        out.update(kind="draw", drawer=actor)
        if viewer == actor:
            out["cards"] = [ORACLE_IDS[card] for card in PAIRS[action]]
    elif kind == E_PLAYER:
        out.update(_player_event(n, actor, action, facts if isinstance(facts, dict) else None, viewer))
    elif isinstance(facts, TrickFacts):
        out.update(facts.event_fields(n))
    elif isinstance(facts, ScoreFacts):
        out.update(facts.event_fields(n, game.edition))
    else:
        assert facts is not None
        out.update(facts)
    if out["kind"] in ORACLE_CARD_EVENTS and "cards" in out:
        # The cards' texts as this table's edition words them (an edition
        # may change what a card asks), for the story.
        out["texts"] = [game.edition.card(c).texts for c in out["cards"]]
    return out


#: The events whose ``cards`` are Oracle cards (ids).
ORACLE_CARD_EVENTS = frozenset({"oracles", "draw", "keep", "pass", "discard"})


def _player_event(
    n: int, actor: int, action: int, facts: dict[str, Any] | None, viewer: int | None
) -> dict[str, Any]:
    if action < KEEP_BASE:
        return {"kind": "play", "card": CARD_NAMES[action]}
    if action < LOSER_KEEP:
        out: dict[str, Any] = {"kind": "keep"}
        if viewer == actor:
            out["cards"] = [ORACLE_IDS[card] for card in PAIRS[action - KEEP_BASE]]
        return out
    if action <= LOSER_RETURN:
        assert facts is not None
        return {
            "kind": "loser",
            "choice": "keep" if action == LOSER_KEEP else "return",
            "creature": facts["creature"],
        }
    if action < DISCARD_BASE:
        left = (actor + 1) % n
        out = {"kind": "pass", "to": left}
        if viewer in (actor, left):
            out["cards"] = [ORACLE_IDS[card] for card in PAIRS[action - PASS_BASE]]
        return out
    return {"kind": "discard", "cards": [ORACLE_IDS[card] for card in PAIRS[action - DISCARD_BASE]]}
