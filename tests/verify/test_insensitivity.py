"""Definition 12 checker: exact matching decision, search, centroid sensitivity."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.types import Status, status_of
from privlab.verify.microaggregation.centroid_sensitivity import check_centroid_sensitivity
from privlab.verify.microaggregation.insensitivity import check_insensitive, clusters_correspond


def test_matching_needs_a_bijection_not_greedy() -> None:
    # A1 = {1,2} fits B1 = {0,2} and B2 = {2,3}; A2 = {0,1} fits only B1: pairing A1 with the
    # first fitting cluster fails, the matching A1↔B2, A2↔B1 succeeds
    x = np.array([[1.0], [2], [0], [1]])
    la = np.array([0, 0, 1, 1])
    xp = np.array([[0.0], [2], [2], [3]])
    lb = np.array([0, 0, 1, 1])
    assert clusters_correspond(x, la, xp, lb)["holds"] is True
    xp2 = np.array([[0.0], [2], [3], [4]])  # B2 = {3,4} fits nobody
    res = clusters_correspond(x, la, xp2, lb)
    assert res["holds"] is False and res["matched"] == 1


def test_multiset_semantics_and_sizes() -> None:
    x = np.array([[1.0], [1], [1], [2], [2]])
    la = np.array([0, 0, 1, 1, 1])
    xp = np.array([[1.0], [1], [1], [2], [3]])
    lb = np.array([0, 0, 0, 1, 1])
    # {1,1} vs {1,1,1}: one record added; {1,2,2} vs {2,3}: 1 removed, ... |{1,2}| > 1? no
    res = clusters_correspond(x, la, xp, lb)
    assert res["clusters"] == (2, 2)
    assert res["holds"] is False and res["worst"]["only_in_x"] >= 1


def test_large_inputs_use_sparse_path_consistently() -> None:
    from privlab.mechanisms.microaggregation import LABELERS
    from privlab.verify.microaggregation.correspondence import _correspond_small, _correspond_sparse

    g = np.random.default_rng(0)
    for name in ("mdav", "insensitive-mdav"):
        fn = LABELERS[name]
        for _ in range(20):
            x = g.integers(0, 4, size=(30, 2)).astype(float)
            xp = x.copy()
            xp[g.integers(30)] = g.integers(0, 4, size=2)
            b = np.array([[0, 3], [0, 3]], float)
            la, lb = fn(x, 3, b), fn(xp, 3, b)
            a = _correspond_small(x, la, xp, lb)
            s = _correspond_sparse(x, la, xp, lb)
            assert a["holds"] == s["holds"] and a["matched"] == s["matched"]


def test_search_breaks_mdav_with_smallest_counterexample() -> None:
    r = check_insensitive("mdav", k=2, hypothesis_examples=0)
    assert not r.holds and status_of(r) is Status.REFUTED
    c = r.counterexample
    assert c["n"] == 5 and c["m"] == 1 and c["found_by"] == "exhaustive"
    # replay
    assert not check_insensitive("mdav", c["x"], c["x_prime"], k=2).holds


@pytest.mark.parametrize("alg", ["insensitive-mdav", "insensitive-corners",
                                 "individual-ranking"])
def test_search_fails_to_break_insensitive_variants(alg: str) -> None:
    r = check_insensitive(alg, k=2, hypothesis_examples=100)
    assert r.holds and r.value > 1000
    assert r.evidence["hypothesis"]["examples"] == 100


def test_literal_prop6_variant_broken() -> None:
    assert not check_insensitive("insensitive-mdav-literal", k=2, hypothesis_examples=0).holds


def test_hypothesis_part_finds_mdav_counterexample() -> None:
    r = check_insensitive("mdav", k=2, n_max=3, hypothesis_examples=300)
    assert not r.holds and r.counterexample["found_by"] == "hypothesis"


def test_pair_validation() -> None:
    with pytest.raises(InvalidParameter, match="exactly one record"):
        check_insensitive("mdav", np.zeros((4, 1)), np.ones((4, 1)), k=2)
    with pytest.raises(InvalidParameter, match="same shape"):
        check_insensitive("mdav", np.zeros((4, 1)), np.zeros((5, 1)), k=2)
    with pytest.raises(InvalidParameter, match="both"):
        check_insensitive("mdav", np.zeros((4, 1)), k=2)
    with pytest.raises(InvalidParameter, match="algorithm"):
        check_insensitive("nope", k=2)


def test_centroid_sensitivity() -> None:
    ok = check_centroid_sensitivity("individual-ranking", k=2, n=5, m=1, bound=0.5,
                                    restarts=3, iterations=60, rng=0)
    assert ok.holds and ok.value == pytest.approx(0.5)
    bad = check_centroid_sensitivity("insensitive-mdav", k=2, n=4, m=2, bound=1.0,
                                     restarts=3, iterations=100, grid=3, rng=1)
    assert not bad.holds and bad.value >= 1.75 and bad.counterexample is not None


def test_within_one_matches_counter_definition():
    """The early-exit multiset test equals |A ∖ B| ≤ 1 and |B ∖ A| ≤ 1 computed with Counters."""
    from collections import Counter

    from privlab.verify.microaggregation.correspondence import _within_one

    rng = np.random.default_rng(3)
    for _ in range(3000):
        a = Counter(rng.integers(0, 4, rng.integers(0, 6)).tolist())
        b = Counter(rng.integers(0, 4, rng.integers(0, 6)).tolist())
        want = sum((a - b).values()) <= 1 and sum((b - a).values()) <= 1
        got = _within_one(dict(a), dict(b), sum(a.values()) - sum(b.values()))
        assert got == want, (a, b)


@pytest.mark.parametrize("two_d", [False, True])
def test_cached_counts_decide_like_clusters_correspond(two_d: bool):
    """The search's per-data-set counts (``_small_counts`` + ``_holds_counts``) give the same
    decision as :func:`clusters_correspond`, on random clusterings, for (n,) and (n, m) labels."""
    from privlab.verify.microaggregation.correspondence import _holds_counts, _small_counts

    rng = np.random.default_rng(5)
    outcomes = set()
    for _ in range(1500):
        n, m = int(rng.integers(2, 9)), int(rng.integers(1, 3))
        x = rng.integers(0, 3, (n, m)).astype(float)
        xp = x.copy()
        xp[rng.integers(0, n)] = rng.integers(0, 3, m)
        shape = (n, m) if two_d else (n,)
        la, lb = rng.integers(0, 3, shape), rng.integers(0, 3, shape)
        want = clusters_correspond(x, la, xp, lb)["holds"]
        outcomes.add(want)
        assert _holds_counts(_small_counts(x, la), _small_counts(xp, lb)) == want
    assert outcomes == {True, False}


def _random_pair(rng: np.random.Generator, two_d: bool) -> tuple[np.ndarray, ...]:
    """Neighbouring data sets with clusterings that often share clusters: X′'s labels are X's
    with a few records moved (chains of moves included), or fresh random labels."""
    n, m = int(rng.integers(2, 10)), int(rng.integers(1, 3))
    x = rng.integers(0, 3, (n, m)).astype(float)  # few values: ties, identical clusters
    xp = x.copy()
    xp[rng.integers(0, n)] = rng.integers(0, 3, m)
    q = int(rng.integers(1, 5))
    shape = (n, m) if two_d else (n,)
    la = rng.integers(0, q, shape)
    if rng.random() < 0.25:
        lb = rng.integers(0, q, shape)
    else:
        lb = la.copy()
        flat = lb.reshape(-1)
        for _ in range(int(rng.integers(0, 4))):
            flat[rng.integers(0, flat.size)] = rng.integers(0, q + 1)
    perm = rng.permutation(n)  # X′ in another row order
    return x, la, xp[perm], lb[perm]


@pytest.mark.parametrize("two_d", [False, True])
def test_search_fast_path_decides_like_clusters_correspond(two_d: bool):
    """The exhaustive search's decision from interned cluster ids (positive fast path, then
    an exact matching) equals :func:`clusters_correspond`, with the cluster table shared by
    all pairs as in the search; the cases where two or more clusters are left on each side
    after matching identical ones include failures (a fast path accepting them is caught)."""
    from collections import Counter

    from privlab.verify.microaggregation.correspondence import _ClusterTable, _small_counts

    rng = np.random.default_rng(11 + two_d)
    table = _ClusterTable()
    seen: Counter[tuple[int, bool]] = Counter()
    for _ in range(6000):
        x, la, xp, lb = _random_pair(rng, two_d)
        want = clusters_correspond(x, la, xp, lb)["holds"]
        ca, cb = _small_counts(x, la), _small_counts(xp, lb)
        a, b = (ca, table.sign(ca)), (cb, table.sign(cb))
        assert table.holds(a, b) == want, (x, la, xp, lb)
        for pa, pb in zip(a[1], b[1], strict=True):
            left = Counter(pa) - Counter(pb)
            seen[min(sum(left.values()), 2), want] += 1
    assert seen[0, True] and seen[1, True] and seen[1, False]
    assert seen[2, True] > 50 and seen[2, False] > 50
