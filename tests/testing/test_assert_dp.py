"""privlab.testing.assert_dp and the pytest plugin, in a user's test project (issue 18)."""

from __future__ import annotations

import pytest

from privlab.testing import DPAssertionError, assert_dp

pytest_plugins = ["pytester"]


def test_assert_dp_passes_and_fails_with_counterexample() -> None:
    res = assert_dp(lambda n, g: g.laplace(0.0, 1.0, n), lambda n, g: 1 + g.laplace(0.0, 1.0, n),
                    epsilon=1.0, samples=50_000, rng=0)
    assert res.verdict == "consistent"
    with pytest.raises(DPAssertionError) as e:
        assert_dp(lambda n, g: g.laplace(0.0, 0.5, n), lambda n, g: 1 + g.laplace(0.0, 0.5, n),
                  epsilon=1.0, samples=50_000, rng=0)
    assert e.value.result.epsilon_lower_bound > 1.0
    assert e.value.counterexample["neighbours"] is not None or e.value.counterexample
    assert "counterexample:" in str(e.value)


PROJECT = '''
import numpy as np
import pytest
from privlab.testing import assert_dp

def lap(x, scale):
    return lambda n, rng: x + rng.laplace(0.0, scale, n)

@pytest.mark.dp_audit
def test_correct(dp_audit):
    dp_audit.assert_dp(lap(0, 1.0), lap(1, 1.0), epsilon=1.0, samples=50000, rng=1)

@pytest.mark.dp_audit
def test_broken(dp_audit):
    dp_audit.assert_dp(lap(0, 0.5), lap(1, 0.5), epsilon=1.0, samples=50000, rng=1)
'''


def test_plugin_in_a_user_project(pytester: pytest.Pytester,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # load the plugin explicitly, as a project without the installed entry point would
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_mech=PROJECT)
    r = pytester.runpytest_inprocess("-p", "privlab.pytest_plugin", "-p", "no:xdist",
                                     "-p", "no:cacheprovider", "--privlab-alpha", "0.02")
    r.assert_outcomes(passed=1, failed=1)
    out = r.stdout.str()
    assert "DPAssertionError" in out and "counterexample:" in out
    assert "false-alarm budget alpha=0.02 over 2 marked test(s)" in out
    # each marked test's first assertion gets (alpha/m)/2 = 0.005 -> spent 0.01
    assert "spent 0.01" in out


def test_failure_shows_the_callers_line_not_privlabs_source(pytester: pytest.Pytester,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """``__tracebackhide__`` in assert_dp and DPAudit.assert_dp: pytest's traceback stops at the
    user's call (the mutant without it prints privlab's ``raise DPAssertionError(`` line)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_mech=PROJECT)
    r = pytester.runpytest_inprocess("-p", "privlab.pytest_plugin", "-p", "no:xdist",
                                     "-p", "no:cacheprovider")
    r.assert_outcomes(passed=1, failed=1)
    out = r.stdout.str()
    assert "dp_audit.assert_dp(lap(0, 0.5)" in out
    assert "raise DPAssertionError(" not in out
    assert "privlab/testing.py" not in out


def test_budget_line_under_xdist(pytester: pytest.Pytester) -> None:
    """Under ``-n 2`` the workers' counts reach the controller: one line for the whole session
    (before, the line vanished: the controller itself had made no assertion)."""
    pytester.makepyfile(test_mech=PROJECT)
    r = pytester.runpytest_subprocess("-n", "2",  # the plugin comes from the entry point
                                      "-p", "no:cacheprovider", "-p", "no:randomly")
    r.assert_outcomes(passed=1, failed=1)
    out = r.stdout.str()
    assert "privlab: 2 DP assertion(s), 1 confirmed violation(s)" in out
    assert "over 2 marked test(s), spent 0.005" in out  # (0.01/2)/2 per test
