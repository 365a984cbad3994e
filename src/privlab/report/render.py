"""``report.json`` / ``report.md`` / ``report.html`` from ledger outcomes, tables and sections.

The JSON follows DESIGN.md §4 (``claims``, ``tables``, ``audits``) and adds ``sections``,
``guarantees`` and ``summary``.  Markdown and HTML are rendered from *one* view of that
dictionary (:func:`view`) through the Jinja2 templates ``templates/report.md.j2`` and
``templates/report.html.j2``, so they never disagree: findings first (verdict, refuted claims by
severity, failed guarantees, data banner), then recommendations, errata per paper, the
sections, the ledger and the reproduced tables.  The HTML is one self-contained file (figures
as base64 data URIs, inline CSS and a few lines of optional JS).  Every file is written
atomically (:mod:`privlab._io`).
"""

from __future__ import annotations

import base64
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from privlab._io import atomic_write_json, atomic_write_text
from privlab.report import errata, findings, recommend
from privlab.report.reports import SKIPPED, quick_notice, skipped_ids
from privlab.report.templating import template

STATUS_ORDER = ("verified", "confirmed", "refuted", "inconclusive")
"""Statuses always counted in the summary (others only when present; ``skipped`` — claims a
``--quick`` run did not check — last and never merged with ``inconclusive``)."""
QUICK_ORIGIN = "from `privlab verify --quick` (fewer audit samples)"
AUDIT_COLUMNS = ("mechanism", "control", "epsilon_claimed", "epsilon_lower_bound", "confidence",
                 "samples", "verdict", "expected", "ok")
LEDGER_COLUMNS = ("id", "status", "severity", "method", "source", "statement", "value")
MISMATCH_RULE = ("A computed cell and its printed neighbour (column paper_<x>) are highlighted "
                 "when the computed number, rounded to as many significant digits as the "
                 "printed number shows, differs from the printed number.")


def _number(x: Any) -> float | None:
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, float)):
        return float(x)
    return None


def _sig_digits(x: float) -> int:
    digits = repr(abs(x)).lower().split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return max(len(digits), 1)


def differs(computed: Any, printed: Any) -> bool:
    """:data:`MISMATCH_RULE`: False when either value is not a finite number."""
    c, p = _number(computed), _number(printed)
    if c is None or p is None or not (math.isfinite(c) and math.isfinite(p)):
        return False
    if p == 0:
        return abs(c) >= 0.5
    digits = _sig_digits(p)
    return float(f"{c:.{digits}g}") != float(f"{p:.{digits}g}")


def table_view(t: Mapping[str, Any]) -> dict[str, Any]:
    """A result/reproduced table as cells ``{text, raw, cls}`` with mismatches flagged."""
    cols = list(t.get("columns", []))
    rows = []
    n_bad = 0
    for r in t.get("rows", []):
        cells = []
        for c in cols:
            cls = ""
            partner = f"paper_{c}" if f"paper_{c}" in cols else (
                c[len("paper_"):] if c.startswith("paper_") and c[6:] in cols else None)
            if partner is not None:
                comp, prin = (r.get(c), r.get(partner)) if not c.startswith("paper_") \
                    else (r.get(partner), r.get(c))
                if differs(comp, prin):
                    cls = "mismatch"
                    n_bad += not c.startswith("paper_")
            cells.append({"text": findings.short(r.get(c), 160), "cls": cls})
        rows.append(cells)
    return {"id": t.get("id", ""), "source": t.get("source", ""), "columns": cols,
            "rows": rows, "notes": list(t.get("notes", [])), "mismatches": n_bad,
            "has_paper": any(c.startswith("paper_") for c in cols),
            "error": t.get("error"), "raw_rows": t.get("rows", [])}


def _figure(f: Mapping[str, Any], root: Path | None) -> dict[str, Any]:
    src = None
    if root is not None:
        p = root / f["file"]
        if p.is_file():
            src = "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode("ascii")
    return {"file": f["file"], "caption": f["caption"], "src": src}


