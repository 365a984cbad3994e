"""Run the ledger, the tables and the report sections on all local cores.

Every unit (one claim, one table, one section) is independent and seeded by name, so the report
is the same whatever the number of workers and whichever worker runs it; results are collected
in their fixed order.  Units are grouped into jobs by *family* (:func:`family`): the claims and
tables of one checker module, one section (the ``dp_release`` section with the
``microaggregation`` one).  A job runs in one worker, so the per-process memos its units share
(an Adult experiment behind four tables, a symbolic derivation behind seven claims) are
computed once, not once per worker, and a numba kernel is compiled (on a cold cache) in one
worker only.  Each worker (a pool of one process) first takes the jobs of its own list
(:func:`lanes`: the symbolic checkers, which need sympy, in one; the figure sections, which
need matplotlib, in the other), then the longest job left in any list (:func:`take`), so a
worker imports less and no core idles while work is left.  Long jobs go first, so that the
cores finish together (LPT): a job's cost is the sum of its units' seconds, taken from the
previous report in ``--out`` (:func:`previous_costs`), else from the costs shipped with privlab
(:func:`bundled_costs`), else :data:`DEFAULT_COST` by kind (:func:`_plan`, :func:`jobs`).
Workers are spawned (not forked) and rebuild the default ledger themselves; a unit that raises
is recorded exactly as in the sequential path (inconclusive claim, failed section, table with
an ``error``).

Progress (:func:`run_all`): a line before any work (units, workers, ETA), a line as each unit
ends (a job's units are submitted one by one to its worker) and one after a few silent seconds
(what runs), each with the ETA of :class:`privlab.report.eta.Tracker`.

Workers never outlive the run: each starts a watchdog thread (:func:`_watch_parent`) that ends
the worker with ``os._exit`` as soon as its parent process is gone (also when the parent was
killed with SIGKILL, when no cleanup code of the parent runs), and an interrupted parent
(SIGINT, SIGTERM, any exception) cancels the queued units and terminates the workers before
re-raising.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import attrs

from privlab.proofs.ledger import Ledger, default_ledger
from privlab.report.section import Context, _ignore
from privlab.report.workload import build_sections

POLL_SECONDS = 0.5
DEFAULT_COST = {"section": 20.0, "slow": 5.0, "table": 1.0, "claim": 0.5}
"""Seconds assumed for a unit no earlier report timed (by kind; ``slow``: claims marked slow)."""
SECTION_PREFIX = "privlab.report.sections."
SAME_WORKER = {SECTION_PREFIX + "dp_release": SECTION_PREFIX + "microaggregation"}
"""Sections run in the job of another section: both call the numba MDAV kernel on Adult."""
SYMBOLIC = ("privlab.proofs.thesis.ch4", "privlab.proofs.thesis.ch5",
            "privlab.proofs.thesis.sec45", "privlab.proofs.tcloseness", "privlab.proofs.own",
            SECTION_PREFIX + "refinement", SECTION_PREFIX + "tcloseness")
"""Families whose checkers use sympy (and scipy.stats): they go to worker 1 (:func:`lanes`)."""
FIGURES = (SECTION_PREFIX + "univariate", SECTION_PREFIX + "multivariate",
           SECTION_PREFIX + "microaggregation", SECTION_PREFIX + "audit_suite")
"""Sections that draw with matplotlib (or audit at length) and need no sympy: worker 0."""
BUNDLED_COSTS = "unit_costs.json"
"""Seconds per unit of a quick and a full run, shipped in ``privlab/report`` (read by
:func:`bundled_costs`; they only order the jobs of a first run, which has no earlier report)."""

Unit = tuple[str, str]


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


def bundled_costs(quick: bool) -> dict[tuple[str, str], float]:
    """The seconds per unit shipped with privlab (:data:`BUNDLED_COSTS`) for a ``quick`` or a
    full run, keyed like :func:`previous_costs` (empty when the file is missing or malformed:
    the costs only order the units)."""
    from importlib import resources

    try:
        text = resources.files("privlab.report").joinpath(BUNDLED_COSTS).read_text("utf-8")
        table = json.loads(text)["quick" if quick else "full"]
        return {_unit_key(k): float(v) for k, v in table.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _unit_key(name: str) -> Unit:
    """``"claim:ID"``, ``"table:ID"`` or ``"section:ID"`` (report ids) as a plan unit."""
    kind, uid = name.split(":", 1)
    if kind not in DEFAULT_COST or kind == "slow":
        raise ValueError(name)
    return (kind, SECTION_PREFIX + uid.replace("-", "_")) if kind == "section" else (kind, uid)


def family(unit: Unit, ledger: Ledger) -> str:
    """The job a unit runs in: the module of its claim's check or its table's function, the
    section itself (or the section :data:`SAME_WORKER` names)."""
    kind, uid = unit
    if kind == "section":
        return SAME_WORKER.get(uid, uid)
    fn: Any = ledger.get(uid).check if kind == "claim" else ledger.tables()[uid]
    fn = getattr(fn, "func", fn)  # functools.partial
    return str(getattr(fn, "module", None) or getattr(fn, "__module__", None) or uid)


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


def jobs(ctx: Context, sections: Sequence[str], ledger: Ledger,
         costs: Mapping[Unit, float]) -> list[tuple[Unit, ...]]:
    """The units of :func:`_plan` grouped by :func:`family`, each job's units longest first;
    jobs longest first by the sum of their units' costs (ties: the plan's order)."""
    plan = _plan(ctx, sections, ledger, costs)
    slow = {c.id for c in ledger.claims() if c.slow and not ctx.quick}
    groups: dict[str, list[Unit]] = {}
    for u in plan:
        groups.setdefault(family(u, ledger), []).append(u)

    def cost(u: Unit) -> float:
        k = "slow" if u[0] == "claim" and u[1] in slow else u[0]
        return costs.get(u, DEFAULT_COST[k])

    return sorted((tuple(g) for g in groups.values()), key=lambda g: -sum(map(cost, g)))


def lanes(planned: Sequence[tuple[Unit, ...]], ledger: Ledger, costs: Mapping[Unit, float],
          workers: int) -> list[list[tuple[Unit, ...]]]:
    """The jobs each worker takes first, longest first: :data:`SYMBOLIC` families to worker 1,
    :data:`FIGURES` sections to worker 0, every other job to the worker with less work so far
    (in the order of ``planned``).  A worker that has run out of its own jobs takes the longest
    job left in another's list, so the lists only decide which imports a worker needs (sympy
    and scipy.stats in one, matplotlib and hypothesis in the other, about 1 s of CPU each),
    never that a core idles while work is left."""
    out: list[list[tuple[Unit, ...]]] = [[] for _ in range(max(1, workers))]
    load = [0.0] * len(out)
    for job in planned:
        fam = family(job[0], ledger)
        if len(out) > 1 and fam.startswith(SYMBOLIC):
            w = 1
        elif fam in FIGURES:
            w = 0
        else:
            w = min(range(len(out)), key=load.__getitem__)
        out[w].append(job)
        load[w] += sum(costs.get(u, DEFAULT_COST[u[0]]) for u in job)
    return out


def take(queues: Sequence[collections.deque[tuple[Unit, ...]]], w: int,
         costs: Mapping[Unit, float]) -> tuple[Unit, ...] | None:
    """The next job of worker ``w`` (removed from its list): the head of its own list, else the
    longest head of another list (the lists are longest first), else None when all are empty."""
    if queues[w]:
        return queues[w].popleft()
    left = [q for q in queues if q]
    if not left:
        return None
    return max(left, key=lambda q: sum(costs.get(u, DEFAULT_COST[u[0]]) for u in q[0])
               ).popleft()


def _run_unit(unit: Unit, quick: bool, ctx: Context) -> dict[str, Any]:
    """Worker side: one unit as a report dictionary."""
    kind, uid = unit
    if kind == "claim":
        return _claim(uid, quick)
    return _table(uid) if kind == "table" else _section(uid, ctx)


def run_all(ctx: Context, sections: Sequence[str], *, workers: int,
            progress: Callable[[str], Any],
            costs: Mapping[tuple[str, str], float] | None = None
            ) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """(claims, tables, sections) as dictionaries, computed by ``workers`` processes: the jobs
    of :func:`jobs` in the lists of :func:`lanes`, each worker kept busy by :func:`take`.

    The units of a job are submitted one by one to the job's worker (a pool of one process,
    so they run there in order and share its memos), so that ``progress`` gets a line as each
    unit ends, with the ETA of :class:`privlab.report.eta.Tracker`; a line before any work
    (units, workers, ETA) and one after :data:`~privlab.report.eta.HEARTBEAT_SECONDS` without
    news (what runs, ETA)."""
    from privlab.report.eta import HEARTBEAT_SECONDS, Tracker

    ledger = default_ledger()
    claims = ledger.claims()
    table_ids = sorted(ledger.tables())
    wctx = attrs.evolve(ctx, progress=_ignore)
    costs = costs or {}
    planned = jobs(ctx, sections, ledger, costs)
    total = sum(map(len, planned))
    queues = [collections.deque(q) for q in lanes(planned, ledger, costs, workers)]
    slow = {c.id for c in ledger.claims() if c.slow and not ctx.quick}
    tracker = Tracker({u: costs.get(u, DEFAULT_COST["slow" if u[0] == "claim" and u[1] in slow
                                                   else u[0]])
                       for job in planned for u in job}, len(queues))
    progress(f"{total} units (claims, tables, sections) in {len(planned)} jobs on "
             f"{len(queues)} workers · {tracker.text()}")

    pools = [ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=worker_init, initargs=(os.getpid(),))
             for _ in range(len(queues))]
    results: dict[Unit, dict[str, Any]] = {}
    running: dict[Future[dict[str, Any]], tuple[int, Unit]] = {}
    busy = [0] * len(pools)  # units submitted to each worker and not yet collected

    def start(w: int) -> None:
        job = take(queues, w, costs)
        if job is not None:
            tracker.start_job(w, job)
            for unit in job:
                running[pools[w].submit(_run_unit, unit, ctx.quick, wctx)] = (w, unit)
            busy[w] = len(job)

    def name(unit: Unit) -> str:
        return f"{unit[0]} {unit[1].removeprefix(SECTION_PREFIX)}"

    try:
        for w in range(len(pools)):
            start(w)
        last = time.monotonic()
        while running:
            done, _ = wait(running, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
            if not done and time.monotonic() - last >= HEARTBEAT_SECONDS:
                progress(f"[{len(results)}/{total}] running: "
                         f"{', '.join(map(name, tracker.running()))} · {tracker.text()}")
                last = time.monotonic()
            # a worker's units end in submission order: collect them in that order
            for fut in sorted(done, key=lambda f: list(running).index(f)):
                w, unit = running.pop(fut)
                results[unit] = fut.result()
                tracker.finish(w, unit)
                busy[w] -= 1
                progress(f"[{len(results)}/{total}] {name(unit)} · {tracker.text()}")
                last = time.monotonic()
                if busy[w] == 0:
                    start(w)
    except BaseException:
        for pool in pools:
            _terminate(pool)
        raise
    for pool in pools:
        pool.shutdown(wait=True)
    return ([results["claim", c.id] for c in claims],
            {t: results["table", t] for t in table_ids},
            [results["section", n] for n in sections])


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
