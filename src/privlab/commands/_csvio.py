"""CSV input and release output shared by every ``privlab release`` command.

Policy (the same for every release family):

* **Encoding**: CSV files are read as UTF-8 (a leading byte-order mark is accepted); anything
  else is refused with the 1-based line of the first undecodable byte.  Every data row must
  have as many fields as the header (1-based line numbers in messages; line 1 is the header).
* **Output**: ``--output`` may not resolve to ``--input`` (or to any other file the command
  reads); its folder must exist or be creatable and be writable, checked before any work.
* **Data and certificate are one unit**: :func:`write_release` stages ``OUTPUT.cert.json``
  (and any side file such as ``OUTPUT.groups.csv``) and ``OUTPUT`` in temp files in the target
  folder and publishes them together (:func:`privlab._io.atomic_write_group`): after an error,
  an interrupt or a kill at any step the folder holds the previous release with its own
  certificate or the new one with its own, never data beside another release's certificate;
  temp files and backups of dead runs are removed by the next write.
* **Attribute roles** (:func:`role_options`, :mod:`privlab.commands._roles`): every input
  column is anonymised, a quasi-identifier (``--qi``), sensitive (``--sensitive``),
  non-identifying (``--keep``, the user's statement) or dropped (``--drop-other``); a column
  without a role is refused, listing it.  The certificate states every column's role.
* **Uncertified releases are refused** (:func:`refuse_uncertified`): nothing is written, exit
  1, one line with the certified loss and the option that would fix it; ``--allow-uncertified``
  writes it anyway with the certificate stating the real loss.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from privlab._input import not_regular
from privlab._io import atomic_write_group, json_bytes
from privlab.errors import InvalidParameter

ENCODING = "utf-8"

allow_uncertified_option = click.option(
    "--allow-uncertified", is_flag=True,
    help="Write the release even when its certificate does not establish the requested "
         "guarantee (the certificate then states the real loss).  Default: refuse, exit 1.")


def read_table(path: str | os.PathLike[str], param: str = "input"
               ) -> tuple[list[str], list[list[str]]]:
    """Header and data rows of a UTF-8 CSV file; every malformed input raises
    :class:`InvalidParameter` naming ``param`` (blank lines are skipped)."""
    p = Path(path)
    if not p.exists():
        raise InvalidParameter(f"{param}={str(path)!r} does not exist")
    if not p.is_file():
        raise InvalidParameter(f"{param}={str(path)!r} is not a file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InvalidParameter(f"{param}={str(path)!r} cannot be read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise InvalidParameter(f"{param}={str(path)!r} is not {ENCODING} text (byte "
                               f"0x{raw[exc.start]:02x} on line {line}); save it as UTF-8"
                               ) from None
    if "\x00" in text:
        raise InvalidParameter(f"{param}={str(path)!r} is a binary file, not a CSV text")
    try:
        rd = csv.reader(io.StringIO(text, newline=""))
        numbered = [(rd.line_num, r) for r in rd]
    except csv.Error as exc:
        raise InvalidParameter(f"{param}={str(path)!r} is not a valid CSV file: {exc}") from None
    numbered = [(ln, r) for ln, r in numbered if r and any(c.strip() for c in r)]
    if not numbered:
        raise InvalidParameter(f"{param}={str(path)!r} is empty")
    header = [h.strip() for h in numbered[0][1]]
    if any(not h for h in header):
        raise InvalidParameter(f"{param}={str(path)!r}: the header (line {numbered[0][0]}) has "
                               "an empty column name")
    dup = sorted({h for h in header if header.count(h) > 1})
    if dup:
        raise InvalidParameter(f"{param}={str(path)!r}: the header names column {dup[0]!r} "
                               "twice")
    rows = numbered[1:]
    for ln, r in rows:
        if len(r) != len(header):
            raise InvalidParameter(f"{param}={str(path)!r}: line {ln} has {len(r)} fields, "
                                   f"the header {len(header)}")
    if not rows:
        raise InvalidParameter(f"{param}={str(path)!r} has no data rows")
    return header, [r for _, r in rows]


def parse_columns(spec: str | None, header: Sequence[str], param: str = "columns"
                  ) -> list[str]:
    """``A,B`` as a list of header names (each once, at least one)."""
    cols = [c.strip() for c in (spec or "").split(",") if c.strip()]
    if not cols:
        raise InvalidParameter(f"{param}={spec!r} must name at least one column")
    missing = [c for c in cols if c not in header]
    if missing:
        raise InvalidParameter(f"{param}: column {missing[0]!r} is not in the input header "
                               f"({', '.join(header)})")
    dup = sorted({c for c in cols if cols.count(c) > 1})
    if dup:
        raise InvalidParameter(f"{param}={spec!r} names column {dup[0]!r} twice")
    return cols


def number(text: str, column: str, row: int) -> float:
    """``float(text)`` or an error with the column name and the 1-based data row."""
    try:
        x = float(text)
    except ValueError:
        raise InvalidParameter(f"column {column!r}, row {row}: {text!r} is not a "
                               "number") from None
    if x != x or x in (float("inf"), float("-inf")):
        raise InvalidParameter(f"column {column!r}, row {row}: {text!r} is not a finite "
                               "number")
    return x


#: derived names privlab writes beside OUTPUT other than the certificate, and the certificate
#: kinds whose releases write them: such a file counts as privlab's only beside a privlab
#: certificate of one of these kinds.
SIDE_FILES: Mapping[str, tuple[str, ...]] = {".groups.csv": ("t-closeness",)}
_CERT_CAP = 64 * 1024 * 1024


class OutputFile(click.Path):
    """``click.Path`` for ``--output`` that refuses a trailing slash before
    :class:`pathlib.Path` would drop it (``--output newdir/`` names a folder, not a file); a
    folder or any other non-regular file is refused by :func:`check_output`."""

    def __init__(self, path_type: Any = None) -> None:
        super().__init__(path_type=path_type)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        if isinstance(value, str):
            refuse_trailing_slash(value, param.name if param is not None and param.name
                                  else "output")
        return super().convert(value, param, ctx)


def refuse_trailing_slash(output: str, param: str = "output") -> None:
    if output.endswith("/") or output.endswith(os.sep):
        raise InvalidParameter(f"--{param}={output!r} ends with a slash: it names a folder, "
                               "not a file; nothing written")


def _certificate_kind(path: Path) -> str | None:
    """The ``kind`` of the privlab certificate in the regular file ``path``, None when the file
    is not one (not JSON, not an object with the certificate envelope, or too large)."""
    from privlab.verify.certificate import KINDS

    try:
        if path.stat().st_size > _CERT_CAP:
            return None
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("kind") not in KINDS:
        return None
    if not {"version", "guarantee", "holds"} <= doc.keys():
        return None
    return str(doc["kind"])


def check_targets(output: str | os.PathLike[str], suffixes: Sequence[str],
                  param: str = "output") -> None:
    """Refuse, before anything is written, targets privlab may not write.

    ``OUTPUT`` and every derived name ``OUTPUT+suffix`` must be absent or a regular file (a
    symlink is followed: never a folder, FIFO, device node or socket); ``OUTPUT`` may not end
    with a slash.  ``OUTPUT`` itself is the user's explicit request and a regular file there is
    replaced; a derived name that exists must be privlab's own: ``OUTPUT.cert.json`` a privlab
    certificate, a side file (:data:`SIDE_FILES`) one beside a privlab certificate of a kind
    that writes it.  The release commands have no ``--force``: a foreign derived file is
    refused (remove it or choose another ``--output``)."""
    text = os.fspath(output)
    refuse_trailing_slash(str(text), param)
    shown = f"--{param}={str(text)!r}"
    for suffix in ("", *suffixes):
        t = Path(f"{text}{suffix}")
        bad = not_regular(t)
        if bad is not None:
            where = "" if not suffix else f" (derived file {str(t)!r})"
            raise InvalidParameter(f"{shown}{where} {bad}; privlab writes only regular files, "
                                   "nothing written")
    cert = Path(f"{text}.cert.json")
    cert_kind = _certificate_kind(cert) if cert.exists() else None
    for suffix in suffixes:
        t = Path(f"{text}{suffix}")
        if not t.exists():
            continue
        own = (cert_kind is not None if suffix == ".cert.json"
               else cert_kind in SIDE_FILES.get(suffix, ()))
        if not own:
            raise InvalidParameter(f"{shown}: {str(t)!r} exists and was not written by privlab "
                                   "(not part of a privlab release of this OUTPUT); remove it "
                                   "or choose another --output (the release commands have no "
                                   "--force); nothing written")


def check_output(output: str | os.PathLike[str], reads: Mapping[str, Any],
                 suffixes: Sequence[str] = (".cert.json",), param: str = "output") -> Path:
    """Refuse an ``--output`` that would overwrite a file the command reads, is not a regular
    file (:func:`check_targets`, also for the derived names), whose derived names hold foreign
    files, or whose folder cannot be written — before any work is done."""
    out = Path(output)
    if str(output) == "" or out.name in ("", ".", ".."):
        raise InvalidParameter(f"--{param}={str(output)!r} must name a file")
    refuse_trailing_slash(os.fspath(output), param)
    targets = [out] + [Path(f"{output}{s}") for s in suffixes]
    for name, path in reads.items():
        if path is None:
            continue
        src = Path(path).resolve()
        for t in targets:
            if t.resolve() == src:
                raise InvalidParameter(f"--{param}={str(output)!r} would overwrite --{name} "
                                       f"{str(path)!r}; choose another output file")
    check_targets(output, suffixes, param)
    parent = out.parent if str(out.parent) else Path(".")
    probe = parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise InvalidParameter(f"--{param}={str(output)!r}: {str(probe)!r} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InvalidParameter(f"--{param}={str(output)!r}: folder {str(probe)!r} is not "
                               "writable")
    return out


def csv_bytes(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode(ENCODING)


def write_release(output: str | os.PathLike[str], data: bytes, cert: Any,
                  side: Sequence[tuple[str | os.PathLike[str], bytes]] = (),
                  param: str = "output", *, kind: str) -> dict[str, Any]:
    """Write side files, ``OUTPUT.cert.json`` and ``OUTPUT`` as one unit (renamed in that
    order; :func:`privlab._io.publish` for the guarantee).

    ``cert`` (the command's JSON-safe dictionary) is written in the one certificate layout
    (:func:`privlab.verify.certificate.certificate`: the envelope of ``kind`` with the
    fingerprint of ``data``), validated against the schema before anything is written;
    returns the dictionary written."""
    from privlab.verify.certificate import certificate

    doc = certificate(kind, cert, data=data, name=Path(output).name)
    check_targets(output, [".cert.json", *(os.fspath(p)[len(os.fspath(output)):]
                                           for p, _ in side)], param)
    files = [*side, (f"{output}.cert.json", json_bytes(doc)), (output, data)]
    try:
        atomic_write_group(files)
    except OSError as exc:
        raise InvalidParameter(f"--{param}={str(output)!r} cannot be written: "
                               f"{exc.strerror or exc}") from None
    return doc


def plain(x: Any) -> str:
    """A number as people write it (no ``np.float64(…)`` / ``Fraction(…)`` reprs)."""
    from fractions import Fraction

    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x} (≈ {float(x):.6g})"
    if isinstance(x, bool) or x is None:
        return str(x)
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    return f"{f:.6g}"


def refuse_uncertified(what: str, loss: str, fix: str, allow: bool) -> None:
    """Unless ``allow``: print ``refused: …`` (one line) and exit 1 before anything is written."""
    if allow:
        return
    click.echo(f"refused: {what}: {loss}; nothing written ({fix}, or --allow-uncertified to "
               "write it anyway)", err=True)
    raise SystemExit(1)


def column_policy(header: Sequence[str], used: Sequence[str], keep: str | None,
                  drop_other: bool) -> tuple[list[str], list[str]]:
    """(kept, dropped) input columns that the method does not anonymise.

    Default: refuse when there are any (listing them); ``--keep A,B`` passes the named ones
    through unchanged (explicitly: they are published as they are); ``--drop-other`` drops
    every column not anonymised and not kept.  (The release commands now use the attribute
    roles of :func:`role_options`, which extend this policy with ``--qi`` / ``--sensitive``.)
    """
    from privlab.commands._roles import AttributeRoles

    r = AttributeRoles(keep=keep, drop_other=drop_other).resolve(header, used)
    return list(r.non_identifying), list(r.dropped)


def role_options(default_qi: str = "the anonymised columns") -> Any:
    """``--qi COLS``, ``--sensitive COLS``, ``--keep COLS`` and ``--drop-other``: the attribute
    roles shared by every release command (:class:`privlab.commands._roles.AttributeRoles`;
    build one with ``AttributeRoles(qi=qi, sensitive=sensitive, keep=keep,
    drop_other=drop_other)``).  ``default_qi`` is the command's default, shown in --help."""

    def deco(f: Any) -> Any:
        f = click.option("--drop-other", is_flag=True,
                         help="Drop every input column that has no role (no --qi, --sensitive "
                              "or --keep) and is not anonymised.")(f)
        f = click.option("--keep", default=None, metavar="COLS",
                         help="Non-identifying columns, published unchanged (e.g. a weight): "
                              "your statement, listed as such in the certificate and not "
                              "part of the quasi-identifiers.")(f)
        f = click.option("--sensitive", default=None, metavar="COLS",
                         help="Sensitive columns (never quasi-identifiers); their distinct "
                              "l-diversity within the classes is certified.")(f)
        return click.option("--qi", default=None, metavar="COLS",
                            help="Quasi-identifier columns: k-anonymity is computed over them "
                                 f"as written in OUTPUT (default: {default_qi}).  Columns "
                                 "with no role are refused unless --drop-other.")(f)

    return deco


def released_roles(roles: Any, header: Sequence[str], released: Sequence[str],
                   what: str = "a DP release") -> Any:
    """The roles of a release that publishes no column unchanged (the DP releases): every
    column is released (noised) or dropped.  ``--qi`` / ``--sensitive`` naming released
    columns are declarative (listed in the certificate; the DP guarantee does not depend on
    them); a column with any role that is not released, or without a role and no
    ``--drop-other``, is refused.  ``roles``: a
    :class:`~privlab.commands._roles.AttributeRoles`; returns its
    :class:`~privlab.commands._roles.ResolvedRoles`."""
    from privlab.commands._roles import AttributeRoles

    if roles.keep:
        raise InvalidParameter(f"keep={','.join(roles.keep)!r}: {what} publishes no column "
                               "unchanged; drop the column (--drop-other) or release it")
    passing = [c for c in (*(roles.qi or ()), *roles.sensitive) if c not in released]
    if passing:
        raise InvalidParameter(f"column {passing[0]!r} has a role but is not released; "
                               f"{what} cannot pass it through unchanged: release it or drop "
                               "it (--drop-other)")
    free = AttributeRoles(qi=roles.qi, sensitive=roles.sensitive, drop_other=True)
    res = free.resolve(header, released, what=what)
    if res.dropped and not roles.drop_other:
        raise InvalidParameter(
            f"the input has columns that are not released: {', '.join(res.dropped)}; "
            f"{what} cannot pass them through unchanged: drop them with --drop-other")
    return res


def row_order(rows: str) -> str:
    """The row-order statement of a DP release's certificate."""
    if rows == "shuffled":
        return ("shuffled: the output rows are in a uniformly random order (seeded by --seed), "
                "unrelated to the input order")
    return "aligned: row i of the output is the release of row i of the input"


def other_columns(header: list[str], used: list[str], drop_other: bool) -> list[str]:
    """The input columns a DP release does not publish: refused unless ``--drop-other``."""
    other = [c for c in header if c not in used]
    if other and not drop_other:
        raise InvalidParameter(
            f"the input has columns that are not released: {', '.join(other)}; a DP release "
            "cannot pass them through unchanged: drop them with --drop-other")
    return other


def certified_text(cert: dict[str, Any]) -> str:
    eps = cert.get("certified_epsilon")
    got = "∞ (none can be certified)" if eps is None else plain(eps)
    verdict = "established" if cert.get("holds") else "NOT established"
    return (f"certified ε = {got}; requested ε = {plain(cert.get('requested_epsilon'))} "
            f"{verdict}")


def loss_text(cert: dict[str, Any]) -> str:
    eps = cert.get("certified_epsilon")
    got = "ε = ∞ (no finite ε can be certified)" if eps is None else f"ε = {plain(eps)}"
    return f"certified {got} > requested ε = {plain(cert.get('requested_epsilon'))}"


def fix_hint(rows: str, noise: str, cert: dict[str, Any]) -> str:
    if cert.get("certified_epsilon") is None:
        return "use --rows shuffled" if rows == "aligned" else "use another method"
    hint = "use --noise shared, " if noise == "per-record" else ""
    return (f"{hint}raise --noise-scale, or request --epsilon "
            f"{plain(cert['certified_epsilon'])}")


def check_in_bounds(x: Any, lower: Sequence[float], upper: Sequence[float],
                    cols: Sequence[str], param: str = "bounds") -> None:
    """Every bound finite with lo < hi, every value inside its bounds (user column names,
    1-based data rows, plain numbers)."""
    import numpy as np

    for c, lo, hi in zip(cols, lower, upper, strict=True):
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise InvalidParameter(f"{param}: column {c!r} has bounds {plain(lo)}:{plain(hi)}; "
                                   "they must be finite with lo < hi")
    arr = np.asarray(x, dtype=float)
    out = (arr < np.asarray(lower, dtype=float)) | (arr > np.asarray(upper, dtype=float))
    if out.any():
        r, c = (int(t) for t in np.argwhere(out)[0])
        raise InvalidParameter(f"column {cols[c]!r}, row {r + 1}: value {plain(arr[r, c])} "
                               f"lies outside --{param} [{plain(lower[c])}, {plain(upper[c])}]")
