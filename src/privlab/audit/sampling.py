"""Deterministic, chunked, parallel sampling for the auditor.

Every phase of an audit (pilot, two selection halves, estimation; one stream per side) owns a
:class:`numpy.random.SeedSequence`.  A phase of n outputs is cut into blocks of ``chunk``
outputs; block i draws from the child SeedSequence with spawn key ``parent.spawn_key + (i,)``
(exactly what ``parent.spawn()`` would hand out, but addressed by index, so no shared state).
Each block is turned into per-feature histograms (integer counts), and the histograms of all
blocks are summed.  Integer sums do not depend on the order of the blocks, so the result is the
same bit for bit whatever the number of local worker processes or Dask workers — only ``seed``
and ``chunk`` matter.  Memory is O(chunk · d + cells) per worker, never O(n).

Local workers use a ``fork`` process pool (:func:`privlab._procs.fork_pool`: its workers cannot
miss the SIGTERM that ends them, and a finished pool is closed, not terminated): the samplers
live in a module global inherited by the children, so closures and lambdas work without
pickling.  Dask (``scheduler=ADDRESS`` of a
``distributed`` scheduler, or a ``distributed.Client``) ships the samplers with cloudpickle.

Samplers that ignore ``rng``.  Third-party code often draws from numpy's global ``RandomState``
(``np.random.laplace``) or Python's ``random``; forked workers inherit identical global states,
so their blocks would repeat.  Before each call of a sampler, :func:`draw` therefore seeds both
global generators from the block's own stream (a grandchild of it, disjoint from every stream
the auditor uses) and restores the caller's global state afterwards, so blocks are independent
for any number of workers and privlab leaves no trace in the global state.  A sampler drawing
from a generator of its *own* (created once, outside the call) still repeats across forked
workers: every block is hashed (up to :data:`DIGEST_ROWS` evenly spaced rows of it), and two
blocks with the same hash whose hashed rows carry at least :data:`REPEAT_NATS` nats (hashed rows
× the Rényi-2 entropy of the block's histogram, a lower bound on the information of those exact
outputs, so a chance repeat has probability ≤ e^{-REPEAT_NATS}) stop the audit with an
:class:`~privlab.errors.InvalidParameter` naming the sampler.

Faults.  A sampler that calls ``sys.exit()`` is an error naming it (:func:`draw`), not the end
of the run.  A pool worker that dies while it draws (``os._exit``, a signal, a crash in native
code) would leave its block missing and the pool waiting forever: :meth:`Runner.histograms`
watches the workers and raises instead.  Pool workers die with the process that runs the audit
(``PR_SET_PDEATHSIG`` on Linux) and die silently of SIGPIPE when it is gone, so a killed audit
leaves neither orphans nor ``BrokenPipeError`` tracebacks.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import random
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import numpy as np
from numpy.typing import NDArray

from privlab import _validate as v
from privlab._procs import fork_pool
from privlab.audit import features as ft
from privlab.audit.cellcount import cell_counts
from privlab.errors import InvalidParameter

Sampler = Callable[[int, np.random.Generator], Any]
IntArray = NDArray[np.int64]

_JOB: dict[str, Any] = {}
GLOBAL_TAG = 0x5EED_0001
"""Spawn-key suffix of the stream that seeds the global generators for one block."""
REPEAT_NATS = 40.0
"""Identical blocks carrying at least this much information (nats) are not a coincidence."""


def root_seed(rng: Any) -> np.random.SeedSequence:
    """A SeedSequence from ``rng``: int / SeedSequence / None as numpy does; a Generator or
    BitGenerator contributes 128 bits drawn from it (so the same generator object gives a new
    stream on every call, like any sampler)."""
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if isinstance(rng, np.random.Generator | np.random.BitGenerator):
        gen = rng if isinstance(rng, np.random.Generator) else np.random.Generator(rng)
        return np.random.SeedSequence(gen.integers(0, 2**63, size=2, dtype=np.uint64).tolist())
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool)):
        return np.random.SeedSequence(rng)
    raise InvalidParameter(f"rng={rng!r} must be None, an int, a SeedSequence or a Generator")


def child(seq: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """The i-th child of ``seq`` (what the i-th ``spawn`` would give), addressed by index."""
    return np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, int(i)),
                                  pool_size=seq.pool_size)


def check_workers(workers: Any) -> int:
    if workers is None:
        return os.cpu_count() or 1
    return v.positive_int("workers", workers)


@contextmanager
def seeded_globals(seq: np.random.SeedSequence) -> Iterator[None]:
    """Seed numpy's global RandomState and Python's ``random`` from a stream derived from
    ``seq`` for the duration of the block; restore the caller's states afterwards."""
    g = np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, GLOBAL_TAG),
                               pool_size=seq.pool_size)
    words = g.generate_state(8)
    np_state, py_state = np.random.get_state(), random.getstate()  # noqa: NPY002
    try:
        np.random.seed(words[:4])  # noqa: NPY002 (the point: samplers that use it)
        random.seed(int.from_bytes(words[4:].tobytes(), "little"))
        yield
    finally:
        np.random.set_state(np_state)  # noqa: NPY002
        random.setstate(py_state)


