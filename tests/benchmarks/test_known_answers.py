"""The known-answer benchmark (benchmarks/audit_known_answers.py, benchmarks/known_answers/):
its true values against independent computations, its samplers against its exact laws, and a
quick smoke run of the runner.

Independent means: numerical quadrature (scipy) instead of the closed-form piecewise-exponential
integrals, closed forms instead of enumerations, privlab's public ``logpdf`` instead of the
step-index formula, and seeded Monte-Carlo frequencies (checked at 6 standard errors, so a
failure means a real mismatch, not luck) instead of the exact law.
"""

from __future__ import annotations

import math
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import audit_known_answers as runner  # noqa: E402
import known_answers.exact as ex  # noqa: E402
import known_answers.floats as floats  # noqa: E402
import known_answers.gaussian as gaussian  # noqa: E402
import known_answers.noisy_max as noisy_max  # noqa: E402
import known_answers.seeds as seeds  # noqa: E402
import known_answers.svt as svt  # noqa: E402
from known_answers import by_name, catalogue  # noqa: E402

REQUIRED_FAMILIES = {"randomized response", "histogram", "partial sums", "noisy max",
                     "sparse vector", "gaussian", "discrete gaussian", "floating point",
                     "privlab mechanisms"}


def lap_pdf(x: float, m: float, b: float) -> float:
    return math.exp(-abs(x - m) / b) / (2 * b)


def lap_cdf(x: float, m: float, b: float) -> float:
    return 0.5 * math.exp((x - m) / b) if x < m else 1 - 0.5 * math.exp(-(x - m) / b)


def exp_pdf(x: float, m: float, b: float) -> float:
    return math.exp(-(x - m) / b) / b if x >= m else 0.0


def exp_cdf(x: float, m: float, b: float) -> float:
    return -math.expm1(-(x - m) / b) if x >= m else 0.0


def _total(ps) -> float:
    """|Σ ps − 1| at the engine's precision (a float sum would round to 53 bits)."""
    with mpmath.workdps(ex.DPS):
        return float(abs(mpmath.fsum(ps) - 1))


def _freq_ok(counts: np.ndarray, probs: np.ndarray, n: int) -> bool:
    """Every observed frequency within 6 standard errors (+ 1/n) of its exact probability."""
    se = np.sqrt(probs * (1 - probs) / n)
    return bool(np.all(np.abs(counts / n - probs) <= 6 * se + 1.0 / n))


# ---- the catalogue as a whole ---------------------------------------------------------------
def test_catalogue_size_names_families_and_derivations():
    cat = catalogue()
    assert len(cat) >= 30
    assert len({e.name for e in cat}) == len(cat)
    assert REQUIRED_FAMILIES <= {e.family for e in cat}
    for e in cat:
        assert len(e.derivation) > 100, e.name  # the builder's docstring
        assert re.search(r"(19|20)\d\d", e.derivation + e.reference), e.name  # a dated reference
        assert e.true_value >= 0 and not math.isnan(e.true_value)
    assert {e.name for e in cat if math.isinf(e.true_value)} >= {
        "svt5", "noisy-max-value-exponential", "float-laplace-naive", "grid12-float32",
        "grid20-float32", "lattice-offset", "float32-noise-in-float64"}
    assert any(e.correct for e in cat) and any(not e.correct for e in cat)


@pytest.mark.parametrize("name", [e.name for e in catalogue()])
def test_samplers_shape_and_seeding(name):
    e = by_name(name)
    a = e.sample_a(50, np.random.default_rng(1))
    b = e.sample_b(50, np.random.default_rng(1))
    assert a.shape == b.shape and a.shape[0] == 50 and a.dtype == b.dtype
    again = e.sample_a(50, np.random.default_rng(1))
    assert np.array_equal(a, again)  # the samplers draw only from the rng they are given


# ---- issue 33's two named cases -------------------------------------------------------------
def test_issue_cases():
    assert by_name("gauss-s3-delta").true_value == pytest.approx(2.0751e-4, rel=1e-3)
    assert by_name("gauss-s3-epsilon").true_value == pytest.approx(1.271, abs=1e-3)
    assert by_name("gauss-s1-epsilon").true_value == pytest.approx(4.377, abs=1e-3)
    assert by_name("svt3").true_value == pytest.approx(3.0, abs=1e-12)
    assert by_name("svt3").claimed_epsilon == 1.0


