"""The ch.4 ledger: every claim runs without error and gets the status its evidence supports;
tables have the contract's columns; golden values are recomputed on routes the ledger does not
use (scipy quadrature of the mechanism's own pdf, brute-force grids over d, scipy.stats).
Printed numbers appear only as the tables' ``paper_*`` columns and in mutation tests."""

from __future__ import annotations

import itertools
import json
import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, optimize

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.proofs import default_ledger
from privlab.proofs.thesis import ch4 as ch4
from privlab.proofs.thesis import ch4_exact as ex
from privlab.proofs.thesis import ch4_noises as nz
from privlab.proofs.thesis import ch4_symbolic as sy
from privlab.proofs.thesis import ch4_tables as tb
from privlab.types import Status, status_of

V, C, R = Status.VERIFIED, Status.CONFIRMED, Status.REFUTED
EXPECTED = {
    "thesis:def-6": C, "thesis:def-7": C, "thesis:def-8": C, "thesis:eq-4.2": C,
    "thesis:sec-4.3-m-independent-of-i": V, "thesis:sec-4.3-m-formula": V,
    "thesis:sec-4.3-dp": V, "thesis:sec-4.3-smaller-than-laplace": V,  # issue 31: proofs
    "thesis:lemma-1": C, "thesis:lemma-2": C, "thesis:cor-1": C,
    "thesis:thm-1": R, "thesis:thm-1-symmetric": V, "thesis:thm-1-proof-construction": R,
    "thesis:thm-1-indexing": R, "thesis:thm-1-di-independent": V,
    "thesis:thm-2": R, "thesis:thm-2-interior": V,
    "thesis:thm-2-d-above-sensitivity": Status.FINDING,  # d > Δ: the lab's question
    "thesis:sec-4.4-m0-d-relation": V, "thesis:sec-4.4-variance": V,
    "thesis:sec-4.4-fig-4.2-minimum": V, "thesis:sec-4.4-fig-4.3-minimum": V,
    "thesis:table-4.1": V, "thesis:table-4.2": V,  # issue 14: consistent truncation matches
}


def _has_verify() -> bool:
    try:
        from privlab.verify import check_pure_dp, compare  # noqa: F401
    except ImportError:
        return False
    return True


HAS_VERIFY = _has_verify()


@pytest.fixture(scope="module")
def outcomes():
    if not HAS_VERIFY:
        pytest.skip("privlab.verify (check_pure_dp / compare) not available yet")
    return {o.claim.id: o for o in default_ledger().run([c.id for c in ch4.CLAIMS])}


def test_ids_sources_and_order():
    """The recorded claims keep their order; a new claim is added in ch4.py alone."""
    ids = [c.id for c in ch4.CLAIMS]
    assert [i for i in ids if i in EXPECTED] == list(EXPECTED)
    for c in ch4.CLAIMS:
        assert c.source.startswith("000_65177858bc9aa63c.txt §4") and c.statement and c.notes


def test_every_claim_runs_without_error(outcomes):
    errors = {cid: o.error for cid, o in outcomes.items() if o.error}
    assert errors == {}
    assert set(EXPECTED) <= set(outcomes)
    json.dumps([o.to_dict() for o in outcomes.values()])


@pytest.mark.parametrize("cid", list(EXPECTED))
def test_claim_status(outcomes, cid):
    o = outcomes[cid]
    assert o.status is EXPECTED[cid], (o.error, o.result and o.result.evidence)
    if o.status is Status.REFUTED:
        assert o.to_dict()["counterexample"] is not None


# ---- claims that do not need privlab.verify: also run directly ------------------------------
@pytest.mark.parametrize("check,status", [
    (sy.check_m_independent_of_i, V), (sy.check_m_formula, V), (sy.check_thm1_di, V),
    (sy.check_m0_d_relation, V), (sy.check_printed_indexing, R), (sy.check_variance, V),
    (sy.check_fig42_minimum, V), (tb.check_table_41, V), (tb.check_table_42, V),
    (tb.check_fig43_minimum, V)])
def test_symbolic_and_table_claims(check, status):
    assert status_of(check()) is status


def test_mutations_are_caught(monkeypatch):
    # a wrong "printed" value must refute Table 4.1
    monkeypatch.setitem(tb.PAPER_VAR, "1", ("2.00", "1.91"))
    res = tb.check_table_41()
    assert status_of(res) is R and res.counterexample[0]["cell"] == "ε=1 optimal"
    # the literal (wrong) reading of m_i must not pass as the reconstruction
    monkeypatch.setattr(sy, "m_reconstructed", sy.m_literal)
    assert not sy.check_m_formula().holds


