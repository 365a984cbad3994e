"""Claims privlab itself makes (ids ``privlab:*``): if one of these is not verified or confirmed,
``privlab verify`` exits 1 — unlike a seed's claim, whose refutation is a finding.

* ``privlab:safe-mode-dp`` — the floating-point-safe release mode samples integer noise on a
  power-of-two grid whose pmf is ε-DP for the grid-rounded sensitivity, decided exhaustively on
  the exact (Fraction) pmf ratios, for a grid of parameters (docs/threat-model.md): ε from the
  smallest rate safe mode represents (2⁻²⁰) to the staircase's largest (700), and Laplace
  beyond; Δ ∈ {1, 2.5}; d/Δ from 0 to 1.
* ``privlab:checker-refutes-controls`` — the exact DP checker refutes every broken control with
  a concrete pair (x, x + δ) and accepts the correct laws, over a grid of ε and d.
* ``privlab:fast-sampler-is-inverse-cdf`` — ``Staircase.sample`` equals, bit for bit, the
  generic inverse-CDF path on the same uniforms (two independent implementations).
"""

from __future__ import annotations

from typing import Any

from privlab.proofs.setting import OWN, _x
from privlab.types import CheckResult, Claim, Method, Mutant, Param, Proof

EPS_GRID = (0.1, 0.5, 1.0, 2.0, 5.0)
D_GRID = (0.0, 0.25, 0.5, 1.0)

SAFE_EPS_MIN = 2.0**-20
"""The smallest rate safe mode represents (a smaller ε raises; safe.MAX_DENOMINATOR)."""
SAFE_EPS_STAIRCASE_MAX = 700.0
"""The largest rate the staircase accepts (staircase.RATE_RANGE); Laplace accepts more."""
SAFE_EPS = (SAFE_EPS_MIN, *EPS_GRID, SAFE_EPS_STAIRCASE_MAX)
"""ε of both safe laws: the two ends of the staircase's range and the lab's usual values."""
SAFE_EPS_LAPLACE_ONLY = (1e6,)
"""ε beyond the staircase's range, for Laplace only."""
SAFE_SENSITIVITIES = (1.0, 2.5)
SAFE_D_RATIOS = (0.0, 0.25, 0.3, 0.5, 1.0)
"""d/Δ of the staircase members: both ends of [0, Δ], dyadic points and 0.3 (d not a multiple
of the grid Λ, so D = ⌊d/Λ⌋ rounds)."""


def _laws() -> list[Any]:
    """The laws :func:`check_safe_mode_dp` runs: Laplace for every ε of :data:`SAFE_EPS` and
    :data:`SAFE_EPS_LAPLACE_ONLY`, the staircase for every ε of :data:`SAFE_EPS` and d/Δ of
    :data:`SAFE_D_RATIOS`, each at every Δ of :data:`SAFE_SENSITIVITIES`."""
    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.mechanisms.noise.staircase import Staircase

    out: list[Any] = [Laplace(epsilon=e, sensitivity=s) for s in SAFE_SENSITIVITIES
                      for e in (*SAFE_EPS, *SAFE_EPS_LAPLACE_ONLY)]
    out += [Staircase(epsilon=e, sensitivity=s, d=r * s) for s in SAFE_SENSITIVITIES
            for e in SAFE_EPS for r in SAFE_D_RATIOS]
    return out


def _label(m: Any) -> str:
    return f"{m.name}(eps={m.epsilon:g}, sens={m.sensitivity:g}, d={getattr(m, 'd', None)})"


def check_safe_mode_dp() -> CheckResult:
    from privlab.mechanisms.noise.safe import check_safe_dp

    rows, bad = [], []
    for m in _laws():
        r = check_safe_dp(m)
        rows.append({"law": _label(m), "holds": r.holds, "loss": str(r.value),
                     "method": r.method.value})
        if not (r.holds and r.decided):
            bad.append({"law": _label(m), "counterexample": r.counterexample})
    return CheckResult(holds=not bad, claim="safe mode is ε-DP on every tested parameter",
                       value=len(rows), evidence={"laws": rows},
                       counterexample=bad or None, method=Method.EXHAUSTIVE)


def check_controls_refuted() -> CheckResult:
    from privlab.mechanisms.noise.controls import CONTROLS, make_control
    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.mechanisms.noise.staircase import Staircase
    from privlab.verify import check_pure_dp

    rows, bad = [], []
    for e in EPS_GRID:
        for ctl in CONTROLS:
            m = make_control(ctl, e)
            r = check_pure_dp(m)
            ok = r.decided and not r.holds and r.counterexample is not None
            rows.append({"law": _label(m), "refuted": ok, "sup_log_ratio": r.value})
            if not ok:
                bad.append(_label(m))
        for m in (Laplace(epsilon=e), Staircase.optimal(e)):
            r = check_pure_dp(m)
            rows.append({"law": _label(m), "accepted": r.holds, "sup_log_ratio": r.value})
            if not (r.holds and r.decided):
                bad.append(_label(m))
    return CheckResult(holds=not bad, claim="check_pure_dp refutes broken controls, accepts "
                                            "correct laws", value=len(rows),
                       evidence={"cases": rows}, counterexample=bad or None,
                       method=Method.EXACT, decided=True)


