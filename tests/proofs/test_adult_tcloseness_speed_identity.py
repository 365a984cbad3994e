"""Speed shortcuts of the microaggregation / Adult / t-closeness / release area (issue 19) are
identical to the code they replaced.  Each oracle below is the former implementation, kept
verbatim; both sides are computed here on the same inputs and compared exactly (arrays bit for
bit, Fractions and CheckResults by value)."""

from __future__ import annotations

import csv
import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.categorical import SemanticSpace
from privlab.metrics import categorical as mc
from privlab.proofs.thesis import ch6_adult_experiments as ax
from privlab.verify.microaggregation import prob_kanon as vpk
from privlab.verify.microaggregation import reference as ref


# ---------------------------------------------------------------- oracles (former code)
def old_em_releases(margs, labels, space, epsilon, runs, *, factor=1.0, rng=None):
    g = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    out = np.empty((runs, labels.shape[0], space.m), dtype=np.int64)
    for j, mg in enumerate(margs):
        logw = -epsilon * mg / (2.0 * factor * space.norm[j])
        p = np.exp(logw - logw.max(axis=1, keepdims=True))
        cum = np.cumsum(p, axis=1)
        cum /= cum[:, -1:]
        u = g.random((runs, mg.shape[0]))
        idx = (cum[None, :, :] < u[:, :, None]).sum(axis=2)
        out[:, :, j] = np.minimum(idx, mg.shape[1] - 1)[:, labels]
    return out


def old_check_codes(space: SemanticSpace, codes: Any) -> np.ndarray:
    x = np.asarray(codes)
    bad = (x < 0) | (x >= space.sizes[None, :])
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise InvalidParameter(f"code {int(x[r, c])} in row {r}, column {c} is not a "
                               f"concept of taxonomy {space.taxonomies[c].name!r}")
    return np.ascontiguousarray(x, dtype=np.int64)


def old_semantic_sse(space, original, release):
    x, r = mc._pair(space, original, release)
    tot = np.zeros(r.shape[:-1])
    for j in range(space.m):
        t = space.dist[j][x[:, j], r[..., j]]
        tot = tot + t * t
    s = tot.sum(axis=-1)
    return float(s) if s.ndim == 0 else s


def old_semantic_record_linkage(space, original, release, per_record=False):
    x, r = mc._pair(space, original, release)
    flat = r.reshape(-1, space.m)
    stride = np.cumprod(np.r_[1, space.sizes[::-1][:-1]])[::-1]
    u, w, inv = mc._distinct_keys(x @ stride, stride, space.sizes)
    v, _, vinv = mc._distinct_keys(flat @ stride, stride, space.sizes)
    d = np.zeros((len(v), len(u)))
    for j in range(space.m):
        t = space.dist[j][v[:, j][:, None], u[:, j][None, :]]
        d += t * t
    dmin = d.min(axis=1, keepdims=True)
    near = d <= dmin * (1.0 + 1e-12) + 1e-300
    size = near.astype(float) @ w.astype(float)
    orig_of = np.broadcast_to(inv, r.shape[:-1]).ravel()
    prob = (near[vinv, orig_of] / size[vinv]).reshape(r.shape[:-1])
    rl = 100.0 * prob.mean(axis=-1)
    rl = float(rl) if rl.ndim == 0 else rl
    return (rl, prob) if per_record else rl


def old_read_adult(path):
    with path.open(newline="") as f:
        r = csv.reader(f)
        header = [h.strip() for h in next(r)]
        cols = [header.index(c) for c in ax.ADULT_COLUMNS]
        rows = [[v.strip() for v in row] for row in r if row]
    return [(row[cols[0]], row[cols[1]]) for row in rows if "?" not in row]


