"""Reading and writing Codename: Oracle actions in notation (see the table in
:mod:`oracles.games.codename.rules`)."""

from __future__ import annotations

from oracles.core.codec import pack, unpack
from oracles.core.game import notation_error
from oracles.games.codename.actions import (
    BLOCK_BASE,
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    CODE_BASE,
    CODESWAP_BASE,
    CODESWAP_PASS,
    COLUMNS,
    DECK_SIZE,
    END,
    FILL_BASE,
    FILL_DECK,
    GUESS_BASE,
    HAND_SIZE,
    NAME_BASE,
    NUM_ACTIONS,
    PEEK_BASE,
    PICK_BASE,
    PLACE_BASE,
    RECODE_BASE,
    REPLACE_BASE,
    RESPOND_BASE,
    RESPOND_PASS,
    REVEAL_BASE,
    ROWS,
    SHAPE_INDEX,
    SHAPES,
    SWAP_BASE,
    SYMBOL_INDEX,
    SYMBOLS,
    TAKE_BASE,
    TARGET_BASE,
    cell_of,
)
from oracles.games.codename.table import (
    CodenameTable,
)
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    T_BLOCK,
    T_FILL,
    T_FIRST,
    T_PLACE,
    T_RESHUFFLE,
    T_SCRAMBLE,
    T_SHUFFLE,
    T_TARGET,
    TASK_NAMES,
    Task,
)