def test_printed_precision_helper():
    with mpmath.workdps(30):
        r = tb._cmp(mpmath.mpf("11.97835"), "11.97")
        assert not r["rounding_agrees"] and r["truncation_agrees"]
        r = tb._cmp(mpmath.mpf("1.91810"), "1.92")
        assert r["rounding_agrees"] and not r["truncation_agrees"]


# ---- golden values on independent routes ----------------------------------------------------
def _quad_variance(eps: float, d: float) -> float:
    """E Y² by scipy quadrature of Staircase.pdf, piece by piece (60/ε steps)."""
    y = Staircase(epsilon=eps, d=d)
    edges = [0.0, d] + [d + k for k in range(1, int(60 / eps))]
    total = sum(integrate.quad(lambda x: x * x * float(y.pdf(x)), a, b)[0]
                for a, b in itertools.pairwise(edges) if b > a)
    return 2 * total


@pytest.mark.parametrize("eps", [0.5, 1.0])
def test_table_4_1_against_quadrature(eps):
    res = optimize.minimize_scalar(lambda d: _quad_variance(eps, d), bounds=(0.0, 1.0),
                                   method="bounded", options={"xatol": 1e-9})
    row = next(r for r in tb.table_4_1().rows if r["epsilon"] == eps)
    assert row["optimal_d"] == pytest.approx(res.x, abs=1e-5)
    assert row["optimal_variance"] == pytest.approx(res.fun, rel=1e-9)
    assert row["laplace_variance"] == pytest.approx(2 / eps**2, rel=1e-15)
    with mpmath.workdps(30):  # Geng & Viswanath γ* vs the same quadrature
        assert float(sy.gv_gamma(eps)) == pytest.approx(res.x, abs=1e-5)


def test_table_4_2_against_brute_force_grid():
    for row in tb.table_4_2().rows:
        eps = row["epsilon"]
        grid = np.linspace(0.0, 1.0, 4001)
        lengths = [2 * Staircase(epsilon=eps, d=d).ci_halfwidth(0.95) for d in grid]
        assert row["optimal_ci95_length"] <= min(lengths) + 1e-9
        assert row["optimal_ci95_length"] == pytest.approx(min(lengths), abs=1e-3)
        assert row["laplace_ci95_length"] == pytest.approx(
            2 * Laplace(epsilon=eps).icdf(0.975), rel=1e-12)


def test_ci_closed_form_matches_mechanism_icdf():
    gen = np.random.default_rng(3)
    with mpmath.workdps(30):
        for _ in range(30):
            eps, d = float(gen.uniform(0.05, 4)), float(gen.uniform(0, 1))
            a = float(tb.ci_halfwidth_mp(eps, 1, d))
            assert Staircase(epsilon=eps, d=d).prob_within(a) == pytest.approx(0.95, abs=1e-12)


def test_tables_contract():
    t1, t2 = tb.table_4_1(), tb.table_4_2()
    assert t1.columns == ("epsilon", "laplace_variance", "optimal_variance", "optimal_d",
                          "paper_laplace_variance", "paper_optimal_variance")
    assert t2.columns == ("epsilon", "laplace_ci95_length", "optimal_ci95_length", "optimal_d",
                          "paper_laplace_ci95_length", "paper_optimal_ci95_length")
    for t in (t1, t2):
        assert [r["epsilon"] for r in t.rows] == [0.1, 0.5, 1.0]
        assert all(set(r) == set(t.columns) for r in t.rows)
        json.dumps(t.to_dict())
    assert set(default_ledger().tables()) >= {"thesis-4.1", "thesis-4.2"}


# ---- the test noises and exact helpers --------------------------------------------------------
def test_periodic_noise_reproduces_staircase_and_laplace():
    a = np.linspace(1e-9, 7, 57) + 0.0137  # off the breakpoints (conventions differ there)
    for eps, d in ((1.0, 0.3), (0.5, 0.0), (2.0, 1.0)):
        p, s = nz.staircase_like(eps, 1, d), Staircase(epsilon=eps, d=d)
        np.testing.assert_allclose(p.pdf(a), s.pdf(a), rtol=1e-12)
        np.testing.assert_allclose(p.cdf(-a), s.cdf(-a), rtol=1e-12, atol=1e-15)
    p, lap = nz.sawtooth(0.7, 2.0, 0.35), Laplace(epsilon=0.7, sensitivity=2.0)
    np.testing.assert_allclose(p.pdf(a), lap.pdf(a), rtol=1e-12)
    np.testing.assert_allclose(p.cdf(a), lap.cdf(a), rtol=1e-12)
    assert p.ci_halfwidth(0.95) == pytest.approx(lap.ci_halfwidth(0.95), rel=1e-10)


