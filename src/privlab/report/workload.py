"""The built-in default workload of ``privlab verify``: the ordered list of report sections.

Adding a mechanism family to the report is a one-line change to :data:`SECTIONS` (a module
exposing ``build(ctx) -> Section``, see :mod:`privlab.report.section`).  A section that raises
is not dropped: it becomes a section whose single guarantee fails with the error, so
``privlab verify`` exits 1 and the report shows why.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Sequence

from privlab.report.section import Context, Guarantee, Section

SECTIONS: tuple[str, ...] = (
    "privlab.report.sections.univariate",
    "privlab.report.sections.multivariate",
    "privlab.report.sections.refinement",
    "privlab.report.sections.microaggregation",
    "privlab.report.sections.dp_release",
    "privlab.report.sections.tcloseness",
    "privlab.report.sections.audit_suite",
)


def build_sections(ctx: Context, modules: Sequence[str] = SECTIONS) -> list[Section]:
    """Build every section in order (each timed; failures recorded, never raised)."""
    out = []
    for i, name in enumerate(modules, 1):
        ctx.progress(f"[{i}/{len(modules)}] {name.rsplit('.', 1)[-1]}")
        t0 = time.perf_counter()
        try:
            section = importlib.import_module(name).build(ctx)
        except Exception as exc:
            tb = traceback.format_exc(limit=8)
            section = Section(
                id=name.rsplit(".", 1)[-1], title=f"{name} (failed)",
                summary=f"This section raised `{type(exc).__name__}: {exc}`.",
                guarantees=(Guarantee(description=f"section {name} runs",
                                      holds=False, evidence={"traceback": tb}),))
        out.append(_timed(section, time.perf_counter() - t0))
    return out


def _timed(section: Section, seconds: float) -> Section:
    import attrs

    return attrs.evolve(section, seconds=seconds)