def is_user_exit(exc: BaseException) -> bool:
    """True for a ``SystemExit`` raised by code (``sys.exit()``), not privlab's SIGTERM
    (:class:`privlab._io.Terminated`, which must keep ending the run)."""
    from privlab._io import Terminated

    return isinstance(exc, SystemExit) and not isinstance(exc, Terminated)


def draw(sampler: Sampler, name: str, n: int, seq: np.random.SeedSequence) -> NDArray[Any]:
    """One validated batch of n outputs from the stream ``seq`` (the Generator passed to the
    sampler and, for samplers that ignore it, the global generators: :func:`seeded_globals`).
    A sampler that calls ``sys.exit()`` is an error naming it, never the end of the run."""
    try:
        with seeded_globals(seq):
            out = sampler(n, np.random.default_rng(seq))
    except SystemExit as exc:
        if not is_user_exit(exc):
            raise
        raise InvalidParameter(f"{name} called sys.exit({exc.code!r})") from None
    return ft.check_batch(out, name, n)


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when the process that forked it dies (Linux
    ``PR_SET_PDEATHSIG``; elsewhere nothing), so a killed run leaves no worker behind."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc / no prctl
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


_WORKER_READY = [0]
"""The pid of the process :func:`_worker_setup` last ran in (a forked worker finds its parent's
pid here, not its own, and so runs the setup once)."""


def _worker_setup() -> None:
    """Once per pool worker: die with the process that runs the audit (no orphan), and die
    silently of SIGPIPE when that process is gone (Python's default turns the failed write
    of a result into a ``BrokenPipeError`` traceback on stderr)."""
    if _WORKER_READY[0] == os.getpid():
        return
    _WORKER_READY[0] = os.getpid()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    die_with_parent()


def digest(batch: NDArray[Any]) -> str:
    """A 128-bit hash of a batch's dtype, shape and the bytes of evenly spaced rows, at most
    :data:`DIGEST_ROWS` of them (:func:`digest_rows`) — exact-repeat detection; hashing every
    byte of a block cost more than drawing it."""
    arr = np.ascontiguousarray(batch[::_digest_step(len(batch))])
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{arr.dtype.str}{batch.shape}".encode())
    h.update(arr.tobytes())
    return h.hexdigest()


DIGEST_ROWS = 2**15
"""Rows of a block hashed by :func:`digest` (every row of a block that is no larger)."""


