"""``privlab`` command line: the commands of DESIGN.md §4.

Every command accepts ``--format table|json``; JSON goes to stdout alone, progress to stderr.
Exit codes: 0 success, 1 a guarantee privlab makes does not hold, 2 bad usage or input (one line
``error: …`` on stderr naming the parameter and value, never a traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from privlab import __version__
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the CLI and turn privlab's errors into exit code 2 without traceback."""
    args = list(argv) if argv is not None else sys.argv[1:]
    cmd: click.Command = cli
    prog = "privlab"
    if tuple(args[:2]) in SUBCOMMANDS:
        cmd, prog, args = SUBCOMMANDS[args[0], args[1]], f"privlab {args[0]} {args[1]}", args[2:]
    try:
        cmd.main(args=args, prog_name=prog, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except click.Abort:
        click.echo("aborted", err=True)
        return EXIT_USAGE
    except PrivlabError as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_USAGE
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