def old_check_discrete_dp_worst(noise) -> tuple[int, tuple[int, int]]:
    k = noise.K
    radius = k + 1 if noise.kind == "laplace" else noise.D + k + noise.W
    ys = np.arange(-radius, radius + 1, dtype=np.int64)
    base = noise.cost(ys)
    ext = noise.cost(np.arange(-radius - k, radius + k + 1, dtype=np.int64))
    shifted = np.lib.stride_tricks.sliding_window_view(ext, ys.size)
    worst, arg = -1, (0, 0)
    block = max(1, (1 << 22) // ys.size)
    for lo in range(0, 2 * k + 1, block):
        diff = shifted[lo:lo + block] - base[None, :]
        r, i = np.unravel_index(int(np.argmax(diff)), diff.shape)
        if diff[r, i] > worst:
            worst, arg = int(diff[r, i]), (int(ys[i]), int(lo + r) - k)
    return worst, arg


def old_posterior(q, released_c, k, partition, kind="uniform", cache=None):
    n = len(released_c)
    cache = {} if cache is None else cache
    post = [[Fraction(0)] * n for _ in range(n)]
    total = Fraction(0)
    for rho in itertools.permutations(range(n)):
        c = released_c[list(rho)]
        key = tuple(c.tolist())
        lab = cache.get(key)
        if lab is None:
            lab = np.asarray(partition(q, c, k))
            cache[key] = lab
        inv = [0] * n
        for i, r in enumerate(rho):
            inv[r] = i
        like = vpk._prob_of(tuple(inv), lab, kind)
        if like == 0:
            continue
        total += like
        for i, r in enumerate(rho):
            post[i][r] += like
    return [[p / total for p in row] for row in post]


def old_literal_mdav_labels(x, k, distance="standardised"):
    rows = ref._rows(x)
    n, m = len(rows), len(rows[0])
    if distance == "standardised":
        w = []
        for j in range(m):
            col = [r[j] for r in rows]
            mu = sum(col, Fraction(0)) / n
            var = sum(((v - mu) ** 2 for v in col), Fraction(0)) / (n - 1) if n > 1 else 0
            w.append(1 / var if var > 0 else Fraction(1))
    else:
        w = [Fraction(1)] * m

    def d2(a, b):
        return sum((w[j] * (a[j] - b[j]) ** 2 for j in range(m)), Fraction(0))

    remaining = sorted(range(n), key=lambda i: (rows[i], i))
    lab = [-1] * n
    label = 0

    def average(ids):
        return tuple(sum((rows[i][j] for i in ids), Fraction(0)) / len(ids) for j in range(m))

    def farthest(p):
        best, arg = Fraction(-1), remaining[0]
        for i in remaining:
            d = d2(rows[i], p)
            if d > best:
                best, arg = d, i
        return arg

    def cluster(c):
        nonlocal label, remaining
        rank = {i: t for t, i in enumerate(remaining)}
        others = sorted((i for i in remaining if i != c),
                        key=lambda i: (d2(rows[i], rows[c]), rank[i]))
        members = {c, *others[:k - 1]}
        for i in members:
            lab[i] = label
        label += 1
        remaining = [i for i in remaining if i not in members]

    while len(remaining) >= 3 * k:
        x1 = farthest(average(remaining))
        cluster(x1)
        x2 = farthest(rows[x1])
        cluster(x2)
    if len(remaining) >= 2 * k:
        cluster(farthest(average(remaining)))
    for i in remaining:
        lab[i] = label
    return np.array(lab, dtype=np.int64)


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def adult_like() -> tuple[np.ndarray, SemanticSpace]:
    x, space = ax._synthetic(6)
    return np.ascontiguousarray(x[:3000]), space


# ---------------------------------------------------------------- Adult tables
@pytest.mark.parametrize(("k", "eps", "factor"), [(1, 0.1, 1.0), (1, 10.0, 1.0), (2, 1.0, 1.0),
                                                  (5, 0.01, 600.0), (30, 10.0, 100.0)])
def test_em_releases_equal_the_row_by_row_sampler(adult_like, k, eps, factor):
    x, space = adult_like
    lab = ax.release_labels(x, space, k)
    margs = ax.marginality_matrices(x, lab, space)
    old = old_em_releases(margs, lab, space, eps, 4, factor=factor, rng=np.random.default_rng(3))
    new = ax.em_releases(margs, lab, space, eps, 4, factor=factor, rng=np.random.default_rng(3))
    shared = ax.em_releases(margs, lab, space, eps, 4, factor=factor,
                            rng=np.random.default_rng(3),
                            distinct=[ax.distinct_rows(mg) for mg in margs])
    assert np.array_equal(old, new) and np.array_equal(old, shared)


def test_distinct_rows_rebuild_the_matrix_bit_for_bit():
    g = np.random.default_rng(0)
    base = g.random((7, 5))
    base[3, 1:] = base[2, 1:]  # same first column elsewhere: must stay distinct
    base[4] = -0.0
    base[5] = 0.0
    mg = base[g.integers(0, 7, 200)]
    rows, inv = ax.distinct_rows(mg)
    assert np.array_equal(rows[inv].view(np.int64), mg.view(np.int64))
    assert len(rows) == len({r.tobytes() for r in mg})
    assert not rows.flags.writeable and not inv.flags.writeable


@pytest.mark.parametrize("c", [1, 3, 48, 255, 256, 300])
def test_count_below_equals_the_broadcast_count(c):
    g = np.random.default_rng(c)
    cum = np.cumsum(g.random((50, c)), axis=1)
    cum /= cum[:, -1:]
    u = g.random((3, 50))
    u[0, :c and 10] = cum[:10, 0]  # exact ties: '<' must not count the equal entry
    assert np.array_equal(ax._count_below(cum, u), (cum[None] < u[:, :, None]).sum(axis=2))


def test_semantic_metrics_equal_the_former_lookups(adult_like):
    x, space = adult_like
    g = np.random.default_rng(1)
    rel = np.stack([x[g.permutation(len(x))] for _ in range(3)])
    rel[1, ::7, 1] = g.integers(0, space.sizes[1], rel[1, ::7, 1].shape)
    for r in (rel, rel[0]):
        assert np.array_equal(mc.semantic_sse(space, x, r), old_semantic_sse(space, x, r))
        a = mc.semantic_record_linkage(space, x, r, per_record=True)
        b = old_semantic_record_linkage(space, x, r, per_record=True)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_check_codes_fast_test_accepts_and_refuses_as_before(adult_like):
    x, space = adult_like
    assert np.array_equal(space.check_codes(x), old_check_codes(space, x))
    assert np.array_equal(space.check_codes(x.astype(np.uint8)), x)
    for r, c, v in ((5, 0, -1), (9, 1, int(space.sizes[1])), (4, 0, int(space.sizes[0])),
                    (2, 1, 10**6)):
        bad = x.copy()
        bad[r, c] = v
        with pytest.raises(InvalidParameter) as e1:
            space.check_codes(bad)
        with pytest.raises(InvalidParameter) as e2:
            old_check_codes(space, bad)
        assert str(e1.value) == str(e2.value)


def test_read_adult_keeps_and_drops_the_same_rows(tmp_path):
    p = tmp_path / "adult.csv"
    p.write_text("age, occupation ,native-country, income\n"
                 "39, Adm-clerical, United-States, <=50K\n"
                 "50, ?, Cuba, <=50K\n"
                 "38, Sales, United-States, ?\n"
                 "\n"
                 "28, Tech?support, Jamaica, >50K\n"
                 "37, Exec-managerial, ?x, <=50K\n"
                 "31,?, India,>50K\n"
                 "42, Craft-repair ,  Mexico , >50K\n")
    assert ax._read_adult(p) == old_read_adult(p)
    assert len(old_read_adult(p)) == 4


def test_read_adult_on_the_real_file_when_present():
    from privlab._data import data_file

    p = data_file("adult.csv")
    if p is None:
        pytest.skip("adult.csv not in the data directory")
    from pathlib import Path

    assert ax._read_adult(Path(p)) == old_read_adult(Path(p))


# ---------------------------------------------------------------- safe-mode DP check
def test_check_discrete_dp_narrow_integers_give_the_same_worst_pair():
    from privlab.mechanisms.noise.safe import check_discrete_dp, discrete_pmf
    from privlab.proofs.own import _laws

    laws = _laws()
    for m in laws[:6] + laws[-3:]:
        d = discrete_pmf(m, None)
        for eps in (float(m.epsilon), float(m.epsilon) / 2):
            r = check_discrete_dp(d, eps)
            worst, arg = old_check_discrete_dp_worst(d)
            assert r.evidence["worst_cost_jump"] == worst
            assert r.value == d.unit * worst
            if not r.holds:
                assert (r.counterexample["y"], r.counterexample["shift"]) == arg


# ---------------------------------------------------------------- prob. k-anonymity
def _cases():
    g = np.random.default_rng(5)
    q = g.normal(size=(6, 2)).round(2)
    c = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0])
    return q, c


