"""The words of a microaggregation release certificate (:mod:`privlab.commands.release`):
the guarantee each method states, the one-line refusal naming the smallest published class
and the columns that split it, and the human summary printed by ``--format table``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privlab.types import CheckResult

__all__ = ["GUARANTEES", "K_ANONYMOUS", "release_text", "split_text"]

#: methods whose guarantee is k-anonymity of the records (refused when the published
#: quasi-identifiers break k); the others report it without claiming it
K_ANONYMOUS = ("mdav", "insensitive-mdav")

GUARANTEES = {
    "mdav": "k-anonymity over the declared quasi-identifiers as written in OUTPUT",
    "insensitive-mdav": "k-anonymity over the declared quasi-identifiers as written in OUTPUT",
    "individual-ranking": (
        "univariate k-aggregation: each anonymised column is replaced by the means of groups "
        "of k … 2k − 1 records of that column alone; records are not k-anonymous in general "
        "(k-anonymity over the quasi-identifiers is reported, not claimed)"),
    "mdav-swap": (
        "probabilistic k-anonymity (thesis §3.3): each swapped column is permuted uniformly "
        "within groups of ≥ k records, so an intruder knowing every other attribute links a "
        "record to its value with probability ≤ 1/k; the other columns are published "
        "unchanged (k-anonymity over the quasi-identifiers is reported, not claimed)"),
}
GUARANTEES["ir-swap"] = GUARANTEES["mdav-swap"]


def split_text(kan: CheckResult) -> str:
    """One line: the smallest published class, its size and the columns that split it."""
    ev = kan.evidence
    k, sm, grp = ev["k"], ev["smallest_class"], ev["group"]
    rec = "record" if sm["size"] == 1 else "records"
    qis = ", ".join(ev["quasi_identifiers"])
    line = (f"over the published quasi-identifiers as written ({qis}) the smallest class "
            f"has {sm['size']} {rec} (data row {sm['rows'][0]}; "
            f"{ev['classes_below_k']} of {ev['classes']} classes have fewer than {k})")
    where = (f"its microaggregation group of {grp['size']} records" if grp["columns"]
             else f"the {grp['size']} records")
    if ev["split_by"]:
        parts = ", ".join(f"{d['column']} ({d['distinct_in_group']} values)"
                          for d in ev["split_by"])
        line += f"; {where} is split by the quasi-identifiers published unchanged {parts}"
        if ev["merge_by_removing"]:
            line += (f"; without {', '.join(ev['merge_by_removing'])} it would have "
                     f"{ev['merged_size']}")
    if grp["size"] < k:
        line += (f"; its group over the anonymised columns ({', '.join(grp['columns'])}) has "
                 f"only {grp['size']}")
    return line


def _list(cols: Any) -> str:
    return ", ".join(cols) if cols else "none"


def release_text(cert: dict[str, Any], output: Path) -> str:
    """The human summary of a microaggregation release certificate."""
    pub, roles = cert["published"], cert["roles"]
    kan = pub["k_anonymity"]["evidence"]
    m = cert["properties"]["information_loss_and_linkage"]
    lines = [f"wrote {output} ({cert['n']} rows) and {output}.cert.json",
             f"{cert['method']}: k = {cert['k']}, achieved minimum group size "
             f"{cert['achieved_min_group_size']}",
             *(f"  [{'ok' if c['holds'] else 'FAIL'}] {c['claim']}" for c in cert["checks"]),
             f"quasi-identifiers: {_list(roles['quasi_identifiers'])} "
             f"({roles['quasi_identifiers_source']})",
             f"sensitive: {_list(roles['sensitive'])}",
             f"non-identifying (your statement, --keep): {_list(roles['non_identifying'])}",
             f"dropped: {_list(roles['dropped'])}"]
    if not pub["k_anonymity_claimed"]:
        lines.append(f"k over the published quasi-identifiers as written: {kan['achieved_k']} "
                     f"({kan['classes']} classes, {kan['unique_records']} unique records) — "
                     f"not claimed by {cert['method']}")
    for ld in pub["l_diversity"]:
        ev = ld["evidence"]
        lines.append(f"l-diversity of {ev['sensitive']}: l = {ev['achieved_l']} "
                     f"({ev['classes_with_one_value']} of {ev['classes']} classes hold one "
                     "value)")
    alt = pub.get("if_non_identifying_were_quasi_identifiers")
    if alt is not None and alt["records_below_k"] > kan["records_below_k"]:
        lines.append(f"note: were the --keep columns quasi-identifiers, {alt['records_below_k']} "
                     f"records (not {kan['records_below_k']}) would be in classes below "
                     f"k = {cert['k']}, the smallest of {alt['achieved_k']} record(s); "
                     "declare them --qi if an intruder may know them")
    sse = "n/a" if m["sse_sst"] is None else f"{m['sse_sst']:.4g}"
    lines += [f"information loss SSE/SST = {sse} (standardised; per column "
              + ", ".join(f"{c} {'n/a' if v is None else f'{v:.3g}'}"
                          for c, v in m["sse_sst_per_column"].items()) + ")",
              f"record linkage: {m['record_linkage_percent']:.3g} % of released records "
              "linked to their own (nearest original over the anonymised columns)",
              f"certificate: {'HOLDS' if cert['holds'] else 'DOES NOT HOLD'}"]
    return "\n".join(lines)
