"""The controls' samplers after the in-place rewrite (svt ``_run``, noisy-max, noisy histogram)
give the same bytes as the loops they replaced (kept here as oracles) for the same seed, and
leave the generator in the same state (the same draws in the same order)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from privlab.audit.controls import basic, noisy_max, svt


def _svt_reference(q: Any, n: int, g: np.random.Generator, *, c: int, rho: float, nu: float,
                   redraw: float | None = None, numeric: bool = False,
                   cutoff: bool = True) -> Any:
    """The previous svt._run (np.where temporaries)."""
    q = np.asarray(q, dtype=float)
    thr = g.laplace(0.0, rho, n)
    count = np.zeros(n, dtype=np.int64)
    out = np.empty((n, q.size))
    bot, none = (svt.BOT, svt.NONE) if numeric else (0.0, -1.0)
    for i in range(q.size):
        active = count < c if cutoff else np.ones(n, dtype=bool)
        val = q[i] + (g.laplace(0.0, nu, n) if nu > 0 else 0.0)
        top = val >= svt.T + thr
        out[:, i] = np.where(active, np.where(top, val if numeric else 1.0, bot), none)
        hit = active & top
        count += hit
        if redraw is not None and hit.any():
            thr = np.where(hit, g.laplace(0.0, redraw, n), thr)
    return out


def _noisy_max_reference(q: Any, n: int, g: np.random.Generator, noise: str, scale: float,
                         value: bool) -> Any:
    q = np.asarray(q, float)
    z = g.laplace(0.0, scale, (n, q.size)) if noise == "laplace" else \
        g.exponential(scale, (n, q.size))
    y = q[None, :] + z
    return y.max(axis=1) if value else y.argmax(axis=1)


def _same(a: Any, b: Any) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.flags.c_contiguous == \
        b.flags.c_contiguous and a.tobytes() == b.tobytes()


SVT_KW = [{"rho": 2.0, "nu": 4.0}, {"rho": 4.0, "nu": 8.0, "redraw": 4.0},
          {"rho": 2.0, "nu": 2.0, "numeric": True}, {"rho": 8.0, "nu": 1.5},
          {"rho": 2.0, "nu": 0.0, "cutoff": False}, {"rho": 2.0, "nu": 2.0, "cutoff": False},
          {"rho": 0.3, "nu": 0.2, "redraw": 0.3, "numeric": True}]


@pytest.mark.parametrize("kw", SVT_KW)
@pytest.mark.parametrize("c", [1, 2, 3])
def test_svt_run_equals_reference(kw: dict[str, Any], c: int) -> None:
    """Catches: ⊤ tested against ρ instead of T + ρ, the redraw not conditioned on a ⊤ (or
    drawn when nobody answered ⊤), the cutoff counted from the unmasked ⊤ (c > 1), and "not
    answered" written before the row instead of over it; for the (m, n) buffer and counter-free
    c = 1 path: the done mask never set (``done |= top`` dropped), ⊤/⊥ swapped in a row and
    rows not transposed back."""
    for seed in (0, 1, 5):
        for q in ([0.0] * 5 + [1.0] * 5, [1.0] * 10, [0.4, 0.6, 0.5]):
            for n in (1, 7, 3000):
                g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
                got = svt._run(q, n, g1, c=c, **kw)
                want = _svt_reference(q, n, g2, c=c, **kw)
                assert _same(got, want)
                assert g1.bit_generator.state == g2.bit_generator.state


@pytest.mark.parametrize("noise", ["laplace", "exponential"])
@pytest.mark.parametrize("value", [False, True])
def test_noisy_max_equals_reference(noise: str, value: bool) -> None:
    """Catches a row max over the wrong axis or missing a column, and argmax of the noise only."""
    for seed in (0, 3):
        for q in ([1.0] * 5, [2.0, 0.0, 0.0, 0.0, 0.0], [0.0] * 5):
            scale = 2.0 if seed else 0.5
            ctl = noisy_max._make("x", 1.0, noise, lambda e, s=scale: s, value, lambda e: e,
                                  "exact")
            g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
            got = ctl.sample_on(q, 4000, g1)
            want = _noisy_max_reference(q, 4000, g2, noise, scale, value)
            assert _same(got, want)


def test_row_max_equals_numpy_max() -> None:
    rng = np.random.default_rng(0)
    for m in (1, 2, 5, 9):
        y = rng.normal(size=(500, m))
        y[::7, -1] = y[::7, 0]  # ties
        assert _same(noisy_max._row_max(y), y.max(axis=1))


def test_noisy_histogram_equals_reference() -> None:
    """Catches noise added to the wrong cells (c broadcast over rows instead of columns)."""
    for ctl in (basic.histogram(), basic.histogram_wrong_scale(), basic.histogram_substitute()):
        scale = 1 / ctl.epsilon if ctl.name != "histogram-wrong-scale" else ctl.epsilon
        for x in ctl.pairs[0]:
            g1, g2 = np.random.default_rng(11), np.random.default_rng(11)
            c = np.asarray(x, float)
            want = c[None, :] + g2.laplace(0.0, scale, (3000, c.size))
            assert _same(ctl.sample_on(x, 3000, g1), want)
