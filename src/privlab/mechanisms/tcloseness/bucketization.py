"""t-closeness by bucketization: Anatomy and permuted releases (thesis §7.1–7.2, ins15 §6).

The construction (thesis §7.2.2, ins15 §6.3), for a numerical or ordinal confidential attribute
C with N records and a requested t ≥ 1 (real):

1. sort the records by C (ties by row order) and cut the ranks into b buckets of the printed
   sizes (b = ⌈t⌉ + 1 by default, see :mod:`privlab.mechanisms.tcloseness.counts`);
2. choose how many records n_ij of bucket j go to class i (e = b·l classes of sizes
   ⌈iN/e⌉ − ⌈(i−1)N/e⌉): the printed rule when it adds up, else the exact integer solution;
3. assign records to classes *by quasi-identifier homogeneity where the choice is free*:
   within each bucket, records are ordered by a 1-D projection of the quasi-identifiers (first
   principal component of the standardised QI columns, ties broken lexicographically by the
   QI columns and then by row) and class i receives the next n_ij of them — so each class
   holds, from every bucket, records of the same QI quantile range.  (privlab's own simple
   ordering; the microaggregation of issue 5 is not used.)

Every class then satisfies e_i·p_j/t ≤ n_ij ≤ t·e_i·p_j for every bucket, i.e. its bucket
distribution is within distance t of the global one (Definition 15 / Proposition 10), and has
at least k = ⌊N/e⌋ ≥ b records (k-anonymity of the group ids).

Outputs (thesis §7.1.2 and §7.3.2):

* Anatomy: the QI table (every record with its group id, C dropped) and the sensitive table
  relating group ids to the class's confidential values (or buckets);
* probabilistic k-anonymity ("permuted"): C permuted uniformly within each class, with the
  bucket of the value placed in each row.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from privlab._rng import RngLike, as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.tcloseness.counts import CountPlan, TLike, plan

FORMS = ("anatomy", "permuted")


def confidential_ranks(values: Any, order: Sequence[Any] | None = None) -> np.ndarray:
    """Numeric sort keys of the confidential attribute.

    Numerical values are used as they are; an ordinal (non-numeric) attribute needs its
    ``order`` (the categories from lowest to highest).  Raises :class:`InvalidParameter` for
    a non-numeric attribute without an order, NaN, or a value missing from ``order``.
    """
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidParameter(f"confidential values must be a non-empty 1-D array, got shape "
                               f"{arr.shape}")
    if order is not None:
        pos = {v: i for i, v in enumerate(order)}
        missing = [v for v in dict.fromkeys(arr.tolist()) if v not in pos]
        if missing:
            raise InvalidParameter(f"order={list(order)!r} lacks confidential value(s) "
                                   f"{missing[:5]!r}")
        return np.array([pos[v] for v in arr.tolist()], dtype=np.int64)
    try:
        num = arr.astype(float)
    except (TypeError, ValueError):
        raise InvalidParameter(
            f"confidential attribute is not numeric (e.g. {arr[0]!r}) and no order was given; "
            f"bucketization needs a numerical or ordinal attribute") from None
    if not np.isfinite(num).all():
        raise InvalidParameter("confidential attribute contains NaN or infinite values")
    return num


def qi_key(qi: Any, n: int) -> np.ndarray:
    """Rank of each record in the QI order used for assignment (0 … N−1).

    ``qi`` None → row order.  Otherwise an (N, m) numeric array: projection on the first
    principal component of the standardised columns (sign fixed so the largest loading is
    positive), ties broken lexicographically by the columns and then by row.
    """
    if qi is None:
        return np.arange(n)
    q = np.asarray(qi, dtype=float)
    if q.ndim == 1:
        q = q[:, None]
    if q.shape[0] != n or q.ndim != 2:
        raise InvalidParameter(f"qi must have {n} rows (one per record), got shape {q.shape}")
    if not np.isfinite(q).all():
        raise InvalidParameter("qi contains NaN or infinite values")
    sd = q.std(axis=0)
    z = (q - q.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    if q.shape[1] == 1:
        proj = z[:, 0]
    else:
        _, vecs = np.linalg.eigh(z.T @ z)
        v = vecs[:, -1]
        v = v if v[np.argmax(np.abs(v))] > 0 else -v
        proj = z @ v
    keys = [np.arange(n), *(q[:, c] for c in range(q.shape[1] - 1, -1, -1)), proj]
    order = np.lexsort(keys)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    return rank


@attrs.frozen(kw_only=True, eq=False)
class TCloseRelease:
    """A t-close, k-anonymous partition of N records: ``group`` and ``bucket`` per record."""

    values: np.ndarray
    group: np.ndarray
    bucket: np.ndarray
    plan: CountPlan
    keys: np.ndarray | None = None
    """Numeric sort key of each value (:func:`confidential_ranks`: the position in the order of
    an ordinal attribute); None: the values are numbers and are their own keys."""

    @property
    def sort_keys(self) -> np.ndarray:
        return self.values if self.keys is None else self.keys

    @property
    def t(self) -> Fraction:
        return self.plan.t

    @property
    def k(self) -> int:
        return self.plan.k

    @property
    def n_groups(self) -> int:
        return len(self.plan.class_sizes)

    def bucket_ranges(self) -> list[tuple[Any, Any]]:
        """(min, max) confidential value of each bucket (ranges may touch when values tie)."""
        out = []
        for j in range(self.plan.b):
            sel = self.bucket == j
            v, key = self.values[sel], self.sort_keys[sel]
            out.append((_py(v[np.argmin(key)]), _py(v[np.argmax(key)])))
        return out

    def bucket_midpoints(self) -> np.ndarray:
        """(min + max)/2 of each bucket (numerical attributes)."""
        return np.array([(lo + hi) / 2.0 for lo, hi in self.bucket_ranges()])

    def anatomy(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Anatomy's second table: (group, value, bucket) sorted by group then value; the
        first table is every record's QIs with :attr:`group`."""
        o = np.lexsort((self.sort_keys, self.group))
        return self.group[o], self.values[o], self.bucket[o]

    def permuted(self, *, rng: RngLike = None) -> tuple[np.ndarray, np.ndarray]:
        """Values permuted uniformly within each class and the bucket of each placed value."""
        g = as_generator(rng)
        n = len(self.group)
        rows = np.lexsort((g.random(n), self.group))
        src = np.lexsort((g.random(n), self.group))
        vals = np.empty_like(self.values)
        buck = np.empty_like(self.bucket)
        vals[rows] = self.values[src]
        buck[rows] = self.bucket[src]
        return vals, buck

    def to_dict(self) -> dict[str, Any]:
        d = self.plan.to_dict()
        d.update(n_groups=self.n_groups, bucket_ranges=self.bucket_ranges())
        return d


