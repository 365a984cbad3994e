"""Run the ledger, the tables and the report sections on all local cores.

Every unit (one claim, one table, one section) is independent and seeded by name, so the report
is the same whatever the number of workers; results are collected in their fixed order.  Long
units are submitted first (claims marked ``slow``, then sections), so that two cores finish
together.  Workers are spawned (not forked) and rebuild the default ledger themselves; a unit
that raises is recorded exactly as in the sequential path (inconclusive claim, failed section,
table with an ``error``).

Workers never outlive the run: each starts a watchdog thread (:func:`_watch_parent`) that ends
the worker with ``os._exit`` as soon as its parent process is gone (also when the parent was
killed with SIGKILL, when no cleanup code of the parent runs), and an interrupted parent
(SIGINT, SIGTERM, any exception) cancels the queued units and terminates the workers before
re-raising.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import attrs

from privlab.proofs.ledger import Ledger, default_ledger
from privlab.report.section import Context, _ignore
from privlab.report.workload import build_sections

POLL_SECONDS = 0.5


def _watch_parent(parent: int, poll: float = POLL_SECONDS) -> None:
    """Exit this process (status 1, no cleanup) once its parent ``parent`` is gone."""
    while True:
        time.sleep(poll)
        if os.getppid() != parent:
            os._exit(1)


def worker_init(parent: int) -> None:
    """Pool initializer: start the parent-death watchdog (a daemon thread); Hypothesis's
    storage goes to privlab's cache folder, not the current directory."""
    from privlab._data import configure_hypothesis

    configure_hypothesis()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="privlab-parent-watchdog").start()


def _terminate(pool: ProcessPoolExecutor) -> None:
    procs = list((getattr(pool, "_processes", None) or {}).values())  # before shutdown clears it
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)


def table_dict(ledger: Ledger, tid: str) -> dict[str, Any]:
    """Table ``tid`` as a dictionary, or ``{"id", "error"}`` when it cannot be computed."""
    try:
        return ledger.table(tid).to_dict()
    except Exception as exc:  # recorded; the guarantee "every table computes" fails
        return {"id": tid, "error": f"{type(exc).__name__}: {exc}"}


def _claim(cid: str, quick: bool) -> dict[str, Any]:
    return default_ledger().run([cid], quick=quick)[0].to_dict()


def _table(tid: str) -> dict[str, Any]:
    return table_dict(default_ledger(), tid)


def _section(name: str, ctx: Context) -> dict[str, Any]:
    return build_sections(ctx, (name,))[0].to_dict()


def run_all(ctx: Context, sections: Sequence[str], *, workers: int,
            progress: Callable[[str], Any]) -> tuple[list[dict[str, Any]], dict[str, Any],
                                                     list[dict[str, Any]]]:
    """(claims, tables, sections) as dictionaries, computed by ``workers`` processes."""
    ledger = default_ledger()
    claims = ledger.claims()
    table_ids = sorted(ledger.tables())
    wctx = attrs.evolve(ctx, progress=_ignore)
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=worker_init, initargs=(os.getpid(),))
    try:
        jobs: dict[tuple[str, str], Future[Any]] = {}
        for c in claims:
            if c.slow and not ctx.quick:
                jobs["claim", c.id] = pool.submit(_claim, c.id, ctx.quick)
        for name in sections:
            jobs["section", name] = pool.submit(_section, name, wctx)
        for c in claims:
            if ("claim", c.id) not in jobs:
                jobs["claim", c.id] = pool.submit(_claim, c.id, ctx.quick)
        for tid in table_ids:
            jobs["table", tid] = pool.submit(_table, tid)
        done = 0
        for key, fut in jobs.items():
            fut.result()
            done += 1
            progress(f"[{done}/{len(jobs)}] {key[0]} {key[1]}")
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)
    return ([jobs["claim", c.id].result() for c in claims],
            {t: jobs["table", t].result() for t in table_ids},
            [jobs["section", n].result() for n in sections])


def run_claims(ids: Sequence[str], *, quick: bool, workers: int,
               progress: Callable[[str], Any]) -> list[dict[str, Any]]:
    """The claims ``ids`` (dictionaries, in the given order) computed by ``workers``
    processes, slow claims first (``privlab claims`` without a usable report)."""
    ledger = default_ledger()
    claims = [ledger.get(i) for i in ids]
    order = sorted(claims, key=lambda c: not c.slow)
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=worker_init, initargs=(os.getpid(),))
    try:
        jobs = {c.id: pool.submit(_claim, c.id, quick) for c in order}
        for done, cid in enumerate(jobs, start=1):
            jobs[cid].result()
            progress(f"[{done}/{len(jobs)}] claim {cid}")
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)
    return [jobs[c.id].result() for c in claims]
