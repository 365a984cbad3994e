"""The one rule for printed numbers (issue 14), used by every reproduced table and claim.

A printed value with n digits after the decimal point (or written in E-notation, then n digits
of its mantissa) *matches* a computed value c when

* ``mode="round"`` (the default): c rounds to the printed digits, i.e.
  |c − p| ≤ ½·10^{−n} (the half-unit boundary counts as a match, either rounding direction);
* ``mode="truncate"`` (only where a paper truncates consistently): c truncates to the printed
  digits, i.e. p ≤ c < p + 10^{−n} for c ≥ 0 (mirrored for c < 0).

No other slack is allowed: a table that needs one is reported cell by cell as a mismatch with
its relative error.  The comparison is exact (decimal arithmetic on ``str`` of the value at 40
significant digits; pass Fractions, mpmath numbers or sympy numbers for exact inputs).

A table keeps a printed number as a float in its ``paper_<x>`` column; a float forgets how the
number was printed ("3.07E+09" becomes 3070000000.0, one unit 0.1; "0.40" becomes 0.4).  A
:class:`Printed` value is that float together with its printed text, which the rule then uses.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

MODES = ("round", "truncate")


class Printed(float):
    """A printed number: a float (JSON, arithmetic and display as usual) that keeps the text
    it was printed as (``Printed("1.20E+10").text == "1.20E+10"``) for the rule's digits."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> Printed:
        t = str(text).strip()
        self = super().__new__(cls, t)
        self.text = t
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickling keeps the text
        return (Printed, (self.text,))


def _dec(x: Any) -> Decimal:
    if isinstance(x, Decimal):
        return x
    if isinstance(x, Fraction):
        with localcontext() as ctx:
            ctx.prec = 60
            return Decimal(x.numerator) / Decimal(x.denominator)
    if isinstance(x, float):
        return Decimal(repr(x))
    try:
        import mpmath

        if isinstance(x, mpmath.mpf):
            return Decimal(mpmath.nstr(x, 40, strip_zeros=False))
    except ImportError:  # pragma: no cover
        pass
    if hasattr(x, "evalf"):
        return Decimal(str(x.evalf(40)))
    return Decimal(str(x))


def unit(printed: str) -> Decimal:
    """10^{−n}: one unit in the last printed digit of ``printed`` ('73.02' → 0.01,
    '1.20E+10' → 1E+8)."""
    exponent = Decimal(printed.strip()).as_tuple().exponent
    if not isinstance(exponent, int):  # 'NaN', 'Infinity': no last digit
        raise ValueError(f"printed={printed!r} is not a finite number")
    return Decimal(1).scaleb(exponent)


def matches_printed(computed: Any, printed: str, mode: str = "round") -> bool:
    """Whether ``computed`` matches the printed string under the rule of the module doc."""
    if mode not in MODES:
        raise ValueError(f"mode={mode!r} must be one of {MODES}")
    p, c, u = Decimal(printed.strip()), _dec(computed), unit(printed)
    if mode == "round":
        return abs(c - p) <= u / 2
    if c < 0:
        return -p <= -c < -p + u
    return p <= c < p + u


def cell(computed: Any, printed: str, mode: str = "round") -> dict[str, Any]:
    """One table cell: the computed value, the printed one, whether they match, and the
    relative error (computed − printed)/printed."""
    p, c = Decimal(printed.strip()), _dec(computed)
    rel = None if p == 0 else float((c - p) / abs(p))
    return {"computed": str(c.normalize() if abs(c) < 1e30 else c), "printed": printed,
            "matches": matches_printed(computed, printed, mode), "rule": mode,
            "relative_error": rel}


def table_mode(pairs: list[tuple[Any, str]]) -> str:
    """The rule for one table: ``"round"`` unless some cell fails rounding while *every* cell
    of the table truncates to its printed digits (the paper truncates consistently there)."""
    if all(matches_printed(c, p, "round") for c, p in pairs):
        return "round"
    if all(matches_printed(c, p, "truncate") for c, p in pairs):
        return "truncate"
    return "round"


def compare_table(pairs: list[tuple[Any, str]], labels: list[str] | None = None
                  ) -> dict[str, Any]:
    """Every (computed, printed) cell of one table under the table's rule (:func:`table_mode`):
    ``{"rule", "cells", "mismatches"}``, each cell with its relative error."""
    mode = table_mode(pairs)
    labels = labels or [str(i) for i in range(len(pairs))]
    cells = [{"cell": lab, **cell(c, p, mode)} for lab, (c, p) in zip(labels, pairs, strict=True)]
    return {"rule": mode, "cells": cells, "mismatches": [c for c in cells if not c["matches"]]}


PRINTED_PREFIX = "paper_"
NOTE_PREFIX = "Printed-number rule"


def _number(x: Any) -> bool:
    return isinstance(x, int | float | Fraction | Decimal) and not isinstance(x, bool) \
        and (not isinstance(x, float) or (x == x and abs(x) != float("inf")))


