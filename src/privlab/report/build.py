"""``privlab verify``: run the ledger, the reproduced tables and the workload sections, and write
the report directory.

The whole directory is built in a temporary sibling and swapped in at the end, so ``--out DIR``
holds either the previous complete report or the new complete one — never a mix (an interrupted
run leaves DIR untouched).
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from privlab import __version__
from privlab.proofs.ledger import LOAD_ERROR_PREFIX, Ledger, default_ledger
from privlab.report import render
from privlab.report.parallel import run_all, table_dict
from privlab.report.section import Context, Guarantee
from privlab.report.workload import SECTIONS, build_sections

OWN_CLAIM_PREFIX = "privlab:"


def _ledger_guarantees(claims: list[dict[str, Any]], tables: dict[str, Any],
                       quick: bool) -> list[Guarantee]:
    load_errors = [c["id"] for c in claims if c["id"].startswith(LOAD_ERROR_PREFIX)]
    own_bad = [c["id"] for c in claims if c["id"].startswith(OWN_CLAIM_PREFIX)
               and c["status"] not in ("verified", "confirmed")
               and not (quick and c["evidence"].get("reason", "").startswith("skipped"))]
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


def run_verify(out_dir: Path, *, quick: bool = False, seed: int = 0,
               data_dir: Path | None = None, progress: Callable[[str], Any] = lambda m: None,
               ledger: Ledger | None = None,
               sections: tuple[str, ...] = SECTIONS, workers: int | None = None) -> dict[str, Any]:
    """Run everything and write ``out_dir``; returns the report dictionary.

    ``workers`` processes (default: all cores) run claims, tables and sections in parallel
    (:mod:`privlab.report.parallel`); ``workers=1`` or a custom ``ledger`` runs sequentially.
    """
    t0 = time.perf_counter()
    n_workers = (os.cpu_count() or 1) if workers is None else int(workers)
    parallel = ledger is None and n_workers > 1
    ledger = ledger or default_ledger()
    out_dir = Path(out_dir).resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}.tmp-"))
    try:
        ctx = Context(quick=quick, seed=seed, data_dir=data_dir, figures_dir=tmp / "figures",
                      progress=progress)
        if parallel:
            claims, tables, built = run_all(ctx, sections, workers=n_workers,
                                            progress=progress)
        else:
            outcomes = ledger.run(quick=quick, progress=lambda i, n, cid: progress(
                f"claim {i}/{n} {cid}"))
            claims = [o.to_dict() for o in outcomes]
            tables = _tables(ledger, progress)
            built = [s.to_dict() for s in build_sections(ctx, sections)]
        guarantees = [g.to_dict() for g in _ledger_guarantees(claims, tables, quick)]
        guarantees += [{**g, "section": s["id"]} for s in built for g in s["guarantees"]]
        report = {
            "privlab_version": __version__, "seed": seed, "quick": quick,
            "generated": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "data_dir": str(data_dir) if data_dir else None,
            "seconds": time.perf_counter() - t0, "workers": n_workers if parallel else 1,
            "summary": render.summarise(claims, guarantees),
            "guarantees": guarantees,
            "claims": claims, "tables": tables,
            "audits": [{**a, "section": s["id"]} for s in built for a in s["audits"]],
            "sections": built,
        }
        render.write(report, tmp)
        _swap(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report


def _swap(new: Path, target: Path) -> None:
    """Replace directory ``target`` by ``new`` (two renames; the old copy is removed after)."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old-"))
        os.rmdir(old)
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
