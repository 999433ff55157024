"""dialogue_mindeval with MindEval's prompts read from a clone (a tiny synthetic one written here:
MindEval has no licence, so its real text is neither shipped nor used in tests), and its label
without one."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from tests.fakes import CALLS, metrics_of, script
from trustmh.conversation.record import Turn
from trustmh.core.errors import UserError
from trustmh.dialogue.mindeval import CLONE_LABEL, STYLE_LABEL, dialogue_mindeval
from trustmh.dialogue.mindeval_clone import conversation_text, judge_reader, load_clone
from trustmh.dialogue.mindeval_prompts import CRITERIA
from trustmh.scoring.verdict import VerdictError

CRITERIA_NAMES = ["Alpha Care", "Beta Conduct", "Gamma Reading", "Delta Alliance", "Epsilon Voice"]
PROMPTS = '''from string import Template

COUNSELLOR = Template("""Synthetic counsellor brief: the member is ${name}, ${age}.""")
MEMBER = Template("""Synthetic member brief: play ${name}. Backstory: ${member_narrative}""")
OTHER = Template("""unused""")
INTERACTION_MEMBER_VERSION_DICT = {"v0_2": MEMBER}
INTERACTION_CLINICIAN_VERSION_DICT = {"v0_1": COUNSELLOR, "custom": OTHER}
'''
JUDGE = '''from string import Template

JUDGE = Template("""Synthetic judge brief for ${name} (${depressive_symptoms}).
<conversation>
${conversation_str}
</conversation>""")
JUDGE_PROMPT_TEMPLATE_VERSION_DICT = {"v0_1": JUDGE}
'''
UTILS = f"""def parse_judge_scores(output):
    criteria = {CRITERIA_NAMES!r}
    return criteria
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    root = tmp_path / "mind-eval"
    (root / "mindeval").mkdir(parents=True)
    for name, text in (("prompts.py", PROMPTS), ("judge_prompts.py", JUDGE), ("utils.py", UTILS)):
        (root / "mindeval" / name).write_text(text, encoding="utf-8")
    (root / ".git" / "refs" / "heads").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (root / ".git" / "refs" / "heads" / "main").write_text("0123abcd" * 5 + "\n", encoding="utf-8")
    return root


def test_clone_is_read_as_written(clone: Path) -> None:
    loaded = load_clone(clone)
    assert loaded.criteria == tuple(CRITERIA_NAMES)
    assert loaded.templates["clinician"].startswith("Synthetic counsellor brief")
    assert loaded.templates["member"].startswith("Synthetic member brief")
    assert loaded.commit == "0123abcd" * 5
    assert set(loaded.files) == {"mindeval/prompts.py", "mindeval/judge_prompts.py", "mindeval/utils.py"}


@pytest.mark.parametrize(
    ("remove", "message"),
    [("mindeval/utils.py", "no mindeval/utils.py"), ("mindeval/judge_prompts.py", "no mindeval/judge_prompts.py")],
)
def test_incomplete_clone_is_one_line_error(clone: Path, remove: str, message: str) -> None:
    (clone / remove).unlink()
    with pytest.raises(UserError, match=message):
        load_clone(clone)


def test_unknown_version_names_the_dict(clone: Path) -> None:
    with pytest.raises(UserError, match="INTERACTION_MEMBER_VERSION_DICT has no version 'v9'"):
        load_clone(clone, {"member": "v9"})


def test_conversation_layout() -> None:
    turns = [Turn(1, "Hello", "Hi, how are you?"), Turn(2, "Tired.", "Tell me more.")]
    assert conversation_text(turns) == (
        "<member>\nHello\n</member>\n<therapist>\nHi, how are you?\n</therapist>\n"
        "<member>\nTired.\n</member>\n<therapist>\nTell me more.\n</therapist>"
    )


def test_judge_readers() -> None:
    fields = tuple(CRITERIA)
    full = "\n".join(f"{name}: {score}" for name, score in zip(CRITERIA_NAMES, (4, 3, 5, 2, 6), strict=True))
    for parser in ("upstream", "corrected"):
        verdict = judge_reader(CRITERIA_NAMES, fields, parser)(full, None, ())  # type: ignore[arg-type]
        assert list(verdict.values()) == [4, 3, 5, 2, 6]
    missing = "\n".join(full.splitlines()[:4])
    upstream = judge_reader(CRITERIA_NAMES, fields, "upstream")(missing, None, ())  # type: ignore[arg-type]
    assert upstream[fields[4]] == 3  # MindEval scores a criterion it cannot find as 3
    with pytest.raises(VerdictError, match="Epsilon Voice"):
        judge_reader(CRITERIA_NAMES, fields, "corrected")(missing, None, ())  # type: ignore[arg-type]
    with pytest.raises(VerdictError, match="not an integer from 1 to 6"):
        judge_reader(CRITERIA_NAMES, fields, "corrected")(full.replace(": 6", ": 7"), None, ())  # type: ignore[arg-type]


def test_run_with_a_clone_sends_its_prompts(tmp_path: Path, clone: Path) -> None:
    task = dialogue_mindeval(source="starter", turns=2, mindeval_clone=str(clone))
    assert task.metadata["protocol_label"] == CLONE_LABEL
    assert task.metadata["mindeval_clone"]["commit"] == "0123abcd" * 5
    sample = task.dataset[0]
    values = sample.metadata["profile_values"]
    verdict = "\n".join(f"{name}: 4" for name in CRITERIA_NAMES)
    judge = script("clone-judge", [verdict])
    member = script("clone-member", ["I have not slept well."])
    [log] = eval(
        task,
        model=script("clone-counsellor", ["That sounds hard."]),
        model_roles={"user": get_model(member), "judge": get_model(judge)},
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    log = read_eval_log(log.location, resolve_attachments=True)
    metrics = metrics_of(log)
    assert metrics["overall"] == 4.0 and metrics["clinical_accuracy"] == 4.0
    [done] = log.samples
    assert done.messages[0].role == "system"
    assert done.messages[0].text == string.Template(load_clone(clone).templates["clinician"]).substitute(values)
    assert done.messages[1].text == "Hello"  # MindEval's fixed first member message
    member_calls = [e for e in done.events if isinstance(e, ModelEvent) and e.model.endswith("clone-member")]
    assert member_calls and member_calls[0].input[0].role == "system"
    assert member_calls[0].input[0].text.startswith(f"Synthetic member brief: play {values['name']}.")
    turns = [Turn(**t) for t in done.store["trustmh_conversation"]["turns"]]
    expected = string.Template(load_clone(clone).templates["judge"]).substitute(
        values, conversation_str=conversation_text(turns)
    )
    assert expected in CALLS["clone-judge"]


def test_without_a_clone_it_is_labelled_ours() -> None:
    task = dialogue_mindeval(source="starter")
    assert task.metadata["protocol_label"] == STYLE_LABEL == "MindEval-style (trustmh protocol)"
    assert "mindeval_clone" not in task.metadata
