"""privlab.verify.microaggregation.published: certificates of a table as it is written.

Every expected value is recounted here from the table itself with ``collections.Counter`` (an
implementation independent of the checker), or derived by hand in a comment.
"""

from __future__ import annotations

import csv
import io
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.verify.microaggregation.published import (
    WrittenTable,
    check_published_k_anonymity,
    check_published_l_diversity,
    microaggregation_measures,
)

HEADER = ["a", "b", "x", "y", "s"]


def _csv(header: list[str], rows: list[list[str]]) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([header, *rows])
    return buf.getvalue().encode()


def _key(row: list[str], cols: list[str]) -> tuple[str, ...]:
    return tuple(row[HEADER.index(c)] for c in cols)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[str]], list[str], list[str], int]:
    n = draw(st.integers(1, 14))
    rows = [[draw(st.sampled_from(["1", "2"])), draw(st.sampled_from(["5", "6"])),
             draw(st.sampled_from(["p", "q", "r"])), draw(st.sampled_from(["u", "v"])),
             draw(st.sampled_from(["s1", "s2", "s3"]))] for _ in range(n)]
    qi = draw(st.lists(st.sampled_from(HEADER[:4]), unique=True, max_size=4))
    anon = [c for c in qi if c in ("a", "b") and draw(st.booleans())]
    return rows, qi, anon, draw(st.integers(1, 4))


@settings(max_examples=150, deadline=None)
@given(case=tables())
def test_k_anonymity_matches_a_recount(case) -> None:
    """Mutants caught: smallest class by max (or not the earliest row), split_by listing a
    column constant in the group, class_size_without off by the removed column, a greedy
    merge that stops after one column."""
    rows, qi, anon, k = case
    res = check_published_k_anonymity(_csv(HEADER, rows), qi, k, anonymised=anon)
    ev = res.evidence
    counts = Counter(_key(r, qi) for r in rows)
    kmin = min(counts.values())
    assert res.value == ev["achieved_k"] == kmin and res.holds == (kmin >= k)
    assert ev["classes"] == len(counts)
    assert ev["classes_below_k"] == sum(1 for v in counts.values() if v < k)
    assert ev["records_below_k"] == sum(v for v in counts.values() if v < k)
    r0 = next(i for i, r in enumerate(rows) if counts[_key(r, qi)] == kmin)
    same = [i + 1 for i, r in enumerate(rows) if _key(r, qi) == _key(rows[r0], qi)]
    assert ev["smallest_class"]["rows"] == same[:10]
    assert ev["smallest_class"]["values"] == dict(zip(qi, _key(rows[r0], qi), strict=True))
    group = [r for r in rows if _key(r, anon) == _key(rows[r0], anon)]
    assert ev["group"]["size"] == len(group)
    passthrough = [c for c in qi if c not in anon]
    splitting = {c for c in passthrough if len({_key(r, [c]) for r in group}) > 1}
    assert {d["column"] for d in ev["split_by"]} == splitting

    def size_over(cols: list[str]) -> int:
        return sum(1 for r in rows if _key(r, cols) == _key(rows[r0], cols))

    for d in ev["split_by"]:
        assert d["class_size_without"] == size_over([c for c in qi if c != d["column"]])
        assert d["distinct_in_group"] == len({_key(r, [d["column"]]) for r in group})
    merged = [c for c in qi if c not in ev["merge_by_removing"]]
    assert ev["merged_size"] == size_over(merged)
    assert set(ev["merge_by_removing"]) <= splitting
    assert ev["merged_size"] >= k or set(ev["merge_by_removing"]) == splitting


def test_two_columns_split_one_group() -> None:
    """Hand-derived: the group a=1 has 4 rows; x splits it p,p,q,q and y u,v,u,v.  Row 1
    (p,u) is alone; without x its class is rows 1,3 (2 records), without y rows 1,2 (2): k = 4
    needs both removed (merged 4).  Mutant caught: a merge that stops after one column."""
    rows = [["1", "5", "p", "u", "s1"], ["1", "5", "p", "v", "s1"],
            ["1", "5", "q", "u", "s2"], ["1", "5", "q", "v", "s2"],
            ["2", "6", "p", "u", "s1"], ["2", "6", "p", "u", "s1"],
            ["2", "6", "p", "u", "s1"], ["2", "6", "p", "u", "s2"]]
    res = check_published_k_anonymity(_csv(HEADER, rows), ["a", "x", "y"], 4,
                                      anonymised=["a"])
    assert not res.holds and res.value == 1
    ev = res.evidence
    assert ev["smallest_class"]["rows"] == [1]
    assert [(d["column"], d["class_size_without"]) for d in ev["split_by"]] == [("x", 2),
                                                                               ("y", 2)]
    assert ev["merge_by_removing"] == ["x", "y"] and ev["merged_size"] == 4
    assert res.counterexample["split_by"] == ["x", "y"]


