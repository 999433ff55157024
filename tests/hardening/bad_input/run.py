"""`trustmh run`: arguments, models and endpoints, and the log folder."""

from __future__ import annotations

from tests.hardening.bad_input.common import DEAD, KEY, NOWHERE
from tests.hardening.hardening_cli import TEST_KEY, Case


def run(case_id: str, args: list[str], expected: list[str]) -> Case:
    """``trustmh run ARGS --log-dir logs`` that must leave no log."""
    return Case(case_id, ["run", *args, "--log-dir", "logs"], {}, expected, ["logs"])


def unreachable(case_id: str, base_url: str, expected: list[str]) -> Case:
    """An OpenAI model whose endpoint (from $OPENAI_BASE_URL) cannot be reached."""
    args = ["run", "privacy_psyleak", "--model", "openai/m", "--log-dir", "logs", "--no-report"]
    return Case(case_id, args, {}, expected, ["logs"], KEY | {"OPENAI_BASE_URL": base_url})


ARGUMENT_CASES = [
    run("run-unknown-task", ["privacy_nope"], ["unknown task 'privacy_nope'"]),
    run("run-unknown-pillar", ["--pillar", "astrology"], ["unknown pillar 'astrology'"]),
    run(
        "run-model-arg-without-equals",
        ["privacy_psyleak", "-M", "temperature"],
        ["--model-arg expects KEY=VALUE", "'temperature'"],
    ),
    run(
        "run-model-arg-secret-not-echoed",
        ["privacy_psyleak", "-M", TEST_KEY],
        ["--model-arg expects KEY=VALUE", "[REDACTED]"],
    ),
    run(
        "run-task-arg-no-task-takes",
        ["privacy_psyleak", "-T", "condition=explicit"],
        ["-T condition: no selected task takes this argument", "max_tokens"],
    ),
    run("run-task-arg-reserved", ["privacy_psyleak", "-T", "data_dir=x"], ["-T data_dir: set it with --data-dir"]),
    run("run-task-arg-without-equals", ["privacy_psyleak", "-T", "max_tokens"], ["--task-arg expects KEY=VALUE"]),
    run("run-limit-not-integer", ["--limit", "ten"], ["run", "'--limit'", "valid integer"]),
    run("run-unknown-option", ["--limt", "3"], ["run", "No such option: --limt"]),
    run(
        "run-model-without-provider",
        ["privacy_psyleak", "--model", "gpt-4o"],
        ["--model: 'gpt-4o'", "expected PROVIDER/MODEL"],
    ),
    run("run-unknown-provider", ["privacy_psyleak", "--model", "nosuch/m"], ["unknown model provider 'nosuch'"]),
    run("run-missing-api-key", ["privacy_psyleak", "--model", "openai/gpt-4o-mini"], ["OPENAI_API_KEY"]),
    run("run-bad-source", ["privacy_psyleak", "--source", "web"], ["source must be one of auto, starter, benchmark"]),
    run("run-limit-zero", ["privacy_psyleak", "--limit", "0"], ["'--limit'", "greater than or equal to 1"]),
    run(
        "run-zero-connections",
        ["privacy_psyleak", "--max-connections", "0"],
        ["'--max-connections'", "greater than or equal to 1"],
    ),
    run("run-data-dir-missing", ["privacy_psyleak", "--data-dir", "nowhere"], ["--data-dir nowhere: no such folder"]),
    run("run-negative-retries", ["--max-retries", "-1"], ["'--max-retries'", "greater than or equal to 0"]),
    run(
        "run-replay-without-file",
        ["privacy_psyleak", "--model", "trustmh/replay"],
        ["trustmh/replay needs recorded outputs"],
    ),
]

ENVIRONMENT_CASES = [
    unreachable("run-dead-endpoint", DEAD, [f"--model openai/m: endpoint {DEAD} is unreachable", "connection refused"]),
    unreachable("run-unresolvable-endpoint", NOWHERE, [f"endpoint {NOWHERE} is unreachable", "does not resolve"]),
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
]

CASES = [*ARGUMENT_CASES, *ENVIRONMENT_CASES]
