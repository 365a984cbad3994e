"""Probabilistic k-anonymity by microaggregation and swapping (thesis ch.3, §3.3–3.4).

Three methods, for *informed* intruders (§3.3.2: intruder I_i knows every attribute except the
confidential attribute A_i; every attribute may be used for re-identification):

* :func:`mdav_id` — MDAV-ID: MDAV on all attributes (all are quasi-identifiers for informed
  intruders, §3.1), every value replaced by its cluster centroid.  k-anonymous.
* :func:`mdav_swap` — MDAV-SWAP: for each confidential attribute A_i, MDAV on every *other*
  attribute of the original data gives groups of k … 2k − 1 records, and the values of A_i are
  permuted uniformly at random within each group ("the reverse permutation on the single
  confidential attribute unknown to the current intruder", §3.3.2).  One swap per confidential
  attribute; the partitions come from the original data, so the swaps do not interact.
* :func:`ir_swap` — IR-SWAP (§3.3.3): for each confidential attribute, individual-ranking
  groups on that attribute (k consecutive values, the last group k … 2k − 1) and a uniform
  random permutation of its values within each group.

Swapping keeps every attribute's multiset of values (so means and variances), and
non-confidential attributes are never modified.  Within a group of size g, the intruder's
probability of linking a record to its confidential value is 1/g ≤ 1/k (§3.3.1; checked
exactly by :mod:`privlab.verify.microaggregation.prob_kanon`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.core import as_table, check_k, finish
from privlab.mechanisms.microaggregation.mdav_algorithm import mdav_labels
from privlab.mechanisms.microaggregation.ranking import consecutive_labels

__all__ = ["SwapResult", "group_order", "ir_swap", "ir_swap_partitions", "mdav_id",
           "mdav_swap", "mdav_swap_partitions", "swap_released", "swap_within"]


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@attrs.frozen(kw_only=True, eq=False)
class SwapResult:
    """A swapped release: ``released`` (n, m) in input row order; ``partitions[c]`` the group
    labels used for confidential column index ``c``; ``permutation[c]`` the source row of each
    released value of that column (released[i, c] = original[permutation[c][i], c])."""

    method: str
    k: int
    released: np.ndarray = attrs.field(converter=_ro)
    confidential: tuple[int, ...]
    partitions: dict[int, np.ndarray]
    permutation: dict[int, np.ndarray]
    columns: tuple[str, ...] = ()

    @property
    def min_group_size(self) -> int:
        return int(min(np.bincount(p).min() for p in self.partitions.values()))

    def to_frame(self, data: Any = None) -> Any:
        import pandas as pd

        if data is None:
            return pd.DataFrame(np.array(self.released), columns=list(self.columns))
        out = data.copy()
        for j, c in enumerate(self.columns):
            out[c] = self.released[:, j]
        return out


def _confidential(conf: Any, names: tuple[str, ...]) -> tuple[int, ...]:
    m = len(names)
    if conf is None:
        raise InvalidParameter("confidential must name at least one column")
    items = [conf] if isinstance(conf, str | int | np.integer) else list(conf)
    out = []
    for c in items:
        if isinstance(c, str):
            if c not in names:
                raise InvalidParameter(f"confidential={c!r} is not among the columns "
                                       f"{list(names)!r}")
            out.append(names.index(c))
        elif isinstance(c, int | np.integer) and 0 <= int(c) < m:
            out.append(int(c))
        else:
            raise InvalidParameter(f"confidential={c!r} must be a column name or index < {m}")
    if not out or len(set(out)) != len(out):
        raise InvalidParameter(f"confidential={conf!r} must list distinct columns")
    return tuple(out)


def _small_labels(labels: np.ndarray) -> np.ndarray:
    """``labels`` as uint16 when they are integers in [0, 2^16) (radix sorts), else as given."""
    lab = np.asarray(labels)
    if lab.shape[0] and lab.dtype.kind in "iu" and 0 <= lab.min() and lab.max() < 1 << 16:
        lab = lab.astype(np.uint16)
    return lab


def group_order(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(lab, grouped)`` for :func:`swap_within`: the labels in their sort dtype and the rows
    in the lexicographic order (label, row) — the part of a swap that depends only on the
    partition, so that repeated swaps of one partition can compute it once (read-only)."""
    lab = _small_labels(labels)
    if np.shares_memory(lab, labels):
        lab = lab.copy()  # read-only below: never change the caller's array
    lab.setflags(write=False)
    grouped = np.argsort(lab, kind="stable")
    grouped.setflags(write=False)
    return lab, grouped


