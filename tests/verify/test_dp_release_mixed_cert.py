"""Certificate of the mixed release against its exact privacy loss on small categorical data."""

from __future__ import annotations

import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.verify.releases.mixed import certify_mixed
from privlab.verify.releases.mixed_exact import check_mixed_exact

TINY = Taxonomy(parents={"root": (), "A": ("root",), "B": ("root",), "a1": ("A",),
                         "a2": ("A",), "b1": ("B",)}, name="tiny")
DATA = [[["a1", "a1"], ["a2", "b1"], ["b1", "b1"], ["a1", "b1"]],
        [["a1", "b1"], ["b1", "a2"], ["a2", "a1"]]]


def test_split_budget_is_certified_and_the_exact_loss_stays_below():
    """privlab's default (ε/m per attribute, exact Δ(m)): certificate ≤ ε, and the exact loss
    over every substitution neighbour (enumerated output laws) never exceeds the certificate."""
    rel = MixedDPRelease(attributes=(TINY, TINY), k=2, epsilon=1.0)
    r = check_mixed_exact(rel, DATA)
    assert r.holds, r.evidence
    for row in r.evidence["datasets"]:
        assert row["certified_epsilon"] <= 1.0 + 1e-12
        assert 0 < row["exact_loss"] <= row["certified_epsilon"]


def test_as_printed_budget_certifies_more_than_epsilon():
    """vldb14 as printed (ε per categorical attribute): the certificate is m_c·ε·q/(n/k) for
    this balanced taxonomy (2·1·2/2 = 2 at n = 4, k = 2) and the exact loss also exceeds the
    split configuration's."""
    printed = MixedDPRelease.as_printed(attributes=(TINY, TINY), k=2, epsilon=1.0)
    cert = certify_mixed(printed, 4)
    assert cert["certified_epsilon"] == pytest.approx(2.0, rel=1e-12) and not cert["holds"]
    split = MixedDPRelease(attributes=(TINY, TINY), k=2, epsilon=1.0)
    lp = check_mixed_exact(printed, DATA[:1]).value
    ls = check_mixed_exact(split, DATA[:1]).value
    assert lp > ls > 0


def test_numeric_part_and_aligned_rows():
    rel = MixedDPRelease(attributes=(NumericDomain(0, 10), TINY), k=5, epsilon=1.0)
    c = certify_mixed(rel, 100)
    assert c["holds"] and c["parts"][0]["epsilon"] == pytest.approx(0.5)
    al = MixedDPRelease(attributes=(NumericDomain(0, 10), TINY), k=5, epsilon=1.0,
                        rows="aligned")
    assert certify_mixed(al, 100)["certified_epsilon"] is None
    with pytest.raises(InvalidParameter, match="n=3 must be >= k=5"):
        certify_mixed(rel, 3)
