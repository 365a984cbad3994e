"""Shared pieces of the microaggregation family (issue 5): input tables, declared domains,
canonical record order, centroids and the frozen result type.

* :func:`as_table` turns a numpy array or a pandas DataFrame (optionally a subset of its
  columns) into a float ``(n, m)`` array, rejecting NaN/inf, empty input and unknown columns.
* :class:`Domain` is the user's declaration of the attribute bounds ``[lo_j, hi_j]``.  The
  insensitive variants fix their orders from the domain alone (thesis §6.3.1: "the domain is not
  defined by the actual records in X"); data outside the declared domain is rejected.
* :func:`canonical_order` sorts the records lexicographically by their values (column order),
  stably.  Every data-dependent algorithm runs on the records in this order, so its output does
  not depend on how the rows were presented: permuting the input rows permutes the output rows
  (identical records are interchangeable).  Ties inside the algorithms are broken by the
  position in this order, i.e. by the records' values, lexicographically.
* :class:`MicroaggregationResult` holds the labels, centroids (means, original units) and the
  released array (each record replaced by its cluster's centroid).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["Domain", "MicroaggregationResult", "as_table", "canonical_order", "centroids_of",
           "check_k", "parse_bounds"]


def _is_frame(data: Any) -> bool:
    return type(data).__name__ == "DataFrame" and hasattr(data, "columns")


def as_table(data: Any, columns: Sequence[Any] | str | None = None,
             name: str = "data") -> tuple[np.ndarray, tuple[str, ...]]:
    """``(x, names)``: the selected columns of ``data`` as a C-contiguous float64 ``(n, m)``
    array and their names.  A 1-D input is one attribute.  Raises :class:`InvalidParameter`
    (naming the row and column) for NaN or infinite values, for an empty table and for columns
    that do not exist."""
    if isinstance(columns, str):
        columns = [c.strip() for c in columns.split(",") if c.strip()]
    if _is_frame(data):
        cols = list(data.columns) if columns is None else list(columns)
        missing = [c for c in cols if c not in data.columns]
        if missing:
            raise InvalidParameter(f"columns={missing!r} are not columns of {name} "
                                   f"(it has {list(data.columns)!r})")
        try:
            x = data[cols].to_numpy(dtype=float)
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"columns={cols!r} of {name} must be numerical: {exc}") from exc
        names = tuple(str(c) for c in cols)
    else:
        try:
            x = np.asarray(data, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"{name} must be a numerical table: {exc}") from exc
        if x.ndim == 1:
            x = x[:, None]
        if x.ndim != 2:
            raise InvalidParameter(f"{name} of shape {x.shape} must be a (n, m) table")
        if columns is not None:
            idx = list(columns)
            bad = [c for c in idx if not (isinstance(c, int | np.integer) and
                                          -x.shape[1] <= int(c) < x.shape[1])]
            if bad:
                raise InvalidParameter(f"columns={bad!r} must be column indices of the "
                                       f"{x.shape[1]}-column {name}")
            x = x[:, [int(c) for c in idx]]
            names = tuple(f"x{int(c) % max(x.shape[1], 1)}" for c in idx)
        else:
            names = tuple(f"x{j}" for j in range(x.shape[1]))
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise InvalidParameter(f"{name} of shape {x.shape} must have at least one row and one "
                               f"column")
    bad = ~np.isfinite(x)
    if bad.any():
        r, c = (int(t) for t in np.argwhere(bad)[0])
        raise InvalidParameter(f"{name} has a non-finite value {float(x[r, c])!r} in row {r}, "
                               f"column {names[c]!r}")
    return np.ascontiguousarray(x, dtype=np.float64), names


def check_k(k: Any, n: int) -> int:
    """``k`` as an int with ``1 <= k <= n``."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer | float) or k != int(k):
        raise InvalidParameter(f"k={k!r} must be a positive integer")
    k = int(k)
    if k < 1:
        raise InvalidParameter(f"k={k} must be >= 1")
    if k > n:
        raise InvalidParameter(f"k={k} must be <= the number of records n={n}")
    return k


_BOUND_RE = re.compile(r"^\s*([^=]+?)\s*=\s*([^:]+?)\s*:\s*(.+?)\s*$")


def parse_bounds(text: str) -> dict[str, tuple[float, float]]:
    """``"A=0:10,B=-1:1"`` → ``{"A": (0, 10), "B": (-1, 1)}``."""
    out: dict[str, tuple[float, float]] = {}
    for part in (p for p in str(text).split(",") if p.strip()):
        mt = _BOUND_RE.match(part)
        if mt is None:
            raise InvalidParameter(f"bounds={text!r}: {part!r} must look like NAME=LO:HI")
        try:
            out[mt.group(1)] = (float(mt.group(2)), float(mt.group(3)))
        except ValueError:
            raise InvalidParameter(f"bounds={text!r}: {part!r} must have numerical LO:HI") \
                from None
    if not out:
        raise InvalidParameter(f"bounds={text!r} must give NAME=LO:HI for each column")
    return out


