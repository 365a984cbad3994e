"""Run the ledger, the tables and the report sections on all local cores.

Every unit (one claim, one table, one section) is independent and seeded by name, so the report
is the same whatever the number of workers; results are collected in their fixed order.  Long
units are submitted first, so that the cores finish together: by the seconds the previous report
in ``--out`` recorded for each unit (:func:`previous_costs`), else sections, slow claims, tables,
claims (:func:`_plan`).  Workers are spawned (not forked) and rebuild the default ledger
themselves; a unit that raises is recorded exactly as in the sequential path (inconclusive
claim, failed section, table with an ``error``).

Workers never outlive the run: each starts a watchdog thread (:func:`_watch_parent`) that ends
the worker with ``os._exit`` as soon as its parent process is gone (also when the parent was
killed with SIGKILL, when no cleanup code of the parent runs), and an interrupted parent
(SIGINT, SIGTERM, any exception) cancels the queued units and terminates the workers before
re-raising.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import attrs

from privlab.proofs.ledger import Ledger, default_ledger
from privlab.report.section import Context, _ignore
from privlab.report.workload import build_sections

POLL_SECONDS = 0.5
DEFAULT_COST = {"section": 20.0, "slow": 5.0, "table": 1.0, "claim": 0.5}
"""Seconds assumed for a unit no earlier report timed (by kind; ``slow``: claims marked slow)."""


def _watch_parent(parent: int, poll: float = POLL_SECONDS) -> None:
    """Exit this process (status 1, no cleanup) once its parent ``parent`` is gone."""
    while True:
        time.sleep(poll)
        if os.getppid() != parent:
            os._exit(1)


def _exit_now() -> None:
    """Last exit handler of a worker: flush the standard streams and end the process without
    the interpreter's teardown of every imported module (about 0.5 s with scipy, sympy, numba
    and matplotlib loaded), which the parent would wait for at ``pool.shutdown``.  Everything
    a worker produces has been sent to the parent before it is asked to exit."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def worker_init(parent: int) -> None:
    """Pool initializer: start the parent-death watchdog (a daemon thread); Hypothesis's
    storage goes to privlab's cache folder, not the current directory; the worker skips the
    interpreter's teardown when it exits (:func:`_exit_now`)."""
    from privlab._data import configure_hypothesis

    configure_hypothesis()
    atexit.register(_exit_now)
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
    """Table ``tid`` as a dictionary with the wall ``seconds`` it took, or ``{"id", "error"}``
    when it cannot be computed."""
    t0 = time.perf_counter()
    try:
        out = ledger.table(tid).to_dict()
    except Exception as exc:  # recorded; the guarantee "every table computes" fails
        out = {"id": tid, "error": f"{type(exc).__name__}: {exc}"}
    return {**out, "seconds": round(time.perf_counter() - t0, 3)}


def previous_costs(report: Mapping[str, Any] | None) -> dict[tuple[str, str], float]:
    """Seconds per unit ``(kind, id)`` recorded in an earlier report.json (empty without one):
    the estimates :func:`run_all` schedules by."""
    if not report:
        return {}
    out: dict[tuple[str, str], float] = {}
    try:
        for c in report.get("claims", []):
            out["claim", str(c.get("id"))] = float(c.get("seconds") or 0.0)
        for tid, t in (report.get("tables") or {}).items():
            out["table", str(tid)] = float(t.get("seconds") or 0.0)
        for sec in report.get("sections", []):
            out["section", f"privlab.report.sections.{sec.get('id', '').replace('-', '_')}"] = \
                float(sec.get("seconds") or 0.0)
    except (AttributeError, TypeError, ValueError):  # an edited or foreign report: no order
        return {}
    return out


def _claim(cid: str, quick: bool) -> dict[str, Any]:
    return default_ledger().run([cid], quick=quick)[0].to_dict()


def _table(tid: str) -> dict[str, Any]:
    return table_dict(default_ledger(), tid)


def _section(name: str, ctx: Context) -> dict[str, Any]:
    return build_sections(ctx, (name,))[0].to_dict()


def _plan(ctx: Context, sections: Sequence[str], ledger: Ledger,
          costs: Mapping[tuple[str, str], float]) -> list[tuple[str, str]]:
    """Every unit, longest first (LPT, so that the cores finish together): by the seconds an
    earlier report timed (``costs``), else by :data:`DEFAULT_COST` of its kind; ties keep the
    order sections, slow claims, tables, claims."""
    slow = [c.id for c in ledger.claims() if c.slow and not ctx.quick]
    units = [("section", n) for n in sections] + [("claim", c) for c in slow]
    units += [("table", t) for t in sorted(ledger.tables())]
    units += [("claim", c.id) for c in ledger.claims() if c.id not in set(slow)]

    def kind(u: tuple[str, str]) -> str:
        return "slow" if u[0] == "claim" and u[1] in slow else u[0]

    return sorted(units, key=lambda u: -costs.get(u, DEFAULT_COST[kind(u)]))


def run_all(ctx: Context, sections: Sequence[str], *, workers: int,
            progress: Callable[[str], Any],
            costs: Mapping[tuple[str, str], float] | None = None
            ) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """(claims, tables, sections) as dictionaries, computed by ``workers`` processes, the
    units submitted longest first by ``costs`` (:func:`previous_costs`; :func:`_plan`)."""
    ledger = default_ledger()
    claims = ledger.claims()
    table_ids = sorted(ledger.tables())
    wctx = attrs.evolve(ctx, progress=_ignore)
    submit = {"claim": lambda cid: pool.submit(_claim, cid, ctx.quick),
              "table": lambda tid: pool.submit(_table, tid),
              "section": lambda name: pool.submit(_section, name, wctx)}
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=worker_init, initargs=(os.getpid(),))
    try:
        jobs: dict[tuple[str, str], Future[Any]] = {
            u: submit[u[0]](u[1]) for u in _plan(ctx, sections, ledger, costs or {})}
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
