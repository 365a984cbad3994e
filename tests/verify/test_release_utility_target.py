"""The search for a configuration that meets a requested error
(privlab.verify.releases.utility_target, utility_plans) against brute-force scans.

The brute force computes, for every k in 1..n, the release's own certificate and the exact
error of :func:`privlab.verify.releases.utility.assess` (whose formulas are tested against the
pmf and simulation in ``test_release_utility.py``), and takes the smallest k; the search must
give the same k while skipping most of them.  Each test names the mutant it catches; each
mutant was run once and failed the test.
"""

from __future__ import annotations

import attrs
import pytest

from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.mechanisms.releases.config import ReleaseConfig
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.mechanisms.releases.numerical import DPRelease
from privlab.verify.releases.certificate import (
    certify_dp_release,
    certify_release,
    leak_pair,
)
from privlab.verify.releases.mixed import certify_mixed
from privlab.verify.releases.utility import assess, grid_laws
from privlab.verify.releases.utility_plans import (
    mixed_planner,
    mixed_utility,
    numerical_planner,
    numerical_utility,
    quick_certificate,
)
from privlab.verify.releases.utility_target import _down3, structural_leak

N = 40
B1, B2 = [(0.0, 10.0)], [(0.0, 10.0), (-5.0, 5.0)]
TAX = Taxonomy(parents={"root": (), "A": ("root",), "B": ("root",), "a1": ("A",),
                        "a2": ("A",), "b1": ("B",), "b2": ("B",)}, name="tiny")


def _error(rel: DPRelease, n: int, b: list[tuple[float, float]]) -> float:
    per_record = rel.noise == "per-record" or rel.microaggregation == "none"
    return assess(grid_laws(rel.grid(b, n)), n, rel.k, per_record=per_record,
                  clamp=rel.clamp).mean_relative_error


def _brute_k(rel: DPRelease, n: int, b: list[tuple[float, float]], r: float) -> int | None:
    for k in range(1, n + 1):
        rk = attrs.evolve(rel, k=k)
        if certify_release(rk, n, len(b), bounds=b).holds and _error(rk, n, b) <= r:
            return k
    return None


CASES = [  # (release, bounds, R)
    (DPRelease(microaggregation="insensitive-mdav", k=3, epsilon=1.0, noise_scale="vldb14",
               clamp=True), B1, 0.1),
    (DPRelease(microaggregation="insensitive-mdav", k=3, epsilon=1.0, noise_scale="thesis",
               clamp=False), B2, 0.1),
    (DPRelease(microaggregation="individual-ranking", k=3, epsilon=1.0, noise_scale="irm",
               clamp=True), B2, 0.2),
    (DPRelease(microaggregation="individual-ranking", k=3, epsilon=2.0, noise_scale="irm",
               clamp=True), B1, 0.02),
    (DPRelease(microaggregation="insensitive-mdav", k=3, epsilon=1.0, noise_scale=0.05,
               clamp=True), B2, 0.1),
    (DPRelease(microaggregation="insensitive-mdav", k=3, epsilon=1.0, noise_scale="vldb14",
               noise="per-record", clamp=True), B1, 0.1),
    (DPRelease(microaggregation="insensitive-mdav", k=3, epsilon=1.0, noise_scale="vldb14",
               clamp=True), B1, 0.9),
]


@pytest.mark.parametrize(("rel", "b", "r"), CASES)
def test_smallest_k_is_the_brute_force_one(rel: DPRelease, b, r: float) -> None:
    # catches: a screen that is too strict (quick_error with σ = 2s instead of √2·s rejects
    # the smallest k of the thesis case; σ not capped at Δ/2 when clamped rejects k = 1 at
    # R = 0.9, where the clamped noise is huge but bounded) and a structural-leak screen that
    # ignores n < 2k (individual ranking with two columns is certified only with a single
    # cluster, k > n/2)
    got = numerical_utility(rel, N, b, target=r).target["smallest_k"]
    assert got["k"] == _brute_k(rel, N, b, r)
    if got["k"] is not None:  # both brute-force ingredients, recomputed at the answer
        rk = attrs.evolve(rel, k=got["k"])
        assert certify_release(rk, N, len(b), bounds=b).holds
        assert got["mean_relative_error"] == _error(rk, N, b) <= r


