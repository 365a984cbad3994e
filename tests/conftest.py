"""Test-session settings shared by every test module.

mpmath's global precision is the default (53 bits) before and after every test: a test that
changes it must use ``mpmath.workdps``/``workprec`` (a module-level ``mp.dps = 50`` once made an
unrelated later test in the same worker fail, depending on the order).

Hypothesis draws its examples from a fixed seed (``derandomize``) and keeps no example database:
a property test sees the same examples in every run, in any test order and on any machine, so
its outcome never depends on luck or on an earlier run's ``.hypothesis`` folder.
"""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import settings

settings.register_profile("privlab-tests", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.load_profile("privlab-tests")


DEFAULT_MPMATH_PREC = 53


@pytest.fixture(autouse=True)
def _mpmath_precision_untouched():
    if mpmath.mp.prec != DEFAULT_MPMATH_PREC:  # set at import time, or leaked by an earlier test
        leaked = mpmath.mp.prec
        mpmath.mp.prec = DEFAULT_MPMATH_PREC
        pytest.fail(f"mpmath.mp.prec = {leaked} before this test (default "
                    f"{DEFAULT_MPMATH_PREC}): a module or an earlier test changed it globally")
    yield
    if mpmath.mp.prec != DEFAULT_MPMATH_PREC:
        leaked = mpmath.mp.prec
        mpmath.mp.prec = DEFAULT_MPMATH_PREC
        pytest.fail(f"this test left mpmath.mp.prec = {leaked} (default "
                    f"{DEFAULT_MPMATH_PREC}); use mpmath.workdps / workprec")
