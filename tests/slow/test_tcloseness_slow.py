"""Slow: the full rounding sweep behind thesis:sec-7.2.2-count-rules (N ≤ 120, all l)."""

from __future__ import annotations

import pytest

from privlab.proofs.tcloseness import checks as ck
from privlab.types import Status, status_of

pytestmark = pytest.mark.slow


def test_rounding_sweep_is_consistent_and_refutes_printed_rule():
    rows = ck.rounding_sweep()
    for r in rows:
        assert r["printed_ok"] + r["exact_needed"] + r["infeasible_at_b"] == r["cases"]
        assert r["solved_with_fewer_buckets"] <= r["infeasible_at_b"]
    # integer t > 1: every case is solvable with b = t + 1 buckets (t = 1 asks every class to
    # have the marginal distribution exactly, which most (N, l) do not allow)
    assert all(r["infeasible_at_b"] == 0 for r in rows
               if float(r["t"]).is_integer() and r["t"] > 1)
    res = ck.check_printed_rules()
    assert status_of(res) == Status.REFUTED
    assert res.counterexample["N"] == 10 or res.counterexample["t"] == 1.2