# ---- randomized response, histograms, sums: closed forms ------------------------------------
def test_randomized_response_closed_forms():
    gamma = 0.5
    assert by_name("rr-binary").true_value == pytest.approx(math.log((1 + gamma) / (1 - gamma)))
    assert by_name("rr-binary-broken").true_value == pytest.approx(math.log(9))
    assert by_name("rr-4ary").true_value == pytest.approx(math.log(3))
    t = 0.5  # mixing form: truth t + (1 - t)/k against (1 - t)/k
    assert by_name("rr-4ary-mixing").true_value == pytest.approx(
        math.log((t + (1 - t) / 4) / ((1 - t) / 4)))


@pytest.mark.parametrize("name,probs", [
    ("rr-binary", [0.75, 0.25]), ("rr-4ary", [0.5, 1 / 6, 1 / 6, 1 / 6]),
    ("rr-4ary-mixing", [5 / 8, 1 / 8, 1 / 8, 1 / 8])])
def test_randomized_response_sampler_matches_its_law(name, probs):
    n = 200_000
    out = by_name(name).sample_a(n, np.random.default_rng(7))
    counts = np.bincount(out, minlength=len(probs))
    assert _freq_ok(counts, np.array(probs), n)


def test_exponential_mechanism_closed_form():
    def law(u, f):
        w = np.exp(f * np.asarray(u))
        return w / w.sum()
    a, b = (0, 1, 1, 1, 1), (1, 0, 0, 0, 0)
    for name, f in (("exponential-mechanism", 0.5), ("exponential-mechanism-no-half", 1.0)):
        want = np.max(np.abs(np.log(law(a, f) / law(b, f))))
        assert by_name(name).true_value == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("name,centres_a,centres_b,scale", [
    ("histogram-substitute", (2, 1), (1, 2), 1.0), ("prefix-sums-broken", (0,) * 4, (1,) * 4, 1.0),
    ("prefix-sums", (0,) * 4, (1,) * 4, 4.0), ("histogram-wrong-scale", (1,), (2,), 0.5)])
def test_product_laplace_truth_attained_in_the_orthant(name, centres_a, centres_b, scale):
    # a point beyond both centres on side a of every moved coordinate attains the supremum
    y = np.array([ca - 3 if ca < cb else ca + 3 for ca, cb in zip(centres_a, centres_b,
                                                                  strict=True)], dtype=float)
    la = stats.laplace.logpdf(y, loc=centres_a, scale=scale).sum()
    lb = stats.laplace.logpdf(y, loc=centres_b, scale=scale).sum()
    assert abs(la - lb) == pytest.approx(by_name(name).true_value, rel=1e-12)


# ---- the exact engine against quadrature ----------------------------------------------------
def test_piecewise_integral_against_quadrature():
    fs = [ex.laplace_pdf(Fraction(1, 3), 2), ex.laplace_cdf(Fraction(-1, 2), Fraction(4, 3)),
          ex.laplace_sf(1, 4), ex.exponential_cdf(-1, 2), ex.indicator_below(Fraction(5, 2))]
    exact = ex.integral(fs)

    def f(r):
        return (stats.laplace.pdf(r, 1 / 3, 2) * stats.laplace.cdf(r, -0.5, 4 / 3)
                * stats.laplace.sf(r, 1, 4) * stats.expon.cdf(r, -1, 2) * (r < 2.5))
    num, _ = integrate.quad(f, -80, 2.5, points=[-1, -0.5, 1 / 3, 1], limit=200,
                            epsabs=1e-13, epsrel=1e-12)
    assert exact == pytest.approx(num, rel=1e-9)


def test_svt_pattern_law_against_quadrature_on_a_tiny_input():
    q, rho, nu = (0, 1, 1), Fraction(2), Fraction(4)
    pats, probs = svt.pattern_law(q, rho=rho, nu=nu, c=1)
    assert len(pats) == 4 and _total(probs) < 1e-30
    for pat, p in zip(pats, probs, strict=True):
        def f(r, pat=pat):
            v = lap_pdf(r, 0, 2)
            for qi, code in zip(q, pat, strict=True):
                if code == 1:
                    v *= 1 - lap_cdf(r, qi - 0.5, 4)
                elif code == 0:
                    v *= lap_cdf(r, qi - 0.5, 4)
            return v
        num, _ = integrate.quad(f, -100, 100, points=[-0.5, 0, 0.5], limit=200,
                                epsabs=1e-14)
        assert float(p) == pytest.approx(num, rel=1e-8, abs=1e-13)


