# ruff: noqa: E741
"""The per-process memos of ``privlab.mechanisms.tcloseness.counts`` (``as_fraction_t``,
``printed_counts``, ``counts_exist``) give what the former unmemoised code gave — kept here
as the oracle — on a sweep of (N, t, l, b), in any call order (a memo keyed on fewer inputs
would return another case's answer); callers get their own writable matrix; t's type matters
(True is refused while 1 is accepted)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.tcloseness import counts as tc


def old_as_fraction_t(t):
    if isinstance(t, bool):
        raise InvalidParameter(f"t={t!r} must be a real number >= 1, not a bool")
    try:
        f = Fraction(repr(t)) if isinstance(t, float) else Fraction(t)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise InvalidParameter(f"t={t!r} must be a real number >= 1") from None
    if f < 1:
        raise InvalidParameter(f"t={t!r} must be >= 1")
    return f


def old_printed_counts(n, t, l, b=None):
    n, tf, l, b = tc.validate(n, t, l, b)
    rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
    lo, hi = tc.bounds(n, tf, rows, cols)
    h = tc.emphasis(len(rows), b)
    cnt = lo.copy()
    idx = np.arange(len(rows))
    cnt[idx, h] = 0
    cnt[idx, h] = rows - cnt.sum(axis=1)
    fails = []
    bad = np.argwhere((cnt < lo) | (cnt > hi))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        fails.append(f"count n[{i + 1},{j + 1}]={int(cnt[i, j])} outside [L, U] = "
                     f"[{int(lo[i, j])}, {int(hi[i, j])}] ({len(bad)} entries)")
    colsum = cnt.sum(axis=0)
    if not np.array_equal(colsum, cols):
        fails.append(f"column sums {colsum.tolist()} != bucket sizes {cols.tolist()}")
    return cnt, tuple(fails)


def old_counts_exist(n, tf, l, b):
    rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
    lo, hi = tc.bounds(n, Fraction(tf), rows, cols)
    if (hi < lo).any():
        return False
    x = tc._small_flow_counts(lo, hi, rows, cols)
    return x is not None and tc.valid_counts(x, lo, hi, rows, cols)


def _cases():
    for t in (1.2, 1.5, 2, 2.5, 3, Fraction(7, 3), "5/2"):
        b0 = math.ceil(old_as_fraction_t(t)) + 1
        for n in range(b0 * b0, 70, 3):
            for b in range(b0, 1, -1):
                for l in tc.l_range(n, b):
                    yield n, t, l, b


def test_memos_equal_the_former_code_in_any_order() -> None:
    tc._printed_counts.cache_clear()
    tc._counts_exist.cache_clear()
    cases = list(_cases())
    assert len(cases) > 300
    order = np.random.default_rng(0).permutation(len(cases))
    for rep in range(2):  # the second pass answers from the memos
        for i in order if rep else range(len(cases)):
            n, t, l, b = cases[i]
            tf = old_as_fraction_t(t)
            assert tc.as_fraction_t(t) == tf and type(tc.as_fraction_t(t)) is Fraction
            got, want = tc.printed_counts(n, t, l, b), old_printed_counts(n, t, l, b)
            assert got[1] == want[1]
            assert got[0].dtype == want[0].dtype and np.array_equal(got[0], want[0])
            assert tc.counts_exist(np.int64(n), tf, l, b) is old_counts_exist(n, tf, l, b)


def test_callers_get_their_own_matrix() -> None:
    first, _ = tc.printed_counts(30, 2, 2)
    want = first.copy()
    assert first.flags.writeable
    first[:] = -7  # the caller's copy
    again, _ = tc.printed_counts(30, 2, 2)
    assert np.array_equal(again, want)


@pytest.mark.parametrize("t", [True, 0.5, "x", float("nan"), [2], None])
def test_bad_t_still_refused_after_good_ones(t) -> None:
    assert tc.as_fraction_t(1) == 1 and tc.as_fraction_t(1.0) == 1
    with pytest.raises(InvalidParameter):
        tc.as_fraction_t(t)
    with pytest.raises(InvalidParameter):
        tc.as_fraction_t(t)  # an error is not remembered as a value
