"""``privlab errata [SEED] [--format md|json|html] [--from REPORT_JSON]``: the errata sheets.

For each seed (thesis, vldb14, ins15, irm, textbook; all when SEED is omitted) its refuted
claims in document order, each with the printed statement, the correction the ledger derives,
the counterexample and ``privlab claims --id …`` to reproduce it (:mod:`privlab.report.errata`).

Claims come from ``--from``, else from the full report ``reports/latest/report.json`` (written
by ``privlab verify``), else from the quick one ``reports/quick/report.json`` (``privlab verify
--quick``); when neither exists the requested seeds' claims are run here, slow ones included,
so that the sheet is complete.  A sheet built from a quick report says so on its first line
(Markdown title; HTML title and heading; JSON ``"run": "quick"`` and ``notice``) with the
claims it did not check:
errata among them are missing.  An explicit ``--from`` that is missing or not a privlab report
is bad usage (exit 2).  Exit 0: the sheet is a finding, not a failure.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from privlab.commands._common import fail_usage, progress
from privlab.report.findings import SEEDS, seed_of
from privlab.report.reports import FULL_DIR, QUICK_DIR, find_default, skipped_ids

DEFAULT_REPORT = FULL_DIR / "report.json"


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        fail_usage(f"--from={str(path)!r} is not a readable report.json ({type(e).__name__})")
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        fail_usage(f"--from={str(path)!r} has no 'claims' list (not a privlab report.json)")
    return data


@click.command()
@click.argument("seed", required=False, type=click.Choice(list(SEEDS)))
@click.option("--format", "fmt", type=click.Choice(["md", "json", "html"]), default="md",
              show_default=True, help="md for people and tickets; json machine-readable; "
                                      "html one self-contained page.")
@click.option("--from", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help=f"report.json to read (default {DEFAULT_REPORT}, else "
                                 f"{QUICK_DIR / 'report.json'}, saying so; when neither "
                                 "exists the seeds' claims are run, slow ones included).")
def errata(seed: str | None, fmt: str, report_path: Path | None) -> None:
    """Errata per paper: refuted claims in document order with corrections and counterexamples."""
    from privlab.report import errata as sheets

    seeds = [seed] if seed else list(SEEDS)
    if report_path is not None:
        if not report_path.is_file():
            fail_usage(f"--from={str(report_path)!r} does not exist")
        report = _read(report_path)
        found: tuple[Path, dict] | None = (report_path, report)
    else:
        found = find_default()
        if found is not None:
            found = (found[0], _read(found[0]))
    if found is not None:
        path, report = found
        claims, quick = report["claims"], bool(report.get("quick"))
        origin = f"from the --quick report {path}" if quick else f"from {path}"
    else:
        from privlab.proofs.ledger import default_ledger

        led = default_ledger()
        ids = [i for i in led.ids() if seed_of(i) in seeds]
        progress(f"no report in {FULL_DIR}/ or {QUICK_DIR}/: running the {len(ids)} claims of "
                 f"{', '.join(seeds)} now, slow ones included (a complete sheet)")
        outcomes = led.run(ids, progress=lambda i, n, cid: progress(f"claim {i}/{n} {cid}"))
        claims, quick = [o.to_dict() for o in outcomes], False
        origin = "from the claim ledger run now (every claim of the seed, no report found)"
    skipped = [i for i in skipped_ids(claims) if seed_of(i) in seeds]
    result = sheets.errata(claims, seeds)
    click.echo(sheets.render(result, fmt, origin=origin, quick=quick, skipped=skipped),
               nl=False)
