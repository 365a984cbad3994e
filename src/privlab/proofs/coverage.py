"""Coverage of the seeds' numbered items by the ledger (issue 14, ``privlab claims --coverage``).

:data:`ITEMS` lists, per seed, every numbered definition, lemma, proposition, theorem, corollary,
algorithm, protocol, example and table found in the seed text (extracted with the pattern
``(Definition|Lemma|Proposition|Theorem|Corollary|Algorithm|Protocol|Example|Table) N[.M]`` over
``../shared/seeds/*.txt``; the textbook chapter, 003, numbers none).  An item is covered by the
claims whose id is ``<seed>:<kind>-<N>`` (or starts with it), by the tables ``<seed>-<N>``, by
the ids listed in :data:`ALSO`, or by an explicit reason in :data:`NOT_CHECKABLE`; anything else
is reported as missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_T = "Table"
ITEMS: dict[str, tuple[str, ...]] = {
    "thesis": (
        "Algorithm 2.1", "Algorithm 5.1", "Algorithm 6.1", "Algorithm 6.2", "Algorithm 6.3",
        "Algorithm 7.1", "Corollary 1", "Corollary 2",
        *(f"Definition {i}" for i in range(1, 16)),
        *(f"Example {i}" for i in range(1, 9)),
        "Lemma 1", "Lemma 2", *(f"Proposition {i}" for i in range(1, 11)),
        "Protocol 1", "Protocol 2",
        *(f"{_T} 3.{i}" for i in range(1, 12)), *(f"{_T} 4.{i}" for i in range(1, 5)),
        *(f"{_T} 5.{i}" for i in range(1, 6)), *(f"{_T} 6.{i}" for i in range(1, 6)),
        *(f"{_T} 7.{i}" for i in range(1, 7)),
        "Theorem 1", "Theorem 2", "Theorem 3"),
    "vldb14": ("Algorithm 1", "Algorithm 2", "Algorithm 3", "Algorithm 4",
               *(f"Definition {i}" for i in range(1, 7)),
               *(f"Proposition {i}" for i in range(1, 5)), *(f"{_T} {i}" for i in range(1, 8))),
    "ins15": (*(f"Definition {i}" for i in range(1, 5)),
              *(f"Proposition {i}" for i in range(1, 4)), f"{_T} 1"),
    "textbook": (),
    "irm": ("Algorithm 1", "Algorithm 2", "Definition 1", "Lemma 1", "Lemma 2", "Lemma 3",
            f"{_T} 1"),
}

KIND = {"Definition": "def", "Lemma": "lemma", "Proposition": "prop", "Theorem": "thm",
        "Corollary": "cor", "Algorithm": "alg", "Protocol": "protocol", "Example": "ex",
        "Table": "table"}

ALSO: dict[tuple[str, str], tuple[str, ...]] = {
    ("thesis", "Definition 5"): ("thesis:sec-3.3.1-reid-bound",),
    ("thesis", "Definition 13"): ("thesis:prop-6",),
    ("thesis", "Definition 14"): ("thesis:sec-6.3.1-noise-scale", "thesis:sec-6.3-add-remove"),
    ("thesis", "Definition 10"): ("thesis:sec-5.2-masses",),
    ("thesis", "Definition 11"): ("thesis:sec-5.2-delta-individual",
                                  "thesis:sec-5.2-delta-statistical"),
    ("thesis", "Algorithm 6.1"): ("thesis:prop-7", "thesis:prop-7-only-if"),
    ("thesis", "Algorithm 6.2"): ("vldb14:alg-3",),
    ("thesis", "Algorithm 6.3"): ("thesis:prop-9", "thesis:sec-6.3.6-mixed-release"),
    ("thesis", "Example 7"): ("thesis:sec-5.2-example-7-products",),
    ("thesis", "Table 3.10"): ("thesis:sec-3.4.1-table-3.10",),
    ("thesis", "Table 3.11"): ("thesis:sec-3.4.2-table-3.11",),
    ("thesis", "Table 5.1"): ("thesis:sec-5.2-example-7-products",),
    ("thesis", "Table 5.3"): ("thesis:ex-8",),
    ("thesis", "Table 5.4"): ("thesis:ex-8",),
    ("thesis", "Table 7.5"): ("thesis:sec-7.2.2-construction",),
    ("vldb14", "Algorithm 4"): ("vldb14:prop-4", "vldb14:sec-4.6-mixed-release"),
    ("vldb14", "Algorithm 3"): ("vldb14:alg-3",),
    ("vldb14", "Proposition 2"): ("thesis:prop-7-only-if",),
    ("ins15", "Definition 4"): ("thesis:def-15", "ins15:prop-2"),
    ("irm", "Algorithm 1"): ("irm:lemma-3",),
    ("irm", "Lemma 1"): ("irm:lemma-1", "irm:lemma-1-adversarial"),
}
"""Items covered by claims filed under another id (section ids, the thesis twin, …)."""

_DEF = "a definition (nothing to be true or false); "
NOT_CHECKABLE: dict[tuple[str, str], str] = {
    ("thesis", "Definition 1"): _DEF + "k-anonymity, checked as a property of releases "
                                "(verify.tcloseness.check_k_anonymity)",
    ("thesis", "Definition 2"): _DEF + "t-closeness (EMD), background; the thesis's own "
                                "distance is Definition 15",
    ("thesis", "Definition 3"): _DEF + "ε-DP; the lab's checkers implement it under both "
                                "neighbour relations (privlab.types.Neighbour)",
    ("thesis", "Definition 4"): _DEF + "L1 sensitivity; computed exhaustively by "
                                "verify.releases.exact and generalised in thesis:def-9",
    ("thesis", "Example 1"): "illustration of probabilistic k-anonymity on two records; "
                             "no claim beyond Definition 5 (thesis:sec-3.3.1-reid-bound)",
    ("thesis", "Example 2"): "illustration continuing Example 1 (Table 3.2); no new claim",
    ("thesis", "Example 3"): "illustration of the informed intruder (Tables 3.4–3.6); no new "
                             "claim",
    ("thesis", "Example 6"): "worked example of Definition 10 with a uniform prior; its numbers "
                             "reappear in Table 5.5 (thesis:table-5.5)",
    **{("thesis", f"Table 3.{i}"): "illustrative data layout of §3.2–3.3 (records and "
                                   "attributes), no computed number" for i in range(1, 8)},
    ("thesis", "Table 3.8"): "description of the evaluation data set (attributes), no claim",
    ("thesis", "Table 3.9"): "description of the evaluation data set (attributes), no claim",
    ("thesis", "Table 7.1"): "illustrative data layout (§7.1), no computed number",
    ("thesis", "Table 7.2"): "illustrative data layout (§7.1), no computed number",
    ("thesis", "Table 7.3"): "illustrative bucketization example, no computed claim",
    ("thesis", "Table 7.4"): "illustrative bucketization example, no computed claim",
    ("vldb14", "Algorithm 1"): "MDAV as in thesis Algorithm 2.1 (thesis:alg-2.1)",
    ("vldb14", "Algorithm 2"): "insensitive MDAV as in thesis §6.2 (thesis:prop-6-fixed-ends)",
    **{("vldb14", f"Definition {i}"): _DEF + "the vldb14 restatement of the thesis's "
                                      "definitions 1, 3, 4, 12, 14" for i in range(1, 7)},
    ("vldb14", "Table 1"): "description of the data sets, no computed number",
    ("vldb14", "Table 2"): "description of the data sets, no computed number",
    ("vldb14", "Table 5"): "experimental results on data sets not available (EIA, …)",
    ("vldb14", "Table 6"): "experimental results on data sets not available (EIA, …)",
    ("vldb14", "Table 7"): "experimental results on data sets not available (EIA, …)",
    **{("ins15", f"Definition {i}"): _DEF + "ins15's k-anonymity, t-closeness, ε-DP, "
                                     "stochastic t-closeness" for i in (1, 2, 3)},
    ("irm", "Algorithm 2"): "the multivariate variant of Algorithm 1; its privacy is "
                            "irm:lemma-3's setting",
    ("irm", "Definition 1"): _DEF + "ε-DP as in thesis Definition 3",
    ("irm", "Lemma 2"): "the composition lemma of DP (sequential composition), a standard "
                        "result used by Lemma 3 (irm:lemma-3)",
}


def _num(item: str) -> tuple[str, str]:
    word, num = item.split(" ", 1)
    return KIND[word], num


def coverage_rows(claim_ids: Iterable[str], table_ids: Iterable[str]) -> list[dict[str, Any]]:
    """One row per numbered item: ``{seed, item, covered_by, why}`` (``why`` is "missing" when
    neither a ledger entry nor a not-checkable reason exists)."""
    claims, tables = list(claim_ids), list(table_ids)
    rows = []
    for seed, items in ITEMS.items():
        for item in items:
            kind, num = _num(item)
            stem = f"{seed}:{kind}-{num}"
            hits = [c for c in claims if c == stem or c.startswith(stem + "-")]
            if kind == "table":
                hits += [t for t in tables if t == f"{seed}-{num}"]
            hits += [c for c in ALSO.get((seed, item), ()) if c in claims or c in tables]
            why = NOT_CHECKABLE.get((seed, item), "" if hits else "missing")
            rows.append({"seed": seed, "item": item, "covered_by": sorted(set(hits)),
                         "why": why or None})
    return rows


def missing(rows: list[dict[str, Any]]) -> list[str]:
    return [f"{r['seed']} {r['item']}" for r in rows if r["why"] == "missing"]