def check_fast_sampler() -> CheckResult:
    import numpy as np

    from privlab.mechanisms.noise.staircase import Staircase

    rows, bad = [], []
    for m in [Staircase(epsilon=e, d=d) for e in EPS_GRID for d in D_GRID]:
        fast = m.sample(20_000, rng=11)
        ref = m._sample_from_uniform(np.random.default_rng(11).random(20_000))
        same = bool(np.array_equal(fast, ref))
        rows.append({"law": _label(m), "bitwise_equal": same})
        if not same:
            i = int(np.flatnonzero(fast != ref)[0])
            bad.append({"law": _label(m), "index": i, "fast": fast[i], "generic": ref[i]})
    return CheckResult(holds=not bad, claim="Staircase.sample is the inverse CDF, bit for bit",
                       value=len(rows), evidence={"laws": rows}, counterexample=bad or None,
                       method=Method.EXHAUSTIVE)


def _safe_at_smaller_epsilon() -> CheckResult:
    """Mutant: 'safe mode is (ε/2)-DP': the exact discrete checker of the claim, at half the ε."""
    from privlab.mechanisms.noise.safe import check_discrete_dp, discrete_pmf
    from privlab.mechanisms.noise.staircase import Staircase

    m = Staircase(epsilon=1.0, d=0.5)
    return check_discrete_dp(discrete_pmf(m, None), 0.5)


def _control_accepted() -> CheckResult:
    """Mutant: 'check_pure_dp accepts Laplace at half scale as 1-DP' (a false acceptance)."""
    from privlab.mechanisms.noise.controls import CONTROLS, make_control
    from privlab.verify import check_pure_dp

    return check_pure_dp(make_control(CONTROLS[0], 1.0))


def _fast_vs_other_law() -> CheckResult:
    """Mutant: 'Staircase(ε=1, d=0.5).sample equals the inverse CDF of d = 0.51': the claim's
    bitwise comparison must see the difference."""
    import numpy as np

    from privlab.mechanisms.noise.staircase import Staircase

    fast = Staircase(epsilon=1.0, d=0.5).sample(20_000, rng=11)
    ref = Staircase(epsilon=1.0, d=0.51)._sample_from_uniform(
        np.random.default_rng(11).random(20_000))
    same = bool(np.array_equal(fast, ref))
    cex = None if same else {"index": int(np.flatnonzero(fast != ref)[0])}
    return CheckResult(holds=same, claim="fast sampler (d=0.5) = inverse CDF (d=0.51)",
                       counterexample=cex, method=Method.EXHAUSTIVE)


SRC = "privlab (src/privlab/mechanisms)"
CLAIMS: tuple[Claim, ...] = (
    Claim(id="privlab:safe-mode-dp", source=f"{SRC}/safe.py; docs/threat-model.md",
          statement="release(mode='safe') samples discrete noise that is ε-DP for the "
                    "sensitivity rounded up to the grid (exact pmf ratios).",
          check=check_safe_mode_dp,
          notes=("Laplace and staircase over ε ∈ {2⁻²⁰, 0.1, 0.5, 1, 2, 5, 700} (Laplace also "
                 "at 10⁶, beyond the staircase's range), Δ ∈ {1, 2.5}, staircase d/Δ ∈ {0, ¼, "
                 "0.3, ½, 1}; every ratio of neighbouring pmf values is compared exactly as "
                 "Fractions (exhaustive over the finite set of ratios).",),
          bounded=True,
          scope=_x(neighbour="n/a", domain="ε ∈ {2⁻²⁰, 0.1, 0.5, 1, 2, 5, 700} "
                   "(Laplace also 10⁶), d/Δ ∈ {0, ¼, 0.3, ½, 1}, Δ ∈ {1, 2.5}",
                   reading=OWN),
          params=(Param(name="epsilon", lo=SAFE_EPS_MIN, lo_closed=True,
                        boundary=(SAFE_EPS_MIN, SAFE_EPS_STAIRCASE_MAX),
                        grid=(*SAFE_EPS, *SAFE_EPS_LAPLACE_ONLY)),
                  Param(name="sensitivity", lo=0, grid=SAFE_SENSITIVITIES),
                  Param(name="d/Δ", lo=0, hi=1, lo_closed=True, hi_closed=True,
                        boundary=(0.0, 1.0), grid=SAFE_D_RATIOS)),
          mutants=(Mutant(kind="factor",
              description="safe-mode staircase(ε=1, d=½) claimed (ε/2)-DP",
              check=_safe_at_smaller_epsilon),)),
    Claim(id="privlab:checker-refutes-controls",
          proof=Proof(kind="exact-decision", argument=(
              "check_pure_dp decides each of the listed laws exactly (a finite set: three "
              "broken controls, Laplace, the optimal staircase)")),
          source="privlab (src/privlab/verify/noise/dp.py)",
          statement="check_pure_dp refutes each broken control (with a pair) and accepts "
                    "Laplace and the optimal staircase.",
          check=check_controls_refuted,
          notes=("Controls: Laplace at half scale (loss 2ε), staircase decaying by e^{−1.5ε}, "
                 "staircase with steps of width Δ/2.",),
          scope=_x(domain="3 broken controls, Laplace, staircase",
                   reading=OWN),
          mutants=(Mutant(kind="factor",
              description="Laplace at half scale claimed 1-DP (check_pure_dp must refuse)",
              check=_control_accepted),)),
    Claim(id="privlab:fast-sampler-is-inverse-cdf", source=f"{SRC}/staircase.py",
          statement="Staircase.sample equals the generic inverse-CDF sampler bit for bit.",
          check=check_fast_sampler,
          notes=("20 laws × 20 000 uniforms; exactness of the inverse CDF itself is tested "
                 "by goodness-of-fit tests (tests/mechanisms/test_noise_laws.py).",),
          bounded=True,
          scope=_x(domain="20 laws × 20 000 uniforms", reading=OWN),
          mutants=(Mutant(kind="constant",
              description="fast sampler of d = 0.5 claimed equal to the inverse CDF of d = 0.51",
              check=_fast_vs_other_law),)),
)
