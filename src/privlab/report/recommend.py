"""Recommendations computed from the report, never written by hand (issue 17).

For each mechanism family: the configurations the lab *certifies* and the ones it *refutes*,
from three sources of ``report.json``:

1. the certificates of each section (``mechanism`` + ``parameters`` → holds or not);
2. every section result table with a verdict column (``holds``, ``within_epsilon``,
   ``insensitive``, ``t_close``): its rows are configurations.  Rows are summarised by a greedy
   cover with *pure patterns* — conjunctions of at most two ``column = value`` literals over the
   table's text columns whose matching rows all share one verdict — so a 72-row grid becomes a
   few lines such as ``neighbour = add-remove → refuted (36 rows)``; a row no pure pattern covers
   is listed whole;
3. the refuted seed claims (their family from the seed section, see :func:`family_of_claim`).

When a certificate, a table row or a claim changes, the table changes with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from privlab.report.findings import REFUTED_STATUSES, SEEDS, section_key, seed_of, short

#: report section id → mechanism family (docs/architecture.md)
SECTION_FAMILY = {"univariate": "noise", "multivariate": "noise", "refinement": "refinement",
                  "microaggregation": "microaggregation", "dp_release": "releases",
                  "tcloseness": "tcloseness"}
FAMILY_ORDER = ("noise", "refinement", "microaggregation", "releases", "tcloseness")
VERDICT_COLUMNS = ("holds", "within_epsilon", "insensitive", "t_close")
_SKIP_COLUMNS = {"reason", "where", "partition", "x", "x_prime", "true_note", "event",
                 "feature"}


def family_of_claim(claim_id: str, source: str) -> str | None:
    """Family of a seed claim from its seed and section (thesis ch.4 noise, ch.5 refinement,
    ch.3 and §6.2 microaggregation, §6.3+ / vldb14 / irm releases, ch.7 / ins15 t-closeness)."""
    seed = seed_of(claim_id)
    if seed == "ins15":
        return "tcloseness"
    if seed in ("vldb14", "irm"):
        return "microaggregation" if ":prop-" in claim_id or ":lemma-1" in claim_id \
            else "releases"
    if seed != "thesis":
        return None
    key = section_key(source)
    return {3: "microaggregation", 4: "noise", 5: "refinement", 7: "tcloseness"}.get(
        key[0], "microaggregation" if key[:2] == (6, 2) else "releases" if key[0] == 6
        else None)


_OUTCOME = ("max_", "bound", "loss", "achieved", "certified", "sound", "exact_", "emd")


def _is_config_column(c: str) -> bool:
    return c not in _SKIP_COLUMNS and not any(m in c for m in _OUTCOME)


def _is_config_value(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 60


def _cover(rows: Sequence[Mapping[str, Any]], cols: Sequence[str],
           verdict: str) -> list[tuple[tuple[tuple[str, Any], ...], bool, int]]:
    """Greedy cover of ``rows`` by pure patterns (≤ 2 literals); unmatched rows stay whole."""
    literals = sorted({(c, r[c]) for r in rows for c in cols if _is_config_value(r.get(c))},
                      key=str)
    patterns = [(lit,) for lit in literals] + [p for p in combinations(literals, 2)
                                               if p[0][0] != p[1][0]]
    left = set(range(len(rows)))
    out = []
    while left:
        best = None
        for p in patterns:
            match = [i for i, r in enumerate(rows) if all(r.get(c) == v for c, v in p)]
            vals = {bool(rows[i][verdict]) for i in match}
            gain = len(left.intersection(match))
            if len(vals) == 1 and gain > 1 and (best is None or gain > best[2]
                                                or (gain == best[2] and len(p) < len(best[0]))):
                best = (p, vals.pop(), gain, match)
        if best is None:
            for i in sorted(left):
                lits = tuple((c, rows[i][c]) for c in cols if _is_config_value(rows[i].get(c)))
                out.append((lits, bool(rows[i][verdict]), 1))
            break
        out.append((best[0], best[1], len(best[3])))
        left -= set(best[3])
    return out


def _pattern_text(lits: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{c} = {v}" for c, v in lits) or "all rows"


def _table_rows(family: str, sec_id: str, t: Mapping[str, Any]) -> list[dict[str, Any]]:
    verdict = next((v for v in VERDICT_COLUMNS if v in t.get("columns", ())), None)
    rows = [r for r in t.get("rows", []) if isinstance(r.get(verdict), bool)]
    if verdict is None or not rows:
        return []
    cols = [c for c in t["columns"] if c != verdict and _is_config_column(c)
            and any(_is_config_value(r.get(c)) for r in rows)]
    out = []
    for lits, ok, n in _cover(rows, cols, verdict):
        out.append({"family": family, "verdict": "certified" if ok else "refuted",
                    "configuration": _pattern_text(lits),
                    "evidence": f"{t['id']}: {verdict} = {ok} on {n} row{'s' * (n != 1)}",
                    "href": f"#{sec_id}"})
    return out


def _certificate_rows(family: str, sec_id: str,
                      certs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in certs:
        params = {k: v for k, v in (c.get("parameters") or {}).items()
                  if not isinstance(v, (dict, list)) or len(str(v)) < 40}
        g = c.get("guarantee") or {}
        eps = g.get("epsilon") if isinstance(g, Mapping) else None
        eps = c.get("certified_epsilon", eps)
        what = (f"ε = {short(eps, 12)}" if eps is not None else "no ε")
        if isinstance(g, Mapping) and g.get("delta"):
            what += f", δ = {short(g['delta'], 12)}"
        if isinstance(g, Mapping) and g.get("neighbour"):
            what += f" ({g['neighbour']})"
        out.append({"family": family,
                    "verdict": "certified" if c.get("holds") else "refuted",
                    "configuration": f"{c.get('mechanism', '?')} " + ", ".join(
                        f"{k} = {short(v, 14)}" for k, v in params.items()),
                    "evidence": f"certificate: {what}", "href": f"#{sec_id}"})
    return out


def recommendations(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{family, verdict, configuration, evidence, href}``, certified before refuted."""
    rows: list[dict[str, Any]] = []
    for sec in report.get("sections", []):
        fam = SECTION_FAMILY.get(sec["id"])
        if fam is None:
            continue
        rows += _certificate_rows(fam, sec["id"], sec.get("certificates", []))
        for t in sec.get("results", []):
            rows += _table_rows(fam, sec["id"], t)
    for c in report.get("claims", []):
        if c.get("status") in REFUTED_STATUSES and seed_of(c["id"]) in SEEDS:
            fam = family_of_claim(c["id"], c.get("source", ""))
            if fam is not None:
                rows.append({"family": fam, "verdict": "refuted",
                             "configuration": f"{c['id']}: {short(c['statement'], 110)}",
                             "evidence": "seed claim refuted", "href": None,
                             "claim": c["id"]})
    order = {f: i for i, f in enumerate(FAMILY_ORDER)}
    rows.sort(key=lambda r: (order.get(r["family"], 99), r["verdict"] != "certified"))
    return rows
