"""The toy's one kind of piece: a numbered card."""

from __future__ import annotations

from typing import Any


def face(code: str, lang: str) -> dict[str, Any]:
    return {
        "code": code,
        "token": code.lower(),
        "colour": "grey",
        "symbol": "circle",
        "rank": code,
        "title": f"card {code}",
    }


def sort_key(code: str) -> tuple[int, str]:
    return (int(code) if code.isdigit() else 99, code)
