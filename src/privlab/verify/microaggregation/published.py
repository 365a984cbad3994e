"""What a published table certifies, computed from the CSV text actually written.

A release command builds its output bytes, parses them back with :meth:`WrittenTable.parse`
and certifies *that* table, so the certificate is a statement about the file a reader gets:

* an **equivalence class** is the set of rows with the same strings in every declared
  quasi-identifier column of the written text (a centroid written ``37.25`` and one written
  ``37.250000001`` are different values, as they are for anyone reading the file);
* :func:`check_published_k_anonymity` — the achieved k (smallest class), how many classes and
  records fall below the requested k, and the **smallest class** (the earliest row among the
  smallest classes: its size, rows and quasi-identifier values) with **what splits it**.  Its
  *group* is the set of rows agreeing with it on the anonymised quasi-identifier columns — a
  microaggregation group, of at least k rows when the method's own group check holds (the
  whole table when no quasi-identifier is anonymised).  A class smaller than its group exists
  only because some quasi-identifier published unchanged differs inside the group; those
  columns are the ones that split it (``split_by``: each with its number of distinct values in
  the group and the class size if that column alone were not a quasi-identifier).  Removing
  one splitting column may not be enough (two columns can split the same group), so the
  checker also reports a greedy merge (``merge_by_removing``: the splitting columns removed
  one at a time, each time the one that grows the class most, until it reaches k).
* :func:`check_published_l_diversity` — distinct l-diversity of a sensitive column as written
  within those classes;
* :func:`microaggregation_measures` — information loss (SSE/SST per anonymised column and
  their mean on standardised attributes) and distance-based record-linkage risk (thesis
  §6.4.2, :func:`privlab.metrics.record_linkage`) of the anonymised columns as written.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method

__all__ = ["WrittenTable", "check_published_k_anonymity", "check_published_l_diversity",
           "microaggregation_measures"]

#: rows of a class listed in a certificate (the first ones, 1-based data rows)
ROWS_SHOWN = 10


@attrs.frozen(kw_only=True)
class WrittenTable:
    """Header and rows (strings, as written) of a CSV text."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @classmethod
    def parse(cls, data: bytes | str) -> WrittenTable:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
        allrows = list(csv.reader(io.StringIO(text, newline="")))
        if not allrows:
            raise InvalidParameter("the written table is empty (no header)")
        header = tuple(allrows[0])
        rows = tuple(tuple(r) for r in allrows[1:])
        for i, r in enumerate(rows):
            if len(r) != len(header):
                raise InvalidParameter(f"written table: data row {i + 1} has {len(r)} fields, "
                                       f"the header {len(header)}")
        return cls(header=header, rows=rows)

    def index(self, names: Sequence[str], param: str = "quasi_identifiers") -> list[int]:
        missing = [c for c in names if c not in self.header]
        if missing:
            raise InvalidParameter(f"{param}: column {missing[0]!r} is not in the written "
                                   f"table ({', '.join(self.header)})")
        return [self.header.index(c) for c in names]

    def keys(self, names: Sequence[str]) -> list[tuple[str, ...]]:
        """Each row's values in ``names`` (a tuple per row, ``()`` when ``names`` is empty)."""
        idx = self.index(names)
        if not idx:
            return [()] * len(self.rows)
        return list(zip(*([r[j] for r in self.rows] for j in idx), strict=True))

    def column(self, name: str, param: str = "column") -> list[str]:
        j = self.index([name], param)[0]
        return [r[j] for r in self.rows]

    def numbers(self, names: Sequence[str]) -> Any:
        """The named columns as an (n, m) float array (every cell a finite number)."""
        import numpy as np

        idx = self.index(names, "columns")
        try:  # fast path; numpy's parser is stricter than float() (e.g. spaces), so a
            out = np.array([[r[j] for j in idx] for r in self.rows], dtype=float)
            if np.isfinite(out).all():
                return out.reshape(len(self.rows), len(idx))
        except ValueError:
            pass
        out = np.empty((len(self.rows), len(idx)))  # ... failure is re-read cell by cell
        for i, r in enumerate(self.rows):
            for j, c in enumerate(idx):
                try:
                    x = float(r[c])
                except ValueError:
                    x = math.nan
                if not math.isfinite(x):
                    raise InvalidParameter(f"written column {names[j]!r}, row {i + 1}: "
                                           f"{r[c]!r} is not a finite number")
                out[i, j] = x
        return out


