"""Recorded outputs: answer from a JSONL file instead of calling a model.

``responses`` is one JSONL file (one task) or a folder with one file per task, so one
recorded model is one ``-m``: ``DIR/<task>.jsonl`` (e.g. ``ethics_ethicmh.jsonl``, or the
task name without its pillar, ``ethicmh.jsonl``), or, for a folder holding several models,
``DIR/<task>/<label>.jsonl`` where ``<label>`` is the model's name after
``trustmh/replay/`` (the layout of ``../shared/data/replay_trustmh``).

Each line is ``{"id": ..., "output": ...}`` (matched to the sample id, compared as strings)
or ``{"input": ..., "output": ...}`` (matched to the whitespace-normalised last user
message). ``"output": null`` means the model gave no answer. A sample with no record is an
error naming the id: silently answering "" would score a missing recording as a model answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import MAX_FIELD_CHARS, checked_id, parse_json, read_text


def normalise(text: str) -> str:
    return " ".join(text.split())


class MissingRecordError(UserError):
    """No recorded output for a sample."""


@dataclass
class Recordings:
    """The records of one responses file, indexed by id and by input."""

    path: Path
    by_id: dict[str, str | None]
    by_input: dict[str, str | None]
    # line number of each id / input, to name the line of a record that matches no sample
    id_lines: dict[str, int] = field(default_factory=dict)
    input_lines: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> Recordings:
        path = Path(path)
        by_id: dict[str, str | None] = {}
        by_input: dict[str, str | None] = {}
        id_lines: dict[str, int] = {}
        input_lines: dict[str, int] = {}
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if not line.strip():
                continue
            where = f"line {number}"
            try:
                record = parse_json(line)
            except json.JSONDecodeError as error:
                raise DataFormatError(
                    path, where, f'expected a JSON object {{"id", "output"}} or {{"input", "output"}} ({error.msg})'
                ) from None
            if not isinstance(record, dict) or "output" not in record or not ("id" in record or "input" in record):
                raise DataFormatError(path, where, 'expected a JSON object with "output" and "id" or "input"')
            output = record["output"]
            if output is not None and not isinstance(output, str):
                raise DataFormatError(path, f"{where}, field 'output'", "expected a string or null")
            if output is not None and len(output) > MAX_FIELD_CHARS:
                raise DataFormatError(
                    path,
                    f"{where}, field 'output'",
                    f"expected at most {MAX_FIELD_CHARS} characters, found {len(output)}",
                )
            if "id" in record:
                if not isinstance(record["id"], (str, int)) or isinstance(record["id"], bool):
                    raise DataFormatError(
                        path,
                        f"{where}, field 'id'",
                        f"expected a string or integer id, found {type(record['id']).__name__}",
                    )
                key = checked_id(str(record["id"]), path, f"{where}, field 'id'", "sample id")
                if key in by_id:
                    raise DataFormatError(
                        path, f"{where}, field 'id'", f"duplicate id {key!r} (first at line {id_lines[key]})"
                    )
                by_id[key] = output
                id_lines[key] = number
            else:
                if not isinstance(record["input"], str):
                    raise DataFormatError(path, f"{where}, field 'input'", "expected a string")
                key = normalise(record["input"])
                if key in by_input:
                    raise DataFormatError(
                        path, f"{where}, field 'input'", f"duplicate input (first at line {input_lines[key]})"
                    )
                by_input[key] = output
                input_lines[key] = number
        return cls(path, by_id, by_input, id_lines, input_lines)

    def check_covers(self, task: str, samples: list[tuple[str, str]], limit: int | None = None) -> None:
        """Before any scoring: every ``(sample id, last user text)`` (the first ``limit``
        of them, when given) has a record and every record belongs to a sample, else a
        one-line error naming the file and line."""
        ids = {sample_id for sample_id, _ in samples}
        texts = {normalise(text) for _, text in samples}
        for key, line in self.id_lines.items():
            if key not in ids:
                example = next(iter(sorted(ids)), "")
                raise DataFormatError(
                    self.path,
                    f"line {line}, field 'id'",
                    f"id {key!r} is not a sample of {task} (its ids look like {example!r}); recorded for another task?",
                )
        for key, line in self.input_lines.items():
            if key not in texts:
                raise DataFormatError(self.path, f"line {line}, field 'input'", f"input matches no sample of {task}")
        for sample_id, text in samples[:limit]:
            if sample_id not in self.by_id and normalise(text) not in self.by_input:
                raise DataFormatError(
                    self.path,
                    None,
                    f'no record for sample id {sample_id!r} of {task} (expected a line with "id": {sample_id!r} or its input)',
                )

    def lookup(self, sample_id: str | int | None, last_user_message: str) -> str | None:
        """The recorded output (``None`` = no answer); raise if nothing matches."""
        if sample_id is not None and str(sample_id) in self.by_id:
            return self.by_id[str(sample_id)]
        key = normalise(last_user_message)
        if key in self.by_input:
            return self.by_input[key]
        raise MissingRecordError(f"{self.path}: no recorded output for sample id {sample_id!r} (nor for its input)")

    def __len__(self) -> int:
        return len(self.by_id) + len(self.by_input)


def _short(task: str) -> str:
    """``ethics_ethicmh`` → ``ethicmh`` (the dataset-style name recordings are often filed under)."""
    return task.split("_", 1)[1] if "_" in task else task


def task_file(responses: str | Path, task: str, label: str | None = None) -> Path:
    """The recordings of ``task``: ``responses`` itself when it is a file, else the first of
    ``<task>.jsonl``, ``<short>.jsonl``, ``<task>/<label>.jsonl``, ``<short>/<label>.jsonl``
    in the folder (``short`` = the task name without its pillar)."""
    folder = Path(responses)
    if not folder.is_dir():
        return folder
    task = task.removeprefix("trustmh/")
    names = [f"{task}.jsonl", f"{_short(task)}.jsonl"]
    if label:
        names += [f"{task}/{label}.jsonl", f"{_short(task)}/{label}.jsonl"]
    for name in names:
        if (folder / name).is_file():
            return folder / name
    raise UserError(f"{folder}: no recorded outputs for task {task} (looked for {', '.join(names)})")


class ReplayFolder:
    """Recordings of several tasks, loaded on first use of each task."""

    def __init__(self, responses: str | Path, label: str | None) -> None:
        self.responses = Path(responses)
        self.label = label
        self._loaded: dict[str, Recordings] = {}

    def for_task(self, task: str) -> Recordings:
        if task not in self._loaded:
            self._loaded[task] = Recordings.load(task_file(self.responses, task, self.label))
        return self._loaded[task]
