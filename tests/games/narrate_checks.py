"""Checks shared by the games' narrate tests: a sentence names seats by
name, shows no program value and is German when asked for German."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

#: What a sentence must never show: Python values, lists, bare seat indices.
PROGRAM_VALUES = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|\[|\]|\{|\}|\bP\d\b|\bseat \d\b")

NAMES = ["Ann", "Beate", "Carl", "Dora", "Emil"]


def check_sentence(
    narrate: Callable[[dict[str, Any], int | None, Sequence[str], str], str],
    event: dict[str, Any],
    viewer: int | None,
    names: Sequence[str] = NAMES,
) -> tuple[str, str]:
    """The event told in English and in German, both checked."""
    english = narrate(event, viewer, names, "en")
    german = narrate(event, viewer, names, "de")
    for text in (english, german):
        assert text and text.strip() == text, (event, text)
        assert not PROGRAM_VALUES.search(text), (event, text)
        assert str(event.get("kind")) not in (text.split(": ")[-1],), (event, text)
    assert german != english, f"not translated: {english!r}"
    return english, german
