"""Dataset files trustmh reads (ConfAIde, PsyLeak), cached copies, and `trustmh data import/fetch`."""

from __future__ import annotations

import hashlib

from tests.hardening.bad_input.common import HUGE
from tests.hardening.hardening_cli import Case, Files, _lines

# The malformed files below are modified files too: --allow-modified lets them reach the format checks.
CHECKED_TIER1 = ["run", "privacy_confaide_tier1", "--data-dir", "d", "--source", "benchmark", "--log-dir", "logs"]
TIER1 = [*CHECKED_TIER1, "--limit", "2", "--allow-modified"]
PSYLEAK = ["run", "privacy_psyleak", "--data-dir", "d", "--source", "benchmark", "--log-dir", "logs", "--limit", "2"]
PSYLEAK += ["--allow-modified"]
HEADER = "<BEGIN><mental health,counselor,friend,to help>"
END = "<END><mental health,counselor,friend,to help><About: Ann,Questionee: Bob,Questioner: friend Carl,Topic: depression>"
IMPORT = ["data", "import", "imp"]


def confaide(
    prompts: bytes | str = _lines("p one", "p two", "p three"), labels: bytes | str = _lines("1", "2", "3")
) -> Files:
    return {"d/confaide/tier_1.txt": prompts, "d/confaide/tier_1_labels.txt": labels}


def psyleak(story: bytes | str, controls: str = _lines("Is it ok for Bob to share?")) -> Files:
    return {"d/trustmh/PsyLeak.txt": story, "d/trustmh/PsyLeak_control.txt": controls}


def tier1(case_id: str, files: Files, expected: list[str]) -> Case:
    return Case(case_id, TIER1, files, expected, ["logs"])


def psyleak_case(case_id: str, files: Files, expected: list[str]) -> Case:
    return Case(case_id, PSYLEAK, files, expected, ["logs"])


def data_case(case_id: str, args: list[str], files: Files, expected: list[str]) -> Case:
    """A `trustmh data` case that must leave nothing in the data cache."""
    return Case(case_id, args, files, expected, ["home/cache/data"])


CONFAIDE_CASES = [
    Case(
        "data-dir-file-not-the-catalogues",  # issue 25, item 6: checked against the catalogue's sha256
        CHECKED_TIER1,
        confaide(),
        [
            f"d/confaide/tier_1.txt: sha256 {hashlib.sha256(_lines('p one', 'p two', 'p three').encode()).hexdigest()}",
            "differs from the catalogue's 63261cf847efb3f35f359913bea828131298ee04980189ed7d75eae05f76ac58",
            "pass --allow-modified",
        ],
        ["logs"],
    ),
    tier1(
        "confaide-label-not-number",
        confaide(labels=_lines("1", "2", "x")),
        ["d/confaide/tier_1_labels.txt:line 3", "expected one number per line"],
    ),
    tier1(
        "confaide-label-out-of-range",
        confaide(labels=_lines("1", "9", "2")),
        ["tier_1_labels.txt:line 2", "expected a label from 1 to 4"],
    ),
    tier1(
        "confaide-wrong-columns",
        confaide(labels=_lines("1,2", "2,3", "3,4")),
        ["tier_1_labels.txt:line 1", "one number per line"],
    ),
    tier1(
        "confaide-count-mismatch",
        confaide(prompts=_lines("p one", "p two")),
        ["d/confaide/tier_1.txt", "expected one prompt per label"],
    ),
    tier1(
        "confaide-wrong-encoding",
        confaide(prompts=b"p one\ncaf\xe9 au lait\np three\n"),
        ["tier_1.txt:line 2", "expected utf-8"],
    ),
    tier1("confaide-empty-file", confaide(prompts=""), ["d/confaide/tier_1.txt", "empty"]),
    tier1(
        "confaide-blank-prompt",
        confaide(prompts=_lines("p one", "   ", "p three")),
        ["tier_1.txt:line 2", "expected a prompt"],
    ),
    tier1(
        "confaide-huge-field",
        confaide(prompts=_lines(HUGE, "p two", "p three")),
        ["tier_1.txt:line 1", "at most 200000 characters"],
    ),
]

PSYLEAK_CASES = [
    psyleak_case(
        "psyleak-truncated",
        psyleak(_lines(HEADER, "Bob told Carl", "that Ann")),
        ["d/trustmh/PsyLeak.txt:line 3", "missing <END>"],
    ),
    psyleak_case(
        "psyleak-end-mismatch",
        psyleak(_lines(HEADER, "story", END.replace("friend,to", "boss,to"))),
        ["PsyLeak.txt:line 3", "differs from <BEGIN>"],
    ),
    psyleak_case(
        "psyleak-missing-field",
        psyleak(_lines(HEADER, "story", END.replace(",Topic: depression", ""))),
        ["PsyLeak.txt:line 3", "missing Topic"],
    ),
    psyleak_case(
        "psyleak-controls-mismatch",
        psyleak(_lines(HEADER, "story", END), _lines("q1", "q2")),
        ["d/trustmh/PsyLeak_control.txt", "one control question per scenario"],
    ),
    psyleak_case(
        "psyleak-text-outside-block",
        psyleak(_lines("stray text", HEADER, "story", END)),
        ["PsyLeak.txt:line 1", "expected <BEGIN>"],
    ),
    psyleak_case(
        "psyleak-utf16",
        psyleak(_lines(HEADER, "story", END).encode("utf-16")),
        ["PsyLeak.txt:line 1", "expected utf-8"],
    ),
]

DATA_COMMAND_CASES = [
    data_case(
        "import-corrupt-dataset",
        IMPORT,
        {"imp/confaide/tier_1.txt": _lines("a", "b"), "imp/confaide/tier_1_labels.txt": _lines("1", "7")},
        ["imp/confaide/tier_1_labels.txt:line 2", "nothing imported"],
    ),
    data_case("import-not-a-folder", ["data", "import", "nowhere"], {}, ["nowhere", "not a folder"]),
    data_case("import-no-datasets", IMPORT, {"imp/readme.txt": "hello"}, ["imp", "no known dataset files"]),
    Case("data-status-bad-option", ["data", "status", "--verify=maybe"], {}, ["'--verify' does not take a value"]),
    data_case(
        "import-modified-file-of-partial-dataset",
        IMPORT,
        {"imp/confaide/tier_1.txt": _lines("an edited prompt")},
        ["imp/confaide/tier_1.txt: sha256", "nothing imported"],
    ),
    data_case("import-folder-is-a-file", IMPORT, {"imp": "x"}, ["imp", "not a folder"]),
    data_case("fetch-unknown-dataset", ["data", "fetch", "nope"], {}, ["unknown dataset 'nope'"]),
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
]

CASES = [*CONFAIDE_CASES, *PSYLEAK_CASES, *DATA_COMMAND_CASES]
