"""``privlab audit-suite``: run a TOML file of audits of the user's own mechanisms.

    privlab audit-suite check SUITE.toml [--format table|json] [--timeout S] [--allow-outside]
    privlab audit-suite run SUITE.toml [--out DIR] [--format table|json|junit] [--alpha A]
                            [--samples N] [--only NAME]… [--workers W] [--scheduler ADDRESS]
                            [--timeout S] [--allow-outside] [--force]

The file format and the error control (one family-wise budget, violations confirmed on fresh
samples) are described in :mod:`privlab.audit.usersuite` and docs/auditing-your-mechanism.md.
``--out DIR`` writes ``suite.json``, ``suite.md`` (findings first), ``junit.xml`` and
``counterexamples/FILE.json`` (replayable with ``privlab audit --replay``; FILE is the audit's
name when it is made of letters, digits and ``._-``, else those characters with every other one
replaced by ``_`` and a hash of the name appended, so that two audits never share a file); only
these files are written or replaced, nothing else in DIR is touched.  They must be regular files
(``counterexamples`` a folder) and, when they exist, a previous run's outputs (a ``suite.json``
written by ``audit-suite run``): foreign files under these names are refused unless
``--force`` (checked before any audit runs; nothing written).

Workers: each audit draws on all cores unless ``--workers W`` — the rule of every command
(the Python API draws in one process unless asked; :mod:`privlab.audit.mechanism`, "Workers");
the result does not depend on the number.  A sampler that ignores ``rng`` gets one ``warning:``
line on stderr (``check`` and ``run``) unless its audit says ``seedable = false``.

The user's code runs only in contained child processes, each step of an audit under its
``timeout`` (``--timeout`` sets the default for audits without their own; 3600 s unless the
file's ``[suite] timeout`` says otherwise).  References and input files stay inside the suite
file's folder unless ``--allow-outside``.

Every reference is imported and checked before any audit runs: bad references (all of them,
in one ``error: …`` line) are bad usage and nothing runs or is written.  An audit that raises,
exits (``sys.exit``, ``os._exit``), crashes, is killed, times out or returns non-finite outputs
while it runs is reported, not fatal: verdict ``error`` in ``suite.json`` with a one-line
message naming it, an ``<error>`` entry in ``junit.xml``; the other audits still run, the files
are written, and the run ends with one ``error: …`` line and exit 2.  JUnit carries ``time``
and ``timestamp`` and, per audit, ``classname`` ``privlab.audit_suite.STEM`` (STEM: the suite
file's name without ``.toml``) and ``time``.  ``suite.md`` escapes every text that comes from
the suite (names, references, messages) for Markdown and HTML; ``junit.xml`` drops characters
XML cannot hold.

Exit status: 0 every audit has its expected verdict (``expect``, default "consistent"), 1 an
audit that ran does not (the report is written), 2 an audit has no verdict (report written) or
bad usage: a bad suite file or bad references (one ``error: …`` line, nothing run, nothing
written).
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import stat
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    emit,
    exit_with,
    format_option,
    progress,
)


@click.group("audit-suite")
def audit_suite() -> None:
    """Audit suites of your own mechanisms (a TOML file; see docs/auditing-your-mechanism.md)."""


timeout_option = click.option(
    "--timeout", type=float, default=None, metavar="SECONDS",
    help="Longest each step of an audit without its own timeout may take (default: the "
         "file's [suite] timeout, else 3600); past it the audit is an error.")
allow_outside_option = click.option(
    "--allow-outside", is_flag=True,
    help="Let references and input files lie outside the suite file's folder.")


@audit_suite.command("check")
@click.argument("suite", type=str)
@format_option
@timeout_option
@allow_outside_option
def check(suite: str, fmt: str, timeout: float | None, allow_outside: bool) -> None:
    """Validate SUITE: keys, references importable, samplers return outputs of the right shape.

    Exit 0 when all is well; 2 with one ``error: …`` line naming every bad reference."""
    from privlab.audit.usersuite import check_suite, load_suite

    s = load_suite(suite, timeout=timeout, allow_outside=allow_outside)
    rows = check_suite(s)
    d = {"suite": s.name, "path": s.path, "ok": True, "audits": rows}
    emit(d, fmt, lambda: "\n".join(f"{r['name']}: {r['kind']} {r['reference']} ok"
                                   for r in rows))
    exit_with(EXIT_OK)


@audit_suite.command("run")
@click.argument("suite", type=str)
@click.option("--out", "out", type=str, default=None,
              help="Directory for suite.json, suite.md, junit.xml and counterexamples/.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "junit"]), default="table",
              show_default=True, help="What goes to stdout.")
@click.option("--alpha", type=float, default=None,
              help="Family-wise false-alarm budget of the run (default: the file's, else 0.01).")
@click.option("--samples", type=int, default=None,
              help="Default outputs per side for audits that do not set their own.")
@click.option("--only", "only", multiple=True, help="Run only these audits (repeatable).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes per audit (default: all cores, as for privlab audit; the "
                   "same result for any number).")
@click.option("--scheduler", type=str, default=None, help="Dask scheduler address.")
@click.option("--force", is_flag=True,
              help="Replace suite.json, suite.md, junit.xml and counterexamples/ in --out DIR "
                   "even when they were not written by audit-suite run.")
@timeout_option
@allow_outside_option
def run(suite: str, out: str | None, fmt: str, alpha: float | None, samples: int | None,
        only: tuple[str, ...], workers: int | None, scheduler: str | None, force: bool,
        timeout: float | None, allow_outside: bool) -> None:
    """Run every audit of SUITE under one family-wise error budget.

    References are all checked first (bad ones: exit 2, nothing run or written).  An audit that
    raises, exits, crashes or times out is reported as an error (JUnit <error>, verdict "error"
    in suite.json) and the others still run.  Exit 0 every audit has its expected verdict; 1
    an audit that ran does not (report written); 2 an audit has no verdict (report written) or
    bad usage."""
    from privlab.audit.usersuite import load_suite, run_suite_file

    s = load_suite(suite, alpha=alpha, samples=samples, timeout=timeout,
                   allow_outside=allow_outside)
    if out is not None:
        check_out(Path(out), force=force)
    res = run_suite_file(s, workers=workers, scheduler=scheduler, names=only or None,
                         progress=progress)
    d = res.to_dict()
    if out is not None:
        write_outputs(Path(out), d)
        progress(f"wrote {out}/suite.json, suite.md, junit.xml, counterexamples/")
    if fmt == "junit":
        click.echo(junit_xml(d))
    else:
        emit(d, fmt, lambda: markdown(d))
    if res.errors:
        names = ", ".join(repr(r["name"]) for r in res.errors)
        click.echo(f"error: {len(res.errors)} audit(s) have no verdict ({names}): they raised, "
                   f"exited, crashed or timed out; see the report", err=True)
        exit_with(EXIT_USAGE)
    exit_with(EXIT_FAILED if res.exit_code else EXIT_OK)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#|~])")


def md(x: Any) -> str:
    """Any text from the suite (names, references, messages, inputs) as inert Markdown: one
    line, ``&``, ``<``, ``>`` as HTML entities (no raw HTML, no autolinks) and every character
    Markdown gives a meaning to inside a line (``\\ ` * _ { } [ ] ( ) # | ~``)
    backslash-escaped, so that it shows as written, also inside a table cell (the text never
    starts a line, so ``-``, ``+`` and ``1.`` cannot start a list)."""
    text = " ".join(str(x).split())
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def _line(r: dict[str, Any]) -> dict[str, Any]:
    eps = r["epsilon_lower_bound"]
    return {"audit": md(r["name"]), "claimed ε": r["claimed_epsilon"], "δ": r["delta"],
            "ε lower bound": "" if eps is None else eps, "verdict": md(r["verdict"]),
            "expected": md(r["expect"]), "ok": "yes" if r["as_expected"] else "NO",
            "structural": "yes" if r["structural_leak"] else ""}


def markdown(d: dict[str, Any]) -> str:
    """The suite report, findings first (audits whose verdict is not the expected one); every
    text from the suite escaped (:func:`md`)."""
    fails = [r for r in d["results"] if not r["as_expected"]]
    head = [f"# Audit suite {md(d['suite'])}", "",
            f"**{'FAIL' if fails else 'PASS'}**: {len(d['results']) - len(fails)} of "
            f"{len(d['results'])} audits have their expected verdict"
            + (f" ({len(d.get('errors', []))} have none: they raised, exited, crashed or timed "
               f"out)." if d.get("errors") else "."), "",
            f"Error control: family-wise false-alarm budget α = {d['alpha']:g} over "
            f"{d['audits']} audits ({d['error_control']}; {d['level_per_audit']:.3g} each).", ""]
    if fails:
        head += ["## Findings", ""]
        for r in fails:
            if r["verdict"] == "error":
                head.append(f"- **{md(r['name'])}** ({md(r['reference'])}): no verdict "
                            f"(the audit raised, exited, crashed or timed out): "
                            f"{md(r['error'])}")
                continue
            cex = r.get("counterexample") or {}
            head.append(f"- **{md(r['name'])}** ({md(r['reference'])}): verdict "
                        f"{md(r['verdict'])}, expected {md(r['expect'])}; ε lower bound "
                        f"{r['epsilon_lower_bound']:.4g} against the claim "
                        f"{r['claimed_epsilon']:g} on inputs {md(r['pair'])} "
                        f"(event: {md(cex.get('feature'))} {md(cex.get('event'))}); replay: "
                        "`privlab audit --replay counterexamples/"
                        f"{counterexample_file(r['name'])} --allow-code`")
        head.append("")
    head += ["## All audits", "", _md_table([_line(r) for r in d["results"]])]
    return "\n".join(head) + "\n"