def compare_rows(columns: tuple[str, ...], rows: Any) -> dict[str, Any] | None:
    """:func:`compare_table` over every computed/printed pair of a reproduced table (columns
    ``x`` and ``paper_x``, both numbers; cells labelled ``row i x``); None without pairs."""
    pairs, labels = [], []
    for i, row in enumerate(rows, start=1):
        for col in columns:
            if not col.startswith(PRINTED_PREFIX):
                continue
            mine = col[len(PRINTED_PREFIX):]
            c, p = row.get(mine), row.get(col)
            if mine in columns and _number(c) and _number(p):
                text = p.text if isinstance(p, Printed) else (
                    repr(float(p)) if isinstance(p, float) else str(p))
                pairs.append((c, text))
                labels.append(f"row {i} {mine}")
    return compare_table(pairs, labels) if pairs else None


def table_note(columns: tuple[str, ...], rows: Any, *, listed: int = 8) -> str | None:
    """The one rule applied to every computed/printed pair of a reproduced table (columns
    ``x`` and ``paper_x``, both numbers): one note with the rule, the count of matching cells
    and the first ``listed`` mismatches with their relative error; None without such pairs."""
    res = compare_rows(columns, rows)
    if res is None:
        return None
    bad = res["mismatches"]
    pairs = res["cells"]
    text = (f"{NOTE_PREFIX} ({res['rule']}; privlab.proofs.printed): "
            f"{len(pairs) - len(bad)} of {len(pairs)} printed cells match")
    if bad:
        shown = "; ".join(
            f"{m['cell']}: computed {float(Decimal(m['computed'])):.6g} vs printed "
            f"{m['printed']}" + (f" ({m['relative_error']:+.3g} relative)"
                                 if m["relative_error"] is not None else "")
            for m in bad[:listed])
        more = f"; … {len(bad) - listed} more" if len(bad) > listed else ""
        text += f"; mismatches: {shown}{more}"
    return text + "."


def reading_notes(columns: tuple[str, ...], by_reading: dict[str, list[dict[str, Any]]],
                  stated: str, *, stated_text: str = "the stated configuration",
                  listed: int = 6) -> tuple[str, ...]:
    """One note per reading of a table (label → its rows with ``paper_<column>`` cells),
    "reading X: n of m cells match" under the one printed-number rule with the count per
    column (``stated`` is the reading of the table's rows, marked with ``stated_text``), and one
    note for the cells no reading matches — the only cells that count as the paper's
    mismatches."""
    notes: list[str] = []
    matched: set[str] = set()
    total: dict[str, None] = {}
    for label, rows in by_reading.items():
        res = compare_rows(columns, rows)
        if res is None:
            continue
        ok = {c["cell"] for c in res["cells"] if c["matches"]}
        matched |= ok
        total.update(dict.fromkeys(c["cell"] for c in res["cells"]))
        per: dict[str, list[int]] = {}
        for c in res["cells"]:
            cnt = per.setdefault(c["cell"].split()[-1], [0, 0])
            cnt[0] += bool(c["matches"])
            cnt[1] += 1
        mark = f" ({stated_text}; the rows)" if label == stated else ""
        cols = ", ".join(f"{col} {a}/{b}" for col, (a, b) in per.items())
        notes.append(f"reading {label}{mark}: {len(ok)} of {len(res['cells'])} cells match "
                     f"({res['rule']} rule; by column: {cols}).")
    if total:
        never = [c for c in total if c not in matched]
        text = (f"Any reading: {len(total) - len(never)} of {len(total)} cells match under at "
                f"least one reading; the other {len(never)} match under none — mismatches no "
                "reading explains (cells averaged over random runs also carry the sampling "
                "error of the paper's runs and of the lab's)")
        if never:
            more = f", … {len(never) - listed} more" if len(never) > listed else ""
            text += ": " + ", ".join(never[:listed]) + more
        notes.append(text + ".")
    return tuple(notes)


PrintedRow = tuple[Printed, Printed, dict[Any, tuple[Printed, Printed, Printed]]]
"""A printed row of the ch.6 / vldb14 result tables: SSE_0, RL_0 and (SSE_f, RL_f, Score) per
column."""


def printed_rows(text: str, label: Any, columns: tuple[Any, ...]) -> dict[Any, PrintedRow]:
    """Rows as printed, one line each: ``label SSE0 RL0`` then (SSE_f, RL_f, Score) for each of
    ``columns``; ``label`` converts the first field (e.g. ``int`` for k)."""
    out: dict[Any, PrintedRow] = {}
    for line in text.strip().splitlines():
        key, *v = line.split()
        p = [Printed(t) for t in v]
        out[label(key)] = (p[0], p[1], {c: (p[2 + 3 * i], p[3 + 3 * i], p[4 + 3 * i])
                                         for i, c in enumerate(columns)})
    return out
