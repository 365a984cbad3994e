"""The speed shortcuts of the refinement checkers (issue 19) equal the code they replaced: the same
floats, the same exact intervals, the same check results.  Each oracle below is the former code,
kept here verbatim (or the unshortened path of the same function)."""

from __future__ import annotations

import gc
import itertools
import math
import random
from fractions import Fraction as Fr
from typing import Any

import numpy as np
import pytest
import sympy as sp
from scipy import integrate, optimize, stats

from privlab.mechanisms.refinement import quadrature as qd
from privlab.mechanisms.refinement.algorithm import Refinement
from privlab.mechanisms.refinement.priors import PiecewisePrior
from privlab.mechanisms.refinement.product import ProductPrior
from privlab.mechanisms.refinement.spec import parse_prior
from privlab.proofs.thesis import ch5
from privlab.verify.refinement import exact as ex
from privlab.verify.refinement.certificate import certify_refinement


# ---- crossings: vectorised rows, np.nonzero by flat indices, the one-ball mode ---------------
def _old_crossings(halves: Any, c1: float, c2: float, lo: float, hi: float,
                   knots2: Any = ()) -> list[float]:
    """quadrature.crossings before issue 19's round 2 (row by row, 2-D np.nonzero)."""
    if not hi > lo:
        return []

    def row_of(h1: np.ndarray, h2: np.ndarray, row: int) -> np.ndarray:
        return qd._gap_row(h1, h2, row, c1, c2, knots2, np.minimum, np.maximum)

    def clamped(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h1, h2 = halves(x)
        return np.maximum(h1, 0.0), np.maximum(h2, 0.0)

    xs = np.linspace(lo, hi, 4097)
    h1, h2 = clamped(xs)
    g = np.stack([row_of(h1, h2, row) for row in range(3 + 4 * len(knots2))])
    out: list[float] = []
    on_rows, on_at = np.nonzero((g[:, 1:-1] == 0) & (g[:, :-2] * g[:, 2:] < 0))
    ch_rows, ch_at = np.nonzero(np.isfinite(g[:, :-1]) & np.isfinite(g[:, 1:])
                                & (g[:, :-1] * g[:, 1:] < 0))
    for row in range(g.shape[0]):
        out.extend(float(xs[i + 1]) for i in on_at[on_rows == row])
        for i in ch_at[ch_rows == row]:
            def fn(z: float, row: int = row) -> float:
                return float(row_of(*clamped(np.array([z])), row)[0])
            out.append(float(optimize.brentq(fn, xs[i], xs[i + 1], xtol=1e-15)))
    return out


def _halves(norm: str, w: np.ndarray, t: np.ndarray, r: float, s: np.ndarray, q: float) -> Any:
    def half(x1: np.ndarray, c: np.ndarray, rad: float) -> np.ndarray:
        g = qd._shrink(norm, rad, w[0] * np.abs(x1 - c[0]))
        return np.where(g >= 0, g / w[1], -1.0)

    return lambda x: (half(x, t, r), half(x, s, q))


def _crossing_cases(n: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        norm = ("l1", "l2")[len(out) % 2]
        w = rng.uniform(0.5, 2.0, 2) if len(out) % 3 else np.ones(2)
        t = rng.uniform(-0.5, 1.0, 2)
        same = len(out) % 3 == 0
        s = t.copy() if same else t + rng.normal(0, 0.3, 2)
        r = float(rng.uniform(0.05, 1.5))
        q = r if same else float(rng.uniform(0.05, 1.5))
        lo = max(t[0] - r / w[0], s[0] - q / w[0])
        hi = min(t[0] + r / w[0], s[0] + q / w[0])
        kn = [float(x) for x in rng.choice([-1.0, -0.25, 0.0, 0.3, 0.5, 1.0, 1.7],
                                           int(rng.integers(0, 4)), replace=False)]
        if hi > lo:
            out.append((norm, w, t, r, s, q, float(lo), float(hi), kn, same))
    return out


def test_crossings_equal_the_former_code_and_one_ball_gives_the_same_points():
    """Two balls: the same list (order included).  One ball (``same=True``): the same set of
    points (each once).  Catches: a knot row left out of the one-ball mode (k = 1 rows: upper
    ends), a row order changed, np.nonzero's flat-index replacement transposed."""
    found = 0
    for norm, w, t, r, s, q, lo, hi, kn, same in _crossing_cases(90, 7):
        halves = _halves(norm, w, t, r, s, q)
        old = _old_crossings(halves, t[1], s[1], lo, hi, kn)
        assert qd.crossings(halves, t[1], s[1], lo, hi, kn) == old
        if same:
            new = qd.crossings(halves, t[1], s[1], lo, hi, kn, same=True)
            assert sorted(set(new)) == sorted(set(old)) and len(new) == len(set(new))
            found += bool(old)
    assert found >= 10  # the one-ball cases do cross knots


def test_nonzero2_equals_numpy_nonzero():
    rng = np.random.default_rng(3)
    for shape in ((1, 5), (7, 4096), (11, 4095), (3, 1)):
        for p in (0.0, 0.001, 0.3, 1.0):
            m = rng.random(shape) < p
            a, b = np.nonzero(m)
            c, d = qd._nonzero2(m)
            assert np.array_equal(a, c) and np.array_equal(b, d)


def test_section_integral_one_ball_path_equals_two_ball_path(monkeypatch):
    """The one-ball shortcuts (half-width reused, one-ball crossings) give the floats of the
    general path (forced here by making np.array_equal answer False).  Catches the one-ball
    test without ``r == q`` (concentric balls of two radii)."""
    comps = [(PiecewisePrior.uniform(0.0, 1.0), parse_prior("norm:0,1")),
             (parse_prior("beta:2,5"), PiecewisePrior.uniform(-1.0, 1.0)),
             (parse_prior("norm:0,1"), PiecewisePrior(edges=(0.0, 0.25, 0.5, 1.0),
                                                      densities=(2.0, 1.0, 0.5)))]
    rng = np.random.default_rng(11)
    for k in range(24):
        norm = ("l1", "l2")[k % 2]
        w = np.ones(2) if k % 3 else rng.uniform(0.5, 2.0, 2)
        t = rng.uniform(0.0, 0.8, 2)
        r = float(rng.uniform(0.1, 1.0))
        lo, hi = float(t[0] - r / w[0]), float(t[0] + r / w[0])
        q = r if k % 4 else 0.7 * r  # concentric balls of two radii are two balls
        lo, hi = (lo, hi) if q == r else (float(t[0] - q / w[0]), float(t[0] + q / w[0]))
        args = (norm, w, comps[k % 3], t, r, t.copy(), q, lo, hi)
        fast = qd._section_integral(*args)
        monkeypatch.setattr(qd.np, "array_equal", lambda a, b: False)
        slow = qd._section_integral(*args)
        monkeypatch.undo()
        assert fast == slow


def test_knots_memo_returns_fresh_lists_and_forgets_dead_components():
    c = parse_prior("beta:2,5")
    first = qd.knots(c)
    assert first == qd._knots(c) == [0.0, 1.0]
    first.append(99.0)  # a caller's change does not reach the memo
    assert qd.knots(c) == [0.0, 1.0]
    key = id(c)
    assert key in qd._KNOTS
    del c
    gc.collect()
    assert key not in qd._KNOTS  # a new object with the same id is not served old knots
    assert qd.knots(stats.uniform(-1, 3)) == [-1.0, 2.0]  # scipy frozen law as a component


# ---- exact radius: certified shortcut for the bisection -------------------------------------
def _pieces_and_targets() -> list[tuple[Any, Any]]:
    rnd = random.Random(5)
    comps_pool = [PiecewisePrior.uniform(Fr(0), Fr(1)), PiecewisePrior.uniform(Fr(-1), Fr(1)),
                  PiecewisePrior(edges=(Fr(0), Fr(1, 4), Fr(1, 2), Fr(1)),
                                 densities=(Fr(2), Fr(1), Fr(1, 2))),
                  PiecewisePrior(edges=(Fr(-1), Fr(0), Fr(3)), densities=(Fr(1, 4), Fr(1, 4)))]
    targets = [ex.Target(1 / (1 + sp.E)), ex.Target(1 / (1 + sp.exp(sp.Rational(1, 2)))),
               ex.Target(Fr(1, 3)), ex.Target(Fr(1, 2))]
    out = []
    for _ in range(40):
        d = rnd.choice((1, 2, 3))
        comps = [rnd.choice(comps_pool) for _ in range(d)]
        wts = [Fr(rnd.choice((1, 2, 3)), rnd.choice((1, 2))) for _ in range(d)]
        t = [Fr(rnd.randint(-4, 8), 8) for _ in range(d)]
        out.append((ex.ball_pieces(comps, wts, t), rnd.choice(targets)))
    # p_u exactly at a bisection point: M = r on [0, 1] (uniform on [-1/2, 1/2]... as a line)
    line = [(Fr(0), Fr(1), [Fr(0), Fr(1)])]
    out += [(line, ex.Target(Fr(k, 8))) for k in (1, 3, 4, 7)]
    return out


def _root_piece(pieces: Any, target: Any) -> tuple[Fr, Fr, Any]:
    k = next(i for i, (_lo, hi, p) in enumerate(pieces) if target.sign_of_diff(ex._ev(p, hi)) >= 0)
    return pieces[k]


def test_isolate_equals_bisection():
    """The shortcut's interval is bisection's, including p_u exactly at a dyadic point (then
    b = r*).  Catches: j0 off by one without the neighbour tries, a wrong BISECTIONS."""
    for pieces, target in _pieces_and_targets():
        lo, hi, p = _root_piece(pieces, target)
        assert ex._isolate(p, lo, hi, target) == ex._bisect(p, lo, hi, target)


def test_isolate_never_takes_an_uncertified_guess(monkeypatch):
    """A wrong approximation only costs time: the certified signs reject it and bisection
    runs.  Catches the shortcut without its sign tests (it would return the wrong cell)."""
    cases = _pieces_and_targets()[:12]
    want = []
    for pieces, target in cases:
        lo, hi, p = _root_piece(pieces, target)
        want.append(ex._bisect(p, lo, hi, target))
    real = ex._approx_root

    def off(p: Any, lo: Fr, hi: Fr, target: Any) -> Any:
        return real(p, lo, hi, target) + (hi - lo) * 2**-85  # 32 cells to the right
    monkeypatch.setattr(ex, "_approx_root", off)
    for (pieces, target), w in zip(cases, want, strict=True):
        lo, hi, p = _root_piece(pieces, target)
        assert ex._isolate(p, lo, hi, target) == w


# ---- moments sharing quantiles -----------------------------------------------------------
def _old_moment(law: Any, k: int) -> float:
    out = law.atom * law.center**k
    for lo, hi, s in zip(law.knots[:-1], law.knots[1:], law.slopes, strict=True):
        if s == 0 or hi <= lo:
            continue
        val, _ = integrate.quad(lambda u: float(law.prior.ppf(u)) ** k, lo, hi,
                                limit=200, epsabs=1e-13, epsrel=1e-12)
        out += s * val
    return out


@pytest.mark.parametrize("spec", ["uniform:0,1", "beta:2,5", "norm:0,1"])
def test_moments_equal_separate_quadratures(spec):
    """Catches a quantile memo keyed coarser than u (e.g. rounded u) or one shared across k's
    powers."""
    p = parse_prior(spec)
    for mech, t in itertools.product((Refinement.individual(p, 1.0),
                                      Refinement.statistical(p, 1.0),
                                      Refinement.individual(p, math.log(2), delta=0.2)),
                                     (0.1, 0.5)):
        law = mech.output(t)
        assert law.moments(1, 2) == (_old_moment(law, 1), _old_moment(law, 2))
        assert law.moment(2) == _old_moment(law, 2)


def test_certificate_example_output_is_the_middle_answers_law():
    p = parse_prior("beta:2,5")
    mech = Refinement.statistical(p, 1.0)
    ex_out = certify_refinement(mech).properties["example_output"]
    law = mech.output(ex_out["true_value"])
    mean = _old_moment(law, 1)
    assert ex_out["mean"] == mean and ex_out["variance"] == _old_moment(law, 2) - mean * mean


# ---- box masses: one cdf call per component ------------------------------------------------
def test_box_mass_equals_two_cdf_calls():
    prior = ProductPrior(components=(parse_prior("beta:2,5"), parse_prior("norm:0,1"),
                                     PiecewisePrior.uniform(Fr(-1), Fr(1))))
    rng = np.random.default_rng(2)
    for _ in range(300):
        lo = rng.normal(0, 1, 3)
        hi = lo + rng.uniform(-0.1, 2.0, 3)
        m = 1.0
        for i, c in enumerate(prior.components):
            m *= max(0.0, float(c.cdf(hi[i])) - float(c.cdf(lo[i])))
        assert prior.box_mass(lo, hi) == m


# ---- ch5 claims: the claim and its mutant share the sessions / attacks ----------------------
def _old_protocol(kind: str, trials: int, claimed_fraction: str) -> tuple[Any, ...]:
    from privlab.mechanisms.refinement.interactive import dec

    rnd = random.Random(7 if kind == "refinement" else 8)
    bad, st = [], {"answered": 0, "refused": 0, "prop4_condition_held": 0}
    for _ in range(trials):
        r = ch5._run_session(kind, rnd, rnd.choice((0.3, 0.5, 1.0, 2.0)))
        st["answered"] += r["answered"]
        st["refused"] += r["refused"]
        st["prop4_condition_held"] += r["prop4"]
        if r["spent"] > r["budget"] * dec(claimed_fraction) or r["answered_after_refusal"]:
            bad.append({k: str(x) for k, x in r.items()})
    return not bad, len(bad), st, bad[:3] or None


@pytest.mark.parametrize("kind", ["refinement", "laplace"])
def test_protocol_memo_equals_fresh_sessions(kind):
    """Claim and mutant (fraction 1/2) through the memo equal fresh runs; the memo's sessions
    cannot be changed through a result.  Catches a memo not keyed on the kind or the trials."""
    for frac, trials in (("1", 40), ("0.5", 40), ("1", 25)):
        holds, n_bad, st, cex = _old_protocol(kind, trials, frac)
        r = ch5.check_protocol(kind, trials, claimed_fraction=frac)
        assert (r.holds, r.value, r.counterexample) == (holds, n_bad, cex)
        assert {k: r.evidence[k] for k in st} == st
    ch5._sessions(kind, 25)[0]["spent"] = -1  # a caller's change does not reach the memo
    assert ch5._sessions(kind, 25)[0]["spent"] != -1


def test_cor_2_memo_hands_out_copies():
    """Catches the memo handing out its own dicts (a caller's change would reach the mutant)."""
    a = ch5.check_cor_2()
    a.evidence["runs"][0]["worst_log_ratio"] = 99.0
    a.evidence["runs"][0]["where"]["p"] = None
    b = ch5.check_cor_2()
    assert b.evidence["runs"][0]["worst_log_ratio"] != 99.0
    assert b.evidence["runs"][0]["where"] is None or b.evidence["runs"][0]["where"]["p"]
    mutant = ch5.check_cor_2(claimed=0.5)
    assert b.holds and not mutant.holds and mutant.value == b.value


# ---- closed-form check: one 50-digit value instead of two differences -----------------------
def test_inside_decides_as_the_sympy_reference(monkeypatch):
    """Transcendental closed forms of real radii, and rational ones placed at, just inside and
    just outside the −10^-35 tolerance of an end.  Catches the shortcut with the ends swapped,
    without its margin (the ±10^-36 cases), or deciding the threshold cases itself."""
    cases = []
    for pieces, target in _pieces_and_targets():
        root = ex.exact_radius(pieces, target)
        if root["closed_form"] is not None:
            cases.append((root["closed_form"], *root["interval"]))
            lo, hi = root["interval"]
            cases.append((root["closed_form"], hi, hi + (hi - lo)))  # right of the interval
            cases.append((root["closed_form"], lo - (hi - lo), lo))  # left of it
    a, b = Fr(1, 3), Fr(1, 3) + Fr(1, 2**90)
    for off in (Fr(0), Fr(1, 10**35), Fr(1, 10**36), Fr(2, 10**35), Fr(-1, 10**36)):
        cases += [(sp.Rational(a - off), a, b), (sp.Rational(b + off), a, b)]
    assert len(cases) > 60
    calls = []
    real = ex._inside_sympy
    monkeypatch.setattr(ex, "_inside_sympy", lambda *c: calls.append(c) or real(*c))
    outcomes = set()
    for cf, lo, hi in cases:
        want = real(cf, lo, hi)
        assert ex._inside(cf, lo, hi) == want
        outcomes.add(want)
    assert outcomes == {True, False}
    assert 1 <= len(calls) <= 6  # only the cases at the threshold fall back


def test_products_control_on_the_shared_prior_equals_a_fresh_parse():
    """The broken control certified on the claim's shared prior object (memo hits from the
    individual l2 case) equals the certificate on a freshly parsed prior (no hits)."""
    from privlab.mechanisms.refinement.algorithm import broken_statistical
    from privlab.proofs.thesis import ch5_products as pr

    for _label, mech in pr._cases(pr.PRIORS[:1], ("l2",))[:1]:  # fills the memo
        certify_refinement(mech)
    shared = certify_refinement(broken_statistical(pr._prior(pr.PRIORS[0]), 1.0, distance="l2"))
    fresh = certify_refinement(broken_statistical(parse_prior(pr.PRIORS[0]), 1.0,
                                                  distance="l2"))
    assert pr._prior(pr.PRIORS[0]) is pr._prior(pr.PRIORS[0])
    assert [c.to_dict() for c in shared.checks] == [c.to_dict() for c in fresh.checks]
    assert not shared.holds and shared.properties == fresh.properties


def _old_ball_radius(prior: Any, t: float, target: float) -> float:
    def mass(r: float) -> float:
        return float(prior.cdf(t + r) - prior.cdf(t - r)) - target

    hi = 1.0
    lo_s, hi_s = prior.support()
    if math.isfinite(lo_s) and math.isfinite(hi_s):
        hi = max(abs(t - lo_s), abs(hi_s - t)) + 1.0
    while mass(hi) < 0:
        hi *= 2.0
    if mass(0.0) >= 0:
        return 0.0
    return float(optimize.brentq(mass, 0.0, hi, xtol=1e-15, rtol=1e-15, maxiter=500))


@pytest.mark.parametrize("spec", ["uniform:0,1", "beta:2,5", "norm:0,1", "norm:3,0.5",
                                  "beta:1.3,2"])
def test_ball_radius_equals_two_cdf_calls(spec):
    """Catches the one-call radius with its two ends swapped or rounded (float32)."""
    from privlab.mechanisms.refinement import algorithm as alg

    p = parse_prior(spec)
    rng = np.random.default_rng(4)
    for _ in range(25):
        t = float(p.ppf(rng.uniform(0.01, 0.99)))
        target = float(rng.uniform(0.05, 0.95))
        assert alg._ball_radius(p, t, target) == _old_ball_radius(p, t, target)


# ---- continuous pairs: both directions on one merge of the knots ----------------------------
def test_both_directions_share_the_cells():
    """_both's two comparisons equal two compare_continuous calls (the former code), also for
    (ε, δ) laws with atoms and for a knot −0.0 beside a knot 0.0.  Catches the reverse
    direction with the slopes not swapped."""
    from privlab.mechanisms.refinement.laws import ContinuousLaw
    from privlab.verify.refinement import neighbours as nb

    laws = []
    for spec in ("uniform:0,1", "beta:2,5", "norm:0,1"):
        p = parse_prior(spec)
        for mech in (Refinement.individual(p, 1.0), Refinement.statistical(p, 1.0),
                     Refinement.individual(p, math.log(2), delta=0.2),
                     Refinement.statistical(p, 1.0, delta=0.1)):
            laws.append([mech.output(float(p.ppf(u))) for u in (0.05, 0.3, 0.5, 0.8)])
    u = PiecewisePrior.uniform(0.0, 1.0)
    laws.append([ContinuousLaw(prior=u, knots=(-0.0, 0.25, 0.75, 1.0), slopes=(0.5, 2.0, 0.5),
                               center=0.5),
                 ContinuousLaw(prior=u, knots=(0.0, 0.5, 1.0), slopes=(1.5, 0.5), center=0.2)])
    n = 0
    for group in laws:
        for a, b in itertools.permutations(group, 2):
            got = nb._both(a, b, math.e)
            for c, (p, q) in zip(got, ((a, b), (b, a)), strict=True):
                want = nb.compare_continuous(p, q, math.e, locate=False)
                at = nb._at(c)
                assert {**c, "at": None} == {**want, "at": None}
                assert at == (want["at"] if want["at"] is not None else
                              nb.compare_continuous(p, q, math.e)["at"])
                n += 1
    assert n > 200
