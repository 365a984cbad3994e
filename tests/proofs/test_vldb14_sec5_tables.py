"""vldb14 §5 Tables 5, 6 (Adult-Numerical-Categorical) and 7 (Census statistics)
(privlab.proofs.thesis.vldb14_sec5_tables).

Golden values: record linkage and MDAV are recomputed here by brute force on small subsets
(every pair distance, the clustering record by record), independently of the compiled kernels.
"""

from __future__ import annotations

from collections import Counter

import attrs
import numpy as np
import pytest

from privlab._data import data_file
from privlab.proofs.printed import Printed
from privlab.proofs.thesis import ch6_experiments as ex
from privlab.proofs.thesis import vldb14_sec5_runs as vt
from privlab.proofs.thesis import vldb14_sec5_tables

NOWHERE = "/nonexistent-privlab-data"
REAL_ADULT = data_file("adult.csv") is not None
REAL_CENSUS = data_file("census_casc.csv") is not None


@pytest.fixture(scope="module")
def synth() -> vt.AdultMixed:
    return vt.adult_mixed(NOWHERE)


def _subset(d: vt.AdultMixed, idx: np.ndarray) -> vt.AdultMixed:
    return attrs.evolve(d, num=d.num[idx], cat=d.cat[idx])


def _sq_dist(d: vt.AdultMixed, num_a, cat_a, num_b, cat_b, scale) -> np.ndarray:
    """Pairwise squared eq. (8) distances (rows a, columns b)."""
    out = (((num_a[:, None, :] - num_b[None, :, :]) * scale) ** 2).sum(axis=2)
    for j in range(cat_a.shape[1]):
        t = d.space.dist[j][cat_a[:, j][:, None], cat_b[:, j][None, :]] / d.space.norm[j]
        out = out + t * t
    return out


def _brute_pr(d: vt.AdultMixed, num_out, cat_out, scale) -> np.ndarray:
    dd = _sq_dist(d, num_out, cat_out, d.num, d.cat, scale)
    dmin = dd.min(axis=1, keepdims=True)
    g = dd <= dmin * (1 + 1e-12) + 1e-300
    hit = g[np.arange(d.n), np.arange(d.n)]
    return np.where(hit, 1.0 / g.sum(axis=1), 0.0)


def test_printed_values_parsed_as_printed():
    assert isinstance(vt.PAPER_V5[174][2][0.1][1], Printed)
    assert vt.PAPER_V5[174][2][0.1][1].text == "396.77"
    assert vt.PAPER_V6[0.01][1].text == "9.95E-05"
    assert vt.PAPER_V6[10.0][2][174][1].text == "6.8"
    assert set(vt.PAPER_V7) == {f"{s}{a}" for s in "mσ" for a in "XPIF"}
    assert all(set(v) == {1, *vt.KS_V7} and len(v[1]) == 6 for v in vt.PAPER_V7.values())


def test_v7_repeats_thesis_table_6_5():
    """vldb14 Table 7's None row is thesis Table 6.5's k = 1 row, and its microaggregation-only
    columns at k = 33 and 66 are thesis Table 6.5's k = 5 and 15 columns."""
    rep = vt.v7_repeats()
    assert rep[1] == {c: (1,) for c in vt.V7_COLUMNS}
    assert rep[33] == {"insensitive_mdav": (5,), "mdav": (5,)}
    assert rep[66] == {"insensitive_mdav": (15,), "mdav": (15,)}
    assert not any(c.startswith("eps") for k in vt.KS_V7 for c in rep.get(k, {}))


def test_synthetic_mixed_data(synth):
    assert not synth.real and "synthetic" in synth.what
    assert synth.num.shape == synth.cat.shape == (30_162, 2)
    np.testing.assert_array_equal(synth.bounds[:, 1], 1.5 * synth.num.max(axis=0))
    assert (synth.bounds[:, 0] == 0).all()


