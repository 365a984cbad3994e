"""Exact Definition-5 checker for the swap methods."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity, posterior

Q = np.array([[1, 5], [2, 3], [3, 9], [4, 1], [5, 2], [6, 7]], dtype=float)
C = np.array([10, 40, 20, 50, 30, 60], dtype=float)


@pytest.mark.parametrize("method", ["ir-swap", "mdav-swap"])
@pytest.mark.parametrize("k", [2, 3])
def test_bound_is_exactly_one_over_group_size(method: str, k: int) -> None:
    r = check_probabilistic_k_anonymity(Q, C, k, method=method)
    assert r.holds
    assert r.evidence["max_posterior"] == Fraction(1, min(r.evidence["group_sizes"]))


def test_controls_are_caught() -> None:
    assert check_probabilistic_k_anonymity(Q, C, 3, mechanism="reverse").value == 1
    r = check_probabilistic_k_anonymity(Q, C, 3, method="ir-swap-small-groups")
    assert not r.holds and r.value == Fraction(1, 2)


def test_posterior_rows_sum_to_one() -> None:
    from privlab.verify.microaggregation.prob_kanon import PARTITIONS

    post = posterior(Q[:4], C[:4], 2, PARTITIONS["ir-swap"])
    assert all(sum(row) == 1 for row in post)


def test_limits() -> None:
    with pytest.raises(InvalidParameter, match="too large"):
        check_probabilistic_k_anonymity(np.zeros((8, 1)), np.arange(8), 2)
    with pytest.raises(InvalidParameter, match="method"):
        check_probabilistic_k_anonymity(Q, C, 2, method="x")
