"""What each seat (and the public) knows in Codename: Oracle: the views,
the bots' integer snapshot, and resampling the cards a seat never saw."""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Any, NamedTuple, Self, cast

from oracles.core.rand import shuffle
from oracles.core.views import Event
from oracles.games.codename.actions import (
    CELL_NAMES,
    CELLS,
    COLUMNS,
    DECK_SIZE,
    SYMBOLS,
    symbol_of,
)
from oracles.games.codename.table import (
    CodenameTable,
    LogEntry,
    listing,
    seat_bit,
    sorted_names,
    viewer_bit,
)
from oracles.games.codename.tasks import (
    CHANCE_TASKS,
    DECISION_TASKS,
    T_BLOCK,
    T_FILL,
    T_PICK,
    T_PLACE,
    T_RESPOND,
    T_SCRAMBLE,
    T_TARGET,
    TASK_NAMES,
    Task,
)
from oracles.games.codename.views import CodenameView, Decision, Side


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


class CodenameSight(CodenameTable):
    """Views, knowledge snapshots and resampling."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        return cast("dict[str, Any]", self.typed_view(seat))

    def typed_view(self, seat: int | None) -> CodenameView:
        """:meth:`view` (without the seat check) with its type, for typed front ends."""
        player = self.current_player()
        task = self._tasks[-1] if self._tasks and not self._over else None
        decision: Decision | None = None
        if task is not None:
            decision = {
                "kind": TASK_NAMES[task.kind],
                "player": None if task.kind in CHANCE_TASKS else task.seat,
            }
            if task.kind in (T_RESPOND, T_PICK, T_TARGET):
                decision["column"] = COLUMNS[task.column]
            if task.kind == T_RESPOND:
                decision["symbol"] = SYMBOLS[task.symbol]
            if task.kind in (T_PLACE, T_FILL, T_SCRAMBLE):
                decision["cells"] = [CELL_NAMES[c] for c in task.cells]
            if task.kind == T_BLOCK:
                decision["rows"] = [r + 1 for r in task.rows]
        elif not self._over and self._turn:
            decision = {"kind": "turn", "player": self._turn_player}
        return {
            "game": self.game.id,
            "seat": seat,
            "players": 2,
            "phase": "over" if self._over else "play" if self._turn else "setup",
            "to_act": player if player >= 0 else None,
            "terminal": self._over,
            "scores": self.scores(),
            "winners": self.winners(),
            "log": [cast(Event, entry.seen_by(seat)) for entry in self._logs],
            "turn": self._turn,
            "max_turns": self._max_turns,
            "turn_player": self._turn_player if self._turn else None,
            "decision": decision,
            "life": list(self._life),
            "used": {
                "peek": self._peeked,
                "swap": self._swapped,
                "replace": self._replaced,
                "guess": self._guessed,
                "reveals": self._reveals,
            },
            "sides": [self._side_view(owner, seat) for owner in range(2)],
        }

    def _side_view(self, owner: int, seat: int | None) -> Side:
        """``owner``'s half of the table as ``seat`` (None: the public) knows it."""
        bit = viewer_bit(seat)
        rival = seat_bit(1 - owner)
        field, up, fknow = self._field[owner], self._up[owner], self._fknow[owner]
        own = seat == owner
        return {
            "field": self._field_view(owner, seat),
            "face_up": [CELL_NAMES[c] for c in range(CELLS) if up[c]],
            "field_shown": [
                CELL_NAMES[c] for c in range(CELLS) if field[c] >= 0 and not up[c] and fknow[c] & rival
            ],
            "code": [
                SYMBOLS[symbol_of(c)] if know & bit else None
                for c, know in zip(self._code[owner], self._cknow[owner], strict=False)
            ],
            "code_shown": [COLUMNS[i] for i, know in enumerate(self._cknow[owner]) if know & rival],
            "code_excluded": [[SYMBOLS[s] for s in range(5) if mask >> s & 1] for mask in self._cnot[owner]],
            "hand": sorted_names(self._hand[owner]) if own else None,
            "hand_count": len(self._hand[owner]),
            "aside": sorted_names(self._aside[owner]) if own else None,
            "aside_count": len(self._aside[owner]),
            "deck": len(self._deck[owner]),
            "discard": len(self._discard[owner]),
            "discard_known": self._discard_known(owner, bit),
        }

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

    def _field_view(self, owner: int, seat: int | None) -> dict[str, str | None]:
        """Cell -> symbol if ``seat`` knows it (or it is face up), ``None`` if
        face down and unknown, ``"-"`` if the cell is momentarily empty."""
        field = self._field[owner]
        up = self._up[owner]
        know = self._fknow[owner]
        bit = viewer_bit(seat)
        return {
            CELL_NAMES[c]: "-"
            if field[c] < 0
            else SYMBOLS[symbol_of(field[c])]
            if up[c] or know[c] & bit
            else None
            for c in range(CELLS)
        }

    def _discard_known(self, owner: int, bit: int) -> dict[str, int]:
        counts = [0] * 5
        for card, mask in zip(self._discard[owner], self._dknow[owner], strict=True):
            if mask & bit:
                counts[symbol_of(card)] += 1
        return {SYMBOLS[s]: counts[s] for s in range(5) if counts[s]}

    # ----------------------------------------------------------- resample
    def _resample(self, seat: int, rng: random.Random) -> Self:
        """Relabel every card whose place ``seat`` does not know (a random
        permutation of their symbols within each deck, honouring what it
        learnt a card is not), directly on a clone.

        The physical course of the game is kept, so every observation of the
        seat is unchanged, while codes, decks, unknown field cards and the
        opponent's hidden choices vary. Relabelling is done by renaming card
        ids: each unseen card takes the id of an unseen card of its new
        symbol, in every pile, in the seats' knowledge, in the recipes of the
        history (whose action ints are packed anew) and in the secrets of the
        log the seat did not see. The world is the state its history replays
        to, up to which id of a symbol is where (immaterial to the rules).

        A card the seat saw keeps its id, but once a reshuffle or a scramble
        sent it where the seat no longer follows it, that chance outcome is
        drawn again among the places the seat did not watch afterwards: from
        that shuffle on, the cards sent there are renamed by a random
        permutation (so the seen card lies at any of them, whatever the truth).
        """
        plan = self._resample_plan(seat)
        world = self.clone()
        other = 1 - seat
        # truth id -> world id before the relabelling, per shuffle redrawn.
        moved: list[int] | None = None
        steps: list[list[int]] = []
        other_at = self._seen_at[other]
        if plan.shuffles:
            moved = list(range(2 * DECK_SIZE))
            other_at = list(other_at)
            for index, cards, positions in plan.shuffles:
                olds = [moved[cards[k]] for k in positions]
                news = sorted(olds)
                shuffle(news, rng)
                # The opponent's sightings after the shuffle follow the place.
                after = [other_at[old] if other_at[old] >= index else -1 for old in olds]
                before = [other_at[new] if other_at[new] < index else -1 for new in news]
                for new, seen_after, seen_before in zip(news, after, before, strict=True):
                    other_at[new] = seen_after if seen_after >= 0 else seen_before
                for k, new in zip(positions, news, strict=True):
                    moved[cards[k]] = new
                steps.append(list(moved))
        rename = list(range(2 * DECK_SIZE + 1))
        rename[-1] = -1  # an empty field cell stays empty
        seen = self._seen[seat]
        for deck, (pool, ids, forbidden) in enumerate(plan.decks):
            if moved is not None:
                pool = [moved[card] for card in plan.movable[deck]]
                pool = [card for card in pool if not seen >> card & 1]
                forbidden = [plan.forbidden.get(card, 0) for card in pool]
                if not any(forbidden):
                    forbidden = []
            drawn = ids[:]
            shuffle(drawn, rng)
            if forbidden:
                drawn = _respect(drawn, forbidden, rng)
            for card, new in zip(pool, drawn, strict=True):
                rename[card] = new
        if moved is None:
            final = rename
        else:
            final = [rename[moved[card]] for card in range(2 * DECK_SIZE)]
            final.append(-1)
        new_id = final.__getitem__
        world._field = [list(map(new_id, cards)) for cards in self._field]
        world._code = [list(map(new_id, cards)) for cards in self._code]
        world._hand = [list(map(new_id, cards)) for cards in self._hand]
        world._deck = [list(map(new_id, cards)) for cards in self._deck]
        world._discard = [list(map(new_id, cards)) for cards in self._discard]
        world._aside = [list(map(new_id, cards)) for cards in self._aside]
        world._nots = [[(rename[card], symbol) for card, symbol in facts] for facts in self._nots]
        # The seat's own sightings keep their ids; the opponent's are renamed.
        world_at = world._seen_at[other]
        redraw = plan.redraw
        if moved is None or redraw is None:
            # Only the cards the seat never saw are renamed (among themselves).
            kept, hidden = plan.other_seen
            for card in hidden:
                world_at[card] = -1
            for card in hidden:
                world_at[rename[card]] = other_at[card]
            world._seen[other] = kept + sum(map(_BITS.__getitem__, map(new_id, hidden)))
            self._rename_records(world, plan.recipes, plan.logs, rename)
            return world
        for card in redraw.touched:
            world_at[card] = -1
        for card in redraw.touched:
            world_at[rename[card]] = other_at[card]
        world._seen[other] = (self._seen[other] & ~redraw.touched_mask) + sum(
            _BITS[card] for card in redraw.touched if world_at[card] >= 0
        )
        self._rename_records(world, redraw.recipes, redraw.logs, rename)
        maps = [[rename[card] for card in step] for step in steps]
        for index, step in redraw.late_recipes:
            self._rename_recipe(world, index, maps[step])
        for index, step in redraw.late_logs:
            self._rename_log(world, index, maps[step])
        return world

    @staticmethod
    def _rename_records(world: CodenameSight, recipes: list[int], logs: list[int], rename: list[int]) -> None:
        """Rename the ids of these history recipes and log secrets of ``world``."""
        for index in recipes:
            world._rename_recipe(world, index, rename)
        for index in logs:
            world._rename_log(world, index, rename)

    @staticmethod
    def _rename_recipe(world: CodenameSight, index: int, rename: list[int]) -> None:
        """Rename the ids of history entry ``index``'s recipe, and pack its action anew."""
        recipe = world._recipes[index]
        assert recipe is not None
        offset, cards = recipe
        cards = tuple(map(rename.__getitem__, cards))
        world._recipes[index] = (offset, cards)
        world._history[index] = offset + _packed_symbols(cards)

    @staticmethod
    def _rename_log(world: CodenameSight, index: int, rename: list[int]) -> None:
        entry = world._logs[index]
        cards = tuple(map(rename.__getitem__, entry.cards))
        (key,) = entry.secret
        world._logs[index] = LogEntry(
            entry.public, {key: listing(cards, entry.form)}, entry.knowers, cards, entry.form
        )

    def _resample_plan(self, seat: int) -> _Plan:
        """What resampling for ``seat`` needs that does not depend on the rng,
        kept on the state until it moves on (its history only grows).

        Per deck, the cards ``seat`` never saw in the order of where they lie
        now, and their ids sorted (so their symbols sorted) before the
        shuffle: so the world depends on what ``seat`` knows and on the rng
        only, never on which unseen card is which (two truths ``seat``
        cannot tell apart give the same world).

        And the reshuffles and scrambles to draw again: those that sent a
        card the seat had seen (or knew not to be some symbol) where it did
        not watch it again. For each, the
        places of its outcome (positions in its recipe) that the seat did not
        watch afterwards (no sighting, no 'not X' fact about the card sent
        there): the same places whatever the truth.
        """
        key = (seat, len(self._history))
        memo = self._resample_memo
        if memo is not None and memo[0] == key:
            return cast(_Plan, memo[1])
        seen = self._seen[seat]
        forbidden: dict[int, int] = {}
        watched = list(self._seen_at[seat])
        for (card, symbol), when in zip(self._nots[seat], self._nots_at[seat], strict=True):
            forbidden[card] = forbidden.get(card, 0) | 1 << symbol
            watched[card] = max(watched[card], when)
        for owner in range(2):  # face up: everyone watches it (safety)
            for card, up in zip(self._field[owner], self._up[owner], strict=True):
                if up and card >= 0:
                    watched[card] = len(self._history)
        shuffles: list[tuple[int, tuple[int, ...], list[int]]] = []
        candidates = 0
        for entry in self._logs:
            if entry.public["kind"] not in _SHUFFLES:
                continue
            index = entry.public["seq"]
            recipe = self._recipes[index]
            assert recipe is not None
            cards = recipe[1]
            positions = [k for k, card in enumerate(cards) if watched[card] < index]
            if any(watched[cards[k]] >= 0 for k in positions):
                shuffles.append((index, cards, positions))
                for k in positions:
                    candidates |= 1 << cards[k]
        place = self._places()
        decks = []
        movable = []
        unseen = 0
        for deck in range(2):
            cards = range(deck * DECK_SIZE, (deck + 1) * DECK_SIZE)
            pool = sorted((c for c in cards if not seen >> c & 1), key=place.__getitem__)
            for card in pool:
                unseen |= 1 << card
            masks = [forbidden.get(card, 0) for card in pool]
            decks.append((pool, sorted(pool), masks if any(masks) else []))
            if shuffles:
                movable.append(
                    sorted((c for c in cards if (candidates | ~seen) >> c & 1), key=place.__getitem__)
                )
        recipes = [
            index
            for index, recipe in enumerate(self._recipes)
            if recipe is not None and any(unseen >> card & 1 for card in recipe[1])
        ]
        bit = seat_bit(seat)
        logs = [
            index
            for index, entry in enumerate(self._logs)
            if not entry.knowers & bit and any(unseen >> card & 1 for card in entry.cards)
        ]
        other = self._seen[1 - seat]
        hidden = other & unseen
        other_seen = (other & ~unseen, [c for c in range(2 * DECK_SIZE) if hidden >> c & 1])
        redraw = None
        if shuffles:
            # The records from the first shuffle redrawn on are renamed by
            # the permutations drawn so far (step: how many, less one).
            first = shuffles[0][0]
            starts = [index for index, _, _ in shuffles]
            touched = candidates | unseen
            redraw = _Redraw(
                [index for index in recipes if index < first],
                [index for index in logs if self._logs[index].public["seq"] < first],
                [
                    (index, bisect_right(starts, index) - 1)
                    for index in range(first, len(self._recipes))
                    if (recipe := self._recipes[index]) is not None
                    and any(touched >> card & 1 for card in recipe[1])
                ],
                [
                    (index, bisect_right(starts, entry.public["seq"]) - 1)
                    for index, entry in enumerate(self._logs)
                    if entry.public["seq"] >= first
                    and not entry.knowers & bit
                    and any(touched >> card & 1 for card in entry.cards)
                ],
                [c for c in range(2 * DECK_SIZE) if touched >> c & 1],
                touched,
            )
        plan = _Plan(decks, recipes, logs, shuffles, movable, forbidden, other_seen, redraw)
        self._resample_memo = (key, plan)
        return plan

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


