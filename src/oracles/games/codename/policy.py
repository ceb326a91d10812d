"""Heuristic policy for ``codename``: learn the field, build strikes and foci, guess when it pays.

The policy reads only :meth:`CodenameState.knowledge` of its seat (its own
known cells, hand, code, what it has seen of the opponent's code and field,
lives, the turn's counters and the pending decision), never a card the seat
has not seen. Everything it remembers is what the engine tracks for the seat.

**Sets it can count on.** A *project* is a 3-cell strike shape or a 2×2
focus shape of one symbol. Its value: a strike deals 1 damage (star: 2) and
shows a code card, plus its effect (cross: +1 life, square: the opponent's
hand, wave/circle: disruption); a strike into a face-up shield that blocks it
is worth little or less (a star shield hurts back). A star focus deals 3,
a cross focus gives 3 life, a circle focus names a symbol of the code, a
square focus hides a code card the opponent knows. Lethal damage is worth
everything; life counts more when low.

**A turn**, one decision at a time, re-planned after every action:

1. guess the code when every slot is known (a win);
2. reveal the best set it *knows* is valid (all cells known, one symbol);
3. complete a set for sure with the swap (a known card of the symbol from
   elsewhere) and/or the replace (a hand card), then reveal it;
4. peek (once a turn) at the two unknown cells most likely to complete a
   valuable project (weighted by the chance of the symbol among the cards it
   has not located);
5. otherwise use the replace and the swap to advance the best project;
6. guess when at most two slots are unknown, the guess is right with a chance
   of at least ``GUESS_MIN_CHANCE`` (symbols excluded by earlier guesses and
   circle foci count) and its life stays at ``GUESS_LIFE_MARGIN`` even if
   every unknown slot is wrong (2 damage each). Looser guessing lost clearly
   in self-play: a strike shows a code card for free;
7. *scout*: as the very last action of the turn (peeks, swap and replace
   spent or useless), reveal the set shape with the most unseen cards (a
   whole row of five), or a wave focus it knows, then ``end``. The turn ends
   anyway, and even an invalid set shows the seat every card in it (the
   opponent sees them too): five cards a turn on top of the peek. This is
   the one reveal of unseen cards it makes, and it is decisive: in self-play
   the policy with scouting won 297 of 300 games against the same policy
   revealing only sets known to be valid (``SCOUT_INFO = 0`` turns it off).

**Other decisions.** Struck, it responds with the shield shape most likely to
block (a known valid shield if it has one), preferring shapes with unseen
cards: a failed response costs nothing and shows the seat its cards;
blocks with the shield whose discard effect helps most; passes the code swap
(knowledge moves with the cards, so it hides nothing); recodes a slot the
opponent knows with its least useful hand card; scrambles or targets the
opponent's cards he knows himself; takes the card that fits his field worst;
names the symbol most likely among the unknown slots; places and fills cells
to advance its projects. Its code row is drawn from waves, circles and
squares, keeping the stars and crosses in its deck.

:func:`candidates` offers search bots a short list of sensible actions
instead of the ~3,500 legal ones of a turn (3,125 of them guesses).
"""

from __future__ import annotations

import random

from oracles.core.game import State
from oracles.games.codename.actions import (
    BLOCK_BASE,
    CELLS,
    CIRCLE,
    CODE_BASE,
    CODESWAP_PASS,
    CROSS,
    END,
    FILL_BASE,
    FILL_DECK,
    FOCUS,
    GUESS_BASE,
    NAME_BASE,
    PEEK_BASE,
    PICK_BASE,
    PLACE_BASE,
    RECODE_BASE,
    REPLACE_BASE,
    RESPOND_BASE,
    RESPOND_PASS,
    REVEAL_BASE,
    ROWS,
    SHAPES,
    SHIELD,
    SQUARE,
    STAR,
    STRIKE,
    SWAP_BASE,
    TAKE_BASE,
    TARGET_BASE,
    WAVE,
)
from oracles.games.codename.knowledge import CodenameKnowledge
from oracles.games.codename.rules import CodenameState
from oracles.games.codename.tasks import (
    T_BLOCK,
    T_CODE,
    T_CODESWAP,
    T_FILL,
    T_NAME,
    T_PICK,
    T_PLACE,
    T_RECODE,
    T_RESPOND,
    T_TAKE,
    T_TARGET,
)

