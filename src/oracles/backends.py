"""Where many independent games are played: this process, a pool of worker
processes on this machine, or a Ray cluster.

Simulations, tournaments and the balance analysis are lists of *jobs*, each
a whole game fully determined by its arguments (game, options, bots, seeds),
so the same jobs give the same results on any backend: only the speed
differs. :func:`ordered_map` runs a job function over the jobs and yields the
results in job order.

=========  ===============================================================
backend    what runs the jobs
=========  ===============================================================
``local``  this process (``workers=1``) or a process pool of ``workers``
``ray``    Ray tasks: a local Ray started for the run (``num_cpus=workers``
           when given) or an existing cluster at ``address``; the
           ``distributed`` extra installs Ray
=========  ===============================================================

On Ray, jobs travel in chunks (one task plays several games), since a task
costs far more than a short game; workers import ``oracles`` themselves, so
on a cluster every node needs the package installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from oracles.core.errors import OptionError

J = TypeVar("J")
R = TypeVar("R")

BACKENDS = ("local", "ray")


def check_backend(backend: str, address: str | None) -> None:
    """Refuse an unknown backend, an address without Ray, or Ray that is
    not installed, before any game is played."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise OptionError("--address names a Ray cluster: use it with --backend ray")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise OptionError("--backend ray needs Ray: pip install 'oracles[distributed]'") from None


def _run_chunk(function: Callable[[Any], Any], jobs: list[Any]) -> list[Any]:
    return [function(job) for job in jobs]


def ray_map(
    function: Callable[[J], R],
    jobs: Sequence[J],
    address: str | None = None,
    num_cpus: int | None = None,
    chunk: int | None = None,
) -> Iterator[R]:
    """``function`` over ``jobs`` as Ray tasks, results in job order. Starts
    a local Ray (and stops it afterwards) unless one is running or
    ``address`` names a cluster."""
    import ray

    started = False
    if not ray.is_initialized():
        ray.init(
            address=address,
            num_cpus=num_cpus if address is None else None,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
        started = True
    try:
        cpus = max(1, int(ray.available_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        size = chunk or max(1, min(200, len(jobs) // (cpus * 4) or 1))
        task = ray.remote(_run_chunk)
        pending = [task.remote(function, list(jobs[i : i + size])) for i in range(0, len(jobs), size)]
        for ref in pending:
            yield from ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def ordered_map(
    function: Callable[[J], R],
    jobs: Iterable[J],
    workers: int = 1,
    chunk: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[R]:
    """``function`` over ``jobs``, results in job order, on ``backend``:
    locally in ``workers`` processes (:func:`oracles.workers.map_in_order`,
    which stops cleanly on Ctrl-C), or as Ray tasks (``workers`` CPUs of a
    local Ray, or the cluster at ``address``)."""
    check_backend(backend, address)
    if backend == "ray":
        yield from ray_map(function, list(jobs), address, workers if workers > 1 else None, chunk)
        return
    from oracles.workers import map_in_order

    yield from map_in_order(function, jobs, workers, chunk)
