"""Where reports live and what kind they are: full (``privlab verify``) or quick (``--quick``).

The user's reports are theirs (issue "never hang, never flake", part 5): a full report lives in
:data:`FULL_DIR` (``reports/latest``), a quick one in :data:`QUICK_DIR` (``reports/quick``), so
that a quick run never replaces a full report; :func:`check_out_dir` refuses to write a quick
report over a full one unless ``force``.  The readers (``privlab claims``, ``privlab errata``)
take the full report first and the quick one only when no full report exists
(:func:`find_default`), and say so on the first line of what they print (:func:`quick_notice`).

Light on purpose (json and pathlib only): ``privlab verify`` decides where to write, and says it,
before the engines are imported.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from privlab.errors import InvalidParameter

FULL_DIR = Path("reports/latest")
"""Default ``--out`` of ``privlab verify`` and report read by ``claims`` / ``errata``."""
QUICK_DIR = Path("reports/quick")
"""Default ``--out`` of ``privlab verify --quick`` (a quick run never replaces a full report)."""
MARKER = ".privlab-report"
SKIPPED = "skipped"
"""Status of a claim a run did not check (``--quick`` skips the claims marked slow)."""


def load(path: Path) -> dict[str, Any] | None:
    """The report dictionary at ``path`` (a report.json, or a directory holding one), or None
    when it is absent, unreadable or not a JSON object."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_report_dir(path: Path) -> bool:
    """Whether ``path`` holds a previous privlab report (marker, or report.json of privlab)."""
    if (path / MARKER).is_file():
        return True
    rep = load(path / "report.json")
    return rep is not None and "privlab_version" in rep


def is_quick(report: Mapping[str, Any]) -> bool:
    """Whether ``report`` comes from a ``--quick`` run."""
    return bool(report.get("quick"))


def skipped_ids(claims: Sequence[Mapping[str, Any]]) -> list[str]:
    """Ids of the claims a run did not check (status :data:`SKIPPED`), in order."""
    return [str(c.get("id")) for c in claims if c.get("status") == SKIPPED]


def check_out_dir(out_dir: Path, *, force: bool = False, quick: bool = False) -> bool:
    """Refuse an ``--out`` that privlab may not write into; True when it holds a report.

    Refused: a file; a non-empty directory holding no privlab report (unless ``force``); for a
    ``quick`` run, a directory holding a full report (unless ``force``: a quick report would
    replace it, and it is the user's).  An interrupted earlier write into the directory is
    settled first (:func:`privlab._io.recover`), and privlab's own temp names (e.g. the
    ``.privlab-tmp-*`` folder of a killed run) do not make it "not empty"."""
    from privlab._io import is_own_temp, recover

    if out_dir.exists() and not out_dir.is_dir():
        raise InvalidParameter(f"--out DIR={str(out_dir)!r} is a file, not a directory")
    if not out_dir.exists():
        return False
    try:
        recover(out_dir)
    except OSError as exc:
        raise InvalidParameter(f"--out DIR={str(out_dir)!r}: an interrupted earlier write "
                               f"cannot be settled: {exc.strerror or exc}") from None
    if is_report_dir(out_dir):
        previous = load(out_dir / "report.json")
        if quick and not force and previous is not None and not is_quick(previous):
            raise InvalidParameter(
                f"--out DIR={str(out_dir)!r} holds a full report (generated "
                f"{previous.get('generated')}) that a --quick run would replace; omit --out "
                f"(a quick report goes to {QUICK_DIR}/), choose another DIR, or use --force")
        return True
    try:
        empty = all(is_own_temp(p.name) for p in out_dir.iterdir())
    except OSError as exc:
        raise InvalidParameter(f"--out DIR={str(out_dir)!r} cannot be read: "
                               f"{exc.strerror}") from None
    if not empty and not force:
        raise InvalidParameter(f"--out DIR={str(out_dir)!r} is not empty and holds no privlab "
                               "report; use --force")
    return False


def find_default(root: Path = Path()) -> tuple[Path, dict[str, Any]] | None:
    """The report a reader takes when none is named: the full one in :data:`FULL_DIR`, else
    (no report there) the quick one in :data:`QUICK_DIR`; ``(report.json path, report)`` or
    None when neither exists."""
    for d in (FULL_DIR, QUICK_DIR):
        path = root / d / "report.json"
        rep = load(path)
        if rep is not None:
            return path, rep
    return None


def quick_notice(origin: str, skipped: Sequence[str], *, what: str) -> str:
    """One line saying that ``what`` was built from a quick run (``origin``: ``"from …"``, the
    report or the claim ledger run now with --quick) and which claims it did not check."""
    n = len(skipped)
    left = (f"{n} slow claim{'s' if n != 1 else ''} not checked (status skipped, "
            f"{'e.g. ' if n > 3 else ''}{', '.join(skipped[:3])})" if n
            else "no claim skipped")
    return (f"QUICK RUN — {what} {origin}: {left}; run `privlab verify` (full, "
            f"into {FULL_DIR}/) for the complete {what}.")
