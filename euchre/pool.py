"""A process pool that Ctrl-C stops cleanly: the arena's pairs and a game review's decisions are
worked out on one (each result a function of its task alone, so the numbers are the same for any
number of processes)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.pool import Pool

__all__ = ["ctrl_c_deferred", "process_pool"]


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