def test_svt_redraw_and_no_noise_laws_sum_to_one():
    for kw in ({"rho": Fraction(4), "nu": Fraction(8), "c": 2, "redraw": True},
               {"rho": Fraction(2), "nu": None, "c": None},
               {"rho": Fraction(2), "nu": Fraction(2), "c": None}):
        _, probs = svt.pattern_law((0, 0, 1, 1), **kw)
        assert _total(probs) < 1e-25


@pytest.mark.parametrize("name", ["svt1", "svt2", "svt4", "svt5", "svt6"])
def test_svt_sampler_matches_exact_pattern_law(name):
    e = by_name(name)
    params: dict[str, dict[str, Any]] = {
        "svt1": {"rho": Fraction(2), "nu": Fraction(4), "c": 1},
        "svt2": {"rho": Fraction(4), "nu": Fraction(8), "c": 2, "redraw": True},
        "svt4": {"rho": Fraction(4), "nu": Fraction(4, 3), "c": 1},
        "svt5": {"rho": Fraction(2), "nu": None, "c": None},
        "svt6": {"rho": Fraction(2), "nu": Fraction(2), "c": None}}
    kw = params[name]
    pats, probs = svt.pattern_law(svt.MIXED[0], **kw)
    n = 100_000
    rows = e.sample_a(n, np.random.default_rng(3))
    index = {p: i for i, p in enumerate(pats)}
    counts = np.zeros(len(pats))
    uniq, cnt = np.unique(rows, axis=0, return_counts=True)
    for r, c in zip(uniq, cnt, strict=True):
        counts[index[tuple(int(x) for x in r)]] = c  # KeyError: a pattern outside the law
    assert _freq_ok(counts, np.array([float(p) for p in probs]), n)


def test_svt3_density_ratio_is_k_over_two_below_zero_and_never_above_three():
    a, b = svt.SHIFT
    with mpmath.workdps(ex.DPS):
        for k in range(1, 7):
            for v in (Fraction(-5), Fraction(-1, 3), Fraction(0)):
                r = mpmath.log(svt.svt3_density(a, k, v) / svt.svt3_density(b, k, v))
                assert float(r) == pytest.approx(k / 2, abs=1e-25)
            for v in (Fraction(1, 4), Fraction(1), Fraction(3), Fraction(9)):
                r = mpmath.log(svt.svt3_density(a, k, v) / svt.svt3_density(b, k, v))
                assert -0.5 - 1e-25 <= float(r) <= 3.0 + 1e-25
    # the sampler releases values exactly where the law puts them: ⊤ at query 6 with v ≤ 0
    rows = by_name("svt3").sample_a(200_000, np.random.default_rng(5))
    top6 = (rows[:, 5] > svt.BOT) & np.all(rows[:, :5] == svt.BOT, axis=1) & (rows[:, 5] <= 0)
    with mpmath.workdps(ex.DPS):
        def dens(v):
            return float(svt.svt3_density(a, 6, Fraction(v)))
        p, _ = integrate.quad(dens, -60, 0, limit=200)
    assert _freq_ok(np.array([top6.sum()]), np.array([p]), rows.shape[0])


def test_noisy_max_argmax_law_against_quadrature_and_sampler():
    q = noisy_max.IDX_A
    for noise, scale in (("laplace", Fraction(2)), ("exponential", Fraction(1))):
        law = noisy_max.argmax_law(q, noise, scale)
        assert _total(law) < 1e-30
        pdf, cdf = (lap_pdf, lap_cdf) if noise == "laplace" else (exp_pdf, exp_cdf)
        s = float(scale)
        for i in range(len(q)):
            def f(x, i=i, pdf=pdf, cdf=cdf, s=s):
                v = pdf(x, q[i], s)
                for j in range(len(q)):
                    if j != i:
                        v *= cdf(x, q[j], s)
                return v
            num, _ = integrate.quad(f, -80, 80, points=[0, 1], limit=200, epsabs=1e-14)
            assert float(law[i]) == pytest.approx(num, rel=1e-8)
    e = by_name("noisy-max-laplace")
    n = 200_000
    counts = np.bincount(e.sample_a(n, np.random.default_rng(11)), minlength=5)
    law = noisy_max.argmax_law(q, "laplace", Fraction(2))
    assert _freq_ok(counts, np.array([float(x) for x in law]), n)


