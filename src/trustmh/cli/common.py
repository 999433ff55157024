"""Helpers shared by every CLI command: user-error handling and consoles (files: :mod:`trustmh.core.files`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import typer
from rich.console import Console
from rich.markup import escape

from trustmh.core.errors import EXIT_INTERRUPTED, UserError, redact

console = Console()
err_console = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error (never a traceback, never a key) and return the Exit to raise."""
    line = " ".join(redact(message).split())
    err_console.print(f"[bold red]error:[/bold red] {escape(line)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


# Library argument names whose command-line flag is not simply ``--<name>``.
FLAGS = {"n_boot": "--bootstrap", "judges": "--judge", "models": "--model"}


def flag_for(argument: str) -> str:
    return FLAGS.get(argument, "--" + argument.replace("_", "-"))


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
            message = f"{flag_for(error.argument)}: {error}" if error.argument else str(error)
            raise fail(message, error.exit_code) from None
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
