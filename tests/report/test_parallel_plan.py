"""Scheduling of ``privlab verify``'s units: grouped into jobs by family, longest first by an
earlier report's timings or the bundled ones."""

from __future__ import annotations

import pytest

from privlab.proofs.ledger import default_ledger
from privlab.report import build, parallel
from privlab.report.parallel import _plan, bundled_costs, family, jobs, previous_costs, table_dict
from privlab.report.section import Context
from privlab.report.workload import SECTIONS


def test_plan_without_timings_puts_sections_then_slow_claims_first() -> None:
    ledger = default_ledger()
    plan = _plan(Context(quick=False), SECTIONS, ledger, {})
    n_sec = len(SECTIONS)
    assert plan[:n_sec] == [("section", s) for s in SECTIONS]
    slow = {c.id for c in ledger.claims() if c.slow}
    assert {u[1] for u in plan[n_sec:n_sec + len(slow)]} == slow
    assert len(plan) == len(set(plan)) == n_sec + len(ledger.claims()) + len(ledger.tables())


def test_plan_orders_by_previous_seconds() -> None:
    ledger = default_ledger()
    claim = ledger.claims()[-1].id
    table = sorted(ledger.tables())[0]
    report = {"claims": [{"id": claim, "seconds": 99.0}],
              "tables": {table: {"id": table, "seconds": 50.0}},
              "sections": [{"id": "audit-suite", "seconds": 0.01}]}
    costs = previous_costs(report)
    assert costs["section", "privlab.report.sections.audit_suite"] == 0.01
    plan = _plan(Context(quick=True), SECTIONS, ledger, costs)
    assert plan[:2] == [("claim", claim), ("table", table)]
    others = [plan.index(("section", s)) for s in SECTIONS if not s.endswith("audit_suite")]
    assert plan.index(("section", "privlab.report.sections.audit_suite")) > max(others)
    assert previous_costs(None) == {}


def test_table_dict_records_seconds() -> None:
    ledger = default_ledger()
    tid = sorted(ledger.tables())[0]
    d = table_dict(ledger, tid)
    assert d["seconds"] >= 0 and d["id"] == tid and "rows" in d


@pytest.mark.parametrize("report", [{"claims": ["x"]}, {"tables": {"t": {"seconds": "fast"}}},
                                    {"sections": [None]}, {"claims": 3}])
def test_previous_costs_ignore_a_malformed_report(report: dict) -> None:
    """The timings only order the units: an edited report.json never stops a run."""
    assert previous_costs(report) == {}


def _all_units(quick: bool) -> set[tuple[str, str]]:
    ledger = default_ledger()
    return set(_plan(Context(quick=quick), SECTIONS, ledger, {}))


@pytest.mark.parametrize("quick", [True, False])
def test_jobs_group_every_unit_once_by_family(quick: bool) -> None:
    """Each unit is in exactly one job; a job's units share a family and no two jobs do; the
    claims of one checker module are one job; dp_release runs with microaggregation."""
    ledger = default_ledger()
    planned = jobs(Context(quick=quick), SECTIONS, ledger, bundled_costs(quick))
    units = [u for job in planned for u in job]
    assert len(units) == len(set(units)) and set(units) == _all_units(quick)
    fams = [{family(u, ledger) for u in job} for job in planned]
    assert all(len(f) == 1 for f in fams)
    assert len({next(iter(f)) for f in fams}) == len(planned)
    pre = "privlab.report.sections."
    together = next(job for job in planned if ("section", pre + "microaggregation") in job)
    assert ("section", pre + "dp_release") in together
    sym = {c.id for c in ledger.claims()
           if family(("claim", c.id), ledger) == "privlab.proofs.thesis.ch4_symbolic"}
    assert len(sym) > 3 and any({("claim", c) for c in sym} == set(j) for j in planned)


