"""Helpers for Oracle scenario tests: reach a chosen position by real actions.

A scenario names the cards that matter (some seats' hands, some seats'
Oracle cards and keeps); :func:`start` deals the other cards in play to the
other places in card order, applies ``dealer``, ``deal``, ``oracles`` and the
keeps through the notation, and :func:`play` plays tricks card by card. Every
position is so a legal game, built as a record would build it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oracles import load_game
from oracles.games.oracle.cards import CARD_NAMES, parse_card
from oracles.games.oracle.prophecies import ORACLE_IDS
from oracles.games.oracle.rules import OracleState


def _filled(
    wanted: Mapping[int, Sequence[str]], pool: Sequence[str], seats: int, size: int
) -> list[list[str]]:
    """Every seat's part: the ``wanted`` cards, then the rest of ``pool`` in order."""
    taken = {card.upper() for cards in wanted.values() for card in cards}
    assert len(taken) == sum(len(cards) for cards in wanted.values()), "a card is named twice"
    rest = iter(card for card in pool if card not in taken)
    parts = []
    for seat in range(seats):
        part = [card.upper() for card in wanted.get(seat, ())]
        assert len(part) <= size, f"seat {seat} gets {len(part)} cards, more than {size}"
        while len(part) < size:
            part.append(next(rest))
        parts.append(part)
    return parts


def start(
    players: int = 3,
    dealer: int = 2,
    hands: Mapping[int, Sequence[str]] | None = None,
    oracles: Mapping[int, Sequence[str]] | None = None,
    keeps: Mapping[int, tuple[str, str]] | None = None,
    keep: bool = True,
    **options: object,
) -> OracleState:
    """A game of one round (unless ``rounds`` is given) dealt by ``dealer``:
    the named cards where they are asked for, the rest filled in card order.
    With ``keep`` every seat then keeps (its pair in ``keeps``, else its
    first two Oracle cards); without it the game stops at the first keep."""
    state = load_game("oracle", players=players, **{"rounds": 1, **options}).new_initial_state()
    assert isinstance(state, OracleState)
    game = state.game
    state.apply_string(f"dealer {dealer}")
    in_play = [CARD_NAMES[card] for card in game.cards_in_play]
    dealt = _filled(hands or {}, in_play, players, game.hand_size)
    state.apply_string("deal " + " / ".join(" ".join(hand) for hand in dealt))
    oracle_hands = _filled(oracles or {}, ORACLE_IDS, players, game.oracle_hand)
    state.apply_string("oracles " + " / ".join(" ".join(cards) for cards in oracle_hands))
    if keep:
        for offset in range(1, players + 1):
            seat = (dealer + offset) % players
            pair = (keeps or {}).get(seat) or tuple(sorted(oracle_hands[seat])[:2])
            state.apply_string(f"keep {pair[0]} {pair[1]}")
    return state


def play(state: OracleState, *cards: str) -> OracleState:
    """Play ``cards`` in turn (a Loser decision must be given as its notation)."""
    for card in cards:
        if card.startswith("loser "):
            state.apply_string(card)
        else:
            state.apply_string(f"play {card}")
    return state


def holds(state: OracleState, seat: int, card: str) -> bool:
    return bool(state.hands[seat] >> parse_card(card) & 1)