@pytest.mark.parametrize(("rel", "b", "r"), [c for c in CASES if c[0].noise_scale != 0.05])
def test_smallest_epsilon_meets_it_and_the_next_smaller_does_not(rel: DPRelease, b,
                                                                 r: float) -> None:
    # (R = 0.9 is met by every clamped release: there the certificate binds, at the tiny ε
    # where the grid's rounding term 2·q·γ stops being negligible)
    # catches: the bisection's branches swapped (it then converges to the wrong end)
    got = numerical_utility(rel, N, b, target=r).target["smallest_epsilon"]
    cert = certify_release(rel, N, len(b), bounds=b)
    if cert.certified_epsilon is None:  # a structural leak: no ε at all
        assert got["epsilon"] is None and "no ε can be certified" in got["why"]
        return
    if not cert.holds:  # the rule's certified ε is a fixed multiple of ε: none is certified
        assert got["epsilon"] is None and "at every ε" in got["why"]
        return
    e = got["epsilon"]

    def ok(eps: float) -> bool:  # the two brute-force criteria
        at = attrs.evolve(rel, epsilon=eps)
        return certify_release(at, N, len(b), bounds=b).holds and _error(at, N, b) <= r

    assert ok(e) and not ok(_down3(e))
    # brute force: a geometric scan below it never meets both
    for i in range(1, 40):
        assert not ok(_down3(e) * 0.9 ** i)


ADULT_SHAPE = DPRelease(microaggregation="insensitive-mdav", k=50, epsilon=0.5,
                        noise_scale="vldb14", clamp=True)


@pytest.mark.parametrize(("rel", "n", "b"), [(CASES[0][0], N, B1), (CASES[4][0], N, B2),
                                             (ADULT_SHAPE, 32561, [(17.0, 90.0)])])
def test_calibrated_scale_is_the_smallest_certified_one(rel: DPRelease, n: int, b) -> None:
    # catches: the calibrated scale left at the first guess rounded up (0.0401 on the issue's
    # shape, n = 32561, k = 50, ε = 0.5, where 0.04 is certified: the step down is needed)
    cal = numerical_utility(rel, n, b).calibration
    s = cal["scale_per_unit"]
    assert certify_release(attrs.evolve(rel, noise_scale=s), n, len(b), bounds=b).holds
    assert not certify_release(attrs.evolve(rel, noise_scale=_down3(s)), n, len(b),
                               bounds=b).holds


@pytest.mark.parametrize("scale", ["vldb14", "thesis"])
def test_epsilon_floors_are_sound_and_tight(scale: str) -> None:
    # the screens skip a k whose floor exceeds ε: the floor must never exceed the certified ε
    # (else the search misses answers) and should be close to it (else it screens nothing)
    # catches: the categorical part of the mixed floor computed with the requested k's factor
    # n/k instead of the candidate's
    n = 60
    rel, rule = _mixed(scale)
    mp_, _ = mixed_planner(rel, n, rule, True)
    npl, _ = numerical_planner(CASES[0][0] if scale == "vldb14" else CASES[1][0], N,
                               B1 if scale == "vldb14" else B2)
    for planner, size in ((mp_, n), (npl, N)):
        for k in range(1, size + 1):
            for e in (0.5, 2.0):
                f = planner.floor(k, e)
                _, cert = planner.certify(k, e)
                if cert is None:
                    assert f is None
                    continue
                assert f <= cert <= f * (1 + 2.0**-16), (k, e, f, cert)


def _mixed(scale: str, k: int = 3, n: int = 60) -> tuple[MixedDPRelease, object]:
    m = 2

    def rule(kk: int, e: float) -> float:
        return (n / kk) * m / (kk * e) if scale == "vldb14" else m / (kk * e)

    rel = MixedDPRelease(attributes=(NumericDomain(0.0, 10.0), TAX), k=k, epsilon=1.0,
                         clamp=True, scale_per_unit=rule(k, 1.0))
    return rel, rule


