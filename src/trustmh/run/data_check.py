"""``trustmh run --data-dir``: dataset files checked against the catalogue's sha256 as the tasks
are built (:func:`trustmh.data.registry.checked_user_data`).

A file that differs stops the run with one line naming it and both hashes. With
``--allow-modified`` the run goes on, and each task built on such a file carries the list in
its log metadata (:data:`~trustmh.data.registry.MODIFIED_KEY`), which the run prints and the report shows as a
MODIFIED mark: a number computed on edited data must never pass for the benchmark's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trustmh.data.registry import MODIFIED_KEY, checked_user_data, modified_files


def built_with_checked_data(build: Callable[[], Any], allow_modified: bool) -> Any:
    """``build()`` (one task) with its user-folder files checked; the modified ones it used are
    recorded in the task's metadata."""
    with checked_user_data(allow_modified) as modified:
        task = build()
    if modified:
        task.metadata = {**(task.metadata or {}), MODIFIED_KEY: [file.as_metadata() for file in modified]}
    return task


def modified_lines(tasks: Sequence[Any]) -> list[str]:
    """The warning lines a run prints before it starts, one per modified file."""
    seen: dict[str, dict[str, str]] = {}
    for task in tasks:
        for item in modified_files(getattr(task, "metadata", None)):
            seen.setdefault(str(item.get("path")), item)
    return [
        f"MODIFIED DATA (--allow-modified): {path} has sha256 {item.get('actual')}, not the catalogue's "
        f"{item.get('expected')}; the logs and report mark the results built on it"
        for path, item in seen.items()
    ]
