"""Data provenance for claims and tables that depend on a real data set (issue 14).

:func:`provenance` returns ``{name, path, rows, sha256}`` for a file of the data directory
(:mod:`privlab._data`), or ``{name, path: "synthetic", rows, sha256: None}`` when it is absent and
the caller ran on seeded synthetic data.  The ledger (:mod:`privlab.proofs.verdict`) makes a
claim with ``Claim.data`` set inconclusive ("data unavailable") unless its evidence carries a
real ``path`` here.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from privlab._data import data_file


@cache
def _sha256(path: str, mtime: float, size: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def provenance(name: str, rows: int | None = None, *, synthetic: bool | None = None
               ) -> dict[str, Any]:
    """Provenance of data file ``name`` (``rows`` as used by the caller).  ``synthetic=True``
    records a synthetic run even if the file exists."""
    p = None if synthetic else data_file(name)
    if p is None:
        return {"name": name, "path": "synthetic", "rows": rows, "sha256": None}
    st = Path(p).stat()
    return {"name": name, "path": str(Path(p).resolve()), "rows": rows,
            "sha256": _sha256(str(p), st.st_mtime, st.st_size)}
