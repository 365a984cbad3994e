"""Certification of microaggregated DP releases (privlab.verify.releases.certificate)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.releases.numerical import order_partition
from privlab.verify.releases.certificate import certify_dp_release, leak_pair
from privlab.verify.releases.exact import sweep


def test_sources_scales_at_census_shape() -> None:
    # thesis scale: q = 32 clusters, bound q·m/k in units vs scale m/(kε) → ε_cert = q·ε
    c = certify_dp_release("insensitive-mdav", "thesis", 1080, 33, 1.0, 4)
    assert c.certified_epsilon == pytest.approx(1080 // 33) and not c.holds
    c = certify_dp_release("insensitive-mdav", "vldb14", 1080, 33, 1.0, 4)
    assert c.certified_epsilon == pytest.approx((1080 // 33) / (1080 / 33)) and c.holds
    c = certify_dp_release("individual-ranking", "irm", 1080, 33, 0.5, 1)
    assert c.certified_epsilon == pytest.approx(0.5) and c.holds
    c = certify_dp_release("none", "thesis", 1080, 1, 2.0, 4)
    assert c.certified_epsilon == pytest.approx(2.0)


@pytest.mark.parametrize(("micro", "m", "rows", "neighbour"), [
    ("insensitive-mdav", 2, "aligned", "substitute"),
    ("individual-ranking", 1, "aligned", "substitute"),
    ("individual-ranking", 2, "shuffled", "substitute"),
    ("insensitive-mdav", 1, "shuffled", "add-remove"),
])
def test_leaks_have_counterexamples(micro: str, m: int, rows: str, neighbour: str) -> None:
    c = certify_dp_release(micro, "vldb14", 6, 2, 1.0, m, "shared", rows, neighbour)
    assert c.certified_epsilon is None and c.counterexample is not None
    if neighbour == "add-remove":
        return
    # replay the leak with the release's partition: the tie pattern differs
    x, xp = (np.array(c.counterexample[key]) for key in ("x", "x_prime"))
    la, _ = order_partition(x, 2, micro)
    lb, _ = order_partition(xp, 2, micro)
    la, lb = la.reshape(6, -1), lb.reshape(6, -1)
    pat = [sorted(map(tuple, la)).count(tuple(r)) for r in la]
    patb = [sorted(map(tuple, lb)).count(tuple(r)) for r in lb]
    if rows == "aligned":
        assert (la[0] == la[1]).all() and not (lb[0] == lb[1]).all()
    else:
        assert min(pat) >= 2 and min(patb) == 1


def test_per_record_is_finite_and_k_times_worse() -> None:
    s = certify_dp_release("individual-ranking", "irm", 100, 10, 1.0, 1, "shared")
    p = certify_dp_release("individual-ranking", "irm", 100, 10, 1.0, 1, "per-record")
    assert p.certified_epsilon == pytest.approx(10 * s.certified_epsilon)
    a = certify_dp_release("insensitive-mdav", "thesis", 100, 10, 1.0, 2, "per-record", "aligned")
    assert a.certified_epsilon is not None and leak_pair(a.config) is None


@pytest.mark.parametrize(("n", "k", "kind"), [(4, 2, "insensitive-mdav"),
                                              (4, 2, "individual-ranking")])
def test_bounds_dominate_exhaustive_sensitivity(n: int, k: int, kind: str) -> None:
    s = sweep(n, k, 1, kind, grid=3)
    assert Fraction(s["centroids"]) == Fraction(1, k)  # Lemma 1, attained
    assert Fraction(s["row"]) == 1                      # Prop. 8 fails
    for noise, rows, key in [("shared", "shuffled", "centroids"),
                             ("per-record", "shuffled", "weighted"),
                             ("per-record", "aligned", "aligned")]:
        c = certify_dp_release(kind, 1.0, n, k, 1.0, 1, noise, rows)
        assert Fraction(s[key]) <= Fraction(c.sensitivity).limit_denominator(1000)


def test_bad_inputs() -> None:
    with pytest.raises(InvalidParameter, match="k=5 must be <= n=4"):
        certify_dp_release("insensitive-mdav", "thesis", 4, 5, 1.0)
    with pytest.raises(InvalidParameter, match="epsilon"):
        certify_dp_release("insensitive-mdav", "thesis", 4, 2, 0.0)
    with pytest.raises(InvalidParameter, match="noise_scale"):
        certify_dp_release("insensitive-mdav", "paper", 4, 2, 1.0)
    with pytest.raises(InvalidParameter, match="microaggregation"):
        certify_dp_release("mdav", "thesis", 4, 2, 1.0)
    with pytest.raises(InvalidParameter, match="k=2 must be 1"):
        certify_dp_release("none", "thesis", 4, 2, 1.0)
