"""Recorded outputs: answer from a JSONL file instead of calling a model.

Each line is ``{"id": ..., "output": ...}`` (matched to the sample id, compared as strings)
or ``{"input": ..., "output": ...}`` (matched to the whitespace-normalised last user
message). ``"output": null`` means the model gave no answer. A sample with no record is an
error naming the id: silently answering "" would score a missing recording as a model answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.data.readers import read_text
from trustmh.errors import DataFormatError, UserError

import json


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

    @classmethod
    def load(cls, path: str | Path) -> Recordings:
        path = Path(path)
        by_id: dict[str, str | None] = {}
        by_input: dict[str, str | None] = {}
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if not line.strip():
                continue
            where = f"line {number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataFormatError(path, where, f'expected a JSON object {{"id", "output"}} or {{"input", "output"}} ({error.msg})') from None
            if not isinstance(record, dict) or "output" not in record or not ("id" in record or "input" in record):
                raise DataFormatError(path, where, 'expected a JSON object with "output" and "id" or "input"')
            output = record["output"]
            if output is not None and not isinstance(output, str):
                raise DataFormatError(path, f"{where}, field 'output'", "expected a string or null")
            if "id" in record:
                key = str(record["id"])
                if key in by_id:
                    raise DataFormatError(path, where, f"duplicate id {key!r}")
                by_id[key] = output
            else:
                if not isinstance(record["input"], str):
                    raise DataFormatError(path, f"{where}, field 'input'", "expected a string")
                by_input[normalise(record["input"])] = output
        return cls(path, by_id, by_input)

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
