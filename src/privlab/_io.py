"""Atomic output: after any interruption, a folder privlab writes into holds either the complete
previous set of files or the complete new set — never a mix — once the next privlab write into
it (or :func:`recover`) has run; temp names of dead runs are removed then.

Naming (every temporary name carries ``privlab`` and the PID of the run that made it, so that a
later run can tell a dead run's leftovers from live runs' and from the user's files):

* staged file: ``.NAME.privlab-PID-XXXXXXXX.tmp`` beside its target;
* staged folder: ``.privlab-tmp-PID-XXXXXXXX`` (:func:`make_temp_dir`, :func:`staging_dir`);
* backup of a replaced target: ``.NAME.privlab-PID.bak``; a new folder set aside during a
  rollback: ``.NAME.privlab-PID.del``;
* journal: ``.privlab-journal-PID.json`` in the folder of the publish (its *root*).

:func:`publish` is the one primitive every multi-file output goes through (a release with its
certificate and side files via :func:`atomic_write_group`, ``privlab verify``'s report files and
``figures/`` via :func:`privlab.report.build.install`, ``audit-suite run --out``'s outputs).

Guarantee.  The *commit point* of a publish is the rename that puts its journal in state
``committed`` (for a publish that needs no journal: its one rename).  If :func:`publish`
returns, every target holds its new content.  If it raises before the commit point, every
target holds its old content (is absent if it was absent) and the staged names are gone; after
it, the new content.  If the process dies at any step (``SIGKILL``, ``os._exit``; a power loss
too, where the file system honours ``fsync``), the same holds — old set before the commit
point, new set after — as soon as :func:`recover` has run in the root, and no temp name, backup
or journal of the dead run is left (a staged name in a sub-folder goes with the next write into
that sub-folder).  :func:`recover` runs at the start of every privlab write into a folder and
in ``privlab verify``'s check of its ``--out``.  The protocol:

1. *stage*: every new file is written to a temp name in its target's directory and ``fsync``-ed
   (a new folder, or a folder that does not exist yet, is built inside a staged folder); nothing
   the user sees has changed.
2. *lock* the directory (``flock`` on the directory itself, so that no lock file is left), then
   :func:`recover` journals of dead runs and remove stale temp names of dead PIDs.
3. *prepare*: write the journal (targets, staged names, backup names; state ``prepared``)
   atomically (temp file, ``fsync``, rename, ``fsync`` of the directory).
4. for each target: back the old one up (a hard link for a file — the target never disappears —
   else a rename), rename the staged one onto it; ``fsync`` the directories.
5. *commit*: rewrite the journal with state ``committed`` (the commit point), remove the
   backups, remove the journal.

SIGINT, SIGTERM and SIGHUP are deferred from step 3 to the end (Python-level handlers swapped
for recording ones and the signals blocked with :func:`signal.pthread_sigmask`): a signal that
arrives there takes effect, with its usual handler, right after the publish completed or rolled
back.  An exception inside steps 3–5 rolls back in-process (before the commit point) or
finishes the cleanup (after it; an ``OSError`` there does not fail the publish); if that fails
too, or the run is killed there, the journal stays, and the next write into
the directory rolls a ``prepared`` journal back (each backup renamed onto its target, each new
target that had no predecessor removed) or completes a ``committed`` one (backups removed).  A
journal is acted on only when its publish is over: the directory lock is held (a live
publisher would hold it), or — on a file system without ``flock`` — its PID is dead.  Temp
names of dead PIDs are removed (a PID reused by a new process keeps them until that one ends);
so no hard-link backup of a replaced file outlives its run, except until the next write after a
``SIGKILL``.  Names of privlab versions that did not tag them with the PID are left alone.

A single file with no backup to keep (:func:`atomic_write_bytes`) is one ``os.replace`` (no
journal).  Files and directories honour the process umask (0644 / 0755 with the usual umask
022), not the 0600 / 0700 of :func:`tempfile.mkstemp`.

:data:`FAULT_HOOK` (tests only) is called before every write, ``fsync``, rename, link, unlink,
rmtree and mkdir of these paths, so that a test can stop the process at each step.

:func:`terminate_as_exit` (installed by :func:`privlab.cli.main`) turns SIGTERM into
:class:`Terminated` (a ``SystemExit(143)``) so that ``finally`` clauses — and so temp-file
cleanup — run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from privlab.types import jsonable

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

_UMASK_LOCK = threading.Lock()

FAULT_HOOK: Callable[[str, Path], None] | None = None
"""Tests only: called as ``FAULT_HOOK(op, path)`` before every step of a write (``op`` one of
``write``, ``fsync``, ``rename``, ``link``, ``unlink``, ``rmtree``, ``mkdir``)."""

TMP_DIR_PREFIX = ".privlab-tmp-"
JOURNAL_PREFIX = ".privlab-journal-"
_JOURNAL = re.compile(r"\.privlab-journal-(\d+)\.json")
_STALE = re.compile(r"\.privlab-tmp-(\d+)-[^/]*|\..+\.privlab-(\d+)-[A-Za-z0-9_]+\.tmp"
                    r"|\..+\.privlab-(\d+)\.(?:bak|del)", re.DOTALL)
_DEFERRED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_ACTIVE: set[Path] = set()  # journals of publishes running in this process


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


# ---- steps (each announced to FAULT_HOOK) -------------------------------------------------------

def _step(op: str, path: Path) -> None:
    hook = FAULT_HOOK
    if hook is not None:
        hook(op, path)


def _rename(src: Path, dst: Path) -> None:
    _step("rename", dst)
    os.replace(src, dst)


def _fsync_dir(d: Path) -> None:
    _step("fsync", d)
    try:
        fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a directory
        pass
    finally:
        os.close(fd)


def _is_dir(p: Path) -> bool:
    """A real directory (a symlink to one is not)."""
    try:
        return stat.S_ISDIR(os.lstat(p).st_mode)
    except OSError:
        return False


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are links to one inode (``rename`` between them does nothing)."""
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _remove(p: Path) -> None:
    """Remove a file, symlink or directory tree; nothing when ``p`` does not exist."""
    if not os.path.lexists(p):
        return
    if _is_dir(p):
        _step("rmtree", p)
        shutil.rmtree(p)
    else:
        _step("unlink", p)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(p)


