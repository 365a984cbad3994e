"""MDAV-ID, MDAV-SWAP, IR-SWAP (thesis ch.3)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.prob_kanon import ir_swap, mdav_id, mdav_swap, swap_within
from privlab.metrics import check_k_anonymity


def data(n: int = 60) -> np.ndarray:
    g = np.random.default_rng(0)
    return np.round(g.lognormal(3, 0.5, size=(n, 5)), 1)


@pytest.mark.parametrize("fn", [mdav_swap, ir_swap])
def test_swaps_keep_values_and_groups(fn) -> None:
    x = data()
    r = fn(x, 4, confidential=[3, 4], rng=1)
    assert np.array_equal(r.released[:, :3], x[:, :3])  # non-confidential untouched
    for c in (3, 4):
        assert sorted(r.released[:, c]) == sorted(x[:, c])  # a permutation of the values
        lab = r.partitions[c]
        assert (lab[r.permutation[c]] == lab).all()  # moves stay inside groups
        assert np.bincount(lab).min() >= 4
    assert r.min_group_size >= 4
    r2 = fn(x, 4, confidential=[3, 4], rng=1)
    assert np.array_equal(r.released, r2.released)  # seeded


def test_mdav_id_is_k_anonymous() -> None:
    x = data()
    r = mdav_id(x, 5)
    assert check_k_anonymity(r.released, 5).holds


def test_swap_within_uniform() -> None:
    lab = np.array([0, 0, 0, 1, 1])
    g = np.random.default_rng(0)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(6000):
        p = tuple(swap_within(lab, g))
        counts[p] = counts.get(p, 0) + 1
    assert len(counts) == 12 and min(counts.values()) > 350


def test_bad_confidential() -> None:
    with pytest.raises(InvalidParameter, match="confidential"):
        mdav_swap(data(), 3, confidential=[9])
    with pytest.raises(InvalidParameter, match="distinct"):
        ir_swap(data(), 3, confidential=[1, 1])
