"""``privlab verify`` shows progress with an ETA from its first second (issue "never hang,
never flake", part 6).  No timed assertions: a fake clock for the ETA arithmetic, and for
:func:`run_all` the order of the progress lines against the units' own events (workers are
threads here, on a small ledger, so each test takes well under a second)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from privlab.proofs.ledger import Ledger
from privlab.report import eta, parallel
from privlab.report.section import Context
from privlab.types import CheckResult, Claim, Method, Mutant


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_tracker_eta_follows_the_work_left() -> None:
    """Two workers, jobs (a, b) and (c,): the ETA is work left / workers at the observed
    speed, and the running job's remainder when that is longer."""
    clock = Clock()
    costs = {"a": 4.0, "b": 2.0, "c": 2.0}
    t = eta.Tracker(costs, 2, clock=clock)
    assert t.eta() == sum(costs.values()) / 2  # nothing observed yet: speed 1
    t.start_job(0, ["a", "b"])
    t.start_job(1, ["c"])
    clock.now = 2.0  # on schedule: a half done, c done
    t.finish(1, "c")
    assert t.speed() == 1.0
    assert t.eta() == (costs["a"] - 2.0) + costs["b"]  # job (a, b) left on one worker: 4 s
    assert t.running() == ["a"]


def test_tracker_eta_grows_on_a_slow_machine() -> None:
    """A unit running past its estimate slows the observed speed: the ETA of the work left
    grows instead of sticking at the estimate (mutant caught: speed fixed at 1)."""
    clock = Clock()
    costs = {"a": 1.0, "b": 10.0}
    t = eta.Tracker(costs, 1, clock=clock)
    t.start_job(0, ["a", "b"])
    first = t.eta()
    assert first == sum(costs.values())
    clock.now = 5.0  # a (estimated 1 s) still running after 5 s
    assert t.speed() > 1.0
    assert t.eta() > first


def test_text_says_when_the_estimate_is_used_up() -> None:
    """A unit running past its estimate shows no made-up "<1 s" (mutant caught: text()
    printing the ETA regardless)."""
    clock = Clock()
    t = eta.Tracker({"a": 2.0}, 1, clock=clock)
    t.start_job(0, ["a"])
    assert t.text() == "ETA ~2 s"
    t2 = eta.Tracker({"a": 0.1, "b": 0.1}, 1, clock=clock)
    t2.start_job(0, ["a", "b"])  # estimates below a second, nothing overran yet
    assert t2.text() == "ETA <1 s"
    clock.now = 100.0
    assert t.text() == "past the estimate"
    t.finish(0, "a")
    assert t.text() == "ETA <1 s"


def test_duration_text() -> None:
    assert eta.duration(None) == "unknown" and eta.duration(0.2) == "<1 s"
    assert eta.duration(17.6) == "~18 s" and eta.duration(125) == "~2 min 05 s"


def test_first_estimate_uses_the_previous_report_of_the_same_kind(tmp_path: Path) -> None:
    """mutant caught: timing a quick run by a full report (or the reverse)."""
    shipped = json.loads((Path(parallel.__file__).parent / "unit_costs.json").read_text())
    seconds, origin = eta.first_estimate(tmp_path, quick=True, workers=2)
    assert seconds == pytest.approx(sum(shipped["quick"].values()) / 2)
    assert origin == "unit costs shipped with privlab"
    (tmp_path / ".privlab-report").write_text("privlab")
    prev = {"quick": False, "seconds": 123.0, "workers": 2, "claims": [{"seconds": 40.0}],
            "tables": {"t": {"seconds": 2.0}}, "sections": [{"seconds": 8.0}]}
    (tmp_path / "report.json").write_text(json.dumps(prev))
    assert eta.first_estimate(tmp_path, quick=False, workers=2)[0] == prev["seconds"]
    assert eta.first_estimate(tmp_path, quick=True, workers=2)[0] == seconds  # other kind
    # other number of workers: the units' seconds, shared
    assert eta.first_estimate(tmp_path, quick=False, workers=5)[0] == (40.0 + 2.0 + 8.0) / 5


class ThreadPool(ThreadPoolExecutor):
    """The process pool of run_all, as threads (they see this test's small ledger)."""

    def __init__(self, max_workers: int, **_: Any) -> None:
        super().__init__(max_workers=max_workers)


def _ledger(events: list[str], gate: threading.Event | None = None) -> Ledger:
    def check(cid: str, total: int) -> CheckResult:
        if gate is not None and total == 2:
            gate.wait(30)  # released by the heartbeat line (30 s: only if it never comes)
        events.append(f"done {cid}")
        return CheckResult(holds=1 + 1 == total, claim="1 + 1", value=1 + 1,
                           method=Method.NUMERIC, counterexample={"1 + 1": 1 + 1})

    def claim(cid: str) -> Claim:
        return Claim(id=cid, source="test", statement=cid, check=lambda: check(cid, 2),
                     mutants=(Mutant(kind="constant", description="1 + 1 = 3",
                                     check=lambda: check(cid, 3)),))

    return Ledger((), extra_claims=(claim("test:a"), claim("test:b")))


def _run(monkeypatch: pytest.MonkeyPatch, ledger: Ledger, events: list[str],
         on_line: Any = None) -> list[dict[str, Any]]:
    monkeypatch.setattr(parallel, "default_ledger", lambda: ledger)
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", ThreadPool)

    def progress(line: str) -> None:
        events.append(line)
        if on_line is not None:
            on_line(line)

    costs = {("claim", "test:a"): 5.0, ("claim", "test:b"): 5.0}  # estimates: ETA ≥ 1 s
    claims, tables, sections = parallel.run_all(Context(quick=True), (), workers=2,
                                                progress=progress, costs=costs)
    assert tables == {} and sections == []
    return claims


def test_eta_line_precedes_the_first_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan line with an ETA comes before any unit ends, and every unit's line carries
    the ETA (mutant caught: the plan line printed after the first results, or none)."""
    events: list[str] = []
    claims = _run(monkeypatch, _ledger(events), events)
    assert [c["id"] for c in claims] == ["test:a", "test:b"]
    first_done = next(i for i, e in enumerate(events) if e.startswith("done "))
    plan = next(i for i, e in enumerate(events) if "units" in e and "ETA" in e)
    assert plan < first_done
    unit_lines = [e for e in events if e.startswith("[")]
    assert len(unit_lines) == len(claims) and all("ETA" in e for e in unit_lines)
    # each unit's line comes after that unit ended
    for c in claims:
        assert events.index(f"done {c['id']}") < next(
            i for i, e in enumerate(events) if e.startswith("[") and c["id"] in e)


def test_heartbeat_while_a_unit_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without news for HEARTBEAT_SECONDS a line says what runs, with the ETA.  The units
    cannot end before that line (they wait for it), so the order is certain; mutant caught: no
    heartbeat (the units then wait 30 s and the line is missing)."""
    monkeypatch.setattr(eta, "HEARTBEAT_SECONDS", 0.05)
    events: list[str] = []
    gate = threading.Event()

    def on_line(line: str) -> None:
        if "running:" in line:
            gate.set()

    _run(monkeypatch, _ledger(events, gate), events, on_line)
    beat = next(i for i, e in enumerate(events) if "running:" in e)
    assert "claim test:" in events[beat] and "ETA" in events[beat]
    assert beat < next(i for i, e in enumerate(events) if e == "done test:a")
