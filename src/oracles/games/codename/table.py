"""The position of Codename: Oracle: piles, knowledge and the event log, with
the small helpers the rules, effects, notation and knowledge share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Self

from oracles.core.game import CHANCE, TERMINAL, Game, State
from oracles.games.codename.actions import (
    CELL_NAMES,
    CELLS,
    COLUMNS,
    DECK_SIZE,
    ROWS,
    START_LIFE,
    SYMBOLS,
    symbol_of,
)
from oracles.games.codename.scoring import LIFE, life_winners, returns
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    T_CODE,
    T_FIRST,
    T_PLACE,
    T_SHUFFLE,
    Task,
)

BOTH = 3
#: Knowledge bit of the public (spectators): set for what everyone at the table saw.
PUBLIC = 4
EVERYONE = BOTH | PUBLIC
#: On a code slot: everyone saw that this slot was shown to the rival (a
#: strike's column, a circle shield), though only the rival saw its symbol.
#: A slot a guess or a circle focus uncovered is the players' secret (SPEC
#: section 5: "shown to the opponent only ... reveals those slots to the
#: guesser"): the public knows neither that it was nor what it holds.
SHOWN_PUBLICLY = 8


def seat_bit(seat: int) -> int:
    """The knowledge bit of a seat."""
    return 1 << seat


def viewer_bit(seat: int | None) -> int:
    """The knowledge bit of a viewer: a seat's, or the public's."""
    return PUBLIC if seat is None else 1 << seat


def sorted_names(cards: Sequence[int]) -> list[str]:
    """The symbol names of ``cards`` in symbol order (how hands are shown)."""
    return [SYMBOLS[s] for s in sorted(symbol_of(c) for c in cards)]


#: How a secret names its cards: one symbol, the symbols in order, or sorted.
ONE, IN_ORDER, SORTED = range(3)


def listing(cards: Sequence[int], form: int) -> str | list[str]:
    """The symbol names of ``cards`` as a secret shows them (``form``)."""
    if form == ONE:
        return SYMBOLS[symbol_of(cards[0])]
    if form == SORTED:
        return sorted_names(cards)
    return [SYMBOLS[symbol_of(c)] for c in cards]


class LogEntry(NamedTuple):
    """One event as logged: ``public`` (with ``seq``, ``seat``, ``kind``) is
    seen by everyone, ``secret`` is added for the seats in ``knowers``."""

    public: dict[str, Any]
    secret: dict[str, Any]
    knowers: int
    #: The card ids the secret names, in its order, and how it names them
    #: (``ONE``, ``IN_ORDER``, ``SORTED``): resampling names other cards.
    cards: tuple[int, ...] = ()
    form: int = ONE

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and self.knowers & seat_bit(seat) and self.secret:
            return {**self.public, **self.secret}
        return dict(self.public)


class CodenameTable(State):
    """A position of Codename: Oracle: its state and the helpers every job uses.

    Cards are ids: 0..49 are seat 0's deck, 50..99 seat 1's, and id ``k`` of
    a deck shows symbol ``(k % 50) // 10``. Which id of a symbol lands where is
    immaterial to the rules; ids exist so that :meth:`resample_from_infostate`
    can follow each physical card through the history.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._max_turns: int = game.options["max_turns"]
        self._max_reveals: int = game.options["max_reveals"]
        self._blocked_shows_code: bool = game.options["blocked_strike_shows_code"]
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
        self._turn_player = 0
        self._turn = 0
        self._peeked = False
        self._swapped = False
        self._replaced = False
        self._guessed = False
        self._reveals = 0
        self._over = False
        self._winners: list[int] = []
        self._tasks: list[Task] = [
            Task(T_FIRST),
            Task(T_SHUFFLE, 1),
            Task(T_SHUFFLE, 0),
            Task(T_CODE, 1),
            Task(T_CODE, 0),
        ]
        # For resampling: ids each seat has seen, and (id, symbol) facts "id is not symbol".
        self._seen = [0, 0]
        self._nots: list[list[tuple[int, int]]] = [[], []]
        # When: per seat and id, the history index of the last action at which
        # the seat saw the card (-1: never), and per fact of _nots its index.
        self._seen_at: list[list[int]] = [[-1] * (2 * DECK_SIZE), [-1] * (2 * DECK_SIZE)]
        self._nots_at: list[list[int]] = [[], []]
        # Per history entry: None, or (offset, ids) when the action's integer is
        # offset + pack(symbols of ids) (the card symbols it names).
        self._recipes: list[tuple[int, tuple[int, ...]] | None] = []
        self._logs: list[LogEntry] = []
        # What resampling for a seat needs that the rng does not change, and
        # the (seat, history length) it was made for (see .resample).
        self._resample_memo: tuple[tuple[int, int], Any] | None = None
        # Who played the action being applied (None for chance), for its events.
        self._actor: int | None = None
        # Seats dealt lethal damage (life at 0 or below) during the action being applied.
        self._lethal = 0

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
            if task.kind in CHANCE_TASKS:
                return CHANCE
            return int(task.seat)
        return self._turn_player

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
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
        twin._seen_at = [list(x) for x in self._seen_at]
        twin._nots_at = [list(x) for x in self._nots_at]
        twin._recipes = list(self._recipes)
        twin._logs = list(self._logs)
        twin._resample_memo = None
        return twin

    def scores(self) -> list[float]:
        return returns(self._over, self._winners)

    def winners(self) -> list[int]:
        return list(self._winners) if self._over else []

    # ------------------------------------------------------------ helpers
    def _face_down(self, seat: int, cell: int) -> bool:
        return self._field[seat][cell] >= 0 and not self._up[seat][cell]

    def _event(
        self, kind: str, secret: dict[str, Any] | None = None, knowers: int = 0, **fields: Any
    ) -> None:
        """Log an event of the action being applied: ``fields`` are public,
        ``secret`` is added for the seats in the bitmask ``knowers`` only."""
        public: dict[str, Any] = {"seq": len(self._history), "seat": self._actor, "kind": kind, **fields}
        self._logs.append(LogEntry(public, secret or {}, knowers))

    def _secret_event(
        self, kind: str, key: str, cards: Sequence[int], form: int, knowers: int, **fields: Any
    ) -> None:
        """Log an event whose secret ``{key: ...}`` names the symbols of
        ``cards`` (as ``form`` says), for the seats in ``knowers``."""
        public: dict[str, Any] = {"seq": len(self._history), "seat": self._actor, "kind": kind, **fields}
        self._logs.append(LogEntry(public, {key: listing(cards, form)}, knowers, tuple(cards), form))

    def _see(self, seat: int, card: int) -> None:
        self._seen[seat] |= 1 << card
        self._seen_at[seat][card] = len(self._history)

    def _not(self, seat: int, card: int, symbol: int) -> None:
        """``seat`` learns that ``card`` is not ``symbol``."""
        self._nots[seat].append((card, symbol))
        self._nots_at[seat].append(len(self._history))

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
        if self._life[seat] <= 0:
            self._lethal |= seat_bit(seat)
        self._event("life", player=seat, change=-amount, life=self._life[seat])

    def _heal(self, seat: int, amount: int) -> None:
        self._life[seat] += amount
        self._event("life", player=seat, change=amount, life=self._life[seat])

    def _discard_cell(self, seat: int, cell: int) -> None:
        card = self._field[seat][cell]
        self._discard[seat].append(card)
        self._dknow[seat].append(EVERYONE if self._up[seat][cell] else self._fknow[seat][cell])
        self._field[seat][cell] = -1
        self._up[seat][cell] = False
        self._fknow[seat][cell] = 0

    def _show_codes(self) -> None:
        """The game is over: both code rows are turned face up, for both
        seats and the public (the end sheet shows them)."""
        for owner in range(2):
            for slot, card in enumerate(self._code[owner]):
                self._cknow[owner][slot] = EVERYONE
                self._see(1 - owner, card)

    def _reveal_code(self, owner: int, slot: int) -> None:
        """Show the code card of ``slot`` to ``owner``'s opponent."""
        viewer = 1 - owner
        card = self._code[owner][slot]
        self._cknow[owner][slot] |= seat_bit(viewer) | SHOWN_PUBLICLY
        self._see(viewer, card)
        self._secret_event("code_shown", "symbol", (card,), ONE, BOTH, player=owner, slot=COLUMNS[slot])

    # ------------------------------------------------------------ shared
    def _down_mask(self, seat: int) -> int:
        """The face-down cells of ``seat``'s field as a bitmask."""
        field = self._field[seat]
        up = self._up[seat]
        mask = 0
        for cell in range(CELLS):
            if field[cell] >= 0 and not up[cell]:
                mask |= 1 << cell
        return mask

    def _unused(self, seat: int) -> list[int]:
        code = set(self._code[seat])
        return [c for c in range(seat * DECK_SIZE, seat * DECK_SIZE + DECK_SIZE) if c not in code]

    def _end_if_lethal(self) -> None:
        """End the game if a life reached zero while the action just resolved
        was played: it counts when it was dealt, even if life was gained back
        afterwards (rulebook: "move his life counter to zero"; both players
        dealt lethal damage in the same turn: no winner)."""
        if not self._over and self._lethal:
            self._end_game(LIFE, life_winners(self._lethal))

    def _end_game(self, reason: str, winners: list[int]) -> None:
        """The game is over (``reason``: one of :data:`.scoring.END_REASONS`)
        and won by ``winners`` (empty: drawn); both codes are shown."""
        self._over = True
        self._winners = winners
        self._event("over", reason=reason, winners=list(winners))
        self._show_codes()

    def _start_turn(self, number: int) -> None:
        self._turn = number
        self._peeked = False
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
            self._tasks.append(Task(T_PLACE, seat, cells=cells))
        elif cells:
            card = self._aside[seat].pop()
            self._put(seat, cells[0], card, seat_bit(seat))
            self._secret_event(
                "place", "symbol", (card,), ONE, seat_bit(seat), player=seat, cell=CELL_NAMES[cells[0]]
            )
