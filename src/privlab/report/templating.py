"""The Jinja2 environment of the report templates (``privlab/report/templates/*.j2``).

HTML templates autoescape; filters: ``rich`` (ledger text → safe HTML, maths as Unicode and
``<sup>``/``<sub>``), ``prose`` (Markdown paragraphs → HTML), ``mdtext``/``mdcell`` (the same
text for Markdown), ``short`` (one-line value), ``label`` (seed file names → short names),
``anchor`` (claim id → HTML id).
"""

from __future__ import annotations

import functools
from typing import Any

import jinja2

from privlab.report import findings, richtext


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("privlab.report", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2", "html")),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)
    env.filters.update(rich=richtext.to_html, prose=richtext.paragraphs_html,
                       mdtext=richtext.to_text, mdcell=richtext.md_cell, short=findings.short,
                       label=findings.source_label, anchor=findings.anchor)
    return env


def template(name: str) -> Any:
    """A template of ``privlab/report/templates`` by file name."""
    return environment().get_template(name)
