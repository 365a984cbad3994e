"""pytest plugin of privlab (entry point ``pytest11``): one false-alarm budget for the DP
assertions of a test session.

* ``--privlab-alpha A`` (or ini ``privlab_alpha``; default 0.01): the family-wise false-alarm
  budget of the session's DP assertions.
* ``@pytest.mark.dp_audit``: marks a test that asserts DP; the m marked tests share the budget
  equally.  The ``dp_audit`` fixture hands the test its share: ``dp_audit.assert_dp(a, b,
  epsilon=…)`` (see :mod:`privlab.testing`; the j-th assertion of a test gets (α/m)·2^−j).
* The terminal summary reports the budget, the number of assertions and the sum of the levels
  they spent (calls of :func:`privlab.testing.assert_dp` outside the fixture count too, at their
  own confidence).

Under pytest-xdist every worker collects the whole session, so m — and each test's share — is
the same on every worker.  Each worker hands its counts to the controller when it finishes
(``workeroutput``), and the controller prints one summary line for the whole session.
"""

from __future__ import annotations

from typing import Any

import pytest

from privlab import testing


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("privlab")
    group.addoption("--privlab-alpha", type=float, default=None,
                    help="family-wise false-alarm budget of the session's DP assertions "
                         "(default 0.01)")
    parser.addini("privlab_alpha", "family-wise false-alarm budget of DP assertions",
                  default="0.01")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "dp_audit: the test asserts differential privacy "
                                       "(shares privlab's session false-alarm budget)")
    alpha = config.getoption("--privlab-alpha")
    if alpha is None:
        alpha = float(config.getini("privlab_alpha"))
    if not 0.0 < alpha < 1.0:
        raise pytest.UsageError(f"--privlab-alpha={alpha!r} must lie in (0, 1)")
    testing._SESSION.append(testing.Budget(alpha=alpha))


def pytest_unconfigure(config: Any) -> None:
    if testing._SESSION:
        testing._SESSION.pop()


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    budget = testing.session_budget()
    if budget is None:
        return
    for item in items:
        if item.get_closest_marker("dp_audit") is None and "dp_audit" in getattr(
                item, "fixturenames", ()):
            item.add_marker("dp_audit")
    budget.marked_tests = sum(1 for it in items if it.get_closest_marker("dp_audit"))


@pytest.fixture
def dp_audit() -> testing.DPAudit:
    """This test's share of the session's false-alarm budget (``.assert_dp(a, b, …)``)."""
    budget = testing.session_budget()
    share = budget.share() if budget is not None else 1.0 - testing.DEFAULT_CONFIDENCE
    return testing.DPAudit(share=share)


WORKER_KEY = "privlab_dp_budget"
"""Key of a pytest-xdist worker's counts in its ``workeroutput``."""


def pytest_sessionfinish(session: Any) -> None:
    budget = testing.session_budget()
    workeroutput = getattr(session.config, "workeroutput", None)  # set on xdist workers only
    if budget is not None and workeroutput is not None:
        workeroutput[WORKER_KEY] = {"assertions": budget.assertions,
                                    "failures": budget.failures, "spent": budget.spent,
                                    "marked_tests": budget.marked_tests}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: add a finished worker's counts to the session's budget."""
    budget = testing.session_budget()
    counts = (getattr(node, "workeroutput", None) or {}).get(WORKER_KEY)
    if budget is None or not counts:
        return
    budget.assertions += int(counts["assertions"])
    budget.failures += int(counts["failures"])
    budget.spent += float(counts["spent"])
    budget.marked_tests = max(budget.marked_tests, int(counts["marked_tests"]))  # the same on all


def pytest_terminal_summary(terminalreporter: Any) -> None:
    budget = testing.session_budget()
    if budget is None or budget.assertions == 0:
        return
    terminalreporter.write_line(
        f"privlab: {budget.assertions} DP assertion(s), {budget.failures} confirmed "
        f"violation(s); false-alarm budget alpha={budget.alpha:g} over "
        f"{budget.marked_tests} marked test(s), spent {budget.spent:.3g}")