@attrs.frozen(kw_only=True, eq=False)
class Domain:
    """Declared bounds ``lower[j] <= x_j <= upper[j]`` of each attribute (never read off the
    data).  ``lower < upper`` must hold for every attribute."""

    lower: np.ndarray
    upper: np.ndarray
    names: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        lo, hi = np.asarray(self.lower, float), np.asarray(self.upper, float)
        if lo.shape != hi.shape or lo.ndim != 1 or lo.size == 0:
            raise InvalidParameter(f"bounds lower={lo!r} and upper={hi!r} must be equal-length "
                                   f"vectors")
        if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
            raise InvalidParameter(f"bounds lower={lo.tolist()!r}, upper={hi.tolist()!r} must "
                                   f"be finite")
        bad = np.flatnonzero(~(hi > lo))
        if bad.size:
            j = int(bad[0])
            nm = self.names[j] if j < len(self.names) else str(j)
            raise InvalidParameter(f"bounds of column {nm!r}: lo={lo[j]!r} must be < hi={hi[j]!r}")
        lo.setflags(write=False)
        hi.setflags(write=False)
        object.__setattr__(self, "lower", lo)
        object.__setattr__(self, "upper", hi)

    @property
    def m(self) -> int:
        return int(self.lower.size)

    @property
    def width(self) -> np.ndarray:
        return self.upper - self.lower

    @classmethod
    def parse(cls, bounds: Any, names: Sequence[str]) -> Domain:
        """Bounds for the columns ``names`` from a :class:`Domain`, a mapping ``name -> (lo,
        hi)``, a string ``"A=LO:HI,B=LO:HI"``, a ``(m, 2)`` array / list of pairs, or a single
        pair used for every column."""
        names = tuple(names)
        m = len(names)
        if isinstance(bounds, Domain):
            if bounds.m != m:
                raise InvalidParameter(f"bounds declare {bounds.m} attributes, data has {m}")
            return cls(lower=bounds.lower, upper=bounds.upper, names=names)
        if bounds is None:
            raise InvalidParameter("bounds=None: this method needs the declared domain of every "
                                   "column (bounds per attribute)")
        if isinstance(bounds, str):
            bounds = parse_bounds(bounds)
        if isinstance(bounds, Mapping):
            unknown = [c for c in bounds if str(c) not in names]
            missing = [c for c in names if c not in {str(b) for b in bounds}]
            if unknown:
                raise InvalidParameter(f"bounds name columns {unknown!r} that are not among "
                                       f"{list(names)!r}")
            if missing:
                raise InvalidParameter(f"bounds are missing for columns {missing!r}")
            lut = {str(c): v for c, v in bounds.items()}
            try:
                pairs = np.array([[float(t) for t in lut[c]] for c in names], dtype=float)
            except (TypeError, ValueError) as exc:
                raise InvalidParameter(f"bounds={bounds!r} must map each column to (lo, hi)") \
                    from exc
        else:
            try:
                pairs = np.asarray(bounds, dtype=float)
            except (TypeError, ValueError) as exc:
                raise InvalidParameter(f"bounds={bounds!r} must be (lo, hi) pairs") from exc
            if pairs.shape == (2,):
                pairs = np.repeat(pairs[None, :], m, axis=0)
        if pairs.ndim != 2 or pairs.shape != (m, 2):
            raise InvalidParameter(f"bounds of shape {pairs.shape} must give (lo, hi) for each "
                                   f"of the {m} columns {list(names)!r}")
        return cls(lower=pairs[:, 0], upper=pairs[:, 1], names=names)

    def check(self, x: np.ndarray) -> None:
        """Raise :class:`InvalidParameter` naming the first value outside the domain."""
        if x.shape[1] != self.m:
            raise InvalidParameter(f"data has {x.shape[1]} columns, the domain declares "
                                   f"{self.m}")
        out = (x < self.lower) | (x > self.upper)
        if out.any():
            r, c = (int(t) for t in np.argwhere(out)[0])
            nm = self.names[c] if c < len(self.names) else str(c)
            raise InvalidParameter(f"value {float(x[r, c])!r} in row {r}, column {nm!r} lies "
                                   f"outside the declared domain [{self.lower[c]:g}, "
                                   f"{self.upper[c]:g}]")

    def scale(self, x: np.ndarray) -> np.ndarray:
        """``(x - lower) / (upper - lower)``: the domain becomes [0, 1]^m."""
        return (x - self.lower) / self.width

    def corner(self, bits: Sequence[int]) -> np.ndarray:
        """The corner with ``upper[j]`` where ``bits[j]`` is 1 and ``lower[j]`` elsewhere."""
        b = np.asarray(bits, dtype=bool)
        return np.where(b, self.upper, self.lower)

    def to_dict(self) -> dict[str, Any]:
        names = self.names or tuple(str(j) for j in range(self.m))
        return {n: [float(lo), float(hi)] for n, lo, hi in
                zip(names, self.lower, self.upper, strict=True)}


