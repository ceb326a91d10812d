"""The toy's story: its three kinds of event as sentences."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def narrate(event: dict[str, Any], viewer: int | None, names: list[str], lang: str) -> str:
    kind = event.get("kind")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and seat < len(names) else "?"
    if kind == "deal":
        card = event.get("card")
        return f"The cards are dealt; yours is {card}." if card is not None else "The cards are dealt."
    if kind == "bet":
        return f"{who} bets."
    if kind == "fold":
        return f"{who} folds."
    return f"{who}: {kind}."


def move_label(move: str, lang: str, names: Sequence[str] = ()) -> str:
    return move.capitalize()


def example_move(lang: str) -> str:
    return "bet"