@pytest.mark.parametrize("method", sorted(vpk.PARTITIONS))
@pytest.mark.parametrize("kind", ["uniform", "reverse"])
def test_posterior_equals_the_fraction_by_fraction_sum(method, kind):
    q, c = _cases()
    part = vpk.PARTITIONS[method]
    for k in (2, 3):
        for rel in (c, c[::-1].copy()):
            assert vpk.posterior(q, rel, k, part, kind) == old_posterior(q, rel, k, part, kind)


def test_mdav_partition_memo_is_keyed_on_shape_and_returns_copies():
    from privlab.mechanisms.microaggregation.mdav_algorithm import mdav_labels

    g = np.random.default_rng(2)
    q = g.normal(size=(6, 2))
    c = np.zeros(6)
    a = vpk._mdav_partition(q, c, 2)
    assert np.array_equal(a, mdav_labels(q.copy(), 2))
    a[:] = 99
    assert np.array_equal(vpk._mdav_partition(q, c, 2), mdav_labels(q.copy(), 2))
    q12 = q.reshape(12, 1)  # same bytes, other shape
    assert np.array_equal(vpk._mdav_partition(q12, np.zeros(12), 3), mdav_labels(q12.copy(), 3))
    assert np.array_equal(vpk._mdav_partition(q, c, 3), mdav_labels(q.copy(), 3))


