"""Mixed numerical/categorical release (privlab.mechanisms.dp_release_mixed)."""

import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.dp_release_mixed import MixedDPRelease
from privlab.mechanisms.semantic import NumericDomain
from privlab.mechanisms.taxonomy import project_taxonomy

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
