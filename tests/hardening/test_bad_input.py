"""Bad-input corpus: each malformed input gives ONE stderr line naming the file and the
line/field and what was expected, exit code 2, and no output file.

The real CLI runs as a subprocess (``python -m trustmh``); each case creates its files in
a fresh folder. ``align`` cases run only when ``trustmh align`` is registered.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from tests.hardening.hardening_cli import TEST_KEY, Case, Files, _lines, isolated_env, run_cli
from trustmh.locks import exclusive

# --- ConfAIde tier files ---------------------------------------------------------------------

TIER1 = [
    "run",
    "privacy_confaide_tier1",
    "--data-dir",
    "d",
    "--source",
    "benchmark",
    "--log-dir",
    "logs",
    "--limit",
    "2",
]


def confaide(
    prompts: bytes | str = _lines("p one", "p two", "p three"), labels: bytes | str = _lines("1", "2", "3")
) -> Files:
    return {"d/confaide/tier_1.txt": prompts, "d/confaide/tier_1_labels.txt": labels}


# --- PsyLeak -------------------------------------------------------------------------------------

PSYLEAK = ["run", "privacy_psyleak", "--data-dir", "d", "--source", "benchmark", "--log-dir", "logs", "--limit", "2"]
HEADER = "<BEGIN><mental health,counselor,friend,to help>"
END = "<END><mental health,counselor,friend,to help><About: Ann,Questionee: Bob,Questioner: friend Carl,Topic: depression>"


def psyleak(story: bytes | str, controls: str = _lines("Is it ok for Bob to share?")) -> Files:
    return {"d/trustmh/PsyLeak.txt": story, "d/trustmh/PsyLeak_control.txt": controls}


# --- replay files for `trustmh score` -----------------------------------------------------------

SCORE = ["score", "privacy_psyleak", "--responses", "r.jsonl", "--json", "out.json"]


def _psyleak_ids() -> list[str]:
    from trustmh.pillars.privacy.dataset import psyleak_dataset

    return [str(s.id) for s in psyleak_dataset("starter", None)]


def replay(*records: object, raw: bytes | str | None = None) -> Files:
    if raw is not None:
        return {"r.jsonl": raw}
    return {"r.jsonl": "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)}


def _all_records(**override: object) -> list[dict[str, object]]:
    return [{"id": sid, "output": "No."} | override for sid in _psyleak_ids()]


HUGE = "x" * 250_001

CASES: list[Case] = [
    # ConfAIde
    Case(
        "confaide-label-not-number",
        TIER1,
        confaide(labels=_lines("1", "2", "x")),
        ["d/confaide/tier_1_labels.txt:line 3", "expected one number per line"],
        ["logs"],
    ),
    Case(
        "confaide-label-out-of-range",
        TIER1,
        confaide(labels=_lines("1", "9", "2")),
        ["tier_1_labels.txt:line 2", "expected a label from 1 to 4"],
        ["logs"],
    ),
    Case(
        "confaide-wrong-columns",
        TIER1,
        confaide(labels=_lines("1,2", "2,3", "3,4")),
        ["tier_1_labels.txt:line 1", "one number per line"],
        ["logs"],
    ),
    Case(
        "confaide-count-mismatch",
        TIER1,
        confaide(prompts=_lines("p one", "p two")),
        ["d/confaide/tier_1.txt", "expected one prompt per label"],
        ["logs"],
    ),
    Case(
        "confaide-wrong-encoding",
        TIER1,
        confaide(prompts=b"p one\ncaf\xe9 au lait\np three\n"),
        ["tier_1.txt:line 2", "expected utf-8"],
        ["logs"],
    ),
    Case("confaide-empty-file", TIER1, confaide(prompts=""), ["d/confaide/tier_1.txt", "empty"], ["logs"]),
    Case(
        "confaide-blank-prompt",
        TIER1,
        confaide(prompts=_lines("p one", "   ", "p three")),
        ["tier_1.txt:line 2", "expected a prompt"],
        ["logs"],
    ),
    Case(
        "confaide-huge-field",
        TIER1,
        confaide(prompts=_lines(HUGE, "p two", "p three")),
        ["tier_1.txt:line 1", "at most 200000 characters"],
        ["logs"],
    ),
    # PsyLeak
    Case(
        "psyleak-truncated",
        PSYLEAK,
        psyleak(_lines(HEADER, "Bob told Carl", "that Ann")),
        ["d/trustmh/PsyLeak.txt:line 3", "missing <END>"],
        ["logs"],
    ),
    Case(
        "psyleak-end-mismatch",
        PSYLEAK,
        psyleak(_lines(HEADER, "story", END.replace("friend,to", "boss,to"))),
        ["PsyLeak.txt:line 3", "differs from <BEGIN>"],
        ["logs"],
    ),
    Case(
        "psyleak-missing-field",
        PSYLEAK,
        psyleak(_lines(HEADER, "story", END.replace(",Topic: depression", ""))),
        ["PsyLeak.txt:line 3", "missing Topic"],
        ["logs"],
    ),
    Case(
        "psyleak-controls-mismatch",
        PSYLEAK,
        psyleak(_lines(HEADER, "story", END), _lines("q1", "q2")),
        ["d/trustmh/PsyLeak_control.txt", "one control question per scenario"],
        ["logs"],
    ),
    Case(
        "psyleak-text-outside-block",
        PSYLEAK,
        psyleak(_lines("stray text", HEADER, "story", END)),
        ["PsyLeak.txt:line 1", "expected <BEGIN>"],
        ["logs"],
    ),
    Case(
        "psyleak-utf16",
        PSYLEAK,
        psyleak(_lines(HEADER, "story", END).encode("utf-16")),
        ["PsyLeak.txt:line 1", "expected utf-8"],
        ["logs"],
    ),
    # replay JSONL for `trustmh score`
    Case(
        "replay-truncated-json",
        SCORE,
        replay(raw='{"id": "0-control", "output": "No."}\n{"id": "0-free-resp'),
        ["r.jsonl:line 2", "expected a JSON object"],
        ["out.json"],
    ),
    Case("replay-empty-file", SCORE, replay(raw=""), ["r.jsonl", "empty"], ["out.json"]),
    Case("replay-not-an-object", SCORE, replay(raw="[1, 2]\n"), ["r.jsonl:line 1", "JSON object"], ["out.json"]),
    Case(
        "replay-missing-output-column",
        SCORE,
        replay({"id": "0-control", "answer": "No."}),
        ["r.jsonl:line 1", '"output"'],
        ["out.json"],
    ),
    Case(
        "replay-output-wrong-type",
        SCORE,
        replay({"id": "0-control", "output": 3}),
        ["r.jsonl:line 1, field 'output'", "expected a string or null"],
        ["out.json"],
    ),
    Case(
        "replay-id-wrong-type",
        SCORE,
        replay({"id": ["0-control"], "output": "No."}),
        ["r.jsonl:line 1, field 'id'", "expected a string or integer id"],
        ["out.json"],
    ),
    Case(
        "replay-duplicate-id",
        SCORE,
        replay(*_all_records(), {"id": "0-control", "output": "Yes."}),
        ["r.jsonl:line 21, field 'id'", "duplicate id '0-control' (first at line"],
        ["out.json"],
    ),
    Case(
        "replay-ids-do-not-match",
        SCORE,
        replay({"id": "q-17", "output": "No."}),
        ["r.jsonl:line 1, field 'id'", "'q-17' is not a sample of privacy_psyleak"],
        ["out.json"],
    ),
    Case(
        "replay-missing-samples",
        SCORE,
        replay(*_all_records()[:-1]),
        ["r.jsonl", f"no record for sample id {_psyleak_ids()[-1]!r}"],
        ["out.json"],
    ),
    Case(
        "replay-wrong-encoding",
        SCORE,
        replay(raw=b'{"id": "0-control", "output": "caf\xe9"}\n'),
        ["r.jsonl:line 1", "expected utf-8"],
        ["out.json"],
    ),
    Case(
        "replay-huge-field",
        SCORE,
        replay({"id": "0-control", "output": HUGE}),
        ["r.jsonl:line 1, field 'output'", "at most 200000 characters"],
        ["out.json"],
    ),
    Case("replay-file-missing", SCORE, {}, ["r.jsonl", "file not found"], ["out.json"]),
    # trustmh data status / import
    Case(
        "import-corrupt-dataset",
        ["data", "import", "imp"],
        {"imp/confaide/tier_1.txt": _lines("a", "b"), "imp/confaide/tier_1_labels.txt": _lines("1", "7")},
        ["imp/confaide/tier_1_labels.txt:line 2", "nothing imported"],
        ["home/cache/data"],
    ),
    Case("import-not-a-folder", ["data", "import", "nowhere"], {}, ["nowhere", "not a folder"], ["home/cache/data"]),
    Case(
        "import-no-datasets",
        ["data", "import", "imp"],
        {"imp/readme.txt": "hello"},
        ["imp", "no known dataset files"],
        ["home/cache/data"],
    ),
    Case("data-status-bad-option", ["data", "status", "--verify=maybe"], {}, ["'--verify' does not take a value"]),
    # trustmh run / score arguments
    Case(
        "run-unknown-task", ["run", "privacy_nope", "--log-dir", "logs"], {}, ["unknown task 'privacy_nope'"], ["logs"]
    ),
    Case(
        "run-unknown-pillar",
        ["run", "--pillar", "astrology", "--log-dir", "logs"],
        {},
        ["unknown pillar 'astrology'"],
        ["logs"],
    ),
    Case(
        "run-model-arg-without-equals",
        ["run", "privacy_psyleak", "-M", "temperature", "--log-dir", "logs"],
        {},
        ["--model-arg expects KEY=VALUE", "'temperature'"],
        ["logs"],
    ),
    Case(
        "run-model-arg-secret-not-echoed",
        ["run", "privacy_psyleak", "-M", TEST_KEY, "--log-dir", "logs"],
        {},
        ["--model-arg expects KEY=VALUE", "[REDACTED]"],
        ["logs"],
    ),
    Case(
        "run-limit-not-integer",
        ["run", "--limit", "ten", "--log-dir", "logs"],
        {},
        ["run", "'--limit'", "valid integer"],
        ["logs"],
    ),
    Case(
        "run-unknown-option",
        ["run", "--limt", "3", "--log-dir", "logs"],
        {},
        ["run", "No such option: --limt"],
        ["logs"],
    ),
    Case(
        "run-model-without-provider",
        ["run", "privacy_psyleak", "--model", "gpt-4o", "--log-dir", "logs"],
        {},
        ["--model: 'gpt-4o'", "expected PROVIDER/MODEL"],
        ["logs"],
    ),
    Case(
        "run-unknown-provider",
        ["run", "privacy_psyleak", "--model", "nosuch/m", "--log-dir", "logs"],
        {},
        ["unknown model provider 'nosuch'"],
        ["logs"],
    ),
    Case(
        "run-missing-api-key",
        ["run", "privacy_psyleak", "--model", "openai/gpt-4o-mini", "--log-dir", "logs"],
        {},
        ["OPENAI_API_KEY"],
        ["logs"],
    ),
    Case(
        "run-bad-source",
        ["run", "privacy_psyleak", "--source", "web", "--log-dir", "logs"],
        {},
        ["source must be one of auto, starter, benchmark"],
        ["logs"],
    ),
    Case(
        "run-limit-zero",
        ["run", "privacy_psyleak", "--limit", "0", "--log-dir", "logs"],
        {},
        ["'--limit'", "greater than or equal to 1"],
        ["logs"],
    ),
    Case(
        "run-zero-connections",
        ["run", "privacy_psyleak", "--max-connections", "0", "--log-dir", "logs"],
        {},
        ["'--max-connections'", "greater than or equal to 1"],
        ["logs"],
    ),
    Case(
        "score-responses-folder-without-the-task",
        ["score", "privacy_psyleak", "--responses", "d", "--json", "out.json"],
        {"d/x.txt": "x"},
        ["d: no recorded outputs for task privacy_psyleak", "psyleak.jsonl"],
        ["out.json"],
    ),
    Case(
        "run-data-dir-missing",
        ["run", "privacy_psyleak", "--data-dir", "nowhere", "--log-dir", "logs"],
        {},
        ["--data-dir nowhere: no such folder"],
        ["logs"],
    ),
    Case(
        "score-benchmark-replay-without-data-dir",
        ["score", "ethics_ethicmh", "--responses", "r.jsonl", "--json", "out.json"],
        {"r.jsonl": '{"id": "0", "output": "A"}\n'},
        ["is not a sample of ethics_ethicmh", "scored against the starter suite", "--data-dir"],
        ["out.json"],
    ),
    Case(
        "run-negative-retries",
        ["run", "--max-retries", "-1", "--log-dir", "logs"],
        {},
        ["'--max-retries'", "greater than or equal to 0"],
        ["logs"],
    ),
    Case(
        "run-replay-without-file",
        ["run", "privacy_psyleak", "--model", "trustmh/replay", "--log-dir", "logs"],
        {},
        ["trustmh/replay needs recorded outputs"],
        ["logs"],
    ),
    Case(
        "score-unknown-task",
        ["score", "nope", "--responses", "r.jsonl", "--json", "out.json"],
        replay(*_all_records()),
        ["unknown task 'nope'"],
        ["out.json"],
    ),
]


# --- align judge files (trustmh align --human FILE --judge NAME=FILE) -----------------------------


ALIGN = ["align", "--human", "human.csv", "--json", "out.json"]
HUMAN = _lines("ConvID,human_response_gpt4", '1,"{""Guidance"": 4}"', '2,"{""Guidance"": 3}"')

CASES += [
    Case(
        "align-judge-without-equals",
        [*ALIGN, "--judge", "judge.csv"],
        {"human.csv": HUMAN, "judge.csv": HUMAN},
        ["--judge", "NAME=VALUE"],
        ["out.json"],
    ),
    Case(
        "align-judge-empty-file",
        [*ALIGN, "--judge", "claude=judge.csv"],
        {"human.csv": HUMAN, "judge.csv": ""},
        ["judge.csv", "empty"],
        ["out.json"],
    ),
    Case(
        "align-judge-no-convid-column",
        [*ALIGN, "--judge", "claude=judge.csv"],
        {"human.csv": HUMAN, "judge.csv": _lines("Conversation,judge_response_gpt4", "1,4")},
        ["judge.csv:row 1", "missing column 'ConvID'"],
        ["out.json"],
    ),
    Case(
        "align-judge-truncated",
        [*ALIGN, "--judge", "claude=judge.csv"],
        {"human.csv": HUMAN, "judge.csv": 'ConvID,judge_response_gpt4\n1,"{""Guid'},
        ["judge.csv"],
        ["out.json"],
    ),
    Case(
        "align-judge-ids-do-not-match",
        [*ALIGN, "--judge", "claude=judge.csv"],
        {
            "human.csv": HUMAN,
            "judge.csv": _lines("ConvID,judge_response_gpt4", '7,"{""Guidance"": 4}"', '8,"{""Guidance"": 3}"'),
        },
        ["judge.csv:row 2", "ConvID '7' is not in human.csv"],
        ["out.json"],
    ),
    Case(
        "align-judge-file-missing",
        [*ALIGN, "--judge", "claude=nowhere.csv"],
        {"human.csv": HUMAN},
        ["nowhere.csv"],
        ["out.json"],
    ),
]


from tests.hardening.bad_input_issue12 import ISSUE12_CASES  # noqa: E402  (after CASES: it extends them)

CASES += ISSUE12_CASES


def _write(root: Path, files: Files) -> None:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _leftovers(root: Path, output: str) -> list[str]:
    path = root / output
    if not path.exists():
        return []
    if path.is_file():
        return [str(path)]
    return [str(p) for p in path.rglob("*") if p.is_file()]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=c.marks) for c in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _write(tmp_path, case.files)
    if case.setup is not None:
        case.setup(tmp_path)
    with contextlib.ExitStack() as stack:
        if case.hold is not None:  # another run holds this lock while the command runs
            stack.enter_context(exclusive(tmp_path / case.hold, "the other run"))
        result = run_cli(case.args, tmp_path, isolated_env(home, **case.env), timeout=120)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1, result.stderr[-2000:]
    (line,) = lines
    assert line.startswith("error: "), line
    assert "Traceback" not in result.stderr
    for expected in case.expected:
        assert expected in line, (expected, line)
    assert TEST_KEY not in result.stderr + result.stdout
    for output in case.outputs:
        assert _leftovers(tmp_path, output) == [], output


def test_corpus_size() -> None:
    assert len(CASES) >= 100 and len([c for c in CASES if not c.marks]) >= 90
