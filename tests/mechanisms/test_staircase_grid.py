"""The vectorised grid scan of Staircase.optimal gives the scalar objective's floats."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.mechanisms.noise.controls import HalfWidthStaircase, WrongRatioStaircase
from privlab.mechanisms.noise.staircase import (
    Staircase,
    _grid_values,
    _plain_objectives,
)


@pytest.mark.parametrize("cls", [Staircase, WrongRatioStaircase, HalfWidthStaircase])
@pytest.mark.parametrize("objective", ["variance", "ci95", "abs"])
def test_grid_values_bit_identical(cls: type[Staircase], objective: str) -> None:
    assert _plain_objectives(cls)
    for eps in (*np.geomspace(1e-3, 40.0, 23), 1e-30, 0.05, 1.0, 400.0):
        for delta in (1.0, 2.5, 0.3):
            grid = np.linspace(0.0, delta, 401)
            if cls is HalfWidthStaircase:
                grid = grid[grid <= delta * cls.width_factor]
            proto = cls(epsilon=float(eps), sensitivity=delta, d=0.0)
            fast = _grid_values(proto, grid, objective)
            slow = np.array([cls(epsilon=float(eps), sensitivity=delta, d=float(g))
                             .objective_value(objective) for g in grid])
            np.testing.assert_array_equal(fast, slow)
            assert fast.tobytes() == slow.tobytes()