def view(report: Mapping[str, Any], figures_root: Path | None = None) -> dict[str, Any]:
    """Everything both templates show, computed once from the report dictionary."""
    rows = findings.findings(report)
    sev = {r["id"]: r for r in rows}
    ledger = []
    for c in report.get("claims", []):
        f = sev.get(c["id"])
        ledger.append({"id": c["id"], "anchor": findings.anchor(c["id"]),
                       "seed": findings.seed_of(c["id"]), "status": c["status"],
                       "severity": f["severity"] if f else "",
                       "method": c.get("method") or "", "source": c.get("source", ""),
                       "statement": c.get("statement", ""),
                       "value": findings.short(c.get("value"), 60),
                       "counterexample": findings.short(c.get("counterexample"), 300),
                       "notes": c.get("notes") or []})
    sections = []
    for sec in report.get("sections", []):
        sections.append({**sec, "results_view": [table_view(t) for t in sec.get("results", [])],
                         "figures_view": [_figure(f, figures_root)
                                          for f in sec.get("figures", [])]})
    tables = [{**table_view(t), "id": tid} for tid, t in report.get("tables", {}).items()]
    s = report["summary"]
    skipped = skipped_ids(report.get("claims", []))
    return {
        "r": report, "s": s, "status_order": STATUS_ORDER, "skipped": skipped,
        "quick_notice": (quick_notice(QUICK_ORIGIN, skipped, what="report")
                         if report.get("quick") else None),
        "findings": rows, "groups": findings.grouped(rows),
        "derived_kinds": any(r["derived"] for r in rows), "fallback_rule": findings.FALLBACK_RULE,
        "failed": findings.failed_guarantees(report),
        "banner": findings.data_banner(report), "key": findings.paper_key(),
        "recommendations": recommend.recommendations(report),
        "errata": errata.from_report(report),
        "sections": sections, "ledger": ledger, "tables": tables,
        "audit_columns": AUDIT_COLUMNS, "mismatch_rule": MISMATCH_RULE,
        "seeds": sorted({x["seed"] for x in ledger}),
        "severities": [g["severity"] for g in findings.grouped(rows)],
    }


def to_markdown(report: Mapping[str, Any]) -> str:
    return template("report.md.j2").render(**view(report, None))


def to_html(report: Mapping[str, Any], figures_root: Path | None = None) -> str:
    """One self-contained page; figures are read from ``figures_root`` and embedded."""
    return template("report.html.j2").render(**view(report, figures_root))


def md_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """A Markdown table (kept for callers outside the report)."""
    from privlab.report.richtext import md_cell

    head = "| " + " | ".join(columns) + " |"
    sep = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(md_cell(findings.short(r.get(c), 90)) for c in columns) + " |"
            for r in rows]
    return "\n".join([head, sep, *body])


def summarise(claims: Sequence[Mapping[str, Any]],
              guarantees: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Verdict and claim counts by status (:data:`STATUS_ORDER`, then any other status present,
    ``skipped`` last: a claim not checked is counted as skipped, never as inconclusive)."""
    counts = Counter(c["status"] for c in claims)
    holding = sum(bool(g["holds"]) for g in guarantees)
    keys = list(STATUS_ORDER) + sorted(set(counts) - {*STATUS_ORDER, SKIPPED})
    keys += [SKIPPED] if counts.get(SKIPPED) else []
    return {"ok": holding == len(guarantees), "guarantees": len(guarantees),
            "guarantees_holding": holding,
            "claims": {k: counts.get(k, 0) for k in keys}}


def write(report: Mapping[str, Any], out_dir: Path) -> dict[str, Path]:
    """Write report.json, report.md and report.html into ``out_dir`` (atomically each); the
    figures already under ``out_dir/figures`` are embedded into the HTML."""
    out_dir = Path(out_dir)
    return {"json": atomic_write_json(out_dir / "report.json", report),
            "md": atomic_write_text(out_dir / "report.md", to_markdown(report)),
            "html": atomic_write_text(out_dir / "report.html", to_html(report, out_dir))}
