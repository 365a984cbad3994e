"""Figures of thesis §4.5 (matplotlib, Agg backend), each written atomically to ``path``.

* :func:`fig_4_4` / :func:`fig_4_5` — S_f against the region Laplace protects, {‖x‖₁ ≤ Δf};
* :func:`fig_4_6` — the 2-D densities of Example 5 (Laplace(11)² and the box staircase);
* :func:`fig_4_7` — their marginals, component by component.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from privlab._io import save_figure
from privlab.mechanisms.noise.box_staircase import BoxStaircase
from privlab.mechanisms.noise.multi_laplace import IndependentLaplace

S, Z, EPS = (1.0, 10.0), (0.1, 1.0), 1.0


def _save(fig: Any, path: str | os.PathLike[str]) -> Path:
    return save_figure(fig, path, dpi=120)


def _overprotection(s: tuple[float, float], path: str | os.PathLike[str], title: str) -> Path:
    delta = s[0] + s[1]
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    fig.subplots_adjust(left=0.12, right=0.977, bottom=0.075, top=0.93)
    ax.fill([-delta, 0, delta, 0], [0, delta, 0, -delta], color="#9ecae1",
            label=f"Laplace: density ≥ e^(−ε)f(0), ‖x‖₁ ≤ {delta:g}")
    ax.fill([-s[0], s[0], s[0], -s[0]], [-s[1], -s[1], s[1], s[1]], color="0.45",
            label="S_f (Definition 9)")
    ax.set_aspect("equal")
    ax.set_xlim(-1.1 * delta, 1.1 * delta)
    ax.set_ylim(-1.1 * delta, 1.1 * delta)
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(0, color="k", lw=0.5)
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=7)
    return _save(fig, path)


def fig_4_4(path: str | os.PathLike[str]) -> Path:
    return _overprotection((1.0, 1.0), path, "Fig. 4.4: S_f = [−1,1]², Laplace over-protects")


def fig_4_5(path: str | os.PathLike[str]) -> Path:
    return _overprotection(S, path, "Fig. 4.5: S_f = [−1,1]×[−10,10]")


def fig_4_6(path: str | os.PathLike[str]) -> Path:
    """Log-density maps of Laplace(11)² and of Example 5's box staircase (same colour scale)."""
    mech = BoxStaircase(epsilon=EPS, sensitivity=S, core=Z)
    lap = IndependentLaplace.for_box(EPS, S)
    x1 = np.linspace(-8.0, 8.0, 321)
    x2 = np.linspace(-80.0, 80.0, 321)
    g = np.stack(np.meshgrid(x1, x2, indexing="xy"), axis=-1)
    dens = {"Laplace, scale 11 per component": lap.logpdf(g) / np.log(10),
            "box staircase, S_0 = [−0.1,0.1]×[−1,1]": mech.logpdf(g) / np.log(10)}
    vmax = max(float(d.max()) for d in dens.values())
    vmin = vmax - 6.0
    fig, axes = plt.subplots(1, 2, figsize=(8.06, 4.55), sharey=True)
    fig.subplots_adjust(left=0.086, right=0.855, bottom=0.117, top=0.878, wspace=0.2)
    im = None
    for ax, (name, d) in zip(axes, dens.items(), strict=True):
        im = ax.pcolormesh(x1, x2, np.clip(d, vmin, vmax), vmin=vmin, vmax=vmax,
                           cmap="viridis", shading="auto")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("y₁")
    axes[0].set_ylabel("y₂")
    assert im is not None
    fig.colorbar(im, cax=fig.add_axes((0.9031, 0.1166, 0.0215, 0.7615)), label="log₁₀ density")
    fig.suptitle("Fig. 4.6: 1-DP noise for S_f = [−1,1]×[−10,10]", y=0.977)
    return _save(fig, path)


def fig_4_7(path: str | os.PathLike[str]) -> Path:
    """Marginal densities of both noises (top: Y₁, bottom: Y₂), exact formulas."""
    mech = BoxStaircase(epsilon=EPS, sensitivity=S, core=Z)
    lap = IndependentLaplace.for_box(EPS, S)
    fig, axes = plt.subplots(2, 1, figsize=(6.9, 6.91))
    fig.subplots_adjust(left=0.074, right=0.986, bottom=0.077, top=0.91, hspace=0.311)
    for j, ax in enumerate(axes):
        x = np.linspace(-10.0 * S[j], 10.0 * S[j], 2001)
        ax.plot(x, mech.marginal_pdf(x, j), label="box staircase", lw=1.2)
        ax.plot(x, lap.marginal_pdf(x, j), label="Laplace (scale 11)", lw=1.2)
        ax.set_title(f"component {j + 1}: Var {mech.marginal_variance(j):.4g} (staircase) vs "
                     f"{lap.marginal_variance(j):.4g} (Laplace)", fontsize=9)
        ax.set_xlabel(f"y{j + 1}")
        ax.legend(fontsize=8)
    fig.suptitle("Fig. 4.7: marginals of 1-DP noise, S_f = [−1,1]×[−10,10]", y=0.986)
    return _save(fig, path)


FIGURES: dict[str, Callable[[str | os.PathLike[str]], Path]] = {
    "fig_4_4.png": fig_4_4, "fig_4_5.png": fig_4_5, "fig_4_6.png": fig_4_6,
    "fig_4_7.png": fig_4_7,
}
