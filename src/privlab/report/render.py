"""``report.json`` / ``report.md`` / ``report.html`` from ledger outcomes, tables and sections.

The JSON follows DESIGN.md §4 (``claims``, ``tables``, ``audits``) and adds ``sections``,
``guarantees`` and ``summary``.  Markdown and HTML are rendered from that same dictionary, so
the three never disagree.  Every file is written atomically (:mod:`privlab._io`).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from privlab._io import atomic_write_json, atomic_write_text

STATUS_ORDER = ("verified", "confirmed", "refuted", "inconclusive")


def _cell(x: Any, width: int = 90) -> str:
    if isinstance(x, float):
        s = f"{x:.6g}"
    elif isinstance(x, (dict, list)):
        s = json.dumps(x, ensure_ascii=False)
    else:
        s = "" if x is None else str(x)
    s = s.replace("|", "\\|").replace("\n", " ")
    return s if len(s) <= width else s[: width - 1] + "…"


def md_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    head = "| " + " | ".join(columns) + " |"
    sep = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(_cell(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join([head, sep, *body])


AUDIT_COLUMNS = ("mechanism", "control", "epsilon_claimed", "epsilon_lower_bound", "confidence",
                 "samples", "verdict", "expected", "ok")


def _audit_rows(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(a) for a in report.get("audits", [])]


def to_markdown(report: Mapping[str, Any]) -> str:
    s = report["summary"]
    out = ["# privlab verification report",
           "",
           f"privlab {report['privlab_version']} · seed {report['seed']} · "
           f"{'quick' if report['quick'] else 'full'} run · generated {report['generated']} · "
           f"{report['seconds']:.1f} s",
           "",
           f"**Verdict: {'all privlab guarantees hold' if s['ok'] else 'SOME GUARANTEES FAIL'}** "
           f"({s['guarantees_holding']}/{s['guarantees']} guarantees hold).  Seed claims: "
           + ", ".join(f"{s['claims'].get(k, 0)} {k}" for k in STATUS_ORDER) + ".",
           "",
           "A *refuted* claim is a finding about a paper, not a failure of privlab; "
           "the guarantees below are what privlab itself promises.", ""]
    failing = [g for g in report["guarantees"] if not g["holds"]]
    if failing:
        out += ["## Failing guarantees", ""]
        out += [f"- ✗ {g['description']}" for g in failing] + [""]
    out += ["## Contents", ""]
    out += [f"- [{sec['title']}](#{sec['id']})" for sec in report["sections"]]
    out += ["- [Claim ledger](#claim-ledger)", "- [Reproduced tables](#reproduced-tables)", ""]
    for sec in report["sections"]:
        out += [f'<a id="{sec["id"]}"></a>', "", f"## {sec['title']}", "",
                sec["summary"].strip(), "",
                f"*{len(sec['guarantees'])} guarantees, "
                f"{'all hold' if sec['ok'] else 'SOME FAIL'}; {sec['seconds']:.1f} s.*", ""]
        for g in sec["guarantees"]:
            out.append(f"- {'✓' if g['holds'] else '✗'} {g['description']}")
        out.append("")
        if sec["audits"]:
            out += ["**Audits** (empirical lower bound on ε, "
                    f"{sec['audits'][0]['confidence']:.0%} confidence):", "",
                    md_table(sec["audits"], AUDIT_COLUMNS), ""]
        for t in sec["results"]:
            out += [f"**{t['id']}** — {t['source']}", "", md_table(t["rows"], t["columns"]), ""]
            out += [f"> {n}" for n in t["notes"]] + ([""] if t["notes"] else [])
        for f in sec["figures"]:
            out += [f"![{f['caption']}]({f['file']})", "", f"*{f['caption']}*", ""]
        for c in sec["certificates"]:
            what = c.get("guarantee", c.get("certified_epsilon", "no stated guarantee"))
            out += [f"Certificate: `{c.get('mechanism', '?')}` "
                    f"{json.dumps(c.get('parameters', {}), default=str)} → {what} — "
                    f"{'holds' if c.get('holds') else 'DOES NOT HOLD'}", ""]
    out += ['<a id="claim-ledger"></a>', "", "## Claim ledger", "",
            md_table([{**c, "statement": c["statement"]} for c in report["claims"]],
                     ("id", "status", "method", "source", "statement", "seconds")), ""]
    out += ["### Refuted claims and their counterexamples", ""]
    for c in report["claims"]:
        if c["status"] == "refuted":
            out += [f"- **{c['id']}** ({c['source']}): {c['statement']}",
                    f"  - counterexample: `{_cell(c['counterexample'], 400)}`"]
            out += [f"  - note: {n}" for n in c["notes"]]
    out += ["", '<a id="reproduced-tables"></a>', "", "## Reproduced tables", "",
            "Columns `paper_<x>` hold the number the paper printed; the column beside it the "
            "value privlab computed.", ""]
    for tid, t in report["tables"].items():
        if "error" in t:
            out += [f"### {tid}", "", f"could not be computed: {t['error']}", ""]
            continue
        out += [f"### {tid}", "", t["source"], "", md_table(t["rows"], t["columns"]), ""]
        out += [f"> {n}" for n in t["notes"]] + [""]
    return "\n".join(out) + "\n"


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
line-height:1.45;color:#222}table{border-collapse:collapse;margin:.5em 0 1em;font-size:.85em}
td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}th{background:#f3f3f3}
.ok{color:#176b2c}.bad{color:#b00020;font-weight:bold}img{max-width:100%}
.verified{background:#e3f6e6}.confirmed{background:#eef6ff}.refuted{background:#fde7e9}
.inconclusive{background:#fff6dd}code{font-size:.85em}"""


