"""A release's randomness is secret by default: without ``--seed`` every release command draws
fresh OS entropy (two runs differ), with ``--seed`` it is reproducible, and no certificate ever
contains the seed (whoever knows it can replay the release: subtract the noise, undo the
permutation).  The mutant "default --seed 0" (as before) makes two default runs identical."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privlab.cli import main

RUNS = {
    "laplace-dp": ["--epsilon", "1", "--columns", "a", "--bounds", "0:100", "--drop-other"],
    "insensitive-mdav-dp": ["--epsilon", "1", "--k", "5", "--columns", "a", "--bounds", "0:100",
                            "--drop-other"],
    "mdav-swap": ["--k", "5", "--columns", "a,b", "--confidential", "b"],
    "t-closeness": ["--confidential", "b", "--t", "2", "--qi", "a"],
}


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | set().union(*(_keys(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(_keys(v) for v in obj)) if obj else set()
    return set()


@pytest.mark.parametrize("method", sorted(RUNS))
def test_default_randomness_is_fresh_and_never_recorded(tmp_path: Path, method: str,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    x = np.random.default_rng(0).integers(0, 100, (60, 2))
    src = tmp_path / "in.csv"
    src.write_text("a,b\n" + "\n".join(f"{p},{q}" for p, q in x) + "\n")

    def run(name: str, *extra: str) -> tuple[str, dict[str, Any]]:
        out = tmp_path / name
        rc = main(["release", method, "--input", str(src), "--output", str(out),
                   *RUNS[method], *extra])
        assert rc == 0, capsys.readouterr().err
        return out.read_text(), json.loads(Path(f"{out}.cert.json").read_text())

    a, cert = run("a.csv")
    b, _ = run("b.csv")
    assert a != b
    c, cert_c = run("c.csv", "--seed", "7")
    d, _ = run("d.csv", "--seed", "7")
    assert c == d
    for ce in (cert, cert_c):
        assert "seed" not in _keys(ce)
        assert "7" not in json.dumps(ce.get("randomness", ""))
