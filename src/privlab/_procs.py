"""Fork-started worker pools that cannot hang on a lost signal.

:func:`privlab.cli.main` turns SIGTERM into ``SystemExit`` (:func:`privlab._io.terminate_as_exit`)
so that cleanup code runs in the parent.  A fork-started child inherits that handler.
:meth:`multiprocessing.pool.Pool.terminate` stops its workers with SIGTERM; when the signal
lands while a child still runs the interpreter's after-fork hooks (before its worker loop), the
``SystemExit`` is raised inside a hook, printed as "Exception ignored in: <function _after_fork>"
and swallowed: the child lives on, waiting for a task that never comes, and ``terminate()`` joins
it forever.

:func:`fork_pool` closes that window by construction:

1. SIGTERM and SIGINT are *blocked* in the calling thread while the pool is created, so every
   child starts with both blocked: a signal sent to it then stays pending, it is never lost
   (the pool's helper threads are created in that window too and keep the mask, so a worker
   they fork later starts the same way; the parent's main thread receives its signals as
   before);
2. the children's initializer sets SIGTERM back to its default action (the process dies),
   ignores SIGINT (a Ctrl-C reaches the whole process group; the parent decides, and ends the
   pool) and only then unblocks both — a pending SIGTERM kills the child at once;
3. on a normal exit the pool is *closed* (each worker leaves its loop on a sentinel) and
   joined; ``terminate()`` is used only when the body raised — and by 1–2 it cannot hang.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool

SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})
"""The signals blocked around a fork and reset in the child."""


def _child_init() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)


@contextmanager
def blocked(signals: frozenset[signal.Signals] = SIGNALS) -> Iterator[None]:
    """Block ``signals`` in the calling thread for the body (pending ones arrive on exit)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def fork_pool(workers: int) -> Iterator[Pool]:
    """A ``fork`` :class:`~multiprocessing.pool.Pool` of ``workers`` processes whose workers
    start with the default SIGTERM action (see the module docstring); closed and joined when the
    body ends normally, terminated when it raises."""
    pool: Pool | None = None
    try:
        with blocked():
            pool = multiprocessing.get_context("fork").Pool(workers, initializer=_child_init)
        yield pool
    except BaseException:
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    else:
        pool.close()
        pool.join()
