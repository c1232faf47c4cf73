"""A process pool that Ctrl-C stops cleanly: the arena's pairs and a game review's decisions are
worked out on one (each result a function of its task alone, so the numbers are the same for any
number of processes)."""

from __future__ import annotations

import math
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.pool import Pool
from pathlib import Path

__all__ = ["ctrl_c_deferred", "default_jobs", "process_pool", "ANALYZE_JOB_MEMORY", "ARENA_JOB_MEMORY"]

ANALYZE_JOB_MEMORY = 320 * 2**20
"""Bytes a game review's worker process is allowed for (about 270 MB measured: the hints' compiled
tables and one search bot)."""

ARENA_JOB_MEMORY = 512 * 2**20
"""Bytes an arena worker is allowed for (about 190 MB measured for ``expert`` against ``hard``; twice
that leaves room for bigger bots, such as two search bots with large budgets)."""

_CGROUP = Path("/sys/fs/cgroup")


def default_jobs(memory_per_job: int) -> int:
    """Worker processes a parallel run starts when not told how many: one per CPU this process may
    use (its affinity and its container's CPU quota, not the machine's count), and no more than the
    memory now available holds at ``memory_per_job`` bytes each. A review started with one process
    per CPU on a many-core machine with little memory would otherwise be killed for lack of it.
    Never less than one."""
    cpus = _usable_cpus()
    memory = _available_memory()
    if memory is not None:
        cpus = min(cpus, memory // memory_per_job)
    return max(1, cpus)


def _usable_cpus() -> int:
    """CPUs this process may run on: its affinity, capped by a cgroup (v2) CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    quota = _read(_CGROUP / "cpu.max")  # "max 100000", or "200000 100000" for two CPUs' time
    if quota is not None:
        parts = quota.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit() and int(parts[1]) > 0:
            cpus = min(cpus, max(1, math.ceil(int(parts[0]) / int(parts[1]))))
    return max(1, cpus)


def _available_memory() -> int | None:
    """Bytes of memory available to new processes (Linux's MemAvailable, capped by a cgroup (v2)
    memory limit), or ``None`` where it cannot be told."""
    found: int | None = None
    meminfo = _read(Path("/proc/meminfo"))
    for line in (meminfo or "").splitlines():
        if line.startswith("MemAvailable:"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                found = int(parts[1]) * 1024
    limit, used = _read(_CGROUP / "memory.max"), _read(_CGROUP / "memory.current")
    if limit is not None and used is not None and limit.strip().isdigit() and used.strip().isdigit():
        left = max(0, int(limit) - int(used))
        found = left if found is None else min(found, left)
    return found


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _worker_ignores_ctrl_c() -> None:
    """A pool worker leaves Ctrl-C to the parent, which stops the run and ends the workers: a
    worker interrupted on its own printed its traceback over the arena's "interrupted"."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def ctrl_c_deferred() -> Iterator[Callable[[], None]]:
    """While a pool runs, Ctrl-C only sets a flag, and the function given raises it as
    ``KeyboardInterrupt`` where it is called: between two waits for a result, never inside the
    pool's own code (a Ctrl-C raised there, with one of its locks taken, left ``terminate``
    waiting for ever: a parallel arena interrupted under load hung). Workers forked meanwhile
    inherit the flag's handler until they ignore Ctrl-C. Outside the main thread, where no handler
    can be set, Ctrl-C is left as it is."""
    hit = threading.Event()

    def check() -> None:
        if hit.is_set():
            hit.clear()
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield check
        return
    old = signal.signal(signal.SIGINT, lambda signum, frame: hit.set())
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def process_pool(jobs: int) -> Iterator[tuple[Pool, Callable[[], None]]]:
    """``jobs`` worker processes that ignore Ctrl-C, and the check that raises a deferred one
    (:func:`ctrl_c_deferred`) in the parent: call it between waits. Leaving the block (done, an
    error, or Ctrl-C) terminates the workers."""
    with ctrl_c_deferred() as interrupted, get_context().Pool(jobs, initializer=_worker_ignores_ctrl_c) as pool:
        yield pool, interrupted
