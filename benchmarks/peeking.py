"""Searches that cheat, to measure what hidden information is worth.

Each is the default ``ismcts`` search with a window on the true state that
no real seat has, so that a benchmark can say how much a bot could gain
from knowing (or inferring) what is hidden:

| spec name | what the worlds it draws hold |
|---|---|
| ``true_hands`` | the other seats' true cards in hand; Oracle's hidden Oracle cards and keeps drawn as usual |
| ``true_keeps`` | (Oracle) the other seats' true Oracle cards and keeps; their cards in hand drawn as usual |
| ``true_state`` | everything as it is: one world, the true one (a perfect-information search) |

They exist only in the benchmarks: :func:`register` lets specs name them
in this process and the workers it forks (``benchmarks/inference.py``,
``benchmarks/paired.py``). In Inrah only the hands of the round under way
are hidden, so there the three are the same search.
"""

from __future__ import annotations

import random
from typing import ClassVar

from oracles.bots import specs
from oracles.bots.base import Bot, SeatInfo
from oracles.bots.ismcts import ISMCTSBot
from oracles.core.game import State


def _oracle_deal(state: State, seat: int) -> object | None:
    """Where Oracle's round under way dealt its cards, as the resampler
    plans it for ``seat`` (None before a deal)."""
    from oracles.games.oracle.resample import _plan

    return _plan(state, seat).deal  # type: ignore[arg-type]


def _copy_hands(world: State, source: State, deal: object | None) -> None:
    """Give ``world`` the other seats' cards in hand of ``source`` (Oracle;
    ``deal`` as :func:`_oracle_deal` finds it), with the deal in the history
    and the log that hands them out, so that ``world`` stays the state its
    history replays to."""
    if deal is None:
        return
    for other in deal.others:  # type: ignore[attr-defined]
        world._hands[other] = source._hands[other]  # type: ignore[attr-defined]
    world._history[deal.at] = source._history[deal.at]  # type: ignore[attr-defined]
    world._events[deal.event] = source._events[deal.event]  # type: ignore[attr-defined]


class _TrueHands(SeatInfo):
    """A seat's window that lets slip the other seats' true hands: each world
    drawn is resampled as usual, then given the true hands."""

    __slots__ = ()

    def sample_world(self, rng: random.Random) -> State:
        state = self._state
        # Drawn in every game, so that the rng runs as it did when the
        # stored ceilings were measured (benchmarks/results/inference*.md).
        world = state.resample_from_infostate(self.seat, rng)
        if state.game.id != "oracle":
            # Inrah hides nothing but the hands of the round under way.
            return state.clone()
        _copy_hands(world, state, _oracle_deal(state, self.seat))
        return world


class _TrueKeeps(SeatInfo):
    """The true state with the other seats' cards in hand drawn again: their
    Oracle cards and keeps are the true ones."""

    __slots__ = ()

    def sample_world(self, rng: random.Random) -> State:
        state = self._state
        drawn = state.resample_from_infostate(self.seat, rng)
        if state.game.id != "oracle":
            return drawn
        world = state.clone()
        _copy_hands(world, drawn, _oracle_deal(state, self.seat))
        # The clone's views were made from the true deal.
        world._logs = {}  # type: ignore[attr-defined]
        return world


class _TrueState(SeatInfo):
    """Every world is the true state."""

    __slots__ = ()

    def sample_world(self, rng: random.Random) -> State:
        return self._state.clone()


class TrueHandsBot(ISMCTSBot):
    """The default search given the other seats' true hands."""

    name: ClassVar[str] = "true_hands"

    def choose(self, info: SeatInfo) -> int:
        return super().choose(_TrueHands(info._state, info.seat))


class TrueKeepsBot(ISMCTSBot):
    """The default search given the other seats' true Oracle cards and keeps."""

    name: ClassVar[str] = "true_keeps"

    def choose(self, info: SeatInfo) -> int:
        return super().choose(_TrueKeeps(info._state, info.seat))


class TrueStateBot(ISMCTSBot):
    """The default search given the whole true state."""

    name: ClassVar[str] = "true_state"

    def choose(self, info: SeatInfo) -> int:
        return super().choose(_TrueState(info._state, info.seat))


CHEATS: tuple[type[ISMCTSBot], ...] = (TrueHandsBot, TrueKeepsBot, TrueStateBot)


def register() -> None:
    """Let specs name the searches of :data:`CHEATS` (in this process and the
    workers it forks); a second call changes nothing."""
    plain = specs.bot_classes
    if getattr(plain, "with_cheats", False):
        return

    def bot_classes() -> dict[str, type[Bot]]:
        return {**plain(), **{bot.name: bot for bot in CHEATS}}

    bot_classes.with_cheats = True  # type: ignore[attr-defined]
    specs.bot_classes = bot_classes