def test_asymmetric_laplace_facts_by_quadrature():
    y = nz.AsymmetricLaplace(epsilon=1.0)
    mass = integrate.quad(lambda x: float(y.pdf(x)), -np.inf, np.inf)[0]
    mean = integrate.quad(lambda x: x * float(y.pdf(x)), -np.inf, np.inf)[0]
    pos = integrate.quad(lambda x: float(y.pdf(x)), 0, np.inf)[0]
    assert mass == pytest.approx(1, abs=1e-10) and abs(mean) < 1e-9
    assert pos == pytest.approx(1.8 / 3.3, abs=1e-10) and pos > 0.5
    # brute-force DP supremum on a grid (|x − y| ≤ 1)
    xs = np.linspace(-6, 6, 2401)
    lf = np.log(y.pdf(xs))
    worst = max(np.max(lf[:-k] - lf[k:]) for k in range(1, 201))
    worst = max(worst, max(np.max(lf[k:] - lf[:-k]) for k in range(1, 201)))
    assert worst == pytest.approx(float(y.true_epsilon()), abs=1e-3) and worst < 1.0


def test_density_sup_on_controls():
    from privlab.mechanisms.noise.controls import HalfScaleLaplace, WrongRatioStaircase

    with mpmath.workdps(30):
        s, _ = ex.density_sup(HalfScaleLaplace(epsilon=0.8), 1.0, 5)
        assert float(s) == pytest.approx(1.0 / (0.5 / 0.8), rel=1e-20)  # Δ / scale
        s, _ = ex.density_sup(WrongRatioStaircase(epsilon=1.0, d=0.3), 1.0, 6)
        assert float(s) == pytest.approx(1.5, rel=1e-20)
        s, _ = ex.density_sup(Staircase(epsilon=1.3, d=0.2), 1.0, 6)
        assert float(s) == pytest.approx(1.3, rel=1e-20)


def test_interval_mass_matches_cdf():
    y = Staircase(epsilon=0.9, d=0.4)
    with mpmath.workdps(30):
        for lo, hi in ((-2.3, 0.1), (0.5, 3.7), (-5.0, -1.2)):
            assert float(ex.interval_mass(y, lo, hi)) == pytest.approx(
                float(y.cdf(hi) - y.cdf(lo)), rel=1e-12)
    assert math.isfinite(float(nz.staircase_like(1, 1, 1.5).abs_mass(3)))


# ---- issue 30: declared parameters, grids and proof objects ------------------------------------
MINE = ("thesis:eq-4.2", "thesis:sec-4.3-dp", "thesis:sec-4.3-smaller-than-laplace",
        "thesis:lemma-1", "thesis:lemma-2", "thesis:cor-1", "thesis:thm-1",
        "thesis:thm-1-symmetric", "thesis:thm-1-indexing", "thesis:thm-2",
        "thesis:thm-2-interior")
PROVED = ("thesis:sec-4.3-dp", "thesis:sec-4.3-smaller-than-laplace", "thesis:thm-1-symmetric",
          "thesis:thm-2-interior")


def _claim(cid):
    return next(c for c in ch4.CLAIMS if c.id == cid)


@pytest.mark.parametrize("cid", MINE)
def test_params_declared_and_grids_hold_the_thesis_values(cid):
    """Every quantified claim declares ε and Δ; a grid contains the thesis's ε (0.01, 0.1, 0.5,
    ln 2, 1, 2, 10) and Δ = 1, else a symbolic proof covers the parameter."""
    from privlab.proofs.parameters import PAPER_PARAMETERS
    from privlab.proofs.verdict import form_problems, grid_gaps, proved

    c = _claim(cid)
    params = {p.name: p for p in c.params}
    assert {"epsilon", "Delta"} <= set(params), cid
    assert form_problems(c) == () and grid_gaps(c) == ()
    for name, key in (("epsilon", "epsilon"), ("Delta", "sensitivity")):
        p = params[name]
        assert p.registry == key
        if p.grid is None:
            assert c.proof is not None and c.proof.kind == "symbolic" and proved(c)
        else:
            want = PAPER_PARAMETERS["thesis"][key]
            assert all(any(math.isclose(v, g) for g in p.grid) for v in want), (cid, name)
    assert (cid in PROVED) == (c.proof is not None)


