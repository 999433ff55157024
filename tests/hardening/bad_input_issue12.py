"""Bad-input cases added for issue 12: generate/judge inputs and outputs, odd paths (folders,
FIFOs, symlink loops, corrupt sheet XML, a file where a folder should be), dead endpoints,
held locks, edited cached data, data import, report and align. Each is one stderr line,
exit 2 and no output file (checked by ``test_bad_input.py``)."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from tests.hardening.hardening_cli import TEST_KEY, Case, Files, _lines

KEY = {"OPENAI_API_KEY": TEST_KEY}
DEAD = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
NOWHERE = "http://no-such-host.invalid/v1"  # never resolves (RFC 2606)

GENERATE = ["generate", "--conversations", "conv.csv", "--model", "openai/m", "--no-progress", "--cache", "c.sqlite"]
JUDGE = ["judge", "--responses", "resp.csv", "--judge-model", "openai/j", "--no-progress", "--cache", "c.sqlite"]
SCORE = ["score", "privacy_psyleak", "--responses", "r.jsonl"]
CONVERSATIONS = {"conv.csv": _lines("context", "I cannot sleep.")}
RESPONSES = {"resp.csv": _lines("context,response", "I cannot sleep.,That sounds hard.")}
REPLAY = {"r.jsonl": '{"id": "0-control", "output": "No."}\n'}
HUMAN = _lines("ConvID,human_response_gpt4", '1,"{""Guidance"": 4}"', '2,"{""Guidance"": 3}"')
HUMAN2 = _lines(
    "ConvID,human_response_a,human_response_b",
    '1,"{""Guidance"": 4}","{""Guidance"": 2}"',
    '2,"{""Guidance"": 3}","{""Guidance"": 5}"',
    '3,"{""Guidance"": 1}","{""Guidance"": 4}"',
)
ALIGN = ["align", "--human", "human.csv", "--judge", "j=judge.csv"]


def _xlsx(rows: list[list[str]]) -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _corrupt_sheet(rows: list[list[str]]) -> bytes:
    """A valid xlsx package whose worksheet XML is broken (truncated mid-element)."""
    source = zipfile.ZipFile(io.BytesIO(_xlsx(rows)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("xl/worksheets/"):
                data = data[: len(data) // 2]
            target.writestr(info, data)
    return buffer.getvalue()


def fifo(name: str):
    def make(root: Path) -> None:
        os.mkfifo(root / name)

    return make


def loop(name: str):
    def make(root: Path) -> None:
        (root / name).symlink_to(root / name)

    return make


def dangling(name: str):
    def make(root: Path) -> None:
        (root / name).symlink_to(root / "missing-folder" / name)

    return make


def folder(name: str) -> Files:
    return {f"{name}/inside.txt": "x"}


def _generate(out: str = "out.csv", *extra: str) -> list[str]:
    return [*GENERATE, "-o", out, *extra]


def _judge(out: str = "out.csv", *extra: str) -> list[str]:
    return [*JUDGE, "-o", out, *extra]


ISSUE12_CASES: list[Case] = [
    # --- trustmh generate: inputs ------------------------------------------------------------
    Case(
        "gen-missing-context-column",
        _generate(),
        {"conv.csv": _lines("text", "hello")},
        ["conv.csv:line 1", "missing column 'context'"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-empty-context",
        _generate(),
        {"conv.csv": _lines("context,x", ",1")},
        ["conv.csv:line 2, column 'context'", "empty context"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-not-utf8",
        _generate(),
        {"conv.csv": b"context\ncaf\xe9\n"},
        ["conv.csv:line 2", "expected utf-8"],
        ["out.csv"],
        KEY,
    ),
    Case("gen-empty-file", _generate(), {"conv.csv": ""}, ["conv.csv", "empty"], ["out.csv"], KEY),
    Case(
        "gen-duplicate-header",
        _generate(),
        {"conv.csv": _lines("context,context", "a,b")},
        ["conv.csv:line 1", "appears twice"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-extra-field",
        _generate(),
        {"conv.csv": _lines("context", "a,b")},
        ["conv.csv:line 2", "more fields than"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-conversations-wrong-suffix",
        ["generate", "--conversations", "conv.txt", "--model", "openai/m", "-o", "out.csv"],
        {"conv.txt": _lines("context", "hi")},
        ["conv.txt", "must be a .csv or .xlsx file"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-conversations-is-a-folder",
        _generate(),
        folder("conv.csv"),
        ["conv.csv: a folder; expected a file"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-conversations-fifo",
        _generate(),
        {},
        ["conv.csv: a FIFO (named pipe); expected a file"],
        ["out.csv"],
        KEY,
        setup=fifo("conv.csv"),
    ),
    Case(
        "gen-conversations-symlink-loop",
        _generate(),
        {},
        ["conv.csv: symlink loop"],
        ["out.csv"],
        KEY,
        setup=loop("conv.csv"),
    ),
    Case(
        "gen-conversations-not-xlsx",
        [*GENERATE[:2], "conv.xlsx", *GENERATE[3:], "-o", "out.csv"],
        {"conv.xlsx": "context\nhi\n"},
        ["conv.xlsx", "expected an xlsx workbook"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-conversations-corrupt-sheet-xml",
        [*GENERATE[:2], "conv.xlsx", *GENERATE[3:], "-o", "out.csv"],
        {"conv.xlsx": _corrupt_sheet([["context"], ["I cannot sleep."]])},
        ["conv.xlsx", "expected an xlsx workbook"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-xlsx-missing-context",
        [*GENERATE[:2], "conv.xlsx", *GENERATE[3:], "-o", "out.csv"],
        {"conv.xlsx": _xlsx([["text"], ["hi"]])},
        ["conv.xlsx:row 1", "missing column 'context'"],
        ["out.csv"],
        KEY,
    ),
    # --- trustmh generate: options, outputs, endpoint, cache -----------------------------------
    Case(
        "gen-output-wrong-suffix",
        _generate("out.txt"),
        CONVERSATIONS,
        ["out.txt", "must be a .csv or .xlsx file"],
        ["out.txt"],
        KEY,
    ),
    Case(
        "gen-output-is-a-folder",
        _generate(),
        CONVERSATIONS | folder("out.csv"),
        ["--output out.csv: a folder; expected a file path"],
        [],
        KEY,
    ),
    Case(
        "gen-output-parent-is-a-file",
        _generate("blocker/out.csv"),
        CONVERSATIONS | {"blocker": "x"},
        ["blocker/out.csv", "a parent in the path is not a folder"],
        [],
        KEY,
    ),
    Case(
        "gen-output-symlink-loop",
        _generate(),
        CONVERSATIONS,
        ["--output out.csv: symlink loop"],
        [],
        KEY,
        setup=loop("out.csv"),
    ),
    Case(
        "gen-output-dangling-symlink",
        _generate(),
        CONVERSATIONS,
        ["--output out.csv: a symlink to a missing file"],
        ["missing-folder"],
        KEY,
        setup=dangling("out.csv"),
    ),
    Case(
        "gen-output-fifo",
        _generate(),
        CONVERSATIONS,
        ["--output out.csv: a FIFO (named pipe); expected a file path"],
        [],
        KEY,
        setup=fifo("out.csv"),
    ),
    Case(
        "gen-bad-model-syntax",
        [*GENERATE[:3], "--model", "gpt4", "-o", "out.csv"],
        CONVERSATIONS,
        ["model 'gpt4': unknown model syntax"],
        ["out.csv"],
        KEY,
    ),  # fmt: skip
    Case(
        "gen-column-twice",
        [*GENERATE[:3], "--model", "a=openai/m", "--model", "a=openai/n", "-o", "out.csv"],
        CONVERSATIONS,
        ["--model: column 'a' is given twice"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-reserved-column",
        [*GENERATE[:3], "--model", "context=openai/m", "-o", "out.csv"],
        CONVERSATIONS,
        ["column 'context' is reserved"],
        ["out.csv"],
        KEY,
    ),
    Case("gen-missing-api-key", _generate(), CONVERSATIONS, ["OPENAI_API_KEY"], ["out.csv", "c.sqlite"]),
    Case(
        "gen-dead-endpoint",
        _generate("out.csv", "--base-url", DEAD),
        CONVERSATIONS,
        [f"model openai/m: endpoint {DEAD} is unreachable", "connection refused"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-unresolvable-endpoint",
        _generate("out.csv", "--base-url", NOWHERE),
        CONVERSATIONS,
        [f"endpoint {NOWHERE} is unreachable", "does not resolve"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-cache-not-a-database",
        _generate(),
        CONVERSATIONS | {"c.sqlite": "this is not a database" * 50},
        ["c.sqlite", "not a usable cache database"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "gen-cache-in-use",
        _generate(),
        CONVERSATIONS,
        ["cache c.sqlite is in use by another trustmh run"],
        ["out.csv"],
        KEY,
        hold="c.sqlite.lock",
    ),
    Case("gen-limit-zero", _generate("out.csv", "--limit", "0"), CONVERSATIONS, ["'--limit'", "1"], ["out.csv"], KEY),
    Case(
        "gen-temperature-out-of-range",
        _generate("out.csv", "--temperature", "9"),
        CONVERSATIONS,
        ["'--temperature'"],
        ["out.csv"],
        KEY,
    ),
    # --- trustmh judge ------------------------------------------------------------------------
    Case(
        "judge-no-response-columns",
        _judge(),
        {"resp.csv": _lines("context", "hi")},
        ["resp.csv: no response columns to judge"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-unknown-key",
        _judge("out.csv", "--key", "nope"),
        RESPONSES,
        ["--key", "'nope'", "has no column 'nope'"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-missing-context",
        _judge(),
        {"resp.csv": _lines("response", "hi")},
        ["resp.csv:line 1", "missing column 'context'"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-corrupt-sheet-xml",
        [*JUDGE[:2], "resp.xlsx", *JUDGE[3:], "-o", "out.csv"],
        {"resp.xlsx": _corrupt_sheet([["context", "response"], ["hi", "hello"]])},
        ["resp.xlsx", "expected an xlsx workbook"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-responses-symlink-loop",
        _judge(),
        {},
        ["resp.csv: symlink loop"],
        ["out.csv"],
        KEY,
        setup=loop("resp.csv"),
    ),
    Case(
        "judge-responses-fifo",
        _judge(),
        {},
        ["resp.csv: a FIFO (named pipe)"],
        ["out.csv"],
        KEY,
        setup=fifo("resp.csv"),
    ),
    Case("judge-output-is-a-folder", _judge(), RESPONSES | folder("out.csv"), ["--output out.csv: a folder"], [], KEY),
    Case(
        "judge-dead-endpoint",
        _judge("out.csv", "--base-url", DEAD),
        RESPONSES,
        [f"model openai/j: endpoint {DEAD} is unreachable"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-bad-model-syntax",
        [*JUDGE[:3], "--judge-model", "judge", "-o", "out.csv"],
        RESPONSES,
        ["model 'judge': unknown model syntax"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-zero-verdict-attempts",
        _judge("out.csv", "--max-verdict-attempts", "0"),
        RESPONSES,
        ["'--max-verdict-attempts'"],
        ["out.csv"],
        KEY,
    ),
    Case(
        "judge-cache-in-use", _judge(), RESPONSES, ["cache c.sqlite is in use"], ["out.csv"], KEY, hold="c.sqlite.lock"
    ),
    # --- trustmh score: odd paths ------------------------------------------------------------------
    Case(
        "score-responses-fifo",
        [*SCORE, "--json", "out.json"],
        {},
        ["r.jsonl: a FIFO (named pipe)"],
        ["out.json"],
        setup=fifo("r.jsonl"),
    ),  # fmt: skip
    Case(
        "score-responses-symlink-loop",
        [*SCORE, "--json", "out.json"],
        {},
        ["r.jsonl: symlink loop"],
        ["out.json"],
        setup=loop("r.jsonl"),
    ),
    Case(
        "score-json-is-a-folder",
        [*SCORE, "--json", "outdir"],
        REPLAY | folder("outdir"),
        ["--json outdir: a folder; expected a file path"],
    ),
    Case(
        "score-json-symlink-loop",
        [*SCORE, "--json", "out.json"],
        REPLAY,
        ["--json out.json: symlink loop"],
        setup=loop("out.json"),
    ),  # fmt: skip
    Case(
        "score-json-parent-is-a-file",
        [*SCORE, "--json", "blocker/out.json"],
        REPLAY | {"blocker": "x"},
        ["blocker/out.json", "a parent in the path is not a folder"],
    ),
    # --- trustmh run ---------------------------------------------------------------------------
    Case(
        "run-dead-endpoint",
        ["run", "privacy_psyleak", "--model", "openai/m", "--log-dir", "logs", "--no-report"],
        {},
        [f"--model openai/m: endpoint {DEAD} is unreachable", "connection refused"],
        ["logs"],
        KEY | {"OPENAI_BASE_URL": DEAD},
    ),
    Case(
        "run-unresolvable-endpoint",
        ["run", "privacy_psyleak", "--model", "openai/m", "--log-dir", "logs", "--no-report"],
        {},
        [f"endpoint {NOWHERE} is unreachable", "does not resolve"],
        ["logs"],
        KEY | {"OPENAI_BASE_URL": NOWHERE},
    ),
    Case(
        "run-log-dir-in-use",
        ["run", "privacy_psyleak", "--limit", "1", "--log-dir", "logs", "--no-report"],
        {"logs/keep.txt": "x"},
        ["log folder logs is in use by another trustmh run"],
        hold="logs/.trustmh.lock",
    ),
    Case(
        "run-log-dir-is-a-file",
        ["run", "privacy_psyleak", "--log-dir", "logs", "--no-report"],
        {"logs": "x"},
        ["--log-dir logs: not a folder"],
    ),
    Case(
        "run-edited-cached-dataset",
        ["run", "privacy_confaide_tier1", "--source", "benchmark", "--log-dir", "logs", "--no-report"],
        {
            "home/cache/data/confaide/tier_1.txt": _lines("p one", "p two"),
            "home/cache/data/confaide/tier_1_labels.txt": _lines("1", "2"),
        },
        ["home/cache/data/confaide/tier_1", "sha256", "differs from the catalogue's", "trustmh data fetch confaide"],
        ["logs"],
    ),
    # --- trustmh data ------------------------------------------------------------------------------
    Case(
        "import-modified-file-of-partial-dataset",
        ["data", "import", "imp"],
        {"imp/confaide/tier_1.txt": _lines("an edited prompt")},
        ["imp/confaide/tier_1.txt: sha256", "nothing imported"],
        ["home/cache/data"],
    ),
    Case(
        "import-folder-is-a-file", ["data", "import", "imp"], {"imp": "x"}, ["imp", "not a folder"], ["home/cache/data"]
    ),
    Case("fetch-unknown-dataset", ["data", "fetch", "nope"], {}, ["unknown dataset 'nope'"], ["home/cache/data"]),
    # --- trustmh report ----------------------------------------------------------------------------
    Case("report-missing-log-dir", ["report", "nowhere", "-o", "r.html"], {}, ["no such log directory"], ["r.html"]),
    Case(
        "report-align-not-json",
        ["report", "logs", "-o", "r.html", "--align", "a.json"],
        {"logs/keep.txt": "x", "a.json": "{"},
        ["a.json"],
        ["r.html"],
    ),
    # --- trustmh align -----------------------------------------------------------------------------
    Case(
        "align-human-corrupt-sheet-xml",
        ["align", "--human", "human.xlsx", "--judge", "j=judge.csv", "--json", "out.json"],
        {"human.xlsx": _corrupt_sheet([["ConvID", "human_response_gpt4"], ["1", "{}"]]), "judge.csv": HUMAN},
        ["human.xlsx"],
        ["out.json"],
    ),
    Case(
        "align-human-symlink-loop",
        [*ALIGN, "--json", "out.json"],
        {"judge.csv": HUMAN},
        ["human.csv"],
        ["out.json"],
        setup=loop("human.csv"),
    ),
    Case(
        "align-exclude-unknown-judge",
        [*ALIGN, "--exclude", "zz=k", "--json", "out.json"],
        {"human.csv": HUMAN, "judge.csv": HUMAN.replace("human_response", "judge_response")},
        ["no judge named 'zz'"],
        ["out.json"],
    ),
    Case(
        "align-json-is-a-folder",
        [*ALIGN, "--bootstrap", "20", "--json", "outdir"],
        {"human.csv": HUMAN2, "judge.csv": HUMAN2.replace("human_response", "judge_response")} | folder("outdir"),
        ["outdir: a folder; expected a file path"],
    ),
]
