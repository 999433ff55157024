"""Helpers shared by every CLI command: user-error handling and consoles (files: :mod:`trustmh.core.files`)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from trustmh.core.consoles import ReadableConsole
from trustmh.core.errors import EXIT_INTERRUPTED, UserError, redact

console = ReadableConsole()
err_console = ReadableConsole(stderr=True)


EXAMPLE_STARTS = ("Example", "trustmh ", "# ")


def _example_on_one_line(paragraph: str) -> str:
    """An example paragraph (starting ``Example``, ``trustmh `` or a ``# `` comment) with each
    command, and each comment, on one unwrapped line of its own (``\\`` continuations
    dropped): click keeps a paragraph marked ``\b`` as it is."""
    if not paragraph.lstrip().startswith(EXAMPLE_STARTS):
        return paragraph
    lines: list[list[str]] = []
    for line in paragraph.splitlines():
        text = line.strip()
        if not lines or text.startswith(("#", "trustmh ")):
            lines.append([])
        lines[-1] += [word for word in text.split() if word != "\\"]
    return "\b\n" + "\n".join(" ".join(words) for words in lines if words)


class ReadableHelpCommand(TyperCommand):
    """A command whose ``--help`` is click's plain layout (whole flag names, no ``<bool>`` after a
    flag, wrapped to the terminal up to 80 columns) with each example on one line of its own,
    never split mid-argument."""

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text("\n\n".join(_example_on_one_line(p) for p in text.split("\n\n")))


class TrustmhGroup(TyperGroup):
    """The root command: reads the deprecated ``--json`` switch form as ``--json -`` before any
    subcommand parses its options (:func:`json_switch_as_stdout`)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, json_switch_as_stdout(args))


def readable_help(app: typer.Typer) -> typer.Typer:
    """Give every command of ``app`` (and of its sub-apps) :class:`ReadableHelpCommand`'s help."""
    app.rich_markup_mode = None
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):  # typer's default; a command's own class is kept
            command.cls = ReadableHelpCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            readable_help(group.typer_instance)
    return app


F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error (never a traceback, never a key) and return the Exit to raise."""
    line = " ".join(redact(message).split())
    err_console.print(f"[bold red]error:[/bold red] {escape(line)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


# Library argument names whose command-line flag is not simply ``--<name>``.
FLAGS = {"n_boot": "--bootstrap", "judges": "--judge", "models": "--model"}


def flag_for(argument: str) -> str:
    if argument.startswith("-"):  # already a flag ("--profile")
        return argument
    return FLAGS.get(argument, "--" + argument.replace("_", "-"))


def error_line(error: UserError) -> str:
    """A user error's one line: prefixed with the flag it is about, unless it starts with it."""
    text = str(error)
    if not error.argument:
        return text
    flag = flag_for(error.argument)
    return text if text.startswith(flag) else f"{flag}: {text}"


INTERRUPTED = "interrupted (Ctrl-C): the command stopped before its end"


def user_errors(function: F) -> F:
    """Turn :class:`UserError` raised inside a command into one line on stderr and exit 2, and
    Ctrl-C (``KeyboardInterrupt``) into one line and exit 130.

    An error about one argument (``UserError.argument``) is prefixed with the flag that sets it.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except UserError as error:
            raise fail(error_line(error), error.exit_code) from None
        except KeyboardInterrupt:  # typer would turn it into a silent exit 130
            raise fail(INTERRUPTED, EXIT_INTERRUPTED) from None

    return cast(F, wrapper)  # functools.wraps keeps the signature typer reads


def usd_amount(value: float | None) -> float | None:
    """Option callback of every price and ``--max-cost`` option: a finite number of at least 0.

    click's ``min=0`` lets ``nan`` and ``inf`` through (``nan < 0`` is false): a NaN cap never
    stops a run, and a NaN or infinite price makes every cost meaningless
    (:func:`trustmh.cost.prices.is_amount`)."""
    from trustmh.cost.prices import AMOUNT_EXPECTED, is_amount

    if value is not None and not is_amount(value):
        raise typer.BadParameter(f"{AMOUNT_EXPECTED}; found {value!r}")
    return value


def fmt3(value: float) -> str:
    """A statistic to three decimals; ``-`` for NaN (not estimable)."""
    return "-" if value != value else f"{value:.3f}"


def ci3(interval: tuple[float, float] | list[float]) -> str:
    return f"[{fmt3(interval[0])}, {fmt3(interval[1])}]"


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("trustmh")
        except PackageNotFoundError:  # a source tree on the path, not installed
            found = "unknown (not installed)"
        console.print(f"trustmh {found}", highlight=False)
        raise typer.Exit(0)


def version_callback(
    show_version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print trustmh's version and exit."
    ),
) -> None:
    """The root command's callback: ``trustmh --version``."""


# `--json FILE|-` is the one meaning of --json in every command ("-" = stdout). Given alone, as
# the former switch of `tasks`, `reproduce` and `data status` was, it still means stdout for a
# release, with a deprecation line on stderr (:func:`json_switch_as_stdout`; click has no
# option with an optional value).
JSON_METAVAR = "FILE|-"


def json_option(what: str) -> Any:
    """The ``--json FILE|-`` option: ``what`` is what is written (``"the task list"``)."""
    return typer.Option("--json", metavar=JSON_METAVAR, help=f"Write {what} as JSON to FILE, or - for stdout.")


def json_switch_as_stdout(args: list[str]) -> list[str]:
    """The command line with the deprecated switch form ``--json`` (last, or followed by another
    option) read as ``--json -``, saying so on stderr."""
    out: list[str] = []
    for at, arg in enumerate(args):
        if arg == "--":  # what follows is not an option
            return out + args[at:]
        out.append(arg)
        following = args[at + 1] if at + 1 < len(args) else None
        if arg == "--json" and (following is None or (following.startswith("-") and following != "-")):
            deprecated("--json without FILE", "--json - (stdout) or --json FILE")
            out.append("-")
    return out


def deprecated(old: str, new: str) -> None:
    """One line on stderr (stdout may be JSON a tool reads): the old form works for this release."""
    err_console.print(f"note: {old} is deprecated and will be removed; use {new}", highlight=False, soft_wrap=True)


def judge_option(judge: str | None, deprecated_judge_model: str | None) -> str:
    """The judge model of ``--judge MODEL``, the one name of the judge model in every command;
    ``--judge-model`` (``trustmh judge``'s former name) still works for a release, with a note."""
    if deprecated_judge_model is not None:
        deprecated("--judge-model", "--judge MODEL")
        if judge is not None and judge != deprecated_judge_model:
            raise UserError(f"--judge {judge} and --judge-model {deprecated_judge_model} name different judges")
    chosen = judge or deprecated_judge_model
    if chosen is None:
        raise UserError("--judge MODEL is required (the judge model, e.g. --judge openai/gpt-4o)")
    return chosen


def existing_data_dir(data_dir: Path | None) -> str | None:
    """``--data-dir`` as a string, refused at once when the folder does not exist (later it
    would surface as a failed download of every dataset)."""
    if data_dir is None:
        return None
    if not data_dir.is_dir():
        raise UserError(f"--data-dir {data_dir}: no such folder (a folder with one subfolder per dataset)")
    return str(data_dir)
