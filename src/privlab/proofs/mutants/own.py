"""Mutants of privlab's own claims (``privlab:*``): each perturbs the promise so it is false
and runs the claim's own checker on it (issue 14, able to fail)."""

from __future__ import annotations

from typing import Any

from privlab.types import CheckResult, Method, Mutant


def _safe_at_smaller_epsilon() -> CheckResult:
    """'safe mode is (ε/2)-DP': the exact discrete checker of the claim, at half the ε."""
    from privlab.mechanisms.noise.safe import check_discrete_dp, discrete_pmf
    from privlab.mechanisms.noise.staircase import Staircase

    m = Staircase(epsilon=1.0, d=0.5)
    return check_discrete_dp(discrete_pmf(m, None), 0.5)


def _control_accepted() -> CheckResult:
    """'check_pure_dp accepts Laplace at half scale as 1-DP' (a false acceptance)."""
    from privlab.mechanisms.noise.controls import CONTROLS, make_control
    from privlab.verify import check_pure_dp

    return check_pure_dp(make_control(CONTROLS[0], 1.0))


def _fast_vs_other_law() -> CheckResult:
    """'Staircase(ε=1, d=0.5).sample equals the inverse CDF of d = 0.51': the claim's bitwise
    comparison must see the difference."""
    import numpy as np

    from privlab.mechanisms.noise.staircase import Staircase

    fast = Staircase(epsilon=1.0, d=0.5).sample(20_000, rng=11)
    ref = Staircase(epsilon=1.0, d=0.51)._sample_from_uniform(
        np.random.default_rng(11).random(20_000))
    same = bool(np.array_equal(fast, ref))
    cex = None if same else {"index": int(np.flatnonzero(fast != ref)[0])}
    return CheckResult(holds=same, claim="fast sampler (d=0.5) = inverse CDF (d=0.51)",
                       counterexample=cex, method=Method.EXHAUSTIVE)


def _mixed_control(label: str, **kw: Any) -> CheckResult:
    from privlab.mechanisms.releases.mixed import MixedDPRelease
    from privlab.proofs.thesis.ch6_mixed import TINY, _all, _case

    rel = MixedDPRelease(attributes=(TINY,), k=2, **kw)
    data = _all(rel, 5) if "rows" not in kw else [[["a1"], ["a1"], ["a2"], ["b1"]]]
    c = _case(label, rel, data)
    return CheckResult(holds=c["within_epsilon"], claim=f"{label} is ε-DP",
                       value=c["exact_loss"], counterexample=c["counterexample"],
                       method=Method.EXHAUSTIVE)


MUTANTS: dict[str, tuple[Mutant, ...]] = {
    "privlab:safe-mode-dp": (Mutant(
        description="safe-mode staircase(ε=1, d=½) claimed (ε/2)-DP",
        check=_safe_at_smaller_epsilon),),
    "privlab:checker-refutes-controls": (Mutant(
        description="Laplace at half scale claimed 1-DP (check_pure_dp must refuse)",
        check=_control_accepted),),
    "privlab:fast-sampler-is-inverse-cdf": (Mutant(
        description="fast sampler of d = 0.5 claimed equal to the inverse CDF of d = 0.51",
        check=_fast_vs_other_law),),
    "privlab:mixed-release-certificate": (
        Mutant(description="mixed release without the n/k factor claimed ε-DP (ε = 4)",
               check=lambda: _mixed_control("no n/k factor", epsilon=4.0, em_factor="1")),
        Mutant(description="mixed release with rows aligned claimed ε-DP",
               check=lambda: _mixed_control("rows aligned", epsilon=1.0, rows="aligned"))),
}