def test_grids_are_what_the_checks_run_on():
    """The grids declared are the ones the checkers iterate over (same objects)."""
    from privlab.proofs.thesis import ch4_grids as gr
    from privlab.proofs.thesis import ch4_optimality as op
    from privlab.proofs.thesis import ch4_order as od

    grid = {c.id: {p.name: p.grid for p in c.params} for c in ch4.CLAIMS}
    assert grid["thesis:eq-4.2"]["epsilon"] == tuple(e for e, *_ in od._eq42_exact()[::8])
    assert grid["thesis:lemma-1"]["epsilon"] == tuple(sorted({r[0] for r in
                                                               od._lemma_1_intervals()}))
    assert grid["thesis:lemma-2"]["epsilon"] == op.EPS_GRID == grid["thesis:cor-1"]["epsilon"]
    assert grid["thesis:lemma-2"]["i"] == tuple(range(16))
    assert grid["thesis:thm-1"]["epsilon"] == gr.THM1_EPS
    ev = op.check_thm_1_printed().evidence["witness_per_epsilon"]
    assert len(ev) == len(gr.THM1_EPS) and all(r["refutes at this epsilon"] for r in ev)
    masses = sy.check_printed_indexing().evidence["reading_N_from_0_total_mass (Δ = 1)"]
    assert {(m["epsilon"], m["d"]) for m in masses} == set(itertools.product(
        grid["thesis:thm-1-indexing"]["epsilon"], grid["thesis:thm-1-indexing"]["d"]))


@pytest.mark.parametrize("cid", PROVED)
def test_proved_claims_and_their_mutants(cid):
    """A proved claim is verified by its proof object; every mutant is refuted by the same
    checker (the symbolic procedure), each with a counterexample."""
    from privlab.proofs.ledger import run_claim

    if not HAS_VERIFY:
        pytest.skip("privlab.verify not available")
    c = _claim(cid)
    out = run_claim(c)
    assert out.status is V, out.reason
    assert out.result.method.value == "symbolic"
    rows = out.able_to_fail  # refuted: decided false with a counterexample (status_of)
    assert len(rows) == len(c.mutants) and all(r["status"] == "refuted" for r in rows), rows


def test_thm_1_symmetric_mutants_cover_hypothesis_factor_and_construction():
    kinds = {m.kind for m in _claim("thesis:thm-1-symmetric").mutants}
    assert kinds == {"dropped-hypothesis", "factor", "construction"}
    thm1 = _claim("thesis:thm-1")
    assert thm1.refutation is not None and thm1.refutation.kind == "typo"
    assert "omitted" in (thm1.scope.reading or "") and "symmetric" in thm1.scope.reading


# ---- the symbolic machinery can fail ------------------------------------------------------------
def test_certificates_decide_signs_and_report_undecided():
    import sympy as sp

    from privlab.proofs.thesis import ch4_proofs as pf

    q, s = pf.Q, pf.S
    assert pf.certify_sign(q / (1 + q))[0] == 2
    assert pf.certify_sign(s / (1 + q))[0] == 1  # s ≥ 0 may vanish: not strict
    assert pf.certify_sign(-(q**2) / (1 + q))[0] == -2
    assert pf.certify_sign((q - 2) * (1 + q))[0] is None  # both signs
    bad = pf.nonneg("x", "q − 2 ≥ 0", q - 2)
    assert bad.holds is False and dict(bad.witness)["value"].startswith("-")
    # positive everywhere but not certifiable by signs of coefficients: undecided, not passed
    und = pf.nonneg("y", "q² − q + 1 ≥ 0", q**2 - q + 1)
    assert und.holds is None
    assert pf.identity("z", "q − q = 0", q - q).holds is True
    assert pf.identity("w", "(q + 1)² = q² + 1", (q + 1) ** 2 - q**2 - 1).holds is False
    assert pf.grows_from_zero("v", "log(1+u) ≤ u", sp.log(1 + s) - s, s).holds is False
    assert pf.grows_from_zero("u", "e^u ≥ 1 + u", sp.exp(s) - 1 - s, s, order=2).holds


