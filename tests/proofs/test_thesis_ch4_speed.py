"""Speed shortcuts of the ch.4 ledger (issue 19) equal the paths they replace.

* :class:`~privlab.proofs.thesis.ch4_noises.PeriodicNoise`: the memoised normalisation
  (``_exact_parts``) and the skipped cycles of ``log_pieces`` (``_first_cycle``) against the
  former implementation, kept here as the oracle — compared *exactly* (mpf equality), on random
  windows left of, right of and across 0, at several precisions.
* Memoised symbolic and exact intermediates return the same values as a fresh computation
  (``__wrapped__``) and are never mutable.
"""

from __future__ import annotations

import itertools
from typing import Any

import mpmath
import numpy as np
import pytest

from privlab.mechanisms.noise._base import LogPiece
from privlab.proofs.thesis import ch4_noises as nz


# ---- the former PeriodicNoise exact part (oracle) ------------------------------------------------
def _old_parts(y: nz.PeriodicNoise) -> tuple[Any, Any, Any, Any, Any]:
    start, period = mpmath.mpf(y.start), mpmath.mpf(y.period)
    rho = mpmath.exp(-mpmath.mpf(y.decay))
    h = mpmath.fsum(nz._piece_mass(*p) for p in y.head)
    c = mpmath.fsum(nz._piece_mass(*p) for p in y.cycle)
    return start, period, rho, h, c


def _old_log_norm(y: nz.PeriodicNoise) -> Any:
    _, _, rho, h, c = _old_parts(y)
    return mpmath.log(2 * (h + c / (1 - rho)))


def _old_log_pieces(y: nz.PeriodicNoise, lo: Any, hi: Any) -> list[LogPiece]:
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    start, period, _, _, _ = _old_parts(y)
    lz, dec = _old_log_norm(y), mpmath.mpf(y.decay)
    right: list[tuple[Any, Any, Any, Any]] = []
    for a, b, lev, s in y.head:
        a, b, s = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(s)
        right.append((a, b, lev - lz - s * a, s))
    amax = max(abs(lo), abs(hi))
    kmax = int(mpmath.ceil((amax - start) / period)) if amax > start else 0
    for k in range(kmax + 1):
        for a, b, lev, s in y.cycle:
            a2 = start + k * period + mpmath.mpf(a)
            b2 = start + k * period + mpmath.mpf(b)
            s = mpmath.mpf(s)
            right.append((a2, b2, lev - lz - k * dec - s * a2, s))
    out = []
    for a, b, c, s in right:
        if b > lo and a < hi:
            out.append(LogPiece(max(lo, a), min(hi, b), c, s))
        if -a > lo and -b < hi:
            out.append(LogPiece(max(lo, -b), min(hi, -a), c, -s))
    out.sort(key=lambda p: p.lo)
    return [p for p in out if p.hi > p.lo]


def _noises() -> list[nz.PeriodicNoise]:
    from privlab.proofs.thesis.ch4_optimality import _perturbations

    out = [nz.staircase_like(1, 1, 0.3), nz.staircase_like(0.5, 2.5, 0.0),
           nz.staircase_like(1, 1, 1.5), nz.staircase_like(2, 1, 0.4, core_factor=1.01),
           nz.sawtooth(1, 1, 0.5), nz.sawtooth(1, 1, 1), nz.sawtooth(0.1, 3, 0.01),
           nz.four_level(1, 1, 0.3, 0.2, 0.4), nz.sec43_member(1.0, 1)]
    out += [p for p in _perturbations(1.0, 0.25).values() if isinstance(p, nz.PeriodicNoise)]
    out += [p for p in _perturbations(2.0, 0.0).values() if isinstance(p, nz.PeriodicNoise)]
    return out


