"""Text from outside the program, made safe to print.

Anything a person typed or a file contained may hold terminal escape
sequences, several lines, invisible direction overrides or megabytes of
text. :func:`printable` turns such text into one line of bounded length in
which every control character shows as an escape (``\\x1b``), so a crafted
record or argument cannot move the cursor, recolour the terminal or flood it.
Rich markup is escaped separately at the terminal layer (``rich.markup``),
because only that layer interprets it.

>>> printable("play R7\\x1b[2J\\nrm -rf /")
'play R7\\\\x1b[2J\\\\nrm -rf /'
>>> printable("x" * 500, limit=10)
'xxxxxxxxx…'
>>> shown("bid \\x07")
"'bid \\\\x07'"
"""

from __future__ import annotations

import unicodedata

#: The longest piece of outside text shown in a message, in characters.
MAX_SHOWN = 120
#: The longest message printed as one line.
MAX_LINE = 1000

# Control, format (bidi overrides, zero-width), surrogate, private-use and
# unassigned characters, and the Unicode line and paragraph separators;
# other spaces (no-break, em, ...) print as a plain space.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    if char == "\r":
        return "\\r"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` as one line of at most ``limit`` characters: control and
    invisible characters escaped, the rest cut with an ellipsis."""
    head = text[: limit + 1]  # never walk a 10 MB line
    out: list[str] = []
    size = 0
    for char in head:
        category = unicodedata.category(char)
        piece = _escape(char) if category in _HIDDEN else " " if category == "Zs" else char
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    result = "".join(out)
    if len(result) > limit or len(text) > len(head):
        return result[: max(limit - 1, 0)] + "…"
    return result


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A quoted, printable, bounded form of a value from outside, for
    messages (the safe counterpart of ``{value!r}``)."""
    if isinstance(value, str):
        return "'" + printable(value, limit) + "'"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 4 * limit:  # repr would be slow, or refused
            return f"<an integer of {value.bit_length()} bits>"
        return printable(repr(value), limit)
    if isinstance(value, float):
        return repr(value)
    return f"<{type(value).__name__}>"