def test_noisy_max_value_laplace_ratio_bounded_by_its_truth():
    a, b = noisy_max.VAL_A, noisy_max.VAL_B
    with mpmath.workdps(ex.DPS):
        for x in (Fraction(-7), Fraction(-1, 2), Fraction(1, 2), Fraction(2), Fraction(8)):
            r = float(mpmath.log(noisy_max.max_density(a, "laplace", Fraction(2), x)
                                 / noisy_max.max_density(b, "laplace", Fraction(2), x)))
            assert -2.5 - 1e-20 <= r <= 2.5 + 1e-20
            if x <= 0:
                assert r == pytest.approx(2.5, abs=1e-25)


# ---- Gaussian and discrete Gaussian ---------------------------------------------------------
@pytest.mark.parametrize("sigma,eps", [(3.0, 1.0), (1.0, 1.0), (5.0, 0.5), (2.0, 0.25)])
def test_gaussian_delta_against_numeric_integral(sigma, eps):
    # δ(ε) = ∫ (p_0(y) − e^ε p_1(y))₊ dy; the integrand is positive for y < 1/2 − εσ²
    cut = 0.5 - eps * sigma**2
    num, _ = integrate.quad(lambda y: stats.norm.pdf(y, 0, sigma)
                            - math.exp(eps) * stats.norm.pdf(y, 1, sigma), -np.inf, cut,
                            epsabs=1e-16, epsrel=1e-11)
    assert ex.gaussian_delta(sigma, eps) == pytest.approx(num, rel=1e-8)


@pytest.mark.parametrize("sigma,delta", [(3.0, 1e-5), (1.0, 1e-5), (2.0, 1e-6)])
def test_gaussian_epsilon_inverts_the_profile(sigma, delta):
    e = ex.gaussian_epsilon(sigma, delta)
    assert ex.gaussian_delta(sigma, e) == pytest.approx(delta, rel=1e-9)


def test_discrete_gaussian_table_and_profile():
    k, w = gaussian.dgauss_table(4)
    assert sum(w) == 1 << gaussian.BITS and w == w[::-1] and len(w) == 2 * k + 1
    ks = np.arange(-k, k + 1)
    ideal = np.exp(-ks.astype(float) ** 2 / 8)
    ideal /= np.exp(-np.arange(-60, 61) ** 2 / 8).sum()
    assert np.max(np.abs(np.array(w) / 2.0**62 - ideal)) < 1e-15
    # δ(1) from the ideal pmf (a plain float sum) agrees with the table law's exact profile
    pa = np.concatenate([ideal, [0.0]])
    pb = np.concatenate([[0.0], ideal])
    want = np.maximum(pa - math.e * pb, 0).sum()
    assert by_name("dgauss-s2-delta").true_value == pytest.approx(want, rel=1e-10)
    eps = by_name("dgauss-s2-epsilon").true_value
    with mpmath.workdps(ex.DPS):
        assert float(gaussian.dgauss_profile(4)(mpmath.mpf(eps))) == pytest.approx(1e-5,
                                                                                  rel=1e-9)
    n = 200_000
    out = by_name("dgauss-s2-delta").sample_a(n, np.random.default_rng(2))
    counts = np.array([(out == x).sum() for x in ks])
    assert _freq_ok(counts, np.array(w) / 2.0**62, n)


# ---- floating point: witnesses and impossibility --------------------------------------------
def test_naive_float_witnesses_and_the_sterbenz_side():
    for name, scale, dtype in (("float-laplace-naive", 10.0, np.float64),
                               ("float32-laplace-naive", 1.0, np.float32)):
        assert floats.naive_witness(scale, dtype) is not None
        out = by_name(name).sample_b(200_000, np.random.default_rng(4))
        sel = (out >= -1.0) & (out < -0.5)
        assert sel.sum() > 1000
        assert not np.any(floats._lowest_bit(out[sel]) == 1)  # impossible under x = 1
        out_a = by_name(name).sample_a(200_000, np.random.default_rng(4))
        sel_a = (out_a >= -1.0) & (out_a < -0.5)
        assert np.any(floats._lowest_bit(out_a[sel_a]) == 1)  # and frequent under x = 0


def test_float32_noise_in_float64_support():
    assert floats.f32_noise_witness() is not None
    e = by_name("float32-noise-in-float64")
    a = e.sample_a(10_000, np.random.default_rng(0))
    b = e.sample_b(10_000, np.random.default_rng(0))
    assert np.array_equal(a.astype(np.float32).astype(np.float64), a)
    assert np.mean(b.astype(np.float32).astype(np.float64) != b) > 0.2


