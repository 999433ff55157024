"""Entry point of the ``trustmh`` command."""

from __future__ import annotations

import os
import sys

import typer

from trustmh.cli import align as align_commands
from trustmh.cli import audit as audit_commands
from trustmh.cli import bulk as bulk_commands
from trustmh.cli import data as data_commands
from trustmh.cli import evaluate as evaluate_commands
from trustmh.cli import gate as gate_commands
from trustmh.cli import judgecheck as judgecheck_commands
from trustmh.cli import labels as labels_commands
from trustmh.cli import report as report_commands
from trustmh.cli import reproduce as reproduce_commands
from trustmh.cli.common import TrustmhGroup, readable_help, version_callback

app = typer.Typer(
    name="trustmh",
    help="How far can a language model be trusted in mental-health settings?\n\nExample: trustmh run --limit 5",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=TrustmhGroup,
)

app.callback()(version_callback)
evaluate_commands.register(app)
align_commands.register(app)
judgecheck_commands.register(app)
report_commands.register(app)
reproduce_commands.register(app)
bulk_commands.register(app)
audit_commands.register(app)
gate_commands.register(app)
app.add_typer(data_commands.app, name="data")
app.add_typer(labels_commands.app, name="labels")
readable_help(app)


def _interrupted() -> int:
    """Ctrl-C outside a command's body (while its arguments are read): one line, exit 130."""
    from trustmh.cli.common import EXIT_INTERRUPTED, INTERRUPTED, fail

    fail(INTERRUPTED, EXIT_INTERRUPTED)
    return EXIT_INTERRUPTED


def main() -> None:
    """Run the CLI; every error is one line on stderr, never a traceback.

    * usage errors (an unknown option, ``--limit abc``): ``error: ...``, exit 2 (click's
      own rendering is a multi-line box);
    * :class:`~trustmh.core.errors.UserError`: handled inside each command (exit 2);
    * anything else is a bug: one line naming the exception, exit 1; ``TRUSTMH_DEBUG=1``
      shows the traceback.
    """
    try:  # typer >= 0.2x vendors click; older versions use the click package
        from typer import _click as click
    except ImportError:  # pragma: no cover
        import click  # type: ignore[no-redef]  # the same module under its own name in older typer

    from trustmh.cli.common import fail
    from trustmh.core.collector import tune_collector
    from trustmh.core.errors import UserError

    tune_collector()
    try:
        code = app(standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:  # `trustmh` / `trustmh data` alone
        error.show()
        code = error.exit_code
    except click.ClickException as error:
        context = getattr(error, "ctx", None)
        where = f"{context.command_path}: " if context is not None else ""
        fail(f"{where}{error.format_message()} (see --help)", error.exit_code)
        code = error.exit_code
    except getattr(click.exceptions, "Abort", KeyboardInterrupt):  # absent from typer's vendored click
        code = _interrupted()
    except UserError as error:  # raised outside a command body (e.g. while parsing)
        fail(str(error), error.exit_code)
        code = error.exit_code
    except KeyboardInterrupt:
        code = _interrupted()
    except Exception as error:
        if os.environ.get("TRUSTMH_DEBUG") == "1":
            raise
        fail(f"internal error ({type(error).__name__}: {error}); rerun with TRUSTMH_DEBUG=1 for the traceback", 1)
        code = 1
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
