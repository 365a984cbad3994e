"""The house plan (docs/architecture.md): no import circles, no upward imports.

Walks ``src/privlab`` with :mod:`ast` (module-level imports *and* imports inside functions or
``TYPE_CHECKING`` blocks: a function-level import that only breaks a circle at run time is still
a circle) and fails on any strongly connected component of the import graph or any import from
a lower layer into a higher one, printing the chain.  Importing a package's submodule is an edge
to that submodule, not to the package's ``__init__``.
"""

from __future__ import annotations

import ast
import pathlib
from collections import defaultdict

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"

#: layer of each top-level part of privlab (higher may import lower, never the reverse).
LAYERS = {"mechanisms": 1, "metrics": 1, "verify": 2, "audit": 3, "proofs": 4, "testing": 4,
          "pytest_plugin": 4, "report": 5, "commands": 6, "cli": 7, "__main__": 7}


def modules(root: pathlib.Path = SRC) -> dict[str, pathlib.Path]:
    out = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def import_graph(mods: dict[str, pathlib.Path]) -> dict[str, set[str]]:
    def resolve(name: str) -> str:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name

    edges: dict[str, set[str]] = defaultdict(set)
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rpartition(".")[0]
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(n, ast.Import):
                targets = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom):
                base = n.module or ""
                if n.level:
                    p = pkg.split(".")
                    base = ".".join(p[:len(p) - (n.level - 1)] + ([base] if base else []))
                # ``from pkg import sub``: an edge to the submodule when it is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in n.names]
            for t in targets:
                if t.split(".")[0] == "privlab":
                    r = resolve(t)
                    if r and r != m:
                        edges[m].add(r)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    nodes = set(edges) | {w for ws in edges.values() for w in ws}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def chain(edges: dict[str, set[str]], comp: list[str]) -> str:
    """One cycle through the component, printed ``a -> b -> … -> a``."""
    members = set(comp)
    start = comp[0]
    path, seen = [start], {start}
    while True:
        nxt = sorted(w for w in edges[path[-1]] if w in members)
        back = [w for w in nxt if w in seen]
        if back:
            i = path.index(back[0])
            return " -> ".join([*path[i:], back[0]])
        path.append(nxt[0])
        seen.add(nxt[0])


def layer(mod: str) -> int:
    parts = mod.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def upward(edges: dict[str, set[str]]) -> list[str]:
    return [f"{a} (layer {layer(a)}) -> {b} (layer {layer(b)})"
            for a in sorted(edges) for b in sorted(edges[a])
            if a != "privlab" and layer(b) > layer(a)]


def test_no_import_circles() -> None:
    edges = import_graph(modules())
    found = [chain(edges, c) for c in circles(edges)]
    assert not found, "import circles:\n" + "\n".join(found)


def test_no_upward_imports() -> None:
    found = upward(import_graph(modules()))
    assert not found, "upward imports:\n" + "\n".join(found)


@pytest.mark.parametrize("extra", ["circle", "upward"])
def test_checker_catches_a_reintroduced_violation(tmp_path: pathlib.Path, extra: str) -> None:
    """Able to fail: a scratch copy of the package with one bad import is rejected."""
    import shutil

    shutil.copytree(SRC / "privlab", tmp_path / "privlab")
    if extra == "circle":
        f = tmp_path / "privlab/mechanisms/noise/safe.py"
        back = "\n\ndef _x():\n    from privlab.mechanisms.noise import staircase\n"
        f.write_text(f.read_text() + back)
        edges = import_graph(modules(tmp_path))
        assert any("privlab.mechanisms.noise.safe" in c for c in circles(edges))
    else:
        f = tmp_path / "privlab/mechanisms/noise/laplace.py"
        f.write_text(f.read_text() + "\nfrom privlab.verify.noise import dp\n")
        assert any(s.startswith("privlab.mechanisms.noise.laplace") for s in
                   upward(import_graph(modules(tmp_path))))
