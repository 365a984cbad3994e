"""CLI for the microaggregation family (issue 5).

``privlab release METHOD --input CSV --output CSV --k K --columns A,B,C [--bounds A=LO:HI,…]``
with METHOD one of ``mdav``, ``insensitive-mdav``, ``individual-ranking``, ``mdav-swap``,
``ir-swap``.  The output CSV keeps every input column and the input row order; the listed
columns are replaced by the method's values (centroids, or swapped values — swapped cells keep
their original text).  ``OUTPUT.cert.json`` is written beside it: method, k, achieved minimum
group size, the checks run and whether each holds.  Both files are written atomically.
``--bounds`` is required by ``insensitive-mdav`` and checked against the data whenever given.

``privlab certify insensitivity --algorithm NAME --k K`` runs the Definition 12 checker
(:func:`privlab.verify.microaggregation.insensitivity.check_insensitive`): exit 0 when no
counterexample is
found, 1 with the smallest counterexample otherwise.

:data:`RELEASE_COMMANDS` are the ``release`` subcommands (to be added to the ``release``
group); :data:`certify_insensitivity` is the ``certify`` subcommand.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import click
import numpy as np

from privlab._io import atomic_write_json, atomic_write_text
from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    emit,
    exit_with,
    format_option,
    seed_option,
    text_table,
)
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method, jsonable

__all__ = ["RELEASE_COMMANDS", "certify_insensitivity", "release_group", "run_release"]

METHODS = ("mdav", "insensitive-mdav", "individual-ranking", "mdav-swap", "ir-swap")


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    if not path.is_file():
        raise InvalidParameter(f"input={str(path)!r} does not exist")
    with path.open(newline="", encoding="utf-8") as fh:
        rd = csv.reader(fh)
        try:
            header = next(rd)
        except StopIteration:
            raise InvalidParameter(f"input={str(path)!r} is empty") from None
        rows = [r for r in rd if r]
    bad = [i for i, r in enumerate(rows) if len(r) != len(header)]
    if bad:
        raise InvalidParameter(f"input={str(path)!r}: row {bad[0] + 1} has "
                               f"{len(rows[bad[0]])} fields, the header {len(header)}")
    if not rows:
        raise InvalidParameter(f"input={str(path)!r} has no data rows")
    return header, rows


def _columns(spec: str, header: list[str], what: str = "columns") -> list[str]:
    cols = [c.strip() for c in spec.split(",") if c.strip()]
    if not cols:
        raise InvalidParameter(f"{what}={spec!r} must name at least one column")
    missing = [c for c in cols if c not in header]
    if missing:
        raise InvalidParameter(f"{what}={missing!r} not in the input header {header!r}")
    if len(set(cols)) != len(cols):
        raise InvalidParameter(f"{what}={spec!r} names a column twice")
    return cols


def _numbers(rows: list[list[str]], idx: list[int], names: list[str]) -> np.ndarray:
    x = np.empty((len(rows), len(idx)))
    for i, r in enumerate(rows):
        for j, c in enumerate(idx):
            try:
                x[i, j] = float(r[c])
            except ValueError:
                raise InvalidParameter(f"column {names[j]!r}, row {i + 1}: {r[c]!r} is not a "
                                       f"number") from None
    return x


def _fmt(v: float) -> str:
    return repr(float(v))


def _group_checks(k: int, labels: np.ndarray, names: list[str]) -> list[CheckResult]:
    out = []
    lab2 = labels[:, None] if labels.ndim == 1 else labels
    n = lab2.shape[0]
    for j in range(lab2.shape[1]):
        sizes = np.bincount(lab2[:, j])
        lo, hi = int(sizes.min()), int(sizes.max())
        ok = lo >= k and (hi <= 2 * k - 1 or n < 2 * k)
        what = "" if labels.ndim == 1 else f" ({names[j]})"
        out.append(CheckResult(holds=ok, claim=f"every group{what} has k … 2k − 1 records",
                               value=lo, method=Method.EXACT,
                               evidence={"min": lo, "max": hi, "groups": len(sizes)}))
    return out


def run_release(method: str, input_: Path, output: Path, k: int, columns: str,
                bounds: str | None, confidential: str | None, seed: int,
                distance: str = "standardised") -> dict[str, Any]:
    """Do the release and write both files; return the certificate dictionary."""
    from privlab.mechanisms import microaggregation as ma
    from privlab.mechanisms.microaggregation import prob_kanon as pk
    from privlab.metrics import check_k_anonymity

    if method not in METHODS:
        raise InvalidParameter(f"method={method!r} must be one of {', '.join(METHODS)}")
    header, rows = _read(Path(input_))
    cols = _columns(columns, header)
    idx = [header.index(c) for c in cols]
    x = _numbers(rows, idx, cols)
    k = ma.check_k(k, len(rows))
    dom = None
    if bounds is not None:
        dom = ma.Domain.parse(ma.parse_bounds(bounds), cols)
        dom.check(x)
    elif method == "insensitive-mdav":
        raise InvalidParameter("--bounds is required by insensitive-mdav (the declared "
                               "domain, e.g. A=0:100,B=0:1)")
    checks: list[CheckResult] = []
    if dom is not None:
        checks.append(CheckResult(holds=True, claim="every value lies in the declared domain",
                                  method=Method.EXACT, evidence={"bounds": dom.to_dict()}))
    out_rows = [list(r) for r in rows]
    props: dict[str, Any] = {}
    if method in ("mdav", "insensitive-mdav", "individual-ranking"):
        if method == "mdav":
            res = ma.mdav(x, k, distance=distance)
            props["distance"] = distance
        elif method == "insensitive-mdav":
            res = ma.insensitive_mdav(x, k, bounds=dom)
            props["reference"] = res.parameters["reference"]
        else:
            res = ma.individual_ranking(x, k)
        for i, r in enumerate(out_rows):
            for j, c in enumerate(idx):
                r[c] = _fmt(res.released[i, j])
        checks += _group_checks(k, res.labels, cols)
        if res.labels.ndim == 1:
            checks.append(check_k_anonymity(res.released, k))
        if method == "insensitive-mdav":
            checks.append(_insensitivity_on_input(x, k, dom, seed))
        min_size = res.min_group_size
        props["groups"] = res.n_groups
    else:
        conf = _columns(confidential, cols, "confidential") if confidential else list(cols)
        ci = [cols.index(c) for c in conf]
        if method == "mdav-swap":
            sres = pk.mdav_swap(x, k, confidential=ci, rng=seed, distance=distance)
            props["distance"] = distance
        else:
            sres = pk.ir_swap(x, k, confidential=ci, rng=seed)
        for c in ci:
            perm = sres.permutation[c]
            src = [rows[p][idx[c]] for p in perm]
            for i, r in enumerate(out_rows):
                r[idx[c]] = src[i]
            lab = sres.partitions[c]
            checks += _group_checks(k, lab, [cols[c]])
            checks[-1] = CheckResult(holds=checks[-1].holds,
                                     claim=f"swap groups of {cols[c]} have k … 2k − 1 records",
                                     value=checks[-1].value, method=Method.EXACT,
                                     evidence=checks[-1].evidence)
            moved = bool((lab[perm] == lab).all())
            checks.append(CheckResult(holds=moved, claim=f"{cols[c]}: every value moved only "
                                      f"within its group (a permutation)", method=Method.EXACT))
        min_size = sres.min_group_size
        props["confidential"] = conf
        props["reidentification_bound"] = f"1/{min_size} (thesis §3.3.1: uniform swap in " \
                                          f"groups of ≥ {min_size})"
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(out_rows)
    atomic_write_text(output, buf.getvalue())
    cert = {"method": method, "k": k, "n": len(rows), "columns": cols,
            "achieved_min_group_size": int(min_size),
            "holds": all(c.holds for c in checks),
            "checks": [c.to_dict() for c in checks], "properties": props, "seed": seed,
            "input": str(input_), "output": str(output)}
    atomic_write_json(f"{output}.cert.json", jsonable(cert))
    return cert


def _insensitivity_on_input(x: np.ndarray, k: int, dom: Any, seed: int) -> CheckResult:
    """Definition 12 on neighbours of the input: each of a few records moved to a corner."""
    from privlab.mechanisms.microaggregation.insensitive import insensitive_mdav_labels
    from privlab.verify.microaggregation.insensitivity import clusters_correspond

    g = np.random.default_rng(seed)
    n = x.shape[0]
    if n > 50_000:
        return CheckResult(holds=True, decided=False, claim="insensitivity on neighbours of "
                           "the input (skipped: n > 50000)", method=Method.EXACT)
    la = insensitive_mdav_labels(x, k, dom)
    tried = []
    ok = True
    for t in range(3):
        xp = x.copy()
        r = int(g.integers(n))
        xp[r] = dom.upper if t % 2 == 0 else dom.lower
        res = clusters_correspond(x, la, xp, insensitive_mdav_labels(xp, k, dom))
        tried.append({"row": r, "holds": res["holds"]})
        ok = ok and res["holds"]
    return CheckResult(holds=ok, claim="Definition 12 holds on 3 neighbours of the input "
                       "(a record moved to a domain corner)", method=Method.EXACT,
                       evidence={"neighbours": tried})


@click.group("release")
def release_group() -> None:
    """Anonymise a CSV file; writes OUTPUT and OUTPUT.cert.json."""


def _make(method: str) -> click.Command:
    @click.command(method, help=f"{method}: microaggregation family release (thesis ch.3/6, "
                   "irm); the listed columns are replaced, every other column kept.")
    @click.option("--input", "input_", type=click.Path(dir_okay=False, path_type=Path),
                  required=True)
    @click.option("--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
    @click.option("--k", "k", type=int, required=True, help="Minimum group size.")
    @click.option("--columns", required=True, help="Comma-separated numerical columns.")
    @click.option("--bounds", default=None,
                  help="Declared domain NAME=LO:HI,… (required by insensitive-mdav).")
    @click.option("--confidential", default=None,
                  help="Swap methods: the columns to swap (default: every listed column).")
    @click.option("--distance", type=click.Choice(["standardised", "raw"]),
                  default="standardised", show_default=True, help="MDAV distance space.")
    @seed_option
    @format_option
    def cmd(input_: Path, output: Path, k: int, columns: str, bounds: str | None,
            confidential: str | None, distance: str, seed: int, fmt: str) -> None:
        if confidential is not None and method not in ("mdav-swap", "ir-swap"):
            raise click.UsageError("--confidential applies to mdav-swap and ir-swap only")
        cert = run_release(method, input_, output, k, columns, bounds, confidential, seed,
                           distance)
        emit(cert, fmt, lambda: "\n".join(
            [f"wrote {output} ({cert['n']} rows) and {output}.cert.json",
             f"{method}: k = {k}, achieved minimum group size "
             f"{cert['achieved_min_group_size']}",
             *(f"  [{'ok' if c['holds'] else 'FAIL'}] {c['claim']}" for c in cert["checks"]),
             f"certificate: {'HOLDS' if cert['holds'] else 'DOES NOT HOLD'}"]))
        exit_with(EXIT_OK if cert["holds"] else EXIT_FAILED)

    return cmd


RELEASE_COMMANDS: tuple[click.Command, ...] = tuple(_make(m) for m in METHODS)
for _c in RELEASE_COMMANDS:
    release_group.add_command(_c)


@click.command("insensitivity")
@click.option("--algorithm", required=True,
              help="mdav, insensitive-mdav, insensitive-corners, individual-ranking, "
                   "insensitive-mdav-literal, mdav-raw, preorder-control.")
@click.option("--k", "k", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--attributes", default="1,2", show_default=True,
              help="Numbers of attributes m to search, comma-separated.")
@click.option("--n-max", type=click.IntRange(min=1), default=None,
              help="Largest data-set size of the exhaustive search (default 2k + 2).")
@click.option("--grids", default="2,3,4", show_default=True,
              help="Grid sizes (values per attribute) of the exhaustive search.")
@click.option("--examples", type=click.IntRange(min=0), default=300, show_default=True,
              help="Hypothesis examples after the exhaustive search (0: none).")
@format_option
def certify_insensitivity(algorithm: str, k: int, attributes: str, n_max: int | None,
                          grids: str, examples: int, fmt: str) -> None:
    """Search for a counterexample to Definition 12 (thesis §6.2); exit 1 if one is found."""
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    try:
        ms = tuple(int(t) for t in attributes.split(",") if t.strip())
        gs = tuple(int(t) for t in grids.split(",") if t.strip())
    except ValueError:
        raise InvalidParameter(f"attributes={attributes!r} / grids={grids!r} must be "
                               f"comma-separated integers") from None
    if not ms or min(ms) < 1 or not gs or min(gs) < 2:
        raise InvalidParameter("attributes must be >= 1 and grids >= 2")
    r = check_insensitive(algorithm, k=k, ms=ms, n_max=n_max, grids=gs,
                          hypothesis_examples=examples)
    d = r.to_dict()

    def text() -> str:
        verdict = "no counterexample found" if r.holds else "NOT insensitive"
        lines = [f"{algorithm}, k = {k}: {verdict} ({r.value} neighbouring pairs checked "
                 f"exhaustively, {examples} hypothesis examples)"]
        if r.counterexample:
            c = r.counterexample
            lines += [f"smallest counterexample ({c['found_by']}): n = {c['n']}, m = {c['m']}",
                      f"  x       = {c['x']}", f"  x_prime = {c['x_prime']}"]
            if c.get("witness"):
                lines.append("  " + text_table([{kk: str(v) for kk, v in c["witness"].items()}]
                                               ).replace("\n", "\n  "))
        return "\n".join(lines)

    emit(d, fmt, text)
    exit_with(EXIT_OK if r.holds else EXIT_FAILED)
