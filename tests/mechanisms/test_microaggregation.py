"""Microaggregation family (issue 5): MDAV, insensitive MDAV, Algorithm 6.1 with the Hamming
corner sequence, individual ranking — properties, reference implementation, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation import (
    LABELERS,
    Domain,
    corner_sequence,
    dp_release_labels,
    individual_ranking,
    insensitive_mdav,
    insensitive_microaggregation,
    mdav,
    microaggregate,
)

ALL = ("mdav", "insensitive-mdav", "insensitive-corners", "individual-ranking")


def run(method: str, x: np.ndarray, k: int):
    return microaggregate(method, x, k, bounds=[[0.0, 10.0]] * x.shape[1]
                          if method != "mdav" else None)


def reference_mdav(z: np.ndarray, k: int) -> np.ndarray:
    """Slow, literal Algorithm 2.1 on the (already canonical-ordered) coordinates z, with the
    documented tie rules: farthest/nearest by squared distance, first position among equals."""
    n = len(z)
    lab = -np.ones(n, dtype=int)
    rem = list(range(n))
    label = 0

    def cluster(centre: int) -> None:
        nonlocal rem, label
        d = [(-1.0 if i == centre else float(((z[i] - z[centre]) ** 2).sum()), pos)
             for pos, i in enumerate(rem)]
        chosen = {rem[pos] for _, pos in sorted(d)[:k]}
        for i in chosen:
            lab[i] = label
        rem = [i for i in rem if i not in chosen]
        label += 1

    def farthest(p: np.ndarray) -> int:
        d = [float(((z[i] - p) ** 2).sum()) for i in rem]
        return rem[int(np.argmax(d))]

    while len(rem) >= 3 * k:
        x1 = farthest(z[rem].mean(axis=0))
        cluster(x1)
        x2 = farthest(z[x1])
        cluster(x2)
    if len(rem) >= 2 * k:
        cluster(farthest(z[rem].mean(axis=0)))
    for i in rem:
        lab[i] = label
    return lab


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_mdav_matches_reference(seed: int, k: int) -> None:
    from privlab.mechanisms.microaggregation.core import canonical_order
    from privlab.mechanisms.microaggregation.mdav_algorithm import _mdav_kernel, distance_space

    g = np.random.default_rng(seed)
    x = np.round(g.normal(size=(int(g.integers(k, 40)), int(g.integers(1, 4)))), 1)
    perm = canonical_order(x)
    z = distance_space(x[perm], "standardised", None)
    assert np.array_equal(_mdav_kernel(z, k), reference_mdav(z, k))


def test_mdav_groups_centroids_and_units() -> None:
    g = np.random.default_rng(0)
    x = g.normal(size=(103, 3)) * [1, 100, 1e4]
    r = mdav(x, 5)
    sizes = r.group_sizes()
    assert (sizes == 5).sum() == len(sizes) - 1 and 5 <= sizes.max() <= 9
    for i, rows in enumerate(r.groups()):
        assert np.allclose(r.centroids[i], x[rows].mean(axis=0))
        assert np.allclose(r.released[rows], r.centroids[i])
    assert r.released.flags.writeable is False
    # raw distances are dominated by the large attribute; standardised ones are not
    assert not np.array_equal(mdav(x, 5, distance="raw").labels, r.labels)


def test_fig_6_1_like_mdav_not_insensitive_insensitive_variants_are() -> None:
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    x = np.array([[0.0], [0.0], [1.0], [1.0], [1.0]])
    xp = np.array([[0.0], [0.0], [2.0], [1.0], [1.0]])
    assert not check_insensitive("mdav", x, xp, k=2).holds
    for a in ("insensitive-mdav", "insensitive-corners", "individual-ranking"):
        assert check_insensitive(a, x, xp, k=2, bounds=[0, 2]).holds


data_sets = st.integers(1, 3).flatmap(lambda m: st.lists(
    st.lists(st.integers(0, 10), min_size=m, max_size=m), min_size=1, max_size=30))


@settings(max_examples=60, deadline=None)
@given(rows=data_sets, k=st.integers(1, 6), method=st.sampled_from(ALL), data=st.data())
def test_properties(rows, k, method, data) -> None:
    x = np.array(rows, dtype=float)
    n = len(x)
    k = min(k, n)
    r = run(method, x, k)
    for j in range(1 if r.labels.ndim == 1 else x.shape[1]):
        sizes = r.group_sizes(j)
        if n >= 2 * k:
            assert sizes.min() >= k and sizes.max() <= 2 * k - 1
        else:
            assert len(sizes) == 1
        lab = r.labels if r.labels.ndim == 1 else r.labels[:, j]
        for g in range(r.n_groups):  # centroids are means
            cols = slice(None) if r.labels.ndim == 1 else j
            assert np.allclose(r.centroids[g, cols], x[lab == g][:, cols].mean(axis=0))
    # permuting the input rows permutes the output rows (identical records interchangeable)
    perm = np.array(data.draw(st.permutations(range(n))))
    r2 = run(method, x[perm], k)
    pairs = sorted(map(tuple, np.hstack([x, r.released]).round(9).tolist()))
    pairs2 = sorted(map(tuple, np.hstack([x[perm], r2.released]).round(9).tolist()))
    assert pairs == pairs2


def test_insensitive_variants_pass_random_neighbours() -> None:
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    g = np.random.default_rng(3)
    for _ in range(40):
        n, m, k = int(g.integers(6, 25)), int(g.integers(1, 4)), int(g.integers(2, 4))
        x = g.integers(0, 6, size=(n, m)).astype(float)
        xp = x.copy()
        xp[g.integers(n)] = g.integers(0, 6, size=m)
        xp = xp[g.permutation(n)]
        for a in ("insensitive-mdav", "insensitive-corners", "individual-ranking"):
            assert check_insensitive(a, x, xp, k=k, bounds=[0, 5]).holds


def test_insensitive_mdav_structure() -> None:
    x = np.arange(11.0)[:, None]
    r = insensitive_mdav(x, 2, bounds=[0, 10])
    # blocks: low, high, low, high, then the middle absorbs the remainder
    assert r.labels.tolist() == [0, 0, 2, 2, 4, 4, 4, 3, 3, 1, 1]
    r = insensitive_mdav(x, 2, bounds=[0, 10], reference="upper")
    assert r.labels.tolist() == [1, 1, 3, 3, 4, 4, 4, 2, 2, 0, 0]


def test_corner_sequence_rule() -> None:
    assert corner_sequence(2, 5) == [(0, 0), (1, 1), (0, 1), (1, 0), (0, 0)]
    assert corner_sequence(3, 4) == [(0, 0, 0), (1, 1, 1), (0, 0, 1), (1, 1, 0)]
    x = np.random.default_rng(0).uniform(0, 1, size=(40, 2))
    r = insensitive_microaggregation(x, 5, bounds=[0, 1])
    first = np.flatnonzero(r.labels == 0)
    second = np.flatnonzero(r.labels == 1)
    assert (x[first].sum(axis=1).max() <= np.sort(x.sum(axis=1))[5] + 1e-12)  # near (0, 0)
    assert x[second].sum(axis=1).min() > 1.0  # near (1, 1)


def test_individual_ranking() -> None:
    x = np.array([[3.0, 1], [1, 2], [2, 3], [5, 4], [4, 5]])
    r = individual_ranking(x, 2)
    assert r.labels[:, 0].tolist() == [1, 0, 0, 1, 1]
    assert np.allclose(r.released[:, 0], [4, 1.5, 1.5, 4, 4])
    assert np.allclose(r.released[:, 1], [1.5, 1.5, 4, 4, 4])


def test_dataframe_roundtrip() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"id": list("abcdefg"), "a": [1.0, 2, 3, 4, 5, 6, 7],
                       "b": [7.0, 6, 5, 4, 3, 2, 1]})
    r = insensitive_mdav(df, 3, columns=["a", "b"], bounds={"a": (0, 10), "b": (0, 10)})
    out = r.to_frame(df)
    assert list(out.columns) == ["id", "a", "b"] and out["id"].tolist() == list("abcdefg")
    assert r.columns == ("a", "b")
    r2 = mdav(df, 3, columns="a,b")
    assert r2.released.shape == (7, 2)


def test_dp_release_hook_is_used() -> None:
    from privlab.mechanisms.releases.numerical import order_partition

    u = np.random.default_rng(0).uniform(size=(20, 2))
    lab, src = order_partition(u, 3, "insensitive-mdav")
    assert src == "privlab.mechanisms.microaggregation"
    assert np.array_equal(lab, dp_release_labels(u, 3, "insensitive-mdav"))


@pytest.mark.parametrize("call, match", [
    (lambda: mdav(np.ones((5, 2)), 0), "k=0"),
    (lambda: mdav(np.ones((5, 2)), 6), "k=6 must be <="),
    (lambda: mdav(np.ones((5, 2)), 2.5), "positive integer"),
    (lambda: mdav(np.array([[1.0, np.nan], [2, 3]]), 1), "non-finite"),
    (lambda: mdav(np.ones((0, 2)), 1), "at least one row"),
    (lambda: insensitive_mdav(np.ones((5, 2)), 2, bounds=None), "bounds=None"),
    (lambda: insensitive_mdav(np.full((5, 2), 11.0), 2, bounds=[0, 10]), "outside"),
    (lambda: insensitive_mdav(np.ones((5, 2)), 2, bounds=[[0, 1]] * 3), "3 attributes|shape"),
    (lambda: insensitive_mdav(np.ones((5, 2)), 2, bounds=[1, 0]), "must be <"),
    (lambda: insensitive_mdav(np.ones((5, 1)), 2, bounds=[0, 2], reference=[1.0]),
     "boundary"),
    (lambda: mdav(np.ones((5, 2)), 2, distance="cosine"), "distance="),
    (lambda: mdav(np.ones((5, 2)), 2, columns=[3]), "column indices"),
])
def test_bad_input(call, match) -> None:
    with pytest.raises(InvalidParameter, match=match):
        call()


def test_bad_frame_columns() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [1.0, 2], "b": ["x", "y"]})
    with pytest.raises(InvalidParameter, match="not columns"):
        mdav(df, 1, columns=["zz"])
    with pytest.raises(InvalidParameter, match="numerical"):
        mdav(df, 1, columns=["b"])
    with pytest.raises(InvalidParameter, match="not among"):
        insensitive_mdav(df, 1, columns=["a"], bounds={"q": (0, 1)})
    with pytest.raises(InvalidParameter, match="missing"):
        insensitive_mdav(df.assign(c=1.0), 1, columns=["a", "c"], bounds={"a": (0, 3)})


def test_domain_parse_forms() -> None:
    d = Domain.parse("a=0:1,b=-2:2", ("a", "b"))
    assert d.lower.tolist() == [0, -2] and d.upper.tolist() == [1, 2]
    assert Domain.parse([0, 5], ("a", "b")).upper.tolist() == [5, 5]


def test_labelers_registry_shapes() -> None:
    x = np.random.default_rng(0).integers(0, 5, size=(12, 2)).astype(float)
    b = np.array([[0, 4], [0, 4]], dtype=float)
    for name, fn in LABELERS.items():
        lab = fn(x, 3, b)
        assert lab.shape in ((12,), (12, 2)), name


@pytest.mark.slow
def test_scale_targets() -> None:
    import time

    x = np.random.default_rng(0).uniform(size=(10**6, 2))
    for f in (lambda: insensitive_mdav(x, 5, bounds=[0, 1]),
              lambda: insensitive_microaggregation(x, 5, bounds=[0, 1]),
              lambda: individual_ranking(x, 5)):
        f()
        t = time.perf_counter()
        f()
        assert time.perf_counter() - t < 10
