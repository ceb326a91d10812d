"""Codename: Oracle: two psychics duel with Zener decks (game id ``codename``).

Each player hides a five-card *code row* and lays a 5×4 *Mind-field* of
face-down cards. On a turn a player peeks, swaps, replaces, reveals sets
(strike: one column, shield: one row, focus: a 2×2 block) and may guess the
opponent's code. Damage or a correct guess wins. The full rules in the
project's words, with every ruling, are in ``docs/rules/codename.md``.

Cells are ``a1``..``e4`` (column a–e, row 1–4); code slots are ``a``..``e``
and column x corresponds to slot x. Symbols: ``star square wave circle
cross``.

Actions (player decisions; integer ranges in brackets):

======================================  =========================================================
notation                                meaning
======================================  =========================================================
``code star star wave circle cross``    setup: choose the code row a–e [0, 3125)
``guess star square wave circle cross`` guess the opponent's code, once per turn [3125, 6250)
``peek a1``                             look at an own face-down card, twice per turn
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

Observation (``view(seat)``): own field with known/unknown/face-up cells,
own code and hand, life of both, what the seat knows of the opponent's field
and code, hand/deck/discard sizes, known discard cards, the turn's counters,
the pending decision and the seat's own observation log.

Options:

===============  =======  ====================================================
option           default  meaning
===============  =======  ====================================================
``players``      2        fixed at two
``max_turns``    200      turns in all before the game ends in a draw
``max_reveals``  10       reveals a player may make in one turn (bounds chains)
===============  =======  ====================================================

>>> from oracles import load_game
>>> state = load_game("codename").new_initial_state()
>>> state.apply_string("code star star wave circle cross") == state.history()[0]
True
>>> state.action_to_string(state.history()[0])
'code star star wave circle cross'
>>> state.view(1)["log"]
['p0 code']
>>> state.string_to_action("PEEK z9")
Traceback (most recent call last):
...
oracles.core.errors.NotationError: cannot read 'PEEK z9': 'z9' is not a cell (a1..e4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from oracles.core.codec import pack, unpack
from oracles.core.game import CHANCE, TERMINAL, Game, State, notation_error
from oracles.core.options import Option

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
BOTH = 3

STRIKE, SHIELD, FOCUS = range(3)
KIND_NAMES = ("strike", "shield", "focus")


def _cell(col: int, row: int) -> int:
    return col * ROWS + row


def _build_shapes() -> list[tuple[int, tuple[int, ...]]]:
    shapes: list[tuple[int, tuple[int, ...]]] = []
    for col in range(5):
        for skip in (3, 2, 1, 0):
            shapes.append((STRIKE, tuple(_cell(col, r) for r in range(ROWS) if r != skip)))
        shapes.append((STRIKE, tuple(_cell(col, r) for r in range(ROWS))))
    for row in range(ROWS):
        for first, last in ((0, 2), (1, 3), (2, 4), (0, 3), (1, 4), (0, 4)):
            shapes.append((SHIELD, tuple(_cell(c, row) for c in range(first, last + 1))))
    for col in range(4):
        for row in range(ROWS - 1):
            shapes.append((FOCUS, tuple(sorted(_cell(c, r) for c in (col, col + 1) for r in (row, row + 1)))))
    return shapes


#: Every set shape: (kind, cells in increasing cell order).
SHAPES = _build_shapes()
SHAPE_INDEX = {cells: index for index, (_, cells) in enumerate(SHAPES)}
SHAPE_MASKS = tuple(sum(1 << c for c in cells) for _, cells in SHAPES)
SHIELD_SHAPES = tuple(i for i, (kind, _) in enumerate(SHAPES) if kind == SHIELD)

# Player action ranges.
CODE_BASE = 0
GUESS_BASE = 3125
PEEK_BASE = 6250
SWAP_BASE = PEEK_BASE + CELLS
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

# Pending tasks (the first element of a task tuple). Decisions wait for a
# player, chance tasks for a chance action, the rest run on their own.
T_CODE, T_RESPOND, T_BLOCK, T_CODESWAP, T_RECODE, T_PICK, T_PLACE, T_FILL, T_TARGET, T_TAKE, T_NAME = range(
    11
)
T_SHUFFLE, T_FIRST, T_RESHUFFLE, T_SCRAMBLE = range(11, 15)
T_DEAL, T_DISCARD_DEAL, T_DRAW, T_ASIDE, T_HIT, T_FOCUS, T_WAVE_FOCUS, T_END_TURN, T_NEXT_TURN = range(15, 24)
DECISION_TASKS = frozenset(range(11))
CHANCE_TASKS = frozenset(range(11, 15))
TASK_NAMES = (
    "code",
    "respond",
    "block",
    "codeswap",
    "recode",
    "pick",
    "place",
    "fill",
    "target",
    "take",
    "name",
    "shuffle",
    "first",
    "reshuffle",
    "scramble",
)

#: Actions of one reveal and everything it can set off, for ``max_game_length``.
#: A strike: the reveal, a response, a block choice, the shield's refill (up to
#: 5 place/fill decisions, a codeswap, a reshuffle), the effect (pick and
#: scramble, or target and take) and a reshuffle for its own refill: about 15.
#: A wave focus claims at most two sets (each like a strike without response,
#: or a recode/name) plus two refills: about 25. Rounded up generously.
ACTIONS_PER_REVEAL = 80
#: Peeks, swap, replace, guess, end and the end-of-turn reshuffle.
ACTIONS_PER_TURN = 8


class CodenameKnowledge(NamedTuple):
    """What one seat may know, as plain ints for fast bots (see
    :meth:`CodenameState.knowledge`). Field cells hold a symbol index, ``-1``
    for a face-down card the seat does not know, ``-2`` for an empty cell."""

    seat: int
    turn: int
    #: The decision pending (its task tuple, all public), or ``()`` on a plain turn.
    task: tuple[Any, ...]
    life: tuple[int, int]
    peeks: int
    swapped: bool
    replaced: bool
    guessed: bool
    reveals: int
    max_reveals: int
    #: Own field, own face-up cells (bitmask), own shields per row ((first, last, symbol) or None).
    field: tuple[int, ...]
    up: int
    shields: tuple[tuple[int, int, int] | None, ...]
    code: tuple[int, ...]
    #: Own code slots the opponent has seen (bitmask) and the symbols he knows each slot is not.
    code_shown: int
    code_excluded: tuple[int, ...]
    hand: tuple[int, ...]
    aside: tuple[int, ...]
    deck: int
    discard: int
    #: Known own discards per symbol.
    discard_known: tuple[int, ...]
    #: Own face-down cells the opponent knows (bitmask).
    field_shown: int
    opp_field: tuple[int, ...]
    opp_up: int
    opp_shields: tuple[tuple[int, int, int] | None, ...]
    #: The opponent's face-down cells that he knows himself (bitmask; his peeks are public).
    opp_knows: int
    #: The opponent's code as far as known (``-1`` unknown) and excluded symbols per slot.
    opp_code: tuple[int, ...]
    opp_excluded: tuple[int, ...]
    opp_hand: int
    opp_deck: int
    opp_discard: int
    opp_discard_known: tuple[int, ...]


def symbol_of(card: int) -> int:
    """The symbol of a card id (ids 0..49 are seat 0's deck, 50..99 seat 1's)."""
    return (card % DECK_SIZE) // 10


def _bit(seat: int) -> int:
    return 1 << seat


def _matching(
    pool: list[int], symbols: list[int], forbidden: dict[int, int], rng: random.Random
) -> list[int]:
    """Symbols for the cards of ``pool`` (one each, from the multiset
    ``symbols``) that no card is known not to be: a bipartite matching by
    augmenting paths, cards in random order. The true labels are one such
    matching, so there always is one; this is the rare fallback when the
    swap repair of a random draw gets stuck."""
    owner: list[int] = [-1] * len(symbols)  # symbol slot -> index in pool

    def place(i: int, visited: set[int]) -> bool:
        for slot in range(len(symbols)):
            if slot in visited or forbidden.get(pool[i], 0) >> symbols[slot] & 1:
                continue
            visited.add(slot)
            if owner[slot] < 0 or place(owner[slot], visited):
                owner[slot] = i
                return True
        return False

    order = list(range(len(pool)))
    rng.shuffle(order)
    for i in order:
        if not place(i, set()):
            raise AssertionError("no consistent labelling: the seat's knowledge contradicts itself")
    drawn = [0] * len(pool)
    for slot, i in enumerate(owner):
        drawn[i] = symbols[slot]
    return drawn


class CodenameGame(Game):
    """Codename: Oracle with its options fixed."""

    id: ClassVar[str] = "codename"
    title: ClassVar[str] = "Codename: Oracle"
    zero_sum: ClassVar[bool] = True
    option_schema: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (always two)", minimum=2, maximum=2),
        Option("max_turns", int, 200, "turns in all before the game is drawn", minimum=1),
        Option("max_reveals", int, 10, "reveals a player may make in one turn", minimum=1),
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    test_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({}, {"max_turns": 30})

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        per_turn = ACTIONS_PER_TURN + int(self.options["max_reveals"]) * ACTIONS_PER_REVEAL
        return 5 + int(self.options["max_turns"]) * per_turn

    def new_initial_state(self) -> CodenameState:
        return CodenameState(self)


class CodenameState(State):
    """A position of Codename: Oracle.

    Cards are ids: 0..49 are seat 0's deck, 50..99 seat 1's, and id ``k`` of
    a deck shows symbol ``(k % 50) // 10``. Which id of a symbol lands where is
    immaterial to the rules; ids exist so that :meth:`resample_from_infostate`
    can follow each physical card through the history.
    """

    game: CodenameGame

    def __init__(self, game: CodenameGame) -> None:
        super().__init__(game)
        self._max_turns: int = game.options["max_turns"]
        self._max_reveals: int = game.options["max_reveals"]
        self._field: list[list[int]] = [[-1] * CELLS, [-1] * CELLS]
        self._up: list[list[bool]] = [[False] * CELLS, [False] * CELLS]
        # Per row: (first column, last column, symbol) of a face-up shield.
        self._shields: list[list[tuple[int, int, int] | None]] = [[None] * ROWS, [None] * ROWS]
        # Bitmask of the seats that know each face-down field card.
        self._fknow: list[list[int]] = [[0] * CELLS, [0] * CELLS]
        self._code: list[list[int]] = [[], []]
        self._cknow: list[list[int]] = [[0] * 5, [0] * 5]
        # Symbols the opponent knows a code slot does not hold (bitmask).
        self._cnot: list[list[int]] = [[0] * 5, [0] * 5]
        self._hand: list[list[int]] = [[], []]
        self._deck: list[list[int]] = [[], []]  # next card to draw is last
        self._discard: list[list[int]] = [[], []]
        self._dknow: list[list[int]] = [[], []]
        self._aside: list[list[int]] = [[], []]
        self._life = [START_LIFE, START_LIFE]
        self._to_move = 0
        self._turn = 0
        self._peeks = 0
        self._swapped = False
        self._replaced = False
        self._guessed = False
        self._reveals = 0
        self._over = False
        self._winners: list[int] = []
        self._tasks: list[tuple[Any, ...]] = [
            (T_FIRST,),
            (T_SHUFFLE, 1),
            (T_SHUFFLE, 0),
            (T_CODE, 1),
            (T_CODE, 0),
        ]
        # For resampling: ids each seat has seen, and (id, symbol) facts "id is not symbol".
        self._seen = [0, 0]
        self._nots: list[list[tuple[int, int]]] = [[], []]
        # Per history entry: None, or (offset, ids) when the action's integer is
        # offset + pack(symbols of ids) (the card symbols it names).
        self._recipes: list[tuple[int, tuple[int, ...]] | None] = []
        self._logs: list[list[str]] = [[], []]

    # ------------------------------------------------------------- basics
    @property
    def turn_number(self) -> int:
        """The turn being played (public: both seats count the turns)."""
        return self._turn

    def current_player(self) -> int:
        if self._over:
            return TERMINAL
        if self._tasks:
            task = self._tasks[-1]
            if task[0] in CHANCE_TASKS:
                return CHANCE
            return int(task[1])
        return self._to_move

    def clone(self) -> CodenameState:
        twin = CodenameState.__new__(CodenameState)
        twin.__dict__.update(self.__dict__)
        twin._history = list(self._history)
        twin._field = [list(x) for x in self._field]
        twin._up = [list(x) for x in self._up]
        twin._shields = [list(x) for x in self._shields]
        twin._fknow = [list(x) for x in self._fknow]
        twin._code = [list(x) for x in self._code]
        twin._cknow = [list(x) for x in self._cknow]
        twin._cnot = [list(x) for x in self._cnot]
        twin._hand = [list(x) for x in self._hand]
        twin._deck = [list(x) for x in self._deck]
        twin._discard = [list(x) for x in self._discard]
        twin._dknow = [list(x) for x in self._dknow]
        twin._aside = [list(x) for x in self._aside]
        twin._life = list(self._life)
        twin._winners = list(self._winners)
        twin._tasks = list(self._tasks)
        twin._seen = list(self._seen)
        twin._nots = [list(x) for x in self._nots]
        twin._recipes = list(self._recipes)
        twin._logs = [list(x) for x in self._logs]
        return twin

    def scores(self) -> list[float]:
        if not self._over or not self._winners:
            return [0.0, 0.0]
        return [1.0 if seat in self._winners else -1.0 for seat in range(2)]

    def winners(self) -> list[int]:
        return list(self._winners) if self._over else []

    # ------------------------------------------------------------ helpers
    def _face_down(self, seat: int, cell: int) -> bool:
        return self._field[seat][cell] >= 0 and not self._up[seat][cell]

    def _log(self, seat: int, text: str) -> None:
        self._logs[seat].append(text)

    def _log_both(self, text: str) -> None:
        self._logs[0].append(text)
        self._logs[1].append(text)

    def _see(self, seat: int, card: int) -> None:
        self._seen[seat] |= 1 << card

    def _take_symbol(self, cards: list[int], symbol: int) -> int:
        for index, card in enumerate(cards):
            if symbol_of(card) == symbol:
                return cards.pop(index)
        raise AssertionError("validated before")  # pragma: no cover

    def _assign(self, pool: list[int], symbols: list[int]) -> list[int]:
        """Take from ``pool`` one card of each symbol in turn (ids for a listing)."""
        return [self._take_symbol(pool, s) for s in symbols]

    @staticmethod
    def _counts(cards: list[int]) -> list[int]:
        counts = [0] * 5
        for card in cards:
            counts[symbol_of(card)] += 1
        return counts

    def _damage(self, seat: int, amount: int) -> None:
        self._life[seat] -= amount

    def _discard_cell(self, seat: int, cell: int) -> None:
        card = self._field[seat][cell]
        self._discard[seat].append(card)
        self._dknow[seat].append(BOTH if self._up[seat][cell] else self._fknow[seat][cell])
        self._field[seat][cell] = -1
        self._up[seat][cell] = False
        self._fknow[seat][cell] = 0

    def _reveal_code(self, owner: int, slot: int) -> None:
        """Show the code card of ``slot`` to ``owner``'s opponent."""
        viewer = 1 - owner
        card = self._code[owner][slot]
        self._cknow[owner][slot] |= _bit(viewer)
        self._see(viewer, card)
        self._log(viewer, f"p{owner} code {COLUMNS[slot]} {SYMBOLS[symbol_of(card)]}")
        self._log(owner, f"p{owner} code {COLUMNS[slot]} shown")

    # -------------------------------------------------------- legal moves
    def legal_actions(self) -> list[int]:
        if self._over or (not self._tasks and self._turn == 0):
            return []
        if not self._tasks:
            return self._turn_actions()
        task = self._tasks[-1]
        kind = task[0]
        if kind in CHANCE_TASKS:
            return []
        if kind == T_CODE:
            return list(CODE_ACTIONS)
        seat = task[1]
        if kind == T_RESPOND:
            down = self._down_mask(seat)
            return [RESPOND_BASE + i for i in SHIELD_SHAPES if SHAPE_MASKS[i] & down == SHAPE_MASKS[i]] + [
                RESPOND_PASS
            ]
        if kind == T_BLOCK:
            return [BLOCK_BASE + row for row in task[4]]
        if kind == T_CODESWAP:
            return [CODESWAP_BASE + a * 5 + b for a in range(5) for b in range(a + 1, 5)] + [CODESWAP_PASS]
        if kind == T_RECODE:
            present = sorted({symbol_of(c) for c in self._hand[seat]})
            return [RECODE_BASE + slot * 5 + s for slot in range(5) for s in present]
        if kind == T_PICK:
            col = task[2]
            opp = 1 - seat
            return [PICK_BASE + c for c in range(CELLS) if c // ROWS != col and self._face_down(opp, c)]
        if kind == T_PLACE:
            return [PLACE_BASE + s for s in sorted({symbol_of(c) for c in self._aside[seat]})]
        if kind == T_FILL:
            return [FILL_BASE + s for s in sorted({symbol_of(c) for c in self._hand[seat]})] + [FILL_DECK]
        if kind == T_TARGET:
            col = task[2]
            return [TARGET_BASE + r for r in range(ROWS) if self._face_down(1 - seat, _cell(col, r))]
        if kind == T_TAKE:
            return [TAKE_BASE + s for s in sorted({symbol_of(c) for c in self._discard[1 - seat]})]
        if kind == T_NAME:
            return [NAME_BASE + s for s in range(5)]
        raise AssertionError(f"no decision {kind}")  # pragma: no cover

    def _turn_actions(self) -> list[int]:
        seat = self._to_move
        field = self._field[seat]
        up = self._up[seat]
        down = [c for c in range(CELLS) if field[c] >= 0 and not up[c]]
        actions: list[int] = []
        if not self._guessed:
            actions.extend(GUESS_ACTIONS)
        if self._peeks < 2:
            actions.extend(PEEK_BASE + c for c in down)
        if not self._swapped:
            actions.extend(SWAP_BASE + a * CELLS + b for i, a in enumerate(down) for b in down[i + 1 :])
        if not self._replaced and self._hand[seat]:
            present = sorted({symbol_of(c) for c in self._hand[seat]})
            actions.extend(REPLACE_BASE + c * 5 + s for c in down for s in present)
        if self._reveals < self._max_reveals:
            mask = self._down_mask(seat)
            actions.extend(REVEAL_BASE + i for i, shape in enumerate(SHAPE_MASKS) if shape & mask == shape)
        actions.append(END)
        return actions

    def _down_mask(self, seat: int) -> int:
        """The face-down cells of ``seat``'s field as a bitmask."""
        field = self._field[seat]
        up = self._up[seat]
        mask = 0
        for cell in range(CELLS):
            if field[cell] >= 0 and not up[cell]:
                mask |= 1 << cell
        return mask

    def _illegal_reason(self, action: int) -> str | None:
        if not self._tasks:
            return self._turn_reason(action)
        task = self._tasks[-1]
        kind = task[0]
        if kind in CHANCE_TASKS:
            return self._chance_reason(task, action)
        if kind == T_CODE:
            return None if 0 <= action < 3125 else "choose a code first (code <five symbols>)"
        seat = task[1]
        what = TASK_NAMES[kind]
        if kind == T_RESPOND:
            if action == RESPOND_PASS:
                return None
            index = action - RESPOND_BASE
            if not 0 <= index < len(SHAPES):
                return "respond to the strike first (respond <cells> or respond pass)"
            if SHAPES[index][0] != SHIELD:
                return "a response must be a shield shape (3+ adjacent cells of one row)"
            if not all(self._face_down(seat, c) for c in SHAPES[index][1]):
                return "a response reveals face-down cards only"
            return None
        if kind == T_BLOCK:
            row = action - BLOCK_BASE
            if not 0 <= row < ROWS:
                return "choose the shield that blocks first (block <cells>)"
            return None if row in task[4] else "that shield cannot block this strike"
        if kind == T_CODESWAP:
            if action == CODESWAP_PASS:
                return None
            index = action - CODESWAP_BASE
            if not 0 <= index < 25:
                return "the square shield lets you swap two code cards first (codeswap <a> <b> or pass)"
            return None if index // 5 < index % 5 else "name two different slots in order"
        if kind == T_RECODE:
            index = action - RECODE_BASE
            if not 0 <= index < 25:
                return "the square focus replaces a code card first (recode <slot> <symbol>)"
            if not any(symbol_of(c) == index % 5 for c in self._hand[seat]):
                return f"no {SYMBOLS[index % 5]} in hand"
            return None
        if kind == T_PICK:
            cell = action - PICK_BASE
            if not 0 <= cell < CELLS:
                return "pick the extra card of the wave strike first (pick <cell>)"
            if cell // ROWS == task[2]:
                return "the extra card must lie outside the struck column"
            return None if self._face_down(1 - seat, cell) else "that card is not face down"
        if kind in (T_PLACE, T_FILL, T_TAKE, T_NAME):
            base = {T_PLACE: PLACE_BASE, T_FILL: FILL_BASE, T_TAKE: TAKE_BASE, T_NAME: NAME_BASE}[kind]
            symbol = action - base
            if kind == T_FILL and action == FILL_DECK:
                return None
            if not 0 <= symbol < 5:
                return f"a {what} decision is pending ({what} ...)"
            pool = {
                T_PLACE: self._aside[seat],
                T_FILL: self._hand[seat],
                T_TAKE: self._discard[1 - seat],
                T_NAME: None,
            }[kind]
            if pool is not None and not any(symbol_of(c) == symbol for c in pool):
                where = {
                    T_PLACE: "among the cards to place",
                    T_FILL: "in hand",
                    T_TAKE: "in that discard pile",
                }
                return f"no {SYMBOLS[symbol]} {where[kind]}"
            return None
        if kind == T_TARGET:
            row = action - TARGET_BASE
            if not 0 <= row < ROWS:
                return "choose the card of the struck column first (target <cell>)"
            return None if self._face_down(1 - seat, _cell(task[2], row)) else "that card is not face down"
        raise AssertionError(f"no decision {kind}")  # pragma: no cover

    def _turn_reason(self, action: int) -> str | None:
        if self._turn == 0:
            return "the game has not started"  # pragma: no cover
        seat = self._to_move
        if GUESS_BASE <= action < GUESS_BASE + 3125:
            return "you have already guessed this turn" if self._guessed else None
        if PEEK_BASE <= action < SWAP_BASE:
            if self._peeks >= 2:
                return "you have already peeked twice this turn"
            return None if self._face_down(seat, action - PEEK_BASE) else "that card is face up"
        if SWAP_BASE <= action < REPLACE_BASE:
            a, b = divmod(action - SWAP_BASE, CELLS)
            if self._swapped:
                return "you have already swapped this turn"
            if a == b:
                return "cannot swap a cell with itself"
            if a > b:
                return "name the two cells in order"
            if not (self._face_down(seat, a) and self._face_down(seat, b)):
                return "face-up shield cards cannot be swapped"
            return None
        if REPLACE_BASE <= action < REVEAL_BASE:
            cell, symbol = divmod(action - REPLACE_BASE, 5)
            if self._replaced:
                return "you have already replaced a card this turn"
            if not self._face_down(seat, cell):
                return "face-up shield cards cannot be replaced"
            if not any(symbol_of(c) == symbol for c in self._hand[seat]):
                return f"no {SYMBOLS[symbol]} in hand"
            return None
        if REVEAL_BASE <= action < RESPOND_BASE:
            if self._reveals >= self._max_reveals:
                return f"at most {self._max_reveals} reveals per turn"
            cells = SHAPES[action - REVEAL_BASE][1]
            return (
                None if all(self._face_down(seat, c) for c in cells) else "only face-down cards are revealed"
            )
        if action == END:
            return None
        if 0 <= action < NUM_ACTIONS:
            return "no such decision is pending; it is your turn"
        return f"no action {action}"

    def _chance_reason(self, task: tuple[Any, ...], action: int) -> str | None:
        kind = task[0]
        if kind == T_FIRST:
            return None if action in (0, 1) else "the first player is 0 or 1"
        if kind == T_SHUFFLE:
            pool = self._unused(task[1])
        elif kind == T_RESHUFFLE:
            pool = self._discard[task[1]]
        else:
            pool = [self._field[task[1]][c] for c in task[2]]
        try:
            symbols = unpack(action, 5, len(pool))
        except ValueError:
            return f"not an arrangement of {len(pool)} cards"
        if sorted(symbols) != sorted(symbol_of(c) for c in pool):
            return "the cards listed are not the cards being shuffled"
        return None

    def _unused(self, seat: int) -> list[int]:
        code = set(self._code[seat])
        return [c for c in range(seat * DECK_SIZE, seat * DECK_SIZE + DECK_SIZE) if c not in code]

    # -------------------------------------------------------------- chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._tasks and self._tasks[-1][0] == T_FIRST:
            return [(0, 0.5), (1, 0.5)]
        return super().chance_outcomes()

    def sample_chance(self, rng: random.Random) -> int:
        task = self._tasks[-1]
        kind = task[0]
        if kind == T_FIRST:
            return rng.randrange(2)
        if kind == T_SHUFFLE:
            pool = self._unused(task[1])
        elif kind == T_RESHUFFLE:
            pool = list(self._discard[task[1]])
        else:
            pool = [self._field[task[1]][c] for c in task[2]]
        symbols = [symbol_of(c) for c in pool]
        rng.shuffle(symbols)
        return pack(symbols, 5)

    # ------------------------------------ chance step by step (research)
    def _chance_pool(self) -> list[int] | None:
        """The cards a ``shuffle``, ``reshuffle`` or ``scramble`` arranges."""
        if self._over or not self._tasks:
            return None
        task = self._tasks[-1]
        if task[0] == T_SHUFFLE:
            return self._unused(task[1])
        if task[0] == T_RESHUFFLE:
            return list(self._discard[task[1]])
        if task[0] == T_SCRAMBLE:
            return [self._field[task[1]][c] for c in task[2]]
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
        recipe: tuple[int, tuple[int, ...]] | None = None
        if not self._tasks:
            recipe = self._apply_turn_action(action)
        else:
            task = self._tasks.pop()
            recipe = self._apply_task_action(task, action)
        self._recipes.append(recipe)
        self._run()
        if not self._over and (self._life[0] <= 0 or self._life[1] <= 0):
            self._over = True
            self._winners = [seat for seat in range(2) if self._life[seat] > 0]
            self._log_both("game over")

    def _apply_turn_action(self, action: int) -> tuple[int, tuple[int, ...]] | None:
        seat = self._to_move
        opp = 1 - seat
        field = self._field[seat]
        if action >= GUESS_BASE and action < PEEK_BASE:
            self._guess(seat, unpack(action - GUESS_BASE, 5, 5))
        elif action < SWAP_BASE:
            cell = action - PEEK_BASE
            self._peeks += 1
            self._fknow[seat][cell] |= _bit(seat)
            self._see(seat, field[cell])
            self._log(seat, f"p{seat} peek {CELL_NAMES[cell]} {SYMBOLS[symbol_of(field[cell])]}")
            self._log(opp, f"p{seat} peek {CELL_NAMES[cell]}")
        elif action < REPLACE_BASE:
            a, b = divmod(action - SWAP_BASE, CELLS)
            self._swapped = True
            field[a], field[b] = field[b], field[a]
            know = self._fknow[seat]
            know[a], know[b] = know[b], know[a]
            self._log_both(f"p{seat} swap {CELL_NAMES[a]} {CELL_NAMES[b]}")
        elif action < REVEAL_BASE:
            cell, symbol = divmod(action - REPLACE_BASE, 5)
            self._replaced = True
            self._discard_cell(seat, cell)
            card = self._take_symbol(self._hand[seat], symbol)
            field[cell] = card
            self._fknow[seat][cell] = _bit(seat)
            self._log(seat, f"p{seat} replace {CELL_NAMES[cell]} {SYMBOLS[symbol]}")
            self._log(opp, f"p{seat} replace {CELL_NAMES[cell]}")
            return (REPLACE_BASE + cell * 5, (card,))
        elif action < RESPOND_BASE:
            self._reveals += 1
            self._reveal(seat, action - REVEAL_BASE)
        else:  # END
            self._log_both(f"p{seat} end")
            self._tasks.append((T_END_TURN,))
        return None

    def _apply_task_action(self, task: tuple[Any, ...], action: int) -> tuple[int, tuple[int, ...]] | None:
        kind = task[0]
        if kind == T_CODE:
            seat = task[1]
            pool = list(range(seat * DECK_SIZE, seat * DECK_SIZE + DECK_SIZE))
            cards = self._assign(pool, unpack(action, 5, 5))
            self._code[seat] = cards
            self._cknow[seat] = [_bit(seat)] * 5
            for card in cards:
                self._see(seat, card)
            self._log(seat, f"p{seat} code " + " ".join(SYMBOLS[symbol_of(c)] for c in cards))
            self._log(1 - seat, f"p{seat} code")
            return (CODE_BASE, tuple(cards))
        if kind == T_SHUFFLE:
            seat = task[1]
            cards = self._assign(self._unused(seat), unpack(action, 5, DECK_SIZE - 5))
            self._field[seat] = cards[:CELLS]
            self._hand[seat] = cards[CELLS : CELLS + HAND_SIZE]
            self._deck[seat] = cards[CELLS + HAND_SIZE :][::-1]
            for card in self._hand[seat]:
                self._see(seat, card)
            self._log(seat, f"p{seat} shuffle hand " + self._symbols_text(self._hand[seat]))
            self._log(1 - seat, f"p{seat} shuffle")
            return (0, tuple(cards))
        if kind == T_FIRST:
            self._to_move = action
            self._start_turn(1)
            self._log_both(f"first {action}")
            return None
        if kind == T_RESHUFFLE:
            seat = task[1]
            cards = self._assign(self._discard[seat], unpack(action, 5, len(self._discard[seat])))
            self._discard[seat] = []
            self._dknow[seat] = []
            self._deck[seat] = cards[::-1]
            self._log_both(f"p{seat} reshuffle {len(cards)}")
            return (0, tuple(cards))
        if kind == T_SCRAMBLE:
            seat, cells = task[1], task[2]
            pool = [self._field[seat][c] for c in cells]
            cards = self._assign(pool, unpack(action, 5, len(cells)))
            for cell, card in zip(cells, cards, strict=True):
                self._field[seat][cell] = card
                self._fknow[seat][cell] = 0
            self._log_both(f"p{seat} scramble " + " ".join(CELL_NAMES[c] for c in cells))
            return (0, tuple(cards))
        seat = task[1]
        opp = 1 - seat
        if kind == T_RESPOND:
            if action == RESPOND_PASS:
                self._log_both(f"p{seat} respond pass")
            else:
                self._reveal(seat, action - RESPOND_BASE, response=True)
            return None
        if kind == T_BLOCK:
            self._block(seat, action - BLOCK_BASE, task[2], task[3])
            return None
        if kind == T_CODESWAP:
            if action == CODESWAP_PASS:
                self._log_both(f"p{seat} codeswap pass")
                return None
            a, b = divmod(action - CODESWAP_BASE, 5)
            for row in (self._code[seat], self._cknow[seat], self._cnot[seat]):
                row[a], row[b] = row[b], row[a]
            self._log_both(f"p{seat} codeswap {COLUMNS[a]} {COLUMNS[b]}")
            return None
        if kind == T_RECODE:
            slot, symbol = divmod(action - RECODE_BASE, 5)
            card = self._take_symbol(self._hand[seat], symbol)
            self._discard[seat].append(self._code[seat][slot])
            self._dknow[seat].append(self._cknow[seat][slot])
            self._code[seat][slot] = card
            self._cknow[seat][slot] = _bit(seat)
            self._cnot[seat][slot] = 0
            self._log(seat, f"p{seat} recode {COLUMNS[slot]} {SYMBOLS[symbol]}")
            self._log(opp, f"p{seat} recode {COLUMNS[slot]}")
            return (RECODE_BASE + slot * 5, (card,))
        if kind == T_PICK:
            cell = action - PICK_BASE
            col = task[2]
            self._log_both(f"p{seat} pick {CELL_NAMES[cell]}")
            self._tasks.append((T_SCRAMBLE, opp, (*(_cell(col, r) for r in range(ROWS)), cell)))
            return None
        if kind == T_PLACE:
            cells = task[2]
            card = self._take_symbol(self._aside[seat], action - PLACE_BASE)
            self._put(seat, cells[0], card, _bit(seat))
            self._log(seat, f"p{seat} place {CELL_NAMES[cells[0]]} {SYMBOLS[symbol_of(card)]}")
            self._log(opp, f"p{seat} place {CELL_NAMES[cells[0]]}")
            self._continue_placing(seat, cells[1:])
            return (PLACE_BASE, (card,))
        if kind == T_FILL:
            cells = task[2]
            cell = cells[0]
            rest = cells[1:]
            if rest:
                self._tasks.append((T_FILL, seat, rest) if self._hand[seat] else (T_DEAL, seat, rest))
            if action == FILL_DECK:
                self._log_both(f"p{seat} fill {CELL_NAMES[cell]} deck")
                self._tasks.append((T_DEAL, seat, (cell,)))
                return None
            card = self._take_symbol(self._hand[seat], action - FILL_BASE)
            self._put(seat, cell, card, _bit(seat))
            self._log(seat, f"p{seat} fill {CELL_NAMES[cell]} {SYMBOLS[symbol_of(card)]}")
            self._log(opp, f"p{seat} fill {CELL_NAMES[cell]}")
            if rest and not self._hand[seat]:
                self._tasks[-1] = (T_DEAL, seat, rest)
            return (FILL_BASE, (card,))
        if kind == T_TARGET:
            cell = _cell(task[2], action - TARGET_BASE)
            self._discard_cell(opp, cell)
            self._log_both(f"p{seat} target {CELL_NAMES[cell]}")
            # The striker looks through the whole pile to choose a card.
            pile = self._discard[opp]
            for index, card in enumerate(pile):
                self._see(seat, card)
                self._dknow[opp][index] |= _bit(seat)
            self._log(seat, f"p{opp} discard pile " + self._symbols_text(pile))
            self._tasks.append((T_TAKE, seat, cell))
            return None
        if kind == T_TAKE:
            cell = task[2]
            pile = self._discard[opp]
            known = self._dknow[opp]
            symbol = action - TAKE_BASE
            # Prefer a card the pile's owner knew: which of two equal cards is
            # taken must not depend on cards the owner never saw.
            matches = [i for i, card in enumerate(pile) if symbol_of(card) == symbol]
            index = next((i for i in matches if known[i] & _bit(opp)), matches[0])
            card = pile.pop(index)
            del known[index]
            self._put(opp, cell, card, BOTH)
            self._see(opp, card)
            self._log_both(f"p{seat} take {SYMBOLS[symbol]} to {CELL_NAMES[cell]}")
            return (TAKE_BASE, (card,))
        if kind == T_NAME:
            symbol = action - NAME_BASE
            shown = []
            for slot in range(5):
                card = self._code[opp][slot]
                if symbol_of(card) == symbol:
                    self._cknow[opp][slot] |= _bit(seat)
                    self._see(seat, card)
                    shown.append(COLUMNS[slot])
                else:
                    self._cnot[opp][slot] |= 1 << symbol
                    self._nots[seat].append((card, symbol))
            self._log_both(f"p{seat} name {SYMBOLS[symbol]}: " + (" ".join(shown) or "none"))
            return None
        raise AssertionError(f"no decision {kind}")  # pragma: no cover

    def _symbols_text(self, cards: list[int]) -> str:
        return " ".join(SYMBOLS[s] for s in sorted(symbol_of(c) for c in cards)) or "-"

    def _start_turn(self, number: int) -> None:
        self._turn = number
        self._peeks = 0
        self._swapped = self._replaced = self._guessed = False
        self._reveals = 0

    def _put(self, seat: int, cell: int, card: int, know: int) -> None:
        self._field[seat][cell] = card
        self._up[seat][cell] = False
        self._fknow[seat][cell] = know

    def _continue_placing(self, seat: int, cells: tuple[int, ...]) -> None:
        # Only the count of cards left is public, so only the last card is
        # placed without a decision (a choice among equal cards would leak).
        if len(cells) > 1:
            self._tasks.append((T_PLACE, seat, cells))
        elif cells:
            card = self._aside[seat].pop()
            self._put(seat, cells[0], card, _bit(seat))
            self._log(seat, f"p{seat} place {CELL_NAMES[cells[0]]} {SYMBOLS[symbol_of(card)]}")
            self._log(1 - seat, f"p{seat} place {CELL_NAMES[cells[0]]}")

    # ------------------------------------------------------------- effects
    def _guess(self, seat: int, symbols: list[int]) -> None:
        opp = 1 - seat
        self._guessed = True
        right = []
        for slot, symbol in enumerate(symbols):
            card = self._code[opp][slot]
            if symbol_of(card) == symbol:
                self._cknow[opp][slot] |= _bit(seat)
                self._see(seat, card)
                right.append(COLUMNS[slot])
            else:
                self._cnot[opp][slot] |= 1 << symbol
                self._nots[seat].append((card, symbol))
                self._damage(seat, 2)
        self._log_both(
            f"p{seat} guess {' '.join(SYMBOLS[s] for s in symbols)}: right {' '.join(right) or 'none'}"
        )
        if len(right) == 5:
            self._over = True
            self._winners = [seat]

    def _reveal(self, seat: int, shape: int, response: bool = False) -> None:
        """Reveal the cards of ``shape`` in ``seat``'s field and set off what follows."""
        kind, cells = SHAPES[shape]
        field = self._field[seat]
        symbols = [symbol_of(field[c]) for c in cells]
        for cell in cells:
            self._fknow[seat][cell] = BOTH
            self._see(0, field[cell])
            self._see(1, field[cell])
        word = "respond" if response else "reveal"
        self._log_both(
            f"p{seat} {word} {' '.join(CELL_NAMES[c] for c in cells)}: {' '.join(SYMBOLS[s] for s in symbols)}"
        )
        symbol = symbols[0]
        if any(s != symbol for s in symbols):
            if not response:
                self._tasks.append((T_END_TURN,))
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
            col = cells[0] // ROWS
            self._tasks.append((T_DISCARD_DEAL, seat, cells))
            self._tasks.append((T_HIT, seat, col, symbol, False))
            opp = 1 - seat
            down = self._down_mask(opp)
            if any(SHAPE_MASKS[i] & down == SHAPE_MASKS[i] for i in SHIELD_SHAPES):
                self._tasks.append((T_RESPOND, opp, col, symbol))
            return
        if symbol == WAVE:
            self._tasks.append((T_WAVE_FOCUS, seat, cells))
            return
        self._tasks.append((T_DISCARD_DEAL, seat, cells))
        self._focus_effect(seat, symbol)

    def _focus_effect(self, seat: int, symbol: int) -> None:
        if symbol == STAR:
            self._damage(1 - seat, 3)
        elif symbol == CROSS:
            self._life[seat] += 3
        elif symbol == SQUARE:
            if self._hand[seat]:
                self._tasks.append((T_RECODE, seat))
        elif symbol == CIRCLE:
            self._tasks.append((T_NAME, seat))

    def _hit(self, seat: int, col: int, symbol: int, via_focus: bool) -> None:
        """A valid strike of ``seat`` at column ``col`` after any response."""
        opp = 1 - seat
        rows = [
            row
            for row, shield in enumerate(self._shields[opp])
            if shield is not None and shield[0] <= col <= shield[1] and (symbol != STAR or shield[2] == STAR)
        ]
        if len(rows) > 1:
            self._tasks.append((T_BLOCK, opp, seat, col, tuple(rows)))
            return
        if rows:
            self._block(opp, rows[0], seat, col)
            return
        self._damage(opp, 2 if symbol == STAR else 1)
        self._log_both(f"p{seat} strike {COLUMNS[col]} hits")
        self._reveal_code(opp, col)
        if symbol == SQUARE:
            hand = self._hand[opp]
            self._discard[opp].extend(hand)
            self._dknow[opp].extend([_bit(opp)] * len(hand))
            self._log_both(f"p{opp} discards hand {len(hand)}")
            hand.clear()
        elif symbol == CROSS:
            self._life[seat] += 1
        elif symbol == WAVE and not via_focus:
            column = tuple(_cell(col, r) for r in range(ROWS))
            if any(c // ROWS != col and self._face_down(opp, c) for c in range(CELLS)):
                self._tasks.append((T_PICK, seat, col))
            else:
                self._tasks.append((T_SCRAMBLE, opp, column))
        elif symbol == CIRCLE and not via_focus:
            self._tasks.append((T_TARGET, seat, col))

    def _block(self, seat: int, row: int, striker: int, col: int) -> None:
        """``seat``'s shield in ``row`` blocks ``striker``'s strike at ``col``."""
        shield = self._shields[seat][row]
        assert shield is not None
        first, last, symbol = shield
        cells = tuple(_cell(c, row) for c in range(first, last + 1))
        self._shields[seat][row] = None
        for cell in cells:
            self._discard_cell(seat, cell)
        self._log_both(f"p{seat} block {' '.join(CELL_NAMES[c] for c in cells)}")
        if symbol == WAVE:
            self._tasks.append((T_ASIDE, seat, cells))
            return
        if symbol == CROSS and self._hand[seat]:
            self._tasks.append((T_FILL, seat, cells))
            return
        if symbol == SQUARE:
            self._tasks.append((T_CODESWAP, seat))
        self._tasks.append((T_DEAL, seat, cells))
        if symbol == STAR:
            self._damage(striker, 1)
        elif symbol == CIRCLE:
            self._reveal_code(striker, col)

    def _wave_focus(self, seat: int, cells: tuple[int, ...]) -> None:
        """Reveal the opponent's two columns under the focus and claim the sets there."""
        opp = 1 - seat
        first_col = cells[0] // ROWS
        opened = [
            _cell(col, r)
            for col in (first_col, first_col + 1)
            for r in range(ROWS)
            if self._face_down(opp, _cell(col, r))
        ]
        field = self._field[opp]
        for cell in opened:
            self._fknow[opp][cell] = BOTH
            self._see(0, field[cell])
            self._see(1, field[cell])
        self._log_both(
            f"p{opp} opens {' '.join(f'{CELL_NAMES[c]} {SYMBOLS[symbol_of(field[c])]}' for c in opened) or '-'}"
        )
        claims = self._claims(opp, first_col, set(opened))
        if not claims:
            self._tasks.append((T_END_TURN,))
        self._tasks.append((T_DISCARD_DEAL, seat, cells))
        self._tasks.append((T_DISCARD_DEAL, opp, tuple(opened)))
        for kind, col, symbol in reversed(claims):
            if kind == STRIKE:
                self._tasks.append((T_HIT, seat, col, symbol, True))
            else:
                self._tasks.append((T_FOCUS, seat, symbol))

    def _claims(self, opp: int, first_col: int, opened: set[int]) -> list[tuple[int, int, int]]:
        """The sets among the opened cells: strikes by column, then 2×2 blocks
        from the top, each from cards no earlier set used; a wave focus is not
        a valid set here."""
        field = self._field[opp]
        used: set[int] = set()
        claims: list[tuple[int, int, int]] = []
        for col in (first_col, first_col + 1):
            cells = [_cell(col, r) for r in range(ROWS) if _cell(col, r) in opened]
            for symbol in range(5):
                same = [c for c in cells if symbol_of(field[c]) == symbol]
                if len(same) >= 3:
                    claims.append((STRIKE, col, symbol))
                    used.update(same)
        for row in range(ROWS - 1):
            block = [_cell(c, r) for c in (first_col, first_col + 1) for r in (row, row + 1)]
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
            kind = task[0]
            if kind in DECISION_TASKS or kind in CHANCE_TASKS:
                return
            tasks.pop()
            if kind == T_DEAL:
                self._deal(task[1], task[2])
            elif kind == T_DISCARD_DEAL:
                for cell in task[2]:
                    self._discard_cell(task[1], cell)
                self._deal(task[1], task[2])
            elif kind == T_HIT:
                self._hit(task[1], task[2], task[3], task[4])
            elif kind == T_FOCUS:
                self._focus_effect(task[1], task[2])
            elif kind == T_WAVE_FOCUS:
                self._wave_focus(task[1], task[2])
            elif kind == T_ASIDE:
                self._draw_aside(task[1], task[2])
            elif kind == T_DRAW:
                self._draw(task[1])
            elif kind == T_END_TURN:
                tasks.append((T_NEXT_TURN,))
                tasks.append((T_DRAW, self._to_move))
            elif kind == T_NEXT_TURN:
                if self._turn >= self._max_turns:
                    self._over = True
                    self._winners = []
                    self._log_both("turn limit: draw")
                    return
                self._to_move = 1 - self._to_move
                self._start_turn(self._turn + 1)
                self._log_both(f"turn {self._turn} p{self._to_move}")

    def _need_reshuffle(self, seat: int, task: tuple[Any, ...]) -> bool:
        """If ``seat``'s deck is empty, queue ``task`` again behind a reshuffle."""
        if self._deck[seat] or not self._discard[seat]:
            return False
        self._tasks.append(task)
        self._tasks.append((T_RESHUFFLE, seat))
        return True

    def _deal(self, seat: int, cells: tuple[int, ...]) -> None:
        deck = self._deck[seat]
        for index, cell in enumerate(cells):
            if not deck:
                if self._need_reshuffle(seat, (T_DEAL, seat, cells[index:])):
                    return
                return  # pragma: no cover (cards never run out)
            self._put(seat, cell, deck.pop(), 0)

    def _draw(self, seat: int) -> None:
        deck = self._deck[seat]
        hand = self._hand[seat]
        drawn = []
        while len(hand) < HAND_SIZE:
            if not deck:
                if self._need_reshuffle(seat, (T_DRAW, seat)):
                    break
                break  # pragma: no cover
            card = deck.pop()
            hand.append(card)
            drawn.append(card)
            self._see(seat, card)
        if drawn:
            self._log(seat, f"p{seat} draw {self._symbols_text(drawn)}")
            self._log(1 - seat, f"p{seat} draw {len(drawn)}")

    def _draw_aside(self, seat: int, cells: tuple[int, ...]) -> None:
        deck = self._deck[seat]
        aside = self._aside[seat]
        while len(aside) < len(cells):
            if not deck:
                if self._need_reshuffle(seat, (T_ASIDE, seat, cells)):
                    return
                return  # pragma: no cover
            card = deck.pop()
            aside.append(card)
            self._see(seat, card)
        self._log(seat, f"p{seat} looks at {self._symbols_text(aside)}")
        self._log(1 - seat, f"p{seat} looks at {len(aside)}")
        self._continue_placing(seat, cells)

    # ------------------------------------------------------------ notation
    def action_to_string(self, action: int) -> str:
        try:
            return self._action_text(action)
        except (ValueError, IndexError, AssertionError):
            return f"action {action}"

    def _action_text(self, action: int) -> str:
        task = self._tasks[-1] if self._tasks else None
        kind = task[0] if task is not None else None
        if task is not None and kind in CHANCE_TASKS:
            if kind == T_FIRST:
                return f"first {action}"
            if kind == T_SHUFFLE:
                names = [SYMBOLS[s] for s in unpack(action, 5, DECK_SIZE - 5)]
                return (
                    f"shuffle {task[1]} {' '.join(names[:CELLS])} / {' '.join(names[CELLS : CELLS + HAND_SIZE])}"
                    f" / {' '.join(names[CELLS + HAND_SIZE :])}"
                )
            if kind == T_RESHUFFLE:
                names = [SYMBOLS[s] for s in unpack(action, 5, len(self._discard[task[1]]))]
                return f"reshuffle {task[1]} {' '.join(names)}"
            return "scramble " + " ".join(SYMBOLS[s] for s in unpack(action, 5, len(task[2])))
        if CODE_BASE <= action < GUESS_BASE:
            return "code " + " ".join(SYMBOLS[s] for s in unpack(action - CODE_BASE, 5, 5))
        if action < PEEK_BASE:
            return "guess " + " ".join(SYMBOLS[s] for s in unpack(action - GUESS_BASE, 5, 5))
        if action < SWAP_BASE:
            return f"peek {CELL_NAMES[action - PEEK_BASE]}"
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
            seat = task[1] if task is not None and kind == T_BLOCK else self._to_move
            shield = self._shields[seat][row]
            if shield is None:
                return f"block row {row + 1}"
            return "block " + " ".join(CELL_NAMES[_cell(c, row)] for c in range(shield[0], shield[1] + 1))
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
                return f"{word} {CELL_NAMES[task[2][0]]} {name}"
            return f"{word} {name}"
        if action == FILL_DECK:
            if task is not None and kind == T_FILL:
                return f"fill {CELL_NAMES[task[2][0]]} deck"
            return "fill deck"
        if action < TAKE_BASE:
            row = action - TARGET_BASE
            col = task[2] if task is not None and kind == T_TARGET else 0
            return f"target {CELL_NAMES[_cell(col, row)]}"
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
        kind = task[0] if task is not None else None

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

        def pending(wanted: int) -> tuple[Any, ...]:
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
            if not args or args[0] != str(due[1]):
                raise notation_error(text, f"the {head} due is seat {due[1]}'s")
            if head == "shuffle":
                groups = " ".join(args[1:]).split("/")
                sizes = (CELLS, HAND_SIZE, DECK_SIZE - 5 - CELLS - HAND_SIZE)
                if len(groups) != 3:
                    raise notation_error(text, "write field / hand / deck")
                listed: list[int] = []
                for group, size in zip(groups, sizes, strict=True):
                    listed += symbols(group.split(), size)
                return pack(listed, 5)
            return pack(symbols(args[1:], len(self._discard[due[1]])), 5)
        if head == "scramble":
            return pack(symbols(args, len(pending(T_SCRAMBLE)[2])), 5)
        if head == "first":
            pending(T_FIRST)
            arity(1)
            if args[0] not in ("0", "1"):
                raise notation_error(text, "the first player is 0 or 1")
            return int(args[0])
        if head == "peek":
            arity(1)
            return PEEK_BASE + cell(args[0])
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
            shield = self._shields[due[1]][row]
            if shield is not None and cells != [_cell(c, row) for c in range(shield[0], shield[1] + 1)]:
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
            if cell(args[0]) != due[2][0]:
                raise notation_error(text, f"the next cell to {head} is {CELL_NAMES[due[2][0]]}")
            if head == "fill" and args[1] == "deck":
                return FILL_DECK
            return (PLACE_BASE if head == "place" else FILL_BASE) + symbol(args[1])
        if head == "target":
            arity(1)
            target = cell(args[0])
            if target // ROWS != pending(T_TARGET)[2]:
                raise notation_error(text, f"the target must lie in column {COLUMNS[pending(T_TARGET)[2]]}")
            return TARGET_BASE + target % ROWS
        if head == "take":
            arity(1)
            return TAKE_BASE + symbol(args[0])
        if head == "name":
            arity(1)
            return NAME_BASE + symbol(args[0])
        raise notation_error(text, f"unknown action '{head}'")

    # ---------------------------------------------------------------- view
    def _view(self, seat: int | None) -> dict[str, Any]:
        assert seat is not None, "the public view is not written yet (issue 13)"
        opp = 1 - seat
        player = self.current_player()
        task = self._tasks[-1] if self._tasks and not self._over else None
        decision: dict[str, Any] | None = None
        if task is not None:
            decision = {"kind": TASK_NAMES[task[0]], "player": None if task[0] in CHANCE_TASKS else task[1]}
            if task[0] in (T_RESPOND, T_PICK, T_TARGET):
                decision["column"] = COLUMNS[task[2]]
            if task[0] == T_RESPOND:
                decision["symbol"] = SYMBOLS[task[3]]
            if task[0] in (T_PLACE, T_FILL, T_SCRAMBLE):
                decision["cells"] = [CELL_NAMES[c] for c in task[2]]
            if task[0] == T_BLOCK:
                decision["rows"] = [r + 1 for r in task[4]]
        elif not self._over and self._turn:
            decision = {"kind": "turn", "player": self._to_move}
        return {
            "seat": seat,
            "turn": self._turn,
            "max_turns": self._max_turns,
            "to_move": player if player >= 0 else None,
            "terminal": self._over,
            "winners": self.winners(),
            "decision": decision,
            "life": list(self._life),
            "used": {
                "peeks": self._peeks,
                "swap": self._swapped,
                "replace": self._replaced,
                "guess": self._guessed,
                "reveals": self._reveals,
            },
            "field": self._field_view(seat, seat),
            "face_up": self._face_up_view(seat),
            "code": [SYMBOLS[symbol_of(c)] for c in self._code[seat]],
            "hand": sorted((SYMBOLS[symbol_of(c)] for c in self._hand[seat]), key=SYMBOL_INDEX.__getitem__),
            "aside": sorted((SYMBOLS[symbol_of(c)] for c in self._aside[seat]), key=SYMBOL_INDEX.__getitem__),
            "deck": len(self._deck[seat]),
            "discard": len(self._discard[seat]),
            "discard_known": self._discard_known(seat, seat),
            "opponent": {
                "field": self._field_view(opp, seat),
                "face_up": self._face_up_view(opp),
                "code": [
                    SYMBOLS[symbol_of(c)] if self._cknow[opp][i] & _bit(seat) else None
                    for i, c in enumerate(self._code[opp])
                ],
                "code_excluded": [
                    [SYMBOLS[s] for s in range(5) if mask >> s & 1] for mask in self._cnot[opp]
                ],
                "hand": len(self._hand[opp]),
                "aside": len(self._aside[opp]),
                "deck": len(self._deck[opp]),
                "discard": len(self._discard[opp]),
                "discard_known": self._discard_known(opp, seat),
            },
            "log": list(self._logs[seat]),
        }

    def knowledge(self, seat: int) -> CodenameKnowledge:
        """What ``seat`` may know, as ints (a cheap, read-only snapshot for
        bots; :meth:`view` is the JSON form). Never a card ``seat`` has not seen."""
        opp = 1 - seat
        task = self._tasks[-1] if self._tasks and not self._over else ()
        if task and task[0] not in DECISION_TASKS:
            task = ()
        return CodenameKnowledge(
            seat,
            self._turn,
            task,
            (self._life[0], self._life[1]),
            self._peeks,
            self._swapped,
            self._replaced,
            self._guessed,
            self._reveals,
            self._max_reveals,
            self._known_field(seat, seat),
            self._up_mask(seat),
            tuple(self._shields[seat]),
            tuple(symbol_of(c) for c in self._code[seat]),
            sum(1 << i for i, k in enumerate(self._cknow[seat]) if k & _bit(opp)),
            tuple(self._cnot[seat]),
            tuple(sorted(symbol_of(c) for c in self._hand[seat])),
            tuple(sorted(symbol_of(c) for c in self._aside[seat])),
            len(self._deck[seat]),
            len(self._discard[seat]),
            self._known_discards(seat, seat),
            self._known_mask(seat, opp),
            self._known_field(opp, seat),
            self._up_mask(opp),
            tuple(self._shields[opp]),
            self._known_mask(opp, opp),
            tuple(
                symbol_of(c) if k & _bit(seat) else -1
                for c, k in zip(self._code[opp], self._cknow[opp], strict=False)
            ),
            tuple(self._cnot[opp]),
            len(self._hand[opp]),
            len(self._deck[opp]),
            len(self._discard[opp]),
            self._known_discards(opp, seat),
        )

    def _known_field(self, owner: int, seat: int) -> tuple[int, ...]:
        bit = _bit(seat)
        return tuple(
            -2 if card < 0 else symbol_of(card) if up or know & bit else -1
            for card, up, know in zip(self._field[owner], self._up[owner], self._fknow[owner], strict=True)
        )

    def _up_mask(self, owner: int) -> int:
        return sum(1 << c for c, up in enumerate(self._up[owner]) if up)

    def _known_mask(self, owner: int, seat: int) -> int:
        """``owner``'s face-down cells that ``seat`` knows, as a bitmask."""
        bit = _bit(seat)
        field, up = self._field[owner], self._up[owner]
        return sum(
            1 << c for c, k in enumerate(self._fknow[owner]) if k & bit and field[c] >= 0 and not up[c]
        )

    def _known_discards(self, owner: int, seat: int) -> tuple[int, ...]:
        counts = [0] * 5
        bit = _bit(seat)
        for card, mask in zip(self._discard[owner], self._dknow[owner], strict=True):
            if mask & bit:
                counts[symbol_of(card)] += 1
        return tuple(counts)

    def _field_view(self, owner: int, seat: int) -> dict[str, str | None]:
        """Cell -> symbol if ``seat`` knows it (or it is face up), ``None`` if
        face down and unknown, ``"-"`` if the cell is momentarily empty."""
        field = self._field[owner]
        up = self._up[owner]
        know = self._fknow[owner]
        bit = _bit(seat)
        return {
            CELL_NAMES[c]: "-"
            if field[c] < 0
            else SYMBOLS[symbol_of(field[c])]
            if up[c] or know[c] & bit
            else None
            for c in range(CELLS)
        }

    def _face_up_view(self, owner: int) -> list[str]:
        return [CELL_NAMES[c] for c in range(CELLS) if self._up[owner][c]]

    def _discard_known(self, owner: int, seat: int) -> dict[str, int]:
        counts = [0] * 5
        bit = _bit(seat)
        for card, mask in zip(self._discard[owner], self._dknow[owner], strict=True):
            if mask & bit:
                counts[symbol_of(card)] += 1
        return {SYMBOLS[s]: counts[s] for s in range(5) if counts[s]}

    # ----------------------------------------------------------- resample
    def _resample(self, seat: int, rng: random.Random) -> CodenameState:
        """Relabel every card ``seat`` never saw (a random permutation of their
        symbols within each deck, honouring what it learnt a card is not), and
        replay the history with the relabelled cards.

        The physical course of the game is kept, so every observation of the
        seat is unchanged, while codes, decks, unknown field cards and the
        opponent's hidden choices vary.
        """
        labels = self._relabel(seat, rng)
        world = CodenameState(self.game)
        for action, recipe in zip(self._history, self._recipes, strict=True):
            if recipe is not None:
                offset, cards = recipe
                action = offset + pack([labels[c] for c in cards], 5)
            world._apply(action)
            world._history.append(action)
        return world

    def _places(self) -> list[tuple[int, ...]]:
        """Per card id, where it lies now (owner, pile, position): a key that
        names a place, not a card."""
        place: list[tuple[int, ...]] = [(9, card) for card in range(2 * DECK_SIZE)]
        for owner in range(2):
            piles = (self._code[owner], self._field[owner], self._hand[owner], self._deck[owner])
            for pile, cards in enumerate((*piles, self._discard[owner], self._aside[owner])):
                for position, card in enumerate(cards):
                    if card >= 0:
                        place[card] = (owner, pile, position)
        return place

    def _relabel(self, seat: int, rng: random.Random) -> list[int]:
        labels = [symbol_of(card) for card in range(2 * DECK_SIZE)]
        seen = self._seen[seat]
        forbidden: dict[int, int] = {}
        for card, symbol in self._nots[seat]:
            forbidden[card] = forbidden.get(card, 0) | 1 << symbol
        place = self._places()
        for deck in range(2):
            # The unseen cards in the order of where they lie now, and their
            # symbols sorted, before the shuffle: so the world depends on what
            # ``seat`` knows and on ``rng`` only, never on which unseen card is
            # which (two truths ``seat`` cannot tell apart give the same world).
            pool = sorted(
                (c for c in range(deck * DECK_SIZE, (deck + 1) * DECK_SIZE) if not seen >> c & 1),
                key=place.__getitem__,
            )
            drawn = sorted(labels[c] for c in pool)
            rng.shuffle(drawn)
            order = list(range(len(pool)))
            consistent = True
            for i, card in enumerate(pool):
                if not forbidden.get(card, 0) >> drawn[i] & 1:
                    continue
                rng.shuffle(order)
                for j in order:
                    if (
                        not forbidden.get(card, 0) >> drawn[j] & 1
                        and not forbidden.get(pool[j], 0) >> drawn[i] & 1
                    ):
                        drawn[i], drawn[j] = drawn[j], drawn[i]
                        break
                else:
                    consistent = False
                    break
            if not consistent:
                drawn = _matching(pool, sorted(drawn), forbidden, rng)
            for card, symbol in zip(pool, drawn, strict=True):
                labels[card] = symbol
        return labels
