"""The lab's core commands: ``verify`` (the main job), ``claims``, ``table`` and ``certify``.

See DESIGN.md §4 for the JSON contract; :mod:`privlab.commands._common` for exit codes.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from typing import Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    cert_text,
    emit,
    format_option,
    progress,
    seed_option,
    text_table,
)
from privlab.errors import InvalidParameter


def _data_dir(value: Path | None) -> Path | None:
    """--data-dir, checked, exported as $PRIVLAB_DATA_DIR for table functions and workers."""
    import os

    from privlab import _data

    if value is not None:
        if not value.is_dir():
            raise click.BadParameter(f"--data-dir={str(value)!r} is not a directory")
        os.environ[_data.ENV] = str(value.resolve())
        return value
    found = _data.data_dir()
    if found is not None:
        os.environ[_data.ENV] = str(found.resolve())
    return found


@click.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None,
              help="Report directory (default reports/latest, with --quick reports/quick: a "
                   "quick run never replaces the full report): privlab writes only "
                   "report.json/.md/.html, figures/ and .privlab-report into it (each replaced "
                   "atomically) and never removes anything else.")
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that holds no previous privlab report, or a "
                   "--quick report over a full one.")
@click.option("--quick", is_flag=True,
              help="Fewer audit samples; skip claims marked slow (status skipped); report in "
                   "reports/quick unless --out.")
@click.option("--data-dir", type=click.Path(path_type=Path), default=None,
              help="Real data sets (default ../shared/data when it exists; the default "
                   "workload runs on seeded synthetic data either way).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for claims, tables and sections (default: all cores; the "
                   "report does not depend on it).")
@seed_option
@format_option
def verify(out_dir: Path | None, force: bool, quick: bool, data_dir: Path | None,
           workers: int | None, seed: int, fmt: str) -> None:
    """Run the claim ledger, the reproduced tables and the default workload (certificates,
    audits, figures) and write report.json / report.md / report.html into --out.

    Progress, with an ETA, goes to stderr from the first second.  Exit 0 when every guarantee
    privlab makes holds (a paper's refuted claim is a finding, not a failure; a claim --quick
    skipped is neither), 1 otherwise.
    """
    import os

    from privlab.report.eta import duration, first_estimate
    from privlab.report.reports import FULL_DIR, QUICK_DIR, check_out_dir

    target = out_dir if out_dir is not None else (QUICK_DIR if quick else FULL_DIR)
    check_out_dir(target.resolve(), force=force, quick=quick)  # refuse before any work
    found = _data_dir(data_dir)
    if found is None:
        click.echo("WARNING: no data directory (../shared/data or --data-dir): tables and "
                   "claims that need real data run on SEEDED SYNTHETIC stand-ins and are "
                   "reported as such (claims: inconclusive, 'data unavailable').", err=True)
    n = workers or os.cpu_count() or 1
    eta, origin = first_estimate(target.resolve(), quick=quick, workers=n)
    kept = (f"; {FULL_DIR}/ (the full report) is not touched"
            if quick and out_dir is None else "")
    progress(f"verify{' --quick' if quick else ''}: report into {target}/{kept} · "
             f"ETA {duration(eta)} ({origin})")
    from privlab.report.build import run_verify

    report = run_verify(target, quick=quick, seed=seed, data_dir=found,
                        progress=progress, workers=workers, force=force)
    s = report["summary"]
    run = "quick" if quick else "full"
    if quick:
        progress(f"quick report written to {target}/"
                 + (f"; {FULL_DIR}/ (the full report) untouched" if out_dir is None else "")
                 + "; `privlab verify` for the full report")

    def text() -> str:
        lines = [f"report: {target}/report.md (.html, .json, figures/)"
                 + (" — QUICK RUN" if quick else ""),
                 "claims: " + ", ".join(f"{v} {k}" for k, v in s["claims"].items()),
                 f"guarantees: {s['guarantees_holding']}/{s['guarantees']} hold"]
        lines += [f"  FAILED: {g['description']}" for g in report["guarantees"]
                  if not g["holds"]]
        lines.append(f"time: {report['seconds']:.1f} s")
        return "\n".join(lines)

    emit({"out": str(target), "run": run, "summary": s, "seconds": report["seconds"],
          "failing_guarantees": [g for g in report["guarantees"] if not g["holds"]]},
         fmt, text)
    sys.exit(EXIT_OK if s["ok"] else EXIT_FAILED)


@click.command()
@click.option("--status", type=click.Choice(["verified", "confirmed", "refuted",
                                             "inconclusive", "finding (extension)",
                                             "skipped"]),
              default=None, help="Only claims with this status (skipped: not checked by a "
                                 "--quick run).")
@click.option("--id", "ids", multiple=True, help="Only these claim ids (repeatable).")
@click.option("--quick", is_flag=True, help="Skip claims marked slow (status skipped).")
@click.option("--coverage", is_flag=True,
              help="List, per seed, every numbered item and its ledger entry or why it is "
                   "not checkable (does not run the claims).")
@click.option("--rerun", is_flag=True,
              help="Recompute the claims even when a report of the same sources exists.")
@click.option("--report", "report_dir", type=click.Path(path_type=Path), default=None,
              help="The report whose ledger results are listed when it was produced by the "
                   "same privlab sources (default reports/latest, else reports/quick).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for recomputing (default: all cores).")
@click.option("--referees", "referee_dir", default=None,
              type=click.Path(path_type=Path, exists=True, file_okay=False),
              help="A directory of independent referee scripts (ref_*.py, e.g. the "
                   "repository's tests/referee): each listed claim shows its referee's verdict "
                   "and 'disputed' where it differs from the ledger's (exit 1).")
@format_option
def claims(status: str | None, ids: tuple[str, ...], quick: bool, coverage: bool, rerun: bool,
           report_dir: Path | None, workers: int | None, referee_dir: Path | None,
           fmt: str) -> None:
    """List the claim ledger: each claim with its status and evidence.

    The results of a report (--report; default the full report reports/latest, else the quick
    one reports/quick) are listed when that report was produced by the same package sources
    (report.json's source_hash); otherwise the claims are run, on all cores, and one line on
    stderr says why.  From a --quick report, the slow claims it skipped are listed as skipped
    (the first line says so; --rerun computes them), unless asked for by --id: those are
    computed now.
    """
    from privlab.proofs.ledger import default_ledger

    ledger = default_ledger()
    if coverage:
        from privlab.proofs.coverage import coverage_rows

        cov = coverage_rows(ledger.claims(), ledger.tables())
        emit(cov, fmt, lambda: text_table(
            [{**r, "covered_by": ", ".join(r["covered_by"]), "why": r["why"] or ""}
             for r in cov], ("seed", "item", "covered_by", "why")))
        return
    wanted = [ledger.get(i).id for i in ids] or ledger.ids()  # unknown ids: exit 2
    if rerun:
        progress("recomputing the claims (--rerun)")
        rows, note = _run_claims(ledger, wanted, quick, workers), None
    else:
        rows, note = _listing(ledger, wanted, report_dir, quick=quick, by_id=bool(ids),
                              workers=workers)
    if note is None and quick:
        skipped = [r["id"] for r in rows if r["status"] == "skipped"]
        if skipped:
            from privlab.report.reports import quick_notice

            note = quick_notice("from the claim ledger run now with --quick", skipped,
                                what="listing")
    if note is not None and fmt == "json":
        progress(note)  # the JSON is the claims list (DESIGN.md §4): the notice goes here
    if status:
        rows = [r for r in rows if r["status"] == status]
    cols: tuple[str, ...] = ("id", "status", "method", "source", "statement")
    if referee_dir is not None:
        from privlab.report import referees

        progress(f"running the referees of {referee_dir} beside the ledger")
        rows = referees.judge(rows, referee_dir)  # a bad directory: InvalidParameter, exit 2
        cols = ("id", "status", "referee", "source", "statement")
    emit(rows, fmt, lambda: "\n".join([*([note] if note else []), text_table(
        [{**r, "statement": r["statement"][:70],
          **({"referee": r["referee"]["agreement"]} if "referee" in r else {})} for r in rows],
        cols)]))
    if referee_dir is not None:
        from privlab.report.referees import disputed

        bad = disputed(rows)
        if bad:
            progress(f"disputed: {', '.join(bad)} (the ledger and its referee disagree)")
            raise SystemExit(EXIT_FAILED)


def _listing(ledger: Any, wanted: list[str], report_dir: Path | None, *, quick: bool,
             by_id: bool, workers: int | None) -> tuple[list[Any], str | None]:
    """The rows of ``wanted`` (claim dictionaries, in order) and the first line of the listing
    (None, or the notice of a quick report).

    From ``report_dir`` (default :func:`privlab.report.reports.find_default`) when it was
    produced by the same sources; the claims it lacks, and the claims a quick report skipped
    when they are asked for by id (``by_id``) and not ``quick``, are computed now.  Every
    computation is announced on stderr with its reason."""
    from privlab._sources import source_hash
    from privlab.report import reports

    if report_dir is not None:
        path = report_dir / "report.json"
        rep = reports.load(path)
        where = str(path)
    else:
        found = reports.find_default()
        path, rep = found if found is not None else (None, None)
        where = f"{reports.FULL_DIR}/ or {reports.QUICK_DIR}/"
    if rep is None:
        progress(f"no report in {where} (privlab verify writes one): computing the "
                 f"{len(wanted)} claims now")
        return _run_claims(ledger, wanted, quick, workers), None
    if rep.get("source_hash") != source_hash():
        progress(f"{path} was produced by other privlab sources (source hash differs): "
                 f"recomputing the {len(wanted)} claims")
        return _run_claims(ledger, wanted, quick, workers), None
    by_report = {c.get("id"): c for c in rep.get("claims", ()) if isinstance(c, dict)}
    is_quick = reports.is_quick(rep)
    missing = [i for i in wanted if i not in by_report]
    skipped = [i for i in wanted if i in by_report and by_report[i].get("status") == "skipped"]
    redo = missing + (skipped if by_id and not quick else [])
    why = ([f"lacks {_few(missing)}"] if missing else []) + (
        [f"is a --quick report that skipped {_few(skipped)} (--quick lists them as skipped)"]
        if skipped and by_id and not quick else [])
    if why:
        progress(f"{path} {' and '.join(why)}: computing {len(redo)} claim"
                 f"{'s' if len(redo) != 1 else ''} now")
    fresh = dict(zip(redo, _run_claims(ledger, redo, quick, workers), strict=True)) \
        if redo else {}
    rows = [fresh.get(i) or by_report[i] for i in wanted]
    if len(fresh) < len(wanted):
        progress(f"claims from {path} (generated {rep.get('generated')}, same sources); "
                 f"--rerun to recompute")
    if not is_quick:
        return rows, None
    left = [r["id"] for r in rows if r.get("status") == "skipped"]
    return rows, reports.quick_notice(f"from the --quick report {path}", left, what="listing")


def _few(ids: list[str]) -> str:
    return ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")


def _run_claims(ledger: Any, wanted: list[str], quick: bool,
                workers: int | None) -> list[Any]:
    import os

    n = workers or os.cpu_count() or 1
    if n == 1 or len(wanted) <= 2:
        outcomes = ledger.run(wanted, quick=quick,
                              progress=lambda i, k, cid: progress(f"claim {i}/{k} {cid}"))
        return [o.to_dict() for o in outcomes]
    from privlab.report.parallel import run_claims

    return run_claims(wanted, quick=quick, workers=n, progress=progress)


@click.command()
@click.argument("table_id", required=False)
@click.option("--list", "list_ids", is_flag=True, help="List the table ids.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
def table(table_id: str | None, list_ids: bool, fmt: str) -> None:
    """Compute one reproduced table (computed values beside the paper's, paper_<column>)."""
    from privlab.proofs.ledger import default_ledger

    ledger = default_ledger()
    if list_ids or table_id is None:
        ids = sorted(ledger.tables())
        emit(ids, "json" if fmt == "json" else "table", "\n".join(ids))
        return
    t = ledger.table(table_id).to_dict()
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=t["columns"], extrasaction="ignore")
        w.writeheader()
        w.writerows(t["rows"])
        click.echo(buf.getvalue(), nl=False)
        return
    emit(t, fmt, lambda: "\n".join([f"{t['id']} — {t['source']}", "",
                                    text_table(t["rows"], t["columns"]), "",
                                    *(f"note: {n}" for n in t["notes"])]))


def _emit_certificate(cert: Any, fmt: str) -> None:
    from privlab.types import jsonable
    from privlab.verify.certificate import certificate

    c = certificate("noise", jsonable(cert.to_dict()))
    emit(c, fmt, lambda: cert_text(c))
    sys.exit(EXIT_OK if c["holds"] else EXIT_FAILED)


@click.group(invoke_without_command=True)
@click.option("--from-json", "from_json", default=None, metavar="PARAMS.json",
              help="Certify again the configuration of a certificate file (as printed by "
                   "'privlab certify … --format json'): laplace, staircase, box-staircase, "
                   "dp-release.")
@click.option("--check", "check_dir", default=None, metavar="DIR",
              help="Re-certify every *.json certificate in DIR; exit 1 when one no longer "
                   "holds or its verdict changed.")
@format_option
@click.pass_context
def certify(ctx: click.Context, from_json: str | None, check_dir: str | None,
            fmt: str) -> None:
    """Certificate for a parameter choice (exact checks; exit 1 when it does not hold)."""
    if ctx.invoked_subcommand is not None:
        if from_json or check_dir:
            raise InvalidParameter("--from-json/--check take no sub-command")
        return
    from privlab.commands import certify_files as cf

    if (from_json is None) == (check_dir is None):
        if from_json is None:
            click.echo(ctx.get_help())
            sys.exit(EXIT_USAGE)
        raise InvalidParameter("give one of --from-json or --check, not both")
    if from_json is not None:
        c = cf.recertify(cf.read_params(from_json))
        emit(c, fmt, lambda: cert_text(c) if "checks" in c else (
            f"{c['mechanism']} {c['parameters']}: certified epsilon "
            f"{c.get('certified_epsilon')}; holds {c['holds']}"))
        sys.exit(EXIT_OK if c["holds"] else EXIT_FAILED)
    rows = cf.check_dir(check_dir)  # type: ignore[arg-type]
    emit(rows, fmt, lambda: text_table([{**r, "changes": "; ".join(r["changes"])}
                                         for r in rows]))
    ok = all(r["holds"] and r["unchanged"] for r in rows)
    sys.exit(EXIT_OK if ok else EXIT_FAILED)


def _noise_options(f: Any) -> Any:
    for opt in reversed((
            click.option("--epsilon", type=float, required=True, help="Claimed ε (> 0)."),
            click.option("--sensitivity", type=float, default=1.0, show_default=True,
                         help="Sensitivity Δ of the query (> 0)."),
            click.option("--neighbour", type=click.Choice(["substitute", "add/remove"]),
                         default="substitute", show_default=True,
                         help="Neighbour relation Δ was computed under."),
            click.option("--no-safe", is_flag=True,
                         help="Skip the floating-point-safe mode's exact check."),
            format_option)):
        f = opt(f)
    return f


@certify.command("staircase")
@_noise_options
@click.option("--d", type=float, default=None, help="Core half-width d ∈ [0, Δ] (default: "
                                                    "optimal for --objective).")
@click.option("--objective", type=click.Choice(["variance", "ci95", "abs"]), default="variance",
              show_default=True)
def certify_staircase(epsilon: float, sensitivity: float, neighbour: str, no_safe: bool,
                      fmt: str, d: float | None, objective: str) -> None:
    """Staircase noise (thesis §4.4 Theorem 1–2)."""
    from privlab.verify.noise.certify import certify_noise, make_noise

    mech = make_noise("staircase", epsilon=epsilon, sensitivity=sensitivity, d=d,
                      objective=objective, neighbour=neighbour)
    _emit_certificate(certify_noise(mech, safe=not no_safe), fmt)


@certify.command("laplace")
@_noise_options
def certify_laplace(epsilon: float, sensitivity: float, neighbour: str, no_safe: bool,
                    fmt: str) -> None:
    """Laplace noise of scale Δ/ε."""
    from privlab.verify.noise.certify import certify_noise, make_noise

    mech = make_noise("laplace", epsilon=epsilon, sensitivity=sensitivity, neighbour=neighbour)
    _emit_certificate(certify_noise(mech, safe=not no_safe), fmt)


def _floats(name: str, text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{name}={text!r} must be comma-separated numbers") from None


@certify.command("box-staircase")
@click.option("--epsilon", type=float, required=True, help="Claimed ε (> 0).")
@click.option("--sensitivity", required=True, help="Box half-widths s_1,…,s_d.")
@click.option("--core", default=None, help="Core half-widths z_1,…,z_d (default: optimal for "
                                           "--objective).")
@click.option("--objective", default="variance", show_default=True,
              help="variance | volume95 | volume99 | volume90.")
@format_option
def certify_box(epsilon: float, sensitivity: str, core: str | None, objective: str,
                fmt: str) -> None:
    """Box-staircase noise for a box sensitivity set (thesis §4.5 Theorem 3)."""
    from privlab.verify.noise.multivariate_cert import certify_box_staircase

    s = _floats("--sensitivity", sensitivity)
    assert s is not None
    _emit_certificate(certify_box_staircase(epsilon, s, _floats("--core", core), objective), fmt)