def swap_within(labels: np.ndarray, g: np.random.Generator,
                order: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """A uniformly random permutation ``p`` of the rows that maps each group onto itself:
    row i receives the value of row ``p[i]`` (same group).

    Groups in label order with rows ascending (``grouped``), and the same groups with their
    rows ordered by one uniform draw each (``shuffled``; ties by row): the lexicographic
    orders (label, row) and (label, draw, row), computed as stable sorts by label after an
    order of the rows (radix sorts for small labels).  ``order`` = :func:`group_order` of
    ``labels`` when the caller has it (one draw of n uniforms either way)."""
    n = labels.shape[0]
    lab, grouped = order if order is not None else group_order(labels)
    u = g.random(n)
    if lab.dtype == np.uint16:
        # one sort instead of two: the float key label + u orders the rows as (label, u)
        # wherever its values are distinct (rounding is monotone and label + u ≤ label + 1,
        # so two keys can only meet, never cross); with a tie, the two-sort path below
        key = lab + u
        shuffled = key.argsort()
        sk = key[shuffled]
        if not np.any(sk[1:] == sk[:-1]):
            p = np.empty(n, dtype=np.int64)
            p[grouped] = shuffled
            return p
    by_draw = np.argsort(u)
    su = u[by_draw]
    if np.any(su[1:] == su[:-1]):  # tied draws: keep the row order among them
        by_draw = np.argsort(u, kind="stable")
    shuffled = by_draw[np.argsort(lab[by_draw], kind="stable")]
    p = np.empty(n, dtype=np.int64)
    p[grouped] = shuffled
    return p


def swap_released(x: np.ndarray, orders: dict[int, tuple[np.ndarray, np.ndarray]],
                  g: np.random.Generator) -> np.ndarray:
    """The ``released`` table of :func:`mdav_swap` / :func:`ir_swap` on a validated float
    table ``x`` for partitions given by their :func:`group_order` per confidential column
    (in the order of the columns): the same draws, in the same order, as those functions."""
    out = x.copy()
    for c, order in orders.items():
        out[:, c] = x[swap_within(order[0], g, order), c]
    return out


def mdav_swap_partitions(x: np.ndarray, k: int, conf: Sequence[int],
                         distance: str = "standardised") -> dict[int, np.ndarray]:
    """For each confidential column c, MDAV labels on every other column (original data)."""
    m = x.shape[1]
    out = {}
    for c in conf:
        others = [j for j in range(m) if j != c]
        if not others:
            raise InvalidParameter("MDAV-SWAP needs at least one attribute besides the "
                                   "confidential one")
        out[c] = mdav_labels(np.ascontiguousarray(x[:, others]), k, distance)
    return out


def ir_swap_partitions(x: np.ndarray, k: int, conf: Sequence[int]) -> dict[int, np.ndarray]:
    """For each confidential column c, individual-ranking groups on c (ties: whole record
    lexicographically, then input position)."""
    m = x.shape[1]
    rest = tuple(x[:, j] for j in range(m - 1, -1, -1))
    return {c: consecutive_labels(np.lexsort((*rest, x[:, c])), k) for c in conf}


def _swap(method: str, x: np.ndarray, names: tuple[str, ...], k: int,
          parts: dict[int, np.ndarray], rng: Any) -> SwapResult:
    g = as_generator(rng)
    out = x.copy()
    perms = {}
    for c, lab in parts.items():
        p = swap_within(lab, g)
        out[:, c] = x[p, c]
        perms[c] = p
    return SwapResult(method=method, k=k, released=out, confidential=tuple(parts),
                      partitions=parts, permutation=perms, columns=names)


def mdav_id(data: Any, k: int, *, columns: Any = None, distance: str = "standardised") -> Any:
    """MDAV-ID: MDAV on all selected attributes, values replaced by centroids (k-anonymous)."""
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    return finish("mdav-id", x, mdav_labels(x, k, distance), k, names, {"distance": distance})


def mdav_swap(data: Any, k: int, *, confidential: Any, columns: Any = None,
              distance: str = "standardised", rng: Any = None,
              partitions: dict[int, np.ndarray] | None = None) -> SwapResult:
    """MDAV-SWAP (module doc).  ``partitions`` (from :func:`mdav_swap_partitions`) may be
    passed to reuse the deterministic MDAV step across random runs."""
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    conf = _confidential(confidential, names)
    parts = partitions if partitions is not None else mdav_swap_partitions(x, k, conf, distance)
    return _swap("mdav-swap", x, names, k, {c: parts[c] for c in conf}, rng)


def ir_swap(data: Any, k: int, *, confidential: Any, columns: Any = None, rng: Any = None,
            partitions: dict[int, np.ndarray] | None = None) -> SwapResult:
    """IR-SWAP (module doc)."""
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    conf = _confidential(confidential, names)
    parts = partitions if partitions is not None else ir_swap_partitions(x, k, conf)
    return _swap("ir-swap", x, names, k, {c: parts[c] for c in conf}, rng)
