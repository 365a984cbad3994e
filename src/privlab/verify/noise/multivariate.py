"""Exact checkers for multivariate shell noise (thesis §4.5, Proposition 1, Theorem 3).

Shell noise has density M·e^{−ρ·i(x)} with an integer shell index i(x); the DP inequality of
Proposition 1, f(x) ≤ e^ε f(x + δ) for all x and δ ∈ S_f, is therefore the statement
ρ·(i(x + δ) − i(x)) ≤ ε, and the checkers reason on shell indices:

* box shells of step w (i(x) = max(0, ⌈max_j (|x_j| − z_j)/w_j⌉)): for |δ_j| ≤ s_j,
  (|x_j ± δ_j| − z_j)/w_j moves by at most t_j = s_j/w_j, ⌈·⌉ and max are monotone and
  ⌈u + t⌉ ≤ ⌈u⌉ + ⌈t⌉, so |i(x + δ) − i(x)| ≤ D := max_j ⌈t_j⌉; D is attained on an open set
  (x on axis j* with u ∈ (1 − (1 − ⌈t⌉ + t), 1], shifted by s_{j*}).  The worst log-ratio is
  exactly ρ·D.  Correct construction: w = s, ρ = ε, D = 1.
* L1 shells (i(x) = max(0, ⌈(‖x‖_s − ρ_0)/w⌉)): the triangle inequality gives the same with
  t = 1/w.

All comparisons are exact (fractions); each witness is re-evaluated through the mechanism's own
exact log-density (rational shell index, mpmath logarithms).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from privlab._rng import as_generator
from privlab.mechanisms.noise.box_staircase import BoxStaircase
from privlab.mechanisms.noise.l1_staircase import L1BallStaircase
from privlab.types import CheckResult, Method

ShellNoise = BoxStaircase | L1BallStaircase


def _ratios(mech: ShellNoise) -> list[Fraction]:
    """t_j = s_j / w_j (how many steps one sensitivity shift can cross) as exact fractions."""
    wf = Fraction(mech.width_factor)
    if isinstance(mech, L1BallStaircase):
        return [1 / wf]
    return [Fraction(s) / (wf * Fraction(s)) for s in mech.sensitivity]


def _witness(mech: ShellNoise, j: int, t: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """x (shell 1, continuity point) and δ ∈ S_f with i(x + δ) = 1 + ⌈t⌉."""
    c = math.ceil(t)
    u = 1 - (1 - c + t) / 2  # midpoint of (1 − (1 − ⌈t⌉ + t), 1]
    d = mech.dim
    s = Fraction(mech.sensitivity[j])
    x = [Fraction(0)] * d
    delta = [Fraction(0)] * d
    if isinstance(mech, L1BallStaircase):
        x[0] = s * (Fraction(mech.core) + u * Fraction(mech.width_factor))
    else:
        x[j] = Fraction(mech.core[j]) + u * Fraction(mech.width_factor) * s
    delta[j] = s
    return x, delta


def check_shell_dp(mech: ShellNoise, *, samples: int = 20000, seed: int = 0,
                   dps: int = 50) -> CheckResult:
    """Decide f(x) ≤ e^ε f(x + δ) for all x ∈ ℝ^d and δ ∈ S_f (see module doc)."""
    ratios = _ratios(mech)
    jumps = [math.ceil(t) for t in ratios]
    D = max(jumps)
    j = jumps.index(D)
    rate_over_eps = Fraction(mech.rate_factor)
    holds = rate_over_eps * D <= 1
    x, delta = _witness(mech, j, ratios[j])
    xd = [a + b for a, b in zip(x, delta, strict=True)]
    with mpmath.workdps(dps):
        loss = mech.logpdf_exact(x, dps) - mech.logpdf_exact(xd, dps)
        eps = mpmath.mpf(mech.epsilon)
        loss_str = mpmath.nstr(loss, 20)
    observed = _sampled_max_jump(mech, samples, seed)
    evidence = {
        "max_shell_jump": D, "jump_per_axis": jumps,
        "steps_crossed_per_shift": [str(t) for t in ratios],
        "rate_over_epsilon": str(rate_over_eps),
        "worst_log_ratio": loss_str, "epsilon": mech.epsilon,
        "argument": "|i(x+δ) − i(x)| ≤ max_j ⌈s_j/w_j⌉ (monotone ceil/max, triangle "
                    "inequality), attained on an open set; log-ratio = rate × jump",
        "sampled_pairs": samples, "sampled_max_jump": observed,
    }
    witness = {"x": [str(a) for a in x], "delta": [str(b) for b in delta],
               "shell_x": mech.shell_index_exact(x), "shell_x_plus_delta":
               mech.shell_index_exact(xd), "log_ratio": loss_str}
    evidence["tight_pair" if holds else "violating_pair"] = witness
    consistent = (loss <= eps * (1 + mpmath.mpf(10) ** (5 - dps))) == holds and observed <= D
    return CheckResult(holds=holds, claim=f"{mech.name} is {mech.epsilon}-DP for shifts in S_f",
                       value=float(loss), evidence=evidence,
                       counterexample=None if holds else witness, method=Method.EXACT,
                       decided=consistent)


def _sampled_max_jump(mech: ShellNoise, n: int, seed: int) -> int:
    """Largest |i(x + δ) − i(x)| over n random x (half from the noise, half uniform) and random
    δ ∈ S_f (half of them vertices of the box / of the ball): a sanity check of the bound."""
    if n <= 0:
        return 0
    gen = as_generator(seed)
    d = mech.dim
    s = np.asarray(mech.sensitivity)
    x = np.concatenate([mech.sample(n // 2, rng=gen),
                        gen.uniform(-1, 1, (n - n // 2, d)) * s * 6])
    if isinstance(mech, L1BallStaircase):
        e = gen.exponential(size=(n, d))
        dirn = e / e.sum(axis=1, keepdims=True) * np.where(gen.random((n, d)) < .5, -1., 1.)
        rad = np.where(gen.random(n) < 0.5, 1.0, gen.random(n))[:, None]
        delta = dirn * rad * s
    else:
        u = gen.uniform(-1, 1, (n, d))
        delta = np.where(gen.random((n, 1)) < 0.5, np.sign(u), u) * s
    return int(np.max(np.abs(mech.shell_index(x + delta) - mech.shell_index(x))))


def check_theorem3_conditions(mech: BoxStaircase) -> CheckResult:
    """Theorem 3's hypotheses for a box construction, decided exactly:
    (1) S_0 ⊂ S_f; (2) ⟨0, x⟩ ⊂ S_0 for x ∈ S_0; (3) S_{i+1} = (S_i + S_f) \\ ∪_{j≤i} S_j with
    density ratio e^{−ε} between consecutive shells."""
    z = [Fraction(c) for c in mech.core]
    s = [Fraction(c) for c in mech.sensitivity]
    bad_core = [j for j in range(mech.dim) if z[j] > s[j]]
    cond = {
        "core_inside_sensitivity_set": not bad_core,
        "core_star_shaped": True,  # a centred box is convex and contains 0
        "step_is_sensitivity_set": Fraction(mech.width_factor) == 1,
        "shell_ratio_is_exp_minus_epsilon": Fraction(mech.rate_factor) == 1,
    }
    cex: dict[str, Any] | None = None
    if bad_core:
        j = bad_core[0]
        cex = {"condition": "S_0 ⊂ S_f", "point_of_S0_outside_Sf": [str(c) for c in z],
               "axis": j, "core": str(z[j]), "sensitivity": str(s[j])}
    elif not cond["step_is_sensitivity_set"]:
        cex = {"condition": "S_{i+1} = (S_i + S_f) \\ ∪ S_j",
               "step": [str(Fraction(mech.width_factor) * c) for c in s],
               "sensitivity": [str(c) for c in s]}
    elif not cond["shell_ratio_is_exp_minus_epsilon"]:
        cex = {"condition": "density ratio e^{−ε} per shell",
               "ratio_exponent": str(Fraction(mech.rate_factor)) + "·ε"}
    return CheckResult(holds=all(cond.values()), claim="Theorem 3's conditions hold",
                       value=cond, evidence={"conditions": cond}, counterexample=cex,
                       method=Method.EXACT)


def check_core_slack(mech: BoxStaircase) -> CheckResult:
    """The step of Theorem 3's proof that needs S_0 ⊂ S_f: no probability mass can move towards
    0 without breaking DP.  When z_j > s_j for every j, R = Π[−(z_j − s_j), z_j − s_j] satisfies
    R + S_f ⊂ S_0, so raising the density on R to M(1 + cη) and lowering it on S_0 \\ R to
    M(1 − η) (c = vol(S_0 \\ R)/vol R, mass preserved) keeps every DP constraint as long as
    (1 + cη)/(1 − η) ≤ e^ε; we exhibit η = half the largest such value.  Otherwise every point of
    S_0 has a neighbour (δ ∈ S_f) in S_1 and the density on S_0 is pinned at e^ε·M·e^{−ε}."""
    z = [Fraction(c) for c in mech.core]
    s = [Fraction(c) for c in mech.sensitivity]
    if not all(zj > sj for zj, sj in zip(z, s, strict=True)):
        return CheckResult(holds=True, claim="no DP-preserving move of core mass towards 0",
                           value=0.0, method=Method.EXACT,
                           evidence={"argument": "some z_j ≤ s_j: for a.e. x ∈ S_0, x ± s_j e_j"
                                     " leaves S_0 along that axis, into S_1"})
    vol_r = math.prod(float(2 * (zj - sj)) for zj, sj in zip(z, s, strict=True))
    vol_0 = math.prod(float(2 * zj) for zj in z)
    c = (vol_0 - vol_r) / vol_r
    e = math.exp(mech.epsilon)
    eta = 0.5 * (e - 1.0) / (c + e)
    m = mech.normaliser
    witness = {"inner_box_half_widths": [str(zj - sj) for zj, sj in zip(z, s, strict=True)],
               "eta": eta, "density_on_R": m * (1 + c * eta),
               "density_on_S0_minus_R": m * (1 - eta),
               "mass_moved_towards_0": m * eta * (vol_0 - vol_r),
               "max_log_ratio_after_move": math.log((1 + c * eta) / (1 - eta)),
               "epsilon": mech.epsilon}
    return CheckResult(holds=False, claim="no DP-preserving move of core mass towards 0",
                       value=witness["mass_moved_towards_0"], evidence=witness,
                       counterexample=witness, method=Method.EXACT)


def check_marginal_variances(mech: BoxStaircase, *, dps: int = 30,
                             axes: tuple[int, ...] | None = None) -> CheckResult:
    """Closed-form Var Y_j against mpmath quadrature of x²·f_j(x) over the axis pieces
    (z_j + (k−1)w_j, z_j + k w_j] where f_j is constant, summed until the pieces' contributions
    fall below 10^{−dps−5} of the total; the truncated tail is estimated geometrically."""
    axes = tuple(range(mech.dim)) if axes is None else axes
    rows, ok = [], True
    with mpmath.workdps(dps + 10):
        w = [mpmath.mpf(mech.width_factor) * mpmath.mpf(s_) for s_ in mech.sensitivity]
        for j in axes:
            zj = mpmath.mpf(mech.core[j])
            closed = mech.marginal_variance(j, exact=True, dps=dps + 10)
            total = 2 * mpmath.quad(lambda x, j=j: x**2 * mech.marginal_pdf_exact(
                x, j, dps + 10), [0, zj]) if zj > 0 else mpmath.mpf(0)
            prev, k = None, 1
            while True:
                a, b = zj + (k - 1) * w[j], zj + k * w[j]
                level = mech.marginal_pdf_exact((a + b) / 2, j, dps + 10)
                piece = 2 * level * mpmath.quad(lambda x: x**2, [a, b])
                total += piece
                if prev is not None and piece < total * mpmath.mpf(10) ** (-dps - 5) \
                        and piece < prev:
                    tail = piece * (piece / prev) / (1 - piece / prev)
                    break
                prev, k = piece, k + 1
            err = abs(closed - total)
            good = err <= tail + abs(closed) * mpmath.mpf(10) ** (-dps + 2)
            ok = ok and bool(good)
            rows.append({"axis": j, "closed_form": mpmath.nstr(closed, dps),
                         "quadrature": mpmath.nstr(total, dps), "pieces": k,
                         "abs_difference": mpmath.nstr(err, 5),
                         "tail_estimate": mpmath.nstr(tail, 5)})
    return CheckResult(holds=ok, claim="closed-form marginal variances equal quadrature",
                       value=[r["closed_form"] for r in rows],
                       evidence={"dps": dps, "axes": rows}, method=Method.NUMERIC,
                       counterexample=None if ok else rows)


def _spacing(*values: float) -> Fraction:
    """Largest h with every value an integer multiple of h (values read as decimals)."""
    fr = [Fraction(repr(float(x))) for x in values if x != 0]
    den = math.lcm(*(f.denominator for f in fr))
    return Fraction(math.gcd(*(int(f * den) for f in fr)), den)


def _dilate(mask: np.ndarray, radius: list[int], l1: bool) -> np.ndarray:
    from scipy import ndimage

    out = mask.astype(np.uint8)
    if l1:  # the discrete L1 ball of radius m is the m-fold sum of the unit cross
        cross = ndimage.generate_binary_structure(mask.ndim, 1)
        for _ in range(radius[0]):
            out = ndimage.binary_dilation(out, structure=cross).astype(np.uint8)
        return out.astype(bool)
    for ax, m in enumerate(radius):  # a box is the sum of its axis segments
        out = ndimage.maximum_filter1d(out, size=2 * m + 1, axis=ax, mode="constant", cval=0)
    return out.astype(bool)


def recursion_labels(mech: ShellNoise, shells: int = 3, *, printed_index: bool = False,
                     max_points: int = 4_000_000) -> tuple[np.ndarray, np.ndarray,
                                                           Any] | None:
    """Shells of Theorem 3's set recursion on a lattice, from scratch (no closed form):
    S_i = (S_{i−1} + S_f) \\ ∪_{j<i} S_j, or with ``printed_index`` the recursion as printed in
    Theorem 3, S_{i+1} = (S_i + S_f) \\ ∪_{j≤i−1} S_j.  Box: cells of side h_j (h_j divides z_j
    and s_j; the sets are unions of closed cells, a cell is represented by its midpoint).  L1
    ball: lattice points y = k·h in the coordinates y_j = x_j/s_j (1/h and ρ/h integers).
    Returns (coordinates of the lattice points, membership masks per shell, grid) or None when
    the lattice would exceed ``max_points``."""
    l1 = isinstance(mech, L1BallStaircase)
    s = [Fraction(repr(float(x))) for x in mech.sensitivity]
    core: Any = mech.core
    if l1:
        rho = Fraction(repr(float(core)))
        h = _spacing(1.0, float(core))
        n = int((rho + shells) / h)
        if (2 * n + 1) ** len(s) > max_points:
            return None
        axes = [np.arange(-n, n + 1) * float(h) for _ in s]
        core_r, step_r = int(rho / h), [int(1 / h)]
    else:
        z = [Fraction(repr(float(x))) for x in core]
        hs = [_spacing(float(zj), float(sj)) for zj, sj in zip(z, s, strict=True)]
        ns = [int((zj + shells * sj) / hj) for zj, sj, hj in zip(z, s, hs, strict=True)]
        if math.prod(2 * nj for nj in ns) > max_points:
            return None
        axes = [(np.arange(2 * nj) - nj + 0.5) * float(hj) for nj, hj in zip(ns, hs, strict=True)]
        step_r = [int(sj / hj) for sj, hj in zip(s, hs, strict=True)]
    if math.prod(len(a) for a in axes) > max_points:
        return None
    grid = np.meshgrid(*axes, indexing="ij")
    if l1:
        kk = [np.rint(g / float(h)).astype(np.int64) for g in grid]
        s0 = sum(np.abs(k) for k in kk) <= core_r
    else:
        s0 = np.ones(grid[0].shape, bool)
        for g, zj in zip(grid, z, strict=True):
            s0 &= np.abs(g) < float(zj)
    masks = [s0]
    if not l1 and not s0.any():  # degenerate core (some z_j = 0): S_0 + S_f is the box z + s
        s1 = np.ones(grid[0].shape, bool)
        for g, zj, sj in zip(grid, z, s, strict=True):
            s1 &= np.abs(g) < float(zj + sj)
        masks.append(s1)
    for _i in range(len(masks), shells + 1):
        grown = _dilate(masks[-1], step_r, l1)
        removed = masks[:-1] if printed_index else masks  # printed: ∪_{j≤i−1} S_j
        for m in removed:
            grown &= ~m
        masks.append(grown)
    pts = np.stack(grid, axis=-1)
    if l1:
        pts = pts * np.asarray([float(x) for x in s])
    return pts, np.asarray(masks), grid


def check_shell_recursion(mech: ShellNoise, *, shells: int = 3,
                          max_points: int = 4_000_000) -> CheckResult:
    """The closed-form shell index equals Theorem 3's set recursion at every lattice point of
    B_shells (box: every cell midpoint; L1: every lattice point off the shell boundaries).
    Exhaustive on the lattice; undecided when the parameters need a lattice finer than
    ``max_points`` points (read as decimals: 0.1 means 1/10)."""
    out = recursion_labels(mech, shells, max_points=max_points)
    claim = "closed-form shells equal the set recursion S_i = (S_{i−1} + S_f) \\ ∪_{j<i} S_j"
    if out is None:
        return CheckResult(holds=True, claim=claim, decided=False, method=Method.EXHAUSTIVE,
                           evidence={"reason": f"lattice larger than {max_points} points"})
    pts, masks, _grid = out
    inside = masks.any(axis=0)
    label = np.argmax(masks, axis=0)
    overlaps = int((masks.sum(axis=0) > 1).sum())
    closed = np.asarray(mech._shell_float(pts))
    if isinstance(mech, L1BallStaircase):  # drop points on a shell boundary (measure zero)
        u = mech.norm(pts) - mech.core
        inside &= np.abs(u - np.rint(u)) > 1e-9
    bad = inside & (closed != label)
    evidence = {"shells": shells, "lattice_points_compared": int(inside.sum()),
                "lattice_shape": list(masks.shape[1:]), "overlapping_points": overlaps,
                "mismatches": int(bad.sum())}
    cex = None
    if bad.any():
        idx = tuple(np.argwhere(bad)[0])
        cex = {"x": pts[idx].tolist(), "recursion_shell": int(label[idx]),
               "closed_form_shell": int(closed[idx])}
    return CheckResult(holds=not bad.any() and overlaps == 0, claim=claim,
                       value=int(bad.sum()), evidence=evidence, counterexample=cex,
                       method=Method.EXHAUSTIVE)


def check_printed_recursion(mech: ShellNoise, *, shells: int = 3) -> CheckResult:
    """Theorem 3's third condition as printed, S_{i+1} = (S_i + S_f) \\ ∪_{j=0}^{i−1} S_j, keeps
    S_i inside S_{i+1} (0 ∈ S_f), so the 'shells' overlap and Σ_i M e^{−iε} I_{S_i} is not the
    step density of Definition-9 construction.  Holds iff the printed sets are disjoint."""
    out = recursion_labels(mech, shells, printed_index=True)
    claim = "the printed recursion of Theorem 3 yields disjoint shells"
    if out is None:
        return CheckResult(holds=True, claim=claim, decided=False, method=Method.EXHAUSTIVE)
    pts, masks, _grid = out
    both = masks[1] & masks[2] if shells >= 2 else np.zeros(masks[0].shape, bool)
    cex = None
    if both.any():
        idx = tuple(np.argwhere(both)[0])
        cex = {"x": pts[idx].tolist(), "in_shells": [int(i) for i in np.flatnonzero(
            masks[:, *idx])]}
    return CheckResult(holds=not both.any(), claim=claim, value=int(both.sum()),
                       evidence={"points_in_S1_and_S2": int(both.sum())}, counterexample=cex,
                       method=Method.EXHAUSTIVE)