def _html_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str],
                row_class: str | None = None) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for r in rows:
        cls = f' class="{html.escape(str(r.get(row_class)))}"' if row_class else ""
        body.append(f"<tr{cls}>" + "".join(
            f"<td>{html.escape(_cell(r.get(c), 160))}</td>" for c in columns) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _md_inline(text: str) -> str:
    """Minimal Markdown for section summaries: paragraphs, `code`, **bold**, bullet lines."""
    import re

    parts = []
    for para in text.strip().split("\n\n"):
        esc = html.escape(para)
        esc = re.sub(r"`([^`]+)`", r"<code>\1</code>", esc)
        esc = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", esc)
        lines = esc.splitlines()
        if lines and all(ln.lstrip().startswith("- ") for ln in lines):
            parts.append("<ul>" + "".join(f"<li>{ln.lstrip()[2:]}</li>" for ln in lines)
                         + "</ul>")
        else:
            parts.append(f"<p>{' '.join(lines)}</p>")
    return "".join(parts)


def to_html(report: Mapping[str, Any]) -> str:
    s = report["summary"]
    verdict = ('<span class="ok">all privlab guarantees hold</span>' if s["ok"]
               else '<span class="bad">SOME GUARANTEES FAIL</span>')
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>privlab report</title>"
           f"<style>{CSS}</style></head><body>",
           "<h1>privlab verification report</h1>",
           f"<p>privlab {html.escape(report['privlab_version'])} · seed {report['seed']} · "
           f"{'quick' if report['quick'] else 'full'} run · {html.escape(report['generated'])} · "
           f"{report['seconds']:.1f} s</p>",
           f"<p><b>Verdict:</b> {verdict} ({s['guarantees_holding']}/{s['guarantees']}). "
           "Seed claims: " + ", ".join(f"{s['claims'].get(k, 0)} {k}" for k in STATUS_ORDER)
           + ". A refuted claim is a finding about a paper, not a failure of privlab.</p>",
           "<ul>" + "".join(f"<li><a href='#{sec['id']}'>{html.escape(sec['title'])}</a></li>"
                            for sec in report["sections"])
           + "<li><a href='#claim-ledger'>Claim ledger</a></li>"
             "<li><a href='#reproduced-tables'>Reproduced tables</a></li></ul>"]
    for sec in report["sections"]:
        out += [f"<h2 id='{sec['id']}'>{html.escape(sec['title'])}</h2>",
                _md_inline(sec["summary"]), "<ul>"]
        out += [f"<li class='{'ok' if g['holds'] else 'bad'}'>{'✓' if g['holds'] else '✗'} "
                f"{html.escape(g['description'])}</li>" for g in sec["guarantees"]]
        out.append("</ul>")
        if sec["audits"]:
            out += ["<h3>Audits</h3>", _html_table(sec["audits"], AUDIT_COLUMNS)]
        for t in sec["results"]:
            out += [f"<h3>{html.escape(t['id'])}</h3><p>{html.escape(t['source'])}</p>",
                    _html_table(t["rows"], t["columns"])]
            out += [f"<p><i>{html.escape(n)}</i></p>" for n in t["notes"]]
        for f in sec["figures"]:
            out.append(f"<figure><img src='{html.escape(f['file'])}' "
                       f"alt='{html.escape(f['caption'])}'><figcaption>"
                       f"{html.escape(f['caption'])}</figcaption></figure>")
    out += ["<h2 id='claim-ledger'>Claim ledger</h2>",
            _html_table(report["claims"], ("id", "status", "method", "source", "statement",
                                           "counterexample", "seconds"), row_class="status"),
            "<h2 id='reproduced-tables'>Reproduced tables</h2>"]
    for tid, t in report["tables"].items():
        out.append(f"<h3>{html.escape(tid)}</h3>")
        if "error" in t:
            out.append(f"<p class='bad'>could not be computed: {html.escape(t['error'])}</p>")
            continue
        out += [f"<p>{html.escape(t['source'])}</p>", _html_table(t["rows"], t["columns"])]
        out += [f"<p><i>{html.escape(n)}</i></p>" for n in t["notes"]]
    out.append("</body></html>")
    return "\n".join(out)


def summarise(claims: Sequence[Mapping[str, Any]],
              guarantees: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    counts = Counter(c["status"] for c in claims)
    holding = sum(bool(g["holds"]) for g in guarantees)
    return {"ok": holding == len(guarantees), "guarantees": len(guarantees),
            "guarantees_holding": holding,
            "claims": {k: counts.get(k, 0) for k in STATUS_ORDER}}


def write(report: Mapping[str, Any], out_dir: Path) -> dict[str, Path]:
    """Write report.json, report.md and report.html into ``out_dir`` (atomically each)."""
    return {"json": atomic_write_json(out_dir / "report.json", report),
            "md": atomic_write_text(out_dir / "report.md", to_markdown(report)),
            "html": atomic_write_text(out_dir / "report.html", to_html(report))}
