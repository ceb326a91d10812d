"""Bots on the server: their search runs off the event loop.

A bot's choice may take seconds (ISMCTS), so it runs in a process pool: the
worker gets the record's actions and the seat, rebuilds the state, asks the
bot through a :class:`~oracles.bots.base.SeatInfo` (which shows the bot only
its seat's information) and returns the action's text. The pool is made on
first use and shut down with the server. Tests may use a thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.records import replay_record

T = TypeVar("T")


def choose(game_id: str, options: dict[str, Any], actions: list[str], seat: int, spec: str, seed: int) -> str:
    """Rebuild the game from its actions and let ``spec`` choose for ``seat``
    (runs in a worker process: arguments and result are plain data)."""
    state = replay_record({"game": game_id, "options": options, "actions": actions})
    bot = make_bot(spec, seat, seed)
    action = bot.choose(SeatInfo(state, seat))
    return state.action_to_string(action)


class BotRunner:
    """Where bots think: a lazily created pool of ``workers`` processes
    (``mode="process"``) or threads (``mode="thread"``)."""

    def __init__(self, mode: str = "process", workers: int = 1) -> None:
        self.mode = mode
        self.workers = max(1, workers)
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.mode == "process":
                # spawn: a forked child of a running event loop (and its
                # threads) is not safe.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            else:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="bot")
        return self._pool

    async def choose(
        self, game_id: str, options: dict[str, Any], actions: list[str], seat: int, spec: str
    ) -> str:
        """The bot's action text; its seed comes from the OS's random source."""
        loop = asyncio.get_running_loop()
        seed = secrets.randbits(63)
        return await loop.run_in_executor(
            self._executor(), choose, game_id, options, list(actions), seat, spec, seed
        )

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (hints and reviews think there too)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), fn, *args)

    def shutdown(self) -> None:
        """Cancel queued choices and wait for the ones running (a search
        is bounded by its budget)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def aclose(self, timeout: float = 10.0) -> None:
        """:meth:`shutdown` off the event loop, giving up after ``timeout``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.to_thread(self.shutdown), timeout)
