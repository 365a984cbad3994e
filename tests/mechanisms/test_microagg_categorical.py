"""Categorical MDAV / insensitive Algorithm 6.1 with the semantic distance
(privlab.mechanisms.microaggregation.categorical) against literal slow record-level references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.categorical import (
    SemanticSpace,
    categorical_mdav_labels,
    insensitive_categorical_labels,
    marginality_centroids,
)
from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

TAXES = (project_taxonomy("sport"), project_taxonomy("job"))
SPACE = SemanticSpace(TAXES)
TOL_M, TOL_D = 1e-9, 1e-12


# ---- literal references (record level, names, Taxonomy.distance) ----------------------------
def _d2(x: tuple[str, ...], y: tuple[str, ...]) -> float:
    s = 0.0
    for t, a, b in zip(TAXES, x, y, strict=True):
        v = t.distance(a, b) / t.boundary_distance
        s += v * v
    return s


def _centroid(values: list[str], t) -> str:
    """eq. (6.4) literally: candidates τ(S) by name, m(S, c) = Σ_s δ(s, c)."""
    cand = sorted({a for v in values for a in t.ancestors(v)})
    mg = [sum(t.distance(s, c) for s in values) for c in cand]
    best = min(mg)
    return next(c for c, v in zip(cand, mg, strict=True) if v <= best + TOL_M * max(1, best))


def _first(rem: list[int], score: list[float], pick_max: bool) -> int:
    ext = max(score) if pick_max else min(score)
    for i, s in zip(rem, score, strict=True):
        if (s >= ext - TOL_D) if pick_max else (s <= ext + TOL_D):
            return i
    raise AssertionError


def reference_mdav(recs: list[tuple[str, ...]], k: int) -> list[int]:
    """MDAV (thesis Algorithm 2.1) written out over records: canonical order = (names, index)."""
    n = len(recs)
    rem = sorted(range(n), key=lambda i: (recs[i], i))
    lab = [-1] * n

    def cluster(c: int, label: int) -> None:
        rem.remove(c)
        lab[c] = label
        for _ in range(k - 1):
            j = _first(rem, [_d2(recs[i], recs[c]) for i in rem], pick_max=False)
            rem.remove(j)
            lab[j] = label

    def farthest_from_mean() -> int:
        cen = tuple(_centroid([recs[i][j] for i in rem], t) for j, t in enumerate(TAXES))
        return _first(rem, [_d2(recs[i], cen) for i in rem], pick_max=True)

    label = 0
    while len(rem) >= 3 * k:
        a = farthest_from_mean()
        cluster(a, label)
        b = _first(rem, [_d2(recs[i], recs[a]) for i in rem], pick_max=True)
        cluster(b, label + 1)
        label += 2
    if len(rem) >= 2 * k:
        cluster(farthest_from_mean(), label)
        label += 1
    for i in rem:
        lab[i] = label
    return lab


def reference_algorithm_6_1(recs: list[tuple[str, ...]], k: int) -> list[int]:
    """Algorithm 6.1 with the corners (b,b), (t,t), (b,t), (t,b) in turn (Hamming rule for
    m = 2), order = eq. (6.7) distance to the corner, ties alphabetical, then index."""
    corners = [(0, 0), (1, 1), (0, 1), (1, 0)]
    rem = list(range(len(recs)))
    lab = [-1] * len(recs)
    i = 0
    while len(rem) >= 2 * k:
        ref = tuple(t.boundaries[b] for t, b in zip(TAXES, corners[i % 4], strict=True))
        rem.sort(key=lambda r: (round(_d2(recs[r], ref), 12), recs[r], r))
        for r in rem[:k]:
            lab[r] = i
        rem = rem[k:]
        i += 1
    for r in rem:
        lab[r] = i
    return lab


# ---- data --------------------------------------------------------------------------------
def _records(seed: int, n: int, skew: float) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    g = np.random.default_rng(seed)
    cols = []
    for t in TAXES:
        dom = sorted(t.domain)
        p = 1.0 / (1.0 + np.arange(len(dom))) ** skew
        cols.append(g.choice(dom, n, p=p / p.sum()))
    recs = list(zip(*cols, strict=True))
    codes = np.stack([t.codes(list(c)) for t, c in zip(TAXES, cols, strict=True)], axis=1)
    return codes, [tuple(map(str, r)) for r in recs]


cases = st.tuples(st.integers(0, 10_000), st.integers(1, 40), st.integers(1, 6),
                  st.sampled_from([0.0, 1.0, 2.5]))


@settings(max_examples=40, deadline=None)
@given(cases)
def test_mdav_matches_literal_reference(case: tuple[int, int, int, float]) -> None:
    seed, n, k, skew = case
    k = min(k, n)
    codes, recs = _records(seed, n, skew)
    got = categorical_mdav_labels(codes, SPACE, k)
    assert got.tolist() == reference_mdav(recs, k)
    sizes = np.bincount(got)
    if n >= 2 * k:
        assert (sizes[:-1] == k).all() and k <= sizes[-1] <= 2 * k - 1
    else:
        assert sizes.tolist() == [n]


@settings(max_examples=30, deadline=None)
@given(cases)
def test_centroids_match_literal_eq_6_4(case: tuple[int, int, int, float]) -> None:
    seed, n, k, skew = case
    codes, recs = _records(seed, n, skew)
    lab = np.random.default_rng(seed).integers(0, min(k, n), n)
    lab = np.unique(lab, return_inverse=True)[1].ravel()
    cen = marginality_centroids(codes, lab, SPACE)
    for c in range(cen.shape[0]):
        for j, t in enumerate(TAXES):
            vals = [recs[i][j] for i in np.flatnonzero(lab == c)]
            assert t.concepts[cen[c, j]] == _centroid(vals, t)


@settings(max_examples=30, deadline=None)
@given(cases)
def test_algorithm_6_1_matches_literal_reference(case: tuple[int, int, int, float]) -> None:
    seed, n, k, skew = case
    k = min(k, n)
    codes, recs = _records(seed, n, skew)
    assert insensitive_categorical_labels(codes, SPACE, k).tolist() == \
        reference_algorithm_6_1(recs, k)


@settings(max_examples=30, deadline=None)
@given(cases, st.integers(0, 10_000))
def test_algorithm_6_1_is_insensitive(case: tuple[int, int, int, float], s2: int) -> None:
    """Definition 12: substituting one record changes every cluster by at most one record."""
    seed, n, k, skew = case
    k = min(k, n)
    codes, _ = _records(seed, n, skew)
    other, _ = _records(s2, 1, 0.0)
    codes2 = codes.copy()
    codes2[s2 % n] = other[0]
    la = insensitive_categorical_labels(codes, SPACE, k)
    lb = insensitive_categorical_labels(codes2, SPACE, k)
    assert la.max() == lb.max()
    for c in range(la.max() + 1):
        a = sorted(map(tuple, codes[la == c].tolist()))
        b = sorted(map(tuple, codes2[lb == c].tolist()))
        common = 0
        bb = list(b)
        for r in a:
            if r in bb:
                bb.remove(r)
                common += 1
        assert len(a) - common <= 1 and len(b) - common <= 1


def test_mdav_on_identical_records_and_golden_split() -> None:
    # 4 × (skiing, builder) and 2 × (sailing, carer): k = 2 keeps equal records together
    t0, t1 = TAXES
    recs = [("skiing", "builder")] * 4 + [("sailing", "carer")] * 2
    codes = np.array([[t0.index[a], t1.index[b]] for a, b in recs])
    lab = categorical_mdav_labels(codes, SPACE, 2)
    assert len({lab[4], lab[5]}) == 1 and lab[4] not in set(lab[:4].tolist())
    cen = marginality_centroids(codes, lab, SPACE)[lab]
    assert (cen == codes).all()   # pure clusters are released unchanged


def test_bad_input() -> None:
    codes, _ = _records(0, 5, 0.0)
    with pytest.raises(InvalidParameter, match="k=0"):
        categorical_mdav_labels(codes, SPACE, 0)
    with pytest.raises(InvalidParameter, match="k=6 must be <= n=5"):
        insensitive_categorical_labels(codes, SPACE, 6)
    bad = codes.copy()
    bad[2, 1] = 99
    with pytest.raises(InvalidParameter, match="code 99 in row 2, column 1"):
        categorical_mdav_labels(bad, SPACE, 2)
    with pytest.raises(InvalidParameter, match="shape"):
        categorical_mdav_labels(codes[:, :1], SPACE, 2)
    with pytest.raises(InvalidParameter, match="taxonomies"):
        SemanticSpace([])


def test_privacy_loss_survives_probabilities_below_the_smallest_double() -> None:
    """ε = 10 on a cluster of 300 equal values: some Pr(c) underflow to 0.0 in floating point;
    the loss is still the finite max |log Pr_a − log Pr_b| (it was nan, read as 0, before)."""
    import numpy as np

    from privlab.mechanisms.microaggregation.semantic import ExponentialCentroid
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

    t = project_taxonomy("job")
    em = ExponentialCentroid(taxonomy=t, epsilon=10.0)
    a, b = t.domain[0], t.domain[-1]
    assert (em.probabilities([a] * 300) == 0.0).any()
    loss = em.privacy_loss([a] * 300, [b] + [a] * 299)
    assert np.isfinite(loss) and loss > 0
    lp = em.log_probabilities([a] * 300)
    assert np.isclose(np.logaddexp.reduce(lp), 0.0)