def _py(x: Any) -> Any:
    """A numpy scalar as the Python value it holds (ints, floats and strings alike)."""
    return x.item() if isinstance(x, np.generic) else x


def partition_alg_7_1(values: Any, k: int) -> np.ndarray:
    """Thesis Algorithm 7.1: sort by C; while ≥ 3k records remain, cut the k smallest and the
    k largest into two classes; then, if ≥ 2k remain, the k smallest; the rest is one class.
    Returns the class id of each record (classes numbered in the order they are cut)."""
    key = confidential_ranks(values)
    n = len(key)
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= n:
        raise InvalidParameter(f"k={k!r} must be an integer in 1..N={n}")
    o = np.lexsort((np.arange(n), key))
    out = np.empty(n, dtype=np.int64)
    lo, hi, cls = 0, n, 0
    while hi - lo >= 3 * k:
        out[o[lo:lo + k]] = cls
        out[o[hi - k:hi]] = cls + 1
        lo, hi, cls = lo + k, hi - k, cls + 2
    if hi - lo >= 2 * k:
        out[o[lo:lo + k]] = cls
        lo, cls = lo + k, cls + 1
    out[o[lo:hi]] = cls
    return out


def bucketize(values: Any, b: int, *, order: Sequence[Any] | None = None) -> np.ndarray:
    """Bucket (0 … b−1) of each record: ranks cut at the printed boundaries ⌊jN/b + 0.5⌋."""
    from privlab.mechanisms.tcloseness.counts import bucket_sizes

    key = confidential_ranks(values, order)
    n = len(key)
    if not 1 <= b <= n:
        raise InvalidParameter(f"b={b!r} must lie in 1..N={n}")
    o = np.lexsort((np.arange(n), key))
    out = np.empty(n, dtype=np.int64)
    out[o] = np.repeat(np.arange(b), bucket_sizes(n, b))
    return out


def release_t_close(values: Any, t: TLike, l: int = 1, *, qi: Any = None,  # noqa: E741
                    b: int | None = None, order: Sequence[Any] | None = None) -> TCloseRelease:
    """The bucketization construction of thesis §7.2.2 / ins15 §6.3 (see module docstring)."""
    arr = np.asarray(values)
    keys = confidential_ranks(arr, order)  # validates
    n = len(arr)
    p = plan(n, t, l, b)
    bucket = bucketize(arr, p.b, order=order)
    rank = qi_key(qi, n)
    o = np.lexsort((rank, bucket))
    labels = np.concatenate([np.repeat(np.arange(len(p.class_sizes)), p.counts[:, j])
                             for j in range(p.b)])
    group = np.empty(n, dtype=np.int64)
    group[o] = labels
    return TCloseRelease(values=arr, group=group, bucket=bucket, plan=p,
                         keys=None if order is None else keys)


def utility(release: TCloseRelease, *, qi: Any = None, rng: RngLike = None) -> dict[str, Any]:
    """Utility of the numerical confidential attribute after release (issue 7, item 6).

    ``sse_midpoint``: Σ (c − midpoint of its bucket)²; ``sse_permuted``: Σ (c − permuted c)²
    (probabilistic k-anonymity, one draw); both also relative to the total SS about the mean.
    ``corr_*``: Pearson correlation of C with each QI column before and after permutation.
    """
    c = release.values.astype(float)
    mid = release.bucket_midpoints()[release.bucket]
    perm, _ = release.permuted(rng=rng)
    sst = float(((c - c.mean()) ** 2).sum()) or 1.0
    out: dict[str, Any] = {
        "sse_midpoint": float(((c - mid) ** 2).sum()),
        "sse_permuted": float(((c - perm.astype(float)) ** 2).sum()),
    }
    out["sse_midpoint_rel"] = out["sse_midpoint"] / sst
    out["sse_permuted_rel"] = out["sse_permuted"] / sst
    if qi is not None:
        q = np.asarray(qi, dtype=float)
        q = q[:, None] if q.ndim == 1 else q
        before = [float(np.corrcoef(q[:, m], c)[0, 1]) for m in range(q.shape[1])]
        after = [float(np.corrcoef(q[:, m], perm.astype(float))[0, 1])
                 for m in range(q.shape[1])]
        out["corr_before"], out["corr_after"] = before, after
        out["corr_max_abs_change"] = float(np.max(np.abs(np.subtract(before, after))))
    return out