@pytest.mark.parametrize(("scale", "r"), [("vldb14", 0.1), ("thesis", 0.1)])
def test_mixed_smallest_k_and_calibrated_scale(scale: str, r: float) -> None:
    # catches: the categorical part of the screen computed with the requested k's factor n/k
    # instead of the candidate's (the screen then rejects the brute-force answer), and a
    # calibration that ignores the categorical part C of ε = A/s + C (its first guess cannot
    # reach a certified scale in 64 small steps)
    n = 60
    rel, rule = _mixed(scale)
    u = mixed_utility(rel, n, rule, True, ["x"], target=r)
    brute = None
    for k in range(1, n + 1):
        rk = attrs.evolve(rel, k=k, scale_per_unit=rule(k, 1.0))
        err = assess(grid_laws(rk.grid(n)), n, k, per_record=False, clamp=True)
        if certify_mixed(rk, n)["holds"] and err.mean_relative_error <= r:
            brute = k
            break
    assert u.target["smallest_k"]["k"] == brute
    s = u.calibration["scale_per_unit"]
    assert certify_mixed(attrs.evolve(rel, scale_per_unit=s), n)["holds"]
    assert not certify_mixed(attrs.evolve(rel, scale_per_unit=_down3(s)), n)["holds"]


def test_structural_leak_agrees_with_leak_pair() -> None:
    # catches: the single-cluster exception (n < 2k) dropped from structural_leak
    seen = set()
    for n in (3, 4, 6, 9):
        for k in range(1, min(n, 5) + 1):
            for micro in ("insensitive-mdav", "individual-ranking", "none"):
                if micro == "none" and k != 1:
                    continue
                for m in (1, 2):
                    for noise in ("shared", "per-record"):
                        for rows in ("aligned", "shuffled"):
                            for nb in ("substitute", "add-remove"):
                                cfg = ReleaseConfig(microaggregation=micro, noise_scale=1.0,
                                                    n=n, k=k, epsilon=1.0, attributes=m,
                                                    noise=noise, rows=rows, neighbour=nb)
                                leak = leak_pair(cfg) is not None
                                assert structural_leak(cfg) == leak, cfg
                                seen.add(leak)
    assert seen == {True, False}


def test_quick_certificate_is_the_certificate() -> None:
    # the search's shortcut against the two certificates it replaces (kept as the oracles)
    # catches: the written ε's rounding term taken for one changed coordinate per attribute
    # (changed_coordinates → 1) instead of one per cluster / per record
    checked = 0
    for n in (5, 12):
        for k in (1, 2, 3, 7):
            for micro in ("insensitive-mdav", "individual-ranking", "none"):
                if k > n or (micro == "none" and k != 1):
                    continue
                for scale in ("vldb14", "thesis", "irm", 0.3):
                    for m in (1, 2):
                        b = [(-3.0, 10.0), (0.0, 1e6)][:m]
                        for noise in ("shared", "per-record"):
                            for rows in ("aligned", "shuffled"):
                                for nb in ("substitute", "add-remove"):
                                    cfg = ReleaseConfig(
                                        microaggregation=micro, noise_scale=scale, n=n, k=k,
                                        epsilon=0.7, attributes=m, noise=noise, rows=rows,
                                        neighbour=nb)
                                    law = certify_dp_release(micro, scale, n, k, 0.7, m, noise,
                                                             rows, nb)
                                    assert quick_certificate(cfg) == (law.holds,
                                                                      law.certified_epsilon)
                                    rel = DPRelease(microaggregation=micro, k=k, epsilon=0.7,
                                                    noise_scale=scale, noise=noise, rows=rows)
                                    c = certify_release(rel, n, m, nb, bounds=b)
                                    got = quick_certificate(cfg, rel.grid(b, n))
                                    assert got == (c.holds, c.certified_epsilon), cfg
                                    checked += 1
    assert checked > 1000