def test_jobs_are_longest_first_and_units_longest_first_within() -> None:
    ledger = default_ledger()
    costs = bundled_costs(True)
    planned = jobs(Context(quick=True), SECTIONS, ledger, costs)

    def cost(u: tuple[str, str]) -> float:  # a unit no report timed: its kind's default
        return costs.get(u, parallel.DEFAULT_COST[u[0]])

    totals = [sum(map(cost, job)) for job in planned]
    assert totals == sorted(totals, reverse=True)
    for job in planned:
        c = [cost(u) for u in job]
        assert c == sorted(c, reverse=True)


@pytest.mark.parametrize("quick", [True, False])
def test_bundled_costs_name_only_current_units(quick: bool) -> None:
    """The shipped seconds are not stale: every entry is a unit of this ledger (a removed or
    renamed claim must leave the file), and every section has one."""
    costs = bundled_costs(quick)
    units = _all_units(quick)
    assert costs and set(costs) <= units
    assert {("section", s) for s in SECTIONS} <= set(costs)
    assert all(v >= 0 for v in costs.values())


def test_bundled_costs_missing_or_malformed_give_nothing(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(parallel, "BUNDLED_COSTS", "no-such-file.json")
    assert bundled_costs(True) == {}
    with pytest.raises(ValueError):
        parallel._unit_key("slow:x")


def test_costs_prefer_a_previous_report_of_the_same_kind(tmp_path, monkeypatch) -> None:
    """--out's previous report orders the run when it was of the same kind (quick or not);
    otherwise the bundled seconds do."""
    ledger = default_ledger()
    claim = ledger.claims()[0].id
    prev = {"quick": True, "claims": [{"id": claim, "seconds": 123.0}], "tables": {},
            "sections": []}
    monkeypatch.setattr(build, "_previous", lambda out_dir: prev)
    assert build._costs(tmp_path, True)["claim", claim] == 123.0
    assert build._costs(tmp_path, False)["claim", claim] == bundled_costs(False)["claim", claim]
    monkeypatch.setattr(build, "_previous", lambda out_dir: None)
    assert build._costs(tmp_path, True) == bundled_costs(True)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_lanes_hold_every_job_once_symbolic_and_figures_apart(workers: int) -> None:
    """The sympy families (ch. 4, ch. 5, sec. 4.5, t-closeness claims and tables, the
    refinement section) are worker 1's; the figure sections worker 0's (with ≥ 2 workers)."""
    ledger = default_ledger()
    costs = bundled_costs(True)
    planned = jobs(Context(quick=True), SECTIONS, ledger, costs)
    ls = parallel.lanes(planned, ledger, costs, workers)
    assert len(ls) == workers
    flat = [j for lane in ls for j in lane]
    assert sorted(flat) == sorted(planned)
    for lane in ls:  # each list keeps the longest-first order of the plan
        assert [planned.index(j) for j in lane] == sorted(planned.index(j) for j in lane)
    if workers == 1:
        return
    fam = {j: family(j[0], ledger) for j in planned}
    assert {fam[j] for j in ls[1]} >= {f for f in fam.values() if f.startswith(parallel.SYMBOLIC)}
    assert "privlab.proofs.thesis.ch4_symbolic" in {fam[j] for j in ls[1]}
    assert {fam[j] for j in ls[0]} >= set(parallel.FIGURES)
    assert not any(fam[j].startswith(parallel.SYMBOLIC) for j in ls[0])


def test_take_prefers_the_own_list_then_the_longest_job_left() -> None:
    from collections import deque

    a, b, c, d = (("claim", "a"),), (("claim", "b"),), (("claim", "c"),), (("claim", "d"),)
    costs = {a[0]: 3.0, b[0]: 1.0, c[0]: 2.0, d[0]: 0.5}
    qs = [deque([a, b]), deque([c, d])]
    assert parallel.take(qs, 1, costs) == c and parallel.take(qs, 1, costs) == d
    assert parallel.take(qs, 1, costs) == a  # own list empty: the longest head elsewhere
    qs2 = [deque([b]), deque(), deque([c])]
    assert parallel.take(qs2, 1, costs) == c  # longest head, not the first list
    assert parallel.take(qs2, 1, costs) == b
    assert parallel.take(qs2, 1, costs) is None and parallel.take(qs2, 0, costs) is None
