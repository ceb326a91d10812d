"""Codename: Oracle: two psychics duel with Zener decks (game id ``codename``).

Each player hides a five-card *code row* and lays a 5×4 *Mind-field* of
face-down cards. On a turn a player peeks, swaps, replaces, reveals sets
(strike: one column, shield: one row, focus: a 2×2 block) and may guess the
opponent's code. Damage or a correct guess wins. The full rules in the
project's words, with every ruling, are in ``docs/rules/codename.md``.

This module holds the game, its options, the legal actions and applying
them; the other jobs have their own modules: names and action ranges in
:mod:`~oracles.games.codename.actions`, the task stack in
:mod:`~oracles.games.codename.tasks`, the position in
:mod:`~oracles.games.codename.table`, what sets do in
:mod:`~oracles.games.codename.effects`, notation in
:mod:`~oracles.games.codename.notation`, the views (their keys, events and
building) in :mod:`~oracles.games.codename.views`, the bots' snapshot of a
seat's knowledge in :mod:`~oracles.games.codename.knowledge`, resampling in
:mod:`~oracles.games.codename.resample`, how a game ends and its returns in
:mod:`~oracles.games.codename.scoring`.

Cells are ``a1``..``e4`` (column a–e, row 1–4); code slots are ``a``..``e``
and column x corresponds to slot x. Symbols: ``star square wave circle
cross``.

Actions (player decisions; integer ranges in brackets):

======================================  =========================================================
notation                                meaning
======================================  =========================================================
``code star star wave circle cross``    setup: choose the code row a–e [0, 3125)
``guess star square wave circle cross`` guess the opponent's code, once per turn [3125, 6250)
``peek a1`` / ``peek a1 b2``           look at one or two own face-down cards, once per turn
``swap a1 c3``                          swap two own face-down cards unseen, once per turn
``replace b2 circle``                   discard b2 unseen, put a hand card there, once per turn
``reveal a1 a2 a3``                     reveal a set shape (strike, shield or focus)
``end``                                 end the turn: draw back to five
``respond b2 c2 d2`` / ``respond pass`` defender: reveal a shield shape against a strike
``block b2 c2 d2``                      defender: which of several shields blocks
``codeswap a c`` / ``codeswap pass``    square shield discarded: swap two own code cards
``recode c star``                       square focus: hand card replaces code slot c
``pick d3``                             wave strike: the extra card of the opponent's field
``place c2 star``                       wave shield discarded: arrange the new cards, cell by cell
``fill c2 star`` / ``fill c2 deck``     cross shield discarded: refill a cell from hand or deck
``target c3``                           circle strike: the card the opponent discards
``take star``                           circle strike: the card taken from his discard pile
``name star``                           circle focus: the symbol the opponent must show
======================================  =========================================================

Chance actions: ``shuffle P <20 field cards a1 a2 .. e4> / <5 hand> / <20 deck
in draw order>``, ``first P``, ``reshuffle P <new deck in draw order>`` and
``scramble <symbols>`` (a wave strike: the struck column top to bottom, then
the extra card).

Observation (``view(seat)``, and ``view(None)`` for spectators): both
halves of the table as the viewer knows them, lives, the turn's counters, the
pending decision and the log of events, secrets masked per viewer; the keys
and events are listed in :mod:`oracles.games.codename.views`.

Options:

=============================  =======  ==========================================
option                         default  meaning
=============================  =======  ==========================================
``players``                    2        fixed at two
``max_turns``                  200      turns in all before the game is drawn
``max_reveals``                10       reveals in one turn (bounds chains)
``blocked_strike_shows_code``  true     a blocked strike still shows the code card
=============================  =======  ==========================================

>>> from oracles import load_game
>>> state = load_game("codename").new_initial_state()
>>> state.apply_string("code star star wave circle cross") == state.history()[0]
True
>>> state.action_to_string(state.history()[0])
'code star star wave circle cross'
>>> state.view(1)["log"]
[{'seq': 0, 'seat': 0, 'kind': 'code', 'player': 0}]
>>> state.string_to_action("PEEK z9")
Traceback (most recent call last):
...
oracles.core.errors.NotationError: cannot read 'PEEK z9': 'z9' is not a cell (a1..e4)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from oracles.core.codec import pack, unpack
from oracles.core.errors import reason
from oracles.core.game import Game
from oracles.core.options import Option
from oracles.games.codename.actions import (
    BLOCK_BASE,
    CELL_NAMES,
    CELLS,
    CODE_ACTIONS,
    CODE_BASE,
    CODESWAP_BASE,
    CODESWAP_PASS,
    COLUMNS,
    DECK_SIZE,
    END,
    FILL_BASE,
    FILL_DECK,
    GUESS_ACTIONS,
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
    SHAPE_MASKS,
    SHAPES,
    SHIELD,
    SHIELD_SHAPES,
    SWAP_BASE,
    SYMBOLS,
    TAKE_BASE,
    TARGET_BASE,
    cell_of,
    symbol_of,
)
from oracles.games.codename.effects import CodenameEffects
from oracles.games.codename.knowledge import CodenameSight
from oracles.games.codename.notation import CodenameNotation
from oracles.games.codename.resample import resample
from oracles.games.codename.scoring import LOSS, WIN
from oracles.games.codename.table import (
    BOTH,
    EVERYONE,
    IN_ORDER,
    ONE,
    SORTED,
    seat_bit,
)
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    T_BLOCK,
    T_CODE,
    T_CODESWAP,
    T_DEAL,
    T_END_TURN,
    T_FILL,
    T_FIRST,
    T_NAME,
    T_PICK,
    T_PLACE,
    T_RECODE,
    T_RESHUFFLE,
    T_RESPOND,
    T_SCRAMBLE,
    T_SHUFFLE,
    T_TAKE,
    T_TARGET,
    TASK_NAMES,
    Task,
)
from oracles.i18n import N_

#: Actions of one reveal and everything it can set off, for ``max_game_length``.
#: A strike: the reveal, a response, a block choice, the shield's refill (up to
#: 5 place/fill decisions, a codeswap, a reshuffle), the effect (pick and
#: scramble, or target and take) and a reshuffle for its own refill: about 15.
#: A wave focus claims at most three sets (each like a strike, or a
#: recode/name), then discards up to four shields of the opponent (each with
#: its refill decisions) and refills: about 75. Rounded up generously.
ACTIONS_PER_REVEAL = 100
#: Peeks, swap, replace, guess, end and the end-of-turn reshuffle.
ACTIONS_PER_TURN = 8


class CodenameGame(Game):
    """Codename: Oracle with its options fixed."""

    id: ClassVar[str] = "codename"
    title: ClassVar[str] = "Codename: Oracle"
    short_title = "Codename"
    blurb = N_("Two minds, one hidden code each: reveal, peek and guess the other's code.")
    zero_sum: ClassVar[bool] = True
    #: Its shuffles follow the codes the players choose: no "same deals".
    replayable_chance: ClassVar[bool] = False
    option_schema: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (always two)", minimum=2, maximum=2),
        # A server bounds both (docs/server.md, limits): no stranger's table runs for ever.
        Option(
            "max_turns", int, 200, "turns in all before the game is drawn", minimum=1, remote_maximum=1000
        ),
        Option("max_reveals", int, 10, "reveals a player may make in one turn", minimum=1, remote_maximum=20),
        Option(
            "blocked_strike_shows_code",
            bool,
            True,
            "a blocked strike still shows the struck column's code card to the striker",
        ),
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    test_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({}, {"max_turns": 30})

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def utility_bounds(self) -> tuple[float, float]:
        """A loss scores -1, a win +1, a draw 0 (see :mod:`.scoring`)."""
        return (LOSS, WIN)

    def max_game_length(self) -> int:
        per_turn = ACTIONS_PER_TURN + int(self.options["max_reveals"]) * ACTIONS_PER_REVEAL
        return 5 + int(self.options["max_turns"]) * per_turn

    def new_initial_state(self) -> CodenameState:
        return CodenameState(self)


class CodenameState(CodenameEffects, CodenameNotation, CodenameSight):
    """A position of Codename: Oracle.

    Cards are ids: 0..49 are seat 0's deck, 50..99 seat 1's, and id ``k`` of
    a deck shows symbol ``(k % 50) // 10``. Which id of a symbol lands where is
    immaterial to the rules; ids exist so that :meth:`resample_from_infostate`
    can follow each physical card through the history. The jobs live in
    their own modules: the position in :mod:`~oracles.games.codename.table`,
    effects in :mod:`~oracles.games.codename.effects`, notation in
    :mod:`~oracles.games.codename.notation`, views in
    :mod:`~oracles.games.codename.views`, the bots' snapshot in
    :mod:`~oracles.games.codename.knowledge`, resampling in
    :mod:`~oracles.games.codename.resample`, the result in
    :mod:`~oracles.games.codename.scoring`; legal actions and applying them
    are here.
    """

    game: CodenameGame

    # ----------------------------------------------------------- resample
    def _resample(self, seat: int, rng: random.Random) -> CodenameState:
        # Unseen cards relabelled, lost-track shuffles redrawn: see .resample.
        return resample(self, seat, rng)

    # -------------------------------------------------------- legal moves
    def legal_actions(self) -> list[int]:
        if self._over or (not self._tasks and self._turn == 0):
            return []
        if not self._tasks:
            return self._turn_actions()
        task = self._tasks[-1]
        kind = task.kind
        if kind in CHANCE_TASKS:
            return []
        if kind == T_CODE:
            return list(CODE_ACTIONS)
        seat = task.seat
        if kind == T_RESPOND:
            down = self._down_mask(seat)
            return [RESPOND_BASE + i for i in SHIELD_SHAPES if SHAPE_MASKS[i] & down == SHAPE_MASKS[i]] + [
                RESPOND_PASS
            ]
        if kind == T_BLOCK:
            return [BLOCK_BASE + row for row in task.rows]
        if kind == T_CODESWAP:
            return [CODESWAP_BASE + a * 5 + b for a in range(5) for b in range(a + 1, 5)] + [CODESWAP_PASS]
        if kind == T_RECODE:
            present = sorted({symbol_of(c) for c in self._hand[seat]})
            return [RECODE_BASE + slot * 5 + s for slot in range(5) for s in present]
        if kind == T_PICK:
            col = task.column
            opp = 1 - seat
            return [PICK_BASE + c for c in range(CELLS) if c // ROWS != col and self._face_down(opp, c)]
        if kind == T_PLACE:
            return [PLACE_BASE + s for s in sorted({symbol_of(c) for c in self._aside[seat]})]
        if kind == T_FILL:
            return [FILL_BASE + s for s in sorted({symbol_of(c) for c in self._hand[seat]})] + [FILL_DECK]
        if kind == T_TARGET:
            col = task.column
            return [TARGET_BASE + r for r in range(ROWS) if self._face_down(1 - seat, cell_of(col, r))]
        if kind == T_TAKE:
            return [TAKE_BASE + s for s in sorted({symbol_of(c) for c in self._discard[1 - seat]})]
        if kind == T_NAME:
            return [NAME_BASE + s for s in range(5)]
        raise AssertionError(f"no decision {kind}")  # pragma: no cover

    def _turn_actions(self) -> list[int]:
        seat = self._turn_player
        present = 0
        if not self._replaced:
            for card in self._hand[seat]:
                present |= 1 << symbol_of(card)
        return list(
            _turn_actions(
                self._down_mask(seat),
                self._guessed,
                self._peeked,
                self._swapped,
                present,
                self._reveals < self._max_reveals,
            )
        )

    def _illegal_reason(self, action: int) -> str | None:
        if not self._tasks:
            return self._turn_reason(action)
        task = self._tasks[-1]
        kind = task.kind
        if kind in CHANCE_TASKS:
            return self._chance_reason(task, action)
        if kind == T_CODE:
            return None if 0 <= action < 3125 else reason("choose a code first (code <five symbols>)")
        seat = task.seat
        what = TASK_NAMES[kind]
        if kind == T_RESPOND:
            if action == RESPOND_PASS:
                return None
            index = action - RESPOND_BASE
            if not 0 <= index < len(SHAPES):
                return reason("respond to the strike first (respond <cells> or respond pass)")
            if SHAPES[index][0] != SHIELD:
                return reason("a response must be a shield shape (3+ adjacent cells of one row)")
            if not all(self._face_down(seat, c) for c in SHAPES[index][1]):
                return reason("a response reveals face-down cards only")
            return None
        if kind == T_BLOCK:
            row = action - BLOCK_BASE
            if not 0 <= row < ROWS:
                return reason("choose the shield that blocks first (block <cells>)")
            return None if row in task.rows else reason("that shield cannot block this strike")
        if kind == T_CODESWAP:
            if action == CODESWAP_PASS:
                return None
            index = action - CODESWAP_BASE
            if not 0 <= index < 25:
                return reason(
                    "the square shield lets you swap two code cards first (codeswap <a> <b> or pass)"
                )
            return None if index // 5 < index % 5 else reason("name two different slots in order")
        if kind == T_RECODE:
            index = action - RECODE_BASE
            if not 0 <= index < 25:
                return reason("the square focus replaces a code card first (recode <slot> <symbol>)")
            if not any(symbol_of(c) == index % 5 for c in self._hand[seat]):
                return reason("no {symbol} in hand", symbol=SYMBOLS[index % 5])
            return None
        if kind == T_PICK:
            cell = action - PICK_BASE
            if not 0 <= cell < CELLS:
                return reason("pick the extra card of the wave strike first (pick <cell>)")
            if cell // ROWS == task.column:
                return reason("the extra card must lie outside the struck column")
            return None if self._face_down(1 - seat, cell) else reason("that card is not face down")
        if kind in (T_PLACE, T_FILL, T_TAKE, T_NAME):
            base = {T_PLACE: PLACE_BASE, T_FILL: FILL_BASE, T_TAKE: TAKE_BASE, T_NAME: NAME_BASE}[kind]
            symbol = action - base
            if kind == T_FILL and action == FILL_DECK:
                return None
            if not 0 <= symbol < 5:
                return reason("a {what} decision is pending ({what} ...)", what=what)
            pool = {
                T_PLACE: self._aside[seat],
                T_FILL: self._hand[seat],
                T_TAKE: self._discard[1 - seat],
                T_NAME: None,
            }[kind]
            if pool is not None and not any(symbol_of(c) == symbol for c in pool):
                name = SYMBOLS[symbol]
                if kind == T_PLACE:
                    return reason("no {symbol} among the cards to place", symbol=name)
                if kind == T_FILL:
                    return reason("no {symbol} in hand", symbol=name)
                return reason("no {symbol} in that discard pile", symbol=name)
            return None
        if kind == T_TARGET:
            row = action - TARGET_BASE
            if not 0 <= row < ROWS:
                return reason("choose the card of the struck column first (target <cell>)")
            return (
                None
                if self._face_down(1 - seat, cell_of(task.column, row))
                else reason("that card is not face down")
            )
        raise AssertionError(f"no decision {kind}")  # pragma: no cover

    def _turn_reason(self, action: int) -> str | None:
        if self._turn == 0:
            return "the game has not started"  # pragma: no cover
        seat = self._turn_player
        if GUESS_BASE <= action < GUESS_BASE + 3125:
            return reason("you have already guessed this turn") if self._guessed else None
        if PEEK_BASE <= action < SWAP_BASE:
            a, b = divmod(action - PEEK_BASE, CELLS)
            if self._peeked:
                return reason("you have already peeked this turn (one peek of up to two cards)")
            if a > b:
                return reason("name the two cells in order")
            if not (self._face_down(seat, a) and self._face_down(seat, b)):
                return reason("that card is face up")
            return None
        if SWAP_BASE <= action < REPLACE_BASE:
            a, b = divmod(action - SWAP_BASE, CELLS)
            if self._swapped:
                return reason("you have already swapped this turn")
            if a == b:
                return reason("cannot swap a cell with itself")
            if a > b:
                return reason("name the two cells in order")
            if not (self._face_down(seat, a) and self._face_down(seat, b)):
                return reason("face-up shield cards cannot be swapped")
            return None
        if REPLACE_BASE <= action < REVEAL_BASE:
            cell, symbol = divmod(action - REPLACE_BASE, 5)
            if self._replaced:
                return reason("you have already replaced a card this turn")
            if not self._face_down(seat, cell):
                return reason("face-up shield cards cannot be replaced")
            if not any(symbol_of(c) == symbol for c in self._hand[seat]):
                return reason("no {symbol} in hand", symbol=SYMBOLS[symbol])
            return None
        if REVEAL_BASE <= action < RESPOND_BASE:
            if self._reveals >= self._max_reveals:
                return reason("at most {count} reveals per turn", count=self._max_reveals)
            cells = SHAPES[action - REVEAL_BASE][1]
            return (
                None
                if all(self._face_down(seat, c) for c in cells)
                else reason("only face-down cards are revealed")
            )
        if action == END:
            return None
        if 0 <= action < NUM_ACTIONS:
            return reason("no such decision is pending; it is your turn")
        return f"no action {action}"

    def _chance_reason(self, task: Task, action: int) -> str | None:
        kind = task.kind
        if kind == T_FIRST:
            return None if action in (0, 1) else "the first player is 0 or 1"
        if kind == T_SHUFFLE:
            pool = self._unused(task.seat)
        elif kind == T_RESHUFFLE:
            pool = self._discard[task.seat]
        else:
            pool = [self._field[task.seat][c] for c in task.cells]
        try:
            symbols = unpack(action, 5, len(pool))
        except ValueError:
            return f"not an arrangement of {len(pool)} cards"
        if sorted(symbols) != sorted(symbol_of(c) for c in pool):
            return "the cards listed are not the cards being shuffled"
        return None

    # -------------------------------------------------------------- chance
    def starter(self) -> int | None:
        found = (entry.public["player"] for entry in self._logs if entry.public["kind"] == "first")
        return next(found, None)

    def starter_chance(self, seat: int) -> int | None:
        return seat if self._tasks and self._tasks[-1][0] == T_FIRST else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._tasks and self._tasks[-1][0] == T_FIRST:
            return [(0, 0.5), (1, 0.5)]
        return super().chance_outcomes()

    def sample_chance(self, rng: random.Random) -> int:
        self.check_chance(rng)
        task = self._tasks[-1]
        kind = task.kind
        if kind == T_FIRST:
            return rng.randrange(2)
        if kind == T_SHUFFLE:
            pool = self._unused(task.seat)
        elif kind == T_RESHUFFLE:
            pool = list(self._discard[task.seat])
        else:
            pool = [self._field[task.seat][c] for c in task.cells]
        symbols = [symbol_of(c) for c in pool]
        rng.shuffle(symbols)
        return pack(symbols, 5)

    # ------------------------------------ chance step by step (research)
    def _chance_pool(self) -> list[int] | None:
        """The cards a ``shuffle``, ``reshuffle`` or ``scramble`` arranges."""
        if self._over or not self._tasks:
            return None
        task = self._tasks[-1]
        if task.kind == T_SHUFFLE:
            return self._unused(task.seat)
        if task.kind == T_RESHUFFLE:
            return list(self._discard[task.seat])
        if task.kind == T_SCRAMBLE:
            return [self._field[task.seat][c] for c in task.cells]
        return None

    def chance_draws(self) -> tuple[list[int], int] | None:
        """``shuffle``, ``reshuffle``, ``scramble``: the symbols of the cards
        in their new order, drawn from the symbols of the cards arranged
        (``first`` is listed by ``chance_outcomes``)."""
        pool = self._chance_pool()
        if pool is None:
            return None
        return sorted(symbol_of(c) for c in pool), len(pool)

    def chance_from_draws(self, drawn: Sequence[int]) -> int:
        if self._chance_pool() is None:
            return super().chance_from_draws(drawn)
        return pack(drawn, 5)

    def chance_draws_of(self, action: int) -> list[int]:
        pool = self._chance_pool()
        if pool is None:
            return super().chance_draws_of(action)
        return unpack(action, 5, len(pool))

    # --------------------------------------------------------------- apply
    def _apply(self, action: int) -> None:
        player = self.current_player()
        self._actor = player if player >= 0 else None
        recipe: tuple[int, tuple[int, ...]] | None = None
        if not self._tasks:
            recipe = self._apply_turn_action(action)
        else:
            task = self._tasks.pop()
            recipe = self._apply_task_action(task, action)
        self._recipes.append(recipe)
        self._run()
        if not self._tasks:
            self._end_if_lethal()

    def _apply_turn_action(self, action: int) -> tuple[int, tuple[int, ...]] | None:
        seat = self._turn_player
        field = self._field[seat]
        if action >= GUESS_BASE and action < PEEK_BASE:
            self._guess(seat, unpack(action - GUESS_BASE, 5, 5))
        elif action < SWAP_BASE:
            a, b = divmod(action - PEEK_BASE, CELLS)
            cells = (a,) if a == b else (a, b)
            self._peeked = True
            for cell in cells:
                self._fknow[seat][cell] |= seat_bit(seat)
                self._see(seat, field[cell])
            self._secret_event(
                "peek",
                "symbols",
                [field[c] for c in cells],
                IN_ORDER,
                seat_bit(seat),
                player=seat,
                cells=[CELL_NAMES[c] for c in cells],
            )
        elif action < REPLACE_BASE:
            a, b = divmod(action - SWAP_BASE, CELLS)
            self._swapped = True
            field[a], field[b] = field[b], field[a]
            know = self._fknow[seat]
            know[a], know[b] = know[b], know[a]
            self._event("swap", player=seat, cells=[CELL_NAMES[a], CELL_NAMES[b]])
        elif action < REVEAL_BASE:
            cell, symbol = divmod(action - REPLACE_BASE, 5)
            self._replaced = True
            self._discard_cell(seat, cell)
            card = self._take_symbol(self._hand[seat], symbol)
            field[cell] = card
            self._fknow[seat][cell] = seat_bit(seat)
            self._secret_event(
                "replace", "symbol", (card,), ONE, seat_bit(seat), player=seat, cell=CELL_NAMES[cell]
            )
            return (REPLACE_BASE + cell * 5, (card,))
        elif action < RESPOND_BASE:
            self._reveals += 1
            self._reveal(seat, action - REVEAL_BASE)
        else:  # END
            self._event("end", player=seat)
            self._tasks.append(Task(T_END_TURN))
        return None

    def _apply_task_action(self, task: Task, action: int) -> tuple[int, tuple[int, ...]] | None:
        kind = task.kind
        if kind == T_CODE:
            seat = task.seat
            pool = list(range(seat * DECK_SIZE, seat * DECK_SIZE + DECK_SIZE))
            cards = self._assign(pool, unpack(action, 5, 5))
            self._code[seat] = cards
            self._cknow[seat] = [seat_bit(seat)] * 5
            for card in cards:
                self._see(seat, card)
            self._secret_event("code", "code", cards, IN_ORDER, seat_bit(seat), player=seat)
            return (CODE_BASE, tuple(cards))
        if kind == T_SHUFFLE:
            seat = task.seat
            cards = self._assign(self._unused(seat), unpack(action, 5, DECK_SIZE - 5))
            self._field[seat] = cards[:CELLS]
            self._hand[seat] = cards[CELLS : CELLS + HAND_SIZE]
            self._deck[seat] = cards[CELLS + HAND_SIZE :][::-1]
            for card in self._hand[seat]:
                self._see(seat, card)
            self._secret_event("shuffle", "hand", self._hand[seat], SORTED, seat_bit(seat), player=seat)
            return (0, tuple(cards))
        if kind == T_FIRST:
            self._turn_player = action
            self._start_turn(1)
            self._event("first", player=action)
            return None
        if kind == T_RESHUFFLE:
            seat = task.seat
            cards = self._assign(self._discard[seat], unpack(action, 5, len(self._discard[seat])))
            self._discard[seat] = []
            self._dknow[seat] = []
            self._deck[seat] = cards[::-1]
            self._event("reshuffle", player=seat, count=len(cards))
            return (0, tuple(cards))
        if kind == T_SCRAMBLE:
            seat, cells = task.seat, task.cells
            pool = [self._field[seat][c] for c in cells]
            cards = self._assign(pool, unpack(action, 5, len(cells)))
            for cell, card in zip(cells, cards, strict=True):
                self._field[seat][cell] = card
                self._fknow[seat][cell] = 0
            self._event("scramble", player=seat, cells=[CELL_NAMES[c] for c in cells])
            return (0, tuple(cards))
        seat = task.seat
        opp = 1 - seat
        if kind == T_RESPOND:
            if action == RESPOND_PASS:
                self._event("respond", player=seat, cells=[], symbols=[], valid=False)
            else:
                self._reveal(seat, action - RESPOND_BASE, response=True)
            return None
        if kind == T_BLOCK:
            self._block(seat, action - BLOCK_BASE, task.striker, task.column)
            return None
        if kind == T_CODESWAP:
            if action == CODESWAP_PASS:
                self._event("codeswap", player=seat, slots=[])
                return None
            a, b = divmod(action - CODESWAP_BASE, 5)
            for row in (self._code[seat], self._cknow[seat], self._cnot[seat]):
                row[a], row[b] = row[b], row[a]
            self._event("codeswap", player=seat, slots=[COLUMNS[a], COLUMNS[b]])
            return None
        if kind == T_RECODE:
            slot, symbol = divmod(action - RECODE_BASE, 5)
            card = self._take_symbol(self._hand[seat], symbol)
            self._discard[seat].append(self._code[seat][slot])
            self._dknow[seat].append(self._cknow[seat][slot])
            self._code[seat][slot] = card
            self._cknow[seat][slot] = seat_bit(seat)
            self._cnot[seat][slot] = 0
            self._secret_event(
                "recode", "symbol", (card,), ONE, seat_bit(seat), player=seat, slot=COLUMNS[slot]
            )
            return (RECODE_BASE + slot * 5, (card,))
        if kind == T_PICK:
            cell = action - PICK_BASE
            col = task.column
            self._event("pick", player=seat, cell=CELL_NAMES[cell])
            self._tasks.append(Task(T_SCRAMBLE, opp, cells=(*(cell_of(col, r) for r in range(ROWS)), cell)))
            return None
        if kind == T_PLACE:
            cells = task.cells
            card = self._take_symbol(self._aside[seat], action - PLACE_BASE)
            self._put(seat, cells[0], card, seat_bit(seat))
            self._secret_event(
                "place", "symbol", (card,), ONE, seat_bit(seat), player=seat, cell=CELL_NAMES[cells[0]]
            )
            self._continue_placing(seat, cells[1:])
            return (PLACE_BASE, (card,))
        if kind == T_FILL:
            cells = task.cells
            cell = cells[0]
            rest = cells[1:]
            if rest:
                self._tasks.append(Task(T_FILL if self._hand[seat] else T_DEAL, seat, cells=rest))
            if action == FILL_DECK:
                self._event("fill", player=seat, cell=CELL_NAMES[cell], source="deck")
                self._tasks.append(Task(T_DEAL, seat, cells=(cell,)))
                return None
            card = self._take_symbol(self._hand[seat], action - FILL_BASE)
            self._put(seat, cell, card, seat_bit(seat))
            self._secret_event(
                "fill",
                "symbol",
                (card,),
                ONE,
                seat_bit(seat),
                player=seat,
                cell=CELL_NAMES[cell],
                source="hand",
            )
            if rest and not self._hand[seat]:
                self._tasks[-1] = Task(T_DEAL, seat, cells=rest)
            return (FILL_BASE, (card,))
        if kind == T_TARGET:
            cell = cell_of(task.column, action - TARGET_BASE)
            self._discard_cell(opp, cell)
            self._event("target", player=seat, cell=CELL_NAMES[cell])
            # The striker looks through the whole pile to choose a card.
            pile = self._discard[opp]
            for index, card in enumerate(pile):
                self._see(seat, card)
                self._dknow[opp][index] |= seat_bit(seat)
            self._secret_event("search", "symbols", pile, SORTED, seat_bit(seat), player=seat, owner=opp)
            self._tasks.append(Task(T_TAKE, seat, cells=(cell,)))
            return None
        if kind == T_TAKE:
            cell = task.cells[0]
            pile = self._discard[opp]
            known = self._dknow[opp]
            symbol = action - TAKE_BASE
            # Prefer a card the pile's owner knew: which of two equal cards is
            # taken must not depend on cards the owner never saw.
            matches = [i for i, card in enumerate(pile) if symbol_of(card) == symbol]
            index = next((i for i in matches if known[i] & seat_bit(opp)), matches[0])
            card = pile.pop(index)
            del known[index]
            self._put(opp, cell, card, EVERYONE)
            self._see(opp, card)
            self._event("take", player=seat, symbol=SYMBOLS[symbol], cell=CELL_NAMES[cell])
            return (TAKE_BASE, (card,))
        if kind == T_NAME:
            symbol = action - NAME_BASE
            shown = []
            for slot in range(5):
                card = self._code[opp][slot]
                if symbol_of(card) == symbol:
                    self._cknow[opp][slot] |= seat_bit(seat)
                    self._see(seat, card)
                    shown.append(COLUMNS[slot])
                else:
                    self._cnot[opp][slot] |= 1 << symbol
                    self._not(seat, card, symbol)
            # The slots that show it are the players' (SPEC: "shown to the
            # opponent only"): a spectator hears only the symbol named.
            self._event("name", {"slots": shown}, BOTH, player=seat, symbol=SYMBOLS[symbol])
            return None
        raise AssertionError(f"no decision {kind}")  # pragma: no cover


@functools.lru_cache(maxsize=4096)
def _turn_actions(
    down_mask: int, guessed: bool, peeked: bool, swapped: bool, present: int, may_reveal: bool
) -> tuple[int, ...]:
    """The legal actions of a plain turn (cached: random play and search ask
    again and again): ``down_mask`` the face-down cells of the turn player's
    field, ``present`` the symbols in its hand as a bitmask (0 once it has
    replaced a card or with an empty hand)."""
    down = [c for c in range(CELLS) if down_mask >> c & 1]
    actions: list[int] = []
    if not guessed:
        actions.extend(GUESS_ACTIONS)
    if not peeked:
        actions.extend(PEEK_BASE + a * CELLS + b for i, a in enumerate(down) for b in down[i:])
    if not swapped:
        actions.extend(SWAP_BASE + a * CELLS + b for i, a in enumerate(down) for b in down[i + 1 :])
    if present:
        symbols = [s for s in range(5) if present >> s & 1]
        actions.extend(REPLACE_BASE + c * 5 + s for c in down for s in symbols)
    if may_reveal:
        actions.extend(REVEAL_BASE + i for i, shape in enumerate(SHAPE_MASKS) if shape & down_mask == shape)
    actions.append(END)
    return tuple(actions)