def _md_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "(none)"
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(f"{r[c]:.4g}" if isinstance(r[c], float) else str(r[c])
                                     for c in cols) + " |")
    return "\n".join(out)


def classname(path: str) -> str:
    """The JUnit ``classname`` of a suite file's audits: ``privlab.audit_suite.STEM``."""
    return "privlab.audit_suite." + (re.sub(r"[^A-Za-z0-9_]", "_", Path(path).stem) or "suite")


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_safe(x: Any) -> Any:
    """``x`` with the characters XML 1.0 cannot hold (control characters, lone surrogates)
    written as ``?`` — strings only; other values as they are."""
    return _NOT_XML.sub("?", x) if isinstance(x, str) else x


def junit_xml(d: dict[str, Any]) -> str:
    """JUnit XML: one testcase per audit, a failure when the verdict is not the expected one,
    an error when the audit has no verdict; run time and start (UTC) on the testsuite.  Text
    from the suite is escaped by the XML writer and stripped of characters XML cannot hold."""
    d = _sanitised(d)
    errors = [r for r in d["results"] if r["verdict"] == "error"]
    fails = [r for r in d["results"] if not r["as_expected"] and r["verdict"] != "error"]
    ts = ET.Element("testsuite", name=f"privlab audit-suite {d['suite']}",
                    tests=str(len(d["results"])), failures=str(len(fails)),
                    errors=str(len(errors)), skipped="0", time=f"{d.get('seconds', 0.0):.3f}",
                    timestamp=str(d.get("started", ""))[:19])
    props = ET.SubElement(ts, "properties")
    ET.SubElement(props, "property", name="alpha", value=repr(d["alpha"]))
    ET.SubElement(props, "property", name="error_control", value=d["error_control"])
    cls = classname(d["path"])
    for r in d["results"]:
        tc = ET.SubElement(ts, "testcase", classname=cls, name=r["name"],
                           time=f"{r.get('seconds', 0.0):.3f}")
        if r["verdict"] == "error":
            ET.SubElement(tc, "error", message=r["error"], type=r["error_type"]).text = (
                f"{r['kind']} {r['reference']}: {r['error']}")
        elif not r["as_expected"]:
            f = ET.SubElement(tc, "failure", message=(
                f"verdict {r['verdict']} (expected {r['expect']}): epsilon lower bound "
                f"{r['epsilon_lower_bound']:.6g} vs claimed {r['claimed_epsilon']:g}"))
            f.text = _dumps(r.get("counterexample"))
        else:
            ET.SubElement(tc, "system-out").text = (
                f"epsilon lower bound {r['epsilon_lower_bound']:.6g} "
                f"(confidence {r['confidence']:.6g}); verdict {r['verdict']}")
    ET.indent(ts)
    return ET.tostring(ts, encoding="unicode", xml_declaration=True) + "\n"