def test_grid_tables_supports_differ_and_sampler_uses_the_table():
    ta, tb = floats.grid_table(0.0, 12), floats.grid_table(1.0, 12)
    assert ta.dtype == np.float32 and ta.size == 4096
    assert np.setdiff1d(ta, tb).size > 0
    out = by_name("grid12-float32").sample_a(10_000, np.random.default_rng(0))
    assert np.isin(out, ta).all()
    same = floats.grid_table(0.0, 12)
    assert floats.table_epsilon(same, same) == 0.0


def test_lattice_offset_supports():
    e = by_name("lattice-offset")
    a = e.sample_a(10_000, np.random.default_rng(0))
    b = e.sample_b(10_000, np.random.default_rng(0))
    assert np.all(a * 16 == np.round(a * 16))
    assert not np.any(b * 16 == np.round(b * 16))


# ---- privlab's staircase: step-index formula against the public logpdf ----------------------
@pytest.mark.parametrize("name", ["privlab-staircase", "privlab-staircase-half-sensitivity",
                                  "privlab-staircase-wrong-ratio",
                                  "privlab-staircase-half-width"])
def test_staircase_truth_against_logpdf(name):
    from privlab.mechanisms.noise.controls import HalfWidthStaircase, WrongRatioStaircase
    from privlab.mechanisms.noise.staircase import Staircase

    mech = {"privlab-staircase": lambda: Staircase.optimal(1.0),
            "privlab-staircase-half-sensitivity": lambda: Staircase.optimal(1.0,
                                                                            sensitivity=0.5),
            "privlab-staircase-wrong-ratio": lambda: WrongRatioStaircase(epsilon=1.0, d=0.4),
            "privlab-staircase-half-width": lambda: HalfWidthStaircase(epsilon=1.0,
                                                                       d=0.3)}[name]()
    y = np.linspace(-9.0, 10.0, 400_003)
    got = np.max(np.abs(mech.logpdf(y) - mech.logpdf(y - 1.0)))
    assert got == pytest.approx(by_name(name).true_value, rel=1e-9)


def test_seeds_laplace_fast_witness():
    from privlab.mechanisms.noise.laplace import Laplace

    assert seeds.laplace_fast_witness(Laplace(epsilon=0.1)) is not None


# ---- the runner -----------------------------------------------------------------------------
def test_runner_quick_smoke(capsys):
    names = ["rr-binary-broken", "svt5", "grid12-float32"]
    assert runner.main(["--quick", "--only", *names]) == 0
    out = capsys.readouterr().out
    assert "# jax-privacy:" in out
    for nm in names:
        row = next(ln for ln in out.splitlines() if ln.startswith(f"| {nm} "))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[4] == ("inf" if nm != "rr-binary-broken" else "2.19722")  # true
        assert cells[11] == "100,000"  # samples per side
        assert cells[7] in ("met", "miss")
    summary = next(ln for ln in out.splitlines() if ln.startswith("summary:"))
    assert re.search(r"finite ε: \d/1 .* infinite: \d/2 reported structural", summary)
    assert "false alarms on claims that hold: 0/0" in summary
    # the broken binary RR is far above its claim at 10^5 per side
    assert "| violation" in next(ln for ln in out.splitlines()
                                 if ln.startswith("| rr-binary-broken "))


def test_runner_bad_input_is_one_error_line(capsys):
    assert runner.main(["--only", "no-such-mechanism"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --only=no-such-mechanism")
    assert runner.main(["--samples", "12"]) == 2
    assert runner.main(["--samples", "1e6", "--budget", "0"]) == 2


def test_runner_helpers():
    e = by_name("gauss-s3-delta")
    assert runner.claim_text(e) == "δ≤1e-05 at ε=1"
    assert runner.claim_text(by_name("gauss-s3-epsilon")) == "ε=1 at δ=1e-05"
    assert runner.goal_status(e, 2.0e-4, False, "violation") == "met"
    assert runner.goal_status(e, 1.9e-4, False, "violation") == "miss"
    inf = by_name("svt5")
    assert runner.goal_status(inf, 9.0, True, "violation") == "met"
    assert runner.goal_status(inf, 9.0, False, "violation") == "miss"
    ok = by_name("rr-binary")
    assert runner.goal_status(ok, 1.2, False, "violation") == "FALSE ALARM"
    assert runner.samples_for(by_name("svt1"), 10**7, None) == 10**7
    assert runner.samples_for(by_name("svt1"), 10**7, 1.0) < 10**7