def test_classes_are_over_the_strings_written() -> None:
    """``1.0`` and ``1`` are one number but two values for a reader of the file.  Mutant
    caught: comparing parsed floats (one class of 2 instead of two of 1)."""
    res = check_published_k_anonymity(b"a,b\n1.0,x\n1,x\n", ["a"], 2)
    assert res.value == 1 and not res.holds
    measured = check_published_k_anonymity(b"a,b\n1.0,x\n1,x\n", ["a"], None)
    assert measured.holds and measured.value == 1 and measured.evidence["classes_below_k"] == 0


def test_no_quasi_identifier_is_one_class() -> None:
    res = check_published_k_anonymity(b"a\n1\n2\n3\n", [], 3)
    assert res.holds and res.value == 3 and res.evidence["classes"] == 1


@settings(max_examples=100, deadline=None)
@given(case=tables())
def test_l_diversity_matches_a_recount(case) -> None:
    """Mutant caught: counting rows instead of distinct sensitive values per class."""
    rows, qi, _anon, need = case
    res = check_published_l_diversity(_csv(HEADER, rows), qi, "s", need)
    distinct: dict[tuple[str, ...], set[str]] = {}
    for r in rows:
        distinct.setdefault(_key(r, qi), set()).add(r[4])
    lmin = min(len(v) for v in distinct.values())
    assert res.value == lmin and res.holds == (lmin >= need)
    ones = [key for key, v in distinct.items() if len(v) == 1]
    assert res.evidence["classes_with_one_value"] == len(ones)
    sizes = Counter(_key(r, qi) for r in rows)
    assert res.evidence["records_with_one_value"] == sum(sizes[key] for key in ones)


def test_bad_inputs() -> None:
    with pytest.raises(InvalidParameter, match="k=0"):
        check_published_k_anonymity(b"a\n1\n", ["a"], 0)
    with pytest.raises(InvalidParameter, match="'zz' is not in the written table"):
        check_published_k_anonymity(b"a\n1\n", ["zz"], 1)
    with pytest.raises(InvalidParameter, match="is a quasi-identifier"):
        check_published_l_diversity(b"a\n1\n", ["a"], "a")
    with pytest.raises(InvalidParameter, match="data row 1 has 1 fields"):
        WrittenTable.parse(b"a,b\n1\n")


def _brute_linkage(a: np.ndarray, b: np.ndarray) -> float:
    """Thesis §6.4.2 by brute force: standardise by the original, link each released record
    to all originals at its minimum distance, count 1/|G| when its own is among them."""
    mu, sd = a.mean(axis=0), a.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    za, zb = (a - mu) / sd, (b - mu) / sd
    total = 0.0
    for j in range(len(b)):
        d = np.sqrt(((za - zb[j]) ** 2).sum(axis=1))
        g = np.flatnonzero(d <= d.min() * (1 + 1e-9) + 1e-15)
        total += 1.0 / len(g) if j in g else 0.0
    return total / len(b)


def test_measures_match_direct_formulas() -> None:
    """SSE/SST and record linkage against the formulas computed here (integer data with
    duplicated records, so that linkage ties are exact).  Mutants caught: SST of the
    released values, linkage without tie sharing."""
    g = np.random.default_rng(3)
    a = g.integers(0, 4, size=(30, 2)).astype(float)
    b = a.copy()
    b[::3] = a[::3].mean(axis=0)  # a third of the records moved to one point
    m = microaggregation_measures(a, b, ["u", "v"])
    for j, c in enumerate(["u", "v"]):
        sse = ((a[:, j] - b[:, j]) ** 2).sum()
        sst = ((a[:, j] - a[:, j].mean()) ** 2).sum()
        assert m["sse_sst_per_column"][c] == pytest.approx(sse / sst, rel=1e-12)
    assert m["sse_sst"] == pytest.approx(np.mean(list(m["sse_sst_per_column"].values())))
    assert m["record_linkage"] == pytest.approx(_brute_linkage(a, b), rel=1e-12)
    assert m["record_linkage_percent"] == pytest.approx(100 * m["record_linkage"])