def remove_quietly(p: Path) -> None:
    """:func:`_remove`, ignoring errors (cleanup of this run's own temp names)."""
    with contextlib.suppress(OSError):
        _remove(Path(p))


def _short(name: str) -> str:
    """``name`` as the stem of a temp name (long names shortened, kept unique by a hash)."""
    if len(name) <= 120:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{name[:100]}~{digest[:12]}"


def _backup_name(target: Path, kind: str = "bak") -> Path:
    return target.with_name(f".{_short(target.name)}.privlab-{os.getpid()}.{kind}")


def make_temp_dir(parent: Path, prefix: str = TMP_DIR_PREFIX) -> Path:
    """A new folder ``PREFIX<pid>-XXXXXXXX`` in ``parent`` with the umask's directory mode (not
    0700); with the default prefix, a later run removes it once this process is gone."""
    _step("mkdir", Path(parent) / prefix)
    tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f"{prefix}{os.getpid()}-"))
    os.chmod(tmp, dir_mode())
    return tmp


def _temp_file(target: Path, data: bytes) -> Path:
    """``data`` in a new ``fsync``-ed temp file beside ``target`` (whose folder must exist)."""
    _step("write", target)
    fd, name = tempfile.mkstemp(dir=target.parent,
                                prefix=f".{_short(target.name)}.privlab-{os.getpid()}-",
                                suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), file_mode())
            fh.write(data)
            fh.flush()
            _step("fsync", tmp)
            os.fsync(fh.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _top_missing(path: Path) -> Path | None:
    """None when ``path`` exists; else its highest ancestor-or-self that does not exist."""
    if os.path.lexists(path):
        return None
    top = path
    while not os.path.lexists(top.parent) and top.parent != top:
        top = top.parent
    return top


# ---- signals ------------------------------------------------------------------------------------

@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Defer SIGINT, SIGTERM and SIGHUP to the end of the body.

    In the main thread their Python handlers are replaced by ones that only record the signal;
    in every thread the signals are blocked (so that the kernel keeps them pending).  On exit
    the handlers are restored, the mask is restored (pending signals reach their usual handler,
    e.g. ``KeyboardInterrupt``) and the recorded signals are raised again."""
    pending: list[int] = []
    saved: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in _DEFERRED:
            try:
                saved[sig] = signal.signal(sig, lambda n, f: pending.append(n))
            except (ValueError, OSError):  # pragma: no cover - not the main interpreter
                pass
    try:
        old_mask: set[Any] | None = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    except (AttributeError, OSError, ValueError):  # pragma: no cover - no pthread_sigmask
        old_mask = None
    try:
        yield
    finally:
        for num, handler in saved.items():
            signal.signal(num, handler if handler is not None else signal.SIG_DFL)
        if old_mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        for num in dict.fromkeys(pending):
            signal.raise_signal(num)


# ---- liveness, locking, recovery ----------------------------------------------------------------

def _alive(pid: int) -> bool:
    """Whether process ``pid`` may be running (this process counts as running)."""
    if pid == os.getpid():
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, ValueError):
        return False
    except OSError:  # EPERM: someone else's process
        return True
    return True


@contextlib.contextmanager
def _dir_lock(directory: Path) -> Iterator[bool]:
    """An exclusive ``flock`` on ``directory`` itself (released when the process dies); yields
    whether the lock is held (False on file systems without ``flock``)."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield False
        return
    try:
        locked = False
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                locked = True
            except OSError:
                pass
        yield locked
    finally:
        os.close(fd)


def _inside(root: Path, rel: object) -> Path | None:
    """``root / rel`` when ``rel`` is a relative path that stays inside ``root``, else None."""
    if not isinstance(rel, str) or not rel or os.path.isabs(rel):
        return None
    parts = Path(rel).parts
    if any(p in ("..", ".") for p in parts):
        return None
    return root.joinpath(*parts)


def _read_journal(path: Path) -> tuple[str, list[dict[str, Path | bool]]] | None:
    """(state, entries with absolute paths) of a journal, or None when it is not one of ours."""
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("privlab_journal") != 1:
        return None
    state, raw = doc.get("state"), doc.get("entries")
    if state not in ("prepared", "committed") or not isinstance(raw, list):
        return None
    entries: list[dict[str, Path | bool]] = []
    for e in raw:
        if not isinstance(e, dict) or not isinstance(e.get("existed"), bool):
            return None
        paths = {k: _inside(path.parent, e.get(k)) for k in ("target", "staged", "backup")}
        if any(p is None for p in paths.values()):
            return None
        entries.append({**paths, "existed": e["existed"]})  # type: ignore[dict-item]
    return str(state), entries


def _paths(e: dict[str, Path | bool]) -> tuple[Path, Path, Path]:
    t, s, b = e["target"], e["staged"], e["backup"]
    assert isinstance(t, Path) and isinstance(s, Path) and isinstance(b, Path)
    return t, s, b


def _roll_back(entries: Sequence[dict[str, Path | bool]]) -> None:
    """Put every target back as it was before the publish (idempotent: may be repeated after an
    interruption at any step)."""
    for e in reversed(entries):
        target, staged, backup = _paths(e)
        if os.path.lexists(backup):
            if _same_file(backup, target):  # the link of a target not yet replaced
                _remove(backup)
            elif os.path.lexists(target) and (_is_dir(target) or _is_dir(backup)):
                junk = _backup_name(target, "del")
                _rename(target, junk)
                _rename(backup, target)
                _remove(junk)
            else:
                _rename(backup, target)
        elif not e["existed"] and not os.path.lexists(staged) and os.path.lexists(target):
            _remove(target)  # renamed in by the publish: there was nothing before
        _remove(staged)


def _finish(entries: Sequence[dict[str, Path | bool]]) -> None:
    """After the commit point: remove the backups (and any staged name left)."""
    for e in entries:
        _target, staged, backup = _paths(e)
        _remove(backup)
        _remove(staged)


def _settle(journal: Path, state: str, entries: Sequence[dict[str, Path | bool]]) -> None:
    """Complete (committed) or roll back (prepared) the publish of ``journal``, then remove it."""
    if state == "committed":
        _finish(entries)
    else:
        _roll_back(entries)
    for d in dict.fromkeys(_paths(e)[0].parent for e in entries):
        _fsync_dir(d)
    _step("unlink", journal)
    os.unlink(journal)
    _fsync_dir(journal.parent)


def _recover_locked(root: Path, locked: bool, dirs: Iterable[Path] = ()) -> None:
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return
    scan = dict.fromkeys([root, *dirs])
    keep: set[Path] = set()
    for name in names:
        m = _JOURNAL.fullmatch(name)
        if m is None:
            continue
        journal = root / name
        read = _read_journal(journal)
        stale = (journal not in _ACTIVE
                 and (locked or int(m[1]) == os.getpid() or not _alive(int(m[1]))))
        if read is None or not stale:
            if read is not None:
                for e in read[1]:
                    for p in _paths(e):
                        keep.update([p, *p.parents])
            continue
        state, entries = read
        with signals_deferred():
            _settle(journal, state, entries)
        scan.update(dict.fromkeys(_paths(e)[0].parent for e in entries))
    for d in scan:
        _clean_stale(d, keep)


def _clean_stale(d: Path, keep: set[Path]) -> None:
    """Remove the temp names (``_STALE``) in ``d`` whose PID is dead, except those in ``keep``."""
    try:
        names = os.listdir(d)
    except OSError:
        return
    for name in names:
        m = _STALE.fullmatch(name)
        if m is None or d / name in keep:
            continue
        pid = int(next(g for g in m.groups() if g is not None))
        if not _alive(pid):
            remove_quietly(d / name)


def recover(directory: str | os.PathLike[str]) -> None:
    """Settle every interrupted publish into ``directory`` whose run is gone — complete it when
    its journal is ``committed``, roll it back when ``prepared`` — and remove temp names of
    dead PIDs there.  A no-op for a directory that does not exist; raises ``OSError`` when a
    journal cannot be settled (a later write must not proceed over a mixed set)."""
    root = Path(os.path.abspath(directory))
    if not _is_dir(root):
        return
    with _dir_lock(root) as locked:
        _recover_locked(root, locked)


def is_own_temp(name: str) -> bool:
    """Whether a directory entry's ``name`` is one of privlab's temporary names (of any run,
    including folders ``.privlab-tmp-*`` of versions that did not tag them with the PID)."""
    return (name.startswith((TMP_DIR_PREFIX, JOURNAL_PREFIX))
            or _STALE.fullmatch(name) is not None)


# ---- publish ------------------------------------------------------------------------------------

def _write_journal(journal: Path, state: str, entries: Sequence[dict[str, Path | bool]]) -> None:
    root = journal.parent
    doc = {"privlab_journal": 1, "pid": os.getpid(), "state": state,
           "entries": [{k: (str(v.relative_to(root)) if isinstance(v, Path) else v)
                        for k, v in e.items()} for e in entries]}
    tmp = _temp_file(journal, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))
    try:
        _rename(tmp, journal)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _transaction(root: Path, pairs: Sequence[tuple[Path, Path]]) -> None:
    entries: list[dict[str, Path | bool]] = [
        {"target": t, "staged": s, "backup": _backup_name(t), "existed": os.path.lexists(t)}
        for t, s in pairs]
    journal = root / f"{JOURNAL_PREFIX}{os.getpid()}.json"
    dirs = list(dict.fromkeys(t.parent for t, _ in pairs))
    _ACTIVE.add(journal)
    try:
        with signals_deferred():
            _write_journal(journal, "prepared", entries)
            _fsync_dir(root)
            committed = False
            try:
                for e in entries:
                    target, staged, backup = _paths(e)
                    if e["existed"]:
                        _remove(backup)
                        if _is_dir(target) or _is_dir(staged):
                            _rename(target, backup)
                        else:
                            try:
                                _step("link", backup)
                                os.link(target, backup, follow_symlinks=False)
                            except OSError:  # no hard links here: move it aside instead
                                _rename(target, backup)
                    _rename(staged, target)
                for d in dirs:
                    _fsync_dir(d)
                _write_journal(journal, "committed", entries)
                committed = True  # the commit point: from here on, the new set stays
                try:
                    _fsync_dir(root)
                    _settle(journal, "committed", entries)
                except OSError:  # published; the next write removes what is left
                    pass
            except BaseException:
                with contextlib.suppress(BaseException):  # else the journal stays for recover()
                    _settle(journal, "committed" if committed else "prepared", entries)
                raise
    finally:
        _ACTIVE.discard(journal)


