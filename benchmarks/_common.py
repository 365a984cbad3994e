"""Timing, memory and reporting helpers shared by the benchmark scripts.

Nothing here asserts on time: the scripts print what they measured so a person can judge it.
Timing is best-of-k wall time with :func:`time.perf_counter` (the minimum is the least noisy
estimate of what the code costs; the median is printed beside it so noise is visible).
"""

from __future__ import annotations

import datetime as _dt
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from typing import Any


@dataclass(frozen=True)
class Timing:
    """Wall times (seconds) of ``repeats`` calls of one function, after ``warmup`` calls."""

    times: tuple[float, ...]
    warmup: int
    minor_faults: float | None = None  # page faults per timed call (getrusage ru_minflt)

    @property
    def best(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def best_of(fn: Callable[[], Any], *, repeats: int = 5, warmup: int = 1) -> Timing:
    """Time ``fn()`` ``repeats`` times (after ``warmup`` untimed calls); GC is collected before
    and disabled during each timed call so a collection does not land in one sample."""
    if repeats < 1:
        raise ValueError(f"repeats={repeats!r} must be >= 1")
    for _ in range(warmup):
        fn()
    times = []
    f0 = _minflt()
    for _ in range(repeats):
        gc.collect()
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            t1 = time.perf_counter()
        finally:
            if gc_was_enabled:
                gc.enable()
        times.append(t1 - t0)
    f1 = _minflt()
    faults = (f1 - f0) / repeats if f0 is not None and f1 is not None else None
    return Timing(times=tuple(times), warmup=warmup, minor_faults=faults)


def _minflt() -> int | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@dataclass
class Row:
    """One line of a result table; ``extra`` holds free-form columns."""

    name: str
    values: dict[str, Any] = field(default_factory=dict)
    note: str = ""


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        if v == 0.0:
            return "0"
        a = abs(v)
        if a >= 1e5 or a < 1e-3:
            return f"{v:.3e}"
        if a >= 100:
            return f"{v:,.1f}"
        if a >= 1:
            return f"{v:.3f}"
        return f"{v:.4g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return str(v)


def format_table(rows: Sequence[Row], columns: Sequence[str], *, markdown: bool = True) -> str:
    """A Markdown table (readable as plain text too) with the row name first, note last."""
    header = ["name", *columns, "note"]
    body = [[r.name, *(_fmt(r.values.get(c)) for c in columns), r.note] for r in rows]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(header)]
    def line(cells: Iterable[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"
    out = [line(header)]
    if markdown:
        out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    out.extend(line(b) for b in body)
    return "\n".join(out)


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for ln in fh:
                if ln.startswith("model name"):
                    return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_info() -> dict[str, Any]:
    """Date, CPU, core count and the versions that matter for these numbers."""
    import numpy as np

    return {
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "sched_affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else None,
        "cpu_model": cpu_model(),
        "loadavg_1_5_15": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": _version("scipy"),
        "mpmath": _version("mpmath"),
        "privlab": _version("privlab"),
        "diffprivlib": _version("diffprivlib"),
        "scikit-learn": _version("scikit-learn"),
        "argv": " ".join([os.path.basename(sys.executable), *sys.argv]),
    }


def print_machine(info: dict[str, Any], file: Any = None) -> None:
    file = file or sys.stdout
    for k, v in info.items():
        print(f"# {k}: {v}", file=file)


def log(msg: str) -> None:
    """Progress goes to stderr so ``--json`` keeps stdout clean."""
    print(msg, file=sys.stderr, flush=True)


def rows_to_json(rows: Sequence[Row]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]


def dump_json(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=float)


# ---- memory ---------------------------------------------------------------------------------
def current_rss_bytes() -> int | None:
    """Resident set size now (Linux /proc/self/statm)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def peak_rss_bytes() -> int | None:
    """High-water RSS of this process (``ru_maxrss`` is KiB on Linux)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        return None
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib * 1024 if sys.platform != "darwin" else kib


def reset_peak_rss() -> bool:
    """Reset the kernel's VmHWM (Linux ≥ 4.0: write 5 to /proc/self/clear_refs); False if not
    allowed, in which case the peak includes everything since process start."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def vm_hwm_bytes() -> int | None:
    """VmHWM from /proc/self/status (the value :func:`reset_peak_rss` resets)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for ln in fh:
                if ln.startswith("VmHWM:"):
                    return int(ln.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def measure_memory(fn: Callable[[], Any]) -> dict[str, Any]:
    """Run ``fn`` once for RSS, once under tracemalloc; meant for a fresh child process.

    ``rss_peak_delta`` = peak RSS during the call − RSS just before it (VmHWM reset first when the
    kernel allows it; otherwise ru_maxrss, a lifetime high-water mark).  ``tracemalloc_peak`` is
    the Python-visible allocation peak (numpy reports its buffers to tracemalloc).
    """
    import tracemalloc

    gc.collect()
    reset_ok = reset_peak_rss()
    before = current_rss_bytes()
    out = fn()
    peak = vm_hwm_bytes() if reset_ok else peak_rss_bytes()
    result_nbytes = int(getattr(out, "nbytes", 0))
    del out
    gc.collect()
    tracemalloc.start()
    out = fn()
    _, tm_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out
    return {
        "rss_before": before,
        "rss_peak": peak,
        "rss_peak_delta": (peak - before) if (peak is not None and before is not None) else None,
        "rss_reset": reset_ok,
        "tracemalloc_peak": tm_peak,
        "result_nbytes": result_nbytes,
    }
