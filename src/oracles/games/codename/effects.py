"""What revealed sets do in Codename: Oracle (strikes, shields, foci, the
wave focus), and the task runner that carries out the automatic steps."""

from __future__ import annotations

from oracles.games.codename.actions import (
    CELL_NAMES,
    CELLS,
    CIRCLE,
    COLUMNS,
    CROSS,
    FOCUS,
    HAND_SIZE,
    KIND_NAMES,
    ROWS,
    SHAPE_MASKS,
    SHAPES,
    SHIELD,
    SHIELD_SHAPES,
    SQUARE,
    STAR,
    STRIKE,
    SYMBOLS,
    WAVE,
    cell_of,
    symbol_of,
)
from oracles.games.codename.scoring import CODE, TURNS
from oracles.games.codename.table import (
    BOTH,
    EVERYONE,
    SORTED,
    CodenameTable,
    seat_bit,
)
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    DECISION_TASKS,
    T_ASIDE,
    T_BLOCK,
    T_CLAIM,
    T_CODESWAP,
    T_DEAL,
    T_DISCARD_DEAL,
    T_DRAW,
    T_END_TURN,
    T_FILL,
    T_FOCUS,
    T_HIT,
    T_NAME,
    T_NEXT_TURN,
    T_PICK,
    T_RECODE,
    T_RESHUFFLE,
    T_RESPOND,
    T_SCRAMBLE,
    T_TARGET,
    T_WAVE_DISCARD,
    T_WAVE_FOCUS,
    Task,
)


