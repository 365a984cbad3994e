"""Reproduced tables of thesis §6.4 / vldb14 §5 / irm §4 (privlab.proofs.thesis.ch6_tables).

Golden values: the expected SSE of clamped per-record Laplace noise is computed in closed form
here (integral of t²·Laplace density), independently of the release code.
"""

import re

import numpy as np
import pytest

from privlab.proofs.ledger import MODULES
from privlab.proofs.thesis import ch6_experiments as ex
from privlab.proofs.thesis import ch6_tables as tb

NOWHERE = "/nonexistent-privlab-data"


def _expected_sq_err(x, d, b):
    """E[(clip(x + L, 0, d) − x)²], L ~ Laplace(b): ∫_0^a t² e^{−t/b}/(2b) dt twice plus the
    clamped tails' masses times the squared distance to the bound."""
    def g(a):
        return 0.5 * (2 * b * b - np.exp(-a / b) * (a * a + 2 * a * b + 2 * b * b))
    up = d - x
    return g(x) + g(up) + 0.5 * x * x * np.exp(-x / b) + 0.5 * up * up * np.exp(-up / b)


def test_registered():
    assert "privlab.proofs.thesis.ch6_tables" in MODULES
    assert set(tb.TABLES) == {"thesis-6.1", "thesis-6.2", "thesis-6.5", "vldb14-1", "vldb14-2",
                              "irm-1"}


def test_score_and_variation_golden():
    assert ex.score_row(4.0, 10.0, 16.0, 5.0) == {"sse_f": 0.5, "rl_f": 2.0, "score": 1.0}
    np.testing.assert_allclose(ex.variation(np.array([2.0, -4.0]), np.array([3.0, -2.0])),
                               [0.5, 0.5])


def test_synthetic_census_shape():
    x, b, what = ex.census(data_dir=NOWHERE)
    assert x.shape == (1080, 4) and "synthetic" in what
    np.testing.assert_array_equal(b[:, 1], 1.5 * x.max(axis=0))
    assert (x >= 1).all() and (b[:, 0] == 0).all()


@pytest.mark.parametrize("eps", [0.1, 10.0])
def test_plain_laplace_sse_matches_closed_form(eps):
    x, b, _ = ex.census(data_dir=NOWHERE)
    outs = ex.dp_releases(x, b, 1, eps, 20, rng=3)
    got = np.mean(((outs - x) ** 2).sum(axis=(1, 2)))
    d = b[:, 1]
    want = _expected_sq_err(x, d, d / eps).sum()   # scale Δ_j/(kε), k = 1
    assert got == pytest.approx(want, rel=0.03)


def test_shared_noise_keeps_cluster_ties():
    x, b, _ = ex.census(data_dir=NOWHERE)
    out = ex.dp_releases(x, b, 30, 1.0, 1, rng=1)[0]
    assert len(np.unique(out, axis=0)) <= 1080 // 30


def test_tables_on_synthetic_data():
    t1 = tb.table_6_1(data_dir=NOWHERE, runs=2)
    assert len(t1.rows) == 16 and "synthetic" in t1.notes[0]
    assert all({"paper_sse_f", "paper_score"} <= set(r) for r in t1.rows)
    assert all(r["score"] == pytest.approx(r["sse_f"] * r["rl_f"]) for r in t1.rows)
    t5 = tb.table_6_5(data_dir=NOWHERE, runs=2)
    # microaggregation alone preserves the means (centroids are cluster means)
    assert max(r["insensitive_mdav"] for r in t5.rows if r["statistic"].startswith("Δ(m")) \
        < 1e-12
    assert all(r["mdav"] == 0 for r in t5.rows if r["k"] == 1)
    ti = tb.table_irm_1(data_dir=NOWHERE, runs=2)
    assert len(ti.rows) == 32 and "paper_mv_eps_10" in ti.columns


def test_readings_thesis_first_and_every_combination():
    assert ex.THESIS == ex.Reading() == ex.READINGS[0]
    assert (ex.THESIS.distance, ex.THESIS.references, ex.THESIS.noise) == (
        "range", "corners", "per-record")
    assert len(set(ex.READINGS)) == len(ex.READINGS) == 8
    with pytest.raises(ValueError):
        ex.Reading(distance="raw")


def _brute_rl(a, b):
    """Record linkage (%) by brute force: Pr(x′_j) = 1/|G| when x_j is among the originals at
    minimum distance from x′_j (exact ties only)."""
    d = ((b[:, None, :] - a[None, :, :]) ** 2).sum(axis=2)
    g = d == d.min(axis=1, keepdims=True)
    hit = g[np.arange(len(a)), np.arange(len(a))]
    return 100.0 * float(np.mean(np.where(hit, 1.0 / g.sum(axis=1), 0.0)))