def publish(entries: Sequence[tuple[str | os.PathLike[str], str | os.PathLike[str]]]
            ) -> list[Path]:
    """Move each staged path (file or folder) onto its target, all as one unit.

    ``entries`` are ``(target, staged)`` pairs; every target's folder must exist, and every
    staged path must lie in the common folder of the targets' folders (the *root*, where the
    journal goes), on the same file system.  Renames follow the given order.  Guarantee: on
    return every target holds its staged content; on an exception every target holds what it
    held before (absent if it was absent) and the staged paths are gone; after a kill at any
    step, the next :func:`recover` of the root (run by every privlab write into it) restores
    one of these two states.  Returns the targets."""
    pairs = [(Path(os.path.abspath(t)), Path(os.path.abspath(s))) for t, s in entries]
    if not pairs:
        return []
    targets = [t for t, _ in pairs]
    if len(set(targets)) != len(targets):
        raise ValueError(f"publish: a target is named twice: {[str(t) for t in targets]}")
    root = Path(os.path.commonpath([t.parent for t in targets]))
    for _t, s in pairs:
        if os.path.commonpath([root, s]) != str(root) or s == root:
            raise ValueError(f"publish: staged path {str(s)!r} is not inside {str(root)!r}")
    with _dir_lock(root) as locked:
        _recover_locked(root, locked, [t.parent for t in targets])
        target, staged = pairs[0]
        if len(pairs) == 1 and not (_is_dir(staged) and os.path.lexists(target)):
            with signals_deferred():  # one rename, nothing to back up: no journal needed
                _rename(staged, target)
                _fsync_dir(target.parent)
        else:
            _transaction(root, pairs)
    return targets


