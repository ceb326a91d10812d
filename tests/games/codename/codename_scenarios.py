"""Helpers for Codename: Oracle scenario tests: lay out a chosen position.

A field is written as overrides of a base pattern that holds no set at all:
cell (column c, row r) shows symbol ``(c + 2r) % 5`` unless overridden.
Letters: S star, Q square, W wave, O circle, X cross.
"""

from __future__ import annotations

from typing import Any

from oracles import load_game
from oracles.games.codename.actions import CELL_NAMES, ROWS, SYMBOLS
from oracles.games.codename.rules import CodenameState

LETTERS = {"S": "star", "Q": "square", "W": "wave", "O": "circle", "X": "cross"}
FULL_CODE = "star square wave circle cross"


def base_field() -> dict[str, str]:
    return {name: SYMBOLS[(i // ROWS + 2 * (i % ROWS)) % 5] for i, name in enumerate(CELL_NAMES)}


def shuffle_text(seat: int, code: str, field: dict[str, str], hand: str, deck_top: str) -> str:
    """The ``shuffle`` chance text for a field (overrides), hand and deck top."""
    cells = base_field()
    cells.update({cell: LETTERS[letter] for cell, letter in field.items()})
    hand_names = [LETTERS[x] for x in hand]
    top = [LETTERS[x] for x in deck_top]
    left = {name: 10 for name in SYMBOLS}
    for name in [*code.split(), *cells.values(), *hand_names, *top]:
        left[name] -= 1
    assert all(n >= 0 for n in left.values()), f"too many cards of a symbol: {left}"
    rest = [name for name in SYMBOLS for _ in range(left[name])]
    deck = top + rest
    assert len(deck) == 20, len(deck)
    field_list = [cells[name] for name in CELL_NAMES]
    return f"shuffle {seat} {' '.join(field_list)} / {' '.join(hand_names)} / {' '.join(deck)}"


def start(
    fields: tuple[dict[str, str], dict[str, str]] = ({}, {}),
    hands: tuple[str, str] = ("SQWOX", "SQWOX"),
    codes: tuple[str, str] = (FULL_CODE, FULL_CODE),
    decks: tuple[str, str] = ("", ""),
    first: int = 0,
    **options: int,
) -> CodenameState:
    """A game after setup, ``first`` to move."""
    state = load_game("codename", **options).new_initial_state()
    assert isinstance(state, CodenameState)
    state.apply_string(f"code {codes[0]}")
    state.apply_string(f"code {codes[1]}")
    for seat in (0, 1):
        state.apply_string(shuffle_text(seat, codes[seat], fields[seat], hands[seat], decks[seat]))
    state.apply_string(f"first {first}")
    return state


def play(state: CodenameState, *moves: str) -> CodenameState:
    for move in moves:
        state.apply_string(move)
    return state


def cells_of(letter: str, *cells: str) -> dict[str, str]:
    return dict.fromkeys(cells, letter)


def events(view: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` in a view's log, each without ``seq`` and ``seat``."""
    return [
        {k: v for k, v in event.items() if k not in ("seq", "seat")}
        for event in view["log"]
        if event["kind"] == kind
    ]
