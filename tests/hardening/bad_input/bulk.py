"""`trustmh generate` and `trustmh judge`: their input sheets, options, outputs, endpoints and caches."""

from __future__ import annotations

from typing import Any

from tests.hardening.bad_input.common import DEAD, KEY, NOWHERE, corrupt_sheet, dangling, fifo, folder, loop, xlsx
from tests.hardening.hardening_cli import Case, Files, _lines

GENERATE = ["generate", "--conversations", "conv.csv", "--model", "openai/m", "--no-progress", "--cache", "c.sqlite"]
JUDGE = ["judge", "--responses", "resp.csv", "--judge", "openai/j", "--no-progress", "--cache", "c.sqlite"]
CONVERSATIONS = {"conv.csv": _lines("context", "I cannot sleep.")}
RESPONSES = {"resp.csv": _lines("context,response", "I cannot sleep.,That sounds hard.")}


def _generate(out: str = "out.csv", *extra: str) -> list[str]:
    return [*GENERATE, "-o", out, *extra]


def _judge(out: str = "out.csv", *extra: str) -> list[str]:
    return [*JUDGE, "-o", out, *extra]


def _xlsx_input(command: list[str], name: str) -> list[str]:
    """The command with its input sheet swapped for ``name``, writing out.csv."""
    return [*command[:2], name, *command[3:], "-o", "out.csv"]


def _with_model(command: list[str], *models: str) -> list[str]:
    """The command with other model options in place of its own, writing out.csv."""
    return [*command[:3], *models, "-o", "out.csv"]


def gen(case_id: str, files: Files, expected: list[str], args: list[str] | None = None, **more: Any) -> Case:
    """A generate case with an API key set that must leave no out.csv (unless ``outputs`` says else)."""
    more.setdefault("outputs", ["out.csv"])
    return Case(case_id, args or _generate(), files, expected, env=KEY, **more)


def judge(case_id: str, files: Files, expected: list[str], args: list[str] | None = None, **more: Any) -> Case:
    """A judge case with an API key set that must leave no out.csv (unless ``outputs`` says else)."""
    more.setdefault("outputs", ["out.csv"])
    return Case(case_id, args or _judge(), files, expected, env=KEY, **more)


GENERATE_INPUT_CASES = [
    gen(
        "gen-missing-context-column",
        {"conv.csv": _lines("text", "hello")},
        ["conv.csv:line 1", "missing column 'context'"],
    ),
    gen(
        "gen-empty-context",
        {"conv.csv": _lines("context,x", ",1")},
        ["conv.csv:line 2, column 'context'", "empty context"],
    ),
    gen("gen-not-utf8", {"conv.csv": b"context\ncaf\xe9\n"}, ["conv.csv:line 2", "expected utf-8"]),
    gen("gen-empty-file", {"conv.csv": ""}, ["conv.csv", "empty"]),
    gen("gen-duplicate-header", {"conv.csv": _lines("context,context", "a,b")}, ["conv.csv:line 1", "appears twice"]),
    gen("gen-extra-field", {"conv.csv": _lines("context", "a,b")}, ["conv.csv:line 2", "more fields than"]),
    gen(
        "gen-duplicate-conversation-id",  # issue 25: replies would be joined to the wrong conversation
        {"conv.csv": _lines("ConvID,context", "7,I cannot sleep.", "8,Work is hard.", "7,Again.")},
        ["conv.csv:line 4, field 'ConvID'", "'7' is given twice (first at line 2)"],
    ),
    gen(
        "gen-conversations-wrong-suffix",
        {"conv.txt": _lines("context", "hi")},
        ["conv.txt", "must be a .csv or .xlsx file"],
        ["generate", "--conversations", "conv.txt", "--model", "openai/m", "-o", "out.csv"],
    ),
    gen("gen-conversations-is-a-folder", folder("conv.csv"), ["conv.csv: a folder; expected a file"]),
    gen("gen-conversations-fifo", {}, ["conv.csv: a FIFO (named pipe); expected a file"], setup=fifo("conv.csv")),
    gen("gen-conversations-symlink-loop", {}, ["conv.csv: symlink loop"], setup=loop("conv.csv")),
    gen(
        "gen-conversations-not-xlsx",
        {"conv.xlsx": "context\nhi\n"},
        ["conv.xlsx", "expected an xlsx workbook"],
        _xlsx_input(GENERATE, "conv.xlsx"),
    ),
    gen(
        "gen-conversations-corrupt-sheet-xml",
        {"conv.xlsx": corrupt_sheet([["context"], ["I cannot sleep."]])},
        ["conv.xlsx", "expected an xlsx workbook"],
        _xlsx_input(GENERATE, "conv.xlsx"),
    ),
    gen(
        "gen-xlsx-missing-context",
        {"conv.xlsx": xlsx([["text"], ["hi"]])},
        ["conv.xlsx:row 1", "missing column 'context'"],
        _xlsx_input(GENERATE, "conv.xlsx"),
    ),
]