def _windows(gen: np.random.Generator, period: float) -> list[tuple[Any, Any]]:
    """Windows right of 0, left of 0, across 0, tiny (log_density_at), far out, on breakpoints."""
    out: list[tuple[Any, Any]] = []
    for _ in range(40):
        c = gen.uniform(-30, 30) * period
        w = 10 ** gen.uniform(-12, 1) * period
        out.append((c - w, c + w))
    out += [(k * period, (k + 1) * period) for k in range(-20, 20)]
    out += [(-(k + 1) * period, -k * period) for k in range(0, 20)]
    out += [(0, 12 * period), (period, 13 * period), (-8 * period, 8 * period), (-1e-20, 1e-20)]
    return out


@pytest.mark.parametrize("dps", [15, 30, 40])
def test_log_pieces_and_normalisation_equal_the_former_implementation(dps: int) -> None:
    gen = np.random.default_rng(19)
    checked = 0
    with mpmath.workdps(dps):
        for y in _noises():
            assert y._parts() == _old_parts(y)
            assert y.log_norm() == _old_log_norm(y)
            for lo, hi in _windows(gen, float(y.period)):
                new, old = y.log_pieces(lo, hi), _old_log_pieces(y, lo, hi)
                assert new == old, (y.label, lo, hi)
                checked += len(old)
    assert checked > 1000  # the windows do produce pieces


def test_first_cycle_skips_cycles() -> None:
    """The shortcut does skip work far from 0 (on both sides), and none across 0."""
    y = nz.staircase_like(1, 1, 0.3)
    start, period = mpmath.mpf("0.3"), mpmath.mpf(1)
    assert nz._first_cycle(y.cycle, start, period, mpmath.mpf(12), mpmath.mpf(13)) >= 9
    assert nz._first_cycle(y.cycle, start, period, mpmath.mpf(-13), mpmath.mpf(-12)) >= 9
    assert nz._first_cycle(y.cycle, start, period, mpmath.mpf(-13), mpmath.mpf(12)) == 0


def test_exact_parts_key_on_precision_and_fields() -> None:
    y = nz.staircase_like(1, 1, 0.3)
    with mpmath.workdps(15):
        low = y.log_norm()
    with mpmath.workdps(50):
        high = y.log_norm()
        assert high == _old_log_norm(y) and high != low
        other = nz.staircase_like(1, 1, 0.3, core_factor=2)
        assert other.log_norm() == _old_log_norm(other) != high