#: The chance events after which a seat may lose track of cards it saw.
_SHUFFLES = frozenset(("reshuffle", "scramble"))


class _Plan(NamedTuple):
    """The rng-free part of resampling for one seat (see :meth:`CodenameSight._resample_plan`)."""

    #: Per deck: the unseen cards by place, their ids sorted, and per place
    #: the symbols the seat knows its card is not (bitmask; empty if none).
    decks: list[tuple[list[int], list[int], list[int]]]
    #: Indices of the history entries whose recipe names an unseen card.
    recipes: list[int]
    #: Indices of the log entries whose secret, unseen by the seat, names an unseen card.
    logs: list[int]
    #: The shuffles drawn again: (history index, its recipe's ids, the
    #: positions in it the seat did not watch afterwards), oldest first.
    shuffles: list[tuple[int, tuple[int, ...], list[int]]]
    #: Per deck (when there are shuffles to redraw): the cards that may move
    #: (unseen, or sent by a redrawn shuffle), by place.
    movable: list[list[int]]
    #: Per card, the symbols the seat knows it is not (bitmask).
    forbidden: dict[int, int]
    #: What the opponent has seen: the cards the seat has seen too (they
    #: keep their ids; bitmask) and the others (renamed; used without shuffles to redraw).
    other_seen: tuple[int, list[int]]
    #: What renaming needs when shuffles are redrawn (else None).
    redraw: _Redraw | None