def test_literal_mdav_with_remembered_distances_equals_the_former():
    g = np.random.default_rng(11)
    for t in range(25):
        n = int(g.integers(2, 25))
        k = int(g.integers(1, max(2, n // 2) + 1))
        x = g.normal(size=(n, int(g.integers(1, 4))))
        if t % 3 == 0:
            x = x.round(0)  # ties
        dist = ("standardised", "raw")[t % 2]
        assert np.array_equal(ref.literal_mdav_labels(x, k, dist),
                              old_literal_mdav_labels(x, k, dist))


# ---------------------------------------------------------------- mixed release (exact loss)
@pytest.mark.parametrize("rows", ["shuffled", "aligned"])
def test_exact_mixed_loss_with_shared_partitions_equals_fresh_computation(rows):
    from privlab.mechanisms.microaggregation.semantic import NumericDomain
    from privlab.mechanisms.releases.mixed import MixedDPRelease
    from privlab.proofs.thesis.ch6_mixed import _all, _tiny
    from privlab.verify.releases import mixed_exact as me

    grid = {0: (0.0, 1.0)}
    rel = MixedDPRelease(attributes=(NumericDomain(0, 1), _tiny()), k=2, epsilon=1.0,
                         rows=rows)
    data = _all(rel, 4, grid)[:12]
    data = data + [d[::-1] for d in data[:6]]  # the same multisets in another row order
    shared: dict[Any, Any] = {}
    for d in data:
        fresh = me.exact_mixed_loss(rel, d, grid, None)
        assert me.exact_mixed_loss(rel, d, grid, shared) == fresh
        assert me.exact_mixed_loss(rel, d, grid, {}) == fresh
    assert any(k[0] == "clusters" for k in shared)


# ---------------------------------------------------------------- t-closeness tables (Adult)
def old_load_adult(data_dir):
    from pathlib import Path

    from privlab.proofs.tcloseness.tables import ADULT_QI

    with (Path(data_dir) / "adult.csv").open() as fh:
        rows = [r for r in csv.DictReader(fh) if "?" not in {v.strip() for v in r.values()}]
    c = np.array([float(r["hours-per-week"]) for r in rows])
    q = np.array([[float(r[k]) for k in ADULT_QI] for r in rows])
    return c, q, ADULT_QI


def _same_load(a, b):
    assert a[2] == b[2] and a[0].dtype == b[0].dtype and a[1].shape == b[1].shape
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_tcloseness_load_adult_equals_the_dictreader(tmp_path):
    from privlab.proofs.tcloseness.tables import load_adult

    head = "age,education-num,capital-gain,capital-loss,occupation,hours-per-week\n"
    body = ("39,13,2174,0, Adm-clerical,40\n"
            "50,13,0,0, ?,13\n"
            "\n"
            "38,9,0,0, Tech?support,40\n"
            "53,7,0,0,Sales , 40\n"
            "28,13,0,0,?x,45\n")
    (tmp_path / "adult.csv").write_text(head + body)
    _same_load(load_adult(tmp_path), old_load_adult(tmp_path))
    assert len(load_adult(tmp_path)[0]) == 4
    (tmp_path / "adult.csv").write_text(head + body + "1,2,3,4,x,5,extra\n")  # ragged
    with pytest.raises(AttributeError):
        old_load_adult(tmp_path)
    with pytest.raises(AttributeError):
        load_adult(tmp_path)


def test_tcloseness_load_adult_on_the_real_file_when_present():
    from privlab._data import data_file
    from privlab.proofs.tcloseness.tables import load_adult

    p = data_file("adult.csv")
    if p is None:
        pytest.skip("adult.csv not in the data directory")
    _same_load(load_adult(p.parent), old_load_adult(p.parent))