@pytest.mark.skipif(not REAL_ADULT, reason="adult.csv absent (../shared/data or PRIVLAB_DATA_DIR)")
def test_real_mixed_data_rows_are_the_categorical_tables_rows():
    from privlab.proofs.thesis import ch6_adult_experiments as ax

    d = vt.adult_mixed()
    codes, space, _, real = ax.adult_categorical()
    assert d.real and real
    np.testing.assert_array_equal(d.cat, codes)
    assert [t.name for t in d.space.taxonomies] == [t.name for t in space.taxonomies]
    assert d.num.shape == (30_162, 2)
    assert d.num[:, 0].min() == 17 and d.num[:, 0].max() == 90  # AGE
    assert d.num[:, 1].min() == 1 and d.num[:, 1].max() == 99  # HOURS-PER-WEEK


@pytest.mark.parametrize("distance", ["range", "standardised"])
def test_record_linkage_matches_brute_force(synth, distance):
    g = np.random.default_rng(5)
    d = _subset(synth, g.choice(synth.n, 400, replace=False))
    d = attrs.evolve(d, num=np.round(d.num / 10) * 10)  # duplicates: ties in G
    scale = vt._num_scale(d, distance)
    link = vt._Linker(d, scale)
    sizes = d.space.sizes
    releases = [
        (d.num, d.cat),  # the data itself: Pr = 1/multiplicity
        (np.clip(d.num + g.laplace(size=d.num.shape) * 5, 0, d.bounds[:, 1]), d.cat),
        (d.num + g.integers(-10, 11, size=d.num.shape) * 1.0,
         np.where(g.random(d.cat.shape) < 0.3,
                  g.integers(0, sizes.min(), size=d.cat.shape), d.cat)),
    ]
    for num_out, cat_out in releases:
        got = link.pr(num_out, cat_out)
        want = _brute_pr(d, num_out, cat_out, scale)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    assert 0 < want.mean() < 1


def _brute_mdav(d: vt.AdultMixed, k: int, scale) -> list[frozenset[int]]:
    """MDAV record by record: average record = mean / marginality centroid over τ(S);
    farthest and nearest ties (within 1e-12) go to the canonically first record (values
    lexicographic in attribute order OCCUPATION, NATIVE-COUNTRY, AGE, HOURS-PER-WEEK, then
    index)."""
    key = np.lexsort((np.arange(d.n), d.num[:, 1], d.num[:, 0], d.cat[:, 1], d.cat[:, 0]))
    rank = np.empty(d.n, dtype=int)
    rank[key] = np.arange(d.n)
    rem = set(range(d.n))
    taxes = d.space.taxonomies

    def centroid(ids):
        ids = sorted(ids)
        num = d.num[ids].mean(axis=0)
        cat = []
        for j, t in enumerate(taxes):  # eq. (5); ties within 1e-9 (relative) → smallest name
            sample = [t.concepts[c] for c in d.cat[ids, j]]
            cand = t.sub_concepts(sample)
            m = t.marginality(sample, cand)
            best = m.min()
            cat.append(t.index[cand[int(np.flatnonzero(m <= best + 1e-9 * max(1, best))[0])]])
        return num, np.array(cat)

    def dist_from(num, cat, ids):
        ids = sorted(ids, key=lambda i: rank[i])
        dd = _sq_dist(d, num[None], cat[None], d.num[ids], d.cat[ids], scale)[0]
        return ids, dd

    def farthest(num, cat):
        ids, dd = dist_from(num, cat, rem)
        return ids[int(np.flatnonzero(dd >= dd.max() - 1e-12)[0])]

    def take(a):
        ids, dd = dist_from(d.num[a], d.cat[a], rem - {a})
        got = [a]
        left = list(range(len(ids)))  # canonical order
        while len(got) < k:  # the nearest; distances within 1e-12 tie → canonical first
            best = min(dd[i] for i in left)
            i = next(i for i in left if dd[i] <= best + 1e-12)
            left.remove(i)
            got.append(ids[i])
        rem.difference_update(got)
        return frozenset(got)

    out = []
    while len(rem) >= 3 * k:
        a = farthest(*centroid(rem))
        out.append(take(a))
        b = farthest(d.num[a], d.cat[a])
        out.append(take(b))
    if len(rem) >= 2 * k:
        out.append(take(farthest(*centroid(rem))))
    out.append(frozenset(rem))
    return out