def test_range_record_linkage_is_eq_6_7():
    """RL with the range distance = brute-force RL on (x − a_b)/(a_t − a_b) (eq. 6.7)."""
    x, b, _ = ex.census(data_dir=NOWHERE)
    r = ex.CensusRuns(NOWHERE)
    for k in (2, 5):
        out = r.mdav(k, "range")
        w = b[:, 1] - b[:, 0]
        assert ex.rl(x, out, b, "range") == pytest.approx(_brute_rl(x / w, out / w))
    with pytest.raises(ValueError):
        ex.rl(x, x, None, "range")


def test_readings_change_partition_and_noise():
    r = ex.CensusRuns(NOWHERE)
    x = r.x
    corners, single = r.labels(5, "corners"), r.labels(5, "single")
    assert not np.array_equal(corners, single)
    for lab in (corners, single):
        assert np.bincount(lab).min() >= 5
    # microaggregation alone keeps the means, MDAV with either distance too
    for out in (r.insensitive(5, "corners"), r.mdav(5, "range"), r.mdav(5, "standardised")):
        np.testing.assert_allclose(out.mean(axis=0), x.mean(axis=0), rtol=1e-12)
    assert not np.array_equal(r.mdav(5, "range"), r.mdav(5, "standardised"))
    # k = 1 is plain Laplace in every reading: one memoised cell
    cells = {id(r.cell(1, 1.0, rd, runs=2, seed=0)) for rd in ex.READINGS}
    assert len(cells) == 1
    c = r.cell(5, 1.0, ex.THESIS, runs=2, seed=0)
    assert c is r.cell(5, 1.0, ex.Reading(), runs=2, seed=0)
    assert set(c.rl) == {"range", "standardised"} and c.d_mean.shape == (4,)


def test_per_cluster_noise_keeps_cluster_ties_per_record_does_not():
    r = ex.CensusRuns(NOWHERE)
    for noise in ex.NOISES:
        out = r.releases(30, 1.0, "corners", noise, "per-attribute", 1, 5)[0]
        distinct = len(np.unique(out, axis=0))
        if noise == "per-cluster":
            assert distinct <= 1080 // 30
        else:
            assert distinct > 1000


def test_per_record_sse_matches_closed_form():
    """Per-record noise on the centroids: E[(clip(c + L) − x)²] = E[(clip(c + L) − c)²]
    + 2(c − x)·E[clip(c + L) − c] + (c − x)², with the clamped Laplace moments in closed form."""
    r = ex.CensusRuns(NOWHERE)
    x, b = r.x, r.bounds
    k, e = 5, 1.0
    c = r.insensitive(k, "corners")
    d = b[:, 1]
    s = d / (k * e)

    def mean_shift(c):
        # E[clip(c + L, 0, d)] − c = (s/2)(e^{−c/s} − e^{−(d−c)/s})
        return 0.5 * s * (np.exp(-c / s) - np.exp(-(d - c) / s))

    want = (_expected_sq_err(c, d, s) + 2 * (c - x) * mean_shift(c) + (c - x) ** 2).sum()
    got = np.mean(((r.releases(k, e, "corners", "per-record", "per-attribute", 40, 9) - x)
                   ** 2).sum(axis=(1, 2)))
    assert got == pytest.approx(want, rel=0.03)


def test_every_reading_has_a_match_note():
    t = tb.table_6_1(data_dir=NOWHERE, runs=2)
    lines = [n for n in t.notes if n.startswith("reading ")]
    assert len(lines) == len(ex.READINGS)
    for rd, line in zip(ex.READINGS, lines, strict=True):
        assert line.startswith(f"reading {rd.label}")
        assert re.search(r": \d+ of (\d+) cells match", line)  # inf factors (RL = 0) left out
    assert "(the thesis's stated configuration; the rows)" in lines[0]
    assert sum(n.startswith("Any reading: ") for n in t.notes) == 1
    assert not any("factor of about 21" in n for n in t.notes)
    t2 = tb.table_v2(data_dir=NOWHERE, runs=2)
    assert len(t2.rows) == 12 and {r["k"] for r in t2.rows} == set(tb.KS_V)
    assert sum(n.startswith("reading ") for n in t2.notes) == len(ex.READINGS)


def test_printed_values_keep_their_text():
    assert tb.PAPER_6_1[5][0].text == "1.20E+10" and tb.PAPER_6_1[5][0] == 1.2e10
    assert tb.PAPER_6_2[0.01][2][30][1].text == "0.40"
    assert tb.PAPER_V1[66][2][10.0][1].text == "2.10"
    assert tb.PAPER_6_5["σX"][2][5].text == "0.0053"


@pytest.mark.skipif(ex.census()[2].startswith("seeded"), reason="census_casc.csv absent")
def test_real_census_plain_laplace():
    x, b, what = ex.census()
    assert x.shape == (1080, 4) and "Census" in what
    t2 = tb.table_6_2(runs=3)
    row = next(r for r in t2.rows if r["epsilon"] == 10.0)
    want = _expected_sq_err(x, b[:, 1], b[:, 1] / 10.0).sum()
    assert row["sse0"] == pytest.approx(want, rel=0.05)
