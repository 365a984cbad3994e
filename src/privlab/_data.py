"""Where the real data sets are (never copied into the repository; see ../shared/data/SOURCES.md).

Resolution order: the environment variable ``PRIVLAB_DATA_DIR`` (``privlab verify --data-dir``
sets it, so that tables computed in worker processes see the same directory), then
``../shared/data`` relative to the working directory when it exists.  ``None`` means: no real
data — every consumer then runs on seeded synthetic data of the same shape and says so.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "PRIVLAB_DATA_DIR"
DEFAULT = Path("../shared/data")


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The data directory to use, or None when there is none."""
    for cand in (explicit, os.environ.get(ENV) or None):
        if cand:
            p = Path(cand)
            return p if p.is_dir() else None
    return DEFAULT if DEFAULT.is_dir() else None


def data_file(name: str, explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """``data_dir()/name`` when that file exists, else None."""
    d = data_dir(explicit)
    if d is None:
        return None
    p = d / name
    return p if p.is_file() else None


CACHE_ENV = "PRIVLAB_CACHE_DIR"


def cache_dir() -> Path:
    """privlab's cache folder: ``$PRIVLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/privlab``, else
    ``~/.cache/privlab`` (never the current directory)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "privlab"


def configure_hypothesis(home: Path | None = None) -> Path | None:
    """Point Hypothesis's storage (example database, constants cache) at
    ``cache_dir()/hypothesis`` instead of ``./.hypothesis`` in the user's current folder.

    Called by :func:`privlab.cli.main` and by the report's worker processes — not by the test
    suite, which keeps Hypothesis's own settings).  Returns the previous setting (None: the
    default), which ``configure_hypothesis(previous)`` restores."""
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    configuration.set_hypothesis_home_dir(home or cache_dir() / "hypothesis")
    return previous