def _table(t: WrittenTable | bytes | str) -> WrittenTable:
    return t if isinstance(t, WrittenTable) else WrittenTable.parse(t)


def _match_masks(t: WrittenTable, group: list[int], r0: int, cols: Sequence[str]
                 ) -> dict[str, int]:
    """Per column, the bit set of the ``group`` positions whose value equals row r0's."""
    out = {}
    for c, j in zip(cols, t.index(cols), strict=True):
        want = t.rows[r0][j]
        bits = 0
        for pos, i in enumerate(group):
            if t.rows[i][j] == want:
                bits |= 1 << pos
        out[c] = bits
    return out


def _class_size_in(masks: dict[str, int], full: int, cols: Sequence[str]) -> int:
    """Rows of the group agreeing with r0 on ``cols`` (the AND of their masks)."""
    bits = full
    for c in cols:
        bits &= masks[c]
    return bits.bit_count()


def check_published_k_anonymity(table: WrittenTable | bytes | str,
                                quasi_identifiers: Sequence[str], k: int | None, *,
                                anonymised: Sequence[str] = ()) -> CheckResult:
    """k-anonymity of the written table over ``quasi_identifiers`` (module doc);
    ``anonymised``: the columns the method transformed (they define the smallest class's
    group).  ``value`` is the achieved k (the smallest class size).  ``k=None`` measures
    it (holds; no class is "below k" and no merge is sought)."""
    if k is not None and (isinstance(k, bool) or int(k) != k or k < 1):
        raise InvalidParameter(f"k={k!r} must be a positive integer")
    target = 0 if k is None else int(k)
    t = _table(table)
    qi = list(quasi_identifiers)
    keys = t.keys(qi)
    n = len(keys)
    if n == 0:
        raise InvalidParameter("the written table has no data rows")
    counts = Counter(keys)
    kmin = min(counts.values())
    r0 = next(i for i, key in enumerate(keys) if counts[key] == kmin)
    members = [i for i, key in enumerate(keys) if key == keys[r0]]
    anon_qi = [c for c in qi if c in anonymised]
    passthrough = [c for c in qi if c not in anonymised]
    gkeys = t.keys(anon_qi)
    group = [i for i in range(n) if gkeys[i] == gkeys[r0]]
    masks = _match_masks(t, group, r0, passthrough)
    full = (1 << len(group)) - 1
    split: list[dict[str, Any]] = []
    for c in passthrough:
        j = t.header.index(c)
        distinct = len({t.rows[i][j] for i in group})
        if distinct > 1:
            rest = [x for x in passthrough if x != c]
            split.append({"column": c, "distinct_in_group": distinct,
                          "class_size_without": _class_size_in(masks, full, rest)})
    split.sort(key=lambda d: (-d["class_size_without"], qi.index(d["column"])))
    removed: list[str] = []
    remaining = list(passthrough)
    size = kmin
    cands: list[str] = [str(d["column"]) for d in split]
    while size < target and cands:
        grow = {c: _class_size_in(masks, full, [x for x in remaining if x != c])
                for c in cands}
        best = max(cands, key=lambda c: (grow[c], -qi.index(c)))
        removed.append(best)
        remaining.remove(best)
        cands.remove(best)
        size = grow[best]
    below = [s for s in counts.values() if s < target]
    smallest = {"size": kmin, "rows": [i + 1 for i in members[:ROWS_SHOWN]],
                "values": dict(zip(qi, keys[r0], strict=True))}
    ok = kmin >= target
    evidence = {"quasi_identifiers": qi, "k": k, "achieved_k": kmin, "n": n,
                "classes": len(counts), "classes_below_k": len(below),
                "records_below_k": sum(below),
                "unique_records": sum(1 for s in counts.values() if s == 1),
                "smallest_class": smallest,
                "group": {"columns": anon_qi, "size": len(group)},
                "split_by": split, "merge_by_removing": removed, "merged_size": size}
    cex = None if ok else {**smallest, "split_by": [d["column"] for d in split]}
    shown = ", ".join(qi) if qi else "none"
    what = "k-anonymity (measured)" if k is None else f"{k}-anonymity"
    return CheckResult(holds=ok, claim=f"{what} over the published quasi-identifiers "
                       f"as written ({shown})", value=kmin, method=Method.EXACT,
                       evidence=evidence, counterexample=cex)


