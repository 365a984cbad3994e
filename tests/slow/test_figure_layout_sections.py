"""Slow: the layout of every figure the real report sections draw (``--quick``, real data when
``../shared/data`` is there), measured as in ``tests/report/test_figure_layout.py``: the tight box
of all artists lies inside the canvas and leaves at most 8 % of it empty on each side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from privlab.report import figures_multivariate
from privlab.report.section import Context
from privlab.report.sections import (
    dp_release,
    microaggregation,
    refinement,
    tcloseness,
    univariate,
)
from privlab.report.workload import build_sections

pytestmark = pytest.mark.slow

MAX_BORDER = 0.08
MODULES = (univariate, refinement, microaggregation, dp_release, tcloseness, figures_multivariate)
SECTIONS = ("univariate", "multivariate", "refinement", "microaggregation", "dp_release",
            "tcloseness")
REPORT_FIGURES = {
    "univariate_densities.png", "univariate_variance_vs_d.png", "univariate_ci_vs_d.png",
    "univariate_ratio_vs_eps.png", "univariate_audits.png", "fig_4_4.png", "fig_4_5.png",
    "fig_4_6.png", "fig_4_7.png", "refinement_vs_laplace.png", "refinement_examples.png",
    "microaggregation.png", "dp_release_sse_rl.png", "tcloseness.png"}


def _margins(fig: Any, dpi: int) -> dict[str, float]:
    """Empty border on each side as a fraction of the canvas (negative: clipped)."""
    fig.set_dpi(dpi)
    fig.canvas.draw()
    bb = fig.get_tightbbox(fig.canvas.get_renderer())
    w, h = fig.get_size_inches()
    return {"left": bb.x0 / w, "right": (w - bb.x1) / w,
            "bottom": bb.y0 / h, "top": (h - bb.y1) / h}


def test_every_report_figure_fits_its_canvas(monkeypatch, tmp_path):
    seen: dict[str, dict[str, float]] = {}

    def record(fig: Any, path: Any, *, dpi: int = 110) -> Path:
        seen[Path(path).name] = _margins(fig, dpi)
        plt.close(fig)
        return Path(path)

    for mod in MODULES:
        monkeypatch.setattr(mod, "save_figure", record)
    data = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
    ctx = Context(quick=True, data_dir=data if data.is_dir() else None, figures_dir=tmp_path)
    sections = build_sections(ctx, tuple(f"privlab.report.sections.{s}" for s in SECTIONS))
    assert all(s.ok for s in sections), [s.title for s in sections if not s.ok]
    assert {f.file for s in sections for f in s.figures} == REPORT_FIGURES
    assert set(seen) == REPORT_FIGURES
    bad = {name: m for name, m in seen.items()
           if min(m.values()) < 0 or max(m.values()) > MAX_BORDER}
    assert bad == {}