class CodenameEffects(CodenameTable):
    """What revealed sets, guesses and discarded shields do, and the runner of
    the automatic tasks they push."""

    def _guess(self, seat: int, symbols: list[int]) -> None:
        opp = 1 - seat
        self._guessed = True
        right = []
        for slot, symbol in enumerate(symbols):
            card = self._code[opp][slot]
            if symbol_of(card) == symbol:
                self._cknow[opp][slot] |= seat_bit(seat)
                self._see(seat, card)
                right.append(COLUMNS[slot])
            else:
                self._cnot[opp][slot] |= 1 << symbol
                self._not(seat, card, symbol)
        # Which slots were right is the players' (SPEC: "a correct guess
        # reveals those slots to the guesser"); how many, everyone can tell
        # from the damage.
        self._event(
            "guess",
            {"right": right},
            BOTH,
            player=seat,
            symbols=[SYMBOLS[s] for s in symbols],
            count=len(right),
        )
        if len(right) < 5:
            self._damage(seat, 2 * (5 - len(right)))
        else:
            self._end_game(CODE, [seat])

    def _reveal(self, seat: int, shape: int, response: bool = False) -> None:
        """Reveal the cards of ``shape`` in ``seat``'s field and set off what follows."""
        kind, cells = SHAPES[shape]
        field = self._field[seat]
        symbols = [symbol_of(field[c]) for c in cells]
        for cell in cells:
            self._fknow[seat][cell] = EVERYONE
            self._see(0, field[cell])
            self._see(1, field[cell])
        self._event(
            "respond" if response else "reveal",
            player=seat,
            cells=[CELL_NAMES[c] for c in cells],
            symbols=[SYMBOLS[s] for s in symbols],
            set=KIND_NAMES[kind],
            valid=len(set(symbols)) == 1,
        )
        symbol = symbols[0]
        if any(s != symbol for s in symbols):
            if not response:
                self._tasks.append(Task(T_END_TURN))
            return
        if kind == SHIELD:
            row = cells[0] % ROWS
            self._shields[seat][row] = (cells[0] // ROWS, cells[-1] // ROWS, symbol)
            for cell in cells:
                self._up[seat][cell] = True
            return
        if response:  # only shield shapes can be responses
            return  # pragma: no cover
        if kind == STRIKE:
            self._tasks.append(Task(T_DISCARD_DEAL, seat, cells=cells))
            self._strike(seat, cells[0] // ROWS, symbol)
            return
        if symbol == WAVE:
            self._tasks.append(Task(T_WAVE_FOCUS, seat, cells=cells))
            return
        self._tasks.append(Task(T_DISCARD_DEAL, seat, cells=cells))
        self._focus_effect(seat, symbol)

    def _focus_effect(self, seat: int, symbol: int) -> None:
        if symbol == STAR:
            self._damage(1 - seat, 3)
        elif symbol == CROSS:
            self._heal(seat, 3)
        elif symbol == SQUARE:
            if self._hand[seat]:
                self._tasks.append(Task(T_RECODE, seat))
        elif symbol == CIRCLE:
            self._tasks.append(Task(T_NAME, seat))

    def _strike(self, seat: int, col: int, symbol: int) -> None:
        """A valid strike of ``seat`` at column ``col``: the opponent may
        answer with a shield shape first (if he has one face down)."""
        self._tasks.append(Task(T_HIT, seat, column=col, symbol=symbol))
        opp = 1 - seat
        down = self._down_mask(opp)
        if any(SHAPE_MASKS[i] & down == SHAPE_MASKS[i] for i in SHIELD_SHAPES):
            self._tasks.append(Task(T_RESPOND, opp, column=col, symbol=symbol))

    def _hit(self, seat: int, col: int, symbol: int) -> None:
        """A valid strike of ``seat`` at column ``col`` after any response."""
        opp = 1 - seat
        rows = [
            row
            for row, shield in enumerate(self._shields[opp])
            if shield is not None and shield[0] <= col <= shield[1] and (symbol != STAR or shield[2] == STAR)
        ]
        if len(rows) > 1:
            self._tasks.append(Task(T_BLOCK, opp, column=col, rows=tuple(rows), striker=seat))
            return
        if rows:
            self._block(opp, rows[0], seat, col)
            return
        self._damage(opp, 2 if symbol == STAR else 1)
        self._event("hit", player=seat, column=COLUMNS[col])
        self._reveal_code(opp, col)
        if symbol == SQUARE:
            hand = self._hand[opp]
            self._discard[opp].extend(hand)
            self._dknow[opp].extend([seat_bit(opp)] * len(hand))
            self._event("discard_hand", player=opp, count=len(hand))
            hand.clear()
        elif symbol == CROSS:
            self._heal(seat, 1)
        elif symbol == WAVE:
            column = tuple(cell_of(col, r) for r in range(ROWS))
            if any(c // ROWS != col and self._face_down(opp, c) for c in range(CELLS)):
                self._tasks.append(Task(T_PICK, seat, column=col))
            else:
                self._tasks.append(Task(T_SCRAMBLE, opp, cells=column))
        elif symbol == CIRCLE:
            self._tasks.append(Task(T_TARGET, seat, column=col))

    def _block(self, seat: int, row: int, striker: int, col: int) -> None:
        """``seat``'s shield in ``row`` blocks ``striker``'s strike at ``col``."""
        if self._blocked_shows_code:
            # Showing the code card is part of every strike, not one of the
            # special effects a shield prevents.
            self._reveal_code(seat, col)
        self._discard_shield(seat, row, striker, col)

    def _discard_shield(self, seat: int, row: int, rival: int, col: int | None) -> None:
        """Discard ``seat``'s shield in ``row`` with its discard effect, after
        it blocked a strike at column ``col`` or (``col`` None) because a wave
        focus of ``rival`` discarded its columns."""
        shield = self._shields[seat][row]
        assert shield is not None
        first, last, symbol = shield
        cells = tuple(cell_of(c, row) for c in range(first, last + 1))
        self._shields[seat][row] = None
        for cell in cells:
            self._discard_cell(seat, cell)
        self._event(
            "block" if col is not None else "discard_shield",
            player=seat,
            cells=[CELL_NAMES[c] for c in cells],
            symbol=SYMBOLS[symbol],
        )
        if symbol == WAVE:
            self._tasks.append(Task(T_ASIDE, seat, cells=cells))
            return
        if symbol == CROSS and self._hand[seat]:
            self._tasks.append(Task(T_FILL, seat, cells=cells))
            return
        if symbol == SQUARE:
            self._tasks.append(Task(T_CODESWAP, seat))
        self._tasks.append(Task(T_DEAL, seat, cells=cells))
        if symbol == STAR:
            self._damage(rival, 1)
        elif symbol == CIRCLE and col is not None:
            self._reveal_code(rival, col)

    def _wave_focus(self, seat: int, cells: tuple[int, ...]) -> None:
        """Reveal the opponent's two columns under the focus and claim the sets there."""
        opp = 1 - seat
        first_col = cells[0] // ROWS
        opened = [
            cell_of(col, r)
            for col in (first_col, first_col + 1)
            for r in range(ROWS)
            if self._face_down(opp, cell_of(col, r))
        ]
        field = self._field[opp]
        for cell in opened:
            self._fknow[opp][cell] = EVERYONE
            self._see(0, field[cell])
            self._see(1, field[cell])
        self._event(
            "open",
            player=opp,
            cells=[CELL_NAMES[c] for c in opened],
            symbols=[SYMBOLS[symbol_of(field[c])] for c in opened],
        )
        claims = self._claims(opp, first_col, set(opened))
        if not claims:
            self._tasks.append(Task(T_END_TURN))
        self._tasks.append(Task(T_DISCARD_DEAL, seat, cells=cells))
        self._tasks.append(Task(T_WAVE_DISCARD, opp, column=first_col))
        for kind, col, symbol in reversed(claims):
            if kind == STRIKE:
                self._tasks.append(Task(T_CLAIM, seat, column=col, symbol=symbol))
            else:
                self._tasks.append(Task(T_FOCUS, seat, symbol=symbol))

    def _discard_columns(self, owner: int, first_col: int) -> None:
        """After a wave focus: discard every card of ``owner``'s columns
        ``first_col`` and the next, face-up shields there included (whole,
        with their discard effects), and refill the cells."""
        columns = (first_col, first_col + 1)
        cells = tuple(
            cell_of(col, r)
            for col in columns
            for r in range(ROWS)
            if self._field[owner][cell_of(col, r)] >= 0 and not self._up[owner][cell_of(col, r)]
        )
        for cell in cells:
            self._discard_cell(owner, cell)
        self._tasks.append(Task(T_DEAL, owner, cells=cells))
        for row in reversed(range(ROWS)):
            shield = self._shields[owner][row]
            if shield is not None and shield[0] <= columns[1] and columns[0] <= shield[1]:
                self._discard_shield(owner, row, 1 - owner, None)

    def _claims(self, opp: int, first_col: int, opened: set[int]) -> list[tuple[int, int, int]]:
        """The sets among the opened cells: strikes by column, then 2×2 blocks
        from the top, each from cards no earlier set used; a wave focus is not
        a valid set here."""
        field = self._field[opp]
        used: set[int] = set()
        claims: list[tuple[int, int, int]] = []
        for col in (first_col, first_col + 1):
            cells = [cell_of(col, r) for r in range(ROWS) if cell_of(col, r) in opened]
            for symbol in range(5):
                same = [c for c in cells if symbol_of(field[c]) == symbol]
                if len(same) >= 3:
                    claims.append((STRIKE, col, symbol))
                    used.update(same)
        for row in range(ROWS - 1):
            block = [cell_of(c, r) for c in (first_col, first_col + 1) for r in (row, row + 1)]
            if any(c not in opened or c in used for c in block):
                continue
            symbol = symbol_of(field[block[0]])
            if symbol != WAVE and all(symbol_of(field[c]) == symbol for c in block):
                claims.append((FOCUS, first_col, symbol))
                used.update(block)
        return claims

    # --------------------------------------------------------- automation
    def _run(self) -> None:
        """Carry out pending automatic tasks until a decision or chance is due."""
        tasks = self._tasks
        while tasks and not self._over:
            task = tasks[-1]
            kind = task.kind
            if kind in DECISION_TASKS or kind in CHANCE_TASKS:
                return
            tasks.pop()
            if kind == T_DEAL:
                self._deal(task.seat, task.cells)
            elif kind == T_DISCARD_DEAL:
                for cell in task.cells:
                    self._discard_cell(task.seat, cell)
                self._deal(task.seat, task.cells)
            elif kind == T_HIT:
                self._hit(task.seat, task.column, task.symbol)
            elif kind == T_CLAIM:
                self._strike(task.seat, task.column, task.symbol)
            elif kind == T_WAVE_DISCARD:
                self._discard_columns(task.seat, task.column)
            elif kind == T_FOCUS:
                self._focus_effect(task.seat, task.symbol)
            elif kind == T_WAVE_FOCUS:
                self._wave_focus(task.seat, task.cells)
            elif kind == T_ASIDE:
                self._draw_aside(task.seat, task.cells)
            elif kind == T_DRAW:
                self._draw(task.seat)
            elif kind == T_END_TURN:
                self._end_if_lethal()
                if self._over:
                    return
                tasks.append(Task(T_NEXT_TURN))
                tasks.append(Task(T_DRAW, self._turn_player))
            elif kind == T_NEXT_TURN:
                if self._turn >= self._max_turns:
                    self._end_game(TURNS, [])
                    return
                self._turn_player = 1 - self._turn_player
                self._start_turn(self._turn + 1)
                self._event("turn", player=self._turn_player, turn=self._turn)

    def _need_reshuffle(self, seat: int, task: Task) -> bool:
        """If ``seat``'s deck is empty, queue ``task`` again behind a reshuffle."""
        if self._deck[seat] or not self._discard[seat]:
            return False
        self._tasks.append(task)
        self._tasks.append(Task(T_RESHUFFLE, seat))
        return True

    def _deal(self, seat: int, cells: tuple[int, ...]) -> None:
        deck = self._deck[seat]
        for index, cell in enumerate(cells):
            if not deck:
                if self._need_reshuffle(seat, Task(T_DEAL, seat, cells=cells[index:])):
                    return
                return  # pragma: no cover (cards never run out)
            self._put(seat, cell, deck.pop(), 0)

    def _draw(self, seat: int) -> None:
        deck = self._deck[seat]
        hand = self._hand[seat]
        drawn = []
        while len(hand) < HAND_SIZE:
            if not deck:
                if self._need_reshuffle(seat, Task(T_DRAW, seat)):
                    break
                break  # pragma: no cover
            card = deck.pop()
            hand.append(card)
            drawn.append(card)
            self._see(seat, card)
        if drawn:
            self._secret_event(
                "draw", "symbols", drawn, SORTED, seat_bit(seat), player=seat, count=len(drawn)
            )
        if len(hand) == HAND_SIZE and not deck and self._discard[seat]:
            # "If, at the end of your turn, your Zener card deck becomes
            # exhausted, shuffle your discard pile ... to create a new draw
            # deck": at once, not when a card is next needed (the cards
            # discarded meanwhile went into that later deck).
            self._tasks.append(Task(T_RESHUFFLE, seat))

    def _draw_aside(self, seat: int, cells: tuple[int, ...]) -> None:
        deck = self._deck[seat]
        aside = self._aside[seat]
        while len(aside) < len(cells):
            if not deck:
                if self._need_reshuffle(seat, Task(T_ASIDE, seat, cells=cells)):
                    return
                return  # pragma: no cover
            card = deck.pop()
            aside.append(card)
            self._see(seat, card)
        self._secret_event("aside", "symbols", aside, SORTED, seat_bit(seat), player=seat, count=len(aside))
        self._continue_placing(seat, cells)
