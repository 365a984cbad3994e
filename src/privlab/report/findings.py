"""What a privacy engineer reads first, computed from ``report.json`` (issue 17).

Pure functions of the report dictionary (no I/O except the optional data-file fingerprints of
:func:`data_banner`): the refuted seed claims grouped by severity, the failed guarantees, the
data provenance banner and the paper key.  The ledger's own ``kind``/``severity`` fields
(:class:`privlab.types.Refutation`) are used when a claim carries them; otherwise a stated
fallback rule derives them from the statement (:func:`classify`), marked ``derived``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: DESIGN.md §3 / seeds/README.md: short name → (file, what it is).  Display order.
SEEDS: dict[str, tuple[str, str]] = {
    "thesis": ("000_65177858bc9aa63c.txt", "PhD thesis: prob. k-anonymity, optimal noise, "
               "knowledge refinement, microaggregation→DP, t-closeness→DP"),
    "vldb14": ("001_b1bb29bd0e0b4af8.txt", "journal version of thesis ch.6 (insensitive "
               "microaggregation)"),
    "ins15": ("002_06f1c381d8beeaa3.txt", "From t-closeness to differential privacy and vice "
              "versa"),
    "textbook": ("003_603b030e6bfa655b.txt", "background chapter on statistical disclosure "
                 "control"),
    "irm": ("004_e4358174ca440815.txt", "DP releases via individual-ranking microaggregation"),
}
FILE_TO_SEED = {f: s for s, (f, _) in SEEDS.items()}

REFUTED_STATUSES = ("refuted", "finding")
#: ledger severities (privlab.types.SEVERITY), most severe first; unknown ones sort last.
SEVERITY_ORDER = ("high", "medium", "low", "cosmetic")
SEVERITY_LABEL = {"high": "privacy-breaking", "medium": "false statement",
                  "low": "proof gap / wrong number", "cosmetic": "typo"}
_KIND_SEVERITY = {"privacy": "high", "false-statement": "medium", "proof-gap": "low",
                  "numeric": "low", "typo": "cosmetic"}

#: fallback rule (used only when the ledger gives no ``kind``): a statement promising a
#: privacy property (ε-DP, (ε, δ)-DP, a re-identification bound, a sensitivity bound that noise
#: is calibrated to, t-closeness) is privacy-breaking when refuted; a printed table is numeric.
_PRIVACY = re.compile(r"\b(is|gives?|releases?[^.]*with|implies)\s+\(?ε(, δ\))?-DP|"
                      r"1/k bound|re-?identif|Δ\([^)]*\)\s*≤|t-close with", re.IGNORECASE)
_NOT_PRIVACY = re.compile(r"optimal|density|Ỹ", re.IGNORECASE)
FALLBACK_RULE = ("kind derived by the renderer (the ledger gave none): a refuted statement "
                 "promising ε-DP, (ε, δ)-DP, a re-identification bound, a sensitivity bound or "
                 "t-closeness is 'privacy'; a printed table is 'numeric'; anything else "
                 "'false-statement'.")


def seed_of(claim_id: str) -> str:
    """Short name of the seed a claim or table id belongs to (``thesis:thm-1`` → ``thesis``)."""
    return re.split(r"[:\-]", claim_id, maxsplit=1)[0]


def anchor(claim_id: str) -> str:
    """HTML id of a claim's ledger row (stable, only ``[a-z0-9-]``)."""
    return "claim-" + re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


def section_of(source: str) -> str:
    """The seed section a source names (``'… §4.4 Theorem 1'`` → ``'§4.4 Theorem 1'``)."""
    m = re.search(r"§.*", source)
    text = m.group(0) if m else source
    return re.split(r";\s*\d{3}_", text)[0].strip()


def section_key(source: str) -> tuple[int, ...]:
    """Document order: the numbers of the first ``§a.b.c`` in ``source`` (unknown: last)."""
    m = re.search(r"§\s*(\d+(?:\.\d+)*)", source)
    return tuple(int(x) for x in m.group(1).split(".")) if m else (10**6,)


def classify(claim: Mapping[str, Any]) -> dict[str, Any]:
    """``kind``, ``severity``, rank and label of a refuted claim; the ledger's when present."""
    kind = claim.get("kind")
    derived = kind is None
    if derived:
        text = f"{claim.get('statement', '')}"
        if _PRIVACY.search(text) and not _NOT_PRIVACY.search(text):
            kind = "privacy"
        elif ":table-" in claim["id"] or "printed" in text.lower():
            kind = "numeric"
        else:
            kind = "false-statement"
    severity = claim.get("severity") or _KIND_SEVERITY.get(kind, "low")
    rank = (SEVERITY_ORDER.index(severity) if severity in SEVERITY_ORDER
            else len(SEVERITY_ORDER))
    return {"kind": kind, "severity": severity, "rank": rank, "derived": derived,
            "label": SEVERITY_LABEL.get(severity, severity)}


def short(x: Any, width: int = 120) -> str:
    """One-line text of a value (JSON for containers), cut to ``width`` characters."""
    if x is None:
        return ""
    if isinstance(x, float):
        s = "∞" if x == float("inf") else f"{x:.6g}"
    elif isinstance(x, (dict, list)):
        s = json.dumps(x, ensure_ascii=False)
    else:
        s = str(x)
    s = s.replace("\n", " ")
    if s.lower() in ("inf", "infinity", "oo"):
        s = "∞"
    if len(s) <= width:
        return s
    s = s[: width - 1]
    cut = max(s.rfind("^{"), s.rfind("_{"))
    if cut > s.rfind("}"):  # never leave a script half open: it would show as raw markup
        s = s[:cut]
    return s + "…"


