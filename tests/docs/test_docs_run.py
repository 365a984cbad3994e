"""Every fenced block of README.md and docs/*.md runs (issue "Never hang, never flake", part 4).

One test case per block, named ``FILE:L<line of the block's first line>``.  Each case runs in a
fresh temporary folder laid out like the repository root: ``examples/`` holds a copy of the
repository's examples, the current directory is that root, ``PYTHONPATH`` is unset, ``privlab``,
``python`` and ``python3`` are the test interpreter's (its ``bin`` folder first on ``PATH``),
and HTTP(S) proxies point at a closed local port and ``PIP_NO_INDEX=1`` (nothing may use the
network).  Every command has a timeout; on expiry its whole process group is killed.

How a block is classified (anything else fails ``test_every_block_is_classified``, so a new
example is never skipped silently):

* ``bash`` / ``sh`` / ``shell`` / ``console`` — commands, run one after the other in the same
  folder.  Lines ending in ``\\`` are joined; in ``console`` blocks only lines starting with
  ``$ `` are commands (the rest is shown output).  A trailing ``# comment`` is removed; when it
  says ``exit N`` that is the expected exit status, else 0.  A command is split on ``&&``; each
  part is
    - CI-only when it matches :data:`CI_ONLY` (pattern → the reason it cannot run in a test):
      not run;
    - ``cd DIR``: the following commands of the block run in DIR (which must exist);
    - else run with ``bash -o pipefail -c`` (redirections and pipes work).
* ``python`` —
    - first line ``# examples/FILE.py`` (optionally ``(excerpt)``): the block shows part of a
      file the repository ships; every top-level function, class or assignment in it must equal
      (as an AST, docstrings dropped) the one of that name in ``examples/FILE.py``.  Not run.
    - first line ``# NAME.py`` (a file the reader creates): written into the folder of this
      document's later blocks, and run once as a script here.
    - a block defining top-level ``test_*`` functions is a test file: run with pytest.
    - else a script: run with the test interpreter (``sys.executable``).
    A block importing a module of :data:`OPTIONAL` is skipped, with the reason, when that
    module is not installed.
* ``toml`` — first line ``# examples/FILE.toml``: an excerpt of the shipped file (each
  ``[table]`` key and each ``[[array]]`` entry, matched by ``name``, equal to the file's);
  ``# NAME.toml``: a file the reader creates, parsed and written like ``NAME.py`` above.
* ``json`` — an example of output: it must parse once ``...`` ellipses are removed.
* no language or ``text`` — diagrams and layouts; but a block with a line that starts like a
  command (:data:`COMMAND_START`) fails: tag it ``bash``.

Long blocks are marked ``slow`` through :data:`SLOW` (pattern → the seconds measured on the
lab machine, 2 shared cores, reference run noted beside).  They run with ``-m slow``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Commands that cannot sensibly run inside a test: pattern (searched in one ``&&`` part of a
#: command, comments removed) → the reason.
CI_ONLY: dict[str, str] = {
    r"^python3?\s+-m\s+venv\b": "creates a virtual environment; the test already runs in the "
                                "project's environment",
    r"^(\.|source)\s+\S*bin/activate$": "activates a virtual environment; the test already runs "
                                        "in one",
    r"^(python3?\s+-m\s+)?pip3?\s+install\b": "installs the checkout; CI does this before it "
                                              "runs the tests, which use that installation",
    r"^python3?\s+-m\s+pytest\b": "runs the test suite: CI itself runs this (inside a test it "
                                  "would recurse)",
}

#: Blocks that take longer than ~10 s: pattern (searched in the block's text, per line) → the
#: seconds measured (``/usr/bin/time``, fresh folder, 2 shared cores, 2026-11-27).
SLOW: dict[str, tuple[float, str]] = {
    r"(^|&&)\s*privlab verify\s*(#.*)?$":
        (133.4, "the whole lab: README says 33-40 s; 133.4 s here on a loaded machine"),
    r"^\s*privlab verify --quick\b": (37.8, "the quick lab: README says 16 s; 37.8 s loaded"),
    r"^\s*privlab claims --status refuted\b":
        (123.7, "no report in a fresh folder, so every claim is recomputed: 40.5-123.7 s"),
    r"^\s*privlab errata thesis\b": (38.0, "no report in a fresh folder: recomputes, 34.3-38.0 s"),
    r"^\s*privlab audit --suite --quick\b": (17.1, "the control suite, quick: 9.1-17.1 s; its "
                                              "block (auditor.md) 20.4-31.0 s"),
    r"^\s*privlab certify refinement --prior 'product\(uniform:0,1;uniform:-1,1":
        (14.5, "README's block of five certificates, 1.3-4.8 s each: 10.6-14.5 s"),
    r"^r = audit_pair\(sample_a, sample_b, samples=10\*\*6":
        (11.2, "auditor.md's quick start, three audits of 10^6 outputs per side: 8.8-11.2 s"),
    r"\bopendp_laplace\b": (16.3, "OpenDP 0.16.0 (installed aside, not a dependency): "
                                   "0.2-0.3 ms per call; 11.3-16.3 s"),
}

#: Optional packages (not dependencies of privlab): a block importing one is skipped without it.
OPTIONAL: dict[str, str] = {
    "diffprivlib": "diffprivlib is not installed (the 'bench' extra pins diffprivlib==0.6.6)",
    "opendp": "opendp is not installed (pip install opendp; the example is for OpenDP 0.16)",
    "pandas": "pandas is not installed (the 'frames' extra)",
}

#: A line of an untagged block that starts like this is a command, not a diagram.
COMMAND_START = re.compile(r"^\s*(\$\s|privlab\b|python3?\b|pip3?\b|pytest\b|cd\s|bash\b)")

SHELL = {"bash", "sh", "shell", "console"}
TIMEOUT = 300.0        # seconds per command (default blocks take < 15 s)
SLOW_TIMEOUT = 1200.0  # seconds per command of a slow block
FILE_HEADER = re.compile(r"^#\s*(?P<path>[\w./-]+\.(?:py|toml))(?P<excerpt>\s+\(excerpt\))?\s*$")


class Unclassified(Exception):
    """A block the rules of the module docstring do not cover."""


@dataclass(frozen=True)
class Block:
    doc: str       # path relative to the repository
    line: int      # 1-based line of the block's first line
    lang: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.doc}:L{self.line}"


@dataclass(frozen=True)
class Command:
    line: int
    text: str      # comment removed
    expect: int


@dataclass
class Plan:
    kind: str                      # shell | script | pytest | module-file | excerpt | json | text
    commands: list[Command] = field(default_factory=list)
    ci_only: list[tuple[str, str]] = field(default_factory=list)  # (part, reason)
    file: str | None = None        # excerpt / written file name


# --------------------------------------------------------------------------- parsing

def parse_blocks(text: str, doc: str) -> list[Block]:
    """The fenced blocks (``` or ~~~, any length, matching close) of a Markdown text."""
    out: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)", lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3).lower()
        start = i + 1
        j = start
        while j < len(lines) and not re.match(rf"^\s*{re.escape(fence)}\s*$", lines[j]):
            j += 1
        if j == len(lines):
            raise Unclassified(f"{doc}:L{i + 1}: fence {fence!r} is never closed")
        out.append(Block(doc, start + 1, lang, "\n".join(lines[start:j]) + "\n"))
        i = j + 1
    return out


def split_comment(line: str) -> tuple[str, str]:
    """``(code, comment)``: a ``#`` outside quotes, at the start or after a blank, begins the
    comment."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                continue
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip(), line[k + 1:].strip()
    return line.rstrip(), ""


def split_and(code: str) -> list[str]:
    """``a && b`` → ``["a", "b"]`` (``&&`` inside quotes is kept)."""
    parts, quote, cur, k = [], None, "", 0
    while k < len(code):
        ch = code[k]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif code.startswith("&&", k):
            parts.append(cur.strip())
            cur, k = "", k + 2
            continue
        cur += ch
        k += 1
    parts.append(cur.strip())
    return [p for p in parts if p]


def shell_commands(block: Block) -> list[Command]:
    raw = block.text.splitlines()
    out: list[Command] = []
    i = 0
    while i < len(raw):
        first = i
        line = raw[i]
        if block.lang == "console":
            if not line.startswith("$ "):
                i += 1
                continue
            line = line[2:]
        while line.rstrip().endswith("\\") and i + 1 < len(raw):
            i += 1
            line = line.rstrip()[:-1].rstrip() + " " + raw[i].strip()
        i += 1
        code, comment = split_comment(line)
        if not code.strip():
            continue
        m = re.search(r"\bexit (\d+)\b", comment)
        out.append(Command(block.line + first, code.strip(), int(m.group(1)) if m else 0))
    return out


def ci_reason(part: str) -> str | None:
    for pattern, reason in CI_ONLY.items():
        if re.search(pattern, part):
            return reason
    return None


def _defs(tree: ast.Module) -> dict[str, ast.AST]:
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            out[node.targets[0].id] = node
    return out


def classify(block: Block) -> Plan:
    first = block.text.splitlines()[0] if block.text.strip() else ""
    header = FILE_HEADER.match(first)
    if block.lang in SHELL:
        plan = Plan("shell")
        for cmd in shell_commands(block):
            for part in split_and(cmd.text):
                reason = ci_reason(part)
                if reason is not None:
                    plan.ci_only.append((part, reason))
        plan.commands = shell_commands(block)
        if not plan.commands:
            raise Unclassified(f"{block.id}: a {block.lang} block without a command")
        return plan
    if block.lang in ("python", "py", "python3"):
        try:
            tree = ast.parse(block.text)
        except SyntaxError as exc:
            raise Unclassified(f"{block.id}: not Python ({exc})") from None
        if header and header.group("path").startswith("examples/"):
            return Plan("excerpt", file=header.group("path"))
        if any(isinstance(n, ast.FunctionDef) and n.name.startswith("test_") for n in tree.body):
            return Plan("pytest")
        if header:
            return Plan("module-file", file=header.group("path"))
        return Plan("script")
    if block.lang == "toml":
        if header and header.group("path").startswith("examples/"):
            return Plan("excerpt", file=header.group("path"))
        if header:
            return Plan("module-file", file=header.group("path"))
        raise Unclassified(f"{block.id}: a toml block must start with '# FILE.toml' "
                           f"(an excerpt of examples/FILE.toml or a file the reader creates)")
    if block.lang == "json":
        return Plan("json")
    if block.lang in ("", "text"):
        for k, line in enumerate(block.text.splitlines()):
            if COMMAND_START.match(line):
                raise Unclassified(f"{block.doc}:L{block.line + k}: {line.strip()!r} looks "
                                   f"like a command in an untagged block: tag it ```bash")
        return Plan("text")
    raise Unclassified(f"{block.id}: no rule for ```{block.lang} blocks (tests/docs/"
                       f"test_docs_run.py)")


def all_blocks() -> list[Block]:
    out: list[Block] = []
    for path in DOCS:
        out += parse_blocks(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return out


BLOCKS = all_blocks()


def slow_seconds(block: Block) -> float | None:
    hits = [sec for pattern, (sec, _) in SLOW.items()
            if re.search(pattern, block.text, flags=re.MULTILINE)]
    return max(hits) if hits else None


def optional_missing(block: Block) -> str | None:
    if block.lang not in ("python", "py", "python3"):
        return None
    try:
        tree = ast.parse(block.text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            top = name.split(".")[0]
            if top in OPTIONAL and find_spec(top) is None:
                return OPTIONAL[top]
    return None


# --------------------------------------------------------------------------- running

def environment(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith(("PYTEST_", "COV_CORE"))}
    bindir = str(Path(sys.executable).parent)
    path = [bindir]
    if shutil.which("privlab", path=bindir) is None:  # no console script: python -m privlab
        wrap = root / ".docs-bin"
        wrap.mkdir(exist_ok=True)
        (wrap / "privlab").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m privlab "$@"\n')
        (wrap / "privlab").chmod(0o755)
        path.insert(0, str(wrap))
    env["PATH"] = os.pathsep.join([*path, env.get("PATH", "")])
    closed = "http://127.0.0.1:9"  # discard port: any HTTP(S) access fails at once
    for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
              "all_proxy"):
        env[k] = closed
    env.pop("NO_PROXY", None)
    env.pop("no_proxy", None)
    env["PIP_NO_INDEX"] = "1"
    env["MPLBACKEND"] = "Agg"
    return env


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str,
                                                                                   str, float]:
    """``(exit status, stdout, stderr, seconds)``; the process group is killed on timeout."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{argv[-1]!r} did not finish in {timeout:.0f} s (killed)\n{err[-3000:]}")
    try:  # no stray workers: whatever the command left in its group goes
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return proc.returncode, out, err, time.monotonic() - t0


def _report(block: Block, what: str, rc: int, want: int, out: str, err: str,
            seconds: float) -> str:
    return (f"{block.id}: {what!r} exited {rc}, expected {want} ({seconds:.1f} s)\n"
            f"--- stdout (tail)\n{out[-2000:]}\n--- stderr (tail)\n{err[-3000:]}")


def excerpt_problems(block: Block, shipped: Path) -> list[str]:
    """What in the block differs from the shipped file (empty when it is a faithful excerpt)."""
    if not shipped.is_file():
        return [f"{block.id}: {shipped.relative_to(ROOT)} does not exist"]
    if shipped.suffix == ".py":
        def norm(node: ast.AST) -> str:
            node = ast.parse(ast.unparse(node)).body[0]  # a copy
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.body and isinstance(
                    node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None),
                                                           ast.Constant):
                node.body = node.body[1:] or [ast.Pass()]
            return ast.dump(node)

        shown = _defs(ast.parse(block.text))
        have = _defs(ast.parse(shipped.read_text(encoding="utf-8")))
        if not shown:
            return [f"{block.id}: the excerpt defines nothing"]
        return [f"{block.id}: {name!r} is not in {shipped.name}" if name not in have else
                f"{block.id}: {name!r} differs from {shipped.name}'s"
                for name, node in shown.items()
                if name not in have or norm(node) != norm(have[name])]
    shown_t = tomllib.loads(block.text)
    have_t = tomllib.loads(shipped.read_text(encoding="utf-8"))
    problems = []
    for key, value in shown_t.items():
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            entries = {e.get("name"): e for e in have_t.get(key, [])}
            for v in value:
                if entries.get(v.get("name")) != v:
                    problems.append(f"{block.id}: [[{key}]] {v.get('name')!r} differs from "
                                    f"{shipped.name}'s: {entries.get(v.get('name'))!r}")
        elif isinstance(value, dict):
            for k, v in value.items():
                if have_t.get(key, {}).get(k) != v:
                    problems.append(f"{block.id}: [{key}] {k} = {v!r}, "
                                    f"{shipped.name} has {have_t.get(key, {}).get(k)!r}")
        elif have_t.get(key) != value:
            problems.append(f"{block.id}: {key} = {value!r}, {shipped.name} has "
                            f"{have_t.get(key)!r}")
    return problems


def files_before(block: Block, page: list[Block]) -> list[tuple[str, str]]:
    """The files the reader creates in ``block``'s document before it (``# NAME.py`` blocks)."""
    out = []
    for b in page:
        if b.doc == block.doc and b.line < block.line:
            plan = classify(b)
            if plan.kind == "module-file" and plan.file is not None:
                out.append((plan.file, b.text))
    return out


def run_block(block: Block, root: Path, timeout: float = TIMEOUT,
              page: list[Block] | None = None) -> list[tuple[str, float]]:
    """Run one block in ``root`` (prepared by :func:`prepare`; ``page``: the blocks of its
    document, default all of README and docs); fail with the command, its exit status and
    output.  Returns (what, seconds) per command run."""
    plan = classify(block)
    env = environment(root)
    for name, text in files_before(block, BLOCKS if page is None else page):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    times: list[tuple[str, float]] = []
    if plan.kind == "shell":
        cwd = root
        for cmd in plan.commands:
            parts = split_and(cmd.text)
            for k, part in enumerate(parts):
                if ci_reason(part) is not None:
                    continue
                want = cmd.expect if k == len(parts) - 1 else 0
                m = re.fullmatch(r"cd\s+(\S+)", part)
                if m:
                    cwd = (cwd / m.group(1)).resolve()
                    assert cwd.is_dir(), f"{block.doc}:L{cmd.line}: {part!r}: no such folder"
                    continue
                rc, out, err, sec = run(["bash", "-o", "pipefail", "-c", part], cwd, env,
                                        timeout)
                times.append((part, sec))
                assert rc == want, _report(Block(block.doc, cmd.line, block.lang, ""), part,
                                           rc, want, out, err, sec)
        return times
    if plan.kind in ("script", "pytest", "module-file"):
        if plan.kind == "module-file" and plan.file is not None and plan.file.endswith(".toml"):
            tomllib.loads(block.text)
            return times
        name = (plan.file if plan.kind == "module-file" else
                f"{'test_' if plan.kind == 'pytest' else ''}docblock_L{block.line}.py")
        path = root / str(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block.text, encoding="utf-8")
        argv = ([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                 "no:randomly", path.name] if plan.kind == "pytest" else
                [sys.executable, path.name])
        rc, out, err, sec = run(argv, path.parent, env, timeout)
        times.append((plan.kind, sec))
        assert rc == 0, _report(block, " ".join(argv[1:]), rc, 0, out, err, sec)
        return times
    if plan.kind == "excerpt":
        assert plan.file is not None
        problems = excerpt_problems(block, ROOT / plan.file)
        assert not problems, "\n".join(problems)
        return times
    if plan.kind == "json":
        json.loads(re.sub(r",\s*\.\.\.\s*(?=[}\]])", "", block.text))
        return times
    assert plan.kind == "text"
    return times


def prepare(root: Path) -> Path:
    shutil.copytree(ROOT / "examples", root / "examples",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


# --------------------------------------------------------------------------- the tests

def _param(block: Block):
    marks = []
    sec = slow_seconds(block)
    if sec is not None:
        marks.append(pytest.mark.slow)
    return pytest.param(block, id=block.id, marks=marks)


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_doc_block_runs(block: Block, tmp_path: Path) -> None:
    """The block does what the text around it says: its commands exit as stated, its scripts
    and test files run, its excerpts match the shipped examples."""
    try:
        plan = classify(block)
    except Unclassified as exc:
        pytest.fail(str(exc))
    reason = optional_missing(block)
    if reason is not None:
        pytest.skip(reason)
    if plan.kind == "shell" and not [c for c in plan.commands
                                     if any(ci_reason(p) is None for p in split_and(c.text))]:
        pytest.skip("CI-only: " + "; ".join(f"{p!r}: {r}" for p, r in plan.ci_only))
    timeout = SLOW_TIMEOUT if slow_seconds(block) is not None else TIMEOUT
    for what, sec in run_block(block, prepare(tmp_path), timeout):
        print(f"{sec:7.2f} s  {what}")  # shown with -rP: the measured times of SLOW


def test_every_block_is_classified() -> None:
    """No fenced block falls outside the rules of the module docstring."""
    problems = []
    for b in BLOCKS:
        try:
            classify(b)
        except Unclassified as exc:
            problems.append(str(exc))
    assert not problems, "\n".join(problems)


def test_every_fence_is_parsed() -> None:
    """The parser sees every block: its count equals the number of opening fences counted
    independently (a line of three or more backticks/tildes, every other one opening)."""
    for path in DOCS:
        fences = [ln for ln in path.read_text(encoding="utf-8").splitlines()
                  if re.match(r"^\s*(```|~~~)", ln)]
        assert len(fences) % 2 == 0, path
        assert len([b for b in BLOCKS if b.doc == str(path.relative_to(ROOT))]) == \
            len(fences) // 2, path
    assert {b.doc for b in BLOCKS} >= {"README.md", "docs/auditing-your-mechanism.md"}


SYNTHETIC = """\
text
```bash
privlab audit --help    # exit 0
python3 -c 'import sys; sys.exit(3)'   # exit 3
python3 -m venv .venv && . .venv/bin/activate
cd examples
python3 -c 'import mymechs'   # MODULE beside the cwd
```
```console
$ python3 -c 'print(1)'
1
```
```python
# helper_x.py
VALUE = 41
```
```python
from helper_x import VALUE
assert VALUE + 1 == 42
```
```python
def test_one():
    assert 1 + 1 == 2
```
```python
# examples/mymechs.py
def good_laplace(x):
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)
```
```toml
# examples/suite.toml
[suite]
alpha = 0.01
```
```json
{"a": 1, ...}
```
```
 7  cli.py      a diagram
```
"""


def test_rules_on_a_synthetic_page(tmp_path: Path) -> None:
    """The rules of the module docstring, on a page with one block of each kind: the runs that
    must pass pass, and each way of being wrong fails (so the test itself can fail)."""
    blocks = parse_blocks(SYNTHETIC, "synthetic.md")
    kinds = [classify(b).kind for b in blocks]
    assert kinds == ["shell", "shell", "module-file", "script", "pytest", "excerpt", "excerpt",
                     "json", "text"]
    sh = classify(blocks[0])
    assert [c.expect for c in sh.commands] == [0, 3, 0, 0, 0]
    assert [p for p, _ in sh.ci_only] == ["python3 -m venv .venv", ". .venv/bin/activate"]
    assert [c.text for c in classify(blocks[1]).commands] == ["python3 -c 'print(1)'"]
    for b in blocks:
        root = tmp_path / f"L{b.line}"
        root.mkdir()
        run_block(b, prepare(root), timeout=120, page=blocks)
    # a wrong exit status, a wrong excerpt (Python, TOML), a failing script
    wrong = [Block("s.md", 1, "bash", "python3 -c 'import sys; sys.exit(3)'\n"),
             Block("s.md", 1, "python", "# examples/mymechs.py\ndef good_laplace(x):\n"
                                        "    return lambda n, rng: x\n"),
             Block("s.md", 1, "toml", "# examples/suite.toml\n[suite]\nalpha = 0.5\n"),
             Block("s.md", 1, "python", "raise SystemExit(1)\n")]
    for k, b in enumerate(wrong):
        root = tmp_path / f"wrong{k}"
        root.mkdir()
        with pytest.raises(AssertionError):
            run_block(b, prepare(root), timeout=120, page=[b])
    for lang, text in (("mermaid", "graph\n"), ("", "privlab verify\n"), ("toml", "a = 1\n")):
        with pytest.raises(Unclassified):
            classify(Block("s.md", 1, lang, text))
