"""``trustmh reproduce``: upstream's released outputs re-scored beside its published figures."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from trustmh.cli.common import console, err_console, existing_data_dir, json_option, user_errors


def register(app: typer.Typer) -> None:
    app.command("reproduce")(reproduce_command)


@user_errors
def reproduce_command(
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Folder holding upstream's protocol files (also $TRUSTMH_DATA_DIR; else cache/download)."),
    ] = None,
    as_json: Annotated[str | None, json_option("the comparison")] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print markdown tables (as in docs/reproducibility.md).")
    ] = False,
) -> None:
    """Re-score every output upstream released; print published vs ours (upstream parser, corrected).

    Per model and metric: the published figure (read from upstream's result files), the released
    outputs re-scored with upstream's parsing and with trustmh's corrected parsing, the difference
    (corrected - published) and the declared explanation. Exit 1 when a difference beyond the
    published figure's rounding is not explained by a declaration; offline.

    Example: trustmh reproduce --data-dir DATA

    Example: trustmh reproduce --data-dir DATA --json reproduce.json
    """
    from trustmh.core.files import write_json
    from trustmh.data.registry import checked_user_data
    from trustmh.reproduce.table import (
        HEADER,
        by_benchmark,
        footnotes,
        not_reproduced_text,
        reproduce_rows,
        table_cells,
        unexplained,
    )
    from trustmh.reproduce.table import as_json as rows_json
    from trustmh.reproduce.table import markdown as rows_markdown
    from trustmh.run.catalog_view import offline

    destination = as_json
    existing_data_dir(data_dir)  # a mistyped folder is named as such, not as a missing upstream file
    # A reproduction on edited data says nothing about upstream's figures: a data-folder file whose
    # sha256 is not the catalogue's is refused (no --allow-modified here, unlike `run`; issue 25).
    with offline(), checked_user_data(allow_modified=False):
        rows = reproduce_rows(data_dir)
    if destination is not None:
        write_json(rows_json(rows), destination)
    elif markdown:
        console.print(rows_markdown(rows) + "\n" + not_reproduced_text(), markup=False, highlight=False, soft_wrap=True)
    else:
        for benchmark, group in by_benchmark(rows).items():
            table = Table(title=benchmark, title_justify="left")
            for column in HEADER:
                table.add_column(column, overflow="fold")
            notes = footnotes(group)
            for row in group:
                table.add_row(*(escape(cell) for cell in table_cells(row, notes)))
            console.print(table)
            for reason, number in notes.items():
                console.print(escape(f"  [{number}] {reason}"), highlight=False, soft_wrap=True)
        console.print(escape(not_reproduced_text()), highlight=False, soft_wrap=True)
    missing = unexplained(rows)
    if missing:
        first = missing[0]
        err_console.print(
            f"{len(missing)} difference(s) beyond rounding with no declared explanation, "
            f"e.g. {escape(first.model)} {escape(first.metric)}",
            highlight=False,
        )
        raise typer.Exit(1)
