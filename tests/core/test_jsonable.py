"""Evidence text does not depend on the ambient mpmath precision (a test module that set
``mpmath.mp.dps = 40`` globally made the report of a later test in the same process differ)."""

from __future__ import annotations

import mpmath

from privlab.types import jsonable


def test_mpf_text_is_independent_of_the_ambient_precision() -> None:
    with mpmath.workdps(30):
        v = 2 / mpmath.mpf(0.1) ** 2
    texts = set()
    for dps in (15, 40, 8):
        with mpmath.workdps(dps):
            texts.add(jsonable({"x": v})["x"])
    assert len(texts) == 1
    # a double-precision value keeps its usual 15 digits; an exact integer stays short
    assert jsonable(mpmath.mpf(1) / 3) == "0.333333333333333"
    assert jsonable(mpmath.mpf(200)) == "200.0"


def test_mutant_precision_dependent_text_would_differ() -> None:
    """Able to fail: str() of the same value at two precisions differs (what jsonable used)."""
    with mpmath.workdps(30):
        v = 2 / mpmath.mpf(0.1) ** 2
    with mpmath.workdps(15):
        short = str(v)
    with mpmath.workdps(40):
        long = str(v)
    assert short != long
