"""`trustmh score`: recorded-output (replay) JSONL files, odd paths and arguments."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from tests.hardening.bad_input.common import HUGE, fifo, folder, loop
from tests.hardening.hardening_cli import Case, Files

REPLAY = {"r.jsonl": '{"id": "0-control", "output": "No."}\n'}


def _score(json_path: str = "out.json") -> list[str]:
    return ["score", "privacy_psyleak", "--responses", "r.jsonl", "--json", json_path]


@cache
def _psyleak_ids() -> tuple[str, ...]:
    from trustmh.pillars.privacy.dataset import psyleak_dataset

    return tuple(str(s.id) for s in psyleak_dataset("starter", None))


def replay(*records: object, raw: bytes | str | None = None) -> Files:
    if raw is not None:
        return {"r.jsonl": raw}
    return {"r.jsonl": "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)}


def _all_records(**override: object) -> list[dict[str, object]]:
    return [{"id": sid, "output": "No."} | override for sid in _psyleak_ids()]


def score(case_id: str, files: Files, expected: list[str], **more: Any) -> Case:
    """A score of privacy_psyleak from r.jsonl that must write no out.json."""
    return Case(case_id, _score(), files, expected, ["out.json"], **more)


REPLAY_FILE_CASES = [
    score(
        "replay-truncated-json",
        replay(raw='{"id": "0-control", "output": "No."}\n{"id": "0-free-resp'),
        ["r.jsonl:line 2", "expected a JSON object"],
    ),
    score("replay-empty-file", replay(raw=""), ["r.jsonl", "empty"]),
    score("replay-not-an-object", replay(raw="[1, 2]\n"), ["r.jsonl:line 1", "JSON object"]),
    score("replay-missing-output-column", replay({"id": "0-control", "answer": "No."}), ["r.jsonl:line 1", '"output"']),
    score(
        "replay-output-wrong-type",
        replay({"id": "0-control", "output": 3}),
        ["r.jsonl:line 1, field 'output'", "expected a string or null"],
    ),
    score(
        "replay-id-wrong-type",
        replay({"id": ["0-control"], "output": "No."}),
        ["r.jsonl:line 1, field 'id'", "expected a string or integer id"],
    ),
    score(
        "replay-duplicate-id",
        replay(*_all_records(), {"id": "0-control", "output": "Yes."}),
        ["r.jsonl:line 21, field 'id'", "duplicate id '0-control' (first at line"],
    ),
    score(
        "replay-ids-do-not-match",
        replay({"id": "q-17", "output": "No."}),
        ["r.jsonl:line 1, field 'id'", "'q-17' is not a sample of privacy_psyleak"],
    ),
    score(
        "replay-missing-samples",
        replay(*_all_records()[:-1]),
        ["r.jsonl", f"no record for sample id {_psyleak_ids()[-1]!r}"],
    ),
    score(
        "replay-wrong-encoding",
        replay(raw=b'{"id": "0-control", "output": "caf\xe9"}\n'),
        ["r.jsonl:line 1", "expected utf-8"],
    ),
    score(
        "replay-huge-field",
        replay({"id": "0-control", "output": HUGE}),
        ["r.jsonl:line 1, field 'output'", "at most 200000 characters"],
    ),
    score("replay-file-missing", {}, ["r.jsonl", "file not found"]),
    score("score-responses-fifo", {}, ["r.jsonl: a FIFO (named pipe)"], setup=fifo("r.jsonl")),
    score("score-responses-symlink-loop", {}, ["r.jsonl: symlink loop"], setup=loop("r.jsonl")),
]

SCORE_OUTPUT_CASES = [
    Case(
        "score-json-is-a-folder",
        _score("outdir"),
        REPLAY | folder("outdir"),
        ["--json outdir: a folder; expected a file path"],
    ),
    Case("score-json-symlink-loop", _score(), REPLAY, ["--json out.json: symlink loop"], setup=loop("out.json")),
    Case(
        "score-json-parent-is-a-file",
        _score("blocker/out.json"),
        REPLAY | {"blocker": "x"},
        ["blocker/out.json", "a parent in the path is not a folder"],
    ),
]

SCORE_ARGUMENT_CASES = [
    Case(
        "score-responses-folder-without-the-task",
        ["score", "privacy_psyleak", "--responses", "d", "--json", "out.json"],
        {"d/x.txt": "x"},
        ["d: no recorded outputs for task privacy_psyleak", "psyleak.jsonl"],
        ["out.json"],
    ),
    Case(
        "score-benchmark-replay-without-data-dir",
        ["score", "ethics_ethicmh", "--responses", "r.jsonl", "--json", "out.json"],
        {"r.jsonl": '{"id": "0", "output": "A"}\n'},
        ["is not a sample of ethics_ethicmh", "scored against the starter suite", "--data-dir"],
        ["out.json"],
    ),
    Case(
        "score-unknown-task",
        ["score", "nope", "--responses", "r.jsonl", "--json", "out.json"],
        replay(*_all_records()),
        ["unknown task 'nope'"],
        ["out.json"],
    ),
]

CASES = [*REPLAY_FILE_CASES, *SCORE_OUTPUT_CASES, *SCORE_ARGUMENT_CASES]
