"""Assert differential privacy in a project's own test suite.

    from privlab.testing import assert_dp

    def test_my_mechanism_is_dp():
        assert_dp(lambda n, rng: 0 + my_noise(n, rng), lambda n, rng: 1 + my_noise(n, rng),
                  epsilon=1.0, samples=100_000, rng=0)

:func:`assert_dp` audits the two samplers (the mechanism on two neighbouring inputs) with the
black-box auditor (:func:`privlab.audit.audit_pair`, docs/auditor.md) and raises
:class:`DPAssertionError` (an ``AssertionError``) carrying the ε lower bound and the replayable
counterexample JSON when the claim (ε, δ) is violated.

False alarms.  A correct mechanism makes one call fail with probability at most its level
α_call = 1 − confidence: the call fails only when (1) the audit's bound at that confidence
exceeds ε *and* (2) a replay of the selected event on fresh samples, at the same confidence,
exceeds it too; (2) alone is a level-α_call test of a fixed event.  Without the pytest plugin
the default confidence is 0.999 (α_call = 10⁻³ per call).  With the plugin
(:mod:`privlab.pytest_plugin`, registered by entry point) a whole test session spends one
budget α (``--privlab-alpha``, default 0.01): the tests marked ``@pytest.mark.dp_audit`` (or
using the ``dp_audit`` fixture) share it equally, α/m each for m such tests, and the j-th
assertion inside a test gets (α/m)·2^−j, so that the sum over the session is at most α; the
plugin prints how much of the budget the session spent.  Calls outside marked tests use their
own ``confidence`` (0.999 by default) and are added to the spent total.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from privlab._rng import as_generator
from privlab.audit.auditor import AuditResult, audit_pair
from privlab.audit.replay import replay
from privlab.errors import InvalidParameter
from privlab.types import jsonable

__all__ = ["DEFAULT_CONFIDENCE", "Budget", "DPAssertionError", "assert_dp", "session_budget"]

DEFAULT_CONFIDENCE = 0.999


class DPAssertionError(AssertionError):
    """A confirmed violation of the claimed (ε, δ); ``.result`` is the :class:`AuditResult`,
    ``.counterexample`` its JSON-ready counterexample."""

    def __init__(self, message: str, result: AuditResult, confirmation: AuditResult) -> None:
        super().__init__(message)
        self.result = result
        self.confirmation = confirmation
        self.counterexample = result.to_dict().get("counterexample")


@attrs.define
class Budget:
    """The false-alarm budget of a test session (kept by the pytest plugin)."""

    alpha: float = 0.01
    marked_tests: int = 0
    spent: float = 0.0
    assertions: int = 0
    failures: int = 0

    def share(self) -> float:
        """α/m: one marked test's share."""
        return self.alpha / max(self.marked_tests, 1)


_SESSION: list[Budget] = []


def session_budget() -> Budget | None:
    """The running session's budget (None outside a pytest session with the plugin)."""
    return _SESSION[-1] if _SESSION else None


def assert_dp(sample_a: Callable[[int, Any], Any], sample_b: Callable[[int, Any], Any], *,
              epsilon: float, delta: float = 0.0, samples: int = 100_000,
              confidence: float | None = None, rng: Any = None, float_bits: bool = False,
              name: str = "assert_dp", **audit_options: Any) -> AuditResult:
    """Raise :class:`DPAssertionError` unless the audit is consistent with (ε, δ)-DP.

    ``sample_a(n, rng)`` / ``sample_b(n, rng)``: n outputs of the mechanism on two
    neighbouring inputs.  ``confidence``: 1 − the false-alarm probability of this call
    (default 0.999, see the module docstring).  ``rng``: int, SeedSequence or Generator — the
    audit and the confirmation draw from two independent child streams.  Other keywords go to
    :func:`~privlab.audit.audit_pair` (``workers``, ``features``, ``objective``…).  Returns the
    :class:`~privlab.audit.AuditResult` when consistent."""
    __tracebackhide__ = True  # pytest shows the caller's line and the message, not privlab's code
    if confidence is None:
        confidence = DEFAULT_CONFIDENCE
    if not isinstance(confidence, float | int) or not 0.0 < confidence < 1.0:
        raise InvalidParameter(f"confidence={confidence!r} must lie in (0, 1)")
    g_audit, g_confirm = as_generator(rng).spawn(2)
    res = audit_pair(sample_a, sample_b, samples=samples, confidence=float(confidence),
                     delta=delta, claimed_epsilon=epsilon, rng=g_audit, float_bits=float_bits,
                     name=name, **audit_options)
    budget = session_budget()
    if budget is not None:
        budget.spent += 1.0 - float(confidence)
        budget.assertions += 1
    if res.verdict != "violation":
        return res
    features = audit_options.get("features")
    again = replay(res.to_dict(), samples=samples, rng=g_confirm, sample_a=sample_a,
                   sample_b=sample_b, features=features, confidence=float(confidence))
    if again.verdict != "violation":
        return res
    if budget is not None:
        budget.failures += 1
    cex = jsonable(res.to_dict().get("counterexample"))
    import json

    raise DPAssertionError(
        f"{name}: ({epsilon:g}, {delta:g})-DP violated: epsilon lower bound "
        f"{res.epsilon_lower_bound:.6g} (confirmed on fresh samples: "
        f"{again.epsilon_lower_bound:.6g}), each at confidence {confidence:g}\n"
        f"counterexample: {json.dumps(cex, sort_keys=True)}", res, again)


@attrs.define
class DPAudit:
    """The ``dp_audit`` fixture: ``dp_audit.assert_dp(...)`` with this test's share of the
    session budget, (α/m)·2^−j for its j-th assertion (j = 1, 2, …)."""

    share: float
    calls: int = 0

    def assert_dp(self, sample_a: Callable[[int, Any], Any],
                  sample_b: Callable[[int, Any], Any], **kw: Any) -> AuditResult:
        __tracebackhide__ = True
        if "confidence" in kw:
            raise InvalidParameter("confidence is set by the session budget inside dp_audit; "
                                   "use privlab.testing.assert_dp to choose it yourself")
        self.calls += 1
        level = self.share * 2.0 ** (-self.calls)
        return assert_dp(sample_a, sample_b, confidence=1.0 - level, **kw)

