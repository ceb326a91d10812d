"""Packing a sequence of small integers into one integer action.

A whole deal is one chance action; its integer is the deal's cards, in a
canonical order, packed in base ``radix`` (first element least significant).

>>> pack([3, 0, 2], 5)
53
>>> unpack(53, 5, 3)
[3, 0, 2]
>>> unpack(pack([7, 7], 10), 10, 2)
[7, 7]
"""

from __future__ import annotations

from collections.abc import Iterable


def pack(values: Iterable[int], radix: int) -> int:
    """Pack ``values`` (each in ``0..radix-1``) into one integer."""
    code = 0
    scale = 1
    for value in values:
        code += value * scale
        scale *= radix
    return code


def unpack(code: int, radix: int, length: int) -> list[int]:
    """Inverse of :func:`pack` for a sequence of known ``length``.

    Raises ``ValueError`` if ``code`` is negative or needs more digits.
    """
    if code < 0:
        raise ValueError("a packed code is never negative")
    values = []
    for _ in range(length):
        code, digit = divmod(code, radix)
        values.append(digit)
    if code:
        raise ValueError("the code holds more values than expected")
    return values


def split_groups(text: str, separator: str = "/") -> list[list[str]]:
    """Split ``"a b / c d"`` into ``[["a", "b"], ["c", "d"]]`` (tokens are
    whitespace-separated; empty groups are kept).

    >>> split_groups("R1 R2 / B3 /")
    [['R1', 'R2'], ['B3'], []]
    """
    return [part.split() for part in text.split(separator)]