def _sanitised(x: Any) -> Any:
    if isinstance(x, dict):
        return {_xml_safe(k): _sanitised(y) for k, y in x.items()}
    if isinstance(x, list | tuple):
        return [_sanitised(y) for y in x]
    return _xml_safe(x)


def _dumps(x: Any) -> str:
    from privlab._io import dumps

    return dumps(x)


def write_outputs(out: Path, d: dict[str, Any]) -> None:
    """suite.json, suite.md, junit.xml and one replayable counterexample per audit with one,
    written as one unit (:func:`privlab._io.atomic_write_group`): after any interruption
    ``out`` holds the previous run's outputs or this run's, never a mix."""
    from privlab._io import atomic_write_group, json_bytes

    files: dict[Path, bytes] = {}
    for r in d["results"]:
        if r.get("counterexample"):
            files[out / "counterexamples" / counterexample_file(r["name"])] = json_bytes(
                {"counterexample": r["counterexample"]})
    files[out / "suite.md"] = markdown(d).encode("utf-8")
    files[out / "junit.xml"] = junit_xml(d).encode("utf-8")
    files[out / "suite.json"] = json_bytes(d)
    atomic_write_group(list(files.items()))


def safe_name(name: str) -> str:
    """An audit name as a file name (letters, digits, ``._-``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def counterexample_file(name: str) -> str:
    """The file name of an audit's counterexample: ``NAME.json`` when NAME is made of letters,
    digits and ``._-`` only, else :func:`safe_name` plus ``-`` and 10 hex digits of the SHA-256
    of NAME — distinct names (``a/b``, ``a_b``) never share a file."""
    safe = safe_name(name)
    if safe == name and name not in ("", ".", ".."):
        return f"{name}.json"
    return f"{safe}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:10]}.json"


OWNED_FILES = ("suite.json", "suite.md", "junit.xml")
_SUITE_KEYS = frozenset({"suite", "alpha", "audits", "error_control", "results"})


def _is_suite_json(path: Path) -> bool:
    from privlab import _input
    from privlab.errors import InvalidParameter

    try:
        doc = _input.load_json(path, "--out suite.json")
    except InvalidParameter:
        return False
    return isinstance(doc, dict) and _SUITE_KEYS <= doc.keys()


def check_out(out: Path, *, force: bool = False) -> None:
    """Refuse an ``--out DIR`` that ``run`` may not write into, before any audit runs.

    Refused always: DIR a non-folder, an owned name that is not a regular file (a folder, FIFO,
    device node…; ``counterexamples`` must be a folder).  Refused unless ``force``: an owned
    name that exists while DIR holds no ``suite.json`` written by ``audit-suite run`` (a file
    privlab did not write).  Other files in DIR are never looked at."""
    from privlab.errors import InvalidParameter

    shown = f"--out={str(out)!r}"
    try:
        mode = os.stat(out).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise InvalidParameter(f"{shown} cannot be examined: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise InvalidParameter(f"{shown} is not a folder")
    present: list[str] = []
    for name, want_dir in [*((f, False) for f in OWNED_FILES), ("counterexamples", True)]:
        try:
            m = os.stat(out / name).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise InvalidParameter(f"{shown}: {name} cannot be examined: "
                                   f"{exc.strerror or exc}") from None
        if not (stat.S_ISDIR(m) if want_dir else stat.S_ISREG(m)):
            what = "a folder" if want_dir else "a regular file"
            raise InvalidParameter(f"{shown}: {name} exists and is not {what}; nothing written")
        present.append(name)
    if present and not force and not _is_suite_json(out / "suite.json"):
        raise InvalidParameter(f"{shown}: {', '.join(present)} exist(s) and were not written "
                               "by audit-suite run (no suite.json of a previous run); use "
                               "--force to replace them, or choose another DIR; nothing "
                               "written")
