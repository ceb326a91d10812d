"""What a seat knows in Codename: Oracle, as the bots read it: the integer
snapshot :class:`CodenameKnowledge` (:meth:`CodenameState.knowledge`). The
JSON views are built in :mod:`.views`, resampling is in :mod:`.resample`."""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from oracles.games.codename.actions import symbol_of
from oracles.games.codename.table import CodenameTable, seat_bit
from oracles.games.codename.tasks import DECISION_TASKS, Task
from oracles.games.codename.views import CodenameView, build_view


class CodenameKnowledge(NamedTuple):
    """What one seat may know, as plain ints for fast bots (see
    :meth:`CodenameState.knowledge`). Field cells hold a symbol index, ``-1``
    for a face-down card the seat does not know, ``-2`` for an empty cell."""

    seat: int
    turn: int
    #: The decision pending (its task, all public), or None on a plain turn.
    task: Task | None
    life: tuple[int, int]
    peeked: bool
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


class CodenameSight(CodenameTable):
    """A seat's knowledge: its view (built by :mod:`.views`) and its integer snapshot."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        return cast("dict[str, Any]", build_view(self, seat))

    def typed_view(self, seat: int | None) -> CodenameView:
        """:meth:`view` (without the seat check) with its type, for typed front ends."""
        return build_view(self, seat)

    def knowledge(self, seat: int) -> CodenameKnowledge:
        """What ``seat`` may know, as ints (a cheap, read-only snapshot for
        bots; :meth:`view` is the JSON form). Never a card ``seat`` has not seen."""
        opp = 1 - seat
        task = self._tasks[-1] if self._tasks and not self._over else None
        if task is not None and task.kind not in DECISION_TASKS:
            task = None
        return CodenameKnowledge(
            seat,
            self._turn,
            task,
            (self._life[0], self._life[1]),
            self._peeked,
            self._swapped,
            self._replaced,
            self._guessed,
            self._reveals,
            self._max_reveals,
            self._known_field(seat, seat),
            self._up_mask(seat),
            tuple(self._shields[seat]),
            tuple(symbol_of(c) for c in self._code[seat]),
            sum(1 << i for i, k in enumerate(self._cknow[seat]) if k & seat_bit(opp)),
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
                symbol_of(c) if k & seat_bit(seat) else -1
                for c, k in zip(self._code[opp], self._cknow[opp], strict=False)
            ),
            tuple(self._cnot[opp]),
            len(self._hand[opp]),
            len(self._deck[opp]),
            len(self._discard[opp]),
            self._known_discards(opp, seat),
        )

    def _known_field(self, owner: int, seat: int) -> tuple[int, ...]:
        bit = seat_bit(seat)
        return tuple(
            -2 if card < 0 else symbol_of(card) if up or know & bit else -1
            for card, up, know in zip(self._field[owner], self._up[owner], self._fknow[owner], strict=True)
        )

    def _up_mask(self, owner: int) -> int:
        return sum(1 << c for c, up in enumerate(self._up[owner]) if up)

    def _known_mask(self, owner: int, seat: int) -> int:
        """``owner``'s face-down cells that ``seat`` knows, as a bitmask."""
        bit = seat_bit(seat)
        field, up = self._field[owner], self._up[owner]
        return sum(
            1 << c for c, k in enumerate(self._fknow[owner]) if k & bit and field[c] >= 0 and not up[c]
        )

    def _known_discards(self, owner: int, seat: int) -> tuple[int, ...]:
        counts = [0] * 5
        bit = seat_bit(seat)
        for card, mask in zip(self._discard[owner], self._dknow[owner], strict=True):
            if mask & bit:
                counts[symbol_of(card)] += 1
        return tuple(counts)
