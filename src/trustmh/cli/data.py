"""``trustmh data status | import | fetch``: where datasets are and how to get them."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from trustmh.cli.common import console, err_console, existing_data_dir, json_option, user_errors
from trustmh.core.errors import UserError
from trustmh.core.files import write_json

app = typer.Typer(
    help="Datasets: status, import from a folder, fetch from upstream.\n\nExample: trustmh data status",
    no_args_is_help=True,
)


def _where(spec_name: str, file_names: list[str], data_dir: Path | None) -> tuple[str, list[Path]]:
    from trustmh.data.registry import find_local

    found = [find_local(spec_name, name, data_dir) for name in file_names]
    present = [path for path in found if path is not None]
    if not present:
        return "missing", []
    roots = sorted({str(path.parent) for path in present})
    label = ", ".join(roots)
    if len(present) < len(file_names):
        label += f" (partial: {len(present)}/{len(file_names)} files)"
    return label, present


@app.command("status")
@user_errors
def status_command(
    data_dir: Annotated[
        Path | None, typer.Option(help="Data folder to check before the cache (also $TRUSTMH_DATA_DIR).")
    ] = None,
    verify: Annotated[bool, typer.Option(help="Also compare each file's sha256 with the release.")] = False,
    as_json: Annotated[str | None, json_option("the datasets and upstream files")] = None,
) -> None:
    """Show each dataset (pillar, where it was found, rows, license) and each upstream protocol file.

    Upstream protocol files (prompt code, parsers, rubrics, released outputs) are pinned to a
    commit and sha256-checked whenever found (a changed file reads "sha256 differs").

    Example: trustmh data status --data-dir DATA
    """
    from trustmh.data.registry import list_datasets, verify_file
    from trustmh.data.row_counts import count_rows

    destination = as_json
    existing_data_dir(data_dir)  # a mistyped folder is an error, not a table of "missing"
    from trustmh.run.catalog_view import offline

    rows: list[dict[str, Any]] = []
    with offline():
        for spec in list_datasets():
            where, present = _where(spec.name, [f.name for f in spec.files], data_dir)
            rows_count: object = None
            problems: list[str] = []
            if len(present) == len(spec.files):
                try:
                    rows_count = count_rows(spec.name, data_dir)
                except UserError as error:
                    problems.append(str(error))
                if verify:
                    problems += [p for f, path in zip(spec.files, present, strict=True) if (p := verify_file(path, f))]
            rows.append(
                {
                    "dataset": spec.name,
                    "pillars": list(spec.pillars),
                    "where": where,
                    "rows": rows_count,
                    "license": spec.license,
                    "problems": problems,
                    "source": spec.source[0],
                }
            )
    upstream_rows = _upstream_rows(data_dir)
    if destination is not None:
        # Datasets stay a list (as before); upstream files are added as rows of their own kind.
        write_json(rows + upstream_rows, destination)
        return
    table = Table(title="trustmh datasets")
    for column in ("dataset", "pillars", "where", "rows", "license"):
        table.add_column(column, overflow="fold")
    for row in rows:
        rows_text = "—" if row["rows"] is None else str(row["rows"])
        if row["problems"]:
            rows_text = f"[red]invalid[/red]: {row['problems'][0]}"
        table.add_row(row["dataset"], ", ".join(row["pillars"]), row["where"], rows_text, row["license"])
    console.print(table)
    upstream = Table(title="upstream protocol files (pinned; read by benchmark mode and `trustmh reproduce`)")
    for column in ("file", "upstream", "where", "sha256", "license"):
        upstream.add_column(column, overflow="fold")
    for row in upstream_rows:
        upstream.add_row(
            row["upstream_file"],
            f"{row['repo']}@{row['commit']}:{row['path']}",
            row["where"],
            row["check"],
            row["license"],
        )
    console.print(upstream)


def _upstream_rows(data_dir: Path | None) -> list[dict[str, Any]]:
    """Each pinned upstream file: where it is found and whether it is the pinned version."""
    from trustmh.data.upstream import UPSTREAM_FILES, check_upstream, find_upstream_local

    rows = []
    for key, spec in UPSTREAM_FILES.items():
        found = find_upstream_local(key, data_dir)
        check = "not found (downloaded at the pinned commit when needed)"
        if found is not None:
            try:
                check_upstream(found, spec)
                check = "pinned"
            except UserError as error:
                check = f"sha256 differs: {error}"
        rows.append(
            {
                "upstream_file": key,
                "repo": spec.repo,
                "commit": spec.commit,
                "path": spec.path,
                "sha256": spec.sha256,
                "where": str(found.parent) if found else "missing",
                "check": check,
                "license": spec.license,
            }
        )
    return rows


@app.command("import")
@user_errors
def import_command(
    folder: Annotated[
        Path, typer.Argument(help="A folder laid out like the release: <dataset>/<upstream file names>.")
    ],
) -> None:
    """Copy datasets and pinned upstream protocol files from a local folder into the user cache.

    Example: trustmh data import ~/Downloads/trustmh-data
    """
    from trustmh.core.errors import DatasetMissingError
    from trustmh.data.registry import data_cache_dir, list_datasets, verify_file
    from trustmh.data.row_counts import can_count, count_rows
    from trustmh.run.catalog_view import offline

    if not folder.is_dir():
        raise UserError(f"{folder}: not a folder")
    # 1. what would be imported
    plan = []
    for spec in list_datasets():
        present = [(data_file, folder / spec.name / data_file.name) for data_file in spec.files]
        present = [(data_file, source) for data_file, source in present if source.is_file()]
        if present:
            plan.append((spec, present))
    upstream = _upstream_plan(folder)
    if not plan and not upstream:
        raise UserError(f"{folder}: no known dataset files found (expected e.g. {folder}/confaide/tier_1.txt)")
    # 2. every dataset must parse before anything is copied: a bad file imports nothing
    with offline():
        for spec, _ in plan:
            if not can_count(spec.name):
                continue
            try:
                count_rows(spec.name, folder)
            except DatasetMissingError:
                pass  # only part of the dataset is here: its files are checked when used
            except UserError as error:
                raise UserError(f"{error} (nothing imported)") from None
    # 3. every file must be the released one, complete dataset or not: the cache is trusted
    #    on use (a cached file is checked against the catalogue's sha256 when loaded)
    for _spec, present in plan:
        for data_file, source in present:
            problem = verify_file(source, data_file)
            if problem:
                raise UserError(f"{problem}; nothing imported (use --data-dir to run on a modified copy)")
    # 4. copy, each file atomically (pinned upstream protocol files too, already hash-checked)
    copies = [
        (source, data_cache_dir() / spec.name / data_file.name)
        for spec, present in plan
        for data_file, source in present
    ]
    copies += [(source, data_cache_dir() / key) for key, source in upstream]
    for source, target in copies:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".tmp") as tmp:
            pass
        try:
            shutil.copyfile(source, tmp.name)
            os.replace(tmp.name, target)
        finally:
            Path(tmp.name).unlink(missing_ok=True)
    console.print(f"imported {len(copies)} files into {data_cache_dir()}")


def _upstream_plan(folder: Path) -> list[tuple[str, Path]]:
    """Pinned upstream protocol files present in ``folder``; a changed one refuses the import."""
    from trustmh.data.upstream import UPSTREAM_FILES, check_upstream

    found = [(key, folder / key) for key in UPSTREAM_FILES if (folder / key).is_file()]
    for key, source in found:
        try:
            check_upstream(source, UPSTREAM_FILES[key])
        except UserError as error:
            raise UserError(f"{error}; nothing imported") from None
    return found


@app.command("fetch")
@user_errors
def fetch_command(
    name: Annotated[str | None, typer.Argument(help="Dataset to download (see `trustmh data status`).")] = None,
    all_datasets: Annotated[bool, typer.Option("--all", help="Download every dataset that has a public URL.")] = False,
) -> None:
    """Download a dataset from upstream into the cache, verifying sha256.

    Example: trustmh data fetch confaide
    """
    from trustmh.data.registry import download, get_dataset, list_datasets

    if bool(name) == all_datasets:
        raise UserError("give a dataset name or --all")
    specs = list_datasets() if all_datasets else [get_dataset(name or "")]
    for spec in specs:
        if all_datasets and not all(f.url for f in spec.files):
            err_console.print(
                f"skipped {spec.name}: no public download URL ({spec.source[0]}); use `trustmh data import`"
            )
            continue
        for data_file in spec.files:
            path = download(spec, data_file)
            console.print(f"{spec.name}/{data_file.name} → {path}")