@pytest.mark.parametrize(("k", "distance"), [(3, "range"), (4, "standardised")])
def test_mixed_mdav_matches_record_by_record_mdav(synth, k, distance):
    g = np.random.default_rng(11)
    d = _subset(synth, g.choice(synth.n, 90, replace=False))
    lab = vt.mixed_mdav_labels(d, k, distance)
    got = [frozenset(np.flatnonzero(lab == c).tolist()) for c in range(lab.max() + 1)]
    assert got == _brute_mdav(d, k, vt._num_scale(d, distance))


@pytest.mark.parametrize("references", ["corners", "single"])
def test_mixed_insensitive_partition_is_insensitive(synth, references):
    """Substituting one record changes every cluster by at most one record (Proposition 1 /
    thesis Proposition 7): cluster i of X and of X′ differ in ≤ 1 value as multisets."""
    g = np.random.default_rng(3)
    d = _subset(synth, g.choice(synth.n, 120, replace=False))
    k = 7
    lab = vt.mixed_insensitive_labels(d, k, references)
    sizes = np.bincount(lab)
    assert sizes[:-1].min() == k == sizes[:-1].max() and k <= sizes[-1] < 2 * k
    for trial in range(6):
        i, j = g.choice(d.n, 2, replace=False)
        num, cat = d.num.copy(), d.cat.copy()
        num[i], cat[i] = d.num[j] + [trial, 0], d.cat[j]  # a substitution inside the domain
        d2 = attrs.evolve(d, num=num, cat=cat)
        lab2 = vt.mixed_insensitive_labels(d2, k, references)
        for c in range(lab.max() + 1):
            a = sorted(map(tuple, np.c_[d.cat, d.num][lab == c].tolist()))
            b = sorted(map(tuple, np.c_[d2.cat, d2.num][lab2 == c].tolist()))
            assert sum((Counter(a) - Counter(b)).values()) <= 1


def test_releases_clamped_and_centroids(synth):
    r = vt.MixedRuns(NOWHERE)
    num, cat = r.releases(348, 10.0, "corners", "per-cluster", 2, 1)
    assert num.shape == cat.shape == (2, r.d.n, 2)
    assert (num >= 0).all() and (num <= r.d.bounds[:, 1]).all()
    lab = r.partition(348, "corners")[0]
    for run in range(2):  # per-cluster draws: one value per cluster and attribute
        for j in range(2):
            for arr in (num[run, :, j], cat[run, :, j]):
                per = [np.unique(arr[lab == c]).size for c in range(lab.max() + 1)]
                assert max(per) == 1
    num1, _ = r.releases(348, 10.0, "corners", "per-record", 1, 1)
    assert np.unique(num1[0], axis=0).shape[0] > lab.max() + 1


def test_sse_normalisations(synth):
    d = synth
    s = vt._sse(d, d.num, d.cat)
    assert s == {"units": 0.0, "range": 0.0, "eq8": 0.0}
    shifted = d.num + np.array([1.0, 0.0])
    s = vt._sse(d, shifted, d.cat)
    assert s["units"] == pytest.approx(d.n)
    assert s["range"] == s["eq8"] == pytest.approx(d.n / d.width[0] ** 2)


@pytest.mark.skipif(not REAL_CENSUS, reason="census_casc.csv absent")
def test_table_7_structure_and_readings():
    t = vt.table_v7(runs=2)
    assert t.id == "vldb14-7" and t.columns[:2] == ("statistic", "k")
    assert len(t.rows) == 32 and {r["k"] for r in t.rows} == {1, 2, 33, 66}
    for r in t.rows:
        st = r["statistic"][2:-1]
        assert tuple(r[f"paper_{c}"] for c in vt.V7_COLUMNS) == vt.PAPER_V7[st][r["k"]]
        if st.startswith("m"):  # microaggregation alone keeps the means
            assert r["insensitive_mdav"] < 1e-12 and r["mdav"] < 1e-12
        if r["k"] == 1:
            assert r["insensitive_mdav"] == r["mdav"] == 0
    text = " ".join(t.notes)
    assert "sha256=" in text and "2 runs averaged" in text
    for rd in ex.READINGS:
        for st, avg in vt.MEASURES:
            assert f"reading {rd.label} / σ = {st} / {avg}" in text
    assert "(the stated configuration; the rows)" in text and "Any reading:" in text
    assert "thesis k = 5" in text


