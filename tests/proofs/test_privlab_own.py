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
