"""Every DP release form, as the release commands configure it, audited as an implementation
(the auditor's floating-point features on): safe mode (the default) leaves no structural leak,
fast mode (float Laplace) is caught by its low-order bits (Mironov 2012).

The configurations are those behind ``privlab release laplace-dp`` (no microaggregation, thesis
scale), ``insensitive-mdav-dp`` (vldb14 scale), ``ir-dp`` (irm scale) and the mixed release
(``--taxonomy``, numerical column audited), each on a neighbour pair that changes one record.
The claimed ε is the requested one; the fast-mode audits must find a structural leak (ε = ∞)
— the mutant "safe mode draws float noise" fails the first test, and a grid that followed the
data (e.g. Λ from the centroid) would leak too.
"""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import audit_pair
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.mechanisms.releases.numerical import DPRelease

SAMPLES = 100_000
BOUNDS = [(0.0, 1.0)]
X = [[0.0], [0.0], [0.0], [0.0]]  # every centroid is exactly 0: outputs are the noise itself
X_PRIME = [[0.0], [0.0], [0.0], [1.0]]  # one record at the upper bound (Mironov's pair)
FORMS = {  # command: (microaggregation, noise scale, k)
    "laplace-dp": ("none", "thesis", 1),
    "insensitive-mdav-dp": ("insensitive-mdav", "vldb14", 2),
    "ir-dp": ("individual-ranking", "irm", 2),
}


def _numerical(form: str, mode: str):
    micro, scale, k = FORMS[form]
    rel = DPRelease(microaggregation=micro, k=k, epsilon=1.0, noise_scale=scale, clamp=False,
                    noise_mode=mode)

    def sampler(data):  # the sorted released values (rows are shuffled: a multiset)
        arr = np.asarray(data, dtype=float)
        return lambda n, rng: np.sort(rel.sample(arr, BOUNDS, n, rng=rng)[:, :, 0], axis=1)
    return sampler(X), sampler(X_PRIME)


TAX = Taxonomy(parents={"root": (), "A": ("root",), "B": ("root",), "a1": ("A",),
                        "a2": ("A",), "b1": ("B",), "b2": ("B",)}, name="t")


def _mixed(mode: str):
    """The per-record mixed release (k = 1) of one record, numerical value 0 against 1."""
    rel = MixedDPRelease(attributes=(NumericDomain(0.0, 1.0), TAX), k=1, epsilon=1.0,
                         microaggregation="none", clamp=False, noise_mode=mode)

    def sampler(value):
        def s(n, rng):
            g = np.random.default_rng(rng)
            return np.array([rel.release([[value, "a1"]], rng=g)[0][0] for _ in range(n)])
        return s
    return sampler(0.0), sampler(1.0)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_numerical_releases_are_float_safe_and_fast_mode_leaks(form: str) -> None:
    a, b = _numerical(form, "safe")
    safe = audit_pair(a, b, samples=SAMPLES, claimed_epsilon=1.0, float_bits=True, rng=0)
    assert not safe.structural_leak and safe.verdict != "violation", safe.to_dict()
    a, b = _numerical(form, "fast")
    fast = audit_pair(a, b, samples=SAMPLES, claimed_epsilon=1.0, float_bits=True, rng=0)
    assert fast.verdict == "violation" and fast.event_class == "implementation"


def test_mixed_release_numerical_column_is_float_safe() -> None:
    a, b = _mixed("safe")
    safe = audit_pair(a, b, samples=5_000, claimed_epsilon=1.0, float_bits=True, rng=0)
    assert not safe.structural_leak and safe.verdict != "violation"
    a, b = _mixed("fast")
    fast = audit_pair(a, b, samples=5_000, claimed_epsilon=1.0, float_bits=True, rng=0)
    assert fast.verdict == "violation" and fast.event_class == "implementation"


def test_written_values_are_grid_points_fixed_by_public_parameters_only() -> None:
    """The grid depends on bounds, n, k and the scale only: equal for neighbours, and every
    released value (clamping bounds aside) is an integer multiple of it."""
    for form in FORMS:
        micro, scale, k = FORMS[form]
        rel = DPRelease(microaggregation=micro, k=k, epsilon=1.0, noise_scale=scale)
        g1, g2 = rel.grid(BOUNDS, 4), rel.grid(BOUNDS, 4)
        assert g1 == g2
        out = rel.sample(np.asarray(X), BOUNDS, 2000, rng=3)
        q = out / g1.granularity[0]
        assert (q == np.rint(q)).all()


def test_certificate_rates_are_decided_by_the_exact_checker() -> None:
    """certify_release runs the exhaustive checker of the safe law on every attribute's integer
    noise, at the rate the sampler draws with (``grid.rate``): its worst log-ratio per grid unit
    is that rate exactly.  This pins that the check is present and run on the sampler's own
    rate (mutants caught: no ``exact_check`` in the certificate; the check run on the
    continuous rate 1/(s·Δ/Λ) instead of γ_j); the sampler's law itself is tested by the
    goodness-of-fit tests of ``discrete_laplace`` (tests/mechanisms/test_exact_samplers.py)."""
    from fractions import Fraction

    from privlab.verify.releases.certificate import certify_release

    for form in FORMS:
        micro, scale, k = FORMS[form]
        rel = DPRelease(microaggregation=micro, k=k, epsilon=1.0, noise_scale=scale)
        cert = certify_release(rel, 4, 2, bounds=[(0.0, 1.0), (17.0, 90.0)])
        checks = cert.noise["exact_check"]
        assert [c["attribute"] for c in checks] == [0, 1]
        grid = rel.grid([(0.0, 1.0), (17.0, 90.0)], 4)
        for c, g in zip(checks, grid.rate, strict=True):
            assert c["equals_rate"] and Fraction(c["worst_log_ratio_per_grid_unit"]) == g
            assert c["method"] == "exhaustive"