def _digest_step(n: int) -> int:
    return max(1, -(-n // DIGEST_ROWS))


def digest_rows(n: int) -> int:
    """How many of a block's ``n`` rows :func:`digest` hashes."""
    return -(-n // _digest_step(n)) if n else 0


def information(hists: Sequence[IntArray]) -> float:
    """Lower bound (nats) on the information of a block: size × max over features of the
    Rényi-2 entropy −log Σ p̂² of its histogram.  Coarsening never raises Rényi entropy, so
    the exact outputs carry at least this much, and two independent blocks coincide with
    probability ≤ exp(−information) (for the true law; p̂ estimates it)."""
    best = 0.0
    for h in hists:
        tot = float(h.sum())
        if tot <= 0:
            continue
        p = h[h > 0] / tot
        best = max(best, -math.log(float(np.sum(p * p))))
    return best * float(hists[0].sum()) if hists else 0.0


def _block_hist(sampler: Sampler, name: str, size: int, seq: np.random.SeedSequence,
                feats: Sequence[str], edges: Sequence[NDArray[np.float64]],
                user: ft.FeatureMap | None) -> tuple[list[IntArray], str]:
    batch = draw(sampler, name, size, seq)
    out = []
    for f, e in zip(feats, edges, strict=True):
        out.append(cell_counts(e, ft.compute(f, batch, user)))  # bincount of searchsorted
    return out, digest(batch)


def _pool_task(args: tuple[str, int, Any, Any, Any]) -> tuple[list[IntArray], str]:
    _worker_setup()
    side, size, seq, feats, edges = args
    return _block_hist(_JOB[side], f"sample_{side}", size, seq, feats, edges, _JOB["user"])


def _dask_task(sampler: Sampler, name: str, size: int, seq: Any, feats: Any, edges: Any,
               user: Any) -> tuple[list[IntArray], str]:
    return _block_hist(sampler, name, size, seq, feats, edges, user)


class Runner:
    """Histograms of sampler outputs over partitions, on 1..W processes or a Dask cluster."""

    def __init__(self, samplers: dict[str, Sampler], *, chunk: int, workers: int = 1,
                 scheduler: Any = None, user: ft.FeatureMap | None = None,
                 tick: Callable[[int], Any] | None = None) -> None:
        self.samplers, self.chunk, self.user = samplers, chunk, user
        self.tick = tick
        """Called with the number of outputs of each finished block (a progress bar)."""
        self.workers, self.scheduler = workers, scheduler
        self._seen: dict[str, str] = {}
        """Block digest -> "side phase-block" of every block drawn (repeat detection)."""
        self._pool: Any = None
        self._procs: list[Any] = []
        """The pool's worker processes (a worker that ends while the pool is open died)."""
        self._client: Any = None
        self._stack = ExitStack()

    def __enter__(self) -> Runner:
        if self.scheduler is not None:
            self._client = _dask_client(self.scheduler)
        elif self.workers > 1:
            _JOB.clear()
            _JOB.update(self.samplers, user=self.user)
            self._stack.callback(_JOB.clear)
            self._pool = self._stack.enter_context(fork_pool(self.workers))
            self._procs = list(getattr(self._pool, "_pool", ()))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._pool = None
        self._procs = []
        self._stack.__exit__(*exc)  # closes the pool (terminates it if the body raised)
        if self._client is not None and not _is_client(self.scheduler):
            self._client.close()

    def histograms(self, side: str, n: int, seq: np.random.SeedSequence,
                   feats: Sequence[str], edges: Sequence[NDArray[np.float64]]) -> list[IntArray]:
        """Per-feature histograms of n outputs of side ``side`` from stream ``seq``."""
        tot = [np.zeros(e.size + 1, dtype=np.int64) for e in edges]
        if n <= 0:
            return tot
        nb = math.ceil(n / self.chunk)
        sizes = [min(self.chunk, n - i * self.chunk) for i in range(nb)]
        jobs = [(side, sizes[i], child(seq, i), tuple(feats), tuple(edges)) for i in range(nb)]
        if self._client is not None:
            futs = self._client.map(_dask_task, [self.samplers[side]] * nb,
                                    [f"sample_{side}"] * nb, sizes, [j[2] for j in jobs],
                                    [j[3] for j in jobs], [j[4] for j in jobs],
                                    [self.user] * nb, pure=False)
            parts = self._client.gather(futs)
        elif self._pool is not None and nb > 1:
            parts = self._watched(self._pool.imap_unordered(_pool_task, jobs), side)
        else:
            parts = (_pool_task_local(self, j) for j in jobs)
        for part, dig in parts:
            self._check_repeat(side, dig, part)
            for t, h in zip(tot, part, strict=True):
                t += h
            if self.tick is not None:
                self.tick(int(part[0].sum()))  # every output lies in exactly one cell
        return tot

    def _watched(self, it: Any, side: str) -> Iterator[tuple[list[IntArray], str]]:
        """The results of ``it`` (a pool's ``imap_unordered``); raises when a worker process
        dies (``os._exit``, a signal, a crash in native code): its block would never arrive
        and the pool would wait for it forever."""
        while True:
            try:
                yield it.next(timeout=WATCH_SECONDS)
            except StopIteration:
                return
            except multiprocessing.TimeoutError:
                dead = [p for p in self._procs if p.exitcode is not None]
                if dead:
                    raise InvalidParameter(
                        f"sample_{side}: a worker process drawing its outputs ended without "
                        f"returning them ({exit_text(dead[0].exitcode)})") from None

    def _check_repeat(self, side: str, dig: str, hists: Sequence[IntArray]) -> None:
        key = f"{side}:{dig}"
        size = int(hists[0].sum())
        hashed = digest_rows(size) / size if size else 0.0  # the hashed rows' share of it
        if key in self._seen and information(hists) * hashed >= REPEAT_NATS:
            raise InvalidParameter(
                f"sample_{side}={self.samplers[side]!r} returned the same block of "
                f"{int(hists[0].sum())} outputs from two independent random streams: its outputs "
                f"are not independent across blocks (does it draw from a generator created once, "
                f"outside the call, instead of the rng argument?); the audit would not be sound")
        self._seen[key] = dig


WATCH_SECONDS = 0.2
"""How often a pool's workers are checked for a death while a phase waits for them."""


def exit_text(code: int) -> str:
    """A process's end in words, from its ``Process.exitcode`` / ``waitstatus_to_exitcode``
    (negative: the signal that ended it)."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        verb = "crashed with" if -code in _CRASHES else "was killed by"
        return f"it {verb} {name}"
    return f"it exited with status {code}: os._exit() or a crash in native code"


_CRASHES = {int(getattr(signal, s)) for s in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT")
            if hasattr(signal, s)}


def _pool_task_local(runner: Runner, job: tuple[str, int, Any, Any,
                                                Any]) -> tuple[list[IntArray], str]:
    side, size, seq, feats, edges = job
    return _block_hist(runner.samplers[side], f"sample_{side}", size, seq, feats, edges,
                       runner.user)


def _is_client(obj: Any) -> bool:
    return type(obj).__name__ == "Client" and hasattr(obj, "gather")


def _dask_client(scheduler: Any) -> Any:
    if _is_client(scheduler):
        return scheduler
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the environment
        raise InvalidParameter(f"scheduler={scheduler!r} needs dask.distributed "
                               f"(pip install 'dask[distributed]')") from None
    if not isinstance(scheduler, str) or not scheduler:
        raise InvalidParameter(f"scheduler={scheduler!r} must be a scheduler address or a Client")
    return Client(scheduler)