class CodenameNotation(CodenameTable):
    """Actions as text and back; the pending task decides what a text means."""

    def action_to_string(self, action: int) -> str:
        try:
            return self._action_text(action)
        except (ValueError, IndexError, AssertionError):
            return f"action {action}"

    def _action_text(self, action: int) -> str:
        task = self._tasks[-1] if self._tasks else None
        kind = task.kind if task is not None else None
        if task is not None and kind in CHANCE_TASKS:
            if kind == T_FIRST:
                return f"first {action}"
            if kind == T_SHUFFLE:
                names = [SYMBOLS[s] for s in unpack(action, 5, DECK_SIZE - 5)]
                return (
                    f"shuffle {task.seat} {' '.join(names[:CELLS])} / {' '.join(names[CELLS : CELLS + HAND_SIZE])}"
                    f" / {' '.join(names[CELLS + HAND_SIZE :])}"
                )
            if kind == T_RESHUFFLE:
                names = [SYMBOLS[s] for s in unpack(action, 5, len(self._discard[task.seat]))]
                return f"reshuffle {task.seat} {' '.join(names)}"
            return "scramble " + " ".join(SYMBOLS[s] for s in unpack(action, 5, len(task.cells)))
        if CODE_BASE <= action < GUESS_BASE:
            return "code " + " ".join(SYMBOLS[s] for s in unpack(action - CODE_BASE, 5, 5))
        if action < PEEK_BASE:
            return "guess " + " ".join(SYMBOLS[s] for s in unpack(action - GUESS_BASE, 5, 5))
        if action < SWAP_BASE:
            a, b = divmod(action - PEEK_BASE, CELLS)
            return f"peek {CELL_NAMES[a]}" if a == b else f"peek {CELL_NAMES[a]} {CELL_NAMES[b]}"
        if action < REPLACE_BASE:
            a, b = divmod(action - SWAP_BASE, CELLS)
            return f"swap {CELL_NAMES[a]} {CELL_NAMES[b]}"
        if action < REVEAL_BASE:
            cell, symbol = divmod(action - REPLACE_BASE, 5)
            return f"replace {CELL_NAMES[cell]} {SYMBOLS[symbol]}"
        if action < RESPOND_BASE:
            return "reveal " + " ".join(CELL_NAMES[c] for c in SHAPES[action - REVEAL_BASE][1])
        if action < RESPOND_PASS:
            return "respond " + " ".join(CELL_NAMES[c] for c in SHAPES[action - RESPOND_BASE][1])
        if action == RESPOND_PASS:
            return "respond pass"
        if action == END:
            return "end"
        if action < CODESWAP_BASE:
            row = action - BLOCK_BASE
            seat = task.seat if task is not None and kind == T_BLOCK else self._turn_player
            shield = self._shields[seat][row]
            if shield is None:
                return f"block row {row + 1}"
            return "block " + " ".join(CELL_NAMES[cell_of(c, row)] for c in range(shield[0], shield[1] + 1))
        if action < CODESWAP_PASS:
            a, b = divmod(action - CODESWAP_BASE, 5)
            return f"codeswap {COLUMNS[a]} {COLUMNS[b]}"
        if action == CODESWAP_PASS:
            return "codeswap pass"
        if action < PICK_BASE:
            slot, symbol = divmod(action - RECODE_BASE, 5)
            return f"recode {COLUMNS[slot]} {SYMBOLS[symbol]}"
        if action < PLACE_BASE:
            return f"pick {CELL_NAMES[action - PICK_BASE]}"
        if action < FILL_DECK:
            place = action < FILL_BASE
            word = "place" if place else "fill"
            name = SYMBOLS[action - (PLACE_BASE if place else FILL_BASE)]
            if task is not None and kind == (T_PLACE if place else T_FILL):
                return f"{word} {CELL_NAMES[task.cells[0]]} {name}"
            return f"{word} {name}"
        if action == FILL_DECK:
            if task is not None and kind == T_FILL:
                return f"fill {CELL_NAMES[task.cells[0]]} deck"
            return "fill deck"
        if action < TAKE_BASE:
            row = action - TARGET_BASE
            col = task.column if task is not None and kind == T_TARGET else 0
            return f"target {CELL_NAMES[cell_of(col, row)]}"
        if action < NAME_BASE:
            return f"take {SYMBOLS[action - TAKE_BASE]}"
        if action < NUM_ACTIONS:
            return f"name {SYMBOLS[action - NAME_BASE]}"
        raise ValueError(action)

    def _string_to_action(self, text: str) -> int:
        tokens = text.strip().lower().split()
        if not tokens:
            raise notation_error(text, "empty action")
        head, args = tokens[0], tokens[1:]
        task = self._tasks[-1] if self._tasks else None
        kind = task.kind if task is not None else None

        def symbol(token: str) -> int:
            if token not in SYMBOL_INDEX:
                raise notation_error(text, f"{token!r} is not a symbol ({', '.join(SYMBOLS)})")
            return SYMBOL_INDEX[token]

        def symbols(tokens: list[str], count: int) -> list[int]:
            if len(tokens) != count:
                raise notation_error(text, f"expected {count} symbols, got {len(tokens)}")
            return [symbol(t) for t in tokens]

        def cell(token: str) -> int:
            if token not in CELL_INDEX:
                raise notation_error(text, f"{token!r} is not a cell (a1..e4)")
            return CELL_INDEX[token]

        def slot(token: str) -> int:
            if len(token) != 1 or token not in COLUMNS:
                raise notation_error(text, f"{token!r} is not a code slot (a..e)")
            return COLUMNS.index(token)

        def arity(count: int) -> None:
            if len(args) != count:
                raise notation_error(text, f"'{head}' takes {count} argument{'s' * (count != 1)}")

        def pending(wanted: int) -> Task:
            if task is None or kind != wanted:
                raise notation_error(text, f"no '{head}' is due now")
            return task

        if kind in CHANCE_TASKS and head != TASK_NAMES[kind]:
            raise notation_error(text, f"a '{TASK_NAMES[kind]}' chance event is due")

        def shape(tokens: list[str]) -> int:
            cells = tuple(sorted({cell(t) for t in tokens}))
            if len(cells) != len(tokens) or cells not in SHAPE_INDEX:
                raise notation_error(
                    text, "not a set shape (3-4 cells of a column, 3+ adjacent of a row, or a 2x2 block)"
                )
            return SHAPE_INDEX[cells]

        if head == "code":
            return CODE_BASE + pack(symbols(args, 5), 5)
        if head == "guess":
            return GUESS_BASE + pack(symbols(args, 5), 5)
        if head in ("shuffle", "reshuffle"):
            due = pending(T_SHUFFLE if head == "shuffle" else T_RESHUFFLE)
            if not args or args[0] != str(due.seat):
                raise notation_error(text, f"the {head} due is seat {due.seat}'s")
            if head == "shuffle":
                groups = " ".join(args[1:]).split("/")
                sizes = (CELLS, HAND_SIZE, DECK_SIZE - 5 - CELLS - HAND_SIZE)
                if len(groups) != 3:
                    raise notation_error(text, "write field / hand / deck")
                listed: list[int] = []
                for group, size in zip(groups, sizes, strict=True):
                    listed += symbols(group.split(), size)
                return pack(listed, 5)
            return pack(symbols(args[1:], len(self._discard[due.seat])), 5)
        if head == "scramble":
            return pack(symbols(args, len(pending(T_SCRAMBLE).cells)), 5)
        if head == "first":
            pending(T_FIRST)
            arity(1)
            if args[0] not in ("0", "1"):
                raise notation_error(text, "the first player is 0 or 1")
            return int(args[0])
        if head == "peek":
            if len(args) not in (1, 2):
                raise notation_error(text, "'peek' takes one or two cells")
            peeked = sorted(cell(t) for t in args)
            a, b = peeked[0], peeked[-1]
            if len(args) == 2 and a == b:
                raise notation_error(text, "name two different cells")
            return PEEK_BASE + a * CELLS + b
        if head == "swap":
            arity(2)
            a, b = sorted((cell(args[0]), cell(args[1])))
            return SWAP_BASE + a * CELLS + b
        if head == "replace":
            arity(2)
            return REPLACE_BASE + cell(args[0]) * 5 + symbol(args[1])
        if head == "reveal":
            return REVEAL_BASE + shape(args)
        if head == "respond":
            if args == ["pass"]:
                return RESPOND_PASS
            return RESPOND_BASE + shape(args)
        if head == "end":
            arity(0)
            return END
        if head == "block":
            cells = sorted(cell(t) for t in args)
            rows = {c % ROWS for c in cells}
            if not cells or len(rows) != 1:
                raise notation_error(text, "name the cells of one shield (one row)")
            row = rows.pop()
            due = pending(T_BLOCK)
            shield = self._shields[due.seat][row]
            if shield is not None and cells != [cell_of(c, row) for c in range(shield[0], shield[1] + 1)]:
                raise notation_error(text, "name every cell of the shield")
            return BLOCK_BASE + row
        if head == "codeswap":
            if args == ["pass"]:
                return CODESWAP_PASS
            arity(2)
            a, b = sorted((slot(args[0]), slot(args[1])))
            return CODESWAP_BASE + a * 5 + b
        if head == "recode":
            arity(2)
            return RECODE_BASE + slot(args[0]) * 5 + symbol(args[1])
        if head == "pick":
            arity(1)
            return PICK_BASE + cell(args[0])
        if head in ("place", "fill"):
            arity(2)
            due = pending(T_PLACE if head == "place" else T_FILL)
            if cell(args[0]) != due.cells[0]:
                raise notation_error(text, f"the next cell to {head} is {CELL_NAMES[due.cells[0]]}")
            if head == "fill" and args[1] == "deck":
                return FILL_DECK
            return (PLACE_BASE if head == "place" else FILL_BASE) + symbol(args[1])
        if head == "target":
            arity(1)
            target = cell(args[0])
            if target // ROWS != pending(T_TARGET).column:
                raise notation_error(
                    text, f"the target must lie in column {COLUMNS[pending(T_TARGET).column]}"
                )
            return TARGET_BASE + target % ROWS
        if head == "take":
            arity(1)
            return TAKE_BASE + symbol(args[0])
        if head == "name":
            arity(1)
            return NAME_BASE + symbol(args[0])
        raise notation_error(text, f"unknown action '{head}'")
