"""Worker processes for ``simulate`` and ``tournament`` that stop on Ctrl-C.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group.
With a plain process pool each worker raised ``KeyboardInterrupt`` (one
traceback per worker) while the parent waited for them to finish their queued
work, and could deadlock on the pool's locks. Here the workers ignore SIGINT
(they are started with it ignored, so there is no window in which one could
see it), only the parent reacts, and it terminates the pool at once: the
interrupt ends the run within a second, with the results already received
(and records already written) kept, and no process left behind.

On Linux the workers are forked (whatever Python's default start method),
so they start at once with everything the parent imported and built; the
parent's objects are frozen out of the garbage collector across the fork
(:func:`gc.freeze`), so that a worker's collections do not touch, and copy,
the memory it shares with the parent.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from oracles.core.errors import InputError

Job = TypeVar("Job")
Result = TypeVar("Result")

#: The most worker processes a run may start, whatever the machine.
MAX_WORKERS = 32
#: How long an interrupted pool may take to stop before its workers are killed.
STOP_SECONDS = 1.0


def max_workers() -> int:
    """The cap of ``--workers`` here: four per CPU core, at most
    :data:`MAX_WORKERS` (more only adds memory and start-up time)."""
    return max(1, min(MAX_WORKERS, 4 * (os.cpu_count() or 1)))


def check_workers(workers: int) -> int:
    """``workers`` if it is from 1 to :func:`max_workers`, else an
    :class:`InputError` saying so."""
    cap = max_workers()
    if not 1 <= workers <= cap:
        raise InputError(f"--workers must be from 1 to {cap} on this machine (4 per CPU core), got {workers}")
    return workers


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _new_pool(workers: int) -> multiprocessing.pool.Pool:
    """The pool itself: forked on Linux, with the parent's objects frozen
    out of the garbage collector while the workers are forked."""
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    gc.freeze()
    try:
        return context.Pool(workers, initializer=_ignore_interrupts)
    finally:
        gc.unfreeze()


def _start_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool whose processes are born with SIGINT handled harmlessly (and
    then ignored). A Ctrl-C that arrives while the pool starts is not lost:
    it is raised as ``KeyboardInterrupt`` once the pool is up, and stops it."""
    if threading.current_thread() is not threading.main_thread():
        return _new_pool(workers)
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        pool = _new_pool(workers)
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        _stop(pool)
        raise KeyboardInterrupt
    return pool


def map_in_order(
    func: Callable[[Job], Result], jobs: Iterable[Job], workers: int, chunksize: int = 1
) -> Iterator[Result]:
    """``func`` over ``jobs``, results in order, in ``workers`` processes
    (in this one when ``workers`` is 1). Ctrl-C, an error or closing the
    iterator early terminates the workers at once."""
    if workers <= 1:
        for job in jobs:
            yield func(job)
        return
    pool = _start_pool(workers)
    try:
        yield from pool.imap(func, jobs, chunksize)
    except BaseException:
        _stop(pool)
        raise
    pool.close()
    pool.join()


def _stop(pool: multiprocessing.pool.Pool) -> None:
    """Terminate ``pool`` within about a second, whatever state it is in.

    ``Pool.terminate`` first takes the task queue's lock, which an idle
    worker holds while it waits for a task, and can then wait forever. It
    runs here in a daemon thread; if it has not finished in a second, the
    workers are killed outright and the thread is left behind (the program
    is ending)."""
    stopper = threading.Thread(target=pool.terminate, name="oracles-pool-stop", daemon=True)
    stopper.start()
    stopper.join(STOP_SECONDS)
    if stopper.is_alive():
        for child in multiprocessing.active_children():
            child.kill()
            child.join(STOP_SECONDS)
