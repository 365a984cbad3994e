"""Risk and utility measures."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.metrics import (
    check_k_anonymity,
    check_l_diversity,
    correlation_differences,
    delta_mean,
    delta_variance,
    js_divergence,
    record_linkage,
    relative_error,
    sse,
)


def test_sse_and_identity() -> None:
    x = np.array([[0.0, 1], [2, 3]])
    y = np.array([[1.0, 1], [2, 5]])
    assert sse(x, y) == 5.0
    assert sse(x, x) == 0 and relative_error(x, x) == 0 and js_divergence(x, x) == 0


def test_record_linkage_ties_shared() -> None:
    x = np.array([[0.0], [1.0], [5.0], [9.0]])
    assert record_linkage(x, x, scale="raw") == 100.0
    # the release of record 0 and 1 sits halfway: both originals tie → 1/2 each
    y = np.array([[0.5], [0.5], [5.0], [4.9]])
    rl, p = record_linkage(x, y, scale="raw", per_record=True)
    assert p.tolist() == [0.5, 0.5, 1.0, 0.0] and rl == pytest.approx(50.0)


def test_relative_error_sanity_bound() -> None:
    x = np.array([[0.0], [100.0]])
    y = np.array([[1.0], [110.0]])
    # default sanity = range/100 = 1: errors 1/1 and 10/100
    assert relative_error(x, y) == pytest.approx((1 + 0.1) / 2)
    assert relative_error(x, y, sanity=10) == pytest.approx((0.1 + 0.1) / 2)


def test_jsd_bounds() -> None:
    x = np.zeros((10, 1))
    y = np.ones((10, 1))
    assert js_divergence(x, y, bounds=[0, 1]) == pytest.approx(1.0)


def test_deltas_and_correlations() -> None:
    g = np.random.default_rng(0)
    x = g.normal(size=(200, 3)) + 5
    y = x.copy()
    y[:, 2] = g.permutation(y[:, 2])
    assert np.allclose(delta_mean(x, y), 0) and np.allclose(delta_variance(x, y), 0)
    d = correlation_differences(x, y, [2])
    assert d["pairs"] == [(0, 2), (1, 2)] and d["mean"] >= 0


def test_k_anonymity_and_l_diversity() -> None:
    rel = np.array([[1.0, 1], [1, 1], [2, 2], [2, 2], [2, 2]])
    assert check_k_anonymity(rel, 2).holds and not check_k_anonymity(rel, 3).holds
    conf = np.array([5, 5, 1, 2, 3])
    r = check_l_diversity(rel, conf, 2)
    assert not r.holds and r.value == 1
    assert check_l_diversity(rel, conf, 1).holds


def test_bad_input() -> None:
    with pytest.raises(InvalidParameter, match="same shape"):
        sse(np.zeros((2, 2)), np.zeros((3, 2)))
    with pytest.raises(InvalidParameter, match="confidential"):
        correlation_differences(np.zeros((3, 2)), np.zeros((3, 2)), [5])