GENERATE_OPTION_CASES = [
    gen(
        "gen-output-wrong-suffix",
        CONVERSATIONS,
        ["out.txt", "must be a .csv or .xlsx file"],
        _generate("out.txt"),
        outputs=["out.txt"],
    ),
    gen(
        "gen-output-is-a-folder",
        CONVERSATIONS | folder("out.csv"),
        ["--output out.csv: a folder; expected a file path"],
        outputs=[],
    ),
    gen(
        "gen-output-parent-is-a-file",
        CONVERSATIONS | {"blocker": "x"},
        ["blocker/out.csv", "a parent in the path is not a folder"],
        _generate("blocker/out.csv"),
        outputs=[],
    ),
    gen(
        "gen-output-symlink-loop", CONVERSATIONS, ["--output out.csv: symlink loop"], outputs=[], setup=loop("out.csv")
    ),
    gen(
        "gen-output-dangling-symlink",
        CONVERSATIONS,
        ["--output out.csv: a symlink to a missing file"],
        outputs=["missing-folder"],
        setup=dangling("out.csv"),
    ),
    gen(
        "gen-output-fifo",
        CONVERSATIONS,
        ["--output out.csv: a FIFO (named pipe); expected a file path"],
        outputs=[],
        setup=fifo("out.csv"),
    ),
    gen(
        "gen-bad-model-syntax",
        CONVERSATIONS,
        ["model 'gpt4': unknown model syntax"],
        _with_model(GENERATE, "--model", "gpt4"),
    ),
    gen(
        "gen-column-twice",
        CONVERSATIONS,
        ["--model: column 'a' is given twice"],
        _with_model(GENERATE, "--model", "a=openai/m", "--model", "a=openai/n"),
    ),
    gen(
        "gen-reserved-column",
        CONVERSATIONS,
        ["column 'context' is reserved"],
        _with_model(GENERATE, "--model", "context=openai/m"),
    ),
    # no key in the environment: the model cannot be reached, and no cache is created either
    Case("gen-missing-api-key", _generate(), CONVERSATIONS, ["OPENAI_API_KEY"], ["out.csv", "c.sqlite"]),
    gen(
        "gen-dead-endpoint",
        CONVERSATIONS,
        [f"model openai/m: endpoint {DEAD} is unreachable", "connection refused"],
        _generate("out.csv", "--base-url", DEAD),
    ),
    gen(
        "gen-unresolvable-endpoint",
        CONVERSATIONS,
        [f"endpoint {NOWHERE} is unreachable", "does not resolve"],
        _generate("out.csv", "--base-url", NOWHERE),
    ),
    gen(
        "gen-cache-not-a-database",
        CONVERSATIONS | {"c.sqlite": "this is not a database" * 50},
        ["c.sqlite", "not a usable cache database"],
    ),
    gen("gen-cache-in-use", CONVERSATIONS, ["cache c.sqlite is in use by another trustmh run"], hold="c.sqlite.lock"),
    gen("gen-limit-zero", CONVERSATIONS, ["'--limit'", "1"], _generate("out.csv", "--limit", "0")),
    gen("gen-temperature-out-of-range", CONVERSATIONS, ["'--temperature'"], _generate("out.csv", "--temperature", "9")),
]

JUDGE_CASES = [
    judge(
        "judge-no-response-columns", {"resp.csv": _lines("context", "hi")}, ["resp.csv: no response columns to judge"]
    ),
    judge(
        "judge-unknown-key", RESPONSES, ["--key", "'nope'", "has no column 'nope'"], _judge("out.csv", "--key", "nope")
    ),
    judge(
        "judge-missing-context", {"resp.csv": _lines("response", "hi")}, ["resp.csv:line 1", "missing column 'context'"]
    ),
    judge(
        "judge-corrupt-sheet-xml",
        {"resp.xlsx": corrupt_sheet([["context", "response"], ["hi", "hello"]])},
        ["resp.xlsx", "expected an xlsx workbook"],
        _xlsx_input(JUDGE, "resp.xlsx"),
    ),
    judge("judge-responses-symlink-loop", {}, ["resp.csv: symlink loop"], setup=loop("resp.csv")),
    judge("judge-responses-fifo", {}, ["resp.csv: a FIFO (named pipe)"], setup=fifo("resp.csv")),
    judge("judge-output-is-a-folder", RESPONSES | folder("out.csv"), ["--output out.csv: a folder"], outputs=[]),
    judge(
        "judge-dead-endpoint",
        RESPONSES,
        [f"model openai/j: endpoint {DEAD} is unreachable"],
        _judge("out.csv", "--base-url", DEAD),
    ),
    judge(
        "judge-bad-model-syntax",
        RESPONSES,
        ["model 'judge': unknown model syntax"],
        _with_model(JUDGE, "--judge", "judge"),
    ),
    judge(
        "judge-zero-verdict-attempts",
        RESPONSES,
        ["'--max-verdict-attempts'"],
        _judge("out.csv", "--max-verdict-attempts", "0"),
    ),
    judge("judge-cache-in-use", RESPONSES, ["cache c.sqlite is in use"], hold="c.sqlite.lock"),
]

CASES = [*GENERATE_INPUT_CASES, *GENERATE_OPTION_CASES, *JUDGE_CASES]
