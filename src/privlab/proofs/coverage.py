"""Coverage of the seeds' numbered items by the ledger (issue 14, ``privlab claims --coverage``).

:data:`ITEMS` lists, per seed, every numbered definition, lemma, proposition, theorem, corollary,
algorithm, protocol, example and table found in the seed text (extracted with the pattern
``(Definition|Lemma|Proposition|Theorem|Corollary|Algorithm|Protocol|Example|Table) N[.M]`` over
``../shared/seeds/*.txt``; the textbook chapter, 003, numbers none).  An item is covered by the
claims whose id is ``<seed>:<kind>-<N>`` (or starts with it), by the tables ``<seed>-<N>``, by
the claims that list it in their ``covers`` (``"<seed>:<item>"``, see :func:`also`), or by an
explicit reason in :data:`NOT_CHECKABLE`; anything else is reported as missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from privlab.types import Claim

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

def also(claims: Iterable[Claim | str]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(seed, item) → the claims filed under another id (section ids, the thesis twin, …) that
    cover it, read from each claim's ``covers`` (``"thesis:Definition 13"``); claims given as
    bare ids carry no ``covers``."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for c in claims:
        if isinstance(c, str):
            continue
        for entry in c.covers:
            seed, _, item = entry.partition(":")
            out[seed, item] = (*out.get((seed, item), ()), c.id)
    return out


def unknown_covers(claims: Iterable[Claim | str]) -> list[str]:
    """``covers`` entries that name no numbered item of :data:`ITEMS` (a typo would silently
    cover nothing)."""
    return sorted(f"{seed}:{item}" for seed, item in also(claims)
                  if item not in ITEMS.get(seed, ()))


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
                                   "attributes), no computed number" for i in range(1, 6)},
    ("thesis", "Table 7.1"): "illustrative data layout (§7.1), no computed number",
    ("thesis", "Table 7.2"): "illustrative data layout (§7.1), no computed number",
    ("thesis", "Table 7.3"): "illustrative bucketization example, no computed claim",
    ("thesis", "Table 7.4"): "illustrative bucketization example, no computed claim",
    ("vldb14", "Algorithm 1"): "MDAV as in thesis Algorithm 2.1 (thesis:alg-2.1)",
    ("vldb14", "Algorithm 2"): "the general insensitive microaggregation, thesis Algorithm 6.1 "
                               "(thesis:prop-7, thesis:prop-7-only-if)",
    **{("vldb14", f"Definition {i}"): _DEF + "the vldb14 restatement of the thesis's "
                                      "definitions 1, 3, 4, 12, 14" for i in range(1, 7)},
    **{("ins15", f"Definition {i}"): _DEF + "ins15's k-anonymity, t-closeness, ε-DP, "
                                     "stochastic t-closeness" for i in (1, 2, 3)},
    ("irm", "Algorithm 2"): "the categorical exponential-mechanism centroid (§3.4); its privacy "
                            "is the question of thesis:prop-9 and vldb14:prop-4",
    ("irm", "Definition 1"): _DEF + "ε-DP as in thesis Definition 3",
    ("irm", "Lemma 2"): "the composition lemma of DP (sequential composition), a standard "
                        "result used by Lemma 3 (irm:lemma-3)",
}


OPEN: dict[tuple[str, str], str] = {
}
"""Items with computed numbers the ledger does not reproduce yet: listed as open (their reason
says what they are), never excused as not checkable."""

RESULT_FREE = ("no computed number", "description of", "no claim", "illustrative")
"""Phrases of a not-checkable reason that the seed's table block must bear out (no row of
results), see :func:`contradicted`."""
_NUM = re.compile(r"(?<![\w.$])-?\d*\.\d+(?![\w.])")
SEED_FILES = {"thesis": "000_65177858bc9aa63c.txt", "vldb14": "001_b1bb29bd0e0b4af8.txt",
              "ins15": "002_06f1c381d8beeaa3.txt", "textbook": "003_603b030e6bfa655b.txt",
              "irm": "004_e4358174ca440815.txt"}


def table_block(text: str, number: str, lines: int = 28) -> list[str] | None:
    """The lines of ``Table <number>``'s block in a seed text (its caption and what follows)."""
    cap = re.compile(rf"^\s*(<\|[^|]*\|>)?\s*Table {re.escape(number)}[:. ]")
    rows = text.split("\n")
    for i, line in enumerate(rows):
        if cap.search(line):
            return rows[i:i + lines]
    return None


def result_rows(block: list[str]) -> list[str]:
    """Lines of a table block that hold three or more decimal numbers (a row of results)."""
    return [ln for ln in block if len(_NUM.findall(ln)) >= 3]


def contradicted(seed_dir: Path, data_dir: Path | None) -> list[str]:
    """Not-checkable reasons the seed texts contradict: a table excused as holding no computed
    number whose block has rows of results; a reason naming absent data whose file exists."""
    out = []
    for (seed, item), why in NOT_CHECKABLE.items():
        if item.startswith("Table ") and any(p in why for p in RESULT_FREE):
            text = (seed_dir / SEED_FILES[seed]).read_text("utf-8")
            block = table_block(text, item.split(" ", 1)[1])
            if block is None:
                out.append(f"{seed} {item}: no table block found")
            elif result_rows(block):
                out.append(f"{seed} {item}: excused as '{why}' but has rows of results")
        if "not available" in why or "unavailable" in why:
            named = re.findall(r"[\w-]+\.csv", why)
            if not named:
                out.append(f"{seed} {item}: '{why}' names no data file")
            elif data_dir is not None and any((data_dir / n).exists() for n in named):
                out.append(f"{seed} {item}: '{why}' but the file is present")
    return out


def _num(item: str) -> tuple[str, str]:
    word, num = item.split(" ", 1)
    return KIND[word], num


def coverage_rows(claims: Iterable[Claim | str], table_ids: Iterable[str]
                  ) -> list[dict[str, Any]]:
    """One row per numbered item: ``{seed, item, covered_by, why}`` (``why`` is "missing" when
    neither a ledger entry nor a not-checkable reason exists).  ``claims`` are the ledger's
    claims (their ``covers`` count) or bare claim ids."""
    given = list(claims)
    ids = [c if isinstance(c, str) else c.id for c in given]
    covered = also(given)
    tables = list(table_ids)
    rows = []
    for seed, items in ITEMS.items():
        for item in items:
            kind, num = _num(item)
            stem = f"{seed}:{kind}-{num}"
            hits = [c for c in ids if c == stem or c.startswith(stem + "-")]
            if kind == "table":
                hits += [t for t in tables if t == f"{seed}-{num}"]
            hits += covered.get((seed, item), ())
            why = NOT_CHECKABLE.get((seed, item), "" if hits else "missing")
            if not hits and (seed, item) in OPEN:
                why = f"open: {OPEN[seed, item]}"
            rows.append({"seed": seed, "item": item, "covered_by": sorted(set(hits)),
                         "why": why or None})
    return rows


def missing(rows: list[dict[str, Any]]) -> list[str]:
    return [f"{r['seed']} {r['item']}" for r in rows if r["why"] == "missing"]