def staging_dir(target_dir: str | os.PathLike[str]) -> tuple[Path, Path]:
    """``(tmp, content)``: a new temp folder ``tmp`` and the folder ``content`` inside it in
    which to build the new content of ``target_dir``.  ``tmp`` lies in ``target_dir`` when it
    exists (``content`` is ``tmp``), else in its nearest existing ancestor, with the missing
    folders mirrored inside (so that :func:`publish` moves the top missing one in with one
    rename and no folder appears before the publish).  The caller removes ``tmp`` at the end
    (:func:`remove_quietly`)."""
    target = Path(os.path.abspath(target_dir))
    missing = _top_missing(target)
    if missing is None:
        tmp = make_temp_dir(target)
        return tmp, tmp
    tmp = make_temp_dir(missing.parent)
    content = tmp / target.relative_to(missing.parent)
    try:
        _step("mkdir", content)
        content.mkdir(parents=True)
    except BaseException:
        remove_quietly(tmp)
        raise
    return tmp, content


def staged_top(content: Path, target_dir: str | os.PathLike[str]) -> tuple[Path, Path] | None:
    """For a ``content`` folder of :func:`staging_dir`: ``(top missing folder, its staged
    counterpart)`` when ``target_dir`` does not exist yet, else None."""
    target = Path(os.path.abspath(target_dir))
    missing = _top_missing(target)
    if missing is None:
        return None
    staged = content
    for _ in target.relative_to(missing).parts:
        staged = staged.parent
    return missing, staged


