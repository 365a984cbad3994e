"""Mutants of thesis ch.4 / §4.5 claims (noise laws): each perturbs a constant, a formula or a
printed value of the statement, and runs the claim's own checker on it."""

from __future__ import annotations

from typing import Any

from privlab.types import Mutant


def _sym() -> Any:
    from privlab.proofs.thesis import ch4_symbolic as sy

    return sy


def _m_formula_mutant() -> Any:
    import sympy as sp

    sy = _sym()
    r = sp.exp(-sy.EPS)
    return sy.check_m_formula(candidate=sy.DELTA * (1 - r + sy.EPS * r) / (sy.EPS * (1 - r)))


def _di_mutant() -> Any:
    import sympy as sp

    sy = _sym()
    r = sp.exp(-sy.EPS)
    return sy.check_thm1_di(printed=(1 - r - sy.SMALL_M0 * sy.DELTA) / (2 * (sy.M0 - sy.SMALL_M0)))


def _m0d_mutant() -> Any:
    sy = _sym()
    return sy.check_m0_d_relation(
        printed=(1 - sy.R - 2 * sy.M0 * sy.DELTA) / (2 * (1 - sy.R) * sy.M0))


def _tables() -> Any:
    from privlab.proofs.thesis import ch4_tables as tb

    return tb


def _opt() -> Any:
    from privlab.proofs.thesis import ch4_optimality as op

    return op


MUTANTS: dict[str, tuple[Mutant, ...]] = {
    "thesis:lemma-2": (Mutant(
        description="Lemma 2 with ratio e^{−ε/2} instead of e^{−ε}",
        check=lambda: _opt().check_lemma_2(power=0.5)),),
    "thesis:cor-1": (Mutant(
        description="Corollary 1 with f(x + Δ) = e^{−2ε} f(x)",
        check=lambda: _opt().check_cor_1(eps_factor=2.0)),),
    "thesis:sec-4.3-m-independent-of-i": (Mutant(
        description="mass equation with right-hand side (1 − e^{−ε})/2 (no e^{−iε}): m_i "
                    "claimed independent of i",
        check=lambda: _sym().check_m_independent_of_i(rhs_decays=False)),),
    "thesis:sec-4.3-m-formula": (Mutant(
        description="m = Δ(1 − e^{−ε} + εe^{−ε})/(ε(1 − e^{−ε})) (sign of εe^{−ε} flipped)",
        check=_m_formula_mutant),),
    "thesis:thm-1-di-independent": (Mutant(
        description="d_i = (1 − e^{−ε} − m0Δ)/(2(M0 − m0)) (factor 2 of m0Δ dropped)",
        check=_di_mutant),),
    "thesis:sec-4.4-m0-d-relation": (Mutant(
        description="d = (1 − e^{−ε} − 2M0Δ)/(2(1 − e^{−ε})M0) (e^{−ε} dropped from 2M0e^{−ε}Δ)",
        check=_m0d_mutant),),
    "thesis:sec-4.4-variance": (Mutant(
        description="closed-form V(Z) off by a relative 10⁻²⁰",
        check=lambda: _sym().check_variance(perturb="1e-20")),),
    "thesis:sec-4.4-fig-4.2-minimum": (
        Mutant(description="minimiser printed d = 0.416747 (one digit off)",
               check=lambda: _sym().check_fig42_minimum(printed_d="0.416747")),
        Mutant(description="minimum printed V = 1.9191",
               check=lambda: _sym().check_fig42_minimum(printed_v="1.9191"))),
    "thesis:table-4.1": (Mutant(
        description="Table 4.1 with 199.93 for the optimal variance at ε = 0.1",
        check=lambda: _tables().check_table_41(paper={
            **_tables().PAPER_VAR, "0.1": ("200.00", "199.93")})),),
    "thesis:table-4.2": (Mutant(
        description="Table 4.2 with 5.97 for the optimal length at ε = 1 (neither rounds nor "
                    "truncates)",
        check=lambda: _tables().check_table_42(paper={
            **_tables().PAPER_CI, "1": ("5.99", "5.97")})),),
    "thesis:ex-5": (Mutant(
        description="Example 5's printed variances scaled by 1 + 10⁻³",
        check=lambda: __import__("privlab.proofs.thesis.sec45", fromlist=["x"]).check_ex_5(
            perturb=1e-3)),),
}


