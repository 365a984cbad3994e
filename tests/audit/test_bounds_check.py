"""``bounds._check`` validates with a few min/max reductions; it accepts and refuses exactly
the inputs the elementwise tests it replaced (kept here as the oracle) accept and refuse."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from privlab.audit import bounds
from privlab.errors import InvalidParameter


def _verdict_reference(k: Any, n: Any) -> str | None:
    """The former checks: which parameter is refused (None: accepted)."""
    kk, nn = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    if np.any(~np.isfinite(nn)) or np.any(nn < 1):
        return "n"
    if np.any(np.isnan(kk)) or np.any(kk < 0) or np.any(kk > nn):
        return "k"
    return None


def _verdict(k: Any, n: Any) -> str | None:
    try:
        bounds._check(k, n, 0.05)
    except InvalidParameter as e:
        return "n" if str(e).startswith("n=") else "k"
    return None


VALUES = [0.0, 0.5, 1.0, 3.0, 10.0, -1.0, -0.0, np.nan, np.inf, -np.inf, 1e300]


def test_scalars_match_the_elementwise_checks() -> None:
    """Catches a NaN slipping through (a reduction that ignores NaN, e.g. ``np.nanmin``), an
    infinite n accepted (max test dropped), k = n refused (strict ``> 0``) and k > n accepted."""
    for k, n in itertools.product(VALUES, VALUES):
        assert _verdict(k, n) == _verdict_reference(k, n), (k, n)
    for k, n in ((3.0, np.array([])), (np.array([]), 3.0), (np.array([]), np.array([]))):
        assert _verdict(k, n) == _verdict_reference(k, n) is None


@pytest.mark.parametrize("seed", range(20))
def test_arrays_match_the_elementwise_checks(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(50):
        size = int(rng.integers(0, 6))
        k = rng.choice(VALUES, size)
        n = rng.choice(VALUES, size) if rng.random() < 0.5 else rng.choice(VALUES)
        assert _verdict(k, n) == _verdict_reference(k, n), (k, n)
        good_n = rng.integers(1, 50, size).astype(float)
        good_k = np.floor(rng.random(size) * (good_n + 1))
        if size and rng.random() < 0.5:
            good_k[rng.integers(0, size)] = rng.choice(VALUES)
        assert _verdict(good_k, good_n) == _verdict_reference(good_k, good_n), (good_k, good_n)
