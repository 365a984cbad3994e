"""Atomic output: every file privlab writes appears whole or not at all (temp file + rename).

* Files and directories honour the process umask (0644 / 0755 with the usual umask 022), not
  the 0600 / 0700 of :func:`tempfile.mkstemp`.
* :func:`atomic_write_group` writes several files as one unit: every temp file is written
  first (in the target directory), then renamed in the given order — a release passes its
  certificate first and its data last, so the data never appears without its certificate.  A
  failure before the last rename rolls back the files renamed so far (restoring what they
  replaced); temp files are removed on any exception, including ``KeyboardInterrupt`` and the
  ``SystemExit`` that :func:`terminate_as_exit` makes of SIGTERM.
* :func:`terminate_as_exit` (installed by :func:`privlab.cli.main`) turns SIGTERM into
  ``SystemExit(143)`` so that ``finally`` clauses — and so temp-file cleanup — run.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from privlab.types import jsonable

_UMASK_LOCK = threading.Lock()


def umask() -> int:
    """The process umask (read without changing it for longer than two system calls)."""
    with _UMASK_LOCK:
        old = os.umask(0o022)
        os.umask(old)
    return old


def file_mode() -> int:
    return 0o666 & ~umask()


def dir_mode() -> int:
    return 0o777 & ~umask()


def make_temp_dir(parent: Path, prefix: str) -> Path:
    """``mkdtemp`` in ``parent`` with the umask's directory mode (not 0700)."""
    tmp = Path(tempfile.mkdtemp(dir=parent, prefix=prefix))
    os.chmod(tmp, dir_mode())
    return tmp


def _temp_file(target: Path, data: bytes) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, file_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temp file in the same directory and ``os.replace``."""
    target = Path(path)
    tmp = _temp_file(target, data)
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


def _backup(target: Path) -> Path | None:
    """A hard link (or copy) of an existing ``target``, to restore it on rollback."""
    if not target.exists():
        return None
    backup = target.with_name(f".{target.name}.{os.getpid()}.bak")
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup)
    except OSError:  # no hard links on this file system: a copy
        shutil.copy2(target, backup)
    return backup


def atomic_write_group(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> list[Path]:
    """Write every ``(path, data)`` as one unit, renaming in the given order (last = data).

    All temp files are written before the first rename; if a rename fails (or the process is
    interrupted) the files already renamed are rolled back to what they replaced.
    """
    temps: list[tuple[Path, Path]] = []
    done: list[tuple[Path, Path | None]] = []
    try:
        for p, data in files:
            temps.append((Path(p), _temp_file(Path(p), data)))
        for target, tmp in temps:
            backup = _backup(target)
            try:
                os.replace(tmp, target)
            except BaseException:
                if backup is not None:
                    backup.unlink(missing_ok=True)
                raise
            done.append((target, backup))
    except BaseException:
        for target, backup in reversed(done):  # roll back what was renamed, newest first
            try:
                if backup is not None:
                    os.replace(backup, target)
                else:
                    target.unlink(missing_ok=True)
            except OSError:  # pragma: no cover - best effort; the original error is raised
                pass
        for _, tmp in temps:
            tmp.unlink(missing_ok=True)
        raise
    finally:
        for _, backup in done:
            if backup is not None:
                backup.unlink(missing_ok=True)
    return [t for t, _ in temps]


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def dumps(obj: Any) -> str:
    """Strict JSON (no NaN/Infinity) of anything :func:`privlab.types.jsonable` accepts."""
    return json.dumps(jsonable(obj), indent=2, allow_nan=False, ensure_ascii=False)


def json_bytes(obj: Any) -> bytes:
    return (dumps(obj) + "\n").encode("utf-8")


def atomic_write_json(path: str | os.PathLike[str], obj: Any) -> Path:
    return atomic_write_text(path, dumps(obj) + "\n")


def save_figure(fig: Any, path: str | os.PathLike[str], *, dpi: int = 110) -> Path:
    """Save a matplotlib figure atomically as PNG (the whole canvas, as laid out) and close it.

    The canvas is saved as it is (no ``bbox_inches="tight"``): a tight box would make matplotlib
    draw the figure twice (a measuring pass, then the real one).  Each figure of the report sets
    its own size and margins (``fig.subplots_adjust``) so that nothing is clipped and no wide
    empty border remains; ``tests/report/test_figure_layout.py`` checks that for every figure.
    """
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    return atomic_write_bytes(path, buf.getvalue())


def _sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def terminate_as_exit() -> None:
    """Make SIGTERM raise ``SystemExit(143)`` in the main thread (so cleanup code runs)."""
    if threading.current_thread() is threading.main_thread():
        try:
            signal.signal(signal.SIGTERM, _sigterm)
        except (ValueError, OSError):  # pragma: no cover - not the main interpreter thread
            pass
