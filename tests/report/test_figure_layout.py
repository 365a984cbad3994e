"""Layout of every report figure: nothing clipped, no wide empty border (issue 19).

``privlab._io.save_figure`` saves the canvas as laid out (no ``bbox_inches="tight"``, which
draws every figure twice), so each figure fixes its own size and margins.  These tests draw each
figure the report makes (Agg, at the dpi it is saved with) and measure the tight bounding box of
all its artists: it must lie inside the canvas (nothing clipped) and leave at most
:data:`MAX_BORDER` of the canvas empty on each side.  The slow test at the end does the same on
the figures of the real sections (``--quick``, real data from ``../shared/data`` when present).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from privlab._io import save_figure
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

MAX_BORDER = 0.08
"""Largest empty border allowed on each side, as a fraction of the canvas width or height."""

FIGURE_MODULES = (univariate, refinement, microaggregation, dp_release, tcloseness,
                  figures_multivariate)

REPORT_FIGURES = (
    "univariate_densities.png", "univariate_variance_vs_d.png", "univariate_ci_vs_d.png",
    "univariate_ratio_vs_eps.png", "univariate_audits.png", "fig_4_4.png", "fig_4_5.png",
    "fig_4_6.png", "fig_4_7.png", "refinement_vs_laplace.png", "refinement_examples.png",
    "microaggregation.png", "dp_release_sse_rl.png", "tcloseness.png")
"""Every figure ``privlab verify`` writes (the names report.md / report.html link to)."""


def layout_problems(fig: Any, dpi: int, max_border: float = MAX_BORDER) -> list[str]:
    """Draw ``fig`` at ``dpi`` and list what is wrong with its layout (empty: fine).

    With ``(x0, y0, x1, y1)`` the tight box of all artists and ``W × H`` the canvas (inches),
    the margins are ``x0/W``, ``(W − x1)/W``, ``y0/H``, ``(H − y1)/H``: a negative margin means
    something is clipped, one above ``max_border`` an empty border the tight box would crop.
    """
    fig.set_dpi(dpi)
    fig.canvas.draw()
    bb = fig.get_tightbbox(fig.canvas.get_renderer())
    w, h = fig.get_size_inches()
    margins = {"left": bb.x0 / w, "right": (w - bb.x1) / w,
               "bottom": bb.y0 / h, "top": (h - bb.y1) / h}
    out = [f"{side}: clipped by {-m:.3f} of the canvas" for side, m in margins.items() if m < 0]
    out += [f"{side}: empty border {m:.3f} > {max_border}" for side, m in margins.items()
            if m > max_border]
    return out


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Replace ``save_figure`` in every figure module: record each figure's layout problems."""
    seen: dict[str, list[str]] = {}

    def record(fig: Any, path: Any, *, dpi: int = 110) -> Path:
        seen[Path(path).name] = layout_problems(fig, dpi)
        plt.close(fig)
        return Path(path)

    for mod in FIGURE_MODULES:
        monkeypatch.setattr(mod, "save_figure", record)
    return seen


def _ctx(tmp_path: Path) -> Context:
    return Context(quick=True, figures_dir=tmp_path)


def test_checker_flags_clipping_and_wide_borders():
    """The checker can fail: a clipped y label and a wide empty border are both reported."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.set(ylabel="a long y label", xlabel="x", title="title")
    fig.subplots_adjust(left=0.01, right=0.98, bottom=0.15, top=0.9)
    assert any(p.startswith("left: clipped") for p in layout_problems(fig, 110))
    fig.subplots_adjust(left=0.35)
    assert any(p.startswith("left: empty border") for p in layout_problems(fig, 110))
    fig.subplots_adjust(left=0.12)
    assert layout_problems(fig, 110) == []
    plt.close(fig)


def test_univariate_figures(drawn, tmp_path):
    univariate._fig_densities(tmp_path / "univariate_densities.png")
    univariate._fig_vs_d(tmp_path / "univariate_variance_vs_d.png", "variance")
    univariate._fig_vs_d(tmp_path / "univariate_ci_vs_d.png", "ci")
    univariate._fig_ratio_eps(tmp_path / "univariate_ratio_vs_eps.png")
    # the audited mechanisms of univariate.build (names as audit_entry writes them)
    names = ["laplace", "staircase", "staircase", "staircase[safe]", "laplace[safe]",
             *(c.name for c in univariate.CONTROLS)]
    audits = [{"mechanism": f"{n}(epsilon=1, sensitivity=1)", "epsilon_lower_bound": lb,
               "control": n.startswith("broken")}
              for n, lb in zip(names, (0.99, 0.99, 0.99, 1.0, 0.99, 1.97, 1.49, 1.99),
                               strict=True)]
    univariate._fig_audits(tmp_path / "univariate_audits.png", audits)
    assert drawn == {n: [] for n in REPORT_FIGURES if n.startswith("univariate")}


def test_multivariate_figures(drawn, tmp_path):
    for name, fn in figures_multivariate.FIGURES.items():
        fn(tmp_path / name)
    assert drawn == {n: [] for n in REPORT_FIGURES if n.startswith("fig_4")}


def test_refinement_figures(drawn, tmp_path):
    refinement._fig_57(_ctx(tmp_path))
    refinement._fig_51_52_56(_ctx(tmp_path))
    assert drawn == {"refinement_vs_laplace.png": [], "refinement_examples.png": []}


def test_microaggregation_figure(drawn, tmp_path):
    microaggregation._figure(_ctx(tmp_path), [], {})
    assert drawn == {"microaggregation.png": []}


@pytest.mark.parametrize("section", [dp_release, tcloseness], ids=lambda m: m.__name__)
def test_section_figures(drawn, tmp_path, section):
    """These two draw from numbers the section computes: build the section (quick)."""
    s = section.build(_ctx(tmp_path))
    assert drawn == {f.file: [] for f in s.figures}


def test_save_figure_keeps_the_canvas(tmp_path):
    """save_figure writes the canvas as laid out: W × H inches at ``dpi`` (no tight crop)."""
    from PIL import Image

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    fig.subplots_adjust(left=0.3, right=0.7, bottom=0.3, top=0.7)  # wide borders: tight crops
    p = save_figure(fig, tmp_path / "a.png", dpi=100)
    with Image.open(p) as im:
        assert im.size == (400, 300)


@pytest.mark.slow
def test_every_figure_of_the_real_sections_fits_its_canvas(drawn, tmp_path):
    """The six sections that draw, built as ``verify --quick`` builds them (real data when
    ``../shared/data`` is there): exactly the figures of :data:`REPORT_FIGURES`, each laid out
    within its canvas."""
    data = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
    ctx = Context(quick=True, data_dir=data if data.is_dir() else None, figures_dir=tmp_path)
    names = ("univariate", "multivariate", "refinement", "microaggregation", "dp_release",
             "tcloseness")
    sections = build_sections(ctx, tuple(f"privlab.report.sections.{n}" for n in names))
    assert all(s.ok for s in sections), [s.title for s in sections if not s.ok]
    assert {f.file for s in sections for f in s.figures} == set(REPORT_FIGURES)
    assert drawn == {n: [] for n in REPORT_FIGURES}
