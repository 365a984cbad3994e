"""privlab's own claims: they hold, and each check fails when what it guards is broken."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.proofs import own as own
from privlab.types import Status, status_of


@pytest.mark.parametrize("claim", own.CLAIMS, ids=lambda c: c.id)
def test_own_claims_verified(claim):
    res = claim.check()
    assert status_of(res) is Status.VERIFIED, res.counterexample


def test_sampler_claim_catches_a_one_ulp_change(monkeypatch):
    real = Staircase.sample

    def off_by_one_ulp(self, shape=(), *, rng=None):
        return np.nextafter(real(self, shape, rng=rng), np.inf)

    monkeypatch.setattr(Staircase, "sample", off_by_one_ulp)
    res = own.check_fast_sampler()
    assert not res.holds and res.counterexample[0]["index"] == 0


def test_controls_claim_fails_when_a_control_is_correct(monkeypatch):
    class NotBroken(Laplace):
        name = "not-broken-laplace"

    from privlab.mechanisms.noise import controls

    monkeypatch.setattr(controls, "CONTROLS", (NotBroken,))  # own imports it when run
    res = own.check_controls_refuted()
    assert not res.holds and any("not-broken-laplace" in c for c in res.counterexample)


def test_safe_claim_fails_for_a_wrong_rate(monkeypatch):
    from privlab.mechanisms.noise import controls

    monkeypatch.setattr(own, "_laws", lambda: [controls.WrongRatioStaircase(epsilon=1.0, d=0.3)])
    res = own.check_safe_mode_dp()
    assert not res.holds and res.counterexample


def _safe_claim():
    return next(c for c in own.CLAIMS if c.id == "privlab:safe-mode-dp")


def test_safe_claim_declares_its_parameters_and_their_boundaries():
    """issue 30: a privlab claim has no seed registry but declares its domain and boundary
    cases — the smallest rate safe mode represents (2⁻²⁰) and the staircase's largest (700),
    d = 0 and d = Δ — and its grid holds them."""
    from privlab.mechanisms.noise.safe import MAX_DENOMINATOR
    from privlab.mechanisms.noise.staircase import RATE_RANGE
    from privlab.proofs.verdict import form_problems, grid_gaps

    claim = _safe_claim()
    params = {p.name: p for p in claim.params}
    assert set(params) == {"epsilon", "sensitivity", "d/Δ"}
    assert all(p.registry is None for p in params.values())
    assert grid_gaps(claim) == () and form_problems(claim) == ()
    eps = params["epsilon"]
    assert eps.lo == 1 / MAX_DENOMINATOR and eps.lo_closed
    assert set(eps.boundary) == {1 / MAX_DENOMINATOR, RATE_RANGE[1]}
    assert {0.0, 1.0} <= set(params["d/Δ"].grid) and params["d/Δ"].boundary == (0.0, 1.0)


def test_safe_claim_runs_on_exactly_its_declared_grid():
    """The laws the check runs are the declared grid: ε, Δ and d/Δ read back from the laws."""
    claim = _safe_claim()
    params = {p.name: p for p in claim.params}
    laws = own._laws()
    assert {m.epsilon for m in laws} == set(params["epsilon"].grid)
    assert {m.sensitivity for m in laws} == set(params["sensitivity"].grid)
    stairs = [m for m in laws if m.name == "staircase"]
    assert sorted({m.d / m.sensitivity for m in stairs}) == pytest.approx(
        sorted(params["d/Δ"].grid))
    assert max(m.epsilon for m in stairs) == max(params["epsilon"].boundary)  # 700
    res = claim.check()
    assert res.holds and len(res.evidence["laws"]) == len(laws)


def test_safe_mode_refuses_below_its_smallest_rate():
    """The lower end of the declared domain is where safe mode stops: half of 2⁻²⁰ raises."""
    from privlab.errors import InvalidParameter
    from privlab.mechanisms.noise.safe import check_safe_dp

    lo = _safe_claim().params[0].lo
    assert check_safe_dp(Laplace(epsilon=lo)).holds
    with pytest.raises(InvalidParameter, match="2\\^-20"):
        check_safe_dp(Laplace(epsilon=lo / 2))
