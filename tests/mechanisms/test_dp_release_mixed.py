"""Mixed numerical/categorical release (privlab.mechanisms.releases.mixed)."""

import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
from privlab.mechanisms.releases.mixed import MixedDPRelease

JOB = project_taxonomy("job")
DOMAIN = list(JOB.domain)


def _records(n):
    return [[float(i % 50), DOMAIN[i % len(DOMAIN)]] for i in range(n)]


def _mech(**kw):
    return MixedDPRelease(attributes=(NumericDomain(0, 100), JOB), k=4, epsilon=1.0, **kw)


def test_release_shape_and_concepts():
    out = _mech().release(_records(40), rng=1)
    assert len(out) == 40
    assert all(isinstance(r[0], float) and r[1] in JOB.concepts for r in out)
    # one draw per cluster of >= 4 records: every released row repeats at least 4 times
    rows = [tuple(r) for r in out]
    assert min(rows.count(r) for r in rows) >= 4


def test_order_is_data_independent():
    m = _mech()
    recs = _records(12)
    lab = m.labels(m.encode(recs))
    recs2 = [list(r) for r in recs]
    recs2[5] = [99.0, DOMAIN[-1]]
    lab2 = m.labels(m.encode(recs2))
    # clusters change by at most one record each (insensitivity)
    for c in range(lab.max() + 1):
        a = set((lab == c).nonzero()[0])
        b = set((lab2 == c).nonzero()[0])
        assert len(a - b) <= 1


def test_huge_epsilon_centroids_exact():
    m = MixedDPRelease(attributes=(NumericDomain(0, 100), JOB), k=2, epsilon=1e9,
                       scale_per_unit=1e-12, rows="aligned")
    recs = [[10.0, "nurse"], [10.0, "nurse"], [90.0, "nurse"], [90.0, "nurse"]]
    out = m.release(recs, rng=0)
    assert [r[1] for r in out] == ["nurse"] * 4
    assert sorted(round(r[0], 6) for r in out) == [10.0, 10.0, 90.0, 90.0]


@pytest.mark.parametrize("recs", [[[101.0, "nurse"]] * 4, [[1.0, "astronaut"]] * 4, []])
def test_bad_inputs(recs):
    with pytest.raises(InvalidParameter):
        _mech().release(recs, rng=0)


def test_options_validated():
    with pytest.raises(InvalidParameter, match="k=3 must be 1 without microaggregation"):
        MixedDPRelease(attributes=(JOB,), k=3, epsilon=1.0, microaggregation="none")
    with pytest.raises(InvalidParameter, match="em_factor='2'"):
        MixedDPRelease(attributes=(JOB,), k=3, epsilon=1.0, em_factor="2")
    with pytest.raises(InvalidParameter, match="scale_per_unit=-1"):
        MixedDPRelease(attributes=(JOB,), k=3, epsilon=1.0, scale_per_unit=-1)
    one = type(JOB)(parents={"r": (), "x": ("r",)}, name="one")
    with pytest.raises(InvalidParameter, match="at least 2 domain values"):
        MixedDPRelease(attributes=(one,), k=1, epsilon=1.0)
    assert MixedDPRelease(attributes=(JOB,), k=1, epsilon=1.0,
                          microaggregation="none").em_factor == "1"


def test_inner_concepts_are_not_domain_values():
    with pytest.raises(InvalidParameter, match="'services' in row 0, column 1 is not in the"):
        _mech().release([[1.0, "services"]] * 4, rng=0)


def test_clamp_seed_and_baseline():
    recs = _records(20)
    m = _mech(clamp=True)
    a, b = m.release(recs, rng=7), m.release(recs, rng=7)
    assert a == b and a != m.release(recs, rng=8)
    assert all(0 <= r[0] <= 100 for r in a)
    base = MixedDPRelease(attributes=(NumericDomain(0, 100), JOB), k=1, epsilon=1.0,
                          microaggregation="none", rows="aligned")
    assert base.scale(20) == pytest.approx(2.0) and base.factor(20) == 1.0
    assert len(base.release(recs, rng=0)) == 20