def canonical_order(x: np.ndarray) -> np.ndarray:
    """Permutation sorting the rows lexicographically by value (column 0 first), stably."""
    keys = tuple(x[:, j] for j in range(x.shape[1] - 1, -1, -1))
    return np.lexsort(keys) if keys else np.arange(x.shape[0])


def centroids_of(x: np.ndarray, labels: np.ndarray, q: int | None = None) -> np.ndarray:
    """Cluster means ``(q, m)`` (original units): row i is the mean of the records with label i
    (for ``(n, m)`` labels, column j uses labels[:, j])."""
    n, m = x.shape
    lab = labels if labels.ndim == 2 else np.broadcast_to(labels[:, None], (n, m))
    q = int(lab.max()) + 1 if q is None else q
    out = np.empty((q, m))
    for j in range(m):
        sums = np.bincount(lab[:, j], weights=x[:, j], minlength=q)
        cnt = np.bincount(lab[:, j], minlength=q)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:, j] = sums / cnt
    return out


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@attrs.frozen(kw_only=True, eq=False)
class MicroaggregationResult:
    """Outcome of one microaggregation.

    ``labels``: cluster of each record, ``(n,)`` (multivariate methods; clusters numbered in the
    order they were formed) or ``(n, m)`` (individual ranking: one partition per attribute,
    numbered along that attribute's order).  ``centroids``: ``(q, m)`` cluster means in the
    original units (column j of an individual-ranking result holds attribute j's centroids).
    ``released``: ``(n, m)``, each value replaced by its cluster's centroid, rows in input
    order.  Arrays are read-only.
    """

    method: str
    k: int
    labels: np.ndarray = attrs.field(converter=_ro)
    centroids: np.ndarray = attrs.field(converter=_ro)
    released: np.ndarray = attrs.field(converter=_ro)
    columns: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def n(self) -> int:
        return int(self.released.shape[0])

    @property
    def n_groups(self) -> int:
        return int(self.centroids.shape[0])

    def group_sizes(self, attribute: int = 0) -> np.ndarray:
        lab = self.labels if self.labels.ndim == 1 else self.labels[:, attribute]
        return np.bincount(lab, minlength=self.n_groups)

    @property
    def min_group_size(self) -> int:
        m = 1 if self.labels.ndim == 1 else self.labels.shape[1]
        return int(min(self.group_sizes(j).min() for j in range(m)))

    @property
    def max_group_size(self) -> int:
        m = 1 if self.labels.ndim == 1 else self.labels.shape[1]
        return int(max(self.group_sizes(j).max() for j in range(m)))

    def groups(self, attribute: int = 0) -> tuple[np.ndarray, ...]:
        """Row indices of each cluster (of ``attribute``'s partition for individual ranking)."""
        lab = self.labels if self.labels.ndim == 1 else self.labels[:, attribute]
        order = np.argsort(lab, kind="stable")
        cuts = np.cumsum(np.bincount(lab, minlength=self.n_groups))[:-1]
        return tuple(np.split(order, cuts))

    def to_frame(self, data: Any = None) -> Any:
        """A pandas DataFrame: ``data`` (a DataFrame holding the microaggregated columns) with
        those columns replaced by the released values, or the released columns alone."""
        import pandas as pd

        if data is None:
            return pd.DataFrame(np.array(self.released), columns=list(self.columns))
        out = data.copy()
        for j, c in enumerate(self.columns):
            out[c] = self.released[:, j]
        return out

    def summary(self) -> dict[str, Any]:
        return {"method": self.method, "k": self.k, "n": self.n, "groups": self.n_groups,
                "min_group_size": self.min_group_size, "max_group_size": self.max_group_size,
                "columns": list(self.columns), **dict(self.parameters)}


def finish(method: str, x: np.ndarray, labels: np.ndarray, k: int, names: tuple[str, ...],
           parameters: Mapping[str, Any]) -> MicroaggregationResult:
    """Build the result: centroids as means and the released array."""
    cen = centroids_of(x, labels)
    if labels.ndim == 1:
        rel = cen[labels]
    else:
        rel = np.take_along_axis(cen, labels, axis=0)
    return MicroaggregationResult(method=method, k=k, labels=labels.astype(np.int64),
                                  centroids=cen, released=rel, columns=names,
                                  parameters=dict(parameters))


def sizes_ok(sizes: np.ndarray, k: int, n: int) -> bool:
    """Every group in [k, 2k - 1] (or the single group of n < 2k records)."""
    if n < 2 * k:
        return len(sizes) == 1
    return bool((sizes >= k).all() and (sizes <= 2 * k - 1).all())


