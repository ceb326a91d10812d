"""The task stack of Codename: Oracle: what is pending, as typed records.

A position keeps a stack of :class:`Task` records. Decisions wait for a
player, chance tasks for a chance action, the rest run on their own (see
:meth:`oracles.games.codename.effects.CodenameEffects._run`); an action or
an effect pushes the steps it sets off.
"""

from __future__ import annotations

from typing import NamedTuple

# Pending tasks (the first element of a task tuple). Decisions wait for a
# player, chance tasks for a chance action, the rest run on their own.
T_CODE, T_RESPOND, T_BLOCK, T_CODESWAP, T_RECODE, T_PICK, T_PLACE, T_FILL, T_TARGET, T_TAKE, T_NAME = range(
    11
)
T_SHUFFLE, T_FIRST, T_RESHUFFLE, T_SCRAMBLE = range(11, 15)
T_DEAL, T_DISCARD_DEAL, T_DRAW, T_ASIDE, T_HIT, T_FOCUS, T_WAVE_FOCUS, T_END_TURN, T_NEXT_TURN = range(15, 24)
# A strike found by a wave focus (answered like any strike), and the discard of
# the two opened columns once every set found there has been resolved.
T_CLAIM, T_WAVE_DISCARD = range(24, 26)
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


class Task(NamedTuple):
    """One step on the task stack (a decision, a chance event or an automatic
    step); fields a kind does not use keep their defaults."""

    kind: int
    #: Who decides, or whose cards the step concerns.
    seat: int = -1
    #: The struck column (respond, block, pick, target, hit, claim) or the
    #: first column of a wave focus (wave_discard).
    column: int = -1
    #: The strike's symbol (respond, hit, claim) or the focus' symbol (focus).
    symbol: int = -1
    #: Cells to deal, place, fill, scramble or discard; the focus' cells; the
    #: cell a circle strike refills (take).
    cells: tuple[int, ...] = ()
    #: Rows of the shields that may block (block).
    rows: tuple[int, ...] = ()
    #: The striker whose strike is blocked (block).
    striker: int = -1