def atomic_write_group(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> list[Path]:
    """Write every ``(path, data)`` as one unit (:func:`publish`): after any interruption the
    paths hold all their old contents or all the new ones.

    Every file is staged (written and ``fsync``-ed) before the first rename; files whose folder
    does not exist yet are staged inside a temp folder that becomes the top missing folder with
    one rename.  Renames follow the given order (a release passes its certificate before its
    data).  Staged names are removed on any exception, ``KeyboardInterrupt`` and the
    :class:`Terminated` of SIGTERM included."""
    targets = [Path(os.path.abspath(p)) for p, _ in files]
    entries: list[tuple[Path, Path]] = []
    temps: list[Path] = []
    by_top: dict[Path, Path] = {}
    try:
        for target, (_, data) in zip(targets, files, strict=True):
            missing = _top_missing(target.parent)
            if missing is None:
                tmp = _temp_file(target, data)
                temps.append(tmp)
                entries.append((target, tmp))
                continue
            if missing not in by_top:
                tmp_dir = make_temp_dir(missing.parent)
                temps.append(tmp_dir)
                by_top[missing] = tmp_dir / missing.name
                entries.append((missing, by_top[missing]))
            where = by_top[missing] / target.parent.relative_to(missing)
            _step("mkdir", where)
            where.mkdir(parents=True, exist_ok=True)
            staged = _temp_file(where / target.name, data)
            _rename(staged, where / target.name)
        for top in by_top.values():
            for d in sorted((p for p in top.rglob("*") if _is_dir(p)), reverse=True):
                _fsync_dir(d)
            _fsync_dir(top)
        publish(entries)
    finally:
        for t in temps:
            remove_quietly(t)
    return [Path(p) for p, _ in files]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temp file in the same directory and one ``os.replace``
    (:func:`atomic_write_group` of one file)."""
    atomic_write_group([(path, data)])
    return Path(path)


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


class Terminated(SystemExit):
    """SIGTERM, as an exception (exit status 143) so that ``finally`` clauses run."""


def _sigterm(signum: int, frame: Any) -> None:
    raise Terminated(128 + signum)


def terminate_as_exit() -> None:
    """Make SIGTERM raise :class:`Terminated` (``SystemExit(143)``) in the main thread (so
    cleanup code runs)."""
    if threading.current_thread() is threading.main_thread():
        try:
            signal.signal(signal.SIGTERM, _sigterm)
        except (ValueError, OSError):  # pragma: no cover - not the main interpreter thread
            pass
