"""Bots on the server: their search runs off the event loop, fairly.

A bot's choice may take seconds (ISMCTS), so it runs in a process pool: the
worker gets the record's actions and the seat, rebuilds the state, asks the
bot through a :class:`~oracles.bots.base.SeatInfo` (which shows the bot only
its seat's information) and returns the action's text. Tests may use a
thread instead.

Fairness: jobs do not go straight to the pool, whose queue is first come,
first served. :class:`BotRunner` keeps at most one job per worker in the
pool and the others in a queue ordered by priority, then by arrival: a
table where someone is watching (:data:`ATTENDED`) goes before a table of
bots that nobody watches (:data:`UNATTENDED`), and a replay's review
(:data:`BACKGROUND`) after both. A table has at most one bot choice waiting
at a time and every search is bounded by the server's ``max_bot_seconds``,
so a table's bot waits at most for the jobs of its rank ahead of it.

Pace under load: a bot's time budget is the most it thinks. The bot choice
a worker takes next thinks for ``workers ÷ (waiting + workers)`` of its
budget (at least :data:`MIN_SHARE`), where ``waiting`` counts the choices
still queued behind it: each of them then waits for shorter searches. A bot
that waited itself gets no more than what is left of twice its budget (its
own and one other bot's), less :data:`ANSWER_MARGIN`. A bot that finds a
worker free and nobody waiting thinks for its whole budget.

Lifetime: the workers end with the server. Each watches its parent (on
Linux the kernel kills it when the parent dies, even by SIGKILL; elsewhere
a thread notices the new parent within a second), and a stop terminates a
worker still searching instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot, parse_bot_spec, shared_spec
from oracles.core.records import replay_record

T = TypeVar("T")

#: Priorities, best first.
ATTENDED = 0
UNATTENDED = 1
BACKGROUND = 2
#: The least share of its time budget a bot gets however long the queue.
MIN_SHARE = 0.1
#: Seconds kept, of a queued bot's bound, for rebuilding its game in the
#: worker and sending the answer back.
ANSWER_MARGIN = 0.03
#: Linux's ``prctl`` option that sends a signal to a child when its parent dies.
PR_SET_PDEATHSIG = 1


def time_budget(spec: str) -> float:
    """The time budget a move that ``spec`` gives its bot (0: none).

    >>> time_budget("ismcts:iterations=50:seconds=0.4"), time_budget("heuristic")
    (0.4, 0.0)
    """
    cls, params = parse_bot_spec(spec)
    return float(params.get(cls.time_param, 0.0)) if cls.time_param else 0.0


def choose(
    game_id: str,
    options: dict[str, Any],
    actions: list[str],
    seat: int,
    spec: str,
    seed: int,
    share: float = 1.0,
) -> str:
    """Rebuild the game from its actions and let ``spec`` choose for ``seat``
    with ``share`` of its time budget (runs in a worker process: arguments
    and result are plain data)."""
    state = replay_record({"game": game_id, "options": options, "actions": actions})
    bot = make_bot(shared_spec(spec, share), seat, seed)
    action = bot.choose(SeatInfo(state, seat))
    return state.action_to_string(action)


def watch_parent(parent: int) -> None:
    """In a worker: die with the server. The kernel's parent-death signal
    where there is one (Linux), and a thread that checks the parent's pid
    every half second either way (the signal follows the thread that
    started the worker, the pid check the process)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)  # the server died before this worker got here

    def check() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=check, name="oracles-parent-watch", daemon=True).start()


