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
the memory it shares with the parent. There the parent does not use
``multiprocessing.Pool`` but talks to each worker over a pipe of its own
(:func:`_forked_map`): it keeps two tasks queued at every worker, so none
waits for work, and it runs no helper threads. (A pool's worker-handler
thread wakes whenever a result is waiting to be read and spins until it is:
on two cores that thread alone took several percent of the run.) Elsewhere
(macOS, Windows: no safe fork) a ``multiprocessing.Pool`` runs the jobs.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import multiprocessing.pool
import os
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from itertools import islice
from typing import Any, TypeVar

from oracles.core.errors import InputError

Job = TypeVar("Job")
Result = TypeVar("Result")

#: The most worker processes a run may start, whatever the machine.
MAX_WORKERS = 32
#: How long an interrupted pool may take to stop before its workers are killed.
STOP_SECONDS = 1.0
#: Tasks kept queued at each forked worker (one playing, one waiting).
QUEUED_TASKS = 2
#: Whether workers are forked and fed by :func:`_forked_map` (else a ``multiprocessing.Pool``).
FORK_WORKERS = sys.platform == "linux"


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


def _start_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool whose processes are born with SIGINT handled harmlessly (and
    then ignored). A Ctrl-C that arrives while the pool starts is not lost:
    it is raised as ``KeyboardInterrupt`` once the pool is up, and stops it."""
    if threading.current_thread() is not threading.main_thread():
        return multiprocessing.Pool(workers, initializer=_ignore_interrupts)
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        pool = multiprocessing.Pool(workers, initializer=_ignore_interrupts)
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
    if FORK_WORKERS:
        yield from _forked_map(func, jobs, workers, chunksize)
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


class WorkerError(RuntimeError):
    """A worker process died, or failed in a way that cannot be sent back."""


def _serve(func: Callable[[Any], Any], conn: multiprocessing.connection.Connection) -> None:
    """A forked worker: run ``func`` over each task's jobs and send back
    ``(task, True, results)`` or ``(task, False, exception)``, until told
    to stop (``None``) or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, jobs = message
        try:
            reply: tuple[int, bool, Any] = (task, True, [func(job) for job in jobs])
        except Exception as error:
            error.add_note("(raised in a worker process)\n" + traceback.format_exc())
            reply = (task, False, error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # a result or an exception that cannot be pickled
            conn.send((task, False, WorkerError(f"a worker's reply cannot be sent back: {error!r}")))


def _fork_workers(
    func: Callable[[Any], Any], workers: int
) -> tuple[list[multiprocessing.process.BaseProcess], list[multiprocessing.connection.Connection]]:
    """Fork ``workers`` processes running :func:`_serve`, each with a pipe of
    its own, the parent's objects frozen out of the gc meanwhile. A Ctrl-C
    while they start is kept and raised as ``KeyboardInterrupt`` once they
    are up (and they are stopped)."""
    context = multiprocessing.get_context("fork")
    processes: list[multiprocessing.process.BaseProcess] = []
    conns: list[multiprocessing.connection.Connection] = []
    caught: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum)) if main else None
    gc.freeze()
    try:
        for _ in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(func, theirs), daemon=True, name="oracles-worker")
            process.start()
            theirs.close()
            processes.append(process)
            conns.append(mine)
    except BaseException:
        _kill(processes, conns)
        raise
    finally:
        gc.unfreeze()
        if main:
            signal.signal(signal.SIGINT, previous)
    if caught:
        _kill(processes, conns)
        raise KeyboardInterrupt
    return processes, conns


def _kill(
    processes: list[multiprocessing.process.BaseProcess], conns: list[multiprocessing.connection.Connection]
) -> None:
    """Stop the workers at once and reap them."""
    for conn in conns:
        conn.close()
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(STOP_SECONDS)


def _forked_map(
    func: Callable[[Job], Result], jobs: Iterable[Job], workers: int, chunksize: int
) -> Iterator[Result]:
    """:func:`map_in_order` in forked workers: tasks of ``chunksize`` jobs,
    :data:`QUEUED_TASKS` of them queued at each worker (only one each once
    the tasks left are too few to go round, so that no worker waits at the
    end while another still has a task queued), the results yielded in
    order. The workers are stopped when the jobs are done, and killed at
    once on an error, a Ctrl-C or the iterator being closed early."""
    total = -(-len(jobs) // chunksize) if isinstance(jobs, Sized) else None  # tasks in all, if known
    pending = iter(jobs)
    processes, conns = _fork_workers(func, workers)
    queued: dict[multiprocessing.connection.Connection, deque[int]] = {conn: deque() for conn in conns}
    done: dict[int, list[Result]] = {}
    sent = 0
    wanted = 0
    finished = False

    def feed(conn: multiprocessing.connection.Connection) -> None:
        nonlocal sent
        plenty = total is None or total - sent >= QUEUED_TASKS * workers
        if len(queued[conn]) >= (QUEUED_TASKS if plenty else 1):
            return
        chunk = list(islice(pending, chunksize))
        if chunk:
            try:
                conn.send((sent, chunk))
            except OSError:
                raise WorkerError("a worker process died before finishing its task") from None
            queued[conn].append(sent)
            sent += 1

    try:
        for _ in range(QUEUED_TASKS):
            for conn in conns:
                feed(conn)
        while True:
            while wanted in done:
                yield from done.pop(wanted)
                wanted += 1
            busy = [conn for conn in conns if queued[conn]]
            if not busy:
                break
            for ready in multiprocessing.connection.wait(busy):
                assert isinstance(ready, multiprocessing.connection.Connection)
                try:
                    task, ok, payload = ready.recv()
                except (EOFError, OSError):
                    raise WorkerError("a worker process died before finishing its task") from None
                if not ok:
                    raise payload
                queued[ready].remove(task)
                done[task] = payload
                feed(ready)
        finished = True
    finally:
        if finished:
            for conn in conns:
                with contextlib.suppress(OSError):
                    conn.send(None)
            for process in processes:
                process.join(STOP_SECONDS)
        _kill(processes, conns)
