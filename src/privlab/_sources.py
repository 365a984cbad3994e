"""The fingerprint of the installed privlab sources (which code produced a report).

:func:`source_hash` is the SHA-256 over the relative path and bytes of every ``.py``, ``.j2``
and ``.json`` file of the package, in sorted order.  ``privlab verify`` writes it into
report.json (``source_hash``); ``privlab claims`` lists the claims of the latest report instead
of recomputing them only when the hashes are equal.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

SUFFIXES = (".py", ".j2", ".json")


@functools.cache
def source_hash() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                    and "__pycache__" not in p.parts):
        h.update(str(f.relative_to(root)).encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()
