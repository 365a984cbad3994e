"""``privlab`` command line: the commands of DESIGN.md §4.

Every command accepts ``--format table|json``; JSON goes to stdout alone, progress to stderr.
Exit codes: 0 success, 1 a guarantee privlab makes does not hold, 2 bad usage or input (one line
``error: …`` on stderr naming the parameter and value, never a traceback).  Click's usage errors
are printed as one line too; an unreadable or unwritable file is ``error: <path>: <reason>``;
an interrupt (SIGINT, SIGTERM) removes the temp files and exits 130 (``error: interrupted``) /
143 (``error: terminated``); one that arrives while files are being published takes effect
right after the publish (:func:`privlab._io.publish`).  An unexpected exception is a bug: it is
reported as ``error: internal error (Type: message); please report`` (exit 2), with the
traceback only when ``PRIVLAB_DEBUG=1``.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence

import click

from privlab._data import ENV as DATA_ENV
from privlab._data import configure_hypothesis, restore_hypothesis
from privlab._io import Terminated, terminate_as_exit
from privlab.commands._common import EXIT_USAGE
from privlab.errors import PrivlabError


def _core(name: str) -> click.Command:
    from privlab.commands import core

    return getattr(core, name)


def _certify() -> click.Command:
    from privlab.commands import core, microaggregation, refinement, tcloseness
    from privlab.commands import dp_release as dp

    _mount(core.certify, refinement.certify_refinement, dp.certify_dp_release,
           tcloseness.certify_t_closeness, tcloseness.certify_stochastic_t)
    microaggregation.mount(dp.release_dp, core.certify)
    return core.certify


def _release() -> click.Command:
    from privlab.commands import core, microaggregation, tcloseness
    from privlab.commands import dp_release as dp

    _mount(dp.release_dp, tcloseness.release_t_closeness)
    microaggregation.mount(dp.release_dp, core.certify)
    return dp.release_dp


def _mount(group: click.Group, *commands: click.Command) -> None:
    for c in commands:
        if c.name not in group.commands:
            group.add_command(c)


def _attr(module: str, name: str) -> click.Command:
    import importlib

    return getattr(importlib.import_module(f"privlab.commands.{module}"), name)


#: name -> (loader, one-line help).  Command modules are imported only when their command runs
#: (or its --help is asked for), so that ``privlab --help`` imports no engine (no scipy, numba,
#: matplotlib); the help lines here are checked against the commands' own in the tests.
COMMANDS: dict[str, tuple[Callable[[], click.Command], str]] = {
    "verify": (lambda: _core("verify"), "Run the whole lab on its default workload and write "
               "the report."),
    "claims": (lambda: _core("claims"), "List the claim ledger (status, evidence)."),
    "table": (lambda: _core("table"), "Print a reproduced table of the papers."),
    "certify": (_certify, "Certificates of parameter choices (exact checks)."),
    "release": (_release, "Anonymise a CSV and write OUTPUT.cert.json beside it."),
    "session": (lambda: _attr("refinement", "session"), "Interactive Protocol 1/2 sessions "
                "(JSON lines on stdin)."),
    "audit": (lambda: _attr("audit", "audit"), "Black-box epsilon/delta lower bounds with a "
              "replayable counterexample."),
    "audit-suite": (lambda: _attr("audit_suite", "audit_suite"), "Audit suites of your own "
                    "mechanisms (a TOML file)."),
    "errata": (lambda: _attr("errata", "errata"), "Errata sheet of one paper (refuted claims "
               "with corrections)."),
    "taxonomy": (lambda: _attr("taxonomy", "taxonomy"), "Show the shipped taxonomies (tree, "
                 "concept count, source)."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (see :data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        return entry[0]() if entry is not None else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, hlp) for name, (_, hlp) in COMMANDS.items()])


@click.group(cls=LazyGroup,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="privlab", prog_name="privlab")
def cli() -> None:
    """privlab — verification and simulation lab for privacy mechanisms.

    Start with `privlab verify` (the whole lab on its default workload, report in
    reports/latest/).
    """


SUBCOMMANDS: dict[tuple[str, str], Callable[[], click.Command]] = {
    ("audit", "dp-release"): lambda: _attr("dp_release", "audit_dp_release"),
}
"""Commands reached as ``privlab A B …`` although ``A`` is a single command, not a group."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _usage_line(exc: click.ClickException) -> str:
    msg = _one_line(exc.format_message())
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        return f"error: {ctx.command_path}: {msg} (see {ctx.command_path} --help)"
    return f"error: {msg}"


EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status after SIGINT (130), as a shell reports a process its SIGINT ended."""
EXIT_TERMINATED = 128 + signal.SIGTERM
"""Exit status after SIGTERM (143)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the CLI; every error becomes one ``error: …`` line (never a traceback)."""
    args = list(argv) if argv is not None else sys.argv[1:]
    cmd: click.Command = cli
    prog = "privlab"
    if tuple(args[:2]) in SUBCOMMANDS:
        cmd, prog, args = SUBCOMMANDS[args[0], args[1]](), f"privlab {args[0]} {args[1]}", args[2:]
    old_term = signal.getsignal(signal.SIGTERM)
    old_data = os.environ.get(DATA_ENV)  # --data-dir exports it for the run's workers
    terminate_as_exit()
    hypothesis_home = configure_hypothesis()
    try:
        cmd.main(args=args, prog_name=prog, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        exc.show()  # the help text, as asked for by giving no arguments
        return EXIT_USAGE
    except click.ClickException as exc:
        click.echo(_usage_line(exc), err=True)
        return EXIT_USAGE
    except click.Abort as exc:
        if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
            click.echo("error: interrupted", err=True)  # click's Abort of a SIGINT
            return EXIT_INTERRUPTED
        click.echo("error: aborted", err=True)
        return EXIT_USAGE
    except PrivlabError as exc:
        click.echo(f"error: {_one_line(str(exc))}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        click.echo("error: interrupted", err=True)
        return EXIT_INTERRUPTED
    except Terminated as exc:
        click.echo("error: terminated", err=True)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_TERMINATED
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    except UnicodeDecodeError as exc:
        click.echo(f"error: a file is not UTF-8 text ({_one_line(str(exc))})", err=True)
        return EXIT_USAGE
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or _one_line(str(exc))}", err=True)
        return EXIT_USAGE
    except Exception as exc:  # a bug: one line for the user, the traceback on request
        if os.environ.get("PRIVLAB_DEBUG") == "1":
            raise
        click.echo(f"error: internal error ({type(exc).__name__}: {_one_line(str(exc))}); "
                   "please report", err=True)
        return EXIT_USAGE
    finally:
        restore_hypothesis(hypothesis_home)
        if old_data is None:
            os.environ.pop(DATA_ENV, None)
        else:
            os.environ[DATA_ENV] = old_data
        if old_term is not None:
            try:
                signal.signal(signal.SIGTERM, old_term)
            except (ValueError, OSError):  # pragma: no cover - not the main thread
                pass
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
