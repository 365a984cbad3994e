"""Bad input is rejected with InvalidParameter naming the parameter and the value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase


@pytest.mark.parametrize("cls", [Laplace, Staircase])
@pytest.mark.parametrize(
    "kwargs,needle",
    [
        ({"epsilon": -1.0}, "epsilon=-1.0 must be > 0"),
        ({"epsilon": 0.0}, "epsilon=0.0 must be > 0"),
        ({"epsilon": math.nan}, "epsilon=nan must not be NaN"),
        ({"epsilon": math.inf}, "epsilon=inf must be finite"),
        ({"epsilon": "one"}, "epsilon='one' must be a real number"),
        ({"sensitivity": 0.0}, "sensitivity=0.0 must be > 0"),
        ({"sensitivity": -2.0}, "sensitivity=-2.0 must be > 0"),
        ({"sensitivity": math.inf}, "sensitivity=inf must be finite"),
    ],
)
def test_bad_parameters(cls, kwargs, needle):
    base = {"epsilon": 1.0, "sensitivity": 1.0}
    if cls is Staircase:
        base["d"] = 0.5
    base.update(kwargs)
    with pytest.raises(InvalidParameter, match=needle.replace("(", r"\(").replace(")", r"\)")):
        cls(**base)


@pytest.mark.parametrize("d", [-0.1, 1.5, math.nan, math.inf])
def test_staircase_d_outside_range(d):
    with pytest.raises(InvalidParameter, match="d="):
        Staircase(epsilon=1.0, sensitivity=1.0, d=d)


def test_d_message_names_the_bound():
    with pytest.raises(InvalidParameter, match=r"d=1\.5 must lie in \[0, sensitivity=1\.0\]"):
        Staircase(epsilon=1.0, sensitivity=1.0, d=1.5)


@pytest.mark.parametrize("cls", [Laplace, Staircase])
def test_unknown_objective(cls):
    with pytest.raises(InvalidParameter, match="objective='median' must be one of"):
        cls.optimal(1.0, 1.0, "median")


@pytest.mark.parametrize("level", [0.0, 1.0, -0.5, 2.0, math.nan])
def test_bad_ci_level(level):
    with pytest.raises(InvalidParameter, match="level="):
        Staircase.optimal(1.0).ci_halfwidth(level)


def test_bad_release_inputs():
    s = Staircase.optimal(1.0)
    with pytest.raises(InvalidParameter, match="mode='exactish' must be one of"):
        s.release([1.0], mode="exactish")
    with pytest.raises(InvalidParameter, match=r"value=nan \(at flat index 0\) must be finite"):
        s.release([np.nan])
    with pytest.raises(InvalidParameter, match="shape="):
        s.sample((-1,))
    with pytest.raises(InvalidParameter, match="q must lie"):
        s.icdf([1.5])


def test_from_m0_range():
    with pytest.raises(InvalidParameter, match="m0="):
        Staircase.from_m0(1.0, 1.0, 10.0)
    s = Staircase.from_m0(1.0, 1.0, Staircase(epsilon=1.0, d=0.3).m0)
    assert s.d == pytest.approx(0.3, rel=1e-12)


def test_extreme_uniform_gives_finite_noise() -> None:
    """u = 0 (probability 2^-53 per draw) once gave NaN for the staircase: |2u − 1| = 1 hit
    the quantile at probability 1.  Both laws must give a finite, negative value there."""
    import numpy as np

    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.mechanisms.noise.staircase import Staircase

    for law in (Staircase(epsilon=1.0, d=0.3), Laplace(epsilon=1.0)):
        y = law._sample_from_uniform(np.array([0.0]))
        assert np.isfinite(y).all() and y[0] < 0, (law, y)


def test_release_names_the_non_finite_value() -> None:
    import numpy as np
    import pytest

    from privlab.errors import InvalidParameter
    from privlab.mechanisms.noise.staircase import Staircase

    with pytest.raises(InvalidParameter, match=r"value=inf \(at flat index 2\) must be finite"):
        Staircase(epsilon=1.0, d=0.3).release([0.0, 1.0, np.inf])
