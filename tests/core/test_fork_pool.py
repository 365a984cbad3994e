"""Fork pools under the CLI's own signal set-up never hang (privlab._procs.fork_pool).

The hang: ``privlab.cli.main`` makes SIGTERM raise ``SystemExit``; a fork-started worker that
receives ``Pool.terminate()``'s SIGTERM while it still runs the after-fork hooks swallowed it and
``terminate()`` joined it forever.  A plain ``multiprocessing`` fork pool terminated right after
its creation under that handler hangs within 200 rounds on this machine (the mutant: replace
``fork_pool(2)`` below by ``multiprocessing.get_context("fork").Pool(2)`` + ``terminate()``; the
subprocess then times out).  Each round here terminates a freshly created pool — the window of
the hang — and another is closed normally after doing work.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from privlab._procs import SIGNALS, blocked, fork_pool

STRESS = textwrap.dedent("""
    import sys
    from privlab._io import terminate_as_exit
    from privlab._procs import fork_pool

    terminate_as_exit()  # exactly what privlab.cli.main installs
    for i in range(int(sys.argv[1])):
        try:
            with fork_pool(2):
                raise KeyError(i)  # terminate() at once, while the workers may still start
        except KeyError:
            pass
        if i % 10 == 0:
            with fork_pool(2) as pool:  # the normal path: close + join after work
                assert pool.map(abs, [-1, -2, 3]) == [1, 2, 3]
    print("done")
""")


def test_many_pools_under_the_cli_sigterm_handler_finish() -> None:
    out = subprocess.run([sys.executable, "-c", STRESS, "100"], capture_output=True, text=True,
                         timeout=240)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


def _child_state(_: int) -> tuple[object, object, bool]:
    return (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT),
            bool(SIGNALS & signal.pthread_sigmask(signal.SIG_BLOCK, set())))


def test_workers_die_on_sigterm_and_ignore_sigint() -> None:
    """The initializer's state: default SIGTERM, ignored SIGINT, nothing blocked (a mutant that
    keeps the parent's handler or forgets to unblock fails here)."""
    old = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        with fork_pool(2) as pool:
            states = pool.map(_child_state, range(4))
    finally:
        signal.signal(signal.SIGTERM, old)
    assert states == [(signal.SIG_DFL, signal.SIG_IGN, False)] * 4


def test_the_parent_mask_is_restored_and_pending_signals_arrive() -> None:
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    got: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda s, _: got.append(s))
    try:
        with blocked(frozenset({signal.SIGUSR1})):
            # directed at this thread: a process-directed signal may be taken by another
            # thread of the test process (pytest-xdist runs an I/O thread), which does not block
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
            assert got == []  # pending, not lost
        assert got == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


def test_a_raising_body_terminates_and_reraises() -> None:
    with pytest.raises(ZeroDivisionError), fork_pool(2) as pool:
        pool.map(abs, [1])
        raise ZeroDivisionError
    assert pool._state != "RUN"  # type: ignore[attr-defined]
