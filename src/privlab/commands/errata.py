"""``privlab errata [SEED] [--format md|json|html] [--from REPORT_JSON]``: the errata sheets.

For each seed (thesis, vldb14, ins15, irm, textbook; all when SEED is omitted) its refuted
claims in document order, each with the printed statement, the correction the ledger derives,
the counterexample and ``privlab claims --id …`` to reproduce it (:mod:`privlab.report.errata`).

Claims come from ``--from`` (default ``reports/latest/report.json``, written by
``privlab verify``).  When that default file does not exist the ledger is run here (slow claims
skipped, as ``verify --quick``) and the sheet says so; an explicit ``--from`` that is missing or
not a privlab report is bad usage (exit 2).  Exit 0: the sheet is a finding, not a failure.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from privlab.commands._common import fail_usage, progress
from privlab.report.findings import SEEDS

DEFAULT_REPORT = Path("reports/latest/report.json")


def _claims_from(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        fail_usage(f"--from={str(path)!r} is not a readable report.json ({type(e).__name__})")
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        fail_usage(f"--from={str(path)!r} has no 'claims' list (not a privlab report.json)")
    return data["claims"]


@click.command()
@click.argument("seed", required=False, type=click.Choice(list(SEEDS)))
@click.option("--format", "fmt", type=click.Choice(["md", "json", "html"]), default="md",
              show_default=True, help="md for people and tickets; json machine-readable; "
                                      "html one self-contained page.")
@click.option("--from", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help=f"report.json to read (default {DEFAULT_REPORT}; when that "
                                 "is absent the ledger is run, slow claims skipped).")
def errata(seed: str | None, fmt: str, report_path: Path | None) -> None:
    """Errata per paper: refuted claims in document order with corrections and counterexamples."""
    from privlab.report import errata as sheets

    if report_path is not None:
        if not report_path.is_file():
            fail_usage(f"--from={str(report_path)!r} does not exist")
        claims, origin = _claims_from(report_path), f"from {report_path}"
    elif DEFAULT_REPORT.is_file():
        claims, origin = _claims_from(DEFAULT_REPORT), f"from {DEFAULT_REPORT}"
    else:
        from privlab.proofs.ledger import default_ledger

        progress(f"{DEFAULT_REPORT} not found: running the claim ledger (slow claims skipped)")
        outcomes = default_ledger().run(quick=True, progress=lambda i, n, cid: progress(
            f"claim {i}/{n} {cid}"))
        claims = [o.to_dict() for o in outcomes]
        origin = "claim ledger run now, slow claims skipped"
    result = sheets.errata(claims, [seed] if seed else None)
    click.echo(sheets.render(result, fmt, origin=origin), nl=False)
