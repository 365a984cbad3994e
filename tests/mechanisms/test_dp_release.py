"""Release pipelines (privlab.mechanisms.releases.numerical)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.releases.numerical import DPRelease


@pytest.fixture
def data() -> np.ndarray:
    return np.random.default_rng(0).uniform(0, 10, (60, 2))


def test_aggregation_k_anonymous_and_mean_preserving(data: np.ndarray) -> None:
    for micro in ("insensitive-mdav", "individual-ranking"):
        cen, _lab, _ = DPRelease(microaggregation=micro, k=7).aggregate(data, [0, 10])
        np.testing.assert_allclose(cen.mean(axis=0), data.mean(axis=0))
        for j in range(2):
            _, counts = np.unique(cen[:, j], return_counts=True)
            assert counts.min() >= 7


def test_shared_noise_ties_and_scale(data: np.ndarray) -> None:
    r = DPRelease(microaggregation="insensitive-mdav", k=6, epsilon=1.0, noise_scale=0.5,
                  rows="aligned")
    out = r.sample(data, [0, 10], 4000, rng=1)
    cen, lab, _ = r.aggregate(data, [0, 10])
    same = lab == lab[0]
    assert (out[:, same, :] == out[:, [0], :]).all()       # one draw per cluster
    resid = out[:, 0, 0] - cen[0, 0]
    # Laplace scale 0.5 per unit × range 10 = 5: E|noise| = 5
    assert np.abs(resid).mean() == pytest.approx(5.0, rel=0.06)


def test_per_record_and_shuffle_and_clamp(data: np.ndarray) -> None:
    r = DPRelease(microaggregation="individual-ranking", k=5, noise="per-record",
                  rows="shuffled", clamp=True, epsilon=0.1, noise_scale="irm")
    out = r.release(data, [0, 10], rng=3)
    assert out.shape == data.shape and out.min() >= 0 and out.max() <= 10
    assert len(np.unique(out[(out > 0) & (out < 10)])) == ((out > 0) & (out < 10)).sum()
    a = r.release(data, [0, 10], rng=3)
    np.testing.assert_array_equal(a, out)  # seeded


def test_bad_inputs(data: np.ndarray) -> None:
    with pytest.raises(InvalidParameter, match="outside the declared domain"):
        DPRelease(k=2).release(data + 5, [0, 10])
    with pytest.raises(InvalidParameter, match="k"):
        DPRelease(k=0)
    with pytest.raises(InvalidParameter, match="epsilon"):
        DPRelease(epsilon=-1)
    with pytest.raises(InvalidParameter, match="non-empty"):
        DPRelease(k=1).release(np.empty((0, 2)), [0, 1])
    with pytest.raises(InvalidParameter, match="k=100 must be <= n=60"):
        DPRelease(k=100).release(data, [0, 10])
