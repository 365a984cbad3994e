"""The shipped unit costs (``report/unit_costs.json``), derived from two verification reports.

A first ``privlab verify`` into a new ``--out`` folder has no earlier report to order its jobs
by (longest first, :func:`privlab.report.parallel.jobs`), so privlab ships the seconds each unit
took in a quick and a full run.  The file is never edited by hand: it is the output of ::

    python -m privlab.report.unit_costs QUICK/report.json FULL/report.json

where ``QUICK`` and ``FULL`` are the ``--out`` folders of ``privlab verify --quick`` and
``privlab verify`` on the same machine.  A unit is ``claim:ID``, ``table:ID`` or ``section:ID``
(report ids), its value the ``seconds`` the report recorded for it
(read back by :func:`privlab.report.parallel.bundled_costs`).  The costs only order work; a stale or
missing entry costs time, never a wrong result (``tests/report/test_unit_costs.py`` holds the
shipped file to the current units).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from privlab.report.reports import load

SHIPPED = Path(__file__).with_name("unit_costs.json")
"""Where the derived costs are written (inside the package, read by ``bundled_costs``)."""


def costs_of(report: Mapping[str, Any]) -> dict[str, float]:
    """Seconds per unit name (``claim:ID``, ``table:ID``, ``section:ID`` with the report's own
    ids) recorded in one ``report.json``, rounded to 0.01 s."""
    out: dict[str, float] = {}
    tables = [{"id": k, **v} for k, v in (report.get("tables") or {}).items()]
    for kind, items in (("section", report.get("sections") or []),
                        ("claim", report.get("claims") or []), ("table", tables)):
        for item in items:
            out[f"{kind}:{item['id']}"] = round(float(item.get("seconds") or 0.0), 2)
    return out


def derive(quick: Mapping[str, Any], full: Mapping[str, Any], *, provenance: str) -> dict[str, Any]:
    """The content of ``unit_costs.json`` from a quick and a full report."""
    for name, rep in (("quick", quick), ("full", full)):
        if bool(rep.get("quick")) is not (name == "quick"):
            raise ValueError(f"the {name} report is a {'quick' if rep.get('quick') else 'full'} "
                             "run")
    return {"about": "Seconds per unit of `privlab verify --quick` (quick) and `privlab verify` "
                     f"(full), derived by `python -m privlab.report.unit_costs` from {provenance}. "
                     "They only order the jobs of a first run in a new --out folder; any later run "
                     "uses the seconds of its previous report.",
            "quick": costs_of(quick), "full": costs_of(full)}


def _provenance(quick: Mapping[str, Any], full: Mapping[str, Any]) -> str:
    def one(rep: Mapping[str, Any]) -> str:
        src = str(rep.get("source_hash"))[:12]
        return (f"{rep.get('generated', 'an undated run')} (source {src}, "
                f"{rep.get('workers', '?')} workers, data {rep.get('data_dir') or 'synthetic'})")
    return f"the reports of {one(quick)} and {one(full)}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m privlab.report.unit_costs QUICK/report.json FULL/report.json [OUT]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3):
        print("usage: python -m privlab.report.unit_costs QUICK/report.json FULL/report.json "
              "[OUT.json]", file=sys.stderr)
        return 2
    reports = []
    for arg in args[:2]:
        rep = load(Path(arg).parent) if Path(arg).name == "report.json" else None
        if rep is None:
            print(f"error: report {arg!r} is not a privlab report.json", file=sys.stderr)
            return 2
        reports.append(rep)
    try:
        content = derive(reports[0], reports[1], provenance=_provenance(*reports))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args[2]) if len(args) == 3 else SHIPPED
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", "utf-8")
    tmp.replace(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
