"""How long ``privlab verify`` will take: the estimate it prints from its first second, and the
ETA on every progress line after (issue "never hang, never flake", part 6).

:func:`first_estimate` reads only JSON (no engine is imported yet): the wall seconds of the
previous report of the same kind in ``--out`` (quick or full, same number of workers), else the
sum of its units' seconds, else of the seconds shipped in ``report/unit_costs.json``, divided
by the workers.  :class:`Tracker` follows a parallel run unit by unit: the ETA is the larger of
the work left shared by the workers and the work left in the longest running job (a job runs in
one worker), each unit counted at its estimated seconds less the time it has been running,
scaled by the speed observed so far (a loaded machine makes the ETA grow, not stick).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from privlab.report.reports import MARKER, load

HEARTBEAT_SECONDS = 5.0
"""A running ``verify`` prints a line (what runs, the ETA) after this many silent seconds."""


def duration(seconds: float | None) -> str:
    """``"ETA ~18 s"``-style text of an estimate: ``~N s``, ``~M min SS s``, ``<1 s``, or
    ``unknown`` when there is none."""
    if seconds is None:
        return "unknown"
    if seconds < 1:
        return "<1 s"
    s = round(seconds)
    return f"~{s} s" if s < 60 else f"~{s // 60} min {s % 60:02d} s"


def _bundled_total(quick: bool) -> float | None:
    try:
        text = resources.files("privlab.report").joinpath("unit_costs.json").read_text("utf-8")
        total = sum(float(v) for v in json.loads(text)["quick" if quick else "full"].values())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return total or None


def _unit_total(report: Mapping[str, Any]) -> float:
    try:
        return (sum(float(c.get("seconds") or 0) for c in report.get("claims", []))
                + sum(float(t.get("seconds") or 0)
                      for t in (report.get("tables") or {}).values())
                + sum(float(s.get("seconds") or 0) for s in report.get("sections", [])))
    except (AttributeError, TypeError, ValueError):
        return 0.0


def first_estimate(out_dir: Path, *, quick: bool, workers: int) -> tuple[float | None, str]:
    """``(seconds, where the estimate comes from)`` for a run into ``out_dir``."""
    workers = max(1, int(workers))
    previous = load(out_dir / "report.json") if (out_dir / MARKER).is_file() else None
    if previous is not None and bool(previous.get("quick")) == quick:
        wall = previous.get("seconds")
        if previous.get("workers") == workers and isinstance(wall, (int, float)) and wall > 0:
            return float(wall), f"time of the previous report in {out_dir}"
        units = _unit_total(previous)
        if units > 0:
            return units / workers, f"unit timings of the previous report in {out_dir}"
    bundled = _bundled_total(quick)
    if bundled is not None:
        return bundled / workers, "unit costs shipped with privlab"
    return None, "no timings"


class Tracker:
    """The ETA of a run of units with estimated seconds ``costs`` on ``workers`` workers, each
    running one job (a sequence of units, in order) at a time.  Mutable bookkeeping of one run,
    not a value: call :meth:`start_job` when a worker takes a job and :meth:`finish` when one
    of its units is done (the worker's next unit starts then).

    The estimates are scaled by the speed observed so far — the workers' busy seconds over the
    estimated seconds of the work they did (a running unit counted up to its estimate) — shrunk
    towards 1 by :data:`PRIOR_SECONDS` so that the first seconds (worker start-up) do not
    dominate: on a loaded machine the ETA grows instead of sticking at the estimate."""

    PRIOR_SECONDS = 10.0

    def __init__(self, costs: Mapping[Hashable, float], workers: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.costs = dict(costs)
        self.workers = max(1, int(workers))
        self.clock = clock
        self.left = set(self.costs)
        self.jobs: dict[int, list[Hashable]] = {}
        self.since: dict[int, float] = {}  # when the worker's current unit started
        self.busy_since: dict[int, float] = {}  # when the worker's current job started
        self.busy = 0.0  # busy seconds of the jobs already finished
        self.done = 0.0  # estimated seconds of the units already finished

    def start_job(self, worker: int, units: Sequence[Hashable]) -> None:
        self.jobs[worker] = list(units)
        self.since[worker] = self.busy_since[worker] = self.clock()

    def finish(self, worker: int, unit: Hashable) -> None:
        now = self.clock()
        if unit in self.left:
            self.left.discard(unit)
            self.done += self.costs[unit]
        job = self.jobs.get(worker, [])
        if unit in job:
            job.remove(unit)
        self.since[worker] = now
        if not job and worker in self.busy_since:
            self.busy += now - self.busy_since.pop(worker)

    def running(self) -> list[Hashable]:
        """The unit each busy worker runs now (the first unfinished one of its job)."""
        return [job[0] for job in self.jobs.values() if job]

    def speed(self) -> float:
        """Observed seconds per estimated second (1 before any evidence)."""
        now = self.clock()
        busy = self.busy + sum(now - t for t in self.busy_since.values())
        credit = self.done + sum(min(now - self.since[w], self.costs.get(job[0], 0.0))
                                 for w, job in self.jobs.items() if job)
        return (busy + self.PRIOR_SECONDS) / (credit + self.PRIOR_SECONDS)

    def eta(self) -> float:
        """Seconds left: max(work left / workers, work left in the longest running job), at
        the observed :meth:`speed`."""
        now = self.clock()
        per_job = []
        spent = 0.0
        for w, job in self.jobs.items():
            if not job:
                continue
            on = min(now - self.since[w], self.costs.get(job[0], 0.0))
            spent += on
            per_job.append(sum(self.costs.get(u, 0.0) for u in job) - on)
        left = sum(self.costs[u] for u in self.left) - spent
        return max(0.0, left / self.workers, *per_job) * self.speed()

    def text(self) -> str:
        """``"ETA ~12 s"``; ``"past the estimate"`` when less than a second is left by the
        estimates but a unit has been running for longer than that (it overran its estimate:
        there is no remaining time to show)."""
        left = self.eta()
        now = self.clock()
        if left < 1 and any(now - self.since[w] >= 1 for w, job in self.jobs.items() if job):
            return "past the estimate"
        return f"ETA {duration(left)}"