def _order() -> Any:
    from privlab.proofs.thesis import ch4_order as od

    return od


MUTANTS.update({
    "thesis:sec-4.3-dp": (Mutant(description="the §4.3 density claimed (0.9·ε)-DP",
                                 check=lambda: _order().check_sec43_dp(claimed=0.9)),),
    "thesis:eq-4.2": (Mutant(description="(4.2) with e^{ε/2} claimed equivalent to ε-DP",
                             check=lambda: _order().check_eq_4_2(pointwise_factor=0.5)),),
    "thesis:def-7": (Mutant(description="(Laplace, Laplace) claimed smaller than the staircase "
                                        "pair", check=lambda: _order().check_def_7(swap=True)),),
    "thesis:sec-4.3-smaller-than-laplace": (Mutant(
        description="the member d = m + 10⁻³ claimed strictly smaller than Laplace",
        check=lambda: _order().check_sec43_smaller(d_offset=1e-3)),),
    "thesis:lemma-1": (Mutant(
        description="Lemma 1 with f(x + Δ) = e^{−2ε} f(x) on the pointwise side",
        check=lambda: _order().check_lemma_1(pointwise_eps=2.0)),),
    "thesis:sec-4.4-fig-4.3-minimum": (Mutant(
        description="CI-optimal d printed as 0.995",
        check=lambda: _tables().check_fig43_minimum(printed_d="0.995")),),
})


def _s45() -> Any:
    from privlab.proofs.thesis import sec45

    return sec45


def _thm3_half_step() -> Any:
    from privlab.mechanisms.noise.box_staircase import HalfStepBoxStaircase

    s = _s45()
    return s.check_thm_3(panel=[HalfStepBoxStaircase(epsilon=1.0, sensitivity=s.tb.S,
                                                     core=s.tb.Z)])


MUTANTS.update({
    "thesis:prop-1": (Mutant(description="event criterion at e^{ε/2} claimed equivalent to "
                                         "the pointwise criterion at e^ε",
                             check=lambda: _s45().check_prop_1(event_factor=0.5)),),
    "thesis:def-9": (Mutant(description="Δf = 10 claimed for Example 4's f",
                            check=lambda: _s45().check_def_9(claimed_delta=10)),),
    "thesis:thm-3": (Mutant(description="shells with steps of half the S_f width (a box "
                                        "staircase with half steps) claimed ε-DP",
                            check=_thm3_half_step),),
    "thesis:ex-4": (Mutant(description="Δf = 3 claimed for S_f = [−1, 1]²",
                           check=lambda: _s45().check_ex_4(claimed_delta="3")),),
})


def _thm1_member() -> Any:
    from privlab.mechanisms.noise.staircase import Staircase

    return _opt().check_thm_1_symmetric(
        instances={"member d=0.5 (optimal)": (Staircase(epsilon=1.0, d=0.5), 1.0)},
        accept=("less",))


MUTANTS.update({
    "thesis:def-6": (Mutant(description="the larger noise (Def. 6) claimed preferred under "
                                        "every monotone objective",
                            check=lambda: _order().check_def_6(preferred="greater")),),
    "thesis:def-8": (Mutant(description="members with d ∈ {0, Δ} claimed minimal too",
                            check=lambda: _order().check_def_8(closed=True)),),
    "thesis:thm-1-symmetric": (Mutant(
        description="a strictly smaller member claimed to exist for every symmetric ε-DP "
                    "noise (tested on the optimal member d = ½)", check=_thm1_member),),
    "thesis:thm-2-interior": (Mutant(
        description="Theorem 2 extended to the end points d ∈ {0, Δ}",
        check=lambda: _opt().check_thm_2_printed()),),
})