def test_table_7_on_synthetic_census():
    t = vt.table_v7(data_dir=NOWHERE, runs=1)
    assert "SYNTHETIC" in t.source and "synthetic" in t.notes[0]
    assert len(t.rows) == 32


def _check_mixed_table(t, paper, first, second):
    assert len(t.rows) == 12
    for r in t.rows:
        assert set(t.columns) == set(r)
        assert r["score"] == pytest.approx(r["sse_f"] * r["rl_f"])
        assert r["sse_f"] == pytest.approx(np.sqrt(r["sse0"] / r["sse_ke"]))
        p = paper[r[first]]
        assert (r["paper_sse0"], r["paper_rl0"]) == (p[0], p[1])
        assert (r["paper_sse_f"], r["paper_rl_f"], r["paper_score"]) == p[2][r[second]]
    text = " ".join(t.notes)
    assert "sha256=" in text or "SYNTHETIC" in text
    return text


@pytest.mark.slow
@pytest.mark.skipif(not REAL_ADULT, reason="adult.csv absent (../shared/data or PRIVLAB_DATA_DIR)")
def test_tables_5_6_real_data_every_reading():
    t5 = vt.table_v5()
    text = _check_mixed_table(t5, vt.PAPER_V5, "k", "epsilon")
    for rd in ex.READINGS:
        for s in vt.SSES:
            assert f"reading {rd.label} / SSE {s}" in text
    assert "(the stated configuration; the rows)" in text and "Any reading:" in text
    assert "3 runs averaged" in text and "Taxonomies as" in text
    # the MDAV baseline loses information and linkage as k grows
    sse0 = [next(r["sse0"] for r in t5.rows if r["k"] == k) for k in vt.KS_AN]
    rl0 = [next(r["rl0"] for r in t5.rows if r["k"] == k) for k in vt.KS_AN]
    assert sse0 == sorted(sse0) and rl0 == sorted(rl0, reverse=True)
    t6 = vt.table_v6()
    text = _check_mixed_table(t6, vt.PAPER_V6, "epsilon", "k")
    assert sum(n.startswith("reading ") for n in t6.notes) == 24
    # plain ε-DP: less noise, less information loss as ε grows
    sse = [next(r["sse0"] for r in t6.rows if r["epsilon"] == e) for e in vt.EPS]
    assert sse == sorted(sse, reverse=True)


def test_tables_5_6_synthetic_stated_reading():
    t5 = vt.table_v5(data_dir=NOWHERE, runs=1, readings="stated")
    text = _check_mixed_table(t5, vt.PAPER_V5, "k", "epsilon")
    assert "SYNTHETIC" in t5.source and "SYNTHETIC DATA" in text
    assert [n for n in t5.notes if n.startswith("reading ")] == [
        n for n in t5.notes if n.startswith("reading range / corners / per-record / SSE units")]
    assert sum(n.startswith("reading ") for n in t5.notes) == 1
    with pytest.raises(ValueError):
        vt.table_v5(data_dir=NOWHERE, runs=1, readings="some")


def test_ledger_module_is_the_runs_tables() -> None:
    """The ledger's light module hands each table to the runs module unchanged."""
    assert set(vldb14_sec5_tables.TABLES) == {"vldb14-5", "vldb14-6", "vldb14-7"}
    a = vldb14_sec5_tables.table_v7(data_dir=NOWHERE, runs=1)
    b = vt.table_v7(data_dir=NOWHERE, runs=1)
    assert a.id == b.id == "vldb14-7" and a.rows == b.rows