def check_published_l_diversity(table: WrittenTable | bytes | str,
                                quasi_identifiers: Sequence[str], sensitive: str,
                                l: int | None = None) -> CheckResult:  # noqa: E741
    """Distinct l-diversity of the written column ``sensitive`` within the classes of equal
    written quasi-identifier values; ``value`` is the achieved l (fewest distinct values in a
    class).  ``l=None`` measures it (holds); an integer ``l`` is a requirement."""
    if l is not None and (isinstance(l, bool) or int(l) != l or l < 1):
        raise InvalidParameter(f"l={l!r} must be a positive integer")
    t = _table(table)
    qi = list(quasi_identifiers)
    if sensitive in qi:
        raise InvalidParameter(f"sensitive={sensitive!r} is a quasi-identifier")
    keys = t.keys(qi)
    if not keys:
        raise InvalidParameter("the written table has no data rows")
    vals = t.column(sensitive, "sensitive")
    distinct: dict[tuple[str, ...], set[str]] = {}
    sizes: Counter[tuple[str, ...]] = Counter(keys)
    for key, v in zip(keys, vals, strict=True):
        distinct.setdefault(key, set()).add(v)
    lmin = min(len(s) for s in distinct.values())
    r0 = next(i for i, key in enumerate(keys) if len(distinct[key]) == lmin)
    ones = [key for key, s in distinct.items() if len(s) == 1]
    ok = l is None or lmin >= l
    what = f"distinct l-diversity of {sensitive!r}" if l is None else \
        f"distinct {l}-diversity of {sensitive!r}"
    worst = {"distinct": lmin, "size": sizes[keys[r0]],
             "rows": [i + 1 for i, key in enumerate(keys) if key == keys[r0]][:ROWS_SHOWN],
             "values": sorted(distinct[keys[r0]])[:ROWS_SHOWN]}
    return CheckResult(holds=ok, claim=f"{what} over the published quasi-identifiers as "
                       f"written: l = {lmin}", value=lmin, method=Method.EXACT,
                       evidence={"sensitive": sensitive, "quasi_identifiers": qi, "l": l,
                                 "achieved_l": lmin, "classes": len(distinct),
                                 "classes_with_one_value": len(ones),
                                 "records_with_one_value": sum(sizes[key] for key in ones),
                                 "worst_class": worst},
                       counterexample=None if ok else worst)


def microaggregation_measures(original: Any, released: Any, columns: Sequence[str]
                              ) -> dict[str, Any]:
    """Information loss and record-linkage risk of the anonymised columns (module doc).

    ``original`` and ``released`` are (n, m) arrays of the input values and of the values
    as written, rows aligned.  SSE/SST of column j is
    Σ_i (x_ij − x′_ij)² / Σ_i (x_ij − x̄_j)² (0 for a constant column left unchanged);
    the headline ``sse_sst`` is their mean (SSE/SST of the standardised attributes);
    ``sse_sst_raw`` pools the sums over the columns in their own units.

    Record linkage (thesis §6.4.2): each released record is linked to the original records
    nearest to it (Euclidean on attributes standardised by the original means and
    deviations, ties shared); ``record_linkage`` is the share of released records linked to
    their own original (expected value), ``record_linkage_percent`` the same × 100."""
    import numpy as np

    from privlab.metrics import record_linkage

    a = np.asarray(original, dtype=float)
    b = np.asarray(released, dtype=float)
    if a.shape != b.shape or a.ndim != 2 or a.shape[1] != len(columns):
        raise InvalidParameter(f"original {a.shape} and released {b.shape} must both be "
                               f"(n, {len(columns)})")
    sse_j = ((a - b) ** 2).sum(axis=0)
    sst_j = ((a - a.mean(axis=0)) ** 2).sum(axis=0)
    per: dict[str, float | None] = {}
    for c, e, s in zip(columns, sse_j, sst_j, strict=True):
        per[c] = float(e / s) if s > 0 else (0.0 if e == 0 else None)
    finite = [v for v in per.values() if v is not None]
    rl = float(record_linkage(a, b, scale="standardised"))
    return {"columns": list(columns),
            "sse_sst": float(np.mean(finite)) if len(finite) == len(per) else None,
            "sse_sst_per_column": per,
            "sse_sst_raw": float(sse_j.sum() / sst_j.sum()) if sst_j.sum() > 0 else None,
            "sse": float(sse_j.sum()),
            "record_linkage": rl / 100.0, "record_linkage_percent": rl,
            "record_linkage_method": "distance-based (thesis §6.4.2): each released record "
                                     "linked to its nearest original records over the "
                                     "anonymised columns (standardised), ties shared"}