def test_decide_thm_1_variants():
    from privlab.proofs.thesis import ch4_proofs as pf

    assert status_of(pf.decide_thm_1()) is V
    for kw in ({"symmetric": False}, {"power": 2}, {"strict": True}):
        res = pf.decide_thm_1(**kw)
        assert status_of(res) is R, kw
    # the (ε/2) member fails exactly where the proof needs ρ ≥ r
    failed = {s["step"] for s in pf.decide_thm_1(power=2).evidence["steps"]
              if s["holds"] is False}
    assert "tails propagate" in failed


def test_decide_thm_2_interior_and_endpoints():
    from privlab.proofs.thesis import ch4_proofs as pf

    assert status_of(pf.decide_thm_2()) is V
    res = pf.decide_thm_2(endpoints=True)
    assert status_of(res) is R
    for e in (0.01, 1.0, 10.0):  # the gap q²/(2(1 + q)(2 + q)) against an mpmath evaluation
        with mpmath.workdps(30):
            q = mpmath.expm1(e)
            assert float(pf.endpoint_gap_at(e)) == pytest.approx(
                float(q**2 / (2 * (1 + q) * (2 + q))), rel=1e-12)


def _random_symmetric_dp(gen, eps, n=20, periods=3):
    """A random symmetric ε-DP step density (Δ = 1, cells of width 1/n on |x|), staircase-like
    (near the extremal ones): log-levels mostly flat with occasional drops of up to 1.2ε, each
    level clipped into [max − ε, min + ε] of the n levels before it (so every pair of cells
    within distance Δ has ratio ≤ e^ε), for ``periods`` periods; then forced down by ε/n per
    cell until n steps in a row are unclipped, then Laplace-like (factor e^{−ε/n} per cell,
    summed in closed form).  Returns (levels, mass beyond them, n), normalised."""
    lv = [0.0]

    def clip(x):
        w = lv[-n:]
        return min(max(x, max(w) - eps), min(w) + eps)

    for _ in range(n * periods - 1):
        drop = gen.uniform() < 0.08
        step = -gen.uniform(0, 1.2) * eps if drop else gen.uniform(-0.05, 0.02) * eps
        lv.append(clip(lv[-1] + step))
    run = 0
    while run < n:
        target = lv[-1] - eps / n
        lv.append(clip(target))
        run = run + 1 if lv[-1] == target else 0
    levels = np.array(lv)
    ext = np.concatenate((levels, levels[-1] - eps / n * np.arange(1, n + 1)))
    assert all(np.max(np.abs(ext[k:] - ext[:-k])) <= eps * (1 + 1e-12)
               for k in range(1, n + 1))
    v = np.exp(levels - levels.max())
    rho = math.exp(-eps / n)
    beyond = v[-1] * rho / (1 - rho)
    mass = 2 * (v.sum() + beyond) / n
    return v / mass, beyond / mass, n


def _member_below(v, beyond, n, eps, factor=1.0):
    """Whether the member picked by the proof's rule (2M0Δ = 2·factor·MΔ clamped) has
    P(|Ỹ| > α) ≤ P(|Y| > α) at every cell edge of the density."""
    r = math.exp(-eps)
    h_y = 2 * (v.sum() - np.concatenate(([0.0], np.cumsum(v)))[:-1] + beyond) / n
    lo, hi = (1 - r) / 2, (1 - r) / (2 * r)  # M0(Δ), M0(0) for Δ = 1
    m0 = min(max(factor * v[:n].max(), lo), hi)
    d = (1 - r - 2 * m0 * r) / (2 * (1 - r) * m0)
    member = Staircase(epsilon=eps, d=min(max(d, 0.0), 1.0))
    h_member = 1 - member.prob_within(np.arange(len(v)) / n)
    assert h_y[0] == pytest.approx(1.0, abs=1e-12)
    return bool(np.all(h_member <= h_y + 1e-12))


def test_thm_1_symmetric_construction_on_random_dp_densities():
    """The member the proof picks (2M0Δ = 2MΔ clamped, M the largest density on [0, Δ]) lies
    below 40 random symmetric ε-DP step densities — the proof's construction on an
    independent route (numpy, no sympy); the rule with 0.95·M fails on some of them (the
    instances can tell a wrong rule)."""
    gen = np.random.default_rng(31)
    wrong = 0
    for eps in (0.1, math.log(2), 1.0, 2.0):
        for _ in range(10):
            y = _random_symmetric_dp(gen, eps)
            assert _member_below(*y, eps), eps
            wrong += not _member_below(*y, eps, factor=0.95)
    assert wrong > 0
