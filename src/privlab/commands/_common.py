"""Shared CLI plumbing: ``--format``, output, exit codes, error handling.

Exit codes (DESIGN.md §4): 0 success / guarantee holds; 1 a guarantee privlab makes does not
hold (failed certificate, audit violation of a correct mechanism, failed report section);
2 bad usage or invalid parameter (message on stderr naming the parameter, no traceback).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import click

from privlab._io import dumps

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

format_option = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
    help="table for people; json: machine-readable on stdout (nothing else on stdout).")
seed_option = click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                           help="Seed of every random stream (same seed, same output).")
release_seed_option = click.option(
    "--seed", type=click.IntRange(min=0), default=None,
    help="Seed of the release's random streams (same seed, same output).  Default: fresh OS "
         "entropy — anyone who knows the seed can replay the release and remove its noise or "
         "undo its permutation, so the seed is never written to the certificate.")


def seed_statement(seed: int | None) -> str:
    """What a certificate says about the randomness of a release (never the seed itself)."""
    return ("fixed by --seed (not recorded: whoever knows it can replay the release)"
            if seed is not None else "fresh OS entropy")


_T0 = time.monotonic()


_BAR: list[Any] = []


def progress(msg: str) -> None:
    """Progress and logs go to stderr (stdout is reserved for the result), with elapsed time."""
    t = int(time.monotonic() - _T0)
    line = f"[{t // 60:02d}:{t % 60:02d}] {msg}"
    if _BAR:
        _BAR[-1].write(line, file=sys.stderr)  # above the bar, not through it
    else:
        click.echo(line, err=True)


@contextlib.contextmanager
def sample_bar(total: int | None = None) -> Iterator[Callable[[int], Any]]:
    """A progress bar of outputs drawn, on stderr (tqdm; shown only when stderr is a
    terminal, so logs and ``--format json`` pipelines stay clean).  Yields ``update(n)``."""
    from tqdm import tqdm

    bar = tqdm(total=total, unit=" outputs", unit_scale=True, file=sys.stderr, disable=None,
               leave=False, dynamic_ncols=True)
    _BAR.append(bar)
    try:
        yield bar.update
    finally:
        _BAR.pop()
        bar.close()


def emit(obj: Any, fmt: str, text: str | Callable[[], str]) -> None:
    """Print ``obj`` as strict JSON (``fmt == "json"``) or the human ``text``."""
    if fmt == "json":
        click.echo(dumps(obj))
    else:
        click.echo(text() if callable(text) else text)


def fail_usage(msg: str) -> None:
    """Print ``error: msg`` on stderr and exit 2."""
    raise click.UsageError(msg)


def text_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """A plain fixed-width table of ``rows`` (for ``--format table``)."""
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())
    cells = [[_fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    line = "  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))
    sep = "  ".join("-" * w for w in widths)
    body = ["  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)) for row in cells]
    return "\n".join([line, sep, *body])


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    return "" if x is None else str(x)


def exit_with(code: int) -> None:
    sys.exit(code)


def cert_text(c: Mapping[str, Any], title: str | None = None) -> str:
    """Human text of a ``Certificate.to_dict()``: verdict, each check, properties, notes."""
    lines = [title or f"{c['mechanism']} {c['parameters']}",
             f"guarantee: {c['guarantee']}",
             f"certificate: {'HOLDS' if c['holds'] else 'DOES NOT HOLD'}"]
    for chk in c["checks"]:
        lines.append(f"  [{'ok' if chk['holds'] else 'FAIL'}] {chk['claim']}")
        if chk.get("counterexample") is not None:
            lines.append(f"      counterexample: {chk['counterexample']}")
    lines += [f"  {k}: {v}" for k, v in c["properties"].items()]
    lines += [f"note: {n}" for n in c.get("notes", ())]
    return "\n".join(lines)