def _value(claim: Mapping[str, Any]) -> str:
    if claim.get("loss") is not None:
        return short(claim["loss"], 40)
    return short(claim.get("value"), 40)


def _weakest(claim: Mapping[str, Any]) -> str:
    if claim.get("weakest"):
        return short(claim["weakest"], 90)
    return short(claim.get("counterexample"), 90)


def findings(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every refuted seed claim (not ``privlab:`` ones), most severe first, then by seed and
    document order: one row each with what fails, the value, the weakest failing instance."""
    seeds = list(SEEDS)
    rows = []
    for c in report.get("claims", []):
        if c.get("status") not in REFUTED_STATUSES or seed_of(c["id"]) not in SEEDS:
            continue
        cls = classify(c)
        seed = seed_of(c["id"])
        rows.append({"id": c["id"], "anchor": anchor(c["id"]), "seed": seed,
                     "section": section_of(c.get("source", "")), "statement": c["statement"],
                     "value": _value(c), "weakest": _weakest(c),
                     "status": c["status"], **cls,
                     "_order": (cls["rank"], seeds.index(seed), section_key(c["source"]))})
    rows.sort(key=lambda r: r["_order"])
    for r in rows:
        del r["_order"]
    return rows


def grouped(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` of :func:`findings` as ``[{severity, label, rows}]`` in severity order."""
    out: list[dict[str, Any]] = []
    for r in rows:
        if not out or out[-1]["severity"] != r["severity"]:
            out.append({"severity": r["severity"], "label": r["label"], "rows": []})
        out[-1]["rows"].append(r)
    return out


def failed_guarantees(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Guarantees that do not hold, each with the anchor of the section that states it."""
    return [{"description": g["description"], "section": g.get("section"),
             "href": f"#{g['section']}" if g.get("section") else "#guarantees",
             "evidence": short(g.get("evidence"), 200)}
            for g in report.get("guarantees", []) if not g.get("holds")]


_DATA_FILE = re.compile(r"\b([A-Za-z0-9_\-]+\.csv)\b")


def _fingerprint(path: Path) -> dict[str, Any] | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    rows = max(data.count(b"\n") - 1, 0) if data.endswith(b"\n") else data.count(b"\n")
    return {"rows": rows, "sha256": hashlib.sha256(data).hexdigest()}


def data_banner(report: Mapping[str, Any], *, fingerprint: bool = True) -> dict[str, Any]:
    """Which results used real data and which synthetic stand-ins.

    Provenance fields the report carries (a claim's ``data`` = ``{name, path, rows, sha256}``)
    are used first; otherwise the data files named in the tables' sources and notes.  When
    ``data_dir`` is None nothing ran on real data: ``synthetic`` is then everything.  Row
    counts and sha256 of named files are read from ``data_dir`` when ``fingerprint`` and the
    report does not carry them (stated in ``hash_origin``)."""
    data_dir = report.get("data_dir")
    sets: dict[str, dict[str, Any]] = {}
    synthetic: list[str] = []
    for c in report.get("claims", []):
        d = c.get("data")
        if isinstance(d, Mapping) and d.get("name"):
            e = sets.setdefault(d["name"], {"name": d["name"], "used_by": []})
            e["used_by"].append(c["id"])
            for k in ("rows", "sha256", "path"):
                if d.get(k) is not None:
                    e[k] = d[k]
    for tid, t in report.get("tables", {}).items():
        text = " ".join([t.get("source", ""), *t.get("notes", [])])
        if "synthetic" in text.lower() and ("absent" in text or "SYNTHETIC" in text
                                            or "stand-in" in text):
            synthetic.append(tid)
            continue
        for name in sorted(set(_DATA_FILE.findall(text))):
            sets.setdefault(name, {"name": name, "used_by": []})["used_by"].append(tid)
    for sec in report.get("sections", []):
        text = " ".join([sec.get("summary", ""),
                         *(f.get("caption", "") for f in sec.get("figures", [])),
                         *(" ".join([t.get("source", ""), *t.get("notes", [])])
                           for t in sec.get("results", []))])
        names = sorted(set(_DATA_FILE.findall(text)))
        for name in names:
            sets.setdefault(name, {"name": name, "used_by": []})["used_by"].append(sec["id"])
        if "synthetic" in text.lower():
            synthetic.append(sec["id"])
    hash_origin = "report"
    if data_dir and fingerprint:
        for e in sets.values():
            if "sha256" not in e:
                fp = _fingerprint(Path(data_dir) / e["name"])
                if fp is not None:
                    e.update(fp)
                    hash_origin = "file at render time"
    real = bool(data_dir) and bool(sets)
    return {"real": real, "data_dir": data_dir, "sets": list(sets.values()) if real else [],
            "synthetic": synthetic if real else ["everything"], "hash_origin": hash_origin}


def paper_key() -> list[dict[str, str]]:
    """The short names used in ids, with the seed file each stands for."""
    return [{"short": s, "file": f, "what": w} for s, (f, w) in SEEDS.items()]


def source_label(source: str) -> str:
    """``'000_65177858bc9aa63c.txt §4.4 Theorem 1'`` → ``'thesis §4.4 Theorem 1'``."""
    out = source
    for f, s in FILE_TO_SEED.items():
        out = out.replace(f, s)
    return out
