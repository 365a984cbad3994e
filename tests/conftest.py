"""Test-session settings shared by every test module.

Hypothesis draws its examples from a fixed seed (``derandomize``) and keeps no example database:
a property test sees the same examples in every run, in any test order and on any machine, so
its outcome never depends on luck or on an earlier run's ``.hypothesis`` folder.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("privlab-tests", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.load_profile("privlab-tests")