class BotRunner:
    """Where bots think: a lazily created pool of ``workers`` processes
    (``mode="process"``) or threads (``mode="thread"``), fed fairly (see
    the module docstring)."""

    def __init__(self, mode: str = "process", workers: int = 1) -> None:
        self.mode = mode
        self.workers = max(1, workers)
        self._pool: Executor | None = None
        # (priority, arrival, future, fn, args, the time budget of a bot
        # choice (None: a job that takes no share), when it was asked)
        self._waiting: list[
            tuple[int, int, asyncio.Future[Any], Callable[..., Any], tuple[Any, ...], float | None, float]
        ] = []
        #: How many bot choices have started, the sum of the shares of
        #: their budgets they were given, and the least (benchmarks, tests).
        self.shares_given = 0
        self.share_total = 0.0
        self.least_share = 1.0
        self._order = itertools.count()
        self._running = 0
        self._closed = False

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.mode == "process":
                # spawn: a forked child of a running event loop (and its
                # threads) is not safe.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=context,
                    initializer=watch_parent,
                    initargs=(os.getpid(),),
                )
            else:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="bot")
        return self._pool

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return len(self._waiting)

    async def choose(
        self,
        game_id: str,
        options: dict[str, Any],
        actions: list[str],
        seat: int,
        spec: str,
        priority: int = ATTENDED,
    ) -> str:
        """The bot's action text; its seed comes from the OS's random source."""
        seed = secrets.randbits(63)
        args = (game_id, options, list(actions), seat, spec, seed)
        # A bot without a time budget answers at once: no share to give it.
        return await self._queue(choose, args, priority, time_budget(spec) or None)

    async def call(self, fn: Callable[..., T], *args: Any, priority: int = ATTENDED) -> T:
        """``fn(*args)`` in the pool (hints and reviews think there too),
        when its turn comes by ``priority``. A caller that gives up (a bot
        whose version passed) leaves the queue."""
        return await self._queue(fn, args, priority, None)

    async def _queue(
        self, fn: Callable[..., T], args: tuple[Any, ...], priority: int, budget: float | None
    ) -> T:
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        heapq.heappush(
            self._waiting, (priority, next(self._order), future, fn, args, budget, time.monotonic())
        )
        self._dispatch()
        return await future

    def share(self, budget: float = 0.0, waited: float = 0.0) -> float:
        """The share of its time budget the bot choice a worker takes now
        gets (the module docstring): all of it when nothing waits behind it
        and it has not waited long itself."""
        waiting = sum(1 for job in self._waiting if not job[2].done())
        share = self.workers / (waiting + self.workers)
        if budget > 0:
            # What the bound leaves it (twice its budget, less a margin for
            # rebuilding the game and sending the answer back).
            share = min(share, (2 * budget - waited - ANSWER_MARGIN) / budget)
        return min(1.0, max(MIN_SHARE, share))

    def _dispatch(self) -> None:
        while self._running < self.workers and self._waiting:
            _, _, future, fn, args, budget, asked = heapq.heappop(self._waiting)
            if future.done():  # cancelled while waiting
                continue
            if budget is not None:
                share = self.share(budget, time.monotonic() - asked)
                self.shares_given += 1
                self.share_total += share
                self.least_share = min(self.least_share, share)
                args = (*args, share)
            self._running += 1
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(self._executor(), fn, *args)
            work.add_done_callback(functools.partial(self._finished, target=future))

    def _finished(self, done: asyncio.Future[Any], *, target: asyncio.Future[Any]) -> None:
        self._running -= 1
        if not target.done():
            if done.cancelled():
                target.cancel()
            elif done.exception() is not None:
                target.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                target.set_result(done.result())
        elif not done.cancelled():
            done.exception()  # retrieved: nobody waits for it any more
        if not self._closed:
            self._dispatch()

    def shutdown(self) -> None:
        """Drop the queued choices and stop the workers: a worker still
        searching is terminated, not waited for."""
        self._closed = True
        for _, _, future, *_ in self._waiting:
            if not future.done():
                future.get_loop().call_soon_threadsafe(future.cancel)
        self._waiting.clear()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if isinstance(pool, ProcessPoolExecutor):
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()
            for process in processes:
                with contextlib.suppress(Exception):
                    process.join(2)
                    if process.is_alive():
                        process.kill()
        else:
            pool.shutdown(wait=True, cancel_futures=True)

    async def aclose(self, timeout: float = 10.0) -> None:
        """:meth:`shutdown` off the event loop, giving up after ``timeout``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.to_thread(self.shutdown), timeout)
