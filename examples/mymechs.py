"""Mechanisms of an imaginary team, audited by ``examples/suite.toml``.

Each factory takes one input (a query value, or a data set read from a CSV file) and returns a
sampler ``(n, rng) -> array`` of n outputs of the mechanism on that input.
"""

import numpy as np

from privlab.mechanisms.releases.numerical import DPRelease


def good_laplace(x):
    """x + Laplace(1): 1-DP for sensitivity 1. The factory that README and
    ``docs/auditing-your-mechanism.md`` show (``privlab audit --sampler
    examples/mymechs.py:good_laplace --pair 0 1 --claimed-epsilon 1`` exits 0)."""
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)      # 1-DP for sensitivity 1


def numpy_laplace(x):
    """x + Laplace(1/ε), ε = 1, sensitivity 1: the law is 1-DP."""
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)


def naive_float_laplace(x):
    """The same textbook code at ε = 0.1, audited as an *implementation* (float_bits): x + Y in
    doubles reaches different sets of doubles for different x (Mironov 2012), so the true loss
    is infinite whatever its law says."""
    return lambda n, rng: x + rng.laplace(0.0, 10.0, n)


class NoisyCount:
    """Object style (``release(values, *, rng)``): the number of values > 0.5, plus
    Laplace(1/ε) noise; sensitivity 1 under substitution of one value."""

    def __init__(self, epsilon=1.0):
        self.epsilon = epsilon

    def release(self, values, *, rng):
        values = np.asarray(values, dtype=float)
        return float((values > 0.5).sum()) + rng.laplace(0.0, 1.0 / self.epsilon)


noisy_count = NoisyCount(epsilon=1.0)


def lab_release_shuffled(data):
    """privlab's insensitive-MDAV DP release (thesis §6.3, k = 2, ε = 1 as certified by the lab's
    own scale: ``noise_scale`` = the value ``privlab certify dp-release`` certifies), rows
    shuffled; the audit looks at the sorted released values."""
    rel = DPRelease(microaggregation="insensitive-mdav", k=2, epsilon=1.0, noise_scale="vldb14",
                    noise="shared", rows="shuffled")
    bounds = [(0.0, 1.0)]

    def sample(n, rng):
        out = rel.sample(np.asarray(data, dtype=float).reshape(-1, 1), bounds, n, rng=rng)
        return np.sort(out.reshape(n, -1), axis=1)

    return sample
