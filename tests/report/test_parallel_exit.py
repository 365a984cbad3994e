"""Workers of privlab.report.parallel end without the interpreter's teardown (``_exit_now``):
the parent's ``pool.shutdown`` does not wait for scipy/sympy/numba/matplotlib to be torn down.
Teardown is observed through an object whose finaliser writes a file when module globals are
cleared at interpreter exit; the worker's results still arrive and its exit status is 0."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import multiprocessing, os, sys
    from concurrent.futures import ProcessPoolExecutor
    from privlab.report import parallel

    def plant(path):
        import types
        mod = types.ModuleType("_privlab_probe")
        class Probe:
            def __del__(self):
                with open(path, "w") as fh:
                    fh.write("torn down")
        mod.probe = Probe()
        sys.modules["_privlab_probe"] = mod
        return os.getpid()

    def no_fast_exit(parent):
        import atexit
        parallel.worker_init(parent)
        atexit.unregister(parallel._exit_now)

    if __name__ == "__main__":
        init = parallel.worker_init if sys.argv[2] == "fast" else no_fast_exit
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=init, initargs=(os.getpid(),))
        procs = []
        pid = pool.submit(plant, sys.argv[1]).result()
        procs = list(pool._processes.values())
        pool.shutdown(wait=True)
        print(pid, [p.exitcode for p in procs])
""")


@pytest.mark.parametrize("mode", ["fast", "mutant"])
def test_worker_skips_teardown(tmp_path: Path, mode: str) -> None:
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    marker = tmp_path / "marker"
    p = subprocess.run([sys.executable, str(script), str(marker), mode], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    pid, codes = p.stdout.split(maxsplit=1)
    assert int(pid) > 0 and codes.strip() == "[0]"
    # the fast exit skips the teardown; without it (the mutant) the finaliser runs
    assert marker.exists() is (mode == "mutant")
