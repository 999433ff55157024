"""Entry point of the ``trustmh`` command."""

from __future__ import annotations

import typer

from trustmh.cli import align as align_commands
from trustmh.cli import bulk as bulk_commands
from trustmh.cli import data as data_commands
from trustmh.cli import evaluate as evaluate_commands
from trustmh.cli import report as report_commands

app = typer.Typer(
    name="trustmh",
    help="How far can a language model be trusted in mental-health settings?\n\n"
    "Example: trustmh run --limit 5",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

evaluate_commands.register(app)
align_commands.register(app)
report_commands.register(app)
bulk_commands.register(app)
app.add_typer(data_commands.app, name="data")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