# ---- mutation check of the oracle comparison ---------------------------------------------
def test_oracle_comparison_catches_a_first_cycle_one_too_far(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The mutant "_first_cycle + 1" (one cycle too many skipped; log_pieces calls it as
    ``_first_cycle_at``) changes some output."""
    original = nz._first_cycle_at
    monkeypatch.setattr(nz, "_first_cycle_at", lambda *args: original(*args) + 1)
    y = nz.staircase_like(1, 1, 0.3)
    with mpmath.workdps(30):
        bad = [(lo, hi) for lo, hi in itertools.product(range(-8, 8), range(-7, 9)) if lo < hi
               and y.log_pieces(lo, hi) != _old_log_pieces(y, lo, hi)]
    assert bad


# ---- memoised intermediates equal a fresh computation ------------------------------------------
def _memo_modules() -> list[Any]:
    from privlab.proofs.thesis import (
        ch4_optimality,
        ch4_order,
        ch4_proofs,
        ch4_symbolic,
        ch4_tables,
        sec45,
        sec45_tables,
    )

    return [nz, ch4_symbolic, ch4_order, ch4_optimality, ch4_tables, ch4_proofs, sec45,
            sec45_tables]


def _clear_memos() -> int:
    n = 0
    for mod in _memo_modules():
        for v in vars(mod).values():
            if callable(getattr(v, "cache_clear", None)) and getattr(v, "__module__", "") \
                    == mod.__name__:
                v.cache_clear()
                n += 1
    return n


def test_symbolic_memos_equal_fresh_computations() -> None:
    import sympy as sp

    from privlab.proofs.thesis import ch4_symbolic as sy

    step = sp.integrate(sy.X**2, (sy.X, sy.D + sy.IDX * sy.DELTA, sy.D + (sy.IDX + 1) * sy.DELTA))
    for expr in (sp.Integer(1), step):
        assert sy.geom_sum(expr) == sy.geom_sum.__wrapped__(expr)
    assert sy.thm1_di_solution() == sy.thm1_di_solution.__wrapped__()
    assert sy.m0_d_normalisation() == sy.m0_d_normalisation.__wrapped__()
    assert sy._m_formula_fixed() == sy._m_formula_fixed.__wrapped__()
    assert sy.fig42_facts() == sy.fig42_facts.__wrapped__()
    assert sy._indexing_masses() == sy._indexing_masses.__wrapped__()
    f = sy._variance_of_d_mp()
    assert f is sy._variance_of_d_mp()


def test_variance_quadrature_memo_keys_on_the_precision() -> None:
    """The mutant "key without the precision" would return the 30-digit value at 15 digits."""
    from privlab.proofs.thesis import ch4_symbolic as sy

    for dps in (30, 15, 30):
        with mpmath.workdps(dps):
            fresh = sy._variance_quadrature_uncached(mpmath.mpf("0.5"), 1, mpmath.mpf("0.3"))
            assert sy.variance_quadrature("0.5", 1, "0.3") == fresh
            assert sy.variance_quadrature(mpmath.mpf("0.5"), 1, "0.3") == fresh


def test_order_and_optimality_memos_equal_fresh_computations() -> None:
    from privlab.proofs.thesis import ch4_optimality as op
    from privlab.proofs.thesis import ch4_order as od
    from privlab.proofs.thesis import ch4_tables as tb

    assert od._eq42_exact() == od._eq42_exact.__wrapped__()
    assert od._lemma_1_intervals() == od._lemma_1_intervals.__wrapped__()
    assert od._def_7_sets() == od._def_7_sets.__wrapped__()
    assert od._sec43_core_is_laplace_peak() is od._sec43_core_is_laplace_peak.__wrapped__()
    assert od._sec43_sup(0.5, 2.5) == od._sec43_sup.__wrapped__(0.5, 2.5)
    assert od._sec43_rounded_vs_laplace(2.0) == od._sec43_rounded_vs_laplace.__wrapped__(2.0)
    assert od._sec43_other_members() == od._sec43_other_members.__wrapped__()
    assert op._member_mass_ratios(0.5, 0.25) == op._member_mass_ratios.__wrapped__(0.5, 0.25)
    y = nz.sawtooth(1, 1, 0.5)
    assert op._unit_masses(y) == op._unit_masses.__wrapped__(y)
    assert op._is_dp(y, 1.0) is op._is_dp.__wrapped__(y, 1.0) is True
    assert op._is_dp(y, 0.5) is False  # keyed on ε too
    assert tb._fig43_exact() == tb._fig43_exact.__wrapped__()
    assert tb.ci_is_piecewise_linear() is tb.ci_is_piecewise_linear.__wrapped__()


def test_theorem_2_interior_memo_equals_a_fresh_computation() -> None:
    from privlab.proofs.thesis import ch4_optimality as op

    assert op._thm_2_interior_facts() == op._thm_2_interior_facts.__wrapped__()


def test_proof_step_memos_equal_fresh_computations() -> None:
    """The symbolic proof steps (issue 31) are memoised as frozen Step tuples; each equals a
    fresh derivation, and the mutant's steps (power 2) are another memo entry."""
    from privlab.proofs.thesis import ch4_proofs as pf

    for fn in (pf.member_steps, pf.asymmetric_witness_steps, pf.uniqueness_steps,
               pf.symmetrisation_steps, pf.endpoint_steps, pf.sec43_member_steps,
               pf.sec43_smaller_steps):
        assert fn() == fn.__wrapped__()
        assert isinstance(fn(), tuple)
    assert pf._thm1_steps(1) == pf._thm1_steps.__wrapped__(1)
    assert pf._thm1_steps(2) != pf._thm1_steps(1)


def test_memoised_candidates_and_rows_are_fresh_for_each_caller() -> None:
    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.proofs.thesis import ch4_optimality as op
    from privlab.proofs.thesis import sec45, sec45_tables

    lap = Laplace(epsilon=1.0)
    first = op._dominating_candidates(lap, 1.0, (0.4,))
    assert first == op._dominating_candidates_uncached(lap, 1.0, (0.4,))
    first.append(-1.0)
    assert -1.0 not in op._dominating_candidates(lap, 1.0, (0.4,))
    rows = sec45_tables.rows_ex5()
    rows[0]["variance"] = -1.0
    assert sec45_tables.rows_ex5()[0]["variance"] != -1.0
    _, ev, _, _ = sec45._ex5_exact()
    ev["changed"] = True
    assert "changed" not in sec45._ex5_exact()[1]


@pytest.mark.parametrize("cid", ["thesis:sec-4.4-variance", "thesis:sec-4.4-fig-4.2-minimum",
                                 "thesis:sec-4.3-m-formula", "thesis:thm-1-di-independent",
                                 "thesis:sec-4.4-m0-d-relation", "thesis:eq-4.2",
                                 "thesis:lemma-1", "thesis:lemma-2", "thesis:cor-1",
                                 "thesis:def-7", "thesis:sec-4.3-dp",
                                 "thesis:sec-4.3-smaller-than-laplace",
                                 "thesis:thm-1-symmetric",
                                 "thesis:sec-4.4-fig-4.3-minimum", "thesis:ex-5"])
def test_mutants_run_first_are_caught_and_do_not_change_the_claim(cid: str) -> None:
    """With every memo cleared, the mutants run first (filling the shared memos) and are still
    refuted; the claim itself then keeps its status — and equals a run with cold memos."""
    from privlab.proofs import default_ledger
    from privlab.proofs.ledger import run_claim
    from privlab.proofs.verdict import run_mutants

    claim = next(c for c in default_ledger().claims() if c.id == cid)
    assert _clear_memos() > 10
    rows = run_mutants(claim)
    assert rows and all(r["status"] == "refuted" for r in rows)
    warm = run_claim(claim).to_dict()
    _clear_memos()
    cold = run_claim(claim).to_dict()
    for d in (warm, cold):
        d.pop("seconds", None)
    assert warm == cold
    assert warm["status"] in ("verified", "confirmed")


# ---- cheaper sympy steps (second round) equal the former ones -----------------------------------
def test_variance_of_d_factor_without_simplify_is_the_former_expression() -> None:
    """V(d) is ``factor`` of the substituted series; the former code simplified first.  Both
    give the same expression tree (srepr), which is what is printed and lambdified; the
    mutant "cancel instead of factor" (a different tree) is caught."""
    import sympy as sp

    from privlab.proofs.thesis import ch4_symbolic as sy

    v = sy._variance_series()
    sub = v.subs(sy.M0, sy.m0_of_d())
    former = sp.factor(sp.simplify(sub))  # the former code (oracle)
    v_free, vd = sy.variance_closed_form.__wrapped__()
    assert sp.srepr(vd) == sp.srepr(former)
    assert sp.srepr(v_free) == sp.srepr(sp.simplify(v))
    assert sp.srepr(sp.cancel(sub)) != sp.srepr(former)  # the mutant differs


def test_stationarity_ratio_by_cancel_equals_the_simplified_ratio() -> None:
    """``ratio`` = (dV/dd)/p(d) is now put in cancel's form instead of simplify's; it is only
    used in fig42_facts' test 1/ratio = 3·lin².  Same rational function as the former ratio,
    the test still holds, and the mutant "ratio of dV/dd over 2·p(d)" fails it."""
    import sympy as sp

    from privlab.proofs.thesis import ch4_symbolic as sy

    st = sy.variance_stationarity.__wrapped__()
    _, vd = sy.variance_closed_form()
    dv = sp.together(sp.diff(vd, sy.D))
    former = sp.simplify(dv / st["cubic"])  # the former code (oracle)
    assert sp.cancel(st["ratio"] - former) == 0
    lin = sy.D * (1 - sy.R) + sy.R * sy.DELTA
    assert sp.simplify(1 / st["ratio"] - 3 * lin**2) == 0
    mutant = sp.cancel(dv / (2 * st["cubic"]))
    assert sp.simplify(1 / mutant - 3 * lin**2) != 0
    # every other entry is unchanged by the ratio's form
    for k in ("cubic", "gv_remainder", "cubic_derivative", "cubic_at_0", "cubic_at_Delta"):
        assert sp.srepr(st[k]) == sp.srepr(sy.variance_stationarity()[k])


# ---- the per-noise parts of log_pieces (``_log_piece_parts``) ------------------------------------
def test_log_piece_parts_are_keyed_on_precision_and_immutable() -> None:
    """One process, two precisions in turn: each equals the oracle (a memo keyed on the noise
    only would hand the 15-digit parts to the 40-digit call)."""
    y = nz.four_level(1, 1, 0.3, 0.2, 0.4)
    for dps in (15, 40, 15):
        with mpmath.workdps(dps):
            parts = nz._log_piece_parts(y, mpmath.mp.prec)
            assert parts == nz._log_piece_parts.__wrapped__(y, mpmath.mp.prec)
            assert isinstance(parts, tuple) and all(isinstance(p, tuple) for p in parts[3:5])
            for lo, hi in ((-3.3, 2.7), (5.1, 5.1 + 1e-12), (-0.2, 0.2)):
                assert y.log_pieces(lo, hi) == _old_log_pieces(y, lo, hi)


def test_oracle_comparison_catches_parts_memoised_without_precision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant of the memo: parts keyed on the noise only (the first precision wins)."""
    first: dict[Any, Any] = {}
    fresh = nz._log_piece_parts.__wrapped__

    def by_noise_only(noise: nz.PeriodicNoise, prec: int) -> Any:
        if noise not in first:
            first[noise] = fresh(noise, prec)
        return first[noise]

    monkeypatch.setattr(nz, "_log_piece_parts", by_noise_only)
    y = nz.sawtooth(1, 1, 0.5)
    with mpmath.workdps(15):
        y.log_pieces(-2, 2)
    with mpmath.workdps(40):
        assert y.log_pieces(0.1, 3.7) != _old_log_pieces(y, 0.1, 3.7)


def test_rounded_values_do_not_depend_on_the_form_of_the_expression() -> None:
    """The memo above compared unequal when ``sp.N(expr, 20)`` (accurate, not correctly rounded)
    met an equal expression of another form.  ``rounded`` is the correctly rounded 20-digit
    value: every form of m at ε = k/10 gives the Float of the 60-digit mpmath value rounded to
    20 digits (the mutant ``rounded = sp.N`` is only accurate to 20 digits, so it cannot promise
    this; this test pins the rule the fix relies on)."""
    import sympy as sp

    from privlab.proofs.thesis import ch4_symbolic as sy

    sol = sy.solve_m_i()
    forms = (sol, sp.together(sol), sp.expand(sol), sp.cancel(sol), sy.m_reconstructed())
    for k in (1, 5, 10, 20, 37):
        sub = {sy.EPS: sp.Rational(k, 10), sy.DELTA: 1}
        with mpmath.workdps(60):
            e = mpmath.mpf(k) / 10
            ref = (1 - mpmath.exp(-e) - e * mpmath.exp(-e)) / (e * (1 - mpmath.exp(-e)))
        want = sp.Float(sp.Float(ref, 60), 20)
        got = {sy.rounded(f.subs(sub), 20) for f in forms}
        assert got == {want}
        assert {g._prec for g in got} == {want._prec}
