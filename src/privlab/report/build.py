"""``privlab verify``: run the ledger, the reproduced tables and the workload sections, and write
the report directory.

The report is built in a temporary folder ``.privlab-tmp-PID-*`` inside ``--out DIR`` (in DIR's
nearest existing ancestor when DIR does not exist yet), removed on any exit, SIGINT and SIGTERM
included, and by the next run when this one was killed.  privlab writes into DIR only what it
owns — :data:`OWNED`: ``report.json``, ``report.md``, ``report.html``, ``figures/`` and the
marker ``.privlab-report`` — published together by :func:`install` (one
:func:`privlab._io.publish`: after any interruption DIR holds the whole previous report or the
whole new one, never a mix), and never removes anything else.  A
DIR that is not empty and holds no previous privlab report (no marker and no ``report.json``
with a ``privlab_version`` key) is refused unless ``force=True`` (``--force``); even then only
the owned names are written, and a foreign ``figures/`` folder is merged into, file by file,
not replaced.  A ``--quick`` run into a DIR holding a full report is refused unless ``force``
(:func:`privlab.report.reports.check_out_dir`; ``privlab verify --quick`` writes to
``reports/quick`` by default).  Claims a quick run does not check have status ``skipped``,
counted apart in the summary, never as inconclusive.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from privlab import __version__
from privlab._io import atomic_write_text, publish, remove_quietly, staged_top, staging_dir
from privlab._sources import source_hash
from privlab.errors import InvalidParameter
from privlab.proofs.ledger import LOAD_ERROR_PREFIX, Ledger, default_ledger
from privlab.report import render
from privlab.report.parallel import bundled_costs, previous_costs, run_all, table_dict
from privlab.report.reports import MARKER, SKIPPED, check_out_dir
from privlab.report.section import Context, Guarantee
from privlab.report.workload import SECTIONS, build_sections

OWN_CLAIM_PREFIX = "privlab:"
REPORT_FILES = ("report.md", "report.html", MARKER, "report.json")  # report.json moved last
OWNED = ("figures", *REPORT_FILES)


def _ledger_guarantees(claims: list[dict[str, Any]],
                       tables: dict[str, Any]) -> list[Guarantee]:
    load_errors = [c["id"] for c in claims if c["id"].startswith(LOAD_ERROR_PREFIX)]
    own_bad = [c["id"] for c in claims if c["id"].startswith(OWN_CLAIM_PREFIX)
               and c["status"] not in ("verified", "confirmed", SKIPPED)]
    errored = [c["id"] for c in claims if "error" in c["evidence"]]
    bad_tables = [t for t, v in tables.items() if "error" in v]
    return [
        Guarantee(description="every proof module of the ledger loads",
                  holds=not load_errors, evidence={"load_errors": load_errors}),
        Guarantee(description="no claim check raised an error", holds=not errored,
                  evidence={"claims_with_errors": errored}),
        Guarantee(description="privlab's own claims (privlab:*) are verified or confirmed",
                  holds=not own_bad, evidence={"failing": own_bad}),
        Guarantee(description="every reproduced table computes", holds=not bad_tables,
                  evidence={"failing": bad_tables}),
    ]


def _tables(ledger: Ledger, progress: Callable[[str], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for tid in sorted(ledger.tables()):
        progress(f"table {tid}")
        out[tid] = table_dict(ledger, tid)
    return out


def _previous(out_dir: Path) -> dict[str, Any] | None:
    """The report.json privlab wrote into ``out_dir`` before, if any (its timings order the
    next run's units; nothing else of it is used)."""
    try:
        if (out_dir / MARKER).is_file():
            report = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
            return report if isinstance(report, dict) else None
    except (OSError, ValueError):
        pass
    return None


def _costs(out_dir: Path, quick: bool) -> dict[tuple[str, str], float]:
    """Seconds per unit that order the parallel run: those shipped with privlab, replaced by
    the ones the previous report in ``out_dir`` recorded when it was a run of the same kind
    (``--quick`` or not)."""
    costs = bundled_costs(quick)
    previous = _previous(out_dir)
    if previous is not None and previous.get("quick") == quick:
        costs.update(previous_costs(previous))
    return costs


def run_verify(out_dir: Path, *, quick: bool = False, seed: int = 0,
               data_dir: Path | None = None, progress: Callable[[str], Any] = lambda m: None,
               ledger: Ledger | None = None,
               sections: tuple[str, ...] = SECTIONS, workers: int | None = None,
               force: bool = False) -> dict[str, Any]:
    """Run everything and write the report into ``out_dir``; returns the report dictionary.

    ``workers`` processes (default: all cores) run claims, tables and sections in parallel
    (:mod:`privlab.report.parallel`); ``workers=1`` or a custom ``ledger`` runs sequentially.
    """
    t0 = time.perf_counter()
    n_workers = (os.cpu_count() or 1) if workers is None else int(workers)
    parallel = ledger is None and n_workers > 1
    ledger = ledger or default_ledger()
    out_dir = Path(out_dir).resolve()
    was_report = check_out_dir(out_dir, force=force, quick=quick)
    try:
        tmp, content = staging_dir(out_dir)
    except OSError as exc:
        raise InvalidParameter(f"--out DIR={str(out_dir)!r} cannot be written: "
                               f"{exc.strerror}") from None
    try:
        ctx = Context(quick=quick, seed=seed, data_dir=data_dir,
                      figures_dir=content / "figures", progress=progress)
        if parallel:
            claims, tables, built = run_all(ctx, sections, workers=n_workers,
                                            progress=progress, costs=_costs(out_dir, quick))
        else:
            outcomes = ledger.run(quick=quick, progress=lambda i, n, cid: progress(
                f"claim {i}/{n} {cid}"))
            claims = [o.to_dict() for o in outcomes]
            tables = _tables(ledger, progress)
            built = [s.to_dict() for s in build_sections(ctx, sections)]
        guarantees = [g.to_dict() for g in _ledger_guarantees(claims, tables)]
        guarantees += [{**g, "section": s["id"]} for s in built for g in s["guarantees"]]
        report = {
            "privlab_version": __version__, "source_hash": source_hash(), "seed": seed,
            "quick": quick,
            "generated": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "data_dir": str(data_dir) if data_dir else None,
            "seconds": time.perf_counter() - t0, "workers": n_workers if parallel else 1,
            "summary": render.summarise(claims, guarantees),
            "guarantees": guarantees,
            "claims": claims, "tables": tables,
            "audits": [{**a, "section": s["id"]} for s in built for a in s["audits"]],
            "sections": built,
        }
        render.write(report, content)
        atomic_write_text(content / MARKER, f"privlab {__version__} report; privlab verify "
                          f"replaces only: {', '.join(OWNED)}\n")
        install(content, out_dir, replace_figures=was_report)
    finally:
        remove_quietly(tmp)
    return report


def install(content: Path, out_dir: Path, *, replace_figures: bool) -> None:
    """Publish the owned names built in ``content`` (:func:`privlab._io.staging_dir`) into
    ``out_dir`` as one unit (:func:`privlab._io.publish`).

    A DIR that does not exist yet appears with one rename, whole.  Otherwise ``figures/`` is
    replaced as a whole only when ``out_dir`` held a privlab report (the old folder is kept as
    a backup until the new report is complete); into a foreign ``figures/`` folder the new
    files are published one by one and nothing already there is removed.  After any
    interruption ``out_dir`` holds the previous report (files and figures) or the new one.
    """
    out_dir = Path(out_dir)
    top = staged_top(content, out_dir)
    if top is not None:
        publish([top])
        return
    entries: list[tuple[Path, Path]] = []
    new_figs, figs = content / "figures", out_dir / "figures"
    if new_figs.is_dir():
        if not figs.exists() or (replace_figures and figs.is_dir()):
            entries.append((figs, new_figs))
        elif figs.is_dir():
            entries += [(figs / f.name, f) for f in sorted(new_figs.iterdir())]
        else:
            raise InvalidParameter(f"--out DIR={str(out_dir)!r}: 'figures' is a file, not the "
                                   "report's figures folder")
    entries += [(out_dir / name, content / name) for name in REPORT_FILES]
    publish(entries)
