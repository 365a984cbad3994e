"""``privlab`` command line: the commands of DESIGN.md §4.

Every command accepts ``--format table|json``; JSON goes to stdout alone, progress to stderr.
Exit codes: 0 success, 1 a guarantee privlab makes does not hold, 2 bad usage or input (one line
``error: …`` on stderr naming the parameter and value, never a traceback).  Click's usage errors
are printed as one line too; an unreadable or unwritable file is ``error: <path>: <reason>``;
an interrupt (SIGINT, SIGTERM) removes the temp files and exits 130 / 143.  An unexpected
exception is a bug: it is reported as ``error: internal error (Type: message); please report``
(exit 2), with the traceback only when ``PRIVLAB_DEBUG=1``.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence

import click

from privlab import __version__
from privlab._data import configure_hypothesis
from privlab._io import terminate_as_exit
from privlab.commands import audit as audit_cmds
from privlab.commands import audit_suite as audit_suite_cmds
from privlab.commands import core
from privlab.commands import dp_release as dp_release_cmds
from privlab.commands import errata as errata_cmds
from privlab.commands import microaggregation as microagg_cmds
from privlab.commands import refinement as refinement_cmds
from privlab.commands import tcloseness as tclose_cmds
from privlab.commands._common import EXIT_USAGE
from privlab.errors import PrivlabError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="privlab")
def cli() -> None:
    """privlab — verification and simulation lab for privacy mechanisms.

    Start with `privlab verify` (the whole lab on its default workload, report in
    reports/latest/).
    """


cli.add_command(core.verify)
cli.add_command(core.claims)
cli.add_command(core.table)
cli.add_command(core.certify)
core.certify.add_command(refinement_cmds.certify_refinement)
core.certify.add_command(dp_release_cmds.certify_dp_release)
cli.add_command(dp_release_cmds.release_dp)
core.certify.add_command(tclose_cmds.certify_t_closeness)
core.certify.add_command(tclose_cmds.certify_stochastic_t)
dp_release_cmds.release_dp.add_command(tclose_cmds.release_t_closeness)
microagg_cmds.mount(dp_release_cmds.release_dp, core.certify)
cli.add_command(refinement_cmds.session)
cli.add_command(audit_cmds.audit)
cli.add_command(audit_suite_cmds.audit_suite)
cli.add_command(errata_cmds.errata)


SUBCOMMANDS: dict[tuple[str, str], click.Command] = {
    ("audit", "dp-release"): dp_release_cmds.audit_dp_release,
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


def _restore_hypothesis(previous: object) -> None:
    from hypothesis import configuration

    configuration.set_hypothesis_home_dir(previous)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the CLI; every error becomes one ``error: …`` line (never a traceback)."""
    args = list(argv) if argv is not None else sys.argv[1:]
    cmd: click.Command = cli
    prog = "privlab"
    if tuple(args[:2]) in SUBCOMMANDS:
        cmd, prog, args = SUBCOMMANDS[args[0], args[1]], f"privlab {args[0]} {args[1]}", args[2:]
    old_term = signal.getsignal(signal.SIGTERM)
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
    except click.Abort:
        click.echo("error: aborted", err=True)
        return EXIT_USAGE
    except PrivlabError as exc:
        click.echo(f"error: {_one_line(str(exc))}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        click.echo("error: interrupted", err=True)
        return 130
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
        _restore_hypothesis(hypothesis_home)
        if old_term is not None:
            try:
                signal.signal(signal.SIGTERM, old_term)
            except (ValueError, OSError):  # pragma: no cover - not the main thread
                pass
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