_POP = tuple(bin(m).count("1") for m in range(16))

#: (shape index, kind, column or first column, cells mask, cells) of 3-cell strikes and of foci.
_PROJECTS: tuple[tuple[int, int, int, int, tuple[int, ...]], ...] = tuple(
    (i, kind, cells[0] // ROWS, sum(1 << c for c in cells), cells)
    for i, (kind, cells) in enumerate(SHAPES)
    if (kind == STRIKE and len(cells) == 3) or kind == FOCUS
)
_SHIELDS: tuple[tuple[int, int, int, int, tuple[int, ...]], ...] = tuple(
    (i, cells[0] % ROWS, cells[0] // ROWS, cells[-1] // ROWS, cells)
    for i, (kind, cells) in enumerate(SHAPES)
    if kind == SHIELD
)
_ALL_SETS: tuple[tuple[int, int, int, tuple[int, ...]], ...] = tuple(
    (i, kind, cells[0] // ROWS, cells) for i, (kind, cells) in enumerate(SHAPES) if kind != SHIELD
)
SHAPE_MASK = tuple(sum(1 << c for c in cells) for _, cells in SHAPES)
#: Per cell, the cells sharing a project with it.
_NEAR = tuple(sum(mask for _, _, _, mask, _ in _PROJECTS if mask >> c & 1) & ~(1 << c) for c in range(CELLS))
#: Progress weight of a project by the number of its cells known to hold its symbol.
_W3 = (0.0, 0.12, 0.4, 1.0)
_W4 = (0.0, 0.04, 0.15, 0.45, 1.0)
#: Symbols from the least useful to the most useful in one's own deck.
_WORST_FIRST = (WAVE, CIRCLE, SQUARE, CROSS, STAR)
#: Shield discard effects by how much they help their owner.
_BLOCK_RANK = {STAR: 4, CIRCLE: 3, CROSS: 2, WAVE: 2, SQUARE: 0}

#: Guessing: the most unknown slots to guess with, and the life that must remain
#: even if every unknown slot is wrong.
GUESS_MAX_UNKNOWN = 2
GUESS_LIFE_MARGIN = 4
#: ... and the least chance that the guess is right (known slots and excluded symbols count).
GUESS_MIN_CHANCE = 0.3
#: End-of-turn gamble: reveal a project whose validity is at least this likely
#: (above 1: never; measured: no gain over revealing only sets known to be valid).
GAMBLE_MIN_CHANCE = 1.01
#: End-of-turn scouting: the worth of each unknown card an (often invalid) reveal uncovers (0: never).
SCOUT_INFO = 0.1
#: ... plus the worth of the set it may turn out to be (its value times its chance); measured
#: worse than scouting for cards alone (126 of 300 against 0).
SCOUT_SET = 0.0
#: ... plus how much its cards would help the projects, as for peeks (measured: no gain, 142 of 300).
SCOUT_PEEK = 0.0
#: A response is a free lottery, but it shows the opponent the cards: the least chance it blocks.
RESPOND_MIN_CHANCE = 0.0
#: The worth of each unknown card a response uncovers (it becomes known, blocked or not).
RESPOND_INFO = 0.1
#: Code rows of five different symbols (a circle focus then shows one slot) instead of
#: waves, circles and squares only (which keeps stars and crosses in the deck).
CODE_DISTINCT = False
#: The value of a set that wins the game.
WIN = 1000.0


class _Seat:
    """What the policy derives from one :class:`CodenameKnowledge`."""

    __slots__ = ("_by_cell", "_ranked", "_table", "_values", "down", "k", "known", "opp_life", "p", "unknown")

    def __init__(self, k: CodenameKnowledge) -> None:
        self.k = k
        field = k.field
        up = k.up
        known = [0, 0, 0, 0, 0]
        down = 0
        unknown = 0
        left = [10, 10, 10, 10, 10]
        for cell in range(CELLS):
            s = field[cell]
            if s == -2:
                continue
            if s >= 0:
                left[s] -= 1
            if up >> cell & 1:
                continue
            down |= 1 << cell
            if s == -1:
                unknown |= 1 << cell
            else:
                known[s] |= 1 << cell
        for group in (k.code, k.hand, k.aside):
            for s in group:
                left[s] -= 1
        for s in range(5):
            left[s] = max(0, left[s] - k.discard_known[s])
        total = sum(left)
        self.p = [x / total for x in left] if total else [0.2] * 5
        self.known = known
        self.down = down
        self.unknown = unknown
        self.opp_life = k.life[1 - k.seat]
        self._table: list[tuple[int, tuple[float, ...], tuple[float, ...]]] | None = None
        self._values: dict[tuple[int, int], tuple[float, ...]] = {}

    # ------------------------------------------------------------ values
    def life_weight(self) -> float:
        life = self.k.life[self.k.seat]
        return 1.4 if life <= 3 else 1.0 if life <= 6 else 0.6

    def code_value(self, slot: int) -> float:
        return 0.9 if self.k.opp_code[slot] < 0 else 0.0

    def strike_value(self, col: int, symbol: int) -> float:
        k = self.k
        for shield in k.opp_shields:
            if shield is None or not shield[0] <= col <= shield[1]:
                continue
            if symbol == STAR and shield[2] != STAR:
                continue
            # Blocked: no damage; the shield's discard effect works for him.
            if shield[2] == STAR:
                return -1.0 if k.life[k.seat] > 1 else -WIN
            if shield[2] == CIRCLE:
                return 0.1 if k.code_shown >> col & 1 else -0.5
            return 0.15
        damage = 2 if symbol == STAR else 1
        if damage >= self.opp_life:
            return WIN
        value = 1.1 * damage + self.code_value(col)
        if symbol == CROSS:
            value += 0.8 * self.life_weight()
        elif symbol == SQUARE:
            value += 0.12 * k.opp_hand
        elif symbol == CIRCLE:
            value += 0.35
        else:
            value += 0.3
        return value

    def focus_value(self, symbol: int) -> float:
        k = self.k
        if symbol == STAR:
            return WIN if self.opp_life <= 3 else 3.5
        if symbol == CROSS:
            return 3.0 * self.life_weight()
        if symbol == CIRCLE:
            unknown = sum(1 for s in k.opp_code if s < 0)
            return 0.6 + 0.35 * unknown if unknown else 0.1
        if symbol == SQUARE:
            return 0.3 + (0.6 if k.code_shown else 0.0) if k.hand else 0.05
        return 0.0  # a wave focus is a gamble on the opponent's field: only at the end of the turn

    def set_value(self, kind: int, col: int, symbol: int) -> float:
        return self.strike_value(col, symbol) if kind == STRIKE else self.focus_value(symbol)

    def set_values(self, kind: int, col: int) -> tuple[float, ...]:
        """:meth:`set_value` for each symbol, once per position (a strike's
        worth depends on its column only, a focus's on nothing else)."""
        key = (kind, col if kind == STRIKE else 0)
        values = self._values.get(key)
        if values is None:
            values = self._values[key] = tuple(self.set_value(kind, col, s) for s in range(5))
        return values

    # ---------------------------------------------------------- projects
    def projects(self) -> list[tuple[float, int, int, int, int]]:
        """(value, shape index, symbol, cells mask, cells known to hold the symbol) per
        valuable project whose cells are all face down."""
        down = self.down
        out = []
        for index, kind, col, mask, _ in _PROJECTS:
            if mask & down != mask:
                continue
            values = self.set_values(kind, col)
            for s in range(5):
                value = values[s]
                if value > 0:
                    out.append((value, index, s, mask, (mask & self.known[s]).bit_count()))
        return out

    def _open_projects(self) -> list[tuple[int, tuple[float, ...], tuple[float, ...]]]:
        """The projects still open (all cells face down) with their weights and
        values per symbol, once per position: the policy weighs many moves."""
        table = self._table
        if table is None:
            down = self.down
            table = self._table = [
                (mask, _W3 if kind == STRIKE else _W4, self.set_values(kind, col))
                for _, kind, col, mask, _ in _PROJECTS
                if mask & down == mask
            ]
            by_cell = [0] * CELLS
            ranked = []
            for entry, (mask, weights, values) in enumerate(table):
                for c in _cells(mask):
                    by_cell[c] |= 1 << entry
                for s in range(5):
                    have = (mask & self.known[s]).bit_count()
                    score = values[s] * weights[have]
                    if have and score > 0:
                        ranked.append((score, entry))
            ranked.sort(reverse=True)
            self._by_cell = by_cell
            self._ranked = ranked
        return table

    def potential(self, known: list[int], changed: int = -1) -> float:
        """How far the best projects are (with ``known`` as the known cells per
        symbol): the best project's progress plus half the second's.

        ``changed``, when given, is a bitmask of the cells where ``known`` may
        differ from :attr:`known`: only the projects touching them are worked
        out again (the same figure, several times faster)."""
        table = self._open_projects()
        best = 0.0
        second = 0.0
        if changed < 0:
            entries: range | list[int] = range(len(table))
        else:
            touched = 0
            for c in _cells(changed):
                touched |= self._by_cell[c]
            # The two best untouched projects are read off the ranking of
            # the position as it is; the touched ones are scored anew below.
            for score, entry in self._ranked:
                if touched >> entry & 1:
                    continue
                if score > best:
                    best, second = score, best
                elif score > second:
                    second = score
                    break
            entries = [e for e in range(len(table)) if touched >> e & 1]
        for entry in entries:
            mask, weights, values = table[entry]
            for s in range(5):
                have = (mask & known[s]).bit_count()
                if not have:
                    continue
                score = values[s] * weights[have]
                if score > best:
                    best, second = score, best
                elif score > second:
                    second = score
        return best + 0.5 * second

    def chance(self, cells: tuple[int, ...]) -> tuple[float, int]:
        """The chance that ``cells`` all show one symbol, and the likeliest symbol."""
        best, symbol = 0.0, -1
        field = self.k.field
        for s in range(5):
            p = 1.0
            for c in cells:
                x = field[c]
                if x == -1:
                    p *= self.p[s]
                elif x != s:
                    p = 0.0
                    break
            if p > best:
                best, symbol = p, s
        return best, symbol


def choose(world: State, seat: int, rng: random.Random) -> int:
    """The action for ``seat`` in ``world``, reading only what ``seat`` may know."""
    assert isinstance(world, CodenameState)
    k = world.knowledge(seat)
    task = k.task
    if task is None:
        return _turn(_Seat(k), rng)
    kind = task.kind
    if kind == T_CODE:
        return _code(rng)
    me = _Seat(k)
    if kind == T_RESPOND:
        return _respond(me, task.column, task.symbol)
    if kind == T_BLOCK:
        rows: tuple[int, ...] = task.rows
        return BLOCK_BASE + max(rows, key=lambda row: _BLOCK_RANK[_shield_symbol(k, row)])
    if kind == T_CODESWAP:
        return CODESWAP_PASS
    if kind == T_RECODE:
        return _recode(k)
    if kind == T_PICK:
        return _pick(k, task.column)
    if kind == T_TARGET:
        return _target(k, task.column)
    if kind == T_TAKE:
        return _take(k, task.cells[0])
    if kind == T_NAME:
        return NAME_BASE + _likeliest(k, rng)
    if kind in (T_PLACE, T_FILL):
        for c in task.cells:  # the cells being refilled count as face down
            me.down |= 1 << c
        if kind == T_PLACE:
            return _place(me, task.cells[0], sorted(set(k.aside)), PLACE_BASE, None)
        return _place(me, task.cells[0], sorted(set(k.hand)), FILL_BASE, FILL_DECK)
    return rng.choice(world.legal_actions())  # pragma: no cover - every decision is handled above


def _shield_symbol(k: CodenameKnowledge, row: int) -> int:
    shield = k.shields[row]
    return shield[2] if shield is not None else WAVE


def candidates(world: State, seat: int, limit: int = 6) -> list[int]:
    """A short list of sensible actions for ``seat`` (the policy's own choice
    first), for search bots that cannot afford every legal action: a turn
    offers 3,125 guesses and up to 190 swaps. On a turn: ``end``, the reveals
    of sets known to be valid, peeks at unknown cells, the ``limit`` best
    replaces and swaps, and a guess when the policy would make one. Other
    decisions have short lists and are returned whole. Reads only what
    ``seat`` may know."""
    assert isinstance(world, CodenameState)
    k = world.knowledge(seat)
    # Everything below is a function of what the seat knows (its legal
    # actions too), so a search asking again from another world it cannot
    # tell apart gets the list it was given before.
    key = (k, limit)
    found = _CANDIDATES.get(key)
    if found is None:
        if len(_CANDIDATES) >= _CANDIDATES_KEPT:
            _CANDIDATES.clear()
        found = _CANDIDATES[key] = _candidates(world, seat, k, limit)
    return list(found)


#: Lists of :func:`candidates` by the knowledge they were made from (bounded).
_CANDIDATES: dict[tuple[CodenameKnowledge, int], list[int]] = {}
_CANDIDATES_KEPT = 20000


def _candidates(world: CodenameState, seat: int, k: CodenameKnowledge, limit: int) -> list[int]:
    legal = world.legal_actions()
    first = choose(world, seat, random.Random(0))
    if k.task:
        return [first, *(a for a in legal if a != first)]
    me = _Seat(k)
    out = [first, END]
    if k.reveals < k.max_reveals:
        for index, _kind, _col, _shape in _ALL_SETS:
            mask = SHAPE_MASK[index]
            if any(mask & me.known[s] == mask for s in range(5)):
                out.append(REVEAL_BASE + index)
    if not k.peeked and me.unknown:
        out.append(_best_peek(me))
        out.extend(PEEK_BASE + c * CELLS + c for c in _cells(me.unknown))
    base = me.potential(me.known)
    if not k.replaced and k.hand:
        gains = []
        for s in sorted(set(k.hand)):
            for c in _cells(me.down):
                if k.field[c] != s:
                    gains.append((me.potential(_with(me, c, s), 1 << c) - base, REPLACE_BASE + c * 5 + s))
        out.extend(a for _, a in sorted(gains, reverse=True)[:limit])
    if not k.swapped:
        swaps = []
        for a in _cells(me.down & ~me.unknown):
            for b in _cells(me.down & ~(1 << a)):
                if k.field[b] == k.field[a] or not _NEAR[b] & me.known[k.field[a]] & ~(1 << a):
                    continue
                known = [m & ~(1 << a) & ~(1 << b) for m in me.known]
                known[k.field[a]] |= 1 << b
                if k.field[b] >= 0:
                    known[k.field[b]] |= 1 << a
                x, y = sorted((a, b))
                swaps.append((me.potential(known, 1 << a | 1 << b) - base, SWAP_BASE + x * CELLS + y))
        out.extend(a for _, a in sorted(swaps, reverse=True)[:limit])
    legal_set = set(legal)
    return [a for a in dict.fromkeys(out) if a in legal_set]


# ------------------------------------------------------------------ turn
def _turn(me: _Seat, rng: random.Random) -> int:
    k = me.k
    if not k.guessed and all(s >= 0 for s in k.opp_code):
        return GUESS_BASE + _pack(k.opp_code)
    can_reveal = k.reveals < k.max_reveals
    # 2. A set known to be valid.
    if can_reveal:
        best, action = 0.0, -1
        for index, kind, col, cells in _ALL_SETS:
            if len(cells) == 4 and kind == STRIKE:
                continue
            symbol = k.field[cells[0]]
            if symbol < 0 or (symbol == WAVE and kind == FOCUS):
                continue
            mask = SHAPE_MASK[index]
            if mask & me.known[symbol] != mask:
                continue
            value = me.set_value(kind, col, symbol)
            if value > best:
                best, action = value, REVEAL_BASE + index
        if action >= 0:
            return action
    # 3. Complete a set for sure with the swap and the replace.
    sure = _complete(me)
    if sure >= 0:
        return sure
    # 4. Peek.
    if not k.peeked and me.unknown:
        return _best_peek(me)
    # 5. Advance the best project.
    if not k.replaced and k.hand:
        action = _best_replace(me)
        if action >= 0:
            return action
    if not k.swapped:
        action = _best_swap(me)
        if action >= 0:
            return action
    # 6. Guess.
    if not k.guessed:
        action = _maybe_guess(k, rng)
        if action >= 0:
            return action
    # 7. A last gamble: the turn ends anyway.
    if can_reveal:
        action = _gamble(me)
        if action >= 0:
            return action
    return END


def _pack(symbols: tuple[int, ...] | list[int]) -> int:
    value = 0
    for s in reversed(symbols):
        value = value * 5 + s
    return value


def _complete(me: _Seat) -> int:
    """A swap or replace that makes a valuable set certain this turn (or -1)."""
    k = me.k
    can_swap = not k.swapped
    hand = set(k.hand) if not k.replaced else set()
    if not can_swap and not hand:
        return -1
    best_value, best_action = 0.0, -1
    for value, _, s, mask, _have in me.projects():
        missing = mask & ~me.known[s]
        need = missing.bit_count()
        if need == 0 or need > 2 or value <= best_value:
            continue
        spare = me.known[s] & ~mask  # known cards of the symbol elsewhere
        swaps = 1 if can_swap and spare else 0
        fills = 1 if s in hand else 0
        if need > swaps + fills:
            continue
        # Fill a known wrong card before an unknown one (which might be right).
        cells = sorted(_cells(missing), key=lambda c: k.field[c] == -1)
        target = cells[0]
        if swaps:
            source = _spare_cell(me, spare, s)
            a, b = sorted((target, source))
            action = SWAP_BASE + a * CELLS + b
        else:
            action = REPLACE_BASE + target * 5 + s
        best_value, best_action = value, action
    return best_action


def _spare_cell(me: _Seat, spare: int, symbol: int) -> int:
    """The known card of ``symbol`` (among ``spare``) that other projects need least."""
    best, cell = -1.0, -1
    for c in _cells(spare):
        known = list(me.known)
        known[symbol] &= ~(1 << c)
        score = me.potential(known, 1 << c)
        if score > best:
            best, cell = score, c
    return cell


def _cells(mask: int) -> list[int]:
    return [c for c in range(CELLS) if mask >> c & 1]


def _best_peek(me: _Seat) -> int:
    """The peek of the (up to) two unknown cells scored best, as an action."""
    scores = _peek_scores(me)
    # Stable sort: among equal scores the lower cell, as a scan would pick.
    best = sorted(_cells(me.unknown), key=lambda c: -scores[c])[:2]
    a, b = min(best), max(best)
    return PEEK_BASE + a * CELLS + b


def _peek_scores(me: _Seat) -> list[float]:
    """Per unknown cell, how much seeing it may help complete a project."""
    scores = [0.0] * CELLS
    for value, _, s, mask, have in me.projects():
        targets = mask & me.unknown
        if not targets:
            continue
        wrong = (mask & me.down & ~me.unknown & ~me.known[s]).bit_count()
        score = value * me.p[s] * (1 + have) ** 2 / (1 + wrong)
        for c in _cells(targets):
            if score > scores[c]:
                scores[c] = score
    return scores


def _with(me: _Seat, cell: int, symbol: int) -> list[int]:
    known = [m & ~(1 << cell) for m in me.known]
    if symbol >= 0:
        known[symbol] |= 1 << cell
    return known


def _best_replace(me: _Seat) -> int:
    k = me.k
    base = me.potential(me.known)
    best, action = base + 0.05, -1
    cells = _cells(me.down)
    for s in sorted(set(k.hand)):
        for c in cells:
            old = k.field[c]
            if old == s:
                continue
            gain = me.potential(_with(me, c, s), 1 << c)
            if old == -1:
                gain -= 0.05  # the unknown card might have been useful
            if gain > best:
                best, action = gain, REPLACE_BASE + c * 5 + s
    return action


def _best_swap(me: _Seat) -> int:
    """The swap that advances the projects most: a known card moves next to
    known cards of its symbol (only such moves can help)."""
    k = me.k
    base = me.potential(me.known)
    best, action = base + 0.05, -1
    down = me.down
    for a in _cells(down & ~me.unknown):
        sa = k.field[a]
        others = me.known[sa] & ~(1 << a)
        for b in _cells(down & ~(1 << a)):
            sb = k.field[b]
            if sb == sa or not _NEAR[b] & others:
                continue
            known = [m & ~(1 << a) & ~(1 << b) for m in me.known]
            known[sa] |= 1 << b
            if sb >= 0:
                known[sb] |= 1 << a
            gain = me.potential(known, 1 << a | 1 << b)
            if gain > best:
                x, y = sorted((a, b))
                best, action = gain, SWAP_BASE + x * CELLS + y
    return action


def _maybe_guess(k: CodenameKnowledge, rng: random.Random) -> int:
    unknown = [slot for slot in range(5) if k.opp_code[slot] < 0]
    if not unknown or len(unknown) > GUESS_MAX_UNKNOWN:
        return -1
    life = k.life[k.seat]
    if life - 2 * len(unknown) < GUESS_LIFE_MARGIN:
        return -1
    chance = 1.0
    for slot in unknown:
        chance /= 5 - k.opp_excluded[slot].bit_count()
    if chance < GUESS_MIN_CHANCE:
        return -1
    symbols = list(k.opp_code)
    weights = _opp_unseen(k)
    for slot in unknown:
        options = [s for s in range(5) if not k.opp_excluded[slot] >> s & 1]
        if not options:  # pragma: no cover - a slot always holds some symbol
            return -1
        top = max(weights[s] for s in options)
        symbols[slot] = rng.choice([s for s in options if weights[s] == top])
    return GUESS_BASE + _pack(symbols)


def _opp_unseen(k: CodenameKnowledge) -> list[int]:
    """Per symbol, the opponent's cards the seat has not located (a prior for his code)."""
    left = [10] * 5
    for s in k.opp_field:
        if s >= 0:
            left[s] -= 1
    for s in k.opp_code:
        if s >= 0:
            left[s] -= 1
    for s in range(5):
        left[s] -= k.opp_discard_known[s]
    return left


def _gamble(me: _Seat) -> int:
    """The last reveal of a turn: a wave focus it knows (its sets lie in the
    opponent's field; if it finds some, the turn goes on), else a gamble or scouting."""
    for index, kind, _, _shape in _ALL_SETS:
        mask = SHAPE_MASK[index]
        if kind == FOCUS and mask & me.known[WAVE] == mask:
            return REVEAL_BASE + index
    best, action = 0.0, -1
    for index, kind, col, cells in _ALL_SETS:
        mask = SHAPE_MASK[index]
        if mask & me.down != mask or not mask & me.unknown:
            continue
        if kind == STRIKE and len(cells) == 4:
            continue
        chance, symbol = me.chance(cells)
        if chance < GAMBLE_MIN_CHANCE:
            continue
        value = me.set_value(kind, col, symbol) if not (kind == FOCUS and symbol == WAVE) else 0.5
        if value * chance > best:
            best, action = value * chance, REVEAL_BASE + index
    if SCOUT_INFO > 0:
        # Scouting: the turn ends anyway, and even an invalid set shows the seat its cards.
        peek = _peek_scores(me) if SCOUT_PEEK else None
        for index, (kind, cells) in enumerate(SHAPES):
            mask = SHAPE_MASK[index]
            if mask & me.down != mask or not mask & me.unknown:
                continue
            chance, symbol = me.chance(cells)
            if kind == SHIELD or (kind == FOCUS and symbol == WAVE):
                value = 0.5
            else:
                value = max(me.set_value(kind, cells[0] // ROWS, symbol), 0.0) if symbol >= 0 else 0.0
            score = SCOUT_INFO * (mask & me.unknown).bit_count() + SCOUT_SET * chance * value
            if peek is not None:
                score += SCOUT_PEEK * sum(peek[c] for c in cells)
            if score > best:
                best, action = score, REVEAL_BASE + index
    return action


# ------------------------------------------------------------ decisions
def _code(rng: random.Random) -> int:
    if CODE_DISTINCT:
        symbols = [STAR, SQUARE, WAVE, CIRCLE, CROSS]
        rng.shuffle(symbols)
        return CODE_BASE + _pack(symbols)
    return CODE_BASE + _pack([rng.choice((WAVE, CIRCLE, SQUARE)) for _ in range(5)])


def _respond(me: _Seat, col: int, symbol: int) -> int:
    best, action = 0.0, RESPOND_PASS
    for index, _row, first, last, cells in _SHIELDS:
        mask = SHAPE_MASK[index]
        if mask & me.down != mask:
            continue
        chance, s = me.chance(cells)
        if chance <= 0:
            continue
        blocks = first <= col <= last and (symbol != STAR or s == STAR)
        if chance < RESPOND_MIN_CHANCE:
            continue
        value = chance * ((2.0 if symbol == STAR else 1.0) if blocks else 0.2)
        # A failed response still shows the seat its unknown cards.
        value += RESPOND_INFO * (mask & me.unknown).bit_count() - 0.01 * len(cells)
        if value > best:
            best, action = value, RESPOND_BASE + index
    return action


def _recode(k: CodenameKnowledge) -> int:
    hand = set(k.hand)
    symbol = next(s for s in _WORST_FIRST if s in hand)
    slots = sorted(range(5), key=lambda i: (-(k.code_shown >> i & 1), -k.code_excluded[i].bit_count(), i))
    return RECODE_BASE + slots[0] * 5 + symbol


def _pick(k: CodenameKnowledge, col: int) -> int:
    best, cell = -1.0, -1
    for c in range(CELLS):
        if c // ROWS == col or k.opp_up >> c & 1 or k.opp_field[c] == -2:
            continue
        score = 0.0
        if k.opp_knows >> c & 1:
            score = 1.0 + (k.opp_knows >> (c // ROWS * ROWS) & 0xF).bit_count() * 0.1
            if k.opp_field[c] in (STAR, CROSS):
                score += 0.3
        if score > best:
            best, cell = score, c
    return PICK_BASE + cell


def _target(k: CodenameKnowledge, col: int) -> int:
    best, row = -1.0, -1
    for r in range(ROWS):
        c = col * ROWS + r
        if k.opp_up >> c & 1 or k.opp_field[c] == -2:
            continue
        score = 0.0
        if k.opp_knows >> c & 1:
            score += 1.0
        if k.opp_field[c] in (STAR, CROSS):
            score += 0.5
        if score > best:
            best, row = score, r
    return TARGET_BASE + row


def _take(k: CodenameKnowledge, cell: int) -> int:
    # The striker has just looked through the whole pile: he knows every card in it.
    present = [s for s in range(5) if k.opp_discard_known[s]]
    col, row = divmod(cell, ROWS)
    counts = [0] * 5
    for c in range(CELLS):
        if c != cell and (c // ROWS == col or c % ROWS == row):
            s = k.opp_field[c]
            if s >= 0:
                counts[s] += 1
    order = {s: i for i, s in enumerate(_WORST_FIRST)}
    return TAKE_BASE + min(present, key=lambda s: (counts[s], order[s]))


def _likeliest(k: CodenameKnowledge, rng: random.Random) -> int:
    """The symbol most likely found among the opponent's unknown code slots."""
    weights = _opp_unseen(k)
    scores = [0.0] * 5
    for slot in range(5):
        if k.opp_code[slot] >= 0:
            continue
        options = [s for s in range(5) if not k.opp_excluded[slot] >> s & 1]
        total = sum(max(weights[s], 1) for s in options)
        for s in options:
            scores[s] += max(weights[s], 1) / total
    top = max(scores)
    return rng.choice([s for s in range(5) if scores[s] == top])


def _place(me: _Seat, cell: int, symbols: list[int], base: int, deck: int | None) -> int:
    best, action = -1.0, -1
    for s in symbols:
        gain = me.potential(_with(me, cell, s), 1 << cell)
        if deck is not None:
            gain -= 0.1  # a hand card kept is a replace later
        if gain > best:
            best, action = gain, base + s
    if deck is not None and (action < 0 or best <= me.potential(_with(me, cell, -1), 1 << cell)):
        return deck
    return action
