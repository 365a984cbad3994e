"""Random-number plumbing: every sampler takes ``rng`` and normalises it exactly once here."""

from __future__ import annotations

import numpy as np

RngLike = int | np.random.Generator | np.random.SeedSequence | np.random.BitGenerator | None


def as_generator(rng: RngLike) -> np.random.Generator:
    """``np.random.default_rng(rng)``; a Generator is passed through unchanged (same stream)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)
