"""``_lp_counts`` passes small transportation LPs to ``linprog`` as a dense matrix; the former
sparse build is kept here as the oracle: on cases of the construction sweep (even N ≤ 60)
and on larger ones around the dense/sparse limit, HiGHS returns the same solution floats
(bit for bit) and the same count matrix, or fails the same way."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from privlab.mechanisms.tcloseness import counts as tc


def old_lp_counts(lo, hi, rows, cols, h):
    from scipy import sparse

    e, b = lo.shape
    nv = e * b
    r_idx = np.repeat(np.arange(e), b)
    c_idx = np.tile(np.arange(b), e)
    a_eq = sparse.csr_matrix((np.ones(2 * nv), (np.concatenate([r_idx, e + c_idx]),
                                                np.tile(np.arange(nv), 2))), shape=(e + b, nv))
    cost = np.zeros(nv)
    cost[np.arange(e) * b + h] = -1.0
    res = optimize.linprog(cost, A_eq=a_eq, b_eq=np.concatenate([rows, cols]).astype(float),
                           bounds=np.column_stack([lo.ravel(), hi.ravel()]).astype(float),
                           method="highs-ds")
    if res.status != 0:
        return None
    return np.rint(res.x).astype(np.int64).reshape(e, b)


def _instances():
    for t in (1.5, 2, 3):
        tf = tc.as_fraction_t(t)
        for n in range(4, 61, 2):
            for b in range(tc.n_buckets(tf), 1, -1):
                for l in range(1, n // (b * b) + 1):  # noqa: E741
                    yield n, tf, l, b
    for n, t, l in ((700, 2, 20), (1500, 2, 45)):  # noqa: E741
        tf = tc.as_fraction_t(t)
        yield n, tf, l, tc.n_buckets(tf)


@pytest.fixture
def record_linprog(monkeypatch):
    seen = []
    real = optimize.linprog

    def spy(*a, **k):
        res = real(*a, **k)
        seen.append((res.status, None if res.x is None else res.x.tobytes()))
        return res

    monkeypatch.setattr(optimize, "linprog", spy)
    return seen


def test_dense_lp_equals_the_sparse_build(record_linprog) -> None:
    sizes = set()
    for n, tf, l, b in _instances():  # noqa: E741
        rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
        lo, hi = tc.bounds(n, tf, rows, cols)
        if (hi < lo).any():
            continue
        h = tc.emphasis(len(rows), b)
        got = tc._lp_counts(lo, hi, rows, cols, h)
        want = old_lp_counts(lo, hi, rows, cols, h)
        assert record_linprog[-2] == record_linprog[-1]  # same status, same solution bits
        assert (got is None) == (want is None)
        assert got is None or np.array_equal(got, want)
        sizes.add(lo.size <= tc.DENSE_LP)
    assert sizes == {True, False}  # both paths exercised
    assert any(s == 0 for s, _ in record_linprog) and any(s != 0 for s, _ in record_linprog)