class _Redraw(NamedTuple):
    """The records to rename when shuffles are redrawn (see :meth:`CodenameSight._resample`)."""

    #: Before the first shuffle redrawn: the recipes and log entries naming an unseen card.
    recipes: list[int]
    logs: list[int]
    #: From it on: (index, how many shuffles redrawn by then, less one) of the
    #: recipes and of the log entries unseen by the seat that name a card that may move.
    late_recipes: list[tuple[int, int]]
    late_logs: list[tuple[int, int]]
    #: The cards that may be renamed (unseen, or sent by a shuffle redrawn), as a list and a bitmask.
    touched: list[int]
    touched_mask: int


_BITS = tuple(1 << card for card in range(2 * DECK_SIZE))
_SYMBOL_DIGIT = tuple(str(symbol_of(card)) for card in range(2 * DECK_SIZE))


def _packed_symbols(cards: tuple[int, ...]) -> int:
    """``pack`` of the cards' symbols in radix 5 (first card least significant)."""
    if not cards:
        return 0
    return int("".join(map(_SYMBOL_DIGIT.__getitem__, reversed(cards))), 5)


def _respect(drawn: list[int], forbidden: list[int], rng: random.Random) -> list[int]:
    """``drawn`` (the ids laid over a pool's places) with swaps so that no
    place gets a symbol the seat knows its card is not (``forbidden``, per
    place): each place that breaks one swaps with a place drawn uniformly
    among those it can swap with (random probes, then a scan in random
    order); a full matching if none can (:func:`_matching`)."""
    size = len(drawn)
    draw = rng.random
    for i, mask in enumerate(forbidden):
        if not mask >> symbol_of(drawn[i]) & 1:
            continue
        mine = symbol_of(drawn[i])
        for _ in range(2 * size):
            j = int(draw() * size)
            if not mask >> symbol_of(drawn[j]) & 1 and not forbidden[j] >> mine & 1:
                break
        else:
            order = list(range(size))
            shuffle(order, rng)
            for j in order:
                if not mask >> symbol_of(drawn[j]) & 1 and not forbidden[j] >> mine & 1:
                    break
            else:
                ids = sorted(drawn)
                symbols = _matching(
                    list(range(size)), [symbol_of(card) for card in ids], dict(enumerate(forbidden)), rng
                )
                by_symbol: dict[int, list[int]] = {}
                for card in reversed(ids):
                    by_symbol.setdefault(symbol_of(card), []).append(card)
                return [by_symbol[symbol].pop() for symbol in symbols]
        drawn[i], drawn[j] = drawn[j], drawn[i]
    return drawn
