"""Issue 15 item 2: outputs beyond float64 — bits read in the output's own dtype, support
events of coarse grids (float32, lattices) in the default search, ``event_class``."""

from __future__ import annotations

import numpy as np

from privlab.audit import audit_pair
from privlab.audit.features import default_features, event_class, lowbits
from privlab.mechanisms.noise import Laplace, Staircase


def f32(x: float):
    return lambda n, g: np.float32(x) + g.laplace(0.0, 1.0, n).astype(np.float32)


def lattice(x: float):
    q = 1 - np.exp(-1.0)  # two-sided geometric on x + Z: the discrete Laplace at ε = 1
    return lambda n, g: x + (g.geometric(q, n) - g.geometric(q, n)).astype(float)


def test_lowbits_reads_the_own_dtype() -> None:
    """float32's last mantissa bit and integers beyond 2^53 (lost by a float64 cast)."""
    one = np.float32(1.0)
    nxt = np.nextafter(one, np.float32(2.0))
    assert lowbits(np.array([nxt]))[0] - lowbits(np.array([one]))[0] == 1
    big = np.array([2**53, 2**53 + 1], dtype=np.int64)
    assert lowbits(big)[0] != lowbits(big)[1]  # equal after a float64 cast
    assert np.float64(big[0]) == np.float64(big[1])


def test_float32_leak_caught_by_default_audit() -> None:
    """np.float32(x) + Laplace.astype(float32) at ε = 1: an odd last bit is impossible on one
    side in some binades (the float64 law is 1-DP; the float32 implementation is not)."""
    r = audit_pair(f32(0.0), f32(1.0), samples=200_000, claimed_epsilon=1.0, rng=0)
    assert r.verdict == "violation" and r.structural_leak
    assert r.event_class == "implementation" and r.counterexample["feature"].startswith("lowbits")


def test_disjoint_lattices_caught_with_structural_leak() -> None:
    r = audit_pair(lattice(0.0), lattice(0.75), samples=100_000, claimed_epsilon=1.0, rng=0)
    assert r.verdict == "violation" and r.structural_leak and r.event_class == "implementation"
    # the same lattice (inputs 0 and 1) is the discrete Laplace: exactly 1-DP, not flagged
    r = audit_pair(lattice(0.0), lattice(1.0), samples=100_000, claimed_epsilon=1.0, rng=0)
    assert r.verdict == "consistent" and not r.structural_leak


def test_snapping_and_safe_mode_not_flagged() -> None:
    lam = 2.0**-10

    def snap(x: float):
        return lambda n, g: np.round((x + g.laplace(0.0, 1.0, n)) / lam) * lam

    r = audit_pair(snap(0.0), snap(1.0), samples=100_000, claimed_epsilon=1.0, rng=0)
    assert r.verdict == "consistent" and not r.structural_leak
    for mech in (Laplace(epsilon=1.0), Staircase.optimal(1.0)):
        def safe(x: float, m=mech):
            return lambda n, g: m.release(np.full(n, x), rng=g, mode="safe")

        r = audit_pair(safe(0.0), safe(1.0), samples=100_000, claimed_epsilon=1.0, rng=1)
        assert r.verdict == "consistent" and not r.structural_leak, mech


def test_event_class_and_default_features() -> None:
    assert event_class("lowbits(value)") == "implementation"
    assert event_class("resid[0.5](value)") == "implementation"
    assert event_class("value") == "law"
    # float64 outputs: bit features stay opt-in (the law is the default meaning of ε)
    x = np.random.default_rng(0).laplace(size=1000)
    assert default_features(x) == ("value",)
    assert "lowbits(value)" in default_features(x.astype(np.float32))
