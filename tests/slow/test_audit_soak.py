"""Soak: ``privlab audit --suite --quick`` 50 times in a row, each under a time bound (the
issue's acceptance run; a hang fails with ``TimeoutExpired``).  About 15 s a run on 2 cores."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_control_suite_quick_soak() -> None:
    for _ in range(50):
        out = subprocess.run([sys.executable, "-m", "privlab", "audit", "--suite", "--quick"],
                             capture_output=True, text=True, timeout=400)
        assert out.returncode == 0, out.stderr[-2000:]
