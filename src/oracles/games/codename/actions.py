"""The names of Codename: Oracle (symbols, cells, code slots, set shapes) and
the integer ranges of its actions (see :mod:`oracles.games.codename.rules`
for the notation of each)."""

from __future__ import annotations

from collections.abc import Sequence

SYMBOLS = ("star", "square", "wave", "circle", "cross")
STAR, SQUARE, WAVE, CIRCLE, CROSS = range(5)
SYMBOL_INDEX = {name: index for index, name in enumerate(SYMBOLS)}
COLUMNS = "abcde"
ROWS = 4
CELLS = 20
CELL_NAMES = tuple(f"{COLUMNS[cell // ROWS]}{cell % ROWS + 1}" for cell in range(CELLS))
CELL_INDEX = {name: index for index, name in enumerate(CELL_NAMES)}
DECK_SIZE = 50
HAND_SIZE = 5
START_LIFE = 9

STRIKE, SHIELD, FOCUS = range(3)
KIND_NAMES = ("strike", "shield", "focus")


def cell_of(col: int, row: int) -> int:
    """The cell index of column ``col``, row ``row`` (both from 0)."""
    return col * ROWS + row


def _build_shapes() -> list[tuple[int, tuple[int, ...]]]:
    shapes: list[tuple[int, tuple[int, ...]]] = []
    for col in range(5):
        for skip in (3, 2, 1, 0):
            shapes.append((STRIKE, tuple(cell_of(col, r) for r in range(ROWS) if r != skip)))
        shapes.append((STRIKE, tuple(cell_of(col, r) for r in range(ROWS))))
    for row in range(ROWS):
        for first, last in ((0, 2), (1, 3), (2, 4), (0, 3), (1, 4), (0, 4)):
            shapes.append((SHIELD, tuple(cell_of(c, row) for c in range(first, last + 1))))
    for col in range(4):
        for row in range(ROWS - 1):
            shapes.append(
                (FOCUS, tuple(sorted(cell_of(c, r) for c in (col, col + 1) for r in (row, row + 1))))
            )
    return shapes


#: Every set shape: (kind, cells in increasing cell order).
SHAPES = _build_shapes()
SHAPE_INDEX = {cells: index for index, (_, cells) in enumerate(SHAPES)}
SHAPE_MASKS = tuple(sum(1 << c for c in cells) for _, cells in SHAPES)
SHIELD_SHAPES = tuple(i for i, (kind, _) in enumerate(SHAPES) if kind == SHIELD)


def kind_of_cells(names: Sequence[str]) -> str:
    """``strike``, ``shield`` or ``focus``: the set whose cells are named so
    (as a reveal's notation names them; the front ends' words for it).

    >>> kind_of_cells(["a1", "a2", "a3"]), kind_of_cells(["a1", "b1", "c1"]), kind_of_cells(["a1", "a2", "b1", "b2"])
    ('strike', 'shield', 'focus')
    """
    return KIND_NAMES[SHAPES[SHAPE_INDEX[tuple(CELL_INDEX[name] for name in names)]][0]]


# Player action ranges.
CODE_BASE = 0
GUESS_BASE = 3125
PEEK_BASE = 6250
# A peek of cells a <= b is PEEK_BASE + a * CELLS + b (a == b: one cell).
SWAP_BASE = PEEK_BASE + CELLS * CELLS
REPLACE_BASE = SWAP_BASE + CELLS * CELLS
REVEAL_BASE = REPLACE_BASE + CELLS * 5
RESPOND_BASE = REVEAL_BASE + len(SHAPES)
RESPOND_PASS = RESPOND_BASE + len(SHAPES)
END = RESPOND_PASS + 1
BLOCK_BASE = END + 1
CODESWAP_BASE = BLOCK_BASE + ROWS
CODESWAP_PASS = CODESWAP_BASE + 25
RECODE_BASE = CODESWAP_PASS + 1
PICK_BASE = RECODE_BASE + 25
PLACE_BASE = PICK_BASE + CELLS
FILL_BASE = PLACE_BASE + 5
FILL_DECK = FILL_BASE + 5
TARGET_BASE = FILL_DECK + 1
TAKE_BASE = TARGET_BASE + ROWS
NAME_BASE = TAKE_BASE + 5
NUM_ACTIONS = NAME_BASE + 5

GUESS_ACTIONS = tuple(range(GUESS_BASE, GUESS_BASE + 3125))
CODE_ACTIONS = list(range(CODE_BASE, CODE_BASE + 3125))


def symbol_of(card: int) -> int:
    """The symbol of a card id (ids 0..49 are seat 0's deck, 50..99 seat 1's)."""
    return (card % DECK_SIZE) // 10
